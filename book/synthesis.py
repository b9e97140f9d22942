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
# # Synthesis: five lenses on the same mechanisms
#
# {glue:md}`synthesis-status`
#
# Each of the five papers looks at local privacy through one lens, and each applies its lens to
# its own mechanisms. The PIE paper measures how much a report tells about *who* sent it (mutual
# information between user and report, and the Fano bound on re-identification); the lift paper
# measures how much a report tells about a *secret* behind the data (the lift, ALIP); the IBU
# paper measures how well the data collector can still *estimate* the distribution (EMD after
# IBU or matrix inversion); the risks paper attacks the reports (re-identification, attribute
# inference); PRIVIC trades geo-indistinguishability against utility with the Blahut-Arimoto
# mechanism. A practitioner choosing a mechanism has to put these lenses side by side. This
# chapter does: every mechanism of the book, on two real data sets, seen through every lens.
#
# No paper prints the numbers of this chapter. Each row of its report is a bound that follows
# from a definition (`derived`), a property of our objects (`invariant`), or a paper's
# conclusion tested outside the setting the paper used (`extension`), with a criterion fixed
# from the statement and, for Monte Carlo numbers, from their paired standard errors.

# %% tags=["parameters", "remove-cell"]
SCALE = "book"  # "smoke" | "book" | "paper"
SEED = 2024

# %% tags=["hide-input"]
import time

import numpy as np
from myst_nb import glue

from ldpnb.papers.synthesis import CLAIMS, experiments as ex, figures
from ldpnb.repro import Report, seed_for
from ldpnb.repro.plotting import set_style

set_style()
report = Report("synthesis", CLAIMS, scale=SCALE, seed=SEED)
RUNS, POINTS = {"smoke": (4, 4), "book": (40, 10), "paper": (200, 16)}[SCALE]
glue("synthesis-runs", f"{RUNS}", display=False)
t0 = time.process_time()

# %% [markdown]
# ## Two data sets, one alphabet each
#
# Every lens needs something of the data: the metric mechanisms need a distance between values,
# the lift lens needs a secret $S$ behind the published value $X$, re-identification needs users
# with several records. Two real data sets provide all three.
#
# **Adult** (UCI, all {glue:text}`synthesis-adult-n` records): the published value $X$ is the
# pair (age group, weekly hours group), age in four groups (< 30, 30-39, 40-49, ≥ 50) and hours
# in three (< 40, 40, > 40), so $X$ lives on a 4 × 3 grid of ordinal bins with the Euclidean
# distance in bins. The secret $S$ is whether the person has never married. Income and sex,
# the usual secrets of this data set, are nearly independent of age and hours: the Bayes-optimal
# guess of income is as good without $X$ as with it, and for sex it gains
# {glue:text}`synthesis-sex-gain` (below); attribute inference would then show nothing. Marital
# status depends strongly on age: the best guess improves from
# {glue:text}`synthesis-vs-prior` to {glue:text}`synthesis-vs-x` once $X$ is known.
#
# **Gowalla** (check-ins in Manhattan): $X$ is the cell of a check-in on a 4 × 3 grid of cells
# of about {glue:text}`synthesis-cell`, the distance in km between cell centres. The
# {glue:text}`synthesis-users` users with at least 20 check-ins in the box are the population
# of the re-identification lens, each with the distribution $P(x \mid u)$ of their check-ins.

# %%
adult, gowalla = ex.adult_setting(), ex.gowalla_setting()
gain = {}
for s in ex.ADULT_SECRETS:
    P = ex.adult_setting(s).p_sx
    gain[s] = (P.sum(axis=1).max(), P.max(axis=0).sum())

# %% tags=["remove-cell"]
glue("synthesis-adult-n", f"{adult.n:,}", display=False)
glue("synthesis-sex-gain", f"{gain['male'][1] - gain['male'][0]:.3f}", display=False)
glue("synthesis-vs-prior", f"{gain['never married'][0]:.3f}", display=False)
glue("synthesis-vs-x", f"{gain['never married'][1]:.3f}", display=False)
cell = f"{gowalla.cell[0]:.1f} × {gowalla.cell[1]:.1f} km"
glue("synthesis-cell", cell, display=False)
glue("synthesis-users", f"{gowalla.n_users:,}", display=False)

# %% [markdown]
# ## The mechanisms and the operating point
#
# Eighteen mechanisms, each a `Mechanism` object with its exact channel $P(y \mid x)$:
# the frequency oracles k-RR, SUE (basic RAPPOR), OUE, OLH and SS on the twelve values; the
# truncated geometric and discretised Laplace mechanisms applied to each coordinate of the grid
# (geo-indistinguishable for the L1 distance in bins or cells); the exponential mechanism and the
# planar geometric and planar Laplace mechanisms on the grid; the Blahut-Arimoto (BA) mechanism
# of PRIVIC for the Euclidean distortion; the lift-based watchdog (complete and subset merging),
# ORR (the symmetric AORR) and SRR, which need the secret and so run on Adult only; and the
# multidimensional SMP, RS+FD and RS+RFD on the tuple (age group, hours group) or (row, column).
#
# Their parameters mean different things (an ε-LDP level, a geo-indistinguishability level per
# km, an ALIP budget, BA's β). The **operating point** puts them on one scale: every mechanism
# whose channel has a finite ε-LDP level on $X$ is set to a *tight* level of exactly 1, by root
# finding on its parameter. RS+FD then runs at a stated ε of 0.62: its tight level is the
# amplified $\varepsilon' = \ln(d(e^\varepsilon - 1) + 1)$, not the ε the risks paper states.
# The lift-based mechanisms publish some values unchanged, so their level on $X$ is infinite at
# every budget; they run at $\varepsilon_l = \varepsilon_u = 0.5$, which makes them 1-LDP *for
# the secret* $S$, as every 1-LDP mechanism on $X$ is.

# %%
ops = {s.name: ex.operating_point(s) for s in (adult, gowalla)}
params = {k: {n: p for n, (p, _) in op.items()} for k, op in ops.items()}
checks = [ex.claim_checks(s, params[s.name]) for s in (adult, gowalla)]
fails, checked = np.sum(checks, axis=0)
report.holds("S1", failures=int(fails), checked=int(checked))
gaps = [abs(lv - 1) for op in ops.values() for p, lv in op.values() if np.isfinite(lv)]
report.close("S2", max(gaps))

# %% [markdown]
# ## The lenses
#
# For a channel $C$ and the data's distribution $\pi$ of $X$, each lens is one number:
#
# * **ε-LDP level** $\max_y \log(\max_x C_{xy} / \min_x C_{xy})$ and **geo-indistinguishability
#   level** $\max_{x \ne x', y} \log(C_{xy}/C_{x'y}) / d(x, x')$ of the exact channel;
# * **PIE**: the information $I(U;Y)$ between the user and one report, in bits, and the Fano
#   lower bound $1 - (I(U;Y) + 1)/\log_2 n$ on the error of any re-identification among $n$
#   users (PIE paper, Cor. 3.9). On Adult every record is a user and $X$ is a function of it, so
#   $I(U;Y) = I(X;Y)$;
# * **Bayes vulnerability** $V(X \mid Y) = \sum_y \max_x \pi_x C_{xy}$, the success of the best
#   single guess of $X$ from the report, and on Gowalla $V(U \mid Y)$, the success of the best
#   guess of the *user*;
# * **lift** (Adult): with $P_{SY} = P_{SX} C$, the lift $\ell(s, y) = P(s \mid y)/P(s)$, its
#   max-lift and min-lift leakages $\log \max \ell$ and $-\log \min \ell$ (ALIP), the
#   LDP-w.r.t.-$S$ leakage $\max_y \log(\max_s \ell / \min_s \ell)$ and the largest l1
#   lift-inverse leakage;
# * **attribute inference** (Adult): $V(S \mid Y) = \sum_y \max_s (P_{SX}C)_{sy}$, the accuracy of
#   the Bayes-optimal guess of the secret from the report;
# * **estimation utility**: the EMD (ground distance: bins or km) and L1 distance between the
#   true $\pi$ and its estimate from the $n$ reports, after IBU and after INV (least-squares
#   inversion, clipped and renormalised), averaged over {glue:text}`synthesis-runs` collections.
#
# Everything but the utility is exact. {numref}`fig-synthesis-heat-adult` shows every lens of
# every mechanism on Adult at the operating point.

# %%
table = {s.name: ex.lens_table(s, params[s.name], runs=RUNS,
                              seed=seed_for(SEED, s.name)) for s in (adult, gowalla)}

# %% tags=["hide-input", "remove-output"]
LENSES_A = {"ldp": "ε-LDP (X)", "geo": "geo-ind", "mi": "I(X;Y) bits", "vx": "V(X|Y)",
            "lift_ldp": "LDP leak (S)", "lift_inv": "lift-inverse", "vs": "V(S|Y)",
            "emd_ibu": "EMD, IBU", "emd_inv": "EMD, INV"}
heat = figures.lens_heatmap(table["Adult"], LENSES_A)
glue("synthesis-heat-adult", heat)

# %% [markdown]
# ```{glue:figure} synthesis-heat-adult
# :name: fig-synthesis-heat-adult
# :alt: A heat map with eighteen mechanisms as rows and nine lenses as columns; the cells show each lens's value, coloured by the mechanism's rank within the column, dark for the most leakage or the worst estimate.
#
# Adult at the operating point (tight 1-LDP on X; lift-based mechanisms 1-LDP for S): every
# lens of every mechanism, exact except the two EMD columns (means over
# {glue:text}`synthesis-runs` collections of the 48,842 reports). Colour: rank within the
# column, dark = leaks most or estimates worst.
# ```

# %% [markdown]
# ## Bounds that hold for every mechanism
#
# Some relations between lenses follow from the definitions and must hold for every mechanism at
# every parameter; they are checked here along sweeps of each family's parameter
# ({glue:text}`synthesis-points` values per family, exact). Four are implications from one lens
# to another: ε-LDP on $X$ bounds the leakage about $S$, since $P(y \mid s)$ mixes the rows
# $P(y \mid x)$ (D1); it bounds the mutual information by $\min(\varepsilon, \varepsilon^2)$ nats
# (D2); the max-lift bounds the Bayes leakage about $S$ (D3); and the PIE paper's Fano bound is
# below the exact Bayes re-identification error (D4). The lift-based mechanisms keep their
# budget (D5), and no report helps an attribute-inference attacker more than $X$ itself (D6).

# %%
sweeps = {s.name: ex.sweep_all(s, POINTS) for s in (adult, gowalla)}
viol = {k: {"violations": 0, "checked": 0} for k in ("D1", "D2", "D3", "D4", "D6")}
for s in (adult, gowalla):
    for k, v in ex.bound_violations(sweeps[s.name], s).items():
        viol[k] = {c: viol[k][c] + v[c] for c in v}
for k, v in viol.items():
    report.holds(k, **v)
lift = [table["Adult"][n][c] for n in ex.LIFT for c in ("lift_max", "lift_min")]
report.range("D5", max(lift))

# %% tags=["remove-cell"]
glue("synthesis-points", f"{POINTS}", display=False)

# %% [markdown]
# ## The papers' conclusions outside their setting
#
# **IBU against INV.** The IBU paper finds that the iterative Bayesian update estimates the
# distribution better than matrix inversion, for k-RR, RAPPOR and the geometric mechanisms. Does
# it hold for every geo-indistinguishable mechanism, for BA, and for the other frequency oracles?
# The rows below ask for an advantage of more than two paired standard errors.

# %%
for row, s, names in (("E1", "Adult", ex.GEO), ("E2", "Adult", ex.ORACLES),
                      ("E3", "Gowalla", ex.GEO)):
    report.holds(row, **ex.ibu_advantage(table[s], names))

# %% [markdown]
# ## Reproduction report

# %%
report.timing("book-scale run (CPU seconds)", time.process_time() - t0)
report.finalize()
