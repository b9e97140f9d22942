"""The book's API reference: one page per public subpackage, written from its ``__all__``.

Each page ``book/api/<subpackage>.md`` holds a summary table (``autosummary``: every public name with
the first line of its docstring) and the entries themselves (``automodule`` with ``:members:``, which
follows ``__all__``: signature, formula, paper reference, examples), rendered by Sphinx's autodoc with
napoleon reading the numpy-style sections.  The pages are generated, never edited by hand:

    python -m ldpnb.repro.apidoc            # (re)write book/api/*.md
    python -m ldpnb.repro.apidoc --check    # exit 1 if a page is missing or stale

``tests/test_apidoc.py`` fails when a page is stale, so a name added to an ``__all__`` gets its entry.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from pathlib import Path

from sphinx.pycode import ModuleAnalyzer

from ldpnb.contracts import Instance, OneOf, Optional, contract
from ldpnb.repro.toc import BOOK

__all__ = [
    "SUBPACKAGES",
    "REPRO_TOOLS",
    "public_modules",
    "public_names",
    "page_source",
    "index_source",
    "write",
    "main",
]

#: The documented subpackages, in the reading order of the reference, with a one-line role.
SUBPACKAGES: dict[str, str] = {
    "mechanisms": "the local randomisers, one object per family, and the composite protocols",
    "channels": "operations valid on any finite channel, and structured channel operators",
    "estimators": "frequency estimation from reports: inversion (INV, INV-N, INV-P) and IBU",
    "measures": "information, re-identification (PIE), PSE, lift, utility and the lenses",
    "attacks": "plausible deniability, re-identification, attribute inference, linkage",
    "audit": "statistical audits of the mechanisms",
    "data": "the verified registry of real data sets, loaders and grids",
    "stats": "estimates with their uncertainty",
    "geometry": "lattice and Earth distances",
    "parallel": "reproducible parallel sweeps",
    "contracts": "argument contracts and the validation vocabulary",
    "utils": "checks made in a function's body",
    "repro": "the book's machinery: claims, reports, seeds",
}
API = BOOK / "api"
#: A documented subpackage (a name outside the reference ended in a bare ModuleNotFoundError).
_SUB = OneOf(*SUBPACKAGES)
#: repro's tools for the build (not for a chapter's author): left out of the reference.
REPRO_TOOLS = (
    "apidoc",
    "build",
    "colab",
    "dashboard",
    "nbcheck",
    "nbstrip",
    "paperscale",
    "parallel",
    "pdf",
    "sphinx_ext",
    "toc",
)


@contract(sub=_SUB)
def public_modules(sub: str) -> dict[str, list[str]]:
    """The public submodules of ``ldpnb.<sub>`` (no leading underscore) whose ``__all__`` has names that
    the subpackage does not re-export, with those names: they get an entry too."""
    pkg = importlib.import_module(f"ldpnb.{sub}")
    if not hasattr(pkg, "__path__"):
        return {}
    exported = set(pkg.__all__)
    out = {}
    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name.startswith("_") or (sub == "repro" and info.name in REPRO_TOOLS):
            continue
        mod = importlib.import_module(f"ldpnb.{sub}.{info.name}")
        extra = [n for n in getattr(mod, "__all__", []) if n not in exported]
        if extra:
            out[f"ldpnb.{sub}.{info.name}"] = extra
    return out


def _attr_doc(sub: str, name: str) -> str:
    """The ``#:`` comment of constant ``name`` in ``ldpnb.<sub>`` or one of its modules, joined, or ''."""
    pkg = importlib.import_module(f"ldpnb.{sub}")
    modules = [pkg.__name__]
    if hasattr(pkg, "__path__"):
        modules += [f"{pkg.__name__}.{info.name}" for info in pkgutil.iter_modules(pkg.__path__)]
    for module in modules:
        try:
            docs = ModuleAnalyzer.for_module(module).find_attr_docs()
        except Exception:  # noqa: BLE001 a module without source: no comment to read
            continue
        if ("", name) in docs:
            return " ".join(line.strip() for line in docs[("", name)] if line.strip())
    return ""


@contract(sub=_SUB)
def public_names(sub: str) -> list[str]:
    """The names of ``ldpnb.<sub>.__all__``, in order."""
    return list(importlib.import_module(f"ldpnb.{sub}").__all__)


@contract(sub=_SUB)
def page_source(sub: str) -> str:
    """The MyST source of the page of ``ldpnb.<sub>``: the summary of its functions and classes, the
    list of its constants, then every entry."""
    mod = importlib.import_module(f"ldpnb.{sub}")
    names = public_names(sub)
    # autosummary quotes a docstring's first sentence, and automodule skips a constant imported from a
    # submodule: constants (a dict, a float) and aliases (a class exported under another name) get
    # explicit entries, with the constant's ``#:`` comment
    alias = {n for n in names if isinstance(getattr(mod, n), type) and getattr(mod, n).__name__ != n}
    data = [n for n in names if not callable(getattr(mod, n))]
    code = [n for n in names if callable(getattr(mod, n)) and n not in alias]
    out = [
        f"<!-- generated by `python -m ldpnb.repro.apidoc` from ldpnb.{sub}.__all__: do not edit -->",
        f"# `ldpnb.{sub}`",
        "",
        "```{eval-rst}",
        f".. currentmodule:: ldpnb.{sub}",
        "",
        ".. rubric:: Functions and classes",
        "",
        ".. autosummary::",
        "   :nosignatures:",
        "",
        *(f"   {n}" for n in code),
        "",
    ]
    if data:
        out += [".. rubric:: Constants", "", ", ".join(f":data:`{n}`" for n in data), ""]
    out += [
        f".. automodule:: ldpnb.{sub}",
        "   :members:",
        "   :undoc-members:",
        "   :member-order: bysource",
        *([f"   :exclude-members: {', '.join(sorted(alias | set(data)))}"] if alias or data else []),
        "",
    ]
    for n in names:
        if n in alias:
            target = getattr(mod, n)
            out += [f".. py:class:: {n}", "", f"   Alias of :class:`{target.__module__}.{target.__qualname__}`.", ""]
        elif n in data:
            doc = _attr_doc(sub, n) or "A constant of the package."
            out += [f".. py:data:: {n}", f"   :type: {type(getattr(mod, n)).__name__}", "", f"   {doc}", ""]
    out += ["```", ""]
    for module, extra in public_modules(sub).items():
        mod = importlib.import_module(module)
        out += [
            f"## `{module}`",
            "",
            "Names of the module that the subpackage does not re-export.",
            "",
            "```{eval-rst}",
            f".. currentmodule:: {module}",
            "",
        ]
        for name in extra:
            obj = getattr(mod, name)
            if isinstance(obj, type):
                out += [f".. autoclass:: {name}", "   :members:", ""]
            elif callable(obj):
                out += [f".. autofunction:: {name}", ""]
            else:  # a constant: its value is in the module (autodata would quote its type's docstring)
                out += [f".. py:data:: {name}", "", f"   A constant of :mod:`{module}` (``{type(obj).__name__}``).", ""]
        out += ["```", ""]
    return "\n".join(out)


@contract()
def index_source() -> str:
    """The MyST source of the reference's first page (``book/api/index.md``)."""
    rows = "\n".join(f"| {{doc}}`ldpnb.{sub} <{sub}>` | {role} |" for sub, role in SUBPACKAGES.items())
    return (
        "<!-- generated by `python -m ldpnb.repro.apidoc`: do not edit -->\n"
        "# API reference\n\n"
        "Every public name of the package (each subpackage's `__all__`), with its signature and its\n"
        "docstring: the formula, the paper it comes from, and an example that the test suite runs.\n"
        "`pip install ldpnb` installs the core (numpy and scipy); the names that need more say which\n"
        "extra to install. The {doc}`quickstart <../quickstart>` shows the core at work.\n\n"
        "| subpackage | contents |\n|---|---|\n"
        f"{rows}\n"
    )


@contract(check=Instance(bool, example=True))
def write(check: bool = False) -> list[Path]:
    """Write the pages (or, with ``check``, only list those missing or stale)."""
    want = {API / "index.md": index_source(), **{API / f"{sub}.md": page_source(sub) for sub in SUBPACKAGES}}
    stale = [p for p, text in want.items() if not p.exists() or p.read_text(encoding="utf-8") != text]
    if not check:
        API.mkdir(exist_ok=True)
        for p in stale:
            p.write_text(want[p], encoding="utf-8")
    return stale


@contract(argv=Optional(Instance(list, tuple, example=None)))
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ldpnb.repro.apidoc", description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="only check; exit 1 if a page is missing or stale")
    args = ap.parse_args(argv)
    stale = write(check=args.check)
    for p in stale:
        print(f"{'stale' if args.check else 'wrote'}: {p.relative_to(BOOK.parent)}")
    return 1 if (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())
