r"""The registry of single-attribute frequency-oracle protocols, by name.

The protocols of the multidimensional-risks chapter (Arcolezi, Gambs, Couchot and Palamidessi, "On
the Risks of Collecting Multidimensional Data Under Local Differential Privacy", PVLDB 16(5), 2023,
Sec. 2.2; Wang et al. 2017): every frequency oracle of the mechanism registry
(:attr:`ldpnb.mechanisms.Mechanism.REGISTRY`) that is built from a domain size and a level
(:meth:`~ldpnb.mechanisms.Mechanism.on`), under its family name in lower case: ``"grr"``,
``"sue"``, ``"oue"``, ``"olh"``, ``"blh"``, ``"ss"``, and any family defined later.  Every place
that used to switch on these strings (``multidim.fo_params`` and the collections of SPL / SMP,
RS+FD's randomiser, the plausible-deniability attack and its expected accuracy) asks the registry:

==========================  =====================================================================
``mechanism(k, eps)``       the :class:`~ldpnb.mechanisms.Mechanism` object (``cls.on(Domain(k), eps)``)
``params(k, eps)``          ``(p, q)`` of the generic estimator (Wang et al. 2017, Eq. 2; OLH: q = 1/g)
``support_counts(x, k, eps, rng)``  support counts ``C(v)`` of one collection of ``x``
                            (``m.support_counts(m.perturb(x, rng=rng))``)
``pd_support(x, k, eps, rng)``      the report as a support set, for the plausible-deniability attack
                            (Sec. 3.2.1); ``None`` for GRR, whose report is the guess itself, and for
                            families without a stated attack
``pd_guess(x, k, eps, rng)``  GRR only: the report, which is the attack's guess
``pd_accuracy(eps, k, form)``  expected accuracy of that attack on one report (Sec. 3.2.1), or ``None``
``rsfd``                    usable as RS+FD / RS+RFD randomiser (k-RR, SUE, OUE; Sec. 2.3.2)
==========================  =====================================================================

The random draws of every entry are those of the functions the registry used to wrap (same order,
same calls), so moving a caller onto the registry does not change any seeded result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ldpnb.contracts import Boolean, Constraint, OneOf, contract
from ldpnb.mechanisms import grr as _grr
from ldpnb.mechanisms import hashing as _lh
from ldpnb.mechanisms import subset as _ss
from ldpnb.mechanisms import unary as _ue
from ldpnb.mechanisms._base import Domain, FrequencyOracle, Mechanism
from ldpnb.mechanisms._catalog import _LiveRegistry

__all__ = ["Protocol", "PROTOCOL_REGISTRY", "ProtocolName", "protocol", "protocol_names"]


@dataclass(frozen=True)
class Protocol:
    """One frequency-oracle protocol of the registry (see the module docstring)."""

    name: str
    label: str
    mechanism: Callable[[int, float], FrequencyOracle]
    params: Callable[[int, float], tuple[float, float]]
    support_counts: Callable[[np.ndarray, int, float, np.random.Generator], np.ndarray]
    pd_support: Callable[[np.ndarray, int, float, np.random.Generator], np.ndarray] | None
    pd_accuracy: Callable[[float, int, str], float] | None
    rsfd: bool = False
    pd_guess: Callable[[np.ndarray, int, float, np.random.Generator], np.ndarray] | None = None


# ------------------------------------------------------------------ the plausible-deniability attack
# (Sec. 3.2.1): per family, how a report is read as a support set, and the attack's expected accuracy
def _grr_pd_guess(x: np.ndarray, k: int, eps: float, rng: np.random.Generator) -> np.ndarray:
    return np.asarray(_grr.GRR(k, eps).perturb(x, rng=rng), dtype=np.int64)


def _grr_pd_accuracy(eps: float, k: int, form: str) -> float:
    r""":math:`p = e^\epsilon/(e^\epsilon+k-1)`: the guess is the report (Sec. 3.2.1)."""
    if eps > 700:  # e^eps overflows: the same p without it
        return float(_grr.grr_params(k, eps)[0])
    e = np.exp(eps)
    return float(e / (e + k - 1))


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
    if eps > 700:  # g ~ e^eps: p' -> 1/2, (g/k)(1 - (1 - 1/g)^k) -> 1, (1 - 1/g)^(k-1) -> 1
        return 0.5 if form == "paper" else 0.5 + 0.5 / k
    e = np.exp(eps)
    if form == "paper":
        return float(1.0 / (2 * max(k / (e + 1), 1.0)))
    g = e + 1 if form == "ideal" else int(round(e)) + 1
    pp = e / (e + g - 1)
    if 1 / g >= _SMALL:
        return float(pp * (g / k) * (1 - (1 - 1 / g) ** k) + (1 - pp) * (1 - 1 / g) ** (k - 1) / k)
    return float(pp * _spread(1 / g, k) + (1 - pp) * (1 - 1 / g) ** (k - 1) / k)


def _ss_pd_accuracy(eps: float, k: int, form: str) -> float:
    r""":math:`e^\epsilon/(\omega e^\epsilon + k - \omega)`, :math:`\omega = \max(1, \mathrm{round}(k/(e^\epsilon+1)))`;
    ``"paper"``: :math:`(e^\epsilon+1)/(2k)` (Sec. 3.2.1; not capped at 1)."""
    if eps > 700:  # omega = 1: e^eps / (e^eps + k - 1) without e^eps; the paper's form is unbounded
        return float("inf") if form == "paper" else float(_grr.grr_params(k, eps)[0])
    e = np.exp(eps)
    if form == "paper":
        return float((e + 1) / (2 * k))
    w = max(1, int(round(k / (e + 1))))
    return float(e / (w * e + k - w))


#: Below this ``q`` the attack formulas switch from the paper's expression (kept as written above it,
#: so that every result computed with it stays the same) to the cancellation-free one.
_SMALL = 1e-6


def _spread(q: float, k: int) -> float:
    r""":math:`(1 - (1 - q)^k) / (kq)`, the mean of :math:`1/(1 + B)` with :math:`B \sim \mathrm{Bin}(k - 1, q)`,
    as ``-expm1(k log1p(-q)) / (kq)``: every digit where ``1 - (1 - q)^k`` cancels (it gave 0 for UE
    beyond eps ~ 37), and 1 at ``q = 0``."""
    return float(-np.expm1(k * np.log1p(-q)) / (k * q)) if q > 0 else 1.0


def _ue_pd_accuracy(kind: str) -> Callable[[float, int, str], float]:
    def pd_accuracy(eps: float, k: int, form: str) -> float:
        r""":math:`p\,\frac{1-(1-q)^k}{kq} + (1-p)\frac{(1-q)^{k-1}}{k}` (the paper's binomial sum of
        Sec. 3.2.1 in closed form)."""
        if eps > 700:  # e^eps overflows: the same (p, q) without it
            p, q = _ue.ue_params(eps, kind)
        elif kind == "sue":
            p, q = np.exp(eps / 2) / (np.exp(eps / 2) + 1), 1 / (np.exp(eps / 2) + 1)
        else:
            p, q = 0.5, 1 / (np.exp(eps) + 1)
        if q >= _SMALL:
            return float(p * (1 - (1 - q) ** k) / (k * q) + (1 - p) * (1 - q) ** (k - 1) / k)
        return float(p * _spread(q, k) + (1 - p) * (1 - q) ** (k - 1) / k)

    return pd_accuracy


def _object_support(cls: type[FrequencyOracle]) -> Callable:
    def pd_support(x: np.ndarray, k: int, eps: float, rng: np.random.Generator) -> np.ndarray:
        m = cls.on(Domain(k=k, rows=None, cols=None), eps)
        return m.support(m.perturb(x, rng=rng))

    return pd_support


#: The attack of Sec. 3.2.1 per family (first match along a class's MRO): ``(pd_support,
#: pd_accuracy, pd_guess)``; ``pd_support = "sampler"`` reads the mechanism's own reports.
_PD: dict[type, tuple[Any, Any, Any]] = {
    _grr.GRR: (None, _grr_pd_accuracy, _grr_pd_guess),
    _lh.OLH: (_olh_pd_support, _olh_pd_accuracy, None),
    _ss.SubsetSelection: ("sampler", _ss_pd_accuracy, None),
    _ue.SUE: ("sampler", _ue_pd_accuracy("sue"), None),
    _ue.OUE: ("sampler", _ue_pd_accuracy("oue"), None),
}


def _pd_of(cls: type) -> tuple[Any, Any, Any]:
    for c in cls.__mro__:
        if c in _PD:
            support, accuracy, guess = _PD[c]
            return (_object_support(cls) if support == "sampler" else support), accuracy, guess
    return None, None, None


# ------------------------------------------------------------------ the entries, from the classes
def _entry(cls: type[FrequencyOracle]) -> Protocol:
    def mechanism(k: int, eps: float) -> FrequencyOracle:
        return cls.on(Domain(k=k, rows=None, cols=None), eps)

    def params(k: int, eps: float) -> tuple[float, float]:
        m = mechanism(k, eps)
        return float(m.p), float(m.q)

    def support_counts(x: np.ndarray, k: int, eps: float, rng: np.random.Generator) -> np.ndarray:
        m = mechanism(k, eps)
        return m.support_counts(m.perturb(x, rng=rng))

    pd_support, pd_accuracy, pd_guess = _pd_of(cls)
    return Protocol(
        cls.family.lower(),
        cls.family,
        mechanism,
        params,
        support_counts,
        pd_support,
        pd_accuracy,
        rsfd=cls in _RSFD_RANDOMISERS,
        pd_guess=pd_guess,
    )


#: The randomisers of RS+FD / RS+RFD (the RS+FD paper's: k-RR, SUE, OUE; Sec. 2.3.2).
_RSFD_RANDOMISERS = (_grr.GRR, _ue.SUE, _ue.OUE)

_ENTRIES: dict[type, Protocol] = {}


def _protocols() -> dict[str, Protocol]:
    """``name -> Protocol`` from the mechanism registry: every registered
    :class:`~ldpnb.mechanisms.FrequencyOracle` family that defines ``on``, in registry order."""
    out = {}
    for cls in Mechanism.REGISTRY.values():
        if issubclass(cls, FrequencyOracle) and cls.builds_on_domain():
            entry = _ENTRIES.get(cls)
            if entry is None:
                entry = _ENTRIES[cls] = _entry(cls)
            out[entry.name] = entry
    return out


#: The protocols, by name (registry order).
PROTOCOL_REGISTRY: Mapping[str, Protocol] = _LiveRegistry("PROTOCOL_REGISTRY", _protocols)


class ProtocolName(Constraint):
    """The name of a registered protocol (case-insensitive; ``rsfd=True``: an RS+FD randomiser),
    read from the live registry; returned in lower case."""

    def __init__(self, *, rsfd: bool = False) -> None:
        self.rsfd = rsfd

    def _names(self) -> tuple[str, ...]:
        return protocol_names(rsfd=self.rsfd)

    def describe(self) -> str:
        return "one of " + ", ".join(repr(n) for n in self._names()) + " (case-insensitive)"

    def check(self, value: Any, name: str) -> str:
        return OneOf(*self._names()).check(value.lower() if isinstance(value, str) else value, name)

    def valid(self) -> str:
        return "grr"

    def invalid(self) -> list[Any]:
        return ["__not_a_protocol__", None, 3.5] + ([] if not self.rsfd else ["olh"])


@contract(rsfd=Boolean())
def protocol_names(*, rsfd: bool = False) -> tuple[str, ...]:
    """Names of the registered protocols (``rsfd=True``: those usable as RS+FD randomiser)."""
    return tuple(n for n, p in PROTOCOL_REGISTRY.items() if p.rsfd or not rsfd)


@contract(name=ProtocolName())
def protocol(name: str) -> Protocol:
    """The registry entry of a protocol name (case-insensitive: ``"grr"`` or ``"GRR"``)."""
    return PROTOCOL_REGISTRY[name]
