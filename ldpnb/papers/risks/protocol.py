r"""The paper's whole attribute-inference protocol with its attacker, as one command on a Dask cluster.

The paper attacks RS+FD and RS+RFD with XGBoost (default parameters) "averaged over 20 runs"
(Sec. 4.1) on the grids of Secs. 4.3, 5.2.3 and Apps. D, E.2:

* Figs. 3, 14, 15: RS+FD on ACS, Adult and Nursery, 5 variants x ε ∈ {1, ..., 10} x the 9 models
  (:data:`ldpnb.papers.risks.xgb.MODELS`);
* Fig. 6: RS+RFD with 'correct' priors on ACS, 3 variants x 10 ε x 9 models;
* Fig. 17: RS+RFD with 'incorrect' priors (DIR, ZIPF, EXP) on ACS, NK with s ∈ {1n, 3n, 5n},
  3 variants x 10 ε;

20 runs of each: 37,800 fits (:func:`protocol_plan`).  The fits are independent single-thread tasks
whose numbers depend only on their names (:mod:`ldpnb.papers.risks.xgb`), so the plan runs unchanged
serially, on local processes or on the workers of a ``dask.distributed`` cluster, with the same
numbers; the chapter's fits are a subset of it, cell for cell.  One command::

    python -m ldpnb.papers.risks.protocol --scheduler tcp://scheduler:8786 --out xgb_protocol.json
    python -m ldpnb.papers.risks.protocol --local 2 --scale smoke --out smoke.json   # a LocalCluster

The workers need ldpnb and the raw data (``$LDPNB_DATA_DIR``): at paper scale each worker process
loads the datasets itself, once, so that no task carries them.  Run the workers with one thread each
(``dask worker --nthreads 1``; ``OMP_NUM_THREADS=1``).  The output holds every per-run value
(:func:`ldpnb.papers.risks.xgb.collect`) and the measured CPU of every fit.

Cost model (:func:`cost_model`, :func:`protocol_cost`): the CPU of a default-parameter fit grows
linearly with its training rows (measured: ACS GRR at ε = 10, 1.3 / 3.4 / 5.1 s for 10 / 31 / 52 k
rows); the coefficient per (dataset, GRR or UE) is estimated from fits that ran, and the protocol's
cost is the sum over its fits of coefficient x rows.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import sys
import time
from typing import Any, Mapping, Sequence

import numpy as np

from ldpnb.contracts import AnyOf, Instance, Integer, OneOf, Optional, contract
from ldpnb.papers.risks import xgb

__all__ = ["protocol_plan", "training_rows", "cost_model", "protocol_cost", "load_datasets", "run_protocol", "main"]

#: Users of each dataset (the paper's, Sec. 4.1 and App. D).
N_USERS = {"ACS": 10_336, "Adult": 45_222, "Nursery": 12_959}
_FD_V = list(xgb.VARIANTS)
_RFD_V = ["GRR", "SUE-r", "OUE-r"]
_NK = ["NK s=1n", "NK s=3n", "NK s=5n"]


@contract(
    runs=Integer(1, 10_000),
    seed=Integer(0, None),
    eps=Instance(list, tuple, example=[1.0]),
    models=Instance(list, tuple, type(None), example=None),
    datasets=Instance(list, tuple, example=["ACS"]),
)
def protocol_plan(
    *,
    runs: int = 20,
    seed: int = 2024,
    eps: Sequence[float] = tuple(range(1, 11)),
    models: Sequence[str] | None = None,
    datasets: Sequence[str] = ("ACS", "Adult", "Nursery"),
) -> list[xgb.Fit]:
    """Every fit of the paper's protocol (module docstring): Figs. 3, 14, 15 (RS+FD on ``datasets``),
    Fig. 6 and Fig. 17 (RS+RFD on ACS, if ACS is in ``datasets``).  ``models`` restricts the models
    (default: all nine; Fig. 17 keeps the NK ones among them).  The defaults are the paper's: 37,800 fits."""
    models = list(xgb.MODELS) if models is None else list(models)
    out: list[xgb.Fit] = []
    for name in datasets:
        out += xgb.plan(name, "fd", _FD_V, list(eps), runs, models, seed=seed)
    if "ACS" in datasets:
        out += xgb.plan("ACS", "correct", _RFD_V, list(eps), runs, models, seed=seed)
        nk = [m for m in models if m in _NK]
        for kind in ("dir", "zipf", "exp"):
            out += xgb.plan("ACS", kind, _RFD_V, list(eps), runs, nk, seed=seed) if nk else []
    return out


@contract(fit=Instance(xgb.Fit, example=None), n=Integer(1, 1 << 28))
def training_rows(fit: xgb.Fit, n: int) -> int:
    """Rows of ``fit``'s training set on a dataset of ``n`` users (NK: s; PK: n_pk; HM: both)."""
    _, s, pk = xgb.MODELS[fit.model]
    return int(round(s * n)) + int(round(pk * n))


def _family(fit: xgb.Fit) -> str:
    return "GRR" if fit.variant == "GRR" else "UE"


@contract(
    fits=Instance(list, tuple, example=[]),
    results=Instance(list, tuple, example=[]),
    n_users=Instance(Mapping, example=N_USERS),
)
def cost_model(
    fits: Sequence[xgb.Fit], results: Sequence[Mapping[str, Any]], n_users: Mapping[str, int] = N_USERS
) -> dict[tuple[str, str], float]:
    """CPU seconds per 1,000 training rows of one fit, per (dataset, ``"GRR"`` or ``"UE"``): the
    least-squares slope through the origin of the measured fit CPU (``results[i]["cpu"]``) against the
    training rows."""
    xs: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for f, r in zip(fits, results):
        xs.setdefault((f.data, _family(f)), []).append((training_rows(f, n_users[f.data]) / 1e3, float(r["cpu"])))
    out = {}
    for key, pts in xs.items():
        a = np.array(pts)
        out[key] = float(a[:, 0] @ a[:, 1] / (a[:, 0] @ a[:, 0]))
    return out


@contract(
    fits=Instance(list, tuple, example=[]),
    coef=Instance(Mapping, example={}),
    n_users=Instance(Mapping, example=N_USERS),
)
def protocol_cost(
    fits: Sequence[xgb.Fit], coef: Mapping[tuple[str, str], float], n_users: Mapping[str, int] = N_USERS
) -> dict[str, float]:
    """Estimated CPU seconds of ``fits`` from :func:`cost_model`'s coefficients (a (dataset, family)
    without a coefficient borrows ACS's, scaled by the number of classes d: the trees are grown per
    class), by dataset and in total."""
    d = {"ACS": 18, "Adult": 10, "Nursery": 9}
    out: dict[str, float] = {}
    for f in fits:
        fam = _family(f)
        c = coef.get((f.data, fam))
        if c is None:
            c = coef[("ACS", fam)] * d[f.data] / 18
        out[f.data] = out.get(f.data, 0.0) + c * training_rows(f, n_users[f.data]) / 1e3
    out["total"] = float(sum(out.values()))
    return out


_LOADERS = {"ACS": "load_acs_employment", "Adult": "load_adult_risks", "Nursery": "make_nursery"}


@functools.lru_cache(maxsize=8)
def _load(name: str, scale: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    from ldpnb import data as ds  # noqa: PLC0415 lazy: the data loaders (pandas) only in a worker that loads
    from ldpnb.repro.seeds import rng_for  # noqa: PLC0415 lazy: with the loaders above

    df, ks = getattr(ds, _LOADERS[name])()
    X = df.to_numpy()
    if scale == "smoke":  # the chapter's smoke subset: 5,000 random users of each, drawn in its order
        keep = rng_for(seed, "smoke-users")
        for other in ("Adult", "ACS", "Nursery"):
            idx = keep.permutation(N_USERS[other])[:5000]
            if other == name:
                X = X[np.sort(idx)]
                break
    return X, np.array(ks)


class _Datasets(Mapping):
    """``{name: (X, ks)}`` loaded on first access (a worker loads only the datasets its fits use)."""

    def __init__(self, scale: str, seed: int):
        self.scale, self.seed = scale, seed

    def __getitem__(self, name):
        if name not in _LOADERS:
            raise KeyError(name)
        return _load(name, self.scale, self.seed)

    def __iter__(self):
        return iter(_LOADERS)

    def __len__(self):
        return len(_LOADERS)


@contract(scale=OneOf("smoke", "book", "paper"), seed=Integer(0, None))
def load_datasets(scale: str = "paper", seed: int = 2024) -> Mapping[str, tuple[np.ndarray, np.ndarray]]:
    """ACS, Adult and Nursery as a mapping ``{name: (X, ks)}``, each loaded on first access and cached
    per process; at ``smoke`` scale the chapter's random subset of 5,000 users of each."""
    return _Datasets("smoke" if scale == "smoke" else "paper", int(seed))


def _worker_fit(fit: xgb.Fit, rng: Any, scale: str, seed: int) -> dict[str, Any]:
    """A task that loads the datasets in the worker process (once) instead of receiving them."""
    return xgb.fit_one(fit, load_datasets(scale, seed))


@contract(
    fits=Instance(list, tuple, example=[]),
    scale=OneOf("smoke", "book", "paper"),
    seed=Integer(0, None),
    n_jobs=AnyOf(OneOf("env"), Integer(1, 4096)),
    backend=OneOf("loky", "sequential", "dask"),
)
def run_protocol(
    fits: Sequence[xgb.Fit], *, scale: str = "paper", seed: int = 2024, n_jobs: Any = "env", backend: str = "dask"
) -> list[dict[str, Any]]:
    """Run ``fits`` with the datasets loaded in each worker (:func:`load_datasets`): on the current
    ``dask.distributed`` client (``backend="dask"``) or on local processes.  Same numbers as
    :func:`ldpnb.papers.risks.xgb.run_fits` on the same data."""
    from ldpnb.repro.parallel import sweep  # noqa: PLC0415 lazy: the process/Dask backends only when fits run

    func = functools.partial(_worker_fit, scale=scale, seed=int(seed))
    return sweep(func, list(fits), seed=0, n_jobs=n_jobs, backend=backend, progress=False, batch_size=1)


def _to_json(fits: Sequence[xgb.Fit], results: Sequence[Mapping[str, Any]], meta: Mapping[str, Any]) -> dict:
    cells = xgb.collect(fits, results)
    return {
        "meta": dict(meta),
        "curves": [
            {
                "data": k[0],
                "setting": k[1],
                "variant": k[2],
                "model": k[3],
                "eps": v["eps"],
                "acc": v["acc"].tolist(),
                "oracle": v["oracle"].tolist(),
                "cpu": v["cpu"].tolist(),
                # the test users and paired counts of each fit: the intervals of a one-run cell
                "n_test": v["n_test"].tolist(),
                "wins": v["wins"].tolist(),
                "losses": v["losses"].tolist(),
            }
            for k, v in cells.items()
        ],
    }


@contract(argv=Optional(Instance(list, tuple, example=["--help"])))
def main(argv: Sequence[str] | None = None) -> int:
    """The command line (module docstring)."""
    ap = argparse.ArgumentParser(prog="python -m ldpnb.papers.risks.protocol", description=__doc__.split("\n")[0])
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--scheduler", help="address of a running dask scheduler, e.g. tcp://host:8786")
    where.add_argument("--local", type=int, metavar="N", help="start a LocalCluster of N single-thread workers")
    ap.add_argument(
        "--scale",
        choices=("smoke", "paper"),
        default="paper",
        help="paper: the paper's protocol (37,800 fits); smoke: 2 runs, ε ∈ {1, 10}, NK s = 1n and "
        "PK 0.5n, on 5,000 users of each dataset",
    )
    ap.add_argument("--datasets", default="ACS,Adult,Nursery", help="comma-separated subset of ACS,Adult,Nursery")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--out", required=True, help="output JSON file")
    args = ap.parse_args(argv)
    names = tuple(n for n in ("ACS", "Adult", "Nursery") if n in args.datasets.split(","))
    if args.scale == "paper":
        fits = protocol_plan(seed=args.seed, datasets=names)
    else:
        fits = protocol_plan(runs=2, eps=(1.0, 10.0), models=("NK s=1n", "PK 0.5n"), seed=args.seed, datasets=names)
    from dask.distributed import Client, LocalCluster  # noqa: PLC0415 lazy: optional dependency (dask)

    os.environ.setdefault("OMP_NUM_THREADS", "1")
    t0, c0 = time.time(), time.process_time()
    if args.local:
        cluster = LocalCluster(n_workers=args.local, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    else:
        cluster, client = None, Client(args.scheduler)
    try:
        workers = len(client.scheduler_info()["workers"])
        res = run_protocol(fits, scale=args.scale, seed=args.seed, backend="dask")
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    import xgboost  # noqa: PLC0415 lazy: optional dependency (xgboost)

    meta = {
        "scale": args.scale,
        "seed": args.seed,
        "fits": len(fits),
        "workers": workers,
        "wall_s": time.time() - t0,
        "fit_cpu_s": float(sum(r["cpu"] for r in res)),
        "client_cpu_s": time.process_time() - c0,
        "xgboost": xgboost.__version__,
        "python": platform.python_version(),
        "command": " ".join(sys.argv),
    }
    with open(args.out, "w") as fh:
        json.dump(_to_json(fits, res, meta), fh)
    print(
        f"{len(fits)} fits on {workers} workers in {meta['wall_s']:.0f} s wall, "
        f"{meta['fit_cpu_s']:.0f} s of fit CPU -> {args.out}"
    )
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
