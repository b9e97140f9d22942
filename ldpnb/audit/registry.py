"""The registry of audited mechanisms (every family of the book) and the audit drivers."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
from scipy.special import logsumexp

from ldpnb.audit.empirical import (
    AuditCase,
    AuditResult,
    broken_ue_epsilon,
    broken_ue_perturb,
    chi_square_gof,
    empirical_epsilon,
)
from ldpnb.channels._generic import exact_epsilon, pair_epsilon, sample_channel, worst_pair
from ldpnb.contracts import (
    EPSILON,
    AnyOf,
    Array,
    Constraint,
    Instance,
    Integer,
    OneOf,
    Optional,
    Probability,
    RandomState,
    contract,
)
from ldpnb.geometry import lattice_distance_matrix
from ldpnb.measures.lift import ALIP, alip_budgets, is_alip, output_joint, random_joint
from ldpnb.mechanisms import FAMILIES, ChannelMechanism, Domain, FrequencyOracle, Mechanism
from ldpnb.mechanisms._catalog import _LiveRegistry
from ldpnb.mechanisms.multidim import amplified_epsilon, rsfd_collect, rsfd_mechanism, rsfd_tuple_channel
from ldpnb.mechanisms.orr import full_channel, subset_random_response
from ldpnb.mechanisms.rate_distortion import blahut_arimoto
from ldpnb.mechanisms.watchdog import complete_merging, subset_merging
from ldpnb.parallel import sweep
from ldpnb.utils import check_random_state

__all__ = [
    "MechanismSpec",
    "REGISTRY",
    "available_mechanisms",
    "build_case",
    "audit",
    "audit_grid",
    "audit_broken_ue",
    "sampler_agrees",
]


@dataclass(frozen=True)
class MechanismSpec:
    """A registry entry: ``build(epsilon) -> AuditCase``; ``kind`` is ``"ldp"``, ``"geo"`` or ``"lift"``."""

    name: str
    kind: str
    build: Callable[[float], AuditCase]
    module: str
    claim: str


def _object_case(label: str, mech, note: str, *, pair_codes: bool = False, x1: int = 0, x2: int = 1) -> AuditCase:
    """An :class:`AuditCase` from a :class:`~ldpnb.mechanisms.Mechanism` object.

    ``pair_codes=False``: the sampler's codes are the channel's columns (``report_index``).
    ``pair_codes=True`` (unary encodings, local hashing, subset selection, whose outputs are too many
    to count): LDP-Auditor's decoding, the code ``2 [report supports x1] + [report supports x2]``,
    whose law under the exact channel is ``C A`` with ``A[column, code]`` the code of each column.
    """
    C = mech.channel()
    if pair_codes:
        cs = mech.column_support()
        code_of_column = 2 * cs[:, x1].astype(np.int64) + cs[:, x2]
        A = np.zeros((C.shape[1], 4))
        A[np.arange(C.shape[1]), code_of_column] = 1.0
        code_channel = C @ A

        def sampler(x, n, r):
            S = mech.support(mech.perturb(np.full(n, x), rng=r))
            return 2 * S[:, x1].astype(np.int64) + S[:, x2]
    else:
        code_channel = C

        def sampler(x, n, r):
            return mech.report_index(mech.perturb(np.full(n, x), rng=r))

    g = mech.guarantee
    return AuditCase(
        label,
        mech.epsilon,
        g.epsilon,
        sampler,
        x1,
        x2,
        channel=C,
        distance=g.distance,
        codes_are_columns=not pair_codes,
        code_channel=code_channel,
        source=mech,
        note=note,
    )


#: The audit's domain: ``k`` values (frequency oracles, one-dimensional metric mechanisms), a 4 x 4
#: grid of unit cells (planar ones), padded by 2 cells (the padded planar Laplace).
_DOMAIN = Domain(k=8, rows=4, cols=4, cell_size=1.0, pad=2)
#: The appendix's smaller domains: k-RR on 4 values, and 6 values for the oracles whose exact channel
#: has 2**k columns (unary encodings, local hashing); every other family on ``_DOMAIN``.
_K = {"GRR": 4, "SUE": 6, "OUE": 6, "OLH": 6, "BLH": 6}


def _family_domain(cls: type[Mechanism]) -> Domain:
    k = _K.get(cls.family)
    return _DOMAIN if k is None else Domain(k=k, rows=_DOMAIN.rows, cols=_DOMAIN.cols, pad=_DOMAIN.pad)


def _family_case(cls: type[Mechanism]) -> Callable[[float], AuditCase]:
    """The audit case of a catalogued family: ``cls.on(domain, eps)``; a frequency oracle with more
    outputs than values (unary encodings, local hashing, subset selection) is audited on the code
    ``(report supports x1, report supports x2)``, every other mechanism on its reports."""

    def build(eps: float) -> AuditCase:
        mech = cls.on(_family_domain(cls), eps)
        pair = isinstance(mech, FrequencyOracle) and mech.n_outputs > mech.k
        code = "(report supports x1, report supports x2)" if pair else "report"
        return _object_case(cls.family, mech, f"{mech!r}; code = {code}", pair_codes=pair)

    return build


def _family_spec(cls: type[Mechanism]) -> MechanismSpec:
    probe = cls.on(_family_domain(cls), 1.0)
    g = probe.guarantee
    ratio = g.epsilon / probe.epsilon
    claim = ("" if ratio == 1.0 else f"{ratio:g} ") + ("eps-LDP" if g.notion == "ldp" else "eps-geo-ind")
    return MechanismSpec(
        cls.family,
        "ldp" if g.notion == "ldp" else "geo",
        _family_case(cls),
        cls.__module__.removeprefix("ldpnb."),
        claim,
    )


_GRID = (4, 4)


def _grid_distance() -> np.ndarray:
    return lattice_distance_matrix(*_GRID)


def _ba_case(eps: float) -> AuditCase:
    D = _grid_distance()
    prior = np.random.default_rng(7).dirichlet(np.ones(D.shape[0]))
    beta = eps / 2.0
    res = blahut_arimoto(prior, D, beta, n_iter=10)
    L = res.log_channel - logsumexp(res.log_channel, axis=1, keepdims=True)
    mech = ChannelMechanism(
        log_channel=L, epsilon=2 * beta, notion="geo-ind", distance=D, metric="Euclidean, cell units", family="BA"
    )
    return _object_case(
        "BA (rate-distortion)",
        mech,
        f"{_GRID[0]}x{_GRID[1]} grid, Dirichlet prior, beta = eps/2 = {beta:g}, 10 BA iterations; "
        "claim 2 beta-geo-ind (PRIVIC Remark 4)",
    )


_LIFT_SHAPE = (3, 6)


def _lift_joint() -> np.ndarray:
    return random_joint(*_LIFT_SHAPE, rng=np.random.default_rng(11))


def _lift_case(name: str, make_channel: Callable[[np.ndarray, float, float], np.ndarray]):
    def build(eps: float) -> AuditCase:
        p_sx = _lift_joint()
        el, eu = alip_budgets(eps, 0.5)
        C = make_channel(p_sx, el, eu)
        J = output_joint(p_sx, C)
        p_s = p_sx.sum(axis=1)
        W = J / p_s[:, None]  # P(y | s): the channel from the secret to the output
        W = W / W.sum(axis=1, keepdims=True)
        p_x_s = p_sx / p_s[:, None]

        def sampler(s, n, r):  # S -> X -> Y, as the data are generated and published
            x = sample_channel(p_x_s, np.full(n, s), rng=r)
            return sample_channel(C, x, rng=r)

        x1, x2 = worst_pair(W)
        alip = bool(is_alip(J, el, eu))
        return AuditCase(
            name,
            eps,
            eps,
            sampler,
            x1,
            x2,
            channel=W,
            codes_are_columns=True,
            note=f"random P_SX {_LIFT_SHAPE[0]}x{_LIFT_SHAPE[1]}; (eps/2, eps/2)-ALIP -> eps-LDP "
            f"w.r.t. S; channel P(y|s); ALIP holds: {alip}",
        )

    return build


def _watchdog_complete(p_sx, el, eu):
    return complete_merging(p_sx, ALIP(el, eu)).channel()


def _watchdog_subset(p_sx, el, eu):
    return subset_merging(p_sx, ALIP(el, eu)).channel()


def _orr(p_sx, el, eu):
    return full_channel(p_sx, el, eu)


def _srr(p_sx, el, eu):
    return subset_random_response(p_sx, el, eu).channel


_RSFD_KS = (2, 3)


_RSFD_PRIORS = (np.array([0.7, 0.3]), np.array([0.5, 0.3, 0.2]))


def _rsfd_case(label: str, protocol: str, fake: str, *, neighbours: bool = False):
    def build(eps: float) -> AuditCase:
        ks = np.array(_RSFD_KS)
        priors = [p.copy() for p in _RSFD_PRIORS] if fake == "prior" else None
        W, inputs = rsfd_tuple_channel(ks, eps, protocol, fake, priors=priors)
        d = len(ks)
        eps_p = float(amplified_epsilon(eps, d))

        mech = rsfd_mechanism(ks, eps, protocol, fake, priors=priors)

        def sampler(row, n, r):
            X = np.tile(inputs[int(row)], (n, 1))
            reports, _ = rsfd_collect(X, ks, eps, protocol, fake, priors=priors, rng=r)
            # the column of the tuple channel (mixed radix, attribute 0 most significant), by the
            # mechanism object of the protocol registry
            return mech.report_index(reports)

        if neighbours:  # the paper's claim: eps-LDP for tuples that differ in one attribute
            with np.errstate(divide="ignore"):
                L = np.log(W)
            with np.errstate(invalid="ignore"):
                diff = np.where(np.isnan(L[:, None] - L[None]), -np.inf, L[:, None] - L[None]).max(axis=2)
            ham = (inputs[:, None, :] != inputs[None, :, :]).sum(axis=2)
            diff[ham != 1] = -np.inf
            x1, x2 = np.unravel_index(int(np.argmax(diff)), diff.shape)
            Wn = W[[x1, x2]]
            return AuditCase(
                label + " (one-attribute neighbours)",
                eps,
                eps,
                sampler,
                int(x1),
                int(x2),
                exact=float(diff.max()),
                pair_exact=pair_epsilon(Wn, 0, 1),
                note=f"ks={_RSFD_KS}; paper's claim: eps-LDP; pair {inputs[x1].tolist()} vs {inputs[x2].tolist()}",
            )
        x1, x2 = worst_pair(W)
        return AuditCase(
            label,
            eps,
            eps_p,
            sampler,
            x1,
            x2,
            channel=W,
            codes_are_columns=True,
            note=f"ks={_RSFD_KS}{', priors ' + str([p.tolist() for p in _RSFD_PRIORS]) if priors else ''}; "
            f"claim eps' = ln(d(e^eps - 1) + 1) = {eps_p:.4g} for any two tuples",
        )

    return build


#: The mechanisms audited besides the catalogued families: the Blahut-Arimoto channel of a prior,
#: the lift-based mechanisms of a joint distribution, and the RS+FD tuple mechanisms.
_BA = MechanismSpec("BA (rate-distortion)", "geo", _ba_case, "mechanisms.rate_distortion", "2 beta-geo-ind")
_EXTRAS = [
    MechanismSpec(
        "watchdog (complete merging)",
        "lift",
        _lift_case("watchdog (complete merging)", _watchdog_complete),
        "mechanisms.watchdog",
        "eps-LDP w.r.t. S",
    ),
    MechanismSpec(
        "watchdog (subset merging)",
        "lift",
        _lift_case("watchdog (subset merging)", _watchdog_subset),
        "mechanisms.watchdog",
        "eps-LDP w.r.t. S",
    ),
    MechanismSpec("ORR", "lift", _lift_case("ORR", _orr), "mechanisms.orr", "eps-LDP w.r.t. S"),
    MechanismSpec("SRR", "lift", _lift_case("SRR", _srr), "mechanisms.orr", "eps-LDP w.r.t. S"),
    MechanismSpec("RS+FD[GRR]", "ldp", _rsfd_case("RS+FD[GRR]", "grr", "uniform"), "mechanisms.multidim", "eps'-LDP"),
    MechanismSpec("RS+FD[OUE-z]", "ldp", _rsfd_case("RS+FD[OUE-z]", "oue", "zero"), "mechanisms.multidim", "eps'-LDP"),
    MechanismSpec(
        "RS+FD[SUE-r]", "ldp", _rsfd_case("RS+FD[SUE-r]", "sue", "random"), "mechanisms.multidim", "eps'-LDP"
    ),
    MechanismSpec("RS+RFD[GRR]", "ldp", _rsfd_case("RS+RFD[GRR]", "grr", "prior"), "mechanisms.multidim", "eps'-LDP"),
    MechanismSpec(
        "RS+RFD[OUE-r]", "ldp", _rsfd_case("RS+RFD[OUE-r]", "oue", "prior"), "mechanisms.multidim", "eps'-LDP"
    ),
]
_SPECS: dict[type, MechanismSpec] = {}


def _specs() -> dict[str, MechanismSpec]:
    """``name -> MechanismSpec`` from the mechanism registry: every catalogued family
    (:func:`ldpnb.mechanisms.catalog`'s, by family name, in registry order), then the extras.

    The rows keep the appendix's order, which fixes each audit task's random stream
    (:func:`audit_grid`): BA sits before the padded planar Laplace, as it did before the list was
    derived."""
    specs = []
    for cls in FAMILIES.values():
        entry = _SPECS.get(cls)
        if entry is None:
            entry = _SPECS[cls] = _family_spec(cls)
        if cls.family == "padded planar Laplace":
            specs.append(_BA)
        specs.append(entry)
    if _BA not in specs:
        specs.append(_BA)
    return {s.name: s for s in specs + _EXTRAS}


#: Every audited mechanism, by name (the chapter iterates over it): derived from the mechanism registry.
REGISTRY: Mapping[str, MechanismSpec] = _LiveRegistry("REGISTRY", _specs)


#: Paper claims audited separately (they are known not to hold in general; see the chapter).
PAPER_CLAIMS: dict[str, MechanismSpec] = {
    s.name: s
    for s in [
        MechanismSpec(
            "RS+FD[GRR] (one-attribute neighbours)",
            "ldp",
            _rsfd_case("RS+FD[GRR]", "grr", "uniform", neighbours=True),
            "mechanisms.multidim",
            "eps-LDP",
        ),
        MechanismSpec(
            "RS+RFD[GRR] (one-attribute neighbours)",
            "ldp",
            _rsfd_case("RS+RFD[GRR]", "grr", "prior", neighbours=True),
            "mechanisms.multidim",
            "eps-LDP",
        ),
    ]
}


_OPEN01 = Probability(open_left=True, open_right=True)


def _resolve(name: str) -> str:
    """A registered name: an audit name, or a family name or alias of a catalogued family."""
    if name in REGISTRY or name in PAPER_CLAIMS:
        return name
    key = name.casefold()
    if key in Mechanism._NAMES and Mechanism._NAMES[key] in REGISTRY:
        return Mechanism._NAMES[key]
    raise ValueError(
        f"name must be a registered mechanism ({list(REGISTRY) + list(PAPER_CLAIMS)}) or a family alias, got {name!r}"
    )


class _Name(Constraint):
    """The name of an audited mechanism (``REGISTRY``, ``PAPER_CLAIMS``, or a family alias), read live."""

    def describe(self) -> str:
        return "the name of a registered mechanism (audit.REGISTRY, audit.PAPER_CLAIMS, or a family alias)"

    def check(self, value: Any, name: str) -> str:
        if isinstance(value, str):
            try:
                value = _resolve(value)
            except ValueError:
                pass
        return OneOf(*REGISTRY, *PAPER_CLAIMS).check(value, name)  # the live names

    def valid(self) -> str:
        return "GRR"

    def invalid(self) -> list[Any]:
        return ["__not_a_mechanism__", None, 3.5]


_NAMES = _Name()


def _is_name(name: Any) -> bool:
    try:
        _NAMES.check(name, "name")
        return True
    except (TypeError, ValueError):
        return False


def _example_sampler(x, n, r):  # a valid argument for the contracts' generated test
    return np.zeros(n, dtype=np.int64)


_EXAMPLE_CASE = AuditCase("example", 1.0, 1.0, _example_sampler, 0, 1)


@contract()
def available_mechanisms() -> list[str]:
    """Names of the registered mechanisms (:data:`REGISTRY`, in its order)."""
    return list(REGISTRY)


@contract(name=_NAMES, epsilon=EPSILON)
def build_case(name: str, epsilon: float) -> AuditCase:
    """The :class:`AuditCase` of a registered mechanism (``REGISTRY`` or ``PAPER_CLAIMS``; a family may
    be named by an alias, e.g. ``"k-RR"``)."""
    entry = REGISTRY.get(name) or PAPER_CLAIMS.get(name)
    return entry.build(epsilon)


@contract(case=Instance(AuditCase, example=_EXAMPLE_CASE), draws=Instance(list, example=[]), alpha=_OPEN01)
def sampler_agrees(case: AuditCase, draws: list[tuple[int, np.ndarray]], *, alpha: float) -> tuple[bool | None, float]:
    """Do the sampler's draws follow the exact channel of ``case``?

    For each audited input ``x`` the counts of its codes are tested against ``code_channel[x]``
    (:func:`chi_square_gof`), each at level ``alpha / (number of inputs)`` (Bonferroni), so that a
    correct sampler is flagged with probability at most ``alpha``.  Returns ``(ok, smallest
    p-value)``, or ``(None, nan)`` when the case has no law of its codes (then nothing is trusted
    beyond the given ``exact``).
    """
    law = case.law_of_codes()
    if law is None:
        return None, math.nan
    by_x: dict[int, list[np.ndarray]] = {}
    for x, y in draws:
        by_x.setdefault(int(x), []).append(y)
    p_min = 1.0
    for x, ys in by_x.items():
        y = np.concatenate(ys)
        if y.min() < 0 or y.max() >= law.shape[1]:
            return False, 0.0
        counts = np.bincount(y, minlength=law.shape[1])
        _, _, pval = chi_square_gof(counts, law[x] / law[x].sum())
        p_min = min(p_min, pval)
    return bool(p_min >= alpha / max(1, len(by_x))), float(p_min)


@contract(
    case=AnyOf(_NAMES, Instance(AuditCase)),
    epsilon=Optional(EPSILON),
    n_trials=Integer(2, 1 << 30),
    alpha=_OPEN01,
    rng=RandomState(),
    check_alpha=_OPEN01,
)
def audit(
    case: AuditCase | str,
    epsilon: float | None = None,
    *,
    n_trials: int,
    alpha: float = 0.01,
    rng: Any = None,
    check_alpha: float = 1e-6,
) -> AuditResult:
    """Audit one mechanism: the sampler agrees with its channel, the channel's exact level is within
    the claim, and the sampler's empirical lower bound is within the claim.

    1. The empirical bound (:func:`empirical_epsilon`) draws ``n_trials`` coded reports of ``x1`` and of
       ``x2``; those draws are also tested against the exact channel (:func:`sampler_agrees`,
       Pearson chi-square at false-alarm rate ``check_alpha``), so that the exact level, computed from
       the channel, is only trusted for a sampler that describes the same mechanism.
    2. The exact level: :meth:`~ldpnb.mechanisms.Mechanism.tight_level` of the case's mechanism
       object (log-probabilities), else of its channel.

    Parameters
    ----------
    case : AuditCase or str
        A case, or the name of a registered mechanism (then ``epsilon`` is required).
    epsilon : float, optional
    n_trials : int
        Reports per input for :func:`empirical_epsilon`.
    alpha : float
        Error probability of the empirical bound.
    rng : Generator, int or None
    check_alpha : float
        False-alarm rate of the sampler-versus-channel test.

    Examples
    --------
    >>> r = audit("OUE", 1.0, n_trials=2_000, rng=1)
    >>> r.sampler_ok, r.exact_ok, r.empirical_ok, r.passed
    (True, True, True, True)
    """
    rng = check_random_state(rng)
    if isinstance(case, str):
        if epsilon is None:
            raise ValueError("epsilon is required when case is a mechanism name")
        case = build_case(case, epsilon)
    if case.exact is not None:
        exact = float(case.exact)
    elif case.source is not None:
        exact = float(case.source.tight_level())
    else:
        exact = exact_epsilon(case.channel, case.distance)
    if case.pair_exact is not None:
        pair_exact = float(case.pair_exact)
    elif case.channel is not None:
        pair_exact = pair_epsilon(case.channel, case.x1, case.x2)
    else:
        pair_exact = math.nan
    d12 = float(case.distance[case.x1, case.x2]) if case.distance is not None else float(case.d12)
    draws: list[tuple[int, np.ndarray]] = []

    def recording(x, n, r):
        y = case.sampler(x, n, r)
        draws.append((x, np.asarray(y)))
        return y

    emp = empirical_epsilon(recording, case.x1, case.x2, n_trials=n_trials, alpha=alpha, rng=rng)
    sampler_ok, p_min = sampler_agrees(case, draws, alpha=check_alpha)
    pair_claimed = case.claimed * d12
    exact_ok = bool(exact <= case.claimed * (1 + 1e-9) + 1e-12)
    emp_ok = bool(emp.epsilon <= pair_claimed)
    passed = exact_ok and emp_ok and sampler_ok is not False
    return AuditResult(
        case.mechanism,
        float(case.epsilon),
        float(case.claimed),
        exact,
        int(case.x1),
        int(case.x2),
        d12,
        pair_claimed,
        pair_exact,
        emp.epsilon,
        emp.tp,
        emp.fp,
        emp.n_eval,
        alpha,
        exact_ok,
        emp_ok,
        passed,
        case.note,
        sampler_ok,
        p_min,
        check_alpha,
    )


def _audit_task(task, rng):
    name, eps, n_trials, alpha, check_alpha = task
    return audit(name, eps, n_trials=n_trials, alpha=alpha, rng=rng, check_alpha=check_alpha)


@contract(
    names=Instance(list, tuple, example=["k-RR"]),
    epsilons=Array((0, 1), low=0.0, low_open=True),
    n_trials=Integer(2, 1 << 30),
    alpha=_OPEN01,
    seed=AnyOf(Integer(0), Instance(np.random.SeedSequence, example=np.random.SeedSequence(0))),
    n_jobs=Optional(AnyOf(OneOf("env"), Integer(1, 4096))),
    check_alpha=_OPEN01,
)
def audit_grid(
    names,
    epsilons,
    *,
    n_trials: int,
    alpha: float,
    seed: int | np.random.SeedSequence,
    n_jobs: int | None | str = "env",
    check_alpha: float = 1e-6,
) -> list[AuditResult]:
    """:func:`audit` every mechanism of ``names`` at every epsilon, seeds spawned from ``seed`` (an int or a
    :class:`~numpy.random.SeedSequence`, e.g. ``ldpnb.repro.seed_for(SEED, name)``).

    Results do not depend on ``n_jobs`` (:func:`ldpnb.repro.parallel.sweep`; the default ``"env"``
    reads ``$LDPNB_N_JOBS``, serial when unset).  ``check_alpha`` is the false-alarm rate of each
    audit's sampler-versus-channel test.
    """
    names = list(names)
    unknown = [n for n in names if not _is_name(n)]
    if not names or unknown:
        raise ValueError(f"names must be a non-empty list of registered mechanisms, unknown: {unknown}")
    names = [_resolve(n) for n in names]
    eps = np.atleast_1d(epsilons).tolist()
    tasks = [(n, e, n_trials, alpha, check_alpha) for n in names for e in eps]
    return sweep(_audit_task, tasks, seed=seed, n_jobs=n_jobs)


@contract(epsilon=EPSILON, n_trials=Integer(2, 1 << 30), alpha=_OPEN01, rng=RandomState(), k=Integer(2, 62))
def audit_broken_ue(epsilon: float, *, n_trials: int, alpha: float = 0.01, rng: Any = None, k: int = 6) -> AuditResult:
    """Audit :func:`broken_ue_perturb` against its (false) claim ``eps``.

    The audit catches the bug when its computed verdict ``AuditResult.passed`` comes out false (the
    empirical lower bound exceeds the claim); the appendix grades that from the numbers.
    """

    def sampler(x, n, r):
        b = broken_ue_perturb(np.full(n, x), k, epsilon, rng=r)
        return 2 * b[:, 0].astype(np.int64) + b[:, 1]

    case = AuditCase(
        "broken SUE (mutation)",
        epsilon,
        epsilon,
        sampler,
        0,
        1,
        exact=broken_ue_epsilon(epsilon),
        pair_exact=broken_ue_epsilon(epsilon),
        note="true bit kept with e^eps/(e^eps+1) instead of e^(eps/2)/(e^(eps/2)+1)",
    )
    return audit(case, n_trials=n_trials, alpha=alpha, rng=rng)
