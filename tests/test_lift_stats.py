"""The lift chapter on ldpnb.stats (phase B): the estimators of papers/lift/experiments and grading,
and the criteria of its Monte Carlo rows decided with three outcomes."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpnb.papers.lift import CLAIMS
from ldpnb.papers.lift import experiments as ex
from ldpnb.papers.lift import grading as grade
from ldpnb.repro import Report
from ldpnb.repro.claims import verify_row
from ldpnb.stats import Estimate, difference, exact


def _crossover_reference(a, b, eps, cap=0.999):
    """The second edition's crossover of two mean curves (one curve at a time), NaN -> beyond the grid."""
    keep = (a < cap) | (b < cap)
    d, e = (a - b)[keep], eps[keep]
    if d.size == 0 or d[-1] <= 0:
        return eps[-1] + 1.0
    neg = np.flatnonzero(d <= 0)
    if neg.size == 0:
        return float(e[0])
    i = neg[-1]
    return float(e[i] + (e[i + 1] - e[i]) * (-d[i]) / (d[i + 1] - d[i]))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0.0, 1.0), min_size=6, max_size=6), st.lists(st.floats(0.0, 1.0), min_size=6, max_size=6))
def test_crossover_is_the_reference_curve_by_curve(a, b):
    a, b, eps = np.array(a), np.array(b), np.array([0.25, 0.5, 1.0, 1.25, 2.0, 4.0])
    assert float(ex.crossover(a, b, eps)) == pytest.approx(_crossover_reference(a, b, eps))
    batch = ex.crossover(np.stack([a, b]), np.stack([b, a]), eps)  # leading axes: resamples
    assert batch[1] == pytest.approx(_crossover_reference(b, a, eps))


def _frame(diffs, sd, n=200, seed=0):
    """Curves "hi" and "lo" on eps 1..k with paired differences of mean ``diffs`` and spread ``sd``."""
    rng = np.random.default_rng(seed)
    rows = []
    for j, (m, s) in enumerate(zip(diffs, sd)):
        base = rng.uniform(0.2, 0.6, n)
        rows += [{"curve": "lo", "eps": j + 1.0, "dist": i, "nmi": base[i]} for i in range(n)]
        d = m + s * rng.standard_normal(n)
        rows += [{"curve": "hi", "eps": j + 1.0, "dist": i, "nmi": base[i] + d[i]} for i in range(n)]
    return pd.DataFrame(rows)


def test_order_estimate_cells_are_the_smallest_and_the_half_point_differences():
    df = _frame([0.05, 0.02, 0.0004, 0.03, 0.01], [0.01, 0.01, 0.01, 0.02, 0.01])
    est, info = ex.order_estimate(df, [([("hi", "lo")], 0.001, True)])
    a, b = ex.paired_runs(df, "hi", "lo")
    d = difference(a.to_numpy(), b.to_numpy(), paired=True, level=0.99, simultaneous=True)
    v, lo, hi = np.asarray(d.value), np.asarray(d.low), np.asarray(d.high)
    assert est.value[0] == pytest.approx(v.min()) and est.low[0] == pytest.approx(lo.min())
    assert est.high[0] == pytest.approx(hi.min())
    assert est.value[1] == pytest.approx(np.sort(v)[5 - 3])  # the 3rd largest of 5
    assert est.low[1] == pytest.approx(np.sort(lo)[2]) and est.high[1] == pytest.approx(np.sort(hi)[2])
    assert info["points"] == 5 and info["above"] == int(np.sum(lo > 0.001))


def test_an_above_row_with_an_undecided_point_is_not_a_pass():
    """The second edition's count rule ('no point 3 SE below 0, at least half 3 SE above 0') passed
    this case; the point at -0.0005 with a wide spread is not decided not-below -0.001: undecided."""
    df = _frame([0.05, 0.04, -0.0005], [0.01, 0.01, 0.05])
    a, b = ex.paired_runs(df, "hi", "lo")
    d = (a - b).to_numpy()
    m, se = d.mean(0), d.std(0, ddof=1) / np.sqrt(len(d))
    assert int(np.sum(m < -3 * se)) == 0 and int(np.sum(m > 3 * se)) >= 3 / 2  # the old rule: pass
    est, _ = ex.order_estimate(df, [([("hi", "lo")], 0.001, True)])
    report = Report("lift", CLAIMS, "book")
    report.range("F2.lam", est)
    row = report.rows["F2.lam"]
    assert row["status"] == "undecided" and row["runs_to_decide"]["runs"] > 200
    assert not verify_row(row)


def test_an_above_row_fails_on_a_reversed_point_and_passes_when_every_point_is_decided():
    report = Report("lift", CLAIMS, "book")
    est, _ = ex.order_estimate(_frame([0.05, 0.04, -0.02], [0.01, 0.01, 0.01]), [([("hi", "lo")], 0.001, True)])
    report.range("F2.lam", est)
    est, _ = ex.order_estimate(_frame([0.05, 0.04, 0.0], [0.01, 0.01, 0.0]), [([("hi", "lo")], 0.001, True)])
    report.range("F3.lam", est)  # an exact tie at one point (identical curves there are not compared)
    assert report.rows["F2.lam"]["status"] == "fail" and report.rows["F3.lam"]["status"] == "pass"
    assert all(not verify_row(r) for r in report.rows.values())


def test_printed_means_and_the_ratio_regions():
    """H1's region is 0.52 ± 0.0141; H2.ratio refuses the 0.52 and 0.68 the third audit found accepted."""

    def e(v, h):
        return Estimate(v, v - h, v + h, method="hall", n_runs=1000, se=h / 1.96)

    def status(cid, kind, est):
        report = Report("lift", CLAIMS, "book")
        getattr(report, kind)(cid, est)
        return report.rows[cid]

    h1 = status("H1", "close", e(0.516, 0.009))
    assert h1["status"] == "pass" and "criterion changed" in h1["flags"]
    assert status("H2.ratio", "range", e(0.52, 0.02))["status"] == "fail"
    assert status("H2.ratio", "range", e(0.68, 0.02))["status"] == "fail"
    ok = status("H2.ratio", "range", e(0.60, 0.02))
    assert ok["status"] == "pass" and not ok["power"]["weak"]
    assert status("H3", "close", e(0.9341, 0.0033))["status"] == "undecided"  # 100 distributions cannot decide


def test_budget_rows_hold_on_the_line_and_fail_above_it():
    n = 50
    on_line = pd.DataFrame(
        {
            "curve": "SRR",
            "eps": np.repeat([1.0, 2.0], n),
            "dist": np.tile(np.arange(n), 2),
            "min_leak": np.repeat([0.5, 1.0], n) - np.tile(np.r_[np.zeros(n - 5), np.full(5, 0.2)], 2),
            "max_leak": 0.1,
        }
    )
    above = on_line.assign(min_leak=on_line.min_leak + 0.2)
    report = Report("lift", CLAIMS, "book")
    report.range("F6.leak", ex.extreme(ex.budget_estimate(on_line, {"SRR": 0.5})[0]))
    report.range("F5.budget", ex.extreme(ex.budget_estimate(above, {"SRR": 0.5})[0]))
    assert report.rows["F6.leak"]["status"] == "pass" and report.rows["F5.budget"]["status"] == "diverges"
    assert all(not verify_row(r) for r in report.rows.values())


def test_prediction_interval_holds_a_new_run_at_its_level():
    rng = np.random.default_rng(0)
    lo, hi, level = grade.prediction_interval(np.arange(200.0))
    assert (lo, hi, level) == (0.0, 199.0, 199 / 201)
    hits = 0
    for _ in range(4000):
        x = rng.standard_normal(201)
        lo, hi, level = grade.prediction_interval(x[:200])
        hits += lo <= x[200] <= hi
    assert abs(hits / 4000 - 199 / 201) < 0.006


def test_growth_estimate_tells_a_polynomial_count_from_an_exponential():
    rng = np.random.default_rng(1)

    def frame(sizes, law):
        return pd.DataFrame(
            [
                {"n_x": n, "eps": e, "dist": i, "n_vertices": law(n) * rng.lognormal(0, 0.1)}
                for n in sizes
                for e in (1.0, 2.0)
                for i in range(12)
            ]
        )

    poly = ex.growth_estimate(frame(range(6, 19, 2), lambda n: n**4), frame((24, 30), lambda n: n**4), rng=0)
    expo = ex.growth_estimate(frame(range(6, 19, 2), lambda n: 1.5**n), frame((24, 30), lambda n: 1.5**n), rng=0)
    assert poly.low > 0 and expo.high < 0.05  # V-A.vert: the power law predicts better, resp. not


def test_trend_and_ratio_estimates_and_their_smoke_fallback():
    rng = np.random.default_rng(2)
    up = ex.trend_estimate([rng.lognormal(np.log(k), 0.05, 12) for k in (1, 2, 4)], rng=0)
    assert up.low[0] > 0.2 and up.low[1] > 0.5
    flat = ex.trend_estimate([rng.lognormal(0, 0.05, 12) for _ in range(3)], paired=True, rng=0)
    assert flat.low[0] < 0 < flat.high[1] or flat.high[1] < 0.05
    small = ex.worst_median_ratio(rng.lognormal(0, 0.1, (4, 3)), rng.lognormal(0, 0.1, (4, 3)), rng=0)
    assert np.isnan(small.value) and "fewer than 10" in small.note


def test_every_monte_carlo_row_records_an_estimate_and_verifies():
    """Each range/close row accepts an estimate of its cells' shape and passes verify_row."""
    shapes = {
        cid: len(c.lower) if isinstance(c.lower, list) else 1
        for cid, c in CLAIMS.items()
        if c.kind in ("range", "close")
    }
    shapes["A1"] = 2
    for cid, k in shapes.items():
        c = CLAIMS[cid]
        report = Report("lift", CLAIMS, "book")
        lo = np.asarray(c.lower if c.lower is not None else (c.target if c.kind == "close" else c.upper), dtype=float)
        v = np.broadcast_to(lo, (k,)) + 0.5 if k > 1 else float(np.ravel(lo)[0]) + 0.5
        est = Estimate(v, np.asarray(v) - 0.1, np.asarray(v) + 0.1, method="t", n_runs=100)
        getattr(report, c.kind)(cid, est)
        row = report.rows[cid]
        assert not verify_row({**row, **report._volatile.get(cid, {})}), cid
        assert row["status"] in ("pass", "fail", "undecided", "diverges"), cid


def test_the_decision_log_covers_every_changed_row():
    changed = [cid for cid, c in CLAIMS.items() if c.changes]
    for cid in (
        "F5.time",
        "F5.close",
        "F1.joint",
        "V-A.vert",
        "V.scale",
        "F6.run",
        "VI-B.conv.chi2",
        "V-A.srr",
        "H1",
        "H2",
        "H3",
        "H2.ratio",
        "F2.lk",
        "F4.leak",
        "F2.cross",
    ):
        assert cid in changed
    assert len(CLAIMS["F5.time"].changes) == 3 and CLAIMS["V-A.srr"].changes[0].commit == "9c572aa"
    report = Report("lift", CLAIMS, "book")
    report.holds("F1.joint", p_value=0.46, t_paper=1.06, runs=200)
    row = report.rows["F1.joint"]
    assert "criterion changed" in row["flags"] and row["changes"][0]["status"].startswith("not evaluable")
    assert exact(1.0).exact  # the exact rows keep exact numbers


def test_f2_inst_is_an_exact_count_that_can_pass():
    """The re-audit: F2.inst was a range with upper end 0 on a Wilson interval, which no count of
    violations could pass (0 of 1000 still has an upper end of 0.0066). Now an exact count."""
    c = CLAIMS["F2.inst"]
    assert c.kind == "holds" and c.changes[-1].was["kind"] == "range"
    report = Report("lift", CLAIMS, "book")
    report.holds("F2.inst", violations=0, instances=5000)
    assert report.rows["F2.inst"]["status"] == "fail"  # a declared divergence that does not show
    report = Report("lift", CLAIMS, "book")
    report.holds("F2.inst", violations=3, instances=5000)
    assert report.rows["F2.inst"]["status"] == "diverges"


def test_the_size_changes_are_on_the_decision_log():
    for cid in ("F5.leak", "VI-B.size", "F8.ord", "F8.leak", "F6.ord", "F6.leak", "F6.hl", "F6.run", "V.scale"):
        assert any(ch.commit == "0664331" for ch in CLAIMS[cid].changes), cid


def test_order_estimate_names_the_lowest_point():
    df = _frame([0.05, 0.02, 0.0004, 0.03, 0.01], [0.01, 0.01, 0.01, 0.02, 0.01])
    _, info = ex.order_estimate(df, [([("hi", "lo")], 0.001, True)])
    assert info["lowest"] == ("hi - lo", 3.0)


def test_v_a_srr_grades_cpu_time_against_the_largest_block():
    rng = np.random.default_rng(3)
    rows = [
        {"largest_block": k, "time": 1e-3 * 2.0**k * rng.lognormal(0, 0.1), "n_vertices": 4.0 * k}
        for k in (2, 3, 4)
        for _ in range(30)
    ]
    srr = pd.DataFrame(rows)
    vas = {k: d.time.to_numpy() for k, d in srr.groupby("largest_block")}
    est = ex.trend_estimate([vas[k] for k in sorted(vas)], rng=1)
    assert np.log10(2.0) - 0.1 < est.value[0] < np.log10(2.0) + 0.1
    assert CLAIMS["V-A.srr"].volatile and CLAIMS["V-A.srr"].changes[-1].was == {"kind": "range", "lower": [-0.05, 0.05]}
