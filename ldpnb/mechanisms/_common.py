"""Small helpers shared by the mechanism families: the log-domain arithmetic that keeps every
channel's level exact at any epsilon, and the refusal of float channels that float64 cannot hold.
"""

from __future__ import annotations

import math

import numpy as np

from ldpnb.contracts import Real

# Largest output alphabet the exact enumerated channels may have (columns of the matrix).
_MAX_ENUM_COLUMNS = 1 << 22

#: ``log`` of the smallest positive normal double (``-708.396...``).  A probability below
#: ``exp(LOG_TINY)`` is subnormal (it has lost relative precision) or 0: a float channel holding one
#: no longer shows its mechanism's level, so the plain channel builders refuse it.
LOG_TINY = math.log(np.finfo(np.float64).tiny)

#: The contract of a privacy parameter: a finite real number ``> 0``.
EPSILON = Real(0.0, None, low_open=True)

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
            "at any epsilon")
    return np.exp(L)


def _logsumexp_rows(L: np.ndarray) -> np.ndarray:
    """Row-wise ``log sum exp`` (shape ``(k, 1)``), rows with a finite entry."""
    m = L.max(axis=1, keepdims=True)
    return m + np.log(np.exp(L - m).sum(axis=1, keepdims=True))
