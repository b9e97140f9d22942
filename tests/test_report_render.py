"""How a chapter's reproduction report and the claims dashboard are drawn (issue: reports that read as
summaries, a dashboard that answers "what did not reproduce?", phone and dark mode).

Two layers, on a small report built here (no book build needed):

- the HTML itself (``ldpnb.repro.report.report_html``, ``ldpnb.repro.dashboard``): the summary's
  counts, every row that does not pass listed (id, status, the claim, paper vs ours, the note's first
  sentence) and no passing row among them, the passing rows with a flag folded after it, the status
  column right after the id in both tables, a ``title`` with the whole value on every cut one, each
  table in a box that scrolls sideways; the dashboard's default columns and its cut long values;
- the same HTML with ``book/_static/ldpnb.css`` (and the theme's stylesheet, MathJax and DataTables
  when installed, as in the book) in headless Chromium at 1366 px and 390 px, in the light and the
  dark theme: the status column inside the text column, the page no wider than the screen, the
  badges' text at 4.5:1 and their glyphs at 3:1 contrast, the four statuses in four colours, and the
  dashboard's claims typeset.

The same checks on the built book are tests/test_browser.py's (``make test-built``).
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import sys
import tempfile
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest

from ldpnb.repro.claims import Claim, Printed
from ldpnb.repro.report import (
    STATUSES,
    Report,
    first_sentence,
    load_reports,
    report_html,
)
from ldpnb.stats import Estimate

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "book" / "_static"
NOT_PASSING = ("fail", "diverges", "undecided", "not-evaluated")

LONG_NOTE = (
    "The paper's threshold of Cor. 3.9 is in nats, e.g. 2.07 = 0.2 ln 10^6 - ln 2, while $\\alpha$ is "
    "defined in bits. In bits the threshold is 2.986. A third sentence that the summary leaves out."
)


def _claims() -> dict[str, Claim]:
    cs = [
        Claim("P1", "the $\\varepsilon$-LDP bound holds", source="paper", kind="close",
              paper=Printed(2.0, "Thm 1"), atol=0.01),
        Claim("P2", "a passing row whose criterion changed", source="paper", kind="close",
              paper=Printed(1.0, "Fig. 2"), atol=0.1),
        Claim("D1", "Cor. 3.9, $n = 10^6$: $\\beta_{U|S} > 0.8$ needs $\\alpha < 2.07$ (α in bits, as defined), "
              "a claim long enough to be cut on its one line in the summary of the report, and then some more "
              "words so that it certainly is longer than any column", source="paper", kind="close",
              paper=Printed(2.07, "Cor. 3.9"), atol=0.01, expect="diverges", instead="abs(ours - 2.986) <= 0.01",
              note=LONG_NOTE),
        Claim("D2", "our own expectation: RR below OLH everywhere", source="extension", kind="holds",
              rule="violations == 0", expect="diverges", instead="violations > 0", where="Sec. 6",
              note="Refuted at 37 of 4,096 points. The rest hold."),
        Claim("N1", "biometric FRR of Fig. 7", source="paper", kind="none", paper=Printed(0.05, "Fig. 7"),
              expect="not-evaluated", note="No public data. The figure uses a synthetic stand-in."),
        Claim("U1", "similar utility at the MLE", source="derived", kind="range", upper=1.5, one_sided=True,
              where="Sec. 7.6", domain=(0, None), effect=0.1),
    ]  # fmt: skip
    return {c.id: c for c in cs}


@pytest.fixture(scope="module")
def rows(tmp_path_factory) -> list[dict]:
    """The small report's rows, as the chapters write them (``_build/reproduction/demo.json``)."""
    d = tmp_path_factory.mktemp("build")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LDPNB_BUILD_DIR", str(d))
        r = Report("demo", _claims(), scale="smoke", seed=7)
        r.close("P1", 2.001)
        r.close("P2", 1.02)
        r.close("D1", 2.98631)
        r.holds("D2", violations=37, **{f"instances_{i}": 4096 + i for i in range(12)})
        r.range("U1", Estimate(1.578, 1.43, 1.73, n_runs=100, method="bootstrap-bca"))
        r.not_evaluated("N1")
        r.save()
    out = load_reports(d / "reproduction")["demo"]
    for x in out:  # a passing row with a flag (its criterion changed after a result was seen)
        if x["id"] == "P2":
            x["flags"] = ["criterion changed"]
    return out


# ----------------------------------------------------------------------------------- a tiny DOM
class _El:
    def __init__(self, tag: str, attrs: dict, parent: _El | None):
        self.tag, self.attrs, self.parent, self.children, self.text = tag, attrs, parent, [], ""

    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def all(self, tag: str | None = None, cls: str | None = None) -> list[_El]:
        out = []
        for c in self.children:
            if (tag is None or c.tag == tag) and (cls is None or cls in c.classes()):
                out.append(c)
            out.extend(c.all(tag, cls))
        return out

    def inner_text(self) -> str:
        return self.text + "".join(c.inner_text() for c in self.children)

    def ancestors(self) -> list[_El]:
        out, p = [], self.parent
        while p is not None:
            out.append(p)
            p = p.parent
        return out


class _Dom(HTMLParser):
    VOID = {"col", "br", "img", "input", "meta", "link", "wbr", "hr"}

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.root = _El("#root", {}, None)
        self.cur = self.root
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        el = _El(tag, dict(attrs), self.cur)
        self.cur.children.append(el)
        if tag not in self.VOID:
            self.cur = el

    def handle_endtag(self, tag):
        p = self.cur
        while p is not None and p.tag != tag:
            p = p.parent
        if p is not None and p.parent is not None:
            self.cur = p.parent

    def handle_data(self, data):
        if self.cur.children:  # text after a child: kept with the child's tail, in order
            self.cur.children.append(_Text(data, self.cur))
        else:
            self.cur.text += data


class _Text(_El):
    def __init__(self, data: str, parent: _El):
        super().__init__("#text", {}, parent)
        self.text = data

    def all(self, tag=None, cls=None):
        return []


def _headers(table: _El) -> list[str]:
    return [th.inner_text().strip() for th in table.all("th")]


# ---------------------------------------------------------------------------------- the HTML
def test_summary_counts_every_status(rows):
    dom = _Dom(report_html("demo", rows, scale="smoke", seed=7)).root
    chips = {}
    for li in dom.all("ul")[0].all("li"):
        badge = li.all("span", "ldpnb-badge")
        if badge:
            status = next(c[len("status-") :] for c in badge[0].classes() if c.startswith("status-"))
            chips[status] = int(li.all("b")[0].inner_text())
    want = {s: sum(r["status"] == s for r in rows) for s in STATUSES}
    assert chips == {s: n for s, n in want.items() if n}
    assert chips["diverges"] == 2 and chips["not-evaluated"] == 1 and chips["pass"] == 2
    assert "criterion changed" in dom.all("ul")[0].inner_text()
    buttons = dom.all("ul")[0].all("button", "ldpnb-chip")  # each count filters the full table (ldpnb.js)
    assert [b.attrs["data-filter"] for b in buttons] == [
        *(f"status-{s}" for s in STATUSES if want[s]),
        "flag-criterion-changed",
    ]


def test_summary_lists_every_row_that_does_not_pass(rows):
    text = report_html("demo", rows, scale="smoke", seed=7)
    dom = _Dom(text).root
    summary = [t for t in dom.all("table", "ldpnb-summary") if not any(a.tag == "details" for a in t.ancestors())]
    assert len(summary) == 1
    listed = [tr.all("a")[0].inner_text() for tr in summary[0].all("tbody")[0].all("tr")]
    failing = [r for r in rows if r["status"] in NOT_PASSING]
    assert sorted(listed) == sorted(r["id"] for r in failing) and "P1" not in listed
    # failures first, then in the order of the statuses: diverges, undecided, not evaluated
    order = [next(r["status"] for r in rows if r["id"] == i) for i in listed]
    assert order == sorted(order, key=NOT_PASSING.index)
    by_id = {tr.all("a")[0].inner_text(): tr for tr in summary[0].all("tbody")[0].all("tr")}
    for r in failing:
        tr = by_id[r["id"]]
        cells = tr.all("td")
        assert r["status"].replace("-", " ") in cells[1].inner_text()  # the badge's word
        what = cells[2]
        claim = what.all("div", "ldpnb-claim")[0]
        assert claim.attrs["title"].startswith(r["claim"][:10].replace("$", "")[:5])
        vals = what.all("span", "ldpnb-vals")[0].inner_text()
        assert "ours" in vals
        if r["note"]:
            why = what.all("span", "ldpnb-why")[0].inner_text()
            assert html.unescape(why).strip().replace("\\(", "$").replace("\\)", "$") == first_sentence(r["note"], 240)
    d1 = by_id["D1"]
    assert "In bits the threshold is 2.986" not in d1.inner_text(), "only the note's first sentence"
    assert "paper claim refuted" in d1.all("td")[1].inner_text()
    assert "our expectation refuted" in by_id["D2"].all("td")[1].inner_text()
    # the passing row with a flag: folded after the summary, not among the rows that do not pass
    folded = [d for d in dom.all("details") if "ldpnb-report-flagged" in d.classes()]
    assert len(folded) == 1 and "P2" in folded[0].inner_text() and "1 pass with a flag" in folded[0].inner_text()


def test_status_is_the_column_after_the_id(rows):
    dom = _Dom(report_html("demo", rows, scale="smoke")).root
    for cls in ("ldpnb-summary", "reproduction-report"):
        for t in dom.all("table", cls):
            assert _headers(t)[:2] == ["id", "status"], (cls, _headers(t))
            for tr in t.all("tbody")[0].all("tr"):
                assert "ldpnb-st" in tr.all("td")[1].classes()
                assert tr.all("td")[1].all("span", "ldpnb-badge")
    full = dom.all("table", "reproduction-report")[0]
    assert len(full.all("tbody")[0].all("tr")) == len(rows)
    assert any(a.tag == "details" and "ldpnb-report-full" in a.classes() for a in full.ancestors())


def test_cut_values_carry_the_whole_in_their_title(rows):
    text = report_html("demo", rows, scale="smoke")
    dom = _Dom(text).root
    cut = dom.all("span", "ldpnb-trunc")
    assert cut, "the long 'ours' of D2 is cut"
    for s in cut:
        title = s.attrs.get("title") or ""
        shown = s.inner_text().strip()
        assert title.strip() and shown.endswith("…")
        assert len(title) > len(shown) - 2 and "$" not in title  # TeX as plain text
    assert any("instances_11 = 4107" in s.attrs["title"] for s in cut), "the whole of D2's numbers on hover"
    for c in dom.all(None, "ldpnb-clamp"):
        assert (c.attrs.get("title") or "").strip(), "a text clamped to its lines has its whole in a title"
    d1 = [c for c in dom.all("div", "ldpnb-claim") if "Cor. 3.9" in c.attrs["title"]][0]
    assert "β_U|S > 0.8" in d1.attrs["title"] and "words so that it certainly" in d1.attrs["title"]


def test_tables_scroll_inside_their_own_box(rows):
    dom = _Dom(report_html("demo", rows, scale="smoke")).root
    for t in dom.all("table"):
        assert "ldpnb-scroll" in t.parent.classes(), f"a report table outside its scroll box: {t.attrs}"
    css = (STATIC / "ldpnb.css").read_text(encoding="utf-8")
    assert re.search(r"\.ldpnb-scroll\s*\{[^}]*overflow-x:\s*auto", css)


def test_every_row_passes_says_so():
    ok = {
        "id": "T1", "claim": "c", "paper": 1.0, "ours": 1.0, "tolerance": "atol 0.1", "status": "pass",
        "scale": "smoke", "note": "", "source": "paper", "where": "Thm 1", "kind": "close", "reference": None,
        "flags": [], "estimate": None,
    }  # fmt: skip
    text = report_html("demo", [ok], scale="smoke")
    assert "Every row passes." in text and "ldpnb-summary" not in text.split("ldpnb-report-full")[0]


def _demo_claims_frame(rows, tmp_path):
    pytest.importorskip("pandas")
    from ldpnb.repro.dashboard import claims_frame

    d = tmp_path / "reproduction"
    d.mkdir()
    (d / "demo.json").write_text(json.dumps(rows), encoding="utf-8")
    return claims_frame(d)


def test_dashboard_html_default_columns_and_cut_values(rows, tmp_path):
    pytest.importorskip("itables")
    from ldpnb.repro.dashboard import DEFAULT_COLUMNS, _dashboard_html

    claims = _demo_claims_frame(rows, tmp_path)
    page = _dashboard_html(claims)
    assert "claims-dashboard" in page and "unpkg.com" not in page, "DataTables from the page, not a CDN"
    assert 'fallback"' not in page, "no static copy with raw TeX"
    # the long 'ours' of D2 is cut, its whole in the title; the claims' TeX goes to MathJax as \( \)
    assert "instances_11 = 4107" in page and "ldpnb-trunc" in page
    one = re.sub(r"\\+", lambda m: "\\", page)  # the rows sit JSON-escaped in the page's script
    assert "\\(\\beta_{U|S} &gt; 0.8\\)" in one
    at = page.find('"columnDefs": ')
    assert at > 0, "the column definitions are in the page"
    defs, _ = json.JSONDecoder().raw_decode(page[at + len('"columnDefs": ') :])
    hidden = [d for d in defs if d.get("visible") is False]
    cols = [*DEFAULT_COLUMNS]
    assert hidden and all(t >= len(cols) for t in hidden[0]["targets"]), "the default columns come first, shown"


def test_errata_split_paper_claims_from_our_expectations(rows, tmp_path):
    from ldpnb.repro.dashboard import errata_html

    claims = _demo_claims_frame(rows, tmp_path)
    text = errata_html(claims)
    paper, ours = text.split("Our own expectations refuted")
    assert "Paper claims refuted" in paper and ">D1<" in paper and ">D2<" not in paper
    assert ">D2<" in ours and ">D1<" not in ours


# ---------------------------------------------------------------------------- in a real browser
WIDTHS = {"desktop": (1366, 900, False), "phone": (390, 844, True)}
THEMES = ("light", "dark")


def _unavailable(why: str):
    if os.environ.get("CI"):
        pytest.fail(f"{why} (CI must run the browser test: .ci/run installs chromium and chromium-driver)")
    pytest.skip(why)


def _theme_css() -> Path | None:
    try:
        import pydata_sphinx_theme  # noqa: PLC0415 the book's theme (book extra)
    except ImportError:
        return None
    p = Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme" / "static" / "styles"
    return p / "pydata-sphinx-theme.css" if (p / "pydata-sphinx-theme.css").exists() else None


def _mathjax() -> Path | None:
    try:
        import importlib.metadata as md  # noqa: PLC0415

        dist = md.distribution("sphinx-mathjax-offline")
    except Exception:
        return None
    for f in dist.files or []:
        if f.name == "tex-chtml.js":
            return Path(str(dist.locate_file(f)))
    return None


#: Without the theme's stylesheet: its colours (pydata-sphinx-theme 0.15), enough for the contrast test.
_FALLBACK_THEME = """
html { --pst-color-background: #fff; --pst-color-text-base: #222832; --pst-color-text-muted: #48566b;
       --pst-color-border: #d1d5da; --pst-color-surface: #f3f4f5; --pst-color-primary: #0a7d91;
       --pst-color-link: #0a7d91; --pst-color-on-background: #fff; }
html[data-theme="dark"] { --pst-color-background: #14181e; --pst-color-text-base: #ced6dd;
       --pst-color-text-muted: #9ca4af; --pst-color-border: #48566b; --pst-color-surface: #29313d;
       --pst-color-primary: #3fb1c5; --pst-color-link: #3fb1c5; --pst-color-on-background: #1e2329; }
body { background: var(--pst-color-background); color: var(--pst-color-text-base); }
html[data-theme=dark] .bd-content div.cell_output .text_html:not(:has(table.dataframe)) {
  background-color: var(--pst-color-text-base); color: var(--pst-color-on-background); padding: .5rem; }
"""

#: The book's text column: 757 px at 1366 px (pydata-sphinx-theme with both sidebars), the screen less
#: 16 px on each side on a phone.
_LAYOUT = """
body { margin: 0; font-family: sans-serif; font-size: 16px; line-height: 1.65; }
article.bd-article { box-sizing: border-box; max-width: 789px; margin: 0 auto; padding: 0 16px; }
"""


def _page(body: str, theme: str, extra_head: str = "") -> str:
    theme_css = _theme_css()
    mj = _mathjax()
    head = [
        '<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<link rel="stylesheet" href="{theme_css.as_uri()}">' if theme_css else f"<style>{_FALLBACK_THEME}</style>",
        f"<style>{_LAYOUT}</style>",
        f'<link rel="stylesheet" href="{(STATIC / "ldpnb.css").as_uri()}">',
        f'<script src="{(STATIC / "ldpnb.js").as_uri()}"></script>',
    ]
    if mj:
        head.append(
            '<script>window.MathJax = {"options": {"processHtmlClass": "tex2jax_process|mathjax_process|math|'
            'output_area"}}</script>'
            f'<script defer src="{mj.as_uri()}"></script>'
        )
    return (
        f'<!DOCTYPE html><html lang="en" data-theme="{theme}" data-mode="{theme}"><head>{"".join(head)}'
        f'{extra_head}</head><body><div class="bd-content"><article class="bd-article">'
        f'<div class="cell_output docutils container"><div class="output text_html">{body}</div></div>'
        "</article></div></body></html>"
    )


@pytest.fixture(scope="module")
def chromium():
    try:
        from selenium import webdriver  # noqa: PLC0415
        from selenium.webdriver.chrome.service import Service  # noqa: PLC0415
    except ImportError:
        _unavailable("selenium is not installed (pip install -e '.[test]')")
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver") or (
        "/usr/bin/chromedriver" if Path("/usr/bin/chromedriver").exists() else None
    )
    if not exe or not driver:
        _unavailable("Chromium or chromedriver not found (Debian: apt-get install chromium chromium-driver)")
    profile = tempfile.mkdtemp(prefix="ldpnb-render-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = exe
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--host-resolver-rules=MAP * ~NOTFOUND", "--allow-file-access-from-files",
                 f"--user-data-dir={profile}"):  # fmt: skip
        opts.add_argument(flag)
    d = webdriver.Chrome(service=Service(driver), options=opts)
    d.set_script_timeout(60)
    try:
        yield d
    finally:
        d.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _open(d, path: Path, width: str) -> None:
    w, h, mobile = WIDTHS[width]
    d.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": mobile}
    )
    d.get(path.as_uri())
    d.execute_async_script("""
      const done = arguments[arguments.length - 1]; const t0 = Date.now();
      (function wait() {
        if (window.MathJax && MathJax.startup && MathJax.startup.promise) MathJax.startup.promise.then(() => done());
        else if (Date.now() - t0 > 15000) done(); else setTimeout(wait, 100);
      })();""")


sys.path.insert(0, str(Path(__file__).parent))
from test_browser import _CONTRAST_JS, _GLYPH_JS, SUMMARY_ROW_PX  # noqa: E402 contrast of a text, of a badge's glyph


def _badges_are_distinct_and_readable(d, where: str) -> None:
    found = json.loads(d.execute_script(_CONTRAST_JS, ".ldpnb-badge, .ldpnb-flag, .ldpnb-badge-kind, .ldpnb-k, "
                                           ".ldpnb-report-title, .ldpnb-report-lead, .ldpnb-summary td, "
                                           "details > summary, table.claims-dashboard td"))  # fmt: skip
    low = [f for f in found if f["ratio"] < 4.5]
    assert found and not low, f"{where}: texts below 4.5:1: {low[:5]}"
    glyphs = d.execute_script(_GLYPH_JS, ".ldpnb-badge")
    weak = [g for g in glyphs if g["glyph"] < 3]
    assert glyphs and not weak, f"{where}: status glyphs below 3:1 on their badge: {weak[:5]}"
    borders = {g["status"]: g["border"] for g in glyphs}
    main = [s for s in ("status-pass", "status-diverges", "status-undecided", "status-not-evaluated") if s in borders]
    assert len({borders[s] for s in main}) == len(main), f"{where}: statuses drawn in the same colour: {borders}"


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("width", list(WIDTHS))
def test_report_in_the_browser(chromium, rows, tmp_path, width, theme):
    page = tmp_path / "report.html"
    page.write_text(_page(report_html("demo", rows, scale="smoke", seed=7), theme), encoding="utf-8")
    _open(chromium, page, width)
    r = chromium.execute_script("""
      const rep = document.querySelector('.ldpnb-report');
      rep.querySelectorAll('details').forEach(d => d.open = true);
      const col = document.querySelector('article.bd-article');
      const cs = getComputedStyle(col);
      const right = col.getBoundingClientRect().right - parseFloat(cs.paddingRight);
      const left = col.getBoundingClientRect().left + parseFloat(cs.paddingLeft);
      const st = Array.from(rep.querySelectorAll('td.ldpnb-st')).map(c => c.getBoundingClientRect());
      const heads = Array.from(rep.querySelectorAll('table'))
        .map(t => Array.from(t.querySelectorAll('thead th')).map(h => h.innerText.trim()));
      const clamped = Array.from(rep.querySelectorAll('.ldpnb-clamp')).filter(c => c.scrollHeight > c.clientHeight + 1);
      const summary = rep.querySelector('table.ldpnb-summary');
      const tallest = Math.max(...Array.from(summary.tBodies[0].rows).map(tr => tr.getBoundingClientRect().height));
      return {n: st.length, out: st.filter(b => b.right > right + 1 || b.left < left - 1).length, right, left, tallest,
              maxRight: Math.max(...st.map(b => b.right)), sw: document.documentElement.scrollWidth, w: innerWidth,
              heads, clamped: clamped.length, clampedUntitled: clamped.filter(c => !(c.title || '').trim()).length,
              truncUntitled: Array.from(rep.querySelectorAll('.ldpnb-trunc')).filter(t => !(t.title || '').trim()).length,
              rawTex: (rep.querySelector('table.ldpnb-summary').innerText.match(/\\\\\\(|\\$/g) || []).length,
              mjx: rep.querySelectorAll('mjx-container').length, mathjax: !!window.MathJax};
    """)
    where = f"report at {width}, {theme}"
    assert r["n"] == len(rows) + sum(x["status"] in NOT_PASSING for x in rows) + 1, r  # full + summary + folded
    assert r["out"] == 0, f"{where}: status beyond the column edge {r['right']:.0f} (furthest at {r['maxRight']:.0f})"
    assert all(h[:2] == ["id", "status"] for h in r["heads"]), r["heads"]
    assert r["sw"] <= r["w"], f"{where}: the page is {r['sw']} px wide on a {r['w']} px screen"
    assert r["truncUntitled"] == 0 and r["clampedUntitled"] == 0, r
    assert r["tallest"] <= SUMMARY_ROW_PX[width], f"{where}: a summary row is {r['tallest']:.0f} px tall"
    if r["mathjax"]:
        assert r["mjx"] > 0 and r["rawTex"] == 0, f"{where}: TeX left raw in the summary: {r}"
    _badges_are_distinct_and_readable(chromium, where)
    # the counts filter the full table: a click shows only their rows, a second click all of them
    filt = chromium.execute_script("""
      const rep = document.querySelector('.ldpnb-report');
      rep.querySelectorAll('details').forEach(d => d.open = false);
      const shown = () => Array.from(rep.querySelectorAll('table.reproduction-report tbody tr'))
        .filter(tr => tr.getClientRects().length).map(tr => tr.id.split('-').pop());
      const chip = k => rep.querySelector('button.ldpnb-chip[data-filter="' + k + '"]');
      chip('status-diverges').click();
      const div = shown(), open = rep.querySelector('details.ldpnb-report-full').open,
            note = rep.querySelector('details.ldpnb-report-full summary').innerText;
      chip('flag-criterion-changed').click();
      const flagged = shown();
      chip('flag-criterion-changed').click();
      return {div, open, note, flagged, all: shown().length,
              pressed: rep.querySelectorAll('button.ldpnb-chip[aria-pressed="true"]').length};
    """)
    assert sorted(filt["div"]) == ["D1", "D2"] and filt["open"], f"{where}: the 'diverges' count shows {filt}"
    assert "showing the 2 of 6 rows" in filt["note"], filt["note"]
    assert filt["flagged"] == ["P2"] and filt["all"] == len(rows) and filt["pressed"] == 0, filt


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("width", list(WIDTHS))
def test_dashboard_in_the_browser(chromium, rows, tmp_path, width, theme):
    itables = pytest.importorskip("itables")
    from itables.javascript import generate_init_offline_itables_html  # noqa: PLC0415

    from ldpnb.repro.dashboard import DEFAULT_COLUMNS, _dashboard_html  # noqa: PLC0415

    claims = _demo_claims_frame(rows, tmp_path)
    lib = generate_init_offline_itables_html(itables.options.dt_bundle)
    page = tmp_path / "dashboard.html"
    page.write_text(_page(f'<div class="cell_output"><div class="output text_html">{lib}</div></div>', theme)
                    .replace("</article>", f'<div class="cell_output docutils container"><div class="output text_html">'
                             f"{_dashboard_html(claims)}</div></div></article>"), encoding="utf-8")  # fmt: skip
    _open(chromium, page, width)
    deadline = time.time() + 30
    while time.time() < deadline and not chromium.execute_script(
        "const c = document.querySelector('table.claims-dashboard'); const w = c && c.closest('.dt-container');"
        "return w && w.querySelector('tbody tr') && (!window.MathJax || w.getAttribute('data-typeset'))"
    ):
        time.sleep(0.2)
    r = chromium.execute_script("""
      const t = document.querySelector('table.claims-dashboard');
      const heads = Array.from(t.querySelectorAll('thead th'))
        .map(h => ((h.querySelector('input') || {}).placeholder || h.innerText.trim()));
      const col = document.querySelector('article.bd-article');
      const right = col.getBoundingClientRect().right - parseFloat(getComputedStyle(col).paddingRight);
      const st = Array.from(t.querySelectorAll('thead th'))[heads.indexOf('status')];
      const claims = Array.from(t.querySelectorAll('tbody tr')).map(r => r.cells[heads.indexOf('claim')].innerText);
      return {heads: [...new Set(heads)], statusRight: st.getBoundingClientRect().right, right,
              rows: t.querySelectorAll('tbody tr').length, raw: claims.filter(c => /\\$|\\\\\\(/.test(c)).length,
              mjx: t.querySelectorAll('mjx-container').length, mathjax: !!window.MathJax,
              sw: document.documentElement.scrollWidth, w: innerWidth,
              frame: getComputedStyle(t.closest('div.text_html')).backgroundColor,
              untitled: Array.from(t.querySelectorAll('.ldpnb-trunc')).filter(x => !(x.title || '').trim()).length};
    """)
    where = f"dashboard at {width}, {theme}"
    assert r["heads"] == list(DEFAULT_COLUMNS), f"{where}: columns {r['heads']}"
    assert r["rows"] == len(rows)
    assert r["statusRight"] <= r["right"] + 1, f"{where}: status column ends at {r['statusRight']} > {r['right']}"
    assert r["sw"] <= r["w"], f"{where}: the page is {r['sw']} px wide on a {r['w']} px screen"
    assert r["untitled"] == 0
    if r["mathjax"]:
        assert r["raw"] == 0 and r["mjx"] > 0, f"{where}: claims with raw TeX: {r}"
    if theme == "dark":
        assert r["frame"] in ("rgba(0, 0, 0, 0)", "transparent"), f"{where}: the table sits on {r['frame']}"
    _badges_are_distinct_and_readable(chromium, where)
