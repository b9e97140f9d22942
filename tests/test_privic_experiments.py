"""Tests for ldpnb.papers.privic.experiments and the claims of the PRIVIC chapter (Biswas and Palamidessi 2023)."""

import math
import os
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpnb.estimators import gibu, gibu_log_likelihood
from ldpnb.mechanisms import blahut_arimoto
from ldpnb.papers import privic as pv
from ldpnb.papers.privic import CLAIMS
from ldpnb.papers.privic import experiments as ex
from ldpnb.papers.privic import values as V
from ldpnb.papers.privic.claims import MLE_ROUNDS, REGION, ROUNDS, SIZES_BY_SCALE, TABLE_MARGIN, table_margin


def _cycles(seed=0, m=6, n=8, T=3):
    rng = np.random.default_rng(seed)
    Cs = [rng.dirichlet(np.ones(n), size=m) for _ in range(T)]
    theta = rng.dirichlet(np.ones(m))
    Ys = [rng.multinomial(2_000, theta @ C) for C in Cs]
    return Cs, Ys


# ----------------------------------------------------------------------------- likelihood and the MLE
def test_pooled_loglik_is_gibus_objective_in_total_nats():
    Cs, Ys = _cycles()
    theta = np.full(6, 1 / 6)
    n = sum(y.sum() for y in Ys)
    assert ex.pooled_loglik(theta, Cs, Ys) == pytest.approx(n * gibu_log_likelihood(theta, Cs, Ys), rel=1e-12)


def test_pooled_mle_is_certified_and_agrees_with_long_gibu():
    Cs, Ys = _cycles(1)
    n = sum(y.sum() for y in Ys)
    res = ex.pooled_mle(Cs, Ys, tol=1e-9)
    assert res.gap <= 1e-9 and res.converged
    plain = gibu(Cs, Ys, tol=0, max_iter=20_000).estimate
    L = lambda th: ex.pooled_loglik(th, Cs, Ys)  # noqa: E731
    # the certificate bounds the distance of any distribution to the maximum
    assert L(plain) <= L(res.estimate) + n * res.gap + 1e-9
    rng = np.random.default_rng(5)
    for _ in range(20):
        other = rng.dirichlet(np.ones(6))
        assert L(other) <= L(res.estimate) + n * res.gap + 1e-9
    # the same optimum from another start (Thm 5.2: unique when G has full row rank)
    res2 = ex.pooled_mle(Cs, Ys, tol=1e-9, theta0=rng.dirichlet(np.ones(6)))
    assert abs(L(res2.estimate) - L(res.estimate)) <= n * (res.gap + res2.gap) + 1e-9


def test_certified_gap_interval_contains_the_true_gap():
    """gap_lo <= L(MLE) - L(theta) <= gap_hi, the interval run_privic reports."""
    Cs, Ys = _cycles(2)
    n = sum(y.sum() for y in Ys)
    rough = ex.pooled_mle(Cs, Ys, tol=1e-3)
    sharp = ex.pooled_mle(Cs, Ys, tol=1e-11)
    theta = np.full(6, 1 / 6)
    L = lambda th: ex.pooled_loglik(th, Cs, Ys)  # noqa: E731
    lo = L(rough.estimate) - L(theta)
    hi = lo + n * rough.gap
    true = L(sharp.estimate) - L(theta)
    assert lo - 1e-9 <= true <= hi + 1e-6


def test_likelihood_region():
    assert REGION["paris"] == pytest.approx(97.441, abs=1e-3)
    assert REGION["sf"] == pytest.approx(214.816, abs=1e-3)
    assert ex.likelihood_region(165, 0.99) > ex.likelihood_region(165, 0.95) > ex.likelihood_region(165, 0.5)
    with pytest.raises(ValueError):
        ex.likelihood_region(165, 1.5)


# ----------------------------------------------------------------------------- small helpers
def test_first_beta_bisection():
    assert ex.first_beta(lambda b: b >= 0.7321, 0.0, 2.0, tol=1e-6) == pytest.approx(0.7321, abs=1e-6)
    assert ex.first_beta(lambda b: True, 0.1, 1.0) == 0.1
    assert math.isnan(ex.first_beta(lambda b: False, 0.1, 1.0))


def test_row_similarity():
    shape, pad = (3, 4), 2
    rng = np.random.default_rng(0)
    row = rng.dirichlet(np.ones(12))
    same = pv.padded_row(row, shape, pad)
    s = pv.row_similarity(row, same, shape, pad)
    assert s["tv"] == pytest.approx(0, abs=1e-12) and s["emd"] == pytest.approx(0, abs=1e-9)
    # two point masses: EMD = their distance, TV = 1
    a, b = np.zeros(12), np.zeros(same.size)
    a[0] = 1
    b[pv.inner_columns(shape, pad)[11]] = 1
    s = pv.row_similarity(a, b, shape, pad)
    assert s["tv"] == pytest.approx(1) and s["emd"] == pytest.approx(math.hypot(2, 3))


def test_elastic_gap_and_rd_identities():
    D = np.abs(np.subtract.outer(np.arange(6.0), np.arange(6.0)))
    p = np.random.default_rng(3).dirichlet(np.ones(6))
    C = blahut_arimoto(p, D, 1.0, n_iter=None, tol=1e-13, max_iter=200_000).channel
    assert ex.elastic_gap(C, p, D, 1.0) < 1e-10
    assert ex.elastic_gap(C, p, D, 1.0, sign=1) > 0.1
    slopes, closed = ex.rd_identities(p, D, [0.7, 1.5])
    np.testing.assert_allclose(slopes, [-0.7, -1.5], atol=1e-4)
    assert closed.max() < 1e-10


def test_levy_mixture_is_exp_minus_beta_sqrt():
    for beta in (0.2, 1.0, 5.0):
        for r in (0.01, 1.0, 30.0):
            assert ex.levy_mixture(r, beta) == pytest.approx(math.exp(-beta * math.sqrt(r)), abs=1e-10)


def test_example_5_1():
    e = ex.example_5_1(0.6)
    assert abs(e["avgd"] - 0.6) < 1e-9 and e["sigma"][-1] > 1e-3 and e["ibu_two_starts"] < 1e-6
    assert e["all_to_b_rank"] == 1 and e["ibu_move"] == 0 and e["all_to_b_avgd"] == pytest.approx(2 / 3)
    assert e["boundary_sigma"][1] < 1e-9 and e["boundary_avgd"] == pytest.approx(2 / 3, abs=1e-9)


# ----------------------------------------------------------------------------- experiments on the data shapes
@pytest.fixture(scope="module")
def paris_counts():
    if not os.environ.get("LDPNB_DATA_DIR"):
        pytest.skip("LDPNB_DATA_DIR not set")
    return pv.load_privic_counts("paris").ravel()


def test_run_privic_with_mle(paris_counts):
    emd, mle, finals = ex.run_privic(paris_counts, "paris", [1.0], 1, seed=0, mle_betas=[1.0], mle_tol=1e-4)
    assert set(emd.row) == set(range(1, 16)) and emd.emd.iloc[0] == pytest.approx(2.02262, abs=1e-5)
    r = mle.iloc[0]
    assert r.gap_hi_truth >= 0 and r.gap_hi_theta_N >= 0 and r.gap_hi_combination >= 0  # the MLE is the max
    assert r.gap_lo_theta_N <= r.gap_hi_theta_N and r.mle_gap_per_report <= 1e-4
    assert r.G_rank == 165 and r.max_cond < 1e10
    assert finals[(1.0, 0)].shape == (165,)
    # same seed, same numbers; the protocols differ
    emd2, _, _ = ex.run_privic(paris_counts, "paris", [1.0], 1, seed=0)
    pd.testing.assert_series_equal(emd.emd, emd2.emd)
    alg1, _, _ = ex.run_privic(paris_counts, "paris", [1.0], 1, seed=0, protocol="ALG1")
    assert not np.allclose(alg1.emd.to_numpy()[1:], emd.emd.to_numpy()[1:])


def test_ibu_budget_study_continues_the_same_run(paris_counts):
    st_ = ex.ibu_budget_study(paris_counts, "paris", 1.0, 1.92, [5, 10], sims=1, rng=0)
    direct = ex.ibu_budget_study(paris_counts, "paris", 1.0, 1.92, [10], sims=1, rng=0)
    a = st_.query("budget == 10").set_index("mechanism").emd
    b = direct.set_index("mechanism").emd
    pd.testing.assert_series_equal(a.sort_index(), b.sort_index(), rtol=1e-9)


def test_adversarial_table_cases(paris_counts):
    isl = pv.island_prior(paris_counts / paris_counts.sum(), "paris", mode="authors")
    t = ex.adversarial_table(isl, [0.6], [0, 3, 8], [1.16])
    assert list(t.k) == [0, 3, 8] and np.all(np.diff(t["P(self)"]) > 0)
    assert t["fake share"].iloc[-1] == pytest.approx(0.04 / 1.04)
    tb = ex.adversarial_table(isl, [0.6], [0, 8], [1.16], cell=V.ISLAND_B)
    assert all(m == V.ISLAND_B for m in tb["mode"])


def test_per_iteration_times_small():
    t = ex.per_iteration_times([4, 6], repeats=1, rng=0)
    assert list(t.m) == [16, 36] and (t[["BA s/iteration", "IBU s/iteration"]] > 0).all().all()


def test_sizes_none_mean_not_run():
    """A size None in SIZES_BY_SCALE means "not run": the toolkit call returns None, the claim is out
    of scale, and the chapter cell needs no scale test."""
    D = pv.privic_distance((2, 2))
    assert ex.per_iteration_times(None) is None
    assert ex.ba_fixpoint_gap(np.full(4, 0.25), D, 1.0, max_iter=None) is None
    assert ex.calibration_runs({"paris": np.ones(165)}, None, seed=0) is None
    gap = ex.ba_fixpoint_gap(np.full(4, 0.25), D, 1.0, max_iter=20_000)
    fix = blahut_arimoto(np.full(4, 0.25), D, 1.0, n_iter=None, tol=1e-8, max_iter=20_000)
    assert gap == ex.elastic_gap(fix.channel, np.full(4, 0.25), D, 1.0) and gap < 1e-6


def test_sizes_by_scale_match_the_claims_scales():
    for scale, sizes in SIZES_BY_SCALE.items():
        assert sizes["rounds"] == ROUNDS[scale] and sizes["mle_rounds"] == MLE_ROUNDS[scale]
        for cid, key in (("T-F2", "fixpoint_iter"), ("T-cal", "cal_rounds"), ("T2", "timing_sides")):
            assert (sizes[key] is not None) == (scale in CLAIMS[cid].scales), (scale, cid)


# ----------------------------------------------------------------------------- the claims table
def test_claims_table_shape():
    ids = set(CLAIMS)
    assert "E7" not in ids and "T-M" not in ids and "T-I1" not in ids
    assert {f"TIV-{b:g}-{r}" for b in (1.0, 0.5) for r in range(2, 9)} <= ids
    assert {f"TIII-{b:g}-{r}" for b in (1.0, 0.5) for r in range(2, 16)} <= ids
    assert not any(re.fullmatch(r"T(III|IV)-[0-9.]+-1", i) for i in ids)  # row 1 is D4
    # Table IV row 8 compares with the mean of the printed rounds
    assert CLAIMS["TIV-1-8"].paper.value == pytest.approx(np.mean([0.18244, 0.18412, 0.18741, 0.18724, 0.18674]))
    for c in CLAIMS.values():
        if c.source == "paper":
            assert c.paper is not None and c.paper.where.strip()
        assert "spec" not in (c.note + c.claim + c.where_text).lower()


def test_table_margins_and_rounds():
    assert TABLE_MARGIN == (0.02, 0.10)
    assert table_margin(0.14) == 0.02 and table_margin(0.57) == pytest.approx(0.057)
    for i, c in CLAIMS.items():
        if re.fullmatch(r"T(III|IV)-[0-9.]+-[0-9]+", i):
            assert c.kind == "close" and c.atol == table_margin(c.paper.value) and c.changes
    assert ROUNDS["book"] == 20 and ROUNDS["smoke"] >= 2  # an interval needs two rounds
    book = MLE_ROUNDS["book"]
    assert book[("A11", "paris", 1.0)] == 400 and book[("ALG1", "paris", 0.5)] == 100
    assert book[("A11", "sf", 0.5)] == 20 and MLE_ROUNDS["smoke"][("A11", "sf", 1.0)] == 0
    # the bootstrap of a 95 % quantile needs at least 10 rounds wherever a cell runs
    assert all(r == 0 or r >= 10 for s in MLE_ROUNDS.values() for r in s.values())


def test_paper_tables_are_whole():
    assert V.PAPER_TABLE_III[1.0].shape == (15, 5) and V.PAPER_TABLE_III[0.5].shape == (15, 5)
    assert V.PAPER_TABLE_IV[1.0].shape == (8, 5) and V.PAPER_TABLE_IV[0.5].shape == (8, 5)
    np.testing.assert_allclose(V.PAPER_TABLE_IV[0.5][7], [0.43588, 0.43745, 0.43558, 0.43704, 0.43584])


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**31 - 1), st.floats(0.0, 0.1))
def test_fake_share_and_label_mapping(seed, delta):
    rng = np.random.default_rng(seed)
    pi = rng.dirichlet(np.ones(165))
    isl = pv.island_prior(pi, "paris", mode="renorm")
    level = int(round(delta / 0.005))
    adv = pv.adversarial_prior(isl, level)
    d = 0.005 * level
    # the fakes are exactly a share d / (1 + d) of the population's reports
    assert adv[93] == pytest.approx((isl[93] + d) / (1 + d), rel=1e-12)
    assert pv.paper_label_percent(d) == pytest.approx(1000 * pv.fake_report_share(d), rel=1e-12, abs=1e-15)


# ----------------------------------------------------------------------------- fourth edition: issue #38
def test_run_privic_records_the_tradeoff_of_each_row(paris_counts):
    emd, _, _ = ex.run_privic(paris_counts, "paris", [1.0], 1, seed=0)
    np.testing.assert_allclose(emd.lagrangian, emd.mi + 1.0 * emd.avgd, rtol=1e-12)
    assert (emd.mi >= 0).all() and (emd.avgd > 0).all() and len(emd) == 15
    # row 1's mechanism is BA built on the uniform start: its numbers are those of BA(uniform)
    from ldpnb.mechanisms.rate_distortion import average_distortion

    D = pv.privic_distance("paris")
    C1 = blahut_arimoto(np.full(165, 1 / 165), D, 1.0, n_iter=8).channel
    assert emd.avgd.iloc[0] == pytest.approx(average_distortion(paris_counts / paris_counts.sum(), C1, D), rel=1e-12)


def test_calibrated_regions_is_the_quantile_of_the_truth_gaps():
    rng = np.random.default_rng(3)
    g = pd.DataFrame({"protocol": "A11", "city": "paris", "beta": 1.0, "gap_hi_truth": rng.chisquare(50, 400) / 2})
    r = ex.calibrated_regions(g)
    row = r.loc[("A11", "paris", 1.0)]
    assert row["region"] == pytest.approx(np.quantile(g.gap_hi_truth, 0.95))
    assert row["chi2"] == pytest.approx(REGION["paris"]) and row["rounds"] == 400
    # a chi-square(50)/2 statistic: its calibrated region is about chi2_50(0.95) / 2 = 33.8, far below Wilks' 97.4
    assert 31 < row["region"] < 37


def test_gap_null_bootstrap_replays_the_protocol(paris_counts):
    pi = paris_counts / paris_counts.sum()
    b = ex.gap_null_bootstrap(pi, 2_000, "paris", 1.0, 2, seed=0, mle_tol=1e-4)
    assert len(b) == 2 and {"gap_lo_truth", "gap_hi_truth", "gap_lo_theta_N"} <= set(b.columns)
    assert (b.gap_hi_truth >= 0).all() and (b.gap_lo_truth <= b.gap_hi_truth).all()
    assert (b.n_total == 14 * 2_000).all()  # the same 2,000 users in each of the 14 cycles
    pd.testing.assert_frame_equal(b, ex.gap_null_bootstrap(pi, 2_000, "paris", 1.0, 2, seed=0, mle_tol=1e-4))


def test_privic_long_run(paris_counts):
    traj, summ = ex.privic_long_run(paris_counts, "paris", 1.0, 1, seed=0, factor=1, mle_tol=1e-4)
    assert list(traj.row) == list(range(1, 16)) and traj.emd.iloc[0] == pytest.approx(2.02262, abs=1e-5)
    r = summ.iloc[0]
    assert r.emd_mle_N == pytest.approx(r.emd_mle_end) and r.ibu_gap.shape == (14,) and r.truth_gap.shape == (14,)
    assert (r.ibu_gap >= -1e-4 * 10_078).all()  # no estimate beats the certified maximum
    d, _ = ex.privic_long_run(paris_counts, "paris", 1.0, 1, seed=0, factor=1, start="dirichlet", with_mle=False)
    assert d.emd.iloc[0] != pytest.approx(2.02262, abs=1e-3)  # a Dirichlet start


def test_ba_at_paper_iterations(paris_counts):
    pi = paris_counts / paris_counts.sum()
    r = ex.ba_at_paper_iterations(pi, "paris", 1.0, ba_iter=8, max_iter=500)
    assert 0 < r["excess"] < 1 and 0 <= r["row_tv"] <= 1 and r["support_k"] >= r["support_inf"]
    far = ex.ba_at_paper_iterations(pi, "paris", 1.0, ba_iter=400, max_iter=500)
    assert far["excess"] < r["excess"] and far["row_tv"] < r["row_tv"]


def test_lap_tight_level_and_its_calibration():
    for eps in (0.4, 1.2):
        lvl = pv.lap_tight_level("paris", eps)
        assert lvl >= eps * (1 - 1e-12)
    assert pv.lap_tight_level("paris", 0.393) / 0.393 == pytest.approx(1.095, abs=2e-3)  # the excess at beta = 0.2
    e = pv.lap_at_level("paris", 0.393)
    assert e < 0.393 and pv.lap_tight_level("paris", e) == pytest.approx(0.393, abs=1e-8)
    # without padding the row normalisers differ even more; with a large level the excess vanishes
    assert pv.lap_tight_level((4, 4), 5.0, pad=5) == pytest.approx(5.0, rel=1e-6)


def test_elastic_fixpoints_are_the_self_consistent_elastic_mechanisms():
    S = pv.all_supports(4)
    assert S.shape == (15, 4) and len({tuple(r) for r in S}) == 15 and S.any(axis=1).all()
    rng = np.random.default_rng(5)
    p = rng.dirichlet(np.ones(4))
    D = np.abs(np.subtract.outer(np.arange(4.0), np.arange(4.0)))
    fx = pv.elastic_fixpoints(p, D, 1.0, S, n_iter=20_000)
    assert fx.residual.max() < 1e-8 and (fx.support <= fx["size"]).all()
    # the full support's fixpoint is BA's limit, the minimum of I + beta AvgD over all of them
    lim = blahut_arimoto(p, D, 1.0, n_iter=None, tol=1e-13, max_iter=10**6)
    from ldpnb.mechanisms.rate_distortion import ba_lagrangian

    assert fx.lagrangian.iloc[-1] == pytest.approx(ba_lagrangian(p, lim.channel, D, 1.0), abs=1e-9)
    assert fx.lagrangian.min() >= fx.lagrangian.iloc[-1] - 1e-9
    # singletons: everyone reports one point
    single = fx.loc[fx["size"] == 1]
    assert np.allclose(single.MI, 0, atol=1e-12)
    np.testing.assert_allclose(sorted(single.AvgD), sorted(p @ D), rtol=1e-9)
    with pytest.raises(ValueError, match="supports"):
        pv.elastic_fixpoints(p, D, 1.0, np.zeros((1, 4), bool))


def test_qos_among_fixpoints_two_points():
    t = ex.qos_among_fixpoints(np.array([0.5, 0.5]), np.array([[0.0, 1.0], [1.0, 0.0]]), [0.1, 1.0], n_iter=2_000)
    np.testing.assert_allclose(t["AvgD BA"], [math.exp(-b) / (1 + math.exp(-b)) for b in (0.1, 1.0)], rtol=1e-9)
    assert (t.gap >= -1e-9).all()


def test_adversarial_table_distance_to_no_attack(paris_counts):
    isl = pv.island_prior(paris_counts / paris_counts.sum(), "paris", mode="authors")
    t = ex.adversarial_table(isl, [0.6], [0, 2, 4], [1.16])
    assert t["EMD to k = 0"].iloc[0] == pytest.approx(0, abs=1e-12) and np.all(np.diff(t["EMD to k = 0"]) > 0)


def test_cycle_times_positive(paris_counts):
    t = ex.cycle_times(paris_counts, "paris", repeats=1, rng=0)
    assert t["BA"] > 0 and t["IBU"] > 0


def test_fourth_edition_claims():
    ids = set(CLAIMS)
    assert not {"R6-A11-sf", "R6-util-sf"} & ids
    for p in ("", "A11-"):
        for c in ("paris", "sf"):
            for b in ("1", "0.5"):
                assert {f"R6-{p}{c}-{b}", f"R6-util-{p}{c}-{b}", f"S6-MLE-{c}-{b}"} <= ids
    assert CLAIMS["F2-LAP"].source == "invariant" and CLAIMS["T2"].source == "invariant"
    for i in ("F11-LAPlike-0.8", "F11-LAPlike-1.2"):
        assert CLAIMS[i].kind == "holds"


def test_phase_b_monte_carlo_rows_decide_estimates():
    """Every Monte Carlo row is a close, range or order (an estimate with its interval, three outcomes),
    with its decision log; the rows that could not fail or counted 'undecided' as a pass are gone."""
    mc = [
        "S6-MLE-paris-1",
        "S6-MLE-paris-0.5",
        "R6-A11-paris-1",
        "R6-util-A11-paris-1",
        "S6-true-paris",
        "S6-true-sf",
        "S6-tradeoff-paris",
        "S6-IBU-conv-paris",
        "T-L",
        "F3-order-paris",
        "F3-cross-sf",
        "F3-comparable-paris",
        "F3-B-sf",
        "F3-B-paris",
        "P4",
        "F3-B-drift",
        "TIII-trend-1",
        "TIV-trend-0.5",
        "F10-shape-sf",
        "E6",
        "T-spread",
        "T-cal",
        "A11-combine",
        "F11-PRIVIC",
        "TIII-order",
        "F3-LAPcal",
    ]
    for i in mc:
        c = CLAIMS[i]
        assert c.kind in ("close", "range", "order"), i
        assert c.changes and "8353c3e" in {x.commit for x in c.changes}, i
        assert c.z is None, i
    for i in ("R6-A11-paris-1", "S6-MLE-paris-1"):
        c = CLAIMS[i]
        assert (c.upper, c.one_sided, c.effect, c.domain) == (1.0, True, 0.1, (0, None))
    assert CLAIMS["S6-MLE-paris-1"].expect == "diverges" and CLAIMS["R6-A11-paris-1"].expect == "pass"
    # the phase A decision logs are on the rows
    assert {c.commit for c in CLAIMS["S6-true-sf"].changes} == {"d82ac64", "8353c3e", "48a2bad"}
    assert CLAIMS["T-QoS"].changes[0].was.get("expect", "pass") == "pass"
    assert CLAIMS["S6-MLE-paris-1"].changes[0].was["kind"] == "close"
    assert "S6-true-mle-paris" in CLAIMS and "F3-B-drift-end" in CLAIMS
    # the San Francisco likelihood rows are not run at smoke scale
    assert "smoke" not in CLAIMS["R6-sf-1"].scales and "smoke" in CLAIMS["R6-paris-1"].scales


def test_fifth_edition_claims():
    """Issue #38's re-audit of b290ed4: the new rows and every re-graded row carry their decision log."""
    for c in ("paris", "sf"):
        for i in (f"S6-privacy-{c}", f"S6-settled-{c}", f"F10-limit-{c}", f"S6-true-{c}"):
            assert CLAIMS[i].kind == "range" and "48a2bad" in {x.commit for x in CLAIMS[i].changes}, i
        assert CLAIMS[f"S6-true-{c}"].expect == "diverges" and CLAIMS[f"S6-true-{c}"].upper == 1.1
    assert CLAIMS["S6-privacy-paris"].expect == "diverges" and CLAIMS["S6-privacy-sf"].expect == "pass"
    assert CLAIMS["S6-settled-sf"].expect == "diverges" and CLAIMS["F10-limit-sf"].expect == "diverges"
    p = CLAIMS["S6-IBU-conv-paris"]
    assert (p.upper, p.effect, "smoke" in p.scales) == (1.0, 0.1, False)
    assert p.changes[-1].was["upper"] == pytest.approx(97.4, abs=0.05)
    assert CLAIMS["S6-IBU-conv-sf"].expect == "diverges"
    for e in ("0.8", "1.2"):
        c = CLAIMS[f"F11-LAPlike-{e}"]
        assert c.rule == "emd_lap[-1] <= 0.75 * emd_lap[0]"
        assert c.changes[-1].was["rule"] == "emd_lap[-1] <= emd_self[-1]"
    for i in ("F3-B-paris", "F3-B-sf"):
        assert "c4613db" in {x.commit for x in CLAIMS[i].changes} and CLAIMS[i].changes[-1].seen == "smoke"
