"""Refusals added on 2026-11-29 (issue #40), each failing on the code before: HRR.decode took any number
(a fractional index was truncated, an out-of-range one wrapped into a wrong pair), and the support-count
check named ``support_counts`` whatever argument of its caller was wrong."""

import numpy as np
import pytest

from ldpnb.mechanisms import GRR, HRR


@pytest.mark.parametrize("bad", [[1.5], [-1], [8], [np.nan]])
def test_hrr_decode_refuses_what_is_not_a_report_index(bad):
    m = HRR(4, 1.0)
    assert m.n_outputs == 8
    with pytest.raises((ValueError, TypeError), match="reports"):
        m.decode(bad)


def test_hrr_decode_of_valid_reports_is_unchanged():
    m = HRR(4, 1.0)
    y = np.arange(m.n_outputs)
    j, b = m.decode(y)
    np.testing.assert_array_equal(j, y >> 1)
    np.testing.assert_array_equal(b, 1 - 2 * (y & 1))


def test_support_count_errors_name_the_callers_argument():
    m = GRR(4, 1.0)
    with pytest.raises(ValueError, match="^sampled_counts must be at most"):
        m.check_support_counts([5, 0, 0, 0], 3, name="sampled_counts")
    with pytest.raises(ValueError, match="^support_counts must have one entry per value"):
        m.check_support_counts([1, 1], 3)
