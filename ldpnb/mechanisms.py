"""Local-privacy mechanisms: exact channels, vectorised samplers, count-level simulators.

Conventions (see CONTRIBUTING.md)
---------------------------------
* A *channel* is a float64 matrix with rows = inputs and columns = outputs,
  ``C[x, y] = P(y | x)``; every row sums to 1.
* Inputs are integers ``0..k-1``.  Planar grids are indexed **row-major**: the cell in row ``i`` and
  column ``j`` of a ``rows x cols`` grid has index ``i * cols + j``.
* Every random function takes ``rng`` (a :class:`numpy.random.Generator`, an int seed or ``None``)
  as a keyword argument and calls :func:`ldpnb.utils.check_random_state` first.
* Samplers are vectorised over users (the only Python loops run over chunks of users, bounded by
  memory, or over the values of the domain).  Count-level simulators have a cost that does not
  depend on the number of users ``n``.

Families
--------
===========================  ==========================================================================
k-RR / GRR                   :func:`grr_params`, :func:`grr_channel`, :func:`grr_perturb`,
                             :func:`grr_simulate_counts`
unary encodings (SUE, OUE)   :func:`ue_params`, :func:`ue_perturb`, :func:`ue_simulate_support_counts`,
                             :func:`ue_channel`, :func:`ue_pattern_index`, :func:`rappor_channel`,
                             :func:`rappor_perturb`
local hashing (OLH, BLH,     :func:`lh_params`, :func:`lh_hash`, :func:`lh_draw_seeds`, :func:`lh_perturb`,
GLH)                         :func:`lh_support_counts`, :func:`lh_simulate_support_counts`,
                             :func:`lh_channel`
omega-subset selection       :func:`ss_params`, :func:`ss_perturb`, :func:`ss_simulate_support_counts`,
                             :func:`ss_channel`, :func:`ss_subsets`, :func:`ss_subset_index`
metric (geo-ind)             :func:`geometric_channel`, :func:`geometric_perturb`, :func:`laplace_channel`,
                             :func:`laplace_perturb`, :func:`planar_geometric_channel`,
                             :func:`planar_laplace_channel`, :func:`planar_laplace_perturb`,
                             :func:`exponential_channel`
any finite channel           :func:`sample_channel`, :func:`simulate_counts`, :func:`ldp_epsilon`,
                             :func:`geo_ind_epsilon`
===========================  ==========================================================================

References
----------
* Kairouz, Bonawitz & Ramage (2016); Wang, Blocki, Li & Jha (2017), "Locally differentially private
  protocols for frequency estimation" (USENIX Security): GRR, SUE/OUE, BLH/OLH.
* Ye & Barg (2018); Wang et al. (2016): omega-subset selection (SS).
* Erlingsson, Pihur & Korolova (2014): basic one-time RAPPOR (= SUE).
* Andres, Bordenabe, Chatzikokolakis & Palamidessi (2013): geo-indistinguishability, planar Laplace.
* Ghosh, Roughgarden & Sundararajan (2009): the (truncated) geometric mechanism.
* ElSalamouny & Palamidessi (2020), "On the consistency and performance of the iterative Bayesian
  update" (IBU), §4 eqs. (5)-(7) and Lemma 4.4; spec 002 §2.4 (M1-M9).
* Arcolezi et al. (2023), "On the risks of collecting multidimensional data under LDP" (PVLDB 16(5)),
  §2.3; spec 003 §2.3, §3 A1-A4.
* Murakami & Takahashi (2021), "Re-identification risk in the local privacy model" (PIE), eq. (3);
  spec 000 §2.5 and §3 A3 (GLH with mu = e^eps/(g + e^eps - 1), nu = 1/g).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from .utils import (
    check_channel,
    check_counts,
    check_domain_size,
    check_epsilon,
    check_random_state,
    check_values,
)

__all__ = [
    # GRR
    "grr_params",
    "grr_channel",
    "grr_perturb",
    "grr_simulate_counts",
    # unary encodings
    "ue_params",
    "ue_perturb",
    "ue_simulate_support_counts",
    "ue_channel",
    "ue_pattern_index",
    "rappor_channel",
    "rappor_perturb",
    # local hashing
    "HASH_PRIME",
    "lh_params",
    "lh_hash",
    "lh_draw_seeds",
    "lh_perturb",
    "lh_support_counts",
    "lh_simulate_support_counts",
    "lh_channel",
    # subset selection
    "ss_params",
    "ss_perturb",
    "ss_simulate_support_counts",
    "ss_channel",
    "ss_subsets",
    "ss_subset_index",
    # metric mechanisms
    "geometric_channel",
    "geometric_perturb",
    "laplace_channel",
    "laplace_perturb",
    "planar_geometric_channel",
    "planar_laplace_channel",
    "planar_laplace_perturb",
    "exponential_channel",
    # generic
    "sample_channel",
    "simulate_counts",
    "ldp_epsilon",
    "geo_ind_epsilon",
]

#: Number of float64 entries a temporary array may hold before work is split into chunks (32 MiB).
_CHUNK_ENTRIES = 1 << 22

#: The Mersenne prime 2**61 - 1 used by the Carter-Wegman hash family of :func:`lh_hash`.
HASH_PRIME = (1 << 61) - 1
_P = np.uint64(HASH_PRIME)
_MASK32 = np.uint64(0xFFFFFFFF)
_MASK29 = np.uint64((1 << 29) - 1)

# Largest output alphabet the exact enumerated channels may have (columns of the matrix).
_MAX_ENUM_COLUMNS = 1 << 22


# ---------------------------------------------------------------------------------------------
# small private helpers
# ---------------------------------------------------------------------------------------------


def _exp_neg(epsilon: float) -> float:
    """``exp(-epsilon)``: computing with ``e^{-eps}`` avoids overflow of ``e^{eps}`` at large eps."""
    return math.exp(-epsilon)


def _check_kind(kind: Any) -> str:
    if not isinstance(kind, str) or kind.lower() not in ("oue", "sue"):
        raise ValueError(f"kind must be 'oue' or 'sue', got {kind!r}")
    return kind.lower()


def _check_g(g: Any, name: str = "g") -> int:
    g = check_domain_size(g, name=name, minimum=2)
    if g > (1 << 32):
        raise ValueError(f"{name} must be <= 2**32 (hash range of lh_hash), got {g}")
    return g


def _check_input_counts(input_counts: Any, name: str = "input_counts") -> np.ndarray:
    counts = check_counts(input_counts, name=name)
    if counts.size < 2:
        raise ValueError(f"{name} must have one entry per input value and a domain of size >= 2, got length {counts.size}")
    return counts


def _chunk_rows(n_rows: int, row_size: int, budget: int | None = None) -> int:
    """Rows per chunk so that ``rows * row_size`` stays below ``budget`` (default ``_CHUNK_ENTRIES``; at least 1)."""
    budget = _CHUNK_ENTRIES if budget is None else budget
    return max(1, min(n_rows, budget // max(1, row_size)))


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


# ---------------------------------------------------------------------------------------------
# local hashing (GLH; OLH for g = round(e^eps) + 1, BLH for g = 2)
# ---------------------------------------------------------------------------------------------


def lh_params(epsilon: float, g: int | None = None) -> tuple[int, float, float]:
    """Parameters ``(g, p, q)`` of (general) local hashing.

    ``g=None`` gives OLH's ``g = round(e^eps) + 1`` (Wang et al. 2017, as in the artifact of
    Arcolezi et al. 2023); ``g = 2`` is BLH.  The report ``y`` is GRR on ``[g]`` of ``h(x)`` with

    .. math:: p = \\frac{e^\\varepsilon}{e^\\varepsilon + g - 1}, \\qquad q = \\frac{1}{g},

    where ``p = P(report supports x)`` and ``q = P(report supports v != x)`` (exact for a fully
    random or pairwise-independent hash family; Murakami & Takahashi 2021 eq. (3), mu_GLH and
    nu_GLH; Arcolezi et al. 2023 §2.3).

    Returns
    -------
    (g, p, q) : (int, float, float)
    """
    epsilon = check_epsilon(epsilon)
    if g is None:
        if epsilon > 22.0:
            raise ValueError(f"epsilon must be <= 22 for OLH (g = round(e^eps) + 1 must be <= 2**32), got {epsilon}")
        g = int(round(math.exp(epsilon))) + 1
    g = _check_g(g)
    a = _exp_neg(epsilon)
    return g, 1.0 / (1.0 + (g - 1) * a), 1.0 / g


def _check_seeds(seeds: Any) -> np.ndarray:
    s = np.asarray(seeds)
    if s.ndim < 1 or s.shape[-1] != 2:
        raise ValueError(f"seeds must have a last axis of length 2 (a, b), got shape {s.shape}")
    if not (np.issubdtype(s.dtype, np.integer)):
        raise ValueError(f"seeds must be an integer array, got dtype {s.dtype}")
    if np.issubdtype(s.dtype, np.signedinteger) and s.size and s.min() < 0:
        raise ValueError("seeds must be nonnegative")
    s = s.astype(np.uint64)
    if s.size and (np.any(s[..., 0] == 0) or np.any(s[..., 0] >= _P) or np.any(s[..., 1] >= _P)):
        raise ValueError("seeds must satisfy 1 <= a < P and 0 <= b < P with P = 2**61 - 1")
    return s


def _mod_p(s: np.ndarray) -> np.ndarray:
    """Reduce ``s < 2**64`` modulo the Mersenne prime ``P = 2**61 - 1`` (uint64, no overflow)."""
    s = (s & _P) + (s >> np.uint64(61))  # < 2**61 + 8
    return np.where(s >= _P, s - _P, s)


def _mulmod_p(a: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``(a * v) mod P`` for ``a < P = 2**61 - 1`` and ``v < 2**32`` in uint64 without overflow.

    Split ``a = a_hi 2**32 + a_lo``: ``a_lo v < 2**64`` and ``t = a_hi v < 2**61``; then
    ``t 2**32 = (t >> 29) 2**61 + (t & (2**29-1)) 2**32 = (t >> 29) + (t & (2**29-1)) 2**32 (mod P)``.
    """
    a_lo = a & _MASK32
    a_hi = a >> np.uint64(32)
    t = a_hi * v
    hi_part = (t >> np.uint64(29)) + ((t & _MASK29) << np.uint64(32))  # < 2**61 + 2**32
    lo_part = _mod_p(a_lo * v)  # < 2**61
    return _mod_p(hi_part + lo_part)


def lh_hash(seeds: Any, values: Any, g: int) -> np.ndarray:
    """Carter-Wegman hash ``h_{a,b}(v) = ((a v + b) mod P) mod g`` with ``P = 2**61 - 1``.

    ``seeds[..., 0] = a`` in ``[1, P-1]`` and ``seeds[..., 1] = b`` in ``[0, P-1]`` (one pair per
    user, see :func:`lh_draw_seeds`); ``values`` are integers in ``[0, 2**32)``.  ``a`` and
    ``values`` broadcast like numpy arrays, e.g. ``lh_hash(seeds[:, None, :], np.arange(k), g)``
    gives the ``(n, k)`` matrix of every user's hash of every value.

    Arithmetic is exact in uint64: ``a v mod P`` is computed from 32-bit limbs and the Mersenne
    reduction ``2**61 = 1 (mod P)`` (no overflow).  For ``v != v'`` and uniform ``(a, b)``, the pair
    ``((a v + b) mod P, (a v' + b) mod P)`` is uniform on distinct pairs, so the family is
    pairwise independent up to the final ``mod g``, whose non-uniformity is at most ``g / P``
    (``< 2e-9`` for ``g <= 2**32``).  Spec 000 A2 / spec 003 A2 (the artifact used xxhash32).

    Parameters
    ----------
    seeds : array-like of uint64, shape (..., 2)
    values : array-like of int
    g : int
        Hash range, ``2 <= g <= 2**32``.

    Returns
    -------
    ndarray of int64 with the broadcast shape of ``seeds[..., 0]`` and ``values``.
    """
    s = _check_seeds(seeds)
    g = _check_g(g)
    v = np.asarray(values)
    if not np.issubdtype(v.dtype, np.integer):
        raise ValueError(f"values must be integers, got dtype {v.dtype}")
    if v.size and (v.min() < 0 or v.max() >= (1 << 32)):
        raise ValueError("values must lie in [0, 2**32)")
    v = v.astype(np.uint64)
    a, b = s[..., 0], s[..., 1]
    h = _mod_p(_mulmod_p(a, v) + b)
    return (h % np.uint64(g)).astype(np.int64)


def lh_draw_seeds(n: int, *, rng: Any = None) -> np.ndarray:
    """Draw ``n`` independent Carter-Wegman seeds ``(a, b)``: ``a ~ U[1, P-1]``, ``b ~ U[0, P-1]``.

    Parameters
    ----------
    n : int
        Number of users (``>= 0``).
    rng : Generator, int or None

    Returns
    -------
    ndarray of uint64, shape (n, 2)
    """
    rng = check_random_state(rng)
    n = check_domain_size(n, name="n", minimum=0)
    a = rng.integers(1, HASH_PRIME, size=n, dtype=np.uint64)
    b = rng.integers(0, HASH_PRIME, size=n, dtype=np.uint64)
    return np.stack([a, b], axis=1)


def lh_perturb(x: Any, k: int, epsilon: float, g: int | None = None, *, rng: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """Local-hashing reports ``(seeds, y)``: hash with a fresh hash function, then GRR on ``[g]``.

    User ``i`` draws ``h_i`` (Carter-Wegman seeds, :func:`lh_hash`), computes ``h_i(x_i)`` and
    reports ``y_i = GRR_g(h_i(x_i))`` with ``P(y = h(x)) = e^eps/(e^eps + g - 1)`` (Wang et al.
    2017; Murakami & Takahashi 2021 eq. (3); spec 003 A2, spec 000 A2).

    Parameters
    ----------
    x : array-like of int, shape (n,)
    k : int
    epsilon : float
    g : int or None
        Hash range; ``None`` = OLH's ``round(e^eps) + 1``.
    rng : Generator, int or None

    Returns
    -------
    seeds : ndarray of uint64, shape (n, 2)
        The per-user hash seeds ``(a, b)``.
    y : ndarray of int64, shape (n,)
        The perturbed hash values in ``[0, g)``.
    """
    rng = check_random_state(rng)
    g, p, _ = lh_params(epsilon, g)
    x = check_values(x, k)
    if k > (1 << 32):
        raise ValueError("k must be <= 2**32")
    seeds = lh_draw_seeds(x.size, rng=rng)
    h = lh_hash(seeds, x, g)
    return seeds, _grr_sample(h, g, p, rng)


def lh_support_counts(seeds: Any, y: Any, k: int, g: int) -> np.ndarray:
    """Support counts ``C(v) = #{i : h_i(v) = y_i}`` for ``v = 0..k-1`` (cost O(n k)).

    Vectorised over users; the loop runs over the ``k`` values and uses ``a (v+1) = a v + a
    (mod P)``, so each step costs a few uint64 operations per user (same hashes as
    :func:`lh_hash`).

    Parameters
    ----------
    seeds : array-like of uint64, shape (n, 2)
        Per-user seeds from :func:`lh_perturb`.
    y : array-like of int, shape (n,)
        Reports in ``[0, g)``.
    k : int
        Domain size.
    g : int
        Hash range.

    Returns
    -------
    ndarray of int64, shape (k,)
    """
    k = check_domain_size(k)
    g = _check_g(g)
    s = _check_seeds(seeds)
    if s.ndim != 2:
        raise ValueError(f"seeds must have shape (n, 2), got {s.shape}")
    y = check_values(y, g, name="y")
    if y.size != s.shape[0]:
        raise ValueError(f"y must have one entry per user ({s.shape[0]}), got {y.size}")
    a, b = s[:, 0], s[:, 1]
    y64 = y.astype(np.uint64)
    gg = np.uint64(g)
    counts = np.empty(k, dtype=np.int64)
    av = np.zeros_like(a)  # a * v mod P, v = 0
    for v in range(k):
        h = _mod_p(av + b) % gg
        counts[v] = np.count_nonzero(h == y64)
        av = _mod_p(av + a)
    return counts


def lh_simulate_support_counts(input_counts: Any, epsilon: float, g: int | None = None, *, rng: Any = None) -> np.ndarray:
    """Support counts of local hashing in the random-oracle model, exact in law, cost O(k).

    With a fully random hash function ``h`` (all ``g**k`` functions equally likely), the values
    ``h(v)`` are i.i.d. uniform on ``[g]``.  For a user with value ``x`` the report ``y`` depends
    only on ``h(x)`` and the GRR noise, so given ``(h(x), y)`` the indicators ``1[h(v) = y]``,
    ``v != x``, are i.i.d. Bernoulli(1/g), independent of ``1[h(x) = y]`` ~ Bernoulli(p).  All
    ``k`` indicators of a user are therefore mutually independent, and (spec 000 A3)

    .. math:: C(v) \\sim \\text{Binomial}(N_v, p) + \\text{Binomial}(n - N_v, 1/g),
              \\quad \\text{independently over } v.

    This is exact for the fully random family (the model of :func:`lh_channel`).  For the
    Carter-Wegman family of :func:`lh_perturb` the *marginal* law of every ``C(v)`` is the same
    (pairwise independence suffices, up to the ``g/P`` rounding of :func:`lh_hash`), but the joint
    law differs (the hash values of three or more values are not independent).

    Parameters
    ----------
    input_counts : array-like of int, shape (k,)
        ``N_v``, the number of users with value ``v``.
    epsilon : float
    g : int or None
        Hash range; ``None`` = OLH's ``round(e^eps) + 1``.
    rng : Generator, int or None

    Returns
    -------
    ndarray of int64, shape (k,)
    """
    rng = check_random_state(rng)
    g, p, q = lh_params(epsilon, g)
    N = _check_input_counts(input_counts)
    n = int(N.sum())
    return (rng.binomial(N, p) + rng.binomial(n - N, q)).astype(np.int64)


def lh_channel(k: int, g: int, epsilon: float) -> np.ndarray:
    """Exact channel of local hashing with the fully random hash family (tiny ``k``, ``g``).

    Outputs are pairs ``(h, y)`` with ``h`` one of the ``g**k`` functions ``[k] -> [g]`` and
    ``y in [g]``; column index ``h_index * g + y`` where ``h_index = sum_v h(v) g**v`` (digit ``v``
    of ``h_index`` in base ``g`` is ``h(v)``).  With ``p' = e^eps/(e^eps + g - 1)`` and
    ``q' = 1/(e^eps + g - 1)``,

    .. math:: C[x, (h, y)] = g^{-k} \\, (p' \\text{ if } y = h(x) \\text{ else } q')

    (Murakami & Takahashi 2021, eq. (3) with the factor ``P(h) = g^{-k}``; spec 000 §2.5).  Exactly
    eps-LDP.  Size ``k x g**(k+1)``, limited to ``2**22`` columns.

    Parameters
    ----------
    k : int
        Domain size, ``>= 2``.
    g : int
        Hash range, ``>= 2``.
    epsilon : float

    Returns
    -------
    ndarray, shape (k, g**(k+1))
    """
    k = check_domain_size(k)
    g = _check_g(g)
    epsilon = check_epsilon(epsilon)
    if (k + 1) * math.log2(g) > 22:
        raise ValueError(f"g**(k+1) must be <= 2**22 for the exact local-hashing channel, got k={k}, g={g}")
    a = _exp_neg(epsilon)
    pp, qq = 1.0 / (1.0 + (g - 1) * a), a / (1.0 + (g - 1) * a)
    n_h = g**k
    h_index = np.arange(n_h, dtype=np.int64)
    digits = (h_index[None, :] // (g ** np.arange(k, dtype=np.int64))[:, None]) % g  # (k, n_h): h(x)
    match = digits[:, :, None] == np.arange(g)[None, None, :]  # (k, n_h, g)
    C = np.where(match, pp, qq) / n_h
    return C.reshape(k, n_h * g)


# ---------------------------------------------------------------------------------------------
# omega-subset selection
# ---------------------------------------------------------------------------------------------


def ss_params(k: int, epsilon: float) -> tuple[int, float, float]:
    """Parameters ``(omega, p, q)`` of omega-subset selection.

    ``omega = max(1, round(k / (e^eps + 1)))`` (Python's round, half to even; the artifact of
    Arcolezi et al. 2023), and

    .. math:: p = \\frac{\\omega e^\\varepsilon}{\\omega e^\\varepsilon + k - \\omega}, \\qquad
              q = \\frac{\\omega e^\\varepsilon (\\omega - 1) + (k - \\omega)\\omega}
                       {(k - 1)(\\omega e^\\varepsilon + k - \\omega)}

    (``p`` = P(true value in the subset), ``q`` = P(a given other value in the subset); Arcolezi et
    al. 2023 §2.3; Ye & Barg 2018; Wang et al. 2016).  ``omega = 1`` is GRR.

    Parameters
    ----------
    k : int
        Domain size, ``>= 2``.
    epsilon : float

    Returns
    -------
    (omega, p, q) : (int, float, float)
    """
    k = check_domain_size(k)
    epsilon = check_epsilon(epsilon)
    a = _exp_neg(epsilon)
    ratio = k / (math.exp(epsilon) + 1.0) if epsilon < 700 else 0.0  # as written in the artifact
    omega = max(1, int(round(ratio)))
    omega = min(omega, k - 1)
    denom = omega + (k - omega) * a  # (omega e^eps + k - omega) e^{-eps}
    p = omega / denom
    q = (omega * (omega - 1) + (k - omega) * omega * a) / ((k - 1) * denom)
    return omega, p, q


def ss_perturb(x: Any, k: int, epsilon: float, *, rng: Any = None) -> np.ndarray:
    """omega-subset selection reports as a boolean ``(n, k)`` membership matrix (vectorised).

    With probability ``p`` the subset is ``{x}`` plus a uniform ``(omega-1)``-subset of the other
    values, otherwise a uniform ``omega``-subset of the other values (spec 003 A3).  Vectorised by
    random keys: every value gets a U(0,1) key, the key of ``x_i`` is set to ``-1`` (forced in) or
    ``2`` (forced out), and the ``omega`` smallest keys (``argpartition``) form the subset; the
    smallest ``m`` of i.i.d. uniform keys are a uniform ``m``-subset.  Chunked over users.

    Parameters
    ----------
    x : array-like of int, shape (n,)
    k : int
    epsilon : float
    rng : Generator, int or None

    Returns
    -------
    ndarray of bool, shape (n, k)
        ``out[i, v]`` is True iff ``v`` is in user ``i``'s subset; each row has ``omega`` Trues.
    """
    rng = check_random_state(rng)
    omega, p, _ = ss_params(k, epsilon)
    x = check_values(x, k)
    n = x.size
    out = np.zeros((n, k), dtype=bool)
    step = _chunk_rows(n, k)
    for start in range(0, n, step):
        stop = min(n, start + step)
        m = stop - start
        rows = np.arange(m)
        keys = rng.random((m, k))
        include = rng.random(m) < p
        keys[rows, x[start:stop]] = np.where(include, -1.0, 2.0)
        if omega < k:
            idx = np.argpartition(keys, omega - 1, axis=1)[:, :omega]
        else:  # pragma: no cover - omega <= k - 1 by construction
            idx = np.broadcast_to(np.arange(k), (m, k))
        out[start + rows[:, None], idx] = True
    return out


def ss_subsets(k: int, omega: int) -> np.ndarray:
    """Membership matrix ``(C(k, omega), k)`` of all ``omega``-subsets in ``itertools.combinations`` order.

    Row ``s`` is the ``s``-th tuple of ``itertools.combinations(range(k), omega)`` (lexicographic
    order); this is the column order of :func:`ss_channel`.

    Parameters
    ----------
    k : int
    omega : int
        Subset size, ``1 <= omega <= k``.

    Returns
    -------
    ndarray of bool, shape (C(k, omega), k)
    """
    k = check_domain_size(k)
    omega = check_domain_size(omega, name="omega", minimum=1)
    if omega > k:
        raise ValueError(f"omega must be <= k, got omega={omega}, k={k}")
    m = math.comb(k, omega)
    if m > _MAX_ENUM_COLUMNS:
        raise ValueError(f"C(k, omega) must be <= 2**22 for an enumeration, got C({k}, {omega}) = {m}")
    combos = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(k), omega)), dtype=np.int64, count=m * omega)
    out = np.zeros((m, k), dtype=bool)
    out[np.repeat(np.arange(m), omega), combos] = True
    return out


def ss_subset_index(members: Any) -> np.ndarray:
    """Column of :func:`ss_channel` of each subset given as a boolean ``(n, k)`` membership matrix.

    The index is the lexicographic rank of the sorted subset among ``itertools.combinations(range(k),
    omega)`` (combinatorial number system).  All rows must have the same size ``omega``.

    Parameters
    ----------
    members : array-like of bool, shape (n, k)

    Returns
    -------
    ndarray of int64, shape (n,)
    """
    B = np.asarray(members)
    if B.ndim != 2:
        raise ValueError(f"members must be 2-dimensional (n, k), got shape {B.shape}")
    B = B.astype(bool)
    n, k = B.shape
    sizes = B.sum(axis=1)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    omega = int(sizes[0])
    if np.any(sizes != omega) or omega < 1:
        raise ValueError("members must have the same number (>= 1) of True entries in every row")
    # rank = sum over positions t (0-based) of the number of combinations that start with the same
    # prefix and a smaller element at position t:  sum_{c_{t-1} < j < c_t} C(k-1-j, omega-1-t).
    comb = np.zeros((k + 1, omega + 1), dtype=np.int64)
    for a in range(k + 1):
        for b in range(omega + 1):
            comb[a, b] = math.comb(a, b)
    # cumulative: S[t, c] = sum_{j < c} C(k-1-j, omega-1-t)
    j = np.arange(k)
    terms = comb[(k - 1 - j)[None, :], (omega - 1 - np.arange(omega))[:, None]]  # (omega, k)
    S = np.concatenate([np.zeros((omega, 1), dtype=np.int64), np.cumsum(terms, axis=1)], axis=1)
    elems = np.sort(np.nonzero(B)[1].reshape(n, omega), axis=1)  # nonzero is row-major -> grouped by row
    prev = np.concatenate([np.full((n, 1), -1), elems[:, :-1]], axis=1)
    t = np.arange(omega)[None, :]
    rank = S[t, elems] - S[t, prev + 1]
    return rank.sum(axis=1)


def ss_simulate_support_counts(input_counts: Any, epsilon: float, *, rng: Any = None, method: str = "exact") -> np.ndarray:
    """Support counts ``C(v) = #{i : v in Omega_i}`` of omega-subset selection, cost independent of n.

    ``method="exact"`` (default; exact joint law, cost O(k^2 omega)): users of value ``x`` keep
    ``x`` in their subset with probability ``p``, so ``K_x ~ Binomial(N_x, p)`` of them have
    ``omega - 1`` free slots and the other ``N_x - K_x`` have ``omega`` free slots, to be filled
    by a uniform subset of the ``k - 1`` other values.  A uniform ``r``-subset of ``R`` values can
    be drawn value by value: the next value is included with probability ``r / R``, then the
    rest is a uniform subset of the remaining values.  Users are exchangeable given ``(x, r)``,
    so the state is the table ``S[x, r]`` (number of users of value ``x`` with ``r`` free slots)
    and, scanning ``v = 0, 1, ..., k-1``,

    .. math:: D[x, r] \\sim \\text{Binomial}(S[x, r], r / R_x(v)), \\quad x \\ne v, \\qquad
              C(v) = K_v + \\textstyle\\sum_{x, r} D[x, r], \\qquad S[x, r] \\to S[x, r] - D[x, r],\\;
              S[x, r-1] \\to S[x, r-1] + D[x, r],

    where ``R_x(v)`` is the number of values ``>= v`` other than ``x``.  This is exactly the joint
    law of ``ss_perturb(x).sum(axis=0)`` (in particular ``sum_v C(v) = n omega``).  For
    ``omega = 1`` (SS = GRR) :func:`grr_simulate_counts` (O(k)) is used.

    ``method="marginal"`` (cost O(k), for very large k): ``K`` as above, then independently for
    each ``v``: ``C(v) = K_v + Bin(A_v, (omega-1)/(k-1)) + Bin(B_v, omega/(k-1))`` with
    ``A_v = sum_{x != v} K_x`` and ``B_v = sum_{x != v} (N_x - K_x)``.  Every marginal law is exact
    (``C(v) ~ Bin(N_v, p) + Bin(n - N_v, q)``), the joint law is not (the negative dependence
    between memberships of one user is dropped, so ``sum_v C(v)`` varies).  Per-value estimators
    (Eq. 2) and their MSE depend only on the marginals.

    ``method="per_user"``: simulate every user with :func:`ss_perturb` (exact, cost O(n k)).

    Parameters
    ----------
    input_counts : array-like of int, shape (k,)
        ``N_x``, the number of users with value ``x``.
    epsilon : float
    rng : Generator, int or None
    method : {"exact", "marginal", "per_user"}

    Returns
    -------
    ndarray of int64, shape (k,)
    """
    rng = check_random_state(rng)
    N = _check_input_counts(input_counts)
    if method not in ("exact", "marginal", "per_user"):
        raise ValueError(f"method must be 'exact', 'marginal' or 'per_user', got {method!r}")
    k = N.size
    omega, p, _ = ss_params(k, epsilon)
    if method == "per_user":
        x = np.repeat(np.arange(k), N)
        counts = np.zeros(k, dtype=np.int64)
        step = _chunk_rows(max(1, x.size), k)
        for start in range(0, x.size, step):
            counts += ss_perturb(x[start:start + step], k, epsilon, rng=rng).sum(axis=0)
        return counts
    if omega == 1:
        return grr_simulate_counts(N, epsilon, rng=rng)
    n = int(N.sum())
    K = rng.binomial(N, p)
    if method == "marginal":
        A = K.sum() - K
        B = (n - K.sum()) - (N - K)
        return (K + rng.binomial(A, (omega - 1) / (k - 1)) + rng.binomial(B, omega / (k - 1))).astype(np.int64)
    S = np.zeros((k, omega + 1), dtype=np.int64)  # S[x, r]: users of value x with r free slots
    S[:, omega - 1] = K
    S[:, omega] = N - K
    counts = K.astype(np.int64).copy()
    xs = np.arange(k)
    r = np.arange(omega + 1)
    for v in range(k):
        R = (k - v) - (xs > v)  # values >= v other than x (for x != v)
        active = xs != v
        prob = np.zeros((k, omega + 1))
        prob[active] = np.minimum(1.0, r[None, :] / np.maximum(R[active], 1)[:, None])
        D = rng.binomial(S, prob)
        counts[v] += D.sum()
        S -= D
        S[:, :-1] += D[:, 1:]
    return counts


def ss_channel(k: int, epsilon: float) -> np.ndarray:
    """Exact channel of omega-subset selection over the ``C(k, omega)`` subsets.

    Columns follow ``itertools.combinations(range(k), omega)`` (lexicographic; see
    :func:`ss_subsets`, :func:`ss_subset_index`).

    .. math:: C[x, \\Omega] = \\frac{p}{\\binom{k-1}{\\omega-1}} \\text{ if } x \\in \\Omega, \\qquad
              \\frac{1-p}{\\binom{k-1}{\\omega}} \\text{ otherwise}

    (spec 003 T2).  The column ratio is ``p (k - omega) / ((1 - p) omega) = e^eps``: exactly eps-LDP.

    Parameters
    ----------
    k : int
        Domain size, ``>= 2`` (``C(k, omega) <= 2**22``).
    epsilon : float

    Returns
    -------
    ndarray, shape (k, C(k, omega))
    """
    omega, p, _ = ss_params(k, epsilon)
    members = ss_subsets(k, omega)  # (m, k)
    inside = p / math.comb(k - 1, omega - 1)
    outside = (1.0 - p) / math.comb(k - 1, omega)
    return np.where(members.T, inside, outside).astype(np.float64)


# ---------------------------------------------------------------------------------------------
# metric mechanisms: geometric, Laplace, planar, exponential
# ---------------------------------------------------------------------------------------------


def geometric_channel(k: int, epsilon: float) -> np.ndarray:
    """Truncated linear geometric mechanism on ``{0, ..., k-1}`` (``k x k``).

    With ``alpha = e^{-eps}`` (eps per unit of ``|x - z|``), ElSalamouny & Palamidessi (2020),
    eq. (7) (Ghosh et al. 2009):

    .. math:: C[x, z] = c_z \\alpha^{|z - x|}, \\quad c_z = \\frac{1}{1+\\alpha} \\text{ for } z \\in \\{0, k-1\\},
              \\; \\frac{1-\\alpha}{1+\\alpha} \\text{ otherwise},

    i.e. the two-sided geometric ``z = x + G_1 - G_2`` (eq. (6)) clamped to ``[0, k-1]``.  Rows sum
    to 1 exactly; the channel is exactly eps-geo-indistinguishable for ``d(x, x') = |x - x'|``.

    Parameters
    ----------
    k : int
        Domain size, ``>= 2``.
    epsilon : float
        eps_g per unit of distance.

    Returns
    -------
    ndarray, shape (k, k)
    """
    k = check_domain_size(k)
    epsilon = check_epsilon(epsilon)
    alpha = _exp_neg(epsilon)
    idx = np.arange(k)
    C = np.power(alpha, np.abs(idx[:, None] - idx[None, :]).astype(np.float64))
    c = np.full(k, -math.expm1(-epsilon) / (1.0 + alpha))
    c[0] = c[-1] = 1.0 / (1.0 + alpha)
    return C * c[None, :]


def geometric_perturb(x: Any, k: int | None, epsilon: float, *, rng: Any = None) -> np.ndarray:
    """Two-sided geometric noise ``z = x + G_1 - G_2``, clamped to ``[0, k-1]``.

    ``G_1, G_2`` are i.i.d. with ``P(G = g) = (1 - alpha) alpha^g``, ``alpha = e^{-eps}`` (numpy's
    ``geometric`` starts at 1; the offsets cancel) -- ElSalamouny & Palamidessi (2020), eq. (6);
    clamping gives eq. (7) (:func:`geometric_channel`).  With ``k=None`` the output is not clamped
    (any integer inputs).

    Parameters
    ----------
    x : array-like of int, shape (n,)
    k : int or None
        Domain size (clamping), or ``None`` for the untruncated mechanism.
    epsilon : float
    rng : Generator, int or None

    Returns
    -------
    ndarray of int64, shape (n,)
    """
    rng = check_random_state(rng)
    epsilon = check_epsilon(epsilon)
    if k is None:
        xa = np.asarray(x)
        if xa.ndim != 1 or xa.size == 0:
            raise ValueError(f"x must be a non-empty 1-dimensional array, got shape {xa.shape}")
        if not np.issubdtype(xa.dtype, np.integer):
            raise ValueError(f"x must contain integers, got dtype {xa.dtype}")
        xa = xa.astype(np.int64)
    else:
        xa = check_values(x, k)
    success = -math.expm1(-epsilon)  # 1 - alpha
    noise = rng.geometric(success, size=xa.size) - rng.geometric(success, size=xa.size)
    z = xa + noise
    if k is not None:
        z = np.clip(z, 0, k - 1)
    return z.astype(np.int64)


def laplace_channel(k: int, epsilon: float, *, spacing: float = 1.0) -> np.ndarray:
    """Discretised and truncated Laplace mechanism on ``{0, ..., k-1}`` (closed form, M6).

    ``z = x + N``, ``N ~ Laplace(scale 1/eps)``, mapped to the nearest point of ``{0..k-1}`` and
    clamped (spec 002 M6; the points are ``spacing`` apart and eps is per unit of distance, so
    ``e = eps * spacing`` below).  Interior ``z`` (``0 < z < k-1``):

    .. math:: C[x, z] = e^{-e|z-x|}\\sinh(e/2) \\; (z \\ne x), \\qquad C[x, x] = 1 - e^{-e/2};

    boundaries: ``C[x, 0] = e^{-e(x - 1/2)}/2`` for ``x >= 1``, ``C[0, 0] = 1 - e^{-e/2}/2``, and
    symmetrically at ``k-1``.  Post-processing of the eps-geo-ind Laplace mechanism, so
    ``geo_ind_epsilon <= eps`` (ElSalamouny & Palamidessi 2020, §7; Andres et al. 2013).

    Parameters
    ----------
    k : int
        Domain size, ``>= 2``.
    epsilon : float
        eps_g per unit of distance.
    spacing : float
        Distance between consecutive points (default 1).

    Returns
    -------
    ndarray, shape (k, k)
    """
    k = check_domain_size(k)
    epsilon = check_epsilon(epsilon)
    spacing = check_epsilon(spacing, name="spacing")
    e = epsilon * spacing
    idx = np.arange(k)
    D = np.abs(idx[:, None] - idx[None, :]).astype(np.float64)
    C = np.exp(-e * D) * math.sinh(e / 2.0)
    np.fill_diagonal(C, -math.expm1(-e / 2.0))
    # boundary columns: P(x + N < 1/2) and P(x + N > k - 3/2)
    C[:, 0] = 0.5 * np.exp(-e * (idx - 0.5))
    C[:, -1] = 0.5 * np.exp(-e * ((k - 1 - idx) - 0.5))
    C[0, 0] = 1.0 - 0.5 * math.exp(-e / 2.0)
    C[-1, -1] = 1.0 - 0.5 * math.exp(-e / 2.0)
    return C


def laplace_perturb(x: Any, k: int, epsilon: float, *, rng: Any = None) -> np.ndarray:
    """Continuous Laplace noise (scale ``1/eps``) added to ``x``, rounded to the nearest integer and clamped to ``[0, k-1]``.

    The per-user sampler of :func:`laplace_channel` (unit spacing).

    Parameters
    ----------
    x : array-like of int, shape (n,)
    k : int
    epsilon : float
    rng : Generator, int or None

    Returns
    -------
    ndarray of int64, shape (n,)
    """
    rng = check_random_state(rng)
    epsilon = check_epsilon(epsilon)
    x = check_values(x, k)
    z = x + rng.laplace(0.0, 1.0 / epsilon, size=x.size)
    return np.clip(np.floor(z + 0.5), 0, k - 1).astype(np.int64)


def _cell_pair(cell_size: Any) -> tuple[float, float]:
    arr = np.asarray(cell_size, dtype=float)
    if arr.ndim == 0:
        h = w = float(arr)
    elif arr.shape == (2,):
        h, w = float(arr[0]), float(arr[1])
    else:
        raise ValueError(f"cell_size must be a scalar or a pair (height, width), got shape {arr.shape}")
    if not (np.isfinite(h) and np.isfinite(w) and h > 0 and w > 0):
        raise ValueError(f"cell_size must be finite and > 0, got {cell_size!r}")
    return h, w


def _check_grid(rows: Any, cols: Any) -> tuple[int, int]:
    rows = check_domain_size(rows, name="rows", minimum=1)
    cols = check_domain_size(cols, name="cols", minimum=1)
    if rows * cols < 2:
        raise ValueError(f"rows * cols must be >= 2, got {rows} x {cols}")
    return rows, cols


_MAX_WINDOW = 4000


def _window(eps_len: float, n: int) -> int:
    """Half-width (in cells) of the kernel window: tail beyond it has mass < 1e-14 (eps*len*P >= 36)."""
    P = int(math.ceil(36.0 / eps_len)) + n
    if P > _MAX_WINDOW:
        raise ValueError(
            f"epsilon * cell_size is too small for an exact planar kernel (window half-width {P} > {_MAX_WINDOW} cells); "
            "use a coarser grid or a larger epsilon"
        )
    return P


def _lumped_kernel(rows: int, cols: int, h: float, w: float, epsilon: float, block_fn) -> np.ndarray:
    """Offset kernel lumped for clamping: shape ``(2 rows + 1, 2 cols + 1)``, normalised to sum 1.

    Entry ``[a, b]`` is the kernel mass of the row offsets ``di = a - rows`` and column offsets
    ``dj = b - cols``, where the end indices collect the tails (``di <= -rows``, ``di >= rows``):
    every offset in a tail clamps to the same boundary row for every input row.  ``block_fn(di,
    dj)`` returns the (unnormalised) kernel for an array of row offsets ``di`` (c,) and column
    offsets ``dj`` (m,) as a ``(c, m)`` array.  Work is chunked over row offsets.
    """
    Pr, Pc = _window(epsilon * h, rows), _window(epsilon * w, cols)
    dj = np.arange(-Pc, Pc + 1)
    col_starts = np.concatenate([[0], Pc - cols + 1 + np.arange(2 * cols)])  # groups: <= -cols, ..., >= cols
    Kr = np.zeros((2 * rows + 1, 2 * cols + 1))
    di_all = np.arange(-Pr, Pr + 1)
    step = _chunk_rows(di_all.size, dj.size * 64)
    for start in range(0, di_all.size, step):
        di = di_all[start:start + step]
        block = block_fn(di, dj)  # (c, 2 Pc + 1)
        lumped = np.add.reduceat(block, col_starts, axis=1)  # (c, 2 cols + 1)
        np.add.at(Kr, np.clip(di, -rows, rows) + rows, lumped)
    return Kr / Kr.sum()


def _clamp_gather(X: np.ndarray, n: int) -> np.ndarray:
    """Clamp a lumped offset axis: ``Y[..., p, i] = sum_a X[..., a] [clamp(p + a - n) = i]``.

    ``X`` has last axis ``2n + 1`` (offsets ``-n..n`` with the tails lumped at the ends).  Sums of
    nonnegative terms only (cumulative sums from either end), so small entries keep full relative
    accuracy.
    """
    if n == 1:
        return X.sum(axis=-1)[..., None, None]
    top = np.cumsum(X, axis=-1)  # sum_{a <= t}
    bot = np.cumsum(X[..., ::-1], axis=-1)[..., ::-1]  # sum_{a >= t}
    p = np.arange(n)[:, None]
    i = np.arange(n)[None, :]
    Y = X[..., i - p + n]  # interior outputs: a = i - p + n
    Y[..., :, 0] = top[..., n - np.arange(n)]  # i = 0: p + a - n <= 0
    Y[..., :, n - 1] = bot[..., 2 * n - 1 - np.arange(n)]  # i = n-1: p + a - n >= n-1
    return Y


def _planar_from_kernel(Kr: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """``(rows cols) x (rows cols)`` channel from a lumped kernel by clamping (row-major cells)."""
    T = _clamp_gather(Kr.T, rows)  # (2 cols + 1, rows, rows): [b, p, i]
    T = np.moveaxis(T, 0, -1)  # [p, i, b]
    M = _clamp_gather(T, cols)  # [p, i, q, j]
    k = rows * cols
    M = M.transpose(0, 2, 1, 3).reshape(k, k)
    return M / M.sum(axis=1, keepdims=True)


def planar_geometric_channel(rows: int, cols: int, epsilon: float, cell_size: Any = 1.0) -> np.ndarray:
    """Truncated planar geometric mechanism on a ``rows x cols`` grid (row-major cells), M4/M5.

    On the lattice of cell centres (spacing ``cell_size = h`` or ``(h, w)``):
    ``P(z | x) = c_2 exp(-eps d(x, z))`` with ``d`` Euclidean and ``c_2`` the normaliser over the
    whole lattice (ElSalamouny & Palamidessi 2020, §4; spec 002 M4).  Truncation maps the output to
    the nearest cell of the grid, i.e. clamps row and column indices (Chatzikokolakis, ElSalamouny
    & Palamidessi 2017; spec 002 M5).

    Construction (offset-kernel trick): the kernel ``K(di, dj) ~ exp(-eps sqrt((di h)^2 + (dj w)^2))``
    is computed on the window ``|di| <= P_r``, ``|dj| <= P_c`` with ``eps h (P_r - rows) >= 36``
    (the neglected mass is below 1e-14), its tails are lumped, and each input cell's mass is
    clamped into the grid.  All sums are of nonnegative terms, so even tiny entries are accurate
    and the channel is eps-geo-indistinguishable with respect to the Euclidean distance between
    cell centres (tight when the grid has an interior cell).

    Parameters
    ----------
    rows, cols : int
        Grid shape (``rows * cols >= 2``).
    epsilon : float
        eps_g per unit of ``cell_size`` (e.g. per km).
    cell_size : float or (float, float)
        Cell height and width (a scalar means square cells).

    Returns
    -------
    ndarray, shape (rows*cols, rows*cols)
    """
    rows, cols = _check_grid(rows, cols)
    epsilon = check_epsilon(epsilon)
    h, w = _cell_pair(cell_size)

    def block(di, dj):
        return np.exp(-epsilon * np.hypot(di[:, None] * h, dj[None, :] * w))

    return _planar_from_kernel(_lumped_kernel(rows, cols, h, w, epsilon, block), rows, cols)


def planar_laplace_channel(rows: int, cols: int, epsilon: float, cell_size: Any = 1.0, *, subdivisions: int = 8) -> np.ndarray:
    """Planar Laplace mechanism discretised to a ``rows x cols`` grid (row-major cells), M7.

    Density ``D(z | x) = eps^2/(2 pi) exp(-eps d(x, z))`` on the plane (Andres et al. 2013); the
    output is assigned to the cell that contains it, after clamping to the grid (boundary cells
    extend to infinity; spec 002 M7).  ``C[x, z] = integral of D(.|x) over cell(z)``, with the
    offset kernel integrated by the midpoint rule on ``subdivisions x subdivisions`` sub-points
    per cell, on the window of :func:`planar_geometric_channel`, then clamped and normalised.

    Every kernel entry is a positive combination of density values at the *same* sub-points of the
    output cell for every input, so the discretised channel satisfies eps-geo-indistinguishability
    with respect to the distance between cell centres exactly (``geo_ind_epsilon <= eps``), quadrature
    error notwithstanding.  Quadrature error of the cell masses against the exact integral (measured
    on a 5 x 5 grid, unit cells): about 1e-3 relative for the centre cell at ``eps h = 1`` and
    3e-3 at ``eps h = 3`` with 8 subdivisions; 16 subdivisions divide it by about 4.  Cost
    ``O((2P + 1)^2 s^2)`` with ``P ~ 36 / (eps h) + max(rows, cols)``: 0.6 s for the 20 x 14
    Manhattan grid at 0.2 per km (0.45 km cells).

    Parameters
    ----------
    rows, cols : int
        Grid shape (``rows * cols >= 2``).
    epsilon : float
        eps_g per unit of ``cell_size`` (e.g. per km).
    cell_size : float or (float, float)
        Cell height and width (a scalar means square cells).
    subdivisions : int
        Midpoint-rule sub-points per cell side (default 8, spec 002 M7).

    Returns
    -------
    ndarray, shape (rows*cols, rows*cols)
    """
    rows, cols = _check_grid(rows, cols)
    epsilon = check_epsilon(epsilon)
    h, w = _cell_pair(cell_size)
    s = check_domain_size(subdivisions, name="subdivisions", minimum=1)
    sub = (np.arange(s) + 0.5) / s - 0.5  # sub-point offsets inside a cell, in cell units

    def block(di, dj):
        yy = (di[:, None] + sub[None, :]).reshape(-1) * h  # (c s,)
        xx = (dj[:, None] + sub[None, :]).reshape(-1) * w  # (m s,)
        dens = np.exp(-epsilon * np.hypot(yy[:, None], xx[None, :]))
        return dens.reshape(di.size, s, dj.size, s).sum(axis=(1, 3))

    return _planar_from_kernel(_lumped_kernel(rows, cols, h, w, epsilon, block), rows, cols)


def planar_laplace_perturb(points: Any, epsilon: float, *, rng: Any = None) -> np.ndarray:
    """Planar Laplace noise added to points of the plane (polar sampling).

    ``z = x + r (cos t, sin t)`` with ``t ~ U[0, 2 pi)`` and ``r ~ Gamma(shape 2, scale 1/eps)``
    (radial CDF ``1 - (1 + eps r) e^{-eps r}``; Andres et al. 2013; spec 002 M7).  Coordinates are
    in the units of ``1/eps`` (e.g. km for eps per km).

    Parameters
    ----------
    points : array-like, shape (n, 2)
    epsilon : float
    rng : Generator, int or None

    Returns
    -------
    ndarray of float64, shape (n, 2)
    """
    rng = check_random_state(rng)
    epsilon = check_epsilon(epsilon)
    pts = np.asarray(points, dtype=np.float64)
    if pts.ndim != 2 or pts.shape[1] != 2 or pts.shape[0] == 0:
        raise ValueError(f"points must have shape (n, 2) with n >= 1, got {pts.shape}")
    if not np.all(np.isfinite(pts)):
        raise ValueError("points must be finite")
    n = pts.shape[0]
    theta = rng.random(n) * (2.0 * np.pi)
    r = rng.gamma(2.0, 1.0 / epsilon, size=n)
    return pts + np.column_stack([r * np.cos(theta), r * np.sin(theta)])


def _check_distance(distance: Any, name: str = "distance", square: bool = True) -> np.ndarray:
    D = np.asarray(distance, dtype=np.float64)
    if D.ndim != 2 or (square and D.shape[0] != D.shape[1]):
        raise ValueError(f"{name} must be a {'square ' if square else ''}2-D matrix, got shape {D.shape}")
    if D.size == 0:
        raise ValueError(f"{name} must not be empty")
    if not np.all(np.isfinite(D)):
        raise ValueError(f"{name} must be finite")
    if np.any(D < 0):
        raise ValueError(f"{name} must be nonnegative")
    return D


def exponential_channel(distance: Any, epsilon: float, half: bool = True) -> np.ndarray:
    """Exponential mechanism (McSherry & Talwar 2007) in its geo-ind form, M8.

    .. math:: C[x, z] = \\frac{\\exp(-c\\,\\varepsilon\\, d(x, z))}{\\sum_{z'} \\exp(-c\\,\\varepsilon\\, d(x, z'))},
              \\quad c = 1/2 \\text{ if half else } 1

    (spec 002 M8).  With ``c = 1/2`` the row normaliser costs at most another ``eps d/2``, so the
    channel is eps-geo-ind; ``c = 1`` gives only 2 eps.  On a finite alphabet the tight value of
    :func:`geo_ind_epsilon` is usually *smaller* than the bound (e.g. eps/2 with ``half=True`` on two
    points).  Computed with a row-wise log-sum-exp (no underflow of whole rows).

    Parameters
    ----------
    distance : array-like, shape (k, m)
        ``d(x, z)`` between inputs and outputs (square with zero diagonal in the usual case Z = X).
    epsilon : float
    half : bool

    Returns
    -------
    ndarray, shape (k, m)
    """
    D = _check_distance(distance, square=False)
    epsilon = check_epsilon(epsilon)
    c = 0.5 if half else 1.0
    logits = -c * epsilon * D
    logits -= logits.max(axis=1, keepdims=True)
    C = np.exp(logits)
    return C / C.sum(axis=1, keepdims=True)


# ---------------------------------------------------------------------------------------------
# any finite channel
# ---------------------------------------------------------------------------------------------


def sample_channel(channel: Any, x: Any, *, rng: Any = None) -> np.ndarray:
    """Draw one output per user from the rows ``channel[x_i]`` (inverse CDF, vectorised).

    Each user draws ``u ~ U[0, 1)`` and outputs ``min{y : F[x_i, y] > u}`` with ``F`` the row-wise
    cumulative sums (normalised; entries from the last positive column on set to 1, so zero
    columns are never drawn).  The search is a vectorised binary search over all users at once
    (``ceil(log2 m)`` steps), which keeps full precision whatever the number of rows (a flattened
    offset array ``F + x`` would lose ~``log2 k`` bits).

    Parameters
    ----------
    channel : array-like, shape (k, m)
    x : array-like of int, shape (n,)
        Inputs in ``{0..k-1}``.
    rng : Generator, int or None

    Returns
    -------
    ndarray of int64, shape (n,)
    """
    rng = check_random_state(rng)
    C = check_channel(channel)
    k, m = C.shape
    xa = np.asarray(x)
    if k == 1:
        if xa.ndim != 1 or xa.size == 0 or not np.issubdtype(xa.dtype, np.integer) or np.any(xa != 0):
            raise ValueError("x must be a non-empty 1-D integer array with entries in {0}")
        xa = xa.astype(np.int64)
    else:
        xa = check_values(x, k)
    F = np.cumsum(C, axis=1)
    F /= F[:, -1:]
    last_pos = m - 1 - np.argmax(C[:, ::-1] > 0, axis=1)
    F[np.arange(m)[None, :] >= last_pos[:, None]] = 1.0
    u = rng.random(xa.size)
    lo = np.zeros(xa.size, dtype=np.int64)
    hi = np.full(xa.size, m - 1, dtype=np.int64)
    Fflat = F.ravel()
    base = xa * m
    for _ in range(max(1, int(math.ceil(math.log2(m))) + 1) if m > 1 else 0):
        mid = (lo + hi) // 2
        cond = Fflat[base + mid] > u
        hi = np.where(cond, mid, hi)
        lo = np.where(cond, lo, mid + 1)
    return lo


def simulate_counts(channel: Any, input_counts: Any, *, rng: Any = None) -> np.ndarray:
    """Output counts of a finite channel for given input counts: one multinomial per input value.

    ``counts = sum_{x : N_x > 0} Multinomial(N_x, channel[x])`` -- exactly the law of
    ``bincount(sample_channel(channel, x))`` for any population with these input counts, at a cost
    O(k m) independent of n (spec 002 A4).

    Parameters
    ----------
    channel : array-like, shape (k, m)
    input_counts : array-like of int, shape (k,)
    rng : Generator, int or None

    Returns
    -------
    ndarray of int64, shape (m,)
    """
    rng = check_random_state(rng)
    C = check_channel(channel)
    N = check_counts(input_counts, name="input_counts")
    if N.size != C.shape[0]:
        raise ValueError(f"input_counts must have one entry per channel row ({C.shape[0]}), got {N.size}")
    nz = np.flatnonzero(N)
    out = np.zeros(C.shape[1], dtype=np.int64)
    if nz.size == 0:
        return out
    P = C[nz] / C[nz].sum(axis=1, keepdims=True)
    step = _chunk_rows(nz.size, C.shape[1])
    for start in range(0, nz.size, step):
        sl = slice(start, start + step)
        out += rng.multinomial(N[nz[sl]], P[sl]).sum(axis=0)
    return out


def ldp_epsilon(channel: Any) -> float:
    """Tight LDP level of a finite channel: ``max_y log(max_x C[x, y] / min_x C[x, y])``.

    All-zero columns are ignored; a column mixing zero and nonzero entries gives ``inf``
    (Definition of eps-LDP, e.g. Arcolezi et al. 2023 Def. 1; spec anchors C.8 Tier 0).  Computed
    with logarithms, so tiny entries do not overflow the ratio.

    Parameters
    ----------
    channel : array-like, shape (k, m)
        Rows sum to 1.

    Returns
    -------
    float
    """
    C = check_channel(channel)
    cmax = C.max(axis=0)
    cmin = C.min(axis=0)
    used = cmax > 0
    if not np.any(used):  # pragma: no cover - impossible for rows summing to 1
        return 0.0
    if np.any(cmin[used] == 0):
        return math.inf
    return float(np.max(np.log(cmax[used]) - np.log(cmin[used])))


def geo_ind_epsilon(channel: Any, distance: Any) -> float:
    """Tight geo-indistinguishability (d-privacy) level of a finite channel.

    .. math:: \\varepsilon_g = \\max_{x \\ne x',\\, y} \\frac{\\log(C[x, y] / C[x', y])}{d(x, x')}

    (Andres et al. 2013; ElSalamouny & Palamidessi 2020 §2.3), in units of ``1/distance``.
    ``0/0`` columns are ignored; ``C[x, y] > 0 = C[x', y]`` gives ``inf``, as do two distinct rows
    at distance 0.  Vectorised over blocks of input rows (the ``(block, k, m)`` temporary stays
    below ~32 MiB), so ``k ~ 1000`` costs ``k^2 m`` operations but little memory.

    Parameters
    ----------
    channel : array-like, shape (k, m)
    distance : array-like, shape (k, k)
        Distances between inputs (e.g. :func:`ldpnb.grid.lattice_distance_matrix`).

    Returns
    -------
    float
    """
    C = check_channel(channel)
    D = _check_distance(distance)
    k, m = C.shape
    if D.shape[0] != k:
        raise ValueError(f"distance must be {k} x {k} to match the channel rows, got {D.shape}")
    with np.errstate(divide="ignore"):
        L = np.log(C)
    has_zero = bool(np.any(C == 0))
    best = 0.0
    step = _chunk_rows(k, k * m, budget=1 << 20)  # 8 MiB blocks: cache-friendly
    buf = np.empty((step, k, m))
    for start in range(0, k, step):
        stop = min(k, start + step)
        diff = buf[: stop - start]
        with np.errstate(invalid="ignore"):
            np.subtract(L[start:stop, None, :], L[None, :, :], out=diff)  # (b, k, m)
        if has_zero:
            R = np.fmax.reduce(diff, axis=-1)  # NaN (0/0) ignored; all-NaN -> NaN
            R = np.where(np.isnan(R), -np.inf, R)
        else:
            R = diff.max(axis=-1)
        d = D[start:stop]
        rows = np.arange(start, stop)
        R[rows - start, rows] = -np.inf  # exclude x == x'
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(d > 0, R / np.where(d > 0, d, 1.0), np.where(R > 0, np.inf, -np.inf))
        best = max(best, float(np.max(ratio)))
    return best
