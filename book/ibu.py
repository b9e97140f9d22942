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
# # Consistency and performance of the iterative Bayesian update
#
# This chapter reproduces E. ElSalamouny and C. Palamidessi, *On the Consistency and Performance of
# the Iterative Bayesian Update* (arXiv 2508.09980) {cite}`elsalamouny2023ibu`. Each of $n$ users holds a value
# $X^i \sim \theta$ on a finite alphabet $\mathcal X$ and reports $z^i \sim M(X^i,\cdot)$ through a
# known mechanism $M$ (rows = $\mathcal X$, columns = $\mathcal Z$). The curator estimates $\theta$
# from the empirical distribution $q$ of the reports, either by matrix inversion
# ($v = qM^{-1}$, then clipping-and-normalising, **INV-N**, or projecting onto the simplex,
# **INV-P** {cite}`wang2013projection`) or by the **iterative Bayesian update** (IBU, Algorithm 1),
# an EM algorithm whose fixed points are maximum-likelihood estimates (MLEs)
# {cite}`elsalamouny2020gibu`:
#
# $$\theta^{t+1}_x = \sum_{z} q_z\,\frac{\theta^t_x M_{xz}}{\sum_u \theta^t_u M_{uz}} .$$
#
# The paper (i) characterises when the log-likelihood is strictly concave and when the MLE is
# *consistent* (identification), (ii) shows that IBU beats INV by a wide margin under
# geo-indistinguishable mechanisms but not under $k$-RR or Rappor, and explains why through the
# error of INV, and (iii) shows how to run IBU on infinite alphabets through *likely subsets*.
# Every number below is recomputed by the code shown, on the real Adult and Gowalla data; the
# reproduction report at the end lists every claim with the paper's value, ours and the status.

# %% tags=["parameters"]
SCALE = "book"  # "smoke" (seconds, tests) | "book" (the published book, minutes) | "paper"
SEED = 2024
TOL = 1e-8  # IBU stopping threshold on the normalised log-likelihood l = L/n (unstated in the paper)
REPS = None  # runs per epsilon in Figs. 9, 10, 12; None = the scale's default (3 / 50 / 100)

# %%
import time
import zlib
from math import comb

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.patches import Polygon
from scipy.spatial import ConvexHull

from ldpnb import data as datasets
from ldpnb import estimators as est
from ldpnb import data as lgrid
from ldpnb.papers import ibu as lgrid_ibu
from ldpnb import estimators as it
from ldpnb.papers import ibu as it_ibu
from ldpnb import mechanisms as it_mechanisms
from ldpnb import measures as it_measures
from ldpnb import channels as it_channels
from ldpnb import mechanisms as mech
from ldpnb import channels as mech_channels
from ldpnb.measures import emd, emd_1d
from ldpnb.repro.parallel import sweep
from ldpnb.repro.plotting import color, paper_title, set_style
from ldpnb.repro.legacy import Report

set_style()
report = Report("ibu", scale=SCALE)
T0 = time.perf_counter()

SIZES = {
    # reps: runs per epsilon (paper: 100); eps grids follow spec 002 §5 / §8 (the paper gives ranges only)
    "smoke": dict(reps=3, eps_age=[0.01, 0.05, 0.3], eps_loc=[0.2, 1.0, 6.0], eps_ldp=[0.5, 2.0, 5.0],
                  max_iter=10_000, tols=[1e-6, 1e-8], mc_trials=400, mc_eps=[1.0, 2.0], cons_n=[1_000, 10_000, 100_000], cons_reps=5,
                  fig6_iter=200_000, t21_iter=2_000, t21_X=(-200, 300), t24=(500, 15, 300, 4_000),
                  rappor_n=[10, 15, 20, 25, 30], n_jobs=1),
    "book": dict(reps=50, eps_age=[0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3],
                 eps_loc=[0.2, 0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0], eps_ldp=list(np.arange(1, 11) / 2),
                 max_iter=10_000, tols=[1e-6, 1e-8, 1e-10], mc_trials=2_000, mc_eps=[0.5, 1.0, 2.0, 3.0, 4.0, 5.0],
                 cons_n=[1_000, 10_000, 100_000, 1_000_000], cons_reps=20, fig6_iter=200_000,
                 t21_iter=10_000, t21_X=(-2_000, 2_100), t24=(1_000, 30, 600, 6_000),
                 rappor_n=[10, 12, 15, 20, 25, 30, 40, 50, 75, 100, 150], n_jobs=1),
    "paper": dict(reps=100, eps_age=[0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3],
                  eps_loc=[0.2, 0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0], eps_ldp=list(np.arange(1, 11) / 2),
                  max_iter=10_000, tols=[1e-6, 1e-8, 1e-10, 1e-12], mc_trials=4_000, mc_eps=[0.5, 1.0, 2.0, 3.0, 4.0, 5.0],
                  cons_n=[100, 1_000, 10_000, 100_000, 1_000_000], cons_reps=50, fig6_iter=200_000,
                  t21_iter=20_000, t21_X=(-2_000, 2_100), t24=(5_000, 50, 2_000, 10_000),
                  rappor_n=[10, 12, 15, 20, 25, 30, 40, 50, 75, 100, 150], n_jobs=2),
}[SCALE]
if REPS is not None:
    SIZES["reps"] = int(REPS)


def rng_for(name):
    """An independent generator per experiment, derived from SEED and the experiment's name."""
    return np.random.default_rng([SEED, zlib.crc32(name.encode())])


def tic():
    return time.perf_counter()


print(f"scale={SCALE}: {SIZES['reps']} runs per epsilon, IBU tol={TOL:g} (on l = L/n), max_iter={SIZES['max_iter']}")

# %% [markdown]
# ## The local model and the log-likelihood (§3-§4)
#
# For observations $z^1..z^n$ let $G_{xi} = M_{x z^i}$ (the *observation probability matrix*).
# The log-likelihood of a candidate distribution $\phi$ is (eqs. 1-2)
#
# $$L(\phi) = \sum_{i=1}^n \log \sum_{x} \phi_x G_{xi} = n \sum_z q_z \log(\phi M)_z .$$
#
# **Lemma 4.1** $L$ is concave, with equality in
# $L(\gamma\theta + (1-\gamma)\phi) \ge \gamma L(\theta) + (1-\gamma) L(\phi)$ iff
# $(\theta-\phi)G = 0$. Hence (**Thm 4.1**) $L$ is strictly concave iff every nonzero $w$ with
# $\sum_x w_x = 0$ has $wG \ne 0$, i.e. iff $\operatorname{rank}[G \mid \mathbf 1] = |\mathcal X|$.
#
# Fig. 2 of the paper is the diagram of this model:

# %%
fig, ax = plt.subplots(figsize=(8, 2.6))
ax.set_axis_off()
for i, y in enumerate([0.8, 0.5, 0.2]):
    lab = ["$X^1$", "$X^2$", "$X^n$"][i]
    ax.annotate("", xy=(0.42, y), xytext=(0.12, y), xycoords="axes fraction", textcoords="axes fraction",
                arrowprops=dict(arrowstyle="->", lw=1.5, color="k"))
    ax.text(0.08, y, lab, ha="center", va="center", fontsize=13)
    ax.text(0.27, y + 0.06, "$M$", ha="center", fontsize=12, color=color("ibu"))
    ax.text(0.47, y, ["$z^1$", "$z^2$", "$z^n$"][i], ha="center", va="center", fontsize=13)
    ax.annotate("", xy=(0.78, 0.5), xytext=(0.51, y), xycoords="axes fraction", textcoords="axes fraction",
                arrowprops=dict(arrowstyle="->", lw=1, color="grey"))
ax.text(0.08, 0.35, "⋮", ha="center", fontsize=14)
ax.text(0.88, 0.5, "curator\nestimates $\\theta$\n(IBU / INV)", ha="center", va="center", fontsize=12,
        bbox=dict(boxstyle="round", fc="#f0f0f0"))
ax.text(0.08, 0.98, "users (local, i.i.d. $\\sim\\theta$)", ha="center", fontsize=10)
ax.text(0.47, 0.98, "noisy reports", ha="center", fontsize=10)
paper_title(ax, "Fig. 2", "the local privacy model")
plt.show()

# %% [markdown]
# ### Worked example: mechanism (4) and Fig. 3
#
# $\mathcal X = \mathcal Z = \{1,2,3\}$ and
# $M = \begin{pmatrix}0.10&0.45&0.45\\0.45&0.10&0.45\\0.45&0.45&0.10\end{pmatrix}$. With the
# single observation $\{2\}$, $L(\theta) = \log(0.45 - 0.35\,\theta_2)$: every distribution with
# $\theta_2 = 0$ is an MLE, and IBU keeps the ratio $\theta_1/\theta_3$ of its start. With the
# observations $\{2, 1\}$ the likelihood is strictly concave and the MLE $(0,0,1)$ is unique.

# %%
M4 = np.array([[0.10, 0.45, 0.45], [0.45, 0.10, 0.45], [0.45, 0.45, 0.10]])
M12 = np.array([[0.45, 0.10, 0.45], [0.05, 0.90, 0.05], [0.45, 0.10, 0.45]])
U3 = np.full(3, 1 / 3)
START_B = np.array([0.6, 0.3, 0.1])


def counts_of(obs):  # observations are 1-based letters as in the paper
    return np.bincount(np.asarray(obs) - 1, minlength=3)


def fixed_point(M, obs, theta0=None, n=5_000):
    return it.ibu_rows(M, counts_of(obs), theta0=theta0, tol=0, max_iter=n).estimate


def surface_panel(ax, M, obs, title, starts=(U3, START_B)):
    t1, t3, L = it_ibu.loglik_surface(M, np.asarray(obs) - 1, resolution=301)
    im = ax.imshow(L, origin="lower", extent=[0, 1, 0, 1], cmap="viridis", vmin=np.nanpercentile(L, 5))
    ax.contour(t1, t3, L, levels=12, colors="white", linewidths=0.5, alpha=0.6)
    for t0, c in zip(starts, ["#D55E00", "#E69F00"]):
        path = it.ibu_path(M, counts_of(obs), t0, 400)
        ax.plot(path[:, 0], path[:, 2], "-", color=c, lw=2, label=f"IBU from ({', '.join(f'{v:.2g}' for v in t0)})")
        ax.plot(*path[-1, [0, 2]], "o", color=c, ms=8, mec="k")
    ax.set_xlabel(r"$\theta_1$")
    ax.set_ylabel(r"$\theta_3$")
    ax.grid(False)
    ax.set_title(title)
    ax.legend(loc="upper right", fontsize="x-small")
    plt.colorbar(im, ax=ax, label=r"$L(\theta)$ (nats)")


fig, axes = plt.subplots(1, 2, figsize=(11, 4.6))
surface_panel(axes[0], M4, [2], "(a) observations {2}: a flat ridge on $\\theta_1+\\theta_3=1$")
surface_panel(axes[1], M4, [2, 1], "(b) observations {2, 1}: unique maximum (0, 0, 1)")
paper_title(fig, "Fig. 3", "log-likelihood of mechanism (4) over the simplex ($\\theta_2 = 1-\\theta_1-\\theta_3$)")
plt.show()

# %%
G_a = it.observation_matrix(M4, np.array([1]))
G_b = it.observation_matrix(M4, np.array([1, 0]))
fp_u, fp_b = fixed_point(M4, [2]), fixed_point(M4, [2], START_B)
fp_ab = np.array([fixed_point(M4, [2, 1], t0) for t0 in [U3, START_B, *rng_for("T10").dirichlet(np.ones(3), 3)]])
rows3 = {
    "max L, obs {2}": (np.log(0.45), it.loglik_observations(fp_u, G_a)),
    "L(uniform), obs {2}": (-1.098612, it.loglik_observations(U3, G_a)),
    "min L = log 0.1 at (0,1,0), obs {2}": (-2.302585, np.nanmin(it_ibu.loglik_surface(M4, [1], 301)[2])),
    "max L, obs {2,1}": (-1.597015, it.loglik_observations(fp_ab[0], G_b)),
    "L(uniform), obs {2,1}": (-2.197225, it.loglik_observations(U3, G_b)),
    "L(1,0,0) = L(0,1,0), obs {2,1}": (-3.101093, it.loglik_observations([[1, 0, 0], [0, 1, 0]], G_b)),
}
for i, (name, (paper, ours)) in enumerate(rows3.items()):
    report.check_close(f"T3.{i + 1}", f"Mechanism (4): {name}", paper=round(paper, 6), ours=ours, atol=1e-5)
report.check_close("T3.7", "Mechanism (4), obs {2}: IBU from uniform -> (0.5, 0, 0.5)", paper=[0.5, 0, 0.5],
                   ours=fp_u, atol=1e-4)
report.check_close("T3.8", "Mechanism (4), obs {2}: IBU from (0.6, 0.3, 0.1) -> (6/7, 0, 1/7)",
                   paper=[0.857143, 0, 0.142857], ours=fp_b, atol=1e-5)
report.check("T3.9", "Mechanism (4): L not strictly concave for {2} (w = (1,0,-1)), strictly concave for {2,1} "
             "(Thm 4.1 via rank[G|1])", paper="not strict / strict",
             ours=f"{'strict' if it.is_strictly_concave(G_a) else 'not strict'} / "
                  f"{'strict' if it.is_strictly_concave(G_b) else 'not strict'}; w = "
                  f"{np.round(it.concavity_null_direction(G_a) / it.concavity_null_direction(G_a)[0], 6)}",
             passed=(not it.is_strictly_concave(G_a)) and it.is_strictly_concave(G_b), tolerance="exact rank test")
gaps = [it.loglik_observations(g * np.array([1.0, 0, 0]) + (1 - g) * np.array([0, 0, 1.0]), G_a)
        - g * it.loglik_observations([1.0, 0, 0], G_a) - (1 - g) * it.loglik_observations([0, 0, 1.0], G_a) for g in (0.1, 0.5, 0.9)]
rngT1 = rng_for("T1")
Grand = rngT1.random((5, 12)) + 1e-3
pairs = rngT1.dirichlet(np.ones(5), (200, 2))
gams = rngT1.uniform(0.05, 0.95, 200)[:, None]
rgap = (it.loglik_observations(gams * pairs[:, 0] + (1 - gams) * pairs[:, 1], Grand)
        - gams[:, 0] * it.loglik_observations(pairs[:, 0], Grand) - (1 - gams[:, 0]) * it.loglik_observations(pairs[:, 1], Grand))
report.check("T1", "Lemma 4.1: equality iff (theta - phi) G = 0: equality on (1,0,0)-(0,0,1) for obs {2}; strict gap for 200 "
             "random pairs on a positive 5x12 G", paper="= / >", ours=f"max |gap| {np.max(np.abs(gaps)):.1e}; min random gap {rgap.min():.1e}",
             passed=bool(np.max(np.abs(gaps)) < 1e-12 and rgap.min() > 1e-12), tolerance="1e-12")
# T0: IBU's limit is an MLE. Certificate: KKT conditions of max_phi sum_z q_z log (phi M)_z, and a generic solver
from scipy.optimize import minimize  # noqa: E402

rng0 = rng_for("T0")
M0 = mech.grr_channel(10, 1.0)
c0 = it_channels.simulate_counts_batch(M0, rng0.multinomial(2000, rng0.dirichlet(np.ones(10))), 1, rng=rng0)[0]
r0 = est.ibu(M0, c0, tol=0, max_iter=20_000)
q0 = c0 / c0.sum()
sol0 = minimize(lambda t: -np.dot(q0, np.log(np.clip(t @ M0, 1e-300, None))), np.full(10, 0.1), method="SLSQP",
                bounds=[(0, 1)] * 10, constraints=[{"type": "eq", "fun": lambda t: t.sum() - 1}], options={"ftol": 1e-14, "maxiter": 500})
kkt0 = it.kkt_residual(r0.estimate, M0, c0)
report.check("T0", "IBU yields an MLE: EM monotone, KKT residual ~0, and l(IBU) >= l(SLSQP) (k-RR k=10, n=2000)",
             paper="MLE (cited from [7])", ours=f"KKT {kkt0:.1e}; l(IBU) - l(SLSQP) = {r0.loglik + sol0.fun:+.1e}",
             passed=bool(np.all(np.diff(r0.trace) >= -1e-13) and kkt0 < 1e-6 and r0.loglik >= -sol0.fun - 1e-7),
             tolerance="KKT < 1e-6; l gap >= -1e-7")
report.check("T10", "Prop 5.1: strictly concave L -> unique MLE: IBU from 5 starts reaches (0,0,1) (obs {2,1})",
             paper="(0, 0, 1)", ours=f"max L1 distance {np.abs(fp_ab - [0, 0, 1]).sum(1).max():.1e}",
             passed=bool(np.abs(fp_ab - [0, 0, 1]).sum(1).max() < 1e-4), tolerance="L1 < 1e-4")
pd.DataFrame({"start": ["uniform", "(0.6,0.3,0.1)"], "fixed point, obs {2}": [fp_u.round(6), fp_b.round(6)]})

# %% [markdown]
# ### Uniqueness is not strict concavity: mechanism (12) and Fig. 5
#
# $M = \begin{pmatrix}0.45&0.10&0.45\\0.05&0.90&0.05\\0.45&0.10&0.45\end{pmatrix}$ has identical
# rows 1 and 3 (rank 2). With $\{2,2,2,2\}$ the MLE $(0,1,0)$ is unique although $L$ is constant
# along $\theta_2 = $ const; adding the reports 1 and 3 makes a whole segment of MLEs
# ($\theta_2 = 17/24$), and no amount of data separates $\theta_1$ from $\theta_3$.

# %%
fig, axes = plt.subplots(1, 2, figsize=(11, 4.6))
surface_panel(axes[0], M12, [2, 2, 2, 2], "(a) observations {2,2,2,2}: unique MLE (0,1,0)")
surface_panel(axes[1], M12, [2, 2, 2, 2, 1, 3], "(b) {2,2,2,2,1,3}: a segment of MLEs, $\\theta_2=17/24$")
axes[1].plot([0, 7 / 24], [7 / 24, 0], "w--", lw=2)
paper_title(fig, "Fig. 5", "log-likelihood of mechanism (12): a unique MLE without strict concavity")
plt.show()

# %%
Ga12 = it.observation_matrix(M12, np.array([1, 1, 1, 1]))
Gb12 = it.observation_matrix(M12, np.array([1, 1, 1, 1, 0, 2]))
fp12 = [fixed_point(M12, [2, 2, 2, 2, 1, 3]), fixed_point(M12, [2, 2, 2, 2, 1, 3], START_B)]
fp12a = fixed_point(M12, [2, 2, 2, 2])
rows11 = {
    "obs {2,2,2,2}: max L = 4 log 0.9 at (0,1,0)": (-0.421442, it.loglik_observations(fp12a, Ga12)),
    "obs {2,2,2,2}: L on the segment (1,0,0)-(0,0,1) = 4 log 0.1": (-9.2103, it.loglik_observations([0.3, 0, 0.7], Ga12)),
    "obs {2,2,2,2}: L(uniform)": (-4.013208, it.loglik_observations(U3, Ga12)),
    "obs {2,2,2,2,1,3}: max L": (-5.205379, it.loglik_observations(fp12[0], Gb12)),
    "obs {2,2,2,2,1,3}: L(uniform)": (-6.313020, it.loglik_observations(U3, Gb12)),
}
for i, (name, (paper, ours)) in enumerate(rows11.items()):
    report.check_close(f"T11.{i + 1}", f"Mechanism (12): {name}", paper=paper, ours=ours,
                       atol=1e-4 if "9.2103" in f"{paper}" else 1e-5)
report.check_close("T11.6", "Mechanism (12), obs {2,2,2,2}: unique MLE (0,1,0)", paper=[0, 1, 0], ours=fp12a, atol=1e-5)
report.check_close("T11.7", "Mechanism (12), {2,2,2,2,1,3}: IBU from uniform -> (7/48, 17/24, 7/48)",
                   paper=[0.145833, 0.708333, 0.145833], ours=fp12[0], atol=1e-5)
report.check_close("T11.8", "Mechanism (12), {2,2,2,2,1,3}: IBU from (0.6,0.3,0.1) -> (0.25, 17/24, 1/24)",
                   paper=[0.25, 0.708333, 0.041667], ours=fp12[1], atol=1e-5)
_ = report.check("T11.9", "Mechanism (12) is not identifiable (rank 2 < 3); L not strictly concave for either set",
             paper="rank 2; not strict", ours=f"rank {np.linalg.matrix_rank(M12)}; strict: "
             f"{it.is_strictly_concave(Ga12)}, {it.is_strictly_concave(Gb12)}",
             passed=(not it.is_identifiable(M12)) and not it.is_strictly_concave(Ga12) and not it.is_strictly_concave(Gb12),
             tolerance="exact rank test")

# %% [markdown]
# ## The paper's mechanisms as exact channels
#
# All channels come from `ldpnb.mechanisms` (rows = inputs). $k$-RR (eq. 5) and basic Rappor
# (Lemma 4.4: $P(\beta\mid x) = p^{|\mathcal X|} e^{-(1/2 + S(\beta)/2 - \beta_x)\varepsilon}$,
# $p = e^{\varepsilon/2}/(1+e^{\varepsilon/2})$) are $\varepsilon$-LDP; the truncated linear
# geometric (eq. 7), the discretised Laplace, the exponential mechanism
# ($M_{xz} \propto e^{-\varepsilon_g d(x,z)/2}$ — the paper does not write the formula; the factor
# $1/2$ is the convention of Chatzikokolakis et al. {cite}`chatzikokolakis2017efficient` that makes
# it $\varepsilon_g$-geo-ind) and
# the planar geometric / Laplace mechanisms (truncated by clamping to the grid) are
# $\varepsilon_g$-geo-indistinguishable. We compute the *tight* constant of each matrix.

# %%
x100 = np.arange(100)
D_age = np.abs(x100[:, None] - x100[None, :]).astype(float)
G_lat = lgrid.lattice_distance_matrix(20, 14, 0.5)
priv = []
for name, M, D, target in [
    ("k-RR, k=100, eps=2", mech.grr_channel(100, 2.0), None, 2.0),
    ("basic Rappor, k=8, eps=1", mech.rappor_channel(8, 1.0), None, 1.0),
    ("truncated geometric, k=100, eps_g=0.05", mech.geometric_channel(100, 0.05), D_age, 0.05),
    ("discretised Laplace, k=100, eps_g=0.1", mech.laplace_channel(100, 0.1), D_age, 0.1),
    ("exponential, k=100, eps_g=0.1", mech.exponential_channel(D_age, 0.1), D_age, 0.1),
    ("planar geometric 20x14 (0.5 km), eps_g=1/km", mech.planar_geometric_channel(20, 14, 1.0, cell_size=0.5), G_lat, 1.0),
    ("planar Laplace 20x14 (0.5 km), eps_g=1/km", mech.planar_laplace_channel(20, 14, 1.0, cell_size=0.5), G_lat, 1.0),
    ("exponential 20x14 (0.5 km), eps_g=1/km", mech.exponential_channel(G_lat, 1.0), G_lat, 1.0),
]:
    tight = mech_channels.ldp_epsilon(M) if D is None else mech_channels.geo_ind_epsilon(M, D)
    priv.append(dict(mechanism=name, shape=M.shape, target=target, tight_epsilon=tight,
                     identifiable=it.is_identifiable(M)))
priv = pd.DataFrame(priv)
ok_ldp = priv.target.iloc[:2].to_numpy()
report.check("T25.1", "k-RR and Rappor are eps-LDP with max log-ratio exactly eps", paper="eps",
             ours=priv.tight_epsilon.iloc[:2].round(12).tolist(),
             passed=bool(np.allclose(priv.tight_epsilon.iloc[:2], ok_ldp, atol=1e-9)), tolerance="abs 1e-9")
report.check("T25.2", "Geometric, Laplace, exponential (linear and planar) are eps_g-geo-ind (tight constant <= eps_g)",
             paper="<= eps_g", ours=priv.tight_epsilon.iloc[2:].round(6).tolist(),
             passed=bool(np.all(priv.tight_epsilon.iloc[2:].to_numpy() <= priv.target.iloc[2:].to_numpy() + 1e-9)),
             tolerance="+1e-9")
report.check("T13.1", "Thm 6.1: every mechanism of the experiments is identifiable (rank M = |X|)",
             paper="identifiable", ours=f"{int(priv.identifiable.sum())}/{len(priv)}",
             passed=bool(priv.identifiable.all()), tolerance="exact rank test")
bits8 = (np.arange(2**8)[:, None] >> np.arange(8)) & 1
report.check_close("T7", "Lemma 4.4: Rappor channel = p^k exp(-(1/2 + S/2 - beta_x) eps) (k=8, eps=1; max abs diff)",
                   paper=0.0, ours=np.abs(mech.rappor_channel(8, 1.0) - it_ibu.rappor_bits_likelihood(bits8, 1.0)).max(),
                   atol=1e-15)
priv

# %% [markdown]
# ### Strict concavity under $k$-RR, the geometric mechanisms and Rappor (Cor. 4.2-4.4, Thm 4.6)
#
# When every element of $\mathcal X$ is observed, $L$ is strictly concave under $k$-RR and the
# (truncated or untruncated) linear geometric mechanism. For Rappor the reports are random bit
# vectors and the paper proves
#
# $$P(L \text{ strictly concave}) \;\ge\; \prod_{k=1}^{|\mathcal X|} \max\{0,\ 1 - p^n 2^{k-1}\},$$
#
# via Lemma 4.5 (a 0/1 matrix of full rank over GF(2) has full rank over $\mathbb R$). With
# $\sum_x w_x = 0$, $wG = 0$ iff $wB = 0$ for the bit matrix $B$, so $L$ is strictly concave iff
# $\operatorname{rank}[B\mid\mathbf 1] = |\mathcal X|$. The Monte Carlo estimates the three nested
# events (GF(2) rank, real rank, strict concavity) for uniform inputs on $|\mathcal X| = 10$.

# %%
rng = rng_for("cor42")
viol = 0
for _ in range(50):
    k = int(rng.integers(3, 30))
    eps = rng.uniform(0.1, 5)
    z = np.concatenate([np.arange(k), rng.integers(0, k, 20)])
    viol += not it.is_strictly_concave(it.observation_matrix(mech.grr_channel(k, eps), z))
    viol += not it.is_strictly_concave(it.observation_matrix(mech.geometric_channel(k, eps), z))
    Xs = np.sort(rng.choice(np.arange(-30, 60), size=k, replace=False))
    viol += not it.is_strictly_concave(it_mechanisms.untruncated_geometric_matrix(Xs, np.concatenate([Xs, rng.integers(-40, 70, 10)]), eps))
k5 = mech.grr_channel(5, 1.0)
c4, c3 = it.is_strictly_concave(k5[:, [0, 1, 2, 3]]), it.is_strictly_concave(k5[:, [0, 1, 2, 2]])
report.check("T4-T6", "Cor 4.2-4.4: all elements observed -> L strictly concave (k-RR, truncated and untruncated "
             "geometric; 150 random instances)", paper="0 violations", ours=f"{viol} violations",
             passed=viol == 0, tolerance="zero violations")
report.check("T4b", "k-RR: k-1 distinct observed values already suffice, k-2 never do (k=5)", paper="(spec T4)",
             ours=f"4 values: {c4}, 3 values: {c3}", passed=bool(c4 and not c3), tolerance="exact rank test")

n_grid = np.arange(10, 201)
eps_fig4 = [0.5, 1, 2, 3, 4, 5]
mc = pd.DataFrame([dict(eps=e, n=n, **it_ibu.rappor_concavity_frequencies(10, n, e, SIZES["mc_trials"], rng=rng_for(f"mc{e}{n}")))
                   for e in SIZES["mc_eps"] for n in SIZES["rappor_n"]])

fig, ax = plt.subplots(figsize=(8, 4.5))
lines4 = {}
for e in eps_fig4:
    lines4[e], = ax.plot(n_grid, it_ibu.rappor_concavity_lower_bound(10, n_grid, e), label=f"bound, $\\varepsilon$={e}")
for e in SIZES["mc_eps"]:
    d = mc[mc.eps == e]
    c4 = lines4[e].get_color() if e in lines4 else "k"
    ax.plot(d.n, d.concave, "o", color=c4, mfc="none", ms=5,
            label="Monte Carlo P(strictly concave) (circles)" if e == SIZES["mc_eps"][0] else None)
    ax.plot(d.n, d.gf2, ".", color=c4, ms=3, label="Monte Carlo P(GF(2) full rank) (dots)" if e == SIZES["mc_eps"][0] else None)
ax.axvline(25, color="grey", ls=":", lw=1)
ax.set_xlabel("number of users $n$")
ax.set_ylabel("P($L$ strictly concave)")
ax.set_xscale("log")
ax.legend(fontsize="x-small", ncol=2, loc="lower right")
paper_title(ax, "Fig. 4", "Rappor: lower bound on P(strict concavity), $|\\mathcal{X}|=10$")
plt.show()

# %%
T9_N = [15, 20, 25, 30, 40, 50, 75, 100, 150]
T9 = {0.5: [0.8295, 0.9899, 0.9994, 1.0000, 1, 1, 1, 1, 1], 1: [0.3712, 0.9240, 0.9927, 0.9993, 1.0000, 1, 1, 1, 1],
      2: [0, 0.0080, 0.6457, 0.9176, 0.9963, 0.9998, 1, 1, 1], 3: [0, 0, 0, 0, 0.7091, 0.9573, 0.9997, 1, 1],
      4: [0, 0, 0, 0, 0, 0.0347, 0.9268, 0.9969, 1.0000], 5: [0, 0, 0, 0, 0, 0, 0, 0.6629, 0.9926]}
ours_t9 = np.array([it_ibu.rappor_concavity_lower_bound(10, T9_N, e) for e in T9])
report.check_close("T9.1", "Thm 4.6 bound, |X|=10: the spec's 6 x 9 reference table (eps 0.5..5, n 15..150)",
                   paper=np.array(list(T9.values())).round(4).tolist(), ours=ours_t9.round(4).tolist(), atol=1e-4)
report.check("T9.2", "Thm 4.6: with eps=1 L is strictly concave with probability almost one when n >= 25",
             paper="almost 1 (>= 0.99)", ours=round(it_ibu.rappor_concavity_lower_bound(10, 25, 1.0), 4),
             passed=bool(it_ibu.rappor_concavity_lower_bound(10, 25, 1.0) >= 0.99), tolerance=">= 0.99")
below = (mc.concave < mc.bound - 3 * mc.concave_se).sum()
report.check("T9.3", f"Monte Carlo P(strictly concave) >= bound ({SIZES['mc_trials']} trials per point, eps "
             f"{', '.join(f'{e:g}' for e in SIZES['mc_eps'])})",
             paper="freq >= bound", ours=f"{below} points below bound - 3 s.e.; min margin "
             f"{(mc.concave - mc.bound).min():+.3f}", passed=bool(below == 0), tolerance="3 standard errors")
report.check("T8", "Lemma 4.5 / nesting: GF(2) full rank => real full rank => strictly concave in every trial",
             paper="nested events", ours=f"{int(mc.nested_violations.sum())} violations",
             passed=bool(mc.nested_violations.sum() == 0), tolerance="zero violations")
mc[["eps", "n", "gf2", "real", "concave", "bound"]].round(4)

# %% [markdown]
# ## Consistency (§6): identification, dominance and the convergence of IBU
#
# By Newey-McFadden {cite}`newey1994large` (Lemma 6.1) the MLE is consistent under identification
# ($\theta \ne \phi \Rightarrow \theta M \ne \phi M$, **Thm 6.1**: iff $M$ has $|\mathcal X|$
# independent columns), compactness, continuity and dominance. **Prop 6.2** ($k$-RR, truncated
# geometric, Rappor) and **Prop 6.3** (untruncated geometric, with the dominating function
# $d(z) = \varepsilon(|z-a| + \ell) - \log c$) follow. We check the convergence empirically: the
# mean $L_1$ error of IBU against $n$ on $\theta = $ Binomial(9, 1/2), with the slope of the
# log-log fit on $n \ge 10^3$ (expected $-1/2$). IBU runs here to a tighter threshold
# ($10^{-10}$ on $\ell$) so that the optimisation error stays far below the statistical error.

# %%
theta_bin = np.array([comb(9, j) for j in range(10)]) / 2**9
X10 = np.arange(10)


def consistency_errors(kind, n, reps, rng):
    """Mean L1 error of IBU on n i.i.d. users from theta_bin (exact count-level simulation)."""
    errs = []
    if kind == "untruncated geometric (eps_g=0.5)":
        for _ in range(reps):
            x = np.repeat(X10, rng.multinomial(n, theta_bin))
            zu, cnt = np.unique(it_mechanisms.untruncated_geometric_perturb(x, 0.5, rng=rng), return_counts=True)
            r = it.ibu_rows(it_mechanisms.untruncated_geometric_matrix(X10, zu, 0.5), cnt, tol=1e-10, max_iter=20_000)
            errs.append(np.abs(r.estimate - theta_bin).sum())
        return np.mean(errs)
    M = {"k-RR (eps=1)": mech.grr_channel(10, 1.0), "truncated geometric (eps_g=0.5)": mech.geometric_channel(10, 0.5),
         "basic Rappor (eps=1)": mech.rappor_channel(10, 1.0)}[kind]
    C = np.stack([it_channels.simulate_counts_batch(M, rng.multinomial(n, theta_bin), 1, rng=rng)[0] for _ in range(reps)])
    r = it.ibu_rows(M, C, tol=1e-10, max_iter=20_000)
    return np.abs(r.estimate - theta_bin).sum(1).mean()


t = tic()
kinds = ["k-RR (eps=1)", "truncated geometric (eps_g=0.5)", "untruncated geometric (eps_g=0.5)", "basic Rappor (eps=1)"]
cons = pd.DataFrame([dict(mechanism=kd, n=n, l1=consistency_errors(kd, n, SIZES["cons_reps"], rng_for(f"cons{kd}{n}")))
                     for kd in kinds for n in SIZES["cons_n"]])
fig, ax = plt.subplots(figsize=(7.5, 4.5))
for kd in kinds:
    d = cons[cons.mechanism == kd]
    asym = d[d.n >= 1000]  # the slope is fitted in the asymptotic regime n >= 10^3
    s = it_ibu.loglog_slope(asym.n, asym.l1)
    ax.loglog(d.n, d.l1, "o-", label=f"{kd}: slope {s:+.2f}")
    report.check(f"T14.{kinds.index(kd) + 1}", f"Prop 6.2/6.3: IBU consistent under {kd}: L1 error -> 0, log-log slope",
                 paper="-> 0 (slope -1/2 expected)", ours=round(s, 3),
                 passed=bool(-0.65 <= s <= -0.35 and np.all(np.diff(d.l1) < 0)),
                 tolerance="slope (fit on n >= 1e3) in [-0.65, -0.35], decreasing")
nn = np.array(SIZES["cons_n"], float)
ax.loglog(nn, 2 * nn**-0.5, "k:", label="$\\propto n^{-1/2}$")
ax.set_xlabel("number of users $n$")
ax.set_ylabel(r"mean $\|\hat\theta - \theta\|_1$")
ax.legend(fontsize="x-small")
ax.set_title(f"Props 6.2-6.3 — IBU error vs n ({SIZES['cons_reps']} runs per point, Binomial(9, 1/2))")
plt.show()
print(f"consistency: {time.perf_counter() - t:.1f} s")

# %%
# Prop 6.3's dominance bounds, checked on random phi and z in [a-200, b+200]
rng = rng_for("T15")
zz = np.arange(-200, 210)
lo, hi = it_ibu.geometric_dominance_bounds(zz, 0, 9, 0.5)
P = rng.dirichlet(np.ones(10), 200) @ it_mechanisms.untruncated_geometric_matrix(X10, zz, 0.5)
n_bad = int(np.sum((P < lo * (1 - 1e-12)) | (P > hi * (1 + 1e-12))))
# Prop 6.2's dominance for finite Z: d = -log min_{x,z} M_xz bounds |log P(z|phi)| for every phi
viol_d = 0
for Md in (mech.grr_channel(10, 1.0), mech.geometric_channel(10, 0.5), mech.rappor_channel(10, 1.0)):
    Pd = rng.dirichlet(np.ones(10), 200) @ Md
    viol_d += int(np.sum(np.abs(np.log(Pd)) > -np.log(Md.min()) * (1 + 1e-12)))
report.check("T14.5", "Prop 6.2: |log P(z|phi)| <= d = -log min M for k-RR, truncated geometric and Rappor (200 phi each)",
             paper="dominance holds", ours=f"{viol_d} violations", passed=viol_d == 0, tolerance="zero violations")
_ = report.check("T15", "Prop 6.3: c e^{-eps(|z-a|+l)} <= P(z|phi) <= c e^{-eps(|z-a|-l)} (200 phi x 410 z)",
             paper="holds", ours=f"{n_bad} violations", passed=n_bad == 0, tolerance="zero violations")

# %% [markdown]
# ### A non-identifiable mechanism: Fig. 6 (§6.4)
#
# A 5 km x 5 km box of San Francisco cut into 1 km cells. The paper does not give its
# coordinates; we take the dense box lat 37.7480-37.7930, lon -122.4500 to -122.3932 (the
# `sf_ibu_grid` of `ldpnb.grid`) and the Gowalla check-ins of the PRIVIC copy of the SF data. The
# planar geometric mechanism ($\varepsilon_g = 0.5$/km) is followed by truncation to the $4\times4$
# block of rows and columns 0..3 (clamping), so $M$ is $25 \times 16$ and rank $\le 16 < 25$:
# identification fails. With the *asymptotic* reports $q = \theta M$ (infinite data), IBU from
# different starts stops at different MLEs, none of which is $\theta$.

# %%
t = tic()
sfg = lgrid_ibu.sf_ibu_grid()
sf = datasets.load_gowalla_privic("sf")
N_sf = sfg.histogram(sf.lat.to_numpy(), sf.lon.to_numpy()).astype(int)
theta_sf = N_sf / N_sf.sum()
M_sf = it_channels.clamp_grid_outputs(mech.planar_geometric_channel(5, 5, 0.5, cell_size=1.0), 5, 5, 4, 4)
q_inf = theta_sf @ M_sf
starts = np.vstack([np.full(25, 1 / 25), rng_for("fig6").dirichlet(np.ones(25), 2)])
fp6 = it.ibu_rows(M_sf, np.tile(q_inf, (3, 1)), theta0=starts, tol=0, max_iter=SIZES["fig6_iter"])
D_sf = lgrid.lattice_distance_matrix(5, 5, 1.0)
emd_true = [emd(e, theta_sf, D_sf) for e in fp6.estimate]
emd_pair = [emd(fp6.estimate[i], fp6.estimate[j], D_sf) for i, j in ((0, 1), (0, 2), (1, 2))]
fit = np.abs(fp6.estimate @ M_sf - q_inf).sum(1)
lmax = np.sum(q_inf * np.log(q_inf))

fig, axes = plt.subplots(1, 4, figsize=(13, 3.6))
vmax = max(theta_sf.max(), fp6.estimate.max())
for ax, v, title in zip(axes, [theta_sf, *fp6.estimate],
                        ["(a) original (Gowalla SF)"] + [f"({c}) MLE from {s}\nEMD to (a) = {e:.3f} km"
                                                         for c, s, e in zip("bcd", ["uniform", "Dirichlet #1", "Dirichlet #2"], emd_true)]):
    im = ax.imshow(v.reshape(5, 5), origin="lower", extent=[0, 5, 0, 5], vmin=0, vmax=vmax, cmap="magma")
    ax.set_title(title, fontsize="small")
    ax.set_xlabel("east (km)")
    ax.grid(False)
axes[0].set_ylabel("north (km)")
plt.colorbar(im, ax=axes, label="probability", shrink=0.85)
paper_title(fig, "Fig. 6", f"a non-identifiable 25x16 mechanism: three MLEs for the same infinite data (n = {N_sf.sum():,} check-ins)")
plt.show()
report.not_evaluated("T12", "Lemma 6.1 (Newey-McFadden Thm 2.5): identification + compactness + continuity + dominance "
                      "=> consistency", paper="cited theorem",
                      note="a cited theorem with nothing to compute; its hypotheses are checked by T13, T15 and its "
                           "conclusion is exercised by T14 (convergence) and T16 (failure without identification)")
report.check("T16.1", "§6.4: the 25x16 mechanism (planar geometric eps_g=0.5, truncated to 4x4) has rank 16 < 25",
             paper="rank < 25", ours=int(np.linalg.matrix_rank(M_sf)), passed=bool(np.linalg.matrix_rank(M_sf) == 16 and not it.is_identifiable(M_sf)),
             tolerance="exact rank")
report.check("T16.2", "§6.4: IBU on q = theta M from 3 starts: every fixed point fits q (MLE) yet they differ "
             "pairwise and differ from theta", paper="several MLEs != theta",
             ours=f"|qhat-q|_1 max {fit.max():.1e}; l gap {lmax - fp6.loglik.min():.1e}; pairwise EMD "
                  f"{np.round(emd_pair, 3).tolist()} km; EMD to theta {np.round(emd_true, 3).tolist()} km",
             passed=bool(fit.max() < 1e-4 and lmax - fp6.loglik.min() < 1e-8 and min(emd_pair) > 0.02 and min(emd_true) > 0.02),
             tolerance="fit < 1e-4, l gap < 1e-8, EMDs > 0.02 km")
print(f"Fig. 6: {time.perf_counter() - t:.1f} s")

# %% [markdown]
# ## Experiments on real data (§7)
#
# **Data.** The ages of all 48,842 Adult records ($\mathcal X = \{0..99\}$; the extraction's
# "between 0 and 9999" is a garbling of 0 and 99), and the Gowalla check-ins in the paper's
# Manhattan box (lat 40.7044-40.7942, lon -74.0205 to -73.9374) on a 20 x 14 grid of 0.5 km
# cells. The protocol (spec A5): the fixed original histogram is obfuscated (exact count-level
# sampling, one multinomial per input value), then IBU, INV-N and INV-P estimate it, and the
# earth mover's distance (EMD) to the original is recorded — in years (closed form on the line)
# and in km (exact optimal transport with POT on the grid's distance matrix).

# %%
ages = datasets.adult_ages()
N_age = np.bincount(ages, minlength=100)
theta_age = N_age / N_age.sum()
mg = lgrid_ibu.manhattan_grid()
gw = datasets.load_gowalla_nyc(datasets.MANHATTAN_BOX)
N_loc = mg.histogram(gw.lat.to_numpy(), gw.lon.to_numpy()).astype(int)
theta_loc = N_loc / N_loc.sum()
D_loc = mg.distance_matrix()
report.check_close("D1", "Adult: ages of 48,842 persons", paper=48842, ours=len(ages))
report.check_close("D2", "Gowalla check-ins in the Manhattan box", paper=98060, ours=int(N_loc.sum()), atol=1,
                   note="our SNAP extract holds 98,061 (one more; boundary inclusivity or a copy difference)")
report.check_close("D3", "Grid: 20 x 14 = 280 cells; ages k = 100", paper=[280, 100], ours=[mg.k, N_age.size])
cs = mg.cell_size_km()
print(f"cells {cs}, {N_loc.sum():,} check-ins; densest 10% of cells hold {np.sort(theta_loc)[::-1][:28].sum():.0%} of the mass")

fig, ax = plt.subplots(figsize=(6.5, 7))
cmap7 = plt.get_cmap("magma").copy()
cmap7.set_bad("lightgrey")
im = ax.imshow(np.ma.masked_equal(mg.to_image(N_loc), 0), origin="lower", extent=[0, 14 * 0.5, 0, 20 * 0.5], cmap=cmap7,
               norm=plt.matplotlib.colors.LogNorm(vmin=1))
ax.grid(False)
plt.colorbar(im, ax=ax, label="check-ins per cell (log scale; grey = none)")
ax.set_xlabel("east (km)")
ax.set_ylabel("north (km)")
paper_title(ax, "Fig. 7", f"Gowalla Manhattan: {N_loc.sum():,} check-ins\non 20 x 14 cells of 0.5 km")
plt.show()

# %% [markdown]
# ### Fig. 1: ages under the geometric mechanism, $\varepsilon_g = 0.05$ per year
#
# The truncated geometric mechanism (eq. 7) on $[0, 99]$ is used, so that INV is defined and the
# noisy distribution lives on $\mathcal X$ (the paper plots it there).

# %%
M_g05 = mech.geometric_channel(100, 0.05)
one = it_ibu.estimation_trials(M_g05, N_age, 1, metric=it_measures.emd_1d_rows, rng=rng_for("fig1"), tol=TOL, max_iter=SIZES["max_iter"])
fig, axes = plt.subplots(1, 3, figsize=(14, 3.8))  # own y-scales: INV's spikes would flatten panel (c)
for ax, meth, lab in zip(axes, ["INV-N", "INV-P", "IBU"], ["(a) INV-N", "(b) INV-P", "(c) IBU"]):
    ax.plot(x100, theta_age, color=color("truth"), lw=2, label="original")
    ax.plot(x100, one["last"]["noisy"], color=color("emp"), lw=1.2, label=f"noisy (EMD {one['noisy'][0]:.2f})")
    ax.plot(x100, one["last"][meth], color=color(meth), lw=1.5, label=f"{meth} (EMD {one[meth][0]:.2f})")
    ax.set_title(lab)
    ax.set_xlabel("age (years)")
    ax.legend(fontsize="x-small")
axes[0].set_ylabel("probability")
paper_title(fig, "Fig. 1", "Adult ages sanitised by the geometric mechanism, $\\varepsilon_g=0.05$ (EMD in years)")
plt.show()
e1 = {m: one[m][0] for m in ["noisy", "INV-N", "INV-P", "IBU"]}
report.check("F1.1", "Fig. 1: IBU outperforms INV-N and INV-P (ages, geometric eps_g=0.05; one run)",
             paper="IBU << INV", ours={k: round(float(v), 2) for k, v in e1.items()},
             passed=bool(e1["IBU"] < 0.5 * min(e1["INV-N"], e1["INV-P"])), tolerance="IBU < 0.5 x min(INV)")
e1

# %% [markdown]
# ### Fig. 8: Manhattan under the truncated planar geometric mechanism, $\varepsilon_g = 1$/km

# %%
t = tic()
M_pg1 = mech.planar_geometric_channel(20, 14, 1.0, cell_size=0.5)
f8 = it_ibu.estimation_trials(M_pg1, N_loc, 1, metric=lambda P, th: it_measures.emd_rows(P, th, D_loc), rng=rng_for("fig8"),
                          tol=TOL, max_iter=SIZES["max_iter"])
panels = [("(a) original", theta_loc, None), ("(b) noisy", f8["last"]["noisy"], f8["noisy"][0]),
          ("(c) INV-P", f8["last"]["INV-P"], f8["INV-P"][0]), ("(d) INV-N", f8["last"]["INV-N"], f8["INV-N"][0]),
          ("(e) IBU", f8["last"]["IBU"], f8["IBU"][0])]
fig, axes = plt.subplots(1, 5, figsize=(15, 4.6))
vmax = theta_loc.max()
for ax, (title, v, e) in zip(axes, panels):
    im = ax.imshow(mg.to_image(v), origin="lower", extent=[0, 7, 0, 10], cmap="magma", vmin=0, vmax=vmax)
    ax.set_title(title + ("" if e is None else f"\nEMD = {e:.4f} km"), fontsize="small")
    ax.set_xlabel("east (km)")
    ax.grid(False)
axes[0].set_ylabel("north (km)")
plt.colorbar(im, ax=axes, label="probability", shrink=0.8)
paper_title(fig, "Fig. 8", "Gowalla Manhattan, truncated planar geometric $\\varepsilon_g = 1$/km (one run)")
plt.show()
# the same reports estimated with other stopping thresholds (the paper's threshold is unstated)
alt8 = {tol: it_measures.emd_rows(it.ibu_rows(M_pg1, f8["last"]["counts"], tol=tol, max_iter=200_000).estimate, theta_loc, D_loc)[0]
        for tol in (1e-6, 1e-10)}
alt8[TOL] = float(f8["IBU"][0])
paper8 = {"noisy": 0.7658, "INV-P": 0.5862, "INV-N": 0.7832, "IBU": 0.16995}
for i, (m, pv) in enumerate(paper8.items()):
    ours = float(f8[m][0])
    if abs(ours - pv) <= 0.30 * pv:
        report.check_close(f"F8.{i + 1}", f"Fig. 8{'bcde'[i]}: EMD of {m} (km)", paper=pv, ours=ours, rtol=0.30)
    elif m == "IBU":
        lo_, hi_ = min(alt8.values()), max(alt8.values())
        report.diverges(f"F8.{i + 1}", f"Fig. 8e: EMD of IBU (km), stopping threshold {TOL:g} on l = L/n", paper=pv,
                        ours=round(ours, 4), tolerance="rel 0.3 (spec 002 §7.2)",
                        note=f"IBU's EMD depends on the unstated stopping threshold: on these same reports it is "
                             f"{alt8[1e-6]:.3f} km at 1e-6, {ours:.3f} at {TOL:g} and {alt8[1e-10]:.3f} at 1e-10 (the paper "
                             "stops on the unnormalised L, so its threshold on l = L/n is unknown); the paper's value lies "
                             "in the range spanned by these thresholds",
                        holds=bool(lo_ <= pv <= hi_))
    else:
        report.diverges(f"F8.{i + 1}", f"Fig. 8{'bcde'[i]}: EMD of {m} (km)", paper=pv, ours=round(ours, 4),
                        tolerance="rel 0.3 (spec 002 §7.2)", note="different data copy / unstated details; within ±50%",
                        holds=bool(abs(ours - pv) <= 0.5 * pv))
report.check("F8.5", "Fig. 8 / §7.2: IBU outperforms INV-N and INV-P, and INV-P is better than INV-N",
             paper="0.170 < 0.586 < 0.783", ours=f"{f8['IBU'][0]:.3f} < {f8['INV-P'][0]:.3f} < {f8['INV-N'][0]:.3f}",
             passed=bool(f8["IBU"][0] < f8["INV-P"][0] < f8["INV-N"][0]), tolerance="ordering")
r8 = f8["IBU"][0] / f8["INV-P"][0]
if r8 <= 0.45:
    report.check_close("F8.6", "Fig. 8: IBU / INV-P EMD ratio (paper 0.16995/0.5862)", paper=0.29, ours=r8, atol=0.16,
                       note="spec acceptance: ratio <= 0.45")
else:
    report.diverges("F8.6", "Fig. 8: IBU / INV-P EMD ratio (paper 0.16995/0.5862 = 0.29; spec target <= 0.45)", paper=0.29,
                    ours=round(float(r8), 3), tolerance="<= 0.45",
                    note=f"with the default threshold {TOL:g} IBU stops later and fits more noise; with 1e-6 the ratio "
                         f"on the same reports is {alt8[1e-6] / f8['INV-P'][0]:.2f}",
                    holds=bool(alt8[1e-6] / f8["INV-P"][0] <= 0.45))
alt8_table = pd.Series(alt8, name="IBU EMD (km) on the Fig. 8 reports, by stopping threshold")
print(f"Fig. 8: {time.perf_counter() - t:.1f} s, IBU {f8['n_iter'][0]} iterations")
alt8_table

# %% [markdown]
# ### Fig. 9: geo-indistinguishable mechanisms, EMD vs $\varepsilon_g$
#
# Six panels: ages (years) and locations (km) x the geometric, Laplace (discretised to the
# nearest point/cell, truncated by clamping — the paper describes it as continuous) and
# exponential ($e^{-\varepsilon_g d/2}$) mechanisms, with the spec's default $\varepsilon_g$ grids
# (the paper gives only the ranges 0.01-0.3 per year and 0.2-6 per km).

# %%
t = tic()
METHODS = ["IBU", "INV-N", "INV-P"]


def run_panel(kind, planar, eps_list, name):
    base = dict(kind=kind, reps=SIZES["reps"], tol=TOL, max_iter=SIZES["max_iter"])
    if planar:
        base.update(N=N_loc, rows=20, cols=14, cell_size=0.5, D=D_loc)
    else:
        base.update(N=N_age, k=100)
    res = sweep(it_ibu.trial_task, [dict(base, eps=e) for e in eps_list], seed=zlib.crc32(f"{SEED}{name}".encode()),
                n_jobs=SIZES["n_jobs"])
    return {r["eps"]: r for r in res}


def boxpanel(ax, res, title, unit, methods=METHODS):
    eps_list = list(res)
    w = 0.8 / len(methods)
    for j, m in enumerate(methods):
        pos = np.arange(len(eps_list)) + (j - (len(methods) - 1) / 2) * w
        bp = ax.boxplot([res[e][m] for e in eps_list], positions=pos, widths=w * 0.9, patch_artist=True,
                        showfliers=True, flierprops=dict(ms=2))
        for b in bp["boxes"]:
            b.set_facecolor(color(m))
            b.set_alpha(0.75)
        for med in bp["medians"]:
            med.set_color("k")
        ax.plot([], [], "s", color=color(m), label=m)
    ax.set_xticks(range(len(eps_list)), [f"{e:g}" for e in eps_list])
    ax.set_yscale("log")
    ax.set_ylabel(f"EMD ({unit})")
    ax.set_title(title, fontsize="small")
    ax.legend(fontsize="x-small")


PANELS9 = [("a", "geometric", False), ("b", "geometric", True), ("c", "laplace", False),
           ("d", "laplace", True), ("e", "exponential", False), ("f", "exponential", True)]
fig9 = {}
for lab, kind, planar in PANELS9:
    fig9[lab] = run_panel(kind, planar, SIZES["eps_loc" if planar else "eps_age"], f"fig9{lab}")
    print(f"  Fig. 9{lab} ({kind}, {'locations' if planar else 'ages'}): {time.perf_counter() - t:.1f} s")

fig, axes = plt.subplots(3, 2, figsize=(12, 11))
for ax, (lab, kind, planar) in zip(axes.ravel(), PANELS9):
    boxpanel(ax, fig9[lab], f"({lab}) {'location' if planar else 'age'} data, {kind} mechanism",
             "km" if planar else "years")
    ax.set_xlabel(r"$\varepsilon_g$ (per km)" if planar else r"$\varepsilon_g$ (per year)")
paper_title(fig, "Fig. 9", f"EMD between original and estimated distributions ({SIZES['reps']} runs per $\\varepsilon_g$)")
plt.show()
print(f"Fig. 9: {time.perf_counter() - t:.1f} s")

# %%
def medians(res, m):
    return np.array([np.median(res[e][m]) for e in res])


MONO_SLACK = {"smoke": 0.5, "book": 0.10, "paper": 0.10}[SCALE]  # statistical slack: 3 runs at smoke scale


def monotone(med):
    """Non-increasing in eps, allowing one step up of less than MONO_SLACK (10% at book/paper scale, spec §7.4)."""
    ups = np.diff(med) > 0
    return bool(ups.sum() == 0 or (ups.sum() == 1 and np.max(np.diff(med) / med[:-1]) < MONO_SLACK))


rows9 = []
for lab, kind, planar in PANELS9:
    res = fig9[lab]
    eps_list = np.array(list(res))
    mi, mn, mp = medians(res, "IBU"), medians(res, "INV-N"), medians(res, "INV-P")
    minv = np.minimum(mn, mp)
    lower = eps_list <= np.median(eps_list)
    need = 1.5 if kind == "exponential" else 2.0
    rows9.append(dict(panel=lab, eps=eps_list.tolist(), IBU=mi.round(3).tolist(), INV_N=mn.round(3).tolist(),
                      INV_P=mp.round(3).tolist(), IBU_iterations=[int(np.median(res[e]["n_iter"])) for e in res]))
    report.check(f"F9{lab}.1", f"Fig. 9{lab} ({kind}, {'locations' if planar else 'ages'}): IBU beats INV-N and INV-P "
                 "at every eps_g of the lower half (medians)", paper="IBU < INV, especially at small eps_g",
                 ours=f"min(INV)/IBU = {np.round(minv / mi, 2).tolist()}", passed=bool(np.all(mi[lower] < minv[lower])),
                 tolerance="median ordering")
    report.check(f"F9{lab}.2", f"Fig. 9{lab}: gap at the smallest eps_g, min(INV)/IBU", paper="large (qualitative)",
                 ours=round(float(minv[0] / mi[0]), 2), passed=bool(minv[0] / mi[0] >= need),
                 tolerance=f">= {need} (spec §7.1)")
    report.check(f"F9{lab}.3", f"Fig. 9{lab}: IBU <= 1.1 x min(INV) at every eps_g", paper="IBU never worse",
                 ours=f"max IBU/min(INV) = {np.max(mi / minv):.2f}", passed=bool(np.all(mi <= 1.1 * minv)),
                 tolerance="factor 1.1")
    claim5 = f"Fig. 9{lab}: the estimation quality of all methods improves with eps_g (medians)"
    tol5 = f"monotone (one step < {MONO_SLACK:.0%} allowed)"
    meds5 = {"IBU": mi, "INV-N": mn, "INV-P": mp}
    bad = {m: [(float(eps_list[j + 1]), round(float(v[j + 1] / v[j] - 1), 3)) for j in np.flatnonzero(np.diff(v) > 0)]
           for m, v in meds5.items() if not monotone(v)}
    if not bad:
        report.check(f"F9{lab}.5", claim5, paper="improves with eps_g", ours="monotone", passed=True, tolerance=tol5)
    else:
        # INV saturates at the noisiest end (its raw error is orders of magnitude above the signal, Prop 7.2):
        # a rise there is a divergence of the INV curves, not of IBU; anything else is a failure
        sat = all(m != "IBU" and all(minv[list(eps_list).index(e)] >= 2 * mi[list(eps_list).index(e)] for e, _ in v)
                  for m, v in bad.items())
        report.diverges(f"F9{lab}.5", claim5, paper="improves with eps_g",
                        ours="; ".join(f"{m} rises at eps_g {v}" for m, v in bad.items()), tolerance=tol5,
                        note="only INV curves rise, and only at eps_g where both INV variants are at least twice as bad "
                             "as IBU: there the raw INV estimate is dominated by the inversion noise (Prop 7.2) and the "
                             "medians of its clipped/projected versions fluctuate; IBU improves monotonically",
                        holds=bool(sat))
    if planar and 6.0 in res:
        spread = max(mi[-1], mn[-1], mp[-1]) / min(mi[-1], mn[-1], mp[-1])
        report.check(f"F9{lab}.4", f"Fig. 9{lab}: at eps_g = 6/km the three estimators are close", paper="gap closes",
                     ours=round(float(spread), 3), passed=bool(spread <= 1.2), tolerance="max/min <= 1.2")
a05 = fig9["a"][0.05]
mn05, mp05 = np.median(a05["INV-N"]), np.median(a05["INV-P"])
if mp05 < mn05:
    report.check("F1.2", "Fig. 1 / §7.1: INV-P slightly closer to the original than INV-N (ages, geometric 0.05; "
                 f"median of {SIZES['reps']} runs)", paper="INV-P < INV-N", ours=f"INV-P {mp05:.2f} < INV-N {mn05:.2f}",
                 passed=True, tolerance="median ordering")
else:
    report.diverges("F1.2", "Fig. 1 / §7.1: INV-P slightly closer to the original than INV-N (median of runs)",
                    paper="INV-P < INV-N", ours=f"INV-P {mp05:.2f} >= INV-N {mn05:.2f}", tolerance="median ordering",
                    note="both INV variants are far worse than IBU; which one is better varies from run to run here",
                    holds=bool(min(mn05, mp05) > 2 * np.median(a05["IBU"])))
pd.DataFrame(rows9)

# %% [markdown]
# ### Fig. 10: $k$-RR, and Figs. 11-12: basic Rappor
#
# Under $\varepsilon$-LDP mechanisms built on randomised response the three estimators are close.
# Rappor's INV variants use the per-bit estimator $v_y = (c_y/n - (1-p))/(2p-1)$ of Kairouz et
# al. {cite}`kairouz2016discrete` followed by INV-N / INV-P; IBU uses the $2^{10}$ pattern counts. Rappor's inputs are
# re-sampled in each run ($n = 10^5$) from Binomial(9, 1/2) and from the uniform law on $\{3..6\}$.

# %%
t = tic()
fig10 = {"a": run_panel("krr", False, SIZES["eps_ldp"], "fig10a"), "b": run_panel("krr", True, SIZES["eps_ldp"], "fig10b")}
print(f"Fig. 10: {time.perf_counter() - t:.1f} s")
theta_uni = np.where((X10 >= 3) & (X10 <= 6), 0.25, 0.0)
fig12 = {}
for lab, th in (("a", theta_bin), ("b", theta_uni)):
    res = sweep(it_ibu.rappor_task, [dict(theta=th, n=100_000, eps=e, reps=SIZES["reps"], tol=TOL, max_iter=SIZES["max_iter"])
                                 for e in SIZES["eps_ldp"]], seed=zlib.crc32(f"{SEED}fig12{lab}".encode()), n_jobs=SIZES["n_jobs"])
    fig12[lab] = {r["eps"]: r for r in res}
print(f"Figs. 10, 12: {time.perf_counter() - t:.1f} s")

fig, axes = plt.subplots(2, 2, figsize=(12, 8))
boxpanel(axes[0, 0], fig10["a"], "Fig. 10(a) age data, k-RR (k = 100)", "years")
boxpanel(axes[0, 1], fig10["b"], "Fig. 10(b) location data, k-RR (k = 280)", "km")
boxpanel(axes[1, 0], fig12["a"], "Fig. 12(a) Rappor, Binomial(9, 1/2), n = 10^5", "units of x")
boxpanel(axes[1, 1], fig12["b"], "Fig. 12(b) Rappor, uniform on {3..6}, n = 10^5", "units of x")
for ax in axes.ravel():
    ax.set_xlabel(r"$\varepsilon$")
paper_title(fig, "Figs. 10 and 12", f"LDP mechanisms: IBU, INV-N and INV-P are comparable ({SIZES['reps']} runs per $\\varepsilon$)")
plt.show()

# %%
for name, res in (("10a", fig10["a"]), ("10b", fig10["b"]), ("12a", fig12["a"]), ("12b", fig12["b"])):
    med = np.array([medians(res, m) for m in METHODS])  # (3, n_eps)
    ratio = med.max(0) / med.min(0)
    absgap = med.max(0) - med.min(0)
    ok = (ratio <= 2) | (absgap <= 0.25 * med[:, 0].max())
    report.check(f"F{name}.1", f"Fig. {name}: the three estimators perform about the same at every eps",
                 paper="differences not substantial", ours=f"max/min medians {np.round(ratio, 2).tolist()}",
                 passed=bool(ok.all()), tolerance="max/min <= 2 or gap <= 0.25 x largest median at smallest eps")
    report.check(f"F{name}.2", f"Fig. {name}: all estimators improve with eps", paper="decreasing",
                 ours=f"IBU medians {np.round(med[0], 3).tolist()}", passed=all(monotone(m) for m in med),
                 tolerance=f"monotone (one step < {MONO_SLACK:.0%} allowed)")

# the contrast the paper draws: at the smallest eps, geo-ind panels vs LDP panels
contrast = pd.DataFrame({
    "panel": ["9a geometric ages", "9b geometric loc.", "10a k-RR ages", "10b k-RR loc.", "12a Rappor binomial", "12b Rappor uniform"],
    "min(INV)/IBU at smallest eps": [float(min(medians(r, "INV-N")[0], medians(r, "INV-P")[0]) / medians(r, "IBU")[0])
                                     for r in (fig9["a"], fig9["b"], fig10["a"], fig10["b"], fig12["a"], fig12["b"])]})
contrast.round(2)

# %%
fig, axes = plt.subplots(1, 2, figsize=(12, 3.8), sharey=True)
for ax, lab, title in ((axes[0], "a", "(a) Binomial(9, 1/2)"), (axes[1], "b", "(b) uniform on {3,4,5,6}")):
    r = it_ibu.rappor_trials(theta_bin if lab == "a" else theta_uni, 100_000, 0.5, 1, rng=rng_for(f"fig11{lab}"), tol=TOL,
                         max_iter=SIZES["max_iter"])
    ax.bar(X10 - 0.2, r["last"]["original"], 0.4, color=color("truth"), label="real")
    ax.bar(X10 + 0.2, r["last"]["IBU"], 0.4, color=color("IBU"), label=f"IBU (EMD {r['IBU'][0]:.3f})")
    ax.set_xticks(X10)
    ax.set_xlabel("value $x$")
    ax.set_title(title)
    ax.legend(fontsize="small")
    if lab == "b":
        out_mass = r["last"]["IBU"][theta_uni == 0].sum()
axes[0].set_ylabel("probability")
paper_title(fig, "Fig. 11", "IBU under basic Rappor, $\\varepsilon = 0.5$, $n = 10^5$ (one run)")
plt.show()
_ = report.check("F11", "Fig. 11b: IBU puts about zero mass outside {3..6} (Rappor, eps=0.5, one run)", paper="~ 0",
             ours=round(float(out_mass), 4), passed=bool(out_mass < 0.05), tolerance="< 0.05")

# %% [markdown]
# ### Why INV fails under geo-indistinguishability (§7.6, Props 7.1 and 7.2)
#
# The raw INV estimate $v = qM^{-1}$ is unbiased with $\operatorname{Cov}(q) = (\operatorname{diag}\pi -
# \pi^\top\pi)/n$, $\pi = \theta M$, so exactly
#
# $$\mathbb E\|v - \theta\|_2^2 = \frac1n\Big(\sum_z \pi_z \|r_z\|^2 - \|\theta\|^2\Big),\qquad r_z = z\text{-th row of } M^{-1}.$$
#
# **Prop 7.1** ($k$-RR): $\mathbb E\|v-\theta\|^2 \le \frac1n\big(\frac{e^\varepsilon+k-1}{e^\varepsilon-1}\big)^2$.
# **Prop 7.2** (truncated geometric, $\alpha = e^{-\varepsilon_g} > 1/2$, $\beta = 1/(1-\alpha)$):
# $\mathbb E\|v-\theta\|^2 \ge \frac1n(\beta^3 - 2\alpha\beta^2 - 2)$. For $k=100$, the paper
# compares $k$-RR at $\varepsilon = 2$ with the geometric mechanism at $\varepsilon_g = 0.05$.

# %%
b71 = it_ibu.inv_krr_upper_bound(100, 2.0, 1)
b72 = it_ibu.inv_geometric_lower_bound(0.05, 1)
ex71 = it.inv_expected_sq_error(mech.grr_channel(100, 2.0), theta_age, 1)
ex72 = it.inv_expected_sq_error(M_g05, theta_age, 1)
report.check_close("P7.1a", "Prop 7.1 bound, k=100, eps=2 (x 1/n)", paper=227.28, ours=b71, atol=0.01, expected=277.28,
                   note="typo in the paper: ((e^2+99)/(e^2-1))^2 = 277.28, printed as 227.28")
report.check("P7.1b", "Prop 7.1: exact INV error of the Adult ages under k-RR eps=2 is below the bound",
             paper="< 227.28/n [277.28/n]", ours=f"{ex71:.2f}/n (closed form {it_ibu.inv_krr_exact_sq_error(100, 2.0, theta_age, 1):.2f}/n)",
             passed=bool(ex71 <= b71 and abs(ex71 - it_ibu.inv_krr_exact_sq_error(100, 2.0, theta_age, 1)) < 1e-8 * ex71),
             tolerance="exact <= bound; closed form = generic to 1e-8")
report.check_close("P7.2a", "Prop 7.2 bound, eps_g=0.05 (x 1/n)", paper=7238, ours=b72, atol=0.01, expected=7818.55,
                   note="the paper's 7238 = 20^3 - 2(0.95)(20^2) - 2 uses alpha and beta rounded to 0.95 and 20; the exact "
                        "alpha = 0.951229, beta = 20.504166 give 7818.55")
report.check("P7.2b", "Prop 7.2: exact INV error of the Adult ages under geometric eps_g=0.05 is above the bound",
             paper="> 7238/n [7818.5/n]", ours=f"{ex72:,.0f}/n", passed=bool(ex72 >= b72 and ex72 >= 4.6e5),
             tolerance="exact >= bound (and >= 4.6e5/n)")
mc71 = it.inv_sq_error_monte_carlo(mech.grr_channel(10, 1.0), rng_for("mc71").multinomial(1000, np.full(10, 0.1)), 4000,
                                   rng=rng_for("mc71b"))
N72 = rng_for("mc72").multinomial(2000, rng_for("mc72d").dirichlet(np.ones(20)))
mc72 = it.inv_sq_error_monte_carlo(mech.geometric_channel(20, 0.3), N72, 4000, rng=rng_for("mc72b"))
th71 = rng_for("mc71").multinomial(1000, np.full(10, 0.1)) / 1000
for rid, (m, se), exact, what in (("P7.3", mc71, it.inv_expected_sq_error(mech.grr_channel(10, 1.0), th71, 1000), "k-RR k=10 eps=1 n=1000"),
                                  ("P7.4", mc72, it.inv_expected_sq_error(mech.geometric_channel(20, 0.3), N72 / 2000, 2000), "geometric k=20 eps_g=0.3 n=2000")):
    report.check_close(rid, f"Exact INV squared error vs Monte Carlo (4000 runs), {what}", paper=round(exact, 5), ours=m,
                       rtol=0.05, note=f"Monte Carlo s.e. {se:.2g}")
eps_tab = [0.01, 0.05, 0.1, 0.2, 0.3, 0.5]
inv_tab = pd.DataFrame({"eps_g": eps_tab,
                        "Prop 7.2 bound (x1/n)": [it_ibu.inv_geometric_lower_bound(e, 1) for e in eps_tab],
                        "exact, Adult ages (x1/n)": [it.inv_expected_sq_error(mech.geometric_channel(100, e), theta_age, 1) for e in eps_tab],
                        "exact, uniform (x1/n)": [it.inv_expected_sq_error(mech.geometric_channel(100, e), np.full(100, .01), 1) for e in eps_tab]})
report.check("P7.5", "Spec T18 table: exact error for uniform theta, eps_g 0.05 / 0.1 / 0.3 (x 1/n)",
             paper="760,717 / 53,670 / 741.5 (spec)", ours=np.round(inv_tab["exact, uniform (x1/n)"].to_numpy()[[1, 2, 4]], 1).tolist(),
             passed=bool(np.allclose(inv_tab["exact, uniform (x1/n)"].to_numpy()[[1, 2, 4]], [760717, 53670, 741.5], rtol=2e-3)),
             tolerance="rel 2e-3")
# T19: the common ground: IBU's utility under k-RR eps=2 and geometric eps_g=0.05 on ages
ibu_krr2 = np.median(fig10["a"][2.0]["IBU"]) if 2.0 in fig10["a"] else np.nan
ibu_geo05 = np.median(fig9["a"][0.05]["IBU"]) if 0.05 in fig9["a"] else np.nan
report.check("T19", "§7.6: IBU gives similar utility for ages under k-RR eps=2 and geometric eps_g=0.05 (median EMD, years)",
             paper="similar (Figs. 10a vs 9a)", ours=f"k-RR {ibu_krr2:.2f} vs geometric {ibu_geo05:.2f}",
             passed=bool(0.1 <= ibu_krr2 / ibu_geo05 <= 10), tolerance="same order of magnitude (ratio in [0.1, 10])")
inv_tab.round(1)

# %% [markdown]
# ### The unstated IBU stopping threshold
#
# IBU stops when the normalised log-likelihood changes by less than $\delta$. Under strong noise
# early stopping acts as a regulariser, so IBU's EMD depends on $\delta$; the conclusion
# "IBU $\ll$ INV" does not.

# %%
t = tic()
sens = []
for tol in SIZES["tols"]:
    for lab, M, N, metric in (("ages, geometric eps_g=0.05", M_g05, N_age, it_measures.emd_1d_rows),
                              ("locations, planar geometric eps_g=1", M_pg1, N_loc, lambda P, th: it_measures.emd_rows(P, th, D_loc))):
        r = it_ibu.estimation_trials(M, N, max(3, SIZES["reps"] // 4), metric=metric, rng=rng_for("sens" + lab), tol=tol,
                                 max_iter=200_000 if SCALE != "smoke" else 20_000)
        sens.append(dict(setting=lab, tol=tol, IBU=np.median(r["IBU"]), iterations=int(np.median(r["n_iter"])),
                         **{"min INV": min(np.median(r["INV-N"]), np.median(r["INV-P"]))}))
sens = pd.DataFrame(sens)
fig, axes = plt.subplots(1, 2, figsize=(11, 3.6))
for ax, (lab, d) in zip(axes, sens.groupby("setting", sort=False)):
    ax.semilogx(d.tol, d.IBU, "o-", color=color("IBU"), label="IBU")
    ax.semilogx(d.tol, d["min INV"], "s--", color=color("INV-P"), label="best of INV-N / INV-P")
    ax.set_xlabel(r"stopping threshold $\delta$ on $\ell = L/n$")
    ax.set_ylabel("median EMD (" + ("years" if "ages" in lab else "km") + ")")
    ax.set_yscale("log")
    ax.invert_xaxis()
    ax.set_title(lab, fontsize="small")
    ax.legend(fontsize="x-small")
fig.suptitle("IBU's EMD against its stopping threshold (not in the paper)", fontweight="bold")
plt.show()
report.check("TOL", "Sensitivity: IBU beats INV at every stopping threshold", paper="(unstated threshold)",
             ours=f"max IBU/min INV = {(sens.IBU / sens['min INV']).max():.2f}", passed=bool((sens.IBU < sens["min INV"]).all()),
             tolerance="IBU < min(INV) at every delta")
print(f"tolerance sensitivity: {time.perf_counter() - t:.1f} s")
sens.round(4)

# %% [markdown]
# ## Infinite alphabets: unlikely elements and likely subsets (§8)
#
# $x'$ is **unlikely** (Def. 2) if some $x$ has $M_{x' z^i} \le M_{x z^i}$ for every observation,
# strictly for one. **Lemma 8.1**: every MLE gives unlikely elements probability 0; **Thm 8.2**:
# the MLEs on $\mathcal X$ are exactly the MLEs on a *likely subset* $\hat{\mathcal X}$ extended by
# zeros. Explicit likely subsets: $[x_{\min}, x_{\max}]\cap\mathcal X$ on a line (**Prop 8.2**),
# $T_{\delta'}(\mathcal B)\cap\mathcal X$ in the plane (**Prop 8.3**, $\mathcal B$ = convex hull
# of the reports, $\delta' = (\delta^2 + 2\delta\, d_{\max})^{1/2}$, eq. 13), and the reported
# values under $k$-RR (**Prop 8.4**).
#
# **Fig. 13** redrawn on real data: six Adult ages obfuscated by the *untruncated* geometric
# mechanism ($\varepsilon_g = 0.1$), with $\mathcal X = \mathbb Z$.

# %%
rng = rng_for("fig13")
x6 = rng.choice(ages, 6)
z6 = it_mechanisms.untruncated_geometric_perturb(x6, 0.1, rng=rng)
Xw = np.arange(-100, 201)
mask13 = it.likely_subset_linear(Xw, z6)
unl13 = it.unlikely_mask(it_mechanisms.untruncated_geometric_matrix(Xw, z6, 0.1))
fig, ax = plt.subplots(figsize=(10, 2.4))
ax.axhline(0, color="grey", lw=1)
ax.plot(Xw[mask13], np.zeros(mask13.sum()), "|", color=color("IBU"), ms=10, label="likely subset $[x_{min}, x_{max}]$")
ax.plot(Xw[~mask13], np.zeros((~mask13).sum()), "|", color="lightgrey", ms=6, label="unlikely elements of $\\mathcal{X}$")
for i, (a, b) in enumerate(zip(x6, z6)):
    ax.annotate(f"$z^{i + 1}$", (b, 0), xytext=(b, 0.5 + 0.25 * (i % 2)), ha="center", arrowprops=dict(arrowstyle="->"))
xp = Xw[mask13].max() + 15
ax.plot([Xw[mask13].min(), Xw[mask13].max(), xp], [0, 0, 0], "o", color="k")
for v, s in ((Xw[mask13].min(), "$x_{min}$"), (Xw[mask13].max(), "$x_{max}$"), (xp, "$x'$")):
    ax.text(v, -0.5, s, ha="center")
ax.set_ylim(-0.9, 1.1)
ax.set_yticks([])
ax.set_xlabel("age (years; $\\mathcal{X} = \\mathbb{Z}$)")
ax.legend(fontsize="x-small", loc="upper left")
paper_title(ax, "Fig. 13", f"six Adult ages {sorted(x6.tolist())} reported as {sorted(z6.tolist())} (untruncated geometric, $\\varepsilon_g=0.1$)")
plt.show()
_ = report.check("T22", "Prop 8.2: every element of X outside [x_min, x_max] is unlikely (Def. 2, exact dominance test)",
             paper="likely subset", ours=f"{int(np.sum(unl13[~mask13]))}/{int(np.sum(~mask13))} outside are unlikely",
             passed=bool(np.all(unl13[~mask13])), tolerance="all")

# %%
t = tic()
rng = rng_for("T21")
x5k = rng.choice(ages, 5000)
z5k = it_mechanisms.untruncated_geometric_perturb(x5k, 0.1, rng=rng)
zu, cnt = np.unique(z5k, return_counts=True)
Xbig = np.arange(SIZES["t21_X"][0], SIZES["t21_X"][1] + 1)
Gbig = it_mechanisms.untruncated_geometric_matrix(Xbig, zu, 0.1)
m21 = it.likely_subset_linear(Xbig, zu)
t1 = tic(); full = it.ibu_rows(Gbig, cnt, tol=0, max_iter=SIZES["t21_iter"]); t_full = tic() - t1
t1 = tic(); sub = it.ibu_rows(Gbig[m21], cnt, tol=0, max_iter=SIZES["t21_iter"]); t_sub = tic() - t1
early = it.ibu_rows(Gbig, cnt, tol=0, max_iter=1000)
report.check("T21.1", f"Thm 8.2: IBU on the likely subset [{zu.min()}, {zu.max()}] ({m21.sum()} elements) and on "
             f"X = {{{Xbig[0]}..{Xbig[-1]}}} reach the same log-likelihood (5000 Adult ages, geometric eps_g=0.1)",
             paper="same MLE", ours=f"|l_full - l_sub| = {abs(full.loglik - sub.loglik):.1e}",
             passed=bool(abs(full.loglik - sub.loglik) < 1e-8), tolerance="1e-8")
report.check("T21.2", "Lemma 8.1: the full-alphabet mass outside the likely subset vanishes (after 1000 iterations)",
             paper="0", ours=f"{early.estimate[~m21].sum():.1e}", passed=bool(early.estimate[~m21].sum() < 1e-40), tolerance="< 1e-40")
report.check("T21.3", "§8: IBU on the likely subset is faster", paper="faster",
             ours=f"{t_full:.2f} s vs {t_sub:.2f} s ({t_full / t_sub:.1f}x)", passed=bool(t_sub < t_full), tolerance="faster")

K24, S24, n24, it24 = SIZES["t24"]
rng = rng_for("T24")
xs24 = rng.choice(rng.choice(K24, S24, replace=False), n24)
z24 = mech.grr_perturb(xs24, K24, 3.0, rng=rng)
zu24, c24 = np.unique(z24, return_counts=True)
e3 = np.exp(3.0)
G24 = np.full((K24, zu24.size), 1 / (K24 - 1 + e3))
G24[zu24, np.arange(zu24.size)] = e3 / (K24 - 1 + e3)  # restricted k-RR keeps the original k
m24 = it.likely_subset_krr(z24, K24)
f24 = it.ibu_rows(G24, c24, tol=0, max_iter=it24)
s24 = it.ibu_rows(G24[m24], c24, tol=0, max_iter=it24)
report.check("T24", f"Prop 8.4: under k-RR (|X| = {K24}, n = {n24}, eps=3) IBU on the {zu24.size} reported values and on "
             "all of X reach the same l; unreported values get ~0", paper="same MLE",
             ours=f"|dl| = {abs(f24.loglik - s24.loglik):.1e}; mass outside {f24.estimate[~m24].sum():.1e}",
             passed=bool(abs(f24.loglik - s24.loglik) < 1e-9 and f24.estimate[~m24].sum() < 1e-40),
             tolerance="|dl| < 1e-9, mass < 1e-40")
print(f"likely subsets (linear, k-RR): {time.perf_counter() - t:.1f} s")

# %% [markdown]
# **Fig. 14** redrawn on real data: 300 Gowalla check-ins of the Manhattan box obfuscated by the
# continuous planar Laplace mechanism ($\varepsilon_g = 2$/km), an infinite lattice of width
# $h = 0.3$ km ($\delta = h/\sqrt2 = 0.21$ km), the convex hull $\mathcal B$ of the reports and
# the likely region $T_{\delta'}(\mathcal B)$.

# %%
rng = rng_for("fig14")
pts = gw[["lat", "lon"]].to_numpy()[rng.choice(len(gw), 300, replace=False)]
kmlat, kmlon = lgrid.km_per_degree(np.mean(datasets.MANHATTAN_BOX[:2]))
P_km = np.c_[(pts[:, 1] - datasets.MANHATTAN_BOX[2]) * kmlon, (pts[:, 0] - datasets.MANHATTAN_BOX[0]) * kmlat]
EPS14 = 2.0
Z_km = mech.planar_laplace_perturb(P_km, EPS14, rng=rng)
h = 0.3
# a lattice window that covers T_delta'(B) with a margin of 1.5 km (the "much larger" alphabet)
hv = Z_km[ConvexHull(Z_km).vertices]
dp_bound = it.planar_delta_prime(h / np.sqrt(2), np.linalg.norm(hv[:, None] - hv[None], axis=2).max()) + 1.5
gxs = np.arange(np.floor((hv[:, 0].min() - dp_bound) / h), np.ceil((hv[:, 0].max() + dp_bound) / h) + 1) * h
gys = np.arange(np.floor((hv[:, 1].min() - dp_bound) / h), np.ceil((hv[:, 1].max() + dp_bound) / h) + 1) * h
L14 = np.array(np.meshgrid(gxs, gys)).reshape(2, -1).T
m14, dprime, dmax = it.likely_subset_planar(L14, Z_km, h / np.sqrt(2))
G14 = np.exp(-EPS14 * np.linalg.norm(L14[:, None, :] - Z_km[None], axis=2))  # planar Laplace density up to a constant
outside = np.flatnonzero(~m14)
probe = rng.choice(outside, min(300, outside.size), replace=False)
unl14 = it.unlikely_mask(np.vstack([G14[m14], G14[probe]]))[m14.sum():]
n14 = {"smoke": 300, "book": 1500, "paper": 5000}[SCALE]
f14 = it.ibu_rows(G14, np.ones(len(Z_km)), tol=0, max_iter=n14)
s14 = it.ibu_rows(G14[m14], np.ones(len(Z_km)), tol=0, max_iter=n14)

fig, ax = plt.subplots(figsize=(7, 7))
hull = Z_km[ConvexHull(Z_km).vertices]
ax.plot(L14[~m14, 0], L14[~m14, 1], ".", color="lightgrey", ms=2, label="lattice $\\mathcal{X}$ (unlikely)")
ax.plot(L14[m14, 0], L14[m14, 1], ".", color=color("IBU"), ms=3, label=f"likely subset ({m14.sum()} points)")
ax.add_patch(Polygon(hull, fill=False, ec="k", lw=1.5, label="$\\mathcal{B}$ = convex hull of reports"))
theta_ = np.linspace(0, 2 * np.pi, 60)
outer = np.concatenate([v + dprime * np.c_[np.cos(theta_), np.sin(theta_)] for v in hull])
ax.add_patch(Polygon(outer[ConvexHull(outer).vertices], fill=False, ec=color("INV-N"), lw=1.5, ls="--",
                     label=f"$T_{{\\delta'}}(\\mathcal{{B}})$, $\\delta'$ = {dprime:.2f} km"))
ax.plot(Z_km[:, 0], Z_km[:, 1], "+", color="k", ms=5, label="reports $z^i$")
ax.set_aspect("equal")
ax.set_xlim(gxs[0] - 0.3, gxs[-1] + 0.3)
ax.set_ylim(gys[0] - 0.3, gys[-1] + 0.3)
ax.set_xlabel("east (km)")
ax.set_ylabel("north (km)")
ax.legend(fontsize="x-small", loc="lower right")
paper_title(ax, "Fig. 14", f"planar likely subset: h = 0.3 km, $\\delta$ = 0.21 km, $d_{{max}}$ = {dmax:.2f} km")
plt.show()
report.check_close("T23.0", "Fig. 14a: discretisation error of a square lattice of width h = 0.3 km, delta = h/sqrt(2)",
                   paper=0.21, ours=0.3 / np.sqrt(2), atol=0.005)
report.check_close("T23.1", "Fig. 14 / eq. 13: delta' for delta = 0.21 km, d_max = 8.25 km", paper=1.87,
                   ours=it.planar_delta_prime(0.21, 8.25), atol=0.005)
_ = report.check("T23.2", "Prop 8.3: lattice points outside T_delta'(B) are unlikely (300 probed, exact dominance) and IBU on the "
             "likely subset reaches the full-window log-likelihood", paper="likely subset",
             ours=f"{int(unl14.sum())}/{probe.size} unlikely; |dl| = {abs(f14.loglik - s14.loglik):.1e}",
             passed=bool(unl14.all() and abs(f14.loglik - s14.loglik) < 1e-6), tolerance="all; |dl| < 1e-6")

# %% [markdown]
# ## What reproduces, and what does not
#
# * **Analytic claims** (the worked mechanisms (4) and (12), Rappor's bound, the INV error
#   propositions, the likely subsets) reproduce exactly. Two printed numbers of §7.6 are wrong:
#   the $k$-RR bound is $((e^2+99)/(e^2-1))^2 = 277.28/n$, printed "227.28/n" (a typo), and the
#   geometric bound is $7818.5/n$, printed "7238/n" ($= 20^3 - 2\cdot0.95\cdot20^2 - 2$, i.e. the
#   formula with $\alpha$ and $\beta$ rounded to 0.95 and 20). Both corrections strengthen the
#   paper's argument: the exact INV error under the geometric mechanism is another two orders of
#   magnitude above the bound.
# * **The contrast of §7** — IBU far ahead of INV under the geometric, Laplace and exponential
#   mechanisms, on par under $k$-RR and Rappor — reproduces on the real data at every
#   $\varepsilon$ (rows F9*, F10*, F12*).
# * **Fig. 8**: the noisy, INV-P and INV-N EMDs fall within 30% of the paper's values; IBU's EMD
#   depends on the stopping threshold, which the paper does not state (its Algorithm 1 stops on the
#   *unnormalised* $L$, so the threshold on $\ell = L/n$ is unknown). With our default
#   $\delta = 10^{-8}$ on $\ell$ IBU runs longer and fits more of the noise than the paper's run
#   seems to; with $10^{-6}$ it stops earlier and lands below the paper's 0.17 km, so the paper's
#   value lies inside the range spanned by the thresholds (row F8.4). Under strong noise early stopping
#   acts as a regulariser (see the sensitivity figure); IBU beats both INV variants at every
#   threshold we tried (row TOL).
# * **Data and unstated choices**: 98,061 Manhattan check-ins in our SNAP extract (paper
#   98,060); the San Francisco box of Fig. 6 is ours (the paper gives no coordinates); the
#   truncated geometric mechanism on $[0, 99]$ for the ages, the nearest-point discretisation of
#   the Laplace mechanisms, the factor $1/2$ of the exponential mechanism and the $\varepsilon$
#   grids follow spec 002's defaults, as stated in each section.

# %%
non_pass = report.to_frame().query("status != 'pass'")[["id", "claim", "paper", "ours", "status", "note"]]
non_pass

# %% [markdown]
# ## Reproduction report
#
# Statistical rows depend on SCALE: at `smoke` scale the boxplot medians rest on 3 runs (3
# $\varepsilon$ values per panel), at `book` on 50 and at `paper` on 100 (the paper's count); `book`
# and `paper` use spec 002's full $\varepsilon$ grids (8 values per panel of Fig. 9, 10 in Figs. 10
# and 12) and the Monte Carlo of Fig. 4 at all six $\varepsilon$ of the T9 table. Analytic rows
# (worked examples, bounds, ranks, errata) are exact at every scale.

# %%
print(f"total wall time: {time.perf_counter() - T0:.1f} s")
report.finalize()
