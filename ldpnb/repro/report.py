r"""The reproduction report of a chapter: the claims of its paper, checked against our numbers.

Usage in a chapter::

    from ldpnb.papers.pie import CLAIMS
    from ldpnb.repro import Report

    report = Report("pie", CLAIMS, scale=SCALE)
    report.close("T3", pie_nats)                     # kind and criterion come from CLAIMS["T3"]
    report.order("F9a", {"IBU": e_ibu, "INV-N": e_invn})
    report.monotone("F10", losses)
    report.holds("T12", violations=v, instances=n)
    ...
    report.finalize()

Every row records the claim (text, source, where, the paper's printed value or our reference), our
numbers, the criterion and its parameters, the status, and a **falsifier**: deciding numbers for
which the status would be ``fail`` (see :mod:`ldpnb.repro.claims`).  :meth:`Report.finalize` writes
``_build/reproduction/<chapter>.json`` (byte-identical for a fixed seed: no timings in it), writes the
measured timings to ``_build/reproduction/<chapter>.timings.json``, displays the table once, glues
the chapter's status line (``{glue:md}`<chapter>-status``` under the chapter title), and raises at
book and paper scale if a row failed.
"""

from __future__ import annotations

import html
import json
import math
import numbers as _numbers
import os
import re
from pathlib import Path
from typing import Any, Mapping


from ldpnb.repro.claims import (
    SCALES,
    CriterionError,
    Claim,
    _plain,
    describe,
    falsify,
    row_status,
)

__all__ = ["Report", "ReproductionFailure", "STATUSES", "KEYS", "build_dir", "load_reports", "load_timings"]

STATUSES = ("pass", "fail", "diverges", "not-evaluated")
KEYS = ("id", "claim", "paper", "ours", "tolerance", "status", "scale", "note", "source", "where", "kind",
        "atol", "rtol", "falsifier", "reference", "criterion", "numbers", "expect")




class ReproductionFailure(AssertionError):
    """Raised by :meth:`Report.finalize` when a row failed at book or paper scale."""


def build_dir() -> Path:
    """The build folder: ``$LDPNB_BUILD_DIR`` if set, else ``<repo>/_build``.

    The repository root is the first parent of the working directory holding ``_toc.yml``
    (chapters run from ``book/`` or from the root); failing that, the working directory itself.
    """
    env = os.environ.get("LDPNB_BUILD_DIR")
    if env:
        return Path(env)
    here = Path.cwd().resolve()
    for d in (here, *here.parents):
        if (d / "_toc.yml").exists():
            return d / "_build"
    return here / "_build"


def fmt(value: Any) -> str:
    """Compact display of a number, list or string."""
    value = _plain(value)
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}" if abs(value) >= 10_000 else str(value)
    if isinstance(value, float):
        if value == 0:
            return "0"
        a = abs(value)
        return f"{value:.4g}" if (a >= 1e5 or a < 1e-3) else f"{value:.6g}"
    if isinstance(value, list):
        if len(value) > 8:
            return "[" + ", ".join(fmt(v) for v in value[:4]) + f", … ({len(value)} values)]"
        return "[" + ", ".join(fmt(v) for v in value) + "]"
    if isinstance(value, dict):
        return "; ".join(f"{k} = {fmt(v)}" for k, v in value.items())
    return str(value)


_MATH = re.compile(r"\$([^$]+)\$")


def _html_text(s: str) -> str:
    """Escape, and turn ``$...$`` into MathJax's ``\\(...\\)``."""
    out, pos = [], 0
    for m in _MATH.finditer(s or ""):
        out.append(html.escape(s[pos:m.start()]))
        out.append(r"\(" + html.escape(m.group(1)) + r"\)")
        pos = m.end()
    out.append(html.escape((s or "")[pos:]))
    return "".join(out)


class Report:
    """The claims of one chapter, checked against the numbers the chapter measures.

    Parameters
    ----------
    chapter : str
        The chapter id (file stem of ``book/<chapter>.py``): names the JSON files and the anchors.
    claims : mapping of id -> :class:`~ldpnb.repro.claims.Claim`
        The paper's claims as data (``ldpnb.papers.<paper>.CLAIMS``).
    scale : {"smoke", "book", "paper"}
    seed : int, optional
        The chapter's ``SEED`` (shown with the report, so that a reader can rerun the same numbers).
    """

    def __init__(self, chapter: str, claims: Mapping[str, Claim], scale: str, *, seed: int | None = None) -> None:
        if not isinstance(chapter, str) or not re.fullmatch(r"[A-Za-z0-9_\-]+", chapter or ""):
            raise ValueError(f"chapter must be a file stem (letters, digits, _ -), got {chapter!r}")
        if scale not in SCALES:
            raise ValueError(f"scale must be one of {SCALES}, got {scale!r}")
        if not isinstance(claims, Mapping) or not claims or not all(isinstance(s, Claim) for s in claims.values()):
            raise TypeError("claims must be a non-empty mapping of id -> Claim (a paper's CLAIMS table)")
        self.chapter = chapter
        self.scale = scale
        self.seed = seed
        self.claims = dict(claims)
        self.rows: dict[str, dict[str, Any]] = {}
        self.timings: dict[str, Any] = {}
        self._volatile: dict[str, dict[str, Any]] = {}
        self._finalized = False

    # ------------------------------------------------------------------ recording
    def _declared(self, id: str, kind: str | None) -> Claim:
        if id not in self.claims:
            raise KeyError(f"claim {id!r} is not declared in the paper's claims table ({self.chapter})")
        if id in self.rows:
            raise ValueError(f"claim {id!r} recorded twice in chapter {self.chapter!r}")
        s = self.claims[id]
        if kind is not None and s.kind != kind:
            raise TypeError(f"claim {id!r} is declared as kind {s.kind!r}, not {kind!r}")
        return s

    def _record(self, s: Claim, numbers: dict[str, Any], ours: Any, note: str) -> None:
        crit = s.full_criterion(self.scale)
        plain = _plain(numbers)
        status = row_status(s.kind, crit, plain, s.expect)
        try:
            fals = falsify(s.kind, crit, plain, s.expect)
        except CriterionError as e:
            raise CriterionError(f"claim {s.id!r} ({self.chapter}): {e}") from None
        notes = " ".join(x for x in (s.note.strip(), (note or "").strip()) if x)
        row = {
            "id": s.id, "claim": s.claim,
            "paper": _plain(s.paper.value) if s.paper is not None else None,
            "ours": _plain(ours), "tolerance": describe(s, self.scale), "status": status, "scale": self.scale,
            "note": notes, "source": s.source, "where": s.where_text, "kind": s.kind,
            "atol": crit.get("atol"), "rtol": crit.get("rtol"), "falsifier": fals,
            "reference": _plain(s.reference), "criterion": crit, "numbers": plain, "expect": s.expect,
        }
        if s.volatile:  # measurements that change from run to run live in the timings file
            self._volatile[s.id] = {k: row[k] for k in ("ours", "numbers", "falsifier", "status")}
            row.update(ours=None, numbers=None, falsifier=None,
                       note=(notes + " " if notes else "") + "(Timing claim: the measured numbers are in the "
                                                          "chapter's timings file.)")
        self.rows[s.id] = row

    def close(self, id: str, ours: Any, *, se: Any = None, note: str = "") -> None:
        """``|ours - target| <= atol + rtol |target| (+ z se)`` as declared for claim ``id``."""
        s = self._declared(id, "close")
        nums = {"ours": ours} if se is None else {"ours": ours, "se": se}
        self._record(s, nums, ours, note)

    def range(self, id: str, ours: Any, *, note: str = "") -> None:
        """``lower <= ours <= upper`` as declared for claim ``id``."""
        s = self._declared(id, "range")
        self._record(s, {"ours": ours}, ours, note)

    def order(self, id: str, values: Mapping[str, Any], *, note: str = "") -> None:
        """The declared relation between named quantities, e.g. ``{"IBU": 0.17, "INV-N": 0.78}``."""
        s = self._declared(id, "order")
        if not isinstance(values, Mapping):
            raise TypeError(f"claim {id!r}: values must be a mapping of name -> number(s)")
        self._record(s, {"values": dict(values)}, dict(values), note)

    def monotone(self, id: str, ys: Any, *, xs: Any = None, note: str = "") -> None:
        """``ys`` (ordered by ``xs``) increasing or decreasing as declared."""
        s = self._declared(id, "monotone")
        nums = {"ys": ys} if xs is None else {"ys": ys, "xs": xs}
        self._record(s, nums, ys, note)

    def holds(self, id: str, *, note: str = "", **numbers: Any) -> None:
        """The declared rule evaluated on ``numbers`` (e.g. ``violations=0, instances=300``)."""
        s = self._declared(id, "holds")
        self._record(s, dict(numbers), dict(numbers), note)

    def not_evaluated(self, id: str, *, note: str = "") -> None:
        """A claim declared ``expect='not-evaluated'`` (the declaration says why)."""
        s = self._declared(id, None)
        if s.expect != "not-evaluated":
            raise ValueError(f"claim {id!r} is declared with a criterion; record its numbers instead")
        self._not_evaluated(s, note)

    def _not_evaluated(self, s: Claim, note: str) -> None:
        self.rows[s.id] = {
            "id": s.id, "claim": s.claim, "paper": _plain(s.paper.value) if s.paper is not None else None,
            "ours": None, "tolerance": "—", "status": "not-evaluated", "scale": self.scale,
            "note": " ".join(x for x in (s.note.strip(), note.strip()) if x), "source": s.source,
            "where": s.where_text, "kind": s.kind, "atol": None, "rtol": None, "falsifier": None,
            "reference": _plain(s.reference), "criterion": None, "numbers": None, "expect": s.expect,
        }

    def timing(self, name: str, seconds: float) -> None:
        """Record a measured duration (seconds); timings never enter the claims JSON."""
        if not isinstance(seconds, _numbers.Real) or not math.isfinite(seconds) or seconds < 0:
            raise ValueError(f"seconds must be a finite number >= 0, got {seconds!r}")
        self.timings[str(name)] = round(float(seconds), 4)

    # ------------------------------------------------------------------ outputs
    def ordered_rows(self) -> list[dict[str, Any]]:
        """Rows in the order of the claims table."""
        return [self.rows[i] for i in self.claims if i in self.rows]

    def counts(self) -> dict[str, int]:
        rows = self.ordered_rows()
        return {s: sum(r["status"] == s for r in rows) for s in STATUSES}

    def status_markdown(self) -> str:
        n = self.counts()
        rows = self.ordered_rows()
        total = len(rows)
        parts = [f"{n['pass']} pass"]
        if n["diverges"]:
            parts.append(f"{n['diverges']} diverge")
        if n["not-evaluated"]:
            parts.append(f"{n['not-evaluated']} not evaluated")
        if n["fail"]:
            parts.append(f"**{n['fail']} fail**")
        by_source = {}
        for r in rows:
            by_source[r["source"]] = by_source.get(r["source"], 0) + 1
        src = ", ".join(f"{v} {k}" for k, v in by_source.items())
        links = [f"[{r['id']}](#claim-{self.chapter}-{r['id']})" for r in rows if r["status"] != "pass"]
        text = (f"**Reproduction status** (scale `{self.scale}`): {total} claims: {', '.join(parts)} "
                f"([report](#report-{self.chapter})). Sources: {src}.")
        if links:
            text += " Rows that do not simply pass: " + ", ".join(links) + "."
        return text

    def save(self, directory: str | os.PathLike | None = None) -> Path:
        d = Path(directory) if directory is not None else build_dir() / "reproduction"
        d.mkdir(parents=True, exist_ok=True)
        p = d / f"{self.chapter}.json"
        rows = [{k: r[k] for k in KEYS} for r in self.ordered_rows()]
        p.write_text(json.dumps(rows, indent=1, ensure_ascii=False, sort_keys=False, allow_nan=False) + "\n",
                     encoding="utf-8")
        t = d / f"{self.chapter}.timings.json"
        if self.timings or self._volatile:
            t.write_text(json.dumps({"chapter": self.chapter, "scale": self.scale, "timings": self.timings,
                                     "claims": self._volatile}, indent=1, allow_nan=False) + "\n", encoding="utf-8")
        elif t.exists():
            t.unlink()
        return p

    def to_html(self) -> str:
        badge = {"pass": "pass", "fail": "FAIL", "diverges": "diverges", "not-evaluated": "not evaluated"}
        head = "".join(f"<th>{h}</th>" for h in ("claim", "paper / reference", "ours", "criterion", "status"))
        body = []
        for r in self.ordered_rows():
            ref = r["paper"] if r["source"] == "paper" else r["reference"]
            ref_txt = fmt(ref) if ref is not None else "—"
            where = f'<div class="claim-where">{html.escape(r["source"])} · {_html_text(r["where"])}</div>'
            note = r["note"] or ""
            if len(note) > 140:
                note_html = f"<details><summary>note</summary>{_html_text(note)}</details>"
            elif note:
                note_html = f'<div class="claim-note">{_html_text(note)}</div>'
            else:
                note_html = ""
            cells = (
                f'<td><a class="claim-id" href="#claim-{self.chapter}-{r["id"]}">{html.escape(r["id"])}</a> '
                f'{_html_text(r["claim"])}{where}{note_html}</td>'
                f"<td>{_html_text(ref_txt)}</td><td>{html.escape(fmt(r['ours']))}</td>"
                f"<td>{_html_text(r['tolerance'])}</td>"
                f'<td><span class="claim-status status-{r["status"]}">{badge[r["status"]]}</span></td>'
            )
            body.append(f'<tr id="claim-{self.chapter}-{r["id"]}" class="status-{r["status"]}">{cells}</tr>')
        return (f'<div class="reproduction-report-wrap mathjax_process" id="report-{self.chapter}">'
                f"<p>{self._status_html()}</p>"
                f'<table class="reproduction-report"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>')

    def _status_html(self) -> str:
        n = self.counts()
        seed = f", <code>SEED = {self.seed}</code>" if self.seed is not None else ""
        return (f"<b>Reproduction report</b> ({html.escape(self.chapter)}, scale <code>{self.scale}</code>{seed}): "
                + ", ".join(f"{v} {k}" for k, v in n.items() if v) + ".")

    def finalize(self) -> None:
        """Fill in undeclared rows, save, show the table once, glue the status line; raise on failures
        (at book and paper scale; a failed timing row, ``volatile=True``, is shown but does not raise).

        A declared claim the chapter did not record is ``not-evaluated`` if so declared (or if it is not
        evaluated at this scale), and an error otherwise: every declared claim must appear.
        """
        missing = []
        for s in self.claims.values():
            if s.id in self.rows:
                continue
            if s.expect == "not-evaluated":
                self._not_evaluated(s, "")
            elif self.scale not in s.scales:
                self._not_evaluated(s, f"Evaluated at {' and '.join(x for x in s.scales)} scale only.")
            else:
                missing.append(s.id)
        if missing:
            raise ReproductionFailure(f"chapter {self.chapter!r}: declared claims never recorded: {missing}")
        self.save()
        try:
            from IPython.display import HTML, Markdown, display

            display(HTML(self.to_html()))
            try:
                from myst_nb import glue

                glue(f"{self.chapter}-status", Markdown(self.status_markdown()), display=False)
            except ImportError:  # pragma: no cover - myst-nb is installed with the book extra
                pass
        except ImportError:  # pragma: no cover
            print(self.status_markdown())
        self._finalized = True
        # A timing claim (volatile) is measured on whatever machine runs the build, shared or not: its
        # failure is shown in the report and the status line, but does not stop the build.
        failed = [r["id"] for r in self.ordered_rows() if r["status"] == "fail" and r["id"] not in self._volatile]
        if failed and self.scale in ("book", "paper"):
            raise ReproductionFailure(f"{len(failed)} claim(s) failed in chapter {self.chapter!r} at scale "
                                      f"{self.scale!r}: {', '.join(failed)}")

    def __repr__(self) -> str:
        return f"Report({self.chapter!r}, scale={self.scale!r}, {self.counts()})"


def load_reports(directory: str | os.PathLike | None = None) -> dict[str, list[dict[str, Any]]]:
    """Every ``<chapter>.json`` of the reproduction folder, with the volatile numbers merged back."""
    d = Path(directory) if directory is not None else build_dir() / "reproduction"
    out: dict[str, list[dict[str, Any]]] = {}
    for p in sorted(d.glob("*.json")):
        if p.name.endswith(".timings.json"):
            continue
        rows = json.loads(p.read_text(encoding="utf-8"))
        if not isinstance(rows, list):
            raise ValueError(f"{p}: expected a list of rows")
        vol = load_timings(d).get(p.stem, {}).get("claims", {})
        for r in rows:
            if set(r) != set(KEYS):
                raise ValueError(f"{p}: row keys {sorted(r)} differ from {sorted(KEYS)}")
            if r["status"] not in STATUSES:
                raise ValueError(f"{p}: unknown status {r['status']!r}")
            if r["id"] in vol:
                r.update(vol[r["id"]])
        out[p.stem] = rows
    return out


def load_timings(directory: str | os.PathLike | None = None) -> dict[str, dict[str, Any]]:
    d = Path(directory) if directory is not None else build_dir() / "reproduction"
    return {p.name[: -len(".timings.json")]: json.loads(p.read_text(encoding="utf-8"))
            for p in sorted(d.glob("*.timings.json"))}
