"""Property-based tests (hypothesis) of the invariants the book relies on (issue #9).

* every channel's rows sum to 1, its entries are >= 0, and it respects its epsilon (LDP level,
  or geo-ind constant for metric mechanisms);
* IBU's log-likelihood never decreases;
* INV-P (and the simplex projection) returns a distribution;
* estimators are invariant to permuting the users.
"""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ldpnb import channels as mech_channels
from ldpnb import estimators as est
from ldpnb import mechanisms as mech

EPS = st.floats(min_value=0.05, max_value=8.0, allow_nan=False)
SEED = st.integers(min_value=0, max_value=2**32 - 1)
TOL = 1e-9


def _is_channel(C):
    assert np.all(np.isfinite(C)) and np.all(C >= 0)
    np.testing.assert_allclose(C.sum(axis=1), 1.0, atol=1e-12)


def _line(k):
    i = np.arange(k, dtype=float)
    return np.abs(i[:, None] - i[None, :])


# ----------------------------------------------------------------------------- channels respect their epsilon
@given(k=st.integers(2, 30), eps=EPS)
def test_grr_channel(k, eps):
    C = mech.grr_channel(k, eps)
    _is_channel(C)
    assert mech_channels.ldp_epsilon(C) <= eps * (1 + TOL)


@given(k=st.integers(2, 8), eps=EPS, kind=st.sampled_from(["oue", "sue"]))
def test_ue_channel(k, eps, kind):
    C = mech.ue_channel(k, eps, kind)
    _is_channel(C)
    assert mech_channels.ldp_epsilon(C) <= eps * (1 + TOL)


@given(k=st.integers(2, 10), eps=EPS)
def test_ss_channel(k, eps):
    C = mech.ss_channel(k, eps)
    _is_channel(C)
    assert mech_channels.ldp_epsilon(C) <= eps * (1 + TOL)


@given(k=st.integers(2, 3), g=st.integers(2, 5), eps=EPS)
def test_lh_channel(k, g, eps):
    C = mech.lh_channel(k, g, eps)
    _is_channel(C)
    assert mech_channels.ldp_epsilon(C) <= eps * (1 + TOL)


@given(k=st.integers(2, 25), eps=st.floats(0.05, 5.0))
def test_geometric_and_laplace_channels(k, eps):
    for C in (mech.geometric_channel(k, eps), mech.laplace_channel(k, eps)):
        _is_channel(C)
        assert mech_channels.geo_ind_epsilon(C, _line(k)) <= eps * (1 + TOL)


@given(k=st.integers(2, 12), eps=st.floats(0.05, 5.0), seed=SEED)
def test_exponential_channel_on_random_metric(k, eps, seed):
    rng = np.random.default_rng(seed)
    pts = rng.random((k, 2)) * 5
    D = np.hypot(*(pts[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
    assume(np.all(D[~np.eye(k, dtype=bool)] > 1e-3))
    C = mech.exponential_channel(D, eps, half=True)
    _is_channel(C)
    assert mech_channels.geo_ind_epsilon(C, D) <= eps * (1 + TOL)


@settings(max_examples=25)
@given(rows=st.integers(1, 4), cols=st.integers(2, 4), eps=st.floats(0.3, 4.0))
def test_planar_channels(rows, cols, eps):
    from ldpnb.data import lattice_distance_matrix

    D = lattice_distance_matrix(rows, cols)
    for C in (mech.planar_geometric_channel(rows, cols, eps), mech.planar_laplace_channel(rows, cols, eps)):
        _is_channel(C)
        assert mech_channels.geo_ind_epsilon(C, D) <= eps * (1 + 1e-6)


@settings(max_examples=25)
@given(k=st.integers(2, 9), beta=st.floats(0.05, 5.0), seed=SEED, n_iter=st.integers(1, 20))
def test_ba_channels_are_2beta_geo_ind(k, beta, seed, n_iter):
    from ldpnb.mechanisms import blahut_arimoto

    rng = np.random.default_rng(seed)
    pts = rng.integers(0, 4, size=(k, 2)).astype(float)
    D = np.hypot(*(pts[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
    assume(np.all(D[~np.eye(k, dtype=bool)] > 0))
    res = blahut_arimoto(rng.dirichlet(np.ones(k)), D, beta, n_iter=n_iter)
    _is_channel(res.channel)
    # the level from the log channel (no underflow): max (log C[x,y] - log C[x',y]) / d(x,x')
    L = res.log_channel
    diff = (L[:, None, :] - L[None, :, :]).max(axis=2)
    off = ~np.eye(k, dtype=bool)
    assert np.max(diff[off] / D[off]) <= 2 * beta * (1 + 1e-9)


@settings(max_examples=20)
@given(
    eps=st.floats(0.1, 4.0),
    proto=st.sampled_from([("grr", "uniform"), ("oue", "zero"), ("sue", "random"), ("grr", "prior"), ("oue", "prior")]),
    seed=SEED,
)
def test_rsfd_tuple_channel_respects_the_amplified_epsilon(eps, proto, seed):
    from ldpnb.mechanisms import amplified_epsilon, rsfd_tuple_channel

    rng = np.random.default_rng(seed)
    ks = [2, 3]
    priors = [rng.dirichlet(np.ones(k)) + 0.0 for k in ks] if proto[1] == "prior" else None
    if priors is not None:
        priors = [p / p.sum() for p in priors]
    W, _ = rsfd_tuple_channel(ks, eps, *proto, priors=priors)
    _is_channel(W)
    assert mech_channels.ldp_epsilon(W) <= amplified_epsilon(eps, len(ks)) * (1 + TOL)


@settings(max_examples=20)
@given(seed=SEED, eps=st.floats(0.2, 3.0), lam=st.floats(0.2, 0.8))
def test_lift_mechanisms_respect_alip(seed, eps, lam):
    from ldpnb import measures as lift
    from ldpnb import mechanisms as orr
    from ldpnb import mechanisms as watchdog
    from ldpnb.mechanisms import orr as orr_orr

    p_sx = lift.random_joint(3, 5, rng=seed)
    el, eu = lift.alip_budgets(eps, lam)
    srr = orr.subset_random_response(p_sx, el, eu)
    cases = [
        ("ORR", orr_orr.full_channel(p_sx, el, eu), True),
        ("SRR", srr.channel, not srr.fallback),
        ("subset merging", watchdog.subset_merging(p_sx, lift.ALIP(el, eu)).channel(), False),
    ]
    for name, C, promised in cases:
        _is_channel(C)
        J = lift.output_joint(p_sx, C)
        alip = lift.is_alip(J, el, eu, rtol=1e-7)
        if promised:
            assert alip, name
        if alip:  # (eps_l, eps_u)-ALIP implies (eps_l + eps_u)-LDP w.r.t. S
            W = J / J.sum(axis=1, keepdims=True)
            assert mech_channels.ldp_epsilon(W) <= eps * (1 + 1e-7), name


# ----------------------------------------------------------------------------- IBU's log-likelihood never decreases
@st.composite
def channel_and_counts(draw):
    k = draw(st.integers(2, 7))
    m = draw(st.integers(2, 9))
    seed = draw(SEED)
    rng = np.random.default_rng(seed)
    C = rng.dirichlet(np.full(m, draw(st.sampled_from([0.2, 1.0, 5.0]))), size=k)
    counts = rng.integers(0, 50, size=m) * (rng.random(m) < 0.7)
    if counts.sum() == 0:
        counts[0] = 1
    return C, counts


@settings(max_examples=60)
@given(channel_and_counts())
def test_ibu_log_likelihood_never_decreases(cc):
    C, counts = cc
    res = est.ibu(C, counts, tol=0.0, max_iter=200)
    ll = res.trace
    assert np.all(np.isfinite(ll))
    assert np.all(np.diff(ll) >= -1e-12 * np.maximum(1.0, np.abs(ll[1:])))
    assert np.isclose(res.estimate.sum(), 1.0) and np.all(res.estimate >= 0)
    assert ll[-1] == est.log_likelihood(res.estimate, C, counts) or np.isclose(
        ll[-1], est.log_likelihood(res.estimate, C, counts), rtol=1e-10, atol=1e-12
    )


# ----------------------------------------------------------------------------- INV-P returns a distribution
@given(
    k=st.integers(2, 12), eps=st.floats(0.05, 5.0), seed=SEED, family=st.sampled_from(["grr", "geometric", "laplace"])
)
def test_inv_p_returns_a_distribution(k, eps, seed, family):
    C = {"grr": mech.grr_channel, "geometric": mech.geometric_channel, "laplace": mech.laplace_channel}[family](k, eps)
    assume(np.linalg.cond(C) < 1e12)
    counts = np.random.default_rng(seed).integers(0, 30, size=k)
    assume(counts.sum() > 0)
    v = est.inv_projected(C, counts)
    assert v.shape == (k,) and np.all(v >= 0) and np.isclose(v.sum(), 1.0, atol=1e-12)
    w = est.inv_normalized(C, counts)
    assert np.all(w >= 0) and np.isclose(w.sum(), 1.0, atol=1e-12)


@given(st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=1, max_size=30))
def test_simplex_projection_is_a_distribution_and_idempotent(v):
    w = est.project_simplex(v)
    assert np.all(w >= 0) and np.isclose(w.sum(), 1.0)
    np.testing.assert_allclose(est.project_simplex(w), w, atol=1e-12)


# ----------------------------------------------------------------------------- permutation invariance
@settings(max_examples=25)
@given(seed=SEED, eps=st.floats(0.2, 4.0), protocol=st.sampled_from(["grr", "oue", "sue", "olh", "ss"]))
def test_frequency_oracle_estimates_do_not_depend_on_the_order_of_users(seed, eps, protocol):
    from ldpnb.mechanisms import fo_params

    rng = np.random.default_rng(seed)
    k, n = 6, 300
    x = rng.integers(0, k, size=n)
    perm = rng.permutation(n)
    if protocol == "grr":
        y = mech.grr_perturb(x, k, eps, rng=rng)
        s1, s2 = np.bincount(y, minlength=k), np.bincount(y[perm], minlength=k)
    elif protocol == "olh":
        seeds, y = mech.lh_perturb(x, k, eps, rng=rng)
        g = mech.lh_params(eps)[0]
        s1, s2 = mech.lh_support_counts(seeds, y, k, g), mech.lh_support_counts(seeds[perm], y[perm], k, g)
    else:
        B = mech.ss_perturb(x, k, eps, rng=rng) if protocol == "ss" else mech.ue_perturb(x, k, eps, protocol, rng=rng)
        s1, s2 = B.sum(axis=0), B[perm].sum(axis=0)
    p, q = fo_params(protocol, k, eps)
    np.testing.assert_array_equal(est.fo_estimate(s1, n, p, q), est.fo_estimate(s2, n, p, q))


@settings(max_examples=25)
@given(seed=SEED, eps=st.floats(0.2, 4.0))
def test_ibu_and_inv_do_not_depend_on_the_order_of_users(seed, eps):
    rng = np.random.default_rng(seed)
    k, n = 5, 200
    C = mech.geometric_channel(k, eps)
    y = mech_channels.sample_channel(C, rng.integers(0, k, size=n), rng=rng)
    yp = y[rng.permutation(n)]
    c1, c2 = np.bincount(y, minlength=k), np.bincount(yp, minlength=k)
    np.testing.assert_array_equal(est.ibu(C, c1).estimate, est.ibu(C, c2).estimate)
    np.testing.assert_array_equal(est.inv_projected(C, c1), est.inv_projected(C, c2))


@settings(max_examples=15)
@given(seed=SEED, eps=st.floats(0.5, 4.0), proto=st.sampled_from([("grr", "uniform"), ("oue", "zero")]))
def test_rsfd_estimates_do_not_depend_on_the_order_of_users(seed, eps, proto):
    from ldpnb.mechanisms import rsfd_collect
    from ldpnb.mechanisms.multidim import _report_counts, rsfd_estimate_all

    rng = np.random.default_rng(seed)
    ks = np.array([3, 4])
    n = 200
    X = np.column_stack([rng.integers(0, k, size=n) for k in ks])
    reports, _ = rsfd_collect(X, ks, eps, *proto, rng=rng)
    perm = rng.permutation(n)
    r2 = [r[perm] for r in reports]
    e1 = rsfd_estimate_all(_report_counts(reports, ks), n, ks, eps, *proto)
    e2 = rsfd_estimate_all(_report_counts(r2, ks), n, ks, eps, *proto)
    for a, b in zip(e1, e2):
        np.testing.assert_array_equal(a, b)


@settings(max_examples=30)
@given(channel_and_counts(), st.integers(1, 3), SEED)
def test_generalised_ibu_log_likelihood_never_decreases(cc, n_cycles, seed):
    """PRIVIC's GIBU (EM over several channels) and the batched IBUs climb the likelihood too."""
    from ldpnb.estimators import gibu, ibu_rows

    C, counts = cc
    rng = np.random.default_rng(seed)
    channels = [C] + [rng.dirichlet(np.ones(C.shape[1]), size=C.shape[0]) for _ in range(n_cycles - 1)]
    counts_list = [counts] + [rng.integers(1, 20, size=C.shape[1]) for _ in range(n_cycles - 1)]
    res = gibu(channels, counts_list, tol=0.0, max_iter=100)
    ll = np.asarray(res.trace)
    assert np.all(np.isfinite(ll)) and np.all(np.diff(ll) >= -1e-12 * np.maximum(1.0, np.abs(ll[1:])))
    assert np.isclose(res.estimate.sum(), 1.0) and np.all(res.estimate >= 0)
    rows = ibu_rows(C, counts[None, :], tol=0.0, max_iter=100, record_trace=True)
    tr = np.asarray(rows.trace, dtype=float).ravel()
    assert tr.size == 101
    assert np.all(np.diff(tr) >= -1e-12 * np.maximum(1.0, np.abs(tr[1:])))
    one = est.ibu(C, counts, tol=0.0, max_iter=100).estimate
    np.testing.assert_allclose(rows.estimate[0], one, atol=1e-10)
    np.testing.assert_allclose(est.ibu_batch(C, counts[None, :], tol=0.0, max_iter=100)[0], one, atol=1e-10)
