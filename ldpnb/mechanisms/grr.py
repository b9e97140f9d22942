"""k-ary randomized response (k-RR, also called GRR or direct encoding).

Kairouz, Bonawitz and Ramage (2016); Wang, Blocki, Li and Jha (2017).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ldpnb.channels.structured import DiagPlusConstChannel
from ldpnb.contracts import EPSILON, MAX_BYTES, MAX_DENSE, MAX_DOMAIN, Array, Counts, Integer, RandomState, contract
from ldpnb.mechanisms._base import Domain, FrequencyOracle
from ldpnb.mechanisms._common import _exp_channel, _exp_neg
from ldpnb.utils import (
    _check_input_counts,
    check_random_state,
    check_values,
)

_VALUES = Array(1, integer=True, low=0)

__all__ = [
    "grr_params",
    "grr_channel",
    "grr_perturb",
    "grr_simulate_counts",
    "GRR",
    "GRROperator",
]


def _grr_sample(values: np.ndarray, k: int, p: float, rng: np.random.Generator) -> np.ndarray:
    """GRR on ``{0..k-1}``: keep with probability p, else a uniform *other* value.

    One uniform draw decides keep/replace; the replacement is ``(v + s) mod k`` with the shift
    ``s`` uniform on ``{1..k-1}``, hence uniform on the ``k-1`` other values.
    """
    n = values.shape[0]
    keep = rng.random(n) < p
    shift = rng.integers(1, k, size=n, dtype=np.int64)
    return np.where(keep, values, (values + shift) % k)


# ---------------------------------------------------------------------------------------------
# k-RR / GRR
# ---------------------------------------------------------------------------------------------


@contract(k=Integer(2, MAX_DOMAIN), epsilon=EPSILON)
def grr_params(k: int, epsilon: float) -> tuple[float, float]:
    """Probabilities ``(p, q)`` of generalised randomised response (k-RR).

    .. math:: p = \\frac{e^\\varepsilon}{e^\\varepsilon + k - 1}, \\qquad
              q = \\frac{1}{e^\\varepsilon + k - 1},

    so ``p / q = e^eps`` and ``p + (k-1) q = 1`` (Kairouz et al. 2016; Wang et al. 2017;
    ElSalamouny & Palamidessi 2020, eq. (5); Arcolezi et al. 2023, §2.3).  Computed as
    ``p = 1 / (1 + (k-1) e^{-eps})`` to avoid overflow.

    Parameters
    ----------
    k : int
        Domain size, ``k >= 2``.
    epsilon : float
        Privacy parameter, finite and ``> 0``.

    Returns
    -------
    (p, q) : tuple of float
    """
    a = _exp_neg(epsilon)
    denom = 1.0 + (k - 1) * a
    return 1.0 / denom, a / denom


@contract(k=Integer(2, MAX_DENSE), epsilon=EPSILON)
def grr_channel(k: int, epsilon: float) -> np.ndarray:
    """Exact ``k x k`` channel of k-RR: ``C[x, x] = p``, ``C[x, y] = q`` for ``y != x``.

    See :func:`grr_params` for ``(p, q)``; ElSalamouny & Palamidessi (2020), eq. (5).  The channel
    is exactly eps-LDP: every column has ratio ``p / q = e^eps``.

    Parameters
    ----------
    k : int
        Domain size, ``>= 2``.
    epsilon : float
        Privacy parameter, finite and ``> 0``.

    Returns
    -------
    ndarray, shape (k, k)

    Raises
    ------
    ValueError
        When ``q`` is below float64's normal range (``eps > ~708``): the matrix would not show the
        level; :meth:`GRR.log_channel` is exact at any epsilon.
    """
    p, q = grr_params(k, epsilon)
    lp, lq = _grr_log_params(k, epsilon)
    _exp_channel(np.array([[lq]]), epsilon=epsilon, what="k-RR channel", hint="GRR(k, epsilon).log_channel()")
    C = np.full((k, k), q, dtype=np.float64)
    np.fill_diagonal(C, p)
    return C


@contract(x=_VALUES, k=Integer(2, MAX_DOMAIN), epsilon=EPSILON, rng=RandomState())
def grr_perturb(x: Any, k: int, epsilon: float, *, rng: Any = None) -> np.ndarray:
    """Perturb each user's value with k-RR (vectorised).

    ``y_i = x_i`` with probability ``p``, otherwise ``y_i = (x_i + s_i) mod k`` with ``s_i``
    uniform on ``{1, ..., k-1}``.  One uniform and one integer draw per user.

    Parameters
    ----------
    x : array-like of int, shape (n,)
        Values in ``{0, ..., k-1}``.
    k : int
        Domain size, ``>= 2``.
    epsilon : float
        Privacy parameter.
    rng : Generator, int or None
        Source of randomness.

    Returns
    -------
    ndarray of int64, shape (n,)
    """
    rng = check_random_state(rng)
    p, _ = grr_params(k, epsilon)
    x = check_values(x, k)
    return _grr_sample(x, k, p, rng)


@contract(input_counts=Counts(min_size=2), epsilon=EPSILON, rng=RandomState())
def grr_simulate_counts(input_counts: Any, epsilon: float, *, rng: Any = None) -> np.ndarray:
    """Output counts of k-RR for given input counts, exact in law, cost O(k) (independent of n).

    Mixture view (Murakami & Takahashi 2021, §2.5): a k-RR report is the true value with
    probability ``theta = p - q = (e^eps - 1) / (e^eps + k - 1)`` and otherwise a uniform draw on
    ``{0..k-1}`` (which may equal the true value): ``theta + (1 - theta)/k = p``.  Hence, with
    ``N_x`` users holding ``x``, ``K_x ~ Binomial(N_x, theta)`` independently, and the
    ``U = n - sum K_x`` uniform draws give ``Multinomial(U, 1/k)`` counts independent of the
    ``K``:

    .. math:: \\text{counts} = K + \\text{Multinomial}(n - \\textstyle\\sum_x K_x, (1/k, \\dots, 1/k)).

    This has exactly the law of ``bincount(grr_perturb(x))``.

    Parameters
    ----------
    input_counts : array-like of int, shape (k,)
        ``N_x``, the number of users with value ``x``; ``k >= 2``.
    epsilon : float
    rng : Generator, int or None

    Returns
    -------
    ndarray of int64, shape (k,)
    """
    rng = check_random_state(rng)
    N = _check_input_counts(input_counts)
    p, q = grr_params(N.size, epsilon)
    return _grr_counts(N, p, q, rng)


def _grr_counts(N: np.ndarray, p: float, q: float, rng: np.random.Generator) -> np.ndarray:
    """The mixture law of :func:`grr_simulate_counts` for validated counts ``N``."""
    k = N.size
    theta = max(0.0, min(1.0, p - q))
    kept = rng.binomial(N, theta)
    rest = int(N.sum() - kept.sum())
    return (kept + rng.multinomial(rest, np.full(k, 1.0 / k))).astype(np.int64)


def _grr_gap(k: int, epsilon: float) -> float:
    """``p - q = (1 - e^{-eps}) / (1 + (k-1) e^{-eps})`` without cancellation (``-expm1``)."""
    return -math.expm1(-epsilon) / (1.0 + (k - 1) * _exp_neg(epsilon))


def _grr_log_params(k: int, epsilon: float) -> tuple[float, float]:
    """``(log p, log q)`` of k-RR: ``log p = -log1p((k-1) e^{-eps})``, ``log q = log p - eps`` (exact
    level ``log p - log q = eps`` at any epsilon, where ``q`` itself underflows)."""
    lp = -math.log1p((k - 1) * _exp_neg(epsilon))
    return lp, lp - epsilon


def _grr_log_channel(k: int, epsilon: float) -> np.ndarray:
    lp, lq = _grr_log_params(k, epsilon)
    L = np.full((k, k), lq, dtype=np.float64)
    np.fill_diagonal(L, lp)
    return L


# ---------------------------------------------------------------------------------------------
# the mechanism object
# ---------------------------------------------------------------------------------------------


class GRR(FrequencyOracle):
    """k-ary randomized response (k-RR, GRR) as a :class:`~ldpnb.mechanisms.Mechanism`.

    Report ``y = x`` with probability ``p = e^eps / (e^eps + k - 1)``, else a uniform other value
    (Kairouz et al. 2016; Wang et al. 2017).  Outputs are the values ``{0..k-1}``; a report supports
    itself (``p``, ``q = 1/(e^eps + k - 1)``).  Claim: eps-LDP, tight.

    Parameters
    ----------
    k : int
        Domain size (``>= 2``).
    epsilon : float
        Privacy parameter (``> 0``).

    Examples
    --------
    >>> m = GRR(4, 1.0)
    >>> m.check().holds, round(m.tight_level(), 12)
    (True, 1.0)
    """

    family = "GRR"
    aliases = ("grr", "k-RR", "krr", "kRR", "direct encoding")

    @contract(k=Integer(2, MAX_DOMAIN), epsilon=EPSILON)
    def __init__(self, k: int, epsilon: float) -> None:
        self.k, self.epsilon = k, epsilon
        self.p, self.q = grr_params(k, epsilon)
        self.p_minus_q = _grr_gap(k, epsilon)

    @classmethod
    def on(cls, domain: Domain, epsilon: float) -> GRR:
        """k-RR on the ``domain.size`` values of the domain."""
        return cls(domain.size, epsilon)

    @property
    def n_outputs(self) -> int:
        return self.k

    def _log_channel(self) -> np.ndarray:
        return _grr_log_channel(self.k, self.epsilon)

    def _log_ratios(self) -> np.ndarray:
        """``log(C[x, y] / C[0, y]) = eps ([x = y] - [0 = y])``."""
        I = np.eye(self.k)
        return self.epsilon * (I - I[0])

    def _float_channel(self) -> np.ndarray:
        """:func:`grr_channel` (``p`` on the diagonal, ``q`` elsewhere), bit for bit."""
        return grr_channel(self.k, self.epsilon)

    def operator(self) -> GRROperator:
        """The ``O(k)`` products of :math:`C = (p - q) I + q \\mathbf 1 \\mathbf 1^\\top` (:class:`GRROperator`)."""
        return GRROperator(self.k, self.epsilon)

    def _perturb(self, x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return _grr_sample(x, self.k, self.p, rng)

    def _simulate_counts(self, N: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The mixture law of :func:`grr_simulate_counts` (O(k))."""
        return _grr_counts(N, self.p, self.q, rng)

    def simulate_support_counts(self, input_counts: Any, *, rng: Any = None) -> np.ndarray:
        """The support counts of k-RR are its output counts (:meth:`simulate_counts`, exact joint law)."""
        return self.simulate_counts(input_counts, rng=rng)

    def support(self, reports: Any) -> np.ndarray:
        y = self.report_index(reports)
        if y.size * self.k > MAX_BYTES:
            raise ValueError(
                f"reports: a support matrix of {y.size} x {self.k} entries exceeds {MAX_BYTES}; use support_counts"
            )
        out = np.zeros((y.size, self.k), dtype=bool)
        out[np.arange(y.size), y] = True
        return out

    def support_counts(self, reports: Any) -> np.ndarray:
        return np.bincount(self.report_index(reports), minlength=self.k).astype(np.int64)

    def _max_support_total(self, n: int) -> int:
        return n  # a report supports exactly one value

    def column_support(self) -> np.ndarray:
        return np.eye(self.k, dtype=bool)


class GRROperator(DiagPlusConstChannel):
    r"""k-RR as a :class:`~ldpnb.channels.structured.ChannelOperator`:
    :math:`C = (p - q) I + q \mathbf 1\mathbf 1^\top`, products in :math:`O(k)`.

    ``p = e^eps/(e^eps + k - 1)``, ``q = 1/(e^eps + k - 1)`` (:func:`grr_params`; Kairouz et al. 2016;
    ElSalamouny and Palamidessi 2020, eq. (5)); ``dense()`` equals :func:`grr_channel`.  The operator
    of :meth:`GRR.operator` (``KRRChannel`` is its former name).

    Parameters
    ----------
    k : int
    epsilon : float
    """

    @contract(k=Integer(2, MAX_DOMAIN), epsilon=EPSILON)
    def __init__(self, k: int, epsilon: float) -> None:
        p, q = grr_params(k, epsilon)
        self.epsilon = epsilon
        self.p, self.q = p, q
        super().__init__(p - q, q, k, support=True)  # row sum p + (k-1) q = 1 up to rounding
        self.stochastic = True

    def __repr__(self) -> str:
        return f"GRROperator(k={self.k}, epsilon={self.epsilon:.6g})"


#: Deprecated name of :class:`GRROperator` (kept for one release).
KRRChannel = GRROperator
