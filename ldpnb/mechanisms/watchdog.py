"""The watchdog mechanism: complete merging and subset merging (Algorithm 1).

Reference: M. A. Zarrabian, N. Ding and P. Sadeghi, "On the Lift, Related Privacy Measures, and
Applications to Privacy-Utility Tradeoffs": Sec. III (eqs. 6-11, Thm. 1), Sec. IV (eq. 13, Def. 4,
Algorithm 1) and Sec. VI-B (eq. 33).

The watchdog bi-partitions X into low-risk symbols ``X_L`` (published unchanged) and high-risk
symbols ``X_H`` (failing a symbol-wise privacy criterion, eqs. 6-7, 33). High-risk symbols are
randomised; with X-invariant randomisation the optimum is to *merge* them into a super-symbol
(complete merging), or to merge the blocks of a partition of ``X_H`` separately (subset merging).

Channels follow the book's convention ``C[x, y] = P(y|x)``: outputs are the low-risk symbols (in
increasing order) followed by one super-symbol per block.

**Repair (an extension, not in the paper).** A set lift is the ``P_X``-weighted average of the lifts
of its members, so a union of private blocks is private: Algorithm 1 can leave a violation only when
all of ``X_H`` merged still violates the criterion, and then no randomisation confined to ``X_H`` is
private (Thm. 1, Prop. 7). This happens mostly when ``X_H`` is a single symbol (merging one symbol is
the identity). ``repair="least_risky"`` then merges the violating block with the least risky
low-risk symbol (smallest ``omega({x})``), again and again until the block is private;
``repair="greedy"`` adds instead the low-risk symbol that makes the merged block least risky
(smallest ``omega(B u {x})``). Merging all of X gives lift 1, so both terminate with a private
mechanism. The default ``repair=None`` is the paper's algorithm.

Batches: :func:`merge_labels` runs complete merging or Algorithm 1 (with the same tie-breaking and
the same floating-point operations as :func:`subset_merging`) on many distributions at once, and
:func:`merging_performance` evaluates the resulting mechanisms (NMI and the three leakages).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ldpnb.contracts import (
    EPSILON,
    MAX_DENSE,
    MAX_ENTRIES,
    Array,
    Distribution,
    Instance,
    Integer,
    Items,
    NonnegativeMatrix,
    OneOf,
    contract,
)
from ldpnb.measures.information import convert, entropy
from ldpnb.measures.lift import ALIP, Criterion, _check_joint
from ldpnb.mechanisms._base import ChannelMechanism, Guarantee

__all__ = [
    "MergeMechanism",
    "watchdog_partition",
    "merging_mi",
    "complete_merging",
    "subset_merging",
    "repair_merging",
    "optimal_partition",
    "merge_labels",
    "merging_performance",
    "REPAIRS",
]

#: Repair rules for a merged block that still violates the criterion (None: the paper's algorithm).
REPAIRS = (None, "least_risky", "greedy")

_JOINT = NonnegativeMatrix()
_CRITERION = Instance(Criterion, example=ALIP(1.0, 1.0))
_REPAIR = OneOf(*REPAIRS)
_OUTER = OneOf("nonempty", "printed")
#: The alphabet size of a merging mechanism, its blocks and index sets (indices checked against n_x in
#: MergeMechanism.__post_init__).
_N_X = Integer(1, MAX_DENSE)
_BLOCKS = Items(Array(1, integer=True, low=0), min_size=0, max_size=MAX_DENSE)
_INDICES = Array(1, integer=True, low=0, min_size=0)


def _lift_cols(cols: np.ndarray, p_s: np.ndarray) -> np.ndarray:
    """Set lifts ``l(s, A) = P_SX(s, A) / (P_S(s) P(A))`` for column sums ``cols[..., s, m]``."""
    return cols / (p_s[..., :, None] * cols.sum(axis=-2, keepdims=True))


@dataclass
class MergeMechanism:
    """A merging (watchdog) mechanism: ``low`` published as is, each block of ``groups`` merged.

    Attributes
    ----------
    n_x : int
        Size of the input alphabet.
    low : ndarray of int
        Symbols published as they are (``X_L``, minus any symbol absorbed by a repair).
    groups : list of ndarray of int
        The merged blocks (a partition of ``X_H``, plus the absorbed symbols after a repair).
    absorbed : ndarray of int
        Low-risk symbols merged into a violating block by a repair (empty without repair).
    """

    n_x: int
    low: np.ndarray
    groups: Sequence[np.ndarray] = ()
    absorbed: np.ndarray | Sequence[int] = ()

    def __post_init__(self) -> None:
        """``low`` and the blocks must partition ``{0..n_x-1}`` (every input is published or merged
        exactly once); ``absorbed`` lies in the blocks."""
        self.n_x = _N_X.check(self.n_x, "n_x")
        idx = Array(1, integer=True, low=0, high=self.n_x - 1, min_size=0)
        self.low = idx.check(self.low, "low")
        self.groups = [idx.check(g, f"groups[{j}]") for j, g in enumerate(_BLOCKS.check(self.groups, "groups"))]
        if any(g.size == 0 for g in self.groups):
            raise ValueError("groups must be non-empty blocks of input indices")
        self.absorbed = idx.check(self.absorbed, "absorbed")
        every = np.concatenate([self.low, *self.groups]) if self.groups else self.low
        if every.size != self.n_x or np.unique(every).size != self.n_x:
            raise ValueError(
                f"low and groups must partition the {self.n_x} inputs (each exactly once), got "
                f"{every.size} indices, {np.unique(every).size} distinct"
            )
        if not np.isin(self.absorbed, self.high).all():
            raise ValueError("absorbed symbols must belong to a merged block")

    @property
    def high(self) -> np.ndarray:
        """The merged symbols: ``X_H`` (and the absorbed symbols), the union of the blocks."""
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

    @contract(p_sx=_JOINT)
    def output_joint(self, p_sx: Any) -> np.ndarray:
        """``P_SY`` (columns: low-risk symbols, then super-symbols) of a joint ``P_SX`` (a nonnegative
        matrix summing to 1 with one column per input, ``n_x``)."""
        p_sx = _check_joint(p_sx, "p_sx")
        if p_sx.shape[1] != self.n_x:
            raise ValueError(f"p_sx must have one column per input ({self.n_x}), got shape {p_sx.shape}")
        cols = [p_sx[:, self.low]] + [p_sx[:, g].sum(axis=1, keepdims=True) for g in self.groups]
        return np.concatenate(cols, axis=1)

    @contract(p_x=Distribution(), unit=OneOf("nats", "bits"))
    def mutual_information(self, p_x: Any, *, unit: str) -> float:
        """``I(X;Y)`` by the closed form (eq. 13) for the input distribution ``p_x`` (full support, one
        entry per input, ``n_x``); see :func:`merging_mi`."""
        p_x = np.asarray(p_x, dtype=float)
        if p_x.shape != (self.n_x,):
            raise ValueError(f"p_x must have one entry per input ({self.n_x}), got shape {p_x.shape}")
        return _merging_mi(p_x, self.groups, unit)


_MERGE = contract(n_x=_N_X, low=_INDICES, groups=_BLOCKS, absorbed=_INDICES)
MergeMechanism.__init__ = _MERGE(MergeMechanism.__init__)  # type: ignore[method-assign]


@contract(
    p_x=Distribution(),
    groups=_BLOCKS,  # disjoint and within p_x: checked in the body
    unit=OneOf("nats", "bits"),
)
def merging_mi(p_x: Any, groups: list, *, unit: str) -> float:
    """Mutual information of subset merging (eq. 13; eq. 11 for a single block):

    ``I(X;Y) = H(X) - sum_i sum_{x in X_i} P_X(x) log(P(X_i) / P_X(x))``.
    """
    return _merging_mi(p_x, groups, unit)


def _merging_mi(p_x: np.ndarray, groups: Sequence[Any], unit: str) -> float:
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


def _partition(p_sx: np.ndarray, criterion: Criterion) -> tuple[np.ndarray, np.ndarray]:
    p_s = p_sx.sum(axis=1)
    if np.any(p_s <= 0) or np.any(p_sx.sum(axis=0) <= 0):
        raise ValueError("p_sx must have marginals with full support")
    bad = criterion.violated(_lift_cols(p_sx, p_s), p_s)
    return np.flatnonzero(~bad), np.flatnonzero(bad)


@contract(p_sx=_JOINT, criterion=_CRITERION)
def watchdog_partition(p_sx: Any, criterion: Criterion) -> tuple[np.ndarray, np.ndarray]:
    """Bi-partition X into ``(X_L, X_H)`` (eqs. 6, 7, 33): ``x`` is high-risk iff the criterion
    fails on its lift column ``l(., x) = P_SX(., x) / (P_S P_X(x))``."""
    return _partition(_check_joint(p_sx, "p_sx"), criterion)


@contract(p_sx=_JOINT, criterion=_CRITERION, repair=_REPAIR)
def complete_merging(p_sx: Any, criterion: Criterion, *, repair: str | None = None) -> MergeMechanism:
    """Watchdog with complete merging (Sec. III, eqs. 8-11): all of ``X_H`` -> one super-symbol.

    If the merged ``X_H`` still violates the criterion the mechanism is returned anyway (its
    leakage is then the watchdog's minimal leakage, eqs. 9-10, above the budget), unless ``repair``
    names a repair rule (see the module docstring; not in the paper).
    """
    p_sx = _check_joint(p_sx, "p_sx")
    low, high = _partition(p_sx, criterion)
    mm = MergeMechanism(p_sx.shape[1], low, [high] if high.size else [])
    return mm if repair is None else _repair(p_sx, mm, criterion, repair)


@contract(p_sx=_JOINT, criterion=_CRITERION, outer_loop=_OUTER, repair=_REPAIR)
def subset_merging(
    p_sx: Any, criterion: Criterion, *, outer_loop: str = "nonempty", repair: str | None = None
) -> MergeMechanism:
    """Watchdog with subset merging: Algorithm 1 (greedy partition of ``X_H``, Sec. IV-A).

    The book's reading (``outer_loop="nonempty"``, default)::

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
    almost always returns complete merging (the first merged remainder is ``X_H``, usually private).

    ``omega`` is ``criterion.risk`` (ALIP: ``Lambda + 1/Psi`` by default; the paper's printed
    ``Lambda + Psi`` with ``ALIP(..., risk="printed")``). Ties go to the lowest symbol index.
    ``repair`` (not in the paper, see the module docstring) merges a block that is still not
    private with low-risk symbols. Cost: ``O(|X_H|^2 n_s)`` for the greedy phase.
    """
    p_sx = _check_joint(p_sx, "p_sx")
    mm = _subset_merging(p_sx, criterion, outer_loop)
    return mm if repair is None else _repair(p_sx, mm, criterion, repair)


def _subset_merging(p_sx: np.ndarray, criterion: Criterion, outer_loop: str = "nonempty") -> MergeMechanism:
    low, high = _partition(p_sx, criterion)
    p_s = p_sx.sum(axis=1)
    n_x = p_sx.shape[1]
    viol = lambda cols: criterion.violated(_lift_cols(cols, p_s), p_s)  # noqa: E731
    risk = lambda cols: criterion.risk(_lift_cols(cols, p_s), p_s)  # noqa: E731

    Q = list(high)  # ascending order: argmax/argmin tie-break to the lowest index
    single_risk = dict(zip(high.tolist(), risk(p_sx[:, high]).tolist())) if high.size else {}
    groups: list[list[int]] = []
    sums: list[np.ndarray] = []  # block column sums, accumulated in the order the members were added
    while Q:
        if outer_loop == "printed":
            rem = _seqsum(p_sx, Q)
            if not viol(rem[:, None])[0]:
                groups.append(list(Q))
                sums.append(rem)
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
            a = a + p_sx[:, x_star]
        groups.append(A)
        sums.append(a)

    # lines 13-17: repair the last block
    while len(groups) > 1 and viol(sums[-1][:, None])[0]:
        cand = np.stack(sums[:-1], axis=1) + sums[-1][:, None]
        i = int(np.argmin(risk(cand)))
        groups[-1] = groups[-1] + groups[i]
        sums[-1] = sums[-1] + sums[i]
        del groups[i], sums[i]
    return MergeMechanism(n_x, low, [np.sort(np.asarray(g, dtype=int)) for g in groups])


def _seqsum(p_sx: np.ndarray, idx) -> np.ndarray:
    """``sum_{x in idx} p_sx[:, x]`` added one column at a time in the order of ``idx`` (the batch
    version adds the same numbers in the same order, so that both give the same bits)."""
    out = np.zeros(p_sx.shape[0])
    for x in idx:
        out = out + p_sx[:, x]
    return out


@contract(
    p_sx=_JOINT,
    mechanism=Instance(MergeMechanism, example=MergeMechanism(2, np.array([0, 1]))),
    criterion=_CRITERION,
    rule=OneOf("least_risky", "greedy"),
)
def repair_merging(
    p_sx: Any, mechanism: MergeMechanism, criterion: Criterion, *, rule: str = "least_risky"
) -> MergeMechanism:
    """Merge each block of ``mechanism`` that violates ``criterion`` with low-risk symbols until it is
    private (an extension of the watchdog, not in the paper).

    ``rule="least_risky"`` adds ``argmin_{x in X_L} omega({x})`` (the least risky low-risk symbol),
    ``rule="greedy"`` adds ``argmin_{x in X_L} omega(B u {x})``; repeated while the block violates.
    The absorbed symbols are listed in ``absorbed`` of the result. A mechanism without violating
    block is returned unchanged.
    """
    p_sx = _check_joint(p_sx, "p_sx")
    if mechanism.n_x != p_sx.shape[1]:
        raise ValueError(f"mechanism has n_x = {mechanism.n_x} but p_sx has {p_sx.shape[1]} columns")
    return _repair(p_sx, mechanism, criterion, rule)


def _repair(p_sx: np.ndarray, mm: MergeMechanism, criterion: Criterion, rule: str) -> MergeMechanism:
    p_s = p_sx.sum(axis=1)
    viol = lambda col: bool(criterion.violated(_lift_cols(col[:, None], p_s), p_s)[0])  # noqa: E731
    groups = [np.asarray(g, dtype=int) for g in mm.groups]
    bad = [i for i, g in enumerate(groups) if viol(_seqsum(p_sx, np.sort(g)))]
    if not bad:
        return mm
    low = list(np.asarray(mm.low, dtype=int))
    single = dict(zip(low, criterion.risk(_lift_cols(p_sx[:, low], p_s), p_s).tolist())) if low else {}
    absorbed: list[int] = list(np.asarray(mm.absorbed, dtype=int))
    for i in bad:
        B = list(groups[i])
        col = _seqsum(p_sx, np.sort(groups[i]))
        while low and viol(col):
            if rule == "greedy":
                j = int(np.argmin(criterion.risk(_lift_cols(col[:, None] + p_sx[:, low], p_s), p_s)))
            else:
                j = int(np.argmin([single[x] for x in low]))
            x = low.pop(j)
            B.append(x)
            absorbed.append(x)
            col = col + p_sx[:, x]
        groups[i] = np.sort(np.asarray(B, dtype=int))
    return MergeMechanism(mm.n_x, np.asarray(low, dtype=int), groups, np.asarray(absorbed, dtype=int))


@contract(p_sx=_JOINT, criterion=_CRITERION, max_high=Integer(1, 20))
def optimal_partition(p_sx: Any, criterion: Criterion, *, max_high: int = 12) -> MergeMechanism | None:
    """Best merging partition of ``X_H`` (every block private) by exact dynamic programming.

    Section IV calls the optimal partition a combinatorial problem and offers Algorithm 1 as a
    heuristic. The loss of eq. 13 is additive over blocks,
    ``cost(A) = sum_{x in A} P_X(x) log(P(A)/P_X(x))``, so the optimum is a min-cost set partition
    into private blocks: ``f(M) = min_{B contains min(M), B private} cost(B) + f(M \\ B)``,
    ``O(3^|X_H|)``. Returns ``None`` if no partition into private blocks exists.
    """
    p_sx = _check_joint(p_sx, "p_sx")
    low, high = _partition(p_sx, criterion)
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


# --------------------------------------------------------------------------------------------
# batches: many distributions at once
# --------------------------------------------------------------------------------------------


def _masked_arg(vals: np.ndarray, mask: np.ndarray, largest: bool) -> np.ndarray:
    """Row-wise argmax (``largest``) or argmin of ``vals`` over the entries where ``mask`` is True,
    ties to the lowest index (as ``np.argmax``/``np.argmin`` over the ascending list of candidates)."""
    fill = -np.inf if largest else np.inf
    v = np.where(mask, vals, fill)
    i = np.argmax(v, axis=-1) if largest else np.argmin(v, axis=-1)
    # all candidates equal to the fill value (e.g. infinite risks): the first candidate, as in the list
    off = ~np.take_along_axis(mask, i[..., None], axis=-1)[..., 0]
    if np.any(off):
        i = np.where(off, np.argmax(mask, axis=-1), i)
    return i


def _violated(criterion: Criterion, cols: np.ndarray, p_s: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):  # empty block slots (0/0) are masked by the callers
        return criterion.violated(_lift_cols(cols, p_s), p_s)


def _risk(criterion: Criterion, cols: np.ndarray, p_s: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return criterion.risk(_lift_cols(cols, p_s), p_s)


@contract(
    p_sx=Array(3, low=0.0, max_size=MAX_ENTRIES),
    criterion=_CRITERION,
    method=OneOf("subset", "complete"),
    outer_loop=_OUTER,
    repair=_REPAIR,
)
def merge_labels(
    p_sx: Any, criterion: Criterion, *, method: str = "subset", outer_loop: str = "nonempty", repair: str | None = None
) -> np.ndarray:
    """Complete or subset merging (Algorithm 1) of a batch of joints ``p_sx[b, s, x]`` at once.

    Returns ``labels[b, x]``: ``-1`` for a symbol published as it is, ``k >= 0`` for the ``k``-th
    merged block (blocks numbered in the order of :func:`subset_merging`'s ``groups``). The result
    equals :func:`complete_merging` / :func:`subset_merging` on each joint (same tie-breaking; the
    lockstep loop runs the same floating-point operations), which the tests check; it runs the
    greedy steps of all distributions together, so a sweep over 1000 distributions costs about as
    much as a few single runs. ``repair`` as in :func:`subset_merging`.
    """
    P = np.asarray(p_sx, dtype=float)
    tot = P.sum(axis=(1, 2))
    if np.any(np.abs(tot - 1) > 1e-9):
        raise ValueError(f"p_sx: every joint must sum to 1 (worst sum {tot[np.argmax(np.abs(tot - 1))]:.12g})")
    B, n_s, n_x = P.shape
    p_s = P.sum(axis=2)
    if np.any(p_s <= 0) or np.any(P.sum(axis=1) <= 0):
        raise ValueError("p_sx must have marginals with full support")
    high = _violated(criterion, P, p_s)  # (B, x)
    labels = np.full((B, n_x), -1, dtype=np.int64)
    if method == "complete":
        labels[high] = 0
    else:
        labels = _algorithm1_batch(P, p_s, high, criterion, outer_loop)
    if repair is not None:
        labels = _repair_batch(P, p_s, labels, criterion, repair)
    return labels


def _algorithm1_batch(P, p_s, high, criterion, outer_loop):
    B, n_s, n_x = P.shape
    labels = np.full((B, n_x), -1, dtype=np.int64)
    single = _risk(criterion, P, p_s)  # (B, x): omega({x})
    Q = high.copy()
    is_open = np.zeros(B, dtype=bool)
    a = np.zeros((B, n_s))
    cur = np.full(B, -1, dtype=np.int64)
    n_blocks = np.zeros(B, dtype=np.int64)
    sums = np.zeros((B, n_s, n_x))  # block column sums, as the reference accumulates them
    while True:
        start = ~is_open & Q.any(axis=1)
        if not (start.any() or is_open.any()):
            break
        if start.any() and outer_loop == "printed":
            idx = np.flatnonzero(start)
            rem = _seqsum_batch(P[idx], Q[idx])
            ok = ~_violated(criterion, rem[:, :, None], p_s[idx])[:, 0]
            idx, rem = idx[ok], rem[ok]
            if idx.size:  # the remainder becomes one block and the loop ends
                labels[idx] = np.where(Q[idx], n_blocks[idx][:, None], labels[idx])
                sums[idx, :, n_blocks[idx]] = rem
                n_blocks[idx] += 1
                Q[idx] = False
                start[idx] = False
        if start.any():
            idx = np.flatnonzero(start)
            x0 = _masked_arg(single[idx], Q[idx], largest=True)
            labels[idx, x0] = n_blocks[idx]
            cur[idx] = n_blocks[idx]
            n_blocks[idx] += 1
            Q[idx, x0] = False
            a[idx] = P[idx, :, x0]
            is_open[idx] = True
        if is_open.any():
            idx = np.flatnonzero(is_open)
            v = _violated(criterion, a[idx][:, :, None], p_s[idx])[:, 0]
            grow = v & Q[idx].any(axis=1)
            done = idx[~grow]
            is_open[done] = False
            sums[done, :, cur[done]] = a[done]
            g = idx[grow]
            if g.size:
                cand = a[g][:, :, None] + P[g]  # (g, s, x); only the columns in Q are candidates
                x_star = _masked_arg(_risk(criterion, cand, p_s[g]), Q[g], largest=False)
                labels[g, x_star] = cur[g]
                Q[g, x_star] = False
                a[g] = a[g] + P[g, :, x_star]
    # lines 13-17: merge the last block with the others while it violates (only where |G| > 1)
    K = int(n_blocks.max()) if B else 0
    if K > 1:
        sums = sums[:, :, :K]
        alive = np.arange(K)[None, :] < n_blocks[:, None]
        last = n_blocks - 1
        while True:
            rows = np.flatnonzero(alive.sum(axis=1) > 1)
            if rows.size == 0:
                break
            lastcol = sums[rows, :, last[rows]]
            v = _violated(criterion, lastcol[:, :, None], p_s[rows])[:, 0]
            rows, lastcol = rows[v], lastcol[v]
            if rows.size == 0:
                break
            others = alive[rows].copy()
            others[np.arange(rows.size), last[rows]] = False
            cand = sums[rows] + lastcol[:, :, None]  # (c, s, K)
            i = _masked_arg(_risk(criterion, cand, p_s[rows]), others, largest=False)
            labels[rows] = np.where(labels[rows] == i[:, None], last[rows][:, None], labels[rows])
            sums[rows, :, last[rows]] = lastcol + sums[rows, :, i]
            alive[rows, i] = False
        # renumber the blocks 0, 1, ... in order (the reference's list order)
        new_id = np.cumsum(alive, axis=1) - 1
        labels = np.where(labels >= 0, np.take_along_axis(new_id, np.maximum(labels, 0), axis=1), -1)
    return labels


def _seqsum_batch(P: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``sum_{x: mask} P[b, :, x]`` added in increasing x, one column at a time (as :func:`_seqsum`)."""
    out = np.zeros(P.shape[:2])
    for x in range(P.shape[2]):
        out = out + np.where(mask[:, None, x], P[:, :, x], 0.0)
    return out


def _repair_batch(P, p_s, labels, criterion, rule):
    B, n_s, n_x = P.shape
    labels = labels.copy()
    K = int(labels.max()) + 1 if labels.size else 0
    if K == 0:
        return labels
    single = _risk(criterion, P, p_s)
    sums = np.stack([_seqsum_batch(P, labels == k) for k in range(K)], axis=2)  # (B, s, K)
    exists = np.stack([(labels == k).any(axis=1) for k in range(K)], axis=1)
    bad = _violated(criterion, sums, p_s) & exists  # (B, K)
    for k in range(K):
        rows = np.flatnonzero(bad[:, k])
        col = sums[rows, :, k]
        while rows.size:
            low = labels[rows] == -1
            v = _violated(criterion, col[:, :, None], p_s[rows])[:, 0] & low.any(axis=1)
            rows, col, low = rows[v], col[v], low[v]
            if rows.size == 0:
                break
            if rule == "greedy":
                j = _masked_arg(_risk(criterion, col[:, :, None] + P[rows], p_s[rows]), low, largest=False)
            else:
                j = _masked_arg(single[rows], low, largest=False)
            labels[rows, j] = k
            col = col + P[rows, :, j]
    return labels


@contract(p_sx=Array(3, low=0.0, max_size=MAX_ENTRIES), labels=Array(2, integer=True, low=-1))
def merging_performance(p_sx: Any, labels: Any) -> dict[str, np.ndarray]:
    """Utility and leakages of merging mechanisms given by ``labels[b, x]`` (see :func:`merge_labels`).

    Returns arrays over the batch: ``nmi`` (eq. 13 over ``H(X)``), ``max_leak`` (``log max_y
    Lambda(y)``), ``min_leak`` (``|log min_y Psi(y)|``) and ``ldp_leak`` (``max_y log Gamma(y)``),
    in nats, over the published symbols and the super-symbols; ``n_merged`` (symbols merged) and
    ``n_blocks``.
    """
    P = np.asarray(p_sx, dtype=float)
    lab = np.asarray(labels, dtype=np.int64)
    if lab.shape != (P.shape[0], P.shape[2]):
        raise ValueError(f"labels must have shape (n_dist, n_x) = {(P.shape[0], P.shape[2])}, got {lab.shape}")
    B, n_s, n_x = P.shape
    bad = np.flatnonzero(np.abs(P.sum(axis=(1, 2)) - 1.0) > 1e-9 * max(1, n_s * n_x))
    if bad.size:  # the marginals below are P's sums: a batch entry not summing to 1 gave NaN or a wrong NMI
        raise ValueError(
            f"p_sx must hold joint distributions (each p_sx[b] summing to 1); p_sx[{bad[0]}] sums to "
            f"{P[bad[0]].sum():.6g}"
        )
    p_s, p_x = P.sum(axis=2), P.sum(axis=1)
    K = max(int(lab.max()) + 1, 1)
    member = lab[:, None, :] == np.arange(K)[None, :, None]  # (B, K, x)
    sums = np.einsum("bsx,bkx->bsk", P, member.astype(float))  # (B, s, K)
    cols = np.concatenate([P, sums], axis=2)  # (B, s, x + K)
    keep = np.concatenate([lab == -1, member.any(axis=2)], axis=1)  # published columns
    with np.errstate(divide="ignore", invalid="ignore"):
        logL = np.log(cols) - np.log(p_s)[:, :, None] - np.log(cols.sum(axis=1))[:, None, :]
    hi, lo = logL.max(axis=1), logL.min(axis=1)
    max_leak = np.where(keep, hi, -np.inf).max(axis=1)
    min_leak = -np.where(keep, lo, np.inf).min(axis=1)
    ldp_leak = np.where(keep, hi - lo, -np.inf).max(axis=1)
    p_blk = sums.sum(axis=1)  # (B, K)
    pb = np.take_along_axis(p_blk, np.maximum(lab, 0), axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        loss = np.where(lab >= 0, p_x * np.log(pb / p_x), 0.0).sum(axis=1)
        h = -(p_x * np.log(p_x)).sum(axis=1)
    return {
        "nmi": (h - loss) / h,
        "max_leak": max_leak,
        "min_leak": min_leak,
        "ldp_leak": ldp_leak,
        "n_merged": (lab >= 0).sum(axis=1),
        "n_blocks": member.any(axis=2).sum(axis=1),
    }


# --------------------------------------------------------------------------------------------
# Mechanism objects (the cross-paper chapter applies every measure to every mechanism)
# --------------------------------------------------------------------------------------------


__all__ += ["SecretChannelMechanism", "Watchdog"]


class SecretChannelMechanism(ChannelMechanism):
    r"""A mechanism on X whose privacy claim is about a secret S behind X (lift-based mechanisms).

    The channel is ``C[x, y] = P(y | x)``; the claim is eps-LDP *for the secret S*: the privacy
    channel is ``P(y | s) = sum_x P(x | s) C[x, y]`` (:meth:`privacy_log_channel`).  An
    ``(eps_l, eps_u)``-ALIP mechanism (Zarrabian et al., Def. 3) satisfies
    ``Psi(y) >= e^{-eps_l}`` and ``Lambda(y) <= e^{eps_u}``, hence
    ``max_y Lambda(y) / Psi(y) <= e^{eps_l + eps_u}``: it is ``(eps_l + eps_u)``-LDP w.r.t. S
    (Prop. 1.4 there).  That is the :attr:`guarantee`; :meth:`check` verifies it on the exact
    ``P(y | s)``.  The joint ``p_sx`` (rows = secrets, columns = inputs) must give X full support.
    """

    family = "secret-channel"

    def _init_secret(self, channel: np.ndarray, p_sx: np.ndarray, eps_l: float, eps_u: float) -> None:
        ChannelMechanism.__init__(self, channel, epsilon=eps_l + eps_u, family=type(self).family)
        self.p_sx = p_sx
        self.eps_l, self.eps_u = float(eps_l), float(eps_u)
        self._guarantee = Guarantee("ldp", eps_l + eps_u, about="the secret S")

    def privacy_log_channel(self) -> np.ndarray:
        """``log P(y | s)`` with ``P(y | s) = sum_x P_{X|S}(x | s) C[x, y]`` (-inf for zeros)."""
        p_x_given_s = self.p_sx / self.p_sx.sum(axis=1, keepdims=True)
        with np.errstate(divide="ignore"):
            return np.log(p_x_given_s @ self.channel())

    def output_joint(self) -> np.ndarray:
        """``P_SY = P_SX C`` (rows = secrets)."""
        return self.p_sx @ self.channel()

    def params(self) -> dict[str, Any]:
        return {"shape": self.shape, "eps_l": self.eps_l, "eps_u": self.eps_u}


class Watchdog(SecretChannelMechanism):
    r"""The watchdog mechanism (Zarrabian et al., Sec. III-IV) as a :class:`~ldpnb.mechanisms.Mechanism`.

    Symbols of X whose lift column violates ``(eps_l, eps_u)``-ALIP (eqs. 6-7) are merged, all into
    one super-symbol (``merging="complete"``, eqs. 8-11) or block by block (``merging="subset"``,
    Algorithm 1); the others are published as they are.  Channel: :meth:`MergeMechanism.channel`
    (0/1 entries, so its eps-LDP level w.r.t. X is infinite whenever some symbol is published).
    Claim: ``(eps_l + eps_u)``-LDP for the secret S (see :class:`SecretChannelMechanism`); it holds
    unless the merged block still violates ALIP (then :meth:`check` is falsy; ``repair`` names a
    repair rule of :func:`complete_merging`, not in the paper).

    Parameters
    ----------
    p_sx : array (n_s, n_x)
        The joint distribution of the secret and the data (full-support marginals).
    eps_l, eps_u : float
        The ALIP budgets (> 0).
    merging : {"complete", "subset"}
    repair : {None, "least_risky", "greedy"}
    """

    family = "watchdog"

    @contract(p_sx=_JOINT, eps_l=EPSILON, eps_u=EPSILON, merging=OneOf("complete", "subset"), repair=_REPAIR)
    def __init__(
        self, p_sx: Any, eps_l: float, eps_u: float, *, merging: str = "complete", repair: str | None = None
    ) -> None:
        p_sx = _check_joint(p_sx, "p_sx")
        crit = ALIP(float(eps_l), float(eps_u))
        if merging == "complete":
            self.merge = complete_merging(p_sx, crit, repair=repair)
        else:
            self.merge = subset_merging(p_sx, crit, repair=repair)
        self.merging = merging
        self._init_secret(self.merge.channel(), p_sx, float(eps_l), float(eps_u))

    def params(self) -> dict[str, Any]:
        return {"merging": self.merging, "eps_l": self.eps_l, "eps_u": self.eps_u}
