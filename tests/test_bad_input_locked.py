"""Bad inputs of the risks and synthesis paper modules found by the independent fuzz of this round
(each case crashed, allocated terabytes or returned -inf before; each is now refused with a message)."""

import numpy as np
import pytest

from ldpnb.papers.risks import checks, xgb
from ldpnb.papers.synthesis import comparisons, guide, variance


def test_prior_variance_check_refuses_domains_before_allocating():
    with pytest.raises(ValueError, match="ks"):
        checks.prior_variance_check(np.array([10**12, 3]), 2, np.array([0.5]), 2, rng=0)


@pytest.mark.parametrize(
    "call",
    [
        lambda: checks.corollary2_gap(ns=[], ks=[2], eps_grid=[1.0]),
        lambda: checks.corollary2_gap(ns=[4], ks=[], eps_grid=[1.0]),
        lambda: checks.pie_capacity_gap(2, ks=[], eps_grid=[1.0]),
        lambda: checks.pie_capacity_gap(2, ks=[2], eps_grid=[]),
    ],
)
def test_empty_grids_are_refused_not_minus_infinity(call):
    with pytest.raises(ValueError):
        call()


def test_design_matrix_needs_reports():
    with pytest.raises(ValueError, match="report"):
        xgb.design_matrix([])


def test_training_set_refuses_fractional_codes():
    fit = xgb.Fit(data="ACS", setting="fd", variant="GRR", eps=1.0, run=0, model="NK s=1n", seed=1)
    with pytest.raises((ValueError, TypeError)):
        xgb.training_set(fit, np.full((4, 2), 0.5), np.array([2, 2]))


def test_runs_of_names_the_missing_key():
    with pytest.raises(ValueError, match="runs_bogus"):
        comparisons.runs_of({"k-RR": {"runs_emd_ibu": np.ones(4)}}, ["k-RR"], "bogus")


def test_best_index_with_negative_values():
    assert guide.best_index(np.array([-1.0, -1.0]), rtol=0.5) == 0
    assert guide.best_index(np.array([-1.0, -3.0, -2.9]), rtol=0.05) == 1
    assert guide.best_index(np.array([2.0, 1.0 + 1e-15, 1.0])) == 1  # positive values: as before


def test_range_query_lengths_in_the_domain():
    with pytest.raises(ValueError):
        variance.range_query_mse(np.full((2, 2), 0.5), [-1])
    with pytest.raises(ValueError):
        variance.range_query_mse(np.full((2, 2), 0.5), [3])
    assert variance.range_query_mse(np.eye(2), [1, 2]) == {1: 1.0, 2: 2.0}


def test_rule_grr_beats_oue_refuses_levels_beyond_float_range():
    with pytest.raises(ValueError):
        variance.rule_grr_beats_oue(2, 1e4)
    assert variance.rule_grr_beats_oue(2, 700.0)
