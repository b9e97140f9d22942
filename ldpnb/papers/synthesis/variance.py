r"""The variance lens: the MSE of every frequency oracle's estimator, from Wang et al.'s formulas and
from the exact channel, and the GRR-or-OUE rule.

For a linear estimate :math:`\hat\theta = \hat q A + b` of report frequencies :math:`\hat q` and a
*fixed* population of :math:`N_x` users holding :math:`x` (:math:`n = \sum_x N_x`), the report counts
are a sum of independent multinomials, so

.. math:: \mathbb{E}\lVert\hat\theta - \mathbb{E}\hat\theta\rVert_2^2 = \frac{1}{n^2}\sum_x N_x
          \Big(\sum_z C_{xz}\lVert A_z\rVert^2 - \lVert C_x A\rVert^2\Big)

(:func:`linear_total_variance`, exact on the whole channel).  For the support-count estimator of a
pure protocol this reduces to Wang et al.'s per-value variance summed over the values
(:func:`ldpnb.estimators.fo_variance`; :func:`ldpnb.papers.synthesis.families.pure_total_variance`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ldpnb import mechanisms as mech
from ldpnb.contracts import (
    EPSILON,
    MAX_DENSE,
    PROBABILITY,
    SAMPLE_SIZE,
    Array,
    Channel,
    Counts,
    Instance,
    Integer,
    Items,
    Real,
    contract,
)
from ldpnb.estimators import fo_variance
from ldpnb.papers.synthesis.estimation import standard_matrix
from ldpnb.papers.synthesis.families import (
    build_oracle,
    oracle_families,
    pure_total_variance,
    report_bits,
    total_variance,
)

__all__ = [
    "linear_total_variance",
    "wang_per_value",
    "wang_var_star",
    "exact_channel_variance",
    "pinv_channel_variance",
    "rule_grr_beats_oue",
    "grr_oue_exact_boundary",
    "exact_grr_beats_oue",
    "support_covariance",
    "range_query_mse",
    "formula_vs_channel",
    "skew_invariance",
    "wang_rule_check",
    "oue_var_star_exact",
    "kairouz_regimes",
    "kairouz_n_over_4",
    "olh_cw_gain",
    "short_report_check",
    "range_swaps",
]

_MECH = Instance(mech.Mechanism, example=mech.GRR(4, 1.0))
_ORACLE = Instance(mech.FrequencyOracle, example=mech.GRR(4, 1.0))
_NAMES = Items(Instance(str, example="GRR"), complete=False)
_EPS_LIST = Items(EPSILON)
_KS = Items(Integer(2, MAX_DENSE))


@contract(C=Channel(), A=Array(2), input_counts=Counts())
def linear_total_variance(C: np.ndarray, A: np.ndarray, input_counts: Any) -> float:
    """Exact total variance of ``q_hat @ A`` for a fixed population (module docstring)."""
    N = np.asarray(input_counts, dtype=float)
    n = N.sum()
    row_norms = (A**2).sum(axis=1)  # ||A_z||^2
    CA = C @ A
    per_x = C @ row_norms - (CA**2).sum(axis=1)
    return float(N @ per_x / n**2)


@contract(p=PROBABILITY, q=PROBABILITY, f=Array(1, low=0.0, high=1.0), n=Real(0.0, None, low_open=True))
def wang_per_value(p: float, q: float, f: Any, n: float) -> np.ndarray:
    r"""Wang et al.'s variance of the standard estimate of each value (fixed population):
    :math:`q(1-q)/(n(p-q)^2) + f_v(1-p-q)/(n(p-q))`."""
    return fo_variance(np.asarray(f, dtype=float), n, p, q)


@contract(p=PROBABILITY, q=PROBABILITY, n=Real(0.0, None, low_open=True))
def wang_var_star(p: float, q: float, n: float = 1) -> float:
    r"""Wang et al.'s approximate variance :math:`\mathrm{Var}^* = q(1-q)/(n(p-q)^2)` (the ``f_v = 0`` term)."""
    return q * (1 - q) / (n * (p - q) ** 2)


@contract(m=_MECH, input_counts=Counts())
def exact_channel_variance(m: Any, input_counts: Any) -> float:
    """:func:`linear_total_variance` of ``m``'s standard estimator on its whole exact channel."""
    C = np.exp(m.log_channel())
    C = C / C.sum(axis=1, keepdims=True)
    A, _ = standard_matrix(m, C)
    return linear_total_variance(C, A, input_counts)


@contract(m=_MECH, input_counts=Counts())
def pinv_channel_variance(m: Any, input_counts: Any) -> float:
    """:func:`linear_total_variance` of the pseudo-inverse of ``m``'s whole channel (the first edition's INV)."""
    C = np.exp(m.log_channel())
    C = C / C.sum(axis=1, keepdims=True)
    return linear_total_variance(C, np.linalg.pinv(C), input_counts)


@contract(k=Integer(2, None), epsilon=Real(0.0, 700.0, low_open=True))
def rule_grr_beats_oue(k: int, epsilon: float) -> bool:
    """Wang et al.'s rule: GRR has the smaller (approximate) variance iff ``k < 3 e^eps + 2``."""
    return k < 3 * math.exp(epsilon) + 2


@contract(epsilon=Real(0.0, 700.0, low_open=True))
def grr_oue_exact_boundary(epsilon: float) -> float:
    r"""The domain size :math:`k^*` below which GRR's *exact* total variance is below OUE's.

    With :math:`e = e^\varepsilon`, the exact totals (:func:`~ldpnb.papers.synthesis.families.pure_total_variance`)
    are :math:`(k-1)(2e+k-2)/(n(e-1)^2)` for GRR and :math:`((e+1)^2 + 4(k-1)e)/(n(e-1)^2)` for OUE, so
    GRR wins iff :math:`(k-1)(k-2-2e) < (e+1)^2`, i.e. :math:`k < k^*`, the larger root of
    :math:`k^2 - (3+2e)k + 2 + 2e - (e+1)^2 = 0`.  :math:`k^* < 3e + 2` for every :math:`\varepsilon > 0`.

    >>> round(grr_oue_exact_boundary(1.0), 3), round(3 * math.e + 2, 3)
    (9.136, 10.155)
    """
    e = math.exp(epsilon)
    b = 3 + 2 * e
    c = 2 + 2 * e - (e + 1) ** 2
    return (b + math.sqrt(b * b - 4 * c)) / 2


@contract(k=Integer(2, None), epsilon=Real(0.0, 700.0, low_open=True))
def exact_grr_beats_oue(k: int, epsilon: float) -> bool:
    """GRR's exact total variance (fixed population) is below OUE's."""
    e = math.exp(epsilon)
    return (k - 1) * (2 * e + k - 2) < (e + 1) ** 2 + 4 * (k - 1) * e


@contract(m=_ORACLE, input_counts=Counts(max_size=4096))
def support_covariance(m: Any, input_counts: Any) -> np.ndarray:
    r"""Exact covariance matrix of the standard estimate of a pure protocol for a fixed population.

    Unary encoding and local hashing (random-oracle model): independent supports, diagonal
    :func:`wang_per_value`.  GRR: the counts are a sum of multinomials,
    :math:`\mathrm{Cov}(c_v, c_w) = -\sum_x N_x C_{xv} C_{xw}` for :math:`v \ne w`.  Subset selection
    (:math:`\omega` of :math:`k` values): for one user of value :math:`x`, the probability that two
    other values :math:`v \ne w` are both in the subset is :math:`p\,r_1 + (1-p)\,r_0` with
    :math:`r_j = (\omega - j)(\omega - j - 1)/((k-1)(k-2))`, and :math:`p(\omega-1)/(k-1)` when
    :math:`x \in \{v, w\}`.  A family that states the exact covariance of its support counts
    (``support_count_covariance(N)``: Hadamard response, OLH with a short-seed hash, the longitudinal
    protocols, ...) is taken at its word.  The estimate's covariance is that of the counts over
    :math:`n^2(p-q)^2`.
    """
    N = np.asarray(input_counts, dtype=float)
    n, k = N.sum(), N.size
    p, q = m.p, m.q
    own = getattr(m, "support_count_covariance", None)
    if callable(own):  # the family's exact law of its support counts (HR, HRR, OLH-CW, L-GRR, ...)
        return np.asarray(own(N), dtype=float) / (n * m.p_minus_q) ** 2
    f = N / n
    diag = wang_per_value(p, q, f, int(n)) * (n * (p - q)) ** 2  # Var(c_v)
    if isinstance(m, (mech.UnaryEncoding, mech.LocalHashing)) or getattr(m, "independent_supports", False):
        return np.diag(diag) / (n * (p - q)) ** 2
    if isinstance(m, mech.GRR):
        C = np.full((k, k), q)
        np.fill_diagonal(C, p)
        cov = -(C.T * N) @ C
    elif isinstance(m, mech.SubsetSelection):
        omega = mech.ss_params(k, m.epsilon)[0]
        r1 = (omega - 1) * (omega - 2) / ((k - 1) * (k - 2)) if k > 2 else 0.0
        r0 = omega * (omega - 1) / ((k - 1) * (k - 2)) if k > 2 else 0.0
        both_other = p * r1 + (1 - p) * r0
        both_own = p * (omega - 1) / (k - 1)
        # E[1_v 1_w] summed over users, minus E[1_v] E[1_w] summed over users (independent users)
        mean = np.where(np.eye(k, dtype=bool), p, q)  # mean[x, v] = P(v in S | x)
        e2 = both_other * (n - N[:, None] - N[None, :]) + both_own * (N[:, None] + N[None, :])
        cov = e2 - (mean.T * N) @ mean
    else:
        raise ValueError(f"{type(m).__name__}: no exact covariance of the support counts")
    np.fill_diagonal(cov, diag)
    return cov / (n * (p - q)) ** 2


@contract(cov=Array(2, max_size=1 << 24), lengths=Array(1, integer=True, low=1, max_size=1 << 14))
def range_query_mse(cov: np.ndarray, lengths: Any) -> dict[int, float]:
    r"""Exact mean squared error of the range queries :math:`\sum_{v=a}^{a+L-1}\hat f(v)` of each length
    :math:`L`, averaged over every start :math:`a` (unbiased estimate: MSE = variance), from the
    estimate's covariance by 2-D prefix sums."""
    k = cov.shape[0]
    if cov.shape != (k, k):
        raise ValueError(f"cov must be a square (k, k) covariance, got shape {cov.shape}")
    if max(int(L) for L in lengths) > k:
        raise ValueError(f"a range length is at most the domain size k = {k}, got {max(lengths)}")
    P = np.zeros((k + 1, k + 1))
    P[1:, 1:] = cov.cumsum(axis=0).cumsum(axis=1)
    out = {}
    for L in lengths:
        a = np.arange(0, k - L + 1)
        b = a + L
        v = P[b, b] - P[a, b] - P[b, a] + P[a, a]
        out[int(L)] = float(v.mean())
    return out


# ----------------------------------------------------------------------------------------------
# the rows of the variance lens and of the literature checks
# ----------------------------------------------------------------------------------------------


@contract(names=_NAMES, ks=_KS, eps=_EPS_LIST, counts_for=Instance(object, example=lambda k: np.ones(k, int)))
def formula_vs_channel(names: list[str], ks: list[int], eps: list[float], counts_for) -> dict[str, float]:
    """Row V1: largest relative gap between the exact channel variance of each oracle's standard
    estimate and Wang et al.'s per-value variance summed (``counts_for(k)`` gives the input counts;
    ``k`` at most 14: the unary encodings' and hashing's exact channels have ``2^k`` outputs)."""
    for k in ks:
        Integer(2, 14).check(k, "ks")
    worst, checked = 0.0, 0
    for k in ks:
        N = np.asarray(counts_for(k))
        n = int(N.sum())
        for e in eps:
            for name in names:
                m = build_oracle(name, k, e)
                exact = exact_channel_variance(m, N)
                formula = float(wang_per_value(m.p, m.q, N / n, n).sum())
                worst = max(worst, abs(exact / formula - 1))
                checked += 1
    return {"max_rel_gap": worst, "checked": checked}


@contract(names=_NAMES, k=Integer(2, 14), eps=_EPS_LIST, counts=Instance(dict, example={}))
def skew_invariance(names: list[str], k: int, eps: list[float], counts: dict[str, Any]) -> dict[str, float]:
    """Row V3: largest relative gap between the exact channel variance on each input distribution and
    :func:`~ldpnb.papers.synthesis.families.pure_total_variance`."""
    worst = 0.0
    for e in eps:
        for name in names:
            m = build_oracle(name, k, e)
            for N in counts.values():
                N = np.asarray(N)
                tv = pure_total_variance(m.p, m.q, k, int(N.sum()))
                worst = max(worst, abs(exact_channel_variance(m, N) / tv - 1))
    return {"max_rel_gap": worst}


@contract(ks=Array(1, max_size=1 << 20, low=2), eps=_EPS_LIST)
def wang_rule_check(ks: Any, eps: list[float]) -> dict[str, int]:
    """Rows W1 and W2 on every ``(k, eps)``: W1 compares Var* (the f = 0 term) of the toolkit's GRR and
    OUE with the rule ``k < 3e^eps + 2``; W2 compares their exact totals with ``k < k*(eps)``."""
    out = {"mismatches": 0, "outside_band": 0, "in_band": 0, "checked": 0}
    for e in eps:
        po, qo = mech.ue_params(e, "oue")
        kstar = grr_oue_exact_boundary(e)
        for k in ks:
            pg, qg = mech.grr_params(int(k), e)
            star = wang_var_star(pg, qg) < wang_var_star(po, qo)
            exact = pure_total_variance(pg, qg, int(k), 1) < pure_total_variance(po, qo, int(k), 1)
            out["mismatches"] += int(star != rule_grr_beats_oue(int(k), e))
            out["outside_band"] += int(exact != (k < kstar))
            out["in_band"] += int(kstar <= k < 3 * math.exp(e) + 2)
            out["checked"] += 1
    return out


@contract(k=Integer(2, 14), epsilon=EPSILON, n=SAMPLE_SIZE)
def oue_var_star_exact(k: int = 12, epsilon: float = 1.0, n: int = 10_000) -> float:
    """Row W3: ``n`` times the exact variance of OUE's standard estimate of a value nobody holds,
    computed on the whole ``k x 2^k`` channel."""
    m = build_oracle("OUE", k, epsilon)
    C = np.exp(m.log_channel())
    A, _ = standard_matrix(m, C)
    N = np.zeros(k, dtype=np.int64)
    N[1:] = n // (k - 1)
    N[1] += n - N.sum()
    return linear_total_variance(C, A[:, [0]], N) * n


@contract(ks=_KS, eps=_EPS_LIST)
def olh_cw_gain(ks: Any, eps: Any) -> dict[str, Any]:
    r"""Row H1: OLH with the short-seed Carter-Wegman hash against OLH with an ideal hash, exactly.

    At every ``(k, eps)``: OLH-CW's collision probability :math:`c = \sum_j n_j(n_j-1)/(P(P-1))`
    compared with ``1/g`` in integers (:math:`g \sum_j n_j(n_j-1) < P(P-1)`), and the exact total MSE
    of the two standard estimates (one user); ``gain = 1 - MSE(OLH-CW)/MSE(OLH)``.  Returns
    ``violations`` (cells with :math:`c \ge 1/g` or no smaller MSE) and ``checked``, over every cell;
    ``degenerate``, the cells where the default prime equals the hash range (``P = g``, so ``g``
    divides ``P``): there ``(a v + b) mod P`` is a bijection of the residues onto the ``g`` buckets,
    no two values ever collide (:math:`c = 0`) and OLH-CW is k-RR on ``g`` symbols, so its gain is
    k-RR's advantage over OLH at small ``k``, not a practical hash's (outside the premise of the
    Carter-Wegman comparison, a prime ``P`` that ``g`` does not divide).  ``max_gain`` and its cell
    ``argmax``, ``min_gain`` and ``gain_at_max_k`` (the largest gain at the largest ``k``) are taken
    over the other cells (``P > g``).

    >>> r = olh_cw_gain([16], [2.0])
    >>> r["violations"], r["degenerate"], round(r["max_gain"], 3) > 0
    (0, 0, True)
    >>> r = olh_cw_gain([2, 4], [0.25, 1.0])  # P = g = 2 at k = 2, eps = 0.25: left out of the gains
    >>> r["checked"], r["degenerate"], r["argmax"]
    (4, 1, (4, 1.0))
    """
    out: dict[str, Any] = {"violations": 0, "checked": 0, "degenerate": 0}
    gains: dict[tuple[int, float], float] = {}
    for k in ks:
        for e in eps:
            cw = mech.OLHCW(int(k), float(e))
            ideal = mech.OLH(int(k), float(e))
            if cw.g != ideal.g:
                raise ValueError(f"OLH and OLH-CW use different g at k = {k}, eps = {e}: {ideal.g} and {cw.g}")
            P, g = cw.prime, cw.g
            qq, r = divmod(P, g)
            pairs = r * (qq + 1) * qq + (g - r) * qq * (qq - 1)  # sum_j n_j (n_j - 1), integers
            v_cw, v_ideal = total_variance(cw, 1), total_variance(ideal, 1)
            out["violations"] += int(pairs * g >= P * (P - 1) or not v_cw < v_ideal)
            out["checked"] += 1
            if P == g:  # the hash is a bijection (c = 0): OLH-CW is k-RR on g symbols
                out["degenerate"] += 1
            else:
                gains[(int(k), float(e))] = 1.0 - v_cw / v_ideal
    if not gains:
        raise ValueError("every cell has P = g (the hash is a bijection there): no gain of a practical hash to report")
    best = max(gains, key=gains.__getitem__)
    k_max = max(k for k, _ in gains)
    out.update(
        max_gain=gains[best],
        argmax=best,
        min_gain=min(gains.values()),
        gain_at_max_k=max(v for (k, _), v in gains.items() if k == k_max),
    )
    return out


@contract(ks=_KS, eps=_EPS_LIST, tie=Real(0.0, 1.0), names=Instance(list, tuple, type(None), example=None))
def short_report_check(ks: Any, eps: Any, tie: float = 0.10, names: list[str] | None = None) -> dict[str, Any]:
    r"""Row B1: at each ``(k, eps)``, the shortest report (:func:`~ldpnb.papers.synthesis.families.report_bits`)
    among the oracles whose exact total MSE is within ``tie`` of the smallest; a violation where it exceeds
    :math:`3\lceil\log_2 k\rceil + 3` bits.  Returns ``violations``, ``checked``, ``max_ratio`` (the
    largest shortest-near-best bits over :math:`\lceil\log_2 k\rceil`), its cell ``argmax`` and oracle.

    >>> short_report_check([4], [1.0])["violations"]
    0
    """
    names = list(names or oracle_families())
    out: dict[str, Any] = {"violations": 0, "checked": 0, "max_ratio": 0.0, "argmax": None}
    for k in ks:
        lg = max(1, math.ceil(math.log2(int(k))))
        for e in eps:
            v, b = {}, {}
            for nm in names:
                try:
                    m = build_oracle(nm, int(k), float(e))
                except (TypeError, ValueError):
                    continue
                v[nm], b[nm] = total_variance(m, 1), report_bits(m)
            best = min(v.values())
            near = [nm for nm in v if v[nm] <= best * (1 + tie) and np.isfinite(b[nm])]
            short = min(near, key=b.__getitem__)
            out["violations"] += int(b[short] > 3 * lg + 3)
            out["checked"] += 1
            if b[short] / lg > out["max_ratio"]:
                out.update(max_ratio=b[short] / lg, argmax=(int(k), float(e), short))
    return out


@contract(ks=_KS)
def kairouz_regimes(ks: list[int]) -> dict[str, int]:
    """Row KB1: for each ``k >= 8``, is RAPPOR (SUE) better than k-RR at eps = 0.1, and k-RR better at
    eps = ln k (exact total variances)?"""
    out = {"violations": 0, "checked": 0}
    for k in ks:
        if k < 8:
            continue
        for e, want_rr in ((0.1, False), (math.log(k), True)):
            rr = total_variance(build_oracle("GRR", k, e), 1)
            ue = total_variance(build_oracle("SUE", k, e), 1)
            out["violations"] += int((rr < ue) != want_rr)
            out["checked"] += 1
    return out


@contract(ks=_KS)
def kairouz_n_over_4(ks: Any) -> dict[str, Any]:
    r"""Row KBn: k-RR's sample-size factor at :math:`\varepsilon = \ln k`, from the toolkit's channel.

    Kairouz, Bonawitz and Ramage (ICML 2016), Sec. 4.3: the worst case (uniform :math:`p`) of k-RR's
    empirical estimate costs a factor :math:`1 + k(k + 2(e^\varepsilon - 1))/(e^\varepsilon - 1)^2`
    more samples than the non-private :math:`(1 - 1/k)/n` under the :math:`\ell_2^2` loss (their
    Eq. (8)) and :math:`((e^\varepsilon + k - 1)/(e^\varepsilon - 1))^2` under the large-``n``
    :math:`\ell_1` loss (Eq. (9)); the two expressions are equal, and at
    :math:`\varepsilon = \ln k` both are :math:`((2k - 1)/(k - 1))^2 \to 4` ("n is reduced to n/4").

    For each ``k >= 8`` of ``ks`` (i.i.d. users, uniform :math:`p`, so the risk is the fixed-population
    variance plus the multinomial :math:`p_v(1 - p_v)/n`): the :math:`\ell_2^2` factor from
    :func:`exact_channel_variance` on the toolkit's whole GRR channel, and the :math:`\ell_1` factor
    :math:`(\sum_v \sigma_v)^2 / (\sum_v \sigma^{np}_v)^2` from the per-value variances
    (:func:`support_covariance`; large ``n``, :math:`\mathbb{E}|Z| = \sigma\sqrt{2/\pi}`).
    Returns ``l2_factor`` and ``l1_factor`` (per ``k``), ``max_formula_gap`` (the largest relative
    gap to Eqs. (8) and (9)), ``tail_gap`` (the largest :math:`|f/4 - 1|` over ``k >= 256``, NaN
    without one) and ``tail_checked``, ``min_excess`` (the smallest :math:`f - 4`), ``increases``
    (steps to a larger ``k`` where a factor does not decrease) and ``checked``.

    >>> r = kairouz_n_over_4([8, 1024])
    >>> [round(f, 4) for f in r["l2_factor"]], r["max_formula_gap"] < 1e-9
    ([4.5918, 4.0039], True)
    """
    out: dict[str, Any] = {"l2_factor": [], "l1_factor": [], "max_formula_gap": 0.0}
    ks = sorted(int(k) for k in ks if int(k) >= 8)
    for k in ks:
        e = math.log(k)
        m = build_oracle("GRR", k, e)
        N = np.ones(k, dtype=np.int64)  # uniform: one user per value (the factors do not depend on n)
        f = N / k
        mult = f * (1 - f)  # n Var of the non-private empirical frequencies
        l2 = float((exact_channel_variance(m, N) * k + mult.sum()) / mult.sum())
        sd = np.sqrt(np.diag(support_covariance(m, N)) * k + mult)
        l1 = float(sd.sum() ** 2 / np.sqrt(mult).sum() ** 2)
        E = math.exp(e)
        eq8 = 1 + k * (k + 2 * (E - 1)) / (E - 1) ** 2
        eq9 = ((E + k - 1) / (E - 1)) ** 2
        gap = max(abs(l2 / eq8 - 1), abs(l1 / eq9 - 1))
        out["l2_factor"].append(float(l2))
        out["l1_factor"].append(l1)
        out["max_formula_gap"] = max(out["max_formula_gap"], gap)
    both = [out["l2_factor"], out["l1_factor"]]
    tail = [abs(fs[i] / 4 - 1) for fs in both for i, k in enumerate(ks) if k >= 256]
    out.update(
        tail_gap=max(tail) if tail else float("nan"),
        tail_checked=sum(k >= 256 for k in ks),
        min_excess=min((min(fs) - 4 for fs in both), default=float("nan")),
        increases=sum(fs[i + 1] >= fs[i] for fs in both for i in range(len(ks) - 1)),
        checked=len(ks),
    )
    return out


@contract(counts=Counts(min_size=2, max_size=4096), names=_NAMES, eps=_EPS_LIST, tie=Real(0.0, 1.0))
def range_swaps(counts: Any, names: list[str], eps: list[float], tie: float = 0.10) -> dict[str, Any]:
    """Row T2: exact MSE of single values (mean over values) and of ranges of half the domain (mean
    over starts) per oracle and level; ``swaps`` counts (eps, pair) whose two orders are strict beyond
    the tie margin and opposite."""
    N = np.asarray(counts)
    k = N.size
    table: dict[float, dict[str, tuple[float, float]]] = {}
    swaps, checked, examples = 0, 0, []
    for e in eps:
        row = {}
        for name in names:
            cov = support_covariance(build_oracle(name, k, e), N)
            r = range_query_mse(cov, [1, k // 2])
            row[name] = (r[1], r[k // 2])
        table[e] = row
        for a in range(len(names)):
            for b in range(a + 1, len(names)):
                (pa, ha), (pb, hb) = row[names[a]], row[names[b]]
                po = 1 if pa > pb * (1 + tie) else -1 if pb > pa * (1 + tie) else 0
                ho = 1 if ha > hb * (1 + tie) else -1 if hb > ha * (1 + tie) else 0
                checked += 1
                if po * ho < 0:
                    swaps += 1
                    examples.append((e, names[a], names[b]))
    return {"swaps": swaps, "checked": checked, "table": table, "examples": examples}
