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
# # PIE: re-identification risk in the local privacy model
#
# This chapter reproduces T. Murakami and K. Takahashi, *Toward Evaluating Re-identification Risks
# in the Local Privacy Model*, Transactions on Data Privacy 14 (2021) 79–116 {cite}`murakami2021pie`.
#
# Local differential privacy (LDP) protects *data privacy*: an obfuscated report $Y$ hides which
# value $x$ it came from. Many local-model deployments face a different threat: **re-identification**,
# linking a report back to the *user* $U$ who sent it (pseudonymised collection, no login). The
# paper measures it with the **personal information entropy** $\mathrm{PIE} = I(U;Y)$ and defines
# $(\mathcal U,\alpha)$-PIE privacy as $\sup_{p_{U,X}} I(U;Y) \le \alpha$ bits. Through the
# generalised Fano inequality, $\alpha$ lower-bounds the Bayes error of *any* re-identification
# algorithm. It proves much tighter bounds for $k$-ary randomized response (RR) and general local
# hashing (GLH) than the generic LDP bound, analyses their utility for distribution estimation, and
# measures the identifiability of location traces and rating histories with the **PSE**, the
# mutual information between the user and the score vector of a concrete matcher.
#
# **What is recomputed here, and on which data.**
# * Every proposition and theorem of Sections 3–4 is checked exactly (finite alphabets, no sampling)
#   on random small instances; Fig. 4 and the worked examples are analytic and exact.
# * The utility experiments (Figs. 10–12) run **at the paper's own scale** ($n = 1{,}370{,}637$
#   users, $|\mathcal X| = 10{,}500{,}393$ POIs, $g$ up to $2\times 10^9$) with exact count-level
#   simulation, on a **synthetic** population (Zipf(0.75) POI popularity, calibrated as the
#   reproduction spec describes): the paper's 1.37M-user Foursquare set is not public.
# * The identification experiments (Figs. 5–9) run on **real traces**: Gowalla check-ins in New
#   York (LT, location traces) and MovieLens `ml-latest-small` likes (RH, rating histories). The
#   populations are 2–3 orders of magnitude smaller than the paper's (stated below).
# * The face, fingerprint and finger-vein score sets of the paper are not public. Their bars and
#   curves here come from **synthetic Gaussian score models**, clearly labelled; no claim about
#   biometrics is reproduced.
#
# Units: all information quantities are in **bits** ($\log = \log_2$) unless marked nats. The code
# is in `ldpnb.pie` (theory, bounds, utility) and `ldpnb.pie_ident` (matcher, PSE, DET, error
# rates).

# %% tags=["parameters"]
SCALE = "book"  # "smoke" (seconds, tests) | "book" (the published book, minutes) | "paper"
SEED = 2024

# %%
import math
import time

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown, display
from scipy import sparse

from ldpnb import measures as pie
from ldpnb.papers import pie as pie_pie
from ldpnb import attacks as pid
from ldpnb import measures as pid_measures
from ldpnb.papers import pie as pid_pie
from ldpnb.data import load_gowalla_nyc, load_movielens_latest_small
from ldpnb.measures import channel_capacity
from ldpnb.mechanisms import grr_channel
from ldpnb.repro.parallel import sweep
from ldpnb.repro.plotting import color, paper_title, set_style
from ldpnb.repro.legacy import Report

set_style()
report = Report("pie", scale=SCALE)
T0 = time.perf_counter()

N_LT, K_LT = 1_370_637, 10_500_393          # the paper's LT population (users, POIs)
SIZES = {
    "smoke": dict(draws=60, var_reps=300, util_n=N_LT // 100, util_k=K_LT // 100,
                  eps10=[8, 10, 12, 12.72, 14, 16, 20], reps10=1, g12=[1e3, 1e5, 1e7, 2e9], reps12=1,
                  lt_users=600, rh_users=None, mc_reps=2, eps8=[0.5, 2, 6, 10, 14, 20], bio_n=1000, bio_m=1_000_000, n_jobs=1),
    "book": dict(draws=300, var_reps=2000, util_n=N_LT, util_k=K_LT,
                 eps10=[1, 2, 4, 6, 8, 10, 11, 12, 12.72, 13.2, 14, 16, 18, 20], reps10=2,
                 g12=[1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 2e9], reps12=4,
                 lt_users=None, rh_users=None, mc_reps=8,
                 eps8=[0.1, 0.5, 1, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20], bio_n=2000,
                 bio_m=4_000_000, n_jobs=1),
    "paper": dict(draws=3000, var_reps=4000, util_n=N_LT, util_k=K_LT,
                  eps10=[0.1, 0.5, 1, 2, 4, 6, 8, 10, 11, 12, 12.72, 13.2, 14, 16, 18, 20], reps10=10,
                  g12=[1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 2e9], reps12=10,
                  lt_users=None, rh_users=None, mc_reps=40,
                  eps8=[0.1, 0.5, 1, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20], bio_n=3000,
                  bio_m=9_000_000, n_jobs=None),
}[SCALE]
rng = np.random.default_rng(SEED)
print(SCALE, SIZES)

# %% [markdown]
# ## Two frameworks (Figs. 1–3, Table 1)
#
# In the **obfuscation framework** (Fig. 1) user $U$ holds personal data $X \sim p_{X|U}$ and sends
# $Y \sim \mathbf Q(\cdot|X)$: the Markov chain $U \to X \to Y$. The PIE lives here and does not
# depend on any identification algorithm. In the **identification framework** (Fig. 2) an adversary
# holds auxiliary information $r_1,\dots,r_n$ (one per user), a matching algorithm $F$ produces the
# score vector $\mathbf s = (F(Y,r_1),\dots,F(Y,r_n))$ and a decision rule $G$ (best score) names a
# user. The PSE $=I(U;\mathbf S)$ lives here. Because $\mathbf R$ is independent of $(U, Y)$
# (Fig. 3), $U \to Y \to \mathbf S$ is a Markov chain.
#
# | symbol | meaning (paper Table 1) |
# |---|---|
# | $\mathcal U=\{u_1,\dots,u_n\}$, $n$ | users of one application |
# | $\mathcal X$, $k=|\mathcal X|$ | personal data (e.g. POIs) |
# | $\mathcal Y$ | obfuscated data |
# | $p_U$, $p_{X\mid U=u_i}$ | prior over users; data distribution of user $u_i$ |
# | $\mathbf Q(y\mid x)$ | obfuscation mechanism (row-stochastic) |
# | $r_i\in\mathcal R$ | auxiliary information (template) of $u_i$ |
# | $s_i=F(y,r_i)$, $\mathbf s\in\mathbb R^n$ | score of $u_i$; score vector |
# | $G:\mathbb R^n\to\mathcal U$ | decision algorithm (best-score rule) |
# | $\beta_U$, $\beta_{U\mid\mathbf S}$ | prior and posterior Bayes error |

# %%
def _box(ax, xy, text, w=1.5, h=0.6, fc="#eef3fb"):
    ax.add_patch(plt.Rectangle((xy[0] - w / 2, xy[1] - h / 2), w, h, fc=fc, ec="k", lw=1))
    ax.text(xy[0], xy[1], text, ha="center", va="center", fontsize=9)


def _arrow(ax, a, b, text=""):
    ax.annotate("", xy=b, xytext=a, arrowprops=dict(arrowstyle="->", lw=1.2))
    if text:
        ax.text((a[0] + b[0]) / 2, (a[1] + b[1]) / 2 + 0.12, text, ha="center", fontsize=8)


fig, axes = plt.subplots(3, 1, figsize=(9, 6.2))
ax = axes[0]
for xy, t in [((0.5, 0), "user $U$"), ((2.5, 0), "data $X$\n$p_{X|U}$"), ((4.5, 0), "mechanism\n$\\mathbf{Q}$"),
              ((6.5, 0), "report $Y$"), ((8.5, 0), "data collector")]:
    _box(ax, xy, t)
for a, b in [(1.25, 1.75), (3.25, 3.75), (5.25, 5.75), (7.25, 7.75)]:
    _arrow(ax, (a, 0), (b, 0))
ax.set_title("Fig. 1 — obfuscation framework: PIE $= I(U;Y)$ (no identification algorithm)")
ax = axes[1]
for xy, t in [((0.8, 0.35), "report $Y$"), ((0.8, -0.45), "aux. info\n$r_1..r_n$"), ((3.2, 0), "matching\n$F$"),
              ((5.6, 0), "scores $\\mathbf{s}$"), ((8.0, 0), "decision $G$\n$\\to$ user")]:
    _box(ax, xy, t)
_arrow(ax, (1.55, 0.35), (2.45, 0.1)); _arrow(ax, (1.55, -0.45), (2.45, -0.1))
_arrow(ax, (3.95, 0), (4.85, 0)); _arrow(ax, (6.35, 0), (7.25, 0))
ax.set_title("Fig. 2 — identification framework: PSE $= I(U;\\mathbf{S})$")
ax = axes[2]
for xy, t in [((0.5, 0), "$U$"), ((2.5, 0), "$X$"), ((4.5, 0), "$Y$"), ((6.5, 0), "$\\mathbf{S}$"), ((8.5, 0), "$\\mathbf{R}$")]:
    _box(ax, xy, t, w=0.8)
_arrow(ax, (0.9, 0), (2.1, 0)); _arrow(ax, (2.9, 0), (4.1, 0)); _arrow(ax, (4.9, 0), (6.1, 0)); _arrow(ax, (8.1, 0), (6.9, 0))
ax.set_title("Fig. 3 — graphical model: $\\mathbf{R}$ independent of $(U, Y)$, so $U \\to Y \\to \\mathbf{S}$")
for ax in axes:
    ax.set_xlim(-0.5, 9.5); ax.set_ylim(-0.9, 0.8); ax.axis("off")
plt.show()

# %% [markdown]
# ## PIE privacy, Bayes error and the generalised Fano bound
#
# For the prior Bayes error $\beta_U = 1-\max_i p_U(u_i)$ and any score vector, Prop. 3.7 (the
# generalised Fano inequality of Han and Verdú) gives
#
# $$
# \beta_{U|\mathbf S} \;\ge\; 1 + \frac{I(U;\mathbf S)+1}{\log(1-\beta_U)} \;\ge\; 1 + \frac{I(U;Y)+1}{\log(1-\beta_U)}
# \qquad\text{(Eq. 9)},\qquad
# \beta_{U|\mathbf S} \ge 1 - \frac{I(U;Y)+1}{\log n}\ \text{(uniform $U$, Eq. 10)}.
# $$
#
# If $\mathbf Q$ gives $(\mathcal U,\alpha)$-PIE privacy the same holds with $\alpha$ in place of
# $I(U;Y)$ (Cor. 3.9, Eqs. 11–12). **Erratum:** the paper prints Eq. (11) as
# $1 - (\alpha+1)/\log(1-\beta_U)$; since $\log(1-\beta_U) < 0$ that bound exceeds 1. The sign
# follows from Eq. (9). `pie.fano_lower_bound` implements the corrected form.
#
# **Worked examples (Sections 3.2–3.3).** Pseudonymisation alone (a random permutation of the
# users, $Y = X$) with $X$ = one of 5 income categories gives $I(U;Y)\le H(X)\le\log 5$.

# %%
ex = {
    "uniform, n = 1e8": pie.fano_lower_bound(math.log2(5), 1e8),
    "max prior 0.01 (beta_U = 0.99)": pie.fano_lower_bound(math.log2(5), beta_u=0.99),
}
eq11_printed = 1 - (math.log2(5) + 1) / math.log2(0.01)     # the paper's sign, for the erratum row
a08 = {u: pie.alpha_for_target_bayes_error(0.8, 1e6, unit=u) for u in ("bits", "nats")}
a05 = {u: pie.alpha_for_target_bayes_error(0.5, 1e6, unit=u) for u in ("bits", "nats")}
display(pd.DataFrame({"bound on beta_{U|S}": ex}))
display(pd.DataFrame({"beta > 0.8": a08, "beta > 0.5": a05}).T.rename(columns=lambda c: f"alpha ({c})"))

b8 = ex["uniform, n = 1e8"]
report.check("T8a", "Pseudonymisation, 5 categories, uniform U, n = 1e8: beta >= 0.875 (paper 0.88)",
             paper=0.88, ours=round(b8, 6), passed=math.floor(b8 * 100 + 0.5) / 100 == 0.88,
             tolerance="equal after rounding to 2 digits (half up): 0.875 -> 0.88")
report.check_close("T8b", "Pseudonymisation, 5 categories, max prior 0.01: beta >= 0.5",
                   paper=0.5, ours=ex["max prior 0.01 (beta_U = 0.99)"], atol=0.0005)
report.check("T6-sign", "Eq. (11) as printed gives a 'bound' above 1 (sign typo); corrected Eq. (11) = Eq. (9)",
             paper="1 - (alpha+1)/log(1-beta_U)", ours=round(eq11_printed, 3),
             passed=bool(eq11_printed > 1 and 0 <= ex["max prior 0.01 (beta_U = 0.99)"] <= 1),
             tolerance="printed form > 1 (impossible), corrected form in [0, 1]",
             note="erratum: the printed Eq. (11) has the wrong sign; we use 1 + (alpha+1)/log(1-beta_U)")
report.check_close("T6a", "Cor 3.9 example: beta > 0.8 needs alpha < 2.07 (n = 1e6), value in bits",
                   paper=2.07, ours=a08["bits"], atol=0.0005, expected=2.986,
                   note="erratum: 2.07 is in nats ((1-beta) ln n - ln 2 = 2.0700); alpha is defined in bits: 2.986")
report.check_close("T6b", "Cor 3.9 example: beta > 0.5 needs alpha < 6.21 (n = 1e6), value in bits",
                   paper=6.21, ours=a05["bits"], atol=0.0005, expected=8.966,
                   note="erratum: 6.21 is in nats (6.2146); in bits the threshold is 8.966")
report.check_close("T6c", "Cor 3.9 example in nats: 2.07 (beta > 0.8)", paper=2.07, ours=a08["nats"], atol=0.005)
report.check_close("T6d", "Cor 3.9 example in nats: 6.21 (beta > 0.5)", paper=6.21, ours=a05["nats"], atol=0.005)

# %% [markdown]
# ## Every proposition and theorem on random instances
#
# `pie.theorem_checks` draws random small systems ($n, k \in [2,6]$, $\varepsilon\sim U(0.01,6)$,
# Dirichlet priors and data distributions, random channels) and evaluates both sides of every
# statement **exactly** (finite sums, no sampling). The GLH is the explicit channel with the fully
# random hash family ($|\mathcal H| = g^k$ functions, `ldpnb.mechanisms.lh_channel`). Composition
# (Thms 4.3, 4.5) uses two reports of correlated data, $p(x_1,x_2|u)\sim$ Dirichlet(0.3), and the
# intermediate bound of Eq. (34):
#
# $$
# I(U;Y^{(1)},Y^{(2)}) \le \theta\,[\,I(U;X^{(1)}) + I(U;X^{(2)}\mid Y^{(1)})\,] \le 2\theta\min\{\log n,\log k\}.
# $$
#
# The column `max ratio` is the largest lhs/rhs over the draws: values near 1 show the bound is
# nearly attained (Thm 4.2's constant $\theta_{RR}$ cannot be improved much).

# %%
checks = pie_pie.theorem_checks(SIZES["draws"], rng=rng)
tab = pd.DataFrame(checks).set_index("name")
display(tab)
ids = {"Prop 3.3 (=)": "T2a", "Prop 3.3 (<=)": "T2b", "Thm 3.5": "T3", "Thm 3.6": "T4", "Prop 3.7": "T5",
       "Prop 3.10": "T7", "Lemma B.2": "T9", "Prop 4.1": "T10", "Thm 4.2 (Eq. 15)": "T11a", "Thm 4.2 (Eq. 16)": "T11",
       "Thm 4.3 (Eq. 34)": "T12a", "Thm 4.3": "T12", "Thm 4.4 (Eq. 17)": "T13a", "Thm 4.4 (Eq. 18)": "T13",
       "Thm 4.5": "T14"}
for r in checks:
    report.check(ids[r["name"]], f"{r['name']}: {r['statement']} (random instances)", paper="holds",
                 ours=f"{r['violations']} violations / {r['checks']} (max ratio {r['max_ratio']:.4f})",
                 passed=r["violations"] == 0 and r["checks"] > 0, tolerance="zero violations at 1e-10 bits")

# %% [markdown]
# **Tightness of Thm 4.2 against the exact PIE level.** The tightest $\alpha$ for the RR is the
# $n$-restricted capacity $\alpha^* = \max_{|\mathrm{supp}\,p_X|\le n} I(X;Y)$ (the sup over
# $p_{U,X}$ is attained by deterministic $X = f(U)$; a derived fact, not in the paper). It has a
# closed form for the RR, checked against Blahut–Arimoto on every subset of inputs.

# %%
tight = []
for n_, k_, e_ in [(3, 8, 1.0), (8, 8, 2.0), (20, 8, 4.0), (5, 50, 3.0)]:
    brute = pie.restricted_capacity(grr_channel(k_, e_), n_) if math.comb(k_, min(n_, k_)) <= 200 else float("nan")
    tight.append(dict(n=n_, k=k_, eps=e_, alpha_star=pie.alpha_star_rr(n_, k_, e_), alpha_star_BA=brute,
                      thm42=pie.alpha_rr(e_, n_, k_), prop41=pie.alpha_ldp_generic(e_, n_, k_)))
tight = pd.DataFrame(tight)
display(tight.round(4))
spec_t = np.array([[0.0864, 0.2802, 1.4427], [0.6348, 1.3321, 2.8854], [2.1702, 2.6104, 3.0], [0.4676, 0.6415, 2.3219]])
ours_t = tight[["alpha_star", "thm42", "prop41"]].to_numpy()
ba_ok = np.all(np.isnan(tight.alpha_star_BA) | np.isclose(tight.alpha_star_BA, tight.alpha_star, atol=1e-8))
report.check("T11c", "alpha* <= alpha(Thm 4.2) <= alpha(Prop 4.1) on the spec's 4 cases (exact values to 1e-4)",
             paper="ordering (spec-derived values)", ours=np.round(ours_t, 4).tolist(),
             passed=bool(np.allclose(ours_t, spec_t, atol=1e-4) and np.all(ours_t[:, 0] <= ours_t[:, 1])
                         and np.all(ours_t[:, 1] <= ours_t[:, 2]) and ba_ok),
             tolerance="1e-4 bits; closed form = brute-force Blahut-Arimoto to 1e-8")

# Lemma B.2: capacities of the k-RR (nats)
caps = pd.DataFrame({e: [channel_capacity(grr_channel(k, e), unit="nats")[0] for k in (2, 3, 5, 10, 50)]
                     for e in (0.1, 1.0, 5.0)}, index=pd.Index([2, 3, 5, 10, 50], name="k"))
display(caps.round(5).rename(columns=lambda e: f"C(RR), eps={e} (nats)"))
spec_caps = np.array([[0.00125, 0.1109, 0.653], [0.00113, 0.1233, 1.019], [0.00083, 0.1092, 1.452],
                      [0.00047, 0.0734, 1.958], [0.00010, 0.0188, 2.386]])
report.check("T9b", "Lemma B.2: capacity of the k-RR <= min(eps, eps^2) nats (spec's capacity table)",
             paper="bound holds", ours=f"max C/bound = {np.max(caps.to_numpy() / np.minimum([0.1, 1, 5], np.square([0.1, 1, 5]))):.3f}",
             passed=bool(np.all(caps.to_numpy() <= np.minimum([0.1, 1, 5], np.square([0.1, 1, 5])))
                         and np.allclose(caps.to_numpy(), spec_caps, rtol=6e-3, atol=6e-6)),
             tolerance="bound exact; table values to 3 significant digits")

# %% [markdown]
# **Thm 3.2 (PSE as $n\to\infty$) and Prop. 3.7 with Gaussian scores.** With a genuine score
# $\sim N(d,1)$ and $n-1$ impostor scores $\sim N(0,1)$, $I(U;\mathbf S)\to D(f_G\|f_I) =
# d^2/(2\ln 2)$ bits; Monte Carlo of the exact posterior (spec A13).

# %%
g_reps = {"smoke": 400, "book": 2000, "paper": 20000}[SCALE]
gmc = []
for n_ in (100, 1000) if SCALE == "smoke" else (100, 1000, 10000):
    for d_ in (2.0, 3.0):
        r = pie_pie.gaussian_score_mc(n_, d_, g_reps if n_ < 10000 else g_reps // 4, rng=rng)
        gmc.append(dict(n=n_, d=d_, I_n=r["mi_bits"], se=r["mi_se"], D_bits=r["d_bits"], log2n=math.log2(n_),
                        bayes=r["bayes_error"], fano_lb=pie.fano_lower_bound(r["mi_bits"], n_)))
gmc = pd.DataFrame(gmc)
display(gmc.round(4))
g3 = gmc[(gmc.d == 3.0) & (gmc.n == 100)].iloc[0]
report.check_close("T1", "Thm 3.2: I(U;S) at n = 100, d = 3 (Gaussian scores; spec sim 4.96)", paper=4.96,
                   ours=g3.I_n, atol=4 * g3.se + 0.02, note="Monte Carlo; tolerance 4 SE + 0.02 bits")
report.check("T1b", "Thm 3.2: I_n increases towards D(f_G||f_I) and stays <= log n (d = 3)", paper="I_n -> 6.49 bits",
             ours=gmc[gmc.d == 3.0].I_n.round(3).tolist(),
             passed=bool(np.all(np.diff(gmc[gmc.d == 3.0].I_n) > 0) and np.all(gmc.I_n <= gmc.log2n + 3 * gmc.se)
                         and np.all(gmc.I_n <= gmc.D_bits + 3 * gmc.se + 0.02)),
             tolerance="monotone in n for d = 3; <= min(log n, D) within 3 SE")
g2 = gmc[(gmc.d == 2.0) & (gmc.n == 100)].iloc[0]
report.check_close("T5c", "Prop 3.7 worked example (spec sim): Gaussian scores d = 2, n = 100: I(U;S) = 2.665 bits",
                   paper=2.665, ours=g2.I_n, atol=4 * g2.se + 0.02, note="Monte Carlo; tolerance 4 SE + 0.02 bits")
report.check("T5b", "Prop 3.7: Bayes error >= Fano bound (Gaussian scores)", paper="holds",
             ours=f"min gap {np.min(gmc.bayes - gmc.fano_lb):.3f}", passed=bool(np.all(gmc.bayes >= gmc.fano_lb)),
             tolerance="every (n, d)")

# %% [markdown]
# ## LDP versus PIE privacy (Fig. 4)
#
# Any $\varepsilon$-LDP mechanism gives (Prop. 4.1, from Lemma B.2 and the DPI)
# $\alpha = \min\{\varepsilon\log e,\ \varepsilon^2\log e,\ \log n,\ \log k\}$ (Eq. 14). The RR and
# the GLH are mixtures of the identity (probability $\theta$) and uniform noise, and joint convexity
# of the KL divergence gives $I(U;Y)\le\theta\,I(U;X)$ (Eqs. 15, 17), hence
#
# $$
# \alpha_{RR} = \theta_{RR}\min\{\log n,\log k\},\quad \theta_{RR} = \frac{e^\varepsilon-1}{k+e^\varepsilon-1};
# \qquad \alpha_{GLH} = \theta_{GLH}\min\{\log n,\log k\},\quad \theta_{GLH} = \frac{e^\varepsilon-1}{g+e^\varepsilon-1}.
# $$
#
# Fig. 4 uses the LT sizes $n = 1{,}370{,}637$, $k = 10{,}500{,}393$; we add Thm 4.4 with $g=10^8$.

# %%
eps_small, eps_large = np.linspace(0.05, 1, 96), np.linspace(1, 20, 191)
fig, axes = plt.subplots(1, 2, figsize=(10, 4))
for ax, e in zip(axes, (eps_small, eps_large)):
    ax.semilogy(e, pie.alpha_ldp_generic(e, N_LT, K_LT), color="k", label="Prop 4.1 (any eps-LDP)")
    ax.semilogy(e, pie.alpha_rr(e, N_LT, K_LT), color=color("rr"), label="Thm 4.2 (eps-RR)")
    ax.semilogy(e, pie.alpha_glh(e, N_LT, K_LT, 1e8), color=color("glh"), ls="--", label="Thm 4.4 (GLH, g = 1e8)")
    ax.set_xlabel("epsilon (LDP)"); ax.set_ylabel("alpha in PIE privacy (bits)")
axes[0].set_title("small epsilon"); axes[1].set_title("large epsilon"); axes[0].legend()
paper_title(fig, "Fig. 4", f"alpha of PIE privacy vs epsilon (n = {N_LT:,}, k = {K_LT:,})")
plt.show()

eps_tab = [0.05, 0.1, 0.2, 0.5, 1, 2, 5, 8, 10, 12, 12.72, 14, 16, 16.17, 18, 20]
fig4 = pd.DataFrame({"eps": eps_tab, "alpha_Prop4.1": pie.alpha_ldp_generic(eps_tab, N_LT, K_LT),
                     "theta_RR": pie.theta_rr(K_LT, eps_tab), "alpha_Thm4.2": pie.alpha_rr(eps_tab, N_LT, K_LT),
                     "alpha_Thm4.4(g=1e8)": pie.alpha_glh(eps_tab, N_LT, K_LT, 1e8)})
for c in ["Prop4.1", "Thm4.2", "Thm4.4(g=1e8)"]:
    fig4[f"beta_lb_{c}"] = pie.fano_lower_bound(fig4[f"alpha_{c}"].to_numpy(), N_LT)
display(fig4.set_index("eps").map(lambda v: f"{v:.4g}"))

for e, p41, p42 in [(0.1, 0.014, 2.0e-7), (1, 1.4, 3.3e-6), (10, 14, 0.043)]:
    report.check_close(f"F4-P41-{e}", f"Fig. 4: alpha of Prop 4.1 at eps = {e} (bits)", paper=p41,
                       ours=float(pie.alpha_ldp_generic(e, N_LT, K_LT)), rtol=0.05,
                       note="paper rounds to 2 significant digits")
    report.check_close(f"F4-T42-{e}", f"Fig. 4: alpha of Thm 4.2 at eps = {e} (bits)", paper=p42,
                       ours=float(pie.alpha_rr(e, N_LT, K_LT)), rtol=0.05,
                       note="paper rounds to 2 significant digits")
spec_fig4 = {  # spec table (derived): eps -> (Prop 4.1, Thm 4.2, Thm 4.4)
    0.05: (0.003607, 9.954e-08, 1.045e-08), 0.5: (0.3607, 1.259e-06, 1.323e-07), 2: (2.885, 1.240e-05, 1.302e-06),
    5: (7.213, 2.862e-04, 3.005e-05), 12: (17.31, 0.3112, 0.03313), 14: (20.20, 2.095, 0.2423),
    16.17: (20.39, 10.21, 1.943), 20: (20.39, 19.95, 16.90)}
dev = max(abs(fig4.set_index("eps").loc[e, col] / v - 1) for e, vals in spec_fig4.items()
          for col, v in zip(["alpha_Prop4.1", "alpha_Thm4.2", "alpha_Thm4.4(g=1e8)"], vals))
report.check("F4-table", "Fig. 4 full table (spec, 4 significant digits) incl. Thm 4.4 at g = 1e8",
             paper="spec table", ours=f"max rel. deviation {dev:.1e}", passed=bool(dev < 1e-3),
             tolerance="rel 1e-3 (table printed to 4 digits)")
e_grid = np.linspace(0.05, 10, 500)
gap = np.min(pie.alpha_ldp_generic(e_grid, N_LT, K_LT) / pie.alpha_rr(e_grid, N_LT, K_LT))
report.check("F4-gap", "Thm 4.2 much smaller than Prop 4.1 for all eps <= 10", paper="much smaller",
             ours=f"min ratio {gap:.0f}", passed=bool(gap >= 100), tolerance=">= 2 orders of magnitude")
lb_t42 = pie.fano_lower_bound(pie.alpha_rr(12.72, N_LT, K_LT), N_LT)
lb_p41 = pie.fano_lower_bound(pie.alpha_ldp_generic(10, N_LT, K_LT), N_LT)
report.check("F9-LB", "LB(Thm 4.2) >= 0.92 up to eps = 12.72 while LB(Prop 4.1) < 0.25 at eps = 10 (paper n, k)",
             paper=">= 0.92 / < 0.25", ours=f"{lb_t42:.4f} / {lb_p41:.4f}",
             passed=bool(lb_t42 >= 0.92 and lb_p41 < 0.25), tolerance="analytic")
th05 = pie.fano_lower_bound(0.5 * math.log2(N_LT), N_LT)
report.check_close("T15", "theta = 0.5 guarantees beta > 0.5 (n = 1,370,637)", paper=0.5, ours=th05, atol=1e-4,
                   expected=0.4509, note="only asymptotic: the exact bound is 0.5 - 1/log n = 0.4509 for the LT n")
mu1 = pie_pie.rr_params(2, 1.0)[0]
report.check_close("T21", "RR diagonal at eps = 1 'smaller than 0.73 for any k >= 2'", paper=0.73, ours=mu1,
                   atol=1e-4, expected=0.7311, note="k = 2 gives e/(1+e) = 0.7311 > 0.73; true only up to rounding")
report.check_close("T21b", "e^10 = 22026", paper=22026, ours=math.exp(10), atol=0.5)

# %% [markdown]
# ## Utility of the RR and the GLH for distribution estimation (Section 4.4)
#
# Each of $n$ users sends one report; $\mathbf p$ is the empirical distribution of their data. The
# empirical (matrix-inversion) estimator $\hat p(x) = (c(x)/n - \nu)/(\mu-\nu)$ (Eqs. 19–20; $\nu_{GLH}=1/g$)
# is unbiased and its expected $l_2$ loss is (Props. 4.6, 4.7)
#
# $$
# \mathbb E[(p(x)-\hat p_{RR}(x))^2] = \frac{k+e^\varepsilon-2}{n(e^\varepsilon-1)^2} + \frac{p(x)(k-2)}{n(e^\varepsilon-1)},\qquad
# \mathbb E[(p(x)-\hat p_{GLH}(x))^2] = \frac{(g+e^\varepsilon-1)^2}{n(e^\varepsilon-1)^2(g-1)} + \frac{p(x)(g^2-2g-e^\varepsilon+1)}{n(e^\varepsilon-1)(g-1)}.
# $$
#
# At fixed $\theta_{GLH}$ (a fixed PIE guarantee) Eq. (23) becomes
# $\frac{1-p(x)\theta}{n\theta^2(g-1)} + \frac{p(x)(1-\theta)}{n\theta}$ (Eq. 51), **decreasing in
# $g$** (Thm 4.8), the opposite of the LDP-optimal $g = e^\varepsilon+1$ at fixed $\varepsilon$.
# First the formulas against Monte Carlo (exact count-level simulators; $n=5000$, $k=20$, Zipf(1.1)):

# %%
n_v, k_v, R_v = 5000, 20, SIZES["var_reps"]
c_v = pie_pie.sample_empirical(pie_pie.zipf_profile(k_v, 1.1), n_v, rng=rng)
p_v = c_v / n_v
rows = []
for mech, par in [("rr", None), ("glh", 2), ("glh", 5), ("glh", 50)]:
    for eps in (0.5, 1.0, 2.0, 4.0):
        if mech == "rr":
            mu, nu = pie_pie.rr_params(k_v, eps)
            sims = np.array([pie_pie.simulate_rr_counts(c_v, eps, rng=rng) for _ in range(R_v)])
            theory = pie_pie.rr_variance(p_v, n_v, k_v, eps)
        else:
            mu, nu = pie_pie.glh_params(par, eps)
            sims = np.array([pie_pie.simulate_glh_support_counts(c_v, par, eps, rng=rng) for _ in range(R_v)])
            theory = pie_pie.glh_variance(p_v, n_v, par, eps)
        est = pie_pie.empirical_estimate(sims, n_v, mu, nu)
        ratio = est.var(axis=0, ddof=1) / theory
        z = np.abs(est.mean(axis=0) - p_v) / (est.std(axis=0, ddof=1) / math.sqrt(R_v))
        rows.append(dict(mech=mech if par is None else f"glh g={par}", eps=eps, min_ratio=ratio.min(),
                         max_ratio=ratio.max(), max_bias_z=z.max()))
var_tab = pd.DataFrame(rows)
display(var_tab.round(3))
# Var of a sample variance: rel. SE ~ sqrt(2/R); 20 symbols x 16 settings -> 5 SE (two-sided 6e-7 per cell)
var_tol = 5 * math.sqrt(2 / (R_v - 1))
report.check("T16-17", "Props 4.6/4.7: MC variance of emp = Eqs. (22)/(23) for every x (RR; GLH g = 2, 5, 50)",
             paper="exact formulas", ours=f"ratio in [{var_tab.min_ratio.min():.3f}, {var_tab.max_ratio.max():.3f}]",
             passed=bool(np.all(np.abs(var_tab[["min_ratio", "max_ratio"]] - 1) <= var_tol)),
             tolerance=f"|ratio - 1| <= 5 SE = {var_tol:.3f} ({R_v} runs; spec: 10% at 4000 runs)")
report.check("T16-17b", "emp is unbiased (every x, every setting)", paper="unbiased",
             ours=f"max |bias|/SE = {var_tab.max_bias_z.max():.2f}", passed=bool(var_tab.max_bias_z.max() <= 5.5),
             tolerance="<= 5.5 SE (320 cells; false-alarm ~1e-5)")

# the same check with explicit hashing (core local hashing: per-user seeds, support counts over all x)
from ldpnb.mechanisms import lh_perturb, lh_support_counts  # noqa: E402
x_v = np.repeat(np.arange(k_v), c_v)
R_h = max(100, R_v // 10)
g_h, e_h = 5, 2.0
mu_h, nu_h = pie_pie.glh_params(g_h, e_h)
est_h = np.array([pie_pie.empirical_estimate(lh_support_counts(*lh_perturb(x_v, k_v, e_h, g_h, rng=rng), k_v, g_h),
                                         n_v, mu_h, nu_h) for _ in range(R_h)])
ratio_h = est_h.var(axis=0, ddof=1).sum() / pie_pie.glh_variance(p_v, n_v, g_h, e_h).sum()
tol_h = 5 * math.sqrt(2 / (R_h - 1))
report.check("T17-hash", "Prop 4.7 with explicit hashing (g = 5, eps = 2): summed MC variance = Eq. (23)",
             paper="exact formula", ours=f"ratio {ratio_h:.3f} ({R_h} runs)", passed=bool(abs(ratio_h - 1) <= tol_h),
             tolerance=f"|ratio - 1| <= {tol_h:.3f} (5 SE of a variance estimate); the hash family of "
                       "ldpnb.mechanisms is pairwise independent up to g/P rounding")

# Thm 4.8 / T19 / T20, analytic
gs = np.array([2, 3, 10, 1e3, 1e4, 1e6, 1e8, 1e10, 1e12])
v48 = pie_pie.glh_variance_fixed_theta(0.01, 1000, gs, 0.5)
eps48 = pie.eps_from_theta(0.5, gs)
ident = np.max(np.abs(pie_pie.glh_variance(0.01, 1000, gs[:7], eps48[:7]) / v48[:7] - 1))
report.check("T18", "Thm 4.8: Eq. (23) = Eq. (51) at fixed theta; strictly decreasing in g; limit Eq. (24)",
             paper="decreasing, limit p(1-theta)/(n theta)",
             ours=f"identity {ident:.1e}, limit dev {abs(v48[-1] / pie_pie.glh_variance_limit(0.01, 1000, 0.5) - 1):.1e}",
             passed=bool(ident < 1e-9 and np.all(np.diff(v48) < 0)
                         and abs(v48[-1] / pie_pie.glh_variance_limit(0.01, 1000, 0.5) - 1) < 1e-6),
             tolerance="identity 1e-9, limit 1e-6 relative")
from scipy.optimize import minimize_scalar  # noqa: E402
gopt = [minimize_scalar(lambda g, e=e: float(pie_pie.glh_variance(0.0, 1, g, e)), bounds=(1.0001, 60 * math.exp(e)),
                        method="bounded", options={"xatol": 1e-10}).x / (math.exp(e) + 1) - 1 for e in (0.5, 1, 2, 4, 8)]
report.check("T19", "LDP-optimal g for fixed eps = e^eps + 1 (first term of Eq. 23; Wang et al.)", paper="e^eps + 1",
             ours=f"max rel dev {np.max(np.abs(gopt)):.1e}", passed=bool(np.max(np.abs(gopt)) < 1e-5),
             tolerance="1e-5 relative")
t20 = []
for kk in (10, 1e3, 1e7):
    e_ = pie.eps_from_theta(0.5, kk)
    t20.append(abs((pie_pie.rr_variance(0.01, 1, kk, e_) - pie_pie.rr_variance(0, 1, kk, e_)) / pie_pie.glh_variance_limit(0.01, 1, 0.5) - 1))
report.check("T20", "Equal theta: second term of Eq. (22) -> RHS of Eq. (24) as k grows (ratio (k-2)/k)",
             paper="RR ~ GLH for popular symbols", ours=np.round(t20, 8).tolist(),
             passed=bool(t20[0] > t20[1] > t20[2] and t20[2] < 1e-6), tolerance="relative difference decreasing to < 1e-6")

# %% [markdown]
# ### 5.1 Utility at the paper's scale (Figs. 10–12)
#
# The paper's LT set (Foursquare, $n = 1{,}370{,}637$ users, $k = 10{,}500{,}393$ POIs) is not
# public. We draw a **synthetic population** of the same size: each user's single datum (the
# first location of the latter half of her trace in the paper) is a draw from a Zipf(0.75) POI
# popularity over all $k$ POIs. The spec calibrates the exponent so that the top-100 POIs hold
# about 4% of the reports (the paper's "$l_2$ loss $10^{-6}$ at $\varepsilon\approx 12.7$" implies
# 4.3%). Reports are simulated **exactly at count level** (spec A3): the RR keeps each user's value
# with probability $\theta_{RR}$ (one binomial per occupied cell) and otherwise draws uniformly; with
# a truly random hash family the GLH support counts are independent
# $\mathrm{Bin}(np(x),\mu_{GLH}) + \mathrm{Bin}(n(1-p(x)), 1/g)$. emp+thr zeroes every estimate
# below the Bonferroni threshold $T = \Phi^{-1}(1-0.05/k)\sqrt{\mathrm{Var}_0}$ (the paper does not
# print its threshold; this is the standard choice, spec Section 2.6).

# %%
t_u = time.perf_counter()
NU, KU = SIZES["util_n"], SIZES["util_k"]
POP = dict(n=NU, k=KU, s=0.75, pop_seed=SEED)
pop = pie_pie.synthetic_population(NU, KU, 0.75, seed=SEED)
top100 = pop.tops[100]
P100, P20 = pop.p[top100].sum(), pop.p[pop.tops[20]].sum()
print(f"n = {NU:,}, k = {KU:,}; occupied POIs {pop.nz.size:,}; top-100 mass {P100:.4f}, top-20 mass {P20:.4f}")


def run_grid(mech, eps_list, reps, g=None, keep_top=(), seed=0):
    """All (eps, repetition) runs of one mechanism: ldpnb.parallel.sweep with per-task seeds."""
    tasks = [dict(POP, mech=mech, eps=e, g=g, rep=r, keep=(e in keep_top and r == 0))
             for e in eps_list for r in range(reps)]
    return sweep(pie_pie.utility_task, tasks, seed=np.random.SeedSequence([SEED, seed]), n_jobs=SIZES["n_jobs"])


EPS10 = SIZES["eps10"]
util = (run_grid("rr", EPS10, SIZES["reps10"], keep_top=(10, 12.72), seed=10)
        + run_grid("glh", EPS10, SIZES["reps10"], g=1e8, seed=11))
U10 = pd.DataFrame([{k if isinstance(k, str) else f"{k[0]}_{k[1] or 'all'}": v for k, v in r.items()
                     if k != "top_thr"} for r in util])
M10 = U10.groupby(["mech", "eps"]).mean(numeric_only=True)
print(f"Fig. 10 runs: {len(util)} in {time.perf_counter() - t_u:.0f} s")

# %%
def analytic_sum(mech, eps, phi_idx, g=None):
    """Expected emp loss summed over the top-phi set (Eqs. 22/23 are affine in p(x))."""
    m, size = (1.0, KU) if phi_idx is None else (pop.p[phi_idx].sum(), len(phi_idx))
    if mech == "rr":
        return pie_pie.rr_loss_sum(m, size, NU, KU, eps)
    return pie_pie.glh_loss_sum(m, size, NU, g, eps)


def beta_axis(mech, eps, g=None):
    a = pie.alpha_rr(eps, NU, KU) if mech == "rr" else pie.alpha_glh(eps, NU, KU, g)
    return pie.fano_lower_bound(a, NU)


fig, axes = plt.subplots(2, 2, figsize=(11, 8))
e_fine = np.linspace(min(EPS10), max(EPS10), 200)
STYLE10 = {("rr", "emp"): ("#0072B2", "o", "-"), ("rr", "thr"): ("#56B4E9", "o", "-"),
           ("glh", "emp"): ("#009E73", "s", "--"), ("glh", "thr"): ("#CC79A7", "s", "--")}
for row, (phi, lab) in enumerate([(100, "top 100 POIs"), (None, "all k POIs")]):
    key = "100" if phi else "all"
    for mech, g in [("rr", None), ("glh", 1e8)]:
        m = M10.loc[mech]
        name = "RR" if mech == "rr" else "GLH (g = 1e8)"
        for est, elab in [("emp", "emp"), ("thr", "emp+thr")]:
            c_, mk, ls = STYLE10[(mech, est)]
            for ax, x in [(axes[row, 0], m.index.to_numpy()), (axes[row, 1], beta_axis(mech, m.index.to_numpy(), g))]:
                ax.semilogy(x, m[f"{est}_{key}"], ls=ls, marker=mk, ms=4, color=c_, label=f"{name}, {elab} (simulated)")
        an = analytic_sum(mech, e_fine, top100 if phi else None, g)
        axes[row, 0].semilogy(e_fine, an, ls=":", color="0.3", lw=1,
                              label=f"{name}, emp: Eq. ({22 if mech == 'rr' else 23})")
        axes[row, 1].semilogy(beta_axis(mech, e_fine, g), an, ls=":", color="0.3", lw=1)
    axes[row, 0].set_xlabel("epsilon (LDP)")
    axes[row, 1].set_xlabel(r"guaranteed Bayes error: lower bound on $\beta_{U|S}$ (Cor 3.9 + Thm 4.2/4.4)")
    for ax in axes[row]:
        ax.set_ylabel(f"sum of l2 losses, {lab}")
        ax.axhline(1e-6, color="k", lw=0.5, ls="-.")
    axes[row, 1].set_xlim(0, 1)
axes[0, 0].legend(fontsize=7, ncol=1)
paper_title(fig, "Fig. 10", f"l2 loss vs epsilon and vs the PIE guarantee (synthetic population, n = {NU:,}, k = {KU:,})")
plt.show()

# %%
# targets of the spec (Section 7.5), recomputed for the actual n and k of this scale
rr = M10.loc["rr"]
lt = np.log10(rr["thr_100"].to_numpy())
es = rr.index.to_numpy()
cross = np.flatnonzero((lt[:-1] > -6) & (lt[1:] <= -6))
eps_1e6 = float(np.interp(-6, lt[cross[0]:cross[0] + 2][::-1], es[cross[0]:cross[0] + 2][::-1])) if cross.size else float("nan")
beta_1e6 = float(beta_axis("rr", eps_1e6)) if np.isfinite(eps_1e6) else float("nan")
an_1e6 = []
for e in (10, 12, 12.72, 14):
    an_1e6.append(analytic_sum("rr", e, top100))
if NU == N_LT:
    report.check("F10a", "Fig. 10(a): eps at which RR emp+thr top-100 loss reaches 1e-6", paper="> 12",
                 ours=round(eps_1e6, 2), passed=bool(12 <= eps_1e6 <= 13.2),
                 tolerance="in [12, 13.2] (spec 7.5; synthetic Zipf(0.75) population)")
    report.check("F10b", "Fig. 10(a): the same loss corresponds to a PIE guarantee beta > 0.92", paper=0.92,
                 ours=round(beta_1e6, 4), passed=bool(0.90 <= beta_1e6 <= 0.94), tolerance="in [0.90, 0.94]")
    m_an = float(np.max(np.abs(rr.loc[[10, 12, 12.72, 14], "emp_100"].to_numpy() / np.array(an_1e6) - 1)))
    report.check("F10c", "RR emp top-100 loss: simulation vs Eq. (22) at eps = 10, 12, 12.72, 14", paper="Eq. (22)",
                 ours=f"max rel dev {m_an:.2f}", passed=bool(m_an < 0.5 / math.sqrt(SIZES['reps10']) + 0.2),
                 tolerance="0.5/sqrt(R) + 0.2 (single-run top-100 losses fluctuate by about +-50%)")
    r10 = U10[(U10.mech == "rr") & (U10.eps == 10)]
    report.check("F10d", "emp+thr improves emp for all k at eps = 10 (RR)", paper="improves",
                 ours=f"{r10.emp_all.mean():.3g} -> {r10.thr_all.mean():.3g}",
                 passed=bool(r10.thr_all.mean() < r10.emp_all.mean() / 10), tolerance="at least 10x smaller")
else:
    report.not_evaluated("F10a", "Fig. 10(a): eps for loss 1e-6 (paper > 12)", paper="> 12",
                         note=f"smoke scale uses n = {NU:,}, k = {KU:,}; the targets hold for the paper's n, k only")

# %% [markdown]
# **Fig. 11.** The top-20 POIs with the emp+thr estimates of the RR at $\varepsilon=10$ (LDP) and at
# the $\varepsilon$ giving the PIE guarantee $\beta_{U|\mathbf S}>0.92$ ($\theta_{RR}=0.0309$,
# $\varepsilon = 12.72$ at the paper's $n$, $k$).

# %%
r_eps10 = next(r for r in util if r["mech"] == "rr" and r["eps"] == 10 and "top_thr" in r)
r_pie = next(r for r in util if r["mech"] == "rr" and r["eps"] == 12.72 and "top_thr" in r)
top20 = pop.tops[20]
fig, ax = plt.subplots(figsize=(11, 4))
xx = np.arange(20)
ax.bar(xx - 0.27, pop.p[top20], 0.27, color="#D55E00", label="true p(x)")
ax.bar(xx, r_eps10["top_thr"], 0.27, color="white", ec="k", label="RR, eps = 10 (emp+thr)")
ax.bar(xx + 0.27, r_pie["top_thr"], 0.27, color=color("rr"), label="RR, beta > 0.92 guaranteed (eps = 12.72, emp+thr)")
ax.set_xticks(xx, [str(i + 1) for i in xx]); ax.set_xlabel("POI rank (by true probability)"); ax.set_ylabel("probability")
ax.legend()
rel10 = U10[(U10.mech == "rr") & (U10.eps == 10)].rel_thr.mean()
relp = U10[(U10.mech == "rr") & (U10.eps == 12.72)].rel_thr.mean()
paper_title(fig, "Fig. 11", f"top-20 POIs and emp+thr estimates (mean rel. error {rel10:.2f} vs {relp:.2f}; synthetic)")
plt.show()
if NU == N_LT:
    report.check("F11a", "Fig. 11: RR emp+thr mean relative error on the top 20 at eps = 10", paper=1.05,
                 ours=round(rel10, 3), passed=bool(rel10 >= 0.6),
                 tolerance=">= 0.6 (spec 7.5): the synthetic population's top 20 differ from the Foursquare top 20",
                 note="exact value depends on the real top-20 probabilities; spec sim 0.82")
    report.check("F11b", "Fig. 11: RR emp+thr mean relative error with beta > 0.92 (eps = 12.72)", paper=0.10,
                 ours=round(relp, 3), passed=bool(relp <= 0.2), tolerance="<= 0.2 (spec 7.5)")
    report.check("F11c", "Fig. 11: PIE guarantee improves the relative error by a large factor", paper="1.05 vs 0.10",
                 ours=round(rel10 / relp, 2), passed=bool(rel10 / relp >= 4), tolerance="ratio >= 4")

# %% [markdown]
# **Fig. 12.** At a fixed PIE guarantee $\theta_{RR}=\theta_{GLH}=0.5$ ($\beta_{U|\mathbf S}>0.5 - 1/\log n$):
# the GLH with $\varepsilon = \ln(1+g)$ for each $g$, the RR at $\varepsilon=\ln(1+k)$. One caveat of
# emp+thr for the GLH with $g \gg n$: the support count of a zero-probability POI is then 0 or 1
# (Poisson with mean $n/g$), and a single hash collision gives $\hat p(x)\approx (g/n-1)/(e^\varepsilon-1)$,
# above the Gaussian threshold, so thresholding removes little of the all-$k$ loss there.

# %%
t_12 = time.perf_counter()
G12 = SIZES["g12"]
u12 = run_grid("rr", [pie.eps_from_theta(0.5, KU)], SIZES["reps12"], seed=12)
for j, g in enumerate(G12):
    u12 += run_grid("glh", [pie.eps_from_theta(0.5, g)], SIZES["reps12"], g=g, seed=13 + j)
U12 = pd.DataFrame([{k if isinstance(k, str) else f"{k[0]}_{k[1] or 'all'}": v for k, v in r.items()} for r in u12])
U12["g"] = U12["g"].fillna(0)
M12 = U12.groupby(["mech", "g"]).agg(["mean", "sem"])
print(f"Fig. 12 runs: {len(u12)} in {time.perf_counter() - t_12:.0f} s")
eps_rr05 = pie.eps_from_theta(0.5, KU)
an12 = {phi: (analytic_sum("rr", eps_rr05, top100 if phi else None),
              analytic_sum("glh", pie.eps_from_theta(0.5, np.asarray(G12)), top100 if phi else None, np.asarray(G12)))
        for phi in (100, None)}
g_fine = np.logspace(3, math.log10(2e9), 60)
fig, axes = plt.subplots(1, 2, figsize=(11, 4))
for ax, (phi, key, lab) in zip(axes, [(100, "100", "top 100 POIs"), (None, "all", "all k POIs")]):
    glh = M12.loc["glh"]
    for est, col in [("emp", "emp"), ("thr", "emp+thr")]:
        ax.errorbar(G12, glh[(f"{est}_{key}", "mean")], yerr=glh[(f"{est}_{key}", "sem")], color=color(col), marker="s",
                    ms=4, ls="--", label=f"GLH, {col}")
        ax.axhline(M12.loc[("rr", 0), (f"{est}_{key}", "mean")], color=color(col), ls="-", label=f"RR, {col}")
    ax.loglog(g_fine, analytic_sum("glh", pie.eps_from_theta(0.5, g_fine), top100 if phi else None, g_fine),
              color="0.4", lw=0.8, label="GLH emp: Eq. (51)")
    ax.axhline(an12[phi][0], color="0.4", lw=0.8, ls=":", label="RR emp: Eq. (22)")
    ax.set_xscale("log"); ax.set_yscale("log")
    ax.set_xlabel("g (GLH hash range)"); ax.set_ylabel(f"sum of l2 losses, {lab}")
axes[0].legend(fontsize=7)
paper_title(fig, "Fig. 12", f"l2 loss vs g at theta_RR = theta_GLH = 0.5 (beta > 0.5 guaranteed; synthetic, n = {NU:,})")
plt.show()

# %%
glh = M12.loc["glh"]
PAPER_SIZE = NU == N_LT and KU == K_LT
mc_all, se_all = glh[("emp_all", "mean")].to_numpy(), glh[("emp_all", "sem")].to_numpy()
mc_100, se_100 = glh[("emp_100", "mean")].to_numpy(), glh[("emp_100", "sem")].to_numpy()
R12 = SIZES["reps12"]
if R12 >= 2:
    z_all = np.max(np.abs(mc_all - an12[None][1]) / se_all)
    z_100 = np.max(np.abs(mc_100 - an12[100][1]) / se_100)
    report.check("F12a", "Fig. 12 / Thm 4.8: GLH emp loss decreasing in g (Eq. 51) and simulations agree with it",
                 paper="decreasing in g", ours=f"analytic strictly decreasing: {bool(np.all(np.diff(an12[None][1]) < 0))}; "
                 f"max |MC - Eq.51|/SE: all {z_all:.1f}, top-100 {z_100:.1f}",
                 passed=bool(np.all(np.diff(an12[None][1]) < 0) and np.all(np.diff(an12[100][1]) < 0)
                             and z_all <= 4.5 and z_100 <= 4.5),
                 tolerance=f"MC within 4.5 SE of Eq. (51) at every g ({R12} runs; 16 comparisons)")
big = np.asarray(G12) >= 1e6
if not PAPER_SIZE:
    for rid in ("F12b", "F12c", "F12d", "F12e"):
        report.not_evaluated(rid, f"Fig. 12 claim {rid}", paper="see paper",
                             note=f"smoke scale uses n = {NU:,}, k = {KU:,}; the targets hold for the paper's n, k only")
else:
    rel_an = np.max(np.abs(an12[100][1][big] / an12[100][0] - 1))
    report.check("F12b", "phi = 100: GLH (g >= 1e6) has almost the same utility as the RR (analytic, Eqs. 22/23)",
                 paper="almost the same", ours=f"max rel diff {rel_an:.4f}", passed=bool(rel_an <= 0.01), tolerance="<= 1%")
    rr100 = M12.loc[("rr", 0), ("emp_100", "mean")]
    rel_mc = np.max(np.abs(mc_100[big] / rr100 - 1))
    report.check("F12c", "phi = 100: GLH (g >= 1e6) vs RR, Monte Carlo means", paper="almost the same",
                 ours=f"max rel diff {rel_mc:.3f} ({R12} runs)",
                 passed=bool(rel_mc <= 0.25 * math.sqrt(10 / min(max(R12, 1), 10))),
                 tolerance=f"25% at >= 10 runs (spec), scaled by sqrt(10/R) at R = {R12}")
    i2e9 = int(np.argmax(G12))
    ratio_an = an12[None][0] / an12[None][1][i2e9]
    ratio_mc = M12.loc[("rr", 0), ("emp_all", "mean")] / mc_all[i2e9]
    report.check("F12d", "phi = k, emp: GLH (g = 2e9) slightly better than the RR", paper="slightly better",
                 ours=f"RR/GLH = {ratio_mc:.2f} (MC), {ratio_an:.2f} (analytic)",
                 passed=bool(2 <= ratio_mc <= 4 and 2 <= ratio_an <= 4), tolerance="factor in [2, 4] (spec; analytic 2.9)")
    thr_ratio = M12.loc[("rr", 0), ("thr_all", "mean")] / glh[("thr_all", "mean")].to_numpy()[big]
    report.check("F12e", "phi = k, emp+thr: RR and large-g GLH almost the same", paper="almost the same",
                 ours=f"RR/GLH in [{thr_ratio.min():.2f}, {thr_ratio.max():.2f}] for g >= 1e6",
                 passed=bool(np.all((thr_ratio >= 0.5) & (thr_ratio <= 2))), tolerance="within a factor 2")
print(f"utility total {time.perf_counter() - t_u:.0f} s; elapsed {time.perf_counter() - T0:.0f} s")
pop = None

# %% [markdown]
# ## Identifiability of real traces (Figs. 5–9)
#
# **Data.** LT: Gowalla check-ins in a New York box (SNAP `loc-gowalla`, 138,957 check-ins),
# users with at least 10 check-ins, each trace in time order and split into a former half
# (training) and a latter half ($X$). RH: MovieLens `ml-latest-small`, ratings $\ge 4$ ("likes"),
# users with at least 10 likes, the like-history in time order. The paper's populations are
# 1,370,637 (LT, Foursquare) and 185,107 users (RH, full `ml-latest`); ours are about 2,500 and
# 580. **What this changes:** $\log n$ (the ceiling of $I(U;\cdot)$ and of every Fano bound) drops
# from 20.4 to about 11.3 bits; the PSE itself, $D(f_G\|f_I)$, is the $n\to\infty$ value and is
# comparable across populations, but its estimate is noisier (fewer genuine scores), and a
# smaller population with fewer, shorter traces makes single locations less identifying than in
# the paper.
#
# **Matcher.** A first-order Markov chain per user with MLE visit probabilities $\pi_j$ and
# transitions $\Lambda_j$, every zero replaced by $10^{-8}$; the score of a query $y_{1..L}$ is
# $\ln\tilde\pi_j(y_1)+\sum_t\ln\tilde\Lambda_j(y_{t+1}|y_t)$ (sparse products for all pairs at
# once). **PSE** $= D(f_G\|f_I)$ between the genuine and impostor score distributions, estimated
# with the $k$-NN divergence estimator of Wang, Kulkarni and Verdú (bias-reduced) made tie-aware:
# the scores have large atoms (all impostors with no overlap score exactly $L\ln 10^{-8}$), which
# are handled exactly, the continuous remainder by $k$-NN (chain rule of KL).

# %%
t_id = time.perf_counter()
gw = load_gowalla_nyc()
lt_seqs, lt_uid, lt_items = pid.sequences_from_events(gw.user.to_numpy(), gw.time.dt.tz_localize(None).to_numpy().astype("int64"),
                                                      gw.location_id.to_numpy(), min_events=10)
ml = load_movielens_latest_small().ratings
likes = ml[ml.rating >= 4.0]
rh_seqs, rh_uid, rh_items = pid.sequences_from_events(likes.user.to_numpy(), likes.timestamp.to_numpy(),
                                                      likes.item.to_numpy(), min_events=10)
K_GW, K_ML = len(lt_items), len(rh_items)
lt_all_train = [pid.split_halves(s)[0] for s in lt_seqs]   # Fig. 6 uses every eligible user at every scale
lt_all_X = [pid.split_halves(s)[1] for s in lt_seqs]
if SIZES["lt_users"] is not None and SIZES["lt_users"] < len(lt_seqs):
    keep = np.sort(rng.choice(len(lt_seqs), SIZES["lt_users"], replace=False))
    lt_seqs = [lt_seqs[i] for i in keep]
lt_train = [pid.split_halves(s)[0] for s in lt_seqs]
lt_X = [pid.split_halves(s)[1] for s in lt_seqs]
N_GW, N_ML = len(lt_seqs), len(rh_seqs)
lens = np.array([len(s) for s in lt_seqs])
display(pd.DataFrame({
    "LT (Gowalla NYC)": [N_GW, K_GW, int(np.median(lens)), round(math.log2(N_GW), 2), "1,370,637 / 10,500,393"],
    "RH (MovieLens small, likes)": [N_ML, K_ML, int(np.median([len(s) for s in rh_seqs])), round(math.log2(N_ML), 2),
                                    "185,107 / 58,098"]},
    index=["users n", "items k", "median events/user", "log2 n", "paper n / k"]))

# %% [markdown]
# ### 6.1 Maximum knowledge (Fig. 5)
#
# The adversary trains on $X$ itself (LT: the latter half; RH: the whole like-history). Left: each
# user sends $Y=X$; right: the first $t=1..5$ events of $X$.

# %%
fig5 = {}
for name, seqs, k_ in [("LT", lt_X, K_GW), ("RH", rh_seqs, K_ML)]:
    fig5[(name, "all")] = pid.score_experiment(seqs, seqs, k_)
    for t in range(1, 6):
        fig5[(name, t)] = pid.score_experiment(seqs, [s[:t] for s in seqs], k_)
F5 = pd.DataFrame({f"{a}, Y = {'X' if b == 'all' else f'first {b}'}": dict(PSE_bits=r["pse"], error_rate=r["error_rate"])
                   for (a, b), r in fig5.items()}).T
display(F5.round(3))
pse_lt_t = [fig5[("LT", t)]["pse"] for t in range(1, 6)]
pse_rh_t = [fig5[("RH", t)]["pse"] for t in range(1, 6)]
report.check("F5a", "Fig. 5 (right): PSE increases with the number of released events t (LT and RH)",
             paper="increasing", ours=f"LT {np.round(pse_lt_t, 2).tolist()}; RH {np.round(pse_rh_t, 2).tolist()}",
             passed=bool(np.all(np.diff(pse_lt_t) > -0.1) and np.all(np.diff(pse_rh_t) > -0.1)),
             tolerance=f"non-decreasing up to 0.1 bit estimator noise (real data, n = {N_GW} / {N_ML})")

# %% [markdown]
# The paper reports $D(f_G\|f_I)$ "for very large $n$" and says it checked that the estimate
# converges as the number of users grows. The same check on our traces (random user subsets,
# maximum knowledge, LT):

# %%
conv_n = [n_ for n_ in (250, 500, 1000, 2000) if n_ < N_GW] + [N_GW]
conv = {}
for t in (1, 3):
    for n_ in conv_n:
        idx = np.sort(rng.choice(N_GW, n_, replace=False)) if n_ < N_GW else np.arange(N_GW)
        sub = [lt_X[i] for i in idx]
        conv[(t, n_)] = pid.score_experiment(sub, [s_[:t] for s_ in sub], K_GW)["pse"]
fig, ax = plt.subplots(figsize=(6.5, 3.8))
for t, mk in [(1, "o"), (3, "s")]:
    ax.plot(conv_n, [conv[(t, n_)] for n_ in conv_n], marker=mk, label=f"LT, Y = first {t} location(s) of X")
ax.plot(conv_n, np.log2(conv_n), "k:", label="log2 n (ceiling of I(U;S) at n users)")
ax.set_xscale("log"); ax.set_xlabel("number of users n (random subsets)"); ax.set_ylabel("PSE estimate (bits)")
ax.legend(fontsize=8)
paper_title(ax, "Fig. 5 (supplement)", "convergence of the PSE estimate with the number of users")
plt.show()
d_last = {t: abs(conv[(t, conv_n[-1])] - conv[(t, conv_n[-2])]) for t in (1, 3)}
report.check("F5-conv", "PSE estimate D(f_G||f_I) converges as the number of users increases (paper's check)",
             paper="converges", ours=f"change between the two largest n: t=1 {d_last[1]:.2f}, t=3 {d_last[3]:.2f} bits",
             passed=bool(max(d_last.values()) <= 1.0),
             tolerance=f"<= 1 bit between n = {conv_n[-2]} and {conv_n[-1]}")

# %% [markdown]
# ### 6.2 Partial knowledge (Fig. 6) and DET curves (Fig. 7)
#
# LT: users whose former half holds at least 50 check-ins (the paper: $\ge 1{,}000$ check-ins and
# 100–500 training events; our traces are about ten times shorter, so we scale the training
# sizes to $m\in\{10,\dots,50\}$, the first $m$ events of the former half); $Y=X$ is the whole
# latter half, disjoint from the training data. RH: users with at least 100 likes (paper: 500),
# training = the first $m\in\{1,\dots,5\}$ likes of $X$, $Y=X$.

# %%
M_LT = [10, 20, 30, 40, 50]
sel = [i for i, s in enumerate(lt_all_train) if len(s) >= max(M_LT)]
lt_p_X = [lt_all_X[i] for i in sel]
fig6 = {("LT", m): pid.score_experiment([lt_all_train[i][:m] for i in sel], lt_p_X, K_GW, max_impostors=400_000, rng=rng)
        for m in M_LT}
rh_sel = [s for s in rh_seqs if len(s) >= 100]
fig6.update({("RH", m): pid.score_experiment([s[:m] for s in rh_sel], rh_sel, K_ML) for m in range(1, 6)})
F6 = pd.DataFrame({f"{a}, m = {b}": dict(users=r["n_users"], PSE_bits=r["pse"], error_rate=r["error_rate"])
                   for (a, b), r in fig6.items()}).T
display(F6.round(3))
pse6_lt = [fig6[("LT", m)]["pse"] for m in M_LT]
pse6_rh = [fig6[("RH", m)]["pse"] for m in range(1, 6)]
report.check("F6a", "Fig. 6: PSE increases with the number of training events (LT, partial knowledge)",
             paper="increasing", ours=np.round(pse6_lt, 2).tolist(), passed=bool(np.all(np.diff(pse6_lt) > -0.1)),
             tolerance=f"non-decreasing up to 0.1 bit estimator noise ({len(sel)} users)")
err6_rh = [fig6[("RH", m)]["error_rate"] for m in range(1, 6)]
claim6b = "Fig. 6: PSE increases with the number of training events (RH, partial knowledge)"
if np.all(np.diff(pse6_rh) > -0.1):
    report.check("F6b", claim6b, paper="increasing", ours=np.round(pse6_rh, 2).tolist(), passed=True,
                 tolerance=f"non-decreasing up to 0.1 bit estimator noise ({len(rh_sel)} users)")
else:
    report.diverges("F6b", claim6b, paper="increasing",
                    ours=f"PSE {np.round(pse6_rh, 2).tolist()}, error rate {np.round(err6_rh, 3).tolist()}",
                    tolerance="non-decreasing up to 0.1 bit",
                    note=(f"with {len(rh_sel)} users the genuine and impostor scores separate completely from m = 3-4 "
                          "on (best-score error -> 0); a k-NN estimate from so few genuine scores then plateaus and "
                          "wobbles instead of growing. What holds: PSE rises by > 1 bit from m = 1 to 2 and the "
                          "identification error is non-increasing in m"),
                    holds=bool(pse6_rh[1] - pse6_rh[0] > 1 and np.all(np.diff(err6_rh) <= 1e-12)))

# %% [markdown]
# **Biometric reference levels — synthetic illustrations, not data.** The paper compares with
# a face matcher (NIST BSSR1), a fingerprint matcher (CASIA-FPV5 + VeriFinger) and a finger-vein
# matcher; none of these score sets is public. Following the spec, we draw Gaussian score models
# $f_I=N(0,1)$, $f_G=(1-w)N(\mu,1)+wN(0,1)$ whose divergence is placed **by construction** where
# the paper's text puts them: *Face* between our LT PSE at the two smallest training sizes,
# *FP* at our LT PSE for $t=3$ released locations with a 7% failure mass (the FRR floor of the
# paper's FP), *FV* at 12.5 bits ($> \log 3030$). The estimator then recovers their analytic PSE,
# which only validates the estimator; the comparisons with biometrics are **not evaluated**.

# %%
bio_n = SIZES["bio_n"]
bio_spec = {"Face (synthetic)": (0.5 * (pse6_lt[0] + pse6_lt[1]), 0.0), "FP (synthetic)": (pse_lt_t[2], 0.07),
            "FV (synthetic)": (12.5, 0.0)}
bio = {}
bio_m = SIZES["bio_m"]
for name, (d_bits, w) in bio_spec.items():
    mu_ = pid_measures.mu_for_kl_bits(d_bits, w)
    reps_b = []
    for _ in range(3):   # three independent score sets; the PSE is their mean estimate
        gen, imp = pid_pie.synth_biometric_scores(bio_n, mu_, fail_rate=w, n_impostor=bio_m, rng=rng)
        reps_b.append(pid_measures.kl_knn_1d(gen, imp))
    bio[name] = dict(target=d_bits, mu=mu_, w=w, pse=float(np.mean(reps_b)), sd=float(np.std(reps_b, ddof=1)),
                     genuine=gen, impostor=imp[:1_000_000])
display(pd.DataFrame({k: {kk: v[kk] for kk in ("target", "mu", "w", "pse", "sd")} for k, v in bio.items()}).T.round(3))
bio_err = max(abs(v["pse"] / v["target"] - 1) for v in bio.values())
report.check("BIO-est", "k-NN estimator recovers the analytic D of the synthetic score models", paper="(method check)",
             ours="max relative error {:.3f} (est/D: {})".format(
                 bio_err, ", ".join("{:.2f}/{:.2f}".format(v["pse"], v["target"]) for v in bio.values())),
             passed=bool(bio_err <= 0.10),
             tolerance=f"10% relative (the k-NN estimate is biased low when D is large: few impostors near the "
                       f"genuine scores; n = {bio_n} genuine, M = {bio_m:,} impostor scores, mean of 3 score sets)")
for rid, claim in [("F5-FP", "Fig. 5: LT and RH have almost the same identifiability as a commercial fingerprint matcher"),
                   ("F5-3loc", "Fig. 5: three locations give about the fingerprint PSE (maximum knowledge)"),
                   ("F6-face", "Fig. 6: PSE(LT) > PSE(Face) for >= 200 training locations, PSE(RH) > PSE(Face) for >= 3 ratings"),
                   ("F7-face", "Fig. 7: LT (500 training locations) has lower FAR and FRR than the NIST face matcher G"),
                   ("F5-FV", "Fig. 5: finger-vein PSE exceeds log 3030 = 11.6 bits")]:
    report.not_evaluated(rid, claim, paper="see paper",
                         note="the biometric score sets (NIST BSSR1, CASIA-FPV5 + VeriFinger, Hitachi FV) are not "
                              "public; our biometric levels are synthetic and placed by construction")

# %%
fig, axes = plt.subplots(1, 2, figsize=(11, 4))
ax = axes[0]
labels = ["LT", "RH"] + list(bio)
vals = [fig5[("LT", "all")]["pse"], fig5[("RH", "all")]["pse"]] + [b["pse"] for b in bio.values()]
bars = ax.bar(labels, vals, color=[color("rr"), color("glh")] + ["0.85"] * 3, ec="k")
for b in bars[2:]:
    b.set_hatch("//")
ax.axhline(math.log2(N_GW), color="k", ls=":", lw=0.8, label=f"log2 n (LT) = {math.log2(N_GW):.1f}")
ax.set_ylabel("PSE = D(f_G || f_I) (bits)"); ax.set_title("each user sends Y = X"); ax.legend(fontsize=8)
ax.tick_params(axis="x", labelsize=8)
ax = axes[1]
ax.plot(range(1, 6), pse_lt_t, "o-", color=color("rr"), label="LT (Gowalla NYC)")
ax.plot(range(1, 6), pse_rh_t, "s-", color=color("glh"), label="RH (MovieLens likes)")
for (name, b), ls in zip(bio.items(), [":", "--", "-."]):
    ax.axhline(b["pse"], color="0.5", ls=ls, label=name)
ax.set_xlabel("number t of released events (first t of X)"); ax.set_ylabel("PSE (bits)")
ax.set_title("each user sends the first t events"); ax.legend(fontsize=7)
paper_title(fig, "Fig. 5", "PSE in the maximum-knowledge model (real LT / RH; biometrics synthetic)")
plt.show()

fig, axes = plt.subplots(1, 2, figsize=(11, 4))
axes[0].plot(M_LT, pse6_lt, "o-", color=color("rr"), label=f"LT ({len(sel)} users)")
axes[0].set_xlabel("number of training locations m (former half)")
axes[1].plot(range(1, 6), pse6_rh, "s-", color=color("glh"), label=f"RH ({len(rh_sel)} users)")
axes[1].set_xlabel("number of training likes m (first m of X)")
for ax in axes:
    ax.axhline(bio["Face (synthetic)"]["pse"], color="0.5", ls=":", label="Face (synthetic, placed by construction)")
    ax.set_ylabel("PSE (bits)"); ax.legend(fontsize=8)
paper_title(fig, "Fig. 6", "PSE in the partial-knowledge model (Y = X; real LT / RH)")
plt.show()

# %%
fig, ax = plt.subplots(figsize=(6.5, 5))
det = {}
for name, r, st in [(f"LT, m = {M_LT[-1]} training locations", fig6[("LT", M_LT[-1])], "-"),
                    (f"LT, m = {M_LT[0]} (weaker)", fig6[("LT", M_LT[0])], "--")]:
    _, far, frr = pid_measures.det_curve(r["genuine"], r["impostor"])
    det[name] = (far, frr)
    ax.loglog(np.maximum(far, 1e-7), np.maximum(frr, 1e-4), st, color=color("rr"), label=name, drawstyle="steps-post")
for (name, b), c in zip(bio.items(), ["#7F7F7F", "#8C564B", "#BCBD22"]):
    _, far, frr = pid_measures.det_curve(b["genuine"], b["impostor"])
    ax.loglog(np.maximum(far, 1e-7), np.maximum(frr, 1e-4), color=c, ls=":", label=name)
ax.scatter([0.01, 0.1], [0.15, 0.1], marker="x", color="k", zorder=5, label="FRPC 2017 best face matcher (paper's text)")
ax.set_xlabel("FAR (false acceptance rate)"); ax.set_ylabel("FRR (false rejection rate)")
ax.set_xlim(1e-6, 1); ax.set_ylim(1e-3, 1.05); ax.legend(fontsize=7)
paper_title(ax, "Fig. 7", "DET curves, partial knowledge (LT real; biometrics synthetic)")
plt.show()
frr_s = [pid_measures.frr_at_far(fig6[("LT", m)]["genuine"], fig6[("LT", m)]["impostor"], 0.01) for m in (M_LT[-1], M_LT[0])]
report.check("F7a", "Fig. 7: the longer-training LT DET curve dominates a weaker matcher (FRR at FAR = 1%)",
             paper="LT(500) below Face", ours=f"FRR@1%: m={M_LT[-1]}: {frr_s[0]:.3f}, m={M_LT[0]}: {frr_s[1]:.3f}",
             passed=bool(frr_s[0] < frr_s[1]), tolerance="strictly lower FRR at FAR = 1%")
print(f"identification (Figs 5-7): {time.perf_counter() - t_id:.0f} s; elapsed {time.perf_counter() - T0:.0f} s")

# %% [markdown]
# ### 6.3 One obfuscated location per user (Figs. 8, 9)
#
# Each LT user obfuscates the first location of the latter half with the $\varepsilon$-RR or the
# $(g,\varepsilon)$-GLH; the adversary trains on the former half. For a report with preimage set
# $P$ ($\{y\}$ for the RR, $h^{-1}(y)$ for the GLH) the score of user $j$ is
# $\sum_{x\in P}\tilde\pi_j(x)$, monotone in the exact likelihood. The paper's GLH uses $g=10^8$
# for $k = 1.05\times 10^7$; we keep the ratio $|\mathcal X|/g \approx 0.1$ with $g = 10k$. The GLH is
# simulated with a random-oracle hash (the preimage holds $x_i$ with probability $\mu_{GLH}$ and
# $\mathrm{Bin}(k-1,1/g)$ other POIs).
#
# For the RR the score distributions are mixtures, $f_G=\theta f^0_G+(1-\theta)u$ and
# $f_I=\theta f^0_I+(1-\theta)u$ with $u$ the score law of a uniformly random location, so the PSE
# $D(f_G\|f_I)$ and the expected error rate are computed **exactly** for every $\varepsilon$. For
# the GLH they are Monte Carlo estimates; values below the estimator's resolution (its value on
# reports independent of the users: twice the largest of 10 such estimates) are not plotted or
# compared.

# %%
t_89 = time.perf_counter()
pi_train = pid.MarkovChainMatcher().fit(lt_train, K_GW).pi
x_first = np.array([s[0] for s in lt_X])
att = pid.SingleLocationAttack(pi_train, x_first)
EPS8 = np.array(SIZES["eps8"], dtype=float)
G8 = 10 * K_GW
rr_ex = att.rr_exact(EPS8)
mc = {m: [att.simulate(m, e, g=G8 if m == "glh" else None, reps=SIZES["mc_reps"], rng=rng) for e in EPS8]
      for m in ("rr", "glh")}
pse_mc = {m: np.array([pid_measures.kl_mixed_1d(r["genuine"], r["impostor"], impostor_weights=r["impostor_weights"])
                       for r in mc[m]]) for m in mc}
pse_null = {}
n_null = 10
for m in mc:   # estimator resolution: the largest of 10 estimates on reports independent of the users
    nulls = []
    for _ in range(n_null):
        nul = att.simulate(m, 1e-9, g=G8 if m == "glh" else None, reps=SIZES["mc_reps"], rng=rng)
        nulls.append(pid_measures.kl_mixed_1d(nul["genuine"], nul["impostor"], impostor_weights=nul["impostor_weights"]))
    pse_null[m] = max(nulls)
resolvable = {m: pse_mc[m] > 2 * pse_null[m] for m in mc}
a41 = pie.alpha_ldp_generic(EPS8, N_GW, K_GW)
a42 = pie.alpha_rr(EPS8, N_GW, K_GW)
a44 = pie.alpha_glh(EPS8, N_GW, K_GW, G8)
T8 = pd.DataFrame({"eps": EPS8, "alpha_Prop4.1": a41, "alpha_Thm4.2": a42, "PSE_RR_exact": rr_ex["pse"],
                   "PSE_RR_MC": pse_mc["rr"], "alpha_Thm4.4": a44, "PSE_GLH_MC": pse_mc["glh"],
                   "err_RR_exact": rr_ex["error_rate"], "err_RR_MC": [r["error_rate"] for r in mc["rr"]],
                   "err_GLH_MC": [r["error_rate"] for r in mc["glh"]]}).set_index("eps")
display(T8.map(lambda v: f"{v:.3g}"))
print(f"n = {N_GW}, k = {K_GW}, g = {G8}; estimator resolution (null PSE) RR {pse_null['rr']:.2e}, "
      f"GLH {pse_null['glh']:.2e} bits; "
      f"clean error rate (no noise) {rr_ex['err_clean']:.3f}; {time.perf_counter() - t_89:.0f} s")

# %%
e8f = np.linspace(0.05, max(EPS8), 300)
a41f, a42f, a44f = (pie.alpha_ldp_generic(e8f, N_GW, K_GW), pie.alpha_rr(e8f, N_GW, K_GW),
                    pie.alpha_glh(e8f, N_GW, K_GW, G8))
fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
for ax, m, a_thm, lab in [(axes[0], "rr", a42f, "Thm 4.2"), (axes[1], "glh", a44f, "Thm 4.4")]:
    ax.semilogy(e8f, a41f, "k-", label="alpha, Prop 4.1")
    ax.semilogy(e8f, a_thm, "-", color=color(m), label=f"alpha, {lab}")
    if m == "rr":
        ax.semilogy(EPS8, rr_ex["pse"], "o-", color="#D55E00", label="PSE (exact mixture)")
    ok = resolvable[m]
    ax.semilogy(EPS8[ok], pse_mc[m][ok], "x", color="#D55E00", ms=8, label="PSE (Monte Carlo, resolvable)")
    ax.axhline(pse_null[m], color="0.6", ls=":", lw=0.8, label="estimator resolution")
    ax.set_xlabel("epsilon"); ax.set_title("eps-RR" if m == "rr" else f"(g, eps)-GLH, g = {G8:,}")
axes[0].set_ylabel("bits"); axes[0].legend(fontsize=7); axes[1].legend(fontsize=7)
paper_title(fig, "Fig. 8", f"upper bounds (alpha) and lower bound (PSE) on the PIE (Gowalla NYC, n = {N_GW:,}, k = {K_GW:,})")
plt.show()

lb = lambda I: pie.fano_lower_bound(np.maximum(I, 0), N_GW)  # noqa: E731
fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
for ax, m, a_thm, lab in [(axes[0], "rr", a42f, "Thm 4.2"), (axes[1], "glh", a44f, "Thm 4.4")]:
    err = np.array([r["error_rate"] for r in mc[m]])
    ax.plot(EPS8, err, "o", color="#D55E00", label="identification error rate (simulated)")
    if m == "rr":
        ax.plot(EPS8, rr_ex["error_rate"], "-", color="#D55E00", lw=1, label="identification error rate (exact)")
        ax.plot(EPS8, lb(rr_ex["pse"]), "-", color=color("rr"), label="lower bound (PSE), Eq. 10")
    else:
        ok = resolvable[m]
        ax.plot(EPS8[ok], lb(pse_mc[m][ok]), "s-", color=color("glh"), label="lower bound (PSE, MC), Eq. 10")
    ax.plot(e8f, lb(a_thm), "k-", label=f"lower bound ({lab}), Eq. 12")
    ax.plot(e8f, lb(a41f), "k--", label="lower bound (Prop 4.1), Eq. 12")
    ax.set_xlabel("epsilon"); ax.set_ylim(-0.1, 1.02)
    ax.set_title("eps-RR" if m == "rr" else f"(g, eps)-GLH, g = {G8:,}")
axes[0].set_ylabel("error probability"); axes[0].legend(fontsize=7)
paper_title(fig, "Fig. 9", "identification error rate and its lower bounds (Gowalla NYC, one location per user)")
plt.show()

# %%
sl = 1e-9
ok_rr = bool(np.all(rr_ex["pse"] <= a42 + sl) and np.all(a42 <= a41 + sl))
r_g = resolvable["glh"]
ok_glh = bool(np.all(pse_mc["glh"][r_g] <= a44[r_g]) and np.all(a44 <= a41 + sl))
report.check("F8a", "Fig. 8: PSE <= alpha(Thm 4.2) <= alpha(Prop 4.1) at every eps (RR, exact PSE)", paper="holds",
             ours=f"max PSE/alpha = {np.max(rr_ex['pse'] / a42):.3f}", passed=ok_rr, tolerance="every eps of the grid")
report.check("F8b", "Fig. 8: PSE <= alpha(Thm 4.4) <= alpha(Prop 4.1) at every resolvable eps (GLH, MC PSE)",
             paper="holds", ours=f"{int(r_g.sum())} resolvable eps; max PSE/alpha = "
             f"{np.max(pse_mc['glh'][r_g] / a44[r_g]) if r_g.any() else float('nan'):.3f}",
             passed=ok_glh and bool(r_g.any()), tolerance="every resolvable eps (PSE > 2 x the largest of 10 null estimates)")
cmp = resolvable["rr"] & (rr_ex["theta"] <= 0.6)
mc_rr_dev = np.abs(pse_mc["rr"] - rr_ex["pse"])[cmp]
report.check("F8c", "RR: Monte Carlo PSE (tie-aware k-NN) agrees with the exact mixture PSE", paper="(method check)",
             ours=f"max |MC - exact| = {mc_rr_dev.max() if mc_rr_dev.size else float('nan'):.3f} bits "
                  f"({int(cmp.sum())} eps)",
             passed=bool(mc_rr_dev.size and mc_rr_dev.max() <= 0.35),
             tolerance="<= 0.35 bits at resolvable eps with theta_RR <= 0.6",
             note=("for theta -> 1 the exact plug-in on this population's score pmfs grows like "
                   "P(genuine value unseen among impostors) x log 1/(1-theta); no finite-sample estimator "
                   "resolves that tail, so the comparison stops at theta = 0.6"))
ratio_close = float(np.max(a42[EPS8 >= 10] / rr_ex["pse"][EPS8 >= 10]))
if ratio_close <= 10:
    report.check("F8d", "Fig. 8: the RR/GLH upper bounds are close to the PSE (fairly tight)", paper="close",
                 ours=f"alpha(Thm 4.2)/PSE <= {ratio_close:.1f} for eps >= 10", passed=True,
                 tolerance="within one order of magnitude for eps >= 10")
else:
    report.diverges("F8d", "Fig. 8: the RR/GLH upper bounds are close to the PSE (fairly tight)", paper="close",
                    ours=f"alpha(Thm 4.2)/PSE up to {ratio_close:.1f} for eps >= 10",
                    tolerance="within one order of magnitude for eps >= 10",
                    note=("one Gowalla location identifies a user far less than one Foursquare location in the paper "
                          f"(clean best-score error {rr_ex['err_clean']:.2f} with the former-half model), so the PSE "
                          "saturates near D(f_G^0||f_I^0) while alpha grows to log n; the bounds remain valid"),
                    holds=ok_rr)
err_rr = rr_ex["error_rate"]
lb_pse = lb(rr_ex["pse"])
report.check("F9a", "Fig. 9: error rate >= LB(PSE) >= LB(Thm 4.2) >= LB(Prop 4.1) where Prop 4.1 is larger (RR, exact)",
             paper="ordering", ours=f"min gaps {np.min(err_rr - lb_pse):.3f}, {np.min(lb_pse - lb(a42)):.3f}",
             passed=bool(np.all(err_rr >= lb_pse) and np.all(lb_pse >= lb(a42) - sl) and np.all(lb(a42) >= lb(a41) - sl)),
             tolerance="every eps")
err_g = np.array([r["error_rate"] for r in mc["glh"]])
se_g = np.array([r["error_se"] for r in mc["glh"]])
report.check("F9b", "Fig. 9: error rate >= LB(PSE) >= LB(Thm 4.4) (GLH, Monte Carlo, resolvable eps)", paper="ordering",
             ours=f"min gap err - LB(PSE) = {np.min((err_g - lb(pse_mc['glh']))[r_g]) if r_g.any() else float('nan'):.3f}",
             passed=bool(r_g.any() and np.all((err_g + 3 * se_g >= lb(pse_mc["glh"]))[r_g])
                         and np.all((lb(pse_mc["glh"]) >= lb(a44))[r_g])),
             tolerance="every resolvable eps (error within 3 SE)")
# per-report correctness is a [0, 1] variable with mean p: its SD is at most sqrt(p(1-p)) (the sample SD
# misses the rare correct guesses among thousands of tied users, so we use this bound)
n_rep = SIZES["mc_reps"] * N_GW
z_err = np.abs(np.array([r["error_rate"] for r in mc["rr"]]) - err_rr) / np.sqrt(err_rr * (1 - err_rr) / n_rep)
print("RR error rate, |MC - exact|/SE per eps:", np.round(z_err, 2))
report.check("F9c", "RR: simulated error rate = exact expected error rate", paper="(method check)",
             ours=f"max |z| = {z_err.max():.2f}", passed=bool(z_err.max() <= 4.5),
             tolerance=f"4.5 SE ({len(EPS8)} eps, {SIZES['mc_reps']} x n reports each)")
print(f"Figs 8-9: {time.perf_counter() - t_89:.0f} s; elapsed {time.perf_counter() - T0:.0f} s")

# %% [markdown]
# ## Discussion

# %%
display(Markdown(f"""
* **Theory.** Every proposition and theorem holds on all {SIZES['draws']} random instances, with the
  RR constant nearly attained (max ratio {tab.loc['Thm 4.2 (Eq. 15)', 'max_ratio']:.3f}). Fig. 4 is
  reproduced exactly; the two numbers of the Cor. 3.9 example are in nats, not bits, and Eq. (11)
  has a sign typo.
* **Utility at the paper's scale.** With the synthetic population (top-100 mass {P100:.3f}) the
  RR with emp+thr reaches a top-100 loss of $10^{{-6}}$ at eps = {eps_1e6:.2f}, i.e. a PIE guarantee
  beta >= {beta_1e6:.3f}; at eps = 10 (LDP) the top-20 relative error is {rel10:.2f} against
  {relp:.2f} under the beta > 0.92 guarantee (paper: 1.05 vs 0.10). Our eps = 10 error is lower than
  the paper's because a Zipf population is smoother than the real Foursquare top 20.
* **Identification on real traces.** One released Gowalla location, with the adversary trained on
  the other half of the trace, identifies users poorly (best-score error {rr_ex['err_clean']:.2f}
  without any noise), so the PSE of one obfuscated location saturates near
  {rr_ex['pse'][-1]:.2f} bits while alpha grows to log n = {math.log2(N_GW):.1f} bits: the bounds
  of Thms 4.2 and 4.4 hold at every eps but are about ten times looser here than in the paper.
  With maximum knowledge, by contrast, {pse_lt_t[2]:.1f} bits are released by three locations and
  {pse_rh_t[2]:.1f} bits by three likes, and the best-score error is
  {fig5[('LT', 3)]['error_rate']:.3f} / {fig5[('RH', 3)]['error_rate']:.3f}.
* **Not reproduced.** Every comparison with the face, fingerprint and finger-vein matchers (no public
  score sets; our biometric levels are synthetic and placed by construction).
"""))

# %% [markdown]
# ## Reproduction report
#
# Analytic rows (worked examples, Fig. 4, theorem checks) are exact at every scale. The
# utility rows use the paper's $n$ and $k$ with a synthetic population and are evaluated at book
# and paper scale (smoke uses $n/100$, $k/100$). The identification rows use the real Gowalla and
# MovieLens traces; every comparison with a biometric system is not evaluated (no public data).

# %%
print(f"total {time.perf_counter() - T0:.0f} s")
report.finalize()
