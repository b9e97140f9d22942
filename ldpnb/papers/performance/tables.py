"""Tables of the performance appendix: rows of the experiments as captioned pandas stylers."""

from __future__ import annotations

from typing import Sequence

from ldpnb.contracts import Instance, contract

__all__ = ["table"]


@contract(rows=Instance(list, tuple, example=[]), caption=Instance(str, example=""))
def table(rows: Sequence[dict], caption: str, *, columns: Sequence[str] | None = None, sci: Sequence[str] = ()):
    """A styled table of ``rows`` (dicts): three significant digits, columns named in ``sci`` in
    scientific notation (seconds per iteration, differences), no index, the caption above."""
    import pandas as pd

    df = pd.DataFrame(list(rows), columns=list(columns) if columns else None)
    fmt = {c: "{:.2e}" for c in sci if c in df}
    return df.style.format(precision=3, na_rep="").format(fmt, na_rep="").hide(axis="index").set_caption(caption)
