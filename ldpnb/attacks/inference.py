"""Attribute inference against RS+FD / RS+RFD: which attribute of a tuple is the real one.
Bayes plug-in and classifier (XGBoost) attackers under the NK, PK and HM knowledge models.

Arcolezi, Gambs, Couchot and Palamidessi (2023), Section 3.3.
"""

from __future__ import annotations

import contextlib
from typing import Sequence

import numpy as np

from ldpnb._optional import import_optional
from ldpnb.contracts import EPSILON, SAMPLE_SIZE, SEED, Array, Instance, Integer, OneOf, Optional, Real, contract
from ldpnb.estimators._inversion import fo_estimate
from ldpnb.mechanisms import multidim as md
from ldpnb.utils import check_distribution, check_random_state

_REPORTS = Instance(list, tuple, example=[np.array([0, 1]), np.array([1, 0])])
_KS = Array(1, integer=True, low=2, high=1 << 20, max_size=1 << 16)
_PROTOCOL = OneOf(*md._RSFD_PROTOCOLS)
_FAKE = OneOf(*md._FAKES)
_FREQS = Instance(list, tuple, example=[np.array([0.5, 0.5]), np.array([0.5, 0.5])])
_PRIORS = Optional(Instance(list, tuple, example=None))
_LABELS = Array(1, integer=True, low=0)

__all__ = [
    "synthetic_profiles",
    "aif_log_likelihood",
    "aif_bayes",
    "aif_bayes_models",
    "rsfd_features",
    "aif_classifier",
]


# ---------------------------------------------------------------------------------------------
# attribute inference on RS+FD / RS+RFD (Sec. 3.3)
# ---------------------------------------------------------------------------------------------
@contract(freqs=_FREQS, s=SAMPLE_SIZE, rng=SEED)
def synthetic_profiles(freqs, s: int, *, rng=None) -> np.ndarray:
    """NK model: ``s`` synthetic tuples, attribute j drawn independently from ``freqs[j]``
    (the product of the estimated marginals), (s, d) int array."""
    rng = check_random_state(rng)
    freqs = [check_distribution(f, f"freqs[{j}]", atol=1e-8) for j, f in enumerate(freqs)]
    if not freqs:
        raise ValueError("freqs must hold one distribution per attribute (got none)")
    return np.column_stack([md._sample_values(md.clip_normalize(f), int(s), rng) for f in freqs])


def _check_aif(reports, ks, protocol: str, fake: str, freqs, priors) -> None:
    """The rules between the arguments of :func:`aif_log_likelihood`: one report array, one marginal
    (and one prior) per attribute, reports of the protocol's shape on the attribute's domain."""
    d = len(ks)
    if len(reports) != d or len(freqs) != d:
        raise ValueError(
            f"reports and freqs must hold one entry per attribute (len(ks) = {d}), "
            f"got {len(reports)} report arrays and {len(freqs)} marginals"
        )
    if fake == "prior" and priors is None:
        raise ValueError("priors: fake='prior' needs one prior per attribute, got None")
    if priors is not None and len(priors) != d:
        raise ValueError(f"priors must hold one distribution per attribute (len(ks) = {d}), got {len(priors)}")
    n = None
    for j in range(d):
        k = int(ks[j])
        y = np.asarray(reports[j])
        if protocol == "grr":
            if y.ndim != 1 or y.size == 0 or y.dtype.kind not in "iu" or y.min() < 0 or y.max() >= k:
                raise ValueError(f"reports[{j}] must be a non-empty 1-D integer array of values in {{0..{k - 1}}}")
        elif y.ndim != 2 or y.shape[0] == 0 or y.shape[1] != k or np.any((y != 0) & (y != 1)):
            raise ValueError(f"reports[{j}] must be a non-empty (n, {k}) array of 0/1 bits")
        if n is not None and y.shape[0] != n:
            raise ValueError(f"reports[{j}] has {y.shape[0]} reports, reports[0] has {n}")
        n = y.shape[0]
        f = check_distribution(freqs[j], f"freqs[{j}]", atol=1e-6)
        if f.size != k:
            raise ValueError(f"freqs[{j}] must have k = {k} entries, got {f.size}")
        if priors is not None:
            g = check_distribution(priors[j], f"priors[{j}]", atol=1e-6)
            if g.size != k:
                raise ValueError(f"priors[{j}] must have k = {k} entries, got {g.size}")


@contract(reports=_REPORTS, ks=_KS, eps=EPSILON, protocol=_PROTOCOL, fake=_FAKE, freqs=_FREQS, priors=_PRIORS)
def aif_log_likelihood(reports, ks, eps: float, protocol: str, fake: str, freqs, *, priors=None) -> np.ndarray:
    r"""Log-likelihood ratios :math:`\log L_j(y_j) = \log P_{real,j}(y_j) - \log P_{fake,j}(y_j)`
    of "attribute j was sampled" for every report, (n, d).

    Given the sampled attribute t, the fake values are independent of everything, so
    :math:`P(\mathbf y\mid t=j) \propto L_j(y_j)` and the MAP rule is
    :math:`\hat t = \arg\max_j L_j(y_j)`.  GRR: :math:`P_{real,j}(y) = q +
    (p-q) f_j(y)`, fake ``1/k_j`` or the prior.  UE with per-bit ratios :math:`r(1) = p/q`,
    :math:`r(0) = (1-p)/(1-q)`: :math:`L_j = \sum_v f_j(v) r(B_v) / \sum_v g_j(v) r(B_v)` with
    ``g_j`` the fake one-hot distribution (UE-r/RS+RFD) or denominator 1 (UE-z).
    ``fake`` / ``priors`` describe the fake-data model *assumed by the attacker*.
    """
    ks = np.asarray(ks, dtype=np.int64)
    _check_aif(reports, ks, protocol, fake, freqs, priors)
    d = len(reports)
    n = np.asarray(reports[0]).shape[0]
    out = np.empty((n, d))
    for j in range(d):
        k = int(ks[j])
        p, q = md.rsfd_params(protocol, k, eps, d)
        f = np.asarray(freqs[j], dtype=float)
        g = md._fake_dist(fake, k, None if priors is None else np.asarray(priors[j], float))
        y = np.asarray(reports[j])
        with np.errstate(divide="ignore"):
            if protocol == "grr":
                out[:, j] = np.log(q + (p - q) * f[y]) - np.log(g[y])
            else:
                B = y.astype(float)
                r1, r0 = p / q, (1 - p) / (1 - q)
                num = B @ (f * r1) + (1 - B) @ (f * r0)
                ll = np.log(num)
                if fake != "zero":
                    ll -= np.log(B @ (g * r1) + (1 - B) @ (g * r0))
                out[:, j] = ll
    return out


def _argmax_random_ties(L: np.ndarray, rng) -> np.ndarray:
    mx = L.max(axis=1, keepdims=True)
    cand = (L >= mx - 1e-12 * np.maximum(1.0, np.abs(np.where(np.isfinite(mx), mx, 0.0)))) | (L == mx)
    scores = rng.random(L.shape)
    scores[~cand] = -1.0
    return scores.argmax(axis=1)


@contract(reports=_REPORTS, ks=_KS, eps=EPSILON, protocol=_PROTOCOL, fake=_FAKE, freqs=_FREQS, priors=_PRIORS, rng=SEED)
def aif_bayes(reports, ks, eps: float, protocol: str, fake: str, freqs, *, priors=None, rng=None) -> np.ndarray:
    """Bayes plug-in attribute inference: :math:`\\hat t = \\arg\\max_j L_j(y_j)` with the
    marginals ``freqs`` (true marginals: the oracle upper bound; server estimates: the limit of
    the NK attack as s -> infinity).  Ties are broken uniformly at random."""
    rng = check_random_state(rng)
    L = aif_log_likelihood(reports, ks, eps, protocol, fake, freqs, priors=priors)
    return _argmax_random_ties(L, rng)


def _fo_from_labelled(reports, t, ks, eps, protocol):
    """Per-attribute marginal estimates from the labelled users' *real* reports (PK knowledge):
    Eq. (2) with the randomizer's (p, q) at eps' on the users whose sampled attribute is j."""
    d = len(reports)
    est, nj = [], []
    for j in range(d):
        k = int(ks[j])
        p, q = md.rsfd_params(protocol, k, eps, d)
        y = np.asarray(reports[j])[t == j]
        c = np.bincount(y, minlength=k) if y.ndim == 1 else y.sum(axis=0)
        m = max(int((t == j).sum()), 1)
        est.append(md.clip_normalize(fo_estimate(c, m, p, q)))
        nj.append(m)
    return est, np.array(nj)


def _fake_from_labelled(reports, t, ks, eps, protocol):
    """Fake-data distribution of each attribute learned from labelled users that did *not*
    sample it: empirical histogram (GRR, add-one smoothing) or Eq. (2) on their bits (UE-r)."""
    d = len(reports)
    out = []
    for j in range(d):
        k = int(ks[j])
        y = np.asarray(reports[j])[t != j]
        if y.ndim == 1:
            h = np.bincount(y, minlength=k) + 1.0
            out.append(h / h.sum())
        else:
            p, q = md.rsfd_params(protocol, k, eps, d)
            est = md.clip_normalize(fo_estimate(y.sum(axis=0), max(y.shape[0], 1), p, q))
            out.append(np.maximum(est, 1e-6) / np.maximum(est, 1e-6).sum())
    return out


@contract(
    reports=_REPORTS,
    t=_LABELS,
    ks=_KS,
    eps=EPSILON,
    protocol=_PROTOCOL,
    fake=_FAKE,
    priors=_PRIORS,
    attacker_fake=Optional(_FAKE),
    pk_fractions=Array(1, low=0.0, high=1.0, min_size=0, max_size=64),
    rng=SEED,
)
def aif_bayes_models(
    reports,
    t,
    ks,
    eps: float,
    protocol: str,
    fake: str,
    *,
    priors=None,
    attacker_fake: str | None = None,
    pk_fractions: Sequence[float] = (0.5,),
    rng=None,
) -> dict:
    """AIF-ACC (%) of the Bayes plug-in attacker under the NK, PK and HM knowledge models.

    * NK: marginals = the server's estimates (clip+renormalised): the s -> infinity limit of
      the paper's NK classifier; the fake-data model is ``attacker_fake`` (default: the true one);
    * PK (``n_pk = frac * n`` labelled users): marginals estimated from the labelled users' real
      reports and the fake-data distribution learned from the same users' fake reports (what a
      classifier trained on labelled tuples learns); tested on the other users;
    * HM: inverse-variance pooling of the NK and PK marginal estimates, same test users as PK.

    Returns ``{"NK": %, "PK<frac>": %, "HM<frac>": %}``.
    """
    rng = check_random_state(rng)
    ks = np.asarray(ks, dtype=np.int64)
    afake = fake if attacker_fake is None else attacker_fake
    apriors = priors if afake == "prior" else None
    n = t.size
    d = len(reports)
    f_nk = md.rsfd_aggregate(reports, ks, eps, protocol, fake, priors=priors)
    out = {"NK": 100 * float(np.mean(aif_bayes(reports, ks, eps, protocol, afake, f_nk, priors=apriors, rng=rng) == t))}
    v_nk = []
    for j in range(d):
        k = int(ks[j])
        p, q = md.rsfd_params(protocol, k, eps, d)
        v_nk.append(
            float(
                np.mean(
                    md.rsfd_variance(
                        np.zeros(k), n, d, k, p, q, md._variant(protocol, fake), priors[j] if fake == "prior" else None
                    )
                )
            )
        )
    for frac in pk_fractions:
        lab = np.zeros(n, dtype=bool)
        lab[rng.choice(n, size=int(round(frac * n)), replace=False)] = True
        lrep = [np.asarray(r)[lab] for r in reports]
        f_pk, nj = _fo_from_labelled(lrep, t[lab], ks, eps, protocol)
        pfake, pri_pk = afake, apriors
        if fake != "zero":  # labelled users also reveal the fake-data distribution (t != j)
            pfake, pri_pk = "prior", _fake_from_labelled(lrep, t[lab], ks, eps, protocol)
        test = [np.asarray(r)[~lab] for r in reports]
        t_pk = aif_bayes(test, ks, eps, protocol, pfake, f_pk, priors=pri_pk, rng=rng)
        f_hm = []
        for j in range(d):
            k = int(ks[j])
            p, q = md.rsfd_params(protocol, k, eps, d)
            v_pk = q * (1 - q) / (nj[j] * (p - q) ** 2)
            w = (1 / v_nk[j]) / (1 / v_nk[j] + 1 / v_pk)
            f_hm.append(md.clip_normalize(w * f_nk[j] + (1 - w) * f_pk[j]))
        t_hm = aif_bayes(test, ks, eps, protocol, pfake, f_hm, priors=pri_pk, rng=rng)
        out[f"PK{frac:g}"] = 100 * float(np.mean(t_pk == t[~lab]))
        out[f"HM{frac:g}"] = 100 * float(np.mean(t_hm == t[~lab]))
    return out


@contract(reports=_REPORTS)
def rsfd_features(reports) -> np.ndarray:
    """Classifier features of RS+FD tuples: label-encoded values (GRR) or concatenated bits (UE)."""
    cols = [np.asarray(r).reshape(np.asarray(r).shape[0], -1) for r in reports]
    return np.hstack(cols).astype(np.float32)


def _openmp_threads(n_jobs: int):
    """XGBoost takes at most OpenMP's thread limit, which ``OMP_NUM_THREADS=1`` (the book's setting) caps at 1
    whatever ``n_jobs`` says; ``n_jobs > 1`` raises the limit for the fit (threadpoolctl), 1 changes nothing.
    On a busy machine, spinning OpenMP threads are slow: runs with ``n_jobs > 1`` set ``OMP_WAIT_POLICY=PASSIVE``
    (:mod:`ldpnb.repro.paperscale` does)."""
    if n_jobs <= 1:
        return contextlib.nullcontext()
    threadpool_limits = import_optional("threadpoolctl").threadpool_limits  # only when XGBoost trains

    return threadpool_limits(limits=int(n_jobs), user_api="openmp")


def _make_classifier(classifier: str, seed: int, n_estimators: int | None, n_jobs: int):
    if classifier == "xgboost":
        XGBClassifier = import_optional("xgboost").XGBClassifier  # loads only when a classifier is trained

        kw = {} if n_estimators is None else {"n_estimators": int(n_estimators)}
        return XGBClassifier(random_state=seed, n_jobs=n_jobs, eval_metric="mlogloss", tree_method="hist", **kw)
    if classifier == "hgb":
        HistGradientBoostingClassifier = import_optional("sklearn.ensemble").HistGradientBoostingClassifier

        return HistGradientBoostingClassifier(max_iter=n_estimators or 100, random_state=seed)
    raise ValueError("classifier must be 'xgboost' or 'hgb'")


@contract(
    reports=_REPORTS,
    t=_LABELS,
    ks=_KS,
    eps=EPSILON,
    protocol=_PROTOCOL,
    fake=_FAKE,
    model=OneOf("NK", "PK", "HM"),
    s_factor=Real(0.0, 1e3),
    pk_factor=Real(0.0, 1.0, high_open=True),
    priors=_PRIORS,
    attacker_fake=Optional(_FAKE),
    classifier=OneOf("xgboost", "hgb"),
    n_estimators=Optional(Integer(1, 100_000)),
    max_train=Optional(SAMPLE_SIZE),
    n_jobs=Integer(-1, 1024),
    max_test=Optional(SAMPLE_SIZE),
    rng=SEED,
)
def aif_classifier(
    reports,
    t,
    ks,
    eps: float,
    protocol: str,
    fake: str,
    *,
    model: str = "NK",
    s_factor: float = 1.0,
    pk_factor: float = 0.5,
    priors=None,
    attacker_fake: str | None = None,
    classifier: str = "xgboost",
    n_estimators: int | None = None,
    max_train: int | None = None,
    n_jobs: int = 1,
    max_test: int | None = None,
    rng=None,
) -> float:
    """AIF-ACC (%) of a trained classifier (XGBoost in the paper, Sec. 3.3) against RS+FD/RS+RFD.

    * NK: ``s = s_factor * n`` synthetic profiles drawn from the server's estimates are run
      through the protocol (sampled attribute recorded as label) -> training set; test = all n.
    * PK: ``pk_factor * n`` labelled real tuples train, the rest test.
    * HM: NK synthetic + PK labelled train, the unlabelled rest test.

    ``attacker_fake`` is the fake-data rule the attacker uses for synthetic profiles (the
    artifact uses uniform fake data even against RS+RFD; ``"prior"`` is the prior-aware attacker).
    ``max_train`` subsamples the training set (reduced scales); ``n_estimators=None`` keeps
    XGBoost's default (100).
    """
    rng = check_random_state(rng)
    ks = np.asarray(ks, dtype=np.int64)
    n = t.size
    if model not in ("NK", "PK", "HM"):
        raise ValueError("model must be 'NK', 'PK' or 'HM'")
    afake = fake if attacker_fake is None else attacker_fake
    Xr = rsfd_features(reports)
    Xtr, ytr = [], []
    test = np.ones(n, dtype=bool)
    if model in ("PK", "HM"):
        lab = rng.choice(n, size=int(round(pk_factor * n)), replace=False)
        test[lab] = False
        Xtr.append(Xr[lab])
        ytr.append(t[lab])
    if model in ("NK", "HM"):
        freqs = md.rsfd_aggregate(reports, ks, eps, protocol, fake, priors=priors)
        s = int(round(s_factor * n))
        syn = synthetic_profiles(freqs, s, rng=rng)
        rep_s, t_s = md.rsfd_collect(syn, ks, eps, protocol, afake, priors=priors, rng=rng)
        Xtr.append(rsfd_features(rep_s))
        ytr.append(t_s)
    Xtr = np.vstack(Xtr)
    ytr = np.concatenate(ytr)
    if max_train is not None and ytr.size > max_train:
        keep = rng.choice(ytr.size, size=int(max_train), replace=False)
        Xtr, ytr = Xtr[keep], ytr[keep]
    # XGBoost needs contiguous labels 0..K-1: map the present classes
    classes = np.unique(ytr)
    clf = _make_classifier(classifier, int(rng.integers(2**31 - 1)), n_estimators, n_jobs)
    te = np.flatnonzero(test)
    if max_test is not None and te.size > max_test:
        te = rng.choice(te, size=int(max_test), replace=False)
    with _openmp_threads(n_jobs):
        clf.fit(Xtr, np.searchsorted(classes, ytr))
        pred = classes[np.asarray(clf.predict(Xr[te])).astype(int).ravel()]
    return 100.0 * float(np.mean(pred == t[te]))
