"""Tables of the performance appendix: rows of the experiments as captioned, formatted HTML tables."""

from __future__ import annotations

import html
import math
import numbers
from typing import Any, Sequence

from ldpnb.contracts import Boolean, Instance, Optional, Real, Unchecked, contract

__all__ = ["table", "fmt_seconds", "fmt_cell", "header"]


@contract(x=Real())
def fmt_seconds(x: float) -> str:
    """A duration with its unit, three significant digits: ``0.0568`` -> ``"56.8 ms"``.

    >>> fmt_seconds(0.0568), fmt_seconds(2.5e-6), fmt_seconds(12.0)
    ('56.8 ms', '2.5 µs', '12 s')
    """
    a = abs(x)
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if a >= scale:
            return f"{x / scale:.3g} {unit}"
    return f"{x / 1e-9:.3g} ns" if a > 0 else "0 s"


@contract(value=Unchecked("a cell value (any object)", example=1.0), seconds=Boolean(), sci=Boolean())
def fmt_cell(value: Any, *, seconds: bool = False, sci: bool = False) -> str:
    """One cell: ✓/✗ for a boolean, thousands separators for an integer, three significant digits for
    a float (a duration with its unit when ``seconds``; ``1.2e-15`` style when ``sci``), blank for
    a missing value."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return "✓" if value else "✗"
    if isinstance(value, numbers.Integral):
        return f"{int(value):,}"
    if isinstance(value, numbers.Real):
        v = float(value)
        if not math.isfinite(v):
            return str(v)
        if seconds:
            return fmt_seconds(v)
        if sci:
            return "0" if v == 0 else f"{v:.2g}"
        return f"{v:,.3g}" if abs(v) < 1e6 else f"{v:.3g}"
    return str(value)


@contract(name=Instance(str, example="eps"), seconds=Boolean())
def header(name: str, *, seconds: bool = False) -> str:
    """A column name for the reader: ``"plain_iters"`` -> ``"plain iters"``, ``"eps"`` -> ``"ε"``,
    and for a duration ``"ours_iter"`` -> ``"ours per iteration"``, ``"squarem_s"`` -> ``"squarem"``
    (the cells carry the unit).

    >>> header("plain_iters"), header("ours_iter", seconds=True), header("squarem_s", seconds=True)
    ('plain iters', 'ours per iteration', 'squarem')
    """
    text = {"eps": "ε"}.get(name, name.replace("_", " "))
    if seconds:
        text = text[:-2] if text.endswith(" s") else text
        text = text[:-5] + " per iteration" if text.endswith(" iter") else text
        text = text.replace(" setup", " set-up")
    return text


@contract(
    rows=Instance(list, tuple, example=[]),
    caption=Instance(str, example=""),
    columns=Optional(Instance(list, tuple, example=[])),
    sci=Instance(list, tuple, set, frozenset, example=()),
)
def table(rows: Sequence[dict], caption: str, *, columns: Sequence[str] | None = None, sci: Sequence[str] = ()):
    """A formatted table of ``rows`` (dicts), as HTML for a notebook: the caption above, left-aligned;
    durations (the columns named in ``sci``, except differences) with their unit ("56.8 ms");
    differences (``*diff*`` columns) as ``1.2e-15``; other numbers to three significant digits,
    right-aligned; booleans as ✓/✗; no index.  Styled by ``book/_static/ldpnb.css``
    (``table.ldpnb-table``) and wrapped in a box that scrolls sideways when the table is wider than
    the column."""
    from IPython.display import HTML  # noqa: PLC0415 lazy: a table is shown in a notebook only

    rows = [dict(r) for r in rows]
    cols = list(columns) if columns else list(dict.fromkeys(k for r in rows for k in r))
    diff = {c for c in cols if "diff" in c}
    secs = {c for c in sci if c in cols and c not in diff}
    numeric = {c for c in cols if any(isinstance(r.get(c), numbers.Number) for r in rows)}
    head = "".join(
        f'<th class="{"num" if c in numeric else "txt"}" title="{html.escape(c)}">'
        f"{html.escape(header(c, seconds=c in secs))}</th>"
        for c in cols
    )
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="{"num" if c in numeric else "txt"}">'
            f"{html.escape(fmt_cell(r.get(c), seconds=c in secs, sci=c in diff))}</td>"
            for c in cols
        )
        + "</tr>"
        for r in rows
    )
    return HTML(
        f'<div class="ldpnb-scroll"><table class="ldpnb-table"><caption>{html.escape(caption)}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"
    )
