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

# %% [markdown]
# # PRIVIC: the Blahut–Arimoto mechanism and IBU for incremental location collection
#
# Biswas and Palamidessi, *PRIVIC: A privacy-preserving method for incremental collection of
# location data* (2023) {cite}`biswas2023privic`. A location-based service collects users'
# locations incrementally. Each user reports a noisy location. The paper wants three things at once: geo-indistinguishability for the
# user; a small expected distortion (quality of service, QoS); and an accurate estimate of the
# distribution of true locations for the collector (statistical utility).
#
# The paper's tools, and the order of this chapter:
#
# 1. the **Blahut–Arimoto (BA)** mechanism of rate–distortion theory. It minimises
#    $I(X;Y) + \beta\,\mathbb E[d(X,Y)]$, is $2\beta$-geo-indistinguishable, and is *elastic*: it
#    hides an isolated location among crowded ones (Thm 3.1, Fig. 2);
# 2. a **duality**: BA's update of its output marginal is an IBU step with inputs and outputs swapped
#    (§4, Fig. 4);
# 3. **invertibility** of every finite BA iterate (Thm 5.1), so the MLE of the prior is unique;
# 4. **PRIVIC** (Alg. 1, Fig. 5): build BA from the current estimate, collect reports, re-estimate
#    with IBU, repeat. It is run on the authors' Gowalla check-ins in Paris and San Francisco
#    (Figs. 6–10, Tables III–IV);
# 5. **adversarial users** who falsely report an isolated location and pull BA back towards LAP-like
#    behaviour (Fig. 11).
#
# Every number below is recomputed from the package `ldpnb` (`ldpnb.rate_distortion` for BA and the
# theory, `ldpnb.privic` for the experiments). The check-ins are the authors' own two extracts. The
# reproduction report at the end lists every claim, with the paper's value, ours and a status.
#
# **Where we depart from the paper's text.** The paper's text does not always match the paper's
# numbers. The reproduction spec rebuilt the authors' protocol from their released data and code;
# we follow it and state each choice where it is used:
#
# * grids of **11 × 15** (Paris) and **16 × 24** (SF) cells, not the "16 × 12" and "24 × 17" of
#   the text;
# * distances in **grid units**; one unit is about 0.48 km in Paris and 0.50 km in SF;
# * BA and IBU run for a **fixed number of iterations** (10 for the figures; 8/10 for Paris and
#   5/5 for SF in the PRIVIC cycles), not "until convergence";
# * PRIVIC cycles **re-obfuscate the whole dataset**, warm-start IBU and do not average with ⊕.
#   This is the protocol that gives Tables III–IV.
#
# **Scales.** Vectorised, the paper's full workload takes a few CPU minutes. So the book scale already
# uses the paper's sizes: all 25 values of β, 5 simulations per β for Fig. 3, and 5 PRIVIC rounds per
# β. The paper scale adds BA-to-convergence cells and more variant rounds. The smoke scale (tests)
# runs one round and one simulation.

# %% tags=["parameters"]
SCALE = "book"  # "smoke" (seconds, tests) | "book" (the published book, minutes) | "paper"
SEED = 2024

# %%
import time

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import display

from ldpnb.papers import privic as pv
from ldpnb import estimators as pv_estimators
from ldpnb import mechanisms as rd
from ldpnb.papers import privic as rd_privic
from ldpnb.data import load_gowalla_privic
from ldpnb.papers.privic import load_privic_counts
from ldpnb.estimators import ibu
from ldpnb.papers.privic import privic_edges
from ldpnb.measures import entropy
from ldpnb.channels import geo_ind_epsilon, simulate_counts
from ldpnb.measures import emd
from ldpnb.repro.plotting import color, set_style
from ldpnb.repro.legacy import Report

set_style()
report = Report("privic", scale=SCALE)
C_BA, C_LAP, C_B2 = color("ba"), color("lap"), "#009E73"

ALL_BETAS = pv.TIGHT_EPS_BETAS  # 0.2, 0.4, ..., 5.0
SIZES = {
    # rounds: PRIVIC rounds per beta (paper 5); sims: Fig. 3 simulations per beta (paper 5)
    "smoke": dict(rounds=1, sims=1, fig3_betas=np.array([0.2, 0.6, 1.0, 1.4, 2.0, 5.0]),
                  fig10_betas=[0.1, 0.3, 0.5, 0.7, 1.0], conv_betas=[1.0, 5.0], conv_max_iter=1500,
                  gibu_iter=300, ibu_sens=[10, 100, 1000], variant_rounds=1),
    "book": dict(rounds=5, sims=5, fig3_betas=ALL_BETAS, fig10_betas=[0.1, 0.3, 0.5, 0.7, 0.9, 1.0],
                 conv_betas=[0.2, 1.0, 5.0], conv_max_iter=20_000, gibu_iter=3000,
                 ibu_sens=[10, 100, 1000, 10_000], variant_rounds=3),
    "paper": dict(rounds=5, sims=5, fig3_betas=ALL_BETAS, fig10_betas=[0.1, 0.3, 0.5, 0.7, 0.9, 1.0],
                  conv_betas=[0.2, 0.5, 1.0, 2.0, 5.0], conv_max_iter=50_000, gibu_iter=3000,
                  ibu_sens=[10, 100, 1000, 10_000], variant_rounds=5),
}[SCALE]
T0 = time.perf_counter()

# %% [markdown]
# ## Data: the authors' Gowalla check-ins and grids (Fig. 6)
#
# The two extracts are the authors' own files, cut from the SNAP Gowalla check-ins
# {cite}`cho2011gowalla`: latitude/longitude of every check-in inside a box in central Paris and one
# in northern San Francisco. They are binned with the authors' edges
# (`np.arange` steps of 0.00427° × 0.0066° in Paris, 0.0044875° × 0.005683° in SF). Row 0 is the
# north; column 0 is the west (the authors' files have column 0 east; mirroring changes no distance).
# The authors read their grid files with `pandas.read_csv`, which takes the first point as a header,
# so one point is dropped: N = 10,078 (Paris) and 123,025 (SF).

# %%
CITIES = ["paris", "sf"]
NAMES = {"paris": "Paris", "sf": "San Francisco"}
raw = {c: load_gowalla_privic(c) for c in CITIES}
counts = {c: load_privic_counts(c) for c in CITIES}
D = {c: pv.privic_distance(c) for c in CITIES}
pi = {c: counts[c].ravel() / counts[c].sum() for c in CITIES}
facts = pd.DataFrame({
    NAMES[c]: {
        "raw check-ins in the box": len(raw[c]),
        "grid (rows x cols)": "{} x {}".format(*counts[c].shape),
        "N used": int(counts[c].sum()),
        "max cell (row, col)": str(np.unravel_index(counts[c].argmax(), counts[c].shape)),
        "max cell count": int(counts[c].max()),
        "empty cells": int((counts[c] == 0).sum()),
        "entropy (nats)": round(entropy(pi[c], unit="nats"), 3),
        "log m (nats)": round(np.log(pi[c].size), 3),
        "EMD(uniform, pi) (grid units)": round(emd(np.full(pi[c].size, 1 / pi[c].size), pi[c], D[c]), 6),
    } for c in CITIES})
facts

# %%
fig, axes = plt.subplots(2, 2, figsize=(11, 8.5))
for j, c in enumerate(CITIES):
    lat_e, lon_e, _ = privic_edges(c)
    ax = axes[0, j]
    ax.scatter(raw[c]["lon"], raw[c]["lat"], s=1, alpha=0.25, color="#333333", rasterized=True)
    for e in lat_e:
        ax.axhline(e, color=C_BA, lw=0.4)
    for e in lon_e:
        ax.axvline(e, color=C_BA, lw=0.4)
    ax.set_title(f"(a) {NAMES[c]}: {len(raw[c]):,} check-ins and the authors' bins")
    ax.set_xlabel("longitude (°)")
    ax.set_ylabel("latitude (°)")
    ax.tick_params(axis="x", labelrotation=30)
    pv.heatmap(axes[1, j], pi[c], c, title=f"(b) {NAMES[c]}: π on {counts[c].shape[0]} × {counts[c].shape[1]} cells")
fig.suptitle("Fig. 6 — Gowalla check-ins in Paris and San Francisco and their distributions", fontweight="bold")
plt.show()

# %%
N_PAPER_S3 = {"paris": 10_078, "sf": 123_025}
N_PAPER_S6 = {"paris": 10_260, "sf": 123_108}
for c in CITIES:
    shape = counts[c].shape
    report.diverges(f"D1-{c}", f"{NAMES[c]} grid size (§3.1/§6 text)", paper="{} x {}".format(*pv.PAPER_GRID_TEXT[c]),
                    ours="{} x {}".format(*shape), tolerance="exact",
                    note="the text's grid is the nominal box; binning the authors' raw file with their edges gives "
                         f"{shape[0]} x {shape[1]} cells, the grid their tables were computed on",
                    holds=shape == pv.CITY_SHAPE[c])
    report.check_close(f"D2-{c}", f"{NAMES[c]}: number of check-ins used (§3)", paper=N_PAPER_S3[c],
                       ours=int(counts[c].sum()), atol=0)
    report.diverges(f"D3-{c}", f"{NAMES[c]}: number of check-ins (§6)", paper=N_PAPER_S6[c], ours=int(counts[c].sum()),
                    tolerance="exact", note="§6 disagrees with §3; only N of §3 reproduces Table III/IV row 1",
                    holds=int(counts[c].sum()) == N_PAPER_S3[c])
emd_unif = {c: emd(np.full(pi[c].size, 1 / pi[c].size), pi[c], D[c]) for c in CITIES}
report.check_close("D4-paris", "Table III row 1: EMD(uniform, pi_Paris)", paper=2.02262, ours=emd_unif["paris"], atol=1e-5)
report.check_close("D4-sf", "Table IV row 1: EMD(uniform, pi_SF)", paper=7.37595, ours=emd_unif["sf"], atol=1e-3,
                   note="ours 7.37610: the paper's value is 1.5e-4 lower (tolerance 1e-3 of the spec); same data and "
                        "grid, so presumably a solver/rounding difference of the authors' pyemd")
report.check("D5", "Paris max cell is B=(3,7) with 533 check-ins; SF max (2,19) with 8,427",
             paper="(3,7): 533; (2,19): 8427",
             ours=f"{np.unravel_index(counts['paris'].argmax(), (11, 15))}: {counts['paris'].max()}; "
                  f"{np.unravel_index(counts['sf'].argmax(), (16, 24))}: {counts['sf'].max()}",
             passed=bool(np.unravel_index(counts['paris'].argmax(), (11, 15)) == (3, 7) and counts['paris'].max() == 533
                         and np.unravel_index(counts['sf'].argmax(), (16, 24)) == (2, 19) and counts['sf'].max() == 8427),
             tolerance="exact", note="spec §5 Fig. 6 facts (the paper prints only the maps)")

# %% [markdown]
# ## Rate–distortion background and the BA mechanism
#
# Let $\pi$ be the prior on the grid cells $\mathcal X$ and $C$ a channel, $C_{xy} = P[y\mid x]$.
# Privacy enters through the **mutual information**, in nats (Def. 2.2), and QoS through the
# **average distortion** (Def. 2.3):
#
# $$ I(X;Y) = \sum_{x,y} \pi(x) C_{xy} \log\frac{C_{xy}}{\sum_{z}\pi(z)C_{zy}}, \qquad
#    \mathrm{AvgD}(\pi, C) = \sum_{x,y} \pi(x) C_{xy}\, d(x,y). $$
#
# The rate–distortion function $R(d^*) = \min_{\mathrm{AvgD}\le d^*} I(X;Y)$ is traced by minimising
# $I + \beta\,\mathrm{AvgD}$, where $-\beta$ is the slope of the curve. The **Blahut–Arimoto**
# iteration (eqs. (1)–(2)) alternates two maps $F$ and $G$ and converges {cite}`csiszar1974extremum`:
#
# $$ C^{(t+1)}_{xy} = \frac{c_t(y)\, e^{-\beta d(x,y)}}{\sum_{z} c_t(z)\, e^{-\beta d(x,z)}}, \qquad
#    c_{t+1}(y) = \sum_x \pi(x)\, C^{(t+1)}_{xy}. $$
#
# **Table I — notation** (the paper's, as used here):
#
# | symbol | meaning |
# |---|---|
# | $\mathcal X$, $\mathcal Y$ | grid cells (inputs); reports (= $\mathcal X$ for BA, the padded grid for LAP) |
# | $\pi$, $\hat\pi$, $\theta_t$ | true prior, its estimate, the estimate after PRIVIC cycle $t$ |
# | $d$ | Euclidean distance between cells, in grid units |
# | $d^*$, $\beta$ | maximum average distortion; loss parameter (negative slope of the RD curve) |
# | $\delta_{BA}$, $\delta_{IBU}$, $\delta_{GIBU}$ | stopping precisions (here: fixed iteration counts) |
# | $N$, $\hat C_{BA}(\theta, N)$ | number of PRIVIC cycles; the mechanism PRIVIC produces |
#
# The iteration starts from the uniform channel. (Alg. 2 prints $d(z,y)$ in the denominator; that is
# a typo for $d(x,z)$, see erratum E1.) `rd.blahut_arimoto` runs it vectorised over the grid: the
# output marginal is kept in the log domain and the channel in the linear domain, with log-sum-exp
# fallbacks where a mass underflows. It returns the channel, its log, the marginal and, on request,
# the history of $I$, AvgD, $\max|\Delta C|$ and support size.
#
# **What "BA until convergence" means on real data.** The paper's experiments stop BA after 5–10
# iterations. The table below shows how far that is from the fixpoint. The converged channel
# collapses its output support onto a few crowded cells. Its MI is lower, but its condition number
# is infinite: that matters for §5.

# %%
conv = pv.ba_convergence_summary(pi["paris"], D["paris"], SIZES["conv_betas"], tol=1e-7,
                                 max_iter=SIZES["conv_max_iter"])
conv.round(4)

# %%
hist = {b: rd.blahut_arimoto(pi["paris"], D["paris"], b, n_iter=400, history=True).history for b in (0.2, 1.0, 2.0)}
fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
for b, h in hist.items():
    it = np.arange(1, len(h["mi"]) + 1)
    axes[0].plot(it, h["lagrangian"], label=f"β = {b}")
    axes[1].semilogy(it, h["delta"], label=f"β = {b}")
    axes[2].plot(it, h["support"], label=f"β = {b}")
for ax, yl in zip(axes, ["I(X;Y) + β AvgD (nats)", "max |C(t) − C(t−1)|", "outputs with c(y) > 1e-6"]):
    ax.axvline(10, color="grey", ls=":", lw=1)
    ax.set_xlabel("BA iteration t")
    ax.set_ylabel(yl)
    ax.legend()
axes[0].set_title("BA objective (non-increasing)")
axes[1].set_title("channel change")
axes[2].set_title("output support")
fig.suptitle("BA on the Paris prior: iteration history (dotted: the paper's 10 iterations)", fontweight="bold")
plt.show()
lag_ok = all(np.all(np.diff(h["lagrangian"]) <= 1e-12) for h in hist.values())
report.check("T-D1", "BA objective I + β AvgD is non-increasing along the iteration (Csiszár 1974; Remark 3)",
             paper="non-increasing", ours=f"max increase {max(np.diff(h['lagrangian']).max() for h in hist.values()):.2e}",
             passed=bool(lag_ok), tolerance="1e-12 per step", note="Paris prior, β ∈ {0.2, 1, 2}, 400 iterations")
SPEC_SUPPORT = {0.2: 2, 0.5: 11, 1.0: 32, 2.0: 97, 5.0: 158}
conv_rows = conv.set_index("beta")
ok_rows = [b for b in SIZES["conv_betas"] if conv_rows.loc[b, "converged"]]
if ok_rows:
    ours_sup = [int(conv_rows.loc[b, "support (converged)"]) for b in ok_rows]
    report.check_close("P3", f"converged BA collapses its output support (Paris, β = {ok_rows}): cells with c > 1e-6",
                       paper=[SPEC_SUPPORT[b] for b in ok_rows], ours=ours_sup, atol=3,
                       note="spec §4 T-H test 3 [spec-author check, not in the paper]; the count depends on the "
                            "convergence tolerance (ours: max|ΔC| < 1e-7), hence ±3 cells")
else:
    report.not_evaluated("P3", "converged BA collapses its output support (Paris)", paper=SPEC_SUPPORT,
                         note=f"BA did not reach max|ΔC| < 1e-7 within {SIZES['conv_max_iter']} iterations at this scale")

# %% [markdown]
# ### BA optimises the MI–QoS trade-off (T-E)
#
# At the fixpoint, $R = I(\pi,\hat C) = -\beta\,\mathrm{AvgD} - \sum_x \pi(x)\log Z(x)$ with
# $Z(x) = \sum_y \hat c(y) e^{-\beta d(x,y)}$, and the slope of the curve is $dR/dD = -\beta$. We
# check both on ten collinear points with a random Dirichlet(1) prior, then place BA and the
# discrete Laplace mechanism (LAP) in the (AvgD, MI) plane on the Paris prior. No LAP channel may
# fall below the BA curve.

# %%
rng = np.random.default_rng(SEED)
x10 = np.arange(10.0)
D10 = np.abs(np.subtract.outer(x10, x10))
p10 = rng.dirichlet(np.ones(10))
slopes, closed = [], []
for b in (0.5, 1.0, 2.0):
    R, Dbar, res = rd.rd_point(p10, D10, b)
    closed.append(abs(R - rd.rd_closed_form(p10, D10, b, res.output_marginal)))
    Rp, Dp, _ = rd.rd_point(p10, D10, b + 1e-3)
    Rm, Dm, _ = rd.rd_point(p10, D10, b - 1e-3)
    slopes.append((Rp - Rm) / (Dp - Dm))
report.check_close("T-E1", "RD slope dR/dD = −β at β = 0.5, 1, 2 (10 collinear points)", paper=[-0.5, -1.0, -2.0],
                   ours=np.round(slopes, 7), atol=1e-4, note="spec values −0.4999987, −0.9999992, −1.9999997 (h = 1e-3)")
report.check("T-E2", "closed form R = −β AvgD − Σ π log Z at the fixpoint", paper="identity", ours=f"max gap {max(closed):.1e}",
             passed=bool(max(closed) < 1e-10), tolerance="1e-10")

# %%
rd_betas = [0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0] if SCALE != "smoke" else [0.5, 1.0, 2.0, 5.0]
ba_pts = np.array([rd.rd_point(pi["paris"], D["paris"], b, tol=1e-6, max_iter=min(SIZES["conv_max_iter"], 5000))[:2]
                   for b in rd_betas])
ba10_pts = np.array([(rd.mutual_information_nats(pi["paris"], C), rd.average_distortion(pi["paris"], C, D["paris"]))
                     for C in (rd.blahut_arimoto(pi["paris"], D["paris"], b).channel for b in rd_betas)])
lap_eps = np.array([0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0, 8.0])
lap_pts = np.array([(rd.mutual_information_nats(pi["paris"], C), rd.average_distortion(pi["paris"], C, D["paris"]))
                    for C in (pv.lap_grid_channel("paris", e, pad=0) for e in lap_eps)])
fig, ax = plt.subplots(figsize=(7, 4.5))
ax.plot(ba_pts[:, 1], ba_pts[:, 0], "o-", color=C_BA, label="BA, converged to max|ΔC| < 1e-6 (the RD curve)")
ax.plot(ba10_pts[:, 1], ba10_pts[:, 0], "s--", color=C_BA, alpha=0.5, label="BA, 10 iterations")
ax.plot(lap_pts[:, 1], lap_pts[:, 0], "^-", color=C_LAP, label="LAP on the grid (no padding)")
ax.set_xlabel("average distortion AvgD (grid units)")
ax.set_ylabel("mutual information I(X;Y) (nats)")
ax.set_title("T-E — MI vs QoS on the Paris prior: BA against LAP")
ax.legend()
plt.show()
# BA minimises I + β AvgD over *all* channels: every LAP point must have a Lagrangian at least BA's, for every β
lagr_gap = np.min([lap_pts[:, 0] + b * lap_pts[:, 1] - (ba_pts[i, 0] + b * ba_pts[i, 1]) for i, b in enumerate(rd_betas)])
report.check("T-E3", "BA optimises the MI–QoS trade-off: I + β AvgD of every LAP channel ≥ BA's, for every β (§3)",
             paper="BA optimal", ours=f"min over β and LAP channels of the Lagrangian gap = {lagr_gap.min():.4f} nats",
             passed=bool(lagr_gap.min() >= -1e-9), tolerance="≥ −1e-9 (exact supporting-line test, no interpolation)")

# %% [markdown]
# ## BA is $2\beta$-geo-indistinguishable and elastic (Remark 4, Thm 3.1)
#
# A mechanism is $\varepsilon$-geo-indistinguishable if
# $C_{xy} \le e^{\varepsilon d(x,x')} C_{x'y}$ for all $x, x', y$. The **tight** level of a finite
# channel is $\varepsilon^*(C) = \max_{x\ne x',y} \log(C_{xy}/C_{x'y})/d(x,x')$
# (`mechanisms.geo_ind_epsilon`). For any full-support $c$,
# $C_{xy}/C_{x'y} = e^{-\beta(d(x,y)-d(x',y))} Z(x')/Z(x) \le e^{2\beta d(x,x')}$, so every BA
# iterate is $2\beta$-geo-ind {cite}`oya2017back`. The authors compare BA with LAP at BA's *tight* level, not at
# $2\beta$. **Table T-ε** gives that level for 25 values of $\beta$ on both cities. It is the
# authors' `eps_tight` list, which the paper uses but does not print.

# %%
eps_tight = {c: pv.tight_eps_ba(pi[c], D[c], ALL_BETAS) for c in CITIES}
tab = pd.DataFrame({"β": ALL_BETAS, "2β": 2 * ALL_BETAS,
                    **{f"ε* {NAMES[c]} (ours)": eps_tight[c] for c in CITIES},
                    **{f"ε* {NAMES[c]} (authors)": pv.PAPER_TIGHT_EPS[c] for c in CITIES}})
tab.round(6)

# %%
for c in CITIES:
    report.check_close(f"T-eps-{c}", f"Table T-ε, {NAMES[c]}: tight ε of BA(π, β, 10 it.) for the 25 β",
                       paper=pv.PAPER_TIGHT_EPS[c], ours=np.round(eps_tight[c], 6), atol=1e-5)
ratio = np.concatenate([eps_tight[c] / (2 * ALL_BETAS) for c in CITIES])
report.check("T-C1", "Remark 4: ε*(BA) ≤ 2β on both cities, all 25 β", paper="≤ 2β",
             ours=f"ε*/2β ∈ [{ratio.min():.4f}, {ratio.max():.4f}]", passed=bool(ratio.max() <= 1 + 1e-12),
             tolerance="exact")
report.check("T-C2", "ε*(BA)/2β lies in [0.95, 1.0] (so 'ε = 2β' is nearly tight)", paper="[0.95, 1.0] (spec)",
             ours=f"[{ratio.min():.4f}, {ratio.max():.4f}]", passed=bool(ratio.min() >= 0.95 and ratio.max() <= 1.0),
             tolerance="interval")
rng = np.random.default_rng(SEED + 1)
worst = max(geo_ind_epsilon(rd.ba_F(rng.uniform(0.01, 1, 165), rd.exponential_kernel(D["paris"], b)), D["paris"]) / (2 * b)
            for b in (0.1, 0.5, 1.0, 3.0))
report.check("T-C3", "F(c) is 2β-geo-ind for any full-support c (random c, Paris grid, β ∈ {0.1, 0.5, 1, 3})",
             paper="ε*(F(c)) ≤ 2β", ours=f"max ε*/2β = {worst:.4f}", passed=bool(worst <= 1 + 1e-9), tolerance="1e-9")

# %% [markdown]
# **Thm 3.1 (elastic fixpoint).** The limit of BA satisfies
# $P[y\mid x] = q(y)e^{-\beta d(x,y)}/\sum_z q(z)e^{-\beta d(x,z)}$, where $q = \pi\hat C$ is the
# channel's own output distribution. So the report probability is both $\propto e^{-\beta d}$ (as in
# LAP) and $\propto q(y)$, the "mass" of $y$: the two conditions of an elastic metric
# {cite}`chatzikokolakis2015elastic`. (Eq. (8) of the paper prints $e^{+\beta d}$, a sign
# typo: erratum E2.)

# %%
fix = rd.blahut_arimoto(pi["paris"], D["paris"], 1.0, n_iter=None, tol=1e-8, max_iter=SIZES["conv_max_iter"])
q_fix = pi["paris"] @ fix.channel
elastic = q_fix[None, :] * np.exp(-1.0 * D["paris"])
elastic /= elastic.sum(axis=1, keepdims=True)
wrong = q_fix[None, :] * np.exp(+1.0 * D["paris"])
wrong /= wrong.sum(axis=1, keepdims=True)
gap_el = float(np.max(np.abs(fix.channel - elastic)))
K1 = rd.exponential_kernel(D10, 1.0)
toy = rd.blahut_arimoto(p10, D10, 1.0, n_iter=None, tol=1e-13, max_iter=200_000)
gap_toy = max(np.max(np.abs(toy.channel - rd.ba_F(rd.ba_G(toy.channel, p10), K1))),
              np.max(np.abs(toy.output_marginal - rd.ba_G(rd.ba_F(toy.output_marginal, K1), p10))))
report.check("T-D2", "Remark 3: the converged BA channel is a fixpoint of F∘G and ĉ of G∘F (10 points on a line)",
             paper="fixpoint", ours=f"max residual {gap_toy:.1e}", passed=bool(gap_toy < 1e-10), tolerance="1e-10")
q_toy = p10 @ toy.channel
el_toy = q_toy[None, :] * np.exp(-D10)
el_toy /= el_toy.sum(axis=1, keepdims=True)
gap_el_toy = float(np.max(np.abs(toy.channel - el_toy)))
report.check("T-F1", "Thm 3.1: the BA limit has the elastic form q(y)e^{−βd}/Σ_z q(z)e^{−βd} (10 points, β = 1)",
             paper="identity", ours=f"max |C − elastic| = {gap_el_toy:.1e}", passed=bool(gap_el_toy < 1e-10), tolerance="1e-10")
if fix.converged:
    report.check("T-F2", "Thm 3.1 on the Paris prior (β = 1): elastic form of the converged BA channel", paper="identity",
                 ours=f"max |C − elastic| = {gap_el:.1e} after {fix.n_iter} iterations",
                 passed=bool(gap_el < 1e-6), tolerance="1e-6 (BA stopped at max|ΔC| < 1e-8; the residual is of the order of the last step)")
else:
    report.not_evaluated("T-F2", "Thm 3.1 on the Paris prior (β = 1)", paper="identity",
                         note=f"BA not converged within {fix.n_iter} iterations at this scale (residual {gap_el:.1e})")
report.diverges("E2", "eq. (8) as printed: P ∝ q(y) e^{+βd(x,y)}", paper="e^{+βd}",
                ours=f"max |C − printed form| = {np.max(np.abs(fix.channel - wrong)):.2f} (Paris)", tolerance="1e-6",
                note="sign typo: the fixpoint has e^{−βd} (rows T-F1/T-F2); the printed form is far from it",
                holds=bool(gap_el_toy < 1e-10 and np.max(np.abs(fix.channel - wrong)) > 0.1))

# %% [markdown]
# ### Elasticity on the Paris island (Figs. 1 and 2)
#
# The authors plant an island in Paris. The vulnerable cell A = (6, 3), in the sparse south-west, is
# surrounded by a 5 × 5 block emptied of check-ins, and A keeps a mass of 0.01. The strong cell
# B = (3, 7) is the most crowded cell. We use the authors' exact vector: the rest of the block's mass
# goes to the northern cells (1, 6)…(1, 10), plus 0.01 at (2, 3). (The paper's wording, "dump the
# mass onto A", would make A a crowded island instead.) BA = BA(π_island, β, 10 iterations). LAP is
# the truncated discrete planar Laplace {cite}`andres2013geoind` on the grid padded by 5 cells,
# $C_{xy} \propto e^{-\varepsilon d(x,y)}$, at $\varepsilon = \varepsilon^*(\beta)$ of Table T-ε.
# `pv.lap_grid_channel` implements it. It differs from `mechanisms.planar_laplace_channel`, which
# clamps the continuous mechanism onto the grid: the authors' LAP reports cells outside the grid.

# %%
isl = pv.island_prior(pi["paris"], "paris", mode="authors")
A, B = pv.flat_index("paris", pv.ISLAND_A), pv.flat_index("paris", pv.ISLAND_B)
blk = pv.block_indices("paris", pv.ISLAND_A)
fig, ax = plt.subplots(figsize=(6.5, 4.8))
pv.heatmap(ax, isl, "paris", marks={"A": pv.ISLAND_A, "B": pv.ISLAND_B},
           title="Fig. 1 — Paris prior with the planted island: vulnerable A, strong B")
plt.show()
report.check("F1", "island prior: π(A) = 0.01, the 24 other block cells empty, B the maximum (0.0529), Σ = 1",
             paper="0.01 / 0 / 0.0529 / 1", ours=f"{isl[A]:.4f} / {isl[np.setdiff1d(blk, [A])].sum():.1e} / {isl[B]:.4f} / {isl.sum():.9f}",
             passed=bool(abs(isl[A] - 0.01) < 1e-12 and isl[np.setdiff1d(blk, [A])].sum() == 0 and isl.argmax() == B
                         and abs(isl[B] - 0.0529) < 5e-5 and abs(isl.sum() - 1) < 1e-9), tolerance="exact / 5e-5")

# %%
FIG2_BETAS = [0.2, 0.4, 0.6, 0.8, 1.0]
PAPER_ROWS = [0.2, 0.6, 0.8, 1.0]  # the paper's rows: ε = 0.4, 1.2, 1.6, 2.0
inner = pv.inner_columns("paris", 5)
ba_isl = {b: rd.blahut_arimoto(isl, D["paris"], b).channel for b in FIG2_BETAS}
eps_of = {b: pv.PAPER_TIGHT_EPS["paris"][int(round(b / 0.2)) - 1] for b in FIG2_BETAS}
lap_isl = {b: pv.lap_grid_channel("paris", eps_of[b], pad=5) for b in FIG2_BETAS}
stats2 = []
for b in FIG2_BETAS:
    sb = pv.row_stats(ba_isl[b][A])
    sl = pv.row_stats(lap_isl[b][A], pad=5)
    stats2.append({"β": b, "ε (tight)": round(eps_of[b], 3),
                   "BA P(A→A)": sb["p_self"], "BA P(block)": sb["p_block"], "BA argmax": sb["argmax"],
                   "BA E[d(A,Y)]": sb["expected_distance"], "LAP P(A→A)": sl["p_self"], "LAP P(block)": sl["p_block"],
                   "LAP argmax": sl["argmax"], "LAP E[d(A,Y)]": sl["expected_distance"],
                   "B row: TV(BA, LAP)": 0.5 * np.abs(ba_isl[b][B] - lap_isl[b][B, inner]).sum(),
                   "B row: same mode": bool(ba_isl[b][B].argmax() == lap_isl[b][B, inner].argmax()),
                   "ε*(BA island)": geo_ind_epsilon(ba_isl[b], D["paris"])})
stats2 = pd.DataFrame(stats2).set_index("β")
stats2.round(3)

# %%
for tag, x, label in (("a", A, "A (vulnerable)"), ("b", B, "B (strong)")):
    fig, axes = plt.subplots(len(PAPER_ROWS), 2, figsize=(9.5, 3.1 * len(PAPER_ROWS)))
    for i, b in enumerate(PAPER_ROWS):
        row_ba, row_lap = ba_isl[b][x], lap_isl[b][x, inner]
        vmax = max(row_ba.max(), row_lap.max())
        pv.heatmap(axes[i, 0], row_ba, "paris", vmax=vmax, marks={"A": pv.ISLAND_A, "B": pv.ISLAND_B},
                   title=f"BA, β = {b} (ε = {eps_of[b]:.2f})")
        pv.heatmap(axes[i, 1], row_lap, "paris", vmax=vmax, marks={"A": pv.ISLAND_A, "B": pv.ISLAND_B},
                   title=f"LAP, ε = {eps_of[b]:.2f}")
    fig.suptitle(f"Fig. 2{tag} — reporting distribution of {label}: BA vs LAP at equal tight geo-ind level",
                 fontweight="bold")
    plt.show()

# %%
SPEC_FIG2 = {  # spec §5 [spec-author check] with the authors' island vector: P(A→A), P(block) BA; P(A→A), P(block) LAP
    0.2: ([0.002, 0.069, 0.026, 0.326], [5.37, 4.51]), 0.4: ([0.001, 0.035, 0.096, 0.654], [5.30, 2.48]),
    0.6: ([0.005, 0.030, 0.203, 0.847], [5.15, 1.59]), 0.8: ([0.113, 0.134, 0.329, 0.936], [4.42, 1.10]),
    1.0: ([0.665, 0.671, 0.473, 0.977], [1.60, 0.75])}
for b, (probs, dists) in SPEC_FIG2.items():
    s = stats2.loc[b]
    report.check_close(f"F2-p-{b}", f"Fig. 2a, ε={eps_of[b]:.2f}: P(A→A), P(block|A) of BA; same for LAP",
                       paper=probs, ours=np.round([s["BA P(A→A)"], s["BA P(block)"], s["LAP P(A→A)"], s["LAP P(block)"]], 4),
                       atol=0.0015, note="targets of the spec (the paper shows only maps); rounding of 3 printed decimals")
    report.check_close(f"F2-d-{b}", f"Fig. 2a, ε={eps_of[b]:.2f}: E[d(A,Y)] of BA and of LAP (grid units)",
                       paper=dists, ours=np.round([s["BA E[d(A,Y)]"], s["LAP E[d(A,Y)]"]], 3), atol=0.011,
                       note="spec targets; LAP's expectation runs over the padded outputs")
hp = stats2.loc[[b for b in FIG2_BETAS if eps_of[b] <= 1.6]]
report.check("F2-elastic", "Fig. 2a: for ε ≤ 1.6, BA keeps A's reports out of the deserted block, LAP does not",
             paper="BA P(block) < 0.2, LAP P(block) > 0.3 (≥ 0.9 at ε = 1.6)",
             ours=f"BA max {hp['BA P(block)'].max():.3f}; LAP min {hp['LAP P(block)'].min():.3f}, at 1.6: {stats2.loc[0.8, 'LAP P(block)']:.3f}",
             passed=bool(hp["BA P(block)"].max() < 0.2 and hp["LAP P(block)"].min() > 0.3 and stats2.loc[0.8, "LAP P(block)"] >= 0.9),
             tolerance="thresholds of the spec")
lo = [b for b in FIG2_BETAS if eps_of[b] <= 1.2]
ba_far = all(pv.row_stats(ba_isl[b][A])["argmax_dist"] >= 3 for b in lo)
lap_at_A = all(stats2.loc[b, "LAP argmax"] == pv.ISLAND_A for b in FIG2_BETAS)
report.check("F2-mode", "Fig. 2a: for ε ≤ 1.2 BA's most likely report for A is in the crowded centre; LAP's is A itself",
             paper="BA mode ≥ 3 units from A; LAP mode = A", ours=f"BA modes {[stats2.loc[b, 'BA argmax'] for b in lo]}; LAP at A: {lap_at_A}",
             passed=bool(ba_far and lap_at_A), tolerance="exact")
report.check("F2b", "Fig. 2b: for the crowded B, BA and LAP have the same mode (both concentrate around B)",
             paper="similar", ours=f"same mode at all ε: {bool(stats2['B row: same mode'].all())}; TV {np.round(stats2['B row: TV(BA, LAP)'].values, 2).tolist()}",
             passed=bool(stats2["B row: same mode"].all()), tolerance="mode equality",
             note="spec TV targets 0.35, 0.27, 0.24, 0.23, 0.21")
report.check_close("F2b-tv", "Fig. 2b: TV(BA row B, LAP row B on the grid) at the five ε", paper=[0.35, 0.27, 0.24, 0.23, 0.21],
                   ours=np.round(stats2["B row: TV(BA, LAP)"].values, 3), atol=0.005,
                   note="spec targets [spec-author check], 2 decimals; ½Σ over the 165 grid cells of |BA − LAP| with "
                        "LAP's row restricted to the grid as displayed (not renormalised)")
# the spec's portable recipe (block emptied, pi(A) = 0.01, the rest renormalised) gives the same conclusions
isl_r = pv.island_prior(pi["paris"], "paris", mode="renorm")
st_r = [(pv.row_stats(rd.blahut_arimoto(isl_r, D["paris"], b).channel[A]), pv.row_stats(lap_isl[b][A], pad=5)) for b in FIG2_BETAS]
ok_r = all(sb["p_block"] < 0.2 and sl["p_block"] > 0.3 for (sb, sl), b in zip(st_r, FIG2_BETAS) if eps_of[b] <= 1.6)
report.check("F2-renorm", "Fig. 2a with the renormalised island recipe (spec A6): BA P(block|A) < 0.2 < 0.3 < LAP's for ε ≤ 1.6",
             paper="elastic BA protects A", ours="BA P(block) " + ", ".join(f"{sb['p_block']:.3f}" for sb, _ in st_r),
             passed=bool(ok_r), tolerance="thresholds of the spec",
             note="robustness: the conclusion does not hinge on where the authors put the removed mass")
report.check("E5", "Fig. 2 text: 'ε = 0.2, the highest level of privacy considered'", paper="ε = 0.2",
             ours=f"smallest plotted ε = {eps_of[0.2]:.3f} (β = 0.2)", passed=bool(abs(eps_of[0.2] - 0.4) < 0.01),
             tolerance="0.01", note="typo: the top row is β = 0.2, ε ≈ 0.4 (= 2β); no ε = 0.2 row exists")

# %% [markdown]
# ## Statistical utility: BA vs LAP (Fig. 3)
#
# Per $\beta$ and simulation, all $N$ check-ins are obfuscated once. BA is BA(π, β, 10 iterations).
# LAP is the padded LAP at $\varepsilon^*(\beta)$. The prior is estimated with 10 IBU iterations,
# and utility is $\mathrm{EMD}(\pi, \hat\pi)$ in grid units (POT). The paper states that BA beats LAP
# at high privacy: for $\beta \in (0.4, 1.4]$ in Paris and $\beta \in (0, 1)$ in SF.
#
# * **Variant A, the stated protocol**: IBU starts from uniform for both mechanisms, as in the
#   released code.
# * **Variant B**: BA's IBU starts from the prior that built BA, here the true π. This follows
#   PRIVIC's habit of starting IBU at the prior behind the mechanism, and it is generous to BA.
#
# Both variants use the same reports.

# %%
fig3 = {c: pv.stat_utility_sweep(counts[c].ravel(), c, SIZES["fig3_betas"],
                                 eps_tight[c][np.searchsorted(ALL_BETAS, np.round(SIZES["fig3_betas"], 1))],
                                 sims=SIZES["sims"], seed=SEED + 3 + i) for i, c in enumerate(CITIES)}
summary3 = {c: fig3[c].groupby(["beta", "mechanism"]).emd.agg(["mean", "std"]).unstack("mechanism") for c in CITIES}
fig, axes = plt.subplots(1, 2, figsize=(13, 4.5))
for ax, c, tag in zip(axes, CITIES, "ab"):
    s = summary3[c]
    for mech, col, ls in (("BA", C_BA, "-"), ("BA (IBU from own prior)", C_B2, "--"), ("LAP", C_LAP, "-")):
        label = {"BA": "BA, IBU from uniform (stated protocol)", "LAP": "LAP, IBU from uniform",
                 "BA (IBU from own prior)": "BA, IBU from its prior (variant B)"}[mech]
        ax.errorbar(s.index, s[("mean", mech)], yerr=s[("std", mech)].fillna(0), color=col, ls=ls, marker="o",
                    ms=3, capsize=2, label=label)
    ax.set_yscale("log")
    ax.set_xlabel("β (BA loss parameter; LAP at ε = ε*(β) ≈ 2β)")
    ax.set_ylabel("EMD(π, π̂) (grid units, log scale)")
    ax.set_title(f"({tag}) {NAMES[c]}, {SIZES['sims']} simulation(s) per β, mean ± sd")
    ax.legend()
fig.suptitle("Fig. 3 — statistical utility of BA and LAP", fontweight="bold")
plt.show()
pd.concat({NAMES[c]: summary3[c]["mean"] for c in CITIES}, axis=1).round(4)

# %%
PAPER_WIN = {"paris": (0.4, 1.4), "sf": (0.0, 1.0)}
SPEC_A = {"paris": {"BA": {0.2: 1.643, 0.4: 1.170, 0.6: 0.761, 0.8: 0.546, 1.0: 0.423, 1.4: 0.328, 2.0: 0.247, 3.2: 0.105, 5.0: 0.024},
                    "LAP": {0.2: 0.654, 0.4: 0.327, 0.6: 0.227, 0.8: 0.146, 1.0: 0.096, 1.4: 0.047, 2.0: 0.023, 3.2: 0.005, 5.0: 0.0003}},
          "sf": {"BA": {0.2: 4.30, 0.4: 1.70, 0.6: 1.15, 0.8: 0.695, 1.0: 0.573, 1.4: 0.460, 2.0: 0.319, 3.2: 0.122, 5.0: 0.044},
                 "LAP": {0.2: 0.752, 0.4: 0.376, 0.6: 0.234, 0.8: 0.120, 1.0: 0.051, 1.4: 0.017, 2.0: 0.0075, 3.2: 0.0020, 5.0: 0.0002}}}
REL3 = 0.10 * np.sqrt(5 / SIZES["sims"])  # relative tolerance for a mean of `sims` simulations (10% at 5 sims)
for c in CITIES:
    m = summary3[c]["mean"]
    lo, hi = PAPER_WIN[c]
    win = m.loc[(m.index > lo) & (m.index <= hi)]
    report.diverges(f"F3-order-{c}", f"Fig. 3{'a' if c == 'paris' else 'b'}: BA has lower EMD than LAP for β ∈ ({lo}, {hi}] ({NAMES[c]})",
                    paper="BA < LAP in that range", ours=f"LAP < BA at all {len(m)} β (stated protocol); "
                    f"BA/LAP ratio in range {np.round((win['BA'] / win['LAP']).min(), 1)}–{np.round((win['BA'] / win['LAP']).max(), 1)}",
                    tolerance="ordering of means",
                    note="with IBU from uniform for both (the stated and released protocol) LAP wins at every β, also with "
                         "100–10^4 IBU iterations (below); the paper's ordering appears only in variant B",
                    holds=bool((m["LAP"] < m["BA"]).all()))
    b5 = m.loc[5.0] if 5.0 in m.index else None
    if b5 is not None:
        report.check(f"F3-limit-{c}", f"Fig. 3: both EMDs → 0 as β grows ({NAMES[c]}, β = 5)", paper="→ 0",
                     ours=f"BA {b5['BA']:.4f}, LAP {b5['LAP']:.5f}", passed=bool(b5["BA"] < 0.05 and b5["LAP"] < 0.001),
                     tolerance="BA < 0.05, LAP < 0.001 (spec)")
    small, large = m.loc[m.index <= 0.8], m.loc[m.index >= 1.4]
    okB = bool((small["BA (IBU from own prior)"] < small["LAP"]).all() and (large["LAP"] < large["BA (IBU from own prior)"]).all())
    cross = [b for b in m.index if m.loc[b, "LAP"] < m.loc[b, "BA (IBU from own prior)"]]
    report.check(f"F3-B-{c}", f"Fig. 3 variant B ({NAMES[c]}): BA < LAP for β ≤ 0.8 and LAP < BA for β ≥ 1.4 (paper's crossover)",
                 paper=f"crossover ≈ {hi}", ours=f"first β with LAP < BA(B): {min(cross) if cross else None}", passed=okB,
                 tolerance="ordering of means", note="variant B is not the paper's stated protocol (BA's IBU starts at the true prior)")
    common = [b for b in SPEC_A[c]["BA"] if b in m.index]
    for mech in ("BA", "LAP"):
        report.check_close(f"F3-A-{mech}-{c}", f"Fig. 3 variant A, {NAMES[c]} {mech}: mean EMD at β = {common}",
                           paper=[SPEC_A[c][mech][b] for b in common], ours=np.round(m.loc[common, mech].values, 4),
                           rtol=REL3, atol=0.002, note="spec-author values (the paper prints no numbers); "
                           f"tolerance {REL3:.0%} relative + 0.002 for a mean of {SIZES['sims']} simulation(s)")

# %% [markdown]
# **Does IBU's iteration count rescue the stated protocol?** No. The EMD of the IBU estimate is not
# even monotone in the number of iterations: the MLE overfits the noise. LAP stays ahead of BA at
# every budget (Paris, β = 0.2, one simulation).

# %%
rng = np.random.default_rng(SEED + 7)
C_ba02 = rd.blahut_arimoto(pi["paris"], D["paris"], 0.2).channel
C_lap02 = pv.lap_grid_channel("paris", eps_tight["paris"][0])
y_ba, y_lap = simulate_counts(C_ba02, counts["paris"].ravel(), rng=rng), simulate_counts(C_lap02, counts["paris"].ravel(), rng=rng)
sens = pd.DataFrame({it: {"BA": emd(ibu(C_ba02, y_ba, tol=0, max_iter=it).estimate, pi["paris"], D["paris"]),
                          "LAP": emd(ibu(C_lap02, y_lap, tol=0, max_iter=it).estimate, pi["paris"], D["paris"])}
                     for it in SIZES["ibu_sens"]}).T
sens.index.name = "IBU iterations"
sens.round(3)

# %%
report.check("P4", "stated protocol, Paris β = 0.2: LAP beats BA at every IBU budget", paper="BA < LAP (paper's claim)",
             ours="; ".join(f"{i}: BA {r.BA:.2f} / LAP {r.LAP:.2f}" for i, r in sens.iterrows()),
             passed=bool((sens["LAP"] < sens["BA"]).all()), tolerance="ordering",
             note="spec: BA 1.64/0.90/0.79/1.39 vs LAP ~0.65/0.45/0.68/0.90 at 10/100/1000/10^4 iterations")

# %% [markdown]
# ## The BA–IBU duality (§4, Fig. 4)
#
# Substituting (1) into (2) gives
#
# $$ c_{t+1}(y) = \sum_x \pi(x)\,\frac{c_t(y)\,e^{-\beta d(x,y)}}{\sum_z c_t(z)\,e^{-\beta d(x,z)}}, \qquad (5) $$
#
# This is an IBU step with BA's output $y$ as the secret and BA's prior $\pi$ as the observed
# distribution; the kernel $K(x,y)=e^{-\beta d(x,y)}$ plays the channel $y\to x$. The identity is
# exact for the *unnormalised* kernel. A row-normalised kernel (a proper channel) satisfies it only
# when the column sums of $K$ do not depend on $y$: on a cycle, yes; on a bounded grid, no.

# %%
fig, ax = plt.subplots(figsize=(10, 4))
pv.draw_duality(ax)
ax.set_title("Fig. 4 — duality between BA (rate–distortion) and IBU (expectation–maximisation)")
plt.show()
rng = np.random.default_rng(SEED + 2)
gaps = {b: rd_privic.ba_ibu_duality_gap(pi["paris"], D["paris"], b, rng.dirichlet(np.ones(165)), 50) for b in (0.2, 1.0, 3.0)}
gap_norm = rd_privic.ba_ibu_duality_gap(pi["paris"], D["paris"], 1.0, None, 50, normalised_kernel=True)
kk = np.arange(24)
Dcyc = np.minimum(np.abs(kk[:, None] - kk[None, :]), 24 - np.abs(kk[:, None] - kk[None, :])).astype(float)
gap_cyc = rd_privic.ba_ibu_duality_gap(rng.dirichlet(np.ones(24)), Dcyc, 1.0, None, 50, normalised_kernel=True)
report.check("T-G1", "§4 eq. (5): BA marginals = IBU iterates with the unnormalised kernel (Paris, 50 steps, β ∈ {0.2, 1, 3})",
             paper="identity", ours=f"max gap {max(gaps.values()):.1e}", passed=bool(max(gaps.values()) < 1e-13), tolerance="1e-13")
report.check("T-G2", "duality with a row-normalised kernel holds on a cycle, not on the bounded grid",
             paper="'exponential mechanism C = c·exp(−βd)'", ours=f"cycle {gap_cyc:.1e}; Paris grid {gap_norm:.2e}",
             passed=bool(gap_cyc < 1e-13 and gap_norm > 1e-4), tolerance="1e-13 / > 1e-4",
             note="the §4 wording needs the unnormalised kernel (or constant column sums)")

# %% [markdown]
# ## Invertibility and the unique MLE (Thm 5.1, Example 5.1)
#
# **Thm 5.1.** $C^{(t)} = \mathrm{diag}(1/Z)\,K\,\mathrm{diag}(c_{t-1})$, and
# $K = e^{-\beta D}$ is strictly positive definite: $e^{-\beta\|x-y\|}$ is a strictly PD radial
# kernel. So every finite iterate is invertible, because $c_{t-1} > 0$. We check the smallest
# eigenvalue of $K$ on both grids and the factorisation of the first ten iterates. The condition
# numbers of the §2 table show the limit's problem: $c_{t-1}$ is exponentially small on most
# cells, so the iterates are nearly singular, and the converged channel is singular.

# %%
SPEC_EIG = {0.05: 0.0211, 0.1: 0.0422, 0.2: 0.0843, 0.5: 0.208, 1.0: 0.400, 2.0: 0.694, 5.0: 0.977}
eig = {c: {b: rd.kernel_min_eigenvalue(D[c], b) for b in SPEC_EIG} for c in CITIES}
pd.DataFrame({NAMES[c]: eig[c] for c in CITIES}).rename_axis("β").round(4)

# %%
report.check_close("T-H1", "Thm 5.1: smallest eigenvalue of K = e^{−βD} on the Paris grid (β = 0.05 … 5)",
                   paper=list(SPEC_EIG.values()), ours=np.round(list(eig["paris"].values()), 4), rtol=0.005, atol=1e-4,
                   note="spec-author values; the paper proves positivity only")
report.check("T-H2", "K strictly positive definite on both grids for all β", paper="> 0",
             ours=f"min {min(min(v.values()) for v in eig.values()):.4f}",
             passed=bool(min(min(v.values()) for v in eig.values()) > 0), tolerance="> 0")
fact_res, min_c = 0.0, np.inf
K05 = rd.exponential_kernel(D["paris"], 0.5)
prev = np.full(165, 1 / 165)
for t in range(1, 11):
    cur = rd.blahut_arimoto(pi["paris"], D["paris"], 0.5, n_iter=t)
    fact_res = max(fact_res, rd.ba_iterate_factorization_residual(cur.channel, prev, K05))
    min_c = min(min_c, prev.min())
    prev = cur.output_marginal
report.check("T-H3", "every BA iterate C(t) = diag(1/Z) K diag(c_{t−1}) with c_{t−1} > 0, t ≤ 10 (Paris, β = 0.5): invertible",
             paper="invertible", ours=f"factorisation residual {fact_res:.1e}; min c_(t−1) = {min_c:.1e}",
             passed=bool(fact_res < 1e-12 and min_c > 0), tolerance="1e-12 and > 0")

# %% [markdown]
# **Example 5.1: optimal QoS with zero statistical utility.** Take three collinear points a, b, c
# at unit spacing, a uniform prior and the QoS budget AvgD ≤ 2/3. The mechanism "everything → b"
# meets the budget, but it has rank 1: IBU cannot move from its start. A strictly feasible budget
# (AvgD = 0.6, β ≈ 0.775) gives an invertible converged BA channel. At the boundary
# $D = D_{\max} = 2/3$, however, converged BA degenerates to the same all-to-b channel.

# %%
D3 = np.abs(np.subtract.outer(np.arange(3.0), np.arange(3.0)))
u3 = np.ones(3) / 3
to_b = np.tile([0.0, 1.0, 0.0], (3, 1))
moves = max(np.max(np.abs(ibu(to_b, [0, 10, 0], theta0=t0, tol=0, max_iter=100).estimate - t0))
            for t0 in (u3, np.array([0.2, 0.5, 0.3]), np.array([0.7, 0.1, 0.2])))
ex_ba = rd.blahut_arimoto(u3, D3, 0.7752079538591703, n_iter=None, tol=1e-14, max_iter=10**6)
sv = np.linalg.svd(ex_ba.channel, compute_uv=False)
est1 = ibu(ex_ba.channel, [30, 50, 20], tol=0, max_iter=20_000).estimate
est2 = ibu(ex_ba.channel, [30, 50, 20], theta0=[0.6, 0.2, 0.2], tol=0, max_iter=20_000).estimate
report.check("T-K1", "Example 5.1: 'all → b' has AvgD = 2/3, rank 1, and IBU leaves any θ0 unchanged",
             paper="θ_{r+1} = θ_r", ours=f"AvgD {rd.average_distortion(u3, to_b, D3):.6f}, rank {np.linalg.matrix_rank(to_b)}, max move {moves:.0e}",
             passed=bool(moves < 1e-15 and np.linalg.matrix_rank(to_b) == 1), tolerance="1e-15")
report.check("T-K2", "Example 5.1 contrast: converged BA at AvgD = 0.6 is invertible and IBU from two starts agrees",
             paper="unique MLE", ours=f"AvgD {rd.average_distortion(u3, ex_ba.channel, D3):.4f}, σ_min {sv[-1]:.3f}, "
                                      f"|θ̂1 − θ̂2| {np.max(np.abs(est1 - est2)):.1e}",
             passed=bool(sv[-1] > 0.09 and np.max(np.abs(est1 - est2)) < 1e-6), tolerance="σ_min ≈ 0.092 (spec); 1e-6")

# %% [markdown]
# ## PRIVIC (Alg. 1, Fig. 5)
#
# PRIVIC starts from $\theta_0 = c_0 = $ uniform. In cycle $t$:
# (i) build $\hat C^{(t)} = \mathrm{BA}(\theta_{t-1}, c_0, \beta)$;
# (ii) users report through $\hat C^{(t)}$, giving the empirical distribution $q_t$;
# (iii) $\mu_t = \mathrm{IBU}(\hat C^{(t)}, \theta_{t-1}, q_t)$, warm-started at $\theta_{t-1}$;
# (iv) $\theta_t = \mu_t$, or $\mu_t \oplus \theta_{t-1}$.
# After $N$ cycles, generalised IBU (GIBU) {cite}`elsalamouny2020gibu` over all cycles gives $\hat\pi$.
#
# **Protocol that reproduces Tables III–IV (spec A11).** Every cycle re-obfuscates the *whole*
# dataset with fresh randomness. BA runs 8 iterations (Paris) or 5 (SF); IBU runs 10 (Paris) or 5
# (SF), warm-started. There is no ⊕. EMD is measured against the full true distribution. Table row
# N is $\theta_{N-1}$, so row 1 is the uniform start. We run 5 rounds per β, as the paper does.

# %%
fig, ax = plt.subplots(figsize=(9, 5))
pv.draw_privic_loop(ax)
ax.set_title("Fig. 5 — the PRIVIC loop (Alg. 1)")
plt.show()

# %%
t_priv = time.perf_counter()
priv = {}
for i, c in enumerate(CITIES):
    proto = pv.PROTOCOL[c]
    betas = sorted(set(SIZES["fig10_betas"]) | {0.5, 1.0})
    priv[c] = pv.privic_table(counts[c].ravel(), D[c], betas, rounds=SIZES["rounds"], n_rows=proto["n_rows"],
                              ba_iter=proto["ba_iter"], ibu_iter=proto["ibu_iter"], seed=SEED + 10 + i)
print(f"PRIVIC runs: {time.perf_counter() - t_priv:.1f} s")

# %%
PAPER_TABLE = {"paris": pv.PAPER_TABLE_III, "sf": pv.PAPER_TABLE_IV}
tables = {}
for c in CITIES:
    n_rows = PAPER_TABLE[c][1.0].shape[0]
    g = priv[c][priv[c].beta.isin([1.0, 0.5])].groupby(["row", "beta"]).emd
    t = pd.concat({"ours mean": g.mean().unstack(), "ours sd": g.std().unstack()}, axis=1)
    for b in (1.0, 0.5):
        t[("paper mean", b)] = np.r_[PAPER_TABLE[c][b].mean(axis=1), [np.nan] * (len(t) - n_rows)]
        t[("paper sd", b)] = np.r_[PAPER_TABLE[c][b].std(axis=1, ddof=1), [np.nan] * (len(t) - n_rows)]
    tables[c] = t.sort_index(axis=1)
    display_t = tables[c].loc[:n_rows].round(4)
    display_t.columns = [f"{a} (β={b})" for a, b in display_t.columns]
    print(f"Table {'III' if c == 'paris' else 'IV'} — EMD per PRIVIC row, {NAMES[c]}")
    display(display_t)

# %%
fig, axes = plt.subplots(2, 2, figsize=(13, 8))
for i, c in enumerate(CITIES):
    for j, b in enumerate((0.5, 1.0)):
        ax = axes[i, j]
        d = priv[c][priv[c].beta == b]
        for r, dr in d.groupby("round"):
            ax.plot(dr.row, dr.emd, color=C_BA, alpha=0.3, lw=0.8)
        mean = d.groupby("row").emd.mean()
        ax.plot(mean.index, mean.values, "o-", color=C_BA, label=f"ours, mean of {SIZES['rounds']} round(s)")
        pt = PAPER_TABLE[c][b]
        ax.errorbar(np.arange(1, pt.shape[0] + 1), pt.mean(axis=1), yerr=pt.std(axis=1, ddof=1), fmt="s--",
                    color=C_LAP, ms=4, capsize=2, label="paper (Table III/IV), mean ± sd")
        ax.set_yscale("log")
        ax.set_xlabel("PRIVIC row N (row 1 = uniform start; N−1 data cycles)")
        ax.set_ylabel("EMD(π, θ) (grid units, log)")
        ax.set_title(f"Fig. {8 if c == 'paris' else 9}{'ab'[j]} — {NAMES[c]}, β = {b}")
        ax.legend()
fig.suptitle("Figs. 8–9 — convergence of PRIVIC (Tables III and IV)", fontweight="bold")
plt.show()

# %%
TOL_T = {("paris", 1.0): 0.03, ("paris", 0.5): 0.04, ("sf", 1.0): 0.01, ("sf", 0.5): 0.015}
scale_fac = np.sqrt(5 / SIZES["rounds"])  # the spec's tolerances are for means of 5 rounds
for c in CITIES:
    tname = "III" if c == "paris" else "IV"
    n_rows = PAPER_TABLE[c][1.0].shape[0]
    for b in (1.0, 0.5):
        tol = TOL_T[(c, b)] * scale_fac
        ours = tables[c][("ours mean", b)]
        for row in range(1, n_rows + 1):
            tol_r = 1e-5 if row == 1 and c == "paris" else (1e-3 if row == 1 else tol)
            report.check_close(f"T{tname}-{b}-{row}", f"Table {tname} ({NAMES[c]}), β = {b}, row {row}: mean EMD",
                               paper=round(float(PAPER_TABLE[c][b][row - 1].mean()), 4), ours=round(float(ours.loc[row]), 4),
                               atol=tol_r, note="" if row == 1 else
                               f"protocol A11; tolerance {TOL_T[(c, b)]} for 5 rounds × √(5/rounds) = {tol_r:.3f}")
    both = tables[c]["ours mean"]
    report.check(f"T{tname}-order", f"Table {tname}: β = 1 below β = 0.5 at every data row ({NAMES[c]})",
                 paper="β=1 < β=0.5", ours=f"{int((both.loc[2:, 1.0] < both.loc[2:, 0.5]).sum())}/{len(both) - 1} rows",
                 passed=bool((both.loc[2:, 1.0] < both.loc[2:, 0.5]).all()), tolerance="all rows")
m_p = tables["paris"]["ours mean"]
noise = 3 * 0.01 * scale_fac
report.check("TIII-trend", "Table III: rows 2 → 15 non-increasing up to round-to-round noise (Paris)",
             paper="decreasing, converges", ours=f"largest rise {max(0, np.diff(m_p.loc[2:15].values, axis=0).max()):.3f}",
             passed=bool(np.diff(m_p.loc[2:15].values, axis=0).max() <= noise), tolerance=f"rise ≤ {noise:.3f} (3 sd of a mean)")
m_s = tables["sf"]["ours mean"]
report.check("TIV-trend", "Table IV: strictly decreasing rows 1 → 7 (SF)", paper="decreasing",
             ours=f"largest change {np.diff(m_s.loc[1:7].values, axis=0).max():.4f}",
             passed=bool(np.diff(m_s.loc[1:7].values, axis=0).max() < 0), tolerance="< 0")
if SIZES["rounds"] > 1:
    sd_sf = tables["sf"]["ours sd"].loc[2:7].values.max()
    report.check("TIV-sd", "Table IV: between-round sd small (SF, 12x the data of Paris)", paper="sd ≤ 0.0055",
                 ours=f"max sd {sd_sf:.4f}", passed=bool(sd_sf < 0.01), tolerance="< 0.01")
else:
    report.not_evaluated("TIV-sd", "Table IV: between-round sd small (SF)", paper="sd ≤ 0.0055", note="one round at this scale")
report.diverges("E7", "§6: 'SF converges in 8 cycles' vs Table IV's 7 rows", paper="8 cycles / 7 rows",
                ours=f"we run 8 rows (row 8: β=1 {m_s.loc[8, 1.0]:.3f}, β=0.5 {m_s.loc[8, 0.5]:.3f}) and report 7",
                tolerance="—", note="text and table disagree; row 8 still decreases", holds=bool(m_s.loc[8, 1.0] < m_s.loc[7, 1.0]))

# %% [markdown]
# ### Fig. 7: the PRIVIC estimates after convergence
#
# These are the final estimates $\theta$ of one round (row 15 for Paris, row 8 for SF), next to
# the true distributions of Fig. 6b.

# %%
fig, axes = plt.subplots(2, 3, figsize=(18, 8.5))
for i, c in enumerate(CITIES):
    proto = pv.PROTOCOL[c]
    pv.heatmap(axes[i, 0], pi[c], c, title=f"{NAMES[c]}: true π (Fig. 6b)", colorbar=True)
    for j, b in enumerate((0.5, 1.0)):
        res = pv.privic(counts[c].ravel(), D[c], b, n_cycles=proto["n_rows"] - 1, ba_iter=proto["ba_iter"],
                        ibu_iter=proto["ibu_iter"], rng=SEED + 20 + 2 * i + j)
        pv.heatmap(axes[i, j + 1], res.thetas[-1], c, vmax=pi[c].max(),
                   title=f"({'ab'[j] if c == 'paris' else 'cd'[j]}) {NAMES[c]}, β = {b}: EMD {res.emd[-1]:.3f}")
fig.suptitle("Fig. 7 — PRIVIC estimate of the true distribution after convergence", fontweight="bold")
plt.show()

# %% [markdown]
# ### Fig. 10: final EMD against β
#
# We use the same cycles and iterations as in Figs. 8–9. The paper says the curve "starts by sharply
# decreasing and then eventually stabilizes". (§6 also says a higher β gives a *worse* statistical
# utility; that is a typo for *better*, erratum E6.)

# %%
final = {c: priv[c][priv[c].row == pv.PROTOCOL[c]["n_rows"]].groupby("beta").emd.agg(["mean", "std"]) for c in CITIES}
final = {c: final[c].loc[[b for b in final[c].index if b in SIZES["fig10_betas"]]] for c in CITIES}
fig, axes = plt.subplots(1, 2, figsize=(12, 4.2))
for ax, c, tag in zip(axes, CITIES, "ab"):
    f = final[c]
    ax.errorbar(f.index, f["mean"], yerr=f["std"].fillna(0), fmt="o-", color=C_BA, capsize=3,
                label=f"PRIVIC, mean ± sd over {SIZES['rounds']} round(s)")
    ax.set_xlabel("β (loss parameter)")
    ax.set_ylabel("final EMD(π, θ) (grid units)")
    ax.set_title(f"({tag}) {NAMES[c]}, row {pv.PROTOCOL[c]['n_rows']}")
    ax.legend()
fig.suptitle("Fig. 10 — statistical utility of PRIVIC after convergence, against β", fontweight="bold")
plt.show()
pd.concat({NAMES[c]: final[c]["mean"] for c in CITIES}, axis=1).round(3)

# %%
SPEC_F10 = {"paris": {0.1: 1.012, 0.3: 0.502, 0.5: 0.314, 0.7: 0.213, 0.9: 0.159, 1.0: 0.143},
            "sf": {0.1: 1.811, 0.3: 0.768, 0.5: 0.438, 0.7: 0.313, 0.9: 0.226, 1.0: 0.184}}
for c in CITIES:
    f = final[c]["mean"]
    dec = bool(np.all(np.diff(f.values) < 0))
    steep = (f.loc[0.1] - f.loc[0.3]) / max(f.loc[0.7] - f.loc[1.0], 1e-12)
    report.check(f"F10-shape-{c}", f"Fig. 10 ({NAMES[c]}): final EMD strictly decreasing in β, steep then flat",
                 paper="sharp decrease then stabilises", ours=f"decreasing {dec}; drop(0.1→0.3)/drop(0.7→1.0) = {steep:.1f}",
                 passed=bool(dec and steep >= 3), tolerance="strict decrease; ratio ≥ 3 (spec)")
    report.check_close(f"F10-val-{c}", f"Fig. 10 ({NAMES[c]}): final EMD at β = {list(f.index)}",
                       paper=[SPEC_F10[c][b] for b in f.index], ours=np.round(f.values, 3), rtol=0.2,
                       note="spec-author values (the paper prints no numbers); ±20% relative")
report.diverges("E6", "§6: 'the higher the value of β … the worse will be the statistical utility'",
                paper="worse with β", ours="final EMD decreases with β in both cities", tolerance="ordering",
                note="typo for 'better' (Fig. 10 itself shows the decrease)",
                holds=bool(all(np.all(np.diff(final[c]["mean"].values) < 0) for c in CITIES)))

# %% [markdown]
# ### Which PRIVIC? Alg. 1 as written versus the tables' protocol
#
# We compare four versions on Paris, β = 1, with 14 data cycles and several rounds:
#
# * the tables' protocol (A11);
# * A11 with the ⊕ average;
# * A11 with IBU started from uniform in every cycle;
# * Alg. 1 as written: fresh i.i.d. users each cycle (n = N), warm start, ⊕, and a final GIBU.
#
# After this, the three final estimators of Remark 6 — θ_N, the ⊕ average and GIBU — are compared
# on the same run.

# %%
VARIANTS = {"A11 (tables)": dict(),
            "A11 + ⊕": dict(combine=True),
            "A11, IBU from uniform": dict(warm_start=False),
            "Alg. 1 as written (+GIBU)": dict(combine=True, final_gibu=True, n_per_cycle=int(counts["paris"].sum()),
                                              gibu_iter=SIZES["gibu_iter"])}
var_rows = []
ss = np.random.SeedSequence(SEED + 30).spawn(SIZES["variant_rounds"])
fig, ax = plt.subplots(figsize=(8, 4.5))
for name, kw in VARIANTS.items():
    curves, gib = [], []
    for r in range(SIZES["variant_rounds"]):
        res = pv.privic(counts["paris"].ravel(), D["paris"], 1.0, n_cycles=14, ba_iter=8, ibu_iter=10,
                        rng=np.random.default_rng(ss[r]), **kw)
        curves.append(res.emd)
        if res.gibu_emd is not None:
            gib.append(res.gibu_emd)
    mean = np.mean(curves, axis=0)
    ax.plot(np.arange(1, 16), mean, marker="o", ms=3, label=name)
    var_rows.append({"variant": name, "row 2": mean[1], "row 15": mean[-1], "GIBU final": np.mean(gib) if gib else np.nan})
ax.set_yscale("log")
ax.set_xlabel("PRIVIC row N")
ax.set_ylabel("EMD(π, θ) (grid units, log)")
ax.set_title("PRIVIC variants, Paris, β = 1")
ax.legend()
plt.show()
variants = pd.DataFrame(var_rows).set_index("variant")
variants.round(3)

# %%
report.check("A11-combine", "Protocol choice: A11 without ⊕ matches Table III row 15 better than with ⊕ (Paris β = 1)",
             paper="0.1399 (row 15)", ours=f"no ⊕ {variants.loc['A11 (tables)', 'row 15']:.3f}; with ⊕ {variants.loc['A11 + ⊕', 'row 15']:.3f}",
             passed=bool(abs(variants.loc["A11 (tables)", "row 15"] - 0.1399) < abs(variants.loc["A11 + ⊕", "row 15"] - 0.1399)),
             tolerance="closer to the paper", note="spec A11: with ⊕ the curve flattens early (≈0.18 at row 15)")
# Remark 6: three estimators on the same run (Paris, beta = 1)
res = pv.privic(counts["paris"].ravel(), D["paris"], 1.0, n_cycles=14, ba_iter=8, ibu_iter=10, rng=SEED + 40)
plus = np.mean(res.thetas[1:], axis=0)  # ⊕-average of the cycle estimates (equal n_t)
g_runs = {it: pv_estimators.gibu(res.channels, res.report_counts, tol=0, max_iter=it) for it in (100, SIZES["gibu_iter"])}
est6 = {"(a) θ_N": emd(res.thetas[-1], pi["paris"], D["paris"]), "(b) ⊕ average": emd(plus, pi["paris"], D["paris"]),
        **{f"(c) GIBU, {it} it.": emd(g.estimate, pi["paris"], D["paris"]) for it, g in g_runs.items()}}
pd.Series(est6, name="EMD to π (Paris, β = 1)").round(3)

# %%
g_long = g_runs[SIZES["gibu_iter"]]
rng = np.random.default_rng(SEED + 41)
g_other_start = rng.dirichlet(np.ones(165))
g_other = pv_estimators.gibu(res.channels, res.report_counts, theta0=g_other_start, tol=0, max_iter=SIZES["gibu_iter"])
rel_ll = abs(g_long.loglik - g_other.loglik) / abs(g_long.loglik)
report.check("T-I1", "Thm 5.2: G = (C(1)…C(N)) has the right inverse (1/N)(C(1)^−1; …) (PRIVIC channels, Paris β = 1)",
             paper="G G' = I", ours=f"max |GG' − I| = {rd_privic.right_inverse_residual(res.channels):.1e}",
             passed=bool(rd_privic.right_inverse_residual(res.channels) < 1e-9), tolerance="1e-9")
report.check("T-I2", "Thm 5.2: GIBU from two full-support starts reaches the same log-likelihood (unique MLE)",
             paper="unique limit", ours=f"relative log-lik difference {rel_ll:.1e} after {SIZES['gibu_iter']} iterations",
             passed=bool(rel_ll < 1e-4), tolerance="1e-4 relative (spec: test the likelihood, not θ)")
g_short = {k: pv_estimators.gibu(res.channels, res.report_counts, theta0=t0, tol=0, max_iter=max(SIZES["gibu_iter"] // 10, 30))
           for k, t0 in (("u", None), ("d", g_other_start))}
emd_short = emd(g_short["u"].estimate, g_short["d"].estimate, D["paris"])
emd_long = emd(g_long.estimate, g_other.estimate, D["paris"])
report.check("T-I2b", "Thm 5.2: the two GIBU runs approach each other as iterations grow", paper="same limit",
             ours=f"EMD between the two estimates: {emd_short:.4f} at {max(SIZES['gibu_iter'] // 10, 30)} it., {emd_long:.4f} at {SIZES['gibu_iter']} it.",
             passed=bool(emd_long < emd_short), tolerance="decreasing", note="spec: test the likelihood and the trend, not θ (slow EM)")
report.check("T-I3", "GIBU (EM) log-likelihood is non-decreasing", paper="monotone",
             ours=f"min step {np.diff(g_long.trace).min():.1e}", passed=bool(np.diff(g_long.trace).min() >= -1e-12),
             tolerance="−1e-12")
report.check("T-M", "Remark 6: GIBU is at least as good as θ_N and the ⊕ average (Paris β = 1, one run)",
             paper="GIBU 'not really necessary'", ours="; ".join(f"{k} {v:.3f}" for k, v in est6.items()),
             passed=bool(min(v for k, v in est6.items() if k.startswith("(c)")) <= min(est6["(a) θ_N"], est6["(b) ⊕ average"]) + 0.02),
             tolerance="best GIBU ≤ min(a, b) + 0.02",
             note="spec: (a) 0.153, (b) 0.139, (c) 0.116 (100 it.) / 0.13 (1000–3000 it.): longer EM does not always lower EMD")
# T-L: the start matters at a fixed budget; T-N: sequential composition
rng = np.random.default_rng(SEED + 42)
resD = pv.privic(counts["paris"].ravel(), D["paris"], 1.0, n_cycles=14, ba_iter=8, ibu_iter=10,
                 theta0=rng.dirichlet(np.ones(165)), rng=SEED + 43)
report.check("T-L", "Remark 5: any full-support θ0 works — at the paper's fixed budget both starts decrease and stay finite",
             paper="any θ0", ours=f"uniform start: {res.emd[0]:.3f} → {res.emd[-1]:.3f}; Dirichlet start: {resD.emd[0]:.3f} → {resD.emd[-1]:.3f}",
             passed=bool(np.all(np.isfinite(resD.emd)) and resD.emd[-1] < resD.emd[0] and res.emd[-1] < res.emd[0]),
             tolerance="decrease, finite", note="the limits agree (T-I2); at fixed budget the uniform start is better (spec 0.140 vs 0.202)")
# two reports of one user through 2beta-geo-ind BA channels (5x5 grid): 2k beta-geo-ind
D5 = pv.privic_distance((5, 5))
Cs5 = [rd.blahut_arimoto(np.random.default_rng(s).dirichlet(np.ones(25)), D5, 0.5).channel for s in (1, 2)]
prod = np.einsum("xa,xb->xab", *Cs5).reshape(25, -1)
report.check("T-N", "sequential composition: a user reporting in k = 2 cycles of 2β-geo-ind BA is 2kβ-geo-ind",
             paper="ε ≤ 2kβ = 2", ours=f"ε*(pair channel) = {geo_ind_epsilon(prod, D5):.3f}",
             passed=bool(geo_ind_epsilon(prod, D5) <= 2.0 + 1e-9), tolerance="1e-9")

# %% [markdown]
# ### Table II: run time per PRIVIC cycle
#
# The authors' loop-based implementation took seconds to minutes per cycle. In particular, their IBU
# recomputes the denominator inside the loop over $x$, which makes it $O(m^3)$ per iteration. Here
# BA and IBU are matrix operations, $O(m^2)$ per iteration, so the seconds are not comparable; we
# report ours.

# %%
PAPER_T2 = {"paris": (3.256, 1.30), "sf": (16.805, 128.192)}
t2 = []
for c in CITIES:
    proto = pv.PROTOCOL[c]
    reps = 20
    t_ = time.perf_counter()
    for _ in range(reps):
        Cc = rd.blahut_arimoto(pi[c], D[c], 1.0, n_iter=proto["ba_iter"]).channel
    t_ba = (time.perf_counter() - t_) / reps
    y = simulate_counts(Cc, counts[c].ravel(), rng=SEED)
    t_ = time.perf_counter()
    for _ in range(reps):
        ibu(Cc, y, tol=0, max_iter=proto["ibu_iter"])
    t_ibu = (time.perf_counter() - t_) / reps
    t2.append({"dataset": NAMES[c], "m (cells)": pi[c].size, "BA per cycle, ours (s)": t_ba, "BA, paper (s)": PAPER_T2[c][0],
               "IBU per cycle, ours (s)": t_ibu, "IBU, paper (s)": PAPER_T2[c][1], "complexity per iteration": "O(m²)"})
t2 = pd.DataFrame(t2).set_index("dataset")
t2

# %%
report.check("T2", "Table II: per-cycle BA and IBU run times (vectorised here)", paper="BA 3.3 / 16.8 s; IBU 1.3 / 128 s",
             ours="; ".join(f"{k}: BA {r['BA per cycle, ours (s)']:.4f} s, IBU {r['IBU per cycle, ours (s)']:.4f} s" for k, r in t2.iterrows()),
             passed=bool((t2["BA per cycle, ours (s)"] < t2["BA, paper (s)"]).all() and (t2["IBU per cycle, ours (s)"] < t2["IBU, paper (s)"]).all()),
             tolerance="faster than the paper's machine", note="different hardware; the point is the O(m²) vectorisation")

# %% [markdown]
# ## Adversarial users (§7, Fig. 11)
#
# Colluding users report the isolated A falsely. The authors model attack level $k$ by adding
# $\delta_k = 0.005k$ to the mass of A: $\pi_{adv} = (\pi_{island} + \delta_k e_A)/(1+\delta_k)$.
# The quoted "% of adversarial users" is $10\,\delta_k/(1+\delta_k)\times 100$. BA (10 iterations)
# is rebuilt on $\pi_{adv}$. (§7's text swaps the labels of A and B.)

# %%
ADV = {0.4: [0, 6, 7, 8], 0.6: [0, 2, 3, 4]}  # the paper's panels: ε = 0.8 and 1.2
adv_stats = []
for b in (0.4, 0.6):
    for k in range(9):
        s = pv.row_stats(rd.blahut_arimoto(pv.adversarial_prior(isl, k), D["paris"], b).channel[A])
        adv_stats.append({"β": b, "ε = 2β": 2 * b, "level k": k, "adversarial %": pv.adversarial_percent(k), **s})
adv_stats = pd.DataFrame(adv_stats)
for b, ks in ADV.items():
    fig, axes = plt.subplots(2, 2, figsize=(10, 6.5))
    rows_ = [rd.blahut_arimoto(pv.adversarial_prior(isl, k), D["paris"], b).channel[A] for k in ks]
    vmax = max(r.max() for r in rows_)
    for ax, k, r in zip(axes.ravel(), ks, rows_):
        pv.heatmap(ax, r, "paris", vmax=vmax, marks={"A": pv.ISLAND_A, "B": pv.ISLAND_B},
                   title=f"{pv.adversarial_percent(k):.0f}% adversarial users")
    fig.suptitle(f"Fig. 11{'a' if b == 0.4 else 'b'} — BA's reporting distribution of A under attack, ε = {2 * b:.1f} (β = {b})",
                 fontweight="bold")
    plt.show()
adv_stats.round(3)

# %%
SPEC_F11 = {(0.4, 0): (0.001, 0.035, 5.30), (0.4, 6): (0.009, 0.079, 5.03), (0.4, 7): (0.012, 0.090, 4.97),
            (0.4, 8): (0.016, 0.101, 4.91), (0.6, 0): (0.005, 0.030, 5.15), (0.6, 2): (0.040, 0.087, 4.85),
            (0.6, 3): (0.081, 0.141, 4.57), (0.6, 4): (0.139, 0.210, 4.22)}
A_idx = adv_stats.set_index(["β", "level k"])
for (b, k), (ps, pb, ed) in SPEC_F11.items():
    r = A_idx.loc[(b, k)]
    report.check_close(f"F11-{b}-{k}", f"Fig. 11, ε = {2 * b:.1f}, {pv.adversarial_percent(k):.0f}% adversarial: P(A→A), P(block), E[d(A,Y)]",
                       paper=[ps, pb, ed], ours=np.round([r.p_self, r.p_block, r.expected_distance], 3), atol=0.011,
                       note="spec targets [spec-author check]; the paper shows maps only")
mono = all(np.all(np.diff(adv_stats[adv_stats["β"] == b][col].values) >= 0) for b in (0.4, 0.6) for col in ("p_self", "p_block"))
report.check("F11-mono", "§7: as the adversarial share grows BA puts more and more weight on and around A (both ε)",
             paper="increasing", ours=f"P(A→A) and P(block) monotone in k at β = 0.4 and 0.6: {mono}", passed=bool(mono),
             tolerance="non-decreasing")
switch = adv_stats[(adv_stats["β"] == 0.6) & adv_stats["argmax"].apply(lambda t: tuple(t) == pv.ISLAND_A)]["adversarial %"].min()
report.check("F11-mode", "§7: at ε = 1.2 BA 'starts behaving like LAP': A's most likely report becomes A itself",
             paper="by 15–20% adversaries", ours=f"mode switches to A at {switch:.1f}%", passed=bool(switch <= 15.0 + 1e-9),
             tolerance="≤ 15%")
report.check_close("F11-max", "§7: at ε = 1.2 and 38.5% adversaries P(A→A)", paper=0.395,
                   ours=round(float(A_idx.loc[(0.6, 8)].p_self), 3), atol=0.002, note="spec-author value")

# %% [markdown]
# ## Errata and remaining claims
#
# * **E1**: Alg. 2's denominator $\sum_z c_t(z)e^{-\beta d(z,y)}$ normalises columns, not rows. The
#   printed formula does not give a channel; eq. (1) does, and it reproduces Table T-ε.
# * **E2, E5–E7** are reported above, next to the claims they affect.
# * "ε = 2β" (Remark 4) is an upper bound. The figures use the tight level, which is 0.95–1.0 × 2β
#   (rows T-C1, T-C2).

# %%
c_u = np.full(165, 1 / 165)
K1p = np.exp(-1.0 * D["paris"])
typo = c_u[None, :] * K1p / (c_u[:, None] * K1p).sum(axis=0, keepdims=True)
report.diverges("E1", "Alg. 2 as printed: C_xy = c(y)e^{−βd(x,y)} / Σ_z c(z)e^{−βd(z,y)}", paper="a channel",
                ours=f"row sums in [{typo.sum(1).min():.2f}, {typo.sum(1).max():.2f}]", tolerance="rows sum to 1",
                note="typo for Σ_z c(z)e^{−βd(x,z)} (eq. (1)); eq. (1) reproduces Table T-ε to 1e-5",
                holds=bool(np.abs(typo.sum(1) - 1).max() > 0.01 and np.abs(eps_tight["paris"] - pv.PAPER_TIGHT_EPS["paris"]).max() < 1e-5))
print(f"chapter compute time: {time.perf_counter() - T0:.0f} s at scale {SCALE!r}")

# %% [markdown]
# ## Reproduction report
#
# Tolerances: analytic and data claims (grids, N, row 1, Table T-ε, theorems, Example 5.1) are
# checked at every scale. Statistical claims use the spec's tolerances for 5 rounds or 5
# simulations (Tables III–IV: ±0.03/0.04 in Paris, ±0.01/0.015 in SF; Fig. 3: ±10%; Fig. 10: ±20%).
# At fewer repetitions they are scaled by √(5/rounds); the smoke scale runs one round, and rows may
# fail there without stopping the build. Rows marked *spec-author value* compare with numbers the
# reproduction spec computed from the authors' data, where the paper shows only a figure.

# %%
report.finalize()
