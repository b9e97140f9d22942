"""An independent fuzz of every public signature of ldpnb, with a time and a memory limit per call.

Usage (from the repository root, with the project's environment)::

    python -m tests.fuzz.run [--only REGEX] [--jobs 2] [--timeout 10] [--mem-gib 3] [--tag NAME]

For every public callable of :func:`tests.fuzz.surface.public_surface` with arguments, a *baseline* call
with valid values is built (hand baselines of :mod:`tests.fuzz.baselines` first; else each argument from
the example table of :mod:`tests.fuzz.catalogue`, then from the declared contract's ``valid()``, in both
orders) and run once; if it succeeds, each argument in turn is replaced by each bad value of its kind
(:func:`tests.fuzz.catalogue.bad_values`), one call per bad value.  Each call runs in a forked child
process with ``RLIMIT_AS`` capped (``--mem-gib`` above the parent's size) and is killed after
``--timeout`` seconds.  Outcomes:

========== ======================================================================================
clear      ValueError/TypeError (or a subclass, an OSError for a path, a SystemExit of a CLI) whose
           message names the argument
unclear    any other exception, or one that does not name the argument
silent     an invalid, wrongly typed or huge value accepted (``silent-nan``: the result holds NaN/inf)
lenient    a number given as a string, converted
mismatch   a shorter array accepted (valid on its own: listed for review, not counted as silent)
edge-ok    an extreme valid value (eps 1e-12 / 710 / 1e4, zero counts) gave a finite result
edge-nan   ... gave NaN or inf
hang       no answer within the time limit
crash      MemoryError, RecursionError, or the child died (segfault, std::bad_alloc, the memory cap)
documented a value accepted on purpose, listed with its reason in :data:`tests.fuzz.baselines.ACCEPTED`
========== ======================================================================================

Writes ``_build/fuzz/<tag>.jsonl`` (one line per call) and prints the table by package; ``python -m
tests.fuzz.report _build/fuzz/<tag>.jsonl`` turns it into the markdown of ``tests/fuzz/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import dataclasses
import faulthandler
import inspect
import json
import math
import os
import re
import resource
import select
import signal
import sys
import time
import traceback
import warnings
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ldpnb.contracts import Constraint, contract_of

from . import baselines, catalogue
from .surface import Name, concrete_subclasses, public_surface

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "_build" / "fuzz"
P = inspect.Parameter


# ------------------------------------------------------------------------------------------ baselines
@dataclasses.dataclass
class Plan:
    """How to call one public name: ``make()`` returns the callable (a bound method needs an instance,
    built in the child), ``values`` the baseline arguments (by name), ``kinds`` each fuzzed argument's kind
    and baseline value."""

    name: Name
    make: Callable[[], Callable]
    values: dict[str, Any]
    positional: list[str]
    fuzz: dict[str, tuple[str, Any, Any]]  # param -> (kind, valid value, default)
    variant: str


def _rule_value(rules: dict | None, pname: str) -> Any:
    rule = (rules or {}).get(pname)
    if isinstance(rule, Constraint):
        try:
            return rule.valid()
        except Exception:  # noqa: BLE001 - a rule without an example
            return None
    return None


def _value_for(pname: str, rules: dict | None, order: str) -> Any:
    by_name = catalogue.BY_NAME.get(pname)
    first, second = ((lambda: by_name() if by_name else None), (lambda: _rule_value(rules, pname)))
    if order == "contract":
        first, second = second, first
    v = first()
    return v if v is not None else second()


def targets(name: Name) -> list[tuple[str, list[Plan]]]:
    """The signatures of ``name``: one for a function or class; for a method, one per exported concrete
    class that has it as defined here (an inherited ``perturb`` is fuzzed on every mechanism), each with
    its candidate baseline plans (tried in order until one runs)."""
    if name.kind != "method":
        return [(name.qual, plans(name, "", lambda: name.obj))]
    raw = inspect.getattr_static(name.owner_class, name.method)
    if isinstance(raw, (staticmethod, classmethod)):
        return [(name.qual, plans(name, "", lambda: getattr(name.owner_class, name.method)))]
    out = []
    for cls in concrete_subclasses(name.owner_class, SURFACE):
        if f"{cls.__module__}.{cls.__qualname__}" in baselines.BASES:
            continue
        if inspect.getattr_static(cls, name.method, None) is not raw:
            continue
        cands = []
        for label, factory in baselines.instances(cls):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    inst = factory()
            except Exception:  # noqa: BLE001 - this way of building one failed; try the next
                continue
            cands += plans(name, label, (lambda inst=inst: getattr(inst, name.method)), inst)
        sig = f"{cls.__module__}.{cls.__qualname__}.{name.method}"
        out.append((sig, cands if cands else []))
    return out


def plans(name: Name, inst_label: str, make: Callable[[], Callable], inst: Any = None) -> list[Plan]:
    """Candidate baseline plans for ``name`` called through ``make`` (on ``inst`` for a method)."""
    hand = baselines.HAND.get(name.qual)
    rules = contract_of(name.obj)
    out = []
    orders = ("hand",) if hand is not None else ("name", "contract")
    for order in orders:
        try:
            values: dict[str, Any] = dict(hand()) if hand is not None else {}
            if inst is not None:
                values.update(baselines.method_args(inst, name))
        except Exception as exc:  # noqa: BLE001 - a broken hand baseline is reported, not fatal
            print(f"baseline of {name.qual} not built: {type(exc).__name__}: {exc}", file=sys.stderr)
            continue
        fuzz = {}
        ok = True
        for p in name.params:
            default = p.default if p.default is not P.empty else catalogue.EMPTY
            if p.name in values:
                v = values[p.name]
            elif p.default is not P.empty:
                v = p.default if p.default is not None else _value_for(p.name, rules, order)
            else:
                v = _value_for(p.name, rules, order)
                if v is None:
                    ok = False
                    break
                values[p.name] = v
            if v is not None:
                fuzz[p.name] = (catalogue.infer_kind(p.name, v, (rules or {}).get(p.name)), v, default)
        if not ok:
            continue
        has_domain = inst is not None or any(p.name in catalogue.DOMAIN_PARAMS for p in name.params)
        for pn, (kind, v, default) in list(fuzz.items()):
            if kind == "values" and not has_domain:
                fuzz[pn] = ("vector", v, default)  # values without a domain to lie in: plain numbers
        positional = [p.name for p in name.params if p.kind is P.POSITIONAL_ONLY]
        out.append(Plan(name, make, values, positional, fuzz, f"{order}{'/' + inst_label if inst_label else ''}"))
    return out


# ------------------------------------------------------------------------------------------ one call
def _nonfinite(obj: Any, depth: int = 0) -> bool:
    if depth > 4:
        return False
    if isinstance(obj, (bool, np.bool_)):
        return False
    if isinstance(obj, (int, float, np.number)):
        return not math.isfinite(float(obj)) if not isinstance(obj, (int, np.integer)) else False
    if isinstance(obj, np.ndarray):
        return obj.dtype.kind in "fc" and obj.size > 0 and not bool(np.all(np.isfinite(obj)))
    if isinstance(obj, (list, tuple)):
        return any(_nonfinite(v, depth + 1) for v in obj[:50])
    if isinstance(obj, dict):
        return any(_nonfinite(v, depth + 1) for v in list(obj.values())[:50])
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return any(_nonfinite(getattr(obj, f.name), depth + 1) for f in dataclasses.fields(obj))
    return False


def _names_arg(msg: str, pname: str) -> bool:
    words = catalogue.ALIASES.get(pname, (pname,))
    return any(re.search(rf"(?<![A-Za-z0-9_]){re.escape(w)}(?![A-Za-z0-9_])", msg, flags=re.I) for w in words)


def _call(plan: Plan, pname: str | None, bad: Any) -> Any:
    func = plan.make()
    values = dict(plan.values)
    if pname is not None:
        values[pname] = bad
    args = [values.pop(n) for n in plan.positional if n in values]
    return func(*args, **values)


def _outcome(plan: Plan, pname: str | None, label: str, category: str, bad: Any) -> dict:
    rec: dict[str, Any] = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = _call(plan, pname, bad)
        except MemoryError:
            return {"outcome": "crash", "exc": "MemoryError", "msg": ""}
        except RecursionError:
            return {"outcome": "crash", "exc": "RecursionError", "msg": ""}
        except BaseException as exc:  # noqa: BLE001 - every exception is classified
            msg = str(exc)
            if isinstance(exc, SystemExit) and not isinstance(exc.code, str):
                msg = str(exc.code)
            tb = traceback.extract_tb(exc.__traceback__)
            where = f"{Path(tb[-1].filename).name}:{tb[-1].lineno}" if tb else ""
            kind = type(exc).__name__
            if pname is None:
                return {"outcome": "baseline-error", "exc": kind, "msg": msg[:300], "where": where}
            clear_types = (ValueError, TypeError, SystemExit, OSError, KeyError, LookupError)
            named = _names_arg(msg, pname)
            if isinstance(exc, clear_types) and named:
                out = "clear"
            else:
                out = "unclear"
            if category == "edge":
                out = "edge-refused" if out == "clear" else "edge-unclear"
            return {"outcome": out, "exc": kind, "msg": msg[:300], "where": where}
    rec["warnings"] = sorted({type(w.message).__name__ + ": " + str(w.message)[:80] for w in caught})[:3]
    nonfinite = _nonfinite(result)
    if pname is None:
        rec["outcome"] = "baseline-ok"
        rec["nonfinite"] = nonfinite
        return rec
    rule = (contract_of(plan.name.obj) or {}).get(pname)
    declared = isinstance(rule, Constraint) and _accepts(rule, bad, pname)
    if category == "edge":
        rec["outcome"] = "edge-nan" if nonfinite else "edge-ok"
    elif category == "mismatch":
        rec["outcome"] = "mismatch"
    elif category == "huge" and not nonfinite:
        rec["outcome"] = "huge-ok"  # a closed form, or a size the function need not allocate
    elif label == "str-number" or (category == "type" and plan.fuzz.get(pname, ("",))[0] == "bool"):
        rec["outcome"] = "lenient"
    elif declared and not nonfinite:
        rec["outcome"] = "declared-valid"  # the declared rule accepts it: reviewed by hand
    else:
        rec["outcome"] = "silent-nan" if nonfinite else "silent"
    rec["result"] = _short(result)
    return rec


def _accepts(rule: Constraint, value: Any, pname: str) -> bool:
    try:
        rule.check(value, pname)
        return True
    except Exception:  # noqa: BLE001 - refused
        return False


def _short(v: Any) -> str:
    try:
        if isinstance(v, np.ndarray):
            s = np.array2string(v.ravel()[:6], precision=4, separator=", ")
            return f"array{v.shape} {s}"
        s = repr(v)
    except Exception:  # noqa: BLE001
        s = f"<{type(v).__name__}>"
    return s[:160]


def _repr_arg(v: Any) -> str:
    if isinstance(v, np.ndarray):
        if v.size <= 12:
            return f"np.array({v.tolist()!r})".replace("nan", "np.nan").replace("inf", "np.inf")
        return f"<array {v.shape}>"
    if isinstance(v, float) and not math.isfinite(v):
        return f"float('{v}')"
    if callable(v) and not isinstance(v, type):
        return f"<{getattr(v, '__name__', 'callable')}>"
    s = repr(v)
    return s if len(s) <= 80 else s[:77] + "..."


def repro(plan: Plan, pname: str | None, bad: Any) -> str:
    values = dict(plan.values)
    if pname is not None:
        values[pname] = bad
    head = plan.name.qual
    if plan.name.kind == "method" and "/" in plan.variant:
        head = f"{plan.variant.split('/', 1)[1]}.{plan.name.method}"
    pos = [_repr_arg(values.pop(n)) for n in plan.positional if n in values]
    return f"{head}(" + ", ".join(pos + [f"{k}={_repr_arg(v)}" for k, v in values.items()]) + ")"


# ------------------------------------------------------------------------------------------ the runner
class Runner:
    """Forked children, ``jobs`` at a time, each with a memory cap, killed after ``timeout`` s."""

    def __init__(self, jobs: int, timeout: float, mem_gib: float) -> None:
        self.jobs, self.timeout, self.mem = jobs, timeout, int(mem_gib * (1 << 30))
        self.running: dict[int, tuple[int, float, Any, Callable]] = {}

    def _child(self, work: Callable[[], dict], wfd: int) -> None:
        try:
            with open("/proc/self/status") as f:
                vm = next(int(ln.split()[1]) * 1024 for ln in f if ln.startswith("VmSize:"))
            resource.setrlimit(resource.RLIMIT_AS, (vm + self.mem, vm + self.mem))
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            faulthandler.disable()  # a child that dies is an outcome, not a report
            out = work()
        except BaseException as exc:  # noqa: BLE001
            out = {"outcome": "crash", "exc": type(exc).__name__, "msg": str(exc)[:200]}
        try:
            data = json.dumps(out, default=str).encode()
        except Exception:  # noqa: BLE001
            data = json.dumps({"outcome": out.get("outcome", "crash"), "exc": "unserialisable"}).encode()
        with os.fdopen(wfd, "wb") as f:
            f.write(data)
        os._exit(0)

    def submit(self, work: Callable[[], dict], done: Callable[[dict], None]) -> None:
        while len(self.running) >= self.jobs:
            self.poll()
        r, w = os.pipe()
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            self._child(work, w)
        os.close(w)
        self.running[pid] = (r, time.monotonic(), bytearray(), done)

    def poll(self, wait: float = 0.05) -> None:
        fds = {v[0]: pid for pid, v in self.running.items()}
        readable, _, _ = select.select(list(fds), [], [], wait)
        for fd in readable:
            pid = fds[fd]
            chunk = os.read(fd, 1 << 16)
            if chunk:
                self.running[pid][2].extend(chunk)
                continue
            self._finish(pid)
        now = time.monotonic()
        for pid, (fd, t0, buf, done) in list(self.running.items()):
            if now - t0 > self.timeout:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                os.close(fd)
                del self.running[pid]
                done({"outcome": "hang", "exc": "", "msg": f"no answer in {self.timeout:g} s"})

    def _finish(self, pid: int) -> None:
        fd, t0, buf, done = self.running.pop(pid)
        os.close(fd)
        _, status = os.waitpid(pid, 0)
        try:
            out = json.loads(bytes(buf).decode()) if buf else None
        except ValueError:
            out = None
        if out is None:
            sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
            out = {"outcome": "crash", "exc": f"child died (signal {sig}, status {status})", "msg": ""}
        out["seconds"] = round(time.monotonic() - t0, 2)
        done(out)

    def drain(self) -> None:
        while self.running:
            self.poll()


SURFACE: list[Name] = []


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.fuzz.run", description=__doc__.split("\n")[0])
    ap.add_argument("--only", default=None, help="regex on the qualified names")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--mem-gib", type=float, default=3.0)
    ap.add_argument("--tag", default="latest")
    args = ap.parse_args(argv)
    global SURFACE
    SURFACE = public_surface()
    names = [n for n in SURFACE if n.params and not baselines.skip_reason(n)]
    if args.only:
        names = [n for n in names if re.search(args.only, n.qual)]
    OUT.mkdir(parents=True, exist_ok=True)
    out_path = OUT / f"{args.tag}.jsonl"
    runner = Runner(args.jobs, args.timeout, args.mem_gib)
    records: list[dict] = []
    t0 = time.monotonic()
    with open(out_path, "w") as sink:

        def write(rec: dict) -> None:
            sink.write(json.dumps(rec, default=str) + "\n")
            sink.flush()
            records.append(rec)

        for n in SURFACE:  # the names not fuzzed, with why
            if args.only and not re.search(args.only, n.qual):
                continue
            if not n.params:
                write({"qual": n.qual, "module": n.module, "outcome": "no-arguments"})
            elif baselines.skip_reason(n):
                write({"qual": n.qual, "module": n.module, "outcome": "not-fuzzed", "msg": baselines.skip_reason(n)})
        # phase 1: a baseline per signature (the first candidate plan, in order, that runs)
        sigs: list[tuple[str, list[Plan]]] = []
        for n in names:
            sigs += targets(n)
        ok: dict[str, dict[int, bool]] = {}
        why: dict[str, list[str]] = {}
        for sig, cands in sigs:
            if not cands:
                why[sig] = ["no example value for a required argument, or no instance"]
            for i, plan in enumerate(cands[:6]):

                def done(out: dict, sig=sig, i=i, plan=plan) -> None:
                    ok.setdefault(sig, {})[i] = out["outcome"] == "baseline-ok"
                    if out["outcome"] != "baseline-ok":
                        why.setdefault(sig, []).append(
                            f"{plan.variant}: {out.get('exc', '')}: {out.get('msg', '')[:120]}"
                        )

                runner.submit(lambda plan=plan: _outcome(plan, None, "", "", None), done)
        runner.drain()
        chosen: dict[str, Plan] = {}
        for sig, cands in sigs:
            good = sorted(i for i, v in ok.get(sig, {}).items() if v)
            if good:
                chosen[sig] = cands[good[0]]
            else:
                write(
                    {
                        "qual": sig,
                        "module": sig.rsplit(".", 1)[0],
                        "outcome": "no-baseline",
                        "msg": " | ".join(why.get(sig, []))[:600],
                    }
                )
        print(f"baselines: {len(chosen)} of {len(sigs)} signatures in {time.monotonic() - t0:.0f} s", flush=True)

        # phase 2: every bad value of every argument
        n_cases = 0
        for sig in sorted(chosen):
            plan = chosen[sig]
            write(
                {
                    "qual": sig,
                    "module": plan.name.module,
                    "outcome": "signature",
                    "variant": plan.variant,
                    "contract": contract_of(plan.name.obj) is not None,
                }
            )
            cases = [
                (pname, label, category, bad)
                for pname, (kind, value, default) in plan.fuzz.items()
                for label, category, bad in catalogue.bad_values(kind, pname, value, default)
            ]
            cases += [
                (pname, label, category, make())
                for pname, label, category, make in baselines.EXTRA.get(plan.name.qual, []) + baselines.extra_for(plan)
            ]
            for pname, label, category, bad in cases:
                kind = plan.fuzz.get(pname, ("semantic",))[0]
                if True:
                    reason = baselines.accepted(sig, pname, label)
                    base = {
                        "qual": sig,
                        "module": plan.name.module,
                        "param": pname,
                        "kind": kind,
                        "label": label,
                        "category": category,
                        "variant": plan.variant,
                        "repro": repro(plan, pname, bad),
                    }

                    def done(out: dict, base=base, reason=reason) -> None:
                        rec = {**base, **out}
                        if reason and rec["outcome"] in (
                            "silent",
                            "silent-nan",
                            "lenient",
                            "mismatch",
                            "unclear",
                            "edge-nan",
                        ):
                            rec["outcome"], rec["reason"] = "documented", reason
                        write(rec)

                    runner.submit(
                        lambda plan=plan, pname=pname, label=label, category=category, bad=bad: _outcome(
                            plan, pname, label, category, bad
                        ),
                        done,
                    )
                    n_cases += 1
        runner.drain()
    print(f"{n_cases} calls in {time.monotonic() - t0:.0f} s -> {out_path}", flush=True)
    from .report import summary  # noqa: PLC0415 - the report module reads the records

    print(summary(records))
    return 0


if __name__ == "__main__":
    sys.exit(main())
