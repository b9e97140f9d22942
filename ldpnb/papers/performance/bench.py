"""Timing helpers of the performance appendix: medians of interleaved repeats, floors, slopes, memory.

On a shared machine absolute times drift with the load of the other processes; a *ratio* of two
implementations timed alternately (A, B, A, B, ...) in the same process is far more stable.  Every
comparison of the appendix therefore reports the median of the per-repeat ratios, next to the
median times.
"""

from __future__ import annotations

import gc
import time
import tracemalloc
from dataclasses import dataclass, field
from typing import Callable, Mapping

import numpy as np

from ldpnb.contracts import Instance, Integer, Real, Unchecked, contract

__all__ = ["Timing", "interleaved", "peak_memory", "loglog_slope"]


@dataclass
class Timing:
    """Medians of interleaved repeats: ``times[name]`` (seconds, median), ``runs[name]`` (every repeat)."""

    times: dict[str, float]
    runs: dict[str, list[float]] = field(default_factory=dict)
    results: dict[str, object] = field(default_factory=dict)

    @contract(slow=Instance(str, example="a"), fast=Instance(str, example="b"))
    def ratio(self, slow: str, fast: str) -> float:
        """Median over repeats of ``t[slow] / t[fast]`` (paired: the same repeat, adjacent in time)."""
        a, b = np.asarray(self.runs[slow]), np.asarray(self.runs[fast])
        return float(np.median(a / b))


@contract(
    funcs=Unchecked("a mapping name -> zero-argument callable", example=None),
    repeats=Integer(1, 10_000),
    warmup=Integer(0, 100),
    min_time=Real(0.0, 3600.0),
)
def interleaved(
    funcs: Mapping[str, Callable[[], object]], repeats: int = 5, *, warmup: int = 1, min_time: float = 0.0
) -> Timing:
    """Time each callable ``repeats`` times, alternating between them, after ``warmup`` untimed calls.

    A callable faster than ``min_time`` seconds is called in a loop of ``n`` calls per repeat (the
    same ``n`` for every repeat), and the time per call reported.  Garbage collection is disabled
    during each timed call.  Returns a :class:`Timing` with the median per callable and the last
    result of each.
    """
    names = list(funcs)
    results: dict[str, object] = {}
    loops: dict[str, int] = {}
    for name in names:
        t0 = time.perf_counter()
        for _ in range(max(warmup, 1)):
            results[name] = funcs[name]()
        one = (time.perf_counter() - t0) / max(warmup, 1)
        loops[name] = max(1, int(np.ceil(min_time / one))) if min_time > 0 and one > 0 else 1
    runs: dict[str, list[float]] = {n: [] for n in names}
    for _ in range(repeats):
        for name in names:
            f, m = funcs[name], loops[name]
            gc.disable()
            try:
                t0 = time.perf_counter()
                for _ in range(m):
                    out = f()
                dt = (time.perf_counter() - t0) / m
            finally:
                gc.enable()
            results[name] = out
            runs[name].append(dt)
    return Timing({n: float(np.median(v)) for n, v in runs.items()}, runs, results)


@contract(f=Unchecked("a zero-argument callable", example=None))
def peak_memory(f: Callable[[], object]) -> float:
    """Peak memory (MiB) that numpy and Python allocate while ``f()`` runs (``tracemalloc``)."""
    gc.collect()
    tracemalloc.start()
    try:
        f()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / 2**20


@contract(xs=Unchecked("sizes", example=None), ys=Unchecked("times", example=None))
def loglog_slope(xs, ys) -> float:
    """Least-squares slope of ``log y`` against ``log x`` (the scaling exponent)."""
    x, y = np.log(np.asarray(xs, float)), np.log(np.asarray(ys, float))
    return float(np.polyfit(x, y, 1)[0])
