r"""An estimate with its uncertainty, as a value: :class:`Estimate` and :func:`exact`."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np
from numpy.typing import ArrayLike

from ldpnb.contracts import Array, Integer, Probability, Unchecked, contract

__all__ = ["Estimate", "exact", "bonferroni", "is_estimate_dict", "METHODS"]

#: The methods an :class:`Estimate` can name (the estimator that produced it).
METHODS = (
    "exact",  # an exact number: degenerate interval
    "t",  # Student's t interval of a mean (Welch's for an unpaired difference)
    "hall",  # Hall's skewness-corrected t interval of a mean
    "bootstrap-t",  # studentized bootstrap (mean, difference, ratio of means)
    "bootstrap-bca",  # bias-corrected and accelerated bootstrap (any statistic)
    "bootstrap-percentile",
    "order",  # distribution-free order-statistic interval of a median
    "fieller",  # Fieller's interval of a ratio of means
    "wilson",  # Wilson score interval of a proportion
    "clopper-pearson",  # exact binomial interval of a proportion
    "kendall-jackknife",  # Kendall's tau-b with a jackknife t interval over items
    "kendall-bootstrap",  # Kendall's tau-b with a bootstrap-BCa interval over items
    "delete-d-jackknife",  # random half-sample (delete-n/2 jackknife) standard error, normal interval
    "normal",  # value +- z se (a standard error known by other means)
    "independent-difference",  # difference of two independent estimates (normal approximation)
    "moderated-t",  # cell means with Student intervals on empirical-Bayes moderated variances
)


def _array(x: Any, name: str) -> float | np.ndarray:
    try:
        a = np.array(x, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a number or an array of numbers, got {x!r:.80}") from exc
    if a.ndim == 0:
        return float(a)
    a.setflags(write=False)
    return a


def _plain(x: Any) -> Any:
    """JSON-able: floats (non-finite as the strings 'inf', '-inf', 'nan'), nested lists."""
    if x is None:
        return None
    a = np.asarray(x, dtype=float)
    if a.ndim == 0:
        f = float(a)
        return f if math.isfinite(f) else ("nan" if math.isnan(f) else ("inf" if f > 0 else "-inf"))
    return [_plain(v) for v in a]


def _unplain(x: Any) -> Any:
    if x is None:
        return None
    if isinstance(x, str):
        return float(x)
    if isinstance(x, (list, tuple)):
        return [_unplain(v) for v in x]
    return x


@dataclass(frozen=True, eq=False)
class Estimate:
    r"""A measured quantity with its uncertainty: a value, a confidence interval at a level, and how
    it was obtained.

    Scalar or elementwise (arrays of one shape, one cell per element: the quantity at every point of
    a grid).  An exact number is an estimate with a degenerate interval (:func:`exact`).

    Parameters
    ----------
    value : float or array
        The point estimate (finite, or NaN for an undefined quantity, whose interval is then NaN).
    low, high : float or array
        The interval's ends (``low <= high``; infinite ends are allowed, e.g. an unbounded Fieller
        interval; NaN exactly where the value is NaN: an undefined quantity has no interval).
    level : float
        The interval's confidence level, in (0, 1] (1 for an exact number).  With
        ``simultaneous=True`` the level holds jointly for every cell.
    se : float or array, optional
        The standard error where meaningful (a mean's :math:`s/\sqrt{n}`); ``None`` otherwise.
    n_runs : int, optional
        The number of independent runs behind the estimate (the smallest, for several samples);
        ``None`` for an exact number.
    method : str
        One of :data:`METHODS`.
    simultaneous : bool
        Whether the intervals hold jointly over all cells (Bonferroni), not cell by cell.
    note : str
        What the reader must know (a widened interval, an unbounded ratio, ...).

    Examples
    --------
    >>> from ldpnb.stats import Estimate, exact
    >>> e = Estimate(1.578, 1.43, 1.73, level=0.95, n_runs=100, method="bootstrap-bca")
    >>> print(e)
    1.578 [1.43, 1.73] (95 %, bootstrap-bca, 100 runs)
    >>> Estimate.from_dict(e.to_dict()) == e
    True
    >>> exact(2.0).half_widths
    (0.0, 0.0)
    """

    value: Any
    low: Any
    high: Any
    level: float = 0.95
    se: Any = None
    n_runs: int | None = None
    method: str = "exact"
    simultaneous: bool = False
    note: str = ""

    def __post_init__(self):
        v, lo, hi = (_array(getattr(self, k), k) for k in ("value", "low", "high"))
        shape = np.shape(v)
        if np.shape(lo) != shape or np.shape(hi) != shape:
            raise ValueError(f"value, low and high must have one shape, got {shape}, {np.shape(lo)}, {np.shape(hi)}")
        if np.size(v) == 0:
            raise ValueError("an estimate needs at least one cell")
        va, la, ha = np.asarray(v), np.asarray(lo), np.asarray(hi)
        nan_v = np.isnan(va)
        for end, arr in (("low", la), ("high", ha)):
            if np.any(np.isnan(arr) & ~nan_v):
                raise ValueError(f"{end}: an interval end is NaN (or None) where the value is not")
        if np.any(nan_v & ~(np.isnan(la) & np.isnan(ha))):
            raise ValueError(
                "the value is NaN where an interval end is not: an undefined quantity has no interval "
                "(low and high must be NaN too)"
            )
        ok = nan_v | (la <= ha)
        if not np.all(ok):
            raise ValueError("low must be <= high in every cell")
        if np.any(np.isinf(va)):
            raise ValueError("the value must be finite (or NaN for an undefined quantity)")
        se = None if self.se is None else _array(self.se, "se")
        if se is not None:
            if np.shape(se) != shape:
                se = np.broadcast_to(np.asarray(se, dtype=float), shape)
                se = float(se) if se.ndim == 0 else np.array(se)
            sa = np.asarray(se)
            if np.any(sa[~np.isnan(sa)] < 0):
                raise ValueError("se must be >= 0")
        if isinstance(self.level, bool) or not isinstance(self.level, numbers.Real) or not 0 < self.level <= 1:
            raise ValueError(f"level must be in (0, 1], got {self.level!r}")
        if self.n_runs is not None and (
            isinstance(self.n_runs, bool) or not isinstance(self.n_runs, numbers.Integral) or self.n_runs < 1
        ):
            raise ValueError(f"n_runs must be None or an integer >= 1, got {self.n_runs!r}")
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {METHODS}, got {self.method!r}")
        if self.method == "exact" and not (
            np.array_equal(la, va, equal_nan=True) and np.array_equal(ha, va, equal_nan=True)
        ):
            raise ValueError("an exact estimate has low == value == high")
        object.__setattr__(self, "value", v)
        object.__setattr__(self, "low", lo)
        object.__setattr__(self, "high", hi)
        object.__setattr__(self, "se", se)
        object.__setattr__(self, "level", float(self.level))
        object.__setattr__(self, "n_runs", None if self.n_runs is None else int(self.n_runs))
        object.__setattr__(self, "simultaneous", bool(self.simultaneous))
        object.__setattr__(self, "note", str(self.note))

    # ------------------------------------------------------------------ views
    @property
    def exact(self) -> bool:
        """Whether this is an exact number (a degenerate interval, method ``"exact"``)."""
        return self.method == "exact"

    @property
    def shape(self) -> tuple[int, ...]:
        return np.shape(self.value)

    @property
    def size(self) -> int:
        return int(np.size(self.value))

    @property
    def half_widths(self) -> tuple[Any, Any]:
        """``(value - low, high - value)``: the interval's extent below and above the value."""
        with np.errstate(invalid="ignore"):
            lo = np.asarray(self.value) - np.asarray(self.low)
            hi = np.asarray(self.high) - np.asarray(self.value)
        return (float(lo), float(hi)) if lo.ndim == 0 else (lo, hi)

    @property
    def cell_level(self) -> float:
        """The level of each cell's own interval: ``level``, or the Bonferroni level
        ``1 - (1 - level) / size`` when the intervals are simultaneous."""
        return bonferroni(self.level, self.size) if self.simultaneous and self.size > 1 else self.level

    def __getitem__(self, index) -> "Estimate":
        """The estimate of some cells (a cell's interval keeps its level: a simultaneous interval
        stays valid for any subset)."""
        se = None if self.se is None else np.asarray(self.se)[index]
        return Estimate(
            np.asarray(self.value)[index],
            np.asarray(self.low)[index],
            np.asarray(self.high)[index],
            level=self.level,
            se=se,
            n_runs=self.n_runs,
            method=self.method,
            simultaneous=self.simultaneous,
            note=self.note,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Estimate):
            return NotImplemented
        same = all(
            np.array_equal(np.asarray(getattr(self, k)), np.asarray(getattr(other, k)), equal_nan=True)
            for k in ("value", "low", "high")
        )
        se_same = (self.se is None and other.se is None) or (
            self.se is not None
            and other.se is not None
            and np.array_equal(np.asarray(self.se), np.asarray(other.se), equal_nan=True)
        )
        return (
            same
            and se_same
            and (self.level, self.n_runs, self.method, self.simultaneous, self.note)
            == (other.level, other.n_runs, other.method, other.simultaneous, other.note)
        )

    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (non-finite numbers as the strings ``"inf"``, ``"-inf"``, ``"nan"``)."""
        return {
            "value": _plain(self.value),
            "low": _plain(self.low),
            "high": _plain(self.high),
            "level": self.level,
            "se": _plain(self.se),
            "n_runs": self.n_runs,
            "method": self.method,
            "simultaneous": self.simultaneous,
            "note": self.note,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Estimate":
        """The inverse of :meth:`to_dict`."""
        if not is_estimate_dict(d):
            if not isinstance(d, Mapping):
                raise TypeError(f"d must be an estimate's dict (Estimate.to_dict), got {type(d).__name__}")
            raise ValueError(f"d is not an estimate's dict: keys {sorted(d)}")
        return cls(
            _unplain(d["value"]),
            _unplain(d["low"]),
            _unplain(d["high"]),
            level=d["level"],
            se=_unplain(d.get("se")),
            n_runs=d.get("n_runs"),
            method=d["method"],
            simultaneous=bool(d.get("simultaneous", False)),
            note=d.get("note", ""),
        )

    # ------------------------------------------------------------------ display
    def text(self, digits: int = 4) -> str:
        """``value [low, high]`` with ``digits`` significant digits (cells separated by commas)."""
        if isinstance(digits, bool) or not isinstance(digits, (int, np.integer)) or not 1 <= digits <= 17:
            raise ValueError(f"digits must be an integer in [1, 17], got {digits!r}")

        def f(x):
            x = float(x)
            return f"{x:.{digits}g}" if math.isfinite(x) else ("∞" if x > 0 else ("-∞" if x < 0 else "nan"))

        if self.size == 1:
            v, lo, hi = (np.asarray(getattr(self, k)).ravel()[0] for k in ("value", "low", "high"))
            return f(v) if self.exact else f"{f(v)} [{f(lo)}, {f(hi)}]"
        cells = [
            Estimate.text(self[i], digits) if np.ndim(self.value) == 1 else "…" for i in range(min(self.shape[0], 4))
        ]
        more = f", … ({self.size} cells)" if self.size > 4 or np.ndim(self.value) > 1 else ""
        return "[" + "; ".join(cells) + more + "]"

    def __str__(self) -> str:
        if self.exact:
            return self.text() + " (exact)"
        parts = [
            f"{100 * self.level:g} %" + (" simultaneous" if self.simultaneous and self.size > 1 else ""),
            self.method,
        ]
        if self.n_runs is not None:
            parts.append(f"{self.n_runs} runs")
        return f"{self.text()} ({', '.join(parts)})"


_KEYS = {"value", "low", "high", "level", "method"}


@contract(d=Unchecked("anything: the answer is whether it is an estimate's JSON form", example={}))
def is_estimate_dict(d: Any) -> bool:
    """Whether ``d`` is an :class:`Estimate` in its JSON form."""
    return isinstance(d, Mapping) and _KEYS <= set(d) and d.get("method") in METHODS


@contract(value=Array(None, min_size=1))
def exact(value: ArrayLike) -> Estimate:
    """An exact number (or array) as an :class:`Estimate`: the interval is the value itself.

    A criterion decides an exact estimate exactly as it decides the plain number (bit for bit).

    Examples
    --------
    >>> from ldpnb.stats import exact
    >>> exact(0.5)
    Estimate(value=0.5, low=0.5, high=0.5, level=1.0, se=0.0, n_runs=None, method='exact', simultaneous=False, note='')
    """
    v = np.asarray(value, dtype=float)
    return Estimate(v, v, v, level=1.0, se=np.zeros_like(v), n_runs=None, method="exact")


@contract(level=Probability(open_left=True, open_right=True), cells=Integer(1, 1 << 40))
def bonferroni(level: float, cells: int) -> float:
    r"""The per-cell level that makes ``cells`` intervals hold jointly at ``level``:
    :math:`1 - (1 - \text{level}) / m` (Bonferroni's inequality
    :math:`P(\cup_i A_i) \le \sum_i P(A_i)`; valid for any dependence between the cells,
    conservative when they are independent).

    References
    ----------
    O. J. Dunn, "Multiple comparisons among means", J. Amer. Statist. Assoc. 56 (1961) 52-64.

    Examples
    --------
    >>> from ldpnb.stats import bonferroni
    >>> round(bonferroni(0.95, 10), 6)
    0.995
    """
    return 1.0 - (1.0 - level) / cells
