r"""PIE paper (Murakami and Takahashi 2021): the identification experiments of Section 5 (Figs. 5-9)
on public traces, and the Gaussian stand-ins of the biometric matchers.

Data (Sec. 5.1): LT, location traces (the paper: Foursquare, 1,370,637 users; here Gowalla
check-ins in New York, :func:`ldpnb.data.load_gowalla_nyc`), and RH, rating histories (the paper:
MovieLens Latest, 185,107 users; here ``ml-latest-small``).  As in the paper, users with at least
10 events (check-ins; ratings of 4 to 5 stars, "likes") are kept and each trace is split in time
order into a former half (training data in the partial-knowledge model) and a latter half
:math:`X`; a rating history is used whole.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from scipy import sparse

from ldpnb import stats as S
from ldpnb.attacks.linkage import score_experiment, sequences_from_events, split_halves
from ldpnb.contracts import (
    DECIMALS,
    MAX_ENTRIES,
    SEED,
    AnyOf,
    Array,
    Boolean,
    Callable_,
    Instance,
    Integer,
    OneOf,
    Optional,
    Probability,
    Real,
    Unchecked,
    contract,
)
from ldpnb.measures.pse import frr_at_far, gaussian_frr_at_far, kl_knn_1d, mu_for_kl_bits, pse_subsamples
from ldpnb.stats import Estimate, difference_of, exact, subsample_se
from ldpnb.utils import check_random_state

__all__ = [
    "Traces",
    "lt_traces",
    "rh_traces",
    "pse_experiment",
    "score_matrix_of",
    "pse_curve",
    "convergence",
    "convergence_gap",
    "equal_n",
    "increase_cells",
    "user_bootstrap",
    "AtomScores",
    "atom_scores",
    "pse_bootstrap",
    "VerificationScores",
    "frr_bootstrap",
    "verification_rates",
    "synth_biometric_scores",
    "biometric_standin",
    "single_location",
    "partial_knowledge",
    "zero_score_anatomy",
    "atom_coincidences",
]

LOG2E = 1 / math.log(2)
#: Largest number of items of the matcher (``ldpnb.attacks``' bound: its tables are dense in k).
MAX_ITEMS = 1 << 24
#: Largest number of random user subsets per estimate, bootstrap resamples, Monte Carlo rounds,
#: score sets: each costs a full estimate, so these bound the run time, not only the memory.
_MAX_SUBSETS = 1 << 12


def _prefix_lengths(values: Sequence, name: str, *, full: bool = True) -> None:
    """Refuse a list of prefix lengths that would be read silently wrong: ``s[:t]`` with ``t <= 0``
    drops events from the end (or all of them), a fraction or a string other than ``"X"`` (the whole
    trace, where ``full``) fails deep inside; an empty list gives an empty result."""
    ok = [
        (full and v == "X")
        or (isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) and 1 <= v <= MAX_ENTRIES)
        for v in values
    ]
    if not values or not all(ok):
        what = 'integers >= 1 (a number of events) or "X" (the whole trace)' if full else "integers >= 1"
        bad = [v for v, o in zip(values, ok) if not o]
        raise ValueError(f"{name} must be a non-empty list of {what}, got {list(values)!r} (bad: {bad!r})")


_MAX_BOOT = 1 << 16
_MAX_ROUNDS = 1 << 12
_SUBSETS = Integer(0, _MAX_SUBSETS)
_LEVEL = Probability(open_left=True, open_right=True)

_SEQS = Unchecked("a list of 1-D integer sequences, one per user", example=[[0, 1, 1], [1, 0, 1], [1, 1, 0]])


@dataclass
class Traces:
    """Per-user event sequences in time order (codes 0..k-1).

    ``split=True`` (LT): the personal data :math:`X` is the latter half of each trace and the former
    half is the training data of the partial-knowledge model; ``split=False`` (RH): :math:`X` is the
    whole history.
    """

    name: str
    seqs: list
    k: int
    split: bool = True

    @property
    def n(self) -> int:
        return len(self.seqs)

    @property
    def former(self) -> list:
        """Former halves (the partial-knowledge training data of Sec. 5.1)."""
        return [split_halves(s)[0] for s in self.seqs]

    @property
    def X(self) -> list:
        """The personal data :math:`X` of each user (the latter half if ``split``, else the whole history)."""
        return [split_halves(s)[1] for s in self.seqs] if self.split else list(self.seqs)

    def __post_init__(self) -> None:
        """Every trace is a 1-D sequence of integer codes in ``0..k-1`` (a code outside would index past the
        ``k`` columns of the knowledge models)."""
        if not isinstance(self.seqs, (list, tuple)):
            raise TypeError(
                f"seqs must be a list of 1-D integer sequences, one per user, got {type(self.seqs).__name__}"
            )
        for i, q in enumerate(self.seqs):
            a = np.asarray(q)
            if a.ndim != 1 or (a.size and (a.dtype.kind not in "iu" or a.min() < 0 or a.max() >= self.k)):
                raise ValueError(
                    f"seqs[{i}] must be a 1-D sequence of integer codes in [0, {self.k - 1}] (k = {self.k}), got "
                    f"{q!r:.80}"
                )

    @contract(idx=Array(1, integer=True, low=0, min_size=0))
    def subset(self, idx) -> "Traces":
        """The traces of the users ``idx``."""
        if idx.size and idx.max() >= self.n:
            raise ValueError(f"idx must hold user indices in [0, {self.n - 1}], got max {idx.max()}")
        return Traces(self.name, [self.seqs[i] for i in idx], self.k, self.split)


#: A trace set's name, its traces (checked against k in Traces.__post_init__), alphabet size and split.
Traces.__init__ = contract(  # type: ignore[method-assign]
    name=Instance(str, example="LT"), seqs=_SEQS, k=Integer(1, MAX_ITEMS), split=Boolean()
)(Traces.__init__)


_TRACES = Instance(Traces, example=Traces("LT", [np.array([0, 1, 1, 0]), np.array([1, 0, 0, 1])], 2))


@contract(min_events=Integer(1, 1 << 20))
def lt_traces(min_events: int = 10) -> Traces:
    """LT: Gowalla New York check-ins, one time-ordered trace per user with >= ``min_events`` check-ins."""
    from ldpnb.data import load_gowalla_nyc  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    gw = load_gowalla_nyc()
    t = gw.time.dt.tz_localize(None).to_numpy().astype("int64")
    seqs, _, items = sequences_from_events(gw.user.to_numpy(), t, gw.location_id.to_numpy(), min_events=min_events)
    return Traces("LT", seqs, len(items))


@contract(min_events=Integer(1, 1 << 20), min_rating=Real(0.5, 5))
def rh_traces(min_events: int = 10, min_rating: float = 4.0) -> Traces:
    """RH: MovieLens ``ml-latest-small`` likes (ratings >= 4 stars) in time order.

    Users with at least ``min_events`` likes are kept.
    """
    from ldpnb.data import load_movielens_latest_small  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    r = load_movielens_latest_small().ratings
    likes = r[r.rating >= min_rating]
    seqs, _, items = sequences_from_events(
        likes.user.to_numpy(), likes.timestamp.to_numpy(), likes.item.to_numpy(), min_events=min_events
    )
    return Traces("RH", seqs, len(items), split=False)


@contract(
    train=_SEQS,
    query=_SEQS,
    k=Integer(1, MAX_ITEMS),
    scoring=OneOf("raw", "offset"),
    se_reps=_SUBSETS,
    subsets=Optional(Integer(0, None)),
    rng=SEED,
)
def pse_experiment(
    train, query, k: int, *, scoring: str = "offset", se_reps: int = 0, subsets: int | None = None, rng=None
) -> dict:
    r"""PSE (bits), the best-score error, the estimator ceiling and the scores of one experiment, and
    with ``se_reps >= 2`` the half-sample standard error of the PSE.

    A thin wrapper of :func:`ldpnb.attacks.score_experiment` (the Markov-chain matcher of Sec. 5.1)
    that also records the FRR at FAR 0.1 %, 1 % and 10 % (``frr``, Fig. 7).  With ``se_reps >= 2``:
    ``pse_sub``, the PSE on ``se_reps`` random half-size user subsets
    (:func:`ldpnb.measures.pse_subsamples`), and ``pse_se``, the delete-:math:`n/2` jackknife
    standard error :func:`ldpnb.stats.subsample_se` of those (the spread of the half-sample
    estimates itself).  The subsets are drawn from ``subsets`` (a seed) when given, so that
    experiments on the same users share them and a difference of their PSEs has its own half-sample
    standard error (:func:`ldpnb.stats.half_sample_estimate`); otherwise from ``rng``.  ``subsets`` is recorded.

    The half-sample standard error is valid for a PSE whose genuine scores are continuous or sit on
    atoms that many impostor pairs share; for one resting on a few exact coincidences use
    :func:`pse_bootstrap`.

    Examples
    --------
    >>> seqs = [np.array([u, u + 1, u, u + 1, u]) % 6 for u in range(6)]
    >>> r = pse_experiment(seqs, seqs, 6, se_reps=2, subsets=1)
    >>> r["pse_sub"].shape, sorted(r["frr"]), r["subsets"]
    ((2,), [0.001, 0.01, 0.1], 1)
    """
    rng = check_random_state(rng)
    r = score_experiment(train, query, k, scoring=scoring, rng=rng)
    r["frr"] = verification_rates(r["genuine"], r["impostor"])
    r["pse_se"], r["subsets"] = float("nan"), subsets
    n = len(r["genuine"])
    if se_reps >= 2 and n >= 4:
        sub_rng = np.random.default_rng(subsets) if subsets is not None else rng.spawn(1)[0]
        r["pse_sub"] = pse_subsamples(score_matrix_of(r["genuine"], r["impostor"]), 0.5, se_reps, rng=sub_rng)
        r["pse_se"] = subsample_se(r["pse_sub"], n, _half(n))
    return r


def _half(n: int) -> int:
    """The size of :func:`ldpnb.measures.pse_subsamples`' half subsets of ``n`` users."""
    return max(2, int(round(0.5 * n)))


@contract(genuine=Array(1, min_size=2), impostor=Array(1, min_size=2))
def score_matrix_of(genuine, impostor) -> np.ndarray:
    """The square score matrix from :func:`ldpnb.measures.genuine_impostor`'s genuine scores (the
    diagonal) and impostor scores (the off-diagonal entries, row by row).

    Examples
    --------
    >>> score_matrix_of([1.0, 2.0, 3.0], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]).tolist()
    [[1.0, 0.1, 0.2], [0.3, 2.0, 0.4], [0.5, 0.6, 3.0]]
    """
    g, im = np.asarray(genuine, dtype=float), np.asarray(impostor, dtype=float)
    n = g.size
    if im.size != n * (n - 1):
        raise ValueError(f"impostor must hold the n(n - 1) = {n * (n - 1)} off-diagonal scores, got {im.size}")
    S = np.empty((n, n))
    S[~np.eye(n, dtype=bool)] = im
    S[np.diag_indices(n)] = g
    return S


def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(row, column) of each impostor score in genuine_impostor's row-major order."""
    rows = np.repeat(np.arange(n), n - 1)
    cols = np.tile(np.arange(n - 1), n)
    return rows, cols + (cols >= rows)


@contract(traces=_TRACES, ts=Instance(tuple, list, example=(1, 2)), scoring=OneOf("raw", "offset"), rng=SEED)
def pse_curve(traces: Traces, ts: Sequence = (1, 2, 3, 4, 5), *, scoring: str = "offset", rng=None) -> dict:
    """Fig. 5, maximum knowledge: the adversary trains on :math:`X` itself and each user sends
    :math:`Y = X` (key ``"X"``) or the first ``t`` events of :math:`X` (keys ``t``):
    ``{t: pse_experiment(...)}``.

    For LT, :math:`X` is the latter half of the trace; for RH the whole rating history.  The
    uncertainty of these PSEs comes from :func:`pse_bootstrap` (their genuine scores sit on atoms
    that few impostor pairs hit).
    """
    _prefix_lengths(ts, "ts", full=False)
    rng = check_random_state(rng)
    X = traces.X
    out = {"X": pse_experiment(X, X, traces.k, scoring=scoring, rng=rng)}
    for t in ts:
        out[t] = pse_experiment(X, [s[:t] for s in X], traces.k, scoring=scoring, rng=rng)
    return out


@contract(
    traces=_TRACES,
    ts=Instance(tuple, list, example=(1,)),
    fractions=Instance(tuple, list, example=(0.5,)),
    reps=AnyOf(Integer(2, _MAX_SUBSETS), Instance(tuple, list, example=(3,))),
    rng=SEED,
)
def convergence(
    traces: Traces,
    ts: Sequence = (1, 3, "X"),
    fractions: Sequence = (1 / 8, 1 / 4, 1 / 2),
    *,
    reps: int | Sequence[int] = 8,
    rng=None,
) -> dict:
    """The PSE estimate on random subsets of the users (maximum knowledge, as in Fig. 5).

    The paper (Sec. 5.1) "confirmed that for each dataset, :math:`D(f_G\\|f_I)` converges as the
    number of users increases".  ``reps`` subsets of each size ``fraction * N`` (one count for every
    fraction, or one per fraction) and the full population ``N``.  Returns ``{t: {"n": [...],
    "mean": [...], "sd": [...], "values": [...]}}`` over the sizes (``values``: each subset's
    estimate); :func:`convergence_gap` turns it into the estimate of ``PSE(N) - mean PSE(N/2)``.
    """
    _prefix_lengths(ts, "ts")
    if not fractions or not all(
        isinstance(f, (int, float, np.integer, np.floating)) and not isinstance(f, bool) and 0 < f < 1
        for f in fractions
    ):
        raise ValueError(f"fractions must be a non-empty list of numbers in (0, 1), got {list(fractions)!r}")
    rng = check_random_state(rng)
    reps = [reps] * len(fractions) if isinstance(reps, (int, np.integer)) else list(reps)
    if len(reps) != len(fractions) or not all(
        isinstance(r, (int, np.integer)) and 2 <= r <= _MAX_SUBSETS for r in reps
    ):
        raise ValueError(f"reps must be one count in [2, {_MAX_SUBSETS}] or one per fraction, got {reps!r}")
    X = traces.X
    N = len(X)
    out = {}
    for t in ts:
        ns, means, sds, values = [], [], [], []
        for f, r in zip((*fractions, 1.0), (*reps, 1)):
            m = N if f == 1.0 else max(2, int(round(f * N)))
            vals = []
            for _ in range(1 if m == N else r):
                idx = np.sort(rng.choice(N, m, replace=False)) if m < N else np.arange(N)
                sub = [X[i] for i in idx]
                q = sub if t == "X" else [s[:t] for s in sub]
                vals.append(score_experiment(sub, q, traces.k)["pse"])
            ns.append(m)
            means.append(float(np.mean(vals)))
            sds.append(float(np.std(vals, ddof=1)) if len(vals) > 1 else float("nan"))
            values.append([float(v) for v in vals])
        out[t] = {"n": ns, "mean": means, "sd": sds, "values": values}
    return out


@contract(
    conv=Instance(dict, example={1: {"mean": [1.0, 1.1], "values": [[1.0, 1.05, 0.95], [1.1]]}}),
    ts=Instance(tuple, list, example=(1,)),
    level=_LEVEL,
    simultaneous=Boolean(),
)
def convergence_gap(conv: dict, ts: Sequence, *, level: float = 0.95, simultaneous: bool = True) -> Estimate:
    r"""The estimate of :math:`\hat D(N) - \overline{\hat D(N/2)}` per ``t`` of a :func:`convergence`
    result (its last two sizes): the estimate on all :math:`N` users minus the mean over the random
    subsets of the largest fraction.

    Its uncertainty is the Monte Carlo error of that mean (:func:`ldpnb.stats.mean`, Hall's
    interval): the linear part of the estimator's sampling error is common to both terms (each user
    lies in a given fraction of the subsets), so the difference measures the change of the
    estimator's expectation between :math:`N/2` and :math:`N` users.

    Examples
    --------
    >>> conv = {1: {"mean": [1.0, 1.1], "values": [[1.0, 1.2, 0.9, 1.1], [1.1]]}}
    >>> e = convergence_gap(conv, [1])
    >>> round(float(e.value[0]), 3), e.method
    (0.05, 'hall')
    """
    missing = [t for t in ts if t not in conv]
    if missing or not ts:
        raise ValueError(f"ts must be a non-empty list of keys of conv ({sorted(conv, key=str)}), missing {missing}")
    full = np.array([conv[t]["values"][-1][0] for t in ts], dtype=float)
    half = np.array([conv[t]["values"][-2] for t in ts], dtype=float).T  # (subsets, ts)
    return difference_of(exact(full), S.mean(half, level=level, simultaneous=simultaneous))


@contract(
    traces=_TRACES,
    n=Integer(2, MAX_ENTRIES),
    ts=Instance(tuple, list, example=(1,)),
    reps=Integer(2, _MAX_SUBSETS),
    rng=SEED,
)
def equal_n(traces: Traces, n: int, ts: Sequence = ("X", 1, 2, 3, 4, 5), *, reps: int = 10, rng=None) -> dict:
    """Fig. 5 on ``reps`` random subsets of ``n`` users: ``{t: {"mean", "sd", "values"}}`` of the PSE
    (``values``: the estimate on each subset; :func:`ldpnb.stats.subset_mean` gives its uncertainty).

    The PSE estimate grows with the number of users while the scores separate completely
    (:func:`convergence`), so two data sets are compared at the same number of users.
    """
    _prefix_lengths(ts, "ts")
    rng = check_random_state(rng)
    X = traces.X
    if n > len(X):
        raise ValueError(f"n must be at most the number of users, {len(X)}")
    vals = {t: [] for t in ts}
    for _ in range(reps):
        idx = np.sort(rng.choice(len(X), n, replace=False))
        sub = [X[i] for i in idx]
        for t in ts:
            vals[t].append(score_experiment(sub, sub if t == "X" else [s[:t] for s in sub], traces.k)["pse"])
    return {
        t: dict(mean=float(np.mean(v)), sd=float(np.std(v, ddof=1)), values=np.asarray(v, dtype=float))
        for t, v in vals.items()
    }


@contract(values=Array(None), rise_from=Integer(0, None))
def increase_cells(values, rise_from: int = 2) -> np.ndarray:
    """The cells of an "increasing" claim along the last axis of ``values`` (a curve, or many): the
    successive steps, then the rise from ``values[..., rise_from]`` to the last value.

    Examples
    --------
    >>> increase_cells([1.0, 2.0, 2.5, 4.0], rise_from=1).tolist()
    [1.0, 0.5, 1.5, 2.0]
    """
    v = np.asarray(values, dtype=float)
    if v.ndim == 0 or not 0 <= rise_from < v.shape[-1] - 1:
        raise ValueError(f"rise_from must lie below the last index of the curve, got {rise_from}")
    return np.concatenate([np.diff(v, axis=-1), (v[..., -1] - v[..., rise_from])[..., None]], axis=-1)


# ---------------------------------------------------------------------------------------------
# the user bootstrap: resampling the users of a score matrix (rows and columns together)
# ---------------------------------------------------------------------------------------------


def _weights(idx: np.ndarray, n: int) -> np.ndarray:
    """Multiplicities ``(b, n)`` of the users from resampled indices ``(m,)`` or ``(m, b)``."""
    i = np.asarray(idx, dtype=np.int64)
    if i.ndim == 1:
        return np.bincount(i, minlength=n)[None, :].astype(float)
    b = i.shape[1]
    flat = (i + n * np.arange(b)[None, :]).ravel()
    return np.bincount(flat, minlength=n * b).reshape(b, n).astype(float)


@contract(
    statistic=Callable_(),
    n=Integer(3, MAX_ENTRIES),
    n_boot=Integer(200, _MAX_BOOT),
    level=_LEVEL,
    simultaneous=Boolean(),
    rng=SEED,
)
def user_bootstrap(
    statistic, n: int, *, n_boot: int = 2000, level: float = 0.95, simultaneous: bool = False, rng=None
) -> Estimate:
    r"""A BCa bootstrap interval of a statistic of a score matrix, resampling its **users**.

    A resample draws :math:`n` users with replacement (multiplicities :math:`W_i`); user
    :math:`i`'s genuine score counts :math:`W_i` times and the impostor score of the pair
    :math:`(i, j)`, :math:`i \ne j`, counts :math:`W_i W_j` times (the pairs of a user with a copy
    of itself are not impostor pairs).  This is the vertex bootstrap of dyadic data: the rows and
    the columns of the score matrix share their users, and the pairs of one user are dependent.
    ``statistic(W)`` takes multiplicities of shape ``(b, n)`` and returns ``(b, cells)``; it is
    called with ones (the estimate), with the resamples and with the leave-one-user-out weights (the
    BCa acceleration), through :func:`ldpnb.stats.bootstrap`.

    Examples
    --------
    >>> g = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0])
    >>> mean_genuine = lambda W: (W * g).sum(1, keepdims=True) / W.sum(1, keepdims=True)
    >>> e = user_bootstrap(mean_genuine, 12, n_boot=500, rng=0)
    >>> round(float(e.value[0]), 2), bool(e.low[0] < 6.5 < e.high[0])
    (6.5, True)
    """

    def stat(idx, axis=0):
        W = _weights(idx, n)
        out = np.asarray(statistic(W), dtype=float)
        return out[0] if np.ndim(idx) == 1 else out

    return S.bootstrap(
        stat, (np.arange(n, dtype=float),), n_boot=n_boot, level=level, simultaneous=simultaneous, rng=rng
    )


@dataclass(frozen=True)
class AtomScores:
    r"""The structure of a PSE estimate (:func:`ldpnb.measures.kl_mixed_1d`) on a square score
    matrix, for the user bootstrap (:func:`pse_bootstrap`).

    The estimator splits the pooled scores into atoms (values occurring at least twice) and a
    continuous part:
    :math:`D = \sum_{a} P_G(a)\log\frac{P_G(a)}{P_I(a)} + P_G(c)[\log\frac{P_G(c)}{P_I(c)} + D_{kNN}]`,
    with an impostor count of 0 smoothed to 1/2.  Here, with user multiplicities :math:`W`,
    :math:`P_G(a) = \sum_{i: g_i = a} W_i/n`, :math:`P_I(a) = \sum_{i \ne j: s_{ij} = a} W_iW_j/M_W`
    and :math:`M_W = n^2 - \sum_i W_i^2`; the partition into atoms, the :math:`k`-NN divergence of the
    continuous part and its impostor mass :math:`P_I(c)` are those of the full sample (the
    continuous part is not resampled).  With :math:`W = 1` this is the estimate itself.
    """

    n: int
    atom_of_user: np.ndarray  # atom index of each genuine score, -1 for the continuous part
    hit_rows: np.ndarray  # impostor pairs whose score is a genuine atom: row, column, atom
    hit_cols: np.ndarray
    hit_atom: np.ndarray
    n_atoms: int
    p_cont_impostor: float  # P_I(c) of the full sample (smoothed)
    d_knn: float  # k-NN divergence of the continuous part, nats

    @property
    def continuous_share(self) -> float:
        """The genuine mass on the continuous part (not resampled)."""
        return float(np.mean(self.atom_of_user < 0))

    def pse(self, W: np.ndarray, *, smoothing: float = 0.5) -> np.ndarray:
        """The estimate (bits) under multiplicities ``W`` of shape ``(b, n)``: shape ``(b,)``."""
        W = np.atleast_2d(np.asarray(W, dtype=float))
        n, A = self.n, self.n_atoms
        MW = n * n - (W * W).sum(1)
        on_atom = self.atom_of_user >= 0
        users = sparse.csr_matrix(
            (np.ones(int(on_atom.sum())), (np.flatnonzero(on_atom), self.atom_of_user[on_atom])), shape=(n, A)
        )
        pg = np.asarray(users.T @ W.T).T / n  # (b, atoms)
        hits = sparse.csr_matrix(
            (np.ones(self.hit_atom.size), (np.arange(self.hit_atom.size), self.hit_atom)), shape=(self.hit_atom.size, A)
        )
        ci = np.empty((W.shape[0], A))
        for lo in range(0, W.shape[0], 64):  # blocks of resamples: bounded memory
            blk = W[lo : lo + 64]
            ci[lo : lo + 64] = np.asarray(hits.T @ (blk[:, self.hit_rows] * blk[:, self.hit_cols]).T).T
        pi = np.maximum(ci, smoothing) / MW[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.where(pg > 0, pg * np.log(pg / pi), 0.0).sum(1)
            pgc = W[:, ~on_atom].sum(1) / n
            out += np.where(pgc > 0, pgc * (np.log(pgc / self.p_cont_impostor) + self.d_knn), 0.0)
        return out * LOG2E


@contract(genuine=Array(1, min_size=2), impostor=Array(1, min_size=2), decimals=DECIMALS)
def atom_scores(genuine, impostor, *, decimals: int = 9) -> AtomScores:
    """The :class:`AtomScores` of a score matrix given by its genuine and impostor scores
    (:func:`ldpnb.measures.genuine_impostor` order), with the rounding of
    :func:`ldpnb.attacks.score_experiment` (``decimals``).

    Examples
    --------
    >>> a = atom_scores([2.0, 2.0, 5.0], [2.0, 0.1, 0.2, 0.3, 0.4, 0.5])
    >>> a.n_atoms, a.atom_of_user.tolist(), a.hit_rows.tolist()
    (1, [0, 0, -1], [0])
    """
    G = np.round(np.asarray(genuine, dtype=float), decimals)
    I = np.round(np.asarray(impostor, dtype=float), decimals)
    n = G.size
    if I.size != n * (n - 1):
        raise ValueError(f"impostor must hold the n(n - 1) = {n * (n - 1)} off-diagonal scores, got {I.size}")
    vals, inv = np.unique(np.concatenate([G, I]), return_inverse=True)
    cg = np.bincount(inv[:n], minlength=vals.size)
    ci = np.bincount(inv[n:], minlength=vals.size)
    atom = (cg + ci) >= 2
    genuine_atom = atom & (cg > 0)
    index = np.full(vals.size, -1)
    index[genuine_atom] = np.arange(int(genuine_atom.sum()))
    atom_of_user = index[inv[:n]]
    hit = index[inv[n:]] >= 0
    rows, cols = _pairs(n)
    Gc = vals[(~atom) & (cg > 0)]
    Ic = vals[(~atom) & (ci > 0)]
    d_knn = kl_knn_1d(Gc, Ic, unit="nats") if (Gc.size >= 2 and Ic.size >= 1) else 0.0
    return AtomScores(
        n=n,
        atom_of_user=atom_of_user,
        hit_rows=rows[hit],
        hit_cols=cols[hit],
        hit_atom=index[inv[n:]][hit],
        n_atoms=int(genuine_atom.sum()),
        p_cont_impostor=max(Ic.size, 0.5) / (n * (n - 1)),
        d_knn=float(d_knn),
    )


@contract(
    experiments=Instance(list, tuple, example=[{"genuine": np.zeros(3), "impostor": np.arange(6.0)}]),
    transform=Optional(Callable_()),
    n_boot=Integer(200, _MAX_BOOT),
    level=_LEVEL,
    simultaneous=Boolean(),
    rng=SEED,
)
def pse_bootstrap(
    experiments: Sequence[dict],
    *,
    transform=None,
    n_boot: int = 2000,
    level: float = 0.95,
    simultaneous: bool = False,
    rng=None,
) -> Estimate:
    r"""The PSEs of several experiments on the **same users** (results of :func:`pse_experiment`),
    or a function of them (``transform``: e.g. :func:`increase_cells`), with a user-bootstrap BCa
    interval (:func:`user_bootstrap`, the estimator decomposed by :class:`AtomScores`).

    The interval for a PSE whose genuine scores sit on atoms that few impostor pairs hit, where the
    half-sample standard error is not valid: resampling the users resamples the pairs and counts the
    coincidences again.  The continuous part of the scores is not resampled
    (:attr:`AtomScores.continuous_share`).  All experiments share the resamples, so differences
    between them are paired.

    Examples
    --------
    >>> seqs = [np.array([u % 4, (u + 1) % 4, u % 3, 2]) for u in range(14)]
    >>> r = [pse_experiment(seqs, [s[:t] for s in seqs], 4) for t in (1, 2)]
    >>> e = pse_bootstrap(r, n_boot=300, rng=0)
    >>> e.shape, e.method
    ((2,), 'bootstrap-bca')
    """
    atoms = [atom_scores(r["genuine"], r["impostor"]) for r in experiments]
    ns = {a.n for a in atoms}
    if len(ns) != 1:
        raise ValueError(f"the experiments must be on the same users, got {sorted(ns)} users")
    for a, r in zip(atoms, experiments):
        full = float(a.pse(np.ones((1, a.n)))[0])
        if not math.isclose(full, r["pse"], rel_tol=1e-9, abs_tol=1e-9):
            raise ValueError(f"the decomposition gives {full} bits where the experiment has {r['pse']}")

    def statistic(W):
        v = np.stack([a.pse(W) for a in atoms], axis=-1)
        return v if transform is None else np.asarray(transform(v), dtype=float)

    return user_bootstrap(statistic, ns.pop(), n_boot=n_boot, level=level, simultaneous=simultaneous, rng=rng)


@dataclass(frozen=True)
class VerificationScores:
    """Genuine scores and the impostor scores sorted from the highest, with their users, for
    FRR-at-FAR under user multiplicities (:func:`frr_bootstrap`)."""

    genuine: np.ndarray
    impostor_desc: np.ndarray
    rows: np.ndarray
    cols: np.ndarray

    @classmethod
    def of(cls, genuine, impostor) -> "VerificationScores":
        g, im = np.asarray(genuine, dtype=float), np.asarray(impostor, dtype=float)
        rows, cols = _pairs(g.size)
        order = np.argsort(-im, kind="stable")
        return cls(g, im[order], rows[order], cols[order])

    def frr(self, W: np.ndarray, fars: Sequence[float]) -> np.ndarray:
        r"""FRR at each FAR (the smallest FRR among thresholds with FAR at most the target, as
        :func:`ldpnb.measures.frr_at_far`) under multiplicities ``W`` ``(b, n)``: ``(b, len(fars))``.

        With the impostor scores sorted from the highest and their weights :math:`W_iW_j`, the
        threshold sits just above the first score :math:`v` whose cumulative weight exceeds
        FAR :math:`\times M_W`, and the FRR is the genuine weight at or below :math:`v`."""
        W = np.atleast_2d(np.asarray(W, dtype=float))
        f = np.asarray(fars, dtype=float)
        out = np.empty((W.shape[0], f.size))
        for b in range(W.shape[0]):
            w = W[b]
            cum = np.cumsum(w[self.rows] * w[self.cols])
            k = np.minimum(np.searchsorted(cum, f * cum[-1], side="right"), cum.size - 1)
            v = self.impostor_desc[k]
            out[b] = (w[None, :] * (self.genuine[None, :] <= v[:, None])).sum(1) / w.sum()
        return out


@contract(
    experiments=Instance(list, tuple, example=[{"genuine": np.zeros(3), "impostor": np.arange(6.0)}]),
    fars=Instance(list, tuple, example=(0.01,)),
    contrast=Boolean(),
    n_boot=Integer(200, _MAX_BOOT),
    level=_LEVEL,
    simultaneous=Boolean(),
    rng=SEED,
)
def frr_bootstrap(
    experiments: Sequence[dict],
    fars: Sequence[float] = (0.001, 0.01, 0.1),
    *,
    contrast: bool = False,
    n_boot: int = 2000,
    level: float = 0.95,
    simultaneous: bool = False,
    rng=None,
) -> Estimate:
    """The FRR at each FAR of one experiment (cells: the FARs), or with ``contrast=True`` and two
    experiments on the same users the difference FRR(second) − FRR(first) at each FAR, with a
    user-bootstrap BCa interval (:func:`user_bootstrap`: the threshold is found again on every
    resample).

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> S = rng.normal(size=(30, 30)) + 3 * np.eye(30)
    >>> g, im = S[np.eye(30, dtype=bool)], S[~np.eye(30, dtype=bool)]
    >>> e = frr_bootstrap([{"genuine": g, "impostor": im}], (0.1,), n_boot=300, rng=2)
    >>> from ldpnb.measures.pse import frr_at_far
    >>> bool(e.value[0] == frr_at_far(g, im, 0.1))
    True
    """
    vs = [VerificationScores.of(r["genuine"], r["impostor"]) for r in experiments]
    if len({v.genuine.size for v in vs}) != 1:
        raise ValueError("the experiments must be on the same users")
    if contrast and len(vs) != 2:
        raise ValueError("a contrast takes two experiments")
    if not contrast and len(vs) != 1:
        raise ValueError("without a contrast, one experiment")

    def statistic(W):
        return vs[1].frr(W, fars) - vs[0].frr(W, fars) if contrast else vs[0].frr(W, fars)

    return user_bootstrap(statistic, vs[0].genuine.size, n_boot=n_boot, level=level, simultaneous=simultaneous, rng=rng)


@contract(genuine=Array(1, min_size=1), impostor=Array(1, min_size=1), fars=Instance(tuple, list, example=(0.01,)))
def verification_rates(genuine, impostor, fars: Sequence = (0.001, 0.01, 0.1)) -> dict:
    """FRR at each FAR of ``fars`` (the smallest FRR among thresholds with FAR <= target, Fig. 7)."""
    return {float(f): frr_at_far(genuine, impostor, float(f)) for f in fars}


@contract(
    n=Integer(2, MAX_ENTRIES),
    mu=Real(-1e3, 1e3),
    fail_rate=Real(0, 1, high_open=True),
    n_impostor=Integer(1, MAX_ENTRIES),
    rng=SEED,
)
def synth_biometric_scores(
    n: int, mu: float, *, fail_rate: float = 0.0, n_impostor: int = 1_000_000, rng=None
) -> tuple[np.ndarray, np.ndarray]:
    """Synthetic (genuine, impostor) scores: :math:`f_I = N(0,1)`, :math:`f_G = (1-w)N(\\mu,1) + wN(0,1)`.

    An illustration of a biometric matcher with a known PSE: the paper's face, fingerprint and
    finger-vein score sets (Sec. 5.1) are not public.
    """
    rng = check_random_state(rng)
    gen = rng.standard_normal(n) + mu * (rng.random(n) >= fail_rate)
    return gen, rng.standard_normal(n_impostor)


@contract(
    d_bits=Real(0, 100, low_open=True),
    fail_rate=Real(0, 1, high_open=True),
    n=Integer(2, MAX_ENTRIES),
    n_impostor=Integer(1, MAX_ENTRIES),
    sets=Integer(1, _MAX_SUBSETS),
    rng=SEED,
)
def biometric_standin(
    d_bits: float, *, fail_rate: float = 0.0, n: int = 2000, n_impostor: int = 1_000_000, sets: int = 3, rng=None
) -> dict:
    """A Gaussian stand-in of a biometric matcher placed at the PSE ``d_bits`` (bits), and its estimate.

    The genuine mean :math:`\\mu` is solved for :math:`D(f_G\\|f_I) = ` ``d_bits``
    (:func:`ldpnb.measures.mu_for_kl_bits`); ``sets`` independent score sets are drawn and the k-NN
    estimator of Sec. 5.1 applied to each (``estimates``; ``pse`` is their mean, ``sd`` their spread).  The FRR at
    FAR 0.1 %, 1 %, 10 % is analytic (:func:`ldpnb.measures.gaussian_frr_at_far`).
    """
    rng = check_random_state(rng)
    mu = mu_for_kl_bits(d_bits, fail_rate)
    est = []
    for _ in range(sets):
        g, im = synth_biometric_scores(n, mu, fail_rate=fail_rate, n_impostor=n_impostor, rng=rng)
        est.append(kl_knn_1d(g, im))
    fars = np.array([0.001, 0.01, 0.1])
    return dict(
        target=d_bits,
        mu=mu,
        w=fail_rate,
        pse=float(np.mean(est)),
        estimates=np.asarray(est),
        sd=float(np.std(est, ddof=1)) if sets > 1 else float("nan"),
        frr=dict(zip(fars.tolist(), np.atleast_1d(gaussian_frr_at_far(mu, fars, fail_rate)).tolist())),
    )


@contract(
    traces=_TRACES,
    eps=Array(1, low=float(np.finfo(float).tiny)),
    g=Integer(2, 1 << 40),
    reps=Integer(1, _MAX_ROUNDS),
    null_reps=Integer(2, _MAX_ROUNDS),
    rng=SEED,
)
def single_location(traces: Traces, eps, g: int, *, reps: int = 8, null_reps: int = 10, rng=None) -> dict:
    r"""Figs. 8-9: each user obfuscates the first location of :math:`X` with the ε-RR or the (g, ε)-GLH;
    the adversary holds the visit distributions of the former halves (partial knowledge).

    The RR's PSE and error rate are exact (the scores are θ-mixtures,
    :meth:`ldpnb.attacks.SingleLocationAttack.rr_exact`); the RR and the GLH are also simulated with
    ``reps`` rounds of :math:`n` reports (random-oracle hash).  The PSE estimator's resolution is
    twice the largest of ``null_reps`` estimates on reports independent of the users (ε → 0);
    ``resolvable`` marks the Monte Carlo PSEs above it.  ``reports`` (``reps`` × n) is the number of
    simulated reports behind each Monte Carlo error rate (a proportion).

    The ``reps`` rounds are simulated one by one: ``pse_rounds[m]`` and ``err_rounds[m]`` (shape
    ``(len(eps), reps)``) hold each round's estimates, the samples an interval is built from;
    ``pse[m]`` is the estimate on the pooled scores of all rounds and ``err[m]``, ``err_se[m]`` the
    mean and standard error over all simulated reports.
    """
    from ldpnb.attacks.linkage import MarkovChainMatcher, SingleLocationAttack  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)
    from ldpnb.measures.pse import kl_mixed_1d  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    rng = check_random_state(rng)
    pi = MarkovChainMatcher().fit(traces.former, traces.k).pi
    att = SingleLocationAttack(pi, np.array([s[0] for s in traces.X]))
    eps = np.asarray(eps, dtype=float)
    out = dict(
        n=traces.n,
        k=traces.k,
        g=g,
        eps=eps,
        exact=att.rr_exact(eps),
        reports=reps * traces.n,
        pse={},
        err={},
        err_se={},
        pse_rounds={},
        err_rounds={},
        null={},
        resolvable={},
    )

    def pse_of(r):
        return kl_mixed_1d(r["genuine"], r["impostor"], impostor_weights=r["impostor_weights"])

    n = traces.n
    for m in ("rr", "glh"):
        gm = g if m == "glh" else None
        pse, err, err_se, pse_r, err_r = [], [], [], [], []
        for e in eps:
            rounds = [att.simulate(m, float(e), g=gm, reps=1, rng=rng) for _ in range(reps)]
            pooled = {
                key: np.concatenate([r[key] for r in rounds]) for key in ("genuine", "impostor", "impostor_weights")
            }
            pse.append(pse_of(pooled))
            pse_r.append([pse_of(r) for r in rounds] if reps > 1 else [pse[-1]])
            e_r = np.array([r["error_rate"] for r in rounds])
            s2_r = np.array([r["error_se"] ** 2 * n for r in rounds])  # per-report variances (ddof = 1)
            N = reps * n  # pooled variance over all reports
            var = ((n - 1) * s2_r.sum() + n * np.sum((e_r - e_r.mean()) ** 2)) / (N - 1)
            err.append(float(e_r.mean()))
            err_se.append(math.sqrt(var / N))
            err_r.append(e_r)
        out["pse"][m], out["err"][m], out["err_se"][m] = np.array(pse), np.array(err), np.array(err_se)
        out["pse_rounds"][m], out["err_rounds"][m] = np.array(pse_r), np.array(err_r)
        nulls = []
        for _ in range(null_reps):
            r = att.simulate(m, 1e-9, g=gm, reps=reps, rng=rng)
            nulls.append(kl_mixed_1d(r["genuine"], r["impostor"], impostor_weights=r["impostor_weights"]))
        out["null"][m] = 2 * max(nulls)
        out["resolvable"][m] = out["pse"][m] > out["null"][m]
    return out


@contract(
    traces=_TRACES,
    ms=Instance(tuple, list, example=(1, 2)),
    scorings=Instance(tuple, list, example=("offset",)),
    se_reps=_SUBSETS,
    rng=SEED,
)
def partial_knowledge(
    traces: Traces, ms: Sequence[int], *, scorings: Sequence[str] = ("offset", "raw"), se_reps: int = 0, rng=None
) -> dict:
    """Fig. 6: the adversary trains on the first ``m`` events of the former half (``split`` traces:
    separated from :math:`X`) or of :math:`X` itself (RH); each user sends :math:`Y = X`.

    Returns ``{(scoring, m): pse_experiment(...)}`` in the order of ``scorings``, then ``ms``.  With
    ``se_reps >= 2`` every experiment uses the same ``se_reps`` random half subsets of the users (one
    seed drawn from ``rng``), so that the differences between them have half-sample standard errors.
    """
    _prefix_lengths(ms, "ms", full=False)
    if not scorings or not all(sc in ("raw", "offset") for sc in scorings):
        raise ValueError(f"scorings must be a non-empty list of 'raw' and 'offset', got {list(scorings)!r}")
    rng = check_random_state(rng)
    source = traces.former if traces.split else traces.X
    subsets = int(rng.integers(2**62)) if se_reps >= 2 else None
    return {
        (sc, m): pse_experiment(
            [s[:m] for s in source], traces.X, traces.k, scoring=sc, se_reps=se_reps, subsets=subsets, rng=rng
        )
        for sc in scorings
        for m in ms
    }


@contract(train=_SEQS, query=_SEQS)
def zero_score_anatomy(train, query) -> dict:
    r"""Why an offset score is 0 (Fig. 7): per genuine pair (``train[i]``, ``query[i]``), whether
    the two share no item at all (``disjoint``) and whether the Markov matcher credits nothing
    (``no_credit``: the query's first item is not in the training and none of its transitions
    :math:`(y_t, y_{t+1})` is a transition of the training).

    Every term of the offset score, :math:`\ln(\tilde\pi_j(y_1)/10^{-8})` and
    :math:`\ln(\tilde\Lambda_j(y_{t+1}\mid y_t)/10^{-8})`, is positive when credited and 0 otherwise,
    so ``no_credit`` is exactly the set of genuine scores equal to 0.  Returns the boolean arrays.

    Examples
    --------
    >>> a = zero_score_anatomy([[0, 1, 2], [3, 4]], [[5, 1, 2], [5, 4, 3]])
    >>> a["disjoint"].tolist(), a["no_credit"].tolist()
    ([False, False], [False, True])
    """
    if len(train) != len(query):
        raise ValueError(f"train and query must have one sequence per user, got {len(train)} and {len(query)}")
    disjoint, no_credit = np.empty(len(train), bool), np.empty(len(train), bool)
    for i, (a, b) in enumerate(zip(train, query)):
        a, b = np.asarray(a).tolist(), np.asarray(b).tolist()
        seen, trans = set(a), set(zip(a[:-1], a[1:]))
        disjoint[i] = not (seen & set(b))
        no_credit[i] = b[0] not in seen and not any(t in trans for t in zip(b[:-1], b[1:]))
    return dict(disjoint=disjoint, no_credit=no_credit)


@contract(genuine=Array(1), impostor=Array(1), decimals=DECIMALS)
def atom_coincidences(genuine, impostor, decimals: int = 9) -> dict:
    r"""The atoms of the genuine scores and the impostor scores that coincide with them (Fig. 6, RH).

    Scores are compared after rounding to ``decimals`` (as :func:`ldpnb.measures.kl_mixed_1d` does).
    Returns ``atoms`` (distinct genuine values), ``M`` (impostor scores) and ``c`` (impostor scores
    equal to a genuine value).  When the genuine scores form one atom that ``c`` impostor scores hit,
    :math:`D(f_G\|f_I) = \log_2(M/c)`: the PSE counts exact coincidences.

    Examples
    --------
    >>> atom_coincidences(np.array([2.0, 2.0]), np.array([0.0, 2.0, 1.0, 0.5]))
    {'atoms': 1, 'M': 4, 'c': 1}
    """
    g = np.unique(np.round(np.asarray(genuine, dtype=float), decimals))
    im = np.round(np.asarray(impostor, dtype=float), decimals)
    return dict(atoms=int(g.size), M=int(im.size), c=int(np.isin(im, g).sum()))
