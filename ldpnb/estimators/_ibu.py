r"""The iterative Bayesian update (IBU): one update, one stopping rule, one result type.

IBU is the EM algorithm for the maximum-likelihood estimate of the input distribution
:math:`\theta` of a channel :math:`C` (rows = inputs, columns = outputs) from the empirical
distribution :math:`q` of the reports (Agrawal and Aggarwal 2001; ElSalamouny and Palamidessi 2020,
Algorithm 1):

.. math:: r_x(\theta) = \sum_z q_z \frac{C_{xz}}{(\theta C)_z}, \qquad
          \theta^{t+1}_x = \theta^t_x\, r_x(\theta^t).

It increases the normalised log-likelihood :math:`\ell(\theta) = \sum_z q_z \log(\theta C)_z` at
every step.  **Certificate.**  The vector :math:`r` that the update computes anyway bounds the
distance to the maximum: for any :math:`\theta^\star`, by Jensen's inequality,

.. math:: \ell(\theta^\star) - \ell(\theta) = \sum_z q_z \log\frac{(\theta^\star C)_z}{(\theta C)_z}
          \le \log \sum_x \theta^\star_x r_x(\theta) \le \log \max_x r_x(\theta) ,

so ``gap = log max_x r_x`` is a certified upper bound on :math:`\ell(\hat\theta_{MLE}) - \ell(\theta)`
(nats per report; the log-likelihood of the ``n`` reports is ``n`` times larger).  It is 0 exactly at
a maximum (the KKT conditions: :math:`r_x \le 1`, with equality on the support).

**Stopping rules** (``criterion``): ``"gap"`` stops once the certificate is at most ``tol``
(``converged`` then means: within ``tol`` of the maximum likelihood); ``"loglik"`` stops when
:math:`\ell` changes by less than ``tol`` between two iterates (ElSalamouny and Palamidessi's rule: it
can stop far from the maximum when the likelihood is flat, which is why every result also reports
its ``gap``); ``"max_abs"`` / ``"l1"`` bound the change of the iterate (multi-freq-ldpy's and
libqif's rules); ``tol=0`` runs exactly ``max_iter`` updates (PRIVIC's fixed-iteration protocol).
Stopping early acts as a regulariser: from the uniform start, the first iterates are smooth, and
under strong noise the likelihood is flat enough that ``"loglik"`` stops after few updates: the
estimate is then between the uniform start and the MLE (see the IBU chapter).

**One update, one stopping rule, five engines.**  The rule is one object, :class:`StopRule`
(``criterion``, ``tol``, ``min_iter``, ``max_iter``), asked by every engine: the batch engine
(dense or operator products, :func:`_run`), its single-run dense form (the same arithmetic on 1-D
arrays, tested bit for bit against it), the inlined :math:`aI + b\mathbf 1\mathbf 1^\top` engine
of k-RR's operator, and SQUAREM for one run or a batch (same fixed point, read at the start of each
cycle).  :func:`ibu` picks the engine from ``method`` (``"em"`` or ``"squarem"``) and the form of the
channel (a matrix, a :class:`~ldpnb.channels.structured.ChannelOperator`, or a
:class:`~ldpnb.mechanisms.Mechanism`, which brings its own operator).  Every entry point (:func:`ibu`
for one run or a batch of runs, :func:`ibu_rows` for non-stochastic observation matrices,
:func:`gibu` for several channels, :func:`ibu_path` and :func:`ibu_step` for drawing) runs the same
update and returns the same :class:`IBUResult`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ldpnb.channels.structured import ChannelOperator, DiagPlusConstChannel, is_operator
from ldpnb.contracts import (
    MAX_ENTRIES,
    AnyOf,
    Array,
    Boolean,
    Channel,
    Counts,
    Distribution,
    Instance,
    Integer,
    NonnegativeMatrix,
    OneOf,
    Optional,
    Real,
    contract,
)
from ldpnb.estimators._inversion import _check_report_counts
from ldpnb.mechanisms._base import Mechanism
from ldpnb.utils import check_finite_array

__all__ = [
    "IBUResult",
    "StopRule",
    "ibu",
    "ibu_batch",
    "log_likelihood",
    "ibu_rows",
    "ibu_path",
    "gibu",
    "gibu_log_likelihood",
    "ibu_step",
    "ibu_gap",
    "CRITERIA",
]

#: The stopping rules (see the module docstring).
CRITERIA = ("loglik", "gap", "max_abs", "l1")
#: iteration counts: bounded, so that an absurd count is refused instead of running for ever
_ITER = Integer(0, 10**8)
#: the stopping rule's inputs: updates done, the certificate, a change, log-likelihoods, iterates (one per run
#: for a batch)
_UPDATES = AnyOf(_ITER, Array(1, integer=True, low=0, high=10**8))
_GAP = AnyOf(Real(), Array(1))
_CHANGE = AnyOf(Real(0.0, None), Array(1, low=0.0))
_LL = Optional(AnyOf(Real(), Array(1)))
_ITERATE = Optional(Array((1, 2), low=0.0))

#: The certified gap (nats per report) under which :attr:`IBUResult.converged` is true.
CONVERGED_GAP = 1e-6

#: Floor of the output probabilities of an operator (FFT round-off can give exact zeros or tiny
#: negatives where the true value is a tiny positive number).
_DEN_FLOOR = 1e-300


@dataclass
class IBUResult:
    r"""Result of every IBU entry point.

    For one run (1-D counts) the fields are scalars and ``estimate`` is ``(k,)``; for a batch of ``R``
    runs they are arrays of length ``R`` and ``estimate`` is ``(R, k)``.

    Attributes
    ----------
    estimate : ndarray
        The final iterate(s).
    n_iter : int or ndarray
        Updates performed.
    stopped : bool or ndarray
        The stopping rule ``criterion`` was met within ``max_iter`` updates (always False for a
        fixed number of updates, ``tol=0``). Not the same as converged: ``"loglik"`` can stop far
        from the maximum.
    loglik : float or ndarray
        Normalised log-likelihood :math:`\ell` of the estimate (nats per report).
    gap : float or ndarray
        Certified bound on :math:`\ell(\hat\theta_{MLE}) - \ell(\text{estimate})`:
        :math:`\log\max_x r_x` (nats per report, >= 0 up to rounding).
    trace : ndarray or None
        :math:`\ell(\theta^0), \dots, \ell(\theta^T)` (one run, or row 0 of a batch), when requested.
    criterion, tol : the stopping rule used.
    """

    estimate: np.ndarray
    n_iter: Any
    stopped: Any
    loglik: Any
    gap: Any
    trace: np.ndarray | None = field(default=None, repr=False)
    criterion: str = "loglik"
    tol: float = 0.0

    @property
    def converged(self):
        """Certified convergence: within :data:`CONVERGED_GAP` (1e-6) nats per report of the maximum
        likelihood (use :meth:`certified` for another tolerance)."""
        return self.certified(CONVERGED_GAP)

    @property
    def final_loglik(self):
        """Alias of :attr:`loglik` (the log-likelihood of the estimate)."""
        return self.loglik

    @contract(tol=Real(0.0, None, finite=False))
    def certified(self, tol: float = CONVERGED_GAP):
        """Whether the estimate is within ``tol`` nats per report of the maximum likelihood (``tol``: a
        real number >= 0, possibly infinite)."""
        return np.asarray(self.gap) <= tol if np.ndim(self.gap) else bool(self.gap <= tol)


# ----------------------------------------------------------------------------- the stopping rule
@dataclass(frozen=True)
class StopRule:
    r"""The stopping rule of IBU, written once and asked by every engine (plain, batch, SQUAREM,
    structured).

    ``t`` counts updates (evaluations of the EM map; SQUAREM counts every one of its evaluations).
    A run stops

    * **before** the update ``t + 1``, with criterion ``"gap"``, when the certificate
      :math:`\log\max_x r_x(\theta^t) \le` ``tol`` (the vector :math:`r` is the one the update
      computes anyway) and ``t >= min_iter`` (:meth:`before_update`);
    * **after** the update ``t``, with ``"loglik"`` (:math:`|\ell(\theta^t) - \ell(\theta^{t-1})|`),
      ``"max_abs"`` or ``"l1"`` (:math:`\|\theta^t - \theta^{t-1}\|`), when the change is below
      ``tol`` and ``t >= max(min_iter, 1)`` (:meth:`after_update`; SQUAREM reads the change of
      :math:`\ell` between the starts of two cycles);
    * at ``t = max_iter`` in any case; ``tol = 0`` runs exactly ``max_iter`` updates.

    An engine that cannot honour a rule refuses it (SQUAREM: ``"gap"`` or ``"loglik"`` only, and on
    a batch ``"gap"`` with ``tol > 0``) rather than ignoring it.
    """

    criterion: str = "loglik"
    tol: float = 1e-8
    min_iter: int = 0
    max_iter: int = 10_000

    def __post_init__(self) -> None:
        if self.criterion not in CRITERIA:
            raise ValueError(f"criterion must be one of {CRITERIA}, got {self.criterion!r}")
        object.__setattr__(self, "tol", Real(0.0, None).check(self.tol, "tol"))
        object.__setattr__(self, "min_iter", _ITER.check(self.min_iter, "min_iter"))
        object.__setattr__(self, "max_iter", _ITER.check(self.max_iter, "max_iter"))

    @property
    def fixed(self) -> bool:
        """``tol == 0``: exactly ``max_iter`` updates, no rule."""
        return self.tol == 0

    @property
    def on_gap(self) -> bool:
        """The rule reads the certificate before each update."""
        return self.criterion == "gap" and not self.fixed

    @property
    def on_change(self) -> bool:
        """The rule reads a change after each update (``"loglik"``, ``"max_abs"``, ``"l1"``)."""
        return self.criterion != "gap" and not self.fixed

    @contract(gap=_GAP, t=_UPDATES)
    def before_update(self, gap, t):
        """Stop before the next update: ``gap <= tol`` and ``t >= min_iter`` (arrays broadcast).

        ``gap``: the certificate (a finite real number, or one per run); ``t``: the number of updates
        done (an integer in ``[0, 10**8]``, or one per run)."""
        return self._before_update(gap, t)

    @contract(change=_CHANGE, t=_UPDATES)
    def after_update(self, change, t):
        """Stop after update ``t``: ``change < tol`` and ``t >= max(min_iter, 1)`` (arrays broadcast).

        ``change``: what :meth:`change` returns (a finite real number >= 0, or one per run); ``t``: the
        number of updates done (an integer in ``[0, 10**8]``, or one per run)."""
        return self._after_update(change, t)

    @contract(ll_old=_LL, ll_new=_LL, theta_old=_ITERATE, theta_new=_ITERATE)
    def change(self, ll_old=None, ll_new=None, theta_old=None, theta_new=None):
        """The change the rule reads: ``|ll_new - ll_old|`` (criterion ``"loglik"``: the log-likelihoods,
        finite real numbers or one per run) or the max / sum of ``|theta_new - theta_old|`` along the
        last axis (``"max_abs"`` / ``"l1"``: two iterates of the same shape, entries >= 0).  Criterion
        ``"gap"`` reads no change (it stops on the certificate, :meth:`before_update`)."""
        if self.criterion == "gap":
            raise ValueError("criterion 'gap' reads no change: it stops on the certificate (before_update)")
        a, b, names = (
            (ll_old, ll_new, ("ll_old", "ll_new"))
            if self.criterion == "loglik"
            else (theta_old, theta_new, ("theta_old", "theta_new"))
        )
        for v, name in ((a, names[0]), (b, names[1])):
            if v is None:
                raise ValueError(f"{name} is required by criterion {self.criterion!r}")
        if np.shape(a) != np.shape(b):
            raise ValueError(f"{names[0]} and {names[1]} must have the same shape, got {np.shape(a)} and {np.shape(b)}")
        return self._change(ll_old, ll_new, theta_old, theta_new)

    # the engines' forms, without the checks (asked once per update, on values the engine formed)
    def _before_update(self, gap, t):
        return (gap <= self.tol) & (t >= self.min_iter)

    def _after_update(self, change, t):
        return (change < self.tol) & (t >= max(self.min_iter, 1))

    def _change(self, ll_old, ll_new, theta_old, theta_new):
        if self.criterion == "loglik":
            return np.abs(ll_new - ll_old)
        d = np.abs(theta_new - theta_old)
        return d.max(axis=-1) if self.criterion == "max_abs" else d.sum(axis=-1)


_STOP_RULE = contract(criterion=OneOf(*CRITERIA), tol=Real(0.0, None), min_iter=_ITER, max_iter=_ITER)
StopRule.__init__ = _STOP_RULE(StopRule.__init__)  # type: ignore[method-assign]


def _theta0_batch(theta0, R: int, k: int, *, full_support: bool = False) -> np.ndarray:
    """Starting points: uniform, one distribution for every row, or one per row."""
    if theta0 is None:
        return np.full((R, k), 1.0 / k)
    t0 = check_finite_array(theta0, "theta0")
    if t0.ndim not in (1, 2) or t0.shape[-1] != k or (t0.ndim == 2 and t0.shape[0] not in (1, R)):
        raise ValueError(f"theta0 must have shape ({k},) or ({R}, {k}), got {t0.shape}")
    Theta = np.broadcast_to(t0, (R, k)).astype(float, copy=True)
    if full_support and np.any(Theta <= 0):
        raise ValueError("theta0 must have full support (IBU keeps zeros at zero)")
    if np.any(Theta < 0) or np.any(np.abs(Theta.sum(axis=1) - 1) > 1e-8):
        raise ValueError("theta0 must be a distribution (or one per row): entries >= 0 summing to 1")
    return Theta / Theta.sum(axis=1, keepdims=True)


def _report_matrix(counts, m: int) -> tuple[np.ndarray, bool]:
    """Counts (m,) or (R, m) -> normalised rows Q (R, m) and whether the input was one run."""
    arr = check_finite_array(counts, "counts")
    single = arr.ndim == 1
    if single:
        c = _check_report_counts(arr, m)
        return (c / c.sum())[None, :], True
    if arr.ndim != 2 or arr.shape[1] != m:
        raise ValueError(f"counts must have shape ({m},) or (R, {m}), got {arr.shape}")
    if np.any(arr < 0):
        raise ValueError("counts must be nonnegative")
    tot = arr.sum(axis=1)
    if np.any(tot <= 0):
        raise ValueError("every row of counts must have a positive total")
    return arr / tot[:, None], False


# ----------------------------------------------------------------------------- products
#: Side of the square tiles of the transposed copy (a tiled copy keeps both sides in cache).
_T_BLOCK = 256


def _transpose_copy(C: np.ndarray) -> np.ndarray:
    """``np.ascontiguousarray(C.T)`` by square tiles: the same array, about twice as fast for large
    matrices (a plain transposed copy strides through memory on one side)."""
    k, m = C.shape
    if k * m < 1 << 18:
        return np.ascontiguousarray(C.T)
    CT = np.empty((m, k))
    b = _T_BLOCK
    for i in range(0, k, b):
        for j in range(0, m, b):
            CT[j : j + b, i : i + b] = C[i : i + b, j : j + b].T
    return CT


class _Dense:
    """Products of a dense channel restricted to the observed outputs."""

    kind = "dense"

    def __init__(self, C: np.ndarray, obs: np.ndarray) -> None:
        # every output observed (the usual case): no gather, the channel itself (C-contiguous)
        self.C = np.ascontiguousarray(C) if bool(obs.all()) else np.ascontiguousarray(C[:, obs])
        self.CT = _transpose_copy(self.C)
        self.k = C.shape[0]

    def out(self, Theta: np.ndarray) -> np.ndarray:
        return Theta @ self.C

    raw = out

    @staticmethod
    def out_of_raw(raw: np.ndarray) -> np.ndarray:
        """``out(Theta)`` from ``raw(Theta)`` (the same array: no floor on dense products)."""
        return raw

    def back(self, ratio: np.ndarray) -> np.ndarray:
        return ratio @ self.CT


class _Operator:
    """Products of a :class:`~ldpnb.channels.structured.ChannelOperator` (observed outputs only), by its
    unchecked products ``_matvec`` / ``_rmatvec``: the iterates are float64 arrays of the right shape, so
    the checks of the public ``matvec`` / ``rmatvec`` would only add a pass to every iteration."""

    kind = "operator"

    def __init__(self, op: ChannelOperator, obs: np.ndarray) -> None:
        self.op, self.obs = op, obs
        self.all_obs = bool(obs.all())
        self.k, self.m = op.shape

    def raw(self, Theta: np.ndarray) -> np.ndarray:
        d = self.op._matvec(Theta)
        return d if self.all_obs else d[:, self.obs]

    def out(self, Theta: np.ndarray) -> np.ndarray:
        return self.out_of_raw(self.raw(Theta))

    @staticmethod
    def out_of_raw(raw: np.ndarray) -> np.ndarray:
        """``out(Theta)`` from ``raw(Theta)``: the FFT round-off floor."""
        return np.maximum(raw, _DEN_FLOOR)

    def back(self, ratio: np.ndarray) -> np.ndarray:
        if self.all_obs:
            return self.op._rmatvec(ratio)
        full = np.zeros((ratio.shape[0], self.m))
        full[:, self.obs] = ratio
        return self.op._rmatvec(full)


class _DiagPlusConst:
    """The products of :math:`aI + b\\mathbf 1\\mathbf 1^\\top` inlined (one fully observed run,
    :func:`_run_diag_plus_const`)."""

    kind = "diag+const"

    def __init__(self, op: DiagPlusConstChannel) -> None:
        self.op, self.a, self.b = op, op.a, op.b


def _loglik(Q: np.ndarray, D: np.ndarray, pos: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(pos, Q * np.log(np.where(pos, D, 1.0)), 0.0).sum(axis=1)


def _ratio(Q: np.ndarray, D: np.ndarray, pos: np.ndarray) -> np.ndarray:
    return np.divide(Q, D, out=np.zeros_like(Q), where=pos)


# ----------------------------------------------------------------------------- the engines
# Each engine runs the same update and asks the same StopRule; they differ in how they form the
# products (a dense matrix, an operator, the inlined a I + b 11^T) and in how many runs they carry.
def _run(
    prod, Q: np.ndarray, Theta: np.ndarray, stop: StopRule, *, trace: bool = False, single: bool = True
) -> IBUResult:
    """EM on every row of ``Q`` (normalised reports on the observed outputs) from ``Theta`` until each
    row meets the stopping rule; a row that stops is frozen (the batch engine, dense or operator).

    The working arrays hold the active rows only (compacted when rows stop), so that a single run
    or a batch whose rows are all active pays no gather/scatter per iteration.  One run with a
    dense channel goes to :func:`_run_single_dense` (the same operations on 1-D arrays).
    """
    R = Q.shape[0]
    pos = Q > 0
    if np.any(pos & ~(prod.raw(Theta) > 0)):
        raise ValueError("theta0 gives probability 0 to an observed output; start from a full-support distribution")
    if single and R == 1 and isinstance(prod, _Dense) and bool(pos.all()):
        return _run_single_dense(prod, Q[0], Theta[0].copy(), stop, trace=trace)
    D = prod.out(Theta)
    need_ll = trace or stop.criterion == "loglik"
    out_theta, out_den = Theta.copy(), D.copy()
    n_iter = np.zeros(R, dtype=np.int64)
    converged = np.zeros(R, dtype=bool)
    gap = np.full(R, np.nan)
    idx = np.arange(R)  # rows of the working arrays
    Th, Da, Qa, Pa = Theta, D, Q, pos
    ll = _loglik(Qa, Da, Pa) if need_ll else None
    tr = [float(ll[0])] if trace else None
    tracing = trace
    t = 0

    def retire(keep: np.ndarray) -> None:
        nonlocal idx, Th, Da, Qa, Pa, ll
        gone = ~keep
        out_theta[idx[gone]], out_den[idx[gone]] = Th[gone], Da[gone]
        idx, Th, Da, Qa, Pa = idx[keep], Th[keep], Da[keep], Qa[keep], Pa[keep]
        if ll is not None:
            ll = ll[keep]

    while t < stop.max_iter and idx.size:
        r = prod.back(_ratio(Qa, Da, Pa))
        if stop.on_gap:
            g = np.log(r.max(axis=1))
            done = stop._before_update(g, t)
            if np.any(done):
                gap[idx[done]] = g[done]
                converged[idx[done]] = True
                tracing = tracing and not (done[0] and idx[0] == 0)
                r = r[~done]
                retire(~done)
                if idx.size == 0:
                    break
        old = Th
        Th = Th * r
        Th /= Th.sum(axis=1, keepdims=True)  # guards rounding drift only: the update preserves the sum
        Da = prod.out(Th)
        t += 1
        n_iter[idx] = t
        if need_ll:
            new_ll = _loglik(Qa, Da, Pa)
            if tracing and idx[0] == 0:
                tr.append(float(new_ll[0]))
        if not stop.on_change:
            if need_ll:
                ll = new_ll
            continue
        change = stop._change(ll, new_ll if need_ll else None, old, Th)
        if stop.criterion == "loglik":
            ll = new_ll
        done = stop._after_update(change, t)
        if np.any(done):
            converged[idx[done]] = True
            tracing = tracing and not (done[0] and idx[0] == 0)
            retire(~done)
    if idx.size:
        out_theta[idx], out_den[idx] = Th, Da
    # the certificate and the log-likelihood of the final estimates (one more back-product)
    need = np.flatnonzero(np.isnan(gap))
    if need.size:
        r = prod.back(_ratio(Q[need], out_den[need], pos[need]))
        gap[need] = np.log(r.max(axis=1))
    final_ll = _loglik(Q, out_den, pos)
    gap = np.maximum(gap, 0.0)  # rounding can give -1e-16 at an exact maximum
    trace_arr = np.asarray(tr) if trace else None
    if single:
        return IBUResult(
            out_theta[0],
            int(n_iter[0]),
            bool(converged[0]),
            float(final_ll[0]),
            float(gap[0]),
            trace_arr,
            stop.criterion,
            stop.tol,
        )
    return IBUResult(out_theta, n_iter, converged, final_ll, gap, trace_arr, stop.criterion, stop.tol)


def _run_single_dense(prod: _Dense, q: np.ndarray, theta: np.ndarray, stop: StopRule, *, trace: bool) -> IBUResult:
    """:func:`_run` for one run of a dense channel with every (kept) output observed, on 1-D arrays.

    The same arithmetic, operation for operation, as the batch engine on a ``(1, k)`` array (numpy
    reduces a 1-D vector and a one-row matrix alike, and ``v @ C`` calls the same BLAS routine for
    ``v`` of shape ``(k,)`` and ``(1, k)``), so the estimate, trace, log-likelihood and gap are
    bitwise those of :func:`_run`; with about half the numpy calls per iteration and no
    bookkeeping of active rows.
    """
    C, CT = prod.C, prod.CT
    den = theta @ C
    need_ll = trace or stop.criterion == "loglik"
    ll = float((q * np.log(den)).sum()) if need_ll else 0.0
    tr = [ll] if trace else None
    ratio = np.empty_like(q)
    t = 0
    converged = False
    g = np.nan
    while t < stop.max_iter:
        np.divide(q, den, out=ratio)
        r = ratio @ CT
        if stop.on_gap:
            g = float(np.log(r.max()))
            if stop._before_update(g, t):
                converged = True
                break
            g = np.nan
        old = theta
        theta = theta * r
        theta /= theta.sum()
        den = theta @ C
        t += 1
        if need_ll:
            new_ll = float((q * np.log(den)).sum())
            if trace:
                tr.append(new_ll)
        if not stop.on_change:
            if need_ll:
                ll = new_ll
            continue
        change = stop._change(ll, new_ll if need_ll else None, old, theta)
        if stop.criterion == "loglik":
            ll = new_ll
        if stop._after_update(change, t):
            converged = True
            break
    if np.isnan(g):
        g = float(np.log((np.divide(q, den) @ CT).max()))
    final_ll = float((q * np.log(den)).sum())
    return IBUResult(
        theta, t, converged, final_ll, max(g, 0.0), np.asarray(tr) if trace else None, stop.criterion, stop.tol
    )


def _run_squarem(prod, Q: np.ndarray, Theta: np.ndarray, stop: StopRule, *, trace: bool) -> IBUResult:
    r"""One run of IBU accelerated by SQUAREM (Varadhan and Roland 2008, scheme S3).

    From :math:`\theta`, two EM updates give :math:`\theta_1, \theta_2`; with
    :math:`r = \theta_1 - \theta`, :math:`v = \theta_2 - 2\theta_1 + \theta` and the step
    :math:`\alpha = \min(-\|r\|/\|v\|, -1)`, the extrapolation
    :math:`\theta - 2\alpha r + \alpha^2 v` is accepted if it is a full-support distribution whose
    log-likelihood is not below :math:`\ell(\theta)` (else :math:`\alpha` is moved halfway towards
    :math:`-1`, which is two plain EM updates), and one EM update stabilises it. The fixed points
    (the MLE) and the certificate are those of plain IBU; ``n_iter`` counts EM updates (evaluations
    of the map), so the cost compares directly with :func:`ibu`'s.  The stopping rule is read at
    the start of each cycle (criterion ``"gap"``: the certificate of :math:`\theta`; ``"loglik"``:
    the change of :math:`\ell` since the start of the previous cycle), with the number of updates
    done so far, so ``min_iter`` is honoured to within a cycle (3 updates).  A cycle forms the
    log-likelihood twice (at :math:`\theta`, for the stopping rule and the acceptance test, and at
    the candidate) and every output distribution once (the stabilising update reuses the accepted
    candidate's, the first update the start's, the result the last certified iterate's).
    """
    if stop.criterion not in ("gap", "loglik") and not stop.fixed:
        raise ValueError("SQUAREM stops on criterion 'gap' or 'loglik' (or tol=0)")
    pos = Q > 0
    if pos.all():  # always, for one run on its observed outputs: the masks select everything

        def ratio(D):
            return Q / D

        def loglik(D):
            return float((Q * np.log(D)).sum(axis=1)[0])
    else:

        def ratio(D):
            return _ratio(Q, D, pos)

        def loglik(D):
            return float(_loglik(Q, D, pos)[0])

    def em(th, scores=True, D=None):
        # the log-likelihood and the certificate of an update are read only for the first update
        # of a cycle (the stopping rule and the acceptance test): the other two skip them; D: the
        # output distribution of th when the acceptance test has already formed it
        if D is None:
            D = prod.out(th)
        r = prod.back(ratio(D))
        new = th * r
        new /= new.sum(axis=1, keepdims=True)
        if not scores:
            return new, None, None, D
        return new, loglik(D), float(np.log(r.max())), D

    theta = Theta
    raw = prod.raw(theta)
    if np.any(pos & ~(raw > 0)):
        raise ValueError("theta0 gives probability 0 to an observed output; start from a full-support distribution")
    D_theta = prod.out_of_raw(raw)  # the output distribution of theta, when formed
    tr = []
    evals = 0
    ll_prev = -np.inf
    converged = False
    while evals < stop.max_iter:
        t1, ll, gap, D_theta = em(theta, D=D_theta)
        if trace:
            tr.append(ll)
        if stop.on_gap and stop._before_update(gap, evals):
            converged = True
            break
        if stop.on_change and stop._after_update(stop._change(ll_prev, ll, None, None), evals):
            converged = True
            break
        ll_prev = ll
        evals += 1
        D_theta = None
        if evals >= stop.max_iter:
            theta = t1
            break
        t2, *_ = em(t1, scores=False)
        evals += 1
        r = t1 - theta
        v = t2 - 2 * t1 + theta
        nv = float(np.linalg.norm(v))
        if nv == 0.0:
            theta = t2
            continue
        alpha = min(-float(np.linalg.norm(r)) / nv, -1.0)
        cand, D_cand = t2, None  # alpha = -1 is exactly two EM updates
        while alpha < -1.0:
            x = theta - 2 * alpha * r + alpha**2 * v
            if np.all(x > 0):
                x = x / x.sum()
                Dx = prod.out(x)
                if loglik(Dx) >= ll - 1e-15:
                    cand, D_cand = x, Dx
                    break
            alpha = min((alpha - 1.0) / 2.0, -1.0)
            if alpha > -1.0 - 1e-12:
                break
        if evals >= stop.max_iter:
            theta, D_theta = cand, D_cand
            break
        theta, *_ = em(cand, scores=False, D=D_cand)  # stabilisation
        evals += 1
    D = prod.out(theta) if D_theta is None else D_theta
    final_ll = loglik(D)
    gap = max(float(np.log(prod.back(ratio(D)).max())), 0.0)
    if trace and (not tr or tr[-1] != final_ll):
        tr.append(final_ll)
    return IBUResult(
        theta[0], evals, converged, final_ll, gap, np.asarray(tr) if trace else None, stop.criterion, stop.tol
    )


def _run_squarem_batch(prod, Q: np.ndarray, Theta: np.ndarray, stop: StopRule, *, trace: bool = False) -> IBUResult:
    r"""The SQUAREM scheme of :func:`_run_squarem` on every row of ``Q`` at once, each row stopped by
    its own certificate (criterion ``"gap"`` with ``tol > 0``: :math:`\log\max_x r_x \le` ``tol``,
    read at the start of each cycle with the row's number of updates, as :func:`_run_squarem`)
    and then frozen.

    Per row the iterates are those of :func:`_run_squarem` (same step, same acceptance rule
    :math:`\ell(\text{candidate}) \ge \ell(\theta)`, same halving of :math:`\alpha` towards
    :math:`-1`); the rows share the matrix products. ``n_iter`` counts EM updates per row.
    """
    if not stop.on_gap:
        raise ValueError("SQUAREM on a batch of runs stops on criterion 'gap' with tol > 0")
    R = Q.shape[0]
    pos = Q > 0
    if np.any(pos & ~(prod.raw(Theta) > 0)):
        raise ValueError("theta0 gives probability 0 to an observed output; start from a full-support distribution")
    theta = Theta.copy()
    evals = np.zeros(R, dtype=np.int64)
    gap = np.full(R, np.nan)
    done = np.zeros(R, dtype=bool)

    def em(th, Qa, Pa, scores=True):
        D = prod.out(th)
        r = prod.back(_ratio(Qa, D, Pa))
        new = th * r
        new /= new.sum(axis=1, keepdims=True)
        if not scores:  # the second and the stabilising update: nothing reads their scores
            return new, None, None
        return new, _loglik(Qa, D, Pa), np.log(r.max(axis=1))

    while True:
        act = np.flatnonzero(~done & (evals < stop.max_iter))
        if act.size == 0:
            break
        T, Qa, Pa = theta[act], Q[act], pos[act]
        t1, ll, g = em(T, Qa, Pa)
        fin = stop._before_update(g, evals[act])
        gap[act[fin]] = g[fin]
        done[act[fin]] = True
        keep = ~fin
        act, T, Qa, Pa, t1, ll = act[keep], T[keep], Qa[keep], Pa[keep], t1[keep], ll[keep]
        if act.size == 0:
            break
        evals[act] += 1
        last = evals[act] >= stop.max_iter
        theta[act[last]] = t1[last]
        act, T, Qa, Pa, t1, ll = act[~last], T[~last], Qa[~last], Pa[~last], t1[~last], ll[~last]
        if act.size == 0:
            continue
        t2, _, _ = em(t1, Qa, Pa, scores=False)
        evals[act] += 1
        r = t1 - T
        v = t2 - 2 * t1 + T
        nv = np.linalg.norm(v, axis=1)
        alpha = np.where(nv > 0, -np.linalg.norm(r, axis=1) / np.where(nv > 0, nv, 1.0), -1.0)
        alpha = np.minimum(alpha, -1.0)
        cand = t2.copy()  # alpha = -1 is exactly two EM updates
        pending = alpha < -1.0
        while np.any(pending):
            i = np.flatnonzero(pending)
            a = alpha[i, None]
            x = T[i] - 2 * a * r[i] + a**2 * v[i]
            ok = np.all(x > 0, axis=1)
            x[ok] /= x[ok].sum(axis=1, keepdims=True)
            lx = np.full(i.size, -np.inf)
            if ok.any():
                lx[ok] = _loglik(Qa[i[ok]], prod.out(x[ok]), Pa[i[ok]])
            acc = ok & (lx >= ll[i] - 1e-15)
            cand[i[acc]] = x[acc]
            pending[i[acc]] = False
            rej = i[~acc]
            alpha[rej] = np.minimum((alpha[rej] - 1.0) / 2.0, -1.0)
            pending[rej] = alpha[rej] < -1.0 - 1e-12
        last = evals[act] >= stop.max_iter
        theta[act[last]] = cand[last]
        rest = ~last
        if np.any(rest):
            theta[act[rest]], _, _ = em(cand[rest], Qa[rest], Pa[rest], scores=False)  # stabilisation
            evals[act[rest]] += 1
    D = prod.out(theta)
    need = np.flatnonzero(np.isnan(gap))
    if need.size:
        gap[need] = np.log(prod.back(_ratio(Q[need], D[need], pos[need])).max(axis=1))
    final_ll = _loglik(Q, D, pos)
    return IBUResult(
        theta, evals, stop._before_update(gap, evals), final_ll, np.maximum(gap, 0.0), None, "gap", stop.tol
    )


def _run_diag_plus_const(
    prod: _DiagPlusConst, Q: np.ndarray, Theta: np.ndarray, stop: StopRule, *, trace: bool
) -> IBUResult:
    r"""The same update for :math:`C = aI + b\mathbf 1\mathbf 1^\top` with every output observed, one run,
    inlined: :math:`\theta C = a\theta + b` (θ sums to 1) and :math:`C r = a r + b\sum r`; a handful
    of in-place operations on k-vectors per iteration (the Python overhead dominates at small k)."""
    a, b = prod.a, prod.b
    q, theta = Q[0], Theta[0].copy()
    k = theta.size
    den = a * theta + b * theta.sum()
    need_ll = trace or stop.criterion == "loglik"
    ll = float(np.dot(q, np.log(den))) if need_ll else 0.0
    tr = [ll] if trace else None
    r = np.empty(k)
    old = np.empty(k)
    logden = np.empty(k)
    converged = False
    t = 0
    g = np.nan
    while t < stop.max_iter:
        np.divide(q, den, out=r)
        s = r.sum()
        r *= a
        r += b * s
        if stop.on_gap:
            g = float(np.log(r.max()))
            if stop._before_update(g, t):
                converged = True
                break
            g = np.nan
        if stop.criterion in ("max_abs", "l1"):
            old[:] = theta
        theta *= r
        theta /= theta.sum()
        np.multiply(theta, a, out=den)
        den += b
        t += 1
        if need_ll:
            np.log(den, out=logden)
            new = float(np.dot(q, logden))
            if trace:
                tr.append(new)
        if not stop.on_change:
            continue
        change = stop._change(ll, new if need_ll else None, old, theta)
        if stop.criterion == "loglik":
            ll = new
        if stop._after_update(change, t):
            converged = True
            break
    if np.isnan(g):
        np.divide(q, den, out=r)
        g = float(np.log((a * r + b * r.sum()).max()))
    final = float(np.dot(q, np.log(den)))
    return IBUResult(
        theta, t, converged, final, max(g, 0.0), np.asarray(tr) if trace else None, stop.criterion, stop.tol
    )


# ----------------------------------------------------------------------------- the problem
def _as_channel(channel: Any) -> Any:
    """A :class:`~ldpnb.mechanisms.Mechanism` becomes its operator (when the family has one) or its
    float channel; an operator or a matrix is returned as it is."""
    if isinstance(channel, Mechanism):
        op = channel.operator()
        return op if op is not None else channel.channel()
    return channel


def _problem(channel: Any, counts: Any, theta0: Any, *, full_support: bool = False):
    """``(products, Q, Theta, single)``: the products of the channel on the observed outputs (a
    :class:`_Dense`, an :class:`_Operator`, or the inlined :class:`_DiagPlusConst` for one fully
    observed run of ``a I + b 11^T``), the normalised reports on those outputs, the starts, and
    whether ``counts`` was one run."""
    if is_operator(channel):
        k, m = channel.shape
        Q, single = _report_matrix(counts, m)
        obs = Q.sum(axis=0) > 0
        colsum = channel.column_sums()
        # FFT products carry absolute round-off ~1e-16: a column that small is treated as zero
        bad = np.flatnonzero(obs & ~(colsum > 1e-13 * colsum.max()))
        if bad.size:
            raise ValueError(
                f"output {bad[0]} was observed but has probability 0 under every input: "
                "the counts are impossible under this channel"
            )
        Theta = _theta0_batch(theta0, Q.shape[0], k, full_support=full_support)
        if single and isinstance(channel, DiagPlusConstChannel) and bool(obs.all()) and channel.b > 0:
            return _DiagPlusConst(channel), Q, Theta, single
        prod = _Operator(channel, obs)
        return prod, (Q if prod.all_obs else Q[:, obs]), Theta, single
    C = channel
    Q, single = _report_matrix(counts, C.shape[1])
    obs = Q.sum(axis=0) > 0
    impossible = obs & ~(C.sum(axis=0) > 0)
    if np.any(impossible):
        z = int(np.flatnonzero(impossible)[0])
        raise ValueError(
            f"output {z} was observed but has probability 0 under every input: the counts are "
            "impossible under this channel"
        )
    Theta = _theta0_batch(theta0, Q.shape[0], C.shape[0], full_support=full_support)
    return _Dense(C, obs), np.ascontiguousarray(Q[:, obs]), Theta, single


#: The engines, by method and by the form of the products (one run or a batch).
_ENGINES = {
    ("em", "diag+const", True): _run_diag_plus_const,
    ("em", "dense", True): _run,  # -> _run_single_dense when every kept output is observed
    ("em", "dense", False): _run,
    ("em", "operator", True): _run,
    ("em", "operator", False): _run,
    ("squarem", "dense", True): _run_squarem,
    ("squarem", "dense", False): _run_squarem_batch,
    ("squarem", "operator", True): _run_squarem,
    ("squarem", "operator", False): _run_squarem_batch,
}


def _solve(prod, Q, Theta, single, stop: StopRule, method: str, trace: bool) -> IBUResult:
    if method == "squarem" and isinstance(prod, _DiagPlusConst):
        prod = _Operator(prod.op, np.ones(prod.op.shape[1], dtype=bool))
    engine = _ENGINES[method, prod.kind, single]
    if engine is _run:
        return _run(prod, Q, Theta, stop, trace=trace, single=single)
    return engine(prod, Q, Theta, stop, trace=trace)


#: What an estimator accepts as the channel: a matrix, an operator, or a mechanism.
_CHANNEL_LIKE = AnyOf(Channel(), Instance(ChannelOperator, example=None), Instance(Mechanism, example=None))
_REPORTS = Array((1, 2), low=0.0)
_THETA0 = Optional(Array((1, 2), low=0.0))
_TOL = Real(0.0, None)


# ----------------------------------------------------------------------------- entry points
@contract(
    channel=_CHANNEL_LIKE,
    counts=_REPORTS,
    theta0=_THETA0,
    tol=_TOL,
    max_iter=_ITER,
    criterion=OneOf(*CRITERIA),
    min_iter=_ITER,
    trace=Optional(Boolean()),
    method=OneOf("em", "squarem"),
    accelerate=Optional(OneOf("squarem")),
)
def ibu(
    channel,
    counts,
    *,
    theta0=None,
    tol: float = 1e-8,
    max_iter: int = 10_000,
    criterion: str = "loglik",
    min_iter: int = 0,
    trace: bool | None = None,
    method: str = "em",
    accelerate: str | None = None,
) -> IBUResult:
    r"""Iterative Bayesian update (EM) for the input distribution: the maximum-likelihood estimate.

    .. math:: \theta^{t+1}_x = \theta^t_x \sum_z q_z \frac{C_{xz}}{(\theta^t C)_z}

    ElSalamouny and Palamidessi (2020), Algorithm 1. Only the observed outputs enter the
    computation. See the module docstring for the certificate ``gap`` and the stopping rules
    (:class:`StopRule`, the same for every engine).

    Parameters
    ----------
    channel : (k, m) array, ChannelOperator or Mechanism
        Rows = inputs, columns = outputs; rows sum to 1.  A :class:`~ldpnb.mechanisms.Mechanism`
        gives its fast operator when its family has one (:meth:`~ldpnb.mechanisms.Mechanism.operator`:
        k-RR :math:`O(k)`, the metric families by FFT), else its float channel.  A structured operator
        (:class:`~ldpnb.channels.structured.DiagPlusConstChannel`: :math:`O(k)` per iteration;
        :class:`~ldpnb.channels.structured.ConvolutionChannel`: FFT, :math:`O(k \log k)`) gives the
        dense iterates (to rounding). A support matrix (``DiagPlusConstChannel.from_support(k, p, q)``,
        rows not summing to 1) runs the support-count IBU of multi-freq-ldpy on support counts.
    counts : (m,) or (R, m) array
        Number of reports of each output (or their empirical distribution); one row per run for a
        batch of ``R`` runs sharing the channel (every row stops on its own).
    theta0 : (k,) or (R, k) array, optional
        Starting distribution(s), uniform by default. IBU never revives an input with
        :math:`\theta^0_x = 0`.
    tol, max_iter, criterion, min_iter
        The stopping rule (:class:`StopRule`): ``tol = 0`` runs exactly ``max_iter`` updates;
        ``"gap"`` certifies ``ℓ(MLE) − ℓ(estimate) <= tol``; no run stops before ``min_iter`` updates.
    trace : bool, optional
        Record :math:`\ell` at every iterate (default: yes for one run, no for a batch; costs one
        logarithm per output and iteration).
    method : {"em", "squarem"}
        ``"em"``: the plain update (the engine follows the channel's form: dense, operator, or the
        inlined :math:`aI + b\mathbf 1\mathbf 1^\top` for one run). ``"squarem"``: SQUAREM
        extrapolation of the EM map (:func:`_run_squarem`; one run: criterion ``"gap"``, ``"loglik"``
        or a fixed count; a batch: ``"gap"``), same fixed point, far fewer updates to a certified
        optimum when the likelihood is flat.
    accelerate : {None, "squarem"}
        The former name of ``method="squarem"`` (kept as an alias).

    Returns
    -------
    IBUResult

    Examples
    --------
    >>> from ldpnb.mechanisms import GRR
    >>> m = GRR(4, 1.0)
    >>> r = ibu(m, [40, 30, 20, 10], criterion="gap", tol=1e-9)
    >>> bool(r.converged), r.estimate.round(2).tolist()
    (True, [0.64, 0.33, 0.03, 0.0])
    """
    if accelerate is not None:
        if method != "em" and method != accelerate:
            raise ValueError(f"method={method!r} and accelerate={accelerate!r} disagree; give method only")
        method = accelerate
    stop = StopRule(criterion, tol, min_iter, max_iter)
    if method == "squarem" and not (stop.fixed or criterion in ("gap", "loglik")):
        raise ValueError("method='squarem' stops on criterion 'gap' or 'loglik' (or tol=0)")
    prod, Q, Theta, single = _problem(_as_channel(channel), counts, theta0)
    trace = single if trace is None else bool(trace)
    return _solve(prod, Q, Theta, single, stop, method, trace)


@contract(
    channel=_CHANNEL_LIKE,
    counts=Array(2, low=0.0),
    theta0=_THETA0,
    tol=_TOL,
    max_iter=_ITER,
    criterion=OneOf(*CRITERIA),
)
def ibu_batch(
    channel, counts, *, theta0=None, tol: float = 1e-8, max_iter: int = 10_000, criterion: str = "loglik"
) -> np.ndarray:
    r"""The ``(R, k)`` estimates of :func:`ibu` on ``R`` count vectors ``(R, m)`` sharing one channel
    (each row stops on its own, so every row equals :func:`ibu` on that row).

    .. math:: \Theta \leftarrow \Theta \odot \big((Q \oslash \Theta C) C^\top\big)
    """
    return ibu(channel, counts, theta0=theta0, tol=tol, max_iter=max_iter, criterion=criterion, trace=False).estimate


@contract(
    channel=NonnegativeMatrix(),
    counts=_REPORTS,
    theta0=_THETA0,
    tol=_TOL,
    max_iter=_ITER,
    criterion=OneOf(*CRITERIA),
    min_iter=_ITER,
    record_trace=Boolean(),
)
def ibu_rows(
    channel,
    counts,
    *,
    theta0=None,
    tol: float = 1e-8,
    max_iter: int = 10_000,
    criterion: str = "loglik",
    min_iter: int = 0,
    record_trace: bool = False,
) -> IBUResult:
    """IBU with a non-negative observation matrix (rows need not sum to 1), one run or a batch.

    The update and the certificate are those of :func:`ibu`: the likelihood is invariant to the
    scaling of the columns, and with rows not summing to one (the restricted channels of ElSalamouny
    and Palamidessi, Sec. 8, or the stacked channels of :func:`gibu`) the update still preserves
    :math:`\\sum_x \\theta_x` and increases :math:`\\ell`. ``theta0`` must have full support.
    ``record_trace`` keeps :math:`\\ell` of run 0 at every iterate.
    """
    stop = StopRule(criterion, tol, min_iter, max_iter)
    prod, Q, Theta, single = _problem(channel, counts, theta0, full_support=theta0 is not None)
    return _run(prod, Q, Theta, stop, trace=bool(record_trace), single=single)


@contract(
    channel=NonnegativeMatrix(), counts=Array(1, low=0.0), theta0=Array(1, low=0.0), n_steps=Integer(0, MAX_ENTRIES)
)
def ibu_path(channel, counts, theta0, n_steps: int) -> np.ndarray:
    """The IBU iterates ``theta^0, ..., theta^{n_steps}`` as an ``(n_steps+1, k)`` array (the update of
    :func:`ibu`, with a non-negative matrix as in :func:`ibu_rows`, and no stopping rule: exactly
    ``n_steps`` updates), for drawing trajectories."""
    M = channel
    if (n_steps + 1) * M.shape[0] > MAX_ENTRIES:
        raise ValueError(f"n_steps: {n_steps + 1} iterates of {M.shape[0]} entries exceed {MAX_ENTRIES}")
    Q, single = _report_matrix(counts, M.shape[1])
    obs = Q[0] > 0
    prod = _Dense(M, obs)
    Qo = Q[:, obs]
    th = _theta0_batch(theta0, 1, M.shape[0], full_support=True)
    out = np.empty((n_steps + 1, M.shape[0]))
    out[0] = th[0]
    pos = Qo > 0
    for t in range(n_steps):
        th = th * prod.back(_ratio(Qo, prod.out(th), pos))
        th /= th.sum(axis=1, keepdims=True)
        out[t + 1] = th[0]
    return out


@contract(theta=Array(1, low=0.0), channel=NonnegativeMatrix(), q=Array(1, low=0.0))
def ibu_step(theta, channel, q) -> np.ndarray:
    """One IBU update (PRIVIC Def. 2.5): ``theta'(x) = sum_y q(y) theta(x) C_xy / sum_z theta(z) C_zy``.

    ``theta`` and ``q`` are nonnegative with a positive total (a negative ``theta`` is refused: it
    gave a negative "estimate"); ``channel`` need not be row-stochastic (the duality of PRIVIC
    Sec. 4 uses the unnormalised kernel); outputs with ``q(y) = 0`` contribute nothing; denominators
    are floored at 1e-300. The result is not renormalised (the update preserves the sum when ``q``
    sums to 1).
    """
    th, C, qq = theta, channel, q
    if C.shape != (th.size, qq.size):
        raise ValueError(f"channel must have shape ({th.size}, {qq.size}), got {C.shape}")
    if not (th.sum() > 0 and qq.sum() > 0):
        raise ValueError("theta and q must have a positive total")
    den = np.maximum(th @ C, _DEN_FLOOR)
    return th * (C @ np.where(qq > 0, qq / den, 0.0))


@contract(theta=Distribution(atol=1e-8), channel=NonnegativeMatrix(), counts=Array(1, low=0.0))
def ibu_gap(theta, channel, counts) -> float:
    r"""The certificate :math:`\log\max_x r_x(\theta)` at ``theta``: a bound on
    :math:`\ell(\hat\theta_{MLE}) - \ell(\theta)` (nats per report), 0 exactly at a maximum."""
    C, th = channel, theta
    if th.size != C.shape[0]:
        raise ValueError(f"theta has length {th.size} but the channel has {C.shape[0]} inputs (rows)")
    Q, single = _report_matrix(counts, C.shape[1])
    obs = Q[0] > 0
    prod = _Dense(C, obs)
    D = prod.out(th[None, :])
    if np.any(~(D > 0)):
        return float("inf")
    return max(float(np.log(prod.back(Q[:, obs] / D).max())), 0.0)


@contract(theta=Distribution(atol=1e-8), channel=_CHANNEL_LIKE, counts=Array(1, low=0.0))
def log_likelihood(theta, channel, counts) -> float:
    r"""Normalised log-likelihood :math:`\ell(\theta) = \sum_z q_z \log (\theta C)_z` (nats).

    :math:`L = n \ell` is the log-likelihood of the reports (ElSalamouny and Palamidessi, Eqs. 1-2).
    Returns ``-inf`` when an observed output has probability 0 under ``theta``. ``channel`` may be a
    dense matrix, a :class:`ldpnb.channels.structured.ChannelOperator` or a mechanism.
    """
    th = theta
    channel = _as_channel(channel)
    if is_operator(channel):
        k, m = channel.shape
        den_full = lambda: channel.matvec(th)  # noqa: E731
    else:
        C = channel
        k, m = C.shape
        den_full = lambda: th @ C  # noqa: E731
    if th.size != k:
        raise ValueError(f"theta has length {th.size} but the channel has {k} inputs (rows)")
    c = _check_report_counts(counts, m)
    q = c / c.sum()
    obs = q > 0
    den = den_full()[obs]
    if np.any(den <= 0):
        return -np.inf
    return float(np.dot(q[obs], np.log(den)))


# ----------------------------------------------------------------------------- GIBU
_CHANNELS = Instance(list, tuple, example=[np.array([[0.75, 0.25], [0.25, 0.75]])])
_COUNTS_LIST = Instance(list, tuple, example=[np.array([3, 1])])


def _stack(channels, counts_list):
    if len(channels) == 0:
        raise ValueError("channels must be a non-empty list")
    if len(channels) > MAX_ENTRIES:
        raise ValueError(f"channels: more than {MAX_ENTRIES} channels")
    Cs = [Channel().check(C, f"channels[{i}]") for i, C in enumerate(channels)]
    if len(counts_list) != len(Cs):
        raise ValueError(f"need one counts vector per channel, got {len(counts_list)} for {len(Cs)}")
    m, n = Cs[0].shape
    if any(C.shape != (m, n) for C in Cs):
        raise ValueError("all channels must have the same shape")
    N = np.stack([Counts().check(c, f"counts[{i}]") for i, c in enumerate(counts_list)]).astype(float)
    if N.shape[1] != n:
        raise ValueError(f"counts must have length {n}")
    if np.any(N.sum(axis=1) <= 0):
        raise ValueError("every cycle needs at least one report")
    return np.stack(Cs), N


@contract(theta=Distribution(atol=1e-8), channels=_CHANNELS, counts_list=_COUNTS_LIST)
def gibu_log_likelihood(theta, channels, counts_list) -> float:
    r"""``L(θ) / n_total = Σ_t Σ_y (n_t(y) / n_total) log (θ C^(t))_y`` (PRIVIC Def. 2.6)."""
    Cs, N = _stack(channels, counts_list)
    if theta.size != Cs.shape[1]:
        raise ValueError(f"theta has length {theta.size} but the channels have {Cs.shape[1]} inputs (rows)")
    den = np.einsum("x,txy->ty", theta, Cs)
    w = N / N.sum()
    mask = w > 0
    with np.errstate(divide="ignore"):
        return float(np.sum(w[mask] * np.log(den[mask])))


@contract(
    channels=_CHANNELS,
    counts_list=_COUNTS_LIST,
    theta0=Optional(Array(1, low=0.0)),
    tol=_TOL,
    max_iter=_ITER,
    criterion=OneOf(*CRITERIA),
    trace=Boolean(),
)
def gibu(
    channels,
    counts_list,
    *,
    theta0=None,
    tol: float = 1e-10,
    max_iter: int = 5000,
    criterion: str = "loglik",
    trace: bool = True,
) -> IBUResult:
    r"""Generalised IBU over several (channel, reports) pairs (Biswas and Palamidessi, PRIVIC Def. 2.6;
    ElSalamouny and Palamidessi 2020): EM for the pooled reports of all cycles.

    .. math:: \theta_{r+1}(x) = \sum_t w_t \sum_y q_t(y)\, \frac{\theta_r(x) C^{(t)}_{xy}}{(\theta_r C^{(t)})_y},
              \qquad w_t = n_t / \textstyle\sum_s n_s ,

    which is :func:`ibu` on the stacked observation matrix :math:`G = (C^{(1)} \cdots C^{(N)})` with the
    pooled weights (rows of :math:`G` sum to :math:`N`; the update, the certificate and the stopping
    rule are unchanged).
    """
    Cs, N = _stack(channels, counts_list)
    T, m, n = Cs.shape
    stop = StopRule(criterion, tol, 0, max_iter)
    if theta0 is not None:
        t0 = theta0
        if t0.shape != (m,) or not t0.sum() > 0:
            raise ValueError(f"theta0 must be a non-negative vector of length {m} with a positive sum")
        theta0 = t0 / t0.sum()
    W = (N / N.sum()).ravel()[None, :]
    G = Cs.transpose(1, 0, 2).reshape(m, T * n)
    obs = W[0] > 0
    impossible = obs & ~(G.sum(axis=0) > 0)
    if np.any(impossible):
        t, y = divmod(int(np.flatnonzero(impossible)[0]), n)
        raise ValueError(
            f"counts[{t}] reports output {y}, which has probability 0 under every input of "
            f"channels[{t}]: the counts are impossible under these channels"
        )
    Theta = _theta0_batch(theta0, 1, m)
    return _run(_Dense(G, obs), np.ascontiguousarray(W[:, obs]), Theta, stop, trace=bool(trace), single=True)
