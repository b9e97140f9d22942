r"""Geometry of the likelihood of a channel's input distribution: observation matrices, strict
concavity, identifiability, KKT residuals and likely subsets.

ElSalamouny and Palamidessi, *On the consistency and performance of the iterative Bayesian update*
(arXiv 2508.09980): the log-likelihood of the reports :math:`z^1, \dots, z^n` is
:math:`L(\phi) = \sum_i \log \sum_x \phi_x G_{xi}` with :math:`G_{xi} = M_{xz^i}` (eqs. 1-2, Def. 1);
it is strictly concave iff :math:`\operatorname{rank}[G \mid \mathbf 1] = |\mathcal X|` (Lemma 4.1,
Thm 4.1); the MLE is consistent only if :math:`M` has :math:`|\mathcal X|` independent columns
(Thm 6.1); unlikely elements get probability 0 in every MLE, so IBU can run on a likely subset
(Def. 2, Lemma 8.1, Thm 8.2, Props. 8.2-8.4, eq. 13).
"""

from __future__ import annotations

import numpy as np

from ldpnb.contracts import MAX_BYTES, Array, Integer, NonnegativeMatrix, Optional, Real, contract

__all__ = [
    "observation_matrix",
    "loglik_observations",
    "is_strictly_concave",
    "concavity_null_direction",
    "is_identifiable",
    "unlikely_mask",
    "likely_subset_linear",
    "likely_subset_grr",
    "likely_subset_krr",
    "planar_delta_prime",
    "distance_to_convex_hull",
    "likely_subset_planar",
    "kkt_residual",
]


# --------------------------------------------------------------------------------------------
# log-likelihood on observations (eqs. 1-2), surfaces (Figs. 3, 5)
# --------------------------------------------------------------------------------------------


@contract(channel=NonnegativeMatrix(), observations=Array(1, low=0, integer=True))
def observation_matrix(channel, observations) -> np.ndarray:
    """Observation probability matrix ``G`` of Definition 1: ``G[x, i] = M[x, z^i]``.

    Parameters
    ----------
    channel : (k, m) array, rows = inputs, columns = outputs.
    observations : 1-D int array of output indices ``z^i`` (0-based).
    """
    if observations.max() >= channel.shape[1]:
        raise ValueError(f"observations must lie in 0..{channel.shape[1] - 1} (the channel's outputs)")
    return channel[:, observations]


@contract(theta=Array((1, 2, 3), low=0.0), G=NonnegativeMatrix())
def loglik_observations(theta, G) -> np.ndarray | float:
    """Unnormalised log-likelihood ``L(theta) = sum_i log sum_x theta_x G[x, i]`` (eq. 2).

    ``theta`` may be a single distribution ``(k,)`` or a stack ``(..., k)``; ``-inf`` where an
    observation gets probability 0.
    """
    th = theta
    if th.shape[-1] != G.shape[0]:
        raise ValueError(f"theta must have last dimension {G.shape[0]}")
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


@contract(G=NonnegativeMatrix(), tol=Optional(Real(0, None)))
def is_strictly_concave(G, tol: float | None = None) -> bool:
    """Whether ``L`` is strictly concave on the simplex for observation matrix ``G`` (Thm 4.1).

    By Thm 4.1 (iii), ``L`` is strictly concave iff every nonzero ``w`` with ``sum(w) = 0`` has
    ``w G != 0``, i.e. iff ``rank([G | 1]) = |X|`` (numerical rank by SVD; ``tol`` relative to the
    largest singular value, default ``max(shape) * machine eps``).
    """
    A = np.hstack([G, np.ones((G.shape[0], 1))])
    return _rank(A, tol) == G.shape[0]


@contract(G=NonnegativeMatrix(), tol=Optional(Real(0, None)))
def concavity_null_direction(G, tol: float | None = None) -> np.ndarray | None:
    """A unit vector ``w`` with ``sum(w) = 0`` and ``w G = 0``, or ``None`` if ``L`` is strictly
    concave (Thm 4.1 (iii)).  Along ``theta + t w`` the likelihood is constant (Lemma 4.1)."""
    A = np.hstack([G, np.ones((G.shape[0], 1))])
    if _rank(A, tol) == G.shape[0]:
        return None
    _, _, vt = np.linalg.svd(A.T)
    w = vt[-1]
    return w / np.linalg.norm(w)


@contract(channel=NonnegativeMatrix(), tol=Optional(Real(0, None)))
def is_identifiable(channel, tol: float | None = None) -> bool:
    """Identification condition (Thm 6.1 (iii)): ``M`` has ``|X|`` linearly independent columns,
    i.e. ``rank(M) = |X|`` (numerical rank by SVD)."""
    return _rank(channel, tol) == channel.shape[0]


# --------------------------------------------------------------------------------------------
# unlikely elements and likely subsets (§8)
# --------------------------------------------------------------------------------------------


@contract(G=NonnegativeMatrix(), max_elements=Integer(1, None))
def unlikely_mask(G, max_elements: int = 20_000_000) -> np.ndarray:
    """Unlikely elements (Def. 2): ``x'`` is unlikely iff some ``x`` has ``G[x', i] <= G[x, i]``
    for all observations ``i`` and ``<`` for at least one.  ``G`` may have aggregated columns
    (one per distinct observation).  Returns a boolean mask over rows.  Cost ``O(k^2 m)``."""
    k, m = G.shape
    chunk = max(1, int(max_elements // max(1, k * m)))  # bounds the memory of the comparisons
    out = np.zeros(k, dtype=bool)
    for s in range(0, k, chunk):
        Gp = G[s : s + chunk]  # candidates x'
        ge = np.all(G[None, :, :] >= Gp[:, None, :], axis=2)  # (c, k): x dominates weakly
        gt = np.any(G[None, :, :] > Gp[:, None, :], axis=2)
        out[s : s + chunk] = np.any(ge & gt, axis=1)
    return out


@contract(X=Array(1), z=Array(1))
def likely_subset_linear(X, z) -> np.ndarray:
    """Prop. 8.2: mask of ``X ∩ [x_min, x_max]`` with ``x_min = max{x in X: x <= min z}`` and
    ``x_max = min{x in X: x >= max z}`` (if no element of X lies below / above every report, the
    interval is open on that side)."""
    lo = X[X <= z.min()]
    hi = X[X >= z.max()]
    xmin = lo.max() if lo.size else -np.inf
    xmax = hi.min() if hi.size else np.inf
    return (X >= xmin) & (X <= xmax)


@contract(z=Array(1, low=0, integer=True, min_size=0), k=Integer(2, MAX_BYTES))
def likely_subset_grr(z, k: int) -> np.ndarray:
    """Prop. 8.4: under k-RR (GRR) the set of reported values is a likely subset.  Mask over 0..k-1."""
    if z.size and z.max() >= k:
        raise ValueError(f"z must be a 1-D array of values in 0..{k - 1}")
    m = np.zeros(k, dtype=bool)
    m[z] = True
    return m


#: Deprecated name of :func:`likely_subset_grr` (the package names k-RR ``grr``).
likely_subset_krr = likely_subset_grr


@contract(delta=Real(0, None), d_max=Real(0, None))
def planar_delta_prime(delta: float, d_max: float) -> float:
    """Eq. (13): ``delta' = (delta^2 + 2 delta d_max)^{1/2}``."""
    return float(np.sqrt(delta**2 + 2 * delta * d_max))


def _hull(points: np.ndarray) -> np.ndarray:
    """Vertices of the convex hull (counter-clockwise), handling degenerate sets."""
    from scipy.spatial import ConvexHull, QhullError  # noqa: PLC0415 lazy: scipy/numpy submodule loaded at first use

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


@contract(points=Array(2), reports=Array(2))
def distance_to_convex_hull(points, reports) -> np.ndarray:
    """Euclidean distance from each point to the convex hull ``B`` of ``reports`` (0 inside).

    Inside test by the half-planes of the counter-clockwise hull; outside, the minimum
    point-to-segment distance over the hull edges.  Degenerate hulls (a point, a segment) are
    handled by the same segment formula.
    """
    P, R = points, reports
    if P.shape[1] != 2 or R.shape[1] != 2:
        raise ValueError(f"points and reports must be (n, 2) arrays, got {P.shape} and {R.shape}")
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


@contract(lattice_points=Array(2), reports=Array(2), delta=Real(0, None))
def likely_subset_planar(lattice_points, reports, delta: float):
    """Prop. 8.3: ``T_{delta'}(B) ∩ X`` with ``B`` the convex hull of the reports and ``delta'``
    of eq. (13) (``delta`` = discretisation error, ``h/sqrt 2`` for a square lattice of width h).

    Returns ``(mask, delta_prime, d_max)``; ``d_max`` is computed over the hull vertices.
    """
    R = reports
    if R.shape[1] != 2 or lattice_points.shape[1] != 2:
        raise ValueError(f"lattice_points and reports must be (n, 2) arrays, got {lattice_points.shape} and {R.shape}")
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
# MLE certificate (KKT conditions)
# --------------------------------------------------------------------------------------------


@contract(theta=Array(1, low=0.0), channel=NonnegativeMatrix(), counts=Array(1, low=0.0), support_tol=Real(0, None))
def kkt_residual(theta, channel, counts, support_tol: float = 1e-8) -> float:
    """KKT residual of ``max_{phi in simplex} sum_z q_z log (phi M)_z`` at ``theta``.

    With ``r_x = sum_z q_z M[x, z] / (theta M)_z`` an MLE satisfies ``r_x <= 1`` for all ``x``
    and ``r_x = 1`` where ``theta_x > 0``.  Returns
    ``max( max_x (r_x - 1), max_{theta_x > support_tol} |r_x - 1| )`` (0 at an exact MLE).
    """
    M, c, th = channel, counts, theta
    if c.shape != (M.shape[1],) or c.sum() <= 0:
        raise ValueError(f"counts must have length {M.shape[1]} (the channel's outputs) and a positive sum")
    if th.shape != (M.shape[0],):
        raise ValueError(f"theta must have length {M.shape[0]} (the channel's inputs)")
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
