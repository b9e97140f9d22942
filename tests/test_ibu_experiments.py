"""The IBU chapter's experiment runners, scoring statistics and the new theory functions
(ElSalamouny and Palamidessi, arXiv 2508.09980, Secs. 6-8)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpnb import estimators as est
from ldpnb import measures
from ldpnb import mechanisms as mech
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


def _panel(rng, eps=(1.0, 2.0, 4.0), runs=50, scale=(1.0, 3.0, 2.0)):
    """A synthetic panel: IBU, INV-N, INV-P distances falling as 1/eps, and an MLE on fewer runs."""
    return {
        e: {
            "IBU": scale[0] / e * rng.lognormal(0, 0.1, runs),
            "INV-N": scale[1] / e * rng.lognormal(0, 0.1, runs),
            "INV-P": scale[2] / e * rng.lognormal(0, 0.1, runs),
            "MLE": 1.5 / e * rng.lognormal(0, 0.1, runs - 10),
        }
        for e in eps
    }


def test_stack_orders_runs_eps_estimators_and_keeps_the_common_runs():
    res = _panel(np.random.default_rng(0))
    X = scoring.stack(res)
    assert X.shape == (50, 3, 3)
    np.testing.assert_array_equal(X[:, 1, 2], res[2.0]["INV-P"])
    Xm = scoring.stack(res, ("MLE", "INV-N", "INV-P"), eps=[1.0])
    assert Xm.shape == (40, 1, 3)  # the runs whose MLE is computed
    np.testing.assert_array_equal(Xm[:, 0, 1], res[1.0]["INV-N"][:40])
    with pytest.raises(ValueError, match="lack"):
        scoring.stack(res, ("IBU", "noisy"))
    with pytest.raises(ValueError, match="exceeds"):
        scoring.stack(res, runs=60)


def test_statistics_of_medians_are_exact_and_vectorised_over_resamples():
    rng = np.random.default_rng(1)
    X = rng.lognormal(0, 0.5, (21, 4, 3))
    m = np.median(X, axis=0)
    np.testing.assert_allclose(scoring.gain(X), np.minimum(m[:, 1], m[:, 2]) / m[:, 0])
    np.testing.assert_allclose(scoring.excess(X), 1 / scoring.gain(X))
    np.testing.assert_allclose(scoring.advantage(X), np.minimum(m[:, 1], m[:, 2]) - m[:, 0])
    np.testing.assert_allclose(scoring.spread(X), m.max(1) / m.min(1))
    np.testing.assert_allclose(scoring.shrink(X[:, [0, -1]]), scoring.gain(X)[-1] / scoring.gain(X)[0])
    np.testing.assert_allclose(scoring.ratio(X[:, 0, :2]), m[0, 0] / m[0, 1])
    np.testing.assert_allclose(scoring.difference(X[:, 0, :2]), m[0, 1] - m[0, 0])
    noisy = X[:, 0, [0, 1, 2, 0]]  # (noisy, IBU, INV-N, INV-P)
    mn = np.median(noisy, 0)
    np.testing.assert_allclose(scoring.against_noisy(noisy), [mn[0] / mn[1], mn[2] / mn[0], mn[3] / mn[0]])
    # a stack of resamples along axis 1, as ldpnb.stats.bootstrap calls them: one value per resample
    R = np.stack([X[rng.integers(0, 21, 21)] for _ in range(5)], axis=1)  # (runs, resample, eps, est)
    for f in (scoring.gain, scoring.advantage, scoring.spread, scoring.excess):
        np.testing.assert_allclose(f(R), np.stack([f(R[:, b]) for b in range(5)]))


def test_fig9_numbers_grade_a_clear_panel():
    from ldpnb.papers.ibu import CLAIMS
    from ldpnb.repro import Report

    res = _panel(np.random.default_rng(2))
    nums = scoring.fig9_numbers(res, "b", rng=3) | scoring.fig9_numbers(res, "b", mle=True, rng=4)
    assert set(nums) == {"F9b.1", "F9b.2", "F9b.3", "F9b.4", "F9b.5", "F9Mb.1", "F9Mb.2"}
    assert nums["F9b.2"].method == "bootstrap-bca" and nums["F9b.2"].value == pytest.approx(2.0, rel=0.1)
    assert nums["F9b.3"].simultaneous and nums["F9b.3"].shape == (3,)
    report = Report("ibu", CLAIMS, scale="book")
    report.record({k: v for k, v in nums.items() if k not in ("F9b.2", "F9b.4")})
    assert report.rows["F9b.1"]["status"] == "pass"  # IBU twice better than INV at every eps
    assert report.rows["F9b.3"]["status"] == "pass"
    assert report.rows["F9b.5"]["status"] == "pass"  # every median halves with eps
    assert report.rows["F9Mb.2"]["status"] == "diverges"  # the MLE gain is 1.33 < 2: reversed
    ages = scoring.fig9_numbers(res, "a", rng=5)  # ages: the shrink of the gain, here ~1
    assert ages["F9a.4"].value == pytest.approx(1.0, abs=0.15)


def test_steps_detect_a_rise_and_tolerate_noise():
    from ldpnb.papers.ibu import CLAIMS
    from ldpnb.repro import Report

    rng = np.random.default_rng(6)
    falling = _panel(rng, runs=100)
    rising = {e: dict(r) for e, r in falling.items()}
    rising[4.0]["IBU"] = 1.5 * rising[2.0]["IBU"]  # IBU's median rises by 50% at the last step
    flat = {
        e: {m: (4.0 if e == 1.0 else 2.0) * rng.lognormal(0, 0.1, 100) for m in ("IBU", "INV-N", "INV-P")}
        for e in (1.0, 2.0, 3.0)
    }  # halves, then stays flat
    report = Report("ibu", CLAIMS, scale="book")
    report.record({"F10a.2": scoring.steps(falling), "F10b.2": scoring.steps(rising), "F12a.2": scoring.steps(flat)})
    assert report.rows["F10a.2"]["status"] == "pass"
    assert report.rows["F10b.2"]["status"] == "fail"
    assert report.rows["F12a.2"]["status"] == "pass"  # equal medians at the last step: within 10%


def test_ldp_numbers_and_the_comparable_criterion():
    from ldpnb.papers.ibu import CLAIMS
    from ldpnb.repro import Report

    rng = np.random.default_rng(7)
    same = _panel(rng, scale=(1.0, 1.05, 1.0), runs=100)
    apart = _panel(rng, scale=(1.0, 2.5, 1.0), runs=100)
    nums = scoring.ldp_numbers(same, "10a", rng=8) | scoring.ldp_numbers(apart, "10b", rng=9)
    assert nums["F10a.1"].shape == (3,) and nums["F10a.1"].simultaneous
    report = Report("ibu", CLAIMS, scale="book")
    report.record({k: nums[k] for k in ("F10a.1", "F10b.1")})
    assert report.rows["F10a.1"]["status"] == "pass" and report.rows["F10b.1"]["status"] == "fail"


def test_loglog_slope_is_the_slope_of_the_means_with_an_interval():
    rng = np.random.default_rng(10)
    n = np.array([1e3, 1e4, 1e5, 1e6])
    E = rng.lognormal(0, 0.3, (20, 4)) / np.sqrt(n)
    e = scoring.loglog_slope(n, E, rng=11)
    assert e.value == pytest.approx(ibu.loglog_slope(n, E.mean(0)), abs=1e-12)
    assert e.low < -0.5 < e.high and e.high - e.low < 0.2
    flat = scoring.loglog_slope(n, rng.lognormal(0, 0.3, (20, 4)), rng=12)
    assert flat.low < 0 < flat.high
    with pytest.raises(ValueError, match="one column per n"):
        scoring.loglog_slope(n, E[:, :3], rng=1)


def test_offsets_compare_each_reading_with_ours():
    rng = np.random.default_rng(13)
    ours = 0.766 + rng.normal(0, 0.002, 200)
    near, far = 0.770 + rng.normal(0, 0.002, 50), 0.60 + rng.normal(0, 0.002, 50)
    e = scoring.offsets(ours, (near, far), 0.7658, rng=14)
    assert e.shape == (2,) and e.simultaneous and np.all(e.low > 0)
    e = scoring.offsets(far, (ours,), 0.7658, rng=15)
    assert e.high < 0


def test_representative_run():
    E = np.array([[1.0, 10.0], [2.0, 50.0], [3.0, 20.0], [4.0, 5.0], [5.0, 30.0]])
    assert scoring.representative_run(E) == 2


def test_panel_medians():
    res = _panel(np.random.default_rng(4))
    s = scoring.panel_medians(res)
    np.testing.assert_allclose(s["inv"], [2, 1, 0.5], rtol=0.1)
    np.testing.assert_allclose(s["ratio3"], 3.0, rtol=0.1)
    assert s["lower"].tolist() == [True, True, False] and s["med"]["MLE"].shape == (3,)


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


def test_consistency_errors_are_the_samples_of_consistency_error():
    M, theta = mech.grr_channel(6, 1.0), np.full(6, 1 / 6)
    e = ibu.consistency_errors(M, theta, 1000, 5, rng=3)
    assert e.shape == (5,) and ibu.consistency_error(M, theta, 1000, 5, rng=3) == pytest.approx(e.mean())


def test_rappor_frequencies_refuse_an_absurd_size_before_allocating():
    with pytest.raises(ValueError, match="2 GiB"):
        ibu.rappor_concavity_frequencies(64, 100_000, 1.0, 1_000_000)


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

    res = {
        e: {"IBU": np.ones(3) / e, "MLE": np.ones(2) / e, "INV-N": np.ones(3), "INV-P": np.ones(3)} for e in (0.5, 1.0)
    }
    X = np.arange(-20, 21)
    z = np.array([-3, 0, 1, 1, 5, 12])
    for fig in (
        figures.fig2(),
        figures.fig10(res, res),
        figures.fig12(res, res),
        figures.fig13(X, est.likely_subset_linear(X, z), z),
    ):
        assert isinstance(fig, matplotlib.figure.Figure)


def test_figures_draw_the_intervals_of_the_estimates():
    import matplotlib.figure
    import pandas as pd

    rng = np.random.default_rng(20)
    res = {e: {m: rng.lognormal(0, 0.2, 8) / e for m in ("IBU", "INV-N", "INV-P")} for e in (0.5, 1.0)}
    fig = figures.fig10(res, res)
    assert len(fig.axes[0].collections) >= 3  # one bar collection of median intervals per estimator
    mc = pd.DataFrame({"eps": [1.0, 1.0], "n": [10, 25], "concave": [0.4, 0.99], "gf2": [0.3, 0.98]})
    n = np.array([1e3, 1e4, 1e5])
    errors = {"k-RR": rng.lognormal(0, 0.2, (12, 3)) / np.sqrt(n)}
    slopes = {"k-RR": scoring.loglog_slope(n, errors["k-RR"], rng=1)}
    panels = {
        "(a)": dict(
            tols=np.array([1e-6, 1e-7]),
            emd=rng.lognormal(0, 0.2, (2, 8)),
            mle=rng.lognormal(0, 0.2, 8),
            inv=2.0,
            paper=1.0,
            unit="km",
            compare=dict(label="k-RR", emd=rng.lognormal(0, 0.2, (2, 8)), mle=rng.lognormal(0, 0.2, 8)),
        )
    }
    for fig in (
        figures.fig4(np.arange(10, 30), {1.0: np.linspace(0, 1, 20)}, mc, 200),
        figures.consistency(n, errors, slopes),
        figures.stopping_rule(panels),
    ):
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


def test_readings_and_certification_tables():
    from ldpnb.papers.ibu import tables

    runs = {"ours": {"noisy": np.arange(10.0), "INV-N": np.arange(10.0)}}
    df = tables.readings(runs, {"noisy": 4.5, "INV-N": 20.0}).data
    assert df.loc["ours", ("noisy", "paper's pct")] == 50.0 and df.loc["ours", ("INV-N", "paper's pct")] == 100.0
    check = {
        "s": {"emd_em": np.ones((2, 3)), "bound_em": np.ones((2, 3)), "emd_mle": np.ones(3), "bound_mle": np.zeros(3)}
    }
    df = tables.certification(check, [1e-6, 1e-8]).data
    assert df.shape == (3, 2) and df.loc["interior-point MLE", ("s", "certified bound (median)")] == 0.0


# ------------------------------------------------------------------ phase B: the claims table on ldpnb.stats
def test_claims_use_no_deprecated_z_and_log_their_changes():
    from ldpnb.papers.ibu import CLAIMS

    assert not [k for k, c in CLAIMS.items() if c.z is not None]
    assert not [k for k in ("F8.1", "F8.2", "F8.3", "F8.4") if CLAIMS[k].instead is not None]
    logged = {k for k, c in CLAIMS.items() if c.changes}
    assert {"F8.2", "F8.4", "F1.3", "F9e.4", "F9Mb.2", "F9Md.2", "F9Mf.2", "T9.3", "P7.3"} <= logged
    for lab in "bdf":  # the paper's factor 2 on the MLE, expected to diverge since the first edition
        c = CLAIMS[f"F9M{lab}.2"]
        assert (c.lower, c.upper, c.expect, c.source) == (2.0, None, "diverges", "extension")
        assert [x.commit for x in c.changes] == ["abcf132", "a12d4b8"]
        assert c.changes[1].was == {"kind": "range", "upper": 2.0, "expect": "pass"}
    assert CLAIMS["T19M"].source == "extension"


def test_a_logged_change_shows_the_earlier_status():
    from ldpnb.papers.ibu import CLAIMS
    from ldpnb.repro import Report
    from ldpnb.stats import Estimate

    report = Report("ibu", CLAIMS, scale="book")
    report.range("F9Mb.2", Estimate(1.6, 1.5, 1.7, method="bootstrap-bca", n_runs=100))
    row = report.rows["F9Mb.2"]
    assert row["status"] == "diverges" and "criterion changed" in row["flags"]
    assert [c["status"] for c in row["changes"]] == ["diverges", "pass"]  # first edition's; phase A's 'below 2'
