"""Tests for ldpnb.mechanisms.orr: AORR (vertex enumeration + LP (22)) and SRR (Algorithm 2)."""

import numpy as np
import pytest

from ldpnb.measures import ALIP, alip_budgets, entropy, is_alip, mutual_information, nmi, random_joint
from ldpnb.mechanisms import (
    alip_column_polytope,
    complete_merging,
    has_cdd,
    min_concave_over_vertices,
    optimal_random_response,
    polytope_vertices,
    subset_merging,
    subset_random_response,
)

needs_cdd = pytest.mark.skipif(not has_cdd(), reason="pycddlib not installed")


def test_polytope_vertices_simplex_and_validation():
    # the probability simplex in R^3: vertices e_1, e_2, e_3
    A_ub, b_ub = -np.eye(3), np.zeros(3)
    V = polytope_vertices(A_ub, b_ub, np.ones((1, 3)), np.ones(1), method="bruteforce")
    assert sorted(map(tuple, np.round(V, 12))) == sorted(map(tuple, np.eye(3)))
    with pytest.raises(ValueError, match="method"):
        polytope_vertices(A_ub, b_ub, np.ones((1, 3)), np.ones(1), method="lrs")


def test_qhull_vertices_equal_bruteforce_on_tiny_polytopes():
    rng = np.random.default_rng(10)
    key = lambda V: sorted(map(tuple, np.round(V, 8)))  # noqa: E731
    n_q = 0
    for _ in range(80):
        n_s, n_x = rng.integers(2, 4), rng.integers(2, 6)
        P = random_joint(n_s, n_x, rng=rng)
        el, eu = rng.uniform(0.05, 1.5, size=2)
        H = alip_column_polytope(P, el, eu)
        Vb = polytope_vertices(*H, method="bruteforce")
        Va = polytope_vertices(*H, method="auto")  # qhull, or an exact fallback for dimension < 2
        assert key(Va) == key(Vb)
        if n_x >= 3:
            assert key(polytope_vertices(*H, method="qhull")) == key(Vb)
            n_q += 1
    assert n_q > 30


@needs_cdd
@pytest.mark.parametrize("eps", [0.5, 2.0])
def test_qhull_equals_cdd_at_paper_size(eps):
    P = random_joint(5, 17, rng=12)
    H = alip_column_polytope(P, eps / 2, eps / 2)
    Vq = np.unique(np.round(polytope_vertices(*H, method="qhull"), 8), axis=0)
    Vc = np.unique(np.round(polytope_vertices(*H, method="cdd"), 8), axis=0)
    assert Vq.shape == Vc.shape and np.allclose(Vq, Vc, atol=1e-8)


def test_qhull_empty_and_degenerate_polytopes():
    # empty: v >= 0, sum v = 1, v_0 >= 2
    A = np.vstack([-np.eye(3), [[-1, 0, 0]]])
    b = np.r_[np.zeros(3), -2.0]
    assert polytope_vertices(A, b, np.ones((1, 3)), np.ones(1), method="qhull").shape == (0, 3)
    # lower-dimensional (v_0 = 0 forced by v_0 <= 0): qhull refuses, auto falls back to an exact method
    A = np.vstack([-np.eye(3), [[1, 0, 0]]])
    b = np.zeros(4)
    with pytest.raises(ValueError, match="Qhull"):
        polytope_vertices(A, b, np.ones((1, 3)), np.ones(1), method="qhull")
    V = polytope_vertices(A, b, np.ones((1, 3)), np.ones(1), method="auto")
    assert sorted(map(tuple, np.round(V, 12))) == [(0.0, 0.0, 1.0), (0.0, 1.0, 0.0)]


@needs_cdd
def test_cdd_vertices_equal_bruteforce_on_tiny_polytopes():
    rng = np.random.default_rng(0)
    n_cases = 0
    for _ in range(60):
        n_s, n_x = rng.integers(2, 4), rng.integers(2, 6)
        P = random_joint(n_s, n_x, rng=rng)
        el, eu = rng.uniform(0.05, 1.5, size=2)
        H = alip_column_polytope(P, el, eu)
        Vc = polytope_vertices(*H, method="cdd")
        Vb = polytope_vertices(*H, method="bruteforce")
        assert Vc.shape == Vb.shape
        key = lambda V: sorted(map(tuple, np.round(V, 8)))  # noqa: E731
        assert key(Vc) == key(Vb)
        n_cases += 1
    assert n_cases == 60


def test_lp_reconstructs_target_exactly():
    V = np.array([[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0], [1 / 3, 1 / 3, 1 / 3]])
    from ldpnb.mechanisms import column_entropies

    h = column_entropies(V)
    t = np.array([0.2, 0.3, 0.5])
    beta = min_concave_over_vertices(V, h, t)
    assert np.allclose(beta, [0.2, 0.3, 0.5, 0]) and np.allclose(V.T @ beta, t, atol=1e-15)
    assert min_concave_over_vertices(V[:2], h[:2], t) is None


@pytest.mark.parametrize("method", ["auto", "qhull", "bruteforce"])
def test_aorr_sanity_T14(method):
    rng = np.random.default_rng(1)
    for _ in range(30):
        n_s, n_x = rng.integers(2, 4), rng.integers(3 if method == "qhull" else 2, 6)
        P = random_joint(n_s, n_x, rng=rng)
        el, eu = rng.uniform(0.05, 2, size=2)
        r = optimal_random_response(P, el, eu, method=method)
        assert r.feasible  # A = X is always feasible
        p_x = P.sum(0)
        assert np.allclose(r.columns.T @ r.weights, p_x, atol=1e-13)
        assert r.weights.sum() == pytest.approx(1)
        assert np.allclose(r.channel.sum(1), 1) and np.all(r.channel >= 0)
        assert is_alip(P @ r.channel, el, eu, rtol=1e-9)
        # utility via the channel equals H(X) - sum beta H(v)
        assert mutual_information(p_x, r.channel, unit="nats") == pytest.approx(
            entropy(p_x, unit="nats") - r.cond_entropy, abs=1e-10
        )


def test_aorr_limits_T14():
    P = random_joint(3, 5, rng=2)
    assert nmi(P.sum(0), optimal_random_response(P, 50, 50).channel) == pytest.approx(1.0, abs=1e-10)
    # eps -> 0: NMI -> 0 only when |X| <= |S| (P_{S|X} injective on the simplex) ...
    Q = random_joint(3, 3, rng=2)
    assert nmi(Q.sum(0), optimal_random_response(Q, 1e-6, 1e-6).channel) < 1e-3
    # ... for |X| > |S| it tends to the perfect-privacy optimum (columns with P_{S|Y=y} = P_S),
    # not to 0 (NMI -> 0 holds only for |X| <= |S|)
    from ldpnb.mechanisms import column_entropies

    p_s, p_x = P.sum(1), P.sum(0)
    K = P / p_x
    V0 = polytope_vertices(-np.eye(5), np.zeros(5), np.vstack([K, np.ones(5)]), np.append(p_s, 1), method="bruteforce")
    beta0 = min_concave_over_vertices(V0, column_entropies(V0), p_x)
    perfect = 1 - column_entropies(V0) @ beta0 / entropy(p_x, unit="nats")
    assert perfect > 0.05
    assert nmi(p_x, optimal_random_response(P, 1e-6, 1e-6).channel) == pytest.approx(perfect, abs=1e-4)


def test_aorr_beats_random_private_mechanisms_bruteforce():
    """Brute force on tiny cases: no randomly drawn ALIP channel beats AORR's utility."""
    rng = np.random.default_rng(3)
    for _ in range(8):
        P = random_joint(2, 3, rng=rng)
        el, eu = 0.4, 0.3
        best = nmi(P.sum(0), optimal_random_response(P, el, eu, method="bruteforce").channel)
        C = rng.dirichlet(np.full(3, 0.3), size=(20000, 3))  # (trials, x, y)
        p_sy = np.einsum("sx,txy->tsy", P, C)
        L = p_sy / (P.sum(1)[None, :, None] * p_sy.sum(1, keepdims=True))
        ok = (L.max(axis=(1, 2)) <= np.exp(eu)) & (L.min(axis=(1, 2)) >= np.exp(-el))
        assert ok.sum() > 10
        for c in C[ok][:200]:
            assert nmi(P.sum(0), c) <= best + 1e-9


@needs_cdd
def test_ordering_and_privacy_T13():
    rng = np.random.default_rng(4)
    for _ in range(25):
        P = random_joint(5, 12, rng=rng)
        eps, lam = rng.choice([1.0, 2.0, 4.0]), rng.choice([0.35, 0.5, 0.65])
        el, eu = alip_budgets(eps, lam)
        p_x = P.sum(0)
        a = nmi(p_x, optimal_random_response(P, el, eu).channel)
        s = subset_random_response(P, el, eu)
        n_srr = nmi(p_x, s.channel)
        sm = subset_merging(P, ALIP(el, eu))
        h = entropy(p_x, unit="nats")
        n_sm = sm.mutual_information(p_x, unit="nats") / h
        n_cm = complete_merging(P, ALIP(el, eu)).mutual_information(p_x, unit="nats") / h
        assert n_srr >= n_sm - 1e-9 and n_sm >= n_cm - 1e-12
        if not s.fallback:
            assert a >= n_srr - 1e-9
            assert is_alip(P @ s.channel, el, eu, rtol=1e-9)
            assert np.array_equal(
                np.sort(np.concatenate(s.blocks)), np.sort(np.concatenate(s.partition)) if s.partition else []
            )
        else:
            # fallback only when the merged X_H violates ALIP
            H = np.concatenate(s.partition)
            col = P[:, H].sum(1)
            assert ALIP(el, eu).violated((col / (P.sum(1) * col.sum()))[:, None], P.sum(1))[0]


def test_srr_feasibility_readings():
    rng = np.random.default_rng(5)
    for _ in range(10):
        P = random_joint(3, 8, rng=rng)
        el, eu = alip_budgets(1.0, 0.5)
        a = subset_random_response(P, el, eu, method="bruteforce")
        b = subset_random_response(P, el, eu, feasibility="printed", method="bruteforce")
        for r in (a, b):
            assert np.allclose(r.channel.sum(1), 1)
        assert a.lp_failures == 0
    with pytest.raises(ValueError, match="feasibility"):
        subset_random_response(P, el, eu, feasibility="nonempty")


def test_polytope_validation():
    P = random_joint(2, 3, rng=0)
    with pytest.raises(ValueError, match="eps_l"):
        alip_column_polytope(P, 0, 1)
    with pytest.raises(ValueError, match="subset"):
        alip_column_polytope(P, 1, 1, subset=[0, 0])


def test_perfect_privacy_limit():
    """eps -> 0 limit: I(S;Y) = 0 exactly, utility > 0 for |X| > |S|, and AORR(eps) >= it."""
    from ldpnb.measures import leakages
    from ldpnb.mechanisms import perfect_privacy_response

    rng = np.random.default_rng(9)
    for _ in range(5):
        P = random_joint(3, 6, rng=rng)
        r = perfect_privacy_response(P, method="bruteforce")
        lk = leakages(P @ r.channel)
        assert lk.max_lift_leak < 1e-9 and lk.min_lift_leak < 1e-9
        u0 = nmi(P.sum(0), r.channel)
        assert u0 > 0
        prev = u0
        for eps in (0.05, 0.2, 1.0):
            u = nmi(P.sum(0), optimal_random_response(P, eps / 2, eps / 2, method="bruteforce").channel)
            assert u >= prev - 1e-9  # utility is non-decreasing in the budget
            prev = u


@pytest.mark.parametrize("bad", [0.0, -1.0, float("nan"), float("inf")])
def test_orr_budgets_are_validated(bad):
    from ldpnb.mechanisms.orr import full_channel

    P = random_joint(2, 3, rng=0)
    for f, name in [
        (lambda e: optimal_random_response(P, e, 1.0), "eps_l"),
        (lambda e: full_channel(P, 1.0, e), "eps_u"),
        (lambda e: subset_random_response(P, e, 1.0), "eps_l"),
    ]:
        with pytest.raises(ValueError, match=name):
            f(bad)


@needs_cdd
def test_sampled_srr_outputs_match_the_exact_joint():
    """Users (s, x) ~ P_SX published through the SRR channel by ldpnb.mechanisms.sample_channel:
    the empirical P_SY matches P_SX C (chi-square, false-alarm rate 1e-6, fixed seed)."""
    from scipy.stats import chisquare

    from ldpnb.channels import sample_channel

    rng = np.random.default_rng(11)
    P = random_joint(5, 17, rng=rng)
    el, eu = alip_budgets(2.0, 0.65)
    C = subset_random_response(P, el, eu).channel
    n = 200_000
    cells = rng.choice(P.size, size=n, p=P.ravel())
    s, x = np.divmod(cells, P.shape[1])
    y = sample_channel(C, x, rng=rng)
    counts = np.zeros((P.shape[0], C.shape[1]))
    np.add.at(counts, (s, y), 1)
    expected = n * (P @ C)
    keep = expected > 5
    obs, exp = counts[keep], expected[keep]
    assert chisquare(obs, exp * obs.sum() / exp.sum()).pvalue > 1e-6
    assert counts[~keep].sum() <= max(50, 3 * expected[~keep].sum())


def test_a_looser_budget_is_never_infeasible():
    """Audit: optimal_random_response(J, 1.0, 710.0) reported the problem infeasible (e^710
    overflowed the max-lift bounds); 709 worked.  Beyond the point where the max-lift rows stop
    binding the result no longer depends on eps_u."""
    from ldpnb.measures.lift import random_joint
    from ldpnb.mechanisms import optimal_random_response

    J = random_joint(3, 5, rng=np.random.default_rng(1))
    res = {e: optimal_random_response(J, 1.0, e) for e in (50.0, 709.0, 710.0, 1e4)}
    assert all(r.feasible and r.channel is not None for r in res.values())
    np.testing.assert_allclose(res[710.0].channel, res[709.0].channel, atol=1e-12)
    np.testing.assert_allclose(res[1e4].channel, res[709.0].channel, atol=1e-12)
    assert res[1e4].cond_entropy == pytest.approx(res[50.0].cond_entropy, abs=1e-12)


def test_huge_finite_max_lift_bounds_do_not_make_the_problem_infeasible():
    """Fuzz (issue #40): with P = [[0.3, 0.2], [0.1, 0.4]] and eps_l = 0.5, AORR was feasible at eps_u = 36 and
    at 710 but reported infeasible for every eps_u in [37, 700]: bounds e^{eps_u} P_S near 1 / machine epsilon
    broke Qhull and cdd.  The max-lift rows stop binding long before, so the channel no longer depends on eps_u."""
    P = np.array([[0.3, 0.2], [0.1, 0.4]])
    ref = optimal_random_response(P, 0.5, 10.0)
    for eu in (37.0, 40.0, 100.0, 400.0, 700.0, 710.0, 1e4):
        r = optimal_random_response(P, 0.5, eu)
        assert r.feasible and r.channel is not None, eu
        np.testing.assert_allclose(r.channel, ref.channel, atol=1e-12)
