"""Experiments of the lift chapter: the sweeps behind Figs. 2-8 of Zarrabian, Ding and Sadeghi, and
the statistics that grade them.

For each random joint ``P_SX`` (common random numbers: the same matrices for every curve and every
epsilon), each LDP budget ``epsilon`` of the grid and each curve, a mechanism is built and its utility
(NMI), its leakages (nats), whether it exceeds its budget and (for the per-instance sweep) the CPU
time of its construction are recorded. The figures plot means over distributions.

Two sweeps, both through :func:`ldpnb.repro.parallel.sweep` (workers from ``$LDPNB_N_JOBS``):

* :func:`watchdog_sweep`: complete and subset merging (and their repairs) for all distributions at
  once with :func:`ldpnb.mechanisms.watchdog.merge_labels` (no timing), tasks = epsilon values;
* :func:`put_sweep`: any curve, one mechanism at a time with its construction time (AORR, SRR and
  the subset merging of Fig. 5), tasks = distributions.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
import pandas as pd

from ldpnb.contracts import (
    MAX_DENSE, Array, Instance, Integer, NonnegativeMatrix, OneOf, RandomState, Real, contract,
)

from ldpnb.measures.information import entropy, mutual_information
from ldpnb.measures.lift import ALIP, LDPwrtS, LiftBased, LiftMeasurePrivacy, _measure, alip_budgets, random_joint
from ldpnb.mechanisms.orr import optimal_random_response, subset_random_response
from ldpnb.papers.lift.theory import vertex_support
from ldpnb.mechanisms.watchdog import (
    complete_merging, merge_labels, merging_mi, merging_performance, subset_merging,
)
from ldpnb.utils import check_random_state

__all__ = [
    "FULL_GRID",
    "FIG6_GRID",
    "Curve",
    "random_joints",
    "evaluate_curve",
    "put_sweep",
    "watchdog_sweep",
    "summarise",
    "mean_curve",
    "crossover_eps",
    "paired_differences",
    "order_numbers",
    "orders",
    "leakage_excess",
    "budget_verdict",
    "budget",
    "mean_at",
    "against_printed",
    "per_instance_violations",
    "paired_timings",
    "timing_verdicts",
    "aorr_growth",
    "vertex_counts",
    "growth_laws",
]

#: The paper's grid eps_LDP in {0.25, 0.5, ..., 8} (Sec. III-A3; Figs. 2-5, 7, 8).
FULL_GRID = tuple(round(0.25 * i, 2) for i in range(1, 33))
#: Fig. 6's grid eps in {1, 1.25, ..., 8} (Sec. V-B).
FIG6_GRID = tuple(round(0.25 * i, 2) for i in range(4, 33))

_METHODS = ("cm", "sm", "aorr", "srr")
_DF = Instance(pd.DataFrame, example=pd.DataFrame())
_STR = Instance(str, example="nmi")
_MAP = Instance(dict, example={})
_LIST = Instance(list, tuple, example=[])
_EPS = Real(0, None, low_open=True)
_JOINTS = Array(3, low=0)
_GRID = Array(1, low=1e-12)
_METHOD = OneOf("auto", "qhull", "cdd", "bruteforce")

#: The clock of every timing here: CPU time of the process (one thread with OMP_NUM_THREADS=1), which a
#: busy machine does not inflate the way it inflates wall time.
_clock = time.process_time
_PRIVACY = ("alip", "ldp", "l1", "chi2", "alpha", "l1-only", "chi2-only", "alpha-only")


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

    def budgets(self, epsilon: float) -> tuple[float, float]:
        """``(eps_l, eps_u)`` (the LDP curve: ``(eps, eps)`` for the plots' reference, unused)."""
        return (epsilon, epsilon) if self.lam is None else alip_budgets(epsilon, self.lam)


_CURVE = Instance(Curve, example=Curve("x", "cm"))
_CURVES = Instance(list, tuple, example=[Curve("x", "cm")])

@contract(n_dist=Integer(1, 10**7), n_s=Integer(2, MAX_DENSE), n_x=Integer(2, MAX_DENSE), rng=RandomState())
def random_joints(n_dist: int, n_s: int, n_x: int, *, rng: Any = None) -> np.ndarray:
    """``n_dist`` iid random ``P_SX`` (iid U(0,1) cells, normalised; Sec. III): ``(n_dist, n_s, n_x)``."""
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


@contract(p_sx=NonnegativeMatrix(), epsilon=_EPS, curve=_CURVE, method=_METHOD)
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
    extra = {"n_high": np.nan, "n_blocks": np.nan, "largest_block": np.nan, "n_vertices": np.nan, "fallback": False,
             "n_partition": np.nan}
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
        extra.update(n_high=len(mm.high) - len(mm.absorbed), n_merged=len(mm.high), n_blocks=len(mm.groups),
                     largest_block=max((len(g) for g in mm.groups), default=0))
    else:
        el, eu = alip_budgets(epsilon, curve.lam)
        if curve.method == "aorr":
            r = optimal_random_response(p_sx, el, eu, method=method)
            extra.update(n_vertices=r.n_vertices)
        else:
            r = subset_random_response(p_sx, el, eu, method=method, risk=curve.risk)
            extra.update(n_vertices=r.n_vertices, fallback=r.fallback, largest_block=r.largest_block,
                         n_blocks=len(r.blocks), n_high=sum(len(b) for b in r.partition),
                         n_partition=len(r.partition))
        elapsed = _clock() - t0
        C = r.channel
        p_sy = p_sx @ C
        util = mutual_information(p_x, C, unit="nats") / h_x
    mx, mn, ld = _leaks(p_sy)
    keep = p_sy.sum(axis=0) > 0
    L, p_s = p_sy[:, keep] / np.outer(p_sy.sum(axis=1), p_sy.sum(axis=0)[keep]), p_sy.sum(axis=1)
    with np.errstate(divide="ignore"):
        lm = {f"{k}{'_inv' if inv else ''}": float(_measure(L, p_s, k, inv, None).max())
              for k in ("l1", "chi2") for inv in (False, True)}
    return {"nmi": float(util), "max_leak": mx, "min_leak": mn, "ldp_leak": ld,
            "violates": bool(_violates(curve, epsilon, mx, mn, ld)), "time": elapsed, **extra, **lm}


def _row(c: Curve, eps: float, dist: int) -> dict:
    return {"curve": c.label, "method": c.method, "privacy": c.privacy, "lam": c.lam, "alpha": c.alpha,
            "eps": float(eps), "dist": dist}


def _put_task(task, rng):
    dist, p_sx, eps_grid, curves, method = task
    return [{**_row(c, eps, dist), **evaluate_curve(p_sx, float(eps), c, method=method)}
            for eps in eps_grid for c in curves]


def _check_sweep(joints, eps_grid):
    joints = np.asarray(joints, dtype=float)
    if joints.ndim != 3:
        raise ValueError("joints must have shape (n_dist, n_s, n_x)")
    eps_grid = [float(e) for e in eps_grid]
    if not eps_grid or min(eps_grid) <= 0:
        raise ValueError("eps_grid must be a non-empty list of positive budgets")
    return joints, eps_grid


@contract(joints=_JOINTS, eps_grid=_GRID, curves=_CURVES, seed=RandomState(), method=_METHOD)
def put_sweep(joints: np.ndarray, eps_grid: Sequence[float], curves: Sequence[Curve], *, seed: Any,
              method: str = "auto"):
    """Privacy-utility sweep, one mechanism at a time: one row per (distribution, epsilon, curve).

    Distributions are the tasks of :func:`ldpnb.repro.parallel.sweep` (workers from
    ``$LDPNB_N_JOBS``; the mechanisms are deterministic given ``P_SX``, so the results do not depend
    on them, only the times do). Returns a DataFrame with columns ``curve, method, privacy, lam,
    alpha, eps, dist, nmi, max_leak, min_leak, ldp_leak, violates, time, n_high, n_blocks,
    largest_block, n_vertices, fallback``.
    """
    import pandas as pd

    from ldpnb.repro.parallel import sweep

    joints, eps_grid = _check_sweep(joints, eps_grid)
    tasks = [(i, joints[i], eps_grid, tuple(curves), method) for i in range(len(joints))]
    return pd.DataFrame([r for rows in sweep(_put_task, tasks, seed=seed) for r in rows])


def _wd_task(task, rng):
    import pandas as pd

    eps, joints, curves = task
    L, ps = _lifts_batch(joints)
    parts = []
    for c in curves:
        if c.method not in ("cm", "sm"):
            raise ValueError(f"watchdog_sweep takes merging curves only, got {c.method!r}")
        crit = c.criterion(eps)
        lab = merge_labels(joints, crit, method="complete" if c.method == "cm" else "subset",
                           outer_loop=c.outer_loop, repair=c.repair)
        perf = merging_performance(joints, lab)
        sizes = (lab[:, :, None] == np.arange(joints.shape[2])[None, None, :]).sum(axis=1)
        n = len(joints)
        parts.append(pd.DataFrame({
            "curve": c.label, "method": c.method, "privacy": c.privacy, "lam": c.lam, "alpha": c.alpha,
            "eps": float(eps), "dist": np.arange(n), "nmi": perf["nmi"], "max_leak": perf["max_leak"],
            "min_leak": perf["min_leak"], "ldp_leak": perf["ldp_leak"],
            "violates": _violates(c, eps, perf["max_leak"], perf["min_leak"], perf["ldp_leak"]),
            "time": np.nan, "n_high": crit.violated(L, ps).sum(axis=1), "n_blocks": perf["n_blocks"],
            "n_merged": perf["n_merged"], "largest_block": sizes.max(axis=1),
            "mean_block": np.divide(perf["n_merged"], perf["n_blocks"], out=np.zeros(n),
                                    where=np.asarray(perf["n_blocks"]) > 0),
            "n_vertices": np.nan, "fallback": False}))
    return parts


def _lifts_batch(P):
    ps = P.sum(axis=2)
    return P / (ps[:, :, None] * P.sum(axis=1)[:, None, :]), ps


@contract(joints=_JOINTS, eps_grid=_GRID, curves=_CURVES, seed=RandomState())
def watchdog_sweep(joints: np.ndarray, eps_grid: Sequence[float], curves: Sequence[Curve], *, seed: Any):
    """The watchdog curves (complete / subset merging, any criterion, optional repair) of all
    distributions at once, one task per epsilon of the grid (:func:`ldpnb.repro.parallel.sweep`).

    Same rows as :func:`put_sweep` (``time`` is NaN; ``n_merged`` counts the merged symbols, which
    exceed ``n_high`` after a repair; ``mean_block`` is ``n_merged / n_blocks``, 0 without blocks).
    """
    import pandas as pd

    from ldpnb.repro.parallel import sweep

    joints, eps_grid = _check_sweep(joints, eps_grid)
    tasks = [(e, joints, tuple(curves)) for e in eps_grid]
    return pd.concat([p for parts in sweep(_wd_task, tasks, seed=seed) for p in parts], ignore_index=True)


@contract(df=_DF)
def summarise(df):
    """Means and standard errors over distributions per (curve, eps): ``nmi``, ``max_leak``,
    ``min_leak``, ``ldp_leak``, ``violates`` (rate), ``time``, ... with ``<q>_se`` and ``n``."""
    g = df.groupby(["curve", "eps"], sort=False)
    cols = [c for c in ("nmi", "max_leak", "min_leak", "ldp_leak", "violates", "time", "n_vertices",
                        "largest_block", "fallback", "n_high", "n_merged") if c in df]
    m = g[cols].mean()
    for q in ("nmi", "max_leak", "min_leak", "ldp_leak"):
        m[f"{q}_se"] = g[q].std(ddof=1) / np.sqrt(g[q].count())
    m["n"] = g["nmi"].count()
    return m.reset_index()


@contract(summary=_DF, curve=_STR, q=_STR)
def mean_curve(summary, curve: str, q: str = "nmi"):
    """The mean of quantity ``q`` along ``curve`` (a Series indexed by epsilon)."""
    d = summary[summary["curve"] == curve]
    if d.empty:
        raise ValueError(f"no curve {curve!r} in the summary")
    return d.set_index("eps")[q].sort_index()


@contract(summary=_DF, hi=_STR, lo=_STR, q=_STR, cap=Real(0, None))
def crossover_eps(summary, hi: str, lo: str, *, q: str = "nmi", cap: float = 0.999) -> float:
    """Where curve ``hi`` overtakes curve ``lo`` for good (NaN if it is not ahead at the last point).

    With ``d(eps) = mean_q(hi) - mean_q(lo)`` on the grid points where either mean is below ``cap``,
    find the last grid point ``eps_a`` with ``d <= 0``; the crossover is the linear-interpolation
    root of ``d`` between ``eps_a`` and the next grid point (the first grid point if ``d > 0``
    everywhere).
    """
    a, b = mean_curve(summary, hi, q), mean_curve(summary, lo, q)
    a, b = a.align(b, join="inner")
    keep = (a < cap) | (b < cap)
    d = (a - b)[keep]
    if d.empty or d.iloc[-1] <= 0:
        return float("nan")
    neg = np.flatnonzero(d.values <= 0)
    if neg.size == 0:
        return float(d.index[0])
    i = neg[-1]
    e0, e1 = d.index[i], d.index[i + 1]
    d0, d1 = d.iloc[i], d.iloc[i + 1]
    return float(e0 + (e1 - e0) * (-d0) / (d1 - d0))


@contract(df=_DF, hi=_STR, lo=_STR, q=_STR, eps_min=Real(0, None), eps_max=Real(0, None, finite=False))
def paired_differences(df, hi: str, lo: str, *, q: str = "nmi", eps_min: float = 0.0, eps_max: float = np.inf,
                       cap: float | None = 0.999, mask=None, eps_in=None):
    """Paired (same distribution) differences ``q(hi) - q(lo)`` per epsilon: a DataFrame indexed by
    epsilon with ``diff`` (mean), ``se`` (its standard error over distributions) and ``n``.

    Points where both curves' means are at least ``cap`` (NMI saturated at 1) are dropped; ``mask``
    (a boolean Series indexed by ``(dist, eps)``) restricts the instances.
    """
    import pandas as pd

    a = df[df["curve"] == hi].set_index(["dist", "eps"])[q]
    b = df[df["curve"] == lo].set_index(["dist", "eps"])[q]
    both = pd.concat([a.rename("a"), b.rename("b")], axis=1, join="inner")
    if mask is not None:
        both = both[mask.reindex(both.index).fillna(False).astype(bool)]
    e = both.index.get_level_values("eps")
    keep = (e >= eps_min) & (e <= eps_max)
    if eps_in is not None:
        keep &= np.isin(e, np.asarray(list(eps_in), dtype=float))
    both = both[keep]
    d = (both["a"] - both["b"]).groupby(level="eps")
    out = pd.DataFrame({"diff": d.mean(), "se": d.std(ddof=1) / np.sqrt(d.count()), "n": d.count(),
                        "mean_hi": both["a"].groupby(level="eps").mean(), "mean_lo": both["b"].groupby(level="eps").mean()})
    out["se"] = out["se"].fillna(0.0)
    if cap is not None and q == "nmi":
        out = out[(out["mean_hi"] < cap) | (out["mean_lo"] < cap)]
    return out[(out["se"] > 0) | (out["diff"] != 0)]  # identical on every distribution: nothing to compare


@contract(pd_table=_DF, z=Real(0, None, low_open=True))
def order_numbers(pd_table, *, z: float = 3.0) -> dict[str, Any]:
    """The numbers that grade "``hi`` is above ``lo`` at every epsilon" from :func:`paired_differences`.

    Per epsilon the paired mean difference is compared with ``z`` standard errors (two-sided):
    ``reversed`` counts points significantly below 0, ``significant`` points significantly above
    0, ``points`` all compared points; ``min_diff`` is the smallest mean difference and ``z_min`` the
    smallest ``diff / se``. The claims table's rule is ``reversed == 0 and significant >= points / 2``:
    never significantly the other way round, and significantly in the paper's direction at most
    points (a difference that vanishes everywhere does not support "higher").
    """
    d, se = pd_table["diff"].to_numpy(), pd_table["se"].to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):
        zs = np.where(se > 0, d / np.where(se > 0, se, 1), np.sign(d) * np.inf)
    return {"points": int(d.size), "reversed": int(np.sum(d < -z * se - 1e-12)),
            "significant": int(np.sum(d > z * se + 1e-12)),
            "min_diff": float(d.min()) if d.size else float("nan"),
            "z_min": float(np.min(zs)) if d.size else float("nan")}


@contract(df=_DF, comparisons=_LIST, z=Real(0, None, low_open=True))
def orders(df, comparisons, *, z: float = 3.0) -> dict[str, Any]:
    """:func:`order_numbers` summed over several comparisons, each ``(hi, lo)`` or ``(hi, lo, options)``
    with ``options`` passed to :func:`paired_differences` (``q``, ``eps_min``, ``eps_max``, ``eps_in``,
    ``mask``). ``points``, ``reversed`` and ``significant`` are totals; ``min_diff``, ``z_min`` minima."""
    tot = {"points": 0, "reversed": 0, "significant": 0, "min_diff": np.inf, "z_min": np.inf}
    for comp in comparisons:
        hi, lo, opts = (*comp, {})[:3] if len(comp) == 2 else comp
        n = order_numbers(paired_differences(df, hi, lo, **opts), z=z)
        for k in ("points", "reversed", "significant"):
            tot[k] += n[k]
        for k in ("min_diff", "z_min"):
            if n["points"]:
                tot[k] = min(tot[k], n[k])
    return {k: (float(v) if isinstance(v, float) else v) for k, v in tot.items()}


@contract(df=_DF, curve=_STR, eps=_EPS, q=_STR)
def mean_at(df, curve: str, eps: float, q: str = "nmi") -> tuple[float, float, int]:
    """Mean of ``q`` over distributions for ``curve`` at ``eps``, its standard error and the count."""
    v = df[(df["curve"] == curve) & np.isclose(df["eps"], eps)][q].to_numpy()
    return float(v.mean()), float(v.std(ddof=1) / np.sqrt(v.size)), int(v.size)


@contract(df=_DF, curve=_STR, eps=_EPS, n_paper=Integer(1, None), q=_STR)
def against_printed(df, curve: str, eps: float, n_paper: int, q: str = "nmi") -> tuple[float, float]:
    """Our mean of ``q`` at ``eps`` and the standard error of its difference from a printed mean over
    ``n_paper`` distributions (the paper's own Monte Carlo error, estimated by ours at its size)."""
    m, se, n = mean_at(df, curve, eps, q)
    return m, float(se * np.sqrt(1 + n / n_paper))


@contract(df=_DF, lams=_MAP)
def leakage_excess(df, lams: dict, *, sides=("min_leak", "max_leak")):
    """Mean leakage minus budget, with its standard error, per (curve, side, epsilon).

    ``lams`` maps curve labels to lambda (``eps_l = lam eps`` for the min-lift, ``eps_u = (1-lam) eps``
    for the max-lift) or to ``None`` for an LDP curve (its Gamma-leakage ``ldp_leak`` against eps).
    Returns a DataFrame with columns ``curve, q, eps, excess, se`` (nats).
    """
    import pandas as pd

    parts = []
    for lab, lam in lams.items():
        d = df[df["curve"] == lab]
        qs = (("ldp_leak", 1.0),) if lam is None else tuple((q, lam if q == "min_leak" else 1 - lam) for q in sides)
        for q, b in qs:
            g = (d[q] - b * d["eps"]).groupby(d["eps"])
            parts.append(pd.DataFrame({"curve": lab, "q": q, "excess": g.mean(),
                                       "se": g.std(ddof=1) / np.sqrt(g.count())}))
    return pd.concat(parts).rename_axis("eps").reset_index()


@contract(excess_table=_DF, z=Real(0, None, low_open=True), atol=Real(0, None))
def budget_verdict(excess_table, *, z: float = 3.0, atol: float = 1e-9) -> dict[str, Any]:
    """Two-sided grading of "the privacy constraints are satisfied" on mean leakages.

    Each point (curve, side, epsilon) of :func:`leakage_excess` gets the interval
    ``excess +- (z se + atol)``: ``above`` when it lies above 0 (the mean is significantly above its
    budget line), ``below`` when it lies below, ``at`` when it contains 0 (on the line within noise:
    mechanisms that bind, such as AORR). The claim holds iff no point is above. Returns the counts
    and the worst point (largest ``excess - z se``).
    """
    e = excess_table["excess"].to_numpy()
    se = np.nan_to_num(excess_table["se"].to_numpy())
    lo, hi = e - z * se - atol, e + z * se + atol
    k = int(np.argmax(lo))
    w = excess_table.iloc[k]
    return {"points": int(e.size), "above": int(np.sum(lo > 0)), "at": int(np.sum((lo <= 0) & (hi >= 0))),
            "below": int(np.sum(hi < 0)), "worst_excess": float(e[k]), "worst_se": float(se[k]),
            "worst_eps": float(w["eps"]), "worst_curve": str(w["curve"]), "worst_side": str(w["q"])}


@contract(df=_DF, lams=_MAP, eps_min=Real(0, None), eps_max=Real(0, None, finite=False), z=Real(0, None, low_open=True))
def budget(df, lams: dict, *, eps_min: float = 0.0, eps_max: float = np.inf, sides=("min_leak", "max_leak"),
           z: float = 3.0) -> dict[str, Any]:
    """:func:`budget_verdict` of :func:`leakage_excess` for the curves ``lams``, on ``eps_min <= eps <= eps_max``."""
    d = df[(df["eps"] >= eps_min) & (df["eps"] <= eps_max)]
    return budget_verdict(leakage_excess(d, lams, sides=sides), z=z)


@contract(df=_DF, lo=_STR, hi=_STR, q=_STR, tol=Real(0, None))
def per_instance_violations(df, lo: str, hi: str, *, q: str = "nmi", tol: float = 1e-9, mask=None) -> tuple[int, int]:
    """Count instances (dist, eps) where curve ``lo`` exceeds curve ``hi`` by more than ``tol``.

    ``mask``: optional boolean Series indexed by (dist, eps) selecting the instances to compare.
    Returns ``(violations, compared)``.
    """
    a = df[df["curve"] == lo].set_index(["dist", "eps"])[q]
    b = df[df["curve"] == hi].set_index(["dist", "eps"])[q]
    d = (a - b).dropna()
    if mask is not None:
        d = d[mask.reindex(d.index).fillna(False).astype(bool)]
    return int((d > tol).sum()), int(d.size)


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
        rows.append({"dist": dist, "eps": float(eps), "aorr": float(np.median(t_a)), "srr": float(np.median(t_s)),
                     "n_vertices": a.n_vertices, "srr_blocks": len(s.blocks), "largest_block": s.largest_block,
                     "fallback": s.fallback})
    return rows


@contract(joints=_JOINTS, eps_grid=_GRID, lam=Real(0, 1, low_open=True, high_open=True), repeats=Integer(1, 100), seed=RandomState(), method=_METHOD)
def paired_timings(joints: np.ndarray, eps_grid: Sequence[float], *, lam: float = 0.65, repeats: int = 3,
                   seed: Any, method: str = "auto"):
    """Construction times of AORR and SRR on the same ``P_SX``: per (distribution, epsilon) the two
    methods run ``repeats`` times alternately and the median of each is kept (CPU seconds of the process).

    One task per distribution (:func:`ldpnb.repro.parallel.sweep`). Timings depend on the machine,
    on its load and on the vertex backend (``method``; :func:`ldpnb.mechanisms.orr.vertex_backend`).
    """
    import pandas as pd

    from ldpnb.repro.parallel import sweep

    joints, eps_grid = _check_sweep(joints, eps_grid)
    tasks = [(i, joints[i], eps_grid, lam, int(repeats), method) for i in range(len(joints))]
    return pd.DataFrame([r for rows in sweep(_timing_task, tasks, seed=seed) for r in rows])


@contract(timings=_DF, n_boot=Integer(10, 10**6), level=Real(0, 1, low_open=True, high_open=True), rng=RandomState())
def timing_verdicts(timings, *, n_boot: int = 2000, level: float = 0.99, rng: Any = None):
    """Per epsilon: the median over distributions of the time ratio ``t_SRR / t_AORR`` with a bootstrap
    confidence interval (resampling distributions), and the verdict ``"SRR slower"`` (interval above
    1), ``"SRR faster"`` (below 1) or ``"tie"``. Also the crossovers of the median ratio through 1
    (log-linear interpolation). Returns ``(table, crossovers)``."""
    import pandas as pd

    rng = check_random_state(rng)
    out = []
    for eps, d in timings.groupby("eps"):
        r = (d["srr"] / d["aorr"]).to_numpy()
        boots = np.median(r[rng.integers(0, r.size, size=(n_boot, r.size))], axis=1)
        lo, hi = np.quantile(boots, [(1 - level) / 2, (1 + level) / 2])
        verdict = "SRR slower" if lo > 1 else ("SRR faster" if hi < 1 else "tie")
        out.append({"eps": float(eps), "t_aorr": float(np.median(d["aorr"])), "t_srr": float(np.median(d["srr"])),
                    "ratio": float(np.median(r)), "lo": float(lo), "hi": float(hi), "verdict": verdict})
    tab = pd.DataFrame(out).set_index("eps")
    lr = np.log(tab["ratio"].to_numpy())
    e = tab.index.to_numpy()
    cross = [float(e[i] + (e[i + 1] - e[i]) * (-lr[i]) / (lr[i + 1] - lr[i]))
             for i in range(len(e) - 1) if np.sign(lr[i]) != np.sign(lr[i + 1]) and lr[i] != 0]
    return tab, cross


def _growth_task(task, rng):
    n_x, eps_grid, n_dist, n_s, lam = task
    J = random_joint(n_s, n_x, rng=rng, size=n_dist)
    rows = []
    for i, P in enumerate(J):
        for eps in eps_grid:
            el, eu = alip_budgets(float(eps), lam)
            t = _clock()
            r = optimal_random_response(P, el, eu)
            ta = _clock() - t
            t = _clock()
            s = subset_random_response(P, el, eu)
            ts = _clock() - t
            rows.append({"n_x": n_x, "eps": float(eps), "dist": i, "n_vertices": r.n_vertices, "t_aorr": ta,
                         "t_srr": ts, "largest_block": s.largest_block, "srr_vertices": s.n_vertices,
                         "fallback": s.fallback, "n_s": n_s, "max_support": vertex_support(r.vertices)})
    return rows


@contract(n_x_grid=Array(1, low=2, integer=True), eps_grid=_GRID, n_dist=Integer(1, 10**5), seed=RandomState(), n_s=Integer(2, MAX_DENSE), lam=Real(0, 1, low_open=True, high_open=True))
def aorr_growth(n_x_grid: Sequence[int], eps_grid: Sequence[float], *, n_dist: int, seed: Any, n_s: int = 5,
                lam: float = 0.5):
    """Sec. V-A: AORR's vertex count and time, and SRR's time and largest block, against ``|X|``.

    ``n_dist`` random ``P_SX`` (``n_s x n_x``) per alphabet size; one task per size. Returns a
    DataFrame with ``n_x, eps, dist, n_vertices, t_aorr, t_srr, largest_block, srr_vertices, fallback,
    n_s, max_support`` (the most non-zero entries of a vertex, at most ``n_s``:
    :func:`~ldpnb.papers.lift.theory.vertex_support`).
    """
    import pandas as pd

    from ldpnb.repro.parallel import sweep

    tasks = [(int(n), [float(e) for e in eps_grid], int(n_dist), int(n_s), float(lam)) for n in n_x_grid]
    return pd.DataFrame([r for rows in sweep(_growth_task, tasks, seed=seed) for r in rows])


def _count_task(task, rng):
    from ldpnb.mechanisms.orr import alip_column_polytope, polytope_vertices

    n_x, eps_grid, n_dist, n_s, lam = task
    J = random_joint(n_s, n_x, rng=rng, size=n_dist)
    rows = []
    for i, P in enumerate(J):
        for eps in eps_grid:
            V = polytope_vertices(*alip_column_polytope(P, *alip_budgets(float(eps), lam)))
            rows.append({"n_x": n_x, "n_s": n_s, "eps": float(eps), "dist": i, "n_vertices": int(V.shape[0]),
                         "max_support": vertex_support(V)})
    return rows


@contract(n_x_grid=Array(1, low=2, integer=True), eps_grid=_GRID, n_dist=Integer(1, 10**5), seed=RandomState(),
          n_s=Integer(2, MAX_DENSE), lam=Real(0, 1, low_open=True, high_open=True))
def vertex_counts(n_x_grid: Sequence[int], eps_grid: Sequence[float], *, n_dist: int, seed: Any, n_s: int = 5,
                  lam: float = 0.5):
    """The number of vertices of AORR's polytope ``Pi`` (eq. 21) and their largest support, without
    solving LP (22): ``n_dist`` random ``P_SX`` (``n_s x n_x``) per alphabet size, one task per size
    (:func:`ldpnb.repro.parallel.sweep`). Returns a DataFrame with ``n_x, n_s, eps, dist, n_vertices,
    max_support``.

    Examples
    --------
    >>> d = vertex_counts([6], [2.0], n_dist=1, seed=0)
    >>> bool(d.max_support.max() <= 5)
    True
    """
    import pandas as pd

    from ldpnb.repro.parallel import sweep

    tasks = [(int(n), [float(e) for e in eps_grid], int(n_dist), int(n_s), float(lam)) for n in n_x_grid]
    return pd.DataFrame([r for rows in sweep(_count_task, tasks, seed=seed) for r in rows])


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
    import pandas as pd

    rows = []
    for eps, d in fit.groupby("eps"):
        m = d.groupby("n_x").n_vertices.median()
        x, y = m.index.to_numpy(float), np.log10(m.to_numpy(float))
        fe, fp = np.polyfit(x, y, 1), np.polyfit(np.log10(x), y, 1)
        t = heldout[heldout["eps"] == eps].groupby("n_x").n_vertices.median()
        for n_x, v in t.items():
            pe, pp = np.polyval(fe, n_x), np.polyval(fp, np.log10(n_x))
            rows.append({"eps": float(eps), "n_x": int(n_x), "measured": float(v), "exp_pred": float(10**pe),
                         "pow_pred": float(10**pp), "exp_err": float(abs(pe - np.log10(v))),
                         "pow_err": float(abs(pp - np.log10(v))), "per_symbol": float(10 ** fe[0]),
                         "exponent": float(fp[0])})
    return pd.DataFrame(rows)
