"""Strip outputs and execution counts from notebooks in place: ``python -m ldpnb.repro.nbstrip book/*.ipynb``."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

from ldpnb.contracts import Instance, contract

__all__ = ["strip"]


@contract(path=Instance(str, Path, example="book/intro.ipynb"))
def strip(path: str) -> bool:
    """Remove outputs, execution counts and execution metadata; return True if the file changed."""
    nb = nbformat.read(path, as_version=4)
    changed = False
    for cell in nb.cells:
        if cell.cell_type == "code":
            if cell.get("outputs") or cell.get("execution_count") is not None:
                changed = True
            cell["outputs"] = []
            cell["execution_count"] = None
        md = cell.get("metadata", {})
        for key in ("execution", "papermill"):
            if key in md:
                del md[key]
                changed = True
    for key in ("papermill",):
        if key in nb.metadata:
            del nb.metadata[key]
            changed = True
    if changed:
        nbformat.write(nb, path)
    return changed


if __name__ == "__main__":
    for p in sys.argv[1:]:
        if strip(p):
            print(f"stripped {p}")
