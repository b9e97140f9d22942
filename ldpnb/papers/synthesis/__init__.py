"""Synthesis chapter: the mechanisms of the five papers side by side under each paper's lens.

Not a paper: every claim is an ``extension`` (a paper's conclusion tested outside its setting), an
``invariant`` or a ``derived`` bound.  ``CLAIMS`` (the claims as data), ``experiments`` (settings,
families, lenses), ``figures`` and ``text`` (the sentences glued into the prose).
"""

from . import estimation, experiments, families, figures, guide, ranks, text, variance
from .claims import CLAIMS

__all__ = ["CLAIMS", "estimation", "experiments", "families", "figures", "guide", "ranks", "text", "variance"]
