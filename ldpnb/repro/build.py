"""Build the book: execute every chapter with papermill, then render with jupyter-book 1.x.

Usage (from the repository root; ``make book`` calls ``all``, ``make chapter`` calls ``chapter``)::

    python -m ldpnb.repro.build all --scale book --jobs 2
    python -m ldpnb.repro.build execute --scale book --jobs 2 [--only pie ibu] [-p KEY VALUE ...]
    python -m ldpnb.repro.build render [--allow-mixed-scales]
    python -m ldpnb.repro.build chapter pie --scale smoke [--html]

``execute`` runs ``book/<name>.ipynb`` for every notebook chapter of ``_toc.yml`` into
``_build/executed/book/<name>.ipynb`` with the papermill parameter ``SCALE`` (and any ``-p``),
two at a time by default, each in a fresh kernel, the longest first (by the times recorded in
``_build/timings.json``).  Before running, every pair ``book/<name>.py`` /
``.ipynb`` is checked: a notebook older than its edited ``.py`` is re-paired from it (as
``make sync`` does); a notebook edited after its ``.py`` is refused.  One line is printed when a
chapter starts and one when it ends, in the order they finish, with the elapsed time.  The
benchmark appendix (``book/performance``) and the summary (``book/reproduction``) run last, in
that order, because they read this build's timings and the chapters' reports.  A chapter that
raises stops the build after the others finish; its error is printed first (the exception's own
message, the cell and its line in the ``.py``), then the end of the traceback, except for an error
about the chapter's inputs (a contract's refusal, a missing data file, a failed row), which is the
message alone.  A failed run writes nothing among the build's outputs: no executed notebook, no
timing; its notebook, with the error, goes to ``_build/failed/<name>/``.  Bad options (``--jobs 0``,
``--timeout 0``, ``-p SEED abc``, ``-p SCALE huge``, a ``-p`` key that is not a parameter of the
chapter) and unreadable notebooks are refused in one line before any kernel starts.  On an interrupt
(Ctrl-C, SIGTERM) every process the build started, kernels and their joblib/loky workers
included, is terminated.

``render`` stages the executed notebooks with the markdown pages under ``_build/src`` and runs
``jupyter-book build`` on them with warnings as errors; the HTML lands in ``_build/html``.
It refuses to publish chapters executed at different scales (``--allow-mixed-scales`` renders them
with a banner on every page instead), and any build not at ``SCALE=book`` carries a banner.

``chapter NAME`` executes one chapter into its own folder, ``_build/chapters/<name>/`` (the
notebook, its report and its timings; the book's ``_build/executed`` is left alone), and with
``--html`` renders a one-chapter preview into ``_build/chapters/<name>/html``.
Nothing is written outside ``_build`` (except a re-paired ``book/<name>.ipynb``).
"""

from __future__ import annotations

import argparse
import ast
import datetime
import importlib.metadata
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import unicodedata
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any, Callable

from ldpnb.contracts import Boolean, Instance, Integer, OneOf, Optional, Real, contract
from ldpnb.repro.toc import BOOK, ROOT, notebook_chapters, toc_files  # noqa: F401 (toc_files re-exported)

BUILD = ROOT / "_build"

# chapters that read the others' outputs, run in this order after all the others: the benchmark
# appendix reads the chapter timings of the current build, the summary reads every report
LAST = ("performance", "reproduction")
SCALES = ("smoke", "book", "paper")

# the contracts of the build's functions (the CLI's --jobs 0 or --timeout 0 are refused, not run serially)
_NAME = Instance(str, example="intro")
_NAMES = Instance(list, tuple, example=[])
_DIR = Instance(Path, example=BOOK)
_PATH = Instance(Path, example=BOOK / "intro.md")
_PARAMS = Instance(dict, example={})
_SCALE = OneOf(*SCALES)
_JOBS = Integer(1, 256)
_TIMEOUT = Integer(1, 7 * 24 * 3600)


# ------------------------------------------------------------------------------ jupytext pairs


def _cell_signature(nb) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(c.cell_type, c.source.strip(), tuple(c.get("metadata", {}).get("tags", []))) for c in nb.cells]


def _rel(path: Path) -> Path:
    """``path`` relative to the repository root when it lies under it (for messages)."""
    path = Path(path)
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    line = f"{type(exc).__name__}: {text[0] if text else ''}".rstrip(": ")
    return line if len(line) <= 120 else line[:117] + "..."


@contract(path=_PATH)
def read_notebook(path: Path):
    """``nbformat.read(path, as_version=4)``, or a one-line ``SystemExit`` naming the file when it is not
    a readable notebook (truncated, not JSON, not UTF-8, or JSON that fails the notebook schema):
    never a bare nbformat traceback that does not say which file it read."""
    import nbformat  # noqa: PLC0415 lazy: the book extra, loaded by the build steps that need it

    try:
        return nbformat.read(path, as_version=4)
    except FileNotFoundError:
        raise SystemExit(f"error: {_rel(path)} does not exist") from None
    except Exception as exc:  # NotJSONError, UnicodeDecodeError, jsonschema's ValidationError, ...
        raise SystemExit(
            f"error: {_rel(path)} is not a readable notebook ({_first_line(exc)}); restore it "
            "(`git checkout -- <file>`) or re-pair it from its .py (`make sync`)"
        ) from None


def _read_percent(py: Path):
    import jupytext  # noqa: PLC0415 lazy: the book extra, loaded by the build steps that need it

    try:
        return jupytext.read(py)
    except FileNotFoundError:
        raise SystemExit(f"error: {_rel(py)} does not exist") from None
    except Exception as exc:
        raise SystemExit(f"error: {_rel(py)} is not a readable jupytext chapter ({_first_line(exc)})") from None


@contract(name=_NAME, book=Optional(_DIR))
def pair_state(name: str, book: Path | None = None) -> str:
    """``"ok"``, ``"ipynb-stale"`` (the ``.py`` was edited after the notebook) or ``"ipynb-newer"``
    (the notebook differs and is the newer file: edited in Jupyter without jupytext).  A file that
    cannot be read is refused in one line naming it (``SystemExit``)."""
    book = BOOK if book is None else book
    py, nb = book / f"{name}.py", book / f"{name}.ipynb"
    if _cell_signature(_read_percent(py)) == _cell_signature(read_notebook(nb)):
        return "ok"
    return "ipynb-stale" if py.stat().st_mtime >= nb.stat().st_mtime else "ipynb-newer"


@contract(name=_NAME, book=Optional(_DIR))
def sync_pair(name: str, book: Path | None = None) -> None:
    """Re-pair ``book/<name>.ipynb`` from ``book/<name>.py`` and strip it (what ``make sync`` does)."""
    from ldpnb.repro.nbstrip import strip  # noqa: PLC0415 lazy: nbformat (book extra) only when a pair is re-synced

    book = BOOK if book is None else book
    jt = Path(sys.executable).with_name("jupytext")
    cmd = [
        str(jt) if jt.exists() else "jupytext",
        "--quiet",
        "--set-formats",
        "ipynb,py:percent",
        str(book / f"{name}.py"),
    ]
    subprocess.run(cmd, check=True, cwd=book.parent)
    strip(str(book / f"{name}.ipynb"))


@contract(names=_NAMES, book=Optional(_DIR))
def ensure_pairs(names: list[str], book: Path | None = None) -> None:
    """Re-pair the notebooks whose ``.py`` is newer; refuse a notebook edited after its ``.py``."""
    book = BOOK if book is None else book
    refused = []
    for name in names:
        state = pair_state(name, book)
        if state == "ipynb-stale":
            sync_pair(name, book)
            print(f"re-paired book/{name}.ipynb from book/{name}.py (it was stale)", flush=True)
        elif state == "ipynb-newer":
            refused.append(name)
    if refused:
        lines = [f"book/{n}.ipynb differs from book/{n}.py and is the newer file" for n in refused]
        raise SystemExit(
            "error: "
            + "\n       ".join(lines)
            + "\n       (edited in Jupyter without jupytext?) Run `make sync` to carry the notebook's edits "
            "into the .py (jupytext keeps the newer file),\n       or `touch book/<name>.py` to discard "
            "them; then run the build again."
        )


# --------------------------------------------------------------------------- processes we start


class ProcessTree:
    """Remembers every process below the ones the build started, so that all can be ended.

    Kernels run in a session of their own (jupyter_client) and joblib's loky workers are the
    kernel's children: a Ctrl-C reaching papermill leaves them behind.  A watcher thread records
    the descendants of each started process every ``interval`` seconds (pid and creation time,
    so that a reused pid is never touched); :meth:`terminate` ends the survivors.
    """

    @contract(interval=Real(0.0, 60.0, low_open=True))
    def __init__(self, interval: float = 0.5) -> None:
        self.interval = interval
        self.roots: list[subprocess.Popen] = []
        self.seen: dict[int, float] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def add(self, proc: subprocess.Popen) -> None:
        with self._lock:
            self.roots.append(proc)
        self.snapshot()

    def snapshot(self) -> None:
        import psutil  # noqa: PLC0415 lazy: the book extra, loaded only to end a process tree

        with self._lock:
            roots = [p.pid for p in self.roots if p.poll() is None]
        for pid in roots:
            try:
                root = psutil.Process(pid)
                procs = [root, *root.children(recursive=True)]
            except psutil.Error:
                continue
            for p in procs:
                try:
                    self.seen.setdefault(p.pid, p.create_time())
                except psutil.Error:
                    pass

    def _watch(self) -> None:
        while not self._stop.wait(self.interval):
            self.snapshot()

    def alive(self) -> list:
        import psutil  # noqa: PLC0415 lazy: the book extra, loaded only to end a process tree

        out = []
        for pid, created in list(self.seen.items()):
            try:
                p = psutil.Process(pid)
                if p.create_time() == created and p.status() != psutil.STATUS_ZOMBIE:
                    out.append(p)
            except psutil.Error:
                pass
        return out

    @contract(grace=Real(0.0, 3600.0))
    def terminate(self, grace: float = 5.0) -> int:
        """SIGTERM every remembered process still alive, SIGKILL those left after ``grace`` s."""
        import psutil  # noqa: PLC0415 lazy: the book extra, loaded only to end a process tree

        self.snapshot()
        procs = self.alive()
        for p in procs:
            try:
                p.terminate()
            except psutil.Error:
                pass
        _, left = psutil.wait_procs(procs, timeout=grace)
        for p in left:
            try:
                p.kill()
            except psutil.Error:
                pass
        psutil.wait_procs(left, timeout=grace)
        return len(procs)

    def close(self) -> None:
        self._stop.set()


# ------------------------------------------------------------------------------------ execution


def _kernel_env(build_dir: Path = BUILD) -> dict[str, str]:
    env = dict(os.environ)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env.setdefault(var, "1")
    # figures must be captured in the executed notebooks: force the inline backend even when the
    # caller exported a non-interactive one (MPLBACKEND=Agg would make plt.show() draw nothing)
    env["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
    env.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    env["PAPERMILL"] = "1"
    env["LDPNB_BUILD_DIR"] = str(build_dir)
    return env


_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_EXC_LINE = re.compile(r"^([A-Za-z_][\w.]*(Error|Exception|Failure|Interrupt|Exit|Timeout|Warning)\b.*)$")


def _py_line(name: str, source: str, book: Path) -> int | None:
    """The line of ``book/<name>.py`` where a cell with this source starts."""
    first = next((ln for ln in source.splitlines() if ln.strip()), None)
    py = book / f"{name}.py"
    if first is None or not py.exists():
        return None
    for i, ln in enumerate(py.read_text(encoding="utf-8").splitlines(), 1):
        if ln == first:
            return i
    return None


#: Exceptions that report a bad input or a failed reproduction rather than a defect of the code: the
#: message says everything, the traceback would only bury it.
_INPUT_ERRORS = ("DataError", "ReproductionFailure", "CriterionError", "FileNotFoundError")
_FRAME = re.compile(r'^(?:File|Cell) "?([^",]+?)"?(?::\d+)?, ')


def _input_error(ename: str, tb: list[str]) -> bool:
    """True for an error about the chapter's inputs: a listed exception type, or one raised by an argument
    contract (``ldpnb/contracts.py``) or a body check (``ldpnb/utils.py``) as its last frame."""
    if ename in _INPUT_ERRORS:
        return True
    frames = [m.group(1) for ln in tb if (m := _FRAME.match(ln.strip()))]
    return bool(frames) and frames[-1].replace("\\", "/").endswith(("ldpnb/contracts.py", "ldpnb/utils.py"))


@contract(name=_NAME, executed=_PATH, stderr=Instance(str, example=""), book=Optional(_DIR), tail=Integer(1, 10_000))
def failure_summary(name: str, executed: Path, stderr: str, book: Path | None = None, tail: int = 25) -> str:
    """The error of a failed chapter, its own message first.

    From the executed notebook (papermill saves it on failure): ``ExcType: message``, the cell and
    its line in ``book/<name>.py``, then the last ``tail`` lines of the traceback, except for an error
    about the chapter's inputs (a bad ``SEED`` or ``SCALE`` refused by a contract, a missing data
    file, a failed reproduction row), where the message is the whole story and the traceback stays
    in the executed notebook.  Without an error output (a timeout, a dead kernel): the exception
    line of papermill's stderr, then its tail.
    """
    import nbformat  # noqa: PLC0415 lazy: the book extra, loaded by the build steps that need it

    book = BOOK if book is None else book
    try:
        nb = nbformat.read(executed, as_version=4)
    except Exception:
        nb = None
    if nb is not None:
        n_code = 0
        for c in nb.cells:
            if c.cell_type != "code":
                continue
            if "injected-parameters" not in c.get("metadata", {}).get("tags", []):
                n_code += 1
            for o in c.get("outputs", []):
                if o.get("output_type") != "error":
                    continue
                line = _py_line(name, c.source, book)
                where = f"code cell {n_code}" + (f", book/{name}.py line {line}" if line else "")
                tb = _ANSI.sub("", "\n".join(o.get("traceback", []))).rstrip().splitlines()
                ename = o.get("ename", "Error")
                head = f"{ename}: {o.get('evalue', '')}\n  in {where} (executed notebook: {_rel(executed)})"
                if _input_error(ename, tb):
                    return head
                return (
                    head
                    + f"\n  traceback (last {min(tail, len(tb))} lines):\n"
                    + "\n".join("    " + ln for ln in tb[-tail:])
                )
    lines = _ANSI.sub("", stderr).rstrip().splitlines()
    exc = next((ln.strip() for ln in reversed(lines) if _EXC_LINE.match(ln.strip())), None)
    head = exc or (lines[-1] if lines else "the chapter failed without a message")
    return head + "\n  papermill's output (last lines):\n" + "\n".join("    " + ln for ln in lines[-tail:])


@contract(
    src=_PATH,
    dst=_PATH,
    params=_PARAMS,
    cwd=_DIR,
    env=Instance(dict, example={}),
    timeout=_TIMEOUT,
    tree=Optional(Instance(ProcessTree)),
)
def execute_notebook(
    src: Path,
    dst: Path,
    params: dict[str, object],
    *,
    cwd: Path,
    env: dict[str, str],
    timeout: int,
    tree: ProcessTree | None = None,
) -> tuple[float, int, str]:
    """Run papermill on ``src`` into ``dst`` in a subprocess. Returns (seconds, return code, stderr)."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    cmd = [
        sys.executable,
        "-m",
        "papermill",
        str(src),
        str(dst),
        "--cwd",
        str(cwd),
        "--kernel",
        "python3",
        "--no-progress-bar",
        "--execution-timeout",
        str(timeout),
    ]
    for k, v in params.items():
        cmd += ["-p", k, str(v)]
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL
    )
    if tree is not None:
        tree.add(proc)
    _, err = proc.communicate()
    return time.perf_counter() - t0, proc.returncode, err or ""


class _Progress:
    """Thread-safe progress lines, stamped with the time since the build started."""

    def __init__(self, total: int) -> None:
        self.t0 = time.perf_counter()
        self.total = total
        self.done = 0
        self.lock = threading.Lock()

    def say(self, text: str) -> None:
        with self.lock:
            print(f"[{time.perf_counter() - self.t0:7.1f} s] {text}", flush=True)

    def finished(self, name: str, dt: float, ok: bool) -> None:
        with self.lock:
            self.done += 1
            done = self.done
        self.say(f"{'done  ' if ok else 'FAILED'} {name:<16s} {dt:7.1f} s   ({done}/{self.total})")


def _run_chapters(
    groups: list[list[str]],
    scale: str,
    jobs: int,
    params: dict[str, object],
    timeout: int,
    out_dir: Path,
    build_dir: Path,
    on_group_done=None,
    failed_dir: Path | None = None,
) -> tuple[dict[str, float], list[tuple[str, str]]]:
    """Execute the groups one after the other, the chapters of a group ``jobs`` at a time.

    Each notebook is executed into a scratch folder and moved to ``out_dir`` only when it ran to the
    end: a failed run leaves ``out_dir`` as it was, its notebook (with the error) goes to
    ``failed_dir/<name>/`` (default ``build_dir/failed``), and its time is not returned.
    """
    tree = ProcessTree()
    progress = _Progress(sum(len(g) for g in groups))
    times: dict[str, float] = {}
    failed: list[tuple[str, str]] = []
    env = _kernel_env(build_dir)
    failed_dir = build_dir / "failed" if failed_dir is None else failed_dir
    scratch = out_dir.parent / f".{out_dir.name}.running"

    def one(name: str) -> tuple[str, float, str | None]:
        progress.say(f"start  {name}")
        tmp = scratch / f"{name}.ipynb"
        if tmp.exists():
            tmp.unlink()
        dt, rc, err = execute_notebook(
            BOOK / f"{name}.ipynb", tmp, {"SCALE": scale, **params}, cwd=BOOK, env=env, timeout=timeout, tree=tree
        )
        summary = None
        if rc == 0:
            out_dir.mkdir(parents=True, exist_ok=True)
            os.replace(tmp, out_dir / f"{name}.ipynb")
        else:
            kept = failed_dir / name / f"{name}.ipynb"
            if tmp.exists():
                kept.parent.mkdir(parents=True, exist_ok=True)
                os.replace(tmp, kept)
            summary = failure_summary(name, kept, err)
        progress.finished(name, dt, rc == 0)
        return name, dt, summary

    previous = (
        {k: signal.getsignal(k) for k in (signal.SIGTERM,)}
        if threading.current_thread() is threading.main_thread()
        else {}
    )
    if previous:

        def _term(signum, frame):
            raise KeyboardInterrupt(f"signal {signum}")

        signal.signal(signal.SIGTERM, _term)
    pool = None
    try:
        for group in groups:
            pool = ThreadPoolExecutor(max_workers=max(1, jobs))
            futs = [pool.submit(one, n) for n in group]
            for f in as_completed(futs):
                name, dt, err = f.result()
                if err is None:
                    times[name] = round(dt, 1)
                else:
                    failed.append((name, err))
            pool.shutdown(wait=True)
            pool = None
            if on_group_done is not None:
                on_group_done(times)
    except KeyboardInterrupt:
        progress.say("interrupted: ending the chapters' processes (papermill, kernels, joblib workers)")
        n = tree.terminate()
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        progress.say(f"ended {n} process(es)")
        raise
    finally:
        tree.close()
        shutil.rmtree(scratch, ignore_errors=True)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return times, failed


@contract(name=_NAME, book=Optional(_DIR))
def chapter_parameters(name: str, book: Path | None = None) -> dict[str, object]:
    """The parameters a chapter declares: the assignments of the cell tagged ``parameters`` of
    ``book/<name>.py`` (its papermill parameters, ``SCALE`` and ``SEED`` in every chapter)."""
    book = BOOK if book is None else book
    values: dict[str, object] = {}
    for c in _read_percent(book / f"{name}.py").cells:
        if c.cell_type == "code" and "parameters" in c.get("metadata", {}).get("tags", []):
            values.update(_assignments(c.source))
    return values


def _assignments(source: str) -> dict[str, object]:
    values: dict[str, object] = {}
    try:
        body = ast.parse(source).body
    except SyntaxError:
        return values
    for node in body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                values[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                values[node.targets[0].id] = None
    return values


@contract(names=_NAMES, params=_PARAMS, book=Optional(_DIR))
def check_params(names: list[str], params: dict[str, object], book: Path | None = None) -> None:
    """Refuse, before any kernel starts, a ``-p KEY VALUE`` that the chapters would refuse or ignore:
    ``SCALE`` outside ``smoke/book/paper``, ``SEED`` not an integer ``>= 0`` (what
    :func:`ldpnb.repro.rng_for` takes), or a key that is not a parameter of every selected chapter
    (papermill would only warn and run the chapter without it).  One line (``SystemExit``)."""
    if "SCALE" in params and params["SCALE"] not in SCALES:
        raise SystemExit(
            f"error: -p SCALE must be one of {', '.join(SCALES)} (or use --scale), got {params['SCALE']!r}"
        )
    if "SEED" in params:
        seed = params["SEED"]
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise SystemExit(f"error: -p SEED must be an integer >= 0, got {seed!r}")
    for name in names if set(params) - {"SCALE"} else ():
        declared = chapter_parameters(name, book)
        unknown = sorted(set(params) - set(declared) - {"SCALE"})
        if unknown:
            raise SystemExit(
                f"error: -p {unknown[0]}: chapter {name!r} has no such parameter (its parameters "
                f"cell declares {', '.join(declared) or 'none'})"
            )


@contract(names=_NAMES, previous=Instance(dict, example={}))
def longest_first(names: list[str], previous: dict[str, Any]) -> list[str]:
    """Chapters by decreasing time of their last recorded run (unknown ones first, in toc order):
    with two workers, starting the longest chapters first shortens the whole run."""

    def key(n: str) -> tuple[int, float, int]:
        t = previous.get(n)
        known = isinstance(t, (int, float))
        return (1 if known else 0, -float(t) if known else 0.0, names.index(n))

    return sorted(names, key=key)


def _report_failures(failed: list[tuple[str, str]]) -> None:
    for name, err in failed:  # the chapter's own message on the first line
        print(f"\nchapter {name!r} failed: {err}", file=sys.stderr)
    if failed:
        print(f"\n{len(failed)} chapter(s) failed: {', '.join(n for n, _ in failed)}", file=sys.stderr)


def _select(only: list[str] | None) -> list[str]:
    names = notebook_chapters()
    if only:
        unknown = sorted(set(only) - set(names))
        if unknown:
            raise SystemExit(f"error: unknown chapter(s) {unknown}; chapters are {names}")
        names = [n for n in names if n in only]
    return names


@contract(scale=_SCALE, jobs=_JOBS, only=Optional(_NAMES), params=_PARAMS, timeout=_TIMEOUT)
def execute(scale: str, jobs: int, only: list[str] | None, params: dict[str, object], timeout: int) -> int:
    """Execute the book's chapters into ``_build/executed/book`` (see the module docstring).

    ``_build/timings.json`` records the chapters that ran to the end (a failed run's time is not
    recorded, nor the total of a build with a failure); a failed chapter's notebook goes to
    ``_build/failed/<name>/``, not among the executed ones."""
    names = _select(only)
    check_params(names, params)
    ensure_pairs(names)
    BUILD.mkdir(exist_ok=True)
    tfile = BUILD / "timings.json"
    record = _read_timings(tfile)
    first = longest_first([n for n in names if n not in LAST], record.get(scale, {}))
    groups = [first] + [[n] for n in LAST if n in names]
    groups = [g for g in groups if g]
    print(f"executing {len(names)} chapter(s) at SCALE={scale!r} with {jobs} worker(s): {', '.join(names)}", flush=True)
    record.setdefault(scale, {}).pop("_total_execute", None)  # a stale total would mislead the benchmark page
    t_all = time.perf_counter()

    def write_timings(times: dict[str, float]) -> None:
        # written after every group, so that the chapters of the next group see this build's timings
        record[scale].update(times)
        record[scale]["_elapsed_execute"] = round(time.perf_counter() - t_all, 1)
        record[scale]["_jobs"] = jobs
        tfile.write_text(json.dumps(record, indent=1) + "\n")

    for name in names:
        shutil.rmtree(BUILD / "failed" / name, ignore_errors=True)  # the last run's failure, if any
    times, failed = _run_chapters(
        groups, scale, jobs, params, timeout, BUILD / "executed" / "book", BUILD, on_group_done=write_timings
    )
    total = time.perf_counter() - t_all
    _report_failures(failed)
    if failed:
        return 1
    record[scale]["_total_execute"] = round(total, 1)
    tfile.write_text(json.dumps(record, indent=1) + "\n")
    print(
        f"all {len(names)} chapter(s) executed in {total:.0f} s (_build/executed/book, timings in _build/timings.json)",
        flush=True,
    )
    return 0


def _read_timings(tfile: Path) -> dict[str, Any]:
    try:
        record = json.loads(tfile.read_text()) if tfile.exists() else {}
    except (OSError, ValueError) as exc:
        raise SystemExit(
            f"error: {_rel(tfile)} is not readable JSON ({_first_line(exc)}); delete it (it only "
            "orders the chapters and feeds the benchmark page) and run the build again"
        ) from None
    if not isinstance(record, dict) or not all(isinstance(v, dict) for v in record.values()):
        raise SystemExit(
            f"error: {_rel(tfile)} is not a timings record ({{scale: {{chapter: seconds}}}}); "
            "delete it and run the build again"
        )
    return record


@contract(name=_NAME)
def chapter_dir(name: str) -> Path:
    return BUILD / "chapters" / name


@contract(name=_NAME, scale=_SCALE, params=_PARAMS, timeout=_TIMEOUT, html=Boolean())
def run_chapter(name: str, scale: str, params: dict[str, object], timeout: int, html: bool) -> int:
    """Execute one chapter into ``_build/chapters/<name>/`` and optionally render a preview.

    The chapter runs in a scratch folder that replaces ``_build/chapters/<name>/`` only when the
    chapter ran to the end: a failed run leaves the previous one in place and writes no timings; its
    notebook (and the report, if the chapter wrote one) go to ``_build/failed/<name>/``."""
    _select([name])
    check_params([name], params)
    ensure_pairs([name])
    out = chapter_dir(name)
    work = out.parent / f".{name}.partial"
    if work.exists():
        shutil.rmtree(work)
    (work / "reproduction").mkdir(parents=True)
    if name in LAST:  # the appendix pages read the book's reports and timings: give them a copy
        if (BUILD / "reproduction").is_dir():
            shutil.copytree(BUILD / "reproduction", work / "reproduction", dirs_exist_ok=True)
        if (BUILD / "timings.json").exists():
            shutil.copy2(BUILD / "timings.json", work / "timings.json")
    failed_dir = BUILD / "failed"
    shutil.rmtree(failed_dir / name, ignore_errors=True)
    print(f"executing {name} at SCALE={scale!r} into {_rel(out)}/", flush=True)
    try:
        times, failed = _run_chapters([[name]], scale, 1, params, timeout, work, work, failed_dir=failed_dir)
        if failed:
            report = work / "reproduction" / f"{name}.json"
            if report.exists():  # a chapter whose rows failed wrote its report before raising: the evidence
                (failed_dir / name / "reproduction").mkdir(parents=True, exist_ok=True)
                os.replace(report, failed_dir / name / "reproduction" / report.name)
        else:
            (work / "chapter-timings.json").write_text(json.dumps({scale: times}, indent=1) + "\n")
            if out.exists():
                shutil.rmtree(out)
            os.replace(work, out)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    _report_failures(failed)
    if failed:
        return 1
    print(f"executed notebook: {_rel(out / f'{name}.ipynb')}", flush=True)
    report = out / "reproduction" / f"{name}.json"
    if report.exists():
        print(f"reproduction report: {_rel(report)}", flush=True)
    if html:
        return render_preview(name)
    return 0


# ------------------------------------------------------------------------------- bibliography


def _norm_title(title: str) -> str:
    t = unicodedata.normalize("NFKD", title)
    t = "".join(ch for ch in t if not unicodedata.combining(ch))
    return re.sub(r"[^a-z0-9]+", " ", re.sub(r"\\[a-zA-Z]+|[{}\\'\"`^~]", "", t).lower()).strip()


def _bib_field(entry: str, field: str) -> str:
    m = re.search(rf"(?im)^\s*{field}\s*=\s*(\{{(?:[^{{}}]|\{{[^{{}}]*\}})*\}}|\"[^\"]*\"|\d+)", entry)
    return m.group(1).strip('{}"') if m else ""


def _first_author(entry: str) -> str:
    authors = _bib_field(entry, "author")
    first = re.split(r"\s+and\s+", authors)[0] if authors else ""
    last = first.split(",")[0] if "," in first else (first.split()[-1] if first.split() else "")
    return _norm_title(last)


@contract(files=Instance(list, tuple, example=[]))
def bib_entries(files: list[Path]) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """Merge BibTeX files into one entry per work.

    A work is identified by its key, and also by its first author's surname with its normalised
    title (so that ``andres2013geo`` and ``andres2013geoind``, the same paper under two keys in two
    chapters' files, are one work).  The first file wins (``book/references.bib`` comes first).
    Returns the kept ``(key, text)`` entries and ``aliases``: dropped key -> kept key.
    """
    kept: list[tuple[str, str]] = []
    by_work: dict[tuple[str, str], str] = {}
    keys: set[str] = set()
    aliases: dict[str, str] = {}
    for f in files:
        if not f.exists():
            continue
        for entry in re.split(r"(?m)^(?=@)", f.read_text(encoding="utf-8")):
            m = re.match(r"@\w+\s*\{\s*([^,\s]+)\s*,", entry)
            if not m:
                continue
            key = m.group(1)
            work = (_first_author(entry), _norm_title(_bib_field(entry, "title")))
            if key in keys:
                continue
            if work[1] and work in by_work:
                aliases[key] = by_work[work]
                continue
            keys.add(key)
            if work[1]:
                by_work[work] = key
            kept.append((key, entry.strip() + "\n"))
    return kept, aliases


_CITE = re.compile(r"(\{cite(?::[a-z]+)?\}`)([^`]+)(`)")


@contract(text=Instance(str, example=""), aliases=Instance(dict, example={}))
def rewrite_citations(text: str, aliases: dict[str, str]) -> str:
    """Replace aliased keys in ``{cite}`a,b``` roles (any ``{cite:...}`` variant)."""
    if not aliases:
        return text

    def sub(m: re.Match) -> str:
        keys = [k.strip() for k in m.group(2).split(",")]
        out = list(dict.fromkeys(aliases.get(k, k) for k in keys))
        return m.group(1) + ",".join(out) + m.group(3)

    return _CITE.sub(sub, text)


def _merge_bib(dst: Path) -> dict[str, str]:
    """book/references.bib plus every book/refs/*.bib, one entry per work; returns the aliases."""
    files = [BOOK / "references.bib", *sorted((BOOK / "refs").glob("*.bib"))]
    kept, aliases = bib_entries(files)
    dst.write_text("\n".join(text for _, text in kept), encoding="utf-8")
    return aliases


# -------------------------------------------------------------------------------------- staging


@contract(path=_PATH)
def notebook_parameters(path: Path) -> dict[str, object]:
    """The parameters an executed notebook ran with: its ``parameters`` cell, overridden by
    papermill's ``injected-parameters`` cell."""
    values: dict[str, object] = {}
    cells = read_notebook(path).cells
    for tag in ("parameters", "injected-parameters"):
        for c in cells:
            if c.cell_type == "code" and tag in c.get("metadata", {}).get("tags", []):
                values.update({k: v for k, v in _assignments(c.source).items() if v is not None})
    return values


@contract(executed=_DIR)
def executed_scales(executed: Path) -> dict[str, str]:
    """Chapter -> the ``SCALE`` its executed notebook ran at."""
    return {nb.stem: str(notebook_parameters(nb).get("SCALE", "?")) for nb in sorted(executed.glob("*.ipynb"))}


@contract(executed=Optional(_DIR))
def provenance(executed: Path | None = None) -> dict[str, str]:
    """Commit, build date, scale(s) and package versions of this build (for the page footer)."""

    executed = executed or BUILD / "executed" / "book"
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        commit += " (with uncommitted changes)" if dirty else ""
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown (not a git checkout)"
    versions = []
    for pkg in ("ldpnb", "numpy", "scipy", "pandas", "matplotlib", "POT", "scikit-learn", "xgboost-cpu"):
        try:
            versions.append(f"{pkg} {importlib.metadata.version(pkg)}")
        except importlib.metadata.PackageNotFoundError:
            pass
    scales, seeds = set(), set()
    for nb in sorted(executed.glob("*.ipynb")):
        params = notebook_parameters(nb)
        scales.add(str(params.get("SCALE", "?")))
        if "SEED" in params:
            seeds.add(str(params["SEED"]))
    return {
        "commit": commit,
        "date": datetime.date.today().isoformat(),
        "scale": ", ".join(sorted(scales)) or "?",
        "seeds": ", ".join(sorted(seeds)) or "?",
        "versions": ", ".join(versions),
    }


def _fmt_seconds(s: float) -> str:
    return f"{s:.0f} s" if s < 120 else f"{s:.0f} s ({s / 60:.0f} min)"


@contract(timings=_PATH, scale=Instance(str, example="book"))
def build_time_markdown(timings: Path, scale: str) -> str:
    """One sentence on this build's execution times, read from ``_build/timings.json``."""
    try:
        rec = json.loads(timings.read_text()).get(scale, {})
    except (OSError, ValueError):
        rec = {}
    chapters = {k: v for k, v in rec.items() if not k.startswith("_") and isinstance(v, (int, float))}
    if not chapters:
        return "This build recorded no execution times (`_build/timings.json` is missing)."
    slow = max(chapters, key=chapters.get)
    total = rec.get("_total_execute")
    jobs = rec.get("_jobs")
    summed = _fmt_seconds(sum(chapters.values()))
    if total:
        took = (
            f"took {_fmt_seconds(total)}"
            + (f" with {jobs} chapters at a time" if jobs else "")
            + f" ({summed} summed over the chapters)"
        )
    else:
        took = f"took {summed} summed over the chapters"
    return (
        f"Executing the {len(chapters)} notebooks of this build at `SCALE={scale}` {took}; the slowest, "
        f"{slow}, took {_fmt_seconds(chapters[slow])}. The build records these times in "
        "`_build/timings.json`."
    )


def _stage_config(src: Path, executed: Path, build_dir: Path, banner: str | None, root_doc: str | None = None) -> None:
    """Totals, build times, provenance footer and scale banner into the staged ``_config.yml``."""
    import yaml  # noqa: PLC0415 lazy: pyyaml comes with the book extra

    cfg_path = src / "_config.yml"
    cfg = yaml.safe_load(cfg_path.read_text())
    subs = cfg.setdefault("parse", {}).setdefault("myst_substitutions", {})
    try:
        from ldpnb.repro.dashboard import landing_substitutions  # noqa: PLC0415 lazy: optional for a preview (pandas, reports)

        subs.update(landing_substitutions(build_dir / "reproduction"))
    except Exception as exc:  # pragma: no cover - the dashboard is optional for a preview
        subs["claims_totals"] = subs["errata"] = f"(claims totals unavailable: {exc})"
    scales = executed_scales(executed)
    main_scale = max(set(scales.values()), key=list(scales.values()).count) if scales else "book"
    subs["build_time"] = build_time_markdown(build_dir / "timings.json", main_scale)
    p = provenance(executed)
    footer = (
        f"Built from commit <code>{p['commit']}</code> on {p['date']}; chapters executed at scale "
        f"<code>{p['scale']}</code> with seed(s) {p['seeds']}; {p['versions']}."
    )
    html = cfg.setdefault("html", {})
    html["extra_footer"] = f'<div class="ldpnb-provenance">{footer}</div>'
    if banner:
        html["announcement"] = banner
    cfg_path.write_text(yaml.safe_dump(cfg, sort_keys=False, allow_unicode=True))


def _scale_banner_cell(scale: str):
    import nbformat  # noqa: PLC0415 lazy: the book extra, loaded by the build steps that need it

    return nbformat.v4.new_markdown_cell(
        f'<div class="ldpnb-scale-banner">This chapter was executed at <b>SCALE={scale}</b>, not at the '
        f"published book's scale: its sizes, numbers of runs and tolerances differ from the book's.</div>",
        metadata={"tags": ["ldpnb-scale-banner"]},
    )


def _stage_notebook(src: Path, dst: Path, aliases: dict[str, str], banner_scale: str | None = None) -> None:
    """Copy an executed notebook for rendering: papermill's injected-parameters cell dropped and the
    ``parameters`` cell removed from the page, citations of duplicate bibliography keys pointed at the
    kept key, and, for a chapter executed at another scale than the book's, a banner under its title."""
    import nbformat  # noqa: PLC0415 lazy: the book extra, loaded by the build steps that need it

    nb = read_notebook(src)
    cells = []
    for c in nb.cells:
        tags = c.get("metadata", {}).get("tags", [])
        if "injected-parameters" in tags or "papermill-error-cell-tag" in tags:
            continue
        if "parameters" in tags and not any(t.startswith("remove") for t in tags):
            c.metadata["tags"] = [*tags, "remove-cell"]  # plumbing: the page says its scale elsewhere
        if c.cell_type == "markdown":
            c.source = rewrite_citations(c.source, aliases)
        cells.append(c)
    if banner_scale is not None:
        first_md = next((i for i, c in enumerate(cells) if c.cell_type == "markdown"), -1)
        cells.insert(first_md + 1, _scale_banner_cell(banner_scale))
    nb.cells = cells
    nbformat.write(nb, dst)


@contract(scales=Instance(dict, example={}), allow_mixed=Boolean())
def check_scales(scales: dict[str, str], allow_mixed: bool) -> str | None:
    """Refuse chapters executed at different scales (unless allowed); return the banner text, if any."""
    distinct = sorted(set(scales.values()))
    if len(distinct) > 1:
        listing = ", ".join(f"{n}={s}" for n, s in scales.items())
        if not allow_mixed:
            raise SystemExit(
                f"error: the executed chapters ran at different scales ({listing}).\n"
                "       Re-execute them at one scale (`make book`, or `make execute SCALE=...`), or render anyway "
                "with `python -m ldpnb.repro.build render --allow-mixed-scales` (every page then says so)."
            )
        return (
            "This build mixes scales (" + listing + "): chapters not at <code>SCALE=book</code> "
            "say so under their title."
        )
    if distinct and distinct[0] != "book":
        return (
            f"This build was executed at <code>SCALE={distinct[0]}</code>, not at the published book's "
            "scale: sizes, runs and numbers differ from the book's."
        )
    return None


@contract(allow_mixed=Boolean())
def stage(allow_mixed: bool = False) -> Path:
    """Copy config, markdown pages and executed notebooks to ``_build/src``."""
    executed = BUILD / "executed" / "book"
    names = notebook_chapters()
    missing = [n for n in names if not (executed / f"{n}.ipynb").exists()]
    if missing:
        raise SystemExit(f"error: chapters not executed yet: {missing} (run `make book` or the execute step)")
    scales = {n: s for n, s in executed_scales(executed).items() if n in names}
    banner = check_scales(scales, allow_mixed)
    src = BUILD / "src"
    aliases = _stage_tree(src, names)
    _stage_config(src, executed, BUILD, banner)
    for name in names:
        _stage_notebook(
            executed / f"{name}.ipynb",
            src / "book" / f"{name}.ipynb",
            aliases,
            banner_scale=scales[name] if scales[name] != "book" else None,
        )
    return src


def _stage_tree(src: Path, names: list[str]) -> dict[str, str]:
    """Config, pages, static files, the merged bibliography and the chapters' .py sources."""
    if src.exists():
        shutil.rmtree(src)
    (src / "book").mkdir(parents=True)
    for f in ("_config.yml", "_toc.yml"):
        shutil.copy2(ROOT / f, src / f)
    aliases = _merge_bib(src / "book" / "references.bib")
    for p in BOOK.iterdir():
        if p.is_file() and p.suffix == ".md":
            (src / "book" / p.name).write_text(
                rewrite_citations(p.read_text(encoding="utf-8"), aliases), encoding="utf-8"
            )
        elif p.is_file() and p.suffix not in (".py", ".ipynb", ".bib"):
            shutil.copy2(p, src / "book" / p.name)
        elif p.is_dir() and p.name not in ("refs", "__pycache__", ".ipynb_checkpoints"):
            shutil.copytree(p, src / "book" / p.name)
    for name in names:  # the .py sources, offered for download beside each chapter (ldpnb.repro.sphinx_ext)
        dst = src / "_py_sources" / "book" / f"{name}.py"
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(BOOK / f"{name}.py", dst)
    for name in ("claims.csv", "claims.json"):
        if (BUILD / "downloads" / name).exists():
            shutil.copy2(BUILD / "downloads" / name, src / "book" / name)
    return aliases


# ---------------------------------------------------------------------------------------- render

_JB_BANNER = re.compile(
    r"^(=+|Finished generating HTML for book\.|Your book's HTML pages are here:|"
    r"You can look at your book by opening this file in a browser:|"
    r"Or paste this line directly into your browser bar:|The HTML pages are in .*|"
    r"\S*_build/html/?(index\.html)?)$"
)


def _jupyter_book(src: Path, out: Path, strict: bool) -> int:
    """Run ``jupyter-book build`` into ``out/_build``.  Its closing banner and Sphinx's last line name
    a folder that the build moves afterwards: they are left out (the build prints the right path)."""
    jb = Path(sys.executable).with_name("jupyter-book")
    cmd = [str(jb), "build", str(src), "--path-output", str(out), "--keep-going"]
    if strict:
        cmd.append("-W")
    print("rendering:", " ".join(cmd), flush=True)
    proc = subprocess.Popen(
        cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, stdin=subprocess.DEVNULL
    )
    assert proc.stdout is not None
    dropped = False
    for line in proc.stdout:
        plain = _ANSI.sub("", line).strip()
        if plain and _JB_BANNER.match(plain):
            dropped = True
            continue
        if dropped and not plain:
            continue
        dropped = False
        sys.stdout.write(line)
        sys.stdout.flush()
    return proc.wait()


def _publish(html_src: Path, dst: Path) -> None:
    if dst.exists():
        shutil.rmtree(dst)
    shutil.move(str(html_src), str(dst))


@contract(strict=Boolean(), allow_mixed=Boolean())
def render(strict: bool = True, allow_mixed: bool = False) -> int:
    src = stage(allow_mixed)
    rc = _jupyter_book(src, BUILD / "jb", strict)
    html_src = BUILD / "jb" / "_build" / "html"
    if rc == 0 and html_src.exists():
        _publish(html_src, BUILD / "html")
        print(f"book rendered: open {(BUILD / 'html' / 'index.html').relative_to(ROOT)} in a browser", flush=True)
    return rc


@contract(name=_NAME)
def render_preview(name: str) -> int:
    """A one-chapter book from ``_build/chapters/<name>/`` into ``_build/chapters/<name>/html``."""
    import yaml  # noqa: PLC0415 lazy: pyyaml comes with the book extra

    out = chapter_dir(name)
    executed = out
    nb = out / f"{name}.ipynb"
    if not nb.exists():
        raise SystemExit(f"error: {nb.relative_to(ROOT)} does not exist: run `make chapter NAME={name}` first")
    src = out / "src"
    aliases = _stage_tree(src, [name])
    toc = {"format": "jb-book", "root": f"book/{name}", "chapters": [{"file": "book/bibliography"}]}
    (src / "_toc.yml").write_text(yaml.safe_dump(toc, sort_keys=False))
    scale = executed_scales(executed).get(name, "?")
    banner = (
        f"Preview of one chapter, executed at <code>SCALE={scale}</code> into "
        f"<code>_build/chapters/{name}</code>: links to other chapters are not resolved."
    )
    _stage_config(src, executed, out, banner)
    _stage_notebook(nb, src / "book" / f"{name}.ipynb", aliases)
    rc = _jupyter_book(src, out / "jb", strict=False)
    html_src = out / "jb" / "_build" / "html"
    if html_src.exists():
        _publish(html_src, out / "html")
        print(f"preview rendered: open {(out / 'html' / 'index.html').relative_to(ROOT)} in a browser", flush=True)
    return rc


# ------------------------------------------------------------------------------------------ main


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (``prog: error: ... (see --help)``), not the usage
    block followed by the error."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


@contract(rule=Instance(Integer, example=Integer(1, 2)))
def int_option(rule: Integer) -> Callable[[str], int]:
    """An argparse ``type`` for an integer option checked against ``rule`` (the same rule as the
    function the option feeds), so that ``--jobs 0`` is refused in one line before anything runs."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {rule.describe()}, got {text!r}") from None
        if (rule.low is not None and value < rule.low) or (rule.high is not None and value > rule.high):
            raise argparse.ArgumentTypeError(f"must be {rule.describe()}, got {value}")
        return value

    parse.__name__ = "integer"
    return parse


@contract(argv=Optional(Instance(list, tuple, example=None)))
def main(argv: list[str] | None = None) -> int:
    ap = OneLineParser(prog="python -m ldpnb.repro.build", description=__doc__.split("\n")[0])
    ap.add_argument("step", choices=("execute", "render", "all", "chapter"))
    ap.add_argument("name", nargs="?", help="the chapter (step `chapter` only)")
    ap.add_argument("--scale", default="book", choices=SCALES)
    ap.add_argument("--jobs", type=int_option(_JOBS), default=2, help="chapters executed at once (1 to 256)")
    ap.add_argument("--only", nargs="*", help="execute only these chapters")
    ap.add_argument(
        "-p",
        "--param",
        nargs=2,
        action="append",
        default=[],
        metavar=("KEY", "VALUE"),
        help="extra papermill parameter (repeatable)",
    )
    ap.add_argument(
        "--timeout", type=int_option(_TIMEOUT), default=4 * 3600, help="per-cell timeout in seconds (1 s to 7 days)"
    )
    ap.add_argument("--no-strict", action="store_true", help="render without -W (warnings not fatal)")
    ap.add_argument(
        "--allow-mixed-scales",
        action="store_true",
        help="render chapters executed at different scales, with a banner on every page",
    )
    ap.add_argument("--html", action="store_true", help="step `chapter`: also render a one-chapter preview")
    args = ap.parse_args(argv)
    params = {k: _parse_value(v) for k, v in args.param}
    if args.step == "chapter" and not args.name:
        ap.error("step `chapter` needs the chapter's name: python -m ldpnb.repro.build chapter pie")
    if args.step != "chapter" and args.name:
        ap.error(f"only step `chapter` takes a chapter's name (got {args.name!r}); use --only for `execute`")
    try:
        if args.step == "chapter":
            return run_chapter(args.name, args.scale, params, args.timeout, args.html)
        if args.step in ("execute", "all"):
            rc = execute(args.scale, args.jobs, args.only, params, args.timeout)
            if rc:
                return rc
        if args.step in ("render", "all"):
            return render(strict=not args.no_strict, allow_mixed=args.allow_mixed_scales)
    except KeyboardInterrupt:
        print("build interrupted", file=sys.stderr)
        return 130
    return 0


def _parse_value(v: str):
    for cast in (int, float):
        try:
            return cast(v)
        except ValueError:
            pass
    return v


if __name__ == "__main__":
    sys.exit(main())
