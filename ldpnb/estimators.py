r"""Estimators of the input distribution from locally obfuscated reports.

The data collector knows the channel :math:`C` (rows = inputs :math:`x`, columns =
outputs :math:`z`, :math:`C_{xz} = P(z \mid x)`) and the counts :math:`c_z` of the
reports, with :math:`n = \sum_z c_z` and :math:`q = c / n`.

* **INV** (matrix inversion): :math:`v = q C^{-1}`, unbiased, may leave the simplex;
  **INV-N** clips negatives and renormalises; **INV-P** projects :math:`v` on the simplex
  (Euclidean projection, Wang and Carreira-Perpiñán 2013).
* **Support-count estimator** of pure frequency oracles (Wang et al. 2017, Eq. 2):
  :math:`\hat f(v) = (C(v) - n q) / (n (p - q))`.
* **IBU** (iterative Bayesian update; Agrawal and Aggarwal 2001, Agrawal, Srikant
  and Thomas 2005; ElSalamouny and Palamidessi 2020, Algorithm 1):

  .. math:: \theta^{t+1}_x = \sum_z q_z \frac{\theta^t_x C_{xz}}{\sum_u \theta^t_u C_{uz}},

  an EM iteration whose normalised log-likelihood
  :math:`\ell(\theta) = \sum_z q_z \log(\theta C)_z` never decreases and whose limit is
  a maximum-likelihood estimate.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .structured import ChannelOperator, DiagPlusConstChannel, is_operator
from .utils import (check_channel, check_counts, check_distribution, check_finite_array, check_nonnegative,
                    check_positive_int)

__all__ = [
    "IBUResult",
    "ibu",
    "ibu_batch",
    "log_likelihood",
    "inv_raw",
    "inv_normalized",
    "inv_projected",
    "project_simplex",
    "normalize_clip",
    "fo_estimate",
]


# --------------------------------------------------------------------------- helpers
def _check_report_counts(counts, m: int, name: str = "counts") -> np.ndarray:
    """Counts over the outputs (nonnegative, finite; integers or a distribution), length ``m``."""
    c = check_finite_array(counts, name, ndim=1)
    if c.shape[0] != m:
        raise ValueError(f"{name} has length {c.shape[0]} but the channel has {m} outputs (columns)")
    if np.any(c < 0):
        raise ValueError(f"{name} must be nonnegative (min {c.min():.3g})")
    total = c.sum()
    if not total > 0:
        raise ValueError(f"{name} must have a positive total (no reports observed)")
    return c


def project_simplex(v) -> np.ndarray:
    r"""Euclidean projection of ``v`` onto the probability simplex.

    Returns :math:`\arg\min_{w \in \Delta} \|w - v\|_2`, computed in :math:`O(k \log k)` as
    :math:`w = \max(v + \lambda, 0)` with :math:`\lambda = (1 - \sum_{j \le \rho} u_j)/\rho`,
    :math:`u` = ``v`` sorted decreasingly and :math:`\rho = \max\{j : u_j + (1 - \sum_{i\le j} u_i)/j > 0\}`
    (Wang and Carreira-Perpiñán 2013, Algorithm 1; the INV-P post-processing of
    ElSalamouny and Palamidessi).
    """
    v = check_finite_array(v, "v", ndim=1)
    u = np.sort(v)[::-1]
    css = np.cumsum(u)
    j = np.arange(1, v.size + 1)
    cond = u + (1.0 - css) / j > 0
    rho = int(np.flatnonzero(cond)[-1]) + 1
    lam = (1.0 - css[rho - 1]) / rho
    w = np.maximum(v + lam, 0.0)
    return w / w.sum()


def _clip_normalize(v, name: str = "v", ndim: int | None = None) -> np.ndarray:
    """INV-N post-processing shared by the package: negatives to 0, then divide by the sum.

    ``v`` is 1-D or 2-D (then row-wise, rows = repetitions); it must be finite and non-empty
    (NaN is refused, never clipped away), and a row with no positive entry becomes uniform.
    :func:`normalize_clip`, :func:`ldpnb.ibu_theory.clip_normalize` and
    :func:`ldpnb.multidim.clip_normalize` are this function under their own argument names.
    """
    V = check_finite_array(v, name, ndim=ndim)
    if V.ndim not in (1, 2):
        raise ValueError(f"{name} must be 1-D or 2-D, got shape {V.shape}")
    W = np.maximum(np.atleast_2d(V), 0.0)
    s = W.sum(axis=1, keepdims=True)
    out = np.where(s > 0, W / np.where(s > 0, s, 1.0), 1.0 / W.shape[1])
    return out[0] if V.ndim == 1 else out


def normalize_clip(v) -> np.ndarray:
    """Clip negative entries to 0 and renormalise (INV-N). Uniform if nothing positive remains."""
    return _clip_normalize(v, "v", ndim=1)


def inv_raw(channel, counts) -> np.ndarray:
    r"""Matrix-inversion estimate :math:`v = q C^{-1}` (may have negative entries; sums to 1).

    Requires a square invertible channel (k-RR, truncated geometric, discretised
    Laplace, exponential mechanism...). ElSalamouny and Palamidessi, Section 7.
    """
    C = check_channel(channel)
    if C.shape[0] != C.shape[1]:
        raise ValueError(f"channel must be square for matrix inversion, got shape {C.shape}")
    c = _check_report_counts(counts, C.shape[1])
    q = c / c.sum()
    try:
        v = np.linalg.solve(C.T, q)
    except np.linalg.LinAlgError:
        raise ValueError("channel is singular: the matrix-inversion estimator is undefined") from None
    if np.linalg.cond(C) > 1e14:
        raise ValueError(f"channel is numerically singular (condition number {np.linalg.cond(C):.3g})")
    return v


def inv_normalized(channel, counts) -> np.ndarray:
    """INV-N: the matrix-inversion estimate with negatives set to 0, renormalised."""
    return normalize_clip(inv_raw(channel, counts))


def inv_projected(channel, counts) -> np.ndarray:
    """INV-P: the matrix-inversion estimate projected onto the simplex (:func:`project_simplex`)."""
    return project_simplex(inv_raw(channel, counts))


def fo_estimate(support_counts, n: int, p: float, q: float) -> np.ndarray:
    r"""Unbiased estimator of pure frequency oracles (Wang et al. 2017, Eq. 2).

    .. math:: \hat f(v) = \frac{C(v) - n q}{n (p - q)}

    where :math:`C(v)` counts the reports supporting :math:`v`, :math:`p` is the
    probability that a report from :math:`v` supports :math:`v` and :math:`q` that a
    report from another value does (GRR, OUE/SUE, OLH, SS).
    """
    c = check_finite_array(support_counts, "support_counts", ndim=1)
    if np.any(c < 0):
        raise ValueError("support_counts must be nonnegative")
    n = check_positive_int(n, "n")
    if not (0 <= q < p <= 1):
        raise ValueError(f"need 0 <= q < p <= 1, got p={p}, q={q}")
    return (c - n * q) / (n * (p - q))


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
