r"""The frequency oracles of the synthesis chapter's lookup guide, as an interface.

The guide compares *frequency oracles* (pure protocols in the sense of Wang et al. 2017): each report
supports a set of values, the true one with probability ``p`` and any other with probability ``q``.
The list of families is not written in the chapter: :func:`guide_families` reads the mechanism
catalogue (:data:`ldpnb.mechanisms.FAMILIES`, every registered family that builds on a common domain
with ``on(domain, epsilon)``) and places every :class:`~ldpnb.mechanisms.FrequencyOracle`; every other
family is listed with the reason it is not in the guide (a metric mechanism has no ε-LDP level to
compare; a family without support probabilities ``(p, q)`` has no closed-form MSE of a standard
estimate).  A new family therefore appears in the guide, the lens table and the grid as soon as it
registers itself and offers:

==========================================  ============================================================
``cls.on(Domain(k=k), epsilon)``            the mechanism on ``k`` values at level ``epsilon``
``p``, ``q``                                its support probabilities (Wang et al. 2017, Def. of a pure
                                            protocol)
``simulate_support_counts(N, rng=)``        the support counts of users with input counts ``N``, exact
                                            in law (the count-level sampler)
``estimate(support_counts, n)``             the standard unbiased estimate (Wang et al. 2017)
``total_variance(N)`` (optional)            exact ``E||f_hat - f||^2`` of the standard estimate for a
                                            fixed population; default :func:`pure_total_variance`
``bits_per_report`` (optional)              the size of one report in bits; default :func:`report_bits`
``support_counts(perturb(x, rng=))``        the server's aggregation (timed for the guide's server cost)
``independent_supports`` (optional)         ``True`` when the support indicators of one user are
                                            independent across values (vectorised batches)
==========================================  ============================================================

Everything else (the exact MSE, the simulated confirmation, the projection onto the simplex, the
heavy-hitter and range-query tasks) is computed from these.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from ldpnb import mechanisms as mech
from ldpnb.contracts import DENSE_DOMAIN, SAMPLE_SIZE, SEED, Counts, Instance, Integer, Real, contract
from ldpnb.mechanisms import FrequencyOracle
from ldpnb.utils import check_random_state

__all__ = [
    "guide_families",
    "oracle_families",
    "build_oracle",
    "pure_total_variance",
    "total_variance",
    "report_bits",
    "sample_support_counts",
    "server_seconds_per_report",
    "support_law",
    "SS_EXACT_MAX_K",
    "MAX_GUIDE_RUNS",
]

#: The largest number of simulated collections per cell and oracle (refused before anything is drawn).
MAX_GUIDE_RUNS = 100_000

#: Largest domain at which subset selection's support counts are drawn from their exact joint law
#: (:func:`ldpnb.mechanisms.ss_simulate_support_counts`, cost O(k omega) per draw); beyond it the
#: law with exact marginals (``method="marginal"``), which drops the negative dependence of one
#: user's memberships.
SS_EXACT_MAX_K = 64

_ORACLE = Instance(FrequencyOracle, example=mech.GRR(4, 1.0))


@contract()
def guide_families() -> tuple[list[str], dict[str, str]]:
    """The catalogue's families the guide places (frequency oracles: a standard estimate with support
    probabilities ``(p, q)``), in registry order, and the reason each other family is left out.

    >>> placed, unplaced = guide_families()
    >>> placed[:3], "geometric" in unplaced
    (['GRR', 'SUE', 'OUE'], True)
    """
    placed, unplaced = [], {}
    for name, cls in mech.FAMILIES.items():
        if isinstance(cls, type) and issubclass(cls, FrequencyOracle):
            placed.append(name)
        elif isinstance(cls, type) and issubclass(cls, mech.MetricMechanism):
            unplaced[name] = (
                "a metric mechanism: its level is geo-indistinguishability per unit of distance, not "
                "an ε-LDP level the grid can compare (see the lens tables)"
            )
        else:
            unplaced[name] = (
                "not a frequency oracle: no support probabilities (p, q), so no closed-form MSE of a "
                "standard estimate and no count-level sampler of its support counts"
            )
    return placed, unplaced


@contract()
def oracle_families() -> list[str]:
    """The names of the catalogue's frequency oracles, in registry order (:func:`guide_families`).

    >>> oracle_families()[:3]
    ['GRR', 'SUE', 'OUE']
    """
    return guide_families()[0]


@contract(name=Instance(str, example="GRR"), k=DENSE_DOMAIN, epsilon=Real(0.0, 50.0, low_open=True))
def build_oracle(name: str, k: int, epsilon: float) -> FrequencyOracle:
    """The catalogue's oracle ``name`` on ``k`` values at level ``epsilon`` (``cls.on(Domain(k=k),
    epsilon)``).

    >>> build_oracle("OUE", 8, 1.0).p
    0.5
    """
    if name not in mech.FAMILIES:
        raise ValueError(f"unknown family {name!r}; the catalogue has {list(mech.FAMILIES)}")
    m = mech.FAMILIES[name].on(mech.Domain(k=k, rows=None, cols=None), epsilon)
    if not isinstance(m, FrequencyOracle):
        raise ValueError(f"{name} is not a frequency oracle: {guide_families()[1].get(name, '')}")
    return m


@contract(p=Real(0.0, 1.0), q=Real(0.0, 1.0), k=Integer(2, 1 << 40), n=Real(0.0, None, low_open=True))
def pure_total_variance(p: float, q: float, k: int, n: float) -> float:
    r"""Exact total variance of the standard estimate of a pure protocol for a fixed population.

    Summing Wang et al.'s per-value variance :math:`[f_v p(1-p) + (1-f_v) q(1-q)]/(n(p-q)^2)` over
    the ``k`` values, with :math:`\sum_v f_v = 1`,

    .. math:: \mathbb{E}\lVert \hat f - f\rVert_2^2 = \frac{p(1-p) + (k-1)\,q(1-q)}{n\,(p-q)^2},

    which depends on neither the distribution nor, for the ranking of two oracles, on ``n``.

    >>> round(pure_total_variance(0.5, 1 / (math.e + 1), 12, 1), 4)  # OUE, k = 12, eps = 1
    45.1923
    """
    if not p > q:
        raise ValueError(f"a frequency oracle has p > q, got p = {p}, q = {q}")
    return (p * (1 - p) + (k - 1) * q * (1 - q)) / (n * (p - q) ** 2)


@contract(m=_ORACLE, n=Real(0.0, None, low_open=True))
def total_variance(m: FrequencyOracle, n: float) -> float:
    """Exact total variance of ``m``'s standard estimate for ``n`` users (the family's own
    ``total_variance`` when it has one, else :func:`pure_total_variance`)."""
    own = getattr(m, "total_variance", None)
    if callable(own):
        return float(own(n))
    return (m.p * (1 - m.p) + (m.k - 1) * m.q * (1 - m.q)) / (n * m.p_minus_q**2)


@contract(m=_ORACLE)
def report_bits(m: FrequencyOracle) -> float:
    """Bits of one report as this toolkit encodes it (the family's ``bits_per_report`` when it has
    one): GRR ``ceil(log2 k)``; unary encodings ``k``; local hashing ``ceil(log2 g)`` plus the two
    61-bit Carter-Wegman seeds (a deployment with a 32-bit hash seed sends ``32 + ceil(log2 g)``);
    subset selection ``omega ceil(log2 k)`` (the subset as a list of values); NaN for another family
    without ``bits_per_report``."""
    own = getattr(m, "bits_per_report", None)
    if own is not None:
        return float(own)
    k = m.k
    lg = lambda v: max(1, math.ceil(math.log2(v)))  # noqa: E731
    if isinstance(m, mech.GRR):
        return float(lg(k))
    if isinstance(m, mech.UnaryEncoding):
        return float(k)
    if isinstance(m, mech.LocalHashing):
        return float(lg(m.g) + 2 * 61)
    if isinstance(m, mech.SubsetSelection):
        return float(mech.ss_params(k, m.epsilon)[0] * lg(k))
    return float("nan")  # a new family without bits_per_report: shown as unknown


def _independent(m: FrequencyOracle) -> bool:
    flag = getattr(m, "independent_supports", None)
    if flag is not None:
        return bool(flag)
    return isinstance(m, (mech.UnaryEncoding, mech.LocalHashing))


def _one_value(m: FrequencyOracle) -> bool:
    """Whether every report supports exactly one value (GRR; L-GRR, one of whose reports is k-RR;
    subset selection with a subset of one value; a family may say so with ``one_value_support``)."""
    flag = getattr(m, "one_value_support", None)
    if flag is not None:
        return bool(flag)
    if isinstance(m, (mech.GRR, mech.LGRR)):
        return True
    return isinstance(m, mech.SubsetSelection) and mech.ss_params(m.k, m.epsilon)[0] == 1


@contract(m=_ORACLE)
def support_law(m: FrequencyOracle) -> tuple[str, int, float, float] | None:
    r"""A key that determines the law of ``m``'s support counts for every population, or None.

    Two structures fix that law from the support probabilities alone, for input counts ``N``:
    **independent supports** (unary encodings, local hashing in the random-oracle model, L-OSUE; a
    family's ``independent_supports``): :math:`C(v) \sim \mathrm{Bin}(N_v, p) + \mathrm{Bin}(n - N_v,
    q)`, independent over ``v``; **one value per report** (GRR, L-GRR, subset selection with
    :math:`\omega = 1`): the counts are a sum of multinomials with rows ``p`` on the input and ``q``
    elsewhere.  The key is ``(structure, k, p, q)``: two oracles whose keys have the same structure and
    ``k`` and ``(p, q)`` equal within :data:`~ldpnb.papers.synthesis.guide.TIE_EXACT` have the same law of
    support counts, hence the same law of the standard estimate and of its projection (exact
    duplicates: the guide compares them as one).  None for every other family (Hadamard response,
    OLH-CW, dBitFlipPM, ...): a family is then a duplicate of no other.  Equal exact MSE is not enough
    (BLH and HR have equal total MSE at every ``(k, eps)`` but different laws: HR's supports are
    dependent).

    >>> support_law(build_oracle("GRR", 4, 1.0)) == support_law(build_oracle("L-GRR", 4, 1.0))
    True
    >>> support_law(build_oracle("HR", 4, 1.0)) is None
    True
    """
    if _independent(m):
        return ("independent supports", int(m.k), float(m.p), float(m.q))
    if _one_value(m):
        return ("one value per report", int(m.k), float(m.p), float(m.q))
    return None


@contract(m=_ORACLE, input_counts=Counts(min_size=2), runs=Integer(1, MAX_GUIDE_RUNS), rng=SEED)
def sample_support_counts(m: FrequencyOracle, input_counts: Any, runs: int, *, rng: Any = None) -> np.ndarray:
    r"""``runs`` independent draws of the support counts of ``m`` for input counts ``N``, ``(runs, k)``.

    Exact in law for every family: unary encoding and local hashing (random-oracle model), whose
    support indicators are independent given the inputs, draw
    :math:`C(v) \sim \mathrm{Bin}(N_v, p) + \mathrm{Bin}(n - N_v, q)` for all runs at once (the law of
    their ``simulate_support_counts``); GRR draws its mixture law (kept values plus a uniform
    multinomial, :func:`ldpnb.mechanisms.grr_simulate_counts`) for all runs at once; every other
    family calls its own ``simulate_support_counts`` once per run (subset selection with the exact
    joint law up to :data:`SS_EXACT_MAX_K` values, with exact marginals beyond).
    """
    rng = check_random_state(rng)
    N = np.asarray(input_counts, dtype=np.int64)
    n = int(N.sum())
    if _independent(m):
        return rng.binomial(N, m.p, size=(runs, N.size)) + rng.binomial(n - N, m.q, size=(runs, N.size))
    if isinstance(m, mech.GRR):
        theta = max(0.0, min(1.0, m.p - m.q))
        kept = rng.binomial(N, theta, size=(runs, N.size))
        rest = n - kept.sum(axis=1)
        return kept + rng.multinomial(rest, np.full(N.size, 1.0 / N.size))
    if isinstance(m, mech.SubsetSelection):
        method = "exact" if N.size <= SS_EXACT_MAX_K else "marginal"
        return np.stack([m.simulate_support_counts(N, rng=rng, method=method) for _ in range(runs)])
    return np.stack([m.simulate_support_counts(N, rng=rng) for _ in range(runs)])


@contract(m=_ORACLE, n=SAMPLE_SIZE, repeats=Integer(1, 100), seed=Integer(0, None))
def server_seconds_per_report(m: FrequencyOracle, *, n: int = 2_000, repeats: int = 3, seed: int = 0) -> float:
    """CPU seconds per report of the server's aggregation (support counts of ``n`` reports of
    uniform inputs; median of ``repeats``), measured on the machine that runs the chapter."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, m.k, size=n)
    reports = m.perturb(x, rng=rng)
    times = []
    for _ in range(repeats):
        t = time.process_time()
        m.support_counts(reports)
        times.append(time.process_time() - t)
    return float(np.median(times)) / n
