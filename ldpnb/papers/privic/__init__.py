"""PRIVIC: Blahut-Arimoto mechanism and IBU for incremental location collection (Biswas and Palamidessi)."""

from .values import (
    CITY_SHAPE, PAPER_GRID_TEXT, ISLAND_A, ISLAND_B, PROTOCOL, TIGHT_EPS_BETAS, PAPER_TIGHT_EPS,
    PAPER_TABLE_III, PAPER_TABLE_IV,
)
from .figures import heatmap, draw_duality, draw_privic_loop
from .model import (
    privic_distance, flat_index, block_indices, lap_grid_channel, island_prior, adversarial_prior,
    adversarial_percent, row_stats, PrivicResult, privic, privic_table, stat_utility_sweep, tight_eps_ba,
    inner_columns, ba_convergence_summary, ba_ibu_duality_gap, right_inverse_residual, privic_edges,
    privic_bins, load_privic_counts,
)

__all__ = [
    "CITY_SHAPE",
    "PAPER_GRID_TEXT",
    "ISLAND_A",
    "ISLAND_B",
    "PROTOCOL",
    "TIGHT_EPS_BETAS",
    "PAPER_TIGHT_EPS",
    "PAPER_TABLE_III",
    "PAPER_TABLE_IV",
    "heatmap",
    "draw_duality",
    "draw_privic_loop",
    "privic_distance",
    "flat_index",
    "block_indices",
    "lap_grid_channel",
    "island_prior",
    "adversarial_prior",
    "adversarial_percent",
    "row_stats",
    "PrivicResult",
    "privic",
    "privic_table",
    "stat_utility_sweep",
    "tight_eps_ba",
    "inner_columns",
    "ba_convergence_summary",
    "ba_ibu_duality_gap",
    "right_inverse_residual",
    "privic_edges",
    "privic_bins",
    "load_privic_counts",
]
