r"""The paper's attacker of Secs. 3.3, 4.3, 5.2.3 and Apps. D, E.2: XGBoost with default parameters,
one fit per (dataset, setting, variant, ε, run, model), as independent single-thread tasks.

Every fit of the paper's protocol is a :class:`Fit`: the dataset, the setting (``"fd"``: RS+FD;
``"correct"``, ``"dir"``, ``"zipf"``, ``"exp"``: RS+RFD with that kind of prior), the RS+FD variant
(``"GRR"``, ``"SUE-z"``, ``"OUE-z"``, ``"SUE-r"``, ``"OUE-r"``), ε, the run and the attacker model
(:data:`MODELS`: NK with :math:`s \in \{1n, 3n, 5n\}` synthetic profiles, PK with
:math:`n_{pk} \in \{0.1n, 0.3n, 0.5n\}` labelled users, and the three HM pairs; Sec. 4.3).

Reproducibility.  The random streams of a fit are fixed by its *name*, before any fit runs
(:func:`ldpnb.repro.seeds.seed_for`): the users' reports by (dataset, setting, variant, ε, run), the
priors of RS+RFD by (dataset, setting, run), the attacker's training set and XGBoost's seed by the
whole name.  A fit's numbers therefore depend on nothing but its name and the master seed: not on
the other fits of the plan, on their order, on the number of processes, or on the machine.  XGBoost
fits with **one thread** (``n_jobs=1``): two OpenMP threads change the trees (the order of the
floating-point sums of the histogram), so fits run in parallel *processes* (:func:`run_fits`), never
threads.  The chapter's fits are a subset of the full protocol's (:func:`protocol_plan`), with the same
numbers cell by cell.

Sparse input.  The UE variants' features are 0/1 bits (one column per value of every attribute),
0.3-20 % of them set: fitting on a CSR matrix of the same bits (zeros absent) lets XGBoost's ``hist``
method skip the zeros.  A binary feature has one split (0 | 1) whether the zeros are present or
"missing" (sent to the learned default side), so the trees are the same partitions; their gains are
computed as parent − present instead of a direct sum, which can differ in the last bit.
``tests/test_risks_xgb.py`` compares the accuracies with and without it.

Each fit also evaluates the Bayes oracle (true marginals and fake-data model: the optimal attacker,
:func:`ldpnb.attacks.aif_bayes`) on the *same* test users, so that "no classifier beats the oracle"
(row T17) is a paired comparison.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from ldpnb.attacks.inference import aif_bayes, synthetic_profiles
from ldpnb.contracts import EPSILON, AnyOf, Instance, Integer, OneOf, contract
from ldpnb.measures import utility as md_utility
from ldpnb.mechanisms import multidim as md
from ldpnb.papers.risks.experiments import make_priors
from ldpnb.repro.seeds import seed_for
from ldpnb.utils import check_dataset

__all__ = [
    "MODELS",
    "VARIANTS",
    "SETTINGS",
    "Fit",
    "plan",
    "design_matrix",
    "training_set",
    "fit_one",
    "run_fits",
    "collect",
    "fit_cost_summary",
]

#: The paper's attacker models (Sec. 4.3): name -> (knowledge model, s / n, n_pk / n).
MODELS = {
    "NK s=1n": ("NK", 1.0, 0.0),
    "NK s=3n": ("NK", 3.0, 0.0),
    "NK s=5n": ("NK", 5.0, 0.0),
    "PK 0.1n": ("PK", 0.0, 0.1),
    "PK 0.3n": ("PK", 0.0, 0.3),
    "PK 0.5n": ("PK", 0.0, 0.5),
    "HM (1n, 0.1n)": ("HM", 1.0, 0.1),
    "HM (3n, 0.3n)": ("HM", 3.0, 0.3),
    "HM (5n, 0.5n)": ("HM", 5.0, 0.5),
}
#: The RS+FD variants: label -> (randomiser, fake-data rule of RS+FD).
VARIANTS = {
    "GRR": ("grr", "uniform"),
    "SUE-z": ("sue", "zero"),
    "OUE-z": ("oue", "zero"),
    "SUE-r": ("sue", "random"),
    "OUE-r": ("oue", "random"),
}
#: ``"fd"``: RS+FD; the others: RS+RFD with priors of that kind (Sec. 5.2.1, App. E).
SETTINGS = ("fd", "correct", "dir", "zipf", "exp")

_NAME = Instance(str, example="ACS")


@dataclass(frozen=True)
class Fit:
    """One fit of the paper's attacker: ``data`` (a dataset name), ``setting`` (:data:`SETTINGS`),
    ``variant`` (a key of :data:`VARIANTS`), ``eps``, ``run`` (0-based) and ``model`` (a key of
    :data:`MODELS`); ``seed`` is the master seed.  Its random streams are named after it."""

    data: str
    setting: str
    variant: str
    eps: float
    run: int
    model: str
    seed: int

    def __post_init__(self):
        if self.setting not in SETTINGS:
            raise ValueError(f"setting must be one of {SETTINGS}, got {self.setting!r}")
        if self.variant not in VARIANTS:
            raise ValueError(f"variant must be one of {sorted(VARIANTS)}, got {self.variant!r}")
        if self.model not in MODELS:
            raise ValueError(f"model must be one of {sorted(MODELS)}, got {self.model!r}")
        if self.setting != "fd" and self.variant in ("SUE-z", "OUE-z"):
            raise ValueError("RS+RFD has no zero-vector variants (UE-z)")
        if not (np.isfinite(self.eps) and self.eps > 0) or self.run < 0 or self.seed < 0:
            raise ValueError(f"eps must be > 0, run and seed >= 0; got {self.eps}, {self.run}, {self.seed}")

    @property
    def cell(self) -> str:
        """The name of the users' reports this fit attacks (shared by the models of a cell)."""
        return f"xgb/{self.data}/{self.setting}/{self.variant}/{self.eps:g}/{self.run}"

    @contract(part=OneOf("collect", "priors", "train", "oracle"))
    def stream(self, part: str) -> np.random.Generator:
        """The generator of one part of the fit: ``"collect"`` (the users' reports, shared by the models
        of the cell), ``"priors"`` (RS+RFD's priors, shared by the variants and ε of a run), or the
        model's own ``"train"``, ``"oracle"``."""
        if part == "priors":
            name = f"xgb/{self.data}/{self.setting}/priors/{self.run}"
        elif part == "collect":
            name = f"{self.cell}/collect"
        else:
            name = f"{self.cell}/{self.model}/{part}"
        return np.random.default_rng(seed_for(self.seed, name))


#: A fit's fields (RS+RFD without the UE-z variants: a rule between two fields, in Fit.__post_init__).
Fit.__init__ = contract(  # type: ignore[method-assign]
    data=_NAME,
    setting=OneOf(*SETTINGS),
    variant=OneOf(*VARIANTS),
    eps=EPSILON,
    run=Integer(0, 10_000),
    model=OneOf(*MODELS),
    seed=Integer(0, None),
)(Fit.__init__)

_FIT = Fit("ACS", "fd", "GRR", 1.0, 0, "NK s=1n", 1)  # a valid fit, the contracts' example


@contract(
    data=_NAME,
    setting=OneOf(*SETTINGS),
    variants=Instance(list, tuple, example=["GRR"]),
    eps=Instance(list, tuple, example=[1.0]),
    runs=Integer(1, 10_000),
    models=Instance(list, tuple, example=["NK s=1n"]),
    seed=Integer(0, None),
)
def plan(
    data: str,
    setting: str,
    variants: Sequence[str],
    eps: Sequence[float],
    runs: int,
    models: Sequence[str],
    *,
    seed: int,
) -> list[Fit]:
    """Every fit of a (dataset, setting) block: the product of ``variants`` x ``eps`` x runs 0..runs-1 x
    ``models``, in that order (e.g. ``plan("ACS", "fd", ["GRR"], [1.0, 10.0], 2, ["PK 0.5n"], seed=1)``
    is 4 fits)."""
    return [
        Fit(data, setting, v, float(e), r, m, int(seed))
        for v in variants
        for e in eps
        for r in range(int(runs))
        for m in models
    ]


def _protocol(variant: str, setting: str) -> tuple[str, str, str]:
    """(randomiser, the users' fake-data rule, the fake-data rule the paper's attacker assumes)."""
    prot, fake = VARIANTS[variant]
    users = fake if setting == "fd" or fake == "zero" else "prior"
    return prot, users, fake


@contract(reports=Instance(list, tuple, example=[np.zeros((3, 2), dtype=np.int64)]), sparse=OneOf("auto", True, False))
def design_matrix(reports: Sequence[Any], *, sparse: Any = "auto") -> Any:
    """Features of RS+FD tuples: the label-encoded values (GRR, float32 (n, d)) or the concatenated bits
    (UE, (n, Σk_j)), as a CSR matrix when ``sparse`` is True, or ``"auto"`` and Σk_j ≥ 100 (where the
    sparse ``hist`` fit is measured faster; Nursery's 32 bits are not)."""
    if len(reports) == 0:
        raise ValueError("reports must hold one report array per attribute, got none")
    if np.asarray(reports[0]).ndim == 1:
        return np.column_stack([np.asarray(r) for r in reports]).astype(np.float32)
    bits = np.hstack([np.asarray(r, dtype=bool) for r in reports])
    if sparse is True or (sparse == "auto" and bits.shape[1] >= 100):
        from scipy import sparse as sp  # noqa: PLC0415 lazy: scipy.sparse only for the one-hot UE bits

        return sp.csr_matrix(bits, dtype=np.float32)
    return bits.astype(np.float32)


def _rows(M: Any, idx: np.ndarray) -> Any:
    return M[idx]


def _vstack(parts: list) -> Any:
    from scipy import sparse as sp  # noqa: PLC0415 lazy: scipy.sparse only for the one-hot UE bits

    if any(sp.issparse(p) for p in parts):
        return sp.vstack(parts, format="csr")
    return np.vstack(parts)


@contract(
    fit=Instance(Fit, example=_FIT),
    X=Instance(np.ndarray, example=np.zeros((4, 2), dtype=np.int64)),
    ks=Instance(np.ndarray, example=np.array([2, 2])),
    sparse=OneOf("auto", True, False),
)
def training_set(fit: Fit, X: np.ndarray, ks: np.ndarray, *, sparse: Any = "auto") -> dict[str, Any]:
    """The attacked reports and the attacker's training set of ``fit`` on the dataset ``X`` (n, d).

    The users run the variant (RS+FD, or RS+RFD with priors of the setting's kind); the attacker
    trains on ``n_pk`` labelled users' real tuples (PK, HM; tested on the others) and/or on ``s``
    synthetic profiles drawn from the server's (clipped, renormalised) estimates and run through the
    protocol with the fake data the paper's attacker assumes (RS+FD's uniform or zero-vector fake data,
    also against RS+RFD, as in the artifact; NK, HM; tested on all users).  Returns the design matrices
    and labels ``Xtr, ytr, Xte, yte``, the test reports and ``priors`` (for the oracle)."""
    X, ks = check_dataset(X, ks)  # label-encoded codes X[:, j] in {0, ..., k_j - 1}
    prot, users_fake, att_fake = _protocol(fit.variant, fit.setting)
    kind, s_factor, pk_factor = MODELS[fit.model]
    n = X.shape[0]
    priors = None
    if fit.setting != "fd":
        counts = [np.bincount(X[:, j], minlength=int(ks[j])) for j in range(X.shape[1])]
        priors = make_priors(fit.setting, ks, counts=counts, rng=fit.stream("priors"))
    rep, t = md.rsfd_collect(X, ks, fit.eps, prot, users_fake, priors=priors, rng=fit.stream("collect"))
    rng = fit.stream("train")
    feats = design_matrix(rep, sparse=sparse)
    test = np.ones(n, dtype=bool)
    parts, labels = [], []
    if kind in ("PK", "HM"):
        lab = rng.choice(n, size=int(round(pk_factor * n)), replace=False)
        test[lab] = False
        parts.append(_rows(feats, lab))
        labels.append(t[lab])
    if kind in ("NK", "HM"):
        freqs = md.rsfd_aggregate(rep, ks, fit.eps, prot, users_fake, priors=priors)
        syn = synthetic_profiles(freqs, int(round(s_factor * n)), rng=rng)
        rep_s, t_s = md.rsfd_collect(syn, ks, fit.eps, prot, att_fake, priors=priors, rng=rng)
        parts.append(design_matrix(rep_s, sparse=sparse))
        labels.append(t_s)
    te = np.flatnonzero(test)
    return {
        "Xtr": _vstack(parts),
        "ytr": np.concatenate(labels),
        "Xte": _rows(feats, te),
        "yte": t[te],
        "test_reports": [np.asarray(r)[te] for r in rep],
        "priors": priors,
        "seed": int(rng.integers(2**31 - 1)),
    }


def _classifier(seed: int):
    from xgboost import XGBClassifier  # noqa: PLC0415 lazy: optional dependency (xgboost)

    # XGBoost's default parameters (Sec. 3.3); hist and the metric stated explicitly, one thread
    return XGBClassifier(random_state=seed, n_jobs=1, eval_metric="mlogloss", tree_method="hist")


@contract(
    fit=Instance(Fit, example=_FIT),
    data=Instance(Mapping, example={}),
    sparse=OneOf("auto", True, False),
    predictions=OneOf(True, False),
)
def fit_one(
    fit: Fit, data: Mapping[str, tuple[np.ndarray, np.ndarray]], *, sparse: Any = "auto", predictions: bool = False
) -> dict[str, Any]:
    """Run one fit: ``{"acc": %, "oracle": % (the Bayes oracle on the same test users), "n_test",
    "wins", "losses" (test users XGBoost gets right and the oracle wrong, and the reverse: the paired
    comparison of row T17), "cpu": seconds of this process's CPU for the fit and prediction}``; with
    ``predictions`` also the test predictions (for the tests of the sparse input).  ``data[fit.data]``
    is ``(X, ks)``."""
    X, ks = data[fit.data]
    X, ks = md.check_dataset(X, ks)
    ts = training_set(fit, X, ks, sparse=sparse)
    classes = np.unique(ts["ytr"])
    c0 = time.process_time()
    clf = _classifier(ts["seed"])
    clf.fit(ts["Xtr"], np.searchsorted(classes, ts["ytr"]))
    pred = classes[np.asarray(clf.predict(ts["Xte"])).astype(int).ravel()]
    cpu = time.process_time() - c0
    prot, users_fake, _ = _protocol(fit.variant, fit.setting)
    f_true = md_utility.marginals(X, ks)
    orc = aif_bayes(
        ts["test_reports"], ks, fit.eps, prot, users_fake, f_true, priors=ts["priors"], rng=fit.stream("oracle")
    )
    hit, orc_hit = pred == ts["yte"], orc == ts["yte"]
    out = {
        "acc": 100.0 * float(np.mean(hit)),
        "oracle": 100.0 * float(np.mean(orc_hit)),
        "n_test": int(ts["yte"].size),
        "wins": int(np.sum(hit & ~orc_hit)),
        "losses": int(np.sum(~hit & orc_hit)),
        "cpu": float(cpu),
    }
    if predictions:
        out["pred"] = pred
    return out


def _task(fit: Fit, rng: Any, data: Mapping[str, Any], sparse: Any) -> dict[str, Any]:
    """A :func:`ldpnb.repro.parallel.sweep` task: the fit's streams are its own (named), so the
    position-based ``rng`` of the sweep is not used."""
    return fit_one(fit, data, sparse=sparse)


@contract(
    fits=Instance(list, tuple, example=[]),
    data=Instance(Mapping, example={}),
    n_jobs=AnyOf(OneOf("env"), Integer(1, 4096)),
    backend=OneOf("loky", "sequential", "dask"),
    sparse=OneOf("auto", True, False),
)
def run_fits(
    fits: Sequence[Fit],
    data: Mapping[str, tuple[np.ndarray, np.ndarray]],
    *,
    n_jobs: Any = "env",
    backend: str = "loky",
    sparse: Any = "auto",
) -> list[dict[str, Any]]:
    """:func:`fit_one` for every fit, in the order of ``fits``, on ``n_jobs`` single-thread processes
    (``"env"``: ``$LDPNB_N_JOBS``, else serially in this process) or on the workers of the current
    ``dask.distributed`` client (``backend="dask"``), through :func:`ldpnb.repro.parallel.sweep`.
    The results do not depend on ``n_jobs`` or the backend (each fit's streams are named after it and
    XGBoost runs on one thread)."""
    import functools  # noqa: PLC0415 lazy: with sweep below

    from ldpnb.repro.parallel import sweep  # noqa: PLC0415 lazy: the process backends only when fits run

    func = functools.partial(_task, data=dict(data), sparse=sparse)
    return sweep(func, list(fits), seed=0, n_jobs=n_jobs, backend=backend, progress=False, batch_size=1)


#: The per-fit numbers :func:`collect` arranges by curve.
_COLLECTED = ("acc", "oracle", "cpu", "n_test", "wins", "losses")


@contract(fits=Instance(list, tuple, example=[]), results=Instance(list, tuple, example=[]))
def collect(fits: Sequence[Fit], results: Sequence[Mapping[str, Any]]) -> dict[tuple, dict[str, Any]]:
    """Arrange per-fit results by curve: ``{(data, setting, variant, model): {"eps": [...], "runs": R,
    "acc": (R, E), "oracle": (R, E), "cpu": (R, E), "n_test": (R, E), "wins": (R, E), "losses":
    (R, E)}}`` (the per-run values of :func:`fit_one`; NaN where a (run, ε) was not fitted, or a
    result does not hold that key)."""
    if len(fits) != len(results):
        raise ValueError(f"fits and results must have the same length, got {len(fits)} and {len(results)}")
    cells: dict[tuple, dict[str, Any]] = {}
    for f in fits:
        c = cells.setdefault((f.data, f.setting, f.variant, f.model), {"eps": set(), "runs": 0})
        c["eps"].add(f.eps)
        c["runs"] = max(c["runs"], f.run + 1)
    for c in cells.values():
        c["eps"] = sorted(c["eps"])
        for key in _COLLECTED:
            c[key] = np.full((c["runs"], len(c["eps"])), np.nan)
    for f, r in zip(fits, results):
        c = cells[(f.data, f.setting, f.variant, f.model)]
        for key in _COLLECTED:
            c[key][f.run, c["eps"].index(f.eps)] = r.get(key, np.nan)
    return cells


@contract(fits=Instance(list, tuple, example=[]), results=Instance(list, tuple, example=[]))
def fit_cost_summary(fits: Sequence[Fit], results: Sequence[Mapping[str, Any]]) -> dict[tuple[str, str, str], float]:
    """Mean CPU seconds of one fit (XGBoost's fit and prediction only) per (dataset, variant family,
    model), the family being ``"GRR"`` or ``"UE"``: the units of the chapter's cost model."""
    acc: dict[tuple[str, str, str], list[float]] = {}
    for f, r in zip(fits, results):
        fam = "GRR" if f.variant == "GRR" else "UE"
        acc.setdefault((f.data, fam, f.model), []).append(float(r["cpu"]))
    return {k: float(np.mean(v)) for k, v in acc.items()}
