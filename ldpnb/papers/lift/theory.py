"""Lift paper (Zarrabian, Ding and Sadeghi): numerical checks of the propositions, the
counterexamples to five printed bounds, and the watchdog's analytic results.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
import numpy as np
from ldpnb.measures.information import mutual_information
from ldpnb.utils import check_random_state
from ldpnb.measures.lift import ALIP, LDPwrtS, alip_budgets, check_joint, random_joint, set_lift
from ldpnb.measures.lift import (
    _lifts, _measure, arimoto_mi, chi2_dependence, mutual_information_sy, sibson_mi, total_variation_dependence,
)
from ldpnb.mechanisms.watchdog import MergeMechanism, complete_merging, merging_mi, watchdog_partition

__all__ = [
    "lift_asymmetry_samples",
    "counterexample_c1",
    "counterexample_c2",
    "proposition_checks",
    "random_mechanism_joint",
    "proposition_violations",
    "analytic_checks",
]


# --------------------------------------------------------------------------------------------
# Fig. 1: lift asymmetry
# --------------------------------------------------------------------------------------------


def lift_asymmetry_samples(n_dist: int, n_s: int = 5, n_x: int = 17, *, rng: Any = None) -> dict[str, np.ndarray]:
    """Per-symbol log min-lifts and log max-lifts of the raw data (Y = X) of random ``P_SX`` (Fig. 1).

    Returns a dict with ``log_psi`` and ``log_lambda`` (each ``n_dist * n_x`` values, nats) and
    ``mass_max`` / ``mass_min``: per distribution, the total ``P_SX`` mass on the argmax-lift pairs
    ``(s_max(x), x)`` and on the argmin pairs (the paper's "likelihood of appearance" remark).
    """
    rng = check_random_state(rng)
    if int(n_dist) != n_dist or n_dist < 1:
        raise ValueError(f"n_dist must be a positive integer, got {n_dist}")
    P = random_joint(n_s, n_x, rng=rng, size=int(n_dist))  # (d, s, x)
    p_s = P.sum(axis=2, keepdims=True)
    p_x = P.sum(axis=1, keepdims=True)
    L = P / (p_s * p_x)
    ia = L.argmax(axis=1)[:, None, :]
    ii = L.argmin(axis=1)[:, None, :]
    return {
        "log_psi": np.log(L.min(axis=1)).ravel(),
        "log_lambda": np.log(L.max(axis=1)).ravel(),
        "mass_max": np.take_along_axis(P, ia, axis=1).sum(axis=(1, 2)),
        "mass_min": np.take_along_axis(P, ii, axis=1).sum(axis=(1, 2)),
    }


# --------------------------------------------------------------------------------------------
# errata: counterexamples and proposition checks (spec Sec. 4)
# --------------------------------------------------------------------------------------------


def counterexample_c1() -> np.ndarray:
    """Counterexample C1 (spec T3.2, T8): S, Y uniform on 3 symbols, lift 1.2 off the diagonal and
    0.6 on it. ``eps_u = log 1.2``, ``eps_l = -log 0.6``, but ``T = 0.1333 > (e^{eps_u}-1)/2 = 0.1``."""
    lift = np.full((3, 3), 1.2)
    np.fill_diagonal(lift, 0.6)
    return lift / 9.0


def counterexample_c2() -> np.ndarray:
    """Counterexample C2 (spec T10): 3x3 uniform marginals, lift 0.8 off the diagonal and 1.4 on it.
    ``eps_l = -log 0.8`` but ``Psi_l1 = 0.2619 > e^{eps_l} - 1 = 0.25``."""
    lift = np.full((3, 3), 0.8)
    np.fill_diagonal(lift, 1.4)
    return lift / 9.0


@dataclass(frozen=True)
class BoundCheck:
    """One inequality ``value <= bound`` of a proposition, evaluated on one instance."""

    value: float
    bound: float
    true_in_general: bool  #: False for the bounds printed in the paper that the spec refutes

    @property
    def holds(self) -> bool:
        return bool(self.value <= self.bound * (1 + 1e-9) + 1e-12)


def proposition_checks(joint: Any, *, alphas: tuple[float, ...] = (2.0, 5.0, 50.0)) -> dict[str, BoundCheck]:
    """Evaluate every inequality of Props. 1, 3, 4, 5 and 6 at the tight budgets of ``joint``.

    The tight budgets are ``eps_u = log max Lambda`` and ``eps_l = -log min Psi`` (so the
    mechanism is exactly (eps_l, eps_u)-ALIP). Keys ending in ``_printed`` are the bounds as printed
    in the paper (false in general, spec T3.2, T8.1-2, T10.1-2); keys ending in ``_corrected`` are
    the corrected bounds; all others are printed bounds that are true.

    Units: nats (``I``, ``I^S_alpha``, ``I^A_alpha``, the budgets).
    """
    joint = check_joint(joint)
    L, p_s, p_y = _lifts(joint)
    Lam, Psi = L.max(axis=0), L.min(axis=0)
    eu = float(np.log(Lam.max()))
    el = float(-np.log(Psi.min()))
    out: dict[str, BoundCheck] = {}
    a_u, a_l = np.expm1(eu), -np.expm1(-el)  # e^eu - 1, 1 - e^-el
    m_ul = max(a_u, a_l)
    m_lu = max(np.expm1(el), -np.expm1(-eu))
    # Prop. 1
    out["P1.1 I(S;Y) <= eps_u"] = BoundCheck(mutual_information_sy(joint, unit="nats"), eu, True)
    T = total_variation_dependence(joint)
    X2 = chi2_dependence(joint)
    out["P1.2 T <= (e^eu-1)/2 _printed"] = BoundCheck(T, 0.5 * a_u, False)
    out["P1.2 chi2 <= (e^eu-1)^2 _printed"] = BoundCheck(X2, a_u**2, False)
    out["P1.2 T <= max(e^eu-1, 1-e^-el)/2 _corrected"] = BoundCheck(T, 0.5 * m_ul, True)
    out["P1.2 chi2 <= max(e^eu-1, 1-e^-el)^2 _corrected"] = BoundCheck(X2, m_ul**2, True)
    for a in alphas:
        out[f"P1.3 Sibson I_{a:g} <= a/(a-1) eps_u"] = BoundCheck(sibson_mi(joint, a, unit="nats"), a / (a - 1) * eu, True)
        out[f"P1.3 Arimoto I_{a:g} <= a/(a-1) eps_u"] = BoundCheck(arimoto_mi(joint, a, unit="nats"), a / (a - 1) * eu, True)
    out["P1.4 max log Gamma <= eps_l + eps_u"] = BoundCheck(float(np.log(Lam / Psi).max()), el + eu, True)
    # Prop. 3
    l1 = _measure(L, p_s, "l1", False, None).max()
    c2 = _measure(L, p_s, "chi2", False, None).max()
    out["P3.1 max l1-lift <= e^eu-1 _printed"] = BoundCheck(l1, a_u, False)
    out["P3.1 max l1-lift <= max(e^eu-1, 1-e^-el) _corrected"] = BoundCheck(l1, m_ul, True)
    out["P3.1 max l1-lift <= 2(1-e^-eu) _corrected"] = BoundCheck(l1, -2 * np.expm1(-eu), True)
    out["P3.2 max chi2-lift <= (e^eu-1)^2 _printed"] = BoundCheck(c2, a_u**2, False)
    out["P3.2 max chi2-lift <= max(e^eu-1, 1-e^-el)^2 _corrected"] = BoundCheck(c2, m_ul**2, True)
    # Prop. 5
    il1 = _measure(L, p_s, "l1", True, None).max()
    ic2 = _measure(L, p_s, "chi2", True, None).max()
    out["P5.1 max l1-lift-inv <= e^el-1 _printed"] = BoundCheck(il1, np.expm1(el), False)
    out["P5.1 max l1-lift-inv <= max(e^el-1, 1-e^-eu) _corrected"] = BoundCheck(il1, m_lu, True)
    out["P5.2 max chi2-lift-inv <= (e^el-1)^2 _printed"] = BoundCheck(ic2, np.expm1(el) ** 2, False)
    out["P5.2 max chi2-lift-inv <= max(e^el-1, 1-e^-eu)^2 _corrected"] = BoundCheck(ic2, m_lu**2, True)
    # Props. 3.3, 4, 5.3, 6 (true)
    ybar = int(Lam.argmax())
    p_top = p_s[int(L[:, ybar].argmax())]
    ylow = int(Psi.argmin())
    p_bot = p_s[int(L[:, ylow].argmin())]
    out["P4.1 max Lambda <= max l1-lift / P_S(s_ybar) + 1"] = BoundCheck(float(Lam.max()), l1 / p_top + 1, True)
    out["P4.2 max Lambda <= sqrt(max chi2-lift / P_S(s_ybar)) + 1"] = BoundCheck(
        float(Lam.max()), np.sqrt(c2 / p_top) + 1, True
    )
    out["P6.1 1/min Psi <= (max l1-inv + P_S(s))/P_S(s)"] = BoundCheck(float(1 / Psi.min()), (il1 + p_bot) / p_bot, True)
    out["P6.2 1/min Psi <= (sqrt(max chi2-inv) + sqrt(P_S(s)))/sqrt(P_S(s))"] = BoundCheck(
        float(1 / Psi.min()), (np.sqrt(ic2) + np.sqrt(p_bot)) / np.sqrt(p_bot), True
    )
    for a in alphas:
        al = _measure(L, p_s, "alpha", False, a).max()
        ail = _measure(L, p_s, "alpha", True, a).max()
        out[f"P3.3 max alpha-lift({a:g}) <= e^eu"] = BoundCheck(al, np.exp(eu), True)
        out[f"P5.3 max alpha-lift-inv({a:g}) <= e^el"] = BoundCheck(ail, np.exp(el), True)
        out[f"P4.3 max Lambda <= max alpha-lift({a:g}) / P_S(s_ybar)^(1/a)"] = BoundCheck(
            float(Lam.max()), al / p_top ** (1 / a), True
        )
        out[f"P6.3 1/min Psi <= max alpha-inv({a:g}) / P_S(s)^(1/a)"] = BoundCheck(
            float(1 / Psi.min()), ail / p_bot ** (1 / a), True
        )
    return out


def random_mechanism_joint(rng: Any = None, *, max_size: int = 5, concentrations=(0.3, 1.0, 3.0)) -> np.ndarray:
    """A random ``P_SY = P_SX C`` for testing the propositions (spec Sec. 4, "Notation for tests").

    Alphabet sizes uniform on ``2..max_size``; ``P_SX`` is Dirichlet(c 1) over all cells and the
    rows of ``C`` are Dirichlet(c 1), with ``c`` drawn from ``concentrations`` (small ``c`` gives
    extreme lifts).
    """
    rng = check_random_state(rng)
    n_s, n_x, n_y = rng.integers(2, max_size + 1, size=3)
    c = float(rng.choice(concentrations))
    p_sx = random_joint(int(n_s), int(n_x), rng=rng, kind="dirichlet", concentration=c)
    C = rng.dirichlet(np.full(n_y, c), size=n_x)
    return p_sx @ C


def proposition_violations(n: int, *, rng: Any = None, alphas: tuple[float, ...] = (2.0, 5.0, 50.0)):
    """Evaluate :func:`proposition_checks` on ``n`` random mechanisms; count violations per bound.

    Instances with an output of probability 0 or a zero lift (infinite min-lift leakage, where the
    bounds are vacuous) are skipped. Returns ``(table, n_used)`` with ``table`` a DataFrame indexed
    by bound with columns ``true_in_general``, ``violations``, ``rate``.
    """
    import pandas as pd

    rng = check_random_state(rng)
    if int(n) != n or n < 1:
        raise ValueError(f"n must be a positive integer, got {n}")
    rows, used = [], 0
    for _ in range(int(n)):
        p_sy = random_mechanism_joint(rng)
        keep = p_sy.sum(axis=0) > 0
        if not keep.all() or p_sy.min() <= 1e-300:
            continue
        used += 1
        for name, bc in proposition_checks(p_sy, alphas=alphas).items():
            rows.append((name, bc.true_in_general, not bc.holds))
    df = pd.DataFrame(rows, columns=["bound", "true_in_general", "violated"])
    table = df.groupby("bound", sort=False).agg(true_in_general=("true_in_general", "first"),
                                                violations=("violated", "sum"), rate=("violated", "mean"))
    return table, used


def analytic_checks(n: int, *, rng: Any = None, n_s: int = 5, n_x: int = 17) -> dict:
    """Numerical checks of the watchdog's analytic results on ``n`` random instances (spec T4-T7).

    For each instance: a random ``P_SX`` (iid U(0,1) cells), a random ``X_H`` (2-8 symbols) split in two
    blocks, a random randomisation ``r`` on ``X_H`` (1-4 outputs) and random ``(eps, lambda)``.
    Returns a dict with ``closed_form_max_err`` (eqs. 11/13 vs ``I(X;Y)`` of the explicit channel,
    nats), ``refinement_violations`` (Def. 4), ``theorem1_violations`` (Thm. 1 and its LIP/ALIP
    analogue: any ``r`` on ``X_H`` has ``max Gamma >= Gamma(X_H)``, ``max l >= Lambda(X_H)``,
    ``min l <= Psi(X_H)``), ``prop2_violations`` (``X_H^LDP subset of X_H^ALIP`` and
    ``I_LDP >= I_ALIP`` for complete merging) and ``n``.
    """
    rng = check_random_state(rng)
    err, v_ref, v_thm, v_p2 = 0.0, 0, 0, 0
    for _ in range(int(n)):
        P = random_joint(n_s, n_x, rng=rng)
        p_x, p_s = P.sum(0), P.sum(1)
        H = np.sort(rng.choice(n_x, size=int(rng.integers(2, min(9, n_x + 1))), replace=False))
        perm = rng.permutation(H)
        cut = int(rng.integers(1, len(H)))
        G = [np.sort(perm[:cut]), np.sort(perm[cut:])]
        mm = MergeMechanism(n_x, np.setdiff1d(np.arange(n_x), H), G)
        err = max(err, abs(mm.mutual_information(p_x, unit="nats") - mutual_information(p_x, mm.channel(), unit="nats")))
        v_ref += merging_mi(p_x, G, unit="nats") < merging_mi(p_x, [H], unit="nats") - 1e-15
        r = rng.dirichlet(np.ones(int(rng.integers(1, 5))), size=len(H))
        q = P[:, H] @ r
        Lq = q / (p_s[:, None] * q.sum(0))
        La = set_lift(P, H)
        v_thm += bool((Lq.max(0) / Lq.min(0)).max() < (La.max() / La.min()) * (1 - 1e-12)
                      or Lq.max() < La.max() * (1 - 1e-12) or Lq.min() > La.min() * (1 + 1e-12))
        eps, lam = rng.uniform(0.25, 8), rng.uniform(0.05, 0.95)
        el, eu = alip_budgets(eps, lam)
        sub = set(watchdog_partition(P, LDPwrtS(eps))[1]) <= set(watchdog_partition(P, ALIP(el, eu))[1])
        mi_ok = (complete_merging(P, LDPwrtS(eps)).mutual_information(p_x, unit="nats")
                 >= complete_merging(P, ALIP(el, eu)).mutual_information(p_x, unit="nats") - 1e-12)
        v_p2 += not (sub and mi_ok)
    return {"closed_form_max_err": float(err), "refinement_violations": int(v_ref),
            "theorem1_violations": int(v_thm), "prop2_violations": int(v_p2), "n": int(n)}
