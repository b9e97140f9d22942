"""The iterative Bayesian update (IBU, an EM algorithm) for the input distribution of a channel.

Agrawal and Aggarwal (2001); ElSalamouny and Palamidessi (2020), Algorithm 1; the generalised IBU
over several channels of Biswas and Palamidessi (PRIVIC), Def. 2.6.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import numpy as np
from ldpnb.channels.structured import ChannelOperator, DiagPlusConstChannel, is_operator
from ldpnb.utils import (
    check_channel, check_counts, check_distribution, check_finite_array, check_nonnegative,
    check_positive_int,
)
from ldpnb.utils import (
    check_nonnegative_matrix,
)
from ldpnb.estimators._inversion import _check_report_counts

__all__ = [
    "IBUResult",
    "ibu",
    "ibu_batch",
    "log_likelihood",
    "IBUBatchResult",
    "ibu_rows",
    "ibu_path",
    "GIBUResult",
    "gibu",
    "gibu_log_likelihood",
    "ibu_step",
]


# ----------------------------------------------------------------------------- IBU
def log_likelihood(theta, channel, counts) -> float:
    r"""Normalised log-likelihood :math:`\ell(\theta) = \sum_z q_z \log (\theta C)_z` (nats).

    :math:`L = n \ell` is the log-likelihood of the reports (ElSalamouny and
    Palamidessi, Eqs. 1-2). Returns ``-inf`` when an observed output has
    probability 0 under ``theta``. ``channel`` may be a dense matrix or a
    :class:`ldpnb.structured.ChannelOperator`.
    """
    if is_operator(channel):
        k, m = channel.shape
        th = check_distribution(theta, "theta", atol=1e-8)
        if th.size != k:
            raise ValueError(f"theta has length {th.size} but the channel has {k} inputs (rows)")
        c = _check_report_counts(counts, m)
        q = c / c.sum()
        obs = q > 0
        den = channel.matvec(th)[obs]
        if np.any(den <= 0):
            return -np.inf
        return float(np.dot(q[obs], np.log(den)))
    C = check_channel(channel)
    th = check_distribution(theta, "theta", atol=1e-8)
    if th.size != C.shape[0]:
        raise ValueError(f"theta has length {th.size} but the channel has {C.shape[0]} inputs (rows)")
    c = _check_report_counts(counts, C.shape[1])
    q = c / c.sum()
    obs = q > 0
    den = th @ C[:, obs]
    if np.any(den <= 0):
        return -np.inf
    return float(np.dot(q[obs], np.log(den)))


@dataclass
class IBUResult:
    """Result of :func:`ibu`.

    Attributes
    ----------
    estimate : ndarray
        The final iterate (a distribution on the inputs).
    n_iter : int
        Number of IBU updates performed.
    loglik : ndarray
        Normalised log-likelihood of every iterate :math:`\\theta^0, \\dots, \\theta^{n\\_iter}` (nats).
    converged : bool
        True when the change of the normalised log-likelihood fell below ``tol``.
    """

    estimate: np.ndarray
    n_iter: int
    loglik: np.ndarray = field(repr=False)
    converged: bool

    @property
    def final_loglik(self) -> float:
        return float(self.loglik[-1])


def _prepare_ibu(channel, counts, theta0):
    C = check_channel(channel)
    c = _check_report_counts(counts, C.shape[1])
    q = c / c.sum()
    obs = q > 0
    Cq = np.ascontiguousarray(C[:, obs])
    qq = q[obs]
    if np.any(Cq.sum(axis=0) <= 0):
        z = np.flatnonzero(obs)[np.flatnonzero(Cq.sum(axis=0) <= 0)[0]]
        raise ValueError(f"output {z} was observed but has probability 0 under every input: the counts are impossible under this channel")
    k = C.shape[0]
    if theta0 is None:
        theta = np.full(k, 1.0 / k)
    else:
        theta = check_distribution(theta0, "theta0", atol=1e-8).copy()
        if theta.size != k:
            raise ValueError(f"theta0 has length {theta.size} but the channel has {k} inputs (rows)")
        theta /= theta.sum()
    return Cq, qq, theta


def _check_tol(tol) -> float:
    """A stopping threshold: a real number, finite and >= 0 (``0`` runs exactly ``max_iter`` updates)."""
    return check_nonnegative(tol, "tol")


def _theta0_batch(theta0, R: int, k: int) -> np.ndarray:
    """Starting points of :func:`ibu_batch`: uniform, one distribution for every row, or one per row."""
    if theta0 is None:
        return np.full((R, k), 1.0 / k)
    t0 = check_finite_array(theta0, "theta0")
    if t0.ndim not in (1, 2) or t0.shape[-1] != k or (t0.ndim == 2 and t0.shape[0] not in (1, R)):
        raise ValueError(f"theta0 must have shape ({k},) or ({R}, {k}), got {t0.shape}")
    Theta = np.broadcast_to(t0, (R, k)).astype(float, copy=True)
    if np.any(Theta < 0) or np.any(np.abs(Theta.sum(axis=1) - 1) > 1e-8):
        raise ValueError("theta0 must be a distribution (or one per row): entries >= 0 summing to 1")
    return Theta


_CRITERIA = ("loglik", "max_abs", "l1")


def _check_criterion(criterion) -> str:
    if criterion not in _CRITERIA:
        raise ValueError(f"criterion must be one of {_CRITERIA}, got {criterion!r}")
    return criterion


def _change(new: np.ndarray, old: np.ndarray, criterion: str) -> float:
    d = np.abs(new - old)
    return float(d.max() if criterion == "max_abs" else d.sum())


def ibu(channel, counts, *, theta0=None, tol: float = 1e-8, max_iter: int = 10_000,
        criterion: str = "loglik") -> IBUResult:
    r"""Iterative Bayesian update (EM) for the input distribution.

    .. math:: \theta^{t+1}_x = \theta^t_x \sum_z q_z \frac{C_{xz}}{(\theta^t C)_z}

    ElSalamouny and Palamidessi (2020), Algorithm 1. Only the observed outputs
    (``counts > 0``) enter the computation, which changes nothing and saves time.
    Stops when the normalised log-likelihood changes by less than ``tol`` between two
    iterates, or after ``max_iter`` updates (``tol=0`` runs exactly ``max_iter``
    updates, as PRIVIC's fixed-iteration protocol does).

    Parameters
    ----------
    channel : (k, m) array
        Rows = inputs, columns = outputs; rows sum to 1.
    counts : (m,) array
        Number of reports of each output (or the empirical distribution of the reports).
    theta0 : (k,) array, optional
        Starting distribution, uniform by default. IBU never revives an input with
        :math:`\theta^0_x = 0`: pass a full-support start unless that is intended.
    tol : float
        Stopping threshold on the change of :math:`\ell(\theta) = \sum_z q_z \log(\theta C)_z`
        (or of the iterate, see ``criterion``).
    max_iter : int
        Maximum number of updates.
    criterion : {"loglik", "max_abs", "l1"}
        What ``tol`` bounds: the change of the normalised log-likelihood (default), the
        largest change of an entry of :math:`\theta` (multi-freq-ldpy's default, with
        ``tol=1e-12``) or the L1 change of :math:`\theta` (libqif's rule, ``tol=1e-6``).
        The stopping rule, more than the cost of an iteration, decides the run time.

    Fast paths
    ----------
    ``channel`` may also be a :class:`ldpnb.structured.ChannelOperator`: k-RR and other
    diagonal-plus-constant channels (:class:`~ldpnb.structured.KRRChannel`,
    :class:`~ldpnb.structured.DiagPlusConstChannel`, :math:`O(k)` per iteration), or
    translation-invariant grid channels with the clamped boundary handled exactly
    (:class:`~ldpnb.structured.ConvolutionChannel`, FFT, :math:`O(k \log k)`). The iterates are
    those of the dense update (to rounding; tested to 1e-12). A support matrix
    (``DiagPlusConstChannel.from_support(k, p, q)``, rows not summing to 1) runs the
    support-count IBU of multi-freq-ldpy on normalised support counts.
    """
    tol = _check_tol(tol)
    max_iter = check_positive_int(max_iter, "max_iter", minimum=0)
    criterion = _check_criterion(criterion)
    if is_operator(channel):
        return _ibu_operator(channel, counts, theta0, tol, max_iter, criterion)
    Cq, qq, theta = _prepare_ibu(channel, counts, theta0)
    trace = np.empty(max_iter + 1)
    den = theta @ Cq
    if np.any(den <= 0):
        raise ValueError("theta0 gives probability 0 to an observed output; start from a full-support distribution")
    trace[0] = np.dot(qq, np.log(den))
    converged = False
    t = 0
    while t < max_iter:
        old = theta
        theta = theta * (Cq @ (qq / den))
        theta /= theta.sum()  # guards rounding drift only; the update preserves the sum exactly
        den = theta @ Cq
        t += 1
        trace[t] = np.dot(qq, np.log(den))
        if tol > 0:
            change = abs(trace[t] - trace[t - 1]) if criterion == "loglik" else _change(theta, old, criterion)
            if change < tol:
                converged = True
                break
    return IBUResult(theta, t, trace[: t + 1].copy(), converged)


def _prepare_operator(op: ChannelOperator, q_obs_any: np.ndarray) -> None:
    colsum = op.column_sums()
    # FFT products carry absolute round-off ~1e-16: a column that small is treated as zero
    bad = np.flatnonzero(q_obs_any & ~(colsum > 1e-13 * colsum.max()))
    if bad.size:
        raise ValueError(f"output {bad[0]} was observed but has probability 0 under every input: "
                         "the counts are impossible under this channel")


def _theta0(theta0, k: int) -> np.ndarray:
    if theta0 is None:
        return np.full(k, 1.0 / k)
    theta = check_distribution(theta0, "theta0", atol=1e-8).copy()
    if theta.size != k:
        raise ValueError(f"theta0 has length {theta.size} but the channel has {k} inputs (rows)")
    return theta / theta.sum()


#: Floor of the output probabilities of an operator (FFT round-off can give exact zeros or
#: tiny negatives where the true value is a tiny positive number).
_DEN_FLOOR = 1e-300


def _ibu_operator(op: ChannelOperator, counts, theta0, tol: float, max_iter: int, criterion: str = "loglik") -> IBUResult:
    """IBU with a structured channel: the dense update with ``theta @ C`` and ``C @ r`` as products."""
    k, m = op.shape
    c = _check_report_counts(counts, m)
    q = c / c.sum()
    obs = q > 0
    _prepare_operator(op, obs)
    theta = _theta0(theta0, k)
    all_obs = bool(obs.all())
    if isinstance(op, DiagPlusConstChannel) and all_obs and op.b > 0:
        return _ibu_diag_plus_const(op.a, op.b, q, theta, tol, max_iter, criterion)
    qq = q if all_obs else q[obs]
    r = np.zeros(m)

    def out_prob(th):
        d = op.matvec(th)
        return d if all_obs else d[obs]

    den = out_prob(theta)
    if np.any(den <= 0):
        raise ValueError("theta0 gives probability 0 to an observed output; start from a full-support distribution")
    trace = np.empty(max_iter + 1)
    trace[0] = np.dot(qq, np.log(den))
    converged = False
    t = 0
    while t < max_iter:
        if all_obs:
            r = qq / den
        else:
            r[obs] = qq / den
        old = theta
        theta = theta * op.rmatvec(r)
        theta /= theta.sum()
        den = np.maximum(out_prob(theta), _DEN_FLOOR)
        t += 1
        trace[t] = np.dot(qq, np.log(den))
        if tol > 0:
            change = abs(trace[t] - trace[t - 1]) if criterion == "loglik" else _change(theta, old, criterion)
            if change < tol:
                converged = True
                break
    return IBUResult(theta, t, trace[: t + 1].copy(), converged)


def _ibu_diag_plus_const(a: float, b: float, q: np.ndarray, theta: np.ndarray, tol: float, max_iter: int,
                         criterion: str) -> IBUResult:
    r"""IBU for :math:`C = aI + b\mathbf 1\mathbf 1^\top` with every output observed, inlined.

    :math:`\theta C = a\theta + b\sum\theta` and :math:`C r = a r + b \sum r`; a handful of
    in-place operations on k-vectors per iteration (the Python overhead dominates at small k).
    """
    k = theta.size
    den = a * theta + b * theta.sum()
    trace = np.empty(max_iter + 1)
    trace[0] = np.dot(q, np.log(den))
    r = np.empty(k)
    old = np.empty(k)
    logden = np.empty(k)
    converged = False
    t = 0
    while t < max_iter:
        np.divide(q, den, out=r)
        s = r.sum()
        if criterion != "loglik":
            old[:] = theta
        r *= a
        r += b * s
        theta *= r
        theta /= theta.sum()
        np.multiply(theta, a, out=den)
        den += b  # theta sums to 1
        t += 1
        np.log(den, out=logden)
        trace[t] = np.dot(q, logden)
        if tol > 0:
            change = abs(trace[t] - trace[t - 1]) if criterion == "loglik" else _change(theta, old, criterion)
            if change < tol:
                converged = True
                break
    return IBUResult(theta, t, trace[: t + 1].copy(), converged)


def _ibu_batch_operator(op: ChannelOperator, Q: np.ndarray, theta0, tol: float, max_iter: int) -> np.ndarray:
    k, m = op.shape
    if Q.shape[1] != m:
        raise ValueError(f"counts has {Q.shape[1]} columns but the channel has {m} outputs")
    if np.any(Q < 0):
        raise ValueError("counts must be nonnegative")
    tot = Q.sum(axis=1)
    if np.any(tot <= 0):
        raise ValueError("every row of counts must have a positive total")
    Q = Q / tot[:, None]
    _prepare_operator(op, Q.sum(axis=0) > 0)
    R = Q.shape[0]
    Theta = _theta0_batch(theta0, R, k)
    max_iter = check_positive_int(max_iter, "max_iter", minimum=0)
    pos = Q > 0

    def loglik(Qa, D, P):
        with np.errstate(divide="ignore"):
            return np.sum(np.where(P, Qa * np.log(np.where(P, D, 1.0)), 0.0), axis=1)

    active = np.arange(R)
    den = op.matvec(Theta)
    ll = loglik(Q, den, pos)
    for _ in range(max_iter):
        if active.size == 0:
            break
        Th, D, Qa, P = Theta[active], den[active], Q[active], pos[active]
        ratio = np.divide(Qa, D, out=np.zeros_like(Qa), where=P)
        Th = Th * op.rmatvec(ratio)
        Th /= Th.sum(axis=1, keepdims=True)
        D = np.where(P, np.maximum(op.matvec(Th), _DEN_FLOOR), 0.0)
        new_ll = loglik(Qa, D, P)
        Theta[active], den[active] = Th, D
        done = np.abs(new_ll - ll[active]) < tol if tol > 0 else np.zeros(active.size, bool)
        ll[active] = new_ll
        active = active[~done]
    return Theta


def ibu_batch(channel, counts, *, theta0=None, tol: float = 1e-8, max_iter: int = 10_000) -> np.ndarray:
    r"""IBU for ``R`` repetitions sharing one channel, as one matrix iteration.

    ``counts`` is ``(R, m)``; returns the ``(R, k)`` estimates. Each row stops on its
    own criterion (frozen once converged), so every row equals :func:`ibu` on that row.

    .. math:: \Theta \leftarrow \Theta \odot \big((Q \oslash \Theta C) C^\top\big)

    ``channel`` may be a :class:`ldpnb.structured.ChannelOperator` (the batched products are
    one call per iteration for all active rows; see :func:`ibu`).
    """
    tol = _check_tol(tol)
    if is_operator(channel):
        return _ibu_batch_operator(channel, check_finite_array(counts, "counts", ndim=2), theta0, tol, max_iter)
    C = check_channel(channel)
    Q = check_finite_array(counts, "counts", ndim=2)
    if Q.shape[1] != C.shape[1]:
        raise ValueError(f"counts has {Q.shape[1]} columns but the channel has {C.shape[1]} outputs")
    if np.any(Q < 0):
        raise ValueError("counts must be nonnegative")
    tot = Q.sum(axis=1)
    if np.any(tot <= 0):
        raise ValueError("every row of counts must have a positive total")
    Q = Q / tot[:, None]
    obs = Q.sum(axis=0) > 0
    Cq, Qq = C[:, obs], Q[:, obs]
    if np.any(Cq.sum(axis=0) <= 0):
        raise ValueError("an observed output has probability 0 under every input")
    R, k = Q.shape[0], C.shape[0]
    Theta = _theta0_batch(theta0, R, k)
    max_iter = check_positive_int(max_iter, "max_iter", minimum=0)
    active = np.arange(R)
    den = Theta @ Cq
    with np.errstate(divide="ignore"):
        ll = np.sum(np.where(Qq > 0, Qq * np.log(den), 0.0), axis=1)
    for _ in range(max_iter):
        if active.size == 0:
            break
        Th, D, Qa = Theta[active], den[active], Qq[active]
        ratio = np.divide(Qa, D, out=np.zeros_like(Qa), where=Qa > 0)
        Th = Th * (ratio @ Cq.T)
        Th /= Th.sum(axis=1, keepdims=True)
        D = Th @ Cq
        with np.errstate(divide="ignore"):
            new_ll = np.sum(np.where(Qa > 0, Qa * np.log(D), 0.0), axis=1)
        Theta[active], den[active] = Th, D
        done = np.abs(new_ll - ll[active]) < tol if tol > 0 else np.zeros(active.size, bool)
        ll[active] = new_ll
        active = active[~done]
    return Theta


@dataclass
class IBUBatchResult:
    """Result of :func:`ibu_rows`: ``estimate (R, k)``, ``n_iter (R,)``, final normalised
    log-likelihood ``loglik (R,)``, ``converged (R,)`` and, optionally, the trace of ``l`` of the
    first row."""

    estimate: np.ndarray
    n_iter: np.ndarray
    loglik: np.ndarray
    converged: np.ndarray
    trace: list = field(default_factory=list)


def ibu_rows(channel, counts, *, theta0=None, tol: float = 1e-8, max_iter: int = 10_000,
              min_iter: int = 0, record_trace: bool = False) -> IBUBatchResult:
    """Iterative Bayesian update (Algorithm 1) on ``R`` count vectors at once, sharing ``M``,
    with iteration counts and final log-likelihoods (row-wise identical to
    :func:`ldpnb.estimators.ibu`, which requires a stochastic channel).

    ``theta^{t+1}_x = sum_z q_z theta^t_x M_xz / (theta^t M)_z``, vectorised over rows:
    ``Theta <- Theta * ((Q / (Theta M)) M^T)`` on the observed columns only.  Each row stops on its
    own when ``|l(theta^t) - l(theta^{t-1})| < tol`` (``l`` = normalised log-likelihood, so ``tol``
    does not scale with ``n``; spec §8) or after ``max_iter`` updates; stopped rows are frozen.

    ``channel`` only needs to be non-negative (IBU is invariant to rescaling columns, so restricted
    channels of §8 whose rows do not sum to 1 are allowed).  ``counts``: ``(m,)`` or ``(R, m)``.
    ``theta0``: ``(k,)`` or ``(R, k)`` full-support start (default uniform).  ``min_iter``: no row
    stops before this many updates.  ``tol=0`` runs exactly ``max_iter`` updates (a fast path that
    evaluates the log-likelihood only at the end).  ``record_trace`` keeps ``l(theta^t)`` of row 0.

    References: ElSalamouny & Palamidessi, Algorithm 1 and eq. (2); spec 002 A1.
    """
    M = check_nonnegative_matrix(channel, "channel")
    C = check_finite_array(counts, "counts")  # refuses NaN/inf and an empty batch
    single = C.ndim == 1
    C = np.atleast_2d(C)
    if C.ndim != 2 or C.shape[1] != M.shape[1]:
        raise ValueError(f"counts must have last dimension {M.shape[1]}")
    if np.any(C < 0) or np.any(C.sum(axis=1) <= 0):
        raise ValueError("counts must be non-negative and not all zero")
    tol = _check_tol(tol)
    max_iter = check_positive_int(max_iter, "max_iter", minimum=0)
    R, k = C.shape[0], M.shape[0]
    Q = C / C.sum(axis=1, keepdims=True)
    obs = Q.any(axis=0)
    Mo = M[:, obs]
    Qo = Q[:, obs]
    if np.any((Mo.sum(axis=0) == 0)):
        raise ValueError("an observed output has probability 0 under every input")
    if theta0 is None:
        theta = np.full((R, k), 1.0 / k)
    else:
        t0 = check_finite_array(theta0, "theta0")
        theta = np.broadcast_to(t0, (R, k)).astype(float, copy=True)
        if np.any(theta <= 0):
            raise ValueError("theta0 must have full support (IBU keeps zeros at zero)")
        theta /= theta.sum(axis=1, keepdims=True)
    pos = Qo > 0
    l_old = np.full(R, -np.inf)
    n_iter = np.zeros(R, dtype=int)
    conv = np.zeros(R, dtype=bool)
    loglik = np.full(R, -np.inf)
    active = np.arange(R)
    trace = []
    if tol == 0 and not record_trace:  # fixed iteration count: no log-likelihood inside the loop
        MoT = np.ascontiguousarray(Mo.T)
        Qz = np.where(pos, Qo, 0.0)
        for _ in range(max_iter):
            den = theta @ Mo
            np.divide(Qz, den, out=den, where=pos)
            den[~pos] = 0.0
            theta *= den @ MoT
            theta /= theta.sum(axis=1, keepdims=True)
        n_iter[:] = max_iter
        den = theta @ Mo
        with np.errstate(divide="ignore", invalid="ignore"):
            loglik = np.where(pos, Qo * np.log(den), 0.0).sum(axis=1)
        res = IBUBatchResult(theta, n_iter, loglik, conv, trace)
        if single:
            res = IBUBatchResult(theta[0], n_iter[:1], loglik[:1], conv[:1], trace)
        return res
    for t in range(max_iter + 1):
        th = theta[active]
        den = th @ Mo
        qa = Qo[active]
        with np.errstate(divide="ignore", invalid="ignore"):
            ll = np.where(pos[active], qa * np.log(den), 0.0).sum(axis=1)
        loglik[active] = ll
        if record_trace and active.size and active[0] == 0:
            trace.append(float(ll[0]))
        stop = (np.abs(ll - l_old[active]) < tol) & (t >= min_iter)
        conv[active[stop]] = True
        if t == max_iter:
            break
        keep = ~stop
        active = active[keep]
        if active.size == 0:
            break
        l_old[active] = ll[keep]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(pos[active], qa[keep] / den[keep], 0.0)
        theta[active] = th[keep] * (ratio @ Mo.T)
        theta[active] /= theta[active].sum(axis=1, keepdims=True)
        n_iter[active] += 1
    res = IBUBatchResult(theta, n_iter, loglik, conv, trace)
    if single:
        res = IBUBatchResult(theta[0], n_iter[:1], loglik[:1], conv[:1], trace)
    return res


def ibu_path(channel, counts, theta0, n_steps: int) -> np.ndarray:
    """The IBU iterates ``theta^0, ..., theta^{n_steps}`` (Algorithm 1) as an ``(n_steps+1, k)``
    array, for drawing trajectories on the likelihood surfaces (Figs. 3, 5)."""
    M = check_nonnegative_matrix(channel, "channel")
    c = np.asarray(counts, dtype=float)
    if c.shape != (M.shape[1],) or np.any(c < 0) or c.sum() <= 0:
        raise ValueError("counts must be non-negative with length channel.shape[1]")
    th = np.asarray(theta0, dtype=float)
    if th.shape != (M.shape[0],) or np.any(th <= 0):
        raise ValueError("theta0 must be a full-support distribution of length channel.shape[0]")
    q = c / c.sum()
    obs = q > 0
    Mo, qo = M[:, obs], q[obs]
    out = np.empty((int(n_steps) + 1, M.shape[0]))
    out[0] = th / th.sum()
    for t in range(int(n_steps)):
        out[t + 1] = out[t] * (Mo @ (qo / (out[t] @ Mo)))
    return out


# ----------------------------------------------------------------------------- GIBU
@dataclass
class GIBUResult:
    """Result of :func:`gibu`: ``estimate``, ``n_iter``, ``loglik`` (trace, per-report mean), ``converged``."""

    estimate: np.ndarray
    n_iter: int
    loglik: np.ndarray = field(repr=False)
    converged: bool


def _stack(channels, counts_list):
    Cs = [check_channel(C, f"channels[{i}]") for i, C in enumerate(channels)]
    if not Cs:
        raise ValueError("channels must be a non-empty list")
    if len(counts_list) != len(Cs):
        raise ValueError(f"need one counts vector per channel, got {len(counts_list)} for {len(Cs)}")
    m, n = Cs[0].shape
    if any(C.shape != (m, n) for C in Cs):
        raise ValueError("all channels must have the same shape")
    N = np.stack([check_counts(c, f"counts[{i}]") for i, c in enumerate(counts_list)]).astype(float)
    if N.shape[1] != n:
        raise ValueError(f"counts must have length {n}")
    if np.any(N.sum(axis=1) <= 0):
        raise ValueError("every cycle needs at least one report")
    return np.stack(Cs), N


def gibu_log_likelihood(theta, channels, counts_list) -> float:
    """``L(theta) / n_total = sum_t sum_y (n_t(y) / n_total) log (theta C^(t))_y`` (Def. 2.6; spec A3)."""
    Cs, N = _stack(channels, counts_list)
    den = np.einsum("x,txy->ty", np.asarray(theta, dtype=float), Cs)
    w = N / N.sum()
    mask = w > 0
    with np.errstate(divide="ignore"):
        return float(np.sum(w[mask] * np.log(den[mask])))


def gibu(channels, counts_list, *, theta0=None, tol: float = 1e-10, max_iter: int = 5000) -> GIBUResult:
    """Generalised IBU over several (channel, reports) pairs (paper Def. 2.6; ElSalamouny & Palamidessi 2020).

    ``theta_{r+1}(x) = sum_t w_t sum_y q_t(y) theta_r(x) C^(t)_xy / sum_z theta_r(z) C^(t)_zy`` with
    ``w_t = n_t / sum_s n_s``, i.e. EM for the pooled reports of all cycles.  Stops when the
    per-report log-likelihood gains less than ``tol`` (``tol=0``: exactly ``max_iter`` updates).
    """
    Cs, N = _stack(channels, counts_list)
    T, m, n = Cs.shape
    tol = check_nonnegative(tol, "tol")
    max_iter = check_positive_int(max_iter, "max_iter", minimum=0)
    if theta0 is None:
        theta = np.full(m, 1.0 / m)
    else:
        t0 = check_finite_array(theta0, "theta0", ndim=1)
        if t0.shape != (m,) or np.any(t0 < 0) or not t0.sum() > 0:
            raise ValueError(f"theta0 must be a non-negative vector of length {m} with a positive sum")
        theta = t0 / t0.sum()
    # the combined channel G = (C^(1) ... C^(N)) (m x N n) and the pooled weights w_t q_t(y)
    W = (N / N.sum()).ravel()
    obs = W > 0
    G = np.ascontiguousarray(Cs.transpose(1, 0, 2).reshape(m, T * n)[:, obs])
    impossible = G.sum(axis=0) <= 0
    if np.any(impossible):
        t, y = divmod(int(np.flatnonzero(obs)[np.flatnonzero(impossible)[0]]), n)
        raise ValueError(f"counts[{t}] reports output {y}, which has probability 0 under every input of "
                         f"channels[{t}]: the counts are impossible under these channels")
    w = W[obs]
    trace = []
    den = theta @ G
    trace.append(float(w @ np.log(np.maximum(den, 1e-300))))
    converged = False
    it = 0
    while it < max_iter:
        theta = theta * (G @ (w / np.maximum(den, 1e-300)))
        theta /= theta.sum()
        den = theta @ G
        it += 1
        trace.append(float(w @ np.log(np.maximum(den, 1e-300))))
        if tol > 0 and abs(trace[-1] - trace[-2]) < tol:
            converged = True
            break
    return GIBUResult(theta, it, np.asarray(trace), converged)


# ----------------------------------------------------------------------------- duality (§4)
def ibu_step(theta, channel, q) -> np.ndarray:
    """One IBU step (paper Def. 2.5): ``theta'(x) = sum_y q(y) theta(x) C_xy / sum_z theta(z) C_zy``.

    ``channel`` need not be row-stochastic here (the duality of §4 uses the unnormalised kernel);
    outputs with ``q(y) = 0`` contribute nothing, denominators are clipped at 1e-300.
    """
    th = np.asarray(theta, dtype=float)
    C = np.asarray(channel, dtype=float)
    qq = np.asarray(q, dtype=float)
    if C.ndim != 2 or C.shape != (th.size, qq.size):
        raise ValueError(f"channel must have shape ({th.size}, {qq.size}), got {C.shape}")
    den = np.maximum(th @ C, 1e-300)
    r = np.where(qq > 0, qq / den, 0.0)
    return th * (C @ r)
