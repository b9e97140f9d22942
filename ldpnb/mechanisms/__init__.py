"""Local-privacy mechanisms, one module per family: a :class:`Mechanism` object per family
(``GRR(k, eps).channel()``, ``.perturb(x, rng=)``, ``.simulate_counts(N, size=, rng=)``,
``.operator()``, ``.guarantee``, ``.check()``; the frequency oracles' ``.estimate()`` and
``.variance()``), and the functional kernels the objects use (``grr_channel``, ``ue_perturb``, ...).

Defining a family's class registers it (:attr:`Mechanism.REGISTRY`, :meth:`Mechanism.lookup` by name
or alias); :func:`catalog` builds every family that defines ``on(domain, epsilon)`` at one level, and
the protocol registry of the multidimensional chapter and the audit's cases are derived from the same
classes.

===================  ==========================================================
``grr``              k-ary randomized response (k-RR / GRR)
``unary``            unary encodings (SUE = basic RAPPOR, OUE)
``hashing``          local hashing (BLH, OLH, GLH)
``subset``           omega-subset selection (SS)
``metric``           geometric, Laplace, exponential, planar (geo-indistinguishability)
``watchdog``         watchdog mechanisms (complete and subset merging)
``orr``              (asymmetric / subset) optimal random response
``multidim``         multidimensional protocols (SPL, SMP, RS+FD, RS+RFD; tuple mechanisms SMP, RSFD, RSRFD)
``protocols``        the frequency-oracle protocols by name (derived from the registry)
``rate_distortion``  the Blahut-Arimoto (rate-distortion) mechanism
``hadamard``         Hadamard response (HR) and Hadamard randomized response (HRR)
``_hashes``          OLH with a short-seed Carter-Wegman hash, exact over its seeds (OLH-CW)
``rappor``           RAPPOR with Bloom filters (PRR + IRR, least-squares decoding)
``longitudinal``     memoised two-round oracles: L-GRR, L-OSUE, dBitFlipPM
===================  =========================================================="""

from ._base import Domain, Guarantee, LevelCheck, Mechanism, FrequencyOracle, MetricMechanism, ChannelMechanism
from .grr import GRR, GRROperator, grr_params, grr_channel, grr_perturb, grr_simulate_counts
from .unary import (
    UnaryEncoding, SUE, OUE,
    ue_params, ue_perturb, ue_simulate_support_counts, ue_channel, ue_pattern_index, rappor_channel,
    rappor_perturb,
)
from .hashing import (
    LocalHashing, OLH, BLH,
    HASH_PRIME, lh_params, lh_hash, lh_draw_seeds, lh_perturb, lh_support_counts, lh_simulate_support_counts,
    lh_channel,
)
from .subset import SubsetSelection, ss_params, ss_perturb, ss_simulate_support_counts, ss_channel, ss_subsets, ss_subset_index
from .metric import (
    TruncatedGeometric, DiscreteLaplace, Exponential, PlanarGeometric, PlanarLaplace, PaddedPlanarLaplace,
    geometric_channel, geometric_perturb, laplace_channel, laplace_perturb, planar_geometric_channel,
    planar_laplace_channel, planar_laplace_perturb, planar_laplace_padded_channel, exponential_channel, untruncated_geometric_matrix,
    untruncated_geometric_perturb,
)
from ._catalog import FAMILIES, catalog
from .watchdog import (
    MergeMechanism, watchdog_partition, merging_mi, complete_merging, subset_merging, optimal_partition,
)
from .orr import (
    alip_column_polytope, polytope_vertices, min_concave_over_vertices, column_entropies, ORRResult,
    optimal_random_response, SRRResult, subset_random_response, has_cdd, perfect_privacy_response,
)
from .multidim import (
    PROTOCOLS, amplified_epsilon, fo_params, check_dataset, sample_attributes, spl_collect, spl_estimate,
    smp_collect, smp_estimate, spl_variance, smp_variance, rsfd_params, rsfd_collect, rsfd_support_counts,
    rsfd_estimate, rsfd_variance, rsfd_aggregate, rsfd_counts_sampler, rsfd_approx_variance,
    rsfd_support_probability, clip_normalize, rsfd_tuple_channel, exact_privacy_loss,
    TupleMechanism, SMP, RSFD, RSRFD, RSFD_VARIANTS, rsfd_mechanism,
)
from .protocols import Protocol, PROTOCOL_REGISTRY, protocol, protocol_names
from .rate_distortion import (
    exponential_kernel, ba_F, ba_G, BAResult, blahut_arimoto, average_distortion, mutual_information_nats,
    ba_lagrangian, rd_point, rd_curve, rd_closed_form, kernel_min_eigenvalue,
    ba_iterate_factorization_residual, BlahutArimoto,
)

# the mechanisms deployments use (issue #33 item 4); imported after multidim, whose PROTOCOLS
# snapshot keeps the risks chapter's six protocols
from .hadamard import HR, HRR, HROperator, HRROperator, fwht, hr_params, hr_channel, hrr_channel
from ._hashes import OLHCW, next_prime, cw_collision_probability
from .rappor import BloomRAPPOR, rappor_bloom_bits, rappor_params
from .longitudinal import LGRR, LOSUE, DBitFlipPM, lgrr_params, losue_params, dbitflip_params

__all__ = [
    "Domain",
    "Guarantee",
    "LevelCheck",
    "Mechanism",
    "FrequencyOracle",
    "MetricMechanism",
    "ChannelMechanism",
    "GRR",
    "GRROperator",
    "UnaryEncoding",
    "SUE",
    "OUE",
    "LocalHashing",
    "OLH",
    "BLH",
    "SubsetSelection",
    "TruncatedGeometric",
    "DiscreteLaplace",
    "Exponential",
    "PlanarGeometric",
    "PlanarLaplace",
    "PaddedPlanarLaplace",
    "FAMILIES",
    "catalog",
    "grr_params",
    "grr_channel",
    "grr_perturb",
    "grr_simulate_counts",
    "ue_params",
    "ue_perturb",
    "ue_simulate_support_counts",
    "ue_channel",
    "ue_pattern_index",
    "rappor_channel",
    "rappor_perturb",
    "HASH_PRIME",
    "lh_params",
    "lh_hash",
    "lh_draw_seeds",
    "lh_perturb",
    "lh_support_counts",
    "lh_simulate_support_counts",
    "lh_channel",
    "ss_params",
    "ss_perturb",
    "ss_simulate_support_counts",
    "ss_channel",
    "ss_subsets",
    "ss_subset_index",
    "geometric_channel",
    "geometric_perturb",
    "laplace_channel",
    "laplace_perturb",
    "planar_geometric_channel",
    "planar_laplace_channel",
    "planar_laplace_perturb",
    "planar_laplace_padded_channel",
    "exponential_channel",
    "untruncated_geometric_matrix",
    "untruncated_geometric_perturb",
    "MergeMechanism",
    "watchdog_partition",
    "merging_mi",
    "complete_merging",
    "subset_merging",
    "optimal_partition",
    "alip_column_polytope",
    "polytope_vertices",
    "min_concave_over_vertices",
    "column_entropies",
    "ORRResult",
    "optimal_random_response",
    "SRRResult",
    "subset_random_response",
    "has_cdd",
    "perfect_privacy_response",
    "PROTOCOLS",
    "amplified_epsilon",
    "fo_params",
    "check_dataset",
    "sample_attributes",
    "spl_collect",
    "spl_estimate",
    "smp_collect",
    "smp_estimate",
    "spl_variance",
    "smp_variance",
    "rsfd_params",
    "rsfd_collect",
    "rsfd_support_counts",
    "rsfd_estimate",
    "rsfd_variance",
    "rsfd_aggregate",
    "rsfd_counts_sampler",
    "rsfd_approx_variance",
    "rsfd_support_probability",
    "clip_normalize",
    "rsfd_tuple_channel",
    "exact_privacy_loss",
    "TupleMechanism",
    "SMP",
    "RSFD",
    "RSRFD",
    "RSFD_VARIANTS",
    "rsfd_mechanism",
    "Protocol",
    "PROTOCOL_REGISTRY",
    "protocol",
    "protocol_names",
    "exponential_kernel",
    "ba_F",
    "ba_G",
    "BAResult",
    "blahut_arimoto",
    "average_distortion",
    "mutual_information_nats",
    "ba_lagrangian",
    "rd_point",
    "rd_curve",
    "rd_closed_form",
    "kernel_min_eigenvalue",
    "ba_iterate_factorization_residual",
    "BlahutArimoto",
    "HR",
    "HRR",
    "HROperator",
    "HRROperator",
    "fwht",
    "hr_params",
    "hr_channel",
    "hrr_channel",
    "OLHCW",
    "next_prime",
    "cw_collision_probability",
    "BloomRAPPOR",
    "rappor_bloom_bits",
    "rappor_params",
    "LGRR",
    "LOSUE",
    "DBitFlipPM",
    "lgrr_params",
    "losue_params",
    "dbitflip_params",
]
