"""The catalogue of the core mechanism families: every family built at one privacy level.

:func:`catalog` is what the cross-paper chapter and the audit iterate over ("any measure applied
to any mechanism"): one :class:`~ldpnb.mechanisms.Mechanism` object per family, on a common
domain (``k`` values for the frequency oracles and the one-dimensional metric mechanisms, a
``rows x cols`` grid for the planar ones).
"""

from __future__ import annotations

from typing import Any

from ldpnb.contracts import AnyOf, Array, Instance, Integer, Optional, Real, contract
from ldpnb.mechanisms._base import Mechanism
from ldpnb.mechanisms._common import EPSILON
from ldpnb.mechanisms.grr import GRR
from ldpnb.mechanisms.hashing import BLH, OLH
from ldpnb.mechanisms.metric import (
    DiscreteLaplace, Exponential, PaddedPlanarLaplace, PlanarGeometric, PlanarLaplace, TruncatedGeometric,
    _line_distance,
)
from ldpnb.mechanisms.subset import SubsetSelection
from ldpnb.mechanisms.unary import OUE, SUE

__all__ = ["FAMILIES", "catalog"]

#: Every core family: name -> class (the order of the book's tables).
FAMILIES: dict[str, type[Mechanism]] = {
    "GRR": GRR,
    "SUE": SUE,
    "OUE": OUE,
    "BLH": BLH,
    "OLH": OLH,
    "SS": SubsetSelection,
    "geometric": TruncatedGeometric,
    "Laplace": DiscreteLaplace,
    "exponential": Exponential,
    "planar geometric": PlanarGeometric,
    "planar Laplace": PlanarLaplace,
    "padded planar Laplace": PaddedPlanarLaplace,
}

#: OLH's hash range ``round(e^eps) + 1`` must fit 32 bits.
_OLH_MAX_EPS = 22.0


@contract(epsilon=EPSILON, k=Integer(2, 16), rows=Integer(1, 64), cols=Integer(1, 64),
          cell_size=AnyOf(Real(0.0, None, low_open=True), Array(1, shape=(2,), low=0.0)),
          families=Optional(Instance(list, tuple, example=["GRR"])), pad=Integer(0, 64))
def catalog(epsilon: float, *, k: int = 8, rows: int = 4, cols: int = 4, cell_size: Any = 1.0,
            families: list[str] | tuple[str, ...] | None = None, pad: int = 2) -> dict[str, Mechanism]:
    """Every core family at privacy level ``epsilon``: ``{name: Mechanism}`` in :data:`FAMILIES` order.

    Frequency oracles (GRR, SUE, OUE, BLH, OLH, SS) and the one-dimensional metric mechanisms
    (truncated geometric, discretised Laplace, exponential with ``d = |x - x'|``) on ``k`` values;
    the planar ones on a ``rows x cols`` grid of cells ``cell_size`` apart (the padded planar
    Laplace in cell units, padded by ``pad`` cells).  ``k <= 16`` keeps every exact channel small
    (``2**k`` columns for the unary encodings and the hashing support sets).

    Parameters
    ----------
    epsilon : float
        The level: eps-LDP for the frequency oracles, eps per unit of distance for the metric ones
        (the padded planar Laplace claims ``2 eps``).
    k, rows, cols, cell_size, pad
        Domain sizes.
    families : list of str, optional
        A subset of :data:`FAMILIES` (default: all).  OLH is defined for ``epsilon <= 22`` only (its
        hash range ``round(e^eps) + 1`` must fit 32 bits): leave it out above that.

    Returns
    -------
    dict
        ``name -> Mechanism``; every value has ``channel()``, ``perturb()``, ``check()``, ...
    """
    names = list(FAMILIES) if families is None else list(families)
    unknown = [n for n in names if n not in FAMILIES]
    if unknown or not names:
        raise ValueError(f"families must be a non-empty list of names from {list(FAMILIES)}, got {families!r}")
    if "OLH" in names and epsilon > _OLH_MAX_EPS:
        raise ValueError(f"epsilon = {epsilon:g}: OLH is defined for epsilon <= {_OLH_MAX_EPS:g} only (hash range "
                         "round(e^eps) + 1 <= 2**32); pass families without 'OLH'")
    build = {
        "GRR": lambda: GRR(k, epsilon),
        "SUE": lambda: SUE(k, epsilon),
        "OUE": lambda: OUE(k, epsilon),
        "BLH": lambda: BLH(k, epsilon),
        "OLH": lambda: OLH(k, epsilon),
        "SS": lambda: SubsetSelection(k, epsilon),
        "geometric": lambda: TruncatedGeometric(k, epsilon),
        "Laplace": lambda: DiscreteLaplace(k, epsilon),
        "exponential": lambda: Exponential(_line_distance(k), epsilon),
        "planar geometric": lambda: PlanarGeometric(rows, cols, epsilon, cell_size),
        "planar Laplace": lambda: PlanarLaplace(rows, cols, epsilon, cell_size),
        "padded planar Laplace": lambda: PaddedPlanarLaplace(rows, cols, epsilon, pad=pad),
    }
    return {n: build[n]() for n in FAMILIES if n in names}
