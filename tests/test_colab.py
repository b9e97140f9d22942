"""One-click notebooks: every chapter starts with the cell that installs the package on Colab, and a
chapter runs with nothing but what that cell installs.

The fast tests check the cell of every chapter (``book/<name>.py`` and its paired notebook, which is
what Colab opens).  The slow test creates a fresh virtual environment, installs into it exactly the
requirement of foundations' cell (this worktree instead of the repository URL) plus the notebook
runtime that Colab provides (ipykernel, nbclient), and executes the chapter at smoke scale there;
``make test-notebook`` runs it (``.ci/run`` does).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import nbformat
import pytest

from ldpnb.repro import colab

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
CHAPTERS = sorted(p.stem for p in BOOK.glob("*.py"))


def test_the_cell_is_what_the_writer_writes():
    src = colab.cell_source(["notebook"], "https://github.com/o/r")
    assert src.startswith('# %% tags=["remove-cell"]\n') and '"google.colab" in sys.modules' in src
    assert '"ldpnb[notebook] @ git+https://github.com/o/r"' in src
    assert colab.extras_for("from myst_nb import glue") == ["notebook"]
    assert colab.extras_for("from ldpnb.repro import Report, glue") == []
    assert colab.extras_for("interactive_table(claims)") == ["notebook"]


@pytest.mark.parametrize("name", CHAPTERS)
def test_every_chapter_starts_with_its_install_cell(name):
    url = colab.repository_url(ROOT)
    py = BOOK / f"{name}.py"
    body = colab._CELL_RE.sub("", py.read_text(encoding="utf-8"))
    assert colab.install_cell(py) == colab.cell_source(colab.extras_for(body), url), (
        f"book/{name}.py: missing or stale install cell (run `python -m ldpnb.repro.colab`)"
    )
    nb = nbformat.read(BOOK / f"{name}.ipynb", as_version=4)
    first = nb.cells[0]
    assert first.cell_type == "code" and "remove-cell" in first.metadata.get("tags", []), (
        f"book/{name}.ipynb: the first cell is not the (removed) install cell"
    )
    assert "google.colab" in first.source and url in first.source
    # the extras named in the cell exist in pyproject.toml
    extras = re.findall(r"ldpnb\[([^\]]*)\]", first.source)
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for extra in (e for group in extras for e in group.split(",")):
        assert re.search(rf"^{re.escape(extra)} = \[", text, re.M), f"extra {extra!r} is not in pyproject.toml"


_RUN = r"""
import sys, nbformat
from nbclient import NotebookClient
nb = nbformat.read(sys.argv[1], as_version=4)
for c in nb.cells:
    if "parameters" in c.metadata.get("tags", []):
        c.source = 'SCALE = "smoke"\nSEED = 2024'
NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": sys.argv[2]}}).execute()
nbformat.write(nb, sys.argv[3])
"""


@pytest.mark.slow
def test_a_chapter_runs_with_only_what_its_cell_installs(tmp_path):
    """foundations, in a fresh virtual environment holding only the cell's requirement (plus the
    notebook runtime Colab has), executes at smoke scale without an error."""
    name = "foundations"
    nb = nbformat.read(BOOK / f"{name}.ipynb", as_version=4)
    req = re.search(r'"(ldpnb(\[[^\]]*\])? @ git\+\S+)"', nb.cells[0].source).group(1)
    extras = re.match(r"ldpnb(\[[^\]]*\])?", req).group(1) or ""
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    py = env_dir / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = f"{env_dir / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    pip = [str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    # what the cell installs, from a copy of this worktree instead of the repository URL (pip builds
    # in the source folder: the copy keeps build/ and *.egg-info out of the worktree)
    src = tmp_path / "src"
    shutil.copytree(
        ROOT,
        src,
        ignore=shutil.ignore_patterns(
            ".git", "_build", ".venv", "build", "*.egg-info", "__pycache__", "results", "book", "tests"
        ),
    )
    subprocess.run([*pip, f"{src}{extras}"], check=True, env=env, cwd=tmp_path, timeout=1800)
    # what Colab's runtime already has: a kernel and a notebook runner
    subprocess.run([*pip, "ipykernel", "nbclient"], check=True, env=env, cwd=tmp_path, timeout=900)
    subprocess.run(
        [str(py), "-m", "ipykernel", "install", "--sys-prefix", "--name", "python3"],
        check=True,
        env=env,
        cwd=tmp_path,
        capture_output=True,
    )
    probe = subprocess.run(
        [
            str(py),
            "-c",
            "import importlib.util, json; print(json.dumps("
            "{m: importlib.util.find_spec(m) is not None for m in "
            "('ldpnb', 'myst_nb', 'jupyter_book', 'papermill')}))",
        ],
        check=True,
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    found = json.loads(probe.stdout)
    assert found["ldpnb"] and not found["jupyter_book"] and not found["papermill"], found
    if not extras:
        assert not found["myst_nb"], "myst-nb is in the fresh environment although the cell does not install it"
    work = tmp_path / "run"
    work.mkdir()
    env["LDPNB_BUILD_DIR"] = str(work / "_build")
    env["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
    out = work / f"{name}.ipynb"
    res = subprocess.run(
        [str(py), "-c", _RUN, str(BOOK / f"{name}.ipynb"), str(work), str(out)],
        env=env,
        cwd=work,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert res.returncode == 0, f"{name} failed in the fresh environment:\n{res.stderr[-3000:]}"
    done = nbformat.read(out, as_version=4)
    errors = [o for c in done.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
    assert (work / "_build" / "reproduction" / f"{name}.json").exists(), "the chapter wrote no report"
    images = sum("image/png" in o.get("data", {}) for c in done.cells for o in c.get("outputs", []))
    assert images >= 4, f"only {images} figures shown without myst-nb (its glue shows them in place)"
    assert sys.version_info >= (3, 10)
