r"""Statistics that turn the Monte Carlo runs of the IBU chapter into the numbers its claims grade.

ElSalamouny and Palamidessi (*On the consistency and performance of the iterative Bayesian update*,
arXiv 2508.09980, Secs. 7.1-7.5) report one run (Figs. 1, 8, 11) or boxplots of 100 runs per
:math:`\varepsilon` (Figs. 9, 10, 12).  Each function here computes one statistic whose criterion is
fixed in :mod:`ldpnb.papers.ibu.claims` from the claim's wording and from the Monte Carlo error:

* :func:`rounding_atol`: half a unit of the last printed digit of a printed number;
* :func:`single_run_interval`: the central interval of a single-run statistic over many runs (where a
  printed single-run value should fall if our pipeline could have produced it);
* :func:`paired_median_ci`: a paired, two-sided comparison of two estimators scored on the same runs;
* :func:`bootstrap_se_median` and :func:`monotone_rises`: "improves with :math:`\varepsilon`" within
  the Monte Carlo noise of the medians;
* :func:`ratio_of_medians`: the "comparable"/"similar" statistic, max/min of medians;
* :func:`median_ratio_ci`: the same statistic for two independent samples, with a bootstrap interval;
* :func:`representative_run`: the run nearest the median of every score (for drawing one run).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

import numpy as np

from ldpnb.contracts import Array, Instance, Integer, Real, RandomState, Unchecked, contract
from ldpnb.utils import check_random_state

__all__ = [
    "rounding_atol",
    "single_run_interval",
    "percentile_of",
    "paired_median_ci",
    "bootstrap_se_median",
    "monotone_rises",
    "ratio_of_medians",
    "representative_run",
    "panel_summary",
    "single_run_stats",
    "median_ratio_ci",
]


@contract(printed=Unchecked("a decimal numeral as printed, e.g. '0.7658'", "0.7658"))
def rounding_atol(printed: str) -> float:
    """Half a unit of the last printed digit: ``"0.7658" -> 5e-5``, ``"1.87" -> 5e-3``, ``"98060" -> 0.5``.

    A reproduction of a printed, rounded number can agree with it no better than this.
    """
    if not isinstance(printed, str):
        raise TypeError(f"printed must be the number as printed (a string), got {type(printed).__name__}")
    try:
        d = Decimal(printed.replace(",", "").strip())
    except InvalidOperation:
        raise ValueError(f"printed must be a decimal numeral, got {printed!r}") from None
    if not d.is_finite():
        raise ValueError(f"printed must be a finite decimal numeral, got {printed!r}")
    return 0.5 * 10.0 ** d.as_tuple().exponent


@contract(samples=Array(1, min_size=2), level=Real(0, 1, low_open=True, high_open=True))
def single_run_interval(samples, level: float = 0.95) -> tuple[float, float]:
    """Central ``level`` interval (percentiles ``(1-level)/2`` and ``(1+level)/2``) of a single-run
    statistic over independent runs.

    A value the paper reports from one run (Figs. 1, 8, 11) lies in this interval when a run of our
    pipeline could plausibly have produced it (two-sided, 2.5% per tail at ``level = 0.95``).
    """
    a = (1.0 - level) / 2.0
    lo, hi = np.quantile(samples, [a, 1.0 - a])
    return float(lo), float(hi)


@contract(samples=Array(1), value=Real())
def percentile_of(samples, value: float) -> float:
    """Percentage of the runs below ``value`` (where a printed single-run value falls among ours)."""
    return float(100.0 * np.mean(samples < value))


@contract(a=Array(1, min_size=2), b=Array(1, min_size=2), n_boot=Integer(100, 1_000_000),
          level=Real(0, 1, low_open=True, high_open=True), rng=RandomState())
def paired_median_ci(a, b, *, n_boot: int = 4000, level: float = 0.95, rng=None) -> dict:
    r"""Paired comparison of two estimators scored on the same runs: ``d = a - b`` per run, its median
    and the bootstrap ``level`` interval of the median (``n_boot`` resamples of the runs).

    The claim "``b`` is better than ``a``" passes when the whole interval lies above 0; an interval
    containing 0 (indistinguishable) or below 0 (the opposite) fails it.  Also returns the fraction of
    runs in which ``b < a``.
    """
    if a.shape != b.shape:
        raise ValueError(f"a and b must be paired (same shape), got {a.shape} and {b.shape}")
    rng = check_random_state(rng)
    d = a - b
    idx = rng.integers(0, d.size, (n_boot, d.size))
    meds = np.median(d[idx], axis=1)
    lo, hi = np.quantile(meds, [(1.0 - level) / 2.0, (1.0 + level) / 2.0])
    return {"median": float(np.median(d)), "ci_low": float(lo), "ci_high": float(hi),
            "frac_b_better": float(np.mean(b < a))}


@contract(samples=Array(1, min_size=2), n_boot=Integer(100, 1_000_000), rng=RandomState())
def bootstrap_se_median(samples, *, n_boot: int = 1000, rng=None) -> float:
    """Bootstrap standard error of the median of ``samples`` (``n_boot`` resamples)."""
    rng = check_random_state(rng)
    idx = rng.integers(0, samples.size, (n_boot, samples.size))
    return float(np.std(np.median(samples[idx], axis=1), ddof=1))


@contract(samples_by_eps=Array(2), z=Real(0, None, low_open=True), n_boot=Integer(100, 1_000_000),
          rng=RandomState())
def monotone_rises(samples_by_eps, *, z: float = 2.0, n_boot: int = 1000, rng=None) -> dict:
    r"""Steps up of the median along increasing :math:`\varepsilon`, against the Monte Carlo noise.

    ``samples_by_eps`` is ``(n_eps, runs)``, ordered by increasing :math:`\varepsilon`.  For the claim
    "the estimation quality improves with :math:`\varepsilon`" (a distance that decreases), step
    ``j -> j+1`` contradicts it when the median rises by more than ``z`` standard errors of the
    difference, :math:`m_{j+1} - m_j > z\sqrt{se_j^2 + se_{j+1}^2}` (bootstrap standard errors).
    Returns the medians, the ``rises`` (:math:`m_{j+1} - m_j`) and the ``thresholds``.
    """
    rng = check_random_state(rng)
    meds = np.median(samples_by_eps, axis=1)
    ses = np.array([bootstrap_se_median(s, n_boot=n_boot, rng=rng) for s in samples_by_eps])
    return {"medians": meds, "rises": np.diff(meds), "thresholds": z * np.hypot(ses[:-1], ses[1:])}


@contract(samples=Array((2, 3), min_size=2))
def ratio_of_medians(samples) -> np.ndarray:
    """``max/min`` over estimators of their median distance: ``samples`` is ``(estimators, runs)`` for one
    setting or ``(estimators, settings, runs)``; returns one ratio per setting (``>= 1``; 1 = equal).

    The statistic of "comparable", "similar", "almost the same" (Secs. 7.4-7.6)."""
    meds = np.median(samples, axis=-1)
    if np.any(meds <= 0):
        raise ValueError("the medians must be positive to be compared by their ratio")
    return meds.max(axis=0) / meds.min(axis=0)


@contract(scores=Array(2))
def representative_run(scores) -> int:
    """Index of the run whose scores are all nearest their medians: ``scores`` is ``(runs, estimators)``;
    minimises ``max_j |percentile rank of scores[i, j] - 1/2|``.  For drawing one run of a figure that
    the paper shows for one run (Figs. 1 and 8) as a typical run rather than an arbitrary one."""
    n = scores.shape[0]
    pct = np.argsort(np.argsort(scores, axis=0), axis=0) / max(1, n - 1)
    return int(np.argmin(np.abs(pct - 0.5).max(axis=1)))


@contract(results=Instance(dict, example={1.0: {"IBU": np.ones(3)}}), estimators=Unchecked("names of estimators", ("IBU",)),
          z=Real(0, None, low_open=True), rng=RandomState())
def panel_summary(results, estimators=("IBU", "INV-N", "INV-P"), *, z: float = 2.0, rng=None) -> dict:
    r"""The numbers a panel of Figs. 9, 10 or 12 is graded on, from ``results[eps][estimator]`` (distances
    over the runs, ``eps`` increasing).

    Returns ``eps``; ``med[name]`` (median per :math:`\varepsilon`); ``inv`` (the better of the INV-N and
    INV-P medians); ``lower`` (the :math:`\varepsilon` of the lower half of the grid); ``ratio3`` (max/min of
    the three medians IBU, INV-N, INV-P, per :math:`\varepsilon`); ``rises`` and ``thresholds`` of
    :func:`monotone_rises` for every estimator in ``estimators``, concatenated.
    """
    rng = check_random_state(rng)
    eps = np.array(sorted(results))
    names = [m for m in ("IBU", "MLE", "INV-N", "INV-P", "noisy") if m in results[eps[0]]]
    med = {m: np.array([np.median(results[e][m]) if m in results[e] else np.nan for e in eps])
           for m in names}
    rises, thr = [], []
    for m in estimators:
        r = monotone_rises(np.stack([results[e][m] for e in eps]), z=z, rng=rng)
        rises.append(r["rises"])
        thr.append(r["thresholds"])
    return {"eps": eps, "med": med, "inv": np.minimum(med["INV-N"], med["INV-P"]),
            "lower": eps <= np.median(eps), "ratio3": ratio_of_medians(np.stack([np.stack([results[e][m] for e in eps])
                                                                              for m in ("IBU", "INV-N", "INV-P")])),
            "rises": np.concatenate(rises), "thresholds": np.concatenate(thr)}


@contract(runs=Instance(dict, example={"noisy": np.ones(3), "INV-N": np.ones(3), "INV-P": np.ones(3)}),
          paper=Instance(dict, example={"noisy": 1.0, "INV-N": 1.0, "INV-P": 1.0}))
def single_run_stats(runs, paper) -> dict[str, float]:
    """How a paper's single run compares with the distribution of our runs (Fig. 8): for each estimator
    the percentage of our runs below the printed value (``pct_<name>``) and the standard deviation of our
    runs in per cent of their median (``sd_<name>``); the correlation of INV-N and INV-P over the runs
    (``corr``); the percentage of runs at least as bad as the paper's for both (``both``); the percentage
    of runs in which INV-N is worse than the noisy distribution (``worse``).  Names are lower-cased with
    ``-`` removed (``invn``)."""
    key = lambda m: m.lower().replace("-", "")  # noqa: E731
    out = {}
    for m, v in runs.items():
        v = np.asarray(v, dtype=float)
        out[f"pct_{key(m)}"] = percentile_of(v, paper[m])
        out[f"sd_{key(m)}"] = float(100 * v.std() / np.median(v))
    n, p, q = (np.asarray(runs[m], dtype=float) for m in ("INV-N", "INV-P", "noisy"))
    out["corr"] = float(np.corrcoef(n, p)[0, 1])
    out["both"] = float(100 * np.mean((n >= paper["INV-N"]) & (p >= paper["INV-P"])))
    out["worse"] = float(100 * np.mean(n > q))
    return out


@contract(a=Array(1, min_size=2), b=Array(1, min_size=2), n_boot=Integer(100, 1_000_000),
          level=Real(0, 1, low_open=True, high_open=True), rng=RandomState())
def median_ratio_ci(a, b, *, n_boot: int = 4000, level: float = 0.95, rng=None) -> dict:
    """``max/min`` of the medians of two *independent* samples (two settings run on different reports), with
    a percentile bootstrap ``level`` interval (each sample resampled on its own).  The statistic of
    "similar" (Sec. 7.6), with its Monte Carlo uncertainty."""
    rng = check_random_state(rng)
    ma = np.median(a[rng.integers(0, a.size, (n_boot, a.size))], axis=1)
    mb = np.median(b[rng.integers(0, b.size, (n_boot, b.size))], axis=1)
    boot = np.maximum(ma, mb) / np.minimum(ma, mb)
    lo, hi = np.quantile(boot, [(1.0 - level) / 2.0, (1.0 + level) / 2.0])
    ratio = max(np.median(a), np.median(b)) / min(np.median(a), np.median(b))
    return {"ratio": float(ratio), "ci_low": float(lo), "ci_high": float(hi)}
