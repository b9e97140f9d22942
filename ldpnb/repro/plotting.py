"""One plotting style for the whole book.

:func:`set_style` applies a seaborn theme; :data:`COLORS` fixes one colour per
estimator and per mechanism so that "IBU" or "OUE" look the same in every chapter.
:func:`color` looks a name up (case-insensitive) and falls back to a stable colour
derived from the name.
"""

from __future__ import annotations

import zlib

from ldpnb._optional import import_optional
from ldpnb.contracts import POSITIVE, Instance, Integer, OneOf, Unchecked, contract

__all__ = [
    "COLORS",
    "COLUMN_INCHES",
    "color",
    "column_figsize",
    "set_style",
    "paper_title",
]

#: Width of the book's text column in inches at the inline backend's 100 dpi (about 780 CSS px).
#: A figure at most this wide is shown at its natural size, so 10-pt text stays 10-pt on screen;
#: a wider one is shrunk to the column (at 1.5 x this width, 10-pt text drops to about 9 px).
COLUMN_INCHES = 7.8


_PALETTE = [
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#CC79A7",
    "#E69F00",
    "#56B4E9",
    "#F0E442",
    "#000000",
    "#8C564B",
    "#7F7F7F",
    "#BCBD22",
    "#17BECF",
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


@contract(name=Instance(str, example="IBU"))
def color(name: str) -> str:
    """The book's colour for ``name`` (case-insensitive); a stable fallback otherwise."""
    key = name.strip().lower()
    if key in COLORS:
        return COLORS[key]
    return _PALETTE[zlib.crc32(key.encode()) % len(_PALETTE)]


@contract(ncols=Integer(1, 64), nrows=Integer(1, 64), panel_aspect=POSITIVE, width=POSITIVE)
def column_figsize(
    ncols: int = 1, nrows: int = 1, *, panel_aspect: float = 0.72, width: float = COLUMN_INCHES
) -> tuple[float, float]:
    """Figure size for ``nrows x ncols`` panels that fills the book's column without shrinking.

    Each panel gets ``width / ncols`` inches and a height of ``panel_aspect`` times that;
    prefer at most two panels per row (``ncols <= 2``) and stack the rest.
    """
    if ncols < 1 or nrows < 1:
        raise ValueError(f"ncols and nrows must be >= 1, got {ncols} and {nrows}")
    w = width / ncols
    return (width, round(nrows * w * panel_aspect + 0.3, 2))


@contract(context=OneOf("paper", "notebook", "talk", "poster"))
def set_style(context: str = "notebook") -> None:
    """Apply the book's seaborn theme and matplotlib defaults (readable, print-friendly).

    - the seaborn ``whitegrid`` theme with the book's palette;
    - patches get no edge unless they ask for one (``patch.force_edgecolor`` off) and the default
      edge colour is dark: seaborn's white patch edges made annotation arrows
      (``FancyArrowPatch``, which always draws its edge) invisible on the white background;
    - in Jupyter, figures are rendered at twice their dpi (``retina``: 200 px per inch) and shown
      at their natural width, so that a figure of :data:`COLUMN_INCHES` fills the column sharply.
    """
    mpl = import_optional("matplotlib")  # loads only when the style is set
    sns = import_optional("seaborn")

    sns.set_theme(context=context, style="whitegrid", palette=_PALETTE)
    mpl.rcParams.update(
        {
            "figure.dpi": 100,
            "savefig.dpi": 200,
            "patch.force_edgecolor": False,
            "patch.edgecolor": "0.15",
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
    _retina_inline()


def _retina_inline() -> None:
    """Ask IPython's inline backend for ``retina`` PNGs (2x pixels, natural display width)."""
    try:
        from IPython import get_ipython  # noqa: PLC0415 lazy: IPython exists only in a kernel
    except ImportError:  # pragma: no cover - matplotlib without IPython
        return
    shell = get_ipython()
    if shell is None or not hasattr(shell, "display_formatter"):
        return
    from matplotlib_inline.backend_inline import set_matplotlib_formats  # noqa: PLC0415 lazy: matplotlib-inline exists only in a kernel

    set_matplotlib_formats("retina")
    from ldpnb.repro.nbcheck import install_text_probe  # noqa: PLC0415 lazy: only in a kernel

    install_text_probe(shell)  # each figure records its legend's size at the column width


@contract(
    ax_or_fig=Unchecked("a matplotlib Axes or Figure", None),
    number=Instance(str, example="Fig. 1"),
    text=Instance(str, example=""),
)
def paper_title(ax_or_fig, number: str, text: str) -> None:
    """Title a figure with the paper's figure number, e.g. ``paper_title(fig, "Fig. 4", "alpha vs epsilon")``."""
    title = f"{number} — {text}"
    if hasattr(ax_or_fig, "suptitle"):
        ax_or_fig.suptitle(title, fontweight="bold")
    else:
        ax_or_fig.set_title(title)
