"""omega-subset selection (SS).

Ye and Barg (2018); Wang et al. (2016).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from ldpnb.contracts import (
    EPSILON,
    MAX_BYTES,
    MAX_DENSE,
    MAX_DOMAIN,
    MAX_ENTRIES,
    Array,
    Bits,
    Counts,
    Integer,
    OneOf,
    RandomState,
    contract,
)
from ldpnb.mechanisms._base import Domain, FrequencyOracle, _check_reports_matrix, _log_comb
from ldpnb.mechanisms._common import _MAX_ENUM_COLUMNS, _exp_channel, _exp_neg
from ldpnb.mechanisms.grr import grr_simulate_counts
from ldpnb.utils import (
    _chunk_rows,
    check_random_state,
    check_values,
)

_VALUES = Array(1, integer=True, low=0)

__all__ = [
    "ss_params",
    "ss_perturb",
    "ss_simulate_support_counts",
    "ss_channel",
    "ss_subsets",
    "ss_subset_index",
    "SubsetSelection",
]


# ---------------------------------------------------------------------------------------------
# omega-subset selection
# ---------------------------------------------------------------------------------------------


@contract(k=Integer(2, MAX_DOMAIN), epsilon=EPSILON)
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
    a = _exp_neg(epsilon)
    ratio = k / (math.exp(epsilon) + 1.0) if epsilon < 700 else 0.0  # as written in the artifact
    omega = max(1, int(round(ratio)))
    omega = min(omega, k - 1)
    denom = omega + (k - omega) * a  # (omega e^eps + k - omega) e^{-eps}
    p = omega / denom
    q = (omega * (omega - 1) + (k - omega) * omega * a) / ((k - 1) * denom)
    return omega, p, q


@contract(x=_VALUES, k=Integer(2, MAX_DOMAIN), epsilon=EPSILON, rng=RandomState())
def ss_perturb(x: Any, k: int, epsilon: float, *, rng: Any = None) -> np.ndarray:
    """omega-subset selection reports as a boolean ``(n, k)`` membership matrix (vectorised).

    With probability ``p`` the subset is ``{x}`` plus a uniform ``(omega-1)``-subset of the other
    values, otherwise a uniform ``omega``-subset of the other values.  Vectorised by
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
    return _ss_sample(x, k, omega, p, rng)


def _ss_sample(x: np.ndarray, k: int, omega: int, p: float, rng: np.random.Generator) -> np.ndarray:
    """Random-key subsets for validated values ``x`` (see :func:`ss_perturb`)."""
    n = x.size
    if n * k > MAX_BYTES:
        raise ValueError(
            f"x: {n} reports of {k} memberships exceed {MAX_BYTES} entries; use ss_simulate_support_counts"
        )
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


@contract(k=Integer(2, MAX_DOMAIN), omega=Integer(1, MAX_DOMAIN))
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
    if omega > k:
        raise ValueError(f"omega must be <= k, got omega={omega}, k={k}")
    # the size test runs on log C(k, omega) first: math.comb of a huge k would not return
    if _log_comb(k, omega) > math.log(_MAX_ENUM_COLUMNS) + 1.0:
        raise ValueError(
            f"C(k, omega) must be <= 2**22 for an enumeration, got C({k}, {omega}) ~ "
            f"2**{_log_comb(k, omega) / math.log(2):.1f}"
        )
    m = math.comb(k, omega)
    if m > _MAX_ENUM_COLUMNS:
        raise ValueError(f"C(k, omega) must be <= 2**22 for an enumeration, got C({k}, {omega}) = {m}")
    combos = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(k), omega)), dtype=np.int64, count=m * omega
    )
    out = np.zeros((m, k), dtype=bool)
    out[np.repeat(np.arange(m), omega), combos] = True
    return out


@contract(members=Bits(2))
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
    B = members
    n, k = B.shape
    sizes = B.sum(axis=1)
    omega = int(sizes[0])
    if np.any(sizes != omega) or omega < 1:
        raise ValueError("members must have the same number (>= 1) of True entries in every row")
    if _log_comb(k, omega) > 62 * math.log(2):
        raise ValueError(f"members: C({k}, {omega}) subsets exceed an int64 index")
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


@contract(
    input_counts=Counts(min_size=2), epsilon=EPSILON, rng=RandomState(), method=OneOf("exact", "marginal", "per_user")
)
def ss_simulate_support_counts(
    input_counts: Any, epsilon: float, *, rng: Any = None, method: str = "exact"
) -> np.ndarray:
    """Support counts ``C(v) = #{i : v in Omega_i}`` of omega-subset selection, cost independent of n.

    ``method="exact"`` (default; exact joint law, cost O(k omega) by the aggregated scan of
    :func:`_ss_exact_scan`; before 2026-11 the table below was scanned in O(k^2 omega), same law,
    different stream): users of value ``x`` keep
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
    N = input_counts
    k = N.size
    omega, p, _ = ss_params(k, epsilon)
    if method == "per_user" and int(N.sum()) > MAX_ENTRIES:
        raise ValueError(
            f"input_counts: method='per_user' draws every user ({int(N.sum())} > {MAX_ENTRIES}); use method='exact'"
        )
    if method == "per_user":
        x = np.repeat(np.arange(k), N)
        counts = np.zeros(k, dtype=np.int64)
        step = _chunk_rows(max(1, x.size), k)
        for start in range(0, x.size, step):
            counts += ss_perturb(x[start : start + step], k, epsilon, rng=rng).sum(axis=0)
        return counts
    if omega == 1:
        return grr_simulate_counts(N, epsilon, rng=rng)
    n = int(N.sum())
    K = rng.binomial(N, p)
    if method == "marginal":
        A = K.sum() - K
        B = (n - K.sum()) - (N - K)
        return (K + rng.binomial(A, (omega - 1) / (k - 1)) + rng.binomial(B, omega / (k - 1))).astype(np.int64)
    return _ss_exact_scan(N, K, k, omega, rng)


def _ss_exact_scan(N: np.ndarray, K: np.ndarray, k: int, omega: int, rng: np.random.Generator) -> np.ndarray:
    r"""The exact joint law of the SS support counts by an aggregated scan, ``O(k omega)``.

    The scan of :func:`ss_simulate_support_counts` over ``v = 0..k-1`` needs the table ``S[x, r]``
    only through groups of users that share their inclusion probabilities: users of a value ``x < v``
    (``R = k - v`` values left, one vector ``B[r]``), and users of a value ``x > v`` (``R = k - v - 1``),
    kept as two vectors ``A_c[r]`` by their initial number of free slots ``c in {omega - 1, omega}``.
    Within one such class every user has had the same transition probabilities so far, so which of
    them hold value ``v`` is a uniform draw: when the scan reaches ``v`` the ``K_v`` (resp.
    ``N_v - K_v``) users of value ``v`` leave ``A_c`` by a multivariate hypergeometric draw, skip
    step ``v`` (their own value is counted in ``K_v``), and join ``B``.  Each step is then one
    binomial per (group, r): the same law as the per-value table, at ``O(omega)`` per step.
    """
    r = np.arange(omega + 1)
    A = np.zeros((2, omega + 1), dtype=np.int64)  # value > v, by initial class (omega-1, omega)
    A[0, omega - 1] = int(K.sum())
    A[1, omega] = int((N - K).sum())
    B = np.zeros(omega + 1, dtype=np.int64)  # value < v
    counts = K.astype(np.int64).copy()
    G = np.empty((3, omega + 1), dtype=np.int64)
    P = np.empty((3, omega + 1))
    for v in range(k):
        mine = np.zeros(omega + 1, dtype=np.int64)  # users of value v (leave A, skip this step)
        for c, m in ((0, int(K[v])), (1, int(N[v] - K[v]))):
            if m:
                take = rng.multivariate_hypergeometric(A[c], m) if m < A[c].sum() else A[c].copy()
                A[c] -= take
                mine += take
        G[0], G[1:] = B, A
        P[0] = np.minimum(1.0, r / (k - v))
        P[1:] = np.minimum(1.0, r / max(k - v - 1, 1))
        D = rng.binomial(G, P)
        counts[v] += D.sum()
        G -= D
        G[:, :-1] += D[:, 1:]
        B, A = G[0] + mine, G[1:].copy()
    return counts


@contract(k=Integer(2, MAX_DENSE), epsilon=EPSILON)
def ss_channel(k: int, epsilon: float) -> np.ndarray:
    """Exact channel of omega-subset selection over the ``C(k, omega)`` subsets.

    Columns follow ``itertools.combinations(range(k), omega)`` (lexicographic; see
    :func:`ss_subsets`, :func:`ss_subset_index`).

    .. math:: C[x, \\Omega] = \\frac{p}{\\binom{k-1}{\\omega-1}} \\text{ if } x \\in \\Omega, \\qquad
              \\frac{1-p}{\\binom{k-1}{\\omega}} \\text{ otherwise}

    (Ye & Barg 2018).  The column ratio is ``p (k - omega) / ((1 - p) omega) = e^eps``: exactly eps-LDP.
    Built from log-probabilities (the outside entry is the inside one times ``e^{-eps}``, never
    ``1 - p`` by subtraction, which lost the level from eps ~ 30 on).

    Parameters
    ----------
    k : int
        Domain size, ``>= 2`` (``C(k, omega) <= 2**22``).
    epsilon : float

    Returns
    -------
    ndarray, shape (k, C(k, omega))
    """
    return _exp_channel(
        _ss_log_channel(k, epsilon),
        epsilon=epsilon,
        what="subset-selection channel",
        hint="SubsetSelection(k, epsilon).log_channel()",
    )


# ---------------------------------------------------------------------------------------------
# log domain
# ---------------------------------------------------------------------------------------------


def _ss_gap(k: int, epsilon: float, omega: int) -> float:
    """``p - q = omega (k - omega) (1 - e^{-eps}) / ((k - 1)(omega + (k - omega) e^{-eps}))`` (the
    difference of :func:`ss_params`' two fractions, without cancellation)."""
    return omega * (k - omega) * -math.expm1(-epsilon) / ((k - 1) * (omega + (k - omega) * _exp_neg(epsilon)))


def _ss_log_channel(k: int, epsilon: float) -> np.ndarray:
    """Log of :func:`ss_channel` without the subtraction ``1 - p``.

    ``log C[x, Omega] = log p - log C(k-1, omega-1)`` for ``x in Omega`` with
    ``log p = -log1p((k - omega) e^{-eps} / omega)``, and ``eps`` less outside: the ratio inside /
    outside is ``p (k - omega) / ((1 - p) omega) = e^eps`` exactly, so
    ``log C[x, Omega] = log p - log C(k-1, omega-1) - eps`` for ``x not in Omega``.
    """
    omega, _, _ = ss_params(k, epsilon)
    members = ss_subsets(k, omega)  # (m, k)
    lp = -math.log1p((k - omega) * _exp_neg(epsilon) / omega)
    inside = lp - _log_comb(k - 1, omega - 1)
    return np.where(members.T, inside, inside - epsilon)


# ---------------------------------------------------------------------------------------------
# the mechanism object
# ---------------------------------------------------------------------------------------------


class SubsetSelection(FrequencyOracle):
    """omega-subset selection (SS) as a :class:`~ldpnb.mechanisms.Mechanism`.

    The report is a subset of ``omega = max(1, round(k / (e^eps + 1)))`` values that contains the
    true value with probability ``p = omega e^eps / (omega e^eps + k - omega)`` (Ye & Barg 2018;
    Wang et al. 2016; :func:`ss_params`).  Reports are boolean ``(n, k)`` membership rows; the
    exact channel has the ``C(k, omega)`` subsets as columns (lexicographic, :func:`ss_subsets`).
    A report supports its members.  Claim: eps-LDP, tight.

    Parameters
    ----------
    k : int
    epsilon : float

    Examples
    --------
    >>> m = SubsetSelection(6, 1.0)          # omega = 2: reports are 2-subsets of {0..5}
    >>> m.channel().shape, m.check().holds
    ((6, 15), True)
    """

    family = "SS"
    aliases = ("subset selection", "omega-SS")

    @contract(k=Integer(2, MAX_DOMAIN), epsilon=EPSILON)
    def __init__(self, k: int, epsilon: float) -> None:
        self.k, self.epsilon = k, epsilon
        self.omega, self.p, self.q = ss_params(k, epsilon)
        self.p_minus_q = _ss_gap(k, epsilon, self.omega)

    @classmethod
    def on(cls, domain: Domain, epsilon: float) -> SubsetSelection:
        """Subset selection on the ``domain.size`` values of the domain."""
        return cls(domain.size, epsilon)

    def _max_support_total(self, n: int) -> int:
        return n * self.omega  # a report is a subset of omega values

    @property
    def n_outputs(self) -> int:
        """``C(k, omega)`` (exact integer; refused when ``min(omega, k - omega) > 4096``)."""
        if min(self.omega, self.k - self.omega) > 4096:
            raise ValueError(f"C(k, omega) for k={self.k}, omega={self.omega} is astronomically large")
        return math.comb(self.k, self.omega)

    def _check_dense(self) -> None:
        if _log_comb(self.k, self.omega) > math.log(_MAX_ENUM_COLUMNS) + 1e-9:
            raise ValueError(
                f"C(k, omega) must be <= 2**22 for the exact subset-selection channel, got "
                f"k={self.k}, omega={self.omega}; use the sampler or the support-count simulator"
            )
        super()._check_dense()

    def _log_channel(self) -> np.ndarray:
        return _ss_log_channel(self.k, self.epsilon)

    def _log_ratios(self) -> np.ndarray:
        """``log(C[x, O] / C[0, O]) = eps ([x in O] - [0 in O])`` (inside / outside ratio ``e^eps``)."""
        self._check_dense()
        M = ss_subsets(self.k, self.omega).T.astype(np.float64)  # (k, C(k, omega))
        return self.epsilon * (M - M[0])

    def _perturb(self, x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return _ss_sample(x, self.k, self.omega, self.p, rng)

    def support(self, reports: Any) -> np.ndarray:
        B = _check_reports_matrix(reports, self.k)
        if np.any(B.sum(axis=1) != self.omega):
            raise ValueError(f"reports must have exactly omega = {self.omega} members in every row")
        return B

    def report_index(self, reports: Any) -> np.ndarray:
        """Column of the exact channel of each subset (:func:`ss_subset_index`)."""
        return ss_subset_index(self.support(reports))

    def simulate_support_counts(self, input_counts: Any, *, rng: Any = None, method: str = "exact") -> np.ndarray:
        """Support counts for input counts ``N`` (:func:`ss_simulate_support_counts`: exact joint law by default)."""
        rng = check_random_state(rng)
        N = self._check_input_counts(input_counts)
        return ss_simulate_support_counts(N, self.epsilon, rng=rng, method=method)

    def column_support(self) -> np.ndarray:
        self._check_dense()
        return ss_subsets(self.k, self.omega)
