"""The book: jupytext pairs in sync, the toc complete, every chapter executes at smoke scale.

Chapters on the claims machinery (importing ``Report`` from ``ldpnb.repro``) are also held to the
reading standards: code lines of at most 88 characters (no code block scrolls sideways in the
column), and, executed, no stderr, error, object or numpy repr, machine path, nor illegible figure
(``ldpnb.repro.nbcheck``).
"""

import json
from pathlib import Path

import jupytext
import nbformat
import pytest

from ldpnb.repro.claims import verify_row
from ldpnb.repro.nbcheck import figure_problems, output_problems, uses_claims_machinery
from ldpnb.repro.report import KEYS, STATUSES

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
CHAPTERS = sorted(p.stem for p in BOOK.glob("*.py"))
NO_REPORT = {"reproduction", "quickstart"}  # the summary aggregates the reports; the quickstart reproduces nothing
NEW = sorted(n for n in CHAPTERS if uses_claims_machinery((BOOK / f"{n}.py").read_text(encoding="utf-8")))
MAX_CODE_COLUMNS = 88


def _cells(nb):
    """What the build compares too (``ldpnb.repro.build.pair_state``): type, source and tags."""
    return [(c.cell_type, c.source.strip(), tuple(c.get("metadata", {}).get("tags", []))) for c in nb.cells]


@pytest.mark.parametrize("name", CHAPTERS)
def test_pair_in_sync_and_without_outputs(name):
    py, ipynb = BOOK / f"{name}.py", BOOK / f"{name}.ipynb"
    assert ipynb.exists(), f"{py.name} has no paired {ipynb.name}: run `make sync`"
    from_py = jupytext.read(py)
    stored = nbformat.read(ipynb, as_version=4)
    assert _cells(from_py) == _cells(stored), f"{ipynb.name} is stale with respect to {py.name}: run `make sync`"
    for c in stored.cells:
        if c.cell_type == "code":
            assert not c.get("outputs"), f"{ipynb.name} is committed with outputs"
    params = [c for c in stored.cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(params) == 1, f"{ipynb.name} needs exactly one cell tagged 'parameters'"
    assert "SCALE" in params[0].source and "SEED" in params[0].source


def test_every_chapter_is_on_the_claims_machinery():
    """Every chapter with a report uses ``ldpnb.repro.Report`` (typed criteria, sources, falsifiers)."""
    assert sorted(set(CHAPTERS) - NO_REPORT) == sorted(set(NEW) - NO_REPORT)


@pytest.mark.parametrize("name", NEW)
def test_code_lines_fit_the_column(name):
    """A code line longer than 88 characters scrolls sideways in the book's column."""
    nb = jupytext.read(BOOK / f"{name}.py")
    long = [
        f"{line[:60]}... ({len(line)} characters)"
        for c in nb.cells
        if c.cell_type == "code"
        for line in c.source.splitlines()
        if len(line) > MAX_CODE_COLUMNS
    ]
    assert not long, f"book/{name}.py: {len(long)} code line(s) over {MAX_CODE_COLUMNS} characters:\n" + "\n".join(long)


@pytest.mark.parametrize("name", sorted(set(NEW) - NO_REPORT))
def test_sizes_come_from_the_paper_package(name):
    """A chapter's sizes per scale are declared in its paper package (``SIZES_BY_SCALE``, ``sizes(SCALE)``),
    where the criteria can see them; no cell keeps its own ``{"smoke": ...}`` table or ``if SCALE`` branch."""
    import re

    nb = jupytext.read(BOOK / f"{name}.py")
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    found = re.findall(r'\{\s*"smoke"\s*:|\bif\s+SCALE\b|SCALE\s*[=!]=', code)
    assert not found, f"book/{name}.py: a size table or scale branch in a cell: {found}"


@pytest.mark.parametrize("name", CHAPTERS)
def test_no_backtick_in_a_directive_line(name):
    """A backtick in a directive's title (```{prf:theorem} Foo {cite}`x`) is not a fence opener in
    CommonMark: jupytext then swallows every later cell into one markdown cell."""
    import re

    bad = [
        ln
        for ln in (BOOK / f"{name}.py").read_text(encoding="utf-8").splitlines()
        if re.match(r"^# ```+\{[^}]+\}.*`", ln)
    ]
    assert not bad, f"book/{name}.py: move the role out of the directive's title: {bad}"


def test_every_notebook_has_a_source():
    for nb in BOOK.glob("*.ipynb"):
        assert nb.with_suffix(".py").exists(), f"{nb.name} has no jupytext source {nb.stem}.py"


def test_toc_lists_existing_pages_and_every_chapter():
    from ldpnb.repro.build import toc_files

    files = toc_files(ROOT)
    for f in files:
        p = ROOT / f
        assert p.with_suffix(".md").exists() or p.with_suffix(".py").exists(), f"{f} in _toc.yml does not exist"
    listed = {Path(f).name for f in files}
    assert set(CHAPTERS) <= listed, f"chapters missing from _toc.yml: {set(CHAPTERS) - listed}"


@pytest.mark.notebook
@pytest.mark.parametrize("name", CHAPTERS)
def test_chapter_executes_at_smoke_scale(name, tmp_path, monkeypatch):
    import papermill as pm

    monkeypatch.setenv("LDPNB_BUILD_DIR", str(tmp_path))
    monkeypatch.setenv("PAPERMILL", "1")
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(var, "1")
    if name in NO_REPORT:  # the summary reads the chapters' reports: it runs here on none of them
        (tmp_path / "reproduction").mkdir()
    out = tmp_path / f"{name}.ipynb"
    pm.execute_notebook(
        str(BOOK / f"{name}.ipynb"),
        str(out),
        parameters={"SCALE": "smoke"},
        cwd=str(BOOK),
        kernel_name="python3",
        progress_bar=False,
        execution_timeout=600,
    )
    executed = nbformat.read(out, as_version=4)
    if name in NEW:
        problems = output_problems(executed) + figure_problems(executed)
        assert not problems, f"{name} at smoke scale:\n" + "\n".join(problems)
    if name in NO_REPORT:
        return
    n_png = sum(
        any(m == "image/png" or m.endswith("record/image/png") for m in o.get("data", {}))
        for c in executed.cells
        for o in c.get("outputs", [])
    )  # shown, or glued for a captioned figure
    assert n_png > 0, f"{name}: the executed notebook holds no figure (matplotlib backend not inline?)"
    report = tmp_path / "reproduction" / f"{name}.json"
    assert report.exists(), f"{name} did not write its reproduction report (call report.finalize())"
    rows = json.loads(report.read_text())
    assert rows, f"{name}: empty reproduction report"
    timings = tmp_path / "reproduction" / f"{name}.timings.json"
    volatile = json.loads(timings.read_text())["claims"] if timings.exists() else {}
    problems = []
    for r in rows:
        assert set(r) == set(KEYS), f"{name}: row keys {sorted(r)}"
        assert r["status"] in STATUSES and r["scale"] == "smoke"
        problems += verify_row({**r, **volatile.get(r["id"], {})})  # the criterion fails on the falsifier
    assert not problems, f"{name}: " + "; ".join(problems)


_SOURCES = sorted([*BOOK.glob("*.py"), *BOOK.glob("*.md"), *(ROOT / "ldpnb").rglob("*.py")])


@pytest.mark.parametrize("path", _SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_control_characters_in_sources(path):
    """No tab, bell, backspace or form feed in the book's and the package's text: they are what
    ``"\\theta"``, ``"\\alpha"``, ``"\\beta"`` become in a non-raw Python string, and render as broken
    formulas (``$A<TAB>heta$``) in the book and the docstrings."""
    text = path.read_text(encoding="utf-8")
    bad = [
        (i + 1, repr(line)) for i, line in enumerate(text.splitlines()) if any(c in line for c in "\t\x07\x08\x0b\x0c")
    ]
    assert not bad, f"{path.relative_to(ROOT)}: control characters on lines {bad[:5]}"
