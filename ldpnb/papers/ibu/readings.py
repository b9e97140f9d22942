r"""Other readings of the setting of Fig. 8 of ElSalamouny and Palamidessi, *On the consistency and
performance of the iterative Bayesian update* (arXiv 2508.09980, Sec. 7.2).

The paper obfuscates the Manhattan check-ins by "the planar geometric mechanism" on a grid of
:math:`20 \times 14` cells, truncated to the grid, and prints the EMDs of one run.  It does not say how
the mass that falls outside the grid is handled.  The chapter clamps it to the nearest border cell
(:func:`ldpnb.mechanisms.planar_geometric_channel`); :func:`renormalised_planar_geometric_channel` is
the other natural reading, the kernel restricted to the grid and renormalised per row.  (The planar
Laplace mechanism, :func:`ldpnb.mechanisms.planar_laplace_channel`, is the third reading the chapter
computes.)
"""

from __future__ import annotations

import numpy as np

from ldpnb.contracts import POSITIVE, Integer, Real, contract

__all__ = ["renormalised_planar_geometric_channel"]


@contract(
    rows=Integer(1, 1 << 7),
    cols=Integer(1, 1 << 7),
    epsilon=Real(0, 50, low_open=True),
    cell_size=POSITIVE,
)
def renormalised_planar_geometric_channel(rows: int, cols: int, epsilon: float, cell_size: float = 1.0) -> np.ndarray:
    r"""The planar geometric mechanism restricted to a ``rows x cols`` grid and renormalised per row:
    :math:`M_{xz} \propto e^{-\varepsilon\, d(x, z)}` over the cells :math:`z` of the grid, :math:`d` the
    Euclidean distance between the centres of a square lattice of side ``cell_size`` (row-major cells).

    Unlike the clamped channel, no border cell collects the mass that falls outside; the channel is
    :math:`2\varepsilon`-geo-indistinguishable at most (the row normalisers differ), a reading of the
    paper's "truncated" mechanism, not a replacement of it.

    Examples
    --------
    >>> M = renormalised_planar_geometric_channel(3, 2, 1.0)
    >>> M.shape, bool(np.allclose(M.sum(axis=1), 1.0))
    ((6, 6), True)
    """
    if rows * cols < 2:
        raise ValueError("the grid must have at least two cells")
    r, c = np.divmod(np.arange(rows * cols), cols)
    D = cell_size * np.hypot(r[:, None] - r[None, :], c[:, None] - c[None, :])
    K = np.exp(-epsilon * D)
    return K / K.sum(axis=1, keepdims=True)
