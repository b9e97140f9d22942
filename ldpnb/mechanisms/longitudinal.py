r"""Longitudinal frequency oracles: memoisation (a permanent randomisation drawn once per user and
value) followed by an instantaneous randomisation at every report.

RAPPOR (Erlingsson, Pihur and Korolova 2014) introduced the two rounds: a *permanent* randomised
response (PRR), memoised, bounds what any number of reports of one value can reveal, and an
*instantaneous* one (IRR) makes two reports of the same memoised value differ.  Arcolezi, Couchot,
Al Bouna and Xiao (2022) chain other oracles the same way; Ding, Kulkarni and Yekhanin (2017)
memoise the whole response (no second round).

==================  ======================================================================================
:class:`LGRR`       L-GRR (Arcolezi et al. 2022): GRR at :math:`\varepsilon_\infty` memoised, then GRR at the
                    level that makes one report :math:`\varepsilon_1`-LDP
:class:`LOSUE`      L-OSUE (Arcolezi et al. 2022): OUE at :math:`\varepsilon_\infty` memoised, then SUE-style
                    bit flips that make one report :math:`\varepsilon_1`-LDP
:class:`DBitFlipPM` dBitFlipPM (Ding et al. 2017): ``d`` sampled buckets, each bit flipped at ``e^{eps/2}``,
                    the whole response memoised per pattern of the value on the sampled buckets
==================  ======================================================================================

**Parameters and claims.**  The literature states two levels for the two-round protocols:
:math:`\varepsilon_\infty` (``eps_perm``: the memoised response, hence any number of reports of one
value, is :math:`\varepsilon_\infty`-LDP) and :math:`\varepsilon_1 < \varepsilon_\infty` (one report is
:math:`\varepsilon_1`-LDP).  Here ``epsilon`` is :math:`\varepsilon_1`, the level of one report, which
is the channel each object describes (``channel()``, ``guarantee``, ``check()``) and the level the
catalogue, the audit and the guide compare mechanisms at; ``eps_perm`` defaults to
:math:`2\varepsilon_1`, the ratio :math:`\varepsilon_1 = \varepsilon_\infty/2` of the examples of
Arcolezi et al.'s library multi-freq-ldpy.  The second claim is :attr:`permanent` (the memoised
round as a mechanism, claim :math:`\varepsilon_\infty`, tight) with :meth:`check_longitudinal`, and
:meth:`level_after` gives the exact level of ``T`` reports of one value, which grows from
:math:`\varepsilon_1` (``T = 1``) to :math:`\varepsilon_\infty` (``T -> infinity``).

**Two exact identities** (tested).  One report of L-GRR *is* GRR at :math:`\varepsilon_1`: the
composition of two k-RR channels is a k-RR channel (both are in the algebra :math:`aI + bJ`), whose
level is :math:`\varepsilon_1` by construction.  One report of L-OSUE *is* OUE at
:math:`\varepsilon_1`: its true bit is 1 with probability
:math:`\tfrac12 s + \tfrac12 (1 - s) = \tfrac12` whatever the second round's ``s``, and ``s`` is
chosen so that the other bits are 1 with probability :math:`1/(e^{\varepsilon_1} + 1)`.  The
memoisation therefore costs no utility per report: the same estimator and variance as GRR / OUE at
:math:`\varepsilon_1`, with :math:`\varepsilon_\infty` protecting the value over time.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
from scipy.special import logsumexp

from ldpnb.channels.structured import DiagPlusConstChannel
from ldpnb.contracts import (
    EPSILON,
    MAX_BYTES,
    MAX_DENSE,
    MAX_DOMAIN,
    MAX_ENTRIES,
    POSITIVE,
    Array,
    Integer,
    OneOf,
    Optional,
    Real,
    contract,
)
from ldpnb.mechanisms._base import (
    Domain,
    FrequencyOracle,
    Guarantee,
    LevelCheck,
    _bits_of_columns,
    _check_reports_matrix,
    _log_comb,
)
from ldpnb.mechanisms._common import _exp_neg, bernoulli_bits, bool_column_counts
from ldpnb.mechanisms.grr import (
    GRR,
    GRROperator,
    _grr_counts,
    _grr_gap,
    _grr_log_params,
    _grr_sample,
    grr_channel,
    grr_params,
)
from ldpnb.mechanisms.subset import ss_subset_index, ss_subsets
from ldpnb.mechanisms.unary import _MAX_UE_BITS, OUE, _ue_gap, _ue_log_channel, _ue_sample, ue_pattern_index
from ldpnb.utils import check_random_state, check_values

__all__ = [
    "lgrr_params",
    "losue_params",
    "dbitflip_params",
    "LGRR",
    "LOSUE",
    "DBitFlipPM",
]

_VALUES = Array(1, integer=True, low=0)
#: Largest number of reports ``T`` and of count vectors :meth:`LGRR.level_after` enumerates.
_MAX_T = 1 << 20
_MAX_COMPOSITIONS = 1 << 22
#: Largest ``k (d + 1)`` of dBitFlipPM's count simulator (one step per bucket and group).
_MAX_SIMULATION = 1 << 26


def _check_levels(epsilon: float, eps_perm: float | None) -> float:
    E = 2.0 * epsilon if eps_perm is None else float(eps_perm)
    if not E >= epsilon:
        raise ValueError(
            f"eps_perm must be >= epsilon (the memoised level bounds every report's), got "
            f"eps_perm={E:g} < epsilon={epsilon:g}"
        )
    return E


# ---------------------------------------------------------------------------------------------
# parameters
# ---------------------------------------------------------------------------------------------


_SECOND_ROUND = OneOf("exact", "published")


@contract(k=Integer(2, MAX_DOMAIN), epsilon=EPSILON, eps_perm=Optional(EPSILON), second_round=_SECOND_ROUND)
def lgrr_params(
    k: int, epsilon: float, eps_perm: float | None = None, second_round: str = "exact"
) -> tuple[float, float, float, float]:
    r"""``(p1, q1, p2, q2)`` of L-GRR (Arcolezi et al. 2022): GRR at :math:`\varepsilon_\infty` then GRR
    with ``(p2, q2)``, ``q2 = (1 - p2)/(k - 1)``.

    ``second_round="exact"`` (default): a k-RR channel is :math:`C = (p-q) I + q \mathbf 1\mathbf 1^\top`,
    and the product of two of them is the k-RR channel with gap :math:`(p_1 - q_1)(p_2 - q_2)`; one
    report is k-RR at exactly :math:`\varepsilon_1` when

    .. math:: p_2 - q_2 = \frac{g(\varepsilon_1)}{g(\varepsilon_\infty)}, \qquad
              g(\varepsilon) = \frac{e^\varepsilon - 1}{e^\varepsilon + k - 1}, \qquad
              q_2 = \frac{1 - (p_2 - q_2)}{k}.

    ``second_round="published"``: the formula of Arcolezi et al.'s implementation (multi-freq-ldpy,
    ``L_GRR.py``, and the LOLOHA artifact),
    :math:`p_2 = (q_1 - e^{\varepsilon_1} p_1)/(-p_1 e^{\varepsilon_1} + k q_1 e^{\varepsilon_1}
    - q_1 e^{\varepsilon_1} - p_1 (k-1) + q_1)`, which solves
    :math:`(p_1 p_2 + q_1 q_2)/(p_1 q_2 + q_1 p_2) = e^{\varepsilon_1}`: the two-value composition.
    For ``k > 2`` the true likelihood ratio of one report,
    :math:`(p_1 p_2 + (k-1) q_1 q_2)/(p_1 q_2 + q_1 p_2 + (k-2) q_1 q_2)`, is smaller, so one report is
    :math:`\varepsilon'`-LDP with :math:`\varepsilon' < \varepsilon_1` (0.9015 at ``k = 4``,
    :math:`\varepsilon_1 = 1`, :math:`\varepsilon_\infty = 2`): the claim holds, not tightly, and
    the estimator (which uses the true composition) is unbiased with a larger variance than the
    exact second round's.  Equal for ``k = 2``.

    Requires :math:`\varepsilon_1 \le \varepsilon_\infty` (``eps_perm``, default :math:`2\varepsilon_1`); at
    equality the exact second round is the identity (``q2 = 0``).

    Examples
    --------
    >>> p1, q1, p2, q2 = lgrr_params(4, 1.0, 2.0)
    >>> round((p1 - q1) * (p2 - q2), 12) == round(math.expm1(1.0) / (math.e + 3), 12)
    True
    """
    E = _check_levels(epsilon, eps_perm)
    p1, q1 = grr_params(k, E)
    if second_round == "published":  # the printed formula, divided through by e^{eps_1} (no overflow)
        a = _exp_neg(epsilon)
        p2 = (q1 * a - p1) / (-p1 + k * q1 - q1 - p1 * (k - 1) * a + q1 * a)
        return p1, q1, p2, (1.0 - p2) / (k - 1)
    g2 = _grr_gap(k, epsilon) / _grr_gap(k, E)
    q2 = max(0.0, (1.0 - g2) / k)
    return p1, q1, q2 + g2, q2


@contract(epsilon=EPSILON, eps_perm=Optional(EPSILON))
def losue_params(epsilon: float, eps_perm: float | None = None) -> tuple[float, float, float, float]:
    r"""``(p1, q1, p2, q2)`` of L-OSUE (Arcolezi et al. 2022): OUE at :math:`\varepsilon_\infty`
    (:math:`p_1 = 1/2`, :math:`q_1 = 1/(e^{\varepsilon_\infty}+1)`), then every bit kept with
    probability :math:`p_2` and flipped with :math:`q_2 = 1 - p_2`, where

    .. math:: p_2 = \frac{e^{\varepsilon_\infty + \varepsilon_1} - 1}
                         {(e^{\varepsilon_1} + 1)(e^{\varepsilon_\infty} - 1)}

    (Arcolezi et al.'s :math:`(1 - e^{\varepsilon_1+\varepsilon_\infty})/(e^{\varepsilon_1} -
    e^{\varepsilon_\infty} - e^{\varepsilon_1+\varepsilon_\infty} + 1)`, the same number), the value
    at which a bit that is 0 before memoisation is 1 in a report with probability
    :math:`q_1 p_2 + (1 - q_1) q_2 = 1/(e^{\varepsilon_1}+1)`.  Computed from :math:`e^{-\varepsilon}`
    (no overflow).

    Examples
    --------
    >>> p1, q1, p2, q2 = losue_params(1.0, 2.0)
    >>> round(q1 * p2 + (1 - q1) * q2, 12) == round(1 / (math.e + 1), 12)
    True
    """
    E = _check_levels(epsilon, eps_perm)
    a1, aE = _exp_neg(epsilon), _exp_neg(E)
    den = (1.0 + a1) * -math.expm1(-E)
    p2 = -math.expm1(-(E + epsilon)) / den
    q2 = a1 * -math.expm1(-(E - epsilon)) / den
    return 0.5, aE / (1.0 + aE), p2, q2


@contract(k=Integer(2, MAX_DOMAIN), epsilon=EPSILON, d=Optional(Integer(1, MAX_DOMAIN)))
def dbitflip_params(k: int, epsilon: float, d: int | None = None) -> tuple[int, float, float, float, float]:
    r"""``(d, p_bit, q_bit, p, q)`` of dBitFlip (Ding et al. 2017): each of the ``d`` sampled buckets
    reports a bit that is 1 with probability :math:`p_{bit} = e^{\varepsilon/2}/(e^{\varepsilon/2}+1)`
    if it is the user's bucket and :math:`q_{bit} = 1 - p_{bit}` otherwise; a report supports the
    sampled buckets whose bit is 1, so the true value with :math:`p = (d/k)\,p_{bit}` and any other
    with :math:`q = (d/k)\,q_{bit}`.  ``d = None`` is ``min(2, k)``.

    Examples
    --------
    >>> d, pb, qb, p, q = dbitflip_params(8, 2.0)
    >>> d, round(pb / qb, 12) == round(math.e, 12), round(p / q, 12) == round(math.e, 12)
    (2, True, True)
    """
    d = min(2, k) if d is None else d
    if d > k:
        raise ValueError(f"d must be <= k (d buckets are sampled without replacement), got d={d}, k={k}")
    a = _exp_neg(epsilon / 2.0)
    pb, qb = 1.0 / (1.0 + a), a / (1.0 + a)
    return d, pb, qb, d * pb / k, d * qb / k


# ---------------------------------------------------------------------------------------------
# shared parts of the two-round oracles
# ---------------------------------------------------------------------------------------------


class _TwoRound(FrequencyOracle, register=False):
    """Memoisation + instantaneous randomisation: ``epsilon`` = one report, ``eps_perm`` = memoised."""

    eps_perm: float

    @property
    def longitudinal_guarantee(self) -> Guarantee:
        """The claim of the memoised round: any number of reports of one value is ``eps_perm``-LDP."""
        return Guarantee("ldp", self.eps_perm, about="the value, over any number of reports")

    @property
    def permanent(self) -> FrequencyOracle:  # pragma: no cover - abstract
        """The memoised (first) round as a mechanism (claim ``eps_perm``)."""
        raise NotImplementedError

    def check_longitudinal(self, rtol: float = 1e-9) -> LevelCheck:
        """Does the memoised round keep ``eps_perm``?  (Its tight level: :attr:`permanent`'s.)  What
        any number of reports of one value can reveal is at most what the memoised response reveals
        (the reports are a randomisation of it: post-processing)."""
        return self.permanent.check(rtol)

    # the two rounds, written by each family
    def _memoize(self, x: np.ndarray, rng: np.random.Generator) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def _check_memo(self, memo: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def _report(self, memo: Any, rng: np.random.Generator) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def _cov_counts(self, input_counts: Any) -> np.ndarray:
        N = self._check_input_counts(input_counts).astype(np.float64)
        if self.k > MAX_DENSE:
            raise ValueError(f"a {self.k} x {self.k} covariance exceeds the dense limit {MAX_DENSE}")
        return N

    def memoize(self, x: Any, *, rng: Any = None) -> Any:
        """The permanent (memoised) responses of users holding ``x``: drawn once per user and value."""
        rng = check_random_state(rng)
        return self._memoize(self._check_inputs(x), rng)

    def report(self, memo: Any, *, rng: Any = None) -> Any:
        """One instantaneous report of each memoised response ``memo`` (of :meth:`memoize`)."""
        rng = check_random_state(rng)
        return self._report(self._check_memo(memo), rng)

    def perturb_longitudinal(self, x: Any, T: int, *, rng: Any = None) -> list[Any]:
        """``T`` reports of each user's (constant) value: one memoisation, ``T`` instantaneous rounds."""
        T = Integer(1, _MAX_T).check(T, "T")
        rng = check_random_state(rng)
        memo = self._memoize(self._check_inputs(x), rng)
        return [self._report(memo, rng) for _ in range(T)]

    def _perturb(self, x: np.ndarray, rng: np.random.Generator) -> Any:
        return self._report(self._memoize(x, rng), rng)

    def params(self) -> dict[str, Any]:
        out: dict[str, Any] = {"k": self.k, "epsilon": self.epsilon, "eps_perm": self.eps_perm}
        second = getattr(self, "second_round", "exact")
        if second != "exact":
            out["second_round"] = second
        return out


# ---------------------------------------------------------------------------------------------
# L-GRR
# ---------------------------------------------------------------------------------------------


class LGRR(_TwoRound):
    r"""Longitudinal GRR, L-GRR (Arcolezi, Couchot, Al Bouna and Xiao 2022), as a
    :class:`~ldpnb.mechanisms.Mechanism`.

    First round (memoised once per user and value): k-RR at :math:`\varepsilon_\infty` (``eps_perm``);
    every report: k-RR of the memoised value with :math:`(p_2, q_2)` of :func:`lgrr_params`.  One
    report follows :math:`C_1 C_2`, a k-RR channel with support probabilities
    :math:`p = p_1 p_2 + (k-1) q_1 q_2` and :math:`q = q_1 (p_2 - q_2) + q_2`, and Arcolezi et al.'s
    estimator :math:`(C(v) - n q_1(p_2 - q_2) - n q_2)/(n (p_1-q_1)(p_2-q_2))` is Wang et al.'s with
    these ``(p, q)``.

    With the exact second round (default) that channel is k-RR at :math:`\varepsilon_1` (``epsilon``):
    one report has exactly GRR's law, estimator and variance at :math:`\varepsilon_1`, and the claim
    :math:`\varepsilon_1`-LDP is tight.  With ``second_round="published"`` (the formula of Arcolezi et
    al.'s implementation, see :func:`lgrr_params`) one report is k-RR at
    :attr:`one_report_level` :math:`< \varepsilon_1` for ``k > 2``: the claim holds, not tightly.
    Claims: one report :math:`\varepsilon_1`-LDP (:attr:`guarantee`); the memoised value
    :math:`\varepsilon_\infty`-LDP (:attr:`permanent`, :meth:`check_longitudinal`); ``T`` reports of
    one value: :meth:`level_after`.

    Parameters
    ----------
    k : int
    epsilon : float
        :math:`\varepsilon_1`, the claimed level of one report.
    eps_perm : float, optional
        :math:`\varepsilon_\infty \ge \varepsilon_1`; default :math:`2\varepsilon_1`.
    second_round : {"exact", "published"}

    Examples
    --------
    >>> m = LGRR(4, 1.0)
    >>> m.eps_perm, round(m.tight_level(), 12), round(m.permanent.tight_level(), 12)
    (2.0, 1.0, 2.0)
    >>> round(LGRR(4, 1.0, second_round="published").tight_level(), 4)
    0.9015
    """

    family = "L-GRR"
    aliases = ("LGRR", "longitudinal GRR")

    @contract(k=Integer(2, MAX_DOMAIN), epsilon=EPSILON, eps_perm=Optional(EPSILON), second_round=_SECOND_ROUND)
    def __init__(self, k: int, epsilon: float, eps_perm: float | None = None, second_round: str = "exact") -> None:
        self.k, self.epsilon, self.second_round = k, epsilon, second_round
        self.eps_perm = _check_levels(epsilon, eps_perm)
        self.p1, self.q1, self.p2, self.q2 = lgrr_params(k, epsilon, self.eps_perm, second_round)
        if second_round == "exact":
            self.p, self.q = grr_params(k, epsilon)
            self.p_minus_q = _grr_gap(k, epsilon)
            self._lp, self._lq = _grr_log_params(k, epsilon)
        else:  # the true composition of the two rounds (a k-RR channel of level < epsilon for k > 2)
            p1, q1, p2, q2 = self.p1, self.q1, self.p2, self.q2
            self.p = p1 * p2 + (k - 1) * q1 * q2
            self.q = q1 * (p2 - q2) + q2
            self.p_minus_q = (p1 - q1) * (p2 - q2)
            self._lp, self._lq = math.log(self.p), math.log(self.q)

    @property
    def one_report_level(self) -> float:
        """The exact level of one report, ``ln(p / q)`` (``epsilon`` for the exact second round)."""
        return self._lp - self._lq

    @classmethod
    def on(cls, domain: Domain, epsilon: float) -> LGRR:
        """L-GRR on the ``domain.size`` values, one report at ``epsilon``, memoised at ``2 epsilon``."""
        return cls(domain.size, epsilon)

    @property
    def n_outputs(self) -> int:
        return self.k

    @property
    def bits_per_report(self) -> int:
        return max(1, math.ceil(math.log2(self.k)))

    @property
    def permanent(self) -> GRR:
        """The memoised round: k-RR at ``eps_perm``."""
        return GRR(self.k, self.eps_perm)

    @property
    def irr_epsilon(self) -> float:
        """The level of the second round alone, :math:`\\ln(p_2/q_2)` (infinite when ``eps_perm = epsilon``)."""
        return math.inf if self.q2 == 0 else math.log(self.p2 / self.q2)

    def _log_channel(self) -> np.ndarray:
        L = np.full((self.k, self.k), self._lq)
        np.fill_diagonal(L, self._lp)
        return L

    def _log_ratios(self) -> np.ndarray:
        eye = np.eye(self.k)
        return (self._lp - self._lq) * (eye - eye[0])

    def _float_channel(self) -> np.ndarray:
        """The exact second round's one report is :func:`~ldpnb.mechanisms.grr_channel` at ``epsilon``,
        bit for bit; the published one's is ``exp(log_channel())``."""
        if self.second_round == "exact":
            return grr_channel(self.k, self.epsilon)
        return super()._float_channel()

    def two_round_channel(self) -> np.ndarray:
        """:math:`C_1 C_2` computed as the product of the two rounds' k-RR channels (float; tests)."""
        self._check_dense()
        k = self.k
        C1 = np.full((k, k), self.q1)
        np.fill_diagonal(C1, self.p1)
        C2 = np.full((k, k), self.q2)
        np.fill_diagonal(C2, self.p2)
        return C1 @ C2

    def operator(self) -> DiagPlusConstChannel:
        """One report's channel is k-RR (at ``epsilon`` for the exact second round): ``O(k)`` products."""
        if self.second_round == "exact":
            return GRROperator(self.k, self.epsilon)
        op = DiagPlusConstChannel(self.p_minus_q, self.q, self.k, support=True)
        op.stochastic = True
        return op

    def _memoize(self, x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return _grr_sample(x, self.k, self.p1, rng)

    def _check_memo(self, memo: Any) -> np.ndarray:
        return check_values(memo, self.k, name="memo")

    def _report(self, memo: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return _grr_sample(memo, self.k, self.p2, rng)

    def support(self, reports: Any) -> np.ndarray:
        y = self.report_index(reports)
        if y.size * self.k > MAX_BYTES:
            raise ValueError(f"reports: a support matrix of {y.size} x {self.k} entries exceeds {MAX_BYTES}")
        out = np.zeros((y.size, self.k), dtype=bool)
        out[np.arange(y.size), y] = True
        return out

    def support_counts(self, reports: Any) -> np.ndarray:
        return np.bincount(self.report_index(reports), minlength=self.k).astype(np.int64)

    def _max_support_total(self, n: int) -> int:
        return n

    def column_support(self) -> np.ndarray:
        return np.eye(self.k, dtype=bool)

    def _simulate_counts(self, N: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One report's counts: k-RR at ``epsilon`` (its mixture law, O(k))."""
        return _grr_counts(N, self.p, self.q, rng)

    def simulate_support_counts(self, input_counts: Any, *, rng: Any = None) -> np.ndarray:
        """The support counts of one collection are its output counts (exact joint law)."""
        return self.simulate_counts(input_counts, rng=rng)

    def support_count_covariance(self, input_counts: Any) -> np.ndarray:
        r"""Exact covariance of the counts of one collection (a sum of multinomials, one k-RR report per
        user): :math:`\mathrm{Cov}(C_v, C_w) = -[p q (N_v + N_w) + q^2 (n - N_v - N_w)]` for ``v != w``,
        :math:`\mathrm{Var}\, C_v = N_v p(1-p) + (n - N_v) q(1-q)`."""
        N = self._cov_counts(input_counts)
        n, p, q = N.sum(), self.p, self.q
        cov = -(p * q * (N[:, None] + N[None, :]) + q * q * (n - N[:, None] - N[None, :]))
        np.fill_diagonal(cov, N * p * (1 - p) + (n - N) * q * (1 - q))
        return cov

    @contract(T=Integer(1, _MAX_T))
    def level_after(self, T: int) -> float:
        r"""Exact level of ``T`` reports of one memoised value:
        :math:`\max_{x, x', \mathbf y} \ln P(\mathbf y\mid x)/P(\mathbf y\mid x')` with
        :math:`P(\mathbf y \mid x) = \sum_m C_1[x, m] \prod_t C_2[m, y_t]`.

        ``P(y | x)`` depends on ``y`` only through the counts ``c_m`` of each value among the ``T``
        reports: :math:`\sum_m C_1[x, m]\, p_2^{c_m} q_2^{T - c_m}`; by symmetry the pair ``(0, 1)``
        is a worst pair, and the maximum runs over the :math:`\binom{T+k-1}{k-1}` count vectors
        (refused above ``2**22``).  ``T = 1`` gives ``epsilon``; the level increases to ``eps_perm``.
        """
        k = self.k
        if _log_comb(T + k - 1, k - 1) > math.log(_MAX_COMPOSITIONS):
            raise ValueError(f"T: the {k}-part compositions of T = {T} exceed {_MAX_COMPOSITIONS} count vectors")
        if self.q2 == 0.0:
            return self.eps_perm
        # count vectors (c_0, ..., c_{k-1}) summing to T, by stars and bars
        bars = np.array(list(itertools.combinations(range(T + k - 1), k - 1)), dtype=np.int64).reshape(-1, k - 1)
        edges = np.concatenate([np.full((bars.shape[0], 1), -1), bars, np.full((bars.shape[0], 1), T + k - 1)], axis=1)
        c = np.diff(edges, axis=1) - 1  # (compositions, k)
        lp2, lq2 = math.log(self.p2), math.log(self.q2)
        logA = c * lp2 + (T - c) * lq2  # log prod_t C2[m, y_t] for the memo m
        L1 = np.log(np.array([[self.p1, self.q1], [self.q1, self.p1]]))  # rows x = 0, 1; memo m = 0, 1
        lq1 = math.log(self.q1)

        def logp(x: int) -> np.ndarray:
            terms = logA + lq1
            terms[:, :2] = logA[:, :2] + L1[x][None, :]
            return logsumexp(terms, axis=1)

        d = logp(0) - logp(1)
        return float(max(d.max(), -d.min()))


# ---------------------------------------------------------------------------------------------
# L-OSUE
# ---------------------------------------------------------------------------------------------


class LOSUE(_TwoRound):
    r"""Longitudinal OUE-then-SUE, L-OSUE (Arcolezi, Couchot, Al Bouna and Xiao 2022), as a
    :class:`~ldpnb.mechanisms.Mechanism`.

    First round (memoised once per user and value): OUE at :math:`\varepsilon_\infty` on the one-hot
    encoding (true bit 1 with probability 1/2, the others with :math:`1/(e^{\varepsilon_\infty}+1)`);
    every report flips each memoised bit independently with probability :math:`q_2 = 1 - p_2`
    (:func:`losue_params`).  The bits stay independent, the true one is 1 with probability
    :math:`p = 1/2` and any other with :math:`q = 1/(e^{\varepsilon_1}+1)`: one report *is* OUE at
    :math:`\varepsilon_1` (``epsilon``), whose channel (``k x 2**k``, ``k <= 16``) :meth:`channel`
    is.  Arcolezi et al.'s estimator :math:`(C(v) - n q_1(p_2-q_2) - n q_2)/(n (p_1-q_1)(p_2-q_2))`
    is Wang et al.'s with these ``(p, q)``.  Claims: one report :math:`\varepsilon_1`-LDP (tight); the
    memoised bits :math:`\varepsilon_\infty`-LDP (:attr:`permanent`); ``T`` reports:
    :meth:`level_after`.

    Parameters
    ----------
    k : int
    epsilon : float
        :math:`\varepsilon_1`, the level of one report.
    eps_perm : float, optional
        :math:`\varepsilon_\infty \ge \varepsilon_1`; default :math:`2\varepsilon_1`.

    Examples
    --------
    >>> m = LOSUE(5, 1.0)
    >>> m.p, round(m.q * (math.e + 1), 12), round(m.tight_level(), 12)
    (0.5, 1.0, 1.0)
    """

    family = "L-OSUE"
    aliases = ("LOSUE", "longitudinal OSUE")
    #: The bits of one report are independent across values (the guide's flag).
    independent_supports = True

    @contract(k=Integer(2, MAX_DOMAIN), epsilon=EPSILON, eps_perm=Optional(EPSILON))
    def __init__(self, k: int, epsilon: float, eps_perm: float | None = None) -> None:
        self.k, self.epsilon = k, epsilon
        self.eps_perm = _check_levels(epsilon, eps_perm)
        self.p1, self.q1, self.p2, self.q2 = losue_params(epsilon, self.eps_perm)
        a = _exp_neg(epsilon)
        self.p, self.q = 0.5, a / (1.0 + a)
        self.p_minus_q = _ue_gap(epsilon, "oue")

    @classmethod
    def on(cls, domain: Domain, epsilon: float) -> LOSUE:
        """L-OSUE on the ``domain.size`` values, one report at ``epsilon``, memoised at ``2 epsilon``."""
        return cls(domain.size, epsilon)

    @property
    def n_outputs(self) -> int:
        return 1 << self.k

    @property
    def bits_per_report(self) -> int:
        return self.k

    @property
    def permanent(self) -> OUE:
        """The memoised round: OUE at ``eps_perm``."""
        return OUE(self.k, self.eps_perm)

    def _check_dense(self) -> None:
        if self.k > _MAX_UE_BITS:
            raise ValueError(
                f"k must be <= {_MAX_UE_BITS} for the exact channel (2**k columns), got {self.k}; "
                "use the sampler or the support-count simulator"
            )

    def _log_channel(self) -> np.ndarray:
        return _ue_log_channel(self.k, self.epsilon, "oue")

    def _log_ratios(self) -> np.ndarray:
        self._check_dense()
        bits = _bits_of_columns(self.k).T.astype(np.float64)
        return self.epsilon * (bits - bits[0])

    def _memoize(self, x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return _ue_sample(x, self.k, self.p1, self.q1, rng)

    def _check_memo(self, memo: Any) -> np.ndarray:
        return _check_reports_matrix(memo, self.k, name="memo")

    def _report(self, memo: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        if memo.size > MAX_BYTES:
            raise ValueError(f"memo: {memo.shape[0]} x {self.k} bits exceed {MAX_BYTES}")
        return memo ^ bernoulli_bits(rng, memo.shape, self.q2)

    def report_index(self, reports: Any) -> np.ndarray:
        return ue_pattern_index(_check_reports_matrix(reports, self.k))

    def support(self, reports: Any) -> np.ndarray:
        return _check_reports_matrix(reports, self.k)

    def support_counts(self, reports: Any) -> np.ndarray:
        return bool_column_counts(np.ascontiguousarray(self.support(reports)))

    def column_support(self) -> np.ndarray:
        self._check_dense()
        return _bits_of_columns(self.k)

    def simulate_support_counts(self, input_counts: Any, *, rng: Any = None) -> np.ndarray:
        """``C(v) ~ Bin(N_v, p) + Bin(n - N_v, q)`` independently over ``v`` (exact joint law: both
        rounds act on each bit independently)."""
        rng = check_random_state(rng)
        N = self._check_input_counts(input_counts)
        n = int(N.sum())
        return (rng.binomial(N, self.p) + rng.binomial(n - N, self.q)).astype(np.int64)

    def support_count_covariance(self, input_counts: Any) -> np.ndarray:
        """Exact covariance of the support counts: diagonal (independent bits),
        ``N_v p(1-p) + (n - N_v) q(1-q)``."""
        N = self._cov_counts(input_counts)
        n = N.sum()
        return np.diag(N * self.p * (1 - self.p) + (n - N) * self.q * (1 - self.q))

    @contract(T=Integer(1, _MAX_T))
    def level_after(self, T: int) -> float:
        r"""Exact level of ``T`` reports of one memoised value.

        The bits are independent and only the bits of the two values compared differ in law, so the
        level is :math:`\max_c L(c) + \max_c (-L(c))` with ``c`` the number of ones among the ``T``
        reports of one bit and :math:`L(c) = \ln P_1(c)/P_0(c)`,
        :math:`P_B(c) \propto P(M = 1 \mid B)\, p_2^c q_2^{T-c} + P(M = 0 \mid B)\, q_2^c p_2^{T-c}`
        (``M`` the memoised bit, ``B`` the true one).  ``T = 1`` gives ``epsilon``; the level increases
        to ``eps_perm``.
        """
        if self.q2 == 0.0:
            return self.eps_perm
        c = np.arange(T + 1, dtype=np.float64)
        lp2, lq2 = math.log(self.p2), math.log(self.q2)
        up, down = c * lp2 + (T - c) * lq2, c * lq2 + (T - c) * lp2
        lp1, lq1 = math.log(self.p1), math.log(self.q1)
        l1p1, l1q1 = math.log1p(-self.p1), math.log1p(-self.q1)
        log_true = np.logaddexp(lp1 + up, l1p1 + down)
        log_false = np.logaddexp(lq1 + up, l1q1 + down)
        L = log_true - log_false
        return float(L.max() + (-L).max())


# ---------------------------------------------------------------------------------------------
# dBitFlipPM
# ---------------------------------------------------------------------------------------------


def _uniform_subsets(n: int, k: int, d: int, rng: np.random.Generator) -> np.ndarray:
    """``(n, d)`` sorted uniform ``d``-subsets of ``[k]``, by Floyd's algorithm vectorised over the rows
    (``d`` rounds, cost ``O(n d^2)``): in round ``i = k-d..k-1`` draw ``t`` uniform on ``[0, i]`` and
    keep it unless already chosen, else take ``i``."""
    out = np.empty((n, d), dtype=np.int64)
    for col, i in enumerate(range(k - d, k)):
        t = rng.integers(0, i + 1, size=n, dtype=np.int64)
        taken = (out[:, :col] == t[:, None]).any(axis=1) if col else np.zeros(n, dtype=bool)
        out[:, col] = np.where(taken, i, t)
    out.sort(axis=1)
    return out


class DBitFlipPM(FrequencyOracle):
    r"""dBitFlipPM (Ding, Kulkarni and Yekhanin 2017, Microsoft's telemetry collection) as a
    :class:`~ldpnb.mechanisms.Mechanism`, on ``k`` buckets (the values themselves).

    A user draws once a uniform set :math:`J` of ``d`` buckets (without replacement) and, for the
    bucket ``x`` of her value, reports for each :math:`j \in J` a bit :math:`b_j` equal to 1 with
    probability :math:`e^{\varepsilon/2}/(e^{\varepsilon/2}+1)` if :math:`j = x` and
    :math:`1/(e^{\varepsilon/2}+1)` otherwise (:func:`dbitflip_params`).  Reports are pairs
    ``(J, bits)``: the sorted buckets ``(n, d)`` and their bits ``(n, d)``; the exact channel has the
    :math:`\binom kd 2^d` pairs as columns (``ss_subsets`` order of ``J``, times the bit pattern).
    Only the bits of ``x`` and ``x'`` differ in law between the two inputs, each by
    :math:`e^{\varepsilon/2}`: the claim :math:`\varepsilon`-LDP is tight for ``d >= 2`` and the
    exact level is :math:`\varepsilon/2` for ``d = 1`` (the claim holds, not tightly).

    **Estimators.**  A report supports the sampled buckets whose bit is 1: the true one with
    :math:`p = (d/k)e^{\varepsilon/2}/(e^{\varepsilon/2}+1)`, any other with
    :math:`q = (d/k)/(e^{\varepsilon/2}+1)`, so :meth:`estimate` (Wang et al. 2017, Eq. 2, from the
    support counts) is unbiased with :meth:`variance`.  Ding et al.'s own estimator also uses how
    many users sampled each bucket, :math:`M(v)` (:meth:`estimate_ding`):
    :math:`\hat f(v) = \frac{k}{nd}\,\frac{(e^{\varepsilon/2}+1)\,C(v) - M(v)}{e^{\varepsilon/2}-1}`,
    also unbiased, with the smaller variance of :meth:`ding_variance` (by
    :math:`(k/d - 1)/(n (e^{\varepsilon/2}-1)^2)` per value at ``f = 0``).

    **Memoisation** ("PM").  ``J`` is drawn once, and the response is memoised per *pattern* of the
    value on ``J`` (which sampled bucket it is, or none): the ``d + 1`` patterns (``k`` when ``d = k``)
    give ``d + 1`` memoised responses, and a value that keeps its pattern is reported identically
    forever.  One memoised response is :math:`\varepsilon`-LDP; a user whose values visit several
    patterns reveals one independent response per pattern, so by composition a sequence is at most
    :attr:`longitudinal_epsilon` :math:`= \min(d+1, k)\,\varepsilon`-LDP.

    Parameters
    ----------
    k : int
        Number of buckets.
    epsilon : float
    d : int, optional
        Bits per report, ``1 <= d <= k``; default ``min(2, k)``, the smallest ``d`` at which the
        claim is tight (a choice of this toolkit, not of Ding et al.).

    Examples
    --------
    >>> m = DBitFlipPM(6, 1.0)
    >>> m.d, m.n_outputs, round(m.tight_level(), 12), round(DBitFlipPM(6, 1.0, d=1).tight_level(), 12)
    (2, 60, 1.0, 0.5)
    """

    family = "dBitFlipPM"
    aliases = ("dBitFlip", "d-bit flip", "dbitflip-pm")
    independent_supports = False

    @contract(k=Integer(2, MAX_DOMAIN), epsilon=EPSILON, d=Optional(Integer(1, MAX_DOMAIN)))
    def __init__(self, k: int, epsilon: float, d: int | None = None) -> None:
        self.k, self.epsilon = k, epsilon
        self.d, self.p_bit, self.q_bit, self.p, self.q = dbitflip_params(k, epsilon, d)
        self.p_minus_q = self.d * -math.expm1(-epsilon / 2.0) / (k * (1.0 + _exp_neg(epsilon / 2.0)))

    @classmethod
    def on(cls, domain: Domain, epsilon: float) -> DBitFlipPM:
        """dBitFlipPM on the ``domain.size`` buckets with ``d = 2`` bits."""
        return cls(domain.size, epsilon)

    @property
    def n_outputs(self) -> int:
        return math.comb(self.k, self.d) << self.d

    @property
    def bits_per_report(self) -> int:
        """``d`` bits (the sampled buckets are drawn once: ``d ceil(log2 k)`` more bits once per user)."""
        return self.d

    @property
    def longitudinal_epsilon(self) -> float:
        """Bound on any sequence of reports: one :math:`\\varepsilon` per memoised pattern, at most
        ``min(d + 1, k)`` patterns (composition)."""
        return min(self.d + 1, self.k) * self.epsilon

    def params(self) -> dict[str, Any]:
        return {"k": self.k, "epsilon": self.epsilon, "d": self.d}

    def _check_dense(self) -> None:
        if _log_comb(self.k, self.d) + self.d * math.log(2) + math.log(self.k) > math.log(MAX_ENTRIES):
            raise ValueError(
                f"the exact channel of {self!r} has k C(k, d) 2**d entries, more than {MAX_ENTRIES}; "
                "use the sampler or the support-count simulator"
            )

    def _columns(self) -> tuple[np.ndarray, np.ndarray]:
        """``(J, bits)`` of every column: ``(m, d)`` sorted buckets and ``(m, d)`` bits."""
        members = ss_subsets(self.k, self.d)  # (C(k, d), k), lexicographic
        J = np.nonzero(members)[1].reshape(-1, self.d)
        patterns = ((np.arange(1 << self.d)[:, None] >> np.arange(self.d)[None, :]) & 1).astype(bool)
        Jc = np.repeat(J, 1 << self.d, axis=0)
        bits = np.tile(patterns, (J.shape[0], 1))
        return Jc, bits

    def _log_channel(self) -> np.ndarray:
        Jc, bits = self._columns()
        x = np.arange(self.k)[:, None, None]
        agree = (bits[None, :, :] == (Jc[None, :, :] == x)).sum(axis=2)  # (k, m)
        lp = -math.log1p(_exp_neg(self.epsilon / 2.0))
        lq = lp - self.epsilon / 2.0
        return -_log_comb(self.k, self.d) + agree * lp + (self.d - agree) * lq

    def _log_ratios(self) -> np.ndarray:
        """``log(C[x, .] / C[0, .]) = (eps/2) (agreements under x - agreements under 0)``."""
        self._check_dense()
        Jc, bits = self._columns()
        x = np.arange(self.k)[:, None, None]
        agree = (bits[None, :, :] == (Jc[None, :, :] == x)).sum(axis=2).astype(np.float64)
        return 0.5 * self.epsilon * (agree - agree[0])

    def _perturb(self, x: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        if x.size * self.d > MAX_BYTES // 8:
            raise ValueError(f"x: {x.size} reports of {self.d} buckets exceed {MAX_BYTES // 8} entries")
        J = _uniform_subsets(x.size, self.k, self.d, rng)
        prob = np.where(J == x[:, None], self.p_bit, self.q_bit)
        return J, rng.random(J.shape) < prob

    def _check_reports(self, reports: Any) -> tuple[np.ndarray, np.ndarray]:
        if not isinstance(reports, tuple) or len(reports) != 2:
            raise TypeError("reports must be the pair (J, bits) returned by perturb")
        J_in, bits_in = reports
        J: np.ndarray = np.asarray(J_in)
        if J.ndim != 2 or J.shape[1] != self.d or J.shape[0] < 1:
            raise ValueError(f"reports: J must have shape (n, {self.d}) with n >= 1, got {J.shape}")
        J = check_values(J.reshape(-1), self.k, name="J").reshape(J.shape)
        if np.any(np.diff(J, axis=1) <= 0):
            raise ValueError("reports: every row of J must hold d distinct buckets in increasing order")
        bits: np.ndarray = _check_reports_matrix(bits_in, self.d, name="bits")
        n_users, n_bits = len(J), len(bits)
        if n_bits != n_users:
            raise ValueError(f"reports: bits must have one row per user ({n_users}), got {n_bits}")
        return J, bits

    def n_reports(self, reports: Any) -> int:
        return int(self._check_reports(reports)[0].shape[0])

    def report_index(self, reports: Any) -> np.ndarray:
        """Column of the exact channel: ``rank(J) 2**d + sum_t bits_t 2**t`` (``J`` in ``ss_subsets`` order)."""
        J, bits = self._check_reports(reports)
        members = np.zeros((J.shape[0], self.k), dtype=bool)
        members[np.arange(J.shape[0])[:, None], J] = True
        rank = ss_subset_index(members)
        return (rank << self.d) + (bits.astype(np.int64) << np.arange(self.d, dtype=np.int64)).sum(axis=1)

    def support(self, reports: Any) -> np.ndarray:
        """``(n, k)`` boolean: bucket ``v`` sampled with bit 1."""
        J, bits = self._check_reports(reports)
        if J.shape[0] * self.k > MAX_BYTES:
            raise ValueError(f"reports: a support matrix of {J.shape[0]} x {self.k} entries exceeds {MAX_BYTES}")
        out = np.zeros((J.shape[0], self.k), dtype=bool)
        out[np.arange(J.shape[0])[:, None], J] = bits
        return out

    def support_counts(self, reports: Any) -> np.ndarray:
        J, bits = self._check_reports(reports)
        return np.bincount(J[bits], minlength=self.k).astype(np.int64)

    def sampled_counts(self, reports: Any) -> np.ndarray:
        """``M(v)``: the number of users who sampled bucket ``v``."""
        J, _ = self._check_reports(reports)
        return np.bincount(J.reshape(-1), minlength=self.k).astype(np.int64)

    def _max_support_total(self, n: int) -> int:
        return n * self.d

    def column_support(self) -> np.ndarray:
        self._check_dense()
        Jc, bits = self._columns()
        out = np.zeros((Jc.shape[0], self.k), dtype=bool)
        out[np.arange(Jc.shape[0])[:, None], Jc] = bits
        return out

    def support_count_covariance(self, input_counts: Any) -> np.ndarray:
        r"""Exact covariance of the support counts of users with input counts ``N``.

        One user holding ``x`` supports ``v != w`` together when both are sampled (probability
        :math:`d(d-1)/(k(k-1))`) and both bits are 1 (independent, :math:`\pi_v \pi_w` with
        :math:`\pi_v = p_{bit}` if ``v = x`` else :math:`q_{bit}`), and ``v`` alone with
        :math:`(d/k)\pi_v`, so

        .. math:: \mathrm{Cov}(C_v, C_w) = \Big(\frac{d(d-1)}{k(k-1)} - \frac{d^2}{k^2}\Big)
                  \big[p_{bit} q_{bit} (N_v + N_w) + q_{bit}^2 (n - N_v - N_w)\big] \le 0 .
        """
        N = self._check_input_counts(input_counts).astype(np.float64)
        if self.k > MAX_DENSE:
            raise ValueError(f"a {self.k} x {self.k} covariance exceeds the dense limit {MAX_DENSE}")
        n, k, d, pb, qb = N.sum(), self.k, self.d, self.p_bit, self.q_bit
        c = d * (d - 1) / (k * (k - 1)) - (d / k) ** 2
        cov = c * (pb * qb * (N[:, None] + N[None, :]) + qb * qb * (n - N[:, None] - N[None, :]))
        np.fill_diagonal(cov, N * self.p * (1 - self.p) + (n - N) * self.q * (1 - self.q))
        return cov

    # ------------------------------------------------------------------ Ding et al.'s estimator
    def ding_estimate(self, support_counts: Any, sampled_counts: Any, n: int) -> np.ndarray:
        r"""Ding et al.'s estimate :math:`\frac{k}{nd}\frac{(e^{\varepsilon/2}+1) C(v) - M(v)}{e^{\varepsilon/2}-1}`."""
        c, n = self.check_support_counts(support_counts, n)
        M, _ = self.check_support_counts(sampled_counts, n, name="sampled_counts")
        if np.any(c > M):
            raise ValueError(
                "support_counts must be at most sampled_counts (a bit is reported only for a sampled bucket)"
            )
        e = math.exp(self.epsilon / 2.0)
        return self.k * ((e + 1.0) * c - M) / (n * self.d * math.expm1(self.epsilon / 2.0))

    def estimate_ding(self, reports: Any) -> np.ndarray:
        """:meth:`ding_estimate` from the reports of :meth:`perturb`."""
        return self.ding_estimate(self.support_counts(reports), self.sampled_counts(reports), self.n_reports(reports))

    def ding_variance(self, n: int, f: Any = 0.0) -> np.ndarray:
        r"""Exact variance of :meth:`ding_estimate` for ``n`` users of whom a fraction ``f`` hold the value:

        .. math:: \frac1n\Big[f\Big(\frac kd\,\frac{e^2 - e + 1}{(e-1)^2} - 1\Big) + (1-f)\,\frac kd\,
                  \frac{e}{(e-1)^2}\Big], \qquad e = e^{\varepsilon/2}

        (each user contributes :math:`\frac{k}{nd}[v\in J](b(e+1)-1)/(e-1)`: mean ``1/n`` and second
        moment :math:`\frac{k}{n^2 d}(e^2-e+1)/(e-1)^2` for the holders of ``v``, mean 0 and second
        moment :math:`\frac{k}{n^2 d}\,e/(e-1)^2` for the others)."""
        n = POSITIVE.check(n, "n")
        f = Array(None, low=0.0, high=1.0).check(f, "f") if np.ndim(f) else Real(0.0, 1.0).check(f, "f")
        if np.ndim(f) and f.shape != (self.k,):
            raise ValueError(f"f must be a scalar or have one entry per value ({self.k}), got shape {f.shape}")
        e = math.exp(self.epsilon / 2.0)
        em1 = math.expm1(self.epsilon / 2.0)
        r = self.k / self.d
        return (f * (r * (e * e - e + 1.0) / em1**2 - 1.0) + (1.0 - f) * r * e / em1**2) / n

    # ------------------------------------------------------------------ count-level simulation
    def _simulate_both(self, N: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        r"""``(C, M)`` for input counts ``N``, exact in law (joint law included), cost ``O(k d)``.

        The buckets are visited in order ``v = 0..k-1``; a user with ``r`` picks left among the
        ``R = k - v`` remaining buckets samples ``v`` with probability ``r / R`` (the rest of a uniform
        ``d``-subset is a uniform ``r``-subset of the remaining buckets).  Users are tracked by counts:
        ``P[r]`` for values already passed, ``F[r]`` for values still ahead.  At ``v``, the ``N_v``
        holders of ``v`` are a uniformly random part of ``F`` (the subsets are independent of the
        values), so their profile is multivariate hypergeometric; each group's pickers are binomial.
        Given who sampled ``v``, the bits are independent: ``C(v) = Bin(pickers holding v, p_bit) +
        Bin(other pickers, q_bit)``."""
        k, d = self.k, self.d
        if k * (d + 1) > _MAX_SIMULATION:
            raise ValueError(
                f"the count simulator of {self!r} takes k (d + 1) = {k * (d + 1)} steps, more than {_MAX_SIMULATION}"
            )
        F = np.zeros(d + 1, dtype=np.int64)
        F[d] = int(N.sum())
        P = np.zeros(d + 1, dtype=np.int64)
        r = np.arange(d + 1)
        C = np.zeros(k, dtype=np.int64)
        M = np.zeros(k, dtype=np.int64)
        for v in range(k):
            R = k - v
            H = rng.multivariate_hypergeometric(F, int(N[v])) if N[v] else np.zeros(d + 1, dtype=np.int64)
            F = F - H
            prob = np.minimum(r / R, 1.0)
            ph, pf, pp = rng.binomial(H, prob), rng.binomial(F, prob), rng.binomial(P, prob)
            true_pick, other_pick = int(ph.sum()), int(pf.sum() + pp.sum())
            M[v] = true_pick + other_pick
            C[v] = rng.binomial(true_pick, self.p_bit) + rng.binomial(other_pick, self.q_bit)
            shift = lambda G, picked: G - picked + np.r_[picked[1:], 0]  # noqa: E731  r -> r - 1
            H, F, P = shift(H, ph), shift(F, pf), shift(P, pp)
            P = P + H
        return C, M

    def simulate_support_counts(self, input_counts: Any, *, rng: Any = None) -> np.ndarray:
        """Support counts for input counts ``N``, exact in law (joint law included), cost ``O(k d)``
        (see :meth:`simulate_support_and_sampled_counts`)."""
        return self.simulate_support_and_sampled_counts(input_counts, rng=rng)[0]

    def simulate_support_and_sampled_counts(
        self, input_counts: Any, *, rng: Any = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(C, M)``: support counts and sampled counts of one collection, exact joint law (the input
        of :meth:`ding_estimate`)."""
        rng = check_random_state(rng)
        N = self._check_input_counts(input_counts)
        return self._simulate_both(N, rng)

    # ------------------------------------------------------------------ memoisation
    def perturb_longitudinal(self, values: Any, *, rng: Any = None) -> list[tuple[np.ndarray, np.ndarray]]:
        """Reports of users whose values change over time: ``values`` is ``(n, T)``; ``J`` is drawn once
        per user, and one response per pattern (the position of the value in ``J``, or none) is
        memoised and reported whenever the value has that pattern."""
        V = Array(2, integer=True, low=0).check(values, "values")
        n, T = V.shape
        if n < 1 or T < 1:
            raise ValueError(f"values must have shape (n, T) with n, T >= 1, got {V.shape}")
        check_values(V.reshape(-1), self.k, name="values")
        if n * (self.d + 1) * self.d > MAX_BYTES:
            raise ValueError(f"values: {n} users x {self.d + 1} memoised responses exceed {MAX_BYTES} bits")
        rng = check_random_state(rng)
        J = _uniform_subsets(n, self.k, self.d, rng)
        # memo[i, t, j]: the bit of sampled bucket j when the value is J[i, t] (t < d) or outside J (t = d)
        own = np.arange(self.d)[None, :, None] == np.arange(self.d)[None, None, :]
        prob = np.where(np.concatenate([own, np.zeros((1, 1, self.d), dtype=bool)], axis=1), self.p_bit, self.q_bit)
        memo = rng.random((n, self.d + 1, self.d)) < prob
        out = []
        for t in range(T):
            hit = J == V[:, t][:, None]
            pattern = np.where(hit.any(axis=1), hit.argmax(axis=1), self.d)
            out.append((J, memo[np.arange(n), pattern]))
        return out
