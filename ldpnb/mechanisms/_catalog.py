"""The catalogue of the core mechanism families: every family built at one privacy level.

:func:`catalog` is what the cross-paper chapter and the audit iterate over ("any measure applied
to any mechanism"): one :class:`~ldpnb.mechanisms.Mechanism` object per family, on a common
:class:`~ldpnb.mechanisms.Domain` (``k`` values for the frequency oracles and the one-dimensional
metric mechanisms, a ``rows x cols`` grid for the planar ones).  The catalogue is derived from
the registry: every registered family that defines :meth:`Mechanism.on
<ldpnb.mechanisms.Mechanism.on>`, in the order the classes are defined.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Callable, TypeVar

from ldpnb.contracts import EPSILON, POSITIVE, AnyOf, Array, Instance, Integer, Optional, contract
from ldpnb.mechanisms._base import Domain, Mechanism

__all__ = ["FAMILIES", "catalog"]

_V = TypeVar("_V")


class _LiveRegistry(Mapping[str, _V]):
    """A read-only ``name -> entry`` mapping rebuilt from the mechanism registry at each use.

    ``build()`` returns the current ``{name: entry}`` dict (in registry order); every lookup,
    iteration and ``len`` calls it, so a family defined later (in a notebook or a test) appears at
    once in every registry derived this way (:data:`FAMILIES`, the audit's ``REGISTRY``, the risks
    protocols' ``PROTOCOL_REGISTRY``).  ``repr`` is ``label([names...])``.  Private: the shared
    base of those registries, not an API.
    """

    def __init__(self, label: str, build: Callable[[], dict[str, _V]]) -> None:
        self._label = label
        self._build = build

    def __getitem__(self, name: str) -> _V:
        return self._build()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._build())

    def __len__(self) -> int:
        return len(self._build())

    def __repr__(self) -> str:
        return f"{self._label}({list(self)})"


def _families() -> dict[str, type[Mechanism]]:
    """``family -> class`` of the catalogue: the registered families that define ``on``."""
    return {n: c for n, c in Mechanism.REGISTRY.items() if c.builds_on_domain()}


#: Every core family: name -> class (the registered families that define ``on``, in registry order).
FAMILIES: Mapping[str, type[Mechanism]] = _LiveRegistry("FAMILIES", _families)


@contract(
    epsilon=EPSILON,
    k=Integer(2, 16),
    rows=Integer(1, 64),
    cols=Integer(1, 64),
    cell_size=AnyOf(POSITIVE, Array(1, shape=(2,), low=0.0)),
    families=Optional(Instance(list, tuple, example=["GRR"])),
    pad=Integer(0, 64),
)
def catalog(
    epsilon: float,
    *,
    k: int = 8,
    rows: int = 4,
    cols: int = 4,
    cell_size: Any = 1.0,
    families: list[str] | tuple[str, ...] | None = None,
    pad: int = 2,
) -> dict[str, Mechanism]:
    """Every core family at privacy level ``epsilon``: ``{family: Mechanism}`` in :data:`FAMILIES` order.

    Each family is built by its :meth:`~ldpnb.mechanisms.Mechanism.on` on ``Domain(k, rows, cols,
    cell_size, pad)``: the frequency oracles (GRR, SUE, OUE, OLH, BLH, SS) and the one-dimensional
    metric mechanisms (truncated geometric, discretised Laplace, exponential with ``d = |x - x'|``)
    on ``k`` values; the planar ones on a ``rows x cols`` grid of cells ``cell_size`` apart (the
    padded planar Laplace in cell units, padded by ``pad`` cells).  ``k <= 16`` keeps every exact
    channel small (``2**k`` columns for the unary encodings and the hashing support sets).

    Parameters
    ----------
    epsilon : float
        The level: eps-LDP for the frequency oracles, eps per unit of distance for the metric ones
        (the padded planar Laplace claims ``2 eps``).
    k, rows, cols, cell_size, pad
        Domain sizes.
    families : list of str, optional
        A subset of :data:`FAMILIES`, by family name or alias (default: all).  OLH is defined for
        ``epsilon <= 22`` only (its hash range ``round(e^eps) + 1`` must fit 32 bits): leave it
        out above that.

    Returns
    -------
    dict
        ``family -> Mechanism``; every value has ``channel()``, ``perturb()``, ``check()``, ...

    Examples
    --------
    >>> list(catalog(1.0, families=["k-RR", "geometric"]))
    ['GRR', 'geometric']
    """
    live = dict(FAMILIES)
    if families is None:
        names = list(live)
    else:
        names = []
        for n in families:
            cls = Mechanism.lookup(n) if isinstance(n, str) and n.casefold() in Mechanism._NAMES else None
            if cls is None or cls.family not in live:
                raise ValueError(f"families must be a non-empty list of names from {list(live)}, got {families!r}")
            names.append(cls.family)
        if not names:
            raise ValueError(f"families must be a non-empty list of names from {list(live)}, got {families!r}")
    domain = Domain(k=k, rows=rows, cols=cols, cell_size=cell_size, pad=pad)
    return {n: live[n].on(domain, epsilon) for n in live if n in names}
