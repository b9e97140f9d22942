"""ldpnb.stats: every interval validated by simulation (coverage of a 95 % interval in [93, 97] %
on known cases, at the run counts the chapters use), refusals where a method under-covers, the
Estimate value type, and the PSE standard error of the linkage attack.

The repetitions are vectorised: R independent data sets are R cells of one call (runs along axis
0), so one call of an estimator gives R intervals.  The heavy cases are marked ``slow``; each has a
fast version in the default suite.
"""

from __future__ import annotations

import doctest
import json
import math

import numpy as np
import pytest
from scipy import stats as st

import ldpnb.stats as S
from ldpnb.stats import Estimate, exact

LO, HI = 0.93, 0.97  # the coverage window of a 95 % interval
RUNS = (3, 5, 10, 20, 50, 100)
SIGMA = 0.5  # the skewed case: lognormal(0, 0.5), skewness 1.75


def cover(e: Estimate, truth) -> float:
    return float(np.mean((np.asarray(e.low) <= truth) & (truth <= np.asarray(e.high))))


def runs(kind: str, n: int, reps: int, rng) -> tuple[np.ndarray, float, float]:
    """``reps`` data sets of ``n`` runs (shape (n, reps)), the true mean and the true median."""
    if kind == "normal":
        return rng.normal(1.0, 1.0, (n, reps)), 1.0, 1.0
    return rng.lognormal(0.0, SIGMA, (n, reps)), math.exp(SIGMA**2 / 2), 1.0


def within(c: float, lo: float = LO, hi: float = HI) -> bool:
    return lo <= c <= hi


# ----------------------------------------------------------------------------- the value type
def test_estimate_validates_and_round_trips_through_json():
    e = Estimate(
        [1.0, 2.0],
        [0.5, 1.5],
        [1.5, np.inf],
        level=0.9,
        se=[0.2, 0.3],
        n_runs=20,
        method="fieller",
        simultaneous=True,
        note="unbounded",
    )
    back = Estimate.from_dict(json.loads(json.dumps(e.to_dict(), allow_nan=False)))
    assert back == e and back.shape == (2,) and back.cell_level == pytest.approx(0.95)
    assert e[1].high == np.inf and e[0].value == 1.0
    nan = Estimate(float("nan"), float("nan"), float("nan"), method="fieller", n_runs=3)
    assert Estimate.from_dict(json.loads(json.dumps(nan.to_dict()))) == nan
    x = exact([1.0, 2.0])
    assert x.exact and x.half_widths[0].tolist() == [0.0, 0.0] and str(exact(2.0)) == "2 (exact)"
    with pytest.raises(ValueError, match="low must be <= high"):
        Estimate(1.0, 2.0, 0.5, method="t")
    with pytest.raises(ValueError, match="one shape"):
        Estimate([1.0, 2.0], [0.0], [3.0, 3.0], method="t")
    with pytest.raises(ValueError, match="exact estimate has low == value == high"):
        Estimate(1.0, 0.9, 1.1, method="exact")
    with pytest.raises(ValueError, match="method"):
        Estimate(1.0, 0.9, 1.1, method="guess")
    with pytest.raises(ValueError, match="level"):
        Estimate(1.0, 0.9, 1.1, method="t", level=1.5)
    with pytest.raises(ValueError, match="finite"):
        Estimate(np.inf, 0.0, np.inf, method="t")
    with pytest.raises(ValueError, match="n_runs"):
        Estimate(1.0, 0.9, 1.1, method="t", n_runs=0)
    with pytest.raises((TypeError, ValueError)):
        e.value[0] = 3.0  # read-only


def test_the_stats_floor_imports_only_numpy_scipy_and_contracts():
    """ldpnb.stats sits low in the core (the attacks and the reproduction machinery import it)."""
    import ast
    from pathlib import Path

    allowed = (
        "numpy",
        "scipy",
        "ldpnb.contracts",
        "ldpnb.stats",
        "__future__",
        "math",
        "numbers",
        "dataclasses",
        "typing",
    )
    for path in Path(S.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            for name in names:
                assert name.split(".")[0] in allowed or name.startswith(allowed), f"{path.name} imports {name}"


def test_doctests_of_the_module_run():
    import ldpnb.stats._decide
    import ldpnb.stats._estimate
    import ldpnb.stats._intervals
    import ldpnb.stats._moderated
    import ldpnb.stats._rank

    mods = (S, ldpnb.stats._estimate, ldpnb.stats._intervals, ldpnb.stats._rank, ldpnb.stats._decide)
    for m in (*mods, ldpnb.stats._moderated):
        res = doctest.testmod(m, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
        assert res.failed == 0 and res.attempted > 0, m.__name__


# ----------------------------------------------------------------------------- coverage: the mean
@pytest.mark.parametrize("kind", ["normal", "lognormal"])
@pytest.mark.parametrize("n", RUNS)
def test_mean_hall_covers_at_every_run_count(kind, n):
    rng = np.random.default_rng([1, n, kind == "normal"])
    x, mu, _ = runs(kind, n, 6000, rng)
    e = S.mean(x)
    assert e.shape == (6000,) and e.method == "hall" and e.n_runs == n
    assert ("widened" in e.note) == (n < 20)
    assert within(cover(e, mu)), (kind, n, cover(e, mu))


@pytest.mark.parametrize("n", RUNS)
def test_mean_t_is_exact_for_normal_runs_and_under_covers_skewed_runs(n):
    rng = np.random.default_rng([2, n])
    x, mu, _ = runs("normal", n, 6000, rng)
    assert within(cover(S.mean(x, method="t"), mu), 0.94, 0.96)
    if n in (5, 10):  # the documented shortfall: 91-93 % at 5-20 runs
        y, mu, _ = runs("lognormal", n, 20000, rng)
        assert cover(S.mean(y, method="t"), mu) < 0.93


@pytest.mark.parametrize("kind", ["normal", "lognormal"])
@pytest.mark.parametrize("n", [20, 50, 100])
def test_mean_bootstrap_covers_from_twenty_runs(kind, n):
    rng = np.random.default_rng([3, n, kind == "normal"])
    x, mu, _ = runs(kind, n, 3000, rng)
    e = S.mean(x, method="bootstrap", n_boot=1000, rng=7)
    assert e.method == "bootstrap-t" and within(cover(e, mu)), cover(e, mu)


@pytest.mark.parametrize("n", [3, 5, 9, 19])
def test_the_bootstrap_refuses_tiny_run_counts(n):
    x = np.arange(float(n))
    for call in (
        lambda: S.mean(x, method="bootstrap"),
        lambda: S.ratio(x + 1, x + 2, method="bootstrap"),
        lambda: S.difference(x, x + 1, paired=True, method="bootstrap"),
    ):
        with pytest.raises(ValueError, match="at least 20 runs"):
            call()
    if n < 10:
        with pytest.raises(ValueError, match="at least 10 runs"):
            S.bootstrap(lambda a, axis: np.median(a, axis), (x,))


def test_the_bootstrap_percentile_interval_would_under_cover_at_five_runs():
    """Why the bootstrap refuses below 10 runs: at 5 runs its 95 % percentile interval of a mean
    covers about 84 % of normal data sets."""
    rng = np.random.default_rng(4)
    x = rng.normal(0, 1, (5, 4000))
    idx = rng.integers(0, 5, (1000, 5))
    boot = x[idx].mean(1)
    lo, hi = np.quantile(boot, [0.025, 0.975], axis=0)
    assert np.mean((lo <= 0) & (0 <= hi)) < 0.88


# ----------------------------------------------------------------------------- the median
@pytest.mark.parametrize("kind", ["normal", "lognormal"])
@pytest.mark.parametrize("n", [6, 10, 15, 20, 50, 100])
def test_median_covers(kind, n):
    rng = np.random.default_rng([5, n, kind == "normal"])
    x, _, med = runs(kind, n, 6000, rng)
    e = S.median(x)
    assert e.method == "order" and within(cover(e, med)), cover(e, med)


@pytest.mark.parametrize("n", [3, 5])
def test_median_refuses_when_no_interval_reaches_the_level(n):
    with pytest.raises(ValueError, match="at least 6 runs"):
        S.median(np.arange(float(n)))
    assert S.median(np.arange(float(n)), level=0.5).n_runs == n


# ----------------------------------------------------------------------------- differences
@pytest.mark.parametrize("n", RUNS)
def test_difference_paired_and_welch_cover(n):
    rng = np.random.default_rng([6, n])
    reps = 6000
    z, e = rng.normal(size=(n, reps)), rng.normal(size=(n, reps))
    a, b = np.exp(SIGMA * z), 0.5 * np.exp(SIGMA * (0.7 * z + math.sqrt(1 - 0.49) * e))  # paired, skewed
    truth = math.exp(SIGMA**2 / 2) * 0.5
    assert within(cover(S.difference(a, b, paired=True), truth))
    x, mx, _ = runs("lognormal", n, reps, rng)
    y, my, _ = runs("lognormal", n, reps, rng)
    assert within(cover(S.difference(x, 2 * y), mx - 2 * my))  # Welch, unequal skewness
    u, w = rng.normal(1, 1, (n, reps)), rng.normal(0, 2, (max(n, 3) + 2, reps))
    assert within(cover(S.difference(u, w), 1.0))  # Welch, unequal n and variances
    if n >= 20:
        d = S.difference(a, b, paired=True, method="bootstrap", n_boot=1000, rng=1)
        assert d.method == "bootstrap-t" and within(cover(d, truth))


def test_difference_refuses_mismatched_runs():
    with pytest.raises(ValueError, match="paired runs need the same shape"):
        S.difference(np.ones(4), np.ones(5), paired=True)
    for m in ("hall", "bootstrap"):
        with pytest.raises(ValueError, match="is for paired runs"):
            S.difference(np.ones(4), np.ones(5), method=m)
    with pytest.raises(ValueError, match="same cells"):
        S.difference(np.ones((4, 2)), np.ones((4, 3)))


# ----------------------------------------------------------------------------- ratios
@pytest.mark.parametrize("n", RUNS)
def test_fieller_covers_independent_and_paired_runs(n):
    rng = np.random.default_rng([7, n])
    reps = 6000
    a, b = rng.normal(3, 1.2, (n, reps)), rng.normal(2, 0.6, (n, reps))  # CV 0.4 / 0.3
    assert within(cover(S.ratio(a, b), 1.5))
    a, b = 1.5 * rng.lognormal(0, 0.5, (n, reps)), rng.lognormal(0, 0.3, (n, reps))
    assert within(cover(S.ratio(a, b), 1.5 * math.exp(0.125 - 0.045)))
    z, e = rng.normal(size=(n, reps)), rng.normal(size=(n, reps))
    a, b = 1.5 * np.exp(0.3 * z), np.exp(0.3 * (0.7 * z + math.sqrt(1 - 0.49) * e))  # paired, CV 0.3
    assert within(cover(S.ratio(a, b, paired=True), 1.5))


@pytest.mark.parametrize("n", [20, 50, 100])
def test_ratio_bootstrap_covers_from_twenty_runs(n):
    rng = np.random.default_rng([8, n])
    a, b = 1.5 * rng.lognormal(0, 0.5, (n, 3000)), rng.lognormal(0, 0.3, (n, 3000))
    e = S.ratio(a, b, method="bootstrap", n_boot=1000, rng=2)
    assert e.method == "bootstrap-t" and within(cover(e, 1.5 * math.exp(0.125 - 0.045)))


def test_fieller_is_unbounded_when_the_denominator_is_not_resolved():
    e = S.ratio(np.array([1.0, 2.0, 3.0]), np.array([-1.0, 0.5, 1.0]))
    assert e.low == -np.inf and e.high == np.inf and "unbounded" in e.note


# ----------------------------------------------------------------------------- proportions
def _binomial_coverage(method: str, n: int, p: float) -> float:
    k = np.arange(n + 1)
    e = S.proportion(k, np.full(n + 1, n), method=method)
    hit = (np.asarray(e.low) <= p) & (p <= np.asarray(e.high))
    return float(st.binom.pmf(k, n, p)[hit].sum())


@pytest.mark.parametrize("n", [10, 20, 50, 100])
def test_proportion_coverage_is_exact_by_enumeration(n):
    ps = np.linspace(0.05, 0.95, 91)
    wilson = np.array([_binomial_coverage("wilson", n, p) for p in ps])
    cp = np.array([_binomial_coverage("clopper-pearson", n, p) for p in ps])
    assert within(wilson.mean()) and wilson.min() >= 0.85  # near-nominal on average
    assert cp.min() >= 0.95 - 1e-12 and cp.max() <= 0.999  # conservative by construction
    e = S.proportion(0, 20, method="clopper-pearson")
    assert e.low == 0.0 and e.high == pytest.approx(1 - 0.025 ** (1 / 20))
    with pytest.raises(ValueError, match="successes must be <= trials"):
        S.proportion(5, 4)


# ----------------------------------------------------------------------------- Kendall's tau
def test_kendall_tau_b_matches_scipy_and_ties_within_the_tolerance():
    rng = np.random.default_rng(10)
    x, y = rng.integers(0, 5, 30).astype(float), rng.normal(size=30)
    assert S.kendall_tau(x, y).value == pytest.approx(st.kendalltau(x, y).statistic, abs=1e-12)
    a = np.array([0.1, 0.2, 0.3, 0.4])
    b = a + np.array([0, 1e-14, -1e-14, 0])  # equal up to rounding
    noisy = np.array([0.3, 0.3 + 1e-14, 0.3 - 1e-14, 0.5])  # three ties ranked by rounding noise
    assert (
        S.kendall_tau(a, noisy).value == 0.0
        or S.kendall_tau(a, noisy).value != S.kendall_tau(a, noisy, tie=1e-12).value
    )
    assert S.kendall_tau(a, noisy, tie=1e-12).value == pytest.approx(st.kendalltau(a, [0.3, 0.3, 0.3, 0.5]).statistic)
    assert S.kendall_tau(a, b, tie=1e-12).value == 1.0
    with pytest.raises(ValueError, match="undefined"):
        S.kendall_tau(a, np.ones(4))


def _tau_cover(n: int, rho: float, reps: int, interval: str, seed: int) -> float:
    rng = np.random.default_rng([11, n, int(10 * rho), seed])
    tau = 2 / math.pi * math.asin(rho)
    hits = 0
    for r in range(reps):
        z = rng.multivariate_normal([0, 0], [[1, rho], [rho, 1]], size=n)
        e = S.kendall_tau(z[:, 0], z[:, 1], interval=interval, n_boot=1000, rng=r)
        hits += e.low <= tau <= e.high
    return hits / reps


@pytest.mark.parametrize("rho", [0.0, 0.5, 0.8])
@pytest.mark.parametrize("n", [10, 20])
def test_kendall_jackknife_interval_covers(n, rho):
    c = _tau_cover(n, rho, 2000, "jackknife", 0)
    assert within(c), c


@pytest.mark.slow
@pytest.mark.parametrize("rho", [0.0, 0.5, 0.8])
@pytest.mark.parametrize("n", [50, 100])
def test_kendall_jackknife_interval_covers_slow(n, rho):
    assert within(_tau_cover(n, rho, 3000, "jackknife", 1))


def test_kendall_bootstrap_interval_is_conservative_with_few_items():
    c = _tau_cover(20, 0.5, 400, "bootstrap", 2)
    assert 0.93 <= c <= 0.995, c


# ----------------------------------------------------------------------------- the bootstrap
def test_bootstrap_of_a_single_median_oscillates_as_documented():
    """The documented reason to use :func:`median` rather than the bootstrap for one median: at 15
    runs the BCa interval covers about 91.5 %."""
    rng = np.random.default_rng(12)
    x, _, med = runs("lognormal", 15, 2000, rng)
    boot = cover(S.bootstrap(lambda a, axis: np.median(a, axis), (x,), n_boot=1000, rng=3), med)
    assert boot < 0.935 and within(cover(S.median(x), med))


def _ratio_of_medians(a, b, axis):
    return np.median(a, axis) / np.median(b, axis)


@pytest.mark.parametrize("n", [10, 20])
def test_bootstrap_bca_of_a_ratio_of_medians_covers(n):
    rng = np.random.default_rng([13, n])
    a, b = 1.5 * rng.lognormal(0, 0.5, (n, 1500)), rng.lognormal(0, 0.5, (n, 1500))
    e = S.bootstrap(_ratio_of_medians, (a, b), n_boot=1000, rng=4)
    assert within(cover(e, 1.5)), cover(e, 1.5)


@pytest.mark.slow
@pytest.mark.parametrize("n", [50, 100])
def test_bootstrap_bca_of_a_ratio_of_medians_covers_slow(n):
    rng = np.random.default_rng([14, n])
    a, b = 1.5 * rng.lognormal(0, 0.5, (n, 1500)), rng.lognormal(0, 0.5, (n, 1500))
    assert within(cover(S.bootstrap(_ratio_of_medians, (a, b), n_boot=1000, rng=5), 1.5))


def test_bootstrap_paired_and_percentile_and_refusals():
    rng = np.random.default_rng(15)
    a = rng.normal(size=30)
    e = S.bootstrap(lambda x, y, axis: np.mean(x - y, axis), (a + 1, a), paired=True, rng=1)
    assert e.value == pytest.approx(1.0) and e.high - e.low < 1e-9  # paired: the noise cancels
    p = S.bootstrap(lambda x, axis: np.mean(x, axis), (a,), method="percentile", rng=1)
    assert p.method == "bootstrap-percentile" and p.low < a.mean() < p.high
    with pytest.raises(ValueError, match="same number of runs"):
        S.bootstrap(lambda x, y, axis: x.mean(axis), (a, a[:20]), paired=True)
    with pytest.raises(TypeError, match="list or tuple"):
        S.bootstrap(lambda x, axis: x.mean(axis), a)
    with pytest.raises(ValueError, match="not finite"), np.errstate(divide="ignore"):
        S.bootstrap(lambda x, axis: 1 / np.min(np.abs(x), axis), (np.r_[0.0, a[:15]],))


# ----------------------------------------------------------------------------- simultaneous
def test_simultaneous_intervals_hold_jointly():
    rng = np.random.default_rng(16)
    cells, reps, n = 10, 3000, 10
    x = rng.normal(0, 1, (n, reps, cells))
    pointwise = S.mean(x, method="t")
    joint = np.all((np.asarray(pointwise.low) <= 0) & (0 <= np.asarray(pointwise.high)), axis=1).mean()
    assert joint < 0.7  # 0.95 ** 10
    sims = [S.mean(x[:, r], method="t", simultaneous=True) for r in range(reps)]
    joint = np.mean([np.all((s.low <= 0) & (0 <= s.high)) for s in sims])
    assert within(joint, 0.94, 0.97) and sims[0].simultaneous and sims[0].cell_level == pytest.approx(0.995)


# ----------------------------------------------------------------------------- deciding a region
def test_decide_three_outcomes_and_exact_estimates_never_undecided():
    e = Estimate(
        [1.0, 2.0, 3.0, float("nan")],
        [0.8, 1.5, 2.9, float("nan")],
        [1.2, 2.5, 3.1, float("nan")],
        method="t",
        n_runs=10,
    )
    assert S.decide(e, upper=2.0).tolist() == ["holds", "undecided", "reversed", "reversed"]
    assert S.decide(e, 0.9, None).tolist() == ["undecided", "holds", "holds", "reversed"]
    x = exact([1.0, 2.0, 3.0])
    assert S.decide(x, upper=2.0).tolist() == ["holds", "holds", "reversed"]
    assert S.decide(x, upper=2.0, upper_open=True).tolist() == ["holds", "reversed", "reversed"]


def test_outcome_probability_matches_simulation():
    """The normal approximation of P(holds | truth) against the frequency of 'holds' for the t
    interval of 20 normal runs at truths around a one-sided edge."""
    rng = np.random.default_rng(17)
    n, reps = 20, 20000
    for truth in (9.6, 10.0, 10.4, 10.8):
        x = rng.normal(truth, 1.0, (n, reps))
        e = S.mean(x, method="t")
        freq = np.mean(S.decide(e, 10.0, None) == "holds")
        one = S.mean(x[:, 0], method="t")
        pred = float(S.outcome_probability(one, 10.0, None, truth=truth))
        assert abs(freq - pred) < 0.05, (truth, freq, pred)
    at_edge = float(S.outcome_probability(S.from_se(10.0, 1.0), 8.0, None, truth=8.0))
    assert at_edge == pytest.approx(0.025, abs=1e-9)
    assert float(S.outcome_probability(exact(9.0), 8.0, None, truth=8.5)) == 1.0


def test_runs_to_decide():
    e = Estimate(1.6, 1.45, 1.75, method="bootstrap-bca", n_runs=100)
    assert S.runs_to_decide(e, upper=1.5) == {"factor": 2.25, "runs": 225, "cells": 1}
    assert S.runs_to_decide(e, upper=2.0)["cells"] == 0
    on_edge = Estimate(1.5, 1.4, 1.6, method="t", n_runs=10)
    assert S.runs_to_decide(on_edge, upper=1.5)["runs"] is None
    unbounded = Estimate(1.2, -np.inf, np.inf, method="fieller", n_runs=3)
    assert S.runs_to_decide(unbounded, upper=1.5) == {"factor": "inf", "runs": None, "cells": 1}
    # simulation: with the predicted runs, the interval's half-width is about the distance
    rng = np.random.default_rng(18)
    x = rng.normal(1.0, 1.0, 20)
    e = S.mean(x, method="t")
    edge = float(e.value) + 0.5 * (float(e.high) - float(e.value))
    need = S.runs_to_decide(e, upper=edge)["runs"]
    assert 60 <= need <= 110  # (2 * 20 * t_19 / t_n)**2-ish: about 4x the runs


# ----------------------------------------------------------------------------- PSE standard error
def _gaussian_scores(rng, n: int, mu: float) -> np.ndarray:
    s = rng.normal(0.0, 1.0, (n, n))
    s[np.diag_indices(n)] = rng.normal(mu, 1.0, n)
    return s


def _pse_se_ratio(monkeypatch, n: int, mu: float, reps: int, se_reps: int, seed: int) -> tuple[float, float]:
    """(reported SE / true SD of the PSE, the old rule's SE / true SD) over ``reps`` independent
    Gaussian score matrices, through :func:`ldpnb.attacks.linkage.score_experiment` itself."""
    from ldpnb.attacks import linkage

    rng = np.random.default_rng(seed)
    pse, se2 = [], []
    current = {}
    monkeypatch.setattr(linkage, "score_matrix", lambda *a, **k: current["S"])
    monkeypatch.setattr(linkage, "best_score_error_rate", lambda S: 0.0)
    seqs = [np.array([0])] * n
    for r in range(reps):
        current["S"] = _gaussian_scores(rng, n, mu)
        out = linkage.score_experiment(seqs, seqs, 1, se_reps=se_reps, rng=rng)
        pse.append(out["pse"])
        se2.append(out["pse_se"] ** 2)
    sd = float(np.std(pse, ddof=1))
    rms = math.sqrt(float(np.mean(se2)))
    return rms / sd, rms * math.sqrt(0.5) / sd


def test_pse_standard_error_is_the_half_sample_spread(monkeypatch):
    """The old rule multiplied the spread of half-size subsets by sqrt(0.5) and reported 0.71-0.82
    of the true SD (0.73-0.78 in the audit); the half-sample spread (delete-n/2 jackknife) is about
    the true SD, a little above it (the kNN divergence is not smooth in the users: conservative)."""
    ratio, old = _pse_se_ratio(monkeypatch, n=60, mu=2.0, reps=160, se_reps=10, seed=19)
    assert 0.9 <= ratio <= 1.35, ratio
    assert old < 0.9, old  # the old rule fails this test


@pytest.mark.slow
@pytest.mark.parametrize("n, mu", [(150, 1.5), (300, 2.0)])
def test_pse_standard_error_at_chapter_sizes(monkeypatch, n, mu):
    ratio, old = _pse_se_ratio(monkeypatch, n=n, mu=mu, reps=150, se_reps=10, seed=20 + n)
    assert 0.92 <= ratio <= 1.3 and old < 0.92, (ratio, old)


# ----------------------------------------------------------------------------- subsets and rounds
@pytest.mark.parametrize("case", ["variance-normal", "mean-lognormal", "variance-lognormal"])
@pytest.mark.parametrize("n", [50, 100])
def test_subset_mean_covers_the_expectation_for_n_users(case, n):
    """A statistic on R = 20 random n-subsets of a sample of N = 200 users (f = 1/4 and 1/2): the
    interval of :func:`S.subset_mean` covers the population's expectation for n users.  Cases: the
    variance with ddof 0 (biased and non-linear: expectation sigma^2 (n - 1)/n) of normal users, the
    mean of skewed users, and the variance of skewed users, a strongly skewed estimate for which a t
    interval under-covers (about 90 %; the docstring says so)."""
    rng = np.random.default_rng(31 + n + len(case))
    reps, N, R = 2000, 200, 20
    stat, kind = case.split("-")
    if kind == "normal":
        pop, mu, var = rng.normal(0.0, 1.0, (reps, N)), 0.0, 1.0
    else:
        pop, mu = rng.lognormal(0.0, SIGMA, (reps, N)), math.exp(SIGMA**2 / 2)
        var = math.expm1(SIGMA**2) * math.exp(SIGMA**2)
    idx = np.argsort(rng.random((reps, R, N)), axis=2)[:, :, :n]
    sub = np.take_along_axis(np.broadcast_to(pop[:, None, :], (reps, R, N)), idx, axis=2)
    vals = sub.var(axis=2) if stat == "variance" else sub.mean(axis=2)
    truth = var * (n - 1) / n if stat == "variance" else mu
    e = S.subset_mean(vals.T, n, N)  # subsets along axis 0, one cell per data set
    c = cover(e, truth)
    assert within(c) if case != "variance-lognormal" else 0.87 <= c <= HI, c
    # without the sample's own error (the subsets' spread alone) it under-covers badly
    lottery = S.from_se(e.value, vals.std(axis=1, ddof=1) / math.sqrt(R), df=R - 1)
    assert cover(lottery, truth) < 0.8
    with pytest.raises(ValueError):
        S.subset_mean(vals[0], N, N)


@pytest.mark.parametrize("rounds", [8, 64])
def test_from_se_with_df_covers_a_pooled_estimate_over_rounds(rounds):
    """A pooled non-linear estimate (log of the mean of all reports) with the standard error of the
    rounds' own estimates over sqrt(R) and Student's t with R - 1 df: 95 % coverage."""
    rng = np.random.default_rng(7 + rounds)
    reps, n = 4000, 50
    x = rng.lognormal(0.0, SIGMA, (reps, rounds, n))
    per_round = np.log(x.mean(axis=2))
    pooled = np.log(x.mean(axis=(1, 2)))
    e = S.from_se(pooled, per_round.std(axis=1, ddof=1) / math.sqrt(rounds), df=rounds - 1, n_runs=rounds)
    assert e.method == "t" and within(cover(e, SIGMA**2 / 2)), cover(e, SIGMA**2 / 2)


# ----------------------------------------------------------------------------- moderated means
def _variances(kind: str, g: int, rng: np.random.Generator) -> np.ndarray:
    if kind == "prior6":  # scaled inverse chi-square, the model's own law
        return 6 / rng.chisquare(6, g)
    if kind == "prior20":
        return 20 / rng.chisquare(20, g)
    if kind == "lognormal":
        return np.exp(rng.normal(0.0, 0.5, g))
    if kind == "equal":
        return np.ones(g)
    return np.where(rng.random(g) < 0.5, 1.0, 4.0)  # two levels a factor 4 apart


@pytest.mark.parametrize("kind", ["prior6", "prior20", "lognormal", "equal", "two-level"])
@pytest.mark.parametrize("target_runs", [1, 4])
def test_moderated_means_cover_jointly_with_a_prior_fitted_elsewhere(kind, target_runs):
    """The use in the risks chapter: a prior fitted to a figure's 300 cells of 4 runs, then 100 cells
    (of one or of four runs) graded jointly at 95 %: joint coverage at least 93 % over 400 replications
    (the widened level; at the nominal level it was 90-94 %, see MODERATED_WIDEN)."""
    rng = np.random.default_rng([31, target_runs, len(kind)])
    hits = []
    for _ in range(400):
        fam = rng.normal(0.0, np.sqrt(_variances(kind, 300, rng))[:, None], (300, 4))
        prior = S.prior_variance(fam.var(axis=1, ddof=1), np.full(300, 3.0))
        sd = np.sqrt(_variances(kind, 100, rng))
        e = S.moderated_means(list(rng.normal(0.0, sd[:, None], (100, target_runs))), prior=prior)
        hits.append(bool(np.all((e.low <= 0) & (e.high >= 0))))
    assert np.mean(hits) >= 0.93, (kind, target_runs, np.mean(hits))


@pytest.mark.parametrize("kind", ["prior6", "prior20", "lognormal", "two-level", "equal"])
@pytest.mark.parametrize("cells", [20, 150])
def test_moderated_means_cover_jointly_a_grid_of_three_run_cells_on_its_own_prior(kind, cells):
    """A figure's grid of cells with three runs each, the prior fitted to the grid itself: joint
    coverage of the 95 % intervals at least 93 % over 300 replications (at the nominal level: 88-96 %),
    90 % for the most heterogeneous variances (prior6: 91-94 % measured, documented)."""
    rng = np.random.default_rng([34, cells, len(kind)])
    hits = []
    for _ in range(300):
        sd = np.sqrt(_variances(kind, cells, rng))
        e = S.moderated_means(list(rng.normal(0.0, sd[:, None], (cells, 3))), min_prior_cells=20)
        hits.append(bool(np.all((e.low <= 0) & (e.high >= 0))))
    assert np.mean(hits) >= (0.90 if kind == "prior6" else 0.93), (kind, cells, np.mean(hits))


@pytest.mark.parametrize("kind", ["prior6", "lognormal", "equal"])
def test_moderated_means_cover_cell_by_cell_with_the_prior_fitted_on_the_cells(kind):
    """60 cells of 1, 3 or 4 runs, the prior fitted to their own variances: each cell's 95 % interval
    covers at least 95 % of the time (averaged over the cells and 300 replications): the level is
    widened for joint use, so a single cell over-covers (about 99 %)."""
    rng = np.random.default_rng([32, len(kind)])
    ns = np.array([1, 3, 4] * 20)
    cover_rate = []
    for _ in range(300):
        sd = np.sqrt(_variances(kind, ns.size, rng))
        e = S.moderated_means([rng.normal(0.0, s, n) for s, n in zip(sd, ns)], simultaneous=False)
        cover_rate.append(np.mean((e.low <= 0) & (e.high >= 0)))
    assert np.mean(cover_rate) >= 0.95, (kind, np.mean(cover_rate))


def test_prior_variance_recovers_a_known_prior_and_refuses_too_few_cells():
    rng = np.random.default_rng(33)
    s2 = 2.0 * (8 / rng.chisquare(8, 4000)) * rng.chisquare(3, 4000) / 3
    s0, d0 = S.prior_variance(s2, np.full(4000, 3.0))
    assert abs(s0 - 2.0) < 0.15 and 5 < d0 < 13
    assert S.prior_variance(np.ones(5), np.full(5, 3.0))[1] == math.inf  # no spread beyond chance
    with pytest.raises(ValueError, match="at least 3 cells"):
        S.prior_variance(np.ones(2), np.full(2, 3.0))
    with pytest.raises(ValueError, match="cells whose runs differ"):
        S.prior_variance(np.zeros(5), np.full(5, 3.0))
    # cells whose runs are identical are left out of the fit (an offset would pull s0 down for all)
    with_zeros = np.concatenate([s2[:1000], np.zeros(400)])
    assert S.prior_variance(with_zeros, np.full(1400, 3.0)) == S.prior_variance(s2[:1000], np.full(1000, 3.0))
    with pytest.raises(ValueError, match="at least 3 cells with two or more runs"):
        S.moderated_means([np.ones(1), np.arange(2.0)])
    with pytest.raises(ValueError, match="prior must be"):
        S.moderated_means([np.ones(1)], prior=(0.0, 3.0))
    e = S.moderated_means([np.ones(1), np.arange(3.0)], prior=(1.0, math.inf))
    assert e.method == "moderated-t" and "widened to the 99.5 % level" in e.note


def test_moderated_means_with_a_scale_is_the_unscaled_estimate_of_the_rescaled_runs():
    """``scale`` c_i is a known relative variance: the runs x / sqrt(c_i) on the unscaled estimator, mapped back."""
    rng = np.random.default_rng(35)
    c = rng.uniform(0.5, 4.0, 30)
    cells = [rng.normal(10.0, np.sqrt(ci), 3) for ci in c]
    a = S.moderated_means(cells, scale=c)
    b = S.moderated_means([x / np.sqrt(ci) for x, ci in zip(cells, c)])
    np.testing.assert_allclose(a.value, np.asarray(b.value) * np.sqrt(c))
    np.testing.assert_allclose(np.asarray(a.high) - a.value, (np.asarray(b.high) - b.value) * np.sqrt(c))
