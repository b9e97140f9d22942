"""Bad inputs refused by the rules between arguments (checked in the body, after the contract), found
by an independent fuzz of the public surface: each case returned a number, raised a bare IndexError /
KeyError, or allocated before a size check on the previous code.  Valid calls are unchanged (their
modules' own tests)."""

from __future__ import annotations

import numpy as np
import pytest

from ldpnb import attacks as at
from ldpnb import mechanisms as md
from ldpnb import stats as S
from ldpnb import utils
from ldpnb.papers.lift import theory as lift_theory
from ldpnb.papers.performance import experiments as perf
from ldpnb.papers.pie import identification as pie_id
from ldpnb.papers.privic import experiments as privic_ex


# ------------------------------------------------------------------ attribute inference (RS+FD)
def _aif_ok():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, size=(40, 2))
    ks = np.array([3, 3])
    rep, t = md.rsfd_collect(X, ks, 2.0, "grr", "uniform", rng=rng)
    f = [np.full(3, 1 / 3), np.full(3, 1 / 3)]
    return rep, ks, f


def test_aif_valid_call_still_runs():
    rep, ks, f = _aif_ok()
    assert at.aif_bayes(rep, ks, 2.0, "grr", "uniform", f, rng=0).shape == (40,)


@pytest.mark.parametrize(
    "change, match",
    [
        (lambda r, k, f: ([], k, f), "one entry per attribute"),  # was IndexError
        (lambda r, k, f: (r, k, []), "one entry per attribute"),  # was IndexError
        (lambda r, k, f: (r, k, [np.array([np.nan, 0.5, 0.5]), f[1]]), "freqs\\[0\\]"),  # NaN guesses
        (lambda r, k, f: (r, k, [np.array([0.5, 0.5]), f[1]]), "k = 3 entries"),
        (lambda r, k, f: ([r[0] + 5, r[1]], k, f), "values in"),  # reports off the domain
        (lambda r, k, f: ([r[0][:10], r[1]], k, f), "reports"),  # ragged reports
    ],
)
def test_aif_refuses_inconsistent_arguments(change, match):
    rep, ks, f = _aif_ok()
    r, k, ff = change(rep, ks, f)
    with pytest.raises(ValueError, match=match):
        at.aif_bayes(r, k, 2.0, "grr", "uniform", ff, rng=0)


def test_aif_prior_model_needs_priors():
    rep, ks, f = _aif_ok()
    with pytest.raises(ValueError, match="priors"):
        at.aif_log_likelihood(rep, ks, 2.0, "grr", "prior", f)


# ------------------------------------------------------------------ re-identification
def test_reid_topk_refuses_profile_values_off_the_domain():
    X = np.array([[0, 1], [1, 0], [1, 1]])
    with pytest.raises(ValueError, match="outside its domain"):  # was IndexError
        at.reid_topk(np.array([[0, 10**12], [1, 0], [1, 1]]), X, (1,))
    with pytest.raises(ValueError, match="true_ids"):
        at.reid_topk(X, X, (1,), true_ids=[0, 1, 7])
    assert at.reid_topk(X, X, (1,)) == at.reid_topk(X.copy(), X, (1,))


@pytest.mark.parametrize("eps, kind", [("1.0", TypeError), (float("nan"), ValueError), (-1.0, ValueError)])
def test_simulate_smp_surveys_refuses_bad_budgets(eps, kind):
    X = np.random.default_rng(0).integers(0, 3, size=(30, 3))
    with pytest.raises(kind, match="eps"):  # "1.0" and NaN ran
        at.simulate_smp_surveys(X, [3, 3, 3], "grr", eps, n_surveys=2, rng=0)


# ------------------------------------------------------------------ datasets: sizes before allocation
def test_inferred_domain_sizes_are_bounded_before_allocation():
    X = np.array([[0, 1], [10**12, 0]])
    with pytest.raises(ValueError, match="domain sizes sum to"):
        utils.check_dataset(X)
    with pytest.raises(ValueError, match="domain sizes sum to"):  # was MemoryError
        md.smp_collect(X, None, 1.0, "grr", rng=0)


# ------------------------------------------------------------------ paper helpers
def test_ldp_feasible_refuses_columns_off_the_joint():
    P = np.array([[0.2, 0.3], [0.4, 0.1]])
    assert lift_theory.ldp_feasible(P, np.array([0, 1]), 1.0, 2) in (True, False)
    with pytest.raises(ValueError, match="high"):  # was IndexError
        lift_theory.ldp_feasible(P, np.array([0, 5]), 1.0, 2)
    with pytest.raises(ValueError, match="p_sx"):
        lift_theory.ldp_feasible(P[:1], np.array([0, 1]), 1.0, 2)


def test_calibration_runs_checks_its_seed():
    with pytest.raises(TypeError, match="seed"):  # accepted (and ignored) before
        privic_ex.calibration_runs({}, None, seed="x")
    assert privic_ex.calibration_runs({}, None, seed=0) is None


@pytest.mark.parametrize("fn", [perf.lean_ba, perf.textbook_ba])
def test_ba_benchmarks_refuse_bad_priors_and_distortions(fn):
    D = np.array([[0.0, 1.0], [1.0, 0.0]])
    C = fn(np.array([0.5, 0.5]), D, 1.0, 3)
    assert np.allclose(C.sum(1), 1.0)
    with pytest.raises(ValueError, match="prior"):  # NaN channel before
        fn(np.array([np.nan, 0.5]), D, 1.0, 3)
    with pytest.raises(ValueError, match="prior"):
        fn(np.array([0.75, 0.5]), D, 1.0, 3)
    with pytest.raises(ValueError, match="D"):  # IndexError before
        fn(np.array([0.5, 0.5]), D[0], 1.0, 3)
    with pytest.raises(ValueError, match="one row per entry"):
        fn(np.array([0.2, 0.3, 0.5]), D, 1.0, 3)


def test_ibu_dense_needs_iterations_for_every_k():
    with pytest.raises(ValueError, match="missing"):  # KeyError before
        perf.ibu_dense((4,), {16: 3}, 1.0, 1, perf.Peers({}), 1e9, rng=np.random.default_rng(0))


def test_convergence_gap_needs_keys_of_the_result():
    conv = {1: {"mean": [1.0, 1.1], "values": [[1.0, 1.2, 0.9, 1.1], [1.1]]}}
    assert round(float(pie_id.convergence_gap(conv, [1]).value[0]), 3) == 0.05
    with pytest.raises(ValueError, match="missing"):  # KeyError before
        pie_id.convergence_gap(conv, [2])


# ------------------------------------------------------------------ deciding a region
def test_decide_refuses_nan_and_text_edges():
    e = S.Estimate([1.0, 2.0, 3.0], [0.8, 1.5, 2.9], [1.2, 2.5, 3.1], method="t", n_runs=10)
    assert S.decide(e, upper=2.0).tolist() == ["holds", "undecided", "reversed"]
    assert S.decide(e, lower=-np.inf, upper=np.inf).tolist() == ["holds"] * 3  # inf: no bound
    with pytest.raises(ValueError, match="lower"):  # every cell 'undecided' before
        S.decide(e, lower=float("nan"))
    with pytest.raises(TypeError, match="upper"):  # "2.0" was parsed
        S.decide(e, upper="2.0")
    with pytest.raises(ValueError, match="upper"):
        S.runs_to_decide(e, upper=float("nan"))
    with pytest.raises(TypeError, match="truth"):  # NaN probability before
        S.outcome_probability(e, 0.0, None, None)


def test_pd_accuracy_of_a_protocol_without_a_closed_form_is_refused():
    assert 0 < at.expected_pd_accuracy("grr", 1.0, 10) <= 1
    with pytest.raises(ValueError, match="no closed form"):  # "'NoneType' object is not callable" before
        at.expected_pd_accuracy("blh", 1.0, 10)


def test_privic_figures_and_grading_refuse_wrong_containers():
    from ldpnb.papers.privic import figures as pf
    from ldpnb.papers.privic import grading as pg

    with pytest.raises(TypeError, match="hist"):  # AttributeError before
        pf.ba_history(None)
    with pytest.raises(TypeError, match="curves"):
        pf.privic_variants("abc", np.array([1.0]))
    with pytest.raises(ValueError, match="ba"):  # IndexError before: one column
        pf.rd_plane(np.ones((3, 1)), np.ones((3, 2)), np.ones((3, 2)))
    with pytest.raises(TypeError, match="times"):  # AttributeError before
        pg.complexity_slopes("abc")
    assert pg.complexity_slopes(None) == {}


def test_apidoc_names_only_documented_subpackages():
    from ldpnb.repro import apidoc

    assert "lattice_distance_matrix" in apidoc.public_names("geometry")
    with pytest.raises(ValueError, match="sub"):  # ModuleNotFoundError before
        apidoc.public_names("bogus")


def test_runs_to_decide_mask_must_be_boolean_of_the_estimate_shape():
    e = S.Estimate([1.6, 1.6], [1.45, 1.45], [1.75, 1.75], method="t", n_runs=100)
    assert S.runs_to_decide(e, upper=1.5, cells=np.array([True, False]))["cells"] == 1
    with pytest.raises(TypeError, match="cells"):  # "abc" was read as True everywhere
        S.runs_to_decide(e, upper=1.5, cells="abc")
    with pytest.raises(TypeError, match="cells"):
        S.runs_to_decide(e, upper=1.5, cells=np.array([True]))


def test_reid_index_queries_check_the_subset_and_the_codes():
    idx = at.ReidIndex(np.array([[0, 1], [1, 0], [1, 1]]))
    assert idx.count(3, np.array([[1, 1], [0, 0]])).tolist() == [1, 0]
    for T in (0, 4, 99, True):  # T=0 ended in 'object of too small depth', 99 ignored its extra bits
        with pytest.raises(ValueError, match="T must be"):
            idx.count(T, np.array([[0, 1]]))
    with pytest.raises(ValueError, match="codes"):  # a code -1 matched 2 records
        idx.count(1, np.array([[-1, 0]]))
    with pytest.raises(ValueError, match="rows"):
        idx.count_columns(1, np.array([[0], [1]]), np.array([5]))
