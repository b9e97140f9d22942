"""PRIVIC (Biswas and Palamidessi 2023): one function per figure of the paper, plus the chapter's
supporting figures.  Each returns a closed :class:`matplotlib.figure.Figure` sized for the book's
column (at most two panels per row).

Paper figures: :func:`fig1` (the island), :func:`fig2` (elasticity, A and B), :func:`fig3` (statistical
utility), :func:`fig4` (the BA-IBU duality), :func:`fig5` (the PRIVIC loop), :func:`fig6` (the data),
:func:`fig7` (PRIVIC's estimates), :func:`fig8_9` (convergence, Tables III-IV), :func:`fig10` (final
EMD against beta), :func:`fig11` (adversarial users).  Supporting: :func:`ba_history`,
:func:`rd_plane`, :func:`ibu_budgets`, :func:`mle_gaps`, :func:`privic_variants`.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from ldpnb.contracts import REPS, Array, Boolean, Instance, Integer, Optional, Real, Unchecked, contract
from ldpnb.papers.privic.model import _shape
from ldpnb.papers.privic.values import CITY_NAMES, ISLAND_A, ISLAND_B
from ldpnb.repro.plotting import COLUMN_INCHES, color

__all__ = [
    "heatmap",
    "clockwise",
    "fig1",
    "fig2",
    "fig3",
    "fig4",
    "fig5",
    "fig6",
    "fig7",
    "fig8_9",
    "fig10",
    "fig11",
    "ba_history",
    "rd_plane",
    "ibu_budgets",
    "mle_gaps",
    "privic_variants",
]

W = COLUMN_INCHES
_MAP = Instance(Mapping, example={})


def _is_index(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


_AX = Unchecked("a matplotlib Axes", example=None)
_FRAME = Unchecked("a DataFrame", example=None)
#: Points (I(X;Y), AvgD) of the rate-distortion plane, one per row.
_PLANE = Array(2, shape=(None, 2))
C_BA, C_LAP, C_B = color("ba"), color("lap"), "#009E73"
MARKS = {"A": ISLAND_A, "B": ISLAND_B}


def _fig(*args, **kw):
    import matplotlib.pyplot as plt  # noqa: PLC0415 lazy: plotting is opt-in (matplotlib loads when a figure is drawn)

    fig, axes = plt.subplots(*args, **kw)
    plt.close(fig)
    return fig, axes


@contract(
    ax=_AX,
    vec=Array(1),
    shape=Unchecked("a city name or (rows, cols)", example="paris"),
    title=Instance(str, example=""),
    cmap=Instance(str, example="viridis"),
    vmax=Optional(Real(0.0, low_open=True)),
    marks=Optional(Instance(Mapping, example={})),
    colorbar=Boolean(),
    label=Instance(str, example="probability"),
)
def heatmap(
    ax,
    vec,
    shape,
    *,
    title: str = "",
    cmap: str = "viridis",
    vmax=None,
    marks=None,
    colorbar: bool = True,
    label: str = "probability",
):
    """Draw a vector over the grid (row 0 = north at the top, column 0 = west at the left), with
    labelled cells ``marks = {"A": (r, c), ...}``."""
    from matplotlib.ticker import MaxNLocator  # noqa: PLC0415 lazy: plotting is opt-in (matplotlib loads when a figure is drawn)

    rows, cols = _shape(shape)
    if vec.size != rows * cols:
        raise ValueError(
            f"vec must hold one value per cell of the {rows} x {cols} grid ({rows * cols}), got {vec.size}"
        )
    for name, cell in (marks or {}).items():
        if not (isinstance(cell, (tuple, list)) and len(cell) == 2 and all(_is_index(v) for v in cell)):
            raise ValueError(f"marks[{name!r}] must be a cell (row, column) of two integers, got {cell!r}")
        if not (0 <= cell[0] < rows and 0 <= cell[1] < cols):
            raise ValueError(f"marks[{name!r}] = {tuple(cell)} is outside the {rows} x {cols} grid")
    img = np.asarray(vec, dtype=float).reshape(rows, cols)
    im = ax.imshow(img, cmap=cmap, vmin=0, vmax=vmax, origin="upper", interpolation="nearest")
    for name, (r, c) in (marks or {}).items():
        ax.plot(c, r, marker="s", ms=8, mfc="none", mec="red", mew=1.5)
        ax.annotate(name, (c, r), xytext=(3, -8), textcoords="offset points", color="red", fontweight="bold")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("column (west → east)")
    ax.set_ylabel("row (north → south)")
    ax.grid(False)
    if title:
        ax.set_title(title, fontsize="medium")
    if colorbar:
        ax.figure.colorbar(im, ax=ax, shrink=0.8, label=label)
    return im


@contract(axes_2x2=Unchecked("a 2 x 2 array of Axes", example=None))
def clockwise(axes_2x2) -> list:
    """The four axes of a 2 x 2 grid in the paper's "clockwise" order: top left, top right, bottom right,
    bottom left (Fig. 11)."""
    return [axes_2x2[0, 0], axes_2x2[0, 1], axes_2x2[1, 1], axes_2x2[1, 0]]


# ----------------------------------------------------------------------------- Figs. 1-2
@contract(priors=_MAP)
def fig1(priors: Mapping[str, np.ndarray]):
    """Fig. 1: the Paris prior with the planted island (A isolated, B crowded), one panel per recipe."""
    n = len(priors)
    fig, axes = _fig(n, 1, figsize=(W * 0.75, 3.3 * n))
    vmax = max(float(np.max(p)) for p in priors.values())
    for ax, (name, p) in zip(np.atleast_1d(axes), priors.items()):
        heatmap(ax, p, "paris", title=name, marks=MARKS, vmax=vmax)
    return fig


@contract(rows_ba=_MAP, rows_lap=_MAP, eps=_MAP, who=Unchecked("a label", example="A"))
def fig2(
    rows_ba: Mapping[float, np.ndarray], rows_lap: Mapping[float, np.ndarray], eps: Mapping[float, float], who: str
):
    """Fig. 2a/2b: the reporting distribution of one cell under BA (left) and LAP (right) at equal tight level,
    one row of panels per value of beta."""
    betas = list(rows_ba)
    fig, axes = _fig(len(betas), 2, figsize=(W, 2.7 * len(betas)))
    for i, b in enumerate(betas):
        vmax = max(rows_ba[b].max(), rows_lap[b].max())
        heatmap(
            axes[i, 0],
            rows_ba[b],
            "paris",
            vmax=vmax,
            marks=MARKS,
            colorbar=False,
            title=f"BA, β = {b:g} (ε = {2 * b:g}; tight {eps[b]:.2f})",
        )
        im = heatmap(
            axes[i, 1], rows_lap[b], "paris", vmax=vmax, marks=MARKS, colorbar=False, title=f"LAP, ε = {eps[b]:.2f}"
        )
        fig.colorbar(im, ax=axes[i, :], shrink=0.85, label=f"P(report | {who})")
    return fig


# ----------------------------------------------------------------------------- Fig. 3
def _yerr(t: pd.DataFrame, key) -> np.ndarray:
    """Asymmetric error bars [mean - low, high - mean] of a ``mean_interval`` table's series ``key``."""
    return np.vstack([t[("mean", key)] - t[("low", key)], t[("high", key)] - t[("mean", key)]])


@contract(summary=_MAP, sims=REPS)
def fig3(summary: Mapping[str, pd.DataFrame], sims: int):
    """Fig. 3: mean EMD(π, π̂) with its 95 % interval against beta for BA and LAP, one panel per city (log
    scale); ``summary`` maps a city to :func:`~ldpnb.papers.privic.grading.mean_interval`'s table."""
    style = {
        "BA": (C_BA, "-", "BA, IBU from uniform (the paper's protocol)"),
        "BA, IBU from the true π": (
            C_B,
            "--",
            "BA, IBU started at the true π (not the paper's protocol; 10 iterations)",
        ),
        "LAP": (C_LAP, "-", "LAP at BA's tight level"),
        "LAP (ε = 2β)": (C_LAP, ":", "LAP at ε = 2β"),
    }
    fig, axes = _fig(len(summary), 1, figsize=(W, 3.6 * len(summary)))
    for ax, (city, s) in zip(np.atleast_1d(axes), summary.items()):
        for mech, (col, ls, label) in style.items():
            if ("mean", mech) in s.columns:
                ax.errorbar(
                    s.index,
                    s[("mean", mech)],
                    yerr=_yerr(s, mech),
                    color=col,
                    ls=ls,
                    marker="o",
                    ms=3,
                    capsize=2,
                    label=label,
                )
        ax.set_yscale("log")
        ax.set_xlabel("β (BA's loss parameter)")
        ax.set_ylabel("EMD(π, π̂) (grid units)")
        ax.set_title(f"{CITY_NAMES[city]}: mean and 95 % interval, {sims} simulations per β")
    np.atleast_1d(axes)[0].legend(fontsize="x-small")
    return fig


@contract(study=_FRAME, title=Unchecked("a title", example=""))
def ibu_budgets(study: pd.DataFrame, title: str):
    """EMD against the number of IBU iterations (log-log), mean and 95 % interval (Hall's) over the
    simulations, per mechanism (:func:`~ldpnb.papers.privic.experiments.ibu_budget_study`'s table)."""
    from ldpnb.papers.privic.grading import mean_interval  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    fig, ax = _fig(figsize=(W * 0.8, 3.6))
    styles = {"BA": (C_BA, "-"), "BA, IBU from the true π": (C_B, "--"), "LAP": (C_LAP, "-")}
    t = mean_interval(study, "budget", "mechanism", "sim")
    for mech, (col, ls) in styles.items():
        ax.errorbar(
            t.index, t[("mean", mech)], yerr=_yerr(t, mech), color=col, ls=ls, marker="o", capsize=2, label=mech
        )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("IBU iterations")
    ax.set_ylabel("EMD(π, π̂) (grid units)")
    ax.set_title(title)
    ax.legend(fontsize="x-small")
    return fig


# ----------------------------------------------------------------------------- Figs. 4-5
def _box(ax, xy, text, w=0.26, h=0.16, fc="#e8f1fa"):
    from matplotlib.patches import FancyBboxPatch  # noqa: PLC0415 lazy: plotting is opt-in (matplotlib loads when a figure is drawn)

    x, y = xy
    ax.add_patch(FancyBboxPatch((x - w / 2, y - h / 2), w, h, boxstyle="round,pad=0.02", fc=fc, ec="#0072B2"))
    ax.text(x, y, text, ha="center", va="center", fontsize=9)


def _arrow(ax, a, b, text="", rad=0.0):
    ax.annotate(
        "",
        xy=b,
        xytext=a,
        arrowprops=dict(arrowstyle="-|>", lw=1.4, color="#333333", connectionstyle=f"arc3,rad={rad}"),
    )
    if text:
        ax.text((a[0] + b[0]) / 2, (a[1] + b[1]) / 2 + 0.04, text, ha="center", fontsize=8, color="#333333")


@contract()
def fig4():
    """Fig. 4 (illustration): BA's marginal update is an IBU step with the roles of X and Y swapped (Eq. (5))."""
    fig, ax = _fig(figsize=(W, 3.6))
    ax.set_axis_off()
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    _box(
        ax,
        (0.24, 0.8),
        "BA (Eq. 5)\n$c_{t+1}(y)=\\sum_x \\pi(x)\\,\\frac{c_t(y)K(x,y)}{\\sum_z c_t(z)K(x,z)}$",
        w=0.44,
        h=0.24,
    )
    _box(
        ax,
        (0.76, 0.8),
        "IBU (Def. 2.5)\n$\\theta_{r+1}(x)=\\sum_y q(y)\\,\\frac{\\theta_r(x)C_{xy}}{\\sum_z \\theta_r(z)C_{zy}}$",
        w=0.44,
        h=0.24,
        fc="#fdf0e6",
    )
    pairs = [
        ("output $y$", "secret $x$"),
        ("prior $\\pi$", "observed $q$"),
        ("kernel $K(x,y)=e^{-\\beta d(x,y)}$", "channel $C_{y\\to x}$"),
        ("marginal $c_t$", "estimate $\\theta_r$"),
    ]
    for i, (left, right) in enumerate(pairs):
        y = 0.5 - 0.12 * i
        ax.text(0.24, y, left, ha="center", va="center", fontsize=9)
        ax.text(0.76, y, right, ha="center", va="center", fontsize=9)
        ax.annotate("", xy=(0.6, y), xytext=(0.4, y), arrowprops=dict(arrowstyle="<|-|>", color="#888888"))
    return fig


@contract()
def fig5():
    """Fig. 5 / Alg. 1 (illustration): the PRIVIC cycle BA -> collection -> IBU -> (⊕) -> BA."""
    fig, ax = _fig(figsize=(W, 4.2))
    ax.set_axis_off()
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    _box(ax, (0.15, 0.82), "$\\theta_0$ = uniform\n$c_0$ = uniform", fc="#eeeeee")
    _box(ax, (0.5, 0.82), "(i) BA\n$\\hat C^{(t)}=\\mathrm{BA}(\\theta_{t-1},c_0,\\beta)$", w=0.3)
    _box(ax, (0.84, 0.5), "(ii) users report\n$y^{(t)}\\sim \\hat C^{(t)}[x,\\cdot]$", fc="#e6f4ea", w=0.3)
    _box(
        ax,
        (0.5, 0.18),
        "(iii) IBU from $\\theta_{t-1}$\n$\\mu_t=\\mathrm{IBU}(\\hat C^{(t)},\\theta_{t-1},q_t)$",
        fc="#fdf0e6",
        w=0.34,
    )
    _box(ax, (0.15, 0.48), "(iv) $\\theta_t=\\mu_t$\n(or $\\mu_t\\oplus\\theta_{t-1}$)", fc="#fdf0e6")
    _box(ax, (0.15, 0.12), "after N cycles:\nGIBU over all $(\\hat C^{(t)},y^{(t)})$", fc="#eeeeee")
    _arrow(ax, (0.28, 0.82), (0.35, 0.82))
    _arrow(ax, (0.63, 0.76), (0.78, 0.6))
    _arrow(ax, (0.78, 0.4), (0.65, 0.24))
    _arrow(ax, (0.33, 0.2), (0.2, 0.4))
    _arrow(ax, (0.2, 0.56), (0.35, 0.76), "t ← t+1")
    _arrow(ax, (0.15, 0.4), (0.15, 0.2))
    return fig


# ----------------------------------------------------------------------------- Fig. 6
@contract(raw=_MAP, pi=_MAP, edges=_MAP)
def fig6(raw: Mapping[str, pd.DataFrame], pi: Mapping[str, np.ndarray], edges: Mapping[str, tuple]):
    """Fig. 6: the check-ins with the authors' bins (left) and their distribution on the grid (right)."""
    fig, axes = _fig(len(raw), 2, figsize=(W, 3.3 * len(raw)))
    for i, city in enumerate(raw):
        lat_e, lon_e = edges[city][:2]
        ax = axes[i, 0]
        ax.scatter(raw[city]["lon"], raw[city]["lat"], s=1, alpha=0.25, color="#333333", rasterized=True)
        for e in lat_e:
            ax.axhline(e, color=C_BA, lw=0.4)
        for e in lon_e:
            ax.axvline(e, color=C_BA, lw=0.4)
        ax.set_title(f"{CITY_NAMES[city]}: {len(raw[city]):,} check-ins")
        ax.set_xlabel("longitude (°)")
        ax.set_ylabel("latitude (°)")
        ax.tick_params(axis="x", labelrotation=30)
        heatmap(axes[i, 1], pi[city], city, title=f"π on the {'×'.join(map(str, _shape(city)))} grid")
    return fig


# ----------------------------------------------------------------------------- Figs. 7-10
@contract(pi=_MAP, estimates=_MAP)
def fig7(pi: Mapping[str, np.ndarray], estimates: Mapping[tuple, np.ndarray]):
    """Fig. 7: PRIVIC's final estimate of the true distribution, per city and beta (truth on the left)."""
    cities = list(pi)
    betas = sorted({b for (_, b) in estimates})
    fig, axes = _fig(len(cities) * len(betas), 2, figsize=(W, 2.9 * len(cities) * len(betas)))
    i = 0
    for c in cities:
        for b in betas:
            vmax = pi[c].max()
            heatmap(axes[i, 0], pi[c], c, title=f"{CITY_NAMES[c]}: true π", vmax=vmax, colorbar=False)
            heatmap(axes[i, 1], estimates[(c, b)], c, title=f"PRIVIC θ_N, β = {b:g}", vmax=vmax)
            i += 1
    return fig


@contract(tables=_MAP, rounds=REPS)
def fig8_9(tables: Mapping[str, pd.DataFrame], rounds: int):
    """Figs. 8-9: EMD(π, θ) per PRIVIC row, our mean and 95 % interval over the rounds against the paper's
    Tables III-IV (the mean and 95 % interval of its five printed rounds); ``tables`` maps a city to
    :func:`~ldpnb.papers.privic.experiments.table_summary`'s table."""
    keys = [(c, b) for c in tables for b in (1.0, 0.5)]
    fig, axes = _fig(len(tables), 2, figsize=(W, 3.3 * len(tables)))
    for ax, (c, b) in zip(np.ravel(axes), keys):
        t = tables[c].loc[b]
        for who, fmt, col, label in (
            ("ours", "o-", C_BA, f"ours, {rounds} rounds"),
            ("paper", "s--", C_LAP, "paper, 5 rounds"),
        ):
            err = np.vstack([t[f"{who} mean"] - t[f"{who} low"], t[f"{who} high"] - t[f"{who} mean"]])
            ax.errorbar(t.index, t[f"{who} mean"], yerr=err, fmt=fmt, ms=3, capsize=2, color=col, label=label)
        ax.set_yscale("log")
        ax.set_xlabel("row N (row 1 = uniform start)")
        ax.set_ylabel("EMD(π, θ)")
        ax.set_title(f"{CITY_NAMES[c]}, β = {b:g}")
    np.ravel(axes)[0].legend(fontsize="x-small")
    return fig


@contract(final=_MAP, rounds=REPS)
def fig10(final: Mapping[str, pd.DataFrame], rounds: int):
    """Fig. 10: the final EMD of PRIVIC against beta (mean and 95 % interval over the rounds), one panel per
    city; ``final`` maps a city to a table indexed by beta with columns ``mean``, ``low``, ``high``."""
    fig, axes = _fig(1, len(final), figsize=(W, 3.2))
    for ax, (c, f) in zip(np.atleast_1d(axes), final.items()):
        ax.errorbar(
            f.index,
            f["mean"],
            yerr=np.vstack([f["mean"] - f["low"], f["high"] - f["mean"]]),
            fmt="o-",
            color=C_BA,
            capsize=3,
        )
        ax.set_xlabel("β")
        ax.set_ylabel("final EMD(π, θ_N)")
        ax.set_title(f"{CITY_NAMES[c]} ({rounds} rounds)")
    return fig


@contract(curves=_MAP, paper=Array(1))
def privic_variants(curves: Mapping[str, np.ndarray], paper: np.ndarray):
    """Paris, beta = 1: mean EMD per row of PRIVIC variants against Table III."""
    fig, ax = _fig(figsize=(W * 0.8, 3.6))
    for name, y in curves.items():
        ax.plot(np.arange(1, len(y) + 1), y, marker="o", ms=3, label=name)
    ax.plot(np.arange(1, len(paper) + 1), paper, "ks--", ms=3, label="paper, Table III")
    ax.set_yscale("log")
    ax.set_xlabel("row N")
    ax.set_ylabel("EMD(π, θ)")
    ax.legend(fontsize="x-small")
    return fig


@contract(frame=_FRAME, regions=_FRAME)
def mle_gaps(frame: pd.DataFrame, regions: pd.DataFrame):
    """Remark 6 and Sec. 6: log-likelihood gap to the certified MLE (total nats, lower ends, log scale) of
    the combination, theta_N and the true pi, per protocol and beta, with each setting's calibrated 95 %
    region (solid) and Wilks' chi-square region (dotted); settings without rounds are left empty."""
    cols = [
        ("combination", "the combination of the μ_t", C_LAP),
        ("theta_N", "θ_N", C_BA),
        ("truth", "the true π", "#333333"),
    ]
    cells = [("ALG1", 1.0), ("ALG1", 0.5), ("A11", 1.0), ("A11", 0.5)]
    fig, axes = _fig(1, 2, figsize=(W, 3.6))
    for ax, c in zip(axes, ("paris", "sf")):
        for i, (p, b) in enumerate(cells):
            d = frame[(frame.city == c) & (frame.protocol == p) & (frame.beta == b)]
            if d.empty:  # a setting not run at this scale
                continue
            for j, (key, label, col) in enumerate(cols):
                if p == "ALG1" and key == "theta_N":  # theta_N is the combination under Alg. 1
                    continue
                x = i + (j - 1) * 0.22 + np.linspace(-0.05, 0.05, len(d))
                ax.scatter(x, d[f"gap_lo_{key}"], color=col, s=6, alpha=0.6, label=label if i == 2 else None)
            r = regions.loc[(p, c, b)]
            ax.hlines(
                r["region"], i - 0.4, i + 0.4, color="k", lw=1.2, label="95 % region, calibrated" if i == 0 else None
            )
            ax.hlines(
                r["chi2"], i - 0.4, i + 0.4, color="k", lw=1, ls=":", label="95 % region, Wilks" if i == 0 else None
            )
        ax.set_yscale("log")
        ax.set_xticks(
            range(4), ["Alg. 1\nβ = 1", "Alg. 1\nβ = 0.5", "tables\nβ = 1", "tables\nβ = 0.5"], fontsize="x-small"
        )
        ax.set_ylabel("L(MLE) − L(·)  (nats)")
        ax.set_title(CITY_NAMES[c])
    axes[1].legend(*axes[0].get_legend_handles_labels(), fontsize="xx-small", loc="center")
    return fig


# ----------------------------------------------------------------------------- Fig. 11
@contract(rows=Unchecked("four reporting distributions", example=[]), titles=Unchecked("four titles", example=[]))
def fig11(rows: Sequence[np.ndarray], titles: Sequence[str]):
    """Fig. 11a/11b: BA's reporting distribution of A under attack, four panels in the paper's clockwise
    order (top left, top right, bottom right, bottom left)."""
    fig, axes = _fig(2, 2, figsize=(W, 5.6))
    vmax = max(float(r.max()) for r in rows)
    for ax, r, t in zip(clockwise(axes), rows, titles):
        im = heatmap(ax, r, "paris", vmax=vmax, marks=MARKS, colorbar=False, title=t)
    fig.colorbar(im, ax=axes, shrink=0.7, label="P(report | A)")
    return fig


# ----------------------------------------------------------------------------- supporting
@contract(hist=_MAP, n_iter_paper=Integer(1, 1_000_000))
def ba_history(hist: Mapping[float, Mapping[str, np.ndarray]], n_iter_paper: int = 10):
    """BA on the Paris prior: its objective and the size of its output support over the iterations."""
    fig, axes = _fig(1, 2, figsize=(W, 3.2))
    for b, h in hist.items():
        it = np.arange(1, len(h["lagrangian"]) + 1)
        axes[0].plot(it, h["lagrangian"], label=f"β = {b:g}")
        axes[1].plot(it, h["support"], label=f"β = {b:g}")
    for ax, lab in zip(axes, ["I(X;Y) + β AvgD (nats)", "outputs with c(y) > 1e-6"]):
        ax.axvline(n_iter_paper, color="grey", ls=":", lw=1)
        ax.set_xscale("log")
        ax.set_xlabel("BA iteration")
        ax.set_ylabel(lab)
    axes[1].legend(fontsize="x-small")
    return fig


@contract(ba=_PLANE, ba10=_PLANE, lap=_PLANE)
def rd_plane(ba: np.ndarray, ba10: np.ndarray, lap: np.ndarray):
    """BA (converged and 10 iterations) and LAP in the (AvgD, I(X;Y)) plane on the Paris prior."""
    fig, ax = _fig(figsize=(W * 0.75, 3.6))
    ax.plot(ba[:, 1], ba[:, 0], "o-", color=C_BA, label="BA, converged (the R(D) curve)")
    ax.plot(ba10[:, 1], ba10[:, 0], "s--", color=C_BA, alpha=0.5, label="BA, 10 iterations")
    ax.plot(lap[:, 1], lap[:, 0], "^-", color=C_LAP, label="LAP on the grid")
    ax.set_xlabel("average distortion AvgD (grid units)")
    ax.set_ylabel("I(X;Y) (nats)")
    ax.legend(fontsize="x-small")
    return fig
