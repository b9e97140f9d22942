"""Performance appendix: the package's kernels timed against their floors, our own baselines and the peers.

Not a paper.  ``CLAIMS`` holds the appendix's exactness and agreement claims (which can fail); the
speed targets are timings (medians of interleaved repeats), shown as met or missed on the page and
written to the chapter's timings file, never a pass/fail row (a busy machine must not fail the book).
"""

from .claims import CLAIMS, TARGETS

__all__ = ["CLAIMS", "TARGETS"]
