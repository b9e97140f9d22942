"""The whole book as one PDF, printed from the built HTML by headless Chromium, offline.

Usage (after ``make book``; ``make pdf`` runs it)::

    python -m ldpnb.repro.pdf [--html _build/html] [--out _build/pdf/ldpnb-book.pdf]

Every page of ``_toc.yml``, in order, is opened from disk in Debian's ``chromium`` (driven by
selenium, every host name resolving to nothing), MathJax and the claims dashboard are waited for,
the collapsed blocks that hold content are opened (figure galleries, notes; a report's full table
stays folded: the rows are in the dashboard and in ``claims.csv``), and the page is printed to
A4 with the theme's print stylesheet (Chrome DevTools' ``Page.printToPDF``).  The pages are then
concatenated with pypdf, one bookmark per page.

Checked before the file is written (the command fails otherwise): no image of any page failed to
load, every page printed at least one PDF page, and every page's PDF holds at least as many
images as the page shows distinct figures.  A summary (pages, PDF pages, figures, seconds) is
printed and written beside the PDF as ``ldpnb-book.json``.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from ldpnb.contracts import Instance, Optional, contract
from ldpnb.repro.toc import ROOT, toc_files

__all__ = ["print_book", "pdf_images", "main"]

_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--window-size=1280,1000",
    "--host-resolver-rules=MAP * ~NOTFOUND",
]

_READY = """
const done = arguments[arguments.length - 1];
const t0 = Date.now();
(function wait() {
  const mj = window.MathJax && MathJax.startup && MathJax.startup.promise;
  const dash = document.querySelector('table.claims-dashboard');
  const dashReady = !dash || (dash.closest('.dt-container') || {getAttribute: () => null}).getAttribute('data-typeset');
  if ((mj || Date.now() - t0 > 20000) && (dashReady || Date.now() - t0 > 30000)) {
    (mj ? MathJax.startup.promise : Promise.resolve()).then(() => {
      // open what holds content; keep a report's full table and its passing rows with a flag folded
      document.querySelectorAll('main details:not(.ldpnb-report-full):not(.ldpnb-report-flagged)')
        .forEach(d => { d.open = true; });
      const imgs = Array.from(document.querySelectorAll('main img'));
      imgs.forEach(i => { i.loading = 'eager'; });
      Promise.all(imgs.map(i => i.complete ? 1 : new Promise(r => { i.onload = i.onerror = r; }))).then(() => {
        const shown = imgs.filter(i => i.closest('figure') || i.closest('.cell_output'));
        done({broken: imgs.filter(i => !(i.naturalWidth > 0)).map(i => (i.getAttribute('src') || '').slice(0, 80)),
              figures: new Set(shown.map(i => i.currentSrc || i.src)).size,
              title: (document.querySelector('main h1') || {innerText: document.title}).innerText
                       .replace(/#$/, '').trim()});
      });
    });
  } else { setTimeout(wait, 100); }
})();
"""


def _driver():
    from selenium import webdriver  # noqa: PLC0415 lazy: the test extra, only to print the book
    from selenium.webdriver.chrome.service import Service  # noqa: PLC0415 lazy: the test extra, only to print the book

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver") or (
        "/usr/bin/chromedriver" if Path("/usr/bin/chromedriver").exists() else None
    )
    if not chromium or not driver:
        raise SystemExit("error: Chromium or chromedriver not found (Debian: apt-get install chromium chromium-driver)")
    profile = tempfile.mkdtemp(prefix="ldpnb-pdf-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for flag in [*_FLAGS, f"--user-data-dir={profile}"]:
        opts.add_argument(flag)
    d = webdriver.Chrome(service=Service(driver), options=opts)
    d.set_page_load_timeout(120)
    d.set_script_timeout(120)
    return d, profile


@contract(data=Instance(bytes, example=b""))
def pdf_images(data: bytes) -> tuple[int, int]:
    """(pages, image XObjects) of a PDF."""
    from pypdf import PdfReader  # noqa: PLC0415 lazy: the book extra, only to print the book

    reader = PdfReader(io.BytesIO(data))
    n_img = 0
    for page in reader.pages:
        res = page.get("/Resources") or {}
        xobj = res.get("/XObject") if hasattr(res, "get") else None
        if xobj is None:
            continue
        xobj = xobj.get_object()
        for ref in xobj.values():
            obj = ref.get_object()
            if obj.get("/Subtype") == "/Image":
                n_img += 1
            elif obj.get("/Subtype") == "/Form":  # images nested in a form
                inner = (obj.get("/Resources") or {}).get("/XObject")
                if inner is not None:
                    n_img += sum(1 for r in inner.get_object().values() if r.get_object().get("/Subtype") == "/Image")
    return len(reader.pages), n_img


@contract(
    html=Instance(Path, example=ROOT / "_build" / "html"), out=Instance(Path, example=ROOT / "_build" / "pdf" / "b.pdf")
)
def print_book(html: Path, out: Path) -> dict:
    """Print every page of the book in toc order and concatenate them into ``out``; returns the summary."""
    from pypdf import PdfWriter  # noqa: PLC0415 lazy: the book extra, only to print the book

    pages = [html / f"{f}.html" for f in toc_files(ROOT)]
    missing = [str(p) for p in pages if not p.exists()]
    if missing:
        raise SystemExit(f"error: pages not built: {missing} (run `make book` first)")
    d, profile = _driver()
    writer = PdfWriter()
    summary: dict = {"pages": [], "pdf_pages": 0, "figures": 0, "images": 0}
    problems = []
    t0 = time.perf_counter()
    try:
        for p in pages:
            t1 = time.perf_counter()
            d.get(p.as_uri())
            state = d.execute_async_script(_READY)
            pdf = base64.b64decode(
                d.execute_cdp_cmd(
                    "Page.printToPDF",
                    {
                        "printBackground": True,
                        "paperWidth": 8.27,
                        "paperHeight": 11.69,
                        "marginTop": 0.5,
                        "marginBottom": 0.55,
                        "marginLeft": 0.5,
                        "marginRight": 0.5,
                        "scale": 0.8,
                        "displayHeaderFooter": True,
                        "headerTemplate": "<span></span>",
                        "footerTemplate": '<div style="font-size:8px;width:100%;text-align:center">'
                        '<span class="pageNumber"></span></div>',
                    },
                )["data"]
            )
            n_pages, n_img = pdf_images(pdf)
            name = p.relative_to(html).as_posix()
            if state["broken"]:
                problems.append(f"{name}: images that did not load: {state['broken'][:3]}")
            if n_pages < 1:
                problems.append(f"{name}: printed no page")
            if n_img < state["figures"]:
                problems.append(f"{name}: {state['figures']} figures on the page, {n_img} images in its PDF")
            start = len(writer.pages)
            writer.append(io.BytesIO(pdf))
            writer.add_outline_item(state["title"], page_number=start)
            summary["pages"].append(
                {
                    "page": name,
                    "title": state["title"],
                    "pdf_pages": n_pages,
                    "figures": state["figures"],
                    "images": n_img,
                    "seconds": round(time.perf_counter() - t1, 1),
                }
            )
            summary["pdf_pages"] += n_pages
            summary["figures"] += state["figures"]
            summary["images"] += n_img
            print(
                f"{name:<28s} {n_pages:4d} pages  {state['figures']:3d} figures  {n_img:3d} images  "
                f"{time.perf_counter() - t1:5.1f} s",
                flush=True,
            )
    finally:
        d.quit()
        shutil.rmtree(profile, ignore_errors=True)
    summary["seconds"] = round(time.perf_counter() - t0, 1)
    if problems:
        raise SystemExit("error: the PDF is incomplete:\n  " + "\n  ".join(problems))
    out.parent.mkdir(parents=True, exist_ok=True)
    writer.add_metadata(
        {"/Title": "Privacy in the local model — an executable book", "/Author": "the ldpnb contributors"}
    )
    with out.open("wb") as f:
        writer.write(f)
    out.with_suffix(".json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return summary


@contract(argv=Optional(Instance(list, tuple, example=None)))
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ldpnb.repro.pdf", description=__doc__.split("\n")[0])
    ap.add_argument("--html", type=Path, default=ROOT / "_build" / "html")
    ap.add_argument("--out", type=Path, default=ROOT / "_build" / "pdf" / "ldpnb-book.pdf")
    args = ap.parse_args(argv)
    s = print_book(args.html, args.out)
    print(
        f"{args.out}: {s['pdf_pages']} pages, {s['figures']} figures ({s['images']} images) from "
        f"{len(s['pages'])} HTML pages in {s['seconds']} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
