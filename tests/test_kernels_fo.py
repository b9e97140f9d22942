"""Frequency-oracle kernels (issue #22): blocked support counts (exact) and byte-based Bernoulli
bits (exact in law, tested against the law at a stated false-alarm rate)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom, chi2

from ldpnb import mechanisms as M
from ldpnb.mechanisms._common import bernoulli_bits, bool_column_counts
from ldpnb.mechanisms.unary import ue_support_counts


@given(n=st.integers(1, 3000), k=st.integers(1, 70), prob=st.floats(0, 1), seed=st.integers(0, 2**31 - 1))
@settings(max_examples=80, deadline=None)
def test_blocked_column_counts_equal_the_column_sums(n, k, prob, seed):
    B = np.random.default_rng(seed).random((n, k)) < prob
    assert np.array_equal(bool_column_counts(B), B.sum(axis=0))
    assert np.array_equal(bool_column_counts(B.astype(np.uint8)), B.sum(axis=0))


def test_support_counts_of_unary_reports_are_the_column_sums():
    rng = np.random.default_rng(1)
    for k in (8, 13, 64):
        B = M.ue_perturb(rng.integers(0, k, 40_000), k, 1.0, rng=rng)
        assert np.array_equal(ue_support_counts(B), B.sum(axis=0))
        assert np.array_equal(M.OUE(k, 1.0).support_counts(B), B.sum(axis=0))


@pytest.mark.parametrize("prob", [0.0, 1 / 256, 0.2689414213699951, 0.5, 0.9999, 1.0])
def test_bernoulli_bits_follow_the_law(prob):
    """Total count of ones against Binomial(N, prob), two-sided, false-alarm rate 1e-6."""
    rng = np.random.default_rng(7)
    N = 2_000_000
    ones = int(bernoulli_bits(rng, (1000, N // 1000), prob).sum())
    lo, hi = binom.ppf(0.5e-6, N, prob), binom.isf(0.5e-6, N, prob)
    assert lo <= ones <= hi, (prob, ones, lo, hi)


def test_ue_reports_follow_the_channel():
    """Per input, the joint law of 3 bits (8 patterns) by chi-square at a false-alarm rate of 1e-6,
    and the marginal of every bit (p on the user's value, q elsewhere) by binomial bounds."""
    rng = np.random.default_rng(9)
    k, n = 3, 200_000
    for kind in ("oue", "sue"):
        m = M.OUE(k, 1.3) if kind == "oue" else M.SUE(k, 1.3)
        C = m.channel()
        for x in range(k):
            idx = m.report_index(m.perturb(np.full(n, x), rng=rng))
            obs = np.bincount(idx, minlength=C.shape[1])
            stat = float(np.sum((obs - n * C[x]) ** 2 / (n * C[x])))
            assert stat < chi2.isf(1e-6, C.shape[1] - 1), (kind, x, stat)
    k = 200
    p, q = M.ue_params(0.8, "oue")
    B = M.ue_perturb(np.zeros(50_000, dtype=int), k, 0.8, rng=rng)
    counts = B.sum(axis=0)
    alpha = 1e-6 / k
    assert binom.ppf(alpha / 2, 50_000, p) <= counts[0] <= binom.isf(alpha / 2, 50_000, p)
    assert np.all((binom.ppf(alpha / 2, 50_000, q) <= counts[1:]) & (counts[1:] <= binom.isf(alpha / 2, 50_000, q)))
