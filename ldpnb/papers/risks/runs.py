"""Risks paper (Arcolezi, Gambs, Couchot and Palamidessi 2023): the chapter's experiment grids, one
function per figure family, each returning plain arrays (runs first) for the figures and the claims.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from ldpnb.attacks.reidentification import ReidIndex, rsfd_reid_chain
from ldpnb.contracts import Array, Instance, Integer, contract
from ldpnb.papers.risks.experiments import aif_xgb_experiment, smp_rid_experiment
from ldpnb.repro.seeds import rng_for

__all__ = ["VARIANTS", "LABELS", "XGB_ALL", "rid_by_protocol", "rid_chain_runs", "xgb_by_variant"]

#: RS+FD variants of Figs. 3, 14, 15: (randomiser, fake-data rule).
VARIANTS = [("grr", "uniform"), ("sue", "zero"), ("oue", "zero"), ("sue", "random"), ("oue", "random")]
#: Their labels.
LABELS = ["GRR", "SUE-z", "OUE-z", "SUE-r", "OUE-r"]
#: The paper's attacker models (Sec. 4.3): (name, model, s / n, n_pk / n).
XGB_ALL = [("NK s=1n", "NK", 1.0, 0.0), ("NK s=3n", "NK", 3.0, 0.0), ("NK s=5n", "NK", 5.0, 0.0),
           ("PK 0.1n", "PK", 0.0, 0.1), ("PK 0.3n", "PK", 0.0, 0.3), ("PK 0.5n", "PK", 0.0, 0.5),
           ("HM (1n, 0.1n)", "HM", 1.0, 0.1), ("HM (3n, 0.3n)", "HM", 3.0, 0.3), ("HM (5n, 0.5n)", "HM", 5.0, 0.5)]

_X = Array(2, integer=True, low=0)
_KS = Array(1, integer=True, low=2)
_SEQ = Instance(list, tuple, example=[1.0])
_NAME = Instance(str, example="experiment")


@contract(X=_X, ks=_KS, protocols=_SEQ, grid=_SEQ, runs=Instance(dict, int, example=1), seed=Integer(0, None),
          name=_NAME)
def rid_by_protocol(X: Any, ks: Any, protocols: Sequence[str], grid: Sequence[Any], *, runs: Any, seed: int,
                    name: str, index: ReidIndex | None = None, **kw: Any) -> dict[str, dict[str, Any]]:
    """:func:`~ldpnb.papers.risks.experiments.smp_rid_experiment` for each protocol over ``grid`` (ε values or
    per-attribute budgets), ``runs`` an int or ``{protocol: runs}``; every protocol gets the same seed
    (``rng_for(seed, name)``): the same survey designs and PK subsets (common random numbers)."""
    out = {}
    for p in protocols:
        r = runs[p] if isinstance(runs, dict) else runs
        out[p] = smp_rid_experiment(X, ks, p, list(grid), runs=int(r), index=index,
                                    rng=rng_for(seed, name), **kw)
    return out


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
    variant's model list ``models[label]``; returns ``{(label, model): {"eps": grid, "acc": (1, E)}}``."""
    out = {}
    for (prot, fake), lab in zip(variants, [LABELS[VARIANTS.index(v)] for v in variants]):
        res = aif_xgb_experiment(X, ks, list(eps_grid), [(prot, fake)], list(models[lab]), prior_kind=prior_kind,
                                 rng=rng_for(seed, f"{name}/{lab}"))
        for key, v in res.items():
            out[key] = {"eps": list(eps_grid), "acc": v}
    return out
