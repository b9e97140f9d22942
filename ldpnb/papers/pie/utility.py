r"""PIE paper (Murakami and Takahashi 2021): distribution estimation with the ε-RR and the (g, ε)-GLH,
Section 4.4 (Props. 4.6, 4.7, Thm 4.8) and Section 5.3 (Figs. 10-12).

Vocabulary: the RR (k-ary randomised response, Eq. 2) and the GLH (general local hashing, Eq. 3)
are frequency oracles with support probabilities :math:`(p, q)`: a report supports the true value
with probability :math:`p` and any other value with probability :math:`q`.  The paper writes
:math:`(\mu, \nu)`; here they come from the core mechanisms,
:func:`ldpnb.mechanisms.grr_params` (:math:`p = e^\varepsilon/(k+e^\varepsilon-1)`,
:math:`q = 1/(k+e^\varepsilon-1)`) and :func:`ldpnb.mechanisms.lh_params`
(:math:`p = e^\varepsilon/(g+e^\varepsilon-1)`, :math:`q = 1/g`), and the estimator ``emp``
(Eqs. 19, 20) is :func:`ldpnb.estimators.fo_estimate`.

At the paper's scale (:math:`n = 1{,}370{,}637` users, :math:`k = 10{,}500{,}393` POIs) a run of
Figs. 10-12 needs the support counts of the about :math:`10^6` occupied POIs and, for the other
:math:`\approx 9.5\times 10^6` POIs (no user holds them, :math:`p(x) = 0`), only the *histogram*
of their counts: the estimate and the loss of such a POI depend on its count alone.
:func:`simulate_support` draws both exactly in law (the GLH with a truly random hash family,
through :func:`ldpnb.mechanisms.lh_simulate_support_counts`).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np
import pandas as pd
from scipy import stats

from ldpnb import stats as stats_
from ldpnb.contracts import (
    EPSILON,
    MAX_ENTRIES,
    POSITIVE,
    SEED,
    AnyOf,
    Array,
    Counts,
    Instance,
    Integer,
    OneOf,
    Optional,
    Probability,
    Real,
    contract,
)
from ldpnb.estimators import fo_estimate
from ldpnb.measures.reidentification import alpha_rr, fano_lower_bound
from ldpnb.mechanisms import grr_params, lh_params, lh_simulate_support_counts
from ldpnb.stats import Estimate
from ldpnb.utils import check_random_state

__all__ = [
    "support_params",
    "rr_variance",
    "glh_variance",
    "glh_variance_fixed_theta",
    "glh_variance_limit",
    "rr_loss_sum",
    "glh_loss_sum",
    "gaussian_count_threshold",
    "binomial_count_threshold",
    "count_threshold",
    "loss_moments",
    "mean_relative_error_tail",
    "zipf_profile",
    "UtilityPopulation",
    "synthetic_population",
    "simulate_support",
    "utility_run",
    "utility_runs",
    "summarise_runs",
    "relative_error_moments",
    "expected_relative_error",
    "best_mixture_under_limit",
    "max_mean_under_limit",
    "printed_pair_distance",
    "crossing",
    "crossing_estimate",
    "rr_guarantee",
    "run_matrix",
]

_TINY = float(np.finfo(float).tiny)
#: Largest size in a closed form (integers exact in float64): no allocation depends on it.
_EXACT = 2**53
_EPS = AnyOf(EPSILON, Array((0, 1), low=_TINY))
_P = AnyOf(Real(0, 1), Array((0, 1), low=0, high=1))
_SIZE = Integer(2, _EXACT)
_N = Integer(1, _EXACT)
#: the GLH's hash range of a mechanism: an integer >= 2 (integral floats accepted, 2.5 refused)
_G = AnyOf(Integer(2, 1 << 32), Array((0, 1), low=2, integer=True))
#: g in Eq. (23) as a function of a real g >= 2, its continuous relaxation: the optimum over g
#: (e^eps + 1, Sec. 4.4) and the curve of Eq. (51) over g in Fig. 12 are taken on it
_G_REAL = AnyOf(Integer(2, 1 << 32), Array((0, 1), low=2))
_MECH = OneOf("rr", "glh")
_KINDS = ("binomial", "gaussian")


def _inv_em1(epsilon) -> np.ndarray:
    r""":math:`1/(e^\varepsilon - 1)` computed as :math:`e^{-\varepsilon}/(1 - e^{-\varepsilon})`: finite
    (and 0 where it underflows) for every ε > 0, where :math:`(e^\varepsilon - 1)^2` overflows from
    ε ≈ 355 and the ratios of the textbook forms become NaN."""
    e = np.asarray(epsilon, dtype=float)
    return np.exp(-e) / -np.expm1(-e)


# ---------------------------------------------------------------------------------------------
# Support probabilities and expected losses (Props. 4.6, 4.7, Thm 4.8)
# ---------------------------------------------------------------------------------------------


@contract(mechanism=_MECH, k=_SIZE, epsilon=EPSILON, g=Optional(Integer(2, 1 << 32)))
def support_params(mechanism: str, k: int, epsilon: float, g: int | None = None) -> tuple[float, float]:
    r"""Support probabilities :math:`(p, q)` of the ε-RR (``k`` values) or the (g, ε)-GLH.

    The paper's :math:`(\mu_{RR}, \nu_{RR})` (Eq. 19) and :math:`(\mu_{GLH}, \nu_{GLH})` (Eq. 20),
    from :func:`ldpnb.mechanisms.grr_params` and :func:`ldpnb.mechanisms.lh_params`.
    """
    if mechanism == "rr":
        return grr_params(k, epsilon)
    if g is None:
        raise ValueError("g is required for the GLH")
    _, p, q = lh_params(epsilon, g)
    return p, q


@contract(p=_P, n=_N, k=_SIZE, epsilon=_EPS)
def rr_variance(p, n: int, k: int, epsilon):
    r"""Expected :math:`l_2` loss of emp for one symbol under the ε-RR (Prop. 4.6, Eq. 22):

    .. math:: \mathbb E[(p(x)-\hat p(x))^2] = \frac{k+e^\varepsilon-2}{n(e^\varepsilon-1)^2}
              + \frac{p(x)(k-2)}{n(e^\varepsilon-1)}.

    Vectorised over ``p`` and ``epsilon``; computed with :math:`u = 1/(e^\varepsilon - 1)` as
    :math:`((k-1)u^2 + u + p(x)(k-2)u)/n`, finite at any ε.

    Examples
    --------
    >>> [float(rr_variance(0.5, 100, 4, e)) for e in (710.0, 1e4)]   # (e^710 - 1)^2 overflows
    [8.95257245135e-311, 0.0]
    """
    u = _inv_em1(epsilon)
    return ((k - 1) * u * u + u + np.asarray(p, dtype=float) * (k - 2) * u) / n


@contract(p=_P, n=_N, g=_G_REAL, epsilon=_EPS)
def glh_variance(p, n: int, g, epsilon):
    r"""Expected :math:`l_2` loss of emp for one symbol under the (g, ε)-GLH (Prop. 4.7, Eq. 23):

    .. math:: \frac{(g+e^\varepsilon-1)^2}{n(e^\varepsilon-1)^2(g-1)}
              + \frac{p(x)(g^2-2g-e^\varepsilon+1)}{n(e^\varepsilon-1)(g-1)}.

    Vectorised over ``p``, ``g`` and ``epsilon``; computed with :math:`u = 1/(e^\varepsilon - 1)` as
    :math:`[(gu + 1)^2 + p(x)((g-1)^2u - 1 - u)]/(n(g-1))`, finite at any ε (the limit
    :math:`(1 - p(x))/(n(g-1))` as ε → ∞).  ``g`` may be real (>= 2): the formula's continuous
    relaxation in g, on which the optimum :math:`g = e^\varepsilon + 1` is found; a mechanism's hash
    range is an integer (:func:`glh_variance_fixed_theta`, ``ldpnb.measures.theta_glh`` refuse 2.5).

    Examples
    --------
    >>> float(glh_variance(0.25, 100, 5, 1e4))
    0.001875
    """
    u = _inv_em1(epsilon)
    g = np.asarray(g, dtype=float)
    return ((g * u + 1) ** 2 + np.asarray(p, dtype=float) * ((g - 1) ** 2 * u - 1 - u)) / (n * (g - 1))


@contract(p=_P, n=_N, g=_G, theta=Real(0, 1, low_open=True, high_open=True))
def glh_variance_fixed_theta(p, n: int, g, theta: float):
    r"""Eq. (23) at a fixed MI loss parameter :math:`\theta_{GLH}` (Eq. 51, proof of Thm 4.8):

    .. math:: \frac{1-p(x)\theta}{n\theta^2(g-1)} + \frac{p(x)(1-\theta)}{n\theta},

    strictly decreasing in :math:`g`.
    """
    p = np.asarray(p, dtype=float)
    return (1 - p * theta) / (n * theta**2 * (np.asarray(g, dtype=float) - 1)) + p * (1 - theta) / (n * theta)


@contract(p=_P, n=_N, theta=Real(0, 1, low_open=True, high_open=True))
def glh_variance_limit(p, n: int, theta: float):
    r"""The :math:`g\to\infty` limit of Eq. (51): :math:`p(x)(1-\theta)/(n\theta)` (Eq. 24, Thm 4.8)."""
    return np.asarray(p, dtype=float) * (1 - theta) / (n * theta)


@contract(mass=Real(0, 1), n_symbols=_N, n=_N, k=_SIZE, epsilon=_EPS)
def rr_loss_sum(mass: float, n_symbols: int, n: int, k: int, epsilon):
    r"""Eq. (22) summed over ``n_symbols`` symbols of total probability ``mass`` (Eq. 22 is affine in
    :math:`p(x)`): ``n_symbols`` times the first term plus ``mass`` times the slope (finite at any ε,
    as :func:`rr_variance`)."""
    u = _inv_em1(epsilon)
    return (n_symbols * ((k - 1) * u * u + u) + mass * (k - 2) * u) / n


@contract(mass=Real(0, 1), n_symbols=_N, n=_N, g=_G_REAL, epsilon=_EPS)
def glh_loss_sum(mass: float, n_symbols: int, n: int, g, epsilon):
    r"""Eq. (23) summed over ``n_symbols`` symbols of total probability ``mass`` (affine in :math:`p(x)`;
    finite at any ε, as :func:`glh_variance`); ``g`` may be real (>= 2), the continuous relaxation
    drawn as a curve over g in Fig. 12."""
    u = _inv_em1(epsilon)
    g = np.asarray(g, dtype=float)
    return (n_symbols * (g * u + 1) ** 2 + mass * ((g - 1) ** 2 * u - 1 - u)) / (n * (g - 1))


# ---------------------------------------------------------------------------------------------
# The significance threshold of emp+thr (Sec. 5.3), on the support count
# ---------------------------------------------------------------------------------------------


@contract(
    n=_N,
    p=Real(0, 1),
    q=Real(0, 1, low_open=True, high_open=True),
    k_candidates=_N,
    alpha=Real(0, 1, low_open=True, high_open=True),
)
def gaussian_count_threshold(n: int, p: float, q: float, k_candidates: int, alpha: float = 0.05) -> float:
    r"""Bonferroni threshold with the normal approximation of Wang et al. (2017), on the count.

    emp+thr zeroes :math:`\hat p(x) < T` with :math:`T = \Phi^{-1}(1-\alpha/k)\sqrt{\mathrm{Var}_0}`,
    :math:`\mathrm{Var}_0 = q(1-q)/(n(p-q)^2)` the variance of :math:`\hat p(x)` when :math:`p(x) = 0`.
    With :math:`\hat p(x) = (c(x) - nq)/(n(p-q))` this keeps exactly the counts

    .. math:: c(x) \ge n q + \Phi^{-1}(1-\alpha/k)\sqrt{n q (1-q)} .

    The PIE paper (Sec. 5.3) sets the level to 0.05 "in the same way as [31, 58, 86]" and prints
    no formula; this is the formula of its reference [86].
    """
    if not p > q:
        raise ValueError(f"p must exceed q, got p={p}, q={q}")
    z = stats.norm.isf(alpha / k_candidates)
    return float(n * q + z * math.sqrt(n * q * (1 - q)))


@contract(
    n=_N, q=Real(0, 1, low_open=True, high_open=True), k_candidates=_N, alpha=Real(0, 1, low_open=True, high_open=True)
)
def binomial_count_threshold(n: int, q: float, k_candidates: int, alpha: float = 0.05) -> int:
    r"""The exact Bonferroni test of the same null hypothesis :math:`p(x) = 0`, on the count.

    Under the null the support count is :math:`\mathrm{Bin}(n, q)`; the smallest count
    :math:`c^*` with :math:`\Pr[\mathrm{Bin}(n, q) \ge c^*] \le \alpha/k` is returned, and keeping
    :math:`c(x) \ge c^*` is a family-wise level-α test over the :math:`k` candidates.  It differs
    from :func:`gaussian_count_threshold` when :math:`nq` is small (a Poisson null): for the GLH
    with :math:`g = 10^8` at the paper's :math:`n`, :math:`nq = 0.0137` and a single hash
    collision passes the Gaussian threshold (Sec. 5.3 of the chapter).
    """
    level = alpha / k_candidates
    c = int(stats.binom.isf(level, n, q)) + 1
    while c > 0 and stats.binom.sf(c - 2, n, q) <= level:  # guard against rounding in isf
        c -= 1
    while stats.binom.sf(c - 1, n, q) > level:
        c += 1
    return c


@contract(
    kind=OneOf("binomial", "gaussian", "none"),
    n=_N,
    p=Real(0, 1),
    q=Real(0, 1, low_open=True, high_open=True),
    k_candidates=_N,
    alpha=Real(0, 1, low_open=True, high_open=True),
)
def count_threshold(kind: str, n: int, p: float, q: float, k_candidates: int, alpha: float = 0.05) -> float:
    """Count threshold :math:`c^*` of emp+thr (keep :math:`x` iff :math:`c(x) \\ge c^*`): ``"binomial"``
    (:func:`binomial_count_threshold`), ``"gaussian"`` (:func:`gaussian_count_threshold`) or ``"none"``."""
    if kind == "binomial":
        return float(binomial_count_threshold(n, q, k_candidates, alpha))
    if kind == "gaussian":
        return gaussian_count_threshold(n, p, q, k_candidates, alpha)
    return -math.inf


# ---------------------------------------------------------------------------------------------
# Exact moments of a summed loss (the error bars of Figs. 10 and 12)
# ---------------------------------------------------------------------------------------------


def _binom_moments(m, prob):
    m = np.asarray(m, dtype=float)
    v = m * prob * (1 - prob)
    return v, v * (1 + 3 * (m - 2) * prob * (1 - prob))


@contract(
    holder_counts=Array(1, min_size=0, low=0),
    n=_N,
    p=Real(0, 1),
    q=Real(0, 1, low_open=True, high_open=True),
    k_zero=Integer(0, _EXACT),
)
def loss_moments(holder_counts, n: int, p: float, q: float, *, k_zero: int = 0) -> tuple[float, float]:
    r"""Exact mean and per-run standard deviation of the emp loss summed over a set of symbols.

    The support count of a symbol held by :math:`c` users is
    :math:`\mathrm{Bin}(c, p) + \mathrm{Bin}(n-c, q)` (for the RR, Eq. 2; for the GLH with a truly
    random hash family, Eq. 3), and :math:`\hat p = a\,c(x) - b` with :math:`a = 1/(n(p-q))` is
    unbiased, so the loss of the symbol is :math:`a^2(c(x) - \mathbb E c(x))^2`: its mean is
    :math:`a^2\sigma^2` (Eqs. 22, 23) and its variance :math:`a^4(\mu_4 - \sigma^4)`, with the
    central moments of a binomial, :math:`\sigma^2 = mr(1-r)`,
    :math:`\mu_4 = \sigma^2(1 + 3(m-2)r(1-r))`, and :math:`\mu_4(A+B) = \mu_4(A) + \mu_4(B) +
    6\sigma_A^2\sigma_B^2`.  The counts of different symbols are independent for the GLH; for the RR
    their multinomial coupling is of order :math:`1/k` and neglected.  ``k_zero`` adds symbols that no
    user holds.  Returns ``(mean, sd)``.
    """
    if not p > q:
        raise ValueError(f"p must exceed q, got p={p}, q={q}")
    c = np.asarray(holder_counts, dtype=float)
    if np.any(c > n):
        raise ValueError("holder_counts cannot exceed n")
    a = 1.0 / (n * (p - q))
    vA, m4A = _binom_moments(c, p)
    vB, m4B = _binom_moments(n - c, q)
    var = vA + vB
    m4 = m4A + m4B + 6 * vA * vB
    mean = a * a * float(var.sum())
    v_sum = a**4 * float((m4 - var * var).sum())
    if k_zero:
        v0, m40 = _binom_moments(n, q)
        mean += k_zero * a * a * float(v0)
        v_sum += k_zero * a**4 * float(m40 - v0 * v0)
    return float(mean), float(math.sqrt(max(v_sum, 0.0)))


# ---------------------------------------------------------------------------------------------
# Population and exact count-level simulation
# ---------------------------------------------------------------------------------------------


@contract(k=Integer(1, MAX_ENTRIES), s=Real(0, 100))
def zipf_profile(k: int, s: float) -> np.ndarray:
    """Zipf popularity over ``k`` symbols: :math:`p(r) \\propto r^{-s}`, ranks :math:`r = 1..k`."""
    w = np.arange(1, k + 1, dtype=float) ** (-float(s))
    return w / w.sum()


class UtilityPopulation:
    r"""The data :math:`X_{1:n}` of a utility experiment, stored by its occupied symbols.

    ``counts`` holds the number of users per symbol (length :math:`k`); only the symbols held by at
    least one user are kept (``holders``, ``p``), plus :math:`k_0`, the number of the others.  The
    top-:math:`\phi` sets of the figures (``tops[phi]``, positions in ``holders``, largest first)
    contain occupied symbols only.
    """

    @contract(counts=Counts(min_size=2), tops=Instance(tuple, example=(20, 100)))
    def __init__(self, counts, tops: tuple = (20, 100)) -> None:
        c = np.asarray(counts, dtype=np.int64)
        self.k = int(c.size)
        self.n = int(c.sum())
        if self.n < 1:
            raise ValueError("counts must hold at least one user")
        if self.n > MAX_ENTRIES:
            raise ValueError(f"counts must hold at most {MAX_ENTRIES} users (one report each), got {self.n}")
        if not tops or any(isinstance(t, bool) or not isinstance(t, (int, np.integer)) or t < 1 for t in tops):
            raise ValueError(f"tops must be a non-empty tuple of sizes >= 1 (a top-t set), got {tops!r}")
        self.holders = c[c > 0]
        self.k0 = self.k - int(self.holders.size)
        self.p = self.holders / self.n
        order = np.argsort(-self.holders, kind="stable")
        self.tops = {int(t): order[: int(t)] for t in tops}

    @contract(phi=Optional(Integer(1, MAX_ENTRIES)))
    def mass(self, phi: int | None) -> float:
        """Total probability of the top-``phi`` symbols (all symbols for ``None``); ``phi`` is one of the
        sizes ``tops`` the population was built with."""
        if phi is not None and phi not in self.tops:
            raise ValueError(f"phi must be None or one of the top sizes {sorted(self.tops)}, got {phi}")
        return 1.0 if phi is None else float(self.p[self.tops[phi]].sum())

    def __repr__(self) -> str:
        return f"UtilityPopulation(n={self.n:,}, k={self.k:,}, occupied={self.holders.size:,})"


_POP = Instance(UtilityPopulation, example=UtilityPopulation([3, 2, 0, 1]))
_RUNS = Instance(pd.DataFrame, example=pd.DataFrame({"mech": ["rr"], "eps": [1.0], "g": [0], "emp_all": [1.0]}))


@contract(n=Integer(1, MAX_ENTRIES), k=Integer(2, MAX_ENTRIES), s=Real(0, 100), rng=SEED)
def synthetic_population(n: int, k: int, s: float = 0.75, *, rng=None) -> UtilityPopulation:
    """``n`` users, each holding one symbol drawn from Zipf(``s``) over ``k`` symbols (one multinomial).

    The stand-in of the LT data of Sec. 5.3 (the first location of the latter half of each
    user's trace), which is not public; the exponent is a calibration (see the chapter).
    """
    rng = check_random_state(rng)
    return UtilityPopulation(rng.multinomial(n, zipf_profile(k, s)))


def _binom_pmf_support(m: int, prob: float, tail: float = 1e-300) -> np.ndarray:
    """pmf of Bin(m, prob) on 0..c_max, the mass beyond c_max (below ``tail``) folded into the last bin."""
    lam = m * prob
    cmax = int(min(m, lam + 40 * math.sqrt(lam + 1) + 60))
    pmf = stats.binom.pmf(np.arange(cmax + 1), m, prob)
    pmf[-1] += max(0.0, 1.0 - pmf.sum())
    return pmf / pmf.sum()


@contract(population=_POP, mechanism=_MECH, epsilon=EPSILON, g=Optional(Integer(2, 1 << 32)), rng=SEED)
def simulate_support(
    population: UtilityPopulation, mechanism: str, epsilon: float, *, g: int | None = None, rng=None
) -> tuple[np.ndarray, np.ndarray]:
    r"""Support counts of one run of ``n`` reports, exact in law: ``(counts, zero_histogram)``.

    ``counts[i]`` is the support count of the i-th occupied symbol; ``zero_histogram[c]`` the number
    of unoccupied symbols whose support count is ``c``.

    * ε-RR (Eq. 2) as a mixture: a user keeps her value with probability
      :math:`\theta_{RR} = p - q` and otherwise reports a uniform draw from :math:`\mathcal X`
      (as in :func:`ldpnb.mechanisms.grr_simulate_counts`).  Kept reports are
      :math:`\mathrm{Bin}(c_x, \theta)` per occupied symbol; of the :math:`U` re-drawn ones,
      :math:`\mathrm{Bin}(U, k_1/k)` land uniformly on the :math:`k_1` occupied symbols and the rest
      uniformly on the :math:`k_0` others, whose counts are tallied into the histogram.
    * (g, ε)-GLH with a truly random hash family (Eq. 3): independently over symbols,
      :math:`c(x) \sim \mathrm{Bin}(n p(x), p) + \mathrm{Bin}(n(1-p(x)), 1/g)`, drawn for the occupied
      symbols by :func:`ldpnb.mechanisms.lh_simulate_support_counts`; the :math:`k_0` unoccupied
      symbols are i.i.d. :math:`\mathrm{Bin}(n, 1/g)`, so their histogram is one multinomial draw.
    """
    rng = check_random_state(rng)
    pop = population
    k1 = int(pop.holders.size)
    if mechanism == "rr":
        p, q = grr_params(pop.k, epsilon)
        kept = rng.binomial(pop.holders, p - q)
        u = int(pop.n - kept.sum())
        u1 = int(rng.binomial(u, k1 / pop.k))
        counts = kept + np.bincount(rng.integers(0, k1, size=u1), minlength=k1)
        per_cell = np.zeros(0, dtype=np.int64)
        if pop.k0:  # (if k0 = 0, then u1 = u: every re-drawn report lands on an occupied symbol)
            per_cell = np.unique(rng.integers(0, pop.k0, size=u - u1), return_counts=True)[1]
        hist = np.bincount(per_cell, minlength=1).astype(np.int64)
        hist[0] = pop.k0 - per_cell.size
        return counts.astype(np.int64), hist
    if g is None:
        raise ValueError("g is required for the GLH")
    counts = lh_simulate_support_counts(pop.holders, epsilon, g, rng=rng)
    hist = rng.multinomial(pop.k0, _binom_pmf_support(pop.n, 1.0 / g)) if pop.k0 else np.zeros(1, dtype=np.int64)
    return counts, hist.astype(np.int64)


@contract(
    population=_POP,
    mechanism=_MECH,
    epsilon=EPSILON,
    g=Optional(Integer(2, 1 << 32)),
    alpha=Real(0, 1, low_open=True, high_open=True),
    rng=SEED,
)
def utility_run(
    population: UtilityPopulation,
    mechanism: str,
    epsilon: float,
    *,
    g: int | None = None,
    alpha: float = 0.05,
    rng=None,
) -> dict[str, Any]:
    r"""One run of the utility experiment of Sec. 5.3 (Figs. 10-12): the summed :math:`l_2` losses.

    emp (Eqs. 19, 20; :func:`ldpnb.estimators.fo_estimate`) and emp+thr, which sets to 0 every
    estimate whose count is below the Bonferroni threshold at level ``alpha`` (both readings,
    :func:`binomial_count_threshold` and :func:`gaussian_count_threshold`, on the same reports).
    Returns, for ``est`` in ``emp``, ``binomial``, ``gaussian`` and each top set :math:`\phi` of the
    population and all :math:`k` symbols (``"all"``), ``f"{est}_{phi}"`` the summed loss
    :math:`\sum_{x\in\mathrm{top}\,\phi}(p(x)-\hat p(x))^2`; ``rel_{est}`` the mean relative error
    :math:`|p(x)-\hat p(x)|/p(x)` over the top 20 (Fig. 11); ``top20_{est}`` those 20 estimates;
    ``cstar_{est}`` the count thresholds and ``kept_zero_{est}`` the number of unoccupied symbols
    that emp+thr keeps.
    """
    pop = population
    p, q = support_params(mechanism, pop.k, epsilon, g)
    counts, hist = simulate_support(pop, mechanism, epsilon, g=g, rng=rng)
    est = fo_estimate(counts, pop.n, p, q)
    sq = (pop.p - est) ** 2
    c0 = np.arange(hist.size)
    sq0 = hist * ((c0 - pop.n * q) / (pop.n * (p - q))) ** 2  # unoccupied symbols with count c
    out: dict[str, Any] = {"emp_all": float(sq.sum() + sq0.sum())}
    for phi, idx in pop.tops.items():
        out[f"emp_{phi}"] = float(sq[idx].sum())
    if 20 in pop.tops:
        i20 = pop.tops[20]
        out["rel_emp"] = float(np.mean(np.abs(pop.p[i20] - est[i20]) / pop.p[i20]))
    for kind in _KINDS:
        cstar = count_threshold(kind, pop.n, p, q, pop.k, alpha)
        keep = counts >= cstar
        loss = np.where(keep, sq, pop.p**2)
        out[f"{kind}_all"] = float(loss.sum() + sq0[c0 >= cstar].sum())
        for phi, idx in pop.tops.items():
            out[f"{kind}_{phi}"] = float(loss[idx].sum())
        if 20 in pop.tops:
            e20 = np.where(keep[i20], est[i20], 0.0)
            out[f"rel_{kind}"] = float(np.mean(np.abs(pop.p[i20] - e20) / pop.p[i20]))
            out[f"top20_{kind}"] = e20
        out[f"cstar_{kind}"] = float(cstar)
        out[f"kept_zero_{kind}"] = int(hist[c0 >= cstar].sum())
    return out


@contract(
    population=_POP,
    settings=Instance(list, tuple, example=[("rr", 10.0, None)]),
    runs=Integer(1, 1 << 16),
    alpha=Real(0, 1, low_open=True, high_open=True),
    rng=SEED,
)
def utility_runs(
    population: UtilityPopulation, settings: Sequence[tuple], runs: int, *, alpha: float = 0.05, rng=None
) -> pd.DataFrame:
    """``runs`` runs of :func:`utility_run` for each ``(mechanism, epsilon, g)`` of ``settings``.

    One row per run, with the labels ``mech``, ``eps``, ``g`` (0 for the RR) and ``run``; all
    runs draw from the one generator ``rng`` in order (one stream per experiment).
    """
    rng = check_random_state(rng)
    rows = []
    for mech, eps, g in settings:
        for r in range(runs):
            res = utility_run(population, mech, float(eps), g=None if g is None else int(g), alpha=alpha, rng=rng)
            rows.append({"mech": mech, "eps": float(eps), "g": 0 if g is None else int(g), "run": r, **res})
    return pd.DataFrame(rows)


@contract(runs=_RUNS, population=_POP, quantiles=Instance(tuple, example=(0.1, 0.9)))
def summarise_runs(runs: pd.DataFrame, population: UtilityPopulation, *, quantiles: tuple = (0.1, 0.9)) -> pd.DataFrame:
    r"""Per setting and loss: mean over runs and the 10-90 % band of the runs (their spread, for the
    figures), and for emp the expectation of Eqs. (22)/(23) with its exact per-run SD
    (:func:`loss_moments`).  Index ``(mech, eps, g)``.  The uncertainty of a mean is an
    :mod:`ldpnb.stats` estimate over the runs (:func:`run_matrix`), not a column here.
    """
    pop = population
    losses = [
        c
        for c in runs.columns
        if c.split("_")[0] in ("emp", *_KINDS) and c.split("_")[-1] in ("all", *map(str, pop.tops))
    ]
    rows = []
    for (mech, eps, g), grp in runs.groupby(["mech", "eps", "g"], sort=False):
        R = len(grp)
        p, q = support_params(mech, pop.k, float(eps), None if g == 0 else int(g))
        row = {"mech": mech, "eps": eps, "g": g, "runs": R}
        for col in losses:
            v = grp[col].to_numpy()
            row[f"{col}_mean"] = float(v.mean())
            row[f"{col}_lo"], row[f"{col}_hi"] = (float(x) for x in np.quantile(v, quantiles))
        for col in [c for c in grp.columns if c.startswith("rel_")]:
            row[f"{col}_mean"] = float(grp[col].mean())
        for phi in (*pop.tops, None):
            key = "all" if phi is None else str(phi)
            if phi is None:
                m, sd = loss_moments(pop.holders, pop.n, p, q, k_zero=pop.k0)
            else:
                m, sd = loss_moments(pop.holders[pop.tops[phi]], pop.n, p, q)
            row[f"emp_{key}_expected"], row[f"emp_{key}_sd"] = m, sd
        rows.append(row)
    return pd.DataFrame(rows).set_index(["mech", "eps", "g"])


# ---------------------------------------------------------------------------------------------
# Fig. 11: the exact expected relative error of emp+thr, and what the printed pair requires
# ---------------------------------------------------------------------------------------------


def _pmf(m: int, prob: float, tail: float = 1e-13) -> tuple[int, np.ndarray]:
    lo, hi = stats.binom.ppf([tail, 1 - tail], m, prob)
    lo = int(max(lo - 1, 0))
    x = np.arange(lo, int(hi) + 1)
    return lo, stats.binom.pmf(x, m, prob)


@contract(
    holder_counts=Array(1, low=1),
    n=Integer(2, MAX_ENTRIES),
    k=Integer(2, _EXACT),
    epsilon=EPSILON,
    kind=OneOf("binomial", "gaussian", "none"),
    alpha=Real(0, 1, low_open=True, high_open=True),
)
def relative_error_moments(
    holder_counts, n: int, k: int, epsilon: float, kind: str = "binomial", alpha: float = 0.05
) -> tuple[np.ndarray, np.ndarray]:
    r"""Exact mean and variance of the relative error :math:`r = |p - \hat p\,1[c(x)\ge c^*]|/p` of
    emp+thr under the ε-RR, per symbol (Fig. 11).

    A symbol held by :math:`c` of the :math:`n` users has support count
    :math:`\mathrm{Bin}(c, p) + \mathrm{Bin}(n-c, q)` (Eq. 2), whose pmf is the convolution of the
    two (tails below :math:`10^{-13}` dropped), so both moments of :math:`r` are functions of
    :math:`c` alone.  Vectorised over ``holder_counts`` by a loop over its values.

    Examples
    --------
    >>> m, v = relative_error_moments([2000, 20000], 1_370_637, 10_500_393, 12.72)
    >>> bool(m[1] < m[0]) and bool(np.all(v > 0))
    True
    """
    mean, var = np.empty(np.size(holder_counts)), np.empty(np.size(holder_counts))
    for i, c in enumerate(np.asarray(holder_counts, dtype=np.int64).ravel()):
        f, r = _relative_error_law(int(c), n, k, epsilon, kind, alpha)
        mean[i] = float(np.sum(f * r))
        var[i] = float(max(np.sum(f * (r - mean[i]) ** 2), 0.0))
    return mean, var


def _relative_error_law(c: int, n: int, k: int, epsilon: float, kind: str, alpha: float):
    """The law of one symbol's relative error under the ε-RR with emp+thr: probabilities ``f`` of
    the support counts (Eq. 2, tails below 1e-13 dropped) and the error ``r`` at each count."""
    if c > n:
        raise ValueError("holder_counts cannot exceed n")
    p, q = grr_params(k, epsilon)
    cstar = count_threshold(kind, n, p, q, k, alpha)
    a, b = 1.0 / (n * (p - q)), q / (p - q)
    lo1, f1 = _pmf(int(c), p)
    lo2, f2 = _pmf(int(n - c), q)
    f = np.convolve(f1, f2)
    x = np.arange(f.size) + lo1 + lo2
    est = np.where(x >= cstar, x * a - b, 0.0)
    pc = c / n
    return f, np.abs(pc - est) / pc


@contract(
    holder_counts=Array(1, low=1, min_size=1),
    n=Integer(2, MAX_ENTRIES),
    k=Integer(2, _EXACT),
    epsilon=EPSILON,
    threshold=Real(0, None),
    kind=OneOf("binomial", "gaussian", "none"),
    alpha=Real(0, 1, low_open=True, high_open=True),
    step=Real(1e-7, 0.1),
)
def mean_relative_error_tail(
    holder_counts,
    n: int,
    k: int,
    epsilon: float,
    threshold: float,
    kind: str = "binomial",
    alpha: float = 0.05,
    step: float = 1e-4,
) -> tuple[float, float]:
    r"""Exact probability that one run's mean relative error over the symbols (one per entry of
    ``holder_counts``) reaches ``threshold``: :math:`\Pr[\frac1m\sum_x r_x \ge \text{threshold}]`
    under the ε-RR with emp+thr (Fig. 11), the symbols independent (up to :math:`O(1/k)`).

    Each symbol's error law is exact (:func:`relative_error_moments`); the sum's law is their
    convolution (FFT), with each error rounded down, then up, to a multiple of ``step``: the two
    results bracket the probability, ``(p_low, p_high)``.

    Examples
    --------
    >>> lo, hi = mean_relative_error_tail([2000] * 20, 1_370_637, 10_500_393, 10.0, 1.05)
    >>> bool(0 <= lo <= hi < 0.05)
    True
    """
    counts = np.asarray(holder_counts, dtype=np.int64).ravel()
    laws = {int(c): _relative_error_law(int(c), n, k, epsilon, kind, alpha) for c in np.unique(counts)}
    rmax = max(float(r.max()) for _, r in laws.values())
    size = int(np.ceil(rmax / step)) + 2
    length = 1 << int(np.ceil(np.log2(size * counts.size + 1)))
    if length > 1 << 26:
        raise ValueError(f"the grid of the sum is too long ({length}); use a coarser step")
    out = []
    for rnd in (np.floor, np.ceil):
        fourier = np.ones(length // 2 + 1, dtype=complex)
        for c in counts:
            f, r = laws[int(c)]
            g = np.zeros(size)
            np.add.at(g, rnd(r / step).astype(np.int64), f)
            fourier *= np.fft.rfft(g, length)
        law = np.clip(np.fft.irfft(fourier, length), 0.0, None)
        idx = int(np.ceil(threshold * counts.size / step - 1e-9))
        out.append(float(min(law[idx:].sum(), 1.0)))
    # the two roundings bracket the probability; the FFT's rounding error (~1e-15) can cross two
    # equal brackets, so the pair is returned in order
    return min(out), max(out)


@contract(
    holder_counts=Array(1, low=1),
    n=Integer(2, MAX_ENTRIES),
    k=Integer(2, _EXACT),
    epsilon=EPSILON,
    kind=OneOf("binomial", "gaussian", "none"),
    alpha=Real(0, 1, low_open=True, high_open=True),
)
def expected_relative_error(
    holder_counts, n: int, k: int, epsilon: float, kind: str = "binomial", alpha: float = 0.05
) -> np.ndarray:
    r"""Exact :math:`\mathbb E|p - \hat p\,1[c(x)\ge c^*]|/p` of emp+thr under the ε-RR, per symbol
    (the mean of :func:`relative_error_moments`).

    Examples
    --------
    >>> r = expected_relative_error([20000], 1_370_637, 10_500_393, 12.72)
    >>> bool(0 < r[0] < 0.1)
    True
    """
    return relative_error_moments(holder_counts, n, k, epsilon, kind, alpha)[0]


@contract(a=Array(1), b=Array(1), limit=Real())
def best_mixture_under_limit(a, b, limit: float) -> dict:
    r"""The mixture of the points :math:`(a_i, b_i)` with the largest mean of ``a`` among those whose
    mean of ``b`` is at most ``limit`` (a linear programme in two dimensions: its optimum is one
    point or a mixture of two).

    Returns ``dict(value, i, j, w)``: the optimum ``value`` is ``w a[i] + (1 - w) a[j]`` (``i == j``
    and ``w = 1`` for a single point); ``value = -inf`` and ``i = j = -1`` when no mixture meets
    the limit.  Any profile of 20 symbols is such a mixture (equal weights), so ``value`` bounds
    what a "mean over the top 20" can reach in expectation (Fig. 11).

    Examples
    --------
    >>> best_mixture_under_limit([1.0, 3.0], [0.0, 2.0], 1.0)
    {'value': 2.0, 'i': 0, 'j': 1, 'w': 0.5}
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"a and b must have the same shape, got {a.shape} and {b.shape}")
    out = dict(value=-math.inf, i=-1, j=-1, w=1.0)
    if np.any(b <= limit):
        i = int(np.flatnonzero(b <= limit)[np.argmax(a[b <= limit])])
        out = dict(value=float(a[i]), i=i, j=i, w=1.0)
    lo, hi = b[:, None], b[None, :]
    ok = (lo <= limit) & (hi > limit)
    if ok.any():
        w = np.where(ok, (limit - hi) / np.where(ok, lo - hi, 1.0), 0.0)
        val = np.where(ok, w * a[:, None] + (1 - w) * a[None, :], -np.inf)
        i, j = np.unravel_index(int(np.argmax(val)), val.shape)
        if val[i, j] > out["value"]:
            out = dict(value=float(val[i, j]), i=int(i), j=int(j), w=float(w[i, j]))
    return out


@contract(a=Array(1), b=Array(1), limit=Real())
def max_mean_under_limit(a, b, limit: float) -> float:
    r"""Largest mean of ``a`` over mixtures of the points :math:`(a_i, b_i)` whose mean of ``b`` is at
    most ``limit`` (the ``value`` of :func:`best_mixture_under_limit`); ``-inf`` when none meets it.

    Examples
    --------
    >>> max_mean_under_limit([1.0, 3.0], [0.0, 2.0], 1.0)
    2.0
    """
    return best_mixture_under_limit(a, b, limit)["value"]


@contract(
    holder_grid=Array(1, low=1),
    n=Integer(2, MAX_ENTRIES),
    k=Integer(2, _EXACT),
    eps_a=EPSILON,
    eps_b=EPSILON,
    limit_b=Real(0, None),
    printed_a=Real(),
    kind=OneOf("binomial", "gaussian", "none"),
    size=Integer(1, 1 << 16),
)
def printed_pair_distance(
    holder_grid,
    n: int,
    k: int,
    eps_a: float,
    eps_b: float,
    limit_b: float,
    printed_a: float,
    kind: str = "binomial",
    size: int = 20,
) -> dict:
    r"""How far a printed pair of single-run mean relative errors lies from what any profile reaches (Fig. 11).

    Over every profile of ``size`` symbols whose holder counts lie in ``holder_grid`` (a mixture of the
    per-symbol points :math:`(r_a(c), r_b(c))` of :func:`relative_error_moments`, :math:`r_a` at
    ``eps_a``, :math:`r_b` at ``eps_b``), ``max_mean`` is the largest expected mean error at
    ``eps_a`` among profiles whose expected mean error at ``eps_b`` is at most ``limit_b``
    (:func:`best_mixture_under_limit`); ``sd`` is the single-run standard deviation of that profile's
    mean error, :math:`\sqrt{\sum_x \mathrm{Var}\,r_a(c_x)}/\text{size}` (the symbols' counts are
    independent up to :math:`O(1/k)`); ``z = (printed_a - max_mean)/sd``.  ``p_low``, ``p_high``:
    the exact probability (bracketed, :func:`mean_relative_error_tail`) that one run of that
    profile, rounded to whole symbols (``ceil(w size)`` at the holder count of weight ``w``, so that
    it still meets ``limit_b``), has a mean error at ``eps_a`` of at least ``printed_a``; ``counts``:
    that profile.  When no profile has an expected mean error at ``eps_b`` of at most ``limit_b``,
    none explains the pair: ``max_mean = -inf``, ``sd = nan``, ``z = inf``, ``p_low = p_high = 0``
    and ``counts = []``.

    Examples
    --------
    >>> grid = np.array([500, 2000, 20000])
    >>> r = printed_pair_distance(grid, 1_370_637, 10_500_393, 10.0, 12.72, 0.10, 1.05)
    >>> bool(r["max_mean"] < 1.05 and r["sd"] > 0 and r["z"] > 0)
    True
    """
    ma, va = relative_error_moments(holder_grid, n, k, eps_a, kind)
    mb, _ = relative_error_moments(holder_grid, n, k, eps_b, kind)
    best = best_mixture_under_limit(ma, mb, limit_b)
    if best["i"] < 0:
        return dict(max_mean=-math.inf, sd=math.nan, z=math.inf, p_low=0.0, p_high=0.0, counts=[])
    w, i, j = best["w"], best["i"], best["j"]
    sd = math.sqrt((w * va[i] + (1 - w) * va[j]) / size)
    grid = np.asarray(holder_grid, dtype=np.int64)
    n_i = min(size, math.ceil(w * size - 1e-9))
    counts = [int(grid[i])] * n_i + [int(grid[j])] * (size - n_i)
    p_low, p_high = mean_relative_error_tail(counts, n, k, eps_a, printed_a, kind)
    return dict(
        max_mean=best["value"], sd=sd, z=(printed_a - best["value"]) / sd, p_low=p_low, p_high=p_high, counts=counts
    )


@contract(x=Array(1, min_size=2), y=Array(1, min_size=2, low=0), level=POSITIVE)
def crossing(x, y, level: float) -> float:
    """The first ``x`` at which the decreasing series ``y`` reaches ``level`` (linear interpolation of
    :math:`\\log_{10} y`, as read off a log-scale figure); NaN if it never does."""
    x, y = np.asarray(x, dtype=float), np.log10(np.maximum(np.asarray(y, dtype=float), 1e-300))
    if x.shape != y.shape:
        raise ValueError("x and y must have the same length")
    lv = math.log10(level)
    idx = np.flatnonzero((y[:-1] > lv) & (y[1:] <= lv))
    if idx.size == 0:
        return float("nan")
    i = int(idx[0])
    return float(x[i] + (lv - y[i]) * (x[i + 1] - x[i]) / (y[i + 1] - y[i]))


def _crossings(x: np.ndarray, Y: np.ndarray, level: float) -> np.ndarray:
    """:func:`crossing` of every row of ``Y`` (rows: curves over ``x``), vectorised; NaN where none."""
    ly, lv = np.log10(np.maximum(Y, 1e-300)), math.log10(level)
    down = (ly[..., :-1] > lv) & (ly[..., 1:] <= lv)
    i = np.argmax(down, axis=-1)
    found = down.any(axis=-1)
    y0 = np.take_along_axis(ly, i[..., None], -1)[..., 0]
    y1 = np.take_along_axis(ly, (i + 1)[..., None], -1)[..., 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        out = x[i] + (lv - y0) * (x[i + 1] - x[i]) / (y1 - y0)
    return np.where(found, out, np.nan)


@contract(
    x=Array(1, min_size=2),
    runs=Array(2, min_size=2),
    level=POSITIVE,
    conf=Probability(open_left=True, open_right=True),
    n_boot=Integer(200, 1 << 16),
    rng=SEED,
)
def crossing_estimate(x, runs, level: float, *, conf: float = 0.95, n_boot: int = 4000, rng=None) -> Estimate:
    """The :func:`crossing` of the mean over runs of a decreasing series (``runs``: shape ``(R,
    len(x))``, one curve per run) with a BCa bootstrap interval over the runs
    (:func:`ldpnb.stats.bootstrap`; at least 10 runs).  Refused when a resample's mean curve does
    not cross ``level``.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> curves = 10.0 ** (-np.arange(5.0))[None, :] * rng.lognormal(0, 0.1, (20, 5))
    >>> e = crossing_estimate(np.arange(5.0), curves, 1e-2, n_boot=500, rng=1)
    >>> round(e.value, 1), bool(e.low < 2.0 < e.high)
    (2.0, True)
    """
    xs = np.asarray(x, dtype=float)
    Y = np.asarray(runs, dtype=float)
    if Y.shape[1] != xs.size:
        raise ValueError(f"runs must have one column per x, got {Y.shape[1]} columns for {xs.size} x")
    return stats_.bootstrap(
        lambda r, axis=0: _crossings(xs, r.mean(axis=0), level), (Y,), level=conf, n_boot=n_boot, rng=rng
    )


@contract(
    eps=Instance(Estimate, example=Estimate(12.9, 12.8, 13.0, method="t", n_runs=20)),
    n=Integer(2, 2**53),
    k=Integer(2, 2**53),
)
def rr_guarantee(eps: Estimate, n: int, k: int) -> Estimate:
    r"""The Bayes-error guarantee of Eq. (12) with Thm 4.2 at an estimated ε: :math:`\beta(\varepsilon)
    = 1 - (\alpha_{RR}(\varepsilon) + 1)/\log n` is decreasing in ε, so the interval of ε maps to
    :math:`[\beta(\varepsilon_{high}), \beta(\varepsilon_{low})]` at the same level.

    Examples
    --------
    >>> b = rr_guarantee(Estimate(12.72, 12.6, 12.8, method="t", n_runs=20), 1_370_637, 10_500_393)
    >>> round(b.value, 3), bool(b.low < b.value < b.high)
    (0.92, True)
    """

    def beta(e):
        return float(fano_lower_bound(alpha_rr(float(e), n, k), n))

    return Estimate(
        beta(eps.value),
        beta(eps.high),
        beta(eps.low),
        level=eps.level,
        n_runs=eps.n_runs,
        method=eps.method,
        note=f"beta at the ends of the interval of epsilon ({eps.method})",
    )


@contract(runs=_RUNS, column=Instance(str, example="emp_all"))
def run_matrix(runs: pd.DataFrame, column: str) -> np.ndarray:
    """One column of :func:`utility_runs` as a ``(runs, settings)`` array, the settings in the order
    in which ``runs`` lists them (the order of :func:`summarise_runs`' rows): the runs of every
    setting, ready for :mod:`ldpnb.stats`.

    Examples
    --------
    >>> df = pd.DataFrame({"mech": ["rr"] * 4, "eps": [1.0, 1.0, 2.0, 2.0], "g": 0, "run": [0, 1, 0, 1],
    ...                    "x": [1.0, 2.0, 3.0, 4.0]})
    >>> run_matrix(df, "x").tolist()
    [[1.0, 3.0], [2.0, 4.0]]
    """
    keys = ["mech", "eps", "g"]
    order = runs[keys].drop_duplicates().apply(tuple, axis=1).tolist()
    wide = runs.pivot_table(index="run", columns=keys, values=column, aggfunc="first")
    wide = wide[pd.MultiIndex.from_tuples(order, names=keys)]
    if wide.isna().any().any():
        raise ValueError("every setting needs the same runs")
    return wide.to_numpy(dtype=float)
