"""Figures of the lift chapter (Zarrabian, Ding and Sadeghi): one function per figure of the paper
(:func:`fig1` ... :func:`fig8`) and a few of the chapter's own. Each returns a closed
:class:`matplotlib.figure.Figure` (or a pandas ``Styler`` for tables), drawn for the book's 780 px
column: at most two panels per row.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import matplotlib.lines as mlines
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ldpnb.contracts import Instance, Integer, Items, OneOf, Optional, contract
from ldpnb.repro.plotting import column_figsize, paper_title
from ldpnb.stats import median

__all__ = [
    "fig1",
    "fig2",
    "fig3",
    "fig4",
    "fig5",
    "fig6",
    "fig7",
    "fig8",
    "algorithm1",
    "repair",
    "timing",
    "complexity",
    "growth_table",
    "proposition_table",
    "table",
]

_DF = Instance(pd.DataFrame, example=pd.DataFrame())
_MAP = Instance(dict, example={})
_STR = Instance(str, example="Qhull")
_N = Integer(1, 10**9)
_PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C564B"]
_PANELS = {
    "nmi": ("(a) utility", "NMI  $I(X;Y)/H(X)$"),
    "min_leak": ("(b) min-lift leakage", r"$|\log \min_y \Psi(y)|$ (nats)"),
    "max_leak": ("(c) max-lift leakage", r"$\log \max_y \Lambda(y)$ (nats)"),
    "time": ("(d) time per mechanism", "median CPU time (s)"),
}
_EPS = r"LDP budget $\varepsilon$ (nats)"


def _fig(nrows: int, ncols: int, *, aspect: float = 0.72, **kw):
    fig, axes = plt.subplots(
        nrows,
        ncols,
        figsize=column_figsize(ncols, nrows, panel_aspect=aspect),
        layout="constrained",
        squeeze=False,
        **kw,
    )
    plt.close(fig)
    return fig, axes


def _curve(summary, label):
    return summary[summary["curve"] == label].sort_values("eps")


def _put(
    summary,
    labels: Sequence[str],
    *,
    number: str,
    title: str,
    names: Mapping[str, str] | None = None,
    lams: Mapping[str, float] | None = None,
    ylims: Mapping[str, tuple] | None = None,
    colors: Mapping[str, str] | None = None,
    time: Mapping[str, "object"] | None = None,
    styles: Mapping[str, str] | None = None,
):
    """Panels (a) NMI, (b) min-lift and (c) max-lift leakage against epsilon on a 2 x 2 grid; the
    fourth cell holds the legend, or panel (d) (median times, linear axis) when ``time`` is given.
    Budgets ``eps_l = lam eps`` and ``eps_u = (1 - lam) eps`` are dotted in the curve's colour; the
    NMI curves carry the pointwise 95 % intervals of the means (Hall's, columns ``nmi_lo``,
    ``nmi_hi`` of :func:`~ldpnb.papers.lift.experiments.summarise`) as bands."""
    names, lams, ylims, colors, styles = names or {}, lams or {}, ylims or {}, colors or {}, styles or {}
    fig, axes = _fig(2, 2)
    ax = {"nmi": axes[0, 0], "min_leak": axes[0, 1], "max_leak": axes[1, 0], "time": axes[1, 1]}
    handles, drawn = [], set()
    for i, lab in enumerate(labels):
        d = _curve(summary, lab)
        if d.empty:
            continue
        c = colors.get(lab, _PALETTE[i % len(_PALETTE)])
        ls = styles.get(lab, "-")
        for q in ("nmi", "min_leak", "max_leak"):
            (h,) = ax[q].plot(d["eps"], d[q], marker="o", ms=2.5, lw=1.4, ls=ls, color=c, label=names.get(lab, lab))
            if q == "nmi" and d["n"].min() > 1:
                ax[q].fill_between(d["eps"], d["nmi_lo"], d["nmi_hi"], color=c, alpha=0.15, lw=0)
            if lab in lams and q != "nmi" and lams[lab] not in drawn:
                lam = lams[lab]
                shared = sum(v == lam for v in lams.values()) > 1  # one grey line for a budget shared by curves
                ax[q].plot(
                    d["eps"],
                    d["eps"] * (lam if q == "min_leak" else 1 - lam),
                    ls=":",
                    lw=1.1,
                    color="#555555" if shared else c,
                )
        if lab in lams:
            drawn.add(lams[lab])
        handles.append(h)
        if time is not None and lab in time:
            t = time[lab]
            ax["time"].plot(t.index, t.values, marker="o", ms=2.5, lw=1.4, ls=ls, color=c)
    for q, a in ax.items():
        if q == "time" and time is None:
            continue
        sub, ylabel = _PANELS[q]
        a.set_title(sub, fontsize=10)
        a.set_xlabel(_EPS)
        a.set_ylabel(ylabel)
        if q in ylims:
            a.set_ylim(*ylims[q])
    if any(lab in lams for lab in labels):
        label = r"budget $\varepsilon_l$ (b), $\varepsilon_u$ (c)"
        handles.append(mlines.Line2D([], [], ls=":", color="grey", label=label))
    if time is None:
        ax["time"].axis("off")
        ax["time"].legend(handles=handles, loc="center", frameon=False, fontsize=9)
    else:
        ax["nmi"].legend(handles=handles, loc="lower right", fontsize=7.5)
    paper_title(fig, number, title)
    return fig


_LAM_COLORS = {"LDP": "#000000", 0.35: "#D55E00", 0.5: "#009E73", 0.65: "#CC79A7"}


def _watchdog(summary, prefix: str, number: str, title: str, lams=(0.35, 0.5, 0.65)):
    labels = [f"{prefix} LDP"] + [f"{prefix} ALIP {lam}" for lam in lams]
    names = {f"{prefix} LDP": "LDP", **{f"{prefix} ALIP {lam}": f"ALIP, λ = {lam}" for lam in lams}}
    colors = {f"{prefix} LDP": _LAM_COLORS["LDP"], **{f"{prefix} ALIP {lam}": _LAM_COLORS[lam] for lam in lams}}
    return _put(
        summary,
        labels,
        number=number,
        title=title,
        names=names,
        colors=colors,
        lams={f"{prefix} ALIP {lam}": lam for lam in lams},
        ylims={"nmi": (0, 1.02), "min_leak": (0, 4.6), "max_leak": (0, 1.1)},
    )


@contract(samples=_MAP, n_dist=_N)
def fig1(samples: Mapping[str, np.ndarray], n_dist: int):
    """Fig. 1: histograms of ``log Psi(x)`` and ``log Lambda(x)`` of random ``P_SX`` (0.05-wide bins)."""
    bins = np.arange(-13, 2.0001, 0.05)
    fig, axes = _fig(1, 1, aspect=0.45)
    ax = axes[0, 0]
    for key, lab, c in (
        ("log_psi", r"$\log \Psi(x)$ (min-lift)", "#0072B2"),
        ("log_lambda", r"$\log \Lambda(x)$ (max-lift)", "#D55E00"),
    ):
        h, _ = np.histogram(samples[key], bins=bins)
        ax.stairs(h / samples[key].size, bins, fill=True, alpha=0.6, color=c, label=lab)
    ax.set_xlabel("log-lift (nats)")
    ax.set_ylabel("probability per 0.05-wide bin")
    ax.set_xlim(-13, 2)
    ax.legend(loc="upper left")
    paper_title(fig, "Fig. 1", f"lift asymmetry, {n_dist:,} random $P_{{SX}}$, |X| = 17, |S| = 5")
    return fig


@contract(summary=_DF, n_dist=_N)
def fig2(summary, n_dist: int):
    """Fig. 2: the watchdog with complete merging under LDP and ALIP (three lambda)."""
    return _watchdog(summary, "CM", "Fig. 2", f"watchdog, complete merging ({n_dist:,} random $P_{{SX}}$)")


@contract(summary=_DF, n_dist=_N)
def fig3(summary, n_dist: int):
    """Fig. 3: AORR under ALIP (three lambda)."""
    labels = [f"AORR ALIP {lam}" for lam in (0.35, 0.5, 0.65)]
    return _put(
        summary,
        labels,
        number="Fig. 3",
        title=f"AORR ({n_dist} random $P_{{SX}}$)",
        names={lab: f"AORR, λ = {lab.rsplit(' ', 1)[1]}" for lab in labels},
        colors={lab: _LAM_COLORS[float(lab.rsplit(" ", 1)[1])] for lab in labels},
        lams={lab: float(lab.rsplit(" ", 1)[1]) for lab in labels},
        ylims={"nmi": (0.6, 1.01), "min_leak": (0, 4.2), "max_leak": (0, 1.1)},
    )


@contract(summary=_DF, n_dist=_N)
def fig4(summary, n_dist: int):
    """Fig. 4: the watchdog with subset merging (Algorithm 1) under LDP and ALIP (three lambda)."""
    return _watchdog(summary, "SM", "Fig. 4", f"watchdog, subset merging ({n_dist:,} random $P_{{SX}}$)")


@contract(summary=_DF, times=_MAP, n_dist=_N)
def fig5(summary, times: Mapping[str, "object"], n_dist: int):
    """Fig. 5: AORR, SRR (Algorithm 2) and subset merging at lambda = 0.65, with (d) the median
    construction time on a linear axis, as in the paper."""
    labels = ["AORR ALIP 0.65", "SRR ALIP 0.65", "SM timed ALIP 0.65"]
    names = {"AORR ALIP 0.65": "AORR", "SRR ALIP 0.65": "SRR (Alg. 2)", "SM timed ALIP 0.65": "subset merging (Alg. 1)"}
    colors = {"AORR ALIP 0.65": "#009E73", "SRR ALIP 0.65": "#CC79A7", "SM timed ALIP 0.65": "#0072B2"}
    return _put(
        summary,
        labels,
        number="Fig. 5",
        title=f"AORR, SRR and subset merging, λ = 0.65 ({n_dist} random $P_{{SX}}$)",
        names=names,
        colors=colors,
        lams={lab: 0.65 for lab in labels},
        time=times,
        ylims={"nmi": (0.3, 1.01), "min_leak": (0, 4.2), "max_leak": (0, 1.1)},
    )


@contract(summary=_DF, n_dist=_N)
def fig6(summary, n_dist: int):
    """Fig. 6: SRR and subset merging at |X| = 200, |S| = 15, lambda = 0.5."""
    labels = ["SRR ALIP 0.5", "SM ALIP 0.5"]
    return _put(
        summary,
        labels,
        number="Fig. 6",
        title=f"|X| = 200, |S| = 15, λ = 0.5 ({n_dist} random $P_{{SX}}$)",
        names={"SRR ALIP 0.5": "SRR (Alg. 2)", "SM ALIP 0.5": "subset merging (Alg. 1)"},
        colors={"SRR ALIP 0.5": "#CC79A7", "SM ALIP 0.5": "#0072B2"},
        lams={lab: 0.5 for lab in labels},
        ylims={"nmi": (0.75, 1.01), "min_leak": (0, 4.2), "max_leak": (0.3, 1.3)},
    )


@contract(summary=_DF, n_dist=_N)
def fig7(summary, n_dist: int):
    """Fig. 7: subset merging under ALIP, l1- and chi2-privacy (lambda 0.5 and 0.65)."""
    labels = ["SM ALIP 0.5", "SM l1 0.5", "SM l1 0.65", "SM chi2 0.5", "SM chi2 0.65"]
    names = {
        "SM ALIP 0.5": "ALIP, λ = 0.5",
        "SM l1 0.5": "ℓ1, λ = 0.5",
        "SM l1 0.65": "ℓ1, λ = 0.65",
        "SM chi2 0.5": "χ², λ = 0.5",
        "SM chi2 0.65": "χ², λ = 0.65",
    }
    colors = {
        "SM ALIP 0.5": "#000000",
        "SM l1 0.5": "#0072B2",
        "SM l1 0.65": "#0072B2",
        "SM chi2 0.5": "#D55E00",
        "SM chi2 0.65": "#D55E00",
    }
    styles = {"SM l1 0.65": "--", "SM chi2 0.65": "--"}
    return _put(
        summary,
        labels,
        number="Fig. 7",
        title=f"ALIP, ℓ1- and χ²-privacy, subset merging ({n_dist:,} random $P_{{SX}}$)",
        names=names,
        colors=colors,
        styles=styles,
        ylims={"nmi": (0.4, 1.01), "min_leak": (0, 4.6), "max_leak": (0, 1.1)},
    )


@contract(summary=_DF, n_dist=_N)
def fig8(summary, n_dist: int):
    """Fig. 8: subset merging under ALIP and alpha-lift privacy (alpha in {2, 10, 100}), lambda = 0.5."""
    labels = ["SM alpha=2", "SM alpha=10", "SM alpha=100", "SM ALIP 0.5"]
    names = {"SM alpha=2": "α = 2", "SM alpha=10": "α = 10", "SM alpha=100": "α = 100", "SM ALIP 0.5": "ALIP, λ = 0.5"}
    colors = {"SM alpha=2": "#E69F00", "SM alpha=10": "#CC79A7", "SM alpha=100": "#0072B2", "SM ALIP 0.5": "#000000"}
    return _put(
        summary,
        labels,
        number="Fig. 8",
        title=f"ALIP and α-lift privacy, subset merging ({n_dist:,} random $P_{{SX}}$)",
        names=names,
        colors=colors,
        lams={"SM ALIP 0.5": 0.5},
        ylims={"nmi": (0.3, 1.01), "min_leak": (0, 4.6), "max_leak": (0, 1.1)},
    )


@contract(summary=_DF, n_dist=_N)
def algorithm1(summary, n_dist: int):
    """Algorithm 1 as implemented against the printed risk score (and complete merging, which the
    printed outer loop returns): NMI and min-lift leakage, lambda = 0.5."""
    labels = ["SM ALIP 0.5", "SM ALIP 0.5 printed omega", "CM ALIP 0.5"]
    names = {
        "SM ALIP 0.5": "ω = Λ + 1/Ψ (this book)",
        "SM ALIP 0.5 printed omega": "ω = Λ + Ψ (as printed)",
        "CM ALIP 0.5": "complete merging (= printed line 4)",
    }
    colors = {"SM ALIP 0.5": "#009E73", "SM ALIP 0.5 printed omega": "#D55E00", "CM ALIP 0.5": "#7F7F7F"}
    fig, axes = _fig(1, 2)
    for i, lab in enumerate(labels):
        d = _curve(summary, lab)
        for a, q in zip(axes[0], ("nmi", "min_leak")):
            a.plot(d["eps"], d[q], marker="o", ms=2.5, color=colors[lab], label=names[lab])
    axes[0, 1].plot(d["eps"], 0.5 * d["eps"], ls=":", color="grey", label=r"budget $\varepsilon_l$")
    for a, q in zip(axes[0], ("nmi", "min_leak")):
        a.set_title(_PANELS[q][0], fontsize=10)
        a.set_xlabel(_EPS)
        a.set_ylabel(_PANELS[q][1])
    axes[0, 0].legend(fontsize=7.5, loc="lower right")
    paper_title(fig, "Algorithm 1", f"as implemented and as printed, λ = 0.5 ({n_dist:,} random $P_{{SX}}$)")
    return fig


@contract(summary=_DF, excess=_DF, n_dist=_N, lams=Items(OneOf(0.35, 0.5, 0.65), max_size=3))
def repair(summary, excess, n_dist: int, lams=(0.35, 0.5, 0.65)):
    """The watchdog's per-distribution violations (subset merging) and the repair extension:
    (a) share of distributions above budget; (b) mean min-lift leakage minus its budget with the
    intervals of ``excess`` (:func:`~ldpnb.papers.lift.experiments.budget_estimate`'s table: 99 %
    Hall intervals simultaneous over the points), Algorithm 1 against Algorithm 1 + repair."""
    fig, axes = _fig(1, 2)
    a, b = axes[0]
    for lam in lams:
        c = _LAM_COLORS[lam]
        d = _curve(summary, f"SM ALIP {lam}")
        a.plot(d["eps"], 100 * d["violates"], marker="o", ms=2.5, color=c, label=f"λ = {lam}")
        r = _curve(summary, f"SM ALIP {lam} repaired")
        a.plot(r["eps"], 100 * r["violates"], ls="--", color=c, lw=1)
        for lab, ls, mk in ((f"SM ALIP {lam}", "-", "o"), (f"SM ALIP {lam} repaired", "--", None)):
            e = excess[(excess["curve"] == lab) & (excess["q"] == "min_leak")].sort_values("eps")
            b.errorbar(
                e["eps"],
                e["excess"],
                yerr=[e["excess"] - e["low"], e["high"] - e["excess"]],
                ls=ls,
                marker=mk,
                ms=2.5,
                color=c,
                lw=1,
                capsize=1.5,
            )
    d = _curve(summary, "SM LDP")
    a.plot(d["eps"], 100 * d["violates"], marker="o", ms=2.5, color=_LAM_COLORS["LDP"], label="LDP")
    b.axhline(0, color="grey", lw=1)
    a.set_ylabel("distributions above budget (%)")
    b.set_ylabel(r"mean min-lift leakage $-\ \varepsilon_l$ (nats)")
    a.set_title("(a) per distribution (dashed: repaired)", fontsize=10)
    b.set_title("(b) means, 99 % intervals (dashed: repaired)", fontsize=10)
    for x in (a, b):
        x.set_xlabel(_EPS)
    a.legend(fontsize=8)
    paper_title(fig, "Figs. 2, 4", f"the watchdog above its budget, and the repair ({n_dist:,} random $P_{{SX}}$)")
    return fig


@contract(tab=_DF, backend=_STR, n_dist=_N, repeats=_N)
def timing(tab, *, backend: str, n_dist: int, repeats: int):
    """Sec. V-B / Fig. 5(d): median time ratio SRR/AORR per epsilon with the interval of
    :func:`~ldpnb.papers.lift.experiments.timing_verdicts` (order statistics, 99 % simultaneous over
    epsilon; none with too few distributions); the paper's 'SRR slower' window 1 <= eps <= 2.5 shaded."""
    fig, axes = _fig(1, 1, aspect=0.45)
    ax = axes[0, 0]
    ax.axvspan(1, 2.5, color="#E69F00", alpha=0.15, label="paper: SRR slower")
    colors = {"SRR slower": "#D55E00", "SRR faster": "#0072B2", "tie": "#7F7F7F", "undecided": "#7F7F7F"}
    for v, c in colors.items():
        d = tab[tab["verdict"] == v]
        if d.empty:
            continue
        err = None if d["lo"].isna().any() else [d["ratio"] - d["lo"], d["hi"] - d["ratio"]]
        ax.errorbar(d.index, d["ratio"], yerr=err, fmt="o", ms=3.5, color=c, capsize=2, label=v)
    ax.axhline(1, color="grey", lw=1)
    ax.set_yscale("log")
    ax.set_xlabel(_EPS)
    ax.set_ylabel(r"median $t_{SRR} / t_{AORR}$ (CPU time)")
    ax.legend(fontsize=8, ncol=2, loc="lower left")
    paper_title(fig, "Fig. 5(d)", f"SRR / AORR time, {n_dist} $P_{{SX}}$, medians of {repeats} runs")
    return fig


@contract(growth=_DF, heldout=_DF, srr_by_block=_DF)
def complexity(growth, heldout, srr_by_block):
    """Sec. V-A: (a) AORR's median vertex count against |X| (log scale, one colour per epsilon): the
    sizes used for the fits (filled, with the 95 % order-statistic interval of the median where there
    are at least 6 distributions), the held-out sizes (open), the exponential fit (dashed) and the
    power-law fit (dotted); (b) SRR's median enumerated vertices and median time against its largest
    block (Fig. 5 runs)."""
    fig, axes = _fig(1, 2)
    a, b = axes[0]
    points = []
    for i, (eps, d) in enumerate(growth.groupby("eps")):
        m = d.groupby("n_x")["n_vertices"].median()
        t = heldout[heldout["eps"] == eps].groupby("n_x")["n_vertices"].median()
        x, y = m.index.to_numpy(float), np.log10(m.to_numpy(float))
        xs = np.linspace(x.min(), max(x.max(), t.index.max() if len(t) else x.max()), 60)
        fe, fp = np.polyfit(x, y, 1), np.polyfit(np.log10(x), y, 1)
        c = _PALETTE[i]
        points.append(a.semilogy(m.index, m.values, "o", ms=3.5, color=c, label=f"ε = {eps:g}")[0])
        runs = d.pivot(index="dist", columns="n_x", values="n_vertices").to_numpy(float)
        if runs.shape[0] >= 6:
            ci = median(runs)
            a.errorbar(
                m.index, m.values, yerr=[m.values - ci.low, ci.high - m.values], fmt="none", color=c, capsize=2, lw=1
            )
        a.semilogy(t.index, t.values, "o", ms=4.5, mfc="none", color=c)
        a.semilogy(xs, 10 ** np.polyval(fe, xs), "--", lw=1, color=c)
        a.semilogy(xs, 10 ** np.polyval(fp, np.log10(xs)), ":", lw=1.3, color=c)
    extra = [
        mlines.Line2D([], [], ls="--", color="grey", label="exponential fit"),
        mlines.Line2D([], [], ls=":", color="grey", label="power-law fit"),
        mlines.Line2D([], [], ls="", marker="o", mfc="none", color="grey", label="held out"),
    ]
    a.set_xlabel("|X|")
    a.set_ylabel("AORR vertices (median)")
    a.set_title("(a) AORR, |S| = 5, λ = 0.5", fontsize=10)
    a.legend(handles=points + extra, fontsize=7.5, loc="upper left")
    b.semilogy(srr_by_block.index, srr_by_block["n_vertices"], marker="o", ms=3, color="#CC79A7", label="vertices")
    b.set_xlabel("largest block of SRR")
    b.set_ylabel("median vertices enumerated")
    b.set_title("(b) SRR, Fig. 5 runs", fontsize=10)
    t = b.twinx()
    t.grid(False)
    t.semilogy(srr_by_block.index, srr_by_block["time"], marker="s", ms=3, ls="--", color="#7F7F7F", label="CPU time")
    t.set_ylabel("median CPU time (s)")
    b.legend(handles=b.get_lines() + t.get_lines(), fontsize=8, loc="upper left")
    paper_title(fig, "Secs. III-A2, V-A", "complexity of AORR and SRR")
    return fig


@contract(laws=_DF)
def growth_table(laws):
    """The held-out predictions of :func:`~ldpnb.papers.lift.experiments.growth_laws` as a table."""
    df = laws.rename(
        columns={
            "eps": "ε",
            "n_x": "|X|",
            "measured": "measured (median)",
            "exp_pred": "exponential fit",
            "pow_pred": "power-law fit",
            "exp_err": "log10 error (exp.)",
            "pow_err": "log10 error (power)",
        }
    )
    cols = [
        "ε",
        "|X|",
        "measured (median)",
        "exponential fit",
        "power-law fit",
        "log10 error (exp.)",
        "log10 error (power)",
    ]
    fmt = {c: "{:,.0f}" for c in cols[2:5]} | {c: "{:.2f}" for c in cols[5:]} | {"ε": "{:g}"}
    return (
        df[cols]
        .style.hide(axis="index")
        .format(fmt)
        .set_caption(
            "AORR's vertex count at the held-out sizes against the two growth laws fitted at the smaller sizes"
        )
    )


@contract(df=_DF, caption=Optional(Instance(str, example="a caption")), precision=Integer(0, 12))
def table(df, *, caption: str | None = None, precision: int = 3):
    """A small table as a pandas ``Styler`` (no index, numbers rounded), for ``display``."""
    sty = df.style.hide(axis="index").format(precision=precision)
    return sty.set_caption(caption) if caption else sty


_PROPS = [
    ("P1.1", "Prop. 1.1", "I(S;Y) ≤ ε_u", "holds"),
    ("P1.2 T <= (e", "Prop. 1.2", "T(S;Y) ≤ (e^ε_u − 1)/2", "false as printed"),
    ("P1.2 chi2 <= (e", "Prop. 1.2", "χ²(S;Y) ≤ (e^ε_u − 1)²", "false as printed"),
    ("P1.2 T <= max", "Prop. 1.2, corrected", "T(S;Y) ≤ max(e^ε_u − 1, 1 − e^−ε_l)/2", "corrected"),
    ("P1.2 chi2 <= max", "Prop. 1.2, corrected", "χ²(S;Y) ≤ max(e^ε_u − 1, 1 − e^−ε_l)²", "corrected"),
    ("P1.3 Sibson", "Prop. 1.3", "Sibson I_α ≤ α/(α−1) ε_u (α = 2, 5, 50)", "holds"),
    ("P1.3 Arimoto", "Prop. 1.3", "Arimoto I_α ≤ α/(α−1) ε_u (α = 2, 5, 50)", "holds"),
    ("P1.4", "Prop. 1.4", "max_y log Γ(y) ≤ ε_l + ε_u", "holds"),
    ("P3.1 max l1-lift <= e^eu-1", "Prop. 3.1", "max ℓ1-lift ≤ e^ε_u − 1", "false as printed"),
    ("P3.1 max l1-lift <= max", "Prop. 3.1, corrected", "max ℓ1-lift ≤ max(e^ε_u − 1, 1 − e^−ε_l)", "corrected"),
    ("P3.1 max l1-lift <= 2", "Prop. 3.1, corrected", "max ℓ1-lift ≤ 2(1 − e^−ε_u)", "corrected"),
    ("P3.2 max chi2-lift <= (e", "Prop. 3.2", "max χ²-lift ≤ (e^ε_u − 1)²", "false as printed"),
    ("P3.2 max chi2-lift <= max", "Prop. 3.2, corrected", "max χ²-lift ≤ max(e^ε_u − 1, 1 − e^−ε_l)²", "corrected"),
    ("P3.3", "Prop. 3.3", "max α-lift ≤ e^ε_u (α = 2, 5, 50)", "holds"),
    ("P4.1", "Prop. 4.1", "max Λ ≤ max ℓ1-lift / P_S(s_ȳ) + 1", "holds"),
    ("P4.2", "Prop. 4.2", "max Λ ≤ (max χ²-lift / P_S(s_ȳ))^½ + 1", "holds"),
    ("P4.3", "Prop. 4.3", "max Λ ≤ max α-lift / P_S(s_ȳ)^(1/α) (α = 2, 5, 50)", "holds"),
    ("P5.1 max l1-lift-inv <= e^el-1", "Prop. 5.1", "max ℓ1-lift-inverse ≤ e^ε_l − 1", "false as printed"),
    (
        "P5.1 max l1-lift-inv <= max",
        "Prop. 5.1, corrected",
        "max ℓ1-lift-inverse ≤ max(e^ε_l − 1, 1 − e^−ε_u)",
        "corrected",
    ),
    ("P5.2 max chi2-lift-inv <= (e", "Prop. 5.2", "max χ²-lift-inverse ≤ (e^ε_l − 1)²", "false as printed"),
    (
        "P5.2 max chi2-lift-inv <= max",
        "Prop. 5.2, corrected",
        "max χ²-lift-inverse ≤ max(e^ε_l − 1, 1 − e^−ε_u)²",
        "corrected",
    ),
    ("P5.3", "Prop. 5.3", "max α-lift-inverse ≤ e^ε_l (α = 2, 5, 50)", "holds"),
    ("P6.1", "Prop. 6.1", "1/min Ψ ≤ (max ℓ1-lift-inverse + P_S(s)) / P_S(s)", "holds"),
    ("P6.2", "Prop. 6.2", "1/min Ψ ≤ ((max χ²-lift-inverse)^½ + P_S(s)^½) / P_S(s)^½", "holds"),
    ("P6.3", "Prop. 6.3", "1/min Ψ ≤ max α-lift-inverse / P_S(s)^(1/α) (α = 2, 5, 50)", "holds"),
]


@contract(violations=_DF, n_instances=_N)
def proposition_table(violations, n_instances: int):
    """The inequalities of Props. 1 and 3-6 at the tight budgets of random mechanisms: one line per
    inequality (the variants for several alpha grouped), with its status and the violations found."""
    rows = []
    for prefix, prop, text, status in _PROPS:
        sel = [b for b in violations.index if b.startswith(prefix)]
        rows.append(
            {
                "proposition": prop,
                "inequality": text,
                "status": status,
                "violations": int(violations.loc[sel, "violations"].sum()),
                "checks": len(sel) * n_instances,
            }
        )
    df = pd.DataFrame(rows)
    df["rate"] = df["violations"] / df["checks"]
    return (
        df.style.hide(axis="index")
        .format({"rate": "{:.2%}", "checks": "{:,}"})
        .set_caption(f"Inequalities at the tight budgets of {n_instances:,} random mechanisms")
    )
