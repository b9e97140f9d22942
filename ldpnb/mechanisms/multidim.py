"""Multidimensional frequency estimation under LDP: SPL, SMP, RS+FD and RS+RFD.

Reference: H. H. Arcolezi, S. Gambs, J.-F. Couchot, C. Palamidessi, "On the Risks of Collecting
Multidimensional Data Under Local Differential Privacy", PVLDB 16(5):1126-1139, 2023 (below:
"Arcolezi et al. 2023"), Sections 2.3 and 5, Algorithm 1, Eqs. (6)-(9), Appendices A, B and E;
and H. H. Arcolezi, J.-F. Couchot, B. Al Bouna, X. Xiao, "Random Sampling Plus Fake Data:
Multidimensional Frequency Estimates With Local Differential Privacy", CIKM 2021 (RS+FD).

Setting: ``n`` users each hold a tuple ``X[i] = (v_1, ..., v_d)`` of label-encoded categorical
values, ``X[:, j]`` in ``{0, ..., k_j - 1}``.  The server wants the ``d`` marginal histograms.

* SPL: every attribute is reported with budget ``eps / d`` (sequential composition).
* SMP: each user samples one attribute ``j ~ U([d])`` and discloses ``<j, M(v_j; eps)>``.
* RS+FD: each user samples ``j ~ U([d])``, reports ``v_j`` with the *amplified* budget
  ``eps' = ln(d (e^eps - 1) + 1)`` and uniform fake data for every other attribute
  (GRR: uniform value; UE-z: UE of a zero vector; UE-r: UE of a uniform one-hot).
* RS+RFD (Alg. 1): as RS+FD but fake values are drawn from public priors ``f~_i``.

All protocols here use the single-attribute oracles of :mod:`ldpnb.mechanisms` and the generic
estimator :func:`ldpnb.estimators.fo_estimate` (Eq. 2).

Protocol names: ``"grr"``, ``"olh"``, ``"ss"``, ``"sue"``, ``"oue"``.  RS+FD/RS+RFD fake-data
rules: ``"uniform"`` (GRR), ``"zero"`` (UE-z), ``"random"`` (UE-r), ``"prior"`` (RS+RFD, GRR or
UE-r with priors).
"""

from __future__ import annotations

import math
from itertools import product
from typing import Any, Sequence

import numpy as np

from ldpnb.contracts import (
    EPSILON,
    MAX_DOMAIN,
    MAX_ENTRIES,
    POSITIVE,
    AnyOf,
    Array,
    Bits,
    Counts,
    Dataset,
    Distribution,
    Instance,
    Integer,
    Items,
    OneOf,
    Optional,
    Probability,
    RandomState,
    Real,
    contract,
)
from ldpnb.estimators._inversion import _clip_normalize, fo_estimate, fo_variance
from ldpnb.mechanisms._base import Guarantee, Mechanism, _check_reports_matrix
from ldpnb.mechanisms.grr import grr_simulate_counts
from ldpnb.mechanisms.protocols import ProtocolName, protocol_names
from ldpnb.mechanisms.protocols import protocol as _protocol
from ldpnb.mechanisms.unary import ue_pattern_index
from ldpnb.utils import (
    check_dataset,  # re-exported: it moved below the measures floor (measures.utility uses it)
    check_random_state,
    check_values,
)

__all__ = [
    "TupleMechanism",
    "SMP",
    "RSFD",
    "RSRFD",
    "RSFD_VARIANTS",
    "rsfd_mechanism",
    "PROTOCOLS",
    "amplified_epsilon",
    "fo_params",
    "check_dataset",
    "sample_attributes",
    "spl_collect",
    "spl_estimate",
    "smp_collect",
    "smp_estimate",
    "spl_variance",
    "smp_variance",
    "rsfd_params",
    "rsfd_collect",
    "rsfd_support_counts",
    "rsfd_estimate",
    "rsfd_variance",
    "rsfd_aggregate",
    "rsfd_counts_sampler",
    "rsfd_approx_variance",
    "rsfd_support_probability",
    "clip_normalize",
    "rsfd_tuple_channel",
    "exact_privacy_loss",
]


#: The protocol names registered when this module was imported (:func:`protocol_names` reads the
#: live registry: a family defined later is accepted by every function here).
PROTOCOLS = protocol_names()


_RSFD_PROTOCOLS = protocol_names(rsfd=True)


_FAKES = ("uniform", "zero", "random", "prior")

# ---------------------------------------------------------------------------------------------
# the contracts' vocabulary
# ---------------------------------------------------------------------------------------------
#: A label-encoded dataset (n, d): nonnegative integer codes, at most MAX_ENTRIES of them.
_DATA = Array(2, integer=True, low=0)
#: Domain sizes k_j >= 2 (integers: 2.7 is refused, not truncated).
_KS = Array(1, integer=True, low=2, high=MAX_DOMAIN)
_K = Integer(2, MAX_DOMAIN)
#: The number of attributes d and of users n.
_D = Integer(1, MAX_ENTRIES)
_N = Integer(1, (1 << 62) - 1)
_N_REAL = POSITIVE
_PROTOCOL = ProtocolName()
_RSFD = ProtocolName(rsfd=True)
_FAKE = OneOf(*_FAKES)
_VARIANT = OneOf("grr", "ue-z", "ue-r")
_LIST = Instance(list, tuple, example=[np.array([3, 2]), np.array([2, 3])])
_PRIORS = Optional(Instance(list, tuple, np.ndarray, example=[np.array([0.5, 0.5]), np.array([0.5, 0.5])]))
_FREQ = Array(None, low=0.0, high=1.0)
_COUNTS = Array(1, low=0.0)
_RNG = RandomState()
#: Largest product domain of a tuple mechanism (rows and columns are int64 indices).
_MAX_TUPLES = 1 << 62
#: Largest product domain the exact tuple channel enumerates (rows x columns), and the pair table of
#: exact_privacy_loss (rows x rows x columns): refused before any allocation.
_MAX_TUPLE_ENTRIES = 1 << 24


def _check_eps(eps: float, name: str = "epsilon") -> float:
    return EPSILON.check(eps, name)


def _check_protocol(protocol: str, allowed: Sequence[str] | None = None) -> str:
    allowed = protocol_names() if allowed is None else allowed
    if not isinstance(protocol, str) or protocol.lower() not in allowed:
        raise ValueError(f"protocol must be one of {tuple(allowed)}, got {protocol!r}")
    return protocol.lower()


@contract(eps=AnyOf(EPSILON, Array(None, low=0.0, low_open=True)), d=_D)
def amplified_epsilon(eps: float | np.ndarray, d: int) -> float | np.ndarray:
    r"""Amplified budget of RS+FD / RS+RFD (Arcolezi et al. 2023, Sec. 2.3.2, Alg. 1 line 3).

    .. math:: \epsilon' = \ln\big(d\,(e^{\epsilon} - 1) + 1\big)
              = \epsilon + \ln\big(d - (d - 1) e^{-\epsilon}\big)

    (amplification by sampling with rate ``beta = 1/d``).  Computed as written for
    ``0.01 <= eps <= 700``, as ``log1p(d expm1(eps))`` below (full relative precision down to
    ``eps = 1e-12``, where ``log(1 + x)`` loses ``-log10(x)`` digits) and by the second form above
    (no overflow of ``e^eps`` up to any finite epsilon).
    """
    e = np.asarray(eps, dtype=float)
    with np.errstate(over="ignore"):
        out = np.log(d * np.expm1(e) + 1.0)
    small, large = e < 0.01, e > 700.0
    if np.any(small):
        out = np.where(small, np.log1p(d * np.expm1(np.where(small, e, 0.0))), out)
    if np.any(large):
        out = np.where(large, e + np.log(d - (d - 1) * np.exp(-np.where(large, e, 0.0))), out)
    return float(out) if out.ndim == 0 else out


@contract(protocol=_PROTOCOL, k=_K, eps=EPSILON)
def fo_params(protocol: str, k: int, eps: float) -> tuple[float, float]:
    r"""``(p, q)`` of the generic estimator Eq. (2) for a frequency oracle (the protocol registry,
    :mod:`ldpnb.mechanisms.protocols`).

    GRR: :math:`p = e^\epsilon/(e^\epsilon + k - 1)`, :math:`q = 1/(e^\epsilon+k-1)`;
    OLH: :math:`p = e^\epsilon/(e^\epsilon + g - 1)`, :math:`q = 1/g`; omega-SS, SUE, OUE: see
    :mod:`ldpnb.mechanisms` (Arcolezi et al. 2023, Sec. 2.2).
    """
    return _protocol(protocol).params(k, eps)


@contract(n=Integer(0, MAX_ENTRIES), d=_D, rng=_RNG, assignment=OneOf("iid", "balanced"))
def sample_attributes(n: int, d: int, *, rng=None, assignment: str = "iid") -> np.ndarray:
    """Sampled attribute of each user: i.i.d. uniform on ``{0..d-1}`` (paper) or a balanced
    random partition of the users into ``d`` groups (``assignment="balanced"``, artifact)."""
    rng = check_random_state(rng)
    if assignment == "iid":
        return rng.integers(0, d, size=n)
    if assignment == "balanced":
        t = np.repeat(np.arange(d), int(np.ceil(n / d)))[:n]
        return rng.permutation(t)
    raise ValueError(f"assignment must be 'iid' or 'balanced', got {assignment!r}")


# ---------------------------------------------------------------------------------------------
# single-attribute helpers (report = support matrix or value)
# ---------------------------------------------------------------------------------------------
def _fo_support_counts(x: np.ndarray, k: int, eps: float, protocol: str, rng) -> np.ndarray:
    """Perturb ``x`` with the frequency oracle and return the support counts C(v) (k,)."""
    return _protocol(protocol).support_counts(x, k, eps, rng)


@contract(X=_DATA, ks=Optional(_KS), eps=EPSILON, protocol=_PROTOCOL, rng=_RNG)
def spl_collect(X, ks, eps: float, protocol: str, *, rng=None) -> list[np.ndarray]:
    """SPL: every attribute reported with budget ``eps/d``; returns the support counts per attribute.

    Privacy: ``d`` reports at ``eps/d`` compose sequentially to ``eps`` (Arcolezi et al. 2023, Sec. 2.3).
    """
    X, ks = check_dataset(X, ks)
    rng = check_random_state(rng)
    d = X.shape[1]
    return [_fo_support_counts(X[:, j], int(ks[j]), eps / d, protocol, rng) for j in range(d)]


@contract(counts=_LIST, n=_N, ks=_KS, eps=EPSILON, protocol=_PROTOCOL)
def spl_estimate(counts: Sequence[np.ndarray], n: int, ks, eps: float, protocol: str) -> list[np.ndarray]:
    """SPL estimates: Eq. (2) per attribute with the FO's (p, q) at ``eps/d``, ``d = len(ks)``.

    One support-count vector per attribute (``len(counts) == len(ks)``: a single vector for two
    attributes used to be estimated with the whole ``eps`` instead of ``eps/2``), each of length
    ``k_j`` with ``0 <= C(v) <= n`` (the ``n`` reports of every attribute).
    """
    d = ks.size
    if len(counts) != d:
        raise ValueError(
            f"counts must have one support-count vector per attribute (len(ks) = {d}), got "
            f"{len(counts)}: SPL splits eps over the attributes of ks"
        )
    out = []
    for j in range(d):
        k = int(ks[j])
        m = _protocol(protocol).mechanism(k, eps / d)
        c, _ = m.check_support_counts(counts[j], n, name=f"counts[{j}]")
        p, q = fo_params(protocol, k, eps / d)
        out.append(np.asarray(fo_estimate(c, n, p, q), dtype=float))
    return out


@contract(f=AnyOf(Real(0.0, 1.0), _FREQ), n=_N_REAL, k=_K, eps=EPSILON, d=_D, protocol=_PROTOCOL)
def spl_variance(f, n: int, k: int, eps: float, d: int, protocol: str) -> np.ndarray:
    """Variance of SPL's estimate of one attribute: :func:`fo_variance` at budget ``eps/d``
    with all ``n`` users reporting (Arcolezi et al. 2023, Sec. 2.3)."""
    p, q = fo_params(protocol, k, eps / d)
    return fo_variance(f, n, p, q)


@contract(f=AnyOf(Real(0.0, 1.0), _FREQ), n=_N_REAL, k=_K, eps=EPSILON, d=_D, protocol=_PROTOCOL)
def smp_variance(f, n: int, k: int, eps: float, d: int, protocol: str) -> np.ndarray:
    r"""Approximate variance of SMP's estimate of one attribute for a fixed population of ``n``
    users (Arcolezi et al. 2023, Sec. 2.3): the randomization variance of the ``n/d`` users that
    sampled the attribute plus the variance of their empirical frequency around the population's
    (each user is in the group independently with probability 1/d):

    .. math:: \mathrm{Var} \approx \frac{f p(1-p) + (1-f) q(1-q)}{(n/d)(p-q)^2} + \frac{f(1-f)(d-1)}{n}.
    """
    p, q = fo_params(protocol, k, eps)
    f = np.asarray(f, dtype=float)
    return fo_variance(f, n / d, p, q) + f * (1 - f) * (d - 1) / n


@contract(X=_DATA, ks=Optional(_KS), eps=EPSILON, protocol=_PROTOCOL, rng=_RNG, assignment=OneOf("iid", "balanced"))
def smp_collect(X, ks, eps: float, protocol: str, *, rng=None, assignment: str = "iid"):
    """SMP: each user samples ``j ~ U([d])`` and discloses ``<j, M(v_j; eps)>``.

    Returns ``(attr, counts, n_j)``: the sampled attribute per user (n,), the support counts per
    attribute (list of (k_j,)), and the number of users per attribute (d,).
    """
    X, ks = check_dataset(X, ks)
    rng = check_random_state(rng)
    n, d = X.shape
    attr = sample_attributes(n, d, rng=rng, assignment=assignment)
    counts = []
    for j in range(d):
        xj = X[attr == j, j]
        counts.append(_fo_support_counts(xj, int(ks[j]), eps, protocol, rng) if xj.size else np.zeros(ks[j], int))
    return attr, counts, np.bincount(attr, minlength=d)


@contract(counts=_LIST, n_j=Array(1, integer=True, low=0), ks=_KS, eps=EPSILON, protocol=_PROTOCOL)
def smp_estimate(counts, n_j, ks, eps: float, protocol: str) -> list[np.ndarray]:
    """SMP estimates: Eq. (2) on the ``n_j`` users that sampled attribute ``j``.

    ``counts``, ``n_j`` and ``ks`` have one entry per attribute; an attribute that no user sampled
    (``n_j = 0``) has no estimate and is refused (it used to be estimated with ``n_j = 1``).
    """
    d = ks.size
    if len(counts) != d or n_j.size != d:
        raise ValueError(
            f"counts and n_j must have one entry per attribute (len(ks) = {d}), got {len(counts)} and {n_j.size}"
        )
    if np.any(n_j == 0):
        raise ValueError(
            f"n_j: no user sampled attribute(s) {np.flatnonzero(n_j == 0).tolist()}, whose frequencies "
            "have no estimate; collect more users or estimate the other attributes only"
        )
    out = []
    for j, c in enumerate(counts):
        k, nj = int(ks[j]), int(n_j[j])
        c, _ = _protocol(protocol).mechanism(k, eps).check_support_counts(c, nj)
        p, q = fo_params(protocol, k, eps)
        out.append(np.asarray(fo_estimate(c, nj, p, q), dtype=float))
    return out


# ---------------------------------------------------------------------------------------------
# RS+FD and RS+RFD
# ---------------------------------------------------------------------------------------------
@contract(protocol=_RSFD, k=_K, eps=EPSILON, d=_D)
def rsfd_params(protocol: str, k: int, eps: float, d: int) -> tuple[float, float]:
    r"""``(p, q)`` of the sampled attribute's randomizer at the amplified budget ``eps'``.

    GRR: :math:`p = e^{\epsilon'}/(e^{\epsilon'}+k_j-1)`, :math:`q = (1-p)/(k_j-1)`;
    SUE: :math:`p = e^{\epsilon'/2}/(e^{\epsilon'/2}+1)`, :math:`q = 1-p`;
    OUE: :math:`p = 1/2`, :math:`q = 1/(e^{\epsilon'}+1)` (Arcolezi et al. 2023, Sec. 2.3.2 and 5.1).
    """
    return _protocol(protocol).params(k, amplified_epsilon(eps, d))


def _check_fake(protocol: str, fake: str) -> str:
    if fake not in _FAKES:
        raise ValueError(f"fake must be one of {_FAKES}, got {fake!r}")
    if protocol == "grr" and fake not in ("uniform", "prior"):
        raise ValueError("RS+FD[GRR] uses fake='uniform' (RS+FD) or 'prior' (RS+RFD)")
    if protocol != "grr" and fake == "uniform":
        raise ValueError("UE variants use fake='zero' (UE-z), 'random' (UE-r) or 'prior' (RS+RFD[UE-r])")
    return fake


def _check_priors(priors, ks, *, normalise: bool = True) -> list[np.ndarray]:
    """One distribution per attribute (``normalise``: divided by its sum, as the collection and
    aggregation of RS+RFD have always done; the estimators take the priors as given)."""
    if priors is None:
        raise ValueError("fake='prior' (RS+RFD) requires priors, one distribution per attribute")
    if len(priors) != len(ks):
        raise ValueError(f"priors must have {len(ks)} distributions, got {len(priors)}")
    out = []
    for j, pr in enumerate(priors):
        pr = np.asarray(pr, dtype=float)
        if pr.shape != (int(ks[j]),) or np.any(pr < 0) or not np.isclose(pr.sum(), 1.0, atol=1e-9):
            raise ValueError(f"priors[{j}] must be a distribution of length k_{j}={ks[j]}")
        out.append(pr / pr.sum() if normalise else pr)
    return out


def _fake_dist(fake: str, k: int, prior: np.ndarray | None) -> np.ndarray:
    """Distribution of the fake *value* (GRR, UE-r, prior); uniform unless fake='prior'."""
    if fake == "prior":
        return prior
    return np.full(k, 1.0 / k)


def _sample_values(dist: np.ndarray, size: int, rng) -> np.ndarray:
    """i.i.d. draws from a discrete distribution (inverse-CDF, vectorised)."""
    cdf = np.cumsum(dist)
    cdf[-1] = 1.0
    return np.minimum(np.searchsorted(cdf, rng.random(size), side="right"), dist.size - 1)


def _ue_bits(onehot: np.ndarray, k: int, p: float, q: float, rng) -> np.ndarray:
    """UE bit flipping (Eq. 3): bits of the one-hot of ``onehot[i]`` (or an all-zero vector where
    ``onehot[i] == -1``) kept at 1 w.p. p, 0 -> 1 w.p. q."""
    n = onehot.size
    bits = rng.random((n, k)) < q
    rows = np.flatnonzero(onehot >= 0)
    bits[rows, onehot[rows]] = rng.random(rows.size) < p
    return bits


@contract(
    X=_DATA,
    ks=Optional(_KS),
    eps=EPSILON,
    protocol=_RSFD,
    fake=_FAKE,
    priors=_PRIORS,
    rng=_RNG,
    assignment=OneOf("iid", "balanced"),
    sampled=Optional(Array(1, integer=True, low=0)),
)
def rsfd_collect(
    X, ks, eps: float, protocol: str, fake: str, *, priors=None, rng=None, assignment: str = "iid", sampled=None
):
    """Client side of RS+FD / RS+RFD (Arcolezi et al. 2023, Sec. 2.3.2 and Alg. 1).

    Each user samples ``j ~ U([d])``, randomizes ``v_j`` with GRR / SUE / OUE at
    ``eps' = ln(d(e^eps - 1) + 1)`` and sends fake data for every other attribute:
    ``fake="uniform"`` (GRR, value ~ U(A_i)), ``"zero"`` (UE-z: UE of the zero vector),
    ``"random"`` (UE-r: UE of onehot(r), r ~ U(A_i)), ``"prior"`` (RS+RFD: value / r ~ priors[i]).

    Parameters
    ----------
    sampled : optional int array (n,)
        Force the sampled attribute of each user (used by attacks that simulate the protocol
        on synthetic profiles with known labels); default draws it (``assignment``).

    Returns
    -------
    reports : list of d arrays — GRR: int (n,); UE: bool (n, k_j)
    t : int array (n,), the sampled (hidden) attribute
    """
    X, ks = check_dataset(X, ks)
    fake = _check_fake(protocol, fake)
    rng = check_random_state(rng)
    n, d = X.shape
    if fake == "prior":
        priors = _check_priors(priors, ks)
    if sampled is None:
        t = sample_attributes(n, d, rng=rng, assignment=assignment)
    else:
        t = np.asarray(sampled, dtype=np.int64)
        if t.shape != (n,) or t.min() < 0 or t.max() >= d:
            raise ValueError("sampled must be an int array (n,) with values in {0..d-1}")
    reports = []
    for j in range(d):
        k = int(ks[j])
        p, q = rsfd_params(protocol, k, eps, d)
        real = t == j
        fd = _fake_dist(fake, k, priors[j] if fake == "prior" else None)
        if protocol == "grr":
            y = _sample_values(fd, n, rng)
            idx = np.flatnonzero(real)
            keep = rng.random(idx.size) < p
            other = (X[idx, j] + rng.integers(1, k, size=idx.size)) % k
            y[idx] = np.where(keep, X[idx, j], other)
            reports.append(y)
        else:
            if fake == "zero":
                base = np.full(n, -1, dtype=np.int64)
            else:
                base = _sample_values(fd, n, rng)
            base[real] = X[real, j]
            reports.append(_ue_bits(base, k, p, q, rng))
    return reports, t


@contract(reports=_LIST)
def rsfd_support_counts(reports) -> list[np.ndarray]:
    """Support counts C(v) per attribute: value counts (GRR) or column sums of the bits (UE)."""
    out = []
    for r in reports:
        r = np.asarray(r)
        if r.ndim == 1:
            raise ValueError("GRR reports need the domain size: use np.bincount(r, minlength=k)")
        out.append(r.sum(axis=0).astype(np.int64))
    return out


def _report_counts(reports, ks) -> list[np.ndarray]:
    out = []
    for j, r in enumerate(reports):
        r = np.asarray(r)
        out.append(np.bincount(r, minlength=int(ks[j])) if r.ndim == 1 else r.sum(axis=0).astype(np.int64))
    return out


@contract(
    counts=_COUNTS,
    n=_N_REAL,
    d=_D,
    k=_K,
    p=Probability(),
    q=Probability(),
    variant=_VARIANT,
    prior=Optional(Distribution()),
)
def rsfd_estimate(counts, n: int, d: int, k: int, p: float, q: float, variant: str, prior=None) -> np.ndarray:
    r"""Unbiased RS+FD / RS+RFD estimator of one attribute's frequencies from support counts.

    * RS+FD[GRR] (CIKM 2021): :math:`\hat f(v) = \frac{C(v)\,d\,k_j - n(d-1+q k_j)}{n k_j (p-q)}`
    * RS+FD[UE-z]: :math:`\hat f(v) = \frac{d\,(C(v) - n q)}{n(p-q)}`
    * RS+FD[UE-r]: :math:`\hat f(v) = \frac{C(v) d k_j - n(q k_j + (p-q)(d-1) + q k_j(d-1))}{n k_j (p-q)}`
      (the paper's text has a stray parenthesis; this is the unbiased form)
    * RS+RFD[GRR], Eq. (6): :math:`\hat f(v) = \frac{d\,C(v) - n(q + (d-1)\tilde f_j(v))}{n(p-q)}`
    * RS+RFD[UE-r], Eq. (7): :math:`\hat f(v) = \frac{d\,C(v) - n(q + (p-q)(d-1)\tilde f_j(v) + q(d-1))}{n(p-q)}`

    ``variant`` in {"grr", "ue-z", "ue-r"}; ``prior`` (k,) switches to RS+RFD (Eqs. 6, 7).
    """
    C = counts
    if not q < p:
        raise ValueError(f"q must be < p, got p={p}, q={q}")
    if C.shape != (k,):
        raise ValueError(f"counts must have shape ({k},), got {C.shape}")
    if C.max() > n:
        raise ValueError(
            f"counts (support counts) must be at most the number of users n = {n:g}, got max {C.max():.6g}"
        )
    if variant == "ue-z":
        if prior is not None:
            raise ValueError("UE-z has no RS+RFD variant (fake data are zero vectors)")
        return d * (C - n * q) / (n * (p - q))
    fk = np.full(k, 1.0 / k) if prior is None else np.asarray(prior, dtype=float)
    if fk.shape != (k,):
        raise ValueError(f"prior must have shape ({k},)")
    if variant == "grr":
        return (d * C - n * (q + (d - 1) * fk)) / (n * (p - q))
    if variant == "ue-r":
        return (d * C - n * (q + (p - q) * (d - 1) * fk + q * (d - 1))) / (n * (p - q))
    raise ValueError(f"variant must be 'grr', 'ue-z' or 'ue-r', got {variant!r}")


@contract(
    f=AnyOf(Real(0.0, 1.0), _FREQ),
    d=_D,
    k=Integer(2, MAX_ENTRIES),
    p=Probability(),
    q=Probability(),
    variant=_VARIANT,
    prior=Optional(Distribution()),
)
def rsfd_support_probability(f, d: int, k: int, p: float, q: float, variant: str, prior=None) -> np.ndarray:
    r"""``gamma(v) = Pr[a random user's report supports v]`` (Figs. 7, 8; App. A, B).

    GRR: :math:`\gamma = \frac1d\big(q + f(v)(p-q) + (d-1)\tilde f_j(v)\big)`;
    UE-z: :math:`\gamma = f(v)(p-q)/d + q`;
    UE-r: :math:`\gamma = \frac1d\big(f(v)(p-q) + q + (d-1)(\tilde f_j(v)(p-q) + q)\big)`
    with :math:`\tilde f_j = 1/k_j` for RS+FD.
    """
    if not q < p:
        raise ValueError(f"q must be < p, got p={p}, q={q}")
    f = np.asarray(f, dtype=float)
    if f.ndim and f.shape != (k,):
        raise ValueError(f"f must be a scalar or have one entry per value ({k}), got shape {f.shape}")
    if prior is not None and prior.shape != (k,):
        raise ValueError(f"prior must have shape ({k},), got {prior.shape}")
    fk = np.full(k, 1.0 / k) if prior is None else np.asarray(prior, dtype=float)
    if variant == "grr":
        return (q + f * (p - q) + (d - 1) * fk) / d
    if variant == "ue-z":
        return f * (p - q) / d + q
    if variant == "ue-r":
        return (f * (p - q) + q + (d - 1) * (fk * (p - q) + q)) / d
    raise ValueError(f"variant must be 'grr', 'ue-z' or 'ue-r', got {variant!r}")


@contract(
    f=AnyOf(Real(0.0, 1.0), _FREQ),
    n=_N_REAL,
    d=_D,
    k=Integer(2, MAX_ENTRIES),
    p=Probability(),
    q=Probability(),
    variant=_VARIANT,
    prior=Optional(Distribution()),
)
def rsfd_variance(f, n: int, d: int, k: int, p: float, q: float, variant: str, prior=None) -> np.ndarray:
    r"""Variance of the RS+FD / RS+RFD estimators, Eqs. (8), (9) (Arcolezi et al. 2023, App. A, B):

    .. math:: \mathrm{Var}[\hat f(v)] = \frac{d^2\,\gamma(1-\gamma)}{n\,(p-q)^2}

    with :math:`\gamma` of :func:`rsfd_support_probability` (users i.i.d.).  ``f = 0`` gives the
    approximate variance of App. E.1.
    """
    g = rsfd_support_probability(f, d, k, p, q, variant, prior)
    return d**2 * g * (1 - g) / (n * (p - q) ** 2)


def _variant(protocol: str, fake: str) -> str:
    if protocol == "grr":
        return "grr"
    return "ue-z" if fake == "zero" else "ue-r"


@contract(est=Array(1))
def clip_normalize(est) -> np.ndarray:
    """Artifact post-processing: clip negative estimates at 0 and renormalise to sum 1
    (uniform if everything is clipped).  ``est`` is 1-D and finite (NaN refused); the same
    implementation as :func:`ldpnb.estimators.normalize_clip`."""
    return _clip_normalize(est, "est", ndim=1)


@contract(
    reports=_LIST, ks=_KS, eps=EPSILON, protocol=_RSFD, fake=_FAKE, priors=_PRIORS, postprocess=Optional(OneOf("clip"))
)
def rsfd_aggregate(
    reports, ks, eps: float, protocol: str, fake: str, *, priors=None, postprocess: str | None = "clip"
) -> list[np.ndarray]:
    """Server side of RS+FD / RS+RFD: support counts of every attribute -> estimator of
    :func:`rsfd_estimate` (Eqs. 6, 7 for RS+RFD), optionally clipped and renormalised."""
    fake = _check_fake(protocol, fake)
    d = len(reports)
    if d != ks.size or d == 0:
        raise ValueError(f"reports must have one per-attribute report per entry of ks ({ks.size}), got {d}")
    n = int(np.asarray(reports[0]).shape[0])
    if fake == "prior":
        priors = _check_priors(priors, ks)
    counts = _report_counts(reports, ks)
    return rsfd_estimate_all(counts, n, ks, eps, protocol, fake, priors=priors, postprocess=postprocess)


@contract(
    counts=_LIST,
    n=_N_REAL,
    ks=_KS,
    eps=EPSILON,
    protocol=_RSFD,
    fake=_FAKE,
    priors=_PRIORS,
    postprocess=Optional(OneOf("clip")),
)
def rsfd_estimate_all(counts, n, ks, eps, protocol, fake, *, priors=None, postprocess="clip"):
    """Estimates of all attributes from their support counts (see :func:`rsfd_aggregate`)."""
    d = len(counts)
    if d != ks.size:
        raise ValueError(f"counts must have one support-count vector per entry of ks ({ks.size}), got {d}")
    fake = _check_fake(protocol, fake)
    if fake == "prior":
        priors = _check_priors(priors, ks, normalise=False)
    var = _variant(protocol, fake)
    out = []
    for j in range(d):
        k = int(ks[j])
        p, q = rsfd_params(protocol, k, eps, d)
        est = rsfd_estimate(counts[j], n, d, k, p, q, var, priors[j] if fake == "prior" else None)
        if postprocess == "clip":
            est = clip_normalize(est)
        elif postprocess is not None:
            raise ValueError("postprocess must be 'clip' or None")
        out.append(est)
    return out


@contract(input_counts=_LIST, d=_D, eps=EPSILON, protocol=_RSFD, fake=_FAKE, priors=_PRIORS, rng=_RNG)
def rsfd_counts_sampler(
    input_counts, d: int, eps: float, protocol: str, fake: str, *, priors=None, rng=None
) -> list[np.ndarray]:
    """Exact-in-law sampler of each attribute's support counts under RS+FD / RS+RFD.

    For attribute ``j`` with true value counts ``c_v``: each user samples ``j`` independently
    w.p. ``1/d`` so the real reporters of value ``v`` are ``R_v ~ Bin(c_v, 1/d)``; the others
    send fake data.  GRR: real outputs ``~ Multinomial`` per value (p on v, q elsewhere) plus
    ``Multinomial(n_fake, fake distribution)``; UE: ``C(v) = Bin(N_v, p) + Bin(n - N_v, q)`` with
    ``N_v`` the users whose pre-flip one-hot sits at ``v`` (Arcolezi et al. 2023, Sec. 5).
    The law of each attribute's counts is exact; the dependence *between* attributes (through
    the common sampled attribute) is not reproduced, which does not matter for MSE_avg.
    """
    rng = check_random_state(rng)
    fake = _check_fake(protocol, fake)
    if len(input_counts) != d:
        raise ValueError("input_counts must have one count vector per attribute (d)")
    input_counts = [Counts(min_size=2).check(c, f"input_counts[{j}]") for j, c in enumerate(input_counts)]
    ks = np.array([len(c) for c in input_counts])
    if fake == "prior":
        priors = _check_priors(priors, ks)
    out = []
    for j, c in enumerate(input_counts):
        c = np.asarray(c, dtype=np.int64)
        k = c.size
        n = int(c.sum())
        p, q = rsfd_params(protocol, k, eps, d)
        real = rng.binomial(c, 1.0 / d)
        n_real = int(real.sum())
        n_fake = n - n_real
        fd = _fake_dist(fake, k, priors[j] if fake == "prior" else None)
        if protocol == "grr":
            C = np.asarray(grr_simulate_counts(real, amplified_epsilon(eps, d), rng=rng), dtype=np.int64)
            C = C + rng.multinomial(n_fake, fd)
        else:
            if fake == "zero":
                N = real
            else:
                N = real + rng.multinomial(n_fake, fd)
            C = rng.binomial(N, p) + rng.binomial(n - N, q)
        out.append(C.astype(np.int64))
    return out


@contract(ks=_KS, n=_N_REAL, eps=EPSILON, protocol=_RSFD, fake=_FAKE, priors=_PRIORS, f=Optional(_LIST))
def rsfd_approx_variance(ks, n: int, eps: float, protocol: str, fake: str, *, priors=None, f=None) -> float:
    """Averaged (approximate) variance of App. E.1: Eqs. (8)/(9) (or the RS+FD forms) with
    ``f(v) = 0`` (or the given true marginals ``f``), averaged over values then attributes."""
    fake = _check_fake(protocol, fake)
    d = ks.size
    if fake == "prior":
        priors = _check_priors(priors, ks, normalise=False)
    if f is not None and len(f) != d:
        raise ValueError(f"f must have one frequency vector per attribute ({d}), got {len(f)}")
    var = _variant(protocol, fake)
    vals = []
    for j in range(d):
        k = int(ks[j])
        p, q = rsfd_params(protocol, k, eps, d)
        fj = np.zeros(k) if f is None else np.asarray(f[j], dtype=float)
        vals.append(np.mean(rsfd_variance(fj, n, d, k, p, q, var, priors[j] if fake == "prior" else None)))
    return float(np.mean(vals))


# ---------------------------------------------------------------------------------------------
# exact privacy loss by enumeration
# ---------------------------------------------------------------------------------------------
def _tuple_sizes(ks: np.ndarray, protocol: str) -> tuple[int, int]:
    """Rows and columns of the exact tuple channel (exact integers, computed before any allocation)."""
    rows = math.prod(int(k) for k in ks)
    cols = rows if protocol == "grr" else math.prod(1 << int(k) for k in ks)
    return rows, cols


@contract(ks=_KS, eps=EPSILON, protocol=_RSFD, fake=_FAKE, priors=_PRIORS)
def rsfd_tuple_channel(ks, eps: float, protocol: str = "grr", fake: str = "uniform", *, priors=None):
    r"""Exact channel of the whole RS+FD / RS+RFD tuple mechanism, rows = input tuples.

    :math:`P(\mathbf y\mid\mathbf v) = \sum_j \frac1d P_M(y_j\mid v_j)\prod_{i\neq j}P_{fake,i}(y_i)`.
    GRR outputs are tuples of values; UE outputs are tuples of bit vectors (pattern index
    :math:`\sum_b B_b 2^b`).  Only for tiny domains (the matrix has prod(k) rows).

    Returns ``(channel, inputs)`` with ``inputs`` the (prod k, d) array of input tuples.
    """
    rows, cols = _tuple_sizes(ks, protocol)
    if rows * cols > _MAX_TUPLE_ENTRIES:
        raise ValueError(
            f"ks: the exact tuple channel has {rows} x {cols} entries, more than {_MAX_TUPLE_ENTRIES}; "
            "it is meant for small product domains"
        )
    ks = [int(k) for k in ks]
    fake = _check_fake(protocol, fake)
    d = len(ks)
    if fake == "prior":
        priors = _check_priors(priors, np.array(ks))
    per_real, per_fake = [], []
    for j, k in enumerate(ks):
        p, q = rsfd_params(protocol, k, eps, d)
        fd = _fake_dist(fake, k, priors[j] if fake == "prior" else None)
        if protocol == "grr":
            M = np.full((k, k), q)
            np.fill_diagonal(M, p)
            per_real.append(M)
            per_fake.append(fd)
        else:
            pats = ((np.arange(2**k)[:, None] >> np.arange(k)[None, :]) & 1).astype(bool)  # (2^k, k)
            # P(pattern | onehot(v))
            M = np.empty((k, 2**k))
            for v in range(k):
                pr = np.where(np.arange(k) == v, p, q)
                M[v] = np.prod(np.where(pats, pr, 1 - pr), axis=1)
            zero = np.prod(np.where(pats, q, 1 - q), axis=1)
            per_real.append(M)
            per_fake.append(zero if fake == "zero" else fd @ M)
    inputs = np.array(list(product(*[range(k) for k in ks])), dtype=np.int64)
    n_out = [m.shape[1] for m in per_real]
    W = np.zeros((inputs.shape[0], int(np.prod(n_out))))
    for j in range(d):
        # outer product over attributes: real factor for j, fake factors elsewhere
        term = np.ones((inputs.shape[0], 1))
        for i in range(d):
            fac = per_real[i][inputs[:, i]] if i == j else np.broadcast_to(per_fake[i], (inputs.shape[0], n_out[i]))
            term = (term[:, :, None] * fac[:, None, :]).reshape(inputs.shape[0], -1)
        W += term / d
    return W, inputs


@contract(ks=_KS, eps=EPSILON, protocol=_RSFD, fake=_FAKE, priors=_PRIORS)
def exact_privacy_loss(ks, eps: float, protocol: str = "grr", fake: str = "uniform", *, priors=None) -> dict:
    r"""Worst-case privacy loss of the RS+FD / RS+RFD tuple mechanism by exact enumeration (T13).

    Returns ``{"any": max_{v, v', y} ln P(y|v)/P(y|v'), "attribute": same over pairs differing in
    exactly one attribute, "eps_prime": eps'}``.  The paper claims the mechanism is ``eps``-LDP;
    the enumeration shows this holds for pairs differing in one attribute (equal k, uniform fake
    data) while the worst case over arbitrary pairs is larger (but <= eps').
    """
    rows, cols = _tuple_sizes(ks, protocol)
    if rows * rows * cols > _MAX_TUPLE_ENTRIES:  # the pair table below (exact_privacy_loss([3000, 3000]): 589 TiB)
        raise ValueError(
            f"ks: the pairwise table of the tuple channel has {rows} x {rows} x {cols} entries, more than "
            f"{_MAX_TUPLE_ENTRIES}; it is meant for small product domains"
        )
    W, inputs = rsfd_tuple_channel(ks, eps, protocol, fake, priors=priors)
    with np.errstate(divide="ignore", invalid="ignore"):  # -inf - -inf: refused below
        L = np.log(W)
        diff = np.max(L[:, None, :] - L[None, :, :], axis=2)  # (V, V)
    ham = (inputs[:, None, :] != inputs[None, :, :]).sum(axis=2)
    out = {
        "any": float(diff[ham > 0].max()),
        "attribute": float(diff[ham == 1].max()),
        "eps_prime": amplified_epsilon(eps, len(ks)),
    }
    if math.isnan(out["any"]) or math.isnan(out["attribute"]):  # 0/0: entries of W underflowed to 0 (eps ~ 700+)
        raise ValueError(
            f"eps = {eps:g}: entries of the tuple channel underflow to 0 in float64, so the enumeration "
            "cannot resolve the log-ratios; use a smaller eps"
        )
    return out


# ---------------------------------------------------------------------------------------------
# the protocols as Mechanism objects: the exact channel of one user's d-attribute tuple
# ---------------------------------------------------------------------------------------------


class TupleMechanism(Mechanism):
    r"""Base of the multidimensional protocols as :class:`~ldpnb.mechanisms.Mechanism` objects.

    The input of one user is a tuple :math:`\mathbf v = (v_1, \dots, v_d)`, ``v_j`` in
    ``{0..k_j - 1}``; the rows of :meth:`channel` are the ``prod(k)`` tuples in mixed radix with
    attribute 0 most significant (the order of ``itertools.product``, :meth:`tuples`).  Inputs of
    :meth:`perturb` are either an ``(n, d)`` array of tuples or the ``(n,)`` row indices.
    """

    ks: tuple[int, ...]

    def _init_domain(self, ks: Any) -> None:
        ks_arr = np.asarray(ks)
        if ks_arr.ndim != 1 or ks_arr.size < 1 or not np.issubdtype(ks_arr.dtype, np.integer) or np.any(ks_arr < 2):
            raise ValueError(f"ks must be a non-empty 1-D sequence of integer domain sizes >= 2, got {ks!r}")
        self.ks = tuple(int(k) for k in ks_arr)
        if math.prod(self.ks) > _MAX_TUPLES:  # rows are int64 indices (row_of, perturb)
            raise ValueError(
                f"ks: the product domain has {math.prod(self.ks):.4g} tuples, more than 2**62 (the rows of the "
                "tuple channel are int64 indices)"
            )
        self.d = len(self.ks)
        self._radix = np.cumprod((1,) + self.ks[::-1])[:-1][::-1].astype(np.int64)  # row = sum_j v_j radix_j

    @property
    def n_inputs(self) -> int:
        return math.prod(self.ks)

    def _check_dense(self) -> None:
        k, m = self.n_inputs, self.n_outputs
        if k * m > _MAX_TUPLE_ENTRIES:
            raise ValueError(
                f"the exact tuple channel of {self!r} has {k} x {m} entries, more than "
                f"{_MAX_TUPLE_ENTRIES}; it is meant for small product domains"
            )

    def tuples(self) -> np.ndarray:
        """The input tuples, ``(prod k, d)`` int64, in row order of :meth:`channel`."""
        return np.array(list(product(*[range(k) for k in self.ks])), dtype=np.int64).reshape(-1, self.d)

    @contract(X=Dataset())
    def row_of(self, X: Any) -> np.ndarray:
        """Row of :meth:`channel` of each tuple of ``X`` (n, d): a label-encoded dataset, ``X[:, j]`` in
        ``{0..k_j - 1}``."""
        X, _ = check_dataset(X, self.ks)
        return X @ self._radix

    def _check_inputs(self, x: Any) -> np.ndarray:
        x_arr = np.asarray(x)
        if x_arr.ndim == 2:
            return self.row_of(x_arr)
        return check_values(x_arr, self.n_inputs)

    def _tuples_of_rows(self, rows: np.ndarray) -> np.ndarray:
        return (rows[:, None] // self._radix[None, :]) % np.asarray(self.ks)[None, :]

    def params(self) -> dict[str, Any]:
        return {"ks": self.ks, "epsilon": self.epsilon}


class SMP(TupleMechanism):
    r"""SMP[protocol]: the user samples ``j ~ U([d])`` and discloses ``<j, M(v_j; eps)>``
    (Arcolezi et al. 2023, Sec. 2.3.1).

    Channel: :math:`P(\langle j, y\rangle \mid \mathbf v) = \frac1d C_j[v_j, y]` with ``C_j`` the
    channel of the protocol's :class:`~ldpnb.mechanisms.Mechanism` on ``k_j`` values (OLH: the
    channel of its support set, a sufficient statistic).  Columns: the blocks of attributes
    ``0..d-1`` side by side.  Claim: eps-LDP, tight (two tuples with the same disclosed attribute
    reach the protocol's own ``e^eps``).  Reports of :meth:`perturb` are the column indices
    (:meth:`decode` splits them into ``(j, column of C_j)``).  SMP[OLH] samples with the
    Carter-Wegman hash of :class:`~ldpnb.mechanisms.OLH`, pairwise independent only: the support of
    ``v_j`` jointly with any one other value follows the channel, larger parts of the support set do
    not (see :class:`~ldpnb.mechanisms.LocalHashing`).
    """

    family = "SMP"

    @contract(ks=Array(1, integer=True, low=2), epsilon=EPSILON, protocol=ProtocolName())
    def __init__(self, ks: Any, epsilon: float, protocol: str = "grr") -> None:
        self._init_domain(ks)
        self.epsilon, self.protocol = epsilon, protocol
        self.components = [_protocol(protocol).mechanism(k, epsilon) for k in self.ks]
        sizes = [m.n_outputs for m in self.components]
        self._offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)

    @property
    def n_outputs(self) -> int:
        return int(self._offsets[-1])

    def _log_channel(self) -> np.ndarray:
        V = self.tuples()
        blocks = [m.log_channel()[V[:, j]] - np.log(self.d) for j, m in enumerate(self.components)]
        return np.concatenate(blocks, axis=1)

    def _perturb(self, x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        V = self._tuples_of_rows(x)
        t = rng.integers(0, self.d, size=x.size)
        out = np.empty(x.size, dtype=np.int64)
        for j, m in enumerate(self.components):
            u = np.flatnonzero(t == j)
            if u.size:
                out[u] = self._offsets[j] + m.report_index(m.perturb(V[u, j], rng=rng))
        return out

    @contract(reports=Array(1, integer=True, low=0))
    def decode(self, reports: Any) -> tuple[np.ndarray, np.ndarray]:
        """``(j, column of C_j)`` of each report (column index of :meth:`channel`, in
        ``{0..n_outputs - 1}``)."""
        c = self.report_index(reports)
        j = np.searchsorted(self._offsets, c, side="right") - 1
        return j, c - self._offsets[j]

    def params(self) -> dict[str, Any]:
        return {"ks": self.ks, "epsilon": self.epsilon, "protocol": self.protocol}


#: RS+FD variants by the paper's name: (randomiser, fake-data rule) (Sec. 2.3.2).
RSFD_VARIANTS: dict[str, tuple[str, str]] = {
    "GRR": ("grr", "uniform"),
    "SUE-z": ("sue", "zero"),
    "SUE-r": ("sue", "random"),
    "OUE-z": ("oue", "zero"),
    "OUE-r": ("oue", "random"),
}


class RSFD(TupleMechanism):
    r"""RS+FD[variant] (Arcolezi et al. 2023, Sec. 2.3.2; Arcolezi et al., CIKM 2021) as a mechanism
    on one user's tuple: sample ``j ~ U([d])``, randomise ``v_j`` at the amplified budget
    :math:`\epsilon' = \ln(d(e^\epsilon - 1) + 1)`, send fake data for every other attribute.

    Channel (:func:`rsfd_tuple_channel`):
    :math:`P(\mathbf y\mid\mathbf v) = \sum_j \frac1d P_{M,j}(y_j\mid v_j)\prod_{i\ne j}P_{fake,i}(y_i)`;
    columns in mixed radix over the attributes (attribute 0 most significant), digit ``j`` the value
    (GRR) or the bit-pattern index :math:`\sum_b B_b 2^b` (UE).  Reports of :meth:`perturb` are the
    protocol's messages (the list of ``d`` per-attribute reports of :func:`rsfd_collect`).

    **The claim.**  The paper states eps-LDP for the tuple, by amplification by sampling (rate
    ``1/d``) of the ``eps'``-LDP randomiser (Sec. 2.3.2, Alg. 1 line 3).  Every term of the mixture
    has likelihood ratio at most ``e^{eps'}``, so the tuple mechanism is ``eps'``-LDP, and the exact
    channel reaches ``eps'`` on two tuples that differ in every attribute: :attr:`guarantee` is
    therefore ``eps'``-LDP (tight), and :attr:`paper_epsilon` keeps the paper's ``eps``, which
    :meth:`neighbour_level` checks on tuples differing in one attribute (it holds for equal domain
    sizes and uniform fake data, and is exceeded otherwise: the chapter's divergence T13).
    """

    family = "RS+FD"

    @contract(ks=Array(1, integer=True, low=2), epsilon=EPSILON, variant=OneOf(*RSFD_VARIANTS))
    def __init__(self, ks: Any, epsilon: float, variant: str = "GRR") -> None:
        self._init_domain(ks)
        self.epsilon, self.variant = epsilon, variant
        self.protocol, self.fake = RSFD_VARIANTS[variant]
        self.priors: list[np.ndarray] | None = None

    @property
    def eps_prime(self) -> float:
        r""":math:`\epsilon' = \ln(d(e^\epsilon - 1) + 1)`, the randomiser's budget."""
        return float(amplified_epsilon(self.epsilon, self.d))

    @property
    def paper_epsilon(self) -> float:
        """The level the paper states for the tuple (eps)."""
        return self.epsilon

    @property
    def guarantee(self) -> Guarantee:
        return Guarantee("ldp", self.eps_prime, about="the d-attribute tuple")

    @property
    def n_outputs(self) -> int:
        if self.protocol == "grr":
            return math.prod(self.ks)
        return 1 << sum(self.ks)

    def _check_dense(self) -> None:
        if self.protocol != "grr" and sum(self.ks) > 24:
            raise ValueError(f"the UE tuple channel of {self!r} has 2**{sum(self.ks)} columns; small domains only")
        super()._check_dense()

    def _log_channel(self) -> np.ndarray:
        W, _ = rsfd_tuple_channel(self.ks, self.epsilon, self.protocol, self.fake, priors=self.priors)
        with np.errstate(divide="ignore"):
            return np.log(W)

    def _perturb(self, x: np.ndarray, rng: np.random.Generator) -> list[np.ndarray]:
        reports, _ = rsfd_collect(
            self._tuples_of_rows(x), self.ks, self.epsilon, self.protocol, self.fake, priors=self.priors, rng=rng
        )
        return reports

    @contract(reports=Items(AnyOf(Array(1, integer=True, low=0), Bits(2)), max_size=MAX_ENTRIES))
    def report_index(self, reports: Any) -> np.ndarray:
        """Column of :meth:`channel` of each message: ``reports`` is the list of ``d`` per-attribute
        reports of :meth:`perturb` (GRR: values in ``{0..k_j - 1}``; UE: ``(n, k_j)`` bit matrices), the
        same number of users in each; the columns are int64 indices (UE: ``sum(ks) <= 62``)."""
        if len(reports) != self.d:
            raise ValueError(
                f"reports must be the list of {self.d} per-attribute reports of perturb, got {len(reports)}"
            )
        if self.protocol != "grr" and sum(self.ks) > 62:  # GRR: the constructor bounds prod(ks)
            raise ValueError(
                f"reports: the 2**{sum(self.ks)} columns of {self!r} are not int64 indices "
                "(UE needs sum(ks) <= 62); count the reports per attribute instead"
            )
        code = None
        for j, k in enumerate(self.ks):
            if self.protocol == "grr":
                digit, base = check_values(reports[j], k, name=f"reports[{j}]"), k
            else:
                digit, base = ue_pattern_index(_check_reports_matrix(reports[j], k, f"reports[{j}]")), 1 << k
            if code is not None and digit.shape[0] != code.shape[0]:
                raise ValueError(
                    f"reports[{j}] has {digit.shape[0]} reports, reports[0] has {code.shape[0]}: one per user in each"
                )
            code = digit if code is None else code * base + digit
        return code

    def neighbour_level(self) -> float:
        """Largest log-likelihood ratio over tuples differing in exactly one attribute (the paper's
        eps-LDP claim, read for one-attribute neighbours)."""
        L = self.log_channel()
        V = self.tuples()
        best = -np.inf
        for a in range(L.shape[0]):
            nb = np.flatnonzero((V != V[a]).sum(axis=1) == 1)
            with np.errstate(invalid="ignore"):
                r = L[a][None, :] - L[nb]
            r = np.where(np.isnan(r), -np.inf, r)
            best = max(best, float(r.max()))
        return best

    def params(self) -> dict[str, Any]:
        return {"ks": self.ks, "epsilon": self.epsilon, "variant": self.variant}


class RSRFD(RSFD):
    r"""RS+RFD[GRR / SUE-r / OUE-r] (Arcolezi et al. 2023, Alg. 1, Sec. 5): RS+FD whose fake values
    are drawn from public priors :math:`\tilde f_i` instead of the uniform distribution.

    Same channel form, claim and report format as :class:`RSFD` (``eps'``-LDP for the tuple, tight
    when the priors have full support; the paper states eps-LDP).  Priors with zeros give zero
    columns: the channel then has ``-inf`` log-probabilities (``full_support = False``).
    """

    family = "RS+RFD"
    full_support = False

    @contract(
        ks=_KS,  # bounded: a prior holds k_j entries (2**40 was refused as priors[0], not as ks)
        priors=Instance(list, tuple, example=[[0.5, 0.5], [0.5, 0.5]]),
        epsilon=EPSILON,
        protocol=ProtocolName(rsfd=True),
    )
    def __init__(self, ks: Any, priors: Any, epsilon: float, protocol: str = "grr") -> None:
        self._init_domain(ks)
        self.epsilon, self.protocol, self.fake = epsilon, protocol, "prior"
        self.variant = {"grr": "GRR", "sue": "SUE-r", "oue": "OUE-r"}[protocol]
        self.priors = _check_priors(priors, np.array(self.ks))

    def params(self) -> dict[str, Any]:
        return {"ks": self.ks, "epsilon": self.epsilon, "protocol": self.protocol}


@contract(ks=_KS, eps=EPSILON, protocol=_RSFD, fake=_FAKE, priors=_PRIORS)
def rsfd_mechanism(ks: Any, eps: float, protocol: str = "grr", fake: str = "uniform", *, priors: Any = None) -> RSFD:
    """The :class:`RSFD` / :class:`RSRFD` object of a (randomiser, fake-data rule) pair
    (``fake="prior"``: RS+RFD with ``priors``)."""
    fake = _check_fake(protocol, fake)
    if fake == "prior":
        return RSRFD(ks, priors, eps, protocol)
    variant = next(v for v, pf in RSFD_VARIANTS.items() if pf == (protocol, fake))
    return RSFD(ks, eps, variant)
