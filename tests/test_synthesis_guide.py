"""The synthesis chapter's second edition: estimators, variance lens, lookup guide, tie-aware ranks."""

import math

import numpy as np
import pytest
from scipy import stats

from ldpnb import mechanisms as mech
from ldpnb.papers.synthesis import estimation as est
from ldpnb.papers.synthesis import experiments as ex
from ldpnb.papers.synthesis import families as fam
from ldpnb.papers.synthesis import guide, ranks
from ldpnb.papers.synthesis import variance as V

ALPHA = 1e-6  # false-alarm rate of each sampler test
NAMES = fam.oracle_families()


def test_families_come_from_the_registry():
    assert NAMES == ["GRR", "SUE", "OUE", "OLH", "BLH", "SS"]
    for n in NAMES:
        m = fam.build_oracle(n, 8, 1.0)
        assert isinstance(m, mech.FrequencyOracle) and 0 < m.q < m.p < 1


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("k,eps", [(5, 0.7), (12, 1.0), (8, 3.0)])
def test_pure_total_variance_is_the_exact_channel_variance(name, k, eps):
    m = fam.build_oracle(name, k, eps)
    N = guide.integer_counts(guide.distribution("Zipf", k), 5_000)
    assert V.exact_channel_variance(m, N) == pytest.approx(fam.pure_total_variance(m.p, m.q, k, 5_000), rel=1e-10)


@pytest.mark.parametrize("name", ["GRR", "SS", "OUE", "OLH"])
def test_support_covariance_is_the_exact_channel_covariance(name):
    k, eps = 6, 0.8
    m = fam.build_oracle(name, k, eps)
    N = np.array([400, 250, 150, 100, 60, 40])
    C = np.exp(m.log_channel())
    C /= C.sum(axis=1, keepdims=True)
    A, _ = est.standard_matrix(m, C)
    n = N.sum()
    covY = sum(N[x] * (np.diag(C[x]) - np.outer(C[x], C[x])) for x in range(k))
    want = A.T @ covY @ A / n**2
    np.testing.assert_allclose(V.support_covariance(m, N), want, rtol=1e-9, atol=1e-15)


def test_range_query_mse_of_independent_unit_variances():
    out = V.range_query_mse(np.eye(10), [1, 3, 10])
    assert out == {1: pytest.approx(1.0), 3: pytest.approx(3.0), 10: pytest.approx(10.0)}
    # a sum-to-constant estimator (GRR) has no error on the whole domain
    m = fam.build_oracle("GRR", 10, 1.0)
    cov = V.support_covariance(m, np.full(10, 100))
    assert V.range_query_mse(cov, [10])[10] == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("name", NAMES)
def test_batched_support_counts_follow_the_marginal_law(name):
    k, eps, runs = 9, 1.2, 4_000
    m = fam.build_oracle(name, k, eps)
    N = np.array([900, 500, 300, 200, 100, 50, 30, 15, 5])
    n = N.sum()
    S = fam.sample_support_counts(m, N, runs, rng=np.random.default_rng(3))
    mean = N * m.p + (n - N) * m.q
    var = N * m.p * (1 - m.p) + (n - N) * m.q * (1 - m.q)
    z = (S.mean(axis=0) - mean) / np.sqrt(var / runs)
    crit = stats.norm.ppf(1 - ALPHA / (2 * k))
    assert np.abs(z).max() < crit
    chi = (runs - 1) * S.var(axis=0, ddof=1) / var
    lo, hi = stats.chi2.ppf([ALPHA / (2 * k), 1 - ALPHA / (2 * k)], runs - 1)
    assert np.all((chi > lo) & (chi < hi))
    if name == "GRR":
        assert np.all(S.sum(axis=1) == n)  # the exact joint law: every report supports one value
    if name == "SS":
        omega = mech.ss_params(k, eps)[0]
        assert np.all(S.sum(axis=1) == n * omega)


@pytest.mark.parametrize("name", NAMES)
def test_standard_estimate_is_unbiased_on_expected_reports(name):
    k = 6
    m = fam.build_oracle(name, k, 1.0)
    pi = np.array([0.3, 0.25, 0.2, 0.1, 0.1, 0.05])
    C = np.exp(m.log_channel())
    C /= C.sum(axis=1, keepdims=True)
    Y = 1e6 * (pi @ C)  # expected report counts (non-integer, exact)
    A, b = est.standard_matrix(m, C)
    np.testing.assert_allclose((Y / Y.sum()) @ A + b, pi, atol=1e-9)


def test_wang_rule_and_the_exact_boundary():
    for e in (0.1, 0.5, 1.0, 2.0, 4.0):
        kstar = V.grr_oue_exact_boundary(e)
        assert kstar < 3 * math.exp(e) + 2
        for k in range(2, 300):
            assert V.exact_grr_beats_oue(k, e) == (k < kstar)
    out = V.wang_rule_check(np.arange(2, 200), [0.5, 1.0, 2.0])
    assert out["mismatches"] == 0 and out["outside_band"] == 0 and out["in_band"] > 0


def test_oue_var_star_on_the_channel():
    assert V.oue_var_star_exact(8, 1.0, 1_000) == pytest.approx(4 * math.e / (math.e - 1) ** 2, rel=1e-9)


def test_tie_ranks_and_tau_b():
    x = [0.3, 0.1, 0.1 + 1e-16, 0.2]
    assert ranks.tie_ranks(x).tolist() == [2, 0, 0, 1]
    y = [3.0, 1.0, 2.0, 2.5]
    # with the tie: the pair (1, 2) is tied in x and counts in neither direction
    assert ranks.tau_b(x, y) == pytest.approx(stats.kendalltau([2, 0, 0, 1], y).statistic)
    t, lo, hi = ranks.tau_bootstrap(np.arange(10.0), np.arange(10.0) ** 2, draws=200)
    assert t == pytest.approx(1.0) and lo <= t <= hi


def test_discordant_pairs_skip_ties():
    x = [1.0, 1.0 + 1e-15, 2.0]
    y = [2.0, 1.0, 3.0]
    # the first edition ranked 1.0 below 1.0 + 1e-15 and reported (a, b) as discordant
    assert ranks.discordant_pairs_tied(x, y, ["a", "b", "c"]) == []


def test_a_difference_of_float_noise_is_no_win():
    table = {
        "A": {"emd_diff": -1.4e-16, "emd_diff_se": 0.0, "emd_inv": 0.2},
        "B": {"emd_diff": -0.01, "emd_diff_se": 0.001, "emd_inv": 0.2},
    }
    better, worse = ex.wins(ex.ibu_advantage(table, ["A", "B"]), ["A", "B"])
    assert better == ["B"] and worse == []


def test_sign_with_ties():
    assert ex._sign(2.066180922977282, 2.066180922977276) == 0
    assert ex._sign(1.0, 0.9) == 1 and ex._sign(0.9, 1.0) == -1


def test_guide_grid_smoke():
    g = dict(guide.GRIDS["smoke"], k=[2, 32], eps=[1.0], n=[1_000], dist=["Zipf"], runs=5)
    res = guide.run_grid(g, seed=1, time_server=False)
    assert res.se_std.shape == (2, len(NAMES), 5)
    df = guide.summarise(res)
    assert list(df["k"]) == [2, 32] and set(df["best (unbiased)"]) <= set(NAMES)
    assert np.all(np.isnan(res.top[0])) and not np.any(np.isnan(res.top[1]))
    assert guide.confirm_exact(res)["tests"] == 2 * len(NAMES)


def test_bad_inputs_are_refused():
    with pytest.raises(ValueError):
        guide.distribution("Pareto", 8)
    with pytest.raises(KeyError):
        fam.build_oracle("HR", 8, 1.0)
    with pytest.raises(ValueError):
        fam.build_oracle("GRR", 1, 1.0)
