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


def _traces():
    from ldpnb.papers.pie.identification import Traces

    rng = np.random.default_rng(0)
    return Traces("LT", [rng.integers(0, 3, 8) for _ in range(6)], 3)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda t, v: __import__("ldpnb.papers.pie.identification", fromlist=["x"]).pse_curve(t, v, rng=0), "ts"),
        (lambda t, v: __import__("ldpnb.papers.pie.identification", fromlist=["x"]).equal_n(t, 4, v, rng=0), "ts"),
        (lambda t, v: __import__("ldpnb.papers.pie.identification", fromlist=["x"]).convergence(t, v, rng=0), "ts"),
        (
            lambda t, v: __import__("ldpnb.papers.pie.identification", fromlist=["x"]).partial_knowledge(t, v, rng=0),
            "ms",
        ),
    ],
)
def test_prefix_lengths_are_positive_integers(call, name):
    # s[:-1] dropped the last event and s[:0] every event, silently; an empty list gave an empty result
    for bad in ((-1, 2), (0,), (), (2.5,), (True,)):
        with pytest.raises(ValueError, match=name):
            call(_traces(), bad)


def test_convergence_fractions_and_scorings_are_checked():
    from ldpnb.papers.pie import identification as ident

    for bad in ((), (0.0,), (1.5,), (-0.25, 0.5)):
        with pytest.raises(ValueError, match="fractions"):
            ident.convergence(_traces(), (1,), bad, reps=2, rng=0)
    with pytest.raises(ValueError, match="scorings"):
        ident.partial_knowledge(_traces(), (1,), scorings=("bogus",), rng=0)


def test_joints_must_sum_to_one():
    # a joint summing to 1.25 gave a "joint" of 1.25 (composed_joint, score_joint) and a mutual
    # information of an unnormalised table (score_vector_mi skipped its inner check)
    J = np.full((2, 2), 0.25)
    S = np.array([[0.0, 1.0], [1.0, 0.0]])
    Q = np.eye(2)
    for call, name in (
        (lambda j: M.score_joint(j, S), "joint_uy"),
        (lambda j: M.score_vector_mi(j, S), "joint_uy"),
        (lambda j: M.composed_joint(np.stack([j, j]) / 2, Q, Q), "p_ux1x2"),
    ):
        assert np.all(np.isfinite(call(J)))
        with pytest.raises(ValueError, match=name):
            call(1.25 * J)
