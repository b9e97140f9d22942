"""Re-identification by profile matching over repeated collections (SMP and RS+FD).

Arcolezi, Gambs, Couchot and Palamidessi (2023), Sections 3.2 and 4.
"""

from __future__ import annotations

from math import comb
from typing import Any, Sequence

import numpy as np

from ldpnb.attacks.deniability import pd_attack_support, perturb_and_infer
from ldpnb.attacks.inference import aif_bayes
from ldpnb.contracts import (
    EPSILON,
    MAX_ENTRIES,
    SEED,
    Array,
    Boolean,
    Dataset,
    Instance,
    Integer,
    OneOf,
    Optional,
    Unchecked,
    contract,
)
from ldpnb.mechanisms import multidim as md
from ldpnb.utils import check_dataset, check_random_state

#: Number of attributes of a survey design (the matching enumerates attribute subsets).
_D = Integer(2, 62)
#: Surveys in a chain: at most 2**10.
_SURVEYS = Integer(1, 1 << 10)
_KS = Optional(Array(1, integer=True, low=2))
_TOPK = Array(1, integer=True, low=1, max_size=1 << 10)
_IDS = Optional(Array(1, integer=True, low=0))
_DESIGN = Optional(Instance(list, tuple, example=None))

__all__ = [
    "survey_design",
    "simulate_smp_surveys",
    "ReidIndex",
    "reid_topk",
    "reid_topk_sampled",
    "rsfd_reid_chain",
]


# ---------------------------------------------------------------------------------------------
# repeated SMP surveys (Secs. 3.2.2-3.2.4)
# ---------------------------------------------------------------------------------------------
@contract(d=_D, n_surveys=_SURVEYS, rng=SEED, mode=OneOf("artifact", "all"))
def survey_design(d: int, n_surveys: int, *, rng=None, mode: str = "artifact") -> list[np.ndarray]:
    """Attribute subsets of the surveys: ``d_sv ~ U{round(d/2), ..., d-1}`` (artifact's
    ``randint(round(d/2), d)``; the paper says "Uniform(d/2, ..., d)") and a random subset of
    that size, shared by all users.  ``mode="all"``: every survey asks all d attributes."""
    rng = check_random_state(rng)
    out = []
    for _ in range(int(n_surveys)):
        if mode == "all":
            out.append(np.arange(d))
            continue
        lo = int(round(d / 2))
        size = int(rng.integers(lo, d)) if d > lo else d
        out.append(np.sort(rng.choice(d, size=size, replace=False)))
    return out


@contract(
    X=Dataset(),
    ks=_KS,
    protocol=OneOf(*md.PROTOCOLS),
    eps=Unchecked("a budget > 0, or one per attribute; inf = sent in clear (perturb_and_infer checks it)", 1.0),
    n_surveys=_SURVEYS,
    setting=OneOf("uniform", "non-uniform"),
    design=_DESIGN,
    rng=SEED,
)
def simulate_smp_surveys(
    X, ks, protocol: str, eps, n_surveys: int = 5, setting: str = "uniform", *, design=None, rng=None
) -> dict:
    """Repeated SMP collections with plausible-deniability inference.

    In survey ``sv`` (attribute subset ``design[sv]``) every user reports one attribute:

    * ``setting="uniform"`` (uniform privacy metric): a uniformly random attribute of the survey
      not yet reported by this user (falling back to any unreported attribute);
    * ``setting="non-uniform"``: a uniform attribute of the survey; if already reported the
      memoised report is re-sent (no new information, no new privacy loss).

    ``eps`` is a scalar or one budget per attribute (``inf`` = value sent in clear).

    Returns a dict with ``profiles`` (list, after each survey, of (n, d) int arrays of inferred
    values, -1 = unknown), ``n_reports`` (fresh reports per user: total privacy loss is
    ``eps * n_reports``, Sec. 3.2.3) and ``design``.
    """
    X, ks = check_dataset(X, ks)
    rng = check_random_state(rng)
    n, d = X.shape
    e = np.asarray(eps)
    if e.dtype.kind not in "iuf" or e.ndim > 1 or (e.ndim == 1 and e.size != d):
        raise TypeError(f"eps must be a budget > 0 or one per attribute ({d}), got {eps!r:.60}")
    epsv = np.broadcast_to(e.astype(float), (d,)).copy()
    if not np.all(epsv > 0):  # NaN fails too; inf = sent in clear
        raise ValueError(f"eps must be > 0 (inf = sent in clear), got {eps!r:.60}")
    if setting not in ("uniform", "non-uniform"):
        raise ValueError("setting must be 'uniform' or 'non-uniform'")
    if design is None:
        design = survey_design(d, n_surveys, rng=rng)
    V = np.full((n, d), -1, dtype=np.int64)
    n_reports = np.zeros(n, dtype=np.int64)
    profiles = []
    for attrs in design[:n_surveys]:
        in_sv = np.zeros(d, dtype=bool)
        in_sv[attrs] = True
        known = V >= 0
        if setting == "uniform":
            avail = in_sv[None, :] & ~known
            none = ~avail.any(axis=1)
            avail[none] = ~known[none]
            scores = rng.random((n, d))
            scores[~avail] = -1.0
            a = scores.argmax(axis=1)
            fresh = avail.any(axis=1)
        else:
            a = np.asarray(attrs)[rng.integers(0, len(attrs), size=n)]
            fresh = ~known[np.arange(n), a]
        for j in range(d):
            u = np.flatnonzero(fresh & (a == j))
            if u.size:
                V[u, j] = perturb_and_infer(X[u, j], int(ks[j]), epsv[j], protocol, rng=rng)
        n_reports += fresh
        profiles.append(V.copy())
    return {"profiles": profiles, "n_reports": n_reports, "design": design}


# ---------------------------------------------------------------------------------------------
# re-identification (matching R + decision G)
# ---------------------------------------------------------------------------------------------
class ReidIndex:
    """Background knowledge D_BK (N, d) with per-attribute-subset count tables (cached).

    ``count(T, values)`` returns how many background records equal ``values`` on the attribute
    subset ``T`` (a bitmask); tables are built on first use and reused across evaluations. A subset
    whose joint domain has at most ``dense_limit`` cells (default: N, the background size) gets a dense
    table (one gather per lookup); a larger one a sorted table of the background's distinct keys (a
    binary search per lookup), so no table is larger than about the background itself."""

    @contract(background=Dataset(), ks=_KS, dense_limit=Optional(Integer(0, MAX_ENTRIES)))
    def __init__(self, background, ks=None, *, dense_limit: int | None = None):
        self.B, self.ks = check_dataset(background, ks)
        self.N, self.d = self.B.shape
        self.dense_limit = self.N if dense_limit is None else int(dense_limit)
        self._cache: dict[int, tuple] = {}

    def _cols(self, T: int) -> np.ndarray:
        return np.flatnonzero((T >> np.arange(self.d)) & 1)

    def _table(self, T: int):
        tab = self._cache.get(T)
        if tab is None:
            cols = self._cols(T)
            mult = np.cumprod(np.concatenate([[1], self.ks[cols][:-1]])).astype(np.int64)
            size = float(np.prod(self.ks[cols].astype(float)))
            if size > 2**62:
                raise ValueError("attribute subset too large for integer keys")
            keys = _keys(self.B.T, cols, mult)
            if size <= self.dense_limit:
                tab = (cols, mult, np.bincount(keys, minlength=int(size)).astype(np.int32), None)
            else:
                uk, cnt = np.unique(keys, return_counts=True)
                tab = (cols, mult, uk, cnt)
            self._cache[T] = tab
        return tab

    def _check_query(self, T: Any, columns: Any, rows: Any) -> tuple[int, np.ndarray, np.ndarray | None]:
        """``T`` a non-empty subset of the d attributes; the codes of its attributes in their domains."""
        if isinstance(T, (bool, np.bool_)) or not isinstance(T, (int, np.integer)) or not 1 <= T < (1 << self.d):
            raise ValueError(
                f"T must be a non-empty subset of the {self.d} attributes (a bitmask in [1, {(1 << self.d) - 1}]), got {T!r}"
            )
        C = np.asarray(columns)
        if C.ndim != 2 or C.shape[0] != self.d or C.dtype.kind not in "iu":
            raise ValueError(
                f"columns must be an integer array of {self.d} rows (one per attribute), got shape {C.shape}"
            )
        R = None if rows is None else np.asarray(rows, dtype=np.int64)
        if R is not None and R.size and (R.min() < 0 or R.max() >= C.shape[1]):
            raise ValueError(f"rows must index the {C.shape[1]} profiles")
        for c in self._cols(int(T)):
            v = C[c] if R is None else C[c][R]
            if v.size and (v.min() < 0 or v.max() >= self.ks[c]):
                raise ValueError(
                    f"columns (values): attribute {c} of T needs codes in {{0..{int(self.ks[c]) - 1}}}, "
                    f"got {v.min()}..{v.max()}"
                )
        return int(T), C, R

    def count(self, T: int, values: np.ndarray) -> np.ndarray:
        """Background records equal to each row of ``values`` (n, d) on the attributes of ``T``
        (a bitmask in ``[1, 2^d)``; the codes of those attributes in ``{0..k_j-1}``)."""
        V = np.asarray(values)
        if V.ndim != 2:
            raise ValueError(f"values must be a 2-D array (n, {self.d}), got shape {V.shape}")
        return self.count_columns(T, V.T, None)

    def count_columns(self, T: int, columns: np.ndarray, rows: np.ndarray | None) -> np.ndarray:
        """:meth:`count` of the profiles given column-wise, ``columns`` (d, n), restricted to ``rows``."""
        return self._count_columns(*self._check_query(T, columns, rows))

    def _count_columns(self, T: int, columns: np.ndarray, rows: np.ndarray | None) -> np.ndarray:
        cols, mult, uk, cnt = self._table(T)
        keys = _keys(columns, cols, mult, rows)
        if cnt is None:  # dense table
            return uk[keys]
        pos = np.searchsorted(uk, keys)
        pos = np.minimum(pos, uk.size - 1)
        return np.where(uk[pos] == keys, cnt[pos], 0)


def _keys(columns: np.ndarray, cols: np.ndarray, mult: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
    """Mixed-radix keys of the attributes ``cols`` of profiles given column-wise (``columns[j]`` is
    attribute j), for the profiles ``rows`` (all if None); one column at a time, no (n, d) copy."""
    keys = None
    for c, m in zip(cols, mult):
        v = columns[c] if rows is None else columns[c][rows]
        keys = v * m if keys is None else keys + v * m
    return keys


def _submasks(b: int):
    s = b
    while s:
        yield s
        s = (s - 1) & b


@contract(
    profiles=Array(2, integer=True, low=-1),
    background=Unchecked("a ReidIndex or a dataset (the index checks it)", np.array([[0, 1], [1, 0]])),
    topk=_TOPK,
    attrs=_IDS,
    true_ids=_IDS,
    ks=_KS,
    per_user=Boolean(),
)
def reid_topk(
    profiles,
    background,
    topk: Sequence[int] = (1, 5, 10),
    *,
    attrs=None,
    true_ids=None,
    ks=None,
    per_user: bool = False,
):
    r"""RID-ACC (%) of the top-k matching attack with uniformly random tie-breaking, computed as an
    exact expectation.

    The attacker ranks background records by the number of profile attributes they match
    (Hamming similarity on the known attributes present in the background) and outputs the
    first ``k`` records, ties broken uniformly at random.  For user u with m known attributes,
    ``n_c`` = number of records matching exactly c of them is obtained from
    :math:`M_j = \sum_{|T|=j,\,T\subseteq P} N(T) = \sum_{c\ge j}\binom{c}{j} n_c` (N(T): records
    equal to the profile on T).  With s* the number of correctly inferred attributes (the true
    record matches exactly those), A = records strictly better, B = n_{s*} (ties incl. the truth):
    :math:`P(\text{hit}) = \mathbb 1[A<k]\,\min(B, k-A)/B`.

    Parameters
    ----------
    profiles : int (n, d), -1 = unknown.
    background : ReidIndex or int array (N, d) (D_BK; row ``true_ids[u]`` is user u's record).
    attrs : optional attribute indices available in the background (PK-RI); others ignored.
    """
    index = background if isinstance(background, ReidIndex) else ReidIndex(background, ks)
    P = np.asarray(profiles, dtype=np.int64)
    n, d = P.shape
    if d != index.d:
        raise ValueError("profiles and background must have the same number of attributes")
    over = P >= index.ks[None, :]
    if np.any(over):
        j = int(np.flatnonzero(over.any(axis=0))[0])
        raise ValueError(
            f"profiles: attribute {j} holds the value {int(P[:, j].max())}, outside its domain "
            f"{{0..{int(index.ks[j]) - 1}}} (-1 = unknown)"
        )
    if true_ids is None:
        if n != index.N:
            raise ValueError("true_ids is required when profiles and background differ in size")
        true_ids = np.arange(n)
    true_ids = np.asarray(true_ids, dtype=np.int64)
    if true_ids.shape != (n,) or (n and int(true_ids.max()) >= index.N):
        raise ValueError(f"true_ids must hold one background row in {{0..{index.N - 1}}} per profile ({n})")
    if attrs is not None and np.asarray(attrs).size and int(np.max(attrs)) >= d:
        raise ValueError(f"attrs must be attribute indices in {{0..{d - 1}}}, got max {int(np.max(attrs))}")
    topk = [int(t) for t in topk]
    known = P >= 0
    if attrs is not None:
        amask = np.zeros(d, dtype=bool)
        amask[np.asarray(attrs, dtype=int)] = True
        known &= amask[None, :]
    bits = known.astype(np.int64) @ (1 << np.arange(d, dtype=np.int64))
    m = known.sum(axis=1)
    mmax = int(m.max()) if n else 0
    # users grouped by their mask of known attributes: the users whose mask contains T are the
    # groups of the masks containing T (no scan of all n users per subset T)
    ub, inv, cnt = np.unique(bits, return_inverse=True, return_counts=True)
    order = np.argsort(inv, kind="stable")
    PvT = np.ascontiguousarray(np.where(known, P, 0)[order].T)  # (d, n), users in group order
    Mt = np.zeros((mmax + 1, n), dtype=np.int64)
    Mt[0] = index.N
    Ts = set()
    for b in ub:
        Ts.update(_submasks(int(b)))
    few = ub.size * 8 < n  # few groups: expand the groups' test, else test each user's mask
    bits_g = bits[order]
    for T in Ts:
        sel = np.flatnonzero(np.repeat((ub & T) == T, cnt) if few else (bits_g & T) == T)
        Mt[bin(T).count("1"), sel] += index._count_columns(T, PvT, sel)  # codes checked above
    M = np.empty_like(Mt.T)
    M[order] = Mt.T
    # n_c from M_j = sum_{c>=j} C(c, j) n_c  (backward substitution)
    ncount = np.zeros_like(M)
    for c in range(mmax, -1, -1):
        acc = M[:, c].copy()
        for c2 in range(c + 1, mmax + 1):
            acc -= comb(c2, c) * ncount[:, c2]
        ncount[:, c] = acc
    truth = index.B[true_ids]
    s_star = (known & (P == truth)).sum(axis=1)
    cidx = np.arange(mmax + 1)[None, :]
    A = np.where(cidx > s_star[:, None], ncount, 0).sum(axis=1)
    B = ncount[np.arange(n), s_star]
    if np.any(B < 1):
        raise ValueError("a user's true record is missing from the background")
    out = {}
    for k in topk:
        hit = np.where(A >= k, 0.0, np.minimum(B, k - A) / B)
        out[k] = hit if per_user else 100.0 * float(hit.mean())
    return out


@contract(
    profiles=Array(2, integer=True, low=-1, max_size=1 << 20),
    background=Dataset(max_size=1 << 20),
    topk=_TOPK,
    true_ids=_IDS,
    attrs=_IDS,
    rng=SEED,
)
def reid_topk_sampled(
    profiles, background, topk: Sequence[int] = (1, 10), *, true_ids=None, attrs=None, rng=None
) -> dict:
    """RID-ACC (%) with explicit random tie-breaking, naive O(n N m) matching (artifact-like);
    for validating :func:`reid_topk` on small instances."""
    rng = check_random_state(rng)
    P = np.asarray(profiles, dtype=np.int64)
    Bk = np.asarray(background, dtype=np.int64)
    n, d = P.shape
    true_ids = np.arange(n) if true_ids is None else np.asarray(true_ids)
    known = P >= 0
    if attrs is not None:
        amask = np.zeros(d, dtype=bool)
        amask[np.asarray(attrs, dtype=int)] = True
        known &= amask[None, :]
    hits = {int(k): 0 for k in topk}
    for u in range(n):  # validation only (small n)
        sim = ((Bk == P[u]) & known[u]).sum(axis=1)
        order = np.lexsort((rng.random(sim.size), -sim))
        for k in hits:
            hits[k] += int(true_ids[u] in order[:k])
    return {k: 100.0 * v / n for k, v in hits.items()}


@contract(
    X=Dataset(),
    ks=_KS,
    eps=EPSILON,
    n_surveys=_SURVEYS,
    design=_DESIGN,
    index=Optional(Unchecked("a ReidIndex of X", None)),
    topk=_TOPK,
    resample=OneOf("new", "replace"),
    protocol=OneOf(*md._RSFD_PROTOCOLS),
    fake=OneOf(*md._FAKES),
    rng=SEED,
)
def rsfd_reid_chain(
    X,
    ks,
    eps: float,
    n_surveys: int = 5,
    *,
    design=None,
    index=None,
    topk: Sequence[int] = (1, 10),
    resample: str = "new",
    protocol: str = "grr",
    fake: str = "uniform",
    rng=None,
) -> dict:
    """RID on RS+FD across surveys (Sec. 4.4, Fig. 4: RS+FD[GRR]; ``protocol``/``fake`` select any
    RS+FD variant, e.g. ``("sue", "zero")`` for RS+FD[SUE-z]).

    In survey sv (attribute subset A_sv, d_sv attributes), users run RS+FD over A_sv with
    eps'_sv = ln(d_sv (e^eps - 1) + 1), sampling an attribute they have not sampled before
    (``resample="new"``, the paper's uniform metric; ``"replace"``: with replacement, the
    artifact's effective behaviour).  The server estimates the marginals, the NK attacker
    predicts each user's sampled attribute with the Bayes plug-in rule and records
    (predicted attribute, reported value) if that attribute is not yet in the profile (UE: the
    plausible-deniability guess from the predicted attribute's bits, Sec. 3.2.1); after
    each survey >= 2 the profiles are matched against the full background (FK-RI).

    Returns ``{"rid": {n_surveys: {k: %}}, "aif": [per-survey AIF-ACC %]}``.
    """
    X, ks = check_dataset(X, ks)
    protocol = md._check_protocol(protocol, md._RSFD_PROTOCOLS)
    fake = md._check_fake(protocol, fake)
    if fake == "prior":
        raise ValueError("rsfd_reid_chain runs RS+FD (fake='uniform', 'zero' or 'random'), not RS+RFD")
    rng = check_random_state(rng)
    n, d = X.shape
    if design is None:
        design = survey_design(d, n_surveys, rng=rng)
    if index is None:
        index = ReidIndex(X, ks)
    V = np.full((n, d), -1, dtype=np.int64)
    sampled = np.zeros((n, d), dtype=bool)
    rid, aif = {}, []
    for sv, A in enumerate(design[:n_surveys], start=1):
        A = np.asarray(A)
        if resample == "new":
            avail = sampled[:, A].copy()
            avail = ~avail
            none = ~avail.any(axis=1)
            avail[none] = True
            scores = rng.random(avail.shape)
            scores[~avail] = -1.0
            tl = scores.argmax(axis=1)
        else:
            tl = rng.integers(0, A.size, size=n)
        sampled[np.arange(n), A[tl]] = True
        reps, _ = md.rsfd_collect(X[:, A], ks[A], eps, protocol, fake, rng=rng, sampled=tl)
        f_hat = md.rsfd_aggregate(reps, ks[A], eps, protocol, fake)
        that = aif_bayes(reps, ks[A], eps, protocol, fake, f_hat, rng=rng)
        aif.append(100.0 * float(np.mean(that == tl)))
        attr = A[that]
        if np.asarray(reps[0]).ndim == 1:  # GRR: the reported value
            val = np.stack(reps, axis=1)[np.arange(n), that]
        else:  # UE: a uniform set bit of the predicted attribute (uniform value if none)
            val = np.empty(n, dtype=np.int64)
            for i in range(A.size):
                u = np.flatnonzero(that == i)
                if u.size:
                    val[u] = pd_attack_support(np.asarray(reps[i])[u], rng=rng)
        new = V[np.arange(n), attr] < 0
        V[np.flatnonzero(new), attr[new]] = val[new]
        if sv >= 2:
            rid[sv] = reid_topk(V, index, topk)
    return {"rid": rid, "aif": aif, "design": design}


# ---------------------------------------------------------------------------------------------
# experiment drivers used by the chapter (loops over parameters, not over users)
# ---------------------------------------------------------------------------------------------
@contract(d=_D, rng=SEED)
def pk_attribute_subset(d: int, *, rng=None) -> np.ndarray:
    """PK-RI background attributes: a random subset of size ~ U{round(d/2), ..., d-1} (artifact)."""
    rng = check_random_state(rng)
    lo = int(round(d / 2))
    size = int(rng.integers(lo, d)) if d > lo else d
    return np.sort(rng.choice(d, size=size, replace=False))
