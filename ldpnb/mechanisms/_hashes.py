r"""Optimised local hashing with a practical hash: a short-seed Carter-Wegman family whose exact
channel is computed over the finite seed family.

:class:`~ldpnb.mechanisms.OLH` states its channel for an idealised hash (a random oracle: the
``g**k`` functions ``[k] -> [g]`` equally likely), under which the support indicators of one report
are independent, ``P(v in S) = 1/g`` for ``v != x``.  A deployment draws a seed from a finite
family instead.  :class:`OLHCW` is OLH with the Carter-Wegman family

.. math:: h_{a,b}(v) = ((a v + b) \bmod P) \bmod g, \qquad a \in \{1..P-1\},\ b \in \{0..P-1\},

for a stated prime ``P >= k`` (default: the smallest prime at least ``max(k, g)``, a
``2 ceil(log2 P)``-bit seed), and everything about it is exact over the ``P (P - 1)`` seeds:

* **Support probabilities.**  For ``v != x`` the pair ``((a x + b) mod P, (a v + b) mod P)`` is
  uniform on the ordered pairs of distinct residues, so the collision probability
  :math:`c = P(h(x) = h(v)) = \sum_j n_j (n_j - 1) / (P (P - 1))`, with :math:`n_j` the number of
  residues ``r < P`` with ``r mod g = j``, is the same for every pair.  The report ``y`` is k-RR on
  ``[g]`` of ``h(x)`` (:math:`p' = e^\varepsilon/(e^\varepsilon + g - 1)`, :math:`q' = 1/(e^\varepsilon + g - 1)`),
  so :math:`p = p'` and :math:`q = p' c + q' (1 - c)`: a pure frequency oracle with exact ``(p, q)``,
  Wang et al.'s estimator unbiased with these, and its variance formula exact (``q = 1/g`` only when
  :math:`c = 1/g`, i.e. ``g`` divides ``P``; the deployed estimator with ``q = 1/g`` is biased by
  :math:`(q - 1/g)/(p - q)` per value).
* **The channel.**  The support set :math:`S = \{v : h(v) = y\}` is a sufficient statistic of the
  report ``(a, b, y)``: :math:`P((a, b, y) \mid x) = \frac{1}{P(P-1)} (p' [x \in S] + q' [x \notin S])`,
  so :math:`P(S \mid x) = \frac{n(S)}{P(P-1)} (p' [x \in S] + q' [x \notin S])` with ``n(S)`` the number
  of ``(a, b, y)`` whose support set is ``S`` (:meth:`OLHCW.support_set_counts`, by enumeration).  The
  ``k x 2**k`` channel of ``S`` therefore has the levels, posteriors and likelihood ratios of the full
  channel (whose columns are ``(a, b, y)``): :math:`C[x, (a, b, y)] = C_S[x, S]/n(S)`.  Claim
  eps-LDP, tight (a column with ``n(S) > 0`` holding ``x`` and not ``x'`` has ratio ``e^eps``).

Unlike :class:`~ldpnb.mechanisms.OLH` (random-oracle channel, Carter-Wegman sampler with
``P = 2**61 - 1``, pairwise independent only), the sampler of :class:`OLHCW` follows its channel
exactly: both are the same finite family.

References
----------
J. L. Carter, M. N. Wegman, "Universal classes of hash functions", JCSS 18 (1979).  T. Wang,
J. Blocki, N. Li, S. Jha, "Locally Differentially Private Protocols for Frequency Estimation",
USENIX Security 2017 (OLH).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ldpnb.contracts import EPSILON, MAX_BYTES, MAX_DENSE, Counts, Integer, OneOf, Optional, RandomState, contract
from ldpnb.mechanisms._base import Domain, FrequencyOracle, _bits_of_columns
from ldpnb.mechanisms._common import _exp_neg
from ldpnb.mechanisms.grr import _grr_sample
from ldpnb.mechanisms.hashing import OLH
from ldpnb.mechanisms.unary import _MAX_UE_BITS
from ldpnb.utils import check_random_state, check_values

__all__ = ["next_prime", "cw_collision_probability", "OLHCW"]

#: Largest prime of the short-seed family (``a v + b < P**2 < 2**62``: exact in int64).
MAX_CW_PRIME = (1 << 31) - 1
#: Largest ``P (P - 1) k**2`` comparisons of the enumeration of the seed family (a few seconds).
_MAX_ENUMERATION = 1 << 30
#: Above ``n k`` of this size the support-count simulator's default is the law with exact marginals.
_MAX_PER_USER = 1 << 20


def _is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for ``n < 3,215,031,751`` (bases 2, 3, 5, 7)."""
    if n < 2:
        return False
    for p in (2, 3, 5, 7):
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in (2, 3, 5, 7):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@contract(n=Integer(0, MAX_CW_PRIME))
def next_prime(n: int) -> int:
    """The smallest prime ``>= n`` (``<= 2**31 - 1``).

    Examples
    --------
    >>> next_prime(8), next_prime(11), next_prime(0)
    (11, 11, 2)
    """
    m = max(2, n)
    while not _is_prime(m):
        m += 1
    return m


@contract(prime=Integer(2, MAX_CW_PRIME), g=Integer(2, MAX_CW_PRIME))
def cw_collision_probability(prime: int, g: int) -> float:
    r""":math:`c = P(h(x) = h(v))` for ``x != v`` under the family ``((a v + b) mod P) mod g``:

    .. math:: c = \frac{\sum_{j<g} n_j (n_j - 1)}{P (P - 1)}, \qquad
              n_j = \#\{r < P : r \bmod g = j\} = \lfloor (P - 1 - j)/g \rfloor + 1 \ (j < P),

    computed in integers.  ``c = 1/g`` when ``g`` divides ``P`` (never for a prime ``P > g``);
    ``c = 0`` when ``g >= P``.

    Examples
    --------
    >>> round(cw_collision_probability(11, 4), 6)  # residue classes of sizes 3, 3, 3, 2
    0.181818
    """
    P = prime
    q, r = divmod(P, g)  # r classes of size q + 1, g - r of size q
    pairs = r * (q + 1) * q + (g - r) * q * (q - 1)
    return pairs / (P * (P - 1))


class OLHCW(FrequencyOracle):
    r"""OLH with a short-seed Carter-Wegman hash, exact over its finite seed family (see the module
    docstring).

    A user draws ``(a, b)`` uniformly (``1 <= a < P``, ``0 <= b < P``), computes
    ``h(x) = ((a x + b) mod P) mod g`` and reports ``(a, b, y)`` with ``y`` the k-RR on ``[g]`` of
    ``h(x)``.  Reports are the pair ``(seeds (n, 2), y (n,))``; the exact channel is the channel of
    the support set (``k <= 16``) on the support sets that some ``(a, b, y)`` gives (``n(S) > 0``,
    increasing ``sum_v [v in S] 2**v``; every one of them has positive probability under every
    input), computed by enumerating the ``P (P - 1)`` seeds (refused above ``2**30`` comparisons
    ``P (P - 1) k**2``).  ``p`` and ``q`` are exact (:func:`cw_collision_probability`).

    Parameters
    ----------
    k : int
        Domain size, ``2 <= k <= 2**31 - 1``.
    epsilon : float
    prime : int, optional
        The prime ``P >= k`` (``< 2**31``); default: the smallest prime ``>= max(k, g)``.
    g : int, optional
        Hash range; default OLH's ``round(e^eps) + 1`` (then ``epsilon <= 21``).

    Examples
    --------
    >>> m = OLHCW(8, 1.0)
    >>> m.g, m.prime, round(m.q, 6), round(m.tight_level(), 12)
    (4, 11, 0.229512, 1.0)
    """

    family = "OLH-CW"
    aliases = ("OLH practical", "OLH short-seed", "olhcw")
    independent_supports = False

    @contract(
        k=Integer(2, MAX_CW_PRIME),
        epsilon=EPSILON,
        prime=Optional(Integer(2, MAX_CW_PRIME)),
        g=Optional(Integer(2, MAX_CW_PRIME)),
    )
    def __init__(self, k: int, epsilon: float, prime: int | None = None, g: int | None = None) -> None:
        if g is None:
            if epsilon > 21.0:
                raise ValueError(
                    f"epsilon must be <= 21 for OLH-CW's default g = round(e^eps) + 1 (< 2**31), got {epsilon}"
                )
            g = int(round(math.exp(epsilon))) + 1
        P = next_prime(max(k, g)) if prime is None else prime
        if not _is_prime(P):
            raise ValueError(f"prime must be a prime number, got {P}")
        if P < k:
            raise ValueError(
                f"prime must be >= k (distinct values must hash from distinct residues), got prime={P} < k={k}"
            )
        self.k, self.epsilon, self.g, self.prime = k, epsilon, g, P
        a = _exp_neg(epsilon)
        self.p_prime = 1.0 / (1.0 + (g - 1) * a)  # e^eps / (e^eps + g - 1)
        self.q_prime = a * self.p_prime
        self.collision = cw_collision_probability(P, g)
        c = self.collision
        self.p = self.p_prime
        self.q = self.p_prime * c + self.q_prime * (1.0 - c)
        self.p_minus_q = self.p_prime * -math.expm1(-epsilon) * (1.0 - c)  # (p' - q')(1 - c)

    @classmethod
    def on(cls, domain: Domain, epsilon: float) -> OLHCW:
        """OLH-CW on the ``domain.size`` values with the default prime (``epsilon <= 21``)."""
        return cls(domain.size, epsilon)

    def params(self) -> dict[str, Any]:
        return {"k": self.k, "epsilon": self.epsilon, "prime": self.prime, "g": self.g}

    @property
    def n_outputs(self) -> int:
        """The possible support sets (``n(S) > 0``) when the seed family can be enumerated (the columns
        of :meth:`channel`), else the ``2**k`` subsets of ``[k]``."""
        try:
            return int(self._possible().size)
        except ValueError:
            return 1 << self.k

    def _possible(self) -> np.ndarray:
        """Indices ``sum_v [v in S] 2**v`` of the possible support sets, increasing (the columns)."""
        cached = self.__dict__.get("_possible_cache")
        if cached is None:
            cached = np.flatnonzero(self.support_set_counts() > 0)
            cached.setflags(write=False)
            self.__dict__["_possible_cache"] = cached
        return cached

    @property
    def seed_bits(self) -> int:
        """Bits of one seed ``(a, b)``: ``2 ceil(log2 P)``."""
        return 2 * (self.prime - 1).bit_length()

    @property
    def bits_per_report(self) -> int:
        """The seed and ``ceil(log2 g)`` bits of ``y``."""
        return self.seed_bits + (self.g - 1).bit_length()

    def idealised(self) -> OLH:
        """:class:`~ldpnb.mechanisms.OLH` with the same ``(k, epsilon)``: the random-oracle channel."""
        return OLH(self.k, self.epsilon)

    # ------------------------------------------------------------------ hashing
    def hash(self, seeds: Any, values: Any) -> np.ndarray:
        """``((a v + b) mod P) mod g`` for seeds ``(..., 2)`` and values broadcasting against ``a``."""
        s = self._check_seeds(seeds)
        v = check_values(np.ravel(values), self.k, name="values").reshape(np.shape(values))
        try:
            np.broadcast_shapes(s.shape[:-1], v.shape)
        except ValueError:
            raise ValueError(
                f"seeds and values must broadcast: seeds of shape {s.shape} (a last axis (a, b)) against "
                f"values of shape {v.shape}"
            ) from None
        return ((s[..., 0] * v + s[..., 1]) % self.prime) % self.g

    def _check_seeds(self, seeds: Any) -> np.ndarray:
        s = np.asarray(seeds)
        if s.ndim < 1 or s.shape[-1] != 2 or not np.issubdtype(s.dtype, np.integer):
            raise ValueError(f"seeds must be an integer array with a last axis (a, b) of length 2, got {s.shape}")
        s = s.astype(np.int64)
        if s.size and (
            s[..., 0].min() < 1 or s[..., 0].max() >= self.prime or s[..., 1].min() < 0 or s[..., 1].max() >= self.prime
        ):
            raise ValueError(f"seeds must satisfy 1 <= a < P and 0 <= b < P with P = {self.prime}")
        return s

    def draw_seeds(self, n: int, *, rng: Any = None) -> np.ndarray:
        """``n`` seeds ``(a, b)``, uniform on ``{1..P-1} x {0..P-1}``, int64 ``(n, 2)``."""
        n = Integer(0, MAX_BYTES).check(n, "n")
        rng = check_random_state(rng)
        return np.stack(
            [rng.integers(1, self.prime, size=n, dtype=np.int64), rng.integers(0, self.prime, size=n, dtype=np.int64)],
            axis=1,
        )

    def _perturb(self, x: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        seeds = self.draw_seeds(x.size, rng=rng)
        h = ((seeds[:, 0] * x + seeds[:, 1]) % self.prime) % self.g
        return seeds, _grr_sample(h, self.g, self.p_prime, rng)

    def _check_reports(self, reports: Any) -> tuple[np.ndarray, np.ndarray]:
        if not isinstance(reports, tuple) or len(reports) != 2:
            raise TypeError("reports must be the pair (seeds, y) returned by perturb")
        seeds = self._check_seeds(reports[0])
        if seeds.ndim != 2 or seeds.shape[0] < 1:
            raise ValueError(f"reports: seeds must have shape (n, 2) with n >= 1, got {seeds.shape}")
        y = check_values(reports[1], self.g, name="y")
        if y.size != seeds.shape[0]:
            raise ValueError(f"reports: y must have one entry per user ({seeds.shape[0]}), got {y.size}")
        return seeds, y

    def n_reports(self, reports: Any) -> int:
        return int(self._check_reports(reports)[1].size)

    def support(self, reports: Any) -> np.ndarray:
        """``(n, k)`` boolean: ``h_i(v) = y_i``."""
        seeds, y = self._check_reports(reports)
        if y.size * self.k > MAX_BYTES:
            raise ValueError(
                f"reports: a support matrix of {y.size} x {self.k} entries exceeds {MAX_BYTES}; use support_counts"
            )
        v = np.arange(self.k, dtype=np.int64)[None, :]
        return ((seeds[:, :1] * v + seeds[:, 1:]) % self.prime) % self.g == y[:, None]

    def support_counts(self, reports: Any) -> np.ndarray:
        """``C(v) = #{i : h_i(v) = y_i}`` (a loop over the ``k`` values, vectorised over users)."""
        seeds, y = self._check_reports(reports)
        a, b = seeds[:, 0], seeds[:, 1]
        out = np.empty(self.k, dtype=np.int64)
        for v in range(self.k):
            out[v] = np.count_nonzero(((a * v + b) % self.prime) % self.g == y)
        return out

    def support_set_index(self, reports: Any) -> np.ndarray:
        """The support set of each report as ``sum_v [h(v) = y] 2**v`` (``k <= 62``)."""
        if self.k > 62:
            raise ValueError(f"k must be <= 62 for an int64 support-set index, got {self.k}")
        S = self.support(reports)
        return (S.astype(np.int64) << np.arange(self.k, dtype=np.int64)).sum(axis=1)

    def report_index(self, reports: Any) -> np.ndarray:
        """Column of :meth:`channel`: the rank of the report's support set among the possible ones."""
        idx = self.support_set_index(reports)
        possible = self._possible()
        col = np.searchsorted(possible, idx)
        if np.any(col >= possible.size) or np.any(possible[np.minimum(col, possible.size - 1)] != idx):
            raise ValueError("reports: a support set that no seed of the family gives (not a report of this mechanism)")
        return col

    def column_support(self) -> np.ndarray:
        """``(n_outputs, k)``: the members of each possible support set."""
        return _bits_of_columns(self.k)[self._possible()]

    # ------------------------------------------------------------------ the exact channel
    def _check_dense(self) -> None:
        if self.k > _MAX_UE_BITS:
            raise ValueError(
                f"k must be <= {_MAX_UE_BITS} for the exact channel of the support set (2**k columns), got {self.k}"
            )
        cost = self.prime * (self.prime - 1) * self.k * self.k
        if cost > _MAX_ENUMERATION:
            raise ValueError(
                f"the exact channel enumerates P (P - 1) seeds: P (P - 1) k**2 = {cost} comparisons, "
                f"more than {_MAX_ENUMERATION}; choose a smaller prime"
            )

    def support_set_counts(self) -> np.ndarray:
        r"""``n(S)``: the number of reports ``(a, b, y)`` whose support set is ``S`` (column index
        ``sum_v [v in S] 2**v``), int64 of length ``2**k``, summing to ``P (P - 1) g``.

        Enumerates the seeds ``a`` by ``a`` (vectorised over ``b`` and ``v``): the class of ``v`` is
        :math:`\{u : h(u) = h(v)\}` and each non-empty class is seen once per member, so
        :math:`n(S) = \#\{(a, b, v) : \text{class of } v = S\} / |S|`; the ``g`` minus the number of
        classes of each seed are the empty support sets."""
        self._check_dense()
        cached = self.__dict__.get("_nS")
        if cached is not None:
            return cached.copy()
        P, g, k = self.prime, self.g, self.k
        v = np.arange(k, dtype=np.int64)
        b = np.arange(P, dtype=np.int64)[:, None]
        weights = np.int64(1) << v
        hits = np.zeros(1 << k, dtype=np.int64)
        for a in range(1, P):
            h = ((a * v[None, :] + b) % P) % g  # (P, k)
            same = h[:, :, None] == h[:, None, :]  # (P, k, k): u in the class of v
            codes = (same.astype(np.int64) * weights[None, None, :]).sum(axis=2)  # (P, k)
            hits += np.bincount(codes.ravel(), minlength=1 << k)
        sizes = _bits_of_columns(k).sum(axis=1)
        nS = np.zeros(1 << k, dtype=np.int64)
        nz = sizes > 0
        nS[nz] = hits[nz] // sizes[nz]
        nS[0] = P * (P - 1) * g - int(nS[nz].sum())
        nS.setflags(write=False)
        self.__dict__["_nS"] = nS
        return nS.copy()

    def _log_channel(self) -> np.ndarray:
        possible = self._possible()
        nS = self.support_set_counts()[possible].astype(np.float64)
        bits = _bits_of_columns(self.k)[possible].T  # (k, columns): x in S
        lpp = -math.log1p((self.g - 1) * _exp_neg(self.epsilon))
        base = np.log(nS) - math.log(self.prime) - math.log(self.prime - 1)
        return np.where(bits, lpp, lpp - self.epsilon) + base[None, :]

    def _log_ratios(self) -> np.ndarray:
        """``log(C[x, S] / C[0, S]) = eps ([x in S] - [0 in S])`` on the possible support sets."""
        bits = self.column_support().T.astype(np.float64)
        return self.epsilon * (bits - bits[0])

    def support_count_covariance(self, input_counts: Any) -> np.ndarray:
        r"""Exact covariance of the support counts of users with input counts ``N``, ``(k, k)``.

        With :math:`Co[v, w] = [h(v) = h(w)]` for one seed, a user holding ``x`` supports ``v != w``
        together when :math:`h(v) = h(w) = y`, i.e. with probability
        :math:`E[Co[v, w]\,(q' + (p' - q')\,Co[x, v])]`; summed over the users,

        .. math:: \sum_x N_x P(v, w \in S \mid x) = q' n c + (p' - q')\,E\big[Co[v, w]\,(Co N)_v\big],

        where the expectation over the ``P (P - 1)`` seeds is computed by enumeration (cost
        :math:`P^2 k^2`, refused above ``2**30``): the Carter-Wegman family is only pairwise
        independent, so the triple collisions :math:`P(h(x) = h(v) = h(w))` are not uniform.  Then
        :math:`\mathrm{Cov}(C_v, C_w) = \sum_x N_x P(v, w \mid x) - [pq(N_v + N_w) + q^2(n - N_v - N_w)]`
        and :math:`\mathrm{Var}\,C_v = N_v p(1-p) + (n - N_v) q(1-q)`."""
        N = self._check_input_counts(input_counts).astype(np.float64)
        P, g, k = self.prime, self.g, self.k
        cost = P * (P - 1) * k * k
        if cost > _MAX_ENUMERATION or k > MAX_DENSE:
            raise ValueError(
                f"the covariance enumerates P (P - 1) k**2 = {cost} products, more than {_MAX_ENUMERATION}"
            )
        v = np.arange(k, dtype=np.int64)
        b = np.arange(P, dtype=np.int64)[:, None]
        acc = np.zeros((k, k))
        for a in range(1, P):
            h = ((a * v[None, :] + b) % P) % g  # (P, k)
            co = (h[:, :, None] == h[:, None, :]).astype(np.float64)  # (P, k, k)
            acc += np.einsum("bvw,bv->vw", co, co @ N)
        n, p, q = N.sum(), self.p, self.q
        joint = self.q_prime * n * self.collision + (self.p_prime - self.q_prime) * acc / (P * (P - 1))
        cov = joint - (p * q * (N[:, None] + N[None, :]) + q * q * (n - N[:, None] - N[None, :]))
        np.fill_diagonal(cov, N * p * (1 - p) + (n - N) * q * (1 - q))
        return cov

    # ------------------------------------------------------------------ count-level simulation
    @contract(input_counts=Counts(min_size=2), rng=RandomState(), method=OneOf("auto", "exact", "marginal"))
    def simulate_support_counts(self, input_counts: Any, *, rng: Any = None, method: str = "auto") -> np.ndarray:
        r"""Support counts of users with input counts ``N``.

        ``method="exact"``: every user's report is drawn (chunks of ``2**20`` users, cost ``O(n k)``):
        exact joint law.  ``method="marginal"``: :math:`C(v) \sim \mathrm{Bin}(N_v, p) +
        \mathrm{Bin}(n - N_v, q)` independently over ``v``, cost ``O(k)``: each marginal is exact
        (one user's support of ``v`` is Bernoulli ``p`` or ``q``, users independent), so are the
        variance of every estimate and their sum (the expected squared error), but the dependence of
        one user's supports across values is dropped.  ``"auto"`` (default): ``"exact"`` when
        ``n k <= 2**20``, else ``"marginal"``."""
        rng = check_random_state(rng)
        N = self._check_input_counts(input_counts)
        n = int(N.sum())
        if method == "marginal" or (method == "auto" and n * self.k > _MAX_PER_USER):
            return (rng.binomial(N, self.p) + rng.binomial(n - N, self.q)).astype(np.int64)
        out = np.zeros(self.k, dtype=np.int64)
        x_all = np.repeat(np.arange(self.k, dtype=np.int64), N)
        for s in range(0, x_all.size, 1 << 20):
            out += self.support_counts(self._perturb(x_all[s : s + (1 << 20)], rng))
        return out
