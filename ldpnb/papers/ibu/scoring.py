r"""The numbers the Monte Carlo claims of the IBU chapter are graded on, as :mod:`ldpnb.stats` estimates.

ElSalamouny and Palamidessi (*On the consistency and performance of the iterative Bayesian update*,
arXiv 2508.09980, Secs. 7.1-7.5) show boxplots of 100 runs per :math:`\varepsilon` (Figs. 9, 10, 12)
and single runs (Figs. 1, 8, 11).  The statistics themselves (intervals of medians, of proportions, the
bootstrap) are those of :mod:`ldpnb.stats`; this module holds what is specific to the paper:

* the arrangement of a panel's runs, :func:`stack` (runs along axis 0, then the :math:`\varepsilon` grid,
  then the estimators: IBU or the MLE first, INV-N, INV-P), and the panels' statistics of medians
  (:func:`advantage`, :func:`gain`, :func:`excess`, :func:`spread`, :func:`shrink`, :func:`ratio`,
  :func:`difference`), vectorised over bootstrap resamples;
* :func:`fig9_numbers`, :func:`ldp_numbers` and :func:`steps`: the numbers of rows F9·, F9M·, F10·, F12·
  (claims :mod:`ldpnb.papers.ibu.claims`), for :meth:`ldpnb.repro.Report.record`;
* :func:`loglog_slope` (the consistency rate of Props. 6.2-6.3 with its bootstrap interval) and
  :func:`offsets` (the readings of Fig. 8);
* descriptive helpers for the text and the figures: :func:`panel_medians`, :func:`representative_run`,
  :func:`single_run_stats`, :func:`rounding_atol`.

A statistic of medians takes ``X`` with the runs along ``axis`` (0) and returns the cells; it is called by
:func:`ldpnb.stats.bootstrap` on the runs and on arrays of resamples, so it only reduces ``axis``.
Estimators scored on the same reports are resampled jointly (one row of ``X`` per run); settings run on
different reports are independent, and resampling them by the same index is still a bootstrap of their
(product) distribution when they have as many runs.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from ldpnb import stats
from ldpnb.contracts import (
    MAX_REPS,
    REPS,
    SEED,
    Array,
    Boolean,
    Callable_,
    Instance,
    Integer,
    OneOf,
    Optional,
    Unchecked,
    contract,
)
from ldpnb.stats import Estimate
from ldpnb.utils import check_random_state

__all__ = [
    "ESTIMATORS",
    "N_BOOT",
    "rounding_atol",
    "stack",
    "advantage",
    "gain",
    "excess",
    "spread",
    "shrink",
    "against_noisy",
    "ratio",
    "difference",
    "boot",
    "steps",
    "fig9_numbers",
    "ldp_numbers",
    "loglog_slope",
    "offsets",
    "panel_medians",
    "representative_run",
    "single_run_stats",
]

#: The estimators of a panel, in the order of :func:`stack`'s last axis (the graded one first).
ESTIMATORS = ("IBU", "INV-N", "INV-P")
#: Bootstrap resamples: enough for the tails of a simultaneous (Bonferroni) interval over a grid of
#: ten settings (0.25% per tail: 25 resamples beyond each end).
N_BOOT = 10_000

_RESULTS = Instance(dict, example={1.0: {"IBU": np.ones(10), "INV-N": np.ones(10), "INV-P": np.ones(10)}})
_X = Array(None, min_size=1)
_AXIS = Integer(0, 8)


@contract(printed=Unchecked("a decimal numeral as printed, e.g. '0.7658'", "0.7658"))
def rounding_atol(printed: str) -> float:
    """Half a unit of the last printed digit: ``"0.7658" -> 5e-5``, ``"1.87" -> 5e-3``, ``"98060" -> 0.5``.

    A reproduction of a printed, rounded number can agree with it no better than this.

    Examples
    --------
    >>> rounding_atol("0.7658")
    5e-05
    """
    if not isinstance(printed, str):
        raise TypeError(f"printed must be the number as printed (a string), got {type(printed).__name__}")
    try:
        d = Decimal(printed.replace(",", "").strip())
    except InvalidOperation:
        raise ValueError(f"printed must be a decimal numeral, got {printed!r}") from None
    if not d.is_finite():
        raise ValueError(f"printed must be a decimal numeral, got {printed!r}")
    return 0.5 * 10.0 ** d.as_tuple().exponent


# ----------------------------------------------------------------------------- a panel's runs
@contract(
    results=_RESULTS,
    names=Unchecked("estimator names, e.g. ('IBU', 'INV-N', 'INV-P')", ESTIMATORS),
    eps=Optional(Array(1, min_size=1)),
    runs=Optional(REPS),
)
def stack(
    results: Mapping[float, Mapping[str, np.ndarray]],
    names: Sequence[str] = ESTIMATORS,
    *,
    eps=None,
    runs: int | None = None,
) -> np.ndarray:
    r"""The distances of a panel as one array ``X[run, ε, estimator]``.

    ``results[eps][name]`` holds one distance per run (Figs. 9, 10, 12: the same reports for every
    estimator of a setting).  ``eps`` selects settings (default: all, increasing); ``runs`` keeps the first
    runs (default: the fewest any selected estimator has, e.g. the runs whose MLE is computed).

    Examples
    --------
    >>> res = {0.1: {"IBU": np.arange(4.0), "INV-N": np.ones(4), "INV-P": np.ones(4)}}
    >>> stack(res).shape
    (4, 1, 3)
    """
    grid = sorted(results) if eps is None else [float(e) for e in eps]
    missing = [(e, m) for e in grid for m in names if e not in results or m not in results[e]]
    if missing:
        raise ValueError(f"results lack the runs of {missing[:3]}")
    n = min(np.asarray(results[e][m]).shape[0] for e in grid for m in names)
    if runs is not None:
        if runs > n:
            raise ValueError(f"runs ({runs}) exceeds the {n} runs available")
        n = runs
    return np.stack(
        [np.stack([np.asarray(results[e][m], dtype=float)[:n] for m in names], axis=-1) for e in grid], axis=1
    )


# ----------------------------------------------------------------------------- statistics of medians
def _med(X, axis):
    return np.median(np.asarray(X, dtype=float), axis=axis)


@contract(X=_X, axis=_AXIS)
def advantage(X, axis: int = 0) -> np.ndarray:
    r"""The better INV median minus the first estimator's: :math:`\min(m_{INV-N}, m_{INV-P}) - m_0` over
    the last axis ``[first, INV-N, INV-P]`` (> 0: the first estimator is better).

    Examples
    --------
    >>> float(advantage(np.array([[1.0, 3.0, 2.0], [1.0, 3.0, 2.0]])))
    1.0
    """
    m = _med(X, axis)
    return np.minimum(m[..., 1], m[..., 2]) - m[..., 0]


@contract(X=_X, axis=_AXIS)
def gain(X, axis: int = 0) -> np.ndarray:
    r""":math:`\min(m_{INV-N}, m_{INV-P}) / m_0`: how many times the first estimator beats the better INV.

    Examples
    --------
    >>> float(gain(np.array([[1.0, 3.0, 2.0], [1.0, 3.0, 2.0]])))
    2.0
    """
    m = _med(X, axis)
    return np.minimum(m[..., 1], m[..., 2]) / m[..., 0]


@contract(X=_X, axis=_AXIS)
def excess(X, axis: int = 0) -> np.ndarray:
    r""":math:`m_0 / \min(m_{INV-N}, m_{INV-P})`, the reciprocal of :func:`gain` (> 1: the first estimator is
    worse than the better INV)."""
    m = _med(X, axis)
    return m[..., 0] / np.minimum(m[..., 1], m[..., 2])


@contract(X=_X, axis=_AXIS)
def spread(X, axis: int = 0) -> np.ndarray:
    r"""The largest median over the last axis divided by the smallest (>= 1): the statistic of
    "comparable", "similar", "almost the same" (Secs. 7.4-7.6).

    Examples
    --------
    >>> float(spread(np.array([[1.0, 3.0, 2.0], [1.0, 3.0, 2.0]])))
    3.0
    """
    m = _med(X, axis)
    return m.max(axis=-1) / m.min(axis=-1)


@contract(X=_X, axis=_AXIS)
def shrink(X, axis: int = 0) -> np.ndarray:
    r""":func:`gain` at the last setting divided by the gain at the first: ``X[run, (first, last), estimator]``
    (< 1: the advantage shrinks along the grid)."""
    g = gain(X, axis)
    return g[..., -1] / g[..., 0]


@contract(X=_X, axis=_AXIS)
def against_noisy(X, axis: int = 0) -> np.ndarray:
    r"""Fig. 1's absolute quality (row F1.3): ``X[..., (noisy, IBU, INV-N, INV-P)]`` gives the medians'
    ratios noisy/IBU, INV-N/noisy and INV-P/noisy (the raw noisy histogram needs no estimator).

    Examples
    --------
    >>> against_noisy(np.array([[10.0, 1.0, 9.0, 8.0], [10.0, 1.0, 9.0, 8.0]])).tolist()
    [10.0, 0.9, 0.8]
    """
    m = _med(X, axis)
    return np.stack([m[..., 0] / m[..., 1], m[..., 2] / m[..., 0], m[..., 3] / m[..., 0]], axis=-1)


@contract(X=_X, axis=_AXIS)
def ratio(X, axis: int = 0) -> np.ndarray:
    r"""The median of ``X[..., 0]`` divided by the median of ``X[..., 1]`` (same runs)."""
    m = _med(X, axis)
    return m[..., 0] / m[..., 1]


@contract(X=_X, axis=_AXIS)
def difference(X, axis: int = 0) -> np.ndarray:
    r"""The median of ``X[..., 1]`` minus the median of ``X[..., 0]`` (same runs)."""
    m = _med(X, axis)
    return m[..., 1] - m[..., 0]


@contract(statistic=Callable_(), X=_X, rng=SEED, simultaneous=Boolean(), n_boot=Integer(200, MAX_REPS))
def boot(
    statistic: Callable[..., np.ndarray], X, *, rng=None, simultaneous: bool = False, n_boot: int = N_BOOT
) -> Estimate:
    r"""``statistic`` of the runs ``X`` (axis 0) with its BCa bootstrap interval
    (:func:`ldpnb.stats.bootstrap`, the runs resampled jointly), simultaneous over the cells when asked.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = np.stack([rng.lognormal(0, 0.3, 40), rng.lognormal(1, 0.3, 40), rng.lognormal(1, 0.3, 40)], -1)
    >>> e = boot(gain, X, rng=1)
    >>> e.method, bool(e.low < e.value < e.high)
    ('bootstrap-bca', True)
    """
    return stats.bootstrap(statistic, (X,), rng=check_random_state(rng), simultaneous=simultaneous, n_boot=n_boot)


# ----------------------------------------------------------------------------- rows of a panel
@contract(results=_RESULTS, names=Unchecked("estimator names", ESTIMATORS))
def steps(results: Mapping[float, Mapping[str, np.ndarray]], names: Sequence[str] = ESTIMATORS) -> dict[str, Any]:
    r"""The numbers of "the estimation quality of all methods improves with :math:`\varepsilon`"
    (rows F9·.5, F10·.2, F12·.2): the medians of every estimator at every :math:`\varepsilon` with their
    order-statistic intervals, simultaneous over the grid and the estimators (:func:`ldpnb.stats.median`),
    as the values ``"next"`` (:math:`\varepsilon_{j+1}`) and ``"previous"`` (:math:`\varepsilon_j`) of the
    order ``next <= previous`` (settings are independent runs: each step's difference combines the two
    intervals).
    """
    med = stats.median(stack(results, names), simultaneous=True)  # cells (eps, estimator)
    return {"values": {"next": med[1:], "previous": med[:-1]}}


@contract(results=_RESULTS, lab=OneOf(*"abcdef"), mle=Boolean(), rng=SEED)
def fig9_numbers(
    results: Mapping[float, Mapping[str, np.ndarray]], lab: str, *, mle: bool = False, rng=None
) -> dict[str, Any]:
    r"""The numbers of rows F9<lab>.1-.5 (IBU under the paper's rule) or F9M<lab>.1-.2 (``mle=True``: the
    certified MLE, on the runs whose MLE is computed) of one panel of Fig. 9, for
    :meth:`ldpnb.repro.Report.record`.

    ``results[eps]`` holds the distances of every estimator (``"IBU"``, ``"MLE"``, ``"INV-N"``,
    ``"INV-P"``).  ``.1``: the advantage (:func:`advantage`) at every :math:`\varepsilon_g` of the lower half
    of the grid (simultaneous); ``.2``: the :func:`gain` at the smallest; ``.3``: the :func:`excess` at every
    :math:`\varepsilon_g` (simultaneous); ``.4``: the :func:`spread` at the largest (locations, panels b, d,
    f) or the :func:`shrink` of the gain from the smallest to the largest (ages); ``.5``: :func:`steps`.
    """
    g = check_random_state(rng)
    eps = np.array(sorted(results))
    lower = eps[eps <= np.median(eps)]
    first = "MLE" if mle else "IBU"
    names = (first, "INV-N", "INV-P")
    X = stack(results, names, eps=lower if mle else eps)
    med = np.median(X, axis=0)
    low = slice(None, lower.size)
    tag = f"F9M{lab}" if mle else f"F9{lab}"
    out = {
        f"{tag}.1": {
            "values": {first: med[low, 0], "INV": np.minimum(med[low, 1], med[low, 2])},
            "differences": {f"INV - {first}": boot(advantage, X[:, low], rng=g, simultaneous=True)},
        },
        f"{tag}.2": boot(gain, X[:, 0], rng=g),
    }
    if mle:
        return out
    out[f"{tag}.3"] = boot(excess, X, rng=g, simultaneous=True)
    out[f"{tag}.4"] = boot(spread, X[:, -1], rng=g) if lab in "bdf" else boot(shrink, X[:, [0, -1]], rng=g)
    out[f"{tag}.5"] = steps(results)
    return out


@contract(results=_RESULTS, name=OneOf("10a", "10b", "12a", "12b"), rng=SEED)
def ldp_numbers(results: Mapping[float, Mapping[str, np.ndarray]], name: str, *, rng=None) -> dict[str, Any]:
    r"""The numbers of rows F<name>.1 (:func:`spread` of the three medians at every :math:`\varepsilon`,
    simultaneous) and F<name>.2 (:func:`steps`) of Figs. 10 and 12."""
    return {f"F{name}.1": boot(spread, stack(results), rng=rng, simultaneous=True), f"F{name}.2": steps(results)}


# ----------------------------------------------------------------------------- other statistics
@contract(n=Array(1, low=1.0, min_size=2), errors=Array(2, low=0.0), rng=SEED, n_boot=Integer(200, MAX_REPS))
def loglog_slope(n, errors, *, rng=None, n_boot: int = N_BOOT) -> Estimate:
    r"""The least-squares slope of :math:`\log \bar e(n)` against :math:`\log n`, with its BCa bootstrap
    interval: ``errors[i, j]`` is the error of sample ``i`` at ``n[j]`` (independent samples at each
    :math:`n`, resampled).  A consistent estimator with a regular rate has slope :math:`-1/2` (Props.
    6.2-6.3).

    With :math:`x_j = \log n_j`, :math:`\bar x` their mean and :math:`y_j = \log \bar e_j`:
    :math:`\hat\beta = \sum_j (x_j - \bar x) y_j / \sum_j (x_j - \bar x)^2`.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> n = np.array([1e3, 1e4, 1e5])
    >>> E = rng.lognormal(0, 0.2, (20, 3)) / np.sqrt(n)
    >>> round(loglog_slope(n, E, rng=1).value, 1)
    -0.5
    """
    if errors.shape[1] != n.size:
        raise ValueError(f"errors must have one column per n ({n.size}), got shape {errors.shape}")
    x = np.log(n)
    w = (x - x.mean()) / np.sum((x - x.mean()) ** 2)

    def slope(E, axis=0):
        return np.log(np.mean(E, axis=axis)) @ w

    return stats.bootstrap(slope, (errors,), rng=check_random_state(rng), n_boot=n_boot)


@contract(
    ours=Array(1),
    others=Unchecked("a sequence of arrays of runs", (np.ones(10),)),
    printed=Unchecked("a number", 1.0),
    rng=SEED,
    n_boot=Integer(200, MAX_REPS),
)
def offsets(ours, others, printed: float, *, rng=None, n_boot: int = N_BOOT) -> Estimate:
    r"""How much further from a printed single-run value each other reading's median lies than ours:
    :math:`|\tilde m_j - p| - |\tilde m_0 - p|` for each sample ``others[j]`` (:math:`\tilde m` the median
    over its runs), with BCa bootstrap intervals (the readings are independent runs, each resampled on its
    own), simultaneous over the readings (Fig. 8, row F8.7: > 0 means that ours fits the printed value
    better)."""
    if not isinstance(others, (list, tuple)) or not others:
        raise TypeError("others must be a non-empty list or tuple of arrays of runs")
    p = float(printed)

    def stat(o, *rest, axis=0):
        d0 = np.abs(np.median(o, axis=axis) - p)
        return np.stack([np.abs(np.median(r, axis=axis) - p) - d0 for r in rest], axis=-1)

    return stats.bootstrap(stat, (ours, *others), rng=check_random_state(rng), simultaneous=True, n_boot=n_boot)


# ----------------------------------------------------------------------------- descriptive helpers
@contract(results=_RESULTS)
def panel_medians(results: Mapping[float, Mapping[str, np.ndarray]]) -> dict[str, Any]:
    r"""The medians of a panel, for its tables and text (no statistics): ``eps`` (increasing), ``med[name]``
    (median per :math:`\varepsilon`, NaN where an estimator was not run), ``inv`` (the better of the INV-N
    and INV-P medians), ``lower`` (the :math:`\varepsilon` of the lower half) and ``ratio3`` (max/min of the
    IBU, INV-N and INV-P medians)."""
    eps = np.array(sorted(results))
    names = [m for m in ("IBU", "MLE", "INV-N", "INV-P", "noisy") if any(m in results[e] for e in eps)]
    med = {m: np.array([np.median(results[e][m]) if m in results[e] else np.nan for e in eps]) for m in names}
    three = np.stack([med[m] for m in ESTIMATORS])
    return {
        "eps": eps,
        "med": med,
        "inv": np.minimum(med["INV-N"], med["INV-P"]),
        "lower": eps <= np.median(eps),
        "ratio3": three.max(axis=0) / three.min(axis=0),
    }


@contract(scores=Array(2))
def representative_run(scores) -> int:
    """Index of the run whose scores are all nearest their medians: ``scores`` is ``(runs, estimators)``;
    minimises ``max_j |percentile rank of scores[i, j] - 1/2|``.  For drawing one run of a figure that
    the paper shows for one run (Figs. 1 and 8) as a typical run rather than an arbitrary one.

    Examples
    --------
    >>> representative_run(np.array([[1.0, 10.0], [2.0, 50.0], [3.0, 20.0], [4.0, 5.0], [5.0, 30.0]]))
    2
    """
    n = scores.shape[0]
    pct = np.argsort(np.argsort(scores, axis=0), axis=0) / max(1, n - 1)
    return int(np.argmin(np.abs(pct - 0.5).max(axis=1)))


@contract(
    runs=Instance(dict, example={"noisy": np.ones(3), "INV-N": np.ones(3), "INV-P": np.ones(3)}),
    paper=Instance(dict, example={"noisy": 1.0, "INV-N": 1.0, "INV-P": 1.0}),
)
def single_run_stats(runs: Mapping[str, np.ndarray], paper: Mapping[str, float]) -> dict[str, float]:
    """How a paper's single run compares with the distribution of our runs (Fig. 8), for the text: for each
    estimator the percentage of our runs below the printed value (``pct_<name>``) and the standard deviation
    of our runs in per cent of their median (``sd_<name>``); the correlation of INV-N and INV-P over the runs
    (``corr``); the percentage of runs at least as bad as the paper's for both (``both``); the percentage of
    runs in which INV-N is worse than the noisy distribution (``worse``).  Names are lower-cased with ``-``
    removed (``invn``)."""
    key = lambda m: m.lower().replace("-", "")  # noqa: E731
    out = {}
    for m, v in runs.items():
        v = np.asarray(v, dtype=float)
        out[f"pct_{key(m)}"] = float(100.0 * np.mean(v < paper[m]))
        out[f"sd_{key(m)}"] = float(100 * v.std() / np.median(v))
    n, p, q = (np.asarray(runs[m], dtype=float) for m in ("INV-N", "INV-P", "noisy"))
    out["corr"] = float(np.corrcoef(n, p)[0, 1])
    out["both"] = float(100 * np.mean((n >= paper["INV-N"]) & (p >= paper["INV-P"])))
    out["worse"] = float(100 * np.mean(n > q))
    return out
