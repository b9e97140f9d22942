"""Tests for ldpnb.mechanisms.rate_distortion (Biswas and Palamidessi 2023, PRIVIC: Sec. 2.4-5)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpnb import estimators as rd_estimators
from ldpnb import mechanisms as rd
from ldpnb.estimators import ibu
from ldpnb.measures import entropy, mutual_information
from ldpnb.papers import privic as rd_privic


def brute_tight_eps(C, D):
    """Independent oracle: max over x != x', y of (ln C_xy - ln C_x'y) / d(x, x')."""
    L = np.log(C)
    m = C.shape[0]
    best = 0.0
    for x in range(m):
        for xp in range(m):
            if x != xp:
                best = max(best, np.max(L[x] - L[xp]) / D[x, xp])
    return best


def line(n):
    x = np.arange(float(n))
    return np.abs(np.subtract.outer(x, x))


def points2d(rng, n):
    P = rng.uniform(0, 5, size=(n, 2))
    return np.hypot(P[:, None, 0] - P[None, :, 0], P[:, None, 1] - P[None, :, 1])


def lattice(rows, cols):
    r, c = np.divmod(np.arange(rows * cols), cols)
    return np.hypot(r[:, None] - r[None, :], c[:, None] - c[None, :])


def naive_ba(pi, D, beta, n_iter):
    """Direct (non-log) transcription of eqs. (1)-(2) from the uniform channel."""
    m, n = D.shape
    C = np.full((m, n), 1.0 / n)
    K = np.exp(-beta * D)
    for _ in range(n_iter):
        c = pi @ C
        C = K * c[None, :]
        C /= C.sum(axis=1, keepdims=True)
    return C


# ----------------------------------------------------------------------------- BA basics
def test_ba_matches_direct_transcription():
    rng = np.random.default_rng(1)
    D = points2d(rng, 30)
    pi = rng.dirichlet(np.ones(30))
    for beta in (0.2, 1.0, 3.0):
        res = rd.blahut_arimoto(pi, D, beta, n_iter=10)
        assert res.n_iter == 10
        np.testing.assert_allclose(res.channel, naive_ba(pi, D, beta, 10), atol=1e-13, rtol=0)
        np.testing.assert_allclose(res.channel.sum(axis=1), 1.0, atol=1e-13)
        np.testing.assert_allclose(res.output_marginal, pi @ res.channel, atol=1e-13)


def test_ba_prior_scale_invariant():
    rng = np.random.default_rng(2)
    D = line(8)
    w = rng.uniform(0, 3, 8)
    a = rd.blahut_arimoto(w, D, 0.7, n_iter=7).channel
    b = rd.blahut_arimoto(w / w.sum(), D, 0.7, n_iter=7).channel
    np.testing.assert_allclose(a, b, atol=1e-14)


def test_ba_history_and_lagrangian_nonincreasing():
    """T-D (second part): I + beta AvgD is non-increasing along BA (Csiszar 1974)."""
    rng = np.random.default_rng(3)
    for _ in range(10):
        D = points2d(rng, 20)
        pi = rng.dirichlet(np.ones(20))
        beta = rng.uniform(0.1, 3)
        res = rd.blahut_arimoto(pi, D, beta, n_iter=60, history=True)
        h = res.history
        assert all(len(h[k]) == 60 for k in h)
        assert np.all(np.diff(h["lagrangian"]) <= 1e-12)
        np.testing.assert_allclose(h["mi"][-1], mutual_information(pi, res.channel, unit="nats"), atol=1e-12)
        np.testing.assert_allclose(h["distortion"][-1], rd.average_distortion(pi, res.channel, D), atol=1e-12)


def test_ba_tol_mode_converges_and_is_fixpoint():
    """T-D: the converged BA channel is a fixpoint of F o G and c of G o F."""
    rng = np.random.default_rng(4)
    D = line(10)
    pi = rng.dirichlet(np.ones(10))
    K = rd.exponential_kernel(D, 1.0)
    res = rd.blahut_arimoto(pi, D, 1.0, n_iter=None, tol=1e-13, max_iter=200_000)
    assert res.converged
    C, c = res.channel, res.output_marginal
    assert np.max(np.abs(C - rd.ba_F(rd.ba_G(C, pi), K))) < 1e-10
    assert np.max(np.abs(c - rd.ba_G(rd.ba_F(c, K), pi))) < 1e-10


def test_elastic_form_thm_3_1():
    """Thm 3.1 (T-F): P[y|x] = q(y) e^{-beta d(x,y)} / sum_z q(z) e^{-beta d(x,z)}, q = pi C."""
    rng = np.random.default_rng(5)
    for _ in range(5):
        D = points2d(rng, 15)
        pi = rng.dirichlet(np.ones(15))
        beta = rng.uniform(0.3, 2)
        res = rd.blahut_arimoto(pi, D, beta, n_iter=None, tol=1e-13, max_iter=500_000)
        q = pi @ res.channel
        elastic = q[None, :] * np.exp(-beta * D)
        elastic /= elastic.sum(axis=1, keepdims=True)
        assert np.max(np.abs(res.channel - elastic)) < 1e-10


def test_ba_validation():
    D = line(4)
    with pytest.raises(ValueError):
        rd.blahut_arimoto(np.ones(3), D, 1.0)
    with pytest.raises(ValueError):
        rd.blahut_arimoto(np.ones(4), D, 0.0)
    with pytest.raises(ValueError):
        rd.blahut_arimoto(np.ones(4), D, 1.0, n_iter=0)
    with pytest.raises(ValueError):
        rd.blahut_arimoto(np.ones(4), D, 1.0, n_iter=None)
    with pytest.raises(ValueError):
        rd.blahut_arimoto(np.ones(4), D, 1.0, n_iter=5, tol=1e-3)
    with pytest.raises(ValueError):
        rd.blahut_arimoto(-np.ones(4), D, 1.0)
    with pytest.raises(ValueError):
        rd.blahut_arimoto(np.ones(4), D, 1.0, c0=np.array([1, 0, 0, 0.0]))


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 12), st.floats(0.01, 8.0), st.integers(1, 30), st.integers(0, 2**31 - 1))
def test_ba_rows_stochastic_and_2beta_geo_ind_property(n, beta, n_iter, seed):
    """T-C (Remark 4): every BA iterate is 2 beta-geo-indistinguishable."""
    rng = np.random.default_rng(seed)
    D = points2d(rng, n)
    D[D == 0] = 0.0
    if np.any(D + np.eye(n) == 0):
        return
    pi = rng.dirichlet(np.ones(n))
    res = rd.blahut_arimoto(pi, D, beta, n_iter=n_iter)
    np.testing.assert_allclose(res.channel.sum(axis=1), 1.0, atol=1e-12)
    L = res.log_channel
    ratio = (L[:, None, :] - L[None, :, :]).max(axis=2)
    off = ~np.eye(n, dtype=bool)
    assert np.all(ratio[off] <= 2 * beta * D[off] + 1e-9)


def test_F_is_2beta_geo_ind_for_any_c():
    """T-C: eps*(F(c)) <= 2 beta for random positive c (random points and the Paris grid)."""
    rng = np.random.default_rng(6)
    for D in (points2d(rng, 25), lattice(11, 15)):
        for beta in (0.1, 0.5, 1.0, 3.0):
            c = rng.uniform(0.01, 1, D.shape[1])
            C = rd.ba_F(c, rd.exponential_kernel(D, beta))
            if D.shape[0] <= 30:
                eps = brute_tight_eps(C, D)
            else:
                L = np.log(C)
                eps = 0.0
                for x in range(D.shape[0]):
                    R = np.max(L[x][None, :] - L, axis=1)
                    mask = D[x] > 0
                    eps = max(eps, np.max(R[mask] / D[x][mask]))
            assert eps <= 2 * beta + 1e-9


# ----------------------------------------------------------------------------- MI (T-B)
def test_mi_identity_and_edges():
    rng = np.random.default_rng(7)
    for _ in range(20):
        m, n = rng.integers(2, 9, size=2)
        pi = rng.dirichlet(np.ones(m))
        C = rng.dirichlet(np.ones(n), size=m)
        mi = rd.mutual_information_nats(pi, C)
        q = pi @ C
        post = pi[:, None] * C / q[None, :]
        h_cond = -np.sum(q[None, :] * post * np.log(post))
        assert abs(mi - (entropy(pi, unit="nats") - h_cond)) < 1e-12
        assert abs(mi - mutual_information(pi, C, unit="nats")) < 1e-12
    pi = rng.dirichlet(np.ones(5))
    assert abs(rd.mutual_information_nats(pi, np.full((5, 3), 1 / 3))) < 1e-15
    assert abs(rd.mutual_information_nats(pi, np.eye(5)) - entropy(pi, unit="nats")) < 1e-12


# ----------------------------------------------------------------------------- RD (T-E)
def test_rd_closed_form_and_slope():
    """T-E: R = -beta AvgD - sum pi log Z at the fixpoint; dR/dD = -beta (10 collinear points)."""
    rng = np.random.default_rng(0)
    D = line(10)
    p = rng.dirichlet(np.ones(10))
    for beta in (0.5, 1.0, 2.0):
        R, Dbar, res = rd.rd_point(p, D, beta)
        assert abs(R - rd.rd_closed_form(p, D, beta, res.output_marginal)) < 1e-10
        h = 1e-3
        Rp, Dp, _ = rd.rd_point(p, D, beta + h)
        Rm, Dm, _ = rd.rd_point(p, D, beta - h)
        assert abs((Rp - Rm) / (Dp - Dm) + beta) < 1e-4


def test_rd_dominates_other_channels():
    """T-E: no channel with AvgD <= D(beta) has lower MI than BA's R(beta) (random search)."""
    rng = np.random.default_rng(8)
    D = line(5)
    p = rng.dirichlet(np.ones(5))
    R, Dbar, _ = rd.rd_point(p, D, 1.0)
    for _ in range(2000):
        eps = rng.uniform(0.1, 5)
        C = np.exp(-eps * D) * rng.uniform(0.5, 1.5, (5, 5))
        C /= C.sum(axis=1, keepdims=True)
        if rd.average_distortion(p, C, D) <= Dbar:
            assert rd.mutual_information_nats(p, C) >= R - 1e-9


# ----------------------------------------------------------------------------- duality (T-G)
def test_duality_identity():
    rng = np.random.default_rng(9)
    for _ in range(5):
        D = points2d(rng, 20)
        pi = rng.dirichlet(np.ones(20))
        c0 = rng.dirichlet(np.ones(20))
        assert rd_privic.ba_ibu_duality_gap(pi, D, rng.uniform(0.2, 3), c0, 50) < 1e-13


def test_duality_normalised_kernel_needs_constant_column_sums():
    rng = np.random.default_rng(10)
    pi = rng.dirichlet(np.ones(12))
    # bounded line: column sums of K vary -> the row-normalised dual is not BA
    assert rd_privic.ba_ibu_duality_gap(pi, line(12), 1.0, None, 50, normalised_kernel=True) > 1e-3
    # cycle graph: column sums constant -> identity holds
    k = np.arange(12)
    Dc = np.minimum(np.abs(k[:, None] - k[None, :]), 12 - np.abs(k[:, None] - k[None, :])).astype(float)
    assert rd_privic.ba_ibu_duality_gap(pi, Dc, 1.0, None, 50, normalised_kernel=True) < 1e-13


def test_ibu_step_matches_core_ibu():
    rng = np.random.default_rng(11)
    C = rng.dirichlet(np.ones(6), size=4)
    counts = rng.integers(0, 50, 6)
    th = rng.dirichlet(np.ones(4))
    one = rd_estimators.ibu_step(th, C, counts / counts.sum())
    np.testing.assert_allclose(one, ibu(C, counts, theta0=th, tol=0, max_iter=1).estimate, atol=1e-14)


# ----------------------------------------------------------------------------- Thm 5.1 (T-H)
def test_kernel_strictly_pd_on_paris_grid():
    D = lattice(11, 15)
    reference = {0.05: 0.0211, 0.1: 0.0422, 0.2: 0.0843, 0.5: 0.208, 1.0: 0.400, 2.0: 0.694, 5.0: 0.977}
    for beta, target in reference.items():
        lam = rd.kernel_min_eigenvalue(D, beta)
        assert lam > 0
        assert abs(lam - target) <= 0.0011 * max(1, target / 0.1)


def test_ba_iterates_factorise_and_are_invertible():
    rng = np.random.default_rng(12)
    D = points2d(rng, 25)
    pi = rng.dirichlet(np.ones(25))
    K = rd.exponential_kernel(D, 0.8)
    for t in range(1, 11):
        prev = rd.blahut_arimoto(pi, D, 0.8, n_iter=t - 1).output_marginal if t > 1 else np.full(25, 1 / 25)
        cur = rd.blahut_arimoto(pi, D, 0.8, n_iter=t).channel
        assert rd.ba_iterate_factorization_residual(cur, prev, K) < 1e-12
        assert np.all(prev > 0)
        assert np.linalg.matrix_rank(cur) == 25


def test_right_inverse_residual():
    rng = np.random.default_rng(13)
    D = points2d(rng, 10)
    Cs = [rd.blahut_arimoto(rng.dirichlet(np.ones(10)), D, b, n_iter=5).channel for b in (0.5, 1, 2)]
    assert rd_privic.right_inverse_residual(Cs) < 1e-9


# ----------------------------------------------------------------------------- Example 5.1 (T-K)
def test_example_5_1():
    D = line(3)
    pi = np.ones(3) / 3
    to_b = np.tile([0.0, 1.0, 0.0], (3, 1))
    assert abs(rd.average_distortion(pi, to_b, D) - 2 / 3) < 1e-15
    assert np.linalg.matrix_rank(to_b) == 1
    for th0 in (np.ones(3) / 3, np.array([0.2, 0.5, 0.3]), np.array([0.7, 0.1, 0.2])):
        est = ibu(to_b, np.array([0, 10, 0]), theta0=th0, tol=0, max_iter=50).estimate
        assert np.max(np.abs(est - th0)) < 1e-15
    # strictly feasible budget AvgD = 0.6: the converged BA channel is invertible (Example 5.1)
    res = rd.blahut_arimoto(pi, D, 0.7752079538591703, n_iter=None, tol=1e-14, max_iter=10**6)
    assert abs(rd.average_distortion(pi, res.channel, D) - 0.6) < 1e-8
    np.testing.assert_allclose(
        res.channel, [[0.185, 0.775, 0.039], [0.046, 0.908, 0.046], [0.039, 0.775, 0.185]], atol=6e-4
    )
    assert abs(np.linalg.svd(res.channel, compute_uv=False)[-1] - 0.092) < 1e-3


# ----------------------------------------------------------------------------- the BlahutArimoto object
from ldpnb.mechanisms.rate_distortion import BlahutArimoto  # noqa: E402


def test_blahut_arimoto_object_is_the_ba_channel_with_a_stated_tight_level():
    rng = np.random.default_rng(11)
    D = lattice(3, 4)
    p = rng.dirichlet(np.ones(12))
    m = BlahutArimoto(p, D, 0.8)
    res = rd.blahut_arimoto(p, D, 0.8, n_iter=10)
    assert isinstance(m, rd.ChannelMechanism) and rd.BlahutArimoto is BlahutArimoto and "BlahutArimoto" in rd.__all__
    np.testing.assert_array_equal(m.log_channel(), res.log_channel)
    np.testing.assert_allclose(m.channel(), res.channel, rtol=1e-12, atol=0)
    g = m.guarantee
    assert g.notion == "geo-ind"
    assert g.epsilon == pytest.approx(brute_tight_eps(m.channel(), D), rel=1e-12)
    assert g.epsilon <= m.geo_bound * (1 + 1e-12)  # Remark 4: F(c) is 2 beta-geo-ind
    assert m.check() and m.tight_level() == pytest.approx(g.epsilon, rel=1e-12)
    assert m.epsilon == g.epsilon
    ldp = BlahutArimoto(p, D, 0.8, notion="ldp").guarantee
    L = res.log_channel
    assert ldp.notion == "ldp" and ldp.epsilon == pytest.approx(np.max(L.max(0) - L.min(0)), rel=1e-12)
    assert m.distortion == pytest.approx(rd.average_distortion(p, res.channel, D), rel=1e-12)
    assert m.mutual_information == pytest.approx(rd.mutual_information_nats(p, res.channel), rel=1e-9)
    assert repr(m) == "BlahutArimoto(shape=(12, 12), beta=0.8, n_iter=10)"


def test_blahut_arimoto_object_at_matched_distortion():
    rng = np.random.default_rng(12)
    D = points2d(rng, 10)
    p = rng.dirichlet(np.ones(10))
    for beta in (0.3, 1.0, 4.0):
        target = BlahutArimoto(p, D, beta).distortion
        m = BlahutArimoto(p, D, distortion=target)
        assert m.beta == pytest.approx(beta, rel=1e-8)
        assert m.distortion == pytest.approx(target, rel=1e-9)
    conv = BlahutArimoto(p, D, distortion=0.5, n_iter=None, tol=1e-10)
    assert conv.distortion == pytest.approx(0.5, rel=1e-9) and conv.result.converged


def test_blahut_arimoto_object_sampler_follows_its_channel():
    """χ² of reports against the channel rows, false-alarm rate 1e-6 per row."""
    from scipy.stats import chi2

    rng = np.random.default_rng(13)
    D = lattice(3, 3)
    m = BlahutArimoto(rng.dirichlet(np.ones(9)), D, 0.5)
    C = m.channel()
    n = 20_000
    for x in (0, 4, 8):
        obs = np.bincount(m.perturb(np.full(n, x), rng=rng), minlength=9)
        stat = float(np.sum((obs - n * C[x]) ** 2 / (n * C[x])))
        assert stat < chi2.isf(1e-6, 8), (x, stat)
    sim = m.simulate_counts(np.full(9, 1000), rng=rng)
    assert sim.sum() == 9000 and sim.shape == (9,)


def test_blahut_arimoto_object_refuses_bad_arguments():
    D = lattice(2, 2)
    p = np.full(4, 0.25)
    with pytest.raises(ValueError, match="exactly one of beta and distortion"):
        BlahutArimoto(p, D)
    with pytest.raises(ValueError, match="exactly one of beta and distortion"):
        BlahutArimoto(p, D, 1.0, distortion=0.5)
    with pytest.raises(ValueError, match="square distance"):
        BlahutArimoto(p, D[:, :3], 1.0, notion="geo-ind")
    with pytest.raises(ValueError, match="outside what BA reaches"):
        BlahutArimoto(p, D, distortion=50.0)
    with pytest.raises((ValueError, TypeError)):
        BlahutArimoto(p, D, -1.0)
    assert BlahutArimoto(p, D[:, :3], 1.0).guarantee.notion == "ldp"


def test_ba_log_channel_formed_on_access_and_kept():
    """The log channel is formed on first access (not on every call), then kept; it is log C where C is
    representable and finite where C underflowed (filled from it)."""
    import numpy as np

    from ldpnb.mechanisms import rate_distortion as rd

    x = np.arange(12.0)
    D = np.abs(x[:, None] - x[None, :])
    p = np.random.default_rng(1).dirichlet(np.ones(12))
    res = rd.blahut_arimoto(p, D, 1.5, n_iter=10)
    assert callable(res._log_channel)
    L = res.log_channel
    assert isinstance(L, np.ndarray) and res.log_channel is L
    assert np.allclose(L, np.log(res.channel), rtol=0, atol=1e-12)
    D2 = D.copy()
    res2 = rd.blahut_arimoto(p, D2, 1.5, n_iter=10)
    D2 *= 7.0  # the caller changes its distances before reading the log channel: no effect on the result
    assert np.array_equal(res2.log_channel, L) and np.array_equal(res2.channel, res.channel)
    far = rd.blahut_arimoto(p, D * 80.0, 1.5, n_iter=10)  # e^{-1320} underflows: C filled from log C
    assert np.all(np.isfinite(far.log_channel))
    assert np.any(far.channel == 0) or np.any(far.channel < 1e-300)
    normal = far.channel > 1e-300  # subnormal entries keep few significant bits
    assert np.allclose(far.log_channel[normal], np.log(far.channel[normal]), rtol=1e-12, atol=1e-9)


def test_kernels_of_a_channel_refuse_rows_not_summing_to_one():
    """Audit: average_distortion(P3, 1.25 * grr_channel(3, 1), D3) returned 0.715 (contract said
    NonnegativeMatrix); so did ba_G, ba_iterate_factorization_residual and simulate_counts_batch."""
    import ldpnb.mechanisms as M
    from ldpnb.channels import simulate_counts_batch

    C = 1.25 * M.grr_channel(3, 1.0)
    P3 = np.array([0.5, 0.3, 0.2])
    D3 = np.abs(np.subtract.outer(np.arange(3.0), np.arange(3.0)))
    for call in (
        lambda: M.average_distortion(P3, C, D3),
        lambda: M.ba_G(C, P3),
        lambda: M.ba_iterate_factorization_residual(C, P3, np.exp(-D3)),
        lambda: simulate_counts_batch(C, [5, 5, 5], 2, rng=0),
    ):
        with pytest.raises(ValueError, match="channel must be"):
            call()
