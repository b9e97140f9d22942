"""The maximum-likelihood estimate computed by an interior-point method and certified on the estimate
(``ldpnb.estimators._certify``), and its use by the IBU chapter (``ldpnb.papers.ibu.mle``):
against EM (an independent algorithm), against closed forms, and the certified bound against the true
distance on random problems (it must never be exceeded).
"""

import doctest

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpnb import estimators as est
from ldpnb import measures
from ldpnb.channels import simulate_counts_batch
from ldpnb.estimators import _certify
from ldpnb.estimators._certify import _tree_cuts, mle_distance_bound, mle_interior_point
from ldpnb.mechanisms import geometric_channel, grr_channel, planar_geometric_channel
from ldpnb.papers import ibu
from ldpnb.papers.ibu import mle as ibu_mle

M12 = np.array([[0.45, 0.10, 0.45], [0.05, 0.90, 0.05], [0.45, 0.10, 0.45]])


def _counts(M, R, n=3000, seed=0, alpha=1.0):
    rng = np.random.default_rng(seed)
    theta = rng.dirichlet(np.full(M.shape[0], alpha))
    return simulate_counts_batch(M, rng.multinomial(n, theta), R, rng=rng), theta


def _line(k):
    return np.abs(np.subtract.outer(np.arange(k), np.arange(k))).astype(float)


def test_doctests():
    for mod in (_certify, ibu_mle):
        assert doctest.testmod(mod).failed == 0


@pytest.mark.parametrize(
    "M",
    [geometric_channel(12, 0.4), grr_channel(10, 1.0), geometric_channel(30, 0.05)],
    ids=["geometric", "k-RR", "flat geometric"],
)
def test_interior_point_reaches_the_mle_found_by_em(M):
    C, _ = _counts(M, 4)
    ip = mle_interior_point(M, C)
    em = est.ibu(M, C, criterion="gap", tol=1e-12, accelerate="squarem", max_iter=10**7)
    assert np.all(ip.converged) and np.all(ip.gap <= 1e-13)
    assert np.allclose(ip.estimate.sum(axis=1), 1.0) and np.all(ip.estimate > 0)
    for r in range(4):
        assert ip.loglik[r] >= em.loglik[r] - 1e-12  # at least as high as EM's certified point
        assert ip.loglik[r] == pytest.approx(est.log_likelihood(ip.estimate[r], M, C[r]), abs=1e-12)
        bound = mle_distance_bound(M, C[r], ip.estimate[r])
        assert (
            np.abs(ip.estimate[r] - em.estimate[r]).sum()
            <= bound["l1"] + mle_distance_bound(M, C[r], em.estimate[r])["l1"]
        )


def test_interior_point_equals_inversion_when_inversion_is_a_distribution():
    # k-RR with q in the image of the simplex: the MLE is v = q M^-1 (the likelihood's maximum is q itself)
    M = grr_channel(5, 1.0)
    theta = np.array([0.3, 0.25, 0.2, 0.15, 0.1])
    counts = np.round(theta @ M * 10**6).astype(np.int64)
    v = np.linalg.solve(M.T, counts / counts.sum())
    res = mle_interior_point(M, counts)
    assert np.all(v > 0) and np.allclose(res.estimate, v, atol=1e-10)
    b = mle_distance_bound(M, counts, res.estimate)
    assert b["l1"] < 1e-5 and b["curvature"] > 0


def test_one_run_returns_scalars_and_unobserved_outputs_are_ignored():
    M = geometric_channel(8, 0.5)
    c = np.array([0, 40, 30, 20, 10, 0, 5, 0])
    res = mle_interior_point(M, c)
    assert res.estimate.shape == (8,) and isinstance(res.gap, float) and isinstance(res.converged, bool)
    b = mle_distance_bound(M, c, res.estimate, distance=_line(8))
    assert set(b) == {"gap", "l1", "w1", "curvature", "face"} and all(isinstance(v, float) for v in b.values())


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), k=st.integers(3, 25), eps=st.floats(0.02, 2.0), loose=st.sampled_from([1e-3, 1e-5]))
def test_the_certified_bound_is_never_below_the_true_distance(seed, k, eps, loose):
    """A point stopped early (EM at a loose gap) is within its certified bound of the exact MLE, in
    L1 and in the EMD on the line."""
    M = geometric_channel(k, eps)
    C, _ = _counts(M, 1, n=2000, seed=seed, alpha=0.5)
    exact = mle_interior_point(M, C[0]).estimate
    early = est.ibu(M, C[0], criterion="gap", tol=loose, max_iter=10**6).estimate
    b = mle_distance_bound(M, C[0], early, distance=_line(k))
    b_exact = mle_distance_bound(M, C[0], exact, distance=_line(k))
    assert np.abs(early - exact).sum() <= b["l1"] + b_exact["l1"] + 1e-12
    assert measures.emd_1d_rows(early, exact)[0] <= b["w1"] + b_exact["w1"] + 1e-12


def test_the_bound_follows_the_gap():
    """A smaller certificate gives a smaller bound (the ellipsoid scales as sqrt(g))."""
    M = geometric_channel(40, 0.02)
    C, _ = _counts(M, 1, n=20_000, seed=3)
    bounds = [
        mle_distance_bound(
            M,
            C[0],
            est.ibu(M, C[0], criterion="gap", tol=t, accelerate="squarem", max_iter=10**7).estimate,
            distance=_line(40),
        )["w1"]
        for t in (1e-5, 1e-7, 1e-9)
    ]
    assert bounds[0] > bounds[1] > bounds[2]
    exact = mle_interior_point(M, C[0])
    assert mle_distance_bound(M, C[0], exact.estimate, distance=_line(40))["w1"] < bounds[2]


def test_a_segment_of_mles_has_no_small_bound():
    """Mechanism (12) with {2,2,2,2,1,3}: the MLEs form a segment of L1 length 7/12; no bound smaller than
    the distance from the computed point to the segment's far end may be certified."""
    counts = np.array([1, 4, 1])
    res = mle_interior_point(M12, counts)
    assert res.estimate[1] == pytest.approx(17 / 24, abs=1e-6)
    ends = [np.array([7 / 24, 17 / 24, 0.0]), np.array([0.0, 17 / 24, 7 / 24])]
    far = max(np.abs(res.estimate - e).sum() for e in ends)
    assert mle_distance_bound(M12, counts, res.estimate)["l1"] >= far


def test_tree_cuts_give_the_exact_emd_on_a_line_and_an_upper_bound_on_a_grid():
    rng = np.random.default_rng(1)
    w, A = _tree_cuts(_line(15))
    for _ in range(20):
        a, b = rng.dirichlet(np.ones(15), 2)
        assert w @ np.abs(A @ (a - b)) == pytest.approx(measures.emd_1d_rows(a, b)[0], abs=1e-12)
    from ldpnb.data import lattice_distance_matrix

    D = lattice_distance_matrix(4, 5, 0.5)
    w, A = _tree_cuts(D)
    for _ in range(20):
        a, b = rng.dirichlet(np.ones(20), 2)
        assert w @ np.abs(A @ (a - b)) >= measures.emd(a, b, D) - 1e-12


def test_bad_inputs_are_refused():
    M = grr_channel(3, 1.0)
    with pytest.raises(ValueError, match="columns"):
        mle_interior_point(M, np.array([1, 2]))
    with pytest.raises(ValueError, match="positive total"):
        mle_interior_point(M, np.zeros((2, 3), dtype=int))
    with pytest.raises(ValueError, match="distribution"):
        mle_distance_bound(M, np.array([1, 2, 3]), np.array([0.5, 0.5, 0.5]))
    with pytest.raises(ValueError, match="match"):
        mle_distance_bound(M, np.array([1, 2, 3]), np.full(4, 0.25))
    with pytest.raises(ValueError, match="distance"):
        mle_distance_bound(M, np.array([1, 2, 3]), np.full(3, 1 / 3), distance=_line(4))
    with pytest.raises(ValueError, match="counts"):
        mle_interior_point(M, np.array([1.5, 2, 3]))


# ----------------------------------------------------------------------------------- the chapter's use
def test_mle_runs_certifies_every_run_and_accounts_for_the_dropped_entries():
    M = planar_geometric_channel(4, 5, 0.4, cell_size=0.5)
    from ldpnb.data import lattice_distance_matrix

    D = lattice_distance_matrix(4, 5, 0.5)
    C, theta = _counts(M, 3, n=5000, seed=2, alpha=0.3)
    metric = lambda P, t: measures.emd_rows(P, t, D)  # noqa: E731
    out = ibu.mle_runs(M, C, theta, D, metric=metric)
    assert np.all(out["mle_certified"]) and out["MLE"].shape == (3,)
    exact = mle_interior_point(M, C).estimate
    assert np.all(np.abs(metric(exact, theta) - out["MLE"]) <= out["mle_bound"] + 1e-12)
    assert np.all(out["mle_estimates"][out["mle_estimates"] > 0] >= ibu_mle.SUPPORT_FLOOR)


def test_mle_cross_check_agrees_with_em():
    M = geometric_channel(30, 0.05)
    C, theta = _counts(M, 2, n=5000, seed=4)
    out = ibu.mle_cross_check(M, C, theta, _line(30), metric=measures.emd_1d_rows, tols=(1e-6, 1e-10))
    assert out["violations"] == 0 and out["emd_em"].shape == (2, 2)
    assert np.all(out["between"] <= out["bound_em"][-1] + out["bound_mle"])
    assert np.all(out["bound_em"][0] >= out["bound_em"][1])
    with pytest.raises(ValueError, match="decreasing"):
        ibu.mle_cross_check(M, C, theta, _line(30), metric=measures.emd_1d_rows, tols=(1e-10, 1e-6))


def test_strictly_concave_runs():
    M = grr_channel(4, 1.0)
    C = np.array([[1, 1, 1, 1], [1, 1, 1, 0], [1, 1, 0, 0], [2, 2, 2, 2]])
    assert ibu.strictly_concave_runs(M, C) == 3  # k-RR: k - 1 observed values suffice, k - 2 do not
    assert ibu.strictly_concave_runs(M12, np.array([[1, 4, 1], [0, 4, 0]])) == 0  # rank 2
    with pytest.raises(ValueError, match="columns"):
        ibu.strictly_concave_runs(M, np.ones((2, 3), dtype=int))
