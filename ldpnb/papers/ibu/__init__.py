"""IBU: consistency and performance of the iterative Bayesian update (ElSalamouny and Palamidessi)."""

from .experiments import (
    estimation_trials, rappor_trials, build_channel, trial_task, rappor_task, manhattan_grid, sf_ibu_grid,
)
from .theory import (
    simplex_grid, loglik_surface, gf2_rank, gf2_rank_batch, rappor_bits_likelihood,
    rappor_concavity_lower_bound, rappor_concavity_frequencies, geometric_dominance_bounds,
    inv_krr_exact_sq_error, inv_krr_upper_bound, inv_geometric_lower_bound, truncated_geometric_inverse,
    loglog_slope,
)

__all__ = [
    "estimation_trials",
    "rappor_trials",
    "build_channel",
    "trial_task",
    "rappor_task",
    "manhattan_grid",
    "sf_ibu_grid",
    "simplex_grid",
    "loglik_surface",
    "gf2_rank",
    "gf2_rank_batch",
    "rappor_bits_likelihood",
    "rappor_concavity_lower_bound",
    "rappor_concavity_frequencies",
    "geometric_dominance_bounds",
    "inv_krr_exact_sq_error",
    "inv_krr_upper_bound",
    "inv_geometric_lower_bound",
    "truncated_geometric_inverse",
    "loglog_slope",
]
