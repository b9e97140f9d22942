"""Privacy audits of the book's mechanisms: exact levels of finite channels, empirical lower bounds.

Two checks per mechanism (spec anchors C.8):

* **exact** (tier 0): the tight level of the mechanism's finite channel -- ``ldp_epsilon`` for LDP
  mechanisms, ``geo_ind_epsilon`` for metric (geo-indistinguishable) ones, the LDP level of
  ``P(y | s)`` w.r.t. the secret ``S`` for the lift mechanisms -- which must not exceed the claim;
* **empirical** (tier 2, in the style of LDP-Auditor, Arcolezi & Gambs 2024,
  ``ldp_audit/base_auditor.py``): run the mechanism's *sampler* ``n`` times on each of two inputs
  ``x1, x2``, decode every report with the protocol's distinguishing statistic, pick the best
  distinguishing event ``S`` on one half of the runs and count it on the other half.  With
  Clopper-Pearson bounds at confidence ``1 - alpha`` (``alpha/2`` per side),

  .. math:: \\hat\\varepsilon = \\ln\\frac{\\underline{TPR}}{\\overline{FPR}}, \\qquad
            TPR = P(M(x_1) \\in S),\\ FPR = P(M(x_2) \\in S),

  is a lower bound on the true level of the sampler for the pair ``(x1, x2)`` with probability at
  least ``1 - alpha`` (the event is chosen on data independent of the counted half).  For
  geo-indistinguishable mechanisms the bound is compared with ``eps * d(x1, x2)``.

A mechanism *keeps its promise* when ``exact <= claimed`` and ``empirical <= claimed * d``.  A
deliberately broken unary encoding (:func:`broken_ue_perturb`) must be flagged: that is the audit's
own test.

The mechanisms are discovered through :data:`REGISTRY` (name -> :class:`MechanismSpec`).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Callable

import numpy as np
from scipy import stats

from .utils import check_epsilon, check_positive_int, check_probability, check_random_state

__all__ = [
    "clopper_pearson",
    "exact_epsilon",
    "pair_epsilon",
    "worst_pair",
    "EmpiricalResult",
    "empirical_epsilon",
    "AuditCase",
    "MechanismSpec",
    "AuditResult",
    "REGISTRY",
    "available_mechanisms",
    "build_case",
    "audit",
    "audit_grid",
    "broken_ue_perturb",
    "broken_ue_epsilon",
    "audit_broken_ue",
    "bonferroni_alpha",
]

Sampler = Callable[[int, int, np.random.Generator], np.ndarray]


# ---------------------------------------------------------------------------------------------
# statistics
# ---------------------------------------------------------------------------------------------


def clopper_pearson(k: Any, n: Any, alpha: float = 0.01) -> tuple[float, float]:
    """Exact (Clopper-Pearson) two-sided ``1 - alpha`` confidence interval of a binomial proportion.

    .. math:: \\underline p = B^{-1}(\\alpha/2; k, n - k + 1), \\qquad
              \\overline p = B^{-1}(1 - \\alpha/2; k + 1, n - k)

    with ``B^{-1}`` the beta quantile, ``lo = 0`` when ``k = 0`` and ``hi = 1`` when ``k = n``
    (Clopper & Pearson 1934; ``statsmodels.proportion_confint(method="beta")``, as LDP-Auditor).

    Parameters
    ----------
    k : int
        Number of successes, ``0 <= k <= n``.
    n : int
        Number of trials, ``n >= 1``.
    alpha : float
        Error probability in ``(0, 1)``.
    """
    n = check_positive_int(n, "n")
    k = check_positive_int(k, "k", minimum=0)
    if k > n:
        raise ValueError(f"k must be <= n, got k={k}, n={n}")
    alpha = check_probability(alpha, "alpha", open_left=True, open_right=True)
    lo = 0.0 if k == 0 else float(stats.beta.ppf(alpha / 2.0, k, n - k + 1))
    hi = 1.0 if k == n else float(stats.beta.ppf(1.0 - alpha / 2.0, k + 1, n - k))
    return lo, hi


def bonferroni_alpha(alpha_total: float, n_tests: int) -> float:
    """Per-test error probability ``alpha_total / n_tests`` (family-wise error <= ``alpha_total``)."""
    alpha_total = check_probability(alpha_total, "alpha_total", open_left=True, open_right=True)
    n_tests = check_positive_int(n_tests, "n_tests")
    return alpha_total / n_tests


# ---------------------------------------------------------------------------------------------
# exact levels
# ---------------------------------------------------------------------------------------------


def exact_epsilon(channel: Any, distance: Any = None) -> float:
    """Tight privacy level of a finite channel ``C[x, y] = P(y | x)``.

    ``distance=None``: the LDP level ``max_{x, x', y} ln(C[x, y] / C[x', y])``
    (:func:`ldpnb.mechanisms.ldp_epsilon`); otherwise the geo-indistinguishability constant
    ``max ln(C[x, y] / C[x', y]) / d(x, x')`` (:func:`ldpnb.mechanisms.geo_ind_epsilon`).
    """
    from .mechanisms import geo_ind_epsilon, ldp_epsilon

    if distance is None:
        return float(ldp_epsilon(channel))
    return float(geo_ind_epsilon(channel, distance))


def pair_epsilon(channel: Any, x1: int, x2: int) -> float:
    """Tight level of one pair of inputs: ``max_y |ln(C[x1, y] / C[x2, y])|`` (0/0 columns ignored)."""
    from .utils import check_channel

    C = check_channel(channel)
    k = C.shape[0]
    for name, v in (("x1", x1), ("x2", x2)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= int(v) < k:
            raise ValueError(f"{name} must be an input index in {{0, ..., {k - 1}}}, got {v!r}")
    a, b = C[int(x1)], C[int(x2)]
    used = (a > 0) | (b > 0)
    if np.any((a[used] == 0) | (b[used] == 0)):
        return math.inf
    return float(np.max(np.abs(np.log(a[used]) - np.log(b[used]))))


def worst_pair(channel: Any, distance: Any = None) -> tuple[int, int]:
    """The pair ``(x1, x2)`` that attains the tight level (per unit of distance when given).

    Returns the pair with ``C[x1, y] / C[x2, y]`` maximal for some ``y`` (so that the event
    ``{y}`` favours ``x1``).  Cost ``O(k^2 m)``; meant for the small channels of the audit.
    """
    from .utils import check_channel

    C = check_channel(channel)
    k = C.shape[0]
    with np.errstate(divide="ignore"):
        L = np.log(C)
    with np.errstate(invalid="ignore"):
        diff = L[:, None, :] - L[None, :, :]
    diff = np.where(np.isnan(diff), -np.inf, diff).max(axis=2)
    np.fill_diagonal(diff, -np.inf)
    if distance is not None:
        D = np.asarray(distance, dtype=float)
        if D.shape != (k, k):
            raise ValueError(f"distance must be {k} x {k} to match the channel rows, got {D.shape}")
        with np.errstate(divide="ignore", invalid="ignore"):
            diff = np.where(D > 0, diff / np.where(D > 0, D, 1.0), -np.inf)
        np.fill_diagonal(diff, -np.inf)
    i, j = np.unravel_index(int(np.argmax(diff)), diff.shape)
    return int(i), int(j)


# ---------------------------------------------------------------------------------------------
# empirical lower bound (LDP-Auditor style)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EmpiricalResult:
    """Result of :func:`empirical_epsilon`.

    ``epsilon`` is the lower bound ``max(0, ln(tpr_lo / fpr_hi))``; ``tp``/``fp`` count the event on
    the evaluation runs of ``x1``/``x2`` (``n_eval`` each); ``event`` lists the output codes of the
    chosen event (``None`` when a fixed event function was given); ``swapped`` is True when the
    event favours ``x2`` (then ``tp`` counts ``x2``'s runs).
    """

    epsilon: float
    tp: int
    fp: int
    n_eval: int
    tpr_lo: float
    fpr_hi: float
    alpha: float
    swapped: bool
    event: tuple | None


def _ln_ratio(lo: float, hi: float) -> float:
    if lo <= 0.0:
        return 0.0
    return max(0.0, math.log(lo) - math.log(hi))


def _as_codes(y: Any, n: int, name: str) -> np.ndarray:
    a = np.asarray(y)
    if a.ndim != 1 or a.shape[0] != n:
        raise ValueError(f"{name} must return a 1-D array of {n} output codes, got shape {a.shape}")
    if a.dtype == bool:
        return a.astype(np.int64)
    if not np.issubdtype(a.dtype, np.integer):
        raise TypeError(f"{name} must return integer output codes, got dtype {a.dtype}")
    return a.astype(np.int64, copy=False)


def _best_event(y1: np.ndarray, y2: np.ndarray, alpha: float) -> tuple[np.ndarray, bool]:
    """Event (set of codes) maximising the Clopper-Pearson bound on the selection runs.

    Candidates: for each direction, the prefixes of the codes sorted by the smoothed ratio
    ``(c1 + 1/2) / (c2 + 1/2)`` (the Neyman-Pearson order of the plug-in likelihood ratio).
    """
    codes, inv = np.unique(np.concatenate([y1, y2]), return_inverse=True)
    c1 = np.bincount(inv[: y1.size], minlength=codes.size)
    c2 = np.bincount(inv[y1.size:], minlength=codes.size)
    best = (-1.0, None, False)
    for swapped, (a, b, na, nb) in enumerate(((c1, c2, y1.size, y2.size), (c2, c1, y2.size, y1.size))):
        order = np.argsort(-((a + 0.5) / (b + 0.5)), kind="stable")
        ca, cb = np.cumsum(a[order]), np.cumsum(b[order])
        # at most 256 candidate prefixes (quantiles of the order) to bound the cost
        idx = np.unique(np.linspace(0, codes.size - 1, min(codes.size, 256)).round().astype(int))
        for j in idx:
            lo = 0.0 if ca[j] == 0 else float(stats.beta.ppf(alpha / 2.0, ca[j], na - ca[j] + 1))
            hi = 1.0 if cb[j] == nb else float(stats.beta.ppf(1.0 - alpha / 2.0, cb[j] + 1, nb - cb[j]))
            val = _ln_ratio(lo, hi)
            if val > best[0]:
                best = (val, codes[order[: j + 1]], bool(swapped))
    return best[1], best[2]


def empirical_epsilon(
    sampler: Sampler,
    x1: int,
    x2: int,
    *,
    n_trials: int,
    alpha: float = 0.01,
    rng: Any = None,
    event: Callable[[np.ndarray], np.ndarray] | None = None,
    select_fraction: float = 0.5,
) -> EmpiricalResult:
    """Empirical lower bound on the privacy loss between inputs ``x1`` and ``x2`` (LDP-Auditor).

    1. Draw ``n_trials`` reports of ``x1`` and of ``x2`` with ``sampler(x, n, rng)``, which returns
       one integer *code* per report: the protocol-specific decoding of LDP-Auditor's attacks (e.g.
       the pair of bits ``(B[x1], B[x2])`` of a unary encoding).
    2. Unless ``event`` is given, choose the event ``S`` (a set of codes, in either direction) that
       maximises the bound on the first ``select_fraction`` of the runs.
    3. On the remaining runs count ``TP = #{M(x1) in S}`` and ``FP = #{M(x2) in S}``, bound both
       rates with :func:`clopper_pearson` at level ``alpha`` and return
       ``max(0, ln(TPR_lo / FPR_hi))``.

    With probability at least ``1 - alpha`` the result is at most the true level of the pair
    (``sup_S ln P(M(x1) in S) / P(M(x2) in S)``): the selection runs are independent of the
    evaluation runs.

    Parameters
    ----------
    sampler : callable ``(x, n, rng) -> int array (n,)``
    x1, x2 : int
        The two inputs.
    n_trials : int
        Reports per input (``>= 2``; split between selection and evaluation).
    alpha : float
        Error probability of the Clopper-Pearson bounds, in ``(0, 1)``.
    rng : Generator, int or None
    event : callable, optional
        A fixed event ``codes -> bool array``; then every run is used for the evaluation.
    select_fraction : float
        Share of the runs used to choose the event, in ``(0, 1)``.
    """
    rng = check_random_state(rng)
    n_trials = check_positive_int(n_trials, "n_trials", minimum=2)
    alpha = check_probability(alpha, "alpha", open_left=True, open_right=True)
    select_fraction = check_probability(select_fraction, "select_fraction", open_left=True, open_right=True)
    if not callable(sampler):
        raise TypeError("sampler must be a callable (x, n, rng) -> codes")
    if event is not None and not callable(event):
        raise TypeError("event must be None or a callable codes -> bool array")
    y1 = _as_codes(sampler(x1, n_trials, rng), n_trials, "sampler")
    y2 = _as_codes(sampler(x2, n_trials, rng), n_trials, "sampler")
    if event is None:
        n_sel = min(n_trials - 1, max(1, int(round(select_fraction * n_trials))))
        S, swapped = _best_event(y1[:n_sel], y2[:n_sel], alpha)
        e1, e2 = y1[n_sel:], y2[n_sel:]
        if swapped:
            e1, e2 = e2, e1
        tp, fp = int(np.isin(e1, S).sum()), int(np.isin(e2, S).sum())
        ev = tuple(int(s) for s in np.sort(S))
    else:
        swapped = False
        e1, e2 = y1, y2
        in1 = np.asarray(event(e1), dtype=bool)
        in2 = np.asarray(event(e2), dtype=bool)
        if in1.shape != e1.shape or in2.shape != e2.shape:
            raise ValueError("event must return one boolean per report")
        tp, fp = int(in1.sum()), int(in2.sum())
        ev = None
    n_eval = e1.size
    tpr_lo, _ = clopper_pearson(tp, n_eval, alpha)
    _, fpr_hi = clopper_pearson(fp, n_eval, alpha)
    return EmpiricalResult(_ln_ratio(tpr_lo, fpr_hi), tp, fp, n_eval, tpr_lo, fpr_hi, alpha, swapped, ev)


# ---------------------------------------------------------------------------------------------
# the mechanisms under audit
# ---------------------------------------------------------------------------------------------


@dataclass
class AuditCase:
    """One mechanism at one privacy parameter, ready to audit.

    ``claimed`` is the promised level (eps for LDP, the geo-ind constant per unit of distance for
    metric mechanisms); ``channel`` the exact finite channel (rows = inputs) or ``None``;
    ``distance`` the input distances for geo-ind (``None`` for LDP); ``sampler(x, n, rng)`` draws
    coded reports; ``(x1, x2)`` the audited pair and ``d12`` its distance (1 for LDP).
    ``exact`` may be given directly when the channel is too large to enumerate.
    """

    mechanism: str
    epsilon: float
    claimed: float
    sampler: Sampler
    x1: int
    x2: int
    d12: float = 1.0
    channel: np.ndarray | None = None
    distance: np.ndarray | None = None
    exact: float | None = None
    pair_exact: float | None = None
    note: str = ""
    codes_are_columns: bool = False  #: True when the sampler's codes index the columns of ``channel``


@dataclass(frozen=True)
class MechanismSpec:
    """A registry entry: ``build(epsilon) -> AuditCase``; ``kind`` is ``"ldp"``, ``"geo"`` or ``"lift"``."""

    name: str
    kind: str
    build: Callable[[float], AuditCase]
    module: str
    claim: str


def _grr_case(eps: float, k: int = 4) -> AuditCase:
    from . import mechanisms as m

    return AuditCase("k-RR", eps, eps, lambda x, n, r: m.grr_perturb(np.full(n, x), k, eps, rng=r), 0, 1,
                     channel=m.grr_channel(k, eps), codes_are_columns=True, note=f"k={k}; code = report")


def _ue_case(kind: str):
    def build(eps: float, k: int = 6) -> AuditCase:
        from . import mechanisms as m

        def sampler(x, n, r):  # LDP-Auditor's UE decoding: the bits of the two audited values
            b = m.ue_perturb(np.full(n, x), k, eps, kind, rng=r)
            return 2 * b[:, 0].astype(np.int64) + b[:, 1]

        return AuditCase(kind.upper(), eps, eps, sampler, 0, 1, channel=m.ue_channel(k, eps, kind),
                         note=f"k={k}; code = (B[x1], B[x2])")

    return build


def _lh_case(g_fixed: int | None):
    name = "OLH" if g_fixed is None else "BLH"

    def build(eps: float, k: int = 6) -> AuditCase:
        from . import mechanisms as m

        g, _, _ = m.lh_params(eps, g_fixed)

        def sampler(x, n, r):  # support of the two audited values: (h(x1) = y, h(x2) = y)
            seeds, y = m.lh_perturb(np.full(n, x), k, eps, g_fixed, rng=r)
            h = m.lh_hash(seeds[:, None, :], np.array([0, 1]), g)
            return 2 * (h[:, 0] == y).astype(np.int64) + (h[:, 1] == y)

        # the exact channel (fully random hash family) for the largest k' <= k that fits
        kk = max(2, min(k, int(22 // math.log2(g)) - 1))
        return AuditCase(name, eps, eps, sampler, 0, 1, channel=m.lh_channel(kk, g, eps),
                         note=f"k={k}, g={g}; exact channel with k={kk} (random-oracle hash); "
                              "code = (h(x1) = y, h(x2) = y)")

    return build


def _ss_case(eps: float, k: int = 8) -> AuditCase:
    from . import mechanisms as m

    omega, _, _ = m.ss_params(k, eps)

    def sampler(x, n, r):
        s = m.ss_perturb(np.full(n, x), k, eps, rng=r)
        return 2 * s[:, 0].astype(np.int64) + s[:, 1]

    return AuditCase("SS", eps, eps, sampler, 0, 1, channel=m.ss_channel(k, eps),
                     note=f"k={k}, omega={omega}; code = (x1 in subset, x2 in subset)")


def _line_distance(k: int) -> np.ndarray:
    i = np.arange(k, dtype=float)
    return np.abs(i[:, None] - i[None, :])


def _geometric_case(eps: float, k: int = 8) -> AuditCase:
    from . import mechanisms as m

    return AuditCase("geometric", eps, eps, lambda x, n, r: m.geometric_perturb(np.full(n, x), k, eps, rng=r),
                     0, 1, channel=m.geometric_channel(k, eps), distance=_line_distance(k),
                     codes_are_columns=True, note=f"k={k}, d = |x - x'|")


def _laplace_case(eps: float, k: int = 8) -> AuditCase:
    from . import mechanisms as m

    return AuditCase("Laplace", eps, eps, lambda x, n, r: m.laplace_perturb(np.full(n, x), k, eps, rng=r),
                     0, 1, channel=m.laplace_channel(k, eps), distance=_line_distance(k),
                     codes_are_columns=True, note=f"k={k}, discretised + truncated; d = |x - x'|")


def _exponential_case(eps: float, k: int = 8) -> AuditCase:
    from . import mechanisms as m

    D = _line_distance(k)
    C = m.exponential_channel(D, eps, half=True)
    return AuditCase("exponential", eps, eps, lambda x, n, r: m.sample_channel(C, np.full(n, x), rng=r),
                     0, 1, channel=C, distance=D, codes_are_columns=True, note=f"k={k}, exp(-eps d / 2), d = |x - x'|")


_GRID = (4, 4)


def _grid_distance() -> np.ndarray:
    from .grid import lattice_distance_matrix

    return lattice_distance_matrix(*_GRID)


def _planar_geometric_case(eps: float) -> AuditCase:
    from . import mechanisms as m

    C = m.planar_geometric_channel(*_GRID, eps)
    return AuditCase("planar geometric", eps, eps, lambda x, n, r: m.sample_channel(C, np.full(n, x), rng=r),
                     0, 1, channel=C, distance=_grid_distance(), codes_are_columns=True, note=f"{_GRID[0]}x{_GRID[1]} grid, Euclidean d")


def _planar_laplace_case(eps: float) -> AuditCase:
    from . import mechanisms as m

    rows, cols = _GRID

    def sampler(x, n, r):  # continuous planar Laplace from the cell centre, then the cell (clamped)
        i, j = divmod(int(x), cols)
        z = m.planar_laplace_perturb(np.tile([float(i), float(j)], (n, 1)), eps, rng=r)
        zi = np.clip(np.floor(z[:, 0] + 0.5), 0, rows - 1).astype(np.int64)
        zj = np.clip(np.floor(z[:, 1] + 0.5), 0, cols - 1).astype(np.int64)
        return zi * cols + zj

    C = m.planar_laplace_channel(rows, cols, eps)
    return AuditCase("planar Laplace", eps, eps, sampler, 0, 1, channel=C, distance=_grid_distance(),
                     codes_are_columns=True, note=f"{rows}x{cols} grid; sampler = continuous planar Laplace, cell of the output")


def _ba_case(eps: float) -> AuditCase:
    from . import mechanisms as m
    from .rate_distortion import blahut_arimoto

    D = _grid_distance()
    prior = np.random.default_rng(7).dirichlet(np.ones(D.shape[0]))
    beta = eps / 2.0
    C = blahut_arimoto(prior, D, beta, n_iter=10).channel
    return AuditCase("BA (rate-distortion)", eps, 2 * beta, lambda x, n, r: m.sample_channel(C, np.full(n, x), rng=r),
                     0, 1, channel=C, distance=D,
                     codes_are_columns=True, note=f"{_GRID[0]}x{_GRID[1]} grid, Dirichlet prior, beta = eps/2 = {beta:g}, 10 BA iterations; "
                          "claim 2 beta-geo-ind (PRIVIC Remark 4)")


def _lap_padded_case(eps: float) -> AuditCase:
    from . import mechanisms as m
    from .privic import lap_grid_channel, privic_distance

    C = lap_grid_channel(_GRID, eps, pad=2)
    D = privic_distance(_GRID)
    return AuditCase("LAP (PRIVIC, padded grid)", eps, 2 * eps,
                     lambda x, n, r: m.sample_channel(C, np.full(n, x), rng=r), 0, 1, channel=C, distance=D,
                     codes_are_columns=True, note=f"{_GRID[0]}x{_GRID[1]} grid, outputs on the grid padded by 2 cells, rows normalised; "
                          "claim 2 eps-geo-ind (privic.lap_grid_channel)")


_LIFT_SHAPE = (3, 6)


def _lift_joint() -> np.ndarray:
    from .lift import random_joint

    return random_joint(*_LIFT_SHAPE, rng=np.random.default_rng(11))


def _lift_case(name: str, make_channel: Callable[[np.ndarray, float, float], np.ndarray]):
    def build(eps: float) -> AuditCase:
        from . import mechanisms as m
        from .lift import alip_budgets, is_alip, output_joint

        p_sx = _lift_joint()
        el, eu = alip_budgets(eps, 0.5)
        C = make_channel(p_sx, el, eu)
        J = output_joint(p_sx, C)
        p_s = p_sx.sum(axis=1)
        W = J / p_s[:, None]  # P(y | s): the channel from the secret to the output
        W = W / W.sum(axis=1, keepdims=True)
        p_x_s = p_sx / p_s[:, None]

        def sampler(s, n, r):  # S -> X -> Y, as the data are generated and published
            x = m.sample_channel(p_x_s, np.full(n, s), rng=r)
            return m.sample_channel(C, x, rng=r)

        x1, x2 = worst_pair(W)
        alip = bool(is_alip(J, el, eu))
        return AuditCase(name, eps, eps, sampler, x1, x2, channel=W,
                         codes_are_columns=True, note=f"random P_SX {_LIFT_SHAPE[0]}x{_LIFT_SHAPE[1]}; (eps/2, eps/2)-ALIP -> eps-LDP "
                              f"w.r.t. S; channel P(y|s); ALIP holds: {alip}")

    return build


def _watchdog_complete(p_sx, el, eu):
    from .lift import ALIP
    from .watchdog import complete_merging

    return complete_merging(p_sx, ALIP(el, eu)).channel()


def _watchdog_subset(p_sx, el, eu):
    from .lift import ALIP
    from .watchdog import subset_merging

    return subset_merging(p_sx, ALIP(el, eu)).channel()


def _orr(p_sx, el, eu):
    from .orr import full_channel

    return full_channel(p_sx, el, eu)


def _srr(p_sx, el, eu):
    from .orr import subset_random_response

    return subset_random_response(p_sx, el, eu).channel


_RSFD_KS = (2, 3)
_RSFD_PRIORS = (np.array([0.7, 0.3]), np.array([0.5, 0.3, 0.2]))


def _rsfd_case(label: str, protocol: str, fake: str, *, neighbours: bool = False):
    def build(eps: float) -> AuditCase:
        from .mechanisms import ue_pattern_index
        from .multidim import amplified_epsilon, rsfd_collect, rsfd_tuple_channel

        ks = np.array(_RSFD_KS)
        priors = [p.copy() for p in _RSFD_PRIORS] if fake == "prior" else None
        W, inputs = rsfd_tuple_channel(ks, eps, protocol, fake, priors=priors)
        d = len(ks)
        eps_p = float(amplified_epsilon(eps, d))

        def sampler(row, n, r):
            X = np.tile(inputs[int(row)], (n, 1))
            reports, _ = rsfd_collect(X, ks, eps, protocol, fake, priors=priors, rng=r)
            # the column of the tuple channel: mixed radix, attribute 0 most significant, digit j =
            # the value (GRR) or the bit pattern index sum_b B_b 2^b (UE) of attribute j
            code = np.zeros(n, dtype=np.int64)
            for j in range(d):
                if protocol == "grr":
                    code = code * int(ks[j]) + reports[j]
                else:
                    code = code * (1 << int(ks[j])) + ue_pattern_index(reports[j])
            return code

        if neighbours:  # the paper's claim: eps-LDP for tuples that differ in one attribute
            with np.errstate(divide="ignore"):
                L = np.log(W)
            with np.errstate(invalid="ignore"):
                diff = np.where(np.isnan(L[:, None] - L[None]), -np.inf, L[:, None] - L[None]).max(axis=2)
            ham = (inputs[:, None, :] != inputs[None, :, :]).sum(axis=2)
            diff[ham != 1] = -np.inf
            x1, x2 = np.unravel_index(int(np.argmax(diff)), diff.shape)
            Wn = W[[x1, x2]]
            return AuditCase(label + " (one-attribute neighbours)", eps, eps, sampler, int(x1), int(x2),
                             exact=float(diff.max()), pair_exact=pair_epsilon(Wn, 0, 1),
                             note=f"ks={_RSFD_KS}; paper's claim: eps-LDP; pair {inputs[x1].tolist()} vs "
                                  f"{inputs[x2].tolist()}")
        x1, x2 = worst_pair(W)
        return AuditCase(label, eps, eps_p, sampler, x1, x2, channel=W,
                         codes_are_columns=True, note=f"ks={_RSFD_KS}{', priors ' + str([p.tolist() for p in _RSFD_PRIORS]) if priors else ''}; "
                              f"claim eps' = ln(d(e^eps - 1) + 1) = {eps_p:.4g} for any two tuples")

    return build


def _registry() -> dict[str, MechanismSpec]:
    specs = [
        MechanismSpec("k-RR", "ldp", _grr_case, "mechanisms", "eps-LDP"),
        MechanismSpec("SUE", "ldp", _ue_case("sue"), "mechanisms", "eps-LDP"),
        MechanismSpec("OUE", "ldp", _ue_case("oue"), "mechanisms", "eps-LDP"),
        MechanismSpec("OLH", "ldp", _lh_case(None), "mechanisms", "eps-LDP"),
        MechanismSpec("BLH", "ldp", _lh_case(2), "mechanisms", "eps-LDP"),
        MechanismSpec("SS", "ldp", _ss_case, "mechanisms", "eps-LDP"),
        MechanismSpec("geometric", "geo", _geometric_case, "mechanisms", "eps-geo-ind"),
        MechanismSpec("Laplace", "geo", _laplace_case, "mechanisms", "eps-geo-ind"),
        MechanismSpec("exponential", "geo", _exponential_case, "mechanisms", "eps-geo-ind"),
        MechanismSpec("planar geometric", "geo", _planar_geometric_case, "mechanisms", "eps-geo-ind"),
        MechanismSpec("planar Laplace", "geo", _planar_laplace_case, "mechanisms", "eps-geo-ind"),
        MechanismSpec("BA (rate-distortion)", "geo", _ba_case, "rate_distortion", "2 beta-geo-ind"),
        MechanismSpec("LAP (PRIVIC, padded grid)", "geo", _lap_padded_case, "privic", "2 eps-geo-ind"),
        MechanismSpec("watchdog (complete merging)", "lift", _lift_case("watchdog (complete merging)", _watchdog_complete),
                      "watchdog", "eps-LDP w.r.t. S"),
        MechanismSpec("watchdog (subset merging)", "lift", _lift_case("watchdog (subset merging)", _watchdog_subset),
                      "watchdog", "eps-LDP w.r.t. S"),
        MechanismSpec("ORR", "lift", _lift_case("ORR", _orr), "orr", "eps-LDP w.r.t. S"),
        MechanismSpec("SRR", "lift", _lift_case("SRR", _srr), "orr", "eps-LDP w.r.t. S"),
        MechanismSpec("RS+FD[GRR]", "ldp", _rsfd_case("RS+FD[GRR]", "grr", "uniform"), "multidim", "eps'-LDP"),
        MechanismSpec("RS+FD[OUE-z]", "ldp", _rsfd_case("RS+FD[OUE-z]", "oue", "zero"), "multidim", "eps'-LDP"),
        MechanismSpec("RS+FD[SUE-r]", "ldp", _rsfd_case("RS+FD[SUE-r]", "sue", "random"), "multidim", "eps'-LDP"),
        MechanismSpec("RS+RFD[GRR]", "ldp", _rsfd_case("RS+RFD[GRR]", "grr", "prior"), "multidim", "eps'-LDP"),
        MechanismSpec("RS+RFD[OUE-r]", "ldp", _rsfd_case("RS+RFD[OUE-r]", "oue", "prior"), "multidim", "eps'-LDP"),
    ]
    return {s.name: s for s in specs}


#: Every audited mechanism, by name (the chapter iterates over it).
REGISTRY: dict[str, MechanismSpec] = _registry()

#: Paper claims audited separately (they are known not to hold in general; see the chapter).
PAPER_CLAIMS: dict[str, MechanismSpec] = {
    s.name: s
    for s in [
        MechanismSpec("RS+FD[GRR] (one-attribute neighbours)", "ldp",
                      _rsfd_case("RS+FD[GRR]", "grr", "uniform", neighbours=True), "multidim", "eps-LDP"),
        MechanismSpec("RS+RFD[GRR] (one-attribute neighbours)", "ldp",
                      _rsfd_case("RS+RFD[GRR]", "grr", "prior", neighbours=True), "multidim", "eps-LDP"),
    ]
}


def available_mechanisms() -> list[str]:
    """Names of the registered mechanisms whose module can be imported."""
    import importlib

    out = []
    for name, spec in REGISTRY.items():
        try:
            importlib.import_module(f"ldpnb.{spec.module}")
        except ImportError:  # pragma: no cover - every module of the registry has landed
            continue
        out.append(name)
    return out


def build_case(name: str, epsilon: float) -> AuditCase:
    """The :class:`AuditCase` of a registered mechanism (``REGISTRY`` or ``PAPER_CLAIMS``)."""
    epsilon = check_epsilon(epsilon)
    spec = REGISTRY.get(name) or PAPER_CLAIMS.get(name)
    if spec is None:
        raise ValueError(f"name must be a registered mechanism, one of {sorted(REGISTRY)}; got {name!r}")
    return spec.build(epsilon)


# ---------------------------------------------------------------------------------------------
# audits
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AuditResult:
    """One audited (mechanism, epsilon): claimed, exact and empirical levels.

    ``claimed``/``exact`` are per unit of distance for geo-ind mechanisms; ``pair_claimed`` =
    ``claimed * d12`` is what the empirical bound of the pair is compared with.  ``passed`` is
    ``exact <= claimed (1 + 1e-9)`` and ``empirical <= pair_claimed``.
    """

    mechanism: str
    epsilon: float
    claimed: float
    exact: float
    x1: int
    x2: int
    d12: float
    pair_claimed: float
    pair_exact: float
    empirical: float
    tp: int
    fp: int
    n_eval: int
    alpha: float
    exact_ok: bool
    empirical_ok: bool
    passed: bool
    note: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def audit(case: AuditCase | str, epsilon: float | None = None, *, n_trials: int, alpha: float = 0.01,
          rng: Any = None) -> AuditResult:
    """Audit one mechanism: exact level of its channel and empirical lower bound of its sampler.

    Parameters
    ----------
    case : AuditCase or str
        A case, or the name of a registered mechanism (then ``epsilon`` is required).
    epsilon : float, optional
    n_trials : int
        Reports per input for :func:`empirical_epsilon`.
    alpha : float
        Error probability of the empirical bound.
    rng : Generator, int or None
    """
    rng = check_random_state(rng)
    if isinstance(case, str):
        if epsilon is None:
            raise ValueError("epsilon is required when case is a mechanism name")
        case = build_case(case, epsilon)
    elif not isinstance(case, AuditCase):
        raise TypeError(f"case must be an AuditCase or a mechanism name, got {type(case).__name__}")
    if case.exact is not None:
        exact = float(case.exact)
    else:
        exact = exact_epsilon(case.channel, case.distance)
    if case.pair_exact is not None:
        pair_exact = float(case.pair_exact)
    elif case.channel is not None:
        pair_exact = pair_epsilon(case.channel, case.x1, case.x2)
    else:
        pair_exact = math.nan
    d12 = float(case.distance[case.x1, case.x2]) if case.distance is not None else float(case.d12)
    emp = empirical_epsilon(case.sampler, case.x1, case.x2, n_trials=n_trials, alpha=alpha, rng=rng)
    pair_claimed = case.claimed * d12
    exact_ok = bool(exact <= case.claimed * (1 + 1e-9) + 1e-12)
    emp_ok = bool(emp.epsilon <= pair_claimed)
    return AuditResult(case.mechanism, float(case.epsilon), float(case.claimed), exact, int(case.x1), int(case.x2),
                       d12, pair_claimed, pair_exact, emp.epsilon, emp.tp, emp.fp, emp.n_eval, alpha, exact_ok,
                       emp_ok, exact_ok and emp_ok, case.note)


def _audit_task(task, rng):
    name, eps, n_trials, alpha = task
    return audit(name, eps, n_trials=n_trials, alpha=alpha, rng=rng)


def audit_grid(names, epsilons, *, n_trials: int, alpha: float, seed: int, n_jobs: int = 1) -> list[AuditResult]:
    """:func:`audit` every mechanism of ``names`` at every epsilon, seeds spawned from ``seed``.

    Results do not depend on ``n_jobs`` (:func:`ldpnb.parallel.sweep`).
    """
    from .parallel import sweep

    names = list(names)
    if not names:
        raise ValueError("names must not be empty")
    eps = [check_epsilon(e) for e in np.atleast_1d(epsilons).tolist()]
    if not eps:
        raise ValueError("epsilons must not be empty")
    n_trials = check_positive_int(n_trials, "n_trials", minimum=2)
    tasks = [(n, e, n_trials, alpha) for n in names for e in eps]
    return sweep(_audit_task, tasks, seed=seed, n_jobs=n_jobs)


# ---------------------------------------------------------------------------------------------
# the mutation: a broken unary encoding
# ---------------------------------------------------------------------------------------------


def broken_ue_perturb(x: Any, k: int, epsilon: float, *, rng: Any = None) -> np.ndarray:
    """A deliberately broken SUE: the true bit is kept with probability ``e^eps / (e^eps + 1)``.

    Correct SUE keeps it with ``p = e^{eps/2} / (e^{eps/2} + 1)`` (the budget is shared by the two
    bits that differ between neighbours); spending the whole budget on the true bit makes the
    mechanism ``1.5 eps``-LDP (:func:`broken_ue_epsilon`), the pattern of bug #11 of pure-LDP
    found by LDP-Auditor.  For the audit's own test only.
    """
    from .mechanisms import ue_params
    from .utils import check_values

    rng = check_random_state(rng)
    epsilon = check_epsilon(epsilon)
    x = check_values(x, k)
    _, q = ue_params(epsilon, "sue")
    p_wrong = 1.0 / (1.0 + math.exp(-epsilon))
    bits = rng.random((x.size, k)) < q
    bits[np.arange(x.size), x] = rng.random(x.size) < p_wrong
    return bits


def broken_ue_epsilon(epsilon: float) -> float:
    """True level of :func:`broken_ue_perturb`: ``ln(p'(1 - q) / ((1 - p') q)) = 1.5 eps``."""
    from .mechanisms import ue_params

    epsilon = check_epsilon(epsilon)
    _, q = ue_params(epsilon, "sue")
    pw = 1.0 / (1.0 + math.exp(-epsilon))
    return math.log(pw * (1 - q) / ((1 - pw) * q))


def audit_broken_ue(epsilon: float, *, n_trials: int, alpha: float = 0.01, rng: Any = None, k: int = 6) -> AuditResult:
    """Audit :func:`broken_ue_perturb` against its (false) claim ``eps``; ``passed=False`` = caught."""

    def sampler(x, n, r):
        b = broken_ue_perturb(np.full(n, x), k, epsilon, rng=r)
        return 2 * b[:, 0].astype(np.int64) + b[:, 1]

    case = AuditCase("broken SUE (mutation)", epsilon, epsilon, sampler, 0, 1, exact=broken_ue_epsilon(epsilon),
                     pair_exact=broken_ue_epsilon(epsilon),
                     note="true bit kept with e^eps/(e^eps+1) instead of e^(eps/2)/(e^(eps/2)+1)")
    return audit(case, n_trials=n_trials, alpha=alpha, rng=rng)
