"""The mechanisms deployments use (issue #33 item 4): Hadamard response and HRR, OLH with a short-seed
Carter-Wegman hash (OLH-CW), RAPPOR with Bloom filters, L-GRR, L-OSUE and dBitFlipPM.

Exact checks (rows sum to 1, tight levels equal to the claims, support probabilities, the two-round
identities, closed forms against enumerations), samplers and count simulators against the exact
channels or laws (Pearson chi-square at a stated false-alarm rate, Bonferroni within a test, fixed
seeds), the estimators' unbiasedness (intervals of ``ldpnb.stats.mean``) and variance formulas
against simulation, the registries, the guide's interface, bad inputs, and a head-to-head with the
authors' implementation of the longitudinal protocols (multi-freq-ldpy, optional).

False-alarm rates: every statistical assertion of a test runs at ``ALPHA = 1e-4`` in total
(Bonferroni over its comparisons), with fixed seeds, so that each test either always passes or
always fails; ``ALPHA`` is the chance that a correct implementation would have failed it.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats
from scipy.linalg import hadamard

from ldpnb import mechanisms as M
from ldpnb.audit import chi_square_gof
from ldpnb.audit import registry as audit_registry
from ldpnb.channels import ldp_epsilon
from ldpnb.mechanisms import protocols
from ldpnb.stats import mean

ALPHA = 1e-4
FOS = ["HR", "HRR", "OLH-CW", "L-GRR", "L-OSUE", "dBitFlipPM"]
ALL = FOS + ["Bloom RAPPOR"]


def _build(name, k, eps, **kw):
    return M.Mechanism.lookup(name)(k, eps, **kw)


def _sum_binomials_pmf(ns, ps):
    pmf = np.array([1.0])
    for n, p in zip(ns, ps):
        pmf = np.convolve(pmf, stats.binom.pmf(np.arange(int(n) + 1), int(n), p))
    return pmf


# ------------------------------------------------------------------------------ registries
@pytest.mark.parametrize("name", ALL)
def test_every_family_is_registered_catalogued_audited_and_claimed(name):
    from ldpnb.papers.audit.claims import IDS

    cls = M.Mechanism.lookup(name)
    assert M.Mechanism.REGISTRY[name] is cls
    assert name in M.FAMILIES and name in M.catalog(1.0, families=[name])
    assert name in audit_registry.REGISTRY and name in IDS
    case = audit_registry.build_case(name, 1.0)
    assert isinstance(case.source, cls) and case.source.check()
    assert case.claimed == case.source.guarantee.epsilon
    is_fo = issubclass(cls, M.FrequencyOracle)
    assert is_fo == (name in FOS)
    assert (name.lower() in protocols.PROTOCOL_REGISTRY) == is_fo


def test_the_risks_chapter_keeps_its_six_protocols():
    assert M.multidim.PROTOCOLS == ("grr", "sue", "oue", "olh", "blh", "ss")
    assert M.protocol_names()[6:] == ("hr", "hrr", "olh-cw", "l-grr", "l-osue", "dbitflippm")


@pytest.mark.parametrize("name", FOS)
def test_the_guide_interface(name):
    """What the synthesis guide calls: cls(k, epsilon) over its grid, p, q, the count simulator, the
    standard estimate, bits per report; the support counts of the sampler's reports."""
    from ldpnb.papers.synthesis import families as fam

    assert name in fam.oracle_families()
    for k, eps in ((2, 0.1), (12, 1.0), (1024, 8.0)):
        m = fam.build_oracle(name, k, eps)
        assert 0 <= m.q < m.p <= 1 and m.p_minus_q == pytest.approx(m.p - m.q, rel=1e-12)
        N = np.full(k, 30)
        c = m.simulate_support_counts(N, rng=0)
        assert c.shape == (k,) and np.all((c >= 0) & (c <= N.sum()))
        assert np.all(np.isfinite(m.estimate(c, int(N.sum()))))
        assert fam.report_bits(m) > 0 and fam.total_variance(m, 100) > 0
    m = fam.build_oracle(name, 12, 1.0)
    x = np.random.default_rng(1).integers(0, 12, 500)
    reports = m.perturb(x, rng=2)
    np.testing.assert_array_equal(m.support_counts(reports), m.support(reports).sum(axis=0))
    assert fam.sample_support_counts(m, np.full(12, 5), 3, rng=3).shape == (3, 12)


# ------------------------------------------------------------------------------ exact channels and claims
@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("eps", [0.01, 0.7, 3.0, 12.0])
def test_rows_sum_to_one_and_the_claim_is_tight(name, eps):
    k = 6
    # OLH-CW's default prime is at least g = round(e^eps) + 1: at eps = 12 a stated small prime keeps
    # the enumeration of its seeds small (g > P: no collisions)
    m = _build(name, k, eps, prime=13) if (name == "OLH-CW" and eps > 5) else _build(name, k, eps)
    L = m.log_channel()
    assert np.all(np.isfinite(L))
    rows = np.exp(L).sum(axis=1)
    np.testing.assert_allclose(rows, 1.0, rtol=0, atol=1e-12)
    claim = m.guarantee.epsilon
    if name == "Bloom RAPPOR":  # tight iff two candidates have disjoint full filters: the closed form
        assert m.tight_level() == pytest.approx(m.exact_level(), rel=1e-12)
        assert m.tight_level() <= claim * (1 + 1e-12)
    else:
        assert abs(m.tight_level() - claim) <= 1e-12 * max(1.0, claim)
    assert m.check()


def test_bloom_rappor_claims_are_tight_for_a_disjoint_pair_and_its_defaults():
    r = M.BloomRAPPOR(8, 4 * math.log(3.0))  # Google's defaults: h = 2, m = 16, p = 0.5, q = 0.75; f = 1/2
    assert r.f == pytest.approx(0.5, rel=1e-15)
    want = 2 * math.log((0.6875 * 0.4375) / (0.5625 * 0.3125))  # Theorem 2 with q* = 0.6875, p* = 0.5625
    assert r.eps_1 == pytest.approx(want, rel=1e-14)
    B = r.filters()[0]
    full = B.sum(axis=1) == 2
    disjoint = any(full[a] and full[b] and not (B[a] & B[b]).any() for a in range(8) for b in range(8))
    assert disjoint
    assert r.tight_level() == pytest.approx(r.eps_1, rel=1e-12)
    assert r.permanent.tight_level() == pytest.approx(r.epsilon, rel=1e-12)


@pytest.mark.parametrize(
    "cfg",
    [dict(k=5, epsilon=2.0, h=2, m=8, cohorts=3), dict(k=7, epsilon=1.0, h=3, m=12), dict(k=4, epsilon=5.0, h=1, m=4)],
)
def test_bloom_rappor_closed_form_levels_equal_the_channels(cfg):
    r = M.BloomRAPPOR(**cfg)
    assert r.tight_level() == pytest.approx(r.exact_level(), rel=1e-12)
    assert r.permanent.tight_level() == pytest.approx(r.exact_level("permanent"), rel=1e-12)
    assert r.tight_level() <= r.eps_1 * (1 + 1e-12) and r.permanent.tight_level() <= r.epsilon * (1 + 1e-12)


def test_bloom_rappor_compressed_channel_keeps_the_lenses_of_the_full_channel():
    """k = 3, h = 1, m = 6: bits outside U are dropped.  The full 3 x 2**6 channel (built bit by bit)
    is the compressed channel times a stochastic matrix free of x: same level and posteriors."""
    r = M.BloomRAPPOR(3, 2.0, h=1, m=6)
    U = r._relevant[0]
    assert U.size < 6
    B = r.filters()[0]
    cols = ((np.arange(64)[:, None] >> np.arange(6)[None, :]) & 1).astype(bool)  # (64, 6)
    pi = np.where(B, r.q_star, r.p_star)  # (3, 6)
    full = np.prod(np.where(cols[None, :, :], pi[:, None, :], 1 - pi[:, None, :]), axis=2)
    np.testing.assert_allclose(full.sum(axis=1), 1.0, atol=1e-12)
    to_comp = (cols[:, U].astype(np.int64) << np.arange(U.size)).sum(axis=1)
    C = r.channel()
    agg = np.zeros_like(C)
    np.add.at(agg.T, to_comp, full.T)
    np.testing.assert_allclose(agg, C, rtol=1e-12)
    assert ldp_epsilon(full) == pytest.approx(r.tight_level(), rel=1e-12)
    prior = np.array([0.2, 0.5, 0.3])
    post_full = prior[:, None] * full / (prior @ full)
    post_comp = prior[:, None] * C / (prior @ C)
    np.testing.assert_allclose(post_full, post_comp[:, to_comp], rtol=1e-10)


def test_levels_below_the_claim_where_not_tight():
    """dBitFlip with one bit is eps/2-LDP; L-GRR with the published second round is k-RR at a level
    below eps_1 for k > 2 (equal at k = 2)."""
    for eps in (0.5, 2.0, 7.0):
        assert M.DBitFlipPM(6, eps, d=1).tight_level() == pytest.approx(eps / 2, rel=1e-12)
        assert M.DBitFlipPM(6, eps, d=1).check()
    m = M.LGRR(4, 1.0, 2.0, second_round="published")
    assert m.tight_level() == pytest.approx(m.one_report_level, rel=1e-12)
    assert 0.9 < m.tight_level() < 0.902 and m.check()
    assert M.LGRR(2, 1.0, 2.0, second_round="published").tight_level() == pytest.approx(1.0, rel=1e-12)


@pytest.mark.parametrize("name", ["HR", "HRR", "dBitFlipPM", "L-GRR", "L-OSUE"])
def test_log_channel_is_exact_at_large_epsilon(name):
    m = _build(name, 5, 800.0)
    assert np.all(np.isfinite(m.log_channel()))
    assert m.tight_level() == pytest.approx(800.0, rel=1e-12)


@pytest.mark.parametrize("name", FOS)
def test_support_probabilities_are_p_and_q_exactly(name):
    for k, eps in ((5, 0.8), (8, 2.5)):
        m = _build(name, k, eps)
        P = m.channel() @ m.column_support().astype(float)
        np.testing.assert_allclose(np.diag(P), m.p, rtol=1e-12)
        np.testing.assert_allclose(P[~np.eye(k, dtype=bool)], m.q, rtol=1e-11)


# ------------------------------------------------------------------------------ Hadamard
def test_fwht_is_the_sylvester_matrix_product():
    rng = np.random.default_rng(0)
    for K in (1, 2, 8, 64):
        x = rng.normal(size=(3, K))
        np.testing.assert_allclose(M.fwht(x), x @ hadamard(K).T, atol=1e-12)
    with pytest.raises(ValueError, match="power of two"):
        M.fwht(np.ones(6))


@pytest.mark.parametrize("name", ["HR", "HRR"])
def test_hadamard_operators_are_the_channels(name):
    m = _build(name, 11, 1.7)
    C, op = m.channel(), m.operator()
    np.testing.assert_allclose(op.dense(), C, atol=1e-15)
    rng = np.random.default_rng(1)
    th, r = rng.random((4, 11)), rng.random((4, C.shape[1]))
    np.testing.assert_allclose(op.matvec(th), th @ C, atol=1e-14)
    np.testing.assert_allclose(op.rmatvec(r), r @ C.T, atol=1e-14)


def test_hr_channel_is_acharya_et_al():
    """C[x, y] = 2 e^eps / (K (1 + e^eps)) on C_x = {y : H[x + 1, y] = +1}, 2 / (K (1 + e^eps)) off it."""
    k, eps = 6, 1.1
    K = 8
    H = hadamard(K)
    e = math.exp(eps)
    want = np.where(H[1 : k + 1] == 1, 2 * e / (K * (1 + e)), 2 / (K * (1 + e)))
    np.testing.assert_allclose(M.HR(k, eps).channel(), want, rtol=1e-14)
    Kr = 8  # HRR: smallest power of two >= k
    want_r = np.empty((k, 2 * Kr))
    want_r[:, 0::2] = np.where(H[:k] == 1, e / (1 + e), 1 / (1 + e)) / Kr
    want_r[:, 1::2] = np.where(H[:k] == -1, e / (1 + e), 1 / (1 + e)) / Kr
    np.testing.assert_allclose(M.HRR(k, eps).channel(), want_r, rtol=1e-14)


@pytest.mark.parametrize("name", ["HR", "HRR"])
def test_hadamard_per_user_count_simulator_is_used_for_huge_domains(name, monkeypatch):
    from ldpnb.mechanisms import hadamard as hd

    m = _build(name, 5, 1.0)
    N = np.array([7, 3, 5, 9, 2])
    a = m.simulate_counts(N, rng=4)
    monkeypatch.setattr(hd, "_MAX_MIXTURE_ENTRIES", 1)
    b = m.simulate_counts(N, rng=4)
    assert a.sum() == b.sum() == N.sum() and a.shape == b.shape


@pytest.mark.parametrize("name", ["HR", "HRR", "dBitFlipPM", "OLH-CW"])
def test_output_count_simulators_have_the_law_of_the_channel(name):
    """Output 0's count (a sum of Binomial(N_x, C[x, 0])) and output 3's: chi-square of 3000 runs."""
    m = _build(name, 4, 1.0)
    N = np.array([7, 3, 5, 9])
    C = m.channel()
    rng = np.random.default_rng(5)
    sims = np.array([m.simulate_counts(N, rng=rng) for _ in range(3000)])
    assert np.all(sims.sum(axis=1) == N.sum())
    for col in (0, 3):
        pmf = _sum_binomials_pmf(N, C[:, col])
        _, df, p = chi_square_gof(np.bincount(sims[:, col], minlength=pmf.size), pmf)
        assert df > 0 and p > ALPHA / 2, (name, col, p)


# ------------------------------------------------------------------------------ samplers against channels
@pytest.mark.parametrize("name", ALL)
def test_sampler_follows_the_exact_channel(name):
    """Reports of x = 0 and x = k - 1 (40,000 each) against the rows of the exact channel."""
    k = 5
    m = _build(name, k, 1.3)
    C = m.channel()
    rng = np.random.default_rng(11)
    for x in (0, k - 1):
        y = m.report_index(m.perturb(np.full(40_000, x), rng=rng))
        stat, df, p = chi_square_gof(np.bincount(y, minlength=C.shape[1]), C[x])
        assert df > 0 and p > ALPHA / 2, (name, x, stat, df, p)


def test_olh_cw_sampler_follows_its_channel_on_a_larger_family():
    m = M.OLHCW(6, 2.0, prime=13)  # g = 8 < P = 13
    C = m.channel()
    y = m.report_index(m.perturb(np.full(60_000, 2), rng=12))
    _, df, p = chi_square_gof(np.bincount(y, minlength=C.shape[1]), C[2])
    assert df > 0 and p > ALPHA


def test_olh_cw_support_set_counts_by_brute_force():
    for k, eps, P, g in ((3, 0.7, 5, 2), (4, 1.0, 7, 3), (5, 2.0, 7, 8)):
        m = M.OLHCW(k, eps, prime=P, g=g)
        bf = np.zeros(1 << k, dtype=np.int64)
        for a, b, y in itertools.product(range(1, P), range(P), range(g)):
            h = ((a * np.arange(k) + b) % P) % g
            bf[int(((h == y) << np.arange(k)).sum())] += 1
        np.testing.assert_array_equal(m.support_set_counts(), bf)
        c = sum(1 for r, s in itertools.permutations(range(P), 2) if r % g == s % g) / (P * (P - 1))
        assert m.collision == pytest.approx(c, rel=1e-15)


def test_olh_cw_q_differs_from_the_idealised_hash():
    m = M.OLHCW(8, 1.0)  # g = 4, P = 11: residue classes of sizes 3, 3, 3, 2
    ideal = m.idealised()
    assert m.p == pytest.approx(ideal.p, rel=1e-15)
    assert m.collision == pytest.approx(20 / 110, rel=1e-15) and m.q < ideal.q == 0.25
    assert m.n_outputs < 1 << 8  # only some support sets occur under the finite family


# ------------------------------------------------------------------------------ the two rounds
def test_two_round_identities():
    """One L-GRR report is GRR at eps_1; one L-OSUE report is OUE at eps_1 (module docstring)."""
    for k, e1, E in ((3, 0.5, 1.0), (6, 1.0, 2.0), (10, 2.0, 2.5), (4, 1.0, 1.0)):
        m = M.LGRR(k, e1, E)
        np.testing.assert_allclose(m.two_round_channel(), M.grr_channel(k, e1), atol=1e-15)
        o = M.LOSUE(k, e1, E)
        p_s = o.p1 * o.p2 + (1 - o.p1) * o.q2
        q_s = o.q1 * o.p2 + (1 - o.q1) * o.q2
        assert p_s == pytest.approx(0.5, rel=1e-14) and q_s == pytest.approx(1 / (math.exp(e1) + 1), rel=1e-13)
        np.testing.assert_array_equal(o.channel(), M.ue_channel(k, e1, "oue"))
        assert m.permanent.tight_level() == pytest.approx(E, rel=1e-12)
        assert o.permanent.tight_level() == pytest.approx(E, rel=1e-12)
        assert m.check_longitudinal() and o.check_longitudinal()


def test_second_rounds_are_the_published_formulas():
    """Arcolezi et al.'s printed second rounds (multi-freq-ldpy L_GRR.py, L_OSUE.py), evaluated as written."""
    for k, e1, E in ((3, 0.5, 1.0), (6, 1.0, 2.0), (10, 2.0, 4.0)):
        p1 = np.exp(E) / (np.exp(E) + k - 1)
        q1 = (1 - p1) / (k - 1)
        p2 = (q1 - np.exp(e1) * p1) / ((-p1 * np.exp(e1)) + k * q1 * np.exp(e1) - q1 * np.exp(e1) - p1 * (k - 1) + q1)
        got = M.lgrr_params(k, e1, E, "published")
        np.testing.assert_allclose(got, (p1, q1, p2, (1 - p2) / (k - 1)), rtol=1e-12)
        p2o = (1 - np.exp(e1 + E)) / (np.exp(e1) - np.exp(E) - np.exp(e1 + E) + 1)
        np.testing.assert_allclose(M.losue_params(e1, E), (0.5, 1 / (np.exp(E) + 1), p2o, 1 - p2o), rtol=1e-12)


def test_level_after_t_reports():
    for m in (M.LGRR(3, 1.0, 2.0), M.LGRR(4, 0.5, 3.0, second_round="published"), M.LOSUE(5, 1.0, 2.0)):
        levels = [m.level_after(T) for T in (1, 2, 3, 5, 10, 40)]
        assert levels[0] == pytest.approx(m.tight_level(), rel=1e-12)
        assert np.all(np.diff(levels) >= -1e-12) and levels[-1] <= m.eps_perm * (1 + 1e-12)
        assert m.level_after(400 if isinstance(m, M.LOSUE) else 60) == pytest.approx(m.eps_perm, rel=1e-6)
    # brute force: the 3**3 outputs of three L-GRR reports
    m = M.LGRR(3, 1.0, 2.0)
    C1 = np.full((3, 3), m.q1)
    np.fill_diagonal(C1, m.p1)
    C2 = np.full((3, 3), m.q2)
    np.fill_diagonal(C2, m.p2)
    W = np.array(
        [
            [
                sum(C1[x, mm] * C2[mm, a] * C2[mm, b] * C2[mm, c] for mm in range(3))
                for a, b, c in itertools.product(range(3), repeat=3)
            ]
            for x in range(3)
        ]
    )
    assert ldp_epsilon(W) == pytest.approx(m.level_after(3), rel=1e-12)


def test_memoised_reports_follow_the_two_report_law():
    """Two reports of one memoised value: L-GRR's pair (y1, y2) against sum_m C1[x, m] C2[m, y1] C2[m, y2];
    L-OSUE's pair of true bits; RAPPOR's pair of one filter bit; 40,000 users each, 3 tests."""
    rng = np.random.default_rng(21)
    m = M.LGRR(4, 1.0, 2.0)
    C1 = np.full((4, 4), m.q1)
    np.fill_diagonal(C1, m.p1)
    C2 = np.full((4, 4), m.q2)
    np.fill_diagonal(C2, m.p2)
    law = np.einsum("m,ma,mb->ab", C1[1], C2, C2).ravel()
    y1, y2 = m.perturb_longitudinal(np.full(40_000, 1), 2, rng=rng)
    _, df, p = chi_square_gof(np.bincount(4 * y1 + y2, minlength=16), law)
    assert df > 0 and p > ALPHA / 3
    o = M.LOSUE(5, 1.0, 2.0)
    r1, r2 = o.perturb_longitudinal(np.full(40_000, 2), 2, rng=rng)
    law2 = np.zeros(4)  # the true bit: memoised 1 with p1, then each report keeps it with p2
    for pm, one in ((o.p1, o.p2), (1 - o.p1, o.q2)):  # one = P(report bit = 1 | memo)
        for a, b in itertools.product((1, 0), repeat=2):
            law2[2 * a + b] += pm * (one if a else 1 - one) * (one if b else 1 - one)
    codes = 2 * r1[:, 2].astype(int) + r2[:, 2]
    _, df, p = chi_square_gof(np.bincount(codes, minlength=4), law2)
    assert df > 0 and p > ALPHA / 3
    r = M.BloomRAPPOR(6, 3.0)
    i = int(r.bloom_bits[0, 1, 0])
    (c1, s1), (c2, s2) = r.perturb_longitudinal(np.full(40_000, 1), 2, rng=rng)
    f, pp, qq = r.f, r.p_irr, r.q_irr
    law3 = np.zeros(4)
    for bprime, pb in ((1, 1 - f / 2), (0, f / 2)):
        one = qq if bprime else pp
        for a, b in itertools.product((1, 0), repeat=2):
            law3[2 * a + b] += pb * (one if a else 1 - one) * (one if b else 1 - one)
    codes = 2 * s1[:, i].astype(int) + s2[:, i]
    _, df, p = chi_square_gof(np.bincount(codes, minlength=4), law3)
    assert df > 0 and p > ALPHA / 3


def test_dbitflip_memoisation_per_pattern():
    m = M.DBitFlipPM(6, 1.0, d=2)
    V = np.array([[0, 0, 1, 2, 3, 4, 5, 0]] * 500)
    reports = m.perturb_longitudinal(V, rng=3)
    J = reports[0][0]
    assert all(np.array_equal(r[0], J) for r in reports)  # the buckets are drawn once
    bits = np.stack([r[1] for r in reports], axis=1)  # (n, T, d)
    pattern = np.stack(
        [np.where((J == V[:, t][:, None]).any(1), (J == V[:, t][:, None]).argmax(1), 2) for t in range(V.shape[1])],
        axis=1,
    )
    for i in range(V.shape[0]):
        for a, b in itertools.combinations(range(V.shape[1]), 2):
            if pattern[i, a] == pattern[i, b]:
                assert np.array_equal(bits[i, a], bits[i, b])
    assert m.longitudinal_epsilon == pytest.approx(3.0)


# ------------------------------------------------------------------------------ count-level simulators
@pytest.mark.parametrize("name", FOS)
def test_simulated_support_count_marginals(name):
    """C(v) ~ Bin(N_v, p) + Bin(n - N_v, q) for every pure oracle (values 0 and 1; 3000 runs)."""
    m = _build(name, 5, 1.0)
    N = np.array([6, 0, 3, 8, 2])
    rng = np.random.default_rng(9)
    sims = np.array([m.simulate_support_counts(N, rng=rng) for _ in range(3000)])
    for v in (0, 1):
        pmf = _sum_binomials_pmf([N[v], N.sum() - N[v]], [m.p, m.q])
        _, df, p = chi_square_gof(np.bincount(sims[:, v], minlength=pmf.size), pmf)
        assert df > 0 and p > ALPHA / 2, (name, v, p)


def _pair_sum_pmf(m, N, u, v):
    """Exact pmf of C(u) + C(v): a convolution over users of the per-user law of S_u + S_v (from the
    exact channel and its column supports)."""
    C, cs = m.channel(), m.column_support()
    s = cs[:, u].astype(int) + cs[:, v]
    pmf = np.array([1.0])
    for x, nx in enumerate(N):
        one = np.array([C[x][s == j].sum() for j in range(3)])
        for _ in range(int(nx)):
            pmf = np.convolve(pmf, one)
    return pmf


@pytest.mark.parametrize("name", ["HR", "HRR", "dBitFlipPM", "OLH-CW"])
def test_simulated_support_counts_have_the_joint_law(name):
    """The sum C(0) + C(1) depends on the dependence of one user's supports: its law from the count
    simulator (OLH-CW: method="exact") against the exact convolution, 4000 runs."""
    m = _build(name, 5, 1.0)
    N = np.array([9, 4, 0, 6, 3])
    rng = np.random.default_rng(13)
    kw = {"method": "exact"} if name == "OLH-CW" else {}
    sims = np.array([m.simulate_support_counts(N, rng=rng, **kw) for _ in range(4000)])
    pmf = _pair_sum_pmf(m, N, 0, 1)
    _, df, p = chi_square_gof(np.bincount(sims[:, 0] + sims[:, 1], minlength=pmf.size), pmf)
    assert df > 0 and p > ALPHA


def test_dbitflip_sampled_counts_law():
    m = M.DBitFlipPM(7, 1.0, d=3)
    N = np.array([5, 0, 7, 2, 9, 1, 4])
    rng = np.random.default_rng(17)
    sims = [m.simulate_support_and_sampled_counts(N, rng=rng) for _ in range(3000)]
    Ms = np.array([s[1] for s in sims])
    assert np.all(Ms.sum(axis=1) == N.sum() * 3)  # every user samples d = 3 buckets
    n = int(N.sum())
    for v in (0, 6):  # M(v) ~ Bin(n, d/k)
        pmf = stats.binom.pmf(np.arange(n + 1), n, 3 / 7)
        _, df, p = chi_square_gof(np.bincount(Ms[:, v], minlength=n + 1), pmf)
        assert df > 0 and p > ALPHA / 3
    # M(0) + M(1) ~ sum of n iid {0, 1, 2} laws: P(both) = d(d-1)/(k(k-1)), P(one) = 2 d(k-d)/(k(k-1))
    both, one = 3 * 2 / 42, 2 * 3 * 4 / 42
    per = np.array([1 - both - one, one, both])
    pmf = np.array([1.0])
    for _ in range(n):
        pmf = np.convolve(pmf, per)
    _, df, p = chi_square_gof(np.bincount(Ms[:, 0] + Ms[:, 1], minlength=pmf.size), pmf)
    assert df > 0 and p > ALPHA / 3


def test_rappor_bit_count_simulator_law():
    r = M.BloomRAPPOR(5, 2.0)
    N = np.array([8, 2, 0, 5, 4])
    rng = np.random.default_rng(19)
    sims = np.array([r.simulate_bit_counts(N, rng=rng)[0][0] for _ in range(3000)])  # (runs, m), one cohort
    B = r.filters()[0]
    used = np.flatnonzero(B.any(axis=0))[:2]
    for i in used:
        ones = int(N[B[:, i]].sum())
        pmf = _sum_binomials_pmf([ones, N.sum() - ones], [r.q_star, r.p_star])
        _, df, p = chi_square_gof(np.bincount(sims[:, i], minlength=pmf.size), pmf)
        assert df > 0 and p > ALPHA / 2


# ------------------------------------------------------------------------------ estimators: bias and variance
def _runs(name, m, N, R, rng):
    n = int(N.sum())
    if name == "Bloom RAPPOR":
        return np.array([m.estimate(*m.simulate_bit_counts(N, rng=rng)) for _ in range(R)])
    if name == "OLH-CW":
        return np.array([m.estimate(m.simulate_support_counts(N, rng=rng, method="exact"), n) for _ in range(R)])
    return np.array([m.estimate(m.simulate_support_counts(N, rng=rng), n) for _ in range(R)])


@pytest.mark.parametrize("name", ALL)
def test_standard_estimator_is_unbiased_and_its_variance_is_right(name):
    """400 runs at n = 2,000 (k = 6, eps = 1.5): the true frequencies lie in the simultaneous intervals
    of the mean estimate (level 1 - ALPHA/2), and each value's sample variance agrees with the formula
    ((R-1) s^2 / sigma^2 ~ chi2(R-1), two-sided at ALPHA / (2 k))."""
    k, R = 6, 400
    m = _build(name, k, 1.5)
    N = np.array([700, 500, 0, 300, 350, 150])
    f = N / N.sum()
    est = _runs(name, m, N, R, np.random.default_rng(23))
    ci = mean(est, level=1 - ALPHA / 2, simultaneous=True)
    assert np.all((ci.low <= f) & (f <= ci.high)), (name, ci.low - f, ci.high - f)
    s2 = est.var(axis=0, ddof=1)
    stat = (R - 1) * s2 / m.variance(int(N.sum()), f)  # RAPPOR: f is the distribution of the values
    a = ALPHA / (2 * k)
    assert np.all(stat > stats.chi2.ppf(a / 2, R - 1)) and np.all(stat < stats.chi2.isf(a / 2, R - 1)), (name, stat)


def test_ding_estimator_unbiased_with_its_smaller_variance():
    m = M.DBitFlipPM(6, 1.5, d=2)
    N = np.array([700, 500, 0, 300, 350, 150])
    n, R = int(N.sum()), 600
    rng = np.random.default_rng(29)
    est = []
    for _ in range(R):
        c, s = m.simulate_support_and_sampled_counts(N, rng=rng)
        est.append(m.ding_estimate(c, s, n))
    est = np.array(est)
    f = N / n
    ci = mean(est, level=1 - ALPHA / 2, simultaneous=True)
    assert np.all((ci.low <= f) & (f <= ci.high))
    stat = (R - 1) * est.var(axis=0, ddof=1) / m.ding_variance(n, f)
    a = ALPHA / 12
    assert np.all(stat > stats.chi2.ppf(a / 2, R - 1)) and np.all(stat < stats.chi2.isf(a / 2, R - 1))
    assert np.all(m.ding_variance(n, f) < m.variance(n, f))
    e = math.exp(0.75)
    gap = float(m.variance(n)) - float(m.ding_variance(n))
    assert gap == pytest.approx((6 / 2 - 1) / (n * (e - 1) ** 2), rel=1e-12)
    x = np.repeat(np.arange(6), N)
    reports = m.perturb(x, rng=30)
    np.testing.assert_allclose(
        m.estimate_ding(reports), m.ding_estimate(m.support_counts(reports), m.sampled_counts(reports), n)
    )


def test_rappor_estimator_per_user_with_cohorts():
    r = M.BloomRAPPOR(6, 3.0, m=8, cohorts=3)
    assert r.identifiable
    N = np.array([100, 300, 50, 0, 200, 350])
    x = np.repeat(np.arange(6), N)
    R = 300
    est = np.array([r.estimate(r.perturb(x, rng=100 + i)) for i in range(R)])
    f = N / N.sum()
    ci = mean(est, level=1 - ALPHA / 2, simultaneous=True)
    assert np.all((ci.low <= f) & (f <= ci.high))
    stat = (R - 1) * est.var(axis=0, ddof=1) / r.variance(int(N.sum()), f)
    a = ALPHA / 12
    assert np.all(stat > stats.chi2.ppf(a / 2, R - 1)) and np.all(stat < stats.chi2.isf(a / 2, R - 1))
    assert not M.BloomRAPPOR(20, 1.0, m=8).identifiable  # 20 candidates, 8 bits: no unbiased decoding


@pytest.mark.parametrize("name", ["L-GRR", "L-OSUE"])
def test_longitudinal_estimates_are_arcolezi_et_al(name):
    """(C - n q1 (p2 - q2) - n q2) / (n (p1 - q1)(p2 - q2)) equals Wang et al.'s with the one-report (p, q)."""
    m = _build(name, 6, 1.0)
    c = np.array([310, 120, 90, 200, 150, 130])
    n = 1000
    p1, q1, p2, q2 = m.p1, m.q1, m.p2, m.q2
    want = (c - n * q1 * (p2 - q2) - n * q2) / (n * (p1 - q1) * (p2 - q2))
    np.testing.assert_allclose(m.estimate(c, n), want, rtol=1e-12)


# ------------------------------------------------------------------------------ bad inputs
def test_bad_inputs_are_refused():
    with pytest.raises(ValueError, match="eps_perm"):
        M.LGRR(4, 2.0, 1.0)
    with pytest.raises(ValueError, match="eps_perm"):
        M.LOSUE(4, 2.0, 1.0)
    with pytest.raises(ValueError, match="d must be <= k"):
        M.DBitFlipPM(3, 1.0, d=4)
    with pytest.raises(ValueError, match="prime"):
        M.OLHCW(8, 1.0, prime=9)
    with pytest.raises(ValueError, match="prime"):
        M.OLHCW(8, 1.0, prime=7)
    with pytest.raises(ValueError, match="epsilon"):
        M.OLHCW(8, 25.0)
    with pytest.raises(ValueError, match="k"):
        M.OLHCW(17, 1.0).channel()
    with pytest.raises(ValueError, match="support_counts"):
        M.HR(4, 1.0).estimate(np.full(4, 20), 10)
    with pytest.raises(TypeError, match="reports"):
        M.DBitFlipPM(4, 1.0).support(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="distinct buckets"):
        M.DBitFlipPM(4, 1.0).support((np.array([[1, 1]]), np.array([[True, False]])))
    with pytest.raises(ValueError, match="reports"):
        M.HRR(4, 1.0).support(np.array([0, 9]))
    r = M.BloomRAPPOR(4, 1.0)
    with pytest.raises(ValueError, match="cohorts"):
        r.report_index((np.array([1]), np.zeros((1, 16), dtype=bool)))
    with pytest.raises(ValueError, match="counts must be at most"):
        r.estimate(np.full((1, 16), 9), np.array([5]))
    with pytest.raises(ValueError, match="values"):
        M.DBitFlipPM(4, 1.0).perturb_longitudinal(np.array([[0, 4]]))
    with pytest.raises(ValueError, match="memo"):
        M.LOSUE(4, 1.0).report(np.zeros((2, 3), dtype=bool))


def test_olh_cw_refuses_seeds_outside_its_family():
    m = M.OLHCW(3, 2.0)  # P = 11, g = 8: the full set {0, 1, 2} never occurs
    assert 7 not in set(m._possible().tolist())
    # a forged report whose support set is {0, 1, 2}: all h(v) equal needs a = 0, outside the family
    with pytest.raises(ValueError, match="seeds"):
        m.report_index((np.array([[0, 3]]), np.array([3])))
    with pytest.raises(ValueError, match="seeds"):
        m.support((np.array([[1, 11]]), np.array([3])))


# ------------------------------------------------------------------------------ head-to-head with the authors' code
def _seeded_numba():
    numba = pytest.importorskip("numba")

    @numba.njit
    def seed(s):
        np.random.seed(s)

    return seed


def test_lgrr_law_is_multi_freq_ldpy_l_grr():
    """multi-freq-ldpy's L_GRR_Client (the published second round) draws from our
    LGRR(second_round="published") channel: chi-square of 20,000 reports of x = 1 (k = 4)."""
    mfl = pytest.importorskip("multi_freq_ldpy.long_freq_est.L_GRR")
    k, e1, E = 4, 1.0, 2.0
    np.random.seed(31)
    y = np.array([mfl.L_GRR_Client(1, k, E, e1) for _ in range(20_000)])
    m = M.LGRR(k, e1, E, second_round="published")
    _, df, p = chi_square_gof(np.bincount(y, minlength=k), m.channel()[1])
    assert df > 0 and p > ALPHA
    from multi_freq_ldpy.long_freq_est.Variance_LONG_PURE import VAR_Long_Pure

    assert VAR_Long_Pure(m.p1, m.q1, m.p2, m.q2, n=1000) == pytest.approx(m.variance(1000), rel=1e-12)


def test_losue_and_dbitflip_laws_are_multi_freq_ldpy():
    mod = pytest.importorskip("multi_freq_ldpy.long_freq_est.L_OSUE")
    dbf = pytest.importorskip("multi_freq_ldpy.long_freq_est.dBitFlipPM")
    seed = _seeded_numba()
    seed(37)
    k, e1, E = 4, 1.0, 2.0
    m = M.LOSUE(k, e1, E)
    B = np.array([mod.L_OSUE_Client(2, k, E, e1) for _ in range(20_000)]).astype(bool)
    _, df, p = chi_square_gof(np.bincount(m.report_index(B), minlength=m.n_outputs), m.channel()[2])
    assert df > 0 and p > ALPHA / 2
    d, eps = 2, 1.5
    m = M.DBitFlipPM(k, eps, d=d)
    out = np.array([dbf.dBitFlipPM_Client(3, k, k, d, eps) for _ in range(20_000)])  # -1: not sampled
    J = np.sort(np.argsort(out < 0, axis=1, kind="stable")[:, :d], axis=1)
    bits = np.take_along_axis(out, J, axis=1).astype(bool)
    _, df, p = chi_square_gof(np.bincount(m.report_index((J, bits)), minlength=m.n_outputs), m.channel()[3])
    assert df > 0 and p > ALPHA / 2


def test_absurd_sizes_are_refused_quickly():
    import time

    t0 = time.perf_counter()
    cases = [
        lambda: M.BloomRAPPOR(1 << 20, 1.0, cohorts=4096),  # cohorts k m filter bits
        lambda: M.BloomRAPPOR(1 << 20, 1.0, h=8),  # 2**23 SHA-1 digests
        lambda: M.OLHCW(16, 8.0).channel(),  # P = 2999: 2.3e9 comparisons to enumerate
        lambda: M.HR(1 << 20, 1.0).simulate_support_counts(np.r_[np.zeros((1 << 20) - 1, dtype=np.int64), 1 << 40]),
        lambda: M.DBitFlipPM(1 << 25, 1.0)._simulate_both(np.zeros(1, dtype=np.int64), np.random.default_rng(0)),
        lambda: M.LGRR(3, 1.0).level_after(1 << 20),
        lambda: M.LGRR(4, 1.0).perturb_longitudinal([0, 1], 1 << 21),
        lambda: M.DBitFlipPM(1 << 30, 1.0).channel(),
        lambda: M.HR(1 << 20, 1.0).channel(),
    ]
    for case in cases:
        with pytest.raises(ValueError):
            case()
    assert time.perf_counter() - t0 < 10.0


def _dense_count_covariance(m, N):
    C, cs = m.channel(), m.column_support().astype(float)
    mean = C @ cs
    return np.einsum("x,xy,yv,yw->vw", N, C, cs, cs) - (mean.T * N) @ mean


@pytest.mark.parametrize("name", FOS)
def test_support_count_covariance_is_the_exact_channels(name):
    """The closed forms (HR: XOR of Sylvester rows; HRR and L-OSUE: diagonal; L-GRR: multinomial;
    dBitFlip: sampling without replacement; OLH-CW: enumeration of the seeds) against the covariance
    computed from the exact channel and its column supports."""
    for k, eps in ((5, 0.7), (7, 2.2)):
        m = _build(name, k, eps)
        N = np.arange(1, k + 1, dtype=float) * 3
        np.testing.assert_allclose(m.support_count_covariance(N), _dense_count_covariance(m, N), atol=1e-11)


def test_hr_support_count_covariance_against_simulation():
    """HR's supports are correlated only through the holders of z = ((v+1) xor (w+1)) - 1: the sample
    covariance of 4000 simulated count vectors lies within 4.5 standard errors of the formula in every
    off-diagonal cell with a nonzero value (normal approximation; at most 15 cells at a two-sided 6.8e-6
    each: below ALPHA in total)."""
    m = M.HR(6, 1.0)
    N = np.array([40, 10, 0, 25, 60, 5])
    rng = np.random.default_rng(41)
    sims = np.array([m.simulate_support_counts(N, rng=rng) for _ in range(4000)]).astype(float)
    S = np.cov(sims, rowvar=False)
    cov = m.support_count_covariance(N)
    v, w = np.triu_indices(6, 1)
    nz = cov[v, w] != 0
    assert nz.sum() >= 4
    xc = sims - sims.mean(axis=0)
    se = np.array([np.std(xc[:, a] * xc[:, b]) for a, b in zip(v[nz], w[nz])]) / math.sqrt(4000)
    assert np.all(np.abs(S[v[nz], w[nz]] - cov[v[nz], w[nz]]) < 4.5 * se)
