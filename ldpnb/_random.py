"""The one way a seed becomes a generator: :func:`check_random_state` (the lowest floor of the
package: it imports nothing from :mod:`ldpnb`, so that both :mod:`ldpnb.contracts` (its
``RandomState`` rule) and :mod:`ldpnb.utils` can use it).

Every random function of the package takes an ``rng`` argument and turns it into a
:class:`numpy.random.Generator` here (the pattern of ``quantecon.util.random.check_random_state``),
so that the same seed gives the same book.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

__all__ = ["RNGLike", "check_random_state"]

RNGLike = np.random.Generator | int | np.random.SeedSequence | None


def check_random_state(rng: Any = None) -> np.random.Generator:
    """Return a :class:`numpy.random.Generator` built from ``rng``.

    Parameters
    ----------
    rng : Generator, int, SeedSequence or None
        A generator is returned unchanged (so that successive calls share its
        stream); an int or a :class:`~numpy.random.SeedSequence` seeds a new
        PCG64 generator; ``None`` gives fresh OS entropy (not reproducible).

    Raises
    ------
    TypeError
        For any other type (a legacy :class:`numpy.random.RandomState` included).
    ValueError
        For a negative int seed.

    Examples
    --------
    >>> check_random_state(7).random() == check_random_state(7).random()
    True
    """
    if rng is None:
        return np.random.default_rng()
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, np.random.SeedSequence):
        return np.random.default_rng(rng)
    if isinstance(rng, (numbers.Integral, np.integer)) and not isinstance(rng, bool):
        if int(rng) < 0:
            raise ValueError(f"rng: an int seed must be >= 0, got {rng}")
        return np.random.default_rng(int(rng))
    if isinstance(rng, np.random.RandomState):
        raise TypeError(
            "rng: legacy numpy RandomState is not supported; pass a numpy.random.Generator, an int seed or None"
        )
    raise TypeError(f"rng: expected a numpy.random.Generator, an int seed or None, got {type(rng).__name__}")
