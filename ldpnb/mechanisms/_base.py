r"""The :class:`Mechanism` object: a local randomiser that carries its own privacy claim.

A mechanism of the book is one small object per family, in the style of ``scipy.stats``
distributions (the parameters are fixed at construction, the methods answer questions about that
one mechanism) and of OpenDP's ``Measurement`` (the privacy claim travels with the mechanism and
can be checked against it):

==========================  ========================================================================
``channel()``               the exact finite channel ``C[x, y] = P(y | x)`` (rows = inputs), float64
``log_channel()``           ``log C``, exact at any epsilon (``channel()`` refuses when float64 cannot
                            hold it: entries below ``exp(-708.4)``)
``perturb(x, rng=)``        vectorised reports of users holding ``x``
``report_index(reports)``   the column of ``channel()`` of each report
``simulate_counts(N, rng=)``  output counts for input counts ``N``, exact in law, cost independent of n;
                            ``size=R`` draws ``R`` runs at once (``(R, m)``)
``operator()``              a fast product ``theta -> theta C``, ``r -> C r`` when the family has one
                            (:mod:`ldpnb.channels.structured`), else ``None``
``guarantee``               the claim: :class:`Guarantee` (eps-LDP, or eps-geo-indistinguishability
                            with its distance)
``tight_level()``           the tight level of the exact channel, from log-probabilities
``check()``                 :class:`LevelCheck`: ``tight_level() <= claim`` (truthy when it holds)
==========================  ========================================================================

Frequency oracles (:class:`FrequencyOracle`: GRR, SUE, OUE, BLH, OLH, SS) add their support
probabilities ``(p, q)``, ``support(reports)``, ``support_counts(reports)``,
``simulate_support_counts(N, rng=)`` and their standard estimator: ``estimate(reports)`` or
``estimate(support_counts, n)``, the unbiased estimate of Wang et al. (2017), Eq. 2, and
``variance(n, f)``, its variance; metric mechanisms (:class:`MetricMechanism`) add ``distance()``,
the distance between inputs under which they are geo-indistinguishable (Andres et al. 2013).

**The registry.**  Every family is a subclass that names itself: ``family = "GRR"`` and, when it
is known under other names, ``aliases = ("grr", "k-RR", "krr")``.  Defining the class registers
it in :attr:`Mechanism.REGISTRY` (``family -> class``, in the order the classes are defined, as
scipy.stats derives its list of distributions), and :meth:`Mechanism.lookup` finds a class by
its family name or an alias, case-insensitively (``name.casefold()``).  A family that can be
built from a common :class:`Domain` and a level defines the classmethod :meth:`Mechanism.on`;
the catalogue (:func:`ldpnb.mechanisms.catalog`), the audit's cases and the protocol registry
of the multidimensional chapter are derived from these classes, so adding a family is one new
file.

**Extending.**  A new family subclasses :class:`Mechanism` (or one of its two specialisations),
sets ``family`` (and ``aliases``), and implements ``n_inputs``, ``n_outputs``, ``_log_channel()``
and, when it has a faster sampler than drawing from the channel, ``_perturb(x, rng)``; optionally
``on(domain, epsilon)`` (then it is in the catalogue) and ``operator()``.  Hooks let families whose claim is not about
``C`` itself keep the base unchanged: lift-based mechanisms (watchdog, ORR, SRR) protect a secret
``S`` behind ``X`` and override :meth:`Mechanism.privacy_log_channel` to return ``log P(y | s)``
with a :class:`Guarantee` whose ``about`` names the secret; multidimensional protocols (RS+FD)
override :meth:`Mechanism._check_inputs` and :meth:`Mechanism.report_index` for tuples; the
Blahut-Arimoto mechanism is a :class:`ChannelMechanism` (or subclass) with the claim
``2 beta``-geo-ind.  Nothing in the base refers to a family.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ldpnb.channels._generic import (
    _geo_level_from_log,
    _ldp_level_from_log,
    sample_channel,
)
from ldpnb.channels._generic import (
    simulate_counts as _simulate_counts,
)
from ldpnb.channels._generic import (
    simulate_counts_batch as _simulate_counts_batch,
)
from ldpnb.contracts import (
    EPSILON,
    MAX_DENSE,
    MAX_ENTRIES,
    POSITIVE,
    AnyOf,
    Array,
    Channel,
    Counts,
    DistanceMatrix,
    Instance,
    Integer,
    LogChannel,
    OneOf,
    Optional,
    Real,
    contract,
    contract_of,
)
from ldpnb.mechanisms._common import _exp_channel
from ldpnb.utils import check_random_state, check_values

__all__ = [
    "Domain",
    "Guarantee",
    "LevelCheck",
    "Mechanism",
    "FrequencyOracle",
    "MetricMechanism",
    "ChannelMechanism",
]

#: Relative tolerance of :meth:`Mechanism.check` (rounding of log-probabilities).
CHECK_RTOL = 1e-9

#: Support counts (finite, nonnegative; integers or expected counts) and fractions of users.
_SUPPORT = Array(1, low=0.0)
_FRACTION = Array(1, low=0.0, high=1.0)


@dataclass(frozen=True, eq=False)
class Guarantee:
    """A privacy claim: ``epsilon``-LDP, or ``epsilon``-geo-indistinguishability w.r.t. ``distance``.

    Parameters
    ----------
    notion : {"ldp", "geo-ind"}
        ``"ldp"``: ``C[x, y] <= e^eps C[x', y]`` for all inputs and outputs (Kasiviswanathan et al.
        2011; Arcolezi et al. 2023, Def. 1).  ``"geo-ind"``: ``C[x, y] <= e^{eps d(x, x')} C[x', y]``
        (Andres et al. 2013), eps per unit of ``distance``.
    epsilon : float
        The claimed level (> 0).
    distance : ndarray (k, k), optional
        Distances between the inputs (rows of the privacy channel), for ``"geo-ind"``.
    metric : str
        The distance in words (``"|x - x'|"``, ``"Euclidean, km"``).
    about : str
        What the claim protects: ``"the input"``, or e.g. ``"the secret S"`` (lift-based mechanisms,
        whose privacy channel is ``P(y | s)``).
    """

    notion: str
    epsilon: float
    distance: np.ndarray | None = None
    metric: str = ""
    about: str = "the input"

    def __post_init__(self) -> None:
        if self.notion not in ("ldp", "geo-ind"):
            raise ValueError(f"notion must be 'ldp' or 'geo-ind', got {self.notion!r}")
        object.__setattr__(self, "epsilon", EPSILON.check(self.epsilon, "epsilon"))
        if self.notion == "geo-ind":
            if self.distance is None:
                raise ValueError("distance is required for a geo-indistinguishability claim")
            object.__setattr__(self, "distance", DistanceMatrix().check(self.distance, "distance"))
        elif self.distance is not None:
            raise ValueError("distance must be None for an LDP claim")

    @contract(log_channel=LogChannel())
    def level(self, log_channel: np.ndarray) -> float:
        """Tight level of a channel (given by its log-probabilities) under this notion."""
        L = LogChannel().check(log_channel, "log_channel")
        if self.notion == "ldp":
            return _ldp_level_from_log(L)
        if self.distance.shape[0] != L.shape[0]:
            raise ValueError(
                f"distance must be {L.shape[0]} x {L.shape[0]} to match the channel rows, got {self.distance.shape}"
            )
        return _geo_level_from_log(L, self.distance)

    @contract(log_ratios=Array(2))
    def level_from_ratios(self, log_ratios: np.ndarray) -> float:
        """Tight level from the log-ratios ``D[x, y] = log C[x, y] - log C[x0, y]`` to one reference
        row (finite): the same maxima as :meth:`level` (``D[x, y] - D[x', y]`` is the log-ratio of
        ``x`` and ``x'``), with the relative precision of ``D`` itself -- a family that knows ``D``
        in closed form keeps the level exact at any epsilon, even where ``log C`` cannot resolve it
        (``eps = 1e-12`` next to ``log C ~ -2``)."""
        D = Array(2).check(log_ratios, "log_ratios")
        if self.notion == "ldp":
            return _ldp_level_from_log(D)
        if self.distance.shape[0] != D.shape[0]:
            raise ValueError(
                f"distance must be {D.shape[0]} x {D.shape[0]} to match the channel rows, got {self.distance.shape}"
            )
        return _geo_level_from_log(D, self.distance)

    @contract(level=Real(0.0, None, finite=False), rtol=Real(0.0, 1.0))
    def admits(self, level: float, rtol: float = CHECK_RTOL) -> bool:
        """``level <= epsilon (1 + rtol)``: the claim covers a channel of this tight level (a level
        ``>= 0``, possibly infinite; ``0 <= rtol <= 1``)."""
        level = Real(0.0, None, finite=False).check(level, "level")
        rtol = Real(0.0, 1.0).check(rtol, "rtol")
        return bool(level <= self.epsilon * (1.0 + rtol) + 1e-12)

    def __str__(self) -> str:
        if self.notion == "ldp":
            base = f"{self.epsilon:g}-LDP"
        else:
            base = f"{self.epsilon:g}-geo-indistinguishable" + (f" w.r.t. {self.metric}" if self.metric else "")
        return base if self.about == "the input" else f"{base} for {self.about}"


Guarantee.__init__ = contract(
    notion=OneOf("ldp", "geo-ind"),
    epsilon=EPSILON,
    distance=Optional(DistanceMatrix()),
    metric=Instance(str, example=""),
    about=Instance(str, example="the input"),
)(Guarantee.__init__)


@dataclass(frozen=True)
class LevelCheck:
    """Result of :meth:`Mechanism.check`: the claim, the tight level of the exact channel, and
    whether the claim holds (``tight <= claimed (1 + rtol)``).  Truthy when it holds."""

    claimed: float
    tight: float
    holds: bool
    notion: str
    rtol: float = CHECK_RTOL

    def __bool__(self) -> bool:
        return self.holds


@dataclass(frozen=True, eq=False)
class Domain:
    """The common domain on which a family is built by :meth:`Mechanism.on`.

    ``k`` values ``{0..k-1}`` on a line (frequency oracles, one-dimensional metric mechanisms), a
    ``rows x cols`` grid of cells ``cell_size`` apart (planar mechanisms; the padded planar Laplace
    pads it by ``pad`` cells), and optionally the ``distance`` between the values (the exponential
    mechanism; default ``|x - x'|`` on the line).  A domain with ``k=None`` is the grid alone: the
    frequency oracles then take its ``rows * cols`` cells as their values (:attr:`size`).

    Examples
    --------
    >>> Domain(k=5).size, Domain(k=None, rows=3, cols=4).size
    (5, 12)
    """

    k: int | None = 8
    rows: int | None = 4
    cols: int | None = 4
    cell_size: Any = 1.0
    pad: int = 2
    distance: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.k is None and (self.rows is None or self.cols is None):
            raise ValueError("a domain needs k (a line) or rows and cols (a grid)")
        for name in ("k", "rows", "cols"):
            v = getattr(self, name)
            if v is not None:
                object.__setattr__(self, name, Integer(1, MAX_DENSE * MAX_DENSE).check(v, name))
        object.__setattr__(self, "pad", Integer(0, 1024).check(self.pad, "pad"))
        try:
            cs = np.asarray(self.cell_size, dtype=float)
        except (TypeError, ValueError):
            cs = np.array(np.nan)
        if cs.shape not in ((), (2,)) or not np.all(np.isfinite(cs)) or np.any(cs <= 0):
            raise ValueError(
                f"cell_size must be a finite number > 0 or a pair (height, width) of them, got {self.cell_size!r}"
            )
        if self.distance is not None:
            D = DistanceMatrix().check(self.distance, "distance")
            if D.shape != (self.size, self.size):
                raise ValueError(
                    f"distance must be a ({self.size}, {self.size}) matrix, one row per value of the domain, "
                    f"got shape {D.shape}"
                )
            D.setflags(write=False)
            object.__setattr__(self, "distance", D)

    @property
    def size(self) -> int:
        """The number of values: ``k``, or the ``rows * cols`` cells of a grid-only domain."""
        return self.k if self.k is not None else self.rows * self.cols

    def _need(self, *names: str) -> None:
        missing = [n for n in names if getattr(self, n) is None]
        if missing:
            raise ValueError(f"this family needs {', '.join(missing)} in its Domain, got {self!r}")


#: The contract of every :meth:`Mechanism.on` (applied by ``Mechanism.__init_subclass__``).
_ON_CONTRACT = contract(skip_nested=False, domain=Instance(Domain, example=Domain()), epsilon=EPSILON)


def _same_class(a: type, b: type) -> bool:
    """The same class defined again (a reloaded module, a notebook cell run twice)."""
    return a is b or (a.__module__ == b.__module__ and a.__qualname__ == b.__qualname__)


class Mechanism:
    """Base class of the mechanism objects (see the module docstring).

    Subclasses set ``self.epsilon`` (and their parameters) in ``__init__`` and implement
    :attr:`n_inputs`, :attr:`n_outputs`, :meth:`_log_channel`; optionally :meth:`_perturb` (default:
    draw from the channel), :meth:`report_index`, :meth:`simulate_counts`, :attr:`guarantee`.
    """

    #: Short name of the family (``"GRR"``, ``"SUE"``, ...): set on the class, it registers the class.
    family: ClassVar[str] = "mechanism"
    #: Other names of the family (declared on the class itself; not inherited by subclasses).
    aliases: ClassVar[tuple[str, ...]] = ()
    #: Every output has a positive probability under every input (so ``log_channel()`` is finite).
    full_support: ClassVar[bool] = True
    #: Every registered family, ``family -> class``, in the order the classes were defined.
    REGISTRY: ClassVar[dict[str, type[Mechanism]]] = {}
    #: ``name.casefold() -> family`` for every family name and alias (the lookup table).
    _NAMES: ClassVar[dict[str, str]] = {}

    epsilon: float

    # ------------------------------------------------------------------ the registry
    def __init_subclass__(cls, register: bool = True, **kwargs: Any) -> None:
        """Register a class that sets ``family`` itself (``register=False``, or a name starting
        with ``_``, keeps a class out of the registry)."""
        super().__init_subclass__(**kwargs)
        raw = cls.__dict__.get("on")
        if isinstance(raw, classmethod) and contract_of(raw.__func__) is None:
            # one contract for every family's factory: the base owns the validation of (domain, epsilon)
            cls.on = classmethod(_ON_CONTRACT(raw.__func__))  # type: ignore[assignment]
        if register and "family" in cls.__dict__ and not cls.__name__.startswith("_"):
            Mechanism._register(cls)

    @staticmethod
    def _register(cls: type[Mechanism]) -> None:
        family = cls.__dict__["family"]
        aliases = cls.__dict__.get("aliases", ())
        if (
            not isinstance(family, str)
            or not family
            or isinstance(aliases, str)
            or not all(isinstance(a, str) and a for a in aliases)
        ):
            raise TypeError(
                f"{cls.__qualname__}: family must be a non-empty str and aliases a tuple of "
                f"non-empty str, got {family!r} and {aliases!r}"
            )
        old = Mechanism.REGISTRY.get(family)
        if old is not None and not _same_class(old, cls):
            raise TypeError(
                f"{cls.__qualname__}: the family {family!r} is already registered by "
                f"{old.__module__}.{old.__qualname__}"
            )
        keys = {n.casefold() for n in (family, *aliases)}
        for key in keys:
            owner = Mechanism._NAMES.get(key)
            if owner is not None and owner != family:
                raise TypeError(f"{cls.__qualname__}: the name {key!r} already names the family {owner!r}")
        if old is not None:
            Mechanism.unregister(family)
        Mechanism.REGISTRY[family] = cls
        Mechanism._NAMES.update(dict.fromkeys(keys, family))

    @staticmethod
    def unregister(family: str) -> type[Mechanism]:
        """Remove a family (and its aliases) from the registry; returns its class (for tests and
        notebooks that define a family for a while)."""
        cls = Mechanism.REGISTRY.pop(Mechanism.lookup(family).__dict__["family"])
        fam = cls.__dict__["family"]
        for key in [k for k, v in Mechanism._NAMES.items() if v == fam]:
            del Mechanism._NAMES[key]
        return cls

    @staticmethod
    def lookup(name: str) -> type[Mechanism]:
        """The registered class of a family name or alias, compared after ``str.casefold()``.

        Examples
        --------
        >>> Mechanism.lookup("k-RR").family, Mechanism.lookup("grr").family
        ('GRR', 'GRR')
        """
        if not isinstance(name, str):
            raise TypeError(f"name must be a family name or alias (str), got {name!r} ({type(name).__name__})")
        family = Mechanism._NAMES.get(name.casefold())
        if family is None:
            raise ValueError(
                f"name must be a registered family or alias, got {name!r}; families: {list(Mechanism.REGISTRY)}"
            )
        return Mechanism.REGISTRY[family]

    @classmethod
    @_ON_CONTRACT
    def on(cls, domain: Domain, epsilon: float) -> Mechanism:
        """The family on a common :class:`Domain` at level ``epsilon`` (the catalogue's constructor).

        Families that need more than a domain and a level (a prior, a joint distribution, the
        sizes of several attributes) do not define it and are not in the catalogue.  A subclass's
        ``on`` gets the base's contract when the class is defined (``domain`` a :class:`Domain`,
        ``epsilon`` finite and > 0); the constructor it calls then checks the sizes it takes from
        the domain (the contract does not skip nested checks).

        Examples
        --------
        >>> Mechanism.lookup("GRR").on(Domain(k=4), 1.0)
        GRR(k=4, epsilon=1)
        >>> Mechanism.lookup("GRR").on(4, 1.0)
        Traceback (most recent call last):
            ...
        TypeError: domain must be an instance of Domain, got 4 (int)
        """
        raise NotImplementedError(f"{cls.__name__} is not built from a domain and a level alone")

    @classmethod
    def builds_on_domain(cls) -> bool:
        """Whether the family defines :meth:`on` (and so belongs to the catalogue)."""
        return cls.on.__func__ is not Mechanism.on.__func__

    # ------------------------------------------------------------------ description
    @property
    def n_inputs(self) -> int:
        """Number of inputs (rows of the channel)."""
        raise NotImplementedError

    @property
    def n_outputs(self) -> int:
        """Number of outputs (columns of the exact channel; may be too many to enumerate)."""
        raise NotImplementedError

    @property
    def shape(self) -> tuple[int, int]:
        return (self.n_inputs, self.n_outputs)

    @property
    def guarantee(self) -> Guarantee:
        """The privacy claim (default: ``epsilon``-LDP)."""
        return Guarantee("ldp", self.epsilon)

    def params(self) -> dict[str, Any]:
        """The construction parameters (for ``repr``)."""
        return {"epsilon": self.epsilon}

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v!r}" for k, v in self.params().items())
        return f"{type(self).__name__}({args})"

    # ------------------------------------------------------------------ the exact channel
    def _log_channel(self) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def _check_dense(self) -> None:
        k, m = self.n_inputs, self.n_outputs
        if k * m > MAX_ENTRIES:
            raise ValueError(
                f"the exact channel of {self!r} has {k} x {m} entries, more than {MAX_ENTRIES} "
                "(2 GiB of float64); use the sampler or the count simulator instead"
            )

    def log_channel(self) -> np.ndarray:
        """``log C[x, y]`` (``-inf`` where ``C`` is 0), built in the log domain: exact at any epsilon."""
        cached = self.__dict__.get("_log_channel_cache")
        if cached is None:
            self._check_dense()
            with np.errstate(over="ignore", invalid="ignore"):  # refused below with a clear message
                L = np.asarray(self._log_channel(), dtype=np.float64)
            if L.shape != (self.n_inputs, self.n_outputs):  # pragma: no cover - a family's bug
                raise RuntimeError(f"{self!r}: log channel of shape {L.shape}, expected {self.shape}")
            if np.any(np.isnan(L)) or np.any(L == np.inf) or (self.full_support and np.any(L == -np.inf)):
                raise ValueError(
                    f"{self!r}: epsilon = {self.epsilon:g} is beyond what float64 log-probabilities "
                    "represent for this mechanism"
                )
            L.setflags(write=False)
            self.__dict__["_log_channel_cache"] = L
            cached = L
        return cached.copy()

    def _float_channel(self) -> np.ndarray:
        """The float64 channel (default ``exp(log_channel())``); a family with a closed-form float
        construction (its functional twin, e.g. :func:`~ldpnb.mechanisms.grr_channel`) returns that,
        bit for bit, so that the object and the function give the same matrix."""
        return _exp_channel(self.log_channel(), epsilon=self.epsilon, what=f"channel of {self!r}", hint="log_channel()")

    def channel(self) -> np.ndarray:
        """The exact channel as float64 (cached; a copy is returned); refuses (``ValueError`` naming
        epsilon) when a positive probability is below float64's normal range -- use
        :meth:`log_channel` there."""
        cached = self.__dict__.get("_channel_cache")
        if cached is None:
            self._check_dense()
            cached = np.asarray(self._float_channel(), dtype=np.float64)
            cached.setflags(write=False)
            self.__dict__["_channel_cache"] = cached
        return cached.copy()

    def operator(self) -> Any:
        """A fast form of the channel for the products of IBU
        (:class:`~ldpnb.channels.structured.ChannelOperator`: ``theta -> theta C`` and ``r -> C r``
        without the dense matrix), or ``None`` when the family has none (the default)."""
        return None

    def _sampling_channel(self) -> np.ndarray:
        """Rows ``exp(L - max L)`` renormalised: the channel for drawing (exact up to rounding at any
        epsilon; probabilities below ``1e-308`` of a row's largest one are drawn as 0)."""
        cached = self.__dict__.get("_sampling_cache")
        if cached is None:
            L = self.log_channel()
            P = np.exp(L - L.max(axis=1, keepdims=True))
            cached = P / P.sum(axis=1, keepdims=True)
            self.__dict__["_sampling_cache"] = cached
        return cached

    # ------------------------------------------------------------------ sampling
    def _check_inputs(self, x: Any) -> np.ndarray:
        """Validate user inputs (default: a non-empty 1-D integer array in ``{0..n_inputs-1}``)."""
        return check_values(x, self.n_inputs)

    def _perturb(self, x: np.ndarray, rng: np.random.Generator) -> Any:
        """Reports of users holding ``x`` (default: one draw per user from the channel rows)."""
        return sample_channel(self._sampling_channel(), x, rng=rng)

    def perturb(self, x: Any, *, rng: Any = None) -> Any:
        """Reports of users holding the values ``x`` (vectorised); ``rng`` a Generator, seed or None."""
        rng = check_random_state(rng)
        x = self._check_inputs(x)
        return self._perturb(x, rng)

    def report_index(self, reports: Any) -> np.ndarray:
        """Column of :meth:`channel` of each report (default: reports are column indices already)."""
        return check_values(reports, self.n_outputs, name="reports")

    def _check_input_counts(self, input_counts: Any) -> np.ndarray:
        N = Counts().check(input_counts, "input_counts")
        if N.size != self.n_inputs:
            raise ValueError(f"input_counts must have one entry per input ({self.n_inputs}), got {N.size}")
        return N

    def simulate_counts(self, input_counts: Any, *, size: int | None = None, rng: Any = None) -> np.ndarray:
        """Output counts (one per column of :meth:`channel`) of users with input counts ``N``.

        ``size=None``: one vector of counts, ``sum_x Multinomial(N_x, C[x])`` (exactly the law of
        ``bincount(report_index(perturb(x)))``, at a cost independent of n), drawn from the rows
        ``exp(L - max L)`` of the log channel; families with a cheaper exact law use it (k-RR's
        mixture law, O(k)).

        ``size=R``: ``R`` independent runs at once, ``(R, m)``, by one ``Multinomial(N_x, C[x],
        size=R)`` per input value with users (:func:`ldpnb.channels.simulate_counts_batch` on
        :meth:`channel`, the family's float channel, or on the rows ``exp(L - max L)`` where
        float64 cannot hold it): the same law; the draws of ``size=1`` are not those of
        ``size=None``.
        """
        rng = check_random_state(rng)
        N = self._check_input_counts(input_counts)
        if size is None:
            return self._simulate_counts(N, rng)
        R = Integer(1, MAX_ENTRIES).check(size, "size")
        if R * self.n_outputs > MAX_ENTRIES:
            raise ValueError(f"size: {R} runs of {self.n_outputs} counts exceed {MAX_ENTRIES} entries")
        try:
            C = self.channel()
        except ValueError:  # float64 cannot hold it: the rows exp(L - max L), exact up to rounding
            C = self._sampling_channel()
        return _simulate_counts_batch(C, N, R, rng=rng)

    def _simulate_counts(self, N: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One vector of output counts for validated input counts (default: a multinomial per input)."""
        return _simulate_counts(self._sampling_channel(), N, rng=rng)

    # ------------------------------------------------------------------ the claim
    def privacy_log_channel(self) -> np.ndarray:
        """The channel the claim is about, as log-probabilities (default: :meth:`log_channel`).

        Lift-based mechanisms return ``log P(y | s)`` for their secret ``S``.
        """
        return self.log_channel()

    def _log_ratios(self) -> np.ndarray | None:
        """``log C[x, y] - log C[0, y]`` in closed form (families whose log-ratios are exact multiples
        of epsilon), or ``None``: then the level is read from :meth:`log_channel`."""
        return None

    def tight_level(self) -> float:
        """Tight level of the exact channel under the claim's notion, from log-probabilities (from the
        family's closed-form log-ratios when it has them: full relative precision at any epsilon)."""
        if type(self).privacy_log_channel is Mechanism.privacy_log_channel:
            D = self._log_ratios()
            if D is not None:
                self._check_dense()
                return self.guarantee.level_from_ratios(D)
        return self.guarantee.level(self.privacy_log_channel())

    @contract(rtol=Real(0.0, 1.0))
    def check(self, rtol: float = CHECK_RTOL) -> LevelCheck:
        """Does the exact channel keep the claim?  ``tight_level() <= guarantee.epsilon (1 + rtol)``."""
        rtol = Real(0.0, 1.0).check(rtol, "rtol")
        g = self.guarantee
        tight = self.tight_level()
        return LevelCheck(g.epsilon, tight, g.admits(tight, rtol), g.notion, rtol)


class FrequencyOracle(Mechanism):
    r"""A pure frequency oracle (Wang et al. 2017): each report *supports* a set of values, the true
    value with probability ``p`` and any other value with probability ``q < p``.

    Its standard estimator is the unbiased estimate of Wang et al. (2017), Eq. 2, from the support
    counts :math:`C(v) = \#\{i : \text{report } i \text{ supports } v\}` of ``n`` reports,

    .. math:: \hat f(v) = \frac{C(v) - n q}{n (p - q)}, \qquad
              \mathrm{Var}[\hat f(v)] = \frac{f(v)\,p(1-p) + (1 - f(v))\,q(1-q)}{n (p - q)^2}

    (:meth:`estimate`, :meth:`variance`; ``f = 0`` is their approximate variance, Wang et al. 2017,
    Eq. 4).  ``p - q`` is computed by each family without cancellation (:attr:`p_minus_q`), so both
    keep their relative precision at tiny epsilon.

    Subclasses set ``self.k``, ``self.p``, ``self.q`` (and ``self.p_minus_q``) and implement
    :meth:`support` and :meth:`column_support`.
    """

    k: int
    p: float
    q: float

    @property
    def n_inputs(self) -> int:
        return self.k

    @property
    def p_minus_q(self) -> float:
        """``p - q`` (families set it from a cancellation-free formula; default: the difference)."""
        return self.__dict__.get("_p_minus_q", self.p - self.q)

    @p_minus_q.setter
    def p_minus_q(self, value: float) -> None:
        self.__dict__["_p_minus_q"] = float(value)

    def support(self, reports: Any) -> np.ndarray:  # pragma: no cover - abstract
        """Boolean ``(n, k)`` matrix: does report ``i`` support value ``v``."""
        raise NotImplementedError

    def column_support(self) -> np.ndarray:  # pragma: no cover - abstract
        """Boolean ``(n_outputs, k)`` matrix: the values each column of :meth:`channel` supports."""
        raise NotImplementedError

    def support_counts(self, reports: Any) -> np.ndarray:
        """``C(v) = #{i : report i supports v}``, int64 of length ``k``."""
        return self.support(reports).sum(axis=0).astype(np.int64)

    def n_reports(self, reports: Any) -> int:
        """The number of reports in ``reports`` (rows of the reports of :meth:`perturb`: a 1-D array of
        report indices or a 2-D array of one row per report); at least one.

        The reports are checked as where they are read: indices in ``{0, ..., n_outputs - 1}`` for the
        families whose reports are columns of :meth:`channel` (k-RR, HR, HRR, L-GRR: :meth:`report_index`),
        else the rows of :meth:`support` (0/1 rows of length ``k``).  A code outside the output domain,
        a fractional, NaN or non-numeric entry is refused: it is not a report (it was counted as one)."""
        if reports is None or isinstance(reports, (str, bytes)) or np.ndim(reports) not in (1, 2):
            raise TypeError(
                f"reports must be the reports of perturb (a 1-D or 2-D array), got {type(reports).__name__} "
                f"of {np.ndim(reports) if reports is not None else 0} dimensions"
            )
        if int(np.shape(reports)[0]) == 0:
            raise ValueError("reports must hold at least one report, got none")
        if type(self).report_index is Mechanism.report_index:  # the reports are column indices
            return int(self.report_index(reports).size)
        return int(self.support(reports).shape[0])

    def _max_support_total(self, n: int) -> int | None:
        """Largest possible ``sum_v C(v)`` of ``n`` reports (``None``: only ``C(v) <= n``)."""
        return None

    def simulate_support_counts(self, input_counts: Any, *, rng: Any = None) -> np.ndarray:
        """Support counts for input counts ``N``: ``C(v) ~ Bin(N_v, p) + Bin(n - N_v, q)``
        independently over ``v`` (exact marginals; families with dependent supports override it)."""
        rng = check_random_state(rng)
        N = self._check_input_counts(input_counts)
        n = int(N.sum())
        return (rng.binomial(N, self.p) + rng.binomial(n - N, self.q)).astype(np.int64)

    def check_support_counts(
        self, support_counts: Any, n: int, *, name: str = "support_counts"
    ) -> tuple[np.ndarray, int]:
        """Validate support counts of ``n`` reports: one finite entry ``0 <= C(v) <= n`` per value (and a
        total the family's reports can reach: ``n`` for k-RR, ``n omega`` for subset selection).
        ``name``: the caller's name of the argument, for the error messages."""
        if not isinstance(name, str):
            raise TypeError(f"name must be a str (the argument's name in the messages), got {type(name).__name__}")
        n = Integer(1, 1 << 62).check(n, "n")
        c = _SUPPORT.check(support_counts, name)
        if c.ndim != 1 or c.size != self.k:
            raise ValueError(f"{name} must have one entry per value ({self.k}), got shape {c.shape}")
        if c.max() > n:
            raise ValueError(
                f"{name} must be at most the number of reports n = {n} (a report supports a "
                f"value at most once), got max {c.max():.6g}"
            )
        top = self._max_support_total(n)
        if top is not None and c.sum() > top * (1 + 1e-12):
            raise ValueError(
                f"{name} sum to {c.sum():.6g}, more than the {top} supports that {n} reports of {self!r} can give"
            )
        return c, n

    def estimate(self, data: Any, n: int | None = None) -> np.ndarray:
        """The standard estimate ``(C(v) - n q) / (n (p - q))`` (Wang et al. 2017, Eq. 2).

        ``estimate(reports)``: from the reports of :meth:`perturb` (``n`` = their number);
        ``estimate(support_counts, n)``: from the support counts of ``n`` reports (refused when an
        entry exceeds ``n``: a report supports a value at most once).
        """
        if n is None:
            data, n = self.support_counts(data), self.n_reports(data)
        c, n = self.check_support_counts(data, n)
        return (c - n * self.q) / (n * self.p_minus_q)

    @contract(n=POSITIVE, f=AnyOf(Real(0.0, 1.0), _FRACTION))
    def variance(self, n: int, f: Any = 0.0) -> np.ndarray:
        """Variance of :meth:`estimate` over ``n`` reports when a fraction ``f`` (scalar or ``(k,)``)
        of the users hold the value: ``(f p(1-p) + (1-f) q(1-q)) / (n (p-q)^2)`` (Wang et al. 2017;
        the default ``f = 0`` is their approximate variance)."""
        n = POSITIVE.check(n, "n")
        f = _FRACTION.check(f, "f") if np.ndim(f) else Real(0.0, 1.0).check(f, "f")
        if np.ndim(f) and f.shape != (self.k,):
            raise ValueError(f"f must be a scalar or have one entry per value ({self.k}), got shape {f.shape}")
        p, q = self.p, self.q
        return (f * p * (1 - p) + (1 - f) * q * (1 - q)) / (n * self.p_minus_q**2)

    def params(self) -> dict[str, Any]:
        return {"k": self.k, "epsilon": self.epsilon}


class MetricMechanism(Mechanism):
    """A mechanism claiming ``epsilon``-geo-indistinguishability w.r.t. :meth:`distance`.

    Subclasses implement :meth:`distance` and set :attr:`metric`; ``claimed`` defaults to
    ``epsilon`` (the exponential mechanism with ``half=False`` claims ``2 epsilon``).
    """

    #: The distance in words.
    metric: ClassVar[str] = ""

    @property
    def claimed(self) -> float:
        return self.epsilon

    def distance(self) -> np.ndarray:  # pragma: no cover - abstract
        """Distances between the inputs, ``(n_inputs, n_inputs)``."""
        raise NotImplementedError

    @property
    def guarantee(self) -> Guarantee:
        cached = self.__dict__.get("_guarantee_cache")
        if cached is None:
            cached = Guarantee("geo-ind", self.claimed, self.distance(), metric=self.metric)
            self.__dict__["_guarantee_cache"] = cached
        return cached


class ChannelMechanism(Mechanism):
    """A mechanism given by an explicit finite channel (or its log-probabilities) and a claim.

    The generic object for channels computed elsewhere (an optimisation, the Blahut-Arimoto
    iteration, a lift-based merging): reports are drawn from the channel rows.

    Parameters
    ----------
    channel : array (k, m), optional
        ``C[x, y] = P(y | x)``; give this or ``log_channel``.
    log_channel : array (k, m), optional
        ``log C`` (``-inf`` for zeros).
    epsilon : float
        The claimed level.
    notion : {"ldp", "geo-ind"}
    distance : array (k, k), optional
        Input distances for ``notion="geo-ind"``.
    metric : str
    family : str
        Name shown in reports.
    """

    full_support = False

    @contract(
        channel=Optional(Channel()),
        log_channel=Optional(LogChannel()),
        epsilon=EPSILON,
        notion=OneOf("ldp", "geo-ind"),
        distance=Optional(DistanceMatrix()),
        metric=Instance(str, example=""),
        family=Instance(str, example="channel"),
    )
    def __init__(
        self,
        channel: Any = None,
        *,
        log_channel: Any = None,
        epsilon: float,
        notion: str = "ldp",
        distance: Any = None,
        metric: str = "",
        family: str = "channel",
    ) -> None:
        if (channel is None) == (log_channel is None):
            raise ValueError("give exactly one of channel and log_channel")
        if log_channel is None:
            with np.errstate(divide="ignore"):
                log_channel = np.log(channel)
        self._L = np.array(log_channel, dtype=np.float64)
        self.epsilon = epsilon
        self._guarantee = Guarantee(notion, epsilon, distance, metric=metric)
        self.family = family  # type: ignore[misc]
        if distance is not None and self._guarantee.distance.shape[0] != self._L.shape[0]:
            raise ValueError(
                f"distance must be {self._L.shape[0]} x {self._L.shape[0]} to match the channel rows, "
                f"got {self._guarantee.distance.shape}"
            )

    @property
    def n_inputs(self) -> int:
        return self._L.shape[0]

    @property
    def n_outputs(self) -> int:
        return self._L.shape[1]

    @property
    def guarantee(self) -> Guarantee:
        return self._guarantee

    def _log_channel(self) -> np.ndarray:
        return self._L

    def params(self) -> dict[str, Any]:
        return {"family": self.family, "shape": self.shape, "epsilon": self.epsilon}


def _check_reports_matrix(reports: Any, k: int, name: str = "reports") -> np.ndarray:
    """Boolean ``(n, k)`` report matrix (0/1 or bool), n >= 1."""
    B = np.asarray(reports)
    if B.ndim != 2 or B.shape[1] != k or B.shape[0] < 1:
        raise ValueError(f"{name} must be a boolean (n, {k}) matrix with n >= 1, got shape {B.shape}")
    if B.dtype != bool:
        if B.dtype.kind not in "biuf" or not np.all((B == 0) | (B == 1)):
            raise ValueError(f"{name} must contain only booleans or 0/1")
        B = B.astype(bool)
    return B


def _bits_of_columns(k: int) -> np.ndarray:
    """``(2**k, k)`` boolean: bit ``j`` of column index ``b`` (``b = sum_j b_j 2**j``)."""
    b = np.arange(1 << k, dtype=np.int64)
    return ((b[:, None] >> np.arange(k, dtype=np.int64)[None, :]) & 1).astype(bool)


def _log_comb(n: int, r: int) -> float:
    """``log C(n, r)`` by ``lgamma`` (no big integers)."""
    return math.lgamma(n + 1) - math.lgamma(r + 1) - math.lgamma(n - r + 1)
