"""Synthesis chapter: the mechanisms of the five papers side by side under each paper's lens.

Not a paper: every claim is an ``extension`` (a paper's conclusion tested outside its setting), an
``invariant`` or a ``derived`` bound.  ``CLAIMS`` (the claims as data), ``experiments`` (settings,
families, lenses) and ``figures``.
"""

from . import experiments, figures
from .claims import CLAIMS

__all__ = ["CLAIMS", "experiments", "figures"]
