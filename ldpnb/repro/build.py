"""Build the book: execute every chapter with papermill, then render with jupyter-book 1.x.

Usage (from the repository root; ``make book`` calls ``all``)::

    python -m ldpnb.repro.build execute --scale book --jobs 2 [--only pie ibu] [-p KEY VALUE ...]
    python -m ldpnb.repro.build render
    python -m ldpnb.repro.build all --scale book --jobs 2

``execute`` runs ``book/<name>.ipynb`` for every notebook chapter of ``_toc.yml``
into ``_build/executed/book/<name>.ipynb`` with the papermill parameters
``SCALE`` (and any ``-p``), two at a time by default; the reproduction summary
(``book/reproduction``) runs last because it reads the other chapters' reports, and the
benchmark appendix (``book/performance``) just before it, because it reads the chapter timings
that this build wrote to ``_build/timings.json``.
A chapter that raises stops the build after the others finish, and its
traceback is printed. ``render`` stages the executed notebooks with the markdown
pages under ``_build/src`` and runs ``jupyter-book build`` on them with warnings
as errors; the HTML lands in ``_build/html``. Nothing is written outside ``_build``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


ROOT = Path(__file__).resolve().parents[2]


BUILD = ROOT / "_build"


# chapters that read the others' outputs, run in this order after all the others: the benchmark
# appendix reads the chapter timings of the current build, the summary reads every report
LAST = ("performance", "reproduction")


def toc_files(root: Path = ROOT) -> list[str]:
    """Every ``file:`` of ``_toc.yml`` (root first), without extension, in order."""
    import yaml

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


def _kernel_env() -> dict[str, str]:
    env = dict(os.environ)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env.setdefault(var, "1")
    # figures must be captured in the executed notebooks: force the inline backend even when the
    # caller exported a non-interactive one (MPLBACKEND=Agg would make plt.show() draw nothing)
    env["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
    env.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    env["PAPERMILL"] = "1"
    env.setdefault("LDPNB_BUILD_DIR", str(BUILD))
    return env


def execute_one(name: str, scale: str, params: dict[str, object], out_dir: Path, timeout: int) -> tuple[str, float, str | None]:
    """Execute one chapter in a fresh kernel (a subprocess of papermill's CLI). Returns (name, seconds, error)."""
    src = ROOT / "book" / f"{name}.ipynb"
    dst = out_dir / "book" / f"{name}.ipynb"
    dst.parent.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "papermill", str(src), str(dst), "-p", "SCALE", scale,
           "--cwd", str(ROOT / "book"), "--kernel", "python3", "--no-progress-bar",
           "--execution-timeout", str(timeout)]
    for k, v in params.items():
        cmd += ["-p", k, str(v)]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=_kernel_env(), capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if proc.returncode != 0:
        return name, dt, (proc.stderr[-12000:] or proc.stdout[-4000:])
    return name, dt, None


def execute(scale: str, jobs: int, only: list[str] | None, params: dict[str, object], timeout: int) -> int:
    names = notebook_chapters()
    if only:
        unknown = sorted(set(only) - set(names))
        if unknown:
            raise SystemExit(f"error: unknown chapter(s) {unknown}; chapters are {names}")
        names = [n for n in names if n in only]
    groups = [[n for n in names if n not in LAST]] + [[n] for n in LAST if n in names]
    out_dir = BUILD / "executed"
    failed: list[tuple[str, str]] = []
    print(f"executing {len(names)} chapter(s) at SCALE={scale!r} with {jobs} worker(s): {', '.join(names)}", flush=True)
    BUILD.mkdir(exist_ok=True)
    tfile = BUILD / "timings.json"
    record = json.loads(tfile.read_text()) if tfile.exists() else {}
    record.setdefault(scale, {}).pop("_total_execute", None)  # a stale total would mislead the benchmark page
    t_all = time.perf_counter()
    for group in groups:
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futs = [pool.submit(execute_one, n, scale, params, out_dir, timeout) for n in group]
            for f in futs:
                name, dt, err = f.result()
                record[scale][name] = round(dt, 1)
                status = "ok" if err is None else "FAILED"
                print(f"  {name:<20s} {dt:7.1f} s  {status}", flush=True)
                if err is not None:
                    failed.append((name, err))
        # written after every group, so that the chapters of the next group see this build's timings
        record[scale]["_elapsed_execute"] = round(time.perf_counter() - t_all, 1)
        tfile.write_text(json.dumps(record, indent=1) + "\n")
    total = time.perf_counter() - t_all
    record[scale]["_total_execute"] = round(total, 1)
    tfile.write_text(json.dumps(record, indent=1) + "\n")
    for name, err in failed:
        print(f"\n===== chapter {name!r} failed; papermill's output (tail) =====\n{err}", file=sys.stderr)
    if failed:
        print(f"\n{len(failed)} chapter(s) failed: {', '.join(n for n, _ in failed)}", file=sys.stderr)
        return 1
    print(f"all chapters executed in {total:.0f} s", flush=True)
    return 0


def _merge_bib(dst: Path) -> None:
    """book/references.bib plus every book/refs/*.bib, one entry per key (first wins)."""
    import re

    seen: set[str] = set()
    chunks: list[str] = []
    files = [ROOT / "book" / "references.bib", *sorted((ROOT / "book" / "refs").glob("*.bib"))]
    for f in files:
        if not f.exists():
            continue
        text = f.read_text(encoding="utf-8")
        for entry in re.split(r"(?m)^(?=@)", text):
            m = re.match(r"@\w+\s*\{\s*([^,\s]+)\s*,", entry)
            if not m:
                continue
            key = m.group(1)
            if key in seen:
                continue
            seen.add(key)
            chunks.append(entry.strip() + "\n")
    dst.write_text("\n".join(chunks), encoding="utf-8")


def notebook_parameters(path: Path) -> dict[str, object]:
    """The parameters an executed notebook ran with: its ``parameters`` cell, overridden by
    papermill's ``injected-parameters`` cell."""
    import ast

    import nbformat

    values: dict[str, object] = {}
    cells = nbformat.read(path, as_version=4).cells
    for tag in ("parameters", "injected-parameters"):
        for c in cells:
            if c.cell_type == "code" and tag in c.get("metadata", {}).get("tags", []):
                for node in ast.parse(c.source).body:
                    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                        try:
                            values[node.targets[0].id] = ast.literal_eval(node.value)
                        except ValueError:
                            pass
    return values


def provenance() -> dict[str, str]:
    """Commit, build date, scale(s) and package versions of this build (for the page footer)."""
    import datetime
    import importlib.metadata as md

    try:
        commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True).stdout.strip()
        commit += " (with uncommitted changes)" if dirty else ""
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown (not a git checkout)"
    versions = []
    for pkg in ("ldpnb", "numpy", "scipy", "pandas", "matplotlib", "POT", "scikit-learn", "xgboost-cpu"):
        try:
            versions.append(f"{pkg} {md.version(pkg)}")
        except md.PackageNotFoundError:
            pass
    scales, seeds = set(), set()
    for nb in sorted((BUILD / "executed" / "book").glob("*.ipynb")):
        params = notebook_parameters(nb)
        scales.add(str(params.get("SCALE", "?")))
        if "SEED" in params:
            seeds.add(str(params["SEED"]))
    return {"commit": commit, "date": datetime.date.today().isoformat(), "scale": ", ".join(sorted(scales)) or "?",
            "seeds": ", ".join(sorted(seeds)) or "?", "versions": ", ".join(versions)}


def _stage_claims(src: Path) -> None:
    """Publish claims.csv / claims.json beside the dashboard; put the totals and the provenance footer
    into the staged configuration (``{{ claims_totals }}`` on the landing page)."""
    import yaml

    from ldpnb.repro.dashboard import totals_markdown

    rep = BUILD / "reproduction"
    for name in ("claims.csv", "claims.json"):
        if (BUILD / "downloads" / name).exists():
            shutil.copy2(BUILD / "downloads" / name, src / "book" / name)
    cfg_path = src / "_config.yml"
    cfg = yaml.safe_load(cfg_path.read_text())
    cfg.setdefault("parse", {}).setdefault("myst_substitutions", {})["claims_totals"] = totals_markdown(rep)
    p = provenance()
    footer = (f"Built from commit <code>{p['commit']}</code> on {p['date']}; chapters executed at scale "
              f"<code>{p['scale']}</code> with seed(s) {p['seeds']}; {p['versions']}.")
    cfg.setdefault("html", {})["extra_footer"] = f'<div class="ldpnb-provenance">{footer}</div>'
    cfg_path.write_text(yaml.safe_dump(cfg, sort_keys=False, allow_unicode=True))


def _stage_notebook(src: Path, dst: Path) -> None:
    """Copy an executed notebook, removing papermill's injected-parameters cell from the page."""
    import nbformat

    nb = nbformat.read(src, as_version=4)
    for c in nb.cells:
        tags = c.get("metadata", {}).get("tags", [])
        if "injected-parameters" in tags and "remove-cell" not in tags:
            c.metadata["tags"] = [*tags, "remove-cell"]
    nbformat.write(nb, dst)


def stage() -> Path:
    """Copy config, markdown pages and executed notebooks to ``_build/src``."""
    src = BUILD / "src"
    if src.exists():
        shutil.rmtree(src)
    (src / "book").mkdir(parents=True)
    for f in ("_config.yml", "_toc.yml"):
        shutil.copy2(ROOT / f, src / f)
    for p in (ROOT / "book").iterdir():
        if p.is_file() and p.suffix not in (".py", ".ipynb", ".bib"):
            shutil.copy2(p, src / "book" / p.name)
        elif p.is_dir() and p.name not in ("refs", "__pycache__", ".ipynb_checkpoints"):
            shutil.copytree(p, src / "book" / p.name)
    _merge_bib(src / "book" / "references.bib")
    _stage_claims(src)
    missing = []
    for name in notebook_chapters():
        ex = BUILD / "executed" / "book" / f"{name}.ipynb"
        if not ex.exists():
            missing.append(name)
            continue
        _stage_notebook(ex, src / "book" / f"{name}.ipynb")
    if missing:
        raise SystemExit(f"error: chapters not executed yet: {missing} (run `make book` or the execute step)")
    return src


def render(strict: bool = True) -> int:
    src = stage()
    jb = Path(sys.executable).with_name("jupyter-book")
    cmd = [str(jb), "build", str(src), "--path-output", str(BUILD / "jb"), "--keep-going"]
    if strict:
        cmd.append("-W")
    print("rendering:", " ".join(cmd), flush=True)
    rc = subprocess.run(cmd, cwd=ROOT).returncode
    html_src = BUILD / "jb" / "_build" / "html"
    if rc == 0 and html_src.exists():
        dst = BUILD / "html"
        if dst.exists():
            shutil.rmtree(dst)
        shutil.move(str(html_src), str(dst))
        print(f"book rendered: {dst / 'index.html'}")
    return rc


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ldpnb.repro.build", description=__doc__.split("\n")[0])
    ap.add_argument("step", choices=("execute", "render", "all"))
    ap.add_argument("--scale", default="book", choices=("smoke", "book", "paper"))
    ap.add_argument("--jobs", type=int, default=2, help="chapters executed at once")
    ap.add_argument("--only", nargs="*", help="execute only these chapters")
    ap.add_argument("-p", "--param", nargs=2, action="append", default=[], metavar=("KEY", "VALUE"),
                    help="extra papermill parameter (repeatable)")
    ap.add_argument("--timeout", type=int, default=4 * 3600, help="per-cell timeout in seconds")
    ap.add_argument("--no-strict", action="store_true", help="render without -W (warnings not fatal)")
    args = ap.parse_args(argv)
    params = {k: _parse_value(v) for k, v in args.param}
    if args.step in ("execute", "all"):
        rc = execute(args.scale, args.jobs, args.only, params, args.timeout)
        if rc:
            return rc
    if args.step in ("render", "all"):
        return render(strict=not args.no_strict)
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
