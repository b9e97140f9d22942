"""The Mechanism objects (ldpnb.mechanisms): exact channels equal to the functional API, samplers
and count simulators against the exact channel (chi-square at alpha = 1e-6, fixed seeds), the
claim travelling with the mechanism (check(), tight_level()), the catalogue, and the hooks that let
other families subclass the base without changing it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from ldpnb import mechanisms as M
from ldpnb.audit import chi_square_gof
from ldpnb.channels import geo_ind_epsilon, ldp_epsilon

ALPHA = 1e-6
FAMILIES = list(M.FAMILIES)


def _functional(name: str, m):
    """The plain function's channel for the same parameters (the functional API)."""
    k = getattr(m, "k", None)
    e = m.epsilon
    return {
        "GRR": lambda: M.grr_channel(k, e),
        "SUE": lambda: M.ue_channel(k, e, "sue"),
        "OUE": lambda: M.ue_channel(k, e, "oue"),
        "SS": lambda: M.ss_channel(k, e),
        "OLH": lambda: np.exp(m.log_channel()),  # the support-set channel (no functional twin)
        "BLH": lambda: np.exp(m.log_channel()),
        "geometric": lambda: M.geometric_channel(k, e),
        "Laplace": lambda: M.laplace_channel(k, e),
        "exponential": lambda: M.exponential_channel(m.distance(), e),
        "planar geometric": lambda: M.planar_geometric_channel(m.rows, m.cols, e, (m.h, m.w)),
        "planar Laplace": lambda: M.planar_laplace_channel(m.rows, m.cols, e, (m.h, m.w), subdivisions=m.subdivisions),
        "padded planar Laplace": lambda: M.planar_laplace_padded_channel(m.rows, m.cols, e, pad=m.pad),
        # the deployed mechanisms (issue #33 item 4; their own tests: tests/test_deploy_mechanisms.py)
        "HR": lambda: M.hr_channel(k, e),
        "HRR": lambda: M.hrr_channel(k, e),
        "OLH-CW": lambda: np.exp(m.log_channel()),  # the support-set channel over the seed family
        "Bloom RAPPOR": lambda: np.exp(m.log_channel()),  # the compressed (sufficient) channel
        "L-GRR": lambda: M.grr_channel(k, e),  # one report is k-RR at epsilon
        "L-OSUE": lambda: M.ue_channel(k, e, "oue"),  # one report is OUE at epsilon
        "dBitFlipPM": lambda: np.exp(m.log_channel()),
    }.get(name)


@pytest.mark.parametrize("eps", [0.3, 1.0, 4.0])
@pytest.mark.parametrize("name", FAMILIES)
def test_channel_is_the_functional_channel_and_keeps_the_claim(name, eps):
    m = M.catalog(eps, k=6, rows=3, cols=4, cell_size=(0.5, 0.7), families=[name])[name]
    C = m.channel()
    assert C.shape == m.shape and C.dtype == np.float64
    np.testing.assert_allclose(C.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    np.testing.assert_allclose(np.exp(m.log_channel()), C, rtol=5e-14, atol=0)
    f = _functional(name, m)
    assert f is not None, f"{name}: no functional twin listed"
    # bit for bit: the object's float channel is its functional twin's (so that moving a caller from
    # the function to the object changes no draw and no estimate)
    np.testing.assert_array_equal(C, f())
    C2 = m.channel()
    C2[0, 0] = -1.0  # a copy: the cached channel is not touched
    assert m.channel()[0, 0] == C[0, 0]
    res = m.check()
    assert res and res.holds and res.claimed == m.guarantee.epsilon
    g = m.guarantee
    float_level = ldp_epsilon(C) if g.notion == "ldp" else geo_ind_epsilon(C, g.distance)
    assert res.tight == pytest.approx(float_level, rel=1e-12)


def test_lh_support_channel_has_the_level_and_posteriors_of_the_full_channel():
    """The (h, y) channel factors through the support set S: C[x, (h, y)] = P(S | x) P((h, y) | S)."""
    for m in (M.OLH(3, 1.0), M.BLH(4, 0.7), M.LocalHashing(3, 2.0, g=3)):
        F, S = m.full_channel(), m.channel()
        g, k = m.g, m.k
        h_index, y = np.divmod(np.arange(F.shape[1]), g)
        digits = (h_index[None, :] // (g ** np.arange(k))[:, None]) % g  # (k, columns): h(v)
        col_to_S = ((digits == y[None, :]).astype(np.int64) << np.arange(k)[:, None]).sum(axis=0)
        A = np.zeros((F.shape[1], 1 << k))
        A[np.arange(F.shape[1]), col_to_S] = 1.0
        np.testing.assert_allclose(F @ A, S, rtol=1e-12, atol=1e-15)
        assert ldp_epsilon(F) == pytest.approx(m.tight_level(), rel=1e-12)
        prior = np.arange(1, k + 1) / np.arange(1, k + 1).sum()
        post_full = prior[:, None] * F / (prior @ F)[None, :]
        post_S = prior[:, None] * S / (prior @ S)[None, :]
        np.testing.assert_allclose(post_full, post_S[:, col_to_S], rtol=1e-10)


# ------------------------------------------------------------------------------ samplers
def _chi2_rows(m, x_values=(0, 1), n=20_000, seed=3):
    L = m.channel()
    rng = np.random.default_rng(seed)
    for x in x_values:
        y = m.report_index(m.perturb(np.full(n, x), rng=rng))
        stat, df, p = chi_square_gof(np.bincount(y, minlength=L.shape[1]), L[x])
        assert df > 0
        assert p > ALPHA, (m, x, stat, df)


@pytest.mark.parametrize("name", [f for f in FAMILIES if f not in ("BLH", "OLH")])
def test_sampler_follows_the_exact_channel(name):
    m = M.catalog(1.0, k=5, rows=3, cols=3, families=[name])[name]
    _chi2_rows(m, x_values=(0, m.n_inputs - 1))


@pytest.mark.parametrize("name", ["GRR", "SUE", "OUE", "BLH", "OLH", "SS"])
def test_sampler_follows_the_exact_channel_on_pairs_with_the_true_value(name):
    """The supports of the true value and another value of a report follow the channel.  For local
    hashing this is all that holds (two hash values): the Carter-Wegman family of lh_hash is pairwise
    independent, not 3-wise, so the whole support set of lh_perturb does not follow the random-oracle
    channel (next test)."""
    m = M.catalog(1.0, k=5, families=[name])[name]
    C, cs = m.channel(), m.column_support()
    rng = np.random.default_rng(4)
    for x in (0, 3):
        S = m.support(m.perturb(np.full(20_000, x), rng=rng))
        for v1, v2 in ((x, (x + 1) % 5), ((x + 4) % 5, x)):
            law = C[x] @ np.eye(4)[2 * cs[:, v1].astype(int) + cs[:, v2]]
            codes = 2 * S[:, v1].astype(int) + S[:, v2]
            _, df, p = chi_square_gof(np.bincount(codes, minlength=4), law)
            assert df > 0 and p > ALPHA, (name, x, v1, v2)


@pytest.mark.parametrize("name", ["BLH", "OLH"])
def test_carter_wegman_support_sets_are_not_those_of_a_random_oracle(name):
    """A documented limit: the law of the whole support set under lh_perturb differs from the
    random-oracle channel (which lh_simulate_support_counts and the levels use)."""
    m = M.catalog(1.0, k=5, families=[name])[name]
    y = m.report_index(m.perturb(np.zeros(20_000, dtype=int), rng=5))
    _, _, p = chi_square_gof(np.bincount(y, minlength=m.n_outputs), m.channel()[0])
    assert p < ALPHA


@pytest.mark.parametrize("name", ["GRR", "SUE", "OUE", "BLH", "OLH", "SS"])
def test_support_matches_the_columns_of_the_channel(name):
    m = M.catalog(1.5, k=5, families=[name])[name]
    r = m.perturb(np.arange(5).repeat(40), rng=1)
    S = m.support(r)
    assert S.shape == (200, 5) and S.dtype == bool
    np.testing.assert_array_equal(m.column_support()[m.report_index(r)], S)
    np.testing.assert_array_equal(m.support_counts(r), S.sum(axis=0))
    # support probabilities: P(column supports v | x) = p if v == x else q
    P = m.channel() @ m.column_support().astype(float)
    np.testing.assert_allclose(np.diag(P), m.p, rtol=1e-12)
    off = P[~np.eye(5, dtype=bool)]
    np.testing.assert_allclose(off, m.q, rtol=1e-9)


def _sum_binomials_pmf(ns, ps):
    pmf = np.array([1.0])
    for n, p in zip(ns, ps):
        pmf = np.convolve(pmf, stats.binom.pmf(np.arange(int(n) + 1), int(n), p))
    return pmf


@pytest.mark.parametrize("name", ["GRR", "geometric", "planar geometric", "exponential"])
def test_simulate_counts_has_the_law_of_the_channel(name):
    """Output 0's count is a sum of Binomial(N_x, C[x, 0]): chi-square of 3000 simulations against it."""
    m = M.catalog(1.0, k=4, rows=2, cols=2, families=[name])[name]
    N = np.array([7, 3, 5, 9])[: m.n_inputs]
    C = m.channel()
    rng = np.random.default_rng(5)
    sims = np.array([m.simulate_counts(N, rng=rng) for _ in range(3000)])
    assert np.all(sims.sum(axis=1) == N.sum())
    pmf = _sum_binomials_pmf(N, C[:, 0])
    _, df, p = chi_square_gof(np.bincount(sims[:, 0], minlength=pmf.size), pmf)
    assert df > 0 and p > ALPHA


@pytest.mark.parametrize("name", ["GRR", "SUE", "OUE", "BLH", "OLH", "SS"])
def test_simulate_support_counts_marginals(name):
    """C(v) ~ Bin(N_v, p) + Bin(n - N_v, q) for every frequency oracle."""
    m = M.catalog(1.0, k=5, families=[name])[name]
    N = np.array([6, 0, 3, 8, 2])
    rng = np.random.default_rng(9)
    sims = np.array([m.simulate_support_counts(N, rng=rng) for _ in range(3000)])
    for v in (0, 1):
        pmf = _sum_binomials_pmf([N[v], N.sum() - N[v]], [m.p, m.q])
        _, df, p = chi_square_gof(np.bincount(sims[:, v], minlength=pmf.size), pmf)
        assert df > 0 and p > ALPHA, (name, v)


def test_estimate_is_the_frequency_oracle_formula():
    m = M.OUE(4, 1.0)
    c = np.array([30, 10, 20, 5])
    np.testing.assert_allclose(m.estimate(c, 100), (c - 100 * m.q) / (100 * (m.p - m.q)))


# ------------------------------------------------------------------------------ claims and checks
def test_guarantee_describes_the_claim():
    assert str(M.GRR(4, 1.0).guarantee) == "1-LDP"
    g = M.TruncatedGeometric(5, 0.5).guarantee
    assert g.notion == "geo-ind" and g.distance.shape == (5, 5) and "|x - x'|" in str(g)
    assert M.PaddedPlanarLaplace(3, 3, 1.0, pad=1).guarantee.epsilon == 2.0
    assert (
        M.Exponential(np.abs(np.subtract.outer(np.arange(4.0), np.arange(4.0))), 1.0, half=False).guarantee.epsilon
        == 2.0
    )
    with pytest.raises(ValueError, match="notion"):
        M.Guarantee("dp", 1.0)
    with pytest.raises(ValueError, match="distance"):
        M.Guarantee("geo-ind", 1.0)


def test_check_fails_when_the_claim_is_too_small():
    C = M.grr_channel(3, 2.0)
    assert M.ChannelMechanism(C, epsilon=2.0).check()
    res = M.ChannelMechanism(C, epsilon=1.5).check()
    assert not res and res.tight == pytest.approx(2.0) and res.claimed == 1.5


def test_a_lift_style_subclass_needs_no_change_of_the_base():
    """A mechanism whose claim is about a secret S behind X (watchdog, ORR, SRR) overrides only
    privacy_log_channel and guarantee: its level is the level of P(y | s)."""

    class SecretMechanism(M.ChannelMechanism):
        def __init__(self, channel, p_x_given_s, epsilon):
            super().__init__(channel, epsilon=epsilon, family="secret")
            self.p_x_given_s = np.asarray(p_x_given_s)

        @property
        def guarantee(self):
            return M.Guarantee("ldp", self.epsilon, about="the secret S")

        def privacy_log_channel(self):
            return np.log(self.p_x_given_s @ self.channel())

    C = M.grr_channel(3, 3.0)
    Pxs = np.array([[0.8, 0.1, 0.1], [0.1, 0.8, 0.1]])
    m = SecretMechanism(C, Pxs, 3.0)
    assert m.tight_level() == pytest.approx(ldp_epsilon(Pxs @ C), rel=1e-12)
    assert m.tight_level() < ldp_epsilon(C) and m.check()
    assert "secret S" in str(m.guarantee)


def test_a_tuple_input_subclass_needs_no_change_of_the_base():
    """Multidimensional protocols take tuples: they override _check_inputs (and report_index)."""

    class PairGRR(M.Mechanism, register=False):  # a test class: kept out of the registry
        family = "pair"

        def __init__(self, eps):
            self.epsilon, self.inner = eps, M.GRR(4, eps)

        n_inputs = property(lambda self: 4)
        n_outputs = property(lambda self: 4)

        def _log_channel(self):
            return self.inner.log_channel()

        def _check_inputs(self, x):
            t = np.asarray(x)
            assert t.ndim == 2 and t.shape[1] == 2
            return t[:, 0] * 2 + t[:, 1]

    m = PairGRR(1.0)
    y = m.perturb([[0, 1], [1, 1]], rng=0)
    assert y.shape == (2,) and m.check()


def test_channel_refuses_what_float64_cannot_hold_and_the_log_channel_does_not():
    m = M.TruncatedGeometric(4, 300.0)
    with pytest.raises(ValueError, match=r"epsilon = 300 .*log_channel\(\)"):
        m.channel()
    assert m.log_channel().min() == pytest.approx(-900 - math.log1p(math.exp(-300)))
    assert m.tight_level() == pytest.approx(300.0, rel=1e-12)
    y = m.perturb(np.array([0, 3]), rng=0)  # draws at any epsilon
    np.testing.assert_array_equal(y, [0, 3])


def test_dense_channel_of_a_huge_domain_is_refused_before_allocating():
    with pytest.raises(ValueError, match="2 GiB"):
        M.GRR(1 << 20, 1.0).channel()
    with pytest.raises(ValueError, match="k must be <= 16"):
        M.OUE(40, 1.0).log_channel()
    with pytest.raises(ValueError, match="C\\(k, omega\\)"):
        M.SubsetSelection(1000, 0.01).channel()
    assert M.GRR(1 << 20, 1.0).perturb([0, 5], rng=0).shape == (2,)


def test_repr_and_catalog():
    assert repr(M.GRR(4, 1.0)) == "GRR(k=4, epsilon=1)"
    assert repr(M.UnaryEncoding(4, 1.0, "sue")) == "UnaryEncoding(k=4, epsilon=1, kind='sue')"
    cat = M.catalog(2.0)
    assert list(cat) == FAMILIES
    assert all(isinstance(m, M.Mechanism) and m.epsilon == 2.0 for m in cat.values())
    with pytest.raises(ValueError, match="OLH"):
        M.catalog(30.0)
    capped = ("OLH", "OLH-CW")  # hash range round(e^eps) + 1 must fit their integer hashes
    assert "OLH" not in M.catalog(30.0, families=[f for f in FAMILIES if f not in capped])
    with pytest.raises(ValueError, match="families"):
        M.catalog(1.0, families=["nope"])


def test_inputs_are_validated():
    m = M.GRR(4, 1.0)
    with pytest.raises(ValueError, match="x must lie in the domain"):
        m.perturb([0, 4])
    with pytest.raises(ValueError, match="input_counts"):
        m.simulate_counts([1, 2, 3])
    with pytest.raises(ValueError, match="reports"):
        M.SubsetSelection(6, 1.0).report_index(np.ones((2, 6), dtype=bool))
    with pytest.raises(TypeError, match="epsilon"):
        M.GRR(4, "1")


# ------------------------------------------------------------------------------ the registry
def test_lookup_rule_is_family_or_alias_after_casefold():
    """One rule: a family name or an alias declared on the class, compared after str.casefold()."""
    for name in ("GRR", "grr", "Grr", "k-RR", "K-rr", "krr", "KRR"):
        assert M.Mechanism.lookup(name) is M.GRR
    assert M.Mechanism.lookup("rappor") is M.SUE and M.Mechanism.lookup("LAP") is M.PaddedPlanarLaplace
    assert M.Mechanism.lookup("Planar LAPLACE") is M.PlanarLaplace
    with pytest.raises(ValueError, match="registered family"):
        M.Mechanism.lookup("k_RR")  # no normalisation beyond case
    with pytest.raises(TypeError):
        M.Mechanism.lookup(3)
    # every family name and alias names one class
    names = {}
    for fam, cls in M.Mechanism.REGISTRY.items():
        assert cls.family == fam
        for n in (fam, *cls.__dict__.get("aliases", ())):
            assert names.setdefault(n.casefold(), fam) == fam


def test_a_family_name_or_alias_cannot_be_taken_twice():
    with pytest.raises(TypeError, match="already registered"):

        class OtherGRR(M.GRR):  # noqa: F841
            family = "GRR"

    with pytest.raises(TypeError, match="already names"):

        class Clash(M.GRR):  # noqa: F841
            family = "clash"
            aliases = ("K-RR",)

    assert "clash" not in M.Mechanism.REGISTRY and M.Mechanism.lookup("k-rr") is M.GRR
    with pytest.raises(TypeError, match="aliases"):

        class BadAliases(M.GRR):  # noqa: F841
            family = "bad"
            aliases = "bad-alias"


@pytest.fixture
def toy_family():
    """A frequency oracle defined here, in one place: k-RR's channel under its own name (the point is
    where the family appears, not what it computes); removed from the registry afterwards."""

    class ToyRR(M.FrequencyOracle):
        family = "toy RR"
        aliases = ("toy",)

        def __init__(self, k, epsilon):
            self.k, self.epsilon = k, epsilon
            self.p, self.q = M.grr_params(k, epsilon)

        @classmethod
        def on(cls, domain, epsilon):
            return cls(domain.size, epsilon)

        n_outputs = property(lambda self: self.k)

        def _log_channel(self):
            return np.log(M.grr_channel(self.k, self.epsilon))

        def support(self, reports):
            y = self.report_index(reports)
            return np.eye(self.k, dtype=bool)[y]

        def column_support(self):
            return np.eye(self.k, dtype=bool)

    yield ToyRR
    M.Mechanism.unregister("toy RR")
    assert "toy RR" not in M.Mechanism.REGISTRY and "toy" not in M.Mechanism._NAMES


def test_a_family_defined_in_one_place_appears_in_every_registry(toy_family):
    """Adding a family touches one file: the class itself.  The catalogue, the audit's cases, the
    protocol registry of the multidimensional chapter and the synthesis chapter's guide and lens
    table all see it."""
    from ldpnb import audit
    from ldpnb.mechanisms import multidim, protocols

    assert M.Mechanism.REGISTRY["toy RR"] is toy_family and M.Mechanism.lookup("TOY") is toy_family
    assert "toy RR" in M.FAMILIES and list(M.FAMILIES)[-1] == "toy RR"
    m = M.catalog(1.0, families=["toy"])["toy RR"]
    assert isinstance(m, toy_family) and m.check()
    assert "toy RR" in audit.REGISTRY and "toy RR" in audit.available_mechanisms()
    res = audit.audit("toy", 1.0, n_trials=2000, rng=1)
    assert res.mechanism == "toy RR" and res.exact_ok and res.sampler_ok
    assert "toy rr" in protocols.PROTOCOL_REGISTRY and "toy rr" in M.protocol_names()
    entry = M.protocol("Toy RR")
    assert entry.params(5, 1.0) == tuple(M.grr_params(5, 1.0))
    assert entry.pd_accuracy is None and not entry.rsfd
    counts = entry.support_counts(np.arange(5), 5, 1.0, np.random.default_rng(0))
    assert counts.sum() == 5
    smp = M.SMP((3, 4), 1.0, "toy rr")  # the tuple mechanisms take it by name
    assert smp.check() and multidim.fo_params("toy rr", 4, 1.0) == tuple(M.grr_params(4, 1.0))
    # the synthesis chapter: its guide places the frequency oracles, its lens table the catalogue's extras
    from ldpnb.papers.synthesis import experiments as synthesis
    from ldpnb.papers.synthesis import families as guide

    assert "toy RR" in guide.guide_families()[0] and "toy RR" in guide.oracle_families()
    try:
        extras = synthesis.catalogue_extras(synthesis._example_setting())[0]  # the 2 x 2 example setting
        assert extras["toy RR"].make(synthesis._example_setting(), 1.0).p == M.grr_params(4, 1.0)[0]
    finally:
        synthesis._EXTRA.pop("toy RR", None)  # catalogue_extras remembers the families it placed


def test_the_catalogue_is_the_registry_of_families_built_on_a_domain():
    assert list(M.FAMILIES) == [n for n, c in M.Mechanism.REGISTRY.items() if c.builds_on_domain()]
    assert "UE" in M.Mechanism.REGISTRY and "UE" not in M.FAMILIES  # the parametrised parents
    assert "SMP" in M.Mechanism.REGISTRY and "SMP" not in M.FAMILIES  # needs the attributes' sizes
    d = M.Domain(k=None, rows=3, cols=4, cell_size=0.5)
    assert M.GRR.on(d, 1.0).k == 12 and M.PlanarGeometric.on(d, 1.0).shape == (12, 12)
    with pytest.raises(ValueError, match="needs k"):
        M.TruncatedGeometric.on(d, 1.0)
    with pytest.raises(NotImplementedError):
        M.SMP.on(M.Domain(), 1.0)


# ------------------------------------------------------------------------------ simulate_counts(size=)
@pytest.mark.parametrize("name", ["GRR", "SUE", "geometric", "planar Laplace", "exponential"])
def test_simulate_counts_size_draws_the_batch_of_the_float_channel(name):
    """size=R: R runs at once, one multinomial per input on the family's float channel (its
    functional twin, bit for bit): the draws of channels.simulate_counts_batch on that matrix."""
    from ldpnb.channels import simulate_counts_batch

    m = M.catalog(0.8, k=5, rows=2, cols=3, families=[name])[name]
    N = np.arange(1, m.n_inputs + 1) * 7
    Y = m.simulate_counts(N, size=6, rng=11)
    assert Y.shape == (6, m.n_outputs) and np.all(Y.sum(axis=1) == N.sum())
    np.testing.assert_array_equal(Y, simulate_counts_batch(m.channel(), N, 6, rng=11))
    # size=None keeps each family's own law (k-RR: the O(k) mixture) and its draws
    assert m.simulate_counts(N, rng=3).shape == (m.n_outputs,)
    with pytest.raises(ValueError, match="size"):
        m.simulate_counts(N, size=0)


def test_simulate_counts_size_beyond_float64_uses_the_log_channel():
    m = M.TruncatedGeometric(4, 300.0)  # channel() refuses; the draws come from exp(L - max L)
    Y = m.simulate_counts([5, 0, 0, 7], size=3, rng=0)
    np.testing.assert_array_equal(Y, np.tile([5, 0, 0, 7], (3, 1)))


# ------------------------------------------------------------------------------ the standard estimator
@pytest.mark.parametrize("name", ["GRR", "SUE", "OUE", "OLH", "BLH", "SS"])
def test_standard_estimator_from_reports_or_support_counts(name):
    """m.estimate(reports) = m.estimate(m.support_counts(reports), n) = Wang et al.'s Eq. 2, and its
    variance is their formula with p - q computed without cancellation."""
    from ldpnb.estimators import fo_estimate, fo_variance

    m = M.catalog(1.3, k=6, families=[name])[name]
    x = np.random.default_rng(0).integers(0, 6, 500)
    reports = m.perturb(x, rng=1)
    c = m.support_counts(reports)
    assert m.n_reports(reports) == 500
    np.testing.assert_array_equal(m.estimate(reports), m.estimate(c, 500))
    np.testing.assert_allclose(m.estimate(c, 500), fo_estimate(c, 500, m.p, m.q), rtol=1e-12)
    f = np.bincount(x, minlength=6) / 500
    np.testing.assert_allclose(m.variance(500, f), fo_variance(f, 500, m.p, m.q), rtol=1e-12)
    assert m.variance(500) == pytest.approx(m.q * (1 - m.q) / (500 * (m.p - m.q) ** 2), rel=1e-12)
    assert m.p_minus_q == pytest.approx(m.p - m.q, rel=1e-13)


@pytest.mark.parametrize("name", ["GRR", "SUE", "OUE", "OLH", "BLH", "SS"])
def test_support_counts_larger_than_the_reports_are_refused(name):
    """Audit finding: GRR(4, 1).estimate(np.full(4, 10**6), 12) returned 277,325 per value."""
    m = M.catalog(1.0, k=4, families=[name])[name]
    with pytest.raises(ValueError, match="at most the number of reports"):
        m.estimate(np.full(4, 10**6), 12)
    with pytest.raises(ValueError, match="support_counts"):
        m.estimate(np.array([1.0, np.nan, 1.0, 1.0]), 12)
    with pytest.raises(ValueError, match="one entry per value"):
        m.estimate(np.ones(5), 12)
    with pytest.raises((TypeError, ValueError), match="n must be"):
        m.estimate(np.ones(4), 0)


@pytest.mark.parametrize(
    "make",
    [
        lambda: M.GRR(4, 1.0),
        lambda: M.HR(4, 1.0),
        lambda: M.HRR(4, 1.0),
        lambda: M.LGRR(4, 1.0, 2.0),
        lambda: M.OUE(4, 1.0),
        lambda: M.SubsetSelection(4, 1.0),
        lambda: M.LOSUE(4, 1.0, 2.0),
    ],
)
def test_n_reports_refuses_what_is_not_a_report(make):
    """Fuzz (issue #40): HR(4, 1).n_reports(np.array([10**6, 0, 2, 1])) was 4, as were the counts of
    negative, fractional, NaN and string 'reports' (the rows were counted, not read); they are checked
    as support_counts reads them."""
    m = make()
    reports = m.perturb(np.arange(12) % 4, rng=0)
    assert m.n_reports(reports) == 12
    bad = [np.array([10**6, 0, 2, 1]), np.array([-1, 0, 2, 1]), np.array([0.5, 0.0, 2.0, 1.0])]
    bad += [np.array([np.nan, 0.0, 2.0, 1.0]), ["a", "a", "a", "a"], np.full((3, 4), 2)]
    for b in bad:
        with pytest.raises((TypeError, ValueError), match="reports"):
            m.n_reports(b)


def test_check_support_counts_refuses_a_label_that_is_not_a_string():
    """Fuzz (issue #40): ``name`` (the label of the messages) took an int or any object."""
    m = M.GRR(3, 1.0)
    with pytest.raises(TypeError, match="name must be a str"):
        m.check_support_counts(np.array([1, 3, 6]), 10, name=3)
    c, n = m.check_support_counts(np.array([1, 3, 6]), 10, name="counts")
    assert n == 10 and c.tolist() == [1.0, 3.0, 6.0]


def test_support_totals_a_family_cannot_reach_are_refused():
    with pytest.raises(ValueError, match="sum to"):  # a k-RR report supports exactly one value
        M.GRR(4, 1.0).estimate(np.array([5, 5, 5, 0]), 12)
    ss = M.SubsetSelection(10, 0.5)
    assert ss.omega > 1
    ss.estimate(np.full(10, 12 * ss.omega // 10), 12)
    with pytest.raises(ValueError, match="sum to"):
        ss.estimate(np.full(10, 12), 12)


@pytest.mark.parametrize("name", ["GRR", "SUE", "OUE", "OLH", "BLH", "SS"])
@pytest.mark.parametrize("eps", [1e-12, 1e-6, 0.5, 30.0, 1e4])
def test_p_minus_q_has_full_relative_precision_at_any_epsilon(name, eps):
    """p - q by subtraction loses ~log10(1/eps) digits at tiny eps (1e-4 relative at eps = 1e-12);
    each family's closed form keeps all of them (against 50-digit decimal arithmetic)."""
    from decimal import Decimal, localcontext

    if name == "OLH" and eps > 22:
        pytest.skip("OLH: hash range over 2**32")
    m = M.catalog(eps, k=6, families=[name])[name]
    k = 6
    with localcontext() as ctx:
        ctx.prec = 50
        E = (-Decimal(eps)).exp()
        one = Decimal(1)
        if name == "GRR":
            exact = (one - E) / (one + (k - 1) * E)
        elif name == "SUE":
            exact = (one - E.sqrt()) / (one + E.sqrt())
        elif name == "OUE":
            exact = one / 2 - E / (one + E)
        elif name in ("OLH", "BLH"):
            g = m.g
            exact = one / (one + (g - 1) * E) - one / g
        else:
            w = m.omega
            exact = w * (k - w) * (one - E) / ((k - 1) * (w + (k - w) * E))
    assert m.p_minus_q == pytest.approx(float(exact), rel=1e-14)
    assert np.all(np.isfinite(m.variance(100))) and np.all(np.isfinite(m.estimate(np.full(6, 10), 60)))


# ------------------------------------------------------------------------------ extremes
@pytest.mark.parametrize("name", ["GRR", "SUE", "OUE", "OLH", "BLH", "SS", "geometric"])
@pytest.mark.parametrize("eps", [2.8e-243, 1e-12, 1e-6, 0.7, 50.0, 710.0, 1e4])
def test_tight_level_has_full_relative_precision_at_any_epsilon(name, eps):
    """Audit: through log C the level of GRR(44, 2.8e-243) was 0 and at eps = 1e-12 it was off by 9e-5
    (log C ~ -2 cannot resolve a difference of 1e-12); the closed-form log-ratios keep every digit."""
    if name == "OLH" and eps > 22:
        pytest.skip("OLH: hash range over 2**32")
    m = M.catalog(eps, k=6, families=[name])[name]
    assert m.tight_level() == pytest.approx(eps, rel=1e-15)
    assert m.check().holds
    if 1e-3 < eps < 700:  # where log C resolves it: the same level as from the log channel
        assert m.guarantee.level(m.log_channel()) == pytest.approx(m.tight_level(), rel=1e-12)


def test_a_subclass_claiming_about_a_secret_does_not_inherit_the_closed_form():
    class Secret(M.GRR, register=False):
        def privacy_log_channel(self):
            return np.log(np.full((2, self.k), 1.0 / self.k))

    assert Secret(4, 1.0).tight_level() == 0.0


def test_guarantee_admits_refuses_nonsense():
    g = M.GRR(4, 1.0).guarantee
    assert g.admits(1.0) and not g.admits(float("inf")) and not g.admits(1.1)
    with pytest.raises(ValueError, match="level"):
        g.admits(-1.0)  # audit: returned True
    with pytest.raises(ValueError, match="rtol"):
        g.admits(1e9, rtol=float("inf"))  # audit: returned True
    with pytest.raises(ValueError, match="level"):
        g.admits(float("nan"))
