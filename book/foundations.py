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
# # Foundations: the local model
#
# {glue:md}`foundations-status`
#
# This chapter sets up the vocabulary of the five papers, with every object built from the
# `ldpnb` package that the paper chapters use: the local model, ε-local differential privacy and
# geo-indistinguishability, the mechanisms as **channel matrices**, the estimators that invert
# them, and the distances and information measures that score them.
#
# ## Overview
#
# **What you will learn.** To read a privacy mechanism as a channel matrix and compute its
# privacy constant (epsilon, ε) exactly; to tell the {term}`frequency oracles <frequency oracle>`
# ({term}`GRR`, {term}`SUE`, {term}`OUE`, {term}`OLH`, {term}`SS`) apart by their variance; to
# estimate a distribution from noisy reports with matrix inversion ({term}`INV`) or the iterative
# Bayesian update ({term}`IBU`) and score the estimate with the earth mover's distance
# ({term}`EMD`); and to measure what a channel leaks by its mutual information and
# {term}`capacity`.
#
# **Prerequisites.** Discrete probability (conditional probabilities, Bayes' rule, the multinomial
# law), matrices and vectors, logarithms and entropy; enough Python to read numpy code. No
# privacy background is assumed: every term is defined here and in the {doc}`glossary`.
#
# **Time.** About 40 minutes to read, an hour with the exercises at the end.

# %% tags=["parameters", "remove-cell"]
SCALE = "book"  # "smoke" | "book" | "paper"
SEED = 2024

# %% tags=["hide-input"]
import numpy as np
from scipy import stats

from ldpnb import channels, estimators, measures
from ldpnb import mechanisms as mech
from ldpnb.data import lattice_distance_matrix
from ldpnb.papers.foundations import CLAIMS, SIZES_BY_SCALE, figures
from ldpnb.repro import Report, glue, rng_for
from ldpnb.repro.plotting import set_style

set_style()
report = Report("foundations", CLAIMS, scale=SCALE, seed=SEED)
SIZES = SIZES_BY_SCALE[SCALE]  # in ldpnb/papers/foundations/claims.py
N_USERS = SIZES["users"]
glue("foundations-n", f"{N_USERS:,}", display=False)

# %% [markdown]
# ## The local model
#
# Each of $n$ users holds a value $x^i$ in a finite alphabet $\mathcal X$ of size $k$ and sends
# the data collector a randomised report $z^i$ drawn from a **mechanism** $C$, a channel matrix
# with one row per input and one column per output:
#
# $$ C_{xz} = P(Z = z \mid X = x), \qquad \sum_z C_{xz} = 1 . $$ (eq-foundations-channel)
#
# The collector never sees $x^i$. If the users' values follow $\theta$, the reports follow
# $\theta C$; the collector observes their counts $c_z$ (or the empirical distribution
# $q = c/n$) and estimates $\theta$.
#
# ```{prf:definition} ε-local differential privacy
# :label: def-foundations-ldp
#
# A channel $C$ is ε-locally differentially private ({term}`LDP`)
# {cite}`kasiviswanathan2011learn,duchi2013local` when no report tells any two inputs apart by
# more than a factor $e^\varepsilon$:
#
# $$ C_{xz} \le e^{\varepsilon} C_{x'z} \quad \text{for all } x, x', z. $$ (eq-foundations-ldp)
# ```
#
# The parameter epsilon (ε), the *privacy budget*, is the log of that factor: smaller is more
# private. The smallest ε for which {eq}`eq-foundations-ldp` holds is
# $\max_z \log(\max_x C_{xz} / \min_x C_{xz})$ (`channels.ldp_epsilon`).
#
# ```{prf:definition} Geo-indistinguishability
# :label: def-foundations-geo
#
# When the inputs live in a metric space (ages, locations), a channel is
# ε-{term}`geo-indistinguishable <geo-indistinguishability>` {cite}`andres2013geo` when the bound
# scales with the distance: $C_{xz} \le e^{\varepsilon\, d(x,x')} C_{x'z}$
# (`channels.geo_ind_epsilon`).
# ```
#
# ## Mechanisms as channels
#
# *k-ary randomised response* ({term}`k-RR <GRR>`, or GRR) {cite}`warner1965rr,kairouz2016discrete` keeps the
# true value with probability $p = e^\varepsilon/(k-1+e^\varepsilon)$ and otherwise reports one of
# the $k-1$ others uniformly. The *truncated geometric* mechanism {cite}`ghosh2009universally`
# adds two-sided geometric noise $P(z \mid x) \propto e^{-\varepsilon |z-x|}$ and clamps to the
# domain; the *discretised Laplace* mechanism rounds continuous Laplace noise to the nearest
# point; the *exponential* mechanism {cite}`mcsherry2007mechanism` reports $z$ with probability
# $\propto e^{-\varepsilon d(x,z)/2}$ ({numref}`fig-foundations-channels`).

# %%
k, eps = 12, 1.0
line = np.abs(np.subtract.outer(np.arange(k), np.arange(k))).astype(float)
mechanisms = {
    "k-RR": mech.grr_channel(k, eps),
    "geometric": mech.geometric_channel(k, eps),
    "Laplace": mech.laplace_channel(k, eps),
    "exponential": mech.exponential_channel(line, eps),
}

# %% tags=["hide-input", "remove-output"]
glue("foundations-channels", figures.channel_matrices(mechanisms))

# %% [markdown]
# ```{glue:figure} foundations-channels
# :name: fig-foundations-channels
# :alt: Four heat maps of 12 by 12 channel matrices: k-RR has a bright diagonal on a flat background; the geometric, Laplace and exponential channels concentrate around the diagonal and fade with the distance |z − x|.
#
# Channel matrices $P(z \mid x)$ on $k = 12$ values at ε = 1: k-RR spreads its noise uniformly, the
# metric mechanisms keep the report near the true value.
# ```
#
# Each channel's privacy constant is computed exactly from its matrix. k-RR and the frequency
# oracles below are ε-LDP with equality; the three metric mechanisms are
# ε-geo-indistinguishable (the truncated and discretised versions are post-processings of their
# untruncated forms, so their tight constant can only be smaller; the exponential mechanism's
# factor 1/2 pays for its row-dependent normaliser) and only $(k-1)\varepsilon$-LDP: far weaker
# as LDP guarantees, far more useful when nearby values should stay distinguishable.

# %%
tight = {e: {
    "k-RR": channels.ldp_epsilon(mech.grr_channel(k, e)),
    "OUE": channels.ldp_epsilon(mech.ue_channel(6, e, "oue")),
    "SUE": channels.ldp_epsilon(mech.rappor_channel(6, e)),
    "SS": channels.ldp_epsilon(mech.ss_channel(6, e)),
    "LH (g = 3)": channels.ldp_epsilon(mech.lh_channel(3, 3, e)),
    "geometric": channels.geo_ind_epsilon(mech.geometric_channel(k, e), line),
    "Laplace": channels.geo_ind_epsilon(mech.laplace_channel(k, e), line),
    "exponential": channels.geo_ind_epsilon(mech.exponential_channel(line, e), line),
} for e in (0.25, 0.5, 1.0, 2.0, 4.0)}
ratio = {e: {m: t / e for m, t in row.items()} for e, row in tight.items()}
report.close("F1", max(abs(r[m] - 1) for r in ratio.values() for m in list(r)[:6]))
metric = ("Laplace", "exponential")
report.range("F2", max(r[m] for r in ratio.values() for m in metric))

# %% [markdown]
# On a grid of cells, the planar versions add noise with density $\propto e^{-\varepsilon\, d}$
# around the true cell and clamp it to the region; one row of the channel is an image
# ({numref}`fig-foundations-planar`).

# %%
R, Cc, cell_km, cell = 15, 15, 0.5, 3 * 15 + 4
planar = {"planar geometric": mech.planar_geometric_channel(R, Cc, 2.0, cell_km),
          "planar Laplace": mech.planar_laplace_channel(R, Cc, 2.0, cell_km)}
D = lattice_distance_matrix(R, Cc, cell_km)
report.range("F3", [channels.geo_ind_epsilon(C, D) for C in planar.values()])

# %% tags=["hide-input", "remove-output"]
rows = {n: C[cell] for n, C in planar.items()}
glue("foundations-planar", figures.planar_rows(rows, (R, Cc), cell, cell_km),
     display=False)

# %% [markdown]
# ```{glue:figure} foundations-planar
# :name: fig-foundations-planar
# :alt: Two 15 by 15 heat maps of the report distribution around a marked true cell; both decay with the distance, the planar Laplace slightly more smoothly.
#
# One row of the planar geometric and planar Laplace channels (15 × 15 grid of 0.5 km cells,
# ε = 2 per km, true cell marked).
# ```
#
# ## Frequency oracles
#
# For large alphabets the pure *frequency oracles* {cite}`wang2017locally` encode the value
# first: unary encodings (SUE, the basic one-time RAPPOR {cite}`erlingsson2014rappor`, and
# OUE) perturb a one-hot vector bit by bit; local hashing (BLH, OLH) hashes the value into
# $g$ buckets and applies k-RR there; subset selection (SS) reports a random subset of size
# $\omega$. Each defines, for every value $v$, a *support* probability $p$ (a report from $v$
# supports $v$) and $q$ (a report from another value supports $v$), and the unbiased estimator
#
# $$ \hat f(v) = \frac{C(v) - n q}{n (p - q)}, \qquad
#    \operatorname{Var}[\hat f(v)] \approx \frac{q (1-q)}{n (p-q)^2} \quad (f(v) \to 0). $$ (eq-foundations-fo)
#
# The variance in {eq}`eq-foundations-fo` decides which oracle to use
# ({numref}`fig-foundations-oracles`):
#
# ```{prf:proposition} GRR or OUE
# :label: prop-foundations-grr-oue
#
# For $k$ values and privacy level $\varepsilon$, the approximate variance of GRR is below that
# of OUE exactly when $k < 3 e^\varepsilon + 2$ {cite}`wang2017locally`.
# ```
#
# We check {prf:ref}`prop-foundations-grr-oue` on a grid of $(k, \varepsilon)$.

# %%
def pq(m):
    """(p, q) of a frequency oracle (support probabilities)."""
    return m.p, m.q


def var(p, q):
    return q * (1 - q) / (p - q) ** 2


grid = [(kk, e) for kk in range(2, 200, 3) for e in np.linspace(0.1, 5, 25)]
grr_wins = {(kk, e): var(*pq(mech.GRR(kk, e))) < var(*pq(mech.OUE(kk, e)))
            for kk, e in grid}
mismatches = sum((kk < 3 * np.exp(e) + 2) != wins for (kk, e), wins in grr_wins.items())
report.holds("F4", mismatches=int(mismatches), checked=len(grid))

# %% tags=["hide-input", "remove-output"]
eps_line = np.linspace(0.25, 5, 40)
oracles = {"GRR": mech.GRR, "SUE": mech.SUE, "OUE": mech.OUE, "OLH": mech.OLH,
           "SS": mech.SubsetSelection}
variances = {kk: {n: np.array([var(*pq(F(kk, e))) for e in eps_line])
                  for n, F in oracles.items()}
             for kk in (8, 256)}
glue("foundations-oracles", figures.oracle_variances(eps_line, variances))

# %% [markdown]
# ```{glue:figure} foundations-oracles
# :name: fig-foundations-oracles
# :alt: Two panels of variance against epsilon on a log scale; at k = 8 GRR is lowest, at k = 256 OUE and OLH are lowest and GRR is far above.
#
# Approximate variance $n\,\mathrm{Var}[\hat f(v)]$ of the frequency oracles against ε, for
# $k = 8$ and $k = 256$.
# ```
#
# ## Simulating the reports
#
# Per-user sampling (`grr_perturb`, `ue_perturb`, `lh_perturb`, `ss_perturb`,
# `channels.sample_channel`) mirrors the protocol. When only the counts matter, the **count-level**
# simulators draw them directly (one multinomial per input value), equal in law and with a cost
# independent of $n$. We check both against the channel with a χ² test at a false-alarm rate of
# $10^{-6}$, on {glue:text}`foundations-n` users.

# %%
rng = rng_for(SEED, "sampling")
k, eps = 10, 1.0
theta = np.arange(k, 0, -1.0) ** 1.2
theta /= theta.sum()
x = rng.choice(k, size=N_USERS, p=theta)
true_counts = np.bincount(x, minlength=k)
expected = true_counts @ mech.grr_channel(k, eps)  # expected counts given the values
observed = [np.bincount(mech.grr_perturb(x, k, eps, rng=rng), minlength=k),
            channels.simulate_counts(mech.grr_channel(k, eps), true_counts, rng=rng)]
chi2 = [float(np.sum((o - expected) ** 2 / expected)) for o in observed]
report.holds("F5", chi2=chi2, crit=float(stats.chi2.isf(1e-6, df=k - 1)))

# %% [markdown]
# ## Estimators
#
# Matrix inversion (**INV**) solves $\hat\theta C = q$: unbiased, but it can leave the simplex;
# **INV-N** clips the negative entries and renormalises, **INV-P** projects on the simplex. The
# **iterative Bayesian update** (IBU) {cite}`agrawal2005privacy,elsalamouny2020generalized` is the
# EM algorithm for the maximum-likelihood estimate,
#
# $$ \theta^{t+1}_x = \sum_z q_z \frac{\theta^t_x C_{xz}}{\sum_u \theta^t_u C_{uz}} . $$ (eq-foundations-ibu)
#
# ```{prf:proposition} IBU is an ascent method
# :label: prop-foundations-ibu
#
# Each step {eq}`eq-foundations-ibu` keeps $\theta$ in the simplex and never decreases the
# log-likelihood $\ell(\theta) = \sum_z q_z \log(\theta C)_z$ (row F6 checks it on the run below).
# ```
#
# {numref}`fig-foundations-estimates` runs them on the geometric mechanism at ε = 0.5 over 30 values.

# %%
rng = rng_for(SEED, "estimators")
k, eps, n = 30, 0.5, SIZES["estimator_users"]
support = np.arange(k)
theta = (0.7 * stats.binom.pmf(support, k - 1, 0.3)
         + 0.3 * stats.binom.pmf(support, k - 1, 0.75))
C = mech.geometric_channel(k, eps)
counts = channels.simulate_counts(C, rng.multinomial(n, theta), rng=rng)
ibu = estimators.ibu(C, counts, tol=1e-10)
est = {"INV": estimators.inv_raw(C, counts),
       "INV-N": estimators.inv_normalized(C, counts),
       "INV-P": estimators.inv_projected(C, counts),
       "IBU": ibu.estimate}
report.holds("F6", min_step=float(np.diff(ibu.trace).min()))
report.close("F7", float(np.abs(estimators.inv_raw(C, theta @ C) - theta).max()))
report.holds("F8", sums=[est[m].sum() for m in ("INV-N", "INV-P", "IBU")],
             mins=[est[m].min() for m in ("INV-N", "INV-P", "IBU")])

# %% tags=["hide-input", "remove-output"]
glue("foundations-estimates", figures.estimates(theta, counts / n, est, ibu.trace))
glue("foundations-ibu-iter", f"{ibu.n_iter:,}", display=False)
glue("foundations-n-est", f"{n:,}", display=False)

# %% [markdown]
# ```{glue:figure} foundations-estimates
# :name: fig-foundations-estimates
# :alt: Left, a bimodal true distribution as grey bars with the noisy reports and four estimates; INV oscillates and goes negative, INV-N, INV-P and IBU stay close to the truth. Right, IBU's log-likelihood rising and flattening over iterations.
#
# Left: estimates of θ from $n =$ {glue:text}`foundations-n-est` geometric reports (ε = 0.5, 30
# values), with their EMD to the truth. Right: IBU's log-likelihood, which stops rising after
# {glue:text}`foundations-ibu-iter` iterations (tolerance $10^{-10}$).
# ```
#
# ## Earth mover's distance
#
# Between distributions on a metric space, the {term}`EMD` is the least cost of moving one onto the
# other, $\min_{\gamma \in \Pi(a,b)} \sum_{ij} \gamma_{ij} d_{ij}$, solved exactly with POT
# {cite}`flamary2021pot` (`measures.emd`).
#
# ```{prf:proposition} The EMD on a line
# :label: prop-foundations-emd-line
#
# On equally spaced points of a line (unit spacing), the EMD equals the $L_1$ distance between the
# cumulative distribution functions, $\sum_i |A_i - B_i|$ (`measures.emd_1d`; row F9).
# ```

# %%
line30 = np.abs(np.subtract.outer(support, support)).astype(float)
gaps = [measures.emd_1d(theta, est[m]) - measures.emd(theta, est[m], line30)
        for m in ("INV-N", "INV-P", "IBU")]
report.close("F9", max(abs(g) for g in gaps))

# %% [markdown]
# ## Information leaked by a channel
#
# The {term}`PIE` and PRIVIC chapters measure leakage by **mutual information** $I(X;Y)$ and by the
# **capacity** $\max_\pi I(X;Y)$ of the channel, computed with the Blahut-Arimoto algorithm
# {cite}`blahut1972computation,arimoto1972algorithm` (`measures.channel_capacity`). For k-RR the
# capacity is reached at the uniform input and is $\log k - H(C_{x\cdot})$ (row F10).
#
# ```{prf:proposition} Capacity of an LDP channel
# :label: prop-foundations-capacity
#
# The {term}`capacity` of an ε-LDP channel is at most $\min(\varepsilon, \varepsilon^2)$ nats,
# the bound used by the PIE paper (row F11, {numref}`fig-foundations-capacity`).
# ```

# %%
eps_line = np.linspace(0.05, 5, 40)
caps = {kk: np.array([measures.channel_capacity(mech.grr_channel(kk, e), unit="nats")[0]
                      for e in eps_line])
        for kk in (2, 8, 64)}
row_entropy = {kk: np.array([measures.entropy(mech.grr_channel(kk, e)[0], unit="nats")
                             for e in eps_line])
               for kk in caps}
closed = {kk: np.log(kk) - row_entropy[kk] for kk in caps}
report.close("F10", max(float(np.abs(caps[kk] - closed[kk]).max()) for kk in caps))
bound = np.minimum(eps_line, eps_line ** 2)
report.range("F11", max(float(np.max(c - bound)) for c in caps.values()))

# %% tags=["hide-input", "remove-output"]
glue("foundations-capacity", figures.capacities(eps_line, caps))

# %% [markdown]
# ```{glue:figure} foundations-capacity
# :name: fig-foundations-capacity
# :alt: Capacity curves of k-RR for k = 2, 8 and 64 rising with epsilon, all below the dashed curve min(ε, ε²).
#
# Capacity of k-RR (Blahut-Arimoto, nats) against ε for $k \in \{2, 8, 64\}$, under the LDP bound
# $\min(\varepsilon, \varepsilon^2)$.
# ```
#
# ## Summary
#
# * A mechanism is a **channel matrix** {eq}`eq-foundations-channel`; its privacy constant is
#   computed exactly from the matrix: ε-LDP ({prf:ref}`def-foundations-ldp`) for k-RR and the
#   frequency oracles, ε-geo-indistinguishability ({prf:ref}`def-foundations-geo`) for the metric
#   mechanisms, which are only $(k-1)\varepsilon$-LDP.
# * Among the frequency oracles, the variance {eq}`eq-foundations-fo` decides:
#   GRR for small alphabets, OUE or OLH for large ones ({prf:ref}`prop-foundations-grr-oue`).
# * INV is unbiased but leaves the simplex; INV-N and INV-P repair it; IBU
#   {eq}`eq-foundations-ibu` climbs the likelihood ({prf:ref}`prop-foundations-ibu`) and stays in
#   the simplex. The EMD scores an estimate by the distance the mass must travel.
# * Mutual information and capacity measure what a channel leaks, at most
#   $\min(\varepsilon, \varepsilon^2)$ nats under ε-LDP ({prf:ref}`prop-foundations-capacity`).
#
# **What's next.** Each paper chapter starts from these objects: {doc}`pie` bounds what a report
# leaks about its *user*; {doc}`lift` measures privacy by the {term}`lift`; {doc}`ibu` studies when
# IBU is consistent and how it compares with INV; {doc}`multidim_risks` attacks repeated
# multidimensional collections; {doc}`privic` builds mechanisms with Blahut–Arimoto; and
# {doc}`synthesis` puts every paper's lens on every paper's mechanisms.
#
# ## Exercises
#
# ```{exercise} When does GRR beat OUE?
# :label: ex-foundations-grr-oue
#
# For $k = 20$ values, find the budget ε at which GRR and OUE have the same approximate variance
# {eq}`eq-foundations-fo`, first from {prf:ref}`prop-foundations-grr-oue`, then numerically with
# the `var` and `pq` functions above. Which oracle would you deploy at ε = 1? At ε = 3?
# ```
#
# ```{solution-start} ex-foundations-grr-oue
# :class: dropdown
# ```
#
# The proposition says GRR wins exactly when $k < 3e^\varepsilon + 2$, so the crossing is at
# $\varepsilon^* = \ln((k-2)/3) = \ln 6 \approx 1.79$. Numerically:

# %%
from scipy.optimize import brentq

gap = lambda e: var(*pq(mech.GRR(20, e))) - var(*pq(mech.OUE(20, e)))  # noqa: E731
print(f"crossing at eps = {brentq(gap, 0.1, 5):.4f}; ln 6 = {np.log(6):.4f}")
print({e: "GRR" if gap(e) < 0 else "OUE" for e in (1.0, 3.0)})

# %% [markdown]
# OUE at ε = 1 (below the crossing), GRR at ε = 3.
#
# ```{solution-end}
# ```
#
# ```{exercise} Estimators at a smaller budget
# :label: ex-foundations-estimators
#
# Rerun the estimators of {numref}`fig-foundations-estimates` with ε = 0.25 instead of 0.5 (same
# distribution, same number of reports). Before running: which of INV-N and IBU do you expect to
# lose more accuracy (EMD to the truth), and why?
# ```
#
# ```{solution-start} ex-foundations-estimators
# :class: dropdown
# ```
#
# Halving ε flattens the geometric channel, so inverting it amplifies the sampling noise much more:
# INV-N, which inverts $C$ and then clips, should degrade more than IBU, which never leaves the
# simplex.

# %%
rng = rng_for(SEED, "exercise/estimators")
for e in (0.5, 0.25):
    C_e = mech.geometric_channel(k, e)
    c_e = channels.simulate_counts(C_e, rng.multinomial(n, theta), rng=rng)
    fits = {"INV-N": estimators.inv_normalized(C_e, c_e),
            "IBU": estimators.ibu(C_e, c_e, tol=1e-10).estimate}
    emds = {m: round(measures.emd_1d(theta, f), 3) for m, f in fits.items()}
    print(f"eps = {e}: EMD to the truth {emds}")

# %% [markdown]
# ```{solution-end}
# ```
#
# ```{exercise} The privacy constant of a metric mechanism
# :label: ex-foundations-geometric
#
# The truncated geometric channel on $k = 12$ values at ε = 1 is ε-geo-indistinguishable. What is
# its tight LDP constant (`channels.ldp_epsilon`)? Explain the value from
# {prf:ref}`def-foundations-ldp` and {prf:ref}`def-foundations-geo`.
# ```
#
# ```{solution-start} ex-foundations-geometric
# :class: dropdown
# ```

# %%
print(channels.ldp_epsilon(mech.geometric_channel(12, 1.0)))

# %% [markdown]
# The report at an end of the line collects the whole tail: $P(0 \mid x) = \alpha^x/(1+\alpha)$
# with $\alpha = e^{-\varepsilon}$, so the inputs 0 and 11 differ by exactly $e^{11\varepsilon}$
# there. Geo-indistinguishability allows it (they are $d = 11$ apart), but as LDP the channel is
# only $(k-1)\varepsilon = 11$-LDP.
#
# ```{solution-end}
# ```
#
# ## Reproduction report
#
# The foundations are textbook facts rather than a paper's claims: the rows check that the
# package's objects satisfy them exactly (or, for sampling, at a stated false-alarm rate).

# %%
report.finalize()
