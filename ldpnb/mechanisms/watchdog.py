"""The watchdog mechanism: complete merging and subset merging (Algorithm 1).

Reference: Zarrabian, Ding & Sadeghi, "On the Lift, Related Privacy Measures, and Applications to
Privacy-Utility Tradeoffs", Sec. III (eqs. 6-11), Sec. IV (eq. 13, Def. 4, Algorithm 1) and
Sec. VI-B (eq. 33); reproduction spec 001_LIFT, A2-A4 and errata 8.1-8.2.

The watchdog bi-partitions X into low-risk symbols ``X_L`` (published unchanged) and high-risk
symbols ``X_H`` (failing a symbol-wise privacy criterion, eqs. 6-7, 33). High-risk symbols are
randomised; with X-invariant randomisation the optimum is to *merge* them into a super-symbol
(complete merging), or to merge the blocks of a partition of ``X_H`` separately (subset merging).

Channels follow the book's convention ``C[x, y] = P(y|x)``: outputs are the low-risk symbols (in
increasing order) followed by one super-symbol per block.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
import numpy as np
from ldpnb.measures.information import convert, entropy
from ldpnb.measures.lift import Criterion, check_joint

__all__ = [
    "MergeMechanism",
    "watchdog_partition",
    "merging_mi",
    "complete_merging",
    "subset_merging",
    "optimal_partition",
]


def _lift_cols(cols: np.ndarray, p_s: np.ndarray) -> np.ndarray:
    """Set lifts ``l(s, A) = P_SX(s, A) / (P_S(s) P(A))`` for column sums ``cols`` (n_s x m)."""
    return cols / (p_s[:, None] * cols.sum(axis=0, keepdims=True))


@dataclass
class MergeMechanism:
    """A merging (watchdog) mechanism: ``low`` published as is, each block of ``groups`` merged.

    Attributes
    ----------
    n_x : int
        Size of the input alphabet.
    low : ndarray of int
        Low-risk symbols ``X_L`` (identity outputs).
    groups : list of ndarray of int
        Partition of ``X_H``; each block becomes one super-symbol.
    """

    n_x: int
    low: np.ndarray
    groups: list = field(default_factory=list)

    @property
    def high(self) -> np.ndarray:
        """``X_H``, the union of the blocks."""
        if not self.groups:
            return np.array([], dtype=int)
        return np.sort(np.concatenate(self.groups))

    @property
    def n_outputs(self) -> int:
        return len(self.low) + len(self.groups)

    def channel(self) -> np.ndarray:
        """``C[x, y] = P(y|x)``: identity on ``X_L``, block indicator on ``X_H`` (eq. 8, merging)."""
        C = np.zeros((self.n_x, self.n_outputs))
        C[self.low, np.arange(len(self.low))] = 1.0
        for j, g in enumerate(self.groups):
            C[g, len(self.low) + j] = 1.0
        return C

    def output_joint(self, p_sx: Any) -> np.ndarray:
        """``P_SY`` (columns: low-risk symbols, then super-symbols)."""
        p_sx = check_joint(p_sx, "p_sx")
        cols = [p_sx[:, self.low]] + [p_sx[:, g].sum(axis=1, keepdims=True) for g in self.groups]
        return np.concatenate(cols, axis=1)

    def mutual_information(self, p_x: Any, *, unit: str) -> float:
        """``I(X;Y)`` by the closed form (eq. 13); see :func:`merging_mi`."""
        return merging_mi(p_x, self.groups, unit=unit)


def merging_mi(p_x: Any, groups: list, *, unit: str) -> float:
    """Mutual information of subset merging (eq. 13; eq. 11 for a single block):

    ``I(X;Y) = H(X) - sum_i sum_{x in X_i} P_X(x) log(P(X_i) / P_X(x))``.
    """
    p_x = np.asarray(p_x, dtype=float)
    if p_x.ndim != 1 or np.any(p_x <= 0) or abs(p_x.sum() - 1) > 1e-9:
        raise ValueError("p_x must be a distribution with full support")
    loss = 0.0
    seen: set = set()
    for g in groups:
        g = np.asarray(g, dtype=int).ravel()
        if g.size == 0 or g.min() < 0 or g.max() >= p_x.size:
            raise ValueError(f"groups must be non-empty blocks of indices in 0..{p_x.size - 1}, got {g.tolist()}")
        if seen & set(g.tolist()) or np.unique(g).size != g.size:
            raise ValueError("groups must be disjoint blocks of distinct indices")
        seen |= set(g.tolist())
        pg = p_x[g]
        loss += float(np.sum(pg * np.log(pg.sum() / pg)))
    h = entropy(p_x, unit="nats")
    return float(convert(h - loss, from_unit="nats", to_unit=unit))


def watchdog_partition(p_sx: Any, criterion: Criterion) -> tuple[np.ndarray, np.ndarray]:
    """Bi-partition X into ``(X_L, X_H)`` (eqs. 6, 7, 33): ``x`` is high-risk iff the criterion
    fails on its lift column ``l(., x) = P_SX(., x) / (P_S P_X(x))``."""
    p_sx = check_joint(p_sx, "p_sx")
    if not isinstance(criterion, Criterion):
        raise TypeError("criterion must be an ldpnb.lift.Criterion")
    p_s = p_sx.sum(axis=1)
    if np.any(p_s <= 0) or np.any(p_sx.sum(axis=0) <= 0):
        raise ValueError("p_sx must have marginals with full support")
    bad = criterion.violated(_lift_cols(p_sx, p_s), p_s)
    return np.flatnonzero(~bad), np.flatnonzero(bad)


def complete_merging(p_sx: Any, criterion: Criterion) -> MergeMechanism:
    """Watchdog with complete merging (Sec. III, eqs. 8-11): all of ``X_H`` -> one super-symbol.

    If the merged ``X_H`` still violates the criterion the mechanism is returned anyway (its
    leakage is then the watchdog's minimal leakage, eqs. 9-10).
    """
    p_sx = check_joint(p_sx, "p_sx")
    low, high = watchdog_partition(p_sx, criterion)
    return MergeMechanism(p_sx.shape[1], low, [high] if high.size else [])


def subset_merging(p_sx: Any, criterion: Criterion, *, outer_loop: str = "nonempty") -> MergeMechanism:
    """Watchdog with subset merging: Algorithm 1 (greedy partition of ``X_H``).

    The reading of spec A4 (``outer_loop="nonempty"``, default)::

        Q <- X_H; G <- []
        while Q != {}:                                   # line 4, read as "X_Q non-empty"
            x0 <- argmax_{x in Q} omega({x}); A <- {x0}  # line 5
            while viol(A) and Q != {}:                   # line 6
                x* <- argmin_{x in Q} omega(A u {x})     # line 7
                A <- A u {x*}                             # line 8
            G.append(A)                                   # line 10
        while |G| > 1 and viol(G[-1]):                   # lines 13-17 (repair the last block)
            i* <- argmin_{i < last} omega(G[-1] u G[i]); merge G[i*] into G[-1]

    ``outer_loop="printed"`` runs line 4 as printed: the loop continues only while the merged
    remainder ``X_Q`` violates the criterion; the remainder is then merged as one block. This
    almost always returns complete merging (spec erratum 8.2).

    ``omega`` is ``criterion.risk`` (ALIP: ``Lambda + 1/Psi`` by default; the paper's printed
    ``Lambda + Psi`` with ``ALIP(..., risk="printed")``). Ties go to the lowest symbol index.
    Cost: ``O(|X_H|^2 n_s)`` for the greedy phase.
    """
    if outer_loop not in ("nonempty", "printed"):
        raise ValueError(f"outer_loop must be 'nonempty' or 'printed', got {outer_loop!r}")
    p_sx = check_joint(p_sx, "p_sx")
    low, high = watchdog_partition(p_sx, criterion)
    p_s = p_sx.sum(axis=1)
    n_x = p_sx.shape[1]
    viol = lambda cols: criterion.violated(_lift_cols(cols, p_s), p_s)  # noqa: E731
    risk = lambda cols: criterion.risk(_lift_cols(cols, p_s), p_s)  # noqa: E731

    Q = list(high)  # ascending order: argmax/argmin tie-break to the lowest index
    single_risk = dict(zip(high.tolist(), risk(p_sx[:, high]).tolist())) if high.size else {}
    groups: list[list[int]] = []
    while Q:
        if outer_loop == "printed":
            if not viol(p_sx[:, Q].sum(axis=1, keepdims=True))[0]:
                groups.append(list(Q))
                break
        r = np.array([single_risk[x] for x in Q])
        x0 = Q.pop(int(np.argmax(r)))
        A = [x0]
        a = p_sx[:, x0].copy()
        while Q and viol(a[:, None])[0]:
            cand = a[:, None] + p_sx[:, Q]
            j = int(np.argmin(risk(cand)))
            x_star = Q.pop(j)
            A.append(x_star)
            a += p_sx[:, x_star]
        groups.append(A)

    # lines 13-17: repair the last block
    sums = [p_sx[:, g].sum(axis=1) for g in groups]
    while len(groups) > 1 and viol(sums[-1][:, None])[0]:
        cand = np.stack(sums[:-1], axis=1) + sums[-1][:, None]
        i = int(np.argmin(risk(cand)))
        groups[-1] = groups[-1] + groups[i]
        sums[-1] = sums[-1] + sums[i]
        del groups[i], sums[i]
    return MergeMechanism(n_x, low, [np.sort(np.asarray(g, dtype=int)) for g in groups])


def optimal_partition(p_sx: Any, criterion: Criterion, *, max_high: int = 12) -> MergeMechanism | None:
    """Best merging partition of ``X_H`` (every block private) by exact dynamic programming.

    Section IV calls the optimal partition a combinatorial problem and offers Algorithm 1 as a
    heuristic (spec T17). The loss of eq. 13 is additive over blocks,
    ``cost(A) = sum_{x in A} P_X(x) log(P(A)/P_X(x))``, so the optimum is a min-cost set partition
    into private blocks: ``f(M) = min_{B contains min(M), B private} cost(B) + f(M \\ B)``,
    ``O(3^|X_H|)``. Returns ``None`` if no partition into private blocks exists.
    """
    p_sx = check_joint(p_sx, "p_sx")
    low, high = watchdog_partition(p_sx, criterion)
    h = high.size
    if h > max_high:
        raise ValueError(f"|X_H| = {h} exceeds max_high = {max_high}")
    n_x = p_sx.shape[1]
    if h == 0:
        return MergeMechanism(n_x, low, [])
    p_s = p_sx.sum(axis=1)
    p_x = p_sx.sum(axis=0)[high]
    masks = np.arange(1, 2**h)
    member = ((masks[:, None] >> np.arange(h)) & 1).astype(bool)  # (2^h-1, h)
    cols = p_sx[:, high] @ member.T  # (n_s, 2^h-1)
    ok = ~criterion.violated(_lift_cols(cols, p_s), p_s)
    pa = member @ p_x
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(member, p_x * np.log(pa[:, None] / p_x), 0.0)
    cost = np.full(2**h, np.inf)
    cost[1:] = np.where(ok, terms.sum(axis=1), np.inf)
    f = np.full(2**h, np.inf)
    choice = np.zeros(2**h, dtype=np.int64)
    f[0] = 0.0
    for m in range(1, 2**h):
        low_bit = m & -m
        rest = m ^ low_bit
        best, arg = np.inf, 0
        sub = rest
        while True:  # enumerate subsets of rest; block = sub | low_bit
            b = sub | low_bit
            v = cost[b] + f[m ^ b]
            if v < best:
                best, arg = v, b
            if sub == 0:
                break
            sub = (sub - 1) & rest
        f[m] = best
        choice[m] = arg
    full = 2**h - 1
    if not np.isfinite(f[full]):
        return None
    groups = []
    m = full
    while m:
        b = int(choice[m])
        groups.append(np.sort(high[member[b - 1]]))
        m ^= b
    return MergeMechanism(n_x, low, groups)
