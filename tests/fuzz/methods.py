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
