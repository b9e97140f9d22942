"""The claims dashboard: every claim of the book in one table, its totals, and its downloads.

Used by ``book/reproduction.py`` (the dashboard page) and by the build (the totals on the landing
page).  Reads the reports the chapters wrote to ``_build/reproduction/`` and, when present, the
recorded paper-scale runs in ``results/paper/<chapter>.json``.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pandas as pd

from ldpnb.contracts import Instance, OneOf, Optional, contract
from ldpnb.repro.report import (
    FLAGS,
    STATUSES,
    _html_text,
    _plain_math,
    _shown,
    badge_html,
    build_dir,
    divergence_kind,
    first_sentence,
    fmt,
    fmt_ours,
    load_reports,
)
from ldpnb.repro.toc import ROOT, toc_files

__all__ = [
    "chapter_order",
    "claims_frame",
    "flagged",
    "summary_tables",
    "write_downloads",
    "interactive_table",
    "totals_markdown",
    "errata_html",
    "landing_substitutions",
    "paper_scale_records",
    "paper_runs_table",
    "paper_figures_html",
    "FLAGS",
    "DEFAULT_COLUMNS",
    "PRESETS",
]

SOURCES_ORDER = ("paper", "derived", "calibration", "extension", "invariant")

_CLAIMS = Instance(pd.DataFrame, example=pd.DataFrame())
_ROOT = Instance(Path, example=ROOT)
#: A folder of chapter reports (None: this build's ``_build/reproduction``).
_FOLDER = Optional(Instance(str, Path, example=None))


@contract()
def chapter_order() -> list[str]:
    """Chapters in the order of ``_toc.yml``."""
    try:
        return [Path(f).name for f in toc_files(ROOT)]
    except Exception:  # pragma: no cover - a notebook downloaded alone has no toc
        return []


@contract(root=_ROOT)
def paper_scale_records(root: Path = ROOT) -> dict[str, dict[str, Any]]:
    """The recorded paper-scale runs: ``results/paper/<chapter>.json`` (rows + run metadata).

    A record that is not a JSON object (truncated, not UTF-8, a list) is refused with a ``ValueError``
    naming the file, not read as an empty run."""
    out = {}
    for p in sorted((root / "results" / "paper").glob("*.json")):
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"{p} is not a paper-scale record (not readable JSON: {exc})") from None
        if not isinstance(data, dict):
            raise ValueError(f"{p} is not a paper-scale record (a JSON object), got {type(data).__name__}")
        out[p.stem] = data
    return out


@contract(claims=_CLAIMS, records=Optional(Instance(dict, example={})))
def paper_runs_table(claims: pd.DataFrame, records: dict[str, dict[str, Any]] | None = None) -> pd.DataFrame:
    """One row per chapter: its recorded paper-scale run (commit, start, machine, wall minutes, CPU minutes of
    the kernel and its workers when recorded, its *reference units*, worker processes, peak memory, statuses)
    and whether its claim ids still match the chapter's book-scale report (``claims``, from
    :func:`claims_frame`). A chapter's reference units are its CPU seconds over the CPU seconds of a fixed
    reference workload timed in the same run (``cpu_reference_units``): comparable across the machines and
    loads the records were made at, unlike their seconds. The last row sums the reference units only (the
    serial cost of the whole book at paper scale): wall minutes of runs made at varying load, and CPU
    minutes of different machines, are not summed."""
    records = paper_scale_records() if records is None else records
    chapters = list(dict.fromkeys(claims["chapter"])) if not claims.empty else []
    chapters += [c for c in records if c not in chapters]
    rows = []
    for ch in chapters:
        rec = records.get(ch)
        if rec is None:
            rows.append(
                {
                    "chapter": ch,
                    "commit": "not run",
                    "started": "",
                    "machine": "",
                    "minutes": float("nan"),
                    "CPU minutes": float("nan"),
                    "reference units": float("nan"),
                    "processes": "",
                    "peak MB": float("nan"),
                    "statuses": "",
                    "claim ids": "",
                }
            )
            continue
        ids = {r["id"] for r in rec.get("rows", [])}
        book = set(claims.loc[claims["chapter"] == ch, "id"]) if not claims.empty else set()
        match = "no book report" if not book else ("match" if ids == book else f"stale ({len(ids ^ book)} differ)")
        rows.append(
            {
                "chapter": ch,
                "commit": str(rec.get("commit", ""))[:8],
                "started": str(rec.get("started", ""))[:16].replace("T", " "),
                "machine": str((rec.get("machine") or {}).get("cpu", "")),
                "minutes": round(float(rec.get("duration_s", float("nan"))) / 60, 1),
                "CPU minutes": round(float(rec["cpu_s"]) / 60, 1) if rec.get("cpu_s") is not None else float("nan"),
                "reference units": (
                    round(float(rec["cpu_reference_units"]))
                    if rec.get("cpu_s") is not None and rec.get("cpu_reference_units") is not None
                    else float("nan")
                ),
                "processes": str(rec.get("n_jobs", "")),
                "peak MB": round(float(rec.get("peak_rss_mb", float("nan")))),
                "statuses": ", ".join(f"{k} {v}" for k, v in rec.get("counts", {}).items()),
                "claim ids": match,
            }
        )
    out = pd.DataFrame(
        rows,
        columns=[
            "chapter",
            "commit",
            "started",
            "machine",
            "minutes",
            "CPU minutes",
            "reference units",
            "processes",
            "peak MB",
            "statuses",
            "claim ids",
        ],
    )
    total = {
        "chapter": "all (serial sum)",
        "commit": "",
        "started": "",
        "machine": "",
        "minutes": float("nan"),
        "CPU minutes": float("nan"),
        "reference units": round(out["reference units"].sum()),
        "processes": "",
        "peak MB": out["peak MB"].max(),
        "statuses": "",
        "claim ids": "",
    }
    return pd.concat([out, pd.DataFrame([total])], ignore_index=True)


def plain_math(text: str) -> str:
    """Inline TeX (``$...$``) as readable plain text, for captions shown outside the book's math
    rendering: ``$\\beta_{U|S} \\le 1$`` -> ``β_U|S ≤ 1``."""
    return _plain_math(text)


def _numbered_chapters(root: Path = ROOT) -> dict[str, int]:
    """The chapters of the numbered parts of ``_toc.yml`` and their numbers (1, 2, ...)."""
    import yaml  # noqa: PLC0415 lazy: pyyaml comes with the book extra

    try:
        toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    except OSError:  # pragma: no cover - a notebook downloaded alone has no toc
        return {}
    names = [
        Path(c["file"]).name
        for part in toc.get("parts", [])
        if part.get("numbered")
        for c in part.get("chapters", [])
        if "file" in c
    ]
    return {n: i for i, n in enumerate(names, 1)}


@contract(root=_ROOT)
def paper_figures_html(root: Path = ROOT) -> str:
    """The recorded paper-scale figures (``results/paper/figures/<chapter>/``, written by
    :func:`ldpnb.repro.paperscale.export_figures`) as HTML: one collapsed block per chapter, with the
    record's commit, date and duration, each figure embedded with its caption and a link to the
    book-scale figure in the chapter."""
    import base64  # noqa: PLC0415 lazy: loaded at first use

    records = paper_scale_records(root)
    order = chapter_order()
    base = root / "results" / "paper" / "figures"
    chapters = sorted(
        (p.parent.name for p in base.glob("*/index.json")),
        key=lambda c: (order.index(c) if c in order else len(order), c),
    )
    numbered = _numbered_chapters(root)
    unnumbered_count = 0
    parts = []
    for ch in chapters:
        index = json.loads((base / ch / "index.json").read_text(encoding="utf-8"))
        # numbered as the book numbers the chapter's figures (index.json keeps the chapter's order):
        # "Figure 3.2" in a numbered chapter, one running count over the unnumbered pages
        if ch in numbered:
            number = [f"{numbered[ch]}.{i}" for i in range(1, len(index["figures"]) + 1)]
        else:
            number = [str(unnumbered_count + i) for i in range(1, len(index["figures"]) + 1)]
            unnumbered_count += len(index["figures"])
        rec = records.get(ch, {})
        prov = (
            f"recorded at commit {html.escape(str(rec.get('commit', '?'))[:8])} on "
            f"{html.escape(str(rec.get('started', '?'))[:10])}, {float(rec.get('duration_s', 0)) / 60:.3g} min"
            if rec
            else "no record"
        )
        figs = []
        for i, f in enumerate(index["figures"]):
            png = base / ch / f"{f['name']}.png"
            if not png.exists():
                continue
            data = base64.b64encode(png.read_bytes()).decode("ascii")
            cap = html.escape(plain_math(f["caption"]))
            figs.append(
                f'<figure class="paper-scale-figure"><img src="data:image/png;base64,{data}" '
                f'alt="{html.escape(f["name"])} at paper scale" style="max-width:100%">'
                f'<figcaption><span class="caption-number">Figure {number[i]}. </span>{cap} '
                f'<a href="{ch}.html#{html.escape(f["label"])}">Book-scale figure</a>.</figcaption></figure>'
            )
        parts.append(
            f"<details><summary><b>{html.escape(ch)}</b>: {len(figs)} figure(s), {prov}</summary>"
            + "".join(figs)
            + "</details>"
        )
    return "".join(parts) or "<p>No paper-scale figures recorded.</p>"


_NP_REPR = re.compile(r"\bnp\.(?:float|int|uint|bool|str_)\w*\(([^()]*)\)")


def clean_text(value: Any) -> Any:
    """Strip numpy scalar reprs (``np.int64(3)`` -> ``3``) from the strings of older reports."""
    if isinstance(value, str):
        return _NP_REPR.sub(r"\1", value)
    return value


@contract(directory=_FOLDER)
def claims_frame(directory: str | Path | None = None) -> pd.DataFrame:
    """One row per claim of every chapter, in toc order, with a link to the row in its chapter."""
    reports = load_reports(directory)
    order = chapter_order()
    names = sorted(reports, key=lambda n: (order.index(n) if n in order else len(order), n))
    paper_runs = paper_scale_records()
    rows = []
    for ch in names:
        recorded = paper_runs.get(ch, {})
        rec_status = {r["id"]: r["status"] for r in recorded.get("rows", [])}
        ids = {r["id"] for r in reports[ch]}
        stale = bool(rec_status) and set(rec_status) != ids
        for r in reports[ch]:
            ref = r["paper"] if r["source"] == "paper" else r.get("reference")
            if not recorded:
                paper_status = "not run"
            elif r["id"] not in rec_status:
                paper_status = "no record (stale run)"
            else:
                paper_status = rec_status[r["id"]] + (" (stale run)" if stale else "")
            pw = r.get("power") or {}
            rtd = r.get("runs_to_decide") or {}
            rows.append(
                {
                    "chapter": ch,
                    "id": r["id"],
                    "claim": r["claim"],
                    "source": r["source"],
                    "where": r["where"],
                    "kind": r["kind"],
                    "paper / reference": fmt(ref),
                    "ours": fmt_ours(r),
                    "criterion": r["tolerance"],
                    "status": r["status"],
                    "paper-scale status": paper_status,
                    "flags": "; ".join(r.get("flags") or []),
                    "P(pass | falsifier)": f"{pw['pass_probability']:.2g}" if pw else "",
                    "runs to decide": (
                        "not by more runs"
                        if rtd.get("not_by_runs")
                        else rtd.get("runs")
                        if rtd.get("runs") is not None
                        else ""
                    ),
                    "scale": r["scale"],
                    "note": r["note"],
                    "diverges as": divergence_kind(r) or "",
                    "link": f"{ch}.html#claim-{ch}-{r['id']}",
                }
            )
    cols = [
        "chapter",
        "id",
        "claim",
        "source",
        "where",
        "kind",
        "paper / reference",
        "ours",
        "criterion",
        "status",
        "paper-scale status",
        "flags",
        "P(pass | falsifier)",
        "runs to decide",
        "scale",
        "note",
        "diverges as",
        "link",
    ]
    return pd.DataFrame([{k: clean_text(v) for k, v in r.items()} for r in rows], columns=cols)


@contract(claims=_CLAIMS, flag=OneOf(*FLAGS))
def flagged(claims: pd.DataFrame, flag: str) -> pd.DataFrame:
    """The claims carrying a flag: ``"weak test"`` (a statistical row whose criterion passes at its
    falsifier with probability above 0.2), ``"undecided"`` (its interval crosses the region's edge)
    or ``"criterion changed"`` (its criterion changed after a result was seen; both statuses shown
    in the chapter)."""
    if claims.empty:
        return claims
    mask = claims["flags"].fillna("").map(lambda f: flag in [x.strip() for x in f.split(";")])
    return claims[mask]


def _md_table(df: pd.DataFrame) -> str:
    head = "| " + " | ".join(str(c) for c in df.columns) + " |"
    sep = "|" + "|".join("---" for _ in df.columns) + "|"
    body = ["| " + " | ".join(str(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join([head, sep, *body])


def _html_table(df: pd.DataFrame, caption: str = "") -> str:
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
    body = []
    for row in df.itertuples(index=False):
        cells = []
        for v in row:
            cells.append(
                f"<td>{v}</td>" if isinstance(v, str) and v.startswith("<") else f"<td>{html.escape(str(v))}</td>"
            )
        body.append("<tr>" + "".join(cells) + "</tr>")
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f'<table class="claims-totals">{cap}<thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


@contract(claims=_CLAIMS, fmt=OneOf("markdown", "html"))
def summary_tables(claims: pd.DataFrame, fmt: str = "markdown") -> tuple[str, str]:
    """Tables of the claims per chapter and status, and per source and status.

    ``fmt="markdown"`` (pipe tables) or ``"html"`` (what the dashboard page shows: jupyter-book
    renders Markdown outputs as CommonMark, which has no tables).
    """

    def pivot(col: str, index_order) -> pd.DataFrame:
        if claims.empty:
            return pd.DataFrame(columns=[col, *STATUSES, "total"])
        t = claims.pivot_table(index=col, columns="status", values="id", aggfunc="count", fill_value=0).reindex(
            columns=list(STATUSES), fill_value=0
        )
        t = t.drop(columns=[c for c in ("undecided", "implied") if not t[c].any()])
        t = t.reindex([i for i in index_order if i in t.index])
        t["total"] = t.sum(axis=1)
        t.loc["all"] = t.sum(axis=0)
        return t.reset_index()

    chapters = list(dict.fromkeys(claims["chapter"]))
    a = pivot("chapter", chapters)
    b = pivot("source", SOURCES_ORDER)
    if fmt == "html":
        a["chapter"] = [
            f'<a href="{c}.html">{html.escape(c)}</a>' if c != "all" else "<b>all</b>" for c in a["chapter"]
        ]
        b["source"] = [html.escape(c) if c != "all" else "<b>all</b>" for c in b["source"]]
        return (_html_table(a, "Claims per chapter and status"), _html_table(b, "Claims per source and status"))
    a["chapter"] = [f"[{c}]({c}.html)" if c != "all" else "**all**" for c in a["chapter"]]
    return _md_table(a), _md_table(b)


@contract(claims=_CLAIMS, directory=_FOLDER)
def write_downloads(claims: pd.DataFrame, directory: str | Path | None = None) -> tuple[Path, Path]:
    """``claims.csv`` and ``claims.json`` in ``_build/downloads`` (the build publishes both)."""
    d = Path(directory) if directory is not None else build_dir() / "downloads"
    d.mkdir(parents=True, exist_ok=True)
    csv = d / "claims.csv"
    claims.drop(columns=["link"]).to_csv(csv, index=False)
    full = [dict(chapter=ch, **r) for ch, rows in load_reports().items() for r in rows]
    js = d / "claims.json"
    js.write_text(json.dumps(full, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return csv, js


#: The dashboard's columns in view by default (the others are behind its "Columns" button).
DEFAULT_COLUMNS = ("chapter", "id", "status", "claim", "paper / reference", "ours", "paper-scale status")
#: The dashboard's preset filters: name -> (column, exact value or a regular expression).  Applied by
#: ``book/_static/ldpnb.js`` (``ldpnbPreset``), which clears the others first.
PRESETS = {
    "all claims": None,
    "diverges": ("status", "^diverges$"),
    "errata (paper claim refuted)": ("diverges as", "^paper claim refuted$"),
    "our expectation refuted": ("diverges as", "^our expectation refuted$"),
    "not evaluated": ("status", "^not-evaluated$"),
    "undecided": ("status", "^undecided$"),
    "paper claims only": ("source", "^paper$"),
    "weak test": ("flags", "weak test"),
    "criterion changed": ("flags", "criterion changed"),
}
_MATH_COLUMNS = ("claim", "where", "paper / reference", "criterion", "note")


def _status_cell(status: str) -> str:
    """A dashboard status cell: a badge when the text is a status (``"pass (stale run)"`` too)."""
    word = status.split(" (")[0]
    return badge_html(word, label=status) if word in STATUSES else html.escape(status)


#: The longest text a dashboard cell shows before it is cut (the whole in its ``title``, on hover):
#: an array of "ours" otherwise makes its row thousands of pixels tall.
_CELL_LIMITS = {"claim": 240, "paper / reference": 48, "ours": 64, "criterion": 90, "where": 90, "note": 400}


@contract(claims=_CLAIMS)
def interactive_table(claims: pd.DataFrame):
    """The sortable, filterable table (itables, offline: DataTables is embedded in the page).

    It answers "what did not reproduce?": in view by default the columns of :data:`DEFAULT_COLUMNS`
    (the others, among them *source*, *where*, *criterion*, *flags*, *diverges as* and the note,
    behind the "Columns" button); the preset buttons of :data:`PRESETS`; the claims typeset by
    MathJax after every draw; a box under each header filters its column; a long value is cut,
    the whole in its ``title`` (shown on hover)."""
    import itables  # noqa: PLC0415 lazy: the book extra, only on the dashboard page
    from IPython.display import HTML, display  # noqa: PLC0415 lazy: the dashboard page only

    itables.init_notebook_mode(all_interactive=False, connected=False)
    display(HTML(_dashboard_html(claims)))


def _dashboard_html(claims: pd.DataFrame) -> str:
    """The dashboard's HTML (without the DataTables library, which ``itables.init_notebook_mode``
    puts in the page): see :func:`interactive_table`."""
    import itables  # noqa: PLC0415 lazy: the book extra, only on the dashboard page
    from itables import JavascriptFunction  # noqa: PLC0415 lazy: the book extra, only on the dashboard page

    view = claims.copy()
    view["id"] = [f'<a href="{html.escape(link)}">{html.escape(i)}</a>' for i, link in zip(view["id"], view["link"])]
    view = view.drop(columns=["link", "scale"])
    for c in view.columns:
        limit = _CELL_LIMITS.get(c, 10**6)
        if c in _MATH_COLUMNS:
            view[c] = [_shown(str(v), limit) for v in view[c]]
        elif c in ("status", "paper-scale status"):
            view[c] = [_status_cell(str(v)) for v in view[c]]
        elif c == "chapter":  # "multidim_risks" may break after its underscore, not inside a word
            view[c] = [html.escape(str(v)).replace("_", "_<wbr>") for v in view[c]]
        elif c != "id":
            view[c] = [_shown(str(v), limit, maths=False) for v in view[c]]
    order = [*DEFAULT_COLUMNS, *(c for c in view.columns if c not in DEFAULT_COLUMNS)]
    view = view[order]
    # the claim takes what the others leave (no width: the table's layout is fixed at 100 %)
    widths = {
        "chapter": "6.5em",
        "id": "4.5em",
        "status": "7.5em",
        "paper / reference": "5.5em",
        "ours": "6.5em",
        "paper-scale status": "7.5em",
        "source": "6em",
        "where": "9em",
        "kind": "5em",
        "criterion": "11em",
        "flags": "7em",
        "P(pass | falsifier)": "5em",
        "runs to decide": "5em",
        "note": "24em",
        "diverges as": "8em",
    }
    cols = list(view.columns)
    column_defs = [{"width": w, "targets": [cols.index(c)]} for c, w in widths.items() if c in cols]
    column_defs.append({"visible": False, "targets": [i for i, c in enumerate(cols) if c not in DEFAULT_COLUMNS]})
    presets = [
        {
            "text": name,
            "className": "ldpnb-preset",
            "action": JavascriptFunction(
                f"function (e, dt) {{ window.ldpnbPreset(dt, {json.dumps(name)}, {json.dumps(rule)}); }}"
            ),
        }
        for name, rule in PRESETS.items()
    ]
    buttons = [{"extend": "colvis", "text": "Columns"}, *presets]
    typeset = JavascriptFunction(
        "function () { const c = this.api().table().container(); "
        "if (window.MathJax && MathJax.typesetPromise) { MathJax.typesetClear && MathJax.typesetClear([c]); "
        "MathJax.typesetPromise([c]).then(() => c.setAttribute('data-typeset', '1')); } }"
    )
    page = itables.to_html_datatable(
        view,
        connected=False,  # the library is in the page (init_notebook_mode), not fetched from a CDN
        allow_html=True,
        column_filters="header",
        showIndex=False,
        pageLength=25,
        classes="display compact claims-dashboard mathjax_process",
        maxBytes=0,
        autoWidth=False,
        columnDefs=column_defs,
        lengthMenu=[10, 25, 50, 100, 500, 1000],
        buttons=buttons,
        drawCallback=typeset,
    )
    # itables adds a hidden static copy of the first rows for viewers without JavaScript, with the
    # claims' TeX left raw; the book always runs the interactive table
    page = re.sub(r'<div id="(itables_[0-9a-f_]+)_fallback">.*?</div><script>[^<]*</script>', "", page, flags=re.S)
    return re.sub(r'(<table id="itables_[0-9a-f_]+") hidden="hidden"', r"\1", page)


@contract(claims=_CLAIMS, link_prefix=Instance(str, example=""))
def errata_html(claims: pd.DataFrame, *, link_prefix: str = "") -> str:
    """What did not reproduce, in two lists: the papers' claims our reproduction refutes (rows with
    source ``paper`` or ``derived`` that diverge: candidate errata) and our own expectations that the
    numbers refuted (``extension``, ``invariant`` or ``calibration`` rows that diverge); each row as
    its id (a link to the row), the claim and the first sentence of its note, one collapsed block per
    chapter.  ``link_prefix`` is the path from the page to the chapters (``""`` beside them)."""
    if claims.empty:
        return "<p>The reproduction reports have not been built yet.</p>"
    div = claims[claims["status"] == "diverges"]
    parts = []
    for kind, title, empty in (
        (
            "paper claim refuted",
            "Paper claims refuted (candidate errata)",
            "No claim printed in or derived from the papers diverges.",
        ),
        (
            "our expectation refuted",
            "Our own expectations refuted",
            "None of our own expectations (extensions, invariants, calibrations) diverges.",
        ),
    ):
        rows = div[div["diverges as"] == kind]
        parts.append(
            f"<p><b>{title}</b>: {len(rows)} row{'s' if len(rows) != 1 else ''}."
            + ("" if len(rows) else " " + empty)
            + "</p>"
        )
        for ch, g in rows.groupby("chapter", sort=False):
            items = "".join(
                f'<li><a href="{html.escape(link_prefix + r.link)}"><b>{html.escape(r.id)}</b></a> '
                f'{_html_text(first_sentence(r.claim, 160))} <span class="ldpnb-why">'
                f"{_html_text(first_sentence(r.note, 200))}</span></li>"
                for r in g.itertuples(index=False)
            )
            parts.append(f"<details><summary>{html.escape(ch)}: {len(g)}</summary><ul>{items}</ul></details>")
    return f'<div class="ldpnb-errata mathjax_process">{"".join(parts)}</div>'


@contract(directory=_FOLDER)
def landing_substitutions(directory: str | Path | None = None) -> dict[str, str]:
    """The landing page's substitutions (``{{ claims_totals }}``, ``{{ errata }}``), from the reports."""
    try:
        claims = claims_frame(directory)
    except FileNotFoundError:
        claims = pd.DataFrame()
    if claims.empty:
        none = "The reproduction reports have not been built yet."
        return {"claims_totals": none, "errata": none}
    return {"claims_totals": totals_markdown(directory), "errata": errata_html(claims)}


@contract(directory=_FOLDER)
def totals_markdown(directory: str | Path | None = None) -> str:
    """One paragraph of the book's totals (the landing page)."""
    try:
        claims = claims_frame(directory)
    except FileNotFoundError:  # pragma: no cover
        return "The reproduction reports have not been built yet."
    if claims.empty:
        return "The reproduction reports have not been built yet."
    n = claims["status"].value_counts()
    paper = claims[claims["source"] == "paper"]
    np_ = paper["status"].value_counts()
    extra = "".join(
        f", {n.get(k, 0)} {w}"
        for k, w in (("undecided", "undecided"), ("implied", "implied by other rows"))
        if n.get(k, 0)
    )
    flags = {f: len(flagged(claims, f)) for f in ("weak test", "criterion changed")}
    flag_txt = ("; flagged: " + ", ".join(f"{v} {k}" for k, v in flags.items() if v)) if any(flags.values()) else ""
    kinds = claims.loc[claims["status"] == "diverges", "diverges as"].value_counts()
    split = (
        f" ({kinds.get('paper claim refuted', 0)} refute a paper's claim, "
        f"{kinds.get('our expectation refuted', 0)} our own expectation)"
        if n.get("diverges", 0)
        else ""
    )
    return (
        f"{len(claims)} claims in {claims['chapter'].nunique()} chapters: "
        f"{n.get('pass', 0)} pass, {n.get('diverges', 0)} diverge{split}{extra}, {n.get('not-evaluated', 0)} not "
        f"evaluated, {n.get('fail', 0)} fail{flag_txt}. Of the {len(paper)} values and statements printed in the "
        f"papers, {np_.get('pass', 0)} are reproduced, {np_.get('diverges', 0)} diverge and "
        f"{np_.get('not-evaluated', 0)} could not be evaluated."
    )
