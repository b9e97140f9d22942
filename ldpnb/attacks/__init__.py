"""Attacks: plausible deniability, re-identification by profile matching, attribute inference,
and linkage of traces (Markov-chain matcher)."""

from .deniability import expected_pd_accuracy, multi_collection_accuracy, pd_attack_support, perturb_and_infer
from .inference import (
    aif_bayes,
    aif_bayes_models,
    aif_classifier,
    aif_log_likelihood,
    rsfd_features,
    synthetic_profiles,
)
from .linkage import MarkovChainMatcher, SingleLocationAttack, score_experiment, sequences_from_events, split_halves
from .reidentification import (
    ReidIndex,
    reid_topk,
    reid_topk_sampled,
    rsfd_reid_chain,
    simulate_smp_surveys,
    survey_design,
)

__all__ = [
    "expected_pd_accuracy",
    "multi_collection_accuracy",
    "pd_attack_support",
    "perturb_and_infer",
    "survey_design",
    "simulate_smp_surveys",
    "ReidIndex",
    "reid_topk",
    "reid_topk_sampled",
    "rsfd_reid_chain",
    "synthetic_profiles",
    "aif_log_likelihood",
    "aif_bayes",
    "aif_bayes_models",
    "rsfd_features",
    "aif_classifier",
    "sequences_from_events",
    "split_halves",
    "MarkovChainMatcher",
    "SingleLocationAttack",
    "score_experiment",
]
