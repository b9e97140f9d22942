"""PIE paper (Murakami and Takahashi 2021): numerical checks of the propositions and theorems of
Sections 3-4 on random instances.
"""

from __future__ import annotations

import math
import numpy as np
from scipy import special
from ldpnb.utils import (
    check_domain_size, check_epsilon, check_positive_int, check_random_state,
)
from ldpnb.measures.reidentification import (
    LOG2E, alpha_glh, alpha_ldp_generic, alpha_rr, alpha_star_rr, bayes_error_posterior, bayes_error_prior,
    composed_joint, conditional_mutual_information, fano_lower_bound, joint_uy, mi_ldp_bound, mi_ux, pie,
    score_joint, theta_glh, theta_rr,
)

__all__ = [
    "gaussian_score_mc",
    "random_ldp_channel",
    "theorem_checks",
]


def gaussian_score_mc(n: int, d: float, reps: int, *, rng=None) -> dict:
    r"""Monte Carlo of Thm 3.2 / Prop. 3.7 with Gaussian scores (spec A13).

    Genuine score ~ N(d, 1), n - 1 impostor scores ~ N(0, 1), U uniform.  The likelihood ratio
    is L(s) = exp(d s - d^2/2), the posterior Pr(U=1|s) = L(s_1)/sum_j L(s_j), so

    .. math:: I(U;S) = E\left[\log_2 \frac{n L(s_1)}{\sum_j L(s_j)}\right],\qquad
              \beta_{U|S} = 1 - E[\max_j \Pr(U=j|s)].

    Returns ``dict(mi_bits, mi_se, bayes_error, bayes_se, best_score_error, d_bits)``.
    """
    rng = check_random_state(rng)
    n = check_domain_size(n, "n")
    if reps < 2:
        raise ValueError("reps must be >= 2")
    mi, post_max, top = np.empty(reps), np.empty(reps), np.empty(reps)
    block = max(1, int(2e6 // n))
    for start in range(0, reps, block):
        r = min(block, reps - start)
        s = rng.standard_normal((r, n))
        s[:, 0] += d
        ll = d * s - d * d / 2
        lse = special.logsumexp(ll, axis=1)
        mi[start:start + r] = (math.log(n) + ll[:, 0] - lse) * LOG2E
        post_max[start:start + r] = np.exp(ll.max(axis=1) - lse)
        top[start:start + r] = np.argmax(s, axis=1) == 0
    return dict(
        mi_bits=float(mi.mean()), mi_se=float(mi.std(ddof=1) / math.sqrt(reps)),
        bayes_error=float(1 - post_max.mean()), bayes_se=float(post_max.std(ddof=1) / math.sqrt(reps)),
        best_score_error=float(1 - top.mean()), d_bits=d * d / 2 * LOG2E,
    )


def random_ldp_channel(k: int, m: int, epsilon: float, *, rng=None) -> np.ndarray:
    r"""Random LDP channel: Q(y|x) proportional to w_y e^{eps b_xy}, b_xy in {0, 1} (spec T9).

    Unnormalised rows differ by a factor of at most e^eps per column; the row normalisation can
    add up to another e^eps, so the channel is at most 2 eps-LDP.  Measure its tight epsilon with
    :func:`ldpnb.mechanisms.ldp_epsilon` before using it as an eps-LDP channel.
    """
    k = check_domain_size(k)
    m = check_positive_int(m, "m", minimum=1)
    rng = check_random_state(rng)
    eps = check_epsilon(epsilon)
    w = rng.dirichlet(np.ones(m))
    b = rng.integers(0, 2, size=(k, m))
    Q = w[None, :] * np.exp(eps * b)
    return Q / Q.sum(axis=1, keepdims=True)


# ---------------------------------------------------------------------------------------------
# Random-instance verification of the paper's propositions and theorems (spec T2-T14)
# ---------------------------------------------------------------------------------------------


def theorem_checks(draws: int = 300, *, rng=None, tol: float = 1e-10) -> "list[dict]":
    r"""Check every proposition / theorem of Sections 3-4 on ``draws`` random small instances.

    Instances (spec Section 4): n, k in [2, 6], eps ~ U(0.01, 6), p_U ~ Dirichlet(1), rows of
    p_{X|U} ~ Dirichlet(c) with c ~ U(0.1, 3); random channels for Thms 3.5/3.6; the explicit GLH
    channel with the fully random hash family (:func:`ldpnb.mechanisms.lh_channel`, k <= 4,
    g <= 3).  Each inequality is counted as violated when it fails by more than ``tol`` bits.
    Returns one dict per statement with ``name, statement, checks, violations, max_ratio`` (the
    largest lhs/rhs ratio where meaningful, showing how tight the bound is on these instances).
    """
    from ldpnb.measures.information import mutual_information_joint
    from ldpnb.mechanisms.grr import grr_channel
    from ldpnb.channels._generic import ldp_epsilon
    from ldpnb.mechanisms.hashing import lh_channel

    rng = check_random_state(rng)
    mij = lambda J: float(mutual_information_joint(J, unit="bits"))  # noqa: E731
    rows: dict[str, dict] = {}

    def rec(name, statement, lhs, rhs, ratio=True):
        r = rows.setdefault(name, dict(name=name, statement=statement, checks=0, violations=0, max_ratio=0.0))
        r["checks"] += 1
        r["violations"] += int(lhs > rhs + tol)
        if ratio and rhs > 1e-12:
            r["max_ratio"] = max(r["max_ratio"], lhs / rhs)

    def inst(n=None, k=None):
        n = n or int(rng.integers(2, 7))
        k = k or int(rng.integers(2, 7))
        p_u = rng.dirichlet(np.ones(n))
        P = rng.dirichlet(np.full(k, rng.uniform(0.1, 3)), size=n)
        return n, k, p_u, P

    for _ in range(draws):
        n, k, p_u, P = inst()
        eps = rng.uniform(0.01, 6)
        m = int(rng.integers(2, 7))
        # Prop 3.3: likelihood scores are sufficient; a coarse score loses information
        Q = grr_channel(k, eps)
        J = joint_uy(p_u, P, Q)
        i_y = mij(J)
        i_s1 = mij(score_joint(J, P @ Q))
        rec("Prop 3.3 (=)", "I(U;S) = I(U;Y) for likelihood scores", abs(i_s1 - i_y), 0.0, ratio=False)
        coarse = (np.arange(k)[None, :] == P.argmax(axis=1)[:, None]).astype(float)
        rec("Prop 3.3 (<=)", "I(U;S) <= I(U;Y) for a coarse score", mij(score_joint(J, coarse)), i_y)
        # Thm 3.5 post-processing; Thm 3.6 convexity; Prop 3.10
        Q1 = rng.dirichlet(np.full(m, rng.uniform(0.2, 2)), size=k)
        Q2 = rng.dirichlet(np.full(m, rng.uniform(0.2, 2)), size=k)
        L = rng.dirichlet(np.ones(int(rng.integers(2, 6))), size=m)
        i1, i2 = pie(p_u, P, Q1), pie(p_u, P, Q2)
        rec("Thm 3.5", "I(U; lambda(Y)) <= I(U;Y)", pie(p_u, P, Q1 @ L), i1)
        w = float(rng.uniform())
        rec("Thm 3.6", "I(U;Y_w) <= w I(U;Y_1) + (1-w) I(U;Y_2)", pie(p_u, P, w * Q1 + (1 - w) * Q2),
            w * i1 + (1 - w) * i2)
        p_x = p_u @ P
        rec("Prop 3.10", "I(U;Y) <= min{I(U;X), I(X;Y)}", i1, min(mi_ux(p_u, P), mij(p_x[:, None] * Q1)))
        # Prop 3.7 on a random discrete joint with a non-uniform prior
        nn, mm = int(rng.integers(2, 9)), int(rng.integers(2, 9))
        Jr = rng.dirichlet(np.full(nn * mm, rng.uniform(0.1, 2))).reshape(nn, mm)
        fano = fano_lower_bound(mij(Jr), beta_u=bayes_error_prior(Jr.sum(axis=1)))
        rec("Prop 3.7", "beta_{U|S} >= 1 + (I(U;S)+1)/log(1-beta_U)", fano, bayes_error_posterior(Jr), ratio=False)
        # Lemma B.2 and Prop 4.1 on a random LDP channel (its tight eps measured)
        Qr = random_ldp_channel(k, m, eps / 2, rng=rng)
        eps_r = ldp_epsilon(Qr)
        rec("Lemma B.2", "I(X;Y) <= min{eps, eps^2} log e (eps-LDP)",
            mij(p_x[:, None] * Qr), float(mi_ldp_bound(eps_r)))
        rec("Prop 4.1", "I(U;Y) <= min{eps log e, eps^2 log e, log n, log k}", pie(p_u, P, Qr),
            float(alpha_ldp_generic(eps_r, n, k)))
        # Thm 4.2
        th = theta_rr(k, eps)
        rec("Thm 4.2 (Eq. 15)", "I(U;Y) <= theta_RR I(U;X) (eps-RR)", i_y, th * mi_ux(p_u, P))
        rec("Thm 4.2 (Eq. 16)", "alpha*(RR, n) <= theta_RR min{log n, log k}", alpha_star_rr(n, k, eps),
            float(alpha_rr(eps, n, k)))
        # Thm 4.3 (t = 2, correlated reports)
        kk = int(rng.integers(2, 5))
        p3 = p_u[:, None, None] * rng.dirichlet(np.full(kk * kk, 0.3), size=n).reshape(n, kk, kk)
        Qk = grr_channel(kk, eps)
        thk = theta_rr(kk, eps)
        i12 = mij(composed_joint(p3, Qk, Qk).reshape(n, -1))
        rhs34 = thk * (mij(p3.sum(axis=2)) + conditional_mutual_information(np.einsum("uab,ay->uyb", p3, Qk)))
        rec("Thm 4.3 (Eq. 34)", "I(U;Y1,Y2) <= theta [I(U;X1) + I(U;X2|Y1)] (RR)", i12, rhs34)
        rec("Thm 4.3", "I(U;Y1,Y2) <= 2 theta_RR min{log n, log k}", i12, float(alpha_rr(eps, n, kk, t=2)))
        # Thm 4.4 / 4.5 with the explicit fully random hash family
        kg, g = int(rng.integers(2, 5)), int(rng.integers(2, 4))
        C = lh_channel(kg, g, eps)
        _, _, pu_g, Pg = inst(n=n, k=kg)
        thg = theta_glh(g, eps)
        ig = pie(pu_g, Pg, C)
        rec("Thm 4.4 (Eq. 17)", "I(U;H,Y) <= theta_GLH I(U;X) (GLH, fully random H)", ig, thg * mi_ux(pu_g, Pg))
        rec("Thm 4.4 (Eq. 18)", "I(U;H,Y) <= theta_GLH min{log n, log k}", ig, float(alpha_glh(eps, n, kg, g)))
        if kg <= 3 and g == 2:
            pg3 = pu_g[:, None, None] * rng.dirichlet(np.full(kg * kg, 0.3), size=n).reshape(n, kg, kg)
            i2g = mij(composed_joint(pg3, C, C).reshape(n, -1))
            rhs = thg * (mij(pg3.sum(axis=2)) + conditional_mutual_information(np.einsum("uab,ay->uyb", pg3, C)))
            rec("Thm 4.5", "I(U;Y1,Y2) <= theta_GLH [I(U;X1) + I(U;X2|Y1)] (GLH)", i2g, rhs)
    return list(rows.values())
