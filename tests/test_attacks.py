"""Tests of ldpnb.attacks (Arcolezi et al. 2023; spec 003 T4, T5, T12, T16, T17, T18, T20, T21, A8).

Monte-Carlo checks use fixed seeds and 5 standard errors (false-alarm rate < 1e-6 per check).
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpnb import attacks as at
from ldpnb import measures as at_measures
from ldpnb import measures as md_measures
from ldpnb import mechanisms as md
from ldpnb.attacks import deniability as at_deniability
from ldpnb.papers.risks import experiments as at_experiments

# spec §4 T4 reference values (%)
T4 = [
    ("grr", 2, 1, 73.106),
    ("sue", 2, 1, 62.246),
    ("oue", 2, 1, 61.553),
    ("ss", 2, 1, 73.106),
    ("grr", 7, 2, 55.187),
    ("sue", 7, 2, 35.085),
    ("oue", 7, 2, 38.613),
    ("ss", 7, 2, 55.187),
    ("grr", 16, 4, 78.448),
    ("sue", 16, 4, 40.232),
    ("oue", 16, 4, 46.170),
    ("grr", 74, 1, 3.590),
    ("sue", 74, 1, 2.228),
    ("oue", 74, 1, 2.512),
    ("ss", 74, 1, 2.508),
    ("grr", 74, 4, 42.789),
    ("sue", 74, 4, 9.984),
    ("oue", 74, 4, 27.940),
    ("ss", 74, 4, 42.789),
]


@pytest.mark.parametrize("protocol,k,eps,value", T4)
def test_expected_accuracy_reference_values(protocol, k, eps, value):
    assert 100 * at.expected_pd_accuracy(protocol, eps, k) == pytest.approx(value, abs=1e-3)


def test_paper_forms():
    assert 100 * at.expected_pd_accuracy("olh", 1, 2, "paper") == pytest.approx(50.0)
    assert 100 * at.expected_pd_accuracy("olh", 4, 74, "paper") == pytest.approx(37.566, abs=1e-3)
    assert 100 * at.expected_pd_accuracy("ss", 2, 7, "paper") == pytest.approx(59.922, abs=1e-3)
    assert 100 * at.expected_pd_accuracy("olh", 1, 74, "paper") == pytest.approx(2.512, abs=1e-3)
    # ideal-hash OLH equals OUE exactly (spec §2.6)
    for k in (2, 7, 16, 74):
        for eps in range(1, 11):
            assert at.expected_pd_accuracy("olh", eps, k, "ideal") == pytest.approx(
                at.expected_pd_accuracy("oue", eps, k), rel=1e-12
            )


def test_ue_closed_form_equals_binomial_sum():
    for k in (2, 7, 16, 74):
        for eps in range(1, 11):
            for kind in ("sue", "oue"):
                if kind == "sue":
                    p, q = np.exp(eps / 2) / (np.exp(eps / 2) + 1), 1 / (np.exp(eps / 2) + 1)
                else:
                    p, q = 0.5, 1 / (np.exp(eps) + 1)
                assert at.expected_pd_accuracy(kind, eps, k) == pytest.approx(
                    at_deniability.ue_accuracy_binomial_sum(p, q, k), rel=1e-12
                )


@pytest.mark.parametrize("protocol", ["grr", "olh", "ss", "sue", "oue"])
def test_attack_monte_carlo(protocol):
    """T4(ii): the implemented attacker's accuracy matches the exact formula (OLH: ideal hash)."""
    rng = np.random.default_rng(2024)
    n = 20_000
    for k, eps in ((2, 1.0), (7, 2.0), (16, 4.0), (74, 4.0)):
        x = rng.integers(0, k, size=n)
        acc = np.mean(at.perturb_and_infer(x, k, eps, protocol, rng=rng) == x)
        e = at.expected_pd_accuracy(protocol, eps, k)
        assert abs(acc - e) <= 5 * math.sqrt(e * (1 - e) / n), (k, eps, acc, e)


def test_clear_reports_are_exact():
    x = np.arange(10) % 4
    np.testing.assert_array_equal(at.perturb_and_infer(x, 4, np.inf, "oue", rng=0), x)


def test_fig1_table_values():
    """H1: Fig. 1 values of spec §5 (uniform and non-uniform, k = [74, 7, 16])."""
    ks = [74, 7, 16]
    tab = {
        1: (0.1717, 0.0775, 0.0776, 0.0528, 0.0718),
        5: (58.5117, 12.5, 58.5117, 6.6961, 11.2468),
        10: (99.5747, 12.5, 99.5747, 72.3599, 15.35),
    }
    for eps, vals in tab.items():
        for prot, v in zip(("grr", "olh", "ss", "sue", "oue"), vals):
            assert 100 * at.multi_collection_accuracy(prot, eps, ks, "uniform") == pytest.approx(v, abs=1e-3)
            assert 100 * at.multi_collection_accuracy(prot, eps, ks, "non-uniform") == pytest.approx(
                v * 2 / 9, abs=1e-3
            )


def test_limits_and_monotonicity():
    """T20: exact OUE accuracy at eps=10 is 75.0, 57.1, 53.1, 50.6% (k=2, 7, 16, 74), >= 1/2.
    T21: the product over more surveys decreases; Eq. 5 = Eq. 4 * d!/d^d."""
    vals = [100 * at.expected_pd_accuracy("oue", 10, k) for k in (2, 7, 16, 74)]
    np.testing.assert_allclose(vals, [75.0, 57.1, 53.1, 50.6], atol=0.05)
    ks = [74, 7, 16, 7, 14]
    for prot in ("grr", "sue", "oue", "olh", "ss"):
        for eps in (1, 5, 10):
            seq = [at.multi_collection_accuracy(prot, eps, ks[:m]) for m in range(1, 6)]
            assert all(a >= b for a, b in zip(seq, seq[1:]))


def test_multi_collection_monte_carlo():
    """T5: fraction of users whose 3 inferred values are all correct after 3 surveys."""
    rng = np.random.default_rng(5)
    ks = np.array([74, 7, 16])
    n = 100_000
    X = np.column_stack([rng.integers(0, k, n) for k in ks])
    design = [np.arange(3)] * 3
    for setting in ("uniform", "non-uniform"):
        res = at.simulate_smp_surveys(X, ks, "grr", 4.0, 3, setting, design=design, rng=rng)
        P = res["profiles"][-1]
        frac = np.mean(np.all(P == X, axis=1))
        e = at.multi_collection_accuracy("grr", 4.0, ks, setting)
        assert abs(frac - e) <= 5 * math.sqrt(e * (1 - e) / n)
        # T12 accountant: uniform = one fresh report per survey; non-uniform = distinct attributes
        if setting == "uniform":
            assert np.all(res["n_reports"] == 3)
        else:
            assert np.all(res["n_reports"] == (P >= 0).sum(axis=1))
            assert np.mean(res["n_reports"] == 3) == pytest.approx(6 / 27, abs=5 * math.sqrt(6 / 27 * 21 / 27 / n))


def _reid_bruteforce(P, B, k):
    out = []
    for u in range(P.shape[0]):
        kn = P[u] >= 0
        sim = ((B == P[u]) & kn).sum(axis=1)
        s = sim[u]
        A, Bt = (sim > s).sum(), (sim == s).sum()
        out.append(0.0 if A >= k else min(Bt, k - A) / Bt)
    return 100 * np.mean(out)


def test_reid_exact_expectation_matches_bruteforce():
    """A8: the inclusion-exclusion algorithm equals the brute-force expectation exactly."""
    rng = np.random.default_rng(8)
    ks = np.array([3, 4, 2, 5, 3, 2])
    B = np.column_stack([rng.integers(0, k, 400) for k in ks])
    P = np.full(B.shape, -1)
    for u in range(B.shape[0]):
        m = rng.integers(0, 6)
        cols = rng.choice(6, m, replace=False)
        noisy = np.where(rng.random(m) < 0.7, B[u, cols], rng.integers(0, ks[cols]))
        P[u, cols] = noisy
    ours = at.reid_topk(P, B, (1, 5, 10), ks=ks)
    for k in (1, 5, 10):
        assert ours[k] == pytest.approx(_reid_bruteforce(P, B, k), abs=1e-9)
    # PK-RI: restricting the background attributes = masking the profile
    ours = at.reid_topk(P, B, (10,), ks=ks, attrs=[0, 2, 3])
    Pm = P.copy()
    Pm[:, [1, 4, 5]] = -1
    assert ours[10] == pytest.approx(_reid_bruteforce(Pm, B, 10), abs=1e-9)
    # random tie-breaking simulation agrees within sampling error
    samp = at.reid_topk_sampled(P, B, (10,), rng=1)
    assert abs(samp[10] - at.reid_topk(P, B, (10,), ks=ks)[10]) <= 5 * 100 * math.sqrt(0.25 / 400)


def test_pie_mapping_table():
    """T16: the artifact's beta -> eps mapping (n_d = 9044, Adult's domain sizes)."""
    ks = [2, 5, 6, 7, 14, 16, 41, 74]
    ref = {
        0.95: [np.inf, 2.60, 2.46, 2.41, 2.47, 2.51, 2.96, 3.33],
        0.90: [np.inf, 7.32, 3.96, 3.52, 3.12, 3.13, 3.47, 3.81],
        0.65: [np.inf] * 7 + [6.52],
    }
    for beta, vals in ref.items():
        got = [at_measures.eps_from_bayes_error(beta, 9044, k) for k in ks]
        for g, v in zip(got, vals):
            assert (np.isinf(g) and np.isinf(v)) or g == pytest.approx(v, abs=0.01)
    assert all(np.isinf(at_measures.eps_from_bayes_error(0.6, 9044, k)) for k in ks)
    # round trip with the GRR PIE bound alpha = m (e^eps - 1)/(e^eps + k - 1)
    eps = at_measures.eps_from_bayes_error(0.9, 9044, 41)
    m = min(np.log2(9044), np.log2(41))
    alpha = m * np.expm1(eps) / (np.exp(eps) + 40)
    assert alpha == pytest.approx((1 - 0.9) * np.log2(9044) + 1, rel=1e-12)
    assert at_measures.pie_alpha_from_ldp(0.5, 1000, 4) == pytest.approx(0.25 * np.log2(np.e))
    assert at_measures.bayes_error_bound(1.0, 1024) == pytest.approx(0.8)


@pytest.mark.parametrize("protocol,fake", [("grr", "uniform"), ("oue", "zero"), ("sue", "random"), ("grr", "prior")])
def test_aif_bayes_is_map(protocol, fake):
    """T17: the plug-in rule is the MAP classifier: compare with the posterior over the sampled
    attribute computed by exact enumeration of the per-attribute channels."""
    rng = np.random.default_rng(1)
    ks = np.array([2, 3])
    f = [np.array([0.9, 0.1]), np.array([0.2, 0.1, 0.7])]
    pri = [np.array([0.3, 0.7]), np.array([0.5, 0.25, 0.25])] if fake == "prior" else None
    X = np.column_stack([rng.choice(2, 500, p=f[0]), rng.choice(3, 500, p=f[1])])
    rep, t = md.rsfd_collect(X, ks, 1.5, protocol, fake, priors=pri, rng=rng)
    L = at.aif_log_likelihood(rep, ks, 1.5, protocol, fake, f, priors=pri)
    # brute force: P(y | t=j) = P_real_j(y_j) * prod_{i != j} P_fake_i(y_i)
    for u in range(50):
        post = []
        for j in range(2):
            prob = 1.0
            for i in range(2):
                k = ks[i]
                p, q = md.rsfd_params(protocol, k, 1.5, 2)
                y = rep[i][u]
                if protocol == "grr":
                    real = q + (p - q) * f[i][y]
                    fk = (pri[i] if fake == "prior" else np.full(k, 1 / k))[y]
                else:

                    def pb(v):  # P(bits | onehot(v)) (v = -1: zero vector)
                        pr = np.where(np.arange(k) == v, p, q)
                        return np.prod(np.where(y, pr, 1 - pr))

                    real = sum(f[i][v] * pb(v) for v in range(k))
                    fk = pb(-1) if fake == "zero" else sum(pb(v) / k for v in range(k))
                prob *= real if i == j else fk
            post.append(prob)
        assert np.argmax(post) == np.argmax(L[u]) or np.isclose(post[0], post[1])
        assert L[u, 0] - L[u, 1] == pytest.approx(np.log(post[0] / post[1]), rel=1e-9, abs=1e-9)


def test_sue_z_attack_near_certain():
    """T18: with SUE-z at large eps the real one-hot stands out (AIF -> 1)."""
    rng = np.random.default_rng(4)
    ks = np.array([5, 4, 6])
    X = np.column_stack([rng.integers(0, k, 3000) for k in ks])
    rep, t = md.rsfd_collect(X, ks, 10.0, "sue", "zero", rng=rng)
    th = at.aif_bayes(rep, ks, 10.0, "sue", "zero", md_measures.marginals(X, ks), rng=rng)
    assert np.mean(th == t) > 0.97


def test_aif_models_and_classifier_run():
    rng = np.random.default_rng(6)
    ks = np.array([5, 4, 6, 2])
    f = [np.eye(k)[0] * 0.8 + 0.2 / k for k in ks]
    X = np.column_stack([rng.choice(k, 4000, p=fj) for k, fj in zip(ks, f)])
    rep, t = md.rsfd_collect(X, ks, 4.0, "grr", "uniform", rng=rng)
    res = at.aif_bayes_models(rep, t, ks, 4.0, "grr", "uniform", pk_fractions=(0.1, 0.5), rng=rng)
    assert set(res) == {"NK", "PK0.1", "HM0.1", "PK0.5", "HM0.5"} and all(v > 100 / 4 for v in res.values())
    acc = at.aif_classifier(
        rep,
        t,
        ks,
        4.0,
        "grr",
        "uniform",
        model="HM",
        s_factor=0.5,
        pk_factor=0.2,
        classifier="xgboost",
        n_estimators=20,
        rng=rng,
    )
    assert 25 < acc <= 100
    oracle = 100 * np.mean(at.aif_bayes(rep, ks, 4.0, "grr", "uniform", f, rng=rng) == t)
    assert acc <= oracle + 3.0  # a trained classifier does not beat the Bayes rule (beyond noise)


def test_rsfd_reid_chain_runs():
    rng = np.random.default_rng(0)
    ks = np.array([5, 4, 6, 3])
    X = np.column_stack([rng.integers(0, k, 2000) for k in ks])
    out = at.rsfd_reid_chain(X, ks, 5.0, 3, rng=rng)
    assert set(out["rid"]) == {2, 3} and len(out["aif"]) == 3
    assert all(0 <= v <= 100 for r in out["rid"].values() for v in r.values())


def test_synthetic_profiles_marginals():
    rng = np.random.default_rng(0)
    f = [np.array([0.2, 0.8]), np.array([0.5, 0.25, 0.25])]
    S = at.synthetic_profiles(f, 50_000, rng=rng)
    assert S.shape == (50_000, 2)
    assert np.mean(S[:, 0] == 1) == pytest.approx(0.8, abs=0.01)


def test_aif_xgb_experiment_shapes():
    rng = np.random.default_rng(3)
    ks = np.array([5, 4, 6])
    X = np.column_stack([rng.choice(k, 2000, p=np.r_[0.6, np.full(k - 1, 0.4 / (k - 1))]) for k in ks])
    models = [("NK s=1n", "NK", 1.0, 0.0), ("PK 0.5n", "PK", 0.0, 0.5)]
    res = at_experiments.aif_xgb_experiment(
        X, ks, [1.0, 4.0], [("grr", "uniform"), ("oue", "random")], models, prior_kind="correct", n_estimators=5, rng=1
    )
    assert set(res) == {(v, m) for v in ("GRR", "OUE-r") for m in ("NK s=1n", "PK 0.5n")}
    assert all(r.shape == (1, 2) and np.all((r >= 0) & (r <= 100)) for r in res.values())


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(5, 60), d=st.integers(1, 5), k=st.integers(2, 4))
def test_reid_matches_bruteforce_property(seed, n, d, k):
    """A8 on random small instances: exact expectation = brute force, for top-1/3/10."""
    rng = np.random.default_rng(seed)
    ks = np.full(d, k)
    B = rng.integers(0, k, size=(n, d))
    P = np.where(rng.random((n, d)) < 0.6, np.where(rng.random((n, d)) < 0.7, B, rng.integers(0, k, size=(n, d))), -1)
    ours = at.reid_topk(P, B, (1, 3, 10), ks=ks)
    for top in (1, 3, 10):
        assert ours[top] == pytest.approx(_reid_bruteforce(P, B, top), abs=1e-9)
    # the sorted-key tables (large joint domains) give the same counts as the dense ones
    assert at.reid_topk(P, at.ReidIndex(B, ks, dense_limit=0), (1, 3, 10)) == ours


def test_reid_group_paths_agree():
    """Few distinct masks of known attributes (groups expanded) and many (each user's mask tested):
    both paths of reid_topk equal the brute force, with dense and sorted-key tables."""
    rng = np.random.default_rng(5)
    ks = np.array([3, 4, 2, 5, 3, 2, 4, 3])
    B = np.column_stack([rng.integers(0, k, 600) for k in ks])
    noisy = np.where(rng.random(B.shape) < 0.7, B, rng.integers(0, ks, size=B.shape))
    few = np.where(np.arange(8)[None, :] < rng.integers(1, 4, 600)[:, None], noisy, -1)  # 3 masks
    many = np.where(rng.random(B.shape) < 0.5, noisy, -1)  # up to 256 masks, > n / 8
    for P in (few, many):
        for index in (at.ReidIndex(B, ks), at.ReidIndex(B, ks, dense_limit=0)):
            ours = at.reid_topk(P, index, (1, 10))
            for top in (1, 10):
                assert ours[top] == pytest.approx(_reid_bruteforce(P, B, top), abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(eps=st.floats(0.05, 12), k=st.integers(2, 200), protocol=st.sampled_from(["grr", "olh", "ss", "sue", "oue"]))
def test_expected_accuracy_bounds_property(eps, k, protocol):
    """Every attack beats the blind guess 1/k and is a probability; GRR is the most accurate."""
    acc = at.expected_pd_accuracy(protocol, eps, k)
    assert 1.0 / k - 1e-12 <= acc <= 1.0
    assert acc <= at.expected_pd_accuracy("grr", eps, k) + 1e-12
