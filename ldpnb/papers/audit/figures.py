"""Figures of the audit appendix (each returns a closed matplotlib Figure)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ldpnb.contracts import Instance, contract
from ldpnb.repro.plotting import color

_DF = Instance(pd.DataFrame, example=pd.DataFrame())
_LIST = Instance(list, tuple, example=[])

__all__ = ["levels", "ratios", "mutation"]

_KIND_LABEL = {"ldp": "LDP (incl. RS+FD)", "geo": "geo-indistinguishable", "lift": "lift (w.r.t. S)"}


def _fig(*args, **kw):
    import matplotlib.pyplot as plt  # noqa: PLC0415 lazy: plotting is opt-in (matplotlib loads when a figure is drawn)

    fig, axes = plt.subplots(*args, **kw)
    plt.close(fig)
    return fig, axes


@contract(table=_DF, names=_LIST, eps=_LIST)
def levels(table: pd.DataFrame, names: list[str], eps: list[float]):
    """Claimed, exact and empirical loss of the audited pair, one panel per ε (two panels per row)."""
    cols = 2
    rows = int(np.ceil(len(eps) / cols))
    fig, axes = _fig(rows, cols, figsize=(7.5, 0.22 * len(names) * rows + 1.2 * rows), sharey=True)
    axes = np.atleast_1d(axes).ravel()
    ypos = np.arange(len(names))[::-1]
    for ax, e in zip(axes, eps):
        t = table[table["epsilon"] == e].set_index("mechanism").loc[names]
        ax.scatter(t["pair_claimed"], ypos, marker="|", s=160, color="black", label="claimed")
        ax.scatter(t["pair_exact"], ypos, marker="x", s=14, color=color("inv"), label="exact")
        ax.scatter(t["empirical"], ypos, marker="o", s=10, color=color("oue"), label="empirical bound")
        ax.set_title(f"ε = {e:g}", fontsize="small")
        ax.set_xlim(0, 1.25 * float(t["pair_claimed"].max()))
        ax.tick_params(labelsize="x-small")
    for ax in axes[len(eps) :]:
        ax.axis("off")
    for ax in axes[::cols]:
        ax.set_yticks(ypos)
        ax.set_yticklabels(names, fontsize="x-small")
    axes[len(eps) - 1].set_xlabel("privacy loss of the audited pair (nats)", fontsize="small")
    axes[0].legend(fontsize="x-small", loc="lower right")
    return fig


@contract(table=_DF, kinds=Instance(dict, example={}))
def ratios(table: pd.DataFrame, kinds: dict[str, str]):
    """Empirical lower bound over the claim against ε, one line per mechanism, coloured by kind."""
    fig, ax = _fig(figsize=(6.5, 3.8))
    colours = {"ldp": color("oue"), "geo": color("ibu"), "lift": color("srr")}
    seen = set()
    for name, t in table.groupby("mechanism", sort=False):
        k = kinds[name]
        ax.plot(
            t["epsilon"],
            t["emp / claim"],
            "o-",
            color=colours[k],
            alpha=0.6,
            ms=3,
            lw=1,
            label=None if k in seen else _KIND_LABEL[k],
        )
        seen.add(k)
    eps = sorted(table["epsilon"].unique())
    ax.axhline(1.0, color="black", lw=1.5, label="claim")
    ax.set_xscale("log")
    ax.set_xticks(eps, [f"{e:g}" for e in eps])
    ax.minorticks_off()
    ax.set_xlabel("privacy parameter ε (nats)")
    ax.set_ylabel("empirical bound / claim")
    ax.set_ylim(0, 1.25)
    ax.legend(loc="lower right", fontsize="small")
    return fig


@contract(mut=_DF)
def mutation(mut: pd.DataFrame):
    """The broken SUE: claimed ε, true level 1.5 ε, and the audit's empirical lower bound."""
    fig, ax = _fig(figsize=(6, 3.6))
    eps = mut["epsilon"].to_numpy()
    ax.plot(eps, mut["claimed"], "-", color="black", label="claimed ε")
    ax.plot(eps, mut["exact"], "--", color=color("inv"), label="true level 1.5 ε")
    ax.plot(eps, mut["empirical"], "o", color=color("oue"), label="empirical lower bound")
    ax.set_xscale("log")
    ax.set_xticks(eps, [f"{e:g}" for e in eps])
    ax.minorticks_off()
    ax.set_ylim(0, None)
    ax.set_xlabel("privacy parameter ε (nats)")
    ax.set_ylabel("privacy loss (nats)")
    ax.legend(fontsize="small")
    return fig
