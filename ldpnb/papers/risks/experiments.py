"""Risks paper (Arcolezi, Gambs, Couchot and Palamidessi 2023): the experiment drivers of Sections
4-5 and the appendices, and the priors of RS+RFD.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ldpnb.attacks.inference import aif_bayes, aif_bayes_models, aif_classifier
from ldpnb.attacks.reidentification import (
    ReidIndex,
    pk_attribute_subset,
    reid_topk,
    simulate_smp_surveys,
    survey_design,
)
from ldpnb.contracts import (
    DENSE_DOMAIN,
    EPSILON,
    MAX_ENTRIES,
    POSITIVE,
    REPS,
    SAMPLE_SIZE,
    SEED,
    Array,
    Counts,
    Instance,
    Integer,
    Items,
    OneOf,
    Optional,
    Real,
    contract,
)
from ldpnb.measures import utility as md_utility
from ldpnb.mechanisms import multidim as md
from ldpnb.mechanisms.multidim import _check_eps
from ldpnb.utils import check_counts, check_domain_size, check_random_state

__all__ = [
    "prior_correct",
    "prior_dirichlet",
    "prior_zipf",
    "prior_exponential",
    "make_priors",
]

_X = Array(2, integer=True, low=0)
_KS = Array(1, integer=True, low=2, max_size=10_000)
_GRID = Instance(list, tuple, np.ndarray, example=[1.0])
_SEQ = Instance(list, tuple, example=[("grr", "uniform")])
_PRIOR_KIND = Optional(OneOf("correct", "dir", "zipf", "exp"))
_TOPK = Items(Integer(1, 1 << 20), max_size=64)


@contract(
    X=_X,
    ks=_KS,
    protocol=Instance(str, example="grr"),
    eps_grid=_GRID,
    setting=OneOf("uniform", "non-uniform"),
    n_surveys=Integer(1, 1000),
    runs=REPS,
    index=Optional(Instance(ReidIndex, example=None)),
    pk=Instance(bool, example=False),
    topk=_TOPK,
    eval_surveys=Optional(Items(Integer(1, 1000), max_size=1000)),
    rng=SEED,
)
def smp_rid_experiment(
    X,
    ks,
    protocol: str,
    eps_grid,
    *,
    setting: str = "uniform",
    n_surveys: int = 5,
    runs: int = 1,
    index: ReidIndex | None = None,
    pk: bool = False,
    topk: Sequence[int] = (1, 5, 10),
    eval_surveys: Sequence[int] | None = None,
    rng=None,
) -> dict:
    """RID-ACC of SMP over repeated surveys (Figs. 2, 9-13).

    For each run: one survey design and (``pk=True``) one PK-RI attribute subset, shared by all
    budgets of ``eps_grid`` (scalars, or per-attribute arrays for alpha-PIE; ``inf`` = clear).
    Returns ``{"FK": array (runs, len(eps_grid), len(eval_surveys), len(topk)), "PK": same or
    None, "pk_attrs": [...], "designs": [...]}`` in %; ``eval_surveys`` defaults to
    #surveys = 2..n_surveys.  Passing the same integer ``rng`` to several protocols gives them
    the same survey designs and PK subsets in every run, and the same stream for each (run, budget):
    common random numbers for comparisons (a budget sent in clear, ``inf``, gives every protocol the
    same profiles).
    """
    X, ks = md.check_dataset(X, ks)
    rng = check_random_state(rng)
    d = X.shape[1]
    if index is None:
        index = ReidIndex(X, ks)
    elif index.d != d or not np.array_equal(index.ks, ks):
        raise ValueError(f"index must be built on the attributes of X (d = {d}, ks = {ks.tolist()}), got d = {index.d}")
    if eval_surveys is not None and max(eval_surveys) > n_surveys:
        raise ValueError(f"eval_surveys must count surveys in [1, n_surveys = {n_surveys}], got {max(eval_surveys)}")
    ev = list(range(2, n_surveys + 1)) if eval_surveys is None else [int(v) for v in eval_surveys]
    shape = (runs, len(eps_grid), len(ev), len(topk))
    FK = np.zeros(shape)
    PK = np.zeros(shape) if pk else None
    pk_sets, designs = [], []
    for r in range(runs):
        designs.append(survey_design(d, n_surveys, rng=rng))
        pk_sets.append(pk_attribute_subset(d, rng=rng))
    # one stream per (run, budget), drawn before any collection: the protocols consume their
    # generator differently, so a shared stream would give them different designs from run 2 on
    sub = rng.integers(0, 2**63 - 1, size=(runs, len(eps_grid)), dtype=np.int64)
    for r, (design, attrs) in enumerate(zip(designs, pk_sets)):
        for e, eps in enumerate(eps_grid):
            res = simulate_smp_surveys(
                X, ks, protocol, eps, n_surveys, setting, design=design, rng=np.random.default_rng(int(sub[r, e]))
            )
            for s, sv in enumerate(ev):
                P = res["profiles"][sv - 1]
                FK[r, e, s] = list(reid_topk(P, index, topk).values())
                if pk:
                    PK[r, e, s] = list(reid_topk(P, index, topk, attrs=attrs).values())
    return {"FK": FK, "PK": PK, "pk_attrs": pk_sets, "designs": designs, "topk": tuple(topk), "surveys": ev}


@contract(
    X=_X,
    ks=_KS,
    eps_grid=_GRID,
    variants=_SEQ,
    runs=REPS,
    pk_fractions=Array(1, low=0.0, high=1.0, min_size=0, max_size=64),
    prior_kind=_PRIOR_KIND,
    rng=SEED,
)
def aif_experiment(
    X, ks, eps_grid, variants, *, runs: int = 1, pk_fractions=(0.1, 0.3, 0.5), prior_kind: str | None = None, rng=None
) -> dict:
    """AIF-ACC (%) of the Bayes attackers against RS+FD / RS+RFD (Figs. 3, 6, 14, 15, 17).

    ``variants``: list of ``(protocol, fake)``; with ``prior_kind`` (``"correct"``, ``"dir"``,
    ``"zipf"``, ``"exp"``) the users run RS+RFD with fresh priors per run (shared across eps).
    For each variant, eps and run: ``oracle`` (true marginals, true fake model), ``NK`` (server
    estimates; attacker assumes the *uniform* fake data of RS+FD, as in the artifact),
    ``NK_prior`` (server estimates, attacker uses the public prior; RS+RFD only) and ``PK``/``HM``
    for each labelled fraction.  Returns a dict of arrays (runs, len(eps_grid)) keyed by
    ``(variant_label, model)``.
    """
    X, ks = md.check_dataset(X, ks)
    rng = check_random_state(rng)
    n, d = X.shape
    f_true = md_utility.marginals(X, ks)
    counts = [np.bincount(X[:, j], minlength=int(ks[j])) for j in range(d)]
    out: dict = {}
    for r in range(runs):
        priors = None if prior_kind is None else make_priors(prior_kind, ks, counts=counts, rng=rng)
        for protocol, fake in variants:
            users_fake = fake if prior_kind is None or fake == "zero" else "prior"
            naive_fake = "uniform" if protocol == "grr" else ("zero" if fake == "zero" else "random")
            label = f"{protocol.upper()}" + ("" if protocol == "grr" else ("-z" if fake == "zero" else "-r"))
            for e, eps in enumerate(eps_grid):
                rep, t = md.rsfd_collect(X, ks, eps, protocol, users_fake, priors=priors, rng=rng)
                res = {
                    "oracle": 100
                    * float(np.mean(aif_bayes(rep, ks, eps, protocol, users_fake, f_true, priors=priors, rng=rng) == t))
                }
                res.update(
                    aif_bayes_models(
                        rep,
                        t,
                        ks,
                        eps,
                        protocol,
                        users_fake,
                        priors=priors,
                        attacker_fake=naive_fake,
                        pk_fractions=pk_fractions,
                        rng=rng,
                    )
                )
                if users_fake == "prior":
                    f_hat = md.rsfd_aggregate(rep, ks, eps, protocol, "prior", priors=priors)
                    res["NK_prior"] = 100 * float(
                        np.mean(aif_bayes(rep, ks, eps, protocol, "prior", f_hat, priors=priors, rng=rng) == t)
                    )
                for key, v in res.items():
                    out.setdefault((label, key), np.zeros((runs, len(eps_grid))))[r, e] = v
    return out


@contract(
    X=_X,
    ks=_KS,
    eps_grid=_GRID,
    methods=_SEQ,
    runs=REPS,
    prior_kind=OneOf("correct", "dir", "zipf", "exp", "uniform"),
    postprocess=Optional(OneOf("clip")),
    rng=SEED,
)
def rsfd_mse_experiment(
    X, ks, eps_grid, methods, *, runs: int = 20, prior_kind: str = "correct", postprocess: str | None = None, rng=None
) -> dict:
    """MSE_avg of RS+FD vs RS+RFD with the exact count sampler (Figs. 5, 16).

    ``methods``: list of ``(protocol, fake)`` with fake in {"uniform", "random", "prior"}.
    Priors are drawn once per run (shared across eps).  Returns ``{"mse": {label: (runs, E)},
    "analytic": {label: (runs, E)}}`` where ``analytic`` is the exact expected MSE of the
    unbiased estimator (mean of Eqs. 8/9 with the true f) and ``approx`` the averaged
    approximate variance (f = 0, App. E.1).
    """
    X, ks = md.check_dataset(X, ks)
    rng = check_random_state(rng)
    n, d = X.shape
    counts = [np.bincount(X[:, j], minlength=int(ks[j])) for j in range(d)]
    f_true = [c / n for c in counts]
    mse, ana, apx = {}, {}, {}
    for r in range(runs):
        priors = make_priors(prior_kind, ks, counts=counts, rng=rng)
        for protocol, fake in methods:
            label = (
                ("RS+RFD" if fake == "prior" else "RS+FD")
                + f"[{protocol.upper()}"
                + ("" if protocol == "grr" else "-r")
                + "]"
            )
            pri = priors if fake == "prior" else None
            for e, eps in enumerate(eps_grid):
                C = md.rsfd_counts_sampler(counts, d, eps, protocol, fake, priors=pri, rng=rng)
                est = md.rsfd_estimate_all(C, n, ks, eps, protocol, fake, priors=pri, postprocess=postprocess)
                mse.setdefault(label, np.zeros((runs, len(eps_grid))))[r, e] = md_utility.mse_avg(f_true, est)
                ana.setdefault(label, np.zeros((runs, len(eps_grid))))[r, e] = md.rsfd_approx_variance(
                    ks, n, eps, protocol, fake, priors=pri, f=f_true
                )
                apx.setdefault(label, np.zeros((runs, len(eps_grid))))[r, e] = md.rsfd_approx_variance(
                    ks, n, eps, protocol, fake, priors=pri
                )
    return {"mse": mse, "analytic": ana, "approx": apx}


@contract(
    X=_X,
    ks=_KS,
    eps_grid=_GRID,
    variants=_SEQ,
    models=_SEQ,
    runs=REPS,
    prior_kind=_PRIOR_KIND,
    n_estimators=Optional(Integer(1, 100_000)),
    max_train=Optional(Integer(1, MAX_ENTRIES)),
    n_jobs=Integer(1, 1024),
    classifier=OneOf("xgboost", "hgb"),
    rng=SEED,
)
def aif_xgb_experiment(
    X,
    ks,
    eps_grid,
    variants,
    models,
    *,
    runs: int = 1,
    prior_kind: str | None = None,
    n_estimators: int | None = None,
    max_train: int | None = None,
    n_jobs: int = 1,
    classifier: str = "xgboost",
    rng=None,
) -> dict:
    """AIF-ACC (%) of the paper's trained classifier (XGBoost) under NK / PK / HM (Figs. 3, 6, 14, 15).

    ``models``: list of ``(name, model, s_factor, pk_factor)``, e.g. ``("NK s=1n", "NK", 1.0, 0.0)``.
    With ``prior_kind`` the users run RS+RFD (priors drawn once per run) and the NK attacker
    generates its synthetic tuples with *uniform* fake data, as in the artifact.
    Returns ``{(variant_label, name): array (runs, len(eps_grid))}``.
    """
    X, ks = md.check_dataset(X, ks)
    rng = check_random_state(rng)
    d = X.shape[1]
    counts = [np.bincount(X[:, j], minlength=int(ks[j])) for j in range(d)]
    out: dict = {}
    for r in range(runs):
        priors = None if prior_kind is None else make_priors(prior_kind, ks, counts=counts, rng=rng)
        for protocol, fake in variants:
            users_fake = fake if prior_kind is None or fake == "zero" else "prior"
            naive_fake = "uniform" if protocol == "grr" else ("zero" if fake == "zero" else "random")
            label = f"{protocol.upper()}" + ("" if protocol == "grr" else ("-z" if fake == "zero" else "-r"))
            for e, eps in enumerate(eps_grid):
                rep, t = md.rsfd_collect(X, ks, eps, protocol, users_fake, priors=priors, rng=rng)
                for name, model, s_factor, pk_factor in models:
                    acc = aif_classifier(
                        rep,
                        t,
                        ks,
                        eps,
                        protocol,
                        users_fake,
                        model=model,
                        s_factor=s_factor,
                        pk_factor=pk_factor,
                        priors=priors,
                        attacker_fake=naive_fake,
                        classifier=classifier,
                        n_estimators=n_estimators,
                        max_train=max_train,
                        n_jobs=n_jobs,
                        rng=rng,
                    )
                    out.setdefault((label, name), np.zeros((runs, len(eps_grid))))[r, e] = acc
    return out


@contract(counts=Array(1, integer=True, low=0, max_size=1 << 20), eps_dp=EPSILON, rng=SEED)
def prior_correct(counts, eps_dp: float, *, rng=None) -> np.ndarray:
    """ "Correct" prior: central Laplace mechanism on the counts (sensitivity 1, scale 1/eps_dp),
    rounded, clipped at 0, normalised (Sec. 5.2.1; eps_dp = 0.1/d in the paper)."""
    rng = check_random_state(rng)
    eps_dp = _check_eps(eps_dp, "eps_dp")
    c = check_counts(counts, "counts")
    noisy = np.clip(np.rint(c + rng.laplace(0.0, 1.0 / eps_dp, size=c.size)), 0, None)
    return noisy / noisy.sum() if noisy.sum() > 0 else np.full(c.size, 1.0 / c.size)


@contract(k=DENSE_DOMAIN, rng=SEED)
def prior_dirichlet(k: int, *, rng=None) -> np.ndarray:
    """ "Incorrect" prior DIR: Dirichlet(1_k) (Sec. 5.2.1)."""
    k = check_domain_size(k)
    rng = check_random_state(rng)
    return rng.dirichlet(np.ones(k))


def _hist_prior(samples: np.ndarray, k: int) -> np.ndarray:
    h = np.histogram(samples, bins=int(k))[0].astype(float)
    return h / h.sum()


@contract(k=DENSE_DOMAIN, rng=SEED, a=Real(1.0, 1e6, low_open=True), size=SAMPLE_SIZE)
def prior_zipf(k: int, *, rng=None, a: float = 1.01, size: int = 100_000) -> np.ndarray:
    """ "Incorrect" prior ZIPF (App. E.1): histogram of ``size`` Zipf(a) draws in ``k`` equal bins."""
    k = check_domain_size(k)
    rng = check_random_state(rng)
    return _hist_prior(rng.zipf(a, size=size).astype(float), k)


@contract(k=DENSE_DOMAIN, rng=SEED, scale=POSITIVE, size=SAMPLE_SIZE)
def prior_exponential(k: int, *, rng=None, scale: float = 1.0, size: int = 100_000) -> np.ndarray:
    """ "Incorrect" prior EXP (App. E.1): histogram of ``size`` Exponential(scale) draws in k bins."""
    k = check_domain_size(k)
    rng = check_random_state(rng)
    return _hist_prior(rng.exponential(scale, size=size), k)


@contract(
    kind=OneOf("correct", "dir", "zipf", "exp", "uniform"),
    ks=_KS,
    counts=Optional(Items(Counts(), max_size=10_000)),
    rng=SEED,
)
def make_priors(kind: str, ks, *, counts=None, rng=None) -> list[np.ndarray]:
    """One prior per attribute: ``kind`` in {"correct", "dir", "zipf", "exp", "uniform"}.
    ``"correct"`` needs the true ``counts`` and uses eps_dp = 0.1/d (Sec. 5.2.1)."""
    rng = check_random_state(rng)
    ks = np.asarray(ks, dtype=np.int64)
    d = ks.size
    if kind == "correct":
        if counts is None:
            raise ValueError("kind='correct' requires the true counts")
        if len(counts) != d or any(c.size != k for c, k in zip(counts, ks)):
            raise ValueError(
                f"counts must hold one count vector per attribute, of sizes ks = {ks.tolist()}, got sizes "
                f"{[c.size for c in counts]}"
            )
        return [prior_correct(c, 0.1 / d, rng=rng) for c in counts]
    if kind == "dir":
        return [prior_dirichlet(k, rng=rng) for k in ks]
    if kind == "zipf":
        return [prior_zipf(k, rng=rng) for k in ks]
    if kind == "exp":
        return [prior_exponential(k, rng=rng) for k in ks]
    if kind == "uniform":
        return [np.full(int(k), 1.0 / k) for k in ks]
    raise ValueError(f"kind must be correct|dir|zipf|exp|uniform, got {kind!r}")
