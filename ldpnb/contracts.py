r"""Argument contracts, declared once per public function (in the style of scikit-learn's
``validate_params``).

A contract maps each parameter to a :class:`Constraint`; the :func:`contract` decorator checks
and converts the arguments **before the function body runs**, with a message generated from the
declaration that names the argument and the rule::

    @contract(k=DENSE_DOMAIN, epsilon=EPSILON, rng=SEED)
    def grr_perturb(x, k, epsilon, *, rng=None): ...

    >>> grr_perturb([0], 2.5, 1.0)
    TypeError: k must be an integer in [2, 16384], got 2.5 (float)

Every constraint can also produce a valid example (:meth:`Constraint.valid`) and values it must
refuse (:meth:`Constraint.invalid`: NaN, inf, negative, zero, fractional integers, wrong shapes,
non-distributions, non-stochastic channels, absurd sizes, wrong types).  ``tests/test_contracts.py``
generates from the declarations a call of every contracted public function with each invalid value
of each argument and requires a clear ``ValueError``/``TypeError`` raised by the contract itself,
naming the argument: no silent result, no hang, no allocation before the check.

Rules that tie several arguments together (``x`` within ``{0..k-1}``, a channel whose rows match
the counts) are checked in the body, after the contract, with the same style of message
(:mod:`ldpnb.utils` holds the uncontracted helpers for that).

**The vocabulary.**  A rule used in more than one place is named once here: :data:`EPSILON`,
:data:`POSITIVE`, :data:`NONNEGATIVE`, :data:`PROBABILITY`, :data:`SEED`, :data:`REPS`,
:data:`SAMPLE_SIZE`, :data:`DENSE_DOMAIN`, :data:`DOMAIN`, :data:`DECIMALS`, with the size limits
:data:`MAX_ENTRIES`, :data:`MAX_DENSE`, :data:`MAX_DOMAIN`, :data:`MAX_BYTES`, :data:`MAX_REPS`.
Every size and repetition count has an upper bound, so that an absurd request is refused before
anything is allocated or run.

**Checked once per boundary.**  A contracted call made inside another contracted call converts its
arguments but does not check them again (``contract(skip_nested=True)``, the default; scikit-learn's
``prefer_skip_nested_validation``): the outermost public function is the boundary.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import math
import numbers
import re
from typing import Any, Callable, Sequence

import numpy as np

from ldpnb._random import check_random_state

__all__ = [
    "EPSILON",
    "POSITIVE",
    "NONNEGATIVE",
    "PROBABILITY",
    "SEED",
    "REPS",
    "SAMPLE_SIZE",
    "DENSE_DOMAIN",
    "DOMAIN",
    "DECIMALS",
    "MAX_REPS",
    "MAX_ENTRIES",
    "MAX_DENSE",
    "MAX_BYTES",
    "MAX_DOMAIN",
    "Constraint",
    "Integer",
    "Real",
    "Probability",
    "Boolean",
    "OneOf",
    "Array",
    "Distribution",
    "Channel",
    "NonnegativeMatrix",
    "LogChannel",
    "Bits",
    "DistanceMatrix",
    "Counts",
    "Dataset",
    "RandomState",
    "Instance",
    "Pattern",
    "Raises",
    "Callable_",
    "Optional",
    "AnyOf",
    "Items",
    "Unchecked",
    "contract",
    "contract_of",
]

#: Largest number of float64 entries an argument-driven allocation may have (2**28: 2 GiB).
MAX_ENTRIES = 1 << 28
#: Largest side of a dense square matrix (channel, distance): 2**14 rows (2 GiB of float64).
MAX_DENSE = 1 << 14
#: Largest domain size of a mechanism that never enumerates its domain densely (values are hashed
#: as 32-bit integers by local hashing): 2**32.
MAX_DOMAIN = 1 << 32
#: Largest number of one-byte entries (boolean reports) an argument-driven allocation may have (2 GiB).
MAX_BYTES = 1 << 31


def _tname(v: Any) -> str:
    return type(v).__name__


def _is_real(v: Any) -> bool:
    return isinstance(v, (numbers.Real, np.floating, np.integer)) and not isinstance(v, (bool, np.bool_))


class Constraint:
    """A rule on one argument: :meth:`check` converts or raises; :meth:`describe` says the rule.

    :meth:`convert` gives the value the function body expects (the same type and dtype as
    :meth:`check` returns) without the checks: a contracted call made inside another one uses it
    (see :func:`contract`).  ``complete`` is False for rules that leave the value itself unchecked
    (:class:`Unchecked`, containers such as ``Instance(dict)``): a function whose contract has one
    lets its nested calls check their arguments.
    """

    complete: bool = True

    def check(self, value: Any, name: str) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def convert(self, value: Any) -> Any:
        """The value :meth:`check` would return for a valid ``value``, without the checks (the
        default runs :meth:`check`)."""
        return self.check(value, "argument")

    def describe(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def valid(self) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def invalid(self) -> list[Any]:
        """Values this constraint must refuse (used by the generated contract test)."""
        return []

    def fail(self, name: str, value: Any, kind: type[Exception] = ValueError, detail: str = "") -> Exception:
        shown = repr(value) if not isinstance(value, np.ndarray) else f"an array of shape {value.shape}"
        if len(shown) > 80:
            shown = shown[:77] + "..."
        msg = f"{name} must be {self.describe()}, got {shown} ({_tname(value)})"
        return kind(msg + (f": {detail}" if detail else ""))

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self.describe()}>"


class Unchecked(Constraint):
    """No rule at the contract: the body checks the argument (document why in ``reason``)."""

    complete = False

    def __init__(self, reason: str, example: Any = None) -> None:
        self.reason, self.example = reason, example

    def check(self, value, name):
        return value

    def convert(self, value):
        return value

    def describe(self):
        return f"(checked in the body: {self.reason})"

    def valid(self):
        return self.example


class Integer(Constraint):
    """An integer in ``[low, high]`` (bools and floats refused, even integral floats)."""

    def __init__(self, low: int | None = None, high: int | None = None) -> None:
        self.low, self.high = low, high

    def describe(self):
        lo = "-inf" if self.low is None else str(self.low)
        hi = "inf" if self.high is None else f"{self.high:,}".replace(",", "")
        return f"an integer in [{lo}, {hi}]" if (self.low is not None or self.high is not None) else "an integer"

    def check(self, value, name):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Integral, np.integer)):
            raise self.fail(name, value, TypeError)
        v = int(value)
        if (self.low is not None and v < self.low) or (self.high is not None and v > self.high):
            raise self.fail(name, value)
        return v

    def convert(self, value):
        return int(value) if isinstance(value, (numbers.Integral, np.integer)) else self.check(value, "argument")

    def valid(self):
        if self.low is not None:
            return max(self.low, min(2, self.high if self.high is not None else 2)) if self.low <= 2 else self.low
        return 2 if self.high is None or self.high >= 2 else self.high

    def invalid(self):
        out: list[Any] = [2.5, float("nan"), "3", True, None]
        if self.low is not None:
            out.append(self.low - 1)
        if self.high is not None:
            out.append(self.high + 1)
            out.append(1 << 62)
        return out


class Real(Constraint):
    """A real number in ``[low, high]`` (ends optionally open); finite unless ``finite=False``."""

    def __init__(
        self,
        low: float | None = None,
        high: float | None = None,
        *,
        low_open: bool = False,
        high_open: bool = False,
        finite: bool = True,
    ) -> None:
        self.low, self.high, self.low_open, self.high_open, self.finite = low, high, low_open, high_open, finite

    def describe(self):
        if self.low is None and self.high is None:
            return "a finite real number" if self.finite else "a real number (not NaN)"
        lb = "(" if (self.low_open or self.low is None) else "["
        rb = ")" if (self.high_open or self.high is None) else "]"
        lo = "-inf" if self.low is None else f"{self.low:g}"
        hi = "inf" if self.high is None else f"{self.high:g}"
        return f"a {'finite ' if self.finite else ''}real number in {lb}{lo}, {hi}{rb}"

    def check(self, value, name):
        if not _is_real(value):
            raise self.fail(name, value, TypeError)
        v = float(value)
        if math.isnan(v) or (self.finite and math.isinf(v)):
            raise self.fail(name, value)
        if self.low is not None and (v < self.low or (self.low_open and v == self.low)):
            raise self.fail(name, value)
        if self.high is not None and (v > self.high or (self.high_open and v == self.high)):
            raise self.fail(name, value)
        return v

    def convert(self, value):
        return float(value) if _is_real(value) else self.check(value, "argument")

    def valid(self):
        lo = self.low if self.low is not None else (self.high - 1 if self.high is not None else 0.0)
        hi = self.high if self.high is not None else lo + 2
        v = (
            (lo + hi) / 2
            if self.low is not None and self.high is not None
            else (lo + 1 if self.low is not None else hi - 1)
        )
        return float(v)

    def invalid(self):
        out: list[Any] = [float("nan"), "1.0", None, True, [1.0]]
        if self.finite:
            out += [float("inf"), float("-inf")]
        if self.low is not None:
            out.append(self.low - 1.0)
            if self.low_open:
                out.append(self.low)
        if self.high is not None:
            out.append(self.high + 1.0)
            if self.high_open:
                out.append(self.high)
        return out


def Probability(*, open_left: bool = False, open_right: bool = False) -> Real:
    """A probability in [0, 1] (ends optionally excluded)."""
    return Real(0.0, 1.0, low_open=open_left, high_open=open_right)


class Boolean(Constraint):
    def describe(self):
        return "a bool"

    def check(self, value, name):
        if not isinstance(value, (bool, np.bool_)):
            raise self.fail(name, value, TypeError)
        return bool(value)

    def convert(self, value):
        return bool(value) if isinstance(value, (bool, np.bool_)) else self.check(value, "argument")

    def valid(self):
        return True

    def invalid(self):
        return [1, "yes", None]


class OneOf(Constraint):
    """One of a fixed set of options (strings compared exactly)."""

    def __init__(self, *options: Any) -> None:
        if not options:
            raise ValueError("OneOf needs at least one option")
        self.options = options

    def describe(self):
        return "one of " + ", ".join(repr(o) for o in self.options)

    def check(self, value, name):
        try:
            ok = any(value == o and type(value) is type(o) for o in self.options)
        except Exception:
            ok = False
        if not ok:
            raise self.fail(name, value)
        return value

    def convert(self, value):
        return value

    def valid(self):
        return self.options[0]

    def invalid(self):
        return [
            v for v in ("__not_an_option__", None, 3.5) if not any(v == o and type(v) is type(o) for o in self.options)
        ]


class Array(Constraint):
    """An array of finite numbers with ``ndim`` dimensions (or any), at least ``min_size`` entries and at
    most ``max_size``; ``low``/``high`` bound the entries; ``integer=True`` requires integral entries."""

    def __init__(
        self,
        ndim: int | Sequence[int] | None = None,
        *,
        min_size: int = 1,
        max_size: int = MAX_ENTRIES,
        low: float | None = None,
        high: float | None = None,
        integer: bool = False,
        shape: tuple[int | None, ...] | None = None,
        low_open: bool = False,
    ) -> None:
        self.ndim = (ndim,) if isinstance(ndim, int) else (tuple(ndim) if ndim is not None else None)
        self.min_size, self.max_size, self.low, self.high, self.integer = min_size, max_size, low, high, integer
        self.shape, self.low_open = shape, low_open

    def describe(self):
        parts = []
        if self.ndim:
            parts.append("/".join(str(d) for d in self.ndim) + "-D")
        parts.append("array of finite " + ("integers" if self.integer else "numbers"))
        if self.low is not None or self.high is not None:
            parts.append(
                f"in {'(' if self.low_open or self.low is None else '['}"
                f"{'-inf' if self.low is None else f'{self.low:g}'}, "
                f"{'inf' if self.high is None else f'{self.high:g}'}]"
            )
        if self.min_size > 1:
            parts.append(f"with at least {self.min_size} entries")
        text = " ".join(parts)
        return ("an " if text[0] in "aeiou" else "a ") + text

    def _array(self, value, name):
        if isinstance(value, (str, bytes)) or value is None or isinstance(value, (bool, np.bool_)):
            raise self.fail(name, value, TypeError)
        try:
            arr = np.asarray(value)
        except Exception as exc:  # ragged lists, objects
            raise self.fail(name, value, TypeError, str(exc)) from None
        if arr.dtype == object or arr.dtype.kind not in "biuf" or arr.dtype == bool:
            raise self.fail(name, value, TypeError, f"dtype {arr.dtype}")
        if self.ndim is not None and arr.ndim not in self.ndim:
            raise self.fail(name, value, ValueError, f"{arr.ndim}-D")
        if self.shape is not None:
            if arr.ndim != len(self.shape) or any(s is not None and s != a for s, a in zip(self.shape, arr.shape)):
                raise self.fail(name, value, ValueError, f"shape {arr.shape}")
        if arr.size < self.min_size:
            raise self.fail(name, value, ValueError, f"{arr.size} entries")
        if arr.size > self.max_size:
            raise self.fail(name, value, ValueError, f"{arr.size} entries exceed {self.max_size}")
        if not arr.size:
            return arr
        # two reductions, no temporaries: NaN propagates through min and max, and an infinite entry
        # is the max or the min, so both are finite exactly when every entry is
        lo, hi = arr.min(), arr.max()
        if arr.dtype.kind == "f" and not (np.isfinite(lo) and np.isfinite(hi)):
            raise self.fail(name, value, ValueError, "NaN or infinite entries")
        if self.integer and arr.dtype.kind == "f":
            if np.any(arr != np.round(arr)):
                raise self.fail(name, value, ValueError, "fractional entries")
            if max(-float(lo), float(hi)) >= 2.0**63:
                raise self.fail(name, value, ValueError, "entries beyond int64")
            arr = arr.astype(np.int64)  # integral: compare with the bounds exactly
            lo, hi = arr.min(), arr.max()
        if self.low is not None and (lo <= self.low if self.low_open else lo < self.low):
            raise self.fail(name, value, ValueError, f"min {lo:.4g}")
        if self.high is not None and hi > self.high:
            raise self.fail(name, value, ValueError, f"max {hi:.4g}")
        return arr

    def check(self, value, name):
        arr = self._array(value, name)
        if self.integer:
            if arr.dtype.kind == "u" and arr.size and int(arr.max()) > np.iinfo(np.int64).max:
                raise self.fail(name, value, ValueError, "entries beyond int64")
            return arr.astype(np.int64, copy=False)
        return arr.astype(np.float64, copy=False)

    def convert(self, value):
        # the dtype check() returns (int64 for integer rules, float64 otherwise), without reductions
        if isinstance(value, np.ndarray) and value.dtype.kind in "iuf":
            return value.astype(np.int64 if self.integer else np.float64, copy=False)
        return self.check(value, "argument")

    def valid(self):
        nd = self.ndim[0] if self.ndim else 1
        lo = 0.0 if self.low is None else self.low
        base = np.full(
            (2,) * nd if self.shape is None else tuple(s or 2 for s in self.shape),
            lo + (1 if self.integer else 0.5),
            dtype=np.float64,
        )
        if self.high is not None:
            base = np.minimum(base, self.high)
        return base.astype(np.int64) if self.integer else base

    def invalid(self):
        nd = self.ndim[0] if self.ndim else 1
        shape = (2,) * nd
        out: list[Any] = [None, "abc", np.full(shape, np.nan), np.full(shape, np.inf)]
        if self.ndim is not None:  # a wrong number of dimensions (any is right when ndim is None)
            out.append(np.array([[[1.0]]]) if 3 not in self.ndim else np.ones((1,) * (max(self.ndim) + 1)))
        if self.min_size >= 1:
            out.append(np.zeros((0,) * nd))
        if self.low is not None:
            out.append(np.full(shape, self.low - 1.0))
            if self.low_open:
                out.append(np.full(shape, float(self.low)))
        if self.high is not None:
            out.append(np.full(shape, self.high + 1.0))
        if self.integer:
            out.append(np.full(shape, 1.5))
        return out


class Distribution(Array):
    """A probability vector: 1-D, finite, entries >= 0, summing to 1 within ``atol`` (per entry);
    ``ndim=2`` for a joint distribution (a matrix summing to 1)."""

    def __init__(self, *, atol: float = 1e-9, min_size: int = 1, max_size: int = MAX_ENTRIES, ndim: int = 1) -> None:
        super().__init__(ndim, min_size=min_size, max_size=max_size, low=0.0)
        self.atol = atol

    def describe(self):
        if self.ndim is not None and self.ndim[0] >= 2:
            return f"a joint distribution ({self.ndim[0]}-D, entries >= 0, summing to 1)"
        return "a probability vector (1-D, entries >= 0, summing to 1)"

    def check(self, value, name):
        arr = self._array(value, name).astype(np.float64, copy=False)
        s = float(arr.sum())
        if abs(s - 1.0) > self.atol * max(1, arr.size):
            raise self.fail(name, value, ValueError, f"sum {s:.12g}")
        return arr

    def valid(self):
        if self.ndim is not None and self.ndim[0] >= 2:
            return np.full((2,) * self.ndim[0], 0.5 ** self.ndim[0])
        return np.array([0.5, 0.5])

    def invalid(self):
        if self.ndim is not None and self.ndim[0] >= 3:
            return super().invalid() + [np.full((2,) * self.ndim[0], 0.2), np.full((2,) * (self.ndim[0] - 1), 0.25)]
        if self.ndim == (2,):
            return super().invalid() + [
                np.array([[0.5, 0.6], [0.1, 0.1]]),
                np.array([[1.5, -0.5], [0.0, 0.0]]),
                np.array([0.5, 0.5]),
            ]
        return super().invalid() + [np.array([0.5, 0.6]), np.array([1.5, -0.5]), np.array([[0.5, 0.5]])]


class NonnegativeMatrix(Array):
    """A 2-D array of finite, nonnegative numbers (rows need not sum to 1)."""

    def __init__(self, *, max_size: int = MAX_ENTRIES) -> None:
        super().__init__(2, max_size=max_size, low=0.0)

    def describe(self):
        return "a non-empty 2-D array of finite numbers >= 0"

    def valid(self):
        return np.array([[0.5, 0.5], [0.25, 0.75]])


class Channel(Array):
    """A channel ``C[x, y] = P(y | x)``: 2-D, finite, >= 0, every row summing to 1 within ``atol``."""

    def __init__(self, *, atol: float = 1e-9, max_size: int = MAX_ENTRIES, min_rows: int = 1) -> None:
        super().__init__(2, max_size=max_size, low=0.0)
        self.atol, self.min_rows = atol, min_rows

    def describe(self):
        return "a channel matrix (2-D, entries >= 0, rows summing to 1)"

    def check(self, value, name):
        arr = self._array(value, name).astype(np.float64, copy=False)
        if arr.shape[0] < self.min_rows:
            raise self.fail(name, value, ValueError, f"{arr.shape[0]} rows, needs at least {self.min_rows}")
        rows = arr.sum(axis=1)
        bad = np.abs(rows - 1.0) > self.atol * max(1, arr.shape[1])
        if np.any(bad):
            i = int(np.flatnonzero(bad)[0])
            raise self.fail(name, value, ValueError, f"row {i} sums to {rows[i]:.12g}")
        return arr

    def valid(self):
        return np.array([[0.75, 0.25], [0.25, 0.75]])

    def invalid(self):
        return super().invalid() + [
            np.array([[0.5, 0.6], [0.5, 0.5]]),
            np.array([[1.5, -0.5], [0.5, 0.5]]),
            np.array([0.5, 0.5]),
        ]


class LogChannel(Array):
    """Log-probabilities of a channel, ``L[x, y] = log P(y | x)``: 2-D, no NaN, no ``+inf`` (``-inf``
    is a probability 0), entries ``<= atol``, every row with a finite entry and a log-sum-exp within
    ``atol`` (per column) of 0.  The form in which channels keep their level at any epsilon."""

    def __init__(self, *, atol: float = 1e-9, max_size: int = MAX_ENTRIES) -> None:
        super().__init__(2, max_size=max_size)
        self.atol = atol

    def describe(self):
        return "a log-channel matrix (2-D log-probabilities, -inf allowed, every row's log-sum-exp 0)"

    def check(self, value, name):
        if isinstance(value, (str, bytes)) or value is None or isinstance(value, (bool, np.bool_)):
            raise self.fail(name, value, TypeError)
        try:
            arr = np.asarray(value)
        except Exception as exc:
            raise self.fail(name, value, TypeError, str(exc)) from None
        if arr.dtype == object or arr.dtype.kind not in "iuf" or arr.dtype == bool:
            raise self.fail(name, value, TypeError, f"dtype {arr.dtype}")
        if arr.ndim != 2:
            raise self.fail(name, value, ValueError, f"{arr.ndim}-D")
        if arr.size < 1 or arr.size > self.max_size:
            raise self.fail(name, value, ValueError, f"{arr.size} entries")
        arr = arr.astype(np.float64, copy=False)
        if np.any(np.isnan(arr)) or np.any(arr == np.inf):
            raise self.fail(name, value, ValueError, "NaN or +inf entries")
        if np.any(arr > self.atol):
            raise self.fail(name, value, ValueError, f"max {arr.max():.4g} > 0 (not a log-probability)")
        rmax = arr.max(axis=1)
        if np.any(rmax == -np.inf):
            i = int(np.flatnonzero(rmax == -np.inf)[0])
            raise self.fail(name, value, ValueError, f"row {i} has no positive probability")
        lse = rmax + np.log(np.exp(arr - rmax[:, None]).sum(axis=1))
        bad = np.abs(lse) > self.atol * max(1, arr.shape[1])
        if np.any(bad):
            i = int(np.flatnonzero(bad)[0])
            raise self.fail(name, value, ValueError, f"row {i} has log-sum-exp {lse[i]:.6g}, not 0")
        return arr

    def valid(self):
        return np.log(np.array([[0.75, 0.25], [0.25, 0.75]]))

    def invalid(self):
        return [
            None,
            "abc",
            np.full((2, 2), np.nan),
            np.full((2, 2), np.inf),
            np.array([[[0.0]]]),
            np.zeros((0, 0)),
            np.log(np.array([[0.5, 0.6], [0.5, 0.5]])),
            np.array([[0.5, -1.0], [-1.0, 0.5]]),
            np.full((2, 2), -np.inf),
            np.log(np.array([0.5, 0.5])),
        ]


class DistanceMatrix(Array):
    """Distances: a 2-D array of finite numbers ``>= 0`` (square when ``square=True``, the default)."""

    def __init__(self, *, square: bool = True, max_size: int = MAX_ENTRIES) -> None:
        super().__init__(2, max_size=max_size, low=0.0)
        self.square = square

    def describe(self):
        return ("a square " if self.square else "a ") + "2-D array of finite distances >= 0"

    def check(self, value, name):
        arr = super().check(value, name)
        if self.square and arr.shape[0] != arr.shape[1]:
            raise self.fail(name, value, ValueError, f"shape {arr.shape} is not square")
        return arr

    def valid(self):
        return np.array([[0.0, 1.0], [1.0, 0.0]])

    def invalid(self):
        out = super().invalid()
        if self.square:
            out.append(np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.0]]))
        return out


class Bits(Constraint):
    """A boolean array (or of 0/1 integers) with ``ndim`` dimensions and at least ``min_rows`` rows;
    returned as ``bool`` (reports of unary encodings, membership matrices)."""

    def __init__(self, ndim: int = 2, *, min_rows: int = 1, max_size: int = MAX_BYTES) -> None:
        self.ndim, self.min_rows, self.max_size = ndim, min_rows, max_size

    def describe(self):
        return f"a {self.ndim}-D array of booleans (or 0/1)"

    def check(self, value, name):
        if isinstance(value, (str, bytes)) or value is None or isinstance(value, (bool, np.bool_)):
            raise self.fail(name, value, TypeError)
        try:
            arr = np.asarray(value)
        except Exception as exc:
            raise self.fail(name, value, TypeError, str(exc)) from None
        if arr.dtype == object or arr.dtype.kind not in "biuf":
            raise self.fail(name, value, TypeError, f"dtype {arr.dtype}")
        if arr.ndim != self.ndim:
            raise self.fail(name, value, ValueError, f"{arr.ndim}-D")
        if arr.size > self.max_size:
            raise self.fail(name, value, ValueError, f"{arr.size} entries exceed {self.max_size}")
        if arr.shape[0] < self.min_rows or (arr.ndim > 1 and arr.shape[1] < 1):
            raise self.fail(name, value, ValueError, f"shape {arr.shape}")
        if arr.dtype != bool:
            if not np.all((arr == 0) | (arr == 1)):
                raise self.fail(name, value, ValueError, "entries other than 0/1")
            arr = arr.astype(bool)
        return arr

    def convert(self, value):
        if isinstance(value, np.ndarray) and value.dtype == bool:
            return value
        return self.check(value, "argument")

    def valid(self):
        return np.array([[True, False], [False, True]]) if self.ndim == 2 else np.array([True, False])

    def invalid(self):
        shape = (2,) * self.ndim
        return [
            None,
            "abc",
            np.full(shape, 0.5),
            np.full(shape, np.nan),
            np.full(shape, 2),
            np.zeros((2,) * (self.ndim + 1)),
            np.zeros((0,) * self.ndim, dtype=bool),
        ]


class Counts(Array):
    """Counts: finite, integral, >= 0, with a total below 2**62 (no int64 overflow downstream)."""

    def __init__(
        self,
        ndim: int | Sequence[int] | None = 1,
        *,
        min_size: int = 1,
        max_size: int = MAX_ENTRIES,
        max_total: int = 1 << 62,
    ) -> None:
        super().__init__(ndim, min_size=min_size, max_size=max_size, low=0, integer=True)
        self.max_total = max_total

    def describe(self):
        return "an array of nonnegative integer counts"

    def check(self, value, name):
        arr = super().check(value, name)
        total = float(arr.sum(dtype=np.float64)) if arr.size else 0.0
        if total > self.max_total:
            raise self.fail(name, value, ValueError, f"total {total:.6g} exceeds {self.max_total}")
        return arr

    def valid(self):
        nd = self.ndim[0] if self.ndim else 1
        return np.full((2,) * nd, 3, dtype=np.int64)

    def invalid(self):
        return super().invalid() + [np.array([1 << 62, 1 << 62])]


class Dataset(Array):
    """A label-encoded dataset: a 2-D array ``X[i, j]`` of integer codes ``>= 0`` (``n >= 1``
    records, ``d >= 1`` attributes), returned as ``int64``.  That each code lies in its attribute's
    domain ``{0, ..., k_j - 1}`` ties ``X`` to the domain sizes: :func:`ldpnb.utils.check_dataset`
    checks it in the body."""

    def __init__(self, *, max_size: int = MAX_ENTRIES) -> None:
        super().__init__(2, max_size=max_size, low=0, integer=True)

    def describe(self):
        return "a label-encoded dataset (2-D array of integer codes >= 0, one row per record)"

    def check(self, value, name):
        arr = super().check(value, name)
        if arr.shape[0] < 1 or arr.shape[1] < 1:
            raise self.fail(name, value, ValueError, f"shape {arr.shape}")
        return arr

    def valid(self):
        return np.array([[0, 1], [1, 0]], dtype=np.int64)

    def invalid(self):
        return super().invalid() + [np.array([[0.5, 1.0]]), np.zeros((0, 2)), np.array([0, 1])]


class RandomState(Constraint):
    """``None``, an int seed >= 0, a SeedSequence or a numpy Generator."""

    def describe(self):
        return "a numpy Generator, an int seed >= 0, a SeedSequence or None"

    def check(self, value, name):
        try:
            check_random_state(value)
        except (TypeError, ValueError) as exc:
            raise self.fail(name, value, type(exc)) from None
        return value

    def convert(self, value):
        return value

    def valid(self):
        return 0

    def invalid(self):
        return [-1, 1.5, "seed", np.random.RandomState(0)]


class Instance(Constraint):
    """An instance of ``cls`` (or of one of several classes)."""

    def __init__(self, *classes: type, example: Any = None) -> None:
        self.classes, self.example = classes, example
        # a container's content is not checked by its type
        self.complete = not any(c in (dict, list, tuple, object) for c in classes)

    def convert(self, value):
        return value

    def describe(self):
        return "an instance of " + " or ".join(c.__name__ for c in self.classes)

    def check(self, value, name):
        if not isinstance(value, self.classes):
            raise self.fail(name, value, TypeError)
        return value

    def valid(self):
        return self.example

    def invalid(self):
        return [v for v in (None, 3, "x") if not isinstance(v, self.classes)]


class Pattern(Constraint):
    """A string matching the regular expression ``regex`` in full (a file stem, a glue name); ``what``
    says what it is in the message.  Anything else, a non-string included, is a :class:`ValueError`."""

    def __init__(self, regex: str, what: str, example: str) -> None:
        self.regex, self.what, self.example = re.compile(regex), what, example

    def describe(self):
        return self.what

    def check(self, value, name):
        if not isinstance(value, str) or not self.regex.fullmatch(value):
            raise self.fail(name, value)
        return value

    def convert(self, value):
        return value

    def valid(self):
        return self.example

    def invalid(self):
        return [v for v in ("", "a b/c", None, 3) if not (isinstance(v, str) and self.regex.fullmatch(v))]


class Raises(Constraint):
    """``inner``, its refusals raised as ``error``, a module's own subclass of :class:`ValueError` (the
    claims' :class:`~ldpnb.repro.claims.CriterionError`), so that the contract keeps the error type the
    module documents and its callers catch."""

    def __init__(self, inner: Constraint, error: type[ValueError]) -> None:
        if not (isinstance(error, type) and issubclass(error, ValueError)):
            raise TypeError(f"error must be a subclass of ValueError, got {error!r}")
        self.inner, self.error, self.complete = inner, error, inner.complete

    def describe(self):
        return self.inner.describe()

    def check(self, value, name):
        try:
            return self.inner.check(value, name)
        except (TypeError, ValueError) as exc:
            raise self.error(str(exc)) from None

    def convert(self, value):
        return self.inner.convert(value)

    def valid(self):
        return self.inner.valid()

    def invalid(self):
        return self.inner.invalid()


class Callable_(Constraint):
    def describe(self):
        return "a callable"

    def check(self, value, name):
        if not callable(value):
            raise self.fail(name, value, TypeError)
        return value

    def convert(self, value):
        return value

    def valid(self):
        return lambda *a, **k: None

    def invalid(self):
        return [None, 3]


class Optional(Constraint):
    """``None`` or a value meeting ``inner``."""

    def __init__(self, inner: Constraint) -> None:
        self.inner = inner
        self.complete = inner.complete

    def convert(self, value):
        return None if value is None else self.inner.convert(value)

    def describe(self):
        return f"None or {self.inner.describe()}"

    def check(self, value, name):
        if value is None:
            return None
        try:
            return self.inner.check(value, name)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"{name} must be {self.describe()}, got {value!r:.80} ({_tname(value)})") from None

    def valid(self):
        return None

    def invalid(self):
        return [v for v in self.inner.invalid() if v is not None]


class Items(Constraint):
    """A list, tuple or 1-D array of ``min_size`` to ``max_size`` entries, each meeting ``item``;
    converted to a list of the converted entries (a grid of levels, of domain sizes, of names).

    >>> Items(EPSILON).check((0.5, 1), "eps")
    [0.5, 1.0]
    >>> Items(EPSILON).check([], "eps")
    Traceback (most recent call last):
        ...
    ValueError: eps must be a list of 1 to 4096 entries, each a finite real number in (0, inf), got [] (list): 0 entries
    """

    def __init__(self, item: Constraint, *, min_size: int = 1, max_size: int = 4096, complete: bool = True) -> None:
        self.item, self.min_size, self.max_size = item, min_size, max_size
        # complete=False: what makes an entry valid (a known family name) is checked by the calls inside
        self.complete = item.complete and complete

    def describe(self):
        return f"a list of {self.min_size} to {self.max_size} entries, each {self.item.describe()}"

    def check(self, value, name):
        if isinstance(value, np.ndarray):
            if value.ndim != 1:
                raise self.fail(name, value, ValueError, f"{value.ndim}-D")
            value = value.tolist()
        if not isinstance(value, (list, tuple)):
            raise self.fail(name, value, TypeError)
        if not self.min_size <= len(value) <= self.max_size:
            raise self.fail(name, value, ValueError, f"{len(value)} entries")
        return [self.item.check(v, f"{name}[{i}]") for i, v in enumerate(value)]

    def convert(self, value):
        if isinstance(value, np.ndarray):
            value = value.tolist()
        return [self.item.convert(v) for v in value]

    def valid(self):
        return [self.item.valid()] * max(self.min_size, 1)

    def invalid(self):
        out: list[Any] = [None, "abc", 3]
        if self.min_size >= 1:
            out.append([])
        out += [[v] * max(self.min_size, 1) for v in self.item.invalid() if v is not None][:3]
        return out


class AnyOf(Constraint):
    """A value meeting at least one of the constraints (the first that accepts converts it)."""

    def __init__(self, *options: Constraint) -> None:
        self.options = options
        self.complete = all(o.complete for o in options)

    def describe(self):
        return " or ".join(o.describe() for o in self.options)

    def check(self, value, name):
        errors = []
        for o in self.options:
            try:
                return o.check(value, name)
            except (TypeError, ValueError) as exc:
                errors.append(exc)
        kind = TypeError if all(isinstance(e, TypeError) for e in errors) else ValueError
        raise self.fail(name, value, kind)

    def valid(self):
        return self.options[0].valid()

    def invalid(self):
        out = []
        for v in self.options[0].invalid():
            if not any(_accepts(o, v) for o in self.options):
                out.append(v)
        return out


def _accepts(c: Constraint, v: Any) -> bool:
    try:
        c.check(v, "x")
        return True
    except (TypeError, ValueError):
        return False


# ---------------------------------------------------------------------------------------------
# the vocabulary: named rules, declared once (a contract says ``epsilon=EPSILON``, never the rule inline)

#: Largest repetition count (runs, resamples, trials, subsamples) an argument may ask for: 2**20.
MAX_REPS = 1 << 20

#: A privacy parameter: a finite real number ``> 0``.
EPSILON = Real(0.0, None, low_open=True)
#: A finite real number ``> 0`` that is not a privacy budget (a scale, a spacing, a tolerance).
POSITIVE = Real(0.0, None, low_open=True)
#: A finite real number ``>= 0`` (tolerances, thresholds, orders).
NONNEGATIVE = Real(0.0, None)
#: A probability in ``[0, 1]``.
PROBABILITY = Real(0.0, 1.0)
#: A seed: ``None``, an int ``>= 0``, a SeedSequence or a numpy Generator.
SEED = RandomState()
#: A repetition count, ``1 <= reps <= MAX_REPS`` (checked before anything is allocated or run).
REPS = Integer(1, MAX_REPS)
#: A number of records, samples or users: ``1 <= n <= MAX_ENTRIES``.
SAMPLE_SIZE = Integer(1, MAX_ENTRIES)
#: A domain size of a mechanism that builds dense ``k x k`` objects: ``2 <= k <= MAX_DENSE``.
DENSE_DOMAIN = Integer(2, MAX_DENSE)
#: A domain size of a mechanism that never enumerates its domain: ``2 <= k <= MAX_DOMAIN``.
DOMAIN = Integer(2, MAX_DOMAIN)
#: Decimal places for rounding: 0 to 15 (float64 holds no more).
DECIMALS = Integer(0, 15)


#: True while the body of a contracted call that skips nested checks runs (scikit-learn's
#: ``skip_parameter_validation``): contracted calls made inside it only convert their arguments.
_SKIP = contextvars.ContextVar("ldpnb_contract_skip", default=False)


def contract(*, skip_nested: bool = True, **constraints: Constraint) -> Callable[[Callable], Callable]:
    """Check (and convert) the named arguments before the function runs; see the module docstring.

    Parameters
    ----------
    skip_nested : bool
        Whether contracted functions called **inside** this one skip their checks (they still convert
        their arguments, :meth:`Constraint.convert`), as scikit-learn's
        ``validate_params(..., prefer_skip_nested_validation=True)``: a public boundary checks its
        arguments once, not again on each floor below.  Pass ``False`` for a wrapper that hands
        derived or unvalidated values inward, so that the inner functions check them.  A contract
        that leaves an argument unchecked (an :class:`Unchecked` rule, a container such as
        ``Instance(dict)``, or a parameter without a rule, ``self``, ``cls`` and ``rng`` aside) lets its
        nested calls check, whatever ``skip_nested`` says.  Once a call skips, every call below it
        skips too.
    **constraints : Constraint
        One rule per checked parameter.

    Defaults are not re-checked on every call; the generated test checks once that every default
    meets its constraint.
    """
    for n, c in constraints.items():
        if not isinstance(c, Constraint):
            raise TypeError(f"contract: the rule for {n!r} must be a Constraint, got {_tname(c)}")

    def decorate(func: Callable) -> Callable:
        sig = inspect.signature(func)
        unknown = set(constraints) - set(sig.parameters)
        if unknown:
            raise TypeError(f"contract on {func.__qualname__}: no parameter(s) {sorted(unknown)}")

        P = inspect.Parameter
        params = list(sig.parameters.values())
        positional = [p for p in params if p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)]
        n_pos = len(positional)
        pos_index = {p.name: i for i, p in enumerate(positional)}
        by_keyword = {p.name for p in params if p.kind in (P.POSITIONAL_OR_KEYWORD, P.KEYWORD_ONLY)}
        required_pos = [(i, p.name) for i, p in enumerate(positional) if p.default is P.empty]
        required_kw = [p.name for p in params if p.kind is P.KEYWORD_ONLY and p.default is P.empty]
        rules = [(name, rule, pos_index.get(name, n_pos)) for name, rule in constraints.items()]
        simple = not any(p.kind in (P.VAR_POSITIONAL, P.VAR_KEYWORD) for p in params)
        covered = all(
            p.name in constraints and constraints[p.name].complete
            for p in params
            if p.name not in ("self", "cls", "rng") and p.kind not in (P.VAR_POSITIONAL, P.VAR_KEYWORD)
        )
        skips = skip_nested and covered and simple

        def binds_plainly(args, kwargs) -> bool:
            # the call binds without defaults to fill by name or errors to report: no sig.bind needed
            na = len(args)
            if na > n_pos:
                return False
            for k in kwargs:
                if k not in by_keyword or pos_index.get(k, n_pos) < na:
                    return False
            return all(i < na or n in kwargs for i, n in required_pos) and all(n in kwargs for n in required_kw)

        def run(args, kwargs):
            if not skips:
                return func(*args, **kwargs)
            token = _SKIP.set(True)
            try:
                return func(*args, **kwargs)
            finally:
                _SKIP.reset(token)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            nested = _SKIP.get()
            if simple and binds_plainly(args, kwargs):  # the same checks, in the same order
                args = list(args)
                for name, rule, i in rules:
                    if name in kwargs:
                        kwargs[name] = rule.convert(kwargs[name]) if nested else rule.check(kwargs[name], name)
                    elif i < len(args):
                        args[i] = rule.convert(args[i]) if nested else rule.check(args[i], name)
                return func(*args, **kwargs) if nested else run(args, kwargs)
            try:
                bound = sig.bind(*args, **kwargs)
            except TypeError as exc:
                raise TypeError(f"{func.__name__}(): {exc}") from None
            arguments = bound.arguments
            for name, rule in constraints.items():
                if name in arguments:
                    arguments[name] = rule.convert(arguments[name]) if nested else rule.check(arguments[name], name)
            return func(*bound.args, **bound.kwargs) if nested else run(bound.args, bound.kwargs)

        wrapper.__contract__ = dict(constraints)
        wrapper.__signature__ = sig
        wrapper.__skips_nested__ = skips
        return wrapper

    return decorate


def contract_of(func: Any) -> dict[str, Constraint] | None:
    """The declared contract of ``func`` (a function, a method, or a class's ``__init__``), or None."""
    target = func.__init__ if inspect.isclass(func) else func
    return getattr(target, "__contract__", None)
