"""Lift and ALIP: watchdog, optimal random response, lift-inverse measures (Zarrabian, Ding and Sadeghi)."""

from .theory import (
    lift_asymmetry_samples, counterexample_c1, counterexample_c2, proposition_checks, random_mechanism_joint,
    proposition_violations, analytic_checks,
)
from .experiments import Curve, random_joints, evaluate_curve, put_sweep, summarise

__all__ = [
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
    "summarise",
]
