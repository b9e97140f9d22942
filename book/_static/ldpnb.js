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
    for (let el = target.parentElement; el; el = el.parentElement) {
      if (el.tagName === "DETAILS" && !el.open) { el.open = true; opened = true; }
    }
    if (opened) target.scrollIntoView({block: "start"});
  }
  window.addEventListener("hashchange", reveal);
  document.addEventListener("DOMContentLoaded", reveal);

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
