"""The lift chapter's second edition: batch watchdog (merge_labels) against the per-distribution
reference, the repair extension, the sweeps, the grading statistics and the new analytic checks."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpnb.measures import leakages, nmi
from ldpnb.measures.lift import ALIP, LDPwrtS, LiftBased, LiftMeasurePrivacy, alip_budgets, random_joint
from ldpnb.mechanisms import orr
from ldpnb.mechanisms.watchdog import (
    MergeMechanism,
    complete_merging,
    merge_labels,
    merging_performance,
    repair_merging,
    subset_merging,
    watchdog_partition,
)
from ldpnb.papers.lift import CLAIMS, theory
from ldpnb.papers.lift import experiments as ex


def _groups(labels_row):
    return [np.flatnonzero(labels_row == k).tolist() for k in range(labels_row.max() + 1)]


def _criteria(eps):
    el, eu = alip_budgets(eps, 0.5)
    return [
        ALIP(el, eu),
        ALIP(*alip_budgets(eps, 0.35), risk="printed"),
        LDPwrtS(eps),
        LiftMeasurePrivacy("chi2", el, eu),
        LiftMeasurePrivacy("alpha", el, eu, alpha=10.0),
        LiftBased("l1", eu),
    ]


@pytest.mark.parametrize("n_s, n_x", [(5, 17), (3, 8), (2, 5)])
@pytest.mark.parametrize("outer", ["nonempty", "printed"])
@pytest.mark.parametrize("repair", [None, "least_risky", "greedy"])
def test_merge_labels_equals_subset_merging(n_s, n_x, outer, repair):
    J = random_joint(n_s, n_x, rng=np.random.default_rng(n_x + n_s), size=60)
    for eps in (0.5, 2.0, 4.0):
        for crit in _criteria(eps):
            lab = merge_labels(J, crit, outer_loop=outer, repair=repair)
            for b, P in enumerate(J):
                ref = subset_merging(P, crit, outer_loop=outer, repair=repair)
                assert [g.tolist() for g in ref.groups] == _groups(lab[b]), (eps, crit, b)


@pytest.mark.parametrize("repair", [None, "least_risky"])
def test_merge_labels_complete_equals_complete_merging(repair):
    J = random_joint(5, 17, rng=np.random.default_rng(1), size=80)
    for eps in (0.5, 3.0, 5.0):
        for crit in _criteria(eps)[:3]:
            lab = merge_labels(J, crit, method="complete", repair=repair)
            for b, P in enumerate(J):
                assert [g.tolist() for g in complete_merging(P, crit, repair=repair).groups] == _groups(lab[b])


def test_merging_performance_equals_exact_evaluation():
    J = random_joint(5, 17, rng=np.random.default_rng(2), size=40)
    crit = ALIP(*alip_budgets(3.0, 0.65))
    perf = merging_performance(J, merge_labels(J, crit))
    for b, P in enumerate(J):
        C = subset_merging(P, crit).channel()
        lk = leakages(P @ C)
        assert perf["nmi"][b] == pytest.approx(nmi(P.sum(0), C), abs=1e-12)
        assert perf["max_leak"][b] == pytest.approx(lk.max_lift_leak, abs=1e-12)
        assert perf["min_leak"][b] == pytest.approx(lk.min_lift_leak, abs=1e-12)
        assert perf["ldp_leak"][b] == pytest.approx(lk.ldp_leak, abs=1e-12)


def test_merge_labels_validates():
    with pytest.raises(ValueError, match="sum to 1"):
        merge_labels(np.ones((2, 2, 3)), ALIP(1.0, 1.0))
    with pytest.raises(ValueError, match="p_sx"):
        merge_labels(np.ones((2, 3)) / 6, ALIP(1.0, 1.0))
    with pytest.raises(ValueError, match="labels"):
        merging_performance(random_joint(2, 3, rng=0, size=2), np.zeros((2, 4), dtype=int))


# ----------------------------------------------------------------------------- the repair


def test_repair_of_a_singleton_high_risk_symbol():
    # x = 2 is the only high-risk symbol (lifts 1.50 and 0.41): merging it alone changes nothing
    P = np.array([[0.12, 0.13, 0.17, 0.12], [0.14, 0.13, 0.04, 0.15]])
    crit = ALIP(0.3, 0.3)
    low, high = watchdog_partition(P, crit)
    assert high.tolist() == [2]
    mm = subset_merging(P, crit)
    assert [g.tolist() for g in mm.groups] == [[2]] and leakages(P @ mm.channel()).max_lift_leak > 0.3
    fixed = subset_merging(P, crit, repair="least_risky")
    single = crit.risk(P[:, low] / (P.sum(1)[:, None] * P[:, low].sum(0)), P.sum(1))
    assert fixed.absorbed[0] == low[np.argmin(single)]  # the least risky low-risk symbol first
    lk = leakages(P @ fixed.channel())
    assert lk.max_lift_leak <= 0.3 * (1 + 1e-9) and lk.min_lift_leak <= 0.3 * (1 + 1e-9)
    assert set(fixed.low.tolist()) | set(fixed.high.tolist()) == set(range(4))


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    eps=st.floats(0.25, 8),
    lam=st.sampled_from([0.35, 0.5, 0.65]),
    rule=st.sampled_from(["least_risky", "greedy"]),
    ldp=st.booleans(),
)
def test_repaired_watchdog_is_always_private(seed, eps, lam, rule, ldp):
    P = random_joint(5, 17, rng=seed)
    crit = LDPwrtS(eps) if ldp else ALIP(*alip_budgets(eps, lam))
    for mm in (subset_merging(P, crit, repair=rule), complete_merging(P, crit, repair=rule)):
        lk = leakages(P @ mm.channel())
        if ldp:
            assert lk.ldp_leak <= eps * (1 + 1e-9)
        else:
            el, eu = alip_budgets(eps, lam)
            assert lk.min_lift_leak <= el * (1 + 1e-9) and lk.max_lift_leak <= eu * (1 + 1e-9)
        # the repair only ever adds low-risk symbols to a block: the paper's partition is kept otherwise
        assert set(mm.absorbed.tolist()) <= set(watchdog_partition(P, crit)[0].tolist())


def test_repair_leaves_private_mechanisms_unchanged():
    P = random_joint(5, 17, rng=3)
    crit = ALIP(*alip_budgets(1.0, 0.5))
    mm = subset_merging(P, crit)
    assert leakages(P @ mm.channel()).max_lift_leak <= 0.5 * (1 + 1e-9)
    same = repair_merging(P, mm, crit)
    assert same is mm and same.absorbed.size == 0
    with pytest.raises(ValueError, match="n_x"):
        repair_merging(P, MergeMechanism(3, np.arange(3)), crit)


# ----------------------------------------------------------------------------- sweeps and statistics


def test_watchdog_sweep_equals_put_sweep():
    J = random_joint(5, 17, rng=np.random.default_rng(4), size=5)
    curves = [
        ex.Curve("CM ALIP 0.5", "cm", "alip", 0.5),
        ex.Curve("SM LDP", "sm", "ldp", None),
        ex.Curve("SM l1 0.65", "sm", "l1", 0.65),
        ex.Curve("SM fix", "sm", "alip", 0.65, repair="least_risky"),
        ex.Curve("SM a-only", "sm", "alpha-only", 0.5, alpha=2.0),
    ]
    a = ex.watchdog_sweep(J, [0.5, 2.0, 5.0], curves, seed=1)
    b = ex.put_sweep(J, [0.5, 2.0, 5.0], curves, seed=1)
    keys = ["curve", "eps", "dist"]
    a, b = a.sort_values(keys).reset_index(drop=True), b.sort_values(keys).reset_index(drop=True)
    for q in ("nmi", "max_leak", "min_leak", "ldp_leak"):
        np.testing.assert_allclose(a[q], b[q], atol=1e-12)
    assert (a.violates == b.violates).all() and (a.n_high == b.n_high).all()


def test_budget_and_timing_statistics():
    df = pd.DataFrame(
        {
            "curve": "a",
            "dist": np.tile(np.arange(20), 2),
            "eps": np.repeat([1.0, 2.0], 20),
            "min_leak": np.r_[np.full(20, 0.5), 1.0 + 0.1 * np.random.default_rng(0).standard_normal(20)],
            "max_leak": 0.0,
        }
    )
    est, tab = ex.budget_estimate(df, {"a": 0.5})  # budgets 0.5 and 1.0 for the min-lift: at the line, around it
    assert len(tab) == 4 and set(tab.curve) == {"a"} and est.simultaneous
    worst = ex.extreme(est, "max")
    assert worst.low <= 0.01 and worst.high > 0  # around the line: not decided above
    df.loc[df.eps == 2.0, "min_leak"] += 1
    est, tab = ex.budget_estimate(df, {"a": 0.5})
    assert ex.extreme(est, "max").low > 0.5 and int((tab.low > 0.01).sum()) == 1
    t = pd.DataFrame(
        {
            "dist": np.tile(np.arange(20), 3),
            "eps": np.repeat([0.5, 1.0, 3.0], 20),
            "aorr": 1.0,
            "srr": np.repeat([0.1, 3.0, 0.2], 20) * (1 + 0.01 * np.tile(np.arange(20), 3)),
        }
    )
    tab, cross, medians = ex.timing_verdicts(t)
    assert list(tab.verdict) == ["SRR faster", "SRR slower", "SRR faster"] and len(cross) == 2
    assert 0.5 < cross[0] < 1.0 < cross[1] < 3.0 and medians.method == "order" and medians.simultaneous
    few, _, none = ex.timing_verdicts(t[t.dist < 5])  # too few distributions for a 99 % simultaneous interval
    assert none is None and set(few.verdict) == {"undecided"}


def test_paired_timings_and_growth_shapes():
    J = random_joint(5, 8, rng=np.random.default_rng(5), size=2)
    t = ex.paired_timings(J, [1.0, 4.0], repeats=2, seed=0)
    assert len(t) == 4 and (t.aorr > 0).all() and (t.srr >= 0).all()
    g = ex.aorr_growth([5, 6], [1.0], n_dist=2, seed=0, repeats=2)
    assert len(g) == 4 and (g.n_vertices > 0).all() and (g.t_aorr > 0).all()
    assert sorted(g[g.dist == 0].n_x) == [5, 6]  # each distribution index times every size


# ----------------------------------------------------------------------------- analytic checks


def test_new_analytic_checks():
    rng = np.random.default_rng(7)
    mono = theory.eq11_nested(300, rng=rng)
    assert mono["strict_violations"] == 0 and mono["singleton_pairs"] > 0
    assert mono["singleton_equalities"] == mono["singleton_pairs"] and mono["singleton_max_gap"] < 1e-12
    assert theory.refinement_checks(300, rng=rng)["violations"] == 0
    ids = theory.identity_errors(100, rng=rng)
    assert ids["eq4_rel"] < 1e-12 and ids["T_abs"] < 1e-12 and ids["chi2_rel"] < 1e-10 and ids["sibson_abs"] < 1e-12
    p7 = theory.prop7_feasibility(20, rng=rng)
    assert p7["sufficiency_exceptions"] == 0 and p7["necessity_exceptions"] == 0
    a = theory.alpha_limits(50, rng=rng)
    assert a["monotone_violations"] == 0 and a["sandwich_violations"] == 0 and a["gap_max"] < 1e-3
    nest = theory.nested_high_risk(random_joint(5, 17, rng=rng, size=30), [0.5, 2.0, 6.0])
    assert nest["violations"] == 0


def test_convexity_checks_find_the_l1_inverse_counterexample():
    conv = theory.convexity_checks(12000, rng=np.random.default_rng(2))
    assert conv["ℓ1-lift-inverse"]["quasi_violations"] > 0
    for name in (
        "max-lift Λ",
        "inverse min-lift 1/Ψ",
        "ℓ1-lift",
        "χ²-lift",
        "α-lift (α = 2)",
        "α-lift-inverse (α = 10)",
    ):
        assert conv[name]["violations"] == 0, name


def test_ldp_feasible_lp_matches_gamma_of_the_block():
    P = random_joint(4, 9, rng=8)
    H = np.array([1, 4, 6])
    ph = P[:, H].sum(1) / P.sum(1)
    g = np.log(ph.max() / ph.min())
    assert theory.ldp_feasible(P, H, g * 1.001, 2) and not theory.ldp_feasible(P, H, g * 0.99, 2)


def test_fig1_extremes_and_mass_bounds():
    r = theory.fig1_extremes(3, 50, rng=0)
    assert all(v.shape == (3,) for v in r.values())
    assert np.all(r["psi_min"] <= r["psi_max"]) and np.all(r["psi_max"] < 0) and np.all(r["lam_min"] > 0)
    s = theory.lift_asymmetry_samples(200, rng=1)
    assert np.all(s["mass_max"] >= s["mass_max_floor"] - 1e-15) and np.all(
        s["mass_min"] <= s["mass_min_ceiling"] + 1e-15
    )


# ----------------------------------------------------------------------------- AORR speed-ups


def test_column_generation_equals_the_full_lp():
    P = random_joint(5, 17, rng=np.random.default_rng(11))
    A = orr.alip_column_polytope(P, *alip_budgets(0.5, 0.5))
    V = orr.polytope_vertices(*A)
    assert V.shape[0] >= orr._CG_MIN
    h = orr.column_entropies(V)
    full = orr._lp22(h, V, P.sum(0))
    cg = orr._lp22_column_generation(V, h, P.sum(0))
    assert cg.fun == pytest.approx(full.fun, abs=1e-9)
    beta = orr.min_concave_over_vertices(V, h, P.sum(0))
    assert np.allclose(beta @ V, P.sum(0), atol=1e-12) and h @ beta == pytest.approx(full.fun, abs=1e-9)


def test_vertex_deduplication_and_backend_name():
    # the simplex in 2-D has two vertices; brute force finds each twice (and -0.0 next to 0.0)
    out = orr.polytope_vertices(-np.eye(2), np.zeros(2), np.ones((1, 2)), np.ones(1), method="bruteforce")
    assert out.shape == (2, 2)
    assert orr.vertex_backend().startswith("Qhull (scipy") and "brute" in orr.vertex_backend("bruteforce")


# ----------------------------------------------------------------------------- the claims table


def test_claims_table_is_well_formed():
    assert len(CLAIMS) >= 70
    for c in CLAIMS.values():
        assert c.where_text, c.id
        if c.expect == "diverges":
            assert c.note, c.id
        if c.volatile:
            assert c.kind in ("holds", "monotone", "range"), c.id
    # every first-edition row is still graded
    first = [
        "F1.1",
        "F1.2",
        "F1.3",
        "F1.4",
        "F1.5",
        "P1.1",
        "P1.3",
        "P1.4",
        "P3.3",
        "P4",
        "P5.3",
        "P6",
        "P1.2",
        "P3.1-2",
        "P5.1-2",
        "D6",
        "E11",
        "D4",
        "T1",
        "P2",
        "H1",
        "F2.P2",
        "F2.lam",
        "F2.cross",
        "F2.lk",
        "F2.leak",
        "H3",
        "F3.priv",
        "F3.bind",
        "F3.leak",
        "F3.sat",
        "F3.lam",
        "F3.vsCM",
        "F3.lim",
        "H2",
        "H2.ratio",
        "A1",
        "A1.opt",
        "F4.P2",
        "F4.enh",
        "F4.lam",
        "F4.cross",
        "F4.leak",
        "F4.same",
        "F5.ord",
        "F5.close",
        "F5.inst",
        "F5.priv",
        "F5.leak",
        "F5.time",
        "F5.cross",
        "F6.ord",
        "F6.leak",
        "F6.hl",
        "F6.run",
        "F7.rel",
        "F7.lam.l1",
        "F7.lam.chi2",
        "F8.ord",
        "F8.leak",
        "F7.cross.l1",
        "F7.cross.chi2",
    ]
    assert not set(first) - set(CLAIMS)


def test_small_lp_by_bases_equals_highs():
    import math

    rng = np.random.default_rng(0)
    n = 0
    for _ in range(150):
        P = random_joint(int(rng.integers(2, 16)), int(rng.integers(2, 6)), rng=rng)
        A = orr.alip_column_polytope(P, *alip_budgets(float(rng.uniform(0.3, 6)), float(rng.choice([0.35, 0.5, 0.65]))))
        V = orr.polytope_vertices(*A)
        if not len(V) or math.comb(len(V), V.shape[1]) > orr._BASES_MAX or np.linalg.matrix_rank(V) < V.shape[1]:
            continue
        V = V / V.sum(1, keepdims=True)
        h = orr.column_entropies(V)
        full, x = orr._lp22(h, V, P.sum(0)), orr._lp22_bases(V, h, P.sum(0))
        assert (full.status == 0) == (x is not None)
        if x is not None:
            n += 1
            assert h @ x == pytest.approx(full.fun, abs=1e-12) and np.allclose(x @ V, P.sum(0), atol=1e-10)
    assert n > 50
