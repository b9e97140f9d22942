# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% tags=["remove-cell"]
# On Colab, install the book's package (elsewhere a no-op; written by ldpnb.repro.colab)
import sys

if "google.colab" in sys.modules:
    import subprocess

    req = "ldpnb[notebook] @ git+https://github.com/ldpnb/ldpnb"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", req], check=True)

# %% [markdown]
# # Every claim of the book
#
# Each chapter checks its paper claim by claim, and writes its reproduction report to
# `_build/reproduction/<chapter>.json`. This page, executed after all the chapters, gathers them
# to answer one question first: **what did not reproduce?** The table at the end lists every claim:
# its chapter and id (a link to its row in the chapter), its **status**, the claim, the paper's
# value (or our reference) and ours, and the status of the recorded paper-scale run. The buttons
# above it show the rows that diverge, the candidate errata, the rows not evaluated or undecided,
# the claims printed in the papers, and the rows flagged as weak tests or with a changed
# criterion; *Columns* shows more: the claim's **source** (printed in the paper, derived by us from
# the paper's formulas, a calibration, an extension beyond the paper, or an invariant of our
# implementation), where the paper says it, the **kind** of criterion, the criterion itself, the
# flags, and the note. Sort by any column, and filter with the boxes under the headers. The whole
# table is also available as {download}`claims.csv <claims.csv>` and
# {download}`claims.json <claims.json>`.
#
# A criterion is fixed in the paper's claims table (`ldpnb/papers/<paper>/claims.py`) before any
# number is computed, and every evaluated row carries a **falsifier**: numbers for which the same
# criterion would fail (the test suite re-checks every one). A *calibration* row compares with a
# value we chose to make an experiment match the paper: it is listed, but it never counts as a
# reproduction.

# %% tags=["parameters", "remove-cell"]
SCALE = "book"
SEED = 2024  # unused here; the chapters' seed, so that the provenance footer names one seed

# %% tags=["remove-input"]
from IPython.display import HTML, display

from ldpnb.repro.dashboard import claims_frame, errata_html, interactive_table, summary_tables, write_downloads

claims = claims_frame()
write_downloads(claims)
by_chapter, by_source = summary_tables(claims, fmt="html")

# %% [markdown]
# ## What did not reproduce
#
# A row **diverges** when its claim does not hold in our reproduction; the divergence is declared
# in advance and re-checked on every run. It refutes either a **claim of the paper** (a value or
# statement printed in it, or derived from its formulas or data: candidate errata) or an
# **expectation of ours** (an extension, an invariant or a calibration). Each id links to its row,
# whose note says what holds instead.

# %% tags=["remove-input"]
display(HTML(errata_html(claims)))

# %% [markdown]
# ## Totals

# %% tags=["remove-input"]
display(HTML(by_chapter))

# %% tags=["remove-input"]
display(HTML(by_source))

# %% [markdown]
# ## Paper-scale runs
#
# The book executes at `SCALE=book` on every build. Each chapter was also run once at the paper's
# scale (`python -m ldpnb.repro.paperscale --only <chapter>`, on the project's 2-core machine) and its
# report committed under `results/paper/`; the column *paper-scale status* of the table below comes
# from those records. A record made at an older commit is flagged *stale* when its claim ids no
# longer match the chapter's. *Minutes* are wall-clock times, *CPU minutes* user and system time
# of the kernel and its worker processes, on the record's *machine* and at its load: a run on
# several worker processes uses more CPU than wall time, a run on a busy machine more wall time
# than CPU, and the same work takes more CPU seconds on a slower machine. Each run also timed a
# fixed reference workload; a chapter's *reference units* are its CPU seconds over the
# reference's, comparable across machines and loads. The last row sums the reference units
# only: the serial cost of the whole book at paper scale (the {doc}`performance appendix
# <performance>` converts them into minutes).

# %% tags=["remove-input"]
from ldpnb.repro.dashboard import paper_runs_table

display(HTML(paper_runs_table(claims).to_html(index=False, classes="claims-totals", na_rep="")))

# %% [markdown]
# ## Paper-scale figures
#
# The figures of those recorded runs: every figure of each chapter at the paper's sizes and
# repetitions, as the run drew it (captions with that run's sizes filled in; formulas in plain
# text). They are recorded results, like the rows above, not recomputed by the book's build; each
# links to its book-scale counterpart, which the build recomputes, and carries that figure's
# number (Figure 3.2 is the second figure of the third paper's chapter).

# %% tags=["remove-input"]
from ldpnb.repro.dashboard import paper_figures_html

display(HTML(paper_figures_html()))

# %% [markdown]
# ## All claims

# %% tags=["remove-input"]
interactive_table(claims)
