"""PIE paper (Murakami and Takahashi 2021): the utility experiments of Section 6 (Figs. 10-12):
empirical estimators with and without significance threshold, their losses, and the runs.
"""

from __future__ import annotations

import math
import numpy as np
from scipy import stats
from ldpnb.utils import (
    check_counts, check_distribution, check_domain_size, check_epsilon, check_finite_array,
    check_random_state,
)
from ldpnb.measures.reidentification import _eps_array, _size, theta_rr

__all__ = [
    "glh_params",
    "rr_params",
    "simulate_rr_counts",
    "simulate_glh_support_counts",
    "empirical_estimate",
    "significance_threshold",
    "threshold_estimate",
    "rr_variance",
    "glh_variance",
    "glh_variance_fixed_theta",
    "glh_variance_limit",
    "rr_loss_sum",
    "glh_loss_sum",
    "top_indices",
    "sum_l2_top",
    "mean_relative_error_top",
    "zipf_profile",
    "sample_empirical",
    "UtilityPopulation",
    "utility_run",
    "synthetic_population",
    "utility_task",
]


# ---------------------------------------------------------------------------------------------
# Utility: estimators, variances, exact count simulators (Section 4.4)
# ---------------------------------------------------------------------------------------------


def rr_params(k, epsilon) -> tuple[float, float]:
    """(mu, nu) of the eps-RR (Eq. 2): mu = e^eps/(k+e^eps-1), nu = 1/(k+e^eps-1)."""
    k = _size(k, "k")
    eps = check_epsilon(epsilon)
    em1 = math.expm1(eps)
    return (em1 + 1) / (k + em1), 1.0 / (k + em1)


def glh_params(g, epsilon) -> tuple[float, float]:
    """(mu, nu) of the (g, eps)-GLH estimator (Eq. 20): mu = e^eps/(g+e^eps-1), nu = 1/g."""
    g = _size(g, "g")
    eps = check_epsilon(epsilon)
    em1 = math.expm1(eps)
    return (em1 + 1) / (g + em1), 1.0 / g


def simulate_rr_counts(input_counts, epsilon, *, rng=None) -> np.ndarray:
    """Exact count-level simulation of n eps-RR reports (spec A3), O(n + k).

    Mixture view: each user keeps her value with probability theta_RR, else reports a uniform
    draw from X.  Kept counts are Binomial(c_x, theta) per cell; the re-drawn reports are
    placed uniformly.  Equal in law to per-user perturbation followed by a histogram.
    """
    rng = check_random_state(rng)
    c = check_counts(input_counts, "input_counts")
    return _rr_counts(c, np.flatnonzero(c), epsilon, rng)


def _rr_counts(c: np.ndarray, nz: np.ndarray, epsilon: float, rng: np.random.Generator) -> np.ndarray:
    k = c.size
    kept = rng.binomial(c[nz], theta_rr(k, epsilon))
    n_rand = int(c.sum() - kept.sum())
    out = np.bincount(rng.integers(0, k, size=n_rand), minlength=k)
    out[nz] += kept
    return out


def _zero_truncated_binomial(n: int, p: float, size: int, rng: np.random.Generator) -> np.ndarray:
    """Draws from Binomial(n, p) conditioned on >= 1 (inverse CDF on the pmf, tail < 1e-17)."""
    lam = n * p
    jmax = int(max(10, lam + 12 * math.sqrt(lam + 1) + 20))
    j = np.arange(1, min(jmax, n) + 1)
    pmf = stats.binom.pmf(j, n, p)
    cdf = np.cumsum(pmf)
    cdf /= cdf[-1]
    return j[np.minimum(np.searchsorted(cdf, rng.random(size), side="right"), j.size - 1)]


def simulate_glh_support_counts(input_counts, g, epsilon, *, rng=None) -> np.ndarray:
    r"""Exact simulation of the GLH support counts with a truly random hash family (spec A3).

    For one user the indicators 1[h(x) = y] are Bernoulli(mu_GLH) at her own x and i.i.d.
    Bernoulli(1/g) at every other x, so, independently over x,

    .. math:: c_{GLH}(x) \sim \mathrm{Bin}(n p(x), \mu_{GLH}) + \mathrm{Bin}(n(1-p(x)), 1/g).

    Cells with p(x) = 0 share the law Bin(n, 1/g); when it is mostly 0 we draw how many of them
    are non-zero, where, and their zero-truncated values (equal in law, much faster for k = 1e7).
    """
    rng = check_random_state(rng)
    c = check_counts(input_counts, "input_counts")
    nz = c > 0
    return _glh_counts(c, np.flatnonzero(nz), np.flatnonzero(~nz), _size(g, "g"), epsilon, rng)


def _glh_counts(c, nz, zero, g: float, epsilon: float, rng: np.random.Generator) -> np.ndarray:
    mu, nu = glh_params(g, epsilon)
    n = int(c.sum())
    out = np.zeros(c.size, dtype=np.int64)
    out[nz] = rng.binomial(c[nz], mu) + rng.binomial(n - c[nz], nu)
    if zero.size:
        q = -math.expm1(n * math.log1p(-nu))  # Pr(Bin(n, nu) >= 1)
        if q > 0.2:
            out[zero] = rng.binomial(n, nu, size=zero.size)
        else:
            m = rng.binomial(zero.size, q)
            if m:
                where = zero[rng.choice(zero.size, size=m, replace=False)]
                out[where] = _zero_truncated_binomial(n, nu, m, rng)
    return out


def empirical_estimate(counts, n: int, mu: float, nu: float) -> np.ndarray:
    r"""emp estimator (Eqs. 19, 20): :math:`\hat p(x) = (c(x)/n - \nu)/(\mu - \nu)` (unbiased, not normalised).

    ``counts`` (support counts, one row per repetition if 2-D) finite and >= 0; ``n`` an integer >= 1.
    """
    c = check_finite_array(counts, "counts")
    if c.ndim not in (1, 2):
        raise ValueError(f"counts must be 1-D (or 2-D, one row per repetition), got shape {c.shape}")
    if np.any(c < 0):
        raise ValueError(f"counts must be nonnegative (min {c.min():.3g})")
    n = _size(n, "n", 1)
    if not mu > nu:
        raise ValueError("mu must exceed nu")
    return (c / n - nu) / (mu - nu)


def significance_threshold(n: int, mu: float, nu: float, k_candidates: int, alpha: float = 0.05) -> float:
    r"""Bonferroni significance threshold of emp+thr (spec Section 2.6 default).

    :math:`T = \Phi^{-1}(1 - \alpha/k)\sqrt{\mathrm{Var}_0}` with
    :math:`\mathrm{Var}_0 = \nu(1-\nu)/(n(\mu-\nu)^2)`, the variance of :math:`\hat p(x)` at
    p(x) = 0 (first term of Eq. 22 for the RR, of Eq. 23 for the GLH).
    """
    n = _size(n, "n", 1)
    k_candidates = _size(k_candidates, "k_candidates", 1)
    if not 0 < alpha < 1:
        raise ValueError("alpha must lie in (0, 1)")
    z = stats.norm.isf(alpha / k_candidates)
    return float(z * math.sqrt(nu * (1 - nu) / (n * (mu - nu) ** 2)))


def threshold_estimate(p_hat, T: float) -> np.ndarray:
    """emp+thr: estimates below the significance threshold T are set to 0 (NaN refused)."""
    p = check_finite_array(p_hat, "p_hat").astype(float, copy=True)
    if isinstance(T, bool) or not isinstance(T, (int, float, np.integer, np.floating)) or not np.isfinite(T):
        raise ValueError(f"T (threshold) must be a finite real number, got {T!r}")
    p[p < T] = 0.0
    return p


def rr_variance(p, n, k, epsilon):
    r"""Prop. 4.6 (Eq. 22): :math:`E[(p(x)-\hat p_{RR}(x))^2] = \frac{k+E-2}{n(E-1)^2} + \frac{p(x)(k-2)}{n(E-1)}`."""
    p = np.asarray(p, dtype=float)
    em1 = np.expm1(_eps_array(epsilon))
    return (k + em1 - 1) / (n * em1**2) + p * (k - 2) / (n * em1)


def glh_variance(p, n, g, epsilon):
    r"""Prop. 4.7 (Eq. 23): :math:`\frac{(g+E-1)^2}{n(E-1)^2(g-1)} + \frac{p(x)(g^2-2g-E+1)}{n(E-1)(g-1)}`."""
    p = np.asarray(p, dtype=float)
    em1 = np.expm1(_eps_array(epsilon))
    g = np.asarray(g, dtype=float)
    if np.any(g < 2):
        raise ValueError("g must be >= 2")
    # g^2 - 2g - E + 1 = (g-1)^2 - E = (g-1)^2 - (E-1) - 1
    return (g + em1) ** 2 / (n * em1**2 * (g - 1)) + p * ((g - 1) ** 2 - em1 - 1) / (n * em1 * (g - 1))


def glh_variance_fixed_theta(p, n, g, theta):
    r"""Eq. (51): at fixed theta_GLH, :math:`\frac{1-p\theta}{n\theta^2(g-1)} + \frac{p(1-\theta)}{n\theta}` (Thm 4.8)."""
    p = np.asarray(p, dtype=float)
    return (1 - p * theta) / (n * theta**2 * (np.asarray(g, dtype=float) - 1)) + p * (1 - theta) / (n * theta)


def glh_variance_limit(p, n, theta):
    r"""Eq. (24): the g -> infinity limit :math:`p(x)(1-\theta)/(n\theta)` of Eq. (51)."""
    return np.asarray(p, dtype=float) * (1 - theta) / (n * theta)


def rr_loss_sum(mass, n_symbols, n, k, epsilon):
    r"""Sum of Eq. (22) over a set of ``n_symbols`` symbols with total true mass ``mass``.

    Eq. (22) is affine in p(x), so the sum is ``n_symbols`` x first term + ``mass`` x slope.
    """
    em1 = np.expm1(_eps_array(epsilon))
    return n_symbols * (k + em1 - 1) / (n * em1**2) + np.asarray(mass, dtype=float) * (k - 2) / (n * em1)


def glh_loss_sum(mass, n_symbols, n, g, epsilon):
    r"""Sum of Eq. (23) over a set of ``n_symbols`` symbols with total true mass ``mass`` (affine in p)."""
    em1 = np.expm1(_eps_array(epsilon))
    g = np.asarray(g, dtype=float)
    return (n_symbols * (g + em1) ** 2 / (n * em1**2 * (g - 1))
            + np.asarray(mass, dtype=float) * ((g - 1) ** 2 - em1 - 1) / (n * em1 * (g - 1)))


def top_indices(p, phi: int | None) -> np.ndarray:
    """Indices of the phi symbols with the largest true p (all symbols if phi is None or >= k)."""
    p = np.asarray(p)
    if phi is None or phi >= p.size:
        return np.arange(p.size)
    idx = np.argpartition(-p, phi - 1)[:phi]
    return idx[np.argsort(-p[idx], kind="stable")]


def sum_l2_top(p, p_hat, phi: int | None) -> float:
    """Sum of squared errors over the top-phi symbols of the true p (Figs. 10, 12); NaN refused."""
    p = check_finite_array(p, "p")
    p_hat = check_finite_array(p_hat, "p_hat")
    if p.shape != p_hat.shape:
        raise ValueError(f"p and p_hat must have the same shape, got {p.shape} and {p_hat.shape}")
    if phi is None or phi >= p.size:
        d = p - p_hat
    else:
        idx = top_indices(p, phi)
        d = p[idx] - p_hat[idx]
    return float(d @ d)


def mean_relative_error_top(p, p_hat, m: int = 20) -> float:
    """Mean over the top-m symbols of |p(x) - p_hat(x)|/p(x) (Fig. 11)."""
    idx = top_indices(p, m)
    p = np.asarray(p, dtype=float)
    return float(np.mean(np.abs(p[idx] - np.asarray(p_hat, dtype=float)[idx]) / p[idx]))


def zipf_profile(k: int, s: float) -> np.ndarray:
    """Zipf popularity over k symbols: p(r) proportional to r^(-s), r = 1..k (rank order)."""
    k = check_domain_size(k)
    w = np.arange(1, k + 1, dtype=float) ** (-float(s))
    return w / w.sum()


def sample_empirical(profile, n: int, *, rng=None) -> np.ndarray:
    """Counts of n i.i.d. draws from ``profile`` (one multinomial): the X_{1:n} histogram."""
    rng = check_random_state(rng)
    return rng.multinomial(int(n), check_distribution(profile, "profile"))


class UtilityPopulation:
    """A fixed population X_{1:n} for the utility experiments (counts per symbol).

    Precomputes what every run needs at k = 1e7 (true p, p^2, the supports, the top-phi sets) so
    that a run costs one simulation plus a few vector operations.
    """

    def __init__(self, counts, tops: tuple[int, ...] = (20, 100)) -> None:
        self.counts = check_counts(counts, "counts")
        self.n, self.k = int(self.counts.sum()), self.counts.size
        if self.n < 1:
            raise ValueError("counts must contain at least one user")
        self.p = self.counts / self.n
        self.p2_total = float(self.p @ self.p)
        nzmask = self.counts > 0
        self.nz, self.zero = np.flatnonzero(nzmask), np.flatnonzero(~nzmask)
        order = top_indices(self.p, max(tops))
        self.tops = {t: order[:t] for t in tops}


def utility_run(population: UtilityPopulation, mechanism: str, epsilon: float, *, g=None,
                significance: float = 0.05, rng=None, return_estimate: bool = False) -> dict:
    r"""One run of the utility experiment (Figs. 10-12) from exact count-level simulation.

    Simulates the n reports (:func:`simulate_rr_counts` / :func:`simulate_glh_support_counts`),
    applies emp (Eqs. 19, 20) and emp+thr (Bonferroni threshold), and returns the sums of l2
    losses ``("emp", phi)`` / ``("thr", phi)`` for each precomputed top set phi and for all k
    (phi = None), the top-20 mean relative errors ``"rel_emp"``, ``"rel_thr"`` (Fig. 11), the
    threshold ``"T"`` and, optionally, the emp+thr estimates of the top-20 (``"top_thr"``).
    """
    if not isinstance(population, UtilityPopulation):
        raise TypeError("population must be a UtilityPopulation")
    rng = check_random_state(rng)
    pop = population
    n, k = pop.n, pop.k
    if mechanism == "rr":
        mu, nu = rr_params(k, epsilon)
        counts = _rr_counts(pop.counts, pop.nz, epsilon, rng)
    elif mechanism == "glh":
        if g is None:
            raise ValueError("g is required for the GLH")
        mu, nu = glh_params(g, epsilon)
        counts = _glh_counts(pop.counts, pop.nz, pop.zero, _size(g, "g"), epsilon, rng)
    else:
        raise ValueError(f"mechanism must be 'rr' or 'glh', got {mechanism!r}")
    est = counts * (1.0 / (n * (mu - nu)))
    est -= nu / (mu - nu)                       # Eqs. (19)/(20)
    del counts
    T = significance_threshold(n, mu, nu, k, significance)
    out: dict = {"T": T, "mu": mu, "nu": nu}
    for phi, idx in pop.tops.items():
        e, p = est[idx], pop.p[idx]
        thr = np.where(e < T, 0.0, e)
        out[("emp", phi)] = float(np.sum((p - e) ** 2))
        out[("thr", phi)] = float(np.sum((p - thr) ** 2))
        if phi == 20:
            out["rel_emp"] = float(np.mean(np.abs(p - e) / p))
            out["rel_thr"] = float(np.mean(np.abs(p - thr) / p))
            if return_estimate:
                out["top_thr"] = thr
    below = est < T
    p_below = pop.p[below]
    est -= pop.p
    est *= est                                   # squared errors, in place (memory at k = 1e7)
    emp_all = float(est.sum())
    out[("emp", None)] = emp_all
    out[("thr", None)] = emp_all - float(est[below].sum()) + float(p_below @ p_below)
    return out


# ---------------------------------------------------------------------------------------------
# Sweeps of the utility experiment (picklable tasks for ldpnb.parallel.sweep)
# ---------------------------------------------------------------------------------------------

_POPULATION_CACHE: dict = {}


def synthetic_population(n: int, k: int, s: float = 0.75, *, seed: int) -> UtilityPopulation:
    """The synthetic LT stand-in of the utility experiments: n single reports from Zipf(s) over k POIs.

    Deterministic in ``seed``; cached per process (one entry), so that parallel workers of
    :func:`ldpnb.parallel.sweep` build it once and every worker sees the same population.
    """
    key = (int(n), int(k), float(s), int(seed))
    if key not in _POPULATION_CACHE:
        _POPULATION_CACHE.clear()
        counts = sample_empirical(zipf_profile(k, s), n, rng=np.random.default_rng(seed))
        _POPULATION_CACHE[key] = UtilityPopulation(counts)
    return _POPULATION_CACHE[key]


def utility_task(task: dict, rng) -> dict:
    """One utility run for :func:`ldpnb.parallel.sweep`.

    ``task`` holds ``n, k, s, pop_seed`` (the population, see :func:`synthetic_population`),
    ``mech`` ("rr" | "glh"), ``eps``, optional ``g``, ``rep`` and ``keep`` (return the top-20
    emp+thr estimates).  Returns the dict of :func:`utility_run` plus the task's labels.
    """
    pop = synthetic_population(task["n"], task["k"], task.get("s", 0.75), seed=task["pop_seed"])
    res = utility_run(pop, task["mech"], task["eps"], g=task.get("g"), rng=rng,
                      return_estimate=bool(task.get("keep", False)))
    res.update(mech=task["mech"], eps=task["eps"], g=task.get("g"), rep=task.get("rep", 0))
    return res
