"""Linkage of obfuscated traces to users: the first-order Markov-chain matcher and the
single-location attack.

Murakami and Takahashi (2021), Section 5.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import sparse

from ldpnb.contracts import (
    DECIMALS,
    EPSILON,
    MAX_ENTRIES,
    MAX_REPS,
    REPS,
    SAMPLE_SIZE,
    SEED,
    AnyOf,
    Array,
    Integer,
    OneOf,
    Optional,
    Real,
    Unchecked,
    contract,
)
from ldpnb.measures.pse import best_score_error_rate, genuine_impostor, kl_mixed_1d, pse_subsamples
from ldpnb.measures.reidentification import _unit_scale, theta_rr
from ldpnb.stats import subsample_se
from ldpnb.utils import check_random_state

__all__ = [
    "sequences_from_events",
    "split_halves",
    "MarkovChainMatcher",
    "SingleLocationAttack",
    "score_matrix",
    "score_experiment",
]

#: Number of distinct items (locations, movies) a matcher indexes: at most 2**24.
_ITEMS = Integer(1, 1 << 24)


_SEQS_RULE = "a non-empty list of non-empty 1-D sequences of integer codes >= 0, one per user"
_SEQS = Unchecked(_SEQS_RULE + " (checked in the body, at once)", example=[[0, 1, 1], [1, 0, 1]])


def _check_sequences(value, name: str) -> None:
    """Refuse what :data:`_SEQS` describes as invalid, naming ``name`` (vectorised over the users; the
    upper bound ``k`` is checked by the caller).  A fractional code was truncated by the conversion to
    int64; a string, ``None`` or an object failed inside it with a message that named no argument."""

    def fail(kind: type[Exception], detail: str) -> Exception:
        shown = repr(value) if not isinstance(value, np.ndarray) else f"an array of shape {value.shape}"
        shown = shown if len(shown) <= 80 else shown[:77] + "..."
        return kind(f"{name} must be {_SEQS_RULE}, got {shown} ({type(value).__name__}): {detail}")

    if not isinstance(value, (list, tuple, np.ndarray)) or (isinstance(value, np.ndarray) and value.ndim == 0):
        raise fail(TypeError, "not a list")
    if len(value) == 0:
        raise fail(ValueError, "no sequence")
    parts = []
    for i, seq in enumerate(value):
        try:
            a = np.asarray(seq) if not isinstance(seq, (str, bytes)) else np.asarray(None)
        except (TypeError, ValueError):  # a ragged nesting
            raise fail(ValueError, f"entry {i} is not 1-D") from None
        if a.dtype == bool or a.dtype.kind not in "iuf":
            raise fail(TypeError, f"entry {i} holds {a.dtype} values")
        if a.ndim != 1 or a.size == 0:
            raise fail(ValueError, f"entry {i} has shape {a.shape}")
        parts.append(a)
    flat = np.concatenate(parts)
    if flat.dtype.kind == "f" and not (np.all(np.isfinite(flat)) and np.all(flat == np.round(flat))):
        raise fail(ValueError, "fractional or non-finite codes")
    if flat.min() < 0:
        raise fail(ValueError, f"min {flat.min()}")


def _check_visits(value) -> None:
    """``pi``: a 2-D (users x k) matrix, sparse or dense, of finite numbers >= 0 (a NaN passed the floor
    check, ``NaN <= floor`` being False; ``None`` or a string failed in the conversion)."""
    rule = "pi must be a 2-D (users x k) matrix, sparse or dense, of finite numbers >= 0"
    if value is None or isinstance(value, (str, bytes)):
        raise TypeError(f"{rule}, got {type(value).__name__}")
    try:
        m = sparse.csr_matrix(value, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{rule}, got {type(value).__name__} ({type(exc).__name__})") from None
    if m.ndim != 2 or min(m.shape) < 1:
        raise ValueError(f"{rule}, got shape {m.shape}")
    if m.nnz and not (np.all(np.isfinite(m.data)) and m.data.min() >= 0):
        raise ValueError(f"{rule}, got NaN, infinite or negative entries")


_SCORING = OneOf("raw", "offset")
_FLOOR = Real(0, 1, low_open=True, high_open=True)


# ---------------------------------------------------------------------------------------------
# Traces
# ---------------------------------------------------------------------------------------------


@contract(users=Array(1), times=Array(1), items=Array(1), min_events=Integer(1, MAX_ENTRIES))
def sequences_from_events(
    users, times, items, *, min_events: int = 1
) -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    """Chronological per-user sequences from an event table (the LT and RH traces of Sec. 5.1).

    Returns ``(seqs, user_ids, item_ids)``: ``seqs[i]`` is the item codes (0..k-1) of user
    ``user_ids[i]`` in time order (stable for equal times); ``item_ids[c]`` is the original id of
    code c.  Users with fewer than ``min_events`` events are dropped; item codes are assigned
    over the events of the kept users only (k = number of items they visited).
    """
    u = np.asarray(users)
    t = np.asarray(times)
    it = np.asarray(items)
    if not (u.shape == t.shape == it.shape):
        raise ValueError(f"users, times and items must have equal lengths, got {u.size}, {t.size}, {it.size}")
    order = np.lexsort((t, u))
    u, it = u[order], it[order]
    uid, start, cnt = np.unique(u, return_index=True, return_counts=True)
    keep_user = cnt >= min_events
    keep = np.repeat(keep_user, cnt)
    u, it = u[keep], it[keep]
    item_ids, codes = np.unique(it, return_inverse=True)
    cnt = cnt[keep_user]
    seqs = np.split(codes.astype(np.int64), np.cumsum(cnt)[:-1])
    return seqs, uid[keep_user], item_ids


@contract(seq=Array(1, min_size=0))
def split_halves(seq) -> tuple[np.ndarray, np.ndarray]:
    """Chronological split into the former half (training) and the latter half (X).

    For odd lengths the latter half gets the extra event (the paper splits "into two halves").
    """
    s = np.asarray(seq)
    h = s.size // 2
    return s[:h], s[h:]


# ---------------------------------------------------------------------------------------------
# Markov-chain matcher (Section 5.1)
# ---------------------------------------------------------------------------------------------


def _concat(seqs) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    lens = np.fromiter((len(s) for s in seqs), dtype=np.int64, count=len(seqs))
    if np.any(lens < 1):
        raise ValueError("every sequence must have at least one event")
    flat = np.concatenate([np.asarray(s, dtype=np.int64) for s in seqs])
    owner = np.repeat(np.arange(len(seqs)), lens)
    return flat, owner, lens


class MarkovChainMatcher:
    r"""First-order Markov-chain matcher with floored MLE parameters (paper Section 5.1).

    For user j with training sequence z_1..z_T: visit probabilities pi_j(x) = #{t: z_t = x}/T,
    transitions Lambda_j(b|a) = #{t: z_t=a, z_{t+1}=b}/#{t<T: z_t=a}; zero entries are replaced
    by ``floor`` (1e-8, no renormalisation).  The log-score of a query y_1..y_L for user j is

    .. math:: \log s_j = \ln\tilde\pi_j(y_1) + \sum_{t=1}^{L-1}\ln\tilde\Lambda_j(y_{t+1}|y_t),

    computed for all (query, user) pairs at once as ``A Ppi^T + C PLam^T + L ln(floor)`` with
    sparse one-hot / transition-count matrices.

    Every term of a query of :math:`L` events is at least :math:`\ln(\text{floor})`, so every score
    of that query carries the offset :math:`L\ln(\text{floor})` (-18.4 nats per event for the
    paper's :math:`10^{-8}`).  ``scoring="offset"`` removes it: the score becomes the log-likelihood
    ratio against the "floor" model that gives every event probability ``floor`` (0 for a user with
    no overlap with the query).  A per-query constant changes neither the best-score decision nor
    the error rate, but the PSE and the DET curve pool the scores of all queries.
    """

    @contract(floor=_FLOOR)
    def __init__(self, floor: float = 1e-8) -> None:
        self.floor = float(floor)

    @contract(train_seqs=_SEQS, k=_ITEMS)
    def fit(self, train_seqs, k: int) -> "MarkovChainMatcher":
        """Visit probabilities and transition matrices of every user from her training sequence."""
        _check_sequences(train_seqs, "train_seqs")
        flat, owner, lens = _concat(train_seqs)
        if flat.min() < 0 or flat.max() >= k:
            raise ValueError(f"training items must lie in 0..{k - 1}")
        n = len(train_seqs)
        lf = math.log(self.floor)
        pi = sparse.csr_matrix((np.ones(flat.size), (owner, flat)), shape=(n, k))
        pi.sum_duplicates()
        pi = sparse.diags(1.0 / lens) @ pi
        self.pi = pi.tocsr()
        logp = self.pi.copy()
        logp.data = np.log(logp.data) - lf
        self._Ppi = logp
        same = owner[1:] == owner[:-1]
        a, b, o = flat[:-1][same], flat[1:][same], owner[1:][same]
        codes = a * k + b
        self.pair_codes, pair_idx = np.unique(codes, return_inverse=True)
        cnt = sparse.csr_matrix((np.ones(codes.size), (o, pair_idx)), shape=(n, self.pair_codes.size))
        cnt.sum_duplicates()
        cnt = cnt.tocoo()
        src = self.pair_codes[cnt.col] // k
        out_key = cnt.row.astype(np.int64) * k + src
        _, inv = np.unique(out_key, return_inverse=True)
        out_deg = np.bincount(inv, weights=cnt.data)
        lam = cnt.data / out_deg[inv]
        self._PLam = sparse.csr_matrix((np.log(lam) - lf, (cnt.row, cnt.col)), shape=cnt.shape)
        self.k, self.n_users = k, n
        return self

    @contract(query_seqs=_SEQS, scoring=_SCORING)
    def log_scores(self, query_seqs, *, scoring: str = "raw") -> np.ndarray:
        r"""Natural-log scores, shape (n_queries, n_users); ``scoring="offset"`` drops :math:`L\ln(\text{floor})`."""
        if not hasattr(self, "pi"):
            raise ValueError("call fit() first")
        _check_sequences(query_seqs, "query_seqs")
        flat, owner, lens = _concat(query_seqs)
        if flat.min() < 0 or flat.max() >= self.k:
            raise ValueError(f"query items must lie in 0..{self.k - 1}")
        nq = len(query_seqs)
        first = flat[np.concatenate([[0], np.cumsum(lens)[:-1]])]
        A = sparse.csr_matrix((np.ones(nq), (np.arange(nq), first)), shape=(nq, self.k))
        S = (A @ self._Ppi.T).toarray()
        same = owner[1:] == owner[:-1]
        codes = flat[:-1][same] * self.k + flat[1:][same]
        o = owner[1:][same]
        if self.pair_codes.size == 0 or codes.size == 0:
            hit = np.zeros(codes.size, dtype=bool)
        else:
            pos = np.searchsorted(self.pair_codes, codes)
            pos_c = np.minimum(pos, self.pair_codes.size - 1)
            hit = (pos < self.pair_codes.size) & (self.pair_codes[pos_c] == codes)
        if hit.any():
            C = sparse.csr_matrix((np.ones(hit.sum()), (o[hit], pos_c[hit])), shape=(nq, self.pair_codes.size))
            S += (C @ self._PLam.T).toarray()
        if scoring == "raw":
            S += (lens * math.log(self.floor))[:, None]
        return S


# ---------------------------------------------------------------------------------------------
# Single obfuscated location (Figs. 8, 9)
# ---------------------------------------------------------------------------------------------


class SingleLocationAttack:
    r"""Re-identification of one obfuscated location per user (paper Section 5.3).

    The adversary (partial knowledge) holds each user's visit distribution pi_j from the former
    half of her trace; user i reports her true location ``x[i]`` obfuscated by the eps-RR or the
    (g, eps)-GLH.  The score of user j for a report whose preimage set is P (P = {y} for the RR,
    P = h^{-1}(y) for the GLH) is

    .. math:: s_j = \sum_{x\in P}\tilde\pi_j(x),

    monotone in the exact likelihood q_j(report) (for the RR, :math:`q_j(y) = \theta\tilde\pi_j(y) +
    (1-\theta)/k`); the decision is the best-score rule with random tie-breaking.
    """

    @contract(
        pi=Unchecked(
            "a sparse (users x k) matrix of visit probabilities (checked in the body)",
            example=sparse.csr_matrix(np.array([[0.5, 0.5], [1.0, 0.0]])),
        ),
        x=Array(1, low=0, integer=True),
        floor=_FLOOR,
    )
    def __init__(self, pi: sparse.spmatrix, x, *, floor: float = 1e-8) -> None:
        _check_visits(pi)
        self.pi = sparse.csr_matrix(pi, dtype=float)
        self.pi.sum_duplicates()
        self.pi.eliminate_zeros()
        self.n, self.k = self.pi.shape
        self.x = np.asarray(x, dtype=np.int64)
        if self.x.shape != (self.n,) or self.x.min() < 0 or self.x.max() >= self.k:
            raise ValueError("x must hold one location in 0..k-1 per user")
        if np.any(self.pi.data <= floor):
            raise ValueError("every nonzero pi must exceed the floor")
        self.floor = float(floor)
        self._excess = self.pi.copy()
        self._excess.data -= floor

    # ---- exact route for the RR ------------------------------------------------------------
    def _pi_at(self, users, locs) -> np.ndarray:
        v = np.asarray(self.pi[users, locs]).ravel()
        return np.where(v > 0, v, self.floor)

    def _column_stats(self):
        pic = self.pi.tocsc()
        nnz = np.diff(pic.indptr)
        colmax = np.full(self.k, self.floor)
        has = nnz > 0
        colmax[has] = np.maximum.reduceat(pic.data, pic.indptr[:-1][has])
        rep = np.repeat(colmax, nnz)
        attains = np.isclose(pic.data, rep, rtol=1e-12, atol=0)
        cnt = np.full(self.k, float(self.n))
        cnt[has] = np.add.reduceat(attains.astype(float), pic.indptr[:-1][has])
        return colmax, cnt, has

    @contract(epsilon=AnyOf(EPSILON, Array(1, low=float(np.finfo(float).tiny))), unit=OneOf("bits", "nats"))
    def rr_exact(self, epsilon, *, unit: str = "bits") -> dict:
        r"""Exact expected error rate and exact D(f_G||f_I) of the scores under the eps-RR.

        The RR keeps x with probability theta and otherwise reports a uniform location, so
        f_G = theta f_G^0 + (1-theta) u and f_I = theta f_I^0 + (1-theta) u with the
        clean score pmfs f_G^0, f_I^0 and the pmf u of pi~_j(y) for uniform y (the same for
        genuine and impostor pairs).  The error rate is the same mixture of the clean error and
        the error on a uniform location.
        """
        th = np.atleast_1d(np.asarray(theta_rr(self.k, epsilon), dtype=float))
        n, k, fl = self.n, self.k, self.floor
        colmax, cnt, has = self._column_stats()
        # errors
        gen0 = self._pi_at(np.arange(n), self.x)
        ok0 = np.isclose(gen0, colmax[self.x], rtol=1e-12, atol=0) / cnt[self.x]
        err_clean = float(np.mean(1 - ok0))
        coo = self.pi.tocoo()
        win = np.isclose(coo.data, colmax[coo.col], rtol=1e-12, atol=0) / cnt[coo.col]
        per_user = np.bincount(coo.row, weights=win, minlength=n) + (~has).sum() / n
        err_unif = float(np.mean(1 - per_user / k))
        # score pmfs over a common value grid
        pic = self.pi.tocsc()
        col_vals = pic.data
        imp_vals_list = []
        # clean impostor values: column x_i without user i
        starts, ends = pic.indptr[self.x], pic.indptr[self.x + 1]
        lens = ends - starts
        idx = np.repeat(starts - np.cumsum(np.concatenate([[0], lens[:-1]])), lens) + np.arange(lens.sum())
        owner = np.repeat(np.arange(n), lens)
        rows = pic.indices[idx]
        keep = rows != owner
        imp_vals = col_vals[idx][keep]
        n_floor_imp = n * (n - 1) - imp_vals.size
        imp_vals_list = [imp_vals, np.array([fl])]
        imp_w = np.concatenate([np.ones(imp_vals.size), [n_floor_imp]])
        allv = np.concatenate([gen0, np.concatenate(imp_vals_list), col_vals, [fl]])
        grid, inv = np.unique(np.round(allv, 15), return_inverse=True)
        i0 = 0
        fG0 = np.bincount(inv[i0 : i0 + n], minlength=grid.size) / n
        i0 += n
        fI0 = np.bincount(inv[i0 : i0 + imp_w.size], weights=imp_w, minlength=grid.size) / (n * (n - 1))
        i0 += imp_w.size
        u = np.bincount(inv[i0 : i0 + col_vals.size], minlength=grid.size) / (n * k)
        u[inv[-1]] += 1 - col_vals.size / (n * k)
        sc = _unit_scale(unit)
        pse = np.empty(th.size)
        for j, t in enumerate(th):  # loop over the few eps values only
            fg = t * fG0 + (1 - t) * u
            fi = t * fI0 + (1 - t) * u
            m = fg > 0
            with np.errstate(divide="ignore"):
                pse[j] = np.sum(fg[m] * np.log(fg[m] / fi[m])) * sc
        err = th * err_clean + (1 - th) * err_unif
        return dict(
            theta=th,
            error_rate=err,
            pse=pse,
            err_clean=err_clean,
            err_uniform=err_unif,
            u=u,
            fG0=fG0,
            fI0=fI0,
            grid=grid,
        )

    # ---- Monte Carlo for the RR and the GLH (random oracle) -----------------------------------
    def _preimages(
        self, mechanism: str, epsilon: float, g, reps: int, rng
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        n, k = self.n, self.k
        true = np.tile(np.arange(n), reps)
        xs = self.x[true]
        N = true.size
        if mechanism == "rr":
            th = theta_rr(k, epsilon)
            keep = rng.random(N) < th
            y = np.where(keep, xs, rng.integers(0, k, size=N))
            return true, np.arange(N), y
        if mechanism != "glh":
            raise ValueError("mechanism must be 'rr' or 'glh'")
        g = float(g)
        E = math.exp(epsilon)
        mu = E / (g + E - 1)
        own = rng.random(N) < mu  # y = h(x_i): x_i is in the preimage
        m = rng.binomial(k - 1, 1.0 / g, size=N)  # other POIs colliding with y (random oracle)
        rep = np.repeat(np.arange(N), m)
        oth = rng.integers(0, k - 1, size=rep.size)
        oth += oth >= xs[rep]  # uniform on X minus {x_i}
        while True:  # the m others are distinct: redraw duplicates
            key = rep.astype(np.int64) * k + oth
            _, first = np.unique(key, return_index=True)
            dup = np.ones(key.size, bool)
            dup[first] = False
            if not dup.any():
                break
            new = rng.integers(0, k - 1, size=dup.sum())
            oth[dup] = new + (new >= xs[rep[dup]])
        r_all = np.concatenate([np.flatnonzero(own), rep])
        c_all = np.concatenate([xs[own], oth])
        return true, r_all, c_all

    @contract(
        mechanism=OneOf("rr", "glh"),
        epsilon=Real(0, 700, low_open=True),
        g=Optional(Integer(2, 1 << 32)),
        reps=REPS,
        rng=SEED,
    )
    def simulate(self, mechanism: str, epsilon: float, *, g=None, reps: int = 1, rng=None) -> dict:
        """Monte Carlo of ``reps`` rounds of n obfuscated reports: error rate and score samples.

        Returns ``error_rate`` (expected best-score error, ties broken at random), ``genuine``
        scores (one per report) and the impostor scores as ``impostor`` values with
        ``impostor_weights`` (the per-report floor atoms aggregated), ready for
        :func:`kl_mixed_1d` and :func:`det_curve`.
        """
        rng = check_random_state(rng)
        true, r, c = self._preimages(mechanism, epsilon, g, reps, rng)
        N, n, fl = true.size, self.n, self.floor
        A = sparse.csr_matrix((np.ones(r.size), (r, c)), shape=(N, self.k))
        psize = np.diff(A.indptr)
        S = (A @ self._excess.T).tocsr()  # s_rj - floor |P_r| on the support users
        S.sum_duplicates()
        base = fl * psize
        nnz = np.diff(S.indptr)
        has = nnz > 0
        rowmax = np.zeros(N)
        rowmax[has] = np.maximum.reduceat(S.data, S.indptr[:-1][has])
        rows = np.repeat(np.arange(N), nnz)
        attains = np.isclose(S.data, rowmax[rows], rtol=1e-12, atol=0) & (S.data > 0)
        ties = np.where(has, np.bincount(rows, weights=attains, minlength=N), n)
        is_gen = S.indices == true[rows]
        gen_ex = np.zeros(N)
        gen_ex[rows[is_gen]] = S.data[is_gen]
        gen_wins = np.where(has, np.isclose(gen_ex, rowmax, rtol=1e-12, atol=0) & (gen_ex > 0), True)
        err = 1 - gen_wins / ties
        genuine = base + gen_ex
        imp_support = S.data[~is_gen] + base[rows[~is_gen]]
        n_sup_imp = np.bincount(rows[~is_gen], minlength=N)
        floor_w = np.bincount(psize, weights=(n - 1) - n_sup_imp)
        sizes = np.flatnonzero(floor_w > 0)
        impostor = np.concatenate([imp_support, fl * sizes])
        weights = np.concatenate([np.ones(imp_support.size, dtype=np.int64), floor_w[sizes].astype(np.int64)])
        return dict(
            error_rate=float(err.mean()),
            error_se=float(err.std(ddof=1) / math.sqrt(N)),
            genuine=genuine,
            impostor=impostor,
            impostor_weights=weights,
        )


@contract(train_seqs=_SEQS, query_seqs=_SEQS, k=_ITEMS, scoring=_SCORING, floor=_FLOOR)
def score_matrix(train_seqs, query_seqs, k: int, *, scoring: str = "offset", floor: float = 1e-8) -> np.ndarray:
    r"""Log-scores of every query against every user's Markov chain (Sec. 5.1), shape (queries, users).

    ``scoring="raw"`` is the paper's literal log-likelihood; ``"offset"`` subtracts the per-query
    constant :math:`L\ln(\text{floor})` (see :class:`MarkovChainMatcher`).
    """
    return MarkovChainMatcher(floor).fit(train_seqs, k).log_scores(query_seqs, scoring=scoring)


@contract(
    train_seqs=_SEQS,
    query_seqs=_SEQS,
    k=_ITEMS,
    scoring=_SCORING,
    floor=_FLOOR,
    decimals=DECIMALS,
    max_impostors=Optional(SAMPLE_SIZE),
    se_reps=Integer(0, MAX_REPS),
    rng=SEED,
)
def score_experiment(
    train_seqs,
    query_seqs,
    k: int,
    *,
    scoring: str = "offset",
    floor: float = 1e-8,
    decimals: int = 9,
    max_impostors: int | None = None,
    se_reps: int = 0,
    rng=None,
) -> dict:
    r"""Markov-chain matcher on (training, query) pairs of the same users: PSE, error rate, scores.

    Query i belongs to user i.  Returns ``pse`` (bits, :func:`ldpnb.measures.kl_mixed_1d` on the
    pooled log-scores), ``error_rate`` (best-score rule, ties at random), ``genuine`` and
    ``impostor`` log-scores (impostors optionally subsampled to ``max_impostors`` for memory; the
    PSE uses all of them), ``n_users``, ``ceiling`` (:math:`\log_2(2M)`, the largest value the PSE
    estimator can return with :math:`M` impostor scores) and, with ``se_reps >= 2``, ``pse_se``: the
    standard error of the PSE over the users, from ``se_reps`` random half-size user subsets
    (:func:`ldpnb.measures.pse_subsamples`) by the delete-:math:`n/2` jackknife
    (:func:`ldpnb.stats.subsample_se`: the spread of the half-sample estimates itself, with no
    :math:`\sqrt{1/2}` factor; validated against the sampling SD of the PSE over independent score
    matrices in ``tests/test_stats.py``: 1.0-1.2 times it, conservative, as the nearest-neighbour
    divergence is not smooth in the users).

    What the standard error is valid for: a PSE whose genuine mass lies on continuous scores or on
    atoms that many impostor pairs share.  When the genuine scores sit on a few atoms that only a
    handful of impostor pairs hit exactly (e.g. a genuine score that is one constant; then the PSE
    is :math:`\log_2(M/c)` for a count :math:`c` of coincidences), a half sample holds about
    :math:`c/4` of them and its estimate is dominated by the count's discreteness: the standard
    error is not valid; report the count :math:`c` instead.  A bootstrap over users with replacement
    is no alternative here: it duplicates users, whose duplicated scores become atoms for the
    tie-aware estimator.
    """
    rng = check_random_state(rng)
    S = score_matrix(train_seqs, query_seqs, k, scoring=scoring, floor=floor)
    err = best_score_error_rate(S)
    n_users = S.shape[0]
    half = max(2, int(round(0.5 * n_users)))
    se = (
        subsample_se(pse_subsamples(S, 0.5, se_reps, decimals=decimals, rng=rng), n_users, half)
        if se_reps >= 2 and half < n_users
        else float("nan")
    )
    gen, imp = genuine_impostor(S)
    del S
    d = kl_mixed_1d(gen, imp, decimals=decimals)
    ceiling = math.log2(2 * imp.size)
    if max_impostors is not None and imp.size > max_impostors:
        imp = rng.choice(imp, size=max_impostors, replace=False)
    return dict(pse=d, pse_se=se, error_rate=err, genuine=gen, impostor=imp, n_users=len(train_seqs), ceiling=ceiling)
