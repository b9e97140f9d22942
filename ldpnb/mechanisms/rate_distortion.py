r"""Rate-distortion tools for location privacy: the Blahut-Arimoto (BA) mechanism.

Biswas and Palamidessi, "PRIVIC: A privacy-preserving method for incremental collection of
location data" (2023), Sec. 2.4 (rate-distortion), Sec. 3 (the BA mechanism), Sec. 4 (its duality with
IBU) and Sec. 5 (invertibility, Thm 5.1); Blahut (1972), Arimoto (1972), Csiszar (1974).

For a prior ``pi`` on a finite set of locations X, a ground distance ``d`` and a *loss parameter*
``beta > 0``, the BA iteration (paper eqs. (1)-(2), Def. 2.9, Alg. 2)

.. math::

    C^{(t+1)}_{xy} = \frac{c_t(y) e^{-\beta d(x,y)}}{\sum_z c_t(z) e^{-\beta d(x,z)}}
    \quad (F), \qquad
    c_{t+1}(y) = \sum_x \pi(x) C^{(t+1)}_{xy} \quad (G)

converges (Csiszar 1974) to the channel minimising ``I(X;Y) + beta * E[d(X,Y)]``: the point of
slope ``-beta`` on the rate-distortion curve.  Every ``F(c)`` is ``2 beta``-geo-indistinguishable
(Oya et al. 2017; paper Remark 4) and the fixpoint is *elastic* (Thm 3.1).

Everything is vectorised over the grid.  The channel is kept in the linear domain with a max-shift
of ``log c``, and the output marginal in the log domain; rows whose normaliser underflows and columns
whose mass underflows are recomputed by log-sum-exp, so output masses far below the smallest double
(BA run to convergence collapses its output support onto a few cells) never turn into ``log 0``, and
:attr:`BAResult.log_channel` is finite even where the channel underflows.

Public API (stable): :func:`blahut_arimoto` and :class:`BAResult`; the mechanism object
:class:`BlahutArimoto`; the maps :func:`ba_F`, :func:`ba_G`
and :func:`exponential_kernel`; the information measures :func:`mutual_information_nats`,
:func:`average_distortion`, :func:`ba_lagrangian`; the rate-distortion curve :func:`rd_point`,
:func:`rd_curve`, :func:`rd_closed_form`; Thm 5.1's :func:`kernel_min_eigenvalue` and
:func:`ba_iterate_factorization_residual`.

Conventions: channels have rows = inputs (``C[x, y] = P(y | x)``); information in **nats** (the
kernel ``exp(-beta d)`` makes ``beta`` a slope in nats per distance unit).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import logsumexp

from ldpnb.channels._generic import _geo_level_from_log, _ldp_level_from_log
from ldpnb.contracts import (
    POSITIVE,
    AnyOf,
    Array,
    Boolean,
    Channel,
    DistanceMatrix,
    Integer,
    NonnegativeMatrix,
    OneOf,
    Optional,
    contract,
)
from ldpnb.mechanisms._base import ChannelMechanism, Guarantee
from ldpnb.mechanisms._common import _exp_channel

__all__ = [
    "exponential_kernel",
    "ba_F",
    "ba_G",
    "BAResult",
    "blahut_arimoto",
    "BlahutArimoto",
    "blahut_arimoto_lattice",
    "average_distortion",
    "mutual_information_nats",
    "ba_lagrangian",
    "rd_point",
    "rd_curve",
    "rd_closed_form",
    "kernel_min_eigenvalue",
    "ba_iterate_factorization_residual",
]


# ----------------------------------------------------------------------------- validation
#: A prior or an output distribution: non-negative, any positive total (the scale cancels in BA).
_MASS = Array(1, low=0.0)
#: The loss parameter beta > 0 (nats per unit of distance).
_BETA = POSITIVE
#: A ground distance d(x, y), rows = inputs (need not be square).
_DIST = DistanceMatrix(square=False)
#: iteration counts: bounded, so that an absurd count is refused instead of running for ever (10**8 BA updates
#: take hours even at k = 2)
_ITERS = Integer(1, 10**8)
#: The side of a lattice cell: a number > 0, or a pair (height, width) of numbers > 0.
_CELL = AnyOf(POSITIVE, Array(1, shape=(2,), low=0.0, low_open=True))


def _as_prior(prior, name: str = "prior", *, normalise: bool = True) -> np.ndarray:
    p = np.asarray(prior, dtype=float)
    if p.ndim != 1 or p.size < 1:
        raise ValueError(f"{name} must be a non-empty 1-D array, got shape {p.shape}")
    if not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError(f"{name} must be finite and non-negative")
    s = p.sum()
    if s <= 0:
        raise ValueError(f"{name} must have a positive total mass")
    return p / s if normalise else p


def _as_distance(distance, n_in: int | None = None, name: str = "distance") -> np.ndarray:
    d = np.asarray(distance, dtype=float)
    if d.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array, got shape {d.shape}")
    if n_in is not None and d.shape[0] != n_in:
        raise ValueError(f"{name} must have one row per entry of prior ({n_in}), got {d.shape[0]}")
    if d.size and not (d.min() >= 0 and np.isfinite(d.max())):  # two reductions, no boolean temporaries
        raise ValueError(f"{name} must be finite and non-negative")
    return d


def _as_beta(beta, name: str = "beta") -> float:
    if isinstance(beta, bool):
        raise TypeError(f"{name} must be a real number")
    b = float(beta)
    if not np.isfinite(b) or b <= 0:
        raise ValueError(f"{name} must be finite and > 0, got {beta!r}")
    return b


def _as_channel(channel, name: str = "channel", atol: float = 1e-9) -> np.ndarray:
    C = np.asarray(channel, dtype=float)
    if C.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array, got shape {C.shape}")
    if not np.all(np.isfinite(C)) or np.any(C < 0):
        raise ValueError(f"{name} must be finite and non-negative")
    if not np.allclose(C.sum(axis=1), 1.0, atol=atol, rtol=0):
        raise ValueError(f"every row of {name} must sum to 1 (atol={atol})")
    return C


# ----------------------------------------------------------------------------- the maps F, G
@contract(distance=_DIST, beta=_BETA)
def exponential_kernel(distance, beta: float) -> np.ndarray:
    """The BA kernel ``K = exp(-beta d)`` (Biswas and Palamidessi, Eq. (1))."""
    d = _as_distance(distance)
    return np.exp(-_as_beta(beta) * d)


@contract(c=_MASS, kernel=NonnegativeMatrix())
def ba_F(c, kernel) -> np.ndarray:
    """The map F of Remark 2: ``F(c)[x, y] = c(y) K(x, y) / sum_z c(z) K(x, z)`` (eq. (1)).

    ``c`` is a non-negative vector over the outputs (its scale cancels); ``kernel`` is ``exp(-beta
    d)`` with rows = inputs.
    """
    K = np.asarray(kernel, dtype=float)
    c = _as_prior(c, "c")
    if K.ndim != 2 or K.shape[1] != c.size:
        raise ValueError(f"kernel must have shape (m, {c.size}), got {K.shape}")
    W = K * c[None, :]
    Z = W.sum(axis=1, keepdims=True)
    if np.any(Z <= 0):
        raise ValueError("F(c) is undefined: some row of K * c is identically zero")
    return W / Z


@contract(channel=Channel(), prior=_MASS)
def ba_G(channel, prior) -> np.ndarray:
    """The map G of Remark 2: the output marginal ``G(C)(y) = sum_x pi(x) C[x, y]`` (eq. (2))."""
    C = np.asarray(channel, dtype=float)
    p = _as_prior(prior)
    if C.ndim != 2 or C.shape[0] != p.size:
        raise ValueError(f"channel must have one row per entry of prior ({p.size}), got shape {C.shape}")
    return p @ C


# ----------------------------------------------------------------------------- information
@contract(prior=_MASS, channel=Channel(), distance=_DIST)
def average_distortion(prior, channel, distance) -> float:
    """``AvgD(X, C, d) = sum_x sum_y pi(x) C[x, y] d(x, y)`` (paper Def. 2.3)."""
    p = _as_prior(prior)
    C = np.asarray(channel, dtype=float)
    d = _as_distance(distance, p.size)
    if C.shape != d.shape:
        raise ValueError(f"channel and distance must have the same shape, got {C.shape} and {d.shape}")
    return float(p @ (C * d).sum(axis=1))


def _mi_from_log(p: np.ndarray, logC: np.ndarray, logc: np.ndarray) -> float:
    """``I = sum_{x,y} pi(x) C_xy [log C_xy - log c(y)]`` with ``c = pi C``, masses > 0 only."""
    C = np.exp(logC)
    with np.errstate(invalid="ignore"):
        term = C * (logC - logc[None, :])
    term = np.where(C > 0, term, 0.0)
    return float(p @ term.sum(axis=1))


@contract(prior=_MASS, channel=Channel())
def mutual_information_nats(prior, channel) -> float:
    """``I(X;Y) = sum_{x,y} mu(x,y) log[mu(x,y) / (p_X(x) p_Y(y))]`` in nats (paper Def. 2.2).

    Computed as ``sum_{mu > 0} mu log(C_xy / p_Y(y))`` with masks (never ``log 0``).
    """
    p = _as_prior(prior)
    C = _as_channel(channel)
    if C.shape[0] != p.size:
        raise ValueError(f"channel must have one row per entry of prior ({p.size}), got {C.shape[0]}")
    q = p @ C
    mu = p[:, None] * C
    mask = mu > 0
    ratio = np.ones_like(C)
    ratio[mask] = C[mask] / q[np.nonzero(mask)[1]]
    return float(np.sum(mu[mask] * np.log(ratio[mask])))


@contract(prior=_MASS, channel=Channel(), distance=_DIST, beta=_BETA)
def ba_lagrangian(prior, channel, distance, beta: float) -> float:
    """The BA objective ``I(X;Y) + beta * AvgD`` (nats); non-increasing along BA (Csiszar 1974)."""
    return mutual_information_nats(prior, channel) + _as_beta(beta) * average_distortion(prior, channel, distance)


def _F_step(
    logc: np.ndarray, K: np.ndarray, bd: np.ndarray | None, *, d: np.ndarray | None = None, b: float | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """``F(c)`` (eq. (1)) and ``log Z(x) = log sum_z c(z) K(x, z)`` from ``log c``.

    Linear-domain product with a max shift of ``log c``; rows whose normaliser underflows are
    recomputed in the log domain (from ``bd = beta d``, or from ``d`` and ``b`` for those rows only).
    """
    mx = logc.max()
    W = np.multiply(K, np.exp(logc - mx)[None, :])
    Z = W.sum(axis=1)
    bad = Z < 1e-250
    if np.any(bad):
        A = logc[None, :] - (bd[bad] if bd is not None else np.multiply(d[bad], b))
        amax = A.max(axis=1, keepdims=True)
        E = np.exp(A - amax)
        zb = E.sum(axis=1, keepdims=True)
        W[bad] = E / zb
        Z[bad] = 1.0
        logZ = np.log(Z) + mx
        logZ[bad] = (amax + np.log(zb))[:, 0]
        W /= Z[:, None]
        return W, logZ
    W /= Z[:, None]
    return W, np.log(Z) + mx


def _G_step(C, logc_prev, bd, logZ, p, logp) -> np.ndarray:
    """``log (pi C)`` (eq. (2)); columns whose mass underflows are recomputed by log-sum-exp."""
    c = p @ C
    with np.errstate(divide="ignore"):
        out = np.log(c)
    tiny = c < 1e-250
    if np.any(tiny):
        logC = logc_prev[tiny][None, :] - bd[:, tiny] - logZ[:, None]
        out[tiny] = logsumexp(logC + logp[:, None], axis=0)
    return out


def _finish(
    logc_prev: np.ndarray,
    K: np.ndarray,
    d: np.ndarray | None,
    b: float,
    bd: np.ndarray | None = None,
    *,
    d_owned: bool = True,
):
    """The channel ``C^{(T)} = F(c_{T-1})`` (:func:`_F_step`) and a function forming ``log C^{(T)}`` =
    ``log c_{T-1}(y) - beta d(x, y) - log Z(x)`` on demand.  The log channel is formed here only when
    some entry of ``C`` underflowed to 0 (:func:`_fill_underflow` needs it).  ``d_owned=False``: ``d`` is the
    caller's array, copied (one pass) so that changing it later cannot change the log channel."""
    C, logZ = _F_step(logc_prev, K, bd, d=d, b=b)

    def log_channel() -> np.ndarray:
        L = np.multiply(d, -b) if bd is None else np.negative(bd)
        L += logc_prev[None, :]
        L -= logZ[:, None]
        return L

    if C.size and not C.min() > 0:
        L = log_channel()
        return _fill_underflow(C, L), L
    if bd is None and not d_owned:
        d = d.copy()
    return C, log_channel


def _fill_underflow(C: np.ndarray | None, logC: np.ndarray) -> np.ndarray | None:
    """Entries of the linear channel that underflowed to 0 (kernel ``e^{-beta d}`` below the float64
    range in a row computed in the linear domain) while the exact log-probability is representable
    (> -745): set from ``exp(log C)``.  Every other entry is left bit for bit as it was."""
    if C is None:
        return C
    lost = (C == 0) & (logC > -745.0)
    if np.any(lost):
        C = C.copy() if not C.flags.writeable else C
        C[lost] = np.exp(logC[lost])
    return C


# ----------------------------------------------------------------------------- BA
class BAResult:
    """Result of :func:`blahut_arimoto`.

    Attributes
    ----------
    channel : ndarray (m, n)
        ``C^{(T)}``, the last iterate (``T = n_iter``).
    output_marginal : ndarray (n,)
        ``c_T = pi C^{(T)}``.
    log_channel : ndarray (m, n)
        ``log C^{(T)}`` computed in the log domain (finite even where ``C`` underflows); formed on first
        access (one pass over the ``m x n`` entries), then kept.
    n_iter : int
        Number of applications of F (eq. (1)).
    converged : bool
        ``max |C^{(T)} - C^{(T-1)}| < tol`` (always False with a fixed iteration count).
    history : dict of ndarray
        Only with ``history=True``: per iteration ``t = 1..T``, ``"mi"`` (I(X;Y) in nats),
        ``"distortion"`` (AvgD), ``"lagrangian"`` (mi + beta * distortion), ``"delta"``
        (max-abs change of the channel) and ``"support"`` (number of outputs with c(y) > 1e-6).
    """

    def __init__(
        self,
        channel: np.ndarray,
        output_marginal: np.ndarray,
        log_channel,
        n_iter: int,
        converged: bool,
        history: dict | None = None,
    ) -> None:
        self.channel = channel
        self.output_marginal = output_marginal
        self._log_channel = log_channel  # an array, or a function forming it
        self.n_iter = n_iter
        self.converged = converged
        self.history = {} if history is None else history

    @property
    def log_channel(self) -> np.ndarray:
        if callable(self._log_channel):
            self._log_channel = self._log_channel()
        return self._log_channel

    def __repr__(self) -> str:
        return (
            f"BAResult(channel={self.channel.shape}, n_iter={self.n_iter}, converged={self.converged}, "
            f"history={sorted(self.history)})"
        )


@contract(
    prior=_MASS,
    distance=_DIST,
    beta=_BETA,
    n_iter=Optional(_ITERS),
    tol=Optional(POSITIVE),
    max_iter=_ITERS,
    c0=Optional(_MASS),
    history=Boolean(),
)
def blahut_arimoto(
    prior,
    distance,
    beta: float,
    *,
    n_iter: int | None = 10,
    tol: float | None = None,
    max_iter: int = 100_000,
    c0=None,
    history: bool = False,
) -> BAResult:
    """Blahut-Arimoto mechanism: ``n_iter`` rounds of F then G (Biswas & Palamidessi, eqs. (1)-(2)).

    Starting from the uniform channel ``C^{(0)}`` (so ``c_0 = pi C^{(0)}`` is uniform, as in the
    authors' code and in PRIVIC's step 1) or from a given output distribution ``c0``, iterate

    ``C^{(t+1)}[x, y] = c_t(y) exp(-beta d(x,y)) / sum_z c_t(z) exp(-beta d(x,z))``  (1)
    ``c_{t+1}(y) = sum_x pi(x) C^{(t+1)}[x, y]``  (2)

    with the output marginal kept in the log domain (module docstring).  Each iterate ``F(c_t)`` is
    ``2 beta``-geo-indistinguishable (Remark 4); the limit is the point of slope ``-beta`` of the
    rate-distortion curve and has the elastic form of Thm 3.1.  (Alg. 2 of the paper writes
    ``d(z, y)`` in the denominator, a column sum: a slip for ``d(x, z)``, as in Eq. (1).)  One
    iteration costs ``O(m n)`` (Table II: ``O(n^2)``).

    Parameters
    ----------
    prior : array (m,)
        Prior on the inputs; non-negative, any positive total (the scale cancels).
    distance : array (m, n)
        Ground distance ``d(x, y)`` between inputs and outputs (``n = m`` in the paper).
    beta : float > 0
        Loss parameter (negative slope of the rate-distortion curve; nats per distance unit).
    n_iter : int or None
        Fixed number of iterations (the paper's experiments: 10 for Figs. 2, 3, 11; 8 / 5 in the
        PRIVIC cycles for Paris / SF).  ``None``: iterate until ``tol``.
    tol : float or None
        Stop when ``max |C^{(t)} - C^{(t-1)}| < tol`` (Alg. 2 with the max-abs norm); requires
        ``n_iter=None``.  At most ``max_iter`` iterations.
    c0 : array (n,), optional
        Full-support initial output distribution (default uniform).
    history : bool
        Record MI, distortion, Lagrangian, max-abs change and support size per iteration.

    Returns
    -------
    BAResult
    """
    p = _as_prior(prior)
    d = np.asarray(distance, dtype=float)  # finite, >= 0 and 2-D: checked by the contract
    if d.shape[0] != p.size:
        raise ValueError(f"distance must have one row per entry of prior ({p.size}), got {d.shape[0]}")
    b = _as_beta(beta)
    n_out = d.shape[1]
    if n_iter is None:
        if tol is None or not (float(tol) > 0):
            raise ValueError("with n_iter=None give tol > 0")
        tol = float(tol)
        budget = int(max_iter)
        if budget < 1:
            raise ValueError(f"max_iter must be >= 1, got {max_iter}")
    else:
        if tol is not None:
            raise ValueError("give either n_iter or tol (with n_iter=None), not both")
        if isinstance(n_iter, bool) or int(n_iter) != n_iter or n_iter < 1:
            raise ValueError(f"n_iter must be a positive integer, got {n_iter!r}")
        budget = int(n_iter)
    if c0 is None:
        logc = np.full(n_out, -np.log(n_out))
    else:
        c = _as_prior(c0, "c0")
        if c.size != n_out:
            raise ValueError(f"c0 must have length {n_out}, got {c.size}")
        if np.any(c <= 0):
            raise ValueError("c0 must have full support (Def. 2.4)")
        logc = np.log(c)
    with np.errstate(divide="ignore"):
        logp = np.log(p)
    if history:
        return _ba_dense_loop(p, logp, d, b, logc, budget, tol if n_iter is None else None, history=True)
    return _ba_marginal_loop(
        p, logp, d, b, logc, budget, tol if n_iter is None else None, d_owned=not np.may_share_memory(d, distance)
    )


def _ba_dense_loop(p, logp, d, b, logc, budget, tol, *, history, start=0, C_prev=None, bd=None, K=None):
    """BA forming the channel at every iteration (the reference loop; used with ``history=True``,
    and from the first iteration whose normalisers underflow onwards)."""
    n_out = d.shape[1]
    if bd is None:
        bd = b * d
    if K is None:
        K = np.exp(-bd)
    if C_prev is None:
        C_prev = np.full((p.size, n_out), 1.0 / n_out)
    hist = {k: [] for k in ("mi", "distortion", "lagrangian", "delta", "support")} if history else {}
    converged = False
    t = start
    logc_prev, logZ = logc, None
    while t < budget:
        logc_prev = logc
        C, logZ = _F_step(logc, K, bd)  # F, eq. (1)
        logc = _G_step(C, logc, bd, logZ, p, logp)  # G, eq. (2)
        delta = float(np.max(np.abs(C - C_prev)))
        C_prev = C
        t += 1
        if history:
            logC = logc_prev[None, :] - bd - logZ[:, None]
            mi = _mi_from_log(p, logC, logc)
            dist = float(p @ (C * d).sum(axis=1))
            hist["mi"].append(mi)
            hist["distortion"].append(dist)
            hist["lagrangian"].append(mi + b * dist)
            hist["delta"].append(delta)
            hist["support"].append(int(np.sum(np.exp(logc) > 1e-6)))
        if tol is not None and delta < tol:
            converged = True
            break
    logC = logc_prev[None, :] - bd - logZ[:, None]
    if history:
        hist = {k: np.asarray(v) for k, v in hist.items()}
    return BAResult(
        channel=_fill_underflow(C_prev, logC),
        output_marginal=np.exp(logc),
        log_channel=logC,
        n_iter=t,
        converged=converged,
        history=hist,
    )


#: Row block of the channel-change computation (``tol`` mode): 2 MiB of float64 per temporary.
_DELTA_BLOCK_ENTRIES = 1 << 18


def _ba_delta(K, a1, u1, a0, u0) -> float:
    """``max |C1 - C0|`` for ``C[x, y] = a(x) K[x, y] u(y)`` without forming either channel
    (row blocks, so that the temporaries stay in cache)."""
    m = K.shape[1]
    step = max(1, _DELTA_BLOCK_ENTRIES // max(m, 1))
    best = 0.0
    for s in range(0, K.shape[0], step):
        e = min(K.shape[0], s + step)
        T = np.multiply.outer(a1[s:e], u1)
        T -= np.multiply.outer(a0[s:e], u0)
        T *= K[s:e]
        best = max(best, float(np.max(np.abs(T))))
    return best


def _ba_marginal_loop(p, logp, d, b, logc, budget, tol, *, d_owned: bool = True) -> BAResult:
    r"""BA iterating the output marginal only: two matrix-vector products per iteration.

    With ``u = exp(log c - max log c)`` and ``Z' = K u`` (so ``Z = e^{max} Z'``), eq. (1)-(2) give
    ``c'(y) = u(y) (K^T (pi / Z'))(y)``: ``log c' = log c - max + log (K^T (pi / Z'))``, which
    stays exact in the log domain for outputs of vanishing mass.  The channel ``C^{(T)} = F(c_{T-1})``
    is formed once at the end by the same :func:`_F_step` as the dense loop.  An iteration whose
    normalisers underflow (``Z' < 1e-250``) or whose back-projection has a zero hands over to the
    dense loop (exact log-domain fallback) for the rest of the run.  With ``tol``, the channel change
    ``max |C^{(t)} - C^{(t-1)}|`` is computed from the two factorisations ``diag(1/Z) K diag(c)``.
    """
    K = np.multiply(d, -b)  # -beta d: the same bits as -(beta d)
    np.exp(K, out=K)
    KT = K.T
    n_out = d.shape[1]
    t = 0
    logc_prev = logc
    prev = None  # (a, u) of C^{(t)} = diag(a) K diag(u), for the channel change
    converged = False
    while t < budget:
        mx = logc.max()
        u = np.exp(logc - mx)
        Z = K @ u
        if Z.min() < 1e-250:
            break
        v = KT @ (p / Z)
        if not v.min() > 0:  # a back-projection underflowed (or is not finite)
            break
        t += 1
        logc_prev, logc = logc, logc - mx + np.log(v)
        if tol is not None:
            a = 1.0 / Z
            if prev is None:  # C^{(0)} is uniform
                delta = _ba_delta_uniform(K, a, u, n_out)
            else:
                delta = _ba_delta(K, a, u, *prev)
            prev = (a, u)
            if delta < tol:
                converged = True
                break
    if t < budget and not converged:
        # hand over to the dense loop (exact log-domain fallback) from iteration t
        bd = np.multiply(d, b)
        C_prev = None
        if t > 0:
            C_prev, _ = _F_step(logc_prev, K, bd)
        return _ba_dense_loop(p, logp, d, b, logc, budget, tol, history=False, start=t, C_prev=C_prev, bd=bd, K=K)
    C, logC = _finish(logc_prev, K, d, b, d_owned=d_owned)
    del K
    return BAResult(
        channel=C, output_marginal=np.exp(logc), log_channel=logC, n_iter=t, converged=converged, history={}
    )


def _ba_delta_uniform(K, a, u, n_out) -> float:
    """``max |C - 1/n|`` for ``C = diag(a) K diag(u)`` (the first change, from the uniform ``C^{(0)}``)."""
    m = K.shape[1]
    step = max(1, _DELTA_BLOCK_ENTRIES // max(m, 1))
    best = 0.0
    for s in range(0, K.shape[0], step):
        e = min(K.shape[0], s + step)
        T = np.multiply.outer(a[s:e], u)
        T *= K[s:e]
        T -= 1.0 / n_out
        best = max(best, float(np.max(np.abs(T))))
    return best


# ----------------------------------------------------------------------------- BA on a lattice (FFT)
def _cell_hw(cell_size) -> tuple[float, float]:
    cs = np.asarray(cell_size, dtype=float)
    h, w = (float(cs), float(cs)) if cs.ndim == 0 else (float(cs[0]), float(cs[1]))
    if not (h > 0 and w > 0 and math.isfinite(h) and math.isfinite(w)):
        raise ValueError(f"cell_size must be > 0 (a number or a pair (height, width)), got {cell_size!r}")
    return h, w


def _lattice_offsets(rows: int, cols: int, h: float, w: float) -> np.ndarray:
    """``d(di, dj) = hypot(dj w, di h)`` for offsets ``di in -(rows-1)..rows-1``, ``dj`` likewise."""
    di = np.arange(-(rows - 1), rows) * h
    dj = np.arange(-(cols - 1), cols) * w
    return np.hypot(dj[None, :], di[:, None])


def _toeplitz_blocks(T: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """The ``(rows cols) x (rows cols)`` matrix ``A[(r, c), (r', c')] = T[r - r' + rows-1, c - c' + cols-1]``
    (block Toeplitz with Toeplitz blocks) by one strided copy, no arithmetic."""
    from numpy.lib.stride_tricks import sliding_window_view  # noqa: PLC0415 lazy: scipy/numpy submodule loaded at first use

    W = sliding_window_view(T[::-1, ::-1], (rows, cols))  # W[i, j, a, b] = Tf[i + a, j + b]
    return np.ascontiguousarray(W[::-1, ::-1]).reshape(rows * cols, rows * cols)


class _LatticeKernel:
    """``u -> K u`` for ``K = exp(-beta d)`` on a lattice, by a zero-padded 2-D FFT convolution."""

    def __init__(self, rows: int, cols: int, kern: np.ndarray):
        import scipy.fft as sfft  # noqa: PLC0415 lazy: scipy/numpy submodule loaded at first use

        self.rows, self.cols = rows, cols
        self.shape = (sfft.next_fast_len(2 * rows - 1, real=True), sfft.next_fast_len(2 * cols - 1, real=True))
        self._sfft = sfft
        self.F = sfft.rfft2(kern, s=self.shape)

    def __call__(self, u: np.ndarray) -> np.ndarray:
        f = self._sfft
        U = f.rfft2(u.reshape(self.rows, self.cols), s=self.shape)
        full = f.irfft2(U * self.F, s=self.shape)
        return full[self.rows - 1 : 2 * self.rows - 1, self.cols - 1 : 2 * self.cols - 1].reshape(-1)


#: The FFT products are accepted while every normaliser and back-projection is within this factor of
#: the largest one: the FFT's absolute error (about 1e-16 of the largest term) is then below 1e-11 of
#: every entry.  Past it, the iteration continues with the dense kernel (exact in the log domain).
_FFT_RANGE = 1e-5
#: Below this many cells the dense products are cheaper than scipy's FFT calls (measured: the
#: FFT pays off from about 24 x 24 cells on this machine).
_FFT_MIN_CELLS = 576


@contract(
    prior=_MASS,
    rows=Integer(1, 4096),
    cols=Integer(1, 4096),
    beta=_BETA,
    cell_size=_CELL,
    n_iter=_ITERS,
    c0=Optional(_MASS),
)
def blahut_arimoto_lattice(
    prior, rows: int, cols: int, beta: float, *, cell_size=1.0, n_iter: int = 10, c0=None
) -> BAResult:
    r"""Blahut-Arimoto on a ``rows x cols`` lattice with the Euclidean ground distance, by FFT.

    The same iterates as ``blahut_arimoto(prior, lattice_distance_matrix(rows, cols, cell_size), beta,
    n_iter=n_iter)`` (Biswas and Palamidessi 2023, eqs. (1)-(2)): on a lattice the kernel
    ``K[x, y] = exp(-beta d(x, y))`` depends only on the offset ``y - x``, so the two products of an
    iteration that updates the output marginal only, ``Z = K u`` and ``K^T (pi / Z)`` (``K`` is
    symmetric), are 2-D convolutions: ``O(k log k)`` per iteration instead of ``O(k^2)`` (used from
    576 cells on; below, the dense products of :func:`blahut_arimoto` are cheaper).  The dense
    channel ``C^{(T)}`` (and its log) is formed once at the end, from the kernel's ``(2 rows - 1) x
    (2 cols - 1)`` offsets by a strided copy (no ``k^2`` exponentials).

    The FFT's error is absolute (about ``1e-16`` of the largest term), so the products are accepted
    only while every normaliser and every back-projection is within ``1e-5`` of the largest one
    (relative error below about ``1e-11``); an iteration outside that range, or with normalisers near
    underflow, uses the dense kernel (with the exact log-domain fallback of :func:`blahut_arimoto`).

    Parameters
    ----------
    prior : array (rows * cols,)
        Prior on the cells (row-major, as :func:`ldpnb.data.lattice_distance_matrix`).
    rows, cols : int
    beta : float > 0
    cell_size : float or (height, width)
        The side of a cell (> 0), or its height and width (both > 0).
    n_iter : int
        Number of iterations (the paper's 10 by default).
    c0 : array, optional
        Full-support initial output distribution (default uniform).
    """
    p = _as_prior(prior)
    k = rows * cols
    if p.size != k:
        raise ValueError(f"prior must have rows * cols = {k} entries, got {p.size}")
    b = _as_beta(beta)
    h, w = _cell_hw(cell_size)
    if c0 is None:
        logc = np.full(k, -np.log(k))
    else:
        c = _as_prior(c0, "c0")
        if c.size != k or np.any(c <= 0):
            raise ValueError(f"c0 must be a full-support distribution of length {k}")
        logc = np.log(c)
    doff = _lattice_offsets(rows, cols, h, w)  # d by offset
    if k < _FFT_MIN_CELLS:  # FFT calls cost more than the dense products here
        with np.errstate(divide="ignore"):
            logp = np.log(p)
        return _ba_marginal_loop(p, logp, _toeplitz_blocks(doff, rows, cols), b, logc, n_iter, None)
    boff = doff * b  # beta d by offset
    conv = _LatticeKernel(rows, cols, np.exp(-boff))
    K = None
    t = 0
    logc_prev = logc
    while t < n_iter:
        mx = logc.max()
        u = np.exp(logc - mx)
        Z = conv(u)
        zmax = Z.max()
        ok = Z.min() >= _FFT_RANGE * zmax and zmax > 1e-200
        if ok:
            v = conv(p / Z)
            vmax = v.max()
            ok = v.min() >= _FFT_RANGE * vmax and vmax > 0
        if not ok:  # outside the FFT's accurate range: the dense kernel from here on
            K = np.exp(-_toeplitz_blocks(boff, rows, cols)) if K is None else K
            Z = K @ u
            if Z.min() < 1e-250:
                break
            v = K.T @ (p / Z)
            if not np.all(v > 0):
                break
        t += 1
        logc_prev, logc = logc, logc - mx + np.log(v)
    bd = _toeplitz_blocks(boff, rows, cols)
    if t < n_iter:  # normalisers underflow: the exact dense loop (log-domain fallback) from iteration t
        C_prev = None
        K = np.exp(-bd) if K is None else K
        if t > 0:
            C_prev, _ = _F_step(logc_prev, K, bd)
        with np.errstate(divide="ignore"):
            logp = np.log(p)
        return _ba_dense_loop(p, logp, bd / b, b, logc, n_iter, None, history=False, start=t, C_prev=C_prev, bd=bd, K=K)
    K = _toeplitz_blocks(np.exp(-boff), rows, cols) if K is None else K
    C, logC = _finish(logc_prev, K, None, b, bd=bd)
    del K
    return BAResult(channel=C, output_marginal=np.exp(logc), log_channel=logC, n_iter=t, converged=False, history={})


# ----------------------------------------------------------------------------- RD curve
@contract(prior=_MASS, distance=_DIST, beta=_BETA, tol=POSITIVE, max_iter=_ITERS)
def rd_point(prior, distance, beta: float, *, tol: float = 1e-12, max_iter: int = 200_000):
    """A point ``(R, D)`` of the rate-distortion curve at slope ``-beta``, by BA run to convergence.

    Returns ``(R, D, result)``: ``R = I(X;Y)`` in nats, ``D = AvgD`` of the (numerically) converged
    BA channel, and the :class:`BAResult`.
    """
    res = blahut_arimoto(prior, distance, beta, n_iter=None, tol=tol, max_iter=max_iter)
    p = _as_prior(prior)
    R = _mi_from_log(p, res.log_channel, np.log(np.maximum(res.output_marginal, 1e-323)))
    D = average_distortion(p, res.channel, distance)
    return R, D, res


@contract(prior=_MASS, distance=_DIST, betas=Array(None, low=0.0), tol=POSITIVE, max_iter=_ITERS)
def rd_curve(prior, distance, betas, *, tol: float = 1e-12, max_iter: int = 200_000):
    """``(R, D)`` arrays over ``betas`` (see :func:`rd_point`)."""
    pts = [rd_point(prior, distance, b, tol=tol, max_iter=max_iter)[:2] for b in np.atleast_1d(betas)]
    arr = np.asarray(pts, dtype=float)
    return arr[:, 0], arr[:, 1]


@contract(prior=_MASS, distance=_DIST, beta=_BETA, c=_MASS)
def rd_closed_form(prior, distance, beta: float, c) -> float:
    """Rate at the BA fixpoint: ``R = -beta AvgD - sum_x pi(x) log Z(x)``, ``Z(x) = sum_y c(y) e^{-beta d(x,y)}``.

    Valid when ``c`` is the fixpoint output marginal (Csiszar 1974): then
    ``C = F(c)`` and ``log(C_xy / c(y)) = -beta d(x,y) - log Z(x)``.
    """
    p = _as_prior(prior)
    d = _as_distance(distance, p.size)
    b = _as_beta(beta)
    cc = _as_prior(c, "c")
    C = ba_F(cc, np.exp(-b * d))
    logZ = logsumexp(-b * d, b=cc[None, :], axis=1)
    return float(-b * average_distortion(p, C, d) - p @ logZ)


# ----------------------------------------------------------------------------- Thm 5.1 / 5.2
@contract(distance=DistanceMatrix(), beta=_BETA)
def kernel_min_eigenvalue(distance, beta: float) -> float:
    """Smallest eigenvalue of ``K = exp(-beta d)`` (symmetric ``d``).

    Thm 5.1: ``K`` is strictly positive definite (``exp(-beta ||x - y||)`` is a strictly PD radial
    kernel, Schoenberg), so every BA iterate ``C^{(t)} = diag(1/Z) K diag(c_{t-1})`` is invertible.
    """
    d = _as_distance(distance)
    if d.shape[0] != d.shape[1] or not np.allclose(d, d.T):
        raise ValueError("distance must be square and symmetric")
    return float(np.linalg.eigvalsh(np.exp(-_as_beta(beta) * d))[0])


@contract(channel=Channel(), c_prev=_MASS, kernel=NonnegativeMatrix())
def ba_iterate_factorization_residual(channel, c_prev, kernel) -> float:
    """``max |C - diag(1/Z) K diag(c_prev)|`` with ``Z = K c_prev`` (proof of Thm 5.1, eq. (9))."""
    C = np.asarray(channel, dtype=float)
    return float(np.max(np.abs(C - ba_F(c_prev, kernel))))


# ----------------------------------------------------------------------------- the mechanism object
def _distortion_of(p: np.ndarray, res: BAResult, d: np.ndarray) -> float:
    """``AvgD`` of a BA channel from its log-probabilities (exact where the linear channel underflows)."""
    return float(p @ (np.exp(res.log_channel) * d).sum(axis=1))


class BlahutArimoto(ChannelMechanism):
    r"""The Blahut-Arimoto mechanism as a :class:`~ldpnb.mechanisms.Mechanism` object.

    The channel is the BA iterate ``C^{(T)}`` of :func:`blahut_arimoto` for a prior ``pi``, a ground
    distance ``d`` and a loss parameter ``beta`` (Biswas and Palamidessi 2023, eqs. (1)-(2), Alg. 2),
    kept exactly as log-probabilities (:attr:`BAResult.log_channel`).  Instead of ``beta`` one may give
    a target ``distortion``: ``beta`` is then found by root finding on ``log beta`` so that
    ``AvgD(pi, C, d)`` (Def. 2.3) equals it (to ``1e-9`` relative), with the same iteration settings.

    **The claim.**  BA is a rate-distortion optimiser, not a mechanism designed for a privacy level:
    it carries *no a-priori* epsilon-LDP claim, and its LDP level depends on the prior (outputs with
    vanishing mass can make it very large).  The :attr:`guarantee` is therefore *stated from the
    channel*: the tight level of its exact log channel, under geo-indistinguishability w.r.t.
    ``d`` when ``d`` is square (inputs = outputs, as in the paper), else under LDP.  It is computed
    on first use (``O(k^3)`` for geo-ind), and :meth:`check` holds by construction.  For
    geo-indistinguishability the paper's a-priori bound is ``2 beta`` (Remark 4; Oya et al. 2017):
    :attr:`geo_bound`, which the tight level never exceeds (tested).

    Parameters
    ----------
    prior : array (k,)
        Prior on the inputs (any positive total).
    distance : array (k, m)
        Ground distance between inputs and outputs.
    beta : float, optional
        Loss parameter (nats per distance unit); give this or ``distortion``.
    distortion : float, optional
        Target average distortion ``AvgD`` (same unit as ``distance``).
    n_iter, tol, max_iter, c0
        As in :func:`blahut_arimoto` (default: the paper's 10 iterations).
    notion : {"geo-ind", "ldp"}, optional
        The notion of the stated guarantee (default: geo-ind for a square distance, else LDP).

    Examples
    --------
    >>> import numpy as np
    >>> from ldpnb.geometry import lattice_distance_matrix
    >>> m = BlahutArimoto(np.full(9, 1 / 9), lattice_distance_matrix(3, 3), beta=0.5)
    >>> C = m.channel()
    >>> C.shape, bool(np.allclose(C.sum(axis=1), 1)), m.check().holds
    ((9, 9), True, True)
    """

    family = "BA"
    full_support = False

    @contract(
        prior=_MASS,
        distance=_DIST,
        beta=Optional(_BETA),
        distortion=Optional(POSITIVE),
        n_iter=Optional(_ITERS),
        tol=Optional(POSITIVE),
        max_iter=_ITERS,
        c0=Optional(_MASS),
        notion=Optional(OneOf("geo-ind", "ldp")),
    )
    def __init__(
        self,
        prior,
        distance,
        beta: float | None = None,
        *,
        distortion: float | None = None,
        n_iter: int | None = 10,
        tol: float | None = None,
        max_iter: int = 100_000,
        c0=None,
        notion: str | None = None,
    ) -> None:
        p = _as_prior(prior)
        d = _as_distance(distance, p.size)
        if (beta is None) == (distortion is None):
            raise ValueError("give exactly one of beta and distortion")
        square = d.shape[0] == d.shape[1]
        if notion is None:
            notion = "geo-ind" if square else "ldp"
        if notion == "geo-ind" and not square:
            raise ValueError(f"a geo-ind guarantee needs a square distance between inputs, got shape {d.shape}")
        kw = dict(n_iter=n_iter, tol=tol, max_iter=max_iter, c0=c0)
        if beta is None:
            beta = _beta_for_distortion(p, d, float(distortion), kw)
        self.beta = _as_beta(beta)
        self.result = blahut_arimoto(p, d, self.beta, **kw)
        self.prior = p
        self._d = d
        self._notion = notion
        self._iter = {"n_iter": n_iter, "tol": tol}
        self._L = np.array(self.result.log_channel, dtype=np.float64)

    # ------------------------------------------------------------------ description
    @property
    def distortion(self) -> float:
        """``AvgD(pi, C, d)`` of this channel (Def. 2.3)."""
        return _distortion_of(self.prior, self.result, self._d)

    @property
    def mutual_information(self) -> float:
        """``I(X;Y)`` in nats under the prior (Def. 2.2), from the log channel."""
        logc = np.log(np.maximum(self.prior @ np.exp(self._L), np.finfo(float).tiny))
        return _mi_from_log(self.prior, self._L, logc)

    @property
    def geo_bound(self) -> float:
        """``2 beta``: every BA iterate ``F(c)`` is ``2 beta``-geo-ind w.r.t. ``d`` (Remark 4)."""
        return 2.0 * self.beta

    def distance(self) -> np.ndarray:
        """The ground distance ``d`` (inputs x outputs)."""
        return self._d.copy()

    @property
    def guarantee(self) -> Guarantee:
        """The tight level of the exact channel (no a-priori claim; see the class docstring)."""
        cached = self.__dict__.get("_guarantee_cache")
        if cached is None:
            if self._notion == "geo-ind":
                lvl = _geo_level_from_log(self._L, self._d)
                cached = Guarantee("geo-ind", max(lvl, 1e-300), self._d, metric="the ground distance d")
            else:
                cached = Guarantee("ldp", max(_ldp_level_from_log(self._L), 1e-300))
            self.__dict__["_guarantee_cache"] = cached
        return cached

    @property
    def epsilon(self) -> float:  # type: ignore[override]
        """The stated level (the tight level of the channel, computed on first use)."""
        return self.guarantee.epsilon

    def channel(self) -> np.ndarray:
        """The exact channel as float64 (refused where a positive probability underflows)."""
        return _exp_channel(
            self.log_channel(), epsilon=self.geo_bound, what=f"channel of {self!r}", hint="log_channel()"
        )

    def params(self) -> dict:
        out = {"shape": self.shape, "beta": self.beta}
        out.update({k: v for k, v in self._iter.items() if v is not None})
        return out


def _beta_for_distortion(p: np.ndarray, d: np.ndarray, target: float, kw: dict) -> float:
    """``beta`` with ``AvgD(BA(beta)) = target`` (Brent's method on ``log beta``, bracket widened as needed)."""
    from scipy.optimize import brentq  # noqa: PLC0415 lazy: scipy/numpy submodule loaded at first use

    def gap(logb: float) -> float:
        return _distortion_of(p, blahut_arimoto(p, d, math.exp(logb), **kw), d) - target

    lo, hi = -8.0, 2.0
    g_lo, g_hi = gap(lo), gap(hi)
    while g_lo < 0 and lo > -40:
        lo -= 8.0
        g_lo = gap(lo)
    while g_hi > 0 and hi < 12:
        hi += 2.0
        g_hi = gap(hi)
    if g_lo < 0 or g_hi > 0:
        raise ValueError(
            f"distortion {target:g} is outside what BA reaches here "
            f"([{g_hi + target:.6g}, {g_lo + target:.6g}] for beta in [e^{hi:g}, e^{lo:g}])"
        )
    logb = brentq(gap, lo, hi, xtol=1e-13, rtol=1e-13, maxiter=300)
    b = math.exp(logb)
    got = gap(logb) + target
    if abs(got - target) > 1e-9 * max(1.0, target):  # pragma: no cover - a non-monotone distortion curve
        raise ValueError(f"no beta matches distortion {target:g} (closest {got:.10g} at beta = {b:.6g})")
    return b
