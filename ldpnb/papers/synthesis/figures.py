"""Figures of the synthesis chapter (each returns a closed :class:`matplotlib.figure.Figure`)."""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from ldpnb.contracts import Instance, contract

_STYLES = ("-o", "--s", ":^")


def _tab(i: int):
    import matplotlib

    return matplotlib.colormaps["tab10"](i)

__all__ = ["lens_heatmap", "frontiers", "rank_agreement", "matched_table"]

_MAP = Instance(Mapping, example={})
_SEQ = Instance(list, tuple, example=["a"])


def _fig(*args, **kw):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(*args, **kw)
    plt.close(fig)
    return fig, axes


def _fmt(v: float) -> str:
    if not np.isfinite(v):
        return "∞"
    if abs(v) >= 100:
        return f"{v:.0f}"
    if abs(v) >= 10:
        return f"{v:.1f}"
    return f"{v:.2f}" if abs(v) >= 0.1 else f"{v:.3f}"


@contract(table=_MAP, lenses=_MAP, title=Instance(str, example=""))
def lens_heatmap(table: Mapping[str, Mapping[str, float]], lenses: Mapping[str, str], title: str = ""):
    """Mechanism x lens heat map: one row per mechanism, one column per lens (``lenses``: key ->
    column label).  Colour: the mechanism's rank within the column (dark = leaks most / estimates
    worst, light = least), so that columns with different units compare; cells show the values."""
    names = list(table)
    keys = list(lenses)
    V = np.array([[table[n][k] for k in keys] for n in names], dtype=float)
    from scipy.stats import rankdata

    R = np.empty_like(V)
    for j in range(V.shape[1]):
        finite = V[np.isfinite(V[:, j]), j]
        top = (finite.max() * 10 + 1) if finite.size else 1.0
        col = np.where(np.isfinite(V[:, j]), np.round(V[:, j], 9), top)  # ties (equal levels) share a rank
        R[:, j] = (rankdata(col, method="average") - 1) / max(len(names) - 1, 1)
    fig, ax = _fig(figsize=(7.8, 0.36 * len(names) + 1.8))
    ax.imshow(R, cmap="magma_r", vmin=-0.15, vmax=1.15, aspect="auto")
    ax.grid(False)
    for i in range(V.shape[0]):
        for j in range(V.shape[1]):
            ax.text(j, i, _fmt(V[i, j]), ha="center", va="center", fontsize=8,
                    color="white" if R[i, j] > 0.6 else "black")
    ax.set_xticks(range(len(keys)), [lenses[k] for k in keys], rotation=35, ha="right", fontsize=9)
    ax.set_yticks(range(len(names)), names, fontsize=9)
    ax.tick_params(length=0)
    if title:
        ax.set_title(title, fontsize=10)
    return fig


@contract(sweeps=_MAP, y=Instance(str, example="emd_ibu"), xlabels=_MAP, ylabel=Instance(str, example=""))
def frontiers(sweeps: Mapping[str, Mapping[str, np.ndarray]], y: str, xlabels: Mapping[str, str], ylabel: str):
    """Privacy-utility frontiers: for each privacy lens (one panel per key of ``xlabels``), the
    utility ``y`` of every family along its parameter sweep (two panels per row, log-log)."""
    keys = list(xlabels)
    rows = (len(keys) + 1) // 2
    fig, axes = _fig(rows, 2, figsize=(7.8, 3.2 * rows), squeeze=False)
    for ax, k in zip(axes.ravel(), keys):
        for i, (name, sw) in enumerate(sweeps.items()):
            xs, ys = np.asarray(sw[k], dtype=float), np.asarray(sw[y], dtype=float)
            ok = np.isfinite(xs) & np.isfinite(ys) & (xs > 1e-4) & (ys > 0)
            if ok.sum() >= 1:
                ax.plot(xs[ok], ys[ok], _STYLES[i // 10 % 3], ms=2.5, lw=1.2, color=_tab(i % 10), label=name)
        if k != "vx":  # a probability: linear axis
            ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(xlabels[k])
        ax.set_ylabel(ylabel)
    for ax in axes.ravel()[len(keys):]:
        ax.set_visible(False)
    handles, labels = max((a.get_legend_handles_labels() for a in axes.ravel()), key=lambda hl: len(hl[1]))
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=8, frameon=False)
    fig.get_layout_engine().set(rect=(0, 0.04 + 0.035 * ((len(labels) + 3) // 4), 1, 1))
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
            ax.text(j, i, f"{T[i, j]:.2f}", ha="center", va="center", fontsize=8,
                    color="white" if abs(T[i, j]) > 0.6 else "black")
    ax.set_xticks(range(len(keys)), [labels[k] for k in keys], rotation=35, ha="right", fontsize=9)
    ax.set_yticks(range(len(keys)), [labels[k] for k in keys], fontsize=9)
    fig.colorbar(im, ax=ax, shrink=0.8, label="Kendall τ")
    return fig


def matched_table(ref: Mapping[str, float], at_mi: Mapping[str, Mapping[str, float]],
                  at_emd: Mapping[str, Mapping[str, float]]):
    """The matched comparisons as a table (a :class:`pandas.DataFrame`, one row per mechanism, k-RR at 1-LDP
    first): at equal I(X;Y) the ε-LDP level on X and the EMD after IBU (± SE); at equal EMD after IBU the EMD
    reached (± SE), I(X;Y) and the LDP-w.r.t.-S leakage."""
    import pandas as pd

    def line(name, a, b):
        return {"mechanism": name, "equal I: ε-LDP on X": f"{a['ldp']:.2f}",
                "equal I: EMD, IBU (bins)": f"{a['emd_ibu']:.4f} ± {a['emd_ibu_se']:.4f}",
                "equal EMD: EMD reached": f"{b['emd_ibu']:.4f} ± {b['emd_ibu_se']:.4f}",
                "equal EMD: I(X;Y) (bits)": f"{b['mi']:.3f}", "equal EMD: LDP leak about S (nats)": f"{b['lift_ldp']:.3f}"}
    rows = [line("k-RR (1-LDP, reference)", ref, ref)] + [line(n, at_mi[n], at_emd[n]) for n in at_mi if n in at_emd]
    return pd.DataFrame(rows).set_index("mechanism")
