"""Re-identification risk in the local model: PIE (the mutual information between user and
report), its bounds for LDP, RR and GLH, and Fano bounds on the Bayes error of re-identification.

Murakami and Takahashi (2021), Sections 3-4; the PIE reading of LDP in Arcolezi et al. (2023), App. C.
"""

from __future__ import annotations

import itertools
import math
import numpy as np
from ldpnb.utils import (
    check_channel, check_distribution, check_domain_size, check_epsilon, check_positive_int,
)
from ldpnb.utils import (
    check_nonnegative,
)
from ldpnb.mechanisms import multidim as md

__all__ = [
    "LOG2E",
    "theta_rr",
    "theta_glh",
    "eps_from_theta",
    "alpha_ldp_generic",
    "alpha_rr",
    "alpha_glh",
    "alpha_composed",
    "mi_ldp_bound",
    "alpha_star_rr",
    "restricted_capacity",
    "joint_ux",
    "joint_uy",
    "pie",
    "mi_ux",
    "conditional_mutual_information",
    "composed_joint",
    "bayes_error_prior",
    "bayes_error_posterior",
    "fano_lower_bound",
    "alpha_for_target_bayes_error",
    "theta_for_target_bayes_error",
    "score_joint",
    "score_vector_mi",
    "pie_alpha_from_ldp",
    "bayes_error_bound",
    "eps_from_bayes_error",
]


LOG2E = 1.0 / math.log(2.0)  #: log2(e): nats -> bits


def _unit_scale(unit: str) -> float:
    """Factor that converts nats into ``unit``."""
    if unit == "bits":
        return LOG2E
    if unit == "nats":
        return 1.0
    raise ValueError(f"unit must be 'bits' or 'nats', got {unit!r}")


def _eps_array(epsilon, name: str = "epsilon", allow_zero: bool = False) -> np.ndarray:
    e = np.asarray(epsilon, dtype=float)
    bad = (e < 0) if allow_zero else (e <= 0)
    if not np.all(np.isfinite(e)) or np.any(bad):
        raise ValueError(f"{name} must be finite and {'>= 0' if allow_zero else '> 0'}")
    return e


def _size(v, name: str, minimum: int = 2) -> float:
    """A (possibly huge) alphabet/population size as float, validated."""
    if isinstance(v, bool):
        raise TypeError(f"{name} must be a number")
    f = float(v)
    if not np.isfinite(f) or f < minimum or f != round(f):
        raise ValueError(f"{name} must be an integer >= {minimum}, got {v}")
    return f


def _ret(x):
    x = np.asarray(x, dtype=float)
    return float(x) if x.ndim == 0 else x


# ---------------------------------------------------------------------------------------------
# MI loss parameters and privacy levels
# ---------------------------------------------------------------------------------------------


def theta_rr(k, epsilon):
    r"""MI loss parameter of the eps-RR: :math:`\theta_{RR} = (e^\varepsilon-1)/(k+e^\varepsilon-1)`.

    The k-RR outputs the true value with probability theta and a uniform draw from X otherwise
    (Murakami & Takahashi 2021, Section 4.2).  Vectorised over ``epsilon``.
    """
    k = _size(k, "k")
    e = np.expm1(_eps_array(epsilon))
    return _ret(e / (k + e))


def theta_glh(g, epsilon):
    r"""MI loss parameter of the (g, eps)-GLH: :math:`\theta_{GLH} = (e^\varepsilon-1)/(g+e^\varepsilon-1)`.

    Given the hash h, the GLH reports h(x) with probability theta and a uniform draw from [g]
    otherwise (Murakami & Takahashi 2021, Section 4.3).
    """
    g = _size(g, "g")
    e = np.expm1(_eps_array(epsilon))
    return _ret(e / (g + e))


def eps_from_theta(theta, size):
    r"""Inverse of :func:`theta_rr` / :func:`theta_glh`: :math:`\varepsilon = \ln(1 + \theta\,s/(1-\theta))`.

    ``size`` is k for the RR and g for the GLH.
    """
    t = np.asarray(theta, dtype=float)
    if np.any(t <= 0) or np.any(t >= 1):
        raise ValueError("theta must lie in (0, 1)")
    s = np.asarray(size, dtype=float)
    if not np.all(np.isfinite(s)) or np.any(s < 2):
        raise ValueError("size must be >= 2 (k for the RR, g for the GLH)")
    return _ret(np.log1p(t * s / (1 - t)))


def _log2_min(n, k) -> float:
    return math.log2(min(_size(n, "n", 1), _size(k, "k")))


def alpha_ldp_generic(epsilon, n, k):
    r"""Prop. 4.1 (Eq. 14): every eps-LDP channel gives (U, alpha)-PIE privacy with

    .. math:: \alpha = \min\{\varepsilon\log e,\ \varepsilon^2\log e,\ \log n,\ \log k\}\ \text{bits}.
    """
    e = _eps_array(epsilon, allow_zero=True)
    return _ret(np.minimum(np.minimum(e, e * e) * LOG2E, _log2_min(n, k)))


def alpha_rr(epsilon, n, k, t: int = 1):
    r"""Thm 4.2 (Eq. 16) and Thm 4.3 (t reports): :math:`\alpha = t\,\theta_{RR}\min\{\log n,\log k\}` bits."""
    return _ret(t * np.asarray(theta_rr(k, epsilon)) * _log2_min(n, k))


def alpha_glh(epsilon, n, k, g, t: int = 1):
    r"""Thm 4.4 (Eq. 18) and Thm 4.5 (t reports): :math:`\alpha = t\,\theta_{GLH}\min\{\log n,\log k\}` bits."""
    return _ret(t * np.asarray(theta_glh(g, epsilon)) * _log2_min(n, k))


def alpha_composed(alpha, t: int):
    """Composition (Thms 4.3, 4.5): t reports of a mechanism with level alpha give t * alpha."""
    if int(t) != t or t < 1:
        raise ValueError(f"t must be an integer >= 1, got {t}")
    return _ret(np.asarray(alpha, dtype=float) * t)


def mi_ldp_bound(epsilon, *, unit: str = "bits"):
    r"""Lemma B.2 (Cuff & Yu, local form): eps-LDP implies :math:`I(X;Y)\le\min\{\varepsilon,\varepsilon^2\}` nats."""
    e = _eps_array(epsilon, allow_zero=True)
    return _ret(np.minimum(e, e * e) * _unit_scale(unit))


def alpha_star_rr(n, k, epsilon, *, unit: str = "bits") -> float:
    r"""Tight PIE level of the eps-RR: the n-restricted capacity (derived fact, spec Section 2.2).

    For fixed p_U, I(U;Y) is convex in p_{Y|U}, so the sup over p_{U,X} is attained at
    deterministic X = f(U); by symmetry the best input is uniform on m = min(n, k) symbols:

    .. math:: \alpha^* = H(P_Y) - H(\mu,\nu,\dots,\nu),\quad
              P_Y = (a^{\times m}, \nu^{\times(k-m)}),\ a = (\mu+(m-1)\nu)/m.
    """
    k = check_domain_size(k)
    n = int(_size(n, "n", 1))
    eps = check_epsilon(epsilon)
    m = min(n, k)
    E = math.exp(eps)
    mu, nu = E / (k + E - 1), 1.0 / (k + E - 1)
    a = (mu + (m - 1) * nu) / m
    h_row = -(mu * math.log(mu) + (k - 1) * nu * math.log(nu))
    h_y = -(m * a * math.log(a) + (k - m) * nu * math.log(nu))
    return (h_y - h_row) * _unit_scale(unit)


def restricted_capacity(channel, n: int, *, unit: str = "bits", tol: float = 1e-12) -> float:
    r"""Tightest alpha of (U, alpha)-PIE privacy for a channel and |U| = n: the n-restricted capacity.

    :math:`\alpha^*(Q,n) = \max_{p_X:|\mathrm{supp}\,p_X|\le n} I(X;Y)`: Blahut-Arimoto on every
    row subset of size min(n, k) (brute force; tiny k only).  Uses :func:`ldpnb.info.channel_capacity`.
    """
    from ldpnb.measures.information import channel_capacity

    Q = check_channel(channel)
    n = int(_size(n, "n", 1))
    k = Q.shape[0]
    if n >= k:
        return float(channel_capacity(Q, unit=unit, tol=tol)[0])
    best = 0.0
    for rows in itertools.combinations(range(k), n):
        sub = Q[list(rows)]
        c = channel_capacity(sub, unit=unit, tol=tol)[0] if n > 1 else 0.0
        best = max(best, float(c))
    return best


# ---------------------------------------------------------------------------------------------
# Exact information quantities of the obfuscation framework
# ---------------------------------------------------------------------------------------------


def joint_ux(p_u, p_x_given_u) -> np.ndarray:
    """Joint p(u, x) = p_U(u) p_{X|U=u}(x) (n x k)."""
    p_u = check_distribution(p_u, "p_u")
    P = check_channel(p_x_given_u, "p_x_given_u")
    if P.shape[0] != p_u.size:
        raise ValueError(f"p_x_given_u must have {p_u.size} rows (one per user), got {P.shape[0]}")
    return p_u[:, None] * P


def joint_uy(p_u, p_x_given_u, channel) -> np.ndarray:
    """Joint p(u, y) = sum_x p_U(u) p_{X|U=u}(x) Q(y|x) of the Markov chain U -> X -> Y (n x m)."""
    J = joint_ux(p_u, p_x_given_u)
    Q = check_channel(channel)
    if Q.shape[0] != J.shape[1]:
        raise ValueError(f"channel must have {J.shape[1]} rows (one per x), got {Q.shape[0]}")
    return J @ Q


def pie(p_u, p_x_given_u, channel, *, unit: str = "bits") -> float:
    r"""PIE (Eq. 4): :math:`I(U;Y)` for the Markov chain U -> X -> Y, exact.

    Equals :math:`\sum_i p_U(u_i) D(p_{Y|U=u_i}\|p_Y)` (Eq. 27).
    """
    from ldpnb.measures.information import mutual_information_joint

    return float(mutual_information_joint(joint_uy(p_u, p_x_given_u, channel), unit=unit))


def mi_ux(p_u, p_x_given_u, *, unit: str = "bits") -> float:
    """I(U;X) for the joint p_U p_{X|U}."""
    from ldpnb.measures.information import mutual_information_joint

    return float(mutual_information_joint(joint_ux(p_u, p_x_given_u), unit=unit))


def conditional_mutual_information(joint_abc, *, unit: str = "bits") -> float:
    r"""I(A;C|B) from a 3-D joint ``p[a, b, c]``: H(A,B) + H(B,C) - H(B) - H(A,B,C)."""
    from ldpnb.measures.information import entropy

    p = np.asarray(joint_abc, dtype=float)
    if p.ndim != 3:
        raise ValueError(f"joint_abc must be 3-dimensional, got shape {p.shape}")
    if np.any(p < 0) or abs(p.sum() - 1) > 1e-9:
        raise ValueError("joint_abc must be nonnegative and sum to 1")
    h = lambda q: float(entropy(q.ravel(), unit=unit))  # noqa: E731
    return h(p.sum(axis=2)) + h(p.sum(axis=0)) - h(p.sum(axis=(0, 2))) - h(p)


def composed_joint(p_ux1x2, channel1, channel2) -> np.ndarray:
    """p(u, y1, y2) = sum_{x1,x2} p(u, x1, x2) Q1(y1|x1) Q2(y2|x2) (two independent obfuscations)."""
    p = np.asarray(p_ux1x2, dtype=float)
    if p.ndim != 3:
        raise ValueError("p_ux1x2 must be 3-dimensional (u, x1, x2)")
    Q1, Q2 = check_channel(channel1, "channel1"), check_channel(channel2, "channel2")
    return np.einsum("uab,ay,bz->uyz", p, Q1, Q2, optimize=True)


# ---------------------------------------------------------------------------------------------
# Bayes error and the generalised Fano bounds
# ---------------------------------------------------------------------------------------------


def bayes_error_prior(p_u) -> float:
    r""":math:`\beta_U = 1 - \max_i p_U(u_i)` (error of guessing without observation)."""
    return 1.0 - float(check_distribution(p_u, "p_u").max())


def bayes_error_posterior(joint_us) -> float:
    r""":math:`\beta_{U|S} = 1 - \sum_s \max_u p(u, s)` for a discrete joint ``p[u, s]``."""
    J = np.asarray(joint_us, dtype=float)
    if J.ndim != 2 or np.any(J < 0) or abs(J.sum() - 1) > 1e-9:
        raise ValueError("joint_us must be a nonnegative 2-D array summing to 1")
    return 1.0 - float(J.max(axis=0).sum())


def fano_lower_bound(info_bits, n=None, *, beta_u=None):
    r"""Generalised Fano lower bound on the Bayes error (Prop. 3.7, Cor. 3.9).

    General prior (Eqs. 9, 11; Eq. 11 printed with the wrong sign in the paper):

    .. math:: \beta_{U|S} \ge 1 + \frac{I + 1}{\log(1-\beta_U)}

    and for a uniform prior over n users (Eqs. 10, 12): :math:`1 - (I+1)/\log n`.
    ``info_bits`` is I(U;S), I(U;Y) or alpha in **bits**.  Pass exactly one of ``n``, ``beta_u``.
    """
    I = np.asarray(info_bits, dtype=float)
    if np.any(I < 0) or not np.all(np.isfinite(I)):
        raise ValueError("info_bits must be finite and >= 0")
    if (n is None) == (beta_u is None):
        raise ValueError("pass exactly one of n (uniform prior) or beta_u")
    if n is not None:
        denom = -math.log2(_size(n, "n"))
    else:
        b = float(beta_u)
        if not 0 < b < 1:
            raise ValueError(f"beta_u must lie in (0, 1), got {beta_u}")
        denom = math.log2(1 - b)
    return _ret(1 + (I + 1) / denom)


def alpha_for_target_bayes_error(beta, n, *, unit: str = "bits") -> float:
    r"""Largest alpha whose Cor. 3.9 bound (Eq. 12) guarantees :math:`\beta_{U|S} \ge \beta`.

    bits: :math:`\alpha = (1-\beta)\log_2 n - 1`; nats: :math:`(1-\beta)\ln n - \ln 2` (the paper's
    worked example 2.07 / 6.21 for n = 1e6 uses nats).
    """
    b = float(beta)
    if not 0 <= b < 1:
        raise ValueError(f"beta must lie in [0, 1), got {beta}")
    n = _size(n, "n")
    if unit == "bits":
        return (1 - b) * math.log2(n) - 1
    if unit == "nats":
        return (1 - b) * math.log(n) - math.log(2)
    raise ValueError(f"unit must be 'bits' or 'nats', got {unit!r}")


def theta_for_target_bayes_error(beta, n, k) -> float:
    r"""MI loss parameter theta such that theta min(log n, log k) meets the Eq. 12 target beta."""
    a = alpha_for_target_bayes_error(beta, n)
    if a <= 0:
        raise ValueError(f"no alpha > 0 guarantees beta = {beta} with n = {n}")
    return a / _log2_min(n, k)


def score_joint(joint_uy, scores, *, decimals: int = 12) -> np.ndarray:
    """Joint p(u, s) of a deterministic score map s = phi(y).

    ``scores`` has shape (n_users, m): column y is the score vector s(y).  Outputs with identical
    (rounded) score vectors are merged (spec A5).
    """
    J = np.asarray(joint_uy, dtype=float)
    S = np.asarray(scores, dtype=float)
    if J.ndim != 2 or S.ndim != 2 or S.shape[1] != J.shape[1]:
        raise ValueError("scores must have one column per output y of joint_uy")
    _, inv = np.unique(np.round(S.T, decimals), axis=0, return_inverse=True)
    inv = inv.ravel()
    out = np.zeros((J.shape[0], inv.max() + 1))
    np.add.at(out.T, inv, J.T)
    return out


def score_vector_mi(joint_uy, scores, *, unit: str = "bits") -> float:
    """PSE for a discrete system: I(U;S) with S = (s_1(Y), ..., s_n(Y)) deterministic (Eq. 6)."""
    from ldpnb.measures.information import mutual_information_joint

    return float(mutual_information_joint(score_joint(joint_uy, scores), unit=unit))


# ---------------------------------------------------------------------------------------------
# alpha-PIE (App. C.1)
# ---------------------------------------------------------------------------------------------
def pie_alpha_from_ldp(eps: float, n: int, k: int) -> float:
    r"""Proposition 3 (App. C): eps-LDP implies (U, alpha)-PIE with
    :math:`\alpha = \min\{\epsilon\log_2 e, \epsilon^2\log_2 e, \log_2 n, \log_2 k_j\}` (bits)."""
    eps = md._check_eps(eps)
    n = check_positive_int(n, "n", minimum=1)
    k = check_domain_size(k)
    l2e = np.log2(np.e)
    return float(min(eps * l2e, eps ** 2 * l2e, np.log2(n), np.log2(k)))


def bayes_error_bound(alpha: float, n: int) -> float:
    r"""Corollary 2 (Eq. 11): :math:`\beta_{U|S} \ge 1 - (\alpha+1)/\log_2 n`.

    ``alpha`` (bits) finite and >= 0; ``n`` an integer >= 2 (``log2 n = 0`` for a single user).
    """
    alpha = check_nonnegative(alpha, "alpha")
    n = check_positive_int(n, "n", minimum=2)
    return float(1.0 - (alpha + 1.0) / np.log2(n))


def eps_from_bayes_error(beta: float, n_d: int, k: int) -> float:
    r"""Per-attribute budget for a target Bayes error (artifact mapping, spec §2.10).

    :math:`\alpha = (1-\beta)\log_2 n_d + 1`, :math:`m = \min(\log_2 n_d, \log_2 k)`; if
    :math:`\alpha > m` no randomization is needed (returns ``inf``: value sent in clear), else
    :math:`\epsilon = \ln\frac{(k-1)\alpha + m}{m - \alpha}` — the inverse of the GRR PIE bound
    :math:`\alpha = m(e^\epsilon-1)/(e^\epsilon+k-1)`.  Note: Eq. (11) solved for alpha gives
    ``(1-beta) log2 n - 1``; the artifact uses ``+1`` (reproduced here, flagged in the chapter).
    """
    if not 0 < beta < 1:
        raise ValueError("beta must lie in (0, 1)")
    n_d = check_positive_int(n_d, "n_d", minimum=2)
    k = check_domain_size(k)
    alpha = (1 - beta) * np.log2(n_d) + 1
    m = min(np.log2(n_d), np.log2(k))
    if alpha >= m:
        return float("inf")
    return float(np.log(((k - 1) * alpha + m) / (m - alpha)))
