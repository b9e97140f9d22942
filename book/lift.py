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
# # The lift, ALIP and lift-based privacy-utility trade-offs
#
# {glue:md}`lift-status`
#
# ## Overview
#
# **The question.** A data owner holds useful data $X$ correlated with a sensitive feature $S$
# through a **known** joint distribution $P_{SX}$, and publishes $Y$ through a channel $P_{Y|X}$, so
# that $S - X - Y$ is a Markov chain. How much of $X$ can be published when what an observer of $Y$
# learns about $S$ is measured by the **{term}`lift`**, the ratio of the posterior to the prior
# belief? This chapter reproduces *On the Lift, Related Privacy Measures, and Applications to
# Privacy-Utility Tradeoffs* by M. A. Zarrabian, N. Ding and P. Sadeghi {cite}`zarrabian2023lift`:
# asymmetric local information privacy ({term}`ALIP`), which bounds the two sides of the lift
# separately; the {term}`watchdog` mechanism with complete and subset merging; asymmetric optimal
# random response ({term}`AORR`) and its subset version (SRR); and the lift-based and lift-inverse
# measures of Sec. VI.
#
# **What we find.** The paper's experiments reproduce with its printed numbers, and its main
# orderings hold, except one left undecided at the paper's number of distributions (AORR's
# $\lambda$ ordering just after the crossover). Five printed bounds are false and are corrected here; Algorithm 1 as printed
# does not give the paper's Fig. 4; the watchdog's mean leakage exceeds its budget at moderate
# $\varepsilon$. Three statements of the paper's text do not survive a proof: AORR's number of
# vertices grows polynomially in $|\mathcal X|$, not exponentially; Algorithm 2's merge loop never
# merges anything; and ALIP implies $\ell_1$- and $\chi^2$-privacy only under a condition on the
# budgets. The summary at the end lists every result with its report row.
#
# **Prerequisites.** Mechanisms as channels, mutual information and the information a channel leaks,
# ε-{term}`LDP` and its privacy budget {term}`epsilon (ε)` ({doc}`foundations`); vertices and active
# constraints of a polytope and linear programming, at the level of a first course in optimisation.
#
# **The setting.** Privacy is measured through the lift
#
# ```{math}
# :label: eq-lift-lift
# l(s,y) = \frac{P_{S|Y}(s|y)}{P_S(s)}, \qquad
# \Psi(y) = \min_s l(s,y) \le 1 \le \Lambda(y) = \max_s l(s,y)
# ```
#
# (the paper's eqs. 1-2): $\Psi$ is the min-lift, $\Lambda$ the max-lift. Utility is the
# {term}`normalised mutual information <NMI>` $\mathrm{NMI} = I(X;Y)/H(X)$. Every mechanism is
# designed from $P_{SX}$ and evaluated *exactly*: there are no sampled users and no estimators.
# Logarithms are natural; budgets $\varepsilon$ and leakages are in nats.
#
# The paper has no dataset: every experiment draws random joint distributions with a generator it
# does not state. We draw $P_{SX}(s,x) = U_{s,x}/\sum U$ with $U_{s,x}$ iid Uniform(0, 1),
# $|\mathcal S| = 5$, $|\mathcal X| = 17$ ($15 \times 200$ for Fig. 6): the reading under which the
# three utilities the paper prints come out, and the same matrices for every curve and every
# $\varepsilon$. The toolkit code is in `ldpnb.measures.lift` (lifts, criteria, measures:
# {py:func}`~ldpnb.measures.lift_matrix`, {py:func}`~ldpnb.measures.is_alip`, ...),
# `ldpnb.mechanisms.watchdog` (complete and subset merging,
# {py:func}`~ldpnb.mechanisms.complete_merging`, {py:func}`~ldpnb.mechanisms.subset_merging`,
# and a repair the paper does not have) and `ldpnb.mechanisms.orr` (AORR and SRR:
# {py:class}`~ldpnb.mechanisms.orr.AORR`, {py:class}`~ldpnb.mechanisms.orr.SRR`); the chapter's
# experiments, claims and figures are in `ldpnb.papers.lift`.

# %% tags=["parameters", "remove-cell"]
SCALE = "book"  # "smoke" (seconds, tests) | "book" | "paper" (the paper's sizes)
SEED = 2024

# %% tags=["hide-input"]
import time

import numpy as np
import pandas as pd
from IPython.display import display

from ldpnb.measures import lift
from ldpnb.mechanisms import orr, watchdog
from ldpnb.papers.lift import CLAIMS, Curve, figures, theory
from ldpnb.papers.lift import experiments as ex
from ldpnb.papers.lift import grading as grade
from ldpnb.repro import Report, glue, rng_for
from ldpnb.repro.plotting import set_style
from ldpnb.repro.seeds import seed_for

set_style()
report = Report("lift", CLAIMS, scale=SCALE, seed=SEED)
SIZES = ex.SIZES[SCALE]
T0, CPU0 = time.perf_counter(), time.process_time()
counts = ("n_wd", "n_orr", "n_h3", "n_f5", "n_size", "n_alpha", "n6", "n_time", "reps",
          "props", "fig1_runs", "n_growth", "n_wide")
report.text(**{k: f"{SIZES[k]:,}" for k in counts}, backend=orr.vertex_backend(),
            nxmax=f"{max(SIZES['growth'])}",
            heldout=" and ".join(str(n) for n in SIZES["heldout"]))

# %% [markdown]
# ## Lift asymmetry (Fig. 1)
#
# On the raw data ($Y = X$) the min-lifts $\log\Psi(x)$ and the max-lifts $\log\Lambda(x)$ of random
# distributions live on very different scales ({numref}`fig-lift-1`): $\log\Lambda(x)$ is bounded
# by $\log(1/\min_s P_S(s))$, while $\log\Psi(x)$ has a long lower tail. The paper reads off its
# histogram of 1000 distributions the ranges $[-12, -0.06]$ and $[0.02, 1.64]$. An end point of a
# histogram is an extreme of 17,000 draws, so we compare it with the distribution of that extreme
# over {glue:text}`lift-fig1_runs` independent runs of 1000 distributions.

# %%
fig1 = theory.lift_asymmetry_samples(1000, 5, 17, rng=rng_for(SEED, "fig1"))
runs = theory.fig1_extremes(SIZES["fig1_runs"], 1000, rng=rng_for(SEED, "fig1/runs"))
report.record(grade.fig1(fig1, runs, rng=rng_for(SEED, "fig1/boot")))

# %% [markdown]
# Each printed end point lies inside the interval that holds the extreme of one more run with
# probability {glue:text}`lift-predlevel` (the smallest and largest of our runs, a prediction
# interval that assumes nothing about their distribution: lower end of $\log\Psi$
# {glue:text}`lift-q-psimin`, upper end {glue:text}`lift-q-psimax`; lower end of $\log\Lambda$
# {glue:text}`lift-q-lammin`, upper end {glue:text}`lift-q-lammax`). Are the four
# *together* what one run of our generator could give? A run's statistic is the largest distance
# of its four end points from their medians, each in units of its interquartile range; pooled with
# our runs, the paper's four values (their rounding counted in the paper's favour) get the p-value
# {glue:text}`lift-joint`, the share of runs at least as far out
# (<a href="#claim-lift-F1.joint">F1.joint</a>). The test rejects at $p < 0.01$, which would happen to a run
# of our own generator at most 1% of the time. That is all these data can say: not rejecting our
# generator does not show that the paper used it. The upper end 1.64 exceeds $\log 5 = 1.61$
# because the bound $\log(1/\min_s P_S(s))$ does in every run: $\min_s P_S(s) < 1/5$ unless $P_S$
# is uniform.

# %% tags=["hide-input", "remove-output"]
glue("lift-fig1", figures.fig1(fig1, 1000))

# %% [markdown]
# ```{glue:figure} lift-fig1
# :name: fig-lift-1
# :alt: Two overlapping histograms of log-lifts: the min-lift histogram spreads from about -11 to 0 with a low peak; the max-lift histogram is concentrated between 0 and 1.6 with a peak about three times higher.
#
# (Paper Fig. 1.) Histograms of $\log\Psi(x)$ and $\log\Lambda(x)$ on the raw data of 1000 random
# $P_{SX}$ ($|\mathcal X| = 17$, $|\mathcal S| = 5$; 0.05-wide bins). The probability of
# $|\log\Psi| \ge 6$ is {glue:text}`lift-tail` (mean over the distributions with its 95 %
# interval); the peak of $\log\Lambda$ is {glue:text}`lift-peaks` times that of $\log\Psi$ (95 %
# bootstrap interval).
# ```
#
# ## Privacy notions, measures and the propositions
#
# For all outputs $y$: $\varepsilon$-**LIP** (Def. 1) asks $e^{-\varepsilon} \le \Psi(y)$ and
# $\Lambda(y) \le e^{\varepsilon}$; $\varepsilon$-**LDP** with respect to $S$ (Def. 2) asks
# $\Gamma(y) = \max_{s,s'} P_{Y|S}(y|s)/P_{Y|S}(y|s') \le e^{\varepsilon}$, and eq. (4) writes
# $\Gamma = \Lambda/\Psi$; $(\varepsilon_l, \varepsilon_u)$-**ALIP** (Def. 3) bounds the two sides
# separately, $e^{-\varepsilon_l} \le \Psi(y)$ and $\Lambda(y) \le e^{\varepsilon_u}$. The
# experiments fix an LDP budget $\varepsilon$ and $\lambda \in (0,1)$, with
# $\varepsilon_l = \lambda\varepsilon$ and $\varepsilon_u = (1-\lambda)\varepsilon$; $\lambda = 0.5$
# is $(\varepsilon/2)$-LIP. The lift-based (Def. 5) and lift-inverse (Def. 6) measures average over
# $S$:
#
# ```{math}
# :label: eq-lift-measures
# \Lambda_{\ell_1}(y) &= \sum_s P_S(s)\,|l(s,y)-1|,\\
# \Lambda_{\chi^2}(y) &= \sum_s P_S(s)(l(s,y)-1)^2,\\
# \Lambda^S_\alpha(y) &= \Big(\sum_s P_S(s)\, l(s,y)^\alpha\Big)^{1/\alpha},
# ```
#
# and $\Psi_{\ell_1}, \Psi_{\chi^2}, \Psi^S_\alpha$ with $l$ replaced by $1/l$ (eqs. 27-32). Def. 5
# ties them to average measures: $T(S;Y) = \frac12 E_Y[\Lambda_{\ell_1}]$,
# $\chi^2(S;Y) = E_Y[\Lambda_{\chi^2}]$, and Sibson's $\alpha$-information
# $I_\alpha = \frac{\alpha}{\alpha-1}\log E_Y[\Lambda^S_\alpha]$. We check eq. (4) and these
# identities against the direct definitions, and every inequality of Propositions 1 and 3-6 at the
# tight budgets ($\varepsilon_u = \log\max\Lambda$, $\varepsilon_l = -\log\min\Psi$) of
# {glue:text}`lift-props` random mechanisms with extreme lifts.

# %%
ids = theory.identity_errors(SIZES["checks"], rng=rng_for(SEED, "ids"))
viol, n_inst = theory.proposition_violations(SIZES["props"], rng=rng_for(SEED, "props"))
report.record(grade.propositions(viol, n_inst))
display(figures.proposition_table(viol, n_inst))

# %% [markdown]
# ### Five bounds that are false as printed
#
# The proofs of Props. 1.2, 3.1-3.2 and 5.1-5.2 use $|l - 1| \le \Lambda - 1$, which fails when the
# min-lift is further from 1 than the max-lift ($1-\Psi > \Lambda - 1$). Two $3\times 3$
# counterexamples with uniform marginals show it exactly: **C1**, lift 1.2 off the diagonal and 0.6
# on it, and **C2**, lift 0.8 off the diagonal and 1.4 on it. The corrected statement:
#
# ```{prf:proposition} Props. 1.2, 3.1-3.2 and 5.1-5.2, corrected
# :label: prop-lift-corrected
#
# Let a mechanism be $(\varepsilon_l, \varepsilon_u)$-ALIP, and let
# $m = \max(e^{\varepsilon_u}-1,\,1-e^{-\varepsilon_l})$ and
# $m' = \max(e^{\varepsilon_l}-1,\,1-e^{-\varepsilon_u})$. Then $T(S;Y) \le m/2$,
# $\chi^2(S;Y) \le m^2$, $\max_y \Lambda_{\ell_1}(y) \le m$, $\max_y \Lambda_{\chi^2}(y) \le m^2$,
# $\max_y \Psi_{\ell_1}(y) \le m'$ and $\max_y \Psi_{\chi^2}(y) \le m'^2$. The printed bounds, with
# $e^{\varepsilon_u}-1$ in place of $m$ and $e^{\varepsilon_l}-1$ in place of $m'$, hold when
# $e^{\varepsilon_u}+e^{-\varepsilon_l} \ge 2$ (respectively $e^{\varepsilon_l}+e^{-\varepsilon_u}
# \ge 2$), in particular under LIP; C1 and C2 violate them.
# ```
#
# ```{prf:proof}
# Under ALIP every lift lies in $[e^{-\varepsilon_l}, e^{\varepsilon_u}]$, so $|l(s,y)-1| \le m$
# and $|1/l(s,y)-1| \le m'$. Averaging over $P_S$ gives the $\ell_1$ bounds; the $\chi^2$ ones
# follow from $\sum_s P_S(s)(l-1)^2 \le \max_s|l-1| \sum_s P_S(s)|l-1| \le m^2$, and $T$, $\chi^2$
# are $E_Y$ of the lift-based measures (Def. 5). When $e^{\varepsilon_u}+e^{-\varepsilon_l} \ge 2$,
# $m = e^{\varepsilon_u}-1$.
# ```
#
# Rows <a href="#claim-lift-P1.2">P1.2</a>, <a href="#claim-lift-P3.1-2">P3.1-2</a> and <a href="#claim-lift-P5.1-2">P5.1-2</a>
# record both: the printed bounds fail on the counterexamples and on random mechanisms, the
# corrected ones never.

# %%
C1, C2 = theory.counterexample_c1(), theory.counterexample_c2()
checks = {pid: theory.proposition_checks(C)
          for pid, C in (("P1.2", C1), ("P3.1-2", C1), ("P5.1-2", C2))}
report.record(grade.errata(viol, checks))

# %% [markdown]
# ## The watchdog mechanism
#
# The watchdog {cite}`hsu2019watchdogs,sadeghi2020watchdog` bi-partitions $\mathcal X$ into
# low-risk symbols, published unchanged, and the high-risk symbols $\mathcal X_H$ that fail the
# criterion symbol-wise (ALIP: $\Psi(x) < e^{-\varepsilon_l}$ or $\Lambda(x) > e^{\varepsilon_u}$,
# eq. 6; LDP: $\Gamma(x) > e^{\varepsilon}$, eq. 7). **Complete merging** publishes one super-symbol
# for all of $\mathcal X_H$, at a utility (eq. 11)
#
# ```{math}
# :label: eq-lift-merging
# I(X;Y) = H(X) - \sum_{x \in \mathcal X_H} P_X(x) \log\frac{P(\mathcal X_H)}{P_X(x)},
# ```
#
# and **subset merging** {cite}`zarrabian2022enhancing` merges each block of a partition of
# $\mathcal X_H$ separately (eq. 13, the sum of {eq}`eq-lift-merging` taken per block). Merging is
# the best one can do inside $\mathcal X_H$:
#
# ```{prf:theorem} Thm. 1 and Prop. 7 of the paper
# :label: thm-lift-merging
#
# Any randomisation confined to $\mathcal X_H$ leaks at least as much as merging $\mathcal X_H$:
# its largest $\Gamma(y)$ is at least $\Gamma(\mathcal X_H) = \max_{s,s'} P(\mathcal X_H|s)/
# P(\mathcal X_H|s')$, its largest lift at least $\Lambda(\mathcal X_H)$ and its smallest at most
# $\Psi(\mathcal X_H)$. An $(\varepsilon, \mathcal X_H)$-LDP randomisation exists if and only if
# $\Gamma(\mathcal X_H) \le e^{\varepsilon}$.
# ```
#
# We check it on random instances (<a href="#claim-lift-T1">T1</a>; <a href="#claim-lift-P7">P7</a>, both directions by
# linear programming), with the other analytic facts behind the sweeps: the closed forms equal
# $I(X;Y)$ of the explicit channel; a smaller $\mathcal X_H$ gives a higher utility (after
# eq. 11); a refinement of the partition does not lower it (Def. 4);
# $\mathcal X_H^{\rm LDP}(\varepsilon) \subseteq \mathcal X_H^{\rm ALIP}(\lambda\varepsilon,
# (1-\lambda)\varepsilon)$ (Prop. 2).

# %%
n = SIZES["checks"]
ac = theory.analytic_checks(n, rng=rng_for(SEED, "watchdog/analytic"))
mono = theory.eq11_nested(n, rng=rng_for(SEED, "watchdog/eq11"))
ref = theory.refinement_checks(n, rng=rng_for(SEED, "watchdog/refinement"))
p7 = theory.prop7_feasibility(n // 10, rng=rng_for(SEED, "watchdog/prop7"))
report.record(grade.watchdog(ac, mono, ref, p7, ids))

# %% [markdown]
# The strict inequality after eq. (11) has one exception, and it matters below: when
# $\mathcal X_H$ is a single symbol, merging it is the identity, and $I = I'$ for
# $\mathcal X_H' = \emptyset$ ({glue:text}`lift-singletons` such pairs in our check, all equal).
#
# ### One sweep for Figs. 2, 4, 7 and 8
#
# The watchdog curves of four figures, on the paper's 32-point grid
# $\varepsilon \in \{0.25, 0.5, \dots, 8\}$ and its {glue:text}`lift-n_wd` distributions, come from
# one sweep. `watchdog.merge_labels` runs complete merging or Algorithm 1 on all distributions at
# once (it returns the same partitions as `subset_merging` one distribution at a time, which the
# tests check); the curves include the printed risk score of Algorithm 1, the repair discussed
# below, the lift-based criteria without their lift-inverse bound, two more values of $\lambda$
# for complete merging, and complete merging under the criteria of Sec. VI.

# %%
J = ex.random_joints(SIZES["n_wd"], 5, 17, rng=rng_for(SEED, "joints"))
LAMS = (0.35, 0.5, 0.65)
curves = [Curve(f"{m} LDP", m.lower(), "ldp", None) for m in ("CM", "SM")]
curves += [Curve(f"{m} ALIP {lam}", m.lower(), "alip", lam)
           for m in ("CM", "SM") for lam in LAMS]
curves += [Curve(f"CM ALIP {lam}", "cm", "alip", lam) for lam in (0.2, 0.45)]
curves += [Curve(f"SM ALIP {lam} repaired", "sm", "alip", lam, repair="least_risky")
           for lam in LAMS]
curves += [Curve("SM LDP repaired", "sm", "ldp", None, repair="least_risky")]
curves += [Curve(f"SM {k} {lam}", "sm", k, lam)
           for k in ("l1", "chi2") for lam in (0.5, 0.65)]
curves += [Curve(f"SM alpha={a}", "sm", "alpha", 0.5, alpha=a) for a in (2, 10, 100)]
curves += [Curve(f"CM {k} 0.5", "cm", k, 0.5) for k in ("l1", "chi2")]
curves += [Curve("CM alpha=2", "cm", "alpha", 0.5, alpha=2)]
curves += [Curve(f"SM {k}-only 0.5", "sm", f"{k}-only", 0.5, alpha=a)
           for k, a in (("l1", None), ("chi2", None), ("alpha", 2))]
curves += [Curve("SM ALIP 0.5 printed omega", "sm", "alip", 0.5, risk="printed")]
wd = ex.watchdog_sweep(J, SIZES["eps_wd"], curves, seed=seed_for(SEED, "watchdog"))
S_wd = ex.summarise(wd)

# %% [markdown]
# ### Complete merging (Fig. 2)
#
# The paper reads three things off {numref}`fig-lift-2`: LDP gives a higher utility and a higher
# leakage than ALIP for every $\varepsilon$ and $\lambda$ (which is Prop. 2's inclusion of the
# high-risk sets, so it holds distribution by distribution); $\lambda = 0.65$, which relaxes the
# min-lift, enhances utility for $\varepsilon > 1$ while $\lambda = 0.35$ lowers it; and at
# $\lambda = 0.5$, $\varepsilon = 2$ the utility is 0.52 (ours: {glue:text}`lift-h1`). It
# generalises the last point: "any value of $\lambda < 0.5$ reduces utility", because the strict
# min-lift budget enlarges $\mathcal X_H$; we compare $\lambda \in \{0.2, 0.35, 0.45\}$ with 0.5,
# on the mean utility and on the mean $|\mathcal X_H|$ (<a href="#claim-lift-F2.lamXH">F2.lamXH</a>).
# The curves of 0.65 and 0.5 cross at $\varepsilon =$ {glue:text}`lift-cross2` (95 % bootstrap
# interval over the distributions).

# %%
report.record(grade.fig2(wd, rng=rng_for(SEED, "fig2/boot")))

# %% tags=["hide-input", "remove-output"]
glue("lift-fig2", figures.fig2(S_wd, SIZES["n_wd"]))

# %% [markdown]
# ```{glue:figure} lift-fig2
# :name: fig-lift-2
# :alt: Four panels against epsilon. Utility of complete merging rises from near 0 to 1, LDP highest, lambda 0.65 above 0.5 beyond epsilon 1, 0.35 lowest; the min- and max-lift leakage curves rise with epsilon near their dotted budget lines.
#
# (Paper Fig. 2.) The watchdog with complete merging under LDP and ALIP
# ($\lambda \in \{0.35, 0.5, 0.65\}$): (a) mean NMI, bands: 95 % intervals of the means (Hall's,
# pointwise), (b) mean min-lift
# and (c&#41; mean max-lift leakage, dotted: the budgets $\varepsilon_l$ and $\varepsilon_u$.
# {glue:text}`lift-n_wd` random $P_{SX}$ ($|\mathcal X| = 17$, $|\mathcal S| = 5$) on the 32-point
# grid, as in the paper.
# ```
#
# ## Asymmetric optimal random response (Fig. 3)
#
# AORR (eq. 12) maximises $I(X;Y)$ subject to ALIP. Parametrised backwards by the columns
# $v_y = P_{X|Y}(\cdot|y)$ and weights $\beta_y = P_Y(y)$, ALIP is linear in each column, and the
# feasible columns form the polytope of eq. (21),
#
# ```{math}
# :label: eq-lift-polytope
# \begin{gathered}
# \Pi = \Big\{ v \ge 0,\ \textstyle\sum_x v_x = 1,\\
# e^{-\varepsilon_l} P_S(s) \le \textstyle\sum_x
# P_{S|X}(s|x)\, v_x \le e^{\varepsilon_u} P_S(s)\ \forall s \Big\}.
# \end{gathered}
# ```
#
# $H(X|Y) = \sum_y \beta_y H(v_y)$ is concave in each column, so an optimum uses vertices only: with
# the vertices $v_1,\dots,v_M$ of $\Pi$ the problem is the linear programme (22)
#
# ```{math}
# :label: eq-lift-lp
# \min_{\beta \ge 0}\ \sum_{k=1}^M H(v_k)\,\beta_k \quad\text{subject to}\quad
# \sum_{k=1}^M \beta_k v_k = P_X,
# ```
#
# the optimal random response of {cite}`lopuhaa2021sanitisation` with asymmetric budgets. `orr`
# enumerates the vertices of {eq}`eq-lift-polytope` with Qhull {cite}`barber1996quickhull`
# ({glue:text}`lift-backend`; the tests compare it with pycddlib and with brute force) and solves
# {eq}`eq-lift-lp` with HiGHS. The sweep below builds AORR for three $\lambda$, SRR and subset
# merging (timed one by one, for Fig. 5) on the first {glue:text}`lift-n_orr` of the distributions
# above, at every $\varepsilon$ of the paper's grid.

# %%
Jo = J[: SIZES["n_orr"]]
orr_curves = [Curve(f"AORR ALIP {lam}", "aorr", "alip", lam) for lam in LAMS]
orr_curves += [Curve("SRR ALIP 0.65", "srr", "alip", 0.65),
               Curve("SM timed ALIP 0.65", "sm", "alip", 0.65)]
od = ex.put_sweep(Jo, SIZES["eps_orr"], orr_curves, seed=seed_for(SEED, "orr"))
same = wd[(wd.dist < SIZES["n_orr"]) & wd.eps.isin(SIZES["eps_orr"])]
od_all = pd.concat([od, same], ignore_index=True)
S_o = ex.summarise(od_all)

# %% [markdown]
# At $\lambda = 0.5$, $\varepsilon = 2$ the paper prints 0.94 for AORR against 0.52 for the watchdog
# (ours: {glue:text}`lift-h3`, the mean over {glue:text}`lift-n_h3` distributions with its 95 %
# interval: Fig. 3's 100 would leave the comparison with 0.94 undecided). AORR is optimal, so its min-lift constraint binds wherever the raw
# data violate $\varepsilon_l$, and its max-lift leakage is $\varepsilon_u$ until it saturates at the
# raw data's largest log-lift (each output's posterior mixes the raw posteriors): "the highest
# leakage subject to privacy constraints", higher than the watchdog's wherever the watchdog meets its
# budget.
#
# The watchdog comparison uses the $\varepsilon$ at which complete merging meets its budget on every
# distribution (above them merging leaks more than its budget allows, and may beat AORR's utility
# by doing so).
#
# As $\varepsilon \to 0$ AORR's utility does not vanish: it tends to the best *perfectly private*
# mechanism, whose outputs all have $P_{S|Y}(\cdot|y) = P_S$. With $|\mathcal X| = 17 > |\mathcal S|
# = 5$ such columns are plentiful (perfect obfuscation, {cite}`razeghi2020perfect`): their mean
# utility is {glue:text}`lift-perfect`, and AORR at $\varepsilon = 0.25$ stays above it on every
# distribution.

# %%
perfect = np.array([lift.nmi(P.sum(0), orr.perfect_privacy_response(P).channel)
                    for P in Jo])
h3 = ex.put_sweep(J[: SIZES["n_h3"]], [2.0], orr_curves[1:2], seed=seed_for(SEED, "h3"))
numbers = grade.fig3(od, od_all, Jo, perfect, h3.nmi, rng=rng_for(SEED, "fig3/boot"))
report.record(numbers)

# %% tags=["hide-input", "remove-output"]
glue("lift-fig3", figures.fig3(S_o, SIZES["n_orr"]))

# %% [markdown]
# ```{glue:figure} lift-fig3
# :name: fig-lift-3
# :alt: Four panels against epsilon for AORR with lambda 0.35, 0.5, 0.65. Utility starts near 0.69 and rises to 1; min-lift leakage follows its dotted budget up to about epsilon 4 and then levels off; max-lift leakage follows its budget until it saturates below 1.
#
# (Paper Fig. 3.) AORR for $\lambda \in \{0.35, 0.5, 0.65\}$: (a) NMI, (b) min-lift and (c&#41;
# max-lift leakage, budgets dotted. {glue:text}`lift-n_orr` random $P_{SX}$ (the paper's number) on
# the 32-point grid; the same distributions as the first {glue:text}`lift-n_orr` of Fig. 2.
# ```
#
# Fig. 3(a)'s $\lambda$ ordering (<a href="#claim-lift-F3.lam">F3.lam</a>) is left *undecided* on
# the paper's {glue:text}`lift-n_orr` distributions: the smallest paired difference,
# {glue:text}`lift-f3lam` NMI (99 % interval, simultaneous over the row's differences), reaches
# below minus the 0.001-NMI tie at {glue:text}`lift-f3lamat`, one grid step after the crossover
# (<a href="#claim-lift-F3.cross">F3.cross</a>), where the two curves are close by construction. The
# row gives the number of distributions that would decide it; AORR at three $\lambda$ on that many
# more does not fit the chapter's time budget, so the row stays undecided.
#
# ## Subset merging (Algorithm 1, Fig. 4)
#
# Algorithm 1 partitions $\mathcal X_H$ greedily: seed a block with the riskiest remaining symbol,
# add the symbol that makes the block least risky until the merged block satisfies the criterion,
# then merge the last block with others while it does not. Two details of the printed algorithm do
# not reproduce the paper's own Fig. 4, so we implement a corrected reading and run the printed one
# beside it ({numref}`fig-lift-alg1`):
#
# ```text
# As printed                                        | As implemented (watchdog.subset_merging)
# omega(x) = Lambda(x) + Psi(x)          (ALIP)     | omega = Lambda + 1/Psi   (grows with both leakages)
# 4: while (Psi(X_Q) < e^-el or Lambda(X_Q) > e^eu) | 4: while X_Q is non-empty
#          and |X_Q| > 0                            |
# 5-8: seed with argmax omega, add argmin omega(X_g u {x}) while X_g violates   | same (ties: lowest index)
# 13-14: while X_g violates and |G| > 1, merge the block i* minimising omega    | same
# ```
#
# With the printed outer loop the algorithm stops as soon as the merged remainder is private, which
# is almost always at once: the result is complete merging. With the printed $\omega$ the greedy step
# *prefers* symbols with a small min-lift. At $\lambda = 0.5$, $\varepsilon = 2$:
# {glue:text}`lift-a1`.

# %%
crit2 = lift.ALIP(*lift.alip_budgets(2.0, 0.5))
printed = watchdog.merge_labels(J, crit2, outer_loop="printed")
loop = watchdog.merging_performance(J, printed)["nmi"]

# %% [markdown]
# Algorithm 1 is a heuristic for a combinatorial problem (Sec. IV). The loss of eq. (13) is additive
# over blocks, so the best partition into private blocks is a minimum-cost set partition, which
# `watchdog.optimal_partition` finds by dynamic programming over the subsets of $\mathcal X_H$ when
# $|\mathcal X_H| \le 9$; it is never worse than the greedy partition, by {glue:text}`lift-optgap` NMI
# on average.

# %%
def optimal_gap(P, crit):
    """NMI of the optimal partition minus that of Algorithm 1 (None if |X_H| > 9)."""
    if not 2 <= len(watchdog.watchdog_partition(P, crit)[1]) <= 9:
        return None
    opt = watchdog.optimal_partition(P, crit)
    mi = [m.mutual_information(P.sum(0), unit="nats") if m else None
          for m in (opt, watchdog.subset_merging(P, crit))]
    if opt is None:
        return None
    return (mi[0] - mi[1]) / lift.entropy(P.sum(0), unit="nats")


gaps = [optimal_gap(P, lift.ALIP(*lift.alip_budgets(e, 0.5))) for P in J[:100]
        for e in (1.0, 2.0, 3.0)]
gaps = [g for g in gaps if g is not None]
report.record(grade.algorithm1(wd, loop, gaps))

# %% [markdown]
# Fig. 4 then compares subset merging with complete merging: "the utility has been enhanced
# significantly for both LDP and ALIP in all scenarios", at $\lambda = 0.5$, $\varepsilon = 2$
# "around 0.83" (ours: {glue:text}`lift-h2`), "almost 60%" above complete merging (ours:
# {glue:text}`lift-h2ratio`, 95 % interval), with LDP above ALIP as in Fig. 2 (on the means:
# distribution by distribution subset merging is not monotone in $\mathcal X_H$, and ALIP beats
# LDP on {glue:text}`lift-p2exc` of the pairs).

# %%
report.record(grade.fig4(wd, rng=rng_for(SEED, "fig4/boot")))

# %% tags=["hide-input", "remove-output"]
glue("lift-alg1", figures.algorithm1(S_wd, SIZES["n_wd"]))
glue("lift-fig4", figures.fig4(S_wd, SIZES["n_wd"]))

# %% [markdown]
# ```{glue:figure} lift-alg1
# :name: fig-lift-alg1
# :alt: Two panels against epsilon. The corrected Algorithm 1 has the highest utility; the printed risk score gives a lower curve, and complete merging, which the printed outer loop returns, the lowest. Min-lift leakages of all three lie near the budget line.
#
# Algorithm 1 as implemented against its printed risk score, and complete merging (what the printed
# outer loop returns): (a) NMI, (b) min-lift leakage, $\lambda = 0.5$. {glue:text}`lift-n_wd`
# random $P_{SX}$, 32 values of $\varepsilon$.
# ```
#
# ```{glue:figure} lift-fig4
# :name: fig-lift-4
# :alt: Four panels against epsilon for subset merging. Utility is much higher than in Fig. 2 (about 0.83 at epsilon 2 for lambda 0.5); leakage curves rise near their dotted budgets, the min-lift ones crossing above them between epsilon 4 and 7.
#
# (Paper Fig. 4.) The watchdog with subset merging (Algorithm 1) under LDP and ALIP: (a) NMI, (b)
# min-lift and (c&#41; max-lift leakage, budgets dotted. {glue:text}`lift-n_wd` random $P_{SX}$ on the
# 32-point grid, as in the paper.
# ```
#
# ## "Privacy constraints have been satisfied in all cases"
#
# The paper says so of Figs. 4(b) and 4(c&#41;. We grade the sentence on what the figures plot, the mean
# leakages: each of the 224 points (three $\lambda$, two panels, 32 $\varepsilon$, and the LDP
# curve's $\Gamma$-leakage against $\varepsilon$) gets a 99 % interval of its mean excess over the
# budget, simultaneous over the points, and the sentence holds if every interval lies below
# 0.01 nats (a mechanism that binds sits on its line). It does not: {glue:text}`lift-above4` points
# are decided above, the worst {glue:text}`lift-worst4`. The same holds for complete merging in
# Fig. 2, for the reason below.
#
# The cause is visible distribution by distribution ({numref}`fig-lift-repair`, left).
#
# ```{prf:lemma} A union of private blocks is private
# :label: lem-lift-union
#
# The lift of a merged block $A$, $l(s, A) = P(A|s)/P(A) = \sum_{x \in A} \frac{P_X(x)}{P(A)}\,
# l(s, x)$, is a $P_X$-weighted average of its members' lifts. Hence if $A$ and $B$ are disjoint
# and both satisfy ALIP (or LDP), so does $A \cup B$, whose lift averages those of $A$ and $B$.
# Algorithm 1 therefore returns either blocks that all satisfy the criterion, or the single block
# $\mathcal X_H$ (its last block is merged with others while it violates the criterion).
# ```
#
# So Algorithm 1 leaves a violation only when all of $\mathcal X_H$ merged still violates the
# budget; then it returns the single block $\mathcal X_H$, that is complete merging, and no
# randomisation confined to $\mathcal X_H$ can do better ({prf:ref}`thm-lift-merging`); complete
# and subset merging violate on exactly the same distributions (<a href="#claim-lift-F4.same">F4.same</a>). This happens in up to
# {glue:text}`lift-maxrate` of the distributions at moderate $\varepsilon$ and never for
# $\varepsilon \le 2$ at $\lambda = 0.5$; in {glue:text}`lift-single` of these cases $\mathcal X_H$ is
# a single symbol, which merging leaves as it is (the equality case of eq. 11).

# %%
report.record(grade.leakage(wd, S_wd))

# %% [markdown]
# **A repair (not in the paper).** The natural fix is to let the violating block absorb low-risk
# symbols: `subset_merging(..., repair="least_risky")` merges it with the least risky low-risk symbol
# (smallest $\omega(\{x\})$), again while it still violates; merging all of $\mathcal X$ gives lift 1,
# so this always ends with a private mechanism. Measured on the same distributions: no distribution
# stays above its budget, no mean point lies above its line, and the cost in utility is at most
# {glue:text}`lift-fixcost` NMI on a mean curve ({numref}`fig-lift-repair`, right).

# %% tags=["hide-input", "remove-output"]
shown = [f"SM ALIP {lam}{r}" for lam in LAMS for r in ("", " repaired")]
_, excess = ex.budget_estimate(wd, {c: float(c.split()[2]) for c in shown},
                               sides=("min_leak",))
glue("lift-repair", figures.repair(S_wd, excess, SIZES["n_wd"]))

# %% [markdown]
# ```{glue:figure} lift-repair
# :name: fig-lift-repair
# :alt: Left, the percentage of distributions above budget against epsilon for subset merging, zero up to epsilon 2 and rising to 25-45 percent between epsilon 3 and 6; dashed repaired curves stay at zero. Right, mean min-lift excess over the budget with 99 percent interval bars, positive for several epsilon between 4 and 7 for Algorithm 1 and negative everywhere after the repair.
#
# The watchdog above its budget (not plotted in the paper): (a) share of distributions whose
# subset-merging mechanism exceeds its ALIP (or LDP) budget, (b) mean min-lift leakage minus
# $\varepsilon_l$ with 99 % intervals (Hall's, simultaneous over the points). Dashed: with the repair,
# which absorbed a single low-risk symbol in
# {glue:text}`lift-absorbed` of the repaired cases. {glue:text}`lift-n_wd` random $P_{SX}$, 32 values
# of $\varepsilon$.
# ```
#
# ## Subset random response (Algorithm 2, Fig. 5)
#
# SRR runs the AORR linear programme on each block of Algorithm 1's partition (low-risk symbols are
# published as they are), so its cost is driven by the largest block instead of $|\mathcal X|$.
# When all of $\mathcal X_H$ merged still violates ALIP no randomisation confined to
# $\mathcal X_H$ is private ({prf:ref}`thm-lift-merging`), and SRR falls back to subset merging: it
# does so in up to {glue:text}`lift-fallback` of the distributions, and on those it leaks above
# its budget.
#
# Algorithm 2 also has a while loop (lines 7-14) that merges a block with the other blocks while
# its polytope {eq}`eq-lift-polytope` is empty, "since we reduce the dimension of the original
# polytope … it increases the possibility that no feasible random response exists". On the blocks
# Algorithm 1 returns, this cannot happen:
#
# ```{prf:proposition} Algorithm 2's merge loop never merges
# :label: prop-lift-merge-loop
#
# On the partition returned by Algorithm 1 (ALIP criterion), the while loop of Algorithm 2 performs
# no merge, whether a block $\mathcal X_i$ is tested by $\Pi(\mathcal X_i) \ne \emptyset$ (as
# printed) or by the feasibility of LP {eq}`eq-lift-lp` on $\mathcal X_i$.
# ```
#
# ```{prf:proof}
# By {prf:ref}`lem-lift-union`, Algorithm 1 returns either the single block $\mathcal X_H$, which
# has no other block to merge with, or blocks that all satisfy ALIP. For such a block $A$ the
# column $v = P_X|_A / P(A)$ has lifts $l(s, v) = l(s, A) \in [e^{-\varepsilon_l},
# e^{\varepsilon_u}]$, so $v \in \Pi(A)$, and $\beta = P(A)$ on this one column solves the
# constraints of LP {eq}`eq-lift-lp` with right-hand side $P_X|_A$. Both tests pass on every
# block, and the loop body never runs.
# ```
#
# We count the merges (<a href="#claim-lift-A2.merge">A2.merge</a>) as the blocks of Algorithm 1 minus those
# SRR ends with: with the LP test (the toolkit's default) on every SRR of Figs. 5 and 6, and with
# the printed test on the first {glue:text}`lift-n_time` distributions at three $\lambda$ and
# every $\varepsilon$. SRR is therefore "AORR on each block of Algorithm 1, or fall back".

# %%
f5 = ex.put_sweep(J[SIZES["n_orr"] : SIZES["n_f5"]], SIZES["eps_orr"], orr_curves[3:],
                  seed=seed_for(SEED, "f5"))
leak = pd.concat([od, f5.assign(dist=f5.dist + SIZES["n_orr"])], ignore_index=True)
numbers = grade.fig5(od, od_all, leak=leak, rng=rng_for(SEED, "fig5/boot"))
report.record(numbers)
lams = [0.35, 0.5, 0.65]
printed = theory.algorithm2_merges(Jo[: SIZES["n_time"]], SIZES["eps_orr"], lams,
                                   feasibility="printed", seed=seed_for(SEED, "alg2"))

# %% [markdown]
# In Fig. 5(a) the paper finds SRR's utility "very close to AORR". Per $\varepsilon$ we compare
# the paired mean NMI difference AORR − SRR with 0.02 NMI, about the width of a line on the
# figure's axis (<a href="#claim-lift-F5.close">F5.close</a>): the largest difference is
# {glue:text}`lift-closeworst` (99 % interval, simultaneous over $\varepsilon$), although SRR
# always recovers at least {glue:text}`lift-sharemin` of the gap from subset merging to AORR.
#
# The paper's Fig. 5(d) plots processing times, and Sec. V-B reads from it that AORR and SRR are
# much slower than subset merging. Here AORR is at least ten times slower at every $\varepsilon$,
# but SRR is not where its blocks are tiny and its random response is nearly trivial
# (<a href="#claim-lift-F5.time">F5.time</a>; this run: {glue:text}`lift-ftime` slower, ratios of
# the median times per $\varepsilon$ with bootstrap intervals; SRR less than ten times slower at
# $\varepsilon =$ {glue:text}`lift-srrbelow`,
# where its median largest block has at most {glue:text}`lift-belowblock` symbols).
# Sec. V-B also reads that SRR is faster than AORR for $\varepsilon < 1$ and
# $\varepsilon > 2.5$ and slower in between. Times depend on the implementation: here every AORR
# is one Qhull enumeration and one LP, every SRR one Algorithm 1 and one enumeration and LP per
# block. We time both on
# {glue:text}`lift-n_time` distributions at every $\varepsilon$ (CPU time of the process, which a
# busy machine inflates far less than wall time), each {glue:text}`lift-reps` times alternately,
# and keep the medians; per $\varepsilon$ the median over distributions of the ratio
# $t_{SRR}/t_{AORR}$, with a distribution-free interval (order statistics, 99 % simultaneous over
# $\varepsilon$), says "slower", "faster" or "tie" ({numref}`fig-lift-timing`).

# %%
tim = ex.paired_timings(Jo[: SIZES["n_time"]], SIZES["eps_time"], repeats=SIZES["reps"],
                       seed=seed_for(SEED, "timing"))
tab, cross, medians = ex.timing_verdicts(tim)
report.record(grade.timing(tab, cross, medians, orr.vertex_backend()))

# %% tags=["hide-input", "remove-output"]
med = od.groupby(["curve", "eps"]).time.median().unstack(0)
glue("lift-fig5", figures.fig5(S_o, {c: med[c] for c in med}, SIZES["n_orr"]))
glue("lift-timing", figures.timing(tab, backend=orr.vertex_backend(),
                                   n_dist=SIZES["n_time"], repeats=SIZES["reps"]))

# %% [markdown]
# ```{glue:figure} lift-fig5
# :name: fig-lift-5
# :alt: Four panels against epsilon: AORR has the highest utility, SRR close below except at the smallest epsilon, subset merging lower; SRR's min-lift leakage rises above its dotted budget between epsilon 3 and 6; panel d shows median construction times on a linear axis, AORR largest at small epsilon, subset merging near zero.
#
# (Paper Fig. 5.) AORR, SRR (Algorithm 2) and subset merging at $\lambda = 0.65$: (a) NMI, (b)
# min-lift and (c&#41; max-lift leakage, budgets dotted, (d) median construction time per mechanism
# (CPU seconds) on a linear axis as in the paper (one process, {glue:text}`lift-backend`; the
# paper's times come from another implementation and are not comparable in absolute value).
# {glue:text}`lift-n_orr` random $P_{SX}$ (the paper's number), 32 values of $\varepsilon$.
# ```
#
# ```{glue:figure} lift-timing
# :name: fig-lift-timing
# :alt: Median time ratio of SRR over AORR against epsilon on a log axis with 99 percent error bars; the ratio stays below 1 at every epsilon, far below it at small and at large epsilon and closest to 1 near epsilon 2, inside the shaded window from 1 to 2.5 where the paper finds SRR slower.
#
# SRR against AORR (Sec. V-B): median over {glue:text}`lift-n_time` distributions of the ratio of
# their construction times (each the median of {glue:text}`lift-reps` alternated runs), with
# order-statistic intervals of the medians, 99 % simultaneous over $\varepsilon$; shaded: the
# paper's "SRR slower" window. Backend: {glue:text}`lift-backend`.
# ```
#
# With our implementation SRR is slower at {glue:text}`lift-verdicts` (crossings of 1 by the median
# ratio: {glue:text}`lift-cross`; the paper: between 0.75 and 1, and between 2.5 and 2.75). The
# ratio is highest inside the paper's window, where AORR's polytope has only a few hundred vertices
# and one Qhull call is cheap while SRR runs Algorithm 1 and then one enumeration and one small LP
# per block. Whether SRR is slower there depends on these fixed costs, which are choices of an
# implementation, not on the methods' complexity (next section).
#
# ### Complexity (Secs. III-A2, V-A)
#
# The paper states that the number of vertices of AORR's polytope "grows exponentially in the
# dimension of the polyhedron, which is … $(|\mathcal X|-1)$ for LIP" (Sec. III-A2), and that
# $n \sim O(e^{|\mathcal X|-1})$ with time $O(n)$, while SRR costs $O(\max_i n_i)$ over its blocks
# (Sec. V-A). For a fixed number of secrets the growth is polynomial:
#
# ```{prf:proposition} Support of a vertex
# :label: prop-lift-support
#
# Every vertex of $\Pi$ {eq}`eq-lift-polytope` has at most $|\mathcal S|$ non-zero entries. Hence
# $\Pi$ has at most $3^{|\mathcal S|} \sum_{k=1}^{|\mathcal S|} \binom{|\mathcal X|}{k}$ vertices, a
# polynomial of degree $|\mathcal S|$ in $|\mathcal X|$.
# ```
#
# ```{prf:proof}
# A vertex $v$ is the unique solution of the constraints active at $v$, among which
# $|\mathcal X|$ are linearly independent. Apart from $v_x \ge 0$, every constraint is a row of
# $P_{S|X}$ (a lift bound) or $\mathbf 1^\top = \sum_s P_{S|X}(s|\cdot)$; all lie in the row space
# of $P_{S|X}$, of dimension at most $|\mathcal S|$. So at least $|\mathcal X| - |\mathcal S|$ of
# the independent active constraints are $v_x = 0$. Given its support $T$ ($|T| \le |\mathcal S|$),
# $v$ is fixed by which side of each lift bound is active (upper, lower or neither, as
# $e^{-\varepsilon_l} < e^{\varepsilon_u}$): at most $3^{|\mathcal S|}$ vertices per support.
# ```
#
# At $|\mathcal S| = 5$ the bound is {glue:text}`lift-b200` at $|\mathcal X| = 200$. We count AORR's
# vertices for $|\mathcal X|$ from 6 up to {glue:text}`lift-nxmax` ({glue:text}`lift-n_growth`
# distributions per size, $\lambda = 0.5$), fit an exponential law and a power law to the median
# counts, and compare their predictions at the held-out sizes {glue:text}`lift-heldout`
# (<a href="#claim-lift-V-A.vert">V-A.vert</a>); every enumerated polytope is checked against
# {prf:ref}`prop-lift-support` (<a href="#claim-lift-V-A.bound">V-A.bound</a>), including those of AORR at
# $|\mathcal X| = 20$, $|\mathcal S| = 15$ used for Fig. 6 below. SRR's enumerated vertices and times
# come from the Fig. 5 runs ({numref}`fig-lift-complexity`).

# %%
eps3 = [0.5, 1.0, 2.0]
grow = ex.aorr_growth(SIZES["growth"], eps3, n_dist=SIZES["n_growth"],
                      seed=seed_for(SEED, "growth"))
held = ex.vertex_counts(SIZES["heldout"], eps3, n_dist=SIZES["n_growth"],
                        seed=seed_for(SEED, "growth/heldout"))
wide = ex.vertex_counts([20], SIZES["eps6"], n_dist=SIZES["n_wide"], n_s=15,
                        seed=seed_for(SEED, "growth/wide"))
srr = od[(od.curve == "SRR ALIP 0.65") & ~od.fallback & (od.largest_block > 0)]
blocks = srr.groupby("largest_block")
by_block = blocks[["n_vertices", "time"]].median()[blocks.size() >= 20]
numbers = grade.complexity(grow, held, srr, wide, rng=rng_for(SEED, "growth/boot"))
report.record(numbers)
display(figures.growth_table(ex.growth_laws(grow, held)))

# %% tags=["hide-input", "remove-output"]
glue("lift-complexity", figures.complexity(grow, held, by_block))

# %% [markdown]
# ```{glue:figure} lift-complexity
# :name: fig-lift-complexity
# :alt: Left, AORR's median vertex count against the alphabet size on a log axis for three epsilon, with dashed exponential and dotted power-law fits; at the two held-out sizes the measured counts lie near the power-law fits and well below the exponential ones. Right, the vertices SRR enumerates and its CPU time against its largest block, both rising with the block size.
#
# Complexity (Secs. III-A2, V-A): (a) median number of AORR vertices against $|\mathcal X|$
# ($|\mathcal S| = 5$, $\lambda = 0.5$, {glue:text}`lift-n_growth` random $P_{SX}$ per size; bars:
# 95 % order-statistic intervals of the medians), with
# the exponential (dashed) and power-law (dotted) fits to the filled points, extended to the
# held-out sizes (open circles); (b) median number of vertices SRR enumerates (solid) and its
# median CPU time (dashed, right axis) against its largest block, over the Fig. 5 runs without
# fall-back (sizes with at least 20 runs).
# ```
#
# Fitted on the smaller sizes, the exponential law grows by {glue:text}`lift-growth` per symbol
# ($\varepsilon$ = 0.5, 1, 2) and the power law has exponents {glue:text}`lift-exponent`. At
# $|\mathcal X| =$ {glue:text}`lift-bignx`: {glue:text}`lift-big`. The mean absolute $\log_{10}$
# error at the held-out sizes is {glue:text}`lift-vert_errs` (exponential against power law; the
# difference with its 95 % bootstrap interval, resampling the distributions of each size,
# {glue:text}`lift-vert_diff`). All
# {glue:text}`lift-polytopes` enumerated polytopes obey {prf:ref}`prop-lift-support`. Read as a
# rate, "grows exponentially" does not hold for a fixed $|\mathcal S|$; $O(e^{|\mathcal X|-1})$
# holds only as a loose bound, and so does any argument that rests on it. SRR's median CPU time
# grows by about {glue:text}`lift-srrtime` per symbol of its largest block
# (<a href="#claim-lift-V-A.srr">V-A.srr</a>, Sec. V-A's $O(\max_i n_i)$ read in time, as the
# paper states it), its enumerated vertices by about {glue:text}`lift-srrgrowth`: the time grows
# more slowly, because at these sizes Algorithm 1 and the fixed costs per block weigh as much as
# the enumeration.
#
# ## Scale: $|\mathcal X| = 200$, $|\mathcal S| = 15$ (Fig. 6)
#
# Sec. V promises that SRR makes "random response … applicable for typically an order of magnitude
# larger $\mathcal X$", and Fig. 6 runs it at $|\mathcal X| = 200$, $|\mathcal S| = 15$. The paper
# does not state how many distributions Fig. 6 averages; we use {glue:text}`lift-n6` at `book`
# scale (100 at `paper` scale) on its grid $\varepsilon \in \{1, 1.25, \dots, 8\}$,
# $\lambda = 0.5$. We read "applicable" with the paper's own measure of complexity, the number of
# vertices enumerated: at $|\mathcal X| = 200$ SRR should enumerate no more than AORR at the
# $|\mathcal X| = 17$ at which the paper runs it (<a href="#claim-lift-F6.run">F6.run</a>), nor more than AORR
# at $|\mathcal X| = 20$ with the same $|\mathcal S| = 15$ (<a href="#claim-lift-V.scale">V.scale</a>).

# %%
J6 = ex.random_joints(SIZES["n6"], 15, 200, rng=rng_for(SEED, "fig6"))
curves6 = [Curve("SRR ALIP 0.5", "srr", "alip", 0.5),
           Curve("SM ALIP 0.5", "sm", "alip", 0.5)]
d6 = ex.put_sweep(J6, SIZES["eps6"], curves6, seed=seed_for(SEED, "fig6"))
report.record(grade.fig6(d6, od, wide, rng=rng_for(SEED, "fig6/boot")))
report.record(grade.algorithm2(od, d6, printed))

# %% tags=["hide-input", "remove-output"]
glue("lift-fig6", figures.fig6(ex.summarise(d6), SIZES["n6"]))

# %% [markdown]
# ```{glue:figure} lift-fig6
# :name: fig-lift-6
# :alt: Four panels against epsilon from 1 to 8 at 200 symbols: SRR's utility lies above subset merging's, both above 0.8; both min-lift leakages lie on their dotted budget line; the max-lift leakages lie below their budget.
#
# (Paper Fig. 6.) SRR and subset merging at $|\mathcal X| = 200$, $|\mathcal S| = 15$,
# $\lambda = 0.5$: (a) NMI, (b) min-lift and (c&#41; max-lift leakage, budgets dotted.
# {glue:text}`lift-n6` random $P_{SX}$ (the paper does not state its number), 29 values of
# $\varepsilon$.
# ```
#
# At $|\mathcal X| = 200$ SRR enumerates at most {glue:text}`lift-srr200` vertices (median over
# distributions, largest over $\varepsilon$), against {glue:text}`lift-aorr17` for AORR at
# $|\mathcal X| = 17$ in Fig. 3 and {glue:text}`lift-aorr20` for AORR at $|\mathcal X| = 20$,
# $|\mathcal S| = 15$ (ratios {glue:text}`lift-run` and {glue:text}`lift-scale`, 95 % bootstrap
# intervals); its largest median time is {glue:text}`lift-t200`. Fig. 6's caption also
# announces a comparison of "time complexity", but the figure has no time panel. Algorithm 2's
# loop merged {glue:text}`lift-merges` blocks in {glue:text}`lift-a2inst` runs of SRR, of which
# {glue:text}`lift-a2multi` had at least two blocks to merge ({prf:ref}`prop-lift-merge-loop`).
#
# ## Lift-based and lift-inverse measures (Figs. 7, 8)
#
# Prop. 4 shows that the lift-based measures of earlier work ({cite}`zamani2022disclosure`,
# {cite}`zamani2021chi2`, {cite}`ding2021alpha`) bound the max-lift only. On the Fig. 7 set-up,
# subset merging under a lift-based bound alone leaves the mean min-lift leakage far above
# $\varepsilon_l$ at every $0.5 \le \varepsilon \le 4$ (by {glue:text}`lift-d6` at
# $\varepsilon = 1$); adding the lift-inverse bound (Def. 6) brings it down. The watchdog then uses
# $\ell_1$-privacy ($\Lambda_{\ell_1} \le e^{\varepsilon_u}-1$, $\Psi_{\ell_1} \le
# e^{\varepsilon_l}-1$), $\chi^2$-privacy (the squares) and $\alpha$-lift privacy
# ($\Lambda^S_\alpha \le e^{\varepsilon_u}$, $\Psi^S_\alpha \le e^{\varepsilon_l}$, eq. 33), with
# $\omega = \Lambda_m + \Psi_m$ in Algorithm 1; the plots show the resulting *lift* leakages. In
# Fig. 7(a) $\lambda = 0.65$ "worsens utility for $\varepsilon < 1$" and enhances it above; our mean
# curves cross at $\varepsilon =$ {glue:text}`lift-cross7` (95 % bootstrap intervals).
#
# Sec. VI-A regards the lift-based and lift-inverse measures as "more relaxed measures than the min
# and max lifts", and Sec. VI-B explains Fig. 7's higher utilities by it. With the same budgets this
# holds only under a condition, which {prf:ref}`prop-lift-corrected` gives at once:
#
# ```{prf:corollary} When ALIP implies $\ell_1$- and $\chi^2$-privacy
# :label: cor-lift-relaxation
#
# An $(\varepsilon_l, \varepsilon_u)$-ALIP mechanism is $\ell_1$- and $\chi^2$-private with the same
# budgets when $e^{\varepsilon_u}+e^{-\varepsilon_l} \ge 2$ and $e^{\varepsilon_l}+e^{-\varepsilon_u}
# \ge 2$, in particular at $\lambda = 0.5$. Otherwise it need not be: C1 is ALIP at its tight
# budgets ($\lambda = 0.737$) but neither $\ell_1$- nor $\chi^2$-private.
# ```
#
# We check both halves on AORR at $\lambda \in \{0.35, 0.65\}$, which is ALIP on every instance
# (<a href="#claim-lift-VI-A.rel">VI-A.rel</a>): violations where the condition holds,
# {glue:text}`lift-relsafe`; where it fails, {glue:text}`lift-relunsafe`. Sec. VI-B also explains
# why $\lambda = 0.65$ lowers the utility below $\varepsilon = 1$: the asymmetric budget "requires
# more symbols to be merged in each subset and causes larger subsets", which we check on the largest
# and the mean block of Algorithm 1 (<a href="#claim-lift-VI-B.size">VI-B.size</a>; the differences
# are small at some budgets, so this row uses {glue:text}`lift-n_size` distributions, the first 1000
# of them Fig. 7's).
#
# Sec. VI-B also says that subset merging "significantly enhances the utility" under these
# measures; against complete merging under the same criterion ($\ell_1$, $\chi^2$ and
# $\alpha = 2$, $\lambda = 0.5$) we read it as Fig. 4's claim
# (<a href="#claim-lift-F4.enh">F4.enh</a>): <a href="#claim-lift-VI-B.enh">VI-B.enh</a>.
#
# The same section states that the watchdog's utility under these measures is "comparable to the
# optimal solutions" of {cite}`zamani2022disclosure,zamani2021chi2`, which the toolkit does not
# implement. A lower bound on the optimum is at hand: AORR at $\lambda = 0.5$ is
# $(\varepsilon/2)$-LIP, hence $\ell_1$- and $\chi^2$-private at $\lambda = 0.5$
# ({prf:ref}`cor-lift-relaxation`), so the optimum is at least AORR's utility. The ratio AORR /
# subset merging is decided above 1.1 (99 % Fieller intervals, simultaneous over $\varepsilon$ and
# the two measures) at $\varepsilon =$ {glue:text}`lift-compabove`; at $\varepsilon = 0.25$ it is
# {glue:text}`lift-comp`, at the next budget {glue:text}`lift-comp2`, and wherever it stays below
# 1.1 the lower bound cannot decide.
#
# Finally, the paper says that ORR "is not applicable to these measures since their privacy
# constraints are not convex". In a column $v = P_{X|Y}(\cdot|y)$ the lift-based constraints are
# convex (norms of a linear map; the $\ell_1$-lift is even polyhedral) and so is the
# $\alpha$-lift-inverse, but the $\ell_1$- and $\chi^2$-lift-inverse constraints are not:
#
# ```{prf:proposition} Non-convex lift-inverse constraints
# :label: prop-lift-nonconvex
#
# Write $\Psi_{\ell_1}$ and $\Psi_{\chi^2}$ as functions of a column $v$,
# $f(v) = \sum_s P_S(s)\,\varphi(l_s(v))$ with $l(v) = P_{S|X} v / P_S$ and $\varphi(l) = |1/l-1|$
# or $(1/l-1)^2$. If a column $m$ in the simplex has $l_{s_1}(m) = l_{s_2}(m) = L$ with $L > 1$
# ($\ell_1$) or $L > 3/2$ ($\chi^2$), and a direction $w$ with $\sum_x w_x = 0$ moves only these two
# lifts, in opposite directions, with $m \pm w$ in the simplex and both lifts above the threshold,
# then $f(m) > \max(f(m+w), f(m-w))$: the constraint set $\{v : f(v) \le c\}$ is not convex at
# $c = \max(f(m+w), f(m-w))$.
# ```
#
# ```{prf:proof}
# On the segment, $g(u) = f(m + u w)$ changes only through the two lifts, which move linearly in
# $u$; $\varphi$ is strictly concave above the threshold ($\varphi'' = (6-4l)/l^4 < 0$ for
# $l > 3/2$ in the $\chi^2$ case; $\varphi = 1 - 1/l$ for $l > 1$), so $g$ is strictly concave, and
# $g'(0) = \varphi'(L) - \varphi'(L) = 0$ because $P_S(s_1)\,\delta l_{s_1} = -P_S(s_2)\,\delta
# l_{s_2}$. Hence $u = 0$ is the strict maximum of $g$ on $[-1, 1]$.
# ```
#
# A linear programme finds such $m$ and $w$ (<a href="#claim-lift-VI-B.conv.chi2">VI-B.conv.chi2</a>). On
# the chapter's $P_{SX}$ of the convexity check the two ends have $\Psi_{\chi^2}$
# {glue:text}`lift-chi2a` and {glue:text}`lift-chi2b` and the midpoint {glue:text}`lift-chi2mid`
# (relative excess {glue:text}`lift-chi2rel`): the constraint
# $\Psi_{\chi^2} \le (e^{\varepsilon_l}-1)^2$ at $\varepsilon_l =$ {glue:text}`lift-chi2eps` admits
# both ends and not their midpoint. Random pairs of columns rarely show it (both lifts above 3/2 at
# once is a small region); for $\ell_1$ they do (<a href="#claim-lift-VI-B.conv">VI-B.conv</a>). The paper's
# remark holds for both measures.

# %%
conv = theory.convexity_checks(SIZES["pairs"], rng=rng_for(SEED, "convexity"))
P_conv = ex.random_joints(1, 5, 17, rng=rng_for(SEED, "convexity"))[0]
quasi = theory.quasiconvexity_counterexample(P_conv, "chi2")
Jbig = ex.random_joints(SIZES["n_alpha"], 5, 17, rng=rng_for(SEED, "joints"))  # J first
small = [e for e in SIZES["eps_wd"] if e <= 0.75]
w7 = ex.watchdog_sweep(Jbig[: SIZES["n_size"]], small,
                       [c for c in curves if c.privacy in ("l1", "chi2")], seed=SEED)
numbers = grade.lift_measures(wd, od, conv, quasi, sizes=w7,
                              rng=rng_for(SEED, "fig7/boot"))
report.record(numbers)

# %% [markdown]
# Finally, $\alpha$-lift privacy "is tunable such that when $\alpha = \infty$, it is equivalent to
# ALIP": the $\alpha$-lift and $\alpha$-lift-inverse grow with $\alpha$ towards $\Lambda$ and
# $1/\Psi$, so the high-risk sets are nested and Fig. 8's curves approach ALIP as $\alpha$ grows
# (<a href="#claim-lift-F8.ord">F8.ord</a>, <a href="#claim-lift-F8.leak">F8.leak</a>: the leakages
# of $\alpha = 10$ and 100 differ by little more than the tie at some budgets, so both rows use
# {glue:text}`lift-n_alpha` distributions, the first 1000 of them Fig. 8's).

# %%
limits = theory.alpha_limits(SIZES["checks"] // 2, rng=rng_for(SEED, "alpha"))
nested = theory.nested_high_risk(J[:200], SIZES["eps_wd"])
fig8 = ("SM alpha=2", "SM alpha=10", "SM alpha=100", "SM ALIP 0.5")
w8 = ex.watchdog_sweep(Jbig, SIZES["eps_wd"], [c for c in curves if c.label in fig8],
                       seed=SEED)
report.record(grade.alpha(w8, limits, nested))

# %% tags=["hide-input", "remove-output"]
glue("lift-fig7", figures.fig7(S_wd, SIZES["n_wd"]))
glue("lift-fig8", figures.fig8(S_wd, SIZES["n_wd"]))

# %% [markdown]
# ```{glue:figure} lift-fig7
# :name: fig-lift-7
# :alt: Four panels against epsilon: l1- and chi2-privacy at lambda 0.5 give higher utility than ALIP; at lambda 0.65 their utility is lower below epsilon 1 and higher above; their min-lift leakages exceed ALIP's.
#
# (Paper Fig. 7.) Subset merging under ALIP ($\lambda = 0.5$) and under $\ell_1$- and
# $\chi^2$-privacy ($\lambda \in \{0.5, 0.65\}$, dashed 0.65): (a) NMI, (b) min-lift and (c&#41;
# max-lift leakage. {glue:text}`lift-n_wd` random $P_{SX}$ (the paper's number), 32 values of
# $\varepsilon$.
# ```
#
# ```{glue:figure} lift-fig8
# :name: fig-lift-8
# :alt: Four panels against epsilon: alpha 2 gives the highest utility, then alpha 10, alpha 100 and ALIP almost on top of each other; leakages decrease towards ALIP's as alpha grows.
#
# (Paper Fig. 8.) Subset merging under ALIP and $\alpha$-lift privacy, $\alpha \in \{2, 10, 100\}$,
# $\lambda = 0.5$: (a) NMI, (b) min-lift and (c&#41; max-lift leakage, ALIP's budgets dotted.
# {glue:text}`lift-n_wd` random $P_{SX}$ (the paper's number), 32 values of $\varepsilon$.
# ```
#
# ## Summary
#
# **What reproduces.** The three utilities the paper prints at $\lambda = 0.5$, $\varepsilon = 2$:
# complete merging 0.52 (<a href="#claim-lift-H1">H1</a>), AORR 0.94 (<a href="#claim-lift-H3">H3</a>) and subset
# merging 0.83 (<a href="#claim-lift-H2">H2</a>), from a generator of random $P_{SX}$ that the paper does not
# state but whose Fig. 1 it does not contradict (<a href="#claim-lift-F1.joint">F1.joint</a>). The orderings
# of Figs. 2-8: LDP above ALIP, the effect of $\lambda$ (including "any $\lambda < 0.5$",
# <a href="#claim-lift-F2.lamXH">F2.lamXH</a>), AORR ≥ SRR > subset merging, SRR at $|\mathcal X| = 200$
# (<a href="#claim-lift-F6.run">F6.run</a>, <a href="#claim-lift-V.scale">V.scale</a>), the lift-inverse measures
# restricting the min-lift, and $\alpha$-lift privacy tending to ALIP. Props. 1.1, 1.3, 1.4, 2,
# 3.3, 4, 5.3, 6 and 7, Thm. 1 ({prf:ref}`thm-lift-merging`), and the non-convexity of the
# $\ell_1$- and $\chi^2$-privacy constraints ({prf:ref}`prop-lift-nonconvex`).
#
# **Errata.** Five printed bounds are false (<a href="#claim-lift-P1.2">P1.2</a>,
# <a href="#claim-lift-P3.1-2">P3.1-2</a>, <a href="#claim-lift-P5.1-2">P5.1-2</a>);
# {prf:ref}`prop-lift-corrected` corrects them. The
# strict inequality after eq. (11) is an equality for a single high-risk symbol
# (<a href="#claim-lift-E11.mono">E11.mono</a>). Algorithm 1 as printed does not give Fig. 4
# (<a href="#claim-lift-A1">A1</a>). The watchdog's mean leakage exceeds its budget at moderate
# $\varepsilon$ (<a href="#claim-lift-F4.leak">F4.leak</a>, <a href="#claim-lift-F2.leak">F2.leak</a>), because
# merging cannot privatise a violating $\mathcal X_H$, and per distribution it exceeds its budget
# at many points (<a href="#claim-lift-F2.inst">F2.inst</a>); a repair that is not in the paper
# removes it (<a href="#claim-lift-F4.fix">F4.fix</a>), and SRR, which falls back to merging,
# inherits it (<a href="#claim-lift-F5.budget">F5.budget</a>).
#
# **Statements that need a qualifier.** AORR's vertex count is polynomial in $|\mathcal X|$ for a
# fixed $|\mathcal S|$ ({prf:ref}`prop-lift-support`, <a href="#claim-lift-V-A.vert">V-A.vert</a>), so
# "grows exponentially" holds only as a loose bound. Algorithm 2's merge loop never merges on
# Algorithm 1's blocks ({prf:ref}`prop-lift-merge-loop`, <a href="#claim-lift-A2.merge">A2.merge</a>). ALIP
# implies $\ell_1$- and $\chi^2$-privacy only under a condition on the budgets
# ({prf:ref}`cor-lift-relaxation`, <a href="#claim-lift-VI-A.rel">VI-A.rel</a>). SRR is close to AORR except
# at the smallest budgets (<a href="#claim-lift-F5.close">F5.close</a>), and much slower than subset merging
# only where its blocks are not single symbols (<a href="#claim-lift-F5.time">F5.time</a>). Subset merging
# falls more than 10% short of a lower bound on the optimal $\ell_1$/$\chi^2$ mechanisms at the
# smallest $\varepsilon$ only (<a href="#claim-lift-VI-B.comp">VI-B.comp</a>). When SRR is slower than AORR
# depends on the implementation (<a href="#claim-lift-F5.cross">F5.cross</a>).
#
# **Undecided.** AORR's $\lambda$ ordering (<a href="#claim-lift-F3.lam">F3.lam</a>) at the paper's
# 100 distributions: the curves of $\lambda = 0.65$ and 0.5 are too close one grid step after their
# crossover for the row to decide (Fig. 3's section).
#
# ## Exercises
#
# ```{exercise} Counterexample C1
# :label: ex-lift-c1
#
# C1 has uniform marginals on three secrets and three outputs, lift 1.2 off the diagonal and 0.6
# on it. Compute its max $\ell_1$-lift and compare it with the bound $e^{\varepsilon_u} - 1$ of
# Prop. 3.1 at its tight budgets. Which condition of {prf:ref}`prop-lift-corrected` fails, and
# what is its $\lambda = \varepsilon_l / (\varepsilon_l + \varepsilon_u)$?
# ```
#
# ```{solution-start} ex-lift-c1
# :class: dropdown
# ```
#
# Each output has two lifts 1.2 and one 0.6, so $\Lambda_{\ell_1} = \frac13(0.2 + 0.2 + 0.4) =
# 4/15 \approx 0.267$, above $e^{\varepsilon_u} - 1 = 0.2$ ($\varepsilon_u = \log 1.2$,
# $\varepsilon_l = -\log 0.6$). The condition $e^{\varepsilon_u} + e^{-\varepsilon_l} \ge 2$ fails:
# $1.2 + 0.6 = 1.8$. The corrected bound $\max(0.2, 1 - 0.6) = 0.4$ holds.

# %%
c1 = theory.relaxation_counterexample()
print({k: round(c1[k], 4) for k in ("l1", "l1_bound", "sum_u", "lam")})

# %% [markdown]
# ```{solution-end}
# ```
#
# ```{exercise} The support of a vertex
# :label: ex-lift-support
#
# Draw a random $3 \times 8$ joint distribution, enumerate the vertices of $\Pi$
# {eq}`eq-lift-polytope` at $\varepsilon_l = \varepsilon_u = 0.5$ with
# `orr.polytope_vertices(*orr.alip_column_polytope(P, 0.5, 0.5))`, and check
# {prf:ref}`prop-lift-support`: the largest support and the count against the bound.
# ```
#
# ```{solution-start} ex-lift-support
# :class: dropdown
# ```
#
# At most three entries of a vertex are non-zero, and the count stays far below
# $3^3 \big(\binom81 + \binom82 + \binom83\big) = 2484$.

# %%
P = ex.random_joints(1, 3, 8, rng=rng_for(SEED, "exercise"))[0]
V = orr.polytope_vertices(*orr.alip_column_polytope(P, 0.5, 0.5))
print(len(V), theory.vertex_support(V), theory.vertex_bound(8, 3))

# %% [markdown]
# ```{solution-end}
# ```
#
# ```{exercise} When would Algorithm 2's loop merge?
# :label: ex-lift-loop
#
# {prf:ref}`prop-lift-merge-loop` rests on the partition of Algorithm 1. Give a partition of
# $\mathcal X_H$ on which the loop would merge under the LP test, and say what SRR would then
# return.
# ```
#
# ```{solution-start} ex-lift-loop
# :class: dropdown
# ```
#
# Any partition with a block that violates ALIP and at least one other block: for instance the
# singletons $\{x\}$, $x \in \mathcal X_H$, each of which violates ALIP by definition of
# $\mathcal X_H$. The loop merges the first singleton with the next ones until the merged block
# satisfies ALIP, then does the same with the rest, merging a last violating block back into the
# previous one. It ends, like Algorithm 1 ({prf:ref}`lem-lift-union`), with blocks that all satisfy
# ALIP or with the single block $\mathcal X_H$, and SRR returns AORR on each block or falls back.
# Algorithm 1 has already done this work, which is why its output leaves the loop idle.
#
# ```{solution-end}
# ```
#
# ## Reproduction report
#
# Sizes at `book` scale are the paper's wherever it states them: 1000 distributions for Figs. 1, 2,
# 4, 7 and 8, 100 for Figs. 3 and 5, all on the paper's 32-point grid; Fig. 6 uses
# {glue:text}`lift-n6` distributions (100 at `paper` scale; the paper does not say) on its 29-point
# grid, and the timing comparison {glue:text}`lift-n_time` distributions with
# {glue:text}`lift-reps` repetitions. Rows that the paper's numbers leave undecided use more
# distributions from the same generator: H3 {glue:text}`lift-n_h3`, F5.leak
# {glue:text}`lift-n_f5`, VI-B.size {glue:text}`lift-n_size`, F8.ord and F8.leak
# {glue:text}`lift-n_alpha`. At `smoke` scale the rows that need these sizes are not
# evaluated (the report says so) and the others are mostly undecided. The four timing rows keep their
# measured numbers out of the report's table (they change from run to run); this run measured:
# <a href="#claim-lift-F5.time">F5.time</a>, {glue:text}`lift-ftime` slower than subset merging;
# <a href="#claim-lift-F5.cross">F5.cross</a>, SRR slower at {glue:text}`lift-verdicts`;
# <a href="#claim-lift-V-A.time">V-A.time</a>, AORR's median time {glue:text}`lift-vatime`;
# <a href="#claim-lift-V-A.srr">V-A.srr</a>, SRR's median time {glue:text}`lift-srrtime` per
# symbol of its largest block.
#
# **How the rows are decided.** Every number computed from random distributions is recorded with a
# confidence interval (`ldpnb.stats`) and decided with three outcomes: the interval inside the
# claim's region holds, entirely outside it is reversed, across an edge is *undecided* (never a
# pass; the row says about how many runs would decide it). A printed mean must lie, with its 95 %
# interval, within the printed value ± half a unit of its last digit, widened by the paper's own
# Monte Carlo error at its number of distributions. "Curve A is above curve B" is read on the paired
# (same distributions) mean differences per $\varepsilon$, with 99 % intervals simultaneous over all
# the row's differences: the smallest difference must be decided above minus the tie tolerance (A is
# nowhere below B) and, at at least half of each comparison's points, above plus the tie (A is
# visibly above B); ties are 0.001 NMI, 0.01 nats and 0.05 symbols. "Below the budget" asks every
# mean excess over a budget to be decided below 0.01 nats. Criteria were fixed before the results
# they grade; where one was changed after a result, the row carries the earlier criterion, what had
# been seen and why ("criterion changed").
#
# Every row that does not simply pass is explained in the section that computes it and listed in
# the summary above.

# %%
report.timing("chapter (wall)", time.perf_counter() - T0)
report.timing("chapter (cpu)", time.process_time() - CPU0)
report.finalize()
