r"""The Monte Carlo comparisons behind the synthesis chapter's rows, as estimates of
:mod:`ldpnb.stats`.

Each function turns the per-run samples the experiments keep (the EMD or squared error of every
collection, the precision of every run, the accuracy of every re-identification) into
:class:`~ldpnb.stats.Estimate` objects with their confidence intervals, in the form the row's
criterion takes: the ``values`` and ``differences`` of an order (``report.order(id, **order)``), or
one estimate for a range or a ``close``.  Intervals that a row reads at several cells at once (every
mechanism, every step, every cell of a grid) are simultaneous over those cells (Bonferroni), so that
"for every mechanism" and "the best cell" keep their level.

Paper-specific logic only: the estimators (paired and Welch differences, Fieller ratios, Hall's
mean, Kendall's tau-b with ties) are :mod:`ldpnb.stats`'s.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Mapping, Sequence

import numpy as np
from scipy import stats as _st

from ldpnb.contracts import Array, Instance, Integer, Items, Probability, Real, contract
from ldpnb.stats import Estimate, bonferroni, difference, from_se, kendall_tau, mean, proportion, ratio

__all__ = [
    "TIE_REL",
    "runs_of",
    "estimator_order",
    "estimator_ratio",
    "sweep_steps",
    "reid_estimates",
    "reid_steps",
    "matched_order",
    "gain",
    "gain_estimates",
    "gain_curves",
    "tie_of",
    "tau",
    "tau_matrix",
    "discordant_pairs",
    "point_intervals",
]

#: Relative tie tolerance of exact lens values: values within ``TIE_REL`` times the lens's largest
#: magnitude are ties (float noise: five oracles' leakages about a secret agree to 1e-14).
TIE_REL = 1e-9

_TABLE = Instance(dict, example={"k-RR": {"runs_emd_ibu": np.ones(4), "runs_emd_inv": np.ones(4)}})
_NAMES = Items(Instance(str, example="k-RR"), complete=False)
_KEY = Instance(str, example="emd_ibu")
_LEVEL = Probability(open_left=True, open_right=True)


def _simultaneous_mean(runs: np.ndarray, level: float) -> Estimate:
    return mean(runs, level=level, simultaneous=runs.ndim > 1 and runs.shape[1] > 1)


@contract(table=_TABLE, names=_NAMES, key=_KEY)
def runs_of(table: Mapping[str, Mapping[str, Any]], names: Sequence[str], key: str) -> np.ndarray:
    """The per-run samples ``runs_<key>`` of each mechanism of a lens table, ``(runs, mechanisms)``.

    >>> runs_of({"a": {"runs_x": [1.0, 2.0]}, "b": {"runs_x": [3.0, 4.0]}}, ["a", "b"], "x").shape
    (2, 2)
    """
    missing = [n for n in names if n not in table or f"runs_{key}" not in table[n]]
    if missing:
        raise ValueError(f"the lens table has no runs_{key} for {missing} (mechanisms: {sorted(table)})")
    cols = [np.asarray(table[n][f"runs_{key}"], dtype=float) for n in names]
    if len({c.shape for c in cols}) != 1:
        raise ValueError(f"the mechanisms' runs of {key!r} have different lengths: {[c.size for c in cols]}")
    return np.stack(cols, axis=1)


@contract(
    table=_TABLE, names=_NAMES, first=_KEY, second=_KEY, labels=Instance(tuple, example=("IBU", "INV")), level=_LEVEL
)
def estimator_order(
    table: Mapping[str, Mapping[str, Any]],
    names: Sequence[str],
    first: str,
    second: str,
    labels: tuple[str, str],
    *,
    level: float = 0.95,
) -> dict[str, dict[str, Estimate]]:
    r"""The order "``first`` < ``second``" of two estimators' mean EMDs over the same collections.

    Per mechanism of ``names``: the means of ``runs_<first>`` and ``runs_<second>`` (Hall's
    intervals) and the paired difference :math:`\overline{s - f}` (``second - first``, the mean of the
    per-run differences, :func:`ldpnb.stats.difference` with ``paired=True``), intervals simultaneous
    over the mechanisms.  Returns ``{"values": {A: ..., B: ...}, "differences": {"B - A": ...}}`` with
    ``labels = (A, B)``, for ``report.order``.
    """
    f, s = runs_of(table, names, first), runs_of(table, names, second)
    a, b = labels
    simult = len(names) > 1
    return {
        "values": {a: mean(f, level=level, simultaneous=simult), b: mean(s, level=level, simultaneous=simult)},
        "differences": {f"{b} - {a}": difference(s, f, paired=True, level=level, simultaneous=simult)},
    }


@contract(table=_TABLE, names=_NAMES, num=_KEY, den=_KEY, level=_LEVEL)
def estimator_ratio(
    table: Mapping[str, Mapping[str, Any]], names: Sequence[str], num: str, den: str, *, level: float = 0.95
) -> Estimate:
    """The ratio of two estimators' mean EMDs per mechanism, from the same collections (paired
    Fieller interval, simultaneous over the mechanisms)."""
    return ratio(
        runs_of(table, names, num), runs_of(table, names, den), paired=True, level=level, simultaneous=len(names) > 1
    )


@contract(usweep=Instance(dict, example={}), key=_KEY, level=_LEVEL)
def sweep_steps(
    usweep: Mapping[str, Mapping[str, Any]], key: str = "emd_ibu", *, level: float = 0.95
) -> dict[str, Any]:
    r"""Every step of every frontier sweep, for the order "next <= previous" (row E10).

    For each family and each pair of consecutive sweep points, the mean of ``runs_<key>`` at the two
    points and the difference previous − next of independent collections (Welch's interval),
    simultaneous over all the steps.  Returns ``{"values": {"next", "previous"}, "differences":
    {"previous - next"}, "steps": [(family, parameter before, parameter after), ...]}``.
    """
    prev, nxt, steps = [], [], []
    for name, sw in usweep.items():
        runs = np.asarray(sw[f"runs_{key}"], dtype=float)  # (points, runs)
        prev.append(runs[:-1])
        nxt.append(runs[1:])
        t = np.asarray(sw["param"], dtype=float)
        steps += [(name, float(t[i]), float(t[i + 1])) for i in range(t.size - 1)]
    if not steps:
        raise ValueError("no sweep has two points")
    P, N = np.concatenate(prev).T, np.concatenate(nxt).T  # (runs, steps)
    return {
        "values": {
            "next": mean(N, level=level, simultaneous=True),
            "previous": mean(P, level=level, simultaneous=True),
        },
        "differences": {"previous - next": difference(P, N, paired=False, level=level, simultaneous=True)},
        "steps": steps,
    }


def _accuracy_intervals(r: Mapping[str, Any], cell_level: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(accuracy, low, high) per t of one mechanism: exact at t = 1, Wilson's score interval beyond
    (the attacker's hits over the Monte Carlo draws, a tied guess counted by its share, rounded to a
    count): valid also when no draw succeeds, where a standard error would be 0."""
    acc = np.asarray(r["acc"], dtype=float)
    lo, hi = acc.copy(), acc.copy()
    mc = np.asarray(r["t"]) > 1
    if np.any(mc):
        n = int(r["runs"])
        w = proportion(np.rint(acc[mc] * n).astype(np.int64), n, level=cell_level)
        lo[mc], hi[mc] = np.asarray(w.low), np.asarray(w.high)
        lo[mc], hi[mc] = np.minimum(lo[mc], acc[mc]), np.maximum(hi[mc], acc[mc])
    return acc, lo, hi


@contract(reid=Instance(dict, example={}), level=_LEVEL)
def reid_estimates(reid: Mapping[str, Mapping[str, Any]], *, level: float = 0.95) -> dict[str, Any]:
    r"""Row U1: accuracy / bound per (mechanism, t) where the PIE bound is below 1.

    The accuracy is exact at ``t = 1`` and a Monte Carlo proportion beyond, with Wilson's interval at
    the Bonferroni level over the cells (so the intervals hold jointly); the bound is exact.  Returns
    ``{"ratio": Estimate, "cells": [(mechanism, t), ...], "largest": (mechanism, t)}``; a ratio above
    1 would put the attacker above the bound.
    """
    cells = [(name, int(t)) for name, r in reid.items() for t, b in zip(r["t"], r["bound"]) if b < 1]
    if not cells:
        raise ValueError("the PIE bound is 1 in every cell: nothing to compare")
    cell_level = bonferroni(level, len(cells)) if len(cells) > 1 else level
    vals, lows, highs = [], [], []
    for name, r in reid.items():
        acc, lo, hi = _accuracy_intervals(r, cell_level)
        for i, b in enumerate(r["bound"]):
            if b < 1:
                vals.append(acc[i] / b)
                lows.append(lo[i] / b)
                highs.append(hi[i] / b)
    z = float(_st.norm.ppf(1 - (1 - cell_level) / 2))
    est = Estimate(
        np.array(vals),
        np.array(lows),
        np.array(highs),
        level=level,
        se=(np.array(highs) - np.array(lows)) / (2 * z),
        n_runs=int(min(r["runs"] for r in reid.values())),
        method="wilson",
        simultaneous=len(cells) > 1,
        note="exact at t = 1; Wilson's interval of the Monte Carlo accuracy beyond, over the exact bound",
    )
    return {"ratio": est, "cells": cells, "largest": cells[int(np.argmax(vals))]}


@contract(reid=Instance(dict, example={}), level=_LEVEL)
def reid_steps(reid: Mapping[str, Mapping[str, Any]], *, level: float = 0.95) -> dict[str, Any]:
    r"""Row U2: the accuracies after t = 1, 4, 16 collections per mechanism and the differences of
    consecutive ones, intervals simultaneous over every (mechanism, step).

    Each accuracy has Wilson's interval at the Bonferroni level (exact at t = 1); a difference of two
    independent proportions :math:`\hat p_2 - \hat p_1` has Newcombe's hybrid score interval
    :math:`[d - \sqrt{(\hat p_2 - l_2)^2 + (u_1 - \hat p_1)^2},\ d + \sqrt{(u_2 - \hat p_2)^2 +
    (\hat p_1 - l_1)^2}]` (valid at zero successes, where a normal interval collapses).  Returns
    ``{"values": {"t1", "t4", "t16"}, "differences": {"t4 - t1", "t16 - t4"}}``.

    References
    ----------
    R. G. Newcombe, "Interval estimation for the difference between independent proportions:
    comparison of eleven methods", Statist. Med. 17 (1998) 873-890 (method 10).
    """
    names = list(reid)
    if any(len(reid[n]["t"]) != 3 for n in names):
        raise ValueError("U2 compares t = 1, 4, 16: three accuracies per mechanism")
    cell_level = bonferroni(level, 2 * len(names))
    z = float(_st.norm.ppf(1 - (1 - cell_level) / 2))
    P, L, H = (np.array(x).T for x in zip(*(_accuracy_intervals(reid[n], cell_level) for n in names)))
    runs = int(min(reid[n]["runs"] for n in names))

    def est(v, lo, hi, note):
        return Estimate(
            v,
            np.minimum(lo, v),
            np.maximum(hi, v),
            level=level,
            se=(hi - lo) / (2 * z),
            n_runs=runs,
            method="wilson",
            simultaneous=True,
            note=note,
        )

    values = {f"t{t}": est(P[i], L[i], H[i], "exact at t = 1, Wilson beyond") for i, t in enumerate((1, 4, 16))}
    diffs = {}
    for a, b in ((0, 1), (1, 2)):
        d = P[b] - P[a]
        lo = d - np.sqrt((P[b] - L[b]) ** 2 + (H[a] - P[a]) ** 2)
        hi = d + np.sqrt((H[b] - P[b]) ** 2 + (P[a] - L[a]) ** 2)
        diffs[f"t{(1, 4, 16)[b]} - t{(1, 4, 16)[a]}"] = est(d, lo, hi, "Newcombe's hybrid score interval")
    return {"values": values, "differences": diffs}


@contract(table=_TABLE, ref_runs=Array(1, min_size=2), names=_NAMES, key=_KEY, level=_LEVEL)
def matched_order(
    table: Mapping[str, Mapping[str, Any]],
    ref_runs: Any,
    names: Sequence[str],
    key: str = "emd_ibu",
    *,
    level: float = 0.95,
) -> dict[str, dict[str, Estimate]]:
    """Row M1: each matched mechanism's mean EMD against the reference's (k-RR at 1-LDP), from
    independent collections: ``{"values": {"metric", "kRR"}, "differences": {"kRR - metric"}}``
    (Welch, simultaneous over the mechanisms)."""
    m = runs_of(table, names, key)
    r = np.repeat(np.asarray(ref_runs, dtype=float)[:, None], len(names), axis=1)
    simult = len(names) > 1
    return {
        "values": {
            "metric": mean(m, level=level, simultaneous=simult),
            "kRR": mean(r, level=level, simultaneous=simult),
        },
        "differences": {"kRR - metric": difference(r, m, paired=False, level=level, simultaneous=simult)},
    }


@contract(
    num=Array(None, min_size=2, low=0.0),
    den=Array(None, min_size=2, low=0.0),
    level=_LEVEL,
    simultaneous=Instance(bool, type(None), example=None),
)
def gain(num: Any, den: Any, *, level: float = 0.95, simultaneous: bool | None = None) -> Estimate:
    r"""Relative gain :math:`1 - \bar a/\bar b` of an estimator with per-run squared errors ``num``
    over one with ``den``, from the same collections (runs along axis 0; paired Fieller interval of
    the ratio, simultaneous over the other axes unless ``simultaneous=False``).

    >>> import numpy as np
    >>> g = gain(np.array([1.0, 1.1, 0.9, 1.0]), np.array([2.0, 2.1, 1.9, 2.0]))
    >>> round(float(g.value), 3)
    0.5
    """
    a, b = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    if simultaneous is None:
        simultaneous = a.ndim > 1 and a[0].size > 1
    r = ratio(a, b, paired=True, level=level, simultaneous=simultaneous)
    return Estimate(
        1 - np.asarray(r.value),
        1 - np.asarray(r.high),
        1 - np.asarray(r.low),
        level=r.level,
        se=r.se,
        n_runs=r.n_runs,
        method=r.method,
        simultaneous=r.simultaneous,
        note=r.note,
    )


@contract(gains=Instance(dict, example={}), names=_NAMES, low=Integer(0, 64), high=Integer(0, 64), level=_LEVEL)
def gain_estimates(
    gains: Mapping[str, Any], names: Sequence[str], low: int, high: int, *, level: float = 0.95
) -> dict[str, Any]:
    r"""Rows A23, A23b, A23w from the per-run squared errors of :func:`experiments.ibu_gain_by_eps`
    (``gains["runs"][name][i] = (MI, IBU whole channel, IBU support counts)`` at level index ``i``).

    ``support_low``: the gain of support-count IBU over MI at level index ``low`` (simultaneous over
    ``names``); ``support_drop``: its gain at ``low`` minus at ``high`` (independent collections,
    delta-method standard errors in quadrature, normal intervals simultaneous over ``names``);
    ``full_vs_support``: the order "full < support" of the two IBUs' mean squared errors at ``high``
    (paired differences).
    """
    R = gains["runs"]
    mi_lo = np.stack([R[n][low][0] for n in names], axis=1)
    sup_lo = np.stack([R[n][low][2] for n in names], axis=1)
    mi_hi = np.stack([R[n][high][0] for n in names], axis=1)
    sup_hi = np.stack([R[n][high][2] for n in names], axis=1)
    full_hi = np.stack([R[n][high][1] for n in names], axis=1)
    g_lo = gain(sup_lo, mi_lo, level=level)
    g_hi = gain(sup_hi, mi_hi, level=level)
    drop = from_se(
        np.asarray(g_lo.value) - np.asarray(g_hi.value),
        np.hypot(g_lo.se, g_hi.se),
        level=level,
        simultaneous=len(names) > 1,
    )
    simult = len(names) > 1
    order = {
        "values": {
            "full": mean(full_hi, level=level, simultaneous=simult),
            "support": mean(sup_hi, level=level, simultaneous=simult),
        },
        "differences": {"support - full": difference(sup_hi, full_hi, paired=True, level=level, simultaneous=simult)},
    }
    return {"support_low": g_lo, "support_high": g_hi, "support_drop": drop, "full_vs_support": order}


@contract(gains=Instance(dict, example={}), level=_LEVEL)
def gain_curves(gains: Mapping[str, Any], *, level: float = 0.95) -> dict[str, dict[str, Estimate]]:
    """Pointwise gains of IBU over MI per oracle along the levels (for the figure): ``{name: {"whole":
    Estimate (levels,), "support": Estimate (levels,)}}``, each point's interval at ``level`` (not
    simultaneous)."""
    out = {}
    for name, per in gains["runs"].items():
        mi, full, sup = (np.stack([p[i] for p in per], axis=1) for i in range(3))
        out[name] = {
            "whole": gain(full, mi, level=level, simultaneous=False),
            "support": gain(sup, mi, level=level, simultaneous=False),
        }
    return out


@contract(runs=Array(2, min_size=2), level=_LEVEL)
def point_intervals(runs: Any, *, level: float = 0.95) -> Estimate:
    """The mean of each point of a sweep with its pointwise interval (Hall), from ``(points, runs)``."""
    return mean(np.asarray(runs, dtype=float).T, level=level)


@contract(x=Array(1, min_size=1), rtol=Real(0.0, 1.0))
def tie_of(x: Any, rtol: float = TIE_REL) -> float:
    """The absolute tie tolerance of a lens: ``rtol`` times its largest finite magnitude.

    >>> tie_of([0.5, 2.0, -1.0])
    2e-09
    """
    a = np.abs(np.asarray(x, dtype=float))
    a = a[np.isfinite(a)]
    return float(rtol * a.max()) if a.size else 0.0


def _finite(x: np.ndarray) -> np.ndarray:
    """Infinite values (an infinite ε-LDP level) as a value above every finite one."""
    x = np.asarray(x, dtype=float)
    fin = x[np.isfinite(x)]
    top = (fin.max() + 1.0 + abs(fin.max())) if fin.size else 1.0
    return np.where(np.isposinf(x), top, x)


@contract(x=Array(1, min_size=2), y=Array(1, min_size=2), interval=Instance(str, type(None), example=None))
def tau(x: Any, y: Any, interval: str | None = None) -> Estimate:
    r"""Kendall's :math:`\tau_b` of two exact lenses over the mechanisms, values within
    :func:`tie_of` of each other tied (:func:`ldpnb.stats.kendall_tau`); with ``interval="jackknife"``
    its 95 % jackknife interval over the mechanisms."""
    x, y = _finite(x), _finite(y)
    return kendall_tau(x, y, tie=tie_of(x), tie_y=tie_of(y), interval=interval)


@contract(scores=Instance(dict, example={"a": [1.0, 2.0], "b": [2.0, 1.0]}))
def tau_matrix(scores: Mapping[str, Any]) -> dict[tuple[str, str], float]:
    """τ-b with ties (:func:`tau`) between every pair of lenses; NaN where a lens is constant."""
    out = {}
    for a, b in combinations(scores, 2):
        try:
            out[(a, b)] = float(tau(scores[a], scores[b]).value)
        except ValueError:
            out[(a, b)] = float("nan")
    return out


@contract(
    info=Array(1, min_size=2),
    emd_runs=Instance(list, tuple, example=[np.ones(3), np.zeros(3)]),
    names=_NAMES,
    level=_LEVEL,
)
def discordant_pairs(
    info: Any, emd_runs: Sequence[Any], names: Sequence[str], *, level: float = 0.95
) -> list[tuple[str, str]]:
    r"""The pairs of mechanisms that the information lens and the EMD order in opposite directions.

    ``info`` is exact: a pair is ordered when its two values differ by more than :func:`tie_of`.
    ``emd_runs`` holds each mechanism's EMDs over its own independent collections (any number of
    runs): a pair is ordered when Welch's interval of the difference of the mean EMDs, simultaneous
    over all the pairs (Bonferroni), excludes 0; otherwise it is tied (within Monte Carlo noise).
    Discordant: ordered by both, more information going with a larger EMD (a worse estimate).
    """
    x = np.asarray(info, dtype=float)
    runs = [np.asarray(r, dtype=float) for r in emd_runs]
    if len(runs) != x.size or len(names) != x.size:
        raise ValueError(
            f"info, emd_runs and names need one entry per mechanism, got {x.size}, {len(runs)}, {len(names)}"
        )
    pairs = list(combinations(range(len(names)), 2))
    cell_level = bonferroni(level, len(pairs))
    tie = tie_of(x)
    out = []
    for a, b in pairs:
        d = difference(runs[b], runs[a], paired=False, level=cell_level)
        emd_sign = 1 if float(d.low) > 0 else -1 if float(d.high) < 0 else 0
        dx = x[b] - x[a]
        info_sign = 0 if abs(dx) <= tie else int(np.sign(dx))
        if info_sign * emd_sign > 0:
            out.append((names[a], names[b]))
    return out
