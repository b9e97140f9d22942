"""Small helpers shared by the mechanism families: the log-domain arithmetic that keeps every
channel's level exact at any epsilon, and the refusal of float channels that float64 cannot hold.
"""

from __future__ import annotations

import math

import numpy as np

from ldpnb.contracts import Bits, Instance, Probability, RandomState, contract
from ldpnb.utils import check_random_state

# Largest output alphabet the exact enumerated channels may have (columns of the matrix).
_MAX_ENUM_COLUMNS = 1 << 22

#: ``log`` of the smallest positive normal double (``-708.396...``).  A probability below
#: ``exp(LOG_TINY)`` is subnormal (it has lost relative precision) or 0: a float channel holding one
#: no longer shows its mechanism's level, so the plain channel builders refuse it.
LOG_TINY = math.log(np.finfo(np.float64).tiny)

_LOG2 = math.log(2.0)


# ---------------------------------------------------------------------------------------------
# small private helpers
# ---------------------------------------------------------------------------------------------


def _exp_neg(epsilon: float) -> float:
    """``exp(-epsilon)``: computing with ``e^{-eps}`` avoids overflow of ``e^{eps}`` at large eps."""
    return math.exp(-epsilon)


def _log1mexp(a: float) -> float:
    """``log(1 - exp(-a))`` for ``a > 0``, accurate for small and large ``a`` (Maechler 2012)."""
    return math.log(-math.expm1(-a)) if a <= _LOG2 else math.log1p(-math.exp(-a))


def _log_sinh(t: float) -> float:
    """``log(sinh(t))`` for ``t > 0`` without overflow: ``t + log(1 - e^{-2t}) - log 2``."""
    return t + _log1mexp(2.0 * t) - _LOG2


def _exp_channel(L: np.ndarray, *, epsilon: float, what: str, hint: str) -> np.ndarray:
    """``exp(L)`` for a log channel whose positive entries all stay in float64's normal range.

    Raises a ``ValueError`` naming ``epsilon`` when some positive probability is below the smallest
    normal double (``exp(-708.4)``): as a float matrix that channel would show entries 0 (or
    subnormal) and an infinite (or wrong) level; its log-probabilities keep it exact.
    """
    finite = L[L > -np.inf]
    lo = float(finite.min()) if finite.size else 0.0
    if lo < LOG_TINY:
        raise ValueError(
            f"epsilon = {epsilon:g} is beyond what a float64 {what} can represent: its smallest probability is "
            f"exp({lo:.6g}), below the smallest normal double exp({LOG_TINY:.4f}), so the matrix would hold 0 "
            f"where the mechanism has a positive probability (and an infinite level); use {hint}, which is exact "
            "at any epsilon"
        )
    return np.exp(L)


def _logsumexp_rows(L: np.ndarray) -> np.ndarray:
    """Row-wise ``log sum exp`` (shape ``(k, 1)``), rows with a finite entry."""
    m = L.max(axis=1, keepdims=True)
    return m + np.log(np.exp(L - m).sum(axis=1, keepdims=True))


# ---------------------------------------------------------------------------------------------
# kernels shared by the per-user samplers and servers (performance issue #22)
# ---------------------------------------------------------------------------------------------

#: Rows per block of :func:`bool_column_counts` (a uint8 column sum cannot overflow below 256 rows).
_COUNT_BLOCK = 255


@contract(B=Bits(2))
def bool_column_counts(B: np.ndarray) -> np.ndarray:
    """``B.sum(axis=0)`` of a C-contiguous boolean (or 0/1 uint8) ``(n, k)`` matrix, as int64.

    Blocks of 255 rows are summed without widening: in uint8, or, when ``k`` is a multiple of 8, in
    uint64 words holding 8 columns each (no carry crosses a byte: a column sums to at most 255 in a
    block), then the block sums are added into an int64 total.  ``bool.sum(axis=0)`` widens every
    entry to int64 first and runs at about a tenth of the read bandwidth.  The result is exactly
    the same.
    """
    n, k = B.shape
    U = B.view(np.uint8) if B.dtype == bool else B.astype(np.uint8)
    W = U.view(np.uint64) if (k % 8 == 0 and U.flags.c_contiguous) else U
    total = np.zeros(k, dtype=np.int64)
    b = _COUNT_BLOCK
    for s in range(0, n, b * 64):
        blk = W[s : s + b * 64]
        nb = blk.shape[0] // b
        if nb:
            part = blk[: nb * b].reshape(nb, b, -1).sum(axis=1, dtype=W.dtype)
            total += part.view(np.uint8).reshape(nb, k).sum(axis=0, dtype=np.int64)
        total += U[s + nb * b : s + blk.shape[0]].sum(axis=0, dtype=np.int64)
    return total


@contract(rng=RandomState(), shape=Instance(tuple, example=(2, 3)))
def uniform_bytes(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Independent uniform bytes: the raw 64-bit outputs of the generator's bit generator, eight
    bytes each (every bit of a PCG64/Philox/SFC64/MT19937 output is uniform), about ten times faster
    than ``rng.integers(0, 256, dtype=np.uint8)``."""

    rng = check_random_state(rng)
    size = int(np.prod(shape))
    raw = rng.bit_generator.random_raw((size + 7) // 8)
    return raw.view(np.uint8)[:size].reshape(shape)


@contract(rng=RandomState(), shape=Instance(tuple, example=(2, 3)), prob=Probability())
def bernoulli_bits(rng: np.random.Generator, shape: tuple[int, int], prob: float) -> np.ndarray:
    """A boolean array of i.i.d. Bernoulli(``prob``) entries, exact in law, from one random byte
    per entry (instead of one double).

    With ``U`` uniform on ``{0, ..., 255}`` (:func:`uniform_bytes`) and ``t = floor(256 prob)``: ``U < t`` gives 1,
    ``U > t`` gives 0, and the tie ``U = t`` (probability 1/256) gives 1 with probability ``256 prob - t``
    (a fresh uniform double), so ``P(1) = t/256 + (256 prob - t)/256 = prob`` exactly.
    """

    rng = check_random_state(rng)
    t = int(math.floor(256.0 * prob))
    frac = 256.0 * prob - t
    if t >= 256:  # prob == 1
        return np.ones(shape, dtype=bool)
    U = uniform_bytes(rng, shape)
    out = U < t
    tie = np.flatnonzero(U.reshape(-1) == t)
    if tie.size:
        out.reshape(-1)[tie] = rng.random(tie.size) < frac
    return out
