"""Estimators of the input distribution from reports: the inversion family (INV, INV-N, INV-P)
and the iterative Bayesian update (IBU), with the geometry of the likelihood."""

from ._inversion import (
    inv_raw, inv_normalized, inv_projected, project_simplex, normalize_clip, fo_estimate,
    inv_expected_sq_error, inv_sq_error_monte_carlo, clip_normalize, project_simplex_rows, rappor_unbiased,
    fo_variance,
)
from ._ibu import (
    CRITERIA, IBUResult, StopRule, ibu, ibu_batch, ibu_gap, log_likelihood, ibu_rows, ibu_path, gibu,
    gibu_log_likelihood, ibu_step,
)
from ._likelihood import (
    observation_matrix, loglik_observations, is_strictly_concave, concavity_null_direction, is_identifiable,
    unlikely_mask, likely_subset_linear, likely_subset_grr, likely_subset_krr, planar_delta_prime,
    distance_to_convex_hull, likely_subset_planar, kkt_residual,
)

__all__ = [
    "inv_raw",
    "inv_normalized",
    "inv_projected",
    "project_simplex",
    "normalize_clip",
    "fo_estimate",
    "inv_expected_sq_error",
    "inv_sq_error_monte_carlo",
    "clip_normalize",
    "project_simplex_rows",
    "rappor_unbiased",
    "fo_variance",
    "IBUResult",
    "StopRule",
    "ibu",
    "ibu_batch",
    "log_likelihood",
    "ibu_rows",
    "ibu_path",
    "ibu_gap",
    "CRITERIA",
    "gibu",
    "gibu_log_likelihood",
    "ibu_step",
    "observation_matrix",
    "loglik_observations",
    "is_strictly_concave",
    "concavity_null_direction",
    "is_identifiable",
    "unlikely_mask",
    "likely_subset_linear",
    "likely_subset_grr",
    "likely_subset_krr",
    "planar_delta_prime",
    "distance_to_convex_hull",
    "likely_subset_planar",
    "kkt_residual",
]
