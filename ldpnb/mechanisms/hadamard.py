r"""Hadamard response (HR, Acharya, Sun and Zhang 2019) and Hadamard randomized response (HRR,
Cormode, Kulkarni and Srivastava 2018; Cormode, Maddock and Maple 2021): frequency oracles whose
reports are entries of a Sylvester Hadamard matrix, decoded by one fast Walsh-Hadamard transform.

The Sylvester matrix of order :math:`K = 2^m` is :math:`H[i, j] = (-1)^{\langle i, j\rangle}`, the
parity of the bits that ``i`` and ``j`` share (:func:`fwht` computes :math:`Hx` in
:math:`O(K \log K)`).  Two distinct rows agree on exactly :math:`K/2` columns; this orthogonality
is what makes both mechanisms *pure* frequency oracles in the sense of Wang et al. (2017): a report
supports the true value with probability :math:`p = e^\varepsilon/(1 + e^\varepsilon)` and every
other value with probability exactly :math:`q = 1/2`, so Wang et al.'s estimator (Eq. 2) and its
variance apply unchanged, with

.. math:: \mathrm{Var}[\hat f(v)] = \frac{f_v\,p(1-p) + (1-f_v)/4}{n\,(p - 1/2)^2},
          \qquad \frac{1/4}{(p-1/2)^2} = \Big(\frac{e^\varepsilon + 1}{e^\varepsilon - 1}\Big)^2 .

=================  ====================================================================================
:class:`HR`        Acharya et al.'s Hadamard response in its basic construction: value ``x`` owns the
                   half :math:`C_x = \{y : H[x+1, y] = +1\}` of the ``K`` outputs (``K`` the smallest
                   power of two above ``k``, row 0 of ``H`` unused); report ``y`` with probability
                   :math:`2e^\varepsilon/(K(1+e^\varepsilon))` on :math:`C_x` and
                   :math:`2/(K(1+e^\varepsilon))` off it.  ``log2 K`` bits per report.
:class:`HRR`       Hadamard randomized response: a uniform column ``j`` of ``H`` (``K`` the smallest
                   power of two at least ``k``) and the entry :math:`H[x, j]` sent through binary
                   randomized response; the report is ``(j, b)``, ``log2 K + 1`` bits.
=================  ====================================================================================

**Which variants.**  HR is the construction of Acharya et al. (2019) that pure-LDP, the library of
Cormode et al. (2021), runs for :math:`\varepsilon \le 1` (``Hadamard_Rand_high_priv``); for
:math:`\varepsilon > 1` that library switches to Acharya et al.'s block construction
(``Hadamard_Rand_general_original``: :math:`B = 2^{\lfloor \log_2 \min(e^\varepsilon, 2k)\rfloor}`
blocks, whose reports support the values of their own block with a different probability than the
others, so it is not a pure oracle and Wang et al.'s estimator does not apply); the block
construction is not implemented here.  :class:`HR` keeps the basic construction at every
:math:`\varepsilon` (its variance tends to ``1/n`` per value as :math:`\varepsilon` grows: it is a
high-privacy mechanism).  HRR is the Hadamard mechanism of Cormode et al. (2021) with one coefficient
(``t = 1``), the version their experiments call HRR (introduced as a frequency oracle by
Cormode, Kulkarni and Srivastava 2018).

References
----------
G. Cormode, T. Kulkarni, D. Srivastava, "Marginal Release Under Local Differential Privacy",
SIGMOD 2018.  J. Acharya, Z. Sun, H. Zhang, "Hadamard Response: Estimating Distributions Privately, Efficiently,
and with Little Communication", AISTATS 2019 (arXiv:1802.04705).  G. Cormode, S. Maddock, C. Maple,
"Frequency Estimation under Local Differential Privacy", PVLDB 14(11), 2021 (arXiv:2103.16640).
T. Wang, J. Blocki, N. Li, S. Jha, "Locally Differentially Private Protocols for Frequency
Estimation", USENIX Security 2017.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ldpnb.channels.structured import ChannelOperator
from ldpnb.contracts import EPSILON, MAX_BYTES, MAX_DENSE, MAX_ENTRIES, Array, Integer, contract
from ldpnb.mechanisms._base import Domain, FrequencyOracle
from ldpnb.mechanisms._common import _exp_channel, _exp_neg
from ldpnb.utils import check_random_state

__all__ = [
    "fwht",
    "hr_params",
    "hr_channel",
    "hrr_channel",
    "HR",
    "HRR",
    "HROperator",
    "HRROperator",
]

#: Largest domain of HR and HRR (``K <= 2**31`` outputs: int64 indices, a ``K``-vector of counts).
MAX_HADAMARD_K = 1 << 30

#: Above this many ``k x K`` entries, the count simulators draw user by user (cost O(n)) instead of
#: one multinomial per value (cost O(k K)); both are exact in law.
_MAX_MIXTURE_ENTRIES = 1 << 24
#: Largest cost ``min(n, k K)`` of one count simulation (refused above: minutes of work).
_MAX_SIMULATION = 1 << 32


def _parity(a: np.ndarray) -> np.ndarray:
    """``popcount(a) mod 2`` of nonnegative integers (boolean): ``H[i, j] = -1`` iff ``_parity(i & j)``."""
    return (np.bitwise_count(np.asarray(a, dtype=np.uint64)) & np.uint8(1)).astype(bool)


def _fwht_last(x: np.ndarray) -> np.ndarray:
    """Unnormalised Walsh-Hadamard transform along the last axis (length a power of two)."""
    lead, K = x.shape[:-1], x.shape[-1]
    h = 1
    while h < K:
        y = x.reshape(lead + (K // (2 * h), 2, h))
        u, v = y[..., 0, :], y[..., 1, :]
        x = np.stack((u + v, u - v), axis=-2).reshape(lead + (K,))
        h *= 2
    return x


@contract(x=Array(None, max_size=MAX_ENTRIES))
def fwht(x: Any) -> np.ndarray:
    r"""Fast Walsh-Hadamard transform :math:`y = H x` along the last axis, :math:`O(K \log K)`.

    :math:`H[i, j] = (-1)^{\mathrm{popcount}(i \,\&\, j)}` is the Sylvester (natural-order) Hadamard
    matrix of order ``K`` (a power of two); ``H`` is symmetric and :math:`H H = K I`, so
    ``fwht(fwht(x)) / K == x``.  Computed in float64 (exact for integers below ``2**53 / K``).

    Parameters
    ----------
    x : array-like, shape (..., K)

    Returns
    -------
    ndarray, shape (..., K)

    Examples
    --------
    >>> fwht([1, 0, 0, 0]).tolist(), fwht([0, 1, 0, 0]).tolist()
    ([1.0, 1.0, 1.0, 1.0], [1.0, -1.0, 1.0, -1.0])
    """
    a = np.asarray(x)
    K = a.shape[-1] if a.ndim else 0
    if a.ndim == 0 or K < 1 or K & (K - 1):
        raise ValueError(f"x must have a last axis whose length is a power of two, got shape {a.shape}")
    return _fwht_last(a.astype(np.float64))


# ---------------------------------------------------------------------------------------------
# parameters and channels
# ---------------------------------------------------------------------------------------------


def _hadamard_p(epsilon: float) -> tuple[float, float, float]:
    """``(p, log p, log(1 - p))`` of binary randomized response, ``p = e^eps / (1 + e^eps)``."""
    a = _exp_neg(epsilon)
    lp = -math.log1p(a)
    return 1.0 / (1.0 + a), lp, lp - epsilon


def _hadamard_gap(epsilon: float) -> float:
    """``p - 1/2 = (1 - e^{-eps}) / (2 (1 + e^{-eps}))`` without cancellation."""
    return -math.expm1(-epsilon) / (2.0 * (1.0 + _exp_neg(epsilon)))


@contract(k=Integer(2, MAX_HADAMARD_K), epsilon=EPSILON)
def hr_params(k: int, epsilon: float) -> tuple[int, float, float]:
    r"""``(K, p, q)`` of Hadamard response (and of HRR, with its own ``K``).

    ``K = 2^{\lceil \log_2 (k+1) \rceil}`` outputs for HR (Acharya et al. 2019: rows ``1..k`` of
    the Sylvester matrix), :math:`p = e^\varepsilon/(1+e^\varepsilon)` (a report supports the true
    value), :math:`q = 1/2` (any other value: two distinct rows agree on half of the columns).

    Examples
    --------
    >>> K, p, q = hr_params(7, math.log(3.0))
    >>> K, round(p, 12), q
    (8, 0.75, 0.5)
    """
    return 1 << int(k).bit_length(), _hadamard_p(epsilon)[0], 0.5


def _hr_in_set(k: int, K: int, xs: np.ndarray | None = None) -> np.ndarray:
    """``(k, K)`` boolean (rows ``xs`` only when given): output ``y`` is in ``C_x`` (``H[x + 1, y] = +1``)."""
    x = np.arange(k, dtype=np.int64) if xs is None else np.asarray(xs, dtype=np.int64)
    return ~_parity((x + 1)[:, None] & np.arange(K, dtype=np.int64)[None, :])


def _hr_log_channel(k: int, epsilon: float) -> np.ndarray:
    K = 1 << int(k).bit_length()
    _, lp, l1p = _hadamard_p(epsilon)
    base = math.log(2.0 / K)
    return np.where(_hr_in_set(k, K), base + lp, base + l1p)


def _hrr_agree(k: int, K: int) -> np.ndarray:
    """``(k, 2K)`` boolean: report ``(j, c)`` (column ``2j + c``, ``b = 1 - 2c``) agrees with ``H[x, j]``."""
    j = np.arange(K, dtype=np.int64)
    par = _parity(np.arange(k, dtype=np.int64)[:, None] & j[None, :])  # H[x, j] = -1
    out = np.empty((k, 2 * K), dtype=bool)
    out[:, 0::2] = ~par  # c = 0: b = +1 agrees when H = +1
    out[:, 1::2] = par
    return out


def _hrr_log_channel(k: int, epsilon: float) -> np.ndarray:
    K = 1 << (int(k) - 1).bit_length()
    _, lp, l1p = _hadamard_p(epsilon)
    base = -math.log(K)
    return np.where(_hrr_agree(k, K), base + lp, base + l1p)


@contract(k=Integer(2, 1 << 12), epsilon=EPSILON)
def hr_channel(k: int, epsilon: float) -> np.ndarray:
    r"""Exact ``k x K`` channel of Hadamard response (Acharya et al. 2019):

    .. math:: C[x, y] = \frac{2}{K(1+e^\varepsilon)} \times
              \begin{cases} e^\varepsilon & H[x+1, y] = +1 \\ 1 & \text{otherwise.}\end{cases}

    Every column has ratio ``e^eps`` or 1 between two rows: exactly eps-LDP.  Built from
    log-probabilities (:meth:`HR.log_channel` is exact at any epsilon).

    Examples
    --------
    >>> C = hr_channel(3, 1.0)
    >>> C.shape, bool(np.allclose(C.sum(axis=1), 1.0))
    ((3, 4), True)
    """
    return _exp_channel(
        _hr_log_channel(k, epsilon),
        epsilon=epsilon,
        what="Hadamard-response channel",
        hint="HR(k, epsilon).log_channel()",
    )


@contract(k=Integer(2, 1 << 12), epsilon=EPSILON)
def hrr_channel(k: int, epsilon: float) -> np.ndarray:
    r"""Exact ``k x 2K`` channel of Hadamard randomized response (Cormode et al. 2021): column
    ``2j + c`` is the report ``(j, b = 1 - 2c)``,

    .. math:: C[x, (j, b)] = \frac1K \times \begin{cases} e^\varepsilon/(1+e^\varepsilon) & b = H[x, j]
              \\ 1/(1+e^\varepsilon) & \text{otherwise,}\end{cases}

    ``K`` the smallest power of two at least ``k``.  Exactly eps-LDP.

    Examples
    --------
    >>> hrr_channel(4, 1.0).shape
    (4, 8)
    """
    return _exp_channel(
        _hrr_log_channel(k, epsilon), epsilon=epsilon, what="HRR channel", hint="HRR(k, epsilon).log_channel()"
    )


# ---------------------------------------------------------------------------------------------
# fast channel products
# ---------------------------------------------------------------------------------------------


class HROperator(ChannelOperator):
    r"""HR's channel as products: :math:`C[x, y] = (1 + t\,H[x+1, y])/K` with
    :math:`t = (e^\varepsilon - 1)/(e^\varepsilon + 1)`, so

    .. math:: \theta C = \big(\textstyle\sum_x \theta_x + t\, H \tilde\theta\big)/K, \qquad
              (C r)_x = \big(\textstyle\sum_y r_y + t\,(H r)_{x+1}\big)/K,

    with :math:`\tilde\theta` the ``K``-vector holding :math:`\theta` in entries ``1..k``:
    :math:`O(K \log K)` per product (:func:`fwht`).
    """

    @contract(k=Integer(2, MAX_HADAMARD_K), epsilon=EPSILON)
    def __init__(self, k: int, epsilon: float) -> None:
        self.k, self.epsilon = k, epsilon
        self.K = 1 << int(k).bit_length()
        self.t = 2.0 * _hadamard_gap(epsilon)
        self.shape = (k, self.K)
        self.stochastic = True

    def _matvec(self, th: np.ndarray) -> np.ndarray:
        v = np.zeros(th.shape[:-1] + (self.K,))
        v[..., 1 : self.k + 1] = th
        return (th.sum(axis=-1, keepdims=True) + self.t * _fwht_last(v)) / self.K

    def _rmatvec(self, v: np.ndarray) -> np.ndarray:
        return (v.sum(axis=-1, keepdims=True) + self.t * _fwht_last(v)[..., 1 : self.k + 1]) / self.K

    def __repr__(self) -> str:
        return f"HROperator(k={self.k}, epsilon={self.epsilon:.6g})"


class HRROperator(ChannelOperator):
    r"""HRR's channel as products: :math:`C[x, (j, b)] = (1/2 + g\, b\, H[x, j])/K` with
    :math:`g = p - 1/2`, so with :math:`\tilde\theta` the ``K``-vector holding :math:`\theta`,

    .. math:: (\theta C)_{(j, b)} = \big(\tfrac12\textstyle\sum_x\theta_x + g\,b\,(H\tilde\theta)_j\big)/K,
              \qquad (C r)_x = \big(\tfrac12\textstyle\sum r + g\,(H (r_{+} - r_{-}))_x\big)/K,

    :math:`O(K \log K)` per product.
    """

    @contract(k=Integer(2, MAX_HADAMARD_K), epsilon=EPSILON)
    def __init__(self, k: int, epsilon: float) -> None:
        self.k, self.epsilon = k, epsilon
        self.K = 1 << (int(k) - 1).bit_length()
        self.g = _hadamard_gap(epsilon)
        self.shape = (k, 2 * self.K)
        self.stochastic = True

    def _matvec(self, th: np.ndarray) -> np.ndarray:
        v = np.zeros(th.shape[:-1] + (self.K,))
        v[..., : self.k] = th
        Hv = _fwht_last(v)
        half = 0.5 * th.sum(axis=-1, keepdims=True)
        out = np.empty(th.shape[:-1] + (2 * self.K,))
        out[..., 0::2] = (half + self.g * Hv) / self.K
        out[..., 1::2] = (half - self.g * Hv) / self.K
        return out

    def _rmatvec(self, v: np.ndarray) -> np.ndarray:
        d = v[..., 0::2] - v[..., 1::2]
        return (0.5 * v.sum(axis=-1, keepdims=True) + self.g * _fwht_last(d)[..., : self.k]) / self.K

    def __repr__(self) -> str:
        return f"HRROperator(k={self.k}, epsilon={self.epsilon:.6g})"


# ---------------------------------------------------------------------------------------------
# the mechanism objects
# ---------------------------------------------------------------------------------------------


class _Hadamard(FrequencyOracle, register=False):
    """Shared parts of HR and HRR: ``p = e^eps/(1+e^eps)``, ``q = 1/2``, reports are column indices."""

    #: Support indicators of one report are not independent across values (the guide's flag).
    independent_supports = False

    def __init__(self, k: int, epsilon: float) -> None:
        self.k, self.epsilon = k, epsilon
        self.p = _hadamard_p(epsilon)[0]
        self.q = 0.5
        self.p_minus_q = _hadamard_gap(epsilon)

    @classmethod
    def on(cls, domain: Domain, epsilon: float) -> _Hadamard:
        """The family on the ``domain.size`` values of the domain."""
        return cls(domain.size, epsilon)

    def _supports_from_output_counts(self, M: np.ndarray, n: int) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def support_counts(self, reports: Any) -> np.ndarray:
        """``C(v)`` from the output counts by one Walsh-Hadamard transform (cost ``O(n + K log K)``);
        the same numbers as ``support(reports).sum(axis=0)``."""
        y = self.report_index(reports)
        return self._supports_from_output_counts(np.bincount(y, minlength=self.n_outputs), y.size)

    def simulate_support_counts(self, input_counts: Any, *, rng: Any = None) -> np.ndarray:
        """Support counts of users with input counts ``N``, exact in law (joint law included): the
        output counts of :meth:`simulate_counts` (a mixture law, exact) mapped to supports by one
        Walsh-Hadamard transform."""
        rng = check_random_state(rng)
        N = self._check_input_counts(input_counts)
        M = self._simulate_counts(N, rng)
        return self._supports_from_output_counts(M, int(N.sum()))

    def _count_diagonal(self, N: np.ndarray) -> np.ndarray:
        """``Var C(v) = N_v p (1 - p) + (n - N_v) / 4``."""
        n = int(N.sum())
        return N * self.p * (1.0 - self.p) + (n - N) * 0.25

    def _check_cov_counts(self, input_counts: Any) -> np.ndarray:
        N = self._check_input_counts(input_counts).astype(np.float64)
        if self.k > MAX_DENSE:
            raise ValueError(f"a {self.k} x {self.k} covariance exceeds the dense limit {MAX_DENSE}")
        return N

    def _per_user_counts(self, N: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Output counts by drawing every user's report (chunks of 2**20 users), exact in law."""
        out = np.zeros(self.n_outputs, dtype=np.int64)
        x_all = np.repeat(np.arange(self.k, dtype=np.int64), N)
        for s in range(0, x_all.size, 1 << 20):
            out += np.bincount(self._perturb(x_all[s : s + (1 << 20)], rng), minlength=self.n_outputs)
        return out


class HR(_Hadamard):
    r"""Hadamard response (Acharya, Sun and Zhang 2019) as a :class:`~ldpnb.mechanisms.Mechanism`.

    With ``K`` the smallest power of two above ``k`` and :math:`C_x = \{y \in [K] : H[x+1, y] = +1\}`
    (``K/2`` outputs), a user holding ``x`` reports ``y`` with

    .. math:: P(y \mid x) = \frac{2}{K(1+e^\varepsilon)}\,\big(e^\varepsilon\,[y \in C_x] + [y \notin C_x]\big).

    A report ``y`` supports the values ``v`` with ``y in C_v``: the true value with
    :math:`p = e^\varepsilon/(1+e^\varepsilon)` and any other with :math:`q = 1/2` exactly (rows
    ``x+1`` and ``v+1`` agree on ``K/2`` columns, half of them in :math:`C_x`).  The estimator is Wang
    et al.'s (2017, Eq. 2) and the server's work one Walsh-Hadamard transform of the output counts:
    :math:`C(v) = (n + (H M)_{v+1})/2`.  Claim: eps-LDP, tight.  ``log2 K`` bits per report.

    **Sampler** (Acharya et al.'s coupling): draw ``u`` uniform on ``[K]``; flipping in ``u`` a bit
    that is set in ``x + 1`` changes the parity of ``u & (x + 1)``, so exactly one of ``u`` and
    ``u ^ bit`` is in :math:`C_x`, and each of the two is uniform on its half; report the one in
    :math:`C_x` with probability ``p``.

    This is the construction pure-LDP (Cormode et al. 2021) runs for eps <= 1; see the module
    docstring for the block construction it uses above.

    Parameters
    ----------
    k : int
        Domain size (``2 <= k <= 2**30``).
    epsilon : float

    Examples
    --------
    >>> m = HR(7, 1.0)
    >>> m.n_outputs, m.q, round(m.tight_level(), 12), bool(m.check())
    (8, 0.5, 1.0, True)
    """

    family = "HR"
    aliases = ("Hadamard response", "hadamard-response")

    @contract(k=Integer(2, MAX_HADAMARD_K), epsilon=EPSILON)
    def __init__(self, k: int, epsilon: float) -> None:
        super().__init__(k, epsilon)
        self.K = 1 << int(k).bit_length()

    @property
    def n_outputs(self) -> int:
        return self.K

    @property
    def bits_per_report(self) -> int:
        """``log2 K`` bits: the index of the output."""
        return int(self.K).bit_length() - 1

    def _log_channel(self) -> np.ndarray:
        return _hr_log_channel(self.k, self.epsilon)

    def _log_ratios(self) -> np.ndarray:
        """``log(C[x, y] / C[0, y]) = eps ([y in C_x] - [y in C_0])``."""
        self._check_dense()
        inside = _hr_in_set(self.k, self.K).astype(np.float64)
        return self.epsilon * (inside - inside[0])

    def operator(self) -> HROperator:
        """The ``O(K log K)`` products of :class:`HROperator`."""
        return HROperator(self.k, self.epsilon)

    def _perturb(self, x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        row = x + 1
        bit = row & -row  # a bit set in x + 1: flipping it in u flips the parity of u & (x + 1)
        u = rng.integers(0, self.K, size=x.size, dtype=np.int64)
        u_in = ~_parity(u & row)
        y_in = np.where(u_in, u, u ^ bit)
        keep = rng.random(x.size) < self.p
        return np.where(keep, y_in, y_in ^ bit)

    def support(self, reports: Any) -> np.ndarray:
        """``(n, k)`` boolean: ``y_i in C_v`` (``H[v + 1, y_i] = +1``)."""
        y = self.report_index(reports)
        if y.size * self.k > MAX_BYTES:
            raise ValueError(
                f"reports: a support matrix of {y.size} x {self.k} entries exceeds {MAX_BYTES}; use support_counts"
            )
        return ~_parity(y[:, None] & np.arange(1, self.k + 1, dtype=np.int64)[None, :])

    def _supports_from_output_counts(self, M: np.ndarray, n: int) -> np.ndarray:
        return ((n + _fwht_last(M.astype(np.int64))[1 : self.k + 1]) // 2).astype(np.int64)

    def column_support(self) -> np.ndarray:
        self._check_dense()
        return _hr_in_set(self.k, self.K).T

    def _simulate_counts(self, N: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        r"""Output counts, exact in law, as a mixture: :math:`C[x] = (1 - t)\,U_{[K]} + t\,U_{C_x}` with
        :math:`t = (e^\varepsilon - 1)/(e^\varepsilon + 1)` (the two cases of the channel are
        :math:`(1 \pm t)/K`); ``Binomial(N_x, t)`` informative reports of each ``x`` spread uniformly on
        :math:`C_x` (one multinomial per value, cost ``O(k K)``), the rest uniform on ``[K]``.  Above
        ``2**24`` entries ``k K``, when ``n`` is smaller, the users are drawn one by one (also exact)."""
        n = int(N.sum())
        if min(n, self.k * self.K) > _MAX_SIMULATION:
            raise ValueError(f"input_counts: {n} users on {self.k} values cost more than {_MAX_SIMULATION} draws")
        if self.k * self.K > _MAX_MIXTURE_ENTRIES and n < self.k * self.K:
            return self._per_user_counts(N, rng)
        t = 2.0 * self.p_minus_q
        B = rng.binomial(N, t)
        out = rng.multinomial(n - int(B.sum()), np.full(self.K, 1.0 / self.K)).astype(np.int64)
        half = self.K // 2
        step = max(1, _MAX_MIXTURE_ENTRIES // self.K)
        for s in range(0, self.k, step):
            xs = np.arange(s, min(self.k, s + step), dtype=np.int64)
            Bs = B[xs]
            if not Bs.any():
                continue
            draws = rng.multinomial(Bs, np.full(half, 1.0 / half))  # (rows, K/2), positions in C_x
            pos = np.nonzero(_hr_in_set(self.k, self.K, xs))[1].reshape(-1, half)
            out += np.bincount(pos.ravel(), weights=draws.ravel(), minlength=self.K).astype(np.int64)
        return out

    def support_count_covariance(self, input_counts: Any) -> np.ndarray:
        r"""Exact covariance of the support counts ``C`` of users with input counts ``N``, ``(k, k)``.

        The indicator of :math:`C_v` is :math:`(1 + H_{v+1})/2` and Sylvester rows multiply by XOR of
        their indices, :math:`H_a H_b = H_{a \oplus b}`, so one user holding ``x`` supports ``v != w``
        together with probability :math:`\tfrac14(1 + t([x = v] + [x = w] + [x + 1 = (v+1) \oplus
        (w+1)]))`, :math:`t = 2p - 1`: the two supports are uncorrelated except for the users holding
        :math:`z = ((v+1) \oplus (w+1)) - 1`, whence

        .. math:: \mathrm{Cov}(C_v, C_w) = \frac t4\, N_z \ (z < k), \qquad
                  \mathrm{Var}\, C_v = N_v\,p(1-p) + (n - N_v)/4 .
        """
        N = self._check_cov_counts(input_counts)
        idx = np.arange(1, self.k + 1, dtype=np.int64)
        z = (idx[:, None] ^ idx[None, :]) - 1
        ok = (z >= 0) & (z < self.k)
        cov = np.where(ok, 0.5 * self.p_minus_q * N[np.clip(z, 0, self.k - 1)], 0.0)  # t / 4 = (p - 1/2) / 2
        np.fill_diagonal(cov, self._count_diagonal(N))
        return cov

    def params(self) -> dict[str, Any]:
        return {"k": self.k, "epsilon": self.epsilon}


class HRR(_Hadamard):
    r"""Hadamard randomized response (Cormode, Kulkarni and Srivastava 2018; Cormode, Maddock and Maple
    2021: the Hadamard mechanism with one coefficient) as a :class:`~ldpnb.mechanisms.Mechanism`.

    With ``K`` the smallest power of two at least ``k``, a user holding ``x`` draws a column ``j``
    uniformly on ``[K]`` and reports ``(j, b)`` with ``b = H[x, j]`` with probability
    :math:`p = e^\varepsilon/(1+e^\varepsilon)`, else ``-H[x, j]``.  Reports are the column indices
    ``2j + c`` of the exact ``k x 2K`` channel (``b = 1 - 2c``).  A report supports the values ``v``
    with ``H[v, j] = b``: the true one with ``p``, any other with ``q = 1/2`` exactly (two distinct
    rows agree on half of the columns).  The server computes :math:`C(v) = (n + (H d)_v)/2` with
    :math:`d_j = \#(j, +1) - \#(j, -1)`: one Walsh-Hadamard transform.  Claim: eps-LDP, tight.
    ``log2 K + 1`` bits per report.

    Parameters
    ----------
    k : int
        Domain size (``2 <= k <= 2**30``).
    epsilon : float

    Examples
    --------
    >>> m = HRR(5, 1.0)
    >>> m.n_outputs, m.q, round(m.tight_level(), 12)
    (16, 0.5, 1.0)
    """

    family = "HRR"
    aliases = ("Hadamard randomized response", "Hadamard randomised response")

    @contract(k=Integer(2, MAX_HADAMARD_K), epsilon=EPSILON)
    def __init__(self, k: int, epsilon: float) -> None:
        super().__init__(k, epsilon)
        self.K = 1 << (int(k) - 1).bit_length()

    @property
    def n_outputs(self) -> int:
        return 2 * self.K

    @property
    def bits_per_report(self) -> int:
        """``log2 K + 1`` bits: the column ``j`` and the sign ``b``."""
        return int(self.K).bit_length()

    def _log_channel(self) -> np.ndarray:
        return _hrr_log_channel(self.k, self.epsilon)

    def _log_ratios(self) -> np.ndarray:
        """``log(C[x, y] / C[0, y]) = eps ([y agrees with row x] - [y agrees with row 0])``."""
        self._check_dense()
        agree = _hrr_agree(self.k, self.K).astype(np.float64)
        return self.epsilon * (agree - agree[0])

    def operator(self) -> HRROperator:
        """The ``O(K log K)`` products of :class:`HRROperator`."""
        return HRROperator(self.k, self.epsilon)

    def _perturb(self, x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        j = rng.integers(0, self.K, size=x.size, dtype=np.int64)
        flip = rng.random(x.size) >= self.p
        return 2 * j + (_parity(x & j) ^ flip).astype(np.int64)

    def decode(self, reports: Any) -> tuple[np.ndarray, np.ndarray]:
        """The pairs ``(j, b)`` of report indices ``2j + c`` (``b = 1 - 2c`` in ``{+1, -1}``); reports must
        be integers in ``[0, 2K)`` (:meth:`report_index`: a fractional or out-of-range index is refused, it
        was truncated or wrapped).

        >>> HRR(4, 1.0).decode([0, 3, 5])
        (array([0, 1, 2]), array([ 1, -1, -1]))
        """
        y = self.report_index(reports)
        return y >> 1, 1 - 2 * (y & 1)

    def support(self, reports: Any) -> np.ndarray:
        """``(n, k)`` boolean: ``H[v, j_i] = b_i``."""
        y = self.report_index(reports)
        if y.size * self.k > MAX_BYTES:
            raise ValueError(
                f"reports: a support matrix of {y.size} x {self.k} entries exceeds {MAX_BYTES}; use support_counts"
            )
        j, c = y >> 1, (y & 1).astype(bool)
        return _parity(j[:, None] & np.arange(self.k, dtype=np.int64)[None, :]) == c[:, None]

    def _supports_from_output_counts(self, M: np.ndarray, n: int) -> np.ndarray:
        M = M.astype(np.int64)
        d = M[0::2] - M[1::2]
        return ((n + _fwht_last(d)[: self.k]) // 2).astype(np.int64)

    def column_support(self) -> np.ndarray:
        self._check_dense()
        return _hrr_agree(self.k, self.K).T

    def _simulate_counts(self, N: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        r"""Output counts, exact in law: with probability :math:`t = 2p - 1` a report is informative,
        ``(j, H[x, j])`` with ``j`` uniform (one multinomial over ``[K]`` per value, cost ``O(k K)``),
        else uniform on the ``2K`` outputs.  Above ``2**24`` entries ``k K``, when ``n`` is smaller,
        the users are drawn one by one (also exact)."""
        n = int(N.sum())
        if min(n, self.k * self.K) > _MAX_SIMULATION:
            raise ValueError(f"input_counts: {n} users on {self.k} values cost more than {_MAX_SIMULATION} draws")
        if self.k * self.K > _MAX_MIXTURE_ENTRIES and n < self.k * self.K:
            return self._per_user_counts(N, rng)
        t = 2.0 * self.p_minus_q
        B = rng.binomial(N, t)
        out = rng.multinomial(n - int(B.sum()), np.full(2 * self.K, 0.5 / self.K)).astype(np.int64)
        j = np.arange(self.K, dtype=np.int64)
        step = max(1, _MAX_MIXTURE_ENTRIES // self.K)
        for s in range(0, self.k, step):
            xs = np.arange(s, min(self.k, s + step), dtype=np.int64)
            Bs = B[xs]
            if not Bs.any():
                continue
            draws = rng.multinomial(Bs, np.full(self.K, 1.0 / self.K))  # (rows, K): column j
            cols = 2 * j[None, :] + _parity(xs[:, None] & j[None, :]).astype(np.int64)
            out += np.bincount(cols.ravel(), weights=draws.ravel(), minlength=2 * self.K).astype(np.int64)
        return out

    def support_count_covariance(self, input_counts: Any) -> np.ndarray:
        r"""Exact covariance of the support counts ``C`` of users with input counts ``N``: diagonal.

        The indicator that ``(j, b)`` supports ``v`` is :math:`(1 + b H[v, j])/2`; for ``v != w``,
        :math:`E[b H[v,j] \mid x] = t [x = v]` (:math:`t = 2p-1`) and
        :math:`E[H[v,j] H[w,j]] = E[H[v \oplus w, j]] = 0`, so one user supports ``v`` and ``w``
        together with probability :math:`\tfrac14 (1 + t[x=v] + t[x=w])`, the product of the two
        marginals: the supports of distinct values are uncorrelated,
        :math:`\mathrm{Var}\, C_v = N_v\,p(1-p) + (n - N_v)/4`.
        """
        return np.diag(self._count_diagonal(self._check_cov_counts(input_counts)))

    def params(self) -> dict[str, Any]:
        return {"k": self.k, "epsilon": self.epsilon}
