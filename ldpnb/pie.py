"""PIE: re-identification risk in the local privacy model (Murakami & Takahashi, 2021).

Reference: T. Murakami and K. Takahashi, "Toward Evaluating Re-identification Risks in the
Local Privacy Model", *Transactions on Data Privacy* 14 (2021) 79-116.  Equation numbers below
are the paper's.

This module holds the exact, discrete part of the paper:

* the information quantities of the obfuscation framework: ``PIE = I(U;Y)`` (Eq. 4) for a
  prior ``p_U``, per-user data distributions ``p_{X|U}`` and a channel ``Q``; the composed
  quantities of Theorems 4.3 / 4.5 (Eq. 34);
* the privacy levels: Prop. 4.1 (Eq. 14), Thm 4.2 (Eq. 16), Thm 4.4 (Eq. 18), the Lemma B.2
  bound ``min(eps, eps^2) log e`` and the tight level ``alpha*(Q, n)`` (the n-restricted
  capacity);
* Bayes errors and the generalised Fano bounds of Prop. 3.7 and Cor. 3.9 (Eqs. 9-12; Eq. 11
  with its sign corrected);
* the utility analysis of Section 4.4: the empirical estimators (Eqs. 19, 20), the Bonferroni
  significance threshold (emp+thr), the l2 losses of Props. 4.6, 4.7 and Thm 4.8 (Eqs. 22-24,
  51) and exact count-level simulators for the k-RR and the GLH with a truly random hash
  family (usable at the paper's scale, k = 10.5 million, g up to 2e9).

Units: every information quantity takes ``unit="bits"`` or ``unit="nats"`` explicitly.  The
paper's alpha is in bits; the "+1" of Fano's inequality is one bit.

The identification side (Markov-chain matcher, PSE estimators, DET curves, error rates) lives in
:mod:`ldpnb.pie_ident`.
"""

from __future__ import annotations

import itertools
import math
from typing import Callable

import numpy as np
from scipy import special, stats

from ldpnb.utils import (
    check_channel,
    check_counts,
    check_distribution,
    check_domain_size,
    check_epsilon,
    check_finite_array,
    check_positive_int,
    check_random_state,
)

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
    "gaussian_score_mc",
    "random_ldp_channel",
    "glh_params",
    "rr_params",
    "simulate_rr_counts",
    "simulate_glh_support_counts",
    "empirical_estimate",
    "significance_threshold",
    "threshold_estimate",
    "rr_variance",
    "glh_variance",
    "glh_variance_fixed_theta",
    "glh_variance_limit",
    "rr_loss_sum",
    "glh_loss_sum",
    "top_indices",
    "sum_l2_top",
    "mean_relative_error_top",
    "zipf_profile",
    "sample_empirical",
    "UtilityPopulation",
    "utility_run",
    "synthetic_population",
    "utility_task",
    "theorem_checks",
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
    from ldpnb.info import channel_capacity

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
    from ldpnb.info import mutual_information_joint

    return float(mutual_information_joint(joint_uy(p_u, p_x_given_u, channel), unit=unit))


def mi_ux(p_u, p_x_given_u, *, unit: str = "bits") -> float:
    """I(U;X) for the joint p_U p_{X|U}."""
    from ldpnb.info import mutual_information_joint

    return float(mutual_information_joint(joint_ux(p_u, p_x_given_u), unit=unit))


def conditional_mutual_information(joint_abc, *, unit: str = "bits") -> float:
    r"""I(A;C|B) from a 3-D joint ``p[a, b, c]``: H(A,B) + H(B,C) - H(B) - H(A,B,C)."""
    from ldpnb.info import entropy

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
    from ldpnb.info import mutual_information_joint

    return float(mutual_information_joint(score_joint(joint_uy, scores), unit=unit))


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
# Utility: estimators, variances, exact count simulators (Section 4.4)
# ---------------------------------------------------------------------------------------------


def rr_params(k, epsilon) -> tuple[float, float]:
    """(mu, nu) of the eps-RR (Eq. 2): mu = e^eps/(k+e^eps-1), nu = 1/(k+e^eps-1)."""
    k = _size(k, "k")
    eps = check_epsilon(epsilon)
    em1 = math.expm1(eps)
    return (em1 + 1) / (k + em1), 1.0 / (k + em1)


def glh_params(g, epsilon) -> tuple[float, float]:
    """(mu, nu) of the (g, eps)-GLH estimator (Eq. 20): mu = e^eps/(g+e^eps-1), nu = 1/g."""
    g = _size(g, "g")
    eps = check_epsilon(epsilon)
    em1 = math.expm1(eps)
    return (em1 + 1) / (g + em1), 1.0 / g


def simulate_rr_counts(input_counts, epsilon, *, rng=None) -> np.ndarray:
    """Exact count-level simulation of n eps-RR reports (spec A3), O(n + k).

    Mixture view: each user keeps her value with probability theta_RR, else reports a uniform
    draw from X.  Kept counts are Binomial(c_x, theta) per cell; the re-drawn reports are
    placed uniformly.  Equal in law to per-user perturbation followed by a histogram.
    """
    rng = check_random_state(rng)
    c = check_counts(input_counts, "input_counts")
    return _rr_counts(c, np.flatnonzero(c), epsilon, rng)


def _rr_counts(c: np.ndarray, nz: np.ndarray, epsilon: float, rng: np.random.Generator) -> np.ndarray:
    k = c.size
    kept = rng.binomial(c[nz], theta_rr(k, epsilon))
    n_rand = int(c.sum() - kept.sum())
    out = np.bincount(rng.integers(0, k, size=n_rand), minlength=k)
    out[nz] += kept
    return out


def _zero_truncated_binomial(n: int, p: float, size: int, rng: np.random.Generator) -> np.ndarray:
    """Draws from Binomial(n, p) conditioned on >= 1 (inverse CDF on the pmf, tail < 1e-17)."""
    lam = n * p
    jmax = int(max(10, lam + 12 * math.sqrt(lam + 1) + 20))
    j = np.arange(1, min(jmax, n) + 1)
    pmf = stats.binom.pmf(j, n, p)
    cdf = np.cumsum(pmf)
    cdf /= cdf[-1]
    return j[np.minimum(np.searchsorted(cdf, rng.random(size), side="right"), j.size - 1)]


def simulate_glh_support_counts(input_counts, g, epsilon, *, rng=None) -> np.ndarray:
    r"""Exact simulation of the GLH support counts with a truly random hash family (spec A3).

    For one user the indicators 1[h(x) = y] are Bernoulli(mu_GLH) at her own x and i.i.d.
    Bernoulli(1/g) at every other x, so, independently over x,

    .. math:: c_{GLH}(x) \sim \mathrm{Bin}(n p(x), \mu_{GLH}) + \mathrm{Bin}(n(1-p(x)), 1/g).

    Cells with p(x) = 0 share the law Bin(n, 1/g); when it is mostly 0 we draw how many of them
    are non-zero, where, and their zero-truncated values (equal in law, much faster for k = 1e7).
    """
    rng = check_random_state(rng)
    c = check_counts(input_counts, "input_counts")
    nz = c > 0
    return _glh_counts(c, np.flatnonzero(nz), np.flatnonzero(~nz), _size(g, "g"), epsilon, rng)


def _glh_counts(c, nz, zero, g: float, epsilon: float, rng: np.random.Generator) -> np.ndarray:
    mu, nu = glh_params(g, epsilon)
    n = int(c.sum())
    out = np.zeros(c.size, dtype=np.int64)
    out[nz] = rng.binomial(c[nz], mu) + rng.binomial(n - c[nz], nu)
    if zero.size:
        q = -math.expm1(n * math.log1p(-nu))  # Pr(Bin(n, nu) >= 1)
        if q > 0.2:
            out[zero] = rng.binomial(n, nu, size=zero.size)
        else:
            m = rng.binomial(zero.size, q)
            if m:
                where = zero[rng.choice(zero.size, size=m, replace=False)]
                out[where] = _zero_truncated_binomial(n, nu, m, rng)
    return out


def empirical_estimate(counts, n: int, mu: float, nu: float) -> np.ndarray:
    r"""emp estimator (Eqs. 19, 20): :math:`\hat p(x) = (c(x)/n - \nu)/(\mu - \nu)` (unbiased, not normalised).

    ``counts`` (support counts, one row per repetition if 2-D) finite and >= 0; ``n`` an integer >= 1.
    """
    c = check_finite_array(counts, "counts")
    if c.ndim not in (1, 2):
        raise ValueError(f"counts must be 1-D (or 2-D, one row per repetition), got shape {c.shape}")
    if np.any(c < 0):
        raise ValueError(f"counts must be nonnegative (min {c.min():.3g})")
    n = _size(n, "n", 1)
    if not mu > nu:
        raise ValueError("mu must exceed nu")
    return (c / n - nu) / (mu - nu)


def significance_threshold(n: int, mu: float, nu: float, k_candidates: int, alpha: float = 0.05) -> float:
    r"""Bonferroni significance threshold of emp+thr (spec Section 2.6 default).

    :math:`T = \Phi^{-1}(1 - \alpha/k)\sqrt{\mathrm{Var}_0}` with
    :math:`\mathrm{Var}_0 = \nu(1-\nu)/(n(\mu-\nu)^2)`, the variance of :math:`\hat p(x)` at
    p(x) = 0 (first term of Eq. 22 for the RR, of Eq. 23 for the GLH).
    """
    n = _size(n, "n", 1)
    k_candidates = _size(k_candidates, "k_candidates", 1)
    if not 0 < alpha < 1:
        raise ValueError("alpha must lie in (0, 1)")
    z = stats.norm.isf(alpha / k_candidates)
    return float(z * math.sqrt(nu * (1 - nu) / (n * (mu - nu) ** 2)))


def threshold_estimate(p_hat, T: float) -> np.ndarray:
    """emp+thr: estimates below the significance threshold T are set to 0 (NaN refused)."""
    p = check_finite_array(p_hat, "p_hat").astype(float, copy=True)
    if isinstance(T, bool) or not isinstance(T, (int, float, np.integer, np.floating)) or not np.isfinite(T):
        raise ValueError(f"T (threshold) must be a finite real number, got {T!r}")
    p[p < T] = 0.0
    return p


def rr_variance(p, n, k, epsilon):
    r"""Prop. 4.6 (Eq. 22): :math:`E[(p(x)-\hat p_{RR}(x))^2] = \frac{k+E-2}{n(E-1)^2} + \frac{p(x)(k-2)}{n(E-1)}`."""
    p = np.asarray(p, dtype=float)
    em1 = np.expm1(_eps_array(epsilon))
    return (k + em1 - 1) / (n * em1**2) + p * (k - 2) / (n * em1)


def glh_variance(p, n, g, epsilon):
    r"""Prop. 4.7 (Eq. 23): :math:`\frac{(g+E-1)^2}{n(E-1)^2(g-1)} + \frac{p(x)(g^2-2g-E+1)}{n(E-1)(g-1)}`."""
    p = np.asarray(p, dtype=float)
    em1 = np.expm1(_eps_array(epsilon))
    g = np.asarray(g, dtype=float)
    if np.any(g < 2):
        raise ValueError("g must be >= 2")
    # g^2 - 2g - E + 1 = (g-1)^2 - E = (g-1)^2 - (E-1) - 1
    return (g + em1) ** 2 / (n * em1**2 * (g - 1)) + p * ((g - 1) ** 2 - em1 - 1) / (n * em1 * (g - 1))


def glh_variance_fixed_theta(p, n, g, theta):
    r"""Eq. (51): at fixed theta_GLH, :math:`\frac{1-p\theta}{n\theta^2(g-1)} + \frac{p(1-\theta)}{n\theta}` (Thm 4.8)."""
    p = np.asarray(p, dtype=float)
    return (1 - p * theta) / (n * theta**2 * (np.asarray(g, dtype=float) - 1)) + p * (1 - theta) / (n * theta)


def glh_variance_limit(p, n, theta):
    r"""Eq. (24): the g -> infinity limit :math:`p(x)(1-\theta)/(n\theta)` of Eq. (51)."""
    return np.asarray(p, dtype=float) * (1 - theta) / (n * theta)


def rr_loss_sum(mass, n_symbols, n, k, epsilon):
    r"""Sum of Eq. (22) over a set of ``n_symbols`` symbols with total true mass ``mass``.

    Eq. (22) is affine in p(x), so the sum is ``n_symbols`` x first term + ``mass`` x slope.
    """
    em1 = np.expm1(_eps_array(epsilon))
    return n_symbols * (k + em1 - 1) / (n * em1**2) + np.asarray(mass, dtype=float) * (k - 2) / (n * em1)


def glh_loss_sum(mass, n_symbols, n, g, epsilon):
    r"""Sum of Eq. (23) over a set of ``n_symbols`` symbols with total true mass ``mass`` (affine in p)."""
    em1 = np.expm1(_eps_array(epsilon))
    g = np.asarray(g, dtype=float)
    return (n_symbols * (g + em1) ** 2 / (n * em1**2 * (g - 1))
            + np.asarray(mass, dtype=float) * ((g - 1) ** 2 - em1 - 1) / (n * em1 * (g - 1)))


def top_indices(p, phi: int | None) -> np.ndarray:
    """Indices of the phi symbols with the largest true p (all symbols if phi is None or >= k)."""
    p = np.asarray(p)
    if phi is None or phi >= p.size:
        return np.arange(p.size)
    idx = np.argpartition(-p, phi - 1)[:phi]
    return idx[np.argsort(-p[idx], kind="stable")]


def sum_l2_top(p, p_hat, phi: int | None) -> float:
    """Sum of squared errors over the top-phi symbols of the true p (Figs. 10, 12); NaN refused."""
    p = check_finite_array(p, "p")
    p_hat = check_finite_array(p_hat, "p_hat")
    if p.shape != p_hat.shape:
        raise ValueError(f"p and p_hat must have the same shape, got {p.shape} and {p_hat.shape}")
    if phi is None or phi >= p.size:
        d = p - p_hat
    else:
        idx = top_indices(p, phi)
        d = p[idx] - p_hat[idx]
    return float(d @ d)


def mean_relative_error_top(p, p_hat, m: int = 20) -> float:
    """Mean over the top-m symbols of |p(x) - p_hat(x)|/p(x) (Fig. 11)."""
    idx = top_indices(p, m)
    p = np.asarray(p, dtype=float)
    return float(np.mean(np.abs(p[idx] - np.asarray(p_hat, dtype=float)[idx]) / p[idx]))


def zipf_profile(k: int, s: float) -> np.ndarray:
    """Zipf popularity over k symbols: p(r) proportional to r^(-s), r = 1..k (rank order)."""
    k = check_domain_size(k)
    w = np.arange(1, k + 1, dtype=float) ** (-float(s))
    return w / w.sum()


def sample_empirical(profile, n: int, *, rng=None) -> np.ndarray:
    """Counts of n i.i.d. draws from ``profile`` (one multinomial): the X_{1:n} histogram."""
    rng = check_random_state(rng)
    return rng.multinomial(int(n), check_distribution(profile, "profile"))


class UtilityPopulation:
    """A fixed population X_{1:n} for the utility experiments (counts per symbol).

    Precomputes what every run needs at k = 1e7 (true p, p^2, the supports, the top-phi sets) so
    that a run costs one simulation plus a few vector operations.
    """

    def __init__(self, counts, tops: tuple[int, ...] = (20, 100)) -> None:
        self.counts = check_counts(counts, "counts")
        self.n, self.k = int(self.counts.sum()), self.counts.size
        if self.n < 1:
            raise ValueError("counts must contain at least one user")
        self.p = self.counts / self.n
        self.p2_total = float(self.p @ self.p)
        nzmask = self.counts > 0
        self.nz, self.zero = np.flatnonzero(nzmask), np.flatnonzero(~nzmask)
        order = top_indices(self.p, max(tops))
        self.tops = {t: order[:t] for t in tops}


def utility_run(population: UtilityPopulation, mechanism: str, epsilon: float, *, g=None,
                significance: float = 0.05, rng=None, return_estimate: bool = False) -> dict:
    r"""One run of the utility experiment (Figs. 10-12) from exact count-level simulation.

    Simulates the n reports (:func:`simulate_rr_counts` / :func:`simulate_glh_support_counts`),
    applies emp (Eqs. 19, 20) and emp+thr (Bonferroni threshold), and returns the sums of l2
    losses ``("emp", phi)`` / ``("thr", phi)`` for each precomputed top set phi and for all k
    (phi = None), the top-20 mean relative errors ``"rel_emp"``, ``"rel_thr"`` (Fig. 11), the
    threshold ``"T"`` and, optionally, the emp+thr estimates of the top-20 (``"top_thr"``).
    """
    if not isinstance(population, UtilityPopulation):
        raise TypeError("population must be a UtilityPopulation")
    rng = check_random_state(rng)
    pop = population
    n, k = pop.n, pop.k
    if mechanism == "rr":
        mu, nu = rr_params(k, epsilon)
        counts = _rr_counts(pop.counts, pop.nz, epsilon, rng)
    elif mechanism == "glh":
        if g is None:
            raise ValueError("g is required for the GLH")
        mu, nu = glh_params(g, epsilon)
        counts = _glh_counts(pop.counts, pop.nz, pop.zero, _size(g, "g"), epsilon, rng)
    else:
        raise ValueError(f"mechanism must be 'rr' or 'glh', got {mechanism!r}")
    est = counts * (1.0 / (n * (mu - nu)))
    est -= nu / (mu - nu)                       # Eqs. (19)/(20)
    del counts
    T = significance_threshold(n, mu, nu, k, significance)
    out: dict = {"T": T, "mu": mu, "nu": nu}
    for phi, idx in pop.tops.items():
        e, p = est[idx], pop.p[idx]
        thr = np.where(e < T, 0.0, e)
        out[("emp", phi)] = float(np.sum((p - e) ** 2))
        out[("thr", phi)] = float(np.sum((p - thr) ** 2))
        if phi == 20:
            out["rel_emp"] = float(np.mean(np.abs(p - e) / p))
            out["rel_thr"] = float(np.mean(np.abs(p - thr) / p))
            if return_estimate:
                out["top_thr"] = thr
    below = est < T
    p_below = pop.p[below]
    est -= pop.p
    est *= est                                   # squared errors, in place (memory at k = 1e7)
    emp_all = float(est.sum())
    out[("emp", None)] = emp_all
    out[("thr", None)] = emp_all - float(est[below].sum()) + float(p_below @ p_below)
    return out


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
    from ldpnb.info import channel_capacity, mutual_information_joint
    from ldpnb.mechanisms import grr_channel, ldp_epsilon, lh_channel

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


# ---------------------------------------------------------------------------------------------
# Sweeps of the utility experiment (picklable tasks for ldpnb.parallel.sweep)
# ---------------------------------------------------------------------------------------------

_POPULATION_CACHE: dict = {}


def synthetic_population(n: int, k: int, s: float = 0.75, *, seed: int) -> UtilityPopulation:
    """The synthetic LT stand-in of the utility experiments: n single reports from Zipf(s) over k POIs.

    Deterministic in ``seed``; cached per process (one entry), so that parallel workers of
    :func:`ldpnb.parallel.sweep` build it once and every worker sees the same population.
    """
    key = (int(n), int(k), float(s), int(seed))
    if key not in _POPULATION_CACHE:
        _POPULATION_CACHE.clear()
        counts = sample_empirical(zipf_profile(k, s), n, rng=np.random.default_rng(seed))
        _POPULATION_CACHE[key] = UtilityPopulation(counts)
    return _POPULATION_CACHE[key]


def utility_task(task: dict, rng) -> dict:
    """One utility run for :func:`ldpnb.parallel.sweep`.

    ``task`` holds ``n, k, s, pop_seed`` (the population, see :func:`synthetic_population`),
    ``mech`` ("rr" | "glh"), ``eps``, optional ``g``, ``rep`` and ``keep`` (return the top-20
    emp+thr estimates).  Returns the dict of :func:`utility_run` plus the task's labels.
    """
    pop = synthetic_population(task["n"], task["k"], task.get("s", 0.75), seed=task["pop_seed"])
    res = utility_run(pop, task["mech"], task["eps"], g=task.get("g"), rng=rng,
                      return_estimate=bool(task.get("keep", False)))
    res.update(mech=task["mech"], eps=task["eps"], g=task.get("g"), rep=task.get("rep", 0))
    return res
