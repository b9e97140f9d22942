"""Lift paper (Zarrabian, Ding and Sadeghi): figure layout of the privacy-utility sweeps.
"""

from __future__ import annotations

from typing import Sequence
import numpy as np


_PANEL_LABELS = {
    "nmi": ("Utility", "NMI  $I(X;Y)/H(X)$"),
    "min_leak": ("Min-lift leakage", r"$|\log \min_y \Psi(y)|$ (nats)"),
    "max_leak": ("Max-lift leakage", r"$\log \max_y \Lambda(y)$ (nats)"),
    "time": ("Time", "mean construction time (s)"),
}


def put_figure(
    summary, labels: Sequence[str], *, number: str, title: str, names: dict | None = None,
    lams: dict | None = None, panels: Sequence[str] = ("nmi", "min_leak", "max_leak"),
    ylims: dict | None = None, colors: dict | None = None, logy_time: bool = True,
):
    """Figure in the layout of the paper's Figs. 2-8: one panel per quantity against epsilon.

    ``summary`` is :func:`summarise`'s output; ``labels`` the curves to draw (in order); ``names``
    maps labels to legend text; ``lams`` maps labels to lambda: the budgets ``eps_l = lam eps``
    (min-lift panel) and ``eps_u = (1-lam) eps`` (max-lift panel) are drawn dotted in the curve's
    colour. NMI curves carry +-2 standard-error bands. Returns the matplotlib figure.
    """
    import matplotlib.pyplot as plt

    from ldpnb.repro.plotting import COLORS, paper_title

    palette = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C564B"]
    names = names or {}
    lams = lams or {}
    ylims = ylims or {}
    fig, axes = plt.subplots(1, len(panels), figsize=(4.6 * len(panels), 3.9))
    axes = np.atleast_1d(axes)
    for i, lab in enumerate(labels):
        d = summary[summary["curve"] == lab].sort_values("eps")
        if d.empty:
            continue
        c = (colors or {}).get(lab) or COLORS.get(lab.lower()) or palette[i % len(palette)]
        for ax, q in zip(axes, panels):
            ax.plot(d["eps"], d[q], marker="o", ms=3, color=c, label=names.get(lab, lab))
            if q == "nmi" and "nmi_se" in d and d["n"].min() > 1:
                ax.fill_between(d["eps"], d[q] - 2 * d["nmi_se"], d[q] + 2 * d["nmi_se"], color=c, alpha=0.15, lw=0)
            if lab in lams and q in ("min_leak", "max_leak"):
                lam = lams[lab]
                b = d["eps"] * (lam if q == "min_leak" else 1 - lam)
                ax.plot(d["eps"], b, ls=":", color=c, lw=1.2)
    for ax, q in zip(axes, panels):
        sub, ylabel = _PANEL_LABELS[q]
        ax.set_title(sub)
        ax.set_xlabel(r"LDP budget $\varepsilon$ (nats)")
        ax.set_ylabel(ylabel)
        if q == "time" and logy_time:
            ax.set_yscale("log")
        if q in ylims:
            ax.set_ylim(*ylims[q])
    axes[0].legend(fontsize=8, loc="lower right")
    if any(lab in lams for lab in labels) and len(panels) > 1:
        axes[1].plot([], [], ls=":", color="grey", label="budget $\\varepsilon_l$ / $\\varepsilon_u$")
        axes[1].legend(fontsize=8, loc="upper left")
    paper_title(fig, number, title)
    fig.tight_layout()
    return fig
