"""Our estimates agree with multi-freq-ldpy's on the same reports (the peer of the benchmark appendix).

With multi-freq-ldpy installed (``pip install -e '.[bench]'``) the peer's own functions are used;
without it (CI installs the default extras only), a line-by-line reimplementation of the peer's
formulas (multi_freq_ldpy 0.2.5: ``Histogram_estimator.MI``/``IBU`` and the parameters of
``GRR``/``UE``/``LH``/``SS``) stands in, so the agreement is always tested.
"""

import math

import numpy as np
import pytest

from ldpnb import mechanisms as M
from ldpnb.channels import DiagPlusConstChannel
from ldpnb.estimators import fo_estimate, ibu, normalize_clip

try:  # the real peer when available
    from multi_freq_ldpy.estimators.Histogram_estimator import IBU as _peer_ibu_jit
    from multi_freq_ldpy.estimators.Histogram_estimator import MI as peer_mi
    from multi_freq_ldpy.pure_frequency_oracles import GRR as peer_grr
    from multi_freq_ldpy.pure_frequency_oracles import SS as peer_ss
    from multi_freq_ldpy.pure_frequency_oracles import UE as peer_ue

    HAVE_PEER = True

    def peer_ibu(k, A, obs_freq, nb_iter, tol):
        return _peer_ibu_jit(k, A, obs_freq, nb_iter, tol, "max_abs")

except ImportError:  # pragma: no cover - exercised in CI without the bench extra
    HAVE_PEER = False

    def peer_mi(count_report, n, p, q):
        est_freq = np.array((count_report - n * q) / (p - q)).clip(0)
        return np.nan_to_num(est_freq / sum(est_freq)) if sum(est_freq) > 0 else est_freq

    def peer_ibu(k, A, obs_freq, nb_iter, tol):
        est_freq = np.ones(k) / k
        est_freq_t = None
        for _ in range(nb_iter):
            est_freq_t = est_freq * np.dot(A, obs_freq / np.dot(A, est_freq))
            if np.abs(est_freq - est_freq_t).max() < tol:
                return est_freq_t
            est_freq = est_freq_t
        return est_freq_t


def peer_params(name, k, eps):
    """The peer's (p, q) (its GRR/UE/LH/SS aggregators, as written there)."""
    if name == "grr":
        p = np.exp(eps) / (np.exp(eps) + k - 1)
        return p, (1 - p) / (k - 1)
    if name == "oue":
        return 1 / 2, 1 / (np.exp(eps) + 1)
    if name == "olh":
        g = int(round(np.exp(eps))) + 1
        return np.exp(eps) / (np.exp(eps) + g - 1), 1 / g
    if name == "ss":
        sub_k = int(max(1, np.rint(k / (np.exp(eps) + 1))))
        p = sub_k * np.exp(eps) / (sub_k * np.exp(eps) + k - sub_k)
        q = ((sub_k - 1) * (sub_k * np.exp(eps)) + (k - sub_k) * sub_k) / ((k - 1) * (sub_k * np.exp(eps) + k - sub_k))
        return p, q
    raise KeyError(name)


def our_params(name, k, eps):
    if name == "grr":
        return M.grr_params(k, eps)
    if name == "oue":
        return M.ue_params(eps, "oue")
    if name == "olh":
        return M.lh_params(eps)[1:]
    return M.ss_params(k, eps)[1:]


CASES = [(name, k, eps) for name in ("grr", "oue", "olh", "ss") for k in (16, 128) for eps in (0.5, 2.0)]


@pytest.mark.parametrize("name,k,eps", CASES)
def test_parameters_agree(name, k, eps):
    np.testing.assert_allclose(our_params(name, k, eps), peer_params(name, k, eps), rtol=1e-12)


def _reports_support(name, k, eps, n, rng):
    """Per-user reports drawn with our samplers, and their support counts."""
    x = rng.choice(k, size=n, p=rng.dirichlet(np.ones(k)))
    if name == "grr":
        y = M.grr_perturb(x, k, eps, rng=rng)
        return y, np.bincount(y, minlength=k)
    if name == "oue":
        B = M.ue_perturb(x, k, eps, "oue", rng=rng)
        return B, B.sum(axis=0)
    if name == "olh":
        seeds, y = M.lh_perturb(x, k, eps, rng=rng)
        return (seeds, y), M.lh_support_counts(seeds, y, k, M.lh_params(eps)[0])
    B = M.ss_perturb(x, k, eps, rng=rng)
    return B, B.sum(axis=0)


@pytest.mark.parametrize("name,k,eps", CASES)
def test_support_count_estimates_agree(name, k, eps, rng):
    n = 3000
    reports, support = _reports_support(name, k, eps, n, rng)
    p, q = our_params(name, k, eps)
    ours = normalize_clip(fo_estimate(support, n, p, q))
    np.testing.assert_allclose(ours, peer_mi(support.astype(float), n, *peer_params(name, k, eps)), atol=1e-12)
    if HAVE_PEER and name == "grr":  # the peer's full aggregator on the same reports
        np.testing.assert_allclose(ours, peer_grr.GRR_Aggregator_MI(list(reports), k, eps), atol=1e-12)
    if HAVE_PEER and name == "oue":
        np.testing.assert_allclose(ours, peer_ue.UE_Aggregator_MI(list(reports.astype(float)), eps, True), atol=1e-12)
    if HAVE_PEER and name == "ss":
        subsets = [np.flatnonzero(row) for row in reports]
        np.testing.assert_allclose(ours, peer_ss.SS_Aggregator_MI(subsets, k, eps), atol=1e-12)


@pytest.mark.parametrize("name,k,eps", CASES)
def test_ibu_agrees_on_the_same_support_counts(name, k, eps, rng):
    """Same number of IBU updates on the same normalised support counts: equal to 1e-10."""
    _, support = _reports_support(name, k, eps, 3000, rng)
    p, q = peer_params(name, k, eps)
    A = np.eye(k)
    A[A == 1] = p
    A[A == 0] = q
    obs_freq = support / support.sum()
    peer = peer_ibu(k, A, obs_freq, 300, -1.0)
    op = M.GRR(k, eps).operator() if name == "grr" else DiagPlusConstChannel.from_support(k, *our_params(name, k, eps))
    ours = ibu(op, support, tol=0, max_iter=300).estimate
    np.testing.assert_allclose(ours, peer, atol=1e-10)
    # run to convergence with each library's own stopping rule (peer: max-abs change < 1e-12; ours:
    # log-likelihood change < 1e-14): IBU creeps towards a boundary MLE, so they stop close, not equal
    peer_conv = peer_ibu(k, A, obs_freq, 10_000, 1e-12)
    np.testing.assert_allclose(ibu(op, support, tol=1e-14, max_iter=10_000).estimate, peer_conv, atol=2e-5)
    if name == "grr":  # and the dense channel path
        np.testing.assert_allclose(ibu(M.grr_channel(k, eps), support, tol=0, max_iter=300).estimate, peer, atol=1e-10)


def test_peer_mode_reported():
    """Records which reference was used (the real package or the reimplementation)."""
    assert isinstance(HAVE_PEER, bool)
    assert math.isfinite(peer_params("ss", 1024, 1.0)[0])
