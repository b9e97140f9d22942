"""Synthesis chapter: the mechanisms of the five papers side by side under each paper's lens.

Not a paper: each claim is a paper's conclusion tested outside its setting (``extension``), a published
statement (``paper``), an ``invariant`` or a ``derived`` bound.  ``CLAIMS`` (the claims as data),
``experiments`` (settings, families, lenses), ``estimation`` (the estimators), ``variance`` (the
variance lens), ``families`` and ``guide`` (the lookup grid), ``comparisons`` (the Monte Carlo rows as
:mod:`ldpnb.stats` estimates), ``figures`` and ``text`` (the sentences glued into the prose).
"""

from . import comparisons, estimation, experiments, families, figures, guide, text, variance
from .claims import CLAIMS, SIZES_BY_SCALE

__all__ = [
    "CLAIMS",
    "SIZES_BY_SCALE",
    "comparisons",
    "estimation",
    "experiments",
    "families",
    "figures",
    "guide",
    "text",
    "variance",
]
