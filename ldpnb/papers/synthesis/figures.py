"""Figures of the synthesis chapter (each returns a closed :class:`matplotlib.figure.Figure`)."""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from ldpnb.contracts import SAMPLE_SIZE, Instance, OneOf, contract
from ldpnb.papers.synthesis.comparisons import gain_curves, point_intervals
from ldpnb.papers.synthesis.guide import _RESULT as _RESULT_RULE
from ldpnb.papers.synthesis.guide import GridResult, _best_finite, _projected_best
from ldpnb.papers.synthesis.variance import grr_oue_exact_boundary
from ldpnb.repro.plotting import COLUMN_INCHES

__all__ = [
    "lens_heatmap",
    "frontiers",
    "rank_agreement",
    "matched_table",
    "gain_by_eps",
    "guide_map",
    "guide_table",
    "CLASSES",
]

_MAP = Instance(Mapping, example={})
_RESULT_EXAMPLE = _RESULT_RULE.valid()
_SEQ = Instance(list, tuple, example=["a"])


def _fig(*args, **kw):
    import matplotlib.pyplot as plt  # noqa: PLC0415 lazy: matplotlib only for the figures

    fig, axes = plt.subplots(*args, **kw)
    plt.close(fig)
    return fig, axes


def _fmt(v: float) -> str:
    """Three significant digits (the digits the colours are computed from)."""
    if not np.isfinite(v):
        return "∞"
    return f"{v:.3g}"


@contract(table=_MAP, lenses=_MAP, title=Instance(str, example=""), flagged=_SEQ)
def lens_heatmap(
    table: Mapping[str, Mapping[str, float]], lenses: Mapping[str, str], title: str = "", flagged: Sequence[str] = ()
):
    """Mechanism x lens heat map: one row per mechanism, one column per lens (``lenses``: key ->
    column label).  Colour: the printed value (three significant digits), scaled within its column
    from its smallest to its largest value (dark = leaks most / estimates worst), so that equal
    digits have equal colours and columns with different units compare; an infinite value is
    darkest.  Rows in ``flagged`` (degenerate channels) are marked with a dagger."""
    names = list(table)
    keys = list(lenses)
    V = np.array([[table[n][k] for k in keys] for n in names], dtype=float)
    Vr = np.array([[float(_fmt(v)) if np.isfinite(v) else np.inf for v in row] for row in V])
    R = np.empty_like(Vr)
    for j in range(Vr.shape[1]):
        col = Vr[:, j]
        fin = col[np.isfinite(col)]
        lo, hi = (fin.min(), fin.max()) if fin.size else (0.0, 1.0)
        R[:, j] = np.where(np.isfinite(col), (col - lo) / (hi - lo) if hi > lo else 0.5, 1.0)
    fig, ax = _fig(figsize=(7.8, 0.36 * len(names) + 1.8))
    ax.imshow(R, cmap="magma_r", vmin=-0.15, vmax=1.15, aspect="auto")
    ax.grid(False)
    for i in range(V.shape[0]):
        for j in range(V.shape[1]):
            ax.text(
                j, i, _fmt(V[i, j]), ha="center", va="center", fontsize=7.5, color="white" if R[i, j] > 0.6 else "black"
            )
    ax.set_xticks(range(len(keys)), [lenses[k] for k in keys], rotation=35, ha="right", fontsize=9)
    ax.set_yticks(range(len(names)), [n + (" †" if n in flagged else "") for n in names], fontsize=9)
    ax.tick_params(length=0)
    if title:
        ax.set_title(title, fontsize=10)
    return fig


#: The classes of the frontier figure's small multiples.
CLASSES = {
    "frequency oracles": ["k-RR", "SUE", "OUE", "OLH", "SS"],
    "metric mechanisms and BA": ["geometric", "Laplace", "exponential", "planar geometric", "planar Laplace", "BA"],
    "lift-based": ["watchdog (complete)", "watchdog (subset)", "AORR", "SRR"],
    "multidimensional": ["SMP", "RS+FD", "RS+RFD"],
}


@contract(sweeps=_MAP, y=Instance(str, example="emd_ibu"), xlabels=_MAP, ylabel=Instance(str, example=""))
def frontiers(sweeps: Mapping[str, Mapping[str, np.ndarray]], y: str, xlabels: Mapping[str, str], ylabel: str):
    """Privacy-utility frontiers as small multiples: one row per privacy lens (``xlabels``), one
    column per class of :data:`CLASSES`; in each panel the utility ``y`` of the class's families along
    their sweeps, log-log, with a band of the pointwise 95 % interval of the mean (Hall) when the
    per-run samples ``"runs_" + y`` are given, and the other classes' curves in light grey."""
    import matplotlib  # noqa: PLC0415 lazy: matplotlib only for the figures

    keys = list(xlabels)
    classes = [(c, [n for n in ms if n in sweeps]) for c, ms in CLASSES.items()]
    classes = [(c, ms) for c, ms in classes if ms]
    # the book's column width (not wider: a wider figure is shrunk and its legends drop below 8 px)
    fig, axes = _fig(
        len(keys), len(classes), figsize=(COLUMN_INCHES, 2.0 * len(keys) + 0.6), squeeze=False, sharey=True
    )
    cmap = matplotlib.colormaps["tab10"]
    for r, k in enumerate(keys):
        for c, (cname, members) in enumerate(classes):
            ax = axes[r, c]
            for name, sw in sweeps.items():
                xs, ys = np.asarray(sw[k], dtype=float), np.asarray(sw[y], dtype=float)
                ok = np.isfinite(xs) & np.isfinite(ys) & (xs > 1e-4) & (ys > 0)
                if name not in members:
                    ax.plot(xs[ok], ys[ok], "-", lw=0.6, color="0.85", zorder=1)
            for i, name in enumerate(members):
                sw = sweeps[name]
                xs, ys = np.asarray(sw[k], dtype=float), np.asarray(sw[y], dtype=float)
                ok = np.isfinite(xs) & np.isfinite(ys) & (xs > 1e-4) & (ys > 0)
                if not ok.any():
                    continue
                ax.plot(xs[ok], ys[ok], "-o", ms=2.5, lw=1.3, color=cmap(i), label=name, zorder=3)
                if f"runs_{y}" in sw:
                    band = point_intervals(sw[f"runs_{y}"])
                    lo, hi = np.asarray(band.low)[ok], np.asarray(band.high)[ok]
                    ax.fill_between(xs[ok], np.maximum(lo, 1e-6), hi, color=cmap(i), alpha=0.2, lw=0, zorder=2)
            if k != "vx":
                ax.set_xscale("log")
            ax.set_yscale("log")
            if r == 0:
                ax.set_title(cname, fontsize=8)
            if r == len(keys) - 1:
                ax.legend(fontsize=7, frameon=False, loc="upper right", handlelength=1.5, borderaxespad=0.2)
            ax.set_xlabel(xlabels[k], fontsize=8)
            if c == 0:
                ax.set_ylabel(ylabel, fontsize=8)
            ax.tick_params(labelsize=7)
    return fig


@contract(taus=_MAP, labels=_MAP)
def rank_agreement(taus: Mapping[tuple[str, str], float], labels: Mapping[str, str]):
    """Kendall's tau between every pair of lenses, as a symmetric matrix."""
    keys = list(labels)
    T = np.eye(len(keys))
    for (a, b), t in taus.items():
        i, j = keys.index(a), keys.index(b)
        T[i, j] = T[j, i] = t
    fig, ax = _fig(figsize=(6.4, 5.4))
    im = ax.imshow(T, cmap="RdBu", vmin=-1, vmax=1)
    ax.grid(False)
    for i in range(len(keys)):
        for j in range(len(keys)):
            ax.text(
                j,
                i,
                f"{T[i, j]:.2f}",
                ha="center",
                va="center",
                fontsize=8,
                color="white" if abs(T[i, j]) > 0.6 else "black",
            )
    ax.set_xticks(range(len(keys)), [labels[k] for k in keys], rotation=35, ha="right", fontsize=9)
    ax.set_yticks(range(len(keys)), [labels[k] for k in keys], fontsize=9)
    fig.colorbar(im, ax=ax, shrink=0.8, label="Kendall τ")
    return fig


@contract(ref=_MAP, at_mi=_MAP, at_emd=_MAP, at_d=Instance(dict, type(None), example=None))
def matched_table(
    ref: Mapping[str, float],
    at_mi: Mapping[str, Mapping[str, float]],
    at_emd: Mapping[str, Mapping[str, float]],
    at_d: Mapping[str, Mapping[str, float]] | None = None,
):
    """The matched comparisons as a table (a :class:`pandas.DataFrame`, one row per mechanism, k-RR at 1-LDP
    first): at equal I(X;Y) the ε-LDP level on X and the mean EMD after IBU [95 % interval, Hall]; at equal EMD
    after IBU the EMD reached [95 %], I(X;Y) and the LDP-w.r.t.-S leakage; at equal distortion (``at_d``, from
    :func:`~ldpnb.papers.synthesis.experiments.ba_matched_distortion`) BA's information."""
    import pandas as pd  # noqa: PLC0415 lazy: pandas is needed only to show the table

    def ci(r):
        return point_intervals(np.asarray(r["runs_emd_ibu"])[None, :])[0].text(3)

    def line(name, a, b):
        row = {
            "mechanism": name,
            "equal I: ε-LDP on X": f"{a['ldp']:.2f}",
            "equal I: EMD, IBU (bins) [95 %]": ci(a),
            "equal EMD: EMD reached [95 %]": ci(b),
            "equal EMD: I(X;Y) (bits)": f"{b['mi']:.3f}",
            "equal EMD: LDP leak about S (nats)": f"{b['lift_ldp']:.3f}",
        }
        if at_d is not None:
            d = at_d.get(name)
            row["equal distortion: I_BA (bits)"] = f"{d['I_BA']:.3f} (vs {d['I_mech']:.3f})" if d else "—"
        return row

    rows = [line("k-RR (1-LDP, reference)", ref, ref)] + [line(n, at_mi[n], at_emd[n]) for n in at_mi if n in at_emd]
    return pd.DataFrame(rows).set_index("mechanism")


@contract(ga=_MAP)
def gain_by_eps(ga: Mapping[str, object]):
    """IBU's relative MSE gain over MI against ε, one line per oracle, with pointwise 95 % Fieller
    intervals: solid IBU on the whole channel, dashed IBU on the support counts (Arcolezi et al.'s
    variant); from :func:`~ldpnb.papers.synthesis.experiments.ibu_gain_by_eps`."""
    import matplotlib  # noqa: PLC0415 lazy: matplotlib only for the figures
    from matplotlib.ticker import NullFormatter  # noqa: PLC0415 lazy: matplotlib only for the figures

    eps = np.asarray(ga["eps"], float)
    curves = gain_curves(ga)
    fig, ax = _fig(figsize=(5.6, 3.4))
    cmap = matplotlib.colormaps["tab10"]
    for i, (name, c) in enumerate(curves.items()):
        x = eps * (1 + 0.03 * (i - 2))
        for key, ls, mk, alpha, label in (
            ("whole", "-", "o", 1.0, f"{name}, whole channel"),
            ("support", "--", "s", 0.7, None),
        ):
            e = c[key]
            v = np.asarray(e.value)
            err = np.vstack([v - np.asarray(e.low), np.asarray(e.high) - v])
            ax.errorbar(
                x,
                v,
                yerr=np.clip(err, 0, 1),
                marker=mk,
                ms=3,
                lw=1.1,
                ls=ls,
                capsize=2,
                color=cmap(i),
                alpha=alpha,
                label=label,
            )
    ax.axhline(0, color="0.5", lw=0.8)
    ax.set_xscale("log")
    ax.set_xticks(eps, [f"{e:g}" for e in eps])
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("ε")
    ax.set_ylabel("1 − MSE(IBU) / MSE(MI)")
    ax.legend(fontsize=7, frameon=False, title="dashed: IBU on support counts", title_fontsize=7)
    return fig


@contract(
    res=Instance(GridResult, example=_RESULT_EXAMPLE),
    ks=_SEQ,
    eps=_SEQ,
    n=SAMPLE_SIZE,
    dist=OneOf("uniform", "Zipf", "Gowalla"),
    df=Instance(object, example=None),
)
def guide_map(res: GridResult, ks: Sequence[int], eps: Sequence[float], n: int, dist: str, df=None):
    """Two panels over ``(k, eps)``: the oracle with the smallest exact MSE of the standard estimate
    (left; the same at every ``n`` and distribution), and the best after projection onto the simplex
    at ``n`` users and distribution ``dist`` (right; a dot where the cell is undecided: a runner-up
    within noise, from the guide table ``df`` of :func:`~ldpnb.papers.synthesis.guide.summarise`);
    Wang et al.'s boundary ``k = 3e^eps + 2`` and the exact one ``k*`` drawn on both."""
    import matplotlib  # noqa: PLC0415 lazy: matplotlib only for the figures
    from matplotlib.colors import ListedColormap  # noqa: PLC0415 lazy: matplotlib only for the figures
    from matplotlib.patches import Patch  # noqa: PLC0415 lazy: matplotlib only for the figures
    from matplotlib.patheffects import withStroke  # noqa: PLC0415 lazy: matplotlib only for the figures

    names = res.names
    # one distinct colour per family: tab10, then the light shades of tab20 (a registry may hold > 10)
    palette = [matplotlib.colormaps["tab10"](i) for i in range(10)]
    palette += [matplotlib.colormaps["tab20"](2 * i + 1) for i in range(10)]
    if len(names) > len(palette):
        raise ValueError(f"the guide map distinguishes at most {len(palette)} families, got {len(names)}")
    cmap = ListedColormap(palette[: len(names)])
    idx = {c: i for i, c in enumerate(res.cells)}
    undecided = set()
    if df is not None:
        for row in df.itertuples(index=False):
            if getattr(row, "decided") == "no":
                undecided.add((row[0], row[1], row[2], row[3]))
    A = np.full((len(ks), len(eps)), np.nan)
    B = np.full_like(A, np.nan)
    amb = np.zeros_like(A, dtype=bool)
    for a, k in enumerate(ks):
        for b, e in enumerate(eps):
            i = idx.get((k, e, n, dist))
            if i is None:
                continue
            A[a, b] = _best_finite(res.exact[i])
            B[a, b] = _projected_best(res, i)
            amb[a, b] = (k, e, n, dist) in undecided
    fig, axes = _fig(1, 2, figsize=(7.8, 4.2), sharey=True)
    ee = np.linspace(0, len(eps) - 1, 200)
    e_val = np.interp(ee, np.arange(len(eps)), eps)
    for ax, M, title in (
        (axes[0], A, "unbiased estimate (any n, any data)"),
        (axes[1], B, f"projected, n = {n:,}, {dist}"),
    ):
        ax.imshow(M, cmap=cmap, vmin=-0.5, vmax=len(names) - 0.5, aspect="auto", origin="lower")
        ax.grid(False)
        for kk, style, lab in (
            (lambda e: 3 * np.exp(e) + 2, "-", "k = 3e^ε + 2 (Wang et al.)"),
            (np.vectorize(grr_oue_exact_boundary), "--", "exact k*"),
        ):
            kv = kk(e_val)
            ky = np.interp(np.log2(kv), np.log2(ks), np.arange(len(ks)))
            inside = kv <= ks[-1]
            ax.plot(ee[inside], ky[inside], style, color="black", lw=1.2, label=lab)
        ax.set_xticks(range(len(eps)), [f"{e:g}" for e in eps], fontsize=8)
        ax.set_xlabel("ε")
        ax.set_title(title, fontsize=9)
    for a in range(len(ks)):
        for b in range(len(eps)):
            if amb[a, b]:
                axes[1].text(
                    b,
                    a,
                    "·",
                    ha="center",
                    va="center",
                    fontsize=12,
                    color="white",
                    path_effects=[withStroke(linewidth=2, foreground="black")],
                )
    axes[0].set_yticks(range(len(ks)), [str(k) for k in ks], fontsize=8)
    axes[0].set_ylabel("k")
    axes[0].legend(fontsize=7, loc="upper left", frameon=True)
    rows = -(-len(names) // 6)  # at most six entries a row: the legend stays inside the column
    fig.legend(
        [Patch(color=cmap(i)) for i in range(len(names))],
        names,
        loc="lower center",
        ncol=min(6, len(names)),
        fontsize=8.5,
        frameon=False,
    )
    fig.get_layout_engine().set(rect=(0, 0.06 * rows + 0.02, 1, 1))
    return fig


@contract(df=Instance(object, example=None))
def guide_table(df):
    """The guide as an interactive table (itables: sortable, filterable by column, offline)."""
    import itables  # noqa: PLC0415 lazy: itables only for the interactive table

    itables.init_notebook_mode(all_interactive=False, connected=False)
    view = df.copy()
    view["server µs/report"] = view["server µs/report"].map(lambda v: f"{v:.2g}" if np.isfinite(v) else "—")
    view["bits/report"] = view["bits/report"].map(lambda v: f"{v:.0f}" if np.isfinite(v) else "—")
    return itables.show(
        view, column_filters="header", showIndex=False, pageLength=15, classes="display compact", maxBytes=0
    )  # maxBytes=0: every row of the guide (itables downsamples a table above 64 kB by default)
