r"""The estimators of the synthesis chapter, in one place.

Every estimate of the input distribution that the chapter computes goes through this module, so
that the chapter compares each mechanism with the estimator practitioners use for it:

* :func:`standard_estimate`: for a frequency oracle (GRR, SUE, OUE, BLH, OLH, SS) the unbiased
  support-count estimate :math:`\hat f(v) = (C(v) - nq)/(n(p - q))` of Wang et al. (2017) (printed as
  Eq. (2) of the risks paper, Arcolezi et al. 2023),
  the ``MI`` of multi-freq-ldpy, computed from the support counts of the same reports; for k-RR this
  is the closed-form inversion of the channel.  A mechanism without a support structure gets the
  inverse of its channel when it is square and invertible (the IBU paper's INV), else the
  minimum-norm least-squares solution (the only linear estimate left when the channel merges inputs);
* :func:`ibu_certified`: the iterative Bayesian update run until its certificate (an upper bound on
  the log-likelihood gap to the maximum, nats per report) is below :data:`IBU_GAP`: the maximum-
  likelihood estimate to that precision;
* :func:`ibu_early`: IBU stopped by the IBU paper's rule (the log-likelihood per report changes by
  less than :data:`EARLY_TOL` between two iterates).  From the uniform start this stops early where
  the likelihood is flat: a regulariser, shown separately, never as "IBU";
* :func:`clip` (INV-N: negatives to 0, renormalised) and :func:`project` (Euclidean projection onto
  the simplex, which is Norm-Sub of Wang et al. 2020) turn a linear estimate into a distribution.

A frequency oracle's standard estimate is its own :meth:`~ldpnb.mechanisms.FrequencyOracle.estimate`
(``estimate(support_counts, n)``), vectorised over runs when the family keeps the base formula.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ldpnb import estimators
from ldpnb.channels.structured import DiagPlusConstChannel
from ldpnb.contracts import Array, Channel, Counts, Instance, Real, contract
from ldpnb.mechanisms import GRR, FrequencyOracle, Mechanism

__all__ = [
    "IBU_GAP",
    "EARLY_TOL",
    "support_estimate",
    "standard_estimate",
    "standard_matrix",
    "ibu_certified",
    "ibu_support",
    "ibu_early",
    "clip",
    "project",
    "in_simplex",
]

_MECH = Instance(Mechanism, example=GRR(4, 1.0))
_ORACLE = Instance(FrequencyOracle, example=GRR(4, 1.0))
_COUNTS = Counts((1, 2))
_RAW = Array((1, 2), min_size=1)

#: Certified log-likelihood gap (nats per report) at which IBU counts as converged.
IBU_GAP = 1e-10
#: The IBU paper's stopping rule: change of the log-likelihood per report between two iterates.
EARLY_TOL = 1e-9


def _stochastic(m: Any) -> np.ndarray:
    C = np.exp(m.log_channel())  # entries below float64's range are 0 (BA's vanishing outputs)
    return C / C.sum(axis=1, keepdims=True)


@contract(m=_MECH, C=Instance(np.ndarray, type(None), example=None))
def standard_matrix(m: Any, C: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    r"""``(A, b)`` with the standard estimate ``theta_hat = q A + b`` for report frequencies ``q``
    (one per column of ``m``'s channel).

    Frequency oracle: ``A = S / (p - q)`` with ``S`` the column supports, ``b = -q / (p - q)``
    (Wang et al. 2017); otherwise ``A`` is the inverse (square) or the pseudo-inverse of the
    channel and ``b = 0``.
    """
    if isinstance(m, FrequencyOracle):
        S = np.asarray(m.column_support(), dtype=float)
        return S / (m.p - m.q), np.full(m.k, -m.q / (m.p - m.q))
    C = _stochastic(m) if C is None else C
    if C.shape[0] == C.shape[1] and np.linalg.matrix_rank(C, tol=1e-10) == C.shape[0]:
        return np.linalg.inv(C), np.zeros(C.shape[0])
    return np.linalg.pinv(C), np.zeros(C.shape[0])


@contract(m=_ORACLE, support_counts=Array((1, 2), min_size=1, low=0.0), n=Real(0.0, None, low_open=True))
def support_estimate(m: FrequencyOracle, support_counts: Any, n: float) -> np.ndarray:
    """The oracle's standard estimate from support counts ``(R, k)`` (rows are runs) of ``n`` users:
    its own ``estimate`` when the family overrides it, else the base formula for all rows at once
    (:meth:`ldpnb.mechanisms.FrequencyOracle.estimate`: ``(C - n q) / (n (p - q))``)."""
    S = np.atleast_2d(np.asarray(support_counts, dtype=float))
    if type(m).estimate is not FrequencyOracle.estimate:
        return np.stack([m.estimate(np.rint(s).astype(np.int64), int(n)) for s in S])
    return (S - n * m.q) / (n * m.p_minus_q)


@contract(m=_MECH, counts=_COUNTS)
def standard_estimate(m: Any, counts: Any) -> np.ndarray:
    """The standard (unbiased, where one exists) linear estimate from report counts ``(R, m)`` or
    ``(m,)`` in the columns of ``m``'s channel; rows are runs.  Frequency oracles go through their
    own ``estimate(support_counts, n)``."""
    Y = np.atleast_2d(np.asarray(counts, dtype=float))
    n = Y.sum(axis=1)
    if isinstance(m, FrequencyOracle):
        S = np.rint(Y @ np.asarray(m.column_support(), dtype=float))
        return np.concatenate([support_estimate(m, s, int(round(nn))) for s, nn in zip(S, n)])
    A, b = standard_matrix(m)
    return (Y / n[:, None]) @ A + b


@contract(C=Channel(), counts=_COUNTS)
def ibu_certified(C: np.ndarray, counts: Any) -> estimators.IBUResult:
    """IBU to a certified gap of :data:`IBU_GAP` nats per report (SQUAREM-accelerated; every run of
    a batch stops on its own certificate)."""
    return estimators.ibu(C, counts, tol=IBU_GAP, criterion="gap", max_iter=1_000_000, accelerate="squarem")


@contract(m=_ORACLE, support_counts=Array((1, 2), min_size=1, low=0.0))
def ibu_support(m: FrequencyOracle, support_counts: Any) -> np.ndarray:
    """IBU on a frequency oracle's *support counts* (the support matrix ``p`` on the diagonal, ``q``
    elsewhere; multi-freq-ldpy's IBU, used by Arcolezi, Cerna and Palamidessi 2023), to a certified
    gap of :data:`IBU_GAP`; one row per run.  Not the maximum-likelihood estimate from the reports
    when the support counts are not sufficient (unary encodings, local hashing)."""
    op = DiagPlusConstChannel.from_support(m.k, m.p, m.q)
    S = np.atleast_2d(np.asarray(support_counts, dtype=float))
    return np.stack(
        [
            estimators.ibu(op, s, tol=IBU_GAP, criterion="gap", max_iter=1_000_000, accelerate="squarem").estimate
            for s in S
        ]
    )


@contract(C=Channel(), counts=_COUNTS)
def ibu_early(C: np.ndarray, counts: Any) -> estimators.IBUResult:
    """IBU stopped by the IBU paper's log-likelihood rule (tolerance :data:`EARLY_TOL`)."""
    return estimators.ibu(C, counts, tol=EARLY_TOL, criterion="loglik", max_iter=20_000)


@contract(raw=_RAW)
def clip(raw: Any) -> np.ndarray:
    """INV-N: negative entries to 0, each row renormalised."""
    return estimators.clip_normalize(np.atleast_2d(raw))


@contract(raw=_RAW)
def project(raw: Any) -> np.ndarray:
    """Euclidean projection of each row onto the simplex (Norm-Sub)."""
    return estimators.project_simplex_rows(np.atleast_2d(raw))


@contract(raw=_RAW, tol=Real(0.0, None))
def in_simplex(raw: Any, tol: float = 0.0) -> np.ndarray:
    """Boolean per row: the linear estimate has no entry below ``-tol``."""
    return np.atleast_2d(raw).min(axis=1) >= -tol
