"""The book's machinery: claims and reproduction reports, seeds, parallel sweeps (re-exported from
:mod:`ldpnb.parallel`), plotting style, and the build (``python -m ldpnb.repro.build``)."""

from ldpnb.parallel import sweep

from .claims import Claim, Printed, claim_table
from .report import Report, glue
from .seeds import rng_for, seed_for

__all__ = ["Claim", "Printed", "claim_table", "Report", "glue", "rng_for", "seed_for", "sweep"]
