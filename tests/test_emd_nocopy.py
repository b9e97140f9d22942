"""The 2-D EMD (:func:`ldpnb.measures.emd`) passes a full support's ground distance to POT without the
k x k ``np.ix_`` copy it used to make: the value is bitwise what the copying code gave, on full and partial
supports, square and rectangular, C- and Fortran-ordered distances, counts and grid distances (privic's use)."""

import numpy as np
import pytest

from ldpnb.measures import emd

ot = pytest.importorskip("ot")


def _emd_with_copy(a, b, D):
    """The code before the change: normalise, select both supports with np.ix_ (always a copy), solve."""
    pa = np.asarray(a, float) / np.sum(a)
    pb = np.asarray(b, float) / np.sum(b)
    D = np.asarray(D, float)
    ia, ib = np.flatnonzero(pa > 0), np.flatnonzero(pb > 0)
    sub = np.ascontiguousarray(D[np.ix_(ia, ib)])
    return float(ot.emd2(pa[ia] / pa[ia].sum(), pb[ib] / pb[ib].sum(), sub, numItermax=10_000_000))


def _grid_distance(rows, cols):
    y, x = np.divmod(np.arange(rows * cols), cols)
    return np.hypot(y[:, None] - y[None, :], x[:, None] - x[None, :]) * 0.3


def _cases():
    rng = np.random.default_rng(20261128)
    D = _grid_distance(8, 9)  # 72 cells
    k = D.shape[0]
    full_a, full_b = rng.dirichlet(np.ones(k)), rng.dirichlet(np.full(k, 0.5))
    part_a, part_b = full_a.copy(), full_b.copy()
    part_a[rng.choice(k, 30, replace=False)] = 0
    part_b[rng.choice(k, 41, replace=False)] = 0
    yield "full, full", full_a, full_b, D
    yield "partial, full", part_a, full_b, D
    yield "full, partial", full_a, part_b, D
    yield "partial, partial", part_a, part_b, D
    yield "Fortran-ordered distance", full_a, full_b, np.asfortranarray(D)
    yield "counts", rng.integers(1, 50, k), rng.integers(0, 3, k), D
    R = rng.random((20, 33)) * 5  # rectangular, not a metric
    yield "rectangular, full", rng.dirichlet(np.ones(20)), rng.dirichlet(np.ones(33)), R
    b = rng.dirichlet(np.ones(33))
    b[::3] = 0
    yield "rectangular, partial", rng.dirichlet(np.ones(20)), b, R
    yield "point masses", np.eye(k)[3], np.eye(k)[60], D
    for seed in range(5):  # estimates near the truth: privic's Fig. 3-5 use
        r = np.random.default_rng(seed)
        t = r.dirichlet(np.full(k, 0.3))
        yield f"near, seed {seed}", t, np.clip(t + r.normal(0, 0.002, k), 0, None), D


@pytest.mark.parametrize("case, a, b, D", list(_cases()), ids=[c[0] for c in _cases()])
def test_emd_is_bitwise_the_value_of_the_copying_code(case, a, b, D):
    assert emd(a, b, D) == _emd_with_copy(a, b, D)


def test_a_full_support_is_solved_on_the_callers_distance_matrix(monkeypatch):
    """No copy of a C-contiguous float64 ground distance when both supports are full: POT gets the array."""
    D = _grid_distance(5, 5)
    a = np.full(25, 1 / 25)
    seen = []
    real = ot.emd2

    def spy(x, y, M, **kw):
        seen.append(M)
        return real(x, y, M, **kw)

    monkeypatch.setattr(ot, "emd2", spy)
    emd(a, a[::-1].copy(), D)
    assert seen[-1] is D
    b = a.copy()
    b[0] = 0
    emd(a, b, D)
    assert seen[-1].shape == (25, 24)
