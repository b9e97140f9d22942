"""The import rules of the house, checked on the source (an AST scan of every module of ``ldpnb``).

Layers: ``core`` (everything but ``repro`` and ``papers``), ``repro`` (the book's machinery:
claims, reports, seeds, plotting, the build), ``papers.<paper>`` (thin clients of core and repro),
and the chapters (``book/*.py``, which import anything).

1. Core and repro never import papers; papers never import each other.
2. **Floors of the core.**  Every core module has a floor (:data:`FLOORS`); a module imports modules
   of its own floor or of lower ones, never of a higher floor.  Core never imports repro; repro
   imports only the generic floors of the core (:data:`REPRO_MAY_IMPORT`).
3. An ``ldpnb`` import inside a function (or a method) of core or repro says why it is not at the
   top of the file, with a comment ``# lazy: <reason>`` on the import or the line above it.
4. No cycles among the module-level imports of core and repro.

A back-door not yet closed is listed in :data:`KNOWN_BACKDOORS` with the step that removes it; a
listed back-door that no longer exists fails the test, so that the entry is deleted with the fix.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "ldpnb"
FILES = sorted(PKG.rglob("*.py"))

#: The floors of the core, lowest first.  A module's floor is that of its longest listed prefix.
FLOORS: dict[str, int] = {
    "ldpnb._random": 0,  # check_random_state: imports nothing of ldpnb
    "ldpnb._optional": 0,  # import_optional: an optional dependency named with its extra
    "ldpnb.contracts": 1,  # the validation vocabulary
    "ldpnb.utils": 2,  # conveniences that check a value in a function's body
    "ldpnb.stats": 2,  # estimates with their uncertainty (numpy, scipy, contracts)
    "ldpnb.geometry": 3,  # lattice and Earth distances
    "ldpnb.channels": 4,  # operations valid on any channel, structured operators
    "ldpnb.parallel": 4,  # reproducible sweeps
    "ldpnb.mechanisms._base": 5,  # the Mechanism object and the base families
    "ldpnb.mechanisms._common": 5,
    "ldpnb.mechanisms._catalog": 5,
    "ldpnb.mechanisms.grr": 5,
    "ldpnb.mechanisms.unary": 5,
    "ldpnb.mechanisms.hashing": 5,
    "ldpnb.mechanisms.subset": 5,
    "ldpnb.mechanisms.metric": 5,
    "ldpnb.mechanisms.hadamard": 5,  # the deployed families (issue #33 item 4)
    "ldpnb.mechanisms._hashes": 5,
    "ldpnb.mechanisms.rappor": 5,
    "ldpnb.mechanisms.longitudinal": 5,
    "ldpnb.estimators": 6,  # INV, IBU, likelihoods: know channels, not mechanisms
    "ldpnb.measures": 7,  # functions of (prior, channel)
    "ldpnb.mechanisms": 8,  # the package and its composites (below)
    "ldpnb.mechanisms.watchdog": 8,
    "ldpnb.mechanisms.orr": 8,
    "ldpnb.mechanisms.multidim": 8,
    "ldpnb.mechanisms.rate_distortion": 8,
    "ldpnb.mechanisms.protocols": 8,
    "ldpnb.attacks": 9,
    "ldpnb.data": 9,
    "ldpnb.audit": 10,
}
#: The core floors repro may import (contracts, utils, geometry, channels, parallel and below).
REPRO_MAY_IMPORT = 4

#: Back-doors not yet closed: (importing module, imported module) -> the step that removes them.
#: Delete an entry when its step is merged (the test fails on an entry that no longer matches).
KNOWN_BACKDOORS: dict[tuple[str, str], str] = {
    # the deprecated aliases of the families' fast operators (KRRChannel, ConvolutionChannel.geometric,
    # .laplace, .planar_*), kept for one release after issue #32 step 1 moved the operators into
    # the families (GRR.operator(), ...); each is a lazy import with its reason.  Delete with the aliases.
    ("ldpnb.channels", "ldpnb.mechanisms.grr"): "deprecated alias KRRChannel (one release)",
    ("ldpnb.channels.structured", "ldpnb.mechanisms.grr"): "deprecated alias KRRChannel (one release)",
    ("ldpnb.channels.structured", "ldpnb.mechanisms.metric"): "deprecated ConvolutionChannel constructors",
}

#: Files whose function-local ldpnb imports do not yet carry a "# lazy:" reason (rule 3), with the
#: step that gives them one (or moves them to the top).  Delete an entry when it is clean.
KNOWN_UNREASONED_LAZY: dict[str, str] = {}


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {_module_name(p) for p in FILES}


def _resolve(name: str) -> str:
    """The module a dotted name refers to: itself when it is a module, else its longest module prefix
    (``ldpnb.mechanisms.GRR`` -> ``ldpnb.mechanisms``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


class _Import:
    def __init__(self, line: int, end: int, target: str, local: bool) -> None:
        self.line, self.end, self.target, self.local = line, end, target, local


def _imports(path: Path) -> list[_Import]:
    """Every ldpnb module imported by ``path`` (resolved to modules), with where and whether inside
    a function."""
    mod = _module_name(path)
    pkg = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    local_nodes = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            local_nodes.update(id(n) for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom)))
    out = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")
                base = base[: len(base) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            # "from pkg import sub" imports the submodule; "from pkg import Name" the package
            names = [f"{name}.{a.name}" for a in node.names]
        else:
            continue
        for n in names:
            target = _resolve(n)
            if target.startswith("ldpnb"):
                out.append(_Import(node.lineno, node.end_lineno or node.lineno, target, id(node) in local_nodes))
    return out


def _layer(mod: str) -> str | None:
    parts = mod.split(".")
    if parts[0] != "ldpnb":
        return None
    if len(parts) == 1:
        return "root"
    if parts[1] == "repro":
        return "repro"
    if parts[1] == "papers":
        return f"papers.{parts[2]}" if len(parts) > 2 else "papers"
    return "core"


def _floor(mod: str) -> int | None:
    best = None
    for prefix, floor in FLOORS.items():
        if (mod == prefix or mod.startswith(prefix + ".")) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, floor)
    return None if best is None else best[1]


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


# ------------------------------------------------------------------------------ rule 1: papers
@pytest.mark.parametrize("path", FILES, ids=_rel)
def test_import_rule(path):
    me = _layer(_module_name(path))
    bad = []
    for imp in _imports(path):
        other = _layer(imp.target)
        if other is None or other == me:
            continue
        if me in ("core", "repro", "root") and other.startswith("papers"):
            bad.append((imp.line, imp.target))
        if me and me.startswith("papers.") and other.startswith("papers.") and other != me:
            bad.append((imp.line, imp.target))
    assert not bad, f"{_rel(path)} breaks the import rule: " + ", ".join(f"line {l}: {n}" for l, n in bad)


def test_every_module_is_in_a_layer():
    for path in FILES:
        mod = _module_name(path)
        assert _layer(mod) is not None, f"{mod}: every module lives in core, repro or papers"


# ------------------------------------------------------------------------------ rule 2: floors
def test_every_core_module_has_a_floor():
    missing = sorted(m for m in MODULES if _layer(m) == "core" and _floor(m) is None)
    assert not missing, f"core modules without a floor in FLOORS (give each one): {missing}"


def _violations(path: Path) -> list[tuple[int, str, str]]:
    me = _module_name(path)
    layer = _layer(me)
    out = []
    for imp in _imports(path):
        other = _layer(imp.target)
        if layer == "core" and other == "repro":
            out.append((imp.line, imp.target, "core never imports repro"))
        elif layer == "core" and other == "core":
            mine, theirs = _floor(me), _floor(imp.target)
            if theirs > mine:
                out.append((imp.line, imp.target, f"floor {mine} imports floor {theirs}"))
        elif layer == "repro" and other == "core" and _floor(imp.target) > REPRO_MAY_IMPORT:
            out.append((imp.line, imp.target, f"repro imports core floor {_floor(imp.target)} > {REPRO_MAY_IMPORT}"))
    return out


CORE_AND_REPRO = [p for p in FILES if _layer(_module_name(p)) in ("core", "repro")]


@pytest.mark.parametrize("path", CORE_AND_REPRO, ids=_rel)
def test_floors(path):
    me = _module_name(path)
    bad = [v for v in _violations(path) if (me, v[1]) not in KNOWN_BACKDOORS]
    assert not bad, f"{_rel(path)} imports upward: " + "; ".join(f"line {l}: {t} ({why})" for l, t, why in bad)


def test_known_backdoors_still_exist():
    """An entry of KNOWN_BACKDOORS whose import is gone must be deleted (the step has landed)."""
    seen = {(_module_name(p), t) for p in CORE_AND_REPRO for _, t, _ in _violations(p)}
    stale = sorted(set(KNOWN_BACKDOORS) - seen)
    assert not stale, f"these back-doors are closed; delete them from KNOWN_BACKDOORS: {stale}"


# ------------------------------------------------------------------------------ rule 3: lazy imports
def _unreasoned_lazy(path: Path) -> list[int]:
    lines = path.read_text(encoding="utf-8").splitlines()
    bad = []
    for imp in _imports(path):
        if not imp.local:
            continue
        around = lines[max(0, imp.line - 2) : imp.end]
        if not any("# lazy:" in ln or "lazy: " in ln.partition("#")[2] for ln in around):
            bad.append(imp.line)
    return sorted(set(bad))


@pytest.mark.parametrize("path", CORE_AND_REPRO, ids=_rel)
def test_function_local_imports_state_a_reason(path):
    if _rel(path) in KNOWN_UNREASONED_LAZY:
        pytest.skip(f"known: {KNOWN_UNREASONED_LAZY[_rel(path)]}")
    bad = _unreasoned_lazy(path)
    assert not bad, (
        f"{_rel(path)}: ldpnb imports inside a function without a '# lazy: <reason>' comment "
        f"(or move them to the top of the file): lines {bad}"
    )


def test_known_unreasoned_lazy_files_still_need_it():
    stale = sorted(f for f in KNOWN_UNREASONED_LAZY if not _unreasoned_lazy(ROOT / f))
    assert not stale, f"these files are clean; delete them from KNOWN_UNREASONED_LAZY: {stale}"


# ------------------------------------------------------------------------------ rule 4: no cycles
def test_no_import_cycles():
    graph = {}
    for p in CORE_AND_REPRO:
        me = _module_name(p)
        graph[me] = {
            i.target
            for i in _imports(p)
            if not i.local and i.target != me and i.target in MODULES and _layer(i.target) in ("core", "repro")
        }
    # a package's __init__ importing its own submodules, and a submodule importing a sibling through the
    # package, are both edges; a cycle is any strongly connected component of more than one module
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    known = [c for c in comps if c in KNOWN_CYCLES]
    assert not [c for c in comps if c not in known], f"import cycles: {[c for c in comps if c not in known]}"
    stale = [c for c in KNOWN_CYCLES if c not in comps]
    assert not stale, f"these cycles are gone; delete them from KNOWN_CYCLES: {stale}"


#: Cycles not yet broken, with the step that breaks them (delete an entry when it lands).
KNOWN_CYCLES: list[list[str]] = []
