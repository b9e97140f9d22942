"""Blahut-Arimoto at large beta, through its log-domain fallback (issue #20, surviving mutant).

ldpnb.mechanisms.rate_distortion computes F(c) in the linear domain and recomputes in the log
domain the rows whose normaliser ``Z(x) = sum_z c(z) e^{-beta d(x, z)}`` underflows (< 1e-250), and
G the columns whose mass underflows.  Nothing exercised those branches, so a sign flip in them
survived.  Here beta and the geometry make both branches run (checked), and the result is compared
with an independent BA iteration written entirely in the log domain (scipy's logsumexp).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import logsumexp

from ldpnb.channels import geo_ind_epsilon_log
from ldpnb.mechanisms import rate_distortion as rd


def _log_domain_ba(prior, d, beta, n_iter):
    """BA (eqs. (1)-(2) of Biswas & Palamidessi) with every quantity a log-probability."""
    logp = np.log(prior / prior.sum())
    logc = np.full(d.shape[1], -np.log(d.shape[1]))  # uniform start, as rate_distortion
    for _ in range(n_iter):
        A = logc[None, :] - beta * d
        logC = A - logsumexp(A, axis=1, keepdims=True)  # F
        logc = logsumexp(logC + logp[:, None], axis=0)  # G
    return logC, logc


def _geometry():
    """Inputs at 0..5 on a line, outputs at 3..8: rows 0-2 are >= 1..3 away from every output."""
    x = np.arange(6.0)
    y = np.arange(3.0, 9.0)
    return np.abs(x[:, None] - y[None, :]), np.abs(x[:, None] - x[None, :])


@pytest.mark.parametrize("beta", [200.0, 350.0, 700.0])
@pytest.mark.parametrize("n_iter", [1, 3, 10])
def test_ba_at_large_beta_matches_a_log_domain_iteration(beta, n_iter):
    d, d_in = _geometry()
    prior = np.array([0.3, 0.1, 0.2, 0.15, 0.15, 0.1])
    # the fallbacks run: some rows' normaliser and some columns' mass underflow in the linear domain
    Z0 = (np.exp(-beta * d) / d.shape[1]).sum(axis=1)
    assert np.any(Z0 < 1e-250) and np.any(Z0 >= 1e-250)
    C1 = np.exp(-beta * d - logsumexp(-beta * d, axis=1, keepdims=True))
    assert np.any(prior @ C1 < 1e-250)

    res = rd.blahut_arimoto(prior, d, beta, n_iter=n_iter)
    logC, logc = _log_domain_ba(prior, d, beta, n_iter)
    assert np.all(np.isfinite(logC))
    np.testing.assert_allclose(res.log_channel, logC, rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(res.channel.sum(axis=1), 1.0, atol=1e-12)
    # the rows computed by the fallback are exact down to float64's smallest normal numbers
    bad = Z0 < 1e-250
    exact = np.exp(logC)
    np.testing.assert_allclose(res.channel[bad], exact[bad], rtol=1e-10, atol=1e-300)
    # the linear rows are exact wherever the unnormalised kernel e^{-beta d} is representable
    ok = (~bad)[:, None] & (beta * d < 700.0)
    np.testing.assert_allclose(res.channel[ok], exact[ok], rtol=1e-10, atol=1e-300)
    np.testing.assert_allclose(
        np.log(res.output_marginal[res.output_marginal > 0]), logc[res.output_marginal > 0], rtol=1e-10
    )
    # Remark 4: every F(c) is 2 beta-geo-indistinguishable w.r.t. d between inputs (exact from logs)
    assert geo_ind_epsilon_log(res.log_channel, d_in) <= 2 * beta * (1 + 1e-9)


def test_linear_rows_keep_entries_whose_kernel_underflows():
    """An entry whose kernel e^{-beta d} underflows (beta d > ~745) in a row computed in the linear
    domain keeps its representable probability (here about 1.9e-174), taken from the exact log channel."""
    d, _ = _geometry()
    beta = 200.0
    prior = np.array([0.3, 0.1, 0.2, 0.15, 0.15, 0.1])
    res = rd.blahut_arimoto(prior, d, beta, n_iter=1)
    logC, _ = _log_domain_ba(prior, d, beta, 1)
    np.testing.assert_allclose(res.channel, np.exp(logC), rtol=1e-10, atol=1e-300)
