r"""Claims as data: typed, falsifiable criteria with provenance.

A chapter reproduces a paper claim by claim.  Each claim is declared **once, as data**, in
``ldpnb/papers/<paper>/claims.py`` (a :class:`Claim`: what the paper says, where it says it, the
kind of criterion and its numbers, and what we expect); the chapter only supplies the measured
numbers (``report.close("T3", ours)``).  The criterion is therefore fixed before the result is
seen, and the status cannot be chosen by branching on the outcome.

Kinds of criterion (every kind is two-sided unless the paper's claim is one-sided):

``close``     ``|ours - target| <= atol + rtol |target|``, elementwise (the deprecated ``z``
              adds ``z se`` for a number recorded with its standard error);
``range``     ``lower <= ours <= upper`` (one bound only when ``one_sided=True``);
``order``     a chain of named measured quantities, ``"IBU < INV-N <= INV-P"``, elementwise, with a
              tie tolerance ``tie + atol + rtol |rhs|`` (values closer than it are tied: a strict ``<``
              fails on a tie, a ``<=`` holds);
``monotone``  ``ys`` increasing or decreasing (strictly, or within a noise ``tol``);
``holds``     a boolean expression over named numbers (``"violations == 0"``), evaluated by a small
              safe evaluator, so that it can be re-evaluated from the JSON;
``none``      not evaluated (the note says why).

Measured quantities with their noise.  ``close``, ``range`` and ``order`` also take an
:class:`~ldpnb.stats.Estimate` (a value with its confidence interval, from :mod:`ldpnb.stats`) and
then decide with **three outcomes** (:func:`decide`): *holds* when the interval lies inside the
claim's region (for ``close`` ``[target - tol, target + tol]``; for ``order`` the region of each
adjacent difference), *reversed* when it lies entirely outside (in some cell, for an elementwise
claim), *undecided* otherwise.  An undecided row has the status ``undecided``: never a pass, and
the row says about how many runs would decide it, or, when the claim declares ``not_by_runs``
(its error is set by something more runs do not change, such as every user of a data set), why
more runs would not.  An exact number, or an exact estimate
(:func:`ldpnb.stats.exact`), is decided exactly as before, bit for bit.

Provenance (``source``):

``paper``        the value or statement is printed in the paper; ``where`` gives the section, figure,
                 table or equation, and ``paper`` holds it (a :class:`Printed`);
``derived``      computed by us from the paper's formulas or data (``reference`` holds it);
``calibration``  a value we chose so that the experiment matches the paper: never a reproduction;
``extension``    beyond the paper;
``invariant``    a property of our implementation.

Expectation (``expect``): ``pass`` (the claim holds: status ``pass``, ``fail`` or ``undecided``),
``diverges`` (the paper's claim does not hold in our reproduction: status ``diverges`` when the
criterion is *reversed* and the optional ``instead`` rule holds, ``undecided`` when it is undecided,
else ``fail``), ``not-evaluated``.

Falsifiability: for every evaluated row a **falsifier** is computed, deciding numbers for which the
row's status would be ``fail``; a criterion for which none is found is refused
(:class:`CriterionError`).  With a declared ``domain`` (the measured quantity's possible values, e.g.
``(0, 1)`` for a probability) the falsifier must lie in it, so a threshold the measurement cannot
miss is refused (already at declaration for ``close`` and ``range``).  Rules with no names, or whose
value does not depend on their names, are refused at declaration.

Power.  For a statistical row (recorded with an estimate, or with the deprecated ``z``/``se``), the
probability that the criterion passes if the true value were at its falsifier truth, the region's
edge moved out by ``effect`` (declared; by default the tolerance ``atol + rtol |target|`` of a
``close``, the tie tolerance of an ``order``, 0 for a ``range``), at the run count used (normal
approximation with the measured interval, :func:`ldpnb.stats.outcome_probability`): above 0.2
(power below 0.8) the row is flagged ``weak test``.

Consequences.  A claim that follows from another row declares ``implied_by="<id>"``: it is still
evaluated, but a holding criterion gets the status ``implied``, not ``pass``: it is not counted as a
check.  (A failing consequence is a ``fail``: it shows that the premise's row or the implication is
wrong.)

Decision log.  A criterion changed after a result was seen keeps its history:
``changes=(CriterionChange(commit, date, seen, was, reason),)``.  The row then shows, next to its
status, the status of every earlier criterion on the same numbers, with the commit and the reason,
and is flagged ``criterion changed``: no silent re-grading.

``tests/test_book.py`` re-evaluates every row of every chapter from its JSON (:func:`verify_row`):
its status, its falsifier, its power and its decision log.
"""

from __future__ import annotations

import ast
import functools
import math
import numbers
import operator
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

import numpy as np

from ldpnb.contracts import Boolean, Instance, OneOf, Raises, contract
from ldpnb.stats import Estimate, difference_of, is_estimate_dict, outcome_probability
from ldpnb.stats import decide as _decide_region
from ldpnb.stats import runs_to_decide as _runs_to_decide

__all__ = [
    "SOURCES",
    "KINDS",
    "EXPECTS",
    "SCALES",
    "OUTCOMES",
    "WEAK",
    "Printed",
    "CriterionChange",
    "Claim",
    "CriterionError",
    "claim_table",
    "decide",
    "evaluate",
    "row_status",
    "falsify",
    "power",
    "runs_needed",
    "original_statuses",
    "describe",
    "verify_row",
    "parse_relation",
]

SOURCES = ("paper", "derived", "calibration", "extension", "invariant")
KINDS = ("close", "range", "order", "monotone", "holds", "none")
EXPECTS = ("pass", "diverges", "not-evaluated")
SCALES = ("smoke", "book", "paper")
OUTCOMES = ("holds", "reversed", "undecided")
#: A statistical row whose criterion passes at its falsifier with a probability above this is a weak test.
WEAK = 0.2


class CriterionError(ValueError):
    """A claim's declaration is malformed, or its criterion cannot fail."""


# the rules of this module's arguments: a refusal is a CriterionError, as the bodies' own checks
_KIND = Raises(OneOf(*KINDS), CriterionError)
_EXPECT = Raises(OneOf(*EXPECTS), CriterionError)
_SCALE = Raises(OneOf(*SCALES), CriterionError)
_CRITERION = Raises(Instance(Mapping, example={"target": 1.0, "atol": 0.1}), CriterionError)
_NUMBERS = Raises(Instance(Mapping, example={"ours": 1.05}), CriterionError)
_RELATION = Raises(Instance(str, example="A < B"), CriterionError)
_CHANGES = Instance(list, tuple, example=[])
_ROW = Instance(Mapping, example={"id": "T1", "status": "not-evaluated", "numbers": None, "falsifier": None})


# ---------------------------------------------------------------------------------------------
# values printed in the paper
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Printed:
    """A value (number, list of numbers, pair of bounds, or a statement) printed in the paper.

    ``where`` names the place: ``"Sec. 7.1"``, ``"Fig. 4"``, ``"Table IV, row 8"``, ``"Eq. (22)"``.
    """

    value: Any
    where: str

    def __post_init__(self):
        if not isinstance(self.where, str) or not self.where.strip():
            raise CriterionError("a printed value needs `where` (section, figure, table or equation)")
        v = self.value
        seq = isinstance(v, (list, tuple))
        items = v if seq else [v]
        ok = (
            isinstance(v, str)
            and v.strip()
            or (
                len(items) > 0
                and all(
                    isinstance(x, str)
                    or (seq and x is None)  # None: the open end of a pair of bounds
                    or (isinstance(x, numbers.Real) and not isinstance(x, bool) and math.isfinite(x))
                    for x in items
                )
            )
        )
        if not ok:
            raise CriterionError(
                f"a printed value is a finite number, a list or pair of them (None for an open end), "
                f"or a statement; got {v!r}"
            )


# ---------------------------------------------------------------------------------------------
# declarations
# ---------------------------------------------------------------------------------------------


def _tol(value: Any, name: str, scale: str | None = None) -> float | None:
    """A tolerance: None, a finite number >= 0, or a dict by scale of such numbers."""
    if value is None:
        return None
    if isinstance(value, Mapping):
        bad = set(value) - set(SCALES)
        if bad:
            raise CriterionError(f"{name}: unknown scale(s) {sorted(bad)}; scales are {SCALES}")
        for v in value.values():
            _tol(v, name)
        return None if scale is None else _tol(value.get(scale, value.get("book")), name)
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value) or value < 0:
        raise CriterionError(
            f"{name} must be a finite number >= 0 (an infinite tolerance passes anything), got {value!r}"
        )
    return float(value)


def _domain(value: Any, name: str) -> tuple[float | None, float | None] | None:
    """A domain: None, or (lo, hi) with finite numbers or None (unbounded), lo < hi."""
    if value is None:
        return None
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise CriterionError(f"{name} must be a pair (lo, hi), None for an unbounded end, got {value!r}")
    out = []
    for v in value:
        if v is None:
            out.append(None)
            continue
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not math.isfinite(v):
            raise CriterionError(f"{name}: the ends must be finite numbers or None, got {value!r}")
        out.append(float(v))
    if out[0] is not None and out[1] is not None and not out[0] < out[1]:
        raise CriterionError(f"{name}: lo must be below hi, got {value!r}")
    return out[0], out[1]


_REL = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
_REL_RE = re.compile(r"\s*(<=|>=|<|>)\s*")


@contract(relation=_RELATION)
def parse_relation(relation: str) -> tuple[list[str], list[str]]:
    """``"A < B <= C"`` -> (["A", "B", "C"], ["<", "<="])."""
    parts = _REL_RE.split(relation.strip())
    names, ops = parts[0::2], parts[1::2]
    if len(names) < 2 or any(not n.strip() for n in names):
        raise CriterionError(f"relation must compare at least two named quantities, got {relation!r}")
    names = [n.strip() for n in names]
    if len(set(names)) < len(names):
        raise CriterionError(
            f"relation {relation!r} names a quantity twice: its value does not depend on the numbers "
            "(A < A never holds, A <= A always does)"
        )
    return names, ops


_COMMIT = re.compile(r"[0-9a-f]{7,40}")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class CriterionChange:
    """One entry of a claim's decision log: its criterion was changed after a result was seen.

    Parameters
    ----------
    commit : str
        The commit (7-40 hex digits) that changed the criterion.
    date : str
        Its date, ``YYYY-MM-DD``.
    seen : {"smoke", "book", "paper"}
        The scale of the recorded result that had been seen when the criterion changed.
    was : mapping
        The criterion before the change: ``{"kind": ..., <its parameters as in the JSON's
        criterion>}`` and optionally ``"expect"`` (when the expectation changed too).
    reason : str
        Why it changed (what it was, what was seen, why the new one is right).

    Examples
    --------
    >>> from ldpnb.repro.claims import CriterionChange
    >>> c = CriterionChange("ba5225d", "2025-01-15", "paper",
    ...                     {"kind": "holds", "rule": "min_ratio >= 10", "expect": "diverges"},
    ...                     "a bare threshold on the minimum of noisy ratios")
    >>> c.was["kind"]
    'holds'
    """

    commit: str
    date: str
    seen: str
    was: Mapping[str, Any]
    reason: str

    def __post_init__(self):
        if not isinstance(self.commit, str) or not _COMMIT.fullmatch(self.commit):
            raise CriterionError(f"a criterion change names its commit (7-40 hex digits), got {self.commit!r}")
        if not isinstance(self.date, str) or not _DATE.fullmatch(self.date):
            raise CriterionError(f"a criterion change has a date YYYY-MM-DD, got {self.date!r}")
        if self.seen not in SCALES:
            raise CriterionError(f"seen must be the scale of the result seen, one of {SCALES}, got {self.seen!r}")
        if not isinstance(self.reason, str) or len(self.reason.strip()) < 10:
            raise CriterionError("a criterion change states its reason (what was seen, why the change)")
        if not isinstance(self.was, Mapping) or self.was.get("kind") not in KINDS or self.was.get("kind") == "none":
            raise CriterionError(f"was must be the earlier criterion, {{'kind': ..., parameters}}, got {self.was!r}")
        if self.was.get("expect", "pass") not in ("pass", "diverges"):
            raise CriterionError(f"was['expect'] must be 'pass' or 'diverges', got {self.was.get('expect')!r}")
        crit = {k: v for k, v in self.was.items() if k not in ("kind", "expect")}
        _check_criterion(self.was["kind"], crit)
        object.__setattr__(self, "was", dict(self.was))

    def as_row(self) -> dict[str, Any]:
        return {
            "commit": self.commit,
            "date": self.date,
            "seen": self.seen,
            "was": _plain(self.was),
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Claim:
    """One claim of a paper, declared as data (see the module docstring).

    The criterion's attributes: ``atol``, ``rtol`` (tolerances; for an order its tie tolerance
    with ``tie``), ``z`` (**deprecated**: a ``close`` over a number and its standard error,
    ``|ours - target| <= atol + rtol |target| + z se``; record an :class:`~ldpnb.stats.Estimate`
    instead, decided with three outcomes), ``lower``/``upper``/``one_sided``, ``relation``,
    ``tie`` (an order's absolute tie tolerance), ``direction``/``strict``/``tol``, ``rule``,
    ``instead``; the statistical ones: ``effect`` (how far beyond the region's edge the claim is
    materially false: the falsifier of the power computation), ``domain`` (the measured quantity's
    possible values ``(lo, hi)``, None for an unbounded end); ``implied_by`` (the id of a row this
    claim follows from: not counted as a check); ``changes`` (the decision log: a tuple of
    :class:`CriterionChange`); ``not_by_runs`` (why more runs of the row's own kind would not decide
    it, e.g. when the data's users, all there are, set its error: an undecided row then shows this
    reason instead of the estimated run count, which would mislead).
    """

    id: str
    claim: str
    source: str
    kind: str
    where: str = ""
    paper: Printed | None = None
    reference: Any = None
    atol: Any = None
    rtol: Any = None
    z: float | None = None
    lower: Any = None
    upper: Any = None
    one_sided: bool = False
    relation: str | None = None
    direction: str | None = None
    strict: bool = False
    tol: Any = None
    rule: str | None = None
    expect: str = "pass"
    instead: str | None = None
    note: str = ""
    scales: tuple[str, ...] = SCALES
    volatile: bool = False
    tie: Any = None
    effect: Any = None
    domain: Any = None
    implied_by: str | None = None
    changes: tuple[CriterionChange, ...] = field(default_factory=tuple)
    not_by_runs: str = ""

    def __post_init__(self):
        sid = self.id
        if not isinstance(sid, str) or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.\-]*", sid):
            raise CriterionError(f"claim id must be a short identifier (letters, digits, _ . -), got {sid!r}")
        if not isinstance(self.claim, str) or not self.claim.strip():
            raise CriterionError(f"{sid}: the claim needs its text")
        if not isinstance(self.where, str):
            raise CriterionError(
                f"{sid}: where must be a string (the section, table or figure), got {type(self.where).__name__}"
            )
        if self.source not in SOURCES:
            raise CriterionError(f"{sid}: source must be one of {SOURCES}, got {self.source!r}")
        if self.kind not in KINDS:
            raise CriterionError(f"{sid}: kind must be one of {KINDS}, got {self.kind!r}")
        if self.expect not in EXPECTS:
            raise CriterionError(f"{sid}: expect must be one of {EXPECTS}, got {self.expect!r}")
        if (
            not isinstance(self.scales, (tuple, list, set, frozenset))
            or not set(self.scales) <= set(SCALES)
            or not self.scales
        ):
            raise CriterionError(f"{sid}: scales must be a non-empty subset of {SCALES}")
        if self.source == "paper":
            if not isinstance(self.paper, Printed):
                raise CriterionError(f"{sid}: a source='paper' claim needs paper=Printed(value, where)")
            if self.reference is not None:
                raise CriterionError(f"{sid}: a source='paper' claim compares with the printed value, not a reference")
        elif self.paper is not None and not isinstance(self.paper, Printed):
            raise CriterionError(f"{sid}: paper must be a Printed value (or None)")
        if not self.where_text:
            raise CriterionError(f"{sid}: where is required (section, figure, table, equation, or how it was derived)")
        if self.expect in ("diverges", "not-evaluated") and not self.note.strip():
            raise CriterionError(f"{sid}: a {self.expect!r} claim needs a note saying why")
        if (self.kind == "none") != (self.expect == "not-evaluated"):
            raise CriterionError(f"{sid}: kind 'none' goes with expect 'not-evaluated' and only with it")
        if self.source == "calibration" and self.expect == "pass" and "calibrat" not in self.note.lower():
            raise CriterionError(f"{sid}: a calibration claim's note must say what was calibrated")
        for name in ("atol", "rtol", "tol", "tie", "effect"):
            _tol(getattr(self, name), f"{sid}: {name}")
        if self.z is not None:
            _tol(self.z, f"{sid}: z")
        dom = _domain(self.domain, f"{sid}: domain")
        if self.tie is not None and self.kind != "order":
            raise CriterionError(f"{sid}: tie is the tie tolerance of an order")
        if (self.effect is not None or dom is not None) and self.kind in ("none",):
            raise CriterionError(f"{sid}: effect and domain belong to an evaluated claim")
        k = self.kind
        if k == "close":
            t = self.target
            if t is None:
                raise CriterionError(f"{sid}: a close claim needs a numeric target (paper value or reference)")
            arr = np.asarray(t, dtype=float)
            if not np.all(np.isfinite(arr)) or arr.size == 0:
                raise CriterionError(f"{sid}: the target must be finite, got {t!r}")
            if dom is not None:
                for scale in self.scales:
                    c = self.criterion(scale)
                    b = c["atol"] + c["rtol"] * np.abs(arr)
                    _refuse_region_covering_domain(sid, arr - b, arr + b, dom)
        elif k == "range":
            lo, hi = self.bounds
            if lo is None and hi is None:
                raise CriterionError(f"{sid}: a range needs a lower or an upper bound")
            if (lo is None or hi is None) and not self.one_sided:
                raise CriterionError(f"{sid}: a one-sided range needs one_sided=True (the paper's claim is one-sided)")
            _check_range(lo, hi, sid)
            if dom is not None:
                _refuse_region_covering_domain(sid, lo, hi, dom)
        elif k == "order":
            parse_relation(self.relation)
        elif k == "monotone":
            if self.direction not in ("increasing", "decreasing"):
                raise CriterionError(f"{sid}: direction must be 'increasing' or 'decreasing'")
        elif k == "holds":
            if not self.rule:
                raise CriterionError(f"{sid}: a holds claim needs a rule (a boolean expression over named numbers)")
            _Expr(self.rule).refuse_constant(f"{sid}: rule")
        if self.instead is not None:
            if self.expect != "diverges":
                raise CriterionError(f"{sid}: `instead` states what holds when the paper's claim diverges")
            _Expr(self.instead).refuse_constant(f"{sid}: instead")
        if self.implied_by is not None:
            if not isinstance(self.implied_by, str) or self.implied_by == sid or not self.implied_by.strip():
                raise CriterionError(f"{sid}: implied_by names another claim's id, got {self.implied_by!r}")
            if self.expect != "pass":
                raise CriterionError(
                    f"{sid}: implied_by goes with expect 'pass' (a consequence that holds is not counted as a check)"
                )
        if not isinstance(self.changes, tuple) or not all(isinstance(c, CriterionChange) for c in self.changes):
            raise CriterionError(f"{sid}: changes must be a tuple of CriterionChange (the decision log)")
        if not isinstance(self.not_by_runs, str):
            raise CriterionError(f"{sid}: not_by_runs is the reason (a string) why more runs would not decide the row")
        if self.not_by_runs.strip() and self.kind not in ("close", "range", "order"):
            raise CriterionError(f"{sid}: not_by_runs belongs to a statistical row (close, range or order)")
        if self.changes and self.kind == "none":
            raise CriterionError(f"{sid}: a not-evaluated claim has no criterion to change")

    # ----------------------------------------------------------------------------- helpers
    @property
    def where_text(self) -> str:
        w = self.where or (self.paper.where if isinstance(self.paper, Printed) else "")
        return w.strip()

    @property
    def target(self) -> Any:
        if self.source == "paper" and isinstance(self.paper, Printed) and self.kind in ("close",):
            return self.paper.value
        return self.reference

    @property
    def bounds(self) -> tuple[Any, Any]:
        lo, hi = self.lower, self.upper
        if (
            lo is None
            and hi is None
            and isinstance(self.paper, Printed)
            and isinstance(self.paper.value, (tuple, list))
            and len(self.paper.value) == 2
        ):
            lo, hi = self.paper.value
        return lo, hi

    @contract(scale=_SCALE)
    def criterion(self, scale: str) -> dict[str, Any]:
        """The criterion's parameters at ``scale`` (what the JSON records and the tests re-evaluate).

        The statistical attributes (``tie``, ``effect``, ``domain``) appear only when declared."""
        if scale not in SCALES:
            raise CriterionError(f"scale must be one of {SCALES}, got {scale!r}")
        k = self.kind
        if k == "close":
            c = {
                "target": _plain(self.target),
                "atol": _tol(self.atol, "atol", scale) or 0.0,
                "rtol": _tol(self.rtol, "rtol", scale) or 0.0,
                "z": self.z,
            }
        elif k == "range":
            lo, hi = self.bounds
            c = {"lower": _plain(lo), "upper": _plain(hi)}
        elif k == "order":
            c = {
                "relation": self.relation,
                "atol": _tol(self.atol, "atol", scale) or 0.0,
                "rtol": _tol(self.rtol, "rtol", scale) or 0.0,
            }
            if self.tie is not None:
                c["tie"] = _tol(self.tie, "tie", scale) or 0.0
        elif k == "monotone":
            c = {"direction": self.direction, "strict": bool(self.strict), "tol": _tol(self.tol, "tol", scale) or 0.0}
        elif k == "holds":
            c = {"rule": self.rule}
        else:
            return {}
        if self.effect is not None:
            c["effect"] = _tol(self.effect, "effect", scale) or 0.0
        if self.domain is not None:
            c["domain"] = list(_domain(self.domain, "domain"))
        return c

    @contract(scale=_SCALE)
    def full_criterion(self, scale: str) -> dict[str, Any]:
        """:meth:`criterion` plus the ``instead`` rule of a diverging claim (everything the status needs)."""
        c = self.criterion(scale)
        if self.instead is not None:
            c["instead"] = self.instead
        return c


def _check_range(lo: Any, hi: Any, where: str = "range") -> None:
    """A range's bounds: finite numbers (or None), non-empty arrays, lower <= upper."""
    arrs = []
    for name, b in (("lower", lo), ("upper", hi)):
        if b is None:
            arrs.append(None)
            continue
        try:
            a = _num(b)
        except (TypeError, ValueError):
            raise CriterionError(f"{where}: {name} must be a number or an array of numbers, got {b!r:.80}") from None
        if a.size == 0:
            raise CriterionError(f"{where}: {name} is empty")
        if not np.all(np.isfinite(a)):
            raise CriterionError(
                f"{where}: {name} must be finite (a NaN or infinite bound makes the range "
                f"never or always hold), got {b!r:.80}"
            )
        arrs.append(a)
    if arrs[0] is not None and arrs[1] is not None:
        try:
            inverted = np.any(arrs[0] > arrs[1])
        except ValueError:
            raise CriterionError(f"{where}: lower and upper have incompatible shapes") from None
        if inverted:
            raise CriterionError(f"{where}: lower must be <= upper (an inverted range never holds)")


def _refuse_region_covering_domain(sid: str, lo: Any, hi: Any, dom: tuple) -> None:
    dlo = -np.inf if dom[0] is None else dom[0]
    dhi = np.inf if dom[1] is None else dom[1]
    L = -np.inf if lo is None else _num(lo)
    U = np.inf if hi is None else _num(hi)
    if np.all((L <= dlo) & (U >= dhi)):
        raise CriterionError(
            f"{sid}: the criterion cannot fail: its region [{_short(lo)}, {_short(hi)}] covers the "
            f"measured quantity's whole domain {list(dom)}"
        )
    if np.any((L > dhi) | (U < dlo)):
        raise CriterionError(
            f"{sid}: the criterion can never pass: its region [{_short(lo)}, {_short(hi)}] lies outside the "
            f"measured quantity's domain {list(dom)}"
        )


@contract()  # the claims are checked in the body (a rule names one argument, not each of *claims)
def claim_table(*claims: Claim) -> dict[str, Claim]:
    """The claims of one paper, by id (ids unique; ``implied_by`` names a claim of the table)."""
    if not claims:
        raise CriterionError("a claims table needs at least one claim")
    out: dict[str, Claim] = {}
    for s in claims:
        if not isinstance(s, Claim):
            raise CriterionError(f"claim_table takes Claim objects, got {type(s).__name__}")
        if s.id in out:
            raise CriterionError(f"duplicate claim id {s.id!r}")
        out[s.id] = s
    for s in out.values():
        if s.implied_by is not None and s.implied_by not in out:
            raise CriterionError(f"{s.id}: implied_by names {s.implied_by!r}, which is not in the table")
    return out


# ---------------------------------------------------------------------------------------------
# evaluation (from data: works on a Claim's criterion dict and on a JSON row alike)
# ---------------------------------------------------------------------------------------------


def _plain(v: Any) -> Any:
    """JSON-able copy: numpy scalars/arrays to Python numbers/lists; tuples to lists; an
    :class:`~ldpnb.stats.Estimate` to its dict."""
    if v is None or isinstance(v, (str, bool)):
        return v
    if isinstance(v, Estimate):
        return v.to_dict()
    if isinstance(v, np.bool_):
        return bool(v)
    if isinstance(v, (numbers.Integral, np.integer)):
        return int(v)
    if isinstance(v, (numbers.Real, np.floating)):
        f = float(v)
        return f if math.isfinite(f) else ("nan" if math.isnan(f) else ("inf" if f > 0 else "-inf"))
    if isinstance(v, Mapping):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, np.ndarray)):
        return (
            [_plain(x) for x in np.asarray(v, dtype=object).tolist()]
            if isinstance(v, np.ndarray)
            else [_plain(x) for x in v]
        )
    return str(v)


def _num(v: Any) -> np.ndarray:
    """Numbers from JSON or Python: 'nan'/'inf' strings back to floats."""

    def conv(x):
        if isinstance(x, str):
            return float(x)
        if isinstance(x, (list, tuple)):
            return [conv(y) for y in x]
        return x

    return np.asarray(conv(_plain(v)), dtype=float)


_FUNCS = {
    "abs": np.abs,
    "max": np.max,
    "min": np.min,
    "sum": np.sum,
    "all": np.all,
    "any": np.any,
    "len": len,
    "log": np.log,
    "exp": np.exp,
    "sqrt": np.sqrt,
    "mean": np.mean,
    "median": np.median,
    "isfinite": np.isfinite,
    "round": np.round,
}
_CMP = {
    ast.Lt: np.less,
    ast.LtE: np.less_equal,
    ast.Gt: np.greater,
    ast.GtE: np.greater_equal,
    ast.Eq: np.equal,
    ast.NotEq: np.not_equal,
}
_BIN = {
    ast.Add: np.add,
    ast.Sub: np.subtract,
    ast.Mult: np.multiply,
    ast.Div: np.true_divide,
    ast.Pow: np.power,
    ast.Mod: np.mod,
}


def _ident(name: str) -> str:
    """A rule-friendly name: ``"INV-N"`` -> ``INV_N``."""
    return re.sub(r"\W", "_", str(name))


def _is_est(v: Any) -> bool:
    return isinstance(v, Estimate) or is_estimate_dict(v)


def _est(v: Any) -> Estimate:
    return v if isinstance(v, Estimate) else Estimate.from_dict(v)


def _env(numbers: Mapping[str, Any]) -> dict[str, Any]:
    """Names a rule can use: the numbers, plus the entries of a nested ``values`` mapping; an
    estimate ``x`` gives ``x`` (its value), ``x_low`` and ``x_high``."""

    def put(env, k, v, overwrite):
        if _is_est(v):
            e = _est(v)
            items = ((k, e.value), (f"{k}_low", e.low), (f"{k}_high", e.high))
        else:
            items = ((k, v),)
        for kk, vv in items:
            if overwrite:
                env[kk] = vv
            else:
                env.setdefault(kk, vv)

    env: dict[str, Any] = {}
    for k, v in numbers.items():
        if _is_est(v) or not isinstance(v, Mapping):
            put(env, k, v, True)
    for k, v in numbers.items():
        if isinstance(v, Mapping) and not _is_est(v):
            for kk, vv in v.items():
                put(env, _ident(kk), vv, False)
    return env


_PROBE_VALUES = (
    0.0,
    1.0,
    -1.0,
    0.5,
    2.0,
    3.0,
    10.0,
    100.0,
    1e3,
    1e6,
    -1e6,
    1e-9,
    -0.5,
    0.99,
    float("nan"),
    float("inf"),
    float("-inf"),
)


_EXTREME_PROBES = (1e300, -1e300, 1e-300, -1e-300, 1e15, -1e15, 1e-15, 7.0, -7.0, 0.25)


def _probes(names: list[str]) -> Iterable[dict[str, Any]]:
    """Deterministic assignments of the names: every name equal to one value, then random values,
    then random arrays of 3 values."""
    vals = np.array(_PROBE_VALUES)
    for v in vals:
        yield {n: v for n in names}
    g = np.random.default_rng(20240611)
    for _ in range(96):
        yield {n: vals[g.integers(vals.size)] for n in names}
    for _ in range(48):
        yield {n: vals[g.integers(vals.size, size=3)] for n in names}
    for v in _EXTREME_PROBES:  # finite extremes: a bound far out is still a bound
        yield {n: v for n in names}
    for _ in range(32):
        yield {n: _EXTREME_PROBES[g.integers(len(_EXTREME_PROBES))] for n in names}


class _Expr:
    """A boolean expression over named numbers: arithmetic, comparisons (chained), and/or/not,
    and the functions abs, max, min, sum, all, any, len, log, exp, sqrt, mean, median, isfinite,
    round.  Arrays compare elementwise; the result is true when every element is true."""

    def __init__(self, text: str):
        if not isinstance(text, str) or not text.strip():
            raise CriterionError(f"a rule must be a non-empty expression, got {text!r}")
        try:
            self.tree = ast.parse(text.strip(), mode="eval")
        except SyntaxError as e:
            raise CriterionError(f"rule {text!r} is not an expression: {e.msg}") from None
        self.text = text
        self.names = set()
        self._check(self.tree.body)

    def _check(self, n):
        if isinstance(n, ast.Name):
            if n.id not in _FUNCS and n.id not in ("True", "False", "nan", "inf"):
                self.names.add(n.id)
            return
        allowed = (
            (
                ast.BoolOp,
                ast.And,
                ast.Or,
                ast.UnaryOp,
                ast.Not,
                ast.USub,
                ast.UAdd,
                ast.BinOp,
                ast.Compare,
                ast.Call,
                ast.Constant,
                ast.Subscript,
                ast.Index if hasattr(ast, "Index") else ast.Constant,
                ast.Load,
                ast.List,
                ast.Tuple,
            )
            + tuple(_CMP)
            + tuple(_BIN)
        )
        if not isinstance(n, allowed):
            raise CriterionError(f"rule {self.text!r}: {type(n).__name__} is not allowed")
        if isinstance(n, ast.Call):
            if not (isinstance(n.func, ast.Name) and n.func.id in _FUNCS) or n.keywords:
                raise CriterionError(f"rule {self.text!r}: only calls of {sorted(_FUNCS)} are allowed")
            for a in n.args:
                self._check(a)
            return
        for c in ast.iter_child_nodes(n):
            self._check(c)

    def refuse_constant(self, where: str) -> None:
        """Refuse a rule that cannot fail on the numbers a row records.

        Refused: a rule with no names (a constant); a rule comparing an expression with itself
        (``x == x``, ``f(x) <= f(x)``: true for every number, false only for NaN); a rule true on
        every probe of its names (``x == x or True``); and a rule true on every *finite* probe
        (``abs(x) >= 0``, ``x - x == 0``): such a rule tests only whether its numbers are finite,
        which must then be said with ``isfinite`` (a rule calling ``isfinite`` may fail on non-finite
        numbers only)."""
        if not self.names:
            raise CriterionError(
                f"{where} {self.text!r} names no number: its value is a constant, fixed before any "
                "result (a rule must be an expression over named numbers)"
            )
        for node in ast.walk(self.tree.body):
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                for a, b in zip(sides[:-1], sides[1:]):
                    if ast.dump(a) == ast.dump(b):
                        raise CriterionError(
                            f"{where} {self.text!r} compares {ast.unparse(a)!r} with itself: the comparison "
                            "has the same value for every number and cannot fail on a finite one (it differs only "
                            "on NaN; write isfinite(...) to test for a finite number)"
                        )
        seen: set[bool] = set()
        seen_finite: set[bool] = set()
        tried = tried_finite = 0
        for probe in _probes(sorted(self.names)):
            try:
                with np.errstate(all="ignore"):
                    v = np.asarray(self._eval(self.tree.body, probe))
            except Exception:
                continue
            ok = bool(v.size > 0 and np.all(v))
            tried += 1
            seen.add(ok)
            if all(np.all(np.isfinite(x)) for x in probe.values()):
                tried_finite += 1
                seen_finite.add(ok)
            if len(seen_finite) == 2:
                return
        if tried >= 10 and seen == {True}:
            raise CriterionError(
                f"{where} {self.text!r} is true for every value of {sorted(self.names)} tried: it "
                "does not depend on its names and cannot fail"
            )
        tests_finite = any(
            isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "isfinite"
            for n in ast.walk(self.tree.body)
        )
        if tried_finite >= 10 and seen_finite == {True} and not tests_finite:
            raise CriterionError(
                f"{where} {self.text!r} is true for every finite value of {sorted(self.names)} tried: "
                "it cannot fail on a finite result, only on NaN or infinite numbers "
                "(write isfinite(...) if finiteness is the claim)"
            )

    def __call__(self, numbers: Mapping[str, Any]) -> bool:
        env = _env(numbers)
        missing = self.names - set(env)
        if missing:
            raise CriterionError(f"rule {self.text!r} needs the numbers {sorted(missing)}")
        with np.errstate(all="ignore"):
            v = self._eval(self.tree.body, env)
        arr = np.asarray(v)
        return bool(arr.size > 0 and np.all(arr))

    def _eval(self, n, env):
        if isinstance(n, ast.Constant):
            return n.value
        if isinstance(n, ast.Name):
            if n.id in ("nan", "inf"):
                return float(n.id)
            if n.id in ("True", "False"):
                return n.id == "True"
            v = env[n.id]
            return v if isinstance(v, (bool, np.bool_)) else _num(v) if not isinstance(v, np.ndarray) else v
        if isinstance(n, (ast.List, ast.Tuple)):
            return np.asarray([self._eval(e, env) for e in n.elts], dtype=float)
        if isinstance(n, ast.BoolOp):
            vals = [np.all(self._eval(v, env)) for v in n.values]
            return all(vals) if isinstance(n.op, ast.And) else any(vals)
        if isinstance(n, ast.UnaryOp):
            v = self._eval(n.operand, env)
            if isinstance(n.op, ast.Not):
                return not bool(np.all(v))
            return -np.asarray(v, dtype=float) if isinstance(n.op, ast.USub) else v
        if isinstance(n, ast.BinOp):
            return _BIN[type(n.op)](
                np.asarray(self._eval(n.left, env), dtype=float), np.asarray(self._eval(n.right, env), dtype=float)
            )
        if isinstance(n, ast.Compare):
            left = self._eval(n.left, env)
            ok = True
            for op, right_node in zip(n.ops, n.comparators):
                right = self._eval(right_node, env)
                ok = np.logical_and(ok, _CMP[type(op)](left, right))
                left = right
            return ok
        if isinstance(n, ast.Subscript):
            base = np.asarray(self._eval(n.value, env))
            sl = n.slice.value if hasattr(ast, "Index") and isinstance(n.slice, ast.Index) else n.slice
            return base[int(self._eval(sl, env))]
        if isinstance(n, ast.Call):
            f = _FUNCS[n.func.id]
            args = [self._eval(a, env) for a in n.args]
            return f(*args)
        raise CriterionError(f"rule {self.text!r}: cannot evaluate {type(n).__name__}")


def _check_criterion(kind: str, criterion: Mapping[str, Any]) -> None:
    """Refuse what no criterion may hold, also when it comes from JSON or a caller of the
    low-level functions: non-finite or negative tolerances, NaN, empty or inverted ranges."""
    if not isinstance(criterion, Mapping):
        raise CriterionError(f"a criterion is a mapping of its parameters, got {criterion!r:.80}")
    for name in ("atol", "rtol", "tol", "tie", "effect", "z"):
        v = criterion.get(name)
        if v is None:
            continue
        if isinstance(v, str):
            try:
                v = float(v)
            except ValueError:
                raise CriterionError(f"{name} must be a finite number >= 0, got {v!r}") from None
        _tol(v, name)
    if kind == "close":
        if "target" not in criterion:
            raise CriterionError("a close criterion needs its target")
        t = _num(criterion["target"])
        if t.size == 0 or not np.all(np.isfinite(t)):
            raise CriterionError(f"the target must be finite and non-empty, got {criterion['target']!r:.80}")
    elif kind == "range":
        lo, hi = criterion.get("lower"), criterion.get("upper")
        if lo is None and hi is None:
            raise CriterionError("a range needs a lower or an upper bound")
        _check_range(lo, hi)
    elif kind == "order":
        parse_relation(criterion.get("relation"))
    elif kind == "monotone":
        if criterion.get("direction") not in ("increasing", "decreasing"):
            raise CriterionError("direction must be 'increasing' or 'decreasing'")
    elif kind == "holds":
        _Expr(criterion.get("rule"))  # refused as constant where it is evaluated (_legacy)
    elif kind != "none":
        raise CriterionError(f"kind {kind!r} is not one of {KINDS}")
    if criterion.get("domain") is not None:
        _domain(tuple(criterion["domain"]), "domain")


def _refuse_constant_rule(text: Any, name: str) -> None:
    """The low-level functions (``evaluate``, ``row_status``, ...) refuse a constant rule as
    :class:`Claim` does at declaration (an accepted rule is checked once per text)."""
    if not isinstance(text, str):
        _Expr(text)  # refuses a non-string with its message
    _refuse_constant_text(text, name)


@functools.lru_cache(maxsize=4096)
def _refuse_constant_text(text: str, name: str) -> None:
    _Expr(text).refuse_constant(name)  # a refusal raises and is not cached


def _legacy(kind: str, criterion: Mapping[str, Any], numbers: Mapping[str, Any]) -> bool:
    """Whether exact ``numbers`` meet the criterion (the rules of the exact kinds, unchanged)."""
    if kind == "close":
        o, t = _num(numbers["ours"]), _num(criterion["target"])
        if o.shape != t.shape and t.ndim > 0:
            raise CriterionError(f"ours has shape {o.shape} but the target has shape {t.shape}")
        bound = float(criterion.get("atol") or 0.0) + float(criterion.get("rtol") or 0.0) * np.abs(t)
        z = criterion.get("z")
        if z is not None:
            if numbers.get("se") is None:
                raise CriterionError("a close criterion with z needs the standard error `se` among the numbers")
            bound = bound + float(z) * _num(numbers["se"])
        return bool(o.size > 0 and np.all(np.isfinite(o)) and np.all(np.abs(o - t) <= bound))
    if kind == "range":
        o = _num(numbers["ours"])
        ok = o.size > 0 and np.all(np.isfinite(o))
        if criterion.get("lower") is not None:
            ok = ok and np.all(o >= _num(criterion["lower"]))
        if criterion.get("upper") is not None:
            ok = ok and np.all(o <= _num(criterion["upper"]))
        return bool(ok)
    if kind == "order":
        names, ops = parse_relation(criterion["relation"])
        vals = numbers["values"]
        missing = [n for n in names if n not in vals]
        if missing:
            raise CriterionError(f"order {criterion['relation']!r} needs the values of {missing}")
        atol, rtol = float(criterion.get("atol") or 0.0), float(criterion.get("rtol") or 0.0)
        tie = float(criterion.get("tie") or 0.0)
        ok = True
        for (a, b), op in zip(zip(names[:-1], names[1:]), ops):
            va, vb = _num(vals[a]), _num(vals[b])
            if not (np.all(np.isfinite(va)) and np.all(np.isfinite(vb))):
                return False
            m = atol + rtol * np.abs(vb)
            if tie:
                m = m + tie
            if op == "<":
                r = va < vb - m
            elif op == ">":
                r = va > vb + m
            elif op == "<=":
                r = va <= vb + m
            else:
                r = va >= vb - m
            ok = ok and bool(np.all(r))
        return bool(ok)
    if kind == "monotone":
        ys = _num(numbers["ys"])
        if ys.ndim != 1 or ys.size < 2 or not np.all(np.isfinite(ys)):
            return False
        d = np.diff(ys) * (1 if criterion["direction"] == "increasing" else -1)
        tol = float(criterion.get("tol") or 0.0)
        return bool(np.all(d > tol) if criterion.get("strict") else np.all(d >= -tol))
    if kind == "holds":
        _refuse_constant_rule(criterion["rule"], "rule")
        return _Expr(criterion["rule"])(numbers)
    raise CriterionError(f"kind {kind!r} is not evaluated")


def _exact_numbers(numbers: Mapping[str, Any]) -> dict[str, Any]:
    """``numbers`` with every exact estimate replaced by its value (for the exact rules)."""
    out = {}
    for k, v in numbers.items():
        if _is_est(v):
            out[k] = _plain(_est(v).value)
        elif isinstance(v, Mapping):
            out[k] = _exact_numbers(v)
        else:
            out[k] = v
    return out


def _statistical(kind: str, numbers: Mapping[str, Any]) -> bool:
    """Whether the numbers hold a non-exact estimate (then three outcomes)."""
    if kind in ("close", "range"):
        return _is_est(numbers.get("ours")) and not _est(numbers["ours"]).exact
    if kind == "order":
        vals = numbers.get("values") or {}
        return bool(numbers.get("differences")) or any(_is_est(v) and not _est(v).exact for v in vals.values())
    for v in numbers.values():
        if _is_est(v) or (isinstance(v, Mapping) and any(_is_est(x) for x in v.values())):
            raise CriterionError(
                f"a {kind} criterion takes exact numbers; record an estimate with close, range or order"
            )
    return False


def _combine(outcomes: Iterable[Any]) -> str:
    """A claim over cells (or pairs) holds when every one holds, is reversed when one is."""
    if isinstance(outcomes, np.ndarray):
        flat = [str(o) for o in outcomes.ravel()]
    else:
        flat = [str(o) for x in outcomes for o in np.ravel(np.asarray(x, dtype=object))]
    if "reversed" in flat:
        return "reversed"
    return "holds" if all(o == "holds" for o in flat) else "undecided"


def _close_region(criterion: Mapping[str, Any], shape: tuple) -> tuple[np.ndarray, np.ndarray]:
    t = _num(criterion["target"])
    if t.ndim > 0 and t.shape != shape:
        raise CriterionError(f"the estimate has shape {shape} but the target has shape {t.shape}")
    b = float(criterion.get("atol") or 0.0) + float(criterion.get("rtol") or 0.0) * np.abs(t)
    if np.any(b <= 0):
        raise CriterionError(
            "a close criterion on an estimate needs a tolerance atol + rtol |target| > 0: the "
            "region its interval must lie in (an interval never lies inside a point)"
        )
    return t - b, t + b


def _neg(e: Estimate) -> Estimate:
    return Estimate(
        -np.asarray(e.value),
        -np.asarray(e.high),
        -np.asarray(e.low),
        level=e.level,
        se=e.se,
        n_runs=e.n_runs,
        method=e.method,
        simultaneous=e.simultaneous,
        note=e.note,
    )


def _as_est(v: Any) -> Estimate:
    if _is_est(v):
        return _est(v)
    a = _num(v)
    return Estimate(a, a, a, level=1.0, se=np.zeros_like(a), method="exact")


def _order_pairs(
    criterion: Mapping[str, Any], numbers: Mapping[str, Any]
) -> list[tuple[Estimate, Any, Any, bool, bool]]:
    """For each adjacent pair ``a op b`` of the relation: the estimate of ``b - a`` and its region
    (lower, upper, lower_open, upper_open)."""
    names, ops = parse_relation(criterion["relation"])
    vals = numbers["values"]
    missing = [n for n in names if n not in vals]
    if missing:
        raise CriterionError(f"order {criterion['relation']!r} needs the values of {missing}")
    diffs = dict(numbers.get("differences") or {})
    adjacent = list(zip(names[:-1], names[1:]))
    pairs = {f"{b} - {a}" for a, b in adjacent} | {f"{a} - {b}" for a, b in adjacent}
    unknown = set(diffs) - pairs
    if unknown:
        raise CriterionError(
            f"differences {sorted(unknown)} are not differences of adjacent names of "
            f"{criterion['relation']!r} (write 'B - A')"
        )
    atol, rtol = float(criterion.get("atol") or 0.0), float(criterion.get("rtol") or 0.0)
    tie = float(criterion.get("tie") or 0.0)
    out = []
    for (a, b), op in zip(zip(names[:-1], names[1:]), ops):
        if f"{b} - {a}" in diffs:
            d = _est(diffs[f"{b} - {a}"])
        elif f"{a} - {b}" in diffs:
            d = _neg(_est(diffs[f"{a} - {b}"]))
        else:
            d = difference_of(_as_est(vals[b]), _as_est(vals[a]))
        m = atol + rtol * np.abs(np.asarray(_as_est(vals[b]).value)) + tie
        if op == "<":
            out.append((d, m, None, True, False))
        elif op == "<=":
            out.append((d, -m, None, False, False))
        elif op == ">":
            out.append((d, None, -m, False, True))
        else:
            out.append((d, None, m, False, False))
    return out


@contract(kind=_KIND, criterion=_CRITERION, numbers=_NUMBERS)
def decide(kind: str, criterion: Mapping[str, Any], numbers: Mapping[str, Any]) -> str:
    """``"holds"``, ``"reversed"`` or ``"undecided"``: the criterion on ``numbers``.

    Exact numbers (and exact estimates) are decided by the exact rules, never undecided; a non-exact
    estimate (``close``, ``range``, ``order``) by its interval (see the module docstring)."""
    _check_criterion(kind, criterion)
    if not isinstance(numbers, Mapping):
        raise CriterionError(f"numbers must be a mapping of the row's named numbers, got {type(numbers).__name__}")
    if not _statistical(kind, numbers):
        return "holds" if _legacy(kind, criterion, _exact_numbers(numbers)) else "reversed"
    if kind == "close":
        if criterion.get("z") is not None:
            raise CriterionError(
                "z (deprecated) grades a number with its se; an estimate carries its interval: "
                "declare the close claim without z"
            )
        e = _est(numbers["ours"])
        lo, hi = _close_region(criterion, e.shape)
        return _combine(_decide_region(e, lo, hi))
    if kind == "range":
        e = _est(numbers["ours"])
        lo = _num(criterion["lower"]) if criterion.get("lower") is not None else None
        hi = _num(criterion["upper"]) if criterion.get("upper") is not None else None
        return _combine(_decide_region(e, lo, hi))
    out = []
    for d, lo, hi, lo_open, hi_open in _order_pairs(criterion, numbers):
        out.append(_combine(_decide_region(d, lo, hi, lower_open=lo_open, upper_open=hi_open)))
    return _combine(out)


@contract(kind=_KIND, criterion=_CRITERION, numbers=_NUMBERS)
def evaluate(kind: str, criterion: Mapping[str, Any], numbers: Mapping[str, Any]) -> bool:
    """Whether ``numbers`` meet the criterion (the paper's claim, as operationalised): :func:`decide`
    gives ``"holds"``."""
    return decide(kind, criterion, numbers) == "holds"


@contract(kind=_KIND, criterion=_CRITERION, numbers=_NUMBERS, expect=_EXPECT, implied=Boolean())
def row_status(
    kind: str, criterion: Mapping[str, Any], numbers: Mapping[str, Any], expect: str, *, implied: bool = False
) -> str:
    """The row's status from its numbers.

    ``expect="pass"``: ``pass`` (``implied`` for a consequence of another row), ``fail``
    (reversed) or ``undecided``.  ``expect="diverges"``: ``diverges`` when the criterion is
    reversed and the optional ``criterion["instead"]`` rule holds, ``undecided`` when undecided,
    ``fail`` otherwise (the paper's claim holds: the recorded divergence is not reproduced)."""
    instead = criterion.get("instead")
    out = decide(kind, criterion, numbers)
    if expect == "pass":
        if out == "undecided":
            return "undecided"
        return ("implied" if implied else "pass") if out == "holds" else "fail"
    if expect == "diverges":
        if out == "holds":
            return "fail"
        if out == "undecided":
            return "undecided"
        if instead is not None:
            _refuse_constant_rule(instead, "instead")
        if instead is not None and not _Expr(instead)(numbers):
            return "fail"
        return "diverges"
    raise CriterionError(f"expect {expect!r} has no status from numbers")


# ---------------------------------------------------------------------------------------------
# power, runs to decide, the decision log
# ---------------------------------------------------------------------------------------------


def _regions(kind: str, criterion: Mapping[str, Any], numbers: Mapping[str, Any]):
    """Per decided quantity: (estimate, lower, upper, lower_open, upper_open, default effect, claim
    lower, claim upper): the region the interval is decided against, and the claim's own region
    (where the falsifier truth is measured from; they differ for the deprecated ``z`` rule, whose
    acceptance region is the claim's widened by ``z se``)."""
    if kind == "close":
        if criterion.get("z") is not None:  # deprecated: a number with its se
            o = numbers["ours"]
            v = np.asarray(_est(o).value if _is_est(o) else _num(o), dtype=float)
            se = np.broadcast_to(_num(numbers["se"]), v.shape)
            e = Estimate(v, v, v, level=0.95, se=se, method="normal")
            t = _num(criterion["target"])
            b = float(criterion.get("atol") or 0.0) + float(criterion.get("rtol") or 0.0) * np.abs(t)
            w = b + float(criterion["z"]) * np.asarray(e.se)
            return [(e, t - w, t + w, False, False, b, t - b, t + b)]
        e = _est(numbers["ours"])
        lo, hi = _close_region(criterion, e.shape)
        return [(e, lo, hi, False, False, (hi - lo) / 2, lo, hi)]
    if kind == "range":
        e = _est(numbers["ours"])
        lo = _num(criterion["lower"]) if criterion.get("lower") is not None else None
        hi = _num(criterion["upper"]) if criterion.get("upper") is not None else None
        return [(e, lo, hi, False, False, 0.0, lo, hi)]
    out = []
    for d, lo, hi, lo_open, hi_open in _order_pairs(criterion, numbers):
        out.append((d, lo, hi, lo_open, hi_open, np.abs(hi if lo is None else lo), lo, hi))
    return out


def _is_statistical_row(kind: str, criterion: Mapping[str, Any], numbers: Mapping[str, Any]) -> bool:
    if kind == "close" and criterion.get("z") is not None and numbers.get("se") is not None:
        return True
    try:
        return _statistical(kind, numbers)
    except CriterionError:
        return False


@contract(kind=_KIND, criterion=_CRITERION, numbers=_NUMBERS, expect=_EXPECT)
def power(kind: str, criterion: Mapping[str, Any], numbers: Mapping[str, Any], expect: str) -> dict[str, Any] | None:
    """For a statistical row, the probability that its criterion gives the expected status if the
    true value were at its falsifier truth (normal approximation at the measured interval, see
    :func:`ldpnb.stats.outcome_probability`); None for an exact row.

    The falsifier truth is the region's edge moved out by ``criterion["effect"]`` (default: the
    tolerance of a ``close``, the tie tolerance of an ``order``, 0 for a ``range``) for a row
    expected to pass, and moved in by it (at most to the region's centre) for a row expected to
    diverge; clipped to the declared domain (a side beyond the domain is skipped).  Over cells and
    over the pairs of an order, the largest probability (one false cell suffices to make the claim
    false, the others passing).  Returns ``{"pass_probability", "falsifier_truth", "effect",
    "weak"}`` with ``weak`` true above :data:`WEAK`.
    """
    if expect not in ("pass", "diverges") or not _is_statistical_row(kind, criterion, numbers):
        return None
    dom = criterion.get("domain")
    dlo = -np.inf if not dom or dom[0] is None else float(dom[0])
    dhi = np.inf if not dom or dom[1] is None else float(dom[1])
    best, truth_at, eff_used = 0.0, None, None
    for e, lo, hi, lo_open, hi_open, default_eff, clo, chi in _regions(kind, criterion, numbers):
        eff = np.asarray(criterion["effect"] if criterion.get("effect") is not None else default_eff, dtype=float)
        shape = np.shape(e.value)
        L = None if lo is None else np.broadcast_to(np.asarray(lo, dtype=float), shape)
        U = None if hi is None else np.broadcast_to(np.asarray(hi, dtype=float), shape)
        CL = None if clo is None else np.broadcast_to(np.asarray(clo, dtype=float), shape)
        CU = None if chi is None else np.broadcast_to(np.asarray(chi, dtype=float), shape)
        sides = []
        if expect == "pass":
            if CL is not None:
                sides.append(CL - eff)
            if CU is not None:
                sides.append(CU + eff)
            outcome = "holds"
        else:
            centre = (CL + CU) / 2 if (CL is not None and CU is not None) else None
            if CL is not None:
                sides.append(CL + eff if centre is None else np.minimum(CL + eff, centre))
            if CU is not None:
                sides.append(CU - eff if centre is None else np.maximum(CU - eff, centre))
            outcome = "reversed"
        for truth in sides:
            truth = np.broadcast_to(truth, shape)
            ok = (truth >= dlo) & (truth <= dhi)
            if not np.any(ok):
                continue
            p = np.asarray(outcome_probability(e, L, U, truth, outcome=outcome))
            p = np.where(ok, p, 0.0)
            i = int(np.argmax(p)) if p.ndim else 0
            if float(np.max(p)) >= best:
                best = float(np.max(p))
                truth_at = float(np.ravel(truth)[i])
                eff_used = float(np.ravel(np.broadcast_to(eff, shape))[i])
    if truth_at is None:
        return None
    best = round(best, 9)
    return {"pass_probability": best, "falsifier_truth": truth_at, "effect": eff_used, "weak": best > WEAK}


@contract(kind=_KIND, criterion=_CRITERION, numbers=_NUMBERS)
def runs_needed(kind: str, criterion: Mapping[str, Any], numbers: Mapping[str, Any]) -> dict[str, Any] | None:
    """For an undecided statistical row, about how many runs would decide it
    (:func:`ldpnb.stats.runs_to_decide`, the largest over its quantities); None otherwise."""
    if not isinstance(criterion, Mapping):
        raise CriterionError(f"criterion must be a mapping, got {type(criterion).__name__}")
    for key in ("atol", "rtol", "tol"):
        if key in criterion:
            _tol(criterion[key], key)
    if not _is_statistical_row(kind, criterion, numbers) or criterion.get("z") is not None:
        return None
    if decide(kind, criterion, numbers) != "undecided":
        return None
    worst = None
    for e, lo, hi, *_ in _regions(kind, criterion, numbers):
        r = _runs_to_decide(e, lo, hi)
        if r["cells"] == 0:
            continue
        f = math.inf if r["factor"] == "inf" else r["factor"]
        if worst is None or f > (math.inf if worst["factor"] == "inf" else worst["factor"]):
            worst = r
    return worst


@contract(changes=_CHANGES, numbers=_NUMBERS, expect=_EXPECT)
def original_statuses(changes: Iterable[Any], numbers: Mapping[str, Any], expect: str) -> list[dict[str, Any]]:
    """The decision log of a row: each earlier criterion (a :class:`CriterionChange` or its JSON
    form) with the status it gives on the row's numbers (or why it cannot be evaluated on them)."""
    if not isinstance(numbers, Mapping):
        raise CriterionError(f"numbers must be a mapping of the row's numbers, got {type(numbers).__name__}")
    out = []
    for c in changes:
        row = c.as_row() if isinstance(c, CriterionChange) else dict(c)
        was = dict(row["was"])
        kind = was.pop("kind")
        old_expect = was.pop("expect", expect)
        try:
            status = row_status(kind, was, numbers, old_expect)
        except (CriterionError, KeyError, ValueError, TypeError) as e:
            status = f"not evaluable on these numbers ({type(e).__name__}: {e})"
        out.append({**{k: row[k] for k in ("commit", "date", "seen", "was", "reason")}, "status": status})
    return out


# ---------------------------------------------------------------------------------------------
# falsifiers
# ---------------------------------------------------------------------------------------------


def _perturbations(v: Any) -> Iterable[Any]:
    """Candidate replacements of one deciding number (scalar, array, bool)."""
    if isinstance(v, (bool, np.bool_)):
        yield not bool(v)
        return
    a = _num(v)
    if a.ndim == 0:
        x = float(a)
        for c in (
            -x,
            x + 1,
            x - 1,
            0.0,
            2 * x,
            x / 2,
            10 * x,
            x * (1 + 1e-3),
            x * (1 - 1e-3),
            x + 1e6,
            x - 1e6,
            1e12,
            -1e12,
            float("nan"),
        ):
            yield c
        return
    if a.size == 0:
        return
    flat = a.ravel()
    yield a[::-1].tolist() if a.ndim == 1 else (-a).tolist()
    for f in (
        lambda y: -y,
        lambda y: y + 1,
        lambda y: y - 1,
        lambda y: 2 * y,
        lambda y: y / 2,
        lambda y: y + 1e6,
        lambda y: y - 1e6,
        lambda y: 10 * y,
    ):
        yield f(a).tolist()
        b = flat.copy()
        b[0] = f(b[:1])[0]
        yield b.reshape(a.shape).tolist()
        b = flat.copy()
        b[-1] = f(b[-1:])[0]
        yield b.reshape(a.shape).tolist()
    for c in (1e12, -1e12, float("nan")):
        b = flat.copy()
        b[0] = c
        yield b.reshape(a.shape).tolist()


def _paths(numbers: Mapping[str, Any], prefix=()):
    for k, v in numbers.items():
        if isinstance(v, Mapping) and not _is_est(v):
            yield from _paths(v, prefix + (k,))
        else:
            yield prefix + (k,), v


def _set(numbers: Mapping[str, Any], path, value) -> dict:
    out = {k: (dict(v) if isinstance(v, Mapping) else v) for k, v in numbers.items()}
    d = out
    for p in path[:-1]:
        d[p] = dict(d[p])
        d = d[p]
    d[path[-1]] = value
    return out


def _leaves(v: Any) -> Iterable[np.ndarray]:
    """The numbers of a measured quantity (an estimate's value and interval, a number, an array)."""
    if _is_est(v):
        e = _est(v)
        yield from (np.asarray(e.value, dtype=float), np.asarray(e.low, dtype=float), np.asarray(e.high, dtype=float))
    elif isinstance(v, Mapping):
        for x in v.values():
            yield from _leaves(x)
    elif isinstance(v, (bool, np.bool_)):
        return
    else:
        yield _num(v)


def _deciding(kind: str, numbers: Mapping[str, Any]) -> Iterable[np.ndarray]:
    """The measured quantities a domain applies to: ``ours`` (close, range), the ``values`` of an
    order (not their differences), ``ys`` (monotone), every number of a holds rule."""
    if kind in ("close", "range"):
        yield from _leaves(numbers.get("ours"))
    elif kind == "order":
        yield from _leaves(numbers.get("values") or {})
    elif kind == "monotone":
        yield from _leaves(numbers.get("ys"))
    else:
        yield from _leaves(numbers)


def _in_domain(kind: str, criterion: Mapping[str, Any], numbers: Mapping[str, Any], statistical: bool) -> bool:
    """Whether a falsifier's measured numbers are possible: finite and in the declared domain (no
    domain and an exact row: anything, as before)."""
    dom = criterion.get("domain")
    if dom is None and not statistical:
        return True
    lo = -np.inf if not dom or dom[0] is None else float(dom[0])
    hi = np.inf if not dom or dom[1] is None else float(dom[1])
    try:
        return all(
            a.size > 0 and np.all(np.isfinite(a)) and np.all((a >= lo) & (a <= hi)) for a in _deciding(kind, numbers)
        )
    except (TypeError, ValueError):
        return False


def _point(e: Estimate, p: Any) -> dict[str, Any]:
    """The estimate ``e`` measured exactly at ``p`` (a degenerate interval, same method and runs)."""
    v = np.broadcast_to(np.asarray(p, dtype=float), e.shape if e.shape else ()).copy()
    return Estimate(
        v,
        v,
        v,
        level=e.level,
        se=np.zeros_like(v),
        n_runs=e.n_runs,
        method=e.method,
        simultaneous=e.simultaneous,
        note="falsifier",
    ).to_dict()


def _estimate_candidates(kind: str, criterion: Mapping[str, Any], plain: Mapping[str, Any]) -> Iterable[dict]:
    """Readable falsifiers of a row recorded with estimates: the estimate measured exactly at
    points outside the region, at the region's edges, inside it; for an order, the values reversed
    or all equal, as exact numbers."""
    dom = criterion.get("domain")
    dlo = None if not dom else dom[0]
    dhi = None if not dom else dom[1]
    if kind in ("close", "range"):
        e = _est(plain["ours"])
        if kind == "close":
            t = _num(criterion["target"])
            b = float(criterion.get("atol") or 0.0) + float(criterion.get("rtol") or 0.0) * np.abs(t)
            lo, hi = t - b, t + b
            pts = [t + 2 * b + 1e-9 * np.maximum(1.0, np.abs(t)), t - 2 * b - 1e-9 * np.maximum(1.0, np.abs(t)), t]
        else:
            lo = _num(criterion["lower"]) if criterion.get("lower") is not None else None
            hi = _num(criterion["upper"]) if criterion.get("upper") is not None else None
            pts = []
            if hi is not None:
                pts += [hi + 1 + np.abs(hi), hi + 1e-9 * np.maximum(1.0, np.abs(hi))]
            if lo is not None:
                pts += [lo - 1 - np.abs(lo), lo - 1e-9 * np.maximum(1.0, np.abs(lo))]
            if lo is not None and hi is not None:
                pts.append((lo + hi) / 2)
            elif lo is not None:
                pts.append(lo + 1 + np.abs(lo))
            else:
                pts.append(hi - 1 - np.abs(hi))
        for edge in (dlo, dhi):  # the domain's ends, where the region is not
            if edge is not None:
                pts.append(np.full(np.shape(e.value), float(edge)))
        for p in pts:
            yield _set(plain, ("ours",), _point(e, p))
    elif kind == "order":
        names, _ = parse_relation(criterion["relation"])
        vals = {n: _plain(_as_est(v).value) for n, v in plain["values"].items()}
        base = {k: v for k, v in plain.items() if k != "differences"}
        rev = {n: vals[m] for n, m in zip(names, reversed(names))}
        yield _set(base, ("values",), {**vals, **rev})
        yield _set(base, ("values",), {**vals, **{n: vals[names[0]] for n in names}})
        yield _set(base, ("values",), vals)


@contract(kind=_KIND, criterion=_CRITERION, numbers=_NUMBERS, expect=_EXPECT, implied=Boolean())
def falsify(
    kind: str, criterion: Mapping[str, Any], numbers: Mapping[str, Any], expect: str, *, implied: bool = False
) -> dict[str, Any]:
    """Deciding numbers for which the row's status is ``fail`` (raises if there are none).

    With a declared ``domain`` (``criterion["domain"]``) the falsifier's measured numbers must be
    finite and in it; a row recorded with an estimate always needs a finite falsifier."""
    plain = _plain(numbers)
    statistical = _is_statistical_row(kind, criterion, plain) or any(_is_est(v) for _, v in _paths(plain))

    def fails(cand) -> bool:
        try:
            return (
                _in_domain(kind, criterion, cand, statistical)
                and row_status(kind, criterion, cand, expect, implied=implied) == "fail"
            )
        except (CriterionError, ValueError, TypeError, IndexError, KeyError, ZeroDivisionError, OverflowError):
            return False

    # kind-specific first tries (clear, readable falsifiers)
    first = []
    has_est = any(_is_est(v) for _, v in _paths(plain)) or (kind == "order" and plain.get("differences"))
    if has_est:
        first.extend(_estimate_candidates(kind, criterion, plain))
    elif kind == "close":
        t = _num(criterion["target"])
        bound = float(criterion.get("atol") or 0.0) + float(criterion.get("rtol") or 0.0) * np.abs(t)
        if criterion.get("z") is not None and plain.get("se") is not None:
            bound = bound + float(criterion["z"]) * _num(plain["se"])
        off = 2 * bound + 1e-9 * np.maximum(1.0, np.abs(t))
        first.append(_set(plain, ("ours",), (t + off).tolist()))
        first.append(_set(plain, ("ours",), t.tolist()))  # a diverging row fails when ours equals the target
        if criterion.get("domain") is not None:
            first.append(_set(plain, ("ours",), (t - off).tolist()))
    elif kind == "range":
        lo, hi = criterion.get("lower"), criterion.get("upper")
        o = _num(plain["ours"])
        if hi is not None:
            h = _num(hi)
            first.append(_set(plain, ("ours",), (np.broadcast_to(h + 1 + np.abs(h), o.shape)).tolist()))
        if lo is not None:
            lo_ = _num(lo)
            first.append(_set(plain, ("ours",), (np.broadcast_to(lo_ - 1 - np.abs(lo_), o.shape)).tolist()))
        if lo is not None and hi is not None:
            first.append(_set(plain, ("ours",), np.broadcast_to((_num(lo) + _num(hi)) / 2, o.shape).tolist()))
        dom = criterion.get("domain")
        if dom is not None:  # just outside the region, inside the domain
            for b, sign in ((hi, 1), (lo, -1)):
                if b is not None:
                    bb = _num(b)
                    first.append(
                        _set(
                            plain,
                            ("ours",),
                            np.broadcast_to(bb + sign * 1e-9 * np.maximum(1.0, np.abs(bb)), o.shape).tolist(),
                        )
                    )
            for edge in dom:
                if edge is not None:
                    first.append(_set(plain, ("ours",), np.full(o.shape, float(edge)).tolist()))
    elif kind == "order":
        names, _ = parse_relation(criterion["relation"])
        vals = plain["values"]
        rev = {n: vals[m] for n, m in zip(names, reversed(names))}
        first.append(_set(plain, ("values",), {**vals, **rev}))
        same = {n: vals[names[0]] for n in names}
        first.append(_set(plain, ("values",), {**vals, **same}))
    elif kind == "monotone":
        ys = _num(plain["ys"])
        first.append(_set(plain, ("ys",), ys[::-1].tolist()))
        if ys.size >= 2:
            step = 2 * float(criterion.get("tol") or 0.0) + 1 + np.ptp(ys)
            sign = 1 if criterion["direction"] == "increasing" else -1
            first.append(_set(plain, ("ys",), (ys[0] - sign * step * np.arange(ys.size)).tolist()))
            first.append(_set(plain, ("ys",), (ys[0] + sign * step * np.arange(ys.size)).tolist()))
    for cand in first:
        if fails(cand):
            return cand
    if not has_est:
        for path, v in _paths(plain):
            for rep in _perturbations(v):
                cand = _set(plain, path, _plain(rep))
                if fails(cand):
                    return cand
    dom = criterion.get("domain")
    where = f" within the measured quantity's domain {dom}" if dom is not None else ""
    raise CriterionError(f"no falsifier found{where}: the criterion cannot fail on any perturbation of its numbers")


#: the claim of the generated bad-input tests' calls of describe
_EXAMPLE_CLAIM = Claim("T1", "an example", source="derived", kind="range", where="Sec. 1", lower=0.0, upper=1.0)


@contract(claim=Instance(Claim, example=_EXAMPLE_CLAIM), scale=_SCALE)
def describe(claim: Claim, scale: str) -> str:
    """A short human-readable statement of the criterion (the report's 'criterion' column)."""
    c = claim.criterion(scale)
    k = claim.kind
    if k == "close":
        parts = []
        if c["atol"]:
            parts.append(f"± {c['atol']:g}")
        if c["rtol"]:
            parts.append(f"± {100 * c['rtol']:g}%")
        if c.get("z") is not None:
            parts.append(f"± {c['z']:g} SE")
        s = " + ".join(parts) if parts else "exact"
        return f"{s} of {_short(c['target'])}"
    if k == "range":
        lo, hi = c["lower"], c["upper"]
        if lo is not None and hi is not None:
            return f"in [{_short(lo)}, {_short(hi)}]"
        return f"≥ {_short(lo)} (one-sided)" if lo is not None else f"≤ {_short(hi)} (one-sided)"
    if k == "order":
        m = []
        if c.get("tie"):
            m.append(f"{c['tie']:g}")
        if c["atol"]:
            m.append(f"{c['atol']:g}")
        if c["rtol"]:
            m.append(f"{100 * c['rtol']:g}%")
        if "tie" in c:
            return c["relation"] + f" (tie tolerance {' + '.join(m) if m else '0'})"
        return c["relation"] + (f" (margin {' + '.join(m)})" if m else "")
    if k == "monotone":
        s = ("strictly " if c["strict"] else "") + c["direction"]
        return s + (f" (noise tol {c['tol']:g})" if c["tol"] else "")
    if k == "holds":
        return c["rule"]
    return "—"


def _short(v: Any) -> str:
    v = _plain(v)
    if isinstance(v, list):
        if len(v) > 6:
            return "[" + ", ".join(_short(x) for x in v[:3]) + ", …]"
        return "[" + ", ".join(_short(x) for x in v) + "]"
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


@contract(row=_ROW)
def verify_row(row: Mapping[str, Any]) -> list[str]:
    """Problems with one report row read back from JSON (empty list when sound).

    An evaluated row must (i) have the status its own numbers give under its criterion (three
    outcomes for an estimate; ``implied`` for a consequence of another row), (ii) carry a falsifier
    for which that status is ``fail``, finite and in the declared domain where one is declared or
    the row is statistical, (iii) for a statistical row, carry the power its numbers give and the
    ``weak test`` flag exactly when that power is below 0.8, and the runs that would decide an
    undecided row (with the declared reason when more runs would not decide it), and (iv) carry its
    decision log with the status each earlier criterion gives on
    the same numbers, flagged ``criterion changed``.  A ``not-evaluated`` row carries neither
    numbers nor a falsifier.
    """
    if not isinstance(row, Mapping):
        raise TypeError(f"row must be a report row (a mapping read back from JSON), got {type(row).__name__}")
    problems = []
    rid = row.get("id")
    flags = list(row.get("flags") or [])
    if row.get("status") == "not-evaluated":
        if row.get("numbers") is not None or row.get("falsifier") is not None:
            problems.append(f"{rid}: a not-evaluated row carries numbers")
        return problems
    kind, crit, nums, fals = row.get("kind"), row.get("criterion"), row.get("numbers"), row.get("falsifier")
    if kind not in KINDS or kind == "none" or not isinstance(crit, Mapping):
        return [f"{rid}: no criterion (kind {kind!r})"]
    if nums is None or fals is None:
        return [f"{rid}: numbers or falsifier missing"]
    implied = row.get("implied_by") is not None
    try:
        status = row_status(kind, crit, nums, row["expect"], implied=implied)
    except CriterionError as e:
        return [f"{rid}: criterion cannot be evaluated on its numbers: {e}"]
    if status != row["status"]:
        problems.append(f"{rid}: recorded status {row['status']!r} but the numbers give {status!r}")
    statistical = _is_statistical_row(kind, crit, nums) or any(_is_est(v) for _, v in _paths(nums))
    try:
        fstatus = row_status(kind, crit, fals, row["expect"], implied=implied)
    except CriterionError as e:
        return problems + [f"{rid}: criterion cannot be evaluated on its falsifier: {e}"]
    if fstatus != "fail":
        problems.append(f"{rid}: the falsifier does not make the row fail (status {fstatus!r})")
    elif not _in_domain(kind, crit, fals, statistical):
        problems.append(
            f"{rid}: the falsifier is not a possible measurement (non-finite, or outside the domain "
            f"{crit.get('domain')})"
        )
    if "power" in row or "flags" in row:
        pw = power(kind, crit, nums, row["expect"])
        rec = row.get("power")
        if (pw is None) != (rec is None) or (
            pw is not None
            and (
                abs(pw["pass_probability"] - rec.get("pass_probability", math.nan)) > 1e-6
                or bool(rec.get("weak")) != pw["weak"]
            )
        ):
            problems.append(f"{rid}: recorded power {rec!r} but the numbers give {pw!r}")
        if pw is not None and pw["weak"] != ("weak test" in flags):
            problems.append(
                f"{rid}: the 'weak test' flag does not match the power ({pw['pass_probability']:.3g} "
                f"pass probability at the falsifier)"
            )
        if (status == "undecided") != ("undecided" in flags):
            problems.append(f"{rid}: the 'undecided' flag does not match the status")
        rtd = runs_needed(kind, crit, nums) if status == "undecided" else None
        rec_rtd = row.get("runs_to_decide")
        if isinstance(rec_rtd, Mapping) and "not_by_runs" in rec_rtd:
            why = rec_rtd.get("not_by_runs")
            if rtd is None or not isinstance(why, str) or not why.strip():
                problems.append(f"{rid}: 'not decidable by more runs' needs an undecided row and a reason")
            rec_rtd = {k: v for k, v in rec_rtd.items() if k != "not_by_runs"}
        if _plain(rtd) != rec_rtd:
            problems.append(f"{rid}: recorded runs to decide {row.get('runs_to_decide')!r}, the numbers give {rtd!r}")
    changes = row.get("changes") or []
    if changes or "criterion changed" in flags:
        if bool(changes) != ("criterion changed" in flags):
            problems.append(f"{rid}: the 'criterion changed' flag does not match the decision log")
        try:
            again = original_statuses(
                [{k: c[k] for k in ("commit", "date", "seen", "was", "reason")} for c in changes], nums, row["expect"]
            )
        except (KeyError, TypeError) as e:
            return problems + [f"{rid}: malformed decision log: {e}"]
        for c, a in zip(changes, again):
            if c.get("status") != a["status"]:
                problems.append(
                    f"{rid}: the criterion of {c.get('commit')} gives {a['status']!r} on these numbers, "
                    f"the row records {c.get('status')!r}"
                )
    return problems
