"""Claims are decided by their numbers: no report row is chosen by branching on an outcome.

A chapter (or a paper module) on the claims machinery records a claim with ``report.close`` /
``range`` / ``order`` / ``monotone`` / ``holds`` / ``not_evaluated``; the criterion is declared in
``ldpnb/papers/<paper>/claims.py``.  Such a call may sit inside a loop, but not inside an ``if`` whose
test looks at anything but the scale or the seed: that would choose which claim (or which status) a
result gets after seeing it.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
METHODS = {"close", "range", "order", "monotone", "holds", "not_evaluated"}
ALLOWED_NAMES = {"SCALE", "SEED", "PAPER_SCALE"}
FILES = sorted(ROOT.glob("book/*.py")) + sorted((ROOT / "ldpnb" / "papers").rglob("*.py"))


def _uses_claims(tree: ast.AST) -> bool:
    for n in ast.walk(tree):
        if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("ldpnb.repro"):
            if any(a.name in ("Report",) for a in n.names) and n.module in ("ldpnb.repro", "ldpnb.repro.report"):
                return True
    return False


def _report_calls(node):
    for n in ast.walk(node):
        if (
            isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and n.func.attr in METHODS
            and isinstance(n.func.value, ast.Name)
            and "report" in n.func.value.id.lower()
        ):
            yield n


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_claim_is_chosen_by_branching(path):
    tree = ast.parse(path.read_text())
    if not _uses_claims(tree) and "papers" not in path.parts and path.stem not in ("reproduction", "quickstart"):
        pytest.fail(f"{path.name} does not record its claims with ldpnb.repro.Report")
    bad = []
    for n in ast.walk(tree):
        if isinstance(n, (ast.If, ast.IfExp)):
            names = {x.id for x in ast.walk(n.test) if isinstance(x, ast.Name)}
            if names - ALLOWED_NAMES:
                branches = (n.body + n.orelse) if isinstance(n, ast.If) else [n.body, n.orelse]
                for b in branches:
                    for call in _report_calls(b):
                        bad.append(f"line {call.lineno}: report.{call.func.attr} under `if {ast.unparse(n.test)}`")
    assert not bad, f"{path.relative_to(ROOT)}: " + "; ".join(bad)
