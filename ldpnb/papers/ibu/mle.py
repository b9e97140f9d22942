r"""The maximum-likelihood estimate of the runs of Sec. 7 of ElSalamouny and Palamidessi, *On the
consistency and performance of the iterative Bayesian update* (arXiv 2508.09980), certified on the
estimate.

IBU (the paper's Algorithm 1) converges to an MLE, but the paper stops it by a rule on the change of
the log-likelihood whose threshold it does not print.  To show where the MLE itself lies, each run's
MLE is computed by an interior-point method and certified by a bound on its earth mover's distance to
the exact MLE (:mod:`ldpnb.estimators._certify`): a certificate on the log-likelihood alone (``gap``)
is not one on the estimate where the likelihood is flat.  :func:`mle_runs` does this for a batch of
runs; :func:`mle_cross_check` compares it with an independent algorithm (EM accelerated by SQUAREM,
:func:`ldpnb.estimators.ibu`) at several certified gaps.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ldpnb.contracts import Array, Callable_, Channel, Counts, DistanceMatrix, contract
from ldpnb.estimators._certify import mle_distance_bound, mle_interior_point
from ldpnb.estimators._ibu import ibu
from ldpnb.estimators._likelihood import is_strictly_concave
from ldpnb.measures.utility import emd

__all__ = ["SUPPORT_FLOOR", "mle_runs", "mle_cross_check", "strictly_concave_runs"]

#: Entries of an interior-point estimate below this are set to 0 before the EMD is computed (they
#: are ~1e-14 off the MLE's support; dropping them keeps the transport problems small).  The bound
#: adds the distance this moves the estimate.
SUPPORT_FLOOR = 1e-12

_EX_M = np.array([[0.75, 0.25], [0.25, 0.75]])
_EX_D = np.array([[0.0, 1.0], [1.0, 0.0]])


def _sparse(E: np.ndarray, D: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``E`` with entries below :data:`SUPPORT_FLOOR` zeroed and renormalised, and the W1 bound of the
    change, ``max D * |E - E'|_1 / 2``."""
    S = np.where(E < SUPPORT_FLOOR, 0.0, E)
    S /= S.sum(axis=1, keepdims=True)
    return S, D.max() * np.abs(S - E).sum(axis=1) / 2.0


@contract(
    channel=Channel(atol=1e-8),
    counts=Counts(2),
    theta=Array((1, 2), low=0.0),
    distance=DistanceMatrix(),
    metric=Callable_(),
)
def mle_runs(channel, counts, theta, distance, *, metric: Callable) -> dict[str, Any]:
    r"""The exact MLE of each run (row of ``counts``), its distance to ``theta`` and its certificate.

    Parameters
    ----------
    channel : (k, m) array
    counts : (R, m) int array
        The reports of ``R`` runs.
    theta : (k,) or (R, k) array
        The true distribution (or one per run, Rappor's re-drawn inputs).
    distance : (k, k) array
        The metric of the earth mover's distance (years, km).
    metric : callable
        ``metric(P, theta) -> (R,)``, the EMD of each row of ``P`` to ``theta`` under ``distance``.

    Returns
    -------
    dict
        Arrays over the runs: ``"MLE"`` (EMD to ``theta``), ``"mle_bound"`` (certified bound on the EMD
        from the computed point to the exact MLE, hence on ``|MLE - EMD(exact MLE, theta)|``),
        ``"mle_gap"`` (certificate on :math:`\ell`, nats per report), ``"mle_certified"`` (the solver
        converged and the bound is finite), ``"mle_iter"`` (Newton steps) and ``"mle_estimates"``
        ``(R, k)`` (the estimates whose EMD is reported).
    """
    res = mle_interior_point(channel, counts)
    bound = mle_distance_bound(channel, counts, res.estimate, distance=distance)
    S, moved = _sparse(np.atleast_2d(res.estimate), distance)
    w1 = np.asarray(bound["w1"]) + moved
    return {
        "MLE": np.asarray(metric(S, theta)),
        "mle_bound": w1,
        "mle_gap": np.asarray(res.gap),
        "mle_certified": np.asarray(res.converged) & np.isfinite(w1),
        "mle_iter": np.asarray(res.n_iter),
        "mle_estimates": S,
    }


@contract(
    channel=Channel(atol=1e-8),
    counts=Counts(2),
    theta=Array(1, low=0.0),
    distance=DistanceMatrix(),
    metric=Callable_(),
    tols=Array(1, low=0.0, low_open=True, max_size=16),
)
def mle_cross_check(channel, counts, theta, distance, *, metric: Callable, tols=(1e-6, 1e-8, 1e-10)) -> dict[str, Any]:
    r"""The certified MLE of :func:`mle_runs` against EM accelerated by SQUAREM (an independent algorithm)
    run to each certified gap of ``tols`` (decreasing; each continues from the previous one).

    Returns ``"emd_em"`` ``(len(tols), R)`` (EMD to ``theta`` at each gap), ``"bound_em"`` (the certified
    distance bound of those points), ``"emd_mle"``, ``"bound_mle"`` ``(R,)`` (the interior-point MLE),
    ``"between"`` ``(R,)`` (EMD between the EM point at the last gap and the MLE) and ``"violations"``:
    runs where ``between`` exceeds the sum of the two points' bounds (both bound their distance to the
    same exact MLE, so a violation means that a solver or a bound is wrong).
    """
    tols = np.asarray(tols, dtype=float)
    if np.any(np.diff(tols) >= 0):
        raise ValueError("tols must be strictly decreasing")
    mle = mle_runs(channel, counts, theta, distance, metric=metric)
    theta0, emds, bounds = None, [], []
    for t in tols:
        r = ibu(channel, counts, theta0=theta0, criterion="gap", tol=float(t), accelerate="squarem", max_iter=10**7)
        theta0 = r.estimate
        emds.append(metric(r.estimate, theta))
        bounds.append(mle_distance_bound(channel, counts, r.estimate, distance=distance)["w1"])
    between = np.array([emd(a, b, distance) for a, b in zip(theta0, mle["mle_estimates"])])
    return {
        "emd_em": np.array(emds),
        "bound_em": np.array(bounds),
        "emd_mle": mle["MLE"],
        "bound_mle": mle["mle_bound"],
        "between": between,
        "violations": int(np.sum(between > bounds[-1] + mle["mle_bound"])),
    }


@contract(channel=Channel(atol=1e-8), counts=Counts(2))
def strictly_concave_runs(channel, counts) -> int:
    r"""How many runs (rows of ``counts``) have a strictly concave log-likelihood, hence a unique MLE
    (Thm 4.1, Prop. 5.1): :math:`\operatorname{rank}[G \mid \mathbf 1] = |\mathcal X|` with the columns of
    ``channel`` at the observed outputs (repeated observations do not change the rank).  Runs with the
    same observed outputs are tested once."""
    if counts.shape[1] != channel.shape[1]:
        raise ValueError(f"counts must have {channel.shape[1]} columns (the channel's outputs), got {counts.shape[1]}")
    patterns, n = np.unique(counts > 0, axis=0, return_counts=True)
    return int(sum(c for p, c in zip(patterns, n) if is_strictly_concave(channel[:, p])))
