r"""The registry of single-attribute frequency-oracle protocols, by name.

One entry per protocol of the multidimensional-risks chapter (Arcolezi, Gambs, Couchot and
Palamidessi, "On the Risks of Collecting Multidimensional Data Under Local Differential Privacy",
PVLDB 16(5), 2023, Sec. 2.2; Wang et al. 2017): ``"grr"``, ``"olh"``, ``"ss"``, ``"sue"``, ``"oue"``.
Every place that used to switch on these strings (``multidim.fo_params`` and the collections of
SPL / SMP, RS+FD's randomiser, the plausible-deniability attack and its expected accuracy, the
audit registry) asks the registry instead:

==========================  =====================================================================
``mechanism(k, eps)``       the :class:`~ldpnb.mechanisms.Mechanism` object (GRR, OLH, SS, SUE, OUE)
``params(k, eps)``          ``(p, q)`` of the generic estimator (Wang et al. 2017, Eq. 2; OLH: q = 1/g)
``support_counts(x, k, eps, rng)``  support counts ``C(v)`` of one collection of ``x``
``pd_support(x, k, eps, rng)``      the report as a support set, for the plausible-deniability attack
                            (Sec. 3.2.1); ``None`` for GRR, whose report is the guess itself
``pd_guess(x, k, eps, rng)``  GRR only: the report, which is the attack's guess
``pd_accuracy(eps, k, form)``  expected accuracy of that attack on one report (Sec. 3.2.1)
``rsfd``                    usable as RS+FD / RS+RFD randomiser (GRR, SUE, OUE; Sec. 2.3.2)
==========================  =====================================================================

The random draws of every entry are those of the functions they wrap (same order, same calls), so
moving a caller onto the registry does not change any seeded result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ldpnb.contracts import OneOf, contract
from ldpnb.mechanisms import grr as _grr
from ldpnb.mechanisms import hashing as _lh
from ldpnb.mechanisms import subset as _ss
from ldpnb.mechanisms import unary as _ue
from ldpnb.mechanisms._base import FrequencyOracle

__all__ = ["Protocol", "PROTOCOL_REGISTRY", "protocol", "protocol_names"]


@dataclass(frozen=True)
class Protocol:
    """One frequency-oracle protocol of the registry (see the module docstring)."""

    name: str
    label: str
    mechanism: Callable[[int, float], FrequencyOracle]
    params: Callable[[int, float], tuple[float, float]]
    support_counts: Callable[[np.ndarray, int, float, np.random.Generator], np.ndarray]
    pd_support: Callable[[np.ndarray, int, float, np.random.Generator], np.ndarray] | None
    pd_accuracy: Callable[[float, int, str], float]
    rsfd: bool = False
    pd_guess: Callable[[np.ndarray, int, float, np.random.Generator], np.ndarray] | None = None


# ------------------------------------------------------------------ GRR
def _grr_params(k: int, eps: float) -> tuple[float, float]:
    p, q = _grr.grr_params(k, eps)
    return float(p), float(q)


def _grr_counts(x: np.ndarray, k: int, eps: float, rng: np.random.Generator) -> np.ndarray:
    return np.bincount(_grr.grr_perturb(x, k, eps, rng=rng), minlength=k)


def _grr_pd_guess(x: np.ndarray, k: int, eps: float, rng: np.random.Generator) -> np.ndarray:
    return np.asarray(_grr.grr_perturb(x, k, eps, rng=rng), dtype=np.int64)


def _grr_pd_accuracy(eps: float, k: int, form: str) -> float:
    r""":math:`p = e^\epsilon/(e^\epsilon+k-1)`: the guess is the report (Sec. 3.2.1)."""
    e = np.exp(eps)
    return float(e / (e + k - 1))


# ------------------------------------------------------------------ OLH
def _olh_params(k: int, eps: float) -> tuple[float, float]:
    g, p, _ = _lh.lh_params(eps)
    return float(p), 1.0 / g


def _olh_counts(x: np.ndarray, k: int, eps: float, rng: np.random.Generator) -> np.ndarray:
    seeds, y = _lh.lh_perturb(x, k, eps, rng=rng)
    g = _lh.lh_params(eps)[0]
    return np.asarray(_lh.lh_support_counts(seeds, y, k, g))


def _olh_pd_support(x: np.ndarray, k: int, eps: float, rng: np.random.Generator) -> np.ndarray:
    """Ideal random hash: each user's hash of every value an independent ``U([g])`` draw."""
    g = _lh.lh_params(eps)[0]
    H = rng.integers(0, g, size=(x.size, k))
    y = _grr.grr_perturb(H[np.arange(x.size), x], g, eps, rng=rng)
    return H == np.asarray(y)[:, None]


def _olh_pd_accuracy(eps: float, k: int, form: str) -> float:
    r"""Ideal hash with ``g = round(e^eps) + 1`` (``"exact"``), ``g = e^eps + 1`` (``"ideal"``):
    :math:`p'\frac gk(1-(1-1/g)^k) + (1-p')\frac{(1-1/g)^{k-1}}{k}`; ``"paper"``:
    :math:`1/(2\max(k/(e^\epsilon+1), 1))` (Sec. 3.2.1, after Gursoy et al. 2022)."""
    e = np.exp(eps)
    if form == "paper":
        return float(1.0 / (2 * max(k / (e + 1), 1.0)))
    g = e + 1 if form == "ideal" else int(round(e)) + 1
    pp = e / (e + g - 1)
    return float(pp * (g / k) * (1 - (1 - 1 / g) ** k) + (1 - pp) * (1 - 1 / g) ** (k - 1) / k)


# ------------------------------------------------------------------ omega-SS
def _ss_params(k: int, eps: float) -> tuple[float, float]:
    _, p, q = _ss.ss_params(k, eps)
    return float(p), float(q)


def _ss_counts(x: np.ndarray, k: int, eps: float, rng: np.random.Generator) -> np.ndarray:
    return _ss.ss_perturb(x, k, eps, rng=rng).sum(axis=0)


def _ss_pd_support(x: np.ndarray, k: int, eps: float, rng: np.random.Generator) -> np.ndarray:
    return _ss.ss_perturb(x, k, eps, rng=rng)


def _ss_pd_accuracy(eps: float, k: int, form: str) -> float:
    r""":math:`e^\epsilon/(\omega e^\epsilon + k - \omega)`, :math:`\omega = \max(1, \mathrm{round}(k/(e^\epsilon+1)))`;
    ``"paper"``: :math:`(e^\epsilon+1)/(2k)` (Sec. 3.2.1; not capped at 1)."""
    e = np.exp(eps)
    if form == "paper":
        return float((e + 1) / (2 * k))
    w = max(1, int(round(k / (e + 1))))
    return float(e / (w * e + k - w))


# ------------------------------------------------------------------ SUE / OUE
def _ue_entry(kind: str) -> dict[str, Any]:
    def params(k: int, eps: float) -> tuple[float, float]:
        p, q = _ue.ue_params(eps, kind=kind)
        return float(p), float(q)

    def counts(x: np.ndarray, k: int, eps: float, rng: np.random.Generator) -> np.ndarray:
        return _ue.ue_perturb(x, k, eps, kind=kind, rng=rng).sum(axis=0)

    def pd_support(x: np.ndarray, k: int, eps: float, rng: np.random.Generator) -> np.ndarray:
        return _ue.ue_perturb(x, k, eps, kind=kind, rng=rng)

    def pd_accuracy(eps: float, k: int, form: str) -> float:
        r""":math:`p\,\frac{1-(1-q)^k}{kq} + (1-p)\frac{(1-q)^{k-1}}{k}` (the paper's binomial sum of
        Sec. 3.2.1 in closed form)."""
        if kind == "sue":
            p, q = np.exp(eps / 2) / (np.exp(eps / 2) + 1), 1 / (np.exp(eps / 2) + 1)
        else:
            p, q = 0.5, 1 / (np.exp(eps) + 1)
        return float(p * (1 - (1 - q) ** k) / (k * q) + (1 - p) * (1 - q) ** (k - 1) / k)

    return dict(params=params, support_counts=counts, pd_support=pd_support, pd_accuracy=pd_accuracy)


#: The protocols, by name (order: the paper's).
PROTOCOL_REGISTRY: dict[str, Protocol] = {
    "grr": Protocol("grr", "GRR", _grr.GRR, _grr_params, _grr_counts, None, _grr_pd_accuracy, rsfd=True,
                    pd_guess=_grr_pd_guess),
    "olh": Protocol("olh", "OLH", _lh.OLH, _olh_params, _olh_counts, _olh_pd_support, _olh_pd_accuracy),
    "ss": Protocol("ss", "SS", _ss.SubsetSelection, _ss_params, _ss_counts, _ss_pd_support, _ss_pd_accuracy),
    "sue": Protocol("sue", "SUE", _ue.SUE, rsfd=True, **_ue_entry("sue")),
    "oue": Protocol("oue", "OUE", _ue.OUE, rsfd=True, **_ue_entry("oue")),
}


@contract()
def protocol_names(*, rsfd: bool = False) -> tuple[str, ...]:
    """Names of the registered protocols (``rsfd=True``: those usable as RS+FD randomiser)."""
    return tuple(n for n, p in PROTOCOL_REGISTRY.items() if p.rsfd or not rsfd)


@contract(name=OneOf(*PROTOCOL_REGISTRY, *(n.upper() for n in PROTOCOL_REGISTRY)))
def protocol(name: str) -> Protocol:
    """The registry entry of a protocol name (case-insensitive: ``"grr"`` or ``"GRR"``)."""
    return PROTOCOL_REGISTRY[name.lower()]
