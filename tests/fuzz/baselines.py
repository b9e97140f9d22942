"""Hand-written baselines, example instances, the names not fuzzed (with why) and the values accepted on
purpose (with why) of the fuzz (:mod:`tests.fuzz.run`)."""

from __future__ import annotations

import inspect
from typing import Any, Callable

import numpy as np

from ldpnb.contracts import Constraint, contract_of

from . import catalogue
from .surface import Name, is_record

K = catalogue.K


def _grr(k=K, eps=1.0):
    return catalogue._grr(k, eps)


def _claim(kind="close", id="T1", **kw):  # noqa: A002 - the claim's field
    from ldpnb.repro.claims import Claim, Printed

    base = {
        "close": dict(paper=Printed(1.0, "Table 1"), atol=0.1),
        "range": dict(reference=None, lower=0.0, upper=1.0),
        "order": dict(relation="a < b"),
        "monotone": dict(direction="increasing"),
        "holds": dict(rule="x > 0"),
    }[kind]
    return Claim(
        id, "a claim", source="paper" if kind == "close" else "derived", kind=kind, where="Sec. 1", **{**base, **kw}
    )


def _ks():
    return [3, 2]


def _X():
    return np.array([[0, 1], [2, 0], [1, 1], [0, 0], [2, 1]])


def _counts_per_attr():
    return [np.array([5, 3, 2]), np.array([6, 4])]


def _joint():
    return np.array([[0.2, 0.1, 0.1], [0.1, 0.2, 0.3]])


def _report(tmp=None):
    from ldpnb.repro import Report
    from ldpnb.repro.claims import claim_table

    return Report(
        "fuzz",
        claim_table(
            _claim("close"),
            _claim("range", id="T2"),
            _claim("order", id="T3"),
            _claim("monotone", id="T4"),
            _claim("holds", id="T5"),
            _not_evaluated(),
        ),
        scale="smoke",
        seed=0,
    )


def _not_evaluated():
    from ldpnb.repro.claims import Claim

    return Claim(
        "T6",
        "a claim not evaluated",
        source="derived",
        kind="range",
        where="Sec. 1",
        lower=0.0,
        upper=1.0,
        expect="not-evaluated",
        note="needs the paper's data",
    )


#: Baseline arguments by qualified name, where the example table by argument name does not fit.
HAND: dict[str, Callable[[], dict[str, Any]]] = {
    # subset merging: disjoint blocks (the contract's example block repeats an index)
    "ldpnb.mechanisms.watchdog.merging_mi": lambda: dict(p_x=np.array([0.2, 0.3, 0.5]), groups=[[0, 1]], unit="nats"),
    # multidimensional protocols (k = (3, 2), 5 records)
    "ldpnb.mechanisms.multidim.fo_params": lambda: dict(protocol="grr", k=3, eps=1.0),
    "ldpnb.mechanisms.multidim.rsfd_params": lambda: dict(protocol="grr", k=3, eps=1.0, d=2),
    "ldpnb.mechanisms.multidim.rsfd_collect": lambda: dict(
        X=_X(), ks=_ks(), eps=1.0, protocol="grr", fake="uniform", rng=0
    ),
    "ldpnb.mechanisms.multidim.smp_collect": lambda: dict(X=_X(), ks=_ks(), eps=1.0, protocol="grr", rng=0),
    "ldpnb.mechanisms.multidim.spl_collect": lambda: dict(X=_X(), ks=_ks(), eps=1.0, protocol="grr", rng=0),
    "ldpnb.mechanisms.multidim.rsfd_aggregate": lambda: dict(
        reports=__import__("ldpnb.mechanisms.multidim", fromlist=["x"]).rsfd_collect(
            _X(), _ks(), 1.0, "grr", "uniform", rng=0
        ),
        ks=_ks(),
        eps=1.0,
        protocol="grr",
        fake="uniform",
    ),
    "ldpnb.mechanisms.multidim.rsfd_support_counts": lambda: dict(
        reports=__import__("ldpnb.mechanisms.multidim", fromlist=["x"]).rsfd_collect(
            _X(), _ks(), 1.0, "oue", "zero", rng=0
        )
    ),
    "ldpnb.mechanisms.multidim.rsfd_approx_variance": lambda: dict(
        ks=_ks(), n=100, eps=1.0, protocol="grr", fake="uniform"
    ),
    "ldpnb.mechanisms.multidim.rsfd_counts_sampler": lambda: dict(
        input_counts=_counts_per_attr(), d=2, eps=1.0, protocol="grr", fake="uniform", rng=0
    ),
    "ldpnb.mechanisms.multidim.rsfd_estimate": lambda: dict(
        counts=np.array([5, 3, 2]), n=10, d=2, k=3, p=0.6, q=0.2, variant="grr"
    ),
    "ldpnb.mechanisms.multidim.rsfd_support_probability": lambda: dict(
        f=np.array([0.5, 0.3, 0.2]), d=2, k=3, p=0.6, q=0.2, variant="grr"
    ),
    "ldpnb.mechanisms.multidim.rsfd_variance": lambda: dict(
        f=np.array([0.5, 0.3, 0.2]), n=100, d=2, k=3, p=0.6, q=0.2, variant="grr"
    ),
    "ldpnb.mechanisms.multidim.smp_estimate": lambda: dict(
        counts=_counts_per_attr(), n_j=[10, 10], ks=_ks(), eps=1.0, protocol="grr"
    ),
    "ldpnb.mechanisms.multidim.spl_estimate": lambda: dict(
        counts=_counts_per_attr(), n=10, ks=_ks(), eps=1.0, protocol="grr"
    ),
    "ldpnb.mechanisms.multidim.smp_variance": lambda: dict(
        f=np.array([0.5, 0.3, 0.2]), n=100, k=3, eps=1.0, d=2, protocol="grr"
    ),
    "ldpnb.mechanisms.multidim.spl_variance": lambda: dict(
        f=np.array([0.5, 0.3, 0.2]), n=100, k=3, eps=1.0, d=2, protocol="grr"
    ),
    "ldpnb.mechanisms.multidim.exact_privacy_loss": lambda: dict(ks=_ks(), eps=1.0),
    "ldpnb.mechanisms.multidim.sample_attributes": lambda: dict(n=5, d=2, rng=0),
    # estimators and channels
    "ldpnb.estimators._ibu.gibu": lambda: dict(
        channels=[_grr(), _grr(eps=2.0)], counts_list=[np.array([5, 3, 2]), np.array([4, 4, 2])]
    ),
    "ldpnb.estimators._ibu.gibu_log_likelihood": lambda: dict(
        theta=np.array([0.5, 0.3, 0.2]),
        channels=[_grr(), _grr(eps=2.0)],
        counts_list=[np.array([5, 3, 2]), np.array([4, 4, 2])],
    ),
    "ldpnb.estimators._ibu.ibu_batch": lambda: dict(channel=_grr(), counts=np.array([[5, 3, 2], [2, 3, 5]])),
    "ldpnb.estimators._inversion.fo_estimate": lambda: dict(support_counts=np.array([5, 3, 2]), n=10, p=0.6, q=0.2),
    "ldpnb.estimators._inversion.fo_variance": lambda: dict(f=np.array([0.5, 0.3, 0.2]), n=10, p=0.6, q=0.2),
    "ldpnb.channels.structured.DiagPlusConstChannel": lambda: dict(a=0.4, b=0.2, k=3),
    "ldpnb.channels.structured.DiagPlusConstChannel.from_support": lambda: dict(k=3, p=0.6, q=0.2),
    "ldpnb.channels.structured.ConvolutionChannel": lambda: dict(kernel=np.array([0.25, 0.5, 0.25]), grid=(5,)),
    "ldpnb.channels._generic.clamp_grid_outputs": lambda: dict(channel=np.full((4, 4), 0.25), rows=2, cols=2),
    "ldpnb.data.grid.Grid": lambda: dict(lat_min=48.8, lat_max=48.9, lon_min=2.3, lon_max=2.4, rows=3, cols=3),
    "ldpnb.mechanisms._base.ChannelMechanism": lambda: dict(channel=_grr(), epsilon=1.0),
    "ldpnb.mechanisms.watchdog.SecretChannelMechanism": lambda: dict(channel=_grr(), epsilon=1.0),
    "ldpnb.mechanisms.rate_distortion.BlahutArimoto": lambda: dict(
        prior=np.array([0.5, 0.3, 0.2]), distance=np.abs(np.subtract.outer(np.arange(3.0), np.arange(3.0))), beta=1.0
    ),
    "ldpnb.mechanisms.rate_distortion.blahut_arimoto_lattice": lambda: dict(
        prior=np.full(4, 0.25), rows=2, cols=2, beta=1.0
    ),
    "ldpnb.mechanisms.multidim.RSRFD": lambda: dict(
        ks=_ks(), priors=[np.array([0.5, 0.3, 0.2]), np.array([0.6, 0.4])], epsilon=1.0
    ),
    "ldpnb.mechanisms.watchdog.MergeMechanism": lambda: dict(n_x=3, low=np.array([0, 1]), groups=[np.array([0, 1])]),
    "ldpnb.mechanisms.orr.polytope_vertices": lambda: dict(
        A_ub=np.vstack([np.eye(2), -np.eye(2)]), b_ub=np.array([1.0, 1.0, 0.0, 0.0])
    ),
    "ldpnb.measures.lift.set_lift": lambda: dict(p_sx=_joint(), subset=np.array([0, 1])),
    "ldpnb.measures.reidentification.bayes_error_posterior": lambda: dict(joint_us=_joint()),
    "ldpnb.measures.reidentification.conditional_mutual_information": lambda: dict(joint_abc=np.full((2, 2, 2), 0.125)),
    "ldpnb.measures.reidentification.fano_lower_bound": lambda: dict(mutual_info=0.5, n=10),
    "ldpnb.measures.reidentification.theta_for_target_bayes_error": lambda: dict(beta=0.5, n=10),
    "ldpnb.measures.pse.kl_knn_1d": lambda: dict(a=np.array([0.1, 0.5, 0.9, 1.3]), b=np.array([0.2, 0.7, 1.1])),
    "ldpnb.audit.empirical.empirical_epsilon": lambda: dict(
        sampler=lambda x, n, rng: np.asarray(
            __import__("ldpnb.mechanisms", fromlist=["x"]).grr_perturb(np.full(n, x), 3, 1.0, rng=rng)
        ),
        x1=0,
        x2=1,
        n_trials=200,
    ),
    "ldpnb.audit.registry.audit": lambda: dict(case="k-RR", epsilon=1.0, n_trials=200),
    "ldpnb.stats._intervals.bootstrap": lambda: dict(samples=np.arange(10.0), statistic=np.mean, draws=200),
    "ldpnb.stats._intervals.median": lambda: dict(runs=np.arange(20.0)),
    "ldpnb.stats._estimate.Estimate": lambda: dict(value=1.0, low=0.5, high=1.5, method="bootstrap-bca", n_runs=20),
    "ldpnb.stats._estimate.Estimate.from_dict": lambda: dict(d=_estimate().to_dict()),
    # claims and reports
    "ldpnb.repro.claims.Claim": lambda: dict(
        id="T1", claim="a claim", source="derived", kind="range", where="Sec. 1", lower=0.0, upper=1.0
    ),
    "ldpnb.repro.claims.Printed": lambda: dict(value=1.0, where="Table 1"),
    "ldpnb.repro.claims.CriterionChange": lambda: dict(
        commit="abc1234", date="2025-01-01", seen="book", was={"atol": 0.1}, reason="a reason"
    ),
    "ldpnb.repro.claims.evaluate": lambda: dict(
        kind="close", criterion={"target": 1.0, "atol": 0.1}, numbers={"ours": 1.05}
    ),
    "ldpnb.repro.claims.decide": lambda: dict(
        kind="close", criterion={"target": 1.0, "atol": 0.1}, numbers={"ours": 1.05}
    ),
    "ldpnb.repro.claims.row_status": lambda: dict(
        kind="close", criterion={"target": 1.0, "atol": 0.1}, numbers={"ours": 1.05}, expect="pass"
    ),
    "ldpnb.repro.claims.falsify": lambda: dict(
        kind="close", criterion={"target": 1.0, "atol": 0.1}, numbers={"ours": 1.05}, expect="pass"
    ),
    "ldpnb.repro.claims.power": lambda: dict(
        kind="close", criterion={"target": 1.0, "atol": 0.1}, numbers={"ours": 1.05}, expect="pass"
    ),
    "ldpnb.repro.claims.runs_needed": lambda: dict(
        kind="close", criterion={"target": 1.0, "atol": 0.1}, numbers={"ours": 1.05}
    ),
    "ldpnb.repro.claims.parse_relation": lambda: dict(relation="a < b"),
    "ldpnb.repro.claims.describe": lambda: dict(claim=_claim("close"), scale="book"),
    "ldpnb.repro.claims.original_statuses": lambda: dict(changes=[], numbers={"ours": 1.05}, expect="pass"),
    "ldpnb.repro.claims.verify_row": lambda: dict(row=_row()),
    "ldpnb.repro.claims.Claim.criterion": lambda: dict(scale="book"),
    "ldpnb.repro.claims.Claim.full_criterion": lambda: dict(scale="book"),
    "ldpnb.repro.report.Report": lambda: dict(
        chapter="fuzz",
        claims=__import__("ldpnb.repro.claims", fromlist=["x"]).claim_table(_claim("close")),
        scale="smoke",
    ),
    "ldpnb.repro.report.Report.close": lambda: dict(id="T1", ours=1.05),
    "ldpnb.repro.report.Report.range": lambda: dict(id="T2", ours=0.5),
    "ldpnb.repro.report.Report.order": lambda: dict(id="T3", values={"a": 1.0, "b": 2.0}),
    "ldpnb.repro.report.Report.monotone": lambda: dict(id="T4", ys=[1.0, 2.0, 3.0]),
    "ldpnb.repro.report.Report.holds": lambda: dict(id="T5", numbers={"x": 1.0}),
    "ldpnb.repro.report.Report.not_evaluated": lambda: dict(id="T6", note="not at this scale"),
    "ldpnb.repro.report.Report.record": lambda: dict(numbers={"T1": 1.05, "T2": 0.5}),
    "ldpnb.mechanisms._base.LevelCheck": lambda: dict(claimed=1.0, tight=0.9, holds=True, notion="ldp", rtol=1e-9),
    "ldpnb.estimators._ibu.IBUResult": lambda: dict(
        estimate=np.array([0.5, 0.3, 0.2]),
        n_iter=3,
        stopped=True,
        loglik=-1.0,
        gap=1e-3,
        trace=np.array([-2.0, -1.0]),
        criterion="loglik",
        tol=1e-8,
    ),
    "ldpnb.estimators._ibu.IBUResult.certified": lambda: dict(tol=1e-2),
    "ldpnb.repro.report.Report.timing": lambda: dict(name="t", seconds=1.0),
    "ldpnb.repro.report.fmt_ours": lambda: dict(row=_row()),
    "ldpnb.repro.report.load_reports": lambda: dict(directory=_reports_dir()),
    "ldpnb.repro.report.load_timings": lambda: dict(directory=_reports_dir()),
    "ldpnb.repro.dashboard.claims_frame": lambda: dict(directory=_reports_dir()),
    "ldpnb.repro.nbstrip.strip": lambda: dict(path=_notebook_copy()),
}


def _estimate():
    from ldpnb.stats import Estimate

    return Estimate(1.0, 0.5, 1.5, method="bootstrap-bca", n_runs=20)


def _row():
    from ldpnb.repro.claims import claim_table
    from ldpnb.repro.report import Report

    r = Report("fuzz", claim_table(_claim("close")), scale="smoke", seed=0)
    r.close("T1", 1.05)
    return dict(r.ordered_rows()[0])


def _reports_dir():
    import tempfile
    from pathlib import Path

    d = Path(tempfile.mkdtemp(prefix="ldpnb-fuzz-"))
    r = _report()
    r.close("T1", 1.05)
    r.save(d)
    return d


def _notebook_copy():
    import shutil
    import tempfile
    from pathlib import Path

    d = Path(tempfile.mkdtemp(prefix="ldpnb-fuzz-"))
    src = Path(__file__).resolve().parents[2] / "book" / "foundations.ipynb"
    shutil.copy2(src, d / "nb.ipynb")
    return str(d / "nb.ipynb")


#: Example instances by class (qualified name): factories.  Other classes are built from their
#: constructor's baseline (the example table, then the contract's ``valid()``).
INSTANCES: dict[str, Callable[[], Any]] = {
    "ldpnb.repro.claims.Claim": lambda: _claim("close"),
    "ldpnb.repro.report.Report": _report,
    "ldpnb.stats._estimate.Estimate": _estimate,
    "ldpnb.data.grid.Grid": lambda: __import__("ldpnb.data", fromlist=["x"]).Grid(48.8, 48.9, 2.3, 2.4, 3, 3),
    "ldpnb.mechanisms._base.ChannelMechanism": lambda: __import__("ldpnb.mechanisms", fromlist=["x"]).ChannelMechanism(
        _grr(), epsilon=1.0
    ),
    "ldpnb.mechanisms.watchdog.SecretChannelMechanism": lambda: __import__(
        "ldpnb.mechanisms.watchdog", fromlist=["x"]
    ).SecretChannelMechanism(_grr(), epsilon=1.0),
    "ldpnb.mechanisms.rate_distortion.BlahutArimoto": lambda: __import__(
        "ldpnb.mechanisms", fromlist=["x"]
    ).BlahutArimoto(np.array([0.5, 0.3, 0.2]), np.abs(np.subtract.outer(np.arange(3.0), np.arange(3.0))), 1.0),
    "ldpnb.mechanisms.multidim.RSRFD": lambda: __import__("ldpnb.mechanisms", fromlist=["x"]).RSRFD(
        _ks(), [np.array([0.5, 0.3, 0.2]), np.array([0.6, 0.4])], 1.0
    ),
    "ldpnb.mechanisms.watchdog.MergeMechanism": lambda: __import__(
        "ldpnb.mechanisms.watchdog", fromlist=["x"]
    ).MergeMechanism(3, np.array([2]), [np.array([0, 1])]),
    "ldpnb.channels.structured.DiagPlusConstChannel": lambda: __import__(
        "ldpnb.channels", fromlist=["x"]
    ).DiagPlusConstChannel(0.4, 0.2, 3),
    "ldpnb.channels.structured.ConvolutionChannel": lambda: __import__(
        "ldpnb.channels", fromlist=["x"]
    ).ConvolutionChannel(np.array([0.25, 0.5, 0.25]), (3,)),
    "ldpnb.measures.lift.ALIP": lambda: __import__("ldpnb.measures", fromlist=["x"]).ALIP(1.0, 2.0),
    "ldpnb.attacks.reidentification.ReidIndex": lambda: __import__("ldpnb.attacks", fromlist=["x"]).ReidIndex(
        _X(), ks=[3, 2]
    ),
    "ldpnb.attacks.linkage.MarkovChainMatcher": lambda: (
        __import__("ldpnb.attacks", fromlist=["x"])
        .MarkovChainMatcher()
        .fit([np.array([0, 1, 2, 1]), np.array([2, 2, 1, 0])], 3)
    ),
}

#: Classes whose methods are fuzzed on their exported subclasses only (bases that hold no state).
BASES = {
    "ldpnb.mechanisms._base.Mechanism",
    "ldpnb.mechanisms._base.FrequencyOracle",
    "ldpnb.mechanisms._base.MetricMechanism",
    "ldpnb.mechanisms.multidim.TupleMechanism",
    "ldpnb.channels.structured.ChannelOperator",
    "ldpnb.measures.lift.Criterion",
}


def instances(cls: type) -> list[tuple[str, Callable[[], Any]]]:
    """Ways to build an instance of ``cls`` (labelled by the class name)."""
    qual = f"{cls.__module__}.{cls.__qualname__}"
    if qual in INSTANCES:
        return [(cls.__name__, INSTANCES[qual])]
    sig_params = [
        p
        for n, p in inspect.signature(cls.__init__).parameters.items()
        if n != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    rules = contract_of(cls) or {}
    out = []
    for order in ("name", "contract"):
        kwargs = {}
        ok = True
        for p in sig_params:
            if p.default is not p.empty:
                continue
            by_name = catalogue.BY_NAME.get(p.name)
            rule = rules.get(p.name)
            cands = [by_name() if by_name else None, rule.valid() if isinstance(rule, Constraint) else None]
            if order == "contract":
                cands.reverse()
            v = next((c for c in cands if c is not None), None)
            if v is None:
                ok = False
                break
            kwargs[p.name] = v
        if ok:
            out.append((cls.__name__, (lambda kw=kwargs: cls(**kw))))
    return out


#: Names not fuzzed, by qualified-name prefix, with the reason.
SKIP_PREFIX: dict[str, str] = {
    "ldpnb.contracts.": "the validation machinery itself (tests/test_contracts.py)",
    "ldpnb.repro.build.ProcessTree": "starts and ends processes (tests/test_build.py)",
    "ldpnb.repro.build.OneLineParser": "argparse's error hook (tests/test_build.py)",
    **{
        f"ldpnb.repro.build.{n}": "runs the build (papermill, jupytext, jupyter-book) in the repository: bad "
        "input tested by tests/test_build.py"
        for n in (
            "execute",
            "run_chapter",
            "render",
            "render_preview",
            "stage",
            "sync_pair",
            "ensure_pairs",
            "main",
            "execute_notebook",
        )
    },
    **{
        f"ldpnb.repro.paperscale.{n}": "runs chapters at paper scale: bad input tested by tests/test_build.py "
        "and tests/test_claims.py"
        for n in ("main", "run_one")
    },
    "ldpnb.repro.sphinx_ext.setup": "a Sphinx extension hook (takes the Sphinx application)",
    # these write into the repository's own files at their valid example (a fuzz run once rewrote the install
    # cell of book/foundations.py with the example url): bad input is refused by their contracts
    # (tests/test_contracts.py) and the bodies are tested on temporary copies
    **{
        f"ldpnb.repro.colab.{n}": "writes the install cell into book/*.py (tests/test_colab.py)"
        for n in ("ensure", "main")
    },
    **{
        f"ldpnb.repro.pdf.{n}": "prints the built book with a browser into _build/pdf (make pdf)"
        for n in ("print_book", "main")
    },
    "ldpnb.repro.nbstrip.": "strips a committed notebook in place (its path argument: tests/test_contracts.py)",
}


def skip_reason(n: Name) -> str | None:
    for prefix, why in SKIP_PREFIX.items():
        if n.qual.startswith(prefix):
            return why
    if n.kind == "class" and issubclass(n.obj, BaseException):
        return "an exception type"
    if n.kind == "class" and is_record(n.obj) and contract_of(n.obj) is None and n.qual in RECORDS:
        return RECORDS[n.qual]
    if ".figures." in n.qual or n.qual.split(".")[-1].startswith("fig"):
        return "a figure function (takes an experiment's results; draws them)"
    if n.kind == "method" and n.method in ("to_html", "status_markdown"):
        return "renders the object"
    if n.kind == "method" and n.qual.startswith("ldpnb.measures.lift.") and n.method in ("risk", "violated"):
        return "a callback of merge_labels on the lift matrix it computed from a checked joint"
    return None


#: Record types built by the package from its own results (not from a user's input).
RECORDS: dict[str, str] = {
    q: "a result record built by the package"
    for q in (
        "ldpnb.audit.empirical.EmpiricalResult",
        "ldpnb.audit.empirical.AuditResult",
        "ldpnb.audit.registry.MechanismSpec",
        "ldpnb.estimators._certify.MLEResult",
        "ldpnb.estimators._ibu.IBUResult",
        "ldpnb.mechanisms._base.LevelCheck",
        "ldpnb.mechanisms.orr.ORRResult",
        "ldpnb.mechanisms.orr.SRRResult",
        "ldpnb.mechanisms.protocols.Protocol",
        "ldpnb.mechanisms.rate_distortion.BAResult",
        "ldpnb.papers.lift.theory.BoundCheck",
        "ldpnb.papers.performance.bench.Timing",
        "ldpnb.papers.performance.experiments.Peers",
        "ldpnb.papers.privic.model.PrivicResult",
        "ldpnb.papers.synthesis.guide.GridResult",
        "ldpnb.data.datasets.DataFile",
        "ldpnb.data.datasets.MovieLens",
    )
}

#: Semantic bad values that tie two arguments together, by qualified name: (argument, label, category, factory).
EXTRA: dict[str, list[tuple[str, str, str, Callable[[], Any]]]] = {
    "ldpnb.mechanisms.multidim.spl_estimate": [
        ("counts", "one count vector for two attributes", "invalid", lambda: [np.array([5, 3, 2])])
    ],
    "ldpnb.mechanisms.multidim.smp_estimate": [("n_j", "an attribute with no report", "invalid", lambda: [0, 10])],
    "ldpnb.mechanisms._base.Guarantee.admits": [("level", "negative level", "invalid", lambda: -1.0)],
    "ldpnb.estimators._ibu.ibu_step": [("theta", "negative entry", "invalid", lambda: np.array([1.2, -0.3, 0.1]))],
    "ldpnb.mechanisms.rate_distortion.average_distortion": [
        ("Q", "rows sum to 1.25", "invalid", lambda: 1.25 * _grr())
    ],
    "ldpnb.channels._generic.simulate_counts_batch": [
        ("channel", "rows sum to 1.25", "invalid", lambda: 1.25 * _grr())
    ],
}


def extra_for(plan) -> list:
    """Cross-argument bad values that follow from the baseline: support counts larger than the number of
    reports (every frequency oracle's ``estimate``)."""
    out = []
    if "support_counts" in plan.values and "n" in plan.values:
        sc = np.asarray(plan.values["support_counts"])
        n = plan.values["n"]
        out.append(
            (
                "support_counts",
                "more supports than reports",
                "invalid",
                lambda sc=sc, n=n: np.full(sc.shape, 100 * int(n) + 7, dtype=np.int64),
            )
        )
    return out


#: Bad values accepted on purpose: (signature, argument, label) -> reason ("*" for every label).
ACCEPTED: dict[tuple[str, str, str], str] = {
    **{
        (f"ldpnb.utils.{f}", "name", "*"): "the label the message uses for the checked value"
        for f in (
            "check_epsilon",
            "check_domain_size",
            "check_positive_int",
            "check_probability",
            "check_distribution",
            "check_channel",
            "check_counts",
            "check_values",
            "check_finite_array",
            "check_nonnegative",
            "check_nonnegative_matrix",
        )
    },
    ("ldpnb.measures.lift.check_joint", "name", "*"): "the label the message uses for the checked value",
    ("ldpnb.utils.check_dataset", "X", "code outside the domain"): "without ks there is no domain to check against",
    ("ldpnb.data.grid.Grid.index", "row", "zero"): "row 0 is a row",
    ("ldpnb.data.grid.Grid.index", "col", "zero"): "column 0 is a column",
    ("ldpnb.data.grid.Grid.histogram", "lat", "inf"): "documented: points outside the box are ignored",
    ("ldpnb.data.grid.Grid.histogram", "lon", "inf"): "documented: points outside the box are ignored",
    **{
        ("ldpnb.data.grid.Grid.row_col", a, lab): "documented: -1 for a point outside the box or NaN"
        for a in ("lat", "lon")
        for lab in ("nan", "inf")
    },
    **{
        ("ldpnb.data.grid.Grid.cell_of", a, lab): "documented: -1 for a point outside the box or NaN"
        for a in ("lat", "lon")
        for lab in ("nan", "inf")
    },
    ("ldpnb.data.grid.Grid.to_image", "vec", "nan"): "a reshape for display: NaN cells are shown blank",
    ("ldpnb.data.grid.Grid.to_image", "vec", "inf"): "a reshape for display",
    ("ldpnb.repro.claims.Claim", "note", "*"): "free text shown as given",
    ("ldpnb.stats._estimate.Estimate", "note", "*"): "free text shown as given",
    ("ldpnb.audit.registry.audit_grid", "n_jobs", "*"): "joblib workers do not start in the fuzz's memory-capped "
    "child (3.8 s outside it)",
    # reviewed in the fourth round (issue #40): values that are valid for these arguments, or results documented
    **{
        (f"ldpnb.{q}", a, "*"): "a linear operator: defined on every finite vector, of any sign (LSQR and the "
        "gradients apply it to residuals and differences, not to distributions); NaN and infinite entries are "
        "refused by its contract"
        for q, a in (
            ("channels.structured.ChannelOperator.matvec", "theta"),
            ("channels.structured.ChannelOperator.rmatvec", "r"),
            ("channels.structured.ConvolutionChannel.matvec", "theta"),
        )
    },
    **{
        ("ldpnb.mechanisms._base.Guarantee.admits", "level", lab): "a level is an epsilon >= 0, possibly infinite "
        "(not a probability): admits(1.5) of a 1-LDP claim is False, rightly"
        for lab in ("above-1", "inf")
    },
    **{
        (f"ldpnb.mechanisms.{c}.check_support_counts", "support_counts", "fractional"): "support counts may be "
        "expected counts (n p): the rule is finite, >= 0 and <= n"
        for c in (
            "_base.FrequencyOracle",
            "hashing.BLH",
            "hashing.LocalHashing",
            "hashing.OLH",
            "unary.OUE",
            "unary.SUE",
            "unary.UnaryEncoding",
            "grr.GRR",
            "subset.SubsetSelection",
            # reviewed in the fifth round (issue #40): the same rule, the same check
            "_hashes.OLHCW",
            "hadamard.HR",
            "hadamard.HRR",
            "longitudinal.DBitFlipPM",
            "longitudinal.LOSUE",
        )
    },
    ("ldpnb.mechanisms.longitudinal.DBitFlipPM.ding_variance", "n", "fractional"): "the variance formula is "
    "continuous in n, as variance's (the same rule: POSITIVE)",
    ("ldpnb.mechanisms._hashes.OLHCW.draw_seeds", "n", "zero"): "zero seeds: an empty (0, 2) array, as "
    "rng.integers(size=0) (the rule is Integer(0, MAX_BYTES))",
    **{
        ("ldpnb.repro.claims.Claim", "not_by_runs", lab): "free text: the reason why more runs would not decide "
        "the row, shown as given (a non-string is refused)"
        for lab in ("str", "unknown option")
    },
    **{
        (f"ldpnb.mechanisms.{c}.variance", "n", "fractional"): "the variance formula is continuous in n (plotted "
        "against a real n)"
        for c in (
            "_base.FrequencyOracle",
            "hashing.BLH",
            "hashing.LocalHashing",
            "hashing.OLH",
            "unary.OUE",
            "unary.SUE",
            "unary.UnaryEncoding",
            "grr.GRR",
            "subset.SubsetSelection",
        )
    },
    ("ldpnb.estimators._ibu.StopRule", "min_iter", "zero"): "the default: no minimum",
    ("ldpnb.estimators._ibu.StopRule", "max_iter", "zero"): "no update: the start is returned with converged=False",
    **{
        ("ldpnb.measures.reidentification.eps_from_bayes_error", a, "huge 2**40"): "documented: inf when alpha > m "
        "(no randomisation needed, the value is sent in clear)"
        for a in ("n_d", "k")
    },
    ("ldpnb.estimators._certify.mle_distance_bound", "estimate", "2-D"): "one run given as a (1, k) row: the same "
    "bounds as for (k,); w1 is inf without distance (documented)",
    **{
        (q, a, "zero"): "documented: pse_se is NaN unless se_reps >= 2 (no standard error asked for)"
        for q, a in (
            ("ldpnb.attacks.linkage.score_experiment", "se_reps"),
            ("ldpnb.attacks.linkage.score_experiment", "decimals"),
            ("ldpnb.papers.pie.identification.pse_experiment", "se_reps"),
            ("ldpnb.papers.pie.identification.partial_knowledge", "se_reps"),
        )
    },
    **{
        ("ldpnb.papers.lift.experiments.evaluate_curve", "epsilon", lab): "n_vertices and n_partition are NaN for a "
        "method without a vertex search (cm), at every epsilon; the other fields are finite"
        for lab in ("tiny 1e-12", "710", "1e4")
    },
    ("ldpnb.papers.ibu.theory.loglik_surface", "observations", "all zero"): "documented: L is NaN outside the simplex",
    ("ldpnb.papers.pie.theory.lower_bound_slack_ratio", "n", "huge 2**40"): "documented: NaN (0/0) where the "
    "theorem's bound equals the PSE's, at every n",
    **{
        ("ldpnb.mechanisms._base.Domain", a, "None"): "documented: k=None is a grid-only domain, rows/cols None a "
        "line (a domain with neither is refused)"
        for a in ("k", "rows", "cols")
    },
    ("ldpnb.mechanisms._base.Domain", "pad", "zero"): "no padding is a padding",
    ("ldpnb.repro.claims.Printed", "value", "str"): "documented: a printed value may be a statement",
    ("ldpnb.papers.pie.utility.printed_pair_distance", "k", "huge 2**40"): "documented: max_mean -inf, sd NaN, z inf "
    "when no profile meets limit_b (at every k)",
}


def accepted(sig: str, pname: str, label: str) -> str | None:
    return ACCEPTED.get((sig, pname, label)) or ACCEPTED.get((sig, pname, "*"))


def method_args(inst: Any, name: Name) -> dict[str, Any]:
    """Arguments of a method that depend on its instance (the instance's own domain and reports)."""
    params = {p.name for p in name.params}
    out: dict[str, Any] = {}
    n_in = None
    try:
        lc = inst.log_channel()
        n_in = lc.shape[0]
    except Exception:  # noqa: BLE001 - not a mechanism, or no channel
        pass
    if n_in is not None:
        x = np.arange(4) % n_in
        if "x" in params:
            out["x"] = x
        if "input_counts" in params:
            out["input_counts"] = np.arange(n_in) + 2
        if "reports" in params:
            try:
                out["reports"] = inst.perturb(x, rng=0)
            except Exception:  # noqa: BLE001
                pass
        if "support_counts" in params:
            try:
                rep = inst.perturb(np.arange(10) % n_in, rng=0)
                out["support_counts"] = inst.support_counts(rep)
                out["n"] = 10
            except Exception:  # noqa: BLE001
                pass
    if name.method == "row_of" and hasattr(inst, "ks"):
        out["X"] = np.array([[v % k for k in inst.ks] for v in range(3)])
    if name.method == "perturb" and hasattr(inst, "ks"):
        out["x"] = np.array([[v % k for k in inst.ks] for v in range(4)])
    return out
