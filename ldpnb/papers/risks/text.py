"""Risks paper (Arcolezi, Gambs, Couchot and Palamidessi, PVLDB 2023): the numbers the chapter's prose quotes,
as glue texts computed from the run (so that no sentence states a number the run did not produce).

Each function returns ``{glue name: text}``; the chapter glues them in a hidden cell.
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

import numpy as np

from ldpnb.contracts import Instance, Real, contract
from ldpnb.papers.risks import protocol, runs
from ldpnb.papers.risks.grading import xgb_mean
from ldpnb.stats import Estimate

__all__ = [
    "scale_glues",
    "rid_glues",
    "pie_glues",
    "aif_glues",
    "rfd_glues",
    "cost_glues",
    "pct",
    "rng_text",
    "decision",
    "h5s_glues",
]

_MAP = Instance(Mapping, example={})
_UNIFORM_FAKE = ("GRR", "SUE-r", "OUE-r")


@contract(x=Real(None, None))
def pct(x: float) -> str:
    """``12.345`` -> ``"12.3 %"``."""
    return f"{x:.1f} %"


@contract(
    values=Instance(list, tuple, np.ndarray, example=[1.0]),
    fmt=Instance(str, example="{:.1f}"),
    unit=Instance(str, example=""),
)
def rng_text(values: Sequence[float], fmt: str = "{:.1f}", unit: str = "") -> str:
    """``[3.2, 1.1, 2.0]`` -> ``"1.1-3.2"`` (or one value when they agree at that precision)."""
    lo, hi = fmt.format(min(values)), fmt.format(max(values))
    return (lo if lo == hi else f"{lo}-{hi}") + unit


@contract(report=Instance(object, example=None), cid=Instance(str, example="H7-a"))
def decision(report: Any, cid: str) -> str:
    """What row ``cid`` decided, in words for the prose: ``"holds"``, ``"is reversed"`` or ``"is undecided
    (about N runs would decide)"``, from its status (``pass``/``implied``, ``fail``/``diverges``,
    ``undecided``) and its runs to decide."""
    row = report.rows[cid]
    st = row["status"]
    if st in ("pass", "implied"):
        return "holds"
    if st in ("fail", "diverges"):
        return "is reversed"
    if st == "undecided":
        rtd = row.get("runs_to_decide") or {}
        n = rtd.get("runs") if isinstance(rtd, Mapping) else None
        more = f" (about {int(n):,} runs would decide it)" if isinstance(n, (int, float)) and np.isfinite(n) else ""
        return "is undecided" + more
    return f"is {st}"


@contract(report=Instance(object, example=None))
def h5s_glues(report: Any) -> dict[str, str]:
    """Row H5-s for the prose: each variant's contrast with its interval (``h5s``) and the decision
    (``h5s_decision``); where the grid did not run (smoke scale) both say so."""
    row = report.rows.get("H5-s")
    if row is None or row["status"] == "not-evaluated" or row.get("estimate") is None:
        return {"h5s": "(not run at this scale)", "h5s_decision": "is not graded at this scale"}
    est = Estimate.from_dict(row["estimate"])
    cells = re.findall(r"(\w[\w+-]*) \((\d+) runs\)", row.get("note", ""))
    parts = [f"{lab} {est[i].text(2)} ({n} runs)" for i, (lab, n) in enumerate(cells)] or [est.text(2)]
    return {"h5s": "; ".join(parts), "h5s_decision": decision(report, "H5-s")}


def _grid(xs: Sequence[float]) -> str:
    return "{" + ", ".join(f"{x:g}" for x in xs) + "}"


@contract(scale=Instance(str, example="book"), sizes=_MAP, n_fits=Instance(int, example=1))
def scale_glues(scale: str, sizes: Mapping[str, Any], n_fits: int) -> dict[str, str]:
    """The scale, its grids and the number of XGBoost fits of the page."""
    return {
        "scale": scale,
        "rid-eps": _grid(sizes["rid_eps"]),
        "aif-eps": _grid(sizes["aif_eps"]),
        "rfd-eps": _grid(sizes["rfd_eps"]),
        "xgb-fits": f"{n_fits:,}",
    }


@contract(report=Instance(object, example=None), eps=Instance(list, tuple, example=[1]))
def rid_glues(report: Any, eps: Sequence[float]) -> dict[str, str]:
    """Fig. 1's crossing (largest ε where SUE is below OUE or OLH), the 4-survey top-1 RID-ACC of GRR,
    ω-SS and SUE, and Fig. 2's Kendall τ, read from the report's rows."""
    gap = np.array([float(v) for v in report.rows["Fig1-order"]["numbers"]["gap"]])
    below = [e for e, g in zip(eps, gap) if g <= 0]
    top1 = [float(v) for v in report.rows["H2-top1"]["numbers"]["top1_4"]]
    return {
        "fig1-cross": f"{max(below):g}" if below else "none of the grid",
        "top1-4": ", ".join(pct(v) for v in top1),
        "fig2-tau": f"{float(report.rows['Fig2-trend']['numbers']['tau']):.2f}",
    }


@contract(
    report=Instance(object, example=None),
    eps95=Instance(np.ndarray, example=np.array([1.0, np.inf])),
    eps85=Instance(np.ndarray, example=np.array([1.0, np.inf])),
)
def pie_glues(report: Any, eps95: np.ndarray, eps85: np.ndarray) -> dict[str, str]:
    """The protocol spread under α-PIE at the tightest β of the grid and its smallest over β (row H10-sim),
    the spread under ε-LDP at the largest ε, the budgets at β = 0.95 and the attributes sent in clear at
    β = 0.95 and β = 0.85 (an infinite budget is an attribute sent in clear)."""
    nums = report.rows["H10-sim"]["numbers"]
    finite = eps95[np.isfinite(eps95)]
    return {
        "pie-spread": f"{float(nums['spread_pie'][0]):.1f}",  # the tightest β, uniform metric
        "pie-spread-min": f"{min(float(v) for v in nums['spread_pie']):.1f}",
        "ldp-spread": f"{float(nums['spread_ldp']):.1f}",
        "pie95-eps": rng_text(finite),
        "pie95-clear": str(int((~np.isfinite(eps95)).sum())),
        "pie85-clear": f"{int((~np.isfinite(eps85)).sum())} of {eps85.size}",
    }


@contract(xv=_MAP, aif=_MAP, eps=Instance(list, tuple, example=[1]))
def aif_glues(xv: Mapping[str, Mapping], aif: Mapping[str, Mapping], eps: Sequence[float]) -> dict[str, str]:
    """Where XGBoost sits against the Bayes curves on ACS at ε = 10 (the largest ε of its grid), its folds on
    the three datasets, its n_pk sensitivity and its largest paired excess over the oracle."""
    acs, b = xv["ACS"], aif["ACS"]
    top = max(acs[("GRR", "NK s=1n")]["eps"])
    i = list(eps).index(top)
    x = {lab: xgb_mean(acs[(lab, "NK s=1n")], top) for lab in _UNIFORM_FAKE}
    nk = {lab: float(np.mean(b[(lab, "NK")], axis=0)[i]) for lab in _UNIFORM_FAKE}
    orc = {lab: float(np.mean(b[(lab, "oracle")], axis=0)[i]) for lab in _UNIFORM_FAKE}
    gaps = [min(nk[lab], orc[lab]) - x[lab] for lab in _UNIFORM_FAKE]
    out = {
        "x-grr10": pct(x["GRR"]),
        "b-grr10": pct(nk["GRR"]),
        "o-grr10": pct(orc["GRR"]),
        "x-gap": rng_text(gaps, unit=" points"),
        "o-sue-gap": "oracle GRR − SUE-r "
        + rng_text(
            [
                float(np.mean(b[("GRR", "oracle")], axis=0)[j] - np.mean(b[("SUE-r", "oracle")], axis=0)[j])
                for j, e in enumerate(eps)
                if e >= 4
            ],
            unit=" points at ε ≥ 4",
        ),
    }
    hi = [e for e in acs[("GRR", "NK s=1n")]["eps"] if e >= 4]
    for lab, key in (("OUE-r", "x-grr-oue"), ("SUE-r", "x-grr-sue")):
        d = [xgb_mean(acs[("GRR", "NK s=1n")], e) - xgb_mean(acs[(lab, "NK s=1n")], e) for e in hi]
        out[key] = rng_text(d, fmt="{:+.1f}", unit=" points") if d else "(no ε ≥ 4 at this scale)"
    base = {"ACS": 100 / 18, "Adult": 10.0, "Nursery": 100 / 9}
    for name, key in (("ACS", "x-folds"), ("Adult", "x-adult-folds"), ("Nursery", "x-nursery-folds")):
        f = np.concatenate([xgb_mean(v) for v in xv[name].values()]) / base[name]
        out[key] = f"{f.min():.2f}- to {f.max():.1f}-fold"
    ad = min(float(np.mean(aif["Adult"][(lab, "NK")], axis=0).min()) for lab in runs_labels(aif["Adult"]))
    out["b-adult-min"] = f"{ad / 10:.2f}-fold"
    xad = float(np.concatenate([xgb_mean(v) for v in xv["Adult"].values()]).min()) / 10
    out["adult-low"] = (
        "neither reaches the paper's 1.3-fold, and we do not know what made the paper's attacker weaker there"
        if xad > 1.4
        else f"XGBoost comes down to {xad:.2f}-fold, the paper's low end"
    )
    sens = {}
    for name, cur in xv.items():
        d = [
            abs(xgb_mean(cur[(lab, "PK 0.5n")]) - xgb_mean(cur[(lab, "PK 0.1n")])).mean()
            for lab in runs_labels(cur)
            if (lab, "PK 0.1n") in cur and (lab, "PK 0.5n") in cur
        ]
        sens[name] = float(np.mean(d)) if d else float("nan")
    out["x-npk-sens"] = ", ".join(f"{v:.1f} points on {k}" for k, v in sens.items())
    exc = max(
        float(np.nanmax(np.nanmean(np.asarray(v["acc"]) - np.asarray(v["oracle"]), axis=0)))
        for cur in xv.values()
        for v in cur.values()
    )
    out["x-excess"] = f"{exc:+.2f} points"
    parts = []
    for lab in [lab for lab in runs_labels(acs) if (lab, "NK s=5n") in acs]:
        e5 = acs[(lab, "NK s=5n")]["eps"]
        gs = float(np.mean(_at_eps(acs, lab, "NK s=5n", e5) - _at_eps(acs, lab, "NK s=1n", e5)))
        gp = float(np.mean(_at_eps(acs, lab, "PK 0.5n", e5) - _at_eps(acs, lab, "PK 0.1n", e5)))
        parts.append(f"{lab}: s from 1n to 5n {gs:+.1f} points, n_pk from 0.1n to 0.5n {gp:+.1f} points")
    out["x-s-gain"] = "; ".join(parts) or "not run at this scale"
    return out


def _at_eps(xv: Mapping, lab: str, model: str, eps: Sequence[float]) -> np.ndarray:
    v = xv[(lab, model)]
    return np.array([xgb_mean(v, e) for e in eps])


@contract(cur=_MAP)
def runs_labels(cur: Mapping) -> list[str]:
    """The variant labels present in a result mapping keyed by (variant, ...)."""
    seen: list[str] = []
    for key in cur:
        if not (isinstance(key, tuple) and key and isinstance(key[0], str)):
            raise ValueError(f"cur must be keyed by (variant, ...) tuples, got the key {key!r:.80}")
        if key[0] not in seen:
            seen.append(key[0])
    return seen


@contract(xr=_MAP, xfd=_MAP, rfd=_MAP, inc=_MAP)
def rfd_glues(xr: Mapping[str, Mapping], xfd: Mapping, rfd: Mapping, inc: Mapping[str, Mapping]) -> dict[str, str]:
    """RS+RFD: the range of the paper's attacker with correct priors, its drop from RS+FD[GRR], the Bayes PK/HM
    level at ε = 1, its largest accuracy with ZIPF/EXP priors, the '3x' factor, the DIR ratio and the
    prior-aware Bayes NK's maxima."""
    cor = xr["correct"]
    allm = np.concatenate([xgb_mean(v) for v in cor.values()])
    drop = [
        xgb_mean(xfd[("GRR", "NK s=1n")], e) - xgb_mean(cor[("GRR", "NK s=1n")], e)
        for e in cor[("GRR", "NK s=1n")]["eps"]
        if e in xfd[("GRR", "NK s=1n")]["eps"] and e >= 2
    ]
    pkhm = [float(np.mean(rfd[k], axis=0)[0]) for k in rfd if k[0] == "GRR" and k[1][:2] in ("PK", "HM")]
    zx = max(float(xgb_mean(v).max()) for k in ("zipf", "exp") for v in xr[k].values())
    nk_models = {m for (_, m) in xr["zipf"]}
    fd_max = max(float(xgb_mean(v).max()) for (lab, m), v in xfd.items() if lab in _UNIFORM_FAKE and m in nk_models)
    dir_ratio = [
        float(np.mean(xgb_mean(xr["dir"][(lab, "NK s=1n")])) / np.mean(xgb_mean(xfd[(lab, "NK s=1n")])))
        for lab in _UNIFORM_FAKE
        if (lab, "NK s=1n") in xr["dir"]
    ]
    aware = [float(np.mean(inc[k][("GRR", "NK_prior")], axis=0).max()) for k in inc]
    return {
        "x-rfd-range": rng_text(allm, unit=" %"),
        "x-rfd-drop": rng_text(drop, unit=" points") if drop else "(no ε ≥ 2 at this scale)",
        "b-rfd-pk": pct(max(pkhm)) if pkhm else "n/a",
        "x-inc-max": pct(zx),
        "x-3x": f"{fd_max / zx:.1f}",
        "x-dir": rng_text([100 * r for r in dir_ratio], fmt="{:.0f}", unit=" %"),
        "b-aware": rng_text(aware, fmt="{:.0f}", unit=" %"),
    }


@contract(costs=Instance(list, tuple, example=[]), seed=Instance(int, example=1), paper=_MAP)
def cost_glues(costs: Sequence[Mapping[str, Any]], seed: int, paper: Mapping[str, Any]) -> dict[str, str]:
    """The cost model's statements from the page's fits (``costs``: the ``cost`` of each
    :func:`ldpnb.papers.risks.runs.xgb_run`): their number and CPU, and, by the model of
    :func:`ldpnb.papers.risks.protocol.cost_model` (CPU linear in training rows, per dataset and GRR/UE), the
    paper's whole protocol and the SCALE=paper subset (``paper``: :func:`runs.sizes` at paper scale)."""
    fits = [f for c in costs for f in c["fits"]]
    cpu = [{"cpu": x} for c in costs for x in c["cpu"]]
    n_users = {k: v for c in costs for k, v in c["n_users"].items()}
    coef = protocol.cost_model(fits, cpu, n_users)
    full = protocol.protocol_plan(seed=seed)
    sub = runs.xgb_plan(paper, list(paper["xgb"]), seed=seed)
    tot, ptot = protocol.protocol_cost(full, coef)["total"], protocol.protocol_cost(sub, coef)["total"]
    return {
        "xgb-cpu": f"{sum(x['cpu'] for x in cpu):.0f} s",
        "protocol-fits": f"{len(full):,}",
        "protocol-cost": (
            f"about {tot / 3600:.0f} CPU hours ({tot / 64 / 60:.0f} minutes on 64 "
            f"single-thread workers, {tot / 2 / 3600:.0f} hours on this book's two cores)"
        ),
        "paper-fits": f"{len(sub):,}",
        "paper-cost": f"about {ptot / 60:.0f} CPU minutes",
        "paper-xgb": "; ".join(f"Fig. {_block_name(b)}: {runs.xgb_caption(paper, b)}" for b in paper["xgb"]),
    }


def _block_name(block: str) -> str:
    """``"fig3-grid"`` -> ``"3 (s = 3n, 5n)"``: a block of :func:`ldpnb.papers.risks.runs.sizes` for a caption."""
    for tail, words in (
        ("-grid", " (s = 3n, 5n)"),
        ("-dir", " (DIR)"),
        ("-more", " (other models)"),
        ("-s", " (row H5-s)"),
    ):
        block = block.replace(tail, words)
    return block[3:]
