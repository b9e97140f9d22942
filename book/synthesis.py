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

    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet",
                    "ldpnb[notebook] @ git+https://github.com/ldpnb/ldpnb"], check=True)

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
from IPython.display import Markdown
from myst_nb import glue

from ldpnb.measures.lenses import discordant_pairs, rank_agreement
from ldpnb.papers.synthesis import CLAIMS, experiments as ex, figures, text
from ldpnb.repro import Report, seed_for
from ldpnb.repro.plotting import set_style

set_style()
report = Report("synthesis", CLAIMS, scale=SCALE, seed=SEED)
RUNS, POINTS = {"smoke": (4, 4), "book": (40, 10), "paper": (200, 16)}[SCALE]
RUNS_U, POINTS_U = {"smoke": (3, 3), "book": (10, 6), "paper": (50, 12)}[SCALE]
REID_RUNS = {"smoke": 500, "book": 5_000, "paper": 20_000}[SCALE]
# smoke: a few families trace the frontiers (the code path), book and paper: all of them
FRONTIER = ["k-RR", "planar Laplace", "AORR"] if SCALE == "smoke" else None
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
# every mechanism on Adult at the operating point, {numref}`fig-synthesis-heat-gowalla` the same
# on Gowalla, where there is no secret but there are users, so the lift columns give way to the
# PIE information $I(U;Y)$ and the success $V(U \mid Y)$ of re-identifying the user.

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

# %% tags=["hide-input", "remove-output"]
LENSES_G = {"ldp": "ε-LDP (X)", "geo": "geo-ind", "mi": "I(X;Y) bits", "vx": "V(X|Y)",
            "pie": "I(U;Y) bits", "vu": "V(U|Y)", "emd_ibu": "EMD, IBU",
            "emd_inv": "EMD, INV"}
glue("synthesis-heat-gowalla", figures.lens_heatmap(table["Gowalla"], LENSES_G))

# %% [markdown]
# ```{glue:figure} synthesis-heat-gowalla
# :name: fig-synthesis-heat-gowalla
# :alt: A heat map with the fourteen mechanisms that need no secret as rows and eight lenses as columns, coloured by rank within each column as in the Adult heat map.
#
# Gowalla (Manhattan, 4 × 3 cells of {glue:text}`synthesis-cell`) at the operating point
# (tight 1-LDP on X): every lens of every mechanism that needs no secret, exact except the two
# EMD columns (in km; means over {glue:text}`synthesis-runs` collections of the
# {glue:text}`synthesis-g-n` check-ins). I(U;Y) and V(U|Y) are about the
# {glue:text}`synthesis-users` users. Colour: rank within the column, dark = leaks most or
# estimates worst.
# ```

# %% tags=["remove-cell"]
glue("synthesis-g-n", f"{gowalla.n:,}", display=False)

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
viol = {k: {"violations": 0, "checked": 0}
        for k in ("D1", "D2", "D3", "D4", "D6", "D7")}
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
rows = (("E1", "Adult", ex.GEO), ("E2", "Adult", ex.ORACLES), ("E3", "Gowalla", ex.GEO))
adv = {row: ex.ibu_advantage(table[s], names) for row, s, names in rows}
for row in ("E1", "E3"):
    report.holds(row, upper=adv[row]["upper"], lower=adv[row]["lower"])
report.holds("E2", upper_rel=adv["E2"]["upper_rel"], lower=adv["E2"]["lower"])

# %% [markdown]
# Among the metric mechanisms and BA, IBU's advantage exceeds two paired standard errors for
# {glue:text}`synthesis-e1-n` on Adult and {glue:text}`synthesis-e3-n` on Gowalla. Among the
# frequency oracles it does for {glue:text}`synthesis-e2-yes`, but by more than 1% of the EMD
# only for those whose inversions leave the simplex often: for k-RR the two estimators agree
# to {glue:text}`synthesis-e2b`, and SS is as close (E2 diverges). They are close, not
# identical: the criterion fixed before the first result, equal within two paired standard
# errors and 1e-4 bins, fails for k-RR (E2b diverges; they agree within 1% of the EMD).
# That they are close is no accident of the data. For a square invertible channel the INV
# estimate *is* the maximum-likelihood estimate whenever it lies in the simplex, and IBU
# converges to the maximum-likelihood estimate; with 48,842 reports at ε = 1 the k-RR
# inversion rarely leaves the simplex, so there is little for IBU to repair. The IBU paper's
# advantage is an advantage where inversion fails.

# %%
close = ex.ibu_advantage(table["Adult"], ["k-RR", "SS"])
report.holds("E2b", gap=close["gap"], excess=close["excess"])

# %% tags=["remove-cell"]
yes = text.ibu_better(table["Adult"], ex.ORACLES)
glue("synthesis-e1-n", text.ibu_better_count(table["Adult"], ex.GEO), display=False)
glue("synthesis-e3-n", text.ibu_better_count(table["Gowalla"], ex.GEO), display=False)
glue("synthesis-e2-yes", ", ".join(yes) or "none", display=False)
glue("synthesis-e2-no", ", ".join(n for n in ex.ORACLES if n not in yes) or "none",
     display=False)
d = table["Adult"]["k-RR"]
rel = abs(d["emd_diff"] / d["emd_inv"])
z = abs(d["emd_diff"]) / d["emd_diff_se"]
glue("synthesis-e2b", f"{rel:.1%} of the EMD ({z:.1f} paired SE)", display=False)

# %% [markdown]
# **The PIE paper's ordering of RR and GLH.** The PIE paper bounds the identifying information
# of a report by $I(U;Y) \le \theta\, I(U;X)$, with $\theta_{RR} = (e^\varepsilon -
# 1)/(k + e^\varepsilon - 1)$ for k-RR and the same with the hash range $g$ for GLH. OLH takes
# $g = e^\varepsilon + 1$, so the bound favours RR while $g < k$ and GLH beyond. Does the
# bound's ordering predict the exact PIE on Gowalla, and the leakage about the secret on Adult?
# In the lift lens it does at every ε tried (E4b). For the exact PIE it fails once, at ε = 2,
# where OLH's $g = 8$ is close to $k = 12$ and the two mechanisms' exact PIE differ by about 2%
# the other way (E4a diverges): the bounds are not tight enough to order near-equal mechanisms.

# %%
order = ex.pie_ordering(adult, gowalla, np.array([0.5, 1.0, 2.0, 4.0, 6.0]))
report.holds("E4a", **order["pie"])
report.holds("E4b", **order["lift"])
n_users = {"Adult": adult.n_users, "Gowalla": gowalla.n_users}
fano_floor = {k: 1 - (1 / np.log(2) + 1) / np.log2(n) for k, n in n_users.items()}
margin = [table[k][n]["fano"] - fano_floor[k] for k in table for n in table[k]
          if np.isfinite(table[k][n]["ldp"])]
report.range("D8", min(margin))

# %% [markdown]
# **The lift paper's mechanisms on real data.** On Adult the lift paper's ordering of its
# mechanisms by utility holds at every budget (E5). The perfect-privacy response, which reveals
# nothing about $S$, already releases {glue:text}`synthesis-i0` of the
# {glue:text}`synthesis-hx` of $X$, and AORR never falls below it (E11). Protecting a binary
# secret leaves most of $X$ exposed, so the ALIP guarantee says nothing about re-identification:
# every lift-based mechanism lets the best guess of $X$ succeed more often than every 1-LDP
# mechanism does (E6, {numref}`fig-synthesis-heat-adult`, column V(X|Y)).

# %%
sw = sweeps["Adult"]
report.order("E5", {"complete": sw["watchdog (complete)"]["mi"],
                    "subset": sw["watchdog (subset)"]["mi"],
                    "SRR": sw["SRR"]["mi"], "AORR": sw["AORR"]["mi"]})
gap, i0 = ex.perfect_privacy_gap(adult, sw)
report.range("E11", gap)
vx = {n: table["Adult"][n]["vx"] for n in table["Adult"]}
report.order("E6", {"LDP": max(v for n, v in vx.items() if n not in ex.LIFT),
                    "lift": min(vx[n] for n in ex.LIFT)})

# %% tags=["remove-cell"]
from ldpnb.measures import entropy

glue("synthesis-i0", f"{i0:.2f} bits", display=False)
glue("synthesis-hx", f"{entropy(adult.p_x, unit='bits'):.2f} bits", display=False)

# %% [markdown]
# **The risks paper's protocols.** RS+FD sends one real value and fake values for the other
# attributes. At the ε the risks paper states, its randomiser runs at the amplified
# $\varepsilon' = 1.49$, and it leaks *more* identifying information than SMP (E7a, a
# divergence); at an equal tight level it leaks less, about the user and about the secret (E7b).
# Both protocols, like SMP, identify only the marginals of the tuple: their channels have rank 6
# of 12 (S3), so the joint distribution cannot be estimated from their reports, which is why
# their EMD in {numref}`fig-synthesis-heat-adult` stays high however much they release.

# %%
pie1 = {n: ex.exact_lenses(ex.build(gowalla, n, 1.0), gowalla)["pie"]
        for n in ("SMP", "RS+FD")}
report.order("E7a", {"RSFD": pie1["RS+FD"], "SMP": pie1["SMP"],
                     "RSFD_tight": table["Gowalla"]["RS+FD"]["pie"]})
lk = {n: table["Adult"][n]["lift_ldp"] for n in ("SMP", "RS+FD")}
report.order("E7b", {"RSFD": lk["RS+FD"], "SMP": lk["SMP"]})
ranks = [ex.channel_rank(s, n, params[s.name][n]) > 6 for s in (adult, gowalla)
         for n in ("SMP", "RS+FD", "RS+RFD")]
report.holds("S3", violations=sum(ranks), checked=len(ranks))

# %% [markdown]
# **PRIVIC's rate-distortion lens.** BA attains the rate-distortion function: no channel with
# the same expected distortion releases less information about $X$. Checked against every
# square-channel mechanism at the operating point (E8); BA's channels also keep PRIVIC's bound of
# $2\beta$ on their geo-indistinguishability level (E9). At 1-LDP every mechanism's expected
# distortion exceeds that of the best constant report, where BA's information is already zero:
# at this privacy level, the rate-distortion optimum is to report nothing useful, and BA's row
# in {numref}`fig-synthesis-heat-adult` shows it.

# %%
rd = [ex.rate_distortion_check(s, table[s.name]) for s in (adult, gowalla)]
rd_bad = sum(i_ba > i_m + 1e-9 for r in rd for i_m, i_ba in r.values())
report.holds("E8", violations=rd_bad, checked=sum(len(r) for r in rd))
ba = [ex.ba_geo_bound(sweeps[s.name]) for s in (adult, gowalla)]
report.holds("E9", **{k: sum(b[k] for b in ba) for k in ba[0]})

# %% [markdown]
# ## Privacy-utility frontiers
#
# Sweeping each family's parameter traces its frontier under each lens
# ({numref}`fig-synthesis-frontiers`): the EMD after IBU against the ε-LDP level, the
# information $I(X;Y)$, the leakage about the secret, and the Bayes vulnerability of $X$. Along
# every sweep of a family with a finite level the EMD falls as the parameter grows, except at
# the smallest parameters (E10 diverges): there IBU, started from the uniform distribution,
# barely leaves it, the uniform happens to be close to Adult's distribution, and a slightly
# larger parameter first moves the estimate away from the truth before the reports take over. The
# frontiers order the families differently under different lenses: against the ε-LDP level
# the metric mechanisms look poor (their level on $X$ grows with the diameter of the grid),
# against $I(X;Y)$ they come closer to the frequency oracles but, at k-RR's 1-LDP information,
# still estimate worse (M1, below), and the lift-based mechanisms appear only under the lenses
# that do not ask for a bound on $X$.

# %%
names = FRONTIER or ex.families_for(adult)
usweep = ex.utility_sweep(adult, names, POINTS_U, runs=RUNS_U,
                          seed=seed_for(SEED, "frontiers"))
finite = {n: u for n, u in usweep.items() if n not in ex.LIFT}
report.holds("E10", **ex.utility_monotone(finite))

# %% tags=["hide-input", "remove-output"]
XL = {"ldp": "ε-LDP level on X", "mi": "I(X;Y), bits",
      "lift_ldp": "LDP leakage about S", "vx": "V(X|Y)"}
fr = figures.frontiers(usweep, "emd_ibu", XL, "EMD after IBU (bins)")
glue("synthesis-frontiers", fr)

# %% [markdown]
# ```{glue:figure} synthesis-frontiers
# :name: fig-synthesis-frontiers
# :alt: Four log-log panels of the EMD after IBU against four privacy lenses, one curve per mechanism; curves fall from left to right, and their order changes from panel to panel.
#
# Privacy-utility frontiers on Adult: the EMD after IBU (mean over
# {glue:text}`synthesis-runs-u` collections of 48,842 reports per point,
# {glue:text}`synthesis-points-u` parameters per family) against four lenses. Lift-based
# mechanisms have an infinite ε-LDP level and are absent from the first panel; points with
# less than 1e-4 bits of information (BA at its smallest β) are not drawn in the second.
# ```

# %% tags=["remove-cell"]
glue("synthesis-runs-u", f"{RUNS_U}", display=False)
glue("synthesis-points-u", f"{POINTS_U}", display=False)

# %% [markdown]
# ## Matched comparisons: equal information, equal utility
#
# The operating point compares the mechanisms at an equal ε-LDP level. Two other matchings
# answer other questions. At **equal information**, each family's parameter is found by root
# finding so that its $I(X;Y)$ equals k-RR's at 1-LDP ({glue:text}`synthesis-mi-target`): which
# mechanism turns the same information into the better estimate? At **equal utility**, each
# family's parameter is read off its frontier sweep (log-linear interpolation, from the largest
# parameter down) so that its mean EMD after IBU equals k-RR's at 1-LDP
# ({glue:text}`synthesis-emd-target`): which mechanism buys that estimate with less leakage?
# Both matchings put the metric mechanisms and BA against k-RR ({numref}`tab-synthesis-matched`).
# The rows were stated before the first run, expecting the metric mechanisms to be the more
# economical; the run says the opposite, and all three rows that could show it diverge
# (M1, M3, M4).
#
# {glue:md}`synthesis-matched-verdict`
#
# The cause is the conditioning of the channels. Estimating $P_X$ means undoing the channel, and
# the error along the direction the channel attenuates most grows as $1/\sigma_{\min}$, its
# smallest singular value. k-RR attenuates every direction equally; a metric mechanism blurs
# each value into its neighbours, so the contrasts between neighbouring cells are nearly erased.
# At equal information, $\sigma_{\min}$ is {glue:text}`synthesis-smin-krr` for k-RR and
# {glue:text}`synthesis-smin-geo` for the metric mechanisms (BA's channel is rank-deficient):
# the information they release is spent on telling far cells apart, which the EMD after
# estimation does not reward on a 4 × 3 grid.

# %%
ref = table["Adult"]["k-RR"]
geo = [n for n in ex.GEO if n in usweep]
p_mi = {n: ex.match_parameter(adult, n, "mi", ref["mi"])[0] for n in geo}
p_emd = {n: ex.utility_parameter(usweep[n], ref["emd_ibu"]) for n in geo}
at_mi = ex.lens_table(adult, p_mi, runs=RUNS, seed=seed_for(SEED, "equal-mi"))
at_emd = ex.lens_table(adult, p_emd, runs=RUNS, seed=seed_for(SEED, "equal-emd"))
g_mi, g_emd = ex.matched_gaps(at_mi, ref, geo), ex.matched_gaps(at_emd, ref, geo)
report.holds("M1", upper=g_mi["upper"], lower=g_mi["lower"])
report.holds("M2", ldp_gap=g_mi["ldp_gap"])
report.holds("M3", mi_gap=g_emd["mi_gap"])
report.holds("M4", lift_gap=g_emd["lift_gap"])

# %% tags=["remove-cell"]
smin = {n: ex.smallest_singular_value(adult, n, p_mi[n]) for n in geo}
s_krr = ex.smallest_singular_value(adult, "k-RR", params["Adult"]["k-RR"])
glue("synthesis-smin-krr", f"{s_krr:.3f}", display=False)
s_geo = ", ".join(f"{v:.1e} ({n})" for n, v in smin.items())
glue("synthesis-smin-geo", s_geo, display=False)
glue("synthesis-mi-target", f"{ref['mi']:.3f} bits", display=False)
glue("synthesis-emd-target", f"{ref['emd_ibu']:.4f} bins", display=False)
verdict = text.matched_verdict(ref, at_mi, at_emd, geo, g_mi, g_emd)
glue("synthesis-matched-verdict", Markdown(verdict), display=False)

# %% tags=["hide-input", "remove-output"]
glue("synthesis-matched", figures.matched_table(ref, at_mi, at_emd))

# %% [markdown]
# ```{glue:figure} synthesis-matched
# :name: tab-synthesis-matched
# :alt: A table with k-RR at 1-LDP and the metric mechanisms and BA as rows; at equal information it gives each mechanism's ε-LDP level and EMD after IBU, at equal EMD the EMD reached, the information about X and the leakage about S.
#
# Table: matched comparisons on Adult (48,842 reports per collection). Equal information: each
# family root-found to k-RR's I(X;Y) at 1-LDP; equal utility: each family interpolated on its
# frontier sweep to k-RR's mean EMD after IBU at 1-LDP. EMDs are means ± SE over
# {glue:text}`synthesis-runs` collections at the matched parameter.
# ```

# %% [markdown]
# ## Re-identification over repeated collections
#
# On Gowalla each user sends one report per check-in. After $t$ collections the Bayes-optimal
# attacker guesses the user from the $t$ reports (exact for $t = 1$, Monte Carlo with
# {glue:text}`synthesis-reid-runs` draws beyond). At the operating point every mechanism stays
# far below the bound the PIE paper's Fano inequality allows (U1): the best accuracy after 16
# collections is {glue:text}`synthesis-reid-max` among {glue:text}`synthesis-users` users,
# against a blind guess of {glue:text}`synthesis-reid-blind`. Accuracy never drops with more
# collections (U2).

# %%
reid = ex.reid_over_collections(gowalla, params["Gowalla"], [1, 4, 16], runs=REID_RUNS,
                                seed=seed_for(SEED, "reid"))
u1, u2 = ex.reid_checks(reid)
report.holds("U1", **u1)
report.holds("U2", **u2)

# %% tags=["remove-cell"]
best = max(reid, key=lambda n: reid[n]["acc"][-1])
glue("synthesis-reid-runs", f"{REID_RUNS:,}", display=False)
glue("synthesis-reid-max", f"{reid[best]['acc'][-1]:.4f} ({best})", display=False)
glue("synthesis-reid-blind", f"{1 / gowalla.n_users:.4f}", display=False)

# %% [markdown]
# ## Do the lenses agree?
#
# Kendall's τ between two lenses counts the pairs of mechanisms they order the same way, minus
# those they order differently ({numref}`fig-synthesis-tau`). The two lenses on $X$ agree
# strongly (K1), and the information about $X$ predicts the leakage about $S$ (K2). Attribute
# inference is the coarsest lens: as long as the lift stays small no report changes the best
# guess of the secret, so $V(S \mid Y)$ equals the prior guess for most mechanisms (D7) and ties
# them. The information lens and the utility lens disagree on
# {glue:text}`synthesis-n-disc` of the {glue:text}`synthesis-n-pairs` pairs, and each
# disagreement has a measured cause (K3): {glue:text}`synthesis-n-rank` involve a channel that
# merges inputs (the multidimensional protocols and the watchdog release information that does
# not identify the joint distribution), and {glue:text}`synthesis-n-metric` pit a metric
# mechanism, whose reports stay near the truth and which EMD rewards, against one that is not.
# The other {glue:text}`synthesis-n-within` pairs are not explained by either cause, against the
# row's hypothesis (K3 diverges): each is a pair of one class (two frequency oracles, two metric
# mechanisms, or AORR and SRR), whose information differs little, while the EMD depends on how
# the channel spreads its noise rather than on how much it releases.

# %%
names = list(table["Adult"])
scores = ex.lens_scores(table["Adult"], names, list(ex.RANK_LENSES))
taus = rank_agreement(scores)
report.range("K1", taus[("mi", "vx")])
report.range("K2", taus[("mi", "lift_ldp")])
disc = discordant_pairs(scores["mi"], -scores["emd_ibu"], names)
why = ex.explain_discordance(adult, params["Adult"], disc)
explained = len(why["rank"]) + len(why["metric"])
report.holds("K3", other=len(why["other"]), explained=explained,
             within=len(why["within"]))

# %% tags=["hide-input", "remove-output"]
glue("synthesis-tau", figures.rank_agreement(taus, ex.RANK_LENSES))
glue("synthesis-n-disc", f"{len(disc)}", display=False)
glue("synthesis-n-pairs", f"{len(names) * (len(names) - 1) // 2}", display=False)
glue("synthesis-n-rank", f"{len(why['rank'])}", display=False)
glue("synthesis-n-metric", f"{len(why['metric'])}", display=False)
glue("synthesis-n-within", f"{len(why['within'])}", display=False)

# %% [markdown]
# ```{glue:figure} synthesis-tau
# :name: fig-synthesis-tau
# :alt: A symmetric matrix of Kendall tau values between seven lenses; the privacy lenses agree with each other (blue), and disagree with the utility lenses (red), since more leakage buys better estimates.
#
# Rank agreement between the lenses over the 18 mechanisms on Adult at the operating point
# (Kendall τ-b; EMD columns from {glue:text}`synthesis-runs` collections). Larger always means
# "leaks more" or "estimates worse", so a negative τ between a privacy lens and a utility lens
# is the privacy-utility trade-off.
# ```

# %% [markdown]
# ## Which mechanism when
#
# The measured rows, read as advice. Each statement below is glued from the numbers above.
#
# {glue:md}`synthesis-guide`

# %% tags=["remove-cell"]
glue("synthesis-guide", Markdown(text.reading_guide(table["Adult"])), display=False)

# %% [markdown]
# ## Reproduction report

# %%
report.timing("book-scale run (CPU seconds)", time.process_time() - t0)
report.finalize()
