"""Foundations chapter: the local model, the mechanisms as channels, estimators and measures.

Not a paper: textbook facts of the literature the five papers build on, checked on the package's
objects.  ``CLAIMS`` (the chapter's claims as data) and ``figures`` (its figures).
"""

from . import figures
from .claims import CLAIMS, SIZES_BY_SCALE

__all__ = ["CLAIMS", "SIZES_BY_SCALE", "figures"]
