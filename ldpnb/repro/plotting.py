"""One plotting style for the whole book.

:func:`set_style` applies a seaborn theme; :data:`COLORS` fixes one colour per
estimator and per mechanism so that "IBU" or "OUE" look the same in every chapter.
:func:`color` looks a name up (case-insensitive) and falls back to a stable colour
derived from the name.
"""

from __future__ import annotations

import zlib

__all__ = [
    "COLORS",
    "color",
    "set_style",
    "paper_title",
]


_PALETTE = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000",
    "#8C564B", "#7F7F7F", "#BCBD22", "#17BECF",
]


COLORS: dict[str, str] = {
    # estimators
    "ibu": "#0072B2",
    "inv": "#7F7F7F",
    "inv-n": "#D55E00",
    "inv-p": "#009E73",
    "emp": "#E69F00",
    "emp+thr": "#CC79A7",
    "truth": "#000000",
    "true": "#000000",
    # frequency oracles / mechanisms
    "grr": "#0072B2",
    "k-rr": "#0072B2",
    "rr": "#0072B2",
    "oue": "#D55E00",
    "sue": "#E69F00",
    "rappor": "#E69F00",
    "olh": "#009E73",
    "blh": "#56B4E9",
    "glh": "#009E73",
    "ss": "#CC79A7",
    "geometric": "#0072B2",
    "laplace": "#D55E00",
    "exponential": "#009E73",
    "ba": "#0072B2",
    "lap": "#D55E00",
    # multidimensional solutions
    "spl": "#7F7F7F",
    "smp": "#0072B2",
    "rs+fd": "#D55E00",
    "rs+rfd": "#009E73",
    # lift paper
    "ldp": "#D55E00",
    "alip": "#0072B2",
    "lip": "#56B4E9",
    "aorr": "#009E73",
    "srr": "#CC79A7",
}


def color(name: str) -> str:
    """The book's colour for ``name`` (case-insensitive); a stable fallback otherwise."""
    key = name.strip().lower()
    if key in COLORS:
        return COLORS[key]
    return _PALETTE[zlib.crc32(key.encode()) % len(_PALETTE)]


def set_style(context: str = "notebook") -> None:
    """Apply the book's seaborn theme and matplotlib defaults (readable, print-friendly)."""
    import matplotlib as mpl
    import seaborn as sns

    sns.set_theme(context=context, style="whitegrid", palette=_PALETTE)
    mpl.rcParams.update(
        {
            "figure.dpi": 100,
            "savefig.dpi": 150,
            "figure.figsize": (7.0, 4.2),
            "figure.autolayout": False,
            "figure.constrained_layout.use": True,
            "axes.titlesize": "medium",
            "axes.titleweight": "bold",
            "legend.fontsize": "small",
            "legend.frameon": True,
            "image.cmap": "viridis",
        }
    )


def paper_title(ax_or_fig, number: str, text: str) -> None:
    """Title a figure with the paper's figure number, e.g. ``paper_title(fig, "Fig. 4", "alpha vs epsilon")``."""
    title = f"{number} — {text}"
    if hasattr(ax_or_fig, "suptitle"):
        ax_or_fig.suptitle(title, fontweight="bold")
    else:
        ax_or_fig.set_title(title)
