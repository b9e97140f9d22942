r"""Tie-aware rank agreement between two lenses over a set of mechanisms.

Two exact lenses often give values equal up to floating-point noise (five oracles' leakages about a
secret agree to 1e-14, fifteen mechanisms' attribute-inference success is exactly the prior guess).
Ranking such values by their last bits orders mechanisms by noise.  Here values are first
*quantised*: sorted, and two neighbours closer than ``rtol`` times their magnitude (or ``atol``) get
the same rank; then Kendall's :math:`\tau_b` (which accounts for ties) is computed on the ranks,
with a percentile bootstrap interval over the mechanisms, and the discordant pairs are listed with
their values.  (To be replaced by ``ldpnb.stats`` in phase B.)
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Sequence

import numpy as np

__all__ = ["tie_ranks", "tau_b", "tau_bootstrap", "discordant_pairs_tied", "TIE_RTOL"]

#: Relative tolerance under which two lens values are the same rank.
TIE_RTOL = 1e-9


def tie_ranks(x: Any, rtol: float = TIE_RTOL, atol: float = 1e-15) -> np.ndarray:
    """Dense ranks of ``x`` in which neighbours within ``rtol |value| + atol`` share a rank.

    >>> tie_ranks([0.3, 0.1, 0.1 + 1e-16, 0.2]).tolist()
    [2, 0, 0, 1]
    """
    x = np.asarray(x, dtype=float)
    order = np.argsort(x, kind="stable")
    xs = x[order]
    step = np.diff(xs) > rtol * np.maximum(np.abs(xs[1:]), np.abs(xs[:-1])) + atol
    ranks_sorted = np.concatenate([[0], np.cumsum(step)])
    out = np.empty(x.size, dtype=int)
    out[order] = ranks_sorted
    return out


def tau_b(x: Any, y: Any, rtol: float = TIE_RTOL) -> float:
    """Kendall's tau-b of two lenses after :func:`tie_ranks` (NaN if one lens is constant)."""
    from scipy.stats import kendalltau  # noqa: PLC0415 lazy: scipy/numpy submodule loaded at first use

    rx, ry = tie_ranks(x, rtol), tie_ranks(y, rtol)
    if np.all(rx == rx[0]) or np.all(ry == ry[0]):
        return float("nan")
    return float(kendalltau(rx, ry).statistic)


def tau_bootstrap(
    x: Any, y: Any, *, draws: int = 2000, seed: Any = 0, level: float = 0.95, rtol: float = TIE_RTOL
) -> tuple[float, float, float]:
    """``(tau_b, lower, upper)``: the point value and a percentile bootstrap interval over the
    mechanisms (resampled with replacement; resamples where a lens is constant are dropped)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    rx, ry = tie_ranks(x, rtol), tie_ranks(y, rtol)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, x.size, size=(draws, x.size))
    from scipy.stats import kendalltau  # noqa: PLC0415 lazy: scipy/numpy submodule loaded at first use

    vals = []
    for i in idx:
        a, b = rx[i], ry[i]
        if np.all(a == a[0]) or np.all(b == b[0]):
            continue
        vals.append(kendalltau(a, b).statistic)
    lo, hi = np.quantile(vals, [(1 - level) / 2, (1 + level) / 2])
    return tau_b(x, y, rtol), float(lo), float(hi)


def discordant_pairs_tied(x: Any, y: Any, names: Sequence[str], rtol: float = TIE_RTOL) -> list[tuple[str, str]]:
    """The pairs that ``x`` and ``y`` order strictly and in opposite directions (ties are neither)."""
    rx, ry = tie_ranks(x, rtol), tie_ranks(y, rtol)
    return [
        (names[i], names[j]) for i, j in combinations(range(len(names)), 2) if (rx[i] - rx[j]) * (ry[i] - ry[j]) < 0
    ]
