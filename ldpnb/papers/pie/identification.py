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
from typing import Iterable, Sequence

import numpy as np

from ldpnb.attacks.linkage import score_experiment, sequences_from_events, split_halves
from ldpnb.contracts import Array, Instance, Integer, OneOf, RandomState, Real, Unchecked, contract
from ldpnb.measures.pse import det_curve, frr_at_far, gaussian_frr_at_far, kl_knn_1d, mu_for_kl_bits, pse_subsamples
from ldpnb.utils import check_random_state

__all__ = [
    "Traces",
    "lt_traces",
    "rh_traces",
    "pse_experiment",
    "pse_curve",
    "convergence",
    "equal_n",
    "verification_rates",
    "synth_biometric_scores",
    "biometric_standin",
    "increase_evidence",
    "single_location",
    "partial_knowledge",
    "zero_score_anatomy",
    "atom_coincidences",
]

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

    def subset(self, idx) -> "Traces":
        """The traces of the users ``idx``."""
        return Traces(self.name, [self.seqs[i] for i in idx], self.k, self.split)


_TRACES = Instance(Traces, example=Traces("LT", [np.array([0, 1, 1, 0]), np.array([1, 0, 0, 1])], 2))


@contract(min_events=Integer(1, None))
def lt_traces(min_events: int = 10) -> Traces:
    """LT: Gowalla New York check-ins, one time-ordered trace per user with >= ``min_events`` check-ins."""
    from ldpnb.data import load_gowalla_nyc

    gw = load_gowalla_nyc()
    t = gw.time.dt.tz_localize(None).to_numpy().astype("int64")
    seqs, _, items = sequences_from_events(gw.user.to_numpy(), t, gw.location_id.to_numpy(), min_events=min_events)
    return Traces("LT", seqs, len(items))


@contract(min_events=Integer(1, None), min_rating=Real(0.5, 5))
def rh_traces(min_events: int = 10, min_rating: float = 4.0) -> Traces:
    """RH: MovieLens ``ml-latest-small`` likes (ratings >= 4 stars) in time order, users with >= ``min_events`` likes."""
    from ldpnb.data import load_movielens_latest_small

    r = load_movielens_latest_small().ratings
    likes = r[r.rating >= min_rating]
    seqs, _, items = sequences_from_events(likes.user.to_numpy(), likes.timestamp.to_numpy(), likes.item.to_numpy(),
                                           min_events=min_events)
    return Traces("RH", seqs, len(items), split=False)


@contract(train=_SEQS, query=_SEQS, k=Integer(1, None), scoring=OneOf("raw", "offset"), se_reps=Integer(0, None),
          rng=RandomState())
def pse_experiment(train, query, k: int, *, scoring: str = "offset", se_reps: int = 10, rng=None) -> dict:
    """PSE (bits), its standard error, the best-score error, the estimator ceiling, and the scores.

    A thin wrapper of :func:`ldpnb.attacks.score_experiment` (the Markov-chain matcher of Sec. 5.1)
    that also records the FRR at FAR 0.1 %, 1 % and 10 % (``frr``, Fig. 7) and, with
    ``se_reps >= 2``, ``pse_sub``: the PSE estimates on ``se_reps`` random half-size user subsets
    (:func:`ldpnb.measures.pse_subsamples`, with a child generator ``rng.spawn(1)[0]``: the stream
    of ``rng``, and so ``pse_se``, is the same as without them), the samples an interval for the
    PSE is built from.

    Examples
    --------
    >>> seqs = [np.array([u, u + 1, u, u + 1, u]) % 6 for u in range(6)]
    >>> r = pse_experiment(seqs, seqs, 6, se_reps=2, rng=0)
    >>> r["pse_sub"].shape, sorted(r["frr"])
    ((2,), [0.001, 0.01, 0.1])
    """
    rng = check_random_state(rng)
    r = score_experiment(train, query, k, scoring=scoring, se_reps=se_reps, rng=rng)
    r["frr"] = verification_rates(r["genuine"], r["impostor"])
    if se_reps >= 2:
        n = len(r["genuine"])
        S = np.empty((n, n))
        S[~np.eye(n, dtype=bool)] = r["impostor"]     # genuine_impostor's row-major order
        S[np.diag_indices(n)] = r["genuine"]
        r["pse_sub"] = pse_subsamples(S, 0.5, se_reps, rng=rng.spawn(1)[0])
    return r


@contract(traces=_TRACES, ts=Instance(tuple, list, example=(1, 2)), se_reps=Integer(0, None),
          scoring=OneOf("raw", "offset"), rng=RandomState())
def pse_curve(traces: Traces, ts: Sequence = (1, 2, 3, 4, 5), *, se_reps: int = 10, scoring: str = "offset",
              rng=None) -> dict:
    """Fig. 5, maximum knowledge: the adversary trains on :math:`X` itself and each user sends
    :math:`Y = X` (key ``"X"``) or the first ``t`` events of :math:`X` (keys ``t``).

    For LT, :math:`X` is the latter half of the trace; for RH the whole rating history.
    """
    rng = check_random_state(rng)
    X = traces.X
    out = {"X": pse_experiment(X, X, traces.k, scoring=scoring, se_reps=se_reps, rng=rng)}
    for t in ts:
        out[t] = pse_experiment(X, [s[:t] for s in X], traces.k, scoring=scoring, se_reps=se_reps, rng=rng)
    return out


@contract(traces=_TRACES, ts=Instance(tuple, list, example=(1,)), fractions=Instance(tuple, list, example=(0.5,)),
          reps=Integer(2, None), rng=RandomState())
def convergence(traces: Traces, ts: Sequence = (1, 3, "X"), fractions: Sequence = (1 / 8, 1 / 4, 1 / 2), *,
                reps: int = 8, rng=None) -> dict:
    """The PSE estimate on random subsets of the users (maximum knowledge, as in Fig. 5).

    The paper (Sec. 5.1) "confirmed that for each dataset, :math:`D(f_G\\|f_I)` converges as the
    number of users increases".  Returns ``{t: {"n": [...], "mean": [...], "sd": [...], "values":
    [...]}}`` over the subset sizes ``fraction * N`` (``reps`` subsets each, their estimates in
    ``values``) and the full population ``N``.
    """
    rng = check_random_state(rng)
    X = traces.X
    N = len(X)
    out = {}
    for t in ts:
        ns, means, sds, values = [], [], [], []
        for f in (*fractions, 1.0):
            m = N if f == 1.0 else max(2, int(round(f * N)))
            vals = []
            for _ in range(1 if m == N else reps):
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


@contract(traces=_TRACES, n=Integer(2, None), ts=Instance(tuple, list, example=(1,)), reps=Integer(2, None),
          rng=RandomState())
def equal_n(traces: Traces, n: int, ts: Sequence = ("X", 1, 2, 3, 4, 5), *, reps: int = 10, rng=None) -> dict:
    """Fig. 5 on ``reps`` random subsets of ``n`` users: ``{t: {"mean", "sd", "values"}}`` of the PSE
    (``values``: the estimate on each subset).

    The PSE estimate grows with the number of users while the scores separate completely
    (:func:`convergence`), so two data sets are compared at the same number of users.
    """
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
    return {t: dict(mean=float(np.mean(v)), sd=float(np.std(v, ddof=1)), values=np.asarray(v, dtype=float))
            for t, v in vals.items()}


@contract(genuine=Array(1), impostor=Array(1), fars=Instance(tuple, list, example=(0.01,)))
def verification_rates(genuine, impostor, fars: Sequence = (0.001, 0.01, 0.1)) -> dict:
    """FRR at each FAR of ``fars`` (the smallest FRR among thresholds with FAR <= target, Fig. 7)."""
    return {float(f): frr_at_far(genuine, impostor, float(f)) for f in fars}


@contract(n=Integer(2, None), mu=Real(), fail_rate=Real(0, 1, high_open=True), n_impostor=Integer(1, None),
          rng=RandomState())
def synth_biometric_scores(n: int, mu: float, *, fail_rate: float = 0.0, n_impostor: int = 1_000_000,
                           rng=None) -> tuple[np.ndarray, np.ndarray]:
    """Synthetic (genuine, impostor) scores: :math:`f_I = N(0,1)`, :math:`f_G = (1-w)N(\\mu,1) + wN(0,1)`.

    An illustration of a biometric matcher with a known PSE: the paper's face, fingerprint and
    finger-vein score sets (Sec. 5.1) are not public.
    """
    rng = check_random_state(rng)
    gen = rng.standard_normal(n) + mu * (rng.random(n) >= fail_rate)
    return gen, rng.standard_normal(n_impostor)


@contract(d_bits=Real(0, 100, low_open=True), fail_rate=Real(0, 1, high_open=True), n=Integer(2, None),
          n_impostor=Integer(1, None), sets=Integer(1, None), rng=RandomState())
def biometric_standin(d_bits: float, *, fail_rate: float = 0.0, n: int = 2000, n_impostor: int = 1_000_000,
                      sets: int = 3, rng=None) -> dict:
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
    return dict(target=d_bits, mu=mu, w=fail_rate, pse=float(np.mean(est)), estimates=np.asarray(est),
                sd=float(np.std(est, ddof=1)) if sets > 1 else float("nan"),
                frr=dict(zip(fars.tolist(), np.atleast_1d(gaussian_frr_at_far(mu, fars, fail_rate)).tolist())))


@contract(values=Array(1, min_size=2), se=Array(1, min_size=2, low=0), rise_from=Integer(0, None))
def increase_evidence(values, se, rise_from: int = 2) -> dict:
    """The numbers of an "increasing" claim on noisy estimates (Figs. 5, 6).

    ``steps`` (successive differences) with ``step_se`` (the standard error of each difference), and
    the ``rise`` from ``values[rise_from]`` to the last value with its ``rise_se``: a claim reads
    "no step down by more than 2 SE, and still rising over the upper part of the range".
    """
    v, s = np.asarray(values, dtype=float), np.asarray(se, dtype=float)
    if v.shape != s.shape:
        raise ValueError(f"values and se must have the same length, got {v.size} and {s.size}")
    if rise_from >= v.size - 1:
        raise ValueError(f"rise_from must be below the last index {v.size - 1}, got {rise_from}")
    return dict(steps=np.diff(v), step_se=np.hypot(s[1:], s[:-1]), rise=float(v[-1] - v[rise_from]),
                rise_se=float(math.hypot(s[-1], s[rise_from])))


@contract(traces=_TRACES, eps=Array(1, low=float(np.finfo(float).tiny)), g=Integer(2, None),
          reps=Integer(1, None), null_reps=Integer(2, None), rng=RandomState())
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
    from ldpnb.attacks.linkage import MarkovChainMatcher, SingleLocationAttack
    from ldpnb.measures.pse import kl_mixed_1d

    rng = check_random_state(rng)
    pi = MarkovChainMatcher().fit(traces.former, traces.k).pi
    att = SingleLocationAttack(pi, np.array([s[0] for s in traces.X]))
    eps = np.asarray(eps, dtype=float)
    exact = att.rr_exact(eps)
    out = dict(n=traces.n, k=traces.k, g=g, eps=eps, exact=exact, reports=reps * traces.n, pse={}, err={}, err_se={},
               pse_rounds={}, err_rounds={}, null={}, resolvable={})

    def pse_of(r):
        return kl_mixed_1d(r["genuine"], r["impostor"], impostor_weights=r["impostor_weights"])

    n = traces.n
    for m in ("rr", "glh"):
        gm = g if m == "glh" else None
        pse, err, err_se, pse_r, err_r = [], [], [], [], []
        for e in eps:
            rounds = [att.simulate(m, float(e), g=gm, reps=1, rng=rng) for _ in range(reps)]
            pooled = {key: np.concatenate([r[key] for r in rounds]) for key in ("genuine", "impostor", "impostor_weights")}
            pse.append(pse_of(pooled))
            pse_r.append([pse_of(r) for r in rounds] if reps > 1 else [pse[-1]])
            e_r = np.array([r["error_rate"] for r in rounds])
            s2_r = np.array([r["error_se"] ** 2 * n for r in rounds])     # per-report variances (ddof = 1)
            N = reps * n                                                   # pooled variance over all reports
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


@contract(traces=_TRACES, ms=Instance(tuple, list, example=(1, 2)), scorings=Instance(tuple, list, example=("offset",)),
          se_reps=Integer(0, None), rng=RandomState())
def partial_knowledge(traces: Traces, ms: Sequence[int], *, scorings: Sequence[str] = ("offset", "raw"),
                      se_reps: int = 10, rng=None) -> dict:
    """Fig. 6: the adversary trains on the first ``m`` events of the former half (``split`` traces:
    separated from :math:`X`) or of :math:`X` itself (RH); each user sends :math:`Y = X`.

    Returns ``{(scoring, m): pse_experiment(...)}`` in the order of ``scorings``, then ``ms``.
    """
    rng = check_random_state(rng)
    source = traces.former if traces.split else traces.X
    return {(sc, m): pse_experiment([s[:m] for s in source], traces.X, traces.k, scoring=sc, se_reps=se_reps,
                                    rng=rng)
            for sc in scorings for m in ms}


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


@contract(genuine=Array(1), impostor=Array(1), decimals=Integer(0, 15))
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
