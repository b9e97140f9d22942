"""Tests of the risks chapter's checks and experiment grids (ldpnb.papers.risks): the Monte Carlo
checks agree with their closed forms at a stated false-alarm rate, the claims table is well formed."""

import numpy as np
import pytest

from ldpnb import attacks as at
from ldpnb.papers.risks import CLAIMS, checks, runs
from ldpnb.repro.claims import Claim

#: |z| threshold of the Monte Carlo comparisons below (two-sided false-alarm rate 6e-5 each; seeds fixed).
Z = 4.0


@pytest.mark.parametrize("protocol", ["grr", "sue", "oue", "ss", "olh"])
def test_profile_accuracy_matches_eq4(protocol):
    r = checks.profile_accuracy_mc(protocol, 3.0, [5, 3], 40_000, rng=11)
    assert abs(r["ours"] - r["formula"]) < Z * r["se"]


def test_coverage_is_d_factorial_over_d_to_the_d():
    r = checks.coverage_mc("grr", 8.0, [4, 3, 5], 40_000, rng=12)
    assert abs(r["coverage"] / 100 - 2 / 9) < Z * r["coverage_se"] / 100
    acc = np.prod([at.expected_pd_accuracy("grr", 8.0, k) for k in (4, 3, 5)])
    assert abs(r["profile"] / 100 - 2 / 9 * acc) < Z * r["profile_se"] / 100


def test_counts_and_percent_estimates():
    """The counts behind rows H1 and T21 give the recorded fractions; percent() scales a proportion's
    value, interval and standard error by 100 and keeps its method and runs."""
    from ldpnb import stats

    r = checks.profile_accuracy_mc("sue", 3.0, [5, 3], 10_000, rng=11)
    assert r["n"] == 10_000 and r["ours"] == pytest.approx(100 * r["hits"] / r["n"])
    c = checks.coverage_mc("grr", 8.0, [4, 3, 5], 10_000, rng=12)
    assert c["coverage"] == pytest.approx(100 * c["covered"] / c["n"])
    assert c["profile"] == pytest.approx(100 * c["hits"] / c["n"])
    e = stats.proportion(r["hits"], r["n"])
    p = checks.percent(e)
    assert (p.value, p.low, p.high, p.se) == pytest.approx((100 * e.value, 100 * e.low, 100 * e.high, 100 * e.se))
    assert (p.method, p.n_runs, p.level) == (e.method, e.n_runs, e.level)
    with pytest.raises(TypeError):
        checks.percent(0.5)


def test_single_report_and_bridge():
    rows = checks.single_report_mc([("oue", 6, 1.5), ("grr", 6, 1.5)], 20_000, rng=13)
    assert max(abs(r["z"]) for r in rows) < Z
    X = np.random.default_rng(0).integers(0, 3, (3000, 4))
    out = checks.fig1_vs_fig2(X, [3, 3, 3, 3], ["grr"], [2.0], n_surveys=3, rng=14)
    assert abs(out[0]["z"]) < Z


def test_rsfd_theorems_on_synthetic_data():
    rng = np.random.default_rng(1)
    X = np.column_stack([rng.choice(4, 5000, p=[0.5, 0.3, 0.15, 0.05]), rng.integers(0, 3, 5000)])
    r = checks.rsfd_theorems(X, [4, 3], 1.0, 300, rng=15)
    assert r["max_abs_z"] < 5
    assert abs(r["variance_ratio"] - 1) < 0.15
    assert r["identity"] < 1e-12
    assert checks.tree_leaves(n=50_000, rng=16) < 5


@pytest.mark.parametrize("variant", [("grr", "uniform"), ("sue", "zero"), ("oue", "random")])
def test_rid_chain_every_variant(variant):
    rng = np.random.default_rng(2)
    X = rng.integers(0, 4, (600, 5))
    out = runs.rid_chain_runs(X, [4] * 5, [8.0], runs=2, seed=3, name="t", protocol=variant[0], fake=variant[1])
    a = out[8.0]
    assert a.shape == (2, 4, 3) and np.all((a >= 0) & (a <= 100))
    with pytest.raises(ValueError):
        at.rsfd_reid_chain(X, [4] * 5, 1.0, protocol="grr", fake="prior")


def test_claims_table():
    assert all(isinstance(c, Claim) for c in CLAIMS.values())
    assert len(CLAIMS) >= 70
    # provenance: a 'paper' value is printed; the formula evaluations are derived
    assert all(CLAIMS[f"H1-{p}"].source == "derived" for p in ("grr", "sue", "oue", "ss", "olh"))
    assert CLAIMS["H4-PK"].kind == "close" and not CLAIMS["H4-PK"].one_sided
    assert {"H5-b-OUE", "H5-b-SUE", "H7-d", "S6-rec", "T1", "T2", "T9", "Fig2-Fig1"} <= set(CLAIMS)


def test_privacy_table_and_pie_and_priors():
    rows = checks.privacy_table(1.0)
    first = rows[0]
    assert first["tight level"] == pytest.approx(first["eps'"], rel=1e-9)
    assert first["one attribute differs"] == pytest.approx(1.0, abs=1e-9)
    assert rows[-1]["tight level"] == pytest.approx(1.0, rel=1e-9)  # SMP: eps, tight
    assert checks.pie_capacity_gap(1000, ks=(2, 3), eps_grid=(0.5, 2.0)) <= 1e-9
    r = checks.prior_variance_check(np.array([5, 3, 2]), 1000, np.log([2.0, 5.0]), 2, rng=3)
    assert r["violations"] == 0 and r["cases"] == 3 * 2 * 2 * 3 and len(r["zipf_ratios"]) == 4


def test_sizes_per_scale():
    for scale in ("smoke", "book", "paper"):
        s = runs.sizes(scale)
        assert set(s["prots"]) <= set(runs.ALL5) and s["rid_runs"] >= 1
    assert runs.sizes("paper")["rid_runs"] == 20 and runs.sizes("paper")["aif_eps"] == list(range(1, 11))


def test_h7a_criterion_decides_a_tenfold_reduction_with_three_outcomes():
    """Row H7-a on ldpnb.stats: four cells of SMP/RS+FD runs (20 a side, independent, the denominator with
    a 30 % relative s.d.). True ratio 10 in every cell (the claim's edge): a pass in at most 5 % of 400
    repetitions (binomial 1 - 1e-4 quantile of 2.5 %); true ratio 8 (the declared effect): a pass almost
    never; true ratio 20: a pass almost always. The old rule 'upper >= 10' passed at 8.5 80-91 % of the time."""
    from scipy import stats as st

    from ldpnb.papers.risks import CLAIMS
    from ldpnb.repro.claims import decide
    from ldpnb.stats import ratio

    crit = CLAIMS["H7-a"].criterion("book")
    rng = np.random.default_rng(20261128)
    base = np.array([1.0, 2.0, 3.0, 4.0])

    def outcomes(rho, reps):
        out = []
        for _ in range(reps):
            num = np.abs(rng.normal(rho * base, 0.1 * rho * base, size=(20, 4)))
            den = np.abs(rng.normal(base, 0.3 * base, size=(20, 4)))
            out.append(decide("range", crit, {"ours": ratio(num, den, simultaneous=True)}))
        return out

    at_edge = outcomes(10.0, 400)
    assert at_edge.count("holds") <= st.binom.ppf(1 - 1e-4, 400, 0.025), at_edge.count("holds")
    assert outcomes(8.0, 100).count("holds") <= 2
    assert outcomes(20.0, 100).count("holds") >= 95


def test_stack_gives_simultaneous_cells_with_their_own_runs():
    from ldpnb.papers.risks.grading import stack
    from ldpnb.stats import mean

    rng = np.random.default_rng(3)
    a, b = rng.normal(1, 1, 20), rng.normal(5, 2, 10)
    e = stack(lambda x, lev: mean(x, level=lev), [a, b])
    one = mean(b, level=0.975)  # Bonferroni over two cells
    assert e.simultaneous and e.n_runs == 10 and e.shape == (2,)
    assert (e.low[1], e.high[1]) == pytest.approx((one.low, one.high), rel=1e-12)
    with pytest.raises(ValueError):
        stack(lambda x, lev: mean(x, level=lev), [])


def test_h5s_contrast_is_paired_per_run_and_skips_missing_runs():
    from ldpnb.papers.risks.grading import h5s_contrast

    def cur(acc):  # runs x ε ∈ {1, 10}
        return {"eps": [1.0, 10.0], "acc": np.array(acc, dtype=float)}

    nan = np.nan
    xv = {
        ("GRR", "NK s=1n"): cur([[10, 20], [11, 21], [12, 22]]),
        ("GRR", "NK s=5n"): cur([[11, 21], [12, 22], [nan, nan]]),  # s: +1 point
        ("GRR", "PK 0.1n"): cur([[10, 20], [10, 20], [10, 20]]),
        ("GRR", "PK 0.5n"): cur([[13, 23], [14, 24], [13, 23]]),
    }  # n_pk: +3, then +4 points
    c = h5s_contrast(xv, "GRR")
    assert c.tolist() == [2.0, 3.0]  # the third run lacks NK 5n


def test_corollary2_is_fano_and_the_check_can_fail():
    """Corollary 2 (Eq. 11) holds with alpha = I(U;Y) (largest bound - beta below 0); with the information
    left out (alpha = 0) the same bound is violated by an informative channel, so the check can fail."""
    from ldpnb.mechanisms import grr_channel

    assert checks.corollary2_gap() < 0
    C = np.asarray(grr_channel(4, 8.0))  # four users with four distinct values: nearly identifiable
    beta = 1 - C[np.arange(4)].max(axis=0).sum() / 4
    assert beta < 0.01 and 1 - (0 + 1) / np.log2(4) - beta > 0.4


def test_expected_mse_ratio():
    res = {
        "analytic": {
            "RS+RFD[GRR]": np.array([[1.0, 2.0], [3.0, 2.0]]),
            "RS+FD[GRR]": np.array([[4.0, 4.0], [4.0, 4.0]]),
        }
    }
    np.testing.assert_allclose(checks.expected_mse_ratio(res, "GRR"), [0.5, 0.5])


def test_decision_and_h5s_texts_follow_the_row():
    """The prose's words for a row come from its status: a contrast shown negative reverses H5-s; an
    interval across the edge leaves H7-a undecided, with the runs that would decide it."""
    from ldpnb.papers.risks import CLAIMS, grading, text
    from ldpnb.repro import Report
    from ldpnb.stats import mean, ratio

    r = Report("multidim_risks", CLAIMS, scale="book", seed=1)
    assert text.h5s_glues(r)["h5s"] == "(not run at this scale)"
    r.range(
        "H5-s",
        grading.stack(lambda x, lev: mean(x, level=lev), [np.array([-2.1, -1.5, -2.8, -1.9])]),
        note="Cells: GRR (4 runs).",
    )
    g = text.h5s_glues(r)
    assert r.rows["H5-s"]["status"] == "diverges" and g["h5s_decision"] == "is reversed"
    assert g["h5s"].startswith("GRR -2.1 [") and g["h5s"].endswith("(4 runs)")
    rng = np.random.default_rng(1)
    r.range("H7-a", ratio(rng.normal(10, 1, (20, 8)), rng.normal(1, 0.2, (20, 8)), simultaneous=True))
    assert r.rows["H7-a"]["status"] == "undecided"
    assert text.decision(r, "H7-a").startswith("is undecided (about ")
