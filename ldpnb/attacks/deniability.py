"""Plausible-deniability attacks on one report of a frequency oracle, and their expected accuracy.

Arcolezi, Gambs, Couchot and Palamidessi (2023), Section 3.2.
"""

from __future__ import annotations

from math import factorial
from typing import Sequence

import numpy as np
from scipy import stats

from ldpnb.contracts import DOMAIN, SEED, Array, Bits, Integer, OneOf, Real, contract
from ldpnb.mechanisms import hashing as mech
from ldpnb.mechanisms import multidim as md
from ldpnb.mechanisms.protocols import protocol as protocol_entry
from ldpnb.utils import check_random_state, check_values

_PROTOCOL = OneOf(*md.PROTOCOLS)
#: Domain sizes of the attacks' closed forms (a product over k terms at most).
_K = Integer(2, 1 << 24)
_FORM = OneOf("exact", "paper", "ideal")

__all__ = [
    "expected_pd_accuracy",
    "multi_collection_accuracy",
    "pd_attack_support",
    "perturb_and_infer",
]


# ---------------------------------------------------------------------------------------------
# plausible-deniability value inference (Sec. 3.2.1)
# ---------------------------------------------------------------------------------------------
@contract(protocol=_PROTOCOL, eps=Real(0.0, 1e4, low_open=True), k=_K, form=_FORM)
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
    formula = protocol_entry(protocol).pd_accuracy
    if formula is None:
        raise ValueError(f"protocol: {protocol!r} has no closed form of the plausible-deniability accuracy")
    return formula(eps, k, form)


def ue_accuracy_binomial_sum(p: float, q: float, k: int) -> float:
    r"""The paper's form of the UE attack accuracy (Sec. 3.2.1):
    :math:`\frac{(1-p)}{k}(1-q)^{k-1} + \sum_{i=1}^{k}\frac{p}{i}\mathrm{Bin}(i-1; k-1, q)`."""
    i = np.arange(1, k + 1)
    return float((1 - p) * (1 - q) ** (k - 1) / k + np.sum(p / i * stats.binom.pmf(i - 1, k - 1, q)))


@contract(
    protocol=_PROTOCOL,
    eps=Real(0.0, 1e4, low_open=True),
    ks=Array(1, integer=True, low=2, high=1 << 24, max_size=1 << 16),
    setting=OneOf("uniform", "non-uniform"),
    form=_FORM,
)
def multi_collection_accuracy(
    protocol: str, eps: float, ks: Sequence[int], setting: str = "uniform", form: str = "paper"
) -> float:
    r"""Expected probability of inferring a user's complete profile after ``d = len(ks)`` surveys.

    Uniform metric, Eq. (4): :math:`\prod_j ACC_{FO}(\epsilon, k_j)`; non-uniform, Eq. (5):
    :math:`\prod_j \frac{d+1-j}{d} ACC_{FO}(\epsilon, k_j) = \frac{d!}{d^d}\prod_j ACC_{FO}`.
    ``form`` as in :func:`expected_pd_accuracy` except that ``"paper"`` uses omega-SS's exact
    ``p/omega`` (the paper's SS form exceeds 1 where omega = 1).
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
        return acc * factorial(d) / d**d
    raise ValueError("setting must be 'uniform' or 'non-uniform'")


@contract(support=Bits(2), rng=SEED)
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


@contract(
    x=Array(1, integer=True, low=0, min_size=0),
    k=DOMAIN,
    eps=Real(0.0, None, low_open=True, finite=False),
    protocol=_PROTOCOL,
    rng=SEED,
    olh_hash=OneOf("ideal", "cw"),
)
def perturb_and_infer(x, k: int, eps: float, protocol: str, *, rng=None, olh_hash: str = "ideal") -> np.ndarray:
    """One collection of ``x`` with a frequency oracle followed by the plausible-deniability
    attack (A1-A4): returns the attacker's guesses.  ``eps = inf`` means "sent in clear"
    (the alpha-PIE mapping's "no LDP needed").

    OLH: ``olh_hash="ideal"`` draws each user's hash as a fully random function [k] -> [g]
    (the artifact's xxhash32 with a random seed behaves like one); ``"cw"`` uses the
    Carter-Wegman family of :func:`ldpnb.mechanisms.lh_hash`, which is only pairwise
    independent: the attack is then a little *more* accurate than the ideal-hash formula."""
    rng = check_random_state(rng)
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
    entry = protocol_entry(protocol)  # the protocol registry (ldpnb.mechanisms.protocols)
    if entry.pd_guess is not None:  # GRR: the report is the guess
        return entry.pd_guess(x, k, eps, rng)
    if protocol == "olh" and olh_hash not in ("ideal", "cw"):
        raise ValueError("olh_hash must be 'ideal' or 'cw'")
    if protocol == "olh" and olh_hash == "cw":
        seeds, y = mech.lh_perturb(x, k, eps, rng=rng)
        support = _lh_support_matrix(seeds, y, k, mech.lh_params(eps)[0])
    else:
        support = entry.pd_support(x, k, eps, rng)
    return pd_attack_support(support, rng=rng)


def _lh_support_matrix(seeds, y, k: int, g: int) -> np.ndarray:
    """(n, k) bool: value v is in the hash preimage of user i's report (OLH support)."""
    h = mech.lh_hash(np.asarray(seeds)[:, None, :], np.arange(k), g)
    return h == np.asarray(y)[:, None]
