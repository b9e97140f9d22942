"""Data: the verified registry of real datasets (sha256, public URLs), tidy loaders, and grids."""

from . import datasets, grid
from .datasets import *  # noqa: F401,F403  (each module's __all__ is the package's)
from .grid import *  # noqa: F401,F403

__all__ = [*datasets.__all__, *grid.__all__]
