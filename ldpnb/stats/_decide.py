r"""Deciding a region from an estimate: three outcomes, the runs that would decide, and the
probability of each outcome at a hypothetical true value (the power of a criterion)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy import stats as _st

from ldpnb.contracts import Boolean, Instance, OneOf, Optional, Unchecked, contract
from ldpnb.stats._estimate import Estimate

__all__ = ["OUTCOMES", "decide", "outcome_probability", "runs_to_decide"]

#: The outcomes of a criterion decided on an estimate.
OUTCOMES = ("holds", "reversed", "undecided")

_EST = Instance(Estimate, example=Estimate(1.0, 0.5, 1.5, n_runs=10, method="t"))
_BOUND = Unchecked("None (no bound), a number or an array of numbers (per cell)", example=0.0)


def _bound(b: Any, default: float, name: str = "bound", allow_nan: bool = False) -> np.ndarray:
    """A region edge as a float array: None gives ``default``; ``+-inf`` is no bound; NaN, text and
    other non-numbers are refused (a NaN edge would leave every cell undecided)."""
    if b is None:
        return np.asarray(default, dtype=float)
    a = np.asarray(b)
    if a.dtype.kind not in "biuf" or a.dtype.kind == "b":
        what = "a number" if allow_nan else "None, a number"
        raise TypeError(f"{name} must be {what} or an array of numbers (per cell), got {b!r:.60}")
    a = a.astype(float)
    if not allow_nan and np.isnan(a).any():
        raise ValueError(f"{name} must not be NaN (None or +-inf is no bound), got {b!r:.60}")
    return a


@contract(estimate=_EST, lower=_BOUND, upper=_BOUND, lower_open=Boolean(), upper_open=Boolean())
def decide(
    estimate: Estimate, lower: Any = None, upper: Any = None, *, lower_open: bool = False, upper_open: bool = False
) -> np.ndarray:
    r"""Per cell, whether the estimate's interval lies in the region ``[lower, upper]``
    (``"holds"``), entirely outside it (``"reversed"``), or across an edge (``"undecided"``).

    With the interval :math:`[l, h]` and the region :math:`[L, U]` (an end excluded with
    ``lower_open``/``upper_open``): holds when :math:`L \le l` and :math:`h \le U`; reversed when
    :math:`h < L` or :math:`l > U` (:math:`h \le L`, :math:`l \ge U` for an excluded end); an
    undefined (NaN) value is reversed.  An exact estimate is never undecided.

    Examples
    --------
    >>> from ldpnb.stats import Estimate, decide
    >>> e = Estimate([1.0, 2.0, 3.0], [0.8, 1.5, 2.9], [1.2, 2.5, 3.1], method="t", n_runs=10)
    >>> decide(e, upper=2.0).tolist()
    ['holds', 'undecided', 'reversed']
    """
    lo, hi = np.asarray(estimate.low), np.asarray(estimate.high)
    L, U = _bound(lower, -np.inf, "lower"), _bound(upper, np.inf, "upper")
    with np.errstate(invalid="ignore"):
        inside = (lo > L if lower_open else lo >= L) & (hi < U if upper_open else hi <= U)
        outside = (hi <= L if lower_open else hi < L) | (lo >= U if upper_open else lo > U)
    nan = np.isnan(np.asarray(estimate.value)) | np.isnan(lo) | np.isnan(hi)
    out = np.where(inside & ~nan, "holds", np.where(outside | nan, "reversed", "undecided"))
    return np.asarray(out, dtype=object)


def _spread(estimate: Estimate) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(half-width below, half-width above, standard deviation of the point estimate)."""
    lo_w, hi_w = (np.asarray(w, dtype=float) for w in estimate.half_widths)
    if estimate.se is not None:
        sd = np.asarray(estimate.se, dtype=float)
    else:
        z = _st.norm.ppf(1 - (1 - estimate.cell_level) / 2)
        sd = (lo_w + hi_w) / (2 * z)
    sd = np.broadcast_to(sd, np.shape(estimate.value))
    return lo_w, hi_w, sd


@contract(
    estimate=_EST,
    lower=_BOUND,
    upper=_BOUND,
    truth=Unchecked("a number or array (per cell)", 1.0),
    outcome=OneOf("holds", "reversed"),
)
def outcome_probability(
    estimate: Estimate, lower: Any, upper: Any, truth: Any, *, outcome: str = "holds"
) -> np.ndarray:
    r"""Per cell, the probability of an outcome of :func:`decide` if the true value were ``truth``,
    at the estimate's run count (normal approximation).

    The point estimate is taken as :math:`T \sim N(\theta, \sigma^2)`, with :math:`\sigma` the
    estimate's standard error (or, without one, the interval's width over
    :math:`2 z_{1-\alpha/2}`), and the interval as :math:`[T - w_-, T + w_+]` with the measured
    half-widths.  Then

    .. math:: P(\text{holds}) = \Phi\Big(\frac{U - w_+ - \theta}{\sigma}\Big)
                               - \Phi\Big(\frac{L + w_- - \theta}{\sigma}\Big), \qquad
              P(\text{reversed}) = \Phi\Big(\frac{L - w_+ - \theta}{\sigma}\Big)
                                 + 1 - \Phi\Big(\frac{U + w_- - \theta}{\sigma}\Big).

    With a ``truth`` at which the claim is materially false (the criterion's falsifier),
    ``P(holds)`` is the probability that the criterion passes wrongly: its power is one minus it.
    An estimate with a zero spread is decided with certainty.

    Examples
    --------
    >>> from ldpnb.stats import from_se, outcome_probability
    >>> e = from_se(10.0, 1.0)              # 95 %: [8.04, 11.96]
    >>> float(outcome_probability(e, 8.0, None, truth=8.0))   # one-sided: about alpha / 2
    0.025
    """
    lo_w, hi_w, sd = _spread(estimate)
    L, U = _bound(lower, -np.inf, "lower"), _bound(upper, np.inf, "upper")
    if truth is None:
        raise TypeError("truth must be a number or an array of numbers (per cell), got None")
    th = _bound(truth, np.nan, "truth", allow_nan=True)

    def cdf(x):
        with np.errstate(divide="ignore", invalid="ignore"):
            z = (x - th) / sd
        exact_side = np.where(x - th >= 0, 1.0, 0.0)
        return np.where(sd > 0, _st.norm.cdf(z), exact_side)

    with np.errstate(invalid="ignore"):
        if outcome == "holds":
            p = np.clip(cdf(U - hi_w) - cdf(L + lo_w), 0.0, 1.0)
            p = np.where(U - hi_w < L + lo_w, 0.0, p)
        else:
            p = np.clip(cdf(np.nextafter(L - hi_w, -np.inf)) + 1 - cdf(U + lo_w), 0.0, 1.0)
    return np.round(p, 12)


@contract(estimate=_EST, lower=_BOUND, upper=_BOUND, cells=Optional(Unchecked("a boolean mask", None)))
def runs_to_decide(estimate: Estimate, lower: Any = None, upper: Any = None, *, cells: Any = None) -> dict[str, Any]:
    r"""About how many runs would decide an undecided estimate: each crossed edge :math:`e` of the
    region needs the half-width on its side to shrink below the distance :math:`|\hat\theta - e|`,
    and half-widths shrink as :math:`1/\sqrt n`, so

    .. math:: n' \approx n \max_{e\ \text{crossed}} \Big(\frac{w_{\pm}}{|\hat\theta - e|}\Big)^2 .

    An estimate (it assumes the point estimate stays where it is).  Returns ``factor`` (the
    multiplier of the run count; ``"inf"`` when it cannot be estimated: an edge at the point
    estimate, which no number of runs decides, or an unbounded interval), ``runs``
    (``ceil(factor * n_runs)``, or None without a run count or a finite factor) and ``cells`` (how
    many cells are undecided).  ``cells`` restricts the computation to a boolean mask of cells.

    Examples
    --------
    >>> from ldpnb.stats import Estimate, runs_to_decide
    >>> e = Estimate(1.6, 1.45, 1.75, method="bootstrap-bca", n_runs=100)
    >>> runs_to_decide(e, upper=1.5)
    {'factor': 2.25, 'runs': 225, 'cells': 1}
    """
    v = np.asarray(estimate.value, dtype=float)
    lo, hi = np.asarray(estimate.low, dtype=float), np.asarray(estimate.high, dtype=float)
    lo_w, hi_w = v - lo, hi - v
    if cells is None:
        mask = np.ones(v.shape, bool)
    else:
        mask = np.asarray(cells)
        if mask.dtype != bool or mask.shape != v.shape:
            raise TypeError(f"cells must be None or a boolean mask of shape {v.shape}, got {cells!r:.60}")
    factor = np.ones(v.shape)
    crossed_any = np.zeros(v.shape, bool)
    for edge in (_bound(lower, np.nan, "lower"), _bound(upper, np.nan, "upper")):
        e = np.broadcast_to(edge, v.shape)
        with np.errstate(invalid="ignore", divide="ignore"):
            crossed = np.isfinite(e) & (lo < e) & (e < hi)
            dist = np.abs(v - e)
            w = np.where(e < v, lo_w, hi_w)
            f = np.where((dist > 0) & np.isfinite(w), (w / dist) ** 2, np.inf)
        factor = np.where(crossed & mask, np.maximum(factor, f), factor)
        crossed_any |= crossed & mask
    n_cells = int(crossed_any.sum())
    if n_cells == 0:
        return {"factor": 1.0, "runs": estimate.n_runs, "cells": 0}
    fmax = float(factor[crossed_any].max())
    runs = None if (estimate.n_runs is None or not math.isfinite(fmax)) else int(math.ceil(fmax * estimate.n_runs))
    return {"factor": round(fmax, 6) if math.isfinite(fmax) else "inf", "runs": runs, "cells": n_cells}
