r"""Discrete information measures with an explicit unit.

Every function takes a keyword-only ``unit``: ``"bits"`` (logarithm base 2) or
``"nats"`` (natural logarithm). The papers of the book mix both (the PIE paper
states values in bits but prints some in nats; the lift paper's budgets are in
nats), so the unit is never implicit. Conventions: :math:`0 \log 0 = 0`,
:math:`p \log(p/0) = +\infty` for :math:`p > 0` (Cover and Thomas 2006, Ch. 2).

* :func:`entropy` :math:`H(P) = -\sum_x P(x) \log P(x)`
* :func:`kl_divergence` :math:`D(P\|Q) = \sum_x P(x) \log \frac{P(x)}{Q(x)}`
* :func:`mutual_information_joint` :math:`I(X;Y) = \sum_{x,y} P(x,y) \log \frac{P(x,y)}{P(x)P(y)}`
* :func:`mutual_information` :math:`I(X;Y)` for a prior and a channel
* :func:`channel_capacity` :math:`\max_P I(X;Y)` by the Blahut-Arimoto algorithm
  (Blahut 1972; Arimoto 1972), stopped on the Arimoto gap.
"""

from __future__ import annotations

import numpy as np

from ldpnb.contracts import POSITIVE, Array, Channel, Distribution, Integer, OneOf, contract

_UNIT = OneOf("bits", "nats")

__all__ = [
    "UNITS",
    "entropy",
    "kl_divergence",
    "mutual_information",
    "mutual_information_joint",
    "conditional_entropy",
    "channel_capacity",
    "convert",
]


UNITS = {"bits": np.log(2.0), "nats": 1.0}


def _unit_factor(unit: str) -> float:
    """Divide a value in nats by this factor to express it in ``unit``."""
    if unit not in UNITS:
        raise ValueError(f"unit must be 'bits' or 'nats', got {unit!r}")
    return UNITS[unit]


@contract(value=Array(None), from_unit=_UNIT, to_unit=_UNIT)
def convert(value, *, from_unit: str, to_unit: str):
    """Convert an information quantity between bits and nats (1 nat = 1/ln 2 bits); finite values."""
    return value * _unit_factor(from_unit) / _unit_factor(to_unit)


def _xlogx_over(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Elementwise p log(p/q) in nats with 0 log 0 = 0 and p log(p/0) = inf."""
    out = np.zeros_like(p, dtype=float)
    pos = p > 0
    with np.errstate(divide="ignore"):
        out[pos] = p[pos] * (np.log(p[pos]) - np.log(q[pos]))
    return out


@contract(p=Distribution(), unit=_UNIT)
def entropy(p, *, unit: str) -> float:
    r"""Shannon entropy :math:`H(P) = -\sum_x P(x)\log P(x)` in ``unit``."""
    f = _unit_factor(unit)
    nz = p[p > 0]
    return float(-np.sum(nz * np.log(nz)) / f)


@contract(p=Distribution(), q=Distribution(), unit=_UNIT)
def kl_divergence(p, q, *, unit: str) -> float:
    r"""Kullback-Leibler divergence :math:`D(P\|Q)`; ``inf`` when :math:`P \not\ll Q`."""
    f = _unit_factor(unit)
    if p.shape != q.shape:
        raise ValueError(f"p and q must have the same shape, got {p.shape} and {q.shape}")
    return float(np.sum(_xlogx_over(p, q)) / f)


@contract(joint=Distribution(ndim=2), unit=_UNIT)
def mutual_information_joint(joint, *, unit: str) -> float:
    r"""Mutual information of a joint distribution matrix ``joint[x, y] = P(x, y)``."""
    f = _unit_factor(unit)
    J = joint
    px = J.sum(axis=1, keepdims=True)
    py = J.sum(axis=0, keepdims=True)
    val = np.sum(_xlogx_over(J, px * py))
    return float(max(val, 0.0) / f)


@contract(prior=Distribution(), channel=Channel(), unit=_UNIT)
def mutual_information(prior, channel, *, unit: str) -> float:
    r""":math:`I(X;Y)` for :math:`X \sim` ``prior`` and :math:`P(y|x) =` ``channel[x, y]``.

    .. math:: I(X;Y) = \sum_x \pi_x \sum_y C_{xy} \log \frac{C_{xy}}{(\pi C)_y}

    Examples
    --------
    >>> import numpy as np
    >>> mutual_information([0.5, 0.5], np.eye(2), unit="bits")         # the report is the secret
    1.0
    >>> mutual_information([0.5, 0.5], np.full((2, 2), 0.5), unit="bits")  # the report is noise
    0.0
    """
    f = _unit_factor(unit)
    pi, C = prior, channel  # checked by the contract
    if C.shape[0] != pi.size:
        raise ValueError(f"prior has length {pi.size} but the channel has {C.shape[0]} rows")
    out = pi @ C
    rows = np.sum(_xlogx_over(C, np.broadcast_to(out, C.shape)), axis=1)
    return float(max(np.dot(pi, rows), 0.0) / f)


@contract(prior=Distribution(), channel=Channel(), unit=_UNIT)
def conditional_entropy(prior, channel, *, unit: str) -> float:
    r""":math:`H(Y|X) = \sum_x \pi_x H(C_{x\cdot})`."""
    f = _unit_factor(unit)
    pi, C = prior, channel  # checked by the contract
    if C.shape[0] != pi.size:
        raise ValueError(f"prior has length {pi.size} but the channel has {C.shape[0]} rows")
    with np.errstate(divide="ignore", invalid="ignore"):
        h = -np.sum(np.where(C > 0, C * np.log(C), 0.0), axis=1)
    return float(np.dot(pi, h) / f)


@contract(channel=Channel(), unit=_UNIT, tol=POSITIVE, max_iter=Integer(1, 10**9))
def channel_capacity(channel, *, unit: str, tol: float = 1e-12, max_iter: int = 100_000):
    r"""Capacity :math:`\max_\pi I(X;Y)` of a discrete memoryless channel (Blahut-Arimoto).

    Iterates :math:`\pi_x \leftarrow \pi_x e^{D_x} / \sum_u \pi_u e^{D_u}` with
    :math:`D_x = D(C_{x\cdot} \| \pi C)` (nats), and stops when the Arimoto bounds
    :math:`\log \sum_x \pi_x e^{D_x} \le \text{capacity} \le \max_x D_x` are within ``tol``
    (in ``unit``). Returns ``(capacity, input_distribution)``; the capacity reported is
    the lower bound, exact to ``tol``.  A run that does not reach ``tol`` within ``max_iter``
    iterations is refused (``ValueError`` with the bounds), never returned as the capacity.
    """
    f = _unit_factor(unit)
    C = channel
    k = C.shape[0]
    pi = np.full(k, 1.0 / k)
    lower, gap = 0.0, np.inf
    for _ in range(max_iter):
        out = pi @ C
        D = np.sum(_xlogx_over(C, np.broadcast_to(out, C.shape)), axis=1)
        Dmax = D.max()
        w = pi * np.exp(D - Dmax)
        s = w.sum()
        lower = np.log(s) + Dmax
        gap = (Dmax - lower) / f
        if gap < tol:
            break
        pi = w / s
    if not gap < tol:
        raise ValueError(
            f"max_iter = {max_iter}: Blahut-Arimoto stopped with an Arimoto gap of {gap:.3g} {unit} > tol = "
            f"{tol:g} (capacity in [{max(lower, 0.0) / f:.10g}, {Dmax / f:.10g}]); raise max_iter or tol"
        )
    return float(max(lower, 0.0) / f), pi
