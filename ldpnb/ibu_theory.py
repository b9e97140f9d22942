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

from dataclasses import dataclass, field

import numpy as np

from ldpnb.estimators import _check_tol, _clip_normalize
from ldpnb.utils import (
    check_domain_size, check_epsilon, check_finite_array, check_nonnegative_matrix, check_positive_int,
    check_random_state,
)

__all__ = [
    "observation_matrix",
    "loglik_observations",
    "simplex_grid",
    "loglik_surface",
    "is_strictly_concave",
    "concavity_null_direction",
    "is_identifiable",
    "gf2_rank",
    "gf2_rank_batch",
    "rappor_bits_likelihood",
    "rappor_concavity_lower_bound",
    "rappor_concavity_frequencies",
    "untruncated_geometric_matrix",
    "untruncated_geometric_perturb",
    "geometric_dominance_bounds",
    "inv_expected_sq_error",
    "inv_krr_exact_sq_error",
    "inv_krr_upper_bound",
    "inv_geometric_lower_bound",
    "truncated_geometric_inverse",
    "inv_sq_error_monte_carlo",
    "unlikely_mask",
    "likely_subset_linear",
    "likely_subset_krr",
    "planar_delta_prime",
    "distance_to_convex_hull",
    "likely_subset_planar",
    "kkt_residual",
    "IBUBatchResult",
    "ibu_rows",
    "simulate_counts_batch",
    "clamp_grid_outputs",
    "clip_normalize",
    "project_simplex_rows",
    "rappor_unbiased",
    "emd_1d_rows",
    "loglog_slope",
    "emd_rows",
    "estimation_trials",
    "rappor_trials",
    "ibu_path",
    "build_channel",
    "trial_task",
    "rappor_task",
]


# --------------------------------------------------------------------------------------------
# validation helpers (local; the generic ones live in ldpnb.utils)
# --------------------------------------------------------------------------------------------


def _as_distribution(p, name: str, k: int | None = None, atol: float = 1e-9) -> np.ndarray:
    v = np.asarray(p, dtype=float)
    if v.ndim != 1 or v.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array")
    if k is not None and v.size != k:
        raise ValueError(f"{name} must have length {k}, got {v.size}")
    if not np.all(np.isfinite(v)) or np.any(v < -atol) or abs(v.sum() - 1.0) > atol * max(1, v.size):
        raise ValueError(f"{name} must be a probability vector (non-negative, summing to 1)")
    return np.clip(v, 0.0, None)


def _check_eps(eps, name: str = "epsilon") -> float:
    return check_epsilon(eps, name)


def _check_n(n, name: str = "n") -> float:
    v = float(n)
    if not np.isfinite(v) or v <= 0:
        raise ValueError(f"{name} must be > 0, got {n!r}")
    return v


# --------------------------------------------------------------------------------------------
# log-likelihood on observations (eqs. 1-2), surfaces (Figs. 3, 5)
# --------------------------------------------------------------------------------------------


def observation_matrix(channel, observations) -> np.ndarray:
    """Observation probability matrix ``G`` of Definition 1: ``G[x, i] = M[x, z^i]``.

    Parameters
    ----------
    channel : (k, m) array, rows = inputs, columns = outputs.
    observations : 1-D int array of output indices ``z^i`` (0-based).
    """
    M = check_nonnegative_matrix(channel, "channel")
    z = np.asarray(observations)
    if z.ndim != 1 or z.size == 0 or not np.issubdtype(z.dtype, np.integer):
        raise ValueError("observations must be a non-empty 1-D integer array of output indices")
    if z.min() < 0 or z.max() >= M.shape[1]:
        raise ValueError(f"observations must lie in 0..{M.shape[1] - 1}")
    return M[:, z]


def loglik_observations(theta, G) -> np.ndarray | float:
    """Unnormalised log-likelihood ``L(theta) = sum_i log sum_x theta_x G[x, i]`` (eq. 2).

    ``theta`` may be a single distribution ``(k,)`` or a stack ``(..., k)``; ``-inf`` where an
    observation gets probability 0.
    """
    G = check_nonnegative_matrix(G, "G")
    th = check_finite_array(theta, "theta")
    if th.shape[-1] != G.shape[0]:
        raise ValueError(f"theta must have last dimension {G.shape[0]}")
    if np.any(th < 0):
        raise ValueError(f"theta must be a distribution: entries >= 0 (min {th.min():.3g})")
    sums = th.sum(axis=-1)
    if np.any(np.abs(sums - 1.0) > 1e-9 * max(1, th.shape[-1])):
        bad = np.ravel(sums)[np.argmax(np.ravel(np.abs(sums - 1.0)))]
        raise ValueError(f"theta must be a distribution (or a stack of them) summing to 1 (sum = {bad:.12g})")
    return _loglik(th, G)


def _loglik(th: np.ndarray, G: np.ndarray) -> np.ndarray | float:
    """``sum_i log (th G)_i`` for validated arrays (also used on the clipped grid of
    :func:`loglik_surface`, whose points outside the simplex are masked afterwards)."""
    with np.errstate(divide="ignore"):
        out = np.log(th @ G).sum(axis=-1)
    return float(out) if np.ndim(out) == 0 else out


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


# --------------------------------------------------------------------------------------------
# strict concavity, identification (Thm 4.1, Thm 6.1), GF(2) rank (Lemma 4.5)
# --------------------------------------------------------------------------------------------


def _rank(A: np.ndarray, tol: float | None) -> int:
    s = np.linalg.svd(A, compute_uv=False)
    if s.size == 0:
        return 0
    if tol is None:
        tol = s[0] * max(A.shape) * np.finfo(float).eps
    else:
        tol = tol * max(1.0, s[0])
    return int((s > tol).sum())


def is_strictly_concave(G, tol: float | None = None) -> bool:
    """Whether ``L`` is strictly concave on the simplex for observation matrix ``G`` (Thm 4.1).

    By Thm 4.1 (iii), ``L`` is strictly concave iff every nonzero ``w`` with ``sum(w) = 0`` has
    ``w G != 0``, i.e. iff ``rank([G | 1]) = |X|`` (numerical rank by SVD; ``tol`` relative to the
    largest singular value, default ``max(shape) * machine eps``).
    """
    G = check_nonnegative_matrix(G, "G")
    A = np.hstack([G, np.ones((G.shape[0], 1))])
    return _rank(A, tol) == G.shape[0]


def concavity_null_direction(G, tol: float | None = None) -> np.ndarray | None:
    """A unit vector ``w`` with ``sum(w) = 0`` and ``w G = 0``, or ``None`` if ``L`` is strictly
    concave (Thm 4.1 (iii)).  Along ``theta + t w`` the likelihood is constant (Lemma 4.1)."""
    G = check_nonnegative_matrix(G, "G")
    A = np.hstack([G, np.ones((G.shape[0], 1))])
    if _rank(A, tol) == G.shape[0]:
        return None
    _, _, vt = np.linalg.svd(A.T)
    w = vt[-1]
    return w / np.linalg.norm(w)


def is_identifiable(channel, tol: float | None = None) -> bool:
    """Identification condition (Thm 6.1 (iii)): ``M`` has ``|X|`` linearly independent columns,
    i.e. ``rank(M) = |X|`` (numerical rank by SVD)."""
    M = check_nonnegative_matrix(channel, "channel")
    return _rank(M, tol) == M.shape[0]


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


# --------------------------------------------------------------------------------------------
# Rappor (Lemma 4.4, Thm 4.6, Fig. 4)
# --------------------------------------------------------------------------------------------


def _rappor_p(eps: float) -> float:
    return float(np.exp(eps / 2) / (1 + np.exp(eps / 2)))


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


# --------------------------------------------------------------------------------------------
# untruncated linear geometric mechanism (eq. 6, Prop. 6.3)
# --------------------------------------------------------------------------------------------


def untruncated_geometric_matrix(X, Z, epsilon: float) -> np.ndarray:
    """``P(z | x) = c exp(-eps |z - x|)``, ``c = (1 - e^-eps)/(1 + e^-eps)`` (eq. 6), for integer
    inputs ``X`` (rows) and integer outputs ``Z`` (columns).  Rows sum to 1 only over all of Z."""
    eps = _check_eps(epsilon)
    X = np.asarray(X)
    Z = np.asarray(Z)
    if X.ndim != 1 or Z.ndim != 1:
        raise ValueError("X and Z must be 1-D integer arrays")
    a = np.exp(-eps)
    c = (1 - a) / (1 + a)
    return c * np.exp(-eps * np.abs(Z[None, :].astype(float) - X[:, None].astype(float)))


def untruncated_geometric_perturb(x, epsilon: float, *, rng=None) -> np.ndarray:
    """Sample eq. (6): ``z = x + G1 - G2`` with ``G1, G2`` i.i.d. geometric on {0, 1, ...},
    ``P(G = g) = (1 - alpha) alpha^g``, ``alpha = e^-eps`` (numpy's geometric starts at 1; the
    offsets cancel)."""
    rng = check_random_state(rng)
    eps = _check_eps(epsilon)
    x = np.asarray(x)
    if not np.issubdtype(x.dtype, np.integer):
        raise ValueError("x must be an integer array")
    pr = 1.0 - np.exp(-eps)
    return x + rng.geometric(pr, size=x.shape) - rng.geometric(pr, size=x.shape)


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


# --------------------------------------------------------------------------------------------
# INV error (Props. 7.1, 7.2)
# --------------------------------------------------------------------------------------------


def inv_expected_sq_error(channel, theta, n) -> float:
    """Exact ``E || q M^{-1} - theta ||_2^2`` for ``n`` i.i.d. reports (raw INV, §7.6).

    With ``pi = theta M`` and ``r_z`` the z-th row of ``M^{-1}``, ``v`` is unbiased and
    ``Cov(q) = (diag(pi) - pi^T pi)/n``, hence
    ``E||v - theta||^2 = (sum_z pi_z ||r_z||^2 - ||theta||^2) / n``.
    """
    M = check_nonnegative_matrix(channel, "channel")
    if M.shape[0] != M.shape[1]:
        raise ValueError("channel must be square for INV")
    th = _as_distribution(theta, "theta", M.shape[0])
    n = _check_n(n)
    Minv = np.linalg.inv(M)
    pi = th @ M
    return float((pi @ (Minv**2).sum(axis=1) - th @ th) / n)


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


def simulate_counts_batch(channel, input_counts, reps: int, *, rng=None) -> np.ndarray:
    """``reps`` independent report-count vectors: for each input value ``x`` with ``N_x > 0``
    users, ``rng.multinomial(N_x, M[x], size=reps)``, summed over ``x`` (spec A4; exact in law,
    loop over input values only).  Returns ``(reps, m)`` int64."""
    rng = check_random_state(rng)
    M = check_nonnegative_matrix(channel, "channel")
    N = np.asarray(input_counts)
    if N.ndim != 1 or N.size != M.shape[0] or np.any(N < 0) or not np.issubdtype(N.dtype, np.integer):
        raise ValueError("input_counts must be a non-negative int array of length channel.shape[0]")
    reps = int(reps)
    if reps < 1:
        raise ValueError("reps must be >= 1")
    P = M / M.sum(axis=1, keepdims=True)
    out = np.zeros((reps, M.shape[1]), dtype=np.int64)
    for x in np.flatnonzero(N):
        out += rng.multinomial(int(N[x]), P[x], size=reps)
    return out


def inv_sq_error_monte_carlo(channel, input_counts, reps: int, *, rng=None) -> tuple[float, float]:
    """Monte Carlo of ``E||v - theta||^2`` for raw INV with fixed inputs drawn i.i.d. from theta.

    Each repetition draws ``n`` inputs from ``theta = input_counts / n`` (multinomial) and obfuscates
    them; returns (mean, standard error) over ``reps``.
    """
    rng = check_random_state(rng)
    M = check_nonnegative_matrix(channel, "channel")
    N = np.asarray(input_counts)
    n = int(N.sum())
    th = N / n
    pi = th @ M
    counts = rng.multinomial(n, pi / pi.sum(), size=int(reps))  # i.i.d. inputs: reports ~ pi
    v = np.linalg.solve(M.T, (counts / n).T).T
    err = ((v - th) ** 2).sum(axis=1)
    return float(err.mean()), float(err.std(ddof=1) / np.sqrt(len(err)))


# --------------------------------------------------------------------------------------------
# unlikely elements and likely subsets (§8)
# --------------------------------------------------------------------------------------------


def unlikely_mask(G, max_elements: int = 20_000_000) -> np.ndarray:
    """Unlikely elements (Def. 2): ``x'`` is unlikely iff some ``x`` has ``G[x', i] <= G[x, i]``
    for all observations ``i`` and ``<`` for at least one.  ``G`` may have aggregated columns
    (one per distinct observation).  Returns a boolean mask over rows.  Cost ``O(k^2 m)``."""
    G = check_nonnegative_matrix(G, "G")
    k, m = G.shape
    chunk = max(1, int(max_elements // max(1, k * m)))  # bounds the memory of the comparisons
    out = np.zeros(k, dtype=bool)
    for s in range(0, k, chunk):
        Gp = G[s:s + chunk]  # candidates x'
        ge = np.all(G[None, :, :] >= Gp[:, None, :], axis=2)  # (c, k): x dominates weakly
        gt = np.any(G[None, :, :] > Gp[:, None, :], axis=2)
        out[s:s + chunk] = np.any(ge & gt, axis=1)
    return out


def likely_subset_linear(X, z) -> np.ndarray:
    """Prop. 8.2: mask of ``X ∩ [x_min, x_max]`` with ``x_min = max{x in X: x <= min z}`` and
    ``x_max = min{x in X: x >= max z}`` (if no element of X lies below / above every report, the
    interval is open on that side)."""
    X = np.asarray(X, dtype=float)
    z = np.asarray(z, dtype=float)
    if X.ndim != 1 or z.ndim != 1 or z.size == 0:
        raise ValueError("X and z must be non-empty 1-D arrays")
    lo = X[X <= z.min()]
    hi = X[X >= z.max()]
    xmin = lo.max() if lo.size else -np.inf
    xmax = hi.min() if hi.size else np.inf
    return (X >= xmin) & (X <= xmax)


def likely_subset_krr(z, k: int) -> np.ndarray:
    """Prop. 8.4: under k-RR the set of reported values is a likely subset.  Mask over 0..k-1."""
    k = check_domain_size(k)
    z = np.asarray(z)
    if z.ndim != 1 or (z.size and (z.min() < 0 or z.max() >= k)):
        raise ValueError(f"z must be a 1-D array of values in 0..{k - 1}")
    m = np.zeros(k, dtype=bool)
    m[z] = True
    return m


def planar_delta_prime(delta: float, d_max: float) -> float:
    """Eq. (13): ``delta' = (delta^2 + 2 delta d_max)^{1/2}``."""
    if delta < 0 or d_max < 0:
        raise ValueError("delta and d_max must be >= 0")
    return float(np.sqrt(delta**2 + 2 * delta * d_max))


def _hull(points: np.ndarray) -> np.ndarray:
    """Vertices of the convex hull (counter-clockwise), handling degenerate sets."""
    from scipy.spatial import ConvexHull, QhullError

    P = np.unique(points, axis=0)
    if len(P) <= 2:
        return P
    try:
        h = ConvexHull(P)
        return P[h.vertices]
    except QhullError:  # collinear: keep the two extreme points
        d = P - P[0]
        u = d[np.argmax(np.linalg.norm(d, axis=1))]
        t = d @ u
        return P[[np.argmin(t), np.argmax(t)]]


def distance_to_convex_hull(points, reports) -> np.ndarray:
    """Euclidean distance from each point to the convex hull ``B`` of ``reports`` (0 inside).

    Inside test by the half-planes of the counter-clockwise hull; outside, the minimum
    point-to-segment distance over the hull edges.  Degenerate hulls (a point, a segment) are
    handled by the same segment formula.
    """
    P = np.asarray(points, dtype=float)
    R = np.asarray(reports, dtype=float)
    if P.ndim != 2 or P.shape[1] != 2 or R.ndim != 2 or R.shape[1] != 2 or len(R) == 0:
        raise ValueError("points and reports must be (n, 2) arrays")
    V = _hull(R)
    if len(V) == 1:
        return np.linalg.norm(P - V[0], axis=1)
    A = V
    Bv = np.roll(V, -1, axis=0)
    if len(V) == 2:
        A, Bv = V[:1], V[1:]
    E = Bv - A  # (e, 2)
    D = P[:, None, :] - A[None, :, :]  # (p, e, 2)
    t = np.clip((D * E).sum(-1) / np.maximum((E * E).sum(-1), 1e-300), 0.0, 1.0)
    proj = A[None] + t[..., None] * E[None]
    dist = np.linalg.norm(P[:, None, :] - proj, axis=2).min(axis=1)
    if len(V) >= 3:
        cross = E[None, :, 0] * D[..., 1] - E[None, :, 1] * D[..., 0]
        inside = np.all(cross >= -1e-12, axis=1)
        dist = np.where(inside, 0.0, dist)
    return dist


def likely_subset_planar(lattice_points, reports, delta: float):
    """Prop. 8.3: ``T_{delta'}(B) ∩ X`` with ``B`` the convex hull of the reports and ``delta'``
    of eq. (13) (``delta`` = discretisation error, ``h/sqrt 2`` for a square lattice of width h).

    Returns ``(mask, delta_prime, d_max)``; ``d_max`` is computed over the hull vertices.
    """
    R = np.asarray(reports, dtype=float)
    V = _hull(R)
    if len(V) > 1:
        dv = np.linalg.norm(V[:, None, :] - V[None, :, :], axis=2)
        d_max = float(dv.max())
    else:
        d_max = 0.0
    dp = planar_delta_prime(delta, d_max)
    dist = distance_to_convex_hull(lattice_points, R)
    return dist <= dp, dp, d_max


# --------------------------------------------------------------------------------------------
# MLE certificate and batched IBU (Algorithm 1)
# --------------------------------------------------------------------------------------------


def kkt_residual(theta, channel, counts, support_tol: float = 1e-8) -> float:
    """KKT residual of ``max_{phi in simplex} sum_z q_z log (phi M)_z`` at ``theta``.

    With ``r_x = sum_z q_z M[x, z] / (theta M)_z`` an MLE satisfies ``r_x <= 1`` for all ``x``
    and ``r_x = 1`` where ``theta_x > 0``.  Returns
    ``max( max_x (r_x - 1), max_{theta_x > support_tol} |r_x - 1| )`` (0 at an exact MLE).
    """
    M = check_nonnegative_matrix(channel, "channel")
    c = np.asarray(counts, dtype=float)
    if c.shape != (M.shape[1],) or np.any(c < 0) or c.sum() <= 0:
        raise ValueError("counts must be non-negative with length channel.shape[1] and positive sum")
    th = np.asarray(theta, dtype=float)
    if th.shape != (M.shape[0],):
        raise ValueError("theta must have length channel.shape[0]")
    q = c / c.sum()
    obs = q > 0
    den = th @ M[:, obs]
    if np.any(den <= 0):
        return float("inf")
    r = M[:, obs] @ (q[obs] / den)
    viol = max(0.0, float((r - 1).max()))
    sup = th > support_tol
    if sup.any():
        viol = max(viol, float(np.abs(r[sup] - 1).max()))
    return viol


@dataclass
class IBUBatchResult:
    """Result of :func:`ibu_rows`: ``estimate (R, k)``, ``n_iter (R,)``, final normalised
    log-likelihood ``loglik (R,)``, ``converged (R,)`` and, optionally, the trace of ``l`` of the
    first row."""

    estimate: np.ndarray
    n_iter: np.ndarray
    loglik: np.ndarray
    converged: np.ndarray
    trace: list = field(default_factory=list)


def ibu_rows(channel, counts, *, theta0=None, tol: float = 1e-8, max_iter: int = 10_000,
              min_iter: int = 0, record_trace: bool = False) -> IBUBatchResult:
    """Iterative Bayesian update (Algorithm 1) on ``R`` count vectors at once, sharing ``M``,
    with iteration counts and final log-likelihoods (row-wise identical to
    :func:`ldpnb.estimators.ibu`, which requires a stochastic channel).

    ``theta^{t+1}_x = sum_z q_z theta^t_x M_xz / (theta^t M)_z``, vectorised over rows:
    ``Theta <- Theta * ((Q / (Theta M)) M^T)`` on the observed columns only.  Each row stops on its
    own when ``|l(theta^t) - l(theta^{t-1})| < tol`` (``l`` = normalised log-likelihood, so ``tol``
    does not scale with ``n``; spec §8) or after ``max_iter`` updates; stopped rows are frozen.

    ``channel`` only needs to be non-negative (IBU is invariant to rescaling columns, so restricted
    channels of §8 whose rows do not sum to 1 are allowed).  ``counts``: ``(m,)`` or ``(R, m)``.
    ``theta0``: ``(k,)`` or ``(R, k)`` full-support start (default uniform).  ``min_iter``: no row
    stops before this many updates.  ``tol=0`` runs exactly ``max_iter`` updates (a fast path that
    evaluates the log-likelihood only at the end).  ``record_trace`` keeps ``l(theta^t)`` of row 0.

    References: ElSalamouny & Palamidessi, Algorithm 1 and eq. (2); spec 002 A1.
    """
    M = check_nonnegative_matrix(channel, "channel")
    C = check_finite_array(counts, "counts")  # refuses NaN/inf and an empty batch
    single = C.ndim == 1
    C = np.atleast_2d(C)
    if C.ndim != 2 or C.shape[1] != M.shape[1]:
        raise ValueError(f"counts must have last dimension {M.shape[1]}")
    if np.any(C < 0) or np.any(C.sum(axis=1) <= 0):
        raise ValueError("counts must be non-negative and not all zero")
    tol = _check_tol(tol)
    max_iter = check_positive_int(max_iter, "max_iter", minimum=0)
    R, k = C.shape[0], M.shape[0]
    Q = C / C.sum(axis=1, keepdims=True)
    obs = Q.any(axis=0)
    Mo = M[:, obs]
    Qo = Q[:, obs]
    if np.any((Mo.sum(axis=0) == 0)):
        raise ValueError("an observed output has probability 0 under every input")
    if theta0 is None:
        theta = np.full((R, k), 1.0 / k)
    else:
        t0 = check_finite_array(theta0, "theta0")
        theta = np.broadcast_to(t0, (R, k)).astype(float, copy=True)
        if np.any(theta <= 0):
            raise ValueError("theta0 must have full support (IBU keeps zeros at zero)")
        theta /= theta.sum(axis=1, keepdims=True)
    pos = Qo > 0
    l_old = np.full(R, -np.inf)
    n_iter = np.zeros(R, dtype=int)
    conv = np.zeros(R, dtype=bool)
    loglik = np.full(R, -np.inf)
    active = np.arange(R)
    trace = []
    if tol == 0 and not record_trace:  # fixed iteration count: no log-likelihood inside the loop
        MoT = np.ascontiguousarray(Mo.T)
        Qz = np.where(pos, Qo, 0.0)
        for _ in range(max_iter):
            den = theta @ Mo
            np.divide(Qz, den, out=den, where=pos)
            den[~pos] = 0.0
            theta *= den @ MoT
            theta /= theta.sum(axis=1, keepdims=True)
        n_iter[:] = max_iter
        den = theta @ Mo
        with np.errstate(divide="ignore", invalid="ignore"):
            loglik = np.where(pos, Qo * np.log(den), 0.0).sum(axis=1)
        res = IBUBatchResult(theta, n_iter, loglik, conv, trace)
        if single:
            res = IBUBatchResult(theta[0], n_iter[:1], loglik[:1], conv[:1], trace)
        return res
    for t in range(max_iter + 1):
        th = theta[active]
        den = th @ Mo
        qa = Qo[active]
        with np.errstate(divide="ignore", invalid="ignore"):
            ll = np.where(pos[active], qa * np.log(den), 0.0).sum(axis=1)
        loglik[active] = ll
        if record_trace and active.size and active[0] == 0:
            trace.append(float(ll[0]))
        stop = (np.abs(ll - l_old[active]) < tol) & (t >= min_iter)
        conv[active[stop]] = True
        if t == max_iter:
            break
        keep = ~stop
        active = active[keep]
        if active.size == 0:
            break
        l_old[active] = ll[keep]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(pos[active], qa[keep] / den[keep], 0.0)
        theta[active] = th[keep] * (ratio @ Mo.T)
        theta[active] /= theta[active].sum(axis=1, keepdims=True)
        n_iter[active] += 1
    res = IBUBatchResult(theta, n_iter, loglik, conv, trace)
    if single:
        res = IBUBatchResult(theta[0], n_iter[:1], loglik[:1], conv[:1], trace)
    return res


# --------------------------------------------------------------------------------------------
# small utilities for the experiments
# --------------------------------------------------------------------------------------------


def clamp_grid_outputs(channel, rows: int, cols: int, out_rows: int, out_cols: int) -> np.ndarray:
    """Post-process a channel on a ``rows x cols`` grid (row-major outputs) by clamping each
    output cell ``(i, j)`` to ``(min(i, out_rows-1), min(j, out_cols-1))`` (§6.4 "truncating the
    noisy data to a smaller grid").  Returns ``(k, out_rows*out_cols)``; rows still sum to 1."""
    M = check_nonnegative_matrix(channel, "channel")
    if M.shape[1] != rows * cols or not (1 <= out_rows <= rows and 1 <= out_cols <= cols):
        raise ValueError("inconsistent grid sizes")
    i, j = np.divmod(np.arange(rows * cols), cols)
    dest = np.minimum(i, out_rows - 1) * out_cols + np.minimum(j, out_cols - 1)
    A = np.zeros((rows * cols, out_rows * out_cols))
    A[np.arange(rows * cols), dest] = 1.0
    return M @ A


def clip_normalize(V) -> np.ndarray:
    """INV-N post-processing, row-wise: negative entries to 0, then divide by the sum.  A row with
    no positive entry (possible for Rappor's estimator at tiny n) becomes uniform.  NaN or inf
    entries are refused (ValueError naming ``V``).  One implementation with
    :func:`ldpnb.estimators.normalize_clip` (the 1-D case)."""
    return _clip_normalize(V, "V")


def project_simplex_rows(V) -> np.ndarray:
    """INV-P post-processing, row-wise Euclidean projection onto the simplex (Wang &
    Carreira-Perpinan 2013): ``u`` sorted descending, ``rho = max{j: u_j + (1 - sum_{i<=j} u_i)/j
    > 0}``, ``lambda = (1 - sum_{i<=rho} u_i)/rho``, result ``max(v + lambda, 0)``.  NaN or inf
    entries are refused (ValueError naming ``V``)."""
    V = check_finite_array(V, "V")
    if V.ndim not in (1, 2):
        raise ValueError(f"V must be 1-D or 2-D, got shape {V.shape}")
    X = np.atleast_2d(V)
    U = -np.sort(-X, axis=1)
    css = np.cumsum(U, axis=1)
    j = np.arange(1, X.shape[1] + 1)
    cond = U + (1 - css) / j > 0
    rho = X.shape[1] - np.argmax(cond[:, ::-1], axis=1)
    lam = (1 - css[np.arange(len(X)), rho - 1]) / rho
    out = np.clip(X + lam[:, None], 0.0, None)
    return out[0] if V.ndim == 1 else out


def rappor_unbiased(support_counts, n, epsilon: float) -> np.ndarray:
    """Kairouz et al. (2016) per-bit estimator for basic Rappor (spec §2.5):
    ``v_y = (c_y / n - (1 - p)) / (2p - 1)``, ``p = e^{eps/2}/(1 + e^{eps/2})``; rows of
    ``support_counts`` are repetitions.  ``sum(v)`` need not be 1."""
    eps = _check_eps(epsilon)
    c = np.asarray(support_counts, dtype=float)
    n = np.asarray(n, dtype=float)
    p = _rappor_p(eps)
    nn = n[..., None] if n.ndim and c.ndim == 2 else n
    return (c / nn - (1 - p)) / (2 * p - 1)


def emd_1d_rows(P, Q, spacing: float = 1.0) -> np.ndarray:
    """Row-wise 1-D EMD with unit ground distance ``|x - y| * spacing``:
    ``sum_j |F_P(j) - F_Q(j)| * spacing`` (closed form, same as :func:`ldpnb.metrics.emd_1d`)."""
    P = np.atleast_2d(np.asarray(P, dtype=float))
    Q = np.atleast_2d(np.asarray(Q, dtype=float))
    return np.abs(np.cumsum(P - Q, axis=1)[:, :-1]).sum(axis=1) * spacing


def loglog_slope(n, err) -> float:
    """Least-squares slope of ``log(err)`` against ``log(n)``."""
    n = np.asarray(n, dtype=float)
    err = np.asarray(err, dtype=float)
    if n.shape != err.shape or n.size < 2 or np.any(n <= 0) or np.any(err <= 0):
        raise ValueError("n and err must be positive arrays of the same length >= 2")
    return float(np.polyfit(np.log(n), np.log(err), 1)[0])


# --------------------------------------------------------------------------------------------
# experiment runners (protocol A5 of spec 002; used by the chapter's Figs. 8-12)
# --------------------------------------------------------------------------------------------


def emd_rows(P, theta, ground_distance) -> np.ndarray:
    """EMD (exact optimal transport, :func:`ldpnb.metrics.emd`) between each row of ``P`` and
    ``theta`` for a ground distance matrix (km on the grid)."""
    from ldpnb.metrics import emd

    P = np.atleast_2d(np.asarray(P, dtype=float))
    return np.array([emd(p / p.sum(), theta, ground_distance) for p in P])


def estimation_trials(channel, input_counts, reps: int, *, metric, rng=None, tol: float = 1e-8,
                      max_iter: int = 10_000, with_inv: bool = True) -> dict:
    """One obfuscation-estimation protocol (spec A5), ``reps`` independent repetitions.

    The fixed original data (histogram ``input_counts``) are obfuscated by ``channel`` with exact
    count-level sampling (:func:`simulate_counts_batch`); each repetition is estimated by IBU
    (:func:`ibu_rows`, tolerance ``tol`` on the normalised log-likelihood) and, for a square
    channel, by INV-N and INV-P (``v = q M^{-1}``, clip-and-normalise / simplex projection).
    ``metric(P, theta) -> (R,)`` scores each estimate against ``theta = input_counts / n``; the
    noisy distribution ``q`` is scored too when ``Z = X``.

    Returns a dict of arrays (length ``reps``): ``"IBU"``, ``"INV-N"``, ``"INV-P"``, ``"noisy"``,
    ``"n_iter"``, and the last repetition's estimates under ``"last"``.
    """
    rng = check_random_state(rng)
    M = check_nonnegative_matrix(channel, "channel")
    N = np.asarray(input_counts)
    theta = N / N.sum()
    C = simulate_counts_batch(M, N, reps, rng=rng)
    Q = C / C.sum(axis=1, keepdims=True)
    res = ibu_rows(M, C, tol=tol, max_iter=max_iter)
    out = {"IBU": metric(res.estimate, theta), "n_iter": res.n_iter.copy()}
    last = {"IBU": res.estimate[-1], "counts": C[-1]}
    square = M.shape[0] == M.shape[1]
    if square:
        out["noisy"] = metric(Q, theta)
        last["noisy"] = Q[-1]
    if with_inv and square:
        V = np.linalg.solve(M.T, Q.T).T
        PN, PP = clip_normalize(V), project_simplex_rows(V)
        out["INV-N"], out["INV-P"] = metric(PN, theta), metric(PP, theta)
        last["INV-N"], last["INV-P"] = PN[-1], PP[-1]
    out["last"] = last
    return out


def rappor_trials(theta, n: int, epsilon: float, reps: int, *, rng=None, tol: float = 1e-8,
                  max_iter: int = 10_000) -> dict:
    """Fig. 12 protocol: per repetition, ``n`` inputs are drawn from ``theta`` (re-sampled each
    run), obfuscated by basic Rappor (exact count-level sampling over the ``2^k`` patterns,
    channel :func:`ldpnb.mechanisms.rappor_channel`, pattern index ``sum_j b_j 2^j``) and
    estimated by IBU on the pattern counts and by Rappor's per-bit estimator followed by INV-N and
    INV-P.  Scores are 1-D EMDs (unit spacing) to the empirical input histogram.
    """
    from ldpnb.mechanisms import rappor_channel

    rng = check_random_state(rng)
    th = _as_distribution(theta, "theta")
    k = th.size
    if k > 16:
        raise ValueError("rappor_trials enumerates 2^k patterns: k must be <= 16")
    M = rappor_channel(k, epsilon)
    bits = (np.arange(2**k)[:, None] >> np.arange(k)) & 1  # pattern -> bits
    Nin = rng.multinomial(int(n), th, size=int(reps))  # (R, k) inputs per run
    C = np.stack([simulate_counts_batch(M, Nin[r], 1, rng=rng)[0] for r in range(int(reps))])
    T = Nin / Nin.sum(axis=1, keepdims=True)
    res = ibu_rows(M, C, tol=tol, max_iter=max_iter)
    V = rappor_unbiased(C @ bits, np.full(int(reps), float(n)), epsilon)
    PN, PP = clip_normalize(V), project_simplex_rows(V)
    return {
        "IBU": emd_1d_rows(res.estimate, T), "INV-N": emd_1d_rows(PN, T), "INV-P": emd_1d_rows(PP, T),
        "n_iter": res.n_iter.copy(), "last": {"IBU": res.estimate[-1], "INV-N": PN[-1], "INV-P": PP[-1],
                                               "original": T[-1]},
    }


def ibu_path(channel, counts, theta0, n_steps: int) -> np.ndarray:
    """The IBU iterates ``theta^0, ..., theta^{n_steps}`` (Algorithm 1) as an ``(n_steps+1, k)``
    array, for drawing trajectories on the likelihood surfaces (Figs. 3, 5)."""
    M = check_nonnegative_matrix(channel, "channel")
    c = np.asarray(counts, dtype=float)
    if c.shape != (M.shape[1],) or np.any(c < 0) or c.sum() <= 0:
        raise ValueError("counts must be non-negative with length channel.shape[1]")
    th = np.asarray(theta0, dtype=float)
    if th.shape != (M.shape[0],) or np.any(th <= 0):
        raise ValueError("theta0 must be a full-support distribution of length channel.shape[0]")
    q = c / c.sum()
    obs = q > 0
    Mo, qo = M[:, obs], q[obs]
    out = np.empty((int(n_steps) + 1, M.shape[0]))
    out[0] = th / th.sum()
    for t in range(int(n_steps)):
        out[t + 1] = out[t] * (Mo @ (qo / (out[t] @ Mo)))
    return out


def build_channel(kind: str, epsilon: float, *, k: int | None = None, rows: int | None = None,
                  cols: int | None = None, cell_size: float = 1.0, distance=None) -> np.ndarray:
    """The square channels of §7 from :mod:`ldpnb.mechanisms`.

    ``kind`` in ``{"geometric", "laplace", "exponential", "krr"}`` on a line of ``k`` values
    (unit spacing; truncated / discretised as in spec M3, M6, M8) or, with ``rows, cols``, on a
    grid (``"geometric"`` = truncated planar geometric M5, ``"laplace"`` = discretised planar
    Laplace M7, ``"exponential"`` = M8 on ``distance`` (km), ``"krr"`` on the ``rows*cols`` cells).
    """
    from ldpnb import mechanisms as mech

    planar = rows is not None
    if kind == "krr":
        return mech.grr_channel(int(rows * cols) if planar else int(k), epsilon)
    if kind == "exponential":
        if distance is None:
            if planar:
                raise ValueError("the planar exponential mechanism needs the distance matrix")
            x = np.arange(int(k))
            distance = np.abs(x[:, None] - x[None, :]).astype(float)
        return mech.exponential_channel(distance, epsilon, half=True)
    if kind == "geometric":
        return (mech.planar_geometric_channel(rows, cols, epsilon, cell_size=cell_size) if planar
                else mech.geometric_channel(int(k), epsilon))
    if kind == "laplace":
        return (mech.planar_laplace_channel(rows, cols, epsilon, cell_size=cell_size) if planar
                else mech.laplace_channel(int(k), epsilon))
    raise ValueError(f"unknown mechanism kind {kind!r}")


def trial_task(task: dict, rng) -> dict:
    """Module-level task for :func:`ldpnb.parallel.sweep`: build the channel of ``task`` and run
    :func:`estimation_trials`.  ``task`` keys: ``kind, eps, N`` (input histogram), ``reps``,
    ``tol``, ``max_iter`` and either ``k`` (ages, 1-D EMD) or ``rows, cols, cell_size, D``
    (locations; EMD by optimal transport on the km distance ``D``)."""
    planar = "rows" in task
    M = build_channel(task["kind"], task["eps"], k=task.get("k"), rows=task.get("rows"),
                      cols=task.get("cols"), cell_size=task.get("cell_size", 1.0),
                      distance=task.get("D") if task["kind"] == "exponential" else None)
    if planar:
        D = task["D"]
        metric = lambda P, th: emd_rows(P, th, D)  # noqa: E731
    else:
        metric = emd_1d_rows
    out = estimation_trials(M, task["N"], task["reps"], metric=metric, rng=rng, tol=task["tol"],
                            max_iter=task["max_iter"])
    out["eps"] = task["eps"]
    return out


def rappor_task(task: dict, rng) -> dict:
    """Module-level task for :func:`ldpnb.parallel.sweep` running :func:`rappor_trials`."""
    out = rappor_trials(task["theta"], task["n"], task["eps"], task["reps"], rng=rng, tol=task["tol"],
                        max_iter=task["max_iter"])
    out["eps"] = task["eps"]
    return out
