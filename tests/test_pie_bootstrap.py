"""The uncertainty of the PIE chapter's identification numbers: the user (vertex) bootstrap of a PSE
resting on exact score coincidences and of an FRR at a FAR, the half-sample estimates, and the
helpers that turn runs, rounds and subsets into ldpnb.stats estimates.

The coverage tests simulate score matrices whose rows and columns share their users (dyadic data):
the coincidences of a user with the others are dependent, as in the RH curve of Fig. 6.
"""

from __future__ import annotations

import numpy as np
import pytest

from ldpnb import stats
from ldpnb.measures.pse import frr_at_far, kl_mixed_1d
from ldpnb.papers.pie import identification as ident
from ldpnb.stats import Estimate, exact, from_se


def _split(S):
    mask = ~np.eye(S.shape[0], dtype=bool)
    return np.diag(S).copy(), S[mask]


def _coincidences(rng, n: int, kappa: float) -> dict:
    """One atom of genuine scores (1.0); impostor pair (i, j) hits it with probability kappa u_i u_j,
    u_i ~ Beta(0.5, 3) a user's commonness (dependent pairs), otherwise a continuous score."""
    u = rng.beta(0.5, 3.0, n)
    hit = rng.random((n, n)) < np.clip(kappa * np.outer(u, u), 0, 1)
    S = rng.normal(size=(n, n)) - 5
    S[hit] = 1.0
    np.fill_diagonal(S, 1.0)
    g, im = _split(S)
    return {"genuine": g, "impostor": im, "pse": kl_mixed_1d(g, im, decimals=9)}


def test_atom_decomposition_reproduces_the_estimator():
    """With unit multiplicities AtomScores gives kl_mixed_1d exactly: atoms only, atoms and a
    continuous part, a genuine atom no impostor hits (smoothed count)."""
    rng = np.random.default_rng(0)
    for case in range(4):
        n = 40
        S = rng.normal(size=(n, n))
        if case >= 1:  # rounded scores: many atoms
            S[: n // 2] = np.round(S[: n // 2], 1)
        if case >= 2:  # genuine values no impostor hits
            S[np.diag_indices(n)] = 50 + np.arange(n) % 3
        if case == 3:  # one genuine atom hit by a few pairs
            S[np.diag_indices(n)] = 7.0
            S[0, 1] = S[3, 2] = 7.0
        g, im = _split(S)
        a = ident.atom_scores(g, im)
        assert float(a.pse(np.ones((1, n)))[0]) == pytest.approx(kl_mixed_1d(g, im, decimals=9), abs=1e-12)
        # a resample that doubles one user and drops another is still finite
        W = np.ones((1, n))
        W[0, 0], W[0, 1] = 2, 0
        assert np.isfinite(a.pse(W)).all()


def test_weighted_frr_reproduces_frr_at_far():
    rng = np.random.default_rng(1)
    for ties in (False, True):
        S = rng.normal(size=(60, 60)) + 2.0 * np.eye(60)
        if ties:  # the zero floor of offset scores (Fig. 7)
            S[rng.random(S.shape) < 0.6] = 0.0
        g, im = _split(S)
        v = ident.VerificationScores.of(g, im)
        fars = (0.001, 0.01, 0.1, 0.5)
        got = v.frr(np.ones((1, 60)), fars)[0]
        assert got == pytest.approx([frr_at_far(g, im, f) for f in fars])


def test_pse_bootstrap_refuses_different_users_and_wrong_scores():
    rng = np.random.default_rng(2)
    a, b = _coincidences(rng, 30, 0.5), _coincidences(rng, 31, 0.5)
    with pytest.raises(ValueError, match="same users"):
        ident.pse_bootstrap([a, b], n_boot=200, rng=0)
    with pytest.raises(ValueError, match="decomposition"):
        ident.pse_bootstrap([{**a, "pse": a["pse"] + 1}], n_boot=200, rng=0)


def _coverage(n: int, kappa: float, datasets: int, seed: int) -> tuple[float, float]:
    """(coverage of the 95 % interval for the estimator's mean, mean half-width / (1.96 true SD))."""
    rng = np.random.default_rng(seed)
    ref = [_coincidences(rng, n, kappa)["pse"] for _ in range(1500)]
    truth, sd = float(np.mean(ref)), float(np.std(ref))
    cover, width = [], []
    for k in range(datasets):
        e = ident.pse_bootstrap([_coincidences(rng, n, kappa)], n_boot=400, rng=k)
        cover.append(e.low[0] <= truth <= e.high[0])
        width.append((e.high[0] - e.low[0]) / 2)
    return float(np.mean(cover)), float(np.mean(width)) / (1.96 * sd)


@pytest.mark.slow
@pytest.mark.parametrize("kappa, low", [(0.5, 0.92), (0.1, 0.93), (0.04, 0.93)])
def test_user_bootstrap_covers_a_count_of_coincidences(kappa, low):
    """About 140, 28 and 11 coincidences among 120 users: the intervals cover the estimator's mean at
    least at their level (measured 95.7, 98 and 99 % with 300 data sets; conservative at small counts,
    up to 1.6 times too wide), where a half of the users keeps a quarter of the pairs."""
    cover, width = _coverage(120, kappa, 200, seed=int(kappa * 100))
    assert low <= cover <= 1.0, cover
    assert 0.85 <= width <= 1.8, width


def test_user_bootstrap_width_matches_the_sampling_spread():
    """A fast version of the coverage test (about 140 coincidences among 100 users)."""
    cover, width = _coverage(100, 0.6, 40, seed=3)
    assert cover >= 0.85 and 0.8 <= width <= 1.4, (cover, width)


@pytest.mark.slow
def test_user_bootstrap_of_an_frr_matches_its_sampling_spread():
    """Scores with user effects (a_i + b_j + noise): the bootstrap SD of the FRR at FAR 1 % against
    its SD over independent score matrices."""
    rng = np.random.default_rng(4)
    n = 80

    def draw():
        a, b = rng.normal(0, 0.7, n), rng.normal(0, 0.7, n)
        S = a[:, None] + b[None, :] + rng.normal(size=(n, n))
        S[np.diag_indices(n)] += 2.5
        g, im = _split(S)
        return {"genuine": g, "impostor": im}

    sd = np.std([frr_at_far(r["genuine"], r["impostor"], 0.01) for r in (draw() for _ in range(600))])
    ses = [float(ident.frr_bootstrap([draw()], (0.01,), n_boot=300, rng=k).se[0]) for k in range(60)]
    assert 0.8 <= np.mean(ses) / sd <= 1.4, (np.mean(ses), sd)


def test_frr_contrast_is_the_paired_difference():
    rng = np.random.default_rng(5)
    S = rng.normal(size=(40, 40)) + 2 * np.eye(40)
    g, im = _split(S)
    a, b = {"genuine": g, "impostor": im}, {"genuine": g + 0.5, "impostor": im}
    e = ident.frr_bootstrap([a, b], (0.1,), contrast=True, n_boot=300, rng=1)
    assert float(e.value[0]) == pytest.approx(frr_at_far(g + 0.5, im, 0.1) - frr_at_far(g, im, 0.1))
    assert e.high[0] <= 0  # higher genuine scores: never a higher FRR
    with pytest.raises(ValueError, match="two experiments"):
        ident.frr_bootstrap([a], (0.1,), contrast=True, n_boot=300, rng=1)


def test_half_sample_estimate_uses_t_and_bonferroni():
    subs = np.array([[1.0, 2.0], [1.2, 2.4], [0.8, 1.6], [1.1, 2.2]])
    e = stats.half_sample_estimate([1.0, 2.0], subs, 100)
    assert np.allclose(e.se, subs.std(axis=0, ddof=1))
    from scipy import stats as st

    q = st.t.ppf(0.975, 3)
    assert np.allclose(e.high - e.value, q * e.se)
    joint = stats.half_sample_estimate([1.0, 2.0], subs, 100, simultaneous=True)
    assert np.all(joint.high > e.high) and joint.simultaneous
    with pytest.raises(ValueError, match="one column per value"):
        stats.half_sample_estimate([1.0], subs, 100)


def test_join_estimates_checks_bonferroni():
    a = Estimate([1.0, 2.0], [0.8, 1.7], [1.2, 2.3], level=0.975, method="t", n_runs=9, simultaneous=True)
    j = stats.join_estimates([a, a])
    assert j.shape == (4,) and j.level == 0.95 and j.simultaneous
    assert stats.join_estimates([exact([3.0]), from_se([1.0], [0.1], simultaneous=True)]).shape == (2,)
    with pytest.raises(ValueError, match="Bonferroni"):
        stats.join_estimates([from_se([1.0], [0.1]), from_se([1.0], [0.1])])  # 0.05 + 0.05 > 0.05
    with pytest.raises(ValueError, match="Bonferroni"):
        stats.join_estimates([Estimate([1.0, 2.0], [0.8, 1.7], [1.2, 2.3], level=0.99, method="t", n_runs=9)])
