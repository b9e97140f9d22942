"""k-ary randomized response (k-RR, also called GRR or direct encoding).

Kairouz, Bonawitz and Ramage (2016); Wang, Blocki, Li and Jha (2017).
"""

from __future__ import annotations

from typing import Any
import numpy as np
from ldpnb.utils import (
    check_domain_size, check_epsilon, check_random_state, check_values,
)
from ldpnb.mechanisms._common import _exp_neg
from ldpnb.utils import _check_input_counts

__all__ = [
    "grr_params",
    "grr_channel",
    "grr_perturb",
    "grr_simulate_counts",
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
    k = check_domain_size(k)
    epsilon = check_epsilon(epsilon)
    a = _exp_neg(epsilon)
    denom = 1.0 + (k - 1) * a
    return 1.0 / denom, a / denom


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
    """
    p, q = grr_params(k, epsilon)
    C = np.full((k, k), q, dtype=np.float64)
    np.fill_diagonal(C, p)
    return C


def grr_perturb(x: Any, k: int, epsilon: float, *, rng: Any = None) -> np.ndarray:
    """Perturb each user's value with k-RR (vectorised).

    ``y_i = x_i`` with probability ``p``, otherwise ``y_i = (x_i + s_i) mod k`` with ``s_i``
    uniform on ``{1, ..., k-1}`` (spec 003, A1).  One uniform and one integer draw per user.

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
    k = N.size
    p, q = grr_params(k, epsilon)
    theta = max(0.0, min(1.0, p - q))
    kept = rng.binomial(N, theta)
    rest = int(N.sum() - kept.sum())
    return (kept + rng.multinomial(rest, np.full(k, 1.0 / k))).astype(np.int64)
