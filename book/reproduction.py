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

# %% [markdown]
# # Reproduction summary
#
# Every chapter ends with a reproduction report and writes it to
# `_build/reproduction/<chapter>.json`. This page, executed after all the chapters, gathers those
# reports: for each chapter, how many of the paper's claims pass, fail, diverge from the paper
# (with the reason), or could not be evaluated. The rows that diverge are listed in full below:
# they are the places where this book disagrees with a paper, and each says why.

# %% tags=["parameters"]
SCALE = "book"
SEED = 0

# %%
import pandas as pd
from IPython.display import HTML, display

from ldpnb.repro.report import STATUSES, build_dir, load_reports

reports = load_reports(build_dir() / "reproduction")
CHAPTER_ORDER = ["foundations", "pie", "lift", "ibu", "multidim_risks", "privic", "audit", "performance"]
names = sorted(reports, key=lambda n: (CHAPTER_ORDER.index(n) if n in CHAPTER_ORDER else 99, n))
rows = [dict(chapter=n, **r) for n in names for r in reports[n]]
table = pd.DataFrame(rows, columns=["chapter", "id", "claim", "paper", "ours", "tolerance", "status", "scale", "note"])
print(f"{len(names)} chapter report(s), {len(table)} claims")

# %% [markdown]
# ## Claims per chapter and status

# %%
if table.empty:
    summary = pd.DataFrame(columns=["chapter", *STATUSES, "total", "scale"])
else:
    summary = (
        table.pivot_table(index="chapter", columns="status", values="id", aggfunc="count", fill_value=0)
        .reindex(columns=list(STATUSES), fill_value=0)
        .reindex(names)
    )
    summary["total"] = summary.sum(axis=1)
    summary["scale"] = table.groupby("chapter")["scale"].agg(lambda s: ", ".join(sorted(set(s)))).reindex(names)
    summary = summary.reset_index()
display(summary.style.hide(axis="index") if not summary.empty else summary)

# %% [markdown]
# ## Where the book and the papers disagree
#
# A *diverging* row is a claim of a paper that does not hold in our reproduction. The note gives
# the reason (a misprint, an unstated parameter, different data, a bound that is false as stated)
# and the check of what holds instead.

# %%
def show(rows: pd.DataFrame, empty: str) -> None:
    if rows.empty:
        display(HTML(f"<p><i>{empty}</i></p>"))
        return
    cols = ["chapter", "id", "claim", "paper", "ours", "tolerance", "note"]
    display(HTML(rows[cols].to_html(index=False, escape=True)))


show(table[table.status == "diverges"], "No diverging rows.")

# %% [markdown]
# ## Claims not evaluated

# %%
show(table[table.status == "not-evaluated"], "Every claim was evaluated.")

# %% [markdown]
# ## Failed claims
#
# At book scale a failed claim stops the build, so this list is empty in the published book; it
# is shown here for runs at other scales.

# %%
show(table[table.status == "fail"], "No failed claims.")
