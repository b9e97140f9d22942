import numpy as np
import pytest

from ldpnb.utils import (
    check_channel,
    check_counts,
    check_distribution,
    check_domain_size,
    check_epsilon,
    check_random_state,
    check_values,
)


def test_check_random_state_same_seed_same_stream():
    assert check_random_state(7).random() == check_random_state(7).random()
    g = np.random.default_rng(1)
    assert check_random_state(g) is g
    assert isinstance(check_random_state(None), np.random.Generator)
    assert isinstance(check_random_state(np.random.SeedSequence(3)), np.random.Generator)


@pytest.mark.parametrize("bad", ["a", 1.5, np.random.RandomState(0), True])
def test_check_random_state_rejects(bad):
    with pytest.raises(TypeError, match="rng"):
        check_random_state(bad)


def test_check_random_state_negative_seed():
    with pytest.raises(ValueError, match="rng"):
        check_random_state(-1)


@pytest.mark.parametrize(
    "bad,match", [(0, r"in \(0, inf\)"), (-1.0, r"in \(0, inf\)"), (float("nan"), "got nan"), (float("inf"), "finite")]
)
def test_check_epsilon_rules(bad, match):
    with pytest.raises(ValueError, match=match):
        check_epsilon(bad)
    with pytest.raises(ValueError, match="budget"):
        check_epsilon(bad, name="budget")


def test_check_epsilon_type():
    with pytest.raises(TypeError):
        check_epsilon("1")
    assert check_epsilon(np.float32(0.5)) == 0.5


def test_check_domain_size():
    assert check_domain_size(2) == 2
    with pytest.raises(ValueError, match=r"k must be an integer in \[2, inf\]"):
        check_domain_size(1)
    with pytest.raises(TypeError):
        check_domain_size(3.0)


def test_check_distribution_and_channel():
    check_distribution([0.25, 0.75])
    with pytest.raises(ValueError, match="sum to 1"):
        check_distribution([0.5, 0.6])
    with pytest.raises(ValueError, match="nonnegative"):
        check_distribution([-0.1, 1.1])
    with pytest.raises(ValueError, match="NaN"):
        check_distribution([np.nan, 1.0])
    with pytest.raises(ValueError, match="empty"):
        check_distribution([])
    check_channel([[0.5, 0.5], [1.0, 0.0]])
    with pytest.raises(ValueError, match="row 1"):
        check_channel([[0.5, 0.5], [0.9, 0.0]])
    with pytest.raises(ValueError, match="2-dimensional"):
        check_channel([0.5, 0.5])


def test_check_counts_and_values():
    assert check_counts([1, 2.0, 0]).dtype == np.int64
    with pytest.raises(ValueError, match="integers"):
        check_counts([1.5])
    with pytest.raises(ValueError, match="nonnegative"):
        check_counts([-1, 2])
    assert check_values([0, 2, 1], 3).tolist() == [0, 2, 1]
    with pytest.raises(ValueError, match="domain"):
        check_values([0, 3], 3)
    with pytest.raises(ValueError, match="empty"):
        check_values([], 3)
    with pytest.raises(ValueError, match="integers"):
        check_values([0.5], 3)


def test_check_nonnegative_matrix():
    from ldpnb.utils import check_nonnegative_matrix

    A = check_nonnegative_matrix([[0.0, 2.0], [1.0, 3.0]], "G")  # rows need not sum to 1
    assert A.dtype == float and A.shape == (2, 2)
    with pytest.raises(ValueError, match="G must be a non-empty 2-D array"):
        check_nonnegative_matrix([1.0, 2.0], "G")
    with pytest.raises(ValueError, match="G must be finite"):
        check_nonnegative_matrix([[np.nan, 1.0]], "G")
    with pytest.raises(ValueError, match="G must be non-negative"):
        check_nonnegative_matrix([[-1.0, 1.0]], "G")
