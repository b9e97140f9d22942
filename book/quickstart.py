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

    req = "ldpnb[data] @ git+https://github.com/ldpnb/ldpnb"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", req], check=True)

# %% [markdown]
# # Quickstart: `ldpnb` as a library
#
# The chapters use a small package, `ldpnb`, that you can use on your own data. This page
# privatises one column of a real data set, estimates its histogram twice (the standard
# unbiased estimator and the iterative Bayesian update), evaluates the estimates, looks at the
# mechanism through one of the book's lenses, and audits it.
#
# ```bash
# pip install "ldpnb[data] @ git+https://github.com/ldpnb/ldpnb"  # core + data loaders
# ```
#
# The package is not on PyPI. Without `[data]` the line installs the core (numpy, scipy):
# mechanisms, channels, estimators, measures and audits. Every public name is in the {doc}`API reference <api/index>`.

# %% tags=["parameters"]
SCALE = "smoke"  # smoke | book | paper: the audit's number of draws
SEED = 2024

# %% [markdown]
# ## A column of a real data set
#
# The education level of the 48,842 people of UCI Adult ({cite:t}`kohavi1996adult`), coded as
# integers $0, \dots, k-1$. {py:func}`~ldpnb.data.load_adult` reads the file from
# `LDPNB_DATA_DIR`, or downloads it
# and checks its SHA-256.

# %%
import numpy as np
import pandas as pd

from ldpnb.data import load_adult

x, levels = pd.factorize(load_adult()["education"], sort=True)
k, n = len(levels), len(x)
truth = np.bincount(x, minlength=k) / n
print(f"n = {n:,} people, k = {k} education levels")

# %% [markdown]
# ## Privatise, estimate, evaluate, audit
#
# Each person reports through optimised unary encoding ({term}`OUE`,
# {py:class}`~ldpnb.mechanisms.OUE`, with privacy budget {term}`epsilon (ε)` $\varepsilon = 1$,
# which makes it ε-{term}`LDP`); the server sees only the reports.
# {py:meth}`~ldpnb.mechanisms.FrequencyOracle.estimate` is the unbiased estimator of the frequency
# oracle, $\hat f(v) = (C(v)/n - q)/(p - q)$; {py:func}`~ldpnb.estimators.ibu` is the
# maximum-likelihood estimate, here from k-ary randomised response
# ({py:class}`~ldpnb.mechanisms.GRR`) reports.

# %% tags=["core"]
from ldpnb.audit import audit
from ldpnb.estimators import ibu
from ldpnb.measures import total_variation
from ldpnb.measures.lenses import bayes_vulnerability, prior_vulnerability
from ldpnb.mechanisms import GRR, OUE
from ldpnb.repro import rng_for

rng = rng_for(SEED, "quickstart")
oue, grr = OUE(k, epsilon=1.0), GRR(k, epsilon=1.0)
f_oue = oue.estimate(oue.perturb(x, rng=rng))  # privatise, then estimate
f_ibu = ibu(grr, np.bincount(grr.perturb(x, rng=rng), minlength=k)).estimate
tv = {"OUE + unbiased": total_variation(f_oue, truth),
      "GRR + IBU": total_variation(f_ibu, truth)}

# %% [markdown]
# How far each estimate is from the true histogram ({py:func}`~ldpnb.measures.total_variation`,
# between 0 and 1), and whether an unbiased estimate is negative (it can be; {term}`IBU`'s estimate
# is a distribution):

# %% tags=["core"]
for name, d in tv.items():
    print(f"{name:15s} total variation {d:.4f}")
print(f"negative frequencies: {np.sum(f_oue < 0)} (OUE + unbiased), "
      f"{np.sum(f_ibu < 0)} (IBU)")

# %% [markdown]
# Through the lens of Bayes vulnerability
# ({py:func}`~ldpnb.measures.lenses.bayes_vulnerability`), the probability that the best
# one-guess attacker
# finds a person's level rises from $V(X) = \max_x \pi_x$ without the report to
# $V(X \mid Y) = \sum_y \max_x \pi_x C_{xy}$ with it; $\varepsilon$-LDP bounds the ratio by
# $e^\varepsilon$. Then the mechanism's exact privacy level
# ({py:meth}`~ldpnb.mechanisms.Mechanism.check`), and a statistical audit
# ({py:func}`~ldpnb.audit.audit`) of the
# family's sampler (the draws agree with the exact channel, and the empirical lower bound on
# $\varepsilon$ stays below the claim).

# %% tags=["core"]
v0, v1 = prior_vulnerability(truth), bayes_vulnerability(truth, grr.channel())
print(f"Bayes vulnerability {v0:.3f} -> {v1:.3f} "
      f"(ratio {v1 / v0:.2f} <= e^1 = {np.e:.2f})")
check = oue.check()  # the exact level of this channel, from its log-probabilities
print(f"exact level {check.tight:.3f} <= claimed {check.claimed:g}: {bool(check)}")
n_trials = {"smoke": 2_000, "book": 20_000, "paper": 200_000}[SCALE]
result = audit("OUE", 1.0, n_trials=n_trials, rng=rng_for(SEED, "quickstart-audit"))
print(f"audit passed: {result.passed} (empirical epsilon >= {result.empirical:.2f})")

# %% [markdown]
# ## Where next
#
# - {doc}`foundations` builds the vocabulary (channels, the two estimators, the lenses);
# - the chapters reproduce five papers with the same functions;
# - the {doc}`API reference <api/index>` lists every public function and class with its
#   formula, its paper and an example.
