"""Checks made in a function's body, after its contract: conveniences, not a second vocabulary.

A public function declares its rules once, with :func:`ldpnb.contracts.contract` and the named
constraints of :mod:`ldpnb.contracts` (``EPSILON``, ``SEED``, ``Channel()``...).  The helpers here
serve the rules that a contract cannot state alone: a value checked against another argument
(:func:`check_values` within ``{0..k-1}``, :func:`check_dataset` against the domain sizes), a value
computed in the body, or a private helper.  They are not contracted themselves (a check of a check),
and they raise :class:`ValueError` (or :class:`TypeError`) with a message that names the argument and
the rule it breaks.

:func:`check_random_state` (re-exported from :mod:`ldpnb._random`) turns every ``rng`` argument into
a :class:`numpy.random.Generator`, so that the same seed gives the same book.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from ldpnb._random import RNGLike, check_random_state
from ldpnb.contracts import EPSILON, MAX_ENTRIES, NONNEGATIVE, Array, Dataset, Integer, Probability, Real

#: ``> 0``, infinity allowed (``check_epsilon(..., allow_inf=True)``: a value sent in clear).
_EPSILON_OR_INF = Real(0.0, None, low_open=True, finite=False)

__all__ = [
    "RNGLike",
    "check_random_state",
    "check_epsilon",
    "check_domain_size",
    "check_positive_int",
    "check_probability",
    "check_distribution",
    "check_channel",
    "check_counts",
    "check_values",
    "check_finite_array",
    "check_nonnegative",
    "check_nonnegative_matrix",
    "check_dataset",
]


def check_epsilon(epsilon: Any, name: str = "epsilon", allow_inf: bool = False) -> float:
    """A privacy parameter: :data:`ldpnb.contracts.EPSILON` (finite, ``> 0``), or ``> 0`` and possibly
    infinite with ``allow_inf``; a thin wrapper over the rule (a contract says ``epsilon=EPSILON``)."""
    return (_EPSILON_OR_INF if allow_inf else EPSILON).check(epsilon, name)


def check_positive_int(value: Any, name: str, minimum: int = 1) -> int:
    """An integer ``>= minimum`` (bools and integral floats refused): ``Integer(minimum, None)``."""
    return Integer(minimum, None).check(value, name)


def check_domain_size(k: Any, name: str = "k", minimum: int = 2) -> int:
    """A domain size: an integer ``>= minimum`` (default 2; itself an integer >= 1)."""
    if isinstance(minimum, bool) or not isinstance(minimum, (numbers.Integral, np.integer)) or minimum < 1:
        raise ValueError(f"minimum must be an integer >= 1 (a domain has at least one value), got {minimum!r}")
    return check_positive_int(k, name, minimum)


def check_probability(value: Any, name: str, open_left: bool = False, open_right: bool = False) -> float:
    """A probability in [0, 1] (ends optionally excluded): :func:`ldpnb.contracts.Probability`."""
    return Probability(open_left=open_left, open_right=open_right).check(value, name)


def check_finite_array(a: Any, name: str, ndim: int | None = None, dtype: Any = float) -> np.ndarray:
    """Convert to an array of ``dtype``; reject NaN/inf, empty arrays and a wrong ``ndim``."""
    try:
        arr = np.asarray(a, dtype=dtype)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be array-like of numbers: {exc}") from None
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty")
    if np.issubdtype(arr.dtype, np.floating) and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must not contain NaN or infinite values")
    return arr


def _check_atol(atol: Any) -> float:
    """A sum tolerance: a finite number in [0, 1) (an infinite or NaN tolerance would accept any sum)."""
    if (
        isinstance(atol, bool)
        or not isinstance(atol, numbers.Real)
        or not math.isfinite(atol)
        or not 0 <= float(atol) < 1
    ):
        raise ValueError(
            f"atol must be a finite number in [0, 1) (an infinite tolerance accepts any sum), got {atol!r}"
        )
    return float(atol)


def check_distribution(p: Any, name: str = "p", atol: float = 1e-9) -> np.ndarray:
    """Validate a probability vector: 1-D, finite, entries >= 0, sum 1 within ``atol``."""
    atol = _check_atol(atol)
    arr = check_finite_array(p, name, ndim=1)
    if np.any(arr < 0):
        raise ValueError(f"{name} must have nonnegative entries (min {arr.min():.3g})")
    s = arr.sum()
    if abs(s - 1.0) > atol * max(1, arr.size):
        raise ValueError(f"{name} must sum to 1 (sum = {s:.12g})")
    return arr


def check_channel(C: Any, name: str = "channel", atol: float = 1e-9) -> np.ndarray:
    """Validate a channel matrix ``C[x, y] = P(y | x)``: 2-D, finite, >= 0, rows summing to 1."""
    atol = _check_atol(atol)
    arr = check_finite_array(C, name, ndim=2)
    if arr.shape[0] < 1 or arr.shape[1] < 1:
        raise ValueError(f"{name} must have at least one row and one column, got shape {arr.shape}")
    if np.any(arr < 0):
        raise ValueError(f"{name} must have nonnegative entries (min {arr.min():.3g})")
    rows = arr.sum(axis=1)
    bad = np.abs(rows - 1.0) > atol * max(1, arr.shape[1])
    if np.any(bad):
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name} rows must sum to 1 (row {i} sums to {rows[i]:.12g})")
    return arr


def check_counts(c: Any, name: str = "counts", ndim: int | None = 1) -> np.ndarray:
    """Validate counts: finite, integral, nonnegative; returned as ``int64``."""
    arr = check_finite_array(c, name, ndim=ndim, dtype=None)
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.number):
        raise TypeError(f"{name} must contain integer counts, got dtype {arr.dtype}")
    if np.issubdtype(arr.dtype, np.floating):
        if np.any(arr != np.round(arr)):
            raise ValueError(f"{name} must contain integers")
    if np.any(arr < 0):
        raise ValueError(f"{name} must be nonnegative (min {arr.min()})")
    if arr.size and float(arr.sum(dtype=np.float64)) > _MAX_TOTAL:
        raise ValueError(
            f"{name} must have a total below 2**62 (no int64 overflow), got {float(arr.sum(dtype=np.float64)):.4g}"
        )
    return arr.astype(np.int64)


def check_values(x: Any, k: int, name: str = "x") -> np.ndarray:
    """Validate user values: a non-empty 1-D integer array with entries in ``{0, ..., k-1}``."""
    k = check_domain_size(k)
    arr = np.asarray(x)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-dimensional, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty")
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.number):
        raise TypeError(f"{name} must contain integers, got dtype {arr.dtype}")
    if np.issubdtype(arr.dtype, np.floating):
        if not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr)):
            raise ValueError(f"{name} must contain integers")
    if arr.min() < 0 or arr.max() >= k:
        raise ValueError(f"{name} must lie in the domain {{0, ..., {k - 1}}} (got min {arr.min()}, max {arr.max()})")
    return arr.astype(np.int64, copy=False)


def check_nonnegative(value: Any, name: str) -> float:
    """A finite real number ``>= 0`` (tolerances, orders, thresholds): :data:`ldpnb.contracts.NONNEGATIVE`."""
    return NONNEGATIVE.check(value, name)


def check_nonnegative_matrix(M: Any, name: str) -> np.ndarray:
    """Validate a non-empty 2-D array of finite, nonnegative numbers (observation or joint matrices).

    Unlike :func:`check_channel`, rows need not sum to 1 (observation matrices ``G``, restricted
    channels, joint distributions before their own sum check).
    """
    A = np.asarray(M, dtype=float)
    if A.ndim != 2 or A.shape[0] < 1 or A.shape[1] < 1:
        raise ValueError(f"{name} must be a non-empty 2-D array, got shape {A.shape}")
    if not np.all(np.isfinite(A)):
        raise ValueError(f"{name} must be finite")
    if np.any(A < 0):
        raise ValueError(f"{name} must be non-negative")
    return A


_DATASET = Dataset()
_DOMAIN_SIZES = Array(1, integer=True, low=2)


def check_dataset(X: Any, ks: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """Validate a label-encoded dataset ``X`` (n, d) and its domain sizes ``ks`` (d,).

    ``X`` must meet :class:`ldpnb.contracts.Dataset`; ``ks`` (integers ``>= 2``, one per column;
    ``None`` infers ``k_j = max(X[:, j]) + 1``) must bound every code, ``X[:, j] < k_j``, and sum
    to at most ``MAX_ENTRIES`` (a count vector per attribute is allocated from them).
    Returns int64 copies.
    """
    X = _DATASET.check(X, "X").copy()
    ks = X.max(axis=0) + 1 if ks is None else np.ravel(ks)
    ks = _DOMAIN_SIZES.check(ks, "ks").copy()
    if ks.shape[0] != X.shape[1]:
        raise ValueError(f"ks must have one entry per column of X ({X.shape[1]}), got {ks.shape[0]}")
    if float(ks.sum()) > MAX_ENTRIES:  # a count vector per attribute is allocated from ks
        raise ValueError(
            f"ks: the domain sizes sum to {int(ks.sum())}, more than {MAX_ENTRIES} "
            "(codes must be label-encoded: 0..k_j-1)"
        )
    if np.any(X.max(axis=0) >= ks):
        raise ValueError("X[:, j] must lie in {0, ..., k_j - 1}")
    return X, ks


#: Largest total of a count vector (sums stay far from int64 overflow).
_MAX_TOTAL = float(1 << 62)

#: Number of float64 entries a temporary array may hold before work is split into chunks (32 MiB).
_CHUNK_ENTRIES = 1 << 22


def _check_input_counts(input_counts: Any, name: str = "input_counts") -> np.ndarray:
    counts = check_counts(input_counts, name=name)
    if counts.size < 2:
        raise ValueError(
            f"{name} must have one entry per input value and a domain of size >= 2, got length {counts.size}"
        )
    return counts


def _chunk_rows(n_rows: int, row_size: int, budget: int | None = None) -> int:
    """Rows per chunk so that ``rows * row_size`` stays below ``budget`` (default ``_CHUNK_ENTRIES``; at least 1)."""
    budget = _CHUNK_ENTRIES if budget is None else budget
    return max(1, min(n_rows, budget // max(1, row_size)))
