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
        "geometric": lambda: M.geometric_channel(k, e),
        "Laplace": lambda: M.laplace_channel(k, e),
        "exponential": lambda: M.exponential_channel(m.distance(), e),
        "planar geometric": lambda: M.planar_geometric_channel(m.rows, m.cols, e, (m.h, m.w)),
        "planar Laplace": lambda: M.planar_laplace_channel(m.rows, m.cols, e, (m.h, m.w)),
        "padded planar Laplace": lambda: M.planar_laplace_padded_channel(m.rows, m.cols, e, pad=m.pad),
    }.get(name)


@pytest.mark.parametrize("eps", [0.3, 1.0, 4.0])
@pytest.mark.parametrize("name", FAMILIES)
def test_channel_is_the_functional_channel_and_keeps_the_claim(name, eps):
    m = M.catalog(eps, k=6, rows=3, cols=4, cell_size=(0.5, 0.7), families=[name])[name]
    C = m.channel()
    assert C.shape == m.shape and C.dtype == np.float64
    np.testing.assert_allclose(C.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    np.testing.assert_allclose(np.exp(m.log_channel()), C, rtol=1e-14, atol=0)
    f = _functional(name, m)
    if f is not None:
        np.testing.assert_allclose(C, f(), rtol=1e-12, atol=0)
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
    assert M.Exponential(np.abs(np.subtract.outer(np.arange(4.0), np.arange(4.0))), 1.0, half=False).guarantee.epsilon == 2.0
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

    class PairGRR(M.Mechanism):
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
    assert "OLH" not in M.catalog(30.0, families=[f for f in FAMILIES if f != "OLH"])
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
