"""The certified maximum-likelihood estimate used by the IBU chapter: batched SQUAREM
(``ibu(..., accelerate="squarem", criterion="gap")`` on a batch of runs) against plain IBU and against
the certificate ``log max_x r_x`` (ElSalamouny and Palamidessi, Algorithm 1; Varadhan and Roland 2008).
"""

import numpy as np
import pytest

from ldpnb import estimators as est
from ldpnb.channels import simulate_counts_batch
from ldpnb.mechanisms import geometric_channel, grr_channel


def _counts(M, R, n=3000, seed=0):
    rng = np.random.default_rng(seed)
    theta = rng.dirichlet(np.ones(M.shape[0]))
    return simulate_counts_batch(M, rng.multinomial(n, theta), R, rng=rng)


@pytest.mark.parametrize("M", [geometric_channel(12, 0.4), grr_channel(10, 1.0)], ids=["geometric", "k-RR"])
def test_batch_squarem_reaches_the_certified_mle(M):
    C = _counts(M, 6)
    res = est.ibu(M, C, criterion="gap", tol=1e-9, accelerate="squarem", max_iter=200_000)
    assert res.estimate.shape == (6, M.shape[0]) and np.all(res.converged) and np.all(res.gap <= 1e-9)
    ref = est.ibu(M, C, criterion="gap", tol=1e-10, max_iter=500_000)  # plain EM, tighter
    for r in range(6):
        # the certificate bounds the log-likelihood gap to the maximum: both within 1e-9 of the same maximum
        assert ref.loglik[r] - res.loglik[r] <= 1e-9 + 1e-12
        assert res.loglik[r] - ref.loglik[r] <= 1e-10 + 1e-12
        assert res.loglik[r] == pytest.approx(est.log_likelihood(res.estimate[r], M, C[r]), abs=1e-12)
        assert res.gap[r] == pytest.approx(max(est.ibu_gap(res.estimate[r], M, C[r]), 0.0), abs=1e-12)


def test_batch_squarem_counts_fewer_updates_than_plain_em():
    M = geometric_channel(15, 0.2)
    C = _counts(M, 4, n=5_000, seed=3)
    fast = est.ibu(M, C, criterion="gap", tol=1e-7, accelerate="squarem", max_iter=200_000)
    slow = est.ibu(M, C, criterion="gap", tol=1e-7, max_iter=2_000_000)
    assert np.all(fast.converged) and np.all(slow.converged)
    assert np.all(fast.n_iter < slow.n_iter)


def test_batch_squarem_refuses_other_rules_and_caps():
    M = grr_channel(5, 1.0)
    C = _counts(M, 3)
    with pytest.raises(ValueError, match="gap"):
        est.ibu(M, C, criterion="loglik", tol=1e-8, accelerate="squarem")
    capped = est.ibu(M, C, criterion="gap", tol=1e-300, accelerate="squarem", max_iter=7)
    assert np.all(capped.n_iter <= 7) and not np.any(capped.converged)
    assert np.allclose(capped.estimate.sum(axis=1), 1.0)
