"""Tests for ldpnb.mechanisms.watchdog (eqs. 11, 13, Thm. 1, Prop. 2, Algorithm 1, the optimal partition)."""

import numpy as np
import pytest

from ldpnb.measures import (
    ALIP,
    LIP,
    LDPwrtS,
    LiftMeasurePrivacy,
    alip_budgets,
    entropy,
    lift_matrix,
    mutual_information,
    random_joint,
)
from ldpnb.mechanisms import (
    MergeMechanism,
    complete_merging,
    merging_mi,
    optimal_partition,
    subset_merging,
    watchdog_partition,
)


def random_partition(rng, items):
    items = list(rng.permutation(items))
    g = rng.integers(1, len(items) + 1)
    cuts = np.sort(rng.choice(np.arange(1, len(items)), size=g - 1, replace=False)) if g > 1 else []
    return [np.sort(np.array(b, dtype=int)) for b in np.split(np.array(items), cuts)]


def test_watchdog_partition_matches_definition():
    rng = np.random.default_rng(0)
    P = random_joint(5, 17, rng=rng)
    L = lift_matrix(P)
    el, eu = 0.6, 0.4
    low, high = watchdog_partition(P, ALIP(el, eu))
    bad = (L.min(0) < np.exp(-el)) | (L.max(0) > np.exp(eu))
    assert np.array_equal(high, np.flatnonzero(bad)) and np.array_equal(low, np.flatnonzero(~bad))
    with pytest.raises(TypeError):
        watchdog_partition(P, "ALIP")


def test_closed_form_mi_eq11_eq13_T5():
    rng = np.random.default_rng(1)
    for _ in range(200):
        n_x = rng.integers(3, 12)
        P = random_joint(3, n_x, rng=rng)
        p_x = P.sum(0)
        high = np.sort(rng.choice(n_x, size=rng.integers(1, n_x + 1), replace=False))
        low = np.setdiff1d(np.arange(n_x), high)
        groups = random_partition(rng, high)
        mm = MergeMechanism(n_x, low, groups)
        C = mm.channel()
        assert np.allclose(C.sum(1), 1)
        assert merging_mi(p_x, groups, unit="nats") == pytest.approx(mutual_information(p_x, C, unit="nats"), abs=1e-12)
        assert np.allclose(mm.output_joint(P), P @ C)
        # eq. 11 alternative form: H(X) - P(X_H) H(X | X in X_H)
        ph = p_x[high]
        assert merging_mi(p_x, [high], unit="nats") == pytest.approx(
            entropy(p_x, unit="nats") - ph.sum() * entropy(ph / ph.sum(), unit="nats")
        )


def test_monotonicity_and_refinement_T6():
    rng = np.random.default_rng(2)
    for _ in range(300):
        n_x = rng.integers(3, 12)
        p_x = random_joint(2, n_x, rng=rng).sum(0)
        H = np.sort(rng.choice(n_x, size=rng.integers(2, n_x + 1), replace=False))
        sub = H[rng.permutation(len(H))[: rng.integers(1, len(H))]]
        assert merging_mi(p_x, [np.sort(sub)], unit="nats") > merging_mi(p_x, [H], unit="nats")
        G = random_partition(rng, H)
        i = int(np.argmax([len(b) for b in G]))
        if len(G[i]) >= 2:
            b = rng.permutation(G[i])
            k = rng.integers(1, len(b))
            refined = G[:i] + [np.sort(b[:k]), np.sort(b[k:])] + G[i + 1 :]
            assert merging_mi(p_x, refined, unit="nats") >= merging_mi(p_x, G, unit="nats") - 1e-15


def test_theorem1_and_lip_analogue_T4():
    """Any randomisation r supported on X_H: max Gamma >= Gamma(X_H), max lift >= Lambda(X_H),
    min lift <= Psi(X_H); X-invariant randomisation attains equality (eq. 34)."""
    rng = np.random.default_rng(3)
    for _ in range(1000):
        P = random_joint(5, 17, rng=rng)
        H = np.sort(rng.choice(17, size=rng.integers(2, 8), replace=False))
        k = rng.integers(1, 5)
        r = rng.dirichlet(np.ones(k), size=len(H))
        p_sy = P[:, H] @ r
        keep = p_sy.sum(0) > 0
        p_s = P.sum(1)
        Ly = p_sy[:, keep] / (p_s[:, None] * p_sy[:, keep].sum(0))
        a = P[:, H].sum(1)
        La = a / (p_s * a.sum())
        assert (Ly.max(0) / Ly.min(0)).max() >= (La.max() / La.min()) * (1 - 1e-12)
        assert Ly.max() >= La.max() * (1 - 1e-12) and Ly.min() <= La.min() * (1 + 1e-12)
        # X-invariant: r(y|x) = R(y)
        R = np.tile(rng.dirichlet(np.ones(k)), (len(H), 1))
        q = P[:, H] @ R
        Lq = q / (p_s[:, None] * q.sum(0))
        assert np.allclose(Lq, La[:, None])


def test_proposition2_ldp_high_risk_subset_T7():
    rng = np.random.default_rng(4)
    for _ in range(1000):
        P = random_joint(5, 17, rng=rng)
        eps, lam = rng.uniform(0.25, 8), rng.uniform(0.05, 0.95)
        el, eu = alip_budgets(eps, lam)
        h_ldp = set(watchdog_partition(P, LDPwrtS(eps))[1])
        h_alip = set(watchdog_partition(P, ALIP(el, eu))[1])
        assert h_ldp <= h_alip
        p_x = P.sum(0)
        i_ldp = complete_merging(P, LDPwrtS(eps)).mutual_information(p_x, unit="nats")
        i_alip = complete_merging(P, ALIP(el, eu)).mutual_information(p_x, unit="nats")
        assert i_ldp >= i_alip - 1e-12


CRITERIA = [
    lambda el, eu: ALIP(el, eu),
    lambda el, eu: LDPwrtS(el + eu),
    lambda el, eu: LIP(eu),
    lambda el, eu: LiftMeasurePrivacy("l1", el, eu),
    lambda el, eu: LiftMeasurePrivacy("chi2", el, eu),
    lambda el, eu: LiftMeasurePrivacy("alpha", el, eu, alpha=10),
]


@pytest.mark.parametrize("make", CRITERIA)
def test_algorithm1_output_T16(make):
    rng = np.random.default_rng(5)
    for _ in range(150):
        P = random_joint(5, 17, rng=rng)
        el, eu = alip_budgets(rng.uniform(0.25, 6), rng.choice([0.35, 0.5, 0.65]))
        crit = make(el, eu)
        low, high = watchdog_partition(P, crit)
        mm = subset_merging(P, crit)
        assert np.array_equal(mm.low, low)
        allx = np.concatenate(mm.groups) if mm.groups else np.array([], dtype=int)
        assert np.array_equal(np.sort(allx), high)  # blocks partition X_H exactly
        p_s = P.sum(1)
        cols = np.stack([P[:, g].sum(1) for g in mm.groups], 1) if mm.groups else np.zeros((5, 0))
        if cols.shape[1]:
            bad = crit.violated(cols / (p_s[:, None] * cols.sum(0)), p_s)
            # every block except possibly a single final block is private
            assert not bad[:-1].any()
            if bad[-1]:
                assert len(mm.groups) == 1
        p_x = P.sum(0)
        assert (
            mm.mutual_information(p_x, unit="nats")
            >= complete_merging(P, crit).mutual_information(p_x, unit="nats") - 1e-12
        )


def test_printed_outer_loop_mostly_complete_merging():
    rng = np.random.default_rng(6)
    same = 0
    for _ in range(100):
        P = random_joint(5, 17, rng=rng)
        crit = ALIP(1.0, 1.0)
        a = subset_merging(P, crit, outer_loop="printed")
        b = complete_merging(P, crit)
        same += len(a.groups) == len(b.groups)
    assert same >= 90
    with pytest.raises(ValueError, match="outer_loop"):
        subset_merging(P, crit, outer_loop="until")


def test_worked_example_small():
    """A hand-checkable instance: symbols 0 and 1 are high-risk in opposite directions and their
    merge is private; symbol 2 is low-risk."""
    P = np.array([[0.30, 0.05, 0.15], [0.05, 0.30, 0.15]])
    crit = ALIP(0.5, 0.5)
    low, high = watchdog_partition(P, crit)
    assert low.tolist() == [2] and high.tolist() == [0, 1]
    mm = subset_merging(P, crit)
    assert [g.tolist() for g in mm.groups] == [[0, 1]]
    # I = H(X) - 0.7 * log 2
    p_x = P.sum(0)
    assert mm.mutual_information(p_x, unit="nats") == pytest.approx(entropy(p_x, unit="nats") - 0.7 * np.log(2))


def test_optimal_partition_dominates_greedy_T17():
    rng = np.random.default_rng(7)
    n_done = 0
    for _ in range(200):
        P = random_joint(5, 12, rng=rng)
        crit = ALIP(*alip_budgets(rng.uniform(0.5, 3), 0.5))
        _, high = watchdog_partition(P, crit)
        if not 2 <= len(high) <= 9:
            continue
        opt = optimal_partition(P, crit)
        g = subset_merging(P, crit)
        p_x = P.sum(0)
        if opt is None:
            continue
        n_done += 1
        assert opt.mutual_information(p_x, unit="nats") >= g.mutual_information(p_x, unit="nats") - 1e-12
        p_s = P.sum(1)
        cols = np.stack([P[:, b].sum(1) for b in opt.groups], 1)
        assert not crit.violated(cols / (p_s[:, None] * cols.sum(0)), p_s).any()
        assert np.array_equal(np.sort(np.concatenate(opt.groups)), high)
    assert n_done > 20


def test_merging_mi_validates_groups():
    with pytest.raises(ValueError, match="groups"):
        merging_mi([0.5, 0.5], [[0, 5]], unit="nats")
    with pytest.raises(ValueError, match="groups"):
        merging_mi([0.25] * 4, [[0, 1], [1, 2]], unit="nats")


def test_merging_mi_refuses_fractional_indices_and_non_lists():
    """Fuzz (issue #40): a fractional index was truncated (merging_mi(p, [[0.5, 1]]) gave the MI of
    [[0, 1]]), and None or an object failed with a TypeError that did not name groups."""
    p = np.array([0.2, 0.3, 0.5])
    with pytest.raises(ValueError, match=r"^groups\[0\] must"):
        merging_mi(p, [[0.5, 1]], unit="nats")
    for bad in (None, "ab", object()):
        with pytest.raises(TypeError, match="^groups must"):
            merging_mi(p, bad, unit="nats")
    assert merging_mi(p, [np.array([0, 1])], unit="nats") == merging_mi(p, [[0, 1]], unit="nats")
    assert merging_mi(p, [], unit="nats") == pytest.approx(float(-(p * np.log(p)).sum()), rel=1e-12)


def test_analytic_checks_zero_violations():
    from ldpnb.papers.lift import analytic_checks

    out = analytic_checks(200, rng=8)
    assert out["closed_form_max_err"] < 1e-12
    assert out["refinement_violations"] == out["theorem1_violations"] == out["prop2_violations"] == 0
    assert out["n"] == 200


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    n_s=st.integers(2, 6),
    n_x=st.integers(2, 20),
    eps=st.floats(0.05, 10),
    lam=st.floats(0.05, 0.95),
)
def test_subset_merging_properties(seed, n_s, n_x, eps, lam):
    P = random_joint(n_s, n_x, rng=seed)
    crit = ALIP(*alip_budgets(eps, lam))
    mm = subset_merging(P, crit)
    cm = complete_merging(P, crit)
    blocks = np.concatenate(mm.groups) if mm.groups else np.array([], dtype=int)
    assert np.array_equal(np.sort(blocks), cm.high) and len(set(blocks.tolist())) == blocks.size
    p_x = P.sum(0)
    assert mm.mutual_information(p_x, unit="nats") >= cm.mutual_information(p_x, unit="nats") - 1e-12
    C = mm.channel()
    assert np.allclose(C.sum(1), 1) and C.shape == (n_x, mm.n_outputs)


@pytest.mark.parametrize(
    "kw, match",
    [
        (dict(n_x=float("nan"), low=np.array([0]), groups=[]), "n_x"),
        (dict(n_x=2.5, low=np.array([0]), groups=[]), "n_x"),
        (dict(n_x=-3, low=np.array([0]), groups=[]), "n_x"),
        (dict(n_x=3, low=np.array([7]), groups=[np.array([1, 9])]), "low"),
        (dict(n_x=3, low=np.array([0, 1]), groups=[np.array([1, 2])]), "partition"),
        (dict(n_x=3, low=np.array([0]), groups=[np.array([1])]), "partition"),
        (dict(n_x=3, low=np.array([0]), groups=[np.array([1, 2])], absorbed=np.array([0])), "absorbed"),
    ],
)
def test_merge_mechanism_refuses_what_is_not_a_partition(kw, match):
    """Audit: MergeMechanism accepted n_x NaN/2.5/-3, indices off the domain, overlapping or missing
    blocks, and channel() then failed with a bare IndexError."""
    from ldpnb.mechanisms import MergeMechanism

    with pytest.raises((TypeError, ValueError), match=match):
        MergeMechanism(**kw)
    ok = MergeMechanism(3, np.array([0]), [np.array([1, 2])])
    np.testing.assert_array_equal(ok.channel(), [[1, 0], [0, 1], [0, 1]])


def test_merge_mechanism_methods_refuse_distributions_of_another_alphabet():
    """Issue #40: ``MergeMechanism(3, [0], [[1, 2]]).mutual_information`` of a 4-entry ``p_x`` returned
    1.157 bits (the extra input counted as published) and ``output_joint`` of a ``(2, 4)`` joint dropped
    its last column; both are now one-line errors naming the argument."""
    from ldpnb.mechanisms import MergeMechanism

    mm = MergeMechanism(3, np.array([0]), [np.array([1, 2])])
    cases = [
        (lambda: mm.mutual_information([0.2, 0.3, 0.4, 0.1], unit="bits"), ValueError, r"^p_x must have one entry"),
        (lambda: mm.mutual_information([0.2, 0.3, 0.6], unit="bits"), ValueError, "^p_x must"),
        (lambda: mm.mutual_information([0.2, 0.3, 0.5], unit="nat"), ValueError, "^unit must"),
        (lambda: mm.output_joint(np.full((2, 4), 1 / 8)), ValueError, r"^p_sx must have one column per input"),
        (lambda: mm.output_joint(np.full((2, 3), 0.2)), ValueError, "^p_sx must"),
        (lambda: mm.output_joint(np.full((2, 3), np.nan)), ValueError, "^p_sx must"),
        (lambda: MergeMechanism(3, [0], [[1, 2.5]]), ValueError, "^groups"),
        (lambda: MergeMechanism(3, [0], "ab"), TypeError, "^groups must"),
    ]
    for call, kind, match in cases:
        with pytest.raises(kind, match=match) as info:
            call()
        assert "\n" not in str(info.value)
    p_x = np.array([0.2, 0.3, 0.5])
    assert mm.mutual_information(p_x, unit="nats") == pytest.approx(mutual_information(p_x, mm.channel(), unit="nats"))
    np.testing.assert_allclose(mm.output_joint(np.full((2, 3), 1 / 6)), [[1 / 6, 1 / 3], [1 / 6, 1 / 3]])
