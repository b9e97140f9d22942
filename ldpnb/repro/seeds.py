"""One seed idiom for the whole book: a generator per named experiment.

A chapter has one ``SEED`` (its papermill parameter).  Every experiment of the chapter draws from
its own stream, named after the experiment::

    rng = rng_for(SEED, "fig10/glh")           # a numpy Generator
    results = sweep(task, tasks, seed=seed_for(SEED, "fig10"))   # per-task streams spawned from it

The stream of ``name`` is ``SeedSequence([SEED, crc32(name)])``: streams of different names are
independent, adding an experiment never shifts the others (unlike hand-picked offsets such as
``SEED + 3 + i``), and a name fixes its stream across runs, machines and numbers of workers.
"""

from __future__ import annotations

import numbers
import zlib

import numpy as np

from ldpnb.contracts import Instance, Integer, contract

_SEED = Integer(0, None)
_NAME = Instance(str, example="fig1")

__all__ = ["seed_for", "rng_for"]


def _check(seed, name) -> tuple[int, str]:
    if isinstance(seed, bool) or not isinstance(seed, (numbers.Integral, np.integer)) or seed < 0:
        raise ValueError(f"seed must be an integer >= 0, got {seed!r}")
    if not isinstance(name, str) or not name:
        raise ValueError(f"name must be a non-empty string naming the experiment, got {name!r}")
    return int(seed), name


@contract(seed=_SEED, name=_NAME)
def seed_for(seed: int, name: str) -> np.random.SeedSequence:
    """The :class:`~numpy.random.SeedSequence` ``[seed, crc32(name)]`` of the experiment ``name``."""
    seed, name = _check(seed, name)
    return np.random.SeedSequence([seed, zlib.crc32(name.encode("utf-8"))])


@contract(seed=_SEED, name=_NAME)
def rng_for(seed: int, name: str) -> np.random.Generator:
    """A generator (PCG64) on the stream of the experiment ``name``."""
    return np.random.Generator(np.random.PCG64(seed_for(seed, name)))
