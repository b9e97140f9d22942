"""Bad calls of the mechanism objects' methods, generated for every family of the catalogue.

A mechanism's methods check their arguments in the body: what makes a value valid depends on the
instance (values in ``{0..k-1}``, one count per input, reports of this family's shape), which a
declared contract cannot say.  Rather than a hand-written table per family, each method of the
common interface has one list of bad arguments, built from the instance (``k``, ``n_inputs``), and
every family of the catalogue (:meth:`Mechanism.on` on the default :class:`Domain`) is called with
each: the call must raise a ValueError or TypeError whose message names the argument.

:func:`method_cases` returns ``(qual, argument regex, call, id)`` rows; ``qual`` is where the method is
defined, so a method a family inherits is one name, called on every family that inherits it
(``tests/test_bad_input.py`` counts these names as covered, ``tests/test_bad_input_methods.py`` runs the calls).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

#: ``method -> [(argument, message regex, bad call builder)]``: a builder takes ``(m, good)`` (the
#: instance, a valid report set of it) and returns the positional and keyword arguments of one call.
_BAD_REPORTS: list[Any] = [None, "abc", 3, [], [[[1]]]]


def _inputs(m) -> list[Any]:
    k = m.n_inputs
    return [None, "abc", [], [-1], [k], [0.5], [math.nan], np.zeros((2, 2), dtype=int)]


def _counts(m) -> list[Any]:
    k = m.n_inputs
    return [None, [-1] * k, [1] * (k + 1), [0.5] * k, [math.nan] * k, [[1] * k]]


def _table() -> dict[str, list[tuple[str, str, Callable[[Any, Any], list[tuple[tuple, dict]]]]]]:
    return {
        "perturb": [("x", "x", lambda m, g: [((b,), {"rng": 0}) for b in _inputs(m)])],
        "memoize": [("x", "x", lambda m, g: [((b,), {"rng": 0}) for b in _inputs(m)])],
        "report_index": [("reports", "reports", lambda m, g: [((b,), {}) for b in _BAD_REPORTS])],
        "support": [("reports", "reports", lambda m, g: [((b,), {}) for b in _BAD_REPORTS])],
        "support_counts": [("reports", "reports", lambda m, g: [((b,), {}) for b in _BAD_REPORTS])],
        "n_reports": [("reports", "reports", lambda m, g: [((b,), {}) for b in _BAD_REPORTS])],
        "sampled_counts": [("reports", "reports", lambda m, g: [((b,), {}) for b in _BAD_REPORTS])],
        "bit_counts": [("reports", "reports", lambda m, g: [((b,), {}) for b in _BAD_REPORTS])],
        "decode": [("reports", "reports", lambda m, g: [((b,), {}) for b in _BAD_REPORTS])],
        "support_set_index": [("reports", "reports", lambda m, g: [((b,), {}) for b in _BAD_REPORTS])],
        "estimate_ding": [("reports", "reports", lambda m, g: [((b,), {}) for b in _BAD_REPORTS])],
        "simulate_counts": [
            ("input_counts", "input_counts", lambda m, g: [((b,), {"rng": 0}) for b in _counts(m)]),
            (
                "size",
                "size",
                lambda m, g: [(([1] * m.n_inputs,), {"size": s, "rng": 0}) for s in (0, -1, 2.5, "3", 1 << 40)],
            ),
        ],
        **{
            meth: [("input_counts", "input_counts", lambda m, g: [((b,), {"rng": 0}) for b in _counts(m)])]
            for meth in ("simulate_support_counts", "simulate_bit_counts", "simulate_support_and_sampled_counts")
        },
        "support_count_covariance": [("input_counts", "input_counts", lambda m, g: [((b,), {}) for b in _counts(m)])],
        "estimate": [
            (
                "data",
                "data|support_counts|reports",
                lambda m, g: [((b,), {}) for b in _BAD_REPORTS] + [((c,), {"n": _n(m, g)}) for c in _bad_support(m, g)],
            ),
            ("n", "n", lambda m, g: [((_support(m, g),), {"n": b}) for b in (0, -1, 2.5, math.nan, "3")]),
        ],
        "check_support_counts": [
            ("support_counts", "support_counts", lambda m, g: [((c, _n(m, g)), {}) for c in _bad_support(m, g)]),
            ("n", "n", lambda m, g: [((_support(m, g), b), {}) for b in (0, -1, 2.5, math.nan, "3")]),
        ],
    }


def _support(m, good):
    return m.support_counts(good)


def _n(m, good):
    return m.n_reports(good)


def _bad_support(m, good) -> list[Any]:
    c = np.asarray(_support(m, good))
    n = _n(m, good)
    # fractional entries are valid: expected support counts (estimate(E[C], n) is the true frequency)
    return [None, "abc", c[:-1], -c - 1, c + n + 1, c * math.nan, c[None]]


def _defined_at(cls: type, meth: str) -> type | None:
    for base in cls.__mro__:
        if meth in vars(base):
            return base
    return None


def method_cases() -> list[tuple[str, str, Any, str]]:
    """``(qual, argument regex, call, id)`` for every method of the table on every family of the
    catalogue that has it (built by ``cls.on(Domain(), 1.0)``; its valid reports are those of ``perturb``
    of every value once)."""
    from ldpnb.mechanisms import Domain, Mechanism

    out: list[tuple[str, str, Any, str]] = []
    for cls in Mechanism.REGISTRY.values():
        if not cls.builds_on_domain():
            continue
        m = cls.on(Domain(), 1.0)
        good = m.perturb(np.arange(m.n_inputs), rng=0)
        for meth, args in _table().items():
            home = _defined_at(cls, meth)
            if home is None or not home.__module__.startswith("ldpnb") or not callable(getattr(m, meth)):
                continue
            if meth in ("estimate", "check_support_counts") and not hasattr(m, "support_counts"):
                continue
            qual = f"{home.__module__}.{home.__qualname__}.{meth}"
            for arg, regex, build in args:
                for i, (a, kw) in enumerate(build(m, good)):
                    out.append(
                        (qual, regex, functools.partial(getattr(m, meth), *a, **kw), f"{cls.family}.{meth}:{arg}:{i}")
                    )
    return out


def _m(name: str, *args: Any) -> Any:
    import ldpnb.mechanisms as M

    return getattr(M, name)(*args)


def _rappor_counts() -> tuple[np.ndarray, np.ndarray]:
    b = _m("BloomRAPPOR", 4, 1.0)
    return b.bit_counts(b.perturb(np.arange(4), rng=0))


def _dbit() -> tuple[Any, np.ndarray, np.ndarray, int]:
    from ldpnb.mechanisms import DBitFlipPM, Domain

    d = DBitFlipPM.on(Domain(), 1.0)
    g = d.perturb(np.arange(8), rng=0)
    return d, d.support_counts(g), d.sampled_counts(g), d.n_reports(g)


def _olhcw() -> Any:
    from ldpnb.mechanisms import OLHCW, Domain

    return OLHCW.on(Domain(), 1.0)


def _M():
    from ldpnb.mechanisms import Mechanism

    return Mechanism


def _D(**kw):
    from ldpnb.mechanisms import Domain

    return Domain(**kw)


_R = "ldpnb.mechanisms.rappor.BloomRAPPOR."
_T = "ldpnb.mechanisms.longitudinal._TwoRound."
_B = "ldpnb.mechanisms.longitudinal.DBitFlipPM."
_H = "ldpnb.mechanisms._hashes.OLHCW."

#: Methods outside the common interface, with the bad calls of each: ``(qual, argument regex, call, id)``.
HAND_CASES: list[tuple[str, str, Any, str]] = [
    ("ldpnb.mechanisms._base.Mechanism.lookup", "name", lambda: _M().lookup(3), "lookup:type"),
    ("ldpnb.mechanisms._base.Mechanism.lookup", "name", lambda: _M().lookup("no such family"), "lookup:unknown"),
    ("ldpnb.mechanisms._base.Mechanism.unregister", "name|family", lambda: _M().unregister("no such"), "unregister"),
    ("ldpnb.mechanisms._base.Domain", "k", lambda: _D(k=1.5), "Domain:k"),
    ("ldpnb.mechanisms._base.Domain", "k", lambda: _D(k=None, rows=None), "Domain:grid"),
    ("ldpnb.mechanisms._base.Domain", "rows", lambda: _D(rows="a"), "Domain:rows"),
    ("ldpnb.mechanisms._base.Domain", "pad", lambda: _D(pad=-1), "Domain:pad"),
    ("ldpnb.mechanisms._base.Domain", "cell_size", lambda: _D(cell_size=-1.0), "Domain:cell_size"),
    ("ldpnb.mechanisms._base.Domain", "distance", lambda: _D(distance=np.ones((2, 2)) - np.eye(2)), "Domain:distance"),
    (_R + "estimate", "reports", lambda: _m("BloomRAPPOR", 4, 1.0).estimate(None), "RAPPOR.estimate:data"),
    (
        _R + "estimate",
        "counts",
        lambda: _m("BloomRAPPOR", 4, 1.0).estimate(-_rappor_counts()[0] - 1, _rappor_counts()[1]),
        "RAPPOR.estimate:negative",
    ),
    (_R + "variance", "n", lambda: _m("BloomRAPPOR", 4, 1.0).variance(0), "RAPPOR.variance:n"),
    (_R + "exact_level", "which", lambda: _m("BloomRAPPOR", 4, 1.0).exact_level("bogus"), "RAPPOR.exact_level"),
    (_R + "check_longitudinal", "rtol", lambda: _m("BloomRAPPOR", 4, 1.0).check_longitudinal(-1.0), "RAPPOR.check"),
    (_R + "report", "memo", lambda: _m("BloomRAPPOR", 4, 1.0).report(None, rng=0), "RAPPOR.report:none"),
    (_R + "report", "memo", lambda: _m("BloomRAPPOR", 4, 1.0).report(("a", "b"), rng=0), "RAPPOR.report:pair"),
    (
        _R + "perturb_longitudinal",
        "T",
        lambda: _m("BloomRAPPOR", 4, 1.0).perturb_longitudinal([0, 1], 0, rng=0),
        "RAPPOR.perturb_longitudinal:T",
    ),
    (
        _R + "perturb_longitudinal",
        "x",
        lambda: _m("BloomRAPPOR", 4, 1.0).perturb_longitudinal([-1], 2, rng=0),
        "RAPPOR.perturb_longitudinal:x",
    ),
    (_T + "check_longitudinal", "rtol", lambda: _m("LGRR", 4, 1.0).check_longitudinal(-1.0), "LGRR.check"),
    (_T + "report", "memo", lambda: _m("LGRR", 4, 1.0).report([9], rng=0), "LGRR.report"),
    (_T + "report", "memo", lambda: _m("LOSUE", 4, 1.0).report(np.full((1, 3), 2), rng=0), "LOSUE.report"),
    (_T + "perturb_longitudinal", "T", lambda: _m("LGRR", 4, 1.0).perturb_longitudinal([0], 2.5, rng=0), "LGRR.T"),
    (_T + "perturb_longitudinal", "x", lambda: _m("LOSUE", 4, 1.0).perturb_longitudinal([7], 2, rng=0), "LOSUE.x"),
    (_B + "ding_estimate", "n", lambda: _dbit()[0].ding_estimate(*_dbit()[1:3], 0), "dBit.ding_estimate:n"),
    (
        _B + "ding_estimate",
        "sampled_counts",
        lambda: _dbit()[0].ding_estimate(_dbit()[1], _dbit()[2][:-1], _dbit()[3]),
        "dBit.ding_estimate:sampled",
    ),
    (
        _B + "ding_estimate",
        "support_counts",
        lambda: _dbit()[0].ding_estimate(-_dbit()[1] - 1, _dbit()[2], _dbit()[3]),
        "dBit.ding_estimate:support",
    ),
    (_B + "ding_variance", "n", lambda: _dbit()[0].ding_variance(0), "dBit.ding_variance:n"),
    (_B + "ding_variance", "f", lambda: _dbit()[0].ding_variance(10, 2.0), "dBit.ding_variance:f"),
    (_B + "perturb_longitudinal", "values", lambda: _dbit()[0].perturb_longitudinal(None, rng=0), "dBit.pl:none"),
    (
        _B + "perturb_longitudinal",
        "values",
        lambda: _dbit()[0].perturb_longitudinal(np.array([[-1, 0]]), rng=0),
        "dBit.pl:negative",
    ),
    (_H + "draw_seeds", "n", lambda: _olhcw().draw_seeds(-1, rng=0), "OLHCW.draw_seeds:negative"),
    (_H + "draw_seeds", "n", lambda: _olhcw().draw_seeds(2.5, rng=0), "OLHCW.draw_seeds:fraction"),
    (_H + "draw_seeds", "n", lambda: _olhcw().draw_seeds(1 << 40, rng=0), "OLHCW.draw_seeds:huge"),
    (_H + "hash", "seeds", lambda: _olhcw().hash(None, [0]), "OLHCW.hash:none"),
    (_H + "hash", "seeds", lambda: _olhcw().hash(-np.ones((2, 2), dtype=int), [0, 1]), "OLHCW.hash:negative"),
    (_H + "hash", "values", lambda: _olhcw().hash(_olhcw().draw_seeds(2, rng=0), [99, 0]), "OLHCW.hash:values"),
    (
        _H + "hash",
        "seeds and values",
        lambda: _olhcw().hash(_olhcw().draw_seeds(3, rng=0), [0, 1]),
        "OLHCW.hash:shapes",
    ),
]
