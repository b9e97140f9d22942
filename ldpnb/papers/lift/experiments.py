"""Experiment driver for the lift chapter (Figs. 2-8 of Zarrabian, Ding & Sadeghi; spec A8).

For each random joint ``P_SX`` (common random numbers: the same matrices for every curve and every
epsilon), each LDP budget ``epsilon`` of the grid and each curve, build the mechanism and record its
utility (NMI), its leakages (nats), whether it exceeds its budget, and the wall time of the
construction. The figures plot means over distributions.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Sequence
import numpy as np
from ldpnb.measures.information import entropy, mutual_information
from ldpnb.measures.lift import ALIP, LDPwrtS, LiftMeasurePrivacy, alip_budgets, random_joint
from ldpnb.mechanisms.orr import optimal_random_response, subset_random_response
from ldpnb.utils import check_random_state
from ldpnb.mechanisms.watchdog import complete_merging, merging_mi, subset_merging

__all__ = [
    "Curve",
    "random_joints",
    "evaluate_curve",
    "put_sweep",
    "summarise",
]


_METHODS = ("cm", "sm", "aorr", "srr")


_PRIVACY = ("alip", "ldp", "l1", "chi2", "alpha")


@dataclass(frozen=True)
class Curve:
    """One curve of a figure.

    method : ``"cm"`` (watchdog, complete merging), ``"sm"`` (subset merging, Algorithm 1),
        ``"aorr"`` (asymmetric optimal random response), ``"srr"`` (Algorithm 2).
    privacy : ``"alip"`` (budgets from ``lam``), ``"ldp"`` (w.r.t. S, budget epsilon),
        ``"l1"``, ``"chi2"``, ``"alpha"`` (lift-based + lift-inverse measures, budgets from ``lam``).
    risk : ALIP risk score of Algorithm 1, ``"inverse"`` (Lambda + 1/Psi) or ``"printed"``.
    outer_loop : Algorithm 1 line 4, ``"nonempty"`` or ``"printed"``.
    """

    label: str
    method: str
    privacy: str = "alip"
    lam: float | None = 0.5
    alpha: float | None = None
    risk: str = "inverse"
    outer_loop: str = "nonempty"

    def __post_init__(self):
        if self.method not in _METHODS:
            raise ValueError(f"method must be one of {_METHODS}, got {self.method!r}")
        if self.privacy not in _PRIVACY:
            raise ValueError(f"privacy must be one of {_PRIVACY}, got {self.privacy!r}")
        if self.method in ("aorr", "srr") and self.privacy != "alip":
            raise ValueError("AORR and SRR are defined for ALIP only")
        if self.privacy != "ldp" and not (self.lam is not None and 0 < self.lam < 1):
            raise ValueError(f"lam must lie in (0, 1) for {self.privacy}, got {self.lam}")

    def criterion(self, epsilon: float):
        if self.privacy == "ldp":
            return LDPwrtS(epsilon)
        el, eu = alip_budgets(epsilon, self.lam)
        if self.privacy == "alip":
            return ALIP(el, eu, risk=self.risk)
        return LiftMeasurePrivacy(self.privacy, el, eu, alpha=self.alpha)


def random_joints(n_dist: int, n_s: int, n_x: int, *, rng: Any = None) -> np.ndarray:
    """``n_dist`` iid random ``P_SX`` (spec A0: iid U(0,1) cells, normalised): ``(n_dist, n_s, n_x)``."""
    return random_joint(n_s, n_x, rng=check_random_state(rng), size=n_dist)


def _leaks(p_sy: np.ndarray) -> tuple[float, float, float]:
    p_s, p_y = p_sy.sum(axis=1), p_sy.sum(axis=0)
    keep = p_y > 0
    logL = np.log(p_sy[:, keep]) - np.log(p_s)[:, None] - np.log(p_y[keep])[None, :]
    return float(logL.max()), float(-logL.min()), float((logL.max(axis=0) - logL.min(axis=0)).max())


def evaluate_curve(p_sx: np.ndarray, epsilon: float, curve: Curve, *, method: str = "auto") -> dict:
    """Build ``curve``'s mechanism for ``P_SX`` at LDP budget ``epsilon`` and measure it.

    Returns a dict: ``nmi``, ``max_leak`` (log max Lambda), ``min_leak`` (|log min Psi|),
    ``ldp_leak`` (nats), ``violates`` (leakage above the budget, relative tolerance 1e-9),
    ``time`` (s, construction only), ``n_high`` (|X_H|), ``n_blocks``, ``largest_block``,
    ``n_vertices`` (AORR / SRR), ``fallback`` (SRR).
    """
    p_x = p_sx.sum(axis=0)
    h_x = entropy(p_x, unit="nats")
    extra = {"n_high": np.nan, "n_blocks": np.nan, "largest_block": np.nan, "n_vertices": np.nan, "fallback": False}
    t0 = time.perf_counter()
    if curve.method in ("cm", "sm"):
        crit = curve.criterion(epsilon)
        if curve.method == "cm":
            mm = complete_merging(p_sx, crit)
        else:
            mm = subset_merging(p_sx, crit, outer_loop=curve.outer_loop)
        elapsed = time.perf_counter() - t0
        p_sy = mm.output_joint(p_sx)
        util = merging_mi(p_x, mm.groups, unit="nats") / h_x
        extra.update(n_high=len(mm.high), n_blocks=len(mm.groups), largest_block=max((len(g) for g in mm.groups), default=0))
    else:
        el, eu = alip_budgets(epsilon, curve.lam)
        if curve.method == "aorr":
            r = optimal_random_response(p_sx, el, eu, method=method)
            C = r.channel
            extra.update(n_vertices=r.n_vertices)
        else:
            r = subset_random_response(p_sx, el, eu, method=method, risk=curve.risk)
            C = r.channel
            extra.update(
                n_vertices=r.n_vertices, fallback=r.fallback, largest_block=r.largest_block,
                n_blocks=len(r.blocks), n_high=sum(len(b) for b in r.partition),
            )
        elapsed = time.perf_counter() - t0
        p_sy = p_sx @ C
        util = mutual_information(p_x, C, unit="nats") / h_x
    mx, mn, ld = _leaks(p_sy)
    if curve.privacy == "ldp":
        viol = ld > epsilon * (1 + 1e-9)
    else:
        el, eu = alip_budgets(epsilon, curve.lam)
        viol = (mx > eu * (1 + 1e-9)) or (mn > el * (1 + 1e-9))
    return {"nmi": float(util), "max_leak": mx, "min_leak": mn, "ldp_leak": ld, "violates": bool(viol), "time": elapsed, **extra}


def _task(task, rng):
    dist, p_sx, eps_grid, curves, method = task
    rows = []
    for eps in eps_grid:
        for c in curves:
            r = evaluate_curve(p_sx, float(eps), c, method=method)
            rows.append({"curve": c.label, "method": c.method, "privacy": c.privacy, "lam": c.lam,
                         "alpha": c.alpha, "eps": float(eps), "dist": dist, **r})
    return rows


def put_sweep(
    joints: np.ndarray, eps_grid: Sequence[float], curves: Sequence[Curve], *,
    seed: int = 0, n_jobs: int | None = 1, method: str = "auto",
):
    """Privacy-utility sweep: one row per (distribution, epsilon, curve) (spec A8).

    Distributions are the tasks of :func:`ldpnb.parallel.sweep` (results do not depend on
    ``n_jobs``; the mechanisms are deterministic given ``P_SX``). Returns a pandas DataFrame with
    columns ``curve, method, privacy, lam, alpha, eps, dist, nmi, max_leak, min_leak, ldp_leak,
    violates, time, n_high, n_blocks, largest_block, n_vertices, fallback``.
    """
    import pandas as pd

    from ldpnb.repro.parallel import sweep

    joints = np.asarray(joints, dtype=float)
    if joints.ndim != 3:
        raise ValueError("joints must have shape (n_dist, n_s, n_x)")
    eps_grid = [float(e) for e in eps_grid]
    if not eps_grid or min(eps_grid) <= 0:
        raise ValueError("eps_grid must be a non-empty list of positive budgets")
    tasks = [(i, joints[i], eps_grid, tuple(curves), method) for i in range(len(joints))]
    out = sweep(_task, tasks, seed=seed, n_jobs=n_jobs)
    return pd.DataFrame([r for rows in out for r in rows])


def summarise(df):
    """Means (and standard errors of the NMI) over distributions per (curve, eps)."""
    g = df.groupby(["curve", "eps"], sort=False)
    m = g[["nmi", "max_leak", "min_leak", "ldp_leak", "violates", "time", "n_vertices", "largest_block", "fallback"]].mean()
    m["nmi_se"] = g["nmi"].std(ddof=1) / np.sqrt(g["nmi"].count())
    m["n"] = g["nmi"].count()
    return m.reset_index()


def crossover_eps(summary, hi: str, lo: str, *, q: str = "nmi", cap: float = 0.999) -> float | None:
    """Where curve ``hi`` overtakes curve ``lo`` for good.

    With ``d(eps) = mean_q(hi) - mean_q(lo)`` on the grid points where either mean is below ``cap``,
    find the last grid point ``eps_a`` with ``d <= 0``; the crossover is the linear-interpolation
    root of ``d`` between ``eps_a`` and the next grid point. Returns the first grid point if ``d > 0``
    everywhere and ``None`` if ``hi`` is not ahead at the last point.
    """
    a = summary[summary["curve"] == hi].set_index("eps")[q].sort_index()
    b = summary[summary["curve"] == lo].set_index("eps")[q].sort_index()
    a, b = a.align(b, join="inner")
    keep = (a < cap) | (b < cap)
    d = (a - b)[keep]
    if d.empty or d.iloc[-1] <= 0:
        return None
    neg = np.flatnonzero(d.values <= 0)
    if neg.size == 0:
        return float(d.index[0])
    i = neg[-1]
    e0, e1 = d.index[i], d.index[i + 1]
    d0, d1 = d.iloc[i], d.iloc[i + 1]
    return float(e0 + (e1 - e0) * (-d0) / (d1 - d0))


# --------------------------------------------------------------------------------------------
# comparisons used by the reproduction report
# --------------------------------------------------------------------------------------------


def mean_curve(summary, curve: str, q: str = "nmi"):
    """The mean of quantity ``q`` along ``curve`` (a Series indexed by epsilon)."""
    d = summary[summary["curve"] == curve]
    if d.empty:
        raise ValueError(f"no curve {curve!r} in the summary")
    return d.set_index("eps")[q].sort_index()


def compare_means(summary, hi: str, lo: str, *, q: str = "nmi", eps_min: float = 0.0, eps_max: float = np.inf,
                  strict: bool = True, cap: float = 0.999) -> tuple[bool, str]:
    """Is ``mean_q(hi) > mean_q(lo)`` (``>=`` if not ``strict``) at every epsilon in
    ``[eps_min, eps_max]``? For ``q="nmi"`` only points where either NMI is below ``cap`` count (the
    curves merge at NMI = 1). Returns ``(ok, description)``."""
    a, b = mean_curve(summary, hi, q), mean_curve(summary, lo, q)
    a, b = a.align(b, join="inner")
    sel = (a.index >= eps_min) & (a.index <= eps_max)
    if q == "nmi":
        sel &= ((a < cap) | (b < cap)).values
    d = (a - b)[sel]
    if d.empty:
        return False, "no eps in range"
    ok = bool((d > 0).all() if strict else (d >= -1e-12).all())
    return ok, f"min diff {d.min():+.3f} over {int(sel.sum())} eps"


def per_instance_violations(df, lo: str, hi: str, *, q: str = "nmi", tol: float = 1e-9, mask=None) -> tuple[int, int]:
    """Count instances (dist, eps) where curve ``lo`` exceeds curve ``hi`` by more than ``tol``.

    ``mask``: optional boolean Series indexed by (dist, eps) selecting the instances to compare.
    Returns ``(violations, compared)``.
    """
    a = df[df["curve"] == lo].set_index(["dist", "eps"])[q]
    b = df[df["curve"] == hi].set_index(["dist", "eps"])[q]
    d = (a - b).dropna()
    if mask is not None:
        d = d[mask.reindex(d.index).fillna(False).astype(bool)]
    return int((d > tol).sum()), int(d.size)


def leakage_excess(df, lams: dict):
    """Mean leakage minus budget, with its standard error, per (curve, side, epsilon).

    ``lams`` maps curve labels to lambda (``eps_l = lam eps`` for the min-lift, ``eps_u = (1-lam) eps``
    for the max-lift). Returns a DataFrame with columns ``curve, q, eps, excess, se`` (nats).
    """
    import pandas as pd

    parts = []
    for lab, lam in lams.items():
        d = df[df["curve"] == lab]
        for q, b in (("min_leak", lam), ("max_leak", 1 - lam)):
            g = (d[q] - b * d["eps"]).groupby(d["eps"])
            parts.append(pd.DataFrame({"curve": lab, "q": q, "excess": g.mean(),
                                       "se": g.std(ddof=1) / np.sqrt(g.count())}))
    return pd.concat(parts).rename_axis("eps").reset_index()
