"""Unit tests of the IBU chapter's theory (ElSalamouny and Palamidessi, arXiv 2508.09980, claims T0-T24).

Claims that need the shared mechanism builders (T4-T7, T13, T25) and the longer statistical
checks live in tests/test_ibu_claims.py.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize

from ldpnb import channels as it_channels
from ldpnb import estimators as est
from ldpnb import estimators as it
from ldpnb import measures as it_measures
from ldpnb import mechanisms as it_mechanisms
from ldpnb.papers import ibu as it_ibu

M4 = np.array([[0.10, 0.45, 0.45], [0.45, 0.10, 0.45], [0.45, 0.45, 0.10]])
M12 = np.array([[0.45, 0.10, 0.45], [0.05, 0.90, 0.05], [0.45, 0.10, 0.45]])


def krr(k, eps):
    e = np.exp(eps)
    return (np.full((k, k), 1.0) + (e - 1) * np.eye(k)) / (k - 1 + e)


def tgeo(k, eps):
    a = np.exp(-eps)
    c = np.full(k, (1 - a) / (1 + a))
    c[[0, -1]] = 1 / (1 + a)
    x = np.arange(k)
    return c[None, :] * a ** np.abs(x[:, None] - x[None, :])


# ------------------------------------------------------------------------------------ T0


def test_T0_ibu_monotone_and_kkt_random():
    rng = np.random.default_rng(0)
    for _ in range(20):
        k, m = rng.integers(2, 8), rng.integers(2, 15)
        M = rng.random((k, m)) + 0.01
        M /= M.sum(1, keepdims=True)
        c = rng.integers(0, 50, m)
        c[0] += 1
        res = est.ibu(M, c, tol=0, max_iter=20000)
        assert np.all(np.diff(res.trace) >= -1e-13)  # (a) EM monotonicity
        assert it.kkt_residual(res.estimate, M, c) < 1e-4  # (b) KKT at the limit


def test_T0_ibu_beats_generic_solver():
    rng = np.random.default_rng(1)
    for _ in range(5):
        k, m = 4, 7
        M = rng.random((k, m)) + 0.05
        M /= M.sum(1, keepdims=True)
        c = rng.integers(1, 30, m)
        q = c / c.sum()
        res = est.ibu(M, c, tol=0, max_iter=20000)
        f = lambda t: -np.dot(q, np.log(np.clip(t @ M, 1e-300, None)))  # noqa: E731
        sol = minimize(
            f,
            np.full(k, 1 / k),
            method="SLSQP",
            bounds=[(0, 1)] * k,
            constraints=[{"type": "eq", "fun": lambda t: t.sum() - 1}],
            options={"ftol": 1e-14},
        )
        assert est.log_likelihood(res.estimate, M, c) >= -sol.fun - 1e-7


def test_ibu_rows_matches_core_ibu():
    rng = np.random.default_rng(2)
    M = rng.random((6, 9)) + 0.01
    M /= M.sum(1, keepdims=True)
    C = rng.integers(0, 40, (5, 9))
    C[:, 0] += 1
    rows = it.ibu_rows(M, C, tol=1e-9, max_iter=5000)
    for r in range(5):
        ref = est.ibu(M, C[r], tol=1e-9, max_iter=5000)
        np.testing.assert_allclose(rows.estimate[r], ref.estimate, atol=1e-12)
        assert rows.n_iter[r] == ref.n_iter
        assert rows.loglik[r] == pytest.approx(ref.trace[-1], abs=1e-12) == pytest.approx(ref.loglik, abs=1e-12)
    np.testing.assert_allclose(rows.estimate, est.ibu_batch(M, C, tol=1e-9, max_iter=5000), atol=1e-12)


def test_ibu_rows_validation():
    with pytest.raises(ValueError):
        it.ibu_rows(M4, [0, 0, 0])
    with pytest.raises(ValueError):
        it.ibu_rows(M4, [1, 1, 1], theta0=[0.5, 0.5, 0.0])
    with pytest.raises(ValueError):
        it.ibu_rows(-M4, [1, 1, 1])
    with pytest.raises(ValueError):
        it.kkt_residual([1 / 3] * 3, M4, [1, 1])


def test_kkt_residual_detects_non_mle():
    assert it.kkt_residual(np.full(3, 1 / 3), M4, [1, 1, 0]) > 0.1


# ------------------------------------------------------------------------------------ T1, T2


def test_T1_concavity_strict_on_random_positive_G():
    rng = np.random.default_rng(3)
    for _ in range(200):
        G = rng.random((5, 12)) + 1e-3
        th, ph = rng.dirichlet(np.ones(5), 2)
        g = rng.uniform(0.05, 0.95)
        gap = it.loglik_observations(g * th + (1 - g) * ph, G) - (
            g * it.loglik_observations(th, G) + (1 - g) * it.loglik_observations(ph, G)
        )
        assert gap > 1e-12


def test_T1_equality_when_difference_in_null_space():
    G = it.observation_matrix(M4, np.array([1]))
    th, ph = np.array([1.0, 0, 0]), np.array([0, 0, 1.0])
    for g in (0.1, 0.5, 0.9):
        lhs = it.loglik_observations(g * th + (1 - g) * ph, G)
        rhs = g * it.loglik_observations(th, G) + (1 - g) * it.loglik_observations(ph, G)
        assert lhs == pytest.approx(rhs, abs=1e-12)


def test_T2_strict_concavity_test_agrees_with_midpoint_search():
    rng = np.random.default_rng(4)
    n_nonstrict = 0
    for _ in range(300):
        k = int(rng.integers(2, 6))
        n = int(rng.integers(1, 7))
        G = rng.random((k, n))
        if rng.random() < 0.5:  # make some rows collinear to create degenerate cases
            G[-1] = G[0]
        strict = it.is_strictly_concave(G)
        w = it.concavity_null_direction(G)
        assert (w is None) == strict
        c = np.full(k, 1 / k)
        if not strict:
            n_nonstrict += 1
            assert abs(w.sum()) < 1e-10 and np.abs(w @ G).max() < 1e-10
            t = 0.5 / (k * np.abs(w).max())
            th, ph = c + t * w, c - t * w
            mid = it.loglik_observations(c, G)
            avg = 0.5 * (it.loglik_observations(th, G) + it.loglik_observations(ph, G))
            assert mid == pytest.approx(avg, abs=1e-10)
        else:  # strict: random pairs give a positive midpoint gap
            th, ph = rng.dirichlet(np.ones(k), 2)
            gap = it.loglik_observations((th + ph) / 2, G) - 0.5 * (
                it.loglik_observations(th, G) + it.loglik_observations(ph, G)
            )
            assert gap > 0
    assert n_nonstrict > 20


# ------------------------------------------------------------------------------------ T3, T11


def test_T3_mechanism_4_observation_2():
    G = it.observation_matrix(M4, np.array([1]))
    assert not it.is_strictly_concave(G)
    assert it.loglik_observations([0.5, 0, 0.5], G) == pytest.approx(np.log(0.45), abs=1e-12)
    assert np.log(0.45) == pytest.approx(-0.798508, abs=1e-6)
    assert it.loglik_observations(np.full(3, 1 / 3), G) == pytest.approx(-1.098612, abs=1e-6)
    assert it.loglik_observations([0, 1, 0], G) == pytest.approx(-2.302585, abs=1e-6)
    r1 = it.ibu_rows(M4, [0, 1, 0], tol=0, max_iter=5000)
    r2 = it.ibu_rows(M4, [0, 1, 0], theta0=[0.6, 0.3, 0.1], tol=0, max_iter=5000)
    np.testing.assert_allclose(r1.estimate, [0.5, 0, 0.5], atol=1e-4)
    np.testing.assert_allclose(r2.estimate, [6 / 7, 0, 1 / 7], atol=1e-4)
    np.testing.assert_allclose(r2.estimate, [0.857143, 0, 0.142857], atol=1e-5)


def test_T3_mechanism_4_observations_2_1():
    G = it.observation_matrix(M4, np.array([1, 0]))
    assert it.is_strictly_concave(G)
    A = np.hstack([G, np.ones((3, 1))])
    assert np.linalg.det(A) == pytest.approx(-0.1225, abs=1e-12)
    assert it.loglik_observations([0, 0, 1], G) == pytest.approx(-1.597015, abs=1e-6)
    assert it.loglik_observations(np.full(3, 1 / 3), G) == pytest.approx(-2.197225, abs=1e-6)
    assert it.loglik_observations([1, 0, 0], G) == pytest.approx(-3.101093, abs=1e-6)
    assert it.loglik_observations([0, 1, 0], G) == pytest.approx(-3.101093, abs=1e-6)
    rng = np.random.default_rng(5)
    for t0 in [np.full(3, 1 / 3), *rng.dirichlet(np.ones(3), 4)]:  # T10: any start, same MLE
        r = it.ibu_rows(M4, [1, 1, 0], theta0=t0, tol=0, max_iter=5000)
        np.testing.assert_allclose(r.estimate, [0, 0, 1], atol=1e-4)


def test_T11_mechanism_12():
    assert not it.is_identifiable(M12)
    assert it.is_identifiable(M4)
    Ga = it.observation_matrix(M12, np.array([1, 1, 1, 1]))
    assert not it.is_strictly_concave(Ga)
    assert it.loglik_observations([0, 1, 0], Ga) == pytest.approx(-0.421442, abs=1e-6)
    assert it.loglik_observations([1, 0, 0], Ga) == pytest.approx(4 * np.log(0.1), abs=1e-12)
    assert it.loglik_observations([0.3, 0, 0.7], Ga) == pytest.approx(-9.2103, abs=1e-4)
    assert it.loglik_observations(np.full(3, 1 / 3), Ga) == pytest.approx(-4.013208, abs=1e-6)
    ra = it.ibu_rows(M12, [0, 4, 0], tol=0, max_iter=5000)
    np.testing.assert_allclose(ra.estimate, [0, 1, 0], atol=1e-4)
    Gb = it.observation_matrix(M12, np.array([1, 1, 1, 1, 0, 2]))
    assert not it.is_strictly_concave(Gb)
    assert it.loglik_observations([7 / 48, 17 / 24, 7 / 48], Gb) == pytest.approx(-5.205379, abs=1e-6)
    assert it.loglik_observations(np.full(3, 1 / 3), Gb) == pytest.approx(-6.313020, abs=1e-6)
    assert 0.56 / 1.92 == pytest.approx(7 / 24)
    r1 = it.ibu_rows(M12, [1, 4, 1], tol=0, max_iter=5000)
    r2 = it.ibu_rows(M12, [1, 4, 1], theta0=[0.6, 0.3, 0.1], tol=0, max_iter=5000)
    np.testing.assert_allclose(r1.estimate, [0.145833, 0.708333, 0.145833], atol=1e-5)
    np.testing.assert_allclose(r2.estimate, [0.25, 0.708333, 0.041667], atol=1e-5)
    assert 6 * r1.loglik == pytest.approx(-5.205379, abs=1e-5)


def test_loglik_surface_shape_and_max():
    t1, t3, L = it_ibu.loglik_surface(M4, [1, 0], resolution=101)
    assert L.shape == (101, 101)
    assert np.isnan(L[-1, -1])
    assert np.nanmax(L) == pytest.approx(2 * np.log(0.45), abs=1e-9)


# ------------------------------------------------------------------------------------ T8, T9


def test_T8_gf2_rank_fixture_and_lemma():
    B = np.array([[1, 1, 0], [0, 1, 1], [1, 0, 1]])
    assert it_ibu.gf2_rank(B) == 2 and np.linalg.matrix_rank(B) == 3
    assert it_ibu.gf2_rank(np.eye(4, dtype=int)) == 4
    assert it_ibu.gf2_rank(np.zeros((3, 5), dtype=int)) == 0
    rng = np.random.default_rng(6)
    n_full = 0
    for dens in (0.1, 0.3, 0.5, 0.8):
        Bs = (rng.random((2500, 5, 8)) < dens).astype(int)
        r2 = it_ibu.gf2_rank_batch(Bs)
        rr = np.linalg.matrix_rank(Bs.astype(float))
        assert np.all(r2 <= rr)  # Lemma 4.5 (full GF(2) rank => full real rank), and more
        n_full += int((r2 == 5).sum())
    assert n_full > 1000
    with pytest.raises(ValueError):
        it_ibu.gf2_rank([[0, 2]])


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(1, 9), st.integers(0, 2**32 - 1))
def test_gf2_rank_matches_bruteforce_span(a, b, seed):
    B = (np.random.default_rng(seed).random((a, b)) < 0.5).astype(int)
    # span size over GF(2) = 2^rank: enumerate all combinations of rows
    combos = np.array(np.meshgrid(*[[0, 1]] * a, indexing="ij")).reshape(a, -1).T
    span = {tuple(v) for v in (combos @ B) % 2}
    assert len(span) == 2 ** it_ibu.gf2_rank(B)


T9_TABLE = {
    0.5: [0.8295, 0.9899, 0.9994, 1.0000, 1, 1, 1, 1, 1],
    1: [0.3712, 0.9240, 0.9927, 0.9993, 1.0000, 1, 1, 1, 1],
    2: [0, 0.0080, 0.6457, 0.9176, 0.9963, 0.9998, 1, 1, 1],
    3: [0, 0, 0, 0, 0.7091, 0.9573, 0.9997, 1, 1],
    4: [0, 0, 0, 0, 0, 0.0347, 0.9268, 0.9969, 1.0000],
    5: [0, 0, 0, 0, 0, 0, 0, 0.6629, 0.9926],
}
T9_N = [15, 20, 25, 30, 40, 50, 75, 100, 150]


def test_T9_bound_table():
    for eps, row in T9_TABLE.items():
        got = it_ibu.rappor_concavity_lower_bound(10, T9_N, eps)
        np.testing.assert_allclose(got, row, atol=1e-4)
    assert it_ibu.rappor_concavity_lower_bound(10, 25, 1.0) >= 0.99
    first = {0.5: 21, 1: 25, 2: 37, 3: 58, 4: 91, 5: 147}
    ns = np.arange(1, 400)
    for eps, n0 in first.items():
        b = it_ibu.rappor_concavity_lower_bound(10, ns, eps)
        assert ns[np.argmax(b >= 0.99)] == n0
    assert it_ibu.rappor_concavity_lower_bound(10, 9, 0.5) == 0.0


def test_T9_monte_carlo_above_bound_and_nested():
    for eps, n in [(1.0, 15), (0.5, 12), (2.0, 25)]:
        f = it_ibu.rappor_concavity_frequencies(10, n, eps, 2000, rng=7)
        assert f["nested_violations"] == 0
        assert f["gf2"] <= f["real"] <= f["concave"]
        assert f["concave"] >= f["bound"] - 3 * f["concave_se"]


def test_rappor_bits_likelihood_equals_product_of_bits():
    rng = np.random.default_rng(8)
    for k in (2, 5, 10):
        for eps in (0.1, 1.0, 3.0):
            B = rng.integers(0, 2, (7, k))
            G = it_ibu.rappor_bits_likelihood(B, eps)
            p = np.exp(eps / 2) / (1 + np.exp(eps / 2))
            onehot = np.eye(k)
            prod = np.prod(np.where(onehot[:, None, :] == B[None, :, :], p, 1 - p), axis=2)
            np.testing.assert_allclose(G, prod, rtol=1e-12)


# ------------------------------------------------------------------------------------ T15


def test_T15_dominance_bounds():
    rng = np.random.default_rng(9)
    for _ in range(20):
        X = np.sort(rng.choice(np.arange(-10, 30), size=rng.integers(1, 8), replace=False))
        a, b = X.min(), X.max()
        eps = rng.uniform(0.05, 2)
        z = np.arange(a - 200, b + 201)
        M = it_mechanisms.untruncated_geometric_matrix(X, z, eps)
        lo, hi = it_ibu.geometric_dominance_bounds(z, a, b, eps)
        for phi in rng.dirichlet(np.ones(X.size), 5):
            P = phi @ M
            assert np.all(P >= lo * (1 - 1e-12)) and np.all(P <= hi * (1 + 1e-12))


def test_untruncated_geometric_sampler_matches_pmf():
    from scipy.stats import chisquare

    eps = 0.4
    z = it_mechanisms.untruncated_geometric_perturb(np.full(200_000, 3), eps, rng=10) - 3
    zs = np.arange(-15, 16)
    p = it_mechanisms.untruncated_geometric_matrix(np.array([0]), zs, eps)[0]
    obs = np.array([(z == v).sum() for v in zs] + [(np.abs(z) > 15).sum()])
    exp = np.append(p, 1 - p.sum()) * z.size
    assert chisquare(obs, exp).pvalue > 1e-6
    with pytest.raises(ValueError):
        it_mechanisms.untruncated_geometric_perturb(np.array([0.5]), eps)


def test_T5_untruncated_geometric_strictly_concave_when_all_observed():
    rng = np.random.default_rng(11)
    for _ in range(30):
        X = np.sort(rng.choice(np.arange(-20, 40), size=rng.integers(2, 10), replace=False))
        extra = rng.integers(-30, 50, size=rng.integers(0, 10))
        z = np.concatenate([X, extra])
        G = it_mechanisms.untruncated_geometric_matrix(X, z, rng.uniform(0.05, 1.5))
        assert it.is_strictly_concave(G)


# ------------------------------------------------------------------------------------ T17, T18


def test_T17_krr_closed_form_and_bound():
    rng = np.random.default_rng(12)
    for k in (2, 3, 10, 50, 100, 200):
        for eps in (0.1, 0.5, 1, 2, 4, 6):
            th = rng.dirichlet(np.ones(k))
            exact = it_ibu.inv_krr_exact_sq_error(k, eps, th, 1)
            assert exact == pytest.approx(it.inv_expected_sq_error(krr(k, eps), th, 1), rel=1e-9)
            assert exact <= it_ibu.inv_krr_upper_bound(k, eps, 1)
    assert it_ibu.inv_krr_upper_bound(100, 2, 1) == pytest.approx(277.28, abs=0.01)
    assert it_ibu.inv_krr_exact_sq_error(100, 2, np.full(100, 0.01), 1) == pytest.approx(274.508, abs=1e-3)


def test_T17_monte_carlo():
    k, n = 10, 1000
    M = krr(k, 1.0)
    N = np.random.default_rng(13).multinomial(n, np.full(k, 0.1))
    mc, se = it.inv_sq_error_monte_carlo(M, N, 4000, rng=14)
    exact = it.inv_expected_sq_error(M, N / n, n)
    assert abs(mc - exact) <= 0.05 * exact


def test_T18_closed_form_inverse_and_bound():
    for k in (2, 5, 100):
        for eps in (0.01, 0.05, 0.3, 2.0):
            np.testing.assert_allclose(it_ibu.truncated_geometric_inverse(k, eps) @ tgeo(k, eps), np.eye(k), atol=1e-7)
    assert it_ibu.inv_geometric_lower_bound(0.05, 1) == pytest.approx(7818.55, abs=0.01)
    a, b = 0.95, 20.0  # the paper's rounding reproduces its printed 7238
    assert b**3 - 2 * a * b**2 - 2 == pytest.approx(7238)
    rng = np.random.default_rng(15)
    for eps in (0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.69):
        M = tgeo(100, eps)
        bound = it_ibu.inv_geometric_lower_bound(eps, 1)
        thetas = [np.eye(100)[i] for i in (0, 17, 50, 99)] + [np.full(100, 0.01)] + list(rng.dirichlet(np.ones(100), 3))
        for th in thetas:
            assert it.inv_expected_sq_error(M, th, 1) >= bound
    with pytest.raises(ValueError):
        it_ibu.inv_geometric_lower_bound(0.7, 1)


def test_T18_table_values():
    table = {0.05: (465_511, 760_717), 0.1: (28_747, 53_670), 0.3: (342.0, 741.5)}
    for eps, (pm, uni) in table.items():
        M = tgeo(100, eps)
        mins = min(it.inv_expected_sq_error(M, np.eye(100)[i], 1) for i in range(100))
        assert mins == pytest.approx(pm, rel=2e-3)
        assert it.inv_expected_sq_error(M, np.full(100, 0.01), 1) == pytest.approx(uni, rel=2e-3)


def test_T18_monte_carlo():
    k, n, eps = 20, 2000, 0.3
    M = tgeo(k, eps)
    N = np.random.default_rng(16).multinomial(n, np.random.default_rng(17).dirichlet(np.ones(k)))
    mc, se = it.inv_sq_error_monte_carlo(M, N, 4000, rng=18)
    exact = it.inv_expected_sq_error(M, N / n, n)
    assert abs(mc - exact) <= 0.05 * exact


# ------------------------------------------------------------------------------------ T20-T24


def test_T20_unlikely_element_vanishes_geometrically():
    rng = np.random.default_rng(19)
    M = rng.random((4, 6)) + 0.1
    M[3] = M[0]
    M[3, 2] = 0.8 * M[0, 2]  # x'=3 dominated by x=0 with a margin on column 2
    M /= M.sum(1, keepdims=True) * 0 + 1  # keep as is (IBU does not need stochastic rows)
    c = np.array([10, 10, 20, 10, 25, 25])
    assert it.unlikely_mask(M[:, c > 0])[3]
    res = it.ibu_rows(M, c, tol=0, max_iter=10_000)
    assert res.estimate[3] < 1e-6
    ratios = []
    th = np.full(4, 0.25)
    q = c / c.sum()
    for _ in range(50):
        th = th * (M @ (q / (th @ M)))
        ratios.append(th[3] / th[0])
    assert np.all(np.diff(ratios) < 0)


def test_unlikely_mask_definition():
    G = np.array([[0.5, 0.5], [0.5, 0.4], [0.5, 0.5], [0.6, 0.1]])
    np.testing.assert_array_equal(it.unlikely_mask(G), [False, True, False, False])


def test_T21_T22_linear_likely_subset_geometric():
    rng = np.random.default_rng(20)
    X = np.arange(-30, 131)
    x = rng.integers(20, 80, 40)
    z = it_mechanisms.untruncated_geometric_perturb(x, 0.1, rng=rng)
    mask = it.likely_subset_linear(X, z)
    assert X[mask].min() == z.min() and X[mask].max() == z.max()
    zu, cnt = np.unique(z, return_counts=True)
    G = it_mechanisms.untruncated_geometric_matrix(X, zu, 0.1)
    unl = it.unlikely_mask(G)
    assert np.all(unl[~mask])  # every element outside [x_min, x_max] is unlikely (Prop. 8.2)
    full = it.ibu_rows(G, cnt, tol=0, max_iter=20_000)
    sub = it.ibu_rows(G[mask], cnt, tol=0, max_iter=20_000)
    assert full.loglik == pytest.approx(sub.loglik, abs=1e-10)  # Thm 8.2
    assert full.estimate[~mask].sum() < 1e-40


def test_likely_subset_linear_non_lattice():
    X = np.array([0.0, 1.5, 3.0, 4.5, 6.0])
    m = it.likely_subset_linear(X, np.array([2.0, 3.2]))
    np.testing.assert_array_equal(m, [False, True, True, True, False])


def test_T23_delta_prime_and_planar_subset():
    assert it.planar_delta_prime(0.21, 8.25) == pytest.approx(1.873, abs=0.005)
    assert it.planar_delta_prime(0.3 / np.sqrt(2), 8.25) == pytest.approx(1.8833, abs=1e-3)
    rng = np.random.default_rng(21)
    h = 0.3
    true = rng.uniform(0, 2, (30, 2))
    eps = 2.0
    ang = rng.uniform(0, 2 * np.pi, 30)
    rad = rng.gamma(2, 1 / eps, 30)
    reps = true + np.c_[rad * np.cos(ang), rad * np.sin(ang)]
    g = np.arange(-40, 48) * h
    L = np.array(np.meshgrid(g, g)).reshape(2, -1).T
    mask, dp, dmax = it.likely_subset_planar(L, reps, h / np.sqrt(2))
    D = np.linalg.norm(L[:, None, :] - reps[None], axis=2)
    G = np.exp(-eps * D)  # planar Laplace density up to a constant (monotone in distance)
    out = np.flatnonzero(~mask)
    sample = rng.choice(out, 200, replace=False)
    unl = it.unlikely_mask(G)
    assert np.all(unl[sample])
    cnt = np.ones(len(reps))
    full = it.ibu_rows(G, cnt, tol=0, max_iter=5000)
    sub = it.ibu_rows(G[mask], cnt, tol=0, max_iter=5000)
    assert full.loglik == pytest.approx(sub.loglik, abs=1e-6)


def test_distance_to_convex_hull_cases():
    sq = np.array([[0, 0], [1, 0], [1, 1], [0, 1], [0.5, 0.5]])
    P = np.array([[0.5, 0.5], [2, 0.5], [2, 2], [-1, -1]])
    np.testing.assert_allclose(it.distance_to_convex_hull(P, sq), [0, 1, np.sqrt(2), np.sqrt(2)])
    seg = np.array([[0, 0], [2, 0], [1, 0]])
    np.testing.assert_allclose(it.distance_to_convex_hull(np.array([[1, 1], [3, 0]]), seg), [1, 1])
    pt = np.array([[1.0, 1.0]])
    np.testing.assert_allclose(it.distance_to_convex_hull(np.array([[4, 5]]), pt), [5])


def test_T24_krr_likely_subset():
    rng = np.random.default_rng(22)
    K, n, eps = 500, 300, 3.0  # smaller than in the chapter
    support = rng.choice(K, 15, replace=False)
    x = rng.choice(support, n)
    e = np.exp(eps)
    keep = rng.random(n) < e / (K - 1 + e)
    other = (x + rng.integers(1, K, n)) % K
    z = np.where(keep, x, other)
    zu, cnt = np.unique(z, return_counts=True)
    mask = it.likely_subset_krr(z, K)
    assert mask.sum() == zu.size
    # G over the distinct reports, for all K inputs (original K kept in the denominator)
    G = np.full((K, zu.size), 1.0 / (K - 1 + e))
    G[zu, np.arange(zu.size)] = e / (K - 1 + e)
    unl = it.unlikely_mask(G[:200])  # spot check on a slice: unreported values are dominated
    assert np.all(unl[~mask[:200]])
    full = it.ibu_rows(G, cnt, tol=0, max_iter=10_000)
    sub = it.ibu_rows(G[mask], cnt, tol=0, max_iter=10_000)
    assert abs(full.loglik - sub.loglik) < 1e-9
    assert full.estimate[~mask].sum() < 1e-50


# ------------------------------------------------------------------------------------ utilities


def test_row_postprocessing_matches_core():
    rng = np.random.default_rng(23)
    V = rng.normal(0.1, 0.3, (50, 7))
    V[0] = [0.2, 0.2, 0.2, 0.2, 0.2, 0, 0]  # feasible: identity
    V[1] = -np.abs(V[1])  # nothing positive: INV-N falls back to uniform
    P = it.project_simplex_rows(V)
    N = it.clip_normalize(V)
    for r in range(50):
        np.testing.assert_allclose(P[r], est.project_simplex(V[r]), atol=1e-12)
        np.testing.assert_allclose(N[r], est.normalize_clip(V[r]), atol=1e-12)
    np.testing.assert_allclose(P[0], V[0])
    np.testing.assert_allclose(N[1], np.full(7, 1 / 7))


def test_rappor_unbiased_is_unbiased():
    eps, k, n = 1.0, 6, 10_000
    th = np.random.default_rng(24).dirichlet(np.ones(k))
    p = np.exp(eps / 2) / (1 + np.exp(eps / 2))
    expected_counts = n * ((1 - p) + th * (2 * p - 1))
    np.testing.assert_allclose(it.rappor_unbiased(expected_counts, n, eps), th, atol=1e-12)


def test_simulate_counts_batch_law():
    from scipy.stats import chisquare

    M = krr(4, 1.0)
    N = np.array([100, 0, 300, 50])
    C = it_channels.simulate_counts_batch(M, N, 2000, rng=25)
    assert np.all(C.sum(1) == 450)
    exp = (N @ M) * 2000
    assert chisquare(C.sum(0), exp).pvalue > 1e-6


def test_clamp_grid_outputs_rank():
    rng = np.random.default_rng(26)
    M = rng.random((25, 25))
    M /= M.sum(1, keepdims=True)
    Mc = it_channels.clamp_grid_outputs(M, 5, 5, 4, 4)
    assert Mc.shape == (25, 16)
    np.testing.assert_allclose(Mc.sum(1), 1)
    assert not it.is_identifiable(Mc)


def test_emd_rows_and_slope():
    from ldpnb.measures import emd_1d

    rng = np.random.default_rng(27)
    P, Q = rng.dirichlet(np.ones(9), (2, 5))
    e = it_measures.emd_1d_rows(P, Q)
    for r in range(5):
        assert e[r] == pytest.approx(emd_1d(P[r], Q[r]), abs=1e-12)
    n = np.array([1e2, 1e3, 1e4])
    assert it_ibu.loglog_slope(n, 3 * n**-0.5) == pytest.approx(-0.5)


def test_ibu_path_matches_ibu_rows():
    path = it.ibu_path(M4, [1, 1, 0], np.array([0.2, 0.3, 0.5]), 50)
    assert path.shape == (51, 3)
    np.testing.assert_allclose(path.sum(1), 1, atol=1e-12)
    ref = it.ibu_rows(M4, [1, 1, 0], theta0=[0.2, 0.3, 0.5], tol=0, max_iter=50).estimate
    np.testing.assert_allclose(path[-1], ref, atol=1e-12)
    with pytest.raises(ValueError):
        it.ibu_path(M4, [1, 1, 0], np.array([0.5, 0.5, 0.0]), 5)


def test_ibu_rows_tol_zero_fast_path_equals_slow_path():
    rng = np.random.default_rng(28)
    M = rng.random((5, 8)) + 0.05
    C = rng.integers(0, 20, (3, 8))
    C[:, 1] += 1
    fast = it.ibu_rows(M, C, tol=0, max_iter=300)
    slow = it.ibu_rows(M, C, tol=0, max_iter=300, record_trace=True)
    np.testing.assert_allclose(fast.estimate, slow.estimate, atol=1e-13)
    np.testing.assert_allclose(fast.loglik, slow.loglik, atol=1e-13)
    assert np.all(np.diff(slow.trace) >= -1e-13)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-3, 3), min_size=1, max_size=12))
def test_project_simplex_rows_property(v):
    p = it.project_simplex_rows(np.array(v))
    assert np.all(p >= 0) and abs(p.sum() - 1) < 1e-9
    # projection is idempotent and no feasible point is closer
    np.testing.assert_allclose(it.project_simplex_rows(p), p, atol=1e-9)
    u = np.random.default_rng(0).dirichlet(np.ones(len(v)), 20)
    assert np.all(((u - np.array(v)) ** 2).sum(1) >= ((p - np.array(v)) ** 2).sum() - 1e-9)


def test_emd_rows_on_grid():
    from ldpnb.data import lattice_distance_matrix

    D = lattice_distance_matrix(2, 2, 1.0)
    a = np.array([1.0, 0, 0, 0])
    P = np.array([[0, 1.0, 0, 0], [0, 0, 0, 1.0], [1.0, 0, 0, 0]])
    np.testing.assert_allclose(it_measures.emd_rows(P, a, D), [1, np.sqrt(2), 0], atol=1e-9)


def test_input_validation_messages():
    with pytest.raises(ValueError):
        it_ibu.rappor_concavity_lower_bound(10, 20, -1.0)
    with pytest.raises(ValueError):
        it_ibu.inv_krr_upper_bound(1, 1.0, 10)
    with pytest.raises(ValueError):
        it.observation_matrix(M4, np.array([3]))
    with pytest.raises(ValueError):
        it_ibu.loglik_surface(np.ones((2, 2)) / 2, [0])
    with pytest.raises(ValueError):
        it.planar_delta_prime(-1, 2)
    with pytest.raises(ValueError):
        it.likely_subset_krr(np.array([5]), 3)
    with pytest.raises(ValueError):
        it.inv_expected_sq_error(np.ones((2, 3)) / 3, [0.5, 0.5], 10)
