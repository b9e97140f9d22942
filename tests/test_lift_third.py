"""The lift chapter's third edition: the non-convex chi2-privacy constraint set, the support bound on
AORR's vertices, the growth-law comparison, the Fig. 1 consistency test, ALIP against l1/chi2
privacy at lambda != 0.5, and Algorithm 2's merge loop."""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpnb.measures.lift import ALIP, alip_budgets, chi2_lift_inverse, is_alip, l1_lift, l1_lift_inverse, random_joint
from ldpnb.mechanisms import orr
from ldpnb.mechanisms.watchdog import subset_merging
from ldpnb.papers.lift import CLAIMS, theory
from ldpnb.papers.lift import experiments as ex
from ldpnb.repro.claims import row_status
from ldpnb.stats import Estimate


def _joint_with_column(P, v, beta=1e-3):
    """P_SY of a two-output mechanism whose first output has P_{X|Y}(.|0) = v with weight beta (the
    second completes P_X), so that the lift-inverse measures of output 0 are those of column v."""
    p_x = P.sum(0)
    rest = (p_x - beta * v) / (1 - beta)
    assert rest.min() >= 0
    K = P / p_x
    return np.column_stack([beta * (K @ v), (1 - beta) * (K @ rest)])


# ----------------------------------------------------------------------------- Sec. VI-B: convexity


def test_chi2_constraint_set_is_not_convex_closed_form():
    # X = S, P_S = (0.2, 0.2, 0.6): the third audit's pair a = (.5, .3, .2), b = (.3, .5, .2)
    P = np.diag([0.2, 0.2, 0.6])
    f = theory._constraint_functions(P)["χ²-lift-inverse"]
    a, b = np.array([0.5, 0.3, 0.2]), np.array([0.3, 0.5, 0.2])
    fa, fb, fm = f(np.stack([a, b, (a + b) / 2]))
    assert fa == pytest.approx(fb) and fm > max(fa, fb) + 5e-3
    r = theory.quasiconvexity_counterexample(P, "chi2")
    assert r["gap"] > 0 and r["f_mid"] > r["level"] >= max(r["f_a"], r["f_b"])


@pytest.mark.parametrize("kind", ["chi2", "l1"])
def test_quasiconvexity_counterexample_on_the_chapter_joint(kind):
    from ldpnb.repro import rng_for

    P = random_joint(5, 17, rng=rng_for(2024, "convexity"))
    r = theory.quasiconvexity_counterexample(P, kind)
    assert r["gap"] > 0 and r["rel_gap"] > 1e-6
    for v in (r["a"], r["b"], r["mid"]):
        assert v.min() >= 0 and v.sum() == pytest.approx(1.0)
    assert np.allclose((r["a"] + r["b"]) / 2, r["mid"], atol=1e-12)
    # the values agree with the toolkit's measures on an explicit mechanism
    meas = chi2_lift_inverse if kind == "chi2" else l1_lift_inverse
    for v, fv in ((r["a"], r["f_a"]), (r["b"], r["f_b"]), (r["mid"], r["f_mid"])):
        assert meas(_joint_with_column(P, v))[0] == pytest.approx(fv, rel=1e-9)
    budget = math.expm1(r["eps_l"])
    assert (budget**2 if kind == "chi2" else budget) == pytest.approx(r["level"], rel=1e-12)


def test_quasiconvexity_counterexample_needs_the_concave_region():
    # nearly independent S and X: no lift reaches 3/2, no pair is found (the check can come out empty)
    P = np.outer([0.5, 0.5], np.full(4, 0.25)) + 0.001 * np.array([[1, -1, 1, -1], [-1, 1, -1, 1]])
    r = theory.quasiconvexity_counterexample(P, "chi2")
    assert r["gap"] == 0 and np.isnan(r["level"]) and np.isnan(r["eps_l"])


# ----------------------------------------------------------------------------- Sec. V-A: vertices


def test_vertex_bound_exact_values():
    assert theory.vertex_bound(6, 2) == 9 * (6 + 15)
    assert theory.vertex_bound(3, 5) == 243 * 7  # k runs up to |X| when |X| < |S|
    assert math.log10(theory.vertex_bound(200, 5)) == pytest.approx(11.8, abs=0.01)
    # a polynomial of degree |S| in |X|: doubling |X| multiplies the bound by about 2^|S|
    assert theory.vertex_bound(4000, 3) / theory.vertex_bound(2000, 3) == pytest.approx(8, rel=1e-3)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    n_s=st.integers(2, 5),
    n_x=st.integers(3, 11),
    eps=st.sampled_from([0.3, 0.5, 1.0, 2.0, 4.0]),
    lam=st.sampled_from([0.35, 0.5, 0.65]),
)
def test_vertices_have_support_at_most_n_s(seed, n_s, n_x, eps, lam):
    P = random_joint(n_s, n_x, rng=np.random.default_rng(seed))
    V = orr.polytope_vertices(*orr.alip_column_polytope(P, *alip_budgets(eps, lam)))
    assert len(V) >= 1  # P_X is a feasible column
    assert theory.vertex_support(V) <= n_s
    assert len(V) <= theory.vertex_bound(n_x, n_s)


def test_vertex_support_agrees_with_cdd_and_counts():
    if not orr.has_cdd():
        pytest.skip("pycddlib not installed")
    P = random_joint(4, 12, rng=np.random.default_rng(3))
    A = orr.alip_column_polytope(P, *alip_budgets(0.8, 0.5))
    Vq, Vc = orr.polytope_vertices(*A, method="qhull"), orr.polytope_vertices(*A, method="cdd")
    assert len(Vq) == len(Vc) and theory.vertex_support(Vq) == theory.vertex_support(Vc) <= 4


def test_vertex_support_bad_input():
    assert theory.vertex_support(np.zeros((0, 3))) == 0
    with pytest.raises((TypeError, ValueError)):
        theory.vertex_support(np.ones(3))
    with pytest.raises((TypeError, ValueError)):
        theory.vertex_bound(0, 3)


def _frames(law):
    rows = []
    for eps in (0.5, 1.0):
        for n in (6, 8, 10, 12, 14, 24, 30):
            for d in range(3):
                rows.append({"eps": eps, "n_x": n, "dist": d, "n_vertices": law(n, eps)})
    df = pd.DataFrame(rows)
    return df[df.n_x <= 14], df[df.n_x > 14]


def test_growth_laws_tell_a_power_law_from_an_exponential():
    fit, held = _frames(lambda n, e: 3.0 * n ** (4 / e))
    laws = ex.growth_laws(fit, held)
    assert laws.pow_err.max() < 1e-9 < laws.exp_err.min()
    assert set(laws.exponent.round(6)) == {4.0, 8.0}
    fit, held = _frames(lambda n, e: 5.0 * 1.7 ** (n / e))
    laws = ex.growth_laws(fit, held)
    assert laws.exp_err.max() < 1e-9 < laws.pow_err.min()
    assert laws.per_symbol.round(6).tolist()[0] == pytest.approx(1.7**2)
    # and the claim's criterion reads them as intended: exponential data pass, polynomial data diverge
    c = CLAIMS["V-A.vert"]
    diff = float(laws.exp_err.mean() - laws.pow_err.mean())
    nums = {"ours": Estimate(diff, diff - 0.01, diff + 0.01, method="bootstrap-bca", n_runs=12).to_dict()}
    assert row_status(c.kind, c.full_criterion("book"), nums, c.expect) == "fail"  # the paper's claim holds
    nums = {"ours": Estimate(0.9, 0.8, 1.0, method="bootstrap-bca", n_runs=12).to_dict()}
    assert row_status(c.kind, c.full_criterion("book"), nums, c.expect) == "diverges"


def test_vertex_counts_frame():
    d = ex.vertex_counts([6, 7], [1.0, 2.0], n_dist=2, seed=1, n_s=3)
    assert len(d) == 8 and set(d.columns) >= {"n_x", "n_s", "eps", "dist", "n_vertices", "max_support"}
    assert (d.max_support <= 3).all() and (d.n_vertices >= 1).all()


# ----------------------------------------------------------------------------- Fig. 1: consistency test


def test_endpoint_consistency_is_calibrated_and_can_reject():
    rng = np.random.default_rng(5)
    runs = {k: rng.normal(size=299) for k in "abcd"}
    r = theory.endpoint_consistency(runs, {k: (0.0, 0.0) for k in "abcd"})
    assert r["p_value"] > 0.5 and r["runs"] == 299
    far = theory.endpoint_consistency(runs, {**{k: (0.0, 0.0) for k in "abc"}, "d": (8.0, 8.0)})
    assert far["p_value"] < 0.01
    # the rounding interval counts in the paper's favour
    near = theory.endpoint_consistency(runs, {**{k: (0.0, 0.0) for k in "abc"}, "d": (-0.5, 8.0)})
    assert near["p_value"] > 0.5 and near["z_d"] < 0.1
    # false-alarm rate: a run from the same distribution is rejected at most 1% of the time (exchangeable
    # runs); 400 draws, binomial upper 99.9% point for a 1% rate is about 3.3%
    rej = [
        theory.endpoint_consistency(runs, {k: (x, x) for k, x in zip("abcd", rng.normal(size=4))})["p_value"] < 0.01
        for _ in range(400)
    ]
    assert np.mean(rej) <= 0.033


# ----------------------------------------------------------------------------- Sec. VI-A: relaxation


def test_relaxation_counterexample_is_alip_but_not_l1_private():
    r = theory.relaxation_counterexample()
    C1 = theory.counterexample_c1()
    assert is_alip(C1, r["eps_l"], r["eps_u"])
    assert r["lam"] == pytest.approx(math.log(1 / 0.6) / (math.log(1 / 0.6) + math.log(1.2)))
    assert r["l1"] == pytest.approx(4 / 15) and l1_lift(C1).max() == pytest.approx(4 / 15)
    assert r["violations"] == 2 and r["sum_u"] == pytest.approx(1.8)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), eps=st.floats(0.1, 6), lam=st.floats(0.05, 0.95))
def test_alip_implies_l1_privacy_under_the_condition(seed, eps, lam):
    # the corollary: with both sums >= 2, any ALIP mechanism (here AORR) is l1- and chi2-private
    el, eu = alip_budgets(eps, lam)
    if math.exp(eu) + math.exp(-el) < 2 or math.exp(el) + math.exp(-eu) < 2:
        return
    P = random_joint(3, 6, rng=np.random.default_rng(seed))
    J = P @ orr.full_channel(P, el, eu)
    assert l1_lift(J).max() <= math.expm1(eu) * (1 + 1e-9)
    assert l1_lift_inverse(J).max() <= math.expm1(el) * (1 + 1e-9)
    assert chi2_lift_inverse(J).max() <= math.expm1(el) ** 2 * (1 + 1e-9)


# ----------------------------------------------------------------------------- Algorithm 2's loop


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    eps=st.sampled_from([0.25, 0.5, 1.0, 2.0, 4.0]),
    lam=st.sampled_from([0.2, 0.35, 0.5, 0.65, 0.8]),
)
def test_algorithm1_blocks_are_private_or_single(seed, eps, lam):
    P = random_joint(5, 12, rng=np.random.default_rng(seed))
    crit = ALIP(*alip_budgets(eps, lam))
    mm = subset_merging(P, crit)
    if len(mm.groups) > 1:
        for g in mm.groups:  # every block satisfies ALIP (the lemma behind the proposition)
            cols = P[:, g].sum(1)
            L = cols / (P.sum(1) * cols.sum())
            assert not crit.violated(L[:, None], P.sum(1))[0]


def test_algorithm2_merge_loop_never_fires_on_algorithm1():
    J = random_joint(5, 14, rng=np.random.default_rng(9), size=6)
    for feas in ("printed", "lp"):
        d = ex_merges = theory.algorithm2_merges(J, [0.25, 0.5, 1.0, 2.0, 3.0], [0.35, 0.65], feasibility=feas)
        assert len(d) == 60 and (ex_merges.n_partition >= 2).any()
        assert int((d.n_partition - d.n_blocks).sum()) == 0


def test_srr_sweep_reports_the_partition():
    P = random_joint(5, 12, rng=np.random.default_rng(1))[None]
    d = ex.put_sweep(P, [0.5, 1.0], [ex.Curve("SRR", "srr", "alip", 0.5)], seed=0)
    assert (d.n_partition >= d.n_blocks).all() and (d.n_partition == d.n_blocks).all()
