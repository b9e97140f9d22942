"""The lift and the privacy notions built on it (Zarrabian, Ding & Sadeghi).

Reference: A. Zarrabian, N. Ding, P. Sadeghi, "On the Lift, Related Privacy Measures, and
Applications to Privacy-Utility Tradeoffs" (journal version of the ICASSP 2022 / ITW papers).
Equation numbers below refer to that paper; "spec" refers to the reproduction spec 001_LIFT.

Setting: a sensitive feature ``S`` and useful data ``X`` with a known joint ``P_SX`` (an
``n_s x n_x`` array); a mechanism publishes ``Y`` through a channel ``C[x, y] = P(y | x)``
(rows = inputs, the book's convention), so that ``S - X - Y`` is a Markov chain and

.. math:: P_{SY} = P_{SX} C .

Everything here is computed exactly from distributions: there are no sampled users.

Units: lifts are ratios (no unit). *Log*-lifts, the leakages ``log max Lambda`` and
``|log min Psi|`` and the budgets ``epsilon`` are in **nats** (natural logarithms), as in the
paper. Information measures (``I(S;Y)``, Sibson and Arimoto MI) take an explicit ``unit``
keyword (``"nats"`` to compare with the budgets); the normalised mutual information is unitless.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
import numpy as np
from scipy.special import logsumexp
from ldpnb.measures.information import entropy, mutual_information, mutual_information_joint
from ldpnb.utils import check_channel, check_epsilon, check_nonnegative_matrix, check_random_state

__all__ = [
    "random_joint",
    "check_joint",
    "alip_budgets",
    "output_joint",
    "posterior",
    "lift_matrix",
    "min_lift",
    "max_lift",
    "ldp_ratio",
    "set_lift",
    "leakages",
    "is_alip",
    "is_lip",
    "is_ldp_wrt_s",
    "l1_lift",
    "chi2_lift",
    "alpha_lift",
    "l1_lift_inverse",
    "chi2_lift_inverse",
    "alpha_lift_inverse",
    "lift_measure",
    "mutual_information_sy",
    "total_variation_dependence",
    "chi2_dependence",
    "sibson_mi",
    "arimoto_mi",
    "nmi",
    "Criterion",
    "ALIP",
    "LIP",
    "LDPwrtS",
    "LiftMeasurePrivacy",
    "evaluate_mechanism",
]


_UNITS = {"nats": 1.0, "bits": 1.0 / np.log(2.0)}


def _unit_factor(unit: str) -> float:
    if unit not in _UNITS:
        raise ValueError(f"unit must be 'bits' or 'nats', got {unit!r}")
    return _UNITS[unit]


# --------------------------------------------------------------------------------------------
# distributions
# --------------------------------------------------------------------------------------------


def check_joint(joint: Any, name: str = "joint", atol: float = 1e-9) -> np.ndarray:
    """Validate a joint distribution matrix (2-D, non-negative, finite, sums to 1).

    Raises ``ValueError`` naming ``name`` when a rule is broken.
    """
    a = check_nonnegative_matrix(joint, name)
    total = a.sum()
    if abs(total - 1.0) > atol:
        raise ValueError(f"{name} must sum to 1 (sums to {total:.12g})")
    return a


def _check_full_support(p_sx: np.ndarray, name: str = "p_sx") -> None:
    if np.any(p_sx.sum(axis=1) <= 0):
        raise ValueError(f"{name}: P_S must have full support (a row sums to 0)")
    if np.any(p_sx.sum(axis=0) <= 0):
        raise ValueError(f"{name}: P_X must have full support (a column sums to 0)")


def random_joint(
    n_s: int,
    n_x: int,
    *,
    rng: Any = None,
    kind: str = "uniform",
    concentration: float = 1.0,
    size: int | None = None,
) -> np.ndarray:
    """Random joint distribution ``P_SX`` (spec A0, the paper's "randomly generated distributions").

    ``kind="uniform"``: ``P_SX(s, x) = U_{s,x} / sum U`` with ``U_{s,x}`` iid Uniform(0, 1)
    (MATLAB ``rand(nS, nX)`` normalised; the reading that reproduces the paper's numbers, spec
    Sec. 2.7). ``kind="dirichlet"``: one Dirichlet(``concentration`` * 1) draw over all cells
    (extreme lifts for small concentration; used by the tests).

    Parameters
    ----------
    n_s, n_x : int
        Alphabet sizes ``|S|`` and ``|X|`` (>= 2 each).
    rng : Generator | int | None
    size : int, optional
        If given, return ``size`` independent matrices as an array of shape ``(size, n_s, n_x)``.
    """
    if int(n_s) != n_s or n_s < 2 or int(n_x) != n_x or n_x < 2:
        raise ValueError(f"n_s and n_x must be integers >= 2, got {n_s}, {n_x}")
    rng = check_random_state(rng)
    shape = (n_s, n_x) if size is None else (int(size), n_s, n_x)
    if kind == "uniform":
        u = rng.random(shape)
        u = np.where(u == 0.0, np.finfo(float).tiny, u)  # keep full support
    elif kind == "dirichlet":
        if not concentration > 0:
            raise ValueError(f"concentration must be > 0, got {concentration}")
        u = rng.gamma(concentration, size=shape)
        u = np.maximum(u, np.finfo(float).tiny)
    else:
        raise ValueError(f"kind must be 'uniform' or 'dirichlet', got {kind!r}")
    return u / u.sum(axis=(-2, -1), keepdims=True)


def alip_budgets(epsilon: float, lam: float) -> tuple[float, float]:
    """The paper's lambda-parametrisation: ``eps_l = lam * eps``, ``eps_u = (1 - lam) * eps``.

    ``eps_l + eps_u = eps`` (the LDP budget, Prop. 1.4); ``lam = 0.5`` is (eps/2)-LIP.
    """
    epsilon = check_epsilon(epsilon, "epsilon")
    if not 0 < lam < 1:
        raise ValueError(f"lam must lie in (0, 1), got {lam}")
    return lam * epsilon, (1.0 - lam) * epsilon


def output_joint(p_sx: Any, channel: Any) -> np.ndarray:
    """``P_SY = P_SX C`` for a channel ``C[x, y] = P(y|x)`` (Markov chain S - X - Y)."""
    p_sx = check_joint(p_sx, "p_sx")
    c = check_channel(channel, "channel")
    if c.shape[0] != p_sx.shape[1]:
        raise ValueError(f"channel has {c.shape[0]} rows but p_sx has {p_sx.shape[1]} columns")
    return p_sx @ c


# --------------------------------------------------------------------------------------------
# lifts
# --------------------------------------------------------------------------------------------


def _lifts(joint: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(L, p_s, p_y) with outputs of zero probability dropped (no validation)."""
    p_s = joint.sum(axis=1)
    p_y = joint.sum(axis=0)
    keep = p_y > 0
    j = joint[:, keep]
    p_y = p_y[keep]
    with np.errstate(divide="ignore", invalid="ignore"):
        L = j / (p_s[:, None] * p_y[None, :])
    return L, p_s, p_y


def posterior(joint: Any) -> np.ndarray:
    """Posterior ``P_{S|Y}(s|y) = P_SY(s, y) / P_Y(y)`` (columns of positive-probability outputs)."""
    joint = check_joint(joint)
    p_y = joint.sum(axis=0)
    return joint[:, p_y > 0] / p_y[p_y > 0]


def lift_matrix(joint: Any) -> np.ndarray:
    """Lift ``l(s, y) = P_SY(s, y) / (P_S(s) P_Y(y)) = P_{S|Y}(s|y) / P_S(s)`` (eq. 1).

    Outputs ``y`` with ``P_Y(y) = 0`` are dropped (they are never published). ``P_S`` must have
    full support. Returns an ``n_s x n_y'`` array.
    """
    joint = check_joint(joint)
    if np.any(joint.sum(axis=1) <= 0):
        raise ValueError("joint: P_S must have full support")
    return _lifts(joint)[0]


def min_lift(joint: Any) -> np.ndarray:
    """Min-lift ``Psi(y) = min_s l(s, y)`` (eq. 2); always ``Psi(y) <= 1``."""
    return lift_matrix(joint).min(axis=0)


def max_lift(joint: Any) -> np.ndarray:
    """Max-lift ``Lambda(y) = max_s l(s, y)`` (eq. 2); always ``Lambda(y) >= 1``."""
    return lift_matrix(joint).max(axis=0)


def ldp_ratio(joint: Any) -> np.ndarray:
    """``Gamma(y) = max_{s,s'} P_{Y|S}(y|s) / P_{Y|S}(y|s') = Lambda(y) / Psi(y)`` (eq. 4).

    This is the LDP ratio *with respect to S* (context-aware LDP), not LDP on X.
    """
    L = lift_matrix(joint)
    with np.errstate(divide="ignore"):
        return L.max(axis=0) / L.min(axis=0)


def set_lift(p_sx: Any, subset: Any) -> np.ndarray:
    """Lift of the super-symbol obtained by merging ``A = subset`` of X (spec Sec. 2.1).

    ``l(s, A) = sum_{x in A} P_SX(s, x) / (P_S(s) P(A)) = P(A|s) / P(A)``.
    """
    p_sx = check_joint(p_sx, "p_sx")
    idx = np.asarray(subset, dtype=int).ravel()
    if idx.size == 0:
        raise ValueError("subset must be non-empty")
    if idx.min() < 0 or idx.max() >= p_sx.shape[1] or np.unique(idx).size != idx.size:
        raise ValueError("subset must hold distinct indices of X")
    col = p_sx[:, idx].sum(axis=1)
    p_s = p_sx.sum(axis=1)
    return col / (p_s * col.sum())


@dataclass(frozen=True)
class Leakages:
    """Realised leakages of a mechanism, all in nats (spec Sec. 2.6)."""

    max_lift_leak: float  #: log max_y Lambda(y)  (tight eps_u)
    min_lift_leak: float  #: |log min_y Psi(y)|   (tight eps_l)
    ldp_leak: float  #: max_y log Gamma(y)    (tight LDP epsilon w.r.t. S)


def leakages(joint: Any) -> Leakages:
    """Max-lift, min-lift and LDP leakages of ``P_SY`` in nats (Defs. 1-3).

    ``max_lift_leak = log max_y Lambda(y)``, ``min_lift_leak = -log min_y Psi(y)``,
    ``ldp_leak = max_y log(Lambda(y)/Psi(y))``. These are the smallest budgets for which the
    mechanism is ALIP / LDP w.r.t. S.
    """
    L = lift_matrix(joint)
    with np.errstate(divide="ignore"):
        logL = np.log(L)
    return Leakages(
        max_lift_leak=float(logL.max()),
        min_lift_leak=float(-logL.min()),
        ldp_leak=float((logL.max(axis=0) - logL.min(axis=0)).max()),
    )


def is_alip(joint: Any, eps_l: float, eps_u: float, *, rtol: float = 1e-9) -> bool:
    """(eps_l, eps_u)-ALIP (Def. 3, eq. 5): ``e^{-eps_l} <= Psi(y)`` and ``Lambda(y) <= e^{eps_u}``.

    Comparisons carry a relative tolerance ``rtol`` so that binding optimal mechanisms pass.
    """
    eps_l, eps_u = _check_budget(eps_l, "eps_l"), _check_budget(eps_u, "eps_u")
    L = lift_matrix(joint)
    return bool(L.max() <= np.exp(eps_u) * (1 + rtol) and L.min() >= np.exp(-eps_l) * (1 - rtol))


def is_lip(joint: Any, epsilon: float, *, rtol: float = 1e-9) -> bool:
    """epsilon-LIP (Def. 1, eq. 3) = (epsilon, epsilon)-ALIP."""
    epsilon = _check_budget(epsilon, "epsilon")
    return is_alip(joint, epsilon, epsilon, rtol=rtol)


def is_ldp_wrt_s(joint: Any, epsilon: float, *, rtol: float = 1e-9) -> bool:
    """epsilon-LDP with respect to S (Def. 2): ``Gamma(y) <= e^epsilon`` for every y."""
    epsilon = _check_budget(epsilon, "epsilon")
    return bool(np.max(ldp_ratio(joint)) <= np.exp(epsilon) * (1 + rtol))


# --------------------------------------------------------------------------------------------
# lift-based (Def. 5) and lift-inverse (Def. 6) measures
# --------------------------------------------------------------------------------------------

_KINDS = ("l1", "chi2", "alpha")


def _measure(L: np.ndarray, p_s: np.ndarray, kind: str, inverse: bool, alpha: float | None) -> np.ndarray:
    """Per-column lift-based / lift-inverse measure of lift columns ``L`` (n_s x m)."""
    if kind == "l1":
        t = 1.0 / L if inverse else L
        return p_s @ np.abs(t - 1.0)
    if kind == "chi2":
        t = 1.0 / L if inverse else L
        return p_s @ (t - 1.0) ** 2
    if kind == "alpha":
        if alpha is None or not (np.isfinite(alpha) and alpha > 0):
            raise ValueError(f"alpha must be finite and > 0 for the alpha-lift, got {alpha}")
        sign = -1.0 if inverse else 1.0
        with np.errstate(divide="ignore"):
            log_w = np.log(p_s)
        return _alpha_measure_log(log_w, L, alpha, sign)
    raise ValueError(f"kind must be one of {_KINDS}, got {kind!r}")


def _alpha_measure_log(log_w: np.ndarray, L: np.ndarray, alpha: float, sign: float = 1.0) -> np.ndarray:
    """``(sum_s w_s l(s,y)^{sign alpha})^{1/alpha}`` per column, from the log weights ``log w_s``.

    Everything in the log domain: ``l^-100`` overflows at ``l ~ e^-12``, and a weight such as an
    escort ``P_S^alpha / sum P_S^alpha`` underflows at large ``alpha`` although its product with
    ``l^alpha`` does not.
    """
    with np.errstate(divide="ignore"):
        z = log_w[:, None] + sign * alpha * np.log(L)
    zmax = z.max(axis=0)
    if not np.all(np.isfinite(zmax)):
        return np.exp(logsumexp(z, axis=0) / alpha)
    return np.exp((zmax + np.log(np.exp(z - zmax).sum(axis=0))) / alpha)


def lift_measure(joint: Any, kind: str, *, inverse: bool = False, alpha: float | None = None) -> np.ndarray:
    """Per-output lift-based (eqs. 27-29) or lift-inverse (eqs. 30-32) measure.

    ``kind="l1"``: ``sum_s P_S(s) |t(s,y) - 1|``; ``"chi2"``: ``sum_s P_S(s) (t(s,y) - 1)^2``;
    ``"alpha"``: ``(sum_s P_S(s) l(s,y)^{+-alpha})^{1/alpha}``; with ``t = l`` (lift-based) or
    ``t = 1/l`` (lift-inverse, ``inverse=True``). The alpha-measures are computed with logsumexp.
    """
    joint = check_joint(joint)
    L, p_s, _ = _lifts(joint)
    return _measure(L, p_s, kind, inverse, alpha)


def l1_lift(joint: Any) -> np.ndarray:
    """ell_1-lift ``Lambda_l1(y) = sum_s P_S(s) |l(s,y) - 1|`` (eq. 27)."""
    return lift_measure(joint, "l1")


def chi2_lift(joint: Any) -> np.ndarray:
    """chi^2-lift ``Lambda_chi2(y) = sum_s P_S(s) (l(s,y) - 1)^2`` (eq. 28)."""
    return lift_measure(joint, "chi2")


def alpha_lift(joint: Any, alpha: float) -> np.ndarray:
    """alpha-lift ``Lambda^S_alpha(y) = (sum_s P_S(s) l(s,y)^alpha)^{1/alpha}`` (eq. 29)."""
    return lift_measure(joint, "alpha", alpha=alpha)


def l1_lift_inverse(joint: Any) -> np.ndarray:
    """ell_1-lift-inverse ``Psi_l1(y) = sum_s P_S(s) |1/l(s,y) - 1|`` (eq. 30)."""
    return lift_measure(joint, "l1", inverse=True)


def chi2_lift_inverse(joint: Any) -> np.ndarray:
    """chi^2-lift-inverse ``Psi_chi2(y) = sum_s P_S(s) (1/l(s,y) - 1)^2`` (eq. 31)."""
    return lift_measure(joint, "chi2", inverse=True)


def alpha_lift_inverse(joint: Any, alpha: float) -> np.ndarray:
    """alpha-lift-inverse ``Psi^S_alpha(y) = (sum_s P_S(s) l(s,y)^{-alpha})^{1/alpha}`` (eq. 32)."""
    return lift_measure(joint, "alpha", inverse=True, alpha=alpha)


# --------------------------------------------------------------------------------------------
# average leakage measures (Prop. 1)
# --------------------------------------------------------------------------------------------


def mutual_information_sy(joint: Any, *, unit: str) -> float:
    """``I(S;Y) = sum_{s,y} P_SY log l(s,y)`` (delegates to :func:`ldpnb.info.mutual_information_joint`)."""
    return float(mutual_information_joint(check_joint(joint), unit=unit))


def total_variation_dependence(joint: Any) -> float:
    """``T(S;Y) = 1/2 sum_{s,y} |P_SY - P_S P_Y| = 1/2 E_Y[Lambda_l1(Y)]`` (Prop. 1.2)."""
    joint = check_joint(joint)
    return 0.5 * float(np.abs(joint - np.outer(joint.sum(1), joint.sum(0))).sum())


def chi2_dependence(joint: Any) -> float:
    """``chi^2(S;Y) = sum_{s,y} (P_SY - P_S P_Y)^2 / (P_S P_Y) = E_Y[Lambda_chi2(Y)]`` (Prop. 1.2)."""
    joint = check_joint(joint)
    L, p_s, p_y = _lifts(joint)
    return float(p_y @ _measure(L, p_s, "chi2", False, None))


def sibson_mi(joint: Any, alpha: float, *, unit: str) -> float:
    """Sibson MI of order alpha (> 0, != 1), spec Sec. 2.3:

    ``I^S_alpha = alpha/(alpha-1) log sum_y P_Y(y) (sum_s P_S(s) l(s,y)^alpha)^{1/alpha}``.
    """
    if not (np.isfinite(alpha) and alpha > 0 and alpha != 1):
        raise ValueError(f"alpha must be finite, > 0 and != 1, got {alpha}")
    joint = check_joint(joint)
    L, p_s, p_y = _lifts(joint)
    m = _measure(L, p_s, "alpha", False, alpha)
    return float(alpha / (alpha - 1) * np.log(p_y @ m)) * _unit_factor(unit)


def arimoto_mi(joint: Any, alpha: float, *, unit: str) -> float:
    """Arimoto MI of order alpha (> 0, != 1), spec Sec. 2.3: Sibson's formula with ``P_S``
    replaced by the escort ``P_S^alpha / sum P_S^alpha`` inside the inner sum."""
    if not (np.isfinite(alpha) and alpha > 0 and alpha != 1):
        raise ValueError(f"alpha must be finite, > 0 and != 1, got {alpha}")
    joint = check_joint(joint)
    L, p_s, p_y = _lifts(joint)
    # log escort: alpha log P_S - logsumexp(alpha log P_S) (p_s**alpha underflows to 0/0 at large alpha)
    with np.errstate(divide="ignore"):
        a_log_ps = alpha * np.log(p_s)
    log_esc = a_log_ps - logsumexp(a_log_ps)
    m = _alpha_measure_log(log_esc, L, alpha)
    return float(alpha / (alpha - 1) * np.log(p_y @ m)) * _unit_factor(unit)


def nmi(p_x: Any, channel: Any) -> float:
    """Normalised mutual information ``I(X;Y) / H(X)`` (the paper's utility; base-free).

    Uses :func:`ldpnb.info.mutual_information` and :func:`ldpnb.info.entropy`.
    """
    return float(mutual_information(p_x, channel, unit="nats") / entropy(p_x, unit="nats"))


# --------------------------------------------------------------------------------------------
# privacy criteria (used by the watchdog, Algorithm 1 and the experiments)
# --------------------------------------------------------------------------------------------


class Criterion:
    """A symbol-wise privacy criterion on lift columns.

    ``violated(L, p_s)`` and ``risk(L, p_s)`` take a lift matrix ``L`` (n_s x m, one column per
    symbol or merged block) and return one boolean / one risk score ``omega`` per column.
    Comparisons use a relative tolerance ``rtol`` (default 1e-12, spec Sec. 8 item 7).
    """

    rtol: float = 1e-12
    name: str = "criterion"

    def violated(self, L: np.ndarray, p_s: np.ndarray) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def risk(self, L: np.ndarray, p_s: np.ndarray) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError


def _check_budget(x: float, name: str) -> float:
    """A privacy budget: finite and > 0 (ValueError naming ``name``)."""
    return check_epsilon(x, name)


class ALIP(Criterion):
    """(eps_l, eps_u)-ALIP (Def. 3): violated iff ``Psi < e^{-eps_l}`` or ``Lambda > e^{eps_u}`` (eq. 6).

    ``risk="inverse"`` (default, spec erratum 8.1): ``omega = Lambda + 1/Psi``, a risk score that
    grows with both leakages. ``risk="printed"``: the paper's ``omega = Lambda + Psi``, which
    rewards a small min-lift (kept to show its effect).
    """

    def __init__(self, eps_l: float, eps_u: float, *, risk: str = "inverse", rtol: float = 1e-12):
        self.eps_l = _check_budget(eps_l, "eps_l")
        self.eps_u = _check_budget(eps_u, "eps_u")
        if risk not in ("inverse", "printed"):
            raise ValueError(f"risk must be 'inverse' or 'printed', got {risk!r}")
        self.risk_kind = risk
        self.rtol = rtol
        self.name = f"ALIP({self.eps_l:g}, {self.eps_u:g})"

    def violated(self, L, p_s):
        return (L.min(axis=0) < np.exp(-self.eps_l) * (1 - self.rtol)) | (
            L.max(axis=0) > np.exp(self.eps_u) * (1 + self.rtol)
        )

    def risk(self, L, p_s):
        with np.errstate(divide="ignore"):
            if self.risk_kind == "inverse":
                return L.max(axis=0) + 1.0 / L.min(axis=0)
            return L.max(axis=0) + L.min(axis=0)


class LIP(Criterion):
    """epsilon-LIP (Def. 1); ``omega = max(log Lambda, |log Psi|)`` (Sec. IV-A)."""

    def __init__(self, epsilon: float, *, rtol: float = 1e-12):
        self.epsilon = _check_budget(epsilon, "epsilon")
        self.rtol = rtol
        self.name = f"LIP({self.epsilon:g})"

    def violated(self, L, p_s):
        return ALIP(self.epsilon, self.epsilon, rtol=self.rtol).violated(L, p_s)

    def risk(self, L, p_s):
        with np.errstate(divide="ignore"):
            return np.maximum(np.log(L.max(axis=0)), -np.log(L.min(axis=0)))


class LDPwrtS(Criterion):
    """epsilon-LDP w.r.t. S (Def. 2): violated iff ``Gamma > e^epsilon`` (eq. 7); ``omega = Gamma``."""

    def __init__(self, epsilon: float, *, rtol: float = 1e-12):
        self.epsilon = _check_budget(epsilon, "epsilon")
        self.rtol = rtol
        self.name = f"LDP({self.epsilon:g})"

    def violated(self, L, p_s):
        return self.risk(L, p_s) > np.exp(self.epsilon) * (1 + self.rtol)

    def risk(self, L, p_s):
        with np.errstate(divide="ignore"):
            return L.max(axis=0) / L.min(axis=0)


class LiftMeasurePrivacy(Criterion):
    """Lift-based + lift-inverse privacy (Sec. VI-B, eq. 33).

    Violated iff ``Lambda_m > b_u`` or ``Psi_m > b_l`` with, for ``kind``:
    ``"l1"``: ``b_u = e^{eps_u} - 1``, ``b_l = e^{eps_l} - 1``;
    ``"chi2"``: ``b_u = (e^{eps_u} - 1)^2``, ``b_l = (e^{eps_l} - 1)^2``;
    ``"alpha"``: ``b_u = e^{eps_u}``, ``b_l = e^{eps_l}``.
    Risk ``omega = Lambda_m + Psi_m`` (stated for alpha in the paper; same form for l1, chi2).
    """

    def __init__(self, kind: str, eps_l: float, eps_u: float, *, alpha: float | None = None, rtol: float = 1e-12):
        if kind not in _KINDS:
            raise ValueError(f"kind must be one of {_KINDS}, got {kind!r}")
        if kind == "alpha" and (alpha is None or not (np.isfinite(alpha) and alpha > 1)):
            raise ValueError(f"alpha must be > 1 for the alpha-lift criterion, got {alpha}")
        self.kind, self.alpha, self.rtol = kind, alpha, rtol
        self.eps_l = _check_budget(eps_l, "eps_l")
        self.eps_u = _check_budget(eps_u, "eps_u")
        if kind == "l1":
            self.b_u, self.b_l = np.expm1(self.eps_u), np.expm1(self.eps_l)
        elif kind == "chi2":
            self.b_u, self.b_l = np.expm1(self.eps_u) ** 2, np.expm1(self.eps_l) ** 2
        else:
            self.b_u, self.b_l = np.exp(self.eps_u), np.exp(self.eps_l)
        self.name = f"{kind}{'' if alpha is None else f'(alpha={alpha:g})'}({self.eps_l:g}, {self.eps_u:g})"

    def violated(self, L, p_s):
        up = _measure(L, p_s, self.kind, False, self.alpha)
        lo = _measure(L, p_s, self.kind, True, self.alpha)
        return (up > self.b_u * (1 + self.rtol)) | (lo > self.b_l * (1 + self.rtol))

    def risk(self, L, p_s):
        return _measure(L, p_s, self.kind, False, self.alpha) + _measure(L, p_s, self.kind, True, self.alpha)


# --------------------------------------------------------------------------------------------
# evaluation of a mechanism (spec A1)
# --------------------------------------------------------------------------------------------


def evaluate_mechanism(p_sx: Any, channel: Any) -> dict[str, float]:
    """Utility and leakages of a channel on ``P_SX`` (spec A1).

    Returns ``nmi`` (``I(X;Y)/H(X)``) and the leakages of :func:`leakages` in nats:
    ``max_lift_leak``, ``min_lift_leak``, ``ldp_leak`` (over all outputs of positive probability).
    """
    p_sx = check_joint(p_sx, "p_sx")
    p_sy = output_joint(p_sx, channel)
    lk = leakages(p_sy)
    return {
        "nmi": nmi(p_sx.sum(axis=0), channel),
        "max_lift_leak": lk.max_lift_leak,
        "min_lift_leak": lk.min_lift_leak,
        "ldp_leak": lk.ldp_leak,
    }
