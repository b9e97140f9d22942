"""Unary encodings: symmetric (SUE, basic one-time RAPPOR) and optimised (OUE).

Erlingsson, Pihur and Korolova (2014); Wang, Blocki, Li and Jha (2017).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ldpnb.contracts import EPSILON, MAX_BYTES, MAX_DOMAIN, Array, Bits, Counts, Integer, OneOf, RandomState, contract
from ldpnb.mechanisms._base import Domain, FrequencyOracle, _bits_of_columns, _check_reports_matrix
from ldpnb.mechanisms._common import _LOG2, _exp_channel, _exp_neg, bernoulli_bits, bool_column_counts
from ldpnb.utils import (
    _check_input_counts,
    _chunk_rows,
    check_random_state,
    check_values,
)

_VALUES = Array(1, integer=True, low=0)
_KIND = OneOf("oue", "sue")

__all__ = [
    "ue_params",
    "ue_perturb",
    "ue_simulate_support_counts",
    "ue_channel",
    "ue_pattern_index",
    "ue_support_counts",
    "rappor_channel",
    "rappor_perturb",
    "UnaryEncoding",
    "SUE",
    "OUE",
]

#: Largest k of the exact unary-encoding channel (``2**k`` columns).
_MAX_UE_BITS = 16


# ---------------------------------------------------------------------------------------------
# unary encodings (SUE = basic one-time RAPPOR, OUE)
# ---------------------------------------------------------------------------------------------


@contract(epsilon=EPSILON, kind=_KIND)
def ue_params(epsilon: float, kind: str = "oue") -> tuple[float, float]:
    """Bit probabilities ``(p, q)`` of unary encoding: ``P(B'_i = 1 | B_i = 1) = p``, ``P(B'_i = 1 | B_i = 0) = q``.

    * SUE (symmetric UE = basic one-time RAPPOR): ``p = e^{eps/2} / (e^{eps/2} + 1)``,
      ``q = 1 / (e^{eps/2} + 1)`` (``p + q = 1``; ElSalamouny & Palamidessi 2020, §4.4).
    * OUE (optimised UE, Wang et al. 2017): ``p = 1/2``, ``q = 1 / (e^eps + 1)``.

    Both are exactly eps-LDP: ``eps = ln[p (1 - q) / ((1 - p) q)]`` (Arcolezi et al. 2023, §2.3).

    Parameters
    ----------
    epsilon : float
    kind : {"oue", "sue"}

    Returns
    -------
    (p, q) : tuple of float
    """
    if kind == "sue":
        a = _exp_neg(epsilon / 2.0)
        return 1.0 / (1.0 + a), a / (1.0 + a)
    a = _exp_neg(epsilon)
    return 0.5, a / (1.0 + a)


@contract(x=_VALUES, k=Integer(2, MAX_DOMAIN), epsilon=EPSILON, kind=_KIND, rng=RandomState())
def ue_perturb(x: Any, k: int, epsilon: float, kind: str = "oue", *, rng: Any = None) -> np.ndarray:
    """Unary-encoding reports: one-hot encode ``x`` and flip the bits independently.

    ``B'_{i, x_i} ~ Bernoulli(p)`` and ``B'_{i, v} ~ Bernoulli(q)`` for ``v != x_i``, all independent
    (Wang et al. 2017).  Every bit is drawn from one random byte, exactly in law
    (:func:`ldpnb.mechanisms._common.bernoulli_bits`: a byte below ``floor(256 q)`` is a 1, a tie is
    decided by a fresh double), in chunks of users written straight into the boolean ``(n, k)``
    output: a byte per bit instead of a double (before 2026-11 this sampler drew one double per bit;
    same law, different stream).

    Parameters
    ----------
    x : array-like of int, shape (n,)
    k : int
    epsilon : float
    kind : {"oue", "sue"}
    rng : Generator, int or None

    Returns
    -------
    ndarray of bool, shape (n, k)
        Row ``i`` is the report of user ``i``; :func:`ue_pattern_index` maps it to a column of
        :func:`ue_channel`.
    """
    rng = check_random_state(rng)
    p, q = ue_params(epsilon, kind)
    x = check_values(x, k)
    return _ue_sample(x, k, p, q, rng)


def _ue_sample(x: np.ndarray, k: int, p: float, q: float, rng: np.random.Generator) -> np.ndarray:
    """Independent bit flips of the one-hot encodings of validated values ``x`` (chunked)."""
    n = x.size
    if n * k > MAX_BYTES:
        raise ValueError(f"x: {n} reports of {k} bits exceed {MAX_BYTES} entries; use ue_simulate_support_counts")
    out = np.empty((n, k), dtype=bool)
    step = _chunk_rows(n, k, budget=1 << 24)  # one byte per entry: 16 MiB blocks
    for start in range(0, n, step):
        stop = min(n, start + step)
        rows = np.arange(stop - start)
        block = out[start:stop]
        block[...] = bernoulli_bits(rng, (stop - start, k), q)
        block[rows, x[start:stop]] = bernoulli_bits(rng, (stop - start, 1), p)[:, 0]
    return out


@contract(bits=Bits(2))
def ue_support_counts(bits: Any) -> np.ndarray:
    """Support counts ``C(v) = #{i : B_{i, v} = 1}`` of unary-encoding reports (int64, length k).

    The same numbers as ``bits.sum(axis=0)``, by a blocked uint8 accumulation
    (:func:`ldpnb.mechanisms._common.bool_column_counts`), several times faster on large ``n``.
    """
    return bool_column_counts(np.ascontiguousarray(bits))


@contract(x=_VALUES, k=Integer(2, MAX_DOMAIN), epsilon=EPSILON, rng=RandomState())
def rappor_perturb(x: Any, k: int, epsilon: float, *, rng: Any = None) -> np.ndarray:
    """Basic one-time RAPPOR reports, i.e. :func:`ue_perturb` with ``kind="sue"``.

    Each bit of the one-hot encoding is kept with probability ``p = e^{eps/2}/(1 + e^{eps/2})``
    (ElSalamouny & Palamidessi 2020, §4.4).

    Parameters
    ----------
    x : array-like of int, shape (n,)
    k : int
    epsilon : float
    rng : Generator, int or None

    Returns
    -------
    ndarray of bool, shape (n, k)
    """
    return ue_perturb(x, k, epsilon, "sue", rng=rng)


@contract(bits=Bits(2))
def ue_pattern_index(bits: Any) -> np.ndarray:
    """Column index of bit vectors in :func:`ue_channel`: ``index = sum_j b_j 2**j``.

    Parameters
    ----------
    bits : array-like of bool/0-1, shape (n, k) with ``k <= 62``

    Returns
    -------
    ndarray of int64, shape (n,)
    """
    b = bits
    if b.shape[1] > 62:
        raise ValueError(f"bits must have at most 62 columns to fit an int64 index, got {b.shape[1]}")
    weights = np.left_shift(np.int64(1), np.arange(b.shape[1], dtype=np.int64))
    return (b.astype(np.int64) * weights).sum(axis=1)


@contract(input_counts=Counts(min_size=2), epsilon=EPSILON, kind=_KIND, rng=RandomState())
def ue_simulate_support_counts(input_counts: Any, epsilon: float, kind: str = "oue", *, rng: Any = None) -> np.ndarray:
    """Support counts ``C(v) = sum_i B'_{i, v}`` of unary encoding, exact in law, cost O(k).

    Bits are flipped independently, so the column sums are independent across ``v`` and

    .. math:: C(v) \\sim \\text{Binomial}(N_v, p) + \\text{Binomial}(n - N_v, q)

    independently over ``v`` -- exactly the law of ``ue_perturb(x).sum(axis=0)``
    ``E[C(v)] = n (p f_v + q (1 - f_v))`` with ``f_v = N_v / n``.

    Parameters
    ----------
    input_counts : array-like of int, shape (k,)
    epsilon : float
    kind : {"oue", "sue"}
    rng : Generator, int or None

    Returns
    -------
    ndarray of int64, shape (k,)
    """
    rng = check_random_state(rng)
    p, q = ue_params(epsilon, kind)
    N = _check_input_counts(input_counts)
    n = int(N.sum())
    return (rng.binomial(N, p) + rng.binomial(n - N, q)).astype(np.int64)


@contract(k=Integer(2, _MAX_UE_BITS), epsilon=EPSILON, kind=_KIND)
def ue_channel(k: int, epsilon: float, kind: str = "oue") -> np.ndarray:
    """Exact ``k x 2**k`` channel of unary encoding over all bit patterns (``k <= 16``).

    Column ``b`` is the pattern with bits ``b_j = (b >> j) & 1`` (index ``sum_j b_j 2**j``; see
    :func:`ue_pattern_index`).  With ``S = sum_j b_j``:

    .. math:: C[x, b] = p^{b_x} (1-p)^{1-b_x} \\; q^{S - b_x} (1-q)^{k-1-(S-b_x)}.

    For SUE this is ElSalamouny & Palamidessi (2020), Lemma 4.4:
    ``P(beta | x) = p^k exp(-(1/2 + S/2 - beta_x) eps)``.  The channel is exactly eps-LDP.  Built
    from log-probabilities; refused (``ValueError``) when an entry is below float64's normal range
    (e.g. OUE at ``k = 16`` beyond eps ~ 47): :meth:`UnaryEncoding.log_channel` is exact there.

    Parameters
    ----------
    k : int
        ``2 <= k <= 16``.
    epsilon : float
    kind : {"oue", "sue"}

    Returns
    -------
    ndarray, shape (k, 2**k)
    """
    L = _ue_log_channel(k, epsilon, kind)
    return _exp_channel(
        L, epsilon=epsilon, what="unary-encoding channel", hint=f"{kind.upper()}(k, epsilon).log_channel()"
    )


@contract(k=Integer(2, _MAX_UE_BITS), epsilon=EPSILON)
def rappor_channel(k: int, epsilon: float) -> np.ndarray:
    """Basic one-time RAPPOR channel (``k x 2**k``), i.e. ``ue_channel(k, epsilon, "sue")``.

    ElSalamouny & Palamidessi (2020), Lemma 4.4: ``P(beta | x) = p^k exp(-(1/2 + S(beta)/2 -
    beta_x) eps)`` with ``p = e^{eps/2}/(1 + e^{eps/2})``.  Pattern index ``sum_j beta_j 2**j``.

    Parameters
    ----------
    k : int
        Number of bits (domain size), ``2 <= k <= 16``.
    epsilon : float

    Returns
    -------
    ndarray, shape (k, 2**k)
    """
    return ue_channel(k, epsilon, "sue")


# ---------------------------------------------------------------------------------------------
# log domain
# ---------------------------------------------------------------------------------------------


def _ue_gap(epsilon: float, kind: str) -> float:
    """``p - q`` without cancellation: SUE ``(1 - e^{-eps/2}) / (1 + e^{-eps/2})``, OUE
    ``(1 - e^{-eps}) / (2 (1 + e^{-eps}))``."""
    if kind == "sue":
        return -math.expm1(-epsilon / 2.0) / (1.0 + _exp_neg(epsilon / 2.0))
    return -math.expm1(-epsilon) / (2.0 * (1.0 + _exp_neg(epsilon)))


def _ue_log_params(epsilon: float, kind: str) -> tuple[float, float, float, float]:
    """``(log p, log(1-p), log q, log(1-q))`` of unary encoding without cancellation.

    SUE: ``log p = log(1-q) = -log1p(e^{-eps/2})``, ``log(1-p) = log q = -eps/2 + log p``;
    OUE: ``log p = log(1-p) = -log 2``, ``log(1-q) = -log1p(e^{-eps})``, ``log q = -eps + log(1-q)``.
    """
    if kind == "sue":
        lp = -math.log1p(_exp_neg(epsilon / 2.0))
        return lp, lp - epsilon / 2.0, lp - epsilon / 2.0, lp
    l1q = -math.log1p(_exp_neg(epsilon))
    return -_LOG2, -_LOG2, l1q - epsilon, l1q


def _bits_log_channel(k: int, lp: float, l1p: float, lq: float, l1q: float) -> np.ndarray:
    """``(k, 2**k)`` log channel of independent bits: bit ``x`` is 1 w.p. ``p``, the others w.p. ``q``.

    ``log C[x, b] = b_x log p + (1 - b_x) log(1-p) + S' log q + (k-1-S') log(1-q)`` with ``S'`` the
    number of ones among the other bits (column ``b = sum_j b_j 2**j``).
    """
    bits = _bits_of_columns(k).T  # (k, 2**k): bits[x, b] = b_x
    S = bits.sum(axis=0)[None, :]
    others = S - bits
    return np.where(bits, lp, l1p) + others * lq + ((k - 1) - others) * l1q


def _ue_log_channel(k: int, epsilon: float, kind: str) -> np.ndarray:
    return _bits_log_channel(k, *_ue_log_params(epsilon, kind))


# ---------------------------------------------------------------------------------------------
# the mechanism objects
# ---------------------------------------------------------------------------------------------


class UnaryEncoding(FrequencyOracle):
    """Unary encoding (one-hot bits flipped independently) as a :class:`~ldpnb.mechanisms.Mechanism`.

    Bit ``x`` of the report is 1 with probability ``p``, every other bit with probability ``q``:
    SUE (basic one-time RAPPOR) ``p = e^{eps/2}/(e^{eps/2} + 1)``, ``q = 1 - p``; OUE ``p = 1/2``,
    ``q = 1/(e^eps + 1)`` (Wang et al. 2017; Erlingsson et al. 2014).  Reports are boolean
    ``(n, k)`` rows; the exact channel has the ``2**k`` bit patterns as columns (``k <= 16``,
    column ``sum_j b_j 2**j``, :func:`ue_pattern_index`).  A report supports the values of its 1
    bits.  Claim: eps-LDP, tight.

    Parameters
    ----------
    k : int
        Domain size = number of bits.
    epsilon : float
    kind : {"oue", "sue"}

    Examples
    --------
    >>> import numpy as np
    >>> m = OUE(4, 1.0)                      # p = 1/2, q = 1/(e + 1)
    >>> m.perturb([0, 3], rng=np.random.default_rng(0)).shape   # k bits per report
    (2, 4)
    >>> x = np.repeat(np.arange(4), 2500)    # 10,000 people, uniform over 4 values
    >>> f = m.estimate(m.perturb(x, rng=np.random.default_rng(1)))
    >>> bool(np.abs(f - 0.25).max() < 0.1), m.check().holds
    (True, True)
    """

    family = "UE"
    aliases = ("unary encoding",)

    @contract(k=Integer(2, MAX_DOMAIN), epsilon=EPSILON, kind=OneOf("oue", "sue"))
    def __init__(self, k: int, epsilon: float, kind: str = "oue") -> None:
        self.k, self.epsilon, self.kind = k, epsilon, kind
        self.p, self.q = ue_params(epsilon, kind)
        self.p_minus_q = _ue_gap(epsilon, kind)

    @property
    def n_outputs(self) -> int:
        return 1 << self.k

    def _check_dense(self) -> None:
        if self.k > _MAX_UE_BITS:
            raise ValueError(
                f"k must be <= {_MAX_UE_BITS} for the exact unary-encoding channel (2**k columns), "
                f"got {self.k}; use the sampler or the support-count simulator"
            )

    def _log_channel(self) -> np.ndarray:
        return _ue_log_channel(self.k, self.epsilon, self.kind)

    def _log_ratios(self) -> np.ndarray:
        """``log(C[x, b] / C[0, b]) = eps (b_x - b_0)`` (bit ``x`` has odds ratio ``p(1-q)/((1-p)q) = e^eps``)."""
        self._check_dense()
        bits = _bits_of_columns(self.k).T.astype(np.float64)  # (k, 2**k)
        return self.epsilon * (bits - bits[0])

    def _perturb(self, x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return _ue_sample(x, self.k, self.p, self.q, rng)

    def report_index(self, reports: Any) -> np.ndarray:
        """Column of the exact channel of each report: ``sum_j b_j 2**j`` (:func:`ue_pattern_index`)."""
        return ue_pattern_index(_check_reports_matrix(reports, self.k))

    def support(self, reports: Any) -> np.ndarray:
        return _check_reports_matrix(reports, self.k)

    def support_counts(self, reports: Any) -> np.ndarray:
        """``C(v) = #{i : report i has bit v}`` (blocked uint8 column sums; the same as ``sum(axis=0)``)."""
        return bool_column_counts(np.ascontiguousarray(self.support(reports)))

    def simulate_support_counts(self, input_counts: Any, *, rng: Any = None) -> np.ndarray:
        """Support counts for input counts ``N`` (:func:`ue_simulate_support_counts`; exact joint law:
        the bits are independent)."""
        rng = check_random_state(rng)
        N = self._check_input_counts(input_counts)
        n = int(N.sum())
        return (rng.binomial(N, self.p) + rng.binomial(n - N, self.q)).astype(np.int64)

    def column_support(self) -> np.ndarray:
        self._check_dense()
        return _bits_of_columns(self.k)

    def params(self) -> dict[str, Any]:
        out = super().params()
        if type(self) is UnaryEncoding:
            out["kind"] = self.kind
        return out


class SUE(UnaryEncoding):
    """Symmetric unary encoding (basic one-time RAPPOR): :class:`UnaryEncoding` with ``kind="sue"``."""

    family = "SUE"
    aliases = ("RAPPOR", "basic RAPPOR", "symmetric unary encoding")

    @contract(k=Integer(2, MAX_DOMAIN), epsilon=EPSILON)
    def __init__(self, k: int, epsilon: float) -> None:
        super().__init__(k, epsilon, "sue")

    @classmethod
    def on(cls, domain: Domain, epsilon: float) -> SUE:
        """SUE on the ``domain.size`` values of the domain."""
        return cls(domain.size, epsilon)


class OUE(UnaryEncoding):
    """Optimised unary encoding (Wang et al. 2017): :class:`UnaryEncoding` with ``kind="oue"``."""

    family = "OUE"
    aliases = ("optimised unary encoding", "optimized unary encoding")

    @contract(k=Integer(2, MAX_DOMAIN), epsilon=EPSILON)
    def __init__(self, k: int, epsilon: float) -> None:
        super().__init__(k, epsilon, "oue")

    @classmethod
    def on(cls, domain: Domain, epsilon: float) -> OUE:
        """OUE on the ``domain.size`` values of the domain."""
        return cls(domain.size, epsilon)
