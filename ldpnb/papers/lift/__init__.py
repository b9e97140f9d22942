"""Lift and ALIP: watchdog, optimal random response, lift-inverse measures (Zarrabian, Ding and Sadeghi).

``CLAIMS`` (the paper's claims as data), ``theory`` (propositions, counterexamples, identities and the
watchdog's analytic results), ``experiments`` (the sweeps of Figs. 2-8 and the statistics that grade
them) and ``figures`` (one function per figure).
"""

from . import figures
from .claims import CLAIMS
from .experiments import (
    FIG6_GRID,
    FULL_GRID,
    Curve,
    evaluate_curve,
    put_sweep,
    random_joints,
    summarise,
    watchdog_sweep,
)
from .theory import (
    analytic_checks,
    counterexample_c1,
    counterexample_c2,
    lift_asymmetry_samples,
    proposition_checks,
    proposition_violations,
    random_mechanism_joint,
)

__all__ = [
    "CLAIMS",
    "figures",
    "FULL_GRID",
    "FIG6_GRID",
    "lift_asymmetry_samples",
    "counterexample_c1",
    "counterexample_c2",
    "proposition_checks",
    "random_mechanism_joint",
    "proposition_violations",
    "analytic_checks",
    "Curve",
    "random_joints",
    "evaluate_curve",
    "put_sweep",
    "watchdog_sweep",
    "summarise",
]
