"""Unary encodings: symmetric (SUE, basic one-time RAPPOR) and optimised (OUE).

Erlingsson, Pihur and Korolova (2014); Wang, Blocki, Li and Jha (2017).
"""

from __future__ import annotations

from typing import Any
import numpy as np
from ldpnb.utils import (
    check_domain_size, check_epsilon, check_random_state, check_values,
)
from ldpnb.mechanisms._common import _exp_neg
from ldpnb.utils import _check_input_counts, _chunk_rows

__all__ = [
    "ue_params",
    "ue_perturb",
    "ue_simulate_support_counts",
    "ue_channel",
    "ue_pattern_index",
    "rappor_channel",
    "rappor_perturb",
]


def _check_kind(kind: Any) -> str:
    if not isinstance(kind, str) or kind.lower() not in ("oue", "sue"):
        raise ValueError(f"kind must be 'oue' or 'sue', got {kind!r}")
    return kind.lower()


# ---------------------------------------------------------------------------------------------
# unary encodings (SUE = basic one-time RAPPOR, OUE)
# ---------------------------------------------------------------------------------------------


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
    epsilon = check_epsilon(epsilon)
    kind = _check_kind(kind)
    if kind == "sue":
        a = _exp_neg(epsilon / 2.0)
        return 1.0 / (1.0 + a), a / (1.0 + a)
    a = _exp_neg(epsilon)
    return 0.5, a / (1.0 + a)


def ue_perturb(x: Any, k: int, epsilon: float, kind: str = "oue", *, rng: Any = None) -> np.ndarray:
    """Unary-encoding reports: one-hot encode ``x`` and flip the bits independently.

    ``B'_{i, x_i} ~ Bernoulli(p)`` and ``B'_{i, v} ~ Bernoulli(q)`` for ``v != x_i``, all independent
    (Wang et al. 2017; spec 003 A4; spec 002 A3).  The Bernoulli matrix is drawn in chunks of users
    so that the temporary float array stays below ~32 MiB; the output is a boolean ``(n, k)`` array.

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
    n = x.size
    out = np.empty((n, k), dtype=bool)
    step = _chunk_rows(n, k)
    for start in range(0, n, step):
        stop = min(n, start + step)
        rows = np.arange(stop - start)
        block = rng.random((stop - start, k)) < q
        block[rows, x[start:stop]] = rng.random(stop - start) < p
        out[start:stop] = block
    return out


def rappor_perturb(x: Any, k: int, epsilon: float, *, rng: Any = None) -> np.ndarray:
    """Basic one-time RAPPOR reports, i.e. :func:`ue_perturb` with ``kind="sue"``.

    Each bit of the one-hot encoding is kept with probability ``p = e^{eps/2}/(1 + e^{eps/2})``
    (ElSalamouny & Palamidessi 2020, §4.4; spec 002 A3).

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


def ue_pattern_index(bits: Any) -> np.ndarray:
    """Column index of bit vectors in :func:`ue_channel`: ``index = sum_j b_j 2**j``.

    Parameters
    ----------
    bits : array-like of bool/0-1, shape (n, k) with ``k <= 62``

    Returns
    -------
    ndarray of int64, shape (n,)
    """
    b = np.asarray(bits)
    if b.ndim != 2:
        raise ValueError(f"bits must be 2-dimensional (n, k), got shape {b.shape}")
    if b.shape[1] > 62:
        raise ValueError(f"bits must have at most 62 columns to fit an int64 index, got {b.shape[1]}")
    if b.dtype != bool and not np.all((b == 0) | (b == 1)):
        raise ValueError("bits must contain only 0/1 (or booleans)")
    weights = np.left_shift(np.int64(1), np.arange(b.shape[1], dtype=np.int64))
    return (b.astype(np.int64) * weights).sum(axis=1)


def ue_simulate_support_counts(input_counts: Any, epsilon: float, kind: str = "oue", *, rng: Any = None) -> np.ndarray:
    """Support counts ``C(v) = sum_i B'_{i, v}`` of unary encoding, exact in law, cost O(k).

    Bits are flipped independently, so the column sums are independent across ``v`` and

    .. math:: C(v) \\sim \\text{Binomial}(N_v, p) + \\text{Binomial}(n - N_v, q)

    independently over ``v`` -- exactly the law of ``ue_perturb(x).sum(axis=0)``
    (spec anchors D.3.4).  ``E[C(v)] = n (p f_v + q (1 - f_v))`` with ``f_v = N_v / n``.

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


def ue_channel(k: int, epsilon: float, kind: str = "oue") -> np.ndarray:
    """Exact ``k x 2**k`` channel of unary encoding over all bit patterns (``k <= 16``).

    Column ``b`` is the pattern with bits ``b_j = (b >> j) & 1`` (index ``sum_j b_j 2**j``; see
    :func:`ue_pattern_index`).  With ``S = sum_j b_j``:

    .. math:: C[x, b] = p^{b_x} (1-p)^{1-b_x} \\; q^{S - b_x} (1-q)^{k-1-(S-b_x)}.

    For SUE this is ElSalamouny & Palamidessi (2020), Lemma 4.4:
    ``P(beta | x) = p^k exp(-(1/2 + S/2 - beta_x) eps)``.  The channel is exactly eps-LDP.

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
    k = check_domain_size(k)
    if k > 16:
        raise ValueError(f"k must be <= 16 for the exact unary-encoding channel (2**k columns), got {k}")
    p, q = ue_params(epsilon, kind)
    patterns = np.arange(1 << k, dtype=np.int64)
    bits = (patterns[None, :] >> np.arange(k, dtype=np.int64)[:, None]) & 1  # (k, 2**k): bits[x, b] = b_x
    S = bits.sum(axis=0)[None, :]
    others = S - bits  # number of ones among the k-1 other positions
    C = np.where(bits == 1, p, 1.0 - p) * np.power(q, others) * np.power(1.0 - q, (k - 1) - others)
    return C.astype(np.float64)


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
