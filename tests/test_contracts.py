"""Contracts generated tests: every contracted public function refuses every invalid value of every
argument with a clear ValueError/TypeError raised by its contract (before the body runs), naming the
argument; every default meets its own rule; and every public function of a contracted module has a
contract.
"""

import functools
import importlib
import inspect
import pkgutil
import re
import traceback
from typing import Any, Callable

import numpy as np
import pytest
from fuzz.surface import concrete_subclasses, public_surface

import ldpnb
from ldpnb import contracts as C
from ldpnb.contracts import contract, contract_of

#: Modules whose public functions must all carry a contract (grows to every module of the package;
#: ldpnb.contracts itself is the machinery; ldpnb.utils holds the uncontracted conveniences that
#: check a value in a function's body).
CONTRACTED: set[str] = {
    "ldpnb.channels._generic",
    "ldpnb.channels.structured",
    "ldpnb.mechanisms._base",
    "ldpnb.mechanisms._catalog",
    "ldpnb.mechanisms._common",
    "ldpnb.mechanisms.grr",
    "ldpnb.mechanisms.unary",
    "ldpnb.mechanisms.hashing",
    "ldpnb.mechanisms.subset",
    "ldpnb.mechanisms.metric",
    "ldpnb.mechanisms.hadamard",
    "ldpnb.mechanisms._hashes",
    "ldpnb.mechanisms.rappor",
    "ldpnb.mechanisms.longitudinal",
    "ldpnb.estimators._inversion",
    "ldpnb.measures.information",
    "ldpnb.measures.utility",
    "ldpnb.audit.empirical",
    "ldpnb.audit.registry",
    "ldpnb.data.datasets",
    "ldpnb.data.grid",
    "ldpnb.geometry",
    "ldpnb.parallel",
    "ldpnb.attacks.linkage",
    "ldpnb.attacks.deniability",
    "ldpnb.attacks.inference",
    "ldpnb.attacks.reidentification",
    "ldpnb.estimators._likelihood",
    "ldpnb.measures.lift",
    "ldpnb.measures.pse",
    "ldpnb.measures.reidentification",
    "ldpnb.mechanisms.orr",
    "ldpnb.mechanisms.rate_distortion",
    "ldpnb.mechanisms.watchdog",
    "ldpnb.mechanisms.multidim",
    "ldpnb.mechanisms.protocols",
    "ldpnb.estimators._ibu",
    "ldpnb.repro.seeds",
    "ldpnb.repro.claims",
    "ldpnb.repro.report",
    "ldpnb.repro.build",
    "ldpnb.repro.toc",
    "ldpnb.repro.paperscale",
    "ldpnb.repro.nbcheck",
    "ldpnb.repro.nbstrip",
    "ldpnb.repro.plotting",
    "ldpnb.repro.sphinx_ext",
    "ldpnb.repro.dashboard",
    "ldpnb.stats._estimate",
    "ldpnb.stats._intervals",
    "ldpnb.stats._rank",
    "ldpnb.stats._decide",
    "ldpnb.papers.foundations.figures",
    "ldpnb.papers.audit.figures",
    "ldpnb.papers.ibu.experiments",
    "ldpnb.papers.ibu.figures",
    "ldpnb.papers.ibu.mle",
    "ldpnb.papers.ibu.readings",
    "ldpnb.papers.ibu.scoring",
    "ldpnb.papers.ibu.tables",
    "ldpnb.papers.ibu.theory",
    "ldpnb.papers.lift.experiments",
    "ldpnb.papers.lift.figures",
    "ldpnb.papers.lift.grading",
    "ldpnb.papers.lift.theory",
    "ldpnb.papers.pie.figures",
    "ldpnb.papers.pie.identification",
    "ldpnb.papers.pie.theory",
    "ldpnb.papers.pie.utility",
    "ldpnb.papers.privic.claims",
    "ldpnb.papers.privic.experiments",
    "ldpnb.papers.privic.figures",
    "ldpnb.papers.privic.grading",
    "ldpnb.papers.privic.model",
    "ldpnb.papers.performance.bench",
    "ldpnb.papers.performance.experiments",
    "ldpnb.papers.performance.figures",
    "ldpnb.papers.performance.tables",
    "ldpnb.papers.risks.checks",
    "ldpnb.papers.risks.experiments",
    "ldpnb.papers.risks.figures",
    "ldpnb.papers.risks.grading",
    "ldpnb.papers.risks.protocol",
    "ldpnb.papers.risks.runs",
    "ldpnb.papers.risks.text",
    "ldpnb.papers.risks.xgb",
    "ldpnb.papers.synthesis.comparisons",
    "ldpnb.papers.synthesis.estimation",
    "ldpnb.papers.synthesis.experiments",
    "ldpnb.papers.synthesis.families",
    "ldpnb.papers.synthesis.figures",
    "ldpnb.papers.synthesis.guide",
    "ldpnb.papers.synthesis.text",
    "ldpnb.papers.synthesis.variance",
}


def _modules():
    out = []
    for m in pkgutil.walk_packages(ldpnb.__path__, "ldpnb."):
        if m.name.endswith("__main__"):
            continue
        out.append(importlib.import_module(m.name))
    return out


def _public(mod):
    names = getattr(mod, "__all__", None) or [n for n in vars(mod) if not n.startswith("_")]
    for n in names:
        obj = getattr(mod, n, None)
        if (inspect.isfunction(obj) or inspect.isclass(obj)) and getattr(obj, "__module__", "") == mod.__name__:
            yield n, obj


MODULES = _modules()
CONTRACTED_FUNCS = [(f"{m.__name__}.{n}", obj) for m in MODULES for n, obj in _public(m) if contract_of(obj)]
SURFACE = public_surface()
#: Contracted public methods (tests/fuzz/surface.py: the methods of every exported class and of its ldpnb
#: bases), called on an instance of each exported concrete class that has them (or on the class for a static
#: or class method).
CONTRACTED_METHODS = [(n.qual, n) for n in SURFACE if n.kind == "method" and contract_of(n.obj)]

#: Example instances of classes whose constructor's contract alone does not build one.
EXAMPLES: dict[str, Callable[[], Any]] = {
    # a watcher thread per instance: one, closed at exit
    "ldpnb.repro.build.ProcessTree": lambda: _process_tree(),
    # x must hold one location per user of pi: a rule between two arguments, checked in the body
    "ldpnb.attacks.linkage.SingleLocationAttack": lambda: __import__(
        "ldpnb.attacks", fromlist=["x"]
    ).SingleLocationAttack(__import__("scipy.sparse", fromlist=["x"]).csr_matrix([[0.5, 0.5], [1.0, 0.0]]), [0, 1]),
    # dataclasses validated in __post_init__
    "ldpnb.repro.claims.Claim": lambda: __import__("ldpnb.repro.claims", fromlist=["x"]).Claim(
        "T1", "an example", source="derived", kind="range", where="Sec. 1", lower=0.0, upper=1.0
    ),
    "ldpnb.mechanisms._base.Guarantee": lambda: __import__("ldpnb.mechanisms", fromlist=["x"]).Guarantee("ldp", 1.0),
    # a record of measured times (built by interleaved), ratio reads its runs
    "ldpnb.papers.performance.bench.Timing": lambda: __import__(
        "ldpnb.papers.performance.bench", fromlist=["x"]
    ).Timing({"a": 2.0, "b": 1.0}, {"a": [2.0], "b": [1.0]}),
    # the constructor's baseline (p = q = 0.5) is a degenerate IRR, refused in the body
    "ldpnb.mechanisms.rappor.BloomRAPPOR": lambda: __import__("ldpnb.mechanisms", fromlist=["x"]).BloomRAPPOR(4, 1.0),
    # low and the blocks must partition the inputs: a rule between the arguments, checked in __post_init__
    "ldpnb.mechanisms.watchdog.MergeMechanism": lambda: __import__(
        "ldpnb.mechanisms.watchdog", fromlist=["x"]
    ).MergeMechanism(3, np.array([0]), [np.array([1, 2])]),
    # the kernel has an odd length (offsets -h..h): a rule of its shape, checked in the body
    "ldpnb.channels.structured.ConvolutionChannel": lambda: __import__(
        "ldpnb.channels.structured", fromlist=["x"]
    ).ConvolutionChannel(np.array([0.25, 0.5, 0.25]), 4),
    # a result record (built by the IBU engines): its method certified reads its gap
    "ldpnb.estimators._ibu.IBUResult": lambda: __import__("ldpnb.estimators._ibu", fromlist=["x"]).IBUResult(
        np.array([0.5, 0.5]), 3, True, -0.69, 1e-9
    ),
    "ldpnb.papers.lift.experiments.Curve": lambda: __import__("ldpnb.papers.lift.experiments", fromlist=["x"]).Curve(
        "ALIP, SM", "sm"
    ),
    # values must have shape (runs, len(grid), len(surveys), len(topk)): a rule between the arguments
    "ldpnb.papers.risks.runs.RidRuns": lambda: __import__("ldpnb.papers.risks.runs", fromlist=["x"]).RidRuns(
        np.full((2, 1, 2, 3), 50.0), [1.0], (2, 5), (1, 5, 10)
    ),
}


@pytest.mark.parametrize("mod", [m for m in MODULES if m.__name__ in CONTRACTED], ids=lambda m: m.__name__)
def test_every_public_function_has_a_contract(mod):
    missing = [n for n, obj in _public(mod) if inspect.isfunction(obj) and contract_of(obj) is None]
    assert not missing, f"{mod.__name__}: public functions without a contract: {missing}"


def _cases():
    for qual, func in CONTRACTED_FUNCS:
        rules = contract_of(func)
        for pname, rule in rules.items():
            for i, bad in enumerate(rule.invalid()):
                yield pytest.param(func, pname, bad, id=f"{qual}:{pname}:{i}")


def _baseline(func):
    target = func.__init__ if inspect.isclass(func) else func
    sig = inspect.signature(target)
    rules = contract_of(func)
    kwargs, args = {}, []
    for name, p in sig.parameters.items():
        if name in ("self", "cls") or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if name in rules:
            value = rules[name].valid()
        elif p.default is not p.empty:
            continue
        else:
            pytest.fail(f"{func.__qualname__}: required parameter {name!r} has no rule in the contract")
        if p.kind == p.POSITIONAL_ONLY:
            args.append(value)
        else:
            kwargs[name] = value
    return args, kwargs


@pytest.mark.parametrize("func, pname, bad", list(_cases()))
def test_contract_refuses_invalid_values(func, pname, bad):
    args, kwargs = _baseline(func)
    kwargs[pname] = bad
    with pytest.raises((TypeError, ValueError)) as info:
        func(*args, **kwargs)
    frames = traceback.extract_tb(info.tb)
    assert frames[-1].filename.endswith("contracts.py"), (
        f"{func.__qualname__}({pname}={bad!r:.60}) was refused by the body, not by the contract: {info.value}"
    )
    assert pname in str(info.value), f"the message does not name {pname!r}: {info.value}"


def _process_tree():
    import atexit

    from ldpnb.repro.build import ProcessTree

    tree = ProcessTree(interval=5.0)
    atexit.register(tree.close)
    return tree


@functools.lru_cache(maxsize=None)
def _instance(cls: type) -> Any:
    """An instance of ``cls`` built from its constructor's contract (every rule's valid example), or from
    :data:`EXAMPLES`; None when neither builds one."""
    qual = f"{cls.__module__}.{cls.__qualname__}"
    if qual in EXAMPLES:
        return EXAMPLES[qual]()
    if contract_of(cls) is None:
        return None
    try:
        args, kwargs = _baseline(cls)
        return cls(*args, **kwargs)
    except (TypeError, ValueError, pytest.fail.Exception):
        return None


def _bound(name) -> Callable:
    """The method of ``name`` ready to call: on the class for a static or class method, else on an
    instance of the first exported concrete class that inherits it and can be built."""
    raw = inspect.getattr_static(name.owner_class, name.method)
    if isinstance(raw, (staticmethod, classmethod)):
        return getattr(name.owner_class, name.method)
    for cls in concrete_subclasses(name.owner_class, SURFACE):
        if getattr(cls, name.method, None) is None or inspect.getattr_static(cls, name.method) is not raw:
            continue  # overridden: the override is a public name of its own
        inst = _instance(cls)
        if inst is not None:
            return getattr(inst, name.method)
    pytest.fail(
        f"{name.qual}: no exported concrete class with this method can be built from its contract; "
        "add an example instance to EXAMPLES"
    )


def _method_cases():
    for qual, name in CONTRACTED_METHODS:
        for pname, rule in contract_of(name.obj).items():
            for i, bad in enumerate(rule.invalid()):
                yield pytest.param(name, pname, bad, id=f"{qual}:{pname}:{i}")


@pytest.mark.parametrize("name, pname, bad", list(_method_cases()))
def test_contracted_methods_refuse_invalid_values(name, pname, bad):
    method = _bound(name)
    args, kwargs = _baseline(name.obj)
    kwargs[pname] = bad
    with pytest.raises((TypeError, ValueError)) as info:
        method(*args, **kwargs)
    frames = traceback.extract_tb(info.tb)
    assert frames[-1].filename.endswith("contracts.py"), (
        f"{name.qual}({pname}={bad!r:.60}) was refused by the body, not by the contract: {info.value}"
    )
    assert pname in str(info.value), f"the message does not name {pname!r}: {info.value}"


@pytest.mark.parametrize("qual, name", CONTRACTED_METHODS, ids=[q for q, _ in CONTRACTED_METHODS])
def test_contracted_methods_accept_their_valid_examples_at_the_contract(qual, name):
    """The baseline call of the generated test passes the contract (else every bad value would be refused
    for the wrong reason): the contract converts each valid example without error."""
    args, kwargs = _baseline(name.obj)
    for pname, rule in contract_of(name.obj).items():
        if pname in kwargs:
            rule.check(kwargs[pname], pname)
    assert callable(_bound(name))


@pytest.mark.parametrize("qual, func", CONTRACTED_FUNCS, ids=[q for q, _ in CONTRACTED_FUNCS])
def test_defaults_meet_their_rules(qual, func):
    target = func.__init__ if inspect.isclass(func) else func
    for name, p in inspect.signature(target).parameters.items():
        rule = contract_of(func).get(name)
        if rule is not None and p.default is not p.empty:
            rule.check(p.default, name)


# ------------------------------------------------------------------------- the machinery itself
@contract(
    k=C.Integer(2, 100),
    eps=C.Real(0, None, low_open=True),
    p=C.Distribution(),
    mode=C.OneOf("a", "b"),
    counts=C.Counts(),
    channel=C.Channel(),
    rng=C.RandomState(),
    tol=C.Optional(C.Real(0, None)),
)
def _demo(k, eps, p, mode="a", counts=None, channel=None, *, rng=None, tol=None):
    return k, eps, p, mode, counts, channel, tol


def test_contract_converts_and_explains():
    k, eps, p, mode, counts, ch, tol = _demo(np.int64(5), 1, [0.25, 0.75], counts=[1, 2.0], channel=[[1.0, 0.0]])
    assert type(k) is int and type(eps) is float and p.dtype == float and counts.dtype == np.int64
    with pytest.raises(TypeError, match=r"k must be an integer in \[2, 100\], got 2.5"):
        _demo(2.5, 1.0, [1.0])
    with pytest.raises(ValueError, match=r"eps must be a finite real number in \(0, inf\)"):
        _demo(2, 0.0, [1.0])
    with pytest.raises(ValueError, match="p must be a probability vector"):
        _demo(2, 1.0, [0.5, 0.6])
    with pytest.raises(ValueError, match="channel must be a channel matrix.*row 0 sums to 1.1"):
        _demo(2, 1.0, [1.0], channel=[[0.5, 0.6]])
    with pytest.raises(ValueError, match="counts.*exceeds"):
        _demo(2, 1.0, [1.0], counts=[1 << 62, 1 << 62])


def test_demo_contract_is_complete_under_the_generated_checks():
    args, kwargs = _baseline(_demo)
    _demo(*args, **kwargs)
    for pname, rule in contract_of(_demo).items():
        for bad in rule.invalid():
            kw = dict(kwargs, **{pname: bad})
            with pytest.raises((TypeError, ValueError)):
                _demo(*args, **kw)


def _shapes(a, b=2, /, c=3, *, d, e=5):
    return a, b, c, d, e


_shapes_c = contract(a=C.Integer(0, 9), c=C.Integer(0, 9), d=C.Integer(0, 9))(_shapes)


@pytest.mark.parametrize(
    "args, kwargs",
    [
        ((1,), {"d": 4}),
        ((1, 2, 3), {"d": 4}),
        ((1,), {"c": 3, "d": 4, "e": 6}),
        ((1, 2), {"d": 4, "c": 3}),
        # calls that do not bind: missing, duplicate, unknown, positional-only by name, too many
        ((), {"d": 4}),
        ((1,), {}),
        ((1, 2, 3), {"c": 3, "d": 4}),
        ((1,), {"d": 4, "f": 0}),
        ((), {"a": 1, "d": 4}),
        ((1, 2, 3, 4), {"d": 4}),
        # invalid values, positional and by keyword
        ((10,), {"d": 4}),
        ((1, 2, 10), {"d": 4}),
        ((1,), {"c": 2.5, "d": 4}),
        ((1,), {"d": -1}),
    ],
)
def test_contract_binds_every_call_shape_as_the_signature_does(args, kwargs):
    """The wrapper's fast path (calls that bind without ``inspect.Signature.bind``) and the bound
    path give the same result or the same error as checking the bound arguments one by one."""
    sig = inspect.signature(_shapes)
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError as exc:
        with pytest.raises(TypeError, match="^" + re.escape(f"_shapes(): {exc}") + "$"):
            _shapes_c(*args, **kwargs)
        return
    rules = contract_of(_shapes_c)
    try:
        for name, rule in rules.items():  # declaration order: the first failing rule is reported
            if name in bound.arguments:
                bound.arguments[name] = rule.check(bound.arguments[name], name)
    except (TypeError, ValueError) as exc:
        with pytest.raises(type(exc), match="^" + re.escape(str(exc)) + "$"):
            _shapes_c(*args, **kwargs)
        return
    assert _shapes_c(*args, **kwargs) == _shapes(*bound.args, **bound.kwargs)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("rule", [C.Array(1), C.Array(1, low=0.0), C.Array(1, integer=True), C.Distribution()])
def test_one_non_finite_entry_among_finite_ones_is_refused(rule, bad):
    """The finiteness check (the min and the max of the entries) sees a single NaN or infinity
    anywhere in the array."""
    for where in (0, 3, 7):
        x = np.full(8, 0.125)
        x[where] = bad
        with pytest.raises(ValueError, match="x must be .*NaN or infinite entries"):
            rule.check(x, "x")


# ------------------------------------------------------------------------- checked once per boundary
_inner_calls: list = []


@contract(k=C.Integer(2, 10), x=C.Array(1), eps=C.EPSILON)
def _inner(k, x, eps):
    _inner_calls.append((type(k), x.dtype, type(eps)))
    return k


@contract(k=C.Integer(2, 10))
def _outer(k):
    return _inner(k + 100, np.array([1, 2]), 1)  # derived values the inner contract would refuse (k > 10)


@contract(skip_nested=False, k=C.Integer(2, 10))
def _outer_checking(k):
    return _inner(k + 100, np.array([1, 2]), 1)


@contract(task=C.Instance(dict, example={"k": 3}))
def _outer_dict(task):
    return _inner(task["k"], np.array([1.0]), 1.0)


def test_nested_contracted_calls_convert_without_checking():
    """Inside a contracted call the inner contract converts (an int array to float64, an int epsilon to
    float) but does not check: the boundary checked once."""
    _inner_calls.clear()
    assert _outer(3) == 103
    assert _inner_calls == [(int, np.float64, float)]
    with pytest.raises(ValueError, match="k must be an integer in"):
        _outer(11)  # the boundary itself still checks
    with pytest.raises(ValueError, match="k must be"):
        _inner(103, [1.0], 1.0)  # called directly, the inner function is the boundary


def test_skip_nested_false_and_incomplete_contracts_let_nested_calls_check():
    with pytest.raises(ValueError, match="k must be an integer in"):
        _outer_checking(3)
    with pytest.raises(ValueError, match="k must be an integer in"):
        _outer_dict({"k": 50})  # Instance(dict) does not check the dict's content
    assert contract_of(_outer) and _outer.__skips_nested__ and not _outer_dict.__skips_nested__


def test_skipping_ends_with_the_outer_call():
    _outer(3)
    with pytest.raises(ValueError):
        _inner(1, [1.0], 1.0)
