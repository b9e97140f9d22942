"""Re-identification risk in the local model: PIE (the mutual information between user and
report), its bounds for LDP, RR and GLH, and Fano bounds on the Bayes error of re-identification.

Murakami and Takahashi (2021), Sections 3-4; the PIE reading of LDP in Arcolezi et al. (2023), App. C.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from ldpnb.contracts import (
    DECIMALS,
    EPSILON,
    NONNEGATIVE,
    POSITIVE,
    AnyOf,
    Array,
    Channel,
    Distribution,
    Integer,
    OneOf,
    Optional,
    Real,
    contract,
)
from ldpnb.measures.information import channel_capacity, entropy, mutual_information_joint

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


_TINY = float(np.finfo(float).tiny)
#: epsilon: a number > 0 or an array of them (the bounds are vectorised over epsilon)
_EPS = AnyOf(EPSILON, Array((0, 1), low=_TINY))
#: epsilon >= 0 (Prop. 4.1 and Lemma B.2 are defined at 0)
_EPS0 = AnyOf(NONNEGATIVE, Array((0, 1), low=0))
_N = Integer(1, 1 << 53)
_K = Integer(2, 1 << 53)
#: the GLH's hash range: an integer >= 2 (an integral float array is accepted, g = 2.5 is refused)
_G = AnyOf(Integer(2, 1 << 53), Array((0, 1), low=2, integer=True))
#: a size (k or g) of the inverse formula eps_from_theta, real >= 2: its continuous relaxation in g
#: draws Eq. (51) as a curve over g (Fig. 12)
_SIZE_REAL = AnyOf(Integer(2, 1 << 53), Array((0, 1), low=2))
_UNIT = OneOf("bits", "nats")
_T = Integer(1, 1 << 53)


def _ret(x):
    x = np.asarray(x, dtype=float)
    return float(x) if x.ndim == 0 else x


# ---------------------------------------------------------------------------------------------
# MI loss parameters and privacy levels
# ---------------------------------------------------------------------------------------------


def _theta(size, epsilon):
    """``(e^eps - 1) / (size + e^eps - 1)`` written as ``1 / (1 + size e^-eps / (1 - e^-eps))``: finite
    for every eps >= 0 (the direct form is inf/inf = NaN past eps = 709)."""
    e = np.asarray(epsilon, dtype=float)
    with np.errstate(divide="ignore"):
        r = size * np.exp(-e) / -np.expm1(-e)
    return 1.0 / (1.0 + r)


@contract(k=_K, epsilon=_EPS)
def theta_rr(k, epsilon):
    r"""MI loss parameter of the eps-RR: :math:`\theta_{RR} = (e^\varepsilon-1)/(k+e^\varepsilon-1)`.

    The k-RR outputs the true value with probability theta and a uniform draw from X otherwise
    (Murakami & Takahashi 2021, Section 4.2).  Vectorised over ``epsilon``.
    """
    return _ret(_theta(k, epsilon))


@contract(g=_G, epsilon=_EPS)
def theta_glh(g, epsilon):
    r"""MI loss parameter of the (g, eps)-GLH: :math:`\theta_{GLH} = (e^\varepsilon-1)/(g+e^\varepsilon-1)`.

    Given the hash h, the GLH reports h(x) with probability theta and a uniform draw from [g]
    otherwise (Murakami & Takahashi 2021, Section 4.3).  Vectorised over ``g`` and ``epsilon``.
    """
    return _ret(_theta(np.asarray(g, dtype=float), epsilon))


@contract(
    theta=AnyOf(Real(0, 1, low_open=True, high_open=True), Array((0, 1), low=_TINY, high=1 - 1e-16)), size=_SIZE_REAL
)
def eps_from_theta(theta, size):
    r"""Inverse of :func:`theta_rr` / :func:`theta_glh`: :math:`\varepsilon = \ln(1 + \theta\,s/(1-\theta))`.

    ``size`` is k for the RR and g for the GLH; a real size >= 2 is accepted (the formula is smooth in
    it: the continuous relaxation draws Eq. (51) as a curve over g), where :func:`theta_glh` and
    :func:`alpha_glh`, about a mechanism, take an integer hash range.
    """
    t = np.asarray(theta, dtype=float)
    s = np.asarray(size, dtype=float)
    return _ret(np.log1p(t * s / (1 - t)))


def _log2_min(n, k) -> float:
    return math.log2(min(n, k))


@contract(epsilon=_EPS0, n=_N, k=_K)
def alpha_ldp_generic(epsilon, n, k):
    r"""Prop. 4.1 (Eq. 14): every eps-LDP channel gives (U, alpha)-PIE privacy with

    .. math:: \alpha = \min\{\varepsilon\log e,\ \varepsilon^2\log e,\ \log n,\ \log k\}\ \text{bits}.
    """
    e = np.asarray(epsilon, dtype=float)
    return _ret(np.minimum(np.minimum(e, e * e) * LOG2E, _log2_min(n, k)))


@contract(epsilon=_EPS, n=_N, k=_K, t=_T)
def alpha_rr(epsilon, n, k, t: int = 1):
    r"""Thm 4.2 (Eq. 16) and Thm 4.3 (t reports): :math:`\alpha = t\,\theta_{RR}\min\{\log n,\log k\}` bits."""
    return _ret(t * np.asarray(theta_rr(k, epsilon)) * _log2_min(n, k))


@contract(epsilon=_EPS, n=_N, k=_K, g=_G, t=_T)
def alpha_glh(epsilon, n, k, g, t: int = 1):
    r"""Thm 4.4 (Eq. 18) and Thm 4.5 (t reports): :math:`\alpha = t\,\theta_{GLH}\min\{\log n,\log k\}` bits.

    Vectorised over ``epsilon`` and ``g``."""
    return _ret(t * np.asarray(theta_glh(g, epsilon)) * _log2_min(n, k))


@contract(alpha=AnyOf(NONNEGATIVE, Array((0, 1), low=0)), t=_T)
def alpha_composed(alpha, t: int):
    """Composition (Thms 4.3, 4.5): t reports of a mechanism with level alpha give t * alpha."""
    return _ret(np.asarray(alpha, dtype=float) * t)


@contract(epsilon=_EPS0, unit=_UNIT)
def mi_ldp_bound(epsilon, *, unit: str = "bits"):
    r"""Lemma B.2 (Cuff & Yu, local form): eps-LDP implies :math:`I(X;Y)\le\min\{\varepsilon,\varepsilon^2\}` nats."""
    e = np.asarray(epsilon, dtype=float)
    return _ret(np.minimum(e, e * e) * _unit_scale(unit))


@contract(n=_N, k=_K, epsilon=EPSILON, unit=_UNIT)
def alpha_star_rr(n, k, epsilon, *, unit: str = "bits") -> float:
    r"""Tight PIE level of the eps-RR: the n-restricted capacity (a derived fact, not in the paper).

    For fixed p_U, I(U;Y) is convex in p_{Y|U}, so the sup over p_{U,X} is attained at
    deterministic X = f(U); by symmetry the best input is uniform on m = min(n, k) symbols:

    .. math:: \alpha^* = H(P_Y) - H(\mu,\nu,\dots,\nu),\quad
              P_Y = (a^{\times m}, \nu^{\times(k-m)}),\ a = (\mu+(m-1)\nu)/m.

    Computed in the log domain with :math:`t = e^{-\varepsilon}`: :math:`\log\mu = -\log(1+(k-1)t)`,
    :math:`\log\nu = -\varepsilon + \log\mu`, :math:`\log a = \log(1+(m-1)t) + \log\mu - \log m`,
    finite at every finite epsilon (``e^eps`` overflowed past eps = 709); as eps grows it tends to
    :math:`\log m`.

    >>> round(alpha_star_rr(10, 4, 1.0), 6), round(alpha_star_rr(10, 4, 1e4), 6)  # bits; log2(4) = 2
    (0.170228, 2.0)
    """
    m = min(n, k)
    t = math.exp(-epsilon)  # underflows to 0 past eps = 745: the limit, exactly
    log_mu = -math.log1p((k - 1) * t)
    log_nu = -epsilon + log_mu
    mu, nu = math.exp(log_mu), math.exp(log_nu)
    log_a = math.log1p((m - 1) * t) + log_mu - math.log(m)
    a = math.exp(log_a)
    h_row = -(mu * log_mu + (k - 1) * nu * log_nu)
    h_y = -(m * a * log_a + (k - m) * nu * log_nu)
    return max(h_y - h_row, 0.0) * _unit_scale(unit)


@contract(channel=Channel(max_size=1 << 20), n=_N, unit=_UNIT, tol=POSITIVE)
def restricted_capacity(channel, n: int, *, unit: str = "bits", tol: float = 1e-12) -> float:
    r"""Tightest alpha of (U, alpha)-PIE privacy for a channel and ``|U| = n``: the n-restricted capacity.

    :math:`\alpha^*(Q,n) = \max_{p_X:|\mathrm{supp}\,p_X|\le n} I(X;Y)`: Blahut-Arimoto on every
    row subset of size min(n, k) (brute force; tiny k only, at most 10,000 subsets).  Uses
    :func:`ldpnb.measures.channel_capacity`.
    """
    Q = np.asarray(channel, dtype=float)
    k = Q.shape[0]
    if n < k and math.comb(k, n) > 10_000:
        raise ValueError(f"n: {math.comb(k, n):,} row subsets of size n = {n} (at most 10,000 for the brute force)")
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


@contract(p_u=Distribution(), p_x_given_u=Channel())
def joint_ux(p_u, p_x_given_u) -> np.ndarray:
    """Joint p(u, x) = p_U(u) p_{X|U=u}(x) (n x k)."""
    p_u, P = np.asarray(p_u, dtype=float), np.asarray(p_x_given_u, dtype=float)
    if P.shape[0] != p_u.size:
        raise ValueError(f"p_x_given_u must have one row per entry of p_u ({p_u.size}), got {P.shape[0]}")
    return p_u[:, None] * P


@contract(p_u=Distribution(), p_x_given_u=Channel(), channel=Channel())
def joint_uy(p_u, p_x_given_u, channel) -> np.ndarray:
    """Joint p(u, y) = sum_x p_U(u) p_{X|U=u}(x) Q(y|x) of the Markov chain U -> X -> Y (n x m)."""
    J = joint_ux(p_u, p_x_given_u)
    Q = np.asarray(channel, dtype=float)
    if Q.shape[0] != J.shape[1]:
        raise ValueError(f"channel must have one row per column of p_x_given_u ({J.shape[1]}), got {Q.shape[0]}")
    return J @ Q


@contract(p_u=Distribution(), p_x_given_u=Channel(), channel=Channel(), unit=_UNIT)
def pie(p_u, p_x_given_u, channel, *, unit: str = "bits") -> float:
    r"""PIE (Eq. 4): :math:`I(U;Y)` for the Markov chain U -> X -> Y, exact.

    Equals :math:`\sum_i p_U(u_i) D(p_{Y|U=u_i}\|p_Y)` (Eq. 27).
    """
    return float(mutual_information_joint(joint_uy(p_u, p_x_given_u, channel), unit=unit))


@contract(p_u=Distribution(), p_x_given_u=Channel(), unit=_UNIT)
def mi_ux(p_u, p_x_given_u, *, unit: str = "bits") -> float:
    """I(U;X) for the joint p_U p_{X|U}."""
    return float(mutual_information_joint(joint_ux(p_u, p_x_given_u), unit=unit))


@contract(joint_abc=Array(3, low=0), unit=_UNIT)
def conditional_mutual_information(joint_abc, *, unit: str = "bits") -> float:
    r"""I(A;C|B) from a 3-D joint ``p[a, b, c]``: H(A,B) + H(B,C) - H(B) - H(A,B,C)."""
    p = np.asarray(joint_abc, dtype=float)
    if abs(p.sum() - 1) > 1e-9:
        raise ValueError(f"joint_abc must sum to 1, got {p.sum():.12g}")
    h = lambda q: float(entropy(q.ravel(), unit=unit))  # noqa: E731
    return h(p.sum(axis=2)) + h(p.sum(axis=0)) - h(p.sum(axis=(0, 2))) - h(p)


@contract(p_ux1x2=Distribution(ndim=3), channel1=Channel(), channel2=Channel())
def composed_joint(p_ux1x2, channel1, channel2) -> np.ndarray:
    """p(u, y1, y2) = sum_{x1,x2} p(u, x1, x2) Q1(y1|x1) Q2(y2|x2) (two independent obfuscations,
    the setting of Thms 4.3 and 4.5)."""
    p = np.asarray(p_ux1x2, dtype=float)
    Q1, Q2 = np.asarray(channel1), np.asarray(channel2)
    if Q1.shape[0] != p.shape[1] or Q2.shape[0] != p.shape[2]:
        raise ValueError(f"channel1/channel2 must have {p.shape[1]}/{p.shape[2]} rows, got {Q1.shape[0]}/{Q2.shape[0]}")
    return np.einsum("uab,ay,bz->uyz", p, Q1, Q2, optimize=True)


# ---------------------------------------------------------------------------------------------
# Bayes error and the generalised Fano bounds
# ---------------------------------------------------------------------------------------------


@contract(p_u=Distribution())
def bayes_error_prior(p_u) -> float:
    r""":math:`\beta_U = 1 - \max_i p_U(u_i)` (error of guessing without observation)."""
    return 1.0 - float(np.max(p_u))


@contract(joint_us=Array(2, low=0))
def bayes_error_posterior(joint_us) -> float:
    r""":math:`\beta_{U|S} = 1 - \sum_s \max_u p(u, s)` for a discrete joint ``p[u, s]``."""
    J = np.asarray(joint_us, dtype=float)
    if abs(J.sum() - 1) > 1e-9:
        raise ValueError(f"joint_us must sum to 1, got {J.sum():.12g}")
    return 1.0 - float(J.max(axis=0).sum())


@contract(
    info_bits=AnyOf(NONNEGATIVE, Array((0, 1), low=0)),
    n=Optional(Integer(2, 1 << 53)),
    beta_u=Optional(Real(0, 1, low_open=True, high_open=True)),
)
def fano_lower_bound(info_bits, n=None, *, beta_u=None):
    r"""Generalised Fano lower bound on the Bayes error (Prop. 3.7, Cor. 3.9).

    General prior (Eqs. 9, 11; Eq. 11 printed with the wrong sign in the paper):

    .. math:: \beta_{U|S} \ge 1 + \frac{I + 1}{\log(1-\beta_U)}

    and for a uniform prior over n users (Eqs. 10, 12): :math:`1 - (I+1)/\log n`.
    ``info_bits`` is I(U;S), I(U;Y) or alpha in **bits**.  Pass exactly one of ``n``, ``beta_u``.
    """
    I = np.asarray(info_bits, dtype=float)
    if (n is None) == (beta_u is None):
        raise ValueError("pass exactly one of n (uniform prior) or beta_u")
    denom = -math.log2(n) if n is not None else math.log2(1 - beta_u)
    return _ret(1 + (I + 1) / denom)


@contract(beta=Real(0, 1, high_open=True), n=Integer(2, 1 << 53), unit=_UNIT)
def alpha_for_target_bayes_error(beta, n, *, unit: str = "bits") -> float:
    r"""Largest alpha whose Cor. 3.9 bound (Eq. 12) guarantees :math:`\beta_{U|S} \ge \beta`.

    bits: :math:`\alpha = (1-\beta)\log_2 n - 1`; nats: :math:`(1-\beta)\ln n - \ln 2` (the paper's
    worked example 2.07 / 6.21 for n = 1e6 uses nats).
    """
    if unit == "bits":
        return (1 - beta) * math.log2(n) - 1
    return (1 - beta) * math.log(n) - math.log(2)


@contract(beta=Real(0, 1, high_open=True), n=Integer(2, 1 << 53), k=_K)
def theta_for_target_bayes_error(beta, n, k) -> float:
    r"""MI loss parameter theta such that theta min(log n, log k) meets the Eq. 12 target beta."""
    a = alpha_for_target_bayes_error(beta, n)
    if a <= 0:
        raise ValueError(f"no alpha > 0 guarantees beta = {beta} with n = {n}")
    return a / _log2_min(n, k)


@contract(joint_uy=Distribution(ndim=2), scores=Array(2), decimals=DECIMALS)
def score_joint(joint_uy, scores, *, decimals: int = 12) -> np.ndarray:
    """Joint p(u, s) of a deterministic score map s = phi(y).

    ``scores`` has shape (n_users, m): column y is the score vector s(y).  Outputs with identical
    (rounded) score vectors are merged: the score vector S is a deterministic function of Y (Prop. 3.3).
    """
    J = np.asarray(joint_uy, dtype=float)
    S = np.asarray(scores, dtype=float)
    if S.shape[1] != J.shape[1]:
        raise ValueError("scores must have one column per output y of joint_uy")
    _, inv = np.unique(np.round(S.T, decimals), axis=0, return_inverse=True)
    inv = inv.ravel()
    out = np.zeros((J.shape[0], inv.max() + 1))
    np.add.at(out.T, inv, J.T)
    return out


@contract(joint_uy=Distribution(ndim=2), scores=Array(2), unit=_UNIT)
def score_vector_mi(joint_uy, scores, *, unit: str = "bits") -> float:
    """PSE for a discrete system: I(U;S) with S = (s_1(Y), ..., s_n(Y)) deterministic (Eq. 6)."""
    return float(mutual_information_joint(score_joint(joint_uy, scores), unit=unit))


# ---------------------------------------------------------------------------------------------
# alpha-PIE (App. C.1)
# ---------------------------------------------------------------------------------------------
@contract(eps=EPSILON, n=_N, k=_K)
def pie_alpha_from_ldp(eps: float, n: int, k: int) -> float:
    r"""Proposition 3 (App. C): eps-LDP implies (U, alpha)-PIE with
    :math:`\alpha = \min\{\epsilon\log_2 e, \epsilon^2\log_2 e, \log_2 n, \log_2 k_j\}` (bits)."""
    l2e = np.log2(np.e)
    return float(min(eps * l2e, eps**2 * l2e, np.log2(n), np.log2(k)))


@contract(alpha=NONNEGATIVE, n=Integer(2, 1 << 53))
def bayes_error_bound(alpha: float, n: int) -> float:
    r"""Corollary 2 (Eq. 11): :math:`\beta_{U|S} \ge 1 - (\alpha+1)/\log_2 n`.

    ``alpha`` (bits) finite and >= 0; ``n`` an integer >= 2 (``log2 n = 0`` for a single user).
    """
    return float(1.0 - (alpha + 1.0) / np.log2(n))


@contract(beta=Real(0, 1, low_open=True, high_open=True), n_d=Integer(2, 1 << 53), k=_K)
def eps_from_bayes_error(beta: float, n_d: int, k: int) -> float:
    r"""Per-attribute budget for a target Bayes error (the mapping of Arcolezi et al. 2023's artifact).

    :math:`\alpha = (1-\beta)\log_2 n_d + 1`, :math:`m = \min(\log_2 n_d, \log_2 k)`; if
    :math:`\alpha > m` no randomization is needed (returns ``inf``: value sent in clear), else
    :math:`\epsilon = \ln\frac{(k-1)\alpha + m}{m - \alpha}` — the inverse of the GRR PIE bound
    :math:`\alpha = m(e^\epsilon-1)/(e^\epsilon+k-1)`.  Note: Eq. (11) solved for alpha gives
    ``(1-beta) log2 n - 1``; the artifact uses ``+1`` (reproduced here, flagged in the chapter).
    """
    alpha = (1 - beta) * np.log2(n_d) + 1
    m = min(np.log2(n_d), np.log2(k))
    if alpha >= m:
        return float("inf")
    return float(np.log(((k - 1) * alpha + m) / (m - alpha)))
