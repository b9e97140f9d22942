"""The XGBoost rows of the risks chapter on the statistics layer (:mod:`ldpnb.papers.risks.grading`): one
estimate per (curve, ε) cell, the run mean with Hall's interval where a cell has two runs or more, Wilson's
interval over the test users where it has one; the paired excess over the oracle; the largest cell; and the
figures' interval of the run mean (:func:`ldpnb.papers.risks.figures.mean_interval`)."""

import numpy as np
import pytest

from ldpnb import stats
from ldpnb.papers.risks import grading
from ldpnb.papers.risks.figures import mean_interval


def _curve(acc, n_test=1000, **extra):
    acc = np.asarray(acc, dtype=float)
    return {"eps": [1.0, 10.0][: acc.shape[1]], "acc": acc, "n_test": np.full(acc.shape, float(n_test)), **extra}


def test_one_run_cell_is_wilson_over_the_test_users():
    v = _curve([[23.4, 51.2]], n_test=500)
    e = grading.xgb_estimate([(v, 10.0)])
    w = stats.proportion(256, 500)
    assert e.method == "wilson" and e.n_runs == 1 and "training runs" in e.note
    assert float(e.value[0]) == 51.2
    assert (float(e.low[0]), float(e.high[0])) == pytest.approx((100 * w.low, 100 * w.high))


def test_cells_with_runs_are_the_run_mean_and_joint():
    v = _curve([[20.0, 30.0], [22.0, 31.0], [21.0, 35.0]])
    e = grading.xgb_estimate([(v, 1.0), (v, 10.0)])
    ref = stats.mean(np.array([[20.0, 30.0], [22.0, 31.0], [21.0, 35.0]]), simultaneous=True)
    assert e.simultaneous and e.method == "hall" and e.n_runs == 3
    np.testing.assert_allclose(e.value, ref.value)
    np.testing.assert_allclose(e.low, np.maximum(ref.low, 0))
    np.testing.assert_allclose(e.high, ref.high)


def test_a_missing_run_is_left_out_and_a_one_run_cell_needs_its_users():
    v = _curve([[20.0, 30.0], [np.nan, 31.0]])
    e = grading.xgb_estimate([(v, 1.0), (v, 10.0)])
    assert e.n_runs == 1 and "cells: wilson, hall" in e.note
    with pytest.raises(ValueError, match="n_test"):
        grading.xgb_estimate([({"eps": [1.0], "acc": np.array([[20.0]])}, 1.0)])


def test_difference_is_paired_over_common_runs():
    a = _curve([[20.0], [22.0], [21.0]])
    b = _curve([[10.0], [11.0], [12.0]])
    d = grading.xgb_difference([(a, b, 1.0)])
    ref = stats.difference([20.0, 22.0, 21.0], [10.0, 11.0, 12.0], paired=True)
    assert float(d.value[0]) == pytest.approx(10.0)
    assert (float(d.low[0]), float(d.high[0])) == pytest.approx((float(ref.low), float(ref.high)))
    one = grading.xgb_difference([(_curve([[20.0]]), _curve([[10.0]]), 1.0)])  # independent Wilson cells
    assert one.method == "independent-difference" and float(one.low[0]) < 10 < float(one.high[0])


def test_one_run_excess_is_the_paired_interval_and_covers():
    """One fit: the excess (points) over n test users from the discordant counts; its 95 % interval covers
    the true excess 93-97 % of the time (paired Bernoulli users, 4,000 simulated fits)."""
    rng = np.random.default_rng(5)
    n, p_win, p_loss, reps = 2000, 0.04, 0.07, 4000
    truth = 100 * (p_win - p_loss)
    u = rng.random((reps, n))
    wins, losses = (u < p_win).sum(1), ((u >= p_win) & (u < p_win + p_loss)).sum(1)
    hit = 0
    for w, lo_ in zip(wins, losses):
        d = 100 * (w - lo_) / n
        v = {
            "eps": [1.0],
            "acc": np.array([[30.0 + d]]),
            "oracle": np.array([[30.0]]),
            "n_test": np.array([[n]]),
            "wins": np.array([[w]]),
            "losses": np.array([[lo_]]),
        }
        e = grading.xgb_excess([v])
        hit += float(e.low[0]) <= truth <= float(e.high[0])
    assert 0.93 <= hit / reps <= 0.97


def test_largest_keeps_the_joint_level_and_refuses_pointwise_cells():
    e = stats.Estimate([1.0, 3.0, 2.0], [0.0, 2.0, 2.5], [2.0, 4.0, 3.5], method="t", n_runs=5, simultaneous=True)
    m = grading.largest(e)
    assert (m.value, m.low, m.high, m.level) == (3.0, 2.5, 4.0, 0.95)
    with pytest.raises(ValueError, match="simultaneous"):
        grading.largest(stats.Estimate([1.0, 2.0], [0.0, 1.0], [2.0, 3.0], method="t", n_runs=5))


def test_figure_interval_is_the_run_mean_interval():
    runs = np.array([[1.0, 5.0, 2.0], [2.0, 5.0, np.nan], [4.0, 5.0, np.nan]])
    m, lo, hi = mean_interval(runs, 0.0, 100.0)
    ref = stats.mean(runs[:, 0])
    assert m.tolist() == [pytest.approx(7 / 3), 5.0, 2.0]
    assert (lo[0], hi[0]) == pytest.approx((max(float(ref.low), 0.0), float(ref.high)))
    assert (lo[1], hi[1]) == (5.0, 5.0) and np.isnan(lo[2]) and np.isnan(hi[2])  # one run: no interval


def test_rid_runs_named_points_are_the_hand_indexed_numbers():
    """RidRuns reads the same numbers, bit for bit, as the hand indexing it replaces (``H[p][-1, t1]``)."""
    from ldpnb.papers.risks.runs import RidRuns

    a = np.random.default_rng(2).uniform(0, 40, (7, 3, 4, 3))
    r = RidRuns(a, [1, 4, 10], (2, 3, 4, 5), (1, 5, 10))
    m = a.mean(axis=0)
    assert r.mean(surveys=4, top=1) == m[-1, 2, 0] and r.mean(at=1, surveys=2, top=10) == m[0, 0, 2]
    assert np.array_equal(r.mean(at="all", surveys=5, top=10), m[:, -1, -1])
    assert np.array_equal(r.mean(at=1, top=10), m[0, :, 2])
    assert np.array_equal(r.runs(surveys=5, top=1), a[:, -1, -1, 0])
    with pytest.raises(ValueError, match="#surveys"):
        r.mean(surveys=6, top=1)
    with pytest.raises(ValueError, match="shape"):
        RidRuns(a, [1, 4], (2, 3, 4, 5), (1, 5, 10))


# ----------------------------------------------------------------------------- moderated variances
def _view(rng, runs, cells=30, n_test=2000, extra_sd=1.0, n_curves=3):
    """A view of ``n_curves`` curves over ``cells // n_curves`` ε, accuracies binomial over ``n_test`` users
    plus a between-run (training) effect of ``extra_sd`` points; returns the view and the true means."""
    per = cells // n_curves
    eps = [float(e) for e in range(1, per + 1)]
    view, truth = {}, {}
    for c in range(n_curves):
        mu = rng.uniform(5, 60, per)
        p = np.clip(mu[None, :] + rng.normal(0, extra_sd, (runs, per)), 0.5, 99.5) / 100
        acc = 100 * rng.binomial(n_test, p) / n_test
        view[(f"V{c}", "NK")] = {"eps": eps, "acc": acc, "n_test": np.full(acc.shape, float(n_test))}
        truth[(f"V{c}", "NK")] = mu
    return view, truth


def test_a_view_with_enough_three_run_cells_gets_a_prior_and_moderated_cells():
    rng = np.random.default_rng(41)
    view, _ = _view(rng, runs=4)
    p = grading.xgb_prior(view)
    assert p is not None and p[0] > 1  # the training effect makes runs vary more than the test users alone
    pv = grading.with_prior(view)
    cells = [(v, e) for v in pv.values() for e in v["eps"]]
    e = grading.xgb_estimate(cells)
    assert e.method == "moderated-t" and e.simultaneous and e.note == grading.PRIOR_NOTE
    # too few cells, or cells of two runs: no prior, each cell on its own runs as before
    assert grading.xgb_prior(_view(rng, runs=4, cells=12)[0]) is None
    assert grading.xgb_prior(_view(rng, runs=2)[0]) is None
    small = grading.with_prior(_view(rng, runs=4, cells=12)[0])
    assert grading.xgb_estimate([(v, 1.0) for v in small.values()]).method == "hall"


def test_a_one_run_cell_of_a_prior_view_takes_the_prior_variance_not_wilson():
    rng = np.random.default_rng(42)
    view, _ = _view(rng, runs=4)
    one = {"eps": [1.0], "acc": np.array([[30.0]]), "n_test": np.array([[2000.0]])}
    pv = grading.with_prior({**view, ("one", "NK"): one})
    e = grading.xgb_estimate([(pv[("one", "NK")], 1.0)])
    w = grading.xgb_estimate([(one, 1.0)])
    assert e.method == "moderated-t" and w.method == "wilson"
    assert float(e.high[0] - e.low[0]) > float(w.high[0] - w.low[0])  # the between-run variance is in


def test_moderated_cells_cover_jointly_through_the_grading():
    """The grading path end to end: 30 cells of 3 runs (binomial test users plus a training effect), joint
    95 % intervals of xgb_estimate on the view's own prior cover every true mean at least 93 % of 200
    replications; with the largest cell's interval the largest truth too."""
    rng = np.random.default_rng(43)
    hits, top = [], []
    for _ in range(200):
        view, truth = _view(rng, runs=3, extra_sd=rng.choice([0.5, 1.5]))
        pv = grading.with_prior(view)
        keys = list(pv)
        e = grading.xgb_estimate([(pv[k], x) for k in keys for x in pv[k]["eps"]])
        mu = np.concatenate([truth[k] for k in keys])
        hits.append(bool(np.all((e.low <= mu) & (mu <= e.high))))
        m = grading.largest(e)
        top.append(m.low <= mu.max() <= m.high)
    assert np.mean(hits) >= 0.93 and np.mean(top) >= 0.93, (np.mean(hits), np.mean(top))


def test_differences_of_moderated_cells_and_the_moderated_excess():
    rng = np.random.default_rng(44)
    view, _ = _view(rng, runs=3)
    pv = grading.with_prior(view)
    a, b = pv[("V0", "NK")], pv[("V1", "NK")]
    d = grading.xgb_difference([(a, b, e) for e in a["eps"]])
    assert d.method == "independent-difference" and d.note == grading.PRIOR_NOTE
    # the excess over the oracle: a row of 30 three-run cells fits its own prior
    curves = []
    for v in view.values():
        acc = v["acc"]
        n = v["n_test"]
        w = np.round(n * 0.05) + rng.integers(0, 5, acc.shape)
        lo = np.round(n * 0.05) + rng.integers(0, 5, acc.shape)
        curves.append({**v, "oracle": acc - 100 * (w - lo) / n, "wins": w, "losses": lo})
    x = grading.xgb_excess(curves)
    assert x.method == "moderated-t" and "paired test-user variance" in x.note and x.simultaneous
