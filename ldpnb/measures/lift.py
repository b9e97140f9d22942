"""The lift and the privacy notions built on it (Zarrabian, Ding & Sadeghi).

Reference: M. A. Zarrabian, N. Ding, P. Sadeghi, "On the Lift, Related Privacy Measures, and
Applications to Privacy-Utility Tradeoffs" (journal version of the ICASSP 2022 / ITW papers).
Equation, definition and proposition numbers below refer to that paper.

Setting: a sensitive feature ``S`` and useful data ``X`` with a known joint ``P_SX`` (an
``n_s x n_x`` array); a mechanism publishes ``Y`` through a channel ``C[x, y] = P(y | x)``
(rows = inputs, the book's convention), so that ``S - X - Y`` is a Markov chain and

.. math:: P_{SY} = P_{SX} C .

Everything here is computed exactly from distributions: there are no sampled users.

Batches: the criteria (:class:`ALIP`, :class:`LIP`, :class:`LDPwrtS`, :class:`LiftMeasurePrivacy`,
:class:`LiftBased`) accept lift arrays with leading batch dimensions, ``L[..., s, m]`` with
``p_s[..., s]``, so that the watchdog can be run on many distributions at once.

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

from ldpnb.contracts import (
    EPSILON,
    MAX_DENSE,
    MAX_ENTRIES,
    NONNEGATIVE,
    POSITIVE,
    SEED,
    Array,
    Boolean,
    Channel,
    Distribution,
    Integer,
    NonnegativeMatrix,
    OneOf,
    Optional,
    Real,
    contract,
)
from ldpnb.measures.information import entropy, mutual_information, mutual_information_joint
from ldpnb.utils import check_nonnegative_matrix, check_random_state

_JOINT = NonnegativeMatrix()
_BUDGET = EPSILON
_UNIT = OneOf("nats", "bits")
_ALPHA = POSITIVE

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
    "LiftBased",
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


@contract(joint=_JOINT, atol=NONNEGATIVE)
def check_joint(joint: Any, name: str = "joint", atol: float = 1e-9) -> np.ndarray:
    """Validate a joint distribution matrix (2-D, non-negative, finite, sums to 1).

    Raises ``ValueError`` naming ``name`` when a rule is broken.
    """
    return _check_joint(joint, name, atol)


def _check_joint(joint: Any, name: str = "joint", atol: float = 1e-9) -> np.ndarray:
    """:func:`check_joint` without the contract (internal callers name their own argument)."""
    a = check_nonnegative_matrix(joint, name)
    total = a.sum()
    if abs(total - 1.0) > atol:
        raise ValueError(f"{name} must sum to 1 (sums to {total:.12g})")
    return a


@contract(
    n_s=Integer(2, MAX_DENSE),
    n_x=Integer(2, MAX_DENSE),
    rng=SEED,
    kind=OneOf("uniform", "dirichlet"),
    concentration=POSITIVE,
    size=Optional(Integer(1, MAX_ENTRIES)),
)
def random_joint(
    n_s: int,
    n_x: int,
    *,
    rng: Any = None,
    kind: str = "uniform",
    concentration: float = 1.0,
    size: int | None = None,
) -> np.ndarray:
    """Random joint distribution ``P_SX`` (the paper's "randomly generated distributions", Sec. III).

    ``kind="uniform"``: ``P_SX(s, x) = U_{s,x} / sum U`` with ``U_{s,x}`` iid Uniform(0, 1)
    (MATLAB ``rand(nS, nX)`` normalised). The paper does not state its generator; this reading
    reproduces the numbers it prints in Secs. III-A3 and IV-B (0.52, 0.94, 0.83).
    ``kind="dirichlet"``: one Dirichlet(``concentration`` * 1) draw over all cells (extreme lifts
    for small concentration; used by the tests).

    Parameters
    ----------
    n_s, n_x : int
        Alphabet sizes ``|S|`` and ``|X|`` (>= 2 each).
    rng : Generator | int | None
    size : int, optional
        If given, return ``size`` independent matrices as an array of shape ``(size, n_s, n_x)``.
    """
    if n_s * n_x * (1 if size is None else size) > MAX_ENTRIES:
        raise ValueError(f"size * n_s * n_x must be at most {MAX_ENTRIES} entries, got {n_s * n_x * (size or 1)}")
    rng = check_random_state(rng)
    shape = (n_s, n_x) if size is None else (int(size), n_s, n_x)
    if kind == "uniform":
        u = rng.random(shape)
        u = np.where(u == 0.0, np.finfo(float).tiny, u)  # keep full support
    else:
        u = rng.gamma(concentration, size=shape)
        u = np.maximum(u, np.finfo(float).tiny)
    return u / u.sum(axis=(-2, -1), keepdims=True)


@contract(epsilon=_BUDGET, lam=Real(0, 1, low_open=True, high_open=True))
def alip_budgets(epsilon: float, lam: float) -> tuple[float, float]:
    """The paper's lambda-parametrisation: ``eps_l = lam * eps``, ``eps_u = (1 - lam) * eps``.

    ``eps_l + eps_u = eps`` (the LDP budget, Prop. 1.4); ``lam = 0.5`` is (eps/2)-LIP.
    """
    return lam * epsilon, (1.0 - lam) * epsilon


@contract(p_sx=_JOINT, channel=Channel())
def output_joint(p_sx: Any, channel: Any) -> np.ndarray:
    """``P_SY = P_SX C`` for a channel ``C[x, y] = P(y|x)`` (Markov chain S - X - Y, Sec. II)."""
    p_sx = _check_joint(p_sx, "p_sx")
    c = channel  # checked by the contract
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


@contract(joint=_JOINT)
def posterior(joint: Any) -> np.ndarray:
    """Posterior ``P_{S|Y}(s|y) = P_SY(s, y) / P_Y(y)`` (columns of positive-probability outputs)."""
    joint = _check_joint(joint)
    p_y = joint.sum(axis=0)
    return joint[:, p_y > 0] / p_y[p_y > 0]


@contract(joint=_JOINT)
def lift_matrix(joint: Any) -> np.ndarray:
    """Lift ``l(s, y) = P_SY(s, y) / (P_S(s) P_Y(y)) = P_{S|Y}(s|y) / P_S(s)`` (eq. 1).

    Outputs ``y`` with ``P_Y(y) = 0`` are dropped (they are never published). ``P_S`` must have
    full support. Returns an ``n_s x n_y'`` array.
    """
    return _lift_matrix(joint)


def _lift_matrix(joint: Any) -> np.ndarray:
    joint = _check_joint(joint)
    if np.any(joint.sum(axis=1) <= 0):
        raise ValueError("joint: P_S must have full support")
    return _lifts(joint)[0]


@contract(joint=_JOINT)
def min_lift(joint: Any) -> np.ndarray:
    """Min-lift ``Psi(y) = min_s l(s, y)`` (eq. 2); always ``Psi(y) <= 1``."""
    return _lift_matrix(joint).min(axis=0)


@contract(joint=_JOINT)
def max_lift(joint: Any) -> np.ndarray:
    """Max-lift ``Lambda(y) = max_s l(s, y)`` (eq. 2); always ``Lambda(y) >= 1``."""
    return _lift_matrix(joint).max(axis=0)


@contract(joint=_JOINT)
def ldp_ratio(joint: Any) -> np.ndarray:
    """``Gamma(y) = max_{s,s'} P_{Y|S}(y|s) / P_{Y|S}(y|s') = Lambda(y) / Psi(y)`` (eq. 4).

    This is the LDP ratio *with respect to S* (context-aware LDP), not LDP on X.
    """
    return _ldp_ratio(joint)


def _ldp_ratio(joint: Any) -> np.ndarray:
    L = _lift_matrix(joint)
    with np.errstate(divide="ignore"):
        return L.max(axis=0) / L.min(axis=0)


@contract(p_sx=_JOINT, subset=Array(1, low=0, integer=True))
def set_lift(p_sx: Any, subset: Any) -> np.ndarray:
    """Lift of the super-symbol obtained by merging ``A = subset`` of X (Sec. III, eq. 9).

    ``l(s, A) = sum_{x in A} P_SX(s, x) / (P_S(s) P(A)) = P(A|s) / P(A)``: the ``P_X``-weighted
    average of the lifts ``l(s, x)``, ``x in A``.
    """
    p_sx = _check_joint(p_sx, "p_sx")
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
    """Realised leakages of a mechanism, all in nats (the quantities on the y-axes of Figs. 2-8)."""

    max_lift_leak: float  #: log max_y Lambda(y)  (tight eps_u)
    min_lift_leak: float  #: |log min_y Psi(y)|   (tight eps_l)
    ldp_leak: float  #: max_y log Gamma(y)    (tight LDP epsilon w.r.t. S)


@contract(joint=_JOINT)
def leakages(joint: Any) -> Leakages:
    """Max-lift, min-lift and LDP leakages of ``P_SY`` in nats (Defs. 1-3).

    ``max_lift_leak = log max_y Lambda(y)``, ``min_lift_leak = -log min_y Psi(y)``,
    ``ldp_leak = max_y log(Lambda(y)/Psi(y))``. These are the smallest budgets for which the
    mechanism is ALIP / LDP w.r.t. S.
    """
    L = _lift_matrix(joint)
    with np.errstate(divide="ignore"):
        logL = np.log(L)
    return Leakages(
        max_lift_leak=float(logL.max()),
        min_lift_leak=float(-logL.min()),
        ldp_leak=float((logL.max(axis=0) - logL.min(axis=0)).max()),
    )


@contract(joint=_JOINT, eps_l=_BUDGET, eps_u=_BUDGET, rtol=Real(0, 1))
def is_alip(joint: Any, eps_l: float, eps_u: float, *, rtol: float = 1e-9) -> bool:
    """(eps_l, eps_u)-ALIP (Def. 3, eq. 5): ``e^{-eps_l} <= Psi(y)`` and ``Lambda(y) <= e^{eps_u}``.

    Comparisons carry a relative tolerance ``rtol`` so that binding optimal mechanisms pass.
    """
    return _is_alip(joint, eps_l, eps_u, rtol)


def _is_alip(joint: Any, eps_l: float, eps_u: float, rtol: float) -> bool:
    L = _lift_matrix(joint)
    return bool(L.max() <= np.exp(eps_u) * (1 + rtol) and L.min() >= np.exp(-eps_l) * (1 - rtol))


@contract(joint=_JOINT, epsilon=_BUDGET, rtol=Real(0, 1))
def is_lip(joint: Any, epsilon: float, *, rtol: float = 1e-9) -> bool:
    """epsilon-LIP (Def. 1, eq. 3) = (epsilon, epsilon)-ALIP."""
    return _is_alip(joint, epsilon, epsilon, rtol)


@contract(joint=_JOINT, epsilon=_BUDGET, rtol=Real(0, 1))
def is_ldp_wrt_s(joint: Any, epsilon: float, *, rtol: float = 1e-9) -> bool:
    """epsilon-LDP with respect to S (Def. 2): ``Gamma(y) <= e^epsilon`` for every y."""
    return bool(np.max(_ldp_ratio(joint)) <= np.exp(epsilon) * (1 + rtol))


# --------------------------------------------------------------------------------------------
# lift-based (Def. 5) and lift-inverse (Def. 6) measures
# --------------------------------------------------------------------------------------------

_KINDS = ("l1", "chi2", "alpha")


def _wsum(p_s: np.ndarray, T: np.ndarray) -> np.ndarray:
    """``sum_s p_s(s) T(s, m)`` over the s axis (-2), for ``T[..., s, m]`` and ``p_s[..., s]``.

    Written as a product and a sum over axis -2 (not ``p_s @ T``) so that one distribution and a
    batch give bit-identical numbers (the rows are added in the same order).
    """
    return (p_s[..., :, None] * T).sum(axis=-2)


def _measure(L: np.ndarray, p_s: np.ndarray, kind: str, inverse: bool, alpha: float | None) -> np.ndarray:
    """Per-column lift-based / lift-inverse measure of lift columns ``L[..., s, m]`` (eqs. 27-32)."""
    if kind in ("l1", "chi2"):
        with np.errstate(divide="ignore"):
            t = 1.0 / L if inverse else L
        return _wsum(p_s, np.abs(t - 1.0) if kind == "l1" else (t - 1.0) ** 2)
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
    ``l^alpha`` does not. ``L[..., s, m]``, ``log_w[..., s]``.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        z = log_w[..., :, None] + sign * alpha * np.log(L)
    zmax = z.max(axis=-2)
    if not np.all(np.isfinite(zmax)):
        return np.exp(logsumexp(z, axis=-2) / alpha)
    return np.exp((zmax + np.log(np.exp(z - zmax[..., None, :]).sum(axis=-2))) / alpha)


@contract(joint=_JOINT, kind=OneOf(*_KINDS), inverse=Boolean(), alpha=Optional(_ALPHA))
def lift_measure(joint: Any, kind: str, *, inverse: bool = False, alpha: float | None = None) -> np.ndarray:
    """Per-output lift-based (eqs. 27-29) or lift-inverse (eqs. 30-32) measure.

    ``kind="l1"``: ``sum_s P_S(s) |t(s,y) - 1|``; ``"chi2"``: ``sum_s P_S(s) (t(s,y) - 1)^2``;
    ``"alpha"``: ``(sum_s P_S(s) l(s,y)^{+-alpha})^{1/alpha}``; with ``t = l`` (lift-based) or
    ``t = 1/l`` (lift-inverse, ``inverse=True``). The alpha-measures are computed with logsumexp.
    """
    return _lift_measure(joint, kind, inverse, alpha)


def _lift_measure(joint: Any, kind: str, inverse: bool = False, alpha: float | None = None) -> np.ndarray:
    joint = _check_joint(joint)
    L, p_s, _ = _lifts(joint)
    return _measure(L, p_s, kind, inverse, alpha)


@contract(joint=_JOINT)
def l1_lift(joint: Any) -> np.ndarray:
    """ell_1-lift ``Lambda_l1(y) = sum_s P_S(s) |l(s,y) - 1|`` (eq. 27)."""
    return _lift_measure(joint, "l1")


@contract(joint=_JOINT)
def chi2_lift(joint: Any) -> np.ndarray:
    """chi^2-lift ``Lambda_chi2(y) = sum_s P_S(s) (l(s,y) - 1)^2`` (eq. 28)."""
    return _lift_measure(joint, "chi2")


@contract(joint=_JOINT, alpha=_ALPHA)
def alpha_lift(joint: Any, alpha: float) -> np.ndarray:
    """alpha-lift ``Lambda^S_alpha(y) = (sum_s P_S(s) l(s,y)^alpha)^{1/alpha}`` (eq. 29)."""
    return _lift_measure(joint, "alpha", False, alpha)


@contract(joint=_JOINT)
def l1_lift_inverse(joint: Any) -> np.ndarray:
    """ell_1-lift-inverse ``Psi_l1(y) = sum_s P_S(s) |1/l(s,y) - 1|`` (eq. 30)."""
    return _lift_measure(joint, "l1", True)


@contract(joint=_JOINT)
def chi2_lift_inverse(joint: Any) -> np.ndarray:
    """chi^2-lift-inverse ``Psi_chi2(y) = sum_s P_S(s) (1/l(s,y) - 1)^2`` (eq. 31)."""
    return _lift_measure(joint, "chi2", True)


@contract(joint=_JOINT, alpha=_ALPHA)
def alpha_lift_inverse(joint: Any, alpha: float) -> np.ndarray:
    """alpha-lift-inverse ``Psi^S_alpha(y) = (sum_s P_S(s) l(s,y)^{-alpha})^{1/alpha}`` (eq. 32)."""
    return _lift_measure(joint, "alpha", True, alpha)


# --------------------------------------------------------------------------------------------
# average leakage measures (Prop. 1)
# --------------------------------------------------------------------------------------------


@contract(joint=_JOINT, unit=_UNIT)
def mutual_information_sy(joint: Any, *, unit: str) -> float:
    """``I(S;Y) = sum_{s,y} P_SY log l(s,y)`` (Prop. 1.1; :func:`ldpnb.measures.mutual_information_joint`)."""
    return float(mutual_information_joint(_check_joint(joint), unit=unit))


@contract(joint=_JOINT)
def total_variation_dependence(joint: Any) -> float:
    """``T(S;Y) = 1/2 sum_{s,y} |P_SY - P_S P_Y|``, which Def. 5 writes as ``1/2 E_Y[Lambda_l1(Y)]`` (Prop. 1.2)."""
    joint = _check_joint(joint)
    return 0.5 * float(np.abs(joint - np.outer(joint.sum(1), joint.sum(0))).sum())


@contract(joint=_JOINT)
def chi2_dependence(joint: Any) -> float:
    """``chi^2(S;Y) = E_Y[Lambda_chi2(Y)]`` (Def. 5, Prop. 1.2), equal to
    ``sum_{s,y} (P_SY - P_S P_Y)^2 / (P_S P_Y)``."""
    joint = _check_joint(joint)
    L, p_s, p_y = _lifts(joint)
    return float(p_y @ _measure(L, p_s, "chi2", False, None))


@contract(joint=_JOINT, alpha=_ALPHA, unit=_UNIT)
def sibson_mi(joint: Any, alpha: float, *, unit: str) -> float:
    """Sibson MI of order alpha (> 0, != 1) written with the alpha-lift (Def. 5, Prop. 1.3):

    ``I^S_alpha = alpha/(alpha-1) log sum_y P_Y(y) (sum_s P_S(s) l(s,y)^alpha)^{1/alpha}``.
    """
    if alpha == 1:
        raise ValueError(f"alpha must be finite, > 0 and != 1, got {alpha}")
    joint = _check_joint(joint)
    L, p_s, p_y = _lifts(joint)
    m = _measure(L, p_s, "alpha", False, alpha)
    return float(alpha / (alpha - 1) * np.log(p_y @ m)) * _unit_factor(unit)


@contract(joint=_JOINT, alpha=_ALPHA, unit=_UNIT)
def arimoto_mi(joint: Any, alpha: float, *, unit: str) -> float:
    """Arimoto MI of order alpha (> 0, != 1) (Prop. 1.3): Sibson's formula with ``P_S`` replaced by
    the escort ``P_S^alpha / sum P_S^alpha`` inside the inner sum."""
    if alpha == 1:
        raise ValueError(f"alpha must be finite, > 0 and != 1, got {alpha}")
    joint = _check_joint(joint)
    L, p_s, p_y = _lifts(joint)
    # log escort: alpha log P_S - logsumexp(alpha log P_S) (p_s**alpha underflows to 0/0 at large alpha)
    with np.errstate(divide="ignore"):
        a_log_ps = alpha * np.log(p_s)
    log_esc = a_log_ps - logsumexp(a_log_ps)
    m = _alpha_measure_log(log_esc, L, alpha)
    return float(alpha / (alpha - 1) * np.log(p_y @ m)) * _unit_factor(unit)


@contract(p_x=Distribution(), channel=Channel())
def nmi(p_x: Any, channel: Any) -> float:
    """Normalised mutual information ``I(X;Y) / H(X)`` (the paper's utility; base-free).

    Uses :func:`ldpnb.measures.mutual_information` and :func:`ldpnb.measures.entropy`.
    """
    return float(mutual_information(p_x, channel, unit="nats") / entropy(p_x, unit="nats"))


# --------------------------------------------------------------------------------------------
# privacy criteria (used by the watchdog, Algorithm 1 and the experiments)
# --------------------------------------------------------------------------------------------


class Criterion:
    """A symbol-wise privacy criterion on lift columns (eqs. 6, 7 and 33; Algorithm 1's risk ``omega``).

    ``violated(L, p_s)`` and ``risk(L, p_s)`` take a lift array ``L[..., s, m]`` (one column per
    symbol or merged block, optional leading batch dimensions) and ``p_s[..., s]``, and return one
    boolean / one risk score ``omega`` per column (shape ``L.shape[:-2] + (m,)``).
    Comparisons use a relative tolerance ``rtol`` (default 1e-12) so that a block exactly at its
    budget counts as private.
    """

    rtol: float = 1e-12
    name: str = "criterion"

    def violated(self, L: np.ndarray, p_s: np.ndarray) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def risk(self, L: np.ndarray, p_s: np.ndarray) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def __repr__(self) -> str:
        return self.name


_RTOL = Real(0, 1e-3)


class ALIP(Criterion):
    """(eps_l, eps_u)-ALIP (Def. 3): violated iff ``Psi < e^{-eps_l}`` or ``Lambda > e^{eps_u}`` (eq. 6).

    ``risk="inverse"`` (default): ``omega = Lambda + 1/Psi``, a risk score that grows with both
    leakages. ``risk="printed"``: Algorithm 1's printed ``omega = Lambda + Psi`` (Sec. IV-A), which
    rewards a small min-lift (kept to show its effect: with it Algorithm 1 does not reproduce Fig. 4).
    """

    @contract(eps_l=_BUDGET, eps_u=_BUDGET, risk=OneOf("inverse", "printed"), rtol=_RTOL)
    def __init__(self, eps_l: float, eps_u: float, *, risk: str = "inverse", rtol: float = 1e-12):
        self.eps_l, self.eps_u = eps_l, eps_u
        self.risk_kind = risk
        self.rtol = rtol
        self.name = f"ALIP({self.eps_l:g}, {self.eps_u:g})"

    def violated(self, L, p_s):
        return (L.min(axis=-2) < np.exp(-self.eps_l) * (1 - self.rtol)) | (
            L.max(axis=-2) > np.exp(self.eps_u) * (1 + self.rtol)
        )

    def risk(self, L, p_s):
        with np.errstate(divide="ignore"):
            if self.risk_kind == "inverse":
                return L.max(axis=-2) + 1.0 / L.min(axis=-2)
            return L.max(axis=-2) + L.min(axis=-2)


class LIP(Criterion):
    """epsilon-LIP (Def. 1); ``omega = max(log Lambda, |log Psi|)`` (Sec. IV-A)."""

    @contract(epsilon=_BUDGET, rtol=_RTOL)
    def __init__(self, epsilon: float, *, rtol: float = 1e-12):
        self.epsilon = epsilon
        self.rtol = rtol
        self.name = f"LIP({self.epsilon:g})"

    def violated(self, L, p_s):
        return ALIP(self.epsilon, self.epsilon, rtol=self.rtol).violated(L, p_s)

    def risk(self, L, p_s):
        with np.errstate(divide="ignore"):
            return np.maximum(np.log(L.max(axis=-2)), -np.log(L.min(axis=-2)))


class LDPwrtS(Criterion):
    """epsilon-LDP w.r.t. S (Def. 2): violated iff ``Gamma > e^epsilon`` (eq. 7); ``omega = Gamma``."""

    @contract(epsilon=_BUDGET, rtol=_RTOL)
    def __init__(self, epsilon: float, *, rtol: float = 1e-12):
        self.epsilon = epsilon
        self.rtol = rtol
        self.name = f"LDP({self.epsilon:g})"

    def violated(self, L, p_s):
        return self.risk(L, p_s) > np.exp(self.epsilon) * (1 + self.rtol)

    def risk(self, L, p_s):
        with np.errstate(divide="ignore"):
            return L.max(axis=-2) / L.min(axis=-2)


def _lift_bound(kind: str, eps: float) -> float:
    """Budget of a lift-based or lift-inverse measure (Sec. VI-B): ``e^eps - 1`` (l1),
    ``(e^eps - 1)^2`` (chi2), ``e^eps`` (alpha)."""
    if kind == "l1":
        return float(np.expm1(eps))
    if kind == "chi2":
        return float(np.expm1(eps) ** 2)
    return float(np.exp(eps))


class LiftMeasurePrivacy(Criterion):
    """Lift-based + lift-inverse privacy (Sec. VI-B, eq. 33).

    Violated iff ``Lambda_m > b_u`` or ``Psi_m > b_l`` with, for ``kind``:
    ``"l1"``: ``b_u = e^{eps_u} - 1``, ``b_l = e^{eps_l} - 1``;
    ``"chi2"``: ``b_u = (e^{eps_u} - 1)^2``, ``b_l = (e^{eps_l} - 1)^2``;
    ``"alpha"``: ``b_u = e^{eps_u}``, ``b_l = e^{eps_l}``.
    Risk ``omega = Lambda_m + Psi_m`` (stated for alpha in the paper; same form for l1, chi2).
    """

    @contract(
        kind=OneOf(*_KINDS), eps_l=_BUDGET, eps_u=_BUDGET, alpha=Optional(Real(1, None, low_open=True)), rtol=_RTOL
    )
    def __init__(self, kind: str, eps_l: float, eps_u: float, *, alpha: float | None = None, rtol: float = 1e-12):
        if kind == "alpha" and alpha is None:
            raise ValueError("alpha must be given (> 1) for the alpha-lift criterion, got None")
        self.kind, self.alpha, self.rtol = kind, alpha, rtol
        self.eps_l, self.eps_u = eps_l, eps_u
        self.b_u, self.b_l = _lift_bound(kind, eps_u), _lift_bound(kind, eps_l)
        self.name = f"{kind}{'' if alpha is None else f'(alpha={alpha:g})'}({self.eps_l:g}, {self.eps_u:g})"

    def violated(self, L, p_s):
        up = _measure(L, p_s, self.kind, False, self.alpha)
        lo = _measure(L, p_s, self.kind, True, self.alpha)
        return (up > self.b_u * (1 + self.rtol)) | (lo > self.b_l * (1 + self.rtol))

    def risk(self, L, p_s):
        return _measure(L, p_s, self.kind, False, self.alpha) + _measure(L, p_s, self.kind, True, self.alpha)


class LiftBased(Criterion):
    """A lift-based measure alone, without its lift-inverse bound (Sec. VI, Def. 5; the criteria of
    the earlier l1-, chi2- and alpha-lift works the paper cites).

    Violated iff ``Lambda_m > b_u`` (``b_u`` as in :class:`LiftMeasurePrivacy`); risk
    ``omega = Lambda_m``. By Prop. 4 it bounds the max-lift only: the min-lift is left free, which
    is the paper's reason for adding the lift-inverse measures (Def. 6).
    """

    @contract(kind=OneOf(*_KINDS), eps_u=_BUDGET, alpha=Optional(Real(1, None, low_open=True)), rtol=_RTOL)
    def __init__(self, kind: str, eps_u: float, *, alpha: float | None = None, rtol: float = 1e-12):
        if kind == "alpha" and alpha is None:
            raise ValueError("alpha must be given (> 1) for the alpha-lift criterion, got None")
        self.kind, self.alpha, self.rtol, self.eps_u = kind, alpha, rtol, eps_u
        self.b_u = _lift_bound(kind, eps_u)
        self.name = f"{kind}-lift only({self.eps_u:g})"

    def violated(self, L, p_s):
        return _measure(L, p_s, self.kind, False, self.alpha) > self.b_u * (1 + self.rtol)

    def risk(self, L, p_s):
        return _measure(L, p_s, self.kind, False, self.alpha)


# --------------------------------------------------------------------------------------------
# evaluation of a mechanism
# --------------------------------------------------------------------------------------------


@contract(p_sx=_JOINT, channel=Channel())
def evaluate_mechanism(p_sx: Any, channel: Any) -> dict[str, float]:
    """Utility and leakages of a channel on ``P_SX`` (the quantities of Figs. 2-8).

    Returns ``nmi`` (``I(X;Y)/H(X)``) and the leakages of :func:`leakages` in nats:
    ``max_lift_leak``, ``min_lift_leak``, ``ldp_leak`` (over all outputs of positive probability).
    """
    p_sx = _check_joint(p_sx, "p_sx")
    p_sy = output_joint.__wrapped__(p_sx, channel)
    lk = leakages.__wrapped__(p_sy)
    return {
        "nmi": nmi.__wrapped__(p_sx.sum(axis=0), channel),
        "max_lift_leak": lk.max_lift_leak,
        "min_lift_leak": lk.min_lift_leak,
        "ldp_leak": lk.ldp_leak,
    }
