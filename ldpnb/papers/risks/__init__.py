"""Risks of collecting multidimensional data under LDP (Arcolezi, Gambs, Couchot and Palamidessi, PVLDB 2023)."""

from .experiments import prior_correct, prior_dirichlet, prior_zipf, prior_exponential, make_priors
from .claims import CLAIMS

__all__ = [
    "CLAIMS",
    "prior_correct",
    "prior_dirichlet",
    "prior_zipf",
    "prior_exponential",
    "make_priors",
]
