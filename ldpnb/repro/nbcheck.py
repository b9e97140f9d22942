"""Checks on executed chapters: clean outputs and legible figures.

``python -m ldpnb.repro.nbcheck _build/executed/book/pie.ipynb ...`` prints every problem and
exits 1 if there is one.  The test suite applies :func:`output_problems` and
:func:`figure_problems` to every chapter on the claims machinery (``tests/test_book.py`` at smoke
scale, ``tests/test_outputs.py`` on the built book).

What a reader must never see in a page:

- a **stderr stream** (a warning, a progress bar, a log line);
- an **error** output;
- an **object repr** (``<Foo object at 0x7f...>``, ``<Figure size 700x400 with 2 Axes>``,
  ``Claim(...)``, ``Report(...)``) or a **numpy repr** (``np.float64(0.5)``, ``array([...])``);
- a **machine path** (``/home/...``, ``/tmp/...``, the repository's absolute path, ``site-packages``).

A figure is legible in the book's 780 px column when it is drawn at 150 dpi or more relative to
its display size (``set_style()`` asks for ``retina`` PNGs: 200 px per inch) and is at most
1170 px wide as displayed (100 px per inch), so that shrinking it to the column keeps 11-pt tick
labels at 10 px or more; and when its legends' text is at least 8 px high once the figure is
shrunk to the column.  The legend size cannot be read back from a PNG: ``set_style()`` installs
:func:`install_text_probe`, which records, with every figure a notebook shows, the smallest legend
and text sizes in CSS px at the column width (:func:`text_px`) in the PNG's output metadata
(``"ldpnb-text-px"``), and :func:`figure_problems` checks them.
"""

from __future__ import annotations

import base64
import html
import re
import struct
import sys
from pathlib import Path
from typing import Any

from ldpnb.contracts import POSITIVE, Instance, Optional, Unchecked, contract

#: A notebook (an nbformat NotebookNode is a dict).
_NB = Instance(dict, example={"cells": []})

__all__ = [
    "output_problems",
    "figure_problems",
    "uses_claims_machinery",
    "shown_text",
    "COLUMN_PX",
    "text_px",
    "install_text_probe",
    "MIN_LEGEND_PX",
    "TEXT_PX_KEY",
    "FIGURE_COLUMN_PX",
]

COLUMN_PX = 780
MAX_DISPLAY_PX = int(1.5 * COLUMN_PX)
MIN_DENSITY = 1.5
#: The smallest legend text, in CSS px at the column width, that a reader can read.
MIN_LEGEND_PX = 8.0
#: The width a figure is shown at, at most, in the book's column (measured in Chromium at 1366 px:
#: the figures of a chapter are 729 px wide; the article is 809 px with 32 px padding each side).
FIGURE_COLUMN_PX = 729
#: Where :func:`install_text_probe` records the sizes in a PNG output's metadata.
TEXT_PX_KEY = "ldpnb-text-px"

# the order in which jupyter-book (myst-nb) picks the representation it shows
RENDER_PRIORITY = (
    "application/vnd.jupyter.widget-view+json",
    "application/javascript",
    "text/html",
    "image/svg+xml",
    "image/png",
    "image/jpeg",
    "text/markdown",
    "text/latex",
    "text/plain",
)

_ROOT = str(Path(__file__).resolve().parents[2])
PATTERNS: list[tuple[str, re.Pattern]] = [
    ("object repr", re.compile(r"<[A-Za-z_][\w.]* object at 0x[0-9a-fA-F]+>")),
    ("object repr", re.compile(r"<(Figure|Axes|matplotlib\.[\w.]+)[ :][^>]*>")),
    ("object repr", re.compile(r"\b(Claim|Report|Printed|Mechanism|[A-Z]\w*Result)\((?!\))")),
    ("numpy repr", re.compile(r"\bnp\.(float|int|uint|bool|complex|str_|bytes_)\w*\(")),
    ("numpy repr", re.compile(r"\barray\(\[")),
    ("numpy repr", re.compile(r"\bdtype=(float|int|uint|bool|object|complex)\w*")),
    ("machine path", re.compile(r"(?<![\w.~])/(home|root|tmp|work|Users|private|var/folders)/[\w.@-]+")),
    ("machine path", re.compile(r"site-packages|[A-Z]:\\\\Users\\\\")),
    ("machine path", re.compile(re.escape(_ROOT))),
]


#: Values a cell shows by accident when its last expression returns an empty container or None.
_STRAY = {"{}", "[]", "()", "set()", "None", "''", '""'}


@contract(py_source=Instance(str, example=""))
def uses_claims_machinery(py_source: str) -> bool:
    """A chapter on the claims machinery imports ``Report`` from ``ldpnb.repro``."""
    return bool(re.search(r"^from ldpnb\.repro(\.report)? import [^\n]*\bReport\b", py_source, re.M))


@contract(output=Instance(dict, example={}))
def shown_text(output: dict[str, Any]) -> str | None:
    """The text of the representation a page shows for this output (None for an image)."""
    kind = output.get("output_type")
    if kind == "stream":
        return output.get("text", "")
    if kind == "error":
        return f"{output.get('ename')}: {output.get('evalue')}"
    data = output.get("data", {})
    for mime in RENDER_PRIORITY:
        if mime in data:
            if mime.startswith("image/"):
                return None
            text = data[mime]
            text = "".join(text) if isinstance(text, list) else str(text)
            return html.unescape(text) if mime == "text/html" else text
    return None


def _cell_tags(cell) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def _visible_outputs(nb):
    """(cell number, output) of every output a page can show: not those of ``remove-output`` or
    ``remove-cell`` cells, except glued values (pasted elsewhere by ``{glue:...}``) and streams and
    errors (never acceptable); not papermill's ``injected-parameters`` cell."""
    n = 0
    for c in nb.cells:
        if c.get("cell_type") != "code":
            continue
        n += 1
        tags = _cell_tags(c)
        if "injected-parameters" in tags:
            continue
        for o in c.get("outputs", []):
            hidden = "remove-output" in tags or "remove-cell" in tags
            if o.get("output_type") in ("stream", "error"):  # shown or not, never acceptable
                yield n, o
            elif not hidden or o.get("metadata", {}).get("scrapbook"):
                yield n, o


@contract(nb=_NB)
def output_problems(nb) -> list[str]:
    """Every stderr stream, error, object or numpy repr and machine path a page would show."""
    problems = []
    for n, o in _visible_outputs(nb):
        kind = o.get("output_type")
        if kind == "stream" and o.get("name") == "stderr":
            problems.append(f"cell {n}: stderr stream: {o.get('text', '')[:160]!r}")
            continue
        if kind == "error":
            problems.append(f"cell {n}: error {o.get('ename')}: {o.get('evalue', '')[:160]}")
            continue
        text = shown_text(o)
        if not text:
            continue
        if kind == "execute_result" and text.strip() in _STRAY:
            problems.append(f"cell {n}: stray value: {text.strip()!r} (the value of the cell's last expression)")
            continue
        found = set()
        for what, pat in PATTERNS:
            m = None if what in found else pat.search(text)
            if m:
                found.add(what)
                lo = max(0, m.start() - 40)
                problems.append(f"cell {n}: {what}: ...{text[lo : m.end() + 40]!r}...")
    return problems


@contract(b64=Instance(str, example=""))
def png_size(b64: str) -> tuple[int, int]:
    """Width and height of a base64 PNG, read from its IHDR chunk."""
    head = base64.b64decode(b64[:64])
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    return struct.unpack(">II", head[16:24])


@contract(nb=_NB)
def figure_problems(nb) -> list[str]:
    """PNG figures drawn below 150 dpi or wider than 1.5 columns as displayed."""
    problems = []
    n = 0
    for c in nb.cells:
        if c.get("cell_type") != "code":
            continue
        n += 1
        for o in c.get("outputs", []):
            data = o.get("data", {})
            if "image/png" not in data or "text/html" in data:
                continue
            b64 = data["image/png"]
            b64 = "".join(b64) if isinstance(b64, list) else b64
            px_w, _ = png_size(b64)
            shown_w = float(o.get("metadata", {}).get("image/png", {}).get("width", px_w))
            density = px_w / shown_w
            if density < MIN_DENSITY - 1e-9:
                problems.append(
                    f"cell {n}: figure drawn at {100 * density:.0f} dpi ({px_w} px shown at "
                    f"{shown_w:.0f} px): call ldpnb.repro.plotting.set_style() (retina)"
                )
            sizes = o.get("metadata", {}).get("image/png", {}).get(TEXT_PX_KEY) or {}
            if sizes.get("legend") is not None and sizes["legend"] < MIN_LEGEND_PX - 1e-9:
                problems.append(
                    f"cell {n}: legend text {sizes['legend']:.1f} px high at the column width "
                    f"(at least {MIN_LEGEND_PX:g} px): fewer entries, a larger font, or a legend "
                    "outside the panel grid"
                )
            if shown_w > MAX_DISPLAY_PX:
                problems.append(
                    f"cell {n}: figure {shown_w:.0f} px wide as displayed ({shown_w / 100:.1f} in): "
                    f"shrunk to the {COLUMN_PX} px column its text becomes illegible; split it or "
                    f"use plotting.column_figsize()"
                )
    return problems


@contract(
    fig=Unchecked("a matplotlib Figure", None),
    shown_px=POSITIVE,
    column_px=POSITIVE,
)
def text_px(fig, shown_px: float, column_px: float = FIGURE_COLUMN_PX) -> dict[str, float | None]:
    """The smallest legend text and the smallest text of ``fig``, in CSS px as the book shows it:
    a figure ``shown_px`` wide (the PNG's display width, ``fig.dpi`` px per inch) is shrunk to the
    ``column_px`` column when wider, so a size of ``s`` points shows at
    ``s * fig.dpi / 72 * min(1, column_px / shown_px)`` px.  None when the figure has no legend.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots(figsize=(15.6, 3), dpi=100)
    >>> _ = ax.plot([0, 1], label="a"); _ = ax.legend(fontsize=9)
    >>> round(text_px(fig, shown_px=1560, column_px=780)["legend"], 2)   # 9 pt at 100 dpi, shrunk by half
    6.25
    >>> plt.close(fig)
    """
    scale = fig.dpi / 72 * min(1.0, column_px / shown_px)
    legends = [lg for lg in [*getattr(fig, "legends", []), *(ax.get_legend() for ax in fig.axes)] if lg is not None]
    legend_texts = [t for lg in legends if lg.get_visible() for t in [*lg.get_texts(), lg.get_title()]]
    texts = [t for t in fig.findobj(lambda a: hasattr(a, "get_fontsize") and hasattr(a, "get_text"))]

    def smallest(ts):
        sizes = [t.get_fontsize() for t in ts if t.get_visible() and str(t.get_text()).strip()]
        return round(min(sizes) * scale, 2) if sizes else None

    return {"legend": smallest(legend_texts), "text": smallest(texts)}


@contract(shell=Unchecked("an IPython shell, or None for the running one", None))
def install_text_probe(shell=None) -> bool:
    """Record :func:`text_px` with every matplotlib figure the kernel shows as a PNG (in the PNG's
    output metadata, under :data:`TEXT_PX_KEY`); called by :func:`ldpnb.repro.plotting.set_style`.
    Returns False outside an IPython kernel."""
    try:
        from IPython import get_ipython  # noqa: PLC0415 lazy: IPython exists only in a kernel
        from matplotlib.figure import Figure  # noqa: PLC0415 lazy: matplotlib loads with the style
    except ImportError:  # pragma: no cover
        return False
    shell = shell or get_ipython()
    if shell is None or not hasattr(shell, "display_formatter"):
        return False
    fmt = shell.display_formatter.formatters["image/png"]
    try:
        orig = fmt.lookup_by_type(Figure)
    except KeyError:
        return False
    if getattr(orig, "_ldpnb_probe", False):
        return True

    def probed(fig, *args, **kwargs):
        out = orig(fig, *args, **kwargs)
        if out is None:
            return out
        data, md = out if isinstance(out, tuple) else (out, {})
        md = dict(md or {})
        shown = float(md.get("width") or fig.get_figwidth() * fig.dpi)
        try:
            md[TEXT_PX_KEY] = text_px(fig, shown)
        except Exception:  # pragma: no cover - a probe must never break a figure
            return out
        return data, md

    probed._ldpnb_probe = True
    fmt.for_type(Figure, probed)
    return True


@contract(argv=Optional(Instance(list, tuple, example=None)))
def main(argv: list[str] | None = None) -> int:
    import nbformat  # noqa: PLC0415 lazy: the book extra, loaded by the build steps that need it

    bad = 0
    for path in argv if argv is not None else sys.argv[1:]:
        nb = nbformat.read(path, as_version=4)
        probs = output_problems(nb) + figure_problems(nb)
        for p in probs:
            print(f"{path}: {p}")
        bad += len(probs)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
