r"""The estimation experiments of ElSalamouny and Palamidessi, *On the consistency and performance of
the iterative Bayesian update* (arXiv 2508.09980), Sec. 7, and the grids of their location data.

One obfuscation-estimation run (Sec. 7.1-7.3): the users' values (a fixed histogram ``N`` of ages or
of check-in cells) are obfuscated by a mechanism :math:`M` (exact count-level sampling: one
multinomial per input value), and the distribution :math:`\theta = N / n` is estimated from the
reports by

* **IBU** (Algorithm 1) with the paper's stopping rule :math:`|\ell(\theta^t) - \ell(\theta^{t-1})| <
  \delta` on the normalised log-likelihood :math:`\ell = L/n` (the paper states the rule on
  :math:`L`; its :math:`\delta` is not printed), and the certified optimality gap
  :math:`\log\max_x r_x` of the iterate where it stops;
* optionally (``mle_reps``) IBU accelerated by SQUAREM run to a certified gap
  :math:`\ell(\hat\theta_{MLE}) - \ell(\hat\theta) \le 10^{-6}` (:func:`ldpnb.estimators.ibu`) on
  the first runs: a certificate on the likelihood only, which does not bound the estimate where the
  likelihood is flat (the chapter uses :mod:`ldpnb.papers.ibu.mle` instead);
* **INV-N** and **INV-P**: :math:`v = qM^{-1}`, clipped and renormalised, or projected on the simplex.

Each estimate is scored by the earth mover's distance to :math:`\theta` (in years on the ages, in km
on the grid).  Basic Rappor (Sec. 7.5) re-samples the inputs in every run and uses the per-bit
estimator of Kairouz et al. (2016) for INV-N and INV-P.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, Callable

import numpy as np

from ldpnb.channels._generic import simulate_counts_batch
from ldpnb.contracts import (
    POSITIVE,
    AnyOf,
    Array,
    Boolean,
    Callable_,
    Channel,
    Counts,
    DistanceMatrix,
    Distribution,
    Instance,
    Integer,
    RandomState,
    Real,
    contract,
)
from ldpnb.data.grid import Grid
from ldpnb.estimators._ibu import ibu
from ldpnb.estimators._inversion import clip_normalize, project_simplex_rows, rappor_unbiased
from ldpnb.measures.utility import emd_1d_rows, emd_rows
from ldpnb.mechanisms import SUE, Mechanism
from ldpnb.utils import check_random_state

__all__ = [
    "MLE_TOL",
    "estimation_trials",
    "Trials",
    "location_metric",
    "rappor_trials",
    "RapporTrials",
    "threshold_sweep",
    "run_estimates",
    "cpu_seconds",
    "manhattan_grid",
    "sf_ibu_grid",
]

#: The certified gap on the log-likelihood (nats per report) of the optional SQUAREM runs (``mle_reps``).
#: It bounds the likelihood, not the estimate: the chapter's MLE is :func:`ldpnb.papers.ibu.mle.mle_runs`.
MLE_TOL = 1e-6


def _mle(M: np.ndarray, C: np.ndarray, tol: float, max_iter: int):
    """The certified MLE of each row of ``C`` (SQUAREM, criterion ``gap``)."""
    return ibu(M, C, criterion="gap", tol=tol, accelerate="squarem", max_iter=max_iter)


_MECHANISM_OR_CHANNEL = AnyOf(Channel(atol=1e-8), Instance(Mechanism, example=None))


@contract(
    channel=_MECHANISM_OR_CHANNEL,
    input_counts=Counts(),
    reps=Integer(1, 100_000),
    metric=Callable_(),
    rng=RandomState(),
    tol=Real(0, None),
    max_iter=Integer(0, 10**7),
    with_ibu=Boolean(),
    with_inv=Boolean(),
    mle_reps=Integer(0, 100_000),
    mle_tol=POSITIVE,
    mle_max_iter=Integer(1, 10**7),
)
def estimation_trials(
    channel,
    input_counts,
    reps: int,
    *,
    metric: Callable,
    rng=None,
    tol: float = 1e-8,
    max_iter: int = 20_000,
    with_ibu: bool = True,
    with_inv: bool = True,
    mle_reps: int = 0,
    mle_tol: float = MLE_TOL,
    mle_max_iter: int = 1_000_000,
) -> dict[str, Any]:
    r"""``reps`` independent obfuscation-estimation runs on the fixed input histogram (Sec. 7.1-7.3).

    Parameters
    ----------
    channel : Mechanism or (k, m) array
        The mechanism: a :class:`~ldpnb.mechanisms.Mechanism` (its float channel
        :meth:`~ldpnb.mechanisms.Mechanism.channel` and its batch sampler
        ``simulate_counts(N, size=reps)``), or its channel matrix (rows = inputs).
    input_counts : (k,) int array
        The users' values as a histogram; :math:`\theta` = ``input_counts / n``.
    metric : callable
        ``metric(P, theta) -> (R,)``: the distance of each row of ``P`` to ``theta``.
    tol, max_iter
        The paper's stopping rule :math:`|\Delta\ell| <` ``tol`` (Algorithm 1, on :math:`\ell = L/n`).
    with_ibu, with_inv
        Run IBU; run INV-N and INV-P (square channels only).
    mle_reps, mle_tol, mle_max_iter
        Certify the MLE (gap <= ``mle_tol``) on the first ``mle_reps`` runs.

    Returns
    -------
    dict
        Arrays over the runs: ``"IBU"``, ``"n_iter"``, ``"stopped"`` (the rule fired before
        ``max_iter``), ``"gap_stop"`` (the certified gap where IBU stopped), ``"MLE"`` (first
        ``mle_reps`` runs), ``"mle_evals"``, ``"mle_certified"``, ``"INV-N"``, ``"INV-P"``, ``"noisy"``
        (when ``Z = X``), and ``"counts"`` (the reports, ``(reps, m)``).
    """
    rng = check_random_state(rng)
    mechanism = channel if isinstance(channel, Mechanism) else None
    if mechanism is not None:
        channel = mechanism.channel()
    if input_counts.size != channel.shape[0] or input_counts.sum() <= 0:
        raise ValueError(
            f"input_counts must have length {channel.shape[0]} (the channel's inputs) and a positive total"
        )
    if mle_reps > reps:
        raise ValueError(f"mle_reps ({mle_reps}) cannot exceed reps ({reps})")
    theta = input_counts / input_counts.sum()
    if mechanism is not None:  # one multinomial per input value on the float channel (size=reps)
        C = mechanism.simulate_counts(input_counts, size=reps, rng=rng)
    else:
        C = simulate_counts_batch(channel, input_counts, reps, rng=rng)
    out: dict[str, Any] = {"counts": C}
    if with_ibu:
        res = ibu(channel, C, tol=tol, max_iter=max_iter)
        out.update(
            {
                "IBU": metric(res.estimate, theta),
                "n_iter": np.asarray(res.n_iter),
                "stopped": np.asarray(res.stopped),
                "gap_stop": np.asarray(res.gap),
            }
        )
    if mle_reps:
        mle = _mle(channel, C[:mle_reps], mle_tol, mle_max_iter)
        out.update(
            {
                "MLE": metric(mle.estimate, theta),
                "mle_evals": np.asarray(mle.n_iter),
                "mle_certified": np.asarray(mle.certified(mle_tol)),
            }
        )
    square = channel.shape[0] == channel.shape[1]
    if square:
        Q = C / C.sum(axis=1, keepdims=True)
        out["noisy"] = metric(Q, theta)
        if with_inv:
            V = np.linalg.solve(channel.T, Q.T).T
            out["INV-N"], out["INV-P"] = metric(clip_normalize(V), theta), metric(project_simplex_rows(V), theta)
    return out


@contract(distance=DistanceMatrix())
def location_metric(distance) -> Callable:
    """The metric of the location panels: the EMD by optimal transport on ``distance`` (km between
    the cells), row by row (``emd_rows(P, theta, distance)``)."""
    return partial(emd_rows, ground_distance=distance)


@dataclass(frozen=True)
class Trials:
    """The runs of one panel of Figs. 9 and 10, for any mechanism (Sec. 7.1-7.3).

    ``Trials(N, reps, metric, tol, max_iter, mle_reps)(m, rng)`` is :func:`estimation_trials` of the
    mechanism ``m`` on the input histogram ``N``, with ``"eps"`` (``m.epsilon``) added; a task may
    also be ``(m, mle_reps)`` to certify the MLE on a number of runs chosen per mechanism.  It is
    the task function of :func:`ldpnb.repro.parallel.sweep` over a list of mechanisms::

        panel = [mech.TruncatedGeometric(100, e) for e in eps]
        runs = sweep(Trials(N_age, reps, measures.emd_1d_rows, tol, max_iter), panel, seed=...)

    Attributes
    ----------
    input_counts : (k,) int array
    reps : int
    metric : callable
        ``metric(P, theta) -> (R,)``: :func:`ldpnb.measures.emd_1d_rows` on a line,
        :func:`location_metric` on a grid.
    tol, max_iter, mle_reps
        As in :func:`estimation_trials`.
    """

    input_counts: Any
    reps: int
    metric: Callable
    tol: float = 1e-8
    max_iter: int = 20_000
    mle_reps: int = 0

    def __call__(self, task: Any, rng: Any = None) -> dict[str, Any]:
        m, mle_reps = task if isinstance(task, tuple) else (task, self.mle_reps)
        if not isinstance(m, Mechanism):
            raise TypeError(f"task must be a Mechanism or a pair (Mechanism, mle_reps), got {type(m).__name__}")
        out = estimation_trials(
            m,
            self.input_counts,
            self.reps,
            metric=self.metric,
            rng=rng,
            tol=self.tol,
            max_iter=self.max_iter,
            mle_reps=int(mle_reps),
        )
        out["eps"] = m.epsilon
        return out


#: Trials' fields, with estimation_trials' rules (checked when the panel is declared, not in the workers).
Trials.__init__ = contract(  # type: ignore[method-assign]
    input_counts=Counts(),
    reps=Integer(1, 100_000),
    metric=Callable_(),
    tol=Real(0, None),
    max_iter=Integer(0, 10**7),
    mle_reps=Integer(0, 100_000),
)(Trials.__init__)


@contract(
    theta=Distribution(),
    n=Integer(1, 10**9),
    epsilon=Real(0, 50, low_open=True),
    reps=Integer(1, 100_000),
    rng=RandomState(),
    tol=Real(0, None),
    max_iter=Integer(0, 10**7),
    mle_reps=Integer(0, 100_000),
    mle_tol=POSITIVE,
)
def rappor_trials(
    theta,
    n: int,
    epsilon: float,
    reps: int,
    *,
    rng=None,
    tol: float = 1e-8,
    max_iter: int = 20_000,
    mle_reps: int = 0,
    mle_tol: float = MLE_TOL,
) -> dict[str, Any]:
    r"""Sec. 7.5: per run, ``n`` inputs are drawn from ``theta`` (re-sampled in each run), obfuscated by
    basic Rappor (count-level over the :math:`2^k` bit patterns, pattern index :math:`\sum_j b_j 2^j`;
    the channel of Lemma 4.4, :func:`ldpnb.mechanisms.rappor_channel`), and estimated by IBU on the
    pattern counts, by the certified MLE (first ``mle_reps`` runs) and by the per-bit estimator
    :math:`v_y = (c_y/n - (1-p))/(2p-1)` followed by INV-N and INV-P (Kairouz et al. 2016).
    Distances: 1-D EMD (unit spacing) to the run's empirical input histogram.

    Returns arrays over the runs (``"IBU"``, ``"MLE"``, ``"INV-N"``, ``"INV-P"``, ``"n_iter"``,
    ``"stopped"``, ``"gap_stop"``, ``"mle_evals"``, ``"mle_certified"``), the input histograms
    ``"inputs"`` ``(reps, k)``, the IBU estimates ``"estimates"`` ``(reps, k)`` and the pattern counts
    ``"counts"`` ``(reps, 2^k)``.
    """
    from ldpnb.mechanisms.unary import rappor_channel  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    rng = check_random_state(rng)
    k = theta.size
    if k > 16:
        raise ValueError("rappor_trials enumerates 2^k patterns: theta must have at most 16 values")
    if mle_reps > reps:
        raise ValueError(f"mle_reps ({mle_reps}) cannot exceed reps ({reps})")
    M = rappor_channel(k, epsilon)
    bits = (np.arange(2**k)[:, None] >> np.arange(k)) & 1  # pattern -> bits
    Nin = rng.multinomial(n, theta, size=reps)
    C = np.stack([simulate_counts_batch(M, Nin[r], 1, rng=rng)[0] for r in range(reps)])
    T = Nin / n
    res = ibu(M, C, tol=tol, max_iter=max_iter)
    V = rappor_unbiased(C @ bits, np.full(reps, float(n)), epsilon)
    out = {
        "IBU": emd_1d_rows(res.estimate, T),
        "INV-N": emd_1d_rows(clip_normalize(V), T),
        "INV-P": emd_1d_rows(project_simplex_rows(V), T),
        "n_iter": np.asarray(res.n_iter),
        "stopped": np.asarray(res.stopped),
        "gap_stop": np.asarray(res.gap),
        "inputs": Nin,
        "estimates": res.estimate,
        "counts": C,
    }
    if mle_reps:
        mle = _mle(M, C[:mle_reps], mle_tol, 1_000_000)
        out.update(
            {
                "MLE": emd_1d_rows(mle.estimate, T[:mle_reps]),
                "mle_evals": np.asarray(mle.n_iter),
                "mle_certified": np.asarray(mle.certified(mle_tol)),
                "mle_estimates": mle.estimate,
            }
        )
    return out


@dataclass(frozen=True)
class RapporTrials:
    """The runs of one panel of Fig. 12 (Sec. 7.5), for basic Rappor as a mechanism object.

    ``RapporTrials(theta, n, reps, tol, max_iter, mle_reps)(m, rng)`` is :func:`rappor_trials` at
    ``m.epsilon`` (``m`` a :class:`~ldpnb.mechanisms.SUE` on ``theta.size`` values: basic one-time
    Rappor, whose channel on the :math:`2^k` bit patterns is the one :func:`rappor_trials` samples),
    with ``"eps"`` added.  The task function of :func:`ldpnb.repro.parallel.sweep` over a list of
    mechanisms::

        panel = [mech.SUE(10, e) for e in eps]
        runs = sweep(RapporTrials(theta, 100_000, reps, tol, max_iter), panel, seed=...)

    Attributes
    ----------
    theta : (k,) distribution
        The inputs' distribution (``n`` inputs drawn from it in every run).
    n, reps : int
    tol, max_iter, mle_reps
        As in :func:`rappor_trials`.
    """

    theta: Any
    n: int
    reps: int
    tol: float = 1e-8
    max_iter: int = 20_000
    mle_reps: int = 0

    def __call__(self, task: Any, rng: Any = None) -> dict[str, Any]:
        if not isinstance(task, SUE):
            raise TypeError(f"task must be basic Rappor, a mechanisms.SUE, got {type(task).__name__}")
        if task.k != np.size(self.theta):
            raise ValueError(f"the mechanism has k = {task.k} values, theta has {np.size(self.theta)}")
        out = rappor_trials(
            self.theta,
            self.n,
            task.epsilon,
            self.reps,
            rng=rng,
            tol=self.tol,
            max_iter=self.max_iter,
            mle_reps=self.mle_reps,
        )
        out["eps"] = task.epsilon
        return out


#: RapporTrials' fields, with rappor_trials' rules.
RapporTrials.__init__ = contract(  # type: ignore[method-assign]
    theta=Distribution(),
    n=Integer(1, 10**9),
    reps=Integer(1, 100_000),
    tol=Real(0, None),
    max_iter=Integer(0, 10**7),
    mle_reps=Integer(0, 100_000),
)(RapporTrials.__init__)


@contract(channel=Channel(atol=1e-8), counts=Counts(2), tols=Array(1, low=0.0, max_size=64), max_iter=Integer(1, 10**7))
def threshold_sweep(channel, counts, tols, *, max_iter: int = 200_000) -> dict[str, np.ndarray]:
    r"""IBU under the paper's rule :math:`|\Delta\ell| < \delta` for a decreasing list of thresholds
    :math:`\delta`, in one pass: the run for each :math:`\delta` continues from the estimate of the
    previous (larger) one, so that the total cost is that of the smallest :math:`\delta`.

    (Continuing re-checks the rule from the next update on, so when two thresholds fire on the same
    update the smaller one stops one update later than in a single run: a negligible difference.)

    Returns ``{"estimates": (len(tols), R, k), "n_iter": (len(tols), R), "gap": (len(tols), R)}``
    (cumulative updates; the certified gap at each stop).
    """
    if np.any(np.diff(tols) >= 0) or np.any(tols <= 0):
        raise ValueError("tols must be positive and strictly decreasing")
    est, its, gaps = [], [], []
    theta0, done = None, np.zeros(counts.shape[0], dtype=np.int64)
    for t in tols:
        r = ibu(channel, counts, theta0=theta0, tol=float(t), max_iter=max_iter)
        done = done + np.asarray(r.n_iter)
        est.append(r.estimate)
        its.append(done.copy())
        gaps.append(np.asarray(r.gap))
        theta0 = r.estimate
    return {"estimates": np.stack(est), "n_iter": np.stack(its), "gap": np.stack(gaps)}


# ---------------------------------------------------------------------------------------------
# the grids of the paper's location data


@contract()
def manhattan_grid() -> Grid:
    """The Manhattan grid of Sec. 7.2: latitudes 40.7044-40.7942, longitudes -74.0205 to -73.9374,
    20 x 14 cells of about 0.5 km (the paper: "an area of 10 km x 7 km")."""
    return Grid(40.7044, 40.7942, -74.0205, -73.9374, rows=20, cols=14)


@contract()
def sf_ibu_grid() -> Grid:
    """A 5 x 5 grid of about 1 km cells in San Francisco for Sec. 6.4 / Fig. 6 (the paper gives a
    5 km x 5 km region but no coordinates: latitudes 37.7480-37.7930, longitudes -122.4500 to
    -122.3932, a dense part of the Gowalla check-ins, is our choice)."""
    return Grid(37.7480, 37.7930, -122.4500, -122.3932, rows=5, cols=5)


@contract(channel=Channel(atol=1e-8), counts=Counts(), tol=Real(0, None), max_iter=Integer(0, 10**7))
def run_estimates(channel, counts, *, tol: float = 1e-8, max_iter: int = 20_000) -> dict[str, np.ndarray]:
    """The estimates of one run (for drawing Figs. 1 and 8): the noisy distribution ``q``, INV-N,
    INV-P (square channels) and IBU under the paper's rule."""
    from ldpnb.estimators._inversion import inv_normalized, inv_projected  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    out = {"noisy": counts / counts.sum(), "IBU": ibu(channel, counts, tol=tol, max_iter=max_iter).estimate}
    if channel.shape[0] == channel.shape[1]:
        out["INV-N"], out["INV-P"] = inv_normalized(channel, counts), inv_projected(channel, counts)
    return out


@contract(func=Callable_(), repeats=Integer(1, 1000))
def cpu_seconds(func: Callable, repeats: int = 3) -> tuple[Any, float]:
    """``(func(), median CPU seconds of `repeats` calls)``: process time, not wall time, so that a
    shared machine does not inflate it (for the timing claims of Sec. 8)."""
    import time  # noqa: PLC0415 lazy: loaded at first use

    out, secs = None, []
    for _ in range(repeats):
        t = time.process_time()
        out = func()
        secs.append(time.process_time() - t)
    return out, float(np.median(secs))
