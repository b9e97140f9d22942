"""Legacy reproduction reports (first edition): rows with a status computed by the chapter.

Chapters move to :class:`ldpnb.repro.report.Report`, whose claims are declared as data with typed,
falsifiable criteria (:mod:`ldpnb.repro.claims`); this module goes once every chapter has moved.

A row records the claim, the paper's value, ours, the tolerance or criterion,

A row records the claim, the paper's value, ours, the tolerance or criterion,
a status and a note.  Statuses:

``pass``
    our result meets the criterion;
``fail``
    our result misses it (at ``book`` and ``paper`` scale the chapter's execution
    then fails, so a red report never reaches the published book);
``diverges``
    the paper's claim does not hold in our reproduction, the note says why (a
    typo, an unstated parameter, different data), and the computed check of what
    we report instead holds;
``not-evaluated``
    the claim could not be checked here (the note says why: data not public,
    smoke scale, ...).

:meth:`Report.finalize` displays the table and writes
``_build/reproduction/<chapter>.json`` (a list of objects with exactly the keys
``id, claim, paper, ours, tolerance, status, scale, note``), which the book's
summary page aggregates.
"""

from __future__ import annotations

import json
import math
import numbers
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
import numpy as np
from ldpnb.utils import check_nonnegative

__all__ = [
    "STATUSES",
    "SCALES",
    "Claim",
    "Report",
    "ReproductionFailure",
    "build_dir",
    "load_reports",
]


STATUSES = ("pass", "fail", "diverges", "not-evaluated")


SCALES = ("smoke", "book", "paper")


KEYS = ("id", "claim", "paper", "ours", "tolerance", "status", "scale", "note")


class ReproductionFailure(AssertionError):
    """Raised by :meth:`Report.finalize` when a row failed at book or paper scale."""


def build_dir() -> Path:
    """The build folder: ``$LDPNB_BUILD_DIR`` if set, else ``<repo>/_build``.

    The repository root is the first parent of the working directory holding
    ``_toc.yml`` (chapters run from ``book/`` or from the root); failing that,
    the working directory itself.
    """
    env = os.environ.get("LDPNB_BUILD_DIR")
    if env:
        return Path(env)
    here = Path.cwd().resolve()
    for d in (here, *here.parents):
        if (d / "_toc.yml").exists():
            return d / "_build"
    return here / "_build"


def _jsonable(value: Any) -> Any:
    """Numbers, strings, None, or lists of them; numpy scalars converted; NaN/inf as strings."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (numbers.Integral, np.integer)):
        return int(value)
    if isinstance(value, (numbers.Real, np.floating)):
        v = float(value)
        return v if math.isfinite(v) else str(v)
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_jsonable(v) for v in np.asarray(value, dtype=object).ravel().tolist()]
    return str(value)


def _fmt(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}" if abs(value) >= 10_000 else str(value)
    if isinstance(value, float):
        if value == 0:
            return "0"
        a = abs(value)
        if a >= 1e5 or a < 1e-3:
            return f"{value:.4g}"
        return f"{value:.6g}"
    if isinstance(value, list):
        return "[" + ", ".join(_fmt(v) for v in value) + "]"
    return str(value)


@dataclass(frozen=True)
class Claim:
    """One row of a reproduction report."""

    id: str
    claim: str
    paper: Any
    ours: Any
    tolerance: str
    status: str
    scale: str
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["paper"] = _jsonable(self.paper)
        d["ours"] = _jsonable(self.ours)
        return {k: d[k] for k in KEYS}


class Report:
    """Collect the claims of one chapter and check them.

    Parameters
    ----------
    chapter : str
        The chapter id (the file stem of ``book/<chapter>.py``); names the JSON file.
    scale : {"smoke", "book", "paper"}
        The scale the chapter runs at; stored in every row.

    Examples
    --------
    >>> r = Report("demo", scale="smoke")
    >>> r.check_close("T1", "capacity of k-RR (bits)", paper=0.5, ours=0.5000001, atol=1e-3).status
    'pass'
    """

    def __init__(self, chapter: str, scale: str) -> None:
        if not isinstance(chapter, str) or not chapter or any(c in chapter for c in "/\\ "):
            raise ValueError(f"chapter must be a non-empty file stem without spaces or slashes, got {chapter!r}")
        if scale not in SCALES:
            raise ValueError(f"scale must be one of {SCALES}, got {scale!r}")
        self.chapter = chapter
        self.scale = scale
        self.claims: list[Claim] = []

    # ------------------------------------------------------------------ rows
    def add(self, id: str, claim: str, paper: Any, ours: Any, tolerance: str, status: str, note: str = "") -> Claim:
        """Add a row with an explicit status (prefer the ``check_*`` methods, which compute it)."""
        if status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {status!r}")
        if not isinstance(id, str) or not id:
            raise ValueError("id must be a non-empty string")
        if any(c.id == id for c in self.claims):
            raise ValueError(f"duplicate claim id {id!r} in chapter {self.chapter!r}")
        if status in ("diverges", "not-evaluated") and not note:
            raise ValueError(f"a {status!r} row needs a note saying why (claim {id!r})")
        row = Claim(id, claim, _jsonable(paper), _jsonable(ours), str(tolerance), status, self.scale, note)
        self.claims.append(row)
        return row

    def check_close(
        self,
        id: str,
        claim: str,
        paper: Any,
        ours: Any,
        *,
        rtol: float = 0.0,
        atol: float = 0.0,
        note: str = "",
        expected: Any = None,
    ) -> Claim:
        """Numeric comparison: pass when ``|ours - target| <= atol + rtol * |target|``.

        ``target`` is the paper's value, or ``expected`` when the paper's printed
        number is known to be wrong (an erratum): the row is then ``diverges``
        if ours matches ``expected`` (the note must say why the paper differs)
        and ``fail`` otherwise. Works elementwise on arrays (all must match).
        """
        rtol = check_nonnegative(rtol, "rtol")  # finite: an infinite tolerance would pass any row
        atol = check_nonnegative(atol, "atol")
        target = paper if expected is None else expected
        o = np.asarray(ours, dtype=float)
        t = np.asarray(target, dtype=float)
        ok = bool(np.all(np.isfinite(o))) and bool(np.all(np.abs(o - t) <= atol + rtol * np.abs(t)))
        parts = []
        if atol:
            parts.append(f"abs {atol:g}")
        if rtol:
            parts.append(f"rel {rtol:g}")
        tol = " + ".join(parts) if parts else "exact"
        if expected is not None:
            tol += f" of corrected value {_fmt(_jsonable(expected))}"
            if not note:
                raise ValueError(f"an erratum row needs a note saying why the paper's value is wrong (claim {id!r})")
            status = "diverges" if ok else "fail"
        else:
            status = "pass" if ok else "fail"
        return self.add(id, claim, paper, ours, tol, status, note)

    def check(
        self, id: str, claim: str, paper: Any, ours: Any, passed: bool, tolerance: str, note: str = ""
    ) -> Claim:
        """Any other criterion (an ordering, a slope, zero violations); ``passed`` is computed by the caller."""
        if not isinstance(passed, (bool, np.bool_)):
            raise TypeError(f"passed must be a bool computed from the results, got {type(passed).__name__}")
        return self.add(id, claim, paper, ours, tolerance, "pass" if passed else "fail", note)

    def diverges(
        self, id: str, claim: str, paper: Any, ours: Any, tolerance: str, note: str, holds: bool
    ) -> Claim:
        """The paper's claim fails in our runs; ``holds`` checks what we report instead (else ``fail``)."""
        if not isinstance(holds, (bool, np.bool_)):
            raise TypeError(f"holds must be a bool computed from the results, got {type(holds).__name__}")
        return self.add(id, claim, paper, ours, tolerance, "diverges" if holds else "fail", note)

    def not_evaluated(self, id: str, claim: str, paper: Any, note: str, ours: Any = None) -> Claim:
        """A claim we cannot check here; ``note`` says why."""
        return self.add(id, claim, paper, ours, "—", "not-evaluated", note)

    # ------------------------------------------------------------- outputs
    def rows(self) -> list[dict[str, Any]]:
        return [c.as_dict() for c in self.claims]

    def to_frame(self):
        """The report as a :class:`pandas.DataFrame` (one row per claim)."""
        import pandas as pd

        return pd.DataFrame(self.rows(), columns=list(KEYS))

    def counts(self) -> dict[str, int]:
        return {s: sum(c.status == s for c in self.claims) for s in STATUSES}

    def failures(self) -> list[Claim]:
        return [c for c in self.claims if c.status == "fail"]

    def save(self, path: str | os.PathLike | None = None) -> Path:
        """Write the rows as JSON to ``path`` (default ``<build>/reproduction/<chapter>.json``)."""
        p = Path(path) if path is not None else build_dir() / "reproduction" / f"{self.chapter}.json"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(json.dumps(self.rows(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        return p

    def to_html(self) -> str:
        """An HTML table, rows coloured by status, diverging rows highlighted."""
        colours = {"pass": "#e6f4ea", "fail": "#fde2e1", "diverges": "#fff4ce", "not-evaluated": "#eeeeee"}
        import html

        head = "".join(f"<th>{h}</th>" for h in ("id", "claim", "paper", "ours", "tolerance", "status", "note"))
        body = []
        for c in self.claims:
            cells = [c.id, c.claim, _fmt(_jsonable(c.paper)), _fmt(_jsonable(c.ours)), c.tolerance, c.status, c.note]
            tds = "".join(f"<td>{html.escape(str(v))}</td>" for v in cells)
            body.append(f'<tr style="background:{colours[c.status]}">{tds}</tr>')
        n = self.counts()
        summary = ", ".join(f"{v} {k}" for k, v in n.items())
        return (
            f"<p><b>Reproduction report</b> ({self.chapter}, scale <code>{self.scale}</code>): {summary}.</p>"
            f'<table class="reproduction-report"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'
        )

    def _repr_html_(self) -> str:
        return self.to_html()

    def __repr__(self) -> str:
        return f"Report({self.chapter!r}, scale={self.scale!r}, {self.counts()})"

    def finalize(self, display: bool = True) -> "Report":
        """Display the table, save the JSON, and raise at book/paper scale if a row failed.

        At ``smoke`` scale failures are shown but do not raise: smoke runs use
        sizes too small for the statistical claims, and its tests check execution.
        """
        if not self.claims:
            raise ReproductionFailure(f"chapter {self.chapter!r} has an empty reproduction report")
        self.save()
        if display:
            try:
                from IPython.display import HTML
                from IPython.display import display as _display

                _display(HTML(self.to_html()))
            except ImportError:  # pragma: no cover
                print(self.to_frame().to_string())
        failed = self.failures()
        if failed and self.scale in ("book", "paper"):
            ids = ", ".join(c.id for c in failed)
            raise ReproductionFailure(f"{len(failed)} claim(s) failed in chapter {self.chapter!r} at scale {self.scale!r}: {ids}")
        return self


def load_reports(directory: str | os.PathLike | None = None) -> "dict[str, list[dict[str, Any]]]":
    """Read every ``<chapter>.json`` of the reproduction folder, validating the keys and statuses."""
    d = Path(directory) if directory is not None else build_dir() / "reproduction"
    out: dict[str, list[dict[str, Any]]] = {}
    for p in sorted(d.glob("*.json")):
        rows = json.loads(p.read_text(encoding="utf-8"))
        if not isinstance(rows, list):
            raise ValueError(f"{p}: expected a list of rows")
        for r in rows:
            if set(r) != set(KEYS):
                raise ValueError(f"{p}: row keys {sorted(r)} differ from {sorted(KEYS)}")
            if r["status"] not in STATUSES:
                raise ValueError(f"{p}: unknown status {r['status']!r}")
        out[p.stem] = rows
    return out
