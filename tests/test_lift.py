"""Tests for ldpnb.measures.lift.

Zarrabian, Ding & Sadeghi: lifts, Props. 1-6, the counterexamples, Sec. VI measures.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpnb import measures as lift
from ldpnb.measures import ALIP, LIP, LDPwrtS, LiftMeasurePrivacy, alip_budgets, lift_matrix, random_joint
from ldpnb.papers import lift as lift_lift
from ldpnb.papers.lift import counterexample_c1, counterexample_c2, proposition_checks


def random_mech(rng, n_s, n_x, n_y, conc):
    p_sx = random_joint(n_s, n_x, rng=rng, kind="dirichlet", concentration=conc)
    C = rng.dirichlet(np.full(n_y, conc), size=n_x)
    return p_sx, C, p_sx @ C


def test_random_joint_uniform_and_validation():
    P = random_joint(5, 17, rng=0)
    assert P.shape == (5, 17) and np.isclose(P.sum(), 1) and np.all(P > 0)
    assert np.array_equal(P, random_joint(5, 17, rng=0))
    Ps = random_joint(3, 4, rng=1, size=7)
    assert Ps.shape == (7, 3, 4) and np.allclose(Ps.sum(axis=(1, 2)), 1)
    with pytest.raises(ValueError, match="kind"):
        random_joint(3, 4, kind="beta")
    with pytest.raises(ValueError, match="n_s"):
        random_joint(1, 4)


def test_alip_budgets():
    assert alip_budgets(2.0, 0.65) == pytest.approx((1.3, 0.7))
    with pytest.raises(ValueError, match="lam"):
        alip_budgets(1.0, 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        alip_budgets(-1.0, 0.5)


def test_lift_basic_identities_T1_T2():
    rng = np.random.default_rng(1)
    for _ in range(300):
        n_s, n_x, n_y = rng.integers(2, 6, size=3)
        conc = rng.choice([0.3, 1.0, 3.0])
        _, C, p_sy = random_mech(rng, n_s, n_x, n_y, conc)
        L = lift_matrix(p_sy)
        p_s, p_y = p_sy.sum(1), p_sy.sum(0)
        p_y = p_y[p_y > 0]
        # T2: Psi <= 1 <= Lambda; sum_s P_S l = 1; sum_y P_Y l = 1
        assert np.all(L.min(0) <= 1 + 1e-12) and np.all(L.max(0) >= 1 - 1e-12)
        assert np.allclose(p_s @ L, 1) and np.allclose(L @ p_y, 1)
        # T1: max_{s,s'} P(y|s)/P(y|s') = Lambda/Psi (eq. 4)
        keep = p_sy.sum(0) > 0
        pys = p_sy[:, keep] / p_sy.sum(1, keepdims=True)
        with np.errstate(divide="ignore"):
            direct = pys.max(0) / pys.min(0)
            assert np.allclose(direct, lift.ldp_ratio(p_sy), rtol=1e-9)


def test_posterior_over_prior_is_the_lift():
    rng = np.random.default_rng(12)
    _, _, p_sy = random_mech(rng, 3, 4, 5, 1.0)
    post = lift.posterior(p_sy)
    assert np.allclose(post.sum(0), 1)
    assert np.allclose(post / p_sy.sum(1)[:, None], lift_matrix(p_sy))


def test_lift_validation():
    with pytest.raises(ValueError, match="sum to 1"):
        lift_matrix(np.ones((2, 2)))
    with pytest.raises(ValueError, match=">= 0"):
        lift_matrix(np.array([[0.5, -0.1], [0.3, 0.3]]))
    with pytest.raises(ValueError, match="2-D"):
        lift_matrix(np.ones(4) / 4)


def test_set_lift_is_convex_combination():
    rng = np.random.default_rng(2)
    P = random_joint(4, 9, rng=rng)
    A = [1, 4, 7]
    l_A = lift.set_lift(P, A)
    L = lift_matrix(P)
    w = P.sum(0)[A] / P.sum(0)[A].sum()
    assert np.allclose(l_A, L[:, A] @ w)
    assert np.allclose(lift.set_lift(P, range(9)), 1)
    with pytest.raises(ValueError, match="distinct"):
        lift.set_lift(P, [1, 1])


def test_counterexamples_exact_numbers():
    c1 = counterexample_c1()
    lk = lift.leakages(c1)
    assert lk.max_lift_leak == pytest.approx(np.log(1.2)) and lk.min_lift_leak == pytest.approx(-np.log(0.6))
    assert lift.total_variation_dependence(c1) == pytest.approx(0.4 / 3)
    assert lift.chi2_dependence(c1) == pytest.approx(0.08)
    assert lift.l1_lift(c1).max() == pytest.approx(0.8 / 3)
    assert lift.chi2_lift(c1).max() == pytest.approx(0.08)
    c2 = counterexample_c2()
    lk2 = lift.leakages(c2)
    assert lk2.min_lift_leak == pytest.approx(-np.log(0.8)) and lk2.max_lift_leak == pytest.approx(np.log(1.4))
    assert lift.l1_lift_inverse(c2).max() == pytest.approx((1 / 1.4 - 1) * -1 / 3 + 2 / 3 * 0.25)
    assert lift.l1_lift_inverse(c2).max() == pytest.approx(0.2619, abs=1e-4)
    assert lift.chi2_lift_inverse(c2).max() == pytest.approx(0.0689, abs=1e-4)
    # the printed bounds fail on them, the corrected ones hold (Props. 1.2, 3.1-3.2, 5.1-5.2)
    chk1 = proposition_checks(c1)
    for k in (
        "P1.2 T <= (e^eu-1)/2 _printed",
        "P1.2 chi2 <= (e^eu-1)^2 _printed",
        "P3.1 max l1-lift <= e^eu-1 _printed",
        "P3.2 max chi2-lift <= (e^eu-1)^2 _printed",
    ):
        assert not chk1[k].holds, k
    chk2 = proposition_checks(c2)
    for k in ("P5.1 max l1-lift-inv <= e^el-1 _printed", "P5.2 max chi2-lift-inv <= (e^el-1)^2 _printed"):
        assert not chk2[k].holds, k
    for chk in (chk1, chk2):
        assert all(v.holds for v in chk.values() if v.true_in_general)


@pytest.mark.parametrize("conc", [0.3, 1.0, 3.0])
def test_true_propositions_hold_on_random_instances(conc):
    """Props. 1.1, 1.2 (corrected), 1.3, 1.4, 3 (corrected), 3.3, 4, 5 (corrected), 5.3, 6: zero violations."""
    rng = np.random.default_rng(3)
    for _ in range(250):
        n_s, n_x, n_y = rng.integers(2, 6, size=3)
        _, _, p_sy = random_mech(rng, n_s, n_x, n_y, conc)
        if np.any(p_sy.sum(0) <= 0):
            continue
        L = lift_matrix(p_sy)
        if L.min() <= 1e-300:  # zero lift: infinite min-lift leakage; Prop. bounds vacuous
            continue
        for name, bc in proposition_checks(p_sy).items():
            if bc.true_in_general:
                assert bc.holds, (name, bc)


def test_printed_bounds_hold_when_symmetric_budget_dominates():
    """The printed Prop. 1.2 / 3.1-3.2 bounds hold when e^eu + e^-el >= 2 (e.g. LIP-like)."""
    rng = np.random.default_rng(4)
    n_checked = 0
    for _ in range(400):
        _, _, p_sy = random_mech(rng, 3, 4, 3, 1.0)
        lk = lift.leakages(p_sy)
        if np.exp(lk.max_lift_leak) + np.exp(-lk.min_lift_leak) < 2:
            continue
        n_checked += 1
        chk = proposition_checks(p_sy)
        for k in (
            "P1.2 T <= (e^eu-1)/2 _printed",
            "P1.2 chi2 <= (e^eu-1)^2 _printed",
            "P3.1 max l1-lift <= e^eu-1 _printed",
            "P3.2 max chi2-lift <= (e^eu-1)^2 _printed",
        ):
            assert chk[k].holds, k
    assert n_checked > 50


def test_alpha_lift_monotone_and_limits_T12():
    rng = np.random.default_rng(5)
    P = random_joint(5, 17, rng=rng)
    L = lift_matrix(P)
    prev_u = prev_l = None
    for a in (1.5, 2, 5, 10, 100, 1000):
        u = lift.alpha_lift(P, a)
        lo = lift.alpha_lift_inverse(P, a)
        assert np.all(u <= L.max(0) * (1 + 1e-12))
        assert np.all(lo <= 1 / L.min(0) * (1 + 1e-12))
        if prev_u is not None:
            assert np.all(u >= prev_u * (1 - 1e-12)) and np.all(lo >= prev_l * (1 - 1e-12))
        prev_u, prev_l = u, lo
    assert np.allclose(lift.alpha_lift(P, 5000), L.max(0), rtol=1e-3)
    assert np.allclose(lift.alpha_lift_inverse(P, 5000), 1 / L.min(0), rtol=1e-3)


def test_alpha_lift_inverse_no_overflow():
    """Lifts near e^-12 with alpha = 100: l^-100 = e^1200 overflows unless computed in logs."""
    P = np.array([[1e-7, 0.5 - 1e-7], [0.25, 0.25]])
    P = P / P.sum()
    v = lift.alpha_lift_inverse(P, 100.0)
    assert np.all(np.isfinite(v)) and v.max() > 1e4


def test_nested_high_risk_sets_T12():
    from ldpnb.mechanisms import watchdog_partition

    rng = np.random.default_rng(6)
    for _ in range(100):
        P = random_joint(5, 17, rng=rng)
        eps = rng.uniform(0.25, 8)
        el, eu = alip_budgets(eps, rng.uniform(0.1, 0.9))
        sets = [set(watchdog_partition(P, LiftMeasurePrivacy("alpha", el, eu, alpha=a))[1]) for a in (2, 10, 100)]
        sets.append(set(watchdog_partition(P, ALIP(el, eu))[1]))
        for a, b in zip(sets, sets[1:]):
            assert a <= b


def test_criteria_agree_with_predicates():
    rng = np.random.default_rng(7)
    for _ in range(200):
        _, _, p_sy = random_mech(rng, 3, 5, 4, 1.0)
        if np.any(p_sy.sum(0) <= 0):
            continue
        L, p_s = lift_matrix(p_sy), p_sy.sum(1)
        eps = rng.uniform(0.1, 3)
        el, eu = rng.uniform(0.1, 3, size=2)
        assert (not ALIP(el, eu).violated(L, p_s).any()) == lift.is_alip(p_sy, el, eu, rtol=1e-12)
        assert (not LIP(eps).violated(L, p_s).any()) == lift.is_lip(p_sy, eps, rtol=1e-12)
        assert (not LDPwrtS(eps).violated(L, p_s).any()) == lift.is_ldp_wrt_s(p_sy, eps, rtol=1e-12)
        # Prop. 1.4: ALIP implies LDP with eps_l + eps_u
        if lift.is_alip(p_sy, el, eu):
            assert lift.is_ldp_wrt_s(p_sy, el + eu)


def test_risk_scores():
    L = np.array([[2.0, 1.5], [0.5, 0.25]])
    p_s = np.array([0.5, 0.5])
    assert np.allclose(ALIP(1, 1).risk(L, p_s), [2 + 2, 1.5 + 4])
    assert np.allclose(ALIP(1, 1, risk="printed").risk(L, p_s), [2.5, 1.75])
    assert np.allclose(LDPwrtS(1).risk(L, p_s), [4, 6])
    assert np.allclose(LIP(1).risk(L, p_s), [np.log(2), np.log(4)])
    with pytest.raises(ValueError, match="alpha"):
        LiftMeasurePrivacy("alpha", 1, 1)
    with pytest.raises(ValueError, match="kind"):
        LiftMeasurePrivacy("tv", 1, 1)


def test_lift_asymmetry_samples():
    out = lift_lift.lift_asymmetry_samples(50, rng=0)
    assert out["log_psi"].shape == (850,) and np.all(out["log_psi"] <= 0) and np.all(out["log_lambda"] >= 0)
    assert np.all(out["mass_max"] > out["mass_min"])


def test_sibson_arimoto_units_and_limits():
    rng = np.random.default_rng(8)
    _, _, p_sy = random_mech(rng, 3, 4, 3, 1.0)
    i1 = lift.mutual_information_sy(p_sy, unit="nats")
    # Sibson/Arimoto -> Shannon MI as alpha -> 1
    assert lift.sibson_mi(p_sy, 1.0001, unit="nats") == pytest.approx(i1, rel=1e-2, abs=1e-4)
    assert lift.arimoto_mi(p_sy, 1.0001, unit="nats") == pytest.approx(i1, rel=1e-2, abs=1e-4)
    assert lift.sibson_mi(p_sy, 2, unit="bits") == pytest.approx(lift.sibson_mi(p_sy, 2, unit="nats") / np.log(2))
    with pytest.raises(ValueError, match="unit"):
        lift.sibson_mi(p_sy, 2, unit="dits")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n_s=st.integers(2, 5), n_x=st.integers(2, 6))
def test_identity_mechanism_leakage_matches_raw_lifts(seed, n_s, n_x):
    P = random_joint(n_s, n_x, rng=seed)
    ev = lift.evaluate_mechanism(P, np.eye(n_x))
    L = lift_matrix(P)
    assert ev["nmi"] == pytest.approx(1.0)
    assert ev["max_lift_leak"] == pytest.approx(np.log(L.max()))
    assert ev["min_lift_leak"] == pytest.approx(-np.log(L.min()))
    ev0 = lift.evaluate_mechanism(P, np.ones((n_x, 1)))
    assert ev0["nmi"] == pytest.approx(0.0, abs=1e-12) and ev0["max_lift_leak"] == pytest.approx(0, abs=1e-12)


def test_experiment_driver_and_helpers(monkeypatch):
    import pandas as pd

    from ldpnb.papers.lift import Curve, put_sweep, random_joints, summarise
    from ldpnb.papers.lift.experiments import crossover

    J = random_joints(3, 3, 6, rng=0)
    curves = [Curve("cm", "cm", "alip", 0.5), Curve("sm", "sm", "ldp", None), Curve("a", "sm", "alpha", 0.5, alpha=2.0)]
    df = put_sweep(J, [0.5, 2.0], curves, seed=1)
    assert len(df) == 3 * 2 * 3 and set(df.curve) == {"cm", "sm", "a"}
    assert df.nmi.between(-1e-12, 1 + 1e-12).all() and (df.min_leak >= -1e-12).all()
    monkeypatch.setenv("LDPNB_N_JOBS", "2")
    df2 = put_sweep(J, [0.5, 2.0], curves, seed=1)
    pd.testing.assert_frame_equal(df.drop(columns="time"), df2.drop(columns="time"))
    S = summarise(df)
    assert {"nmi", "nmi_lo", "nmi_hi", "n"} <= set(S.columns) and (S.n == 3).all()
    assert (S.nmi_lo <= S.nmi).all() and (S.nmi <= S.nmi_hi).all()
    # crossover: hi - lo = eps - 1 on the grid 0.5..2 -> root at 1; never ahead at the end -> beyond the grid
    eps = np.array([0.5, 0.75, 1.25, 2])
    hi, lo = np.array([0.1, 0.2, 0.45, 0.7]), np.array([0.6, 0.45, 0.2, 0.0])
    assert float(crossover(hi, lo, eps)) == pytest.approx(0.75 + 0.5 * 0.25 / 0.5)
    assert float(crossover(lo, hi, eps)) == pytest.approx(3.0)
    with pytest.raises(ValueError, match="method"):
        Curve("x", "orr")
    with pytest.raises(ValueError, match="ALIP only"):
        Curve("x", "aorr", "ldp", None)


@pytest.mark.parametrize("bad", [0.0, -1.0, float("nan"), float("inf")])
def test_budgets_are_validated(bad):
    J = np.full((2, 2), 0.25)
    for make, name in [
        (lambda e: ALIP(e, 1.0), "eps_l"),
        (lambda e: ALIP(1.0, e), "eps_u"),
        (lambda e: LIP(e), "epsilon"),
        (lambda e: LDPwrtS(e), "epsilon"),
        (lambda e: LiftMeasurePrivacy("l1", e, 1.0), "eps_l"),
        (lambda e: lift.is_alip(J, e, 1.0), "eps_l"),
        (lambda e: lift.is_lip(J, e), "epsilon"),
        (lambda e: lift.is_ldp_wrt_s(J, e), "epsilon"),
        (lambda e: alip_budgets(e, 0.5), "epsilon"),
    ]:
        with pytest.raises(ValueError, match=name):
            make(bad)
    with pytest.raises(ValueError, match="alpha"):
        lift.sibson_mi(J, float("inf"), unit="nats")


def test_proposition_violations_table():
    table, used = lift_lift.proposition_violations(60, rng=3)
    assert 0 < used <= 60
    true = table[table.true_in_general]
    assert (true.violations == 0).all()
    assert set(table.columns) == {"true_in_general", "violations", "rate"}
    with pytest.raises(ValueError, match="n must"):
        lift_lift.proposition_violations(0)


def test_comparison_helpers():
    import pandas as pd

    from ldpnb.papers.lift.experiments import (
        budget_estimate,
        curve_runs,
        extreme,
        instance_min,
        order_estimate,
        paired_runs,
    )

    df = pd.DataFrame(
        {
            "curve": ["a", "a", "b", "b"],
            "dist": [0, 1, 0, 1],
            "eps": [1.0, 1.0, 1.0, 1.0],
            "nmi": [0.5, 0.2, 0.4, 0.3],
            "min_leak": [0.6, 0.4, 0.5, 0.5],
            "max_leak": [0.4, 0.6, 0.5, 0.5],
        }
    )
    assert curve_runs(df, "a").to_numpy().ravel().tolist() == [0.5, 0.2]
    with pytest.raises(ValueError, match="no curve"):
        curve_runs(df, "c")
    assert instance_min(df, "a", "b") == (pytest.approx(-0.1), 2)
    mask = pd.Series([True, False], index=pd.MultiIndex.from_tuples([(0, 1.0), (1, 1.0)], names=["dist", "eps"]))
    assert instance_min(df, "a", "b", mask=mask) == (pytest.approx(0.1), 1)
    est, tab = budget_estimate(df, {"a": 0.5})
    assert tab.excess.tolist() == pytest.approx([0.0, 0.0]) and est.shape == (2,)
    assert float(extreme(est).value) == pytest.approx(0.0)
    # paired differences: a - b = +0.1 on every distribution at eps 1, -0.1 at eps 2 (reversed)
    rows = [("a", d, e, 0.5 + (1 if e == 1.0 else -1) * 0.1 + 0.001 * d) for d in range(10) for e in (1.0, 2.0)]
    rows += [("b", d, e, 0.5) for d in range(10) for e in (1.0, 2.0)]
    P = pd.DataFrame(rows, columns=["curve", "dist", "eps", "nmi"])
    a, b = paired_runs(P, "a", "b")
    assert a.columns.tolist() == [1.0, 2.0]
    est, info = order_estimate(P, [([("a", "b")], 0.001, True)])
    assert info["points"] == 2 and info["above"] == 1 and info["below"] == 1
    assert est.high[0] < -0.001  # the smallest difference is decided below minus the tie: reversed
    est, info = order_estimate(P, [([("a", "b", {"eps_max": 1.0})], 0.001, True)])
    assert info["below"] == 0 and est.low[1] > 0.001
