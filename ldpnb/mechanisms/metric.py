"""Metric (geo-indistinguishable) mechanisms: truncated and untruncated geometric, discretised
Laplace, planar geometric and planar Laplace on grids, exponential.

Ghosh, Roughgarden and Sundararajan (2009); Andres, Bordenabe, Chatzikokolakis and Palamidessi (2013);
ElSalamouny and Palamidessi (2020), eqs. (5)-(7).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy.special import logsumexp

from ldpnb.channels.structured import ConvolutionChannel
from ldpnb.contracts import (
    EPSILON,
    MAX_DENSE,
    MAX_DOMAIN,
    MAX_ENTRIES,
    POSITIVE,
    AnyOf,
    Array,
    Boolean,
    DistanceMatrix,
    Integer,
    Optional,
    RandomState,
    contract,
)
from ldpnb.geometry import lattice_distance_matrix, padded_lattice_distance
from ldpnb.mechanisms._base import Domain, MetricMechanism
from ldpnb.mechanisms._common import (
    _LOG2,
    LOG_TINY,
    _exp_channel,
    _exp_neg,
    _log1mexp,
    _log_sinh,
    _logsumexp_rows,
)
from ldpnb.utils import (
    _chunk_rows,
    check_domain_size,
    check_random_state,
    check_values,
)

_VALUES = Array(1, integer=True, low=0)
_CELL_SIZE = AnyOf(POSITIVE, Array(1, shape=(2,), low=0.0))
_SIDE = Integer(1, MAX_DENSE)

__all__ = [
    "geometric_channel",
    "geometric_perturb",
    "laplace_channel",
    "laplace_perturb",
    "planar_geometric_channel",
    "planar_laplace_channel",
    "planar_laplace_perturb",
    "planar_laplace_padded_channel",
    "exponential_channel",
    "untruncated_geometric_matrix",
    "untruncated_geometric_perturb",
    "TruncatedGeometric",
    "DiscreteLaplace",
    "Exponential",
    "PlanarGeometric",
    "PlanarLaplace",
    "PaddedPlanarLaplace",
]


# ---------------------------------------------------------------------------------------------
# metric mechanisms: geometric, Laplace, planar, exponential
# ---------------------------------------------------------------------------------------------


@contract(k=Integer(2, MAX_DENSE), epsilon=EPSILON)
def geometric_channel(k: int, epsilon: float) -> np.ndarray:
    """Truncated linear geometric mechanism on ``{0, ..., k-1}`` (``k x k``).

    With ``alpha = e^{-eps}`` (eps per unit of ``|x - z|``), ElSalamouny & Palamidessi (2020),
    eq. (7) (Ghosh et al. 2009):

    .. math:: C[x, z] = c_z \\alpha^{|z - x|}, \\quad c_z = \\frac{1}{1+\\alpha} \\text{ for } z \\in \\{0, k-1\\},
              \\; \\frac{1-\\alpha}{1+\\alpha} \\text{ otherwise},

    i.e. the two-sided geometric ``z = x + G_1 - G_2`` (eq. (6)) clamped to ``[0, k-1]``.  Rows sum
    to 1 exactly; the channel is exactly eps-geo-indistinguishable for ``d(x, x') = |x - x'|``.
    Refused (``ValueError``) when ``eps (k - 1) > ~708``: its smallest entries would underflow
    float64; :meth:`TruncatedGeometric.log_channel` is exact at any epsilon.

    Parameters
    ----------
    k : int
        Domain size, ``>= 2``.
    epsilon : float
        eps_g per unit of distance.

    Returns
    -------
    ndarray, shape (k, k)
    """
    if epsilon * (k - 1) - math.log1p(_exp_neg(epsilon)) > -LOG_TINY:
        _exp_channel(
            _geometric_log_channel(k, epsilon),
            epsilon=epsilon,
            what="geometric channel",
            hint="TruncatedGeometric(k, epsilon).log_channel()",
        )
    alpha = _exp_neg(epsilon)
    idx = np.arange(k)
    C = np.power(alpha, np.abs(idx[:, None] - idx[None, :]).astype(np.float64))
    c = np.full(k, -math.expm1(-epsilon) / (1.0 + alpha))
    c[0] = c[-1] = 1.0 / (1.0 + alpha)
    return C * c[None, :]


@contract(x=Array(1, integer=True), k=Optional(Integer(2, MAX_DOMAIN)), epsilon=EPSILON, rng=RandomState())
def geometric_perturb(x: Any, k: int | None, epsilon: float, *, rng: Any = None) -> np.ndarray:
    """Two-sided geometric noise ``z = x + G_1 - G_2``, clamped to ``[0, k-1]``.

    ``G_1, G_2`` are i.i.d. with ``P(G = g) = (1 - alpha) alpha^g``, ``alpha = e^{-eps}`` (numpy's
    ``geometric`` starts at 1; the offsets cancel) -- ElSalamouny & Palamidessi (2020), eq. (6);
    clamping gives eq. (7) (:func:`geometric_channel`).  With ``k=None`` the output is not clamped
    (any integer inputs).

    Parameters
    ----------
    x : array-like of int, shape (n,)
    k : int or None
        Domain size (clamping), or ``None`` for the untruncated mechanism.
    epsilon : float
    rng : Generator, int or None

    Returns
    -------
    ndarray of int64, shape (n,)
    """
    rng = check_random_state(rng)
    if k is None:
        xa = x
    else:
        xa = check_values(x, k)
    success = -math.expm1(-epsilon)  # 1 - alpha
    noise = rng.geometric(success, size=xa.size) - rng.geometric(success, size=xa.size)
    z = xa + noise
    if k is not None:
        z = np.clip(z, 0, k - 1)
    return z.astype(np.int64)


@contract(k=Integer(2, MAX_DENSE), epsilon=EPSILON, spacing=POSITIVE)
def laplace_channel(k: int, epsilon: float, *, spacing: float = 1.0) -> np.ndarray:
    """Discretised and truncated Laplace mechanism on ``{0, ..., k-1}`` (closed form, M6).

    ``z = x + N``, ``N ~ Laplace(scale 1/eps)``, mapped to the nearest point of ``{0..k-1}`` and
    clamped (the points are ``spacing`` apart and eps is per unit of distance, so
    ``e = eps * spacing`` below).  Interior ``z`` (``0 < z < k-1``):

    .. math:: C[x, z] = e^{-e|z-x|}\\sinh(e/2) \\; (z \\ne x), \\qquad C[x, x] = 1 - e^{-e/2};

    boundaries: ``C[x, 0] = e^{-e(x - 1/2)}/2`` for ``x >= 1``, ``C[0, 0] = 1 - e^{-e/2}/2``, and
    symmetrically at ``k-1``.  Post-processing of the eps-geo-ind Laplace mechanism, so
    ``geo_ind_epsilon <= eps`` (ElSalamouny & Palamidessi 2020, §7; Andres et al. 2013).  Built
    from log-probabilities (``log sinh`` without overflow); refused (``ValueError``) when an entry is
    below float64's normal range (``eps (k - 1) spacing > ~708``):
    :meth:`DiscreteLaplace.log_channel` is exact at any epsilon.

    Parameters
    ----------
    k : int
        Domain size, ``>= 2``.
    epsilon : float
        eps_g per unit of distance.
    spacing : float
        Distance between consecutive points (default 1).

    Returns
    -------
    ndarray, shape (k, k)
    """
    return _exp_channel(
        _laplace_log_channel(k, epsilon, spacing),
        epsilon=epsilon,
        what="Laplace channel",
        hint="DiscreteLaplace(k, epsilon, spacing).log_channel()",
    )


@contract(x=_VALUES, k=Integer(2, MAX_DOMAIN), epsilon=EPSILON, rng=RandomState())
def laplace_perturb(x: Any, k: int, epsilon: float, *, rng: Any = None) -> np.ndarray:
    """Laplace noise (scale ``1/eps``) added to ``x``, rounded to the nearest integer, clamped to ``[0, k-1]``.

    The per-user sampler of :func:`laplace_channel` (unit spacing).

    Parameters
    ----------
    x : array-like of int, shape (n,)
    k : int
    epsilon : float
    rng : Generator, int or None

    Returns
    -------
    ndarray of int64, shape (n,)
    """
    rng = check_random_state(rng)
    x = check_values(x, k)
    z = x + rng.laplace(0.0, 1.0 / epsilon, size=x.size)
    return np.clip(np.floor(z + 0.5), 0, k - 1).astype(np.int64)


def _cell_pair(cell_size: Any) -> tuple[float, float]:
    arr = np.asarray(cell_size, dtype=float)
    if arr.ndim == 0:
        h = w = float(arr)
    elif arr.shape == (2,):
        h, w = float(arr[0]), float(arr[1])
    else:
        raise ValueError(f"cell_size must be a scalar or a pair (height, width), got shape {arr.shape}")
    if not (np.isfinite(h) and np.isfinite(w) and h > 0 and w > 0):
        raise ValueError(f"cell_size must be finite and > 0, got {cell_size!r}")
    return h, w


def _check_grid(rows: Any, cols: Any) -> tuple[int, int]:
    rows = check_domain_size(rows, name="rows", minimum=1)
    cols = check_domain_size(cols, name="cols", minimum=1)
    if rows * cols < 2:
        raise ValueError(f"rows * cols must be >= 2, got {rows} x {cols}")
    return rows, cols


_MAX_WINDOW = 4000


def _linear_is_safe(rows: int, cols: int, h: float, w: float, epsilon: float) -> bool:
    """The linear-domain planar construction keeps every entry inside the grid above ``1e-290``:
    ``eps`` times the grid's diameter plus the 36-nat window margin stays below 660 nats."""
    return epsilon * math.hypot(rows * h, cols * w) + 40.0 < 660.0


def _window(eps_len: float, n: int) -> int:
    """Half-width (in cells) of the kernel window: tail beyond it has mass < 1e-14 (eps*len*P >= 36)."""
    P = int(math.ceil(36.0 / eps_len)) + n
    if P > _MAX_WINDOW:
        raise ValueError(
            f"epsilon * cell_size is too small for an exact planar kernel (window half-width {P} > {_MAX_WINDOW} "
            "cells); "
            "use a coarser grid or a larger epsilon"
        )
    return P


def _lumped_kernel(rows: int, cols: int, h: float, w: float, epsilon: float, block_fn) -> np.ndarray:
    """Offset kernel lumped for clamping: shape ``(2 rows + 1, 2 cols + 1)``, normalised to sum 1.

    Entry ``[a, b]`` is the kernel mass of the row offsets ``di = a - rows`` and column offsets
    ``dj = b - cols``, where the end indices collect the tails (``di <= -rows``, ``di >= rows``):
    every offset in a tail clamps to the same boundary row for every input row.  ``block_fn(di,
    dj)`` returns the (unnormalised) kernel for an array of row offsets ``di`` (c,) and column
    offsets ``dj`` (m,) as a ``(c, m)`` array.  Work is chunked over row offsets.
    """
    Pr, Pc = _window(epsilon * h, rows), _window(epsilon * w, cols)
    dj = np.arange(-Pc, Pc + 1)
    col_starts = np.concatenate([[0], Pc - cols + 1 + np.arange(2 * cols)])  # groups: <= -cols, ..., >= cols
    Kr = np.zeros((2 * rows + 1, 2 * cols + 1))
    di_all = np.arange(-Pr, Pr + 1)
    step = _chunk_rows(di_all.size, dj.size * 64)
    for start in range(0, di_all.size, step):
        di = di_all[start : start + step]
        block = block_fn(di, dj)  # (c, 2 Pc + 1)
        lumped = np.add.reduceat(block, col_starts, axis=1)  # (c, 2 cols + 1)
        np.add.at(Kr, np.clip(di, -rows, rows) + rows, lumped)
    return Kr / Kr.sum()


def _clamp_gather(X: np.ndarray, n: int) -> np.ndarray:
    """Clamp a lumped offset axis: ``Y[..., p, i] = sum_a X[..., a] [clamp(p + a - n) = i]``.

    ``X`` has last axis ``2n + 1`` (offsets ``-n..n`` with the tails lumped at the ends).  Sums of
    nonnegative terms only (cumulative sums from either end), so small entries keep full relative
    accuracy.
    """
    if n == 1:
        return X.sum(axis=-1)[..., None, None]
    top = np.cumsum(X, axis=-1)  # sum_{a <= t}
    bot = np.cumsum(X[..., ::-1], axis=-1)[..., ::-1]  # sum_{a >= t}
    p = np.arange(n)[:, None]
    i = np.arange(n)[None, :]
    Y = X[..., i - p + n]  # interior outputs: a = i - p + n
    Y[..., :, 0] = top[..., n - np.arange(n)]  # i = 0: p + a - n <= 0
    Y[..., :, n - 1] = bot[..., 2 * n - 1 - np.arange(n)]  # i = n-1: p + a - n >= n-1
    return Y


def _planar_from_kernel(Kr: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """``(rows cols) x (rows cols)`` channel from a lumped kernel by clamping (row-major cells)."""
    T = _clamp_gather(Kr.T, rows)  # (2 cols + 1, rows, rows): [b, p, i]
    T = np.moveaxis(T, 0, -1)  # [p, i, b]
    M = _clamp_gather(T, cols)  # [p, i, q, j]
    k = rows * cols
    M = M.transpose(0, 2, 1, 3).reshape(k, k)
    return M / M.sum(axis=1, keepdims=True)


@contract(rows=_SIDE, cols=_SIDE, epsilon=EPSILON, cell_size=_CELL_SIZE)
def planar_geometric_channel(rows: int, cols: int, epsilon: float, cell_size: Any = 1.0) -> np.ndarray:
    """Truncated planar geometric mechanism on a ``rows x cols`` grid (row-major cells), M4/M5.

    On the lattice of cell centres (spacing ``cell_size = h`` or ``(h, w)``):
    ``P(z | x) = c_2 exp(-eps d(x, z))`` with ``d`` Euclidean and ``c_2`` the normaliser over the
    whole lattice (ElSalamouny & Palamidessi 2020, §4).  Truncation maps the output to
    the nearest cell of the grid, i.e. clamps row and column indices (Chatzikokolakis, ElSalamouny
    & Palamidessi 2017).

    Construction (offset-kernel trick): the kernel ``K(di, dj) ~ exp(-eps sqrt((di h)^2 + (dj w)^2))``
    is computed on the window ``|di| <= P_r``, ``|dj| <= P_c`` with ``eps h (P_r - rows) >= 36``
    (the neglected mass is below 1e-14), its tails are lumped, and each input cell's mass is
    clamped into the grid.  All sums are of nonnegative terms, so even tiny entries are accurate
    and the channel is eps-geo-indistinguishable with respect to the Euclidean distance between
    cell centres (tight when the grid has an interior cell).

    Parameters
    ----------
    rows, cols : int
        Grid shape (``rows * cols >= 2``).
    epsilon : float
        eps_g per unit of ``cell_size`` (e.g. per km).
    cell_size : float or (float, float)
        Cell height and width (a scalar means square cells).

    Returns
    -------
    ndarray, shape (rows*cols, rows*cols)
    """
    rows, cols = _check_grid(rows, cols)
    h, w = _cell_pair(cell_size)
    if not _linear_is_safe(rows, cols, h, w, epsilon):
        L = _planar_geometric_log_channel(rows, cols, epsilon, h, w)
        return _exp_channel(
            L,
            epsilon=epsilon,
            what="planar geometric channel",
            hint="PlanarGeometric(rows, cols, epsilon, cell_size).log_channel()",
        )

    def block(di, dj):
        return np.exp(-epsilon * np.hypot(di[:, None] * h, dj[None, :] * w))

    return _planar_from_kernel(_lumped_kernel(rows, cols, h, w, epsilon, block), rows, cols)


@contract(rows=_SIDE, cols=_SIDE, epsilon=EPSILON, cell_size=_CELL_SIZE, subdivisions=Integer(1, 64))
def planar_laplace_channel(
    rows: int, cols: int, epsilon: float, cell_size: Any = 1.0, *, subdivisions: int = 8
) -> np.ndarray:
    """Planar Laplace mechanism discretised to a ``rows x cols`` grid (row-major cells), M7.

    Density ``D(z | x) = eps^2/(2 pi) exp(-eps d(x, z))`` on the plane (Andres et al. 2013); the
    output is assigned to the cell that contains it, after clamping to the grid (boundary cells
    extend to infinity).  ``C[x, z] = integral of D(.|x) over cell(z)``, with the
    offset kernel integrated by the midpoint rule on ``subdivisions x subdivisions`` sub-points
    per cell, on the window of :func:`planar_geometric_channel`, then clamped and normalised.

    Every kernel entry is a positive combination of density values at the *same* sub-points of the
    output cell for every input, so the discretised channel satisfies eps-geo-indistinguishability
    with respect to the distance between cell centres exactly (``geo_ind_epsilon <= eps``), quadrature
    error notwithstanding.  Quadrature error of the cell masses against the exact integral (measured
    on a 5 x 5 grid, unit cells): about 1e-3 relative for the centre cell at ``eps h = 1`` and
    3e-3 at ``eps h = 3`` with 8 subdivisions; 16 subdivisions divide it by about 4.  Cost
    ``O((2P + 1)^2 s^2)`` with ``P ~ 36 / (eps h) + max(rows, cols)``: 0.6 s for the 20 x 14
    Manhattan grid at 0.2 per km (0.45 km cells).

    Parameters
    ----------
    rows, cols : int
        Grid shape (``rows * cols >= 2``).
    epsilon : float
        eps_g per unit of ``cell_size`` (e.g. per km).
    cell_size : float or (float, float)
        Cell height and width (a scalar means square cells).
    subdivisions : int
        Midpoint-rule sub-points per cell side (default 8).

    Returns
    -------
    ndarray, shape (rows*cols, rows*cols)
    """
    rows, cols = _check_grid(rows, cols)
    h, w = _cell_pair(cell_size)
    s = subdivisions
    if not _linear_is_safe(rows, cols, h, w, epsilon):
        L = _planar_laplace_log_channel(rows, cols, epsilon, h, w, s)
        return _exp_channel(
            L,
            epsilon=epsilon,
            what="planar Laplace channel",
            hint="PlanarLaplace(rows, cols, epsilon, cell_size).log_channel()",
        )
    sub = (np.arange(s) + 0.5) / s - 0.5  # sub-point offsets inside a cell, in cell units

    def block(di, dj):
        yy = (di[:, None] + sub[None, :]).reshape(-1) * h  # (c s,)
        xx = (dj[:, None] + sub[None, :]).reshape(-1) * w  # (m s,)
        dens = np.exp(-epsilon * np.hypot(yy[:, None], xx[None, :]))
        return dens.reshape(di.size, s, dj.size, s).sum(axis=(1, 3))

    return _planar_from_kernel(_lumped_kernel(rows, cols, h, w, epsilon, block), rows, cols)


@contract(points=Array(2, shape=(None, 2)), epsilon=EPSILON, rng=RandomState())
def planar_laplace_perturb(points: Any, epsilon: float, *, rng: Any = None) -> np.ndarray:
    """Planar Laplace noise added to points of the plane (polar sampling).

    ``z = x + r (cos t, sin t)`` with ``t ~ U[0, 2 pi)`` and ``r ~ Gamma(shape 2, scale 1/eps)``
    (radial CDF ``1 - (1 + eps r) e^{-eps r}``; Andres et al. 2013).  Coordinates are
    in the units of ``1/eps`` (e.g. km for eps per km).

    Parameters
    ----------
    points : array-like, shape (n, 2)
    epsilon : float
    rng : Generator, int or None

    Returns
    -------
    ndarray of float64, shape (n, 2)
    """
    rng = check_random_state(rng)
    pts = points
    n = pts.shape[0]
    theta = rng.random(n) * (2.0 * np.pi)
    r = rng.gamma(2.0, 1.0 / epsilon, size=n)
    return pts + np.column_stack([r * np.cos(theta), r * np.sin(theta)])


@contract(rows=_SIDE, cols=_SIDE, epsilon=EPSILON, pad=Integer(0, MAX_DENSE))
def planar_laplace_padded_channel(rows: int, cols: int, epsilon: float, *, pad: int = 5) -> np.ndarray:
    """Discrete planar Laplace with outputs on the grid padded by ``pad`` cells, rows normalised.

    ``C[x, y] = exp(-eps d(x, y)) / sum_{y'} exp(-eps d(x, y'))`` for ``x`` a cell of the
    ``rows x cols`` grid and ``y`` a cell of the grid padded by ``pad`` cells on every side
    (:func:`ldpnb.data.grid.padded_lattice_distance`, cell units; output index row-major on the
    ``(rows + 2 pad) x (cols + 2 pad)`` grid).  The continuous density is
    ``(eps^2 / 2 pi) exp(-eps d)`` on R^2 (Andres et al. 2013); this discrete, row-normalised
    version is the LAP of Biswas and Palamidessi (PRIVIC, Figs. 2-3).  Row normalisation makes its
    tight geo-ind level at most ``2 eps``; with ``pad=5`` and ``eps >= 0.4`` it is close to ``eps``.

    It differs from :func:`planar_laplace_channel`, which clamps the continuous mechanism onto the
    grid (outputs = inputs, boundary cells collect the tail mass).
    """
    if rows * cols * (rows + 2 * pad) * (cols + 2 * pad) > MAX_ENTRIES:
        raise ValueError(
            f"rows, cols, pad: the padded channel of {rows} x {cols} cells padded by {pad} exceeds "
            f"{MAX_ENTRIES} entries"
        )
    return _exp_channel(
        _padded_log_channel(rows, cols, epsilon, pad),
        epsilon=epsilon,
        what="padded planar Laplace channel",
        hint="PaddedPlanarLaplace(rows, cols, epsilon, pad=pad).log_channel()",
    )


@contract(distance=DistanceMatrix(square=False), epsilon=EPSILON, half=Boolean())
def exponential_channel(distance: Any, epsilon: float, half: bool = True) -> np.ndarray:
    """Exponential mechanism (McSherry & Talwar 2007) in its geo-ind form, M8.

    .. math:: C[x, z] = \\frac{\\exp(-c\\,\\varepsilon\\, d(x, z))}{\\sum_{z'} \\exp(-c\\,\\varepsilon\\, d(x, z'))},
              \\quad c = 1/2 \\text{ if half else } 1

    (ElSalamouny & Palamidessi 2020, §7).  With ``c = 1/2`` the row normaliser costs at most another ``eps d/2``, so the
    channel is eps-geo-ind; ``c = 1`` gives only 2 eps.  On a finite alphabet the tight value of
    :func:`geo_ind_epsilon` is usually *smaller* than the bound (e.g. eps/2 with ``half=True`` on two
    points).  Computed with a row-wise log-sum-exp; refused (``ValueError``) when an entry is below
    float64's normal range: :meth:`Exponential.log_channel` is exact at any epsilon.

    Parameters
    ----------
    distance : array-like, shape (k, m)
        ``d(x, z)`` between inputs and outputs (square with zero diagonal in the usual case Z = X).
    epsilon : float
    half : bool

    Returns
    -------
    ndarray, shape (k, m)
    """
    return _exp_channel(
        _exponential_log_channel(distance, epsilon, half),
        epsilon=epsilon,
        what="exponential-mechanism channel",
        hint="Exponential(distance, epsilon).log_channel()",
    )


# --------------------------------------------------------------------------------------------
# untruncated linear geometric mechanism (eq. 6, Prop. 6.3)
# --------------------------------------------------------------------------------------------


@contract(X=Array(1, integer=True), Z=Array(1, integer=True), epsilon=EPSILON)
def untruncated_geometric_matrix(X, Z, epsilon: float) -> np.ndarray:
    """``P(z | x) = c exp(-eps |z - x|)``, ``c = (1 - e^-eps)/(1 + e^-eps)`` (eq. 6), for integer
    inputs ``X`` (rows) and integer outputs ``Z`` (columns).  Rows sum to 1 only over all of Z;
    entries below ``1e-308`` (``eps |z - x| > ~708``) are 0 (this is a window of an infinite
    channel, not a channel)."""
    eps = epsilon
    if X.size * Z.size > MAX_ENTRIES:
        raise ValueError(f"X, Z: a {X.size} x {Z.size} matrix exceeds {MAX_ENTRIES} entries")
    a = np.exp(-eps)
    c = (1 - a) / (1 + a)
    return c * np.exp(-eps * np.abs(Z[None, :].astype(float) - X[:, None].astype(float)))


@contract(x=Array(None, integer=True), epsilon=EPSILON, rng=RandomState())
def untruncated_geometric_perturb(x, epsilon: float, *, rng=None) -> np.ndarray:
    """Sample eq. (6): ``z = x + G1 - G2`` with ``G1, G2`` i.i.d. geometric on {0, 1, ...},
    ``P(G = g) = (1 - alpha) alpha^g``, ``alpha = e^-eps`` (numpy's geometric starts at 1; the
    offsets cancel)."""
    rng = check_random_state(rng)
    eps = epsilon
    pr = -np.expm1(-eps)
    return x + rng.geometric(pr, size=x.shape) - rng.geometric(pr, size=x.shape)


# --------------------------------------------------------------------------------------------
# log domain: every metric channel built from log-probabilities (exact at any epsilon)
# --------------------------------------------------------------------------------------------


def _line_distance(k: int, spacing: float = 1.0) -> np.ndarray:
    idx = np.arange(k, dtype=np.float64)
    return np.abs(idx[:, None] - idx[None, :]) * spacing


def _geometric_log_channel(k: int, epsilon: float) -> np.ndarray:
    """``log C[x, z] = log c_z - eps |z - x|`` with ``log c_z = -log1p(e^{-eps})`` at the two
    boundary columns and ``log(1 - e^{-eps}) - log1p(e^{-eps})`` inside (eq. (7))."""
    l_edge = -math.log1p(_exp_neg(epsilon))
    lc = np.full(k, _log1mexp(epsilon) + l_edge)
    lc[0] = lc[-1] = l_edge
    return lc[None, :] - epsilon * _line_distance(k)


def _laplace_log_channel(k: int, epsilon: float, spacing: float) -> np.ndarray:
    """Log of :func:`laplace_channel` (``e = eps * spacing``): interior ``-e|z - x| + log sinh(e/2)``,
    diagonal ``log(1 - e^{-e/2})``, boundary ``-log 2 - e(|z - x| - 1/2)``, corners
    ``log1p(-e^{-e/2}/2)``."""
    e = epsilon * spacing
    D = _line_distance(k)
    L = -e * D + _log_sinh(e / 2.0)
    np.fill_diagonal(L, _log1mexp(e / 2.0))
    idx = np.arange(k, dtype=np.float64)
    L[:, 0] = -_LOG2 - e * (idx - 0.5)
    L[:, -1] = -_LOG2 - e * ((k - 1 - idx) - 0.5)
    L[0, 0] = L[-1, -1] = math.log1p(-0.5 * math.exp(-e / 2.0))
    return L


def _exponential_log_channel(D: np.ndarray, epsilon: float, half: bool) -> np.ndarray:
    logits = -(0.5 if half else 1.0) * epsilon * D
    return logits - _logsumexp_rows(logits)


def _log_lumped_kernel(rows: int, cols: int, h: float, w: float, epsilon: float, log_block_fn) -> np.ndarray:
    """:func:`_lumped_kernel` in the log domain: ``log`` of the normalised lumped offset kernel.

    ``log_block_fn(di, dj)`` returns the log kernel; tails are lumped with ``logaddexp.reduceat`` and
    accumulated with ``logaddexp.at``, so no mass underflows whatever ``epsilon * cell``.
    """
    Pr, Pc = _window(epsilon * h, rows), _window(epsilon * w, cols)
    dj = np.arange(-Pc, Pc + 1)
    col_starts = np.concatenate([[0], Pc - cols + 1 + np.arange(2 * cols)])
    LK = np.full((2 * rows + 1, 2 * cols + 1), -np.inf)
    di_all = np.arange(-Pr, Pr + 1)
    step = _chunk_rows(di_all.size, dj.size * 64)
    for start in range(0, di_all.size, step):
        di = di_all[start : start + step]
        lumped = np.logaddexp.reduceat(log_block_fn(di, dj), col_starts, axis=1)
        np.logaddexp.at(LK, np.clip(di, -rows, rows) + rows, lumped)
    return LK - logsumexp(LK)


def _log_clamp_gather(X: np.ndarray, n: int) -> np.ndarray:
    """:func:`_clamp_gather` in the log domain (cumulative log-sum-exp from either end)."""
    if n == 1:
        return logsumexp(X, axis=-1)[..., None, None]
    top = np.logaddexp.accumulate(X, axis=-1)
    bot = np.logaddexp.accumulate(X[..., ::-1], axis=-1)[..., ::-1]
    p = np.arange(n)[:, None]
    i = np.arange(n)[None, :]
    Y = X[..., i - p + n]
    Y[..., :, 0] = top[..., n - np.arange(n)]
    Y[..., :, n - 1] = bot[..., 2 * n - 1 - np.arange(n)]
    return Y


def _log_planar_from_kernel(LK: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Log of :func:`_planar_from_kernel`: clamp the lumped log kernel onto the grid, rows normalised."""
    T = _log_clamp_gather(LK.T, rows)  # [b, p, i]
    T = np.moveaxis(T, 0, -1)  # [p, i, b]
    M = _log_clamp_gather(T, cols)  # [p, i, q, j]
    k = rows * cols
    M = M.transpose(0, 2, 1, 3).reshape(k, k)
    return M - _logsumexp_rows(M)


def _planar_geometric_log_block(epsilon: float, h: float, w: float):
    def block(di, dj):
        return -epsilon * np.hypot(di[:, None] * h, dj[None, :] * w)

    return block


def _planar_laplace_log_block(epsilon: float, h: float, w: float, s: int):
    sub = (np.arange(s) + 0.5) / s - 0.5

    def block(di, dj):
        yy = (di[:, None] + sub[None, :]).reshape(-1) * h
        xx = (dj[:, None] + sub[None, :]).reshape(-1) * w
        E = (-epsilon * np.hypot(yy[:, None], xx[None, :])).reshape(di.size, s, dj.size, s)
        return logsumexp(E, axis=(1, 3))

    return block


def _planar_geometric_log_channel(rows: int, cols: int, epsilon: float, h: float, w: float) -> np.ndarray:
    LK = _log_lumped_kernel(rows, cols, h, w, epsilon, _planar_geometric_log_block(epsilon, h, w))
    return _log_planar_from_kernel(LK, rows, cols)


def _planar_laplace_log_channel(rows: int, cols: int, epsilon: float, h: float, w: float, s: int) -> np.ndarray:
    LK = _log_lumped_kernel(rows, cols, h, w, epsilon, _planar_laplace_log_block(epsilon, h, w, s))
    return _log_planar_from_kernel(LK, rows, cols)


def _padded_log_channel(rows: int, cols: int, epsilon: float, pad: int) -> np.ndarray:

    return _exponential_log_channel(padded_lattice_distance(rows, cols, pad=pad), epsilon, half=False)


# --------------------------------------------------------------------------------------------
# fast operators: the clamped offset kernels as FFT convolutions (channels.ConvolutionChannel)
# --------------------------------------------------------------------------------------------


def _geometric_operator(k: int, epsilon: float) -> ConvolutionChannel:
    r"""Truncated linear geometric mechanism on ``0..k-1`` as an FFT operator (= :func:`geometric_channel`).

    Offset kernel :math:`K(d) = \frac{1-\alpha}{1+\alpha}\alpha^{|d|}`, ``alpha = e^{-eps}``
    (ElSalamouny and Palamidessi 2020, eq. (6)), tails :math:`\sum_{|d| \ge k} = \alpha^k/(1+\alpha)`
    lumped at ``d = +-k``; clamped (eq. (7)).
    """
    alpha = math.exp(-epsilon)
    d = np.abs(np.arange(-k, k + 1)).astype(np.float64)
    K = (-math.expm1(-epsilon) / (1.0 + alpha)) * np.power(alpha, d)
    K[0] = K[-1] = alpha**k / (1.0 + alpha)
    return ConvolutionChannel(K, (k,), mode="clamp")


def _laplace_operator(k: int, epsilon: float, spacing: float = 1.0) -> ConvolutionChannel:
    r"""Discretised truncated Laplace mechanism on ``0..k-1`` as an FFT operator (= :func:`laplace_channel`).

    ``d = round(N)``, ``N ~ Laplace(1/eps)``: :math:`K(0) = 1 - e^{-e/2}`,
    :math:`K(d) = e^{-e|d|}\sinh(e/2)`, tails :math:`P(N \ge k - 1/2) = e^{-e(k - 1/2)}/2`
    lumped at ``+-k`` (``e = eps * spacing``).
    """
    e = epsilon * spacing
    d = np.abs(np.arange(-k, k + 1)).astype(np.float64)
    K = np.exp(-e * d + _log_sinh(e / 2.0))  # no overflow of sinh at large e
    K[k] = -math.expm1(-e / 2.0)
    K[0] = K[-1] = 0.5 * math.exp(-e * (k - 0.5))
    return ConvolutionChannel(K, (k,), mode="clamp")


def _planar_geometric_operator(rows: int, cols: int, epsilon: float, h: float, w: float) -> ConvolutionChannel:
    """Truncated planar geometric mechanism as an FFT operator (= :func:`planar_geometric_channel`):
    the lumped offset kernel (window with neglected mass below 1e-14, tails lumped at ``+-rows``,
    ``+-cols``), clamped to the grid."""

    def block(di, dj):
        return np.exp(-epsilon * np.hypot(di[:, None] * h, dj[None, :] * w))

    return ConvolutionChannel(_lumped_kernel(rows, cols, h, w, epsilon, block), (rows, cols), mode="clamp")


def _planar_laplace_operator(
    rows: int, cols: int, epsilon: float, h: float, w: float, subdivisions: int = 8
) -> ConvolutionChannel:
    """Planar Laplace discretised to the grid and clamped, as an FFT operator (= :func:`planar_laplace_channel`)."""
    s = subdivisions
    sub = (np.arange(s) + 0.5) / s - 0.5

    def block(di, dj):
        yy = (di[:, None] + sub[None, :]).reshape(-1) * h
        xx = (dj[:, None] + sub[None, :]).reshape(-1) * w
        dens = np.exp(-epsilon * np.hypot(yy[:, None], xx[None, :]))
        return dens.reshape(di.size, s, dj.size, s).sum(axis=(1, 3))

    return ConvolutionChannel(_lumped_kernel(rows, cols, h, w, epsilon, block), (rows, cols), mode="clamp")


# --------------------------------------------------------------------------------------------
# the mechanism objects
# --------------------------------------------------------------------------------------------

_CELL = AnyOf(POSITIVE, Array(1, shape=(2,), low=0.0))


class TruncatedGeometric(MetricMechanism):
    """Truncated linear geometric mechanism on ``{0..k-1}`` as a :class:`~ldpnb.mechanisms.Mechanism`.

    ``z = x + G_1 - G_2`` clamped to ``[0, k-1]`` (Ghosh et al. 2009; ElSalamouny & Palamidessi 2020,
    eqs. (6)-(7); :func:`geometric_channel`).  Claim: eps-geo-indistinguishable w.r.t. ``|x - x'|``, tight.

    Examples
    --------
    >>> m = TruncatedGeometric(5, 0.5)
    >>> m.channel()[0].round(4)              # P(y | x = 0): the mass decays as e^{-eps |y - x|}
    array([0.6225, 0.1486, 0.0901, 0.0546, 0.0842])
    >>> m.check()                            # geo-indistinguishability, tight
    LevelCheck(claimed=0.5, tight=0.5, holds=True, notion='geo-ind', rtol=1e-09)
    """

    family = "geometric"
    aliases = ("truncated geometric",)
    metric = "|x - x'|"

    @contract(k=Integer(2, MAX_DENSE), epsilon=EPSILON)
    def __init__(self, k: int, epsilon: float) -> None:
        self.k, self.epsilon = k, epsilon

    @classmethod
    def on(cls, domain: Domain, epsilon: float) -> TruncatedGeometric:
        """The truncated geometric mechanism on the ``domain.k`` values of the line."""
        domain._need("k")
        return cls(domain.k, epsilon)

    @property
    def n_inputs(self) -> int:
        return self.k

    @property
    def n_outputs(self) -> int:
        return self.k

    def params(self) -> dict[str, Any]:
        return {"k": self.k, "epsilon": self.epsilon}

    def distance(self) -> np.ndarray:
        return _line_distance(self.k)

    def _log_channel(self) -> np.ndarray:
        return _geometric_log_channel(self.k, self.epsilon)

    def _log_ratios(self) -> np.ndarray:
        """``log(C[x, z] / C[0, z]) = -eps (|z - x| - z)`` (the column factor ``c_z`` cancels)."""
        idx = np.arange(self.k, dtype=np.float64)
        return -self.epsilon * (np.abs(idx[None, :] - idx[:, None]) - idx[None, :])

    def _float_channel(self) -> np.ndarray:
        """:func:`geometric_channel`, bit for bit."""
        return geometric_channel(self.k, self.epsilon)

    def operator(self):
        """The FFT products of the clamped offset kernel (:class:`~ldpnb.channels.ConvolutionChannel`)."""
        return _geometric_operator(self.k, self.epsilon)

    def _perturb(self, x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        success = -math.expm1(-self.epsilon)
        noise = rng.geometric(success, size=x.size) - rng.geometric(success, size=x.size)
        return np.clip(x + noise, 0, self.k - 1).astype(np.int64)


class DiscreteLaplace(MetricMechanism):
    """Discretised, truncated Laplace mechanism on ``k`` points ``spacing`` apart.

    ``z = x + N``, ``N ~ Laplace(1/eps)`` in distance units, rounded to the nearest point and clamped
    (Andres et al. 2013; ElSalamouny & Palamidessi 2020, §7; :func:`laplace_channel`).  Claim:
    eps-geo-indistinguishable w.r.t. ``spacing |x - x'|`` (post-processing of the Laplace mechanism;
    tight for ``k >= 3``, ``log(2 e^{e/2} - 1) < e`` for ``k = 2``, ``e = eps * spacing``).
    """

    family = "Laplace"
    aliases = ("discrete Laplace", "discretised Laplace")
    metric = "spacing |x - x'|"

    @contract(k=Integer(2, MAX_DENSE), epsilon=EPSILON, spacing=POSITIVE)
    def __init__(self, k: int, epsilon: float, spacing: float = 1.0) -> None:
        self.k, self.epsilon, self.spacing = k, epsilon, spacing

    @classmethod
    def on(cls, domain: Domain, epsilon: float) -> DiscreteLaplace:
        """The discretised Laplace mechanism on the ``domain.k`` values of the line (unit spacing)."""
        domain._need("k")
        return cls(domain.k, epsilon)

    @property
    def n_inputs(self) -> int:
        return self.k

    @property
    def n_outputs(self) -> int:
        return self.k

    def params(self) -> dict[str, Any]:
        out: dict[str, Any] = {"k": self.k, "epsilon": self.epsilon}
        if self.spacing != 1.0:
            out["spacing"] = self.spacing
        return out

    def distance(self) -> np.ndarray:
        return _line_distance(self.k, self.spacing)

    def _log_channel(self) -> np.ndarray:
        return _laplace_log_channel(self.k, self.epsilon, self.spacing)

    def operator(self):
        """The FFT products of the clamped offset kernel (:class:`~ldpnb.channels.ConvolutionChannel`)."""
        return _laplace_operator(self.k, self.epsilon, self.spacing)

    def _perturb(self, x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        z = x + rng.laplace(0.0, 1.0 / (self.epsilon * self.spacing), size=x.size)
        return np.clip(np.floor(z + 0.5), 0, self.k - 1).astype(np.int64)


class Exponential(MetricMechanism):
    """Exponential mechanism in its geo-ind form (McSherry & Talwar 2007; :func:`exponential_channel`).

    ``C[x, z] ~ exp(-c eps d(x, z))`` on the inputs themselves (``distance`` square, ``Z = X``),
    ``c = 1/2`` (``half=True``: claim eps-geo-ind) or ``c = 1`` (claim ``2 eps``).  The tight level
    is usually smaller than the claim (the row normalisers partly cancel).  Reports are drawn from
    the channel.
    """

    family = "exponential"
    aliases = ("exponential mechanism",)
    metric = "the given distance"

    @contract(distance=DistanceMatrix(max_size=MAX_DENSE * MAX_DENSE), epsilon=EPSILON, half=Boolean())
    def __init__(self, distance: Any, epsilon: float, half: bool = True) -> None:
        if distance.shape[0] < 2:
            raise ValueError(f"distance must have at least 2 points, got shape {distance.shape}")
        self._D = distance.copy()
        self._D.setflags(write=False)
        self.epsilon, self.half = epsilon, half

    @property
    def n_inputs(self) -> int:
        return self._D.shape[0]

    @property
    def n_outputs(self) -> int:
        return self._D.shape[0]

    @classmethod
    def on(cls, domain: Domain, epsilon: float) -> Exponential:
        """The exponential mechanism (``half=True``) on ``domain.distance``, by default ``|x - x'|`` on
        the ``domain.k`` values of the line."""
        if domain.distance is not None:
            return cls(domain.distance, epsilon)
        domain._need("k")
        return cls(_line_distance(domain.k), epsilon)

    @property
    def claimed(self) -> float:
        return self.epsilon if self.half else 2.0 * self.epsilon

    def params(self) -> dict[str, Any]:
        return {"k": self.n_inputs, "epsilon": self.epsilon, "half": self.half}

    def distance(self) -> np.ndarray:
        return self._D.copy()

    def _log_channel(self) -> np.ndarray:
        return _exponential_log_channel(self._D, self.epsilon, self.half)


class _Planar(MetricMechanism):
    metric = "Euclidean distance between cell centres"

    rows: int
    cols: int
    h: float
    w: float

    def _set_grid(self, rows: int, cols: int, cell_size: Any) -> None:
        self.rows, self.cols = _check_grid(rows, cols)
        self.h, self.w = _cell_pair(cell_size)
        if self.rows * self.cols > MAX_DENSE:
            raise ValueError(f"rows * cols must be <= {MAX_DENSE} for a dense channel, got {self.rows * self.cols}")

    @property
    def n_inputs(self) -> int:
        return self.rows * self.cols

    @property
    def n_outputs(self) -> int:
        return self.rows * self.cols

    def distance(self) -> np.ndarray:

        return lattice_distance_matrix(self.rows, self.cols, cell_size=(self.h, self.w))

    def params(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rows": self.rows, "cols": self.cols, "epsilon": self.epsilon}
        if (self.h, self.w) != (1.0, 1.0):
            out["cell_size"] = (self.h, self.w) if self.h != self.w else self.h
        return out


class PlanarGeometric(_Planar):
    """Truncated planar geometric mechanism on a ``rows x cols`` grid (:func:`planar_geometric_channel`).

    ``P(z | x) ~ exp(-eps d(x, z))`` on the lattice of cell centres, clamped onto the grid
    (Chatzikokolakis, ElSalamouny & Palamidessi 2017).  Claim: eps-geo-indistinguishable w.r.t. the
    Euclidean distance between cell centres (tight when the grid has an interior cell).  Reports
    are drawn from the channel.
    """

    family = "planar geometric"
    aliases = ("truncated planar geometric",)

    @contract(rows=Integer(1, MAX_DENSE), cols=Integer(1, MAX_DENSE), epsilon=EPSILON, cell_size=_CELL)
    def __init__(self, rows: int, cols: int, epsilon: float, cell_size: Any = 1.0) -> None:
        self._set_grid(rows, cols, cell_size)
        self.epsilon = epsilon

    @classmethod
    def on(cls, domain: Domain, epsilon: float) -> PlanarGeometric:
        """The planar geometric mechanism on the ``rows x cols`` grid of the domain."""
        domain._need("rows", "cols")
        return cls(domain.rows, domain.cols, epsilon, domain.cell_size)

    def _log_channel(self) -> np.ndarray:
        return _planar_geometric_log_channel(self.rows, self.cols, self.epsilon, self.h, self.w)

    def _float_channel(self) -> np.ndarray:
        """:func:`planar_geometric_channel`, bit for bit."""
        return planar_geometric_channel(self.rows, self.cols, self.epsilon, (self.h, self.w))

    def operator(self):
        """The 2-D FFT products of the clamped offset kernel (:class:`~ldpnb.channels.ConvolutionChannel`)."""
        return _planar_geometric_operator(self.rows, self.cols, self.epsilon, self.h, self.w)


class PlanarLaplace(_Planar):
    """Planar Laplace mechanism discretised to a ``rows x cols`` grid (:func:`planar_laplace_channel`).

    The continuous mechanism (Andres et al. 2013) from the cell centre, the output mapped to its
    cell after clamping.  :meth:`perturb` samples the continuous mechanism; :meth:`channel` integrates
    its density over the cells by the midpoint rule on ``subdivisions**2`` sub-points (relative
    error about 1e-3 with 8 subdivisions, see :func:`planar_laplace_channel`); every entry is a
    positive combination of density values at the same sub-points, so the channel is
    eps-geo-indistinguishable w.r.t. the distance between cell centres exactly.
    """

    family = "planar Laplace"

    @contract(
        rows=Integer(1, MAX_DENSE),
        cols=Integer(1, MAX_DENSE),
        epsilon=EPSILON,
        cell_size=_CELL,
        subdivisions=Integer(1, 64),
    )
    def __init__(self, rows: int, cols: int, epsilon: float, cell_size: Any = 1.0, *, subdivisions: int = 8) -> None:
        self._set_grid(rows, cols, cell_size)
        self.epsilon, self.subdivisions = epsilon, subdivisions

    @classmethod
    def on(cls, domain: Domain, epsilon: float) -> PlanarLaplace:
        """The planar Laplace mechanism on the ``rows x cols`` grid of the domain, with
        ``subdivisions = ceil(8 eps max(h, w))`` (between 8 and 64) midpoint sub-points per cell side,
        so that a sub-cell spans at most 1/8 of the decay length ``1/eps`` (at ``eps h = 8`` the default
        8 leave a relative quadrature error of 3e-2, which a chi-square test of the sampler against
        the channel detects at 2e6 draws; 64 leave 2e-3)."""
        domain._need("rows", "cols")
        h, w = _cell_pair(domain.cell_size)
        s = int(min(64, max(8, math.ceil(8.0 * epsilon * max(h, w)))))
        return cls(domain.rows, domain.cols, epsilon, domain.cell_size, subdivisions=s)

    def _log_channel(self) -> np.ndarray:
        return _planar_laplace_log_channel(self.rows, self.cols, self.epsilon, self.h, self.w, self.subdivisions)

    def _float_channel(self) -> np.ndarray:
        """:func:`planar_laplace_channel`, bit for bit."""
        return planar_laplace_channel(
            self.rows, self.cols, self.epsilon, (self.h, self.w), subdivisions=self.subdivisions
        )

    def operator(self):
        """The 2-D FFT products of the clamped offset kernel (:class:`~ldpnb.channels.ConvolutionChannel`)."""
        return _planar_laplace_operator(self.rows, self.cols, self.epsilon, self.h, self.w, self.subdivisions)

    def _perturb(self, x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        i, j = np.divmod(x, self.cols)
        theta = rng.random(x.size) * (2.0 * np.pi)
        r = rng.gamma(2.0, 1.0 / self.epsilon, size=x.size)
        zi = np.clip(np.floor(i + r * np.cos(theta) / self.h + 0.5), 0, self.rows - 1).astype(np.int64)
        zj = np.clip(np.floor(j + r * np.sin(theta) / self.w + 0.5), 0, self.cols - 1).astype(np.int64)
        return zi * self.cols + zj


class PaddedPlanarLaplace(_Planar):
    """Discrete planar Laplace with outputs on the grid padded by ``pad`` cells, rows normalised
    (the LAP of Biswas & Palamidessi's PRIVIC; :func:`planar_laplace_padded_channel`).

    ``C[x, y] ~ exp(-eps d(x, y))`` over the ``(rows + 2 pad) x (cols + 2 pad)`` output cells (cell
    units).  Row normalisation costs at most another ``eps d``: claim ``2 eps``-geo-indistinguishable
    w.r.t. the distance between cell centres (cell units); its tight level lies between ``eps`` and
    ``2 eps``.  Reports (output cells, row-major on the padded grid) are drawn from the channel.
    """

    family = "padded planar Laplace"
    aliases = ("LAP", "padded LAP")

    @contract(rows=Integer(1, MAX_DENSE), cols=Integer(1, MAX_DENSE), epsilon=EPSILON, pad=Integer(0, 1024))
    def __init__(self, rows: int, cols: int, epsilon: float, *, pad: int = 5) -> None:
        self._set_grid(rows, cols, 1.0)
        self.epsilon, self.pad = epsilon, pad
        if self.n_inputs * self.n_outputs > (1 << 28):
            raise ValueError(
                f"pad = {pad}: the padded channel has {self.n_inputs} x {self.n_outputs} entries, more than 2**28"
            )

    @classmethod
    def on(cls, domain: Domain, epsilon: float) -> PaddedPlanarLaplace:
        """The padded planar Laplace mechanism on the ``rows x cols`` grid, padded by ``domain.pad``."""
        domain._need("rows", "cols")
        return cls(domain.rows, domain.cols, epsilon, pad=domain.pad)

    @property
    def n_outputs(self) -> int:
        return (self.rows + 2 * self.pad) * (self.cols + 2 * self.pad)

    @property
    def claimed(self) -> float:
        return 2.0 * self.epsilon

    def params(self) -> dict[str, Any]:
        return {"rows": self.rows, "cols": self.cols, "epsilon": self.epsilon, "pad": self.pad}

    def _log_channel(self) -> np.ndarray:
        return _padded_log_channel(self.rows, self.cols, self.epsilon, self.pad)
