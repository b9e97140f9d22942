"""Operations valid on any finite channel ``C[x, y] = P(y | x)``: sampling, count-level
simulation, tight LDP and geo-indistinguishability levels, clamping of grid outputs.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ldpnb.contracts import (
    MAX_DENSE,
    MAX_ENTRIES,
    Array,
    Channel,
    Counts,
    DistanceMatrix,
    Integer,
    LogChannel,
    NonnegativeMatrix,
    Optional,
    RandomState,
    contract,
)
from ldpnb.utils import (
    _chunk_rows,
    check_random_state,
)

_LOGCHANNEL = LogChannel()
_VALUES = Array(1, integer=True, low=0)

__all__ = [
    "sample_channel",
    "simulate_counts",
    "ldp_epsilon",
    "geo_ind_epsilon",
    "ldp_epsilon_log",
    "geo_ind_epsilon_log",
    "exact_epsilon",
    "pair_epsilon",
    "worst_pair",
    "simulate_counts_batch",
    "clamp_grid_outputs",
]


# ---------------------------------------------------------------------------------------------
# any finite channel
# ---------------------------------------------------------------------------------------------


@contract(channel=Channel(), x=_VALUES, rng=RandomState())
def sample_channel(channel: Any, x: Any, *, rng: Any = None) -> np.ndarray:
    """Draw one output per user from the rows ``channel[x_i]`` (inverse CDF, vectorised).

    Each user draws ``u ~ U[0, 1)`` and outputs ``min{y : F[x_i, y] > u}`` with ``F`` the row-wise
    cumulative sums (normalised; entries from the last positive column on set to 1, so zero
    columns are never drawn).  The search is a vectorised binary search over all users at once
    (``ceil(log2 m)`` steps), which keeps full precision whatever the number of rows (a flattened
    offset array ``F + x`` would lose ~``log2 k`` bits).

    Parameters
    ----------
    channel : array-like, shape (k, m)
    x : array-like of int, shape (n,)
        Inputs in ``{0..k-1}``.
    rng : Generator, int or None

    Returns
    -------
    ndarray of int64, shape (n,)
    """
    rng = check_random_state(rng)
    C = channel
    k, m = C.shape
    if np.any(x >= k):
        raise ValueError(f"x must lie in the domain {{0, ..., {k - 1}}} of the channel rows (got max {x.max()})")
    xa = x
    F = np.cumsum(C, axis=1)
    F /= F[:, -1:]
    last_pos = m - 1 - np.argmax(C[:, ::-1] > 0, axis=1)
    F[np.arange(m)[None, :] >= last_pos[:, None]] = 1.0
    u = rng.random(xa.size)
    lo = np.zeros(xa.size, dtype=np.int64)
    hi = np.full(xa.size, m - 1, dtype=np.int64)
    Fflat = F.ravel()
    base = xa * m
    for _ in range(max(1, int(math.ceil(math.log2(m))) + 1) if m > 1 else 0):
        mid = (lo + hi) // 2
        cond = Fflat[base + mid] > u
        hi = np.where(cond, mid, hi)
        lo = np.where(cond, lo, mid + 1)
    return lo


@contract(channel=Channel(), input_counts=Counts(), rng=RandomState())
def simulate_counts(channel: Any, input_counts: Any, *, rng: Any = None) -> np.ndarray:
    """Output counts of a finite channel for given input counts: one multinomial per input value.

    ``counts = sum_{x : N_x > 0} Multinomial(N_x, channel[x])`` -- exactly the law of
    ``bincount(sample_channel(channel, x))`` for any population with these input counts, at a cost
    O(k m) independent of n.

    Parameters
    ----------
    channel : array-like, shape (k, m)
    input_counts : array-like of int, shape (k,)
    rng : Generator, int or None

    Returns
    -------
    ndarray of int64, shape (m,)
    """
    rng = check_random_state(rng)
    C, N = channel, input_counts
    if N.size != C.shape[0]:
        raise ValueError(f"input_counts must have one entry per channel row ({C.shape[0]}), got {N.size}")
    nz = np.flatnonzero(N)
    out = np.zeros(C.shape[1], dtype=np.int64)
    if nz.size == 0:
        return out
    P = C[nz] / C[nz].sum(axis=1, keepdims=True)
    step = _chunk_rows(nz.size, C.shape[1])
    for start in range(0, nz.size, step):
        sl = slice(start, start + step)
        out += rng.multinomial(N[nz[sl]], P[sl]).sum(axis=0)
    return out


def _ldp_level_from_log(L: np.ndarray) -> float:
    """``max_y (max_x L[x, y] - min_x L[x, y])`` over the columns that are not all ``-inf``."""
    lmax = L.max(axis=0)
    lmin = L.min(axis=0)
    used = lmax > -np.inf
    if not np.any(used):  # pragma: no cover - impossible for rows summing to 1
        return 0.0
    if np.any(lmin[used] == -np.inf):
        return math.inf
    return float(np.max(lmax[used] - lmin[used]))


def _geo_level_from_log(L: np.ndarray, D: np.ndarray) -> float:
    """``max_{x != x', y} (L[x, y] - L[x', y]) / d(x, x')`` (``0/0`` columns ignored), by blocks of rows."""
    k, m = L.shape
    has_zero = bool(np.any(L == -np.inf))
    best = 0.0
    step = _chunk_rows(k, k * m, budget=1 << 20)  # 8 MiB blocks: cache-friendly
    buf = np.empty((step, k, m))
    for start in range(0, k, step):
        stop = min(k, start + step)
        diff = buf[: stop - start]
        with np.errstate(invalid="ignore"):
            np.subtract(L[start:stop, None, :], L[None, :, :], out=diff)  # (b, k, m)
        if has_zero:
            R = np.fmax.reduce(diff, axis=-1)  # NaN (0/0) ignored; all-NaN -> NaN
            R = np.where(np.isnan(R), -np.inf, R)
        else:
            R = diff.max(axis=-1)
        d = D[start:stop]
        rows = np.arange(start, stop)
        R[rows - start, rows] = -np.inf  # exclude x == x'
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(d > 0, R / np.where(d > 0, d, 1.0), np.where(R > 0, np.inf, -np.inf))
        best = max(best, float(np.max(ratio)))
    return best


@contract(channel=Channel())
def ldp_epsilon(channel: Any) -> float:
    """Tight LDP level of a finite channel: ``max_y log(max_x C[x, y] / min_x C[x, y])``.

    All-zero columns are ignored; a column mixing zero and nonzero entries gives ``inf``
    (Definition of eps-LDP, e.g. Arcolezi et al. 2023 Def. 1).  Computed with logarithms, so tiny
    entries do not overflow the ratio.  A channel whose positive entries underflow float64 has a
    level that this matrix cannot show: build it in the log domain and use :func:`ldp_epsilon_log`.

    Parameters
    ----------
    channel : array-like, shape (k, m)
        Rows sum to 1.

    Returns
    -------
    float
    """
    with np.errstate(divide="ignore"):
        return _ldp_level_from_log(np.log(channel))


@contract(log_channel=LogChannel())
def ldp_epsilon_log(log_channel: Any) -> float:
    """Tight LDP level from log-probabilities: ``max_y (max_x L[x, y] - min_x L[x, y])``.

    ``L = log C`` with ``-inf`` for zero entries (e.g. :meth:`ldpnb.mechanisms.Mechanism.log_channel`).
    Differences of log-probabilities keep the level exact (to rounding) at any epsilon, where the
    probabilities themselves underflow float64 (``exp(-745)`` is 0).
    """
    return _ldp_level_from_log(log_channel)


@contract(channel=Channel(), distance=DistanceMatrix())
def geo_ind_epsilon(channel: Any, distance: Any) -> float:
    """Tight geo-indistinguishability (d-privacy) level of a finite channel.

    .. math:: \\varepsilon_g = \\max_{x \\ne x',\\, y} \\frac{\\log(C[x, y] / C[x', y])}{d(x, x')}

    (Andres et al. 2013; ElSalamouny & Palamidessi 2020 §2.3), in units of ``1/distance``.
    ``0/0`` columns are ignored; ``C[x, y] > 0 = C[x', y]`` gives ``inf``, as do two distinct rows
    at distance 0.  Vectorised over blocks of input rows (the ``(block, k, m)`` temporary stays
    below ~32 MiB), so ``k ~ 1000`` costs ``k^2 m`` operations but little memory.  For channels
    whose entries underflow float64 use :func:`geo_ind_epsilon_log`.

    Parameters
    ----------
    channel : array-like, shape (k, m)
    distance : array-like, shape (k, k)
        Distances between inputs (e.g. :func:`ldpnb.data.lattice_distance_matrix`).

    Returns
    -------
    float
    """
    C, D = channel, distance
    if D.shape[0] != C.shape[0]:
        raise ValueError(f"distance must be {C.shape[0]} x {C.shape[0]} to match the channel rows, got {D.shape}")
    with np.errstate(divide="ignore"):
        return _geo_level_from_log(np.log(C), D)


@contract(log_channel=LogChannel(), distance=DistanceMatrix())
def geo_ind_epsilon_log(log_channel: Any, distance: Any) -> float:
    """Tight geo-indistinguishability level from log-probabilities ``L = log C`` (``-inf`` = 0).

    Same definition as :func:`geo_ind_epsilon`; exact at any epsilon (see :func:`ldp_epsilon_log`).
    """
    L, D = log_channel, distance
    if D.shape[0] != L.shape[0]:
        raise ValueError(f"distance must be {L.shape[0]} x {L.shape[0]} to match the channel rows, got {D.shape}")
    return _geo_level_from_log(L, D)


# ---------------------------------------------------------------------------------------------
# exact levels
# ---------------------------------------------------------------------------------------------


@contract(channel=Channel(), distance=Optional(DistanceMatrix()))
def exact_epsilon(channel: Any, distance: Any = None) -> float:
    """Tight privacy level of a finite channel ``C[x, y] = P(y | x)``.

    ``distance=None``: the LDP level ``max_{x, x', y} ln(C[x, y] / C[x', y])``
    (:func:`ldp_epsilon`); otherwise the geo-indistinguishability constant
    ``max ln(C[x, y] / C[x', y]) / d(x, x')`` (:func:`geo_ind_epsilon`).
    """
    if distance is None:
        return float(ldp_epsilon(channel))
    return float(geo_ind_epsilon(channel, distance))


@contract(channel=Channel(), x1=Integer(0), x2=Integer(0))
def pair_epsilon(channel: Any, x1: int, x2: int) -> float:
    """Tight level of one pair of inputs: ``max_y |ln(C[x1, y] / C[x2, y])|`` (0/0 columns ignored)."""
    C = channel
    k = C.shape[0]
    for name, v in (("x1", x1), ("x2", x2)):
        if not v < k:
            raise ValueError(f"{name} must be an input index in {{0, ..., {k - 1}}}, got {v!r}")
    a, b = C[int(x1)], C[int(x2)]
    used = (a > 0) | (b > 0)
    if np.any((a[used] == 0) | (b[used] == 0)):
        return math.inf
    return float(np.max(np.abs(np.log(a[used]) - np.log(b[used]))))


@contract(channel=Channel(), distance=Optional(DistanceMatrix()))
def worst_pair(channel: Any, distance: Any = None) -> tuple[int, int]:
    """The pair ``(x1, x2)`` that attains the tight level (per unit of distance when given).

    Returns the pair with ``C[x1, y] / C[x2, y]`` maximal for some ``y`` (so that the event
    ``{y}`` favours ``x1``).  Cost ``O(k^2 m)``; meant for the small channels of the audit.
    """
    C = channel
    k = C.shape[0]
    if k < 2:
        raise ValueError(f"channel must have at least 2 rows for a pair, got {k}")
    if k * k * C.shape[1] > MAX_ENTRIES:
        raise ValueError(
            f"channel of shape {C.shape}: the k^2 m = {k * k * C.shape[1]} pair table exceeds {MAX_ENTRIES}"
        )
    with np.errstate(divide="ignore"):
        L = np.log(C)
    with np.errstate(invalid="ignore"):
        diff = L[:, None, :] - L[None, :, :]
    diff = np.where(np.isnan(diff), -np.inf, diff).max(axis=2)
    np.fill_diagonal(diff, -np.inf)
    if distance is not None:
        D = distance
        if D.shape != (k, k):
            raise ValueError(f"distance must be {k} x {k} to match the channel rows, got {D.shape}")
        with np.errstate(divide="ignore", invalid="ignore"):
            diff = np.where(D > 0, diff / np.where(D > 0, D, 1.0), -np.inf)
        np.fill_diagonal(diff, -np.inf)
    i, j = np.unravel_index(int(np.argmax(diff)), diff.shape)
    return int(i), int(j)


@contract(channel=Channel(), input_counts=Counts(), reps=Integer(1, MAX_ENTRIES), rng=RandomState())
def simulate_counts_batch(channel, input_counts, reps: int, *, rng=None) -> np.ndarray:
    """``reps`` independent report-count vectors: for each input value ``x`` with ``N_x > 0``
    users, ``rng.multinomial(N_x, M[x], size=reps)``, summed over ``x`` (exact in law, loop over
    input values only).  Rows of ``channel`` are normalised (a row with no mass is refused).
    Returns ``(reps, m)`` int64."""
    rng = check_random_state(rng)
    M, N = channel, input_counts
    if N.size != M.shape[0]:
        raise ValueError(f"input_counts must have one entry per channel row ({M.shape[0]}), got {N.size}")
    rows = M.sum(axis=1, keepdims=True)
    if np.any(rows[N > 0] <= 0):
        raise ValueError("channel has a row with no mass for an input with users")
    if reps * M.shape[1] > MAX_ENTRIES:
        raise ValueError(f"reps x outputs = {reps} x {M.shape[1]} exceeds {MAX_ENTRIES} entries")
    P = M / np.where(rows > 0, rows, 1.0)
    out = np.zeros((reps, M.shape[1]), dtype=np.int64)
    for x in np.flatnonzero(N):
        out += rng.multinomial(int(N[x]), P[x], size=reps)
    return out


# --------------------------------------------------------------------------------------------
# small utilities for the experiments
# --------------------------------------------------------------------------------------------


@contract(
    channel=NonnegativeMatrix(),
    rows=Integer(1, MAX_DENSE),
    cols=Integer(1, MAX_DENSE),
    out_rows=Integer(1, MAX_DENSE),
    out_cols=Integer(1, MAX_DENSE),
)
def clamp_grid_outputs(channel, rows: int, cols: int, out_rows: int, out_cols: int) -> np.ndarray:
    """Post-process a channel on a ``rows x cols`` grid (row-major outputs) by clamping each
    output cell ``(i, j)`` to ``(min(i, out_rows-1), min(j, out_cols-1))`` (ElSalamouny &
    Palamidessi 2020, §6.4, "truncating the noisy data to a smaller grid").  Returns
    ``(k, out_rows*out_cols)``; rows keep their sums."""
    M = channel
    if M.shape[1] != rows * cols:
        raise ValueError(f"channel must have rows * cols = {rows * cols} columns, got {M.shape[1]}")
    if not (out_rows <= rows and out_cols <= cols):
        raise ValueError(f"out_rows, out_cols must be <= rows, cols, got {out_rows} x {out_cols} for {rows} x {cols}")
    i, j = np.divmod(np.arange(rows * cols), cols)
    dest = np.minimum(i, out_rows - 1) * out_cols + np.minimum(j, out_cols - 1)
    if rows * cols * out_rows * out_cols <= MAX_ENTRIES // 8:
        A = np.zeros((rows * cols, out_rows * out_cols))
        A[np.arange(rows * cols), dest] = 1.0
        return M @ A
    out = np.zeros((M.shape[0], out_rows * out_cols))
    np.add.at(out.T, dest, M.T)
    return out
