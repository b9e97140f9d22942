"""Structured channel operators (k-RR, diagonal plus constant, FFT convolution with exact clamping)
and the IBU fast paths: same products as the dense matrices and same IBU iterates (to 1e-12)."""

import numpy as np
import pytest

from ldpnb import channels as M_channels
from ldpnb import mechanisms as M
from ldpnb.channels import ConvolutionChannel, DiagPlusConstChannel, is_operator
from ldpnb.estimators import ibu, ibu_batch, log_likelihood
from ldpnb.mechanisms import GRROperator

TOL = 1e-12


def _check_products(op, D, rng):
    k, m = D.shape
    assert op.shape == (k, m)
    np.testing.assert_allclose(op.dense(), D, rtol=0, atol=TOL)
    th = rng.dirichlet(np.ones(k), size=3)
    r = rng.random((3, m))
    np.testing.assert_allclose(op.matvec(th), th @ D, rtol=0, atol=TOL)
    np.testing.assert_allclose(op.rmatvec(r), r @ D.T, rtol=0, atol=TOL)
    np.testing.assert_allclose(op.matvec(th[0]), th[0] @ D, rtol=0, atol=TOL)
    np.testing.assert_allclose(op.rmatvec(r[0]), D @ r[0], rtol=0, atol=TOL)


# ------------------------------------------------------------------------ products
@pytest.mark.parametrize("k,eps", [(2, 0.5), (7, 1.0), (50, 3.0), (300, 0.1)])
def test_grr_operator_equals_grr_channel(k, eps, rng):
    op = GRROperator(k, eps)
    assert is_operator(op) and op.stochastic
    _check_products(op, M.grr_channel(k, eps), rng)


def test_diag_plus_const_validation_and_support_matrix(rng):
    with pytest.raises(ValueError, match="sum to 1"):
        DiagPlusConstChannel(0.5, 0.2, 4)
    with pytest.raises(ValueError, match=r"b must be a finite real number in \[0"):
        DiagPlusConstChannel(0.5, -0.1, 4, support=True)
    with pytest.raises(ValueError, match="nonnegative"):
        DiagPlusConstChannel(-0.5, 0.1, 4, support=True)
    p, q = M.ue_params(1.0, "oue")
    op = DiagPlusConstChannel.from_support(10, p, q)
    assert not op.stochastic
    D = np.full((10, 10), q)
    np.fill_diagonal(D, p)
    _check_products(op, D, rng)
    with pytest.raises(ValueError):
        DiagPlusConstChannel.from_support(10, 0.2, 0.3)


@pytest.mark.parametrize("k", [2, 3, 9, 40])
@pytest.mark.parametrize("eps", [0.05, 0.7, 4.0])
def test_linear_geometric_and_laplace_clamped(k, eps, rng):
    _check_products(ConvolutionChannel.geometric(k, eps), M.geometric_channel(k, eps), rng)
    _check_products(ConvolutionChannel.laplace(k, eps), M.laplace_channel(k, eps), rng)
    _check_products(ConvolutionChannel.laplace(k, eps, spacing=0.5), M.laplace_channel(k, eps, spacing=0.5), rng)


@pytest.mark.parametrize("rows,cols", [(1, 5), (4, 1), (2, 2), (5, 7), (9, 6)])
@pytest.mark.parametrize("eps", [0.3, 1.5])
def test_planar_channels_clamped_exact(rows, cols, eps, rng):
    _check_products(
        ConvolutionChannel.planar_geometric(rows, cols, eps), M.planar_geometric_channel(rows, cols, eps), rng
    )
    _check_products(
        ConvolutionChannel.planar_laplace(rows, cols, eps, cell_size=(1.0, 0.6), subdivisions=3),
        M.planar_laplace_channel(rows, cols, eps, cell_size=(1.0, 0.6), subdivisions=3),
        rng,
    )


def _clamp_dense(K, grid):
    """Reference: the clamped channel by brute force over inputs and offsets."""
    h = [(s - 1) // 2 for s in K.shape]
    cells = list(np.ndindex(*grid))
    C = np.zeros((len(cells), len(cells)))
    for xi, x in enumerate(cells):
        for off in np.ndindex(*K.shape):
            z = tuple(min(max(x[a] + off[a] - h[a], 0), grid[a] - 1) for a in range(len(grid)))
            C[xi, np.ravel_multi_index(z, grid)] += K[off]
    return C


def _full_dense(K, grid):
    h = [(s - 1) // 2 for s in K.shape]
    out = tuple(n + 2 * hh for n, hh in zip(grid, h))
    cells = list(np.ndindex(*grid))
    C = np.zeros((len(cells), int(np.prod(out))))
    for xi, x in enumerate(cells):
        for off in np.ndindex(*K.shape):
            C[xi, np.ravel_multi_index(tuple(x[a] + off[a] for a in range(len(grid))), out)] += K[off]
    return C


@pytest.mark.parametrize(
    "kshape,grid", [((7,), (3,)), ((3,), (8,)), ((5, 3), (4, 6)), ((9, 9), (3, 2)), ((1, 5), (4, 4))]
)
def test_arbitrary_kernel_clamp_and_full_against_brute_force(kshape, grid, rng):
    K = rng.random(kshape)
    K /= K.sum()
    _check_products(ConvolutionChannel(K, grid, mode="clamp"), _clamp_dense(K, grid), rng)
    op = ConvolutionChannel(K, grid, mode="full")
    _check_products(op, _full_dense(K, grid), rng)
    assert op.stochastic


def test_convolution_validation():
    with pytest.raises(ValueError, match="odd"):
        ConvolutionChannel(np.ones(4) / 4, (5,))
    with pytest.raises(ValueError, match="one axis per grid axis"):
        ConvolutionChannel(np.ones(3) / 3, (5, 5))
    with pytest.raises(ValueError, match=r"kernel must be .* in \[0, inf\]"):
        ConvolutionChannel(np.array([0.5, 0.7, -0.2]), (5,))
    with pytest.raises(ValueError, match="mode"):
        ConvolutionChannel(np.ones(3) / 3, (5,), mode="wrap")
    with pytest.raises(ValueError, match="last axis"):
        GRROperator(5, 1.0).matvec(np.ones(4))


# ------------------------------------------------------------------------ IBU fast paths
def _same_ibu(D, op, counts, **kw):
    a, b = ibu(D, counts, **kw), ibu(op, counts, **kw)
    assert a.n_iter == b.n_iter and a.stopped == b.stopped
    np.testing.assert_allclose(b.estimate, a.estimate, rtol=0, atol=TOL)
    np.testing.assert_allclose(b.loglik, a.loglik, rtol=0, atol=TOL)
    np.testing.assert_allclose(b.trace, a.trace, rtol=0, atol=TOL)
    np.testing.assert_allclose(b.gap, a.gap, rtol=0, atol=TOL)
    return a, b


@pytest.mark.parametrize("case", ["grr", "geometric", "laplace", "planar_geometric", "planar_laplace"])
def test_ibu_operator_same_iterates_as_dense(case, rng):
    D, op = {
        "grr": lambda: (M.grr_channel(40, 1.2), M.GRR(40, 1.2).operator()),
        "geometric": lambda: (M.geometric_channel(30, 0.4), ConvolutionChannel.geometric(30, 0.4)),
        "laplace": lambda: (M.laplace_channel(30, 0.6), ConvolutionChannel.laplace(30, 0.6)),
        "planar_geometric": lambda: (
            M.planar_geometric_channel(6, 7, 0.8),
            ConvolutionChannel.planar_geometric(6, 7, 0.8),
        ),
        "planar_laplace": lambda: (M.planar_laplace_channel(5, 5, 0.5), ConvolutionChannel.planar_laplace(5, 5, 0.5)),
    }[case]()
    k = D.shape[0]
    x = rng.choice(k, size=2000, p=rng.dirichlet(np.ones(k) * 0.5))
    counts = M_channels.simulate_counts(D, np.bincount(x, minlength=k), rng=rng)
    counts[rng.choice(k, size=k // 4, replace=False)] = 0  # unobserved outputs are dropped
    _same_ibu(D, op, counts, tol=0, max_iter=400)
    _same_ibu(D, op, counts, tol=1e-9, max_iter=5000)
    th0 = rng.dirichlet(np.ones(k))
    _same_ibu(D, op, counts, theta0=th0, tol=0, max_iter=50)
    assert log_likelihood(th0, op, counts) == pytest.approx(log_likelihood(th0, D, counts), abs=TOL)


def test_ibu_batch_operator_same_as_dense(rng):
    D, op = M.planar_geometric_channel(5, 6, 0.6), ConvolutionChannel.planar_geometric(5, 6, 0.6)
    Q = rng.integers(0, 30, size=(6, 30))
    Q[:, 3] = 0
    Q[2, :10] = 0
    for tol in (0.0, 1e-10):
        np.testing.assert_allclose(
            ibu_batch(op, Q, tol=tol, max_iter=300), ibu_batch(D, Q, tol=tol, max_iter=300), rtol=0, atol=TOL
        )
    K, Dk = GRROperator(20, 0.5), M.grr_channel(20, 0.5)
    Q = rng.integers(0, 50, size=(4, 20))
    np.testing.assert_allclose(ibu_batch(K, Q, tol=1e-11), ibu_batch(Dk, Q, tol=1e-11), rtol=0, atol=TOL)
    # each row equals its own ibu run
    B = ibu_batch(K, Q, tol=1e-11)
    for i in range(4):
        np.testing.assert_allclose(B[i], ibu(K, Q[i], tol=1e-11).estimate, rtol=0, atol=TOL)


def test_support_matrix_ibu_is_the_dense_support_update(rng):
    """IBU on a support matrix (rows not summing to 1): the update of multi-freq-ldpy."""
    k = 12
    p, q = M.ue_params(1.0, "oue")
    A = np.full((k, k), q)
    np.fill_diagonal(A, p)
    support = M.ue_simulate_support_counts(rng.multinomial(5000, np.ones(k) / k), 1.0, "oue", rng=rng)
    obs = support / support.sum()
    est = np.ones(k) / k
    for _ in range(200):
        est = est * (A @ (obs / (A @ est)))
    r = ibu(DiagPlusConstChannel.from_support(k, p, q), support, tol=0, max_iter=200)
    np.testing.assert_allclose(r.estimate, est, rtol=0, atol=TOL)


def test_ibu_operator_errors():
    op = ConvolutionChannel(np.array([0.0, 1.0, 0.0]), (4,), mode="full")  # identity on 4 of 6 outputs
    with pytest.raises(ValueError, match="impossible"):
        ibu(op, [1, 0, 0, 0, 0, 0])
    with pytest.raises(ValueError, match="length"):
        ibu(GRROperator(5, 1.0), [1, 2, 3])
    with pytest.raises(ValueError, match="probability 0"):
        ibu(op, [0, 1, 1, 0, 0, 0], theta0=[1.0, 0, 0, 0])


@pytest.mark.parametrize("criterion,tol", [("max_abs", 1e-10), ("l1", 1e-8), ("loglik", 1e-12)])
def test_stopping_criteria_same_on_dense_and_operator(criterion, tol, rng):
    k = 12
    counts = rng.integers(1, 200, size=k)
    for D, op in [
        (M.grr_channel(k, 1.0), GRROperator(k, 1.0)),
        (M.geometric_channel(k, 0.8), ConvolutionChannel.geometric(k, 0.8)),
    ]:
        a, b = _same_ibu(D, op, counts, tol=tol, max_iter=20_000, criterion=criterion)
        assert a.stopped
        prev = ibu(D, counts, tol=0, max_iter=a.n_iter - 1).estimate
        d = np.abs(a.estimate - prev)
        assert (d.max() if criterion == "max_abs" else d.sum()) < tol or criterion == "loglik"
    with pytest.raises(ValueError, match="criterion"):
        ibu(M.grr_channel(k, 1.0), counts, criterion="rel")


def test_grr_fast_loop_with_unobserved_outputs_and_theta0(rng):
    k = 30
    D, op = M.grr_channel(k, 0.7), GRROperator(k, 0.7)
    counts = rng.integers(0, 50, size=k)
    counts[:5] = 0
    _same_ibu(D, op, counts, tol=0, max_iter=200)
    counts = rng.integers(1, 50, size=k)
    _same_ibu(D, op, counts, theta0=rng.dirichlet(np.ones(k)), tol=1e-11, max_iter=5000)


# ------------------------------------------------------------------------ trimmed kernel
@pytest.mark.parametrize("rows,cols,eps", [(30, 30, 2.0), (24, 16, 3.0), (60, 12, 1.5)])
def test_trimmed_planar_kernel_pads_less_and_gives_the_dense_iterates(rows, cols, eps, rng):
    """Large eps: the products use a sub-kernel (dropped mass <= 2**-53), pad to less than the whole
    kernel, and IBU on it has the dense iterates (and those of the untrimmed operator) to 1e-12."""
    op = ConvolutionChannel.planar_geometric(rows, cols, eps)
    exact = ConvolutionChannel(op.kernel, (rows, cols), trim=0.0)
    assert op._h < op.h and exact._h == exact.h and exact.dropped == 0.0
    assert 0.0 <= op.dropped <= 2.0**-53
    assert np.prod(op._L) < np.prod(exact._L)
    D = M.planar_geometric_channel(rows, cols, eps)
    _check_products(op, D, rng)
    k = rows * cols
    x = rng.choice(k, size=3000, p=rng.dirichlet(np.ones(k) * 0.3))
    counts = M_channels.simulate_counts(D, np.bincount(x, minlength=k), rng=rng)
    _same_ibu(D, op, counts, tol=0, max_iter=300)
    _same_ibu(exact, op, counts, tol=0, max_iter=300)
    _same_ibu(D, op, counts, tol=1e-9, max_iter=3000, criterion="gap")


@pytest.mark.parametrize("k,eps", [(60, 2.5), (200, 1.0)])
def test_trimmed_linear_kernels(k, eps, rng):
    for op, D in (
        (ConvolutionChannel.geometric(k, eps), M.geometric_channel(k, eps)),
        (ConvolutionChannel.laplace(k, eps), M.laplace_channel(k, eps)),
    ):
        assert op._h[0] < op.h[0] and op.dropped <= 2.0**-53
        _check_products(op, D, rng)


def test_small_eps_keeps_the_whole_kernel_and_edge_pad_is_numpy_pad(rng):
    op = ConvolutionChannel.planar_geometric(10, 10, 0.3)
    assert op._h == op.h and op.dropped == 0.0
    V = rng.random((3, 5, 4))
    from ldpnb.channels.structured import _edge_pad

    for pads in ((2, 3), (0, 1), (4, 0)):
        np.testing.assert_array_equal(
            _edge_pad(V, pads), np.pad(V, [(0, 0), (pads[0],) * 2, (pads[1],) * 2], mode="edge")
        )
    np.testing.assert_array_equal(_edge_pad(V, (2,)), np.pad(V, [(0, 0), (0, 0), (2, 2)], mode="edge"))
    with pytest.raises(Exception):
        ConvolutionChannel(op.kernel, (10, 10), trim=0.5)


def test_the_former_names_are_aliases_of_the_families_operators():
    """KRRChannel and ConvolutionChannel.geometric/laplace/planar_* are kept for one release: the
    same operators as the mechanisms' own (products bit for bit)."""
    from ldpnb.channels import KRRChannel

    assert KRRChannel is GRROperator and isinstance(M.GRR(7, 0.4).operator(), GRROperator)
    theta = np.random.default_rng(0).dirichlet(np.ones(12))
    pairs = [
        (ConvolutionChannel.geometric(12, 0.5), M.TruncatedGeometric(12, 0.5).operator()),
        (ConvolutionChannel.laplace(12, 0.5), M.DiscreteLaplace(12, 0.5).operator()),
        (ConvolutionChannel.planar_geometric(3, 4, 0.7, 0.5), M.PlanarGeometric(3, 4, 0.7, 0.5).operator()),
        (ConvolutionChannel.planar_laplace(3, 4, 0.7, 0.5), M.PlanarLaplace(3, 4, 0.7, 0.5).operator()),
    ]
    for old, new in pairs:
        np.testing.assert_array_equal(old.matvec(theta), new.matvec(theta))
        np.testing.assert_array_equal(old.rmatvec(theta), new.rmatvec(theta))
    for m in (
        M.GRR(12, 0.5),
        M.TruncatedGeometric(12, 0.5),
        M.DiscreteLaplace(12, 0.5),
        M.PlanarGeometric(3, 4, 0.7, 0.5),
        M.PlanarLaplace(3, 4, 0.7, 0.5),
    ):
        np.testing.assert_allclose(m.operator().dense(), m.channel(), rtol=1e-9, atol=1e-15)


# ------------------------------------------------------------------------ the products' contract (issue #40)
def _operators():
    K = np.array([0.1, 0.2, 0.4, 0.2, 0.1])
    K2 = np.outer(K, K[1:4] / K[1:4].sum())
    return {
        "grr": GRROperator(7, 0.8),
        "support": DiagPlusConstChannel.from_support(6, 0.6, 0.1),
        "clamp": ConvolutionChannel(K, 9, mode="clamp"),
        "full": ConvolutionChannel(K, 9, mode="full"),
        "planar": ConvolutionChannel(K2, (4, 5), mode="clamp"),
        "hr": M.HR(6, 1.0).operator(),
        "hrr": M.HRR(6, 1.0).operator(),
        "geometric": M.TruncatedGeometric(40, 0.3).operator(),
    }


@pytest.mark.parametrize("name", list(_operators()))
def test_the_products_are_linear_maps_for_any_sign(name, rng):
    """matvec and rmatvec are the products with the matrix for vectors of any sign (LSQR, gradients and
    differences of distributions apply them to such vectors).  The convolution used to clip its output
    at 0 whatever the input: ``matvec(-e_0)`` was 0 instead of minus the first row."""
    op = _operators()[name]
    D = op.dense()
    k, m = op.shape
    th = rng.normal(size=(3, k))
    r = rng.normal(size=(3, m))
    np.testing.assert_allclose(op.matvec(th), th @ D, rtol=0, atol=TOL)
    np.testing.assert_allclose(op.rmatvec(r), r @ D.T, rtol=0, atol=TOL)
    np.testing.assert_allclose(op.matvec(-np.eye(k)[0]), -D[0], rtol=0, atol=TOL)


@pytest.mark.parametrize("name", list(_operators()))
def test_the_public_products_are_the_unchecked_ones_ibu_calls(name, rng):
    """For a nonnegative theta (IBU's iterates) the checked products return the very arrays of the
    unchecked ``_matvec`` / ``_rmatvec`` that the engines call once per update."""
    op = _operators()[name]
    k, m = op.shape
    r = rng.random((3, m))
    p = rng.dirichlet(np.ones(k), size=2)
    np.testing.assert_array_equal(op.matvec(p), op._matvec(p))
    np.testing.assert_array_equal(op.rmatvec(r), op._rmatvec(r))
    assert np.all(op.matvec(p) >= 0)


@pytest.mark.parametrize("name", list(_operators()))
def test_the_products_refuse_what_is_not_a_finite_vector_of_the_right_length(name):
    """Each refusal is one line naming the argument.  NaN and infinite entries used to propagate into
    the result (``GRROperator(4, 1).matvec([1, 2, 3, inf])`` gave ``[inf, inf, inf, inf]``)."""
    op = _operators()[name]
    k, m = op.shape
    for method, n, arg in ((op.matvec, k, "theta"), (op.rmatvec, m, "r")):
        for bad, kind in (
            (np.full(n, np.nan), ValueError),
            (np.r_[np.ones(n - 1), np.inf], ValueError),
            (np.ones(n + 1), ValueError),
            (np.ones((2, n - 1)), ValueError),
            (3.0, ValueError),
            ("abc", TypeError),
            (None, TypeError),
            (np.ones(n, dtype=bool), TypeError),
            (np.ones(n, dtype=complex), TypeError),
        ):
            with pytest.raises(kind, match=rf"^{arg} must") as info:
                method(bad)
            assert "\n" not in str(info.value)


def test_a_subclass_of_the_former_interface_still_runs_ibu():
    """An operator written against the former interface (overriding matvec and rmatvec, not the unchecked
    _matvec/_rmatvec the engines call) gives the same IBU iterates as the dense matrix."""
    from ldpnb.channels import ChannelOperator

    C = M.GRR(5, 1.0).channel()

    class Former(ChannelOperator):
        shape = (5, 5)

        def matvec(self, theta):
            return np.asarray(theta) @ C

        def rmatvec(self, r):
            return np.asarray(r) @ C.T

    counts = np.array([30.0, 20, 10, 5, 1])
    a, b = ibu(C, counts, tol=0, max_iter=50), ibu(Former(), counts, tol=0, max_iter=50)
    np.testing.assert_allclose(a.estimate, b.estimate, rtol=0, atol=1e-12)

    class Bare(ChannelOperator):
        shape = (2, 2)

    with pytest.raises(NotImplementedError, match="_matvec"):
        Bare().dense()
