"""Claims of ElSalamouny and Palamidessi (arXiv 2508.09980) that involve the shared mechanisms, the
real data or longer statistical runs: T4-T7, T10, T13, T14, T16, T19, T25 and the Sec. 7 protocol.

Heavier checks are marked ``slow``.
"""

import numpy as np
import pytest

from ldpnb import channels as it_channels
from ldpnb import channels as mech_channels
from ldpnb import data as lgrid
from ldpnb import estimators as est
from ldpnb import estimators as it
from ldpnb import measures as it_measures
from ldpnb import mechanisms as mech
from ldpnb.papers import ibu as it_ibu


def dist_line(k):
    x = np.arange(k)
    return np.abs(x[:, None] - x[None, :]).astype(float)


# ------------------------------------------------------------------------------------ T4, T6


def test_T4_krr_strict_concavity():
    rng = np.random.default_rng(100)
    for _ in range(40):
        k = int(rng.integers(2, 31))
        eps = rng.uniform(0.1, 5)
        z = np.concatenate([np.arange(k), rng.integers(0, k, 5)])
        assert it.is_strictly_concave(it.observation_matrix(mech.grr_channel(k, eps), z))
    M = mech.grr_channel(5, 1.0)
    assert it.is_strictly_concave(it.observation_matrix(M, np.array([0, 1, 2, 3])))  # k-1 values suffice
    assert not it.is_strictly_concave(it.observation_matrix(M, np.array([0, 1, 2, 2, 1])))  # k-2 never do


def test_T6_truncated_geometric_strict_concavity():
    rng = np.random.default_rng(101)
    for _ in range(30):
        k = int(rng.integers(2, 40))
        z = np.concatenate([np.arange(k), rng.integers(0, k, 5)])
        assert it.is_strictly_concave(it.observation_matrix(mech.geometric_channel(k, rng.uniform(0.01, 3)), z))


# ------------------------------------------------------------------------------------ T7


@pytest.mark.parametrize("k", [2, 3, 5, 8, 10])
@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0, 3.0])
def test_T7_rappor_channel_lemma_4_4(k, eps):
    M = mech.rappor_channel(k, eps)
    bits = (np.arange(2**k)[:, None] >> np.arange(k)) & 1
    np.testing.assert_allclose(M, it_ibu.rappor_bits_likelihood(bits, eps), rtol=1e-12)
    np.testing.assert_allclose(M.sum(1), 1, atol=1e-12)
    assert mech_channels.ldp_epsilon(M) == pytest.approx(eps, abs=1e-9)


# ------------------------------------------------------------------------------------ T13, T25


def test_T13_identifiability_of_experiment_mechanisms():
    D = lgrid.lattice_distance_matrix(20, 14, 0.5)
    mats = [
        mech.grr_channel(100, 0.5),
        mech.geometric_channel(100, 0.05),
        mech.laplace_channel(100, 0.05),
        mech.exponential_channel(dist_line(100), 0.05),
        mech.planar_geometric_channel(20, 14, 0.2, cell_size=0.5),
        mech.planar_laplace_channel(20, 14, 1.0, cell_size=0.5),
        mech.exponential_channel(D, 0.2),
        mech.rappor_channel(8, 1.0),
    ]
    for M in mats:
        assert it.is_identifiable(M)
        # choose |X| independent columns as observations: L strictly concave there (Thm 6.1 (ii))
        q, r, piv = __import__("scipy").linalg.qr(M, pivoting=True)
        assert it.is_strictly_concave(M[:, piv[: M.shape[0]]])


def test_T13_non_identifiable_never_strictly_concave():
    M25 = it_channels.clamp_grid_outputs(mech.planar_geometric_channel(5, 5, 0.5), 5, 5, 4, 4)
    assert M25.shape == (25, 16) and np.linalg.matrix_rank(M25) == 16
    M12 = np.array([[0.45, 0.10, 0.45], [0.05, 0.90, 0.05], [0.45, 0.10, 0.45]])
    rng = np.random.default_rng(102)
    for M in (M25, M12):
        assert not it.is_identifiable(M)
        for _ in range(30):
            z = rng.integers(0, M.shape[1], rng.integers(1, 60))
            assert not it.is_strictly_concave(it.observation_matrix(M, z))


def test_T25_privacy_constants():
    D = dist_line(60)
    for eps in (0.05, 0.3, 1.0):
        for M in (mech.geometric_channel(60, eps), mech.laplace_channel(60, eps), mech.exponential_channel(D, eps)):
            assert mech_channels.geo_ind_epsilon(M, D) <= eps + 1e-9
    L = lgrid.lattice_distance_matrix(6, 5, 0.5)
    for eps in (0.2, 1.0):
        for M in (
            mech.planar_geometric_channel(6, 5, eps, cell_size=0.5),
            mech.planar_laplace_channel(6, 5, eps, cell_size=0.5),
            mech.exponential_channel(L, eps),
        ):
            assert mech_channels.geo_ind_epsilon(M, L) <= eps + 1e-9
    for eps in (0.5, 2.0):
        assert mech_channels.ldp_epsilon(mech.grr_channel(7, eps)) == pytest.approx(eps, abs=1e-9)


# ------------------------------------------------------------------------------------ T10


def test_T10_unique_mle_from_random_starts_rappor():
    rng = np.random.default_rng(103)
    k, eps = 6, 1.0
    M = mech.rappor_channel(k, eps)
    c = it_channels.simulate_counts_batch(M, rng.multinomial(300, np.full(k, 1 / k)), 1, rng=rng)[0]
    G = M[:, c > 0]
    assert it.is_strictly_concave(G)
    starts = rng.dirichlet(np.ones(k), 5)
    res = it.ibu_rows(M, np.tile(c, (5, 1)), theta0=starts, tol=0, max_iter=20_000)
    assert np.abs(res.estimate - res.estimate[0]).sum(1).max() < 1e-4


# ------------------------------------------------------------------------------------ T16


def test_T16_non_identifiable_sf_synthetic():
    theta = np.random.default_rng(104).dirichlet(np.full(25, 0.7))
    M = it_channels.clamp_grid_outputs(mech.planar_geometric_channel(5, 5, 0.5), 5, 5, 4, 4)
    q = theta @ M
    starts = np.vstack([np.full(25, 1 / 25), np.random.default_rng(105).dirichlet(np.ones(25), 2)])
    res = it.ibu_rows(M, np.tile(q, (3, 1)), theta0=starts, tol=0, max_iter=200_000)
    D = lgrid.lattice_distance_matrix(5, 5, 1.0)
    from ldpnb.measures import emd

    assert np.abs(res.estimate @ M - q).sum(1).max() < 1e-4
    assert (np.sum(q * np.log(q)) - res.loglik).max() < 1e-8
    pair = [emd(res.estimate[i], res.estimate[j], D) for i, j in ((0, 1), (0, 2), (1, 2))]
    assert min(pair) > 0.02
    assert min(emd(e, theta, D) for e in res.estimate) > 0.02


# ------------------------------------------------------------------------------------ §7 protocol


def test_estimation_trials_matches_direct_computation():
    M = mech.geometric_channel(30, 0.3)
    N = np.random.default_rng(106).multinomial(2000, np.random.default_rng(107).dirichlet(np.ones(30)))
    out = it_ibu.estimation_trials(M, N, 4, metric=it_measures.emd_1d_rows, rng=108, tol=1e-8, max_iter=5000)
    C = it_channels.simulate_counts_batch(M, N, 4, rng=108)  # same stream: the first draw of the generator
    theta = N / N.sum()
    r = est.ibu(M, C[-1], tol=1e-8, max_iter=5000)
    assert out["IBU"][-1] == pytest.approx(it_measures.emd_1d_rows(r.estimate, theta)[0], abs=1e-10)
    assert out["INV-P"][-1] == pytest.approx(it_measures.emd_1d_rows(est.inv_projected(M, C[-1]), theta)[0], abs=1e-10)
    assert out["INV-N"][-1] == pytest.approx(it_measures.emd_1d_rows(est.inv_normalized(M, C[-1]), theta)[0], abs=1e-10)
    np.testing.assert_array_equal(out["counts"], C)
    assert out["stopped"].all() and np.all(out["gap_stop"] >= 0)


def test_rappor_trials_runs_and_inv_n_uniform_fallback():
    out = it_ibu.rappor_trials(np.full(4, 0.25), 2000, 1.0, 3, rng=109, tol=1e-8, max_iter=2000)
    assert set(out) >= {"IBU", "INV-N", "INV-P", "n_iter", "stopped", "gap_stop", "inputs", "estimates"}
    assert np.all(out["IBU"] >= 0)
    # all per-bit estimates <= 0 (possible at tiny n) -> INV-N returns the uniform distribution
    np.testing.assert_allclose(it.clip_normalize(np.array([-0.1, -0.2, 0.0])), np.full(3, 1 / 3))


# ------------------------------------------------------------------------------------ T14, T19 (slow)


@pytest.mark.slow
def test_T14_consistency_slopes():
    from math import comb

    theta = np.array([comb(9, j) for j in range(10)]) / 2**9
    ns = [1_000, 10_000, 100_000, 1_000_000]
    rng = np.random.default_rng(110)
    for M in (mech.grr_channel(10, 1.0), mech.geometric_channel(10, 0.5), mech.rappor_channel(10, 1.0)):
        errs = []
        for n in ns:
            C = np.stack(
                [it_channels.simulate_counts_batch(M, rng.multinomial(n, theta), 1, rng=rng)[0] for _ in range(20)]
            )
            errs.append(np.abs(it.ibu_rows(M, C, tol=1e-12, max_iter=20_000).estimate - theta).sum(1).mean())
        assert np.all(np.diff(errs) < 0)
        assert -0.65 <= it_ibu.loglog_slope(ns, errs) <= -0.35


@pytest.mark.slow
def test_T19_inv_bounds_vs_exact_k100():
    rng = np.random.default_rng(111)
    for th in [np.full(100, 0.01), *rng.dirichlet(np.ones(100), 3)]:
        assert it.inv_expected_sq_error(mech.grr_channel(100, 2.0), th, 1) <= it_ibu.inv_krr_upper_bound(100, 2.0, 1)
        assert it.inv_expected_sq_error(mech.geometric_channel(100, 0.05), th, 1) >= 4.6e5
