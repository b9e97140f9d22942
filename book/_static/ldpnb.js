/* The book's own scripts (book/_static/ldpnb.js, loaded on every page by _config.yml). */
(function () {
  "use strict";

  /* A link to a claim's row (#claim-<chapter>-<id>) opens the collapsed full table of the report
     that holds it, then scrolls to the row. */
  function reveal() {
    if (!location.hash) return;
    let target = null;
    try { target = document.getElementById(decodeURIComponent(location.hash.slice(1))); } catch (e) { return; }
    if (!target) return;
    let opened = false;
    if (target.hidden) {  // hidden by a report's filter (its counts): show every row again
      const pressed = target.closest(".ldpnb-report").querySelector('button.ldpnb-chip[aria-pressed="true"]');
      if (pressed) { filterReport(pressed); opened = true; }
    }
    for (let el = target.parentElement; el; el = el.parentElement) {
      if (el.tagName === "DETAILS" && !el.open) { el.open = true; opened = true; }
    }
    if (opened) target.scrollIntoView({block: "start"});
  }
  window.addEventListener("hashchange", reveal);
  document.addEventListener("DOMContentLoaded", reveal);

  /* A report's counts (ldpnb.repro.report): a click on one shows only its rows in the report's full
     table, opened; a second click on it shows every row again, a click on another count switches.
     The full table's heading says what it shows. */
  function filterReport(button) {
    const report = button.closest(".ldpnb-report");
    const full = report && report.querySelector("details.ldpnb-report-full");
    const table = full && full.querySelector("table.reproduction-report");
    if (!table) return;
    const on = button.getAttribute("aria-pressed") !== "true";
    const key = button.dataset.filter;
    report.querySelectorAll("button.ldpnb-chip").forEach(b => {
      b.setAttribute("aria-pressed", b === button && on ? "true" : "false");
    });
    const rows = Array.from(table.tBodies[0].rows);
    let shown = 0;
    rows.forEach(tr => {
      const keep = !on || tr.classList.contains(key) || (key.startsWith("flag-") && !!tr.querySelector("." + key));
      tr.hidden = !keep;
      if (keep) shown += 1;
    });
    let note = full.querySelector("summary .ldpnb-filter-note");
    if (!note) {
      note = document.createElement("span");
      note.className = "ldpnb-filter-note";
      full.querySelector("summary").append(note);
    }
    const label = button.innerText.replace(/\s+\d+\s*$/, "").trim();
    note.textContent = on ? ` (showing the ${shown} of ${rows.length} rows: ${label}; click the count again for all)` : "";
    table.dataset.filter = on ? key : "";
    if (on) full.open = true;
  }
  document.addEventListener("click", e => {
    const b = e.target.closest ? e.target.closest("button.ldpnb-chip") : null;
    if (b) filterReport(b);
  });
  window.ldpnbFilterReport = filterReport;

  /* Display equations on a narrow column (a phone): one that is wider than its box is drawn
     smaller, down to FIT_FLOOR of its size, so that it fits; one that still does not fit scrolls
     inside its own box (ldpnb.css) and is marked with a cue at its right edge.  MathJax's CHTML
     output is sized in em, so the box's font size scales the whole equation.  When done, <html>
     carries data-ldpnb-math-fit="done" (tests/test_browser.py waits for it). */
  const FIT_FLOOR = 0.75;
  function fitEquations() {
    document.querySelectorAll('mjx-container[display="true"]').forEach(m => {
      m.style.fontSize = "";
      m.classList.remove("ldpnb-eq-wide");
      const box = m.clientWidth, need = m.scrollWidth;
      if (!box || need <= box + 1) return;
      const scale = box / need;
      if (scale >= FIT_FLOOR) { m.style.fontSize = Math.floor(scale * 1000) / 10 + "%"; }
      else { m.style.fontSize = FIT_FLOOR * 100 + "%"; }
      if (m.scrollWidth > m.clientWidth + 1) m.classList.add("ldpnb-eq-wide");
    });
    document.documentElement.dataset.ldpnbMathFit = "done";
  }
  let fitTimer = null;
  window.addEventListener("resize", () => { clearTimeout(fitTimer); fitTimer = setTimeout(fitEquations, 150); });
  (function whenTypeset(t0) {
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
      MathJax.startup.promise.then(fitEquations);
    } else if (Date.now() - t0 < 30000) { setTimeout(() => whenTypeset(t0), 100); }
    else { document.documentElement.dataset.ldpnbMathFit = "no-mathjax"; }
  })(Date.now());
  window.ldpnbFitEquations = fitEquations;

  /* Figures on a narrow screen (a phone).  A figure is drawn for the book's column: its legend and
     its smallest text are checked to be at least 8 px at FIGURE_COLUMN_PX (ldpnb.repro.nbcheck,
     tests/test_outputs.py).  On a 390 px phone it is shown 342 px wide and that text is 4 px.  A
     figure shown below ZOOM_BELOW of its desktop size is wrapped in a box of its own (it scrolls
     sideways: ldpnb.css) with a bar under it (a button, and a link to the full-resolution PNG).  A
     tap on the figure, or the button, draws it at its desktop size around the point tapped; a
     second tap fits it back.  The page keeps the screen's width.  On the desktop no figure
     qualifies: nothing is wrapped and a click opens the PNG as before.  When done, <html> carries
     data-ldpnb-fig-fit="done" (tests/test_browser.py waits for it). */
  const FIGURE_COLUMN_PX = 729;
  const ZOOM_BELOW = 0.9;
  const FIGURES = "main figure img, main div.cell_output img";
  function desktopWidth(img) {
    const declared = /px$/.test(img.dataset.ldpnbWidth || "") ? parseFloat(img.dataset.ldpnbWidth) : 0;
    // without a declared size, a PNG of the book is drawn at 2 px per CSS px (plotting.set_style)
    return Math.min(declared || img.naturalWidth / 2, FIGURE_COLUMN_PX);
  }
  function zoomFigure(box, on, x, y) {
    const img = box.querySelector("img");
    const before = img.getBoundingClientRect();
    const fx = x == null ? 0.5 : Math.min(1, Math.max(0, (x - before.left) / before.width));
    const fy = y == null ? 0 : Math.min(1, Math.max(0, (y - before.top) / before.height));
    box.classList.toggle("ldpnb-zoomed", on);
    img.style.width = on ? desktopWidth(img) + "px" : (img.dataset.ldpnbWidth || "");
    img.style.maxWidth = on ? "none" : (img.dataset.ldpnbMaxWidth || "");  // beats an inline max-width
    const button = box.nextElementSibling && box.nextElementSibling.querySelector("button");
    if (button) {
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.textContent = on ? "⤡ Fit to the screen" : "⤢ Enlarge the figure";
    }
    const after = img.getBoundingClientRect();
    const bx = box.getBoundingClientRect().left;
    box.scrollLeft = on ? fx * after.width - (x == null ? box.clientWidth / 2 : x - bx) : 0;
    if (y != null) window.scrollBy(0, after.top + fy * after.height - y);
  }
  function wrapFigure(img) {
    const el = img.parentElement.matches("a.image-reference") ? img.parentElement : img;
    const box = document.createElement("div");
    box.className = "ldpnb-figzoom";
    el.before(box);
    box.append(el);
    const bar = document.createElement("div");
    bar.className = "ldpnb-zoombar";
    const button = document.createElement("button");
    button.type = "button";
    button.setAttribute("aria-pressed", "false");
    button.textContent = "⤢ Enlarge the figure";
    button.addEventListener("click", () => zoomFigure(box, !box.classList.contains("ldpnb-zoomed")));
    bar.append(button);
    const src = img.currentSrc || img.src;
    if (!src.startsWith("data:")) {
      const link = document.createElement("a");
      link.href = el === img ? src : el.href;
      link.textContent = "full-resolution image";
      bar.append(link);
    }
    box.after(bar);
    box.addEventListener("click", e => {
      if (!box.classList.contains("ldpnb-zoomable")) return;  // the desktop: the link opens the PNG
      e.preventDefault();
      zoomFigure(box, !box.classList.contains("ldpnb-zoomed"), e.clientX, e.clientY);
    });
    return box;
  }
  function fitFigures() {
    document.querySelectorAll(FIGURES).forEach(img => {
      if (!img.naturalWidth) return;
      if (img.dataset.ldpnbWidth === undefined) {
        img.dataset.ldpnbWidth = img.style.width;
        img.dataset.ldpnbMaxWidth = img.style.maxWidth;
      }
      let box = img.closest(".ldpnb-figzoom");
      if (box && box.classList.contains("ldpnb-zoomed")) return;
      const shown = img.getBoundingClientRect().width;
      if (!shown) return;  // not rendered (a closed <details>): looked at again when it opens
      const shrunk = shown < ZOOM_BELOW * desktopWidth(img);
      if (!box && !shrunk) return;
      if (!box) box = wrapFigure(img);
      box.classList.toggle("ldpnb-zoomable", shrunk);
    });
    document.documentElement.dataset.ldpnbFigFit = "done";
  }
  let figTimer = null;
  window.addEventListener("resize", () => { clearTimeout(figTimer); figTimer = setTimeout(fitFigures, 150); });
  document.addEventListener("toggle", e => { if (e.target.open) fitFigures(); }, true);
  if (document.readyState === "complete") fitFigures(); else window.addEventListener("load", fitFigures);
  window.ldpnbFitFigures = fitFigures;

  /* The claims dashboard's preset filters (ldpnb.repro.dashboard.PRESETS): clear every filter, then
     search one column (found by its header) for an exact value or a pattern.  The boxes under the
     headers show the filter in force. */
  window.ldpnbPreset = function (dt, name, rule) {
    const headers = dt.columns().header().toArray().map(h => {
      const input = h.querySelector("input");
      return (input && input.placeholder) || h.innerText.trim();
    });
    dt.search("");
    dt.columns().every(function () { this.search(""); });
    const container = dt.table().container();
    container.querySelectorAll("thead input").forEach(i => { i.value = ""; });
    if (rule) {
      const [column, pattern] = rule;
      const idx = headers.indexOf(column);
      if (idx < 0) { console.warn("ldpnb preset: no column " + column); return; }
      dt.column(idx).search(pattern, {regex: true, smart: false});
      const input = dt.column(idx).header().querySelector("input");
      if (input) input.value = pattern;
    }
    dt.draw();
    container.querySelectorAll(".ldpnb-preset").forEach(b => {
      b.setAttribute("aria-pressed", b.innerText.trim() === name ? "true" : "false");
    });
  };
})();
