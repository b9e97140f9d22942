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
# # The risks of collecting multidimensional data under LDP
#
# This chapter reproduces H. H. Arcolezi, S. Gambs, J.-F. Couchot and C. Palamidessi, *On the
# Risks of Collecting Multidimensional Data Under Local Differential Privacy*, PVLDB 16(5),
# 2023 {cite}`arcolezi2023risks`. A server collects $d$ categorical attributes from $n$ users, repeatedly, under
# $\epsilon$-LDP. Three multidimensional solutions are compared:
#
# * **SPL** splits $\epsilon$ over the $d$ attributes;
# * **SMP** samples one attribute $j\sim\mathcal U([d])$ and discloses $\langle j,
#   \mathcal M(v_j;\epsilon)\rangle$;
# * **RS+FD** {cite}`arcolezi2021rsfd` samples $j$, reports $v_j$ with the amplified budget
#   $\epsilon' = \ln\big(d(e^{\epsilon}-1)+1\big)$ and sends *uniform fake data* for the other
#   attributes, so that $j$ is hidden.
#
# The paper shows that (i) a plausible-deniability attacker profiles SMP users over repeated
# surveys and re-identifies them against background knowledge, (ii) a classifier uncovers
# RS+FD's hidden sampled attribute because real data are not uniform, and (iii) proposes
# **RS+RFD**, whose fake data follow public priors. Every number below is recomputed from
# `ldpnb.multidim` and `ldpnb.attacks` on the real Adult (45,222 x 10) and ACS Montana
# (10,336 x 18) tables {cite}`kohavi1996adult,ding2021folktables`, and on Nursery's full factorial design.

# %% tags=["parameters"]
SCALE = "book"  # "smoke" (seconds, tests) | "book" (the published book, minutes) | "paper"
SEED = 2024

# %%
import time
from math import factorial

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from ldpnb import attacks as at
from ldpnb.papers.risks import experiments as at_experiments
from ldpnb import measures as at_measures
from ldpnb import data as ds
from ldpnb import mechanisms as md
from ldpnb.papers import risks as md_risks
from ldpnb.repro.parallel import sweep
from ldpnb.repro.plotting import color, set_style
from ldpnb.repro.legacy import Report

threadpool_limits(1)  # the book builds chapters on one core each; tiny BLAS calls are faster single-threaded
set_style()
report = Report("multidim_risks", scale=SCALE)
T0 = time.time()
rng = np.random.default_rng(SEED)
# one integer seed per experiment: protocols compared in one experiment share survey designs,
# PK subsets and random streams (common random numbers)
SEEDS = np.random.SeedSequence(SEED).generate_state(16)

EPS_ALL = list(range(1, 11))
SIZES = {
    "smoke": dict(rid_eps=[2, 10], rid_prots=["grr", "oue"], rid_runs=1, head_runs=1, h4_runs=2, acs_eps=[10],
                  acs_prots=["grr", "oue"], nu_prots=["grr"], nu_eps=[10], pie_betas=[0.95, 0.6],
                  pie_prots=["grr"], aif_eps=[1, 10], aif_eps_small=[10], aif_runs=1, pk_fracs=(0.1, 0.5),
                  xgb_eps=[1, 10], xgb_trees=10, xgb_train=2000, xgb_trees_small=10, xgb_train_small=2000,
                  fig4_eps=[4, 10], fig4_runs=1,
                  mse_runs=2, mse_runs_inc=1, prior_draws=2, rfd_eps=[10]),
    "book": dict(rid_eps=[1, 2, 4, 6, 8, 10], rid_prots=["grr", "ss", "olh", "oue", "sue"], rid_runs=1,
                 head_runs=6, h4_runs=10, acs_eps=[1, 2, 4, 6, 8, 10], acs_prots=["grr", "ss", "olh", "oue", "sue"],
                 nu_prots=["grr", "ss", "olh", "oue", "sue"], nu_eps=[1, 2, 4, 6, 8, 10], pie_betas=[0.95, 0.9, 0.85, 0.75, 0.6],
                 pie_prots=["grr", "ss", "olh", "oue", "sue"], aif_eps=[1, 2, 4, 6, 8, 10], aif_eps_small=[1, 2, 4, 6, 10],
                 aif_runs=1, pk_fracs=(0.1, 0.3, 0.5), xgb_eps=[1, 10], xgb_trees=30, xgb_train=10_000,
                 xgb_trees_small=20, xgb_train_small=5000,
                 fig4_eps=[1, 4, 7, 10], fig4_runs=2, mse_runs=20, mse_runs_inc=5, prior_draws=10, rfd_eps=[1, 2, 4, 6, 8, 10]),
    "paper": dict(rid_eps=EPS_ALL, rid_prots=["grr", "ss", "olh", "oue", "sue"], rid_runs=20, head_runs=20, h4_runs=20,
                  acs_eps=EPS_ALL, acs_prots=["grr", "ss", "olh", "oue", "sue"],
                  nu_prots=["grr", "ss", "olh", "oue", "sue"], nu_eps=EPS_ALL,
                  pie_betas=[0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5],
                  pie_prots=["grr", "ss", "olh", "oue", "sue"], aif_eps=EPS_ALL, aif_eps_small=EPS_ALL,
                  aif_runs=20, pk_fracs=(0.1, 0.3, 0.5), xgb_eps=EPS_ALL, xgb_trees=None, xgb_train=None,
                  xgb_trees_small=None, xgb_train_small=None,
                  fig4_eps=EPS_ALL, fig4_runs=20, mse_runs=20, mse_runs_inc=20, prior_draws=100, rfd_eps=EPS_ALL),
}[SCALE]
N_JOBS = {"smoke": 1, "book": 1, "paper": None}[SCALE]  # paper scale: all cores (ldpnb.parallel.sweep)


def par(func, tasks):
    """Run func(task) over tasks (in parallel at paper scale); experiments carry their own seeds."""
    return sweep(lambda task, _rng: func(task), list(tasks), seed=SEED, n_jobs=N_JOBS)


NAMES = {"grr": "GRR", "ss": "ω-SS", "olh": "OLH", "oue": "OUE", "sue": "SUE"}

adult_df, adult_ks = ds.load_adult_risks()
acs_df, acs_ks = ds.load_acs_employment()
nur_df, nur_ks = ds.make_nursery()
XA, KA = adult_df.to_numpy(), np.array(adult_ks)
XC, KC = acs_df.to_numpy(), np.array(acs_ks)
XN, KN = nur_df.to_numpy(), np.array(nur_ks)
print(f"Adult {XA.shape}, k = {adult_ks}\nACS {XC.shape}, k = {acs_ks}\nNursery {XN.shape}, k = {nur_ks}")

# %% [markdown]
# **Scales.** `smoke` runs every cell on tiny grids (seconds; statistical rows that need many
# runs are marked not-evaluated). `book` keeps the full datasets and the exact-expectation RID
# ranking, uses ε ∈ {1, 2, 4, 6, 8, 10} (Figs. 2, 9, 10, 11), the paper's five protocols in
# Figs. 9–13, one survey design per figure plus 6–10 independent runs for the headline numbers,
# 20 runs for utility, the Bayes attackers on the full grids and XGBoost at ε ∈ {1, 10} (ACS:
# 30 trees, ≤ 10,000 training rows, NK/PK/HM; Adult and Nursery: 20 trees, ≤ 5,000 rows, NK/PK). `paper` uses the paper's grids,
# 20 runs, XGBoost's defaults on all three datasets, in parallel. Analytic rows are exact at every
# scale; each statistical row states its tolerance and the number of runs behind it.
#
# ## Plausible deniability: how often one report gives the value away
#
# For one report of attribute $j$ the attacker guesses $\hat v = y$ (GRR), a uniform element of
# the support set (ω-SS: the subset; UE: the set bits; OLH: the hash pre-image) or, if it is
# empty, a uniform value. The expected accuracies (Sec. 3.2.1; a Bayes-adversary view is in
# {cite}`gursoy2022adversarial`) are
#
# $$ACC_{GRR} = \frac{e^\epsilon}{e^\epsilon+k-1},\qquad
#   ACC_{UE} = p\,\frac{1-(1-q)^k}{kq} + (1-p)\frac{(1-q)^{k-1}}{k},\qquad
#   ACC_{\omega\text{-SS}} = \frac{e^\epsilon}{\omega e^\epsilon + k-\omega},$$
#
# (the UE closed form equals the paper's binomial sum; the SS form uses the integer
# $\omega=\max(1,\mathrm{round}(k/(e^\epsilon+1)))$ that is actually run — the paper's
# $(e^\epsilon+1)/(2k)$ exceeds 100 % when $\omega=1$), and the paper's OLH approximation
# $1/(2\max(k/(e^\epsilon+1),1))$. After $d$ surveys in which every user reports a *new*
# attribute (uniform metric) the complete profile is inferred with probability
# $\prod_j ACC_{FO}(\epsilon,k_j)$ (Eq. 4); if users sample with replacement and memoize
# (non-uniform metric), only $d!/d^d$ of them ever report all attributes (Eq. 5).

# %%
ks_fig1 = [74, 7, 16]  # Adult's age, workclass, education
fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
fig1 = {}
for ax, setting in zip(axes, ["uniform", "non-uniform"]):
    for prot in ["grr", "olh", "ss", "sue", "oue"]:
        y = [100 * at.multi_collection_accuracy(prot, e, ks_fig1, setting) for e in EPS_ALL]
        fig1[(setting, prot)] = y
        ax.plot(EPS_ALL, y, marker="o", ms=4, color=color(prot), label=NAMES[prot])
    y = [100 * at.multi_collection_accuracy("olh", e, ks_fig1, setting, form="ideal") for e in EPS_ALL]
    ax.plot(EPS_ALL, y, ls="--", color=color("olh"), label="OLH (exact, ideal hash)")
    ax.set(xlabel="ε", ylabel="expected ACC (%)", title=f"({'a' if setting == 'uniform' else 'b'}) {setting} privacy metric",
           ylim=(-5, 103))
axes[0].legend()
fig.suptitle("Fig. 1 — Expected attacker accuracy after d = 3 surveys (k = [74, 7, 16])", fontweight="bold")
plt.show()

# %%
for prot, paper in [("grr", 99.5747), ("sue", 72.3599), ("oue", 15.35), ("olh", 12.5), ("ss", 99.5747)]:
    report.check_close(f"H1-{prot}", f"Fig. 1a: uniform ACC after 3 surveys at ε=10, {NAMES[prot]} (%)",
                       paper=paper, ours=fig1[("uniform", prot)][-1], atol=1e-3)
report.check_close("H1-NU", "Fig. 1b / Eq. 5: non-uniform GRR at ε=10 = uniform x 3!/3^3 (%)", paper=22.1277,
                   ours=fig1[("non-uniform", "grr")][-1], atol=1e-3)
ratio = np.array(fig1[("non-uniform", "sue")]) / np.array(fig1[("uniform", "sue")])
report.check("T21", "Eq. 5 = Eq. 4 x d!/d^d at every ε (all protocols)", paper="2/9", ours=float(ratio.mean()),
             passed=bool(all(np.allclose(np.array(fig1[("non-uniform", p)]) / np.array(fig1[("uniform", p)]), 2 / 9, rtol=1e-12)
                             for p in NAMES)), tolerance="rtol 1e-12")

# Monte-Carlo check of the single-report formulas with the attack as implemented
n_mc = 20_000
mc_rows = []
for prot in ["grr", "olh", "ss", "sue", "oue"]:
    for k, eps in [(7, 2.0), (74, 4.0)]:
        x = rng.integers(0, k, n_mc)
        acc = np.mean(at.perturb_and_infer(x, k, eps, prot, rng=rng) == x)
        mc_rows.append((prot, k, eps, 100 * acc, 100 * at.expected_pd_accuracy(prot, eps, k),
                        100 * at.expected_pd_accuracy(prot, eps, k, form="paper")))
mc = pd.DataFrame(mc_rows, columns=["protocol", "k", "ε", "simulated ACC %", "exact formula %", "paper formula %"])
display(mc.round(3))
z = np.abs(mc["simulated ACC %"] - mc["exact formula %"]) / (100 * np.sqrt(mc["exact formula %"] / 100 * (1 - mc["exact formula %"] / 100) / n_mc))
report.check("T4", "Sec. 3.2.1: simulated attack accuracy = exact formula (5 protocols, 2 (k, ε))", paper="formulas",
             ours=f"max |z| = {z.max():.2f}", passed=bool(z.max() < 5), tolerance="|z| < 5 (n = 20,000 reports)")
olh_sim = mc.query("protocol == 'olh' and k == 74")["simulated ACC %"].iloc[0]
report.diverges("T4-OLH", "OLH accuracy ≈ 1/(2 max(k/(e^ε+1), 1)) (k=74, ε=4, %)", paper=37.566, ours=round(olh_sim, 3),
                tolerance="5 SE of the exact ideal-hash value 27.944",
                note="The paper's OLH formula is an approximation; with an ideal random hash the exact accuracy equals OUE's "
                     "(27.94 %), which the simulated attack matches. (With ldpnb's Carter-Wegman hash, only pairwise "
                     "independent, the attack is ~2 points more accurate.)",
                holds=bool(abs(olh_sim - 27.944) < 5 * 100 * np.sqrt(0.27944 * 0.72056 / n_mc)))
report.diverges("T4-SS", "ω-SS accuracy = (e^ε+1)/(2k) (k=7, ε=4, %)", paper=100 * at.expected_pd_accuracy("ss", 4, 7, "paper"),
                ours=100 * at.expected_pd_accuracy("ss", 4, 7), tolerance="exact",
                note="With the integer ω = max(1, round(k/(e^ε+1))) = 1 actually used, SS is GRR and the accuracy is p/ω; "
                     "the paper's continuous-ω form exceeds 100 %.",
                holds=bool(at.expected_pd_accuracy("ss", 4, 7) == at.expected_pd_accuracy("grr", 4, 7)))
oue10 = [100 * at.expected_pd_accuracy("oue", 10, k) for k in (2, 7, 16, 74)]
report.diverges("T20", "App. C: OLH and OUE have an expected upper bound ACC = 1/2 per collection (OUE, k=2, ε=10, %)",
                paper=50.0, ours=round(oue10[0], 2), tolerance="exact",
                note=f"Only asymptotically (large k): exact OUE accuracy at ε=10 is {', '.join(f'{v:.1f}' for v in oue10)} % "
                     "for k = 2, 7, 16, 74 — the bound 1/2 + (1/2)(1-q)^(k-1)/k tends to 1/2.",
                holds=bool(all(v > 50 for v in oue10) and oue10[-1] < 51))

# %% [markdown]
# ## Re-identification of SMP users over repeated surveys
#
# Five surveys are run on the full Adult table; survey $sv$ asks a random subset of
# $d_{sv}\sim\mathcal U\{d/2,\dots,d-1\}$ attributes (artifact). After each survey the attacker
# holds, per pseudonymous user, a partial profile of inferred values and matches it against the
# background knowledge $D_{BK}$ (the identified table: FK-RI) or a random subset of at least
# $d/2$ of its attributes (PK-RI), ranking records by the number of matching attributes and
# outputting a top-k list with random tie-breaking. RID-ACC is the fraction of users whose
# identity is in the list. We compute the **exact expectation** over the tie-breaking: with
# $n_c$ the number of records matching exactly $c$ profile attributes (obtained from
# $\sum_{|T|=j}N(T)=\sum_{c\ge j}\binom cj n_c$, $N(T)$ = records equal to the profile on $T$),
# $A$ the records strictly better than the true one and $B$ the ties,
#
# $$P(\text{hit}) = \mathbb 1[A<k]\,\frac{\min(B, k-A)}{B},$$
#
# which lets us use all 45,222 users (the artifact used a 10 % sample). The baseline is $k/n$.

# %%
idxA = at.ReidIndex(XA, KA)
idxC = at.ReidIndex(XC, KC)
TOPK = (1, 5, 10)
SURVEYS = [2, 3, 4, 5]
t_rid = time.time()
fig2 = dict(zip(SIZES["rid_prots"], par(lambda p: at_experiments.smp_rid_experiment(
    XA, KA, p, SIZES["rid_eps"], setting="uniform", runs=SIZES["rid_runs"], index=idxA, pk=True, topk=TOPK, rng=int(SEEDS[0])),
    SIZES["rid_prots"])))
print(f"Figs. 2/10 simulations: {time.time() - t_rid:.1f} s")


def plot_rid(results, eps_grid, prots, title, key="FK", n=len(XA), xlabel="ε", xticks=None, invert=False):
    """One row per protocol, one column per top-k; curves = #surveys; baseline k/n."""
    fig, axes = plt.subplots(len(prots), 2, figsize=(10, 2.6 * len(prots)), squeeze=False)
    cols = plt.cm.viridis(np.linspace(0.1, 0.85, len(SURVEYS)))
    for r, p in enumerate(prots):
        arr = results[p][key].mean(axis=0)  # (eps, surveys, topk)
        for c, k in enumerate([1, 10]):
            ax = axes[r, c]
            ti = TOPK.index(k)
            for s, sv in enumerate(SURVEYS):
                ax.plot(eps_grid if xticks is None else xticks, arr[:, s, ti], marker="o", ms=3, color=cols[s], label=f"#surveys = {sv}")
            ax.axhline(100 * k / n, color="k", ls=":", label="Baseline k/n")
            ax.set(title=f"({chr(97 + r)}) {NAMES[p]}, top-{k}", xlabel=xlabel, ylabel="RID-ACC (%)")
            if invert:
                ax.invert_xaxis()
    axes[0, 0].legend(fontsize="x-small")
    fig.suptitle(title, fontweight="bold")
    plt.show()


plot_rid(fig2, SIZES["rid_eps"], [p for p in ["grr", "sue", "olh", "oue"] if p in fig2],
         "Fig. 2 — RID-ACC of SMP on Adult, FK-RI, uniform ε-LDP")

# %% [markdown]
# The headline numbers of Sec. 4.2 are averaged over several independent runs (new survey
# design each run) at $\epsilon=10$ and 5 surveys.

# %%
HEAD_P = ["grr", "ss", "sue", "oue", "olh"]
head = dict(zip(HEAD_P, par(lambda p: at_experiments.smp_rid_experiment(XA, KA, p, [10], setting="uniform", runs=SIZES["head_runs"], index=idxA,
                                                            topk=TOPK, eval_surveys=(2, 5), rng=int(SEEDS[1])), HEAD_P)))
H = {p: head[p]["FK"].mean(axis=0)[0] for p in head}  # (#surveys in {2, 5}, topk)
t1, t10 = TOPK.index(1), TOPK.index(10)
tab = pd.DataFrame({NAMES[p]: [H[p][-1, t1], H[p][-1, t10], H[p][0, t10]] for p in H},
                   index=["top-1, 5 surveys", "top-10, 5 surveys", "top-10, 2 surveys"]).T
display(tab.round(2))
runs_note = f"mean of {SIZES['head_runs']} runs, full Adult, exact-expectation ranking"
report.check("H2-GRR1", "Sec. 4.2: GRR top-1 RID-ACC after 5 surveys 'at most ~10%' (ε=10, %)", paper="~10",
             ours=round(H["grr"][-1, t1], 2), passed=bool(8 <= H["grr"][-1, t1] <= 13), tolerance="[8, 13] (spec H2); " + runs_note)
report.check("H2-GRR10", "Sec. 4.2: GRR top-10 upper bound 'about 33%' after 5 surveys (ε=10, %)", paper=33,
             ours=round(H["grr"][-1, t10], 2), passed=bool(28 <= H["grr"][-1, t10] <= 38), tolerance="[28, 38]; " + runs_note)
report.check("H2-SUE10", "Sec. 4.2: SUE 'about 28%' top-10 after 5 surveys (ε=10, %)", paper=28,
             ours=round(H["sue"][-1, t10], 2), passed=bool(22 <= H["sue"][-1, t10] <= 32), tolerance="[22, 32]; " + runs_note)
for p in ["oue", "olh"]:
    report.check(f"H2-{p}", f"Sec. 4.2: {NAMES[p]} ~1% top-1 and upper-bounded by ~5% top-10 (ε=10, 5 surveys, %)",
                 paper="~1 / ~5", ours=f"{H[p][-1, t1]:.2f} / {H[p][-1, t10]:.2f}",
                 passed=bool(0.5 <= H[p][-1, t1] <= 2 and 3.5 <= H[p][-1, t10] <= 7), tolerance="top-1 in [0.5, 2], top-10 in [3.5, 7]")
rel_ss = H["ss"][-1, t10] / H["grr"][-1, t10]
report.check("H2-SS", "Sec. 4.2: ω-SS similar to GRR (top-10, 5 surveys, ratio SS/GRR)", paper="≈1", ours=round(rel_ss, 3),
             passed=bool(abs(rel_ss - 1) <= 0.15), tolerance="within ±15 %")
report.check("H2-order", "OUE and OLH about 10x less than GRR (top-1, 5 surveys, ε=10; ratio GRR/OUE)", paper="~10",
             ours=round(H["grr"][-1, t1] / H["oue"][-1, t1], 2),
             passed=bool(H["grr"][-1, t1] > H["sue"][-1, t1] > max(H["oue"][-1, t1], H["olh"][-1, t1]) and 5 <= H["grr"][-1, t1] / H["oue"][-1, t1] <= 20),
             tolerance="ordering GRR > SUE > OUE, OLH and ratio in [5, 20]")
report.check("H3", "Sec. 4.2: GRR top-10 RID-ACC ≥ 2.5% after only 2 surveys (ε=10, %)", paper=2.5,
             ours=round(H["grr"][0, t10], 2), passed=bool(2.0 <= H["grr"][0, t10] <= 3.5), tolerance="[2.0, 3.5] (spec H3)")
if 1 in SIZES["rid_eps"]:
    low = max(fig2[p]["FK"].mean(axis=0)[0, :, t10].max() for p in fig2)
    report.check("H2-eps1", "Baseline RID ≪ 1 %; at ε=1 every protocol stays below 1 % top-10 (all #surveys)", paper="<1",
                 ours=round(low, 3), passed=bool(low < 1), tolerance="< 1 %")
else:
    report.not_evaluated("H2-eps1", "At ε=1 every protocol stays below 1 % top-10", paper="<1", note="ε = 1 not in the smoke grid")
mono = all(np.all(np.diff(fig2[p]["FK"].mean(axis=0)[:, :, t10], axis=1) >= -0.05) for p in fig2)
report.check("H2-mono", "RID-ACC increases with #surveys (top-10, every protocol and ε)", paper="increasing", ours=mono,
             passed=bool(mono), tolerance="non-decreasing within 0.05 pt")

# %% [markdown]
# ### Fig. 9 — the same attack on ACS Montana
# %%
fig9 = dict(zip(SIZES["acs_prots"], par(lambda p: at_experiments.smp_rid_experiment(
    XC, KC, p, SIZES["acs_eps"], setting="uniform", runs=SIZES["rid_runs"], index=idxC, topk=TOPK, rng=int(SEEDS[3])), SIZES["acs_prots"])))
plot_rid(fig9, SIZES["acs_eps"], SIZES["acs_prots"], "Fig. 9 — RID-ACC of SMP on ACS, FK-RI, uniform ε-LDP", n=len(XC))
g9, o9 = fig9["grr"]["FK"].mean(0)[-1, :, t10], fig9["oue"]["FK"].mean(0)[-1, :, t10]
report.check("Fig9", "App. C.2: ACS follows the patterns of Fig. 2 (GRR > OUE, increasing with #surveys; top-10, max ε)",
             paper="same pattern", ours=f"GRR {g9[-1]:.2f} %, OUE {o9[-1]:.2f} % at 5 surveys",
             passed=bool(g9[-1] > o9[-1] and np.all(np.diff(g9) > 0) and np.all(np.diff(o9) > 0)), tolerance="ordering and monotonicity")

# %% [markdown]
# ### Figs. 10 and 11 — partial background knowledge and the non-uniform metric
#
# PK-RI uses the same simulated profiles as Fig. 2, matched against a random attribute subset
# of the background (drawn once per run). In the non-uniform setting users sample with
# replacement and re-send a memoized report for a repeated attribute.

# %%
plot_rid(fig2, SIZES["rid_eps"], SIZES["rid_prots"], "Fig. 10 — RID-ACC of SMP on Adult, PK-RI, uniform ε-LDP", key="PK")
fig11 = dict(zip(SIZES["nu_prots"], par(lambda p: at_experiments.smp_rid_experiment(
    XA, KA, p, SIZES["nu_eps"], setting="non-uniform", runs=SIZES["rid_runs"], index=idxA, pk=True, topk=TOPK, rng=int(SEEDS[4])),
    SIZES["nu_prots"])))
plot_rid(fig11, SIZES["nu_eps"], SIZES["nu_prots"], "Fig. 11 — RID-ACC of SMP on Adult, non-uniform ε-LDP, FK-RI")
plot_rid(fig11, SIZES["nu_eps"], SIZES["nu_prots"], "Fig. 11 (right) — RID-ACC of SMP on Adult, non-uniform ε-LDP, PK-RI", key="PK")

# H4: GRR, ε = 10, 5 surveys, averaged over runs (PK subsets and designs vary between runs; U and NU share them)
h4_u = at_experiments.smp_rid_experiment(XA, KA, "grr", [10], setting="uniform", runs=SIZES["h4_runs"], index=idxA, pk=True,
                             topk=TOPK, eval_surveys=(5,), rng=int(SEEDS[2]))
h4_nu = at_experiments.smp_rid_experiment(XA, KA, "grr", [10], setting="non-uniform", runs=SIZES["h4_runs"], index=idxA,
                              topk=TOPK, eval_surveys=(5,), rng=int(SEEDS[2]))
pk_ratio = h4_u["PK"][:, 0, -1, t10] / h4_u["FK"][:, 0, -1, t10]
nu_ratio = h4_nu["FK"][:, 0, -1, t10].mean() / h4_u["FK"][:, 0, -1, t10].mean()
if SCALE == "smoke":
    report.not_evaluated("H4-PK", "App. C.3: PK-RI reduces RID-ACC by about 50 %", paper=0.5,
                         note=f"needs ≥ 10 PK subsets (the ratio depends strongly on the subset); smoke ratio {pk_ratio.mean():.2f}")
else:
    report.check("H4-PK", "App. C.3: PK-RI reduces RID-ACC by about 50 % (GRR, ε=10, 5 surveys, top-10; PK/FK)", paper=0.5,
                 ours=round(float(pk_ratio.mean()), 3), passed=bool(0.3 <= pk_ratio.mean() <= 0.8),
                 tolerance=f"[0.3, 0.8]; mean of {len(pk_ratio)} PK subsets (the ratio depends strongly on the drawn subset: "
                           f"{', '.join(f'{r:.2f}' for r in pk_ratio)})")
report.check("H4-NU", "App. C.3: non-uniform metric decreases RID-ACC by about 40 % (GRR, ε=10, 5 surveys, top-10; NU/U)",
             paper=0.6, ours=round(float(nu_ratio), 3), passed=bool(0.45 <= nu_ratio <= 0.8), tolerance="[0.45, 0.8]")

# %% [markdown]
# ### Figs. 12 and 13 — α-PIE instead of ε-LDP
#
# The budget of each attribute is derived from a target Bayes error $\beta_{U|S}$ (PIE privacy of
# {cite}`murakami2021pie`; Prop. 3, Eq. 11) with the artifact's mapping:
# $\alpha=(1-\beta)\log_2 n_d+1$, $m=\min(\log_2 n_d,\log_2 k_j)$ and
# $\epsilon_j=\ln\frac{(k_j-1)\alpha+m}{m-\alpha}$, or **no randomization** when $\alpha\ge m$
# ($n_d = \lfloor n/\mathrm{round}(d/2)\rfloor = 9044$ on Adult). Note the sign: solving Eq. 11 for
# α gives $(1-\beta)\log_2 n - 1$, which is negative (infeasible) for β = 0.95; the artifact uses
# $+1$, which we reproduce.

# %%
n_d = int(len(XA) / round(XA.shape[1] / 2))
pie_eps = {b: np.array([at_measures.eps_from_bayes_error(b, n_d, int(k)) for k in KA]) for b in SIZES["pie_betas"]}
display(pd.DataFrame({f"β={b}": np.round(v, 2) for b, v in pie_eps.items()}, index=adult_df.columns).T.replace(np.inf, "clear"))
pie_tasks = [(p, sett) for sett in ["uniform", "non-uniform"] for p in SIZES["pie_prots"]]
pie_res = dict(zip(pie_tasks, par(lambda t: at_experiments.smp_rid_experiment(
    XA, KA, t[0], [pie_eps[b] for b in SIZES["pie_betas"]], setting=t[1], runs=SIZES["rid_runs"], index=idxA, pk=True, topk=TOPK,
    rng=int(SEEDS[5])), pie_tasks)))
fig12 = {p: pie_res[(p, "uniform")] for p in SIZES["pie_prots"]}
fig13 = {p: pie_res[(p, "non-uniform")] for p in SIZES["pie_prots"]}
for res, num, sett in [(fig12, "12", "uniform"), (fig13, "13", "non-uniform")]:
    for key in ["FK", "PK"]:
        plot_rid(res, SIZES["pie_betas"], SIZES["pie_prots"], f"Fig. {num} — RID-ACC of SMP on Adult, {sett} α-PIE, {key}-RI",
                 key=key, xlabel="β_U|S (tight → loose)", invert=True)
# Proposition 3 (T14): eps-LDP => (U, alpha)-PIE with alpha = min{eps log2 e, eps^2 log2 e, log2 n, log2 k}; checked on
# the capacity of GRR, SUE and OUE channels (I(U;Y) <= I(V;Y) <= capacity by data processing), and the GRR mixture bound.
from ldpnb import measures as info
from ldpnb import mechanisms as mech

worst_gap, n_cases = -np.inf, 0
for k in (2, 3, 5):
    for e in (0.25, 0.5, 1.0, 2.0, 4.0):
        alpha = at_measures.pie_alpha_from_ldp(e, len(XA), k)
        lam = np.expm1(e) / (np.exp(e) + k - 1)
        chans = [mech.grr_channel(k, e), mech.ue_channel(k, e, "sue"), mech.ue_channel(k, e, "oue")]
        caps = [info.channel_capacity(C, unit="bits", tol=1e-10)[0] for C in chans]
        worst_gap = max(worst_gap, max(caps) - alpha, caps[0] - lam * np.log2(k))
        n_cases += 1
report.check("T14", "Prop. 3 (App. C): ε-LDP ⇒ (U, α)-PIE (GRR, SUE, OUE capacities ≤ α; GRR ≤ λ log2 k), k ≤ 5, ε ∈ [0.25, 4]",
             paper="≤ α", ours=f"max(capacity − bound) = {worst_gap:.2e} bits over {n_cases} (k, ε)", passed=bool(worst_gap <= 1e-9),
             tolerance="≤ 1e-9 bits")
alpha_eq11 = (1 - 0.95) * np.log2(n_d) - 1
report.diverges("PIE-sign", "App. C.1: α chosen from β via Eq. 11 (β = 0.95, n_d = 9044)", paper="α = (1-β) log2 n - 1",
                ours=f"artifact α = {(1 - 0.95) * np.log2(n_d) + 1:.3f}", tolerance="sign",
                note=f"Eq. 11 inverted literally gives α = {alpha_eq11:.3f} < 0 (infeasible); the artifact uses +1, reproduced here.",
                holds=bool(alpha_eq11 < 0))
if 0.95 in pie_eps and 1 in SIZES["rid_eps"]:
    ok = all(fig12[p]["FK"].mean(0)[0, -1, t10] > fig2[p]["FK"].mean(0)[SIZES["rid_eps"].index(1), -1, t10] for p in SIZES["pie_prots"])
    report.check("H10-a", "App. C.3: even β = 0.95 gives higher RID-ACC than ε = 1 (each protocol, 5 surveys, top-10)",
                 paper="higher", ours=ok, passed=bool(ok), tolerance="strict inequality per protocol")
else:
    report.not_evaluated("H10-a", "β = 0.95 gives higher RID-ACC than ε = 1", paper="higher", note="ε = 1 not in the smoke grid")
b_lo = min(SIZES["pie_betas"])
ceil = [fig12[p]["FK"].mean(0)[SIZES["pie_betas"].index(b_lo), -1] for p in SIZES["pie_prots"]]
spread = float(np.ptp([c[t10] for c in ceil]))
report.check("H10-b", f"For β ≤ 0.6 nothing is randomized: all protocols equal the perfect-inference ceiling (β={b_lo}, 5 surveys, FK)",
             paper="all protocols alike (≈12 % top-1, ≈35 % top-10)", ours=f"top-1 {ceil[0][t1]:.2f} %, top-10 {ceil[0][t10]:.2f} %, spread {spread:.2f} pt",
             passed=bool(spread <= 2 and all(np.isinf(pie_eps[b_lo])) and abs(ceil[0][t10] - 35) <= 4),
             tolerance="every ε_j = clear; protocols within 2 pt of each other (same design, different attribute draws); top-10 in 35 ± 4")

# %% [markdown]
# ## Uncovering the sampled attribute of RS+FD
#
# RS+FD hides the sampled attribute among fake data — but fake data are uniform and real
# attributes are not. Given $t$, the fake values are independent, so
# $P(\mathbf y\mid t=j)\propto L_j(y_j)=P_{real,j}(y_j)/P_{fake,j}(y_j)$ and the Bayes-optimal
# attacker predicts $\hat t=\arg\max_j L_j(y_j)$ with, for GRR,
# $P_{real,j}(y)=q+(p-q)f_j(y)$, and for UE $L_j=\sum_v f_j(v)r(B_v)\,/\,\sum_v g_j(v) r(B_v)$
# ($r(1)=p/q$, $r(0)=(1-p)/(1-q)$, $g_j$ the fake one-hot distribution; denominator 1 for UE-z).
# The paper trains XGBoost {cite}`chen2016xgboost` on synthetic profiles drawn from the server's estimates (**NK**), on
# $n_{pk}$ compromised labelled profiles (**PK**), or on both (**HM**). We plot the Bayes
# attackers (NK: plug-in of the server's estimates = the $s\to\infty$ limit of the paper's NK;
# PK/HM: marginals and fake distribution learned from the labelled users) and the oracle (true
# marginals) as the upper reference, and spot-check XGBoost below.

# %%
VARIANTS = [("grr", "uniform"), ("sue", "zero"), ("oue", "zero"), ("sue", "random"), ("oue", "random")]
t_aif = time.time()
AIF_DATA = {"ACS": (XC, KC, SIZES["aif_eps"], SIZES["pk_fracs"], 6), "Adult": (XA, KA, SIZES["aif_eps_small"], SIZES["pk_fracs"][::2], 7),
            "Nursery": (XN, KN, SIZES["aif_eps_small"], SIZES["pk_fracs"][::2], 8)}
aif = dict(zip(AIF_DATA, par(lambda name: at_experiments.aif_experiment(
    AIF_DATA[name][0], AIF_DATA[name][1], AIF_DATA[name][2], VARIANTS, runs=SIZES["aif_runs"], pk_fractions=AIF_DATA[name][3],
    rng=int(SEEDS[AIF_DATA[name][4]])), AIF_DATA)))
print(f"AIF (Bayes) on three datasets: {time.time() - t_aif:.1f} s")
AIF_EPS = {"ACS": SIZES["aif_eps"], "Adult": SIZES["aif_eps_small"], "Nursery": SIZES["aif_eps_small"]}
ROWS = [("RS+FD[GRR]", ["GRR"]), ("RS+FD[UE-z]", ["SUE-z", "OUE-z"]), ("RS+FD[UE-r]", ["SUE-r", "OUE-r"])]
VCOL = {"GRR": color("grr"), "SUE-z": color("sue"), "OUE-z": color("oue"), "SUE-r": color("sue"), "OUE-r": color("oue")}


def plot_aif(res, eps_grid, d, rows, title, fracs):
    fig, axes = plt.subplots(len(rows), 3, figsize=(13, 3.1 * len(rows)), squeeze=False, sharex=True)
    for r, (rname, labels) in enumerate(rows):
        for c, model in enumerate(["NK", "PK", "HM"]):
            ax = axes[r, c]
            for lab in labels:
                col = VCOL[lab]
                ax.plot(eps_grid, res[(lab, "oracle")].mean(0), color=col, ls=":", lw=1, label=f"{lab} oracle")
                if model == "NK":
                    ax.plot(eps_grid, res[(lab, "NK")].mean(0), color=col, marker="o", ms=3, label=f"{lab} NK (Bayes, s→∞)")
                    if (lab, "NK_prior") in res:
                        ax.plot(eps_grid, res[(lab, "NK_prior")].mean(0), color=col, marker="^", ms=3, ls="--", label=f"{lab} NK prior-aware")
                else:
                    for f, mk in zip(fracs, ["o", "s", "D"]):
                        if (lab, f"{model}{f:g}") in res:
                            ax.plot(eps_grid, res[(lab, f"{model}{f:g}")].mean(0), color=col, marker=mk, ms=3, alpha=0.5 + 0.5 * f,
                                    label=f"{lab} {model} n_pk={f:g}n")
            ax.axhline(100 / d, color="k", ls="-.", lw=1, label="Baseline 1/d")
            ax.set(title=f"({chr(97 + 3 * r + c)}) {model} — {rname}", xlabel="ε", ylabel="AIF-ACC (%)")
            ax.legend(fontsize="xx-small")
    fig.suptitle(title, fontweight="bold")
    plt.show()


plot_aif(aif["ACS"], AIF_EPS["ACS"], 18, ROWS, "Fig. 3 — Attribute inference against RS+FD on ACS (d = 18)", SIZES["pk_fracs"])

# %%
acs = aif["ACS"]
E = np.array(AIF_EPS["ACS"])
nk = {lab: acs[(lab, "NK")].mean(0) for lab in ["GRR", "SUE-z", "OUE-z", "SUE-r", "OUE-r"]}
orc = {lab: acs[(lab, "oracle")].mean(0) for lab in nk}
base = 100 / 18
mx = max(orc["GRR"].max(), orc["SUE-r"].max(), orc["OUE-r"].max())
report.check("H5-a", "Sec. 4.3: with uniform fake data (GRR, UE-r) AIF-ACC is upper-bounded by about 25 % (ACS, oracle Bayes, %)",
             paper=25, ours=round(mx, 2), passed=bool(mx <= 28), tolerance="max over ε ≤ 28 % (Bayes upper reference)")
gap = (nk["GRR"] - nk["OUE-r"])[E >= 4]
report.check("H5-b", "Sec. 4.3: RS+FD[GRR] ≈ 5 points above RS+FD[UE-r] (OUE-r; NK Bayes, ε ≥ 4)", paper=5,
             ours=f"{gap.min():.1f}–{gap.max():.1f}", passed=bool(np.all((gap >= 2) & (gap <= 9))), tolerance="[2, 9] pts at every ε ≥ 4")
oz = nk["OUE-z"][E >= 4]
report.check("H5-c", "Sec. 4.3: about 50 % with RS+FD[OUE-z] (NK Bayes, ε ≥ 4, %)", paper=50, ours=f"{oz.min():.1f}–{oz.max():.1f}",
             passed=bool(np.all((oz >= 45) & (oz <= 56))), tolerance="[45, 56] at every ε ≥ 4")
report.check("H5-d", "Sec. 4.3: almost 100 % with RS+FD[SUE-z] at ε = 10 (ACS, NK Bayes, %)", paper=100, ours=round(nk["SUE-z"][-1], 2),
             passed=bool(nk["SUE-z"][-1] >= 90), tolerance="≥ 90 %")
cross = nk["SUE-z"][0] < nk["OUE-z"][0] and np.all(nk["SUE-z"][E >= 4] > nk["OUE-z"][E >= 4])
report.check("H5-e", "Sec. 4.3: SUE variants lower than OUE at small ε, higher in low-privacy regimes (UE-z)", paper="crossing",
             ours=f"ε=1: SUE-z {nk['SUE-z'][0]:.1f} vs OUE-z {nk['OUE-z'][0]:.1f}", passed=bool(cross), tolerance="SUE-z < OUE-z at ε=1, > at ε ≥ 4")
folds = np.array([nk[lab] / base for lab in nk])[:, E >= 2]
report.check("H5-f", "Sec. 4.3: NK/PK/HM give 2–20 fold increments over the baseline (ACS, ε ≥ 2)", paper="2–20",
             ours=f"{folds.min():.1f}–{folds.max():.1f}", passed=bool(folds.min() >= 2 and folds.max() <= 20), tolerance="all folds within [2, 20]")

# %%
plot_aif(aif["Adult"], AIF_EPS["Adult"], 10, ROWS, "Fig. 14 — Attribute inference against RS+FD on Adult (d = 10)", SIZES["pk_fracs"][::2])
plot_aif(aif["Nursery"], AIF_EPS["Nursery"], 9, ROWS, "Fig. 15 — Attribute inference against RS+FD on Nursery (d = 9)", SIZES["pk_fracs"][::2])
ad, nu = aif["Adult"], aif["Nursery"]
EA = np.array(AIF_EPS["Adult"])
plateau = ad[("GRR", "oracle")].mean(0)[EA >= 4]
report.check("H6-a", "Sec. 4.4: RS+FD[GRR] AIF-ACC on Adult upper-bounded by about 40 % (oracle Bayes, ε ≥ 4, %)", paper=40,
             ours=f"{plateau.min():.1f}–{plateau.max():.1f}", passed=bool(np.all((plateau >= 30) & (plateau <= 42))), tolerance="[30, 42]")
nmax = max(nu[(lab, "oracle")].mean(0).max() for lab in ["GRR", "SUE-r", "OUE-r"])
report.check("H6-b", "App. D: Nursery — RS+FD[GRR] and [UE-r] give no meaningful increment over the 11.1 % baseline (oracle, %)",
             paper="≈11.1", ours=round(nmax, 2), passed=bool(nmax <= 1.5 * 100 / 9), tolerance="≤ 1.5 x baseline = 16.7 %")
sz = {k: v[("SUE-z", "NK")].mean(0)[-1] for k, v in aif.items()}
report.check("H6-c", "App. D: about 100 % with RS+FD[SUE-z] on all three datasets (ε = 10, NK Bayes, %)", paper=100,
             ours=", ".join(f"{k} {v:.1f}" for k, v in sz.items()), passed=bool(min(sz.values()) >= 90), tolerance="≥ 90 % each")
fA = np.array([ad[(lab, "NK")].mean(0) / 10 for lab in nk])
report.check("H6-d", "App. D: 'about a 1.3–10 fold increment' on Adult (max fold, NK Bayes)", paper=10, ours=round(fA.max(), 2),
             passed=bool(8 <= fA.max() <= 10.0 + 1e-9), tolerance=f"max fold in [8, 10]; min fold {fA.min():.2f} (Bayes is stronger than the paper's XGBoost at small ε)")

# %% [markdown]
# ### The paper's classifier: XGBoost
#
# XGBoost (`XGBClassifier`, multiclass, `eval_metric="mlogloss"`), features = label-encoded
# values (GRR) or concatenated bits (UE). At book scale: ε ∈ {1, 10}; on ACS NK (s = 1n), PK
# (0.5n) and HM (1n, 0.1n) with a reduced forest (30 trees) and training sets subsampled to
# 10,000 rows; on Adult and Nursery NK (s = 1n) and PK (0.5n) with 20 trees and ≤ 5,000 training
# rows. Paper scale uses XGBoost's defaults, the full grid and all models on the three datasets. A trained
# classifier cannot beat the Bayes rule (up to noise).

# %%
XGB_ALL = [("NK s=1n", "NK", 1.0, 0.0), ("NK s=3n", "NK", 3.0, 0.0), ("NK s=5n", "NK", 5.0, 0.0),
           ("PK 0.1n", "PK", 0.0, 0.1), ("PK 0.3n", "PK", 0.0, 0.3), ("PK 0.5n", "PK", 0.0, 0.5),
           ("HM (1n, 0.1n)", "HM", 1.0, 0.1), ("HM (3n, 0.3n)", "HM", 3.0, 0.3), ("HM (5n, 0.5n)", "HM", 5.0, 0.5)]
XGB = {"smoke": dict(variants=[("grr", "uniform")], models=[XGB_ALL[0], XGB_ALL[5]], data=["ACS"]),
       "book": dict(variants=VARIANTS, models=[XGB_ALL[0], XGB_ALL[5], XGB_ALL[6]], data=["ACS", "Adult", "Nursery"],
                    small_models=[XGB_ALL[0], XGB_ALL[5]]),
       "paper": dict(variants=VARIANTS, models=XGB_ALL, data=["ACS", "Adult", "Nursery"])}[SCALE]
t_x = time.time()
xgb_tasks = [(name, v) for name in XGB["data"] for v in XGB["variants"]]
# ACS keeps its models and sizes; Adult and Nursery (book scale) get smaller fits and, at paper scale, the same models
xgb_out = par(lambda t: at_experiments.aif_xgb_experiment(
    AIF_DATA[t[0]][0], AIF_DATA[t[0]][1], SIZES["xgb_eps"], [t[1]], XGB["models"] if t[0] == "ACS" else XGB.get("small_models", XGB["models"]),
    runs=SIZES["aif_runs"], n_estimators=SIZES["xgb_trees" if t[0] == "ACS" else "xgb_trees_small"],
    max_train=SIZES["xgb_train" if t[0] == "ACS" else "xgb_train_small"], rng=int(SEEDS[10])), xgb_tasks)
xgbres = {}
for (name, _), res in zip(xgb_tasks, xgb_out):
    for key, v in res.items():
        xgbres.setdefault(name, {})[key] = v
print(f"XGBoost fits: {time.time() - t_x:.1f} s")
tab = pd.DataFrame({(lab, name): xgbres["ACS"][(lab, name)].mean(0) for (lab, name) in xgbres["ACS"]}, index=SIZES["xgb_eps"]).T
tab["oracle Bayes"] = [aif["ACS"][(lab, "oracle")].mean(0)[AIF_EPS["ACS"].index(e)] if e in AIF_EPS["ACS"] else np.nan
                       for lab, _ in tab.index for e in [SIZES["xgb_eps"][-1]]]
display(tab.round(2))


def plot_xgb(res, title, d):
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.4), sharey=True)
    for ax, model in zip(axes, ["NK", "PK", "HM"]):
        for (lab, name), v in res.items():
            if name.startswith(model):
                ax.plot(SIZES["xgb_eps"], v.mean(0), marker="o", color=VCOL[lab], ls="-" if lab.endswith("z") or lab == "GRR" else "--",
                        label=f"{lab} {name}")
        ax.axhline(100 / d, color="k", ls="-.", lw=1, label="Baseline 1/d")
        ax.set(title=f"{model} — XGBoost", xlabel="ε", ylabel="AIF-ACC (%)")
        ax.legend(fontsize="xx-small")
    fig.suptitle(title, fontweight="bold")
    plt.show()


for name, num, d in [("ACS", "3", 18), ("Adult", "14", 10), ("Nursery", "15", 9)]:
    if name in xgbres:
        plot_xgb(xgbres[name], f"Fig. {num} (XGBoost, the paper's classifier) — AIF-ACC against RS+FD on {name}", d)

X_ = xgbres["ACS"]
excess = max(float(np.max(v.mean(0) - np.array([aif["ACS"][(lab, "oracle")].mean(0)[AIF_EPS["ACS"].index(e)] for e in SIZES["xgb_eps"]])))
             for (lab, name), v in X_.items() if all(e in AIF_EPS["ACS"] for e in SIZES["xgb_eps"]))
report.check("T17", "XGBoost AIF-ACC ≤ Bayes-optimal (oracle) accuracy (ACS, every variant, model, ε)", paper="≤ oracle",
             ours=f"max excess {excess:.2f} pt", passed=bool(excess <= 1.5), tolerance="≤ +1.5 pt (sampling noise of the test users)")
for name in ["Adult", "Nursery"]:
    if name in xgbres and all(e in AIF_EPS[name] for e in SIZES["xgb_eps"]):
        ex_ = max(float(np.max(v.mean(0) - np.array([aif[name][(lab, "oracle")].mean(0)[AIF_EPS[name].index(e)] for e in SIZES["xgb_eps"]])))
                  for (lab, _), v in xgbres[name].items())
        report.check(f"T17-{name}", f"XGBoost AIF-ACC ≤ Bayes-optimal (oracle) accuracy ({name}, every variant, model, ε)",
                     paper="≤ oracle", ours=f"max excess {ex_:.2f} pt", passed=bool(ex_ <= 1.5),
                     tolerance="≤ +1.5 pt (sampling noise of the test users)")
    else:
        report.not_evaluated(f"T17-{name}", f"XGBoost AIF-ACC ≤ oracle ({name})", paper="≤ oracle",
                             note="XGBoost is fitted on ACS only at this scale")
if ("GRR", "PK 0.5n") in X_:
    nkpk = float(min((X_[(lab, "NK s=1n")] - X_[(lab, "PK 0.5n")]).mean(0).min() for lab, _ in X_))
    report.check("H5-g", "Sec. 4.3: NK (s = 1n) gives higher AIF-ACC than PK with n_pk = 0.5n (XGBoost, ACS)", paper="NK ≥ PK",
                 ours=f"min(NK - PK) = {nkpk:.2f} pt", passed=bool(nkpk >= -3), tolerance="NK - PK ≥ -3 pt (spec H5)")
else:
    report.not_evaluated("H5-g", "NK (s = 1n) ≥ PK (0.5n) with XGBoost", paper="NK ≥ PK", note="PK not fitted at this scale")
g10 = X_[("GRR", "NK s=1n")].mean(0)[-1]
report.check("XGB-GRR", "Sec. 4.3: RS+FD[GRR] AIF-ACC 'upper-bounded by about 25 %' yet ≥ 2x baseline (XGBoost NK s=1n, largest ε, ACS, %)",
             paper="≤ ~25", ours=round(g10, 2), passed=bool(2 * 100 / 18 <= g10 <= 28), tolerance="[11.1, 28] %")

# %% [markdown]
# ## Re-identification through RS+FD (Fig. 4)
#
# Same survey design as Fig. 2; in each survey the users run RS+FD[GRR] over the survey's
# $d_{sv}$ attributes (with $\epsilon'_{sv}=\ln(d_{sv}(e^\epsilon-1)+1)$), sampling an attribute
# they have not sampled before; the NK attacker predicts the sampled attribute (Bayes plug-in of
# the server's estimates) and records the reported value of the predicted attribute. Errors
# chain across surveys.

# %%
def fig4_run(eps, resample, runs):
    outs = [at.rsfd_reid_chain(XA, KA, eps, 5, index=idxA, topk=TOPK, resample=resample, rng=rng) for _ in range(runs)]
    return (np.array([[[o["rid"][s][k] for k in TOPK] for s in SURVEYS] for o in outs]).mean(0), np.mean([np.mean(o["aif"]) for o in outs]))


fig4 = {eps: fig4_run(eps, "new", SIZES["fig4_runs"]) for eps in SIZES["fig4_eps"]}  # paper: a new attribute per survey
fig4_art = {eps: fig4_run(eps, "replace", 1) for eps in SIZES["fig4_eps"]}  # artifact's effective behaviour
fig, axes = plt.subplots(1, 2, figsize=(11, 3.6))
cols = plt.cm.viridis(np.linspace(0.1, 0.85, 4))
for c, k in enumerate([1, 10]):
    for s, sv in enumerate(SURVEYS):
        axes[c].plot(SIZES["fig4_eps"], [fig4[e][0][s, TOPK.index(k)] for e in SIZES["fig4_eps"]], marker="o", ms=3, color=cols[s],
                     label=f"#surveys = {sv}")
    axes[c].plot(SIZES["fig4_eps"], [fig4_art[e][0][-1, TOPK.index(k)] for e in SIZES["fig4_eps"]], ls="--", color=cols[-1],
                 label="#surveys = 5, sampling with replacement (artifact)")
    axes[c].axhline(100 * k / len(XA), color="k", ls=":", label="Baseline k/n")
    axes[c].set(title=f"top-{k}", xlabel="ε", ylabel="RID-ACC (%)")
axes[0].legend(fontsize="xx-small")
fig.suptitle(f"Fig. 4 — RID-ACC of RS+FD[GRR] on Adult, FK-RI, uniform metric, NK attacker ({SIZES['fig4_runs']} runs)", fontweight="bold")
plt.show()
print("mean per-survey AIF-ACC of the attacker:", {e: round(v[1], 1) for e, v in fig4.items()})

# %%
ratios = []
for eps in SIZES["fig4_eps"]:
    if eps in SIZES["rid_eps"] and eps >= 4:
        smp = fig2["grr"]["FK"].mean(0)[SIZES["rid_eps"].index(eps)]
        ratios.append(smp[:, t10] / fig4[eps][0][:, t10])
top1 = max(v[0][:, t1].max() for v in fig4.values())
top10 = max(v[0][:, t10].max() for v in fig4.values())
art10 = max(v[0][:, t10].max() for v in fig4_art.values())
if ratios:
    ratios = np.concatenate(ratios)
    report.check("H7-a", "Sec. 4.4: RID-ACC of RS+FD 'drastically decreased' vs SMP (GRR; top-10, every ε ≥ 4 and #surveys)",
                 paper="drastic", ours=f"SMP/RS+FD: min {ratios.min():.1f}x, mean {ratios.mean():.1f}x", passed=bool(ratios.min() >= 5),
                 tolerance="≥ 5x at every point",
                 note="the spec's stricter ≥ 10x target was derived with the artifact's sampling with replacement, which gives a "
                      f"lower RS+FD RID (top-10 max {art10:.2f} % vs {top10:.2f} % here)")
else:
    report.not_evaluated("H7-a", "RS+FD RID ≪ SMP RID", paper="drastic", note="no common ε ≥ 4 in this scale's grids")
report.diverges("H7-b", "Sec. 4.4: top-1 RID-ACC nearly equal to the random baseline 0.0022 % (max over ε, #surveys, %)",
                paper="≈0.0022", ours=round(top1, 4), tolerance="what holds instead: < 0.25 %, far below SMP",
                note=f"With users sampling a new attribute in every survey (the paper's stated design) top-1 reaches {top1:.3f} % "
                     f"= {top1 / (100 / len(XA)):.0f}x the baseline, still ≪ SMP (≈ 11 %); with the artifact's sampling with replacement "
                     f"it is {max(v[0][:, t1].max() for v in fig4_art.values()):.3f} %. 'Nearly equal' holds in absolute terms only.",
                holds=bool(top1 < 0.25))
report.check("H7-c", "Sec. 4.4 (literal): 'even for the top-10 group the RID-ACC has meaningful improvement over the Baseline' "
             "(max over ε, #surveys, %; baseline 0.022 %)", paper="meaningful improvement", ours=round(top10, 3),
             passed=bool(top10 >= 5 * 100 * 10 / len(XA)), tolerance="≥ 5 x baseline",
             note="The sentence may lack a 'no' (the previous one says top-1 ≈ baseline); literally it holds: top-10 is far above the "
                  "baseline, yet about an order of magnitude below SMP.")

# %% [markdown]
# ## The countermeasure: RS+RFD
#
# **Algorithm 1 (RS+RFD).** The server publishes priors $\tilde f_i$; each user samples $j$,
# reports $v_j$ with GRR or UE at $\epsilon'$, and draws every other attribute's fake value from
# $\tilde f_i$ (UE-r: the one-hot of that value is then randomized). The unbiased estimators are
#
# $$\hat f_{GRR}(v)=\frac{d\,C(v)-n\big(q+(d-1)\tilde f_j(v)\big)}{n(p-q)}\quad(6),\qquad
#   \hat f_{UE\text{-}r}(v)=\frac{d\,C(v)-n\big(q+(p-q)(d-1)\tilde f_j(v)+q(d-1)\big)}{n(p-q)}\quad(7),$$
#
# with $\mathrm{Var}=d^2\gamma(1-\gamma)/(n(p-q)^2)$, where $\gamma$ is the probability that a
# report supports $v$, read from the probability trees of Figs. 7 and 8:
# $\gamma_{GRR}=\frac1d\big(q+f(v)(p-q)+(d-1)\tilde f_j(v)\big)$ (8),
# $\gamma_{UE\text{-}r}=\frac1d\big(f(v)(p-q)+q+(d-1)(\tilde f_j(v)(p-q)+q)\big)$ (9).
# (The captions of Figs. 7–8 say RS+FD; the trees are RS+RFD's.) The tests of `ldpnb.multidim`
# check unbiasedness, Eqs. 8–9 by Monte Carlo, the trees' leaves (T19) and that uniform priors
# give back RS+FD exactly (T9).

# %%
def draw_tree(ax, tree, title):
    """Draw a probability tree given as (node_label, [(edge_label, subtree), ...]); leaves that
    support v_i (counted in C(v_i)) are highlighted."""
    leaves = []

    def layout(node, depth):
        label, children = node
        if not children:
            y = -len(leaves)
            leaves.append(y)
            return {"label": label, "x": depth, "y": y, "kids": []}
        kids = [(el, layout(ch, depth + 1)) for el, ch in children]
        return {"label": label, "x": depth, "y": np.mean([k["y"] for _, k in kids]), "kids": kids}

    def draw(n):
        for el, k in n["kids"]:
            ax.plot([n["x"] + 0.32, k["x"] - 0.32], [n["y"], k["y"]], color="0.45", lw=1)
            up = k["y"] >= n["y"]
            ax.text((n["x"] + k["x"]) / 2 - 0.08, (n["y"] + k["y"]) / 2 + (0.15 if up else -0.15), el, ha="right",
                    va="bottom" if up else "top", fontsize=10, color="tab:blue")
            draw(k)
        support = not n["kids"] and ("= v_i" in n["label"] or "= 1" in n["label"])
        ax.text(n["x"], n["y"], n["label"], ha="center", va="center", fontsize=10,
                bbox=dict(boxstyle="round", fc="#fde9c9" if support else "w", ec="0.5"))

    root = layout(tree, 0)
    draw(root)
    ax.set(xlim=(-0.5, 3.5), ylim=(min(leaves) - 0.7, 0.7), title=title)
    ax.axis("off")


grr_tree = ("RS+RFD", [
    (r"$1/d$", ("True data", [
        (r"$f(v_i)$", (r"$B = v_i$", [(r"$p$", (r"$B' = v_i$", [])), (r"$1-p$", (r"$B' = v_{l\neq i}$", []))])),
        (r"$1-f(v_i)$", (r"$B = v_{l\neq i}$", [(r"$q$", (r"$B' = v_i$", [])), (r"$1-q$", (r"$B' = v_{l\neq i}$", []))]))])),
    (r"$1-1/d$", ("Fake data", [(r"$\tilde f_j(v_i)$", (r"$B' = v_i$", [])), (r"$1-\tilde f_j(v_i)$", (r"$B' = v_{l\neq i}$", []))]))])
ue_tree = ("RS+RFD", [
    (r"$1/d$", ("True data", [
        (r"$f(v_i)$", (r"$B_i = 1$", [(r"$p$", (r"$B'_i = 1$", [])), (r"$1-p$", (r"$B'_i = 0$", []))])),
        (r"$1-f(v_i)$", (r"$B_i = 0$", [(r"$q$", (r"$B'_i = 1$", [])), (r"$1-q$", (r"$B'_i = 0$", []))]))])),
    (r"$1-1/d$", ("Fake data", [
        (r"$\tilde f_j(v_i)$", (r"$B_i = 1$", [(r"$p$", (r"$B'_i = 1$", [])), (r"$1-p$", (r"$B'_i = 0$", []))])),
        (r"$1-\tilde f_j(v_i)$", (r"$B_i = 0$", [(r"$q$", (r"$B'_i = 1$", [])), (r"$1-q$", (r"$B'_i = 0$", []))]))]))])
fig, axes = plt.subplots(2, 1, figsize=(10, 10.5))
draw_tree(axes[0], grr_tree, "Fig. 7 — probability tree of RS+RFD[GRR] (the paper's caption says RS+FD[GRR])")
draw_tree(axes[1], ue_tree, "Fig. 8 — probability tree of RS+RFD[UE-r] (the paper's caption says RS+FD[UE-r])")
fig.text(0.5, 0.005, "Shaded leaves support $v_i$; summing their path probabilities gives γ of Eqs. 8 and 9.", ha="center")
plt.show()

# leaf probabilities of the trees vs a single-user simulation (T19)
d_t, k_t, eps_t = 3, 4, 1.0
pri_t = [np.array([0.4, 0.3, 0.2, 0.1])] * 3
Xone = np.tile([[0, 1, 2]], (200_000, 1))
dev = []
for prot in ["grr", "oue"]:
    rep, _ = md.rsfd_collect(Xone, [k_t] * 3, eps_t, prot, "prior", priors=pri_t, rng=rng)
    for j in range(3):
        emp = (np.bincount(rep[j], minlength=k_t) if prot == "grr" else rep[j].sum(0)) / len(Xone)
        p_, q_ = md.rsfd_params(prot, k_t, eps_t, d_t)
        g = md.rsfd_support_probability(np.eye(k_t)[Xone[0, j]], d_t, k_t, p_, q_, "grr" if prot == "grr" else "ue-r", pri_t[j])
        dev.append(np.max(np.abs(emp - g) / np.sqrt(g * (1 - g) / len(Xone))))
report.check("T19", "Figs. 7/8: Pr[report supports v] = γ of Eqs. 8/9 (single user, 200,000 reports)", paper="γ", ours=f"max |z| = {max(dev):.2f}",
             passed=bool(max(dev) < 5), tolerance="|z| < 5")

# %% [markdown]
# ### Utility (Figs. 5 and 16)
#
# MSE$_{avg}=\frac1d\sum_j\frac1{k_j}\sum_v(f_j(v)-\hat f_j(v))^2$ over the *unbiased* estimates
# (no post-processing; that is what the variance formulas predict), with an exact count-level
# sampler of the protocols, 20 runs at book scale. "Correct" priors: central Laplace noise on the
# true counts at $\epsilon=0.1/d$; "incorrect": Dirichlet(1), and (App. E) ZIPF(1.01) and EXP(1)
# histograms. Analytic curves (App. E.1): the averaged approximate variance ($f(v)=0$ in Eqs. 8/9).

# %%
EPS_U = np.log(np.arange(2, 8))
EPS_LAB = [f"ln({i})" for i in range(2, 8)]
METHODS = [("grr", "uniform"), ("sue", "random"), ("oue", "random"), ("grr", "prior"), ("sue", "prior"), ("oue", "prior")]
MCOL = {"GRR": color("grr"), "SUE-r": color("sue"), "OUE-r": color("oue")}
runs_u = SIZES["mse_runs"]
UDATA = {"ACS": (XC, KC), "Adult": (XA, KA)}
u_tasks = [("ACS", "correct"), ("ACS", "dir"), ("Adult", "correct"), ("Adult", "dir"), ("Adult", "zipf"), ("Adult", "exp")]
util = dict(zip(u_tasks, par(lambda t: at_experiments.rsfd_mse_experiment(
    *UDATA[t[0]], EPS_U, METHODS, prior_kind=t[1], rng=int(SEEDS[9]) + u_tasks.index(t),
    runs=runs_u if (t[0] == "ACS" or t[1] == "correct") else SIZES["mse_runs_inc"]), u_tasks)))


def mstyle(label):
    base_ = label.split("[")[1].rstrip("]")
    return dict(color=MCOL[base_], ls="-" if label.startswith("RS+RFD") else "--", marker="o" if label.startswith("RS+RFD") else "x", ms=4)


fig, axes = plt.subplots(1, 2, figsize=(11, 3.8), sharey=True)
for ax, pk_, lab in zip(axes, ["correct", "dir"], ["(a) 'Correct' priors", "(b) 'Incorrect' priors (DIR)"]):
    for m, v in util[("ACS", pk_)]["mse"].items():
        ax.plot(EPS_U, v.mean(0), label=m, **mstyle(m))
    ax.set(yscale="log", xticks=EPS_U, xticklabels=EPS_LAB, xlabel="ε", ylabel="MSE_avg", title=lab)
axes[0].legend(fontsize="x-small")
fig.suptitle(f"Fig. 5 — Utility of RS+RFD vs RS+FD on ACS ({runs_u} runs, unbiased estimates)", fontweight="bold")
plt.show()

fig, axes = plt.subplots(4, 2, figsize=(11, 12), sharex=True)
for r, (pk_, nm) in enumerate([("correct", "'Correct'"), ("dir", "DIR"), ("zipf", "ZIPF"), ("exp", "EXP")]):
    res = util[("Adult", pk_)]
    for m in res["mse"]:
        axes[r, 0].plot(EPS_U, res["approx"][m].mean(0), label=m, **mstyle(m))
        axes[r, 1].plot(EPS_U, res["mse"][m].mean(0), label=m, **mstyle(m))
    axes[r, 0].set(yscale="log", ylabel="averaged approx. variance", title=f"({chr(97 + 2 * r)}) analytical, {nm} priors")
    axes[r, 1].set(yscale="log", ylabel="MSE_avg", title=f"({chr(98 + 2 * r)}) experimental, {nm} priors")
for ax in axes[-1]:
    ax.set(xticks=EPS_U, xticklabels=EPS_LAB, xlabel="ε")
axes[0, 0].legend(fontsize="x-small")
fig.suptitle(f"Fig. 16 — Utility on Adult: analytical vs experimental ({runs_u} runs correct priors, {SIZES['mse_runs_inc']} incorrect)",
             fontweight="bold")
plt.show()

# %%
# The claims are about expected utility: orderings are checked on the exact expected MSE (mean of Eqs. 8/9 with the
# true f, averaged over the drawn priors), the experiments are checked against it (H8-analytic) and pooled over ε.
for ds_, thr in [("ACS", 0.7), ("Adult", 0.85)]:
    res = util[(ds_, "correct")]
    rr = res["analytic"]["RS+RFD[GRR]"].mean(0) / res["analytic"]["RS+FD[GRR]"].mean(0)
    pooled = res["mse"]["RS+RFD[GRR]"].sum(1).mean() / res["mse"]["RS+FD[GRR]"].sum(1).mean()
    report.check(f"H8-{ds_}", f"Sec. 5.2.2: RS+RFD[GRR] consistently outperforms RS+FD[GRR], correct priors ({ds_}; MSE ratio)",
                 paper="better", ours=f"expected {rr.min():.2f}–{rr.max():.2f}; experimental (pooled over ε) {pooled:.2f}",
                 passed=bool(np.all(rr <= thr) and (pooled <= thr or runs_u < 10)),
                 tolerance=f"≤ {thr} at every ε (expected) and pooled over ε ({runs_u} runs; the pooled part only from 10 runs)")
res = util[("ACS", "correct")]
allp = all(np.all(res["analytic"][f"RS+RFD[{p}]"].mean(0) < res["analytic"][f"RS+FD[{p}]"].mean(0)) for p in ["GRR", "SUE-r", "OUE-r"])
allx = {p: res["mse"][f"RS+RFD[{p}]"].sum(1).mean() / res["mse"][f"RS+FD[{p}]"].sum(1).mean() for p in ["GRR", "SUE-r", "OUE-r"]}
report.check("Fig5-a", "Fig. 5a: every RS+RFD protocol outperforms its RS+FD counterpart (ACS, correct priors)", paper="all better",
             ours="experimental pooled ratios " + ", ".join(f"{k} {v:.2f}" for k, v in allx.items()),
             passed=bool(allp and max(allx.values()) < 1), tolerance=f"expected MSE lower at every ε; pooled experimental ratio < 1 ({runs_u} runs)")
res = util[("ACS", "dir")]["analytic"]  # exact expected MSE (Eqs. 8/9 with the true f), averaged over the DIR draws
dirp = all(np.all(res[f"RS+RFD[{p}]"].mean(0) < res[f"RS+FD[{p}]"].mean(0)) for p in ["GRR", "SUE-r"])
oue_hi = res["RS+RFD[OUE-r]"].mean(0)[-1] / res["RS+FD[OUE-r]"].mean(0)[-1]
report.check("Fig5-b", "Fig. 5b: with DIR priors RS+RFD still better (GRR, SUE-r); OUE-r similar at large ε (ACS, expected MSE)",
             paper="better / OUE-r ≈", ours=f"OUE-r ratio at ln 7 = {oue_hi:.2f}", passed=bool(dirp and 0.8 <= oue_hi <= 1.1),
             tolerance="GRR, SUE-r better at every ε; OUE-r ratio in [0.8, 1.1] (exact expectation over the drawn priors)")
worst_rel, worst_key = 0.0, None
for key, res in util.items():
    for m in res["mse"]:
        rel = abs(res["mse"][m].sum(1).mean() / res["analytic"][m].sum(1).mean() - 1)  # pooled over ε
        if rel > worst_rel:
            worst_rel, worst_key = rel, (*key, m)
if SCALE == "smoke":
    report.not_evaluated("H8-analytic", "App. E.1: experiments consistent with the analytical variance", paper="consistent",
                         note=f"needs ≥ 5 runs per curve (one run has ~34 % rel. s.d.); smoke max rel. dev. {worst_rel:.2f}")
else:
    report.check("H8-analytic", "App. E.1: experiments consistent with the analytical variance (experimental MSE vs exact expected MSE, "
               "pooled over ε, for every dataset, prior and protocol)", paper="consistent", ours=f"max rel. dev. {worst_rel:.3f} ({worst_key})",
               passed=bool(worst_rel <= 0.25), tolerance=f"≤ 25 % ({runs_u} runs, {SIZES['mse_runs_inc']} for Adult's incorrect priors; "
                                                         "one run has ~34 % rel. s.d. on ACS)")
# analytic averaged approximate variance: RS+RFD <= RS+FD for every prior (Jensen), averaged over prior draws
draws = SIZES["prior_draws"]
viol, zr = 0, []
for kind in ["dir", "zipf", "exp"]:
    for _ in range(draws):
        pri = md_risks.make_priors(kind, KA, rng=rng)
        for e in EPS_U:
            for prot, fk in [("grr", "uniform"), ("sue", "random"), ("oue", "random")]:
                a_ = md.rsfd_approx_variance(KA, len(XA), e, prot, fk)
                b_ = md.rsfd_approx_variance(KA, len(XA), e, prot, "prior", priors=pri)
                viol += b_ > a_ * (1 + 1e-12)
                if kind == "zipf" and prot == "grr":
                    zr.append(b_ / a_)
report.check("T10", "RS+RFD's averaged approximate variance ≤ RS+FD's for every prior (Adult; DIR, ZIPF, EXP draws x 6 ε x 3 protocols)",
             paper="≤", ours=f"{viol} violations", passed=bool(viol == 0), tolerance="zero violations")
report.check("H8-zipf", "App. E.1: with ZIPF priors the approximate variance 'improved considerably', esp. RS+RFD[GRR] (ratio to RS+FD[GRR])",
             paper="considerable", ours=round(float(np.max(zr)), 3), passed=bool(np.max(zr) <= 0.35), tolerance="≤ 0.35 at every ε and draw")
gA = md.rsfd_approx_variance(KA, len(XA), np.log(7), "grr", "uniform")
report.check_close("T10-val", "Analytic averaged approximate variance of RS+FD[GRR] on Adult at ε = ln 7 (spec check value)",
                   paper=3.20e-4, ours=gA, rtol=0.01, note="value not printed in the paper; spec's independent computation")

# %% [markdown]
# ### Attribute inference against RS+RFD (Figs. 6 and 17)
#
# Two NK attackers are shown: the paper's (its synthetic profiles use *uniform* fake data, as in
# the artifact) and a **prior-aware** attacker that uses the public priors the server itself
# transmits. PK/HM attackers learn the fake-data distribution from the labelled users.

# %%
RFD_V = [("grr", "prior"), ("sue", "prior"), ("oue", "prior")]
RFD_ROWS = [("RS+RFD[GRR]", ["GRR"]), ("RS+RFD[UE-r]", ["SUE-r", "OUE-r"])]
rfd = at_experiments.aif_experiment(XC, KC, SIZES["rfd_eps"], [("grr", "uniform"), ("sue", "random"), ("oue", "random")],
                        runs=SIZES["aif_runs"], pk_fractions=SIZES["pk_fracs"], prior_kind="correct", rng=rng)
plot_aif(rfd, SIZES["rfd_eps"], 18, RFD_ROWS, "Fig. 6 — Attribute inference against RS+RFD, 'Correct' priors, ACS", SIZES["pk_fracs"])

# the paper's classifier against RS+RFD (NK with uniform synthetic fake data, as in the artifact; PK learns from labelled tuples)
RFD_XV = [("grr", "uniform"), ("oue", "random")] if SCALE != "paper" else [("grr", "uniform"), ("sue", "random"), ("oue", "random")]
rfd_x = {}
for res in par(lambda v: at_experiments.aif_xgb_experiment(XC, KC, SIZES["xgb_eps"], [v], [XGB_ALL[0], XGB_ALL[5]], runs=SIZES["aif_runs"],
                                               prior_kind="correct", n_estimators=SIZES["xgb_trees"], max_train=SIZES["xgb_train"],
                                               rng=int(SEEDS[11])), RFD_XV):
    rfd_x.update(res)
plot_xgb(rfd_x, "Fig. 6 (XGBoost, the paper's classifier) — AIF-ACC against RS+RFD, 'Correct' priors, ACS", 18)

# %%
inc = {kind: at_experiments.aif_experiment(XC, KC, SIZES["rfd_eps"], [("grr", "uniform"), ("sue", "random"), ("oue", "random")],
                               runs=SIZES["aif_runs"], pk_fractions=(), prior_kind=kind, rng=rng) for kind in ["dir", "zipf", "exp"]}
fig, axes = plt.subplots(2, 3, figsize=(13, 6.5), sharex=True)
for c, kind in enumerate(["dir", "zipf", "exp"]):
    for r, (rname, labels) in enumerate(RFD_ROWS):
        ax = axes[r, c]
        for lab in labels:
            ax.plot(SIZES["rfd_eps"], inc[kind][(lab, "NK")].mean(0), color=VCOL[lab], marker="o", ms=3, label=f"{lab} NK (paper's attacker)")
            ax.plot(SIZES["rfd_eps"], inc[kind][(lab, "NK_prior")].mean(0), color=VCOL[lab], marker="^", ms=3, ls="--", label=f"{lab} NK prior-aware")
        ax.axhline(100 / 18, color="k", ls="-.", lw=1, label="Baseline 1/d")
        ax.set(title=f"({chr(97 + 3 * r + c)}) {rname}, {kind.upper()} priors", xlabel="ε", ylabel="AIF-ACC (%)")
        ax.legend(fontsize="xx-small")
fig.suptitle("Fig. 17 — NK attribute inference against RS+RFD with 'Incorrect' priors, ACS", fontweight="bold")
plt.show()

# %%
ER = np.array(SIZES["rfd_eps"])
art = np.array([rfd[(lab, "NK")].mean(0) for lab in ["GRR", "SUE-r", "OUE-r"]])
report.check("H9-a", "Sec. 5.2.3: against RS+RFD (correct priors) the paper's NK attacker gains only marginally over the 5.56 % baseline (ACS, %)",
             paper="minor gain", ours=f"{art.min():.1f}–{art.max():.1f}", passed=bool(art.max() <= 11.1),
             tolerance="≤ 2 x baseline = 11.1 % at every ε",
             note="the attacker that assumes uniform fake data can even fall below the baseline (it mistakes prior-distributed fake "
                  "values for real ones)")
fd_grr = aif["ACS"][("GRR", "NK")].mean(0)
common = [e for e in SIZES["rfd_eps"] if e in AIF_EPS["ACS"] and e >= 2]
gaps = [fd_grr[AIF_EPS["ACS"].index(e)] - rfd[("GRR", "NK")].mean(0)[SIZES["rfd_eps"].index(e)] for e in common]
if gaps:
    report.check("H9-b", "Sec. 5.2.3: RS+RFD considerably decreases AIF-ACC vs RS+FD (GRR, NK, ε ≥ 2; points)", paper="considerable",
                 ours=f"{min(gaps):.1f}–{max(gaps):.1f}", passed=bool(min(gaps) >= 8), tolerance="≥ 8 pts at every common ε")
else:
    report.not_evaluated("H9-b", "RS+RFD decreases AIF-ACC vs RS+FD", paper="considerable", note="no common ε ≥ 2 at this scale")
last_pk = f"PK{SIZES['pk_fracs'][-1]:g}"
pk_gt = np.mean([rfd[(lab, last_pk)].mean(0).mean() - rfd[(lab, "NK")].mean(0).mean() for lab in ["GRR", "SUE-r", "OUE-r"]])
report.check("H9-c", "Sec. 5.2.3: against RS+RFD, PK gives higher AIF-ACC than NK (mean over ε and protocols; points)", paper="PK > NK",
             ours=round(float(pk_gt), 2), passed=bool(pk_gt > 0), tolerance="> 0")
pkx = float(np.mean([(rfd_x[(lab, "PK 0.5n")] - rfd_x[(lab, "NK s=1n")]).mean() for lab in {k[0] for k in rfd_x}]))
xmax = max(float(v.max()) for v in rfd_x.values())
report.check("H9-xgb", "Sec. 5.2.3 (XGBoost): against RS+RFD, PK (0.5n) > NK (s = 1n) and the gain over the baseline stays minor (ACS)",
             paper="PK > NK, minor gain", ours=f"mean(PK − NK) = {pkx:.2f} pt; max AIF-ACC {xmax:.1f} %",
             passed=bool(pkx > 0 and xmax <= 2 * 100 / 18), tolerance="PK − NK > 0 (mean over ε and protocols); all ≤ 2 x baseline")
aware = rfd[("GRR", "NK_prior")].mean(0)
naive = rfd[("GRR", "NK")].mean(0)
report.check("H9-aware", "Extension: a prior-aware NK attacker beats the paper's attacker against RS+RFD[GRR], correct priors (ACS, %)",
             paper="not in paper", ours=f"prior-aware {aware.min():.1f}–{aware.max():.1f} vs paper's {naive.min():.1f}–{naive.max():.1f}",
             passed=bool(np.all(aware > naive)), tolerance="higher at every ε (spec's independent check ≈ 10 %)")
inc_aw = {kind: inc[kind][("GRR", "NK_prior")].mean(0).max() for kind in inc}
report.check("Fig17-aware", "Extension: with incorrect priors a prior-aware attacker breaks RS+RFD[GRR] (max AIF-ACC over ε, ACS, %)",
             paper="not in paper (Fig. 17 shows only the uniform-fake attacker)",
             ours=", ".join(f"{k.upper()} {v:.1f}" for k, v in inc_aw.items()),
             passed=bool(min(inc_aw.values()) > 25),
             tolerance="prior-aware > 25 % (RS+FD[GRR] level) for every incorrect prior")

# %% [markdown]
# **What this means in practice.** Against the attacker of the paper, RS+RFD hides the sampled
# attribute well with priors close to the truth. But the priors are public, and an attacker who
# uses them for its synthetic fake data recovers part of the signal with correct priors and much
# more with incorrect ones: with ZIPF or EXP priors, fake data are concentrated on a few values,
# so a report outside them is almost surely real. A practitioner should use RS+RFD only with
# priors close to the population (e.g., a recent census), never with arbitrary ones, and should
# assume the attacker knows them.

# %% [markdown]
# ## Is RS+FD (and RS+RFD) ε-LDP?
#
# The paper states that sending $v_j$ at $\epsilon'$ plus fake data makes the whole tuple
# $\epsilon$-LDP (amplification by sampling). We compute the exact worst-case log-ratio of the
# tuple mechanism, $P(\mathbf y\mid\mathbf v)=\sum_j\frac1d P_{\mathcal M}(y_j\mid v_j)\prod_{i\ne j}P_{fake,i}(y_i)$,
# by enumeration on small domains, over all input pairs and over pairs differing in one attribute.

# %%
cases = [([2, 2], "grr", "uniform", None), ([2, 2, 2], "grr", "uniform", None), ([3, 3], "grr", "uniform", None),
         ([2, 5], "grr", "uniform", None), ([2, 3, 6], "grr", "uniform", None), ([2, 3], "oue", "random", None),
         ([2, 3], "sue", "zero", None),
         ([3, 3], "grr", "prior", [np.array([0.8, 0.15, 0.05]), np.array([0.6, 0.3, 0.1])])]
rows = []
for ks_, prot, fk, pri in cases:
    r_ = md.exact_privacy_loss(ks_, 1.0, prot, fk, priors=pri)
    rows.append({"k": str(ks_), "protocol": f"{'RS+RFD' if fk == 'prior' else 'RS+FD'}[{prot.upper()}, {fk}]",
                 "ε": 1.0, "worst, one attribute differs": r_["attribute"], "worst, any pair": r_["any"], "ε'": r_["eps_prime"]})
priv = pd.DataFrame(rows)
display(priv.round(4))
r22 = priv.iloc[0]
report.diverges("T13", "Sec. 2.3.2 / 5.1: RS+FD and RS+RFD satisfy ε-LDP (k = (2, 2), ε = 1; worst log-ratio over all input pairs)",
                paper=1.0, ours=round(r22["worst, any pair"], 4), tolerance="exact enumeration",
                note="The guarantee holds for inputs differing in ONE attribute (equal k, uniform fake data: exactly ε); over arbitrary "
                     "input pairs the loss reaches 1.490 (k = (2,2)) and 1.817 (k = (2,2,2)); with unequal k or priors even the "
                     "one-attribute loss exceeds ε (1.138 for k = (2,5), 1.428 for RS+RFD). It is always ≤ ε'.",
                holds=bool(abs(r22["worst, one attribute differs"] - 1.0) < 1e-9 and np.all(priv["worst, any pair"] <= priv["ε'"] + 1e-9)
                           and abs(r22["worst, any pair"] - 1.490) < 1e-3))

# %% [markdown]
# ## What the reproduction supports
#
# * **SMP leaks profiles over repeated surveys.** With GRR (and ω-SS, identical at these
#   budgets) or SUE, five surveys at large ε re-identify about a third of Adult's users within a
#   top-10 list; OUE and OLH reduce this roughly tenfold — our runs support the paper's advice
#   to prefer **OUE or OLH**, to **memoize** reports (non-uniform metric) and to use **small ε**
#   (every protocol stays below 1 % top-10 at ε = 1).
# * **RS+FD hides the sampled attribute only when real data look uniform** (Nursery). On ACS and
#   Adult the Bayes attacker reaches 25–40 %, and RS+FD[SUE-z] is fully broken. RID through
#   RS+FD is more than an order of magnitude below SMP (Fig. 4), yet top-1 is ~40x the random baseline.
# * **RS+RFD improves utility** for every prior and hides the sampled attribute from the
#   paper's attacker with correct priors — but a prior-aware attacker partly undoes this, and
#   with incorrect priors it does better than against RS+FD (Sec. 5 above).
# * The privacy statement of RS+FD/RS+RFD holds only attribute-wise (Sec. 6).

# %% [markdown]
# ## Reproduction report

# %%
print(f"chapter wall time: {time.time() - T0:.0f} s, CPU time {time.process_time():.0f} s at scale {SCALE}")
report.finalize()
