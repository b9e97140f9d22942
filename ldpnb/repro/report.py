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
import numbers as _numbers
import os
import re
from pathlib import Path
from typing import Any, Mapping

from ldpnb.contracts import (
    Boolean,
    Instance,
    Integer,
    OneOf,
    Optional,
    Pattern,
    Real,
    Unchecked,
    contract,
)
from ldpnb.repro.claims import (
    SCALES,
    Claim,
    CriterionError,
    _est,
    _is_est,
    _plain,
    describe,
    falsify,
    original_statuses,
    power,
    row_status,
    runs_needed,
)
from ldpnb.stats import Estimate

# the rules of this module's arguments (tests/test_contracts.py calls each function with their invalid values)
_ROW = Instance(Mapping, example={"id": "T1", "status": "pass", "source": "paper", "ours": 1.0, "estimate": None})
_ROWS = Instance(list, tuple, example=[{"id": "T1", "status": "pass", "source": "paper", "ours": 1.0}])
_FOLDER = Optional(Instance(str, os.PathLike, example="_build/reproduction"))
_CHAPTER = Pattern(r"[A-Za-z0-9_\-]+", "a file stem (letters, digits, _ -)", "ch")
_GLUE_NAME = Pattern(r"[A-Za-z0-9][A-Za-z0-9_.\-]*", "a glue name (letters, digits, _ . -)", "ch-n")
_ID = Instance(str, example="T1")
#: the chapter's SEED; a negative one is a TypeError too (as before the contract), hence checked in the body
_SEED = Unchecked("None or an integer >= 0 (TypeError otherwise)", example=None)
_NOTE = Instance(str, example="")
_MEASURED = Unchecked("a number, an array or an Estimate: checked by the claim's criterion", example=0.5)
#: a one-claim table: the example from which tests/test_contracts.py builds a Report to call its methods
_EXAMPLE_CLAIMS = {
    "T1": Claim("T1", "an example", source="derived", kind="range", where="Sec. 1", lower=0.0, upper=1.0)
}

__all__ = [
    "Report",
    "ReproductionFailure",
    "STATUSES",
    "KEYS",
    "FLAGS",
    "BADGES",
    "DIVERGENCE_KINDS",
    "build_dir",
    "load_reports",
    "load_timings",
    "fmt_ours",
    "divergence_kind",
    "first_sentence",
    "badge_html",
    "counts_text",
    "report_html",
    "glue",
]

#: Row statuses.  ``undecided``: the interval of a statistical row crosses its region's edge (never a
#: pass); ``implied``: the criterion of a consequence of another row holds (not counted as a check).
STATUSES = ("pass", "fail", "diverges", "undecided", "implied", "not-evaluated")
#: The flags a row can carry (``row["flags"]``).
FLAGS = ("undecided", "weak test", "criterion changed")
#: The keys of a row before the statistics layer (a report written then lacks the new ones).
_OLD_KEYS = (
    "id",
    "claim",
    "paper",
    "ours",
    "tolerance",
    "status",
    "scale",
    "note",
    "source",
    "where",
    "kind",
    "atol",
    "rtol",
    "falsifier",
    "reference",
    "criterion",
    "numbers",
    "expect",
)
KEYS = _OLD_KEYS + ("estimate", "power", "runs_to_decide", "flags", "changes", "implied_by")
_NEW_DEFAULTS = {
    "estimate": None,
    "power": None,
    "runs_to_decide": None,
    "flags": [],
    "changes": [],
    "implied_by": None,
}
_VOLATILE = ("ours", "numbers", "falsifier", "status", "estimate", "power", "runs_to_decide", "flags", "changes")


class ReproductionFailure(AssertionError):
    """Raised by :meth:`Report.finalize` when a row failed at book or paper scale."""


@contract()
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


@contract(row=_ROW)
def fmt_ours(row: Mapping[str, Any]) -> str:
    """The 'ours' cell: the value, with its interval for a row recorded with estimates."""
    est = row.get("estimate")
    if not est:
        return fmt(row.get("ours"))
    if _is_est(est):
        return _fmt_est(est)
    return "; ".join(f"{k} = {_fmt_est(v)}" for k, v in est.items())


def _fmt_est(d: Mapping[str, Any]) -> str:
    e = _est(d)
    if e.exact:
        return fmt(_plain(e.value))
    if e.size == 1:
        lv = f"{100 * e.level:g} %"
        return f"{fmt(_plain(e.value))} [{fmt(_plain(e.low))}, {fmt(_plain(e.high))}] ({lv}, {e.method}" + (
            f", {e.n_runs} runs)" if e.n_runs else ")"
        )
    return (
        f"{fmt(_plain(e.value))}, intervals {fmt(_plain(e.low))} to {fmt(_plain(e.high))} ({100 * e.level:g} %"
        + (" simultaneous" if e.simultaneous else "")
        + f", {e.method}"
        + (f", {e.n_runs} runs)" if e.n_runs else ")")
    )


def _extra_html(r: Mapping[str, Any]) -> str:
    """Power, runs to decide and the decision log of a row (under its status)."""
    parts = []
    pw = r.get("power")
    if pw:
        parts.append(f"P(pass | falsifier {fmt(pw['falsifier_truth'])}) = {pw['pass_probability']:.2g}")
    rtd = r.get("runs_to_decide")
    if rtd and rtd.get("not_by_runs"):
        parts.append(f"undecided; more runs would not decide it: {html.escape(rtd['not_by_runs'])}")
    elif rtd:
        parts.append(
            f"≈ {rtd['runs']:,} runs would decide (estimate)"
            if rtd.get("runs")
            else "undecided; the runs that would decide cannot be estimated (an unbounded interval, or "
            "the estimate on the region's edge)"
        )
    for c in r.get("changes") or []:
        parts.append(
            f"criterion changed at {html.escape(c['commit'][:8])} ({html.escape(c['date'])}, after the "
            f"{html.escape(c['seen'])}-scale result): the earlier criterion gives "
            f"<b>{html.escape(str(c['status']))}</b>. {html.escape(c['reason'])}"
        )
    if r.get("implied_by"):
        parts.append(f"implied by {html.escape(r['implied_by'])}: not counted as a check")
    text = "".join(f'<div class="claim-extra">{p}</div>' for p in parts)
    if len(re.sub(r"<[^>]+>", "", text)) <= 120:
        return text
    # a long decision log folds, so that the status column stays a column of statuses
    return f'<details class="claim-log"><summary>power, runs, decision log</summary>{text}</details>'


def _value(x: Any) -> Any:
    """What the table shows as ours: an estimate's value, else the number itself."""
    return x.value if isinstance(x, Estimate) else x


def _estimates(numbers: Mapping[str, Any]) -> Any:
    """The row's estimates (JSON): the estimate of ``ours``, or of each named value and difference
    of an order; None for a row of exact numbers."""
    if _is_est(numbers.get("ours")):
        return numbers["ours"]
    found = {k: v for k, v in (numbers.get("values") or {}).items() if _is_est(v)}
    found.update({k: v for k, v in (numbers.get("differences") or {}).items() if _is_est(v)})
    return found or None


_MATH = re.compile(r"\$([^$]+)\$")


def _html_text(s: str) -> str:
    """Escape, and turn ``$...$`` into MathJax's ``\\(...\\)``."""
    out, pos = [], 0
    for m in _MATH.finditer(s or ""):
        out.append(html.escape(s[pos : m.start()]))
        out.append(r"\(" + html.escape(m.group(1)) + r"\)")
        pos = m.end()
    out.append(html.escape((s or "")[pos:]))
    return "".join(out)


_TEX = {
    r"\epsilon": "ε",
    r"\varepsilon": "ε",
    r"\alpha": "α",
    r"\beta": "β",
    r"\gamma": "γ",
    r"\delta": "δ",
    r"\theta": "θ",
    r"\lambda": "λ",
    r"\mu": "μ",
    r"\nu": "ν",
    r"\pi": "π",
    r"\rho": "ρ",
    r"\sigma": "σ",
    r"\omega": "ω",
    r"\Omega": "Ω",
    r"\infty": "∞",
    r"\to": "→",
    r"\leq": "≤",
    r"\le": "≤",
    r"\geq": "≥",
    r"\ge": "≥",
    r"\in": "∈",
    r"\times": "×",
    r"\cdot": "·",
    r"\approx": "≈",
    r"\ln": "ln ",
    r"\log": "log ",
    r"\sum": "Σ",
    r"\pm": "±",
    r"\neq": "≠",
    r"\ell": "ℓ",
    r"\{": "\x00",
    r"\}": "\x01",
    r"\,": " ",
    r"\;": " ",
    r"\%": "%",
    r"\Psi": "Ψ",
    r"\psi": "ψ",
    r"\Lambda": "Λ",
    r"\Delta": "Δ",
    r"\Theta": "Θ",
    r"\Sigma": "Σ",
    r"\Phi": "Φ",
    r"\phi": "φ",
    r"\varphi": "φ",
    r"\tau": "τ",
    r"\eta": "η",
    r"\kappa": "κ",
    r"\xi": "ξ",
    r"\chi": "χ",
    r"\zeta": "ζ",
    r"\Gamma": "Γ",
    r"\mid": "|",
    r"\ldots": "…",
    r"\dots": "…",
    r"\prime": "′",
    r"\sqrt": "√",
    r"\min": "min",
    r"\max": "max",
    r"\exp": "exp",
    r"\quad": " ",
}


def _plain_math(text: str) -> str:
    """Inline TeX (``$...$``) as readable plain text, for captions shown outside the book's math
    rendering: ``$\\beta_{U|S} \\le 1$`` -> ``β_U|S ≤ 1``."""

    def one(m: re.Match) -> str:
        t = m.group(1)
        t = t.replace("{,}", ",")
        t = re.sub(
            r"\\(?:mathrm|mathit|text|mathbf|mathcal|boldsymbol|operatorname|hat|bar|tilde)\s*\{([^{}]*)\}", r"\1", t
        )
        t = re.sub(r"\\(?:mathrm|mathit|mathbf|mathcal|boldsymbol|hat|bar|tilde|left|right|big|Big)\s*", "", t)
        for k in sorted(_TEX, key=len, reverse=True):
            t = re.sub(re.escape(k) + r"(?![A-Za-z])", _TEX[k], t)
        t = re.sub(r"([_^])\{([^{}]*)\}", r"\1\2", t)
        t = re.sub(r"\\([A-Za-z]+)", r"\1", t)  # anything else: the command's name
        return t.replace("{", "").replace("}", "").replace("\x00", "{").replace("\x01", "}")

    return re.sub(r"\$\$?([^$]+)\$\$?", one, text).replace("\\,", " ")


# ---------------------------------------------------------------------------------- rendering
#: How each status is drawn: a glyph (so that the statuses differ without colour), a label, and the
#: order in which the summary lists the rows that do not simply pass.
BADGES = {
    "pass": ("✓", "pass"),
    "fail": ("✗", "fail"),
    "diverges": ("≠", "diverges"),
    "undecided": ("?", "undecided"),
    "implied": ("⇐", "implied"),
    "not-evaluated": ("–", "not evaluated"),
}
_SUMMARY_ORDER = ("fail", "diverges", "undecided", "not-evaluated", "pass", "implied")
#: What a diverging row refutes: the paper's claim (a value or statement printed in the paper, or derived
#: from its formulas or data), or our own expectation (an extension, an invariant, a calibration).
DIVERGENCE_KINDS = {"paper": "paper claim refuted", "ours": "our expectation refuted"}
_ABBREV = {
    "e.g",
    "i.e",
    "cf",
    "vs",
    "al",
    "fig",
    "figs",
    "eq",
    "eqs",
    "sec",
    "secs",
    "tab",
    "thm",
    "prop",
    "lem",
    "def",
    "no",
    "approx",
    "resp",
    "ref",
    "refs",
    "app",
    "alg",
    "ch",
    "p",
    "pp",
    "ca",
    "st",
    "etc",
}


@contract(row=_ROW)
def divergence_kind(row: Mapping[str, Any]) -> str | None:
    """``"paper claim refuted"`` for a diverging row about the paper (source ``paper`` or ``derived``),
    ``"our expectation refuted"`` for one about our own expectation (``extension``, ``invariant``,
    ``calibration``); None for a row that does not diverge.

    Examples
    --------
    >>> divergence_kind({"status": "diverges", "source": "paper"})
    'paper claim refuted'
    >>> divergence_kind({"status": "diverges", "source": "extension"})
    'our expectation refuted'
    >>> divergence_kind({"status": "pass", "source": "paper"}) is None
    True
    """
    if row.get("status") != "diverges":
        return None
    return DIVERGENCE_KINDS["paper" if row.get("source") in ("paper", "derived") else "ours"]


@contract(text=Optional(Instance(str, example="A note. More.")), limit=Integer(1, None))
def first_sentence(text: str, limit: int = 240) -> str:
    """The first sentence of a note (abbreviations such as "Fig." or "e.g." and decimals do not end
    it), cut at ``limit`` characters with an ellipsis.

    >>> first_sentence("Fig. 4 plots it in nats. The paper says bits.")
    'Fig. 4 plots it in nats.'
    """
    text = " ".join((text or "").split())
    for m in re.finditer(r"[.!?](?=\s+[\"'(A-Z0-9$])", text):
        word = re.findall(r"[\w.]+$", text[: m.start()])
        w = word[0].lower() if word else ""
        if w in _ABBREV or (len(w) == 1 and w.isalpha()) or w.endswith(".") and len(w) <= 4:
            continue
        text = text[: m.end()]
        break
    return _cut(text, limit)


def _cut(text: str, limit: int) -> str:
    """``text`` cut at ``limit`` characters (never inside ``$...$``), with an ellipsis."""
    if len(text) <= limit:
        return text
    cut = limit
    while cut > 0 and text[:cut].count("$") % 2:
        cut = text.rfind("$", 0, cut)
    cut = text.rfind(" ", 0, cut) if text.rfind(" ", 0, cut) > cut // 2 else cut
    return text[:cut].rstrip(" ,;:…") + " …"


def _shown(text: str, limit: int, *, maths: bool = True) -> str:
    """A value cell: the text (maths typeset when ``maths``), truncated at ``limit`` characters with
    the full value in the ``title`` (shown on hover; its TeX as plain text)."""
    render = _html_text if maths else html.escape
    if len(text) <= limit:
        return render(text)
    full = _plain_math(text) if maths else text
    return f'<span class="ldpnb-trunc" title="{html.escape(full)}">{render(_cut(text, limit))}</span>'


@contract(
    status=OneOf(*STATUSES),
    kind=Optional(OneOf(*DIVERGENCE_KINDS.values())),
    label=Optional(Instance(str, example="pass")),
)
def badge_html(status: str, *, kind: str | None = None, label: str | None = None) -> str:
    """A status badge: the word, preceded by the status's glyph (drawn by the stylesheet,
    ``book/_static/ldpnb.css``, so that the text of the cell stays the word for sorting and search)
    and coloured by it; ``kind`` (what a divergence refutes) goes under it."""
    word = BADGES[status][1] if label is None else label
    sub = f'<span class="ldpnb-badge-kind">{html.escape(kind)}</span>' if kind else ""
    return f'<span class="ldpnb-badge status-{status}">{html.escape(word)}</span>{sub}'


def _flags_html(row: Mapping[str, Any]) -> str:
    return "".join(
        f'<span class="ldpnb-flag flag-{f.replace(" ", "-")}">⚑ {html.escape(f)}</span>'
        for f in (row.get("flags") or [])
        if f != "undecided"
    )


def _exceptions(rows: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The rows that do not simply pass (any status but pass, or a flag), failures first."""
    out = [r for r in rows if r["status"] != "pass" or r.get("flags")]
    return sorted(out, key=lambda r: _SUMMARY_ORDER.index(r["status"]))


#: Statuses that are not a pass: the summary lists each of their rows (a passing row with a flag, and
#: a row implied by another, follow in a folded block).
_NOT_PASSING = ("fail", "diverges", "undecided", "not-evaluated")


def _summary_row(chapter: str, r: Mapping[str, Any]) -> str:
    """One row of the summary: id, status (badge, what a divergence refutes, flags), then in one
    cell the claim on one line, and paper vs ours followed by the first sentence of the note on two
    (cut there by the stylesheet, the whole in the ``title``, shown on hover)."""
    rid, cid = html.escape(chapter), html.escape(r["id"])
    src = "paper" if r["source"] == "paper" else html.escape(r["source"])
    claim = r["claim"] or ""
    why = first_sentence(r.get("note") or "", 240)
    vals = (
        f'<span class="ldpnb-k">{src}</span> {_shown(_ref_text(r), 40)} '
        f'<span class="ldpnb-k">ours</span> {_shown(fmt_ours(r), 48, maths=False)}'
    )
    return (
        f'<tr class="status-{r["status"]}"><td class="ldpnb-id"><a href="#claim-{rid}-{cid}">{cid}</a></td>'
        f'<td class="ldpnb-st">{badge_html(r["status"], kind=divergence_kind(r))}{_flags_html(r)}</td>'
        f'<td class="ldpnb-what"><div class="ldpnb-claim ldpnb-clamp" title="{html.escape(_plain_math(claim))}">'
        f"{_html_text(_cut(claim, 200))}</div>"
        + (
            f'<div class="ldpnb-detail ldpnb-clamp" title="{html.escape(_plain_math(why))}">'
            if why
            else '<div class="ldpnb-detail">'
        )
        + f'<span class="ldpnb-vals">{vals}</span>'
        + (f' <span class="ldpnb-sep">—</span> <span class="ldpnb-why">{_html_text(why)}</span>' if why else "")
        + "</div>"
        + "</td></tr>"
    )


def _summary_table(chapter: str, rows: list[Mapping[str, Any]]) -> str:
    body = "".join(_summary_row(chapter, r) for r in rows)
    return (
        '<div class="ldpnb-scroll"><table class="ldpnb-summary"><colgroup><col class="col-id"><col class="col-status">'
        '<col class="col-what"></colgroup><thead><tr><th>id</th><th>status</th>'
        f"<th>claim · paper vs ours · why</th></tr></thead><tbody>{body}</tbody></table></div>"
    )


@contract(rows=_ROWS)
def counts_text(rows: list[Mapping[str, Any]]) -> str:
    """``"35 pass, 3 diverge (2 paper claims refuted, 1 expectation of ours), 2 not evaluated"``."""
    n = {s: sum(r["status"] == s for r in rows) for s in STATUSES}
    parts = [f"{n['pass']} pass"]
    if n["diverges"]:
        kinds = [divergence_kind(r) for r in rows if r["status"] == "diverges"]
        k_paper, k_ours = kinds.count(DIVERGENCE_KINDS["paper"]), kinds.count(DIVERGENCE_KINDS["ours"])
        split = ", ".join(
            x
            for x in (
                (f"{k_paper} {DIVERGENCE_KINDS['paper']}" if k_paper else ""),
                (f"{k_ours} {DIVERGENCE_KINDS['ours']}" if k_ours else ""),
            )
            if x
        )
        parts.append(f"{n['diverges']} diverge ({split})")
    if n["undecided"]:
        parts.append(f"{n['undecided']} undecided")
    if n["implied"]:
        parts.append(f"{n['implied']} implied by other rows (not counted)")
    if n["not-evaluated"]:
        parts.append(f"{n['not-evaluated']} not evaluated")
    if n["fail"]:
        parts.append(f"**{n['fail']} fail**")
    flagged = {f: sum(f in (r.get("flags") or []) for r in rows) for f in ("weak test", "criterion changed")}
    if any(flagged.values()):
        parts.append("flagged: " + ", ".join(f"{v} {k}" for k, v in flagged.items() if v))
    return ", ".join(parts)


def _ref_text(r: Mapping[str, Any]) -> str:
    ref = r["paper"] if r["source"] == "paper" else r.get("reference")
    return fmt(ref) if ref is not None else "—"


@contract(chapter=_CHAPTER, rows=_ROWS, scale=OneOf(*SCALES), seed=Optional(Integer(0, None)))
def report_html(chapter: str, rows: list[Mapping[str, Any]], *, scale: str, seed: int | None = None) -> str:
    """The HTML of a chapter's report (see :meth:`Report.to_html`); ``rows`` as in the report's JSON."""
    rid = html.escape(chapter)
    n = {s: sum(r["status"] == s for r in rows) for s in STATUSES}
    seed_txt = f", <code>SEED = {seed}</code>" if seed is not None else ""
    # each count is a button that shows only its rows in the full table (book/_static/ldpnb.js)
    chip = (
        '<li><button type="button" class="ldpnb-chip" data-filter="{}" aria-pressed="false" title="{}">'
        "{} <b>{}</b></button></li>"
    )
    chips = "".join(
        chip.format(f"status-{s}", f"show the {BADGES[s][1]} rows in the full table", badge_html(s), n[s])
        for s in STATUSES
        if n[s]
    )
    flags = {f: sum(f in (r.get("flags") or []) for r in rows) for f in ("weak test", "criterion changed")}
    chips += "".join(
        chip.format(
            f"flag-{f.replace(' ', '-')}",
            f"show the rows flagged {f} in the full table",
            f'<span class="ldpnb-flag flag-{f.replace(" ", "-")}">⚑ {f}</span>',
            v,
        )
        for f, v in flags.items()
        if v
    )
    head = (
        f'<p class="ldpnb-report-title"><b>Reproduction report</b> ({rid}: {len(rows)} claims, scale '
        f'<code>{html.escape(scale)}</code>{seed_txt})</p><ul class="ldpnb-counts">{chips}</ul>'
    )
    failing = sorted((r for r in rows if r["status"] in _NOT_PASSING), key=lambda r: _SUMMARY_ORDER.index(r["status"]))
    flagged = [r for r in _exceptions(rows) if r["status"] not in _NOT_PASSING]
    if failing:
        summary = (
            f'<p class="ldpnb-report-lead">The {len(failing)} row{"s" if len(failing) > 1 else ""} that do not '
            "pass, failures first: the claim, the paper's value (or our reference) and ours, and why. Hover a "
            "cut text for the whole; an id opens its row in the full table below.</p>"
            + _summary_table(chapter, failing)
        )
    else:
        summary = '<p class="ldpnb-report-lead">Every row passes.</p>'
    if flagged:
        what = ", ".join(
            f"{k} {w}"
            for k, w in (
                (sum(r["status"] == "pass" for r in flagged), "pass with a flag"),
                (sum(r["status"] == "implied" for r in flagged), "implied by another row"),
            )
            if k
        )
        summary += (
            f'<details class="ldpnb-report-flagged"><summary>{len(flagged)} more row'
            f"{'s' if len(flagged) > 1 else ''} to know about ({what})</summary>"
            + _summary_table(chapter, flagged)
            + "</details>"
        )
    body = []
    for r in rows:
        cid = html.escape(r["id"])
        where = f'<div class="claim-where">{html.escape(r["source"])} · {_html_text(r["where"])}</div>'
        note = r["note"] or ""
        if len(note) > 140:
            note_html = f"<details><summary>note</summary>{_html_text(note)}</details>"
        elif note:
            note_html = f'<div class="claim-note">{_html_text(note)}</div>'
        else:
            note_html = ""
        status_html = badge_html(r["status"], kind=divergence_kind(r)) + _flags_html(r) + _extra_html(r)
        body.append(
            f'<tr id="claim-{rid}-{cid}" class="status-{r["status"]}">'
            f'<td class="ldpnb-id" data-label="id"><a class="claim-id" href="#claim-{rid}-{cid}">{cid}</a></td>'
            f'<td class="ldpnb-st" data-label="status">{status_html}</td>'
            f'<td class="ldpnb-claimcell" data-label="claim">{_html_text(r["claim"])}{where}{note_html}</td>'
            f'<td data-label="paper / reference">{_shown(_ref_text(r), 160)}</td>'
            f'<td data-label="ours">{_shown(fmt_ours(r), 160, maths=False)}</td>'
            f'<td data-label="criterion">{_shown(r["tolerance"] or "—", 160)}</td></tr>'
        )
    cols = ("id", "status", "claim", "paper / reference", "ours", "criterion")
    colgroup = "".join('<col class="col-' + c.split()[0] + '">' for c in cols)
    table = (
        f'<details class="ldpnb-report-full"><summary>The full table: all {len(rows)} rows (claim, where, '
        f'note, paper or reference, ours, criterion)</summary><div class="ldpnb-scroll">'
        f'<table class="reproduction-report"><colgroup>{colgroup}</colgroup>'
        f"<thead><tr>{''.join(f'<th>{c}</th>' for c in cols)}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table></div></details>"
    )
    return (
        f'<div class="ldpnb-report reproduction-report-wrap mathjax_process" id="report-{rid}">'
        f"{head}{summary}{table}</div>"
    )


@contract(name=_GLUE_NAME, value=Unchecked("any object: a figure, a number, a string"), display=Boolean())
def glue(name: str, value: Any, display: bool = True) -> None:
    """Glue ``value`` as ``name`` for the book's ``{glue:...}`` roles and directives: myst-nb's
    ``glue`` when myst-nb is installed (the book's build); without it (a notebook on Colab) a
    value with ``display=True`` (a figure) is shown in place and any other is skipped, so that a
    chapter runs with the package's own dependencies.

    Examples
    --------
    ``glue("foundations-channels", fig)`` in the cell that draws the figure;
    ``glue("foundations-n", f"{n:,}", display=False)`` for a number in the prose.
    """
    try:
        from myst_nb import glue as _glue  # noqa: PLC0415 lazy: myst-nb is optional (the book's build)
    except ImportError:
        if display:
            try:
                from IPython.display import display as _display  # noqa: PLC0415 lazy: a notebook only
            except ImportError:  # pragma: no cover - IPython comes with every notebook
                return
            _display(value)
        return
    _glue(name, value, display=display)


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

    @contract(
        chapter=_CHAPTER,
        claims=Instance(Mapping, example=_EXAMPLE_CLAIMS),
        scale=OneOf(*SCALES),
        seed=_SEED,
    )
    def __init__(self, chapter: str, claims: Mapping[str, Claim], scale: str, *, seed: int | None = None) -> None:
        if not isinstance(claims, Mapping) or not claims or not all(isinstance(s, Claim) for s in claims.values()):
            raise TypeError("claims must be a non-empty mapping of id -> Claim (a paper's CLAIMS table)")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, _numbers.Integral) or seed < 0):
            raise TypeError(f"seed must be None or an integer >= 0 (the chapter's SEED), got {seed!r}")
        self.chapter = chapter
        self.scale = scale
        self.seed = seed
        self.claims = dict(claims)
        self.rows: dict[str, dict[str, Any]] = {}
        self.timings: dict[str, Any] = {}
        self._volatile: dict[str, dict[str, Any]] = {}
        self._finalized = False

    # ------------------------------------------------------------------ recording
    def _declared(self, id: str, kind: str | None) -> Claim | None:
        """The claim ``id`` of kind ``kind``; None when it is not evaluated at this scale (recording
        it is then a no-op, and :meth:`finalize` marks it not evaluated)."""
        if id not in self.claims:
            raise KeyError(f"claim {id!r} is not declared in the paper's claims table ({self.chapter})")
        if id in self.rows:
            raise ValueError(f"claim {id!r} recorded twice in chapter {self.chapter!r}")
        s = self.claims[id]
        if kind is not None and s.kind != kind:
            raise TypeError(f"claim {id!r} is declared as kind {s.kind!r}, not {kind!r}")
        if self.scale not in s.scales:
            return None
        return s

    def _record(self, s: Claim, numbers: dict[str, Any], ours: Any, note: str) -> None:
        crit = s.full_criterion(self.scale)
        plain = _plain(numbers)
        implied = s.implied_by is not None
        try:
            status = row_status(s.kind, crit, plain, s.expect, implied=implied)
            fals = falsify(s.kind, crit, plain, s.expect, implied=implied)
        except CriterionError as e:
            raise CriterionError(f"claim {s.id!r} ({self.chapter}): {e}") from None
        pw = power(s.kind, crit, plain, s.expect)
        rtd = runs_needed(s.kind, crit, plain) if status == "undecided" else None
        if rtd is not None and s.not_by_runs.strip():
            rtd = {**rtd, "not_by_runs": s.not_by_runs.strip()}
        changes = original_statuses(s.changes, plain, s.expect)
        flags = [
            f
            for f, on in (
                ("undecided", status == "undecided"),
                ("weak test", bool(pw and pw["weak"])),
                ("criterion changed", bool(changes)),
            )
            if on
        ]
        notes = " ".join(x for x in (s.note.strip(), (note or "").strip()) if x)
        row = {
            "id": s.id,
            "claim": s.claim,
            "paper": _plain(s.paper.value) if s.paper is not None else None,
            "ours": _plain(ours),
            "tolerance": describe(s, self.scale),
            "status": status,
            "scale": self.scale,
            "note": notes,
            "source": s.source,
            "where": s.where_text,
            "kind": s.kind,
            "atol": crit.get("atol"),
            "rtol": crit.get("rtol"),
            "falsifier": fals,
            "reference": _plain(s.reference),
            "criterion": crit,
            "numbers": plain,
            "expect": s.expect,
            "estimate": _estimates(plain),
            "power": pw,
            "runs_to_decide": _plain(rtd),
            "flags": flags,
            "changes": changes,
            "implied_by": s.implied_by,
        }
        if s.volatile:  # measurements that change from run to run live in the timings file
            self._volatile[s.id] = {k: row[k] for k in _VOLATILE}
            row.update({k: (None if k not in ("status", "flags", "changes") else row[k]) for k in _VOLATILE})
            row.update(flags=[], changes=[])
            row["note"] = (
                notes + " " if notes else ""
            ) + "(Timing claim: the measured numbers are in the chapter's timings file.)"
        self.rows[s.id] = row

    @contract(id=_ID, ours=_MEASURED, se=Unchecked("a standard error (deprecated z criterion)"), note=_NOTE)
    def close(self, id: str, ours: Any, *, se: Any = None, note: str = "") -> None:
        """``|ours - target| <= atol + rtol |target|`` as declared for claim ``id``.

        ``ours`` is a number or array, or an :class:`~ldpnb.stats.Estimate` (then decided with three
        outcomes: its interval inside ``[target - tol, target + tol]``, outside, or across).  ``se``
        goes with the deprecated ``z`` criterion (``+ z se``; record an estimate instead)."""
        s = self._declared(id, "close")
        if s is None:
            return
        if isinstance(ours, Estimate) and se is not None:
            raise TypeError(f"claim {id!r}: an estimate carries its uncertainty; do not pass se")
        nums = {"ours": ours} if se is None else {"ours": ours, "se": se}
        self._record(s, nums, _value(ours), note)

    @contract(id=_ID, ours=_MEASURED, note=_NOTE)
    def range(self, id: str, ours: Any, *, note: str = "") -> None:
        """``lower <= ours <= upper`` as declared for claim ``id`` (``ours`` a number, an array or
        an :class:`~ldpnb.stats.Estimate`)."""
        s = self._declared(id, "range")
        if s is None:
            return
        self._record(s, {"ours": ours}, _value(ours), note)

    @contract(
        id=_ID,
        values=Instance(Mapping, example={"A": 0.1, "B": 0.2}),
        differences=Optional(Instance(Mapping, example={})),
        note=_NOTE,
    )
    def order(
        self, id: str, values: Mapping[str, Any], *, differences: Mapping[str, Any] | None = None, note: str = ""
    ) -> None:
        """The declared relation between named quantities, e.g. ``{"IBU": 0.17, "INV-N": 0.78}``.

        Values may be :class:`~ldpnb.stats.Estimate` objects (independent: their difference by
        :func:`ldpnb.stats.difference_of`); ``differences`` gives the estimate of a difference of
        adjacent names directly, keyed ``"B - A"`` (e.g. paired runs:
        :func:`ldpnb.stats.difference` with ``paired=True``)."""
        s = self._declared(id, "order")
        if s is None:
            return
        if not isinstance(values, Mapping):
            raise TypeError(f"claim {id!r}: values must be a mapping of name -> number(s)")
        nums: dict[str, Any] = {"values": dict(values)}
        if differences:
            if not isinstance(differences, Mapping) or not all(isinstance(d, Estimate) for d in differences.values()):
                raise TypeError(f"claim {id!r}: differences must map 'B - A' to Estimate objects")
            nums["differences"] = dict(differences)
        self._record(s, nums, {k: _value(v) for k, v in values.items()}, note)

    @contract(id=_ID, ys=_MEASURED, xs=Unchecked("the abscissae of ys, ordered"), note=_NOTE)
    def monotone(self, id: str, ys: Any, *, xs: Any = None, note: str = "") -> None:
        """``ys`` (ordered by ``xs``) increasing or decreasing as declared."""
        s = self._declared(id, "monotone")
        if s is None:
            return
        nums = {"ys": ys} if xs is None else {"ys": ys, "xs": xs}
        self._record(s, nums, ys, note)

    @contract(id=_ID, note=_NOTE)
    def holds(self, id: str, *, note: str = "", **numbers: Any) -> None:
        """The declared rule evaluated on ``numbers`` (e.g. ``violations=0, instances=300``)."""
        s = self._declared(id, "holds")
        if s is None:
            return
        self._record(s, dict(numbers), dict(numbers), note)

    @contract(id=_ID, note=_NOTE)
    def not_evaluated(self, id: str, *, note: str = "") -> None:
        """A claim declared ``expect='not-evaluated'`` (the declaration says why)."""
        s = self._declared(id, None)
        if s is None:
            return
        if s.expect != "not-evaluated":
            raise ValueError(f"claim {id!r} is declared with a criterion; record its numbers instead")
        self._not_evaluated(s, note)

    def _not_evaluated(self, s: Claim, note: str) -> None:
        self.rows[s.id] = {
            "id": s.id,
            "claim": s.claim,
            "paper": _plain(s.paper.value) if s.paper is not None else None,
            "ours": None,
            "tolerance": "—",
            "status": "not-evaluated",
            "scale": self.scale,
            "note": " ".join(x for x in (s.note.strip(), note.strip()) if x),
            "source": s.source,
            "where": s.where_text,
            "kind": s.kind,
            "atol": None,
            "rtol": None,
            "falsifier": None,
            "reference": _plain(s.reference),
            "criterion": None,
            "numbers": None,
            "expect": s.expect,
            **{k: (list(v) if isinstance(v, list) else v) for k, v in _NEW_DEFAULTS.items()},
            "implied_by": s.implied_by,
        }

    @contract(numbers=Instance(Mapping, example={}))
    def record(self, numbers: Mapping[str, Any]) -> None:
        """Record many claims at once, each by its declared kind, and glue the ``"_text"`` entry
        (values for the prose) with :meth:`text`.  Returns nothing, so that a cell ending in it
        shows no stray value.

        ``numbers`` maps a claim id to what its kind's method takes: for ``close``/``range`` the
        measured value (a number, array or :class:`~ldpnb.stats.Estimate`) or a mapping with
        ``ours`` (and ``se``, ``note``); for ``order`` a mapping with ``values`` (and
        ``differences``, ``note``), or the values themselves; for ``monotone`` the ``ys`` or a
        mapping with ``ys`` (and ``xs``, ``note``); for ``holds`` the mapping of named numbers (and
        ``note``); for a not-evaluated claim a note or None.  A claim not evaluated at this scale is
        skipped (:meth:`finalize` marks it).

        Examples
        --------
        ``report.record({"T3": 2.07, "F9a": {"values": {"IBU": 0.1, "INV-N": 0.2}},
        "H1": {"violations": 0, "instances": 300}, "_text": {"n": "1,000"}})``
        """
        if not isinstance(numbers, Mapping):
            raise TypeError("numbers must map claim ids to their numbers")
        unknown = [cid for cid in numbers if cid != "_text" and cid not in self.claims]
        if unknown:
            raise KeyError(f"claims {unknown} are not declared in the paper's claims table ({self.chapter})")
        for cid, nums in numbers.items():
            if cid == "_text":
                continue
            kind = self.claims[cid].kind
            m = dict(nums) if isinstance(nums, Mapping) and not isinstance(nums, Estimate) else None
            if kind in ("close", "range"):
                if m is None or "ours" not in m:
                    m = {"ours": nums}
                ours = m.pop("ours")
                getattr(self, kind)(cid, ours, **m)
            elif kind == "order":
                if m is None:
                    raise TypeError(f"claim {cid!r}: an order takes a mapping of values")
                if "values" not in m:
                    m = {"values": m}
                self.order(cid, m.pop("values"), **m)
            elif kind == "monotone":
                if m is None or "ys" not in m:
                    m = {"ys": nums}
                self.monotone(cid, m.pop("ys"), **m)
            elif kind == "holds":
                if m is None:
                    raise TypeError(f"claim {cid!r}: a holds claim takes a mapping of named numbers")
                self.holds(cid, **m)
            else:
                self.not_evaluated(cid, note=nums if isinstance(nums, str) else "")
        self.text(**dict(numbers.get("_text") or {}))

    def text(self, **values: Any) -> None:
        """Glue each value as ``<chapter>-<name>`` for ``{glue:text}`<chapter>-<name>``` in the
        prose (an :class:`~ldpnb.stats.Estimate` as ``value [low, high]``); a no-op outside a
        notebook kernel with myst-nb (a script, a test).

        Examples
        --------
        ``report.text(n_users=f"{n:,}", ratio=est)`` glues ``pie-n_users`` and ``pie-ratio``.
        """
        for name in values:
            if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.\-]*", name):
                raise ValueError(f"glue name must be letters, digits, _ . -, got {name!r}")
        try:
            from IPython import get_ipython  # noqa: PLC0415 lazy: the book's build only (myst-nb, IPython)
            from myst_nb import glue  # noqa: PLC0415 lazy: the book's build only (myst-nb, IPython)
        except ImportError:  # pragma: no cover - myst-nb is installed with the book extra
            return
        if get_ipython() is None:
            return
        for name, v in values.items():
            glue(f"{self.chapter}-{name}", v.text() if isinstance(v, Estimate) else v, display=False)

    @contract(name=Instance(str, example="total"), seconds=Real(0.0, None))
    def timing(self, name: str, seconds: float) -> None:
        """Record a measured duration (seconds); timings never enter the claims JSON."""
        self.timings[str(name)] = round(float(seconds), 4)

    # ------------------------------------------------------------------ outputs
    def ordered_rows(self) -> list[dict[str, Any]]:
        """Rows in the order of the claims table."""
        return [self.rows[i] for i in self.claims if i in self.rows]

    def counts(self) -> dict[str, int]:
        rows = self.ordered_rows()
        return {s: sum(r["status"] == s for r in rows) for s in STATUSES}

    def status_markdown(self) -> str:
        """The chapter's status line (glued under its title): the counts, and a link to the report's
        summary of the rows that do not pass."""
        rows = self.ordered_rows()
        text = f"**Reproduction status** (scale `{self.scale}`): {len(rows)} claims: {counts_text(rows)}"
        n_other = sum(r["status"] in _NOT_PASSING for r in rows)
        if n_other:
            text += (
                f". [The {n_other} row{'s' if n_other > 1 else ''} that do not pass]"
                f"(#report-{self.chapter}), with the paper's value, ours and why."
            )
        else:
            text += f" ([report](#report-{self.chapter}))."
        return text

    @contract(directory=_FOLDER)
    def save(self, directory: str | os.PathLike | None = None) -> Path:
        d = Path(directory) if directory is not None else build_dir() / "reproduction"
        d.mkdir(parents=True, exist_ok=True)
        p = d / f"{self.chapter}.json"
        rows = [{k: r[k] for k in KEYS} for r in self.ordered_rows()]
        p.write_text(
            json.dumps(rows, indent=1, ensure_ascii=False, sort_keys=False, allow_nan=False) + "\n", encoding="utf-8"
        )
        t = d / f"{self.chapter}.timings.json"
        if self.timings or self._volatile:
            t.write_text(
                json.dumps(
                    {"chapter": self.chapter, "scale": self.scale, "timings": self.timings, "claims": self._volatile},
                    indent=1,
                    allow_nan=False,
                )
                + "\n",
                encoding="utf-8",
            )
        elif t.exists():
            t.unlink()
        return p

    def to_html(self) -> str:
        """The report: a summary (counts, then every row that does not pass: id, status, the claim on
        one line, paper vs ours, the note's first sentence; the passing rows with a flag folded after
        it), then the full table in a collapsed block (id, status, claim with its place and note, paper
        or reference, ours, criterion), each table in a box that scrolls sideways; a link to a row
        opens the block (``book/_static/ldpnb.js``)."""
        return report_html(self.chapter, self.ordered_rows(), scale=self.scale, seed=self.seed)

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
            from IPython.display import HTML, Markdown, display  # noqa: PLC0415 lazy: the book's build only (myst-nb, IPython)

            display(HTML(self.to_html()))
            try:
                from myst_nb import glue  # noqa: PLC0415 lazy: the book's build only (myst-nb, IPython)

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
            raise ReproductionFailure(
                f"{len(failed)} claim(s) failed in chapter {self.chapter!r} at scale "
                f"{self.scale!r}: {', '.join(failed)}"
            )

    def __repr__(self) -> str:
        return f"Report({self.chapter!r}, scale={self.scale!r}, {self.counts()})"


@contract(directory=_FOLDER)
def load_reports(directory: str | os.PathLike | None = None) -> dict[str, list[dict[str, Any]]]:
    """Every ``<chapter>.json`` of the reproduction folder, with the volatile numbers merged back.

    Raises ``FileNotFoundError`` (naming it) when the folder does not exist, ``NotADirectoryError``
    when it is a file: a summary must not show "no chapters" for a wrong path.  A row written
    before the statistics layer (without its keys) gets them empty."""
    d = Path(directory) if directory is not None else build_dir() / "reproduction"
    if not d.exists():
        raise FileNotFoundError(f"the reproduction folder {d} does not exist (run the chapters first)")
    if not d.is_dir():
        raise NotADirectoryError(f"the reproduction folder {d} is not a folder")
    out: dict[str, list[dict[str, Any]]] = {}
    for p in sorted(d.glob("*.json")):
        if p.name.endswith(".timings.json"):
            continue
        rows = json.loads(p.read_text(encoding="utf-8"))
        if not isinstance(rows, list):
            raise ValueError(f"{p}: expected a list of rows")
        vol = load_timings(d).get(p.stem, {}).get("claims", {})
        for r in rows:
            if not set(_OLD_KEYS) <= set(r) or not set(r) <= set(KEYS):
                raise ValueError(f"{p}: row keys {sorted(r)} differ from {sorted(KEYS)}")
            for k, v in _NEW_DEFAULTS.items():
                r.setdefault(k, list(v) if isinstance(v, list) else v)
            if r["status"] not in STATUSES:
                raise ValueError(f"{p}: unknown status {r['status']!r}")
            if r["id"] in vol:
                r.update(vol[r["id"]])
        out[p.stem] = rows
    return out


@contract(directory=_FOLDER)
def load_timings(directory: str | os.PathLike | None = None) -> dict[str, dict[str, Any]]:
    """Every ``<chapter>.timings.json`` of the reproduction folder (an empty dict when it has none)."""
    d = Path(directory) if directory is not None else build_dir() / "reproduction"
    if not d.is_dir():
        raise FileNotFoundError(f"the reproduction folder {d} does not exist or is not a folder")
    return {
        p.name[: -len(".timings.json")]: json.loads(p.read_text(encoding="utf-8"))
        for p in sorted(d.glob("*.timings.json"))
    }
