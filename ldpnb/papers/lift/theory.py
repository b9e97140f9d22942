"""Lift paper (Zarrabian, Ding and Sadeghi): numerical checks of the propositions, the
counterexamples to five printed bounds, the identities of eq. (4) and Def. 5, the watchdog's
analytic results (eqs. 11, 13, Def. 4, Thm. 1, Props. 2 and 7), the convexity of the lift-based
constraints and a constructed counterexample to that of the lift-inverse ones (Sec. VI-B), the
support and count bound on the vertices of AORR's polytope (eq. 21; Secs. III-A2, V-A), the merge
loop of Algorithm 2, ALIP against l1/chi2-privacy (Sec. VI-A), the consistency test of Fig. 1's end
points, and the alpha-lift limits (Sec. VI-B).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np
import pandas as pd
from scipy.optimize import linprog

from ldpnb.contracts import (
    DENSE_DOMAIN,
    EPSILON,
    MAX_ENTRIES,
    REPS,
    SAMPLE_SIZE,
    SEED,
    Array,
    Distribution,
    Instance,
    Integer,
    NonnegativeMatrix,
    OneOf,
    Optional,
    Real,
    contract,
)
from ldpnb.measures.information import mutual_information
from ldpnb.measures.lift import (
    ALIP,
    LDPwrtS,
    LiftMeasurePrivacy,
    _lifts,
    _measure,
    alip_budgets,
    arimoto_mi,
    check_joint,
    chi2_dependence,
    mutual_information_sy,
    random_joint,
    set_lift,
    sibson_mi,
    total_variation_dependence,
)
from ldpnb.mechanisms.orr import subset_random_response
from ldpnb.mechanisms.watchdog import MergeMechanism, complete_merging, merging_mi, watchdog_partition
from ldpnb.parallel import sweep
from ldpnb.utils import check_random_state

_ALPHAS = Array(1, low=1.0 + 1e-12, max_size=64)  #: orders alpha > 1
_ALPHAS_ANY = Array(1, low=1e-12, max_size=64)  #: orders alpha > 0
_CONC = Array(1, low=1e-12, max_size=64)  #: Dirichlet concentrations > 0
_KS = Array(1, low=1, high=64, integer=True, max_size=64)  #: numbers of outputs
#: Alphabet sizes of the numerical checks (one random instance at a time).
_CHECK = Integer(2, 256)

__all__ = [
    "lift_asymmetry_samples",
    "counterexample_c1",
    "counterexample_c2",
    "proposition_checks",
    "random_mechanism_joint",
    "proposition_violations",
    "analytic_checks",
    "fig1_extremes",
    "endpoint_consistency",
    "identity_errors",
    "eq11_nested",
    "refinement_checks",
    "prop7_feasibility",
    "ldp_feasible",
    "convexity_checks",
    "quasiconvexity_counterexample",
    "vertex_bound",
    "vertex_support",
    "relaxation_counterexample",
    "algorithm2_merges",
    "alpha_limits",
    "nested_high_risk",
]


# --------------------------------------------------------------------------------------------
# Fig. 1: lift asymmetry
# --------------------------------------------------------------------------------------------


def _check_entries(n: int, what: str) -> None:
    if n > MAX_ENTRIES:
        raise ValueError(f"{what} = {n} exceeds {MAX_ENTRIES} entries")


@contract(n_dist=SAMPLE_SIZE, n_s=DENSE_DOMAIN, n_x=DENSE_DOMAIN, rng=SEED)
def lift_asymmetry_samples(n_dist: int, n_s: int = 5, n_x: int = 17, *, rng: Any = None) -> dict[str, np.ndarray]:
    """Per-symbol log min-lifts and log max-lifts of the raw data (Y = X) of random ``P_SX`` (Fig. 1).

    Returns a dict with ``log_psi`` and ``log_lambda`` (each ``n_dist * n_x`` values, nats) and
    ``mass_max`` / ``mass_min``: per distribution, the total ``P_SX`` mass on the argmax-lift pairs
    ``(s_max(x), x)`` and on the argmin pairs (the paper's "likelihood of appearance" remark, Sec. I-A),
    with ``mass_max_floor = sum_x P_S(s_max(x)) P_X(x) <= mass_max`` and ``mass_min_ceiling =
    sum_x P_S(s_min(x)) P_X(x) >= mass_min`` (because ``Lambda >= 1 >= Psi``): the part of "max-lifts
    are more likely" that holds by construction.
    """
    _check_entries(n_dist * n_s * n_x, "n_dist * n_s * n_x")
    rng = check_random_state(rng)
    P = random_joint(n_s, n_x, rng=rng, size=int(n_dist))  # (d, s, x)
    p_s = P.sum(axis=2, keepdims=True)
    p_x = P.sum(axis=1, keepdims=True)
    L = P / (p_s * p_x)
    ia = L.argmax(axis=1)[:, None, :]
    ii = L.argmin(axis=1)[:, None, :]
    ps_b = np.broadcast_to(p_s, P.shape)
    return {
        "log_psi": np.log(L.min(axis=1)).ravel(),
        "log_lambda": np.log(L.max(axis=1)).ravel(),
        "mass_max": np.take_along_axis(P, ia, axis=1).sum(axis=(1, 2)),
        "mass_min": np.take_along_axis(P, ii, axis=1).sum(axis=(1, 2)),
        "mass_max_floor": (np.take_along_axis(ps_b, ia, axis=1) * p_x).sum(axis=(1, 2)),
        "mass_min_ceiling": (np.take_along_axis(ps_b, ii, axis=1) * p_x).sum(axis=(1, 2)),
    }


# --------------------------------------------------------------------------------------------
# errata: counterexamples and proposition checks (Props. 1, 3-6)
# --------------------------------------------------------------------------------------------


@contract()
def counterexample_c1() -> np.ndarray:
    """Counterexample C1 (to Props. 1.2, 3.1, 3.2): S, Y uniform on 3 symbols, lift 1.2 off the diagonal and
    0.6 on it. ``eps_u = log 1.2``, ``eps_l = -log 0.6``, but ``T = 0.1333 > (e^{eps_u}-1)/2 = 0.1``."""
    lift = np.full((3, 3), 1.2)
    np.fill_diagonal(lift, 0.6)
    return lift / 9.0


@contract()
def counterexample_c2() -> np.ndarray:
    """Counterexample C2 (to Props. 5.1, 5.2): 3x3 uniform marginals, lift 0.8 off the diagonal and 1.4 on it.
    ``eps_l = -log 0.8`` but ``Psi_l1 = 0.2619 > e^{eps_l} - 1 = 0.25``."""
    lift = np.full((3, 3), 0.8)
    np.fill_diagonal(lift, 1.4)
    return lift / 9.0


@dataclass(frozen=True)
class BoundCheck:
    """One inequality ``value <= bound`` of a proposition, evaluated on one instance."""

    value: float
    bound: float
    true_in_general: bool  #: False for the printed bounds that counterexamples C1, C2 refute

    @property
    def holds(self) -> bool:
        return bool(self.value <= self.bound * (1 + 1e-9) + 1e-12)


@contract(joint=NonnegativeMatrix(), alphas=_ALPHAS)
def proposition_checks(joint: Any, *, alphas: tuple[float, ...] = (2.0, 5.0, 50.0)) -> dict[str, BoundCheck]:
    """Evaluate every inequality of Props. 1, 3, 4, 5 and 6 at the tight budgets of ``joint``.

    The tight budgets are ``eps_u = log max Lambda`` and ``eps_l = -log min Psi`` (so the
    mechanism is exactly (eps_l, eps_u)-ALIP). Keys ending in ``_printed`` are the bounds as printed
    in the paper (false in general: Props. 1.2, 3.1-3.2, 5.1-5.2); keys ending in ``_corrected`` are
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
        bound = a / (a - 1) * eu
        out[f"P1.3 Sibson I_{a:g} <= a/(a-1) eps_u"] = BoundCheck(sibson_mi(joint, a, unit="nats"), bound, True)
        out[f"P1.3 Arimoto I_{a:g} <= a/(a-1) eps_u"] = BoundCheck(arimoto_mi(joint, a, unit="nats"), bound, True)
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
    out["P6.1 1/min Psi <= (max l1-inv + P_S(s))/P_S(s)"] = BoundCheck(
        float(1 / Psi.min()), (il1 + p_bot) / p_bot, True
    )
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


@contract(rng=SEED, max_size=Integer(2, 64), concentrations=_CONC)
def random_mechanism_joint(rng: Any = None, *, max_size: int = 5, concentrations=(0.3, 1.0, 3.0)) -> np.ndarray:
    """A random ``P_SY = P_SX C`` for testing the propositions on mechanisms with extreme lifts.

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


@contract(n=REPS, rng=SEED, alphas=_ALPHAS)
def proposition_violations(n: int, *, rng: Any = None, alphas: tuple[float, ...] = (2.0, 5.0, 50.0)):
    """Evaluate :func:`proposition_checks` on ``n`` random mechanisms; count violations per bound.

    Instances with an output of probability 0 or a zero lift (infinite min-lift leakage, where the
    bounds are vacuous) are skipped. Returns ``(table, n_used)`` with ``table`` a DataFrame indexed
    by bound with columns ``true_in_general``, ``violations``, ``rate``.
    """
    rng = check_random_state(rng)
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
    table = df.groupby("bound", sort=False).agg(
        true_in_general=("true_in_general", "first"), violations=("violated", "sum"), rate=("violated", "mean")
    )
    return table, used


@contract(n=REPS, rng=SEED, n_s=_CHECK, n_x=Integer(9, 256))
def analytic_checks(n: int, *, rng: Any = None, n_s: int = 5, n_x: int = 17) -> dict:
    """Numerical checks of the watchdog's analytic results on ``n`` random instances (eqs. 11, 13,
    Def. 4, Thm. 1, Prop. 2).

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
        explicit = mutual_information(p_x, mm.channel(), unit="nats")
        err = max(err, abs(mm.mutual_information(p_x, unit="nats") - explicit))
        v_ref += merging_mi(p_x, G, unit="nats") < merging_mi(p_x, [H], unit="nats") - 1e-15
        r = rng.dirichlet(np.ones(int(rng.integers(1, 5))), size=len(H))
        q = P[:, H] @ r
        Lq = q / (p_s[:, None] * q.sum(0))
        La = set_lift(P, H)
        v_thm += bool(
            (Lq.max(0) / Lq.min(0)).max() < (La.max() / La.min()) * (1 - 1e-12)
            or Lq.max() < La.max() * (1 - 1e-12)
            or Lq.min() > La.min() * (1 + 1e-12)
        )
        eps, lam = rng.uniform(0.25, 8), rng.uniform(0.05, 0.95)
        el, eu = alip_budgets(eps, lam)
        sub = set(watchdog_partition(P, LDPwrtS(eps))[1]) <= set(watchdog_partition(P, ALIP(el, eu))[1])
        mi_ok = (
            complete_merging(P, LDPwrtS(eps)).mutual_information(p_x, unit="nats")
            >= complete_merging(P, ALIP(el, eu)).mutual_information(p_x, unit="nats") - 1e-12
        )
        v_p2 += not (sub and mi_ok)
    return {
        "closed_form_max_err": float(err),
        "refinement_violations": int(v_ref),
        "theorem1_violations": int(v_thm),
        "prop2_violations": int(v_p2),
        "n": int(n),
    }


# --------------------------------------------------------------------------------------------
# Fig. 1: run-to-run spread of the histogram's end points
# --------------------------------------------------------------------------------------------


@contract(n_runs=REPS, n_dist=SAMPLE_SIZE, n_s=DENSE_DOMAIN, n_x=DENSE_DOMAIN, rng=SEED, chunk=Integer(1, 10**4))
def fig1_extremes(
    n_runs: int, n_dist: int = 1000, n_s: int = 5, n_x: int = 17, *, rng: Any = None, chunk: int = 20
) -> dict[str, np.ndarray]:
    """End points of Fig. 1's two histograms in ``n_runs`` independent runs of ``n_dist`` random ``P_SX``.

    Returns arrays (one entry per run): ``psi_min``, ``psi_max`` (range of ``log Psi(x)``) and
    ``lam_min``, ``lam_max`` (range of ``log Lambda(x)``), nats. The paper prints one run's end
    points (Sec. III); their spread over runs is the noise against which they are compared. A chunk of
    ``min(chunk, n_runs)`` runs is drawn at once (at most ``MAX_ENTRIES`` cells, refused before
    anything is drawn).
    """
    _check_entries(min(chunk, n_runs) * n_dist * n_s * n_x, "chunk * n_dist * n_s * n_x")
    rng = check_random_state(rng)
    out = {k: [] for k in ("psi_min", "psi_max", "lam_min", "lam_max")}
    done = 0
    while done < n_runs:
        m = min(chunk, n_runs - done)
        P = random_joint(n_s, n_x, rng=rng, size=m * n_dist).reshape(m, n_dist, n_s, n_x)
        L = P / (P.sum(axis=3, keepdims=True) * P.sum(axis=2, keepdims=True))
        lp, ll = np.log(L.min(axis=2)), np.log(L.max(axis=2))
        out["psi_min"].append(lp.min(axis=(1, 2)))
        out["psi_max"].append(lp.max(axis=(1, 2)))
        out["lam_min"].append(ll.min(axis=(1, 2)))
        out["lam_max"].append(ll.max(axis=(1, 2)))
        done += m
    return {k: np.concatenate(v) for k, v in out.items()}


@contract(runs=Instance(dict, example={"a": np.zeros(3)}), printed=Instance(dict, example={"a": (0.0, 0.0)}))
def endpoint_consistency(runs: dict, printed: dict) -> dict[str, float]:
    r"""Is a set of printed end points (Fig. 1) jointly consistent with one run of our generator?

    ``runs[k]``: end point ``k`` in each of our ``n`` independent runs; ``printed[k] = (lo, hi)``: the
    interval of values that print as the paper's number (half a unit of its last digit either side),
    of which the point nearest the median of our runs is used (the rounding counts in the paper's
    favour). The paper's run and ours are pooled (``n + 1`` runs); the statistic of a run is its
    largest standardised distance ``T = max_k |x_k - med_k| / iqr_k``, with the median and the
    interquartile range of end point ``k`` over the pooled runs, and the p-value is the rank of the
    paper's ``T``, ``p = #{runs with T >= T_paper} / (n + 1)``. If the paper's run came from our
    generator the ``n + 1`` runs are exchangeable and ``P(p <= a) <= a``: rejecting at ``p < 0.01``
    errs at most 1% of the time (``n >= 100`` runs are needed for the test to be able to reject).
    Not rejecting does not show that the paper used our generator.

    Returns ``p_value``, ``t_paper``, ``runs`` (``n``) and ``z_<k>`` (the standardised distances of
    the paper's values).

    Examples
    --------
    >>> r = np.random.default_rng(0).normal(size=(2, 199))
    >>> out = endpoint_consistency({"a": r[0], "b": r[1]}, {"a": (0.0, 0.0), "b": (-0.1, 0.1)})
    >>> out["p_value"] > 0.5
    True
    >>> endpoint_consistency({"a": r[0], "b": r[1]}, {"a": (0.0, 0.0), "b": (9.0, 9.0)})["p_value"] < 0.01
    True
    """
    keys = list(printed)
    R = np.array([np.asarray(runs[k], dtype=float) for k in keys])  # (k, n)
    if R.shape[1] < 2:
        raise ValueError("endpoint_consistency needs at least 2 runs")
    x = [min(max(float(np.median(r)), float(printed[k][0])), float(printed[k][1])) for k, r in zip(keys, R)]
    X = np.column_stack([np.array(x), R])  # column 0: the paper
    med = np.median(X, axis=1, keepdims=True)
    q1, q3 = np.quantile(X, [0.25, 0.75], axis=1)
    Z = np.abs(X - med) / np.maximum(q3 - q1, 1e-300)[:, None]
    T = Z.max(axis=0)
    return {
        "p_value": float(np.mean(T >= T[0])),
        "t_paper": float(T[0]),
        "runs": int(R.shape[1]),
        **{f"z_{k}": float(v) for k, v in zip(keys, Z[:, 0])},
    }


# --------------------------------------------------------------------------------------------
# eq. (4) and Def. 5: the identities, against the direct definitions
# --------------------------------------------------------------------------------------------


@contract(n=REPS, rng=SEED, alphas=_ALPHAS_ANY)
def identity_errors(n: int, *, rng: Any = None, alphas: tuple[float, ...] = (0.5, 2.0, 10.0)) -> dict[str, float]:
    """Largest errors of the identities of eq. (4) and Def. 5 on ``n`` random mechanisms.

    Each side is computed from its own definition: ``Gamma(y)`` as the largest ratio
    ``P_{Y|S}(y|s) / P_{Y|S}(y|s')`` against ``Lambda(y)/Psi(y)`` (relative error); ``T(S;Y) =
    1/2 sum |P_SY - P_S P_Y|`` against ``1/2 E_Y[Lambda_l1]`` (absolute); ``chi^2(S;Y) = sum (P_SY -
    P_S P_Y)^2 / (P_S P_Y)`` against ``E_Y[Lambda_chi2]`` (relative); Sibson's ``I_alpha = alpha/(alpha-1)
    log sum_y (sum_s P_S P_{Y|S}^alpha)^{1/alpha}`` against ``alpha/(alpha-1) log E_Y[Lambda^S_alpha]``
    (absolute, nats). Half the instances are :func:`random_mechanism_joint`, half a uniform ``P_SX``
    (5 x 17) through a random channel.
    """
    rng = check_random_state(rng)
    e4 = eT = eC = eS = 0.0
    used = 0
    for i in range(int(n)):
        if i % 2 == 0:
            Psy = random_mechanism_joint(rng)
        else:
            P = random_joint(5, 17, rng=rng)
            Psy = P @ rng.dirichlet(np.ones(int(rng.integers(2, 8))), size=17)
        if Psy.min() <= 1e-300:
            continue
        used += 1
        ps, py = Psy.sum(1), Psy.sum(0)
        Pys = Psy / ps[:, None]
        gamma = (Pys[:, None, :] / Pys[None, :, :]).max(axis=(0, 1))
        L = Psy / np.outer(ps, py)
        e4 = max(e4, float(np.max(np.abs(gamma / (L.max(0) / L.min(0)) - 1))))
        prod = np.outer(ps, py)
        eT = max(eT, abs(0.5 * np.abs(Psy - prod).sum() - 0.5 * py @ _measure(L, ps, "l1", False, None)))
        x2 = ((Psy - prod) ** 2 / prod).sum()
        eC = max(eC, abs(x2 - py @ _measure(L, ps, "chi2", False, None)) / max(x2, 1e-300))
        for a in alphas:
            direct = a / (a - 1) * np.log(((ps[:, None] * Pys**a).sum(0) ** (1 / a)).sum())
            eS = max(eS, abs(direct - a / (a - 1) * np.log(py @ _measure(L, ps, "alpha", False, a))))
    return {"eq4_rel": e4, "T_abs": eT, "chi2_rel": eC, "sibson_abs": eS, "n": used}


# --------------------------------------------------------------------------------------------
# eq. (11): strict monotonicity in X_H; Def. 4: refinements
# --------------------------------------------------------------------------------------------


@contract(n=REPS, rng=SEED, n_s=_CHECK, n_x=_CHECK)
def eq11_nested(n: int, *, rng: Any = None, n_s: int = 5, n_x: int = 17) -> dict[str, float]:
    """Sec. III-A1 after eq. (11): ``X_H' subset X_H`` implies ``I(X;Y) < I'(X;Y)`` (complete merging).

    ``n`` random ``P_SX`` with random nested pairs (``X_H`` of 1-17 symbols, ``X_H'`` a proper subset,
    possibly empty). Returns ``pairs`` and ``strict_violations`` (``I >= I'``) over pairs with
    ``|X_H| >= 2``, the smallest gap ``I' - I`` there (nats), and ``singleton_pairs`` with
    ``singleton_equalities`` and ``singleton_max_gap``: ``|X_H| = 1``, ``X_H' = {}``, where merging one
    symbol is the identity and ``I = I'`` exactly.
    """
    rng = check_random_state(rng)
    pairs = viol = single = equal = 0
    gap_min, single_gap = np.inf, 0.0
    for _ in range(int(n)):
        P = random_joint(n_s, n_x, rng=rng)
        px = P.sum(0)
        H = rng.choice(n_x, size=int(rng.integers(1, n_x + 1)), replace=False)
        Hp = H[: int(rng.integers(0, len(H)))]
        I = merging_mi(px, [H], unit="nats")
        Ip = merging_mi(px, [Hp] if len(Hp) else [], unit="nats")
        if len(H) == 1:
            single += 1
            single_gap = max(single_gap, abs(Ip - I))
            equal += abs(Ip - I) < 1e-12
            continue
        pairs += 1
        viol += not (I < Ip)
        gap_min = min(gap_min, Ip - I)
    return {
        "pairs": pairs,
        "strict_violations": viol,
        "min_gap": float(gap_min),
        "singleton_pairs": single,
        "singleton_equalities": int(equal),
        "singleton_max_gap": float(single_gap),
    }


@contract(n=REPS, rng=SEED, n_s=_CHECK, n_x=Integer(13, 256))
def refinement_checks(n: int, *, rng: Any = None, n_s: int = 5, n_x: int = 17) -> dict[str, int]:
    """Def. 4 / Sec. IV: a refinement ``G'`` of a partition ``G`` of ``X_H`` has ``I_G <= I_G'``.

    Random ``X_H`` of 2-12 symbols cut into random blocks; each block is split into 1..|block|
    random sub-blocks with probability 0.7 (refinements of several blocks at once, at several
    levels). Returns ``instances``, ``violations`` (``I_G > I_G' + 1e-13``) and
    ``strict_violations`` (``I_G' <= I_G`` although some block was split).
    """
    rng = check_random_state(rng)
    viol = strict = 0
    for _ in range(int(n)):
        P = random_joint(n_s, n_x, rng=rng)
        px = P.sum(0)
        H = rng.permutation(n_x)[: int(rng.integers(2, 13))]
        cuts = np.sort(rng.choice(np.arange(1, len(H)), size=int(rng.integers(0, len(H) - 1)), replace=False))
        G = [b for b in np.split(H, cuts) if len(b)]
        Gp, split = [], False
        for bl in G:
            if len(bl) > 1 and rng.random() < 0.7:
                c = np.sort(rng.choice(np.arange(1, len(bl)), size=int(rng.integers(1, len(bl))), replace=False))
                Gp += [b for b in np.split(rng.permutation(bl), c) if len(b)]
                split = True
            else:
                Gp.append(bl)
        I, Ip = merging_mi(px, G, unit="nats"), merging_mi(px, Gp, unit="nats")
        viol += I > Ip + 1e-13
        strict += split and not (Ip > I)
    return {"instances": int(n), "violations": int(viol), "strict_violations": int(strict)}


# --------------------------------------------------------------------------------------------
# Prop. 7 (Appendix B): both directions by linear programming
# --------------------------------------------------------------------------------------------


@contract(p_sx=NonnegativeMatrix(), high=Array(1, low=0, integer=True), epsilon=EPSILON, k=Integer(1, 64))
def ldp_feasible(p_sx: np.ndarray, high: np.ndarray, epsilon: float, k: int) -> bool:
    """Is there any randomisation ``r(y|x)`` of ``x in X_H`` onto ``k`` outputs that is
    ``(epsilon, X_H)``-LDP w.r.t. S (Appendix B, eq. 34 read as a feasibility problem)? An LP in the
    ``|X_H| k`` entries of ``r``: ``sum_x P_{X|S}(x|s) r(y|x) <= e^epsilon sum_x P_{X|S}(x|s') r(y|x)``
    for all ``y, s, s'``, rows of ``r`` summing to 1, ``r >= 0`` (its constraint matrix, of
    ``k^2 |S| (|S| - 1) |X_H|`` entries, at most ``MAX_ENTRIES``, checked before it is built).
    """
    if p_sx.shape[0] < 2 or not np.all(p_sx.sum(1) > 0):
        raise ValueError(f"p_sx must have at least 2 rows (secrets), each of positive mass, got shape {p_sx.shape}")
    if high.size == 0 or high.max() >= p_sx.shape[1] or np.unique(high).size != high.size:
        raise ValueError(f"high must hold distinct column indices of p_sx in {{0..{p_sx.shape[1] - 1}}}, got {high}")
    K = p_sx[:, high] / p_sx.sum(1, keepdims=True)
    n_s, h = K.shape
    _check_entries(k * k * n_s * (n_s - 1) * h, "the LP's k^2 |S| (|S| - 1) |X_H| entries")
    s, t = np.array([(a, b) for a in range(n_s) for b in range(n_s) if a != b]).T
    D = K[s] - np.exp(epsilon) * K[t]  # (pairs, h)
    A = np.zeros((k * len(s), h * k))
    for y in range(k):
        A[y * len(s) : (y + 1) * len(s), np.arange(h) * k + y] = D
    A_eq = np.kron(np.eye(h), np.ones((1, k)))
    r = linprog(
        np.zeros(h * k), A_ub=A, b_ub=np.zeros(len(A)), A_eq=A_eq, b_eq=np.ones(h), bounds=(0, None), method="highs"
    )
    return r.status == 0


@contract(n=REPS, rng=SEED, ks=_KS, n_s=_CHECK, n_x=Integer(8, 256))
def prop7_feasibility(
    n: int, *, rng: Any = None, ks: tuple[int, ...] = (1, 2, 3), n_s: int = 5, n_x: int = 17
) -> dict[str, float]:
    """Prop. 7: an ``(epsilon, X_H)``-LDP randomisation exists **if and only if**
    ``Gamma(X_H) = max_{s,s'} P(X_H|s)/P(X_H|s') <= e^epsilon``.

    On ``n`` random ``(P_SX, X_H)`` (2-7 symbols) and each number of outputs ``k``: sufficiency, an LP
    feasible at ``epsilon = log Gamma(X_H) (1 + 1e-6)``; necessity, infeasible at
    ``log Gamma(X_H) (1 - 1e-3)``. Also the X-invariant randomisations (merging then any split)
    attain ``Gamma(X_H)`` exactly (``x_invariant_rel``). Returns counts of exceptions.
    """
    rng = check_random_state(rng)
    suff = nec = cases = 0
    xinv = 0.0
    for _ in range(int(n)):
        P = random_joint(n_s, n_x, rng=rng)
        ps = P.sum(1)
        H = np.sort(rng.choice(n_x, size=int(rng.integers(2, 8)), replace=False))
        ph = P[:, H].sum(1) / ps
        G = ph.max() / ph.min()
        R = rng.dirichlet(np.ones(int(rng.integers(1, 5))))
        q = P[:, H].sum(1)[:, None] * R[None, :]
        Lq = q / (ps[:, None] * q.sum(0))
        xinv = max(xinv, abs((Lq.max(0) / Lq.min(0)).max() / G - 1))
        for k in ks:
            cases += 1
            suff += not ldp_feasible(P, H, np.log(G) * (1 + 1e-6), k)
            nec += ldp_feasible(P, H, np.log(G) * (1 - 1e-3), k)
    return {"cases": cases, "sufficiency_exceptions": suff, "necessity_exceptions": nec, "x_invariant_rel": xinv}


# --------------------------------------------------------------------------------------------
# Sec. VI-B: convexity of the privacy constraints in a column v = P_{X|Y}(.|y)
# --------------------------------------------------------------------------------------------


def _constraint_functions(P: np.ndarray) -> dict[str, Any]:
    """The per-output privacy functions of Secs. III and VI as functions of a column ``v`` (rows of ``V``)."""
    ps = P.sum(1)
    K = P / P.sum(0)  # P_{S|X}

    def lift(V):
        return (V @ K.T) / ps  # (m, s): l(s, y) for the columns in V

    return {
        "max-lift Λ": lambda V: lift(V).max(1),
        "inverse min-lift 1/Ψ": lambda V: 1 / lift(V).min(1),
        "ℓ1-lift": lambda V: np.abs(lift(V) - 1) @ ps,
        "χ²-lift": lambda V: (lift(V) - 1) ** 2 @ ps,
        "α-lift (α = 2)": lambda V: (lift(V) ** 2 @ ps) ** 0.5,
        "α-lift (α = 10)": lambda V: (lift(V) ** 10 @ ps) ** 0.1,
        "ℓ1-lift-inverse": lambda V: np.abs(1 / lift(V) - 1) @ ps,
        "χ²-lift-inverse": lambda V: (1 / lift(V) - 1) ** 2 @ ps,
        "α-lift-inverse (α = 2)": lambda V: (lift(V) ** -2.0 @ ps) ** 0.5,
        "α-lift-inverse (α = 10)": lambda V: (lift(V) ** -10.0 @ ps) ** 0.1,
    }


@contract(n_pairs=REPS, rng=SEED, n_s=_CHECK, n_x=_CHECK, concentrations=_CONC)
def convexity_checks(
    n_pairs: int, *, rng: Any = None, n_s: int = 5, n_x: int = 17, concentrations: tuple[float, ...] = (0.05, 0.3, 1.0)
) -> dict[str, dict[str, float]]:
    """Midpoint convexity of each privacy function ``f(v)`` of a column ``v`` (Sec. VI-B's remark that
    the l1 and chi2 constraints "are not convex").

    ``n_pairs`` random pairs ``(a, b)`` of columns (Dirichlet with each concentration) on one random
    ``P_SX``: a violation is ``f((a+b)/2) > (f(a)+f(b))/2`` (relative 1e-12): one violation proves
    non-convexity, none is evidence of convexity. What a constraint ``f(v) <= b`` needs is a convex
    sub-level set: a pair with ``f((a+b)/2) > max(f(a), f(b))`` (``quasi_violations``) proves that the
    constraint set at the level ``max(f(a), f(b))`` is not convex (``quasi_level_min`` is the
    smallest such level found). Returns a dict per function.
    """
    rng = check_random_state(rng)
    P = random_joint(n_s, n_x, rng=rng)
    fns = _constraint_functions(P)
    per = max(1, int(n_pairs) // len(concentrations))
    pairs = [
        (rng.dirichlet(np.full(n_x, c), size=per), rng.dirichlet(np.full(n_x, c), size=per)) for c in concentrations
    ]
    out: dict[str, dict[str, float]] = {}
    for name, f in fns.items():
        v = q = 0
        worst, qmin = 0.0, np.inf
        for A, B in pairs:
            fa, fb, fm = f(A), f(B), f((A + B) / 2)
            gap = fm - (fa + fb) / 2
            bad = gap > 1e-12 * (1 + np.abs(fa) + np.abs(fb))
            v += int(bad.sum())
            if bad.any():
                worst = max(worst, float(np.max(gap[bad] / (np.abs(fa[bad]) + np.abs(fb[bad])))))
            top = np.maximum(fa, fb)
            qbad = fm > top * (1 + 1e-12) + 1e-15
            q += int(qbad.sum())
            if qbad.any():
                qmin = min(qmin, float(top[qbad].min()))
        out[name] = {
            "pairs": per * len(concentrations),
            "violations": v,
            "worst_rel": worst,
            "quasi_violations": q,
            "quasi_level_min": qmin,
        }
    return out


_INVERSE_PHI = {
    # phi(l) of the lift-inverse measures and the lift above which phi is strictly concave
    "chi2": (lambda L: (1.0 / L - 1.0) ** 2, 1.5),  # phi'' = (6 - 4 l) / l^4
    "l1": (lambda L: np.abs(1.0 / L - 1.0), 1.0),  # phi = 1 - 1/l for l > 1
}


@contract(
    p_sx=Distribution(ndim=2),
    kind=OneOf("chi2", "l1"),
    thresholds=Optional(Array(1, low=1.0)),
    floor=Real(0, 1, low_open=True, high_open=True),
)
def quasiconvexity_counterexample(
    p_sx: np.ndarray, kind: str = "chi2", *, thresholds: Any = None, floor: float = 0.2
) -> dict:
    r"""Two columns ``a, b`` of ``P_{X|Y}`` that satisfy a lift-inverse constraint whose midpoint violates
    it: the constraint set ``{v : f(v) <= c}`` of ``f = Psi_chi2`` or ``Psi_l1`` is not convex.

    With ``l(v) = P_{S|X} v / P_S`` linear in the column ``v``, ``f(v) = sum_s P_S(s) phi(l_s(v))``
    with ``phi(l) = (1/l - 1)^2`` (``chi2``, strictly concave for ``l > 3/2``) or ``|1/l - 1|``
    (``l1``, concave for ``l > 1``). Along ``v(u) = m + u w``, where ``w`` moves only the lifts of two
    secrets ``s1, s2`` (``P_{S|X} w = d (e_{s1} - e_{s2})``) and both lifts stay above the threshold,
    ``g(u) = f(v(u))`` is strictly concave; if moreover ``l_{s1}(m) = l_{s2}(m)`` then ``g'(0) =
    phi'(l_{s1}) - phi'(l_{s2}) = 0``, so ``g(0) > max(g(-1), g(1))``. The largest such ``d`` is a
    linear programme in ``(m, w, d)``; it is solved for every pair ``(s1, s2)`` and every threshold,
    and the pair with the largest relative gap is kept (``thresholds``: lifts both ends must reach;
    default: the concavity threshold, 3/2 or 1, plus 0, 0.1, ..., 0.5). ``f`` is evaluated with the
    same function as :func:`convexity_checks`. Every other lift of the midpoint (unchanged along
    ``w``) is kept at least ``floor``, so that the level is a moderate budget, not an infinite one.

    Returns ``a``, ``b``, ``mid``, ``f_a``, ``f_b``, ``f_mid``, ``level = max(f_a, f_b)``, ``gap =
    f_mid - level`` (> 0 proves non-convexity at ``level``), ``rel_gap``, ``secrets``, ``threshold``
    and ``eps_l``, the lift-inverse budget whose constraint is ``f <= level`` (``(e^eps_l - 1)^2`` for
    chi2, ``e^eps_l - 1`` for l1, eq. 33). ``gap = 0`` and NaN columns when no pair of secrets can
    reach the concave region.

    Examples
    --------
    >>> P = np.array([[.2, .02, .03], [.02, .2, .03], [.06, .06, .38]])
    >>> r = quasiconvexity_counterexample(P)
    >>> bool(r["f_mid"] > r["level"])
    True
    """

    P = np.asarray(p_sx, dtype=float)
    ps, K = P.sum(1), P / P.sum(0)
    n_s, n_x = K.shape
    _, c0 = _INVERSE_PHI[kind]
    thresholds = c0 + 0.1 * np.arange(6) if thresholds is None else np.asarray(thresholds, dtype=float)
    f = _constraint_functions(P)["χ²-lift-inverse" if kind == "chi2" else "ℓ1-lift-inverse"]
    best = {
        "gap": 0.0,
        "rel_gap": 0.0,
        "a": np.full(n_x, np.nan),
        "b": np.full(n_x, np.nan),
        "mid": np.full(n_x, np.nan),
        "f_a": np.nan,
        "f_b": np.nan,
        "f_mid": np.nan,
        "level": np.nan,
        "secrets": (-1, -1),
        "threshold": np.nan,
    }
    nv = 2 * n_x + 1  # m (mid column), w (direction), d
    for s1 in range(n_s):
        for s2 in range(s1 + 1, n_s):
            A_eq = np.zeros((n_s + 2, nv))
            A_eq[0, :n_x] = 1.0  # sum m = 1
            A_eq[1 : n_s + 1, n_x : 2 * n_x] = K  # P_{S|X} w = d (e_s1 - e_s2)
            A_eq[1 + s1, -1], A_eq[1 + s2, -1] = -1.0, 1.0
            A_eq[-1, :n_x] = K[s1] / ps[s1] - K[s2] / ps[s2]  # l_s1(m) = l_s2(m)
            b_eq = np.zeros(n_s + 2)
            b_eq[0] = 1.0
            eye = np.eye(n_x)
            rows = [np.hstack([-eye, -eye, np.zeros((n_x, 1))]), np.hstack([-eye, eye, np.zeros((n_x, 1))])]
            others = [t for t in range(n_s) if t not in (s1, s2)]  # l_t(m) >= floor
            rows.append(np.hstack([-K[others] / ps[others, None], np.zeros((len(others), n_x + 1))]))
            for s in (s1, s2):  # l_s(m) - d / P_S(s) >= threshold
                rows.append(np.concatenate([-K[s] / ps[s], np.zeros(n_x), [1.0 / ps[s]]])[None, :])
            A_ub = np.vstack(rows)
            cost = np.zeros(nv)
            cost[-1] = -1.0
            bounds = [(0, None)] * n_x + [(None, None)] * n_x + [(0, None)]
            for c in thresholds:
                b_ub = np.concatenate([np.zeros(2 * n_x), np.full(len(others), -floor), [-c, -c]])
                r = linprog(cost, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds, method="highs")
                if r.status != 0 or r.x[-1] <= 0:
                    continue
                m, w = r.x[:n_x], r.x[n_x : 2 * n_x]
                a, b = np.clip(m + w, 0, None), np.clip(m - w, 0, None)
                a, b, m = a / a.sum(), b / b.sum(), np.clip(m, 0, None) / np.clip(m, 0, None).sum()
                fa, fb, fm = (float(f(v[None, :])[0]) for v in (a, b, m))
                level = max(fa, fb)
                if np.isfinite(fm) and (fm - level) / level > best["rel_gap"]:
                    best = {
                        "gap": fm - level,
                        "rel_gap": (fm - level) / level,
                        "a": a,
                        "b": b,
                        "mid": m,
                        "f_a": fa,
                        "f_b": fb,
                        "f_mid": fm,
                        "level": level,
                        "secrets": (s1, s2),
                        "threshold": float(c),
                    }
    lv = best["level"]
    best["eps_l"] = float(np.log1p(np.sqrt(lv) if kind == "chi2" else lv)) if np.isfinite(lv) else np.nan
    return best


@contract(n_x=Integer(1, 10**6), n_s=Integer(1, 10**4))
def vertex_bound(n_x: int, n_s: int) -> int:
    r"""Upper bound on the number of vertices of AORR's polytope ``Pi`` (eq. 21) over ``n_x`` symbols
    and ``n_s`` secrets: ``3^{n_s} sum_{k=1}^{min(n_s, n_x)} C(n_x, k)`` (exact integer).

    Every vertex has at most ``n_s`` non-zero entries (:func:`vertex_support`), and a vertex is the
    unique solution of its active constraints: its support ``T`` (``C(n_x, k)`` choices) and, for
    each secret, the max-lift side active, the min-lift side active, or neither (``3^{n_s}``
    choices). For fixed ``n_s`` this is a polynomial of degree ``n_s`` in ``n_x``.

    Examples
    --------
    >>> vertex_bound(6, 2)
    189
    """

    return 3 ** int(n_s) * sum(comb(int(n_x), k) for k in range(1, min(int(n_s), int(n_x)) + 1))


@contract(vertices=Array(2, min_size=0), tol=Real(0, 1))
def vertex_support(vertices: np.ndarray, *, tol: float = 1e-9) -> int:
    r"""Largest number of entries above ``tol`` among the rows (vertices) of ``vertices``.

    At a vertex of ``Pi`` (eq. 21) ``|X|`` linearly independent constraints are active. The rows of
    ``P_{S|X}`` (the lift constraints) and ``1^T`` (``sum_s P_{S|X}(s|x) = 1``) all lie in the row
    space of ``P_{S|X}``, of dimension at most ``|S|``; so at least ``|X| - |S|`` of the active
    constraints are ``v_x = 0``, and a vertex has at most ``|S|`` non-zero entries.

    Examples
    --------
    >>> vertex_support(np.array([[0.5, 0.5, 0.0], [1.0, 0.0, 0.0]]))
    2
    """
    V = np.asarray(vertices, dtype=float)
    return int((V > tol).sum(axis=1).max()) if V.shape[0] else 0


@contract()
def relaxation_counterexample() -> dict[str, float]:
    r"""Counterexample C1 read as an ALIP mechanism: it is ``(eps_l, eps_u)``-ALIP at its tight budgets
    ``eps_u = log 1.2``, ``eps_l = -log 0.6`` (``lambda = eps_l / (eps_l + eps_u) = 0.737``), but not
    l1-private nor chi2-private at the same budgets (Sec. VI-A calls these measures relaxations of
    ALIP). Returns the budgets, ``lam``, the max l1-lift and chi2-lift with their bounds ``e^eps_u - 1``
    and ``(e^eps_u - 1)^2``, ``violations`` (0-2) and ``sum_u = e^eps_u + e^{-eps_l}``, below 2.

    Examples
    --------
    >>> r = relaxation_counterexample()
    >>> r["violations"], round(r["l1"], 4), round(r["l1_bound"], 4)
    (2, 0.2667, 0.2)
    """
    J = counterexample_c1()
    L, p_s, _ = _lifts(J)
    eu, el = float(np.log(L.max())), float(-np.log(L.min()))
    l1 = float(_measure(L, p_s, "l1", False, None).max())
    c2 = float(_measure(L, p_s, "chi2", False, None).max())
    b = float(np.expm1(eu))
    return {
        "eps_l": el,
        "eps_u": eu,
        "lam": el / (el + eu),
        "l1": l1,
        "l1_bound": b,
        "chi2": c2,
        "chi2_bound": b**2,
        "violations": int(l1 > b * (1 + 1e-9)) + int(c2 > b**2 * (1 + 1e-9)),
        "sum_u": float(np.exp(eu) + np.exp(-el)),
    }


def _merges_task(task, rng):

    dist, p_sx, eps_grid, lams, feasibility = task
    rows = []
    for lam in lams:
        for eps in eps_grid:
            el, eu = alip_budgets(float(eps), float(lam))
            r = subset_random_response(p_sx, el, eu, feasibility=feasibility)
            rows.append(
                {
                    "dist": dist,
                    "lam": float(lam),
                    "eps": float(eps),
                    "n_partition": len(r.partition),
                    "n_blocks": len(r.blocks),
                    "fallback": bool(r.fallback),
                    "lp_failures": r.lp_failures,
                }
            )
    return rows


@contract(
    joints=Array(3, low=0),
    eps_grid=Array(1, low=1e-12),
    lams=Array(1, low=1e-9, high=1 - 1e-9),
    feasibility=OneOf("lp", "printed"),
    seed=SEED,
)
def algorithm2_merges(joints: np.ndarray, eps_grid, lams, *, feasibility: str = "printed", seed: Any = 0):
    r"""How often Algorithm 2's while loop (lines 7-14) merges blocks of Algorithm 1's partition.

    Runs :func:`ldpnb.mechanisms.orr.subset_random_response` with the given block feasibility test
    (``"printed"``: the polytope ``Pi(X_i)`` of eq. 21 is non-empty; ``"lp"``: LP (22) is feasible) on
    every distribution, budget and ``lambda``; each merge of the loop removes one block, so
    ``n_partition - n_blocks`` counts the merges. Returns a DataFrame with ``dist, lam, eps,
    n_partition, n_blocks, fallback, lp_failures``.

    Examples
    --------
    >>> P = random_joint(5, 17, rng=np.random.default_rng(0))[None]
    >>> d = algorithm2_merges(P, [1.0], [0.5])
    >>> int((d.n_partition - d.n_blocks).sum())
    0
    """
    J = np.asarray(joints, dtype=float)
    tasks = [(i, J[i], [float(e) for e in eps_grid], [float(x) for x in lams], feasibility) for i in range(len(J))]
    return pd.DataFrame([r for rows in sweep(_merges_task, tasks, seed=seed) for r in rows])


# --------------------------------------------------------------------------------------------
# Sec. VI-B: alpha-lift privacy is tunable; alpha = infinity is ALIP
# --------------------------------------------------------------------------------------------


@contract(n=REPS, rng=SEED, alphas=_ALPHAS, n_s=_CHECK, n_x=_CHECK)
def alpha_limits(
    n: int,
    *,
    rng: Any = None,
    alphas: tuple[float, ...] = (1.01, 1.5, 2, 5, 10, 20, 50, 100, 1e3, 1e4),
    n_s: int = 5,
    n_x: int = 17,
) -> dict[str, float]:
    """The alpha-lift and alpha-lift-inverse (eqs. 29, 32) grow with ``alpha`` towards ``Lambda`` and ``1/Psi``.

    On the columns of ``n`` random ``P_SX``: ``monotone_violations`` (a decrease from one alpha to the
    next), ``gap_max`` (largest relative gap ``1 - Lambda_alpha/Lambda`` and ``1 - Psi_alpha Psi`` at
    the largest alpha), ``sandwich_violations`` of ``Lambda P_S(s*)^{1/alpha} <= Lambda_alpha <= Lambda``.
    """
    rng = check_random_state(rng)
    P = random_joint(n_s, n_x, rng=rng, size=int(n))
    ps = P.sum(2)
    L = P / (ps[:, :, None] * P.sum(1)[:, None, :])
    up = np.stack([_measure(L, ps, "alpha", False, a) for a in alphas])  # (alpha, n, x)
    lo = np.stack([_measure(L, ps, "alpha", True, a) for a in alphas])
    mono = int(np.sum(np.diff(up, axis=0) < -1e-12 * up[1:]) + np.sum(np.diff(lo, axis=0) < -1e-12 * lo[1:]))
    Lam, iPsi = L.max(1), 1 / L.min(1)
    gap = max(float(np.max(1 - up[-1] / Lam)), float(np.max(1 - lo[-1] / iPsi)))
    star = np.take_along_axis(np.broadcast_to(ps[:, :, None], L.shape), L.argmax(1)[:, None, :], axis=1)[:, 0, :]
    sandwich = 0
    for j, a in enumerate(alphas):
        sandwich += int(np.sum(up[j] < Lam * star ** (1 / a) * (1 - 1e-12)) + np.sum(up[j] > Lam * (1 + 1e-12)))
    return {
        "columns": int(Lam.size),
        "monotone_violations": mono,
        "gap_max": gap,
        "alpha_max": float(alphas[-1]),
        "sandwich_violations": sandwich,
    }


@contract(
    joints=Array(3, low=0), eps_grid=Array(1, low=1e-12), lam=Real(0, 1, low_open=True, high_open=True), alphas=_ALPHAS
)
def nested_high_risk(
    joints: np.ndarray, eps_grid, *, lam: float = 0.5, alphas: tuple[float, ...] = (2, 10, 100)
) -> dict:
    """``X_H(alpha_1) subset X_H(alpha_2) subset ... subset X_H(ALIP)`` for increasing alpha (eq. 33 with
    the same budgets; a consequence of the monotone limits). Returns ``instances``, ``violations`` and
    the mean ``|X_H|`` per criterion."""
    P = np.asarray(joints, dtype=float)
    ps = P.sum(2)
    L = P / (ps[:, :, None] * P.sum(1)[:, None, :])
    viol, sizes = 0, {a: 0.0 for a in (*alphas, "ALIP")}
    for e in eps_grid:
        el, eu = alip_budgets(float(e), lam)
        sets = [LiftMeasurePrivacy("alpha", el, eu, alpha=a).violated(L, ps) for a in alphas]
        sets.append(ALIP(el, eu).violated(L, ps))
        for a, h in zip(sizes, sets):
            sizes[a] += h.sum(1).mean() / len(eps_grid)
        for h1, h2 in zip(sets[:-1], sets[1:]):
            viol += int(np.sum(np.any(h1 & ~h2, axis=1)))
    return {
        "instances": len(P) * len(eps_grid),
        "violations": viol,
        "mean_high": {str(k): float(v) for k, v in sizes.items()},
    }
