"""Attacks on multidimensional LDP collections (Arcolezi et al., PVLDB 16(5), 2023).

* Plausible-deniability value inference on one report of GRR, OLH, omega-SS, SUE, OUE and its
  expected accuracy (Sec. 3.2.1, Fig. 1), over several collections with the uniform and
  non-uniform privacy metrics (Eqs. 4, 5).
* Re-identification (RID) of SMP users across repeated surveys: profile accumulation and top-k
  matching against full (FK-RI) or partial (PK-RI) background knowledge (Sec. 3.2.4, Figs. 2,
  9-13), evaluated with an exact-expectation version of the random tie-breaking ranking.
* Attribute inference (AIF) of RS+FD / RS+RFD's hidden sampled attribute: NK, PK and HM models
  with a gradient-boosted classifier (XGBoost, as in the paper) and the Bayes-optimal plug-in
  rule (Sec. 3.3, Figs. 3, 6, 14, 15, 17), and RID on RS+FD (Sec. 4.4, Fig. 4).
* The alpha-PIE mapping of the artifact (App. C.1, Figs. 12, 13).
"""
from __future__ import annotations

from math import comb, factorial
from typing import Sequence

import numpy as np
from scipy import stats

from ldpnb.utils import (check_distribution, check_domain_size, check_nonnegative, check_positive_int,
                         check_random_state, check_values)
from ldpnb import multidim as md

__all__ = [
    "expected_pd_accuracy",
    "multi_collection_accuracy",
    "pd_attack_support",
    "perturb_and_infer",
    "survey_design",
    "simulate_smp_surveys",
    "ReidIndex",
    "reid_topk",
    "reid_topk_sampled",
    "pie_alpha_from_ldp",
    "bayes_error_bound",
    "eps_from_bayes_error",
    "synthetic_profiles",
    "aif_log_likelihood",
    "aif_bayes",
    "aif_bayes_models",
    "rsfd_features",
    "aif_classifier",
    "rsfd_reid_chain",
]


# ---------------------------------------------------------------------------------------------
# plausible-deniability value inference (Sec. 3.2.1)
# ---------------------------------------------------------------------------------------------
def expected_pd_accuracy(protocol: str, eps: float, k: int, form: str = "exact") -> float:
    r"""Expected accuracy (probability) of the plausible-deniability attack on one report.

    ``form="exact"`` (the attack actually run, integer parameters as in the artifact):

    * GRR: :math:`p = e^\epsilon/(e^\epsilon+k-1)`;
    * omega-SS: :math:`p/\omega = e^\epsilon/(\omega e^\epsilon + k - \omega)`,
      :math:`\omega = \max(1, \mathrm{round}(k/(e^\epsilon+1)))`;
    * UE: :math:`p\,\frac{1-(1-q)^k}{kq} + (1-p)\frac{(1-q)^{k-1}}{k}` (the paper's binomial sum
      :math:`p\sum_{i=1}^k \frac1i \mathrm{Bin}(i-1;k-1,q) + (1-p)(1-q)^{k-1}/k` in closed form);
    * OLH with hash range g = round(e^eps)+1 and an ideal random hash:
      :math:`p'\frac{g}{k}(1-(1-1/g)^k) + (1-p')\frac{(1-1/g)^{k-1}}{k}`.

    ``form="paper"``: the paper's closed forms (Sec. 3.2.1, from Gursoy et al. 2022):
    OLH :math:`1/(2\max(k/(e^\epsilon+1), 1))`, SS :math:`(e^\epsilon+1)/(2k)` (not capped; it
    exceeds 1 when :math:`k < (e^\epsilon+1)/2`); GRR and UE as above.
    ``form="ideal"``: OLH with real-valued g = e^eps + 1 (then equal to OUE).
    """
    protocol = md._check_protocol(protocol)
    eps = md._check_eps(eps)
    k = int(k)
    if k < 2:
        raise ValueError("k must be >= 2")
    if form not in ("exact", "paper", "ideal"):
        raise ValueError("form must be 'exact', 'paper' or 'ideal'")
    e = np.exp(eps)
    if protocol == "grr":
        return float(e / (e + k - 1))
    if protocol == "ss":
        if form == "paper":
            return float((e + 1) / (2 * k))
        w = max(1, int(round(k / (e + 1))))
        return float(e / (w * e + k - w))
    if protocol in ("sue", "oue"):
        if protocol == "sue":
            p, q = np.exp(eps / 2) / (np.exp(eps / 2) + 1), 1 / (np.exp(eps / 2) + 1)
        else:
            p, q = 0.5, 1 / (e + 1)
        return float(p * (1 - (1 - q) ** k) / (k * q) + (1 - p) * (1 - q) ** (k - 1) / k)
    # OLH
    if form == "paper":
        return float(1.0 / (2 * max(k / (e + 1), 1.0)))
    g = e + 1 if form == "ideal" else int(round(e)) + 1
    pp = e / (e + g - 1)
    return float(pp * (g / k) * (1 - (1 - 1 / g) ** k) + (1 - pp) * (1 - 1 / g) ** (k - 1) / k)


def ue_accuracy_binomial_sum(p: float, q: float, k: int) -> float:
    r"""The paper's form of the UE attack accuracy (Sec. 3.2.1):
    :math:`\frac{(1-p)}{k}(1-q)^{k-1} + \sum_{i=1}^{k}\frac{p}{i}\mathrm{Bin}(i-1; k-1, q)`."""
    i = np.arange(1, k + 1)
    return float((1 - p) * (1 - q) ** (k - 1) / k + np.sum(p / i * stats.binom.pmf(i - 1, k - 1, q)))


def multi_collection_accuracy(protocol: str, eps: float, ks: Sequence[int], setting: str = "uniform",
                              form: str = "paper") -> float:
    r"""Expected probability of inferring a user's complete profile after ``d = len(ks)`` surveys.

    Uniform metric, Eq. (4): :math:`\prod_j ACC_{FO}(\epsilon, k_j)`; non-uniform, Eq. (5):
    :math:`\prod_j \frac{d+1-j}{d} ACC_{FO}(\epsilon, k_j) = \frac{d!}{d^d}\prod_j ACC_{FO}`.
    ``form`` as in :func:`expected_pd_accuracy` except that ``"paper"`` uses omega-SS's exact
    ``p/omega`` (the paper's SS form exceeds 1 where omega = 1, spec pitfall 2).
    """
    ks = [int(k) for k in ks]
    d = len(ks)
    if d < 1:
        raise ValueError("ks must contain at least one domain size")
    f = form
    if protocol == "ss" and form == "paper":
        f = "exact"
    acc = float(np.prod([expected_pd_accuracy(protocol, eps, k, f) for k in ks]))
    if setting == "uniform":
        return acc
    if setting == "non-uniform":
        return acc * factorial(d) / d ** d
    raise ValueError("setting must be 'uniform' or 'non-uniform'")


def pd_attack_support(support, *, rng=None) -> np.ndarray:
    """Plausible-deniability guess from support sets (Sec. 3.2.1): uniform among the supported
    values (UE: set bits; SS: the subset; OLH: the hash preimage), uniform over the domain when
    the set is empty.  ``support`` is a bool array (n, k)."""
    rng = check_random_state(rng)
    S = np.asarray(support, dtype=bool)
    if S.ndim != 2:
        raise ValueError("support must be a 2-D bool array (n, k)")
    if S.size == 0:
        raise ValueError(f"support must not be empty (n >= 1 users, k >= 1 values), got shape {S.shape}")
    scores = rng.random(S.shape)
    scores[~S] = -1.0
    guess = scores.argmax(axis=1)
    empty = ~S.any(axis=1)
    guess[empty] = rng.integers(0, S.shape[1], size=int(empty.sum()))
    return guess


def perturb_and_infer(x, k: int, eps: float, protocol: str, *, rng=None, olh_hash: str = "ideal") -> np.ndarray:
    """One collection of ``x`` with a frequency oracle followed by the plausible-deniability
    attack (A1-A4): returns the attacker's guesses.  ``eps = inf`` means "sent in clear"
    (the alpha-PIE mapping's "no LDP needed").

    OLH: ``olh_hash="ideal"`` draws each user's hash as a fully random function [k] -> [g]
    (the artifact's xxhash32 with a random seed behaves like one); ``"cw"`` uses the
    Carter-Wegman family of :func:`ldpnb.mechanisms.lh_hash`, which is only pairwise
    independent: the attack is then a little *more* accurate than the ideal-hash formula."""
    from ldpnb import mechanisms as mech

    rng = check_random_state(rng)
    k = check_domain_size(k)
    protocol = md._check_protocol(protocol)
    if np.size(x) == 0:  # no user to collect: nothing to infer
        x = np.asarray(x)
        if x.ndim != 1:
            raise ValueError(f"x must be 1-dimensional, got shape {x.shape}")
        return np.zeros(0, dtype=np.int64)
    x = check_values(x, k, "x")  # integers in {0..k-1}
    if isinstance(eps, (int, float, np.integer, np.floating)) and not isinstance(eps, bool) and eps == np.inf:
        return x.copy()
    eps = md._check_eps(eps)
    if protocol == "grr":
        return np.asarray(mech.grr_perturb(x, k, eps, rng=rng), dtype=np.int64)
    if protocol == "olh":
        g, pp, _ = mech.lh_params(eps)
        if olh_hash == "ideal":
            # ideal random hash: each user's hash of every value is an independent U([g]) draw
            H = rng.integers(0, g, size=(x.size, k))
            hx = H[np.arange(x.size), x]
            y = mech.grr_perturb(hx, g, eps, rng=rng)
            support = H == np.asarray(y)[:, None]
        elif olh_hash == "cw":
            seeds, y = mech.lh_perturb(x, k, eps, rng=rng)
            support = _lh_support_matrix(seeds, y, k, g)
        else:
            raise ValueError("olh_hash must be 'ideal' or 'cw'")
    elif protocol == "ss":
        support = mech.ss_perturb(x, k, eps, rng=rng)
    else:
        support = mech.ue_perturb(x, k, eps, kind=protocol, rng=rng)
    return pd_attack_support(support, rng=rng)


def _lh_support_matrix(seeds, y, k: int, g: int) -> np.ndarray:
    """(n, k) bool: value v is in the hash preimage of user i's report (OLH support)."""
    from ldpnb import mechanisms as mech

    h = mech.lh_hash(np.asarray(seeds)[:, None, :], np.arange(k), g)
    return h == np.asarray(y)[:, None]


# ---------------------------------------------------------------------------------------------
# repeated SMP surveys (Secs. 3.2.2-3.2.4, spec A7)
# ---------------------------------------------------------------------------------------------
def survey_design(d: int, n_surveys: int, *, rng=None, mode: str = "artifact") -> list[np.ndarray]:
    """Attribute subsets of the surveys: ``d_sv ~ U{round(d/2), ..., d-1}`` (artifact's
    ``randint(round(d/2), d)``; the paper says "Uniform(d/2, ..., d)") and a random subset of
    that size, shared by all users.  ``mode="all"``: every survey asks all d attributes."""
    rng = check_random_state(rng)
    out = []
    for _ in range(int(n_surveys)):
        if mode == "all":
            out.append(np.arange(d))
            continue
        lo = int(round(d / 2))
        size = int(rng.integers(lo, d)) if d > lo else d
        out.append(np.sort(rng.choice(d, size=size, replace=False)))
    return out


def simulate_smp_surveys(X, ks, protocol: str, eps, n_surveys: int = 5, setting: str = "uniform", *,
                         design=None, rng=None) -> dict:
    """Repeated SMP collections with plausible-deniability inference (spec A7).

    In survey ``sv`` (attribute subset ``design[sv]``) every user reports one attribute:

    * ``setting="uniform"`` (uniform privacy metric): a uniformly random attribute of the survey
      not yet reported by this user (falling back to any unreported attribute);
    * ``setting="non-uniform"``: a uniform attribute of the survey; if already reported the
      memoised report is re-sent (no new information, no new privacy loss).

    ``eps`` is a scalar or one budget per attribute (``inf`` = value sent in clear).

    Returns a dict with ``profiles`` (list, after each survey, of (n, d) int arrays of inferred
    values, -1 = unknown), ``n_reports`` (fresh reports per user: total privacy loss is
    ``eps * n_reports``, Sec. 3.2.3) and ``design``.
    """
    X, ks = md.check_dataset(X, ks)
    rng = check_random_state(rng)
    n, d = X.shape
    epsv = np.broadcast_to(np.asarray(eps, dtype=float), (d,)).copy()
    if setting not in ("uniform", "non-uniform"):
        raise ValueError("setting must be 'uniform' or 'non-uniform'")
    if design is None:
        design = survey_design(d, n_surveys, rng=rng)
    V = np.full((n, d), -1, dtype=np.int64)
    n_reports = np.zeros(n, dtype=np.int64)
    profiles = []
    for attrs in design[:n_surveys]:
        in_sv = np.zeros(d, dtype=bool)
        in_sv[attrs] = True
        known = V >= 0
        if setting == "uniform":
            avail = in_sv[None, :] & ~known
            none = ~avail.any(axis=1)
            avail[none] = ~known[none]
            scores = rng.random((n, d))
            scores[~avail] = -1.0
            a = scores.argmax(axis=1)
            fresh = avail.any(axis=1)
        else:
            a = np.asarray(attrs)[rng.integers(0, len(attrs), size=n)]
            fresh = ~known[np.arange(n), a]
        for j in range(d):
            u = np.flatnonzero(fresh & (a == j))
            if u.size:
                V[u, j] = perturb_and_infer(X[u, j], int(ks[j]), epsv[j], protocol, rng=rng)
        n_reports += fresh
        profiles.append(V.copy())
    return {"profiles": profiles, "n_reports": n_reports, "design": design}


# ---------------------------------------------------------------------------------------------
# re-identification (matching R + decision G), spec A8
# ---------------------------------------------------------------------------------------------
class ReidIndex:
    """Background knowledge D_BK (N, d) with per-attribute-subset hash tables (cached).

    ``count(T, values)`` returns how many background records equal ``values`` on the attribute
    subset ``T`` (a bitmask); tables are built on first use and reused across evaluations."""

    def __init__(self, background, ks=None):
        self.B, self.ks = md.check_dataset(background, ks)
        self.N, self.d = self.B.shape
        self._cache: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}

    def _cols(self, T: int) -> np.ndarray:
        return np.flatnonzero((T >> np.arange(self.d)) & 1)

    def _table(self, T: int):
        tab = self._cache.get(T)
        if tab is None:
            cols = self._cols(T)
            mult = np.cumprod(np.concatenate([[1], self.ks[cols][:-1]])).astype(np.int64)
            if np.prod(self.ks[cols].astype(float)) > 2 ** 62:
                raise ValueError("attribute subset too large for integer keys")
            keys = self.B[:, cols] @ mult
            uk, cnt = np.unique(keys, return_counts=True)
            tab = (cols, mult, uk, cnt)
            self._cache[T] = tab
        return tab

    def count(self, T: int, values: np.ndarray) -> np.ndarray:
        cols, mult, uk, cnt = self._table(T)
        keys = values[:, cols] @ mult
        pos = np.searchsorted(uk, keys)
        pos = np.minimum(pos, uk.size - 1)
        return np.where(uk[pos] == keys, cnt[pos], 0)


def _submasks(b: int):
    s = b
    while s:
        yield s
        s = (s - 1) & b


def reid_topk(profiles, background, topk: Sequence[int] = (1, 5, 10), *, attrs=None, true_ids=None,
              ks=None, per_user: bool = False):
    r"""RID-ACC (%) of the top-k matching attack with uniformly random tie-breaking, computed as an
    exact expectation (spec A8).

    The attacker ranks background records by the number of profile attributes they match
    (Hamming similarity on the known attributes present in the background) and outputs the
    first ``k`` records, ties broken uniformly at random.  For user u with m known attributes,
    ``n_c`` = number of records matching exactly c of them is obtained from
    :math:`M_j = \sum_{|T|=j,\,T\subseteq P} N(T) = \sum_{c\ge j}\binom{c}{j} n_c` (N(T): records
    equal to the profile on T).  With s* the number of correctly inferred attributes (the true
    record matches exactly those), A = records strictly better, B = n_{s*} (ties incl. the truth):
    :math:`P(\text{hit}) = \mathbb 1[A<k]\,\min(B, k-A)/B`.

    Parameters
    ----------
    profiles : int (n, d), -1 = unknown.
    background : ReidIndex or int array (N, d) (D_BK; row ``true_ids[u]`` is user u's record).
    attrs : optional attribute indices available in the background (PK-RI); others ignored.
    """
    index = background if isinstance(background, ReidIndex) else ReidIndex(background, ks)
    P = np.asarray(profiles, dtype=np.int64)
    n, d = P.shape
    if d != index.d:
        raise ValueError("profiles and background must have the same number of attributes")
    if true_ids is None:
        if n != index.N:
            raise ValueError("true_ids is required when profiles and background differ in size")
        true_ids = np.arange(n)
    true_ids = np.asarray(true_ids, dtype=np.int64)
    topk = [int(t) for t in topk]
    known = P >= 0
    if attrs is not None:
        amask = np.zeros(d, dtype=bool)
        amask[np.asarray(attrs, dtype=int)] = True
        known &= amask[None, :]
    bits = known.astype(np.int64) @ (1 << np.arange(d, dtype=np.int64))
    m = known.sum(axis=1)
    mmax = int(m.max()) if n else 0
    M = np.zeros((n, mmax + 1), dtype=np.int64)
    M[:, 0] = index.N
    Ts = set()
    for b in np.unique(bits):
        Ts.update(_submasks(int(b)))
    Pv = np.where(known, P, 0)
    for T in Ts:
        sel = np.flatnonzero((bits & T) == T)
        M[sel, bin(T).count("1")] += index.count(T, Pv[sel])
    # n_c from M_j = sum_{c>=j} C(c, j) n_c  (backward substitution)
    ncount = np.zeros_like(M)
    for c in range(mmax, -1, -1):
        acc = M[:, c].copy()
        for c2 in range(c + 1, mmax + 1):
            acc -= comb(c2, c) * ncount[:, c2]
        ncount[:, c] = acc
    truth = index.B[true_ids]
    s_star = (known & (P == truth)).sum(axis=1)
    cidx = np.arange(mmax + 1)[None, :]
    A = np.where(cidx > s_star[:, None], ncount, 0).sum(axis=1)
    B = ncount[np.arange(n), s_star]
    if np.any(B < 1):
        raise ValueError("a user's true record is missing from the background")
    out = {}
    for k in topk:
        hit = np.where(A >= k, 0.0, np.minimum(B, k - A) / B)
        out[k] = hit if per_user else 100.0 * float(hit.mean())
    return out


def reid_topk_sampled(profiles, background, topk: Sequence[int] = (1, 10), *, true_ids=None,
                      attrs=None, rng=None) -> dict:
    """RID-ACC (%) with explicit random tie-breaking, naive O(n N m) matching (artifact-like);
    for validating :func:`reid_topk` on small instances."""
    rng = check_random_state(rng)
    P = np.asarray(profiles, dtype=np.int64)
    Bk = np.asarray(background, dtype=np.int64)
    n, d = P.shape
    true_ids = np.arange(n) if true_ids is None else np.asarray(true_ids)
    known = P >= 0
    if attrs is not None:
        amask = np.zeros(d, dtype=bool)
        amask[np.asarray(attrs, dtype=int)] = True
        known &= amask[None, :]
    hits = {int(k): 0 for k in topk}
    for u in range(n):  # validation only (small n)
        sim = ((Bk == P[u]) & known[u]).sum(axis=1)
        order = np.lexsort((rng.random(sim.size), -sim))
        for k in hits:
            hits[k] += int(true_ids[u] in order[:k])
    return {k: 100.0 * v / n for k, v in hits.items()}


# ---------------------------------------------------------------------------------------------
# alpha-PIE (App. C.1)
# ---------------------------------------------------------------------------------------------
def pie_alpha_from_ldp(eps: float, n: int, k: int) -> float:
    r"""Proposition 3 (App. C): eps-LDP implies (U, alpha)-PIE with
    :math:`\alpha = \min\{\epsilon\log_2 e, \epsilon^2\log_2 e, \log_2 n, \log_2 k_j\}` (bits)."""
    eps = md._check_eps(eps)
    n = check_positive_int(n, "n", minimum=1)
    k = check_domain_size(k)
    l2e = np.log2(np.e)
    return float(min(eps * l2e, eps ** 2 * l2e, np.log2(n), np.log2(k)))


def bayes_error_bound(alpha: float, n: int) -> float:
    r"""Corollary 2 (Eq. 11): :math:`\beta_{U|S} \ge 1 - (\alpha+1)/\log_2 n`.

    ``alpha`` (bits) finite and >= 0; ``n`` an integer >= 2 (``log2 n = 0`` for a single user).
    """
    alpha = check_nonnegative(alpha, "alpha")
    n = check_positive_int(n, "n", minimum=2)
    return float(1.0 - (alpha + 1.0) / np.log2(n))


def eps_from_bayes_error(beta: float, n_d: int, k: int) -> float:
    r"""Per-attribute budget for a target Bayes error (artifact mapping, spec §2.10).

    :math:`\alpha = (1-\beta)\log_2 n_d + 1`, :math:`m = \min(\log_2 n_d, \log_2 k)`; if
    :math:`\alpha > m` no randomization is needed (returns ``inf``: value sent in clear), else
    :math:`\epsilon = \ln\frac{(k-1)\alpha + m}{m - \alpha}` — the inverse of the GRR PIE bound
    :math:`\alpha = m(e^\epsilon-1)/(e^\epsilon+k-1)`.  Note: Eq. (11) solved for alpha gives
    ``(1-beta) log2 n - 1``; the artifact uses ``+1`` (reproduced here, flagged in the chapter).
    """
    if not 0 < beta < 1:
        raise ValueError("beta must lie in (0, 1)")
    n_d = check_positive_int(n_d, "n_d", minimum=2)
    k = check_domain_size(k)
    alpha = (1 - beta) * np.log2(n_d) + 1
    m = min(np.log2(n_d), np.log2(k))
    if alpha >= m:
        return float("inf")
    return float(np.log(((k - 1) * alpha + m) / (m - alpha)))


# ---------------------------------------------------------------------------------------------
# attribute inference on RS+FD / RS+RFD (Sec. 3.3)
# ---------------------------------------------------------------------------------------------
def synthetic_profiles(freqs, s: int, *, rng=None) -> np.ndarray:
    """NK model: ``s`` synthetic tuples, attribute j drawn independently from ``freqs[j]``
    (the product of the estimated marginals), (s, d) int array."""
    rng = check_random_state(rng)
    freqs = [check_distribution(f, f"freqs[{j}]", atol=1e-8) for j, f in enumerate(freqs)]
    if not freqs:
        raise ValueError("freqs must hold one distribution per attribute (got none)")
    return np.column_stack([md._sample_values(md.clip_normalize(f), int(s), rng) for f in freqs])


def aif_log_likelihood(reports, ks, eps: float, protocol: str, fake: str, freqs, *, priors=None) -> np.ndarray:
    r"""Log-likelihood ratios :math:`\log L_j(y_j) = \log P_{real,j}(y_j) - \log P_{fake,j}(y_j)`
    of "attribute j was sampled" for every report, (n, d).

    Given the sampled attribute t, the fake values are independent of everything, so
    :math:`P(\mathbf y\mid t=j) \propto L_j(y_j)` and the MAP rule is
    :math:`\hat t = \arg\max_j L_j(y_j)` (spec §2.9).  GRR: :math:`P_{real,j}(y) = q +
    (p-q) f_j(y)`, fake ``1/k_j`` or the prior.  UE with per-bit ratios :math:`r(1) = p/q`,
    :math:`r(0) = (1-p)/(1-q)`: :math:`L_j = \sum_v f_j(v) r(B_v) / \sum_v g_j(v) r(B_v)` with
    ``g_j`` the fake one-hot distribution (UE-r/RS+RFD) or denominator 1 (UE-z).
    ``fake`` / ``priors`` describe the fake-data model *assumed by the attacker*.
    """
    ks = np.asarray(ks, dtype=np.int64)
    d = len(reports)
    n = np.asarray(reports[0]).shape[0]
    out = np.empty((n, d))
    for j in range(d):
        k = int(ks[j])
        p, q = md.rsfd_params(protocol, k, eps, d)
        f = np.asarray(freqs[j], dtype=float)
        g = md._fake_dist(fake, k, None if priors is None else np.asarray(priors[j], float))
        y = np.asarray(reports[j])
        with np.errstate(divide="ignore"):
            if protocol == "grr":
                out[:, j] = np.log(q + (p - q) * f[y]) - np.log(g[y])
            else:
                B = y.astype(float)
                r1, r0 = p / q, (1 - p) / (1 - q)
                num = B @ (f * r1) + (1 - B) @ (f * r0)
                ll = np.log(num)
                if fake != "zero":
                    ll -= np.log(B @ (g * r1) + (1 - B) @ (g * r0))
                out[:, j] = ll
    return out


def _argmax_random_ties(L: np.ndarray, rng) -> np.ndarray:
    mx = L.max(axis=1, keepdims=True)
    cand = (L >= mx - 1e-12 * np.maximum(1.0, np.abs(np.where(np.isfinite(mx), mx, 0.0)))) | (L == mx)
    scores = rng.random(L.shape)
    scores[~cand] = -1.0
    return scores.argmax(axis=1)


def aif_bayes(reports, ks, eps: float, protocol: str, fake: str, freqs, *, priors=None, rng=None) -> np.ndarray:
    """Bayes plug-in attribute inference: :math:`\\hat t = \\arg\\max_j L_j(y_j)` with the
    marginals ``freqs`` (true marginals: the oracle upper bound; server estimates: the limit of
    the NK attack as s -> infinity).  Ties are broken uniformly at random."""
    rng = check_random_state(rng)
    L = aif_log_likelihood(reports, ks, eps, protocol, fake, freqs, priors=priors)
    return _argmax_random_ties(L, rng)


def _fo_from_labelled(reports, t, ks, eps, protocol):
    """Per-attribute marginal estimates from the labelled users' *real* reports (PK knowledge):
    Eq. (2) with the randomizer's (p, q) at eps' on the users whose sampled attribute is j."""
    from ldpnb.estimators import fo_estimate

    d = len(reports)
    est, nj = [], []
    for j in range(d):
        k = int(ks[j])
        p, q = md.rsfd_params(protocol, k, eps, d)
        y = np.asarray(reports[j])[t == j]
        c = np.bincount(y, minlength=k) if y.ndim == 1 else y.sum(axis=0)
        m = max(int((t == j).sum()), 1)
        est.append(md.clip_normalize(fo_estimate(c, m, p, q)))
        nj.append(m)
    return est, np.array(nj)


def _fake_from_labelled(reports, t, ks, eps, protocol):
    """Fake-data distribution of each attribute learned from labelled users that did *not*
    sample it: empirical histogram (GRR, add-one smoothing) or Eq. (2) on their bits (UE-r)."""
    from ldpnb.estimators import fo_estimate

    d = len(reports)
    out = []
    for j in range(d):
        k = int(ks[j])
        y = np.asarray(reports[j])[t != j]
        if y.ndim == 1:
            h = np.bincount(y, minlength=k) + 1.0
            out.append(h / h.sum())
        else:
            p, q = md.rsfd_params(protocol, k, eps, d)
            est = md.clip_normalize(fo_estimate(y.sum(axis=0), max(y.shape[0], 1), p, q))
            out.append(np.maximum(est, 1e-6) / np.maximum(est, 1e-6).sum())
    return out


def aif_bayes_models(reports, t, ks, eps: float, protocol: str, fake: str, *, priors=None,
                     attacker_fake: str | None = None, pk_fractions: Sequence[float] = (0.5,), rng=None) -> dict:
    """AIF-ACC (%) of the Bayes plug-in attacker under the NK, PK and HM knowledge models.

    * NK: marginals = the server's estimates (clip+renormalised): the s -> infinity limit of
      the paper's NK classifier; the fake-data model is ``attacker_fake`` (default: the true one);
    * PK (``n_pk = frac * n`` labelled users): marginals estimated from the labelled users' real
      reports and the fake-data distribution learned from the same users' fake reports (what a
      classifier trained on labelled tuples learns); tested on the other users;
    * HM: inverse-variance pooling of the NK and PK marginal estimates, same test users as PK.

    Returns ``{"NK": %, "PK<frac>": %, "HM<frac>": %}``.
    """
    rng = check_random_state(rng)
    ks = np.asarray(ks, dtype=np.int64)
    afake = fake if attacker_fake is None else attacker_fake
    apriors = priors if afake == "prior" else None
    n = t.size
    d = len(reports)
    f_nk = md.rsfd_aggregate(reports, ks, eps, protocol, fake, priors=priors)
    out = {"NK": 100 * float(np.mean(aif_bayes(reports, ks, eps, protocol, afake, f_nk, priors=apriors, rng=rng) == t))}
    v_nk = []
    for j in range(d):
        k = int(ks[j])
        p, q = md.rsfd_params(protocol, k, eps, d)
        v_nk.append(float(np.mean(md.rsfd_variance(np.zeros(k), n, d, k, p, q, md._variant(protocol, fake),
                                                   priors[j] if fake == "prior" else None))))
    for frac in pk_fractions:
        lab = np.zeros(n, dtype=bool)
        lab[rng.choice(n, size=int(round(frac * n)), replace=False)] = True
        lrep = [np.asarray(r)[lab] for r in reports]
        f_pk, nj = _fo_from_labelled(lrep, t[lab], ks, eps, protocol)
        pfake, pri_pk = afake, apriors
        if fake != "zero":  # labelled users also reveal the fake-data distribution (t != j)
            pfake, pri_pk = "prior", _fake_from_labelled(lrep, t[lab], ks, eps, protocol)
        test = [np.asarray(r)[~lab] for r in reports]
        t_pk = aif_bayes(test, ks, eps, protocol, pfake, f_pk, priors=pri_pk, rng=rng)
        f_hm = []
        for j in range(d):
            k = int(ks[j])
            p, q = md.rsfd_params(protocol, k, eps, d)
            v_pk = q * (1 - q) / (nj[j] * (p - q) ** 2)
            w = (1 / v_nk[j]) / (1 / v_nk[j] + 1 / v_pk)
            f_hm.append(md.clip_normalize(w * f_nk[j] + (1 - w) * f_pk[j]))
        t_hm = aif_bayes(test, ks, eps, protocol, pfake, f_hm, priors=pri_pk, rng=rng)
        out[f"PK{frac:g}"] = 100 * float(np.mean(t_pk == t[~lab]))
        out[f"HM{frac:g}"] = 100 * float(np.mean(t_hm == t[~lab]))
    return out


def rsfd_features(reports) -> np.ndarray:
    """Classifier features of RS+FD tuples: label-encoded values (GRR) or concatenated bits (UE)."""
    cols = [np.asarray(r).reshape(np.asarray(r).shape[0], -1) for r in reports]
    return np.hstack(cols).astype(np.float32)


def _make_classifier(classifier: str, seed: int, n_estimators: int | None, n_jobs: int):
    if classifier == "xgboost":
        from xgboost import XGBClassifier

        kw = {} if n_estimators is None else {"n_estimators": int(n_estimators)}
        return XGBClassifier(random_state=seed, n_jobs=n_jobs, eval_metric="mlogloss", tree_method="hist", **kw)
    if classifier == "hgb":
        from sklearn.ensemble import HistGradientBoostingClassifier

        return HistGradientBoostingClassifier(max_iter=n_estimators or 100, random_state=seed)
    raise ValueError("classifier must be 'xgboost' or 'hgb'")


def aif_classifier(reports, t, ks, eps: float, protocol: str, fake: str, *, model: str = "NK",
                   s_factor: float = 1.0, pk_factor: float = 0.5, priors=None,
                   attacker_fake: str | None = None, classifier: str = "xgboost",
                   n_estimators: int | None = None, max_train: int | None = None, n_jobs: int = 1,
                   max_test: int | None = None, rng=None) -> float:
    """AIF-ACC (%) of a trained classifier (XGBoost in the paper, Sec. 3.3) against RS+FD/RS+RFD.

    * NK: ``s = s_factor * n`` synthetic profiles drawn from the server's estimates are run
      through the protocol (sampled attribute recorded as label) -> training set; test = all n.
    * PK: ``pk_factor * n`` labelled real tuples train, the rest test.
    * HM: NK synthetic + PK labelled train, the unlabelled rest test.

    ``attacker_fake`` is the fake-data rule the attacker uses for synthetic profiles (the
    artifact uses uniform fake data even against RS+RFD; ``"prior"`` is the prior-aware attacker).
    ``max_train`` subsamples the training set (reduced scales); ``n_estimators=None`` keeps
    XGBoost's default (100).
    """
    rng = check_random_state(rng)
    ks = np.asarray(ks, dtype=np.int64)
    n = t.size
    if model not in ("NK", "PK", "HM"):
        raise ValueError("model must be 'NK', 'PK' or 'HM'")
    afake = fake if attacker_fake is None else attacker_fake
    Xr = rsfd_features(reports)
    Xtr, ytr = [], []
    test = np.ones(n, dtype=bool)
    if model in ("PK", "HM"):
        lab = rng.choice(n, size=int(round(pk_factor * n)), replace=False)
        test[lab] = False
        Xtr.append(Xr[lab])
        ytr.append(t[lab])
    if model in ("NK", "HM"):
        freqs = md.rsfd_aggregate(reports, ks, eps, protocol, fake, priors=priors)
        s = int(round(s_factor * n))
        syn = synthetic_profiles(freqs, s, rng=rng)
        rep_s, t_s = md.rsfd_collect(syn, ks, eps, protocol, afake, priors=priors, rng=rng)
        Xtr.append(rsfd_features(rep_s))
        ytr.append(t_s)
    Xtr = np.vstack(Xtr)
    ytr = np.concatenate(ytr)
    if max_train is not None and ytr.size > max_train:
        keep = rng.choice(ytr.size, size=int(max_train), replace=False)
        Xtr, ytr = Xtr[keep], ytr[keep]
    # XGBoost needs contiguous labels 0..K-1: map the present classes
    classes = np.unique(ytr)
    clf = _make_classifier(classifier, int(rng.integers(2 ** 31 - 1)), n_estimators, n_jobs)
    clf.fit(Xtr, np.searchsorted(classes, ytr))
    te = np.flatnonzero(test)
    if max_test is not None and te.size > max_test:
        te = rng.choice(te, size=int(max_test), replace=False)
    pred = classes[np.asarray(clf.predict(Xr[te])).astype(int).ravel()]
    return 100.0 * float(np.mean(pred == t[te]))


def rsfd_reid_chain(X, ks, eps: float, n_surveys: int = 5, *, design=None, index=None,
                    topk: Sequence[int] = (1, 10), resample: str = "new", rng=None) -> dict:
    """RID on RS+FD[GRR] across surveys (Sec. 4.4, Fig. 4; spec A9).

    In survey sv (attribute subset A_sv, d_sv attributes), users run RS+FD[GRR] over A_sv with
    eps'_sv = ln(d_sv (e^eps - 1) + 1), sampling an attribute they have not sampled before
    (``resample="new"``, the paper's uniform metric; ``"replace"``: with replacement, the
    artifact's effective behaviour).  The server estimates the marginals, the NK attacker
    predicts each user's sampled attribute with the Bayes plug-in rule and records
    (predicted attribute, reported value) if that attribute is not yet in the profile; after
    each survey >= 2 the profiles are matched against the full background (FK-RI).

    Returns ``{"rid": {n_surveys: {k: %}}, "aif": [per-survey AIF-ACC %]}``.
    """
    X, ks = md.check_dataset(X, ks)
    rng = check_random_state(rng)
    n, d = X.shape
    if design is None:
        design = survey_design(d, n_surveys, rng=rng)
    if index is None:
        index = ReidIndex(X, ks)
    V = np.full((n, d), -1, dtype=np.int64)
    sampled = np.zeros((n, d), dtype=bool)
    rid, aif = {}, []
    for sv, A in enumerate(design[:n_surveys], start=1):
        A = np.asarray(A)
        if resample == "new":
            avail = sampled[:, A].copy()
            avail = ~avail
            none = ~avail.any(axis=1)
            avail[none] = True
            scores = rng.random(avail.shape)
            scores[~avail] = -1.0
            tl = scores.argmax(axis=1)
        else:
            tl = rng.integers(0, A.size, size=n)
        sampled[np.arange(n), A[tl]] = True
        reps, _ = md.rsfd_collect(X[:, A], ks[A], eps, "grr", "uniform", rng=rng, sampled=tl)
        f_hat = md.rsfd_aggregate(reps, ks[A], eps, "grr", "uniform")
        that = aif_bayes(reps, ks[A], eps, "grr", "uniform", f_hat, rng=rng)
        aif.append(100.0 * float(np.mean(that == tl)))
        attr = A[that]
        val = np.stack(reps, axis=1)[np.arange(n), that]
        new = V[np.arange(n), attr] < 0
        V[np.flatnonzero(new), attr[new]] = val[new]
        if sv >= 2:
            rid[sv] = reid_topk(V, index, topk)
    return {"rid": rid, "aif": aif, "design": design}


# ---------------------------------------------------------------------------------------------
# experiment drivers used by the chapter (loops over parameters, not over users)
# ---------------------------------------------------------------------------------------------
def pk_attribute_subset(d: int, *, rng=None) -> np.ndarray:
    """PK-RI background attributes: a random subset of size ~ U{round(d/2), ..., d-1} (artifact)."""
    rng = check_random_state(rng)
    lo = int(round(d / 2))
    size = int(rng.integers(lo, d)) if d > lo else d
    return np.sort(rng.choice(d, size=size, replace=False))


def smp_rid_experiment(X, ks, protocol: str, eps_grid, *, setting: str = "uniform", n_surveys: int = 5,
                       runs: int = 1, index: ReidIndex | None = None, pk: bool = False,
                       topk: Sequence[int] = (1, 5, 10), eval_surveys: Sequence[int] | None = None,
                       rng=None) -> dict:
    """RID-ACC of SMP over repeated surveys (Figs. 2, 9-13).

    For each run: one survey design and (``pk=True``) one PK-RI attribute subset, shared by all
    budgets of ``eps_grid`` (scalars, or per-attribute arrays for alpha-PIE; ``inf`` = clear).
    Returns ``{"FK": array (runs, len(eps_grid), len(eval_surveys), len(topk)), "PK": same or
    None, "pk_attrs": [...], "designs": [...]}`` in %; ``eval_surveys`` defaults to
    #surveys = 2..n_surveys.  Passing the same integer ``rng`` to several protocols gives them
    the same survey designs and PK subsets (common random numbers for comparisons).
    """
    X, ks = md.check_dataset(X, ks)
    rng = check_random_state(rng)
    d = X.shape[1]
    if index is None:
        index = ReidIndex(X, ks)
    ev = list(range(2, n_surveys + 1)) if eval_surveys is None else [int(v) for v in eval_surveys]
    shape = (runs, len(eps_grid), len(ev), len(topk))
    FK = np.zeros(shape)
    PK = np.zeros(shape) if pk else None
    pk_sets, designs = [], []
    for r in range(runs):
        design = survey_design(d, n_surveys, rng=rng)
        attrs = pk_attribute_subset(d, rng=rng)
        designs.append(design)
        pk_sets.append(attrs)
        for e, eps in enumerate(eps_grid):
            res = simulate_smp_surveys(X, ks, protocol, eps, n_surveys, setting, design=design, rng=rng)
            for s, sv in enumerate(ev):
                P = res["profiles"][sv - 1]
                FK[r, e, s] = list(reid_topk(P, index, topk).values())
                if pk:
                    PK[r, e, s] = list(reid_topk(P, index, topk, attrs=attrs).values())
    return {"FK": FK, "PK": PK, "pk_attrs": pk_sets, "designs": designs, "topk": tuple(topk), "surveys": ev}


def aif_experiment(X, ks, eps_grid, variants, *, runs: int = 1, pk_fractions=(0.1, 0.3, 0.5),
                   prior_kind: str | None = None, rng=None) -> dict:
    """AIF-ACC (%) of the Bayes attackers against RS+FD / RS+RFD (Figs. 3, 6, 14, 15, 17).

    ``variants``: list of ``(protocol, fake)``; with ``prior_kind`` (``"correct"``, ``"dir"``,
    ``"zipf"``, ``"exp"``) the users run RS+RFD with fresh priors per run (shared across eps).
    For each variant, eps and run: ``oracle`` (true marginals, true fake model), ``NK`` (server
    estimates; attacker assumes the *uniform* fake data of RS+FD, as in the artifact),
    ``NK_prior`` (server estimates, attacker uses the public prior; RS+RFD only) and ``PK``/``HM``
    for each labelled fraction.  Returns a dict of arrays (runs, len(eps_grid)) keyed by
    ``(variant_label, model)``.
    """
    X, ks = md.check_dataset(X, ks)
    rng = check_random_state(rng)
    n, d = X.shape
    f_true = md.marginals(X, ks)
    counts = [np.bincount(X[:, j], minlength=int(ks[j])) for j in range(d)]
    out: dict = {}
    for r in range(runs):
        priors = None if prior_kind is None else md.make_priors(prior_kind, ks, counts=counts, rng=rng)
        for protocol, fake in variants:
            users_fake = fake if prior_kind is None or fake == "zero" else "prior"
            naive_fake = "uniform" if protocol == "grr" else ("zero" if fake == "zero" else "random")
            label = f"{protocol.upper()}" + ("" if protocol == "grr" else ("-z" if fake == "zero" else "-r"))
            for e, eps in enumerate(eps_grid):
                rep, t = md.rsfd_collect(X, ks, eps, protocol, users_fake, priors=priors, rng=rng)
                res = {"oracle": 100 * float(np.mean(
                    aif_bayes(rep, ks, eps, protocol, users_fake, f_true, priors=priors, rng=rng) == t))}
                res.update(aif_bayes_models(rep, t, ks, eps, protocol, users_fake, priors=priors,
                                            attacker_fake=naive_fake, pk_fractions=pk_fractions, rng=rng))
                if users_fake == "prior":
                    f_hat = md.rsfd_aggregate(rep, ks, eps, protocol, "prior", priors=priors)
                    res["NK_prior"] = 100 * float(np.mean(
                        aif_bayes(rep, ks, eps, protocol, "prior", f_hat, priors=priors, rng=rng) == t))
                for key, v in res.items():
                    out.setdefault((label, key), np.zeros((runs, len(eps_grid))))[r, e] = v
    return out


def rsfd_mse_experiment(X, ks, eps_grid, methods, *, runs: int = 20, prior_kind: str = "correct",
                        postprocess: str | None = None, rng=None) -> dict:
    """MSE_avg of RS+FD vs RS+RFD with the exact count sampler (Figs. 5, 16).

    ``methods``: list of ``(protocol, fake)`` with fake in {"uniform", "random", "prior"}.
    Priors are drawn once per run (shared across eps).  Returns ``{"mse": {label: (runs, E)},
    "analytic": {label: (runs, E)}}`` where ``analytic`` is the exact expected MSE of the
    unbiased estimator (mean of Eqs. 8/9 with the true f) and ``approx`` the averaged
    approximate variance (f = 0, App. E.1).
    """
    X, ks = md.check_dataset(X, ks)
    rng = check_random_state(rng)
    n, d = X.shape
    counts = [np.bincount(X[:, j], minlength=int(ks[j])) for j in range(d)]
    f_true = [c / n for c in counts]
    mse, ana, apx = {}, {}, {}
    for r in range(runs):
        priors = md.make_priors(prior_kind, ks, counts=counts, rng=rng)
        for protocol, fake in methods:
            label = ("RS+RFD" if fake == "prior" else "RS+FD") + f"[{protocol.upper()}" + ("" if protocol == "grr" else "-r") + "]"
            pri = priors if fake == "prior" else None
            for e, eps in enumerate(eps_grid):
                C = md.rsfd_counts_sampler(counts, d, eps, protocol, fake, priors=pri, rng=rng)
                est = md.rsfd_estimate_all(C, n, ks, eps, protocol, fake, priors=pri, postprocess=postprocess)
                mse.setdefault(label, np.zeros((runs, len(eps_grid))))[r, e] = md.mse_avg(f_true, est)
                ana.setdefault(label, np.zeros((runs, len(eps_grid))))[r, e] = md.rsfd_approx_variance(
                    ks, n, eps, protocol, fake, priors=pri, f=f_true)
                apx.setdefault(label, np.zeros((runs, len(eps_grid))))[r, e] = md.rsfd_approx_variance(
                    ks, n, eps, protocol, fake, priors=pri)
    return {"mse": mse, "analytic": ana, "approx": apx}


def aif_xgb_experiment(X, ks, eps_grid, variants, models, *, runs: int = 1, prior_kind: str | None = None,
                       n_estimators: int | None = None, max_train: int | None = None, n_jobs: int = 1,
                       classifier: str = "xgboost", rng=None) -> dict:
    """AIF-ACC (%) of the paper's trained classifier (XGBoost) under NK / PK / HM (Figs. 3, 6, 14, 15).

    ``models``: list of ``(name, model, s_factor, pk_factor)``, e.g. ``("NK s=1n", "NK", 1.0, 0.0)``.
    With ``prior_kind`` the users run RS+RFD (priors drawn once per run) and the NK attacker
    generates its synthetic tuples with *uniform* fake data, as in the artifact.
    Returns ``{(variant_label, name): array (runs, len(eps_grid))}``.
    """
    X, ks = md.check_dataset(X, ks)
    rng = check_random_state(rng)
    d = X.shape[1]
    counts = [np.bincount(X[:, j], minlength=int(ks[j])) for j in range(d)]
    out: dict = {}
    for r in range(runs):
        priors = None if prior_kind is None else md.make_priors(prior_kind, ks, counts=counts, rng=rng)
        for protocol, fake in variants:
            users_fake = fake if prior_kind is None or fake == "zero" else "prior"
            naive_fake = "uniform" if protocol == "grr" else ("zero" if fake == "zero" else "random")
            label = f"{protocol.upper()}" + ("" if protocol == "grr" else ("-z" if fake == "zero" else "-r"))
            for e, eps in enumerate(eps_grid):
                rep, t = md.rsfd_collect(X, ks, eps, protocol, users_fake, priors=priors, rng=rng)
                for name, model, s_factor, pk_factor in models:
                    acc = aif_classifier(rep, t, ks, eps, protocol, users_fake, model=model, s_factor=s_factor,
                                         pk_factor=pk_factor, priors=priors, attacker_fake=naive_fake,
                                         classifier=classifier, n_estimators=n_estimators, max_train=max_train,
                                         n_jobs=n_jobs, rng=rng)
                    out.setdefault((label, name), np.zeros((runs, len(eps_grid))))[r, e] = acc
    return out
