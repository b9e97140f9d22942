"""The fuzz's catalogue: example values by argument name, and bad values by kind of argument.

Independent of the declared contracts on purpose: the kind of an argument is inferred from its name and
from the valid value of its baseline call (a scalar in [0, 1] named ``alpha`` is a probability, a 1-D
array summing to 1 a distribution, a 2-D one whose rows sum to 1 a channel...), and the bad values come
from here, never from the rule's own ``invalid()`` list (``tests/test_contracts.py`` uses those).

Categories of bad input:

* ``invalid`` - a value of the right type that the argument's meaning forbids (epsilon <= 0, a channel
  whose rows sum to 1.25, negative counts, a probability of 1.5, NaN): must be refused;
* ``type`` - a value of the wrong type (None where a number is required, a string, a list of strings):
  must be refused (a string holding a number that is converted is counted as ``lenient``);
* ``huge`` - a size or repetition count of 2**40: must be refused before anything is allocated or run;
* ``mismatch`` - an array whose length no longer matches another argument: must be refused, unless the
  shorter value is valid on its own (listed for review, not counted as silent);
* ``edge`` - a valid but extreme value (epsilon = 1e-12, 710, 1e4; all-zero counts): must give a finite,
  correct result or a clear refusal, never NaN/inf or a crash.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

K = 3  # the conventional domain size of the examples


def _grr(k=K, eps=1.0):
    e = math.exp(eps)
    C = np.full((k, k), 1.0 / (e + k - 1))
    np.fill_diagonal(C, e / (e + k - 1))
    return C


#: A valid example by argument name (a world with k = 3 values, eps = 1, 10 users).
BY_NAME: dict[str, Callable[[], Any]] = {
    "k": lambda: K,
    "d": lambda: 2,
    "g": lambda: 2,
    "rows": lambda: 2,
    "cols": lambda: 2,
    "n": lambda: 10,
    "n_users": lambda: 10,
    "size": lambda: 10,
    "m": lambda: 2,
    "epsilon": lambda: 1.0,
    "eps": lambda: 1.0,
    "eps_l": lambda: 1.0,
    "eps_u": lambda: 2.0,
    "beta": lambda: 1.0,
    "eps_dp": lambda: 1.0,
    "reps": lambda: 2,
    "runs": lambda: 2,
    "n_runs": lambda: 2,
    "n_trials": lambda: 100,
    "trials": lambda: 2,
    "max_iter": lambda: 50,
    "n_iter": lambda: 5,
    "n_steps": lambda: 3,
    "it": lambda: 2,
    "draws": lambda: 20,
    "sets": lambda: 2,
    "null_reps": lambda: 2,
    "n_surveys": lambda: 2,
    "repeats": lambda: 1,
    "B": lambda: 20,
    "alpha": lambda: 0.05,
    "level": lambda: 0.9,
    "p_keep": lambda: 0.5,
    "frac": lambda: 0.5,
    "tol": lambda: 1e-6,
    "atol": lambda: 1e-9,
    "rtol": lambda: 1e-9,
    "p": lambda: np.array([0.5, 0.3, 0.2]),
    "prior": lambda: np.array([0.5, 0.3, 0.2]),
    "theta": lambda: np.array([0.5, 0.3, 0.2]),
    "theta0": lambda: np.array([0.4, 0.3, 0.3]),
    "p_x": lambda: np.array([0.5, 0.3, 0.2]),
    "p_u": lambda: np.array([0.5, 0.3, 0.2]),
    "pi": lambda: np.array([0.5, 0.3, 0.2]),
    "q": lambda: np.array([0.2, 0.3, 0.5]),
    "f": lambda: np.array([0.5, 0.3, 0.2]),
    "freqs": lambda: np.array([0.5, 0.3, 0.2]),
    "est": lambda: np.array([0.5, 0.3, 0.2]),
    "a": lambda: np.array([0.5, 0.3, 0.2]),
    "b": lambda: np.array([0.2, 0.3, 0.5]),
    "channel": lambda: _grr(),
    "C": lambda: _grr(),
    "Q": lambda: _grr(),
    "W": lambda: _grr(),
    "counts": lambda: np.array([5, 3, 2]),
    "input_counts": lambda: np.array([5, 3, 2]),
    "support_counts": lambda: np.array([5, 3, 2]),
    "report_counts": lambda: np.array([5, 3, 2]),
    "x": lambda: np.array([0, 1, 2, 1]),
    "y": lambda: np.array([0, 1, 2, 1]),
    "values": lambda: np.array([0, 1, 2, 1]),
    "reports": lambda: np.array([0, 1, 2, 1]),
    "X": lambda: np.array([[0, 1], [2, 0], [1, 1], [0, 0]]),
    "ks": lambda: [3, 2],
    "D": lambda: np.abs(np.subtract.outer(np.arange(3.0), np.arange(3.0))),
    "distance": lambda: np.abs(np.subtract.outer(np.arange(3.0), np.arange(3.0))),
    "joint": lambda: np.full((2, 3), 1 / 6),
    "p_sx": lambda: np.full((2, 3), 1 / 6),
    "rng": lambda: 0,
    "seed": lambda: 0,
    "unit": lambda: "bits",
    "r": lambda: np.array([0.3, 0.3, 0.4]),
    "lat": lambda: np.array([48.85, 48.86]),
    "lon": lambda: np.array([2.35, 2.36]),
    "row": lambda: 1,
    "col": lambda: 1,
    "vec": lambda: np.full(9, 1 / 9),
    "L": lambda: np.array([[0.8, 1.25], [1.2, 0.75]]),
    "p_s": lambda: np.array([0.5, 0.5]),
    "log_channel": lambda: np.log(_grr()),
}

ALIASES = {
    "eps": ("eps", "epsilon", "ε"),
    "epsilon": ("eps", "epsilon", "ε"),
    "X": ("X", "data", "dataset", "record"),
    "C": ("C", "channel"),
    "channel": ("channel", "C"),
    "p_sx": ("p_sx", "joint"),
    "joint": ("joint", "p_sx"),
    "rng": ("rng", "seed", "random"),
    "seed": ("seed", "rng"),
    "ks": ("ks", "k", "domain"),
    "k": ("k", "domain"),
    "n": ("n", "users", "reports"),
    "counts": ("counts", "count"),
}

#: Arguments that give the values of another argument a domain to lie in.
DOMAIN_PARAMS = {"k", "ks", "n_x", "rows", "cols", "domain", "grid", "n_items", "d_values"}

PROBABILITY_NAMES = {
    "alpha",
    "level",
    "p_keep",
    "frac",
    "fraction",
    "confidence",
    "p_fake",
    "rate",
    "prob",
    "probability",
    "q_keep",
    "theta_rr",
    "delta",
    "quantile",
    "coverage",
}
EPSILON_NAMES = {"epsilon", "eps", "eps_l", "eps_u", "beta", "eps_dp", "eps_ldp", "budget", "eps_total"}
REPS_NAMES = {
    "reps",
    "runs",
    "n_runs",
    "n_trials",
    "trials",
    "max_iter",
    "n_iter",
    "n_steps",
    "it",
    "draws",
    "sets",
    "null_reps",
    "n_surveys",
    "repeats",
    "B",
    "resamples",
    "n_resamples",
    "iterations",
    "n_boot",
    "bootstrap",
    "n_sim",
    "sims",
    "min_iter",
    "number",
    "n_rounds",
    "rounds",
    "se_reps",
}
SIZE_NAMES = {
    "k",
    "d",
    "g",
    "rows",
    "cols",
    "n",
    "n_users",
    "size",
    "m",
    "n_x",
    "n_s",
    "n_u",
    "n_y",
    "k_max",
    "omega",
    "n_samples",
    "users",
    "n_items",
    "top",
    "topk",
    "dim",
    "width",
    "height",
}
TOL_NAMES = {"tol", "atol", "rtol", "floor", "eps_tol"}


DIST_NAMES = {
    "p",
    "prior",
    "priors_j",
    "theta",
    "theta0",
    "p_x",
    "p_u",
    "p_s",
    "pi",
    "freqs",
    "f",
    "dist",
    "marginal",
    "p_y",
    "q_y",
    "mu",
    "pmf",
    "distribution",
    "target_dist",
    "population",
    "beta_u",
    "p0",
    "p_hat",
    "true",
    "truth",
    "estimate",
}
CHANNEL_NAMES = {"channel", "C", "Q", "W", "K", "M_channel", "channels", "mech", "P_yx", "kernel_matrix"}
TEXT_NAMES = {
    "name",
    "title",
    "label",
    "note",
    "xlabel",
    "ylabel",
    "caption",
    "text",
    "where",
    "claim",
    "id",
    "chapter",
    "reason",
    "seen",
    "commit",
    "date",
    "message",
    "description",
    "key",
    "tag",
    "prefix",
    "source_note",
    "cmap",
    "color",
    "colour",
    "marker",
    "fmt",
    "suffix",
    "instead",
    "path",
    "url",
    "sha256",
    "member",
    "city",
    "part",
    "title_prefix",
}


def infer_kind(name: str, value: Any, rule: Any = None) -> str:
    """The kind of an argument, from its name, a valid value and its declared rule (if any)."""
    rname = type(rule).__name__ if rule is not None else ""
    if rname == "Optional":
        rname = type(rule.inner).__name__
    if name in ("rng", "seed", "random_state"):
        return "rng"
    if isinstance(value, str) and (name in TEXT_NAMES or rname in ("Instance", "Unchecked")):
        return "text"
    if isinstance(value, bool) or isinstance(value, np.bool_):
        return "bool"
    if isinstance(value, str):
        return "option"
    if callable(value) and not isinstance(value, np.ndarray):
        return "callable"
    if isinstance(value, (int, np.integer)):
        if name in REPS_NAMES:
            return "reps"
        return "size" if (name in SIZE_NAMES or value >= 1) else "int"
    if isinstance(value, (float, np.floating)):
        if name in EPSILON_NAMES:
            return "epsilon"
        if name in TOL_NAMES:
            return "tol"
        if name in PROBABILITY_NAMES or (0.0 < value < 1.0 and name in ("p", "q")):
            return "probability"
        return "real"
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, (int, np.integer)) for v in value):
        value = np.asarray(value)
        if name in ("ks", "sizes", "shape", "dims"):
            return "sizes"
    if isinstance(value, np.ndarray) and value.dtype.kind in "iuf" and value.size:
        a = value
        if a.ndim == 1:
            if a.dtype.kind in "iu" or np.all(a == np.round(a)):
                if name in ("x", "y", "values", "reports", "v", "codes", "locs", "idx", "items", "u"):
                    return "values"
                if np.all(a >= 0):
                    return "counts"
                return "vector"
            if np.all(a >= 0) and abs(a.sum() - 1) < 1e-9 and (name in DIST_NAMES or rname == "Distribution"):
                return "distribution"
            return "vector"
        if a.ndim == 2:
            if a.dtype.kind in "iu" and name in ("X", "data", "dataset", "T", "background"):
                return "dataset"
            if np.all(a >= 0) and np.allclose(a.sum(axis=1), 1) and (name in CHANNEL_NAMES or rname == "Channel"):
                return "channel"
            if (
                np.all(a >= 0)
                and abs(a.sum() - 1) < 1e-9
                and (name in ("joint", "p_sx", "p_xy", "p_us", "joint_us", "p_xs") or rname == "Distribution")
            ):
                return "joint"
            if a.shape[0] == a.shape[1] and np.all(a >= 0) and np.allclose(np.diag(a), 0):
                return "distance"
            if np.all(a >= 0) and np.all(a == np.round(a)):
                return "counts2d"
            return "matrix"
    return "object"


def _shorter(value: Any) -> Any:
    a = np.asarray(value)
    return a[:-1] if a.shape[0] > 1 else None


EMPTY = object()  # no default


def bad_values(kind: str, name: str, value: Any, default: Any = EMPTY) -> list:
    """``(label, category, bad value)`` for an argument of ``kind`` whose valid value is ``value``."""
    out: list[tuple[str, str, Any]] = []
    nan, inf = float("nan"), float("inf")

    def add(label, cat, v):
        out.append((label, cat, v))

    typed = [("None", "type", None), ("str", "type", "abc"), ("object", "type", object())]
    if kind == "epsilon":
        for lab, v in (("zero", 0.0), ("negative", -1.0), ("nan", nan), ("inf", inf)):
            add(lab, "invalid", v)
        add("str-number", "type", "1.0")
        add("list", "type", [1.0])
        for lab, v in (("tiny 1e-12", 1e-12), ("710", 710.0), ("1e4", 1e4)):
            add(lab, "edge", v)
    elif kind == "probability":
        for lab, v in (("negative", -0.1), ("above-1", 1.5), ("nan", nan), ("inf", inf)):
            add(lab, "invalid", v)
        add("str-number", "type", "0.5")
    elif kind == "tol":
        for lab, v in (("negative", -1.0), ("nan", nan), ("inf", inf)):
            add(lab, "invalid", v)
        add("str-number", "type", "0.1")
    elif kind == "real":
        add("nan", "invalid", nan)
        add("str-number", "type", "1.0")
    elif kind in ("size", "reps"):
        for lab, v in (("zero", 0), ("negative", -3), ("fractional", 2.5), ("nan", nan)):
            add(lab, "invalid", v)
        add("huge 2**40", "huge", 1 << 40)
        add("str-number", "type", "3")
        add("bool", "type", True)
    elif kind == "int":
        add("fractional", "invalid", 2.5)
        add("nan", "invalid", nan)
        add("str-number", "type", "3")
    elif kind == "sizes":
        a = list(np.asarray(value))
        add("a zero size", "invalid", [0] + a[1:])
        add("a negative size", "invalid", [-2] + a[1:])
        add("a fractional size", "invalid", [2.7] + [float(v) for v in a[1:]])
        add("empty", "invalid", [])
        add("huge 2**40", "huge", [1 << 40] + a[1:])
        add("strings", "type", ["a"] * len(a))
    elif kind == "distribution":
        a = np.asarray(value, float)
        n = len(a)
        add("sum-0.8", "invalid", a * 0.8)
        neg = np.zeros(n)
        neg[0], neg[-1] = 1.2, -0.2
        add("negative", "invalid", neg)
        b = a.copy()
        b[0] = nan
        add("nan", "invalid", b)
        add("empty", "invalid", np.array([]))
        add("2-D", "invalid", a[None, :])
        if n > 1:
            add("shorter", "mismatch", np.full(n - 1, 1.0 / (n - 1)))
        add("strings", "type", ["a"] * n)
    elif kind in ("counts", "counts2d"):
        a = np.asarray(value)
        neg = a.astype(np.int64).copy()
        neg.flat[0] = -1
        add("negative", "invalid", neg)
        fr = a.astype(float).copy()
        fr.flat[0] += 0.5
        add("fractional", "invalid", fr)
        nn = a.astype(float).copy()
        nn.flat[0] = nan
        add("nan", "invalid", nn)
        add("empty", "invalid", np.zeros((0,) * a.ndim))
        big = np.zeros(a.shape, dtype=np.int64)
        big.flat[0] = big.flat[-1] = 1 << 62
        add("total past int64", "huge", big)
        if a.shape[0] > 1:
            add("shorter", "mismatch", _shorter(a))
        add("all zero", "edge", np.zeros(a.shape, dtype=np.int64))
        add("strings", "type", ["a"] * a.shape[0])
    elif kind == "values":
        a = np.asarray(value)
        oob = a.copy()
        oob[0] = 10**6
        add("outside the domain", "invalid", oob)
        neg = a.copy()
        neg[0] = -1
        add("negative", "invalid", neg)
        fr = a.astype(float)
        fr[0] = 0.5
        add("fractional", "invalid", fr)
        nn = a.astype(float)
        nn[0] = nan
        add("nan", "invalid", nn)
        add("strings", "type", ["a"] * len(a))
    elif kind == "dataset":
        a = np.asarray(value)
        neg = a.copy()
        neg[0, 0] = -1
        add("negative code", "invalid", neg)
        oob = a.copy()
        oob[0, 0] = 10**6
        add("code outside the domain", "invalid", oob)
        fr = a.astype(float)
        fr[0, 0] = 0.5
        add("fractional code", "invalid", fr)
        add("1-D", "invalid", a[:, 0])
        add("no records", "invalid", a[:0])
        add("fewer attributes", "mismatch", a[:, :-1])
    elif kind == "channel":
        C = np.asarray(value, float)
        add("rows sum to 1.25", "invalid", 1.25 * C)
        neg = C.copy()
        neg[0, 0] += 0.1 + neg[0, -1]
        neg[0, -1] = -0.1  # the row still sums to 1
        add("negative entry", "invalid", neg)
        nn = C.copy()
        nn[0, 0] = nan
        add("nan", "invalid", nn)
        add("1-D", "invalid", C[0])
        add("empty", "invalid", np.zeros((0, 0)))
        if C.shape[0] > 1:
            add("a row fewer", "mismatch", C[:-1])
        if C.shape[1] > 1:
            Cc = C[:, :-1] / C[:, :-1].sum(axis=1, keepdims=True)
            add("a column fewer", "mismatch", Cc)
        add("strings", "type", [["a"]])
    elif kind == "joint":
        J = np.asarray(value, float)
        add("sums to 0.8", "invalid", 0.8 * J)
        neg = J.copy()
        neg.flat[0] += 0.1 + neg.flat[-1]
        neg.flat[-1] = -0.1  # still sums to 1
        add("negative entry", "invalid", neg)
        nn = J.copy()
        nn.flat[0] = nan
        add("nan", "invalid", nn)
        add("1-D", "invalid", J.ravel())
    elif kind == "distance":
        Dm = np.asarray(value, float)
        neg = Dm.copy()
        neg[0, 1] = -1.0
        add("negative", "invalid", neg)
        nn = Dm.copy()
        nn[0, 1] = nan
        add("nan", "invalid", nn)
        add("not square", "invalid", Dm[:-1])
    elif kind in ("vector", "matrix"):
        a = np.asarray(value, float).copy()
        a.flat[0] = nan
        add("nan", "invalid", a)
        b = np.asarray(value, float).copy()
        b.flat[0] = inf
        add("inf", "invalid", b)
        add("empty", "invalid", np.zeros((0,) * np.ndim(value)))
    elif kind == "option":
        add("unknown option", "invalid", "__bogus__")
        add("int", "type", 3)
    elif kind == "text":
        add("int", "type", 3)
        add("object", "type", object())
        return out
    elif kind == "bool":
        add("str", "type", "yes")
        add("int 2", "type", 2)
    elif kind == "rng":
        add("str", "type", "abc")
        add("negative seed", "invalid", -1)
        add("fractional seed", "type", 1.5)
        return out
    elif kind == "callable":
        add("not callable", "type", 3)
        return out
    for lab, cat, v in typed:
        if lab == "None" and (default is None):
            continue  # None is this argument's own default
        out.append((lab, cat, v))
    return out
