"""Bad inputs found by the independent fuzz of the fourth reliability round (each case returned a
number, NaN or a crash before; each is now refused with a message naming the argument)."""

import numpy as np
import pytest

import ldpnb.measures as M
from ldpnb.papers.pie import utility as util


@pytest.mark.parametrize(
    "call",
    [
        lambda g: M.theta_glh(g, 1.0),
        lambda g: M.alpha_glh(1.0, 100, 50, g),
        lambda g: util.glh_variance_fixed_theta(0.01, 1000, g, 0.5),
    ],
)
def test_a_mechanisms_hash_range_is_an_integer(call):
    for bad in (2.5, np.array([2.0, 3.5])):
        with pytest.raises(ValueError, match="g must be"):
            call(bad)
    # integral floats (a hash range read from a table) give the numbers of the integers
    np.testing.assert_array_equal(call(np.array([2.0, 1e8])), call(np.array([2, 10**8])))
    assert float(call(5.0 + 0 * np.zeros(()))) == float(call(5))


def test_the_continuous_relaxation_in_g_is_documented_and_kept():
    # Eq. (23) and Eq. (51) as functions of a real g: the optimum over g (T19) and Fig. 12's curve
    v = util.glh_variance(0.0, 1, np.array([2.5, 3.0]), 1.0)
    assert np.all(np.isfinite(v)) and v[1] == util.glh_variance(0.0, 1, 3, 1.0)
    assert np.isfinite(M.eps_from_theta(0.5, 2.5))
    assert np.isfinite(util.glh_loss_sum(0.5, 10, 100, 2.5, 1.0))
    with pytest.raises(ValueError, match="g must be"):
        util.glh_variance(0.0, 1, 1.5, 1.0)
