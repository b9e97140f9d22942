"""Figures of the performance appendix (each returns a closed :class:`matplotlib.figure.Figure`)."""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from ldpnb.contracts import Instance, contract
from ldpnb.repro.plotting import color, column_figsize

__all__ = ["speedups", "scaling"]

_ROWS = Instance(list, tuple, example=[])
#: One colour per peer (Okabe-Ito), told apart in print and by colour-blind readers.
_PEER = {"multi-freq-ldpy": "#0072B2", "pure-ldp": "#009E73", "qif": "#D55E00"}
_MAP = Instance(Mapping, example={})


def _fig(*args, **kw):
    import matplotlib.pyplot as plt  # noqa: PLC0415 lazy: plotting is opt-in (matplotlib loads when a figure is drawn)

    fig, axes = plt.subplots(*args, **kw)
    plt.close(fig)
    return fig, axes


@contract(clients=_ROWS, ibu_rows=_ROWS)
def speedups(clients: Sequence[Mapping], ibu_rows: Sequence[Mapping]):
    """Ratios peer time / our time on the same work (log scale, 1 = parity): per-user clients and
    servers at the largest k (left), dense IBU per iteration and in total against k (right)."""
    fig, (a, b) = _fig(2, 1, figsize=column_figsize(1, 2, panel_aspect=0.42))
    kmax = max((r["k"] for r in clients), default=None)
    sub = [r for r in clients if r["k"] == kmax]
    labels = [f"{r['mechanism']} {r['side']}\n{r['peer']}" for r in sub]
    x = np.arange(len(sub))
    a.bar(x, [r["ratio"] for r in sub], color=[_PEER.get(r["peer"], color(r["peer"])) for r in sub])
    a.axhline(1.0, color="k", lw=1, ls="--")
    a.set_yscale("log")
    a.set_xticks(x, labels, fontsize=7, rotation=60, ha="right")
    a.set_ylabel("peer / ours (×)")
    a.set_title(f"Per-user clients and servers, k = {kmax} (same users, same reports)")
    if not sub:
        a.text(0.5, 0.5, "no peer loaded", ha="center", va="center", transform=a.transAxes)
    for peer, mk in (("multi-freq-ldpy", "o"), ("qif", "s")):
        rows = [r for r in ibu_rows if r["peer"] == peer]
        if rows:
            ks = [r["k"] for r in rows]
            b.loglog(ks, [r["iter_ratio"] for r in rows], mk + "-", color=_PEER[peer], label=f"{peer}: per iteration")
            b.loglog(
                ks,
                [r["total_ratio"] for r in rows],
                mk + ":",
                color=_PEER[peer],
                label=f"{peer}: total (set-up included)",
            )
    b.axhline(1.0, color="k", lw=1, ls="--")
    b.set_xscale("log", base=2)
    b.set_xlabel("domain size k")
    b.set_ylabel("peer / ours (×)")
    b.set_title("Dense IBU, same channel, same number of updates")
    if any(r["peer"] in ("multi-freq-ldpy", "qif") for r in ibu_rows):
        b.legend(fontsize=8)
    else:
        b.text(0.5, 0.5, "no peer loaded", ha="center", va="center", transform=b.transAxes)
    return fig


@contract(by_n=_MAP, by_k=_MAP)
def scaling(by_n: Mapping[str, Mapping], by_k: Mapping[str, Mapping]):
    """Time against the number of users (clients) and per-iteration time against the domain size
    (IBU and BA), log-log, with the fitted slopes in the legend."""
    fig, (a, b) = _fig(1, 2, figsize=column_figsize(2, 1, panel_aspect=0.85))
    for name, d in by_n.items():
        a.loglog(d["n"], d["seconds"], "o-", color=color(name), label=f"{name} client (slope {d['slope']:.2f})")
    a.set_xlabel("users n")
    a.set_ylabel("seconds")
    a.set_title("Clients against n")
    a.legend(fontsize=8)
    for name, d in by_k.items():
        b.loglog(
            d["k"],
            d["seconds"],
            "o-" if "IBU" in name else "s--",
            color=color(name),
            label=f"{name} ({d['slope']:.2f})",
        )
    b.set_xlabel("domain size k (cells)")
    b.set_ylabel("seconds per iteration")
    b.set_title("Per iteration against k")
    b.legend(fontsize=7)
    return fig
