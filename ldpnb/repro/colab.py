"""The first cell of every chapter: on Colab, install the package and what the chapter needs.

The launch button of a page opens the committed notebook (``book/<name>.ipynb``, outputs stripped)
in Colab, where ``ldpnb`` is not installed.  Each chapter therefore starts with a cell, tagged
``remove-cell`` (absent from the book's pages), that detects Colab and runs ``pip install`` of the
package from the repository named in ``_config.yml`` (``repository.url``), with the extras the
chapter imports (:func:`extras_for`); anywhere else it does nothing.

Usage (from the repository root)::

    python -m ldpnb.repro.colab            # write or update the cell in every book/*.py, re-pair
    python -m ldpnb.repro.colab --check    # exit 1 if a chapter lacks the cell or has a stale one

``tests/test_colab.py`` checks every chapter (fast) and executes one in a fresh virtual
environment that has only what the cell installs (slow; run by ``.ci/run``).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from ldpnb.contracts import Instance, Optional, contract
from ldpnb.repro.toc import BOOK, ROOT

__all__ = ["EXTRAS", "extras_for", "repository_url", "requirement", "cell_source", "install_cell", "ensure", "main"]

#: What a chapter may import beyond the package's core (numpy, scipy), and the extra that installs it.
#: ``notebook`` includes ``all`` (every library extra); a chapter importing a paper's package
#: (``ldpnb.papers``, which plots and may load data or train classifiers) needs ``all``.
EXTRAS = {
    "myst_nb": "notebook",
    "itables": "notebook",
    "ldpnb.papers": "all",
    "pandas": "data",
    "ldpnb.data": "data",
    "matplotlib": "plot",
    "seaborn": "plot",
    "ldpnb.repro.plotting": "plot",
    "sklearn": "attacks",
    "xgboost": "attacks",
    "ot": "transport",
    "joblib": "parallel",
    "dask": "parallel",
}
MARK = "# On Colab, install the book's package"
_CELL_RE = re.compile(r'# %% tags=\["remove-cell"\]\n' + re.escape(MARK) + r".*?(?=\n# %%)", re.S)


@contract(root=Instance(Path, example=ROOT))
def repository_url(root: Path = ROOT) -> str:
    """``repository.url`` of ``_config.yml`` (the repository the launch buttons point at)."""
    text = (root / "_config.yml").read_text(encoding="utf-8")
    m = re.search(r"^repository:\s*\n\s+url:\s*(\S+)", text, re.M)
    if not m:
        raise ValueError(f"{root / '_config.yml'} has no repository.url")
    return m.group(1).strip("'\"")


@contract(source=Instance(str, example="import numpy"))
def extras_for(source: str) -> list[str]:
    """The extras a chapter's code needs (:data:`EXTRAS` of the modules it imports), sorted.

    >>> extras_for("from myst_nb import glue\\nimport numpy as np")
    ['notebook']
    >>> extras_for("from ldpnb.repro import glue")
    []
    >>> extras_for("import pandas as pd\\nfrom ldpnb.data import load_adult")
    ['data']
    >>> extras_for("import matplotlib.pyplot as plt\\nfrom ldpnb.papers.pie import claims")
    ['all']
    """
    found = set()
    for module, extra in EXTRAS.items():
        if re.search(rf"^\s*(from|import)\s+{re.escape(module)}\b", source, re.M) or (
            module == "itables" and "interactive_table(" in source
        ):
            found.add(extra)
    for umbrella in ("notebook", "all"):  # notebook includes all, which includes every library extra
        if umbrella in found:
            return [umbrella]
    return sorted(found)


@contract(extras=Instance(list, tuple, example=[]), url=Instance(str, example="https://github.com/o/r"))
def requirement(extras: list[str], url: str) -> str:
    """The pip requirement: ``ldpnb[notebook] @ git+https://github.com/o/r``."""
    return f"ldpnb{'[' + ','.join(extras) + ']' if extras else ''} @ git+{url}"


@contract(extras=Instance(list, tuple, example=[]), url=Instance(str, example="https://github.com/o/r"))
def cell_source(extras: list[str], url: str) -> str:
    """The install cell in jupytext's percent format (tag ``remove-cell``)."""
    return (
        '# %% tags=["remove-cell"]\n'
        f"{MARK} (elsewhere a no-op; written by ldpnb.repro.colab)\n"
        "import sys\n\n"
        'if "google.colab" in sys.modules:\n'
        "    import subprocess\n\n"
        f'    req = "{requirement(extras, url)}"\n'
        '    subprocess.run([sys.executable, "-m", "pip", "install", "-q", req], check=True)\n'
    )


@contract(path=Instance(Path, example=BOOK / "foundations.py"))
def install_cell(path: Path) -> str | None:
    """The install cell of a chapter's ``.py`` as written there, or None."""
    m = _CELL_RE.search(path.read_text(encoding="utf-8"))
    return m.group(0).rstrip("\n") + "\n" if m else None


@contract(path=Instance(Path, example=BOOK / "foundations.py"), url=Instance(str, example="https://github.com/o/r"))
def ensure(path: Path, url: str) -> bool:
    """Write (or update) the install cell as the first cell of ``path`` (right after the jupytext
    header); True when the file changed."""
    text = path.read_text(encoding="utf-8")
    body = _CELL_RE.sub("", text)
    want = cell_source(extras_for(body), url)
    header_end = body.index("# ---\n", 1) + len("# ---\n") if body.startswith("# ---\n") else 0
    new = body[:header_end] + "\n" + want + "\n" + body[header_end:].lstrip("\n")
    if new == text:
        return False
    path.write_text(new, encoding="utf-8")
    return True


@contract(argv=Optional(Instance(list, tuple, example=None)))
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ldpnb.repro.colab", description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="only check; exit 1 if a chapter needs the cell written")
    ap.add_argument("names", nargs="*", help="chapters (default: every book/*.py)")
    args = ap.parse_args(argv)
    url = repository_url()
    paths = [BOOK / f"{n}.py" for n in args.names] if args.names else sorted(BOOK.glob("*.py"))
    stale = []
    for p in paths:
        if args.check:
            text = p.read_text(encoding="utf-8")
            body = _CELL_RE.sub("", text)
            if install_cell(p) != cell_source(extras_for(body), url):
                stale.append(p.name)
            continue
        if ensure(p, url):
            from ldpnb.repro.build import sync_pair  # noqa: PLC0415 lazy: jupytext and nbformat (book extra)

            sync_pair(p.stem)
            print(f"wrote the install cell of {p.relative_to(ROOT)} and re-paired its notebook")
    if stale:
        print(
            "chapters without an up-to-date install cell: " + ", ".join(stale) + " (run `python -m ldpnb.repro.colab`)",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
