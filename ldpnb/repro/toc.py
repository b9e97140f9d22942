"""Where the book is: the repository root, the chapters' folder, and the table of contents
(``_toc.yml``), read by the build (:mod:`ldpnb.repro.build`), the dashboard
(:mod:`ldpnb.repro.dashboard`) and the paper-scale runner (:mod:`ldpnb.repro.paperscale`).

A module of its own so that those three import it and not each other.
"""

from __future__ import annotations

from pathlib import Path

from ldpnb.contracts import Instance, contract

__all__ = ["ROOT", "BOOK", "toc_files", "notebook_chapters"]

#: The repository root (the folder holding ``_toc.yml``, ``book/`` and ``ldpnb/``).
ROOT = Path(__file__).resolve().parents[2]
#: The chapters' folder.
BOOK = ROOT / "book"


@contract(root=Instance(Path, example=ROOT))
def toc_files(root: Path = ROOT) -> list[str]:
    """Every ``file:`` of ``_toc.yml`` (root first), without extension, in order."""
    import yaml  # noqa: PLC0415 lazy: pyyaml comes with the book extra; a notebook downloaded alone has no toc

    toc = yaml.safe_load((root / "_toc.yml").read_text())
    out = [toc["root"]]

    def walk(node):
        if isinstance(node, dict):
            if "file" in node:
                out.append(node["file"])
            for key in ("parts", "chapters", "sections"):
                for child in node.get(key, []) or []:
                    walk(child)
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk({k: v for k, v in toc.items() if k != "root"})
    return out


@contract(root=Instance(Path, example=ROOT))
def notebook_chapters(root: Path = ROOT) -> list[str]:
    """Names of the toc entries that are jupytext chapters (``book/<name>.py`` + ``.ipynb``)."""
    names = []
    missing = []
    for f in toc_files(root):
        p = root / f
        if p.with_suffix(".py").exists() or p.with_suffix(".ipynb").exists():
            if not (p.with_suffix(".py").exists() and p.with_suffix(".ipynb").exists()):
                missing.append(f"{f}: a chapter needs both {p.name}.py and {p.name}.ipynb (run `make sync`)")
            names.append(p.name)
        elif not p.with_suffix(".md").exists():
            missing.append(f"{f}: listed in _toc.yml but no {f}.md, .py or .ipynb exists")
    if missing:
        raise SystemExit("error: " + "\n       ".join(missing))
    return names
