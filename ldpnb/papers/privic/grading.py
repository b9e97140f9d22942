r"""PRIVIC (Biswas and Palamidessi 2023): the chapter's random results as estimates for its claims.

Each function takes the tidy results of :mod:`ldpnb.papers.privic.experiments` and returns
:class:`ldpnb.stats.Estimate` objects (or, for an order, the mapping ``{"values": ...,
"differences": ...}`` that :meth:`ldpnb.repro.Report.order` takes), keyed by claim id, ready for
:meth:`ldpnb.repro.Report.record`.  Only the paper-specific choices live here (which runs are paired,
which cells a claim covers, the likelihood-ratio region); the intervals are those of
:mod:`ldpnb.stats`:

* independent reports (BA against LAP, different beta, different protocols): Welch's difference,
  Fieller's ratio;
* the same runs measured twice (a PRIVIC round's rows, the same reports at several IBU budgets,
  the MLE and the combination of one round): paired means and ratios;
* "is the MLE" (:func:`gap_ratio`): the candidate's mean log-likelihood gap over the 95 % quantile of
  the truth's gap, by a paired bootstrap over the rounds;
* claims "at every point": simultaneous intervals (Bonferroni over the cells).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ldpnb.contracts import POSITIVE, Integer, OneOf, RandomState, Real, Unchecked, contract
from ldpnb.papers.privic.values import CALIBRATION_ROW_SD, PAPER_FIG3_WINDOW, PAPER_TABLES, PROTOCOL
from ldpnb.repro.seeds import seed_for
from ldpnb.stats import MIN_BOOTSTRAP_RUNS, Estimate, bootstrap, difference, exact, mean, proportion, ratio
from ldpnb.utils import check_random_state

__all__ = [
    "runs_matrix",
    "mean_interval",
    "gap_ratio",
    "remark6_estimates",
    "outside_share",
    "table_estimates",
    "spread_estimate",
    "calibration_estimate",
    "combine_estimate",
    "f10_estimates",
    "tradeoff_estimate",
    "long_run_estimates",
    "ibu_ratio_text",
    "complexity_slopes",
    "remark5_estimate",
    "fig3_estimates",
    "lapcal_estimate",
    "budget_estimates",
    "attack_estimate",
]

_FRAME = Unchecked("a DataFrame of the experiments module", example=None)
_SEED = Integer(0, 2**32 - 1)
_LEVEL = Real(0, 1, low_open=True, high_open=True)
_TAB = {"paris": "III", "sf": "IV"}
_B = "BA, IBU from the true π"


def _within(lo, hi, value):
    """An interval that contains its value (two bootstraps may put an end a hair inside it)."""
    return np.minimum(lo, value), np.maximum(hi, value)


@contract(
    frame=_FRAME,
    index=Unchecked("the column of the runs", example="round"),
    columns=Unchecked("the column of the cells", example="row"),
    values=Unchecked("the measured column", example="emd"),
)
def runs_matrix(frame: pd.DataFrame, index: str, columns: str, values: str = "emd") -> pd.DataFrame:
    """``frame`` as a table of runs (rows, ``index``) by cells (columns, ``columns``): the layout of
    :mod:`ldpnb.stats` (runs along axis 0).  Refuses a table with a missing run."""
    m = frame.pivot(index=index, columns=columns, values=values).sort_index(axis=1)
    if m.isna().any().any():
        raise ValueError(f"every cell needs every run: {int(m.isna().sum().sum())} missing value(s)")
    return m


@contract(
    frame=_FRAME,
    by=Unchecked("the cell column", example="beta"),
    column=Unchecked("the series column", example="mechanism"),
    runs=Unchecked("the run column", example="sim"),
    level=_LEVEL,
)
def mean_interval(frame: pd.DataFrame, by: str, column: str, runs: str, level: float = 0.95) -> pd.DataFrame:
    """Per series (``column``) and cell (``by``), the mean of ``emd`` over the runs with its ``level``
    interval (:func:`ldpnb.stats.mean`, one cell at a time): a table indexed by the cells with columns
    ``("mean", series)``, ``("low", series)``, ``("high", series)``, for the figures' error bars."""
    parts = {}
    for name, d in frame.groupby(column):
        m = runs_matrix(d, runs, by)
        e = mean(m.to_numpy(), level=level)
        parts[name] = pd.DataFrame({"mean": e.value, "low": e.low, "high": e.high}, index=m.columns)
    out = pd.concat(parts, axis=1).swaplevel(axis=1)
    return out.sort_index(axis=1)


# ----------------------------------------------------------------------------- is it the MLE?
def _gap_stat(candidate, truth, axis=0):
    return np.mean(candidate, axis=axis) / np.quantile(truth, 0.95, axis=axis)


@contract(
    frame=_FRAME,
    candidate=OneOf("combination", "theta_N"),
    level=_LEVEL,
    n_boot=Integer(200, 100_000),
    rng=RandomState(),
)
def gap_ratio(frame: pd.DataFrame, candidate: str, *, level: float = 0.95, n_boot: int = 4000, rng=None) -> Estimate:
    r"""Whether a candidate "is the MLE" of the pooled reports, as one estimate: the ratio of its mean
    log-likelihood gap to the certified MLE to the region :math:`R`, the 95 % quantile of the true
    distribution's gap, over the rounds of one setting (one line per round, the columns of
    :func:`~ldpnb.papers.privic.experiments.run_privic`'s maximum-likelihood lines).

    .. math:: \hat\rho = \overline{L(\hat\theta) - L(c)} \,/\, \hat q_{0.95}\big(L(\hat\theta) - L(\pi)\big)

    The candidate lies inside the calibrated 95 % likelihood-ratio region when :math:`\rho \le 1`.
    Interval: BCa bootstrap (:func:`ldpnb.stats.bootstrap`) paired over the rounds (a round's
    candidate and truth gaps share its reports and its MLE), the quantile re-estimated in every
    resample, so that the region's own sampling error enters.  The MLE's certificate makes each gap an
    interval ``[gap_lo, gap_hi]``; the lower end is bootstrapped from the candidate's lower and the
    truth's upper gaps, the upper end from the opposite pair (the same resamples), and the value is
    that of the midpoints.

    Coverage of the 95 % interval, measured by simulation (mean gap 75.6 with sd 5.8, truth gaps
    normal with mean 65.4 and sd 7.5, or gamma with the same mean): 0.95-0.96 at 100 and 300 rounds,
    0.92 at 60, 0.82 at 20 (a 95 % quantile from 20 rounds leans on the largest two).  Refused below
    10 rounds (the bootstrap's minimum).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> g = np.random.default_rng(0)
    >>> t, c = g.normal(65, 7, 100), g.normal(60, 6, 100)  # the candidate is closer than the region
    >>> f = pd.DataFrame({"gap_lo_truth": t, "gap_hi_truth": t + 0.1,
    ...                   "gap_lo_combination": c, "gap_hi_combination": c + 0.1})
    >>> e = gap_ratio(f, "combination", rng=1)
    >>> bool(e.high < 1), e.n_runs
    (True, 100)
    """
    n = len(frame)
    if n < MIN_BOOTSTRAP_RUNS:
        raise ValueError(f"gap_ratio needs at least {MIN_BOOTSTRAP_RUNS} rounds, got {n}")
    col = {
        k: frame[k].to_numpy(dtype=float)
        for k in (f"gap_lo_{candidate}", f"gap_hi_{candidate}", "gap_lo_truth", "gap_hi_truth")
    }
    seed = int(check_random_state(rng).integers(2**32))
    kw = dict(paired=True, level=level, n_boot=n_boot, rng=seed)
    low = bootstrap(_gap_stat, (col[f"gap_lo_{candidate}"], col["gap_hi_truth"]), **kw)
    high = bootstrap(_gap_stat, (col[f"gap_hi_{candidate}"], col["gap_lo_truth"]), **kw)
    value = float(
        _gap_stat(
            (col[f"gap_lo_{candidate}"] + col[f"gap_hi_{candidate}"]) / 2,
            (col["gap_lo_truth"] + col["gap_hi_truth"]) / 2,
        )
    )
    lo, hi = _within(float(low.low), float(high.high), value)
    return Estimate(
        value,
        lo,
        hi,
        level=level,
        n_runs=n,
        method="bootstrap-bca",
        note="mean candidate gap / 95 % quantile of the truth's gap; paired BCa over rounds",
    )


@contract(frame=_FRAME, seed=_SEED, n_boot=Integer(200, 100_000))
def remark6_estimates(frame: pd.DataFrame, *, seed: int, n_boot: int = 4000) -> dict:
    """The estimates of the maximum-likelihood rows, by claim id, for every (protocol, city, beta) of
    ``frame`` (:func:`~ldpnb.papers.privic.experiments.mle_runs`): :func:`gap_ratio` of the
    combination (``R6-*``, ``R6-A11-*``) and of theta_N (``S6-MLE-*``, tables' protocol only), and the
    paired Fieller ratio of the mean EMDs to pi of the MLE and of the combination (``R6-util-*``).
    Each bootstrap draws from its own stream ``seed_for(seed, "r6/<protocol>/<city>/<beta>")``."""
    out = {}
    for (p, c, b), d in frame.groupby(["protocol", "city", "beta"]):
        tag = f"{c}-{b:g}" if p == "ALG1" else f"A11-{c}-{b:g}"
        rng = np.random.default_rng(seed_for(seed, f"r6/{p}/{c}/{b:g}"))
        out[f"R6-{tag}"] = gap_ratio(d, "combination", n_boot=n_boot, rng=rng)
        out[f"R6-util-{tag}"] = ratio(d.emd_mle_pi.to_numpy(), d.emd_pi_combination.to_numpy(), paired=True)
        if p == "A11":
            out[f"S6-MLE-{c}-{b:g}"] = gap_ratio(d, "theta_N", n_boot=n_boot, rng=rng)
    return out


@contract(
    frame=_FRAME,
    regions=_FRAME,
    candidate=OneOf("combination", "theta_N", "truth"),
    protocol=OneOf("ALG1", "A11"),
    city=OneOf("paris", "sf"),
    beta=POSITIVE,
)
def outside_share(
    frame: pd.DataFrame,
    regions: pd.DataFrame,
    candidate: str = "combination",
    protocol: str = "A11",
    city: str = "paris",
    beta: float = 1.0,
) -> Estimate:
    """The share of the rounds of one setting in which the candidate's gap (midpoint of its certified
    interval) exceeds the calibrated region (``regions`` of
    :func:`~ldpnb.papers.privic.experiments.calibrated_regions`), with Wilson's 95 % interval.  The
    truth's share is about 5 % by construction; a candidate inside the region on average can still fall
    outside it in more rounds than that.  The region is estimated from the same rounds (its own error is
    not in this interval)."""
    d = frame[(frame.protocol == protocol) & (frame.city == city) & (frame.beta == beta)]
    gap = (d[f"gap_lo_{candidate}"] + d[f"gap_hi_{candidate}"]).to_numpy() / 2
    return proportion(int(np.sum(gap > regions.loc[(protocol, city, beta), "region"])), len(d))


# ----------------------------------------------------------------------------- Tables III-IV, Figs. 8-10
def _versus_paper(ours: np.ndarray, paper_rounds: np.ndarray) -> Estimate:
    """Welch's interval of (our mean - the paper's mean) per cell, shifted by the paper's mean."""
    d = difference(ours, paper_rounds)
    p = paper_rounds.mean(axis=0)
    return Estimate(
        p + np.asarray(d.value),
        p + np.asarray(d.low),
        p + np.asarray(d.high),
        level=d.level,
        se=d.se,
        n_runs=d.n_runs,
        method=d.method,
        note="Welch interval of (ours - the paper's five rounds), shifted by the paper's mean",
    )


@contract(frame=_FRAME, city=OneOf("paris", "sf"))
def table_estimates(frame: pd.DataFrame, city: str) -> dict:
    """Tables III-IV from :func:`~ldpnb.papers.privic.experiments.run_privic`'s rounds (columns
    ``beta, round, row, emd``), by claim id:

    * ``T<III|IV>-<beta>-<row>``: our mean EMD against the mean of the paper's five printed rounds
      (Welch's interval of the difference, shifted by the printed mean; the data rows 2..N);
    * ``T<III|IV>-order``: beta = 1 below beta = 0.5 at every data row (means and Welch differences,
      simultaneous);
    * ``TIII-trend-<beta>`` (rows 2..15) and ``TIV-trend-<beta>`` (rows 1..8): the mean of the per-round
      steps between consecutive rows, simultaneous.
    """
    tab = _TAB[city]
    out, data = {}, {}
    for b in (1.0, 0.5):
        m = runs_matrix(frame[frame.beta == b], "round", "row")
        data[b] = m.loc[:, 2:].to_numpy()
        est = _versus_paper(data[b], PAPER_TABLES[city][b][1:].T)
        for j, row in enumerate(m.columns[1:]):
            out[f"T{tab}-{b:g}-{row}"] = est[j]
        trend = m.loc[:, 2:] if city == "paris" else m
        out[f"T{tab}-trend-{b:g}"] = mean(np.diff(trend.to_numpy(), axis=1), simultaneous=True)
    out[f"T{tab}-order"] = {
        "values": {"beta1": mean(data[1.0], simultaneous=True), "beta05": mean(data[0.5], simultaneous=True)},
        "differences": {"beta05 - beta1": difference(data[0.5], data[1.0], simultaneous=True)},
    }
    return out


@contract(rng=RandomState(), n_boot=Integer(200, 100_000))
def spread_estimate(*, rng=None, n_boot: int = 4000) -> Estimate:
    r"""T-spread: the paper's round-to-round sd against ours,
    :math:`\sqrt{\operatorname{mean}_{rows}(s_p^2 / s^2)}` over the 42 data rows of Tables III-IV, with
    :math:`s_p` the sd of the paper's five printed rounds and :math:`s` ours over 100 calibration rounds
    (``values.CALIBRATION_ROW_SD``); BCa bootstrap over the rows.  About 1 when the protocols agree."""
    r = np.concatenate(
        [
            PAPER_TABLES[c][b][1:].var(axis=1, ddof=1) / np.asarray(CALIBRATION_ROW_SD[(c, b)]) ** 2
            for c in ("paris", "sf")
            for b in (1.0, 0.5)
        ]
    )
    return bootstrap(lambda x, axis: np.sqrt(np.mean(x, axis=axis)), (r,), rng=rng, n_boot=n_boot)


@contract(
    frames=Unchecked("{city: run_privic's first frame of the calibration rounds}", example=None),
    rng=RandomState(),
    n_boot=Integer(200, 100_000),
)
def calibration_estimate(frames: dict, *, rng=None, n_boot: int = 2000) -> Estimate:
    """T-cal: per data row of Tables III-IV (both cities, beta = 1 then 0.5), the sd of fresh rounds over
    the stored ``values.CALIBRATION_ROW_SD``, BCa bootstrap over the rounds, simultaneous over the rows."""
    cols, stored = [], []
    for c in ("paris", "sf"):
        for b in (1.0, 0.5):
            cols.append(runs_matrix(frames[c][frames[c].beta == b], "round", "row").loc[:, 2:].to_numpy())
            stored.append(np.asarray(CALIBRATION_ROW_SD[(c, b)]))
    x, s = np.hstack(cols), np.concatenate(stored)
    return bootstrap(lambda v, axis: np.std(v, axis=axis, ddof=1) / s, (x,), rng=rng, n_boot=n_boot, simultaneous=True)


@contract(frame=_FRAME)
def combine_estimate(frame: pd.DataFrame) -> Estimate:
    """A11-combine: Welch's interval of the mean EMD of row 15 (Paris, beta = 1) of our rounds with the ⊕
    average minus the mean of the paper's five printed rounds."""
    last = runs_matrix(frame[frame.beta == 1.0], "round", "row").iloc[:, -1].to_numpy()
    return difference(last, PAPER_TABLES["paris"][1.0][-1])


@contract(frames=Unchecked("{city: run_privic's first frame over Fig. 10's betas}", example=None))
def f10_estimates(frames: dict) -> dict:
    r"""Fig. 10 from the final rows of :func:`~ldpnb.papers.privic.experiments.run_privic` (all betas), by
    claim id: ``F10-shape-<city>``, the mean of the per-round cells [the steps of the final EMD over beta,
    then :math:`(f_{-2} - f_{-1})\,(b_1 - b_0)/(b_{-1} - b_{-2}) - (f_0 - f_1)`] (all negative when the
    curve falls and is steeper at the start), simultaneous; ``E6``, the steps (Paris); and ``"_final"``,
    per city the mean final EMD per beta with its 95 % interval (a table ``mean, low, high``).  Rounds of
    different beta are independent, so pairing them by round index is valid (not variance reducing)."""
    out, final = {}, {}
    for c, d in frames.items():
        m = runs_matrix(d[d.row == PROTOCOL[c]["n_rows"]], "round", "beta")
        f, b = m.to_numpy(), m.columns.to_numpy(dtype=float)
        steps = np.diff(f, axis=1)
        contrast = (f[:, -2] - f[:, -1]) * (b[1] - b[0]) / (b[-1] - b[-2]) - (f[:, 0] - f[:, 1])
        out[f"F10-shape-{c}"] = mean(np.column_stack([steps, contrast]), simultaneous=True)
        if c == "paris":
            out["E6"] = mean(steps, simultaneous=True)
        e = mean(f)
        final[c] = pd.DataFrame({"mean": e.value, "low": e.low, "high": e.high}, index=pd.Index(b, name="beta"))
    out["_final"] = final
    return out


@contract(
    frame=_FRAME,
    betas=Unchecked("the betas, in the claim's order", example=(1.0, 0.5)),
    column=OneOf("lagrangian", "mi"),
    ends=Unchecked("True to add last - first per beta", example=True),
)
def tradeoff_estimate(frame: pd.DataFrame, betas=(1.0, 0.5), column: str = "lagrangian", ends: bool = True) -> Estimate:
    r"""S6-tradeoff (``column="lagrangian"``) and S6-privacy (``column="mi"``): per beta, the steps of a
    per-row measure of each row's mechanism under the true :math:`\pi` (``run_privic``'s ``lagrangian``,
    BA's objective :math:`I + \beta\,\mathrm{AvgD}`, or ``mi``, the mutual information) between
    consecutive rows, then (``ends``) per beta the last row minus the first; means of the per-round
    values (a round is one trajectory), simultaneous over all cells."""
    steps, last = [], []
    for b in betas:
        w = runs_matrix(frame[frame.beta == float(b)], "round", "row", column).to_numpy()
        steps.append(np.diff(w, axis=1))
        last.append(w[:, -1] - w[:, 0])
    return mean(np.column_stack([*steps, *(last if ends else [])]), simultaneous=True)


@contract(
    long=Unchecked("privic_long_run's (trajectories, summary)", example=None),
    city=OneOf("paris", "sf"),
    seed=_SEED,
    n_boot=Integer(200, 100_000),
)
def long_run_estimates(long: tuple, city: str, *, seed: int = 0, n_boot: int = 4000) -> dict:
    r"""The convergence rows from :func:`~ldpnb.papers.privic.experiments.privic_long_run` (three times the
    paper's cycles), by claim id (paired rounds throughout):

    * ``S6-true-<city>``: Fieller ratio of the mean EMD to :math:`\pi` of :math:`\theta_{3N}` to that of
      the certified pooled MLE after the same 3N cycles;
    * ``S6-settled-<city>``: Fieller ratio of :math:`\theta_t`'s mean EMD after 3N to that after N cycles;
    * ``S6-true-mle-<city>``: the same for the pooled MLE;
    * ``F10-limit-<city>``: Fieller ratio of :math:`\theta_N`'s mean EMD to the pooled MLE's after N cycles;
    * ``S6-IBU-conv-<city>``: per cycle, the cycle's IBU estimate against the certified MLE of that
      cycle's reports.  In Paris, with at least ``MIN_BOOTSTRAP_RUNS`` rounds (book scale), the ratio
      of the mean IBU gap to the 95 % quantile of the same cycle's truth gaps (:func:`gap_ratio`'s
      statistic), paired BCa bootstrap over the rounds, simultaneous over the cycles, from the stream
      ``seed_for(seed, "ibu-conv/<city>")``; otherwise (San Francisco's 3 rounds) the mean gaps in
      nats (simultaneous), for Wilks' region, which is wider than the calibrated ones
      (:data:`~ldpnb.papers.privic.claims.REGION`): a mean beyond it is beyond a calibrated region too.
    """
    traj, summ = long
    N = PROTOCOL[city]["n_rows"] - 1
    e = runs_matrix(traj, "round", "row")
    ibu_gap, truth_gap = (np.stack(summ[k].to_numpy()) for k in ("ibu_gap", "truth_gap"))
    if city == "paris" and len(summ) >= MIN_BOOTSTRAP_RUNS:
        conv = bootstrap(
            _gap_stat,
            (ibu_gap, truth_gap),
            paired=True,
            simultaneous=True,
            n_boot=n_boot,
            rng=np.random.default_rng(seed_for(seed, f"ibu-conv/{city}")),
        )
    else:
        conv = mean(ibu_gap, simultaneous=True)
    return {
        f"S6-true-{city}": ratio(e[3 * N + 1].to_numpy(), summ.emd_mle_end.to_numpy(), paired=True),
        f"S6-settled-{city}": ratio(e[3 * N + 1].to_numpy(), e[N + 1].to_numpy(), paired=True),
        f"S6-true-mle-{city}": ratio(summ.emd_mle_end.to_numpy(), summ.emd_mle_N.to_numpy(), paired=True),
        f"F10-limit-{city}": ratio(e[N + 1].to_numpy(), summ.emd_mle_N.to_numpy(), paired=True),
        f"S6-IBU-conv-{city}": conv,
    }


@contract(conv=Unchecked("S6-IBU-conv's estimate from long_run_estimates", example=None), rounds=Integer(0, None))
def ibu_ratio_text(conv: Estimate, rounds: int) -> str:
    """The prose's calibrated ratios of S6-IBU-conv, first and last cycle, from :func:`long_run_estimates`
    over ``rounds`` rounds; with fewer than ``MIN_BOOTSTRAP_RUNS`` rounds ``conv`` holds mean gaps in nats,
    not ratios, and the text says the ratios were not computed."""
    if rounds < MIN_BOOTSTRAP_RUNS:
        return "not computed at this scale"
    return f"{conv[0].text()} and {conv[-1].text()}"


@contract(times=Unchecked("per_iteration_times' frame, or None (not timed)", example=None))
def complexity_slopes(times: pd.DataFrame | None) -> dict:
    """T2: the log-log slopes of BA's and IBU's seconds per iteration against the number of cells ``m``
    (keys ``slope_ba``, ``slope_ibu``); empty when ``times`` is None (not timed)."""
    if times is None:
        return {}
    cols = ("m", "BA s/iteration", "IBU s/iteration")
    if not isinstance(times, pd.DataFrame) or any(c not in times.columns for c in cols):
        raise TypeError(f"times must be None or a DataFrame with the columns {cols}, got {type(times).__name__}")
    return {
        f"slope_{k.lower()}": np.polyfit(np.log(times.m), np.log(times[f"{k} s/iteration"]), 1)[0]
        for k in ("BA", "IBU")
    }


@contract(dirichlet=_FRAME, uniform=_FRAME)
def remark5_estimate(dirichlet: pd.DataFrame, uniform: pd.DataFrame) -> Estimate:
    """T-L: Welch's interval of the mean final EMD from Dirichlet starts minus that from the uniform
    start (trajectories of :func:`privic_long_run`; independent rounds)."""
    end = [t[t.row == t.row.max()].sort_values("round").emd.to_numpy() for t in (dirichlet, uniform)]
    return difference(end[0], end[1])


# ----------------------------------------------------------------------------- Fig. 3
def _cells(m: pd.DataFrame, mask) -> np.ndarray:
    return m.loc[:, mask].to_numpy()


@contract(sweep=_FRAME, city=OneOf("paris", "sf"))
def fig3_estimates(sweep: pd.DataFrame, city: str) -> dict:
    """Fig. 3's rows from :func:`~ldpnb.papers.privic.experiments.stat_utility_sweep` (columns ``beta,
    sim, mechanism, emd``), by claim id:

    * ``F3-order``, ``F3-2beta``: BA (IBU from uniform) against LAP at BA's tight level / at 2 beta on the
      paper's interval (``values.PAPER_FIG3_WINDOW``): means and Welch differences, simultaneous;
    * ``F3-limit``: Fieller ratios mean EMD at beta = 5 / at 0.2 for BA and LAP (jointly);
    * ``F3-B-<city>``: variant B (IBU from the true pi) against LAP: Fieller ratios of the predicted
      winner's mean EMD to the predicted loser's, simultaneous: B / LAP on the paper's interval (Paris);
      B / LAP below beta = 1, then LAP / B above 1.4 (San Francisco);
    * ``F3-cross``: the smallest Fieller ratio BA / LAP over the betas, with the interval
      [min of the lower ends, min of the upper ends] of the simultaneous intervals;
    * ``F3-comparable``: the Fieller ratio BA / LAP at beta = 5.

    Also, for the text: ``"_ratio"``, the Fieller ratios BA / LAP at every beta; ``"_crossover"``, the
    betas where neither variant B nor LAP is lower by 10 % of the larger mean (Welch, simultaneous);
    ``"_lap_wins"``, those where LAP is.
    """
    R = {k: runs_matrix(sweep[sweep.mechanism == k], "sim", "beta") for k in sweep.mechanism.unique()}
    b = R["BA"].columns.to_numpy(dtype=float)
    lo, hi = PAPER_FIG3_WINDOW[city]
    win = (b > lo + 1e-9) & ((b <= hi + 1e-9) if city == "paris" else (b < hi - 1e-9))
    beyond = b > 1.4 + 1e-9
    out = {}
    for i, lap in ((f"F3-order-{city}", "LAP"), (f"F3-2beta-{city}", "LAP (ε = 2β)")):
        name = "LAP" if lap == "LAP" else "LAP_2beta"
        out[i] = {
            "values": {
                "BA": mean(_cells(R["BA"], win), simultaneous=True),
                name: mean(_cells(R[lap], win), simultaneous=True),
            },
            "differences": {f"{name} - BA": difference(_cells(R[lap], win), _cells(R["BA"], win), simultaneous=True)},
        }
    at = {v: np.isclose(b, v) for v in (0.2, 5.0)}
    out[f"F3-limit-{city}"] = ratio(
        np.column_stack([_cells(R[k], at[5.0]) for k in ("BA", "LAP")]),
        np.column_stack([_cells(R[k], at[0.2]) for k in ("BA", "LAP")]),
        simultaneous=True,
    )
    if city == "paris":  # the paper's interval: B / LAP
        out["F3-B-paris"] = ratio(_cells(R[_B], win), _cells(R["LAP"], win), simultaneous=True)
    else:  # B / LAP below 1, LAP / B above 1.4
        out["F3-B-sf"] = ratio(
            np.hstack([_cells(R[_B], win), _cells(R["LAP"], beyond)]),
            np.hstack([_cells(R["LAP"], win), _cells(R[_B], beyond)]),
            simultaneous=True,
        )
    r = ratio(R["BA"].to_numpy(), R["LAP"].to_numpy(), simultaneous=True)
    v = np.asarray(r.value)
    out[f"F3-cross-{city}"] = Estimate(
        float(v.min()),
        float(np.min(r.low)),
        float(np.min(r.high)),
        level=r.level,
        n_runs=r.n_runs,
        method=r.method,
        note="smallest ratio over the betas; ends: the smallest ends of the simultaneous intervals",
    )
    out[f"F3-comparable-{city}"] = ratio(_cells(R["BA"], at[5.0])[:, 0], _cells(R["LAP"], at[5.0])[:, 0])
    out["_ratio"] = pd.Series(v, index=b)
    d = difference(R["LAP"].to_numpy(), R[_B].to_numpy(), simultaneous=True)  # LAP - B
    tie = 0.1 * np.maximum(R["LAP"].mean(axis=0).to_numpy(), R[_B].mean(axis=0).to_numpy())
    out["_crossover"] = b[~((np.asarray(d.low) > tie) | (np.asarray(d.high) < -tie))]
    out["_lap_wins"] = b[np.asarray(d.high) < -tie]
    return out


@contract(sweeps=Unchecked("{city: stat_utility_sweep at the calibrated LAP}", example=None))
def lapcal_estimate(sweeps: dict) -> Estimate:
    """F3-LAPcal: Fieller ratios mean EMD of the calibrated LAP / BA's, per (city, beta) of ``sweeps``
    (independent reports), simultaneous."""
    R = {
        k: np.hstack([runs_matrix(s[s.mechanism == k], "sim", "beta").to_numpy() for s in sweeps.values()])
        for k in ("LAP", "BA")
    }
    return ratio(R["LAP"], R["BA"], simultaneous=True)


@contract(
    budgets=Unchecked("{(city, beta): ibu_budget_study}", example=None),
    drift=Unchecked("the (city, beta) key of the drift study", example=("paris", 0.6)),
)
def budget_estimates(budgets: dict, drift=("paris", 0.6)) -> dict:
    """P4 and F3-B-drift from :func:`~ldpnb.papers.privic.experiments.ibu_budget_study` results: BA against
    LAP at every (case, budget) (Welch, simultaneous); variant B's steps between consecutive budgets and
    its final gap to BA from uniform (paired: the same reports)."""
    R = {
        key: {k: runs_matrix(s[s.mechanism == k], "sim", "budget") for k in ("BA", _B, "LAP")}
        for key, s in budgets.items()
    }
    ba = np.hstack([r["BA"].to_numpy() for r in R.values()])
    lap = np.hstack([r["LAP"].to_numpy() for r in R.values()])
    B, A = R[drift][_B].to_numpy(), R[drift]["BA"].to_numpy()
    return {
        "P4": {
            "values": {"BA": mean(ba, simultaneous=True), "LAP": mean(lap, simultaneous=True)},
            "differences": {"LAP - BA": difference(lap, ba, simultaneous=True)},
        },
        "F3-B-drift": mean(np.diff(B, axis=1), simultaneous=True),
        "F3-B-drift-end": difference(B[:, -1], A[:, -1], paired=True),
    }


@contract(
    attack=_FRAME, shortcut=Unchecked("P(A->A) of the prior shortcut per beta", example=None), k=Integer(0, 10_000)
)
def attack_estimate(attack: pd.DataFrame, shortcut, k: int = 8) -> dict:
    """F11-PRIVIC: the prior shortcut (exact) against P(A->A) of the BA PRIVIC deploys under attack level
    ``k`` (:func:`~ldpnb.papers.privic.experiments.privic_under_attack`; mean over rounds per beta,
    simultaneous)."""
    d = attack[attack.k == k].copy()
    d["round"] = d.groupby("beta").cumcount()
    m = runs_matrix(d, "round", "beta", "P(A→A)")
    return {
        "values": {
            "shortcut": exact(np.asarray(shortcut, dtype=float)),
            "PRIVIC": mean(m.to_numpy(), simultaneous=True),
        }
    }
