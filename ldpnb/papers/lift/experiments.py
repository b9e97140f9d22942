r"""Experiments of the lift chapter: the sweeps behind Figs. 2-8 of Zarrabian, Ding and Sadeghi, and
the estimates (:mod:`ldpnb.stats`) that grade them.

For each random joint ``P_SX`` (common random numbers: the same matrices for every curve and every
epsilon), each LDP budget ``epsilon`` of the grid and each curve, a mechanism is built and its utility
(NMI), its leakages (nats), whether it exceeds its budget and (for the per-instance sweep) the CPU
time of its construction are recorded. The figures plot means over distributions.

Two sweeps, both through :func:`ldpnb.parallel.sweep` (workers from ``$LDPNB_N_JOBS``):

* :func:`watchdog_sweep`: complete and subset merging (and their repairs) for all distributions at
  once with :func:`ldpnb.mechanisms.watchdog.merge_labels` (no timing), tasks = epsilon values;
* :func:`put_sweep`: any curve, one mechanism at a time with its construction time (AORR, SRR and
  the subset merging of Fig. 5), tasks = distributions.

The estimates (each an :class:`ldpnb.stats.Estimate`; the distributions are the runs):

* :func:`order_estimate`: "curve A is above curve B" from paired mean differences per epsilon,
  summarised by the smallest difference and the difference reached at half the points;
* :func:`budget_estimate`: mean excess of a leakage over its budget per point;
* :func:`crossover_estimate`: where one mean curve overtakes another, by the BCa bootstrap;
* :func:`timing_verdicts`, :func:`trend_estimate`, :func:`worst_median_ratio`,
  :func:`growth_estimate`: timings, growth with a size, vertex counts.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from functools import partial
from typing import Any, Sequence

import numpy as np
import pandas as pd

from ldpnb.contracts import (
    DENSE_DOMAIN,
    EPSILON,
    MAX_ENTRIES,
    NONNEGATIVE,
    SAMPLE_SIZE,
    SEED,
    Array,
    Boolean,
    Callable_,
    Instance,
    Integer,
    NonnegativeMatrix,
    OneOf,
    Optional,
    Probability,
    Real,
    contract,
)
from ldpnb.measures.information import entropy, mutual_information
from ldpnb.measures.lift import ALIP, LDPwrtS, LiftBased, LiftMeasurePrivacy, _measure, alip_budgets, random_joint
from ldpnb.mechanisms.orr import (
    alip_column_polytope,
    optimal_random_response,
    polytope_vertices,
    subset_random_response,
)
from ldpnb.mechanisms.watchdog import (
    REPAIRS,
    complete_merging,
    merge_labels,
    merging_mi,
    merging_performance,
    subset_merging,
)
from ldpnb.papers.lift.theory import vertex_support
from ldpnb.parallel import sweep
from ldpnb.stats import MIN_BOOTSTRAP_RUNS, Estimate, bootstrap, difference, mean, median
from ldpnb.utils import check_random_state

__all__ = [
    "FULL_GRID",
    "FIG6_GRID",
    "LEVEL",
    "Curve",
    "random_joints",
    "evaluate_curve",
    "put_sweep",
    "watchdog_sweep",
    "summarise",
    "curve_runs",
    "paired_runs",
    "order_estimate",
    "instance_min",
    "leakage_excess",
    "budget_estimate",
    "extreme",
    "bootstrap_estimate",
    "crossover",
    "crossover_estimate",
    "paired_timings",
    "timing_verdicts",
    "aorr_growth",
    "vertex_counts",
    "growth_laws",
    "growth_estimate",
    "trend_estimate",
    "worst_median_ratio",
    "SIZES",
]

#: The paper's grid eps_LDP in {0.25, 0.5, ..., 8} (Sec. III-A3; Figs. 2-5, 7, 8).
FULL_GRID = tuple(round(0.25 * i, 2) for i in range(1, 33))
#: Fig. 6's grid eps in {1, 1.25, ..., 8} (Sec. V-B).
FIG6_GRID = tuple(round(0.25 * i, 2) for i in range(4, 33))
#: Level of the intervals simultaneous over the points of an "above" or a budget row.
LEVEL = 0.99

_METHODS = ("cm", "sm", "aorr", "srr")
_DF = Instance(pd.DataFrame, example=pd.DataFrame())
_STR = Instance(str, example="nmi")
_MAP = Instance(dict, example={})
_LIST = Instance(list, tuple, example=[])
_SIDES = Instance(tuple, list, example=("min_leak", "max_leak"))  #: leakage columns of a results table
_MASK = Optional(Instance(pd.Series, example=pd.Series(dtype=bool)))  #: instances selected, by (dist, eps)
_EST = Instance(Estimate, example=Estimate(0.0, -1.0, 1.0, method="t", n_runs=10))
_JOINTS = Array(3, low=0)
_GRID = Array(1, low=1e-12)
_METHOD = OneOf("auto", "qhull", "cdd", "bruteforce")
_LAM = Probability(open_left=True, open_right=True)
_LEVEL = Probability(open_left=True, open_right=True)
_NBOOT = Integer(200, 100_000)
#: Alphabet sizes of an enumeration of AORR's polytope (eq. 21): at most 64 symbols (the count grows as
#: |X|^|S|, V-A.bound), and at most 32 secrets.
_SIZES = Array(1, low=2, high=64, integer=True)
_SMALL = Integer(2, 32)

#: The clock of every timing here: CPU time of the process (one thread with OMP_NUM_THREADS=1), which a
#: busy machine does not inflate the way it inflates wall time.
_clock = time.process_time
_PRIVACY = ("alip", "ldp", "l1", "chi2", "alpha", "l1-only", "chi2-only", "alpha-only")


def _check_entries(n: int, what: str) -> None:
    if n > MAX_ENTRIES:
        raise ValueError(f"{what} = {n} exceeds {MAX_ENTRIES} entries")


@dataclass(frozen=True)
class Curve:
    """One curve of a figure.

    method : ``"cm"`` (watchdog, complete merging), ``"sm"`` (subset merging, Algorithm 1),
        ``"aorr"`` (asymmetric optimal random response, eq. 12), ``"srr"`` (Algorithm 2).
    privacy : ``"alip"`` (budgets from ``lam``), ``"ldp"`` (w.r.t. S, budget epsilon), ``"l1"``,
        ``"chi2"``, ``"alpha"`` (lift-based + lift-inverse measures, eq. 33, budgets from ``lam``), or
        ``"l1-only"``, ``"chi2-only"``, ``"alpha-only"`` (the lift-based bound alone, Sec. VI).
    risk : ALIP risk score of Algorithm 1, ``"inverse"`` (Lambda + 1/Psi) or ``"printed"``.
    outer_loop : Algorithm 1 line 4, ``"nonempty"`` or ``"printed"``.
    repair : ``None`` (the paper's watchdog), ``"least_risky"`` or ``"greedy"`` (the extension of
        :mod:`ldpnb.mechanisms.watchdog`).
    """

    label: str
    method: str
    privacy: str = "alip"
    lam: float | None = 0.5
    alpha: float | None = None
    risk: str = "inverse"
    outer_loop: str = "nonempty"
    repair: str | None = None

    def __post_init__(self):
        if self.method not in _METHODS:
            raise ValueError(f"method must be one of {_METHODS}, got {self.method!r}")
        if self.privacy not in _PRIVACY:
            raise ValueError(f"privacy must be one of {_PRIVACY}, got {self.privacy!r}")
        if self.method in ("aorr", "srr") and self.privacy != "alip":
            raise ValueError("AORR and SRR are defined for ALIP only")
        if self.privacy != "ldp" and not (self.lam is not None and 0 < self.lam < 1):
            raise ValueError(f"lam must lie in (0, 1) for {self.privacy}, got {self.lam}")

    @contract(epsilon=EPSILON)
    def criterion(self, epsilon: float):
        """The privacy criterion of the curve at LDP budget ``epsilon``."""
        if self.privacy == "ldp":
            return LDPwrtS(epsilon)
        el, eu = alip_budgets(epsilon, self.lam)
        if self.privacy == "alip":
            return ALIP(el, eu, risk=self.risk)
        if self.privacy.endswith("-only"):
            return LiftBased(self.privacy[:-5], eu, alpha=self.alpha)
        return LiftMeasurePrivacy(self.privacy, el, eu, alpha=self.alpha)

    @contract(epsilon=EPSILON)
    def budgets(self, epsilon: float) -> tuple[float, float]:
        """``(eps_l, eps_u)`` (the LDP curve: ``(eps, eps)`` for the plots' reference, unused)."""
        return (epsilon, epsilon) if self.lam is None else alip_budgets(epsilon, self.lam)


#: A curve's fields (the rules between them, AORR and SRR for ALIP only, a budget split for every
#: criterion but LDP, are checked in Curve.__post_init__).
Curve.__init__ = contract(
    label=Instance(str, example="x"),
    method=OneOf(*_METHODS),
    privacy=OneOf(*_PRIVACY),
    lam=Optional(Real(0.0, 1.0, low_open=True, high_open=True)),
    alpha=Optional(Real(1.0, None, low_open=True)),
    risk=OneOf("inverse", "printed"),
    outer_loop=OneOf("nonempty", "printed"),
    repair=OneOf(*REPAIRS),
)(Curve.__init__)

_CURVE = Instance(Curve, example=Curve("x", "cm"))
_CURVES = Instance(list, tuple, example=[Curve("x", "cm")])


@contract(n_dist=SAMPLE_SIZE, n_s=DENSE_DOMAIN, n_x=DENSE_DOMAIN, rng=SEED)
def random_joints(n_dist: int, n_s: int, n_x: int, *, rng: Any = None) -> np.ndarray:
    """``n_dist`` iid random ``P_SX`` (iid U(0,1) cells, normalised; Sec. III): ``(n_dist, n_s, n_x)``
    (at most ``MAX_ENTRIES`` cells, refused before anything is drawn).

    Examples
    --------
    >>> random_joints(3, 2, 4, rng=0).shape
    (3, 2, 4)
    """
    _check_entries(n_dist * n_s * n_x, "n_dist * n_s * n_x")
    return random_joint(n_s, n_x, rng=check_random_state(rng), size=n_dist)


def _leaks(p_sy: np.ndarray) -> tuple[float, float, float]:
    p_s, p_y = p_sy.sum(axis=1), p_sy.sum(axis=0)
    keep = p_y > 0
    with np.errstate(divide="ignore"):
        logL = np.log(p_sy[:, keep]) - np.log(p_s)[:, None] - np.log(p_y[keep])[None, :]
    return float(logL.max()), float(-logL.min()), float((logL.max(axis=0) - logL.min(axis=0)).max())


def _violates(curve: Curve, epsilon: float, mx, mn, ld):
    """Leakage above the curve's (eps_l, eps_u) budgets (LDP curve: Gamma-leakage above eps), rtol 1e-9."""
    if curve.privacy == "ldp":
        return ld > epsilon * (1 + 1e-9)
    el, eu = alip_budgets(epsilon, curve.lam)
    return (mx > eu * (1 + 1e-9)) | (mn > el * (1 + 1e-9))


@contract(p_sx=NonnegativeMatrix(), epsilon=EPSILON, curve=_CURVE, method=_METHOD)
def evaluate_curve(p_sx: np.ndarray, epsilon: float, curve: Curve, *, method: str = "auto") -> dict:
    """Build ``curve``'s mechanism for ``P_SX`` at LDP budget ``epsilon`` and measure it.

    Returns a dict: ``nmi``, ``max_leak`` (log max Lambda), ``min_leak`` (|log min Psi|),
    ``ldp_leak`` (nats), ``violates`` (leakage above the budget, relative tolerance 1e-9),
    ``time`` (s, construction only), ``n_high`` (|X_H|), ``n_blocks``, ``largest_block``,
    ``n_vertices`` (AORR / SRR), ``fallback`` (SRR: merged X_H not ALIP, subset merging returned),
    ``n_partition`` (SRR: blocks of Algorithm 1's partition; ``n_partition - n_blocks`` merges by
    Algorithm 2's while loop).
    """
    p_x = p_sx.sum(axis=0)
    h_x = entropy(p_x, unit="nats")
    extra = {
        "n_high": np.nan,
        "n_blocks": np.nan,
        "largest_block": np.nan,
        "n_vertices": np.nan,
        "fallback": False,
        "n_partition": np.nan,
    }
    t0 = _clock()
    if curve.method in ("cm", "sm"):
        crit = curve.criterion(epsilon)
        if curve.method == "cm":
            mm = complete_merging(p_sx, crit, repair=curve.repair)
        else:
            mm = subset_merging(p_sx, crit, outer_loop=curve.outer_loop, repair=curve.repair)
        elapsed = _clock() - t0
        p_sy = mm.output_joint(p_sx)
        util = merging_mi(p_x, mm.groups, unit="nats") / h_x
        extra.update(
            n_high=len(mm.high) - len(mm.absorbed),
            n_merged=len(mm.high),
            n_blocks=len(mm.groups),
            largest_block=max((len(g) for g in mm.groups), default=0),
        )
    else:
        el, eu = alip_budgets(epsilon, curve.lam)
        if curve.method == "aorr":
            r = optimal_random_response(p_sx, el, eu, method=method)
            extra.update(n_vertices=r.n_vertices)
        else:
            r = subset_random_response(p_sx, el, eu, method=method, risk=curve.risk)
            extra.update(
                n_vertices=r.n_vertices,
                fallback=r.fallback,
                largest_block=r.largest_block,
                n_blocks=len(r.blocks),
                n_high=sum(len(b) for b in r.partition),
                n_partition=len(r.partition),
            )
        elapsed = _clock() - t0
        C = r.channel
        p_sy = p_sx @ C
        util = mutual_information(p_x, C, unit="nats") / h_x
    mx, mn, ld = _leaks(p_sy)
    keep = p_sy.sum(axis=0) > 0
    L, p_s = p_sy[:, keep] / np.outer(p_sy.sum(axis=1), p_sy.sum(axis=0)[keep]), p_sy.sum(axis=1)
    with np.errstate(divide="ignore"):
        lm = {
            f"{k}{'_inv' if inv else ''}": float(_measure(L, p_s, k, inv, None).max())
            for k in ("l1", "chi2")
            for inv in (False, True)
        }
    return {
        "nmi": float(util),
        "max_leak": mx,
        "min_leak": mn,
        "ldp_leak": ld,
        "violates": bool(_violates(curve, epsilon, mx, mn, ld)),
        "time": elapsed,
        **extra,
        **lm,
    }


def _row(c: Curve, eps: float, dist: int) -> dict:
    return {
        "curve": c.label,
        "method": c.method,
        "privacy": c.privacy,
        "lam": c.lam,
        "alpha": c.alpha,
        "eps": float(eps),
        "dist": dist,
    }


def _put_task(task, rng):
    dist, p_sx, eps_grid, curves, method = task
    return [
        {**_row(c, eps, dist), **evaluate_curve(p_sx, float(eps), c, method=method)} for eps in eps_grid for c in curves
    ]


def _check_sweep(joints, eps_grid):
    joints = np.asarray(joints, dtype=float)
    if joints.ndim != 3:
        raise ValueError("joints must have shape (n_dist, n_s, n_x)")
    eps_grid = [float(e) for e in eps_grid]
    if not eps_grid or min(eps_grid) <= 0:
        raise ValueError("eps_grid must be a non-empty list of positive budgets")
    return joints, eps_grid


@contract(joints=_JOINTS, eps_grid=_GRID, curves=_CURVES, seed=SEED, method=_METHOD)
def put_sweep(
    joints: np.ndarray, eps_grid: Sequence[float], curves: Sequence[Curve], *, seed: Any, method: str = "auto"
):
    """Privacy-utility sweep, one mechanism at a time: one row per (distribution, epsilon, curve).

    Distributions are the tasks of :func:`ldpnb.parallel.sweep` (workers from
    ``$LDPNB_N_JOBS``; the mechanisms are deterministic given ``P_SX``, so the results do not depend
    on them, only the times do). Returns a DataFrame with columns ``curve, method, privacy, lam,
    alpha, eps, dist, nmi, max_leak, min_leak, ldp_leak, violates, time, n_high, n_blocks,
    largest_block, n_vertices, fallback``.
    """
    joints, eps_grid = _check_sweep(joints, eps_grid)
    tasks = [(i, joints[i], eps_grid, tuple(curves), method) for i in range(len(joints))]
    return pd.DataFrame([r for rows in sweep(_put_task, tasks, seed=seed) for r in rows])


def _wd_task(task, rng):
    eps, joints, curves = task
    L, ps = _lifts_batch(joints)
    parts = []
    for c in curves:
        if c.method not in ("cm", "sm"):
            raise ValueError(f"watchdog_sweep takes merging curves only, got {c.method!r}")
        crit = c.criterion(eps)
        lab = merge_labels(
            joints, crit, method="complete" if c.method == "cm" else "subset", outer_loop=c.outer_loop, repair=c.repair
        )
        perf = merging_performance(joints, lab)
        sizes = (lab[:, :, None] == np.arange(joints.shape[2])[None, None, :]).sum(axis=1)
        n = len(joints)
        parts.append(
            pd.DataFrame(
                {
                    "curve": c.label,
                    "method": c.method,
                    "privacy": c.privacy,
                    "lam": c.lam,
                    "alpha": c.alpha,
                    "eps": float(eps),
                    "dist": np.arange(n),
                    "nmi": perf["nmi"],
                    "max_leak": perf["max_leak"],
                    "min_leak": perf["min_leak"],
                    "ldp_leak": perf["ldp_leak"],
                    "violates": _violates(c, eps, perf["max_leak"], perf["min_leak"], perf["ldp_leak"]),
                    "time": np.nan,
                    "n_high": crit.violated(L, ps).sum(axis=1),
                    "n_blocks": perf["n_blocks"],
                    "n_merged": perf["n_merged"],
                    "largest_block": sizes.max(axis=1),
                    "mean_block": np.divide(
                        perf["n_merged"], perf["n_blocks"], out=np.zeros(n), where=np.asarray(perf["n_blocks"]) > 0
                    ),
                    "n_vertices": np.nan,
                    "fallback": False,
                }
            )
        )
    return parts


def _lifts_batch(P):
    ps = P.sum(axis=2)
    return P / (ps[:, :, None] * P.sum(axis=1)[:, None, :]), ps


@contract(joints=_JOINTS, eps_grid=_GRID, curves=_CURVES, seed=SEED)
def watchdog_sweep(joints: np.ndarray, eps_grid: Sequence[float], curves: Sequence[Curve], *, seed: Any):
    """The watchdog curves (complete / subset merging, any criterion, optional repair) of all
    distributions at once, one task per epsilon of the grid (:func:`ldpnb.parallel.sweep`).

    Same rows as :func:`put_sweep` (``time`` is NaN; ``n_merged`` counts the merged symbols, which
    exceed ``n_high`` after a repair; ``mean_block`` is ``n_merged / n_blocks``, 0 without blocks).
    """
    joints, eps_grid = _check_sweep(joints, eps_grid)
    tasks = [(e, joints, tuple(curves)) for e in eps_grid]
    return pd.concat([p for parts in sweep(_wd_task, tasks, seed=seed) for p in parts], ignore_index=True)


# --------------------------------------------------------------------------------------------
# means and the runs behind them
# --------------------------------------------------------------------------------------------

_QS = ("nmi", "max_leak", "min_leak", "ldp_leak")


@contract(df=_DF)
def summarise(df):
    """Means over distributions per (curve, eps) of ``nmi``, ``max_leak``, ``min_leak``, ``ldp_leak``,
    ``violates`` (rate), ``time``, ... with, for the first four, Hall's 95 % interval of the mean
    (:func:`ldpnb.stats.mean`, pointwise) as ``<q>_lo`` and ``<q>_hi``, and ``n``.

    Examples
    --------
    >>> d = pd.DataFrame({"curve": "a", "eps": 1.0, "dist": range(4), "nmi": [0.1, 0.2, 0.3, 0.4],
    ...                   "max_leak": 0.0, "min_leak": 0.0, "ldp_leak": 0.0})
    >>> s = summarise(d)
    >>> float(s.nmi.iloc[0]), bool(s.nmi_lo.iloc[0] < 0.25 < s.nmi_hi.iloc[0])
    (0.25, True)
    """
    g = df.groupby(["curve", "eps"], sort=False)
    cols = [
        c
        for c in (
            "nmi",
            "max_leak",
            "min_leak",
            "ldp_leak",
            "violates",
            "time",
            "n_vertices",
            "largest_block",
            "fallback",
            "n_high",
            "n_merged",
        )
        if c in df
    ]
    m = g[cols].mean()
    m["n"] = g["nmi"].count()
    for q in (q for q in _QS if q in df):
        lo, hi = [], []
        for curve, d in df.groupby("curve", sort=False):
            runs = d.pivot(index="dist", columns="eps", values=q)
            est = mean(runs.to_numpy()) if len(runs) >= 2 else None
            for j, eps in enumerate(runs.columns):
                lo.append(((curve, eps), np.nan if est is None else float(np.asarray(est.low)[j])))
                hi.append(((curve, eps), np.nan if est is None else float(np.asarray(est.high)[j])))
        m[f"{q}_lo"] = pd.Series(dict(lo)).reindex(m.index).to_numpy()
        m[f"{q}_hi"] = pd.Series(dict(hi)).reindex(m.index).to_numpy()
    return m.reset_index()


@contract(df=_DF, curve=_STR, q=_STR, eps=Optional(Array(1, low=0)))
def curve_runs(df, curve: str, *, q: str = "nmi", eps=None):
    """The values of ``q`` along ``curve``: a DataFrame with one row per distribution (the runs) and
    one column per epsilon (all of the curve's, or those of ``eps``).

    Examples
    --------
    >>> d = pd.DataFrame({"curve": "a", "eps": [1.0, 2.0] * 2, "dist": [0, 0, 1, 1], "nmi": [0.1, 0.2, 0.3, 0.4]})
    >>> curve_runs(d, "a").to_numpy().tolist()
    [[0.1, 0.2], [0.3, 0.4]]
    """
    d = df[df["curve"] == curve]
    if d.empty:
        raise ValueError(f"no curve {curve!r} in the data")
    runs = d.pivot(index="dist", columns="eps", values=q).sort_index(axis=0).sort_index(axis=1)
    if eps is not None:
        runs = runs.loc[:, np.isin(runs.columns.to_numpy(float), np.asarray(eps, dtype=float))]
    return runs


# --------------------------------------------------------------------------------------------
# "curve A is above curve B": paired differences per epsilon
# --------------------------------------------------------------------------------------------


@contract(
    df=_DF,
    hi=_STR,
    lo=_STR,
    q=_STR,
    eps_min=NONNEGATIVE,
    eps_max=Real(0, None, finite=False),
    eps_in=Optional(Array(1, low=0)),
    cap=Optional(Real(0, 1)),
)
def paired_runs(
    df,
    hi: str,
    lo: str,
    *,
    q: str = "nmi",
    eps_min: float = 0.0,
    eps_max: float = np.inf,
    eps_in=None,
    cap: float | None = 0.999,
):
    """The runs of curves ``hi`` and ``lo`` at the epsilon values where they are compared: two
    DataFrames (rows: the distributions common to both, columns: epsilon).

    Compared: ``eps_min <= eps <= eps_max`` (and in ``eps_in`` when given), except where both mean NMIs
    are at least ``cap`` (saturated; ``q = "nmi"`` only) and where both curves agree on every
    distribution (nothing to compare).

    Examples
    --------
    >>> d = pd.DataFrame({"curve": ["a", "b"] * 4, "eps": [1.0, 1.0, 2.0, 2.0] * 2, "dist": [0] * 4 + [1] * 4,
    ...                   "nmi": [0.5, 0.4, 0.7, 0.7, 0.6, 0.4, 0.8, 0.8]})
    >>> a, b = paired_runs(d, "a", "b")
    >>> a.columns.tolist()            # at eps = 2 the curves agree on every distribution
    [1.0]
    """
    a = curve_runs(df, hi, q=q)
    b = curve_runs(df, lo, q=q)
    a, b = a.align(b, join="inner")
    e = a.columns.to_numpy(float)
    keep = (e >= eps_min) & (e <= eps_max)
    if eps_in is not None:
        keep &= np.isin(e, np.asarray(eps_in, dtype=float))
    if cap is not None and q == "nmi":
        keep &= (a.mean().to_numpy() < cap) | (b.mean().to_numpy() < cap)
    keep &= ~(a.to_numpy() == b.to_numpy()).all(axis=0)
    return a.loc[:, keep], b.loc[:, keep]


def _comparison(comp) -> tuple[str, str, dict]:
    if not isinstance(comp, (list, tuple)) or len(comp) not in (2, 3):
        raise ValueError(f"a comparison is (hi, lo) or (hi, lo, options), got {comp!r}")
    return comp[0], comp[1], dict(comp[2]) if len(comp) == 3 else {}


def _half(v: np.ndarray) -> int:
    """Index into ``v`` (sorted ascending) of the value reached by at least half the points: the
    ceil(m/2)-th largest."""
    m = v.size
    return m - math.ceil(m / 2)


def _cell(values, lows, highs, ses) -> tuple[float, float, float, float]:
    return float(values), float(lows), float(highs), float(ses)


@contract(df=_DF, groups=_LIST, level=_LEVEL)
def order_estimate(df, groups, *, level: float = LEVEL) -> tuple[Estimate, dict]:
    r"""Curve ``hi`` is above curve ``lo``, for several comparisons at once: an estimate with two
    cells per group (one for a non-strict group).

    ``groups``: a sequence of ``(comparisons, tie, strict)``; a comparison is ``(hi, lo)`` or ``(hi,
    lo, options)`` with the options of :func:`paired_runs`. For every compared epsilon of every
    comparison the paired mean difference :math:`d = E[q_{hi} - q_{lo}]` over the distributions is
    estimated with Hall's interval (:func:`ldpnb.stats.difference`, ``paired=True``), the intervals
    simultaneous over all the row's differences (Bonferroni, ``level``). Per group the cells are

    * the smallest difference :math:`\min_{c,\varepsilon} d`, interval :math:`[\min l, \min h]`
      ("A is nowhere below B" holds when its lower end is at least ``-tie``);
    * when ``strict``, the difference reached at half the points, :math:`\min_c d_c^{(k_c)}`, with
      :math:`d_c^{(k)}` the :math:`k`-th largest difference of comparison :math:`c` and
      :math:`k_c = \lceil m_c/2 \rceil` of its :math:`m_c` points, interval :math:`[\min_c
      l_c^{(k_c)}, \min_c h_c^{(k_c)}]` ("A is above B by more than the tie at at least half of each
      comparison's points" holds when its lower end exceeds ``tie``).

    Both statistics are non-decreasing in every difference, so their intervals hold jointly with the
    differences'. Returns the estimate (``se``: that of the difference attaining each cell) and the
    counts ``points``, ``above`` (lower end above the tie), ``below`` (upper end below minus the
    tie), ``undecided`` and ``per_comparison`` (the same per comparison).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> rows = [{"curve": c, "eps": e, "dist": i, "nmi": rng.normal(0.5 + (0.1 if c == "a" else 0), 0.05)}
    ...         for c in "ab" for e in (1.0, 2.0) for i in range(50)]
    >>> est, info = order_estimate(pd.DataFrame(rows), [([("a", "b")], 0.001, True)])
    >>> bool(est.low[0] > -0.001 and est.low[1] > 0.001), info["above"]
    (True, 2)
    """
    parts = []
    for g, grp in enumerate(groups):
        if not isinstance(grp, (list, tuple)) or len(grp) != 3:
            raise ValueError(f"a group is (comparisons, tie, strict), got {grp!r}")
        comps, tie, strict = grp
        for comp in comps:
            hi, lo, opts = _comparison(comp)
            a, b = paired_runs(df, hi, lo, **opts)
            parts.append((g, f"{hi} - {lo}" + (f" ({opts['q']})" if "q" in opts else ""), a, b, float(tie)))
    n = min(len(a) for _, _, a, _, _ in parts) if parts else 0
    cols = [a.shape[1] for _, _, a, _, _ in parts]
    if n < 2 or sum(cols) == 0:
        nan = [np.nan] * sum(1 + bool(strict) for _, _, strict in groups)
        return Estimate(
            nan, nan, nan, level=level, n_runs=max(n, 1), method="hall", simultaneous=True, note="nothing to compare"
        ), {"points": 0, "above": 0, "below": 0, "undecided": 0, "per_comparison": {}, "lowest": None}
    A = np.concatenate([a.to_numpy()[:n] for _, _, a, _, _ in parts], axis=1)
    B = np.concatenate([b.to_numpy()[:n] for _, _, _, b, _ in parts], axis=1)
    d = difference(A, B, paired=True, level=level, simultaneous=True)
    v, lo, hi, se = (np.asarray(x, dtype=float) for x in (d.value, d.low, d.high, d.se))
    which = np.repeat(np.arange(len(parts)), cols)
    ties = np.repeat([t for *_, t in parts], cols)
    cells = []
    for g, (_, _, strict) in enumerate(groups):
        idx = np.flatnonzero(np.isin(which, [k for k, p in enumerate(parts) if p[0] == g]))
        if idx.size == 0:
            cells += [(np.nan,) * 4] * (1 + bool(strict))
            continue
        i = idx[np.argmin(v[idx])]
        cells.append(_cell(v[i], lo[idx].min(), hi[idx].min(), se[i]))
        if strict:
            half = []
            for k, p in enumerate(parts):
                j = np.flatnonzero(which == k)
                if p[0] != g or j.size == 0:
                    continue
                r = _half(j)
                order = j[np.argsort(v[j])]
                half.append((v[order[r]], np.sort(lo[j])[r], np.sort(hi[j])[r], se[order[r]]))
            h = np.array(half)
            cells.append(_cell(h[:, 0].min(), h[:, 1].min(), h[:, 2].min(), h[np.argmin(h[:, 0]), 3]))
    c = np.array(cells, dtype=float)
    per = {}
    for k, (_, label, *_rest) in enumerate(parts):
        j = which == k
        per[label] = {
            "points": int(j.sum()),
            "above": int(np.sum(lo[j] > ties[j])),
            "below": int(np.sum(hi[j] < -ties[j])),
        }
    info = {
        "points": int(v.size),
        "above": int(np.sum(lo > ties)),
        "below": int(np.sum(hi < -ties)),
        "per_comparison": per,
    }
    info["undecided"] = info["points"] - info["above"] - info["below"]
    labels = [(p[1], col) for p in parts for col in p[2].columns]
    info["lowest"] = labels[int(np.argmin(lo))]  # the comparison and column of the lowest lower end
    return Estimate(
        c[:, 0],
        c[:, 1],
        c[:, 2],
        level=level,
        se=c[:, 3],
        n_runs=n,
        method="hall",
        simultaneous=True,
        note=f"smallest / half-point summaries of {v.size} paired differences, intervals simultaneous over them",
    ), info


@contract(df=_DF, hi=_STR, lo=_STR, q=_STR, mask=_MASK)
def instance_min(df, hi: str, lo: str, *, q: str = "nmi", mask=None) -> tuple[float, int]:
    """The smallest difference ``q(hi) - q(lo)`` over the instances (distribution, epsilon) of both
    curves, and their number (``mask``: an optional boolean Series indexed by ``(dist, eps)``
    selecting the instances).

    Examples
    --------
    >>> d = pd.DataFrame({"curve": ["a", "b", "a", "b"], "eps": 1.0, "dist": [0, 0, 1, 1], "nmi": [0.5, 0.4, 0.6, 0.6]})
    >>> instance_min(d, "a", "b")
    (0.0, 2)
    """
    a = df[df["curve"] == hi].set_index(["dist", "eps"])[q]
    b = df[df["curve"] == lo].set_index(["dist", "eps"])[q]
    d = (a - b).dropna()
    if mask is not None:
        d = d[mask.reindex(d.index).fillna(False).astype(bool)]
    return (float(d.min()) if d.size else np.nan), int(d.size)


# --------------------------------------------------------------------------------------------
# "the privacy constraints are satisfied": excess over the budget per point
# --------------------------------------------------------------------------------------------


@contract(df=_DF, lams=_MAP, sides=_SIDES)
def leakage_excess(df, lams: dict, *, sides=("min_leak", "max_leak")):
    """Per (curve, side) the runs of the leakage minus its budget: a DataFrame with one row per
    distribution and columns ``(curve, side, eps)``.

    ``lams`` maps curve labels to lambda (``eps_l = lam eps`` for the min-lift, ``eps_u = (1-lam) eps``
    for the max-lift) or to ``None`` for an LDP curve (its Gamma-leakage ``ldp_leak`` against eps).

    Examples
    --------
    >>> d = pd.DataFrame({"curve": "a", "eps": [1.0, 1.0], "dist": [0, 1], "min_leak": [0.4, 0.6],
    ...                   "max_leak": [0.5, 0.5]})
    >>> leakage_excess(d, {"a": 0.5}).round(2).to_numpy().tolist()
    [[-0.1, 0.0], [0.1, 0.0]]
    """
    parts = {}
    for lab, lam in lams.items():
        qs = (("ldp_leak", 1.0),) if lam is None else tuple((q, lam if q == "min_leak" else 1 - lam) for q in sides)
        for q, b in qs:
            runs = curve_runs(df, lab, q=q)
            ex = runs - b * runs.columns.to_numpy(float)[None, :]
            for e in runs.columns:
                parts[(lab, q, float(e))] = ex[e]
    out = pd.DataFrame(parts)
    out.columns = pd.MultiIndex.from_tuples(out.columns, names=["curve", "q", "eps"])
    return out


@contract(df=_DF, lams=_MAP, eps_min=NONNEGATIVE, eps_max=Real(0, None, finite=False), sides=_SIDES, level=_LEVEL)
def budget_estimate(
    df,
    lams: dict,
    *,
    eps_min: float = 0.0,
    eps_max: float = np.inf,
    sides=("min_leak", "max_leak"),
    level: float = LEVEL,
) -> tuple[Estimate, pd.DataFrame]:
    """The mean excess of each leakage over its budget, per point (curve, side, epsilon with
    ``eps_min <= eps <= eps_max``), with Hall's intervals simultaneous over the points
    (:func:`ldpnb.stats.mean`). Returns the estimate (one cell per point) and the table of the points
    (``curve, q, eps, excess, low, high``, nats).

    Examples
    --------
    >>> d = pd.DataFrame({"curve": "a", "eps": 1.0, "dist": range(20), "min_leak": 0.5, "max_leak": 0.2})
    >>> est, tab = budget_estimate(d, {"a": 0.5})
    >>> tab.excess.round(2).tolist()
    [0.0, -0.3]
    """
    ex = leakage_excess(df, lams, sides=sides)
    e = ex.columns.get_level_values("eps").to_numpy(float)
    ex = ex.loc[:, (e >= eps_min) & (e <= eps_max)]
    est = mean(ex.to_numpy(), level=level, simultaneous=True)
    tab = ex.columns.to_frame(index=False)
    tab["excess"], tab["low"], tab["high"] = (np.asarray(x, dtype=float) for x in (est.value, est.low, est.high))
    return est, tab


@contract(estimate=_EST, which=OneOf("min", "max"))
def extreme(estimate: Estimate, which: str = "max") -> Estimate:
    """The largest (or smallest) cell of an estimate, with the interval ``[max low, max high]`` (or
    ``[min low, min high]``): valid jointly when the cells' intervals are simultaneous, as the maximum
    is non-decreasing in every cell.

    Examples
    --------
    >>> from ldpnb.stats import Estimate
    >>> e = extreme(Estimate([1.0, 3.0], [0.0, 2.5], [2.0, 3.5], method="t", n_runs=10, simultaneous=True))
    >>> float(e.value), float(e.low), float(e.high)
    (3.0, 2.5, 3.5)
    """
    v, lo, hi = (np.ravel(np.asarray(x, dtype=float)) for x in (estimate.value, estimate.low, estimate.high))
    f, arg = (np.max, np.argmax) if which == "max" else (np.min, np.argmin)
    i = int(arg(v))
    se = None if estimate.se is None else float(np.ravel(np.asarray(estimate.se))[i])
    return Estimate(
        float(v[i]),
        float(f(lo)),
        float(f(hi)),
        level=estimate.level,
        se=se,
        n_runs=estimate.n_runs,
        method=estimate.method,
        simultaneous=estimate.simultaneous,
        note=f"{which} over {v.size} cells",
    )


@contract(statistic=Callable_(), samples=_LIST, paired=Boolean(), level=_LEVEL, n_boot=_NBOOT, rng=SEED)
def bootstrap_estimate(
    statistic, samples, *, paired: bool = False, level: float = 0.95, n_boot: int = 2000, rng: Any = None
) -> Estimate:
    """:func:`ldpnb.stats.bootstrap` (BCa) of ``statistic`` over ``samples``, or, with fewer than
    ``MIN_BOOTSTRAP_RUNS`` runs in a sample (the smoke scale), an undefined estimate (NaN value and
    interval: decided as reversed if it were ever recorded) of the statistic's shape.

    Examples
    --------
    >>> e = bootstrap_estimate(lambda a, axis: np.mean(a, axis=axis), (np.arange(4.0),))
    >>> bool(np.isnan(e.value)), e.note
    (True, 'fewer than 10 runs: no bootstrap interval')
    """
    xs = tuple(np.asarray(x, dtype=float) for x in samples)
    if min(x.shape[0] for x in xs) >= MIN_BOOTSTRAP_RUNS:
        return bootstrap(statistic, xs, paired=paired, level=level, n_boot=n_boot, rng=rng)
    nan = np.full(np.shape(statistic(*xs, axis=0)), np.nan)
    return Estimate(
        nan,
        nan,
        nan,
        level=level,
        n_runs=max(1, min(x.shape[0] for x in xs)),
        method="bootstrap-bca",
        note=f"fewer than {MIN_BOOTSTRAP_RUNS} runs: no bootstrap interval",
    )


# --------------------------------------------------------------------------------------------
# crossovers
# --------------------------------------------------------------------------------------------


@contract(mean_hi=Array(None), mean_lo=Array(None), eps=Array(1, min_size=1), cap=Real(0, None))
def crossover(mean_hi, mean_lo, eps, *, cap: float = 0.999) -> np.ndarray:
    r"""Where the mean curve ``mean_hi`` overtakes ``mean_lo`` for good, along the last axis (any
    leading axes: resamples).

    On the epsilon values where either mean is below ``cap`` (not both saturated), with
    :math:`d = \bar q_{hi} - \bar q_{lo}`: the last point :math:`\varepsilon_a` with :math:`d \le 0`
    and the next compared point :math:`\varepsilon_b`, the root of the linear interpolation of
    :math:`d` between them; the first compared point when :math:`d > 0` everywhere; ``eps[-1] + 1``
    (beyond the grid) when ``mean_hi`` is not ahead at the last compared point.

    Examples
    --------
    >>> float(crossover(np.array([0.1, 0.3, 0.6]), np.array([0.2, 0.2, 0.2]), np.array([0.5, 1.0, 1.5])))
    0.75
    """
    a, b = np.asarray(mean_hi, dtype=float), np.asarray(mean_lo, dtype=float)
    e = np.asarray(eps, dtype=float)
    d = a - b
    valid = (a < cap) | (b < cap)
    m = e.size
    idx = np.arange(m)
    nonpos = (d <= 0) & valid
    i_star = np.max(np.where(nonpos, idx, -1), axis=-1)
    j = np.min(np.where(valid & (idx > i_star[..., None]), idx, m), axis=-1)
    first = np.argmax(valid, axis=-1)
    out = np.full(i_star.shape, e[-1] + 1.0)
    start = (i_star < 0) & valid.any(axis=-1)
    out = np.where(start, e[first], out)
    inner = (i_star >= 0) & (j < m)
    ii, jj = np.clip(i_star, 0, m - 1), np.clip(j, 0, m - 1)
    di = np.take_along_axis(d, ii[..., None], axis=-1)[..., 0]
    dj = np.take_along_axis(d, jj[..., None], axis=-1)[..., 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        root = e[ii] + (e[jj] - e[ii]) * (-di) / (dj - di)
    return np.where(inner, root, out)


def _crossover_stat(a, b, *, axis, eps, cap):
    return crossover(np.mean(a, axis=axis), np.mean(b, axis=axis), eps, cap=cap)


@contract(df=_DF, hi=_STR, lo=_STR, q=_STR, cap=Real(0, None), level=_LEVEL, n_boot=_NBOOT, rng=SEED)
def crossover_estimate(
    df,
    hi: str,
    lo: str,
    *,
    q: str = "nmi",
    cap: float = 0.999,
    level: float = 0.95,
    n_boot: int = 2000,
    rng: Any = None,
) -> Estimate:
    """:func:`crossover` of the mean curves of ``hi`` and ``lo`` with its BCa bootstrap interval,
    resampling the distributions (paired: both curves come from the same distributions;
    :func:`ldpnb.stats.bootstrap`, at least 10 distributions)."""
    a = curve_runs(df, hi, q=q)
    b = curve_runs(df, lo, q=q)
    a, b = a.align(b, join="inner")
    stat = partial(_crossover_stat, eps=a.columns.to_numpy(float), cap=cap)
    return bootstrap_estimate(stat, (a.to_numpy(), b.to_numpy()), paired=True, level=level, n_boot=n_boot, rng=rng)


# --------------------------------------------------------------------------------------------
# timings (Sec. V-A, Fig. 5(d)): medians of repeated, alternated runs
# --------------------------------------------------------------------------------------------


def _timing_task(task, rng):
    dist, p_sx, eps_grid, lam, repeats, method = task
    rows = []
    for eps in eps_grid:
        el, eu = alip_budgets(float(eps), lam)
        t_a, t_s = [], []
        for _ in range(repeats):  # alternate the two methods so that a load change hits both
            t = _clock()
            a = optimal_random_response(p_sx, el, eu, method=method)
            t_a.append(_clock() - t)
            t = _clock()
            s = subset_random_response(p_sx, el, eu, method=method)
            t_s.append(_clock() - t)
        rows.append(
            {
                "dist": dist,
                "eps": float(eps),
                "aorr": float(np.median(t_a)),
                "srr": float(np.median(t_s)),
                "n_vertices": a.n_vertices,
                "srr_blocks": len(s.blocks),
                "largest_block": s.largest_block,
                "fallback": s.fallback,
            }
        )
    return rows


@contract(joints=_JOINTS, eps_grid=_GRID, lam=_LAM, repeats=Integer(1, 100), seed=SEED, method=_METHOD)
def paired_timings(
    joints: np.ndarray,
    eps_grid: Sequence[float],
    *,
    lam: float = 0.65,
    repeats: int = 3,
    seed: Any,
    method: str = "auto",
):
    """Construction times of AORR and SRR on the same ``P_SX``: per (distribution, epsilon) the two
    methods run ``repeats`` times alternately and the median of each is kept (CPU seconds of the process).

    One task per distribution (:func:`ldpnb.parallel.sweep`). Timings depend on the machine,
    on its load and on the vertex backend (``method``; :func:`ldpnb.mechanisms.orr.vertex_backend`).
    """
    joints, eps_grid = _check_sweep(joints, eps_grid)
    tasks = [(i, joints[i], eps_grid, lam, int(repeats), method) for i in range(len(joints))]
    return pd.DataFrame([r for rows in sweep(_timing_task, tasks, seed=seed) for r in rows])


def _median_runs(level: float) -> int:
    """Fewest runs for which a distribution-free interval of a median reaches ``level``."""
    return next(k for k in range(2, 400) if 1 - 2.0 ** (1 - k) >= level)


@contract(timings=_DF, level=_LEVEL)
def timing_verdicts(timings, *, level: float = LEVEL) -> tuple[pd.DataFrame, list[float], Estimate | None]:
    r"""Per epsilon, the median over distributions of :math:`\log_{10}(t_{SRR} / t_{AORR})` with its
    distribution-free interval (:func:`ldpnb.stats.median`, simultaneous over the epsilon values at
    ``level``), and the verdict ``"SRR slower"`` (interval above 0), ``"SRR faster"`` (below 0) or
    ``"tie"``; ``"undecided"`` with its interval NaN when there are too few distributions for the
    interval. Also the crossovers of the median ratio through 1 (linear interpolation in the log).

    Returns ``(table, crossovers, estimate)``: the table indexed by epsilon has ``t_aorr``, ``t_srr``
    (median times), ``ratio`` (:math:`10^{median}`), ``lo``, ``hi`` (its interval) and ``verdict``; the
    estimate (one cell per epsilon, log10 ratios) is None without intervals.
    """
    w = {k: timings.pivot(index="dist", columns="eps", values=k) for k in ("aorr", "srr")}
    r = np.log10(w["srr"] / w["aorr"])
    eps = r.columns.to_numpy(float)
    n = len(r)
    est = None
    if n >= _median_runs(1 - (1 - level) / max(eps.size, 1)):
        est = median(r.to_numpy(), level=level, simultaneous=True)
        lo, hi = np.asarray(est.low, dtype=float), np.asarray(est.high, dtype=float)
        verdict = np.where(lo > 0, "SRR slower", np.where(hi < 0, "SRR faster", "tie"))
    else:
        lo = hi = np.full(eps.size, np.nan)
        verdict = np.full(eps.size, "undecided")
    med = np.median(r.to_numpy(), axis=0)
    tab = pd.DataFrame(
        {
            "t_aorr": w["aorr"].median().to_numpy(),
            "t_srr": w["srr"].median().to_numpy(),
            "ratio": 10**med,
            "lo": 10**lo,
            "hi": 10**hi,
            "verdict": verdict,
        },
        index=pd.Index(eps, name="eps"),
    )
    cross = [
        float(eps[i] + (eps[i + 1] - eps[i]) * (-med[i]) / (med[i + 1] - med[i]))
        for i in range(eps.size - 1)
        if np.sign(med[i]) != np.sign(med[i + 1]) and med[i] != 0
    ]
    return tab, cross, est


# --------------------------------------------------------------------------------------------
# complexity (Secs. III-A2, V-A): vertex counts and AORR's time against |X|
# --------------------------------------------------------------------------------------------


def _growth_task(task, rng):
    i, n_x_grid, eps_grid, n_s, lam, repeats = task
    rows = []
    for n_x in n_x_grid:  # the sizes in turn on each distribution: a change of the load hits them alike
        P = random_joint(n_s, n_x, rng=rng)
        for eps in eps_grid:
            el, eu = alip_budgets(float(eps), lam)
            best = np.inf
            for _ in range(repeats):
                t = _clock()
                r = optimal_random_response(P, el, eu)
                best = min(best, _clock() - t)
            rows.append(
                {
                    "n_x": n_x,
                    "eps": float(eps),
                    "dist": i,
                    "n_vertices": r.n_vertices,
                    "t_aorr": best,
                    "n_s": n_s,
                    "max_support": vertex_support(r.vertices),
                }
            )
    return rows


@contract(
    n_x_grid=_SIZES, eps_grid=_GRID, n_dist=Integer(1, 10**5), seed=SEED, n_s=_SMALL, lam=_LAM, repeats=Integer(1, 100)
)
def aorr_growth(
    n_x_grid: Sequence[int],
    eps_grid: Sequence[float],
    *,
    n_dist: int,
    seed: Any,
    n_s: int = 5,
    lam: float = 0.5,
    repeats: int = 3,
):
    """Sec. V-A: AORR's vertex count and CPU time against ``|X|``.

    One task per distribution index (:func:`ldpnb.parallel.sweep`): it draws a random ``P_SX``
    (``n_s x n_x``) for each size of ``n_x_grid`` in turn and times AORR ``repeats`` times at each
    epsilon, keeping the fastest run (the sizes are timed side by side, so that a change of the
    machine's load hits all of them). Returns a DataFrame with ``n_x, eps, dist, n_vertices, t_aorr,
    n_s, max_support`` (the most non-zero entries of a vertex, at most ``n_s``:
    :func:`~ldpnb.papers.lift.theory.vertex_support`).
    """
    grid = [int(n) for n in n_x_grid]
    tasks = [(i, grid, [float(e) for e in eps_grid], int(n_s), float(lam), int(repeats)) for i in range(n_dist)]
    return pd.DataFrame([r for rows in sweep(_growth_task, tasks, seed=seed) for r in rows])


def _count_task(task, rng):
    n_x, eps_grid, n_dist, n_s, lam = task
    J = random_joint(n_s, n_x, rng=rng, size=n_dist)
    rows = []
    for i, P in enumerate(J):
        for eps in eps_grid:
            V = polytope_vertices(*alip_column_polytope(P, *alip_budgets(float(eps), lam)))
            rows.append(
                {
                    "n_x": n_x,
                    "n_s": n_s,
                    "eps": float(eps),
                    "dist": i,
                    "n_vertices": int(V.shape[0]),
                    "max_support": vertex_support(V),
                }
            )
    return rows


@contract(n_x_grid=_SIZES, eps_grid=_GRID, n_dist=Integer(1, 10**5), seed=SEED, n_s=_SMALL, lam=_LAM)
def vertex_counts(
    n_x_grid: Sequence[int], eps_grid: Sequence[float], *, n_dist: int, seed: Any, n_s: int = 5, lam: float = 0.5
):
    """The number of vertices of AORR's polytope ``Pi`` (eq. 21) and their largest support, without
    solving LP (22): ``n_dist`` random ``P_SX`` (``n_s x n_x``) per alphabet size, one task per size
    (:func:`ldpnb.parallel.sweep`). Returns a DataFrame with ``n_x, n_s, eps, dist, n_vertices,
    max_support``.

    Examples
    --------
    >>> d = vertex_counts([6], [2.0], n_dist=1, seed=0)
    >>> bool(d.max_support.max() <= 5)
    True
    """
    tasks = [(int(n), [float(e) for e in eps_grid], int(n_dist), int(n_s), float(lam)) for n in n_x_grid]
    return pd.DataFrame([r for rows in sweep(_count_task, tasks, seed=seed) for r in rows])


def _fits(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Least-squares lines ``y = a + b x`` along the second-to-last axis of ``y`` (sizes), for every
    leading and last index: ``(a, b)``."""
    xm = x.mean()
    ym = y.mean(axis=-2, keepdims=True)
    b = ((x - xm)[:, None] * (y - ym)).sum(axis=-2) / ((x - xm) ** 2).sum()
    return ym[..., 0, :] - b * xm, b


def _law_errors(*samples, axis, n_fit, x):
    """exp_err - pow_err of :func:`growth_laws` from per-size samples of vertex counts (each
    ``(runs, ..., eps)``), the first ``n_fit`` sizes fitted, the others held out."""
    y = np.log10(np.stack([np.median(s, axis=axis) for s in samples], axis=-2))  # (..., sizes, eps)
    a_e, b_e = _fits(x[:n_fit], y[..., :n_fit, :])
    lx = np.log10(x)
    a_p, b_p = _fits(lx[:n_fit], y[..., :n_fit, :])
    xh, yh = x[n_fit:], y[..., n_fit:, :]
    pe = a_e[..., None, :] + b_e[..., None, :] * xh[:, None]
    pp = a_p[..., None, :] + b_p[..., None, :] * np.log10(xh)[:, None]
    return np.abs(pe - yh).mean(axis=(-2, -1)) - np.abs(pp - yh).mean(axis=(-2, -1))


@contract(fit=_DF, heldout=_DF)
def growth_laws(fit, heldout):
    """Exponential against power-law growth of AORR's vertex count (Secs. III-A2, V-A).

    Per epsilon, ``log10`` of the median vertex count over distributions is fitted by least squares
    linearly in ``|X|`` (exponential law, growth factor per symbol ``10^slope``) and in ``log10 |X|``
    (power law, exponent ``k``) on the sizes of ``fit``, and both fits predict the sizes of
    ``heldout`` (frames of :func:`aorr_growth` or :func:`vertex_counts`). Returns a DataFrame, one row
    per (epsilon, held-out size): ``eps, n_x, measured, exp_pred, pow_pred, exp_err, pow_err`` (absolute
    log10 errors), ``per_symbol`` and ``exponent``.
    """
    rows = []
    for eps, d in fit.groupby("eps"):
        m = d.groupby("n_x").n_vertices.median()
        x, y = m.index.to_numpy(float), np.log10(m.to_numpy(float))
        fe, fp = np.polyfit(x, y, 1), np.polyfit(np.log10(x), y, 1)
        t = heldout[heldout["eps"] == eps].groupby("n_x").n_vertices.median()
        for n_x, v in t.items():
            pe, pp = np.polyval(fe, n_x), np.polyval(fp, np.log10(n_x))
            rows.append(
                {
                    "eps": float(eps),
                    "n_x": int(n_x),
                    "measured": float(v),
                    "exp_pred": float(10**pe),
                    "pow_pred": float(10**pp),
                    "exp_err": float(abs(pe - np.log10(v))),
                    "pow_err": float(abs(pp - np.log10(v))),
                    "per_symbol": float(10 ** fe[0]),
                    "exponent": float(fp[0]),
                }
            )
    return pd.DataFrame(rows)


def _per_size(frame, value: str = "n_vertices") -> dict[int, np.ndarray]:
    return {
        int(n): d.pivot(index="dist", columns="eps", values=value).sort_index(axis=1).to_numpy(float)
        for n, d in frame.groupby("n_x")
    }


@contract(fit=_DF, heldout=_DF, level=_LEVEL, n_boot=_NBOOT, rng=SEED)
def growth_estimate(fit, heldout, *, level: float = 0.95, n_boot: int = 2000, rng: Any = None) -> Estimate:
    """``exp_err - pow_err`` of :func:`growth_laws` (averaged over epsilon and the held-out sizes)
    with a BCa bootstrap interval that resamples the distributions of each size independently
    (:func:`ldpnb.stats.bootstrap`; at least 10 distributions per size)."""
    f, h = _per_size(fit), _per_size(heldout)
    sizes = [*sorted(f), *sorted(h)]
    samples = tuple(f[n] for n in sorted(f)) + tuple(h[n] for n in sorted(h))
    stat = partial(_law_errors, n_fit=len(f), x=np.array(sizes, dtype=float))
    return bootstrap_estimate(stat, samples, level=level, n_boot=n_boot, rng=rng)


def _trend(*samples, axis):
    y = np.log10(np.stack([np.median(s, axis=axis) for s in samples], axis=-1))
    return np.stack([np.diff(y, axis=-1).min(axis=-1), y[..., -1] - y[..., 0]], axis=-1)


@contract(samples=_LIST, paired=Boolean(), level=_LEVEL, n_boot=_NBOOT, rng=SEED)
def trend_estimate(
    samples, *, paired: bool = False, level: float = 0.95, n_boot: int = 2000, rng: Any = None
) -> Estimate:
    r"""Growth of a median with a size: from the runs at each size (``samples``, in the order of the
    sizes, at least two), the smallest step :math:`\min_k (\log_{10} m_{k+1} - \log_{10} m_k)` and the
    rise :math:`\log_{10} m_{last} - \log_{10} m_{first}` of the medians :math:`m_k`, with BCa bootstrap
    intervals (:func:`ldpnb.stats.bootstrap`; ``paired``: the runs at every size share their index, e.g.
    timed side by side, and are resampled together).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> est = trend_estimate([rng.lognormal(k, 0.1, 12) for k in range(4)], rng=1)
    >>> bool(est.low[0] > 0.3 and est.low[1] > 1.0)
    True
    """
    xs = tuple(np.asarray(s, dtype=float) for s in samples)
    if len(xs) < 2:
        raise ValueError("a trend needs the runs of at least two sizes")
    return bootstrap_estimate(_trend, xs, paired=paired, level=level, n_boot=n_boot, rng=rng)


def _worst_ratio(a, b, *, axis):
    return np.max(np.median(a, axis=axis), axis=-1) / np.max(np.median(b, axis=axis), axis=-1)


@contract(num=Array(2, min_size=1), den=Array(2, min_size=1), level=_LEVEL, n_boot=_NBOOT, rng=SEED)
def worst_median_ratio(num, den, *, level: float = 0.95, n_boot: int = 2000, rng: Any = None) -> Estimate:
    """The ratio of the largest over epsilon of the median (over distributions) of ``num`` to the
    same of ``den`` (each ``(distributions, eps)``, independent), with a BCa bootstrap interval
    resampling the distributions of each (:func:`ldpnb.stats.bootstrap`, at least 10 a side).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> e = worst_median_ratio(rng.lognormal(0, 0.1, (12, 3)), rng.lognormal(2, 0.1, (12, 3)), rng=1)
    >>> bool(e.high < 0.2)
    True
    """
    return bootstrap_estimate(_worst_ratio, (num, den), level=level, n_boot=n_boot, rng=rng)


# --------------------------------------------------------------------------------------------
# the chapter's sizes
# --------------------------------------------------------------------------------------------

_SMOKE = dict(
    fig1_runs=20,
    props=100,
    checks=100,
    n_wd=60,
    n_orr=2,
    n_h3=2,
    n_f5=4,
    n_size=60,
    n_alpha=60,
    n6=2,
    n_time=2,
    reps=1,
    growth=(6, 8, 10),
    heldout=(12, 14),
    n_growth=2,
    n_wide=1,
    pairs=600,
    eps_wd=(0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8),
    eps_orr=(0.5, 1, 2, 4, 8),
    eps6=(2, 6),
    eps_time=(0.5, 1, 2, 3),
)
_BOOK = dict(
    fig1_runs=200,
    props=2000,
    checks=1000,
    n_wd=1000,
    n_orr=100,
    n_h3=300,
    n_f5=250,
    n_size=5000,
    n_alpha=6000,
    n6=80,
    n_time=20,
    reps=3,
    growth=tuple(range(6, 19, 2)),
    heldout=(24, 30),
    n_growth=12,
    n_wide=10,
    pairs=12000,
    eps_wd=FULL_GRID,
    eps_orr=FULL_GRID,
    eps6=FIG6_GRID,
    eps_time=FULL_GRID,
)
#: The chapter's sizes per scale: ``smoke`` (seconds, tests), ``book`` (the paper's numbers of
#: distributions wherever it states them: 1000 for Figs. 1, 2, 4, 7, 8, 100 for Figs. 3 and 5; more
#: for the rows that these leave undecided: H3 on ``n_h3``, F5.leak on ``n_f5``, VI-B.size on
#: ``n_size``, F8.ord and F8.leak on ``n_alpha``, Fig. 6, whose number the paper does not state, on
#: ``n6``) and ``paper`` (more runs where the paper does not state its number).
SIZES = {
    "smoke": _SMOKE,
    "book": _BOOK,
    "paper": dict(
        _BOOK,
        fig1_runs=1000,
        props=20000,
        checks=5000,
        n6=100,
        n_time=100,
        reps=5,
        growth=tuple(range(6, 23, 2)),
        n_wide=20,
    ),
}
