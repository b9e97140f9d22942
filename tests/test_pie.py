"""Tests for ldpnb.pie and ldpnb.pie_ident (Murakami & Takahashi 2021; spec 000 T1-T21)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse

from ldpnb import attacks as pid_attacks
from ldpnb import measures as pid
from ldpnb import measures as pie
from ldpnb.attacks import linkage
from ldpnb.channels import ldp_epsilon
from ldpnb.measures import channel_capacity, mutual_information_joint
from ldpnb.mechanisms import grr_channel, grr_params, lh_channel
from ldpnb.papers.pie import identification as pid_pie
from ldpnb.papers.pie import theory as pie_pie

N_LT, K_LT = 1_370_637, 10_500_393
TOL = 1e-10


def _instance(rng, n=None, k=None):
    n = n or int(rng.integers(2, 7))
    k = k or int(rng.integers(2, 7))
    p_u = rng.dirichlet(np.ones(n))
    P = np.vstack([rng.dirichlet(np.full(k, rng.uniform(0.1, 3))) for _ in range(n)])
    return n, k, p_u, P


def _rand_channel(rng, k, m):
    return rng.dirichlet(np.full(m, rng.uniform(0.2, 2)), size=k)


# ---------------------------------------------------------------------------------------------
# analytic numbers (T6, T8, T10, T11, T15, T21, Fig. 4)
# ---------------------------------------------------------------------------------------------


def test_fig4_numbers():
    eps = np.array([0.1, 1.0, 10.0])
    np.testing.assert_allclose(pie.alpha_ldp_generic(eps, N_LT, K_LT), [0.01443, 1.4427, 14.427], rtol=1e-3)
    np.testing.assert_allclose(pie.alpha_rr(eps, N_LT, K_LT), [2.042e-7, 3.336e-6, 0.04267], rtol=1e-3)
    # theta_RR at the beta > 0.92 budget, Thm 4.4 at g = 1e8, Eq. 12 at eps = 16.17
    np.testing.assert_allclose(pie.theta_rr(K_LT, 12.72), 0.03086, rtol=1e-3)
    np.testing.assert_allclose(pie.alpha_glh(16.0, N_LT, K_LT, 10**8), 1.664, rtol=1e-3)
    # vectorised over g (Fig. 12, T13-g)
    gs = np.array([10**3, 10**8])
    np.testing.assert_allclose(
        pie.alpha_glh(16.0, N_LT, K_LT, gs), [pie.alpha_glh(16.0, N_LT, K_LT, int(g)) for g in gs]
    )
    np.testing.assert_allclose(pie.fano_lower_bound(pie.alpha_rr(16.17, N_LT, K_LT), N_LT), 0.4502, atol=2e-4)
    # Prop 4.1 saturates at log n from eps = 14.13
    assert pie.alpha_ldp_generic(14.2, N_LT, K_LT) == pytest.approx(math.log2(N_LT))


def test_cor39_example_units():
    assert pie.alpha_for_target_bayes_error(0.8, 10**6, unit="nats") == pytest.approx(2.0700, abs=5e-4)
    assert pie.alpha_for_target_bayes_error(0.5, 10**6, unit="nats") == pytest.approx(6.2146, abs=5e-4)
    assert pie.alpha_for_target_bayes_error(0.8, 10**6) == pytest.approx(2.986, abs=5e-4)
    assert pie.alpha_for_target_bayes_error(0.5, 10**6) == pytest.approx(8.966, abs=5e-4)
    # inverse of Eq. 12
    a = pie.alpha_for_target_bayes_error(0.8, 10**6)
    assert pie.fano_lower_bound(a, 10**6) == pytest.approx(0.8)


def test_pseudonymisation_example():
    assert pie.fano_lower_bound(math.log2(5), 10**8) == pytest.approx(0.875, abs=5e-4)
    assert pie.fano_lower_bound(math.log2(5), beta_u=0.99) == pytest.approx(0.500, abs=5e-4)


def test_theta_half_bound_and_inverse():
    assert pie.fano_lower_bound(0.5 * math.log2(N_LT), N_LT) == pytest.approx(0.4509, abs=1e-4)
    assert pie.eps_from_theta(0.5, K_LT) == pytest.approx(math.log(K_LT + 1))
    th = pie.theta_for_target_bayes_error(0.92, N_LT, K_LT)
    assert th == pytest.approx(0.03095, abs=2e-5)
    assert pie.eps_from_theta(th, K_LT) == pytest.approx(12.72, abs=0.01)
    assert pie.theta_rr(K_LT, pie.eps_from_theta(0.3, K_LT)) == pytest.approx(0.3)
    p, q = grr_params(2, 1.0)
    assert p == pytest.approx(math.e / (1 + math.e)) and p > 0.73  # "smaller than 0.73" is rounding


def test_alpha_star_rr_matches_restricted_capacity():
    for n, k, eps in [(3, 5, 1.0), (2, 4, 2.0), (5, 5, 0.7), (7, 4, 3.0)]:
        Q = grr_channel(k, eps)
        assert pie.alpha_star_rr(n, k, eps) == pytest.approx(pie.restricted_capacity(Q, n), abs=1e-9)


def test_tightness_table_T11c():
    for (n, k, eps), (a_star, a_thm, a_prop) in {
        (3, 8, 1): (0.0864, 0.2802, 1.4427),
        (8, 8, 2): (0.6348, 1.3321, 2.8854),
        (20, 8, 4): (2.1702, 2.6104, 3.0),
        (5, 50, 3): (0.4676, 0.6415, 2.3219),
    }.items():
        assert pie.alpha_star_rr(n, k, eps) == pytest.approx(a_star, abs=1e-4)
        assert pie.alpha_rr(eps, n, k) == pytest.approx(a_thm, abs=1e-4)
        assert pie.alpha_ldp_generic(eps, n, k) == pytest.approx(a_prop, abs=1e-4)
        assert a_star <= a_thm <= a_prop


# ---------------------------------------------------------------------------------------------
# theorems on random small instances (zero violations)
# ---------------------------------------------------------------------------------------------


def test_prop33_likelihood_scores_and_coarse_scores():
    rng = np.random.default_rng(1)
    for _ in range(100):
        n, k, p_u, P = _instance(rng, n=4, k=5)
        Q = grr_channel(5, 1.0)
        J = pie.joint_uy(p_u, P, Q)
        i_y = mutual_information_joint(J, unit="bits")
        S1 = P @ Q  # q_i(y): likelihood scores
        assert pie.score_vector_mi(J, S1) == pytest.approx(i_y, abs=TOL)
        S2 = (np.arange(5)[None, :] == P.argmax(axis=1)[:, None]).astype(float)
        assert pie.score_vector_mi(J, S2) <= i_y + TOL
        b1 = pie.bayes_error_posterior(pie.score_joint(J, S1))
        assert b1 == pytest.approx(pie.bayes_error_posterior(J), abs=TOL)
        assert pie.bayes_error_posterior(pie.score_joint(J, S2)) >= b1 - TOL


def test_post_processing_convexity_dpi():
    rng = np.random.default_rng(2)
    for _ in range(300):
        n, k, p_u, P = _instance(rng)
        m = int(rng.integers(2, 7))
        Q1, Q2 = _rand_channel(rng, k, m), _rand_channel(rng, k, m)
        L = _rand_channel(rng, m, int(rng.integers(2, 6)))
        i1, i2 = pie.pie(p_u, P, Q1), pie.pie(p_u, P, Q2)
        assert pie.pie(p_u, P, Q1 @ L) <= i1 + TOL  # Thm 3.5
        for w in np.linspace(0, 1, 11):  # Thm 3.6
            assert pie.pie(p_u, P, w * Q1 + (1 - w) * Q2) <= w * i1 + (1 - w) * i2 + TOL
        assert (
            i1 <= min(pie.mi_ux(p_u, P), mutual_information_joint((p_u @ P)[:, None] * Q1, unit="bits")) + TOL
        )  # Prop 3.10


def test_prop37_fano_random_joints():
    rng = np.random.default_rng(3)
    for _ in range(300):
        n, m = int(rng.integers(2, 9)), int(rng.integers(2, 9))
        J = rng.dirichlet(np.full(n * m, rng.uniform(0.1, 2))).reshape(n, m)
        p_u = J.sum(axis=1)
        beta = pie.bayes_error_posterior(J)
        i = mutual_information_joint(J, unit="bits")
        assert beta >= pie.fano_lower_bound(i, beta_u=pie.bayes_error_prior(p_u)) - TOL


def test_lemma_b2_capacities_and_random_ldp_channels():
    expected = {
        0.1: [0.00125, 0.00113, 0.00083, 0.00047, 0.00010],
        1.0: [0.1109, 0.1233, 0.1092, 0.0734, 0.0188],
        5.0: [0.653, 1.019, 1.452, 1.958, 2.386],
    }
    for eps, caps in expected.items():
        for k, c in zip([2, 3, 5, 10, 50], caps):
            cap = channel_capacity(grr_channel(k, eps), unit="nats")[0]
            assert cap == pytest.approx(c, rel=5e-3, abs=6e-6)
            assert cap <= pie.mi_ldp_bound(eps, unit="nats") + TOL
    rng = np.random.default_rng(4)
    for _ in range(40):
        eps = rng.uniform(0.01, 6)
        Q = pie_pie.random_ldp_channel(int(rng.integers(2, 6)), int(rng.integers(2, 6)), eps, rng=rng)
        tight = ldp_epsilon(Q)
        assert tight <= 2 * eps + 1e-9
        assert channel_capacity(Q, unit="bits", tol=1e-10)[0] <= pie.mi_ldp_bound(tight) + 1e-9


def test_prop41_and_thm42_random():
    rng = np.random.default_rng(5)
    worst = 0.0
    for _ in range(300):
        n, k, p_u, P = _instance(rng)
        eps = rng.uniform(0.01, 6)
        Q = grr_channel(k, eps)
        i_y = pie.pie(p_u, P, Q)
        th = pie.theta_rr(k, eps)
        assert i_y <= th * pie.mi_ux(p_u, P) + TOL  # Eq. 15
        assert (
            i_y <= pie.alpha_rr(eps, n, k) + TOL <= pie.alpha_ldp_generic(eps, n, k) + 2 * TOL
            or i_y <= pie.alpha_ldp_generic(eps, n, k) + TOL
        )
        assert pie.alpha_star_rr(n, k, eps) <= pie.alpha_rr(eps, n, k) + TOL  # Eq. 16 is an upper bound
        worst = max(worst, i_y / (th * pie.mi_ux(p_u, P)))
    assert worst < 1


def test_prop41_random_ldp_channels():
    rng = np.random.default_rng(6)
    for _ in range(25):
        k, m, n = int(rng.integers(2, 5)), int(rng.integers(2, 5)), int(rng.integers(1, 5))
        eps = rng.uniform(0.05, 4)
        Q = pie_pie.random_ldp_channel(k, m, eps, rng=rng)
        if n >= 2:
            assert pie.restricted_capacity(Q, n) <= pie.alpha_ldp_generic(ldp_epsilon(Q), n, k) + 1e-9


def test_thm43_composition_rr():
    rng = np.random.default_rng(7)
    for _ in range(300):
        n, k = int(rng.integers(2, 6)), int(rng.integers(2, 5))
        p_u = rng.dirichlet(np.ones(n))
        p = p_u[:, None, None] * rng.dirichlet(np.full(k * k, 0.3), size=n).reshape(n, k, k)
        eps = rng.uniform(0.01, 6)
        Q = grr_channel(k, eps)
        th = pie.theta_rr(k, eps)
        i_y = mutual_information_joint(pie.composed_joint(p, Q, Q).reshape(n, -1), unit="bits")
        i_x1 = mutual_information_joint(p.sum(axis=2), unit="bits")
        p_u_y1_x2 = np.einsum("uab,ay->uyb", p, Q)
        i_x2_y1 = pie.conditional_mutual_information(p_u_y1_x2)
        assert i_y <= th * (i_x1 + i_x2_y1) + TOL  # Eq. 34
        assert i_y <= pie.alpha_rr(eps, n, k, t=2) + TOL


def test_thm44_45_glh_explicit_family():
    rng = np.random.default_rng(8)
    worst = 0.0
    for _ in range(150):
        k, g = int(rng.integers(2, 5)), int(rng.integers(2, 4))
        n = int(rng.integers(2, 6))
        eps = rng.uniform(0.01, 6)
        C = lh_channel(k, g, eps)
        _, _, p_u, P = _instance(rng, n=n, k=k)
        th = pie.theta_glh(g, eps)
        i_y = pie.pie(p_u, P, C)
        assert i_y <= th * pie.mi_ux(p_u, P) + TOL  # Eq. 17
        assert i_y <= pie.alpha_glh(eps, n, k, g) + TOL  # Eq. 18
        worst = max(worst, i_y / (th * pie.mi_ux(p_u, P)))
        if k <= 3 and g <= 2:  # Thm 4.5, t = 2
            p = p_u[:, None, None] * rng.dirichlet(np.full(k * k, 0.3), size=n).reshape(n, k, k)
            i2 = mutual_information_joint(pie.composed_joint(p, C, C).reshape(n, -1), unit="bits")
            cmi = pie.conditional_mutual_information(np.einsum("uab,ay->uyb", p, C))
            assert i2 <= th * (mutual_information_joint(p.sum(axis=2), unit="bits") + cmi) + TOL
            assert i2 <= pie.alpha_glh(eps, n, k, g, t=2) + TOL
    assert worst < 1


@settings(max_examples=50, deadline=None)
@given(st.floats(0.01, 20), st.integers(2, 10**7), st.integers(2, 10**7))
def test_bounds_ordering_property(eps, n, k):
    a_rr = pie.alpha_rr(eps, n, k)
    assert a_rr <= pie.alpha_ldp_generic(eps, n, k) * (1 + 1e-12) + 1e-15 or a_rr <= math.log2(min(n, k))
    assert 0 < pie.theta_rr(k, eps) < 1


# ---------------------------------------------------------------------------------------------
# identification side
# ---------------------------------------------------------------------------------------------


def test_t1_gaussian_scores_mc_and_control_variate():
    r = pie_pie.gaussian_score_mc(1000, 2.0, 2000, rng=1)
    cv = pie_pie.gaussian_score_mi(1000, 2.0, 2000, rng=2)
    # the two estimators of the same I(U;S) agree (4 SE of the difference); at large n the control
    # variate removes most of the variance (the log-likelihood of the genuine score)
    assert abs(r["mi_bits"] - cv["mi"]) <= 4 * math.hypot(r["mi_se"], cv["se"])
    assert cv["se"] < r["mi_se"] / 3 and cv["mi"] <= math.log2(1000) and cv["gap"] > 0
    assert cv["D"] == pytest.approx(4 / 2 / math.log(2))
    r2 = pie_pie.gaussian_score_mc(100, 2.0, 4000, rng=2)
    assert r2["bayes_error"] >= pie.fano_lower_bound(r2["mi_bits"], 100)
    # Thm 3.2: the gap shrinks with n
    gaps = [pie_pie.gaussian_score_mi(n, 2.0, 2000, rng=n)["gap"] for n in (100, 1000)]
    assert gaps[1] < gaps[0]


def test_gaussian_mc_returns_its_runs():
    r = pie_pie.gaussian_score_mc(100, 2.0, 50, rng=3)
    assert r["samples"]["mi"].shape == (50,) and r["samples"]["top"].dtype == bool
    assert r["mi_bits"] == pytest.approx(r["samples"]["mi"].mean())
    assert r["bayes_error"] == pytest.approx(1 - r["samples"]["posterior_max"].mean())
    cv = pie_pie.gaussian_score_mi(100, 2.0, 50, rng=3)
    assert cv["gap"] == pytest.approx(cv["samples"].mean())


def test_rr_and_glh_provide_exactly_eps_ldp():
    r = pie_pie.ldp_levels((0.3, 2.0))
    assert np.allclose(r["ldp_rr"], r["eps_rr"], atol=1e-12) and np.allclose(r["ldp_glh"], r["eps_glh"], atol=1e-12)


def test_lower_bound_slack_ratio():
    n = 2**12  # log2 n = 12
    pse, a_t, a_g = np.array([0.5, 0.5, 1.0]), np.array([1.5, 20.0, 2.0]), np.array([10.5, 30.0, 11.5])
    r = pie_pie.lower_bound_slack_ratio(pse, a_t, a_g, n)
    assert r[0] == pytest.approx((10.5 - 0.5) / (1.5 - 0.5))  # no clipping: ratio of alpha gaps
    assert r[1] == pytest.approx(1.0)  # both bounds vacuous
    lb_pse = 1 - 2.0 / 12
    assert r[2] == pytest.approx((lb_pse - 0.0) / (lb_pse - (1 - 3.0 / 12)))  # LB(4.1) = 1 - 12.5/12 < 0: 0
    with pytest.raises(ValueError, match="same shape"):
        pie_pie.lower_bound_slack_ratio(pse, a_t[:2], a_g, n)


def test_theorem_checks_have_no_violation():
    rows = pie_pie.theorem_checks(60, rng=3)
    assert len(rows) == 16
    for r in rows:
        assert r["violations"] == 0 and r["checks"] == 60, r["name"]
        assert r["max_excess"] <= 1e-10
        assert (r["max_ratio"] is None) == r["name"].endswith("(=)")


def test_knn_recovers_gaussian_kl():
    rng = np.random.default_rng(14)
    N = 3000
    for mu in [1.0, 3.0]:
        g, i = pid_pie.synth_biometric_scores(N, mu, n_impostor=1_000_000, rng=rng)
        tol = 4 * mu / math.sqrt(N) / math.log(2) + 0.05  # 4 SE of the mean log-likelihood ratio
        assert pid.kl_knn_1d(g, i) == pytest.approx(pid.gaussian_kl_bits(mu), abs=tol)
        assert pid.kl_knn_1d(g, i, k=5, bias_reduced=False) == pytest.approx(pid.gaussian_kl_bits(mu), abs=tol)


def test_mixed_estimator_discrete_exact_and_ties():
    # purely discrete: plug-in KL
    rng = np.random.default_rng(15)
    pg, pi_ = np.array([0.6, 0.3, 0.1]), np.array([0.1, 0.3, 0.6])
    g = rng.choice(3, 20000, p=pg).astype(float)
    i = rng.choice(3, 200000, p=pi_).astype(float)
    exact = float(np.sum(pg * np.log2(pg / pi_)))
    assert pid.kl_mixed_1d(g, i) == pytest.approx(exact, abs=0.03)
    # weights == repetition
    vals, cnt = np.unique(i, return_counts=True)
    assert pid.kl_mixed_1d(g, vals, impostor_weights=cnt) == pytest.approx(pid.kl_mixed_1d(g, i), abs=1e-12)
    with pytest.raises(ValueError):
        pid.kl_knn_1d(g, i)


def test_mixture_kl_and_mu_inverse():
    assert pid.mixture_kl_bits(2.0, 0.0) == pytest.approx(pid.gaussian_kl_bits(2.0))
    mu = pid.mu_for_kl_bits(5.0, 0.07)
    assert pid.mixture_kl_bits(mu, 0.07) == pytest.approx(5.0, abs=1e-6)
    assert pid.mu_for_kl_bits(6.492) == pytest.approx(3.0, abs=1e-3)


def test_markov_matcher_by_hand():
    train = [np.array([0, 1, 0, 1]), np.array([2, 2, 3])]
    m = pid_attacks.MarkovChainMatcher(floor=1e-8).fit(train, 4)
    S = m.log_scores([np.array([0, 1]), np.array([2, 3, 0])])
    lf = math.log(1e-8)
    # user 0: pi(0) = 1/2, Lambda(1|0) = 1
    assert S[0, 0] == pytest.approx(math.log(0.5) + 0.0)
    assert S[0, 1] == pytest.approx(2 * lf)
    # user 1: pi(2) = 2/3, Lambda(3|2) = 1/2, Lambda(0|3): unseen -> floor
    assert S[1, 1] == pytest.approx(math.log(2 / 3) + math.log(0.5) + lf)
    assert S[1, 0] == pytest.approx(3 * lf)
    assert pid.best_score_error_rate(S) == 0.0
    # ties: two identical users -> error 1/2 each
    assert pid.best_score_error_rate(np.array([[1.0, 1.0], [0.0, 0.0]])) == pytest.approx(0.5)


def test_det_curve():
    tau, far, frr = pid.det_curve([2.0, 3.0], [0.0, 1.0, 2.0, 5.0])
    assert np.all(np.diff(far) <= 0) and np.all(np.diff(frr) >= 0)
    j = np.flatnonzero(tau == 2.0)[0]
    assert far[j] == pytest.approx(0.5) and frr[j] == 0.0


def _toy_attack(rng, n=60, k=300):
    rows, cols, vals = [], [], []
    for i in range(n):
        sup = rng.choice(k, size=int(rng.integers(1, 6)), replace=False)
        cnt = rng.integers(1, 5, size=sup.size)
        rows += [i] * sup.size
        cols += list(sup)
        vals += list(cnt / cnt.sum())
    pi = sparse.csr_matrix((vals, (rows, cols)), shape=(n, k))
    x = np.where(rng.random(n) < 0.7, np.asarray(pi.argmax(axis=1)).ravel(), rng.integers(0, k, n))
    return pid_attacks.SingleLocationAttack(pi, x)


def test_single_location_rr_exact_matches_simulation():
    rng = np.random.default_rng(16)
    att = _toy_attack(rng)
    for eps in [3.0, 8.0]:
        ex = att.rr_exact(eps)
        sim = att.simulate("rr", eps, reps=400, rng=rng)
        assert abs(sim["error_rate"] - ex["error_rate"][0]) < 4 * sim["error_se"] + 1e-3
    # dense brute force of the clean error (theta -> 1)
    S = np.asarray(att.pi.todense())
    S = np.where(S > 0, S, att.floor)[:, att.x].T
    assert att.rr_exact(60.0)["error_rate"][0] == pytest.approx(pid.best_score_error_rate(S), abs=1e-9)


def test_single_location_glh_scores_by_brute_force():
    rng = np.random.default_rng(17)
    att = _toy_attack(rng, n=30, k=50)
    res = att.simulate("glh", 4.0, g=20, reps=3, rng=5)
    assert res["genuine"].size == 90
    total_imp = res["impostor_weights"].sum()
    assert total_imp == 90 * 29
    assert 0 <= res["error_rate"] <= 1


def test_rr_exact_pse_by_enumeration():
    rng = np.random.default_rng(18)
    att = _toy_attack(rng, n=25, k=40)
    n, k = att.n, att.k
    S = np.asarray(att.pi.todense())
    S = np.where(S > 0, S, att.floor)  # S[j, y] = score of user j for report y
    for eps in [1.0, 4.0, 9.0]:
        Q = grr_channel(k, eps)
        rows = Q[att.x]  # rows[i, y] = P(Y = y | user i)
        vals = np.unique(np.round(S, 15))
        idx = np.searchsorted(vals, np.round(S, 15))
        fG = np.zeros(vals.size)
        fI = np.zeros(vals.size)
        for i in range(n):
            np.add.at(fG, idx[i], rows[i] / n)
            for j in range(n):
                if j != i:
                    np.add.at(fI, idx[j], rows[i] / (n * (n - 1)))
        m = fG > 0
        d = float(np.sum(fG[m] * np.log2(fG[m] / fI[m])))
        assert att.rr_exact(eps)["pse"][0] == pytest.approx(d, rel=1e-9, abs=1e-12)
        # expected best-score error by enumeration
        at_max = S >= S.max(axis=0, keepdims=True)
        p_ok = at_max[np.arange(n)] / at_max.sum(axis=0)  # P(correct | report y) for the true user i
        err = 1 - np.mean(np.sum(rows * p_ok, axis=1))
        assert att.rr_exact(eps)["error_rate"][0] == pytest.approx(err, abs=1e-12)


def test_sequences_and_halves():
    users = np.array([5, 5, 5, 7, 7, 9])
    times = np.array([3, 1, 2, 2, 1, 0])
    items = np.array([100, 200, 100, 300, 200, 400])
    seqs, uid, item_ids = pid_attacks.sequences_from_events(users, times, items, min_events=2)
    np.testing.assert_array_equal(uid, [5, 7])
    np.testing.assert_array_equal(item_ids, [100, 200, 300])
    np.testing.assert_array_equal(seqs[0], [1, 0, 0])  # times 1, 2, 3 -> items 200, 100, 100
    np.testing.assert_array_equal(seqs[1], [1, 2])
    a, b = pid_attacks.split_halves(np.arange(5))
    np.testing.assert_array_equal(a, [0, 1]) and np.testing.assert_array_equal(b, [2, 3, 4])


def test_score_experiment_and_weighted_det():
    rng = np.random.default_rng(19)
    seqs = [rng.integers(0, 30, size=int(rng.integers(5, 15))) for _ in range(40)]
    r = pid_attacks.score_experiment(seqs, seqs, 30, se_reps=4, rng=1)
    assert r["error_rate"] <= 0.2 and r["pse"] > 0 and r["impostor"].size == 40 * 39
    assert np.isfinite(r["pse_se"]) and r["pse_se"] > 0 and r["ceiling"] == pytest.approx(math.log2(2 * 40 * 39))
    g = rng.normal(2, 1, 300)
    i = np.round(rng.normal(0, 1, 3000), 1)
    vals, cnt = np.unique(i, return_counts=True)
    t1, far1, frr1 = pid.det_curve(g, i)
    t2, far2, frr2 = pid.det_curve(g, vals, impostor_weights=cnt)
    np.testing.assert_allclose(np.interp(t1, t2, far2), far1)
    np.testing.assert_allclose(frr1, np.interp(t1, t2, frr2))


@settings(max_examples=100, deadline=None)
@given(st.floats(0.0, 0.9), st.integers(16, 10**9), st.floats(0.001, 0.999), st.integers(2, 10**8))
def test_inverse_roundtrips_property(beta, n, theta, size):
    a = pie.alpha_for_target_bayes_error(beta, n)
    if a >= 0:
        assert pie.fano_lower_bound(a, n) == pytest.approx(beta, abs=1e-9)
    eps = pie.eps_from_theta(theta, size)
    assert pie.theta_rr(size, eps) == pytest.approx(theta, rel=1e-9)
    assert pie.theta_glh(size, eps) == pytest.approx(theta, rel=1e-9)


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 6), st.integers(2, 6), st.floats(0.05, 5.0), st.integers(0, 2**31 - 1))
def test_pie_between_zero_and_bounds_property(n, k, eps, seed):
    rng = np.random.default_rng(seed)
    p_u = rng.dirichlet(np.ones(n))
    P = rng.dirichlet(np.ones(k), size=n)
    v = pie.pie(p_u, P, grr_channel(k, eps))
    assert -1e-12 <= v <= pie.alpha_rr(eps, n, k) + 1e-10
    assert v <= pie.alpha_star_rr(n, k, eps) + 1e-10


def test_validation_errors():
    with pytest.raises(ValueError, match="k"):
        pie.theta_rr(1, 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        pie.alpha_rr(-1.0, 10, 10)
    with pytest.raises(ValueError, match="exactly one"):
        pie.fano_lower_bound(1.0)
    with pytest.raises(ValueError, match="unit"):
        pie.alpha_for_target_bayes_error(0.5, 100, unit="dits")
    with pytest.raises(ValueError, match="p_x_given_u"):
        pie.pie([0.5, 0.5], [[1.0, 0.0]], np.eye(2))
    with pytest.raises(TypeError, match="n"):
        pie.fano_lower_bound(1.0, 1e6)  # sizes are integers
    with pytest.raises(ValueError, match="scoring"):
        linkage.score_matrix([[0, 1]], [[0, 1]], 2, scoring="tnorm")


def test_linkage_refuses_fractional_codes_and_nan_visits():
    """Fuzz (issue #40): a fractional item code was truncated by the conversion to int64
    (score_matrix(tr, [[0, 0.5], [1]], 2) scored [[0, 0], [1]]), a NaN visit probability passed the
    floor check (NaN <= floor is False), and None, a string or an object as sequences or as pi failed
    with a message that named no argument."""
    tr = [[0, 1, 1], [1, 0, 1]]
    with pytest.raises(ValueError, match="^query_seqs must .*fractional"):
        linkage.score_matrix(tr, [[0, 0.5], [1]], 2)
    with pytest.raises(ValueError, match="^train_seqs must .*fractional"):
        linkage.MarkovChainMatcher().fit([[0, 1.5], [1]], 2)
    for bad in (None, "abc", object()):
        with pytest.raises(TypeError, match="^query_seqs must"):
            linkage.score_matrix(tr, bad, 2)
        with pytest.raises(TypeError, match="^pi must"):
            linkage.SingleLocationAttack(bad, [0])
    with pytest.raises(ValueError, match="^pi must"):
        linkage.SingleLocationAttack(np.array([[np.nan, 1.0], [0.5, 0.5]]), [0, 1])
    # integral floats and arrays are codes, as before
    np.testing.assert_array_equal(
        linkage.score_matrix(tr, [np.array([0.0, 1.0, 1.0]), [1, 0, 1]], 2), linkage.score_matrix(tr, tr, 2)
    )


def test_offset_scores_shift_each_query_by_its_length():
    rng = np.random.default_rng(20)
    seqs = [rng.integers(0, 25, size=int(rng.integers(3, 30))) for _ in range(30)]
    raw = linkage.score_matrix(seqs, seqs, 25, scoring="raw")
    off = linkage.score_matrix(seqs, seqs, 25, scoring="offset")
    lens = np.array([len(s) for s in seqs])
    np.testing.assert_allclose(raw - off, np.repeat((lens * math.log(1e-8))[:, None], 30, axis=1), rtol=1e-12)
    # a per-query constant: same best-score decisions and error rate
    assert pid.best_score_error_rate(raw) == pid.best_score_error_rate(off)
    # a user with no overlap with the query scores exactly 0 under the offset scores
    assert np.min(off) >= -1e-9


def test_pse_subsamples_and_gaussian_frr():
    from ldpnb.measures.pse import gaussian_frr_at_far, pse_subsamples

    rng = np.random.default_rng(21)
    n = 200
    S = rng.standard_normal((n, n))
    S[np.arange(n), np.arange(n)] += 2.0
    sub = pse_subsamples(S, 0.5, 6, rng=1)
    assert sub.shape == (6,) and np.all(np.abs(sub - pid.gaussian_kl_bits(2.0)) < 1.0)
    # FRR at a FAR, analytic against sampled scores (binomial SE of the FRR)
    g, i = pid_pie.synth_biometric_scores(20_000, 1.5, fail_rate=0.1, n_impostor=200_000, rng=2)
    for far in (0.01, 0.1):
        f = gaussian_frr_at_far(1.5, far, 0.1)
        assert abs(pid.frr_at_far(g, i, far) - f) < 5 * math.sqrt(f * (1 - f) / g.size) + 2e-3


def test_biometric_standin_places_the_pse():
    r = pid_pie.biometric_standin(3.0, n=3000, n_impostor=1_000_000, sets=2, rng=4)
    assert r["pse"] == pytest.approx(3.0, rel=0.1)
    assert pid.gaussian_kl_bits(r["mu"]) == pytest.approx(3.0)
    assert list(r["frr"]) == [0.001, 0.01, 0.1]


def test_increase_cells():
    np.testing.assert_allclose(pid_pie.increase_cells([1.0, 2.0, 2.5, 4.0], rise_from=1), [1.0, 0.5, 1.5, 2.0])
    # along the last axis: the same cells for every row (e.g. half-sample or bootstrap replicates)
    v = np.array([[1.0, 2.0, 2.5, 4.0], [0.0, 0.0, 1.0, 1.0]])
    np.testing.assert_allclose(pid_pie.increase_cells(v)[1], [0.0, 1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="rise_from"):
        pid_pie.increase_cells([1.0, 2.0], rise_from=1)


def test_best_score_ties_survive_a_per_query_shift():
    rng = np.random.default_rng(22)
    S = np.round(rng.normal(size=(50, 50)), 1)  # many exact ties
    shift = rng.uniform(-2e4, -1e2, size=(50, 1))
    base = pid.best_score_error_rate(S)
    assert pid.best_score_error_rate(S + shift) == pytest.approx(base, abs=1e-12)
    # sums of the same logs in another order are ties
    a = np.log(0.3) + np.log(0.7) + np.log(0.2)
    b = np.log(0.2) + np.log(0.3) + np.log(0.7)
    assert pid.best_score_error_rate(np.array([[a, b], [0.0, 1.0]])) == pytest.approx(0.25)


def test_theta_finite_at_large_epsilon():
    """theta_RR / theta_GLH stay finite (-> 1) past eps = 709, where e^eps overflows, and agree with
    the direct form (e^eps - 1) / (k + e^eps - 1) wherever that form is finite."""
    from ldpnb.measures.reidentification import theta_glh, theta_rr

    eps = np.concatenate([np.geomspace(1e-12, 700, 200), [709.0, 710.0, 1000.0]])
    t = theta_rr(4, eps)
    assert np.all(np.isfinite(t)) and np.all(np.diff(t) >= 0) and t[-1] == 1.0
    direct = np.expm1(eps[:200]) / (4 + np.expm1(eps[:200]))
    np.testing.assert_allclose(t[:200], direct, rtol=1e-13)
    np.testing.assert_allclose(
        theta_glh(np.array([2, 5]), np.array([710.0, 1.0])), [1.0, np.expm1(1.0) / (5 + np.expm1(1.0))], rtol=1e-14
    )


@pytest.mark.parametrize("scale", ["smoke", "book", "paper"])
def test_every_size_of_the_chapter_meets_its_contract(scale):
    """The paper-scale run uses the chapter's largest sizes: each is accepted by the contract of the
    function it is passed to (checked here rather than by a run of an hour)."""
    from ldpnb.contracts import contract_of
    from ldpnb.papers.pie import SIZES_BY_SCALE
    from ldpnb.papers.pie import theory as th
    from ldpnb.papers.pie import utility as util

    z = SIZES_BY_SCALE[scale]
    uses = [
        (pid_pie.partial_knowledge, "se_reps", z["se_reps"]),
        (pid_pie.pse_bootstrap, "n_boot", z["boot"]),
        (pid_pie.frr_bootstrap, "n_boot", z["boot"]),
        (pid_pie.equal_n, "reps", z["eq_reps"]),
        (pid_pie.single_location, "reps", z["mc_reps"]),
        (pid_pie.biometric_standin, "sets", z["bio_sets"]),
        (pid_pie.biometric_standin, "n", z["bio_n"]),
        (pid_pie.biometric_standin, "n_impostor", z["bio_m"]),
        (util.utility_runs, "runs", z["runs"]),
        (util.utility_runs, "runs", z["runs11"]),
        (th.theorem_checks, "draws", z["draws"]),
        (pid_pie.convergence, "reps", z["conv_reps"]),
    ]
    uses += [(th.gaussian_score_mi, "reps", r) for r in z["gauss"].values()]
    for func, name, value in uses:
        contract_of(func)[name].check(value, name)
    assert all(2 <= r <= pid_pie._MAX_SUBSETS for r in z["conv_reps"])
    assert all(n * r <= th.MAX_GAUSS_WORK for n, r in z["gauss"].items())


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rh_partial_knowledge_coincidences_are_nested(seed):
    """Fig. 6, RH, offset scores (row F6b): with the training = the first m items of X (distinct items, as
    the likes of a rating history), every impostor pair that hits the genuine atom at m + 1 hits it at m,
    so c_m is non-increasing and the PSE log2(M/c_m) cannot fall: the row's steps cannot fail."""
    rng = np.random.default_rng(seed)
    k = 7
    X = [rng.permutation(k)[: rng.integers(5, 8)] for _ in range(80)]
    hits, counts = [], []
    for m in range(1, 6):
        r = pid_pie.pse_experiment([s[:m] for s in X], X, k, scoring="offset")
        a = pid_pie.atom_coincidences(r["genuine"], r["impostor"])
        assert a["atoms"] == 1
        hits.append(np.isin(np.round(r["impostor"], 9), np.unique(np.round(r["genuine"], 9))))
        counts.append(a["c"])
    assert all(np.all(hits[i + 1] <= hits[i]) for i in range(4))  # nested hit sets
    assert np.all(np.diff(counts) <= 0) and counts[0] > counts[-1] > 0
