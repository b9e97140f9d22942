"""The built book in a real browser: headless Chromium opens ``_build/html`` from disk, offline.

Run by ``.ci/run`` after ``make book`` (marked ``built``; ``make test`` runs before the book exists).
Chromium is Debian's ``chromium`` + ``chromium-driver`` (``.ci/run`` installs them when missing);
every host name resolves to nothing (``--host-resolver-rules``), so a page that needs the network
fails here.  Checks:

- every page loads without requesting anything but local files (no CDN);
- equations are typeset by the bundled MathJax: every ``.math`` element holds an ``mjx-container``,
  no raw ``\\(``, ``\\[`` or ``$$`` is left in the text, and no display equation sticks out of the
  column (a wide one scrolls inside it);
- figures load (``naturalWidth > 0``), each ``<figure>`` has a numbered caption ("Figure N") and
  alt text that is not a file hash; chapters on the claims machinery have captioned figures;
- the claims dashboard sorts (by status, both ways) and filters (by chapter);
- code blocks of chapters on the claims machinery fit the column (no sideways scroll);
- each chapter offers its ``.py`` source for download.

Screenshots of the landing page, the top of a chapter and the dashboard are kept in
``_build/screenshots/``.  Outside CI, a machine without Chromium or without a built book skips.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from ldpnb.repro.nbcheck import uses_claims_machinery

ROOT = Path(__file__).resolve().parents[1]
HTML = Path(os.environ.get("LDPNB_HTML_DIR", ROOT / "_build" / "html"))
SHOTS = ROOT / "_build" / "screenshots"
BOOK = ROOT / "book"
PAGES = sorted(p.stem for p in BOOK.glob("*.py")) + ["intro", "bibliography"]
NEW = sorted(p.stem for p in BOOK.glob("*.py") if uses_claims_machinery(p.read_text(encoding="utf-8")))
CHAPTER_SHOT = "foundations"

pytestmark = pytest.mark.built

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-quic", "--window-size=1280,1000",
         "--host-resolver-rules=MAP * ~NOTFOUND"]


def _unavailable(why: str):
    if os.environ.get("CI"):
        pytest.fail(f"{why} (CI must run the browser test: .ci/run installs chromium and chromium-driver)")
    pytest.skip(why)


@pytest.fixture(scope="module")
def browser():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _unavailable("selenium is not installed (pip install -e '.[test]')")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if Path("/usr/bin/chromedriver").exists() else None)
    if not chromium or not driver:
        _unavailable("Chromium or chromedriver not found (Debian: apt-get install chromium chromium-driver)")
    if not (HTML / "index.html").exists():
        _unavailable(f"{HTML / 'index.html'} does not exist: run `make book` first")
    profile = tempfile.mkdtemp(prefix="ldpnb-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for flag in [*FLAGS, f"--user-data-dir={profile}"]:
        opts.add_argument(flag)
    d = webdriver.Chrome(service=Service(driver), options=opts)
    d.set_page_load_timeout(60)
    d.set_script_timeout(60)
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        yield d
    finally:
        d.quit()
        shutil.rmtree(profile, ignore_errors=True)


_WAIT_MATHJAX = """
const done = arguments[arguments.length - 1];
const t0 = Date.now();
(function wait() {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    MathJax.startup.promise.then(() => done("ok")).catch(e => done("error: " + e));
  } else if (Date.now() - t0 > 20000) {
    done(window.MathJax ? "MathJax never started" : "no MathJax on the page");
  } else { setTimeout(wait, 100); }
})();
"""


def _page(name: str) -> Path:
    return HTML / "book" / f"{name}.html"


def open_page(d, name: str) -> str:
    """Open a page from disk, wait for the load and for MathJax; return MathJax's state."""
    path = _page(name)
    if not path.exists():
        pytest.fail(f"{path} was not built")
    d.get(path.as_uri())
    state = d.execute_async_script(_WAIT_MATHJAX)
    remote = d.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)"
        ".filter(n => !n.startsWith('file:') && !n.startsWith('data:') && !n.startsWith('blob:'))")
    assert not remote, f"{name}: the page requested the network: {remote}"
    return state


@pytest.mark.parametrize("name", PAGES)
def test_equations_are_typeset_offline(browser, name):
    state = open_page(browser, name)
    assert state == "ok", f"{name}: MathJax: {state}"
    r = browser.execute_script("""
      const main = document.querySelector('main') || document.body;
      const math = Array.from(main.querySelectorAll('.math'));
      const untypeset = math.filter(m => !m.querySelector('mjx-container')).map(m => m.textContent.slice(0, 80));
      const prose = main.cloneNode(true);
      prose.querySelectorAll('pre, code, script, style, textarea, mjx-container, .cell_input')
           .forEach(e => e.remove());
      const text = prose.textContent;
      const raw = (text.match(/\\\\\\(|\\\\\\[|\\$\\$/g) || []).length;
      const col = (document.querySelector('article.bd-article') || main).getBoundingClientRect();
      const sticking = Array.from(main.querySelectorAll('mjx-container[display="true"]')).filter(el => {
        const box = el.getBoundingClientRect();
        return box.right > col.right + 2;
      }).map(el => el.textContent.slice(0, 60));
      const clipped = Array.from(main.querySelectorAll('mjx-container[display="true"]')).filter(el => {
        const ov = getComputedStyle(el).overflowX;
        return el.scrollWidth > el.clientWidth + 1 && !(ov === 'auto' || ov === 'scroll');
      }).length;
      return {n_math: math.length, n_mjx: main.querySelectorAll('mjx-container').length, untypeset, raw,
              sticking, clipped};
    """)
    assert not r["untypeset"], f"{name}: math left untypeset: {r['untypeset'][:5]}"
    assert r["raw"] == 0, f"{name}: {r['raw']} raw TeX delimiter(s) left in the text"
    if r["n_math"]:
        assert r["n_mjx"] >= r["n_math"], f"{name}: {r['n_math']} math elements, {r['n_mjx']} typeset"
    assert not r["sticking"], f"{name}: display equations sticking out of the column: {r['sticking']}"
    assert r["clipped"] == 0, f"{name}: {r['clipped']} display equation(s) clipped without a scroll bar"


def test_a_chapter_has_equations(browser):
    open_page(browser, "foundations")
    n = browser.execute_script("return document.querySelectorAll('main mjx-container').length")
    assert n >= 20, f"foundations shows only {n} typeset equations"


@pytest.mark.parametrize("name", PAGES)
def test_figures_load_with_captions(browser, name):
    open_page(browser, name)
    r = browser.execute_script("""
      const main = document.querySelector('main') || document.body;
      const imgs = Array.from(main.querySelectorAll('img'));
      const broken = imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.getAttribute('src'));
      const figs = Array.from(main.querySelectorAll('figure'));
      // textContent, not innerText: a figure in a collapsed <details> block (the paper-scale gallery
      // of the reproduction page) is captioned but not rendered, and its innerText is empty
      const uncaptioned = figs.filter(f => {
        const c = f.querySelector('figcaption');
        return !c || c.textContent.trim().length < 10 || !f.querySelector('.caption-number');
      }).map(f => (f.id || f.textContent.slice(0, 40)));
      const numbers = figs.map(f => (f.querySelector('.caption-number') || {}).textContent || '');
      const alts = figs.flatMap(f => Array.from(f.querySelectorAll('img')).map(i => i.getAttribute('alt') || ''));
      return {n_img: imgs.length, broken, n_fig: figs.length, uncaptioned, numbers, alts};
    """)
    assert not r["broken"], f"{name}: images that did not load: {r['broken'][:5]}"
    assert not r["uncaptioned"], f"{name}: figures without a numbered caption: {r['uncaptioned']}"
    for num in r["numbers"]:
        assert re.fullmatch(r"Figure [\d.]+\s*", num), f"{name}: caption number {num!r} (expected 'Figure N')"
    for alt in r["alts"]:
        assert alt.strip() and not re.fullmatch(r"[0-9a-f]{32,}(\.\w+)?", alt.strip()), \
            f"{name}: figure alt text {alt!r} does not describe the figure"
    if name in NEW:
        assert r["n_fig"] >= 1, f"{name} is on the claims machinery but has no captioned figure"


@pytest.mark.parametrize("name", NEW)
def test_code_fits_the_column(browser, name):
    """Code lines of at most 88 characters fit the column of a 1280 px window: no sideways scroll."""
    open_page(browser, name)
    wide = browser.execute_script(
        "return Array.from(document.querySelectorAll('main div.cell_input pre'))"
        ".filter(p => p.scrollWidth > p.clientWidth + 1).map(p => p.innerText.split('\\n')[0].slice(0, 60))")
    assert not wide, f"{name}: code blocks scrolling sideways: {wide}"


@pytest.mark.parametrize("name", [n for n in NEW if n != "reproduction"])
def test_chapter_offers_its_py_source(browser, name):
    open_page(browser, name)
    hrefs = browser.execute_script(
        "return Array.from(document.querySelectorAll('a')).map(a => a.href).filter(h => h.endsWith('.py'))")
    local = [h for h in hrefs if h.startswith("file:")]
    assert local, f"{name}: no link to its .py source"
    assert Path(unquote(urlparse(local[0]).path)).exists(), f"{name}: {local[0]} is missing"
    edit = [h for h in hrefs if "/edit/" in h]
    assert edit and edit[0].endswith(f"book/{name}.py"), f"{name}: the edit button does not point at the .py"


def test_screenshots_of_intro_and_chapter(browser):
    open_page(browser, "intro")
    text = browser.execute_script("return document.querySelector('main').innerText")
    assert "{{" not in text, "a substitution was left unexpanded on the landing page"
    assert re.search(r"\d+ claims in \d+ chapters", text), "the landing page lacks the book's claim totals"
    assert re.search(r"took \d+ s", text), "the landing page lacks this build's measured time"
    browser.save_screenshot(str(SHOTS / "intro.png"))
    open_page(browser, CHAPTER_SHOT)
    browser.save_screenshot(str(SHOTS / f"chapter-{CHAPTER_SHOT}.png"))
    assert (SHOTS / "intro.png").stat().st_size > 10_000


def _dashboard_state(d) -> dict:
    return d.execute_script("""
      const t = document.querySelector('table.claims-dashboard');
      const w = t.closest('.dt-container, .dataTables_wrapper');
      const heads = Array.from(t.querySelectorAll('thead th'));
      const col = name => heads.findIndex(h => (h.querySelector('input') || {}).placeholder === name
                                              || h.innerText.trim() === name);
      const rows = Array.from(t.querySelectorAll('tbody tr')).map(r => Array.from(r.cells).map(c => c.innerText.trim()));
      return {info: (w.querySelector('.dt-info, .dataTables_info') || {}).innerText || '',
              rows, chapter: col('chapter'), status: col('status')};
    """)


def _total(info: str) -> tuple[int, int]:
    nums = [int(x.replace(",", "")) for x in re.findall(r"[\d,]+", info)]
    return nums[2], (nums[3] if len(nums) > 3 else nums[2])


def test_dashboard_sorts_and_filters(browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    open_page(browser, "reproduction")
    deadline = time.time() + 30
    while time.time() < deadline and not browser.find_elements(By.CSS_SELECTOR, "table.claims-dashboard tbody tr"):
        time.sleep(0.2)
    s = _dashboard_state(browser)
    assert s["rows"] and s["chapter"] >= 0 and s["status"] >= 0, "the claims dashboard did not load"
    shown, total = _total(s["info"])
    assert total >= 10, f"the dashboard lists {total} claims"
    browser.execute_script("document.querySelector('table.claims-dashboard').closest('.dt-container')"
                           ".scrollIntoView({block: 'start'}); window.scrollBy(0, -80);")
    time.sleep(0.3)
    browser.save_screenshot(str(SHOTS / "dashboard.png"))

    # filter: the chapter column's search box
    chapter = NEW[0] if NEW else s["rows"][0][s["chapter"]]
    box = browser.find_elements(By.CSS_SELECTOR, "table.claims-dashboard thead th input")[s["chapter"]]
    box.send_keys(chapter)
    time.sleep(0.8)
    f = _dashboard_state(browser)
    kept, of = _total(f["info"])
    assert 0 < kept < total, f"filtering on {chapter!r}: {f['info']!r}"
    assert all(r[f["chapter"]] == chapter for r in f["rows"]), f"filter on {chapter!r} kept other chapters"
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.DELETE)
    time.sleep(0.8)
    assert _total(_dashboard_state(browser)["info"])[0] == shown

    # sort: the status column, ascending then descending
    order = browser.find_elements(By.CSS_SELECTOR, "table.claims-dashboard thead th")[s["status"]]
    handle = order.find_elements(By.CSS_SELECTOR, ".dt-column-order") or [order]
    statuses = []
    for _ in range(2):
        browser.execute_script("arguments[0].click()", handle[0])
        time.sleep(0.8)
        st = _dashboard_state(browser)
        statuses.append([r[st["status"]] for r in st["rows"]])
    asc, desc = statuses
    assert asc == sorted(asc), f"ascending sort by status: {asc[:10]}"
    assert desc == sorted(desc, reverse=True), f"descending sort by status: {desc[:10]}"
    assert asc[0] <= desc[0]
    links = browser.execute_script(
        "return Array.from(document.querySelectorAll('a')).map(a => a.getAttribute('href') || '')"
        ".filter(h => /claims\\.(csv|json)$/.test(h))")
    assert len(links) >= 2, "claims.csv and claims.json are not offered for download"
    for h in links:
        assert (HTML / "book" / h).resolve().exists() or (_page("reproduction").parent / h).exists(), h
