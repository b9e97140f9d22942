"""The fast Blahut-Arimoto kernels (issue #22) give the reference iterates.

The reference is the loop that forms the channel at every iteration (``history=True`` runs it): the
marginal-only iteration and the lattice FFT iteration must give the same channel, log channel,
output marginal, iteration count and convergence flag, to rounding.
"""

import numpy as np
import pytest

from ldpnb.data import lattice_distance_matrix
from ldpnb.mechanisms import rate_distortion as rd


def _same(a, b, *, log_atol=1e-9):
    assert a.n_iter == b.n_iter and a.converged == b.converged
    np.testing.assert_allclose(a.channel, b.channel, rtol=0, atol=1e-13)
    np.testing.assert_allclose(a.output_marginal, b.output_marginal, rtol=1e-11, atol=1e-300)
    fin = np.isfinite(a.log_channel)
    assert np.array_equal(fin, np.isfinite(b.log_channel))
    np.testing.assert_allclose(a.log_channel[fin], b.log_channel[fin], rtol=1e-12, atol=log_atol)


CASES = [  # (rows, cols, cell, beta, iteration settings, Dirichlet concentration)
    (5, 6, 1.0, 1.0, dict(n_iter=10), 1.0),
    (8, 8, (1.0, 2.0), 0.3, dict(n_iter=60), 0.3),
    (7, 7, 1.0, 5.0, dict(n_iter=None, tol=1e-10), 1.0),
    (6, 5, 1.0, 1.0, dict(n_iter=None, tol=1e-12, max_iter=50_000), 0.5),
    (4, 4, 1.0, 400.0, dict(n_iter=15), 1.0),  # rows whose normaliser underflows: dense fallback
]


@pytest.mark.parametrize("rows,cols,cell,beta,kw,alpha", CASES)
def test_marginal_iteration_equals_the_channel_iteration(rows, cols, cell, beta, kw, alpha):
    rng = np.random.default_rng(rows * 100 + cols)
    D = lattice_distance_matrix(rows, cols, cell)
    p = rng.dirichlet(np.full(rows * cols, alpha))
    fast = rd.blahut_arimoto(p, D, beta, **kw)
    ref = rd.blahut_arimoto(p, D, beta, history=True, **kw)
    _same(fast, ref)


def test_marginal_iteration_on_a_rectangular_distance_and_zero_prior_mass():
    rng = np.random.default_rng(5)
    D = rng.uniform(0, 3, size=(9, 14))
    p = rng.dirichlet(np.ones(9))
    p[[2, 5]] = 0.0
    for kw in (dict(n_iter=25), dict(n_iter=None, tol=1e-11)):
        _same(rd.blahut_arimoto(p, D, 1.7, **kw), rd.blahut_arimoto(p, D, 1.7, history=True, **kw))


@pytest.mark.parametrize(
    "rows,cols,cell,beta,n_iter,alpha",
    [
        (6, 7, 1.0, 1.0, 10, 1.0),  # below the FFT threshold: dense products from the offsets
        (25, 24, (1.0, 2.0), 0.5, 10, 1.0),  # FFT
        (30, 30, 1.0, 3.0, 30, 0.3),
        (24, 24, 1.0, 400.0, 5, 1.0),  # far outside the FFT's range: dense kernel, log-domain rows
        (40, 40, 1.0, 0.05, 60, 0.05),
    ],
)
def test_lattice_fft_iteration_equals_the_dense_one(rows, cols, cell, beta, n_iter, alpha):
    rng = np.random.default_rng(rows + 7 * cols)
    p = rng.dirichlet(np.full(rows * cols, alpha))
    ref = rd.blahut_arimoto(p, lattice_distance_matrix(rows, cols, cell), beta, n_iter=n_iter, history=True)
    got = rd.blahut_arimoto_lattice(p, rows, cols, beta, cell_size=cell, n_iter=n_iter)
    assert got.n_iter == ref.n_iter
    np.testing.assert_allclose(got.channel, ref.channel, rtol=0, atol=1e-13)
    np.testing.assert_allclose(got.output_marginal, ref.output_marginal, rtol=1e-11, atol=0)
    np.testing.assert_allclose(got.log_channel, ref.log_channel, rtol=1e-12, atol=1e-11)


def test_toeplitz_blocks_is_the_lattice_distance():
    for rows, cols, cell in ((3, 4, 1.0), (5, 2, (0.5, 1.5)), (1, 6, 2.0)):
        h, w = rd._cell_hw(cell)
        T = rd._lattice_offsets(rows, cols, h, w)
        np.testing.assert_array_equal(rd._toeplitz_blocks(T, rows, cols), lattice_distance_matrix(rows, cols, cell))


def test_lattice_refuses_bad_arguments():
    with pytest.raises(ValueError, match="rows \\* cols"):
        rd.blahut_arimoto_lattice(np.ones(10), 3, 3, 1.0)
    with pytest.raises(ValueError, match="cell_size"):
        rd.blahut_arimoto_lattice(np.ones(9), 3, 3, 1.0, cell_size=0.0)
    with pytest.raises(ValueError, match="full-support"):
        rd.blahut_arimoto_lattice(np.ones(9), 3, 3, 1.0, c0=np.r_[0.0, np.ones(8)])


def test_lattice_cell_size_is_one_side_or_a_pair():
    """Issue #40: ``cell_size=[1, 2, 3]`` was accepted (its first two entries used, the third ignored) and
    ``[[1, 2]]`` failed with numpy's "only 0-dimensional arrays" message.  The contract takes a number > 0
    or a pair (height, width) of numbers > 0, and says so in one line naming cell_size."""
    p = np.ones(4) / 4
    for bad, kind in (
        ([1.0, 2.0, 3.0], ValueError),
        ([[1.0, 2.0]], ValueError),
        ([1.0, 0.0], ValueError),
        ([1.0, -2.0], ValueError),
        ([np.nan, 1.0], ValueError),
        (np.inf, ValueError),
        (-1.0, ValueError),
        ("1", TypeError),
        (None, TypeError),
    ):
        with pytest.raises(kind, match="^cell_size must") as info:
            rd.blahut_arimoto_lattice(p, 2, 2, 1.0, cell_size=bad)
        assert "\n" not in str(info.value)
    a = rd.blahut_arimoto_lattice(p, 2, 2, 1.0, cell_size=(1.5, 1.5))
    b = rd.blahut_arimoto_lattice(p, 2, 2, 1.0, cell_size=1.5)
    np.testing.assert_array_equal(a.channel, b.channel)
