"""PRIVIC paper (Biswas and Palamidessi): heat maps and the illustrations of Figs. 4-5.
"""

from __future__ import annotations

import numpy as np
from ldpnb.papers.privic.model import _shape

__all__ = [
    "heatmap",
    "draw_duality",
    "draw_privic_loop",
]


# ----------------------------------------------------------------------------- plotting helper
def heatmap(ax, vec, shape, *, title: str = "", cmap: str = "viridis", vmax=None, marks=None,
            colorbar: bool = True, label: str = "probability"):
    """Draw a vector over the grid (row 0 = north at the top, col 0 = west at the left).

    ``marks`` is a dict ``{"A": (r, c), ...}`` of labelled cells.  Axes are in grid units
    (column = west -> east, row = north -> south).
    """
    rows, cols = _shape(shape)
    img = np.asarray(vec, dtype=float).reshape(rows, cols)
    im = ax.imshow(img, cmap=cmap, vmin=0, vmax=vmax, origin="upper", interpolation="nearest")
    for name, (r, c) in (marks or {}).items():
        ax.plot(c, r, marker="s", ms=9, mfc="none", mec="red", mew=1.6)
        ax.annotate(name, (c, r), xytext=(3, -8), textcoords="offset points", color="red",
                    fontweight="bold")
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("column, west → east (grid units)")
    ax.set_ylabel("row, north → south (grid units)")
    ax.grid(False)
    if title:
        ax.set_title(title)
    if colorbar:
        ax.figure.colorbar(im, ax=ax, shrink=0.8, label=label)
    return im


def _box(ax, xy, text, w=0.26, h=0.16, fc="#e8f1fa"):
    from matplotlib.patches import FancyBboxPatch

    x, y = xy
    ax.add_patch(FancyBboxPatch((x - w / 2, y - h / 2), w, h, boxstyle="round,pad=0.02", fc=fc, ec="#0072B2"))
    ax.text(x, y, text, ha="center", va="center", fontsize=9)


def _arrow(ax, a, b, text="", rad=0.0):
    ax.annotate("", xy=b, xytext=a, arrowprops=dict(arrowstyle="-|>", lw=1.4, color="#333333",
                                                       connectionstyle=f"arc3,rad={rad}"))
    if text:
        ax.text((a[0] + b[0]) / 2, (a[1] + b[1]) / 2 + 0.04, text, ha="center", fontsize=8, color="#333333")


def draw_duality(ax):
    """Fig. 4 (illustration): BA's marginal update is an IBU step with the roles of X and Y swapped."""
    ax.set_axis_off()
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    _box(ax, (0.22, 0.75), "BA (eq. 5)\n$c_{t+1}(y)=\\sum_x \\pi(x)\\,\\frac{c_t(y)K(x,y)}{\\sum_z c_t(z)K(x,z)}$", w=0.40, h=0.2)
    _box(ax, (0.78, 0.75), "IBU (Def. 2.5)\n$\\theta_{r+1}(x)=\\sum_y q(y)\\,\\frac{\\theta_r(x)C_{xy}}{\\sum_z \\theta_r(z)C_{zy}}$", w=0.40, h=0.2, fc="#fdf0e6")
    pairs = [("output $y$", "secret $x$"), ("prior $\\pi$", "observed $q$"),
             ("kernel $K(x,y)=e^{-\\beta d(x,y)}$", "channel $C_{y\\to x}$"), ("marginal $c_t$", "estimate $\\theta_r$")]
    for i, (l, r) in enumerate(pairs):
        y = 0.48 - 0.12 * i
        ax.text(0.22, y, l, ha="center", va="center", fontsize=9)
        ax.text(0.78, y, r, ha="center", va="center", fontsize=9)
        ax.annotate("", xy=(0.62, y), xytext=(0.40, y), arrowprops=dict(arrowstyle="<|-|>", color="#888888"))


def draw_privic_loop(ax):
    """Fig. 5 / Alg. 1 (illustration): the PRIVIC cycle BA -> collection -> IBU -> (⊕) -> BA."""
    ax.set_axis_off()
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    _box(ax, (0.15, 0.8), "$\\theta_0$ = uniform\n$c_0$ = uniform", fc="#eeeeee")
    _box(ax, (0.5, 0.8), "(i) BA\n$\\hat C^{(t)}=\\mathrm{BA}(\\theta_{t-1},c_0,\\beta)$")
    _box(ax, (0.85, 0.5), "(ii) users report\n$y^{(t)}\\sim \\hat C^{(t)}[x,\\cdot]$\n$\\to q_t$", fc="#e6f4ea")
    _box(ax, (0.5, 0.2), "(iii) IBU from $\\theta_{t-1}$\n$\\mu_t=\\mathrm{IBU}(\\hat C^{(t)},\\theta_{t-1},q_t)$", fc="#fdf0e6")
    _box(ax, (0.15, 0.45), "(iv) $\\theta_t=\\mu_t$\n(or $\\mu_t\\oplus\\theta_{t-1}$)", fc="#fdf0e6")
    _box(ax, (0.15, 0.12), "after N cycles:\nGIBU over all $(\\hat C^{(t)},y^{(t)})$", fc="#eeeeee")
    _arrow(ax, (0.28, 0.8), (0.37, 0.8))
    _arrow(ax, (0.63, 0.75), (0.8, 0.6))
    _arrow(ax, (0.8, 0.4), (0.63, 0.25))
    _arrow(ax, (0.37, 0.22), (0.2, 0.37))
    _arrow(ax, (0.2, 0.53), (0.37, 0.74), "t ← t+1")
    _arrow(ax, (0.15, 0.37), (0.15, 0.21))
