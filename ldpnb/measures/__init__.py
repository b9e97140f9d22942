"""Measures: information (entropy, mutual information, capacity), re-identification (PIE, Fano
bounds, PSE), the lift family (ALIP, lift-inverse, l1/chi2/alpha), and utility metrics (EMD, L1, ...)."""

from . import information, lift, pse, reidentification, utility
from .information import *  # noqa: F401,F403  (each module's __all__ is the package's)
from .lift import *  # noqa: F401,F403
from .pse import *  # noqa: F401,F403
from .reidentification import *  # noqa: F401,F403
from .utility import *  # noqa: F401,F403

__all__ = [*information.__all__, *utility.__all__, *reidentification.__all__, *pse.__all__, *lift.__all__]
