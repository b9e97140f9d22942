import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ldpnb.measures import emd, emd_1d, l1_distance, squared_error, total_variation


def test_emd_1d_closed_form_matches_pot():
    rng = np.random.default_rng(1)
    for k in (2, 5, 100):
        a, b = rng.dirichlet(np.ones(k)), rng.dirichlet(np.ones(k))
        D = np.abs(np.subtract.outer(np.arange(k), np.arange(k))).astype(float)
        assert emd_1d(a, b) == pytest.approx(emd(a, b, D), abs=1e-9)
        assert emd_1d(a, b, spacing=0.5) == pytest.approx(0.5 * emd(a, b, D), abs=1e-9)


def test_emd_point_masses_and_counts():
    D = np.array([[0.0, 3.0], [3.0, 0.0]])
    assert emd([1, 0], [0, 1], D) == pytest.approx(3.0)
    assert emd([10, 0], [0, 4], D) == pytest.approx(3.0)  # counts are normalised
    assert emd([0.5, 0.5], [0.5, 0.5], D) == 0.0


def test_emd_validation():
    with pytest.raises(ValueError, match="shape"):
        emd([0.5, 0.5], [0.5, 0.5], np.zeros((3, 3)))
    with pytest.raises(ValueError, match=r"a must be .* in \[0, inf\]"):
        emd([-0.5, 1.5], [0.5, 0.5], np.zeros((2, 2)))
    with pytest.raises(ValueError, match="positive total"):
        emd_1d([0, 0], [0.5, 0.5])


@given(st.integers(2, 8), st.integers(0, 10_000))
def test_emd_is_a_metric_on_a_line(k, seed):
    rng = np.random.default_rng(seed)
    a, b, c = (rng.dirichlet(np.ones(k)) for _ in range(3))
    assert emd_1d(a, b) == pytest.approx(emd_1d(b, a))
    assert emd_1d(a, c) <= emd_1d(a, b) + emd_1d(b, c) + 1e-12


def test_simple_distances():
    assert squared_error([1, 0], [0, 1]) == 2.0
    assert l1_distance([1, 0], [0, 1]) == 2.0
    assert total_variation([1, 0], [0, 1]) == 1.0


# ----------------------------------------------------------------------------- asymmetric ground distance
def test_emd_uses_the_ground_distance_from_a_to_b():
    """With an asymmetric ground distance (cost d[i, j] of moving mass from i in a to j in b) the
    direction matters: a mutant that transposed the distance matrix survived every symmetric test."""
    D = np.array([[0.0, 1.0], [5.0, 0.0]])
    assert emd([1, 0], [0, 1], D) == pytest.approx(1.0)
    assert emd([0, 1], [1, 0], D) == pytest.approx(5.0)
    R = np.array([[2.0, 7.0, 1.0], [3.0, 0.5, 4.0]])  # a on 2 points, b on 3: rectangular
    assert emd([1, 0], [0, 0, 1], R) == pytest.approx(1.0)
    assert emd([0, 1], [0.5, 0.5, 0], R) == pytest.approx(0.5 * 3.0 + 0.5 * 0.5)


@given(st.integers(2, 6), st.integers(2, 6), st.integers(0, 10_000))
def test_emd_equals_the_transport_linear_program(m, n, seed):
    from scipy.optimize import linprog

    rng = np.random.default_rng(seed)
    a, b = rng.dirichlet(np.ones(m)), rng.dirichlet(np.ones(n))
    D = rng.random((m, n)) * 10  # no symmetry, no triangle inequality
    A_eq = np.vstack([np.kron(np.eye(m), np.ones(n)), np.kron(np.ones(m), np.eye(n))])
    lp = linprog(D.ravel(), A_eq=A_eq, b_eq=np.r_[a, b], bounds=(0, None), method="highs")
    assert lp.status == 0
    assert emd(a, b, D) == pytest.approx(lp.fun, rel=1e-9, abs=1e-12)
