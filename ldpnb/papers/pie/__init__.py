"""PIE: re-identification risks in the local privacy model (Murakami and Takahashi, TDP 2021).

``theory`` (the propositions and theorems of Secs. 3-4 on random instances, Gaussian scores),
``utility`` (Sec. 4.4 and Figs. 10-12), ``identification`` (Figs. 5-9 on public traces),
``claims`` (the paper's claims as data: ``CLAIMS``) and ``figures`` (one function per figure).
"""

from . import figures, identification, theory, utility
from .claims import CLAIMS, EPS10, ERRATA, G12, K_LT, N_LT, SIZES_BY_SCALE, THEOREM_IDS, VAR_REPS

__all__ = [
    "CLAIMS",
    "EPS10",
    "ERRATA",
    "G12",
    "K_LT",
    "N_LT",
    "SIZES_BY_SCALE",
    "THEOREM_IDS",
    "VAR_REPS",
    "figures",
    "identification",
    "theory",
    "utility",
]
