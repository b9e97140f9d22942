"""PIE: re-identification risks in the local privacy model (Murakami and Takahashi, TDP 2021)."""

from .theory import gaussian_score_mc, random_ldp_channel, theorem_checks
from .identification import synth_biometric_scores
from .utility import (
    glh_params, rr_params, simulate_rr_counts, simulate_glh_support_counts, empirical_estimate,
    significance_threshold, threshold_estimate, rr_variance, glh_variance, glh_variance_fixed_theta,
    glh_variance_limit, rr_loss_sum, glh_loss_sum, top_indices, sum_l2_top, mean_relative_error_top,
    zipf_profile, sample_empirical, UtilityPopulation, utility_run, synthetic_population, utility_task,
)

__all__ = [
    "gaussian_score_mc",
    "random_ldp_channel",
    "theorem_checks",
    "synth_biometric_scores",
    "glh_params",
    "rr_params",
    "simulate_rr_counts",
    "simulate_glh_support_counts",
    "empirical_estimate",
    "significance_threshold",
    "threshold_estimate",
    "rr_variance",
    "glh_variance",
    "glh_variance_fixed_theta",
    "glh_variance_limit",
    "rr_loss_sum",
    "glh_loss_sum",
    "top_indices",
    "sum_l2_top",
    "mean_relative_error_top",
    "zipf_profile",
    "sample_empirical",
    "UtilityPopulation",
    "utility_run",
    "synthetic_population",
    "utility_task",
]
