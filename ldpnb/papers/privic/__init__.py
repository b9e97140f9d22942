"""PRIVIC (Biswas and Palamidessi 2023): the Blahut-Arimoto mechanism and IBU for the incremental
collection of location data.

``CLAIMS`` (the paper's claims as data), ``values`` (printed numbers, with where), ``model`` (grids,
priors, LAP, the PRIVIC loop), ``experiments`` (the chapter's experiments), ``grading`` (their random
results as estimates with intervals, by claim) and ``figures`` (one function per figure of the paper).
"""

from . import experiments, figures, grading, values
from .claims import CLAIMS
from .model import (
    ISLAND_MODES, PrivicResult, adversarial_prior, all_supports, ba_convergence_summary, ba_ibu_duality_gap,
    block_indices, elastic_fixpoints, fake_report_share, flat_index, inner_columns, island_prior, lap_at_level,
    lap_grid_channel, lap_tight_level, load_privic_counts, padded_row,
    paper_label_percent, privic, privic_bins, privic_distance, privic_edges, privic_table, right_inverse_residual,
    row_similarity, row_stats, tight_eps_ba,
)
from .values import (
    AUTHORS_TIGHT_EPS, CITIES, CITY_NAMES, CITY_SHAPE, ISLAND_A, ISLAND_B, PAPER_GRID_TEXT, PAPER_TABLE_III,
    PAPER_TABLE_IV, PAPER_TABLES, PROTOCOL,
)

__all__ = [
    "CLAIMS", "experiments", "figures", "grading", "values",
    "ISLAND_MODES", "PrivicResult", "adversarial_prior", "all_supports", "ba_convergence_summary",
    "ba_ibu_duality_gap", "block_indices", "elastic_fixpoints", "fake_report_share", "flat_index",
    "inner_columns", "island_prior", "lap_at_level", "lap_grid_channel", "lap_tight_level",
    "load_privic_counts", "padded_row", "paper_label_percent", "privic", "privic_bins", "privic_distance",
    "privic_edges", "privic_table", "right_inverse_residual", "row_similarity", "row_stats", "tight_eps_ba",
    "AUTHORS_TIGHT_EPS", "CITIES", "CITY_NAMES", "CITY_SHAPE", "ISLAND_A", "ISLAND_B", "PAPER_GRID_TEXT",
    "PAPER_TABLE_III", "PAPER_TABLE_IV", "PAPER_TABLES", "PROTOCOL",
]
