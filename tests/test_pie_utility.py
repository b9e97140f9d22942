"""PIE paper, utility (Sec. 4.4, Figs. 10-12): parameters, thresholds, exact simulation, moments, Fig. 11."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from ldpnb import measures as M
from ldpnb import mechanisms as mech
from ldpnb.estimators import fo_estimate
from ldpnb.papers.pie import utility as U

N_LT, K_LT = 1_370_637, 10_500_393


def _pop(k=60, n=3000, s=1.0, zeros=40, seed=0):
    rng = np.random.default_rng(seed)
    c = rng.multinomial(n, U.zipf_profile(k, s))
    return U.UtilityPopulation(np.concatenate([c, np.zeros(zeros, dtype=np.int64)]), tops=(5, 20))


# ------------------------------------------------------------------------- one vocabulary (p, q)
def test_support_params_are_the_core_ones():
    for k, e in [(2, 1.0), (20, 0.5), (K_LT, 12.72)]:
        assert U.support_params("rr", k, e) == mech.grr_params(k, e)
    for g, e in [(2, 1.0), (10**8, 10.0)]:
        assert U.support_params("glh", 50, e, g) == mech.lh_params(e, g)[1:]
    with pytest.raises(ValueError, match="g is required"):
        U.support_params("glh", 50, 1.0)


@settings(max_examples=60, deadline=None)
@given(st.floats(0.05, 15), st.integers(3, 10**7), st.floats(0, 1))
def test_eq22_eq23_from_the_count_variance(eps, k, p):
    """Eqs. (22)/(23) equal Var[c(x)]/(n(p-q))^2 with c(x) ~ Bin(np(x), p) + Bin(n(1-p(x)), q)."""
    n = 1000
    for mech_, size in (("rr", k), ("glh", k)):
        pp, qq = U.support_params(mech_, k, eps, None if mech_ == "rr" else k)
        var_c = n * p * pp * (1 - pp) + n * (1 - p) * qq * (1 - qq)
        expected = var_c / (n * (pp - qq)) ** 2
        got = U.rr_variance(p, n, k, eps) if mech_ == "rr" else U.glh_variance(p, n, size, eps)
        assert got == pytest.approx(expected, rel=1e-7)


def test_fixed_theta_identity_and_sums():
    rng = np.random.default_rng(9)
    for _ in range(100):
        p, eps, g = rng.uniform(0, 1), rng.uniform(0.01, 20), int(rng.integers(2, 10**6))
        th = M.theta_glh(g, eps)
        assert U.glh_variance(p, 1000, g, eps) == pytest.approx(U.glh_variance_fixed_theta(p, 1000, g, th), rel=1e-8)
    p = U.zipf_profile(500, 1.0)
    assert U.rr_loss_sum(float(p[:100].sum()), 100, 20_000, 500, 2.0) == pytest.approx(
        U.rr_variance(p[:100], 20_000, 500, 2.0).sum(), rel=1e-12
    )
    assert U.glh_loss_sum(1.0, 500, 20_000, 50, 2.0) == pytest.approx(
        U.glh_variance(p, 20_000, 50, 2.0).sum(), rel=1e-12
    )


# ------------------------------------------------------------------------- thresholds
@pytest.mark.parametrize("n, q, k", [(N_LT, 1e-8, K_LT), (N_LT, 9.5e-8, K_LT), (5000, 0.01, 100), (100, 0.3, 10)])
def test_binomial_threshold_is_the_smallest_significant_count(n, q, k):
    c = U.binomial_count_threshold(n, q, k)
    assert stats.binom.sf(c - 1, n, q) <= 0.05 / k < stats.binom.sf(c - 2, n, q)


def test_gaussian_threshold_on_the_estimate_and_on_the_count():
    p, q = mech.grr_params(K_LT, 10.0)
    c = U.gaussian_count_threshold(N_LT, p, q, K_LT)
    T = stats.norm.isf(0.05 / K_LT) * math.sqrt(q * (1 - q) / (N_LT * (p - q) ** 2))
    assert fo_estimate([c], N_LT, p, q)[0] == pytest.approx(T, rel=1e-9)
    assert stats.norm.isf(0.05 / K_LT) == pytest.approx(5.739, abs=1e-3)
    # GLH with g >> n: one collision passes the Gaussian threshold, not the exact test
    _, pg, qg = mech.lh_params(10.0, 10**8)
    assert U.gaussian_count_threshold(N_LT, pg, qg, K_LT) < 1 < U.binomial_count_threshold(N_LT, qg, K_LT)
    assert U.count_threshold("none", N_LT, pg, qg, K_LT) == -math.inf


# ------------------------------------------------------------------------- exact simulation
def test_population_by_occupied_symbols():
    pop = _pop()
    assert pop.k == 100 and pop.n == 3000 and pop.k0 == 100 - pop.holders.size
    assert np.all(np.diff(pop.holders[pop.tops[20]]) <= 0) and pop.mass(None) == 1.0
    assert pop.mass(5) == pytest.approx(pop.p[pop.tops[5]].sum())


@pytest.mark.parametrize("mechanism, g", [("rr", None), ("glh", 7), ("glh", 10**6)])
def test_simulate_support_in_law(mechanism, g):
    """Occupied counts: mean and variance of Bin(c, p) + Bin(n - c, q) (z at 5 SE); unoccupied
    symbols: the histogram against k0 x pmf of Bin(n, q) (chi-square at 1e-6); RR: the n reports
    are all accounted for."""
    pop, R, eps = _pop(), 3000, 1.5
    rng = np.random.default_rng(1)
    p, q = U.support_params(mechanism, pop.k, eps, g)
    counts, hists = [], np.zeros(pop.n + 1)
    for _ in range(R):
        c, h = U.simulate_support(pop, mechanism, eps, g=g, rng=rng)
        counts.append(c)
        hists[: h.size] += h
        if mechanism == "rr":
            assert c.sum() + np.arange(h.size) @ h == pop.n
        assert h.sum() == pop.k0
    counts = np.array(counts, dtype=float)
    mean = pop.holders * p + (pop.n - pop.holders) * q
    var = pop.holders * p * (1 - p) + (pop.n - pop.holders) * q * (1 - q)
    z = (counts.mean(axis=0) - mean) / np.sqrt(var / R)
    assert np.max(np.abs(z)) < 5
    big = var >= 1  # (the sample variance of a count with a tiny mean is far from normal)
    v_ratio = counts.var(axis=0, ddof=1)[big] / var[big]
    assert big.sum() == 0 or np.max(np.abs(v_ratio - 1)) < 5 * math.sqrt(2 / R) * 1.5  # (kurtosis: 1.5 x)
    pmf = stats.binom.pmf(np.arange(pop.n + 1), pop.n, q) * pop.k0 * R
    keep = pmf > 20
    assert stats.chisquare(hists[keep], pmf[keep] * hists[keep].sum() / pmf[keep].sum()).pvalue > 1e-6


@pytest.mark.parametrize("mechanism, g", [("rr", None), ("glh", 10**4)])
def test_simulate_support_against_the_core_full_simulator(mechanism, g):
    """The summed emp loss over all symbols has the same law as with the core full-vector simulators
    (two-sample Kolmogorov-Smirnov at 1e-4)."""
    pop, eps, R = _pop(zeros=200), 2.0, 1500
    counts_full = np.concatenate([pop.holders, np.zeros(pop.k0, dtype=np.int64)])
    p, q = U.support_params(mechanism, pop.k, eps, g)
    rng = np.random.default_rng(2)
    ours = [U.utility_run(pop, mechanism, eps, g=g, rng=rng)["emp_all"] for _ in range(R)]
    full = []
    for _ in range(R):
        c = (
            mech.grr_simulate_counts(counts_full, eps, rng=rng)
            if mechanism == "rr"
            else mech.lh_simulate_support_counts(counts_full, eps, g, rng=rng)
        )
        full.append(np.sum((fo_estimate(c, pop.n, p, q) - counts_full / pop.n) ** 2))
    assert stats.ks_2samp(ours, full).pvalue > 1e-4


@pytest.mark.parametrize("mechanism, g", [("rr", None), ("glh", 9)])
def test_utility_run_losses_from_the_same_counts(mechanism, g):
    """Every loss of a run equals the brute-force computation on the full count vector."""
    pop, eps = _pop(), 3.0
    c, h = U.simulate_support(pop, mechanism, eps, g=g, rng=np.random.default_rng(7))
    out = U.utility_run(pop, mechanism, eps, g=g, rng=np.random.default_rng(7))
    p, q = U.support_params(mechanism, pop.k, eps, g)
    full_c = np.concatenate([c, np.repeat(np.arange(h.size), h)])  # unoccupied symbols last
    full_p = np.concatenate([pop.p, np.zeros(pop.k0)])
    est = fo_estimate(full_c, pop.n, p, q)
    assert out["emp_all"] == pytest.approx(np.sum((full_p - est) ** 2), rel=1e-12)
    for kind in ("binomial", "gaussian"):
        thr = np.where(full_c >= U.count_threshold(kind, pop.n, p, q, pop.k), est, 0.0)
        assert out[f"{kind}_all"] == pytest.approx(np.sum((full_p - thr) ** 2), rel=1e-12)
        i20 = pop.tops[20]
        assert out[f"{kind}_20"] == pytest.approx(np.sum((pop.p[i20] - thr[i20]) ** 2), rel=1e-12)
        assert out[f"rel_{kind}"] == pytest.approx(np.mean(np.abs(pop.p[i20] - thr[i20]) / pop.p[i20]), rel=1e-12)
        assert out[f"kept_zero_{kind}"] == int(np.sum(thr[pop.holders.size :] != 0))
    assert out["emp_5"] == pytest.approx(np.sum((pop.p[pop.tops[5]] - est[pop.tops[5]]) ** 2), rel=1e-12)


def test_loss_moments_against_monte_carlo():
    pop, eps, R = _pop(), 2.0, 4000
    rng = np.random.default_rng(3)
    for mechanism, g in (("rr", None), ("glh", 5)):
        p, q = U.support_params(mechanism, pop.k, eps, g)
        runs = U.utility_runs(pop, [(mechanism, eps, g)], R, rng=rng)
        m, sd = U.loss_moments(pop.holders, pop.n, p, q, k_zero=pop.k0)
        assert abs(runs.emp_all.mean() - m) < 4 * sd / math.sqrt(R)
        assert runs.emp_all.std() == pytest.approx(sd, rel=0.1)
        m20, sd20 = U.loss_moments(pop.holders[pop.tops[20]], pop.n, p, q)
        assert abs(runs.emp_20.mean() - m20) < 4 * sd20 / math.sqrt(R)
        assert m == pytest.approx(
            float(np.sum(U.rr_variance(pop.p, pop.n, pop.k, eps)) + pop.k0 * U.rr_variance(0.0, pop.n, pop.k, eps))
            if mechanism == "rr"
            else float(np.sum(U.glh_variance(pop.p, pop.n, g, eps)) + pop.k0 * U.glh_variance(0.0, pop.n, g, eps)),
            rel=1e-9,
        )


def test_summarise_runs_columns_and_the_mean_against_the_equations():
    from ldpnb import stats as S

    pop = _pop()
    runs = U.utility_runs(pop, [("rr", 2.0, None), ("glh", 2.0, 5)], 30, rng=4)
    s = U.summarise_runs(runs, pop)
    assert list(s.index.names) == ["mech", "eps", "g"] and len(s) == 2
    for col in ("emp_all_mean", "binomial_20_lo", "gaussian_5_hi", "emp_20_expected", "rel_binomial_mean"):
        assert col in s.columns
    assert not any(c.endswith(("_z", "_se")) for c in s.columns)  # uncertainty: ldpnb.stats estimates
    ratio = S.mean(U.run_matrix(runs, "emp_all") / s.emp_all_expected.to_numpy(), simultaneous=True)
    assert np.all(ratio.low <= 1) and np.all(ratio.high >= 1)


# ------------------------------------------------------------------------- Fig. 11
def test_expected_relative_error_against_monte_carlo():
    pop, eps, R = _pop(n=20_000, zeros=2000), 4.0, 2000
    rng = np.random.default_rng(5)
    runs = U.utility_runs(pop, [("rr", eps, None)], R, rng=rng)
    for kind in ("binomial", "gaussian"):
        exact = U.expected_relative_error(pop.holders[pop.tops[20]], pop.n, pop.k, eps, kind).mean()
        assert abs(runs[f"rel_{kind}"].mean() - exact) < 4 * runs[f"rel_{kind}"].std() / math.sqrt(R)


def test_max_mean_under_limit():
    a, b = np.array([1.0, 0.2, 2.0]), np.array([0.3, 0.0, 0.5])
    # mixtures of (0.2, 0) with (1, 0.3) or (2, 0.5) meeting mean b <= 0.1: best is w(2) = 0.2 -> 0.56
    assert U.max_mean_under_limit(a, b, 0.1) == pytest.approx(max(0.2 + (1 - 0.2) / 3, 0.2 + 1.8 / 5))
    assert U.max_mean_under_limit(a, b, 1.0) == 2.0
    assert U.max_mean_under_limit(a, b, -1.0) == -math.inf


def test_relative_error_moments_against_direct_sampling():
    """Mean and variance of one symbol's relative error: exact pmf against 20,000 draws of the count."""
    n, k, eps = 50_000, 2000, 6.0
    p, q = mech.grr_params(k, eps)
    rng = np.random.default_rng(11)
    for kind in ("binomial", "gaussian"):
        cstar = U.count_threshold(kind, n, p, q, k)
        for c in (40, 400):
            m, v = U.relative_error_moments([c], n, k, eps, kind)
            cnt = rng.binomial(c, p, 20_000) + rng.binomial(n - c, q, 20_000)
            r = np.abs(c / n - np.where(cnt >= cstar, (cnt / n - q) / (p - q), 0.0)) / (c / n)
            # mean within 4 SE; variance within 5 SE of a sample variance (kurtosis-aware)
            assert abs(r.mean() - m[0]) < 4 * r.std() / math.sqrt(r.size)
            se_var = math.sqrt(max(np.mean((r - r.mean()) ** 4) - r.var() ** 2, 1e-300) / r.size)
            assert abs(r.var() - v[0]) < 5 * se_var
            assert U.expected_relative_error([c], n, k, eps, kind)[0] == m[0]


def test_best_mixture_under_limit_names_its_points():
    a, b = np.array([1.0, 0.2, 2.0]), np.array([0.3, 0.0, 0.5])
    r = U.best_mixture_under_limit(a, b, 0.1)
    assert r["value"] == pytest.approx(r["w"] * a[r["i"]] + (1 - r["w"]) * a[r["j"]])
    assert r["w"] * b[r["i"]] + (1 - r["w"]) * b[r["j"]] == pytest.approx(0.1)
    assert U.best_mixture_under_limit(a, b, 1.0) == {"value": 2.0, "i": 2, "j": 2, "w": 1.0}
    assert U.best_mixture_under_limit(a, b, -1.0)["i"] == -1


def test_printed_pair_distance_single_point_profile():
    """With a single admissible point, the profile is 20 copies of it: SD = sqrt(Var/20)."""
    grid = np.array([3000])
    r = U.printed_pair_distance(grid, N_LT, K_LT, 10.0, 12.72, 1.0, 1.05)
    m, v = U.relative_error_moments(grid, N_LT, K_LT, 10.0)
    assert r["max_mean"] == pytest.approx(m[0]) and r["sd"] == pytest.approx(math.sqrt(v[0] / 20))
    assert r["z"] == pytest.approx((1.05 - m[0]) / r["sd"])
    assert U.printed_pair_distance(grid, N_LT, K_LT, 10.0, 12.72, 0.0, 1.05)["z"] == math.inf


def test_crossing_and_its_bootstrap():
    assert U.crossing([10, 12, 14], [1e-4, 1e-5, 1e-7], 1e-6) == pytest.approx(13.0)
    assert math.isnan(U.crossing([1, 2], [1.0, 0.5], 1e-6))
    rng = np.random.default_rng(3)
    runs = np.array([1e-4, 1e-5, 1e-7]) * rng.lognormal(0, 0.2, (30, 3))
    e = U.crossing_estimate([10, 12, 14], runs, 1e-6, n_boot=400, rng=1)
    assert e.value == pytest.approx(U.crossing([10, 12, 14], runs.mean(0), 1e-6))
    assert e.low < 13.0 < e.high and e.method == "bootstrap-bca"
    with pytest.raises(ValueError, match="at least 10 runs"):
        U.crossing_estimate([10, 12, 14], runs[:5], 1e-6, n_boot=400, rng=1)


def test_rr_guarantee_maps_the_interval_end_to_end():
    from ldpnb.stats import Estimate

    b = U.rr_guarantee(Estimate(12.9, 12.8, 13.0, method="t", n_runs=20), N_LT, K_LT)
    beta = lambda e: float(M.fano_lower_bound(M.alpha_rr(e, N_LT, K_LT), N_LT))  # noqa: E731
    assert (b.value, b.low, b.high) == pytest.approx((beta(12.9), beta(13.0), beta(12.8)))


def test_run_matrix_orders_settings_as_the_summary():
    import pandas as pd

    df = pd.DataFrame(
        {
            "mech": ["rr"] * 4 + ["glh"] * 4,
            "eps": [2.0, 2.0, 1.0, 1.0] * 2,
            "g": [0] * 4 + [5] * 4,
            "run": [0, 1] * 4,
            "x": np.arange(8.0),
        }
    )
    assert U.run_matrix(df, "x").tolist() == [[0.0, 2.0, 4.0, 6.0], [1.0, 3.0, 5.0, 7.0]]
    with pytest.raises(ValueError, match="same runs"):
        U.run_matrix(df.iloc[:-1], "x")


@pytest.mark.parametrize("eps", [355.0, 709.0, 710.0, 1e4])
def test_loss_formulas_are_finite_at_large_eps(eps):
    """(e^eps - 1)^2 overflows from eps ~ 355; the formulas are computed with 1/(e^eps - 1)."""
    assert np.all(np.isfinite(U.rr_variance(np.array([0.0, 0.5]), 100, 4, eps)))
    assert U.glh_variance(0.25, 100, 5, eps) == pytest.approx(0.75 / 400)  # (1 - p)/(n(g - 1))
    assert np.isfinite(U.rr_loss_sum(0.5, 10, 100, 4, eps))
    assert U.glh_loss_sum(1.0, 4, 100, 5, eps) == pytest.approx((4 - 1) / 400)
    # and agree with the textbook forms where those are finite
    e = math.expm1(3.0)
    assert U.rr_variance(0.3, 100, 4, 3.0) == pytest.approx((4 + e - 1) / (100 * e**2) + 0.3 * 2 / (100 * e))


def test_mean_relative_error_tail_brackets_the_exact_probability():
    """Two symbols, enumerated exactly (every pair of support counts) against the FFT convolution on a
    grid: the exact tail lies in the bracket, which is narrow."""
    from ldpnb.papers.pie.utility import _relative_error_law, mean_relative_error_tail

    n, k, eps, counts = 3000, 40, 2.0, [60, 90]
    (fa, ra), (fb, rb) = (_relative_error_law(c, n, k, eps, "binomial", 0.05) for c in counts)
    for thr in (0.2, 0.5, 1.0):
        exact = float(np.sum(np.outer(fa, fb)[(ra[:, None] + rb[None, :]) / 2 >= thr]))
        lo, hi = mean_relative_error_tail(counts, n, k, eps, thr, step=1e-4)
        assert lo - 1e-12 <= exact <= hi + 1e-12 and hi - lo < 0.02, (thr, lo, exact, hi)
