"""Figures of the foundations chapter (each returns a closed :class:`matplotlib.figure.Figure`)."""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from ldpnb.contracts import POSITIVE, Array, Instance, Integer, contract
from ldpnb.measures import emd_1d
from ldpnb.repro.plotting import color

_MAP = Instance(Mapping, example={})
_LIST = Instance(list, tuple, np.ndarray, example=[0.0])

__all__ = ["channel_matrices", "planar_rows", "oracle_variances", "estimates", "capacities"]


def _fig(*args, **kw):
    import matplotlib.pyplot as plt  # noqa: PLC0415 lazy: plotting is opt-in (matplotlib loads when a figure is drawn)

    fig, axes = plt.subplots(*args, **kw)
    plt.close(fig)
    return fig, axes


@contract(channels=_MAP)
def channel_matrices(channels: Mapping[str, np.ndarray]):
    """Heat maps of channel matrices ``P(z | x)``, one panel each (two per row)."""
    n = len(channels)
    rows = (n + 1) // 2
    fig, axes = _fig(rows, 2, figsize=(7.5, 3.3 * rows))
    for ax, (name, C) in zip(np.ravel(axes), channels.items()):
        im = ax.imshow(C, cmap="viridis", vmin=0)
        ax.grid(False)
        ax.set_title(name)
        ax.set_xlabel("output z")
        ax.set_ylabel("input x")
        fig.colorbar(im, ax=ax, shrink=0.85, label="P(z | x)")
    return fig


@contract(rows=_MAP, shape=Instance(tuple, example=(2, 2)), cell=Integer(0, None), cell_km=POSITIVE)
def planar_rows(rows: Mapping[str, np.ndarray], shape: tuple[int, int], cell: int, cell_km: float):
    """One row of each planar channel drawn as an image, the true cell marked."""
    R, C = shape
    fig, axes = _fig(1, len(rows), figsize=(7.5, 3.4))
    for ax, (name, row) in zip(np.ravel(axes), rows.items()):
        im = ax.imshow(np.asarray(row).reshape(R, C), origin="lower", cmap="magma")
        ax.grid(False)
        ax.set_title(name)
        ax.plot(cell % C, cell // C, "c+", ms=12, mew=2)
        ax.set_xlabel(f"column ({cell_km} km cells)")
        ax.set_ylabel("row")
        fig.colorbar(im, ax=ax, shrink=0.8, label="P(report cell | true cell)")
    return fig


@contract(eps=Array(1, low=0), variances=_MAP)
def oracle_variances(eps: np.ndarray, variances: Mapping[int, Mapping[str, np.ndarray]]):
    """``n Var[f(v)]`` against ε for each oracle, one panel per alphabet size ``k``."""
    fig, axes = _fig(1, len(variances), figsize=(7.5, 3.4), sharey=True)
    for ax, (k, by_name) in zip(np.ravel(axes), variances.items()):
        for name, v in by_name.items():
            ax.semilogy(eps, v, label=name, color=color(name))
        ax.set_title(f"k = {k}")
        ax.set_xlabel("ε")
    np.ravel(axes)[0].set_ylabel("n · Var[f̂(v)]  (f(v) → 0)")
    np.ravel(axes)[-1].legend(fontsize="x-small")
    return fig


@contract(theta=Array(1, low=0), q=Array(1, low=0), est=_MAP, loglik=_LIST)
def estimates(theta: np.ndarray, q: np.ndarray, est: Mapping[str, np.ndarray], loglik: Sequence[float]):
    """True θ, the noisy reports and each estimate (left); IBU's log-likelihood trace (right)."""
    fig, axes = _fig(1, 2, figsize=(7.5, 3.4), gridspec_kw=dict(width_ratios=[1.6, 1]))
    ax = axes[0]
    x = np.arange(theta.size)
    ax.bar(x, theta, color="0.85", label="true θ")
    ax.plot(x, q, "k:", lw=1, label="reports q")
    for name, v in est.items():
        label = name if name == "INV" else f"{name} ({emd_1d(theta, v):.2f})"
        ax.plot(x, v, marker=".", ms=3, label=label, color=color(name))
    ax.axhline(0, color="k", lw=0.5)
    ax.set_xlabel("value x")
    ax.set_ylabel("probability")
    ax.legend(fontsize="x-small", title="estimate (EMD)", title_fontsize="x-small")
    axes[1].plot(np.asarray(loglik), color=color("IBU"))
    axes[1].set_xscale("log")
    axes[1].set_xlabel("IBU iteration")
    axes[1].set_ylabel("ℓ(θᵗ) (nats)")
    return fig


@contract(eps=Array(1, low=0), caps=_MAP)
def capacities(eps: np.ndarray, caps: Mapping[int, np.ndarray]):
    """Capacity of k-RR against ε, with the LDP bound min(ε, ε²)."""
    fig, ax = _fig(figsize=(6, 3.4))
    for k, c in caps.items():
        ax.plot(eps, c, label=f"k-RR, k = {k}")
    ax.plot(eps, np.minimum(eps, eps**2), "k--", label="min(ε, ε²)")
    ax.set_xlabel("ε")
    ax.set_ylabel("capacity (nats)")
    ax.legend(fontsize="small")
    return fig
