r"""The synthesis chapter's experiments: every mechanism of the five papers on two real data sets,
seen through every lens of the five papers.

A **setting** is one data set reduced to a small finite alphabet ``X`` with a distance (so that
metric mechanisms apply) and, where it has one, a secret ``S`` behind ``X`` (so that the lift lens
applies) or users with several records (so that re-identification applies):

* ``adult_setting()``: UCI Adult, ``X = (age group, weekly hours group)`` on a 4 x 3 grid of ordinal
  bins (age < 30, 30-39, 40-49, >= 50; hours < 40, = 40, > 40), ``S`` = income (> 50K), n = 48,842.
* ``gowalla_setting()``: Gowalla check-ins in Manhattan on a grid of cells (km), users with at
  least ``min_checkins`` check-ins, ``P(x | u)`` the user's empirical cell distribution.

A **family** builds a :class:`~ldpnb.mechanisms.Mechanism` from a setting and one parameter (the
eps-LDP level, the geo-ind level per unit of distance, the ALIP budget, or BA's ``beta``).  The
**lenses** (:func:`exact_lenses`, :func:`utility_lens`) turn a mechanism into numbers: exact where
the channel allows it, Monte Carlo with stated runs for the estimation utility and for
re-identification over ``t > 1`` collections.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
from scipy.optimize import brentq

from ldpnb import estimators
from ldpnb import mechanisms as mech
from ldpnb.channels import geo_ind_epsilon_log, ldp_epsilon_log
from ldpnb.contracts import (
    EPSILON,
    POSITIVE,
    SEED,
    Array,
    Channel,
    Counts,
    Instance,
    Integer,
    Items,
    OneOf,
    RandomState,
    Real,
    contract,
)
from ldpnb.data import MANHATTAN_BOX, Grid, lattice_distance_matrix, load_adult, load_gowalla_nyc
from ldpnb.measures import emd, fano_lower_bound, leakages, lift_measure, mutual_information, pie, theta_glh, theta_rr
from ldpnb.measures.lenses import bayes_vulnerability, reidentification_accuracy, secret_vulnerability
from ldpnb.mechanisms.orr import AORR, SRR, perfect_privacy_response
from ldpnb.mechanisms.watchdog import Watchdog
from ldpnb.papers.synthesis import estimation as est
from ldpnb.papers.synthesis import variance as V
from ldpnb.utils import check_random_state

__all__ = [
    "Setting",
    "Family",
    "FAMILIES",
    "GEO",
    "ORACLES",
    "LIFT",
    "CLASSES",
    "RANK_LENSES",
    "ADULT_SECRETS",
    "DEGENERATE_BITS",
    "LIFT_BUDGET",
    "MAX_RUNS",
    "MAX_OUTPUTS",
    "CATALOGUE_NAMES",
    "REID_BATCH",
    "TIE_REL",
    "adult_setting",
    "gowalla_setting",
    "family",
    "build",
    "catalogue_extras",
    "families_for",
    "lens_value",
    "exact_lenses",
    "inv_lstsq",
    "is_degenerate",
    "utility_lens",
    "match_parameter",
    "sweep",
    "operating_point",
    "lens_table",
    "claim_checks",
    "sweep_all",
    "bound_violations",
    "standard_vs_pinv",
    "ibu_gain_by_eps",
    "pie_ordering",
    "olh_minus_rr_lift",
    "lift_family_order",
    "perfect_privacy_gap",
    "constant_report_distortion",
    "ba_curve",
    "rate_distortion_check",
    "ba_matched_distortion",
    "ba_geo_bound",
    "utility_sweep",
    "reid_over_collections",
    "lens_scores",
    "channel_rank",
    "explain_discordance",
    "utility_parameter",
    "matched_gaps",
    "smallest_singular_value",
]


@dataclass
class Setting:
    """One data set on a finite alphabet (see the module docstring)."""

    name: str
    counts: np.ndarray  #: input counts N_x (int)
    shape: tuple[int, int]  #: the grid (rows, cols) of X; rows x cols = k
    cell: tuple[float, float]  #: cell size (height, width) in the distance unit
    distance: np.ndarray  #: Euclidean distance between cell centres (k x k)
    unit: str  #: the distance unit in words
    p_sx: np.ndarray | None = None  #: joint of the secret and X (rows = secrets)
    p_u: np.ndarray | None = None  #: prior on users (re-identification)
    p_x_given_u: np.ndarray | None = None  #: each user's distribution on X

    @property
    def k(self) -> int:
        return int(self.counts.size)

    @property
    def n(self) -> int:
        return int(self.counts.sum())

    @property
    def p_x(self) -> np.ndarray:
        return self.counts / self.counts.sum()

    @property
    def n_users(self) -> int:
        return self.n if self.p_u is None else int(self.p_u.size)


def _example_setting() -> Setting:
    """A tiny 2 x 2 setting (valid example for the argument contracts; no data loaded)."""
    xy = np.array([(i, j) for i in range(2) for j in range(2)], dtype=float)
    dist = np.sqrt(((xy[:, None, :] - xy[None, :, :]) ** 2).sum(axis=-1))
    return Setting("example", np.array([3, 2, 1, 4]), (2, 2), (1.0, 1.0), dist, "bins")


_EXAMPLE = _example_setting()

#: The largest number of Monte Carlo collections one call accepts (refused before anything runs).
MAX_RUNS = 100_000
_SET = Instance(Setting, example=_EXAMPLE)
_NAME = Instance(str, example="k-RR")
_NAMES = Items(Instance(str, example="k-RR"), complete=False)
_RUNS = Integer(2, MAX_RUNS)
_SWEEPS = Instance(dict, example={})
_MECH = Instance(mech.Mechanism, example=mech.GRR(4, 1.0))


#: Secrets of the Adult setting: name -> (column, value that makes S = 1).
ADULT_SECRETS = {
    "never married": ("marital-status", "Never-married"),
    "income > 50K": ("salary", ">50K"),
    "male": ("sex", "Male"),
}


@contract(secret=OneOf(*ADULT_SECRETS))
def adult_setting(secret: str = "never married") -> Setting:
    """UCI Adult (all 48,842 records): ``X`` = (age group, hours group) on a 4 x 3 grid, ``S`` a binary
    secret of :data:`ADULT_SECRETS`."""
    df = load_adult("all")
    age = np.digitize(df["age"].to_numpy(), [30, 40, 50])
    hours = np.digitize(df["hours-per-week"].to_numpy(), [40, 41])
    x = age * 3 + hours
    col, val = ADULT_SECRETS[secret]
    s = (df[col].to_numpy() == val).astype(int)
    p_sx = np.zeros((2, 12))
    np.add.at(p_sx, (s, x), 1.0)
    return Setting(
        "Adult",
        np.bincount(x, minlength=12).astype(np.int64),
        (4, 3),
        (1.0, 1.0),
        lattice_distance_matrix(4, 3),
        "bins",
        p_sx=p_sx / p_sx.sum(),
    )


@contract(rows=Integer(2, 8), cols=Integer(2, 8), min_checkins=Integer(1, 1_000_000))
def gowalla_setting(rows: int = 4, cols: int = 3, *, min_checkins: int = 20) -> Setting:
    """Gowalla check-ins in the Manhattan box on a ``rows x cols`` grid (distance in km); users with
    at least ``min_checkins`` check-ins in the box, ``P(x | u)`` their empirical cell distribution,
    ``p_u`` uniform over them (the PIE paper's prior)."""
    df = load_gowalla_nyc(MANHATTAN_BOX)
    g = Grid(*MANHATTAN_BOX, rows=rows, cols=cols)
    cell = g.cell_of(df["lat"].to_numpy(), df["lon"].to_numpy())
    users, uid = np.unique(df["user"].to_numpy(), return_inverse=True)
    M = np.zeros((users.size, g.k))
    np.add.at(M, (uid, cell), 1.0)
    keep = M.sum(axis=1) >= min_checkins
    M = M[keep]
    h, w = g.cell_size_km()
    return Setting(
        "Gowalla",
        M.sum(axis=0).astype(np.int64),
        (rows, cols),
        (h, w),
        lattice_distance_matrix(rows, cols, cell_size=(h, w)),
        "km",
        p_u=np.full(M.shape[0], 1.0 / M.shape[0]),
        p_x_given_u=M / M.sum(axis=1, keepdims=True),
    )


# ----------------------------------------------------------------------------------------------
# families: (setting, parameter) -> Mechanism
# ----------------------------------------------------------------------------------------------


def _kron(setting: Setting, one_d: Callable[[int, float], Any], eps: float, family: str) -> mech.ChannelMechanism:
    """A one-dimensional metric mechanism applied to each coordinate of the grid independently:
    ``C = C_rows (x) C_cols``, eps-geo-indistinguishable w.r.t. the L1 distance in cells (the levels
    of independent coordinates add up)."""
    r, c = setting.shape
    L = np.add.outer(one_d(r, eps).log_channel(), one_d(c, eps).log_channel())  # (r, r, c, c)
    L = L.transpose(0, 2, 1, 3).reshape(r * c, r * c)
    rr, cc = np.divmod(np.arange(r * c), c)
    l1 = np.abs(rr[:, None] - rr[None, :]) + np.abs(cc[:, None] - cc[None, :])
    return mech.ChannelMechanism(
        log_channel=L, epsilon=eps, notion="geo-ind", distance=l1.astype(float), metric="L1, cells", family=family
    )


@dataclass(frozen=True)
class Family:
    """A mechanism family of the chapter: its paper, its parameter and its builder."""

    name: str
    paper: str  #: the paper whose lens it comes from
    parameter: str  #: what the swept parameter is
    lo: float  #: sweep range of the parameter
    hi: float
    make: Callable[[Setting, float], Any]
    needs_secret: bool = False
    per_unit: bool = False  #: the parameter is per unit of distance: the range is per cell

    def range(self, setting: Setting) -> tuple[float, float]:
        """The sweep range on ``setting`` (per-unit parameters divided by the smaller cell side)."""
        scale = min(setting.cell) if self.per_unit else 1.0
        return self.lo / scale, self.hi / scale


def _ba(s: Setting, beta: float):
    return mech.BlahutArimoto(s.p_x, s.distance, beta, n_iter=None, tol=1e-12)


def _rsrfd(s: Setting, e: float):
    r, c = s.shape
    P = s.p_x.reshape(r, c)
    return mech.RSRFD(s.shape, [P.sum(axis=1), P.sum(axis=0)], e, "grr")


#: The mechanisms of the chapter, in the order of its tables.
FAMILIES: dict[str, Family] = {
    f.name: f
    for f in [
        Family("k-RR", "IBU, PIE", "eps-LDP", 0.05, 8.0, lambda s, e: mech.GRR(s.k, e)),
        Family("SUE", "IBU (RAPPOR)", "eps-LDP", 0.05, 8.0, lambda s, e: mech.SUE(s.k, e)),
        Family("OUE", "risks", "eps-LDP", 0.05, 8.0, lambda s, e: mech.OUE(s.k, e)),
        Family("OLH", "PIE (GLH)", "eps-LDP", 0.05, 8.0, lambda s, e: mech.OLH(s.k, e)),
        Family("SS", "risks", "eps-LDP", 0.05, 8.0, lambda s, e: mech.SubsetSelection(s.k, e)),
        Family(
            "geometric",
            "IBU",
            "geo-ind per cell (L1)",
            0.02,
            6.0,
            lambda s, e: _kron(s, mech.TruncatedGeometric, e, "geometric"),
        ),
        Family(
            "Laplace",
            "IBU",
            "geo-ind per cell (L1)",
            0.02,
            6.0,
            lambda s, e: _kron(s, mech.DiscreteLaplace, e, "Laplace"),
        ),
        Family(
            "exponential",
            "IBU",
            "geo-ind per unit",
            0.02,
            6.0,
            lambda s, e: mech.Exponential(s.distance, e),
            per_unit=True,
        ),
        Family(
            "planar geometric",
            "IBU",
            "geo-ind per unit",
            0.1,
            6.0,
            lambda s, e: mech.PlanarGeometric(*s.shape, e, s.cell),
            per_unit=True,
        ),
        Family(
            "planar Laplace",
            "IBU, PRIVIC",
            "geo-ind per unit",
            0.2,
            6.0,
            lambda s, e: mech.PlanarLaplace(*s.shape, e, s.cell),
            per_unit=True,
        ),
        Family("BA", "PRIVIC", "beta per unit", 0.05, 6.0, _ba, per_unit=True),
        Family(
            "watchdog (complete)",
            "lift",
            "ALIP eps_l = eps_u",
            0.01,
            3.0,
            lambda s, e: Watchdog(s.p_sx, e, e, merging="complete"),
            needs_secret=True,
        ),
        Family(
            "watchdog (subset)",
            "lift",
            "ALIP eps_l = eps_u",
            0.01,
            3.0,
            lambda s, e: Watchdog(s.p_sx, e, e, merging="subset"),
            needs_secret=True,
        ),
        Family("AORR", "lift", "ALIP eps_l = eps_u", 0.01, 3.0, lambda s, e: AORR(s.p_sx, e, e), needs_secret=True),
        Family("SRR", "lift", "ALIP eps_l = eps_u", 0.01, 3.0, lambda s, e: SRR(s.p_sx, e, e), needs_secret=True),
        Family("SMP", "risks", "eps-LDP", 0.05, 8.0, lambda s, e: mech.SMP(s.shape, e, "grr")),
        Family("RS+FD", "risks", "eps (stated)", 0.05, 8.0, lambda s, e: mech.RSFD(s.shape, e, "GRR")),
        Family("RS+RFD", "risks", "eps (stated)", 0.05, 8.0, _rsrfd),
    ]
}


@contract(name=_NAME)
def family(name: str) -> Family:
    """The :class:`Family` ``name``: the chapter's (:data:`FAMILIES`) or a catalogue family placed by
    :func:`catalogue_extras`."""
    fam = FAMILIES.get(name) or _EXTRA.get(name)
    if fam is None:
        raise ValueError(
            f"unknown family {name!r}: the chapter's {list(FAMILIES)} or a placed catalogue family {list(_EXTRA)}"
        )
    return fam


@contract(setting=_SET, name=_NAME, param=POSITIVE)
def build(setting: Setting, name: str, param: float):
    """The mechanism ``name`` of :data:`FAMILIES` on ``setting`` at parameter ``param``."""
    fam = family(name)
    if fam.needs_secret and setting.p_sx is None:
        raise ValueError(f"{name} needs a secret S; the {setting.name} setting has none")
    key = (id(setting), name, float(param))
    if key not in _BUILT:
        if len(_BUILT) > 512:
            _BUILT.clear()
        _BUILT[key] = fam.make(setting, float(param))
    return _BUILT[key]


_BUILT: dict = {}  # memo of built mechanisms (planar Laplace costs up to seconds at small eps)


def _catalogue_names() -> dict[str, str]:
    """Each catalogue family (:data:`ldpnb.mechanisms.FAMILIES`) that the chapter builds itself, mapped to
    the chapter's name for it: the rows of :data:`FAMILIES` whose name is the family's name or one of its
    aliases in the registry (``k-RR`` is GRR's alias), in the order of :data:`FAMILIES`."""
    out = {}
    for name in FAMILIES:
        try:
            cls = mech.Mechanism.lookup(name)
        except ValueError:  # the chapter's own family (a lift-based, multidimensional or prior-dependent one)
            continue
        if cls.family in mech.FAMILIES:  # registered and built on a common domain: in the catalogue
            out[cls.family] = name
    return out


#: The chapter's own name of each catalogue family it builds itself (on its grids, row by row), derived
#: from the registry (:func:`_catalogue_names`): GRR -> k-RR, SUE, OUE, OLH, SS, and the metric mechanisms.
CATALOGUE_NAMES = _catalogue_names()
#: The largest exact channel (outputs) of a catalogue family that the lens table takes.
MAX_OUTPUTS = 1 << 13
_EXTRA: dict[str, Family] = {}  # catalogue families placed by catalogue_extras


def _on_domain(cls: Any, planar: bool) -> Callable[[Setting, float], Any]:
    def make(s: Setting, e: float):
        if planar:
            return cls.on(mech.Domain(k=None, rows=s.shape[0], cols=s.shape[1], cell_size=s.cell), e)
        return cls.on(mech.Domain(k=s.k, rows=s.shape[0], cols=s.shape[1], cell_size=s.cell), e)

    return make


@contract(setting=Instance(Setting, example=_example_setting()))
def catalogue_extras(setting: Setting) -> tuple[dict[str, Family], dict[str, str]]:
    """The families of the mechanism catalogue (:data:`ldpnb.mechanisms.FAMILIES`, every registered
    family that builds on a common domain) that the chapter does not build itself, so that a family
    added to the toolkit appears in the lens table: ``(placed, unplaced)``.

    ``placed`` maps a name to a :class:`Family`: a frequency oracle, or any family that is not a
    metric mechanism, on the setting's ``k`` values, its parameter an eps-LDP level (range 0.05-8); a
    metric mechanism that builds on the grid, its parameter per unit of distance.  ``unplaced`` maps
    a name to the reason it is left out: a one-dimensional metric mechanism (the chapter applies those
    per coordinate, its own geometric and Laplace rows), a family that cannot be built on the setting,
    a mechanism whose number of inputs is not the setting's ``k`` (a binary mechanism whose ``on``
    ignores the domain's size), or an exact channel with more than :data:`MAX_OUTPUTS` outputs.
    Nothing is dropped silently.
    """
    placed, unplaced = {}, {}
    for name, cls in mech.FAMILIES.items():
        if name in CATALOGUE_NAMES:
            continue
        metric = issubclass(cls, mech.MetricMechanism)
        fam = Family(
            name,
            "catalogue",
            "geo-ind per unit" if metric else "eps-LDP",
            0.1 if metric else 0.05,
            6.0 if metric else 8.0,
            _on_domain(cls, metric),
            per_unit=metric,
        )
        try:
            m = fam.make(setting, 1.0)
            n_out = int(m.n_outputs)
        except (TypeError, ValueError) as exc:
            why = (
                (
                    "a one-dimensional metric mechanism: the chapter applies those to each coordinate of its grids "
                    "(its geometric and Laplace rows)"
                )
                if metric
                else f"cannot be built on the {setting.name} setting"
            )
            unplaced[name] = f"{why} ({type(exc).__name__}: {exc})"
            continue
        if int(m.n_inputs) != setting.k:  # e.g. a binary mechanism whose on() ignores the domain's size
            unplaced[name] = (
                f"built on the {setting.name} setting it has {int(m.n_inputs):,} inputs, not the setting's "
                f"{setting.k:,} values"
            )
            continue
        if n_out > MAX_OUTPUTS:
            unplaced[name] = f"its exact channel has {n_out:,} outputs on {setting.k} values (> {MAX_OUTPUTS:,})"
            continue
        hi = fam.hi if metric else _largest_exact_level(fam, setting)
        if hi is None:
            unplaced[name] = f"its exact channel cannot be computed on the {setting.name} setting at level 1"
            continue
        if hi < fam.hi:  # e.g. OLH-CW: its exact channel enumerates P (P - 1) seeds, P grows with e^eps
            fam = dataclasses.replace(fam, hi=hi)
        placed[name] = fam
    _EXTRA.update(placed)
    return placed, unplaced


def _largest_exact_level(fam: Family, setting: Setting) -> float | None:
    """The largest parameter of ``fam``'s default range, on a log grid down to 1, at which its exact
    channel can be computed (a family may refuse an exact channel beyond a size: OLH-CW's enumeration
    of its hash seeds grows with e^eps); None when not even at 1."""
    for t in np.geomspace(fam.hi, 1.0, 9):
        try:
            fam.make(setting, float(t)).log_channel()
        except (TypeError, ValueError):
            continue
        return float(t)
    return None


@contract(setting=_SET)
def families_for(setting: Setting) -> list[str]:
    """The chapter's families that apply to ``setting`` (the lift-based ones need a secret); the
    catalogue's other families are :func:`catalogue_extras`."""
    return [n for n, f in FAMILIES.items() if setting.p_sx is not None or not f.needs_secret]


# ----------------------------------------------------------------------------------------------
# lenses
# ----------------------------------------------------------------------------------------------


@contract(m=_MECH, setting=_SET, lens=OneOf("ldp", "mi", "distortion", "lift_ldp"))
def lens_value(m: Any, setting: Setting, lens: str) -> float:
    """One exact lens (``"ldp"``, ``"mi"`` or ``"distortion"``) of ``m``, without the others (for matching)."""
    L = m.log_channel()
    if lens == "ldp":
        return ldp_epsilon_log(L)
    C = np.exp(L)
    if lens == "mi":
        return mutual_information(setting.p_x, C / C.sum(axis=1, keepdims=True), unit="bits")
    if lens == "distortion":
        return float(setting.p_x @ (C * setting.distance).sum(axis=1))
    if lens == "lift_ldp":
        J = setting.p_sx @ (C / C.sum(axis=1, keepdims=True))
        return float(leakages(J[:, J.sum(axis=0) > 0]).ldp_leak)
    raise ValueError(f"lens must be 'ldp', 'mi', 'distortion' or 'lift_ldp', got {lens!r}")


@contract(m=_MECH, setting=_SET)
def exact_lenses(m: Any, setting: Setting) -> dict[str, float]:
    r"""Every exact lens of mechanism ``m`` on ``setting``.

    ``ldp``: tight eps-LDP level of ``P(y | x)``; ``geo``: tight geo-ind level per unit of
    ``setting.distance``; ``mi``: :math:`I(X;Y)` in bits; ``pie``: :math:`I(U;Y)` in bits (the PIE
    paper's re-identification information; on Adult each record is a user and X a function of it,
    so ``pie = mi``); ``fano``: the Fano lower bound on the re-identification error among the
    ``n_users`` users (PIE paper, Cor. 3.9); ``vu`` (with users): the exact success of the
    Bayes-optimal re-identification from one report, :math:`V(U\mid Y)`; ``vx``: Bayes vulnerability :math:`V(X\mid Y)`;
    ``distortion``: expected distance between input and report (square channels); and with a secret:
    ``vs``: :math:`V(S\mid Y)`; ``lift_max`` / ``lift_min`` / ``lift_ldp``: the max-lift, min-lift and
    LDP-w.r.t.-S leakages (nats); ``lift_inv``: the largest l1 lift-inverse leakage.
    """
    L = m.log_channel()
    C = np.exp(L)
    out = {"ldp": ldp_epsilon_log(L), "geo": geo_ind_epsilon_log(L, setting.distance)}
    out["mi"] = mutual_information(setting.p_x, C, unit="bits")
    if setting.p_x_given_u is not None:
        out["pie"] = pie(setting.p_u, setting.p_x_given_u, C, unit="bits")
        out["vu"] = reidentification_accuracy(setting.p_u, setting.p_x_given_u, C / C.sum(axis=1, keepdims=True), 1)[0]
    else:
        out["pie"] = out["mi"]
    out["fano"] = float(fano_lower_bound(out["pie"], n=setting.n_users))
    out["vx"] = bayes_vulnerability(setting.p_x, C)
    out["distortion"] = float(setting.p_x @ (C * setting.distance).sum(axis=1)) if C.shape[1] == setting.k else np.nan
    if setting.p_sx is not None:
        J = setting.p_sx @ C
        lk = leakages(J[:, J.sum(axis=0) > 0])
        out.update(
            vs=secret_vulnerability(setting.p_sx, C),
            lift_max=lk.max_lift_leak,
            lift_min=lk.min_lift_leak,
            lift_ldp=lk.ldp_leak,
        )
        out["lift_inv"] = float(np.max(lift_measure(J[:, J.sum(axis=0) > 0], "l1", inverse=True)))
    return out


@contract(channel=Channel(), counts=Counts((1, 2)))
def inv_lstsq(channel: np.ndarray, counts: np.ndarray) -> np.ndarray:
    r"""The first edition's INV for any channel: the least-squares solution :math:`\hat\theta = q C^{+}`
    (``q`` the empirical report distribution, one row per run), clipped and renormalised (INV-N).

    Kept for row E2d only: for the unary encodings and local hashing it weighs the outputs equally and
    has 1.3-2.3 times the variance of the standard support-count estimator
    (:func:`ldpnb.papers.synthesis.estimation.standard_estimate`, used everywhere else)."""
    q = np.atleast_2d(counts).astype(float)
    q = q / q.sum(axis=1, keepdims=True)
    raw = q @ np.linalg.pinv(channel)
    return estimators.clip_normalize(raw)


#: A channel whose information about X is below this (bits) is *degenerate*: it reports (nearly) a
#: constant, and is kept out of every "best" or "largest gain" statement.
DEGENERATE_BITS = 1e-6


@contract(row=Instance(dict, example={"mi": 0.0}))
def is_degenerate(row: dict[str, float]) -> bool:
    """A lens-table row of a degenerate channel (:data:`DEGENERATE_BITS`)."""
    return bool(row["mi"] < DEGENERATE_BITS)


@contract(m=_MECH, setting=_SET, runs=_RUNS, rng=RandomState())
def utility_lens(m: Any, setting: Setting, *, runs: int, rng: Any = None) -> dict[str, Any]:
    r"""Estimation utility of ``m`` on ``setting`` after each estimator of
    :mod:`~ldpnb.papers.synthesis.estimation`.

    ``runs`` collections of the ``n`` users' reports (``m.simulate_counts`` of the true input counts);
    for each, three estimates from the *same* reports: ``ibu`` (IBU to a certified optimum),
    ``early`` (IBU stopped by the IBU paper's rule, a regulariser) and ``inv`` (the standard estimate:
    support counts for a frequency oracle, the channel's inverse or pseudo-inverse otherwise; clipped
    and renormalised).  Returns the mean EMD (ground distance ``setting.distance``), L1 distance and
    squared error of each with their standard errors (``*_se``), the paired differences
    ``emd_diff`` = EMD(IBU) − EMD(INV) and ``emd_early_diff`` = EMD(early) − EMD(IBU) with theirs,
    ``in_simplex`` (fraction of runs whose raw standard estimate has no negative entry), and the per-run
    samples under ``runs_*`` (arrays of length ``runs``).
    """
    rng = check_random_state(rng)
    C = np.exp(m.log_channel())  # entries below float64's range are 0 (BA's vanishing outputs)
    C = C / C.sum(axis=1, keepdims=True)
    Y = m.simulate_counts(setting.counts, size=runs, rng=rng)
    raw = est.standard_estimate(m, Y)
    th = {
        "ibu": np.atleast_2d(est.ibu_certified(C, Y).estimate),
        "early": np.atleast_2d(est.ibu_early(C, Y).estimate),
        "inv": est.clip(raw),
    }
    p = setting.p_x
    out: dict[str, Any] = {}
    se = lambda v: float(v.std(ddof=1) / np.sqrt(v.size))  # noqa: E731
    for name, TH in th.items():
        lens = {
            "emd": np.array([emd(t, p, setting.distance) for t in TH]),
            "l1": np.abs(TH - p).sum(axis=1),
            "sq": ((TH - p) ** 2).sum(axis=1),
        }
        for key, v in lens.items():
            out[f"{key}_{name}"], out[f"{key}_{name}_se"] = float(v.mean()), se(v)
            out[f"runs_{key}_{name}"] = v
    for key, a, b in (("emd_diff", "ibu", "inv"), ("emd_early_diff", "early", "ibu")):
        d = out[f"runs_emd_{a}"] - out[f"runs_emd_{b}"]  # paired: the same reports
        out[key], out[f"{key}_se"] = float(d.mean()), se(d)
    out["in_simplex"] = float(est.in_simplex(raw).mean())
    out["runs_inv_in_simplex"] = est.in_simplex(raw)
    return out


@contract(
    setting=_SET, name=_NAME, lens=OneOf("ldp", "mi", "distortion", "lift_ldp"), target=Real(), grid=Integer(2, 64)
)
def match_parameter(setting: Setting, name: str, lens: str, target: float, *, grid: int = 6) -> tuple[float, float]:
    """The parameter of family ``name`` at which ``exact_lenses(...)[lens]`` equals ``target``.

    The lens is evaluated on ``grid`` log-spaced parameters of the family's range; between the first
    two that bracket the target, Brent's method finds the crossing.  A family whose lens jumps there
    (merging, OLH's integer hash range, SS's integer subset size) is matched to the side closer to
    the target.  Returns ``(parameter, achieved value)``; a target outside the family's range gives
    the nearer end of the range.
    """
    fam = family(name)

    def f(t):
        return lens_value(build(setting, name, t), setting, lens)

    lo, hi = fam.range(setting)
    ts = np.geomspace(lo, hi, grid)
    vs = np.array([f(t) for t in ts])
    above = vs >= target
    if above.all() or not above.any():
        i = int(np.argmin(np.abs(vs - target)))
        return float(ts[i]), float(vs[i])
    i = int(np.flatnonzero(np.diff(above.astype(int)) != 0)[0])
    a, b = ts[i], ts[i + 1]
    t = brentq(lambda u: f(u) - target, a, b, xtol=1e-12, rtol=1e-9, maxiter=200)
    cands = [(t, f(t)), (a, vs[i]), (b, vs[i + 1])]
    lo_side = max(t * (1 - 1e-9), a)
    cands.append((lo_side, f(lo_side)))
    t_best, v_best = min(cands, key=lambda tv: abs(tv[1] - target))
    return float(t_best), float(v_best)


@contract(setting=_SET, name=_NAME, params=Array(1, min_size=1, max_size=4096, low=0.0))
def sweep(setting: Setting, name: str, params: np.ndarray) -> dict[str, np.ndarray]:
    """Every exact lens of family ``name`` along ``params`` (one array per lens, plus ``param``)."""
    rows = [exact_lenses(build(setting, name, t), setting) for t in params]
    out = {k: np.array([r[k] for r in rows]) for k in rows[0]}
    out["param"] = np.asarray(params, dtype=float)
    return out


#: The lift-based families' budget at the operating point: eps_l = eps_u = 0.5, so that they are
#: 1-LDP for the secret S, as every 1-LDP mechanism on X is (post-processing).
LIFT_BUDGET = 0.5


@contract(setting=_SET, level=EPSILON, names=Instance(list, tuple, type(None), example=None))
def operating_point(
    setting: Setting, level: float = 1.0, names: list[str] | None = None
) -> dict[str, tuple[float, float]]:
    """The chapter's operating point: ``{family: (parameter, achieved tight eps-LDP level)}``.

    Every family with a finite eps-LDP level is set to tight level ``level`` on X
    (:func:`match_parameter` on the ``ldp`` lens: k-RR at ``eps = level``, RS+FD at the stated eps
    whose amplified ``eps'`` is ``level``, the metric mechanisms at the geo-ind level whose LDP
    level is ``level``, BA at the ``beta`` whose channel is ``level``-LDP).  The lift-based families,
    whose channels publish some inputs unchanged (infinite level on X), run at
    ``eps_l = eps_u = level / 2``: ``level``-LDP for the secret S.
    """
    out = {}
    for name in names or families_for(setting):
        if family(name).needs_secret:
            out[name] = (level / 2, float("inf"))
        else:
            out[name] = match_parameter(setting, name, "ldp", level)
    return out


@contract(
    setting=_SET,
    params=Instance(dict, example={"k-RR": 1.0}),
    runs=_RUNS,
    seed=SEED,
    runs_geo=Instance(int, type(None), example=None),
)
def lens_table(
    setting: Setting, params: dict[str, float], *, runs: int, seed: Any, runs_geo: int | None = None
) -> dict[str, dict[str, float]]:
    """Exact lenses and the utility lens (``runs`` Monte Carlo collections; ``runs_geo`` for the metric
    mechanisms of :data:`GEO`, whose IBU-against-INV comparisons, rows E1 and E3, need more) of each
    family at its parameter.

    ``seed`` is a ``SeedSequence`` (or int) from which each family gets its own stream (spawned in
    the order of ``params``)."""
    if runs_geo is not None:
        _RUNS.check(runs_geo, "runs_geo")
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    out = {}
    for (name, t), child in zip(params.items(), ss.spawn(len(params))):
        m = build(setting, name, t)
        row = exact_lenses(m, setting)
        r = runs_geo if (runs_geo is not None and name in GEO) else runs
        row.update(utility_lens(m, setting, runs=r, rng=np.random.default_rng(child)))
        row["param"] = float(t)
        out[name] = row
    return out


# ----------------------------------------------------------------------------------------------
# the numbers behind the chapter's rows
# ----------------------------------------------------------------------------------------------

#: Families with a metric (geo-indistinguishability) claim, and the frequency oracles.
GEO = ["geometric", "Laplace", "exponential", "planar geometric", "planar Laplace", "BA"]
ORACLES = ["k-RR", "SUE", "OUE", "OLH", "SS"]
LIFT = ["watchdog (complete)", "watchdog (subset)", "AORR", "SRR"]


@contract(setting=_SET, params=Instance(dict, example={"k-RR": 1.0}))
def claim_checks(setting: Setting, params: dict[str, float]) -> tuple[int, int]:
    """``(failures, checked)`` of ``Mechanism.check()`` for every family at its parameter."""
    fails = sum(not build(setting, n, t).check() for n, t in params.items())
    return int(fails), len(params)


@contract(setting=_SET, points=Integer(2, 256))
def sweep_all(setting: Setting, points: int) -> dict[str, dict[str, np.ndarray]]:
    """:func:`sweep` of every family of ``setting`` over ``points`` log-spaced parameters of its range."""
    ranges = {n: family(n).range(setting) for n in families_for(setting)}
    return {n: sweep(setting, n, np.geomspace(lo, hi, points)) for n, (lo, hi) in ranges.items()}


@contract(sweeps=_SWEEPS, setting=_SET)
def bound_violations(sweeps: dict[str, dict[str, np.ndarray]], setting: Setting) -> dict[str, dict[str, int]]:
    """Violations of the derived bounds D1-D4 and D6 along the sweeps (``{row: {violations, checked}}``).

    D1 ``lift_ldp <= ldp``; D2 ``mi <= min(eps, eps^2)`` nats at the tight ``eps = ldp``;
    D3 ``vs <= exp(lift_max) V(S)``; D4 ``fano <= 1 - V(U|Y)`` (t = 1, exact); D6 ``vs <= V(S|X)``;
    D7 ``vs == V(S)`` wherever ``lift_max + lift_min <= log(max P_S / min P_S)`` (binary S).
    Relative slack 1e-9 for rounding.
    """
    out = {k: {"violations": 0, "checked": 0} for k in ("D1", "D2", "D3", "D4", "D6", "D7")}

    def add(key, ok):
        ok = np.asarray(ok, dtype=bool)
        out[key]["violations"] += int((~ok).sum())
        out[key]["checked"] += int(ok.size)

    tol = 1e-9
    for name, sw in sweeps.items():
        fin = np.isfinite(sw["ldp"])
        if fin.any():
            e = sw["ldp"][fin]
            add("D2", sw["mi"][fin] * np.log(2) <= np.minimum(e, e**2) * (1 + tol) + 1e-12)
            if "lift_ldp" in sw:
                add("D1", sw["lift_ldp"][fin] <= e * (1 + tol) + 1e-12)
        if "vs" in sw:
            vs0 = float(setting.p_sx.sum(axis=1).max())
            vsx = float(setting.p_sx.max(axis=0).sum())
            add("D3", sw["vs"] <= np.exp(sw["lift_max"]) * vs0 * (1 + tol))
            add("D6", sw["vs"] <= vsx * (1 + tol))
            ps = np.sort(setting.p_sx.sum(axis=1))
            small = sw["lift_max"] + sw["lift_min"] <= np.log(ps[-1] / ps[0])
            add("D7", np.abs(sw["vs"][small] - vs0) <= 1e-12)
        if "vu" in sw:
            add("D4", sw["fano"] <= 1 - sw["vu"] + tol)
    return out


@contract(setting=_SET, params=Instance(dict, example={"k-RR": 1.0}), names=_NAMES)
def standard_vs_pinv(setting: Setting, params: dict[str, float], names: list[str]) -> dict[str, float]:
    """Exact total variance of the first edition's pseudo-inverse INV over that of the standard
    estimator, per family (:mod:`~ldpnb.papers.synthesis.variance`)."""
    out = {}
    for n in names:
        m = build(setting, n, params[n])
        out[n] = V.pinv_channel_variance(m, setting.counts) / V.exact_channel_variance(m, setting.counts)
    return out


@contract(setting=_SET, names=_NAMES, eps=Items(EPSILON), runs=_RUNS, seed=SEED)
def ibu_gain_by_eps(setting: Setting, names: list[str], eps: list[float], *, runs: int, seed: Any) -> dict[str, Any]:
    r"""The squared errors of three estimators per oracle and level, from the same reports (rows
    A23, A23b, A23w; Arcolezi, Cerna and Palamidessi 2023).

    For ``runs`` collections of the ``n`` users' reports at each level of ``eps``: MI (the standard
    estimate clipped and renormalised, multi-freq-ldpy's ``MI``), IBU on the whole channel to a
    certified optimum, and IBU on the support counts
    (:func:`~ldpnb.papers.synthesis.estimation.ibu_support`, multi-freq-ldpy's likelihood); the squared
    error :math:`\lVert\hat\theta - \pi\rVert_2^2` of each.
    Returns ``{"eps": [...], "runs": {name:
    [(MI, IBU whole channel, IBU support counts) per level]}}`` (arrays of length ``runs``); the gains
    and their intervals are :func:`~ldpnb.papers.synthesis.comparisons.gain`'s.
    """
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    p = setting.p_x
    out: dict[str, Any] = {"eps": list(eps), "runs": {}}

    def sq(T):
        return ((np.atleast_2d(T) - p) ** 2).sum(axis=1)

    for name, child in zip(names, ss.spawn(len(names))):
        per = []
        for e, c in zip(eps, child.spawn(len(eps))):
            m = build(setting, name, e)
            rng = np.random.default_rng(c)
            C = np.exp(m.log_channel())
            C = C / C.sum(axis=1, keepdims=True)
            Y = m.simulate_counts(setting.counts, size=runs, rng=rng)
            S = np.rint(Y @ np.asarray(m.column_support(), dtype=float))
            per.append(
                (
                    sq(est.clip(est.standard_estimate(m, Y))),
                    sq(est.ibu_certified(C, Y).estimate),
                    sq(est.ibu_support(m, S)),
                )
            )
        out["runs"][name] = per
    return out


#: Relative tolerance under which two exact lens values are a tie (float noise).
TIE_REL = 1e-9


def _sign(a: float, b: float, rtol: float = TIE_REL) -> int:
    """``sign(a - b)``, 0 when ``|a - b| <= rtol max(|a|, |b|)``."""
    if abs(a - b) <= rtol * max(abs(a), abs(b)):
        return 0
    return 1 if a > b else -1


@contract(adult=_SET, gowalla=_SET, eps=Array(1, min_size=1, max_size=64, low=0.0))
def pie_ordering(adult: Setting, gowalla: Setting, eps: np.ndarray) -> dict[str, dict[str, int]]:
    r"""Does the PIE paper's bound ordering of RR and GLH predict the exact lenses?

    At each ``eps`` the PIE paper bounds :math:`I(U;Y) \le \theta I(U;X)` with
    :math:`\theta_{RR} = (e^\varepsilon - 1)/(k + e^\varepsilon - 1)` and :math:`\theta_{GLH}` the same with
    ``g`` for ``k`` (Murakami and Takahashi; PIE paper Thms 4.2, 4.4).  OLH uses ``g = round(e^eps) + 1``.
    For the exact PIE on Gowalla (``pie``) and the LDP-w.r.t.-S lift leakage on Adult (``lift``):
    ``mismatches`` (the lens order is not the predicted strict order: a tie within :data:`TIE_REL`
    counts), ``ties``, ``reversed`` (the opposite strict order) and ``checked``; and for the lift lens
    ``predicted_less`` / ``predicted_more``, the exact leakage of the mechanism whose bound is smaller /
    larger at each ``eps`` (row E4b's order; a tie of the bounds counts RR as the less leaky).
    """
    out: dict[str, Any] = {k: {"mismatches": 0, "ties": 0, "reversed": 0, "checked": 0} for k in ("pie", "lift")}
    less, more = [], []
    for e in np.asarray(eps, dtype=float):
        g = mech.OLH(adult.k, e).g
        pred = _sign(float(theta_rr(adult.k, e)), float(theta_glh(g, e)))
        for key, s, lens in (("pie", gowalla, "pie"), ("lift", adult, "lift_ldp")):
            a = exact_lenses(build(s, "k-RR", e), s)[lens]
            b = exact_lenses(build(s, "OLH", e), s)[lens]
            got = _sign(a, b)
            out[key]["mismatches"] += int(got != pred)
            out[key]["ties"] += int(got == 0)
            out[key]["reversed"] += int(got == -pred and got != 0)
            out[key]["checked"] += 1
            if key == "lift":
                less.append(b if pred > 0 else a)
                more.append(a if pred > 0 else b)
    out["lift_order"] = {"predicted_less": np.array(less), "predicted_more": np.array(more)}
    return out


@contract(setting=_SET, eps=Array(1, min_size=1, max_size=256, low=0.0))
def olh_minus_rr_lift(setting: Setting, eps: np.ndarray) -> np.ndarray:
    """OLH's LDP-w.r.t.-S leakage minus k-RR's at each ``eps`` (row E4c)."""
    return np.array(
        [
            lens_value(build(setting, "OLH", e), setting, "lift_ldp")
            - lens_value(build(setting, "k-RR", e), setting, "lift_ldp")
            for e in np.asarray(eps, float)
        ]
    )


@contract(sweeps=_SWEEPS)
def lift_family_order(sweeps: dict[str, dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """``I(X;Y)`` (bits) of the four lift-based families along their common budget sweep."""
    return {n: sweeps[n]["mi"] for n in LIFT}


@contract(setting=_SET, sweeps=_SWEEPS)
def perfect_privacy_gap(setting: Setting, sweeps: dict[str, dict[str, np.ndarray]]) -> tuple[float, float]:
    """``(min over the AORR sweep of I(X;Y) - I_0, I_0)`` in bits, ``I_0`` the information of the
    perfect-privacy response (the eps -> 0 limit of AORR, Zarrabian et al.)."""
    r = perfect_privacy_response(setting.p_sx)
    i0 = mutual_information(setting.p_x, r.channel, unit="bits")
    return float(np.min(sweeps["AORR"]["mi"]) - i0), float(i0)


@contract(setting=_SET)
def constant_report_distortion(setting: Setting) -> float:
    """Expected distortion of the best constant report, ``min_y sum_x p_x d(x, y)``: ``R(D) = 0`` from there on."""
    return float(np.min(setting.p_x @ setting.distance))


@contract(setting=_SET, points=Integer(2, 256))
def ba_curve(setting: Setting, points: int = 24) -> tuple[np.ndarray, np.ndarray]:
    """BA's ``(D, I)`` points (bits) over ``points`` values of ``beta``, sorted by distortion."""
    lo, hi = FAMILIES["BA"].range(setting)
    Ds, Is = [], []
    for b in np.geomspace(lo, hi, points):
        ba = build(setting, "BA", b)
        Ds.append(lens_value(ba, setting, "distortion"))
        Is.append(lens_value(ba, setting, "mi"))
    order = np.argsort(Ds)
    return np.asarray(Ds)[order], np.asarray(Is)[order]


@contract(setting=_SET, sweeps=_SWEEPS, points=Integer(2, 256), floor=Real(0.0, None))
def rate_distortion_check(
    setting: Setting, sweeps: dict[str, dict[str, np.ndarray]], *, points: int = 24, floor: float = DEGENERATE_BITS
) -> dict[str, Any]:
    """The rate-distortion lens where it is informative (row E8).

    BA attains ``R(D) = min I(X;Y)`` subject to ``E d(X, Y) <= D`` (PRIVIC, Def. 2.3, Thm 3.1; Cover
    and Thomas, Thm 10.2.1).  The curve is traced by BA at ``points`` values of ``beta``; between two
    traced points ``I_BA(D)`` is the chord (time-sharing the two BA channels is achievable, so the
    chord lies above ``R``), which makes ``I_BA(D) <= I_mechanism`` a test harder than the exact one.
    Every sweep point of every square-channel family other than BA whose distortion lies inside the
    traced range and whose ``I_BA(D)`` exceeds ``floor`` bits is checked; returns ``violations``,
    ``checked`` and the largest ``I_BA(D) - I_mechanism`` (``worst``).
    """
    Ds, Is = ba_curve(setting, points)
    viol, checked, worst = 0, 0, -np.inf
    for name, sw in sweeps.items():
        if name == "BA":
            continue
        D, I = np.asarray(sw["distortion"], float), np.asarray(sw["mi"], float)
        ok = np.isfinite(D) & (D >= Ds[0]) & (D <= Ds[-1])
        iba = np.interp(D[ok], Ds, Is)
        keep = iba > floor
        gap = iba[keep] - I[ok][keep]
        viol += int((gap > 1e-9).sum())
        checked += int(keep.sum())
        if gap.size:
            worst = max(worst, float(gap.max()))
    return {"violations": viol, "checked": checked, "worst": worst}


@contract(setting=_SET, params=Instance(dict, example={"geometric": 1.0}))
def ba_matched_distortion(setting: Setting, params: dict[str, float]) -> dict[str, dict[str, float]]:
    """BA at the expected distortion of each family of ``params`` (row E8b): ``{name: {D, I_mech,
    beta, I_BA, D_BA}}``, ``beta`` root-found on BA's distortion."""
    out = {}
    for name, t in params.items():
        m = build(setting, name, t)
        D = lens_value(m, setting, "distortion")
        beta, d_ba = match_parameter(setting, "BA", "distortion", D, grid=12)
        out[name] = {
            "D": D,
            "I_mech": lens_value(m, setting, "mi"),
            "beta": beta,
            "I_BA": lens_value(build(setting, "BA", beta), setting, "mi"),
            "D_BA": d_ba,
        }
    return out


@contract(sweeps=_SWEEPS)
def ba_geo_bound(sweeps: dict[str, dict[str, np.ndarray]]) -> dict[str, int]:
    """Violations of ``geo <= 2 beta`` (PRIVIC, Remark 4) along the BA sweep."""
    sw = sweeps["BA"]
    ok = sw["geo"] <= 2 * sw["param"] * (1 + 1e-9)
    return {"violations": int((~ok).sum()), "checked": int(ok.size)}


@contract(setting=_SET, names=_NAMES, points=Integer(2, 256), runs=_RUNS, seed=SEED)
def utility_sweep(setting: Setting, names: list[str], points: int, *, runs: int, seed: Any) -> dict:
    """Exact lenses and the utility lens along ``points`` parameters of each family (frontiers)."""
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    out = {}
    for name, child in zip(names, ss.spawn(len(names))):
        lo, hi = family(name).range(setting)
        ts = np.geomspace(max(lo, hi / 200), hi / 2, points)
        rows = []
        for t, g in zip(ts, child.spawn(points)):
            m = build(setting, name, t)
            r = exact_lenses(m, setting)
            r.update(utility_lens(m, setting, runs=runs, rng=np.random.default_rng(g)))
            rows.append(r)
        out[name] = {k: np.array([r[k] for r in rows]) for k in rows[0]}
        out[name]["param"] = ts
    return out


#: Monte Carlo draws per call of the re-identification attack (its score matrix is draws x users).
REID_BATCH = 5_000


@contract(
    setting=_SET,
    params=Instance(dict, example={"k-RR": 1.0}),
    ts=Instance(list, tuple, example=[1, 4]),
    runs=Integer(2, 1 << 24),
    seed=SEED,
)
def reid_over_collections(
    setting: Setting, params: dict[str, Any], ts: list[int], *, runs: int, seed: Any
) -> dict[str, dict[str, np.ndarray]]:
    """Bayes-optimal re-identification accuracy after ``t`` collections, per mechanism (exact at
    ``t = 1``, ``runs`` Monte Carlo draws beyond, in independent batches of :data:`REID_BATCH`), with
    the PIE bound ``min(1, (t I(U;Y) + 1) / log2 n)`` on the accuracy (Fano, with
    ``I(U;Y_1..Y_t) <= t I(U;Y)`` for reports that are independent given the user).

    ``params`` maps a label to a family's parameter (the label is the family) or to a pair
    ``(family, parameter)``.  Returns ``{label: {"t", "acc", "se", "bound", "info", "runs"}}``.
    """
    if setting.p_x_given_u is None:
        raise ValueError(f"the {setting.name} setting has no users: re-identification needs P(x | u)")
    ts = [Integer(1, 4096).check(t, "t") for t in ts]
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    out = {}
    for (label, p), child in zip(params.items(), ss.spawn(len(params))):
        name, param = p if isinstance(p, tuple) else (label, p)
        m = build(setting, name, param)
        C = np.exp(m.log_channel())
        C = C / C.sum(axis=1, keepdims=True)
        sizes = [REID_BATCH] * (runs // REID_BATCH) + ([runs % REID_BATCH] if runs % REID_BATCH else [])
        sizes = [b for b in sizes if b >= 2] or [runs]
        acc, se = [], []
        for t, gt in zip(ts, child.spawn(len(ts))):
            if t == 1:
                a, s = reidentification_accuracy(setting.p_u, setting.p_x_given_u, C, 1)
            else:
                parts = [
                    reidentification_accuracy(
                        setting.p_u, setting.p_x_given_u, C, t, runs=b, rng=np.random.default_rng(g)
                    )
                    for b, g in zip(sizes, gt.spawn(len(sizes)))
                ]
                w = np.array(sizes, dtype=float) / sum(sizes)
                a = float(sum(wi * pa for wi, (pa, _) in zip(w, parts)))
                s = float(np.sqrt(sum((wi * ps) ** 2 for wi, (_, ps) in zip(w, parts))))
            acc.append(a)
            se.append(s)
        info = pie(setting.p_u, setting.p_x_given_u, C, unit="bits")
        out[label] = {
            "t": np.asarray(ts),
            "acc": np.array(acc),
            "se": np.array(se),
            "info": info,
            "runs": runs,
            "bound": np.minimum(1.0, (np.asarray(ts) * info + 1) / np.log2(setting.n_users)),
        }
    return out


#: Lenses of the rank-agreement figure, oriented so that larger = leaks more (privacy lenses) or
#: estimates worse (utility lenses).
RANK_LENSES = {
    "mi": "I(X;Y)",
    "vx": "V(X|Y)",
    "lift_ldp": "LDP leak (S)",
    "lift_inv": "lift-inverse",
    "vs": "V(S|Y)",
    "emd_ibu": "EMD, IBU",
    "emd_inv": "EMD, standard",
}


@contract(table=Instance(dict, example={}), names=_NAMES, lenses=_NAMES)
def lens_scores(table: dict[str, dict[str, float]], names: list[str], lenses: list[str]) -> dict[str, np.ndarray]:
    """``{lens: one score per family of names}`` from a lens table."""
    return {k: np.array([table[n][k] for n in names], dtype=float) for k in lenses}


@contract(setting=_SET, name=_NAME, param=POSITIVE)
def channel_rank(setting: Setting, name: str, param: float) -> int:
    """Rank of the exact channel: ``< k`` when ``P_X`` is not identifiable from the reports."""
    return int(np.linalg.matrix_rank(np.exp(build(setting, name, param).log_channel()), tol=1e-10))


@contract(setting=_SET, params=Instance(dict, example={"k-RR": 1.0}), pairs=Instance(list, tuple, example=[]))
def explain_discordance(setting: Setting, params: dict[str, float], pairs: list[tuple[str, str]]) -> dict[str, list]:
    """Sort the pairs that the information lens and the utility lens order differently.

    ``"rank"``: one channel merges inputs (rank < k), so more information about X does not make
    ``P_X`` estimable (the multidimensional protocols identify only marginals; merging mechanisms
    publish blocks); ``"metric"``: exactly one of the two is a metric mechanism, whose reports stay near
    the truth, which EMD rewards and mutual information ignores; ``"other"``: neither, and ``"within"``
    the pairs of ``"other"`` whose two mechanisms are of one class of :data:`CLASSES`."""
    out: dict[str, list] = {"rank": [], "metric": [], "other": [], "within": []}
    for a, b in pairs:
        if min(channel_rank(setting, a, params[a]), channel_rank(setting, b, params[b])) < setting.k:
            out["rank"].append((a, b))
        elif (a in GEO) != (b in GEO):
            out["metric"].append((a, b))
        else:
            out["other"].append((a, b))
            if any(a in c and b in c for c in CLASSES):
                out["within"].append((a, b))
    return out


#: Classes of mechanisms (for the discordant pairs): oracles, metric, lift-based, multidimensional.
CLASSES = (ORACLES, GEO, LIFT, ["SMP", "RS+FD", "RS+RFD"])


# ----------------------------------------------------------------------------------------------
# matched comparisons: equal information, equal utility
# ----------------------------------------------------------------------------------------------


@contract(usweep_family=Instance(dict, example={}), target=POSITIVE)
def utility_parameter(usweep_family: dict[str, np.ndarray], target: float) -> float:
    r"""The parameter at which a family's mean EMD after IBU reaches ``target``, read off its frontier sweep.

    Scanning from the largest parameter down (the EMD grows as the parameter shrinks, except at the
    smallest parameters, row E10), the first step ``t_{i-1} < t_i`` with ``EMD_{i-1} > target >= EMD_i``
    is interpolated log-linearly: :math:`\log t = \log t_{i-1} + (\log \text{target} - \log e_{i-1})
    (\log t_i - \log t_{i-1}) / (\log e_i - \log e_{i-1})`.  A target below every point gives the largest
    parameter, above every point the smallest.
    """
    t, e = np.asarray(usweep_family["param"], float), np.asarray(usweep_family["emd_ibu"], float)
    if target < e[-1]:
        return float(t[-1])
    for i in range(len(t) - 1, 0, -1):
        if e[i - 1] > target >= e[i]:
            lt = np.log(t[i - 1]) + (np.log(target) - np.log(e[i - 1])) * (np.log(t[i]) - np.log(t[i - 1])) / (
                np.log(e[i]) - np.log(e[i - 1])
            )
            return float(np.exp(lt))
    return float(t[0])


@contract(rows=Instance(dict, example={}), ref=Instance(dict, example={}), names=_NAMES)
def matched_gaps(rows: dict[str, dict[str, float]], ref: dict[str, float], names: list[str]) -> dict[str, np.ndarray]:
    """Differences of each matched mechanism's exact lenses to the reference row ``ref`` (k-RR at
    1-LDP): ``ldp_gap``, ``mi_gap`` (bits) and ``lift_gap`` (nats), the lens of ``m`` minus that of
    ``ref`` (rows M2-M4; the EMD's comparison, row M1, is
    :func:`~ldpnb.papers.synthesis.comparisons.matched_order`)."""

    def g(k):
        return np.array([rows[n][k] for n in names]) - ref[k]

    return {"ldp_gap": g("ldp"), "mi_gap": g("mi"), "lift_gap": g("lift_ldp")}


@contract(setting=_SET, name=_NAME, param=POSITIVE)
def smallest_singular_value(setting: Setting, name: str, param: float) -> float:
    r"""Smallest singular value :math:`\sigma_{\min}` of the row-stochastic channel ``P(y | x)`` of family ``name``
    at ``param``: how strongly the channel attenuates the hardest direction of ``P_X`` (inversion multiplies
    the sampling noise along it by up to :math:`1/\sigma_{\min}`); 0 for a rank-deficient channel."""
    C = np.exp(build(setting, name, param).log_channel())
    C = C / C.sum(axis=1, keepdims=True)
    return float(np.linalg.svd(C, compute_uv=False).min())
