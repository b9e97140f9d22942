"""Audit appendix: every mechanism of the book against its privacy claim (exact level of the channel,
empirical lower bound of the sampler).  ``CLAIMS`` (the appendix's claims as data), ``IDS`` (the claim
id of each audited mechanism) and ``figures``."""

from . import figures
from .claims import CLAIMS, IDS, PAPER_IDS, SIZES_BY_SCALE

__all__ = ["CLAIMS", "IDS", "PAPER_IDS", "SIZES_BY_SCALE", "figures"]
