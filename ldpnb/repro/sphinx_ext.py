"""Sphinx glue for the book (loaded by jupyter-book through ``sphinx.extra_extensions``).

- **Bibliography titles as written** in the BibTeX files (no sentence-casing), and **labels in
  author-year form** (``Andrés et al., 2013``), matching the author-year
  citations of the text (``bibtex_reference_style: author_year``); the default ``alpha`` labels
  (``[ABCP13]``) do not appear anywhere in the prose.  Entries are sorted by author, year, title.
- **MathJax on every page**: pages whose only maths sits in notebook outputs (the claims in the
  reproduction report and the dashboard) would otherwise get no MathJax and show raw ``\\(...\\)``.
- **The chapter's ``.py`` source**: the build stages ``book/<name>.py`` under ``_py_sources/``;
  each chapter page gets a ``.py`` entry in its download menu, and its edit and source buttons
  point to the ``.py`` (the source under version control) instead of the paired ``.ipynb``.
- **Each script once**: the thebe and togglebutton configuration ``<script>`` blocks are registered
  twice by jupyter-book's extensions, which declared ``THEBE_JS_URL`` twice (a JavaScript error on
  every page); a script with the same source and body is kept once.
"""

from __future__ import annotations

import codecs
import re
import shutil
from pathlib import Path
from typing import Any

from ldpnb.contracts import Unchecked, contract

__all__ = ["setup", "author_year_label"]

PY_DIR = "_py_sources"


def _last_names(persons) -> list[str]:
    out = []
    for p in persons:
        names = [*p.prelast_names, *p.last_names]
        text = " ".join(names) if names else str(p)
        out.append(_plain_latex(text))
    return out


def _plain_latex(text: str) -> str:
    """Decode the LaTeX of a BibTeX field (``P{\\'e}rez`` -> ``Pérez``), braces dropped."""

    try:
        import latexcodec  # noqa: F401, PLC0415 lazy: registers the codec (a dependency of pybtex)

        text = codecs.decode(text, "ulatex")
    except Exception:  # pragma: no cover - without latexcodec: drop the accents' markup
        text = re.sub(r"\\[^a-zA-Z{]|\\[a-zA-Z]+\s*", "", text)
    return text.replace("{", "").replace("}", "")


@contract(entry=Unchecked("a pybtex Entry", None))
def author_year_label(entry) -> str:
    """``Warner, 1965``, ``Murakami and Takahashi, 2021``, ``Andrés et al., 2013``."""
    persons = entry.persons.get("author") or entry.persons.get("editor") or []
    names = _last_names(persons)
    if names and names[-1].lower() == "others":  # BibTeX's "and others"
        names = [names[0], "", ""]
    if not names:
        who = _plain_latex(entry.fields.get("title", entry.key)).split(":")[0]
    elif len(names) == 1:
        who = names[0]
    elif len(names) == 2:
        who = f"{names[0]} and {names[1]}"
    else:
        who = f"{names[0]} et al."
    year = entry.fields.get("year", "n.d.")
    return f"{who}, {year}"


def _register_pybtex_styles() -> None:
    from pybtex.plugin import register_plugin  # noqa: PLC0415 lazy: pybtex exists only inside a Sphinx build
    from pybtex.style.formatting.unsrt import Style as UnsrtStyle  # noqa: PLC0415 lazy: pybtex exists only inside a Sphinx build
    from pybtex.style.labels import BaseLabelStyle  # noqa: PLC0415 lazy: pybtex exists only inside a Sphinx build

    class AuthorYearLabels(BaseLabelStyle):
        def format_labels(self, sorted_entries):
            labels = [author_year_label(e) for e in sorted_entries]
            seen: dict[str, int] = {}
            for lab in labels:
                seen[lab] = seen.get(lab, 0) + 1
            suffix: dict[str, int] = {}
            for lab in labels:
                if seen[lab] > 1:  # two works of the same authors and year: 2013a, 2013b
                    suffix[lab] = suffix.get(lab, 0) + 1
                    yield lab + "abcdefghijklmnopqrstuvwxyz"[suffix[lab] - 1]
                else:
                    yield lab

    class AuthorYearStyle(UnsrtStyle):
        """unsrt with author-year labels, and titles as the BibTeX files write them: unsrt's
        sentence case lowercased proper nouns ("iterative bayesian update", "python optimal
        transport") and turned a leading α into a capital Α."""

        default_label_style = "ldpnb_authoryear"
        default_sorting_style = "author_year_title"

        def format_title(self, e, which_field, as_sentence=True):
            from pybtex.style.template import field, sentence  # noqa: PLC0415 lazy: pybtex exists only inside a Sphinx build

            title = field(which_field)
            return sentence[title] if as_sentence else title

    for group, name, cls in (
        ("pybtex.style.labels", "ldpnb_authoryear", AuthorYearLabels),
        ("pybtex.style.formatting", "ldpnb_authoryear", AuthorYearStyle),
    ):
        try:
            register_plugin(group, name, cls)
        except Exception:  # already registered (a second build in the same process)
            pass


def _py_source(app, pagename: str) -> Path | None:
    p = Path(app.confdir) / PY_DIR / f"{pagename}.py"
    return p if p.exists() else None


def _header_buttons(app, pagename: str, templatename: str, context: dict[str, Any], doctree) -> None:
    """Add the ``.py`` download and point the edit/source buttons at the ``.py``."""
    if _py_source(app, pagename) is None:
        return
    pathto = context["pathto"]
    py_name = f"{pagename}.py"
    for group in context.get("header_buttons", []):
        buttons = group.get("buttons", [])
        if group.get("label") == "download-buttons":
            buttons.insert(
                0,
                {
                    "type": "link",
                    "url": f"{pathto('_sources', 1)}/{py_name}",
                    "text": ".py",
                    "tooltip": "Download the chapter's source (jupytext percent format)",
                    "icon": "fas fa-file-code",
                    "label": "download-py-button",
                },
            )
        for b in buttons:
            if b.get("label") in ("source-edit-button", "source-file-button") and ".ipynb" in b.get("url", ""):
                b["url"] = b["url"].replace(f"{pagename}.ipynb", py_name)


def _copy_py_sources(app, exc) -> None:
    if exc is not None or app.builder.format != "html":
        return
    src = Path(app.confdir) / PY_DIR
    if src.is_dir():
        shutil.copytree(src, Path(app.outdir) / "_sources", dirs_exist_ok=True)


def _script_key(js) -> tuple[str, str]:
    """(source, inline body) of a page's script entry (a Sphinx ``_JavaScript`` or a plain path)."""
    if isinstance(js, str):
        return js, ""
    attrs = getattr(js, "attributes", {}) or {}
    return str(getattr(js, "filename", "") or ""), str(attrs.get("body", ""))


def _dedupe_scripts(app, pagename: str, templatename: str, context: dict[str, Any], doctree) -> None:
    """Keep each script once (same source and body): jupyter-book registers its extensions' inline
    configuration twice."""
    scripts = context.get("script_files")
    if not scripts:
        return
    seen: set[tuple[str, str]] = set()
    kept = []
    for js in scripts:
        key = _script_key(js)
        if key in seen:
            continue
        seen.add(key)
        kept.append(js)
    context["script_files"] = kept


@contract(app=Unchecked("the Sphinx application", None))
def setup(app):
    _register_pybtex_styles()
    app.set_html_assets_policy("always")
    app.connect("html-page-context", _header_buttons, priority=600)
    app.connect("html-page-context", _dedupe_scripts, priority=900)
    app.connect("build-finished", _copy_py_sources)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
