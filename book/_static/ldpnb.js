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
