"""Tests for ldpnb.papers.privic (Biswas and Palamidessi 2023, PRIVIC)."""

import os

import numpy as np
import pytest
from scipy import stats

from ldpnb import estimators as pv_estimators
from ldpnb.channels import geo_ind_epsilon, simulate_counts
from ldpnb.estimators import ibu
from ldpnb.measures import emd
from ldpnb.mechanisms import blahut_arimoto, grr_channel
from ldpnb.papers import privic as pv
from ldpnb.papers.privic import right_inverse_residual

# Paris counts on the authors' grid (11 x 15, row 0 north, column 0 west, N = 10,078)
PARIS = np.array(
    [
        [7, 271, 215, 112, 22, 100, 150, 217, 232, 66, 54, 21, 6, 9, 4],
        [8, 28, 205, 196, 113, 117, 117, 164, 166, 225, 119, 68, 18, 5, 5],
        [51, 68, 48, 11, 58, 109, 146, 148, 131, 190, 38, 54, 42, 30, 42],
        [71, 12, 4, 14, 34, 25, 49, 533, 172, 263, 129, 45, 59, 8, 6],
        [17, 217, 28, 50, 34, 21, 72, 138, 114, 163, 113, 86, 70, 16, 26],
        [19, 16, 24, 2, 11, 49, 43, 368, 235, 227, 74, 19, 94, 123, 23],
        [4, 39, 14, 3, 3, 2, 24, 72, 76, 63, 50, 2, 5, 41, 7],
        [11, 4, 5, 12, 9, 61, 35, 0, 2, 35, 34, 19, 26, 94, 10],
        [57, 101, 7, 13, 25, 99, 18, 3, 6, 22, 4, 0, 0, 7, 50],
        [14, 6, 4, 1, 8, 5, 13, 25, 0, 2, 18, 9, 8, 39, 17],
        [9, 0, 6, 1, 0, 4, 2, 2, 13, 14, 52, 0, 5, 192, 313],
    ]
)

HAVE_DATA = bool(os.environ.get("LDPNB_DATA_DIR"))


@pytest.fixture(scope="module")
def paris():
    n = PARIS.ravel()
    return n, pv.privic_distance("paris")


# ----------------------------------------------------------------------------- data and grid
@pytest.mark.skipif(not HAVE_DATA, reason="LDPNB_DATA_DIR not set")
def test_loader_reproduces_the_authors_counts():
    from ldpnb.papers.privic import load_privic_counts

    np.testing.assert_array_equal(load_privic_counts("paris"), PARIS)
    sf = load_privic_counts("sf")
    assert sf.shape == (16, 24) and sf.sum() == 123_025 and sf.max() == 8427
    assert np.unravel_index(sf.argmax(), sf.shape) == (2, 19)
    assert np.sum(sf == 0) == 50


def test_emd_uniform_paris(paris):
    n, D = paris
    assert n.sum() == 10_078
    assert abs(emd(np.ones(165) / 165, n / n.sum(), D) - 2.022618) < 1e-5


def test_distance_and_blocks():
    D = pv.privic_distance((3, 4))
    assert D.shape == (12, 12)
    assert D[0, 11] == pytest.approx(np.hypot(2, 3))
    Dp = pv.privic_distance((3, 4), pad=2)
    assert Dp.shape == (12, 7 * 8)
    inner = pv.inner_columns((3, 4), pad=2)
    np.testing.assert_allclose(Dp[:, inner], D)
    blk = pv.block_indices("paris", pv.ISLAND_A, 2)
    assert blk.size == 25 and pv.flat_index("paris", pv.ISLAND_A) == 93
    assert pv.flat_index("paris", pv.ISLAND_B) == 52
    with pytest.raises(ValueError):
        pv.flat_index("paris", (11, 0))
    with pytest.raises(ValueError):
        pv.privic_distance("rome")


# ----------------------------------------------------------------------------- LAP
def test_lap_grid_channel_rows_and_eps():
    """T-O: the 5-padded truncated LAP has eps* close to eps (<= 1.1 eps for eps >= 0.4), always <= 2 eps."""
    D = pv.privic_distance("paris")
    for eps in (0.4, 1.0, 2.0):
        C = pv.lap_grid_channel("paris", eps, pad=5)
        assert C.shape == (165, 21 * 25)
        np.testing.assert_allclose(C.sum(axis=1), 1, atol=1e-12)
        e = geo_ind_epsilon(C, D)
        assert eps - 1e-9 <= e <= 1.1 * eps
    C0 = pv.lap_grid_channel("paris", 1.0, pad=0)
    e0 = geo_ind_epsilon(C0, D)
    assert 1.2 * 1.0 < e0 <= 2.0  # 1.34 eps without padding
    with pytest.raises(ValueError):
        pv.lap_grid_channel("paris", -1.0)


def test_lap_sampler_matches_channel_chi_square():
    """simulate_counts on the padded LAP row of A vs the channel: chi-square, false alarm 1e-6."""
    C = pv.lap_grid_channel("paris", 1.2, pad=5)
    a = pv.flat_index("paris", pv.ISLAND_A)
    n_in = np.zeros(165, dtype=int)
    n_in[a] = 200_000
    y = simulate_counts(C, n_in, rng=np.random.default_rng(0))
    p = C[a]
    keep = p * n_in[a] >= 5
    obs = np.append(y[keep], y[~keep].sum())
    exp = np.append(p[keep], p[~keep].sum()) * n_in[a]
    assert stats.chisquare(obs, exp).pvalue > 1e-6


def test_ldp_special_case_T_A():
    """T-A: with the discrete metric, d-privacy = LDP: eps*(k-RR) = eps."""
    C = grr_channel(5, 1.3)
    assert abs(geo_ind_epsilon(C, 1 - np.eye(5)) - 1.3) < 1e-12


# ----------------------------------------------------------------------------- priors
def test_island_prior_authors_and_renorm(paris):
    n, _ = paris
    pi = n / n.sum()
    blk = pv.block_indices("paris", pv.ISLAND_A)
    a, b = 93, 52
    for mode in ("authors", "renorm"):  # pi(A) = 0.01, the figures' island
        isl = pv.island_prior(pi, "paris", mode=mode)
        assert abs(isl.sum() - 1) < 1e-12
        assert abs(isl[a] - 0.01) < 1e-15
        assert np.all(isl[np.setdiff1d(blk, [a])] == 0)
        assert isl.argmax() == b
    isl = pv.island_prior(pi, "paris", mode="authors")
    assert abs(isl[b] - 533 / 10078) < 1e-12
    assert abs(pi[blk].sum() - 0.08424) < 1e-5
    # the text's literal recipe: the whole block's mass on A, which becomes the map's maximum
    lit = pv.island_prior(pi, "paris", mode="literal")
    assert abs(lit.sum() - 1) < 1e-12 and abs(lit[a] - pi[blk].sum()) < 1e-15
    assert np.all(lit[np.setdiff1d(blk, [a])] == 0) and lit.argmax() == a
    np.testing.assert_array_equal(np.delete(lit, blk), np.delete(pi, blk))
    with pytest.raises(ValueError):
        pv.island_prior(pi, "paris", mode="dump")


def test_adversarial_prior_and_percent(paris):
    n, _ = paris
    isl = pv.island_prior(n / n.sum(), "paris", mode="authors")
    delta = 0.005 * np.arange(9)
    np.testing.assert_allclose(
        pv.paper_label_percent(delta), [0, 4.975, 9.901, 14.778, 19.608, 24.390, 29.126, 33.816, 38.462], atol=1e-3
    )
    np.testing.assert_allclose(pv.fake_report_share(delta), delta / (1 + delta), rtol=1e-15)
    np.testing.assert_allclose(pv.paper_label_percent(delta), 1000 * pv.fake_report_share(delta), rtol=1e-15)
    # case (i): the fakes report B
    advB = pv.adversarial_prior(isl, 8, cell=pv.ISLAND_B)
    assert abs(advB.sum() - 1) < 1e-12 and advB[52] == pytest.approx((isl[52] + 0.04) / 1.04)
    for k in range(9):
        adv = pv.adversarial_prior(isl, k)
        assert abs(adv.sum() - 1) < 1e-12
        assert adv[93] >= isl[93]
    # BA is invariant to the scale of the prior: the authors' unnormalised form gives the same BA
    D = pv.privic_distance("paris")
    raw = isl.copy()
    raw[93] += 0.02
    np.testing.assert_allclose(
        blahut_arimoto(raw, D, 0.6).channel, blahut_arimoto(pv.adversarial_prior(isl, 4), D, 0.6).channel, atol=1e-14
    )


def test_row_stats():
    v = np.zeros(165)
    v[93] = 0.5
    v[52] = 0.5
    s = pv.row_stats(v)
    assert s["p_self"] == 0.5 and s["p_block"] == 0.5
    assert s["argmax"] in ((6, 3), (3, 7))
    assert s["expected_distance"] == pytest.approx(2.5)


# ----------------------------------------------------------------------------- Fig. 2 / Fig. 11 targets
def test_fig2_elasticity_targets(paris):
    n, D = paris
    isl = pv.island_prior(n / n.sum(), "paris", mode="authors")
    for beta, eps, ed in ((0.2, 0.392818, 4.51), (0.6, 1.160511, 1.59), (0.8, 1.522998, 1.10)):
        ba = pv.row_stats(blahut_arimoto(isl, D, beta).channel[93])
        lap = pv.row_stats(pv.lap_grid_channel("paris", eps)[93], pad=5)
        assert abs(lap["expected_distance"] - ed) < 0.01  # regression values (padded outputs)
        assert ba["p_block"] < 0.2 and lap["p_block"] > 0.3
        assert lap["argmax"] == pv.ISLAND_A
        if beta <= 0.6:
            assert ba["argmax_dist"] >= 3
    assert lap["p_block"] >= 0.9


def test_fig11_monotone(paris):
    n, D = paris
    isl = pv.island_prior(n / n.sum(), "paris", mode="authors")
    for beta in (0.4, 0.6):
        st = [pv.row_stats(blahut_arimoto(pv.adversarial_prior(isl, k), D, beta).channel[93]) for k in range(9)]
        assert np.all(np.diff([s["p_self"] for s in st]) >= 0)
        assert np.all(np.diff([s["p_block"] for s in st]) >= 0)
    assert st[3]["argmax"] == pv.ISLAND_A  # beta = 0.6, k = 3: mode moved to A


# ----------------------------------------------------------------------------- GIBU
def test_gibu_single_channel_equals_ibu():
    rng = np.random.default_rng(1)
    C = rng.dirichlet(np.ones(7), size=5)
    y = rng.integers(0, 40, 7)
    a = pv_estimators.gibu([C], [y], tol=0, max_iter=30).estimate
    b = ibu(C, y, tol=0, max_iter=30).estimate
    np.testing.assert_allclose(a, b, atol=1e-14)


def test_gibu_pools_identical_cycles():
    rng = np.random.default_rng(2)
    C = rng.dirichlet(np.ones(6), size=4)
    y1, y2 = rng.integers(1, 30, 6), rng.integers(1, 30, 6)
    C2 = rng.dirichlet(np.ones(6), size=4)
    g = pv_estimators.gibu([C, C2], [y1, y2], tol=0, max_iter=200)
    assert np.all(np.diff(g.trace) >= -1e-13)  # EM: non-decreasing
    assert abs(g.loglik - pv_estimators.gibu_log_likelihood(g.estimate, [C, C2], [y1, y2])) < 1e-12
    with pytest.raises(ValueError):
        pv_estimators.gibu([C, C2], [y1])


# ----------------------------------------------------------------------------- PRIVIC
def test_privic_protocol_A11_paris_rows(paris):
    """Table III row 1 is the uniform start; row 2 close to the paper (one round, beta = 1)."""
    n, D = paris
    res = pv.privic(n, D, 1.0, n_cycles=3, ba_iter=8, ibu_iter=10, rng=0)
    assert len(res.thetas) == 4 and len(res.channels) == 3
    assert abs(res.emd[0] - 2.02262) < 1e-5
    assert abs(res.emd[1] - 0.2744) < 0.04
    assert res.emd[3] < res.emd[1]
    assert all(y.sum() == n.sum() for y in res.report_counts)
    # Thm 5.2: the combined channel has a right inverse
    assert right_inverse_residual(res.channels) < 1e-9


def test_privic_reproducible_and_variants(paris):
    n, D = paris
    a = pv.privic(n, D, 0.5, n_cycles=2, ba_iter=8, ibu_iter=10, rng=5)
    b = pv.privic(n, D, 0.5, n_cycles=2, ba_iter=8, ibu_iter=10, rng=5)
    np.testing.assert_array_equal(a.emd, b.emd)
    c = pv.privic(
        n,
        D,
        0.5,
        n_cycles=3,
        ba_iter=8,
        ibu_iter=10,
        combine=True,
        final_gibu=True,
        n_per_cycle=3000,
        gibu_iter=200,
        rng=5,
    )
    assert c.gibu_emd is not None and np.isfinite(c.gibu_emd)
    assert all(y.sum() == 3000 for y in c.report_counts)
    np.testing.assert_allclose(c.final_channel.sum(axis=1), 1, atol=1e-12)
    with pytest.raises(ValueError):
        pv.privic(n, D, 0.5, n_cycles=0, ba_iter=8, ibu_iter=10)


def test_gibu_unique_mle_two_starts(paris):
    """Thm 5.2: GIBU from two starts reaches the same log-likelihood (relative 1e-4)."""
    n, D = paris
    res = pv.privic(n, D, 1.0, n_cycles=4, ba_iter=8, ibu_iter=10, rng=3, monitor=False)
    g1 = pv_estimators.gibu(res.channels, res.report_counts, tol=0, max_iter=1500)
    g2 = pv_estimators.gibu(
        res.channels, res.report_counts, theta0=np.random.default_rng(0).dirichlet(np.ones(165)), tol=0, max_iter=1500
    )
    assert abs(g1.loglik - g2.loglik) <= 1e-4 * abs(g1.loglik)


def test_privic_table_shape(paris):
    n, D = paris
    df = pv.privic_table(n, D, [1.0], rounds=2, n_rows=3, ba_iter=8, ibu_iter=10, seed=0)
    assert list(df.columns) == ["beta", "round", "row", "emd"]
    assert len(df) == 6 and set(df.row) == {1, 2, 3}


def test_stat_utility_sweep_small(paris):
    n, _ = paris
    df = pv.experiments.stat_utility_sweep(n, "paris", [1.0, 5.0], [1.920174, 9.719416], sims=1, seed=0)
    assert set(df.mechanism) == {"BA", "BA, IBU from the true π", "LAP", "LAP (ε = 2β)"}
    m = df.groupby(["beta", "mechanism"]).emd.mean()
    assert m[(5.0, "BA")] < 0.05 and m[(5.0, "LAP")] < 0.001


def test_tight_eps_table_paris(paris):
    """BA(pi, beta, 10) reproduces the authors' tight-eps list to 1e-5; eps* <= 2 beta (Remark 4)."""
    n, D = paris
    betas = pv.values.FIG3_BETAS[::4]
    e = pv.tight_eps_ba(n / n.sum(), D, betas)
    np.testing.assert_allclose(e, pv.AUTHORS_TIGHT_EPS["paris"][::4], atol=1e-5)
    assert np.all(e <= 2 * betas + 1e-12)


# ----------------------------------------------------------------------------- properties and helpers
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 6), st.integers(2, 6), st.floats(0.05, 5.0), st.integers(0, 3))
def test_lap_grid_channel_is_2eps_geo_ind(rows, cols, eps, pad):
    """Row normalisation costs at most a factor 2: eps <= eps*(LAP) <= 2 eps."""
    C = pv.lap_grid_channel((rows, cols), eps, pad=pad)
    np.testing.assert_allclose(C.sum(axis=1), 1, atol=1e-12)
    e = geo_ind_epsilon(C, pv.privic_distance((rows, cols)))
    assert e <= 2 * eps + 1e-9
    assert e >= eps - 1e-9


def test_ba_convergence_summary_small():
    D = pv.privic_distance((3, 4))
    p = np.random.default_rng(0).dirichlet(np.ones(12))
    df = pv.ba_convergence_summary(p, D, [1.0, 3.0], tol=1e-8, max_iter=50_000)
    assert list(df.beta) == [1.0, 3.0]
    assert df["converged"].all()
    # converged BA has lower Lagrangian than 10 iterations, hence MI + beta AvgD smaller
    for _, r in df.iterrows():
        assert (
            r["MI (converged)"] + r.beta * r["AvgD (converged)"]
            <= r["MI (10 it.)"] + r.beta * r["AvgD (10 it.)"] + 1e-12
        )


def test_sequential_composition_T_N():
    """T-N: two reports through 2beta-geo-ind BA channels are 4beta-geo-ind."""
    D = pv.privic_distance((4, 4))
    rng = np.random.default_rng(4)
    Cs = [blahut_arimoto(rng.dirichlet(np.ones(16)), D, 0.7).channel for _ in range(2)]
    prod = np.einsum("xa,xb->xab", *Cs).reshape(16, -1)
    assert geo_ind_epsilon(prod, D) <= 2 * 2 * 0.7 + 1e-9


def test_validation_errors():
    with pytest.raises(ValueError):
        pv.island_prior(np.ones(10), "paris")
    with pytest.raises(ValueError):
        pv.island_prior(np.ones(12) / 12, (3, 4), A=(1, 1), mode="authors")
    with pytest.raises(ValueError):
        pv.adversarial_prior(np.ones(165) / 165, -1)
    with pytest.raises(ValueError):
        pv.row_stats(np.ones(10))
    with pytest.raises(ValueError):
        pv.privic(np.ones(4, dtype=int), np.zeros((3, 3)), 1.0, n_cycles=1, ba_iter=1, ibu_iter=1)
    with pytest.raises(ValueError):
        pv.experiments.stat_utility_sweep(PARIS.ravel(), "paris", [1.0, 2.0], [1.0], sims=1, seed=0)
