"""Risks of collecting multidimensional data under LDP (Arcolezi, Gambs, Couchot and Palamidessi, PVLDB 2023)."""

from .claims import CLAIMS
from .experiments import make_priors, prior_correct, prior_dirichlet, prior_exponential, prior_zipf

__all__ = [
    "CLAIMS",
    "prior_correct",
    "prior_dirichlet",
    "prior_zipf",
    "prior_exponential",
    "make_priors",
]
