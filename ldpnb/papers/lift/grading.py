"""The numbers that decide the lift chapter's claims (``ldpnb.papers.lift.claims``), computed from
the sweeps of :mod:`ldpnb.papers.lift.experiments`.

Each function takes the data of one part of the chapter and returns ``{claim id: numbers}`` in the
form :meth:`ldpnb.repro.report.Report.record` takes (an :class:`ldpnb.stats.Estimate` as ``ours``,
with a ``note``, for a ``close`` or ``range`` claim; the named exact numbers of a ``holds`` rule),
plus the key ``"_text"``: formatted values the chapter's prose quotes (``report.text``). The
criteria themselves are declared in ``claims.py``; nothing here decides a status.
"""

from __future__ import annotations

import math
from typing import Any, Mapping

import numpy as np
import pandas as pd

from ldpnb.contracts import SEED, Array, Instance, Integer, Optional, Probability, contract
from ldpnb.measures.lift import lift_matrix
from ldpnb.papers.lift import experiments as ex
from ldpnb.papers.lift.claims import BUDGET_TOL, TIE
from ldpnb.papers.lift.theory import endpoint_consistency, relaxation_counterexample, vertex_bound
from ldpnb.stats import Estimate, difference, mean, proportion, ratio
from ldpnb.utils import check_random_state

__all__ = [
    "FIG1_PRINTED",
    "prediction_interval",
    "fig1",
    "propositions",
    "errata",
    "watchdog",
    "fig2",
    "fig3",
    "algorithm1",
    "fig4",
    "leakage",
    "fig5",
    "timing",
    "complexity",
    "algorithm2",
    "fig6",
    "lift_measures",
    "alpha",
]

LAMS = (0.35, 0.5, 0.65)
_DF = Instance(pd.DataFrame, example=pd.DataFrame())
_MAP = Instance(dict, example={})
_EST = Instance(Estimate, example=Estimate(0.0, -1.0, 1.0, method="t", n_runs=10))
_QS = ("min_leak", "max_leak")
_NMI, _NATS, _SYM = TIE["nmi"], TIE["nats"], TIE["symbols"]


# ----------------------------------------------------------------------------- helpers


def _cells(*parts: Estimate, level: float | None = None, note: str = "") -> Estimate:
    """The cells of several estimates of the same runs as one (``level``: the joint level of the
    whole, by default the first part's)."""

    def flat(p, k):
        x = getattr(p, k)
        return np.ravel(np.asarray(np.full(np.shape(p.value), np.nan) if x is None else x, dtype=float))

    v, lo, hi, se = (np.concatenate([flat(p, k) for p in parts]) for k in ("value", "low", "high", "se"))
    first = next(p for p in parts if not p.exact)
    return Estimate(
        v,
        lo,
        hi,
        level=level or first.level,
        se=se,
        n_runs=first.n_runs,
        method=first.method,
        simultaneous=True,
        note=note or first.note,
    )


def _cell(e: Estimate, i: int) -> Estimate:
    """Cell ``i`` of an estimate (its value and interval)."""
    value, low, high = (float(np.ravel(np.asarray(x, dtype=float))[i]) for x in (e.value, e.low, e.high))
    return Estimate(value, low, high, level=e.level, n_runs=e.n_runs, method=e.method)


def _exact_cell(value: float) -> Estimate:
    return Estimate(value, value, value, level=1.0, se=0.0, method="exact")


def _counts(info: Mapping, unit: str, n: int | None = None) -> str:
    runs = f"{n:,} distributions; " if n else ""
    return (
        f"{runs}{info['points']} differences ({unit}): {info['above']} decided above the tie, {info['below']} "
        f"below minus the tie, {info['undecided']} undecided."
    )


def _above(df, groups, *, unit: str, instance: float | None = None, level: float = ex.LEVEL) -> dict:
    """An "A is above B" row: :func:`~ldpnb.papers.lift.experiments.order_estimate` of ``groups``,
    with an exact last cell (the smallest per-distribution difference) when ``instance`` is given."""
    est, info = ex.order_estimate(df, groups, level=level)
    note = _counts(info, unit, est.n_runs)
    if instance is not None:
        est = _cells(est, _exact_cell(instance), note=est.note)
        note += f" Smallest difference on a single distribution: {instance:.3g}."
    return {"ours": est, "note": note, "_info": info}


def _pop_info(numbers: dict) -> dict:
    """The numbers without the helper's ``_info`` entries (the report takes the claims' only)."""
    return {
        k: ({kk: vv for kk, vv in v.items() if kk != "_info"} if isinstance(v, dict) else v) for k, v in numbers.items()
    }


def _worst(tab: pd.DataFrame, col: str = "excess") -> str:
    w = tab.loc[tab[col].idxmax()]
    return (
        f"{w['excess']:+.3f} [{w['low']:+.3f}, {w['high']:+.3f}] nats ({str(w['curve']).split(' ', 1)[-1]}, "
        f"{'min' if w['q'] == 'min_leak' else ('max' if w['q'] == 'max_leak' else 'Γ')}-lift, "
        f"ε = {w['eps']:g})"
    )


def _budget(df, lams, **kw) -> tuple[dict, pd.DataFrame]:
    est, tab = ex.budget_estimate(df, lams, **kw)
    above = int(np.sum(tab["low"] > BUDGET_TOL))
    below = int(np.sum(tab["high"] <= BUDGET_TOL))
    worst = ex.extreme(est, "max")
    note = (
        f"{len(tab)} points: {above} decided above the budget + 0.01 nats, {below} decided below it, "
        f"{len(tab) - above - below} undecided; worst {_worst(tab)}. The row's estimate is that largest excess "
        f"with the interval [largest lower end, largest upper end] over the points, [{float(worst.low):+.3f}, "
        f"{float(worst.high):+.3f}] (valid jointly; wider than the worst point's own)."
    )
    return {"ours": worst, "note": note}, tab


def _point(df, curve: str, eps: float, q: str = "nmi") -> np.ndarray:
    """The runs of ``q`` along ``curve`` at ``eps`` (one per distribution)."""
    return ex.curve_runs(df, curve, q=q, eps=[eps]).to_numpy()[:, 0]


def _fmt(e: Estimate, digits: int = 3) -> str:
    v, lo, hi = (float(np.ravel(np.asarray(x))[0]) for x in (e.value, e.low, e.high))
    return f"{v:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


# ----------------------------------------------------------------------------- Fig. 1


#: Fig. 1's printed end points as the intervals that print as the paper's digits (Sec. III).
FIG1_PRINTED = {
    "psi_min": (-12.5, -11.5),
    "psi_max": (-0.065, -0.055),
    "lam_min": (0.015, 0.025),
    "lam_max": (1.635, 1.645),
}


@contract(runs=Array(1, min_size=2), level=Probability(open_left=True, open_right=True))
def prediction_interval(runs, *, level: float = 0.99) -> tuple[float, float, float]:
    r"""A distribution-free prediction interval for one more run: the order statistics
    :math:`[x_{(j)}, x_{(n+1-j)}]` of ``n`` independent runs hold a new run of the same distribution
    with probability :math:`(n + 1 - 2j)/(n + 1)`; ``j`` is the largest index that reaches
    ``level`` (``j = 1``, the range of the runs, when none does). Returns ``(low, high, its level)``.

    Examples
    --------
    >>> prediction_interval(np.arange(1.0, 200.0), level=0.99)
    (1.0, 199.0, 0.99)
    """
    x = np.sort(np.asarray(runs, dtype=float))
    n = x.size
    j = max(1, math.floor((n + 1) * (1 - level) / 2))
    return float(x[j - 1]), float(x[n - j]), (n + 1 - 2 * j) / (n + 1)


def _peak_counts(values: np.ndarray, n_dist: int, bins: np.ndarray, top: int) -> np.ndarray:
    """Per distribution, the counts in the ``top`` highest bins of the pooled histogram."""
    k = np.searchsorted(bins, values, side="right") - 1
    k = np.where(values == bins[-1], bins.size - 2, k)
    ok = (k >= 0) & (k < bins.size - 1)
    row = np.repeat(np.arange(n_dist), values.size // n_dist)
    counts = np.zeros((n_dist, bins.size - 1))
    np.add.at(counts, (row[ok], k[ok]), 1.0)
    return counts[:, np.argsort(counts.sum(axis=0))[::-1][:top]]


def _peak_ratio(a, b, *, axis):
    return np.max(np.sum(a, axis=axis), axis=-1) / np.max(np.sum(b, axis=axis), axis=-1)


@contract(samples=_MAP, runs=_MAP, rng=SEED)
def fig1(samples: Mapping[str, np.ndarray], runs: Mapping[str, np.ndarray], *, rng: Any = None) -> dict:
    """F1.*: end points against the order-statistic prediction intervals of the run extremes, the
    joint consistency of the four printed end points with one run
    (:func:`~ldpnb.papers.lift.theory.endpoint_consistency`), the tail share, the ratio of the
    histogram peaks (BCa bootstrap over the distributions) and of the masses on the argmax/argmin
    pairs (Fieller)."""
    pred = {k: prediction_interval(v) for k, v in runs.items()}
    n = len(samples["mass_max"])
    tail = mean(np.mean(np.abs(samples["log_psi"].reshape(n, -1)) >= 6, axis=1))
    bins = np.arange(-13, 2.0001, 0.05)
    lam, psi = (_peak_counts(samples[k], n, bins, 16) for k in ("log_lambda", "log_psi"))
    peaks = ex.bootstrap_estimate(_peak_ratio, (lam, psi), paired=True, rng=rng)
    mass = ratio(samples["mass_max"], samples["mass_min"], paired=True)
    ends = {"F1.1": ("psi_min", "psi_max"), "F1.2": ("lam_min", "lam_max")}
    out = {
        cid: {
            "min_lo": pred[a][0],
            "min_hi": pred[a][1],
            "max_lo": pred[b][0],
            "max_hi": pred[b][1],
            "level": min(pred[a][2], pred[b][2]),
            "runs": len(runs[a]),
        }
        for cid, (a, b) in ends.items()
    }
    m = {k: float(np.mean(samples[k])) for k in ("mass_max", "mass_min", "mass_max_floor", "mass_min_ceiling")}
    joint = endpoint_consistency(dict(runs), FIG1_PRINTED)
    out.update(
        {
            "F1.joint": joint,
            "F1.3": {"ours": tail},
            "F1.4": {"ours": peaks},
            "F1.5": {
                "ours": mass,
                "note": f"Floor and ceiling implied by Λ ≥ 1 ≥ Ψ: {m['mass_max_floor']:.3f} and "
                f"{m['mass_min_ceiling']:.3f}; measured {m['mass_max']:.3f} and "
                f"{m['mass_min']:.3f}.",
            },
        }
    )
    out["_text"] = {
        **{f"q-{k.replace('_', '')}": f"[{v[0]:.3g}, {v[1]:.3g}]" for k, v in pred.items()},
        "predlevel": f"{100 * min(v[2] for v in pred.values()):.1f}%",
        "joint": f"{joint['p_value']:.2f}",
        "tail": _fmt(tail, 4),
        "peaks": _fmt(peaks, 2),
    }
    return out


# ----------------------------------------------------------------------------- propositions


_TRUE = ("P1.1", "P1.3", "P1.4", "P3.3", "P4", "P5.3", "P6")
_ERRATA = {"P1.2": ("P1.2",), "P3.1-2": ("P3.1", "P3.2"), "P5.1-2": ("P5.1", "P5.2")}


@contract(violations=_DF, n_instances=Integer(1, None))
def propositions(violations, n_instances: int) -> dict:
    """P1.1 ... P6: violations of the true inequalities (printed or corrected variants excluded)."""
    out = {}
    for pid in _TRUE:
        sel = [b for b in violations.index if b.startswith(pid) and "_printed" not in b]
        out[pid] = {"violations": int(violations.loc[sel, "violations"].sum()), "instances": n_instances}
    return out


@contract(violations=_DF, checks=_MAP)
def errata(violations, checks: Mapping[str, Mapping[str, Any]]) -> dict:
    """P1.2, P3.1-2, P5.1-2: the printed bounds on the counterexample (``checks``: the
    :func:`~ldpnb.papers.lift.theory.proposition_checks` of C1 or C2 per claim) and on the random
    mechanisms, and the corrected bounds."""
    out = {}
    for pid, keys in _ERRATA.items():
        ck = checks[pid]
        v_cx = sum(not ck[k].holds for k in ck if k.startswith(keys) and k.endswith("_printed"))
        printed = [b for b in violations.index if b.startswith(keys) and b.endswith("_printed")]
        corrected = [b for b in violations.index if b.startswith(keys) and b.endswith("_corrected")]
        v_rand = int(violations.loc[printed, "violations"].sum())
        out[pid] = {
            "violations": v_cx + v_rand,
            "counterexample_violations": v_cx,
            "random_violations": v_rand,
            "corrected_violations": int(violations.loc[corrected, "violations"].sum()),
        }
    return out


@contract(ac=_MAP, mono=_MAP, ref=_MAP, p7=_MAP, ids=_MAP)
def watchdog(ac: Mapping, mono: Mapping, ref: Mapping, p7: Mapping, ids: Mapping) -> dict:
    """I4, I5, E11, E11.mono, D4, T1, P2, P7 from the analytic checks of :mod:`~ldpnb.papers.lift.theory`."""
    return {
        "I4": {"eq4_rel": ids["eq4_rel"], "n": ids["n"]},
        "I5": {k: v for k, v in ids.items() if k != "eq4_rel"},
        "E11": {"max_err": ac["closed_form_max_err"], "n": ac["n"]},
        "E11.mono": dict(mono),
        "D4": dict(ref),
        "T1": {"violations": ac["theorem1_violations"], "instances": ac["n"]},
        "P2": {"violations": ac["prop2_violations"], "instances": ac["n"]},
        "P7": dict(p7),
        "_text": {"singletons": f"{mono['singleton_pairs']:,}"},
    }


# ----------------------------------------------------------------------------- Figs. 2-4


def _lam_groups(prefix: str) -> list:
    return [([(f"{prefix} 0.65", f"{prefix} 0.5", {"eps_min": 1.25}), (f"{prefix} 0.5", f"{prefix} 0.35")], _NMI, True)]


def _instance_min(df, pairs, qs=("nmi",), mask=None) -> float:
    return min(ex.instance_min(df, hi, lo, q=q, mask=mask)[0] for hi, lo in pairs for q in qs)


def _violations(df, pairs, q: str = "nmi", mask=None) -> tuple[int, int]:
    """Instances (distribution, epsilon) where ``lo`` exceeds ``hi`` by more than 1e-9, and how many
    were compared, over the pairs ``(hi, lo)``."""
    d = [_diffs(df, hi, lo, q) for hi, lo in pairs]
    if mask is not None:
        d = [x[mask.reindex(x.index).fillna(False).astype(bool)] for x in d]
    return sum(int((x < -1e-9).sum()) for x in d), sum(int(x.size) for x in d)


@contract(wd=_DF, rng=SEED)
def fig2(wd, *, rng: Any = None) -> dict:
    """H1 and the orderings of Fig. 2 (complete merging); ``rng``: the crossover's bootstrap."""
    h1 = mean(_point(wd, "CM ALIP 0.5", 2.0))
    pairs = [("CM LDP", f"CM ALIP {lam}") for lam in LAMS]
    v, n = _violations(wd, pairs)
    xh = [c for lam in (0.2, 0.35, 0.45) for c in [(f"CM ALIP {lam}", "CM ALIP 0.5", {"q": "n_high"})]]
    out = {
        "H1": {"ours": h1},
        "F2.P2": {"violations": int(v), "instances": int(n)},
        "F2.lk": _above(
            wd,
            [([(hi, lo, {"q": q}) for hi, lo in pairs for q in _QS], _NATS, True)],
            unit="nats",
            instance=_instance_min(wd, pairs, _QS),
        ),
        "F2.lam": _above(wd, _lam_groups("CM ALIP"), unit="NMI"),
        "F2.cross": {"ours": ex.crossover_estimate(wd, "CM ALIP 0.65", "CM ALIP 0.5", rng=rng)},
        "F2.lamXH": _above(
            wd,
            [([("CM ALIP 0.5", f"CM ALIP {lam}") for lam in (0.2, 0.35, 0.45)], _NMI, True), (xh, _SYM, True)],
            unit="NMI, then symbols",
        ),
    }
    out["_text"] = {"h1": _fmt(h1), "cross2": _fmt(out["F2.cross"]["ours"], 2)}
    return _pop_info(out)


@contract(od=_DF, od_all=_DF, joints=Array(3, low=0), perfect=Array(1), h3=Array(1, min_size=2), rng=SEED)
def fig3(od, od_all, joints, perfect, h3, *, rng: Any = None) -> dict:
    """H3 (``h3``: AORR's NMI at lambda = 0.5, eps = 2 on H3's distributions) and the AORR claims of
    Fig. 3 (``joints``: the distributions of the sweep; ``perfect``: the NMI of their perfect-privacy
    responses)."""
    aorr = od[od.method == "aorr"]
    a5 = aorr[aorr.curve == "AORR ALIP 0.5"]
    L = [lift_matrix(P) for P in joints]
    raw = np.array([[-np.log(x.min()), np.log(x.max())] for x in L])[a5.dist]
    eps = a5.eps.to_numpy()
    act = (raw[:, 0] > 0.5 * eps) & (eps <= 4)
    cm5 = od_all[od_all.curve == "CM ALIP 0.5"]
    ok_eps = [e for e, v in cm5.groupby("eps").violates.sum().items() if v == 0]
    private = ~cm5.set_index(["dist", "eps"]).violates.astype(bool)
    low = a5[a5.eps == a5.eps.min()].sort_values("dist").nmi.to_numpy()
    est = mean(h3)
    out = {
        "H3": {"ours": est, "note": f"{len(h3)} distributions."},
        "F3.priv": {"violations": int(aorr.violates.sum()), "instances": len(aorr)},
        "F3.bind": {
            "not_binding": int(np.sum(np.abs(a5.min_leak.to_numpy() - 0.5 * eps)[act] > 1e-6)),
            "instances": int(act.sum()),
        },
        "F3.sat": {
            "over": float(np.max(a5.max_leak.to_numpy() - np.minimum(0.5 * eps, raw[:, 1]))),
            "shortfall_small": float(np.mean((0.5 * eps - a5.max_leak.to_numpy())[eps <= 1])),
        },
        "F3.leak": _above(
            od_all,
            [([("AORR ALIP 0.5", "CM ALIP 0.5", {"q": "min_leak", "eps_in": ok_eps})], _NATS, True)],
            unit="nats",
        ),
        "F3.lam": _above(od_all, _lam_groups("AORR ALIP"), unit="NMI"),
        "F3.cross": {"ours": ex.crossover_estimate(od_all, "AORR ALIP 0.65", "AORR ALIP 0.5", rng=rng)},
        "F3.vsCM": _above(
            od_all,
            [([("AORR ALIP 0.5", "CM ALIP 0.5")], _NMI, True)],
            unit="NMI",
            instance=_instance_min(od_all, [("AORR ALIP 0.5", "CM ALIP 0.5")], mask=private),
        ),
        "F3.lim": {
            "violations": int(np.sum(low < perfect - 1e-9)),
            "instances": len(low),
            "note": f"Perfect-privacy limit {perfect.mean():.3f} on average; AORR at the smallest ε {low.mean():.3f}.",
        },
    }
    lam = out["F3.lam"]
    low = lam["_info"]["lowest"]
    out["_text"] = {
        "h3": _fmt(est),
        "perfect": f"{perfect.mean():.3f}",
        "f3lam": _fmt(lam["ours"], 4),
        "f3lamat": (
            f"λ = {low[0].split(' - ')[0].rsplit(' ', 1)[-1]} against "
            f"{low[0].split(' - ')[1].rsplit(' ', 1)[-1]} at ε = {low[1]:g}"
        )
        if low
        else "n/a",
    }
    return _pop_info(out)


@contract(wd=_DF, printed_loop=Array(1, min_size=2), gaps=Array(1, min_size=1))
def algorithm1(wd, printed_loop, gaps) -> dict:
    """H2, H2.ratio (Fieller's interval of the ratio of paired means), A1 (``printed_loop``: NMI per
    distribution with the printed outer loop) and A1.opt (``gaps``: optimal - greedy NMI per
    instance)."""
    sm, cm = _point(wd, "SM ALIP 0.5", 2.0), _point(wd, "CM ALIP 0.5", 2.0)
    h2 = mean(sm)
    r = ratio(sm, cm, paired=True)
    r1 = Estimate(r.value - 1, r.low - 1, r.high - 1, level=r.level, se=r.se, n_runs=r.n_runs, method=r.method)
    omega = _point(wd, "SM ALIP 0.5 printed omega", 2.0)
    a1 = mean(np.column_stack([omega, printed_loop]), simultaneous=True)
    return {
        "H2": {"ours": h2},
        "H2.ratio": {"ours": r1},
        "A1": {"ours": a1, "note": f"Corrected reading (H2): {_fmt(h2)}."},
        "A1.opt": {"min_gap": float(min(gaps)), "instances": len(gaps), "mean_gap": float(np.mean(gaps))},
        "_text": {
            "a1": f"corrected reading {_fmt(h2)}, printed ω {_fmt(a1[0])}, printed outer loop "
            f"{_fmt(a1[1])} (complete merging {cm.mean():.3f})",
            "h2": _fmt(h2),
            "h2ratio": _fmt(r1),
            "optgap": f"{np.mean(gaps):.4f}",
        },
    }


@contract(wd=_DF, rng=SEED)
def fig4(wd, *, rng: Any = None) -> dict:
    """The orderings of Fig. 4 (subset merging); ``rng``: the crossover's bootstrap."""
    sm = [("SM LDP", f"SM ALIP {lam}") for lam in LAMS]
    n_exc, n = _violations(wd, sm)
    enh = [(f"SM {c}", f"CM {c}") for c in ("LDP", *(f"ALIP {lam}" for lam in LAMS))]
    p2 = _above(wd, [(sm, _NMI, True)], unit="NMI")
    p2["note"] += f" Per distribution ALIP is above LDP on {n_exc / n:.1%} of the pairs."
    out = {
        "F4.P2": p2,
        "F4.enh": _above(wd, [(enh, _NMI, True)], unit="NMI", instance=_instance_min(wd, enh)),
        "F4.lam": _above(wd, _lam_groups("SM ALIP"), unit="NMI"),
        "F4.cross": {"ours": ex.crossover_estimate(wd, "SM ALIP 0.65", "SM ALIP 0.5", rng=rng)},
        "_text": {"p2exc": f"{n_exc / n:.1%}"},
    }
    return _pop_info(out)


def _diffs(df, hi: str, lo: str, q: str = "nmi") -> pd.Series:
    a = df[df["curve"] == hi].set_index(["dist", "eps"])[q]
    b = df[df["curve"] == lo].set_index(["dist", "eps"])[q]
    return (a - b).dropna()


@contract(wd=_DF, S=_DF)
def leakage(wd, S) -> dict:
    """F4.leak, F2.leak (mean leakages against the budgets), F2.inst (per distribution), F4.same and
    the repair extension F4.fix (``S``: :func:`~ldpnb.papers.lift.experiments.summarise` of ``wd``)."""
    sm = {f"SM ALIP {lam}": lam for lam in LAMS} | {"SM LDP": None}
    cm = {f"CM ALIP {lam}": lam for lam in LAMS} | {"CM LDP": None}
    fix = {f"{c} repaired": lam for c, lam in sm.items()}
    f4, tab4 = _budget(wd, sm)
    f2, _ = _budget(wd, cm)
    flags = {c: wd[wd.curve == c].sort_values(["eps", "dist"]).violates.to_numpy() for c in (*sm, *cm)}
    counts = wd[wd.curve.isin([*sm, *cm])].groupby(["curve", "eps"]).violates.agg(["sum", "count"])
    rates = proportion(
        counts["sum"].to_numpy().astype(int), counts["count"].to_numpy().astype(int), level=ex.LEVEL, simultaneous=True
    )
    bad = wd[wd.curve.isin(list(sm)) & wd.violates]
    drop = max(float((_mean_curve(S, c) - _mean_curve(S, f"{c} repaired")).max()) for c in sm)
    extra = np.concatenate(
        [wd[wd.curve == f"{c} repaired"].n_merged.to_numpy() - wd[wd.curve == c].n_merged.to_numpy() for c in sm]
    )
    rate = ex.extreme(rates, "max")
    above4 = int(np.sum(tab4["low"] > BUDGET_TOL))
    return {
        "F4.leak": f4,
        "F2.leak": f2,
        "F2.inst": {
            "violations": int(counts["sum"].sum()),
            "instances": int(counts["count"].sum()),
            "note": f"Largest share above budget at one point: {_fmt(rate)} (Wilson, 99 % simultaneous "
            f"over the {len(counts)} points). {len(bad):,} violating instances of subset merging, "
            f"{np.mean(bad.n_high == 1):.1%} with a single high-risk symbol.",
        },
        "F4.same": {
            "mismatches": int(sum(np.sum(flags["SM" + c[2:]] != flags[c]) for c in cm)),
            "instances": int(sum(len(flags[c]) for c in cm)),
        },
        "F4.fix": {
            "violations": int(wd[wd.curve.isin(list(fix))].violates.sum()),
            "instances": int(wd.curve.isin(list(fix)).sum()),
            "max_nmi_drop": drop,
        },
        "_text": {
            "above4": f"{above4} of {len(tab4)}",
            "worst4": _worst(tab4),
            "maxrate": f"{float(rate.value):.0%}",
            "single": f"{np.mean(bad.n_high == 1):.0%}",
            "fixcost": f"{drop:.3f}",
            "absorbed": f"{np.mean(extra[extra > 0] == 1):.1%}" if (extra > 0).any() else "none",
        },
    }


def _mean_curve(summary, curve: str, q: str = "nmi") -> pd.Series:
    return summary[summary["curve"] == curve].set_index("eps")[q].sort_index()


# ----------------------------------------------------------------------------- Fig. 5, Sec. V


def _time_ratios(a, r, m, *, axis, srr_cols):
    ma, mr, mm = (np.median(x, axis=axis) for x in (a, r, m))
    return np.stack([np.min(ma / mm, axis=-1), np.min((mr / mm)[..., srr_cols], axis=-1)], axis=-1)


@contract(od=_DF, od_all=_DF, leak=Optional(_DF), rng=SEED)
def fig5(od, od_all, *, leak=None, rng: Any = None) -> dict:
    """F5.ord, F5.close, F5.inst, F5.budget, F5.leak and F5.time: SRR against AORR and subset merging
    at lambda = 0.65 (``leak``: SRR and subset merging on the distributions of F5.leak, by default
    ``od_all``'s; ``rng``: the bootstrap of the time ratios)."""
    A, R, M = "AORR ALIP 0.65", "SRR ALIP 0.65", "SM timed ALIP 0.65"
    srr = od[od.curve == R]
    a, r = ex.paired_runs(od_all, A, R, cap=None)
    gap = ex.extreme(difference(a.to_numpy(), r.to_numpy(), paired=True, level=ex.LEVEL, simultaneous=True), "max")
    am, mm = ex.paired_runs(od_all, A, M, cap=None)
    g = difference(am.to_numpy(), mm.to_numpy(), paired=True, level=ex.LEVEL, simultaneous=True)
    sig = am.columns[np.asarray(g.low) > 0]
    means = {c: ex.curve_runs(od_all, c).mean() for c in (A, R, M)}
    share = ((means[R] - means[M]) / (means[A] - means[M]))[sig]
    ok = ~od_all[od_all.curve == R].set_index(["dist", "eps"]).fallback.astype(bool)
    inst = [_violations(od_all, [(R, M)]), _violations(od_all, [(A, R)], mask=ok)]
    times = {c: ex.curve_runs(od, c, q="time") for c in (A, R, M)}
    high = srr.groupby("eps").n_high.apply(lambda v: np.mean(v > 0))
    cols = np.flatnonzero(high.reindex(times[A].columns).fillna(0.0).to_numpy() >= 0.5)
    med = {c: t.median() for c, t in times.items()}
    below = [float(e) for e in times[A].columns[cols] if med[R][e] < 10 * med[M][e]]
    block = srr.groupby("eps").largest_block.median()
    fallback = float(srr.groupby("eps").fallback.mean().max())
    if cols.size:
        tr = ex.bootstrap_estimate(
            lambda a, r, m, axis: _time_ratios(a, r, m, axis=axis, srr_cols=cols),
            tuple(times[c].to_numpy() for c in (A, R, M)),
            paired=True,
            rng=rng,
        )
    else:
        tr = Estimate(
            [np.nan, np.nan],
            [np.nan, np.nan],
            [np.nan, np.nan],
            n_runs=len(times[A]),
            method="bootstrap-bca",
            note="no epsilon with a high-risk symbol in half the distributions",
        )
    out = {
        "F5.ord": _above(od_all, [([(R, M)], _NMI, True), ([(A, R)], _NMI, False)], unit="NMI"),
        "F5.close": {
            "ours": gap,
            "note": f"Largest gap at ε = {a.columns[np.argmax(a.mean() - r.mean())]:g}; "
            f"SRR recovers at least {share.min():.2f} of the gap from subset merging "
            f"to AORR where that gap is decided.",
        },
        "F5.inst": {"violations": sum(v for v, _ in inst), "instances": sum(n for _, n in inst)},
        "F5.budget": _budget(od, {R: 0.65})[0],
        "F5.leak": _above(
            od_all if leak is None else leak, [([(R, M, {"q": q}) for q in _QS], _NATS, True)], unit="nats"
        ),
        "F5.time": {
            "ours": tr,
            "note": f"SRR compared at ε ≤ {times[A].columns[cols].max():g}; below 10 times at "
            f"ε = {', '.join(f'{e:g}' for e in below) or 'none'}."
            if cols.size
            else "No ε with a high-risk symbol in half the distributions.",
        },
    }
    out["_text"] = {
        "fallback": f"{fallback:.0%}",
        "closeworst": _fmt(gap),
        "sharemin": f"{share.min():.2f}" if len(share) else "n/a",
        "ftime": (f"AORR at least {float(tr.value[0]):.0f} times and SRR at least {float(tr.value[1]):.1f} times")
        if cols.size
        else "n/a",
        "srrbelow": ", ".join(f"{e:g}" for e in below) or "none",
        "belowblock": f"{max((block[e] for e in below), default=0):g}",
    }
    return _pop_info(out)


@contract(
    tab=_DF,
    crossovers=Instance(list, tuple, example=[]),
    estimate=Optional(_EST),
    backend=Instance(str, example="Qhull"),
)
def timing(tab, crossovers, estimate, backend: str) -> dict:
    """F5.cross from :func:`~ldpnb.papers.lift.experiments.timing_verdicts`: the smallest median
    log-ratio ``log10(t_SRR / t_AORR)`` on [1, 2.5] and the smallest of its negatives outside."""
    e = tab.index.to_numpy(float)
    inside = (e >= 1) & (e <= 2.5)
    if estimate is None:
        est = Estimate(
            [np.nan] * 2,
            [np.nan] * 2,
            [np.nan] * 2,
            n_runs=1,
            method="order",
            note="too few distributions for an interval",
        )
    else:
        v, lo, hi = (np.asarray(x, dtype=float) for x in (estimate.value, estimate.low, estimate.high))
        est = Estimate(
            [v[inside].min(), -v[~inside].max()],
            [lo[inside].min(), -hi[~inside].max()],
            [hi[inside].min(), -lo[~inside].max()],
            level=estimate.level,
            n_runs=estimate.n_runs,
            method="order",
            simultaneous=True,
            note="medians of per-distribution log10 time ratios",
        )
    slower = int(np.sum(tab.verdict[inside] == "SRR slower"))
    faster = int(np.sum(tab.verdict[~inside] == "SRR faster"))
    return {
        "F5.cross": {
            "ours": est,
            "note": f"Vertex backend: {backend}. SRR decided slower at {slower} of the "
            f"{int(inside.sum())} points in [1, 2.5], faster at {faster} of the "
            f"{int((~inside).sum())} outside.",
        },
        "_text": {
            "cross": ", ".join(f"{c:.2f}" for c in crossovers) or "none",
            "verdicts": f"{slower} of the {int(inside.sum())} points in [1, 2.5] and faster at {faster} of "
            f"the {int((~inside).sum())} outside",
        },
    }


def _per_symbol(medians: Mapping[float, float]) -> str:
    """The growth factor per symbol of a log-linear fit to medians per size."""
    if len(medians) < 2:
        return "(too few sizes)"
    return f"×{10 ** np.polyfit(list(medians), np.log10(list(medians.values())), 1)[0]:.1f}"


def _bound_numbers(frames) -> dict:
    """V-A.bound: support and count of every enumerated polytope against the proposition's bound."""
    d = pd.concat([f[["n_x", "n_s", "n_vertices", "max_support"]] for f in frames], ignore_index=True)
    bound = np.array([vertex_bound(int(a), int(b)) for a, b in zip(d.n_x, d.n_s)], dtype=float)
    return {
        "support_excess": int((d.max_support - d.n_s).max()),
        "above_bound": int(np.sum(d.n_vertices > bound)),
        "polytopes": len(d),
        "largest_count_share": float(np.max(d.n_vertices / bound)),
    }


@contract(growth=_DF, heldout=_DF, srr=_DF, wide=_DF, min_runs=Integer(10, None), rng=SEED)
def complexity(growth, heldout, srr, wide, *, min_runs: int = 20, rng: Any = None) -> dict:
    """V-A.vert (exponential against power law, held-out sizes), V-A.bound (every polytope of
    ``growth``, ``heldout`` and ``wide``), V-A.time (AORR's CPU time against |X| at eps = 1) and V-A.srr
    (SRR's vertices against its largest block: ``srr``, the Fig. 5 runs without fall-back, block sizes
    with at least ``min_runs`` runs)."""
    g = check_random_state(rng)
    laws = ex.growth_laws(growth, heldout)
    bnd = _bound_numbers([growth, heldout, wide])
    vert = ex.growth_estimate(growth, heldout, rng=g)
    t1 = growth[growth.eps == 1.0].pivot(index="dist", columns="n_x", values="t_aorr").sort_index(axis=1)
    vat = ex.trend_estimate([t1[c].to_numpy() for c in t1.columns], paired=True, rng=g)
    groups = {k: d for k, d in srr.groupby("largest_block") if len(d) >= min_runs}
    blocks = {k: d.n_vertices.to_numpy(float) for k, d in groups.items()}
    btime = {k: d.time.to_numpy(float) for k, d in groups.items()}

    def trend(samples):
        if len(samples) >= 2:
            return ex.trend_estimate([samples[k] for k in sorted(samples)], rng=g)
        return Estimate(
            [np.nan] * 2,
            [np.nan] * 2,
            [np.nan] * 2,
            n_runs=1,
            method="bootstrap-bca",
            note=f"fewer than two block sizes with {min_runs} runs",
        )

    vas, vas_v = trend(btime), trend(blocks)
    per = laws.groupby("eps")[["per_symbol", "exponent"]].first()
    big = laws[laws.n_x == laws.n_x.max()].set_index("eps")
    med = t1.median()
    med_b = {k: float(np.median(v)) for k, v in blocks.items()}
    return {
        "V-A.bound": bnd,
        "V-A.vert": {
            "ours": vert,
            "note": f"exp_err {laws.exp_err.mean():.2f}, pow_err {laws.pow_err.mean():.2f}; "
            "growth per symbol "
            + ", ".join(f"{x:.2f}" for x in per.per_symbol)
            + "; exponents "
            + ", ".join(f"{x:.1f}" for x in per.exponent)
            + ".",
        },
        "V-A.time": {
            "ours": vat,
            "note": "Median CPU times (ms) at |X| = " + ", ".join(f"{n}: {1e3 * t:.2g}" for n, t in med.items()) + ".",
        },
        "V-A.srr": {
            "ours": vas,
            "note": "Median CPU times (ms) per largest block: "
            + ", ".join(f"{k:g}: {1e3 * np.median(v):.2g}" for k, v in sorted(btime.items()))
            + "; runs per size: "
            + ", ".join(f"{k:g}: {len(v)}" for k, v in sorted(btime.items()))
            + ". Median vertices: "
            + ", ".join(f"{k:g}: {v:g}" for k, v in sorted(med_b.items()))
            + f"; their smallest step and rise (log10, BCa "
            f"95 %): {_fmt(vas_v, 2)} and {_fmt(_cell(vas_v, 1), 2)}.",
        },
        "_text": {
            "growth": ", ".join(f"×{r.per_symbol:.2f}" for r in per.itertuples()),
            "exponent": ", ".join(f"{r.exponent:.1f}" for r in per.itertuples()),
            "vert_errs": f"{laws.exp_err.mean():.2f} against {laws.pow_err.mean():.2f}",
            "vert_diff": _fmt(vert, 2),
            "big": "; ".join(
                f"ε = {e:g}: {r.measured:,.0f} measured, {r.exp_pred:,.0f} exponential, {r.pow_pred:,.0f} power law"
                for e, r in big.iterrows()
            ),
            "bignx": f"{laws.n_x.max()}",
            "b200": f"10^{np.log10(vertex_bound(200, 5)):.1f}",
            "polytopes": f"{bnd['polytopes']:,}",
            "vatime": (
                f"{1e3 * med.iloc[0]:.2g} ms at |X| = {med.index[0]} to {1e3 * med.iloc[-1]:.2g} ms at "
                f"|X| = {med.index[-1]} (ε = 1)"
            ),
            "srrgrowth": _per_symbol(med_b),
            "srrtime": _per_symbol({k: float(np.median(v)) for k, v in btime.items()}),
        },
    }


@contract(od=_DF, d6=_DF, printed=_DF)
def algorithm2(od, d6, printed) -> dict:
    """A2.merge: blocks merged by Algorithm 2's while loop (Algorithm 1's blocks minus SRR's), with the
    LP test on every SRR of Figs. 5 and 6 and the printed test on ``printed``
    (:func:`~ldpnb.papers.lift.theory.algorithm2_merges`); F5.priv: SRR's privacy wherever it does not
    fall back, on the same runs."""
    lp = pd.concat([od[od.method == "srr"], d6[d6.method == "srr"]], ignore_index=True)
    m_lp = int((lp.n_partition - lp.n_blocks).sum())
    m_pr = int((printed.n_partition - printed.n_blocks).sum())
    fb = lp.fallback.astype(bool)
    return {
        "A2.merge": {
            "merges_lp": m_lp,
            "merges_printed": m_pr,
            "instances_lp": len(lp),
            "instances_printed": len(printed),
            "multi_block_lp": int((lp.n_partition >= 2).sum()),
            "multi_block_printed": int((printed.n_partition >= 2).sum()),
            "fallbacks_lp": int(lp.fallback.sum()),
            "fallbacks_printed": int(printed.fallback.sum()),
        },
        "F5.priv": {
            "violations": int(lp[~fb].violates.sum()),
            "instances": int((~fb).sum()),
            "fallback_share": float(fb.mean()),
        },
        "_text": {
            "merges": f"{m_lp + m_pr}",
            "a2inst": f"{len(lp) + len(printed):,}",
            "a2multi": f"{int((lp.n_partition >= 2).sum() + (printed.n_partition >= 2).sum()):,}",
        },
    }


def _worst_median(df, q="n_vertices"):
    """The largest over epsilon of the median over distributions."""
    return float(df.groupby("eps")[q].median().max())


@contract(d6=_DF, od=_DF, wide=_DF, rng=SEED)
def fig6(d6, od, wide, *, rng: Any = None) -> dict:
    """F6.*: SRR against subset merging at |X| = 200; F6.run (SRR's vertices at |X| = 200 against
    AORR's at |X| = 17 in ``od``) and V.scale (against AORR's at |X| = 20, ``wide``)."""
    g = check_random_state(rng)
    pair = ("SRR ALIP 0.5", "SM ALIP 0.5")
    srr200 = ex.curve_runs(d6, pair[0], q="n_vertices").to_numpy()
    aorr17 = ex.curve_runs(od, "AORR ALIP 0.5", q="n_vertices").to_numpy()
    aorr20 = wide.pivot(index="dist", columns="eps", values="n_vertices").to_numpy(float)
    m6 = d6.groupby(["curve", "eps"]).time.median().unstack(0)
    run = ex.worst_median_ratio(srr200, aorr17, rng=g)
    scale = ex.worst_median_ratio(srr200, aorr20, rng=g)
    s200, a17, a20 = (float(np.max(np.median(x, axis=0))) for x in (srr200, aorr17, aorr20))
    out = {
        "F6.ord": _above(d6, [([pair], _NMI, True)], unit="NMI"),
        "F6.leak": _budget(d6, {pair[0]: 0.5})[0],
        "F6.hl": _above(d6, [([(*pair, {"q": q}) for q in _QS], _NATS, True)], unit="nats"),
        "F6.run": {"ours": run, "note": f"Worst-ε medians: SRR {s200:,.0f}, AORR {a17:,.0f} vertices."},
        "V.scale": {
            "ours": scale,
            "note": f"Worst-ε medians: SRR {s200:,.0f}, AORR {a20:,.0f} vertices ({aorr20.shape[0]} distributions).",
        },
        "_text": {
            "srr200": f"{s200:,.0f}",
            "aorr17": f"{a17:,.0f}",
            "aorr20": f"{a20:,.0f}",
            "run": _fmt(run, 3),
            "scale": _fmt(scale, 4),
            "t200": f"{m6[pair[0]].max():.3f} s (SRR) and {m6[pair[1]].max():.4f} s (subset merging)",
        },
    }
    return _pop_info(out)


# ----------------------------------------------------------------------------- Sec. VI


def _relaxation(od) -> dict:
    """VI-A.rel: AORR at lambda != 0.5 (ALIP) against l1- and chi2-privacy at the same budgets, and C1."""
    a = od[(od.method == "aorr") & (od.lam != 0.5)]
    el, eu = a.lam * a.eps, (1 - a.lam) * a.eps
    bu, bl = np.expm1(eu) * (1 + 1e-9), np.expm1(el) * (1 + 1e-9)
    bad = (a.l1 > bu) | (a.l1_inv > bl) | (a.chi2 > bu**2) | (a.chi2_inv > bl**2)
    safe = (np.exp(eu) + np.exp(-el) >= 2) & (np.exp(el) + np.exp(-eu) >= 2)
    c1 = relaxation_counterexample()
    return {
        "violations": int(bad.sum()) + c1["violations"],
        "c1_violations": c1["violations"],
        "aorr_violations": int((bad & ~safe).sum()),
        "safe_violations": int((bad & safe).sum()),
        "safe_instances": int(safe.sum()),
        "unsafe_instances": int((~safe).sum()),
        "c1_lam": c1["lam"],
        "c1_l1": c1["l1"],
        "c1_l1_bound": c1["l1_bound"],
    }


@contract(wd=_DF, od=_DF, conv=_MAP, quasi=_MAP, sizes=Optional(_DF), rng=SEED)
def lift_measures(wd, od, conv, quasi, *, sizes=None, rng: Any = None) -> dict:
    """D6, F7.*, VI-A.rel, VI-B.* (``wd`` with the complete-merging curves ``CM l1 0.5``, ``CM chi2 0.5``
    and ``CM alpha=2`` for VI-B.enh; ``conv``: :func:`~ldpnb.papers.lift.theory.convexity_checks`;
    ``quasi``: :func:`~ldpnb.papers.lift.theory.quasiconvexity_counterexample` for chi2; ``sizes``: the
    l1 and chi2 subset-merging curves on the distributions of VI-B.size, by default ``wd``'s; ``rng``:
    the crossovers' bootstrap)."""
    g = check_random_state(rng)
    only = {f"SM {k}-only 0.5": 0.5 for k in ("l1", "chi2", "alpha")}
    pairs = [("SM l1-only 0.5", "SM l1 0.5"), ("SM chi2-only 0.5", "SM chi2 0.5"), ("SM alpha-only 0.5", "SM alpha=2")]
    win = {"q": "min_leak", "eps_min": 0.5, "eps_max": 4}
    half = 1 - (1 - ex.LEVEL) / 2  # two families, each at 99.5 %: jointly at least 99 %
    exc, tab = ex.budget_estimate(wd, only, eps_min=0.5, eps_max=4, sides=("min_leak",), level=half)
    d6o, info = ex.order_estimate(wd, [([(a, b, win) for a, b in pairs], _NATS, True)], level=half)
    d6 = _cells(ex.extreme(exc, "min"), d6o, level=ex.LEVEL, note="two families of intervals at 99.5 % each")
    out = {
        "D6": {
            "ours": d6,
            "note": f"Smallest excess over ε_l of a lift-based bound alone: "
            f"{float(tab.excess.min()):+.3f} nats. " + _counts(info, "nats", d6.n_runs),
        },
        "F7.rel": _above(
            wd, [([("SM l1 0.5", "SM ALIP 0.5"), ("SM chi2 0.5", "SM ALIP 0.5")], _NMI, True)], unit="NMI"
        ),
    }
    enh = [(f"SM {k}", f"CM {k}") for k in ("l1 0.5", "chi2 0.5", "alpha=2")]
    out["VI-B.enh"] = _above(wd, [(enh, _NMI, True)], unit="NMI", instance=_instance_min(wd, enh))
    for k in ("l1", "chi2"):
        out[f"F7.lam.{k}"] = _above(
            wd,
            [
                (
                    [
                        (f"SM {k} 0.5", f"SM {k} 0.65", {"eps_max": 0.75}),
                        (f"SM {k} 0.65", f"SM {k} 0.5", {"eps_min": 1.25}),
                    ],
                    _NMI,
                    True,
                )
            ],
            unit="NMI",
        )
        out[f"F7.cross.{k}"] = {"ours": ex.crossover_estimate(wd, f"SM {k} 0.65", f"SM {k} 0.5", rng=g)}
    a = od[od.curve == "AORR ALIP 0.5"]
    b = np.expm1(0.5 * a.eps) * (1 + 1e-9)
    bad = (a.l1 > b) | (a.l1_inv > b) | (a.chi2 > b**2) | (a.chi2_inv > b**2)
    aorr = ex.curve_runs(od, "AORR ALIP 0.5")
    sm = {k: ex.curve_runs(wd, f"SM {k} 0.5").loc[aorr.index, aorr.columns] for k in ("l1", "chi2")}
    rt = ratio(
        np.hstack([aorr.to_numpy()] * 2),
        np.hstack([sm["l1"].to_numpy(), sm["chi2"].to_numpy()]),
        paired=True,
        level=ex.LEVEL,
        simultaneous=True,
    )
    rv = np.asarray(rt.value).reshape(2, -1)
    eps = aorr.columns.to_numpy(float)
    comp = ex.extreme(rt, "max")
    convex = [n for n in conv if "lift-inverse" not in n or "α" in n]
    l1, chi2 = conv["ℓ1-lift-inverse"], conv["χ²-lift-inverse"]
    rel = _relaxation(od)
    blocks = [
        (f"SM {k} 0.65", f"SM {k} 0.5", {"q": q, "eps_max": 0.75})
        for k in ("l1", "chi2")
        for q in ("largest_block", "mean_block")
    ]
    above = ", ".join(f"{e:g}" for e in eps[(np.asarray(rt.low).reshape(2, -1) > 1.1).any(axis=0)]) or "none"
    out.update(
        {
            "VI-B.feas": {"violations": int(bad.sum()), "instances": len(a)},
            "VI-B.comp": {
                "ours": comp,
                "note": f"AORR/SM at ε = {eps[0]:g}: {rv[0, 0]:.3f} (ℓ1), {rv[1, 0]:.3f} (χ²); "
                f"at ε = {eps[1]:g}: {rv[0, 1]:.3f}, {rv[1, 1]:.3f}; decided above 1.1 "
                f"at ε = {above}.",
            },
            "VI-B.conv": {"quasi_l1": l1["quasi_violations"], "pairs": l1["pairs"]},
            "VI-B.conv.chi2": {
                "f_a": quasi["f_a"],
                "f_b": quasi["f_b"],
                "f_mid": quasi["f_mid"],
                "level": quasi["level"],
                "rel_gap": quasi["rel_gap"],
                "eps_l": quasi["eps_l"],
                "quasi_chi2": chi2["quasi_violations"],
                "pairs": chi2["pairs"],
            },
            "VI-A.rel": rel,
            "VI-B.size": _above(wd if sizes is None else sizes, [(blocks, _SYM, True)], unit="symbols"),
            "VI-B.convex": {
                "violations": sum(conv[n]["violations"] for n in convex),
                "pairs": sum(conv[n]["pairs"] for n in convex),
            },
        }
    )
    l1_only, l1_with = (float(_point(wd, c, 1.0, "min_leak").mean()) - 0.5 for c in ("SM l1-only 0.5", "SM l1 0.5"))
    out["_text"] = {
        "d6": f"{l1_only:+.2f} nats (ℓ1 alone) against {l1_with:+.2f} (ℓ1 with its inverse)",
        "comp": f"{rv[0, 0]:.2f} (ℓ1) and {rv[1, 0]:.2f} (χ²)",
        "comp2": f"{rv[0, 1]:.3f} (ℓ1) and {rv[1, 1]:.3f} (χ²) at ε = {eps[1]:g}",
        "compmax": _fmt(comp, 3),
        "compabove": above,
        "cross7": f"{_fmt(out['F7.cross.l1']['ours'], 2)} (ℓ1) and {_fmt(out['F7.cross.chi2']['ours'], 2)} (χ²)",
        "chi2level": f"{quasi['level']:.6f}",
        "chi2mid": f"{quasi['f_mid']:.6f}",
        "chi2eps": f"{quasi['eps_l']:.3f}",
        "chi2rel": f"{quasi['rel_gap']:.1e}",
        "chi2a": f"{quasi['f_a']:.6f}",
        "chi2b": f"{quasi['f_b']:.6f}",
        "relsafe": f"{rel['safe_violations']} of {rel['safe_instances']:,}",
        "relunsafe": f"{rel['aorr_violations']} of {rel['unsafe_instances']:,}",
    }
    return _pop_info(out)


@contract(wd=_DF, limits=_MAP, nested=_MAP)
def alpha(wd, limits: Mapping, nested: Mapping) -> dict:
    """A.mono, A.nest and Fig. 8's orderings (alpha = 2 > 10 > 100, and 100 not below ALIP)."""
    chain = [("SM alpha=2", "SM alpha=10"), ("SM alpha=10", "SM alpha=100")]
    lim = ("SM alpha=100", "SM ALIP 0.5")
    out = {
        "A.mono": dict(limits),
        "A.nest": {k: v for k, v in nested.items() if k != "mean_high"},
        "F8.ord": _above(wd, [(chain, _NMI, True), ([lim], _NMI, False)], unit="NMI"),
        "F8.leak": _above(
            wd,
            [
                ([(a, b, {"q": q}) for a, b in chain for q in _QS], _NATS, True),
                ([(*lim, {"q": q}) for q in _QS], _NATS, False),
            ],
            unit="nats",
        ),
    }
    return _pop_info(out)
