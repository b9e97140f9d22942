"""Figures of the PIE chapter, one function per figure of the paper (Murakami and Takahashi 2021).

Each function takes the numbers the chapter computed and returns a closed
:class:`matplotlib.figure.Figure` (at most two panels per row, sized for a 780 px column).
Every patch and arrow gets an explicit colour: the book's seaborn theme sets a white patch edge,
which would hide arrows drawn without one.
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from ldpnb.contracts import Array, Instance, Integer, Probability, Real, Unchecked, contract
from ldpnb.measures import alpha_glh, alpha_ldp_generic, alpha_rr, eps_from_theta, fano_lower_bound
from ldpnb.repro.plotting import color
from ldpnb.stats import Estimate

__all__ = [
    "fig1_3",
    "arrow_colours",
    "fig4",
    "fig5",
    "fig5_convergence",
    "fig6",
    "fig7",
    "fig8",
    "fig9",
    "fig10",
    "fig11",
    "fig12",
]

INK = "0.1"
_N = Integer(2, 2**53)
_EPS = Array(1, low=0)
_MAP = Instance(dict, example={})
_SEQ = Instance(tuple, list, example=(1,))
_FRAME = Instance(pd.DataFrame, example=pd.DataFrame())
WIDTH = 7.8
_EST = {
    "emp": ("emp", "-", "o"),
    "binomial": ("emp+thr (exact test)", "-", "s"),
    "gaussian": ("emp+thr (Gaussian threshold of [86])", ":", "^"),
}
_MECH = {"rr": "#0072B2", "glh": "#009E73"}
_THR = {"emp": 1.0, "binomial": 0.75, "gaussian": 0.55}


def _fig(*args, **kw):
    import matplotlib.pyplot as plt  # noqa: PLC0415 lazy: plotting is opt-in (matplotlib loads when a figure is drawn)

    fig, axes = plt.subplots(*args, **kw)
    plt.close(fig)
    return fig, axes


# ---------------------------------------------------------------------------------------------
# Figs. 1-3: the two frameworks and the graphical model
# ---------------------------------------------------------------------------------------------


def _box(ax, xy, text, w=1.5, h=0.62):
    from matplotlib.patches import FancyBboxPatch  # noqa: PLC0415 lazy: plotting is opt-in (matplotlib loads when a figure is drawn)

    ax.add_patch(
        FancyBboxPatch(
            (xy[0] - w / 2, xy[1] - h / 2),
            w,
            h,
            boxstyle="round,pad=0.02,rounding_size=0.08",
            fc="#eef3fb",
            ec=INK,
            lw=1.0,
        )
    )
    ax.text(xy[0], xy[1], text, ha="center", va="center", fontsize=9, color=INK)


def _arrow(ax, a, b):
    from matplotlib.patches import FancyArrowPatch  # noqa: PLC0415 lazy: plotting is opt-in (matplotlib loads when a figure is drawn)

    ax.add_patch(FancyArrowPatch(a, b, arrowstyle="-|>", mutation_scale=12, lw=1.3, color=INK, shrinkA=0, shrinkB=0))


def _node(ax, xy, label, r=0.36, observed=False):
    from matplotlib.patches import Circle  # noqa: PLC0415 lazy: plotting is opt-in (matplotlib loads when a figure is drawn)

    ax.add_patch(Circle(xy, r, fc="0.85" if observed else "white", ec=INK, lw=1.2))
    ax.text(xy[0], xy[1], label, ha="center", va="center", fontsize=11, color=INK)


def _edge(ax, a, b, r=0.36):
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy)
    _arrow(ax, (a[0] + r * dx / d, a[1] + r * dy / d), (b[0] - r * dx / d, b[1] - r * dy / d))


@contract()
def fig1_3():
    """Figs. 1 (obfuscation framework), 2 (identification framework) and 3 (graphical model)."""
    fig, axes = _fig(3, 1, figsize=(WIDTH, 6.8))
    ax = axes[0]
    xs = [0.5, 2.5, 4.5, 6.5, 8.5]
    for x, t in zip(
        xs,
        [
            "user $U$\n$\\sim p_U$",
            "data $X$\n$\\sim p_{X|U}$",
            "mechanism\n$\\mathbf{Q}(y|x)$",
            "report $Y$",
            "data collector",
        ],
    ):
        _box(ax, (x, 0), t)
    for a, b in zip(xs[:-1], xs[1:]):
        _arrow(ax, (a + 0.75, 0), (b - 0.75, 0))
    ax.set_title("Fig. 1: obfuscation framework, PIE $= I(U;Y)$ (no identification algorithm)", fontsize=10)
    ax = axes[1]
    _box(ax, (0.8, 0.38), "report $Y$")
    _box(ax, (0.8, -0.42), "aux. info\n$r_1,\\dots,r_n$")
    _box(ax, (3.2, 0), "matching\n$F(Y, r_i)$")
    _box(ax, (5.6, 0), "scores\n$\\mathbf{s}=(s_1,\\dots,s_n)$")
    _box(ax, (8.0, 0), "decision $G$\n(best score)")
    for a, b in [
        ((1.55, 0.38), (2.45, 0.1)),
        ((1.55, -0.42), (2.45, -0.1)),
        ((3.95, 0), (4.85, 0)),
        ((6.35, 0), (7.25, 0)),
    ]:
        _arrow(ax, a, b)
    ax.set_title("Fig. 2: identification framework, PSE $= I(U;\\mathbf{S})$", fontsize=10)
    ax = axes[2]
    pos = {"U": (0.8, -0.25), "X": (2.9, -0.25), "Y": (5.0, -0.25), "S": (7.1, -0.25), "R": (8.7, 0.6)}
    for k, xy in pos.items():
        _node(ax, xy, {"S": "$\\mathbf{S}$", "R": "$\\mathbf{R}$"}.get(k, f"${k}$"), observed=(k == "Y"))
    for a, b in [("U", "X"), ("X", "Y"), ("Y", "S"), ("R", "S")]:
        _edge(ax, pos[a], pos[b])
    ax.text(
        3.6,
        0.55,
        "given $Y$ (shaded), $\\mathbf{S}$ depends on $U$ only through $Y$:\n"
        "$\\mathbf{R} \\perp (U, X, Y)$, so $U \\to Y \\to \\mathbf{S}$ is a Markov chain",
        ha="center",
        fontsize=8,
        color=INK,
    )
    ax.set_title("Fig. 3: graphical model of $U, X, Y, \\mathbf{R}, \\mathbf{S}$", fontsize=10)
    for a, yl in zip(axes, [(-0.9, 0.9), (-0.9, 0.9), (-0.75, 1.05)]):
        a.set_xlim(-0.5, 9.5)
        a.set_ylim(*yl)
        a.set_aspect("equal")
        a.axis("off")
    return fig


@contract(fig=Unchecked("a matplotlib Figure", example=None))
def arrow_colours(fig) -> list[tuple[int, tuple]]:
    """(panel, RGBA edge colour) of every arrow of a figure: a test checks that none is white."""
    from matplotlib.patches import FancyArrowPatch  # noqa: PLC0415 lazy: plotting is opt-in (matplotlib loads when a figure is drawn)

    return [
        (i, tuple(p.get_edgecolor()))
        for i, ax in enumerate(fig.axes)
        for p in ax.patches
        if isinstance(p, FancyArrowPatch)
    ]


# ---------------------------------------------------------------------------------------------
# Fig. 4: alpha against epsilon
# ---------------------------------------------------------------------------------------------


@contract(n=_N, k=_N, g=_N)
def fig4(n: int, k: int, g: int = 10**8):
    """α of Prop. 4.1, Thm 4.2 and Thm 4.4 (g) against ε, small ε (0.05-1) and large ε (1-20)."""
    fig, axes = _fig(1, 2, figsize=(WIDTH, 3.4))
    for ax, e in zip(axes, (np.linspace(0.05, 1, 96), np.linspace(1, 20, 381))):
        ax.semilogy(e, alpha_ldp_generic(e, n, k), color="k", label="Prop. 4.1 (any ε-LDP)")
        ax.semilogy(e, alpha_rr(e, n, k), color=_MECH["rr"], label="Thm 4.2 (ε-RR)")
        ax.semilogy(
            e, alpha_glh(e, n, k, g), color=_MECH["glh"], ls="--", label=f"Thm 4.4 (GLH, g = 1e{round(math.log10(g))})"
        )
        ax.set_xlabel("ε (LDP)")
    axes[0].set_ylabel("α in PIE privacy (bits)")
    axes[0].set_title("small ε", fontsize=10)
    axes[1].set_title("large ε", fontsize=10)
    axes[1].legend(fontsize="x-small", loc="lower right")
    return fig


# ---------------------------------------------------------------------------------------------
# Figs. 5-7: identifiability of the traces
# ---------------------------------------------------------------------------------------------


def _yerr(est: Estimate, floor: float | None = None) -> np.ndarray:
    """Asymmetric error bars ``[value - low, high - value]`` of an estimate's interval (the low end
    raised to ``floor`` for a log axis)."""
    v = np.atleast_1d(np.asarray(est.value, dtype=float))
    lo = np.atleast_1d(np.asarray(est.low, dtype=float))
    if floor is not None:
        lo = np.maximum(lo, floor)
    return np.vstack([v - lo, np.atleast_1d(np.asarray(est.high, dtype=float)) - v])


@contract(pse=_MAP, bio=_MAP, ts=_SEQ)
def fig5(pse: Mapping[str, Estimate], bio: Mapping[str, Mapping], ts: Sequence[int] = (1, 2, 3, 4, 5)):
    """Fig. 5: PSE with maximum knowledge; left Y = X (LT, RH and the synthetic biometric stand-ins),
    right the first t events of X.  ``pse[name]`` is an estimate with the cells Y = X, then ``ts``
    (its interval drawn as the error bar)."""
    fig, axes = _fig(1, 2, figsize=(WIDTH, 3.5))
    ax = axes[0]
    names = list(pse) + list(bio)
    vals = [float(e.value[0]) for e in pse.values()] + [b["pse"] for b in bio.values()]
    errs = np.hstack([_yerr(e[0:1]) for e in pse.values()] + [np.zeros((2, len(bio)))])
    bars = ax.bar(
        range(len(names)),
        vals,
        yerr=errs,
        color=[_MECH["rr"], _MECH["glh"]][: len(pse)] + ["0.88"] * len(bio),
        ec=INK,
        capsize=3,
    )
    for b in bars[len(pse) :]:
        b.set_hatch("//")
    ax.set_xticks(range(len(names)), [n.replace(" (synthetic)", "\n(synthetic)") for n in names], fontsize=7)
    ax.set_ylabel("PSE = $D(f_G\\|f_I)$ (bits)")
    ax.set_title("each user sends $Y = X$", fontsize=10)
    ax = axes[1]
    for (name, e), col, mk in zip(pse.items(), (_MECH["rr"], _MECH["glh"]), "os"):
        curve = e[1 : len(ts) + 1]
        ax.errorbar(ts, curve.value, yerr=_yerr(curve), color=col, marker=mk, capsize=3, label=name)
    for (name, b), ls in zip(bio.items(), (":", "--", "-.")):
        ax.axhline(b["pse"], color="0.45", ls=ls, lw=1, label=name)
    ax.set_xlabel("number t of released events (first t of X)")
    ax.set_ylabel("PSE (bits)")
    ax.set_title("each user sends the first t events", fontsize=10)
    ax.legend(fontsize="x-small")
    return fig


@contract(conv=_MAP)
def fig5_convergence(conv: Mapping[str, Mapping]):
    """The PSE estimate on random user subsets against the number of users (one panel per data set)."""
    fig, axes = _fig(1, len(conv), figsize=(WIDTH, 3.3))
    for ax, (name, by_t) in zip(np.ravel(axes), conv.items()):
        for (t, r), mk in zip(by_t.items(), "osD"):
            lab = "Y = X" if t == "X" else f"first {t} event{'s' if t != 1 else ''}"
            sd = np.nan_to_num(np.asarray(r["sd"], dtype=float))
            ax.errorbar(r["n"], r["mean"], yerr=sd, marker=mk, capsize=3, label=lab)
        n = np.asarray(by_t[next(iter(by_t))]["n"], dtype=float)
        ax.plot(n, np.log2(2 * n * (n - 1)), "k:", lw=1, label="ceiling $\\log_2(2M)$")
        ax.set_xscale("log")
        ax.set_xticks(n, [f"{int(v):,}" for v in n], fontsize=8)
        ax.minorticks_off()
        ax.set_xlabel("number of users (random subsets)")
        ax.set_title(name, fontsize=10)
    np.ravel(axes)[0].set_ylabel("PSE estimate (bits)")
    np.ravel(axes)[-1].legend(fontsize="x-small")
    return fig


@contract(pse=_MAP, face=Real())
def fig6(pse: Mapping[str, Mapping], face: float):
    """Fig. 6: PSE against the number m of training events, partial knowledge (offset and raw scores).

    ``pse[name] = {"m": [...], "offset": estimate, "raw": estimate}`` (one cell per m, the interval
    drawn as the error bar), optionally with
    ``"counts"``: the number of impostor pairs behind each offset value when the PSE is a count of
    coincidences (:func:`ldpnb.papers.pie.identification.atom_coincidences`), written next to the
    points; ``face`` the PSE of the synthetic Face stand-in.
    """
    fig, axes = _fig(1, len(pse), figsize=(WIDTH, 3.4))
    for ax, (name, r), col in zip(np.ravel(axes), pse.items(), (_MECH["rr"], _MECH["glh"])):
        for sc, ls, mk in (("offset", "-", "o"), ("raw", "--", "x")):
            ax.errorbar(
                r["m"], r[sc].value, yerr=_yerr(r[sc]), color=col, ls=ls, marker=mk, capsize=3, label=f"{sc} scores"
            )
        for m, v, c in zip(r["m"], r["offset"].value, r.get("counts") or ()):
            ax.annotate(f"c = {c:,}", (m, v), xytext=(6, -10), textcoords="offset points", fontsize=7, color=INK)
        ax.axhline(face, color="0.45", ls=":", lw=1, label="Face (synthetic)")
        ax.set_xlabel(
            f"training events m ({'first m of the former half' if name.startswith('LT') else 'first m of X'})",
            fontsize=8,
        )
        ax.set_title(name, fontsize=10)
    np.ravel(axes)[0].set_ylabel("PSE (bits)")
    np.ravel(axes)[0].legend(fontsize="x-small")
    return fig


@contract(curves=_MAP, frpc=_SEQ)
def fig7(curves: Mapping[str, tuple], frpc: Sequence[tuple] = ((0.01, 0.15), (0.1, 0.10))):
    """Fig. 7: DET curves (FAR against FRR, log-log).  ``curves[label] = (far, frr, style)``.

    A curve stops where its FRR falls below the axis floor :math:`10^{-3}` (no clipping: a clipped
    curve would draw a flat segment that is not in the data).
    """
    fig, ax = _fig(figsize=(6.2, 4.4))
    for label, (far, frr, style) in curves.items():
        # thresholds ascending = FAR descending; "steps-pre" keeps the FRR achievable at FAR <= x
        frr = np.asarray(frr, dtype=float)
        ax.loglog(
            np.maximum(far, 1e-7), np.where(frr >= 1e-3, frr, np.nan), drawstyle="steps-pre", label=label, **style
        )
    ax.scatter(*zip(*frpc), marker="x", color="k", s=40, zorder=5, label="FRPC 2017 best face matcher (paper's text)")
    ax.set_xlabel("FAR (false acceptance rate)")
    ax.set_ylabel("FRR (false rejection rate)")
    ax.set_xlim(1e-6, 1)
    ax.set_ylim(1e-3, 1.05)
    ax.legend(fontsize="x-small", loc="lower left")
    return fig


# ---------------------------------------------------------------------------------------------
# Figs. 8-9: one obfuscated location
# ---------------------------------------------------------------------------------------------


@contract(eps=_EPS, n=_N, k=_N, g=_N, pse_exact=Array(1), pse_mc=_MAP, resolvable=_MAP, null=_MAP)
def fig8(
    eps: np.ndarray,
    n: int,
    k: int,
    g: int,
    pse_exact: np.ndarray,
    pse_mc: Mapping[str, Estimate],
    resolvable: Mapping[str, np.ndarray],
    null: Mapping[str, float],
):
    """Fig. 8: upper bounds (α) and lower bounds (PSE) on the PIE, ε-RR (left) and (g, ε)-GLH (right).

    ``pse_mc[m]``: the Monte Carlo PSE per ε as an estimate (its interval drawn as the error bar, at
    the resolvable ε)."""
    fig, axes = _fig(1, 2, figsize=(WIDTH, 3.5), sharey=True)
    ef = np.linspace(0.05, max(eps), 300)
    for ax, m, a, lab in (
        (axes[0], "rr", alpha_rr(ef, n, k), "Thm 4.2"),
        (axes[1], "glh", alpha_glh(ef, n, k, g), "Thm 4.4"),
    ):
        ax.semilogy(ef, alpha_ldp_generic(ef, n, k), "k-", label="α, Prop. 4.1")
        ax.semilogy(ef, a, "-", color=_MECH[m], label=f"α, {lab}")
        if m == "rr":
            ax.semilogy(eps, pse_exact, "o-", color="#D55E00", ms=4, label="PSE (exact mixture)")
        ok = resolvable[m]
        shown = pse_mc[m][ok]
        ax.errorbar(
            eps[ok],
            shown.value,
            yerr=_yerr(shown, floor=1e-4),
            fmt="x",
            color="#D55E00",
            ms=7,
            capsize=2,
            label="PSE (Monte Carlo)",
        )
        ax.set_yscale("log")
        ax.axhline(null[m], color="0.6", ls=":", lw=0.8, label="estimator resolution")
        ax.set_xlabel("ε")
        ax.set_title("ε-RR" if m == "rr" else f"(g, ε)-GLH, g = {g:,}", fontsize=10)
        ax.legend(fontsize="x-small", loc="lower right")
    axes[0].set_ylabel("bits")
    return fig


@contract(
    eps=_EPS,
    n=_N,
    k=_N,
    g=_N,
    err=_MAP,
    err_exact=Array(1),
    pse_exact=Array(1),
    pse_mc_glh=Array(1),
    resolvable_glh=Instance(np.ndarray, example=np.array([True])),
)
def fig9(
    eps: np.ndarray,
    n: int,
    k: int,
    g: int,
    err: Mapping[str, Estimate],
    err_exact: np.ndarray,
    pse_exact: np.ndarray,
    pse_mc_glh: np.ndarray,
    resolvable_glh: np.ndarray,
):
    """Fig. 9: identification error rate and its lower bounds (Eq. 10 with the PSE, Eq. 12 with α).

    ``err[m]``: the simulated error rate per ε as an estimate (its interval drawn as the error bar)."""
    fig, axes = _fig(1, 2, figsize=(WIDTH, 4.6), sharey=True)
    ef = np.linspace(0.05, max(eps), 300)
    lb = lambda a: fano_lower_bound(np.maximum(a, 0), n)  # noqa: E731
    for ax, m, a, lab in (
        (axes[0], "rr", alpha_rr(ef, n, k), "Thm 4.2"),
        (axes[1], "glh", alpha_glh(ef, n, k, g), "Thm 4.4"),
    ):
        ax.errorbar(
            eps,
            err[m].value,
            yerr=_yerr(err[m]),
            fmt="o",
            color="#D55E00",
            ms=4,
            capsize=2,
            label="error rate (simulated)",
        )
        if m == "rr":
            ax.plot(eps, err_exact, "-", color="#D55E00", lw=1, label="error rate (exact)")
            ax.plot(eps, lb(pse_exact), "-", color=_MECH["rr"], label="lower bound (PSE), Eq. 10")
        else:
            ok = resolvable_glh
            ax.plot(eps[ok], lb(pse_mc_glh[ok]), "s-", color=_MECH["glh"], ms=4, label="lower bound (PSE), Eq. 10")
        ax.plot(ef, lb(a), "k-", lw=1, label=f"lower bound ({lab}), Eq. 12")
        ax.plot(ef, lb(alpha_ldp_generic(ef, n, k)), "k--", lw=1, label="lower bound (Prop. 4.1), Eq. 12")
        ax.set_xlabel("ε")
        ax.set_ylim(-0.05, 1.02)
        ax.set_title("ε-RR" if m == "rr" else f"(g, ε)-GLH, g = {g:,}", fontsize=10)
        # below the panel: inside, every corner hides a bound's curve
        ax.legend(fontsize="x-small", loc="upper center", bbox_to_anchor=(0.5, -0.16))
    axes[0].set_ylabel("error probability")
    return fig


# ---------------------------------------------------------------------------------------------
# Figs. 10-12: utility
# ---------------------------------------------------------------------------------------------


def _beta(mech: str, eps, n: int, k: int, g: int | None):
    a = alpha_rr(eps, n, k) if mech == "rr" else alpha_glh(eps, n, k, g)
    return fano_lower_bound(a, n)


def _series(ax, x, s, col_prefix, color_, label, ls, mk, alpha_):
    y = s[f"{col_prefix}_mean"].to_numpy()
    ax.plot(x, y, ls=ls, marker=mk, ms=3.5, color=color_, alpha=alpha_, label=label)
    ax.fill_between(
        x, s[f"{col_prefix}_lo"].to_numpy(), s[f"{col_prefix}_hi"].to_numpy(), color=color_, alpha=0.15, lw=0
    )


@contract(summary=_FRAME, n=_N, k=_N, masses=_MAP, g=_N)
def fig10(summary, n: int, k: int, masses: Mapping, g: int = 10**8):
    """Fig. 10: summed :math:`l_2` loss over the top 100 (top row) and all POIs (bottom row), against ε
    (left) and against the guaranteed Bayes error (right).  Mean over the runs, 10-90 % band of the
    runs; dotted grey: Eqs. (22)/(23).  ``masses[phi]`` is the probability of the top-φ set."""
    from ldpnb.papers.pie.utility import glh_loss_sum, rr_loss_sum  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    fig, axes = _fig(2, 2, figsize=(WIDTH, 6.6), sharey="row")
    for row, phi in enumerate((100, None)):
        key = "all" if phi is None else str(phi)
        size = k if phi is None else phi
        for mech in ("rr", "glh"):
            s = summary.loc[mech].reset_index().sort_values("eps")
            s = s[s.g == (0 if mech == "rr" else g)]
            eps = s.eps.to_numpy()
            ef = np.linspace(eps.min(), eps.max(), 200)
            an = rr_loss_sum(masses[phi], size, n, k, ef) if mech == "rr" else glh_loss_sum(masses[phi], size, n, g, ef)
            name = "RR" if mech == "rr" else "GLH"
            for ax, x, xf in (
                (axes[row, 0], eps, ef),
                (axes[row, 1], _beta(mech, eps, n, k, g), _beta(mech, ef, n, k, g)),
            ):
                for est, (elab, ls, mk) in _EST.items():
                    _series(ax, x, s, f"{est}_{key}", _MECH[mech], f"{name}, {elab}", ls, mk, _THR[est])
                ax.plot(
                    xf, an, ls=(0, (1, 2)), color="0.35", lw=1, label=f"{name} emp: Eq. ({22 if mech == 'rr' else 23})"
                )
        for ax in axes[row]:
            ax.set_yscale("log")
            ax.axhline(1e-6, color="k", lw=0.6, ls="-.")
        axes[row, 0].set_ylabel(f"sum of $l_2$ losses, {'top 100' if phi else 'all'} POIs")
        axes[row, 1].set_xlim(0, 1)
    axes[1, 0].set_xlabel("ε (LDP)")
    axes[1, 1].set_xlabel("guaranteed Bayes error (lower bound on $\\beta_{U|S}$)")
    h, lab = axes[0, 0].get_legend_handles_labels()
    fig.legend(h, lab, fontsize="x-small", ncol=2, loc="lower center", bbox_to_anchor=(0.5, -0.12))
    return fig


@contract(p_top20=Array(1, low=0, high=1), est=_MAP, rel=_MAP)
def fig11(p_top20: np.ndarray, est: Mapping[str, np.ndarray], rel: Mapping[str, float]):
    """Fig. 11: the top-20 probabilities and the emp+thr estimates of the RR (median over runs, 10-90 % of runs:
    the median, unlike the mean of these skewed estimates, always lies inside the range).

    ``est[label]`` has one row per run (20 columns); ``rel[label]`` the mean relative error.
    """
    fig, ax = _fig(figsize=(WIDTH, 3.4))
    x = np.arange(p_top20.size)
    w = 0.27
    ax.bar(x - w, p_top20, w, color="#D55E00", ec=INK, lw=0.5, label="true p(x)")
    for (label, e), off, fc in zip(est.items(), (0, w), ("white", _MECH["rr"])):
        lo, m, hi = np.quantile(e, [0.1, 0.5, 0.9], axis=0)
        ax.bar(
            x + off,
            m,
            w,
            yerr=[m - lo, hi - m],
            color=fc,
            ec=INK,
            lw=0.5,
            capsize=1.5,
            error_kw=dict(lw=0.7, ecolor="0.3"),
            label=f"{label} (rel. error {rel[label]:.2f})",
        )
    ax.set_xticks(x, [str(i + 1) for i in x], fontsize=8)
    ax.set_xlabel("POI rank (by true probability)")
    ax.set_ylabel("probability")
    ax.legend(fontsize="x-small")
    return fig


@contract(summary=_FRAME, n=_N, k=_N, masses=_MAP, theta=Probability(open_left=True, open_right=True))
def fig12(summary, n: int, k: int, masses: Mapping, theta: float = 0.5):
    """Fig. 12: summed :math:`l_2` loss against g at :math:`\\theta_{RR} = \\theta_{GLH} = 0.5` (top 100, all POIs).
    GLH as markers with the 10-90 % band of the runs, RR as horizontal lines, Eq. (51) in grey."""
    from ldpnb.papers.pie.utility import glh_loss_sum, rr_loss_sum  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    fig, axes = _fig(1, 2, figsize=(WIDTH, 3.6))
    glh = summary.loc["glh"].reset_index().sort_values("g")
    rr = summary.loc["rr"].reset_index().iloc[0]
    gs = glh.g.to_numpy(dtype=float)
    gf = np.logspace(math.log10(gs.min()), math.log10(gs.max()), 80)
    for ax, phi in zip(axes, (100, None)):
        key = "all" if phi is None else str(phi)
        size = k if phi is None else phi
        for est, (elab, ls, mk) in _EST.items():
            c = color("emp" if est == "emp" else "emp+thr") if est != "gaussian" else "#8C564B"
            _series(ax, gs, glh, f"{est}_{key}", c, f"GLH, {elab}", "--" if est != "gaussian" else ":", mk, 1.0)
            ax.axhline(
                rr[f"{est}_{key}_mean"], color=c, ls="-" if est != "gaussian" else ":", lw=1.2, label=f"RR, {elab}"
            )
        ax.plot(
            gf,
            glh_loss_sum(masses[phi], size, n, gf, eps_from_theta(theta, gf)),
            color="0.35",
            lw=0.8,
            label="GLH emp: Eq. (51)",
        )
        ax.axhline(
            float(rr_loss_sum(masses[phi], size, n, k, eps_from_theta(theta, k))),
            color="0.35",
            lw=0.8,
            ls=(0, (1, 2)),
            label="RR emp: Eq. (22)",
        )
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("g (GLH hash range)")
        ax.set_title("top 100 POIs" if phi else "all POIs", fontsize=10)
    axes[0].set_ylabel("sum of $l_2$ losses")
    h, lab = axes[0].get_legend_handles_labels()
    fig.legend(h, lab, fontsize="x-small", ncol=2, loc="lower center", bbox_to_anchor=(0.5, -0.28))
    return fig
