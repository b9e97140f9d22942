"""Performance appendix: the package's kernels timed against the peers, our own baselines and floors.

Not a paper.  ``CLAIMS`` holds the appendix's exactness and agreement claims (which can fail); the
speed targets (``TARGETS``) are timings (medians of interleaved repeats), shown as met or missed on
the page and written to the chapter's timings file, never a pass/fail row (a busy machine must not
fail the book).  ``experiments`` runs the comparisons, ``figures`` draws them, ``bench`` times.
"""

from . import bench, experiments, figures
from .claims import CLAIMS, SIZES_BY_SCALE, TARGETS

__all__ = ["CLAIMS", "SIZES_BY_SCALE", "TARGETS", "bench", "experiments", "figures"]
