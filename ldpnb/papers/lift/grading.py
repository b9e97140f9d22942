"""The numbers that decide the lift chapter's claims (``ldpnb.papers.lift.claims``), computed from
the sweeps of :mod:`ldpnb.papers.lift.experiments`.

Each function takes the data of one part of the chapter and returns ``{claim id: numbers}`` in the
form :func:`record` passes to the report (``ours``/``se`` for a ``close`` claim, ``ours`` for a
``range``, ``ys``/``xs`` for a ``monotone`` claim, the named numbers of a ``holds`` rule), plus the
key ``"_text"``: formatted values the chapter's prose quotes (``{glue:text}``). The criteria
themselves are declared in ``claims.py``; nothing here decides a status.
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np
import pandas as pd

from ldpnb.contracts import Array, Instance, Integer, RandomState, Real, contract

from ldpnb.measures.lift import lift_matrix
from ldpnb.papers.lift import experiments as ex
from ldpnb.papers.lift.claims import CLAIMS
from ldpnb.repro.report import Report

__all__ = [
    "record", "fig1", "propositions", "errata", "watchdog", "fig2", "fig3", "algorithm1", "fig4",
    "leakage", "fig5", "timing", "complexity", "algorithm2", "fig6", "lift_measures", "alpha",
]

LAMS = (0.35, 0.5, 0.65)
_DF = Instance(pd.DataFrame, example=pd.DataFrame())
_MAP = Instance(dict, example={})
_REPORT = Instance(Report, example=Report("lift", CLAIMS, "smoke"))
_QS = ("min_leak", "max_leak")
_METHOD = {"close": "close", "range": "range", "holds": "holds", "monotone": "monotone"}


@contract(report=_REPORT, numbers=_MAP)
def record(report, numbers: Mapping[str, Any]) -> dict[str, str]:
    """Record every claim of ``numbers`` with the report method of its declared kind; return the
    ``"_text"`` entries (for the chapter's glue).  A claim declared for other scales only is left to
    :meth:`~ldpnb.repro.report.Report.finalize`, which marks it not evaluated at this scale."""
    for cid, nums in numbers.items():
        if cid == "_text" or report.scale not in CLAIMS[cid].scales:
            continue
        nums = dict(nums)
        method = getattr(report, _METHOD[CLAIMS[cid].kind])
        if CLAIMS[cid].kind in ("close", "range"):
            method(cid, nums.pop("ours"), **nums)
        elif CLAIMS[cid].kind == "monotone":
            method(cid, nums.pop("ys"), **nums)
        else:
            method(cid, **nums)
    return dict(numbers.get("_text", {}))


def _violations(df, pairs, **kw) -> tuple[int, int]:
    v = [ex.per_instance_violations(df, a, b, **kw) for a, b in pairs]
    return sum(x for x, _ in v), sum(n for _, n in v)


# ----------------------------------------------------------------------------- Fig. 1


#: Fig. 1's printed end points as the intervals that print as the paper's digits (Sec. III).
FIG1_PRINTED = {"psi_min": (-12.5, -11.5), "psi_max": (-0.065, -0.055), "lam_min": (0.015, 0.025),
                "lam_max": (1.635, 1.645)}


@contract(samples=_MAP, runs=_MAP)
def fig1(samples: Mapping[str, np.ndarray], runs: Mapping[str, np.ndarray]) -> dict:
    """F1.*: end points against the run-to-run spread (0.5% and 99.5% quantiles), the joint
    consistency of the four printed end points with one run
    (:func:`~ldpnb.papers.lift.theory.endpoint_consistency`), the tail, the peaks and the masses on
    the argmax/argmin pairs."""
    from ldpnb.papers.lift.theory import endpoint_consistency

    q = {k: np.quantile(v, [0.005, 0.995]) for k, v in runs.items()}
    joint = endpoint_consistency(dict(runs), FIG1_PRINTED)
    bins = np.arange(-13, 2.0001, 0.05)
    peak = [np.histogram(samples[k], bins=bins)[0].max() for k in ("log_lambda", "log_psi")]
    tail = float(np.mean(np.abs(samples["log_psi"]) >= 6))
    m = {k: float(np.mean(samples[k])) for k in ("mass_max", "mass_min", "mass_max_floor", "mass_min_ceiling")}
    ends = {"F1.1": ("psi_min", "psi_max"), "F1.2": ("lam_min", "lam_max")}
    out = {cid: {"min_lo": q[a][0], "min_hi": q[a][1], "max_lo": q[b][0], "max_hi": q[b][1]}
           for cid, (a, b) in ends.items()}
    out.update({
        "F1.joint": joint,
        "F1.3": {"ours": tail},
        "F1.4": {"ours": peak[0] / peak[1]},
        "F1.5": {"ours": m["mass_max"] / m["mass_min"],
                 "note": f"Floor and ceiling implied by Λ ≥ 1 ≥ Ψ: {m['mass_max_floor']:.3f} and "
                         f"{m['mass_min_ceiling']:.3f}; measured {m['mass_max']:.3f} and {m['mass_min']:.3f}."},
    })
    out["_text"] = {**{f"q-{k.replace('_', '')}": f"[{v[0]:.3g}, {v[1]:.3g}]" for k, v in q.items()},
                    "joint": f"{joint['p_value']:.2f}", "tail": f"{tail:.4f}"}
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
        sel = lambda end: [b for b in violations.index if b.startswith(keys) and b.endswith(end)]  # noqa: E731
        v_rand = int(violations.loc[sel("_printed"), "violations"].sum())
        out[pid] = {"violations": v_cx + v_rand, "counterexample_violations": v_cx, "random_violations": v_rand,
                    "corrected_violations": int(violations.loc[sel("_corrected"), "violations"].sum())}
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


def _lam_order(df, prefix):
    return ex.orders(df, [(f"{prefix} 0.65", f"{prefix} 0.5", {"eps_min": 1.25}), (f"{prefix} 0.5", f"{prefix} 0.35")])


@contract(wd=_DF, S=_DF)
def fig2(wd, S) -> dict:
    """H1 and the orderings of Fig. 2 (complete merging)."""
    h1, se = ex.against_printed(wd, "CM ALIP 0.5", 2.0, 1000)
    pairs = [(f"CM ALIP {lam}", "CM LDP") for lam in LAMS]
    v, n = _violations(wd, pairs)
    leak = sum(_violations(wd, pairs, q=q)[0] for q in _QS)
    return {
        "H1": {"ours": h1, "se": se},
        "F2.P2": {"violations": v, "instances": n},
        "F2.lk": {"violations": leak, **ex.orders(wd, [(b, a, {"q": q}) for a, b in pairs for q in _QS])},
        "F2.lam": _lam_order(wd, "CM ALIP"),
        "F2.cross": {"ours": ex.crossover_eps(S, "CM ALIP 0.65", "CM ALIP 0.5")},
        "F2.lamXH": ex.orders(wd, [c for lam in (0.2, 0.35, 0.45)
                                   for c in (("CM ALIP 0.5", f"CM ALIP {lam}"),
                                             (f"CM ALIP {lam}", "CM ALIP 0.5", {"q": "n_high"}))]),
        "_text": {"h1": f"{h1:.3f} ± {se:.3f}"},
    }


@contract(od=_DF, od_all=_DF, S=_DF, joints=Array(3, low=0), perfect=Array(1))
def fig3(od, od_all, S, joints, perfect) -> dict:
    """H3 and the AORR claims of Fig. 3 (``joints``: the distributions of the sweep; ``perfect``:
    the NMI of their perfect-privacy responses)."""
    aorr = od[od.method == "aorr"]
    a5 = aorr[aorr.curve == "AORR ALIP 0.5"]
    L = [lift_matrix(P) for P in joints]
    raw = np.array([[-np.log(x.min()), np.log(x.max())] for x in L])[a5.dist]
    eps = a5.eps.to_numpy()
    act = (raw[:, 0] > 0.5 * eps) & (eps <= 4)
    cm5 = od_all[od_all.curve == "CM ALIP 0.5"]
    ok_eps = [e for e, v in cm5.groupby("eps").violates.sum().items() if v == 0]
    private = cm5.set_index(["dist", "eps"]).violates == False  # noqa: E712
    low = a5[a5.eps == a5.eps.min()].sort_values("dist").nmi.to_numpy()
    h3, se = ex.against_printed(od, "AORR ALIP 0.5", 2.0, 100)
    return {
        "H3": {"ours": h3, "se": se},
        "F3.priv": {"violations": int(aorr.violates.sum()), "instances": len(aorr)},
        "F3.bind": {"not_binding": int(np.sum(np.abs(a5.min_leak.to_numpy() - 0.5 * eps)[act] > 1e-6)),
                    "instances": int(act.sum())},
        "F3.sat": {"over": float(np.max(a5.max_leak.to_numpy() - np.minimum(0.5 * eps, raw[:, 1]))),
                   "shortfall_small": float(np.mean((0.5 * eps - a5.max_leak.to_numpy())[eps <= 1]))},
        "F3.leak": ex.orders(od_all, [("AORR ALIP 0.5", "CM ALIP 0.5", {"q": "min_leak", "eps_in": ok_eps})]),
        "F3.lam": _lam_order(od_all, "AORR ALIP"),
        "F3.cross": {"ours": ex.crossover_eps(S, "AORR ALIP 0.65", "AORR ALIP 0.5")},
        "F3.vsCM": {"violations": ex.per_instance_violations(od_all, "CM ALIP 0.5", "AORR ALIP 0.5", mask=private)[0],
                    **ex.orders(od_all, [("AORR ALIP 0.5", "CM ALIP 0.5")])},
        "F3.lim": {"violations": int(np.sum(low < perfect - 1e-9)), "instances": len(low),
                   "note": f"Perfect-privacy limit {perfect.mean():.3f} on average; AORR at the smallest ε "
                           f"{low.mean():.3f}."},
        "_text": {"h3": f"{h3:.3f} ± {se:.3f}", "perfect": f"{perfect.mean():.3f}"},
    }


@contract(wd=_DF, printed_loop=Real(0, 1), gaps=Array(1, min_size=1), seed=RandomState())
def algorithm1(wd, printed_loop: float, gaps, *, seed: Any) -> dict:
    """H2, H2.ratio (bootstrap standard error of the ratio), A1 (``printed_loop``: mean NMI with the
    printed outer loop) and A1.opt (``gaps``: optimal - greedy NMI per instance)."""
    h2, se2 = ex.against_printed(wd, "SM ALIP 0.5", 2.0, 1000)
    s2, c2 = (wd[(wd.curve == c) & (wd.eps == 2.0)].sort_values("dist").nmi.to_numpy()
              for c in ("SM ALIP 0.5", "CM ALIP 0.5"))
    idx = np.random.default_rng(seed).integers(0, len(s2), size=(2000, len(s2)))
    se_r = float(np.std(s2[idx].mean(1) / c2[idx].mean(1)) * np.sqrt(1 + len(s2) / 1000))
    a1 = {"corrected": h2, "printed_omega": ex.mean_at(wd, "SM ALIP 0.5 printed omega", 2.0)[0],
          "printed_loop": float(printed_loop)}
    return {
        "H2": {"ours": h2, "se": se2},
        "H2.ratio": {"ours": s2.mean() / c2.mean() - 1, "se": se_r},
        "A1": {"tol": 0.005 + 3 * se2, **a1},
        "A1.opt": {"min_gap": float(min(gaps)), "instances": len(gaps), "mean_gap": float(np.mean(gaps))},
        "_text": {"a1": f"corrected reading {h2:.3f}, printed ω {a1['printed_omega']:.3f}, printed outer loop "
                        f"{printed_loop:.3f} (complete merging {c2.mean():.3f})",
                  "optgap": f"{np.mean(gaps):.4f}"},
    }


@contract(wd=_DF, S=_DF)
def fig4(wd, S) -> dict:
    """The orderings of Fig. 4 (subset merging)."""
    sm = [(f"SM ALIP {lam}", "SM LDP") for lam in LAMS]
    exc, n = _violations(wd, sm)
    enh = [(f"SM {c}", f"CM {c}") for c in ("LDP", *(f"ALIP {lam}" for lam in LAMS))]
    return {
        "F4.P2": {**ex.orders(wd, [(b, a) for a, b in sm]), "exceptions": exc},
        "F4.enh": {"violations": _violations(wd, [(b, a) for a, b in enh])[0], **ex.orders(wd, enh)},
        "F4.lam": _lam_order(wd, "SM ALIP"),
        "F4.cross": {"ours": ex.crossover_eps(S, "SM ALIP 0.65", "SM ALIP 0.5")},
        "_text": {"p2exc": f"{exc / n:.1%}"},
    }


@contract(wd=_DF, S=_DF)
def leakage(wd, S) -> dict:
    """F4.leak, F2.leak (mean leakages against the budgets), F2.inst (per distribution), F4.same and
    the repair extension F4.fix."""
    sm = {f"SM ALIP {lam}": lam for lam in LAMS} | {"SM LDP": None}
    cm = {f"CM ALIP {lam}": lam for lam in LAMS} | {"CM LDP": None}
    fix = {f"{c} repaired": lam for c, lam in sm.items()}
    v4 = ex.budget(wd, sm)
    bad = wd[wd.curve.isin(sm) & wd.violates]
    rate = float(S[S.curve.isin(sm)].violates.max())
    flags = {c: wd[wd.curve == c].violates.to_numpy() for c in (*sm, *cm)}
    drop = max(float((ex.mean_curve(S, c) - ex.mean_curve(S, f"{c} repaired")).max()) for c in sm)
    extra = np.concatenate([wd[wd.curve == f"{c} repaired"].n_merged.to_numpy()
                            - wd[wd.curve == c].n_merged.to_numpy() for c in sm])
    return {
        "F4.leak": v4,
        "F2.leak": ex.budget(wd, cm),
        "F2.inst": {"max_rate": rate, "violating": len(bad), "singleton_share": float(np.mean(bad.n_high == 1))},
        "F4.same": {"mismatches": int(sum(np.sum(flags["SM" + c[2:]] != flags[c]) for c in cm)),
                    "instances": int(sum(len(flags[c]) for c in cm))},
        "F4.fix": {"violations": int(wd[wd.curve.isin(fix)].violates.sum()), "max_nmi_drop": drop,
                   **ex.budget(wd, fix)},
        "_text": {"above4": f"{v4['above']} of {v4['points']}",
                  "worst4": f"{v4['worst_excess']:+.3f} ± {v4['worst_se']:.3f} nats "
                            f"({v4['worst_curve'].replace('SM ', '')}, ε = {v4['worst_eps']:g})",
                  "maxrate": f"{rate:.0%}", "single": f"{np.mean(bad.n_high == 1):.0%}",
                  "fixcost": f"{drop:.3f}",
                  "absorbed": f"{np.mean(extra[extra > 0] == 1):.1%}" if (extra > 0).any() else "none"},
    }


# ----------------------------------------------------------------------------- Fig. 5, Sec. V


@contract(od=_DF, od_all=_DF, S=_DF)
def fig5(od, od_all, S) -> dict:
    """F5.ord ... F5.time: SRR against AORR and subset merging at lambda = 0.65."""
    A, R, M = "AORR ALIP 0.65", "SRR ALIP 0.65", "SM timed ALIP 0.65"
    srr = od[od.curve == R]
    gap = ex.paired_differences(od_all, A, M)
    gap = gap[gap["diff"] > 3 * gap["se"]]
    share = (ex.mean_curve(S, R) - ex.mean_curve(S, M))[gap.index] / gap["diff"]
    close = ex.paired_differences(od_all, A, R, cap=None)
    lo = close["diff"] - 3 * close["se"]
    med = od.groupby(["curve", "eps"]).time.median().unstack(0)
    high = srr.groupby("eps").n_high.apply(lambda v: np.mean(v > 0))
    srr_eps = [e for e in med.index if high.get(e, 0.0) >= 0.5]
    block = srr.groupby("eps").largest_block.median()
    ok = srr.set_index(["dist", "eps"]).fallback == False  # noqa: E712
    inst = [ex.per_instance_violations(od_all, M, R), ex.per_instance_violations(od_all, R, A, mask=ok)]
    fallback = float(srr.groupby("eps").fallback.mean().max())
    return {
        "F5.ord": {"reversed_a": ex.orders(od_all, [(A, R)])["reversed"], **ex.orders(od_all, [(R, M)])},
        "F5.close": {"gap_lo_max": float(lo.max()), "gap_max": float(close["diff"].max()),
                     "eps_worst": float(lo.idxmax()), "eps_beyond": [float(e) for e in lo.index[lo > 0.02]],
                     "share_min": float(share.min())},
        "F5.inst": {"violations": sum(v for v, _ in inst), "instances": sum(n for _, n in inst)},
        "F5.priv": {"violations": int(srr[~srr.fallback].violates.sum()), "instances": int((~srr.fallback).sum()),
                    "fallback_max": fallback},
        "F5.budget": ex.budget(od, {R: 0.65}),
        "F5.leak": ex.orders(od_all, [(R, M, {"q": q}) for q in _QS]),
        "F5.time": {"aorr_ratio_min": float((med[A] / med[M]).min()),
                    "srr_ratio_min": float((med[R] / med[M])[srr_eps].min()) if len(srr_eps) else float("nan"),
                    "srr_eps_max": float(max(srr_eps, default=float("nan"))),
                    "srr_eps_below": [float(e) for e in srr_eps if med[R][e] < 10 * med[M][e]]},
        "_text": {"fallback": f"{fallback:.0%}",
                  "closeworst": f"{close['diff'].max():.3f} at ε = {close['diff'].idxmax():g}",
                  "sharemin": f"{share.min():.2f}",
                  "ftime": f"AORR at least {(med[A] / med[M]).min():.0f} times and SRR at least "
                           f"{(med[R] / med[M])[srr_eps].min():.1f} times" if len(srr_eps) else "n/a",
                  "srrbelow": ", ".join(f"{e:g}" for e in srr_eps if med[R][e] < 10 * med[M][e]) or "none",
                  "belowblock": f"{max((block[e] for e in srr_eps if med[R][e] < 10 * med[M][e]), default=0):g}"},
    }


@contract(tab=_DF, crossovers=Instance(list, tuple, example=[]), backend=Instance(str, example="Qhull"))
def timing(tab, crossovers, backend: str) -> dict:
    """F5.cross from :func:`~ldpnb.papers.lift.experiments.timing_verdicts`."""
    inside = (tab.index >= 1) & (tab.index <= 2.5)
    agree = np.where(inside, tab.verdict == "SRR slower", tab.verdict == "SRR faster")
    slower, faster = int(agree[inside].sum()), int(agree[~inside].sum())
    return {
        "F5.cross": {"disagree": int(np.sum(~agree)), "points": len(tab), "slower_inside": slower,
                     "faster_outside": faster, "crossovers": list(crossovers), "note": f"Vertex backend: {backend}."},
        "_text": {"cross": ", ".join(f"{c:.2f}" for c in crossovers) or "none",
                  "verdicts": f"{slower} of the {int(inside.sum())} points in [1, 2.5] and faster at {faster} of "
                              f"the {int((~inside).sum())} outside"},
    }


def _bound_numbers(frames) -> dict:
    """V-A.bound: support and count of every enumerated polytope against the proposition's bound."""
    from ldpnb.papers.lift.theory import vertex_bound

    d = pd.concat([f[["n_x", "n_s", "n_vertices", "max_support"]] for f in frames], ignore_index=True)
    bound = np.array([vertex_bound(int(a), int(b)) for a, b in zip(d.n_x, d.n_s)], dtype=float)
    return {"support_excess": int((d.max_support - d.n_s).max()), "above_bound": int(np.sum(d.n_vertices > bound)),
            "polytopes": len(d), "largest_count_share": float(np.max(d.n_vertices / bound))}


@contract(growth=_DF, heldout=_DF, by_block=_DF, wide=_DF)
def complexity(growth, heldout, by_block, wide) -> dict:
    """V-A.vert (exponential against power law, held-out sizes), V-A.bound (every polytope of
    ``growth``, ``heldout`` and ``wide``), V-A.time (AORR against |X|) and V-A.srr (SRR against its
    largest block)."""
    from ldpnb.papers.lift.theory import vertex_bound

    laws = ex.growth_laws(growth, heldout)
    bnd = _bound_numbers([growth, heldout, wide])
    t1 = growth[growth.eps == 1.0].groupby("n_x").t_aorr.median()
    per = laws.groupby("eps")[["per_symbol", "exponent"]].first()
    big = laws[laws.n_x == laws.n_x.max()].set_index("eps")
    return {
        "V-A.bound": bnd,
        "V-A.vert": {"exp_err": float(laws.exp_err.mean()), "pow_err": float(laws.pow_err.mean()),
                     "per_symbol": per.per_symbol.tolist(), "exponent": per.exponent.tolist(),
                     "support_excess": bnd["support_excess"], "above_bound": bnd["above_bound"]},
        "V-A.time": {"ys": np.log10(t1.to_numpy()), "xs": t1.index.to_numpy()},
        "V-A.srr": {"ys": np.log10(by_block.n_vertices.to_numpy()), "xs": by_block.index.to_numpy()},
        "_text": {"growth": ", ".join(f"×{r.per_symbol:.2f}" for r in per.itertuples()),
                  "exponent": ", ".join(f"{r.exponent:.1f}" for r in per.itertuples()),
                  "vert_errs": f"{laws.exp_err.mean():.2f} against {laws.pow_err.mean():.2f}",
                  "big": "; ".join(f"ε = {e:g}: {r.measured:,.0f} measured, {r.exp_pred:,.0f} exponential, "
                                   f"{r.pow_pred:,.0f} power law" for e, r in big.iterrows()),
                  "bignx": f"{laws.n_x.max()}",
                  "b200": f"10^{np.log10(vertex_bound(200, 5)):.1f}",
                  "polytopes": f"{bnd['polytopes']:,}",
                  "vatime": (f"{1e3 * t1.iloc[0]:.2g} ms at |X| = {t1.index[0]} to {1e3 * t1.iloc[-1]:.2g} ms at "
                             f"|X| = {t1.index[-1]} (ε = 1)") if len(t1) else "n/a",
                  "srrgrowth": (f"×{10 ** np.polyfit(by_block.index, np.log10(by_block.n_vertices), 1)[0]:.1f}"
                                if len(by_block) > 1 else "(too few sizes)")},
    }


@contract(od=_DF, d6=_DF, printed=_DF)
def algorithm2(od, d6, printed) -> dict:
    """A2.merge: blocks merged by Algorithm 2's while loop (Algorithm 1's blocks minus SRR's), with the
    LP test on every SRR of Figs. 5 and 6 and the printed test on ``printed``
    (:func:`~ldpnb.papers.lift.theory.algorithm2_merges`)."""
    lp = pd.concat([od[od.method == "srr"], d6[d6.method == "srr"]], ignore_index=True)
    m_lp = int((lp.n_partition - lp.n_blocks).sum())
    m_pr = int((printed.n_partition - printed.n_blocks).sum())
    return {"A2.merge": {"merges_lp": m_lp, "merges_printed": m_pr, "instances_lp": len(lp),
                         "instances_printed": len(printed), "multi_block_lp": int((lp.n_partition >= 2).sum()),
                         "multi_block_printed": int((printed.n_partition >= 2).sum()),
                         "fallbacks_lp": int(lp.fallback.sum()), "fallbacks_printed": int(printed.fallback.sum())},
            "_text": {"merges": f"{m_lp + m_pr}", "a2inst": f"{len(lp) + len(printed):,}",
                      "a2multi": f"{int((lp.n_partition >= 2).sum() + (printed.n_partition >= 2).sum()):,}"}}


def _worst_median(df, q="n_vertices"):
    """The largest over epsilon of the median over distributions."""
    return float(df.groupby("eps")[q].median().max())


@contract(d6=_DF, od=_DF, wide=_DF)
def fig6(d6, od, wide) -> dict:
    """F6.*: SRR against subset merging at |X| = 200; F6.run (SRR's vertices at |X| = 200 against
    AORR's at |X| = 17 in ``od``) and V.scale (against AORR's at |X| = 20, ``wide``)."""
    s6 = d6[d6.curve == "SRR ALIP 0.5"]
    m6 = d6.groupby(["curve", "eps"]).time.median().unstack(0)
    pair = ("SRR ALIP 0.5", "SM ALIP 0.5")
    srr200 = _worst_median(s6)
    aorr17 = _worst_median(od[od.curve == "AORR ALIP 0.5"])
    aorr20 = _worst_median(wide)
    return {
        "F6.ord": ex.orders(d6, [pair]),
        "F6.leak": {"violations": int(s6[~s6.fallback].violates.sum()), **ex.budget(d6, {pair[0]: 0.5})},
        "F6.hl": ex.orders(d6, [(*pair, {"q": q}) for q in _QS]),
        "F6.run": {"srr200_max": srr200, "aorr17_max": aorr17},
        "V.scale": {"srr200_max": srr200, "aorr20_max": aorr20},
        "_text": {"srr200": f"{srr200:,.0f}", "aorr17": f"{aorr17:,.0f}", "aorr20": f"{aorr20:,.0f}",
                  "t200": f"{m6[pair[0]].max():.3f} s (SRR) and {m6[pair[1]].max():.4f} s (subset merging)"},
    }


# ----------------------------------------------------------------------------- Sec. VI


def _relaxation(od) -> dict:
    """VI-A.rel: AORR at lambda != 0.5 (ALIP) against l1- and chi2-privacy at the same budgets, and C1."""
    from ldpnb.papers.lift.theory import relaxation_counterexample

    a = od[(od.method == "aorr") & (od.lam != 0.5)]
    el, eu = a.lam * a.eps, (1 - a.lam) * a.eps
    bu, bl = np.expm1(eu) * (1 + 1e-9), np.expm1(el) * (1 + 1e-9)
    bad = (a.l1 > bu) | (a.l1_inv > bl) | (a.chi2 > bu**2) | (a.chi2_inv > bl**2)
    safe = (np.exp(eu) + np.exp(-el) >= 2) & (np.exp(el) + np.exp(-eu) >= 2)
    c1 = relaxation_counterexample()
    return {"violations": int(bad.sum()) + c1["violations"], "c1_violations": c1["violations"],
            "aorr_violations": int((bad & ~safe).sum()), "safe_violations": int((bad & safe).sum()),
            "safe_instances": int(safe.sum()), "unsafe_instances": int((~safe).sum()),
            "c1_lam": c1["lam"], "c1_l1": c1["l1"], "c1_l1_bound": c1["l1_bound"]}


@contract(wd=_DF, S=_DF, od=_DF, S_o=_DF, conv=_MAP, quasi=_MAP)
def lift_measures(wd, S, od, S_o, conv, quasi) -> dict:
    """D6, F7.*, VI-A.rel, VI-B.* (``conv``: :func:`~ldpnb.papers.lift.theory.convexity_checks`;
    ``quasi``: :func:`~ldpnb.papers.lift.theory.quasiconvexity_counterexample` for chi2)."""
    only = {f"SM {k}-only 0.5": 0.5 for k in ("l1", "chi2", "alpha")}
    pairs = [("SM l1-only 0.5", "SM l1 0.5"), ("SM chi2-only 0.5", "SM chi2 0.5"), ("SM alpha-only 0.5", "SM alpha=2")]
    win = {"q": "min_leak", "eps_min": 0.5, "eps_max": 4}
    d6 = ex.budget(wd, only, eps_min=0.5, eps_max=4, sides=("min_leak",))
    out = {"D6": {"above": d6["above"], "points_b": d6["points"], **ex.orders(wd, [(a, b, win) for a, b in pairs])},
           "F7.rel": ex.orders(wd, [("SM l1 0.5", "SM ALIP 0.5"), ("SM chi2 0.5", "SM ALIP 0.5")])}
    for k in ("l1", "chi2"):
        out[f"F7.lam.{k}"] = {"crossover": ex.crossover_eps(S, f"SM {k} 0.65", f"SM {k} 0.5"),
                              **ex.orders(wd, [(f"SM {k} 0.5", f"SM {k} 0.65", {"eps_max": 0.75}),
                                               (f"SM {k} 0.65", f"SM {k} 0.5", {"eps_min": 1.25})])}
    a = od[od.curve == "AORR ALIP 0.5"]
    b = np.expm1(0.5 * a.eps) * (1 + 1e-9)
    bad = (a.l1 > b) | (a.l1_inv > b) | (a.chi2 > b**2) | (a.chi2_inv > b**2)
    ratio = {k: ex.mean_curve(S_o, "AORR ALIP 0.5") / ex.mean_curve(S_o, f"SM {k} 0.5") for k in ("l1", "chi2")}
    convex = [n for n in conv if "lift-inverse" not in n or "α" in n]
    l1, chi2 = conv["ℓ1-lift-inverse"], conv["χ²-lift-inverse"]
    rmax = np.maximum(ratio["l1"], ratio["chi2"])
    rel = _relaxation(od)
    sizes = [(f"SM {k} 0.65", f"SM {k} 0.5", {"q": q, "eps_max": 0.75}) for k in ("l1", "chi2")
             for q in ("largest_block", "mean_block")]
    out.update({
        "VI-B.feas": {"violations": int(bad.sum()), "instances": len(a)},
        "VI-B.comp": {"ratio_max": float(rmax.max()), "ratio_l1_max": float(ratio["l1"].max()),
                      "ratio_chi2_max": float(ratio["chi2"].max()),
                      "eps_above": [float(e) for e in rmax.index[rmax > 1.1]],
                      "ratio_second": float(rmax.iloc[1]) if len(rmax) > 1 else float("nan")},
        "VI-B.conv": {"quasi_l1": l1["quasi_violations"], "pairs": l1["pairs"]},
        "VI-B.conv.chi2": {"f_a": quasi["f_a"], "f_b": quasi["f_b"], "f_mid": quasi["f_mid"], "level": quasi["level"],
                           "rel_gap": quasi["rel_gap"], "eps_l": quasi["eps_l"], "quasi_chi2": chi2["quasi_violations"],
                           "pairs": chi2["pairs"]},
        "VI-A.rel": rel,
        "VI-B.size": ex.orders(wd, sizes),
        "VI-B.convex": {"violations": sum(conv[n]["violations"] for n in convex),
                        "pairs": sum(conv[n]["pairs"] for n in convex)},
        "_text": {"d6": f"{ex.mean_at(wd, 'SM l1-only 0.5', 1.0, 'min_leak')[0] - 0.5:+.2f} nats (ℓ1 alone) "
                        f"against {ex.mean_at(wd, 'SM l1 0.5', 1.0, 'min_leak')[0] - 0.5:+.2f} (ℓ1 with its inverse)",
                  "comp": f"{ratio['l1'].iloc[0]:.2f} (ℓ1) and {ratio['chi2'].iloc[0]:.2f} (χ²)",
                  "comp2": (f"{ratio['l1'].iloc[1]:.3f} (ℓ1) and {ratio['chi2'].iloc[1]:.3f} (χ²) at ε = "
                            f"{rmax.index[1]:g}") if len(rmax) > 1 else "n/a",
                  "compabove": ", ".join(f"{e:g}" for e in rmax.index[rmax > 1.1]) or "none",
                  "chi2level": f"{quasi['level']:.6f}", "chi2mid": f"{quasi['f_mid']:.6f}",
                  "chi2eps": f"{quasi['eps_l']:.3f}", "chi2rel": f"{quasi['rel_gap']:.1e}",
                  "chi2a": f"{quasi['f_a']:.6f}", "chi2b": f"{quasi['f_b']:.6f}",
                  "relsafe": f"{rel['safe_violations']} of {rel['safe_instances']:,}",
                  "relunsafe": f"{rel['aorr_violations']} of {rel['unsafe_instances']:,}"},
    })
    return out


@contract(wd=_DF, limits=_MAP, nested=_MAP)
def alpha(wd, limits: Mapping, nested: Mapping) -> dict:
    """A.mono, A.nest and Fig. 8's orderings (alpha = 2 > 10 > 100, and 100 not below ALIP)."""
    chain = [("SM alpha=2", "SM alpha=10"), ("SM alpha=10", "SM alpha=100")]
    lim = ("SM alpha=100", "SM ALIP 0.5")
    return {
        "A.mono": dict(limits),
        "A.nest": {k: v for k, v in nested.items() if k != "mean_high"},
        "F8.ord": {"reversed_lim": ex.orders(wd, [lim])["reversed"], **ex.orders(wd, chain)},
        "F8.leak": {"reversed_lim": ex.orders(wd, [(*lim, {"q": q}) for q in _QS])["reversed"],
                    **ex.orders(wd, [(a, b, {"q": q}) for a, b in chain for q in _QS])},
    }
