"""Risks paper (Arcolezi, Gambs, Couchot and Palamidessi 2023): the chapter's experiment grids, one
function per figure family, each returning plain arrays (runs first) for the figures and the claims.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from ldpnb.attacks.reidentification import ReidIndex, rsfd_reid_chain
from ldpnb.contracts import Array, Instance, Integer, OneOf, contract
from ldpnb.papers.risks.experiments import aif_xgb_experiment, smp_rid_experiment
from ldpnb.papers.risks.figures import NAMES
from ldpnb.repro.parallel import env_n_jobs
from ldpnb.repro.seeds import rng_for

__all__ = ["ALL5", "sizes", "size_glues", "xgb_other_datasets", "paper_xgb_rows", "VARIANTS", "LABELS", "XGB_ALL", "NK_PK", "xgb_models", "rid_by_protocol", "rid_chain_runs", "xgb_by_variant"]

#: RS+FD variants of Figs. 3, 14, 15: (randomiser, fake-data rule).
VARIANTS = [("grr", "uniform"), ("sue", "zero"), ("oue", "zero"), ("sue", "random"), ("oue", "random")]
#: Their labels.
LABELS = ["GRR", "SUE-z", "OUE-z", "SUE-r", "OUE-r"]
#: The paper's attacker models (Sec. 4.3): (name, model, s / n, n_pk / n).
XGB_ALL = [("NK s=1n", "NK", 1.0, 0.0), ("NK s=3n", "NK", 3.0, 0.0), ("NK s=5n", "NK", 5.0, 0.0),
           ("PK 0.1n", "PK", 0.0, 0.1), ("PK 0.3n", "PK", 0.0, 0.3), ("PK 0.5n", "PK", 0.0, 0.5),
           ("HM (1n, 0.1n)", "HM", 1.0, 0.1), ("HM (3n, 0.3n)", "HM", 3.0, 0.3), ("HM (5n, 0.5n)", "HM", 5.0, 0.5)]

#: The two extremes of the paper's knowledge models, run for every variant.
NK_PK = [XGB_ALL[0], XGB_ALL[5]]

_X = Array(2, integer=True, low=0)
_KS = Array(1, integer=True, low=2)
_SEQ = Instance(list, tuple, example=[1.0])
_NAME = Instance(str, example="experiment")


#: The five frequency oracles of the paper.
ALL5 = ["grr", "ss", "olh", "oue", "sue"]

_SIZES = {
    "smoke": dict(prots=["grr", "oue"], h1_n=20_000, rid_eps=[10], rid_runs=1, head_runs=dict.fromkeys(ALL5, 1),
                  nu_runs=1, nu_eps=[10], acs_runs=1, pie_runs=1, pie_betas=[0.6], aif_eps=[10], pk=(0.1, 0.5),
                  xgb_eps=[10], xgb_variants=VARIANTS[:1], fig4_eps=[10], fig4_runs=1, mse_runs=1,
                  mse_runs_inc=1, prior_draws=1, rfd_eps=[10], thm_runs=20, eps_u=[2, 7], bridge_eps=[10.0], max_users=5000,
                  aif_runs=1, rfd_runs=1, chain_var_runs=1, xgb_grid=(), xgb_other_eps=[]),
    "book": dict(prots=ALL5, eps_u=list(range(2, 8)), bridge_eps=[2.0, 6.0, 10.0], h1_n=100_000, rid_eps=[1, 2, 4, 6, 8, 10], rid_runs=3,
                 head_runs={"grr": 20, "sue": 20, "ss": 10, "oue": 10, "olh": 10}, nu_runs=2,
                 nu_eps=[1, 2, 4, 6, 8, 10], acs_runs=2, pie_runs=1, pie_betas=[0.95, 0.9, 0.85, 0.75, 0.6],
                 aif_eps=[1, 2, 4, 6, 8, 10], pk=(0.1, 0.3, 0.5), xgb_eps=[1, 10], xgb_variants=VARIANTS,
                 fig4_eps=[1, 4, 7, 10], fig4_runs=20, mse_runs=20, mse_runs_inc=5, prior_draws=10,
                 rfd_eps=[1, 2, 4, 6, 8, 10], thm_runs=200, max_users=None,
                 aif_runs=1, rfd_runs=1, chain_var_runs=1, xgb_grid=("GRR",), xgb_other_eps=[]),
    "paper": dict(prots=ALL5, eps_u=list(range(2, 8)), bridge_eps=[2.0, 6.0, 10.0], h1_n=1_000_000, rid_eps=list(range(1, 11)), rid_runs=20, head_runs=dict.fromkeys(ALL5, 20),
                  nu_runs=20, nu_eps=list(range(1, 11)), acs_runs=20, pie_runs=20,
                  pie_betas=[0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5], aif_eps=list(range(1, 11)),
                  pk=(0.1, 0.3, 0.5), xgb_eps=list(range(1, 11)), xgb_variants=VARIANTS,
                  fig4_eps=list(range(1, 11)), fig4_runs=20, mse_runs=20, mse_runs_inc=20, prior_draws=100,
                  rfd_eps=list(range(1, 11)), thm_runs=1000, max_users=None,
                  aif_runs=20, rfd_runs=20, chain_var_runs=20, xgb_grid=tuple(LABELS), xgb_other_eps=[1, 10]),
}


@contract(scale=OneOf("smoke", "book", "paper"))
def sizes(scale: str) -> dict[str, Any]:
    """The chapter's grids, numbers of runs and sample sizes at ``scale``: ``book`` fits the chapter in
    8 minutes of one core; ``paper`` is the paper's grids with 20 runs (Sec. 4.1). ``max_users`` (smoke
    only) keeps a random subset of that many users of each dataset, for speed. ``xgb_grid``: the
    variants attacked by XGBoost on ACS with the paper's whole s / n_pk / HM grid (:data:`XGB_ALL`),
    the others with NK s = 1n and PK 0.5n only (:data:`NK_PK`); ``xgb_other_eps``: the ε of the
    XGBoost attacker (NK s = 1n, PK 0.5n) on Adult and Nursery (none: not run)."""
    return dict(_SIZES[scale])


@contract(sizes=Instance(dict, example=_SIZES["smoke"]))
def size_glues(sizes: Mapping[str, Any]) -> dict[str, str]:
    """The glue names and texts that put the numbers of runs and the XGBoost grid of ``sizes`` (one
    scale of :func:`sizes`) into the chapter's captions, e.g. ``{"risks-rid-runs": "3", ...}``."""
    out = {f"risks-{key.replace('_', '-')}": str(sizes[key])
           for key in ("rid_runs", "acs_runs", "nu_runs", "pie_runs", "aif_runs", "rfd_runs",
                       "chain_var_runs", "fig4_runs")}
    out["risks-head-runs"] = ", ".join(f"{NAMES[p]} {r}" for p, r in sizes["head_runs"].items())
    out["risks-xgb-grid"] = ", ".join(sizes["xgb_grid"]) or "none"
    out["risks-xgb-eps"] = "{" + ", ".join(f"{e:g}" for e in sizes["xgb_eps"]) + "}"
    out["risks-mse-runs"] = f"{sizes['mse_runs']} runs ({sizes['mse_runs_inc']} for Adult's incorrect priors)"
    return out


@contract(X=_X, ks=_KS, protocols=_SEQ, grid=_SEQ, runs=Instance(dict, int, example=1), seed=Integer(0, None),
          name=_NAME)
def rid_by_protocol(X: Any, ks: Any, protocols: Sequence[str], grid: Sequence[Any], *, runs: Any, seed: int,
                    name: str, index: ReidIndex | None = None, **kw: Any) -> dict[str, dict[str, Any]]:
    """:func:`~ldpnb.papers.risks.experiments.smp_rid_experiment` for each protocol over ``grid`` (ε values or
    per-attribute budgets), ``runs`` an int or ``{protocol: runs}``; every protocol gets the same seed
    (``rng_for(seed, name)``): the same survey designs and PK subsets (common random numbers).
    The protocols run on ``$LDPNB_N_JOBS`` processes (:func:`ldpnb.repro.parallel.env_n_jobs`); the
    results do not depend on it."""
    tasks = [(p, int(runs[p] if isinstance(runs, dict) else runs)) for p in protocols]
    n_jobs = min(env_n_jobs(), len(tasks))
    if n_jobs <= 1:
        res = [smp_rid_experiment(X, ks, p, list(grid), runs=r, index=index, rng=rng_for(seed, name), **kw)
               for p, r in tasks]
    else:
        from joblib import Parallel, delayed

        res = Parallel(n_jobs=n_jobs)(delayed(smp_rid_experiment)(X, ks, p, list(grid), runs=r, index=index,
                                                                  rng=rng_for(seed, name), **kw) for p, r in tasks)
    return dict(zip(protocols, res))


@contract(X=_X, ks=_KS, eps_grid=_SEQ, runs=Integer(1, None), seed=Integer(0, None), name=_NAME)
def rid_chain_runs(X: Any, ks: Any, eps_grid: Sequence[float], *, runs: int, seed: int, name: str,
                   index: ReidIndex | None = None, protocol: str = "grr", fake: str = "uniform",
                   resample: str = "new", topk: Sequence[int] = (1, 5, 10)) -> dict[float, np.ndarray]:
    """Fig. 4: :func:`~ldpnb.attacks.rsfd_reid_chain` over ``runs`` independent runs per ε; returns
    ``{eps: array (runs, surveys 2..5, topk)}`` in %."""
    out = {}
    for e in eps_grid:
        rows = []
        for r in range(runs):
            o = rsfd_reid_chain(X, ks, e, 5, index=index, topk=topk, resample=resample, protocol=protocol, fake=fake,
                                rng=rng_for(seed, f"{name}/{resample}/{e:g}/{r}"))
            rows.append([[o["rid"][s][k] for k in topk] for s in (2, 3, 4, 5)])
        out[e] = np.array(rows)
    return out


@contract(X=_X, ks=_KS, eps_grid=_SEQ, variants=_SEQ, models=Instance(dict, example={}), seed=Integer(0, None),
          name=_NAME)
def xgb_by_variant(X: Any, ks: Any, eps_grid: Sequence[float], variants: Sequence[tuple[str, str]],
                   models: Mapping[str, Sequence[tuple]], *, seed: int, name: str,
                   prior_kind: str | None = None) -> dict[tuple[str, str], dict[str, Any]]:
    """The paper's attacker (XGBoost with default parameters, full training sets) per variant, with the
    variant's model list ``models[label]``; returns ``{(label, model): {"eps": grid, "acc": (1, E)}}``.
    XGBoost fits on ``$LDPNB_N_JOBS`` threads."""
    out = {}
    for (prot, fake), lab in zip(variants, [LABELS[VARIANTS.index(v)] for v in variants]):
        res = aif_xgb_experiment(X, ks, list(eps_grid), [(prot, fake)], list(models[lab]), prior_kind=prior_kind,
                                 n_jobs=env_n_jobs(), rng=rng_for(seed, f"{name}/{lab}"))
        for key, v in res.items():
            out[key] = {"eps": list(eps_grid), "acc": v}
    return out


@contract(datasets=Instance(dict, example={}), eps_grid=_SEQ, seed=Integer(0, None))
def xgb_other_datasets(datasets: Mapping[str, tuple[Any, Any]], eps_grid: Sequence[float], *,
                       seed: int) -> dict[str, dict[tuple[str, str], dict[str, Any]]]:
    """The paper's attacker on the datasets other than ACS (Adult and Nursery, App. D): NK s = 1n and
    PK 0.5n (:data:`NK_PK`) for every variant at ``eps_grid``, ``{name: xgb_by_variant(...)}`` with the
    stream ``xgb-<name>``; empty when ``eps_grid`` is empty (not run at this scale)."""
    if not len(eps_grid):
        return {}
    return {name: xgb_by_variant(X, ks, eps_grid, VARIANTS, xgb_models(()), seed=seed, name=f"xgb-{name}")
            for name, (X, ks) in datasets.items()}


@contract(full=_SEQ)
def xgb_models(full: Sequence[str]) -> dict[str, list[tuple]]:
    """The XGBoost attacker models per variant label: the paper's whole grid (:data:`XGB_ALL`) for the
    labels in ``full``, NK s = 1n and PK 0.5n (:data:`NK_PK`) for the others."""
    return {lab: list(XGB_ALL if lab in full else NK_PK) for lab in LABELS}


@contract(report=Instance(object, example=None), xgb_acs=Instance(dict, example={}),
          xgb_other=Instance(dict, example={}), aif=Instance(dict, example={}), oracle_idx=_SEQ)
def paper_xgb_rows(report: Any, xgb_acs: Mapping[tuple[str, str], Any], xgb_other: Mapping[str, Mapping],
                   aif: Mapping[str, Any], oracle_idx: Sequence[int]) -> None:
    """SCALE=paper: grade the rows that need the paper's attacker (XGBoost, default parameters) beyond the book.

    ``xgb_acs``: the chapter's ACS run (:func:`xgb_by_variant`) with the whole s, n_pk and HM grid (Sec. 4.3,
    :data:`XGB_ALL`) for every variant: rows H5-s, H5-hm and H5-nk (criteria in
    :mod:`ldpnb.papers.risks.claims`). ``xgb_other[name]``: XGBoost on Adult and Nursery (NK s = 1n, PK 0.5n)
    against the Bayes oracle ``aif[name]`` at the AIF-grid positions ``oracle_idx`` of its ε: rows T17-Adult
    and T17-Nursery."""
    a = {key: np.asarray(v["acc"]).mean(0) for key, v in xgb_acs.items()}
    report.holds("H5-s", gain_s=[a[(lab, "NK s=5n")] - a[(lab, "NK s=1n")] for lab in LABELS],
                 gain_pk=[a[(lab, "PK 0.5n")] - a[(lab, "PK 0.1n")] for lab in LABELS])
    hm = [a[(lab, f"NK s={s}n")] - a[(lab, f"HM ({s}n, {s / 10:g}n)")] for lab in LABELS for s in (1, 3, 5)]
    report.range("H5-hm", float(np.max(np.abs(hm))))
    nk_min = [np.min([a[(lab, f"NK s={s}n")] for s in (1, 3, 5)], axis=0) for lab in LABELS]
    report.order("H5-nk", {"NK": np.concatenate(nk_min), "PK": np.concatenate([a[(lab, "PK 0.5n")] for lab in LABELS])})
    for name in ("Adult", "Nursery"):
        orc = {lab: np.asarray(aif[name][(lab, "oracle")]).mean(0)[list(oracle_idx)] for lab in LABELS}
        report.range(f"T17-{name}", max(float(np.max(np.asarray(v["acc"]).mean(0) - orc[lab]))
                                        for (lab, _), v in xgb_other[name].items()))
