r"""Estimates with their uncertainty, for every Monte Carlo claim of the book.

A measured quantity is an :class:`Estimate`: a value, a confidence interval at a level, the
standard error where meaningful, the number of runs and the method.  An exact number is an
estimate too (:func:`exact`: a degenerate interval), so a criterion treats both alike.

Estimators (runs along axis 0; the other axes are cells, one interval per cell, simultaneous over
the cells with ``simultaneous=True``):

==============================  =================================================================
:func:`mean`                    mean over runs: Hall's skewness-corrected t (default), Student's t,
                                studentized bootstrap
:func:`median`                  median over runs: interpolated order statistics (distribution-free)
:func:`difference`              difference of means, paired (mean of differences) or Welch
:func:`ratio`                   ratio of means: Fieller (paired or Welch), studentized bootstrap
:func:`proportion`              Wilson, Clopper-Pearson
:func:`kendall_tau`             Kendall's tau-b with a tie tolerance; jackknife or bootstrap over items
:func:`bootstrap`               any statistic of one or more samples: BCa or percentile
:func:`from_se`                 value +- z se, for a standard error obtained otherwise
:func:`difference_of`           difference of two independent estimates
:func:`subsample_se`            standard error from random half samples (delete-d jackknife)
:func:`subset_mean`             mean of a statistic over random n-subsets of N users, for n users
:func:`half_sample_estimate`    estimates with their half-sample standard errors and t intervals
:func:`join_estimates`          several estimates side by side, joint by Bonferroni
:func:`moderated_means`         means of many cells with few runs each: Student intervals on
                                empirical-Bayes moderated variances (Smyth 2004)
==============================  =================================================================

Every interval is validated by simulation in ``tests/test_stats.py``: a 95 % interval covers the
truth 93-97 % of the time at 3, 5, 10, 20, 50 and 100 runs on normal and lognormal runs, where the
method allows that many runs; where a method under-covers with few runs (the bootstrap below 10
runs, a median's interval below 6) it refuses, and where it can be repaired (Hall's interval below
20 runs) it widens, and says so in the estimate's ``note``.

Deciding a region (:func:`decide`): the interval inside the region *holds*, entirely outside it is
*reversed*, across an edge is *undecided*; :func:`runs_to_decide` says about how many runs would
decide, and :func:`outcome_probability` gives the probability of each outcome at a hypothetical
true value (the power of a criterion at its falsifier).

Recording a Monte Carlo claim
-----------------------------
The claim is declared once in ``ldpnb/papers/<paper>/claims.py`` with its region, the tolerance
that makes the region wider than a point, the measured quantity's ``domain``, the ``effect`` at
which the claim is materially false, and for an order its ``tie`` tolerance::

    Claim("T19M", "similar utility at the MLE (ratio of median EMDs)", source="derived",
          kind="range", lower=None, upper=1.5, one_sided=True, domain=(0, None), effect=0.1,
          where="Sec. 7.6", note="...")
    Claim("E4b", "OLH is at least as leaky as RR", source="extension", kind="order",
          relation="RR <= OLH", tie=1e-9, where="Sec. 6", note="...")

The chapter measures with an estimator of this module and records the estimate::

    >>> import numpy as np
    >>> from ldpnb.stats import bootstrap, difference
    >>> rng = np.random.default_rng(1)
    >>> a, b = rng.lognormal(0.5, 0.4, 100), rng.lognormal(0.0, 0.4, 100)
    >>> est = bootstrap(lambda a, b, axis: np.median(a, axis) / np.median(b, axis), (a, b), rng=2)
    >>> est.method, est.n_runs
    ('bootstrap-bca', 100)

    report.range("T19M", est)                 # holds, reversed (fail) or undecided
    report.order("E4b", {"RR": est_rr, "OLH": est_olh})      # independent runs
    report.order("E4b", {"RR": est_rr, "OLH": est_olh},
                 differences={"OLH - RR": difference(olh_runs, rr_runs, paired=True)})

The row then shows the estimate and its interval, the outcome (``undecided`` is never a pass, and
the row says about how many runs would decide), the probability that the criterion passes at its
falsifier (flagged ``weak test`` above 0.2), and any recorded change of the criterion (flagged
``criterion changed``, both statuses shown).  See ``CONTRIBUTING.md``, "Monte Carlo claims".
"""

from ldpnb.stats._decide import OUTCOMES, decide, outcome_probability, runs_to_decide
from ldpnb.stats._estimate import METHODS, Estimate, bonferroni, exact, is_estimate_dict
from ldpnb.stats._intervals import (
    MIN_BOOTSTRAP_RUNS,
    bootstrap,
    difference,
    difference_of,
    from_se,
    half_sample_estimate,
    join_estimates,
    mean,
    median,
    proportion,
    ratio,
    subsample_se,
    subset_mean,
)
from ldpnb.stats._moderated import MIN_PRIOR_CELLS, moderated_means, prior_variance
from ldpnb.stats._rank import kendall_tau

__all__ = [
    "Estimate",
    "exact",
    "bonferroni",
    "is_estimate_dict",
    "METHODS",
    "MIN_BOOTSTRAP_RUNS",
    "mean",
    "median",
    "difference",
    "ratio",
    "proportion",
    "bootstrap",
    "from_se",
    "difference_of",
    "subsample_se",
    "subset_mean",
    "half_sample_estimate",
    "join_estimates",
    "kendall_tau",
    "moderated_means",
    "prior_variance",
    "MIN_PRIOR_CELLS",
    "OUTCOMES",
    "decide",
    "outcome_probability",
    "runs_to_decide",
]
