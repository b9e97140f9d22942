"""The aggregated O(k omega) scan of the SS support-count simulator (issue #22) has the exact joint
law of per-user SS reports: chi-square of the whole count vector against its exact law, computed by
enumerating every user's subset distribution, at a false-alarm rate of 1e-6."""

import itertools
from collections import Counter

import numpy as np
import pytest
from scipy.stats import chi2

from ldpnb import mechanisms as M


def _exact_law(N, k, epsilon):
    """P(count vector) for users with value counts N: convolution of the per-user subset laws."""
    omega, p, _ = M.ss_params(k, epsilon)
    laws = []
    for x in range(k):
        others = [v for v in range(k) if v != x]
        law = Counter()
        with_x = list(itertools.combinations(others, omega - 1))
        without = list(itertools.combinations(others, omega))
        for sub in with_x:
            law[tuple(int(v in sub or v == x) for v in range(k))] += p / len(with_x)
        for sub in without:
            law[tuple(int(v in sub) for v in range(k))] += (1 - p) / len(without)
        laws += [law] * int(N[x])
    total = Counter({(0,) * k: 1.0})
    for law in laws:
        nxt = Counter()
        for a, pa in total.items():
            for b, pb in law.items():
                nxt[tuple(i + j for i, j in zip(a, b))] += pa * pb
        total = nxt
    return total


@pytest.mark.parametrize(
    "N,k,epsilon", [((1, 1, 1, 0), 4, 0.5), ((2, 0, 1, 1, 0), 5, 0.3), ((0, 3, 0, 0, 1, 0), 6, 0.2)]
)
def test_exact_scan_has_the_joint_law_of_per_user_reports(N, k, epsilon):
    N = np.asarray(N)
    assert M.ss_params(k, epsilon)[0] >= 2
    law = _exact_law(N, k, epsilon)
    rng = np.random.default_rng(sum(N) * 31 + k)
    reps = 15_000
    draws = Counter(tuple(M.ss_simulate_support_counts(N, epsilon, rng=rng)) for _ in range(reps))
    assert set(draws) <= set(law)
    cells = sorted(law)
    expected = np.array([law[c] * reps for c in cells])
    observed = np.array([draws.get(c, 0) for c in cells])
    keep = expected >= 5  # pool the sparse cells
    e = np.r_[expected[keep], expected[~keep].sum()]
    o = np.r_[observed[keep], observed[~keep].sum()]
    e, o = e[e > 0], o[e > 0]
    stat = float(((o - e) ** 2 / e).sum())
    assert stat < chi2.isf(1e-6, e.size - 1), (stat, e.size)


def test_exact_scan_keeps_n_omega_memberships_and_handles_large_k():
    rng = np.random.default_rng(3)
    for k, eps in ((64, 1.0), (1024, 1.0), (300, 0.1)):
        N = rng.multinomial(50_000, rng.dirichlet(np.ones(k)))
        omega = M.ss_params(k, eps)[0]
        c = M.ss_simulate_support_counts(N, eps, rng=rng)
        assert c.sum() == N.sum() * omega and c.min() >= 0
