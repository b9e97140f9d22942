r"""RAPPOR with Bloom filters (Erlingsson, Pihur and Korolova 2014), on a known candidate domain.

A client reports a string ``v`` through three steps (Erlingsson et al. 2014; Google's client
``rappor.py``):

1. **Signal**: a Bloom filter ``B`` of ``m`` bits with the ``h`` bits :math:`B_c(v)` set, for the
   client's cohort ``c`` (uniform on ``C`` cohorts, each with its own hash functions);
2. **Permanent randomized response (PRR)**, memoised per client and value:
   :math:`B'_i = 1` with probability :math:`f/2`, 0 with probability :math:`f/2`, else :math:`B_i`;
3. **Instantaneous randomized response (IRR)**, at every report: :math:`S_i = 1` with probability
   ``q`` if :math:`B'_i = 1`, ``p`` if :math:`B'_i = 0`.

The report is ``(c, S)``.  The paper's claims: the PRR, hence any number of reports of
one value, is :math:`\varepsilon_\infty = 2h \ln\frac{1 - f/2}{f/2}`-LDP; one report is
:math:`\varepsilon_1 = h \ln\frac{q^*(1-p^*)}{p^*(1-q^*)}`-LDP with
:math:`q^* = P(S_i = 1 \mid B_i = 1) = \tfrac12 f (p + q) + (1 - f) q` and
:math:`p^* = P(S_i = 1 \mid B_i = 0) = \tfrac12 f (p + q) + (1 - f) p`.  Both are tight exactly when
two candidates have disjoint filters of ``h`` bits each in some cohort (:meth:`BloomRAPPOR.exact_level`
gives the exact level in closed form otherwise).

**The Bloom filter** is the deployed one: bit ``j`` of value ``v`` in cohort ``c`` is
``(d[0] + 256 d[1]) mod m`` with ``d`` the SHA-1 digest of the string ``f"{c}{j}{v}"``
(Google's ``get_bf_bit``; candidates are the decimal strings of ``0..k-1``).

**The exact channel, compressed.**  Given the value, the bits of one report are independent:
``S_i`` is 1 with probability :math:`q^*` if ``i`` is in :math:`B_c(x)`, :math:`p^*` otherwise.  A
bit that is in no candidate's filter of cohort ``c`` (outside :math:`U_c = \bigcup_x B_c(x)`) has
the same law under every input, so with :math:`s = S|_{U_c}`,

.. math:: P((c, S) \mid x) = P((c, s) \mid x) \prod_{i \notin U_c} (p^*)^{S_i} (1 - p^*)^{1 - S_i},

and the second factor does not depend on ``x``: ``(c, s)`` is a sufficient statistic, and the
channel on the :math:`\sum_c 2^{|U_c|}` outputs ``(c, s)`` (:meth:`BloomRAPPOR.channel`) has the
levels, posteriors, likelihood ratios and mutual information of the full channel on
:math:`C\,2^m` outputs (the full channel is the compressed one times a stochastic matrix whose rows
do not depend on ``x``).  It is dense up to ``2**20`` columns (``|U_c| <= 20``).

**Decoding** (the paper's, on a known domain): per cohort the counts of ones ``c_{ci}`` among
:math:`N_c` reports give :math:`t_{ci} = (c_{ci} - p^* N_c)/(q^* - p^*)`, unbiased for the number of
the cohort's clients whose true bit ``i`` is set; with the design
:math:`X[(c, i), x] = [i \in B_c(x)]`, :math:`E[t] = X \beta` with :math:`\beta_x = N_x / C`, and the
least-squares estimate :math:`\hat f = (C/n) (X^\top X)^{-1} X^\top t` is unbiased when ``X`` has
full column rank (:attr:`BloomRAPPOR.identifiable`; the paper selects candidates by Lasso first when
the candidate set is large, then fits by least squares).  Its exact covariance for a fixed
population is :meth:`BloomRAPPOR.covariance`.  This is not the support-count interface of a pure
frequency oracle (no report "supports" a value with fixed ``(p, q)``): :class:`BloomRAPPOR` offers
``bit_counts``, ``simulate_bit_counts`` and ``estimate(bit_counts, cohort_sizes)`` instead.

References
----------
Ú. Erlingsson, V. Pihur, A. Korolova, "RAPPOR: Randomized Aggregatable Privacy-Preserving Ordinal
Response", ACM CCS 2014 (arXiv:1407.6981).  Google's implementation: github.com/google/rappor
(``client/python/rappor.py``).
"""

from __future__ import annotations

import hashlib
import math
from typing import Any

import numpy as np

from ldpnb.contracts import EPSILON, MAX_BYTES, MAX_ENTRIES, Array, Counts, Integer, Optional, Probability, contract
from ldpnb.mechanisms._base import ChannelMechanism, Domain, Guarantee, LevelCheck, Mechanism
from ldpnb.mechanisms._common import _exp_neg
from ldpnb.utils import check_random_state

__all__ = ["rappor_bloom_bits", "rappor_params", "BloomRAPPOR"]

#: Largest number of relevant bits of a cohort in the dense compressed channel (``2**20`` columns).
_MAX_RELEVANT_BITS = 20
#: Largest number of SHA-1 digests of the Bloom filters (``k h cohorts``; a few seconds).
_MAX_DIGESTS = 1 << 22
_PROB = Probability()


@contract(k=Integer(1, 1 << 24), h=Integer(1, 64), m=Integer(1, 1 << 16), cohorts=Integer(1, 1 << 12))
def rappor_bloom_bits(k: int, h: int, m: int, cohorts: int = 1) -> np.ndarray:
    """The Bloom-filter bits of the candidates ``"0"`` to ``str(k-1)``: int64 ``(cohorts, k, h)``.

    Bit ``j`` of value ``v`` in cohort ``c`` is ``(d[0] + 256 d[1]) mod m`` with ``d`` the SHA-1
    digest of ``f"{c}{j}{v}"`` (Google's ``get_bf_bit``, which hashes ``'%s%s%s' % (cohort, hash_no,
    word)``).  The ``h`` bits of a value may coincide (a filter of fewer than ``h`` bits).

    Examples
    --------
    >>> rappor_bloom_bits(3, 2, 16).shape
    (1, 3, 2)
    """
    if k * h * cohorts > _MAX_DIGESTS:
        raise ValueError(f"k h cohorts = {k * h * cohorts} SHA-1 digests exceed {_MAX_DIGESTS}")
    out = np.empty((cohorts, k, h), dtype=np.int64)
    for c in range(cohorts):
        for j in range(h):
            for v in range(k):
                d = hashlib.sha1(f"{c}{j}{v}".encode()).digest()
                out[c, v, j] = (d[0] + 256 * d[1]) % m
    return out


@contract(epsilon=EPSILON, h=Integer(1, 64), p=_PROB, q=_PROB)
def rappor_params(epsilon: float, h: int = 2, p: float = 0.5, q: float = 0.75) -> tuple[float, float, float, float]:
    r"""``(f, p_star, q_star, eps_1)`` of RAPPOR with :math:`\varepsilon_\infty` = ``epsilon``.

    :math:`f = 2/(1 + e^{\varepsilon_\infty/(2h)})` solves :math:`\varepsilon_\infty = 2h\ln((1-f/2)/(f/2))`
    (Erlingsson et al. 2014); :math:`q^* = \tfrac12 f(p+q) + (1-f)q`,
    :math:`p^* = \tfrac12 f(p+q) + (1-f)p` and the one-report level
    :math:`\varepsilon_1 = h\ln\frac{q^*(1-p^*)}{p^*(1-q^*)}` (ibid.; the absolute value of
    the log when ``q < p``).  Defaults ``p = 0.5``, ``q = 0.75``: Google's client.

    Examples
    --------
    >>> f, ps, qs, e1 = rappor_params(4 * math.log(3.0))  # f = 1/2
    >>> round(f, 12), round(ps, 6), round(qs, 6), round(e1, 4)
    (0.5, 0.5625, 0.6875, 1.0743)
    """
    f = 2.0 * _exp_neg(epsilon / (2 * h)) / (1.0 + _exp_neg(epsilon / (2 * h)))  # 2 / (1 + e^{eps/2h})
    qs = 0.5 * f * (p + q) + (1.0 - f) * q
    ps = 0.5 * f * (p + q) + (1.0 - f) * p
    if not 0.0 < ps < 1.0 or not 0.0 < qs < 1.0 or ps == qs:
        raise ValueError(f"p and q must give 0 < p* != q* < 1, got p*={ps}, q*={qs} (p={p}, q={q}, f={f})")
    e1 = h * abs(math.log(qs) + math.log1p(-ps) - math.log(ps) - math.log1p(-qs))
    return f, ps, qs, e1


class BloomRAPPOR(Mechanism):
    r"""RAPPOR with Bloom filters (Erlingsson et al. 2014) on the ``k`` candidates ``0..k-1`` (see the
    module docstring for the channel, the claims and the decoding).

    Parameters
    ----------
    k : int
        Number of candidate values (``k <= m C`` for an identifiable decoding).
    epsilon : float
        :math:`\varepsilon_\infty`, the level of the memoised PRR (Erlingsson et al. 2014); it sets
        :math:`f = 2/(1 + e^{\varepsilon_\infty/(2h)})`.  One report is
        :math:`\varepsilon_1`-LDP (:attr:`eps_1`; Erlingsson et al. 2014), the claim of :meth:`channel`.
    h : int
        Hash functions per cohort (default 2, Google's client).
    m : int
        Bloom-filter bits (default 16, Google's client; at most ``2**16``).
    cohorts : int
        Number of cohorts (default 1; Google's client uses 64).
    p, q : float
        IRR probabilities (defaults 0.5 and 0.75, Google's client).

    Examples
    --------
    >>> r = BloomRAPPOR(8, 4 * math.log(3.0))
    >>> round(r.f, 12), round(r.eps_1, 4), bool(r.check()), bool(r.check_longitudinal())
    (0.5, 1.0743, True, True)
    """

    family = "Bloom RAPPOR"
    aliases = ("RAPPOR (Bloom)", "bloom-rappor", "RAPPOR-BF")
    full_support = True

    @contract(
        k=Integer(2, 1 << 20),
        epsilon=EPSILON,
        h=Integer(1, 64),
        m=Integer(2, 1 << 16),
        cohorts=Integer(1, 1 << 12),
        p=_PROB,
        q=_PROB,
    )
    def __init__(
        self, k: int, epsilon: float, h: int = 2, m: int = 16, cohorts: int = 1, p: float = 0.5, q: float = 0.75
    ) -> None:
        if cohorts * k * m > MAX_ENTRIES:
            raise ValueError(f"cohorts k m = {cohorts * k * m} filter bits exceed {MAX_ENTRIES}")
        self.k, self.epsilon, self.h, self.m, self.cohorts, self.p_irr, self.q_irr = k, epsilon, h, m, cohorts, p, q
        self.f, self.p_star, self.q_star, self.eps_1 = rappor_params(epsilon, h, p, q)
        self.bloom_bits = rappor_bloom_bits(k, h, m, cohorts)  # (C, k, h)
        B = np.zeros((cohorts, k, m), dtype=bool)
        B[np.arange(cohorts)[:, None, None], np.arange(k)[None, :, None], self.bloom_bits] = True
        self._filters = B
        self._relevant = [np.flatnonzero(B[c].any(axis=0)) for c in range(cohorts)]  # U_c
        sizes = np.array([u.size for u in self._relevant], dtype=np.int64)
        self._offsets = np.concatenate([[0], np.cumsum(np.left_shift(np.int64(1), sizes))]).astype(np.int64)

    @classmethod
    def on(cls, domain: Domain, epsilon: float) -> BloomRAPPOR:
        """RAPPOR with Google's client defaults (``h = 2``, ``m = 16``, ``p = 0.5``, ``q = 0.75``), one
        cohort, :math:`\\varepsilon_\\infty` = ``epsilon``, on the ``domain.size`` candidates."""
        return cls(domain.size, epsilon)

    def params(self) -> dict[str, Any]:
        return {
            "k": self.k,
            "epsilon": self.epsilon,
            "h": self.h,
            "m": self.m,
            "cohorts": self.cohorts,
            "p": self.p_irr,
            "q": self.q_irr,
        }

    # ------------------------------------------------------------------ claims
    @property
    def guarantee(self) -> Guarantee:
        """One report: :math:`\\varepsilon_1`-LDP (Erlingsson et al. 2014)."""
        return Guarantee("ldp", self.eps_1)

    @property
    def longitudinal_guarantee(self) -> Guarantee:
        """The PRR, hence any number of reports of one value: :math:`\\varepsilon_\\infty`-LDP (Erlingsson
        et al. 2014)."""
        return Guarantee("ldp", self.epsilon, about="the value, over any number of reports")

    def filters(self) -> np.ndarray:
        """The Bloom filters ``(cohorts, k, m)`` (boolean)."""
        return self._filters.copy()

    def exact_level(self, which: str = "report") -> float:
        r"""The exact level in closed form, from the filters: for two values ``x, x'`` of one cohort,
        with ``a = |B(x) \ B(x')|`` and ``b = |B(x') \ B(x)|``, the worst output sets the ``a`` bits
        and clears the ``b`` bits, so the level is :math:`\max(a\,\lambda_1 + b\,\lambda_0)` with
        :math:`\lambda_1 = \ln(q^*/p^*)` and :math:`\lambda_0 = \ln((1-p^*)/(1-q^*))` for one report
        (``which="report"``) and :math:`\lambda_1 = \lambda_0 = \ln((1-f/2)/(f/2))` for the PRR
        (``which="permanent"``); it equals the claim iff some cohort has two disjoint filters of ``h``
        bits each."""
        if which == "report":
            l1 = abs(math.log(self.q_star) - math.log(self.p_star))
            l0 = abs(math.log1p(-self.p_star) - math.log1p(-self.q_star))
        elif which == "permanent":
            l1 = l0 = abs(math.log1p(-self.f / 2) - math.log(self.f / 2))
        else:
            raise ValueError(f"which must be 'report' or 'permanent', got {which!r}")
        best = 0.0
        for c in range(self.cohorts):
            B = self._filters[c].astype(np.int64)  # (k, m)
            inter = B @ B.T
            size = B.sum(axis=1)
            a = size[:, None] - inter  # |B(x) \ B(x')|
            best = max(best, float((a * l1 + a.T * l0).max()))
        return best

    # ------------------------------------------------------------------ the compressed exact channel
    @property
    def n_inputs(self) -> int:
        return self.k

    @property
    def n_outputs(self) -> int:
        return int(self._offsets[-1])

    def _check_dense(self) -> None:
        big = max(u.size for u in self._relevant)
        if big > _MAX_RELEVANT_BITS or self.k * self.n_outputs > MAX_ENTRIES:
            raise ValueError(
                f"the compressed channel of {self!r} has a cohort with {big} relevant bits "
                f"(2**{big} columns; at most 2**{_MAX_RELEVANT_BITS}); use the sampler and the "
                "bit-count simulator"
            )

    def _bit_log_channel(self, l_in1: float, l_in0: float, l_out1: float, l_out0: float) -> np.ndarray:
        """Log channel of independent relevant bits: ``log P(bit = 1)`` is ``l_in1`` for a bit of the
        value's filter and ``l_out1`` otherwise (``l_in0``, ``l_out0`` for 0), over ``(c, s)``."""
        self._check_dense()
        blocks = []
        for c, U in enumerate(self._relevant):
            u = U.size
            bits = ((np.arange(1 << u)[:, None] >> np.arange(u)[None, :]) & 1).astype(np.float64)  # (2**u, u)
            mem = self._filters[c][:, U].astype(np.float64)  # (k, u)
            one = mem * l_in1 + (1 - mem) * l_out1
            zero = mem * l_in0 + (1 - mem) * l_out0
            blocks.append(one @ bits.T + zero @ (1 - bits).T - math.log(self.cohorts))
        return np.concatenate(blocks, axis=1)

    def _log_channel(self) -> np.ndarray:
        return self._bit_log_channel(
            math.log(self.q_star), math.log1p(-self.q_star), math.log(self.p_star), math.log1p(-self.p_star)
        )

    @property
    def permanent(self) -> ChannelMechanism:
        """The PRR as a mechanism on the same compressed outputs (memoised bits ``B'`` restricted to
        ``U_c``): bit of the filter 1 with probability ``1 - f/2``, other bits ``f/2``; claim
        :math:`\\varepsilon_\\infty`-LDP (Erlingsson et al. 2014)."""
        lf = math.log(self.f / 2)
        l1f = math.log1p(-self.f / 2)
        L = self._bit_log_channel(l1f, lf, lf, l1f)
        return ChannelMechanism(log_channel=L, epsilon=self.epsilon, family="Bloom RAPPOR (PRR)")

    def check_longitudinal(self, rtol: float = 1e-9) -> LevelCheck:
        """Does the PRR keep :math:`\\varepsilon_\\infty`?  (Any number of reports of one value reveal at
        most what the memoised ``B'`` reveals: post-processing.)"""
        return self.permanent.check(rtol)

    # ------------------------------------------------------------------ sampling
    def memoize(self, x: Any, *, rng: Any = None) -> tuple[np.ndarray, np.ndarray]:
        """The PRR of users holding ``x``: ``(cohort (n,), B' (n, m))``, drawn once per user and value."""
        rng = check_random_state(rng)
        return self._memoize(self._check_inputs(x), rng)

    def _memoize(self, x: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        if x.size * self.m > MAX_BYTES:
            raise ValueError(f"x: {x.size} reports of {self.m} bits exceed {MAX_BYTES}")
        c = rng.integers(0, self.cohorts, size=x.size, dtype=np.int64)
        B = self._filters[c, x]  # (n, m)
        u = rng.random(B.shape)
        prr = np.where(u < self.f / 2, True, np.where(u < self.f, False, B))
        return c, prr

    def report(self, memo: tuple[np.ndarray, np.ndarray], *, rng: Any = None) -> tuple[np.ndarray, np.ndarray]:
        """One IRR of each memoised ``(cohort, B')``: ``S_i`` is 1 with probability ``q`` if ``B'_i``, else ``p``."""
        rng = check_random_state(rng)
        c, prr = self._check_reports(memo, name="memo")
        return c, rng.random(prr.shape) < np.where(prr, self.q_irr, self.p_irr)

    def _perturb(self, x: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        c, prr = self._memoize(x, rng)
        return c, rng.random(prr.shape) < np.where(prr, self.q_irr, self.p_irr)

    def perturb_longitudinal(self, x: Any, T: int, *, rng: Any = None) -> list[tuple[np.ndarray, np.ndarray]]:
        """``T`` reports of each user's (constant) value: one PRR, ``T`` IRRs."""
        T = Integer(1, 1 << 20).check(T, "T")
        rng = check_random_state(rng)
        memo = self._memoize(self._check_inputs(x), rng)
        return [self.report(memo, rng=rng) for _ in range(T)]

    def _check_reports(self, reports: Any, name: str = "reports") -> tuple[np.ndarray, np.ndarray]:
        """``name``: ``"reports"`` (of :meth:`perturb`) or ``"memo"`` (of :meth:`memoize`), for the messages."""
        if not isinstance(reports, tuple) or len(reports) != 2:
            made_by = "memoize" if name == "memo" else "perturb"
            raise TypeError(
                f"{name} must be the pair (cohorts, bits) returned by {made_by}, got {type(reports).__name__}"
            )
        c = Array(1, integer=True, low=0, high=self.cohorts - 1).check(reports[0], f"{name}: cohorts")
        S = np.asarray(reports[1])
        if S.ndim != 2 or S.shape != (c.size, self.m):
            raise ValueError(f"{name}: bits must have shape ({c.size}, {self.m}), got {S.shape}")
        if S.dtype != bool:
            if S.dtype.kind not in "biu" or not np.all((S == 0) | (S == 1)):
                raise ValueError(f"{name}: bits must contain only booleans or 0/1")
            S = S.astype(bool)
        return c, S

    def n_reports(self, reports: Any) -> int:
        return int(self._check_reports(reports)[0].size)

    def report_index(self, reports: Any) -> np.ndarray:
        """Column of :meth:`channel`: the cohort's offset plus ``sum_j S[U_c[j]] 2**j``."""
        c, S = self._check_reports(reports)
        out = np.empty(c.size, dtype=np.int64)
        for cc, U in enumerate(self._relevant):
            rows = np.flatnonzero(c == cc)
            if rows.size:
                sub = S[np.ix_(rows, U)].astype(np.int64)
                out[rows] = self._offsets[cc] + (sub << np.arange(U.size, dtype=np.int64)).sum(axis=1)
        return out

    # ------------------------------------------------------------------ counts and decoding
    def bit_counts(self, reports: Any) -> tuple[np.ndarray, np.ndarray]:
        """``(counts (cohorts, m), cohort_sizes (cohorts,))``: the ones of each bit per cohort and the
        number of reports per cohort (the server's aggregate)."""
        c, S = self._check_reports(reports)
        counts = np.zeros((self.cohorts, self.m), dtype=np.int64)
        np.add.at(counts, c, S.astype(np.int64))
        return counts, np.bincount(c, minlength=self.cohorts).astype(np.int64)

    def simulate_bit_counts(self, input_counts: Any, *, rng: Any = None) -> tuple[np.ndarray, np.ndarray]:
        r"""``(counts, cohort_sizes)`` of users with input counts ``N``, exact in law, cost ``O(k C + C m)``:
        cohorts :math:`N_{x,\cdot} \sim \mathrm{Multinomial}(N_x, 1/C)`; then, bits being independent,
        :math:`c_{ci} \sim \mathrm{Bin}(o_{ci}, q^*) + \mathrm{Bin}(N_c - o_{ci}, p^*)` with
        :math:`o_{ci} = \sum_x N_{x,c}[i \in B_c(x)]`."""
        rng = check_random_state(rng)
        N = self._check_input_counts(input_counts)
        Nxc = rng.multinomial(N, np.full(self.cohorts, 1.0 / self.cohorts))  # (k, C)
        sizes = Nxc.sum(axis=0).astype(np.int64)
        ones = np.einsum("xc,cxi->ci", Nxc, self._filters.astype(np.int64))  # (C, m)
        counts = rng.binomial(ones, self.q_star) + rng.binomial(sizes[:, None] - ones, self.p_star)
        return counts.astype(np.int64), sizes

    def _design(self) -> np.ndarray:
        """``X[(c, i), x] = [i in B_c(x)]``, ``(C m, k)``."""
        return self._filters.transpose(0, 2, 1).reshape(self.cohorts * self.m, self.k).astype(np.float64)

    @property
    def identifiable(self) -> bool:
        """Whether the design ``X`` has full column rank (then the least-squares estimate is unbiased)."""
        return bool(np.linalg.matrix_rank(self._design()) == self.k)

    def _solver(self) -> np.ndarray:
        """``A = (X^T X)^{-1} X^T`` (the pseudo-inverse when ``X`` is rank deficient), ``(k, C m)``."""
        cached = self.__dict__.get("_A")
        if cached is None:
            if self.cohorts * self.m * self.k > MAX_ENTRIES:
                raise ValueError(f"the design of {self!r} has more than {MAX_ENTRIES} entries")
            cached = np.linalg.pinv(self._design())
            self.__dict__["_A"] = cached
        return cached

    def estimate(self, data: Any, cohort_sizes: Any = None) -> np.ndarray:
        r"""The least-squares estimate :math:`\hat f = (C/n) A t` (module docstring).

        ``estimate(reports)``: from the reports of :meth:`perturb`; ``estimate(counts, cohort_sizes)``:
        from the bit counts ``(cohorts, m)`` and the reports per cohort.  Unbiased when
        :attr:`identifiable`; otherwise the minimum-norm solution (biased).
        """
        if cohort_sizes is None:
            counts, sizes = self.bit_counts(data)
        else:
            counts = Counts(2).check(data, "counts")
            sizes = Counts(1).check(cohort_sizes, "cohort_sizes")
            if counts.shape != (self.cohorts, self.m) or sizes.shape != (self.cohorts,):
                raise ValueError(
                    f"counts must have shape ({self.cohorts}, {self.m}) and cohort_sizes "
                    f"({self.cohorts},), got {counts.shape} and {sizes.shape}"
                )
            if np.any(counts > sizes[:, None]):
                raise ValueError("counts must be at most the cohort sizes (a bit is set once per report)")
        n = int(sizes.sum())
        if n < 1:
            raise ValueError("cohort_sizes must sum to at least one report")
        t = (counts - self.p_star * sizes[:, None]) / (self.q_star - self.p_star)
        return self.cohorts * (self._solver() @ t.reshape(-1)) / n

    def _user_moments(self) -> np.ndarray:
        r""":math:`V_x = n^2 \mathrm{Cov}(Z \mid x)` of one user's contribution ``Z`` to :math:`\hat f`,
        ``(k, k, k)`` (first axis ``x``): :math:`C \sum_c A_c D_{xc} A_c^\top/\delta^2 + C \sum_c
        (A_c b_c)(A_c b_c)^\top - (A X)_{\cdot x}(A X)_{\cdot x}^\top` with :math:`D_{xc}` the
        diagonal of the bits' Bernoulli variances and :math:`\delta = q^* - p^*`."""
        A = self._solver().reshape(self.k, self.cohorts, self.m)
        delta = self.q_star - self.p_star
        C = self.cohorts
        V = np.zeros((self.k, self.k, self.k))
        AX = self._solver() @ self._design()
        for x in range(self.k):
            for c in range(C):
                Ac = A[:, c, :]  # (k, m)
                b = self._filters[c, x]  # (m,)
                pi = np.where(b, self.q_star, self.p_star)
                V[x] += C * (Ac * (pi * (1 - pi))) @ Ac.T / delta**2
                mu = Ac @ b.astype(np.float64)
                V[x] += C * np.outer(mu, mu)
            V[x] -= np.outer(AX[:, x], AX[:, x])
        return V

    @contract(n=Integer(1, 1 << 40), f=Optional(Array(1, low=0.0, high=1.0)))
    def covariance(self, n: int, f: Any = None) -> np.ndarray:
        r"""Exact covariance of :meth:`estimate` for ``n`` users whose values have the distribution ``f``
        (default uniform), cohorts drawn at random: :math:`\frac1n \sum_x f_x V_x` (the estimate is a
        sum of independent per-user terms; :meth:`_user_moments`)."""
        f = np.full(self.k, 1.0 / self.k) if f is None else f
        if f.shape != (self.k,) or abs(f.sum() - 1.0) > 1e-9:
            raise ValueError(
                f"f must be a distribution over the {self.k} values, got shape {f.shape}, sum {f.sum():.6g}"
            )
        if self.k**3 > MAX_ENTRIES:
            raise ValueError(f"the moments of {self!r} need k**3 = {self.k**3} entries")
        return np.einsum("x,xij->ij", f, self._user_moments()) / n

    def variance(self, n: int, f: Any = None) -> np.ndarray:
        """The diagonal of :meth:`covariance`: the variance of each value's estimate."""
        return np.diag(self.covariance(n, f)).copy()
