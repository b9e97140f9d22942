"""Minor argument checks of issue #40 (reliability audit, round 3, line 19's neighbours): public entry
points that read a wrong-typed argument as a value instead of refusing it."""

import numpy as np
import pytest

from ldpnb.data.grid import Grid
from ldpnb.repro.claims import Claim, claim_table
from ldpnb.repro.report import Report


def _claims():
    return claim_table(Claim("a", "c", "derived", "range", where="Sec. 1", lower=0.0, upper=1.0))


@pytest.mark.parametrize("seed", ["x", 2.5, -1, True, [1]])
def test_report_refuses_a_seed_that_is_not_an_integer(seed):
    # Report(seed="x") was accepted and shown as the chapter's SEED in the report's footer
    with pytest.raises(TypeError, match="seed must be None or an integer >= 0"):
        Report("x", _claims(), "smoke", seed=seed)


@pytest.mark.parametrize("seed", [None, 0, 2024, np.int64(7)])
def test_report_accepts_integer_seeds(seed):
    assert Report("x", _claims(), "smoke", seed=seed).seed == seed


@pytest.mark.parametrize("lat, lon", [(None, 2.5), (48.5, None), ("48.5", 2.5), ([48.5, None], [2.5, 2.5])])
def test_grid_refuses_coordinates_that_are_not_numbers(lat, lon):
    # Grid.cell_of(None, 2.5) returned -1 ("outside the box"): None was read as NaN
    g = Grid(48.0, 49.0, 2.0, 3.0, 3, 3)
    with pytest.raises(TypeError, match="lat|lon"):
        g.cell_of(lat, lon)


def test_grid_numbers_unchanged():
    g = Grid(48.0, 49.0, 2.0, 3.0, 3, 3)
    assert g.cell_of(48.5, 2.5) == 4 and g.cell_of(50.0, 2.5) == -1 and g.cell_of(np.nan, 2.5) == -1
    assert g.cell_of(48, 2) == 0  # integer coordinates are real numbers
    np.testing.assert_array_equal(g.cell_of(np.array([48.1, 48.9]), np.array([2.1, 2.9])), [0, 8])


@pytest.mark.parametrize("method", ["row_col", "cell_of"])
def test_grid_refuses_coordinates_of_different_shapes(method):
    # 2 latitudes against 1 longitude were broadcast (histogram refused them); a scalar still broadcasts
    g = Grid(48.0, 49.0, 2.0, 3.0, 3, 3)
    with pytest.raises(ValueError, match="lon must have the shape of lat"):
        getattr(g, method)(np.array([48.1, 48.9]), np.array([2.1]))
    np.testing.assert_array_equal(g.cell_of(np.array([48.1, 48.9]), 2.1), [0, 6])
