r"""PRIVIC (Biswas and Palamidessi 2023): the experiments of the chapter, as functions of the data.

Each function runs one experiment of the paper (or one check of a claim) and returns plain numbers
or a tidy :class:`pandas.DataFrame`; the chapter calls them and records the claims.  Random
experiments take a ``seed`` (an int or a :class:`numpy.random.SeedSequence`, e.g.
``seed_for(SEED, "fig3")``) and run through :func:`ldpnb.repro.parallel.sweep`, one task per
(beta, round), so the numbers depend on the seed only, never on the number of workers.

* :func:`run_privic`: PRIVIC rounds (Tables III-IV, Figs. 7-10) under the tables' protocol or
  Alg. 1 as written, with the maximum-likelihood check of Remark 6 and Sec. 6 on request;
* :func:`pooled_mle`, :func:`pooled_loglik`, :func:`likelihood_region`: GIBU taken to a certified
  maximum, the pooled log-likelihood, and the likelihood-ratio region used to grade "is the MLE";
* :func:`stat_utility_sweep`, :func:`ibu_budget_study`: Fig. 3 (BA against LAP) and its IBU budgets;
* :func:`elasticity_table`, :func:`mode_path`, :func:`first_beta`: Figs. 1-2;
* :func:`adversarial_table`, :func:`privic_under_attack`: Sec. 7 and Fig. 11;
* :func:`example_5_1`, :func:`levy_mixture`, :func:`per_iteration_times`: Example 5.1, the repair
  of the proof of Thm 5.1, Table II.
"""

from __future__ import annotations

import math
import time

import numpy as np
import pandas as pd

from ldpnb.channels._generic import simulate_counts
from ldpnb.contracts import (
    EPSILON,
    POSITIVE,
    SAMPLE_SIZE,
    AnyOf,
    Array,
    Counts,
    DistanceMatrix,
    Instance,
    Integer,
    OneOf,
    Optional,
    RandomState,
    Real,
    Unchecked,
    contract,
)
from ldpnb.estimators._ibu import IBUResult, ibu
from ldpnb.measures.utility import emd
from ldpnb.mechanisms.rate_distortion import average_distortion, blahut_arimoto
from ldpnb.papers.privic.model import (
    _shape,
    block_indices,
    flat_index,
    lap_grid_channel,
    privic,
    privic_distance,
    row_similarity,
    row_stats,
)
from ldpnb.papers.privic.values import ISLAND_A, ISLAND_B, PROTOCOL
from ldpnb.repro.parallel import sweep
from ldpnb.utils import check_random_state

__all__ = [
    "PROTOCOLS",
    "pooled_loglik",
    "pooled_mle",
    "likelihood_region",
    "calibrated_regions",
    "gap_null_bootstrap",
    "run_privic",
    "calibration_runs",
    "privic_long_run",
    "ba_at_paper_iterations",
    "table_summary",
    "stat_utility_sweep",
    "ibu_budget_study",
    "elasticity_table",
    "mode_path",
    "first_beta",
    "adversarial_table",
    "privic_under_attack",
    "example_5_1",
    "levy_mixture",
    "per_iteration_times",
    "cycle_times",
    "fig2_rows",
    "elastic_gap",
    "ba_fixpoint_gap",
    "rd_identities",
    "mi_qos_plane",
    "qos_among_fixpoints",
    "mle_frame",
    "mle_runs",
]

_SEED = AnyOf(Integer(0, None), Instance(np.random.SeedSequence, example=np.random.SeedSequence(0)))
_SHAPE = Unchecked("a city name ('paris', 'sf') or a pair (rows, cols) of positive integers", example="paris")
_CHANNELS = Unchecked("a non-empty list of channels of one shape", example=[np.eye(2)])
_COUNTS_LIST = Unchecked("one count vector per channel", example=[np.array([3, 1])])

#: The two readings of PRIVIC: ``"A11"`` re-obfuscates the whole dataset every cycle and keeps
#: theta_t = mu_t (the protocol that reproduces Tables III-IV); ``"ALG1"`` is Alg. 1 as written
#: (N fresh i.i.d. users per cycle, theta_t = mu_t (+) theta_{t-1}).
PROTOCOLS = ("A11", "ALG1")


# ----------------------------------------------------------------------------- likelihood
def _stack(channels, counts_list):
    Cs = [np.asarray(C, dtype=float) for C in channels]
    Ys = [np.asarray(y, dtype=float) for y in counts_list]
    if not Cs or len(Cs) != len(Ys):
        raise ValueError("need a non-empty list of channels and one counts vector per channel")
    if any(C.shape != Cs[0].shape for C in Cs) or any(y.shape != (Cs[0].shape[1],) for y in Ys):
        raise ValueError("all channels must have one shape and every counts vector one entry per output")
    return Cs, Ys


@contract(theta=Array(1, low=0.0), channels=_CHANNELS, counts_list=_COUNTS_LIST)
def pooled_loglik(theta, channels, counts_list) -> float:
    r"""The pooled log-likelihood of all cycles, in **total** nats (Def. 2.6, GIBU's objective):
    :math:`L(\theta) = \sum_t \sum_y n_t(y) \log (\theta \hat C^{(t)})_y`."""
    Cs, Ys = _stack(channels, counts_list)
    total = 0.0
    for C, y in zip(Cs, Ys):
        den = theta @ C
        seen = y > 0
        with np.errstate(divide="ignore"):
            total += float(y[seen] @ np.log(den[seen]))
    return total


@contract(
    channels=_CHANNELS,
    counts_list=_COUNTS_LIST,
    tol=POSITIVE,
    max_iter=Integer(1, 100_000_000),
    theta0=Optional(Array(1, low=0.0)),
)
def pooled_mle(channels, counts_list, *, tol: float = 1e-6, max_iter: int = 200_000, theta0=None) -> IBUResult:
    r"""GIBU (Biswas and Palamidessi, Def. 2.6; ElSalamouny and Palamidessi 2020) taken to a **certified**
    maximum of the pooled likelihood.

    GIBU's update is IBU's on the stacked observation matrix :math:`G = (\hat C^{(1)} \cdots \hat C^{(T)})`
    with the pooled counts; :math:`G/T` has rows summing to 1, so this runs
    :func:`ldpnb.estimators.ibu` on it with SQUAREM acceleration and the stopping rule ``gap``: the
    result's ``gap`` (:math:`\log\max_x r_x`) bounds :math:`\ell(\hat\theta_{MLE}) - \ell(\text{estimate})`
    per report, so the total log-likelihood of the maximum lies in
    ``[L(estimate), L(estimate) + n_total * gap]``.
    """
    Cs, Ys = _stack(channels, counts_list)
    G = np.hstack(Cs) / len(Cs)
    y = np.concatenate(Ys)
    if theta0 is not None:
        theta0 = theta0 / theta0.sum()
    return ibu(G, y, theta0=theta0, criterion="gap", tol=tol, max_iter=max_iter, accelerate="squarem", trace=False)


@contract(m=Integer(2, 1 << 20), level=Real(0, 1, low_open=True, high_open=True))
def likelihood_region(m: int, level: float = 0.95) -> float:
    r"""Half the :math:`\chi^2_{m-1}` quantile: the likelihood-ratio region
    :math:`\{\theta : L(\hat\theta_{MLE}) - L(\theta) \le \chi^2_{m-1, level}/2\}` (total nats; Wilks).

    A distribution outside it is *statistically distinguishable* from the MLE; one inside cannot be
    told apart from it by these reports.  97.4 nats for Paris (m = 165), 214.8 for San Francisco
    (m = 384) at level 0.95.
    """
    from scipy.stats import chi2  # noqa: PLC0415 lazy: scipy/numpy submodule loaded at first use

    return float(chi2.ppf(level, m - 1) / 2)


# ----------------------------------------------------------------------------- PRIVIC rounds
def _tradeoff(pi, channels, D, beta):
    """I(X;Y), AvgD and I + beta AvgD of each channel under the true prior ``pi`` (Def. 2.2-2.3, 2.9)."""
    from ldpnb.mechanisms.rate_distortion import mutual_information_nats  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    mi = np.array([mutual_information_nats(pi, C) for C in channels])
    avgd = np.array([average_distortion(pi, C, D) for C in channels])
    return mi, avgd


def _mle_lines(res, counts, D, mle_tol, diagnostics=True):
    """The maximum-likelihood line of one PRIVIC run (see :func:`run_privic`)."""
    n = int(counts.sum())
    pi = counts / n
    nt = np.array([y.sum() for y in res.report_counts], dtype=float)
    comb = (nt / nt.sum()) @ np.asarray(res.mus)  # the sample-weighted (+) of the mu_t
    mle = pooled_mle(res.channels, res.report_counts, tol=mle_tol)
    L = lambda th: pooled_loglik(th, res.channels, res.report_counts)  # noqa: E731
    l_mle, slack = L(mle.estimate), nt.sum() * float(mle.gap)
    out = {
        "n_total": float(nt.sum()),
        "mle_gap_per_report": float(mle.gap),
        "mle_slack": slack,
        "emd_mle_pi": emd(mle.estimate, pi, D),
        "mle_support": int(np.sum(mle.estimate > 1e-8)),
    }
    for name, th in (("theta_N", res.thetas[-1]), ("combination", comb), ("truth", pi)):
        lower = l_mle - L(th)
        out.update(
            {
                f"gap_lo_{name}": lower,
                f"gap_hi_{name}": lower + slack,
                f"emd_mle_{name}": emd(th, mle.estimate, D),
                f"emd_pi_{name}": emd(th, pi, D),
            }
        )
    if diagnostics:
        sv = np.linalg.svd(np.hstack(res.channels), compute_uv=False)
        out.update(
            {
                "max_cond": max(float(np.linalg.cond(C)) for C in res.channels),
                "G_sigma_ratio": float(sv[-1] / sv[0]),
                "G_rank": int(np.sum(sv > sv[0] * max(np.hstack(res.channels).shape) * np.finfo(float).eps)),
                "m": int(counts.size),
            }
        )
    return out


def _privic_round(task, rng):
    counts, D, beta, proto, protocol, with_mle, mle_tol = task[:7]
    diagnostics = task[7] if len(task) > 7 else True
    n = int(counts.sum())
    kw = dict(combine=True, n_per_cycle=n) if protocol == "ALG1" else {}
    res = privic(
        counts,
        D,
        beta,
        n_cycles=proto["n_rows"] - 1,
        ba_iter=proto["ba_iter"],
        ibu_iter=proto["ibu_iter"],
        rng=rng,
        **kw,
    )
    mi, avgd = _tradeoff(counts / n, [*res.channels, res.final_channel], D, beta)
    out = {"emd": res.emd, "theta_N": res.thetas[-1], "mi": mi, "avgd": avgd}
    if with_mle:
        out["mle"] = _mle_lines(res, counts, D, mle_tol, diagnostics)
    return out


@contract(
    true_counts=Counts(),
    city=OneOf("paris", "sf"),
    betas=Array(None, low=0.0),
    rounds=Integer(1, 100_000),
    seed=_SEED,
    protocol=OneOf(*PROTOCOLS),
    mle_betas=Array(None, min_size=0, low=0.0),
    mle_tol=POSITIVE,
)
def run_privic(
    true_counts, city: str, betas, rounds: int, *, seed, protocol: str = "A11", mle_betas=(), mle_tol: float = 1e-6
) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    r"""PRIVIC rounds on ``city`` with the paper's cycles and iterations (Sec. 6: Paris 14 cycles of 8 BA
    and 10 IBU iterations, San Francisco 7 cycles of 5 and 5).

    Returns

    * a long DataFrame ``beta, round, row, emd, mi, avgd, lagrangian`` (row N = :math:`\theta_{N-1}`, row
      1 = the uniform start: Tables III-IV, Figs. 8-10); ``mi``, ``avgd`` and ``lagrangian``
      (:math:`I + \beta\,\mathrm{AvgD}`) are those of the BA channel built from that row's estimate
      (:math:`\hat C^{(N)}` for rows 1..N, the deployed BA(:math:`\theta_N`) for the last row) under the
      true :math:`\pi`: the "privacy protection and its trade-off with QoS" of Sec. 6's Discussion;
    * for ``beta`` in ``mle_betas``, one line per round with the certified MLE of the pooled reports
      (:func:`pooled_mle`, certificate ``mle_tol`` nats per report) and, for :math:`\theta_N`, the
      sample-weighted combination of the :math:`\mu_t` and the true :math:`\pi`, the log-likelihood gap to the MLE as a
      certified interval ``[gap_lo, gap_hi]`` (total nats) and the EMDs to the MLE and to :math:`\pi`; plus the largest
      condition number of the cycle channels and the numerical rank of :math:`G` (Thm 5.1-5.2);
    * the final estimates :math:`\theta_N` by ``(beta, round)`` (Fig. 7).
    """
    D = privic_distance(city)
    proto = PROTOCOL[city]
    betas = [float(b) for b in np.atleast_1d(betas)]
    with_mle = {float(b) for b in np.atleast_1d(mle_betas)}
    tasks = [(true_counts, D, b, proto, protocol, b in with_mle, mle_tol) for b in betas for _ in range(rounds)]
    results = sweep(_privic_round, tasks, seed=seed)
    recs, mle_recs, finals = [], [], {}
    for i, res in enumerate(results):
        b, r = betas[i // rounds], i % rounds
        recs.extend(
            (b, r, row, float(e), float(i), float(a), float(i + b * a))
            for row, (e, i, a) in enumerate(zip(res["emd"], res["mi"], res["avgd"]), start=1)
        )
        finals[(b, r)] = res["theta_N"]
        if "mle" in res:
            mle_recs.append({"beta": b, "round": r, **res["mle"]})
    cols = ["beta", "round", "row", "emd", "mi", "avgd", "lagrangian"]
    return pd.DataFrame(recs, columns=cols), pd.DataFrame(mle_recs), finals


@contract(
    table=Unchecked("a DataFrame with columns beta, round, row, emd", example=None),
    paper=Unchecked("a dict beta -> (rows, rounds) array of the printed table", example=None),
)
def table_summary(table: pd.DataFrame, paper: dict) -> pd.DataFrame:
    """Tables III/IV side by side: per ``(beta, row)`` our mean over the rounds with its 95 % interval
    (:func:`ldpnb.stats.mean`, Hall's) and sd, and the same for the paper's five printed rounds."""
    from ldpnb.stats import mean  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    recs = []
    for b, d in table.groupby("beta"):
        m = d.pivot(index="round", columns="row", values="emd").sort_index(axis=1)
        ours = mean(m.to_numpy())
        P = paper.get(b)
        theirs = mean(P.T) if P is not None else None
        for j, row in enumerate(m.columns):
            r = {
                "beta": b,
                "row": row,
                "ours mean": float(np.asarray(ours.value)[j]),
                "ours low": float(np.asarray(ours.low)[j]),
                "ours high": float(np.asarray(ours.high)[j]),
                "ours sd": float(m[row].std(ddof=1)),
            }
            if theirs is not None and row <= P.shape[0]:
                r |= {
                    "paper mean": float(np.asarray(theirs.value)[row - 1]),
                    "paper low": float(np.asarray(theirs.low)[row - 1]),
                    "paper high": float(np.asarray(theirs.high)[row - 1]),
                    "paper sd": float(P[row - 1].std(ddof=1)),
                }
            recs.append(r)
    return pd.DataFrame(recs).set_index(["beta", "row"])


@contract(
    frame=Unchecked("the lines of mle_frame (columns protocol, city, beta, gap_hi_truth)", example=None),
    level=Real(0, 1, low_open=True, high_open=True),
)
def calibrated_regions(frame: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    r"""The likelihood-ratio region of each (protocol, city, beta), calibrated on the rounds themselves.

    A region :math:`\{\theta : L(\hat\theta_{MLE}) - L(\theta) \le R\}` is a ``level`` confidence region
    for the truth when :math:`R` is the ``level`` quantile of the truth's gap under the design that
    produced the reports.  In a simulation on a fixed dataset the truth :math:`\pi` is known and every
    round is a fresh draw of the design (the same users re-obfuscated in every cycle for ``A11``, fresh
    users every cycle for ``ALG1``), so the quantile of ``gap_hi_truth`` over the rounds is that
    :math:`R`, with no appeal to Wilks' theorem.  Wilks' :math:`\chi^2_{m-1}/2`
    (:func:`likelihood_region`) assumes independent reports and an interior maximum; in the tables'
    protocol the same users report in every cycle (a pseudo-likelihood), and the MLE sits on the
    boundary of the simplex (cells with no mass).

    Returns per (protocol, city, beta): ``rounds``, ``region`` (the calibrated :math:`R`, total nats),
    ``chi2`` (Wilks' value), and the mean and sd of the truth's gap.
    """
    from ldpnb.papers.privic.values import CITY_SHAPE  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    g = frame.groupby(["protocol", "city", "beta"]).gap_hi_truth
    out = pd.DataFrame(
        {"rounds": g.size(), "region": g.quantile(level), "truth mean": g.mean(), "truth sd": g.std(ddof=1)}
    )
    out["chi2"] = [likelihood_region(int(np.prod(CITY_SHAPE[c])), level) for _, c, _ in out.index]
    return out


def _null_task(task, rng):
    theta, n, city, beta, protocol, mle_tol = task
    x = rng.multinomial(n, theta)  # users drawn from theta, the replicate's truth x / n
    return _privic_round((x, privic_distance(city), beta, PROTOCOL[city], protocol, True, mle_tol, False), rng)["mle"]


@contract(
    counts=Unchecked("{city: the city's true counts}", example=None),
    rounds=Optional(Integer(1, 100_000)),
    seed=_SEED,
)
def calibration_runs(counts: dict, rounds: int | None, *, seed) -> dict | None:
    """T-cal's fresh rounds: :func:`run_privic` at beta = 1 then 0.5 with ``rounds`` rounds per city of
    ``counts``, each city on the stream ``seed_for(seed, "calibration/<city>")``; its first frame per city.
    ``rounds=None``: not run (None is returned)."""
    if rounds is None:
        return None
    from ldpnb.repro.seeds import seed_for  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    return {
        c: run_privic(np.asarray(y).ravel(), c, [1.0, 0.5], rounds, seed=seed_for(seed, f"calibration/{c}"))[0]
        for c, y in counts.items()
    }


@contract(
    theta=Array(1, low=0.0),
    n=SAMPLE_SIZE,
    city=OneOf("paris", "sf"),
    beta=POSITIVE,
    replicates=Integer(1, 100_000),
    seed=_SEED,
    protocol=OneOf(*PROTOCOLS),
    mle_tol=POSITIVE,
)
def gap_null_bootstrap(
    theta, n: int, city: str, beta: float, replicates: int, *, seed, protocol: str = "A11", mle_tol: float = 1e-6
) -> pd.DataFrame:
    r"""Parametric bootstrap of the pooled likelihood-ratio statistic under ``theta`` (e.g. the MLE): the
    region a collector who does not know :math:`\pi` would use.

    Each replicate draws ``n`` users from ``theta`` (their composition :math:`x/n` is the replicate's
    truth), runs PRIVIC on them with the paper's cycles under ``protocol`` (``A11``: the same users
    re-obfuscated every cycle), and returns the lines of :func:`run_privic`'s maximum-likelihood check
    (``gap_lo_truth``, ``gap_hi_truth``, and those of :math:`\theta_N` and the combination).  The
    ``level`` quantile of ``gap_hi_truth`` is then the calibrated region (compare
    :func:`calibrated_regions`, which uses the known truth).
    """
    p = theta / theta.sum()
    tasks = [(p, int(n), city, float(beta), protocol, float(mle_tol))] * int(replicates)
    return pd.DataFrame(sweep(_null_task, tasks, seed=seed))


def _long_task(task, rng):
    counts, city, beta, factor, start, with_mle, mle_tol = task
    D = privic_distance(city)
    proto = PROTOCOL[city]
    N = proto["n_rows"] - 1
    pi = counts / counts.sum()
    theta0 = rng.dirichlet(np.ones(counts.size)) if start == "dirichlet" else None
    res = privic(
        counts,
        D,
        beta,
        n_cycles=factor * N,
        ba_iter=proto["ba_iter"],
        ibu_iter=proto["ibu_iter"],
        rng=rng,
        theta0=theta0,
    )
    out = {"emd": res.emd}
    if with_mle:
        for tag, T in (("N", N), ("end", factor * N)):
            out[f"emd_mle_{tag}"] = emd(
                pooled_mle(res.channels[:T], res.report_counts[:T], tol=mle_tol).estimate, pi, D
            )
        gaps, truth = [], []
        for C, y, mu in zip(res.channels[:N], res.report_counts[:N], res.mus[:N]):
            top = pooled_loglik(pooled_mle([C], [y], tol=mle_tol).estimate, [C], [y])
            gaps.append(top - pooled_loglik(mu, [C], [y]))
            truth.append(top - pooled_loglik(pi, [C], [y]))
        out["ibu_gap"], out["truth_gap"] = np.array(gaps), np.array(truth)
    return out


@contract(
    true_counts=Counts(),
    city=OneOf("paris", "sf"),
    beta=POSITIVE,
    rounds=Integer(1, 100_000),
    seed=_SEED,
    factor=Integer(1, 100),
    start=OneOf("uniform", "dirichlet"),
    with_mle=Unchecked("True to compute the pooled MLEs and the per-cycle IBU gaps", example=True),
    mle_tol=POSITIVE,
)
def privic_long_run(
    true_counts,
    city: str,
    beta: float,
    rounds: int,
    *,
    seed,
    factor: int = 3,
    start: str = "uniform",
    with_mle: bool = True,
    mle_tol: float = 1e-6,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    r"""PRIVIC (the tables' protocol) run ``factor`` times longer than the paper, for its convergence claims.

    The paper proves that GIBU over all cycles converges to the unique MLE (Thm 5.2) and states that
    "PRIVIC converges to the true distribution" (Sec. 1) and that each cycle ran "10 iterations of IBU
    until it converged to the MLE" (Sec. 6).  Per round, from the uniform start or a Dirichlet(1) draw
    (``start``; Remark 5), over ``factor * N`` cycles (N = 14 in Paris, 7 in San Francisco):

    * the first frame, ``round, row, emd``: :math:`\mathrm{EMD}(\theta_{row-1}, \pi)`;
    * the second, one line per round (with ``with_mle``): the EMD to :math:`\pi` of the certified pooled
      MLE after N and after ``factor * N`` cycles, and ``ibu_gap``, for each of the first N cycles the
      log-likelihood gap (total nats) of that cycle's IBU estimate :math:`\mu_t` to the certified MLE
      of that cycle's reports alone, and ``truth_gap``, the same for the true :math:`\pi`.
    """
    tasks = [(true_counts, city, float(beta), int(factor), start, bool(with_mle), float(mle_tol))] * int(rounds)
    results = sweep(_long_task, tasks, seed=seed)
    traj = pd.DataFrame(
        [(r, row, float(e)) for r, res in enumerate(results) for row, e in enumerate(res["emd"], start=1)],
        columns=["round", "row", "emd"],
    )
    summ = (
        pd.DataFrame([{"round": r, **{k: v for k, v in res.items() if k != "emd"}} for r, res in enumerate(results)])
        if with_mle
        else pd.DataFrame()
    )
    return traj, summ


@contract(
    prior=Array(1, low=0.0),
    city=OneOf("paris", "sf"),
    beta=POSITIVE,
    ba_iter=Integer(1, 10_000_000),
    tol=POSITIVE,
    max_iter=Integer(1, 100_000_000),
)
def ba_at_paper_iterations(
    prior, city: str, beta: float, *, ba_iter: int, tol: float = 1e-8, max_iter: int = 20_000
) -> dict:
    r"""How far BA is from its limit after the paper's ``ba_iter`` iterations (Sec. 6: "8 iterations of BA
    until it converged").

    BA from the uniform marginal on ``prior``: the objective :math:`\mathcal L_k = I + \beta\,\mathrm{AvgD}`
    after ``ba_iter`` iterations against its value after one iteration and at the limit (BA run to
    ``max |dC| < tol``), as ``excess = (L_k - L_inf) / (L_1 - L_inf)``; ``row_tv`` the largest total
    variation between a row of :math:`C^{(k)}` and the same row of the limit; ``support_k`` and
    ``support_inf`` the outputs with :math:`c(y) > 10^{-6}`; ``converged`` whether the limit met ``tol``.
    """
    from ldpnb.mechanisms.rate_distortion import ba_lagrangian  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    D = privic_distance(city)
    one, k = (blahut_arimoto(prior, D, beta, n_iter=i) for i in (1, int(ba_iter)))
    lim = blahut_arimoto(prior, D, beta, n_iter=None, tol=tol, max_iter=max_iter)
    L1, Lk, Li = (ba_lagrangian(prior, r.channel, D, beta) for r in (one, k, lim))
    return {
        "excess": (Lk - Li) / (L1 - Li),
        "row_tv": float(0.5 * np.abs(k.channel - lim.channel).sum(axis=1).max()),
        "support_k": int(np.sum(k.output_marginal > 1e-6)),
        "support_inf": int(np.sum(lim.output_marginal > 1e-6)),
        "converged": bool(lim.converged),
        "n_iter_inf": int(lim.n_iter),
    }


# ----------------------------------------------------------------------------- Fig. 3
def _fig3_task(task, rng):
    counts, shape, beta, eps, sims, ba_iter, ibu_iter, pad = task
    rows, cols = shape
    D = privic_distance((rows, cols))
    pi = counts / counts.sum()
    C_ba = blahut_arimoto(pi, D, beta, n_iter=ba_iter).channel
    Y_ba = np.stack([simulate_counts(C_ba, counts, rng=rng) for _ in range(sims)])
    est = {
        "BA": ibu(C_ba, Y_ba, tol=0.0, max_iter=ibu_iter).estimate,
        "BA, IBU from the true π": ibu(C_ba, Y_ba, theta0=pi, tol=0.0, max_iter=ibu_iter).estimate,
    }
    for name, e in (("LAP", eps), ("LAP (ε = 2β)", 2 * beta)):
        C = lap_grid_channel((rows, cols), e, pad=pad)
        Y = np.stack([simulate_counts(C, counts, rng=rng) for _ in range(sims)])
        est[name] = ibu(C, Y, tol=0.0, max_iter=ibu_iter).estimate
    return [(beta, eps, s, name, emd(T[s], pi, D)) for name, T in est.items() for s in range(sims)]


@contract(
    true_counts=Counts(),
    shape=_SHAPE,
    betas=Array(None, low=0.0),
    lap_eps=Array(None, low=0.0),
    sims=Integer(1, 100_000),
    seed=_SEED,
    ba_iter=Integer(1, 10_000_000),
    ibu_iter=Integer(1, 10_000_000),
    pad=Integer(0, 1000),
)
def stat_utility_sweep(
    true_counts, shape, betas, lap_eps, *, sims: int, seed, ba_iter: int = 10, ibu_iter: int = 10, pad: int = 5
) -> pd.DataFrame:
    r"""Statistical utility :math:`\mathrm{EMD}(\pi, \hat\pi)` of BA and LAP (Biswas and Palamidessi,
    Sec. 3.2, Fig. 3).

    Per beta and simulation, every user of ``true_counts`` reports once through

    * BA(:math:`\pi`, beta, ``ba_iter``), estimated by IBU (``ibu_iter`` iterations) started from
      uniform (``"BA"``, the paper's stated protocol) and from the true :math:`\pi` that built BA
      (``"BA, IBU from the true π"``, an initialisation the paper does not state; same reports);
    * LAP (:func:`lap_grid_channel`, padded by ``pad``) at ``lap_eps[i]`` (``"LAP"``: the authors tune it
      to BA's tight level) and at the paper's stated :math:`\varepsilon = 2\beta` (``"LAP (ε = 2β)"``),
      estimated by IBU from uniform.

    Returns a long DataFrame ``beta, eps, sim, mechanism, emd``.
    """
    betas = np.atleast_1d(betas).astype(float)
    lap_eps = np.atleast_1d(lap_eps).astype(float)
    if lap_eps.shape != betas.shape:
        raise ValueError("lap_eps must have one value per beta")
    shp = _shape(shape)
    tasks = [(true_counts, shp, float(b), float(e), sims, ba_iter, ibu_iter, pad) for b, e in zip(betas, lap_eps)]
    recs = [r for part in sweep(_fig3_task, tasks, seed=seed) for r in part]
    return pd.DataFrame(recs, columns=["beta", "eps", "sim", "mechanism", "emd"])


@contract(
    true_counts=Counts(),
    shape=_SHAPE,
    beta=POSITIVE,
    lap_eps=EPSILON,
    budgets=Array(1, low=1),
    sims=Integer(1, 100_000),
    rng=RandomState(),
    ba_iter=Integer(1, 10_000_000),
    pad=Integer(0, 1000),
)
def ibu_budget_study(
    true_counts, shape, beta: float, lap_eps: float, budgets, *, sims: int, rng=None, ba_iter: int = 10, pad: int = 5
) -> pd.DataFrame:
    """Fig. 3's protocol at several IBU budgets (e.g. 10, 100, 1,000, 10,000 iterations), same reports.

    IBU is run once to the largest budget and read at each budget (an IBU run of ``b`` iterations is the
    first ``b`` iterations of a longer one).  Mechanisms as in :func:`stat_utility_sweep` (``"BA"``,
    ``"BA, IBU from the true π"``, ``"LAP"``).  Returns ``budget, sim, mechanism, emd``.
    """
    rng = check_random_state(rng)
    shp = _shape(shape)
    D = privic_distance(shp)
    pi = true_counts / true_counts.sum()
    budgets = sorted(int(b) for b in budgets)
    C_ba = blahut_arimoto(pi, D, beta, n_iter=ba_iter).channel
    C_lap = lap_grid_channel(shp, lap_eps, pad=pad)
    Y_ba = np.stack([simulate_counts(C_ba, true_counts, rng=rng) for _ in range(sims)])
    Y_lap = np.stack([simulate_counts(C_lap, true_counts, rng=rng) for _ in range(sims)])
    runs = {"BA": (C_ba, Y_ba, None), "BA, IBU from the true π": (C_ba, Y_ba, pi), "LAP": (C_lap, Y_lap, None)}
    recs = []
    for name, (C, Y, start) in runs.items():
        theta, done = start, 0
        for b in budgets:
            theta = ibu(C, Y, theta0=theta, tol=0.0, max_iter=b - done).estimate
            done = b
            recs.extend((b, s, name, emd(theta[s], pi, D)) for s in range(sims))
    return pd.DataFrame(recs, columns=["budget", "sim", "mechanism", "emd"])


# ----------------------------------------------------------------------------- Figs. 1-2
@contract(
    prior=Array(1, low=0.0),
    shape=_SHAPE,
    betas=Array(None, low=0.0),
    lap_eps=Array(None, low=0.0),
    A=Unchecked("a (row, column) cell", example=ISLAND_A),
    B=Unchecked("a (row, column) cell", example=ISLAND_B),
    ba_iter=Integer(1, 10_000_000),
    pad=Integer(0, 1000),
)
def elasticity_table(
    prior, shape, betas, lap_eps, *, A=ISLAND_A, B=ISLAND_B, ba_iter: int = 10, pad: int = 5
) -> pd.DataFrame:
    r"""The numbers behind Fig. 2: BA(prior, beta, ``ba_iter``) against LAP at ``lap_eps`` for the
    isolated cell A and the crowded cell B.

    Per beta: for A's row, BA's and LAP's ``P(A->A)``, mass on A's 5 x 5 block, most likely reported
    cell and its distance to A, :math:`E[d(A, Y)]`, BA's mass on B's 5 x 5 block (the crowded area),
    and the EMD / TV between BA's and LAP's rows (:func:`row_similarity`); for B's row, both
    mechanisms' most likely report and mass on B's block.
    """
    shp = _shape(shape)
    D = privic_distance(shp)
    a, b_ = flat_index(shp, A), flat_index(shp, B)
    blk_B = block_indices(shp, B)
    recs = []
    for beta, eps in zip(np.atleast_1d(betas), np.atleast_1d(lap_eps)):
        C = blahut_arimoto(prior, D, float(beta), n_iter=ba_iter).channel
        L = lap_grid_channel(shp, float(eps), pad=pad)
        sb, sl = row_stats(C[a], shp, A=A), row_stats(L[a], shp, A=A, pad=pad)
        sim = row_similarity(C[a], L[a], shp, pad)
        sbB, slB = row_stats(C[b_], shp, A=B), row_stats(L[b_], shp, A=B, pad=pad)
        recs.append(
            {
                "beta": float(beta),
                "eps": float(eps),
                "BA P(A→A)": sb["p_self"],
                "BA P(block)": sb["p_block"],
                "BA mode": sb["argmax"],
                "BA mode distance": sb["argmax_dist"],
                "BA E[d]": sb["expected_distance"],
                "BA P(B's block)": float(C[a, blk_B].sum()),
                "LAP P(A→A)": sl["p_self"],
                "LAP P(block)": sl["p_block"],
                "LAP mode": sl["argmax"],
                "LAP E[d]": sl["expected_distance"],
                "EMD(BA, LAP)": sim["emd"],
                "TV(BA, LAP)": sim["tv"],
                "B: BA mode": sbB["argmax"],
                "B: LAP mode": slB["argmax"],
                "B: BA P(block)": sbB["p_block"],
                "B: LAP P(block)": slB["p_block"],
            }
        )
    return pd.DataFrame(recs)


@contract(
    prior=Array(1, low=0.0),
    shape=_SHAPE,
    betas=Array(None, low=0.0),
    A=Unchecked("a (row, column) cell", example=ISLAND_A),
    ba_iter=Integer(1, 10_000_000),
)
def mode_path(prior, shape, betas, *, A=ISLAND_A, ba_iter: int = 10) -> pd.DataFrame:
    """BA's most likely report for A (and its distance to A, and :math:`E[d(A, Y)]`) along a grid of beta:
    the path that Sec. 3.1 describes as moving "closer and closer" to A."""
    shp = _shape(shape)
    D = privic_distance(shp)
    a = flat_index(shp, A)
    recs = []
    for beta in np.atleast_1d(betas):
        s = row_stats(blahut_arimoto(prior, D, float(beta), n_iter=ba_iter).channel[a], shp, A=A)
        recs.append(
            {
                "beta": float(beta),
                "mode": s["argmax"],
                "distance": s["argmax_dist"],
                "E[d]": s["expected_distance"],
                "P(block)": s["p_block"],
            }
        )
    return pd.DataFrame(recs)


@contract(
    pred=Unchecked("a callable beta -> bool", example=None),
    lo=Real(0, None),
    hi=Real(0, None),
    tol=POSITIVE,
    max_iter=Integer(1, 1000),
)
def first_beta(pred, lo: float, hi: float, *, tol: float = 1e-4, max_iter: int = 60) -> float:
    """Smallest beta in ``[lo, hi]`` with ``pred(beta)`` true, by bisection (one switch from false to true
    assumed: check it on a grid first); NaN when ``pred(hi)`` is false."""
    if pred(lo):
        return lo
    if not pred(hi):
        return math.nan
    for _ in range(max_iter):
        mid = 0.5 * (lo + hi)
        if pred(mid):
            hi = mid
        else:
            lo = mid
        if hi - lo < tol:
            break
    return hi


# ----------------------------------------------------------------------------- Sec. 7, Fig. 11
@contract(
    pi_island=Array(1, low=0.0),
    betas=Array(None, low=0.0),
    levels=Array(1, low=0),
    lap_eps=Array(None, low=0.0),
    cell=Unchecked("a (row, column) cell", example=ISLAND_A),
    step=POSITIVE,
)
def adversarial_table(pi_island, betas, levels, lap_eps, *, cell=ISLAND_A, step: float = 0.005) -> pd.DataFrame:
    r"""BA on the adversarial priors of Sec. 7 (:func:`adversarial_prior`): fake reports of ``cell`` at
    :math:`\delta = \text{step}\cdot k`.

    Per (beta, level): the fake share, the reporting distribution of ``cell`` under BA (``P(cell->cell)``,
    mass on its 5 x 5 block, most likely report, :math:`E[d]`), its EMD / TV to LAP's row of ``cell`` at
    ``lap_eps`` (same beta) and its EMD to BA's row of ``cell`` without attack (k = 0), and the same
    statistics for the other island cell.
    """
    from ldpnb.papers.privic.model import adversarial_prior, fake_report_share  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    D = privic_distance("paris")
    other = ISLAND_B if tuple(cell) == tuple(ISLAND_A) else ISLAND_A
    c, o = flat_index("paris", cell), flat_index("paris", other)
    recs = []
    for beta, eps in zip(np.atleast_1d(betas), np.atleast_1d(lap_eps)):
        L = lap_grid_channel("paris", float(eps))
        row0 = blahut_arimoto(adversarial_prior(pi_island, 0, cell=cell, step=step), D, float(beta)).channel[c]
        for k in np.atleast_1d(levels):
            C = blahut_arimoto(adversarial_prior(pi_island, int(k), cell=cell, step=step), D, float(beta)).channel
            s, so = row_stats(C[c], A=cell), row_stats(C[o], A=other)
            sim = row_similarity(C[c], L[c])
            recs.append(
                {
                    "beta": float(beta),
                    "eps": float(eps),
                    "k": int(k),
                    "delta": step * int(k),
                    "fake share": fake_report_share(step * int(k)),
                    "P(self)": s["p_self"],
                    "P(block)": s["p_block"],
                    "mode": s["argmax"],
                    "E[d]": s["expected_distance"],
                    "EMD to LAP": sim["emd"],
                    "TV to LAP": sim["tv"],
                    "EMD to k = 0": emd(C[c], row0, D),
                    "other P(self)": so["p_self"],
                    "other P(block)": so["p_block"],
                }
            )
    return pd.DataFrame(recs)


def _attack_task(task, rng):
    pi_island, beta, k, step, n_users, n_cycles, ba_iter, ibu_iter = task
    D = privic_distance("paris")
    a = flat_index("paris", ISLAND_A)
    n_fake = int(round(step * k * n_users))
    theta = np.full(pi_island.size, 1.0 / pi_island.size)
    for _ in range(n_cycles):
        C = blahut_arimoto(theta, D, beta, n_iter=ba_iter).channel
        y = simulate_counts(C, rng.multinomial(n_users, pi_island), rng=rng)
        y[a] += n_fake  # the fake reports bypass the mechanism
        theta = ibu(C, y, theta0=theta, tol=0.0, max_iter=ibu_iter, trace=False).estimate
    C = blahut_arimoto(theta, D, beta).channel  # the mechanism PRIVIC deploys (10 iterations, as in Fig. 11)
    return {
        "beta": beta,
        "k": k,
        "theta(A)": float(theta[a]),
        "P(A→A)": float(C[a, a]),
        "P(block)": float(C[a, block_indices("paris", ISLAND_A)].sum()),
    }


@contract(
    pi_island=Array(1, low=0.0),
    betas=Array(None, low=0.0),
    levels=Array(1, low=0),
    rounds=Integer(1, 100_000),
    seed=_SEED,
    n_users=SAMPLE_SIZE,
    step=POSITIVE,
    n_cycles=Integer(1, 10_000),
)
def privic_under_attack(
    pi_island, betas, levels, rounds: int, *, seed, n_users: int = 10_078, step: float = 0.005, n_cycles: int = 14
) -> pd.DataFrame:
    r"""Sec. 7's attack run through PRIVIC itself (an extension: the paper shortcuts it by adding the fakes
    to the prior).  Each cycle ``n_users`` fresh honest users drawn from ``pi_island`` report through the
    current BA channel and :math:`\mathrm{round}(\delta n)` fake reports of A are added to the
    counts; IBU and BA as in Paris (8 BA, 10 IBU iterations per cycle).  Per round: the estimate of
    :math:`\pi(A)` after ``n_cycles`` and the row of A of the deployed BA (10 iterations)."""
    tasks = [
        (
            pi_island,
            float(b),
            int(k),
            step,
            n_users,
            n_cycles,
            PROTOCOL["paris"]["ba_iter"],
            PROTOCOL["paris"]["ibu_iter"],
        )
        for b in np.atleast_1d(betas)
        for k in np.atleast_1d(levels)
        for _ in range(rounds)
    ]
    return pd.DataFrame(sweep(_attack_task, tasks, seed=seed))


# ----------------------------------------------------------------------------- Example 5.1, Thm 5.1, Table II
@contract(target=Real(0, 2 / 3, low_open=True, high_open=True), tol=POSITIVE)
def example_5_1(target: float = 0.6, *, tol: float = 1e-14) -> dict:
    r"""Example 5.1 of the paper: three collinear points a, b, c (unit spacing), uniform prior, QoS bound.

    * "all -> b" has AvgD = 2/3 and rank 1; IBU leaves any start unchanged (``ibu_move``);
    * at a strictly feasible budget ``target`` < 2/3, the BA slope beta with converged AvgD = target is
      solved by Brent's method; its channel's singular values and the IBU estimates from two starts on
      counts (30, 50, 20) (20,000 iterations) are returned;
    * at beta = 0.3 (< the slope of the boundary D_max = 2/3), converged BA degenerates to all -> b
      (its singular values).
    """
    from scipy.optimize import brentq  # noqa: PLC0415 lazy: scipy/numpy submodule loaded at first use

    D3 = np.abs(np.subtract.outer(np.arange(3.0), np.arange(3.0)))
    u3 = np.ones(3) / 3
    to_b = np.tile([0.0, 1.0, 0.0], (3, 1))
    starts = (u3, np.array([0.2, 0.5, 0.3]), np.array([0.7, 0.1, 0.2]))
    move = max(float(np.max(np.abs(ibu(to_b, [0, 10, 0], theta0=t, tol=0, max_iter=100).estimate - t))) for t in starts)

    def converged(beta):
        return blahut_arimoto(u3, D3, beta, n_iter=None, tol=tol, max_iter=10**6).channel

    beta = brentq(lambda b: average_distortion(u3, converged(b), D3) - target, 0.4, 3.0, xtol=1e-13)
    C = converged(beta)
    e1 = ibu(C, [30, 50, 20], tol=0, max_iter=20_000).estimate
    e2 = ibu(C, [30, 50, 20], theta0=[0.6, 0.2, 0.2], tol=0, max_iter=20_000).estimate
    boundary = blahut_arimoto(u3, D3, 0.3, n_iter=None, tol=tol, max_iter=2 * 10**6)
    return {
        "all_to_b_avgd": average_distortion(u3, to_b, D3),
        "all_to_b_rank": int(np.linalg.matrix_rank(to_b)),
        "ibu_move": move,
        "beta": float(beta),
        "avgd": average_distortion(u3, C, D3),
        "sigma": np.linalg.svd(C, compute_uv=False),
        "ibu_two_starts": float(np.max(np.abs(e1 - e2))),
        "boundary_avgd": average_distortion(u3, boundary.channel, D3),
        "boundary_sigma": np.linalg.svd(boundary.channel, compute_uv=False),
    }


@contract(r=Real(0, None), beta=POSITIVE)
def levy_mixture(r: float, beta: float) -> float:
    r""":math:`\int_0^\infty e^{-rt}\,\mu_\beta(dt)` with the Lévy density
    :math:`\mu_\beta(dt) = \frac{\beta}{2\sqrt\pi}\, t^{-3/2} e^{-\beta^2/(4t)}\,dt \ge 0`, by quadrature.

    It equals :math:`e^{-\beta\sqrt r}`: the function :math:`r \mapsto e^{-\beta\sqrt r}` is completely
    monotone (Bernstein), which is the step the proof of Thm 5.1 needs.  Hence
    :math:`e^{-\beta\|x-y\|} = \int e^{-t\|x-y\|^2}\mu_\beta(dt)` is a positive mixture of Gaussian
    kernels and :math:`K = e^{-\beta D}` is strictly positive definite on distinct points (Schoenberg
    1938).  (The paper's proof calls :math:`\sqrt x` itself completely monotone, which it is not: it is a
    Bernstein function.)
    """
    from scipy.integrate import quad  # noqa: PLC0415 lazy: scipy/numpy submodule loaded at first use

    def f(t):
        return math.exp(-r * t) * beta / (2 * math.sqrt(math.pi)) * t**-1.5 * math.exp(-(beta**2) / (4 * t))

    return quad(f, 0, 1, limit=400)[0] + quad(f, 1, np.inf, limit=400)[0]


@contract(sides=Optional(Array(1, low=2, high=64, integer=True)), repeats=Integer(1, 1000), rng=RandomState())
def per_iteration_times(sides, *, repeats: int = 5, rng=None) -> pd.DataFrame | None:
    """Seconds per BA iteration and per IBU iteration on square grids of ``side x side`` cells (Table II's
    "complexity O(n^2)"): the median over ``repeats`` timings of 10 iterations, each averaged over
    enough calls to last about 10 ms.  ``sides=None``: not timed (None is returned)."""
    if sides is None:
        return None
    rng = check_random_state(rng)
    recs = []
    for side in sides:
        D = privic_distance((int(side), int(side)))
        m = D.shape[0]
        p = rng.dirichlet(np.ones(m))
        C = blahut_arimoto(p, D, 1.0, n_iter=10).channel
        y = simulate_counts(C, rng.multinomial(100_000, p), rng=rng)
        calls = max(1, int(2e6 / m**2))
        runs = {"BA": [], "IBU": []}
        for _ in range(repeats):
            for name, f in (
                ("BA", lambda: blahut_arimoto(p, D, 1.0, n_iter=10)),
                ("IBU", lambda: ibu(C, y, tol=0, max_iter=10, trace=False)),
            ):
                t0 = time.perf_counter()
                for _ in range(calls):
                    f()
                runs[name].append((time.perf_counter() - t0) / calls / 10)
        recs.append({"m": m, **{f"{k} s/iteration": float(np.median(v)) for k, v in runs.items()}})
    return pd.DataFrame(recs)


@contract(
    true_counts=Counts(),
    city=OneOf("paris", "sf"),
    beta=POSITIVE,
    repeats=Integer(1, 1000),
    rng=RandomState(),
)
def cycle_times(true_counts, city: str, *, beta: float = 1.0, repeats: int = 5, rng=None) -> dict:
    """Seconds per PRIVIC cycle of our BA and IBU at the paper's sizes (Table II's quantity): BA with the
    paper's iterations on the city's prior, IBU with the paper's iterations on one cycle's reports of all
    users; the median of ``repeats`` timings.  Machine-dependent: for display, never for a claim's status."""
    rng = check_random_state(rng)
    D = privic_distance(city)
    proto = PROTOCOL[city]
    pi = true_counts / true_counts.sum()
    C = blahut_arimoto(pi, D, beta, n_iter=proto["ba_iter"]).channel
    y = simulate_counts(C, true_counts, rng=rng)
    out = {}
    for name, f in (
        ("BA", lambda: blahut_arimoto(pi, D, beta, n_iter=proto["ba_iter"])),
        ("IBU", lambda: ibu(C, y, tol=0, max_iter=proto["ibu_iter"], trace=False)),
    ):
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            f()
            times.append(time.perf_counter() - t0)
        out[name] = float(np.median(times))
    return out


# ----------------------------------------------------------------------------- summaries for figures
@contract(
    prior=Array(1, low=0.0),
    betas=Array(None, low=0.0),
    lap_eps=Array(None, low=0.0),
    cell=Unchecked("a (row, column) cell", example=ISLAND_A),
    pad=Integer(0, 1000),
)
def fig2_rows(prior, betas, lap_eps, *, cell=ISLAND_A, pad: int = 5) -> tuple[dict, dict]:
    """The rows of ``cell`` drawn in Fig. 2: BA(prior, beta, 10 it.) and LAP at ``lap_eps`` (restricted to
    the grid cells, as the paper's maps show them), keyed by beta."""
    D = privic_distance("paris")
    c = flat_index("paris", cell)
    from ldpnb.papers.privic.model import inner_columns  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    inner = inner_columns("paris", pad)
    ba, lap = {}, {}
    for b, e in zip(np.atleast_1d(betas), np.atleast_1d(lap_eps)):
        ba[float(b)] = blahut_arimoto(prior, D, float(b)).channel[c]
        lap[float(b)] = lap_grid_channel("paris", float(e), pad=pad)[c, inner]
    return ba, lap


# ----------------------------------------------------------------------------- rate-distortion checks
@contract(
    channel=Array(2, low=0.0),
    prior=Array(1, low=0.0),
    distance=DistanceMatrix(),
    beta=POSITIVE,
    sign=OneOf(-1, 1),
)
def elastic_gap(channel, prior, distance, beta: float, sign: int = -1) -> float:
    r"""``max |C - E|`` with :math:`E_{xy} \propto q(y) e^{\pm\beta d(x,y)}`, :math:`q = \pi C` (Thm 3.1;
    ``sign=+1`` is the form printed in Eq. (8))."""
    q = prior @ channel
    E = q[None, :] * np.exp(sign * beta * distance)
    return float(np.max(np.abs(channel - E / E.sum(axis=1, keepdims=True))))


@contract(
    prior=Array(1, low=0.0),
    distance=DistanceMatrix(),
    beta=POSITIVE,
    max_iter=Optional(Integer(1, 10_000_000)),
    tol=POSITIVE,
)
def ba_fixpoint_gap(prior, distance, beta: float, *, max_iter: int | None, tol: float = 1e-8) -> float | None:
    r"""Thm 3.1 on a converged channel: :func:`elastic_gap` of BA run until :math:`\max|\Delta C| < ` ``tol``
    (at most ``max_iter`` iterations).  ``max_iter=None``: not run (None is returned).

    Examples
    --------
    >>> from ldpnb.papers.privic.model import privic_distance
    >>> D = privic_distance((2, 2))
    >>> ba_fixpoint_gap(np.full(4, 0.25), D, 1.0, max_iter=5_000) < 1e-6
    True
    >>> ba_fixpoint_gap(np.full(4, 0.25), D, 1.0, max_iter=None) is None
    True
    """
    if max_iter is None:
        return None
    fix = blahut_arimoto(prior, distance, beta, n_iter=None, tol=tol, max_iter=max_iter)
    return elastic_gap(fix.channel, prior, distance, beta)


@contract(prior=Array(1, low=0.0), distance=DistanceMatrix(), betas=Array(1, low=0.0), h=POSITIVE)
def rd_identities(prior, distance, betas, *, h: float = 1e-3) -> tuple[np.ndarray, np.ndarray]:
    r"""Two identities of the rate-distortion curve at slope :math:`-\beta` (Def. 2.9; Csiszar 1974), from
    BA run to convergence: the central-difference slope :math:`\Delta R / \Delta D` between
    :math:`\beta \pm h` (should be :math:`-\beta`) and :math:`|R - R_{closed}|` with
    :math:`R_{closed} = -\beta\,\mathrm{AvgD} - \sum_x \pi(x) \log Z(x)` (should be 0)."""
    from ldpnb.mechanisms.rate_distortion import rd_closed_form, rd_point  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    slopes, gaps = [], []
    for b in betas:
        (r1, d1, _), (r0, d0, _) = rd_point(prior, distance, b + h), rd_point(prior, distance, b - h)
        r, _, res = rd_point(prior, distance, b)
        slopes.append((r1 - r0) / (d1 - d0))
        gaps.append(abs(r - rd_closed_form(prior, distance, b, res.output_marginal)))
    return np.array(slopes), np.array(gaps)


@contract(
    prior=Array(1, low=0.0),
    shape=_SHAPE,
    betas=Array(1, low=0.0),
    lap_eps=Array(1, low=0.0),
    max_iter=Integer(1, 100_000_000),
)
def mi_qos_plane(prior, shape, betas, lap_eps, *, max_iter: int = 5_000) -> dict:
    r"""BA (run to ``max |dC| < 1e-6``, and 10 iterations) and LAP on the grid (no padding) as points
    ``(I(X;Y), AvgD)`` (Sec. 3), and the smallest Lagrangian gap
    :math:`\min_{\beta, \text{LAP}} [I + \beta\,\mathrm{AvgD}]_{LAP} - [I + \beta\,\mathrm{AvgD}]_{BA}`,
    which is >= 0 when BA optimises the trade-off."""
    from ldpnb.mechanisms.rate_distortion import mutual_information_nats, rd_point  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    D = privic_distance(shape)

    def point(C):
        return mutual_information_nats(prior, C), average_distortion(prior, C, D)

    ba = np.array([rd_point(prior, D, b, tol=1e-6, max_iter=max_iter)[:2] for b in betas])
    ba10 = np.array([point(blahut_arimoto(prior, D, b).channel) for b in betas])
    lap = np.array([point(lap_grid_channel(shape, e, pad=0)) for e in lap_eps])
    gap = min(float(np.min(lap[:, 0] + b * lap[:, 1] - ba[i, 0] - b * ba[i, 1])) for i, b in enumerate(betas))
    return {"ba": ba, "ba10": ba10, "lap": lap, "min_gap": gap}


@contract(prior=Array(1, low=0.0), distance=DistanceMatrix(), betas=Array(1, low=0.0), n_iter=Integer(1, 10_000_000))
def qos_among_fixpoints(prior, distance, betas, *, n_iter: int = 20_000) -> pd.DataFrame:
    r"""Sec. 3.1's "the one produced by BA offers the best QoS" among the self-consistent elastic
    mechanisms (Eqs. (3)-(4)), checked exhaustively on a small space.

    For each beta: BA's limit (run to ``max |dC| < 1e-13``) and every fixpoint of BA's map, one per
    output support (:func:`~ldpnb.papers.privic.model.elastic_fixpoints` over
    :func:`~ldpnb.papers.privic.model.all_supports`; :math:`2^m - 1` supports, so ``m`` up to about 14).
    Returns per beta: ``AvgD BA``, ``min AvgD`` over the fixpoints, ``gap`` = min AvgD - AvgD BA (>= 0 when
    BA's QoS is the best), the support of the fixpoint attaining it, and the largest fixpoint ``residual``.
    """
    from ldpnb.papers.privic.model import all_supports, elastic_fixpoints  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    S = all_supports(prior.size)
    recs = []
    for b in np.atleast_1d(betas):
        lim = blahut_arimoto(prior, distance, float(b), n_iter=None, tol=1e-13, max_iter=10**6)
        fx = elastic_fixpoints(prior, distance, float(b), S, n_iter=n_iter)
        a = average_distortion(prior, lim.channel, distance)
        j = int(fx["AvgD"].idxmin())
        recs.append(
            {
                "beta": float(b),
                "AvgD BA": a,
                "min AvgD": float(fx["AvgD"].min()),
                "gap": float(fx["AvgD"].min()) - a,
                "argmin support": int(fx.loc[j, "support"]),
                "BA support": int(np.sum(lim.output_marginal > 1e-9)),
                "residual": float(fx["residual"].max()),
            }
        )
    return pd.DataFrame(recs)


# ----------------------------------------------------------------------------- the maximum-likelihood rounds
@contract(runs=Unchecked("{protocol: {city: run_privic result}}", example=None))
def mle_frame(runs: dict) -> pd.DataFrame:
    """The maximum-likelihood lines of :func:`run_privic` for several protocols and cities, one table with
    columns ``protocol, city`` added."""
    parts = [r[1].assign(protocol=p, city=c) for p, by_city in runs.items() for c, r in by_city.items()]
    return pd.concat(parts, ignore_index=True)


@contract(
    counts=Unchecked("{city: the true counts}", example=None),
    rounds=Unchecked("{(protocol, city, beta): rounds, 0 to skip}", example=None),
    seed=Integer(0, 2**32 - 1),
    mle_tol=POSITIVE,
)
def mle_runs(counts: dict, rounds: dict, *, seed: int, mle_tol: float = 1e-6) -> pd.DataFrame:
    """The maximum-likelihood rounds of the chapter: for every ``(protocol, city, beta)`` of ``rounds`` with a
    positive count, that many PRIVIC rounds with the certified MLE (:func:`run_privic` with ``mle_betas``),
    each cell on its own stream ``seed_for(seed, "mle/<protocol>/<city>/<beta>")``; their lines in one table
    (:func:`mle_frame`'s columns).  Every count is checked (at most 100,000) before any round runs."""
    from ldpnb.repro.seeds import seed_for  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    cells = {}
    for key, r in rounds.items():
        p, c, b = key
        if p not in PROTOCOLS or c not in counts:
            raise ValueError(f"unknown cell {key!r}: protocol in {PROTOCOLS}, city in {sorted(counts)}")
        if isinstance(r, bool) or not isinstance(r, (int, np.integer)) or not 0 <= r <= 100_000:
            raise ValueError(f"rounds of {key!r} must be an integer in [0, 100000], got {r!r}")
        if r:
            cells[(p, c, float(b))] = int(r)
    parts = []
    for (p, c, b), r in cells.items():
        res = run_privic(
            counts[c], c, [b], r, seed=seed_for(seed, f"mle/{p}/{c}/{b:g}"), protocol=p, mle_betas=(b,), mle_tol=mle_tol
        )
        parts.append(res[1].assign(protocol=p, city=c))
    if not parts:
        raise ValueError("no cell has a positive number of rounds")
    return pd.concat(parts, ignore_index=True)
