r"""Figures of the IBU chapter, one function per figure of ElSalamouny and Palamidessi, *On the
consistency and performance of the iterative Bayesian update* (arXiv 2508.09980), plus two of ours
(the convergence of Props. 6.2-6.3 and the stopping rule against the certified MLE).

Every function returns a closed :class:`matplotlib.figure.Figure` sized for the book's 780 px column
(at most two panels per row).
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from ldpnb import stats
from ldpnb.contracts import REPS, Array, Instance, NonnegativeMatrix, Real, Unchecked, contract
from ldpnb.repro.plotting import color

__all__ = [
    "fig1",
    "fig2",
    "fig3",
    "fig4",
    "fig5",
    "fig6",
    "fig7",
    "fig8",
    "fig9",
    "fig10",
    "fig11",
    "fig12",
    "fig13",
    "fig14",
    "consistency",
    "stopping_rule",
]

W = 7.8  # inches: the book's column
_EST = ("IBU", "MLE", "INV-N", "INV-P")
_LABEL = {"IBU": "IBU (paper's rule)", "MLE": "the MLE (certified)", "INV-N": "INV-N", "INV-P": "INV-P"}


def _fig(*args, **kw):
    import matplotlib.pyplot as plt  # noqa: PLC0415 lazy: plotting is opt-in (matplotlib loads when a figure is drawn)

    fig, axes = plt.subplots(*args, **kw)
    plt.close(fig)
    return fig, axes


def _col(name: str) -> str:
    return color("emp") if name == "noisy" else color(name)


@contract(
    x=Array(1),
    theta=Array(1),
    noisy=Array(1),
    estimates=Instance(dict, example={"IBU": np.ones(2) / 2}),
    emds=Instance(dict, example={"IBU": np.ones(3)}),
    run=Unchecked("the index of the run drawn", 0),
)
def fig1(x, theta, noisy, estimates: Mapping[str, np.ndarray], emds: Mapping[str, np.ndarray], run: int):
    """Fig. 1: the ages and their estimates by INV-N, INV-P and IBU for one run (panels a-c); panel (d)
    shows the EMDs of every run, the drawn run marked."""
    fig, axes = _fig(2, 2, figsize=(W, 5.8))
    for ax, (lab, m) in zip(axes.ravel(), [("(a) INV-N", "INV-N"), ("(b) INV-P", "INV-P"), ("(c) IBU", "IBU")]):
        ax.plot(x, theta, color=color("truth"), lw=1.8, label="original")
        ax.plot(x, noisy, color=_col("noisy"), lw=1, label=f"noisy ({emds['noisy'][run]:.2f})")
        ax.plot(x, estimates[m], color=color(m), lw=1.3, label=f"{m} ({emds[m][run]:.2f})")
        ax.axhline(0, color="k", lw=0.5)
        ax.set_title(lab, fontsize="medium")
        ax.set_xlabel("age (years)")
        ax.legend(fontsize="x-small", title="EMD (years)", title_fontsize="x-small")
    axes[0, 0].set_ylabel("probability")
    axes[1, 0].set_ylabel("probability")
    ax = axes[1, 1]
    names = ["noisy", "INV-N", "INV-P", "IBU"]
    ax.boxplot([emds[m] for m in names], widths=0.6, showfliers=True, flierprops=dict(ms=2))
    for i, m in enumerate(names, start=1):
        ax.plot(i, emds[m][run], "D", color=_col(m), mec="k", ms=6)
    ax.set_xticks(range(1, 5), names)
    ax.set_yscale("log")
    ax.set_ylabel("EMD (years)")
    ax.set_title(f"(d) all {len(emds['IBU'])} runs (◆ the run drawn)", fontsize="medium")
    return fig


@contract()
def fig2():
    """Fig. 2: the local privacy model (users, mechanism, reports, curator)."""
    fig, ax = _fig(figsize=(W, 2.6))
    ax.set_axis_off()
    for i, y in enumerate([0.8, 0.5, 0.15]):
        ax.annotate(
            "",
            xy=(0.42, y),
            xytext=(0.12, y),
            xycoords="axes fraction",
            arrowprops=dict(arrowstyle="->", lw=1.5, color="k"),
        )
        ax.text(0.08, y, ["$X^1$", "$X^2$", "$X^n$"][i], ha="center", va="center", fontsize=13)
        ax.text(0.27, y + 0.06, "$M$", ha="center", fontsize=12, color=color("IBU"))
        ax.text(0.47, y, ["$z^1$", "$z^2$", "$z^n$"][i], ha="center", va="center", fontsize=13)
        ax.annotate(
            "",
            xy=(0.76, 0.5),
            xytext=(0.51, y),
            xycoords="axes fraction",
            arrowprops=dict(arrowstyle="->", lw=1, color="grey"),
        )
    ax.text(0.08, 0.32, "⋮", ha="center", fontsize=14)
    ax.text(
        0.88,
        0.5,
        "curator\nestimates $\\theta$\n(IBU / INV)",
        ha="center",
        va="center",
        fontsize=12,
        bbox=dict(boxstyle="round", fc="#f0f0f0"),
    )
    ax.text(0.08, 0.97, "users, i.i.d. $X^i \\sim \\theta$", ha="center", fontsize=10)
    ax.text(0.47, 0.97, "noisy reports", ha="center", fontsize=10)
    return fig


def _surface(ax, M, obs, title, starts):
    from ldpnb.estimators import ibu_path  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    from .theory import loglik_surface  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    t1, t3, L = loglik_surface(M, np.asarray(obs) - 1, resolution=301)
    im = ax.imshow(L, origin="lower", extent=[0, 1, 0, 1], cmap="viridis", vmin=np.nanmin(L), vmax=np.nanmax(L))
    ax.contour(t1, t3, L, levels=12, colors="white", linewidths=0.5, alpha=0.6)
    counts = np.bincount(np.asarray(obs) - 1, minlength=3)
    for t0, c in zip(starts, ["#D55E00", "#E69F00"]):
        path = ibu_path(M, counts, t0, 400)
        ax.plot(
            path[:, 0], path[:, 2], "-", color=c, lw=2, label="IBU from (" + ", ".join(f"{v:.2g}" for v in t0) + ")"
        )
        ax.plot(*path[-1, [0, 2]], "o", color=c, ms=7, mec="k", clip_on=False, zorder=4)
    ax.set_xlabel(r"$\theta_1$")
    ax.set_ylabel(r"$\theta_3$")
    ax.grid(False)
    ax.set_title(title, fontsize="medium")
    return im


@contract(
    M=NonnegativeMatrix(),
    observations=Unchecked("two lists of 1-based observations", [[2], [2, 1]]),
    titles=Unchecked("two panel titles", ["a", "b"]),
    starts=Unchecked("starting distributions", None),
)
def fig3(M, observations, titles, starts):
    """Fig. 3 (and Fig. 5): :math:`L` over the simplex, :math:`\\theta_2 = 1 - \\theta_1 - \\theta_3`, for
    two observation sets, with IBU's trajectories from two starts."""
    fig, axes = _fig(1, 2, figsize=(W, 3.9))
    for ax, obs, title in zip(axes, observations, titles):
        im = _surface(ax, M, obs, title, starts)
        fig.colorbar(im, ax=ax, shrink=0.85, label=r"$L(\theta)$ (nats)")
    # one legend below the panels: inside, it would hide a corner of the simplex (the maximum of (b))
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=2, fontsize="small")
    return fig


@contract(
    M=NonnegativeMatrix(),
    observations=Unchecked("two lists of 1-based observations", [[2], [2, 1]]),
    titles=Unchecked("two panel titles", ["a", "b"]),
    starts=Unchecked("starting distributions", None),
)
def fig5(M, observations, titles, starts):
    """Fig. 5: as :func:`fig3` for mechanism (12); the dashed line in (b) is the segment of MLEs
    :math:`\theta_2 = 17/24`."""
    fig = fig3(M, observations, titles, starts)
    fig.axes[1].plot([0, 7 / 24], [7 / 24, 0], "w--", lw=2)
    return fig


@contract(n=Array(1), bounds=Instance(dict, example={1.0: np.ones(1)}), mc=Unchecked("a DataFrame", None), trials=REPS)
def fig4(n, bounds: Mapping[float, np.ndarray], mc, trials: int):
    """Fig. 4: Thm 4.6's lower bound on P(L strictly concave) for Rappor on :math:`|\\mathcal X| = 10`, with
    the Monte Carlo frequencies of strict concavity (circles, with their 95% Wilson intervals over
    ``trials`` trials) and of a full GF(2) rank (dots)."""
    fig, ax = _fig(figsize=(W, 3.8))
    for e, b in bounds.items():
        (line,) = ax.plot(n, b, label=f"bound, ε = {e:g}")
        d = mc[mc.eps == e]
        if len(d):
            f = stats.proportion(np.round(d.concave.to_numpy() * trials).astype(np.int64), trials)
            ax.errorbar(
                d.n,
                f.value,
                yerr=np.abs(np.vstack(f.half_widths)),
                fmt="o",
                color=line.get_color(),
                mfc="none",
                ms=5,
                elinewidth=1,
                capsize=0,
            )
            ax.plot(d.n, d.gf2, ".", color=line.get_color(), ms=3)
    ax.plot([], [], "ko", mfc="none", label="Monte Carlo: strictly concave")
    ax.plot([], [], "k.", label="Monte Carlo: GF(2) full rank")
    ax.axvline(25, color="grey", ls=":", lw=1)
    ax.set_xscale("log")
    ax.set_xlabel("number of users $n$")
    ax.set_ylabel("P($L$ strictly concave)")
    ax.legend(fontsize="x-small", ncol=2, loc="lower right")
    return fig


@contract(theta=Array(1), mles=Array(2), emd_to_theta=Array(1), shape=Unchecked("(rows, cols)", (5, 5)))
def fig6(theta, mles, emd_to_theta, shape):
    """Fig. 6: the original distribution on the 5 x 5 San Francisco grid and three MLEs for the same
    infinite data under the non-identifiable 25 x 16 mechanism."""
    fig, axes = _fig(2, 2, figsize=(W * 0.8, 6.2))
    vmax = max(theta.max(), mles.max())
    panels = [("(a) original", theta)] + [
        (f"({c}) MLE {i + 1}, EMD to (a) {e:.3f} km", m) for i, (c, m, e) in enumerate(zip("bcd", mles, emd_to_theta))
    ]
    for ax, (title, v) in zip(axes.ravel(), panels):
        im = ax.imshow(
            v.reshape(shape), origin="lower", extent=[0, shape[1], 0, shape[0]], vmin=0, vmax=vmax, cmap="magma"
        )
        ax.set_title(title, fontsize="small")
        ax.grid(False)
        ax.set_xlabel("east (km)")
        ax.set_ylabel("north (km)")
    fig.colorbar(im, ax=axes, shrink=0.8, label="probability")
    return fig


@contract(image=Array(2))
def fig7(image):
    """Fig. 7: the check-ins per cell of the Manhattan grid (log scale)."""
    import matplotlib.pyplot as plt  # noqa: PLC0415 lazy: plotting is opt-in (matplotlib loads when a figure is drawn)
    from matplotlib.colors import LogNorm  # noqa: PLC0415 lazy: plotting is opt-in (matplotlib loads when a figure is drawn)

    fig, ax = _fig(figsize=(W * 0.6, 5.6))
    cmap = plt.get_cmap("magma").copy()
    cmap.set_bad("lightgrey")
    rows, cols = image.shape
    im = ax.imshow(
        np.ma.masked_equal(image, 0),
        origin="lower",
        extent=[0, cols * 0.5, 0, rows * 0.5],
        cmap=cmap,
        norm=LogNorm(vmin=1),
    )
    ax.grid(False)
    fig.colorbar(im, ax=ax, label="check-ins per cell (grey: none)")
    ax.set_xlabel("east (km)")
    ax.set_ylabel("north (km)")
    return fig


@contract(
    images=Instance(dict, example={"original": np.ones((2, 2))}),
    emds=Instance(dict, example={}),
    runs=Instance(dict, example={"noisy": np.ones(3)}),
    paper=Instance(dict, example={"noisy": 0.5}),
)
def fig8(
    images: Mapping[str, np.ndarray],
    emds: Mapping[str, float],
    runs: Mapping[str, np.ndarray],
    paper: Mapping[str, float],
):
    """Fig. 8: the original, noisy and estimated distributions of one run on the Manhattan grid (panels
    a-e), and (f) the single-run EMDs over all runs with the paper's printed values."""
    fig, axes = _fig(3, 2, figsize=(W, 11.5))
    vmax = images["original"].max()
    titles = {
        "original": "(a) original",
        "noisy": "(b) noisy",
        "INV-P": "(c) INV-P",
        "INV-N": "(d) INV-N",
        "IBU": "(e) IBU",
    }
    for ax, (k, title) in zip(axes.ravel(), titles.items()):
        rows, cols = images[k].shape
        im = ax.imshow(
            images[k], origin="lower", extent=[0, cols * 0.5, 0, rows * 0.5], cmap="magma", vmin=0, vmax=vmax
        )
        ax.set_title(title + (f": EMD {emds[k]:.4f} km" if k in emds else ""), fontsize="medium")
        ax.grid(False)
        ax.set_xlabel("east (km)")
        ax.set_ylabel("north (km)")
    fig.colorbar(im, ax=axes.ravel().tolist(), shrink=0.5, label="probability")
    ax = axes[2, 1]
    names = [m for m in ("noisy", "INV-N", "INV-P", "IBU") if m in runs]
    ax.violinplot([runs[m] for m in names], showextrema=False)
    for i, m in enumerate(names, start=1):
        lo, hi = np.quantile(runs[m], [0.025, 0.975])
        ax.plot([i, i], [lo, hi], color=_col(m), lw=3, label="our central 95%" if i == 1 else None)
        ax.plot(i + 0.25, paper[m], "*", color="k", ms=10, label="paper (one run)" if i == 1 else None)
    ax.set_xticks(range(1, len(names) + 1), names)
    ax.set_ylabel("EMD (km)")
    ax.set_title("(f) single-run EMDs over our runs", fontsize="medium")
    ax.legend(fontsize="x-small")
    return fig


def _boxes(ax, res: Mapping[float, Mapping[str, np.ndarray]], unit: str, xlabel: str, title: str, legend: bool):
    eps = list(res)
    names = [m for m in _EST if any(m in res[e] for e in eps)]
    w = 0.8 / len(names)
    for j, m in enumerate(names):
        where = [i for i, e in enumerate(eps) if m in res[e]]  # the MLE may be drawn at some ε only
        pos = np.array(where) + (j - (len(names) - 1) / 2) * w
        bp = ax.boxplot(
            [res[eps[i]][m] for i in where],
            positions=pos,
            widths=w * 0.85,
            patch_artist=True,
            showfliers=True,
            flierprops=dict(ms=1.5, alpha=0.5),
            manage_ticks=False,
        )
        for b in bp["boxes"]:
            b.set_facecolor(color(m))
            b.set_alpha(0.8)
            if m == "MLE":
                b.set_hatch("////")
        for med in bp["medians"]:
            med.set_color("k")
        for line in bp["whiskers"] + bp["caps"]:
            line.set_color(color(m))
        for f in bp["fliers"]:
            f.set_markeredgecolor(color(m))
        # the median also as a dot of the estimator's colour (at weak noise a box shrinks to a line), with
        # its 95% order-statistic interval as a black bar (drawn from 6 runs, the fewest it needs)
        ax.plot(pos, [np.median(res[eps[i]][m]) for i in where], "o", ms=3.5, mfc=color(m), mec="k", mew=0.5, zorder=3)
        ci = [(x, stats.median(res[eps[i]][m])) for x, i in zip(pos, where) if np.size(res[eps[i]][m]) >= 6]
        if ci:
            ax.vlines([x for x, _ in ci], [c.low for _, c in ci], [c.high for _, c in ci], color="k", lw=2, zorder=2.9)
        ax.plot([], [], "s", color=color(m), label=_LABEL[m])
    ax.set_xticks(range(len(eps)), [f"{e:g}" for e in eps], rotation=45, ha="right", fontsize="small")
    ax.set_yscale("log")
    ax.set_ylabel(f"EMD ({unit})")
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize="medium")
    if legend:
        ax.legend(fontsize="x-small", loc="upper right")


@contract(panels=Instance(dict, example={}))
def fig9(panels: Mapping[str, Mapping[float, Mapping[str, np.ndarray]]]):
    """Fig. 9: EMD against :math:`\\varepsilon_g` of IBU (the paper's rule), the certified MLE (hatched),
    INV-N and INV-P; ages (years) on the left, locations (km) on the right; geometric, Laplace and
    exponential mechanisms by row."""
    fig, axes = _fig(3, 2, figsize=(W, 10.5))
    names = {"a": "geometric", "b": "geometric", "c": "Laplace", "d": "Laplace", "e": "exponential", "f": "exponential"}
    for ax, lab in zip(axes.ravel(), "abcdef"):
        loc = lab in "bdf"
        _boxes(
            ax,
            panels[lab],
            "km" if loc else "years",
            r"$\varepsilon_g$ (per km)" if loc else r"$\varepsilon_g$ (per year)",
            f"({lab}) {'locations' if loc else 'ages'}, {names[lab]}",
            legend=False,
        )
    fig.legend(*axes[0, 0].get_legend_handles_labels(), loc="outside upper center", ncol=2, fontsize="small")
    return fig


def _pair(a, b, units, titles):
    fig, axes = _fig(1, 2, figsize=(W, 3.9))
    for ax, res, unit, title in zip(axes, (a, b), units, titles):
        _boxes(ax, res, unit, r"$\varepsilon$", title, False)
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside upper center", ncol=2, fontsize="small")
    return fig


@contract(ages=Instance(dict, example={}), locations=Instance(dict, example={}))
def fig10(ages, locations):
    """Fig. 10: EMD against ε under k-RR, (a) ages (k = 100), (b) locations (k = 280)."""
    return _pair(ages, locations, ("years", "km"), ("(a) ages, k-RR", "(b) locations, k-RR"))


@contract(binomial=Instance(dict, example={}), uniform=Instance(dict, example={}))
def fig12(binomial, uniform):
    """Fig. 12: EMD against ε under basic Rappor, inputs (a) Binomial(9, 1/2), (b) uniform on {3..6}."""
    return _pair(binomial, uniform, ("units of x", "units of x"), ("(a) binomial inputs", "(b) uniform on {3..6}"))


@contract(truth=Instance(dict, example={}), estimates=Instance(dict, example={}), emds=Instance(dict, example={}))
def fig11(truth: Mapping[str, np.ndarray], estimates: Mapping[str, np.ndarray], emds: Mapping[str, float]):
    """Fig. 11: IBU's estimate of (a) a binomial and (b) a uniform distribution on {3..6} from one run of
    basic Rappor (ε = 0.5, n = 10^5)."""
    fig, axes = _fig(1, 2, figsize=(W, 3.2), sharey=True)
    for ax, (k, title) in zip(axes, (("binomial", "(a) Binomial(9, 1/2)"), ("uniform", "(b) uniform on {3, 4, 5, 6}"))):
        x = np.arange(truth[k].size)
        ax.bar(x - 0.2, truth[k], 0.4, color="0.6", label="real")
        ax.bar(x + 0.2, estimates[k], 0.4, color=color("IBU"), label=f"IBU (EMD {emds[k]:.3f})")
        ax.set_xticks(x)
        ax.set_xlabel("value $x$")
        ax.set_title(title, fontsize="medium")
        ax.legend(fontsize="x-small")
    axes[0].set_ylabel("probability")
    return fig


@contract(X=Array(1), likely=Unchecked("boolean mask over X", None), z=Array(1))
def fig13(X, likely, z):
    """Fig. 13: reports :math:`z^i` of the untruncated geometric mechanism on the integers, the likely
    subset :math:`[x_{min}, x_{max}]` and an unlikely :math:`x'`.  The report labels are staggered over
    three heights by their rank, so that close reports do not overlap."""
    fig, ax = _fig(figsize=(W, 2.6))
    ax.axhline(0, color="grey", lw=1)
    ax.plot(
        X[likely], np.zeros(likely.sum()), "|", color=color("IBU"), ms=10, label="likely subset $[x_{min}, x_{max}]$"
    )
    ax.plot(X[~likely], np.zeros((~likely).sum()), "|", color="lightgrey", ms=6, label="unlikely elements")
    order = np.argsort(z, kind="stable")
    for rank, i in enumerate(order):
        ax.annotate(
            f"$z^{{{rank + 1}}}$",
            (z[i], 0),
            xytext=(z[i], 0.35 + 0.3 * (rank % 3)),
            ha="center",
            fontsize="small",
            arrowprops=dict(arrowstyle="->", lw=0.8),
        )
    lo, hi = X[likely].min(), X[likely].max()
    xp = hi + 0.08 * (X.max() - X.min())
    ax.plot([lo, hi, xp], [0, 0, 0], "ko", ms=4)
    for v, s in ((lo, "$x_{min}$"), (hi, "$x_{max}$"), (xp, "$x'$")):
        ax.text(v, -0.45, s, ha="center")
    ax.set_ylim(-0.8, 1.4)
    ax.set_yticks([])
    ax.set_xlabel(r"value ($\mathcal{X} = \mathbb{Z}$)")
    ax.legend(fontsize="x-small", loc="upper left")
    return fig


@contract(
    lattice=Array(2),
    likely=Unchecked("boolean mask over the lattice", None),
    reports=Array(2),
    delta_prime=Real(0, None),
    d_max=Real(0, None),
)
def fig14(lattice, likely, reports, delta_prime: float, d_max: float):
    """Fig. 14: a square lattice, the convex hull :math:`\\mathcal B` of the reports and the likely region
    :math:`T_{\\delta'}(\\mathcal B)` of Prop. 8.3 (km)."""
    from matplotlib.patches import Polygon  # noqa: PLC0415 lazy: plotting is opt-in (matplotlib loads when a figure is drawn)
    from scipy.spatial import ConvexHull  # noqa: PLC0415 lazy: scipy/numpy submodule loaded at first use

    fig, ax = _fig(figsize=(W * 0.75, W * 0.75))
    hull = reports[ConvexHull(reports).vertices]
    ax.plot(
        lattice[~likely, 0],
        lattice[~likely, 1],
        ".",
        color="lightgrey",
        ms=2,
        label="lattice $\\mathcal{X}$ (unlikely)",
    )
    ax.plot(
        lattice[likely, 0],
        lattice[likely, 1],
        ".",
        color=color("IBU"),
        ms=3,
        label=f"likely subset ({likely.sum()} points)",
    )
    ax.add_patch(Polygon(hull, fill=False, ec="k", lw=1.5, label="$\\mathcal{B}$: convex hull of the reports"))
    t = np.linspace(0, 2 * np.pi, 60)
    outer = np.concatenate([v + delta_prime * np.c_[np.cos(t), np.sin(t)] for v in hull])
    ax.add_patch(
        Polygon(
            outer[ConvexHull(outer).vertices],
            fill=False,
            ec=color("INV-N"),
            lw=1.5,
            ls="--",
            label=f"$T_{{\\delta'}}(\\mathcal{{B}})$, δ′ = {delta_prime:.2f} km ($d_{{max}}$ = {d_max:.2f} km)",
        )
    )
    ax.plot(reports[:, 0], reports[:, 1], "+", color="k", ms=5, label="reports $z^i$")
    ax.set_aspect("equal")
    ax.set_xlabel("east (km)")
    ax.set_ylabel("north (km)")
    ax.legend(fontsize="x-small", loc="lower right")
    return fig


@contract(n=Array(1), errors=Instance(dict, example={}), slopes=Instance(dict, example={}))
def consistency(n, errors: Mapping[str, np.ndarray], slopes: Mapping[str, "stats.Estimate"]):
    """Props. 6.2-6.3 (no figure in the paper): the mean :math:`L_1` error of IBU against :math:`n`, with the
    95% interval of each mean (Hall's, :func:`ldpnb.stats.mean`); ``errors[name]`` is ``(samples, n)`` and
    ``slopes[name]`` the fitted log-log slope with its interval."""
    fig, ax = _fig(figsize=(W * 0.8, 3.8))
    for name, E in errors.items():
        m = stats.mean(E)
        s = slopes[name]
        ax.errorbar(
            n,
            m.value,
            yerr=np.abs(np.vstack(m.half_widths)),
            fmt="o-",
            ms=4,
            capsize=2,
            label=f"{name}: slope {s.value:+.2f} [{s.low:+.2f}, {s.high:+.2f}]",
        )
        ax.set_xscale("log")
        ax.set_yscale("log")
    ax.loglog(n, 2 * n**-0.5, "k:", label="$\\propto n^{-1/2}$")
    ax.set_xlabel("number of users $n$")
    ax.set_ylabel(r"mean $\|\hat\theta - \theta\|_1$")
    ax.legend(fontsize="x-small")
    return fig


@contract(panels=Instance(dict, example={}))
def stopping_rule(panels: Mapping[str, Mapping[str, Sequence[float]]]):
    """(Ours.) Median EMD against the threshold :math:`\\delta` of the paper's stopping rule, with the
    certified MLE as a horizontal line and the best INV as a dashed one, one panel per setting.

    ``panels[title]`` holds ``tols``, ``emd`` (the EMDs, ``(thresholds, runs)``: their medians are drawn,
    with 95% order-statistic intervals), ``mle`` (the MLE's EMDs over the runs: its median as a line, its
    interval as a band), and optionally ``inv`` (INV-P's median), ``paper`` (a printed value), ``unit`` and
    ``compare`` (a second setting: ``label``, ``emd``, ``mle``)."""

    def medians(runs):
        e = stats.median(np.asarray(runs, dtype=float).T)
        return e.value, np.abs(np.vstack(e.half_widths))

    fig, axes = _fig(1, len(panels), figsize=(W, 3.4))
    for ax, (title, p) in zip(np.ravel(axes), panels.items()):
        v, err = medians(p["emd"])
        ax.errorbar(p["tols"], v, yerr=err, fmt="o-", ms=4, capsize=2, color=color("IBU"), label="IBU, paper's rule")
        m = stats.median(p["mle"])
        ax.axhline(m.value, color=color("MLE"), lw=2, label="certified MLE")
        ax.axhspan(m.low, m.high, color=color("MLE"), alpha=0.2, lw=0)
        if p.get("compare") is not None:
            c = p["compare"]
            v, err = medians(c["emd"])
            ax.errorbar(
                p["tols"], v, yerr=err, fmt="s--", ms=4, capsize=2, color=color("k-RR"), label=f"IBU, {c['label']}"
            )
            mc = stats.median(c["mle"])
            ax.axhline(mc.value, color=color("k-RR"), lw=1, ls=":", label=f"MLE, {c['label']}")
            ax.axhspan(mc.low, mc.high, color=color("k-RR"), alpha=0.15, lw=0)
        ax.set_xscale("log")
        ax.set_yscale("log")
        if p.get("inv") is not None:
            ax.axhline(p["inv"], color=color("INV-P"), ls="--", label="INV-P")
        if p.get("paper") is not None:
            ax.axhline(p["paper"], color="k", ls=":", label="paper (one run)")
        ax.invert_xaxis()
        ax.set_xlabel(r"threshold $\delta$ on $\ell = L/n$")
        ax.set_ylabel(f"median EMD ({p.get('unit', '')})")
        ax.set_title(title, fontsize="medium")
        ax.legend(fontsize="x-small")
    return fig
