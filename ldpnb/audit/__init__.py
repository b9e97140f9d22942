"""Statistical privacy audits of mechanisms: the sampler agrees with its exact channel (chi-square),
the exact level of the channel is within the claim, and so is an empirical lower bound from the
sampler."""

from .empirical import (
    AuditCase,
    AuditResult,
    EmpiricalResult,
    bonferroni_alpha,
    broken_ue_epsilon,
    broken_ue_perturb,
    chi_square_gof,
    clopper_pearson,
    empirical_epsilon,
)
from .registry import (
    REGISTRY,
    MechanismSpec,
    audit,
    audit_broken_ue,
    audit_grid,
    available_mechanisms,
    build_case,
    sampler_agrees,
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
    "chi_square_gof",
    "MechanismSpec",
    "REGISTRY",
    "available_mechanisms",
    "build_case",
    "audit",
    "audit_grid",
    "audit_broken_ue",
    "sampler_agrees",
]
