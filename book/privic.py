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
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% tags=["remove-cell"]
# On Colab, install the book's package (elsewhere a no-op; written by ldpnb.repro.colab)
import sys

if "google.colab" in sys.modules:
    import subprocess

    req = "ldpnb[all] @ git+https://github.com/ldpnb/ldpnb"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", req], check=True)

# %% [markdown]
# # PRIVIC: the Blahut–Arimoto mechanism and IBU for incremental location collection
#
# {glue:md}`privic-status`
#
# ## Overview
#
# A service collects its users' locations again and again. Each user wants
# {term}`geo-indistinguishability` (with privacy budget {term}`epsilon (ε)`) and a reported location
# close to the true one (quality of service, QoS); the collector wants an accurate estimate of where
# the users are (statistical utility). Biswas and Palamidessi {cite}`biswas2023privic` propose to
# build each round's mechanism from the collector's current estimate with the **Blahut–Arimoto
# ({term}`BA`)** algorithm of rate–distortion theory, and to re-estimate with the **iterative
# Bayesian update ({term}`IBU`)**. The question of this chapter: *does that loop, PRIVIC, give
# better privacy, QoS and utility than the planar Laplace mechanism (LAP), and does it converge to
# what the paper says it converges to?*
#
# **Prerequisites.** The local model, mechanisms as channel matrices, IBU and the earth mover's
# distance ({term}`EMD`) ({doc}`foundations`); IBU's convergence and the uniqueness of its maximum
# ({doc}`ibu`, whose certificate we use to certify maxima below); mutual information, and the
# likelihood-ratio test. The closing guide ({doc}`synthesis`) places BA among the other mechanisms
# of the book.
#
# The paper's tools, in the order of this chapter:
#
# 1. the **BA mechanism**, which minimises $I(X;Y) + \beta\,\mathbb E[d(X,Y)]$, is
#    $2\beta$-geo-indistinguishable and *elastic*: it hides an isolated location among crowded ones
#    (Thm 3.1, Figs. 1–3);
# 2. a **duality**: BA's update of its output marginal is an IBU step with inputs and outputs swapped
#    (Sec. 4, Fig. 4);
# 3. **invertibility** of every finite BA iterate (Thm 5.1), hence a unique maximum-likelihood
#    estimate (MLE, Thm 5.2);
# 4. **PRIVIC** (Alg. 1, Fig. 5): build BA from the current estimate, collect reports, re-estimate with
#    IBU, repeat; run on the authors' Gowalla check-ins in Paris and San Francisco (Figs. 6–10, Tables
#    II–IV);
# 5. **adversarial users** who report a location falsely (Sec. 7, Fig. 11).
#
# Every number below is recomputed by the package: the BA mechanism is
# {py:class}`~ldpnb.mechanisms.BlahutArimoto` (`ldpnb.mechanisms.rate_distortion`), IBU and GIBU
# are {py:func}`~ldpnb.estimators.ibu` and {py:func}`~ldpnb.estimators.gibu`, and the paper's grids,
# priors, loop and experiments are `ldpnb.papers.privic`. The paper's printed numbers (Tables II–IV
# whole, the grids, the check-in counts) are stored as data with the place they are printed; the
# report at the end grades each claim against them.
#
# **Where our reading departs from the paper's text**, measured in the sections below:
# the grids are 11 × 15 and 16 × 24 cells, not "16 × 12" and "24 × 17" (rows D1); the island of
# Fig. 1 is the vector of the authors' code, not the text's recipe (F1-recipe); PRIVIC's tables are
# reproduced by re-obfuscating the whole dataset in every cycle without the ⊕ average (T-spread,
# A11-combine). Several of the paper's statements do not survive: BA's advantage over LAP in
# Fig. 3 and its "comparable" utility at low privacy, the "closer and closer" path of Fig. 2, BA's
# "best QoS" among elastic mechanisms, BA's convergence within the paper's iterations (and IBU's
# in San Francisco), Remark 6 in seven of eight settings, the convergence of PRIVIC's estimate to
# the MLE, and in Paris to the true distribution, the percentages of Fig. 11 and its "behaving more
# like LAP", Table II's complexity, and one step of the proof of Thm 5.1.

# %% tags=["parameters", "remove-cell"]
SCALE = "book"  # "smoke" (seconds, tests) | "book" (the published book) | "paper"
SEED = 2024

# %% tags=["hide-input"]
import time

import numpy as np
import pandas as pd

from ldpnb import channels, estimators, measures
from ldpnb.data import load_gowalla_privic
from ldpnb.mechanisms import rate_distortion as rd
from ldpnb.papers import privic as pv
from ldpnb.papers.privic import CLAIMS, figures
from ldpnb.papers.privic import experiments as ex
from ldpnb.papers.privic import grading as gr
from ldpnb.papers.privic import values as V
from ldpnb.papers.privic.claims import REGION, SIZES_BY_SCALE
from ldpnb.repro import Report, glue, rng_for, seed_for
from ldpnb.repro.plotting import set_style

set_style()
report = Report("privic", CLAIMS, scale=SCALE, seed=SEED)
T0 = time.process_time()
SIZES = SIZES_BY_SCALE[SCALE]  # sizes per scale, in ldpnb/papers/privic/claims.py
CITIES, NAMES = V.CITIES, V.CITY_NAMES
A, B = (pv.flat_index("paris", cell) for cell in (V.ISLAND_A, V.ISLAND_B))
mle_n = SIZES["mle_rounds"]
report.text(rounds=str(SIZES["rounds"]), sims=str(SIZES["sims"]),
            **{"budget-sims": str(SIZES["budget_sims"]),
               "mle-rounds-paris": str(mle_n[("ALG1", "paris", 1.0)]),
               "mle-rounds-close": str(mle_n[("A11", "paris", 1.0)]),
               "mle-rounds-sf": str(mle_n[("ALG1", "sf", 1.0)])},
            **{f"long-rounds-{c}": str(SIZES["long_rounds"][c]) for c in CITIES})

# %% [markdown]
# ## The data (Fig. 6)
#
# The check-ins are the authors' two extracts of the SNAP Gowalla data
# {cite}`cho2011gowalla`: every check-in inside a box of central Paris and one of northern
# San Francisco. We bin them with the edges of the authors' code (`pv.privic_edges`); row 0
# is north and column 0 west. The authors read their grid files with `pandas.read_csv`,
# which takes the first point as a header, so one point is dropped; the totals are then the
# paper's (Sec. 3), and the EMD between the uniform distribution and the data is row 1 of
# Tables III–IV.

# %%
counts = {c: pv.load_privic_counts(c) for c in CITIES}
D = {c: pv.privic_distance(c) for c in CITIES}
pi = {c: counts[c].ravel() / counts[c].sum() for c in CITIES}
uniform = {c: np.full(pi[c].size, 1 / pi[c].size) for c in CITIES}
emd_uniform = {c: measures.emd(uniform[c], pi[c], D[c]) for c in CITIES}

# %% tags=["hide-input"]
for c in CITIES:
    report.holds(f"D1-{c}", rows=counts[c].shape[0], cols=counts[c].shape[1])
    report.close(f"D2-{c}", int(counts[c].sum()))
    report.close(f"D3-{c}", int(counts[c].sum()))
    report.close(f"D4-{c}", emd_uniform[c])
top = {c: (*np.unravel_index(counts[c].argmax(), counts[c].shape), counts[c].max())
       for c in CITIES}
report.holds("D5", **{f"{c}_{k}": int(v) for c in CITIES
                      for k, v in zip(("row", "col", "max"), top[c])})
report.text(**{"emd-sf": f"{emd_uniform['sf']:.6f}"})

# %% tags=["hide-input", "remove-output"]
raw = {c: load_gowalla_privic(c) for c in CITIES}
report.text(**{f"checkins-{c}": f"{len(raw[c]):,}" for c in CITIES})
glue("privic-fig6", figures.fig6(raw, pi, {c: pv.privic_edges(c) for c in CITIES}))

# %% [markdown]
# ```{glue:figure} privic-fig6
# :name: fig-privic-6
# :alt: Left, scatter plots of the check-ins of Paris and San Francisco with the grid lines of the authors' bins; right, heat maps of the resulting distributions, concentrated in a few central cells.
#
# (Paper Fig. 6.) The check-ins with the authors' bins (left) and the distribution π on the
# 11 × 15 (Paris: the N = 10,078 of the {glue:text}`privic-checkins-paris` check-ins that the
# authors' bins count) and 16 × 24 (San Francisco: N = 123,025 of
# {glue:text}`privic-checkins-sf`) grids (right).
# ```
#
# The grids are not the "16 × 12" and "24 × 17" of the text (rows D1): the text names the
# nominal box, the tables were computed on the binned one ({numref}`fig-privic-6`). Row 1 of
# Table IV comes out as {glue:text}`privic-emd-sf` against the printed 7.37595. The
# difference is the authors' EMD package: pyemd 1.0.0 gives 7.375948 on our counts (measured
# once, outside this book: pyemd needs numpy < 2), the exact network simplex of POT the value above,
# so row D4-sf allows the measured 2 × 10⁻⁴. Sec. 6 gives other
# totals (10,260 and 123,108), which match neither the data nor row 1 (rows D3).
#
# ## The Blahut–Arimoto mechanism
#
# Let $\pi$ be the prior on the cells and $C_{xy} = P[y\mid x]$ a channel. Privacy is
# measured by the mutual information (Def. 2.2) and QoS by the average distortion
# (Def. 2.3):
#
# ```{math}
# :label: eq-privic-mi
#
# I(X;Y) &= \sum_{x,y} \pi(x) C_{xy} \log\frac{C_{xy}}{\sum_{z}\pi(z)C_{zy}},\\
# \mathrm{AvgD}(\pi, C) &= \sum_{x,y} \pi(x) C_{xy}\, d(x,y).
# ```
#
# The rate–distortion function $R(d^*) = \min_{\mathrm{AvgD}\le d^*} I(X;Y)$ is traced by
# minimising the objective $\mathcal L_\beta(C) = I + \beta\,\mathrm{AvgD}$, where $-\beta$ is its
# slope (Def. 2.9). The Blahut–Arimoto iteration {cite}`blahut1972computation,arimoto1972algorithm`
# (Eqs. (1)–(2)) alternates two maps, $F$ and $G$:
#
# ```{math}
# :label: eq-privic-ba
#
# C^{(t+1)}_{xy} &= F(c_t)_{xy}
#   = \frac{c_t(y)\, e^{-\beta d(x,y)}}{\sum_{z} c_t(z)\, e^{-\beta d(x,z)}},\\
# c_{t+1}(y) &= G(C^{(t+1)})(y) = \sum_x \pi(x)\, C^{(t+1)}_{xy}.
# ```
#
# ```{prf:theorem} Convergence of BA (Csiszár 1974; the paper's Remark 3)
# :label: thm-privic-ba
#
# From any full-support $c_0$, $\mathcal L_\beta(C^{(t)})$ never increases and $C^{(t)}$ converges to
# a minimiser of $\mathcal L_\beta$ over all channels, a fixpoint of $F \circ G$
# {cite}`csiszar1974extremum`. Checked in rows <a href="#claim-privic-T-D1">T-D1</a>,
# <a href="#claim-privic-T-D2">T-D2</a>, <a href="#claim-privic-T-E1">T-E1</a>,
# <a href="#claim-privic-T-E2">T-E2</a> and <a href="#claim-privic-T-E3">T-E3</a>.
# ```
#
# `rd.blahut_arimoto` starts from the uniform channel and runs either a fixed number of
# iterations (the paper's experiments stop after 5–10) or until the channel moves less than
# a tolerance (Alg. 2). Run to convergence, BA collapses its output support onto a few crowded
# cells ({numref}`fig-privic-bahist`, row P3): far from the channels the experiments actually use.

# %%
hist = {b: rd.blahut_arimoto(pi["paris"], D["paris"], b, n_iter=400,
                             history=True).history for b in (0.2, 1.0, 2.0)}
conv = pv.ba_convergence_summary(pi["paris"], D["paris"], [0.2, 1.0],
                                 max_iter=SIZES["conv_iter"])
steps = [np.diff(h["lagrangian"]).max() for h in hist.values()]
report.holds("T-D1", max_step=float(max(steps)))
report.holds("P3", support_share=(conv["support (converged)"] / 165).to_numpy())

# %% tags=["hide-input", "remove-output"]
glue("privic-bahist", figures.ba_history(hist))

# %% [markdown]
# ```{glue:figure} privic-bahist
# :name: fig-privic-bahist
# :alt: Left, BA's objective decreasing over 400 iterations for three values of beta; right, the number of output cells with mass above 1e-6 falling from 165 to a few cells, fastest at small beta.
#
# BA on the Paris prior over 400 iterations at β = 0.2, 1, 2 (deterministic): its objective
# never increases (left) and its output support shrinks (right). The dotted line marks the
# paper's 10 iterations.
# ```
#
# Two identities of rate–distortion theory check the implementation on ten collinear points
# with a random prior: the slope of $R(D)$ is $-\beta$ (row T-E1), and at the fixpoint
# $R = -\beta\,\mathrm{AvgD} - \sum_x \pi(x)\log Z(x)$ with
# $Z(x) = \sum_y c(y)e^{-\beta d(x,y)}$ (T-E2). On the Paris prior BA minimises
# $\mathcal L_\beta$ over *all* channels, so no LAP channel may have a smaller objective at any
# slope (T-E3, {numref}`fig-privic-rd`).

# %%
D10 = np.abs(np.subtract.outer(np.arange(10.0), np.arange(10.0)))
p10 = rng_for(SEED, "rd-line").dirichlet(np.ones(10))
slopes, closed = ex.rd_identities(p10, D10, [0.5, 1.0, 2.0])
report.close("T-E1", slopes)
report.close("T-E2", closed.max())
lap_eps = [0.3, 0.5, 0.7, 1, 1.5, 2, 3, 5, 8]
plane = ex.mi_qos_plane(pi["paris"], "paris", SIZES["rd_betas"], lap_eps,
                        max_iter=SIZES["conv_iter"])
report.holds("T-E3", min_gap=plane["min_gap"])

# %% tags=["hide-input", "remove-output"]
glue("privic-rd", figures.rd_plane(plane["ba"], plane["ba10"], plane["lap"]))

# %% [markdown]
# ```{glue:figure} privic-rd
# :name: fig-privic-rd
# :alt: Mutual information against average distortion; the converged BA curve lies below both the 10-iteration BA points and the LAP curve.
#
# BA (converged: the rate–distortion curve; and after 10 iterations) and LAP on the Paris
# prior in the (AvgD, MI) plane (deterministic).
# ```
#
# ## 2β-geo-indistinguishability and elasticity (Remark 4, Thm 3.1)
#
# A channel is ε-geo-indistinguishable when $C_{xy} \le e^{\varepsilon d(x,x')} C_{x'y}$;
# its tight level is $\varepsilon^*(C) = \max \log(C_{xy}/C_{x'y})/d(x,x')$
# (`channels.geo_ind_epsilon`).
#
# ```{prf:proposition} BA is 2β-geo-indistinguishable (the paper's Remark 4; Oya et al. 2017)
# :label: prop-privic-geoind
#
# For any full-support $c$, $F(c)$ of {eq}`eq-privic-ba` is $2\beta$-geo-indistinguishable. Checked in
# rows <a href="#claim-privic-T-C1">T-C1</a> (every BA channel of Fig. 3) and
# <a href="#claim-privic-T-C3">T-C3</a> (random $c$).
# ```
#
# ```{prf:proof}
# $F(c)_{xy}/F(c)_{x'y} = e^{-\beta(d(x,y)-d(x',y))}Z(x')/Z(x)$ with $Z(x) = \sum_z c(z)e^{-\beta
# d(x,z)}$, and both factors are at most $e^{\beta d(x,x')}$ by the triangle inequality
# {cite}`oya2017back`.
# ```
#
# The authors compare BA with LAP at BA's *tight* level, which their code lists but the paper
# does not print; our levels match that list to 10⁻⁶ (rows T-eps, a calibration: they show that
# our BA, grid and data are the authors').

# %%
eps_tight = {c: pv.tight_eps_ba(pi[c], D[c], V.FIG3_BETAS) for c in CITIES}
for c in CITIES:
    report.close(f"T-eps-{c}", eps_tight[c])
report.range("T-C1", max(np.max(eps_tight[c] / (2 * V.FIG3_BETAS)) for c in CITIES))
c_random = rng_for(SEED, "remark4").uniform(0.01, 1, 165)
F_c = {b: rd.ba_F(c_random, rd.exponential_kernel(D["paris"], b))
       for b in (0.1, 0.5, 1, 3)}
report.range("T-C3", max(channels.geo_ind_epsilon(C, D["paris"]) / (2 * b)
                         for b, C in F_c.items()))

# %% [markdown]
# ```{prf:theorem} BA is elastic (the paper's Thm 3.1)
# :label: thm-privic-elastic
#
# The limit $\hat C$ of BA satisfies $\hat C_{xy} = q(y)e^{-\beta d(x,y)}/\sum_z q(z)e^{-\beta d(x,z)}$
# with $q = \pi\hat C$ its own output distribution: the report probability decays with the distance
# (Eq. (3)) and grows with the mass of $y$ (Eq. (4)), the two conditions of an elastic metric
# {cite}`chatzikokolakis2015elastic`. Checked in rows <a href="#claim-privic-T-F1">T-F1</a>,
# <a href="#claim-privic-T-F2">T-F2</a> and <a href="#claim-privic-T-D2">T-D2</a>.
# ```
#
# The proof is the fixpoint equation $\hat C = F(G(\hat C))$ of {eq}`eq-privic-ba`. Eq. (8) prints
# $e^{+\beta d}$ (row E2), and Alg. 2 normalises by a column sum $\sum_z c(z)e^{-\beta d(z,y)}$, which
# does not give a channel (row E1); Eq. (1) does, and reproduces the authors' tight levels.
#
# The paper adds that among the mechanisms satisfying (3)–(4) "with the mass interpreted as
# probability", BA's "offers the best QoS". Those mechanisms are exactly the fixpoints of
# $c \mapsto G(F(c))$: BA keeps the zeros of $c$, so from the uniform marginal on an output support
# $S$ it converges to the minimiser of $\mathcal L_\beta$ over channels into $S$, and every fixpoint is
# such a restricted minimiser. On ten collinear points and on a 3 × 3 grid with random priors we list
# them all, one per support (`pv.elastic_fixpoints`), and compare their AvgD with BA's limit
# (T-QoS).

# %%
toy = rd.blahut_arimoto(p10, D10, 1.0, n_iter=None, tol=1e-13, max_iter=200_000)
report.holds("T-F1", gap=ex.elastic_gap(toy.channel, p10, D10, 1.0))
K1, c_toy = rd.exponential_kernel(D10, 1.0), toy.output_marginal
report.holds("T-D2", residual=max(
    np.abs(toy.channel - rd.ba_F(rd.ba_G(toy.channel, p10), K1)).max(),
    np.abs(c_toy - rd.ba_G(rd.ba_F(c_toy, K1), p10)).max()))
report.holds("E2", printed_gap=ex.elastic_gap(toy.channel, p10, D10, 1.0, sign=1),
             fixpoint_gap=ex.elastic_gap(toy.channel, p10, D10, 1.0))
K = np.exp(-D["paris"])
alg2 = K / K.sum(axis=0, keepdims=True)  # c uniform: e^{-d(x,y)} / sum_z e^{-d(z,y)}
eq1_gap = np.abs(eps_tight["paris"] - V.AUTHORS_TIGHT_EPS["paris"]).max()
report.holds("E1", row_dev=np.abs(alg2.sum(axis=1) - 1).max(), eq1_gap=eq1_gap)

# %% tags=["hide-input"]
report.holds("T-F2", gap=ex.ba_fixpoint_gap(pi["paris"], D["paris"], 1.0, tol=1e-8,
                                            max_iter=SIZES["fixpoint_iter"]))

# %%
toys = {"10 points": (p10, D10), "3 × 3 grid": (
    rng_for(SEED, "qos-grid").dirichlet(np.ones(9)), pv.privic_distance((3, 3)))}
qos = pd.concat({k: ex.qos_among_fixpoints(p, d, [0.5, 1.0, 2.0],
                                           n_iter=SIZES["qos_iter"])
                 for k, (p, d) in toys.items()})
report.holds("T-QoS", gap=qos["gap"].to_numpy(), max_residual=qos["residual"].max())
qos.round(4)

# %% [markdown]
# ### The island (Fig. 1)
#
# To show elasticity the authors plant an island in Paris: a vulnerable cell A = (6, 3) in
# the sparse south-west, surrounded by an emptied 5 × 5 block, and a strong cell B = (3, 7),
# the most crowded cell. The text's recipe is to set the mass of the cells around A to 0
# "and dump this cumulative mass from the surrounding region to A". Taken literally
# (`island_prior(..., mode="literal")`), A receives the whole block,
# {glue:text}`privic-f1-block`: A becomes the
# **largest** cell of the map, not an isolated one. The figures were drawn with another
# vector (`mode="authors"`, from the authors' code, which first wrote the literal one and
# then replaced it): A keeps 0.01, and the rest of the block goes to the northern cells
# (1, 6)…(1, 10) and to (2, 3) ({numref}`fig-privic-1`, rows F1 and F1-recipe).

# %%
islands = {m: pv.island_prior(pi["paris"], "paris", mode=m) for m in pv.ISLAND_MODES}
isl = islands["authors"]
blk_A = pv.block_indices("paris", V.ISLAND_A)
report.holds("F1", pi_A=isl[A], block_rest=isl[np.setdiff1d(blk_A, [A])].sum(),
             B_is_max=int(isl.argmax() == B), total=isl.sum())
report.text(**{"f1-block": f"{pi['paris'][blk_A].sum():.3f}"})
report.holds("F1-recipe", figures_pi_A=isl[A], block_mass=pi["paris"][blk_A].sum(),
             literal_A_is_max=int(islands["literal"].argmax() == A))

# %% tags=["hide-input", "remove-output"]
glue("privic-fig1", figures.fig1({
    "the authors' vector (used in the figures): π(A) = 0.01": isl,
    "the text's recipe: π(A) = mass of the block": islands["literal"]}))

# %% [markdown]
# ```{glue:figure} privic-fig1
# :name: fig-privic-1
# :alt: Two heat maps of the Paris prior with the empty 5 by 5 block around A; on top A is a faint isolated cell, below A is the brightest cell of the map.
#
# (Paper Fig. 1.) The Paris prior with the island: the authors' vector (top, used for
# Figs. 2 and 11) and the text's literal recipe (bottom), on one colour scale.
# ```
#
# ### Elasticity (Fig. 2)
#
# Fig. 2 compares the reporting distribution of A (2a) and of B (2b) under BA (10
# iterations) and LAP at ε = 0.4, 1.2, 1.6, 2, i.e. β = ε/2; LAP is the discrete planar
# Laplace {cite}`andres2013geoind` on the grid padded by 5 cells (`pv.lap_grid_channel`),
# tuned to BA's tight level. We add ε = 0.8. The paper tells a story in four parts:
#
# * at high privacy BA reports A "most probably around the most crowded region of Paris";
# * as ε grows BA's report "systematically moves to a densely populated region closer and
#   closer" to A;
# * at ε = 1.6 LAP reports A "almost completely around the true vulnerable point", in a
#   deserted area, while BA "distributes the reported location in the crowded areas
#   nearby";
# * for B, both mechanisms behave alike.
#
# `ex.elasticity_table` computes, for each β, the statistics of A's and B's rows under both
# mechanisms; `ex.mode_path` follows BA's most likely report for A on a finer grid of β, and
# `ex.first_beta` finds by bisection where that report becomes A itself.

# %%
FIG2 = np.array(V.FIG2_BETAS)
eps2 = pv.tight_eps_ba(pi["paris"], D["paris"], FIG2)
el = {m: ex.elasticity_table(p, "paris", FIG2, eps2).set_index("beta")
      for m, p in islands.items()}
path = ex.mode_path(isl, "paris", np.round(np.arange(1, 25) * 0.05, 2))


def mode_at_A(prior):
    return lambda b: ex.mode_path(prior, "paris", [b])["distance"].iloc[0] == 0


switch = ex.first_beta(mode_at_A(isl), 0.05, 1.2)
switch_literal = ex.first_beta(mode_at_A(islands["literal"]), 0.05, 1.2)

# %% tags=["hide-input"]
e, lit = el["authors"], el["literal"]
low, hi16, upto16 = e.loc[0.2], e.loc[0.8], e.loc[e.index <= 0.8]
d_path = path["distance"].to_numpy()
report.holds("F2-low", mode_is_B=int(low["BA mode"] == V.ISLAND_B),
             B_block=low["BA P(B's block)"])
report.holds("F2-path", nonincreasing=int(np.all(np.diff(d_path) <= 0)),
             n_distinct_modes=path["mode"].nunique(),
             n_intermediate=int(np.sum((d_path > 0) & (d_path < D["paris"][A, B]))))
report.monotone("F2-Ed", e["BA E[d]"].to_numpy(), xs=FIG2)
report.holds("F2-LAP", lap_at_A=sum(m == V.ISLAND_A for m in e["LAP mode"]), n=len(e))
report.order("F2-elastic", {k: upto16[f"{k} P(block)"].to_numpy()
                            for k in ("BA", "LAP")})
report.range("F2-16-LAP", hi16["LAP P(block)"])
report.holds("F2-16-mass", A_block=hi16["BA P(block)"], B_block=hi16["BA P(B's block)"])
report.holds("F2-16-mode", mode_outside=int(hi16["BA mode distance"] > 2 * np.sqrt(2)),
             mode_is_A=int(hi16["BA mode"] == V.ISLAND_A), switch_eps=2 * switch)
report.holds("F2b", n=len(e), same_mode=sum(
    a == b == V.ISLAND_B for a, b in zip(e["B: BA mode"], e["B: LAP mode"])))
report.close("E5", eps2[0])
report.holds("F2-literal", switch_beta=switch_literal,
             A_block_16=lit.loc[0.8, "BA P(block)"])
r16 = el["renorm"].loc[el["renorm"].index <= 0.8]
report.order("F2-renorm", {k: r16[f"{k} P(block)"].to_numpy() for k in ("BA", "LAP")})
row16 = rd.blahut_arimoto(isl, D["paris"], 0.8).channel[A]
second = int(np.argsort(row16)[-2])
report.text(**{"f2-ba16-second-cell": str(tuple(int(v) for v in np.unravel_index(
                   second, V.CITY_SHAPE["paris"]))),
               "f2-ba16-second-is": "B" if second == B else "not B"})
report.text(**{f"f2-{k}": f"{v:.3f}" for k, v in {
    "ba16-second": row16[second], "ba16-mode": row16.max(),
    "ba16-block": hi16["BA P(block)"], "ba16-B": hi16["BA P(B's block)"],
    "ba16-self": hi16["BA P(A→A)"], "lap16-block": hi16["LAP P(block)"],
    "lit16-block": lit.loc[0.8, "BA P(block)"], "low-B": low["BA P(B's block)"],
    "switch-beta": switch, "switch-2beta": 2 * switch,
    "switch-literal-eps": 2 * switch_literal,
    "switch-literal": switch_literal}.items()})

# %% tags=["hide-input", "remove-output"]
shown = [0, 2, 3, 4]  # the paper's rows: ε = 0.4, 1.2, 1.6, 2
for tag, cell, who in (("a", V.ISLAND_A, "A"), ("b", V.ISLAND_B, "B")):
    ba_rows, lap_rows = ex.fig2_rows(isl, FIG2[shown], eps2[shown], cell=cell)
    fig = figures.fig2(ba_rows, lap_rows, dict(zip(FIG2, eps2)), who)
    glue(f"privic-fig2{tag}", fig)

# %% [markdown]
# ```{glue:figure} privic-fig2a
# :name: fig-privic-2a
# :alt: Four rows of paired heat maps for the isolated cell A; BA's reports sit in the crowded centre around B at small epsilon and jump to A at the largest; LAP's reports stay around A at every epsilon.
#
# (Paper Fig. 2a.) Reporting distribution of the isolated A under BA (left, 10 iterations,
# the authors' island) and LAP (right, at BA's tight level), at ε = 2β = 0.4, 1.2, 1.6 and 2
# (deterministic).
# ```
#
# ```{glue:figure} privic-fig2b
# :name: fig-privic-2b
# :alt: Four rows of paired heat maps for the crowded cell B; both mechanisms concentrate their reports around B.
#
# (Paper Fig. 2b.) The same for the crowded B.
# ```
#
# Parts one and four hold, and part three holds for the *mass*. At ε = 0.4 BA's most
# likely report for A is B, and {glue:text}`privic-f2-low-B` of A's reports fall in B's
# 5 × 5 block (F2-low). At
# ε = 1.6 LAP keeps {glue:text}`privic-f2-lap16-block` of A's reports in A's deserted block
# (F2-16-LAP), BA only {glue:text}`privic-f2-ba16-block`, and
# {glue:text}`privic-f2-ba16-B` lands in the crowded block of B, five grid units away
# (F2-16-mass). For B, both mechanisms keep their most likely report at B (F2b).
#
# But the path of the *mode* is not "closer and closer": BA's most likely report for A is B
# up to β = {glue:text}`privic-f2-switch-beta` and A itself beyond; no intermediate cell is
# ever the mode (F2-path diverges; {numref}`fig-privic-2a`). At ε = 1.6 BA's single most
# likely report is therefore A ({glue:text}`privic-f2-ba16-mode`), but only just: the next is
# cell {glue:text}`privic-f2-ba16-second-cell` ({glue:text}`privic-f2-ba16-second-is`) with
# {glue:text}`privic-f2-ba16-second`. The case the paper highlights lies just past the switch at
# 2β* = {glue:text}`privic-f2-switch-2beta` (F2-16-mode). What does decrease steadily is the
# expected distance $E[d(A, Y)]$ (F2-Ed). The text's "ε = 0.2, the highest level of privacy
# considered" is a slip for 0.4 (E5).
#
# The island recipe matters. With the text's literal recipe A is the most likely cell of
# the prior, BA reports A as A already from β = {glue:text}`privic-f2-switch-literal`
# (ε = {glue:text}`privic-f2-switch-literal-eps`), and at ε = 1.6 it keeps {glue:text}`privic-f2-lit16-block` of A's reports in
# the block, about as much as LAP: the elastic story of Fig. 2 disappears (F2-literal).
# With π(A) = 0.01 and the rest renormalised (`mode="renorm"`) it survives (F2-renorm):
# what the figure needs is a light A, not where the rest of the block goes. The numbers for
# the three islands:

# %% tags=["remove-input"]
cols = ["eps", "BA P(A→A)", "BA P(block)", "BA mode", "BA E[d]", "LAP P(block)"]
pd.concat({m: t[cols] for m, t in el.items()}).round(3)

# %% [markdown]
# ## Statistical utility: BA against LAP (Fig. 3)
#
# For each β every check-in is obfuscated once by BA (10 iterations) and by LAP, the
# distribution is estimated with 10 iterations of IBU from the uniform start, and utility is
# $\mathrm{EMD}(\pi, \hat\pi)$ (grid units). The paper claims that BA is better than LAP
# "for β ∈ (0.4, 1.4] and β ∈ (0, 1)" in Paris and San Francisco. We run the paper's 25
# values of β with {glue:text}`privic-sims` simulations each, LAP both at BA's tight level
# (the authors' code) and at the stated ε = 2β, and one more curve: BA's IBU started at the
# true π that built BA. That start is not the paper's protocol, but it is the only one we
# found that produces a crossover.

# %%
fig3 = {c: ex.stat_utility_sweep(
    counts[c].ravel(), c, SIZES["fig3_betas"],
    eps_tight[c][np.searchsorted(V.FIG3_BETAS, SIZES["fig3_betas"])],
    sims=SIZES["sims"], seed=seed_for(SEED, f"fig3/{c}")) for c in CITIES}
g3 = {c: gr.fig3_estimates(fig3[c], c) for c in CITIES}
for c in CITIES:
    report.record({k: v for k, v in g3[c].items() if not k.startswith("_")})

# %% tags=["remove-cell"]
for c in CITIES:
    ratio, cross = g3[c]["_ratio"], g3[c]["_crossover"]
    wins = [b for b in g3[c]["_lap_wins"] if b <= 1.4]
    report.text(**{f"f3-ratio-{c}": f"{ratio.min():.1f}–{ratio.max():.0f}",
                   f"f3-cross-{c}": ", ".join(f"{b:g}" for b in cross) or "none",
                   f"f3-lapwins-{c}": ", ".join(f"{b:g}" for b in wins) or "none"})

# %% tags=["hide-input", "remove-output"]
m3 = {c: gr.mean_interval(fig3[c], "beta", "mechanism", "sim") for c in CITIES}
glue("privic-fig3", figures.fig3(m3, SIZES["sims"]))

# %% [markdown]
# ```{glue:figure} privic-fig3
# :name: fig-privic-3
# :alt: Two panels, Paris and San Francisco, EMD against beta on a log scale; the LAP curves lie below the BA curve at every beta; the dashed curve of BA with IBU started at the true distribution is flat and crosses LAP near beta = 1.2.
#
# (Paper Fig. 3.) EMD(π, π̂) of BA and LAP against β (the paper's 25 values, 0.2 … 5): mean and
# 95 % interval (Hall's skewness-corrected t) of {glue:text}`privic-sims` simulations per β of all N
# check-ins, IBU with 10 iterations. The dashed curve starts BA's IBU at the true π (not the paper's
# protocol; 10 iterations).
# ```
#
# Under the stated protocol LAP beats BA at **every** β, in both cities, by a factor of
# {glue:text}`privic-f3-ratio-paris` in Paris and {glue:text}`privic-f3-ratio-sf` in San
# Francisco (rows F3-order diverge: at every β of the paper's interval LAP is lower by far more
# than the 10 % we call material, with simultaneous intervals). Tuning LAP to the stated ε = 2β
# instead of BA's tight level changes nothing (F3-2beta). Both EMDs do go to 0 as β grows
# (F3-limit). Only when BA's IBU starts at the true π does BA win at high privacy; the crossover,
# the β where neither is lower by 10 %, is then {glue:text}`privic-f3-cross-paris` in Paris and
# {glue:text}`privic-f3-cross-sf` in San Francisco. San Francisco's lies near the paper's boundary
# of 1 (F3-B-sf, an artefact's crossover); Paris's does not, since its interval (0.4, 1.4] would
# need BA to win up to 1.4, where LAP is lower instead (at β = {glue:text}`privic-f3-lapwins-paris`;
# F3-B-paris).
#
# The paper's other statements about Fig. 3 fare no better. "As the level of privacy decreases,
# the EMD of BA becomes worse than that of LAP" describes a crossover that does not happen: LAP is
# ahead at every β (F3-cross). And the introduction's "eventually becoming comparable as the level
# of privacy decreases" runs the wrong way: the ratio of BA's EMD to LAP's *grows* with β, to the
# upper end of the ranges above (F3-comparable; {numref}`fig-privic-3` has a log axis).
#
# The comparison is not quite at "the same level of geo-ind" either (Sec. 3.1). The authors set
# LAP's nominal ε to BA's tight level, but each row of the padded LAP is normalised over the padded
# grid, and the normalisers of edge and centre cells differ: LAP's own tight level exceeds its
# nominal one by up to {glue:text}`privic-lap-excess` % at β = 0.2, and by less than
# {glue:text}`privic-lap-excess-hi` % from β = 0.6 on (T-LAP-level). Lowering LAP's nominal ε
# until its tight level equals BA's (`pv.lap_at_level`) changes nothing: at β = 0.2 and 0.4, where
# the excess is largest, LAP still has {glue:text}`privic-lapcal-ratio` times smaller EMD than BA
# (F3-LAPcal).

# %%
lap_ratio = {c: np.array([pv.lap_tight_level(c, e) / e for e in eps_tight[c]])
             for c in CITIES}
report.holds("T-LAP-level", ratio=np.concatenate(list(lap_ratio.values())))
lapcal = {c: ex.stat_utility_sweep(
    counts[c].ravel(), c, [0.2, 0.4], [pv.lap_at_level(c, e) for e in eps_tight[c][:2]],
    sims=SIZES["sims"], seed=seed_for(SEED, f"fig3-lapcal/{c}")) for c in CITIES}
lapcal_est = gr.lapcal_estimate(lapcal)
report.range("F3-LAPcal", lapcal_est)

# %% tags=["remove-cell"]
excess = 100 * (np.max([lap_ratio[c][0] for c in CITIES]) - 1)
excess_hi = 100 * (max(lap_ratio[c][2:].max() for c in CITIES) - 1)
r = 1 / np.asarray(lapcal_est.value)
report.text(**{"lap-excess": f"{excess:.1f}", "lap-excess-hi": f"{excess_hi:.1f}",
               "lapcal-ratio": f"{r.min():.1f}–{r.max():.1f}"})

# %% [markdown]
# Is that start what makes the difference? Running IBU longer answers it
# ({numref}`fig-privic-budgets`): from the true π the estimate drifts away as the iterations
# grow, and after 10⁴ iterations it is where the uniform start ends (F3-B-drift,
# F3-B-drift-end): the advantage of the dashed curve is an initialisation artefact. More
# iterations never make BA beat LAP (P4).

# %%
budget_cases = [("paris", 0.2), ("paris", 0.6), ("paris", 1.0), ("sf", 0.2)]
budgets = {(c, b): ex.ibu_budget_study(
    counts[c].ravel(), c, b, eps_tight[c][round(b / 0.2) - 1], SIZES["budgets"],
    sims=SIZES["budget_sims"], rng=rng_for(SEED, f"budgets/{c}/{b}"))
    for c, b in budget_cases}
report.record(gr.budget_estimates(budgets))

# %% tags=["hide-input", "remove-output"]
mb = {k: gr.mean_interval(v, "budget", "mechanism", "sim")["mean"]
      for k, v in budgets.items()}
B_start = mb[("paris", 0.6)]["BA, IBU from the true π"]
report.text(drift=", ".join(f"{v:.3f}" for v in B_start))
glue("privic-budgets", figures.ibu_budgets(budgets[("paris", 0.6)], "Paris, β = 0.6"))

# %% [markdown]
# ```{glue:figure} privic-budgets
# :name: fig-privic-budgets
# :alt: EMD against the number of IBU iterations on log axes; the curve started at the true distribution rises to meet the curve started at uniform; LAP stays lowest.
#
# Paris, β = 0.6: EMD after 10 … 10⁴ IBU iterations on the same reports, mean and 95 % interval
# (Hall's) of {glue:text}`privic-budget-sims` simulations. Started at the true π, BA's estimate
# drifts away ({glue:text}`privic-drift`).
# ```
#
# The means at every budget (Paris β = 0.2, 0.6, 1; San Francisco β = 0.2):

# %% tags=["remove-input"]
pd.concat({f"{NAMES[c]}, β = {b}": v for (c, b), v in mb.items()}).round(3)

# %% [markdown]
# ## The BA–IBU duality (Sec. 4, Fig. 4)
#
# Substituting (1) into (2),
#
# $$ c_{t+1}(y) = \sum_x \pi(x)\,\frac{c_t(y)\,e^{-\beta d(x,y)}}
#    {\sum_z c_t(z)\,e^{-\beta d(x,z)}}, \qquad (5) $$
#
# is an IBU step in which BA's output $y$ is the secret, BA's prior $\pi$ the observed
# distribution and the kernel $e^{-\beta d(x,y)}$ the channel from $y$ to $x$
# ({numref}`fig-privic-4`).
#
# ```{prf:proposition} BA–IBU duality (the paper's Eq. (5))
# :label: prop-privic-duality
#
# The marginals $c_t$ of BA on the prior $\pi$ are the iterates of IBU started at $c_0$, with
# observed distribution $\pi$ and "channel" $K^\top_{yx} = e^{-\beta d(x,y)}$. Checked in row
# <a href="#claim-privic-T-G1">T-G1</a>; <a href="#claim-privic-T-G2">T-G2</a> and
# <a href="#claim-privic-T-G3">T-G3</a> show its limits.
# ```
#
# The identity is exact with the *unnormalised* kernel (T-G1). Read literally, "the exponential
# mechanism" is a row-normalised kernel, and then the identity needs constant column sums: it
# holds on a cycle, not on a bounded grid (T-G2). Sec. 4 concludes that "also IBU converges"
# because BA does; the duality gives that only for the unnormalised kernel, which is not a
# channel. IBU on the proper channel does converge, by ElSalamouny and Palamidessi's theorem
# {cite}`elsalamouny2020gibu` rather than by the duality (T-G3).

# %%
rng = rng_for(SEED, "duality")
report.holds("T-G1", gap=max(
    pv.ba_ibu_duality_gap(pi["paris"], D["paris"], b, rng.dirichlet(np.ones(165)), 50)
    for b in (0.2, 1.0, 3.0)))
ring = np.arange(24)
D_ring = np.minimum(np.abs(ring[:, None] - ring), 24 - np.abs(ring[:, None] - ring))
grid_gap = pv.ba_ibu_duality_gap(pi["paris"], D["paris"], 1.0, normalised_kernel=True)
report.holds("T-G2", grid_gap=grid_gap, cycle_gap=pv.ba_ibu_duality_gap(
    rng.dirichlet(np.ones(24)), D_ring.astype(float), 1.0, normalised_kernel=True))
K_row = np.exp(-D["paris"]).T / np.exp(-D["paris"]).T.sum(axis=1, keepdims=True)
proper = estimators.ibu(K_row, pi["paris"], criterion="gap", tol=1e-10,
                        accelerate="squarem", max_iter=100_000)
report.holds("T-G3", grid_gap=grid_gap, ibu_gap=proper.gap)

# %% tags=["hide-input", "remove-output"]
glue("privic-fig4", figures.fig4())

# %% [markdown]
# ```{glue:figure} privic-fig4
# :name: fig-privic-4
# :alt: Two boxes, the BA update and the IBU update, with the correspondence output/secret, prior/observed distribution, kernel/channel, marginal/estimate.
#
# (Paper Fig. 4.) BA's marginal update is an IBU step with inputs and outputs swapped.
# ```
#
# ## Invertibility and a unique MLE (Thm 5.1, Example 5.1)
#
# ```{prf:theorem} Invertibility (the paper's Thm 5.1)
# :label: thm-privic-invertible
#
# Every BA iterate $C^{(t)} = \mathrm{diag}(1/Z)\,K\,\mathrm{diag}(c_{t-1})$ with $K = e^{-\beta D}$
# and full-support $c_{t-1}$ is invertible, because $K$ is strictly positive definite on distinct
# points of the plane. Checked in rows <a href="#claim-privic-T-H2">T-H2</a> and
# <a href="#claim-privic-T-H-rank">T-H-rank</a>; the proof's step in
# <a href="#claim-privic-T-H-proof">T-H-proof</a> and <a href="#claim-privic-T-H-repair">T-H-repair</a>.
# ```
#
# The proof takes a step that is false as written: it calls $f(x) = \sqrt x$ completely monotone,
# but a completely monotone function is non-increasing and $f'(1) = 1/2$ (T-H-proof). $\sqrt x$ is a
# *Bernstein* function, and that is enough:
#
# ```{prf:proof} (repaired)
# For $r \ge 0$,
#
# $$ \begin{gathered} e^{-\beta\sqrt r} = \int_0^\infty e^{-rt}\,\mu_\beta(dt), \\
#    \mu_\beta(dt) = \frac{\beta}{2\sqrt\pi}\,t^{-3/2}e^{-\beta^2/4t}\,dt \ge 0, \end{gathered} $$
#
# so $e^{-\beta\|x-y\|}$ is a positive mixture of Gaussian kernels $e^{-t\|x-y\|^2}$, each strictly
# positive definite on distinct points, and so is $K$ {cite}`schoenberg1938metric`. The diagonal
# factors are positive, hence $C^{(t)}$ is invertible.
# ```
#
# `ex.levy_mixture` checks the identity by quadrature (T-H-repair). In floating point the theorem is
# meaningful only while the channels are well conditioned: those PRIVIC uses are (T-H-rank, below),
# those of Fig. 3 at β = 5 are not (T-H-cond).

# %%
eig = [rd.kernel_min_eigenvalue(D[c], b) for c in CITIES for b in (0.05, 0.2, 1, 5)]
report.holds("T-H2", min_eig=min(eig))
cond5 = [np.linalg.cond(rd.blahut_arimoto(pi[c], D[c], 5.0).channel) for c in CITIES]
report.holds("T-H-cond", min_cond=min(cond5))
report.holds("T-H-proof", derivative=(np.sqrt(1 + 1e-6) - np.sqrt(1 - 1e-6)) / 2e-6)
report.close("T-H-repair", max(abs(ex.levy_mixture(r, b) - np.exp(-b * np.sqrt(r)))
                               for b in (0.2, 1.0, 5.0) for r in (0.01, 1, 4, 25, 100)))

# %% [markdown]
# **Example 5.1: optimal QoS with zero statistical utility.** Three collinear points a, b,
# c at unit spacing, a uniform prior and the QoS bound AvgD ≤ 2/3: the mechanism
# "everything → b" meets the bound, but it has rank 1 and IBU cannot move from its start
# (T-K1). At a strictly feasible budget (AvgD = 0.6; `ex.example_5_1` solves for its slope
# β by root finding, β = {glue:text}`privic-ex51-beta`) the converged BA channel is
# invertible and IBU from two starts agrees (T-K2); at the boundary converged BA
# degenerates to the same rank-1 channel (T-K3).

# %%
ex51 = ex.example_5_1(0.6)
report.holds("T-K1", avgd=ex51["all_to_b_avgd"], rank=ex51["all_to_b_rank"],
             move=ex51["ibu_move"])
report.holds("T-K2", avgd=ex51["avgd"], sigma_min=ex51["sigma"][-1],
             two_starts=ex51["ibu_two_starts"])
report.holds("T-K3", sigma2=ex51["boundary_sigma"][1])
report.text(**{"ex51-beta": f"{ex51['beta']:.6f}"})

# %% [markdown]
# ## PRIVIC (Alg. 1, Fig. 5)
#
# PRIVIC starts from $\theta_0 = c_0 =$ uniform. In cycle $t$ it (i) builds
# $\hat C^{(t)} = \mathrm{BA}(\theta_{t-1}, c_0, \beta)$; (ii) collects the users' reports
# through $\hat C^{(t)}$; (iii) estimates $\mu_t$ with IBU started at $\theta_{t-1}$;
# (iv) sets $\theta_t = \mu_t$ or $\mu_t \oplus \theta_{t-1}$ ({numref}`fig-privic-5`).
# After $N$ cycles, generalised IBU (GIBU) {cite}`elsalamouny2020gibu` over all cycles'
# reports gives $\hat\pi$.

# %% tags=["hide-input", "remove-output"]
glue("privic-fig5", figures.fig5())

# %% [markdown]
# ```{glue:figure} privic-fig5
# :name: fig-privic-5
# :alt: A loop of boxes: BA from the current estimate, users report, IBU from the previous estimate, update, back to BA; after N cycles GIBU over all reports.
#
# (Paper Fig. 5.) The PRIVIC loop.
# ```
#
# The paper says PRIVIC "required" 15 cycles in Paris (8 BA and 10 IBU iterations each) and 8 in
# San Francisco (5 and 5), 5 rounds at β = 1 and 0.5 (Sec. 6, Tables III–IV), and the same at six
# values of β (Fig. 10). Its tables have 15 and 8 rows, and row 1 is the EMD of the uniform start
# (rows D4), so we read them as 14 and 7 data cycles after the start: a reading, which the
# tables' numbers bear out. Alg. 1 as written draws fresh users each cycle and averages with ⊕;
# the numbers of Tables III–IV are reproduced by another reading: every cycle re-obfuscates the
# *whole* dataset with fresh randomness, IBU is warm started, and $\theta_t = \mu_t$ (no ⊕). We run
# that protocol with the paper's cycles and iterations, {glue:text}`privic-rounds` round(s) per β.

# %%
runs = {c: ex.run_privic(counts[c].ravel(), c, SIZES["fig10_betas"], SIZES["rounds"],
                         seed=seed_for(SEED, f"privic/{c}")) for c in CITIES}
for c in CITIES:
    report.record(gr.table_estimates(runs[c][0], c))
spread = gr.spread_estimate(rng=rng_for(SEED, "t-spread"))
report.range("T-spread", spread)
cal = ex.calibration_runs(counts, SIZES["cal_rounds"], seed=SEED)  # T-cal: paper scale
report.range("T-cal", cal and gr.calibration_estimate(cal, rng=rng_for(SEED, "t-cal")))

# %% tags=["hide-input", "remove-output"]
tables = {c: ex.table_summary(runs[c][0].query("beta in (0.5, 1.0)"), V.PAPER_TABLES[c])
          for c in CITIES}
row8 = tables["sf"].xs(8, level="row")["ours mean"]
sds = np.concatenate(list(V.CALIBRATION_ROW_SD.values()))
undecided = [i for i, r in report.rows.items()
             if i.startswith(("TIII-", "TIV-")) and r["status"] == "undecided"]
report.text(**{"table-undecided": ("rows " + " and ".join(undecided)) if undecided
               else "none"})
report.text(row8=f"{row8[1.0]:.4f} / {row8[0.5]:.4f}", spread=spread,
            **{"cal-sd": f"{sds.min():.3f}–{sds.max():.3f}"})
glue("privic-fig89", figures.fig8_9(tables, SIZES["rounds"]))

# %% [markdown]
# ```{glue:figure} privic-fig89
# :name: fig-privic-89
# :alt: Four panels of EMD against the PRIVIC row on a log scale, Paris and San Francisco at beta 1 and 0.5; our means and the paper's means overlap within their error bars.
#
# (Paper Figs. 8–9, Tables III–IV.) EMD(π, θ) per PRIVIC row: the mean of our
# {glue:text}`privic-rounds` rounds and the mean of the paper's five printed rounds, each with its
# 95 % interval (Hall's skewness-corrected t); row 1 is the uniform start.
# ```
#
# Table IV has 8 rows (the first edition stored 7 and called the eighth a divergence); our
# row 8 is {glue:text}`privic-row8` at β = 1 / 0.5, against the printed means 0.1856 and
# 0.4364. We run {glue:text}`privic-rounds` rounds where the paper runs five, so that the steps
# between rows can be decided; the paper's five rounds are a sample too, and each row compares the
# two samples: Welch's 95 % interval of our mean minus the paper's must lie within
# ±max(0.02, 10 % of the printed mean). Ten per cent is the smallest difference we call material
# (the ⊕ average below moves row 15 by 30 %); the floor 0.02 keeps the margin above the paper's
# own round-to-round spread. The whole table is reproduced when every row is, which needs no
# correction for the 42 rows (an intersection-union test). Every row holds but
# {glue:text}`privic-table-undecided`: there the paper's own five rounds scatter most (sd about 0.013
# and 0.014 grid units), and Welch's interval of the difference stays wider than the margin allows
# however many rounds we run (with four degrees of freedom on the paper's side): deciding them would
# take more of the paper's rounds, not ours.
# The paper's rounds scatter as ours do: the ratio of the paper's sd to ours over 100 calibration
# rounds on other seeds ({glue:text}`privic-cal-sd`), root mean square over the 42 rows, is
# {glue:text}`privic-spread` (T-spread), the strongest evidence that this protocol is the
# authors'. Rows 2 → N decrease, up to a tie of about 10 % of the final EMD in Paris, where the
# paper's own means also rise at rows 12, 13 and 15 (TIII-trend, TIV-trend).
#
# The protocol choice is measured, not assumed: with the ⊕ average (Alg. 1 step iv) the
# curve flattens early and misses row 15 (A11-combine), and Alg. 1 as written (fresh users,
# ⊕) is flatter still ({numref}`fig-privic-variants`).

# %%
alg1_paris = ex.run_privic(counts["paris"].ravel(), "paris", [1.0], SIZES["rounds"],
                           seed=seed_for(SEED, "privic-alg1/paris"), protocol="ALG1")[0]
combine = pv.privic_table(counts["paris"].ravel(), D["paris"], [1.0],
                          rounds=SIZES["rounds"], n_rows=15, ba_iter=8, ibu_iter=10,
                          combine=True, seed=seed_for(SEED, "privic-combine"))
report.range("A11-combine", gr.combine_estimate(combine))

# %% tags=["hide-input", "remove-output"]
curves = {"tables' protocol (no ⊕)": tables["paris"].loc[1.0, "ours mean"].to_numpy(),
          "with ⊕": combine.groupby("row").emd.mean().to_numpy(),
          "Alg. 1 as written": alg1_paris.groupby("row").emd.mean().to_numpy()}
glue("privic-variants",
     figures.privic_variants(curves, V.PAPER_TABLE_III[1.0].mean(axis=1)))

# %% [markdown]
# ```{glue:figure} privic-variants
# :name: fig-privic-variants
# :alt: EMD against the PRIVIC row for three readings of the protocol and the paper's Table III; the tables' protocol follows the paper, the two with the ⊕ average flatten above it.
#
# Paris, β = 1: three readings of PRIVIC against Table III (mean of
# {glue:text}`privic-rounds` rounds each).
# ```
#
# PRIVIC's final estimates ({numref}`fig-privic-7`) and their EMD against β
# ({numref}`fig-privic-10`): the curve "starts by sharply decreasing and then eventually
# stabilizes" (F10-shape). Sec. 6 says that a higher β gives a *worse* statistical utility;
# Fig. 10 shows the opposite (E6).

# %%
f10 = gr.f10_estimates({c: runs[c][0] for c in CITIES})
report.record({k: v for k, v in f10.items() if not k.startswith("_")})

# %% tags=["hide-input", "remove-output"]
theta_N = {(c, b): runs[c][2][(b, 0)] for c in CITIES for b in (0.5, 1.0)}
glue("privic-fig7", figures.fig7(pi, theta_N))
glue("privic-fig10", figures.fig10(f10["_final"], SIZES["rounds"]))

# %% [markdown]
# ```{glue:figure} privic-fig7
# :name: fig-privic-7
# :alt: Pairs of heat maps, the true distribution and PRIVIC's final estimate, for Paris and San Francisco at beta 0.5 and 1; the estimates reproduce the crowded cells, more sharply at beta 1.
#
# (Paper Fig. 7.) The true distribution (left) and PRIVIC's estimate θ_N after 14 (Paris)
# and 7 (San Francisco) cycles (right), first round, β = 0.5 and 1.
# ```
#
# ```{glue:figure} privic-fig10
# :name: fig-privic-10
# :alt: Final EMD against beta for Paris and San Francisco, falling steeply from beta 0.1 to 0.3 and flattening towards beta 1.
#
# (Paper Fig. 10.) Final EMD of PRIVIC against β ∈ {0.1, 0.3, 0.5, 0.7, 0.9, 1}: mean and 95 %
# interval (Hall's) of {glue:text}`privic-rounds` rounds.
# ```

# %% [markdown]
# ### Within a cycle, and from cycle to cycle (Sec. 6, Table II)
#
# Sec. 6 says each cycle "comprised 8 iterations of BA until it converged … and 10 iterations of IBU
# until it converged to the MLE" (San Francisco: 5 and 5). After 8 iterations on the Paris prior at
# β = 1, some user's reporting distribution is still at total variation
# {glue:text}`privic-ba-tv-paris` from its limit, and BA reports on
# {glue:text}`privic-ba-support-paris` cells where its limit uses
# {glue:text}`privic-ba-support-inf-paris` (San Francisco: total variation
# {glue:text}`privic-ba-tv-sf` against its 20,000th iterate; rows S6-BA-conv, and
# {numref}`fig-privic-bahist`): BA is far from converged. For IBU we ask whether each cycle's
# estimate lies in the calibrated 95 % likelihood-ratio region of the maximum likelihood of that
# cycle's reports: its mean gap at most the 95 % quantile of the true π's gap in the same cycle. In
# Paris the estimate is {glue:text}`privic-ibu-gap-paris` nats below the maximum (first and last
# cycle), where the true π is {glue:text}`privic-truth-gap-paris` nats below it on average and the
# regions are {glue:text}`privic-ibu-q95-paris` nats: ratios {glue:text}`privic-ibu-ratio-paris`
# (first and last cycle, simultaneous intervals over the 14 cycles). The first cycle, IBU from
# uniform, is the farthest from its MLE, at the region's edge: undecided over these rounds. In San Francisco, with 5 iterations, the first cycles are
# far outside even Wilks' region of {glue:text}`privic-chi2-sf` nats, which is wider than every
# calibrated region of this chapter ({glue:text}`privic-ibu-gap-sf`; means of
# {glue:text}`privic-long-rounds-paris` and {glue:text}`privic-long-rounds-sf` rounds; rows
# S6-IBU-conv). The runs behind these numbers go on for three times the paper's cycles; they also
# serve the convergence claims of the next section.

# %%
conv = {c: ex.ba_at_paper_iterations(pi[c], c, 1.0, ba_iter=V.PROTOCOL[c]["ba_iter"],
                                     max_iter=SIZES["conv_iter"]) for c in CITIES}
long = {c: ex.privic_long_run(counts[c].ravel(), c, 1.0, SIZES["long_rounds"][c],
                              seed=seed_for(SEED, f"long/{c}"),
                              mle_tol=SIZES["mle_tol"]) for c in CITIES}
g_long = {c: gr.long_run_estimates(long[c], c, seed=SEED) for c in CITIES}
for c in CITIES:
    report.holds(f"S6-BA-conv-{c}", **conv[c])
    report.record(g_long[c])

# %% tags=["remove-cell"]
for c in CITIES:
    summ = long[c][1]
    gap, truth_gap = (np.stack(summ[k].to_numpy()) for k in ("ibu_gap", "truth_gap"))
    q95 = np.quantile(truth_gap, 0.95, axis=0)
    report.text(**{f"ba-tv-{c}": f"{conv[c]['row_tv']:.2f}",
                   f"ba-support-{c}": str(conv[c]["support_k"]),
                   f"ba-support-inf-{c}": str(conv[c]["support_inf"]),
                   f"ibu-gap-{c}": f"{gap[:, 0].mean():,.0f} and "
                                   f"{gap[:, -1].mean():,.0f}",
                   f"truth-gap-{c}": f"{truth_gap.mean():,.0f}",
                   f"ibu-q95-{c}": f"{q95.min():,.0f}–{q95.max():,.0f}",
                   f"chi2-{c}": f"{REGION[c]:.1f}"})
report.text(**{"ibu-ratio-paris": gr.ibu_ratio_text(
    g_long["paris"]["S6-IBU-conv-paris"], SIZES["long_rounds"]["paris"])})

# %% [markdown]
# The Discussion of Sec. 6 expects more: "as every iteration of PRIVIC improves the estimation …,
# the overall privacy protection and its trade-off with QoS of the users will also improve". The
# trade-off BA optimises is its own objective $\mathcal L_\beta = I + \beta\,\mathrm{AvgD}$
# {eq}`eq-privic-mi`; we evaluate it for each cycle's mechanism on the population it serves, the
# true π (`run_privic` records it per row), and ask that it never rise from one cycle to the next by
# more than 0.005 nats (a sixth of a percent of the objective) and end lower than it starts, every
# step decided jointly over the rounds. It does, in both cities and at both β (S6-tradeoff): after
# the first few cycles the objective is flat, its steps well inside the tie. The sentence has a
# second half, the "privacy protection" alone: the mutual information, graded with the same tie
# (S6-privacy). In Paris it does not improve after the second cycle: it rises while the average
# distortion falls (β = 1: from {glue:text}`privic-mi-2` nats at row 2 to
# {glue:text}`privic-mi-15` at row 15; largest mean step {glue:text}`privic-mi-step-paris`). In San
# Francisco its largest mean step is {glue:text}`privic-mi-step-sf`. The means over rounds, Paris,
# rows 1, 2, 3, 8 and 15:

# %%
for c in CITIES:
    report.range(f"S6-tradeoff-{c}", gr.tradeoff_estimate(runs[c][0]))
    mi_steps = gr.tradeoff_estimate(runs[c][0], column="mi", ends=False)
    report.range(f"S6-privacy-{c}", mi_steps)
    report.text(**{f"mi-step-{c}": mi_steps[int(np.argmax(mi_steps.value))]})
mi_rows = runs["paris"][0].query("beta == 1.0").groupby("row").mi.mean()
report.text(**{"mi-2": f"{mi_rows[2]:.3f}", "mi-15": f"{mi_rows[15]:.3f}"})
(runs["paris"][0].query("beta in (0.5, 1.0)").groupby(["beta", "row"])
 [["mi", "avgd", "lagrangian"]].mean().unstack("beta").iloc[[0, 1, 2, 7, 14]].round(4))

# %% [markdown]
# Table II gives the run time of BA and IBU per cycle on the authors' machine and calls both
# $O(n^2)$. Read with $n$ the number of cells, the printed times per iteration grow from Paris
# (165 cells) to San Francisco (384) by a factor {glue:text}`privic-t2-ba` for BA, close to
# $(384/165)^2 = 5.4$, but by {glue:text}`privic-t2-ibu` for IBU, which fits $n$ = users
# ($12.2^2 = 149$) better than cells: the table's $n$ is not defined (T2-table). Our BA and IBU are
# matrix operations whose time per iteration grows like $m^2$ (T2, a timing row of our code, kept
# out of the byte-stable report). Per cycle, on the machine that built this page:

# %%
P2 = V.PAPER_TABLE_II
per_it = {c: np.array(P2[c]) / [V.PROTOCOL[c][k] for k in ("ba_iter", "ibu_iter")]
          for c in CITIES}
m_ratio = counts["sf"].size / counts["paris"].size
growth = per_it["sf"] / per_it["paris"] / m_ratio ** 2
report.holds("T2-table", ba_ratio=growth[0], ibu_ratio=growth[1])
times = ex.per_iteration_times(SIZES["timing_sides"], rng=rng_for(SEED, "table2"))
report.holds("T2", **gr.complexity_slopes(times))  # timings: book and paper scale

# %% tags=["remove-input"]
ours_t = {c: ex.cycle_times(counts[c].ravel(), c, rng=rng_for(SEED, f"table2/{c}"))
          for c in CITIES}
pd.DataFrame({NAMES[c]: {
    "BA, paper (s)": P2[c][0], "BA, ours (ms)": 1e3 * ours_t[c]["BA"],
    "IBU, paper (s)": P2[c][1], "IBU, ours (ms)": 1e3 * ours_t[c]["IBU"]}
    for c in CITIES}).T.round(3)

# %% tags=["remove-cell"]
report.text(**{f"t2-{k}": f"{per_it['sf'][i] / per_it['paris'][i]:.1f}"
               for i, k in enumerate(("ba", "ibu"))})

# %% [markdown]
# ## Is PRIVIC's estimate the MLE? (Remark 6, Sec. 6, Thm 5.2)
#
# Remark 6 says that step 3 of Alg. 1 (GIBU over all cycles) is not really necessary:
# "the combination of all estimations should already be the MLE of the true distribution,
# and this is also what we have witnessed in the experiments"; Sec. 6 says that PRIVIC
# improves "until it converges to the MLE". Both are claims about the likelihood of the
# pooled reports,
#
# ```{math}
# :label: eq-privic-pooled
#
# L(\theta) = \sum_{t=1}^N \sum_y n_t(y)\log(\theta\hat C^{(t)})_y ,
# ```
#
# so we grade them with it.
#
# ```{prf:theorem} A unique MLE (the paper's Thm 5.2)
# :label: thm-privic-mle
#
# If every cycle's channel is invertible ({prf:ref}`thm-privic-invertible`), the stacked matrix
# $\mathcal G = (\hat C^{(1)} \cdots \hat C^{(N)})$ has full row rank, $L$ of {eq}`eq-privic-pooled`
# has a unique maximiser, and GIBU {cite}`elsalamouny2020gibu` converges to it. Checked in rows
# <a href="#claim-privic-T-I-rank">T-I-rank</a>, <a href="#claim-privic-T-H-rank">T-H-rank</a>,
# <a href="#claim-privic-T-I2">T-I2</a>, <a href="#claim-privic-T-I2b">T-I2b</a> and
# <a href="#claim-privic-T-I3">T-I3</a>.
# ```
#
# `ex.pooled_mle` runs GIBU, accelerated by SQUAREM {cite}`varadhan2008squarem`, to a
# **certified** maximum: the certificate $\log\max_x r_x$ that every IBU result carries bounds
# $\ell(\hat\theta_{MLE}) - \ell(\theta)$ per report, so with a certificate of 10⁻⁶ the maximum's
# log-likelihood is known to within $10^{-6}n$ nats, and each gap below is a certified interval.
# A candidate "is the MLE" for these data when it lies inside a 95 % likelihood-ratio region
# $L(\hat\theta_{MLE}) - L(\theta) \le R$: when the reports cannot tell it apart from the maximum.
#
# Which $R$? Wilks' $\chi^2_{m-1,0.95}/2$ ({glue:text}`privic-chi2-paris` nats in Paris,
# {glue:text}`privic-chi2-sf` in San Francisco) assumes independent reports and a maximum inside the
# simplex. Neither holds here: in the tables' protocol the same users report in every cycle, so
# {eq}`eq-privic-pooled` is only a pseudo-likelihood, and the MLE gives no mass to many cells. But
# $R$ only has to be the 95 % quantile of the *true* distribution's gap under the protocol that
# produced the reports, and in a simulation on a fixed dataset we know the truth and every round is
# a fresh draw of that protocol. So we run {glue:text}`privic-mle-rounds-paris` rounds per protocol
# and β in Paris ({glue:text}`privic-mle-rounds-close` for the tables' protocol at β = 1, the
# closest call) and {glue:text}`privic-mle-rounds-sf` in San Francisco, each with its certified
# MLE, and take $R$ as the 95 % quantile of the truth's gaps (`ex.calibrated_regions`). The
# calibrated regions are smaller than Wilks' in every setting ({glue:text}`privic-region-range` of
# it), because the maximum sits on the boundary of the simplex.
#
# $R$ is itself estimated from the rounds, so each row grades the ratio
# $\rho = \overline{L(\hat\theta_{MLE}) - L(\theta)}\,/\,\hat R$ of the candidate's mean gap to the
# region, with a bootstrap over the rounds that re-estimates $\hat R$ in every resample
# (`gr.gap_ratio`): the candidate is inside the region when $\rho \le 1$, and 10 % beyond it is
# material. In our simulations this interval covers 95 % from about 100 rounds; with San
# Francisco's 20 it covers about 82 %, which does not matter there: its ratios are above 10.

# %%
g = ex.mle_runs({c: counts[c].ravel() for c in CITIES}, SIZES["mle_rounds"], seed=SEED,
                mle_tol=SIZES["mle_tol"])
regions = ex.calibrated_regions(g)
r6 = gr.remark6_estimates(g, seed=SEED)
outside = gr.outside_share(g, regions)   # rounds with the combination outside
r6["R6-A11-paris-1"] = {"ours": r6["R6-A11-paris-1"], "note": "Combination outside "
                        f"in {outside.text()} of the rounds (Wilson); the truth: 5 %."}
report.record(r6)
a11 = g.query("protocol == 'A11'")
report.holds("T-H-rank", max_cond=a11.max_cond.max())
report.holds("T-I-rank", min_rank_deficit=int((a11.m - a11.G_rank).max()),
             min_ratio=a11.G_sigma_ratio.min())

# %% tags=["remove-cell"]
share = regions["region"] / regions["chi2"]
summary = g.groupby(["protocol", "city", "beta"])[
    ["gap_lo_combination", "gap_lo_theta_N", "gap_lo_truth", "emd_pi_combination",
     "emd_pi_theta_N", "emd_mle_pi"]].mean()
summary = regions[["rounds", "region", "chi2"]].join(summary).rename(
    index={"ALG1": "Alg. 1", "A11": "tables"})
report.text(**{"comb-outside": f"{100 * outside.value:.0f} % [{100 * outside.low:.0f}, "
                               f"{100 * outside.high:.0f}]"})
report.text(**{"region-range": f"{100 * share.min():.0f}–{100 * share.max():.0f} %"},
            **{f"ratio-{k}": v for k, v in r6.items()})
for (p, c, b), r in summary.iterrows():
    tag = f"{p[:3].lower()}-{c}-{b:g}"
    report.text(**{f"comb-{tag}": f"{r.gap_lo_combination:,.0f}",
                   f"thetaN-{tag}": f"{r.gap_lo_theta_N:,.0f}",
                   f"region-{tag}": f"{r.region:,.0f}"},
                **{f"{k}-{tag}": f"{r[k]:.3f}" for k in
                   ("emd_pi_combination", "emd_mle_pi", "emd_pi_theta_N")})

# %% tags=["hide-input", "remove-output"]
glue("privic-gaps", figures.mle_gaps(g, regions))

# %% [markdown]
# ```{glue:figure} privic-gaps
# :name: fig-privic-gaps
# :alt: Log-likelihood gaps to the MLE on a log scale for Paris and San Francisco, four settings each (Alg. 1 and the tables' protocol at beta 1 and 0.5); the combinations lie above the calibrated region except under the tables' protocol in Paris at beta 1, the true distribution below it, PRIVIC's final estimate above it.
#
# Log-likelihood gap to the certified MLE of the same reports (total nats; lower ends of the
# certified intervals) of the combination of the per-cycle estimates, of PRIVIC's θ_N (the tables'
# protocol; under Alg. 1 θ_N is the combination) and of the true π;
# {glue:text}`privic-mle-rounds-paris` rounds per setting in Paris,
# {glue:text}`privic-mle-rounds-sf` in San Francisco. Solid: the 95 % region calibrated on the
# truth's gaps; dotted: Wilks' region.
# ```
#
# Means per setting (gaps in nats, EMDs to π in grid units):

# %% tags=["remove-input"]
summary.rename(columns={
    "region": "calibrated region", "chi2": "Wilks' region",
    "gap_lo_combination": "gap: combination", "gap_lo_theta_N": "gap: θ_N",
    "gap_lo_truth": "gap: truth", "emd_pi_combination": "EMD to π: combination",
    "emd_pi_theta_N": "EMD to π: θ_N", "emd_mle_pi": "EMD to π: MLE",
}).style.format(precision=3, thousands=",").format_index("{:g}", level="beta")

# %% [markdown]
# **Remark 6, the likelihood.** Under Alg. 1 as written the combination of the per-cycle
# estimates is far outside the calibrated region in all four settings: in Paris it lies
# {glue:text}`privic-comb-alg-paris-1` and {glue:text}`privic-comb-alg-paris-0.5` nats below the
# maximum at β = 1 and 0.5, against regions of {glue:text}`privic-region-alg-paris-1` and
# {glue:text}`privic-region-alg-paris-0.5` (ratios {glue:text}`privic-ratio-R6-paris-1` and
# {glue:text}`privic-ratio-R6-paris-0.5`), and in San Francisco thousands of nats below it: less
# likely than the true π itself (rows R6). Under the tables' protocol, the one the authors'
# experiments used by our reading, the picture splits. In Paris at β = 1 the combination is inside
# the region: {glue:text}`privic-comb-tab-paris-1` nats on average against
# {glue:text}`privic-region-tab-paris-1`, a ratio of {glue:text}`privic-ratio-R6-A11-paris-1` over
# {glue:text}`privic-mle-rounds-close` rounds, decided with the region's own error. There, and only
# there, the remark holds as "witnessed in the experiments", on average: in
# {glue:text}`privic-comb-outside` of the rounds (Wilson 95 % interval) the combination falls
# outside the region, where the true π does in 5 % by construction. At β = 0.5 it is outside
# ({glue:text}`privic-comb-tab-paris-0.5` against {glue:text}`privic-region-tab-paris-0.5`, ratio
# {glue:text}`privic-ratio-R6-A11-paris-0.5`), and in San Francisco far outside at both β (rows
# R6-A11).
#
# **Remark 6, the utility: "step 3 is not really necessary".** Measured by the EMD to π, GIBU's MLE
# is much closer to the truth than the combination in San Francisco in all four settings (at β = 1
# under the tables' protocol {glue:text}`privic-emd_mle_pi-tab-sf-1` against
# {glue:text}`privic-emd_pi_combination-tab-sf-1`), and in Paris under Alg. 1 at β = 1
# ({glue:text}`privic-emd_mle_pi-alg-paris-1` against
# {glue:text}`privic-emd_pi_combination-alg-paris-1`). In the other three Paris settings it is not
# materially closer: under Alg. 1 at β = 0.5 the two tie ({glue:text}`privic-emd_mle_pi-alg-paris-0.5`
# and {glue:text}`privic-emd_pi_combination-alg-paris-0.5`); under the tables' protocol the MLE is a
# little closer at β = 1 ({glue:text}`privic-emd_mle_pi-tab-paris-1` against
# {glue:text}`privic-emd_pi_combination-tab-paris-1`, a ratio of
# {glue:text}`privic-ratio-R6-util-A11-paris-1`, above the 0.9 we call material) and farther at
# β = 0.5 ({glue:text}`privic-emd_mle_pi-tab-paris-0.5` against
# {glue:text}`privic-emd_pi_combination-tab-paris-0.5`): at high privacy, EM run to its maximum
# over-fits the noise (rows R6-util). Step 3 is what makes San Francisco's estimate good; in Paris it
# helps only under Alg. 1 at β = 1.
#
# **"PRIVIC converges to the MLE" fails in all four settings** once the region is calibrated. θ_N of the
# tables' protocol is {glue:text}`privic-thetaN-tab-paris-1` and
# {glue:text}`privic-thetaN-tab-paris-0.5` nats below the maximum in Paris at β = 1 and 0.5 (ratios
# {glue:text}`privic-ratio-S6-MLE-paris-1` and {glue:text}`privic-ratio-S6-MLE-paris-0.5`), and
# {glue:text}`privic-thetaN-tab-sf-1` and {glue:text}`privic-thetaN-tab-sf-0.5` in San Francisco
# (rows S6-MLE). Against Wilks' 97.4 nats, Paris at β = 0.5 would have passed and Paris at β = 1
# would sit just above it: the third edition's "borderline" row was an artefact of that yardstick.
# Being away from the MLE does not always cost utility: in Paris at β = 0.5 θ_N is closer to π
# ({glue:text}`privic-emd_pi_theta_N-tab-paris-0.5`) than the MLE is.
#
# Thm 5.2's ingredients check out. The stacked matrix $\mathcal G$ of every run of the tables'
# protocol has full row rank (T-I-rank) and the cycle channels are well conditioned (T-H-rank).
# On one Paris run (β = 1), GIBU from two different starts reaches the same certified maximum
# (T-I2), plain GIBU runs from the two starts approach each other as the iterations grow (T-I2b),
# and GIBU's log-likelihood never decreases (T-I3). A user reporting in $k$ cycles is
# $2k\beta$-geo-ind by sequential composition (T-N).

# %%
one = pv.privic(counts["paris"].ravel(), D["paris"], 1.0, n_cycles=14, ba_iter=8,
                ibu_iter=10, rng=rng_for(SEED, "gibu"))
Cs, Ys = one.channels, one.report_counts
start = rng_for(SEED, "gibu-start").dirichlet(np.ones(165))
mles = [ex.pooled_mle(Cs, Ys, theta0=t0) for t0 in (None, start)]
report.holds("T-I2", gaps=[m.gap for m in mles], l1=mles[0].loglik, l2=mles[1].loglik)
plain = {}
for name, t0 in (("uniform", None), ("random", start)):
    plain[name], done = [], 0
    for n in SIZES["gibu_iters"]:
        t0 = estimators.gibu(Cs, Ys, theta0=t0, tol=0, max_iter=n - done).estimate
        plain[name], done = plain[name] + [t0], n
report.monotone("T-I2b", [measures.emd(u, r, D["paris"])
                          for u, r in zip(plain["uniform"], plain["random"])])
trace = estimators.gibu(Cs, Ys, tol=0, max_iter=SIZES["gibu_iters"][1]).trace
report.holds("T-I3", min_step=np.diff(trace).min())

# %%
D5 = pv.privic_distance((5, 5))
pair = [rd.blahut_arimoto(rng_for(SEED, f"composition/{i}").dirichlet(np.ones(25)), D5,
                          0.5).channel for i in (1, 2)]
joint = np.einsum("xa,xb->xab", *pair).reshape(25, -1)
report.range("T-N", channels.geo_ind_epsilon(joint, D5))

# %% [markdown]
# The paper's headline is stronger than Thm 5.2: "PRIVIC converges to the true distribution"
# (Sec. 1). In the tables' protocol the same users' reports accumulate, so the pooled MLE (step 3)
# does tend to π as the cycles go on: its EMD falls from {glue:text}`privic-mle-N-paris` after the
# paper's cycles to {glue:text}`privic-mle-end-paris` after three times as many in Paris (ratio
# {glue:text}`privic-mle-ratio-paris`), from {glue:text}`privic-mle-N-sf` to
# {glue:text}`privic-mle-end-sf` in San Francisco (S6-true-mle). PRIVIC's own estimate θ_t, the one
# the experiments report, is IBU on one cycle's reports started at the previous one, and need not
# follow. The runs of three times the paper's cycles above answer three questions (mean EMDs to π,
# ratios over paired rounds; 10 % is material).
#
# * *Does θ_t arrive where the MLE is?* No. After 3N cycles θ_t is at
#   {glue:text}`privic-true-end-paris` in Paris and {glue:text}`privic-true-end-sf` in San
#   Francisco, {glue:text}`privic-true-ratio-paris` and {glue:text}`privic-true-ratio-sf` times the
#   MLE's EMD (S6-true).
# * *Had it "empirically converged" after the paper's cycles (Sec. 6)?* In Paris it has nearly
#   stopped, from {glue:text}`privic-true-N-paris` to {glue:text}`privic-true-end-paris` (ratio
#   {glue:text}`privic-settled-ratio-paris`); in San Francisco it keeps falling, from
#   {glue:text}`privic-true-N-sf` to {glue:text}`privic-true-end-sf`
#   ({glue:text}`privic-settled-ratio-sf`): the paper's 8 rows there stop on a falling curve
#   (S6-settled; in Paris the interval straddles the 90 % we set: undecided). In Paris θ_N is
#   also within about 10 % of the MLE's EMD (F10-limit, undecided at the 1.1 we set).
# * *At the least noisy β of Fig. 10, "we will end up estimating the unique MLE … until it
#   converges to the true distribution"?* After the paper's cycles at β = 1, θ_N is
#   {glue:text}`privic-limit-ratio-paris` times the MLE's EMD in Paris and
#   {glue:text}`privic-limit-ratio-sf` in San Francisco (F10-limit); neither is at 0: with finitely
#   many users the MLE itself is not π, and Fig. 10's curves level off. How close is "very close"
#   (Sec. 1: "the MLE is very close to the true distribution")? The paper gives no scale, so that
#   sentence has no criterion (S1-MLE-close, not evaluated); the MLE's EMDs are above.
#
# Remark 5 adds that any full-support start "would suffice for the process to eventually
# converge". Started at Dirichlet draws, PRIVIC ends {glue:text}`privic-remark5` grid units farther
# from π than started at uniform after the same 42 cycles (difference of mean EMDs, 95 % interval;
# T-L): inside the ±0.03 we set beforehand, but not zero: after three times the paper's cycles the
# start is not yet entirely forgotten.

# %%
from_dirichlet = ex.privic_long_run(counts["paris"].ravel(), "paris", 1.0,
                                    SIZES["long_rounds"]["paris"], start="dirichlet",
                                    seed=seed_for(SEED, "remark5"), with_mle=False)[0]
remark5 = gr.remark5_estimate(from_dirichlet, long["paris"][0])
report.range("T-L", remark5)

# %% tags=["remove-cell"]
for c in CITIES:
    traj, summ = long[c]
    e = traj.pivot(index="round", columns="row", values="emd")
    N = V.PROTOCOL[c]["n_rows"] - 1
    report.text(**{f"{k}-{c}": f"{v:.3f}" for k, v in (
        ("true-N", e[N + 1].mean()), ("true-end", e[3 * N + 1].mean()),
        ("mle-N", summ.emd_mle_N.mean()), ("mle-end", summ.emd_mle_end.mean()))},
        **{f"{k}-ratio-{c}": g_long[c][f"{r}-{c}"] for k, r in (
            ("true", "S6-true"), ("mle", "S6-true-mle"), ("settled", "S6-settled"),
            ("limit", "F10-limit"))})
report.text(remark5=remark5)
report.not_evaluated("S1-MLE-close")

# %% [markdown]
# ## Adversarial users (Sec. 7, Fig. 11)
#
# Colluding users report a location falsely, to pull BA towards it. The authors model it by
# adding $\delta = 0.005k$ to the prior mass of the reported cell for attack level
# $k = 0 … 8$ (their code; `pv.adversarial_prior`): a population in which a share
# $\delta/(1+\delta)$ of all reports are fake, **{glue:text}`privic-fake-range`**. Fig. 11's panels are
# labelled "0 %, 29 %, 34 %, 39 %" (at 0.8-geo-ind) and "0 %, 10 %, 15 %, 20 %" (at
# 1.2-geo-ind) adversarial users. These labels are reproduced by $1000\,\delta/(1+\delta)$
# (`pv.paper_label_percent`): ten times the fake share, a factor the paper does not
# explain, and 38.5 prints as 39 (F11-labels). Our panels say what is modelled.

# %%
K8, K12 = [0, 6, 7, 8], [0, 2, 3, 4]
deltas = V.AUTHORS_FAKE_STEP * np.array(K8[1:] + K12[1:])
share_k = 100 * pv.fake_report_share(V.AUTHORS_FAKE_STEP * np.arange(1, 9))
report.text(**{"fake-range": f"{share_k[0]:.1f} % to {share_k[-1]:.1f} %"})
report.holds("F11-labels", share_pct=100 * pv.fake_report_share(deltas),
             label=V.PAPER_FIG11_PANELS[0.8][1:] + V.PAPER_FIG11_PANELS[1.2][1:],
             recon_pct=pv.paper_label_percent(deltas))
eps_adv = eps_tight["paris"][[1, 2, 3]]  # beta = 0.4, 0.6, 0.8
adv = ex.adversarial_table(isl, [0.4, 0.6, 0.8], np.arange(9), eps_adv)
adv_B = ex.adversarial_table(isl, [0.4, 0.6], np.arange(9), eps_adv[:2],
                             cell=V.ISLAND_B)

# %% [markdown]
# Case (ii), the fakes report the isolated A: BA puts "more and more weight to and around
# point A" (F11-ii-mono). At ε = 1.2 A's most likely report becomes A itself within the paper's
# panels (F11-mode); at the caption's ε = 0.8 it does not: P(A→A) grows only to
# {glue:text}`privic-f11-pself-08` and B stays the mode, so "more and more identifiable" barely
# shows (F11-mode-0.8). "BA and PRIVIC start behaving more like LAP" needs a measure of likeness.
# We take the paper's own distance between distributions, the EMD, between BA's row of A and
# LAP's at the same tight level, on the padded output grid (the total variation, shown in the
# table below, would count a report at A's neighbour as entirely different from one at A). It does
# decrease over the panels, but that follows from the growing weight around A; the question is
# how much of the distance closes. We call it a start when at least a quarter does. Over the
# panels the attack closes {glue:text}`privic-f11-closed-08` of it at ε = 0.8 and
# {glue:text}`privic-f11-closed-12` at ε = 1.2 (F11-LAPlike): at the last panel BA's row is still
# {glue:text}`privic-f11-lap-08` from LAP's ({glue:text}`privic-f11-lap-12` at ε = 1.2), with
# d(A, B) = 5, while it has moved only {glue:text}`privic-f11-self-08` from its own row without
# attack ({glue:text}`privic-f11-self-12`). Case (i), the
# fakes report the crowded B: B's distribution stays "weighed heavily around B by both BA and
# LAP", and the trend continues (F11-i).

# %%
a4, a6 = (adv.query("beta == @b").set_index("k") for b in (0.4, 0.6))
report.holds("F11-ii-mono", steps=np.concatenate([
    np.diff(t[col]) for t in (a4, a6) for col in ("P(self)", "P(block)")]))
for e, t, ks in ((0.8, a4, K8), (1.2, a6, K12)):
    lap_d = t.loc[ks, "EMD to LAP"].to_numpy()
    report.holds(f"F11-LAPlike-{e:g}", emd_lap=lap_d, steps=np.diff(lap_d),
                 emd_self=t.loc[ks, "EMD to k = 0"].to_numpy())
report.holds("F11-mode", switch_k=min(k for k, m in a6["mode"].items()
                                     if m == V.ISLAND_A))
report.holds("F11-mode-0.8", modes_A=sum(m == V.ISLAND_A for m in a4.loc[K8, "mode"]),
             p_self_max=a4.loc[K8, "P(self)"].max())
report.text(**{"f11-pself-08": f"{a4.loc[K8, 'P(self)'].max():.3f}"})
for tag, t, ks in (("08", a4, K8), ("12", a6, K12)):
    for k, col in (("lap", "EMD to LAP"), ("self", "EMD to k = 0")):
        report.text(**{f"f11-{k}-{tag}": f"{t.loc[ks[-1], col]:.2f}"})
    lap_d = t.loc[ks, "EMD to LAP"].to_numpy()
    report.text(**{f"f11-closed-{tag}": f"{100 * (1 - lap_d[-1] / lap_d[0]):.1f} %"})
lap_B = ex.elasticity_table(isl, "paris", [0.4, 0.6], eps_adv[:2])["B: LAP P(block)"]
report.holds("F11-i", ba_block0=adv_B.query("k == 0")["P(block)"].min(),
             lap_block0=lap_B.min(), n=len(adv_B),
             modes_B=sum(m == V.ISLAND_B for m in adv_B["mode"]),
             steps=np.concatenate([
                 np.diff(adv_B.query("beta == @b")[col])
                 for b in (0.4, 0.6) for col in ("P(self)", "P(block)")]))

# %% tags=["hide-input", "remove-output"]
for tag, b, ks in (("a", 0.4, K8), ("b", 0.6, K12)):
    C = {k: rd.blahut_arimoto(pv.adversarial_prior(isl, k), D["paris"], b).channel
         for k in ks}
    share = {k: 100 * pv.fake_report_share(V.AUTHORS_FAKE_STEP * k) for k in ks}
    titles = [f"{share[k]:.1f} % fake reports (paper: {lab} %)"
              for k, lab in zip(ks, V.PAPER_FIG11_PANELS[2 * b])]
    glue(f"privic-fig11{tag}", figures.fig11([C[k][A] for k in ks], titles))
    report.text(**{f"fig11{tag}-shares": ", ".join(f"{share[k]:.1f} %" for k in ks[:-1])
                   + f" and {share[ks[-1]]:.1f} %"})

# %% [markdown]
# ```{glue:figure} privic-fig11a
# :name: fig-privic-11a
# :alt: Four heat maps of BA's reporting distribution of A, clockwise from the top left for 0, 2.9, 3.4 and 3.8 percent fake reports of A; the mass stays in the crowded centre with a faint spot at A.
#
# (Paper Fig. 11a.) BA's distribution of A's reports at ε = 2β = 0.8 (β = 0.4, 10
# iterations; deterministic), clockwise from the top left, under the authors' attack levels
# k = 0, 6, 7, 8: {glue:text}`privic-fig11a-shares` of the reports are fake reports of A (the
# paper labels them 0 %, 29 %, 34 %, 39 % adversarial users).
# ```
#
# ```{glue:figure} privic-fig11b
# :name: fig-privic-11b
# :alt: Four heat maps of BA's reporting distribution of A, clockwise from the top left for 0, 1.0, 1.5 and 2.0 percent fake reports; a growing share of the mass sits on A itself.
#
# (Paper Fig. 11b.) The same at ε = 1.2 (β = 0.6), k = 0, 2, 3, 4:
# {glue:text}`privic-fig11b-shares` fake reports of A (paper: 0 %, 10 %, 15 %, 20 %).
# ```
#
# BA on the authors' adversarial priors, for the isolated A ({numref}`fig-privic-11a`,
# {numref}`fig-privic-11b`):

# %% tags=["remove-input"]
adv.set_index(["beta", "k"])[["fake share", "P(self)", "P(block)", "mode", "E[d]",
                              "EMD to LAP", "TV to LAP"]].round(3)

# %% [markdown]
# Two further readings. The authors' notebook saves the attacked panels at β = 0.8 rather
# than at the β = 0.4 that "0.8-geo-ind" means; there the attack is far stronger, but A is
# already its own most likely report without any attacker (P(A→A) =
# {glue:text}`privic-f11-k0-08`), so the panels' "more and more identifiable" starts from an
# identifiable A (F11-beta08). And the paper models the attack by editing the prior BA is built on,
# whereas in PRIVIC the fakes would enter each cycle's reports and, through IBU, the next
# cycle's BA. Running the attack through PRIVIC itself (14 cycles of fresh honest users from
# the island prior, plus $\delta N$ fake reports of A per cycle) gives a much stronger pull
# than the shortcut (F11-PRIVIC).

# %%
attack = ex.privic_under_attack(isl, [0.4, 0.6], SIZES["attack_levels"],
                                SIZES["rounds"], seed=seed_for(SEED, "attack"))
shortcut = ex.adversarial_table(isl, [0.4, 0.6], [8], [1.0, 1.0])["P(self)"].to_numpy()
report.record({"F11-PRIVIC": gr.attack_estimate(attack, shortcut)})
beta08 = adv.query("beta == 0.8").set_index("k")
report.text(**{"f11-k0-08": f"{beta08.loc[0, 'P(self)']:.3f}"})
report.holds("F11-beta08", p_self=beta08.loc[6:, "P(self)"].to_numpy(),
             mode_k0_is_A=int(beta08.loc[0, "mode"] == V.ISLAND_A))

# %% [markdown]
# PRIVIC under attack (means of {glue:text}`privic-rounds` round(s); θ(A) is PRIVIC's
# estimate of π(A), whose true value is 0.01):

# %% tags=["remove-input"]
attack.groupby(["beta", "k"])[["theta(A)", "P(A→A)", "P(block)"]].mean().round(3)

# %% [markdown]
# ## Errata
#
# Besides the divergences above (rows D1, D3, E1, E2, E5, E6, F1-recipe, T-H-proof), the
# text has a few slips that change no number: Eq. (9) in the proof of Thm 5.1 writes $c_t$
# where the iteration has $c_{t-1}$; Sec. 7 names the strong and the vulnerable location
# "A and B" in the reverse order of Fig. 1; and Sec. 7 cites "Figures 10(a) and 10(b)" for
# Fig. 11, Sec. 3.1 "Figures 1(b) and 1(a)" for Fig. 2.
#
# ## Summary
#
# * **What reproduces.** The data and the paper's tables' grids (11 × 15 and 16 × 24 cells, not the
#   text's); BA's theory: $2\beta$-geo-indistinguishability, the elastic fixpoint of Thm 3.1, the
#   optimal trade-off between mutual information and distortion, the duality with IBU (with the
#   unnormalised kernel), and invertibility (Thm 5.1, whose proof needs a repair: $\sqrt x$ is a
#   Bernstein function, not a completely monotone one). Tables III–IV within 10 % of every printed
#   mean (two rows left undecided by the paper's own scatter), under a protocol we had to infer (the
#   whole dataset re-obfuscated every cycle, no ⊕).
#   Fig. 10's shape; the per-cycle improvement of BA's trade-off; Remark 5's start, forgotten to
#   within 0.03 grid units after 42 cycles.
# * **What does not.** LAP beats BA at every β of Fig. 3, by {glue:text}`privic-f3-ratio-paris` in
#   Paris and {glue:text}`privic-f3-ratio-sf` in San Francisco: no crossover, and the gap widens
#   as privacy decreases; the only crossover we found comes from starting IBU at the truth, an
#   artefact. LAP's own geo-ind level is up to {glue:text}`privic-lap-excess` % above BA's, which
#   changes nothing. BA's mode for the isolated A jumps from B to A with no "closer and closer" path.
#   BA is the best trade-off among the self-consistent elastic mechanisms, not the best QoS. Eight
#   iterations are far from BA's limit. Remark 6 holds in one setting of eight (Paris, tables'
#   protocol, β = 1, decided over 400 rounds), and GIBU is what makes San Francisco's estimate good. θ_N is never the MLE
#   once the likelihood region is calibrated for repeated reports; the pooled MLE tends to the true
#   distribution, θ_t does not reach it: in Paris it stalls above the MLE, in San Francisco it is
#   still falling after the paper's cycles ("empirically converged" fails there) and ends far from
#   the MLE. The mutual information alone does not improve cycle by cycle in Paris. Fig. 11's
#   percentages are ten times the modelled share of fake reports; at the caption's level the attack
#   barely shows, and BA closes less than a quarter of its distance to LAP.
# * **Slips of the text** that change no conclusion: the grid sizes and Sec. 6's totals, the sign of
#   Eq. (8), Alg. 2's column sum, "ε = 0.2", "the higher the value of β … the worse", Table II's
#   undefined $n$ (its IBU times grow like users², not cells²).
# * **Undecided**: whether θ_t had settled in Paris after the paper's cycles, whether θ_N is
#   there within 10 % of the MLE, and IBU's first cycle against its likelihood region (rows
#   S6-settled, F10-limit, S6-IBU-conv); {glue:text}`privic-table-undecided` of the tables,
#   where the paper's five printed rounds scatter too much to tell a 10 % difference, however
#   many rounds we run.
#
# ## Exercises
#
# ```{exercise} Two points
# :label: ex-privic-two-points
#
# Two locations at distance 1, each with half of the users. Find BA's limit for every β > 0, list
# every self-consistent elastic mechanism (the fixpoints of $c \mapsto G(F(c))$) and compare their
# QoS. At which level is BA's limit geo-indistinguishable, against the $2\beta$ of
# {prf:ref}`prop-privic-geoind`?
# ```
#
# ```{solution-start} ex-privic-two-points
# :class: dropdown
# ```
#
# The dual objective $-\tfrac12\log(a + (1-a)k) - \tfrac12\log(ak + 1 - a)$, $k = e^{-\beta}$, is convex
# in the weight $a$ of the first output and symmetric, so the limit is $c = (\tfrac12, \tfrac12)$ and
# $C = \begin{pmatrix}1 & k\\ k & 1\end{pmatrix}/(1+k)$, with $\mathrm{AvgD} = k/(1+k) < \tfrac12$. The other
# two fixpoints send everyone to one point ($\mathrm{AvgD} = \tfrac12$). The tight level of the limit is
# $\log(1/k) = \beta$: half the bound, which is attained only when the normalisers $Z(x)$ differ.

# %%
D2 = np.array([[0.0, 1.0], [1.0, 0.0]])
for b in (0.1, 1.0, 3.0):
    fx = pv.elastic_fixpoints(np.array([0.5, 0.5]), D2, b, pv.all_supports(2))
    C2 = rd.blahut_arimoto(np.array([0.5, 0.5]), D2, b, n_iter=None, tol=1e-12).channel
    print(f"β = {b}: AvgD of the fixpoints {fx['AvgD'].round(4).tolist()},",
          f"tight level of BA's limit {channels.geo_ind_epsilon(C2, D2):.4f}")

# %% [markdown]
# ```{solution-end}
# ```
#
# ```{exercise} The collector's region
# :label: ex-privic-bootstrap
#
# A collector does not know π, so it cannot calibrate the likelihood-ratio region on the truth's
# gaps as we did. Calibrate it instead by a parametric bootstrap under the MLE of one Paris run of
# the tables' protocol at β = 1: draw the users from the MLE, run PRIVIC on them, and record the gap
# of their composition (`ex.gap_null_bootstrap`). Compare with the calibrated region and with
# Wilks'. Is that run's θ_N inside?
# ```
#
# ```{solution-start} ex-privic-bootstrap
# :class: dropdown
# ```
#
# The bootstrap reproduces the protocol, including the reuse of the same users in every cycle and
# the boundary of the simplex, so its quantile estimates the same $R$ as the truth's gaps, up to the
# difference between the MLE and π and the Monte Carlo error of a few replicates.

# %%
run = pv.privic(counts["paris"].ravel(), D["paris"], 1.0, n_cycles=14, ba_iter=8,
                ibu_iter=10, rng=rng_for(SEED, "exercise-bootstrap/run"))
theta_mle = ex.pooled_mle(run.channels, run.report_counts).estimate
boot = ex.gap_null_bootstrap(theta_mle, int(counts["paris"].sum()), "paris", 1.0,
                             SIZES["boot_reps"],
                             seed=seed_for(SEED, "exercise-bootstrap"))
gap_N = ex.pooled_loglik(theta_mle, run.channels, run.report_counts) - ex.pooled_loglik(
    run.thetas[-1], run.channels, run.report_counts)
print(f"bootstrap region {boot.gap_hi_truth.quantile(0.95):.1f} nats "
      f"({len(boot)} replicates); calibrated "
      f"{regions.loc[('A11', 'paris', 1.0), 'region']:.1f};"
      f" Wilks {REGION['paris']:.1f}; this run's θ_N: {gap_N:.1f}")

# %% [markdown]
# ```{solution-end}
# ```
#
# ```{exercise} Invertible, in which arithmetic?
# :label: ex-privic-conditioning
#
# {prf:ref}`thm-privic-invertible` holds for every β. Compute the smallest eigenvalue of
# $K = e^{-\beta D}$ on the Paris grid and the condition number of BA's 10-iteration channel for β
# from 0.2 to 5. From which β is the inverse of the channel no longer usable in double precision, and
# what does that mean for IBU's estimate?
# ```
#
# ```{solution-start} ex-privic-conditioning
# :class: dropdown
# ```
#
# As β grows, $K \to I$ and its smallest eigenvalue tends to 1, but BA's channel concentrates its
# outputs on fewer and fewer cells: $\mathrm{diag}(c)$ has tiny entries, and the condition number
# explodes (row T-H-cond). Beyond a condition number of about $10^{13}$, $1/(m\,\varepsilon_{mach})$,
# the channel is singular in double precision; the MLE is still unique in exact arithmetic, but the
# reports no longer determine it to any useful precision in the directions the channel crushes.

# %%
for b in (0.2, 1.0, 2.0, 3.0, 5.0):
    C10 = rd.blahut_arimoto(pi["paris"], D["paris"], b).channel
    lam = rd.kernel_min_eigenvalue(D["paris"], b)
    print(f"β = {b}: smallest eigenvalue of K {lam:.3g},"
          f" condition number of BA {np.linalg.cond(C10):.3g}")

# %% [markdown]
# ```{solution-end}
# ```
#
# ## Reproduction report
#
# Every row's criterion was fixed before the chapter ran
# (`ldpnb/papers/privic/claims.py`). Rows whose value the paper does not print say so in
# their source: `calibration` (the authors' code: their tight levels and island vector),
# `derived` or `extension` (our own measurements). A row that diverges states what we found
# instead; its cause is measured in the section above. Every number that comes from random runs
# is an estimate with its 95 % interval (`ldpnb.stats`; the choices per claim are in
# `ldpnb/papers/privic/grading.py`): a row passes when the interval lies inside the claim's region,
# is reversed when it lies outside, and is **undecided** otherwise, never a pass; the report says
# how many runs would decide it. At book scale the chapter runs the paper's designs with more
# repetitions than the paper, so that the steps and ties can be decided: 25 values of β with
# {glue:text}`privic-sims` simulations for Fig. 3 ({glue:text}`privic-budget-sims` for the IBU
# budgets), {glue:text}`privic-rounds` rounds of PRIVIC per β with the paper's cycles and
# iterations (the paper's five printed rounds enter every comparison with its tables); the
# maximum-likelihood rows add {glue:text}`privic-mle-rounds-paris` rounds per protocol and β in
# Paris ({glue:text}`privic-mle-rounds-close` for the closest call, the tables' protocol at β = 1)
# and {glue:text}`privic-mle-rounds-sf` in San Francisco, each with its certified MLE. This build
# took {glue:text}`privic-cpu` CPU seconds. `SCALE = "paper"` runs the same sizes, more rounds for
# the likelihood regions, and re-derives the calibration sds from 100 fresh rounds per column (row
# T-cal); `SCALE = "smoke"` runs two rounds and two simulations, to test the code, and its
# statistical rows are not a reproduction.
#
# **What changed with the statistics layer.** Every Monte Carlo row is decided on its interval, with
# a tie or margin that says what is material (10 % of an EMD, 10 % of a likelihood region), and
# every criterion changed after a recorded result keeps its decision log (the earlier criterion, the
# commit, what had been seen). The likelihood rows' region is now estimated with its own sampling
# error (a bootstrap over the rounds re-estimates the 95 % quantile of the truth's gap), and the
# closest call runs 400 rounds. Tables III–IV are compared with the paper's five printed rounds as a
# sample, within ±max(0.02, 10 %), instead of a "not different" test. "Improves with every cycle"
# asks every step to stay below a stated tie, where the earlier test passed when the rounds could
# not tell. The convergence of the pooled MLE is its own row (S6-true-mle), and the end of variant
# B's drift (F3-B-drift-end).
#
# **What changed in the fourth edition.** Remark 6 is graded in every setting (both protocols,
# both cities, both β), for the likelihood and for the EMD, against a likelihood-ratio region
# calibrated on the rounds instead of Wilks' (which assumes independent reports); the Paris row
# that passed as "borderline" is decided like the others. The paper's headline claims have rows:
# convergence to the true distribution, BA and IBU "converged" within a cycle, the per-cycle
# trade-off, "comparable" utility, the crossover of Fig. 3, the best QoS among elastic mechanisms,
# IBU's convergence by duality, Table II's own numbers, LAP's actual geo-ind level and Fig. 11's
# level. Rows that could not fail were replaced (F11-LAPlike, T-L, F3-B-sf) or turned into
# invariants of our code (F2-LAP, T2).
#
# **What changed in the fifth edition** (each change with its decision log). The Discussion's
# sentence is graded in both halves: the mutual information per cycle (S6-privacy) beside BA's
# objective. IBU's per-cycle convergence in Paris is decided against each cycle's calibrated region
# instead of Wilks' wider one. "Converges to the true distribution" asks θ_t to end where the
# pooled MLE ends (S6-true), no longer only to keep falling; "until it empirically converged"
# (S6-settled) and Fig. 10's "we will end up estimating the unique MLE" (F10-limit) have rows.
# F11-LAPlike asks for the paper's trend (a quarter of the distance to LAP closed) instead of a rule
# that could not pass.
#
# **What changed in the earlier editions.** Table IV is stored whole and its row 8 graded
# like the others (the former "8 cycles vs 7 rows" divergence was a transcription gap);
# rows 1 of Tables III–IV are graded once, as D4. Rows that compared with numbers the paper
# does not print (Fig. 2, 3, 10 and 11 values, the kernel's eigenvalues, the ratio ε*/2β)
# became tests of the package, and the authors' tight levels became a calibration. Rows
# that could not fail were replaced: "faster than the paper's machine" by the O(n²) slope
# (T2), BA's own factorisation by the conditioning of the channels PRIVIC uses (T-H-rank),
# 𝒢𝒢′ = I by the rank of 𝒢 (T-I-rank), "GIBU ≤ min + 0.02" by Remark 6 itself (R6), a
# hard-coded β by root finding (T-K2). Statuses now say what happened: P4, E5 and F3-B-paris
# diverge, and F2's mode check covers ε = 1.6.
#
# The timing row T2 depends on the machine; its numbers are kept in the chapter's timings
# file, so that the report is the same for the same seed. All other numbers depend only on
# `SEED`: every experiment draws from its own named stream (`rng_for(SEED, name)`, or
# `seed_for(SEED, name)` for a sweep), so adding an experiment never shifts another, and the
# sweeps give the same numbers on any number of workers.

# %%
report.timing("chapter CPU seconds", time.process_time() - T0)
report.text(cpu=f"{time.process_time() - T0:.0f}")
report.finalize()
