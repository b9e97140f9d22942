"""Local hashing (BLH, OLH, and the GLH of Murakami and Takahashi) with a Carter-Wegman hash family.

Wang, Blocki, Li and Jha (2017); Murakami and Takahashi (2021), eq. (3).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ldpnb.contracts import EPSILON, MAX_BYTES, MAX_ENTRIES, Array, Counts, Integer, Optional, RandomState, contract
from ldpnb.mechanisms._base import Domain, FrequencyOracle, _bits_of_columns
from ldpnb.mechanisms._common import _exp_channel, _exp_neg
from ldpnb.mechanisms.grr import _grr_sample
from ldpnb.mechanisms.unary import _MAX_UE_BITS, _bits_log_channel
from ldpnb.utils import (
    _check_input_counts,
    check_domain_size,
    check_random_state,
    check_values,
)

__all__ = [
    "HASH_PRIME",
    "lh_params",
    "lh_hash",
    "lh_draw_seeds",
    "lh_perturb",
    "lh_support_counts",
    "lh_simulate_support_counts",
    "lh_channel",
    "LocalHashing",
    "OLH",
    "BLH",
]


#: The Mersenne prime 2**61 - 1 used by the Carter-Wegman hash family of :func:`lh_hash`.
HASH_PRIME = (1 << 61) - 1


_P = np.uint64(HASH_PRIME)


_MASK32 = np.uint64(0xFFFFFFFF)


_MASK29 = np.uint64((1 << 29) - 1)

_G = Integer(2, 1 << 32)
_VALUES = Array(1, integer=True, low=0)
_SEEDS = Array(None, integer=True, low=0, high=HASH_PRIME - 1)


def _check_g(g: Any, name: str = "g") -> int:
    g = check_domain_size(g, name=name, minimum=2)
    if g > (1 << 32):
        raise ValueError(f"{name} must be <= 2**32 (hash range of lh_hash), got {g}")
    return g


# ---------------------------------------------------------------------------------------------
# local hashing (GLH; OLH for g = round(e^eps) + 1, BLH for g = 2)
# ---------------------------------------------------------------------------------------------


@contract(epsilon=EPSILON, g=Optional(_G))
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


@contract(seeds=_SEEDS, values=Array(None, integer=True, low=0, high=(1 << 32) - 1), g=_G)
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
    (``< 2e-9`` for ``g <= 2**32``).  (The artifact of Arcolezi et al. 2023 used xxhash32.)

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
    v = values.astype(np.uint64)
    a, b = s[..., 0], s[..., 1]
    h = _mod_p(_mulmod_p(a, v) + b)
    return (h % np.uint64(g)).astype(np.int64)


@contract(n=Integer(0, MAX_ENTRIES // 2), rng=RandomState())
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
    a = rng.integers(1, HASH_PRIME, size=n, dtype=np.uint64)
    b = rng.integers(0, HASH_PRIME, size=n, dtype=np.uint64)
    return np.stack([a, b], axis=1)


@contract(x=_VALUES, k=Integer(2, 1 << 32), epsilon=EPSILON, g=Optional(_G), rng=RandomState())
def lh_perturb(
    x: Any, k: int, epsilon: float, g: int | None = None, *, rng: Any = None
) -> tuple[np.ndarray, np.ndarray]:
    """Local-hashing reports ``(seeds, y)``: hash with a fresh hash function, then GRR on ``[g]``.

    User ``i`` draws ``h_i`` (Carter-Wegman seeds, :func:`lh_hash`), computes ``h_i(x_i)`` and
    reports ``y_i = GRR_g(h_i(x_i))`` with ``P(y = h(x)) = e^eps/(e^eps + g - 1)`` (Wang et al.
    2017; Murakami & Takahashi 2021 eq. (3)).

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
    seeds = lh_draw_seeds(x.size, rng=rng)
    return seeds, _grr_sample(_hash_chunked(seeds, x, g), g, p, rng)


#: Users per block of the hash and support-count loops: the uint64 temporaries of a block (about 15
#: arrays of this length) stay in the cache instead of growing with n (same values, block by block).
_CHUNK = 1 << 16


def _hash_chunked(seeds: np.ndarray, x: np.ndarray, g: int) -> np.ndarray:
    """:func:`lh_hash` of ``(seeds[i], x[i])`` for every user, computed in blocks of :data:`_CHUNK` users."""
    out = np.empty(x.size, dtype=np.int64)
    for i in range(0, x.size, _CHUNK):
        out[i : i + _CHUNK] = lh_hash(seeds[i : i + _CHUNK], x[i : i + _CHUNK], g)
    return out


@contract(seeds=_SEEDS, y=_VALUES, k=Integer(2, 1 << 32), g=_G)
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
    s = _check_seeds(seeds)
    if s.ndim != 2:
        raise ValueError(f"seeds must have shape (n, 2), got {s.shape}")
    y = check_values(y, g, name="y")
    if y.size != s.shape[0]:
        raise ValueError(f"y must have one entry per user ({s.shape[0]}), got {y.size}")
    y64 = y.astype(np.uint64)
    gg = np.uint64(g)
    counts = np.zeros(k, dtype=np.int64)
    for i in range(0, y64.size, _CHUNK):  # blocks of users: the temporaries stay in the cache
        a, b, yb = s[i : i + _CHUNK, 0], s[i : i + _CHUNK, 1], y64[i : i + _CHUNK]
        av = np.zeros_like(a)  # a * v mod P, v = 0
        for v in range(k):
            counts[v] += np.count_nonzero(_mod_p(av + b) % gg == yb)
            av = _mod_p(av + a)
    return counts


@contract(input_counts=Counts(min_size=2), epsilon=EPSILON, g=Optional(_G), rng=RandomState())
def lh_simulate_support_counts(
    input_counts: Any, epsilon: float, g: int | None = None, *, rng: Any = None
) -> np.ndarray:
    """Support counts of local hashing in the random-oracle model, exact in law, cost O(k).

    With a fully random hash function ``h`` (all ``g**k`` functions equally likely), the values
    ``h(v)`` are i.i.d. uniform on ``[g]``.  For a user with value ``x`` the report ``y`` depends
    only on ``h(x)`` and the GRR noise, so given ``(h(x), y)`` the indicators ``1[h(v) = y]``,
    ``v != x``, are i.i.d. Bernoulli(1/g), independent of ``1[h(x) = y]`` ~ Bernoulli(p).  All
    ``k`` indicators of a user are therefore mutually independent, and

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


@contract(k=Integer(2, 21), g=_G, epsilon=EPSILON)
def lh_channel(k: int, g: int, epsilon: float) -> np.ndarray:
    """Exact channel of local hashing with the fully random hash family (tiny ``k``, ``g``).

    Outputs are pairs ``(h, y)`` with ``h`` one of the ``g**k`` functions ``[k] -> [g]`` and
    ``y in [g]``; column index ``h_index * g + y`` where ``h_index = sum_v h(v) g**v`` (digit ``v``
    of ``h_index`` in base ``g`` is ``h(v)``).  With ``p' = e^eps/(e^eps + g - 1)`` and
    ``q' = 1/(e^eps + g - 1)``,

    .. math:: C[x, (h, y)] = g^{-k} \\, (p' \\text{ if } y = h(x) \\text{ else } q')

    (Murakami & Takahashi 2021, eq. (3) with the factor ``P(h) = g^{-k}``).  Exactly
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
    if (k + 1) * math.log2(g) > 22:
        raise ValueError(f"g**(k+1) must be <= 2**22 for the exact local-hashing channel, got k={k}, g={g}")
    return _exp_channel(
        _lh_full_log_channel(k, g, epsilon),
        epsilon=epsilon,
        what="local-hashing channel",
        hint="LocalHashing(k, epsilon, g).log_channel() (the channel of the support set)",
    )


# ---------------------------------------------------------------------------------------------
# log domain
# ---------------------------------------------------------------------------------------------


def _lh_gap(epsilon: float, g: int) -> float:
    """``p - 1/g = (g - 1)(1 - e^{-eps}) / (g (1 + (g - 1) e^{-eps}))`` without cancellation."""
    return (g - 1) * -math.expm1(-epsilon) / (g * (1.0 + (g - 1) * _exp_neg(epsilon)))


def _lh_log_support_params(epsilon: float, g: int) -> tuple[float, float, float, float]:
    """``(log p, log(1-p), log q, log(1-q))`` of the support of local hashing, ``q = 1/g``.

    ``p = 1/(1 + (g-1) e^{-eps})``: ``log p = -log1p((g-1) e^{-eps})``,
    ``log(1-p) = log(g-1) - eps + log p``; ``log(1-q) = log1p(-1/g)``.
    """
    lp = -math.log1p((g - 1) * _exp_neg(epsilon))
    return lp, math.log(g - 1) - epsilon + lp, -math.log(g), math.log1p(-1.0 / g)


def _lh_full_log_channel(k: int, g: int, epsilon: float) -> np.ndarray:
    """Log of :func:`lh_channel`: ``log C[x, (h, y)] = -k log g + (log p' if y = h(x) else log q')``."""
    lpp = -math.log1p((g - 1) * _exp_neg(epsilon))
    n_h = g**k
    h_index = np.arange(n_h, dtype=np.int64)
    digits = (h_index[None, :] // (g ** np.arange(k, dtype=np.int64))[:, None]) % g  # (k, n_h): h(x)
    match = digits[:, :, None] == np.arange(g)[None, None, :]  # (k, n_h, g)
    L = np.where(match, lpp, lpp - epsilon) - k * math.log(g)
    return L.reshape(k, n_h * g)


# ---------------------------------------------------------------------------------------------
# the mechanism objects
# ---------------------------------------------------------------------------------------------


class LocalHashing(FrequencyOracle):
    """Local hashing (GLH; OLH for ``g = round(e^eps) + 1``, BLH for ``g = 2``) as a
    :class:`~ldpnb.mechanisms.Mechanism`.

    A user draws a hash function ``h`` (Carter-Wegman seeds, :func:`lh_hash`) and reports
    ``(h, y)`` with ``y`` the k-RR on ``[g]`` of ``h(x)`` (Wang et al. 2017; Murakami & Takahashi
    2021, eq. (3)); reports are the pair ``(seeds (n, 2), y (n,))`` of :func:`lh_perturb`.  The
    report supports the values ``S = {v : h(v) = y}``: the true value with ``p = e^eps/(e^eps + g - 1)``,
    another with ``q = 1/g``.

    **The exact channel.**  With a fully random hash (the model of :func:`lh_channel`), ``C[x, (h, y)]
    = g^{-k} (p' if y = h(x) else q')`` depends on ``x`` only through whether ``x`` is in ``S``; the
    support set ``S`` is therefore a sufficient statistic, and :meth:`channel` is the channel of ``S``
    (``k x 2**k``, column ``sum_v 1[v in S] 2**v``): its bits are independent, bit ``x`` with
    probability ``p``, the others ``1/g``.  Levels, posteriors and likelihoods are those of the full
    channel (``C[x, (h, y)] = P(S | x) P((h, y) | S)`` with the second factor free of ``x``);
    :meth:`full_channel` is the ``k x g**(k+1)`` channel itself (tiny ``k``, ``g``).  Claim: eps-LDP, tight.

    **The sampler's hash family.**  :meth:`perturb` is :func:`lh_perturb`, whose Carter-Wegman family
    ``((a v + b) mod P) mod g`` is pairwise independent but not 3-wise: the support of the true value
    jointly with any one other value follows the channel (what the frequency estimator, its variance
    and the pair statistic of the audit use), while the law of larger parts of the support set does not
    (e.g. ``E[1/|S|]`` for OLH at ``k = 8``, eps = 2 is 0.788 under Carter-Wegman, 0.767 under a random
    oracle).  The mechanism over ``(a, b, y)`` is still exactly eps-LDP (every output has ratio ``e^eps`` or 1).

    Parameters
    ----------
    k : int
        Domain size (``<= 2**32``: values are hashed as 32-bit integers).
    epsilon : float
    g : int or None
        Hash range; ``None`` is OLH's ``round(e^eps) + 1`` (then ``epsilon <= 22``).

    Examples
    --------
    >>> import numpy as np
    >>> m = OLH(8, 1.0)                      # g = round(e) + 1 = 4 buckets
    >>> x = np.repeat(np.arange(8), 1250)
    >>> seeds, y = m.perturb(x, rng=np.random.default_rng(1))   # a hash seed and a bucket per report
    >>> f = m.estimate((seeds, y))
    >>> bool(np.abs(f - 1 / 8).max() < 0.1)
    True
    """

    family = "LH"
    aliases = ("GLH", "local hashing")

    @contract(k=Integer(2, 1 << 32), epsilon=EPSILON, g=Optional(Integer(2, 1 << 32)))
    def __init__(self, k: int, epsilon: float, g: int | None = None) -> None:
        self.k, self.epsilon = k, epsilon
        self.g, self.p, self.q = lh_params(epsilon, g)
        self.p_minus_q = _lh_gap(epsilon, self.g)

    @property
    def n_outputs(self) -> int:
        return 1 << self.k

    def params(self) -> dict[str, Any]:
        return {"k": self.k, "epsilon": self.epsilon, "g": self.g}

    def _check_dense(self) -> None:
        if self.k > _MAX_UE_BITS:
            raise ValueError(
                f"k must be <= {_MAX_UE_BITS} for the exact channel of the support set (2**k columns), "
                f"got {self.k}; use the sampler or the support-count simulator"
            )

    def _log_channel(self) -> np.ndarray:
        return _bits_log_channel(self.k, *_lh_log_support_params(self.epsilon, self.g))

    def _log_ratios(self) -> np.ndarray:
        """``log(C[x, S] / C[0, S]) = eps ([x in S] - [0 in S])``: the support bit of the true value has
        odds ``p/(1-p) = e^eps/(g-1)``, any other ``q/(1-q) = 1/(g-1)``."""
        self._check_dense()
        bits = _bits_of_columns(self.k).T.astype(np.float64)
        return self.epsilon * (bits - bits[0])

    def full_channel(self) -> np.ndarray:
        """The channel of the reports ``(h, y)`` under a fully random hash (:func:`lh_channel`)."""
        return lh_channel(self.k, self.g, self.epsilon)

    def _perturb(self, x: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        seeds = lh_draw_seeds(x.size, rng=rng)
        return seeds, _grr_sample(lh_hash(seeds, x, self.g), self.g, self.p, rng)

    def _check_reports(self, reports: Any) -> tuple[np.ndarray, np.ndarray]:
        if not isinstance(reports, tuple) or len(reports) != 2:
            raise TypeError("reports must be the pair (seeds, y) returned by perturb")
        seeds = _check_seeds(reports[0])
        if seeds.ndim != 2:
            raise ValueError(f"reports: seeds must have shape (n, 2), got {seeds.shape}")
        y = check_values(reports[1], self.g, name="y")
        if y.size != seeds.shape[0]:
            raise ValueError(f"reports: y must have one entry per user ({seeds.shape[0]}), got {y.size}")
        return seeds, y

    def support(self, reports: Any) -> np.ndarray:
        """``(n, k)`` boolean: ``h_i(v) = y_i`` (chunked over users)."""
        seeds, y = self._check_reports(reports)
        n = y.size
        if n * self.k > MAX_BYTES:
            raise ValueError(
                f"reports: a support matrix of {n} x {self.k} entries exceeds {MAX_BYTES}; use support_counts"
            )
        out = np.empty((n, self.k), dtype=bool)
        values = np.arange(self.k)
        step = max(1, (1 << 20) // self.k)
        for start in range(0, n, step):
            sl = slice(start, min(n, start + step))
            out[sl] = lh_hash(seeds[sl, None, :], values, self.g) == y[sl, None]
        return out

    def support_counts(self, reports: Any) -> np.ndarray:
        seeds, y = self._check_reports(reports)
        return lh_support_counts(seeds, y, self.k, self.g)

    def n_reports(self, reports: Any) -> int:
        """The number of reports ``(seeds, y)``: the length of ``y``."""
        return int(self._check_reports(reports)[1].size)

    def report_index(self, reports: Any) -> np.ndarray:
        """Column of :meth:`channel` of each report: the support set ``sum_v 1[h(v) = y] 2**v``."""
        if self.k > 62:
            raise ValueError(f"k must be <= 62 for an int64 support-set index, got {self.k}")
        S = self.support(reports)
        return (S.astype(np.int64) << np.arange(self.k, dtype=np.int64)).sum(axis=1)

    def column_support(self) -> np.ndarray:
        self._check_dense()
        return _bits_of_columns(self.k)


class OLH(LocalHashing):
    """Optimised local hashing (Wang et al. 2017): :class:`LocalHashing` with ``g = round(e^eps) + 1``."""

    family = "OLH"
    aliases = ("optimised local hashing", "optimized local hashing")

    @contract(k=Integer(2, 1 << 32), epsilon=EPSILON)
    def __init__(self, k: int, epsilon: float) -> None:
        super().__init__(k, epsilon, None)

    @classmethod
    def on(cls, domain: Domain, epsilon: float) -> OLH:
        """OLH on the ``domain.size`` values (``epsilon <= 22``: its hash range must fit 32 bits)."""
        return cls(domain.size, epsilon)

    def params(self) -> dict[str, Any]:
        return {"k": self.k, "epsilon": self.epsilon}


class BLH(LocalHashing):
    """Binary local hashing (Bassily & Smith 2015; Wang et al. 2017): :class:`LocalHashing` with ``g = 2``."""

    family = "BLH"
    aliases = ("binary local hashing",)

    @contract(k=Integer(2, 1 << 32), epsilon=EPSILON)
    def __init__(self, k: int, epsilon: float) -> None:
        super().__init__(k, epsilon, 2)

    @classmethod
    def on(cls, domain: Domain, epsilon: float) -> BLH:
        """BLH on the ``domain.size`` values of the domain."""
        return cls(domain.size, epsilon)

    def params(self) -> dict[str, Any]:
        return {"k": self.k, "epsilon": self.epsilon}
