"""Tests of ldpnb.multidim (Arcolezi et al. 2023: SPL, SMP, RS+FD, RS+RFD; spec 003 T6-T13, T19).

Monte-Carlo tests use fixed seeds; mean checks allow 5 standard errors and variance checks use
a chi-square test at level 1e-6 (Bonferroni over the values), so the false-alarm rate of the
suite is far below 1e-4.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from ldpnb import measures as md_measures
from ldpnb import mechanisms as md
from ldpnb.mechanisms import multidim as md_multidim
from ldpnb.papers import risks as md_risks

KS = np.array([4, 6, 3])
F_TRUE = [np.array([0.5, 0.3, 0.15, 0.05]), np.array([0.05, 0.1, 0.4, 0.2, 0.2, 0.05]), np.array([0.7, 0.2, 0.1])]
PRIORS = [np.array([0.4, 0.3, 0.2, 0.1]), np.array([0.1, 0.1, 0.3, 0.3, 0.1, 0.1]), np.array([0.6, 0.3, 0.1])]


def _iid_population(n, rng):
    return np.column_stack([rng.choice(k, size=n, p=f) for k, f in zip(KS, F_TRUE)])


def test_amplified_epsilon_values():
    # spec §2.1 (check values)
    assert md.amplified_epsilon(1, 18) == pytest.approx(3.4635, abs=1e-4)
    assert md.amplified_epsilon(10, 18) == pytest.approx(12.8903, abs=1e-4)
    assert md.amplified_epsilon(10, 10) == pytest.approx(12.3025, abs=1e-4)
    assert md.amplified_epsilon(np.log(2), 10) == pytest.approx(2.3979, abs=1e-4)
    assert md.amplified_epsilon(2.0, 1) == pytest.approx(2.0)
    with pytest.raises(ValueError):
        md.amplified_epsilon(-1, 3)


def test_validation_errors():
    X = np.zeros((5, 2), dtype=int)
    with pytest.raises(ValueError):
        md.rsfd_collect(X, [2, 2], 1.0, "grr", "zero")
    with pytest.raises(ValueError):
        md.rsfd_collect(X, [2, 2], 1.0, "oue", "uniform")
    with pytest.raises(ValueError):
        md.rsfd_collect(X, [2, 2], 1.0, "grr", "prior")  # priors missing
    with pytest.raises(ValueError):
        md.rsfd_collect(X, [2, 2], 1.0, "olh", "random")
    with pytest.raises(ValueError):
        md.check_dataset(np.array([[0, 3]]), [2, 2])
    with pytest.raises(ValueError):
        md.rsfd_estimate(np.zeros(3), 10, 2, 4, 0.6, 0.2, "grr")


@pytest.mark.parametrize(
    "protocol,fake,prior",
    [
        ("grr", "uniform", False),
        ("sue", "zero", False),
        ("oue", "zero", False),
        ("sue", "random", False),
        ("oue", "random", False),
        ("grr", "prior", True),
        ("sue", "prior", True),
        ("oue", "prior", True),
    ],
)
def test_rsfd_unbiased_and_variance(protocol, fake, prior):
    """T6-T8: the RS+FD / RS+RFD estimators are unbiased and their variance is Eq. (8)/(9)
    (users drawn i.i.d. from f every replication, as the formulas assume)."""
    rng = np.random.default_rng(123)
    n, eps, R = 3000, 1.0, 300
    priors = PRIORS if prior else None
    ests = [[] for _ in KS]
    for _ in range(R):
        X = _iid_population(n, rng)
        rep, _ = md.rsfd_collect(X, KS, eps, protocol, fake, priors=priors, rng=rng)
        for j, e in enumerate(md.rsfd_aggregate(rep, KS, eps, protocol, fake, priors=priors, postprocess=None)):
            ests[j].append(e)
    var_kind = md_multidim._variant(protocol, fake)
    pvals = []
    for j, k in enumerate(KS):
        E = np.array(ests[j])
        p, q = md.rsfd_params(protocol, int(k), eps, len(KS))
        V = md.rsfd_variance(F_TRUE[j], n, len(KS), int(k), p, q, var_kind, priors[j] if prior else None)
        se = np.sqrt(V / R)
        assert np.all(np.abs(E.mean(axis=0) - F_TRUE[j]) <= 5 * se), (j, E.mean(axis=0), F_TRUE[j])
        chi = (R - 1) * E.var(axis=0, ddof=1) / V
        pvals.extend(2 * np.minimum(stats.chi2.cdf(chi, R - 1), stats.chi2.sf(chi, R - 1)))
    assert min(pvals) * len(pvals) > 1e-6


def test_expected_support_counts_theorems():
    """App. A/B, Theorem 1: E[C(v)] = n * gamma(v) with the probability-tree gamma (T7, T8, T19)."""
    rng = np.random.default_rng(7)
    n, eps, R = 2000, 2.0, 200
    for protocol, fake in [("grr", "prior"), ("oue", "prior"), ("sue", "prior"), ("oue", "zero")]:
        sums = [np.zeros(k) for k in KS]
        for _ in range(R):
            X = _iid_population(n, rng)
            rep, _ = md.rsfd_collect(X, KS, eps, protocol, fake, priors=PRIORS if fake == "prior" else None, rng=rng)
            for j, c in enumerate(md_multidim._report_counts(rep, KS)):
                sums[j] += c
        for j, k in enumerate(KS):
            p, q = md.rsfd_params(protocol, int(k), eps, 3)
            g = md.rsfd_support_probability(
                F_TRUE[j], 3, int(k), p, q, md_multidim._variant(protocol, fake), PRIORS[j] if fake == "prior" else None
            )
            se = np.sqrt(n * g * (1 - g) / R)
            assert np.all(np.abs(sums[j] / R - n * g) <= 5 * se)


def test_probability_tree_single_user():
    """T19 (Figs. 7, 8): Pr[a report supports v] for one user with known value = tree leaves."""
    rng = np.random.default_rng(3)
    n, eps, d = 200_000, 1.0, 3
    for protocol in ("grr", "oue"):
        X = np.tile([[1, 2, 0]], (n, 1))
        rep, _ = md.rsfd_collect(X, KS, eps, protocol, "prior", priors=PRIORS, rng=rng)
        for j, k in enumerate(KS):
            c = md_multidim._report_counts([rep[j]], [k])[0] / n
            p, q = md.rsfd_params(protocol, int(k), eps, d)
            onehot = np.eye(k)[X[0, j]]
            g = md.rsfd_support_probability(onehot, d, int(k), p, q, "grr" if protocol == "grr" else "ue-r", PRIORS[j])
            assert np.all(np.abs(c - g) <= 5 * np.sqrt(g * (1 - g) / n))


def test_uniform_prior_equals_rsfd():
    """T9: RS+RFD with uniform priors is exactly RS+FD (estimates and variances)."""
    rng = np.random.default_rng(0)
    for k in (2, 5, 74):
        for variant, prot in (("grr", "grr"), ("ue-r", "sue"), ("ue-r", "oue")):
            p, q = md.rsfd_params(prot, k, 1.3, 4)
            C = rng.integers(0, 1000, size=k)
            u = np.full(k, 1.0 / k)
            a = md.rsfd_estimate(C, 3000, 4, k, p, q, variant)
            b = md.rsfd_estimate(C, 3000, 4, k, p, q, variant, prior=u)
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)
            f = rng.dirichlet(np.ones(k))
            np.testing.assert_allclose(
                md.rsfd_variance(f, 3000, 4, k, p, q, variant),
                md.rsfd_variance(f, 3000, 4, k, p, q, variant, prior=u),
                rtol=1e-12,
            )
    # the GRR RS+FD closed form of the CIKM paper
    k, d, n = 6, 3, 1000
    p, q = md.rsfd_params("grr", k, 1.0, d)
    C = rng.integers(100, 400, size=k)
    cikm = (C * d * k - n * (d - 1 + q * k)) / (n * k * (p - q))
    np.testing.assert_allclose(md.rsfd_estimate(C, n, d, k, p, q, "grr"), cikm, rtol=1e-12)
    p, q = md.rsfd_params("oue", k, 1.0, d)
    uer = (C * d * k - n * (q * k + (p - q) * (d - 1) + q * k * (d - 1))) / (n * k * (p - q))
    np.testing.assert_allclose(md.rsfd_estimate(C, n, d, k, p, q, "ue-r"), uer, rtol=1e-12)


def test_rsfd_approx_variance_jensen():
    """T10: the averaged approximate variance of RS+RFD is <= RS+FD's for every prior."""
    rng = np.random.default_rng(5)
    ks = np.array([2, 5, 7, 18, 41, 92])
    for eps in (np.log(2), np.log(4), np.log(7)):
        for kind in ("dir", "zipf", "exp"):
            pri = md_risks.make_priors(kind, ks, rng=rng)
            for prot, fk in (("grr", "uniform"), ("sue", "random"), ("oue", "random")):
                a = md.rsfd_approx_variance(ks, 10_000, eps, prot, fk)
                b = md.rsfd_approx_variance(ks, 10_000, eps, prot, "prior", priors=pri)
                assert b <= a * (1 + 1e-12)


def test_counts_sampler_matches_collect():
    """The count-level sampler has the mean and (fixed-population) variance of the real protocol."""
    rng = np.random.default_rng(11)
    n, eps, R = 4000, 1.0, 300
    X = _iid_population(n, rng)
    counts = [np.bincount(X[:, j], minlength=k) for j, k in enumerate(KS)]
    for prot, fake in (("grr", "prior"), ("oue", "random"), ("sue", "zero")):
        pri = PRIORS if fake == "prior" else None
        A = [
            np.array([md.rsfd_counts_sampler(counts, 3, eps, prot, fake, priors=pri, rng=rng)[j] for _ in range(R)])
            for j in range(3)
        ]
        for j in range(3):
            B = np.array(
                [
                    md_multidim._report_counts(
                        [md.rsfd_collect(X, KS, eps, prot, fake, priors=pri, rng=rng)[0][j]], [KS[j]]
                    )[0]
                    for _ in range(60)
                ]
            )
            se = np.sqrt(A[j].var(axis=0) / R + B.var(axis=0) / 60) + 1e-9
            assert np.all(np.abs(A[j].mean(axis=0) - B.mean(axis=0)) <= 5 * se)


def test_spl_smp_unbiased():
    rng = np.random.default_rng(9)
    n, eps, R = 3000, 2.0, 150
    X = _iid_population(n, rng)
    f = md_measures.marginals(X, KS)
    for prot in ("grr", "oue", "ss", "olh"):
        E_spl = [np.zeros(k) for k in KS]
        E_smp = [np.zeros(k) for k in KS]
        for _ in range(R):
            c = md.spl_collect(X, KS, eps, prot, rng=rng)
            for j, e in enumerate(md.spl_estimate(c, n, KS, eps, prot)):
                E_spl[j] += e / R
            attr, c, nj = md.smp_collect(X, KS, eps, prot, rng=rng)
            for j, e in enumerate(md.smp_estimate(c, nj, KS, eps, prot)):
                E_smp[j] += e / R
        for j, k in enumerate(KS):
            # generous bound: 5 SE with the approximate FO variance q(1-q)/(n(p-q)^2)
            p, q = md.fo_params(prot, int(k), eps / 3)
            assert np.all(np.abs(E_spl[j] - f[j]) <= 5 * np.sqrt((q * (1 - q) + p * (1 - p)) / (n * (p - q) ** 2) / R))
            p, q = md.fo_params(prot, int(k), eps)
            assert np.all(
                np.abs(E_smp[j] - f[j]) <= 5 * np.sqrt(3 * (q * (1 - q) + p * (1 - p)) / (n * (p - q) ** 2) / R) + 0.01
            )


def test_exact_privacy_loss_values():
    """T13: the tuple mechanism's worst-case loss, by exact enumeration (spec §4 values)."""
    r = md.exact_privacy_loss([2, 2], 1.0)
    assert r["attribute"] == pytest.approx(1.0, abs=1e-9)
    assert r["any"] == pytest.approx(1.490, abs=1e-3)
    assert r["any"] <= r["eps_prime"] + 1e-12
    r = md.exact_privacy_loss([2, 2, 2], 1.0)
    assert r["attribute"] == pytest.approx(1.0, abs=1e-9)
    assert r["any"] == pytest.approx(1.817, abs=1e-3)
    assert md.exact_privacy_loss([2, 5], 1.0)["attribute"] == pytest.approx(1.138, abs=1e-3)
    assert md.exact_privacy_loss([2, 3, 6], 1.0)["attribute"] == pytest.approx(1.206, abs=1e-3)
    pri = [np.array([0.8, 0.15, 0.05]), np.array([0.6, 0.3, 0.1])]
    r = md.exact_privacy_loss([3, 3], 1.0, "grr", "prior", priors=pri)
    assert r["attribute"] == pytest.approx(1.428, abs=1e-3)
    assert r["any"] == pytest.approx(1.490, abs=1e-3)
    for prot, fk in (("oue", "zero"), ("sue", "random"), ("oue", "random")):
        r = md.exact_privacy_loss([2, 3], 1.0, prot, fk)
        assert r["attribute"] <= r["any"] <= r["eps_prime"] + 1e-9


def test_tuple_channel_rows_sum_to_one():
    W, inputs = md.rsfd_tuple_channel([2, 3], 0.7, "sue", "random")
    np.testing.assert_allclose(W.sum(axis=1), 1.0, rtol=1e-12)
    assert inputs.shape == (6, 2)


def test_priors_and_metrics():
    rng = np.random.default_rng(1)
    z = md_risks.prior_zipf(18, rng=rng)
    assert z.sum() == pytest.approx(1.0) and z[0] > 0.85  # spec §2.11: ~0.93 on the first value
    e = md_risks.prior_exponential(2, rng=rng)
    assert e[0] > 0.99
    c = md_risks.prior_correct(np.array([100, 50, 0, 10]), 0.1 / 18, rng=rng)
    assert c.sum() == pytest.approx(1.0) and np.all(c >= 0)
    np.testing.assert_allclose(md.clip_normalize([-0.1, 0.3, 0.3]), [0, 0.5, 0.5])
    assert md_measures.mse_avg([np.array([0.5, 0.5])], [np.array([0.4, 0.6])]) == pytest.approx(0.01)
    with pytest.raises(ValueError):
        md_risks.make_priors("foo", [2, 3])


def test_spl_smp_variance_monte_carlo():
    """SPL and SMP variances (Eq. 2 estimator, fixed population) against Monte Carlo."""
    rng = np.random.default_rng(21)
    n, eps, R = 3000, 3.0, 400
    X = _iid_population(n, rng)
    f = md_measures.marginals(X, KS)
    for prot in ("grr", "oue", "sue"):
        E_spl = [[] for _ in KS]
        E_smp = [[] for _ in KS]
        for _ in range(R):
            for j, e in enumerate(md.spl_estimate(md.spl_collect(X, KS, eps, prot, rng=rng), n, KS, eps, prot)):
                E_spl[j].append(e)
            attr, c, nj = md.smp_collect(X, KS, eps, prot, rng=rng)
            for j, e in enumerate(md.smp_estimate(c, nj, KS, eps, prot)):
                E_smp[j].append(e)
        pv = []
        for j, k in enumerate(KS):
            for E, V in ((E_spl[j], md.spl_variance(f[j], n, k, eps, 3, prot)),):
                chi = (R - 1) * np.var(E, axis=0, ddof=1) / V
                pv.extend(2 * np.minimum(stats.chi2.cdf(chi, R - 1), stats.chi2.sf(chi, R - 1)))
            # SMP: approximate (random group sizes): within 25 %
            ratio = np.var(E_smp[j], axis=0, ddof=1) / md.smp_variance(f[j], n, k, eps, 3, prot)
            assert np.all((ratio > 0.75) & (ratio < 1.35)), ratio
        assert min(pv) * len(pv) > 1e-6


@settings(max_examples=60, deadline=None)
@given(eps=st.floats(0.05, 10), d=st.integers(1, 30), k=st.integers(2, 50), seed=st.integers(0, 2**32 - 1))
def test_rsrfd_estimator_properties(eps, d, k, seed):
    """ε' ≥ ε (equality iff d = 1); uniform prior = RS+FD; E[C] = n γ makes the estimator return f exactly."""
    assert md.amplified_epsilon(eps, d) >= eps - 1e-12
    rng = np.random.default_rng(seed)
    f = rng.dirichlet(np.ones(k))
    prior = rng.dirichlet(np.ones(k))
    for prot, var in (("grr", "grr"), ("oue", "ue-r"), ("sue", "ue-r")):
        p, q = md.rsfd_params(prot, k, eps, d)
        n = 1000
        for pr in (None, prior):
            g = md.rsfd_support_probability(f, d, k, p, q, var, pr)
            np.testing.assert_allclose(md.rsfd_estimate(n * g, n, d, k, p, q, var, pr), f, atol=1e-9)
            assert np.all(md.rsfd_variance(f, n, d, k, p, q, var, pr) >= 0)


# ------------------------------------------------------------------ contracts and refusals (audit 4)
def test_spl_estimate_refuses_one_vector_for_two_attributes():
    """Audit: spl_estimate([C], 5, [2, 2], 1.0, "grr") spent eps instead of eps/2 (d from len(counts))."""
    C = np.array([3, 2])
    two = md.spl_estimate([C, C], 5, [2, 2], 1.0, "grr")
    assert len(two) == 2
    with pytest.raises(ValueError, match="one support-count vector per attribute"):
        md.spl_estimate([C], 5, [2, 2], 1.0, "grr")
    with pytest.raises(ValueError, match="at most the number of reports"):
        md.spl_estimate([np.array([30, 2]), C], 5, [2, 2], 1.0, "grr")


def test_smp_estimate_refuses_an_attribute_without_users():
    """Audit: n_j = 0 was replaced by max(n_j, 1), giving 'frequencies' of 5.91 and 3.75."""
    C = [np.array([3, 2]), np.array([2, 3])]
    assert len(md.smp_estimate(C, [5, 5], [2, 2], 1.0, "grr")) == 2
    with pytest.raises(ValueError, match="no user sampled"):
        md.smp_estimate(C, [0, 5], [2, 2], 1.0, "grr")
    with pytest.raises(ValueError, match="n_j must be"):
        md.smp_estimate(C, [-1, 5], [2, 2], 1.0, "grr")
    with pytest.raises(ValueError, match="at most the number of reports"):
        md.smp_estimate(C, [2, 5], [2, 2], 1.0, "grr")


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: md.rsfd_variance(np.array([0.5, 0.3, 0.2]), -3, 2, 3, 0.6, 0.2, "grr"), "n must be"),
        (lambda: md.rsfd_support_probability(np.array([0.5, 0.5]), 2, 2, 1.5, 0.2, "grr"), "p must be"),
        (
            lambda: md.rsfd_estimate(np.array([3.0, 2.0, 1.0]), 6, 2, 3, 0.6, 0.2, "grr", prior=[np.nan, 0.5, 0.5]),
            "prior must be",
        ),
        (lambda: md.check_dataset(np.array([[0, 1], [1, 2]]), [2.7, 3.9]), "ks must be"),
        (lambda: md.rsfd_variance(np.zeros(2), 10, 2, 2**40, 0.6, 0.2, "grr"), "k must be"),
        (lambda: md.sample_attributes(2**40, 3), "n must be"),
        (lambda: md.exact_privacy_loss([3000, 3000], 1.0), "pairwise table"),
        (lambda: md.rsfd_tuple_channel([3000, 3000, 3000], 1.0), "tuple channel"),
        (lambda: md.rsfd_estimate(np.array([30.0, 2.0, 1.0]), 6, 2, 3, 0.6, 0.2, "grr"), "at most the number of users"),
        (lambda: md.spl_collect(np.array([[0, 1]]), None, 1.0, "rappor"), "protocol must be"),
    ],
)
def test_multidim_refuses_what_it_used_to_accept(call, match):
    with pytest.raises((TypeError, ValueError), match=match):
        call()


def test_amplified_epsilon_is_right_at_the_extremes():
    from decimal import Decimal, localcontext

    for eps, d in ((1e-12, 3), (1e-6, 5), (0.3, 2), (5.0, 4), (705.0, 3), (710.0, 3), (1e4, 3)):
        got = md.amplified_epsilon(eps, d)
        with localcontext() as ctx:
            ctx.prec = 60
            e = Decimal(eps)
            exact = e + (Decimal(d) - (d - 1) * (-e).exp()).ln()
        assert np.isfinite(got) and got == pytest.approx(float(exact), rel=2e-15), (eps, d)
    np.testing.assert_allclose(
        md.amplified_epsilon(np.array([1e-12, 1.0, 1e4]), 2),
        [md.amplified_epsilon(1e-12, 2), md.amplified_epsilon(1.0, 2), md.amplified_epsilon(1e4, 2)],
    )


def test_tuple_indices_beyond_int64_are_refused_not_wrapped():
    """Issue #40: the rows and columns of a tuple mechanism are int64 indices.  ``RSFD([2**20] * 4, eps)``
    had ``n_inputs == 0`` (2**80 wrapped) and ``row_of`` wrapped the rows of large codes; RS+FD[OUE-z] on
    ``ks = (40, 40)`` gave wrapped ``report_index`` codes (2**80 columns).  Both are now refused in one
    line naming the argument."""
    with pytest.raises(ValueError, match=r"^ks: the product domain has 1\.209e\+24 tuples") as info:
        md.RSFD([2**20] * 4, 1.0)
    assert "\n" not in str(info.value)
    m = md.RSFD([40, 40], 1.0, "OUE-z")
    reports = m.perturb(np.array([[1, 2], [3, 4]]), rng=0)
    with pytest.raises(ValueError, match=r"^reports: the 2\*\*80 columns"):
        m.report_index(reports)
    big = md.RSFD([2**20] * 3, 1.0)  # 2**60 tuples: rows fit
    X = np.array([[2**20 - 1] * 3, [0, 0, 1]])
    np.testing.assert_array_equal(big.row_of(X), [2**60 - 1, 1])
    assert big.n_inputs == 2**60


def test_tuple_mechanism_methods_refuse_bad_reports_in_one_line():
    """RSFD.report_index takes the list of d per-attribute reports (one per user in each), SMP.decode
    column indices, row_of a label-encoded dataset; each refusal names the argument."""
    rs, smp = md.RSFD([3, 4], 1.0), md.SMP([3, 4], 1.0)
    r = rs.perturb(np.array([[1, 2], [2, 3]]), rng=0)
    cases = [
        (lambda: rs.report_index([r[0], r[1][:1]]), r"^reports\[1\] has 1 reports, reports\[0\] has 2"),
        (lambda: rs.report_index([r[0]]), "^reports must be the list of 2"),
        (lambda: rs.report_index([r[0], np.array([np.nan, 1.0])]), r"^reports\[1\] must"),
        (lambda: rs.report_index([r[0], np.array([0, 4])]), r"reports\[1\]"),
        (lambda: rs.report_index("ab"), "^reports must"),
        (lambda: smp.decode([0.5]), "^reports must"),
        (lambda: smp.decode([-1]), "^reports must"),
        (lambda: smp.decode([smp.n_outputs]), "^reports must"),
        (lambda: smp.decode(np.array([[1]])), "^reports must"),
        (lambda: rs.row_of([[1, 4]]), r"X\[:, j\]"),
        (lambda: rs.row_of([[0.5, 1]]), "^X must"),
        (lambda: rs.row_of([1, 2]), "^X must"),
    ]
    for call, match in cases:
        with pytest.raises((TypeError, ValueError), match=match) as info:
            call()
        assert "\n" not in str(info.value)
    np.testing.assert_array_equal(rs.report_index(r), rs.row_of(np.column_stack(r)))
    j, col = smp.decode([0, 3, 6])
    assert j.tolist() == [0, 1, 1] and col.tolist() == [0, 0, 3]
