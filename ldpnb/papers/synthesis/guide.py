r"""The lookup guide: which frequency oracle, at which ``(k, epsilon, n)`` and data, for which task.

Every cell of the grid (``k`` values, level ``epsilon``, ``n`` users, a distribution) is evaluated
for every registered frequency oracle (:func:`~ldpnb.papers.synthesis.families.oracle_families`):

* **exactly**, the total MSE :math:`\mathbb{E}\lVert\hat f - f\rVert_2^2` of the standard estimate
  (:func:`~ldpnb.papers.synthesis.families.total_variance`);
* **by simulation** (``runs`` draws of the support counts per cell and oracle,
  :func:`~ldpnb.papers.synthesis.families.sample_support_counts`), the squared error of the standard
  estimate (which confirms the exact value), of its projection onto the simplex (Norm-Sub, the
  estimate a practitioner publishes; its MSE depends on ``n`` and the distribution), and the
  precision of the estimated top-10 (heavy hitters).

The per-run squared errors are kept (:class:`GridResult`), so that every number of the guide can be
given an interval.  The distributions are the uniform one, a Zipf law :math:`f_v \propto (v+1)^{-s}`
with :data:`ZIPF_S`, and the real one: Gowalla check-ins in Manhattan on a grid of ``k`` cells.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ldpnb.papers.synthesis import estimation as est
from ldpnb.papers.synthesis import families as fam
from ldpnb.papers.synthesis.variance import exact_grr_beats_oue, rule_grr_beats_oue

__all__ = ["ZIPF_S", "TOP", "GRIDS", "distribution", "integer_counts", "GridResult", "run_grid", "summarise", "TIE"]

#: Zipf exponent of the skewed synthetic distribution.
ZIPF_S = 1.1
#: Heavy hitters: the size of the top set to identify.
TOP = 10
#: Practical tie tolerance of the guide: a runner-up whose MSE is within this fraction of the best.
TIE = 0.10

#: The grid by scale: domain sizes, levels, numbers of users, distributions, runs per cell and oracle.
GRIDS: dict[str, dict[str, Any]] = {
    "smoke": dict(k=[2, 16, 256], eps=[0.5, 2.0], n=[1_000, 100_000], dist=["uniform", "Zipf"], runs=6),
    "book": dict(
        k=[2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
        eps=[0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0],
        n=[1_000, 10_000, 100_000, 1_000_000],
        dist=["uniform", "Zipf", "Gowalla"],
        runs=24,
    ),
    "paper": dict(
        k=[2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
        eps=[0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0],
        n=[1_000, 10_000, 100_000, 1_000_000],
        dist=["uniform", "Zipf", "Gowalla"],
        runs=200,
    ),
}

_GRID_SHAPES = {
    2: (1, 2),
    4: (2, 2),
    8: (2, 4),
    16: (4, 4),
    32: (4, 8),
    64: (8, 8),
    128: (8, 16),
    256: (16, 16),
    512: (16, 32),
    1024: (32, 32),
}
_GOWALLA: dict[int, np.ndarray] = {}


def distribution(name: str, k: int) -> np.ndarray:
    """The distribution ``name`` (``"uniform"``, ``"Zipf"``, ``"Gowalla"``) on ``k`` values.

    ``"Gowalla"``: the check-ins in the Manhattan box on a ``rows x cols`` grid of ``k`` cells
    (k a power of two up to 1,024), most frequent cell first.
    """
    if name == "uniform":
        return np.full(k, 1.0 / k)
    if name == "Zipf":
        w = (np.arange(k) + 1.0) ** -ZIPF_S
        return w / w.sum()
    if name == "Gowalla":
        if k not in _GOWALLA:
            from ldpnb.data import MANHATTAN_BOX, Grid, load_gowalla_nyc  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

            df = load_gowalla_nyc(MANHATTAN_BOX)
            g = Grid(*MANHATTAN_BOX, rows=_GRID_SHAPES[k][0], cols=_GRID_SHAPES[k][1])
            c = np.bincount(g.cell_of(df["lat"].to_numpy(), df["lon"].to_numpy()), minlength=k).astype(float)
            _GOWALLA[k] = np.sort(c)[::-1] / c.sum()
        return _GOWALLA[k]
    raise ValueError(f"unknown distribution {name!r}")


def integer_counts(f: np.ndarray, n: int) -> np.ndarray:
    """Input counts ``N`` with ``sum N = n`` closest to ``n f`` (largest remainders)."""
    raw = f * n
    N = np.floor(raw).astype(np.int64)
    short = n - int(N.sum())
    if short:
        N[np.argsort(raw - N)[::-1][:short]] += 1
    return N


@dataclass
class GridResult:
    """Per cell and oracle: the exact total MSE of the standard estimate and the per-run samples
    (squared error of the standard and of the projected estimate, top-10 precision)."""

    cells: list[tuple[int, float, int, str]]
    names: list[str]
    exact: np.ndarray  #: (cells, oracles) exact total MSE of the standard estimate
    se_std: np.ndarray  #: (cells, oracles, runs) squared error of the standard estimate
    se_proj: np.ndarray  #: (cells, oracles, runs) squared error of the projected estimate
    top: np.ndarray  #: (cells, oracles, runs) precision of the estimated top-10 (NaN where k <= 2 TOP)
    bits: np.ndarray  #: (cells, oracles) bits per report
    server: np.ndarray  #: (k values, oracles) server CPU seconds per report (at eps = 1)
    ks: list[int] = field(default_factory=list)


def run_grid(
    grid: dict[str, Any], *, seed: Any, names: list[str] | None = None, time_server: bool = True
) -> GridResult:
    """Evaluate every cell of ``grid`` (a :data:`GRIDS` entry) for every oracle (module docstring)."""
    names = names or fam.oracle_families()
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    R = int(grid["runs"])
    cells = [(k, e, n, d) for k in grid["k"] for e in grid["eps"] for n in grid["n"] for d in grid["dist"]]
    C, M = len(cells), len(names)
    exact = np.empty((C, M))
    se_std = np.empty((C, M, R))
    se_proj = np.empty((C, M, R))
    top = np.full((C, M, R), np.nan)
    bits = np.empty((C, M))
    for i, ((k, e, n, d), child) in enumerate(zip(cells, ss.spawn(C))):
        f = distribution(d, k)
        N = integer_counts(f, n)
        fN = N / n
        truth_top = np.argsort(-fN, kind="stable")[:TOP] if (k > 2 * TOP and d != "uniform") else None
        rng = np.random.default_rng(child)
        for j, name in enumerate(names):
            m = fam.build_oracle(name, k, e)
            exact[i, j] = fam.total_variance(m, n)
            bits[i, j] = fam.report_bits(m)
            S = fam.sample_support_counts(m, N, R, rng=rng)
            raw = est.support_estimate(m, S, n)
            se_std[i, j] = ((raw - fN) ** 2).sum(axis=1)
            se_proj[i, j] = ((est.project(raw) - fN) ** 2).sum(axis=1)
            if truth_top is not None:
                guess = np.argpartition(-raw, TOP, axis=1)[:, :TOP]
                top[i, j] = np.isin(guess, truth_top).mean(axis=1)
    ks = list(grid["k"])
    server = np.full((len(ks), M), np.nan)
    if time_server:
        for a, k in enumerate(ks):
            for j, nm in enumerate(names):
                server[a, j] = fam.server_seconds_per_report(fam.build_oracle(nm, k, 1.0))
    return GridResult(cells, list(names), exact, se_std, se_proj, top, bits, server, ks)


#: Relative tolerance under which two exact MSEs are a tie (subset selection with omega = 1 *is* GRR).
TIE_EXACT = 1e-9


def best_index(values: Any, rtol: float = TIE_EXACT) -> int:
    """Index of the smallest value; among values within ``rtol`` of it (ties of float noise), the
    first in registry order.

    >>> best_index([2.0, 1.0 + 1e-15, 1.0])
    1
    """
    v = np.asarray(values, dtype=float)
    return int(np.flatnonzero(v <= v.min() * (1 + rtol))[0])


def _mean_ci(x: np.ndarray, z: float = 1.96) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    m = x.mean(axis=-1)
    s = x.std(axis=-1, ddof=1) / np.sqrt(x.shape[-1])
    return m, m - z * s, m + z * s


def summarise(res: GridResult, tie: float = TIE):
    """The guide as a :class:`pandas.DataFrame`, one row per cell.

    Columns: the best oracle by the exact MSE of the standard estimate and the runners-up within
    ``tie`` of it; the best oracle after projection (smallest simulated mean) with its 95 % interval
    and the runners-up whose interval of the ratio to the best reaches below ``1 + tie``; Wang et al.'s
    rule and the exact GRR/OUE order; bits per report and server time of the best.
    """
    import pandas as pd  # noqa: PLC0415 lazy: optional dependency

    names = res.names
    m_proj, lo_proj, hi_proj = _mean_ci(res.se_proj)
    rows = []
    for i, (k, e, n, d) in enumerate(res.cells):
        ex = res.exact[i]
        b = best_index(ex)
        ru = [names[j] for j in np.argsort(ex) if j != b and ex[j] <= ex[b] * (1 + tie)]
        bp = int(np.argmin(m_proj[i]))
        ratio = res.se_proj[i] / res.se_proj[i, bp].mean()
        r_lo = ratio.mean(axis=1) - 1.96 * ratio.std(axis=1, ddof=1) / np.sqrt(ratio.shape[1])
        rp = [names[j] for j in np.argsort(m_proj[i]) if j != bp and r_lo[j] <= 1 + tie]
        a = res.ks.index(k)
        rows.append(
            {
                "k": k,
                "ε": e,
                "n": n,
                "data": d,
                "best (unbiased)": names[b],
                "MSE (exact)": ex[b],
                "within 10 %": ", ".join(ru) or "—",
                "best (projected)": names[bp],
                "MSE proj.": m_proj[i, bp],
                "95 % CI": f"[{lo_proj[i, bp]:.3g}, {hi_proj[i, bp]:.3g}]",
                "within noise (proj.)": ", ".join(rp) or "—",
                "rule: GRR < OUE": rule_grr_beats_oue(k, e),
                "exact: GRR < OUE": exact_grr_beats_oue(k, e),
                "bits/report": res.bits[i, b],
                "server µs/report": 1e6 * res.server[a, b],
            }
        )
    return pd.DataFrame(rows)


def rank_changes(res: GridResult, tie: float = TIE) -> dict[str, int]:
    """Cells where projection changes the answer: the best projected oracle is none of the unbiased
    estimator's best or runners-up within ``tie``, and its simulated 95 % interval of the ratio to
    the unbiased best's projected MSE lies below ``1 - tie`` (``changed``), out of ``checked``; and
    ``(k, eps)`` pairs whose best projected oracle differs between two ``(n, data)`` cells beyond
    noise (``pairs_differ`` of ``pairs``)."""
    names = res.names
    changed = 0
    by_ke: dict[tuple[int, float], set[str]] = {}
    for i, (k, e, n, d) in enumerate(res.cells):
        ex = res.exact[i]
        b = best_index(ex)
        near = {j for j in range(len(names)) if ex[j] <= ex[b] * (1 + tie)}
        mp = res.se_proj[i].mean(axis=1)
        bp = int(np.argmin(mp))
        if bp not in near:
            ratio = res.se_proj[i, bp] / res.se_proj[i, b].mean()
            hi = ratio.mean() + 1.96 * ratio.std(ddof=1) / np.sqrt(ratio.size)
            changed += int(hi < 1 - tie)
        # a clear winner after projection: every other oracle's interval of the ratio above 1 + tie
        ratio_all = res.se_proj[i] / res.se_proj[i, bp].mean()
        lo = ratio_all.mean(axis=1) - 1.96 * ratio_all.std(axis=1, ddof=1) / np.sqrt(ratio_all.shape[1])
        if all(lo[j] > 1 + tie for j in range(len(names)) if j != bp):
            by_ke.setdefault((k, e), set()).add(names[bp])
    pairs = len({(k, e) for k, e, _, _ in res.cells})
    return {
        "changed": changed,
        "checked": len(res.cells),
        "pairs_differ": sum(len(s) > 1 for s in by_ke.values()),
        "pairs": pairs,
    }


def confirm_exact(res: GridResult, fwer: float = 1e-3) -> dict[str, float]:
    """Simulated mean squared error of the standard estimate against its exact value, per cell and
    oracle: ``t = (mean - exact) / (sd / sqrt(runs))``; the largest ``|t|`` and the two-sided
    Bonferroni threshold of Student's t with ``runs - 1`` degrees of freedom at family-wise rate ``fwer``."""
    from scipy import stats  # noqa: PLC0415 lazy: scipy/numpy submodule loaded at first use

    x = res.se_std
    R = x.shape[-1]
    t = (x.mean(axis=-1) - res.exact) / (x.std(axis=-1, ddof=1) / np.sqrt(R))
    m = t.size
    crit = float(stats.t.ppf(1 - fwer / (2 * m), R - 1))
    return {
        "max_abs_t": float(np.max(np.abs(t))),
        "crit": crit,
        "tests": m,
        "max_rel": float(np.max(np.abs(x.mean(axis=-1) / res.exact - 1))),
    }


def task_rankings(res: GridResult) -> dict[str, Any]:
    """Heavy hitters against the histogram: per cell with a top-10 task (``k > 20``, skewed data),
    the best oracle by exact MSE and the best by mean top-10 precision; ``disagree`` counts cells
    where the MSE-best oracle's precision is below the precision-best's by more than two standard
    errors of the difference (independent runs)."""
    names = res.names
    out = {"cells": 0, "disagree": 0, "examples": []}
    for i, (k, e, n, d) in enumerate(res.cells):
        if np.all(np.isnan(res.top[i])):
            continue
        out["cells"] += 1
        b = best_index(res.exact[i])
        prec = res.top[i].mean(axis=1)
        se = res.top[i].std(axis=1, ddof=1) / np.sqrt(res.top.shape[-1])
        h = int(np.argmax(prec))
        if h != b and prec[h] - prec[b] > 2 * math.hypot(se[h], se[b]):
            out["disagree"] += 1
            if len(out["examples"]) < 6:
                out["examples"].append((k, e, n, d, names[b], float(prec[b]), names[h], float(prec[h])))
    return out


def exact_ranking(k: int, epsilon: float, names: list[str] | None = None) -> dict[str, float]:
    """The exact total MSE of each oracle's standard estimate for one user (``n = 1``) at ``(k, eps)``,
    smallest first (row G2)."""
    names = names or fam.oracle_families()
    v = {nm: fam.total_variance(fam.build_oracle(nm, k, epsilon), 1) for nm in names}
    return dict(sorted(v.items(), key=lambda kv: kv[1]))


def heavy_hitter_best(res: GridResult, k: int, n: int, eps_min: float, dists=("Zipf", "Gowalla")) -> dict[str, Any]:
    """Row CM1: in each cell ``(k, eps >= eps_min, n, dist)``, the best oracle's mean top-10 precision."""
    best = []
    for i, (kk, e, nn, d) in enumerate(res.cells):
        if kk == k and nn == n and e >= eps_min and d in dists:
            prec = np.nanmean(res.top[i], axis=1)
            j = int(np.nanargmax(prec))
            best.append((e, d, res.names[j], float(prec[j])))
    return {"best_precision": [b[3] for b in best], "checked": len(best), "cells": best}


def adult_ages() -> np.ndarray:
    """Counts of the ages in UCI Adult (all 48,842 records), one entry per year from the youngest to the
    oldest (an ordered domain for range queries)."""
    from ldpnb.data import load_adult  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    a = load_adult("all")["age"].to_numpy().astype(int)
    return np.bincount(a - a.min(), minlength=a.max() - a.min() + 1).astype(np.int64)
