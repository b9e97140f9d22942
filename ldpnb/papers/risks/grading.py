"""Risks paper (Arcolezi, Gambs, Couchot and Palamidessi, PVLDB 2023): the numbers of the chapter's rows that
combine several experiments, computed from their per-run results and recorded on the chapter's report.

Every function takes the results as the chapter holds them (arrays with runs first) and records the rows
named in its docstring; each row's criterion is declared in :mod:`ldpnb.papers.risks.claims`.  XGBoost
curves are ``{(variant, model): {"eps": [...], "acc": (runs, E), "oracle": (runs, E)}}``
(:func:`ldpnb.papers.risks.runs.xgb_view`); every XGBoost number is a mean over the runs of a cell.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np
from scipy.stats import kendalltau

from ldpnb.attacks import expected_pd_accuracy
from ldpnb.contracts import Instance, Optional, Real, contract
from ldpnb.stats import Estimate, bonferroni
from ldpnb.stats import mean as _mean

__all__ = [
    "fig1_order",
    "rid_rows",
    "fig9_row",
    "pie_rows",
    "aif_rows",
    "rfd_rows",
    "xgb_mean",
    "stack",
    "h5s_contrast",
]

_MAP = Instance(Mapping, example={})
_OBJ = Instance(object, example=None)
_UNIFORM_FAKE = ("GRR", "SUE-r", "OUE-r")


@contract(
    make=Instance(object, example=None), samples=Instance(list, tuple, example=[]), level=Instance(float, example=0.95)
)
def stack(make: Any, samples: Sequence[Any], *, level: float = 0.95) -> Estimate:
    """One estimate with a cell per sample, the cells' intervals simultaneous at ``level``
    (Bonferroni), for cells with different numbers of runs, which one call of an
    :mod:`ldpnb.stats` estimator cannot take: ``make(sample, level)`` estimates one cell at the
    per-cell level :func:`ldpnb.stats.bonferroni` (``level``, cells).

    >>> import numpy as np
    >>> from ldpnb.stats import mean
    >>> e = stack(lambda x, lev: mean(x, level=lev), [np.arange(5.0), np.arange(8.0)])
    >>> e.shape, e.simultaneous, e.n_runs
    ((2,), True, 5)
    """
    if not samples:
        raise ValueError("stack needs at least one sample")
    cell = bonferroni(level, len(samples))
    ests = [make(x, cell) for x in samples]
    if any(np.ndim(e.value) != 0 for e in ests):
        raise ValueError("each sample must give a scalar estimate")
    se = None if any(e.se is None for e in ests) else np.array([float(e.se) for e in ests])
    notes = sorted({e.note for e in ests if e.note})
    return Estimate(
        np.array([float(e.value) for e in ests]),
        np.array([float(e.low) for e in ests]),
        np.array([float(e.high) for e in ests]),
        level=level,
        se=se,
        n_runs=min(e.n_runs for e in ests),
        method=ests[0].method,
        simultaneous=len(ests) > 1,
        note="; ".join(notes),
    )


@contract(v=_MAP, eps=Optional(Real(0.0, None, low_open=True)))
def xgb_mean(v: Mapping[str, Any], eps: float | None = None) -> Any:
    """Run mean of one XGBoost curve, at every ε (array) or at ``eps`` (float)."""
    m = np.nanmean(np.asarray(v["acc"], dtype=float), axis=0)
    return m if eps is None else float(m[list(v["eps"]).index(float(eps))])


def _at(xv: Mapping, lab: str, model: str, keep) -> dict[float, float]:
    """``{ε: run mean}`` of one curve, for the ε accepted by ``keep``."""
    v = xv[(lab, model)]
    return {float(e): float(m) for e, m in zip(v["eps"], xgb_mean(v)) if keep(e)}


def _diff(xv, a, b, keep=lambda e: True) -> list[float]:
    """Run-mean differences of curves ``a`` and ``b`` (``(variant, model)`` each) at their common ε."""
    da, db = _at(xv, a[0], a[1], keep), _at(xv, b[0], b[1], keep)
    return [da[e] - db[e] for e in sorted(set(da) & set(db))]


def _excess(xv: Mapping) -> float:
    """Largest run mean of (XGBoost − oracle) on the same test users over the cells of ``xv``."""
    return max(
        float(np.nanmax(np.nanmean(np.asarray(v["acc"]) - np.asarray(v["oracle"]), axis=0))) for v in xv.values()
    )


def _folds(xv: Mapping, base: float) -> np.ndarray:
    return np.concatenate([xgb_mean(v) / base for v in xv.values()])


@contract(report=_OBJ, curves=_MAP, eps=Instance(list, tuple, example=[1]))
def fig1_order(report: Any, curves: Mapping[tuple[str, str], Sequence[float]], eps: Sequence[float]) -> None:
    """Row Fig1-order: per ε of Fig. 1a, min(GRR, ω-SS, SUE) − max(OUE, OLH) of Eq. 4 (paper's forms, %)."""
    u = {p: np.asarray(curves[("uniform", p)]) for p in ("grr", "ss", "sue", "oue", "olh")}
    gap = np.minimum.reduce([u["grr"], u["ss"], u["sue"]]) - np.maximum(u["oue"], u["olh"])
    report.holds("Fig1-order", gap=gap, gap_at_10=float(gap[list(eps).index(10)]))


@contract(report=_OBJ, fig2=_MAP, rid_eps=Instance(list, tuple, example=[1]), curves=_MAP)
def rid_rows(
    report: Any, fig2: Mapping[str, Any], rid_eps: Sequence[float], curves: Mapping[tuple[str, str], Sequence[float]]
) -> None:
    """Rows H2-top1, C3-eps and Fig2-trend from Fig. 2's runs (``fig2[p]["FK"]``: runs, ε, #surveys 2..5,
    top-1/5/10) and Fig. 1's Eq. 4 curves (ε = 1..10)."""
    fk = {p: np.asarray(v["FK"]).mean(axis=0) for p, v in fig2.items()}
    three = [p for p in ("grr", "ss", "sue") if p in fk]
    report.holds("H2-top1", top1_4=[fk[p][-1, 2, 0] for p in three], top1_2=[fk[p][-1, 0, 0] for p in three])
    top10 = {p: a[:, -1, -1] for p, a in fk.items()}  # every ε, 5 surveys, top-10
    report.holds(
        "C3-eps",
        min_step=min(float(np.diff(v).min()) if v.size > 1 else 0.0 for v in top10.values()),
        min_rise=min(float(v[-1] - v[0]) for v in top10.values()),
    )
    idx = [int(e) - 1 for e in rid_eps]
    x = np.concatenate([np.asarray(curves[("uniform", p)])[idx] for p in fk])
    y = np.concatenate([top10[p] for p in fk])
    report.holds("Fig2-trend", tau=float(kendalltau(x, y).statistic))


@contract(report=_OBJ, fig9=_MAP)
def fig9_row(report: Any, fig9: Mapping[str, Any]) -> None:
    """Row Fig9: on ACS, per protocol, the smallest step over #surveys of the top-10 RID-ACC at the largest ε,
    and the 5-survey values of GRR, ω-SS, SUE (high) and OUE, OLH (low)."""
    last = {p: np.asarray(v["FK"]).mean(axis=0)[-1, :, -1] for p, v in fig9.items()}
    report.holds(
        "Fig9",
        min_step=[float(np.diff(v).min()) for v in last.values()],
        high=[last[p][-1] for p in ("grr", "ss", "sue") if p in last],
        low=[last[p][-1] for p in ("oue", "olh") if p in last],
    )


@contract(
    report=_OBJ,
    pie=_MAP,
    fig2=_MAP,
    fig11=_MAP,
    betas=Instance(list, tuple, example=[0.95]),
    ks=Instance(list, tuple, np.ndarray, example=[2, 3]),
    eps_tight=Instance(np.ndarray, example=None),
)
def pie_rows(
    report: Any,
    pie: Mapping[str, Mapping[str, Any]],
    fig2: Mapping[str, Any],
    fig11: Mapping[str, Any],
    betas: Sequence[float],
    ks: Sequence[int],
    eps_tight: np.ndarray,
) -> None:
    """Rows H10-a, H10-c, H10-sim and C3-beta.  ``pie[setting][p]``: α-PIE runs (Figs. 12, 13) over ``betas``
    (tight to loose), FK and PK; ``fig2`` (uniform) and ``fig11`` (non-uniform): ε-LDP runs whose first ε is 1;
    ``ks``: the domain sizes and ``eps_tight``: the budgets at the tightest β (infinite: sent in clear).

    H10-c grades the effect the paper names: on the attributes the tightest β sends in clear, a protocol's
    per-report accuracy rises from its exact ε = 1 value (Eq. 3) to 1; the gain ``1 − ACC_p(1, k_j)`` (points,
    averaged over those attributes) is compared across protocols, the overall RID-ACC ratio is reported beside.
    """
    if len(ks) != len(eps_tight):
        raise ValueError("ks and eps_tight have one entry per attribute")

    def top10(res, key, i):  # run mean, grid point i, 5 surveys, top-10
        return float(np.asarray(res[key]).mean(axis=0)[i, -1, -1])

    prots = list(pie["uniform"])
    gap = [
        top10(pie[s][p], key, 0) - top10(ref[p], key, 0)
        for s, ref in (("uniform", fig2), ("non-uniform", fig11))
        for key in ("FK", "PK")
        for p in prots
    ]
    report.holds("H10-a", gap=gap)
    rise = {p: top10(pie["uniform"][p], "FK", 0) / top10(fig2[p], "FK", 0) for p in prots}
    clear = [int(k) for k, e in zip(ks, eps_tight) if not np.isfinite(e)]
    gain = {
        p: float(np.mean([100 * (1 - expected_pd_accuracy(p, 1.0, k)) for k in clear])) if clear else float("nan")
        for p in prots
    }
    others = [p for p in ("sue", "oue", "olh") if p in rise]
    report.holds(
        "H10-c",
        grr=gain["grr"],
        others=[gain[p] for p in others],
        n_clear=len(clear),
        ratio_grr=rise["grr"],
        ratio_others=[rise[p] for p in others],
    )
    loose = [i for i, b in enumerate(betas) if b > 0.6]
    spread = [max(v) / min(v) for s in pie for i in loose for v in [[top10(pie[s][p], "FK", i) for p in prots]]]
    ldp = [top10(fig2[p], "FK", -1) for p in prots]
    report.holds("H10-sim", spread_pie=spread or [float("nan")], spread_ldp=max(ldp) / min(ldp))
    steps = (
        [
            float(np.diff(np.asarray(pie[s][p][key]).mean(axis=0)[:, -1, -1]).min())
            for s in pie
            for p in prots
            for key in ("FK", "PK")
        ]
        if len(betas) > 1
        else [0.0]
    )
    report.holds("C3-beta", min_step=min(steps))


@contract(report=_OBJ, xv=_MAP, bayes=_MAP, scale=Instance(str, example="book"))
def aif_rows(report: Any, xv: Mapping[str, Mapping], bayes: Mapping[str, Mapping], scale: str) -> None:
    """Rows of Sec. 4.3 and App. D on the paper's attacker: H5-b-OUE, H5-b-SUE, H5-c, H5-d, H5-e, H5-f, H6-c,
    H6-d, H6-e, T17-Adult, T17-Nursery, H5-g, XGB-GRR, H6-sens-npk and, where the s / n_pk / HM grid ran,
    H5-s, H5-hm, H5-nk and H6-sens.  ``xv[name]``: XGBoost curves of RS+FD on ACS, Adult and Nursery;
    ``bayes[name]``: the Bayes runs of :func:`ldpnb.papers.risks.experiments.aif_experiment` (NK beside the
    folds)."""
    acs = xv["ACS"]
    hi = lambda e: e >= 4  # noqa: E731
    nk = "NK s=1n"
    report.range("H5-b-OUE", _diff(acs, ("GRR", nk), ("OUE-r", nk), hi))
    report.range("H5-b-SUE", _diff(acs, ("GRR", nk), ("SUE-r", nk), hi))
    report.range("H5-c", list(_at(acs, "OUE-z", nk, hi).values()))
    top = max(acs[("SUE-z", nk)]["eps"])
    report.range("H5-d", xgb_mean(acs[("SUE-z", nk)], top))
    first = min(acs[("SUE-z", nk)]["eps"])
    report.holds(
        "H5-e",
        sue1=xgb_mean(acs[("SUE-z", nk)], first),
        oue1=xgb_mean(acs[("OUE-z", nk)], first),
        min_gap_high=min(_diff(acs, ("SUE-z", nk), ("OUE-z", nk), hi) or [np.nan]),
    )
    base = {"ACS": 100 / 18, "Adult": 100 / 10, "Nursery": 100 / 9}
    bayes_min = {
        name: float(
            min(np.asarray(b[(lab, "NK")]).mean(0).min() for lab in ("GRR", "SUE-z", "OUE-z", "SUE-r", "OUE-r"))
            / base[name]
        )
        for name, b in bayes.items()
    }
    f = _folds(acs, base["ACS"])
    report.holds("H5-f", min_fold=f.min(), max_fold=f.max(), bayes_min_fold=bayes_min["ACS"])
    report.range("H6-c", [xgb_mean(xv[n][("SUE-z", nk)], max(xv[n][("SUE-z", nk)]["eps"])) for n in xv])
    for row, name in (("H6-d", "Adult"), ("H6-e", "Nursery")):
        f = _folds(xv[name], base[name])
        report.holds(row, min_fold=f.min(), max_fold=f.max(), bayes_min_fold=bayes_min[name])
    report.range("T17-Adult", _excess(xv["Adult"]))
    report.range("T17-Nursery", _excess(xv["Nursery"]))
    both = [lab for lab in ("GRR", "SUE-z", "OUE-z", "SUE-r", "OUE-r") if (lab, "PK 0.5n") in acs]
    report.order(
        "H5-g",
        {
            "NK": np.concatenate([xgb_mean(acs[(lab, nk)]) for lab in both]),
            "PK": np.concatenate([xgb_mean(acs[(lab, "PK 0.5n")]) for lab in both]),
        },
    )
    report.range("XGB-GRR", max(float(xgb_mean(v).max()) for (lab, _), v in acs.items() if lab in _UNIFORM_FAKE))
    sens = {
        n: float(
            np.mean(
                [
                    abs(d)
                    for lab in both
                    if (lab, "PK 0.1n") in xv[n] and (lab, "PK 0.5n") in xv[n]
                    for d in _diff(xv[n], (lab, "PK 0.5n"), (lab, "PK 0.1n"))
                ]
                or [np.nan]
            )
        )
        for n in xv
    }
    report.holds("H6-sens-npk", **{n.lower(): v for n, v in sens.items()})
    grid = [lab for lab in both if (lab, "NK s=5n") in acs]
    if not grid:  # the s / n_pk / HM grid did not run at this scale (smoke): rows not evaluated
        return
    c = {lab: h5s_contrast(acs, lab) for lab in grid}
    report.range(
        "H5-s",
        stack(lambda x, lev: _mean(x, level=lev), list(c.values())),
        note=f"Cells: {', '.join(f'{lab} ({len(c[lab])} runs)' for lab in grid)}.",
    )
    report.range(
        "H5-hm",
        max(
            abs(d)
            for lab in grid
            for s in (1, 3, 5)
            for d in _diff(acs, (lab, f"NK s={s}n"), (lab, f"HM ({s}n, {s / 10:g}n)"))
        ),
    )
    nk_min, pk = [], []
    for lab in grid:
        cur = [_at(acs, lab, f"NK s={s}n", lambda e: True) for s in (1, 3, 5)]
        common = sorted(set.intersection(*[set(c) for c in cur]))
        p5 = _at(acs, lab, "PK 0.5n", lambda e: True)
        nk_min += [min(c[e] for c in cur) for e in common]
        pk += [p5[e] for e in common]
    report.order("H5-nk", {"NK": np.array(nk_min), "PK": np.array(pk)})
    # H6-sens is declared at paper scale only (recording it at another scale is a no-op); a dataset
    # without NK s = 5n gives NaN, which fails the row rather than skipping it
    s_sens = {
        n: float(
            np.mean(
                [abs(d) for lab in both if (lab, "NK s=5n") in xv[n] for d in _diff(xv[n], (lab, "NK s=5n"), (lab, nk))]
                or [np.nan]
            )
        )
        for n in xv
    }
    report.holds("H6-sens", **{n.lower(): v for n, v in s_sens.items()})


@contract(xv=_MAP, lab=Instance(str, example="GRR"))
def h5s_contrast(xv: Mapping, lab: str) -> np.ndarray:
    """Row H5-s, one variant: per run, the mean over the ε where NK s = 5n ran of
    (PK 0.5n − PK 0.1n) − (NK 5n − NK 1n), in points: positive when n_pk's gain is the larger.  The four
    fits of a run attack the same reports (:meth:`ldpnb.papers.risks.xgb.Fit.stream`), so the contrast is
    paired within the run; runs where one of the four did not run are left out."""
    eps = xv[(lab, "NK s=5n")]["eps"]

    def at(model):
        v = xv[(lab, model)]
        a = np.asarray(v["acc"], dtype=float)
        return a[:, [list(v["eps"]).index(e) for e in eps]]

    parts = [at("PK 0.5n"), at("PK 0.1n"), at("NK s=5n"), at("NK s=1n")]
    r = min(len(p) for p in parts)
    c = (parts[0][:r] - parts[1][:r] - parts[2][:r] + parts[3][:r]).mean(axis=1)
    return c[np.isfinite(c)]


@contract(report=_OBJ, fd=_MAP, rfd=_MAP, inc=_MAP)
def rfd_rows(report: Any, fd: Mapping, rfd: Mapping, inc: Mapping[str, Mapping]) -> None:
    """Rows of Sec. 5.2.3 and App. E.2 on the paper's attacker: H9-a, H9-b, H9-b-OUE, H9-c, Fig6-npk, E2-inc, E2-3x,
    E2-DIR and T17 (RS+FD and RS+RFD on ACS).  ``fd``: XGBoost on RS+FD (ACS), ``rfd``: on RS+RFD with
    correct priors, ``inc[kind]``: with DIR, ZIPF and EXP priors."""
    nk = "NK s=1n"
    labs = [lab for lab in _UNIFORM_FAKE if (lab, nk) in rfd]
    report.range("H9-a", np.concatenate([xgb_mean(v) for v in rfd.values()]))
    # H9-b grades GRR and SUE-r, H9-b-OUE (paper scale only: recording it elsewhere is a no-op) OUE-r
    for row, vs in (("H9-b", ("GRR", "SUE-r")), ("H9-b-OUE", ("OUE-r",))):
        report.range(
            row,
            [
                d
                for lab in labs
                if lab in vs and (lab, nk) in fd
                for d in _diff(
                    {("FD", nk): fd[(lab, nk)], ("RFD", nk): rfd[(lab, nk)]}, ("FD", nk), ("RFD", nk), lambda e: e >= 2
                )
            ],
        )
    report.range("H9-c", float(np.mean([d for lab in labs for d in _diff(rfd, (lab, "PK 0.5n"), (lab, nk))])))
    report.monotone(
        "Fig6-npk",
        [
            float(np.mean([xgb_mean(rfd[(lab, f"PK {f}n")]) for lab in labs if (lab, f"PK {f}n") in rfd]))
            for f in ("0.1", "0.3", "0.5")
            if any((lab, f"PK {f}n") in rfd for lab in labs)
        ],
    )
    zx = [xgb_mean(v) for k in ("zipf", "exp") for v in inc[k].values()]
    report.close("E2-inc", float(max(m.max() for m in zx)))
    nk_models = {m for (_, m) in inc["zipf"]}
    fd_max = max(float(xgb_mean(v).max()) for (lab, m), v in fd.items() if lab in _UNIFORM_FAKE and m in nk_models)
    report.range("E2-3x", fd_max / float(max(m.max() for m in zx)))
    report.holds(
        "E2-DIR",
        ratio=[
            float(
                np.mean(list(_at(inc["dir"], lab, nk, lambda e: True).values()))
                / np.mean(list(_at(fd, lab, nk, lambda e: True).values()))
            )
            for lab in labs
            if (lab, nk) in inc["dir"]
        ],
    )
    report.range("T17", max(_excess(fd), _excess(rfd), *(_excess(v) for v in inc.values())))
