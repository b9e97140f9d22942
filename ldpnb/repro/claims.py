r"""Claims as data: typed, falsifiable criteria with provenance.

A chapter reproduces a paper claim by claim.  Each claim is declared **once, as data**, in
``ldpnb/papers/<paper>/claims.py`` (a :class:`Claim`: what the paper says, where it says it, the
kind of criterion and its numbers, and what we expect); the chapter only supplies the measured
numbers (``report.close("T3", ours)``).  The criterion is therefore fixed before the result is
seen, and the status cannot be chosen by branching on the outcome.

Kinds of criterion (every kind is two-sided unless the paper's claim is one-sided):

``close``     ``|ours - target| <= atol + rtol |target| (+ z se)``, elementwise;
``range``     ``lower <= ours <= upper`` (one bound only when ``one_sided=True``);
``order``     a chain of named measured quantities, ``"IBU < INV-N <= INV-P"``, elementwise, with an
              optional margin ``atol + rtol |rhs|`` (a strict ``<`` needs the margin, a ``<=`` grants it);
``monotone``  ``ys`` increasing or decreasing (strictly, or within a noise ``tol``);
``holds``     a boolean expression over named numbers (``"violations == 0"``), evaluated by a small
              safe evaluator, so that it can be re-evaluated from the JSON;
``none``      not evaluated (the note says why).

Provenance (``source``):

``paper``        the value or statement is printed in the paper; ``where`` gives the section, figure,
                 table or equation, and ``paper`` holds it (a :class:`Printed`);
``derived``      computed by us from the paper's formulas or data (``reference`` holds it);
``calibration``  a value we chose so that the experiment matches the paper: never a reproduction;
``extension``    beyond the paper;
``invariant``    a property of our implementation.

Expectation (``expect``): ``pass`` (the claim holds: status ``pass`` or ``fail``), ``diverges`` (the
paper's claim does not hold in our reproduction: status ``diverges`` when the criterion *fails* and
the optional ``instead`` rule holds, else ``fail``), ``not-evaluated``.

Falsifiability: for every evaluated row a **falsifier** is computed, deciding numbers for which the
row's status would be ``fail``; a criterion for which none is found is refused
(:class:`CriterionError`).  ``tests/test_claims_falsifiable.py`` re-evaluates every row of every
chapter from its JSON, on its numbers and on its falsifier.
"""

from __future__ import annotations

import ast
import math
import numbers
import operator
import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

import numpy as np

__all__ = [
    "SOURCES",
    "KINDS",
    "EXPECTS",
    "SCALES",
    "Printed",
    "Claim",
    "CriterionError",
    "claim_table",
    "evaluate",
    "row_status",
    "falsify",
    "describe",
    "verify_row",
    "parse_relation",
]

SOURCES = ("paper", "derived", "calibration", "extension", "invariant")
KINDS = ("close", "range", "order", "monotone", "holds", "none")
EXPECTS = ("pass", "diverges", "not-evaluated")
SCALES = ("smoke", "book", "paper")


class CriterionError(ValueError):
    """A claim's declaration is malformed, or its criterion cannot fail."""


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
        raise CriterionError(f"{name} must be a finite number >= 0 (an infinite tolerance passes anything), got {value!r}")
    return float(value)


_REL = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
_REL_RE = re.compile(r"\s*(<=|>=|<|>)\s*")


def parse_relation(relation: str) -> tuple[list[str], list[str]]:
    """``"A < B <= C"`` -> (["A", "B", "C"], ["<", "<="])."""
    if not isinstance(relation, str):
        raise CriterionError(f"relation must be a string such as 'A < B', got {relation!r}")
    parts = _REL_RE.split(relation.strip())
    names, ops = parts[0::2], parts[1::2]
    if len(names) < 2 or any(not n.strip() for n in names):
        raise CriterionError(f"relation must compare at least two named quantities, got {relation!r}")
    return [n.strip() for n in names], ops


@dataclass(frozen=True)
class Claim:
    """One claim of a paper, declared as data (see the module docstring)."""

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

    def __post_init__(self):
        sid = self.id
        if not isinstance(sid, str) or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.\-]*", sid):
            raise CriterionError(f"claim id must be a short identifier (letters, digits, _ . -), got {sid!r}")
        if not isinstance(self.claim, str) or not self.claim.strip():
            raise CriterionError(f"{sid}: the claim needs its text")
        if self.source not in SOURCES:
            raise CriterionError(f"{sid}: source must be one of {SOURCES}, got {self.source!r}")
        if self.kind not in KINDS:
            raise CriterionError(f"{sid}: kind must be one of {KINDS}, got {self.kind!r}")
        if self.expect not in EXPECTS:
            raise CriterionError(f"{sid}: expect must be one of {EXPECTS}, got {self.expect!r}")
        if not set(self.scales) <= set(SCALES) or not self.scales:
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
        for name in ("atol", "rtol", "tol"):
            _tol(getattr(self, name), f"{sid}: {name}")
        if self.z is not None:
            _tol(self.z, f"{sid}: z")
        k = self.kind
        if k == "close":
            t = self.target
            if t is None:
                raise CriterionError(f"{sid}: a close claim needs a numeric target (paper value or reference)")
            arr = np.asarray(t, dtype=float)
            if not np.all(np.isfinite(arr)):
                raise CriterionError(f"{sid}: the target must be finite, got {t!r}")
        elif k == "range":
            lo, hi = self.bounds
            if lo is None and hi is None:
                raise CriterionError(f"{sid}: a range needs a lower or an upper bound")
            if (lo is None or hi is None) and not self.one_sided:
                raise CriterionError(f"{sid}: a one-sided range needs one_sided=True (the paper's claim is one-sided)")
        elif k == "order":
            parse_relation(self.relation)
        elif k == "monotone":
            if self.direction not in ("increasing", "decreasing"):
                raise CriterionError(f"{sid}: direction must be 'increasing' or 'decreasing'")
        elif k == "holds":
            if not self.rule:
                raise CriterionError(f"{sid}: a holds claim needs a rule (a boolean expression over named numbers)")
            _Expr(self.rule)
        if self.instead is not None:
            if self.expect != "diverges":
                raise CriterionError(f"{sid}: `instead` states what holds when the paper's claim diverges")
            _Expr(self.instead)

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
        if lo is None and hi is None and isinstance(self.paper, Printed) and isinstance(self.paper.value, (tuple, list)) \
                and len(self.paper.value) == 2:
            lo, hi = self.paper.value
        return lo, hi

    def criterion(self, scale: str) -> dict[str, Any]:
        """The criterion's parameters at ``scale`` (what the JSON records and the tests re-evaluate)."""
        k = self.kind
        if k == "close":
            return {"target": _plain(self.target), "atol": _tol(self.atol, "atol", scale) or 0.0,
                    "rtol": _tol(self.rtol, "rtol", scale) or 0.0, "z": self.z}
        if k == "range":
            lo, hi = self.bounds
            return {"lower": _plain(lo), "upper": _plain(hi)}
        if k == "order":
            return {"relation": self.relation, "atol": _tol(self.atol, "atol", scale) or 0.0,
                    "rtol": _tol(self.rtol, "rtol", scale) or 0.0}
        if k == "monotone":
            return {"direction": self.direction, "strict": bool(self.strict), "tol": _tol(self.tol, "tol", scale) or 0.0}
        if k == "holds":
            return {"rule": self.rule}
        return {}

    def full_criterion(self, scale: str) -> dict[str, Any]:
        """:meth:`criterion` plus the ``instead`` rule of a diverging claim (everything the status needs)."""
        c = self.criterion(scale)
        if self.instead is not None:
            c["instead"] = self.instead
        return c


def claim_table(*claims: Claim) -> dict[str, Claim]:
    """The claims of one paper, by id (ids unique)."""
    out: dict[str, Claim] = {}
    for s in claims:
        if not isinstance(s, Claim):
            raise CriterionError(f"claim_table takes Claim objects, got {type(s).__name__}")
        if s.id in out:
            raise CriterionError(f"duplicate claim id {s.id!r}")
        out[s.id] = s
    return out


# ---------------------------------------------------------------------------------------------
# evaluation (from data: works on a Claim's criterion dict and on a JSON row alike)
# ---------------------------------------------------------------------------------------------


def _plain(v: Any) -> Any:
    """JSON-able copy: numpy scalars/arrays to Python numbers/lists; tuples to lists."""
    if v is None or isinstance(v, (str, bool)):
        return v
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
        return [_plain(x) for x in np.asarray(v, dtype=object).tolist()] if isinstance(v, np.ndarray) \
            else [_plain(x) for x in v]
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


_FUNCS = {"abs": np.abs, "max": np.max, "min": np.min, "sum": np.sum, "all": np.all, "any": np.any,
          "len": len, "log": np.log, "exp": np.exp, "sqrt": np.sqrt, "mean": np.mean, "median": np.median,
          "isfinite": np.isfinite, "round": np.round}
_CMP = {ast.Lt: np.less, ast.LtE: np.less_equal, ast.Gt: np.greater, ast.GtE: np.greater_equal,
        ast.Eq: np.equal, ast.NotEq: np.not_equal}
_BIN = {ast.Add: np.add, ast.Sub: np.subtract, ast.Mult: np.multiply, ast.Div: np.true_divide,
        ast.Pow: np.power, ast.Mod: np.mod}


def _ident(name: str) -> str:
    """A rule-friendly name: ``"INV-N"`` -> ``INV_N``."""
    return re.sub(r"\W", "_", str(name))


def _env(numbers: Mapping[str, Any]) -> dict[str, Any]:
    """Names a rule can use: the numbers, plus the entries of a nested ``values`` mapping."""
    env = {k: v for k, v in numbers.items() if not isinstance(v, Mapping)}
    for k, v in numbers.items():
        if isinstance(v, Mapping):
            for kk, vv in v.items():
                env.setdefault(_ident(kk), vv)
    return env


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
        allowed = (ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.USub, ast.UAdd, ast.BinOp, ast.Compare,
                   ast.Call, ast.Constant, ast.Subscript, ast.Index if hasattr(ast, "Index") else ast.Constant,
                   ast.Load, ast.List, ast.Tuple) + tuple(_CMP) + tuple(_BIN)
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
            return _BIN[type(n.op)](np.asarray(self._eval(n.left, env), dtype=float),
                                    np.asarray(self._eval(n.right, env), dtype=float))
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


def evaluate(kind: str, criterion: Mapping[str, Any], numbers: Mapping[str, Any]) -> bool:
    """Whether ``numbers`` meet the criterion (the paper's claim, as operationalised)."""
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
        ok = True
        for (a, b), op in zip(zip(names[:-1], names[1:]), ops):
            va, vb = _num(vals[a]), _num(vals[b])
            if not (np.all(np.isfinite(va)) and np.all(np.isfinite(vb))):
                return False
            m = atol + rtol * np.abs(vb)
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
        return _Expr(criterion["rule"])(numbers)
    raise CriterionError(f"kind {kind!r} is not evaluated")


def row_status(kind: str, criterion: Mapping[str, Any], numbers: Mapping[str, Any], expect: str) -> str:
    """``pass``/``fail`` (expect pass) or ``diverges``/``fail`` (expect diverges; the optional
    ``criterion["instead"]`` rule states what holds instead and must hold too)."""
    instead = criterion.get("instead")
    ok = evaluate(kind, criterion, numbers)
    if expect == "pass":
        return "pass" if ok else "fail"
    if expect == "diverges":
        if ok:
            return "fail"  # the paper's claim holds in this run: the recorded divergence is not reproduced
        if instead is not None and not _Expr(instead)(numbers):
            return "fail"
        return "diverges"
    raise CriterionError(f"expect {expect!r} has no status from numbers")


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
        for c in (-x, x + 1, x - 1, 0.0, 2 * x, x / 2, 10 * x, x * (1 + 1e-3), x * (1 - 1e-3),
                  x + 1e6, x - 1e6, 1e12, -1e12, float("nan")):
            yield c
        return
    if a.size == 0:
        return
    flat = a.ravel()
    yield a[::-1].tolist() if a.ndim == 1 else (-a).tolist()
    for f in (lambda y: -y, lambda y: y + 1, lambda y: y - 1, lambda y: 2 * y, lambda y: y / 2,
              lambda y: y + 1e6, lambda y: y - 1e6, lambda y: 10 * y):
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
        if isinstance(v, Mapping):
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


def falsify(kind: str, criterion: Mapping[str, Any], numbers: Mapping[str, Any], expect: str) -> dict[str, Any]:
    """Deciding numbers for which the row's status is ``fail`` (raises if there are none)."""
    plain = _plain(numbers)

    def fails(cand) -> bool:
        try:
            return row_status(kind, criterion, cand, expect) == "fail"
        except (CriterionError, ValueError, TypeError, IndexError, KeyError, ZeroDivisionError, OverflowError):
            return False

    # kind-specific first tries (clear, readable falsifiers)
    first = []
    if kind == "close":
        t = _num(criterion["target"])
        bound = float(criterion.get("atol") or 0.0) + float(criterion.get("rtol") or 0.0) * np.abs(t)
        if criterion.get("z") is not None and plain.get("se") is not None:
            bound = bound + float(criterion["z"]) * _num(plain["se"])
        off = 2 * bound + 1e-9 * np.maximum(1.0, np.abs(t))
        first.append(_set(plain, ("ours",), (t + off).tolist()))
        first.append(_set(plain, ("ours",), t.tolist()))  # a diverging row fails when ours equals the target
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
    for path, v in _paths(plain):
        for rep in _perturbations(v):
            cand = _set(plain, path, _plain(rep))
            if fails(cand):
                return cand
    raise CriterionError("no falsifier found: the criterion cannot fail on any perturbation of its numbers")


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
        if c["atol"]:
            m.append(f"{c['atol']:g}")
        if c["rtol"]:
            m.append(f"{100 * c['rtol']:g}%")
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


def verify_row(row: Mapping[str, Any]) -> list[str]:
    """Problems with one report row read back from JSON (empty list when sound).

    An evaluated row must (i) have the status its own numbers give under its criterion and
    (ii) carry a falsifier for which that status is ``fail``.  A ``not-evaluated`` row carries
    neither numbers nor a falsifier.
    """
    problems = []
    rid = row.get("id")
    if row.get("status") == "not-evaluated":
        if row.get("numbers") is not None or row.get("falsifier") is not None:
            problems.append(f"{rid}: a not-evaluated row carries numbers")
        return problems
    kind, crit, nums, fals = row.get("kind"), row.get("criterion"), row.get("numbers"), row.get("falsifier")
    if kind not in KINDS or kind == "none" or not isinstance(crit, Mapping):
        return [f"{rid}: no criterion (kind {kind!r})"]
    if nums is None or fals is None:
        return [f"{rid}: numbers or falsifier missing"]
    try:
        status = row_status(kind, crit, nums, row["expect"])
    except CriterionError as e:
        return [f"{rid}: criterion cannot be evaluated on its numbers: {e}"]
    if status != row["status"]:
        problems.append(f"{rid}: recorded status {row['status']!r} but the numbers give {status!r}")
    try:
        fstatus = row_status(kind, crit, fals, row["expect"])
    except CriterionError as e:
        return problems + [f"{rid}: criterion cannot be evaluated on its falsifier: {e}"]
    if fstatus != "fail":
        problems.append(f"{rid}: the falsifier does not make the row fail (status {fstatus!r})")
    return problems
