"""The IBU chapter's experiment runners, scoring statistics and the new theory functions
(ElSalamouny and Palamidessi, arXiv 2508.09980, Secs. 6-8)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpnb import estimators as est
from ldpnb import measures, mechanisms as mech
from ldpnb.channels import simulate_counts_batch
from ldpnb.papers import ibu
from ldpnb.papers.ibu import figures, scoring

M12 = np.array([[0.45, 0.10, 0.45], [0.05, 0.90, 0.05], [0.45, 0.10, 0.45]])


# ----------------------------------------------------------------------------------------- scoring
def test_rounding_atol_is_half_the_last_printed_digit():
    assert scoring.rounding_atol("0.7658") == pytest.approx(5e-5)
    assert scoring.rounding_atol("1.87") == pytest.approx(5e-3)
    assert scoring.rounding_atol("98,060") == 0.5
    assert scoring.rounding_atol("227.28") == pytest.approx(5e-3)
    with pytest.raises(ValueError, match="printed"):
        scoring.rounding_atol("abc")


def test_single_run_interval_and_percentile():
    x = np.arange(1001.0)
    assert scoring.single_run_interval(x) == pytest.approx((25.0, 975.0))
    assert scoring.percentile_of(x, 100.5) == pytest.approx(100 * 101 / 1001)


def test_paired_median_ci_is_two_sided():
    rng = np.random.default_rng(0)
    a = rng.normal(1.0, 0.1, 400)
    better = scoring.paired_median_ci(a, a - 0.5, rng=1)  # b better by 0.5
    assert better["ci_low"] > 0 and better["frac_b_better"] == 1.0
    worse = scoring.paired_median_ci(a, a + 0.5, rng=1)
    assert worse["ci_high"] < 0
    same = scoring.paired_median_ci(a, a + rng.normal(0, 0.1, 400), rng=1)
    assert same["ci_low"] < 0 < same["ci_high"]
    with pytest.raises(ValueError, match="paired"):
        scoring.paired_median_ci(a, a[:-1])


def test_monotone_rises_detects_a_rise_beyond_the_noise():
    rng = np.random.default_rng(2)
    falling = np.stack([rng.normal(m, 0.05, 200) for m in (3.0, 2.0, 1.0)])
    r = scoring.monotone_rises(falling, rng=3)
    assert np.all(r["rises"] <= r["thresholds"])
    rising = np.stack([rng.normal(m, 0.05, 200) for m in (3.0, 2.0, 2.5)])
    r = scoring.monotone_rises(rising, rng=3)
    assert r["rises"][1] > r["thresholds"][1] > 0


def test_representative_run_and_ratio_of_medians():
    E = np.array([[1.0, 10.0], [2.0, 50.0], [3.0, 20.0], [4.0, 5.0], [5.0, 30.0]])
    assert scoring.representative_run(E) == 2
    np.testing.assert_allclose(scoring.ratio_of_medians(np.array([[1.0, 2, 3], [2.0, 4, 6]])), 2.0)
    np.testing.assert_allclose(scoring.ratio_of_medians(np.ones((3, 4, 5)) * np.arange(1, 4)[:, None, None]), np.full(4, 3.0))


def test_panel_summary():
    rng = np.random.default_rng(4)
    res = {e: {"IBU": rng.normal(1 / e, 0.01, 50), "INV-N": rng.normal(3 / e, 0.01, 50),
               "INV-P": rng.normal(2 / e, 0.01, 50), "MLE": rng.normal(1.5 / e, 0.01, 20)} for e in (1.0, 2.0, 4.0)}
    s = scoring.panel_summary(res, rng=5)
    np.testing.assert_allclose(s["inv"], [2, 1, 0.5], atol=0.01)
    np.testing.assert_allclose(s["ratio3"], 3.0, atol=0.1)
    assert s["lower"].tolist() == [True, True, False]
    assert s["rises"].shape == s["thresholds"].shape == (6,) and np.all(s["rises"] < 0)


# ----------------------------------------------------------------------------------------- experiments
def test_estimation_trials_with_the_certified_mle():
    M = mech.geometric_channel(20, 0.2)
    N = np.random.default_rng(6).multinomial(3000, np.random.default_rng(7).dirichlet(np.ones(20)))
    out = ibu.estimation_trials(M, N, 5, metric=measures.emd_1d_rows, rng=8, mle_reps=3)
    assert out["MLE"].shape == (3,) and out["mle_certified"].all()
    mle = est.ibu(M, out["counts"][:3], criterion="gap", tol=1e-6, accelerate="squarem", max_iter=10**6)
    np.testing.assert_allclose(out["MLE"], measures.emd_1d_rows(mle.estimate, N / N.sum()), atol=1e-12)
    # the paper's rule stops earlier, with a larger certified gap than the MLE's tolerance
    assert np.all(out["gap_stop"] > 1e-6)
    with pytest.raises(ValueError, match="mle_reps"):
        ibu.estimation_trials(M, N, 2, metric=measures.emd_1d_rows, rng=8, mle_reps=3)


def test_estimation_trials_without_ibu_scores_inversion_only():
    M = mech.grr_channel(8, 1.0)
    out = ibu.estimation_trials(M, np.arange(1, 9) * 100, 4, metric=measures.emd_1d_rows, rng=9, with_ibu=False)
    assert "IBU" not in out and set(out) >= {"INV-N", "INV-P", "noisy", "counts"}


def test_threshold_sweep_continues_the_same_run():
    M = mech.geometric_channel(15, 0.1)
    C = simulate_counts_batch(M, np.full(15, 200), 3, rng=10)
    one = ibu.threshold_sweep(M, C, np.array([1e-6]))
    direct = est.ibu(M, C, tol=1e-6, max_iter=200_000)
    np.testing.assert_array_equal(one["estimates"][0], direct.estimate)
    np.testing.assert_array_equal(one["n_iter"][0], direct.n_iter)
    many = ibu.threshold_sweep(M, C, np.array([1e-5, 1e-7, 1e-9]))
    assert np.all(np.diff(many["n_iter"], axis=0) >= 0)
    ll = [[est.log_likelihood(E[r], M, C[r]) for r in range(3)] for E in many["estimates"]]
    assert np.all(np.diff(ll, axis=0) >= -1e-15)
    with pytest.raises(ValueError, match="decreasing"):
        ibu.threshold_sweep(M, C, np.array([1e-7, 1e-5]))


def test_panel_tasks_feed_the_sweep_tasks():
    tasks = ibu.panel_tasks("krr", [1.0, 2.0], N=np.arange(1, 6) * 10, k=5, reps=2, tol=1e-8, max_iter=100)
    assert [t["eps"] for t in tasks] == [1.0, 2.0] and tasks[0]["kind"] == "krr"
    out = ibu.trial_task(tasks[0], rng=0)
    assert out["eps"] == 1.0 and out["IBU"].shape == (2,)
    rtasks = ibu.panel_tasks("rappor", [1.0], theta=np.full(4, 0.25), n=500, reps=2, tol=1e-8, max_iter=100)
    assert "kind" not in rtasks[0] and ibu.rappor_task(rtasks[0], rng=0)["eps"] == 1.0


# ----------------------------------------------------------------------------------------- theory
@settings(max_examples=40, deadline=None)
@given(k=st.integers(2, 40), eps=st.floats(0.01, 2.0), seed=st.integers(0, 2**31 - 1))
def test_geometric_exact_error_matches_the_generic_inverse(k, eps, seed):
    theta = np.random.default_rng(seed).dirichlet(np.ones(k))
    generic = est.inv_expected_sq_error(mech.geometric_channel(k, eps), theta, 7)
    assert ibu.inv_geometric_exact_sq_error(k, eps, theta, 7) == pytest.approx(generic, rel=1e-7)


def test_prop_7_2_fails_at_k_2_and_holds_beyond():
    a = np.exp(-0.05)
    exact = ibu.inv_geometric_exact_sq_error(2, 0.05, np.array([1.0, 0.0]), 1)
    assert exact == pytest.approx((1 + a * a) / (1 - a) ** 2 - 1)
    assert exact < ibu.inv_geometric_lower_bound(0.05, 1) / 9
    small = ibu.inv_bound_sampling("7.2", 200, rng=11, k_max=4)
    assert small["violations"] > 0 and small["violations"] == small["violations_k2"] and small["min_margin_k3"] > 0
    assert ibu.inv_bound_sampling("7.1", 200, rng=12, k_max=50)["violations"] == 0


def test_prop_7_2_sampling_always_covers_k_2():
    # one draw in ten is at k = 2, so even a small sample meets the counterexample (and none without it)
    few = ibu.inv_bound_sampling("7.2", 100, rng=5)
    assert few["violations_k2"] > 0 and few["violations"] == few["violations_k2"]
    assert ibu.inv_bound_sampling("7.2", 30, rng=5, k_max=300, k2_every=0)["instances"] == 150


def test_identifying_observations_thm_6_1():
    assert ibu.identifying_observations(mech.grr_channel(6, 1.0))["strict"]
    out = ibu.identifying_observations(M12)
    assert not out["strict"] and out["s_ratio"] < 1e-12


def test_krr_likely_fraction_matches_sampling():
    rng = np.random.default_rng(13)
    counts = np.r_[np.full(20, 30), np.zeros(180, int)]
    p = ibu.krr_likely_fraction(counts, 3.0)
    x = np.repeat(np.arange(200), counts)
    draws = np.array([np.unique(mech.grr_perturb(x, 200, 3.0, rng=rng)).size / 200 for _ in range(400)])
    assert abs(draws.mean() - p) < 4 * draws.std(ddof=1) / np.sqrt(draws.size)


def test_consistency_error_falls_with_n():
    M = mech.grr_channel(5, 1.0)
    theta = np.full(5, 0.2)
    small, large = (ibu.consistency_error(M, theta, n, 10, rng=14) for n in (1000, 100_000))
    assert large < small / 5
    assert ibu.consistency_error("untruncated geometric", theta, 2000, 3, epsilon=0.5, rng=15) < 0.5


def test_square_lattice_delta_and_delta_prime_of_fig_14():
    assert ibu.square_lattice_delta(0.3) == pytest.approx(0.2121, abs=1e-4)
    assert est.planar_delta_prime(0.21, 8.25) == pytest.approx(1.873, abs=1e-3)


# ----------------------------------------------------------------------------------------- figures
def test_figures_return_closed_figures():
    import matplotlib.figure

    res = {e: {"IBU": np.ones(3) / e, "MLE": np.ones(2) / e, "INV-N": np.ones(3), "INV-P": np.ones(3)} for e in (0.5, 1.0)}
    X = np.arange(-20, 21)
    z = np.array([-3, 0, 1, 1, 5, 12])
    for fig in (figures.fig2(), figures.fig10(res, res), figures.fig12(res, res),
                figures.fig13(X, est.likely_subset_linear(X, z), z)):
        assert isinstance(fig, matplotlib.figure.Figure)


# ------------------------------------------------------------------ third edition: Sec. 8.2, Fig. 8, Sec. 7.6
@pytest.mark.parametrize("kind", ["geometric", "laplace", "exponential"])
def test_line_mechanisms_are_channels_on_the_integers_and_decrease_with_distance(kind):
    X, Z = np.arange(-3, 4), np.arange(-400, 401)
    P = ibu.line_mechanism_matrix(kind, X, Z, 0.3)
    assert np.allclose(P.sum(axis=1), 1.0, atol=1e-12)
    assert ibu.distance_monotonicity_violations(P, X, Z)["violations"] == 0
    assert np.allclose(P[0], np.roll(P[1], -1)[: Z.size])  # depends on z - x only (away from the window's end)


@pytest.mark.parametrize("kind", ["geometric", "laplace", "exponential"])
def test_line_mechanism_sampler_matches_its_matrix(kind):
    """Chi-square goodness of fit of 20,000 reports from x = 0 (values pooled beyond |z| > 12), at a
    false-alarm rate of 1e-3."""
    from scipy import stats

    z = ibu.line_mechanism_perturb(kind, np.zeros(20_000, dtype=np.int64), 0.4, rng=7)
    bins = np.arange(-12, 13)
    p = ibu.line_mechanism_matrix(kind, np.array([0]), bins, 0.4)[0]
    obs = np.array([np.sum(z < -12)] + [np.sum(z == b) for b in bins] + [np.sum(z > 12)])
    exp = 20_000 * np.concatenate([[(1 - p.sum()) / 2], p, [(1 - p.sum()) / 2]])
    assert stats.chisquare(obs, exp).pvalue > 1e-3


def test_the_distance_condition_holds_after_truncation_and_fails_for_krr():
    X = np.arange(10)
    # the clamped end columns collect the tail, which still decreases with the distance
    assert ibu.distance_monotonicity_violations(mech.geometric_channel(10, 0.5), X, X)["violations"] == 0
    # k-RR: every other value is equally likely, so "closer" is not "strictly likelier"
    assert ibu.distance_monotonicity_violations(mech.grr_channel(10, 1.0), X, X)["violations"] > 0
    M = mech.geometric_channel(10, 0.5)
    with pytest.raises(ValueError, match="inputs X and reports z"):
        ibu.distance_monotonicity_violations(M, X, X[:5])


def test_renormalised_planar_channel():
    M = ibu.renormalised_planar_geometric_channel(4, 3, 1.0, 0.5)
    assert np.allclose(M.sum(axis=1), 1.0)
    from ldpnb.channels import geo_ind_epsilon
    from ldpnb.data import lattice_distance_matrix

    level = geo_ind_epsilon(M, lattice_distance_matrix(4, 3, 0.5))
    assert 1.0 < level <= 2.0 + 1e-9  # the row normalisers differ: between eps and 2 eps
    clamped = mech.planar_geometric_channel(4, 3, 1.0, cell_size=0.5)
    assert not np.allclose(M, clamped)
    with pytest.raises(ValueError, match="two cells"):
        ibu.renormalised_planar_geometric_channel(1, 1, 1.0)


def test_median_ratio_ci():
    rng = np.random.default_rng(0)
    a, b = rng.lognormal(0, 0.2, 200), 2 * rng.lognormal(0, 0.2, 200)
    r = scoring.median_ratio_ci(a, b, rng=1)
    assert r["ci_low"] < r["ratio"] < r["ci_high"] and 1.7 < r["ratio"] < 2.3
    assert scoring.median_ratio_ci(a, a, rng=1)["ratio"] == 1.0


def test_readings_and_certification_tables():
    from ldpnb.papers.ibu import tables

    runs = {"ours": {"noisy": np.arange(10.0), "INV-N": np.arange(10.0)}}
    df = tables.readings(runs, {"noisy": 4.5, "INV-N": 20.0}).data
    assert df.loc["ours", ("noisy", "paper's pct")] == 50.0 and df.loc["ours", ("INV-N", "paper's pct")] == 100.0
    check = {"s": {"emd_em": np.ones((2, 3)), "bound_em": np.ones((2, 3)), "emd_mle": np.ones(3),
                   "bound_mle": np.zeros(3)}}
    df = tables.certification(check, [1e-6, 1e-8]).data
    assert df.shape == (3, 2) and df.loc["interior-point MLE", ("s", "certified bound (median)")] == 0.0
