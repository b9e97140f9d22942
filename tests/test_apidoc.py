"""The API reference (``book/api/``): generated from each subpackage's ``__all__``, up to date, in the
table of contents, and, once built, an entry for every public name.

The fast tests check the sources; the ``built`` test reads the inventory of the rendered book
(``_build/html/objects.inv``), which holds one entry per documented object.
"""

from __future__ import annotations

import importlib
import posixpath
import re
from pathlib import Path

import pytest

from ldpnb.repro import apidoc
from ldpnb.repro.toc import toc_files

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"


def _public() -> dict[str, str]:
    """Every public name, ``qualified name -> page``: the subpackages' ``__all__`` and the names of
    their public modules that the subpackage does not re-export."""
    out = {}
    for sub in apidoc.SUBPACKAGES:
        for name in importlib.import_module(f"ldpnb.{sub}").__all__:
            out[f"ldpnb.{sub}.{name}"] = sub
        for module, extra in apidoc.public_modules(sub).items():
            for name in extra:
                out[f"{module}.{name}"] = sub
    return out


def test_the_pages_are_up_to_date():
    stale = apidoc.write(check=True)
    assert not stale, f"stale API pages {[p.name for p in stale]}: run `python -m ldpnb.repro.apidoc`"


def test_every_page_is_in_the_toc():
    listed = set(toc_files(ROOT))
    for sub in ["index", *apidoc.SUBPACKAGES]:
        assert f"book/api/{sub}" in listed, f"book/api/{sub} is not in _toc.yml"


def test_every_public_name_has_an_entry_in_its_page():
    """Each name is on its page: in the summary table (the package's ``__all__``, whose ``automodule``
    writes the entries), as an explicit entry (constants, aliases), or under its module's heading."""
    missing = []
    for qual, sub in _public().items():
        text = (apidoc.API / f"{sub}.md").read_text(encoding="utf-8")
        module, name = qual.rsplit(".", 1)
        if module == f"ldpnb.{sub}":
            found = re.search(rf"^(   |\.\. py:(class|data):: ){re.escape(name)}$", text, re.M)
        else:
            section = text.split(f"## `{module}`", 1)[-1].split("\n## ", 1)[0]
            found = re.search(rf"^\.\. (autoclass|autofunction|py:data):: {re.escape(name)}$", section, re.M)
        if not found:
            missing.append(qual)
    assert not missing, f"public names without an entry: {missing}"
    assert len(_public()) > 400


def test_the_book_loads_autodoc_and_napoleon():
    config = (ROOT / "_config.yml").read_text(encoding="utf-8")
    for ext in ("sphinx.ext.autodoc", "sphinx.ext.autosummary", "sphinx.ext.napoleon"):
        assert re.search(rf"^\s+- {re.escape(ext)}\b", config, re.M), f"_config.yml lacks {ext}"


@pytest.mark.built
def test_the_built_reference_has_every_public_name():
    """The rendered book's inventory (objects.inv) holds every public name: autodoc documented it."""
    inv_path = HTML / "objects.inv"
    if not inv_path.exists():
        pytest.skip("no built book (run `make book`)")
    from sphinx.util.inventory import InventoryFile

    with inv_path.open("rb") as f:
        inv = InventoryFile.load(f, "", posixpath.join)
    documented = {name for kind, entries in inv.items() if kind.startswith("py:") for name in entries}
    missing = sorted(q for q in _public() if q not in documented)
    assert not missing, f"{len(missing)} public names have no entry in the built reference: {missing[:20]}"
