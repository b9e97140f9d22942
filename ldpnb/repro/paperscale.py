"""Record a chapter's run at the paper's scale: ``results/paper/<chapter>.json``.

Usage (from the repository root; hours of CPU, never part of CI)::

    python -m ldpnb.repro.paperscale --only pie ibu --jobs 2
    python -m ldpnb.repro.paperscale            # every chapter with a reproduction report

Each chapter is executed with papermill at ``SCALE=paper`` (into ``_build/paper/``), and its
reproduction report is written, with the run's provenance, to ``results/paper/<chapter>.json``:
the commit, the command, the machine, the start time, the wall time, the CPU time and the peak
memory of the kernel (with its worker processes) and the rows of the report. A run stopped by a
failing row is recorded too, with its error, when its report was written. Its glued figures, with
their captions (glued values filled in), go to ``results/paper/figures/<chapter>/``
(:func:`export_figures`; palette PNGs), which the claims dashboard shows; ``--figures-only``
re-exports them from the executed notebooks of earlier runs. The claims dashboard shows each claim's
paper-scale status beside its book-scale status, and flags a record whose claim ids no longer match
the chapter.
Chapters run as separate processes, ``--jobs`` at once (default: every core this process may use),
longest first (by the wall time of their last record; chapters without one first), so that the
long chapters do not finish last on one core. Every chapter runs with one BLAS/OpenMP thread (its own
sweeps honour ``LDPNB_N_JOBS``, unset: serial; ``--workers multidim_risks=2`` sets it for one chapter),
so a chapter's numbers do not depend on how many chapters run beside it: a serial and a parallel run
write the same rows (tested at smoke scale). The
whole run's wall time, order and loads go to ``results/paper/runs/last.json``. Raw results a chapter writes
beside its report (``fits/<chapter>.*.json`` of its build folder: the risks chapter's XGBoost fits,
:func:`ldpnb.papers.risks.runs.save_xgb_fits`) are named in its record (``fits_files``) and copied to
``results/paper/fits/``. ``--scale smoke`` (or
``book``) with ``--out DIR`` runs the same machinery at a smaller scale into ``DIR`` (tests).
"""

from __future__ import annotations

import argparse
import ast
import base64
import datetime
import io
import json
import math
import os
import platform
import re
import shlex
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from ldpnb.contracts import Instance, Integer, OneOf, Optional, contract
from ldpnb.repro import build
from ldpnb.repro.toc import ROOT

OUT = ROOT / "results" / "paper"
WORK = ROOT / "_build" / "paper"
NO_REPORT = ("reproduction", "quickstart")  # no claims: the summary page, the quickstart
_JOBS = Integer(1, 256)
_TIMEOUT = Integer(1, 7 * 24 * 3600)


def _machine() -> dict[str, object]:
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        mem_gb = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    except (ValueError, OSError):
        mem_gb = None
    return {
        "system": platform.platform(),
        "python": platform.python_version(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_gb": mem_gb,
    }


def _load() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:  # pragma: no cover - not available on this platform
        return None


def _commit() -> str:
    try:
        c = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        return c + (" (with uncommitted changes)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


REFERENCE_WORK = "numpy: 5 rounds of 10^6 binomial draws, a 400 x 400 matmul and a 10^6-element sort (1 thread)"


@contract(rounds=Integer(1, 1000))
def reference_workload(rounds: int = 5) -> dict[str, float]:
    """Time a fixed single-thread numpy workload (:data:`REFERENCE_WORK`): its CPU and wall seconds.

    Timed at the start and at the end of every paper-scale run, it measures how fast the machine ran
    *then*: CPU seconds inflate on a loaded shared machine (hyperthreads, caches, steal), so a record's
    ``cpu_s`` divided by the reference's CPU seconds (``cpu_reference_units``) compares runs made at
    different loads; a record's wall time alone does not.

    Examples
    --------
    >>> r = reference_workload(1)
    >>> sorted(r)
    ['cpu_s', 'wall_s']
    """
    rng = np.random.default_rng(0)
    a = rng.random((400, 400))
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(rounds):
        rng.binomial(100, 0.3, size=1_000_000)
        a = a @ a
        a /= np.abs(a).max()
        np.sort(rng.random(1_000_000))
    return {"cpu_s": round(time.process_time() - c0, 3), "wall_s": round(time.perf_counter() - t0, 3)}


#: the thread-count variables set to 1 in every chapter's process (BLAS, OpenMP, numexpr)
SINGLE_THREAD = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
)


def _usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


@contract(names=Instance(list, tuple, example=["intro"]), records=Optional(Instance(Path, example=ROOT)))
def longest_first(names: list[str], records: Path | None = None) -> list[str]:
    """The chapters in the order the runner starts them: by decreasing wall time (``duration_s``) of their
    record in ``records`` (default ``results/paper``); chapters without a record first (their cost is
    unknown), ties and unknowns in the given order. With ``--jobs`` workers taking the next chapter when
    one finishes, this is the longest-processing-time-first list schedule.

    Examples
    --------
    >>> longest_first(["no-such-chapter", "foundations"])[0]
    'no-such-chapter'
    """
    folder = OUT if records is None else records
    wall: dict[str, float] = {}
    for n in names:
        p = folder / f"{n}.json"
        try:
            wall[n] = float(json.loads(p.read_text(encoding="utf-8"))["duration_s"])
        except (OSError, ValueError, KeyError, TypeError):
            wall[n] = math.inf
    return sorted(names, key=lambda n: -wall[n])


@contract(
    name=Instance(str, example="intro"),
    params=Instance(dict, example={}),
    timeout=_TIMEOUT,
    scale=OneOf(*build.SCALES),
    work=Optional(Instance(Path, example=ROOT)),
    workers=Optional(_JOBS),
)
def run_one(
    name: str,
    params: dict[str, object],
    timeout: int,
    scale: str = "paper",
    work: Path | None = None,
    workers: int | None = None,
) -> dict[str, object]:
    """Execute one chapter at ``scale`` (paper) in a fresh process with one BLAS/OpenMP thread, its
    notebook and report under ``work`` (default ``_build/paper``); return its record (not yet written).
    ``workers``: the chapter's own worker processes (``LDPNB_N_JOBS``; default: this process's)."""
    work = WORK if work is None else work
    src = ROOT / "book" / f"{name}.ipynb"
    dst = work / "executed" / f"{name}.ipynb"
    dst.parent.mkdir(parents=True, exist_ok=True)
    cmd = [
        sys.executable,
        "-m",
        "papermill",
        str(src),
        str(dst),
        "-p",
        "SCALE",
        scale,
        "--cwd",
        str(ROOT / "book"),
        "--kernel",
        "python3",
        "--no-progress-bar",
        "--execution-timeout",
        str(timeout),
    ]
    for k, v in params.items():
        cmd += ["-p", k, str(v)]
    env = dict(os.environ)
    # one thread per chapter: the chapters (and their LDPNB_N_JOBS workers) are the parallelism, and
    # multithreaded BLAS or OpenMP reductions could change the last bits of a result with the thread count
    for var in SINGLE_THREAD:
        env[var] = "1"
    # threads that sleep while they wait: XGBoost's 2 OpenMP threads (n_jobs = $LDPNB_N_JOBS) on a core that
    # another process also uses took 26 s instead of 2 s when spinning (20,000 x 100 toy fit)
    env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    env["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
    env["LDPNB_BUILD_DIR"] = str(work)
    if workers is not None:
        env["LDPNB_N_JOBS"] = str(workers)
    env["PAPERMILL"] = "1"
    started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    # the commit the chapter runs from is read before it starts: a commit made during a long run
    # (a record of another chapter, say) must not be named as the code of this one
    commit = _commit()
    load_start = _load()
    ref_start = reference_workload()
    t_start = time.time()
    t0 = time.perf_counter()
    # a wrapper process per chapter, so that its children's peak RSS is the kernel's own
    wrapper = [
        sys.executable,
        "-c",
        "import resource, subprocess, sys, json; rc = subprocess.run(sys.argv[1:]).returncode; "
        "u = resource.getrusage(resource.RUSAGE_CHILDREN); "
        "print(json.dumps({'rc': rc, 'maxrss_kb': u.ru_maxrss, 'cpu_s': u.ru_utime + u.ru_stime}))",
        *cmd,
    ]
    proc = subprocess.run(wrapper, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    try:
        info = json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        info = {"rc": proc.returncode, "maxrss_kb": None, "cpu_s": None}
    load_end = _load()
    ref_end = reference_workload()
    ref_cpu = (ref_start["cpu_s"] + ref_end["cpu_s"]) / 2
    record: dict[str, object] = {
        "chapter": name,
        "scale": scale,
        "commit": commit,
        "command": "python -m ldpnb.repro.paperscale --only "
        + name
        + ("" if scale == "paper" else f" --scale {scale}")
        + ("" if workers is None else f" --workers {name}={workers}")
        + "".join(f" -p {shlex.quote(str(k))} {shlex.quote(str(v))}" for k, v in params.items()),
        "machine": _machine(),
        "started": started,
        "duration_s": round(wall, 1),
        "peak_rss_mb": round(info["maxrss_kb"] / 1024, 1) if info.get("maxrss_kb") else None,
        # user + system CPU of the kernel and of its worker processes (every descendant reaped before the end)
        "cpu_s": round(info["cpu_s"], 1) if info.get("cpu_s") is not None else None,
        "n_jobs": env.get("LDPNB_N_JOBS", "1"),
        # 1-minute load averages at start and end: a duration measured on a busy machine is inflated
        "load_average": {"start": load_start, "end": load_end},
        # the same fixed workload timed before and after the chapter: the machine's speed during the run
        "reference": {"work": REFERENCE_WORK, "start": ref_start, "end": ref_end},
        # the chapter's CPU in units of the reference's CPU (comparable across loads, unlike seconds)
        "cpu_reference_units": (
            round(info["cpu_s"] / ref_cpu, 1) if info.get("cpu_s") is not None and ref_cpu > 0 else None
        ),
    }
    commit_end = _commit()
    if commit_end != commit:  # the worktree moved while the chapter ran: say so, keep the start
        record["commit_at_end"] = commit_end
    if info.get("rc") != 0:
        record["error"] = (proc.stderr or proc.stdout)[-4000:]
    report = work / "reproduction" / f"{name}.json"
    # a report written by this run (a failing row stops the chapter after its report is written)
    fresh = report.exists() and report.stat().st_mtime >= t_start
    if "error" in record and not fresh:
        return record
    record["rows"] = json.loads(report.read_text()) if fresh else []
    tfile = work / "reproduction" / f"{name}.timings.json"
    if tfile.exists():
        record["timings"] = json.loads(tfile.read_text())
    # raw results the chapter wrote beside its report (``<work>/fits/<name>.*.json``, e.g. the risks chapter's
    # XGBoost fits): named in the record, copied beside it by main()
    side = sorted((work / "fits").glob(f"{name}.*.json")) if (work / "fits").is_dir() else []
    side = [p for p in side if p.stat().st_mtime >= t_start]
    if side:
        record["fits_files"] = [f"fits/{p.name}" for p in side]
    counts: dict[str, int] = {}
    for r in record["rows"]:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    record["counts"] = counts
    return record


@contract(root=Optional(Instance(Path, example=ROOT)))
def last_run(root: Path | None = None) -> dict[str, object] | None:
    """The record of the runner's last run (``results/paper/runs/last.json``: its wall time, number of
    chapters at once, order, loads, and whether it covered every chapter), or None if there is none.

    Examples
    --------
    >>> last_run(Path("/nonexistent")) is None
    True
    """
    p = (OUT if root is None else root / "results" / "paper") / "runs" / "last.json"
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


FIGURES = OUT / "figures"
_REC = "application/papermill.record/"  # glue(..., display=False); displayed glues have no prefix
_FIGURE = re.compile(r"```\{glue:figure\}\s*(\S+)\s*\n(.*?)```", re.S)
_ROLE = re.compile(r"\{([\w:-]+)\}`([^`]*)`")


def _glued(nb: dict) -> tuple[dict[str, bytes], dict[str, str]]:
    """The glued images (PNG bytes) and texts of an executed notebook, by glue name."""
    images, texts = {}, {}
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []):
            book = out.get("metadata", {}).get("scrapbook", {})
            name, pre = book.get("name"), book.get("mime_prefix", _REC)
            data = out.get("data", {})
            if not name:
                continue
            if pre + "image/png" in data:
                images[name] = base64.b64decode(data[pre + "image/png"])
            elif pre + "text/plain" in data:
                raw = data[pre + "text/plain"]
                raw = "".join(raw) if isinstance(raw, list) else raw
                try:
                    value = ast.literal_eval(raw)
                except (ValueError, SyntaxError):
                    value = raw
                texts[name] = str(value)
    return images, texts


def _caption(body: str, texts: dict[str, str], labels: dict[str, int]) -> str:
    """A glue:figure body as plain text: options dropped, glued values filled in, cross-references
    to the chapter's other figures numbered as in the gallery, other roles reduced to their text."""
    lines = [ln for ln in body.splitlines() if not ln.lstrip().startswith(":")]
    text = " ".join(ln.strip() for ln in lines if ln.strip())

    def role(m: re.Match) -> str:
        kind, content = m.group(1), m.group(2)
        if kind.startswith("glue"):
            return texts.get(content, content)
        if kind == "numref":
            return f"Figure {labels[content]}" if content in labels else "the chapter's figure"
        if kind == "cite":
            return "[" + content + "]"
        return re.sub(r"\s*<[^>]*>$", "", content)

    return _ROLE.sub(role, text)


@contract(
    name=Instance(str, example="intro"),
    executed=Instance(Path, example=ROOT),
    out=Instance(Path, example=ROOT),
    colors=Integer(2, 256),
)
def export_figures(name: str, executed: Path, out: Path = FIGURES, colors: int = 64) -> list[dict[str, str]]:
    """Write the glued figures of an executed chapter to ``out/<name>/<glue name>.png`` (palette PNGs of
    ``colors`` colours: line plots lose nothing visible and shrink about fourfold) and an ``index.json``
    of ``{name, label, caption}`` in the chapter's order; returns that index."""
    from PIL import Image  # noqa: PLC0415 lazy: pillow loads only when figures are exported

    nb = json.loads(Path(executed).read_text(encoding="utf-8"))
    images, texts = _glued(nb)
    blocks = []
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "markdown":
            src = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            blocks += _FIGURE.findall(src)
    blocks = [(g, body) for g, body in blocks if g in images]
    labels = {}
    for i, (g, body) in enumerate(blocks, 1):
        m = re.search(r"^:name:\s*(\S+)", body, re.M)
        labels[m.group(1) if m else g] = i
    dest = out / name
    if dest.exists():
        for old in dest.glob("*.png"):
            old.unlink()
    dest.mkdir(parents=True, exist_ok=True)
    index = []
    for (g, body), (label, _) in zip(blocks, labels.items()):
        im = Image.open(io.BytesIO(images[g])).convert("RGB")
        im.quantize(colors=colors, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
            dest / f"{g}.png", optimize=True
        )
        index.append({"name": g, "label": label, "caption": _caption(body, texts, labels)})
    (dest / "index.json").write_text(
        json.dumps({"chapter": name, "figures": index}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    return index


def _chapter_workers(text: str) -> tuple[str, int]:
    """``CHAPTER=N`` of ``--workers``: N checked against 1 to 256 in one line before anything runs."""
    name, sep, n = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"must be CHAPTER=N, got {text!r}")
    return name, build.int_option(_JOBS)(n)


@contract(argv=Optional(Instance(list, tuple, example=None)))
def main(argv: list[str] | None = None) -> int:
    ap = build.OneLineParser(prog="python -m ldpnb.repro.paperscale", description=__doc__.split("\n")[0])
    ap.add_argument("--only", nargs="*", help="chapters to run (default: every chapter with a report)")
    ap.add_argument(
        "--jobs",
        type=build.int_option(_JOBS),
        default=None,
        help="chapters run at once, each in its own process (1 to 256; default: the usable cores)",
    )
    ap.add_argument("-p", "--param", nargs=2, action="append", default=[], metavar=("KEY", "VALUE"))
    ap.add_argument(
        "--workers",
        type=_chapter_workers,
        action="append",
        default=[],
        metavar="CHAPTER=N",
        help="N worker processes (LDPNB_N_JOBS) for that chapter's own sweeps, e.g. multidim_risks=2",
    )
    ap.add_argument(
        "--timeout", type=build.int_option(_TIMEOUT), default=6 * 3600, help="per-cell timeout (s, 1 s to 7 days)"
    )
    ap.add_argument(
        "--scale",
        default="paper",
        choices=build.SCALES,
        help="paper (default); smoke or book only to test the runner, with --out",
    )
    ap.add_argument(
        "--out", type=Path, default=None, help="records here instead of results/paper (notebooks in OUT/_work)"
    )
    ap.add_argument(
        "--figures-only",
        action="store_true",
        help="only re-export the figures of the chapters' last executed runs (_build/paper/executed)",
    )
    args = ap.parse_args(argv)
    if args.scale != "paper" and args.out is None:
        ap.error("--scale smoke|book needs --out: results/paper holds paper-scale records only")
    out, work = (OUT, WORK) if args.out is None else (args.out, args.out / "_work")
    names = [n for n in build.notebook_chapters() if n not in NO_REPORT]
    workers = dict(args.workers)
    unknown = sorted(set(workers) - set(names))
    if unknown:
        ap.error(f"--workers: unknown chapter(s) {unknown}; chapters are {names}")
    if args.only:
        unknown = sorted(set(args.only) - set(names))
        if unknown:
            raise SystemExit(f"error: unknown chapter(s) {unknown}; chapters are {names}")
        names = [n for n in names if n in args.only]
    params = {k: v for k, v in args.param}
    if "SCALE" in params:
        raise SystemExit("error: -p SCALE: the paper-scale runner sets SCALE itself (--scale)")
    build.check_params(names, {k: build._parse_value(v) for k, v in params.items()})
    out.mkdir(parents=True, exist_ok=True)
    if args.figures_only:
        for name in names:
            src = work / "executed" / f"{name}.ipynb"
            if src.exists():
                print(f"  {name}: {len(export_figures(name, src, out / 'figures'))} figure(s)", flush=True)
        return 0
    names = longest_first(names)
    jobs = args.jobs if args.jobs is not None else max(1, min(_usable_cores(), len(names)))
    failed = []
    spans: dict[str, dict[str, object]] = {}
    started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    commit = _commit()
    load_start = _load()
    t_all = time.perf_counter()
    print(f"{args.scale} scale: {len(names)} chapter(s), {jobs} at once, longest first: {', '.join(names)}", flush=True)

    def job(name):
        print(f"  start {name}", flush=True)
        t0 = time.perf_counter() - t_all
        rec = run_one(name, params, args.timeout, args.scale, work, workers.get(name))
        spans[name] = {"start_s": round(t0, 1), "end_s": round(time.perf_counter() - t_all, 1), "cpu_s": rec["cpu_s"]}
        status = "FAILED" if "error" in rec else ", ".join(f"{v} {k}" for k, v in rec.get("counts", {}).items())
        print(f"  done  {name:<16s} {rec['duration_s']:8.1f} s  peak {rec['peak_rss_mb']} MB  {status}", flush=True)
        if "error" in rec:
            failed.append(name)
            print(rec["error"], file=sys.stderr)
        if "rows" in rec:  # a run whose report was written is recorded, failing rows and error included
            (out / f"{name}.json").write_text(json.dumps(rec, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
            for rel in rec.get("fits_files", []):  # in a folder of its own: results/paper/*.json are records
                (out / rel).parent.mkdir(parents=True, exist_ok=True)
                (out / rel).write_bytes((work / rel).read_bytes())
            export_figures(name, work / "executed" / f"{name}.ipynb", out / "figures")
        return rec

    # a thread per running chapter, each waiting on its chapter's process: the next chapter in the list
    # starts when one finishes (longest first), so both cores stay busy until the list runs out
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(job, names))
    wall = time.perf_counter() - t_all
    run = {
        "scale": args.scale,
        "commit": commit,
        "command": "python -m ldpnb.repro.paperscale " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:])),
        "machine": _machine(),
        "started": started,
        "jobs": jobs,
        "workers": workers,
        "order": names,
        "all_chapters": sorted(names) == sorted(n for n in build.notebook_chapters() if n not in NO_REPORT),
        "wall_s": round(wall, 1),
        "failed": sorted(failed),
        "load_average": {"start": load_start, "end": _load()},
        "chapters": spans,
    }
    (out / "runs").mkdir(parents=True, exist_ok=True)
    (out / "runs" / "last.json").write_text(json.dumps(run, indent=1) + "\n", encoding="utf-8")
    print(f"{args.scale} scale finished in {wall:.0f} s ({jobs} at once); records in {out}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
