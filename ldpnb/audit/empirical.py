"""Empirical privacy audits: Clopper-Pearson lower bounds on the privacy loss of a sampler
(LDP-Auditor style), audit cases and results.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Callable

import numpy as np
from scipy import stats

from ldpnb.contracts import (
    EPSILON,
    MAX_DOMAIN,
    POSITIVE,
    SEED,
    Array,
    Boolean,
    Callable_,
    Channel,
    Counts,
    DistanceMatrix,
    Distribution,
    Instance,
    Integer,
    Optional,
    Probability,
    Real,
    contract,
)
from ldpnb.mechanisms.unary import ue_params
from ldpnb.utils import check_random_state, check_values

_OPEN01 = Probability(open_left=True, open_right=True)

__all__ = [
    "clopper_pearson",
    "EmpiricalResult",
    "empirical_epsilon",
    "AuditCase",
    "AuditResult",
    "broken_ue_perturb",
    "broken_ue_epsilon",
    "bonferroni_alpha",
    "chi_square_gof",
]


Sampler = Callable[[int, int, np.random.Generator], np.ndarray]


# ---------------------------------------------------------------------------------------------
# statistics
# ---------------------------------------------------------------------------------------------


@contract(k=Integer(0, 1 << 53), n=Integer(1, 1 << 53), alpha=_OPEN01)
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
    if k > n:
        raise ValueError(f"k must be <= n, got k={k}, n={n}")
    lo = 0.0 if k == 0 else float(stats.beta.ppf(alpha / 2.0, k, n - k + 1))
    hi = 1.0 if k == n else float(stats.beta.ppf(1.0 - alpha / 2.0, k + 1, n - k))
    return lo, hi


@contract(alpha_total=_OPEN01, n_tests=Integer(1, 1 << 53))
def bonferroni_alpha(alpha_total: float, n_tests: int) -> float:
    """Per-test error probability ``alpha_total / n_tests`` (family-wise error <= ``alpha_total``)."""
    return alpha_total / n_tests


@contract(counts=Counts(), probs=Distribution(), min_expected=POSITIVE)
def chi_square_gof(counts: Any, probs: Any, *, min_expected: float = 5.0) -> tuple[float, int, float]:
    """Pearson chi-square goodness of fit of observed ``counts`` to the law ``probs``.

    Cells of expected count below ``min_expected`` are pooled into one cell (itself merged into the
    smallest other cell if still below ``min_expected``).  A draw in a cell of probability 0 gives
    ``(inf, df, 0.0)``: the sampler produced an impossible output.

    Returns
    -------
    (statistic, degrees of freedom, p-value)
        ``p = P(chi2_df >= statistic)``; ``df = 0`` (one cell) gives ``(0.0, 0, 1.0)``.
    """
    o_all, p_all = counts, probs
    if p_all.shape != o_all.shape:
        raise ValueError(f"counts and probs must have the same length, got {o_all.size} and {p_all.size}")
    n = o_all.sum()
    if n == 0:
        raise ValueError("counts must have a positive total (no draw to test)")
    pos = p_all > 0
    if np.any(o_all[~pos] > 0):
        return math.inf, int(pos.sum()) - 1, 0.0
    o, e = o_all[pos], n * p_all[pos]
    small = e < min_expected
    if small.any() and (~small).any():
        o = np.r_[o[~small], o[small].sum()]
        e = np.r_[e[~small], e[small].sum()]
        if e[-1] < min_expected and o.size > 1:
            j = int(np.argmin(e[:-1]))
            o[j] += o[-1]
            e[j] += e[-1]
            o, e = o[:-1], e[:-1]
    df = o.size - 1
    if df < 1:
        return 0.0, 0, 1.0
    stat = float(((o - e) ** 2 / e).sum())
    return stat, df, float(stats.chi2.sf(stat, df))


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
    c2 = np.bincount(inv[y1.size :], minlength=codes.size)
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


@contract(
    sampler=Callable_(),
    x1=Integer(0, 1 << 53),
    x2=Integer(0, 1 << 53),
    n_trials=Integer(2, 1 << 30),
    alpha=_OPEN01,
    rng=SEED,
    event=Optional(Callable_()),
    select_fraction=_OPEN01,
)
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
    ``exact`` may be given directly when the channel is too large to enumerate.  ``source`` is the
    :class:`~ldpnb.mechanisms.Mechanism` the case was built from (then ``exact`` is its
    :meth:`~ldpnb.mechanisms.Mechanism.tight_level`, from log-probabilities); ``code_channel[x, c]``
    is the law of the sampler's code ``c`` for input ``x`` implied by the exact channel (the channel
    itself when the codes are its columns), against which the audit tests the sampler.
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
    code_channel: np.ndarray | None = None
    source: Any = None

    def law_of_codes(self) -> np.ndarray | None:
        """``code_channel``, or ``channel`` when the codes are its columns, else ``None``."""
        if self.code_channel is not None:
            return self.code_channel
        return self.channel if self.codes_are_columns else None


AuditCase.__init__ = contract(
    mechanism=Instance(str, example="m"),
    epsilon=EPSILON,
    claimed=EPSILON,
    sampler=Callable_(),
    x1=Integer(0, 1 << 53),
    x2=Integer(0, 1 << 53),
    d12=POSITIVE,
    channel=Optional(Channel()),
    distance=Optional(DistanceMatrix()),
    exact=Optional(Real(0.0, None, finite=False)),
    pair_exact=Optional(Real(0.0, None, finite=False)),
    note=Instance(str, example=""),
    codes_are_columns=Boolean(),
    code_channel=Optional(Channel()),
)(AuditCase.__init__)


# ---------------------------------------------------------------------------------------------
# audits
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AuditResult:
    """One audited (mechanism, epsilon): claimed, exact and empirical levels.

    ``claimed``/``exact`` are per unit of distance for geo-ind mechanisms; ``pair_claimed`` =
    ``claimed * d12`` is what the empirical bound of the pair is compared with.  ``sampler_ok``:
    the sampler's reports of ``x1`` and ``x2`` follow the exact channel (Pearson chi-square at
    false-alarm rate ``check_alpha``; ``None`` when the case has no channel of its codes), with the
    smaller p-value in ``sampler_pvalue``.  ``passed`` is ``sampler_ok`` (unless ``None``) and
    ``exact <= claimed (1 + 1e-9)`` and ``empirical <= pair_claimed``: the exact level is only
    trusted for a sampler that agrees with its channel.
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
    sampler_ok: bool | None = None
    sampler_pvalue: float = math.nan
    check_alpha: float = math.nan

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


# ---------------------------------------------------------------------------------------------
# the mutation: a broken unary encoding
# ---------------------------------------------------------------------------------------------


@contract(x=Array(1, integer=True, low=0), k=Integer(2, MAX_DOMAIN), epsilon=EPSILON, rng=SEED)
def broken_ue_perturb(x: Any, k: int, epsilon: float, *, rng: Any = None) -> np.ndarray:
    """A deliberately broken SUE: the true bit is kept with probability ``e^eps / (e^eps + 1)``.

    Correct SUE keeps it with ``p = e^{eps/2} / (e^{eps/2} + 1)`` (the budget is shared by the two
    bits that differ between neighbours); spending the whole budget on the true bit makes the
    mechanism ``1.5 eps``-LDP (:func:`broken_ue_epsilon`), the pattern of bug #11 of pure-LDP
    found by LDP-Auditor.  For the audit's own test only.
    """
    rng = check_random_state(rng)
    x = check_values(x, k)
    _, q = ue_params(epsilon, "sue")
    p_wrong = 1.0 / (1.0 + math.exp(-epsilon))
    bits = rng.random((x.size, k)) < q
    bits[np.arange(x.size), x] = rng.random(x.size) < p_wrong
    return bits


@contract(epsilon=EPSILON)
def broken_ue_epsilon(epsilon: float) -> float:
    """True level of :func:`broken_ue_perturb`: ``ln(p'(1 - q) / ((1 - p') q)) = 1.5 eps``."""

    a, h = math.exp(-epsilon), math.exp(-epsilon / 2.0)
    log_pw, log_1mpw = -math.log1p(a), -epsilon - math.log1p(a)  # p' = 1/(1 + e^-eps)
    log_q, log_1mq = -epsilon / 2.0 - math.log1p(h), -math.log1p(h)  # SUE's q = e^{-eps/2}/(1 + e^{-eps/2})
    return (log_pw - log_1mpw) + (log_1mq - log_q)
