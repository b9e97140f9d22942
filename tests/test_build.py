"""The build's safety nets: bibliography merge, stale pairs, mixed scales, errors, interrupts."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import jupytext
import nbformat
import psutil
import pytest

from ldpnb.repro import build
from ldpnb.repro.sphinx_ext import author_year_label

ROOT = Path(__file__).resolve().parents[1]


# ------------------------------------------------------------------------------- bibliography


def test_bibliography_lists_each_work_once():
    files = [ROOT / "book" / "references.bib", *sorted((ROOT / "book" / "refs").glob("*.bib"))]
    kept, aliases = build.bib_entries(files)
    keys = [k for k, _ in kept]
    assert len(keys) == len(set(keys))
    works = [(build._first_author(t), build._norm_title(build._bib_field(t, "title"))) for _, t in kept]
    dups = {w for w in works if works.count(w) > 1}
    assert not dups, f"works listed twice: {dups}"
    for key in aliases.values():
        assert key in keys


def test_same_work_under_two_keys_is_merged(tmp_path):
    a = tmp_path / "a.bib"
    b = tmp_path / "b.bib"
    a.write_text(
        "@inproceedings{andres2013geo,\n  author = {Andr{\\'e}s, Miguel E. and Bordenabe, N.},\n"
        "  title = {Geo-indistinguishability: Differential Privacy for Location-Based Systems},\n"
        "  year = {2013}\n}\n"
    )
    b.write_text(
        "@inproceedings{andres2013geoind,\n  author = {Andr\\'es, M. E. and others},\n"
        "  title = {Geo-indistinguishability: differential privacy for location-based systems},\n"
        "  year = {2013}\n}\n@article{other2020,\n  author = {Other, A.},\n  title = {Else},\n"
        "  year = {2020}\n}\n"
    )
    kept, aliases = build.bib_entries([a, b])
    assert [k for k, _ in kept] == ["andres2013geo", "other2020"]
    assert aliases == {"andres2013geoind": "andres2013geo"}


def test_citations_follow_the_kept_key():
    aliases = {"andres2013geoind": "andres2013geo", "cho2011gowalla": "cho2011friendship"}
    text = "see {cite}`andres2013geoind` and {cite:p}`cho2011gowalla,andres2013geo` or {cite:t}`x2020`"
    assert build.rewrite_citations(text, aliases) == (
        "see {cite}`andres2013geo` and {cite:p}`cho2011friendship,andres2013geo` or {cite:t}`x2020`"
    )


def test_author_year_labels():
    from pybtex.database import parse_string

    db = parse_string(
        textwrap.dedent(r"""
        @article{a, author = {Warner, Stanley L.}, title = {T}, year = {1965}}
        @article{b, author = {Murakami, T. and Takahashi, K.}, title = {T}, year = {2021}}
        @article{c, author = {Andr{\'e}s, M. and Bordenabe, N. and Chatzikokolakis, K.}, title = {T}, year = {2013}}
        @article{d, author = {Flamary, R{\'e}mi and others}, title = {T}, year = {2021}}
        """),
        "bibtex",
    )
    labels = [author_year_label(db.entries[k]) for k in "abcd"]
    assert labels == ["Warner, 1965", "Murakami and Takahashi, 2021", "Andrés et al., 2013", "Flamary et al., 2021"]


# ------------------------------------------------------------------------------- stale pairs


def _pair(book: Path, name: str, source: str) -> None:
    py = book / f"{name}.py"
    py.write_text(source)
    nb = jupytext.read(py)
    nb.metadata["jupytext"] = {"formats": "ipynb,py:percent"}
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, book / f"{name}.ipynb")


def test_stale_notebook_is_repaired_and_newer_notebook_refused(tmp_path):
    src = "# %% [markdown]\n# # T\n\n# %% tags=[\"parameters\"]\nSCALE = 'book'\nSEED = 1\n"
    _pair(tmp_path, "ch", src)
    assert build.pair_state("ch", tmp_path) == "ok"
    time.sleep(0.05)
    (tmp_path / "ch.py").write_text(src + "\n# %%\nx = 1\n")
    os.utime(tmp_path / "ch.py", (time.time() + 5, time.time() + 5))
    assert build.pair_state("ch", tmp_path) == "ipynb-stale"
    build.ensure_pairs(["ch"], tmp_path)
    assert build.pair_state("ch", tmp_path) == "ok"
    # a notebook edited after its .py (in Jupyter without jupytext) is refused, not overwritten
    nb = nbformat.read(tmp_path / "ch.ipynb", as_version=4)
    nb.cells[-1].source = "x = 2"
    nbformat.write(nb, tmp_path / "ch.ipynb")
    os.utime(tmp_path / "ch.ipynb", (time.time() + 10, time.time() + 10))
    assert build.pair_state("ch", tmp_path) == "ipynb-newer"
    with pytest.raises(SystemExit, match="newer file"):
        build.ensure_pairs(["ch"], tmp_path)
    assert "x = 2" in (tmp_path / "ch.ipynb").read_text()


# ------------------------------------------------------------------------------- scales


def test_mixed_scales_are_refused_or_bannered():
    assert build.check_scales({"a": "book", "b": "book"}, allow_mixed=False) is None
    with pytest.raises(SystemExit, match="different scales"):
        build.check_scales({"a": "book", "b": "smoke"}, allow_mixed=False)
    assert "mixes scales" in build.check_scales({"a": "book", "b": "smoke"}, allow_mixed=True)
    assert "SCALE=smoke" in build.check_scales({"a": "smoke", "b": "smoke"}, allow_mixed=False)


def test_staged_notebook_hides_plumbing_and_shows_banner(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Title\n\nsee {cite}`dup2020`"),
        nbformat.v4.new_code_cell("SCALE = 'book'", metadata={"tags": ["parameters"]}),
        nbformat.v4.new_code_cell("SCALE = 'smoke'\n", metadata={"tags": ["injected-parameters"]}),
        nbformat.v4.new_code_cell("x = 1"),
    ]
    nbformat.write(nb, tmp_path / "in.ipynb")
    build._stage_notebook(tmp_path / "in.ipynb", tmp_path / "out.ipynb", {"dup2020": "kept2020"}, banner_scale="smoke")
    out = nbformat.read(tmp_path / "out.ipynb", as_version=4)
    assert not any("injected-parameters" in c.metadata.get("tags", []) for c in out.cells)
    params = [c for c in out.cells if "parameters" in c.metadata.get("tags", [])]
    assert params and "remove-cell" in params[0].metadata["tags"]
    assert out.cells[0].source.endswith("{cite}`kept2020`")
    assert "SCALE=smoke" in out.cells[1].source  # the banner, right under the title


def test_build_time_sentence_quotes_the_recorded_times(tmp_path):
    t = tmp_path / "timings.json"
    t.write_text('{"book": {"pie": 100.0, "ibu": 250.0, "_total_execute": 300.0, "_jobs": 2}}')
    s = build.build_time_markdown(t, "book")
    assert "350 s" in s and "300 s" in s and "ibu" in s and "2 chapters at a time" in s
    assert "no execution times" in build.build_time_markdown(tmp_path / "missing.json", "book")


# ------------------------------------------------------------------------------- errors


def test_failure_summary_puts_the_exception_message_first(tmp_path):
    book = tmp_path / "book"
    book.mkdir()
    (book / "ch.py").write_text(
        "# %%\nimport math\n\n# %%\nraise_here = 1\nraise ValueError('the data file is missing')\n"
    )
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("raise_here = 1\nraise ValueError('the data file is missing')")
    cell.outputs = [
        nbformat.v4.new_output(
            "error",
            ename="ValueError",
            evalue="the data file is missing",
            traceback=["\x1b[0;31m---------\x1b[0m", "line 2", "ValueError: the data file is missing"],
        )
    ]
    nb.cells = [nbformat.v4.new_code_cell("import math"), cell]
    nbformat.write(nb, tmp_path / "ch.ipynb")
    msg = build.failure_summary("ch", tmp_path / "ch.ipynb", "x" * 20000, book=book)
    first, second = msg.splitlines()[:2]
    assert first == "ValueError: the data file is missing"
    assert "code cell 2" in second and "ch.py line 5" in second
    assert "\x1b" not in msg and len(msg) < 2000


def test_failure_summary_without_notebook_reads_stderr(tmp_path):
    err = (
        "lots of noise\nTraceback (most recent call last):\n  File x\n"
        "nbclient.exceptions.CellTimeoutError: cell timed out\n"
    )
    msg = build.failure_summary("ch", tmp_path / "missing.ipynb", err, book=tmp_path)
    assert msg.splitlines()[0] == "nbclient.exceptions.CellTimeoutError: cell timed out"


# ------------------------------------------------------------------------------- interrupts

_SLOW_CHAPTER = """\
# %% tags=["parameters"]
SCALE = "book"
SEED = 0

# %%
import os, time
from joblib import Parallel, delayed
open(os.environ["LDPNB_TEST_FLAG"], "w").write("started")
Parallel(n_jobs=2, backend="loky")(delayed(time.sleep)(120) for _ in range(4))
"""

_DRIVER = """\
import signal
import sys
from pathlib import Path
# Ctrl-C from a terminal: a build started as a background job of a non-interactive shell (as CI scripts
# are, e.g. `nohup bash .ci/run &`) inherits SIGINT ignored, and would rightly not react to it.
signal.signal(signal.SIGINT, signal.default_int_handler)
from ldpnb.repro import build
book = Path(sys.argv[1])
build.BOOK = book
build._run_chapters([["slow"]], "smoke", 1, {}, 600, book / "out", book / "out")
"""


def test_interrupt_ends_kernels_and_joblib_workers(tmp_path):
    """Ctrl-C on the build ends papermill, the kernel (in a session of its own) and loky's workers."""
    book = tmp_path / "book"
    book.mkdir()
    _pair(book, "slow", _SLOW_CHAPTER)
    flag = tmp_path / "flag"
    (tmp_path / "driver.py").write_text(_DRIVER)
    env = {**os.environ, "LDPNB_TEST_FLAG": str(flag), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, str(tmp_path / "driver.py"), str(book)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.time() + 120
        workers: list[psutil.Process] = []
        while time.time() < deadline:
            kids = psutil.Process(proc.pid).children(recursive=True)
            workers = [p for p in kids if "loky" in " ".join(_cmdline(p))]
            if flag.exists() and len(workers) >= 2:
                break
            time.sleep(0.5)
        else:
            pytest.fail("the test chapter never started its joblib workers")
        everything = psutil.Process(proc.pid).children(recursive=True)
        assert len(everything) >= 4  # papermill, the kernel, two workers (and loky's helpers)
        time.sleep(1.5)  # let the build's watcher record them
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=240)  # generous: under pytest-xdist both cores are busy
        gone, alive = psutil.wait_procs(everything, timeout=15)
        assert not alive, f"left running after the interrupt: {[(p.pid, _cmdline(p)) for p in alive]}\n{out}"
        assert "interrupted" in out
    finally:
        if proc.poll() is None:
            proc.kill()


def _cmdline(p: psutil.Process) -> list[str]:
    try:
        return p.cmdline()
    except psutil.Error:
        return []


def test_longest_chapters_start_first():
    names = ["foundations", "pie", "lift", "ibu", "new"]
    previous = {"foundations": 12.6, "pie": 135.3, "lift": 415.8, "ibu": 740.2, "_total_execute": 9.0}
    assert build.longest_first(names, previous) == ["new", "ibu", "lift", "pie", "foundations"]
    assert build.longest_first(names, {}) == names


# ------------------------------------------------------------------------------- the CLI with bad input


@pytest.mark.parametrize(
    "argv, option",
    [
        (["execute", "--jobs", "0"], "--jobs"),
        (["execute", "--jobs", "-3"], "--jobs"),
        (["execute", "--jobs", "two"], "--jobs"),
        (["all", "--jobs", "257"], "--jobs"),
        (["chapter", "foundations", "--timeout", "0"], "--timeout"),
        (["execute", "--timeout", "-1"], "--timeout"),
        (["chapter", "foundations", "--scale", "huge"], "--scale"),
        (["chapter"], "chapter"),
        (["execute", "foundations"], "chapter"),
        (["nosuchstep"], "step"),
    ],
)
def test_cli_refuses_bad_options_in_one_line(argv, option, capsys):
    """Refused before anything runs (was: --jobs 0 / -3 and --timeout 0 ran serially / without a timeout),
    with one line naming the option, not argparse's usage block."""
    with pytest.raises(SystemExit) as info:
        build.main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and option in err and "error" in err, err


@pytest.mark.parametrize(
    "params, word",
    [
        ({"SEED": "abc"}, "SEED"),
        ({"SEED": -1}, "SEED"),
        ({"SEED": 1.5}, "SEED"),
        ({"SEED": True}, "SEED"),
        ({"SCALE": "huge"}, "SCALE"),
        ({"FOO": 1}, "FOO"),
    ],
)
def test_chapter_parameters_are_checked_before_any_kernel_starts(tmp_path, params, word):
    _pair(tmp_path, "ch", '# %% tags=["parameters"]\nSCALE = "book"\nSEED = 1\n\n# %%\nx = 1\n')
    assert build.chapter_parameters("ch", tmp_path) == {"SCALE": "book", "SEED": 1}
    build.check_params(["ch"], {"SEED": 7, "SCALE": "smoke"}, tmp_path)
    with pytest.raises(SystemExit) as info:
        build.check_params(["ch"], params, tmp_path)
    msg = str(info.value)
    assert len(msg.splitlines()) == 1 and word in msg, msg


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda text: text[: len(text) // 3],  # truncated
        lambda text: "this is not JSON",  # not JSON
        lambda text: '{"metadata": {}, "nbformat": 4}',  # JSON without cells
        lambda text: "\udcff",  # not UTF-8 (written with surrogateescape)
    ],
)
def test_a_corrupted_notebook_is_named_in_one_line(tmp_path, corrupt):
    """Was a bare 26-45-line nbformat traceback (NotJSONError, UnicodeDecodeError, ValidationError)
    that did not say which file it read."""
    _pair(tmp_path, "ch", '# %% tags=["parameters"]\nSCALE = "book"\n\n# %%\nx = 1\n')
    nb = tmp_path / "ch.ipynb"
    nb.write_text(corrupt(nb.read_text()), errors="surrogateescape")
    for call in (
        lambda: build.pair_state("ch", tmp_path),
        lambda: build.ensure_pairs(["ch"], tmp_path),
        lambda: build.notebook_parameters(nb),
        lambda: build.read_notebook(nb),
    ):
        with pytest.raises(SystemExit) as info:
            call()
        msg = str(info.value)
        assert len(msg.splitlines()) == 1 and "ch.ipynb" in msg and "not a readable notebook" in msg, msg


def test_failure_summary_of_an_input_error_is_the_message_alone(tmp_path):
    """An error raised by a contract (a bad SEED inside the chapter), a DataError or a failed row: the
    message and where it happened, without the kernel's traceback (kept in the executed notebook)."""
    (tmp_path / "ch.py").write_text("# %%\nrng = rng_for(SEED, 'x')\n")
    tb = [
        "\x1b[0;31m----\x1b[0m",
        "Cell In[3], line 1",
        "----> 1 rng = rng_for(SEED, 'x')",
        "File /x/ldpnb/contracts.py:919, in contract.<locals>.wrapper(*args, **kwargs)",
        "    919 ...",
        "File /x/ldpnb/contracts.py:185, in Integer.check(self, value, name)",
        "--> 185 raise ...",
        "TypeError: seed must be an integer in [0, inf], got 'abc' (str)",
    ]
    for ename, frames, short in [
        ("TypeError", tb, True),
        ("DataError", tb[:3], True),
        ("ReproductionFailure", tb[:3], True),
        ("ZeroDivisionError", tb[:3], False),
    ]:
        nb = nbformat.v4.new_notebook()
        cell = nbformat.v4.new_code_cell("rng = rng_for(SEED, 'x')")
        cell.outputs = [nbformat.v4.new_output("error", ename=ename, evalue="the message", traceback=frames)]
        nb.cells = [cell]
        nbformat.write(nb, tmp_path / "ch.ipynb")
        msg = build.failure_summary("ch", tmp_path / "ch.ipynb", "", book=tmp_path)
        assert msg.splitlines()[0] == f"{ename}: the message"
        assert "ch.py line 2" in msg.splitlines()[1]
        assert (len(msg.splitlines()) == 2) == short, msg


_GOOD = '# %% tags=["parameters"]\nSCALE = "book"\nSEED = 1\n\n# %%\nx = 1\n'
_BAD = (
    '# %% tags=["parameters"]\nSCALE = "book"\nSEED = 1\n\n# %%\nfrom ldpnb.repro import rng_for\n\n'
    '# %%\nrng = rng_for(-SEED, "x")\n'
)


def test_a_failed_run_writes_nothing_and_says_its_error_first(tmp_path, monkeypatch, capsys):
    """A failed chapter leaves no executed notebook, timings or chapter folder of its run (was: a
    ``chapter-timings.json`` and ``timings.json`` recording the failed run); its notebook goes to
    ``_build/failed/<name>/``; the chapter's own message is the first line of the error, alone."""
    book = tmp_path / "book"
    book.mkdir()
    _pair(book, "good", _GOOD)
    _pair(book, "bad", _BAD)
    out = tmp_path / "_build"
    monkeypatch.setattr(build, "BOOK", book)
    monkeypatch.setattr(build, "BUILD", out)
    monkeypatch.setattr(build, "notebook_chapters", lambda: ["good", "bad"])

    assert build.run_chapter("good", "smoke", {}, 600, False) == 0
    good = out / "chapters" / "good"
    assert sorted(p.name for p in good.iterdir()) == ["chapter-timings.json", "good.ipynb", "reproduction"]
    capsys.readouterr()

    assert build.run_chapter("bad", "smoke", {}, 600, False) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[0].startswith("chapter 'bad' failed: ValueError: seed must be an integer in [0, inf], got -1")
    assert "bad.py line 9" in err[1] and "_build/failed/bad/bad.ipynb" in err[1]
    assert len(err) == 4, err  # the message, where, a blank line, the count of failed chapters
    assert not (out / "chapters" / "bad").exists()
    assert (out / "failed" / "bad" / "bad.ipynb").exists()
    assert sorted(p.name for p in (out / "chapters").iterdir()) == ["good"]  # no scratch folder left

    assert build.execute("smoke", 1, None, {}, 600) == 1
    timings = __import__("json").loads((out / "timings.json").read_text())["smoke"]
    assert "good" in timings and "bad" not in timings and "_total_execute" not in timings
    assert sorted(p.name for p in (out / "executed" / "book").iterdir()) == ["good.ipynb"]
    assert (out / "failed" / "bad" / "bad.ipynb").exists()


@pytest.mark.parametrize(
    "argv, option",
    [
        (["--jobs", "0"], "--jobs"),
        (["--jobs", "-3"], "--jobs"),
        (["--timeout", "0"], "--timeout"),
    ],
)
def test_paperscale_cli_refuses_bad_options_in_one_line(argv, option, capsys):
    from ldpnb.repro import paperscale

    with pytest.raises(SystemExit) as info:
        paperscale.main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and option in err, err
