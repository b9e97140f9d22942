"""The built book's executed chapters are clean (run by `.ci/run` after `make book`).

Every chapter on the claims machinery, as executed by the build (``_build/executed/book``, or
``$LDPNB_EXECUTED_DIR``), shows no stderr stream, error, object repr, numpy repr or machine path,
and its figures are legible in the column (``ldpnb.repro.nbcheck``).  Marked ``built``: `make test`
runs before the book exists and deselects it.
"""

import os
from pathlib import Path

import nbformat
import pytest

from ldpnb.repro.nbcheck import figure_problems, output_problems, uses_claims_machinery

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
EXECUTED = Path(os.environ.get("LDPNB_EXECUTED_DIR", ROOT / "_build" / "executed" / "book"))
NEW = sorted(p.stem for p in BOOK.glob("*.py") if uses_claims_machinery(p.read_text(encoding="utf-8")))

pytestmark = pytest.mark.built


def _executed(name):
    path = EXECUTED / f"{name}.ipynb"
    if not path.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{path} does not exist: run `make book` before this test")
        pytest.skip(f"{path} does not exist (run `make book`)")
    return nbformat.read(path, as_version=4)


@pytest.mark.parametrize("name", NEW)
def test_outputs_are_clean(name):
    problems = output_problems(_executed(name))
    assert not problems, f"{name}:\n" + "\n".join(problems)


@pytest.mark.parametrize("name", NEW)
def test_figures_are_legible(name):
    problems = figure_problems(_executed(name))
    assert not problems, f"{name}:\n" + "\n".join(problems)


def test_checker_catches_what_it_must():
    nb = nbformat.v4.new_notebook()
    bad = [
        nbformat.v4.new_output("stream", name="stderr", text="UserWarning: tight_layout"),
        nbformat.v4.new_output("execute_result", data={"text/plain": "np.float64(0.25)"}, execution_count=1),
        nbformat.v4.new_output("execute_result", data={"text/plain": "<ldpnb.x.Foo object at 0x7f00aa>"},
                               execution_count=1),
        nbformat.v4.new_output("stream", name="stdout", text=f"wrote {ROOT}/_build/bench.json"),
        nbformat.v4.new_output("display_data", data={"text/html": "<td>Claim(id=&#x27;T3&#x27;)</td>",
                                                     "text/plain": "x"}),
    ]
    cell = nbformat.v4.new_code_cell("x")
    cell.outputs = bad
    nb.cells = [cell]
    kinds = [p.split(": ")[1] for p in output_problems(nb)]
    assert kinds == ["stderr stream", "numpy repr", "object repr", "machine path", "object repr"]
    ok = nbformat.v4.new_code_cell("y")
    ok.outputs = [nbformat.v4.new_output("stream", name="stdout", text="mean 0.25, 3 runs, k = 12\n"),
                  nbformat.v4.new_output("display_data", data={"image/png": "iVBOR", "text/plain": "<Figure size 700x400 with 1 Axes>"})]
    nb.cells = [ok]
    assert output_problems(nb) == []
