"""Statistical privacy audits of mechanisms: exact level of the channel against an empirical lower
bound from the sampler."""

from .empirical import (
    clopper_pearson, EmpiricalResult, empirical_epsilon, AuditCase, AuditResult, broken_ue_perturb,
    broken_ue_epsilon, bonferroni_alpha,
)
from .registry import (
    MechanismSpec, REGISTRY, available_mechanisms, build_case, audit, audit_grid, audit_broken_ue,
)

__all__ = [
    "clopper_pearson",
    "EmpiricalResult",
    "empirical_epsilon",
    "AuditCase",
    "AuditResult",
    "broken_ue_perturb",
    "broken_ue_epsilon",
    "bonferroni_alpha",
    "MechanismSpec",
    "REGISTRY",
    "available_mechanisms",
    "build_case",
    "audit",
    "audit_grid",
    "audit_broken_ue",
]
