"""The import rule of the house: core never imports papers; papers never import each other.

core     = ldpnb.{utils, contracts, channels, mechanisms, estimators, measures, attacks, data, audit, stats}
repro    = ldpnb.repro (claims, reports, seeds, sweeps, plotting, the build)
papers   = ldpnb.papers.<paper>: thin clients of core and repro
chapters = book/*.py: import all of the above
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "ldpnb"
CORE = ("utils", "contracts", "channels", "mechanisms", "estimators", "measures", "attacks", "data", "audit",
        "stats")


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every imported module (absolute name), including imports inside functions."""
    mod = _module_name(path)
    pkg = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")
                base = base[: len(base) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            out.append((node.lineno, name))
            out += [(node.lineno, f"{name}.{a.name}") for a in node.names]
    return out


FILES = sorted(PKG.rglob("*.py"))


def _layer(mod: str) -> str | None:
    parts = mod.split(".")
    if parts[0] != "ldpnb" or len(parts) < 2:
        return None
    if parts[1] in CORE:
        return "core"
    if parts[1] == "repro":
        return "repro"
    if parts[1] == "papers":
        return f"papers.{parts[2]}" if len(parts) > 2 else "papers"
    return None


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_import_rule(path):
    me = _layer(_module_name(path))
    bad = []
    for line, name in _imports(path):
        other = _layer(name)
        if other is None or other == me:
            continue
        if me in ("core", "repro") and other.startswith("papers"):
            bad.append((line, name))
        if me and me.startswith("papers.") and other.startswith("papers.") and other != me:
            bad.append((line, name))
    assert not bad, f"{path.relative_to(ROOT)} breaks the import rule: " + ", ".join(f"line {l}: {n}" for l, n in bad)


def test_every_module_is_in_a_layer():
    for path in FILES:
        mod = _module_name(path)
        assert mod == "ldpnb" or _layer(mod) is not None, f"{mod}: every module lives in core, repro or papers"
