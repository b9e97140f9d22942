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

    req = "ldpnb[all] @ git+https://github.com/ldpnb/ldpnb"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", req], check=True)

# %% [markdown]
# # Consistency and performance of the iterative Bayesian update
#
# {glue:md}`ibu-status`
#
# ## Overview
#
# A curator receives $n$ reports, each drawn from a user's private value by a known mechanism, and
# wants the distribution of the private values. Two estimators compete: inverting the mechanism's
# matrix, and the maximum-likelihood estimate (MLE) computed by the **iterative Bayesian update**
# ({term}`IBU`). The question of this chapter, and of the paper it reproduces: *when does the MLE
# converge to the truth, and by how much does it beat inversion, under which mechanisms?*
#
# **Prerequisites.** The local model and its privacy budget {term}`epsilon (ε)`, mechanisms as
# channel matrices, the inversion estimators and the {term}`earth mover's distance <EMD>`
# ({doc}`foundations`); concave functions and the Karush-Kuhn-Tucker conditions of a maximisation
# over the simplex. The PRIVIC chapter ({doc}`privic`) runs IBU on location data collected
# incrementally, and the closing guide ({doc}`synthesis`) places it among the other estimators of
# the book.
#
# This chapter reproduces E. ElSalamouny and C. Palamidessi, *On the Consistency and Performance of
# the Iterative Bayesian Update* (arXiv 2508.09980) {cite}`elsalamouny2023ibu`. Each of $n$ users
# holds a value $X^i \sim \theta$ of a finite alphabet $\mathcal X$ and sends a curator a report
# $z^i$ drawn from a known mechanism $M$. The curator estimates $\theta$ either by **inverting** the
# mechanism ({term}`INV`) or by the **iterative Bayesian update** (IBU), an EM algorithm for the
# maximum-likelihood estimate (MLE) {cite}`agrawal2001design,elsalamouny2020gibu`. The paper makes
# three points:
#
# 1. it characterises when the log-likelihood is strictly concave and when the MLE is **consistent**
#    (converges to $\theta$ as $n$ grows): the reports *identify* $\theta$ exactly when $M$ has
#    $|\mathcal X|$ linearly independent columns, a property that the uniqueness of the MLE does not
#    imply, and identification with a *dominance* condition (automatic for finitely many outputs)
#    gives consistency (Secs. 4-6);
# 2. it shows that IBU beats inversion by a wide margin under geo-indistinguishable mechanisms (on
#    real data) and is on par with it under $k$-RR ({term}`GRR`, real data) and Rappor (synthetic
#    data), and explains the gap through the error of inversion (Sec. 7);
# 3. it runs IBU on infinite alphabets through *likely subsets* (Sec. 8).
#
# Every number below is recomputed by the code shown, on the Adult ages and the Gowalla check-ins, at
# the paper's sizes (100 runs per privacy level). We also answer a question the paper leaves open:
# IBU stops by a rule whose threshold the paper does not print, so **where does the MLE itself
# lie?** We compute it exactly, certify it *on the estimate* (not only on the likelihood), and show it
# beside the paper's rule throughout Sec. 7: stopping early regularises, and part of IBU's advantage
# comes from it.
#
# The paper's notation (its Table I), with the names the code uses:
#
# | symbol | meaning | in the code |
# |---|---|---|
# | $\mathcal X$ | the alphabet of a user's sensitive value | `range(k)`, or grid cells |
# | $\mathcal C$ | the set of all distributions on $\mathcal X$ | (the simplex) |
# | $\theta, \phi$ | distributions on $\mathcal X$ | `theta` |
# | $\theta^t$ | the distribution estimated by IBU at step $t$ | `IBUResult.estimate` after `n_iter` steps |
# | $\theta_x$ | the probability of $x \in \mathcal X$ under $\theta$ | `theta[x]` |
# | $X^i$ | the original value of user $i$ | (the histogram `N` of the values) |
# | $\mathcal Z$ | the alphabet of the reports | the channel's columns |
# | $Z^i$, $z^i$ | the report of user $i$ and its observed value | (the report counts `counts`) |
# | $M$, $M_{xz}$ | the mechanism; the probability that it reports $z$ from $x$ | `channel[x, z]`, rows = inputs |
# | $q$, $q_z$ | the empirical distribution of the reports | `counts / counts.sum()` |
# | $L(\theta)$ | the log-likelihood of $\theta$ for the observed reports | `n * IBUResult.loglik` |
# | $G$, $G_{xi}$ | the observation matrix, $G_{xi} = M_{x z^i}$ | `estimators.observation_matrix` |

# %% tags=["parameters", "remove-cell"]
SCALE = "book"  # "smoke" (tests) | "book" (the published book) | "paper" (extras)
SEED = 2024

# %% tags=["hide-input"]
import time

import numpy as np
import pandas as pd
from scipy import optimize

from ldpnb import channels, measures, stats
from ldpnb import data as datasets
from ldpnb import estimators as est
from ldpnb import mechanisms as mech
from ldpnb.papers import ibu
from ldpnb.papers.ibu import CLAIMS, figures, scoring, tables
from ldpnb.papers.ibu.claims import PRINTED, SIZES_BY_SCALE
from ldpnb.repro import Report, glue, rng_for
from ldpnb.repro.parallel import sweep
from ldpnb.repro.plotting import set_style
from ldpnb.repro.seeds import seed_for

set_style()
report = Report("ibu", CLAIMS, scale=SCALE, seed=SEED)
S = SIZES_BY_SCALE[SCALE]  # sizes per scale, in ldpnb/papers/ibu/claims.py
TOL, MAX_ITER = 1e-8, 20_000  # the paper's rule |Δℓ| < TOL on ℓ = L/n (δ unprinted)


report.text(runs=S["reps"], mle10_runs=S["mle10"], inv_runs=f"{S['inv_runs']:,}",
            draws=f"{5 * S['draws']:,}", mc_trials=f"{S['mc_trials']:,}",
            t19_runs=f"{S['t19_runs']:,}", f8_ibu_runs=S["reps"] + S["f8_ibu"],
            **{f"runs_{p}": S["decide"].get(p, S["reps"]) for p in ("9c", "10a")},
            runs_12=S["decide"].get("12a", S["reps"]),
            decide=", ".join(f"Fig. {p[:-1]}({p[-1]}) {n} runs per privacy level"
                             for p, n in S["decide"].items()) or "none at this scale")
CPU = time.process_time()

# %% [markdown]
# ## The model and the algorithm (Sec. 3)
#
# Each user obfuscates her value locally and sends only the report ({numref}`fig-ibu-2`). The
# mechanism is a stochastic matrix, $\sum_z M_{xz} = 1$, the same for every user.
#
# ```{glue:figure} ibu-fig2
# :name: fig-ibu-2
# :alt: Diagram: users X^1 to X^n each pass through the mechanism M and send reports z^1 to z^n to a curator, who estimates theta with IBU or INV.
#
# (Paper Fig. 2.) The local privacy model.
# ```
#
# IBU (the paper's Algorithm 1) starts from a full-support $\theta^0$, usually uniform, and repeats
#
# ```{math}
# :label: eq-ibu-update
#
# \theta^{t+1}_x = \sum_{z\in\mathcal Z} q_z\,\frac{\theta^t_x M_{xz}}{\sum_{u} \theta^t_u M_{uz}}
#   = \theta^t_x\, r_x(\theta^t), \qquad r_x(\theta) = \sum_z q_z \frac{M_{xz}}{(\theta M)_z},
# ```
#
# **until $|L(\theta^t) - L(\theta^{t-1})| < \delta$**. Every step raises the log-likelihood
# $L = n\ell$, $\ell(\theta) = \sum_z q_z \log(\theta M)_z$. Not every fixed point of
# {eq}`eq-ibu-update` is an MLE: a zero stays zero, so every vertex of the simplex is a fixed point
# ({ref}`ex-ibu-vertex`); from a full-support start the iterates converge to an MLE
# {cite}`elsalamouny2020gibu`. The paper does not print $\delta$; we stop when $\ell$ changes by less than $10^{-8}$ (that is
# $\delta \approx 10^{-3}$ on $L$ for the 98,060 check-ins) and call it *the paper's rule*.
#
# A small rule on $|\Delta L|$ says nothing about the distance to the maximum when the likelihood
# is flat. The vector $r$ that the update computes anyway bounds that distance: for any
# distribution $\phi$, by Jensen's inequality,
#
# ```{math}
# :label: eq-ibu-gap
#
# \ell(\phi) - \ell(\theta) &= \sum_z q_z \log\frac{(\phi M)_z}{(\theta M)_z}
#   \le \log \sum_z q_z \frac{(\phi M)_z}{(\theta M)_z}\\
#   &= \log \sum_x \phi_x r_x(\theta) \le \log \max_x r_x(\theta),
# ```
#
# so $g(\theta) = \log\max_x r_x(\theta)$ is a **certified gap** to the maximum likelihood (0 exactly at an MLE:
# $r_x \le 1$ everywhere, $= 1$ on the support; these are the Karush-Kuhn-Tucker conditions of
# maximising the concave $\ell$ over the simplex, since $\partial\ell/\partial\theta_x = r_x$). The
# gap is in nats per report; $n$ times it bounds the distance on $L$. {py:func}`ldpnb.estimators.ibu`
# reports it with every result, and `criterion="gap"` runs IBU until it is below a tolerance.
#
# **A gap is not a distance.** The first editions of this chapter called "the MLE" a point with
# $g \le 10^{-6}$ in {eq}`eq-ibu-gap`. Where the likelihood is flat such a point can be far from
# the maximum: in Fig. 9(a) at the strongest noise its median EMD is {glue:text}`ibu-x6_a`% below the
# exact MLE's (Sec. 7.3). The curvature of $\ell$ turns a
# gap into a distance. Let $\hat\theta$ be an MLE, $d = \theta - \hat\theta$ and
# $H(\theta) = M\operatorname{diag}(q/(\theta M)^2)M^\top$ the Hessian of $-\ell$. Taylor's formula
# along the segment, $\nabla\ell(\hat\theta)\cdot d \le 0$ (the KKT conditions at the maximum) and
# $H \succeq \kappa H(\theta)$ along the segment give
#
# ```{math}
# :label: eq-ibu-distance
#
# d^\top H(\theta)\, d \le \frac{2g}{\kappa}, \qquad \sum_x d_x = 0,
# ```
#
# where $\kappa = \min_z (1 - \sqrt{2g/q_z})^2 \approx 1$ bounds how much the output probabilities
# can change between $\theta$ and $\hat\theta$ (they are pinned by the gap). Every linear functional of
# $d$, hence the EMD between $\theta$ and $\hat\theta$, is bounded on this ellipsoid. Where $\ell$ is
# flat, $H$ has tiny eigenvalues and only a tiny $g$ bounds the distance; restricting the curvature
# to the face of the simplex that carries the MLE (the $x$ with $r_x \approx 1$: the others can hold at
# most $g/(1 - r_x)$ of its mass) sharpens the bound (`ldpnb.estimators._certify`). So we compute the
# MLE by a primal-dual interior-point method, Newton's method on the KKT conditions ($r_x \le 1$,
# $= 1$ on the support), which reaches $g \approx 10^{-14}$ in 20-40 steps where EM needs $10^5$
# updates for $10^{-10}$, and we certify every point by {eq}`eq-ibu-distance`. "The MLE" below is
# within a certified EMD of the exact one that is at most 1% of its EMD to $\theta$ (row CERT), and
# EM accelerated by SQUAREM {cite}`varadhan2008squarem`, an independent algorithm with the same
# maximiser, lands on it (row MLEx).

# %% tags=["hide-input", "remove-output"]
glue("ibu-fig2", figures.fig2())

# %% [markdown]
# We check on a small problem that IBU's limit is an MLE: the certificate reaches $10^{-10}$, $\ell$
# never decreases, and a generic constrained solver finds no better point.

# %%
rng = rng_for(SEED, "T0")
M0 = mech.grr_channel(10, 1.0)
x0 = rng.multinomial(2000, rng.dirichlet(np.ones(10)))
c0 = channels.simulate_counts(M0, x0, rng=rng)
r0 = est.ibu(M0, c0, criterion="gap", tol=1e-10, max_iter=10**6)
slsqp = optimize.minimize(
    lambda t: -(c0 @ np.log(np.maximum(t @ M0, 1e-300))) / c0.sum(),  # -ℓ
    np.full(10, 0.1), method="SLSQP", bounds=[(0, 1)] * 10, options={"ftol": 1e-14},
    constraints=[{"type": "eq", "fun": lambda t: t.sum() - 1}])
report.holds("T0", gap=r0.gap, min_step=np.diff(r0.trace).min(), l_ibu=r0.loglik,
             l_slsqp=-slsqp.fun)

# %% [markdown]
# ## The log-likelihood and its strict concavity (Sec. 4)
#
# For observations $z^1, \dots, z^n$ the paper writes the log-likelihood with the *observation
# matrix* $G_{xi} = M_{xz^i}$ (eqs. 1-2, Def. 1):
#
# ```{math}
# :label: eq-ibu-loglik
#
# L(\phi) = \sum_{i=1}^n \log \sum_x \phi_x G_{xi}.
# ```
#
# Each term is the logarithm of a linear function of $\phi$, and $\log$ is strictly concave, so
# (**Lemma 4.1**)
# $L(\gamma\theta + (1-\gamma)\phi) \ge \gamma L(\theta) + (1-\gamma)L(\phi)$, with equality iff
# every term is an equality, i.e. iff $(\theta G)_i = (\phi G)_i$ for every observation: iff
# $(\theta - \phi)G = 0$. Two distributions differ by a vector $w = \theta - \phi$ with
# $\sum_x w_x = 0$; hence (**Thm 4.1**) $L$ is strictly concave iff no nonzero $w$ with
# $\sum_x w_x = 0$ has $wG = 0$. The two conditions $wG = 0$ and $w\mathbf 1 = 0$ say that $w$ is
# orthogonal to every column of $[G \mid \mathbf 1]$, so $L$ is strictly concave iff
# $\operatorname{rank}[G \mid \mathbf 1] = |\mathcal X|$: a rank test
# (`estimators.is_strictly_concave`), exact up to the floating-point decision of a numerical rank.
#
# ```{prf:theorem} Strict concavity (the paper's Lemma 4.1 and Thm 4.1)
# :label: thm-ibu-concavity
#
# For every $\gamma \in (0, 1)$, $L(\gamma\theta + (1-\gamma)\phi) \ge \gamma L(\theta) +
# (1-\gamma)L(\phi)$, with equality iff $(\theta - \phi)G = 0$. Hence $L$ {eq}`eq-ibu-loglik` is
# strictly concave on the simplex iff $\operatorname{rank}[G \mid \mathbf 1] = |\mathcal X|$.
# Checked in rows <a href="#claim-ibu-T1">T1</a> and <a href="#claim-ibu-T3.9">T3.9</a>.
# ```
#
# **Mechanism (4).** On $\mathcal X = \mathcal Z = \{1, 2, 3\}$ let
# $M = \begin{pmatrix}0.10&0.45&0.45\\0.45&0.10&0.45\\0.45&0.45&0.10\end{pmatrix}$. With the single
# observation $\{2\}$, $L(\theta) = \log(0.45\theta_1 + 0.10\theta_2 + 0.45\theta_3) =
# \log(0.45 - 0.35\,\theta_2)$: every distribution with $\theta_2 = 0$ is an MLE
# ({numref}`fig-ibu-3`a). IBU multiplies $\theta_1$ and $\theta_3$ by the same factor $r_1 = r_3$,
# so it keeps their ratio and converges to $(\theta^0_1, 0, \theta^0_3)/(\theta^0_1 + \theta^0_3)$:
# $(1/2, 0, 1/2)$ from the uniform start, $(6/7, 0, 1/7)$ from $(0.6, 0.3, 0.1)$. With $\{2, 1\}$,
# $L = \log(0.45 - 0.35\theta_2) + \log(0.45 - 0.35\theta_1)$ is strictly concave with the unique
# maximum $(0, 0, 1)$ ({numref}`fig-ibu-3`b).

# %%
M4 = np.array([[0.10, 0.45, 0.45], [0.45, 0.10, 0.45], [0.45, 0.45, 0.10]])
G2 = est.observation_matrix(M4, [1])  # observation {2} (outputs are 0-based)
G21 = est.observation_matrix(M4, [1, 0])  # observations {2, 1}
L = est.loglik_observations
U3, START = np.full(3, 1 / 3), np.array([0.6, 0.3, 0.1])
e1, e3 = np.eye(3)[0], np.eye(3)[2]


def mle(M, obs, start):
    """IBU from `start` to a certified gap of 1e-12 (observations 1-based)."""
    counts = np.bincount(np.asarray(obs) - 1, minlength=3)
    res = est.ibu(M, counts, theta0=start, criterion="gap", tol=1e-12, max_iter=10**6)
    return res.estimate

# %%
fp_u, fp_b = mle(M4, [2], U3), mle(M4, [2], START)
surface = ibu.loglik_surface(M4, [1], 301)[2]  # L over the simplex for {2}
values = [L(fp_u, G2), L(U3, G2), np.nanmin(surface), L(mle(M4, [2, 1], U3), G21),
          L(U3, G21), L(e1, G21)]
for i, v in enumerate(values, start=1):
    report.close(f"T3.{i}", v)
segment = [L(g * e1 + (1 - g) * e3, G2) for g in np.linspace(0, 1, 11)]
report.holds("T3.0", max_diff=np.ptp(segment))
report.close("T3.7", fp_u)
report.close("T3.8", fp_b)
report.holds("T3.9", strict_2=int(est.is_strictly_concave(G2)),
             strict_21=int(est.is_strictly_concave(G21)))

# %% [markdown]
# Lemma 4.1 itself: along the segment from $(1, 0, 0)$ to $(0, 0, 1)$, $(\theta - \phi)G_{\{2\}} = 0$
# and the inequality is an equality; for a positive $5 \times 12$ matrix $G$ of full rank it is
# strict for random pairs.
#
# ```{prf:proposition} Uniqueness (the paper's Prop. 5.1)
# :label: prop-ibu-unique
#
# If $L$ is strictly concave and finite somewhere on the simplex, the MLE is unique. Checked in row
# <a href="#claim-ibu-T10">T10</a>: IBU reaches $(0, 0, 1)$ for $\{2, 1\}$ from five starts.
# ```

# %%
def concavity_gap(g, theta, phi, G):
    """L(gθ + (1-g)φ) - gL(θ) - (1-g)L(φ): >= 0, = 0 iff (θ - φ)G = 0 (Lemma 4.1)."""
    mix = L(g[..., None] * theta + (1 - g[..., None]) * phi, G)
    return mix - g * L(theta, G) - (1 - g) * L(phi, G)


rng = rng_for(SEED, "T1")
gam, G = rng.uniform(0.05, 0.95, 200), rng.random((5, 12)) + 1e-3
th, ph = rng.dirichlet(np.ones(5), 200), rng.dirichlet(np.ones(5), 200)
equality = concavity_gap(np.array([0.1, 0.5, 0.9]), e1, e3, G2)  # (e1 - e3)G2 = 0
report.holds("T1", min_random_gap=concavity_gap(gam, th, ph, G).min(),
             max_equality_gap=np.max(np.abs(equality)))
starts = [U3, START, *rng_for(SEED, "T10").dirichlet(np.ones(3), 3)]
report.holds("T10", max_l1=max(np.abs(mle(M4, [2, 1], s) - e3).sum() for s in starts))

# %% tags=["hide-input", "remove-output"]
titles = ["(a) observations {2}", "(b) observations {2, 1}"]
glue("ibu-fig3", figures.fig3(M4, [[2], [2, 1]], titles, [U3, START]))

# %% [markdown]
# ```{glue:figure} ibu-fig3
# :name: fig-ibu-3
# :alt: Two heat maps of the log-likelihood over the triangle of distributions. Left, a ridge along theta_1 + theta_3 = 1 on which IBU paths from two starts stop at different points; right, a single maximum at theta_3 = 1 reached by both paths.
#
# (Paper Fig. 3.) $L$ of mechanism (4) over the simplex ($\theta_2 = 1 - \theta_1 - \theta_3$):
# (a) the observation $\{2\}$: a ridge of MLEs; (b) $\{2, 1\}$: strictly concave, one maximum. The
# lines are IBU's trajectories (400 steps) from the uniform distribution and from $(0.6, 0.3, 0.1)$.
# ```
#
# ### The mechanisms of the paper
#
# $k$-RR (eq. 5) reports the true value with probability $e^\varepsilon/(k - 1 + e^\varepsilon)$ and
# any other one with probability $1/(k - 1 + e^\varepsilon)$; **basic Rappor** flips each bit of the
# one-hot encoding with probability $1/(1 + e^{\varepsilon/2})$, which gives (**Lemma 4.4**)
# $P(\beta \mid x) = p^{|\mathcal X|} e^{-(1/2 + S(\beta)/2 - \beta_x)\varepsilon}$ with $p =
# e^{\varepsilon/2}/(1 + e^{\varepsilon/2})$ and $S(\beta)$ the number of ones. Both are
# $\varepsilon$-{term}`LDP`. The **geometric** mechanism $P(z|x) = c\,e^{-\varepsilon_g|z - x|}$
# (eq. 6), its truncation to a range (eq. 7), the **Laplace** mechanism (discretised to the nearest
# value and clamped to the range; the paper uses it without spelling out its discretisation), the
# **exponential** mechanism $\propto e^{-\varepsilon_g d(x, z)/2}$
# {cite}`chatzikokolakis2017efficient` and their planar versions are
# $\varepsilon_g$-geo-indistinguishable. We compute each channel's tight constant from its matrix,
# for every channel the experiments of Sec. 7 use.

# %%
x100 = np.arange(100)
D_age = np.abs(np.subtract.outer(x100, x100)).astype(float)
grid = ibu.manhattan_grid()
D_loc = grid.distance_matrix()  # km between the centres of the 20 x 14 cells
D_lat = datasets.lattice_distance_matrix(20, 14, 0.5)  # the planar channels' metric
ldp = [channels.ldp_epsilon(mech.grr_channel(100, 2.0)) - 2.0,
       channels.ldp_epsilon(mech.rappor_channel(8, 1.0)) - 1.0]
report.close("T25.1", np.max(np.abs(ldp)))
LINE = {"geometric": lambda e: mech.TruncatedGeometric(100, e),  # the ages
        "laplace": lambda e: mech.DiscreteLaplace(100, e),
        "exponential": lambda e: mech.Exponential(D_age, e)}
PLANE = {"geometric": lambda e: mech.PlanarGeometric(20, 14, e, 0.5),  # the cells
         "laplace": lambda e: mech.PlanarLaplace(20, 14, e, 0.5),
         "exponential": lambda e: mech.Exponential(D_loc, e)}
MECHS, CHANNELS, levels = {}, {}, []
settings = [(e, False) for e in S["eps_age"]] + [(e, True) for e in S["eps_loc"]]
for kind in LINE:
    for e, planar in settings:
        m = MECHS[kind, e, planar] = (PLANE if planar else LINE)[kind](float(e))
        C = CHANNELS[kind, e, planar] = m.channel()
        D = (D_loc if kind == "exponential" else D_lat) if planar else D_age
        levels.append(channels.geo_ind_epsilon(C, D) / e)
report.range("T25.2", max(levels))

# %% tags=["hide-input", "remove-output"]
excess = channels.geo_ind_epsilon(CHANNELS[("geometric", 1.0, True)], D_loc) - 1.0
report.text(cell_excess=f"{100 * excess:.2f}", cell_ns=f"{grid.cell_size_km()[0]:.4f}")

# %% [markdown]
# (The tight constant of a channel is $\max_{x \ne x', z} \log(M_{xz}/M_{x'z})/d(x, x')$; for a
# truncated or discretised mechanism it can only be smaller than that of the continuous one, of which
# it is a post-processing.) The planar geometric and Laplace channels are built on a lattice of 0.5 km; the paper's box gives
# cells of {glue:text}`ibu-cell_ns` km north-south, so with respect to the distances between the true
# cell centres (those of the EMD) their level is {glue:text}`ibu-cell_excess`% above $\varepsilon_g$.
# Lemma 4.4 holds to rounding:

# %%
bits = (np.arange(2**8)[:, None] >> np.arange(8)) & 1  # every bit vector of length 8
lemma44 = ibu.rappor_bits_likelihood(bits, 1.0)  # the formula of Lemma 4.4
report.holds("T7", max_abs_diff=np.abs(mech.rappor_channel(8, 1.0) - lemma44).max())

# %% [markdown]
# **Cors. 4.2-4.4**: under $k$-RR and the linear geometric mechanisms (truncated or not), $L$ is
# strictly concave as soon as every element of $\mathcal X$ has been observed; we check 50 random
# instances of each. For $k$-RR one can say more: $k - 1$ distinct observed values already suffice,
# and $k - 2$ never do (the columns of two unobserved values enter $G$ through the constant only).

# %%
report.holds("T4-T6", **ibu.all_observed_concavity(50, rng=rng_for(SEED, "T4-T6")))
report.holds("T4b", **ibu.krr_observed_concavity(rng=rng_for(SEED, "T4b")))

# %% [markdown]
# **Rappor (Thm 4.6, Fig. 4).** Here the reports are bit vectors and $G$ has only two distinct
# values per column, so with $\sum_x w_x = 0$, $wG = 0$ iff $wB = 0$ for the matrix $B$ of reported
# bits: $L$ is strictly concave iff $\operatorname{rank}[B \mid \mathbf 1] = |\mathcal X|$. A 0/1
# matrix of full rank over GF(2) has full rank over the reals (**Lemma 4.5**), and bounding the
# probability of a full GF(2) rank gives:
#
# ```{prf:theorem} Rappor (the paper's Thm 4.6)
# :label: thm-ibu-rappor
#
# Under basic Rappor with $n$ users, $p = e^{\varepsilon/2}/(1 + e^{\varepsilon/2})$,
#
# $$P(L \text{ strictly concave}) \ge \prod_{k=1}^{|\mathcal X|} \max\{0,\ 1 - p^n 2^{k-1}\}.$$
#
# Checked in rows <a href="#claim-ibu-T8">T8</a> (Lemma 4.5), <a href="#claim-ibu-T9.2">T9.2</a> and <a href="#claim-ibu-T9.3">T9.3</a>.
# ```
#
# The counting behind it: the $k$-th row of $B$ (the reports' bits for the $k$-th value) falls in the
# GF(2) span of the previous $k - 1$ rows, a set of $2^{k-1}$ vectors, and each of its $n$ bits takes
# a given value with probability at most $p$, so it hits any fixed vector with probability at most
# $p^n$.
#
# The paper: "with $\varepsilon = 1$ the log-likelihood of the basic Rappor is strictly concave
# with probability almost one when $n \ge 25$". The Monte Carlo estimates the three nested events
# (GF(2) rank, real rank, strict concavity) for uniform inputs on $|\mathcal X| = 10$
# ({numref}`fig-ibu-4`).

# %%
mc = pd.DataFrame([
    dict(eps=e, n=n, **ibu.rappor_concavity_frequencies(
        10, n, e, S["mc_trials"], rng=rng_for(SEED, f"fig4/{e}/{n}")))
    for e in S["mc_eps"] for n in S["mc_n"]])
report.range("T9.2", ibu.rappor_concavity_lower_bound(10, 25, 1.0))
hits = np.round(mc.concave * S["mc_trials"]).astype(int)  # trials strictly concave
freq = stats.proportion(hits, S["mc_trials"], simultaneous=True)  # Wilson, every point
report.order("T9.3", {"bound": mc.bound.to_numpy(), "frequency": freq})
report.holds("T8", violations=int(mc.nested_violations.sum()))

# %% tags=["hide-input", "remove-output"]
n_grid = np.arange(10, 201)
bounds4 = {e: ibu.rappor_concavity_lower_bound(10, n_grid, e)
           for e in (0.5, 1, 2, 3, 4, 5)}
glue("ibu-fig4", figures.fig4(n_grid, bounds4, mc, S["mc_trials"]))

# %% [markdown]
# ```{glue:figure} ibu-fig4
# :name: fig-ibu-4
# :alt: Curves of the lower bound on the probability of strict concavity against the number of users on a log axis, rising to one earlier for small epsilon; Monte Carlo circles lie on or above the curves.
#
# (Paper Fig. 4.) Thm 4.6's lower bound for Rappor on $|\mathcal X| = 10$ against the number of users,
# for $\varepsilon \in \{0.5, 1, 2, 3, 4, 5\}$, with Monte Carlo frequencies of strict concavity
# (circles, with their 95% Wilson intervals) and of a full GF(2) rank (dots),
# {glue:text}`ibu-mc_trials` trials per point.
# ```
#
# ## Uniqueness is not consistency (Sec. 5)
#
# Strict concavity implies a unique MLE (Prop. 5.1), but not conversely. **Mechanism (12)**,
# $M = \begin{pmatrix}0.45&0.10&0.45\\0.05&0.90&0.05\\0.45&0.10&0.45\end{pmatrix}$, has equal rows 1
# and 3 (rank 2). For $\{2,2,2,2\}$, $L = 4\log(0.1 + 0.8\theta_2)$ has the unique maximum
# $(0, 1, 0)$ but is constant on every line $\theta_2 = $ const, so it is not strictly concave
# ({numref}`fig-ibu-5`a). Adding the reports 1 and 3 gives
# $L = 4\log(0.1 + 0.8\theta_2) + 2\log(0.45 - 0.4\theta_2)$, maximal at $\theta_2 = 17/24$ on a
# whole segment of MLEs (b): $(0.1 + 0.8\cdot 17/24, 0.45 - 0.4 \cdot 17/24) = (2/3, 1/6)$. No
# amount of data separates $\theta_1$ from $\theta_3$: "the MLE never converges with any amount of
# noisy data to the true distribution". With $\theta = (0.2, 0.3, 0.5)$ and infinite data,
# $q = \theta M$, every $\phi$ with $\phi_2 = 0.3$ fits $q$ exactly, and IBU, which multiplies
# $\theta_1$ and $\theta_3$ by the same factor, stops from the uniform start at $(0.35, 0.3, 0.35)$;
# (row S5.1c); with $n$ reports its error does not fall (row S5.1d; the flat line of
# {numref}`fig-ibu-consistency`). Conversely mechanism (4) is identifiable
# (rank 3) although its MLE for $\{2\}$ is not unique: it is the case the paper cites of "mechanisms
# that allow IBU's consistency" without a unique MLE for every sample.

# %%
M12 = np.array([[0.45, 0.10, 0.45], [0.05, 0.90, 0.05], [0.45, 0.10, 0.45]])
Ga = est.observation_matrix(M12, [1, 1, 1, 1])  # {2, 2, 2, 2}
Gb = est.observation_matrix(M12, [1, 1, 1, 1, 0, 2])  # {2, 2, 2, 2, 1, 3}
fa = mle(M12, [2, 2, 2, 2], U3)
fb = [mle(M12, [2, 2, 2, 2, 1, 3], s) for s in (U3, START)]
values = [L(fa, Ga), L([0.3, 0, 0.7], Ga), L(U3, Ga), L(fb[0], Gb), L(U3, Gb)]
for i, v in enumerate(values, start=1):
    report.close(f"T11.{i}", v)
for rid, v in (("T11.6", fa), ("T11.7", fb[0]), ("T11.8", fb[1])):
    report.close(rid, v)

# %%
strict = est.is_strictly_concave
report.holds("T11.9", rank=np.linalg.matrix_rank(M12), strict_a=int(strict(Ga)),
             strict_b=int(strict(Gb)), dL=abs(L(fb[0], Gb) - L(fb[1], Gb)),
             dist=np.abs(fb[0] - fb[1]).sum())
report.holds("S5.1a", rank=np.linalg.matrix_rank(M4), dL=abs(L(fp_u, G2) - L(fp_b, G2)),
             dist=np.abs(fp_u - fp_b).sum())
theta12 = np.array([0.2, 0.3, 0.5])
inf12 = est.ibu(M12, (theta12 @ M12)[None], criterion="gap", tol=1e-13, max_iter=10**6)
fit12 = np.abs(inf12.estimate[0] @ M12 - theta12 @ M12).sum()  # q fitted exactly

# %% tags=["hide-input", "remove-output"]
titles = ["(a) {2, 2, 2, 2}", "(b) {2, 2, 2, 2, 1, 3}"]
obs5 = [[2, 2, 2, 2], [2, 2, 2, 2, 1, 3]]
glue("ibu-fig5", figures.fig5(M12, obs5, titles, [U3, START]))

# %% [markdown]
# ```{glue:figure} ibu-fig5
# :name: fig-ibu-5
# :alt: Two heat maps of the log-likelihood of mechanism 12. Left, the maximum at the corner theta_2 = 1 with level lines parallel to the hypotenuse; right, a dashed segment of maxima on which two IBU paths stop at different points.
#
# (Paper Fig. 5.) $L$ of mechanism (12): (a) $\{2,2,2,2\}$, a unique MLE $(0, 1, 0)$ without strict
# concavity; (b) $\{2,2,2,2,1,3\}$, a segment of MLEs (dashed, $\theta_2 = 17/24$); IBU stops where
# its start leads it, $(7/48, 17/24, 7/48)$ or $(1/4, 17/24, 1/24)$.
# ```
#
# ## Consistency (Sec. 6)
#
# Let $\hat\theta^n$ be the MLE from $n$ reports. By Newey and McFadden's theorem
# {cite}`newey1994large` (the paper's **Lemma 6.1**), the MLE
# converges in probability to $\theta$ under *identification* ($\theta \ne \phi \Rightarrow
# P(\cdot|\theta) \ne P(\cdot|\phi)$), compactness, continuity and *dominance*
# ($\mathbf E[\sup_\phi |\log P(Z|\phi)|] < \infty$).
#
# ```{prf:theorem} Identification (the paper's Thm 6.1)
# :label: thm-ibu-identification
#
# The following are equivalent: (i) $\theta \ne \phi \Rightarrow P(\cdot|\theta) \ne P(\cdot|\phi)$;
# (ii) $L$ is strictly concave for some set of observations; (iii) $M$ has $|\mathcal X|$ linearly
# independent columns. Checked in rows <a href="#claim-ibu-T13.1">T13.1</a> ((iii), hence (ii) with $G = M$), <a href="#claim-ibu-T13.3">T13.3</a>
# and <a href="#claim-ibu-T16.1">T16.1</a> (channels without them); row <a href="#claim-ibu-T13.2">T13.2</a> asks whether the reports of our runs are
# such sets.
# ```
#
# The argument is short: $P(\cdot|\theta) = \theta M$, so identification fails iff some
# nonzero $w$ with $\sum_x w_x = 0$ has $wM = 0$; the columns of any observation matrix $G$ are
# columns of $M$, so such a $w$ also has $wG = 0$ for every observation set (no $L$ is strictly
# concave); and since the rows of $M$ sum to 1, $\mathbf 1$ is a combination of the columns of $M$
# and $\operatorname{rank}[M \mid \mathbf 1] = \operatorname{rank} M$. For a channel with independent
# columns, observing every output once gives $G = M$ and a strictly concave $L$: on a computer
# (ii) with $G = M$ and (iii) are the same rank test. We check it on every channel of the
# experiments, and that a channel without it (mechanism (12), the $25 \times 16$ channel below) has
# no such observation set.

# %%
ldp = [mech.grr_channel(100, 0.5), mech.grr_channel(280, 0.5)]
every = [*CHANNELS.values(), *ldp, mech.rappor_channel(10, 0.5)]
report.holds("T13.1", identifiable=sum(est.is_identifiable(C) for C in every),
             channels=len(every))
rng = rng_for(SEED, "T13.3")
sets12 = [M12[:, rng.integers(0, 3, rng.integers(1, 30))] for _ in range(500)]
planar = mech.planar_geometric_channel(5, 5, 0.5, cell_size=1.0)
M_sf = channels.clamp_grid_outputs(planar, 5, 5, 4, 4)  # truncated to 4 x 4 cells
report.holds("T13.3", strict_12=sum(map(strict, sets12)), sets=500,
             rank_sf=np.linalg.matrix_rank(np.c_[M_sf, np.ones(25)]))
report.not_evaluated("T12")

# %% [markdown]
# **Dominance.** For a finite $\mathcal Z$, $d(z) = -\log\min_{x,z} M_{xz}$ bounds
# $|\log P(z|\phi)|$ (**Prop. 6.2**: $k$-RR, truncated geometric, Rappor). For the untruncated
# geometric mechanism on $\mathcal X \subset [a, b]$, $\ell = b - a$,
# $c\,e^{-\varepsilon_g(|z-a| + \ell)} \le P(z|\phi) \le c\,e^{-\varepsilon_g(|z-a| - \ell)}$ and
# $d(z) = \varepsilon_g(|z - a| + \ell) - \log c$ has a finite mean (**Prop. 6.3**).

# %%
rng = rng_for(SEED, "T15")
X10, zz = np.arange(10), np.arange(-200, 210)
lo, hi = ibu.geometric_dominance_bounds(zz, 0, 9, 0.5)
P = rng.dirichlet(np.ones(10), 200) @ mech.untruncated_geometric_matrix(X10, zz, 0.5)
outside = (P < lo * (1 - 1e-12)) | (P > hi * (1 + 1e-12))
report.holds("T15", violations=int(outside.sum()))
viol = 0
finite = [mech.grr_channel(10, 1.0), mech.geometric_channel(10, 0.5)]
for M in finite + [mech.rappor_channel(10, 1.0)]:
    Pz = rng.dirichlet(np.ones(10), 200) @ M
    viol += int(np.sum(-np.log(Pz) > -np.log(M.min()) * (1 + 1e-12)))  # |log P| <= d
report.holds("T14.5", violations=viol)

# %% [markdown]
# The paper proves consistency and runs no experiment on it. We measure it: the mean $L_1$ error of
# IBU against $n$ for $\theta$ = Binomial(9, 1/2) under the four mechanisms of Props. 6.2 and 6.3 and
# under mechanisms (4) and (12), each for {glue:text}`ibu-cons_reps` samples per $n$. A regular MLE
# has an error $\propto n^{-1/2}$: a log-log slope near $-1/2$ ({numref}`fig-ibu-consistency`); for
# the non-identifiable mechanism (12) the error stalls. IBU runs to $|\Delta\ell| < 10^{-10}$ here,
# far below the statistical error.

# %%
theta_bin = np.array([1, 9, 36, 84, 126, 126, 84, 36, 9, 1]) / 512  # Binomial(9, 1/2)
reps = S["cons_reps"]
cases = {  # name: (channel, theta, samples per n)
    "k-RR (ε = 1)": (mech.grr_channel(10, 1.0), theta_bin, reps),
    "truncated geometric (εg = 0.5)": (mech.geometric_channel(10, .5), theta_bin, reps),
    "untruncated geometric (εg = 0.5)": ("untruncated geometric", theta_bin, reps),
    "Rappor (ε = 1)": (mech.rappor_channel(10, 1.0), theta_bin, reps),
    "mechanism (4)": (M4, np.array([0.2, 0.3, 0.5]), 5 * reps),
    "mechanism (12)": (M12, theta12, 5 * reps)}
n_cons = np.array(S["cons_n"])
cons = {name: np.stack([ibu.consistency_errors(C, th, int(n), reps, epsilon=0.5,
                                                rng=rng_for(SEED, f"T14/{name}/{n}"))
                        for n in n_cons], axis=1)  # (sample, n)
        for name, (C, th, reps) in cases.items()}
slopes = {name: scoring.loglog_slope(n_cons, E, rng=rng_for(SEED, f"T14/{name}/slope"))
          for name, E in cons.items()}  # slope of log(mean error), bootstrap interval
report.record(dict(zip(["T14.1", "T14.2", "T14.3", "T14.4", "S5.1b", "S5.1d"],
                       slopes.values())))
report.holds("S5.1c", fit=fit12, dist_inf=np.abs(inf12.estimate[0] - theta12).sum())

# %% tags=["hide-input", "remove-output"]
glue("ibu-consistency", figures.consistency(n_cons, cons, slopes))
report.text(cons_reps=S["cons_reps"])

# %% [markdown]
# ```{glue:figure} ibu-consistency
# :name: fig-ibu-consistency
# :alt: Log-log lines of the mean L1 error against n for six mechanisms: five parallel to a dotted n^(-1/2) reference, the line of mechanism 12 flat at about 0.3.
#
# (Props. 6.2-6.3 and Sec. 5.1; no figure in the paper.) Mean $L_1$ error of IBU against the number
# of users, Binomial(9, 1/2) inputs ({glue:text}`ibu-cons_reps` samples per point; five times as
# many for mechanisms (4) and (12), inputs $(0.2, 0.3, 0.5)$); bars: 95% intervals of the means
# (Hall's skewness-corrected $t$). The legend gives each fitted log-log slope with its 95% BCa
# bootstrap interval (the samples at each $n$ resampled).
# ```
#
# ### A mechanism that is not identifiable: Fig. 6 (Sec. 6.4)
#
# A $5 \times 5$ km box of San Francisco in cells of 1 km (the paper gives no coordinates; ours are
# in `ibu.sf_ibu_grid`), with the Gowalla check-ins as $\theta$. The planar geometric mechanism
# ($\varepsilon_g = 0.5$/km) followed by truncation to the $4 \times 4$ block of the first rows and
# columns has 25 rows and 16 columns: at most 16 independent columns, so identification fails. With
# the *asymptotic* reports $q = \theta M$ (infinite data), IBU from three starts finds three
# different MLEs, none of which is $\theta$ ({numref}`fig-ibu-6`). Every distribution $\phi$ with
# $\phi M = q$ is an MLE (it attains the maximum $\sum_z q_z\log q_z$ of $\ell$), and these form the
# intersection of the simplex with an affine set of dimension $25 - 16 = 9$ at least; which one IBU
# reaches depends on where it starts.

# %%
sf = datasets.load_gowalla_privic("sf")
N_sf = ibu.sf_ibu_grid().histogram(sf.lat.to_numpy(), sf.lon.to_numpy())
theta_sf = N_sf / N_sf.sum()
q_inf = theta_sf @ M_sf  # the reports' distribution with infinite data
starts = np.vstack([np.full(25, 0.04), rng_for(SEED, "fig6").dirichlet(np.ones(25), 2)])
fp6 = est.ibu(M_sf, np.tile(q_inf, (3, 1)), theta0=starts, criterion="gap", tol=1e-10,
              accelerate="squarem", max_iter=10**6)
D_sf = datasets.lattice_distance_matrix(5, 5, 1.0)
emd_theta = [measures.emd(m, theta_sf, D_sf) for m in fp6.estimate]
a, b, c = fp6.estimate
emd_pair = [measures.emd(u, v, D_sf) for u, v in ((a, b), (a, c), (b, c))]
report.holds("T16.1", rows=M_sf.shape[0], cols=M_sf.shape[1],
             rank=np.linalg.matrix_rank(M_sf))
report.holds("T16.2", max_fit=np.abs(fp6.estimate @ M_sf - q_inf).sum(axis=1).max(),
             max_gap=fp6.gap.max(), min_pair=min(emd_pair), min_to_theta=min(emd_theta))

# %% tags=["hide-input", "remove-output"]
fig = figures.fig6(theta_sf, fp6.estimate, np.array(emd_theta), (5, 5))
glue("ibu-fig6", fig)
report.text(sf_n=f"{int(N_sf.sum()):,}")

# %% [markdown]
# ```{glue:figure} ibu-fig6
# :name: fig-ibu-6
# :alt: Four 5 by 5 heat maps: the original distribution of check-ins and three different maximum-likelihood estimates, each with its distance to the original.
#
# (Paper Fig. 6.) (a) The distribution of {glue:text}`ibu-sf_n` Gowalla check-ins on $5 \times 5$
# cells of 1 km in San Francisco; (b-d) three MLEs for the same infinite data under the $25 \times 16$
# mechanism, from the uniform start and two random ones (each certified within $10^{-10}$).
# ```
#
# ## Experiments on real data (Sec. 7)
#
# **Data.** The ages of the Adult data set {cite}`kohavi1996adult`, $\mathcal X = \{0, \dots, 99\}$,
# and the Gowalla check-ins {cite}`cho2011friendship` in the paper's Manhattan box (latitudes 40.7044-40.7942, longitudes -74.0205 to
# -73.9374) on a grid of $20 \times 14$ cells of 0.5 km ({numref}`fig-ibu-7`).

# %%
ages = datasets.adult_ages()
N_age = np.bincount(ages, minlength=100)
gw = datasets.load_gowalla_nyc(datasets.MANHATTAN_BOX)
N_loc = grid.histogram(gw.lat.to_numpy(), gw.lon.to_numpy()).astype(np.int64)
theta_age, theta_loc = N_age / N_age.sum(), N_loc / N_loc.sum()
report.close("D1", len(ages))
report.close("D2", int(N_loc.sum()))
report.close("D3", [grid.k, N_age.size])
north_south = datasets.haversine_km(40.7044, -74.0205, 40.7942, -74.0205)
report.close("R7.2a", [north_south, grid.cols * grid.cell_size_km()[1]])
report.close("R7.2b", list(grid.cell_size_km()))

# %% [markdown]
# Our copy of the check-ins holds one more than the paper's 98,060. Whether the box is closed or
# open makes no difference (no check-in lies on an edge), and dropping the
# {glue:text}`ibu-dups` exact duplicates gives {glue:text}`ibu-nodup`: the difference is a copy
# difference of unknown origin, one check-in in $10^5$.

# %%
everything = datasets.load_gowalla_nyc()
lat, lon = everything.lat.to_numpy(), everything.lon.to_numpy()
la0, la1, lo0, lo1 = datasets.MANHATTAN_BOX
closed = (lat >= la0) & (lat <= la1) & (lon >= lo0) & (lon <= lo1)
open_box = (lat > la0) & (lat < la1) & (lon > lo0) & (lon < lo1)
report.close("D2b", int(closed.sum() - open_box.sum()))

# %% tags=["hide-input", "remove-output"]
dups = int(gw.duplicated().sum())
report.text(dups=dups, nodup=f"{len(gw) - dups:,}", n_loc=f"{N_loc.sum():,}")
glue("ibu-fig7", figures.fig7(grid.to_image(N_loc)))

# %% [markdown]
# ```{glue:figure} ibu-fig7
# :name: fig-ibu-7
# :alt: Heat map of check-in counts on a 20 by 14 grid over Manhattan, dense in the south and along the middle, with grey empty cells.
#
# (Paper Fig. 7.) The {glue:text}`ibu-n_loc` Gowalla check-ins of the Manhattan box on $20 \times 14$
# cells of 0.5 km (log scale).
# ```
#
# **Protocol.** One run obfuscates the whole data set with exact count-level sampling (one
# multinomial per input value, equal in law to obfuscating every user), estimates $\theta$ by IBU
# (the paper's rule), INV-N and INV-P ($v = qM^{-1}$ clipped and renormalised, or projected on the
# simplex {cite}`wang2013projection`), and scores each estimate by the earth mover's distance (EMD)
# to $\theta$, the least cost of moving one distribution onto the other: in years on the line (the
# $L_1$ distance of the cumulative distributions), in km by exact optimal transport on the grid.
# Beside the paper's rule we compute the MLE exactly and certify it (Sec. 3): on every run of the
# ages (Figs. 9 and 10(a)) and of Fig. 12; on the 280 cells of the locations, where a run costs
# more, on every run of each $\varepsilon_g$ of the lower half of the grid in Fig. 9 (where its
# claims are graded) and on the first {glue:text}`ibu-mle10_runs` runs of Fig. 10(b).
# Figs. 9, 10 and 12 run the paper's {glue:text}`ibu-runs` runs per privacy level, except where a
# row needed more runs to be decided ({glue:text}`ibu-decide`; see the end of the chapter); Figs. 1
# and 8, which the paper shows for one run, are drawn from the runs of Fig. 9 at the same setting,
# and their printed numbers are compared with the distribution of our runs.

# %%
PANELS9 = {"a": ("geometric", False), "b": ("geometric", True),  # (mechanism, planar)
           "c": ("laplace", False), "d": ("laplace", True),
           "e": ("exponential", False), "f": ("exponential", True)}
emd_km = ibu.location_metric(D_loc)  # EMD by optimal transport on the km between cells
TRUTH = {False: (theta_age, D_age), True: (theta_loc, D_loc)}
reps_of = lambda panel: S["decide"].get(panel, S["reps"])  # noqa: E731


def trials(planar, panel):
    """The runs of one panel on the ages or the cells, under the paper's rule."""
    N, metric = (N_loc, emd_km) if planar else (N_age, measures.emd_1d_rows)
    return ibu.Trials(N, reps_of(panel), metric, TOL, MAX_ITER)


def exact_mle(M, counts, planar):
    """The certified MLE of each run (row of `counts`): EMD, gap, certified bound."""
    metric = emd_km if planar else measures.emd_1d_rows
    return ibu.mle_runs(M, counts, *TRUTH[planar], metric=metric)


fig9 = {}
for lab, (kind, planar) in PANELS9.items():
    eps = S["eps_loc"] if planar else S["eps_age"]
    panel = [MECHS[kind, e, planar] for e in eps]  # mechanism objects, one per εg
    results = sweep(trials(planar, f"9{lab}"), panel, seed=seed_for(SEED, f"fig9{lab}"))
    fig9[lab] = {r["eps"]: r for r in results}
    for e, r in fig9[lab].items():  # locations: the lower half of the grid (book: time)
        if not planar or S["mle_all"] or e <= np.median(eps):
            r.update(exact_mle(CHANNELS[kind, e, planar], r["counts"], planar))
report.timing("Fig. 9 (CPU s)", time.process_time() - CPU)

# %% [markdown]
# ### Fig. 1: the ages under the geometric mechanism, $\varepsilon_g = 0.05$ (Sec. 7.1)
#
# "Clearly IBU outperforms the other two methods in approximating the real distribution. Note also
# that the distribution estimated by INV-P is slightly closer to the true distribution than the one
# produced by INV-N." The paper shows one run. {numref}`fig-ibu-1` draws the *representative* run of
# our {glue:text}`ibu-runs` runs (the one whose three EMDs are all nearest their medians: run
# {glue:text}`ibu-fig1_run`) and the spread of all of them. We grade the first sentence on these runs
# and the second on {glue:text}`ibu-inv_runs` runs of INV alone, paired (INV-N and INV-P on the same
# reports).

# %%
f1 = fig9["a"][0.05]
best_inv = np.minimum(f1["INV-N"], f1["INV-P"])  # per run: the better INV
report.order("F1.1", {"IBU": np.median(f1["IBU"]), "INV": np.median(best_inv)},
             differences={"INV - IBU": stats.median(best_inv - f1["IBU"])})
M_g05 = mech.geometric_channel(100, 0.05)
inv1 = ibu.estimation_trials(M_g05, N_age, S["inv_runs"], metric=measures.emd_1d_rows,
                             with_ibu=False, rng=rng_for(SEED, "F1.2"))
N1, P1 = inv1["INV-N"], inv1["INV-P"]
f12 = stats.median(N1 - P1)  # INV-P's lead per run, order-statistic interval
report.order("F1.2", {"INV-P": np.median(P1), "INV-N": np.median(N1)},
             differences={"INV-N - INV-P": f12})
rng = rng_for(SEED, "F1/boot")
report.range("F1.2s", scoring.boot(scoring.ratio, np.c_[N1 - P1, N1], rng=rng))
X1 = np.c_[f1["noisy"], f1["IBU"], f1["INV-N"], f1["INV-P"]]
f13 = scoring.boot(scoring.against_noisy, X1, simultaneous=True, rng=rng)
report.range("F1.3", f13)  # noisy/IBU, INV-N/noisy, INV-P/noisy

# %% tags=["hide-input", "remove-output"]
run1 = scoring.representative_run(np.c_[f1["INV-N"], f1["INV-P"], f1["IBU"]])
est1 = ibu.run_estimates(M_g05, f1["counts"][run1], tol=TOL, max_iter=MAX_ITER)
fig = figures.fig1(x100, theta_age, est1.pop("noisy"), est1, f1, run1)
glue("ibu-fig1", fig)
low = fig9["a"][S["eps_age"][0]]
med1 = {m: np.median(f1[m]) for m in ("noisy", "IBU", "INV-N", "INV-P")}
report.text(invp_001=f"{100 * np.mean(low['INV-P'] < low['INV-N']):.0f}",
            f1_noisy=f"{med1['noisy']:.2f}",
            **{f"f1_{m[-1].lower()}": f"{100 * med1[m] / med1['noisy']:.0f}"
               for m in ("IBU", "INV-N", "INV-P")})
report.text(fig1_run=run1, f12_median=f"{f12.value:.2f}", f12_lo=f"{f12.low:.2f}",
            f12_hi=f"{f12.high:.2f}", f12_frac=f"{100 * np.mean(P1 < N1):.0f}",
            f12_rel=f"{100 * f12.value / np.median(N1):.0f}")

# %% [markdown]
# ```{glue:figure} ibu-fig1
# :name: fig-ibu-1
# :alt: Three panels of the age distribution with the noisy reports and one estimate each; INV-N and INV-P oscillate around the truth with spikes, IBU follows it closely. A fourth panel shows boxplots of the EMDs of all runs with the drawn run marked.
#
# (Paper Fig. 1.) The ages (black) under the truncated geometric mechanism, $\varepsilon_g = 0.05$
# per year: the noisy reports and the estimates by (a) INV-N, (b) INV-P and (c\) IBU for run
# {glue:text}`ibu-fig1_run`, the representative one of {glue:text}`ibu-runs` runs; (d) the EMDs (years)
# of all runs, the drawn run marked.
# ```
#
# The paper's first description of Fig. 1 (Sec. 1) is absolute: "the INV methods perform rather
# poorly, while IBU's estimate is quite precise". Against the raw noisy histogram, which needs no
# estimator (median EMD {glue:text}`ibu-f1_noisy` years), the median EMD of INV-N is
# {glue:text}`ibu-f1_n`% of it, that of INV-P {glue:text}`ibu-f1_p`% and that of IBU
# {glue:text}`ibu-f1_u`% (row F1.3).
#
# INV-P is better than INV-N by a median of {glue:text}`ibu-f12_median` years per run (95% interval
# [{glue:text}`ibu-f12_lo`, {glue:text}`ibu-f12_hi`]), {glue:text}`ibu-f12_rel`% of INV-N's median
# error: "slightly" is fair. But it is better in only {glue:text}`ibu-f12_frac`% of the runs, so a
# single run, as in the paper or in the first edition of this chapter, shows the opposite about one
# time in four. The ordering depends on the noise: at $\varepsilon_g = 0.01$ INV-P is the better of
# the two in {glue:text}`ibu-invp_001`% of the runs of Fig. 9(a) below.
#
# ### Fig. 8: Manhattan under the planar geometric mechanism, $\varepsilon_g = 1$/km (Sec. 7.2)
#
# The paper prints the EMDs of one run: noisy 0.7658, INV-P 0.5862, INV-N 0.7832, IBU 0.16995 km.
# The first edition of this chapter found INV 14-20% below these values in its own single run. A
# single run is not a measurement of a distribution, so we place the paper's values in the
# distribution of {glue:text}`ibu-inv_runs` runs of ours (INV only; IBU on the
# {glue:text}`ibu-runs` runs of Fig. 9(b) at $\varepsilon_g = 1$ and on the reports of the first INV
# runs, {glue:text}`ibu-f8_ibu_runs` in all): a printed value "reproduces" if the proportion of our
# runs below it lies between 0.025 and 0.975, our central 95%. That proportion is itself estimated,
# so each row is decided on its 95% Wilson interval: inside $[0.025, 0.975]$ it holds, outside it is
# reversed, across an edge it is undecided.

# %%
M_pg1 = mech.planar_geometric_channel(20, 14, 1.0, cell_size=0.5)
inv8 = ibu.estimation_trials(M_pg1, N_loc, S["inv_runs"], metric=emd_km, with_ibu=False,
                             rng=rng_for(SEED, "fig8/inv"))
f8 = fig9["b"][1.0]
more8 = est.ibu(M_pg1, inv8["counts"][: S["f8_ibu"]], tol=TOL, max_iter=MAX_ITER)
runs8 = {m: inv8[m] for m in ("noisy", "INV-N", "INV-P")} | {  # IBU: Fig. 9(b) and more
    "IBU": np.r_[f8["IBU"], emd_km(more8.estimate, theta_loc)]}
rows8 = {"F8.1": "noisy", "F8.2": "INV-N", "F8.3": "INV-P", "F8.4": "IBU"}
paper8 = {m: CLAIMS[rid].paper.value for rid, m in rows8.items()}
report.record({rid: stats.proportion(np.sum(runs8[m] < paper8[m]), runs8[m].size)
               for rid, m in rows8.items()})  # our runs below the printed value, Wilson

# %% [markdown]
# IBU's EMD depends on where it stops, and the paper's threshold is not printed. We rerun the paper's
# rule on the same reports for thresholds from $10^{-5}$ to $10^{-9}$ on $\ell$ (one pass: each
# threshold continues from the previous one) and certify the MLE ({numref}`fig-ibu-stopping`).
# Continuing from the previous threshold's estimate gives the iterates of one run of the rule, so the
# thresholds together cost what the smallest costs alone.

# %%
tols8 = np.array(S["tols_f8"])
sweep8 = ibu.threshold_sweep(M_pg1, f8["counts"][: S["f8_thr"]], tols8)
thr_emd = np.stack([emd_km(E, theta_loc) for E in sweep8["estimates"]])  # (δ, runs)
lead = {"INV-P - IBU": f8["INV-P"] - f8["IBU"],  # per run, on the same reports
        "INV-N - INV-P": f8["INV-N"] - f8["INV-P"]}
report.order("F8.5", {m: np.median(f8[m]) for m in ("IBU", "INV-P", "INV-N")},
             differences={k: stats.median(d, level=0.975) for k, d in lead.items()})

# %% tags=["hide-input", "remove-output"]
run8 = scoring.representative_run(np.c_[
    f8["noisy"], f8["INV-N"], f8["INV-P"], f8["IBU"]])
est8 = ibu.run_estimates(M_pg1, f8["counts"][run8], tol=TOL, max_iter=MAX_ITER)
images = {k: grid.to_image(v) for k, v in {"original": theta_loc, **est8}.items()}
emds8 = {k: f8[k][run8] for k in est8}
glue("ibu-fig8", figures.fig8(images, emds8, runs8, paper8))
glue("ibu-fig8-table", tables.percentiles(runs8, paper8), display=False)
stats8 = scoring.single_run_stats({m: inv8[m] for m in ("noisy", "INV-N", "INV-P")},
                                  paper8)
report.text(**{f"f8_{k}": f"{v:.{2 if k == 'corr' else 1}f}"
               for k, v in stats8.items()})
thr_med = np.median(thr_emd, axis=1)
below8 = {m: int(np.sum(runs8[m] < paper8[m])) for m in paper8}
pct8 = {m: stats.proportion(below8[m], runs8[m].size) for m in paper8}  # Wilson
ci8 = {m.lower().replace("-", ""): f"{100 * e.low:.1f}-{100 * e.high:.1f}"
       for m, e in pct8.items()}
report.text(f8_ibu_below=below8["IBU"], **{f"f8_ci_{m}": v for m, v in ci8.items()})
high = {m: 100 * (paper8[m] / np.median(inv8[m]) - 1) for m in ("INV-N", "INV-P")}
report.text(fig8_run=run8, fig8_thr_runs=S["f8_thr"],
            fig8_thr_lo=f"{thr_med.min():.3f}", fig8_thr_hi=f"{thr_med.max():.3f}",
            f8_high_n=f"{high['INV-N']:.0f}",
            f8_high_p=f"{high['INV-P']:.0f}")

# %% [markdown]
# ```{glue:figure} ibu-fig8
# :name: fig-ibu-8
# :alt: Five heat maps of Manhattan: the original check-ins, the blurred noisy reports, the INV-P and INV-N estimates with scattered speckles, and the IBU estimate close to the original. A sixth panel shows violins of our single-run EMDs with their central 95% ranges and stars for the paper's values.
#
# (Paper Fig. 8.) (a) The original distribution, (b) the noisy reports and the estimates by (c\) INV-P,
# (d) INV-N and (e) IBU (the paper's rule) for run {glue:text}`ibu-fig8_run`, the representative one of
# {glue:text}`ibu-runs` runs; truncated planar geometric mechanism, $\varepsilon_g = 1$/km.
# (f) Our single-run EMDs ({glue:text}`ibu-inv_runs` runs for noisy and INV,
# {glue:text}`ibu-f8_ibu_runs` for IBU), their central 95% ranges and the paper's printed values
# (stars). The table gives the proportion of our runs below each printed value (as a percentile)
# with its 95% Wilson interval.
# ```
#
# ```{glue:} ibu-fig8-table
# ```
#
# The noisy EMD, which does not depend on any estimator, lands where the paper's does (the paper's
# value is at our {glue:text}`ibu-f8_pct_noisy`th percentile): the mechanism, its truncation and the data
# agree. The INV values spread far more from run to run (standard deviations of
# {glue:text}`ibu-f8_sd_invn`% and {glue:text}`ibu-f8_sd_invp`% of the median, against
# {glue:text}`ibu-f8_sd_noisy`% for the noisy EMD), and the paper's run sits high in both: INV-P at our
# {glue:text}`ibu-f8_pct_invp`th percentile, inside the 95% range; INV-N at the
# {glue:text}`ibu-f8_pct_invn`th, above it. Such a run of INV-N is *worse than the noisy data it was
# computed from*, which happens in {glue:text}`ibu-f8_worse`% of our runs. Against our medians
# the paper's single values are {glue:text}`ibu-f8_high_n`% (INV-N) and
# {glue:text}`ibu-f8_high_p`% (INV-P) higher, and only INV-N is outside our 95% range (row F8.2).
# The margin is small, so it is decided with its uncertainty: the proportion of our
# {glue:text}`ibu-inv_runs` runs below the printed INV-N value has the 95% Wilson interval
# {glue:text}`ibu-f8_ci_invn`%, wholly above 97.5% (the first editions compared the printed value
# with a sample 97.5th percentile and ruled with no allowance for its error; the row's decision log
# shows that rule). The two INV errors are correlated (correlation
# {glue:text}`ibu-f8_corr`), and a run at least as bad as the paper's for both occurs
# {glue:text}`ibu-f8_both`% of the time: the paper's run may be such a high draw, or its INV pipeline
# may differ from ours in a way the noisy EMD does not see; one run cannot tell. Could another
# reading of the setting explain the offset? We compute two: the kernel restricted to the grid and
# renormalised instead of clamped to its border, and the planar Laplace mechanism instead of the
# geometric one ({glue:text}`ibu-alt_runs` runs each, row F8.7). (Dropping the {glue:text}`ibu-dups`
# exact duplicate check-ins, or the one check-in our copy has in excess, changes $\theta$ by
# $3 \cdot 10^{-5}$ in total variation: nothing measurable.)

# %%
alt_channels = {
    "renormalised kernel": ibu.renormalised_planar_geometric_channel(20, 14, 1.0, 0.5),
    "planar Laplace": mech.planar_laplace_channel(20, 14, 1.0, cell_size=0.5)}
alt8 = {"ours (clamped geometric)": inv8} | {
    name: ibu.estimation_trials(M, N_loc, S["alt_runs"], metric=emd_km, with_ibu=False,
                                rng=rng_for(SEED, f"fig8/{name}"))
    for name, M in alt_channels.items()}
noisy8 = [r["noisy"] for r in alt8.values()]  # how much further from 0.7658 than ours:
report.range("F8.7", scoring.offsets(noisy8[0], noisy8[1:], paper8["noisy"],
                                     rng=rng_for(SEED, "F8.7")))

# %% tags=["hide-input", "remove-output"]
paper_inv = {m: paper8[m] for m in ("noisy", "INV-N", "INV-P")}
glue("ibu-fig8-readings", tables.readings(alt8, paper_inv), display=False)
for tag, name in (("ren", "renormalised kernel"), ("lap", "planar Laplace")):
    report.text(**{f"f8_{tag}_{m.lower().replace('-', '')}":
            f"{100 * np.mean(alt8[name][m] < v):.1f}" for m, v in paper_inv.items()})
report.text(f8_tail_n=f"{100 - stats8['pct_invn']:.1f}")
report.text(alt_runs=S["alt_runs"])

# %% [markdown]
# Our median single-run EMD and the percentile of the paper's printed value among our runs, under
# each reading (ours: {glue:text}`ibu-inv_runs` runs):
#
# ```{glue:} ibu-fig8-readings
# ```
#
# Neither reading fits better (row F8.7). The renormalised kernel moves less mass to the border
# cells and puts the printed values at its {glue:text}`ibu-f8_ren_noisy`th (noisy),
# {glue:text}`ibu-f8_ren_invn`th (INV-N) and {glue:text}`ibu-f8_ren_invp`th (INV-P) percentiles. The
# planar Laplace
# mechanism would place the paper's INV-N value at our {glue:text}`ibu-f8_lap_invn`th percentile,
# but it puts the printed noisy EMD, which depends on the mechanism and the data only and varies by
# less than 1% from run to run, at the {glue:text}`ibu-f8_lap_noisy`th percentile, and INV-P's at the
# {glue:text}`ibu-f8_lap_invp`th. The clamped geometric mechanism is the reading the noisy EMD pins,
# and under it {glue:text}`ibu-f8_tail_n`% of our runs of INV-N are worse than the paper's.
#
# IBU's EMD is a different story: at our threshold ($10^{-8}$ on $\ell$) IBU fits more noise than the
# paper's run: {glue:text}`ibu-f8_ibu_below` of our {glue:text}`ibu-f8_ibu_runs` runs are below the
# printed 0.16995 km (95% Wilson interval of the proportion {glue:text}`ibu-f8_ci_ibu`%; row F8.4).
# Over thresholds from $10^{-5}$ to $10^{-9}$ the median EMD moves between
# {glue:text}`ibu-fig8_thr_lo` and {glue:text}`ibu-fig8_thr_hi` km
# ({glue:text}`ibu-fig8_thr_runs` runs), a range that contains the paper's value: the unprinted
# threshold can explain the offset, which we describe rather than test (the first editions graded
# this span, which could hardly miss). The certified MLE is further still
# ({numref}`fig-ibu-stopping`, left). IBU beats
# both INV variants and INV-P beats INV-N in the paired comparison of our runs (row F8.5), as the
# paper says.
#
# ### Fig. 9: the geo-indistinguishable mechanisms (Sec. 7.3)
#
# The paper reruns Secs. 7.1 and 7.2 with the geometric, Laplace and exponential mechanisms over
# $\varepsilon_g$ from 0.01 to 0.3 per year and from 0.2 to 6 per km, 100 runs each, and finds that
# "the estimation quality of all methods improves with larger values of $\varepsilon_g$" and that
# "IBU outperforms INV-N and INV-P, especially when $\varepsilon_g$ is small" (the abstract:
# "significantly"). The paper does not print its grids; ours has eight values on each range. We
# grade each panel on the medians: IBU below the better INV at every $\varepsilon_g$ of the lower half
# (F9·.1), by a factor of at least 2 at the smallest (F9·.2), never more than 10% above it (F9·.3),
# "especially when $\varepsilon_g$ is small" (F9·.4: on the locations the three within 20% of each
# other at 6 per km; on the ages, whose range stops before they meet, the factor at 0.3 per year at
# most 3/4 of the factor at 0.01), and no median rising by 10% or more from one $\varepsilon_g$ to
# the next (F9·.5); then the first two for the MLE (F9M·, our extension: the paper never runs IBU to
# its maximum). Each statistic is a function of medians over 100 runs, so each comes with its
# uncertainty: a 95% BCa bootstrap interval that resamples the runs (the estimators of a setting
# score the same reports, so they are resampled together), simultaneous over the $\varepsilon_g$
# where the claim is "at every" one. A row *holds* when its interval lies inside the claim's region,
# is *reversed* when it lies outside, and is *undecided* otherwise, never a pass.

# %%
for lab, res in fig9.items():  # every row of a panel, IBU's and the MLE's
    rng = rng_for(SEED, f"fig9{lab}/boot")
    report.record(scoring.fig9_numbers(res, lab, rng=rng)
                  | scoring.fig9_numbers(res, lab, mle=True, rng=rng))

# %% tags=["hide-input", "remove-output"]
def boxes(res):
    """The distances drawn in a boxplot panel, by ε and estimator."""
    names = ("IBU", "MLE", "INV-N", "INV-P")
    return {e: {m: r[m] for m in names if m in r} for e, r in res.items()}


fig = figures.fig9({lab: boxes(res) for lab, res in fig9.items()})
glue("ibu-fig9", fig)
summary9 = {lab: scoring.panel_medians(res) for lab, res in fig9.items()}
glue("ibu-gains", tables.stopping(fig9, summary9), display=False)
glue("ibu-gains-ages", tables.gains(summary9, "ace"), display=False)

# %% [markdown]
# ```{glue:figure} ibu-fig9
# :name: fig-ibu-9
# :alt: Six boxplot panels of EMD on a log axis against epsilon_g, each median also drawn as a coloured dot. In every panel IBU's boxes lie well below INV-N and INV-P at small epsilon_g; on the locations the three meet at 6 per km; the hatched MLE boxes lie between IBU and INV at the smallest epsilon_g.
#
# (Paper Fig. 9.) EMD between the original and the estimated distributions against $\varepsilon_g$,
# {glue:text}`ibu-runs` runs per $\varepsilon_g$ ({glue:text}`ibu-runs_9c` in (c)): IBU (the paper's
# rule), the certified MLE (hatched;
# every run of the ages and of the lower half of the location grids), INV-N and INV-P; ages on the
# left (years), Manhattan on the right (km); (a, b) geometric, (c, d) Laplace, (e, f) exponential
# mechanisms. Dots: the medians; black bars: their 95% intervals (order statistics,
# distribution-free).
# ```
#
# Under its stopping rule the paper's claims hold in all six panels but one. On the ages the factor
# by which IBU beats the better INV peaks at 0.02-0.05 per year and falls beyond; at 0.01, where
# the paper's rule stops earliest (below), it is lower than at the peak, and under the exponential
# mechanism lower than at 0.3 per year. Read between the ends of the paper's range, "especially when
# $\varepsilon_g$ is small" holds for the geometric and Laplace mechanisms (rows F9a.4, F9c.4) but
# not for the exponential one (row F9e.4 diverges):
#
# ```{glue:} ibu-gains-ages
# ```
#
# The MLE tells a more nuanced story. The table gives, at the smallest $\varepsilon_g$ of each panel, the ratio of the better INV
# median to IBU's under the paper's rule and at the MLE, the median number of updates the rule took,
# and the certified gap where it stopped:
#
# ```{glue:} ibu-gains
# ```
#
# **The stopping rule shapes Fig. 9.** Under the strongest noise the likelihood is flat: $\ell$
# changes by less than $10^{-8}$ per step long before the maximum, and the rule stops *earlier* than
# at moderate noise (row ST.1: {glue:text}`ibu-it001` updates at $\varepsilon_g = 0.01$ against
# {glue:text}`ibu-it015` at 0.15 in Fig. 9(a)). There the iterate is still close to the smooth uniform
# start: the certified gap is about $10^{-4}$ nats per report (a few nats on $L$), and in parameter
# space the stop is far from the MLE, whose EMD is larger ({glue:text}`ibu-stop001` years at the stop
# against {glue:text}`ibu-mle001` at the MLE; row ST.2). Early stopping acts as a regulariser. On
# the ages the MLE still beats INV by a factor above 2 at the smallest $\varepsilon_g$; on the
# locations it does not: rows F9Mb.2, F9Md.2 and F9Mf.2 (our extension) apply the paper's factor 2
# to the MLE, and the ratios' 95% intervals lie below it. Part of the "significant" advantage
# the paper reports there is the regularisation of an early stop, not maximum likelihood. Everywhere
# in the lower half of the grids the MLE still beats INV (F9M·.1).
#
# **How far from the MLE is a certificate on $\ell$?** In the two flattest settings (Fig. 9(a) at
# $\varepsilon_g = 0.01$, Fig. 9(b) at 0.2/km) we stop EM, accelerated by SQUAREM, at certified gaps
# of $10^{-6}$ (the first editions' "MLE"), $10^{-8}$ and $10^{-10}$, and bound each point's EMD to the
# exact MLE by {eq}`eq-ibu-distance` (the first {glue:text}`ibu-xcheck_runs` runs of each):
#
# ```{glue:} ibu-certification
# ```
#
# A gap of $10^{-6}$ certifies nothing about the estimate: {eq}`eq-ibu-distance` allows an EMD of
# order $10^2$ years or km, and on all the runs whose MLE Fig. 9 draws at these settings the median
# EMD of such points is {glue:text}`ibu-x6_a`% (ages) and {glue:text}`ibu-x6_b`% (locations) below
# the exact MLE's: the first editions' MLE rows were biased in one direction. At $10^{-10}$ EM lands
# within a relative EMD of {glue:text}`ibu-x_between` of the interior-point MLE (row MLEx), but only
# the interior-point MLE, at $g \approx 10^{-14}$, is certified to a fraction of a per cent: in
# every setting where we compute it, its certified bound is at most {glue:text}`ibu-cert_rel`% of the
# median EMD (row CERT). The MLE rows (F9M·, ST.2, T19M) use it.

# %%
xcheck, low6 = {}, []
for name, (lab, e) in {"9(a) ages, εg = 0.01": ("a", 0.01),
                       "9(b) Manhattan, 0.2/km": ("b", 0.2)}.items():
    planar, r = lab == "b", fig9[lab][e]
    M, C = CHANNELS["geometric", e, planar], r["counts"][: S["x6"]]
    metric = emd_km if planar else measures.emd_1d_rows
    em6 = est.ibu(M, C, criterion="gap", tol=1e-6, accelerate="squarem", max_iter=10**6)
    low6.append(100 * (1 - np.median(metric(em6.estimate, TRUTH[planar][0]))
                       / np.median(r["MLE"][: S["x6"]])))  # the first editions' "MLE"
    C = C[: S["xcheck"][planar]]
    xcheck[name] = ibu.mle_cross_check(M, C, *TRUTH[planar], metric=metric)
report.holds("MLEx", violations=sum(c["violations"] for c in xcheck.values()),
             max_rel=max((c["between"] / c["emd_mle"]).max() for c in xcheck.values()),
             runs=sum(c["between"].size for c in xcheck.values()))

# %% tags=["hide-input", "remove-output"]
glue("ibu-certification", tables.certification(xcheck, [1e-6, 1e-8, 1e-10]),
     display=False)
between = max((c["between"] / c["emd_mle"]).max() for c in xcheck.values())
report.text(x6_a=f"{low6[0]:.1f}", x6_b=f"{low6[1]:.1f}", x_between=f"{between:.0e}",
            xcheck_runs=" and ".join(map(str, S["xcheck"])), x6_runs=S["x6"])

# %%
updates = {e: stats.median(fig9["a"][e]["n_iter"]) for e in (0.01, 0.15)}
report.order("ST.1", {"iter_001": updates[0.01], "iter_015": updates[0.15]})
n = min(fig9[lab][0.01]["MLE"].size for lab in "ace")  # the runs every panel has
X = np.stack([scoring.stack(fig9[lab], ("IBU", "MLE"), eps=[0.01], runs=n)[:, 0]
              for lab in "ace"], axis=1)  # (runs, panel, [stop, MLE])
gap = scoring.boot(scoring.difference, X, simultaneous=True, rng=rng_for(SEED, "ST.2"))
report.order("ST.2", {"stop": np.median(X[..., 0], 0), "MLE": np.median(X[..., 1], 0)},
             differences={"MLE - stop": gap})

# %% tags=["hide-input", "remove-output"]
worse = max(s["med"]["MLE"][0] / s["med"]["IBU"][0] for s in summary9.values())
report.text(it001=f"{updates[0.01].value:,.0f}", it015=f"{updates[0.15].value:,.0f}",
            mle_worse=f"{worse:.1f}", stop001=f"{summary9['a']['med']['IBU'][0]:.2f}",
            mle001=f"{summary9['a']['med']['MLE'][0]:.2f}")

# %% [markdown]
# ### Figs. 10-12: the LDP mechanisms $k$-RR and Rappor (Secs. 7.4, 7.5)
#
# Under $k$-RR on the same data, $\varepsilon$ from 0.5 to 5, the paper observes that "the
# differences in the performance of estimators are not substantial" (Fig. 10). For basic Rappor it
# uses synthetic data: $\mathcal X = \{0, \dots, 9\}$, $10^5$ inputs drawn (in each run) from a
# binomial with $p = 0.5$ or uniformly from $\{3, 4, 5, 6\}$; IBU runs on the $2^{10}$ bit patterns,
# INV-N and INV-P on Rappor's per-bit estimator $v_y = (c_y/n - (1 - p))/(2p - 1)$
# {cite}`kairouz2016discrete`. Fig. 11 shows IBU's estimate for one run at $\varepsilon = 0.5$; Fig. 12
# finds that "INV-N, INV-P, and IBU exhibit almost the same estimation quality". We read
# "comparable", "not substantial" and "almost the same" with one relative criterion that can fail at
# every $\varepsilon$: the largest of the three median EMDs is at most 1.5 times the smallest.

# %%
uniform36 = np.where((X10 >= 3) & (X10 <= 6), 0.25, 0.0)
RAPPOR = {"a": ("binomial", theta_bin), "b": ("uniform", uniform36)}
fig10, fig12 = {}, {}
for lab, planar in (("a", False), ("b", True)):
    k = N_loc.size if planar else N_age.size
    panel = [mech.GRR(k, float(e)) for e in S["eps_ldp"]]  # k-RR
    trials10 = trials(planar, f"10{lab}")
    results = sweep(trials10, panel, seed=seed_for(SEED, f"fig10{lab}"))
    fig10[lab] = {r["eps"]: r for r in results}
    for e, r in fig10[lab].items():  # locations: the first runs (book: time)
        C = r["counts"][: S["mle10"]] if planar else r["counts"]
        r.update(exact_mle(mech.grr_channel(k, e), C, planar))
D10 = np.abs(np.subtract.outer(X10, X10)).astype(float)
for lab, (_, theta) in RAPPOR.items():
    panel = [mech.SUE(10, float(e)) for e in S["eps_ldp"]]  # basic Rappor
    trials12 = ibu.RapporTrials(theta, 100_000, reps_of(f"12{lab}"), TOL, MAX_ITER)
    results = sweep(trials12, panel, seed=seed_for(SEED, f"fig12{lab}"))
    fig12[lab] = {r["eps"]: r for r in results}
    for e, r in fig12[lab].items():  # EMD to each run's input histogram
        r.update(ibu.mle_runs(mech.rappor_channel(10, e), r["counts"],
                              r["inputs"] / 1e5, D10, metric=measures.emd_1d_rows))

# %%
ldp_panels = {f"{fig}{lab}": res[lab] for fig, res in (("10", fig10), ("12", fig12))
              for lab in "ab"}
ldp = {name: scoring.ldp_numbers(res, name, rng=rng_for(SEED, f"fig{name}/boot"))
       for name, res in ldp_panels.items()}  # max/min of the medians; steps along ε
for numbers in ldp.values():
    report.record(numbers)

# %% tags=["hide-input", "remove-output"]
glue("ibu-fig10", figures.fig10(boxes(fig10["a"]), boxes(fig10["b"])))
glue("ibu-fig12", figures.fig12(boxes(fig12["a"]), boxes(fig12["b"])))
spreads = {n: (sorted(res), ldp[n][f"F{n}.1"]) for n, res in ldp_panels.items()}
glue("ibu-ldp-ratios", tables.ratios(spreads), display=False)
med = {n: scoring.panel_medians(ldp_panels[n])["med"] for n in ("12a", "12b")}
excess = {f"r{n}{m[-1].lower()}": np.max(med[n][m] / med[n]["IBU"])
          for n in med for m in ("INV-N", "INV-P")}
report.text(**{k: f"{v:.1f}" for k, v in excess.items()})
report.timing("Figs. 9-12 (CPU s)", time.process_time() - CPU)

# %% [markdown]
# ```{glue:figure} ibu-fig10
# :name: fig-ibu-10
# :alt: Two boxplot panels of EMD against epsilon from 0.5 to 5 under k-RR: the boxes of IBU, its MLE, INV-N and INV-P overlap at every epsilon and fall together.
#
# (Paper Fig. 10.) EMD against $\varepsilon$ under $k$-RR, {glue:text}`ibu-runs_10a` runs per
# $\varepsilon$ in (a), {glue:text}`ibu-runs` in (b):
# (a) ages ($k = 100$), (b) Manhattan ($k = 280$); IBU, the certified MLE (hatched; every run of (a),
# the first {glue:text}`ibu-mle10_runs` of (b)), INV-N, INV-P. Dots and black bars: the medians and
# their 95% order-statistic intervals.
# ```
#
# ```{glue:figure} ibu-fig12
# :name: fig-ibu-12
# :alt: Two boxplot panels of EMD against epsilon under Rappor; the boxes fall with epsilon; at large epsilon INV-N lies visibly above IBU, more so for the uniform inputs.
#
# (Paper Fig. 12.) EMD against $\varepsilon$ under basic Rappor, $n = 10^5$ inputs re-drawn in each of
# {glue:text}`ibu-runs_12` runs per $\varepsilon$: (a) Binomial(9, 1/2), (b) uniform on $\{3, 4, 5, 6\}$. Dots and black
# bars: the medians and their 95% order-statistic intervals.
# ```
#
# The largest over the three estimators of the median EMD divided by the smallest, at each
# $\varepsilon$, with its 95% BCa bootstrap interval (the runs resampled, simultaneous over the
# $\varepsilon$ of a panel):
#
# ```{glue:} ibu-ldp-ratios
# ```
#
# Under $k$-RR the three stay within the bound at every $\varepsilon$: the paper's "not
# substantial" holds. Under Rappor they do not as the noise weakens (the right half of the table,
# earlier for the uniform inputs than for the binomial ones): INV-N, which clips the many
# small negative per-bit estimates and renormalises, falls behind IBU by a factor up to
# {glue:text}`ibu-r12an` on the binomial and {glue:text}`ibu-r12bn` on the uniform inputs, whose six empty
# values are where clipping hurts most (rows F12a.1 and F12b.1 diverge). INV-P stays closer to IBU
# (factors up to {glue:text}`ibu-r12ap` and {glue:text}`ibu-r12bp`). The paper's qualitative point, that
# under randomised response the estimators are of the same order while under geo-indistinguishability
# INV is worse by large factors at strong noise (the table of Fig. 9), survives; "almost the same"
# does not at weak noise (the table above). Fig. 12 uses synthetic inputs, in the paper as
# here; the comparison with $k$-RR (Fig. 10) is on the real data.
#
# Why randomised response treats the estimators alike is the subject of the next section: its inverse
# matrix is small, so $v = qM^{-1}$ has a small variance, the clipping or projection of INV rarely
# moves it far, and the MLE, which lies near $v$ when $v$ is a distribution, is no better. Under the
# geometric mechanism the inverse amplifies the noise of $q$ by orders of magnitude, $v$ oscillates
# around $\theta$ with large negative entries, and the post-processing of INV cannot repair it.
#
# ### Fig. 11: IBU under Rappor, one run at $\varepsilon = 0.5$
#
# The paper shows IBU's estimates without a number. We grade them over {glue:text}`ibu-runs` runs: IBU
# should recover at least 90% of the distance between an uninformed guess (uniform on $\mathcal X$)
# and the binomial truth, and put almost no mass outside $\{3, \dots, 6\}$ for the uniform input.

# %%
f11 = {name: fig12[lab][0.5] for lab, (name, _) in RAPPOR.items()}
T = f11["binomial"]["inputs"] / 100_000  # each run's input histogram
guess = measures.emd_1d_rows(np.full_like(T, 0.1), T)  # the uniform guess, run by run
X11 = np.c_[f11["binomial"]["IBU"], guess]
report.range("F11a", scoring.boot(scoring.ratio, X11, rng=rng_for(SEED, "F11a")))
outside = f11["uniform"]["estimates"][:, uniform36 == 0].sum(axis=1)
report.range("F11b", stats.median(outside))

# %% tags=["hide-input", "remove-output"]
first = {name: r["inputs"][0] / r["inputs"][0].sum() for name, r in f11.items()}
est11 = {n: r["estimates"][0] for n, r in f11.items()}
glue("ibu-fig11", figures.fig11(first, est11, {n: r["IBU"][0] for n, r in f11.items()}))

# %% [markdown]
# ```{glue:figure} ibu-fig11
# :name: fig-ibu-11
# :alt: Two bar charts over the values 0 to 9 comparing the real distribution with IBU's estimate: close for the binomial, and almost zero outside 3 to 6 for the uniform case.
#
# (Paper Fig. 11.) IBU's estimate (the paper's rule) from basic Rappor, $\varepsilon = 0.5$,
# $n = 10^5$, first run of Fig. 12: (a) Binomial(9, 1/2), (b) uniform on $\{3, 4, 5, 6\}$.
# ```
#
# ### Why inversion fails under geo-indistinguishability (Sec. 7.6)
#
# The raw inversion $v = qM^{-1}$ is unbiased, and with
# $\operatorname{Cov}(q) = (\operatorname{diag}\pi - \pi^\top\pi)/n$, $\pi = \theta M$, its error is
# exactly
#
# ```{math}
# :label: eq-ibu-inv-error
#
# \mathbf E\|v - \theta\|_2^2 = \frac1n\Big(\sum_z \pi_z \|r_z\|^2 - \|\theta\|^2\Big),
#   \qquad r_z = \text{row } z \text{ of } M^{-1}.
# ```
#
# (The trace of $M^{-\top}\operatorname{Cov}(q)M^{-1}$: the diagonal part gives
# $\sum_z \pi_z\|r_z\|^2$, the rank-one part $\|\pi M^{-1}\|^2 = \|\theta\|^2$.) The $k$-RR matrix
# is $M = aI + b\mathbf 1\mathbf 1^\top$ with $a = (e^\varepsilon - 1)/(k - 1 + e^\varepsilon)$,
# $b = 1/(k - 1 + e^\varepsilon)$, so $M^{-1} = \frac1a\big(I - \frac{b}{a + kb}\mathbf 1\mathbf
# 1^\top\big)$ and every row has
# $\|r_z\|^2 = ((e^\varepsilon + k - 2)^2 + k - 1)/(e^\varepsilon - 1)^2$. The truncated geometric
# matrix factors as a Kac-Murdock-Szegő matrix times a diagonal, so its inverse is tridiagonal:
# interior rows $\beta^2(-\alpha, 1 + \alpha^2, -\alpha)$, end rows $\beta(1, -\alpha)$ with
# $\alpha = e^{-\varepsilon_g}$, $\beta = 1/(1-\alpha)$. Putting these rows in
# {eq}`eq-ibu-inv-error`:
#
# ```{prf:proposition} INV under k-RR (the paper's Prop. 7.1)
# :label: prop-ibu-krr
#
# For $k$-RR on $k$ values, every $\theta$ and $n$ reports,
# $\mathbf E\|v - \theta\|^2 \le \frac1n\big(\frac{e^\varepsilon + k - 1}{e^\varepsilon - 1}\big)^2$.
# Checked in rows <a href="#claim-ibu-P7.1a">P7.1a</a>, <a href="#claim-ibu-P7.1b">P7.1b</a> and <a href="#claim-ibu-P7.1g">P7.1g</a>.
# ```
#
# ```{prf:proposition} INV under the geometric mechanism (the paper's Prop. 7.2)
# :label: prop-ibu-geometric
#
# For the truncated geometric mechanism on $\{0, \dots, k-1\}$ with $\alpha > 1/2$, every $\theta$ and
# $n$ reports, $\mathbf E\|v - \theta\|^2 \ge \frac1n(\beta^3 - 2\alpha\beta^2 - 2)$. Checked in rows
# <a href="#claim-ibu-P7.2a">P7.2a</a>, <a href="#claim-ibu-P7.2b">P7.2b</a>, <a href="#claim-ibu-P7.2g">P7.2g</a> (false at $k = 2$) and <a href="#claim-ibu-P7.2k2">P7.2k2</a>.
# ```
#
# On the ages ($k = 100$) the paper
# compares $k$-RR at $\varepsilon = 2$ with the geometric mechanism at $\varepsilon_g = 0.05$, which
# "give similar statistical utility ... when IBU is used", and prints the bounds $227.28/n$ and
# $7238/n$.

# %%
b71 = ibu.inv_krr_upper_bound(100, 2.0, 1)  # x 1/n
b72 = ibu.inv_geometric_lower_bound(0.05, 1)
ex71 = est.inv_expected_sq_error(mech.grr_channel(100, 2.0), theta_age, 1)
ex72 = est.inv_expected_sq_error(M_g05, theta_age, 1)
report.close("P7.1a", b71)
report.close("P7.2a", b72)
report.holds("P7.1b", exact=ex71, bound=b71,
             closed=ibu.inv_krr_exact_sq_error(100, 2.0, theta_age, 1))
report.holds("P7.2b", exact=ex72, bound=b72)
p71 = ibu.inv_bound_sampling("7.1", S["draws"], rng=rng_for(SEED, "P7.1g"))
p72 = ibu.inv_bound_sampling("7.2", S["draws"], rng=rng_for(SEED, "P7.2g"))
report.holds("P7.1g", **p71)
report.holds("P7.2g", **p72)

# %% [markdown]
# Both printed numbers are off. $((e^2 + 99)/(e^2 - 1))^2 = 277.28$, printed "227.28" (a typo); and
# $\beta^3 - 2\alpha\beta^2 - 2 = 7818.55$ at $\alpha = e^{-0.05} = 0.951229$, $\beta = 20.504$, while
# the printed 7238 is $20^3 - 2 \cdot 0.95 \cdot 20^2 - 2$, the formula with $\alpha$ and $\beta$
# rounded first. The two corrections pull in opposite directions: the $k$-RR one *weakens* the
# contrast (the ratio of the bounds falls from {glue:text}`ibu-ratio_printed` as printed to
# {glue:text}`ibu-ratio_krr` with 277.28), the geometric one strengthens it again, to
# {glue:text}`ibu-ratio_both` with both corrected, still below the printed contrast. The exact errors
# on the Adult ages leave no doubt either way: {glue:text}`ibu-ex71`$/n$ under $k$-RR against
# {glue:text}`ibu-ex72`$/n$ under the geometric mechanism.
#
# **Prop. 7.1 holds in general** (no violation among {glue:text}`ibu-draws` sampled
# $(k, \varepsilon, \theta)$; the bound minus the exact error is
# $\big((2e^\varepsilon + k - 2)/(e^\varepsilon - 1)^2 + \|\theta\|^2\big)/n > 0$, on the Adult ages at
# $\varepsilon = 2$ {glue:text}`ibu-p71_slack`$/n$, {ref}`ex-ibu-prop71`). **Prop. 7.2 does not**:
# the paper states it for $\mathcal X = \{0, \dots, k-1\}$ and any $k$, but at $k = 2$ both rows of
# $M^{-1} = \beta\begin{pmatrix}1 & -\alpha\\ -\alpha & 1\end{pmatrix}$ are end rows, the exact error is
# $(\beta^2(1 + \alpha^2) - \|\theta\|^2)/n$, of order $\beta^2$, and the bound, of order $\beta^3$, exceeds
# it for small $\varepsilon_g$ (for every $\theta$ when $\varepsilon_g <$ {glue:text}`ibu-k2_all`). All
# {glue:text}`ibu-p72_viol` violations among the sampled cases are at $k = 2$; for $k \ge 3$ the exact
# error exceeds the bound by a factor of at least {glue:text}`ibu-p72_margin`. A Monte Carlo confirms
# the counterexample at $\varepsilon_g = 0.05$, $\theta = (1, 0)$: {glue:text}`ibu-k2_mc`$/n$
# (closed form {glue:text}`ibu-k2_exact`$/n$) against the bound $7818.55/n$. The paper's use of the
# proposition ($k = 100$) is unaffected.

# %%
rng = rng_for(SEED, "P7.2k2")
M2 = mech.geometric_channel(2, 0.05)
mc_k2, se_k2 = est.inv_sq_error_monte_carlo(M2, [1000, 0], S["mc_inv"], rng=rng)
report.close("P7.2k2", stats.from_se(1000 * mc_k2, 1000 * se_k2, n_runs=S["mc_inv"]))
N3 = rng.multinomial(1000, np.full(10, 0.1))
N4 = rng.multinomial(2000, rng.dirichlet(np.ones(20)))
for rid, M, N in (("P7.3", mech.grr_channel(10, 1.0), N3),
                  ("P7.4", mech.geometric_channel(20, 0.3), N4)):
    mc, se = est.inv_sq_error_monte_carlo(M, N, 4000, rng=rng)
    exact = est.inv_expected_sq_error(M, N / N.sum(), N.sum())
    report.close(rid, stats.from_se(mc / exact, se / exact, n_runs=4000))  # MC / exact

# %% tags=["hide-input", "remove-output"]
p_printed, p_krr = CLAIMS["P7.2a"].paper.value, CLAIMS["P7.1a"].paper.value
def k2_gap(e):
    """Exact INV error minus Prop. 7.2's bound at k = 2 for the uniform θ."""
    exact = ibu.inv_geometric_exact_sq_error(2, e, np.full(2, 0.5), 1)
    return exact - ibu.inv_geometric_lower_bound(e, 1)


report.text(k2_all=f"{optimize.brentq(k2_gap, 0.01, 0.69):.3f}")
report.text(p71_slack=f"{b71 - ex71:.4f}")
report.text(ratio_printed=f"{p_printed / p_krr:.1f}",
            ratio_krr=f"{p_printed / b71:.1f}",
            ratio_both=f"{b72 / b71:.1f}", ex71=f"{ex71:,.1f}", ex72=f"{ex72:,.0f}",
            p72_viol=p72["violations"], p72_margin=f"{1 + p72['min_margin_k3']:.1f}",
            k2_mc=f"{1000 * mc_k2:.1f} ± {1000 * se_k2:.1f}",
            k2_exact=f"{CLAIMS['P7.2k2'].reference:.1f}")
eps_tab = np.array([0.01, 0.05, 0.1, 0.2, 0.3, 0.5])
glue("ibu-inv-table", tables.inv_errors(theta_age, eps_tab))

# %% [markdown]
# The error of INV (x $1/n$) under the truncated geometric mechanism on the 100 ages, against
# $\varepsilon_g$:
#
# ```{glue:} ibu-inv-table
# ```
#
# **"Similar statistical utility" (rows T19, T19M).** The paper takes $k$-RR at $\varepsilon = 2$
# and the geometric mechanism at $\varepsilon_g = 0.05$ as a common ground, citing Figs. 10(a) and
# 9(a). We read "similar" with the criterion of "comparable" above: a factor of at most 1.5 between
# the two median EMDs, decided on the factor's 95% bootstrap interval. Under the paper's rule it
# fails clearly: the geometric mechanism gives IBU a median EMD {glue:text}`ibu-t19` times smaller
# than $k$-RR does ([{glue:text}`ibu-t19_lo`, {glue:text}`ibu-t19_hi`], {glue:text}`ibu-t19_runs`
# runs per setting), and the factor depends on the threshold (table below). Under $k$-RR, IBU's EMD
# falls as $\delta$ shrinks and is already close to the MLE's at our $\delta$; under the geometric
# mechanism it first falls, then rises as $\delta$ shrinks, and stays far below the MLE's: there
# IBU stops early and is regularised (previous section). At the MLE (our extension) the factor is
# much smaller, {glue:text}`ibu-t19m` [{glue:text}`ibu-t19m_lo`, {glue:text}`ibu-t19m_hi`]. With the
# paper's 100 runs per setting its interval contained 1.5 (the third edition's 1.56 [1.41, 1.70]),
# so we ran {glue:text}`ibu-t19_runs` per setting, a number fixed before the result: the factor is
# above 1.5, narrowly (row T19M). By our reading the two settings are not "similar" even at the MLE,
# but the gap that matters is the stopping rule's. Both are far better than inversion, which is the
# paper's point.

# %%
t19 = {"k-RR, ε = 2": (mech.grr_channel(100, 2.0), fig10["a"][2.0]),
       "geometric, εg = 0.05": (M_g05, fig9["a"][0.05])}
more19 = {}
for name, (M, r) in t19.items():  # more runs of the two settings, to decide T19M
    more19[name] = ibu.estimation_trials(M, N_age, S["t19_runs"] - r["IBU"].size,
                                         metric=measures.emd_1d_rows,
                                         rng=rng_for(SEED, f"T19/{name}"))
    more19[name].update(exact_mle(M, more19[name]["counts"], False))
X19 = {m: np.stack([np.r_[r[m], more19[n][m]] for n, (_, r) in t19.items()], axis=-1)
       for m in ("IBU", "MLE")}  # (runs, setting)
e19 = {rid: scoring.boot(scoring.spread, X19[m], rng=rng_for(SEED, rid))
       for rid, m in (("T19", "IBU"), ("T19M", "MLE"))}  # max/min of the two medians
report.record(e19)

# %% tags=["hide-input", "remove-output"]
tols19 = np.array(S["tols_t19"])
path19 = {name: np.stack([measures.emd_1d_rows(E, theta_age) for E in
                          ibu.threshold_sweep(M, r["counts"], tols19)["estimates"]])
          for name, (M, r) in t19.items()}  # (threshold, run), on Figs. 9 and 10's runs
med19 = {name: np.median(E, axis=1) for name, E in path19.items()}
mle19 = np.array([np.median(r["MLE"]) for _, r in t19.values()])
glue("ibu-t19-table", tables.thresholds(med19, mle19, tols19), display=False)
for tag, e in zip(("t19", "t19m"), e19.values()):
    report.text(**{tag: f"{e.value:.2f}", f"{tag}_lo": f"{e.low:.2f}",
                   f"{tag}_hi": f"{e.high:.2f}"})
geo, krr = (t19[n][1] for n in ("geometric, εg = 0.05", "k-RR, ε = 2"))
panels = {"(a) Fig. 8, Manhattan, εg = 1": dict(
              tols=tols8, emd=thr_emd, mle=f8["MLE"], inv=np.median(f8["INV-P"]),
              paper=paper8["IBU"], unit="km"),
          "(b) Sec. 7.6, ages": dict(
              tols=tols19, emd=path19["geometric, εg = 0.05"], mle=geo["MLE"], unit="y",
              compare=dict(label="k-RR", emd=path19["k-RR, ε = 2"], mle=krr["MLE"]))}
glue("ibu-stopping", figures.stopping_rule(panels))

# %%
runs = [r for panels in (fig9, fig10, fig12) for res in panels.values()
        for r in res.values()] + list(more19.values())  # every run of Sec. 7
report.holds("CONV", capped=sum(int((~r["stopped"]).sum()) for r in runs)
             + int((~more8.stopped).sum()), runs=sum(r["stopped"].size for r in runs)
             + more8.stopped.size,
             uncertified=sum(int((~r["mle_certified"]).sum())
                             for r in runs if "MLE" in r))
rel = [r["mle_bound"].max() / np.median(r["MLE"]) for r in runs if "MLE" in r]
report.holds("CERT", max_rel=max(rel), settings=len(rel))
graded = [(CHANNELS[kind, e, planar], fig9[lab][e]["counts"])
          for lab, (kind, planar) in PANELS9.items() for e in fig9[lab]
          if e <= np.median(list(fig9[lab]))]
graded += [(M, np.r_[r["counts"], more19[n]["counts"]]) for n, (M, r) in t19.items()]
report.holds("T13.2", strict=sum(ibu.strictly_concave_runs(M, C) for M, C in graded),
             runs=sum(len(C) for _, C in graded))
report.text(cert_rel=f"{100 * max(rel):.2f}")

# %% [markdown]
# Median IBU EMD (years, {glue:text}`ibu-runs` runs) by threshold $\delta$ of the paper's rule, and at
# the certified MLE:
#
# ```{glue:} ibu-t19-table
# ```
#
# ```{glue:figure} ibu-stopping
# :name: fig-ibu-stopping
# :alt: Two panels of median EMD against the stopping threshold, thresholds decreasing to the right. The IBU curve rises towards the certified-MLE line as the threshold shrinks; the best INV is a dashed line far above; in the left panel the paper's value is a dotted line crossed by the IBU curve.
#
# (Ours.) IBU's median EMD against the threshold $\delta$ of the paper's rule (on $\ell = L/n$), with the
# certified MLE: (a) the Manhattan data of Fig. 8 ({glue:text}`ibu-fig8_thr_runs` runs; INV-P dashed, the
# paper's single value dotted); (b) the ages of Sec. 7.6 under the geometric mechanism
# ($\varepsilon_g = 0.05$) and under $k$-RR ($\varepsilon = 2$), {glue:text}`ibu-runs` runs each. Bars
# and bands: 95% order-statistic intervals of the medians.
# ```
#
# ## Infinite alphabets: likely subsets (Sec. 8)
#
# An element $x'$ is **unlikely** (Def. 2) if some $x$ has $M_{x'z^i} \le M_{xz^i}$ for every
# observation and $<$ for one. **Lemma 8.1**: every MLE gives unlikely elements probability 0 (moving
# the mass of $x'$ to $x$ lowers no $(\theta G)_i$ and raises one, so $L$ grows). A subset of
# $\mathcal X$ is *likely* if every element outside it is unlikely.
#
# ```{prf:theorem} Likely subsets (the paper's Thm 8.2)
# :label: thm-ibu-likely
#
# $\hat\theta$ is an MLE on $\mathcal X$ iff it is zero outside a likely subset $\mathcal X'$ and its
# restriction is an MLE on $\mathcal X'$. Checked in rows <a href="#claim-ibu-T21.1">T21.1</a>, <a href="#claim-ibu-T21.2">T21.2</a> (Lemma 8.1),
# <a href="#claim-ibu-T24">T24</a> and <a href="#claim-ibu-T23.2">T23.2</a>.
# ```
#
# IBU on an infinite or very large $\mathcal X$ can therefore run on a finite subset. On a line:
#
# ```{prf:proposition} A linear likely subset (the paper's Prop. 8.2)
# :label: prop-ibu-linear
#
# If $M_{xz} > M_{x'z}$ whenever $|x - z| < |x' - z|$, and $x_{min}$, $x_{max}$ are the elements
# of $\mathcal X$ just below and above every report, then $[x_{min}, x_{max}] \cap \mathcal X$ is
# likely. Checked in rows <a href="#claim-ibu-T22">T22</a> and <a href="#claim-ibu-T22b">T22b</a>.
# ```
#
# The paper: "many classical mechanisms such as the geometric, Laplace, and exponential mechanisms
# satisfy this property". We draw six Adult ages obfuscated by the untruncated geometric mechanism
# ($\varepsilon_g = 0.1$) on $\mathcal X = \mathbb Z$ (a window of it, {numref}`fig-ibu-13`), and check
# the condition and the proposition for the Laplace mechanism (rounded to the integers) and the
# exponential mechanism ($\propto e^{-\varepsilon_g|z - x|/2}$) too.

# %%
rng = rng_for(SEED, "fig13")
z6 = mech.untruncated_geometric_perturb(rng.choice(ages, 6), 0.1, rng=rng)
Xw = np.arange(-100, 201)  # a window of the integers
likely13 = est.likely_subset_linear(Xw, z6)
unlikely13 = est.unlikely_mask(mech.untruncated_geometric_matrix(Xw, z6, 0.1))
report.holds("T22", unlikely=int(unlikely13[~likely13].sum()),
             outside=int((~likely13).sum()))
n22 = dict(violations=0, pairs=0, unlikely=0, outside=0)
for kind in ("geometric", "laplace", "exponential"):  # the condition, then the subset
    P = ibu.line_mechanism_matrix(kind, Xw, Xw, 0.1)
    for key, v in ibu.distance_monotonicity_violations(P, Xw, Xw).items():
        n22[key] += v
    z = ibu.line_mechanism_perturb(kind, rng.choice(ages, 6), 0.1, rng=rng)
    out = ~est.likely_subset_linear(Xw, z)
    n22["outside"] += int(out.sum())
    G22 = ibu.line_mechanism_matrix(kind, Xw, z, 0.1)
    n22["unlikely"] += int(est.unlikely_mask(G22)[out].sum())
report.holds("T22b", **n22)

# %% tags=["hide-input", "remove-output"]
glue("ibu-fig13", figures.fig13(Xw, likely13, z6))

# %% [markdown]
# ```{glue:figure} ibu-fig13
# :name: fig-ibu-13
# :alt: A number line with six labelled reports, the likely interval between x_min and x_max highlighted, and an unlikely point x' to the right.
#
# (Paper Fig. 13.) Six reports $z^i$ of the untruncated geometric mechanism ($\varepsilon_g = 0.1$, six
# Adult ages) and the likely subset $[x_{min}, x_{max}]$; every element outside it, such as $x'$, is
# unlikely (row T22).
# ```
#
# With 5,000 ages and $\mathcal X = \{-2000, \dots, 2100\}$ we run IBU on the likely subset and on
# the whole window from the same start for the same number of updates. Both reach the same $\ell$,
# the mass outside the subset vanishes (Lemma 8.1), and at the subset's estimate no element outside
# could raise the likelihood ($r_x < 1$ there, Thm 8.2). "We can efficiently obtain an MLE via IBU":
# run to the same certificate ($g \le 10^{-4}$), IBU needs {glue:text}`ibu-t21_updates` updates on the
# subset and on the whole window (row T21.3), and an update on the subset is
# {glue:text}`ibu-t21_size` times cheaper (its matrix has that many times fewer rows): CPU
# {glue:text}`ibu-t21_cpu`.

# %%
rng = rng_for(SEED, "T21")
z5k = mech.untruncated_geometric_perturb(rng.choice(ages, 5000), 0.1, rng=rng)
zu, cnt = np.unique(z5k, return_counts=True)
Xbig = np.arange(-2000, 2101)
Gbig = mech.untruncated_geometric_matrix(Xbig, zu, 0.1)
sub = est.likely_subset_linear(Xbig, zu)
full, part = (est.ibu_rows(G, cnt, tol=0, max_iter=S["iters"][1])
              for G in (Gbig, Gbig[sub]))
r = Gbig @ (cnt / cnt.sum() / (part.estimate @ Gbig[sub]))  # r_x at the subset's MLE
report.holds("T21.1", dl=abs(full.loglik - part.loglik), r_out_max=r[~sub].max())
report.holds("T21.2", mass=full.estimate[~sub].sum())
def mle21(G):
    """IBU to the certificate g <= 1e-4 (the same on the subset and on the window)."""
    return est.ibu_rows(G, cnt, criterion="gap", tol=1e-4, max_iter=10**6)


(f21, t_full), (s21, t_sub) = (ibu.cpu_seconds(lambda: mle21(G), 1)
                               for G in (Gbig, Gbig[sub]))
report.order("T21.3", {"updates_subset": s21.n_iter, "updates_full": f21.n_iter})

# %% [markdown]
# **$k$-RR (Prop. 8.4).** The reported values are a likely subset: an unreported value $x'$ has
# $G_{x'i} = 1/(k - 1 + e^\varepsilon)$ for every report, the smallest entry of $M$, and any reported
# value $x$ has the same except $e^\varepsilon/(k - 1 + e^\varepsilon)$ on its own reports, so $x$
# dominates $x'$. The paper expects a saving when "the noisy dataset may be distributed over only
# a small number of cells". We measure it on the Manhattan box cut into 7,000 cells of 0.1 km, with
# 1,000 real check-ins and $\varepsilon = 8$, and compute how many cells the paper's own data would
# fill: with $n$ users at $k$ values the expected number of distinct reports is
# $\sum_z 1 - (1 - p_z)^n$, $p_z = (n_z e^\varepsilon + n - n_z)/(n(k - 1 + e^\varepsilon))$
# (`ibu.krr_likely_fraction`).

# %%
rng = rng_for(SEED, "T24")
lat, lon = gw.lat.to_numpy(), gw.lon.to_numpy()
fine = datasets.Grid(*datasets.MANHATTAN_BOX, rows=100, cols=70)  # cells of 0.1 km
x24 = rng.choice(fine.cell_of(lat, lon), 1000, replace=False)
zu24, c24 = np.unique(mech.grr_perturb(x24, fine.k, 8.0, rng=rng), return_counts=True)
G24 = mech.grr_channel(fine.k, 8.0)[:, zu24]  # k-RR, the observed columns
f24, s24 = (est.ibu_rows(G, c24, tol=0, max_iter=100) for G in (G24, G24[zu24]))
report.holds("T24", dl=abs(f24.loglik - s24.loglik),
             mass=np.delete(f24.estimate, zu24).sum())
mle24 = lambda G: est.ibu_rows(G, c24, criterion="gap", tol=1e-6)  # noqa: E731
(f24m, t24f), (s24m, t24s) = (ibu.cpu_seconds(lambda: mle24(G), 1)
                              for G in (G24, G24[zu24]))
report.order("T24t", {"updates_subset": s24m.n_iter, "updates_full": f24m.n_iter})
grids = [grid, datasets.Grid(*datasets.MANHATTAN_BOX, rows=40, cols=28), fine]
fractions = [ibu.krr_likely_fraction(g.histogram(lat, lon), e)
             for g in grids for e in (1.0, 4.0, 8.0)]
report.range("T24u", min(fractions))

# %% tags=["hide-input", "remove-output"]
ms = lambda t: f"{1000 * t:.1f} ms"  # noqa: E731
report.text(t24_cells=f"{zu24.size:,}", t24_updates=f"{s24m.n_iter} and {f24m.n_iter}",
            t24_saving=f"{ms(t24s)} against {ms(t24f)}",
            t21_updates=f"{s21.n_iter:,} and {f21.n_iter:,}",
            t21_size=f"{Gbig.shape[0] / sub.sum():.0f}",
            t21_cpu=f"{ms(t_sub)} against {ms(t_full)}")
for name, t in (("T21.3 subset", t_sub), ("T21.3 full", t_full), ("T24t subset", t24s),
                ("T24t full", t24f)):
    report.timing(f"{name} (CPU s)", t)

# %% [markdown]
# The 1,000 reports fall in {glue:text}`ibu-t24_cells` of the 7,000 cells. To the certificate
# $g \le 10^{-6}$ IBU needs {glue:text}`ibu-t24_updates` updates on them and on all cells (row T24t),
# each update on the reported cells being that many times cheaper: {glue:text}`ibu-t24_saving` of
# CPU. But with all the check-ins of Sec. 7.2
# (98,061 in our copy), $k$-RR at any $\varepsilon \le 8$ spreads reports over essentially every
# cell (expected fraction at least 0.99 at 0.5, 0.25 and 0.1 km, row T24u): the saving needs few
# users relative to $k + e^\varepsilon$, not just empty terrain.
#
# **Planar alphabets (Prop. 8.3, Fig. 14).** With $\delta$ the discretisation error of the lattice
# ($h/\sqrt 2$ for a square lattice of width $h$) and $d_{max}$ the largest distance between two
# reports, $T_{\delta'}(\mathcal B) \cap \mathcal X$ is likely, where $\mathcal B$ is the convex hull
# of the reports and (eq. 13)
#
# ```{math}
# :label: eq-ibu-delta-prime
#
# \delta' = \big(\delta^2 + 2\delta\, d_{max}\big)^{1/2}.
# ```
#
# The paper's Fig. 14 is a schematic: $h = 0.3$ km, $\delta = 0.21$ km, $d_{max} = 8.25$ km,
# $\delta' = 1.87$ km. We check its numbers and draw the construction on data: 300 Manhattan check-ins
# obfuscated by the planar Laplace mechanism ($\varepsilon_g = 2$/km). Our reports span the whole
# box, so our $d_{max}$ is {glue:text}`ibu-dmax` km and $\delta'$ of {eq}`eq-ibu-delta-prime`
# {glue:text}`ibu-dprime` km, not the
# schematic's 8.25 and 1.87 ({numref}`fig-ibu-14`).

# %%
report.close("T23.0", ibu.square_lattice_delta(0.3))
report.close("T23.1", est.planar_delta_prime(PRINTED["fig14_delta"].value,
                                             PRINTED["fig14_dmax"].value))
rng = rng_for(SEED, "fig14")
cells = rng.choice(grid.k, 300, p=theta_loc)  # 300 check-ins (cell centres, km)
Z14 = mech.planar_laplace_perturb(grid.centers_km()[cells], 2.0, rng=rng)
h, pad = 0.3, 4.0
axes = [h * np.arange((z.min() - pad) // h, (z.max() + pad) // h + 2) for z in Z14.T]
lattice = np.array(np.meshgrid(*axes)).reshape(2, -1).T  # a window of the lattice
delta = ibu.square_lattice_delta(h)
likely14, dprime, dmax = est.likely_subset_planar(lattice, Z14, delta)

# %%
dist = np.linalg.norm(lattice[:, None, :] - Z14[None], axis=2)
G14 = np.exp(-2.0 * dist)  # the planar Laplace density at each report, up to a constant
probe = rng.choice(np.flatnonzero(~likely14), 300, replace=False)
unl14 = est.unlikely_mask(np.vstack([G14[likely14], G14[probe]]))[likely14.sum():]
f14, s14 = (est.ibu_rows(G, np.ones(300), tol=0, max_iter=S["iters"][0])
            for G in (G14, G14[likely14]))
report.holds("T23.2", unlikely=int(unl14.sum()), probed=probe.size,
             dl=abs(f14.loglik - s14.loglik))

# %% tags=["hide-input", "remove-output"]
glue("ibu-fig14", figures.fig14(lattice, likely14, Z14, dprime, dmax))
report.text(dmax=f"{dmax:.2f}", dprime=f"{dprime:.2f}")

# %% [markdown]
# ```{glue:figure} ibu-fig14
# :name: fig-ibu-14
# :alt: A lattice of grey points with the likely points highlighted inside a dashed rounded polygon that surrounds the convex hull of the crosses marking the reports.
#
# (Paper Fig. 14, redrawn on data.) A square lattice of width $h = 0.3$ km ($\delta = 0.21$ km), 300
# reports of the planar Laplace mechanism ($\varepsilon_g = 2$/km) from Manhattan check-ins, their
# convex hull $\mathcal B$ and the likely region $T_{\delta'}(\mathcal B)$ with our
# $d_{max}$ = {glue:text}`ibu-dmax` km and $\delta'$ = {glue:text}`ibu-dprime` km (the paper's schematic:
# 8.25 and 1.87 km).
# ```
#
# ## Summary
#
# * **The theory reproduces**: the worked mechanisms (4) and (12) (every value and fixed point in
#   closed form, and mechanism (12)'s MLE stuck away from the truth with any amount of data),
#   Rappor's strict-concavity bound and Lemma 4.5, the identification theorem on every channel of the
#   experiments, the dominance bounds, the convergence of IBU at the rate $n^{-1/2}$ (which the paper
#   proves without measuring), the failure of identification in Sec. 6.4, and the likely subsets of
#   Sec. 8 under the geometric, Laplace and exponential mechanisms.
# * **Two printed numbers of Sec. 7.6 are wrong** (277.28 for 227.28, 7818.55 for 7238), and they pull
#   in opposite directions. **Prop. 7.2 is false at $k = 2$** and holds for $k \ge 3$; the paper only
#   uses $k = 100$.
# * **The experiments reproduce in substance**: IBU far ahead of INV under the geometric, Laplace and
#   exponential mechanisms, most of all under strong noise; INV-P slightly ahead of INV-N at
#   $\varepsilon_g = 0.05$; the estimators on par under $k$-RR. Under Rappor at weak noise INV-N falls
#   behind by a factor up to {glue:text}`ibu-r12bn`, more than "almost the same". "Similar utility"
#   (Sec. 7.6) fails under the paper's rule (a factor {glue:text}`ibu-t19`) and, narrowly, at the MLE
#   (a factor {glue:text}`ibu-t19m`, decided with {glue:text}`ibu-t19_runs` runs per setting).
# * **Single runs.** Fig. 8's noisy EMD matches; the paper's INV values lie high in a wide
#   distribution (INV-N beyond our 95% range, by a small margin that the interval of the proportion
#   decides: a high draw, or a difference of pipelines the noisy EMD does not see, one run cannot
#   tell), and its IBU value reflects an unprinted threshold.
# * **The stopping rule matters, and so does what "the MLE" means.** A certificate on the
#   log-likelihood is not one on the estimate; computed exactly and certified on the estimate, the MLE
#   is up to {glue:text}`ibu-mle_worse` times worse than the paper's early stop where the likelihood is
#   flat (median EMD at the smallest $\varepsilon_g$), and on the locations it no longer beats INV by
#   the factor 2 the paper's figures suggest.
# * **Our choices where the paper is silent**: the threshold ($10^{-8}$ on $\ell$), the
#   $\varepsilon$ grids, the San Francisco box of Fig. 6, the truncation of the planar mechanisms
#   (clamped), the discretisation of the Laplace mechanism and the factor $1/2$ of the exponential
#   mechanism. One check-in separates our copy of the Manhattan data from the paper's.
#
# Rows removed from the first edition: T9.1 compared the Thm 4.6 bound with our own evaluation of the
# same formula (it is a unit test now); F8.6 graded a ratio of two printed values against an
# external threshold; P7.5 and the tolerance-sensitivity row TOL are replaced by F8.4, T19M and the
# stopping-rule figure. Changed in the third edition: "the MLE" is the interior-point MLE certified
# on the estimate (CONV, CERT, MLEx; it was a point certified within $10^{-6}$ on $\ell$); F9M·.2 are
# our extension, not paper claims; T13.2 tests the reports of the runs (it repeated T13.1); T21.3
# and T24t count updates to a certificate (they timed a smaller matrix against a larger one); new
# rows S5.1c, F1.3, F8.7, F9a/c/e.4 and T22b grade claims that had none. Changed in this revision:
# every number from random runs is an estimate with its interval (`ldpnb.stats`), decided with three
# outcomes, and the chapter's own bootstrap helpers are gone; the rows whose criterion changed after
# a recorded result carry a decision log (the row shows the earlier criterion, its status on the
# same numbers, the commit and the reason): the Fig. 8 rows (their percentile rules, and the
# `instead` rules of F8.2 and F8.4, written after the outcome), the monotonicity rows (a rise of
# 10% instead of two standard errors), F1.1-F1.3, F8.5, F8.7, T9.3, P7.2k2-P7.4, S5.1c (its slope is
# now row S5.1d), F9e.4 (expectation), and F9Mb/d/f.2, which the third edition had turned into
# "below 2" after seeing 1.75, 1.67 and 1.26 and which again apply the paper's factor 2 to the MLE.
# T19M is labelled our extension. Where a row was undecided at the paper's 100 runs and runs were
# affordable we ran more, a number fixed before the result: {glue:text}`ibu-t19_runs` runs per
# setting for T19 and T19M, {glue:text}`ibu-f8_ibu_runs` of IBU for F8.4, and
# {glue:text}`ibu-decide` (the rows' runs to decide, from the first run at 100, were 109 to 598).
#
# ## Exercises
#
# ```{exercise} Fixed points that are not maxima
# :label: ex-ibu-vertex
#
# Show that a vertex $e_x$ of the simplex is a fixed point of the update {eq}`eq-ibu-update`
# whenever $M_{xz} > 0$ for every observed $z$. For mechanism (4) and the observations $\{2, 1\}$,
# run IBU from a start close to $e_1$ and from $e_1$ itself, and compare the limits with the MLE.
# ```
#
# ```{solution-start} ex-ibu-vertex
# :class: dropdown
# ```
#
# At $\theta = e_x$, $(\theta M)_z = M_{xz}$, so $r_x = \sum_z q_z M_{xz}/M_{xz} = 1$: the update keeps
# $\theta_x = 1$ and the other entries at 0. For $\{2, 1\}$ the MLE is $(0, 0, 1)$
# ({prf:ref}`prop-ibu-unique`); from $e_1$ IBU never moves, with $L = \log 0.45 + \log 0.1$, while a
# start that gives $\theta_3$ any positive mass reaches the MLE: the certificate tells the two apart.

# %%
near = np.array([1 - 2e-6, 1e-6, 1e-6])
for t0 in (e1, near):
    r = est.ibu(M4, [1, 1, 0], theta0=t0, criterion="gap", tol=1e-10, max_iter=2000)
    print(np.round(r.estimate, 6), f"L = {2 * r.loglik:.4f}", f"gap = {r.gap:.3g}")

# %% [markdown]
# ```{solution-end}
# ```
#
# ```{exercise} A small gap, a large distance
# :label: ex-ibu-gap
#
# For one run of the ages under the geometric mechanism at $\varepsilon_g = 0.01$, stop EM
# (accelerated) at a certified gap of $10^{-6}$ and compute the interior-point MLE. Compare their EMDs
# to the truth and the bounds {eq}`eq-ibu-distance` gives for each. Which eigenvalue of $H$ explains
# the difference?
# ```
#
# ```{solution-start} ex-ibu-gap
# :class: dropdown
# ```
#
# The bound scales as $\sqrt{g/\lambda}$ with $\lambda$ the curvature of $\ell$ on the face that
# carries the MLE; under strong noise the geometric mechanism is nearly singular, $\lambda$ is tiny, and
# $g = 10^{-6}$ leaves the estimate free to move by years. The interior point reaches
# $g \approx 10^{-14}$, a hundred million times smaller, and with it a bound below a hundredth of a year.

# %%
from ldpnb.estimators._certify import mle_distance_bound

M01 = mech.geometric_channel(100, 0.01)
c01 = channels.simulate_counts(M01, N_age, rng=rng_for(SEED, "exercise-gap"))
em6 = est.ibu(M01, c01, criterion="gap", tol=1e-6, accelerate="squarem", max_iter=10**6)
exact = ibu.mle_runs(M01, c01[None], theta_age, D_age, metric=measures.emd_1d_rows)
for name, p in (("EM, gap 1e-6", em6.estimate),
                ("interior point", exact["mle_estimates"][0])):
    b = mle_distance_bound(M01, c01, p, distance=D_age)
    emd = measures.emd_1d_rows(p, theta_age)[0]
    print(f"{name}: EMD {emd:.4f} years, bound {b['w1']:.2g}, curvature"
          f" {b['curvature']:.2g} on a face of {b['face']:.0f} values")

# %% [markdown]
# ```{solution-end}
# ```
#
# ```{exercise} The slack of Prop. 7.1
# :label: ex-ibu-prop71
#
# From {eq}`eq-ibu-inv-error` and the rows of the $k$-RR inverse, show that the bound of
# {prf:ref}`prop-ibu-krr` exceeds the exact error by
# $\big((2e^\varepsilon + k - 2)/(e^\varepsilon - 1)^2 + \|\theta\|^2\big)/n$, and check it on the Adult
# ages at $\varepsilon = 2$.
# ```
#
# ```{solution-start} ex-ibu-prop71
# :class: dropdown
# ```
#
# Every row has $\|r_z\|^2 = ((e^\varepsilon + k - 2)^2 + k - 1)/(e^\varepsilon - 1)^2$ and
# $\sum_z \pi_z = 1$, so $n\,\mathbf E\|v - \theta\|^2 = \|r_z\|^2 - \|\theta\|^2$. With
# $a = e^\varepsilon + k - 2$, the bound's numerator is $(a + 1)^2 = a^2 + 2a + 1$, and
# $(a + 1)^2 - a^2 - (k - 1) = 2e^\varepsilon + k - 2$.

# %%
e2 = np.exp(2.0)
slack = ((2 * e2 + 100 - 2) / (e2 - 1) ** 2 + theta_age @ theta_age)  # x 1/n
print(f"formula {slack:.4f}, bound - exact {b71 - ex71:.4f}")

# %% [markdown]
# ```{solution-end}
# ```
#
# ## Reproduction report

# %%
report.timing("chapter (CPU s)", time.process_time() - CPU)
report.finalize()
