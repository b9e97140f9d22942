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

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ldpnb.contracts import DENSE_DOMAIN, SAMPLE_SIZE, SEED, Array, Boolean, Instance, Integer, OneOf, Real, contract
from ldpnb.data import MANHATTAN_BOX, Grid, load_adult, load_gowalla_nyc
from ldpnb.papers.synthesis import estimation as est
from ldpnb.papers.synthesis import families as fam
from ldpnb.papers.synthesis.variance import exact_grr_beats_oue, rule_grr_beats_oue
from ldpnb.stats import Estimate, bonferroni, difference, exact, mean, ratio

__all__ = [
    "ZIPF_S",
    "TOP",
    "GRIDS",
    "TIE",
    "TIE_EXACT",
    "distribution",
    "integer_counts",
    "GridResult",
    "run_grid",
    "best_index",
    "law_representatives",
    "group_label",
    "summarise",
    "rank_changes",
    "confirm_exact",
    "task_rankings",
    "is_degenerate_pair",
    "exact_ranking",
    "heavy_hitter_best",
    "adult_ages",
]

#: Zipf exponent of the skewed synthetic distribution.
ZIPF_S = 1.1
#: Heavy hitters: the size of the top set to identify.
TOP = 10
#: Practical tie tolerance of the guide: a runner-up whose MSE is within this fraction of the best.
TIE = 0.10
#: Relative tolerance under which two exact MSEs are a tie (subset selection with omega = 1 *is* GRR).
TIE_EXACT = 1e-9
#: Distributions of the grid.
DISTRIBUTIONS = ("uniform", "Zipf", "Gowalla")

_K = [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]
_EPS = [0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0]
_EPS_BOOK = [0.1, 0.5, 1.0, 2.0, 4.0, 8.0]
#: Families whose exact count sampler costs O(k^2) per run (Hadamard response: one multinomial over
#: the k/2 supported rows per value; dBitFlipPM: the buckets drawn without replacement per value):
#: simulated up to this ``k`` at book scale (256 at paper scale: 400 runs of the 216 cells at k = 512 and 1,024
#: would take about 4 hours, from the rate of the first paper-scale attempt at k = 512); their exact MSE of the
#: standard estimate is in the guide at every ``k``.
_QUADRATIC = ("HR", "HRR", "dBitFlipPM")
#: The grid by scale: domain sizes, levels, numbers of users, distributions, runs per cell and oracle,
#: and ``sim_max_k``: the largest ``k`` at which a family is simulated (absent: every ``k``).
GRIDS: dict[str, dict[str, Any]] = {
    "smoke": dict(
        k=[2, 16, 256],
        eps=[0.5, 2.0],
        n=[1_000, 100_000],
        dist=["uniform", "Zipf"],
        runs=6,
        sim_max_k={f: 16 for f in _QUADRATIC},
    ),
    "book": dict(
        k=_K,
        eps=_EPS_BOOK,
        n=[1_000, 10_000, 100_000, 1_000_000],
        dist=list(DISTRIBUTIONS),
        runs=100,
        sim_max_k={f: 64 for f in _QUADRATIC},
    ),
    "paper": dict(
        k=_K,
        eps=_EPS,
        n=[1_000, 10_000, 100_000, 1_000_000],
        dist=list(DISTRIBUTIONS),
        runs=400,
        sim_max_k={f: 256 for f in _QUADRATIC},
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


@contract(name=OneOf(*DISTRIBUTIONS), k=DENSE_DOMAIN)
def distribution(name: str, k: int) -> np.ndarray:
    r"""The distribution ``name`` (``"uniform"``, ``"Zipf"``, ``"Gowalla"``) on ``k`` values.

    ``"Gowalla"``: the check-ins in the Manhattan box on a ``rows x cols`` grid of ``k`` cells
    (k a power of two up to 1,024), most frequent cell first.

    ``"Zipf"``: :math:`f_v = (v+1)^{-s} / \sum_{u<k} (u+1)^{-s}` with :math:`s` = :data:`ZIPF_S` = 1.1.

    >>> distribution("Zipf", 3).round(3).tolist()
    [0.567, 0.264, 0.169]
    """
    if name == "uniform":
        return np.full(k, 1.0 / k)
    if name == "Zipf":
        w = (np.arange(k) + 1.0) ** -ZIPF_S
        return w / w.sum()
    if k not in _GRID_SHAPES:
        raise ValueError(f"the Gowalla distribution is on a grid of a power of two cells up to 1,024, got k = {k}")
    if k not in _GOWALLA:
        df = load_gowalla_nyc(MANHATTAN_BOX)
        g = Grid(*MANHATTAN_BOX, rows=_GRID_SHAPES[k][0], cols=_GRID_SHAPES[k][1])
        c = np.bincount(g.cell_of(df["lat"].to_numpy(), df["lon"].to_numpy()), minlength=k).astype(float)
        _GOWALLA[k] = np.sort(c)[::-1] / c.sum()
    return _GOWALLA[k]


@contract(f=Array(1, min_size=1, low=0.0), n=SAMPLE_SIZE)
def integer_counts(f: np.ndarray, n: int) -> np.ndarray:
    """Input counts ``N`` with ``sum N = n`` closest to ``n f`` (largest remainders).

    >>> integer_counts(np.array([0.5, 0.25, 0.25]), 5).tolist()
    [3, 1, 1]
    """
    f = f / f.sum()
    raw = f * n
    N = np.floor(raw).astype(np.int64)
    short = n - int(N.sum())
    if short:
        N[np.argsort(raw - N, kind="stable")[::-1][:short]] += 1
    return N


@dataclass
class GridResult:
    """Per cell and oracle: the exact total MSE of the standard estimate and the per-run samples
    (squared error of the standard and of the projected estimate, top-10 precision); NaN where an
    oracle cannot be built at the cell's ``(k, eps)`` (``unbuilt`` says why)."""

    cells: list[tuple[int, float, int, str]]
    names: list[str]
    exact: np.ndarray  #: (cells, oracles) exact total MSE of the standard estimate
    se_std: np.ndarray  #: (cells, oracles, runs) squared error of the standard estimate
    se_proj: np.ndarray  #: (cells, oracles, runs) squared error of the projected estimate
    top: np.ndarray  #: (cells, oracles, runs) precision of the estimated top-10 (NaN where k <= 2 TOP)
    bits: np.ndarray  #: (cells, oracles) bits per report
    server: np.ndarray  #: (k values, oracles) server CPU seconds per report (at eps = 1)
    ks: list[int] = field(default_factory=list)
    unbuilt: dict[str, list[tuple[int, float, str]]] = field(default_factory=dict)
    #: family -> why it has no runs at some ``k`` (its exact MSE is still given there)
    unsimulated: dict[str, str] = field(default_factory=dict)
    #: (cells, oracles) the index of each oracle's exact-duplicate representative: the first oracle in
    #: registry order with the same law of support counts (:func:`~ldpnb.papers.synthesis.families.support_law`),
    #: itself when it has no duplicate, -1 where it is not built; None: every oracle its own
    law: np.ndarray | None = None

    @property
    def runs(self) -> int:
        return int(self.se_std.shape[-1])


_GRID = Instance(dict, example={"k": [4], "eps": [1.0], "n": [100], "dist": ["uniform"], "runs": 2})


@contract(grid=_GRID, seed=SEED, names=Instance(list, tuple, type(None), example=None), time_server=Boolean())
def run_grid(
    grid: dict[str, Any], *, seed: Any, names: list[str] | None = None, time_server: bool = True
) -> GridResult:
    """Evaluate every cell of ``grid`` (a :data:`GRIDS` entry) for every oracle of ``names`` (default: the
    catalogue's, :func:`~ldpnb.papers.synthesis.families.guide_families`), see the module docstring.

    Sizes are checked before anything runs: ``k`` values in [2, 16384], levels in (0, 50], ``n`` in
    [1, 2^28], ``runs`` in [2, :data:`~ldpnb.papers.synthesis.families.MAX_GUIDE_RUNS`], at most
    10^5 cells.  A family with ``grid["sim_max_k"][name] < k`` gets its exact MSE and bits at that
    ``k`` but no runs (NaN), and :attr:`GridResult.unsimulated` says why.
    """
    names = list(names or fam.oracle_families())
    ks = [DENSE_DOMAIN.check(k, "grid k") for k in grid["k"]]
    eps = [Real(0.0, 50.0, low_open=True).check(e, "grid eps") for e in grid["eps"]]
    ns = [SAMPLE_SIZE.check(n, "grid n") for n in grid["n"]]
    dists = [OneOf(*DISTRIBUTIONS).check(d, "grid dist") for d in grid["dist"]]
    R = Integer(2, fam.MAX_GUIDE_RUNS).check(grid["runs"], "grid runs")
    sim_max = {str(f): Integer(2, None).check(v, f"sim_max_k[{f}]") for f, v in grid.get("sim_max_k", {}).items()}
    unsimulated = {
        f: (
            f"simulated up to k = {v:,} at this scale (its exact count sampler costs O(k²) per run); "
            f"at larger k the guide gives its exact MSE only"
        )
        for f, v in sim_max.items()
        if f in names and any(k > v for k in ks)
    }
    cells = [(k, e, n, d) for k in ks for e in eps for n in ns for d in dists]
    if not 1 <= len(cells) <= 100_000:
        raise ValueError(f"a grid has 1 to 100,000 cells, got {len(cells)}")
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    C, M = len(cells), len(names)
    exact_mse = np.full((C, M), np.nan)
    se_std = np.full((C, M, R), np.nan)
    se_proj = np.full((C, M, R), np.nan)
    top = np.full((C, M, R), np.nan)
    bits = np.full((C, M), np.nan)
    law = np.full((C, M), -1, dtype=np.int64)
    unbuilt: dict[str, list[tuple[int, float, str]]] = {}
    for i, ((k, e, n, d), child) in enumerate(zip(cells, ss.spawn(C))):
        N = integer_counts(distribution(d, k), n)
        fN = N / n
        truth_top = np.argsort(-fN, kind="stable")[:TOP] if (k > 2 * TOP and d != "uniform") else None
        keys: list[Any] = [None] * M
        for j, (name, g) in enumerate(zip(names, child.spawn(M))):
            try:
                m = fam.build_oracle(name, k, e)
            except (TypeError, ValueError) as exc:
                if (k, e) not in [(kk, ee) for kk, ee, _ in unbuilt.get(name, [])]:
                    unbuilt.setdefault(name, []).append((k, e, f"{type(exc).__name__}: {exc}"))
                continue
            keys[j] = fam.support_law(m)
            law[i, j] = law_representatives(keys)[j]
            exact_mse[i, j] = fam.total_variance(m, n)
            bits[i, j] = fam.report_bits(m)
            if k > sim_max.get(name, k):
                continue
            S = fam.sample_support_counts(m, N, R, rng=np.random.default_rng(g))
            raw = est.support_estimate(m, S, n)
            se_std[i, j] = ((raw - fN) ** 2).sum(axis=1)
            se_proj[i, j] = ((est.project(raw) - fN) ** 2).sum(axis=1)
            if truth_top is not None:
                guess = np.argpartition(-raw, TOP, axis=1)[:, :TOP]
                top[i, j] = np.isin(guess, truth_top).mean(axis=1)
    server = np.full((len(ks), M), np.nan)
    if time_server:
        for a, k in enumerate(ks):
            for j, nm in enumerate(names):
                try:
                    server[a, j] = fam.server_seconds_per_report(fam.build_oracle(nm, k, 1.0))
                except (TypeError, ValueError):
                    continue
    return GridResult(cells, names, exact_mse, se_std, se_proj, top, bits, server, ks, unbuilt, unsimulated, law)


@contract(keys=Instance(list, tuple, example=[None]), rtol=Real(0.0, 1.0))
def law_representatives(keys: list[Any], rtol: float = TIE_EXACT) -> list[int]:
    """For each oracle's :func:`~ldpnb.papers.synthesis.families.support_law` key, the index of its
    exact-duplicate representative: the first key (registry order) with the same structure and ``k``
    and ``(p, q)`` within ``rtol``; itself for a key None (a family with no certified law).

    >>> law_representatives([("one", 4, 0.5, 0.2), None, ("one", 4, 0.5 + 1e-16, 0.2), ("one", 4, 0.6, 0.2)])
    [0, 1, 0, 3]
    """
    out: list[int] = []
    for j, key in enumerate(keys):
        r = j
        if key is not None:
            for i in range(j):
                o = keys[i]
                if (
                    o is not None
                    and out[i] == i
                    and o[:2] == key[:2]
                    and all(abs(a - b) <= rtol * max(abs(a), abs(b)) for a, b in zip(o[2:], key[2:]))
                ):
                    r = i
                    break
        out.append(r)
    return out


@contract(names=Instance(list, tuple, example=["GRR"]), members=Instance(list, tuple, example=[0]))
def group_label(names: list[str], members: list[int]) -> str:
    """The label of a group of oracles that the guide reports as one: their names joined by " = ".

    >>> group_label(["GRR", "SUE", "L-GRR"], [0, 2])
    'GRR = L-GRR'
    """
    return " = ".join(names[j] for j in members)


_RESULT = Instance(
    GridResult,
    example=GridResult(
        [(4, 1.0, 100, "uniform")],
        ["GRR"],
        np.ones((1, 1)),
        np.ones((1, 1, 2)),
        np.ones((1, 1, 2)),
        np.full((1, 1, 2), np.nan),
        np.ones((1, 1)),
        np.ones((1, 1)),
        [4],
    ),
)


@contract(values=Array(1, min_size=1), rtol=Real(0.0, 1.0))
def best_index(values: Any, rtol: float = TIE_EXACT) -> int:
    """Index of the smallest value; among values within ``rtol`` of it (ties of float noise), the
    first in registry order (NaN values are never best).

    >>> best_index([2.0, 1.0 + 1e-15, 1.0])
    1
    """
    return _best_finite(values, rtol)


def _best_finite(values: Any, rtol: float = TIE_EXACT) -> int:
    """:func:`best_index` among the finite entries (NaN: a family without runs or not built)."""
    v = np.asarray(values, dtype=float)
    if not np.any(np.isfinite(v)):
        raise ValueError("no finite value: no best")
    low = float(np.nanmin(np.where(np.isfinite(v), v, np.nan)))
    bound = low * (1 + rtol) if low >= 0 else low * (1 - rtol)  # within rtol of the smallest, either sign
    with np.errstate(invalid="ignore"):
        return int(np.flatnonzero(v <= bound)[0])


def _run_means(x: np.ndarray) -> np.ndarray:
    """Mean over the last axis (runs); NaN, without a warning, where a family has no runs."""
    ok = np.isfinite(x)
    cnt = ok.sum(axis=-1)
    tot = np.where(ok, x, 0.0).sum(axis=-1)
    return np.where(cnt > 0, tot / np.maximum(cnt, 1), np.nan)


def _runs_last_to_first(x: np.ndarray) -> np.ndarray:
    """(cells..., runs) -> (runs, cells...)."""
    return np.moveaxis(x, -1, 0)


def _representatives(res: GridResult, i: int) -> list[int]:
    """The oracles of cell ``i`` that stand for their group of exact duplicates (all when ``res.law`` is None)."""
    if res.law is None:
        return list(range(len(res.names)))
    return [j for j in range(len(res.names)) if res.law[i, j] == j]


def _projected_best(res: GridResult, i: int) -> int:
    """The representative with the smallest simulated mean squared error after projection in cell ``i``."""
    mp = np.full(len(res.names), np.nan)
    reps = _representatives(res, i)
    mp[reps] = _run_means(res.se_proj[i, reps])
    return _best_finite(mp)


def _fmt_est(e: Estimate, digits: int = 3) -> str:
    v, lo, hi = float(e.value), float(e.low), float(e.high)
    if not np.isfinite(v):
        return "—"
    f = lambda x: f"{x:.{digits}g}" if np.isfinite(x) else ("∞" if x > 0 else "-∞")  # noqa: E731
    return f"{f(v)} [{f(lo)}, {f(hi)}]"


@contract(res=_RESULT, tie=Real(0.0, 1.0), level=Real(0.5, 1.0, high_open=True))
def summarise(res: GridResult, tie: float = TIE, *, level: float = 0.95):
    """The guide as a :class:`pandas.DataFrame`, one row per cell: which oracle, and by how much.

    Columns: the best oracle by the exact MSE of the standard estimate (every oracle within
    :data:`TIE_EXACT` of it, joined by " = ": equal exact MSE), the runner-up with its exact ratio to
    the best, and every oracle within ``tie`` of it; the best after projection onto the simplex
    (smallest simulated mean, with its ``level`` interval), the runner-up with the ratio of its mean
    MSE to the best's and its Fieller interval, and the oracles **within noise** of the best (their
    interval of that ratio reaches 1: the data cannot tell them apart); the cell is *decided* when no
    oracle is within noise and every oracle was simulated there (``not simulated`` lists the families
    without runs at the cell's ``k``, :attr:`GridResult.unsimulated` says why).  After projection,
    exact duplicates (the same law of support counts, :attr:`GridResult.law`: GRR = L-GRR = SS at
    omega = 1, OUE = L-OSUE, OLH = BLH when g = 2) are one group, named by its members joined by
    " = " and represented by the runs of its first member in registry order: a cell is undecided only
    when *distinct* laws are within noise.  The Fieller intervals are at the Bonferroni level over the
    cell's other simulated groups.  Then the best top-10
    precision (cells with a heavy-hitter task), Wang et al.'s rule and the exact GRR/OUE order, bits
    per report and server time of the unbiased best.
    """
    import pandas as pd  # noqa: PLC0415 lazy: pandas only for the table

    names = res.names
    M = len(names)
    law = res.law if res.law is not None else np.tile(np.arange(M), (len(res.cells), 1))
    m_proj = _run_means(res.se_proj)
    proj_mean = mean(_runs_last_to_first(res.se_proj), level=level)
    prec = mean(_runs_last_to_first(res.top), level=level) if np.any(np.isfinite(res.top)) else None
    rows = []
    for i, (k, e, n, d) in enumerate(res.cells):
        ex = res.exact[i]
        b = _best_finite(ex)
        tied = [j for j in range(M) if np.isfinite(ex[j]) and ex[j] <= ex[b] * (1 + TIE_EXACT)]
        order = [j for j in np.argsort(ex, kind="stable") if j not in tied and np.isfinite(ex[j])]
        ru_ex = [j for j in order if ex[j] <= ex[order[0]] * (1 + TIE_EXACT)] if order else []
        near = [names[j] for j in order if ex[j] <= ex[b] * (1 + tie)]
        # after projection: one representative per law of the support counts (exact duplicates as one)
        reps = _representatives(res, i)
        members = {r: [j for j in range(M) if law[i, j] == r] for r in reps}
        mp = np.full(M, np.nan)
        mp[reps] = m_proj[i, reps]
        bp = _projected_best(res, i)
        sim = [j for j in reps if np.isfinite(mp[j])]
        others = [j for j in np.argsort(mp, kind="stable") if j != bp and np.isfinite(mp[j])]
        r = {}
        if others:
            est_r = ratio(
                res.se_proj[i, others].T,
                np.repeat(res.se_proj[i, bp][:, None], len(others), axis=1),
                level=bonferroni(level, max(len(sim) - 1, 1)),
            )
            r = {j: est_r[a] for a, j in enumerate(others)}
        noise = [group_label(names, members[j]) for j in others if float(r[j].low) <= 1.0]
        unsim = [names[j] for j in reps if np.isfinite(ex[j]) and not np.isfinite(m_proj[i, j])]
        ru = others[0] if others else None
        row = {
            "k": k,
            "ε": e,
            "n": n,
            "data": d,
            "best (unbiased)": group_label(names, tied),
            "MSE (exact)": f"{ex[b]:.3g}",
            "runner-up (exact ×)": f"{group_label(names, ru_ex)} ×{ex[order[0]] / ex[b]:.3g}" if order else "—",
            "within 10 %": ", ".join(near) or "—",
            "best (projected)": group_label(names, members[bp]),
            "MSE proj. [95 %]": _fmt_est(proj_mean[i, bp]),
            "runner-up (proj. ×)": f"{group_label(names, members[ru])} ×{_fmt_est(r[ru])}" if ru is not None else "—",
            "within noise (proj.)": ", ".join(noise) or "—",
            "not simulated": ", ".join(unsim) or "—",
            "decided": "yes" if not noise and not unsim else "no",
        }
        if prec is not None and np.any(np.isfinite(res.top[i])):
            pm = np.full(M, np.nan)
            pm[reps] = _run_means(res.top[i, reps])
            h = int(np.nanargmax(pm))
            row["best top-10 [95 %]"] = f"{group_label(names, members[h])} {_fmt_est(prec[i, h], 2)}"
        else:
            row["best top-10 [95 %]"] = "—"
        row.update(
            {
                "rule: GRR < OUE": rule_grr_beats_oue(k, e),
                "exact: GRR < OUE": exact_grr_beats_oue(k, e),
                "bits/report": res.bits[i, b],
                "server µs/report": 1e6 * res.server[res.ks.index(k), b],
            }
        )
        rows.append(row)
    return pd.DataFrame(rows)


@contract(res=_RESULT, tie=Real(0.0, 1.0), level=Real(0.5, 1.0, high_open=True))
def rank_changes(res: GridResult, tie: float = TIE, *, level: float = 0.95) -> dict[str, Any]:
    """Row G1: cells where projection changes the answer.

    A candidate cell is one where the best projected oracle (smallest simulated mean) is none of the
    unbiased estimator's best or its runners-up within ``tie``.  For every candidate, the ratio of the
    projected mean squared errors of the two bests (independent collections, Fieller), intervals
    simultaneous over the candidates; returns the one whose interval lies lowest (``ratio``, an
    :class:`~ldpnb.stats.Estimate`; the exact ratio 1 when there is no candidate), its ``cell``, and
    ``candidates`` out of ``checked`` cells.
    """
    names = res.names
    cand, num, den = [], [], []
    for i, cell in enumerate(res.cells):
        ex = res.exact[i]
        b = _best_finite(ex)
        near = {j for j in range(len(names)) if ex[j] <= ex[b] * (1 + tie)}
        bp = _best_finite(_run_means(res.se_proj[i]))
        if bp not in near and np.all(np.isfinite(res.se_proj[i, b])):  # the unbiased best has runs here
            cand.append((cell, names[bp], names[b]))
            num.append(res.se_proj[i, bp])
            den.append(res.se_proj[i, b])
    if not cand:
        return {"ratio": exact(1.0), "cell": None, "candidates": 0, "checked": len(res.cells)}
    est_r = ratio(np.array(num).T, np.array(den).T, level=level, simultaneous=len(cand) > 1)
    i = int(np.nanargmin(np.asarray(est_r.high)))
    return {
        "ratio": est_r[i] if len(cand) > 1 else est_r,
        "cell": cand[i],
        "candidates": len(cand),
        "checked": len(res.cells),
    }


@contract(res=_RESULT, level=Real(0.5, 1.0, high_open=True))
def confirm_exact(res: GridResult, *, level: float = 0.95) -> dict[str, Any]:
    """Row V2: per (oracle, k), the mean over every run of every cell of the squared error of the
    standard estimate divided by its cell's exact MSE (Hall's interval, simultaneous over the groups).

    Returns ``{"ratio": Estimate (groups,), "groups": [(oracle, k), ...], "runs": runs per group}``.
    """
    x = res.se_std / res.exact[:, :, None]
    groups, cols = [], []
    for j, name in enumerate(res.names):
        for k in res.ks:
            idx = [i for i, c in enumerate(res.cells) if c[0] == k]
            v = x[idx, j].ravel()
            if np.all(np.isfinite(v)):
                groups.append((name, k))
                cols.append(v)
    if len({c.size for c in cols}) != 1:
        raise ValueError("every (oracle, k) group must have the same number of runs")
    runs = np.stack(cols, axis=1)
    return {
        "ratio": mean(runs, level=level, simultaneous=len(groups) > 1),
        "groups": groups,
        "runs": int(runs.shape[0]),
    }


@contract(res=_RESULT, tie=Real(0.0, 1.0), level=Real(0.5, 1.0, high_open=True))
def task_rankings(res: GridResult, *, tie: float = 0.02, level: float = 0.95) -> dict[str, Any]:
    r"""Row T1: heavy hitters against the histogram.  In every cell with a top-10 task (``k > 20``,
    skewed data), each other oracle's mean precision minus that of the exact-MSE best (independent
    collections, Welch), intervals :math:`[l_j, h_j]` simultaneous over all (cell, oracle) pairs
    :math:`j`.  The claim "some pair differs by more than ``tie``" then holds when some interval lies
    above the tie (:math:`\max_j l_j > \text{tie}`), is reversed when every interval lies at or below it
    (:math:`\max_j h_j \le \text{tie}`), and is undecided otherwise.  The recorded pair is the one that
    decides it: the pair with the highest lower end when one holds, else the pair with the highest
    upper end (its outcome, reversed or undecided, is the claim's).  Returns that pair as an order for
    ``report.order`` (``values``: ``MSE_best``, ``other``; ``differences``: ``other - MSE_best``), its
    ``cell`` and oracles, ``chosen_by`` (``"lower end"`` or ``"upper end"``), the number of ``pairs``
    and of ``cells``, ``disagree``: the pairs whose interval lies above ``tie`` (examples listed), and
    ``reach``: the pairs whose interval reaches above it.

    A pair is **degenerate** when both oracles' precisions are the same constant in every run (e.g. both
    find the true top 10 in all runs): the difference is 0 with a zero-width interval, the task does not
    separate the two oracles there, and such a pair would otherwise "lie highest" whenever every
    informative pair's interval reaches below 0.  Degenerate pairs are counted (``degenerate``) and kept
    out of the choice of the recorded pair; if every pair is degenerate a ``ValueError`` is raised.
    """
    names = res.names
    pairs, a_runs, b_runs = [], [], []
    cells = 0
    degenerate = 0
    for i, cell in enumerate(res.cells):
        if np.all(np.isnan(res.top[i])):
            continue
        cells += 1
        b = _best_finite(res.exact[i])
        if not np.all(np.isfinite(res.top[i, b])):  # the unbiased best has no runs at this k
            continue
        for j in range(len(names)):
            if j != b and np.all(np.isfinite(res.top[i, j])):
                if is_degenerate_pair(res.top[i, j], res.top[i, b]):
                    degenerate += 1
                    continue
                pairs.append((cell, names[b], names[j]))
                a_runs.append(res.top[i, j])
                b_runs.append(res.top[i, b])
    if not pairs:
        raise ValueError(
            "the grid has no heavy-hitter cell (k > 20 with skewed data) with a non-degenerate pair"
            f" ({degenerate} degenerate pairs)"
        )
    A, B = np.array(a_runs).T, np.array(b_runs).T
    d = difference(A, B, paired=False, level=level, simultaneous=True)
    low, high = np.asarray(d.low, dtype=float), np.asarray(d.high, dtype=float)
    holds = bool(np.nanmax(low) > tie)
    i = int(np.nanargmax(low if holds else high))
    va = mean(A, level=level, simultaneous=True)
    vb = mean(B, level=level, simultaneous=True)
    hits = [pairs[j] for j in np.flatnonzero(low > tie)]
    return {
        "values": {"MSE_best": vb[i], "other": va[i]},
        "differences": {"other - MSE_best": d[i]},
        "cell": pairs[i],
        "chosen_by": "lower end" if holds else "upper end",
        "pairs": len(pairs),
        "cells": cells,
        "disagree": len(hits),
        "reach": int(np.sum(high > tie)),
        "examples": hits[:6],
        "estimate": d[i],
        "degenerate": degenerate,
    }


@contract(a=Array(), b=Array())
def is_degenerate_pair(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two collections of per-run values cannot be told apart by any run: both are the same
    constant (every value of ``a`` and of ``b`` equal), so their difference is exactly 0 with a
    zero-width interval (row T1 keeps such pairs out of its choice).

    >>> is_degenerate_pair(np.ones(5), np.ones(5)), is_degenerate_pair(np.ones(5), np.r_[1.0, 1, 1, 1, 0.9])
    (True, False)
    """
    a, b = np.asarray(a, dtype=float).ravel(), np.asarray(b, dtype=float).ravel()
    return bool(a.size and b.size and np.all(a == a[0]) and np.all(b == a[0]))


@contract(k=DENSE_DOMAIN, epsilon=Real(0.0, 50.0, low_open=True), names=Instance(list, tuple, type(None), example=None))
def exact_ranking(k: int, epsilon: float, names: list[str] | None = None) -> dict[str, float]:
    """The exact total MSE of each oracle's standard estimate for one user (``n = 1``) at ``(k, eps)``,
    smallest first (row G2).

    >>> list(exact_ranking(2, 1.0))[0]
    'GRR'
    """
    names = names or fam.oracle_families()
    v = {nm: fam.total_variance(fam.build_oracle(nm, k, epsilon), 1) for nm in names}
    return dict(sorted(v.items(), key=lambda kv: kv[1]))


@contract(
    res=_RESULT,
    k=DENSE_DOMAIN,
    n=SAMPLE_SIZE,
    eps_min=Real(0.0, None),
    dists=Instance(tuple, list, example=("Zipf",)),
    level=Real(0.5, 1.0, high_open=True),
)
def heavy_hitter_best(
    res: GridResult, k: int, n: int, eps_min: float, dists=("Zipf", "Gowalla"), *, level: float = 0.95
) -> dict[str, Any]:
    """Row CM1: in each cell ``(k, eps >= eps_min, n, dist)``, the mean top-10 precision of the oracle
    with the best mean (Hall's intervals, simultaneous over the cells and the oracles, so that the
    best's interval keeps its level).  Returns ``{"precision": Estimate (cells,), "cells": [(eps, dist,
    oracle), ...], "checked"}``."""
    idx = [
        i
        for i, (kk, e, nn, d) in enumerate(res.cells)
        if kk == k and nn == n and e >= eps_min and d in dists and np.any(np.isfinite(res.top[i]))
    ]
    if not idx:
        raise ValueError(f"no heavy-hitter cell at k = {k}, n = {n}, eps >= {eps_min} in {list(dists)}")
    ok = [j for j in range(len(res.names)) if np.all(np.isfinite(res.top[idx][:, j]))]
    T = res.top[idx][:, ok]  # (cells, oracles, runs)
    e = mean(_runs_last_to_first(T), level=level, simultaneous=True)
    best = np.nanargmax(np.asarray(e.value), axis=1)
    vals = np.array([e.value[c, b] for c, b in enumerate(best)])
    low = np.array([e.low[c, b] for c, b in enumerate(best)])
    high = np.array([e.high[c, b] for c, b in enumerate(best)])
    se = np.array([e.se[c, b] for c, b in enumerate(best)])
    est_b = Estimate(
        vals, low, high, level=e.level, se=se, n_runs=e.n_runs, method=e.method, simultaneous=True, note=e.note
    )
    cells = [(res.cells[i][1], res.cells[i][3], res.names[ok[b]]) for i, b in zip(idx, best)]
    return {"precision": est_b, "cells": cells, "checked": len(idx)}


@contract()
def adult_ages() -> np.ndarray:
    """Counts of the ages in UCI Adult (all 48,842 records), one entry per year from the youngest to the
    oldest (an ordered domain for range queries)."""
    a = load_adult("all")["age"].to_numpy().astype(int)
    return np.bincount(a - a.min(), minlength=a.max() - a.min() + 1).astype(np.int64)
