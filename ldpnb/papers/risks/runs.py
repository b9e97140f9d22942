"""Risks paper (Arcolezi, Gambs, Couchot and Palamidessi 2023): the chapter's experiment grids, one
function per figure family, each returning plain arrays (runs first) for the figures and the claims.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from ldpnb.attacks.reidentification import ReidIndex, rsfd_reid_chain
from ldpnb.contracts import AnyOf, Array, Instance, Integer, Items, OneOf, Optional, Real, contract
from ldpnb.mechanisms import protocol_names
from ldpnb.papers.risks import xgb as _xgb
from ldpnb.papers.risks.experiments import smp_rid_experiment
from ldpnb.papers.risks.figures import NAMES
from ldpnb.repro.parallel import env_n_jobs
from ldpnb.repro.report import build_dir
from ldpnb.repro.seeds import rng_for

__all__ = [
    "ALL5",
    "sizes",
    "size_glues",
    "VARIANTS",
    "LABELS",
    "XGB_SMALL",
    "XGB_LARGE",
    "xgb_plan",
    "xgb_run",
    "xgb_view",
    "xgb_caption",
    "XGB_FIT_FIELDS",
    "xgb_fits_record",
    "save_xgb_fits",
    "rid_by_protocol",
    "rid_chain_runs",
    "RidRuns",
]

#: RS+FD variants of Figs. 3, 14, 15: (randomiser, fake-data rule), from the one table of the paper's attacker
#: (:data:`ldpnb.papers.risks.xgb.VARIANTS`).
VARIANTS = list(_xgb.VARIANTS.values())
#: Their labels.
LABELS = list(_xgb.VARIANTS)
#: The paper's attacker models (Sec. 4.3) with at most 1n + 0.1n training rows: 15 % of the rows of the 9 models.
XGB_SMALL = ["NK s=1n", "PK 0.1n", "PK 0.3n", "PK 0.5n", "HM (1n, 0.1n)"]
#: The other four (s = 3n and 5n, alone or with n_pk): 85 % of the training rows of the grid.
XGB_LARGE = ["NK s=3n", "NK s=5n", "HM (3n, 0.3n)", "HM (5n, 0.5n)"]
_RFD = ["GRR", "SUE-r", "OUE-r"]
#: The models most of the rows of Sec. 4.3 read (NK 1n, the extremes of n_pk), and the other two small ones.
_FIG3_ROWS = ["NK s=1n", "PK 0.1n", "PK 0.5n"]
_FIG3_MORE = ["PK 0.3n", "HM (1n, 0.1n)"]
#: The four models row H5-s contrasts (s from 1n to 5n against n_pk from 0.1n to 0.5n), with the runs its interval
#: needs.
_H5S = ["NK s=1n", "NK s=5n", "PK 0.1n", "PK 0.5n"]
_INC = ("dir", "zipf", "exp")
_E2 = [1, 10]
_E10 = list(range(1, 11))

#: The XGBoost fits of the chapter per scale, by figure: (block, dataset, settings, variants, ε, runs, models).
#: A fit's numbers depend on its name only (:mod:`ldpnb.papers.risks.xgb`): every block is a subset of the
#: paper's protocol (:func:`ldpnb.papers.risks.protocol.protocol_plan`) with its numbers.
_XGB_BLOCKS = {
    "smoke": [
        ("fig3", "ACS", ("fd",), LABELS, [10], 1, ["NK s=1n", "PK 0.5n"]),
        ("fig14", "Adult", ("fd",), ["GRR", "SUE-z"], [10], 1, ["NK s=1n", "PK 0.1n", "PK 0.5n"]),
        ("fig15", "Nursery", ("fd",), ["GRR", "SUE-z"], [10], 1, ["NK s=1n", "PK 0.1n", "PK 0.5n"]),
        ("fig6", "ACS", ("correct",), ["GRR"], [10], 1, ["NK s=1n", "PK 0.1n", "PK 0.3n", "PK 0.5n"]),
        ("fig17", "ACS", _INC, ["GRR"], [10], 1, ["NK s=1n"]),
    ],
    "book": [
        ("fig3", "ACS", ("fd",), LABELS, _E2, 1, _FIG3_ROWS),
        ("fig3-more", "ACS", ("fd",), LABELS, [10], 1, _FIG3_MORE),
        ("fig3-grid", "ACS", ("fd",), ["GRR"], [10], 1, XGB_LARGE),
        ("fig3-s", "ACS", ("fd",), ["GRR"], [10], 4, _H5S),
        ("fig14", "Adult", ("fd",), LABELS, _E2, 1, ["NK s=1n", "PK 0.1n", "PK 0.5n"]),
        ("fig15", "Nursery", ("fd",), LABELS, _E2, 1, ["NK s=1n", "PK 0.1n", "PK 0.5n"]),
        ("fig6", "ACS", ("correct",), _RFD, _E2, 1, XGB_SMALL),
        ("fig17", "ACS", ("zipf", "exp"), _RFD, _E2, 3, ["NK s=1n"]),
        ("fig17-dir", "ACS", ("dir",), _RFD, _E2, 1, ["NK s=1n"]),
    ],
    "paper": [
        ("fig3", "ACS", ("fd",), LABELS, _E10, 4, _FIG3_ROWS),
        ("fig3-more", "ACS", ("fd",), LABELS, _E10, 4, _FIG3_MORE),
        ("fig3-grid", "ACS", ("fd",), LABELS, _E2, 1, XGB_LARGE),
        ("fig3-s", "ACS", ("fd",), LABELS, _E2, 4, _H5S),
        ("fig14", "Adult", ("fd",), LABELS, _E2, 3, ["NK s=1n", "NK s=5n", "PK 0.1n", "PK 0.3n", "PK 0.5n"]),
        ("fig15", "Nursery", ("fd",), LABELS, _E2, 3, XGB_SMALL + XGB_LARGE),
        ("fig6", "ACS", ("correct",), _RFD, _E10, 3, XGB_SMALL),
        ("fig17", "ACS", ("zipf", "exp"), _RFD, _E10, 3, ["NK s=1n"]),
        ("fig17-dir", "ACS", ("dir",), _RFD, _E10, 3, ["NK s=1n"]),
    ],
}

_X = Array(2, integer=True, low=0)
_KS = Array(1, integer=True, low=2)
_SEQ = Instance(list, tuple, example=[1.0])
_NAME = Instance(str, example="experiment")
#: The list sizes of RID-ACC (top-k).
_TOPK = Items(Integer(1, 1 << 20), max_size=64)


#: Runs of the headline ε = 10 experiment at SCALE=paper (the paper: 20), where rows H4-PK and H4-NU read the
#: per-run PK/FK and NU/U ratios: the book's intervals (10-20 runs) leave both undecided, and about 145 (H4-PK)
#: and 47 (H4-NU) runs would decide them (their runs-to-decide at book scale); 200 leaves a margin for the
#: estimate of that number.  Both metrics at 200 runs of every protocol: about 270 s of one core (0.13 s a run).
_H4_RUNS = 200

#: The five frequency oracles of the paper, in the chapter's order: names of the protocol registry
#: (:func:`ldpnb.mechanisms.protocol_names`, checked at import).
ALL5 = ["grr", "ss", "olh", "oue", "sue"]
if not set(ALL5) <= set(protocol_names()):
    raise ImportError(f"the risks chapter's protocols {ALL5} are not all in the protocol registry")

_SIZES = {
    "smoke": dict(
        prots=["grr", "oue"],
        h1_n=20_000,
        rid_eps=[10],
        rid_runs=1,
        head_runs=dict.fromkeys(ALL5, 2),
        nu_runs=1,
        nu_eps=[10],
        acs_runs=1,
        pie_runs=1,
        pie_betas=[0.6],
        aif_eps=[10],
        pk=(0.1, 0.5),
        fig4_eps=[10],
        fig4_runs=2,
        mse_runs=1,
        mse_runs_inc=1,
        prior_draws=1,
        rfd_eps=[10],
        thm_runs=20,
        eps_u=[2, 7],
        bridge_eps=[10.0],
        max_users=5000,
        aif_runs=1,
        rfd_runs=1,
        chain_var_runs=1,
    ),
    "book": dict(
        prots=ALL5,
        eps_u=list(range(2, 8)),
        bridge_eps=[2.0, 6.0, 10.0],
        h1_n=100_000,
        rid_eps=[1, 2, 4, 6, 8, 10],
        rid_runs=3,
        head_runs={"grr": 20, "sue": 20, "ss": 10, "oue": 10, "olh": 10},
        nu_runs=2,
        nu_eps=[1, 2, 4, 6, 8, 10],
        acs_runs=2,
        pie_runs=1,
        pie_betas=[0.95, 0.9, 0.85, 0.75, 0.6],
        aif_eps=list(range(1, 11)),
        pk=(0.1, 0.3, 0.5),
        fig4_eps=[1, 4, 7, 10],
        fig4_runs=20,
        mse_runs=20,
        mse_runs_inc=5,
        prior_draws=10,
        rfd_eps=list(range(1, 11)),
        thm_runs=200,
        max_users=None,
        aif_runs=1,
        rfd_runs=1,
        chain_var_runs=1,
    ),
    "paper": dict(
        prots=ALL5,
        eps_u=list(range(2, 8)),
        bridge_eps=[2.0, 6.0, 10.0],
        h1_n=1_000_000,
        rid_eps=list(range(1, 11)),
        rid_runs=20,
        head_runs=dict.fromkeys(ALL5, _H4_RUNS),
        nu_runs=20,
        nu_eps=list(range(1, 11)),
        acs_runs=20,
        pie_runs=20,
        pie_betas=[0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5],
        aif_eps=list(range(1, 11)),
        pk=(0.1, 0.3, 0.5),
        fig4_eps=list(range(1, 11)),
        fig4_runs=20,
        mse_runs=20,
        mse_runs_inc=20,
        prior_draws=100,
        rfd_eps=list(range(1, 11)),
        thm_runs=1000,
        max_users=None,
        aif_runs=20,
        rfd_runs=20,
        chain_var_runs=20,
    ),
}
for _scale, _blocks in _XGB_BLOCKS.items():
    _SIZES[_scale]["xgb"] = {b[0]: b[1:] for b in _blocks}


@contract(scale=OneOf("smoke", "book", "paper"))
def sizes(scale: str) -> dict[str, Any]:
    """The chapter's grids, numbers of runs and sample sizes at ``scale``: ``book`` fits the chapter in
    8 minutes of one core; ``paper`` is the paper's grids with 20 runs (Sec. 4.1). ``max_users`` (smoke
    only) keeps a random subset of that many users of each dataset, for speed. ``xgb``: the fits of the
    paper's attacker per figure block, ``{block: (dataset, settings, variants, ε, runs, models)}``
    (:func:`xgb_plan`)."""
    return dict(_SIZES[scale])


@contract(sizes=Instance(dict, example=_SIZES["smoke"]))
def size_glues(sizes: Mapping[str, Any]) -> dict[str, str]:
    """The glue names and texts that put the numbers of runs and the XGBoost grid of ``sizes`` (one
    scale of :func:`sizes`) into the chapter's captions, e.g. ``{"rid-runs": "3", ...}``; a count
    that a caption quotes with its noun also as ``"<name>-text"`` (``"1 run"``, ``"20 runs"``)."""
    out = {
        f"{key.replace('_', '-')}": str(sizes[key])
        for key in (
            "rid_runs",
            "acs_runs",
            "nu_runs",
            "pie_runs",
            "aif_runs",
            "rfd_runs",
            "chain_var_runs",
            "fig4_runs",
        )
    }
    for key in ("pie_runs", "aif_runs", "rfd_runs", "chain_var_runs"):  # "1 run", "20 runs"
        n = sizes[key]
        out[f"{key.replace('_', '-')}-text"] = f"{n} run" if n == 1 else f"{n} runs"
    out["head-runs"] = ", ".join(f"{NAMES[p]} {r}" for p, r in sizes["head_runs"].items())
    for block in dict.fromkeys(b[0] for blocks in _XGB_BLOCKS.values() for b in blocks):
        out[f"xgb-{block}"] = xgb_caption(sizes, block) if block in sizes["xgb"] else "not run at this scale"
    out["mse-runs"] = f"{sizes['mse_runs']} runs ({sizes['mse_runs_inc']} for Adult's incorrect priors)"
    return out


@contract(
    X=_X,
    ks=_KS,
    protocols=_SEQ,
    grid=_SEQ,
    runs=Instance(dict, int, example=1),
    seed=Integer(0, None),
    name=_NAME,
    index=Optional(Instance(ReidIndex, example=None)),
)
def rid_by_protocol(
    X: Any,
    ks: Any,
    protocols: Sequence[str],
    grid: Sequence[Any],
    *,
    runs: Any,
    seed: int,
    name: str,
    index: ReidIndex | None = None,
    **kw: Any,
) -> dict[str, dict[str, Any]]:
    """:func:`~ldpnb.papers.risks.experiments.smp_rid_experiment` for each protocol over ``grid`` (ε values or
    per-attribute budgets), ``runs`` an int or ``{protocol: runs}``; every protocol gets the same seed
    (``rng_for(seed, name)``): the same survey designs and PK subsets (common random numbers).
    The protocols run on ``$LDPNB_N_JOBS`` processes (:func:`ldpnb.repro.parallel.env_n_jobs`); the
    results do not depend on it."""
    tasks = [(p, int(runs[p] if isinstance(runs, dict) else runs)) for p in protocols]
    n_jobs = min(env_n_jobs(), len(tasks))
    if n_jobs <= 1:
        res = [
            smp_rid_experiment(X, ks, p, list(grid), runs=r, index=index, rng=rng_for(seed, name), **kw)
            for p, r in tasks
        ]
    else:
        from joblib import Parallel, delayed  # noqa: PLC0415 lazy: optional dependency

        res = Parallel(n_jobs=n_jobs)(
            delayed(smp_rid_experiment)(X, ks, p, list(grid), runs=r, index=index, rng=rng_for(seed, name), **kw)
            for p, r in tasks
        )
    return dict(zip(protocols, res))


@contract(
    X=_X,
    ks=_KS,
    eps_grid=_SEQ,
    runs=Integer(1, 10**5),
    seed=Integer(0, None),
    name=_NAME,
    index=Optional(Instance(ReidIndex, example=None)),
    protocol=OneOf("grr", "sue", "oue"),
    fake=OneOf("uniform", "zero", "random", "prior"),
    resample=OneOf("new", "replace"),
    topk=_TOPK,
)
def rid_chain_runs(
    X: Any,
    ks: Any,
    eps_grid: Sequence[float],
    *,
    runs: int,
    seed: int,
    name: str,
    index: ReidIndex | None = None,
    protocol: str = "grr",
    fake: str = "uniform",
    resample: str = "new",
    topk: Sequence[int] = (1, 5, 10),
) -> dict[float, np.ndarray]:
    """Fig. 4: :func:`~ldpnb.attacks.rsfd_reid_chain` over ``runs`` independent runs per ε; returns
    ``{eps: array (runs, surveys 2..5, topk)}`` in %."""
    out = {}
    for e in eps_grid:
        rows = []
        for r in range(runs):
            o = rsfd_reid_chain(
                X,
                ks,
                e,
                5,
                index=index,
                topk=topk,
                resample=resample,
                protocol=protocol,
                fake=fake,
                rng=rng_for(seed, f"{name}/{resample}/{e:g}/{r}"),
            )
            rows.append([[o["rid"][s][k] for k in topk] for s in (2, 3, 4, 5)])
        out[e] = np.array(rows)
    return out


@contract(sizes=Instance(dict, example=_SIZES["smoke"]), blocks=_SEQ, seed=Integer(0, None))
def xgb_plan(sizes: Mapping[str, Any], blocks: Sequence[str], *, seed: int) -> list[_xgb.Fit]:
    """The XGBoost fits of the named ``blocks`` of one scale's :func:`sizes` (``sizes["xgb"]``: per figure,
    the dataset, settings, variants, ε, runs and models), in a fixed order; a block the scale does not run
    (e.g. the s grid at smoke scale) gives no fits.  A fit that two blocks share (the same name: the same
    numbers) is planned once."""
    out: list[_xgb.Fit] = []
    for b in (b for b in blocks if b in sizes["xgb"]):
        data, settings, variants, eps, runs, models = sizes["xgb"][b]
        for setting in settings:
            out += _xgb.plan(data, setting, list(variants), [float(e) for e in eps], runs, list(models), seed=seed)
    return list(dict.fromkeys(out))


@contract(fits=_SEQ, data=Instance(Mapping, example={}))
def xgb_run(fits: Sequence[_xgb.Fit], data: Mapping[str, tuple[Any, Any]]) -> tuple[dict, dict[str, Any]]:
    """Run ``fits`` (:func:`ldpnb.papers.risks.xgb.run_fits`: single-thread fits on ``$LDPNB_N_JOBS``
    processes, the same numbers serially) and arrange them by curve (:func:`ldpnb.papers.risks.xgb.collect`).
    Returns ``(cells, cost)``: ``cost`` holds the fits, the CPU seconds of each (whatever process ran it),
    their sum ``fit_cpu_s`` and the users of each dataset (for :func:`ldpnb.papers.risks.protocol.cost_model`)."""
    res = _xgb.run_fits(list(fits), data)
    cost = {
        "fits": list(fits),
        "cpu": [float(r["cpu"]) for r in res],
        "fit_cpu_s": float(sum(r["cpu"] for r in res)),
        "n_users": {k: int(np.asarray(v[0]).shape[0]) for k, v in data.items()},
    }
    return _xgb.collect(list(fits), res), cost


@contract(cells=Instance(dict, example={}), data=_NAME, setting=_NAME)
def xgb_view(cells: Mapping[tuple, Mapping[str, Any]], data: str, setting: str = "fd") -> dict[tuple[str, str], Any]:
    """The curves of one (dataset, setting) as ``{(variant, model): {"eps", "acc" (runs, E), "oracle"}}``,
    the form the figures and rows use."""
    return {(v, m): c for (d, st, v, m), c in cells.items() if d == data and st == setting}


#: The per-fit numbers of the paper's attacker kept beside a run's report (:func:`xgb_fits_record`).
XGB_FIT_FIELDS = ("acc", "oracle", "wins", "losses", "n_test")


@contract(fits=_SEQ, cells=Instance(dict, example={}))
def xgb_fits_record(fits: Sequence[_xgb.Fit], cells: Mapping[tuple, Mapping[str, Any]]) -> dict[str, Any]:
    """The raw result of every fit of ``fits`` as :func:`xgb_run` collected it in ``cells``, one row per fit:
    ``{"fields": ["name", *XGB_FIT_FIELDS], "fits": [[name, acc, oracle, wins, losses, n_test], ...]}``, the
    name ``xgb/<data>/<setting>/<variant>/<ε>/<run>/<model>`` (:attr:`ldpnb.papers.risks.xgb.Fit.cell` and the
    model; with the master seed it fixes the fit's numbers), None for a number not recorded.  So questions on
    the variance of the XGBoost rows (between runs, between ε, test users) can be answered from a paper-scale
    record without running its fits again.

    >>> f = _xgb.plan("ACS", "fd", ["GRR"], [1.0], 1, ["NK s=1n"], seed=1)
    >>> res = [{"acc": 20.0, "oracle": 21.0, "n_test": 100, "wins": 3, "losses": 4, "cpu": 0.1}]
    >>> xgb_fits_record(f, _xgb.collect(f, res))["fits"]
    [['xgb/ACS/fd/GRR/1/0/NK s=1n', 20.0, 21.0, 3.0, 4.0, 100.0]]
    """
    rows = []
    for f in dict.fromkeys(fits):
        c = cells[(f.data, f.setting, f.variant, f.model)]
        j = list(c["eps"]).index(f.eps)
        vals = [float(np.asarray(c[k], dtype=float)[f.run, j]) if k in c else np.nan for k in XGB_FIT_FIELDS]
        rows.append([f"{f.cell}/{f.model}", *(x if np.isfinite(x) else None for x in vals)])
    return {"fields": ["name", *XGB_FIT_FIELDS], "fits": rows}


@contract(fits=_SEQ, cells=Instance(dict, example={}), chapter=_NAME)
def save_xgb_fits(
    fits: Sequence[_xgb.Fit], cells: Mapping[tuple, Mapping[str, Any]], chapter: str = "multidim_risks"
) -> Path:
    """Write :func:`xgb_fits_record` to ``<build>/fits/<chapter>.xgb.json`` (the build folder of
    :func:`ldpnb.repro.report.build_dir`), where the paper-scale runner (:mod:`ldpnb.repro.paperscale`) finds it
    and keeps it beside the chapter's record (``results/paper/fits/``); returns the path."""
    path = Path(build_dir()) / "fits" / f"{chapter}.xgb.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(xgb_fits_record(fits, cells), allow_nan=False) + "\n", encoding="utf-8")
    return path


@contract(sizes=Instance(dict, example=_SIZES["smoke"]), block=_NAME)
def xgb_caption(sizes: Mapping[str, Any], block: str) -> str:
    """What ran in one XGBoost block, for a caption: e.g. ``"ε ∈ {1, 10}, 2 runs, models NK s=1n, ..."``."""
    data, settings, variants, eps, runs, models = sizes["xgb"][block]
    run = f"{runs} run{'s' if runs > 1 else ''}"
    return (
        f"ε ∈ {{{', '.join(f'{e:g}' for e in eps)}}}, {run}, "
        f"{', '.join(variants) if len(variants) < 5 else 'every variant'}; models {', '.join(models)}"
    )


#: A number of surveys and a list size of :class:`RidRuns` (``"last"``: the last one evaluated).
_SURVEYS_KEY = Optional(AnyOf(OneOf("last"), Integer(1, 1000)))
_TOP_KEY = Optional(AnyOf(OneOf("last"), Integer(1, 1 << 20)))


@dataclass(frozen=True)
class RidRuns:
    """RID-ACC runs (%) with named axes: ``values`` of shape (runs, grid, #surveys, top-k), the grid being ε
    (or α-PIE's β), ``surveys`` the numbers of surveys evaluated and ``topk`` the list sizes, as
    :func:`~ldpnb.papers.risks.experiments.smp_rid_experiment` returns them (``res["FK"]``, ``res["PK"]``).

    :meth:`runs` gives the per-run values and :meth:`mean` the run means at named points: ``at`` (a grid
    value; default: the last), ``surveys`` and ``top``; an axis not named is kept.  :meth:`mean` averages
    the whole array over the runs before it selects, so its numbers are those of ``values.mean(axis=0)``
    indexed by hand.

    >>> r = RidRuns(np.arange(12.0).reshape(2, 1, 2, 3), grid=[10.0], surveys=(2, 5), topk=(1, 5, 10))
    >>> r.runs(surveys=5, top=1).tolist(), float(r.mean(surveys=2, top=10))
    ([3.0, 9.0], 5.0)
    """

    values: np.ndarray
    grid: Sequence[float]
    surveys: Sequence[int]
    topk: Sequence[int]

    def __post_init__(self):
        v = np.asarray(self.values, dtype=float)
        shape = (len(self.grid), len(self.surveys), len(self.topk))
        if v.ndim != 4 or v.shape[1:] != shape:
            raise ValueError(f"values must have shape (runs, {shape[0]}, {shape[1]}, {shape[2]}), got {v.shape}")
        object.__setattr__(self, "values", v)
        object.__setattr__(self, "grid", [float(g) for g in self.grid])
        object.__setattr__(self, "surveys", [int(x) for x in self.surveys])
        object.__setattr__(self, "topk", [int(x) for x in self.topk])

    def _index(self, at: Any, surveys: Any, top: Any) -> tuple:
        def pick(axis: Sequence[Any], key: Any, name: str) -> Any:
            if key is None:
                return slice(None)
            if key == "last":
                return len(axis) - 1
            if key not in axis:
                raise ValueError(f"{name} {key!r} is not one of {axis}")
            return axis.index(key)

        return (
            pick(self.grid, "last" if at is None else float(at), "grid point"),
            pick(self.surveys, surveys, "#surveys"),
            pick(self.topk, top, "top-k"),
        )

    @contract(at=Optional(Real(finite=False)), surveys=_SURVEYS_KEY, top=_TOP_KEY)
    def runs(self, *, at: Any = None, surveys: Any = None, top: Any = None) -> np.ndarray:
        """Per-run values at the named point (runs first)."""
        return self.values[(slice(None),) + self._index(at, surveys, top)]

    @contract(at=Optional(AnyOf(OneOf("all"), Real(finite=False))), surveys=_SURVEYS_KEY, top=_TOP_KEY)
    def mean(self, *, at: Any = None, surveys: Any = None, top: Any = None) -> Any:
        """Run mean at the named point (``at="all"`` keeps the whole grid)."""
        i = self._index(None, surveys, top) if at == "all" else self._index(at, surveys, top)
        if at == "all":
            i = (slice(None), *i[1:])
        return self.values.mean(axis=0)[i]


#: RidRuns' axes (the shape of ``values`` against them is checked in RidRuns.__post_init__).
RidRuns.__init__ = contract(  # type: ignore[method-assign]
    values=Array(4, low=0.0, high=100.0),
    grid=Items(Real(finite=False), max_size=4096),
    surveys=Items(Integer(1, 1000), max_size=1000),
    topk=_TOPK,
)(RidRuns.__init__)
