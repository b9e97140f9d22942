"""Theory and experiment helpers for ElSalamouny & Palamidessi, *On the Consistency and Performance
of the Iterative Bayesian Update* (arXiv 2508.09980; "the paper" below; spec 002).

Contents (paper reference in brackets):

* log-likelihood on individual observations and its surface over the 3-simplex [eqs. (1)-(2),
  Figs. 3 and 5];
* strict concavity and identification tests [Lemma 4.1, Thm 4.1, Thm 6.1], a direction of
  non-strict concavity, the GF(2) rank [Lemma 4.5] and Rappor's strict-concavity bound [Thm 4.6];
* the untruncated linear geometric mechanism and its dominance bounds [eq. (6), Prop. 6.3];
* the exact expected squared error of raw matrix inversion and the bounds of Props. 7.1 and 7.2
  (with the closed-form inverse of the truncated geometric matrix);
* unlikely elements and likely subsets [Def. 2, Lemma 8.1, Thm 8.2, Props. 8.2-8.4, eq. (13)];
* a KKT certificate for maximum-likelihood estimates and a batched IBU (Algorithm 1) with a
  per-row stopping rule for repeated experiments;
* small utilities: clamping planar outputs to a sub-grid [§6.4], batched count-level simulation,
  Rappor's per-bit (INV) estimator [Kairouz et al. 2016] with INV-N / INV-P post-processing.

Conventions follow ``CONTRIBUTING.md``: channels have rows = inputs, columns = outputs; the
normalised log-likelihood is ``l(phi) = sum_z q_z log (phi M)_z`` (``L = n l``); randomness only
through an explicit ``rng``.
"""

from __future__ import annotations

import numpy as np
from ldpnb.utils import (
    check_domain_size, check_finite_array, check_nonnegative_matrix, check_positive_int,
    check_random_state,
)
from ldpnb.estimators._likelihood import _loglik, observation_matrix
from ldpnb.utils import _as_distribution, _check_eps, _check_n
from ldpnb.estimators._inversion import _rappor_p

__all__ = [
    "simplex_grid",
    "loglik_surface",
    "gf2_rank",
    "gf2_rank_batch",
    "rappor_bits_likelihood",
    "rappor_concavity_lower_bound",
    "rappor_concavity_frequencies",
    "geometric_dominance_bounds",
    "inv_krr_exact_sq_error",
    "inv_krr_upper_bound",
    "inv_geometric_lower_bound",
    "truncated_geometric_inverse",
    "loglog_slope",
]


def simplex_grid(resolution: int = 201):
    """Points of the 3-simplex on a regular grid in ``(theta_1, theta_3)`` (paper's Figs. 3, 5).

    Returns ``(t1, t3, thetas, inside)``: 2-D meshes of ``theta_1`` and ``theta_3`` in [0, 1],
    the stacked distributions ``(res, res, 3)`` with ``theta_2 = 1 - theta_1 - theta_3`` and the
    mask of points inside the simplex.
    """
    if int(resolution) < 2:
        raise ValueError("resolution must be >= 2")
    g = np.linspace(0.0, 1.0, int(resolution))
    t1, t3 = np.meshgrid(g, g, indexing="xy")
    t2 = 1.0 - t1 - t3
    inside = t2 >= -1e-12
    thetas = np.stack([t1, np.clip(t2, 0.0, None), t3], axis=-1)
    return t1, t3, thetas, inside


def loglik_surface(channel, observations, resolution: int = 201):
    """``L`` over the simplex of a 3-letter alphabet for the given observations (Figs. 3, 5).

    Returns ``(t1, t3, L)`` with ``L = nan`` outside the simplex.
    """
    M = check_nonnegative_matrix(channel, "channel")
    if M.shape[0] != 3:
        raise ValueError("loglik_surface needs a channel with 3 rows")
    G = observation_matrix(M, np.asarray(observations))
    t1, t3, thetas, inside = simplex_grid(resolution)
    L = _loglik(thetas, G)
    L = np.where(inside, L, np.nan)
    return t1, t3, L


def gf2_rank(B) -> int:
    """Rank over GF(2) of a 0/1 matrix (Gaussian elimination with XOR; Lemma 4.5).

    The loop runs over the smaller dimension; each elimination step is one vectorised XOR.
    """
    A = np.asarray(B)
    if A.ndim != 2:
        raise ValueError("B must be a 2-D 0/1 array")
    if not np.all((A == 0) | (A == 1)):
        raise ValueError("B must contain only 0 and 1")
    return int(gf2_rank_batch(A[None].astype(bool))[0])


def gf2_rank_batch(B) -> np.ndarray:
    """GF(2) ranks of a stack of 0/1 matrices ``B`` of shape ``(T, a, b)`` (vectorised over T)."""
    A = np.asarray(B).astype(bool)
    if A.ndim != 3:
        raise ValueError("B must have shape (T, a, b)")
    if A.shape[1] > A.shape[2]:
        A = np.swapaxes(A, 1, 2)
    A = A.copy()
    T, r, c = A.shape
    rank = np.zeros(T, dtype=int)
    used = np.zeros((T, r), dtype=bool)
    t_idx = np.arange(T)
    # after the transpose r <= c: sweep the c columns, taking in each matrix an unused row with a 1
    # as pivot and XOR-ing it into the other rows with a 1 there; stop once every row is a pivot.
    for col in range(c):
        colv = A[:, :, col]
        cand = colv & ~used
        has = cand.any(axis=1)
        if not has.any():
            continue
        piv = np.argmax(cand, axis=1)
        pivot_rows = A[t_idx, piv]  # (T, c)
        mask = colv.copy()
        mask[t_idx, piv] = False
        mask &= has[:, None]
        A ^= mask[:, :, None] & pivot_rows[:, None, :]
        used[t_idx[has], piv[has]] = True
        rank += has
        if np.all(rank == r):
            break
    return rank


def rappor_bits_likelihood(bits, epsilon: float) -> np.ndarray:
    """Observation matrix ``G`` of basic Rappor from reported bit vectors (Lemma 4.4).

    ``G[x, i] = P(beta^i | x) = p^k exp(-(1/2 + S(beta^i)/2 - beta^i_x) eps)`` with
    ``p = e^{eps/2} / (1 + e^{eps/2})`` and ``S`` the number of ones.  ``bits`` is ``(n, k)``.
    """
    eps = _check_eps(epsilon)
    B = np.asarray(bits)
    if B.ndim != 2 or not np.all((B == 0) | (B == 1)):
        raise ValueError("bits must be an (n, k) 0/1 array")
    B = B.astype(float)
    k = B.shape[1]
    p = _rappor_p(eps)
    S = B.sum(axis=1)
    return p**k * np.exp(-(0.5 + S[None, :] / 2 - B.T) * eps)


def rappor_concavity_lower_bound(k: int, n, epsilon) -> np.ndarray | float:
    """Thm 4.6: ``P(L strictly concave) >= prod_{j=1}^{k} max(0, 1 - p^n 2^{j-1})`` for basic
    Rappor on ``|X| = k`` letters with ``n >= k`` users, ``p = e^{eps/2}/(1+e^{eps/2})``.

    Vectorised over ``n`` and ``epsilon`` (broadcast); 0 where ``n < k``.
    """
    k = check_positive_int(k, "k", minimum=1)
    n_arr = check_finite_array(n, "n")
    e_arr = check_finite_array(epsilon, "epsilon")  # finite (NaN, inf refused) and, below, > 0
    if np.any(e_arr <= 0):
        raise ValueError(f"epsilon must be > 0 (min {e_arr.min():.3g})")
    if np.any(n_arr < 0):
        raise ValueError(f"n must be >= 0 (min {n_arr.min():.3g})")
    p = np.exp(e_arr / 2) / (1 + np.exp(e_arr / 2))
    pn = p**n_arr
    j = np.arange(1, k + 1).reshape((-1,) + (1,) * np.ndim(pn))
    fac = np.clip(1.0 - pn[None] * 2.0 ** (j - 1), 0.0, None)
    out = np.prod(fac, axis=0)
    out = np.where(n_arr >= k, out, 0.0)
    return float(out) if np.ndim(out) == 0 else out


def rappor_concavity_frequencies(k: int, n: int, epsilon: float, trials: int, *, theta=None,
                                 rng=None) -> dict:
    """Monte Carlo frequencies of the three nested events behind Thm 4.6.

    ``n`` inputs are drawn i.i.d. from ``theta`` (default uniform) and obfuscated by basic Rappor
    (each bit kept with probability ``p``); ``B`` is the ``k x n`` matrix of reported bits. Returns
    the frequencies of ``rank_GF2(B) = k`` <= ``rank_R(B) = k`` <= ``rank_R([B | 1]) = k``; the
    last event is exactly the strict concavity of ``L`` (proof of Thm 4.6: with ``sum w = 0``,
    ``w G = 0 iff w B = 0``).  Also returns the standard errors and the bound.
    """
    rng = check_random_state(rng)
    eps = _check_eps(epsilon)
    k, n, trials = int(k), int(n), int(trials)
    if n < 1 or k < 1 or trials < 1:
        raise ValueError("k, n and trials must be >= 1")
    th = np.full(k, 1.0 / k) if theta is None else _as_distribution(theta, "theta", k)
    p = _rappor_p(eps)
    x = rng.choice(k, size=(trials, n), p=th)
    onehot = np.zeros((trials, n, k), dtype=bool)
    np.put_along_axis(onehot, x[..., None], True, axis=2)
    flips = rng.random((trials, n, k)) >= p
    B = np.swapaxes(onehot ^ flips, 1, 2)  # (trials, k, n)
    f2 = gf2_rank_batch(B) == k
    Bf = B.astype(float)
    real = np.linalg.matrix_rank(Bf) == k
    aug = np.concatenate([Bf, np.ones((trials, k, 1))], axis=2)
    conc = np.linalg.matrix_rank(aug) == k
    out = {}
    for name, ev in (("gf2", f2), ("real", real), ("concave", conc)):
        f = ev.mean()
        out[name] = float(f)
        out[name + "_se"] = float(np.sqrt(max(f * (1 - f), 1e-300) / trials))
    out["bound"] = rappor_concavity_lower_bound(k, n, eps)
    out["nested_violations"] = int(np.sum(f2 & ~real) + np.sum(real & ~conc))
    return out


def geometric_dominance_bounds(z, a: int, b: int, epsilon: float):
    """Prop. 6.3: for ``X`` within ``[a, b]`` (``l = b - a``) and every ``phi``,
    ``c e^{-eps(|z-a| + l)} <= P(z | phi) <= c e^{-eps(|z-a| - l)}``.  Returns (lower, upper)."""
    eps = _check_eps(epsilon)
    if b < a:
        raise ValueError("need a <= b")
    z = np.asarray(z, dtype=float)
    al = np.exp(-eps)
    c = (1 - al) / (1 + al)
    ell = b - a
    return c * np.exp(-eps * (np.abs(z - a) + ell)), c * np.exp(-eps * (np.abs(z - a) - ell))


def inv_krr_exact_sq_error(k: int, epsilon: float, theta, n) -> float:
    """Closed form under k-RR: every row of ``M^{-1}`` has squared norm
    ``((e^eps + k - 2)^2 + k - 1)/(e^eps - 1)^2``, so
    ``E||v - theta||^2 = [((e^eps+k-2)^2 + k - 1)/(e^eps-1)^2 - ||theta||^2] / n``."""
    k = check_domain_size(k)
    eps = _check_eps(epsilon)
    th = _as_distribution(theta, "theta", k)
    n = _check_n(n)
    e = np.exp(eps)
    return float((((e + k - 2) ** 2 + k - 1) / (e - 1) ** 2 - th @ th) / n)


def inv_krr_upper_bound(k: int, epsilon: float, n) -> float:
    """Prop. 7.1: ``E||v - theta||^2 <= ((e^eps + k - 1)/(e^eps - 1))^2 / n``."""
    k = check_domain_size(k)
    eps = _check_eps(epsilon)
    n = _check_n(n)
    e = np.exp(eps)
    return float(((e + k - 1) / (e - 1)) ** 2 / n)


def inv_geometric_lower_bound(epsilon: float, n) -> float:
    """Prop. 7.2: for the truncated linear geometric mechanism with ``alpha = e^-eps > 1/2``,
    ``E||v - theta||^2 >= (beta^3 - 2 alpha beta^2 - 2)/n`` with ``beta = 1/(1 - e^-eps)``."""
    eps = _check_eps(epsilon)
    n = _check_n(n)
    a = np.exp(-eps)
    if a <= 0.5:
        raise ValueError("Prop. 7.2 needs alpha = e^-eps > 1/2, i.e. eps < ln 2")
    b = 1.0 / (1.0 - a)
    return float((b**3 - 2 * a * b**2 - 2) / n)


def truncated_geometric_inverse(k: int, epsilon: float) -> np.ndarray:
    """Closed-form inverse of the truncated geometric matrix (eq. 7) on {0..k-1}.

    ``M = A D`` with ``A = [alpha^{|x-z|}]`` (Kac-Murdock-Szego) and ``D = diag(c_z)``;
    ``A^{-1}`` is tridiagonal, so ``M^{-1}`` has interior rows ``beta^2 (-alpha, 1+alpha^2, -alpha)``
    and boundary rows ``beta (1, -alpha)`` (``beta = 1/(1 - alpha)``).
    """
    k = int(k)
    if k < 2:
        raise ValueError("k must be >= 2")
    eps = _check_eps(epsilon)
    a = np.exp(-eps)
    b = 1.0 / (1.0 - a)
    Minv = np.zeros((k, k))
    i = np.arange(1, k - 1)
    Minv[i, i] = b**2 * (1 + a**2)
    Minv[i, i - 1] = -a * b**2
    Minv[i, i + 1] = -a * b**2
    Minv[0, 0] = b
    Minv[0, 1] = -a * b
    Minv[k - 1, k - 1] = b
    Minv[k - 1, k - 2] = -a * b
    return Minv


def loglog_slope(n, err) -> float:
    """Least-squares slope of ``log(err)`` against ``log(n)``."""
    n = np.asarray(n, dtype=float)
    err = np.asarray(err, dtype=float)
    if n.shape != err.shape or n.size < 2 or np.any(n <= 0) or np.any(err <= 0):
        raise ValueError("n and err must be positive arrays of the same length >= 2")
    return float(np.polyfit(np.log(n), np.log(err), 1)[0])
