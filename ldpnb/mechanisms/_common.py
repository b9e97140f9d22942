"""Small helpers shared by the mechanism families.
"""

from __future__ import annotations

import math


# Largest output alphabet the exact enumerated channels may have (columns of the matrix).
_MAX_ENUM_COLUMNS = 1 << 22


# ---------------------------------------------------------------------------------------------
# small private helpers
# ---------------------------------------------------------------------------------------------


def _exp_neg(epsilon: float) -> float:
    """``exp(-epsilon)``: computing with ``e^{-eps}`` avoids overflow of ``e^{eps}`` at large eps."""
    return math.exp(-epsilon)
