"""IBU: *On the consistency and performance of the iterative Bayesian update* (ElSalamouny and
Palamidessi, arXiv 2508.09980).

``CLAIMS`` (the paper's claims as data, :mod:`.claims`), ``figures`` (one function per figure),
the experiments of Sec. 7 (:mod:`.experiments`), the certified MLE of their runs (:mod:`.mle`),
the theory of Secs. 4-8 (:mod:`.theory`) and the numbers the Monte Carlo claims are graded on, as
:mod:`ldpnb.stats` estimates (:mod:`.scoring`).
"""

from . import figures, mle, readings, scoring, tables
from .claims import CLAIMS
from .mle import mle_cross_check, mle_runs, strictly_concave_runs
from .readings import renormalised_planar_geometric_channel
from .experiments import (
    MLE_TOL, Trials, RapporTrials, location_metric, estimation_trials, rappor_trials, threshold_sweep, run_estimates,
    cpu_seconds, manhattan_grid, sf_ibu_grid,
)
from .theory import (
    simplex_grid, loglik_surface, gf2_rank, gf2_rank_batch, rappor_bits_likelihood,
    rappor_concavity_lower_bound, rappor_concavity_frequencies, geometric_dominance_bounds,
    inv_krr_exact_sq_error, inv_krr_upper_bound, inv_geometric_lower_bound, truncated_geometric_inverse,
    inv_geometric_exact_sq_error, inv_bound_sampling, identifying_observations, consistency_errors,
    consistency_error,
    krr_likely_fraction, square_lattice_delta, loglog_slope, all_observed_concavity, krr_observed_concavity,
    line_mechanism_matrix, line_mechanism_perturb, distance_monotonicity_violations,
)

__all__ = [
    "CLAIMS",
    "figures",
    "scoring",
    "tables",
    "mle",
    "readings",
    "renormalised_planar_geometric_channel",
    "mle_runs",
    "mle_cross_check",
    "strictly_concave_runs",
    "MLE_TOL",
    "Trials",
    "RapporTrials",
    "location_metric",
    "estimation_trials",
    "rappor_trials",
    "threshold_sweep",
    "run_estimates",
    "cpu_seconds",
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
    "inv_geometric_exact_sq_error",
    "inv_bound_sampling",
    "identifying_observations",
    "consistency_errors",
    "consistency_error",
    "krr_likely_fraction",
    "square_lattice_delta",
    "loglog_slope",
    "all_observed_concavity",
    "krr_observed_concavity",
    "line_mechanism_matrix",
    "line_mechanism_perturb",
    "distance_monotonicity_violations",
]
