"""The lenses of ldpnb.measures.lenses: exact values by hand, bounds, and the Monte Carlo attacker."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpnb.measures.lenses import (
    bayes_vulnerability,
    discordant_pairs,
    prior_vulnerability,
    rank_agreement,
    reidentification_accuracy,
    secret_vulnerability,
)
from ldpnb.mechanisms import grr_channel


def test_bayes_vulnerability_of_krr_by_hand():
    k, eps = 4, 1.0
    C = grr_channel(k, eps)
    pi = np.full(k, 1 / k)
    # every column's largest entry is the diagonal one: V = sum_y (1/k) p = p
    p = np.exp(eps) / (np.exp(eps) + k - 1)
    assert bayes_vulnerability(pi, C) == pytest.approx(p, rel=1e-14)
    assert bayes_vulnerability(pi, np.eye(k)) == pytest.approx(1.0)
    assert bayes_vulnerability(pi, np.full((k, 3), 1 / 3)) == pytest.approx(prior_vulnerability(pi))


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.floats(0.05, 4.0), st.integers(0, 10_000))
def test_multiplicative_bayes_leakage_is_at_most_e_eps(k, eps, seed):
    """V(X|Y) <= e^eps V(X) for an eps-LDP channel (and >= V(X))."""
    rng = np.random.default_rng(seed)
    pi = rng.dirichlet(np.ones(k))
    C = grr_channel(k, eps)
    v = bayes_vulnerability(pi, C)
    assert prior_vulnerability(pi) - 1e-12 <= v <= np.exp(eps) * prior_vulnerability(pi) + 1e-12


def test_secret_vulnerability_is_data_processing_bounded():
    rng = np.random.default_rng(1)
    J = rng.dirichlet(np.ones(10)).reshape(2, 5)
    C = rng.dirichlet(np.ones(4), size=5)
    assert secret_vulnerability(J, C) <= secret_vulnerability(J, np.eye(5)) + 1e-12
    assert secret_vulnerability(J, np.eye(5)) == pytest.approx(J.max(axis=0).sum())


def test_reidentification_exact_at_one_collection_and_mc_agrees():
    rng = np.random.default_rng(2)
    PXU = rng.dirichlet(np.ones(4) * 0.5, size=6)
    pu = np.full(6, 1 / 6)
    C = grr_channel(4, 2.0)
    exact, se = reidentification_accuracy(pu, PXU, C, 1)
    W = PXU @ C
    assert exact == pytest.approx((pu[:, None] * W).max(axis=0).sum()) and se == 0.0
    # t = 2 by enumeration of the pairs of reports against the Monte Carlo estimate (4 SE)
    J = pu[:, None, None] * W[:, :, None] * W[:, None, :]
    acc2 = J.reshape(6, -1).max(axis=0).sum()
    mc, se2 = reidentification_accuracy(pu, PXU, C, 2, runs=20_000, rng=3)
    assert abs(mc - acc2) < 4 * se2 + 1e-3


def test_rank_agreement_and_discordant_pairs():
    a = [1.0, 2.0, 3.0, 4.0]
    b = [1.0, 3.0, 2.0, 4.0]
    tau = rank_agreement({"a": a, "b": b})
    assert tau[("a", "b")] == pytest.approx(4 / 6)  # 5 concordant, 1 discordant: (5 - 1) / 6
    assert discordant_pairs(a, b, ["w", "x", "y", "z"]) == [("x", "y")]
    with pytest.raises(ValueError):
        rank_agreement({"a": [1.0, 2.0], "b": [1.0, 2.0, 3.0]})
