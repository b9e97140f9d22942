r"""Lenses that complete the measures of the five papers: Bayes vulnerability, the Bayes-optimal
attacker's success (attribute inference, re-identification over repeated collections), and the
rank agreement of two lenses over a set of mechanisms.

Every function takes a channel ``C[x, y] = P(y | x)`` (rows = inputs) and distributions as 1-D
arrays; nothing refers to a mechanism family, so every lens applies to every mechanism.

* **Bayes vulnerability** (Smith 2009, "On the foundations of quantitative information flow";
  Alvim et al. 2020, *The Science of Quantitative Information Flow*, Ch. 5):
  :math:`V(X) = \max_x \pi_x` before, :math:`V(X \mid Y) = \sum_y \max_x \pi_x C_{xy}` after the
  report: the success probability of the Bayes-optimal one-guess attacker.  The multiplicative
  Bayes leakage :math:`V(X\mid Y)/V(X)` is at most :math:`e^\varepsilon` for an eps-LDP channel.
* **Attribute inference**: the same for a secret S behind X, :math:`V(S\mid Y) = \sum_y \max_s
  (P_{SX} C)_{sy}`.
* **Re-identification over t collections**: a user ``u`` (prior ``p_u``) reports ``t`` values drawn
  independently from ``P(x | u)``, each through ``C``; the Bayes-optimal attacker guesses
  :math:`\arg\max_u p_u \prod_j (P_{X|U} C)_{u y_j}`.  Exact for ``t = 1`` (the Bayes
  vulnerability of U), Monte Carlo beyond.
* **Rank agreement**: Kendall's tau between two lenses' scores of the same mechanisms
  (``scipy.stats.kendalltau``, tau-b) and the pairs of mechanisms they order differently.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Sequence

import numpy as np
from scipy.stats import kendalltau

from ldpnb.contracts import REPS, SEED, Array, Channel, Distribution, Instance, Integer, NonnegativeMatrix, contract
from ldpnb.utils import check_random_state

__all__ = [
    "bayes_vulnerability",
    "prior_vulnerability",
    "secret_vulnerability",
    "reidentification_accuracy",
    "rank_agreement",
    "discordant_pairs",
]


def _prior_channel(prior: Any, channel: Any) -> tuple[np.ndarray, np.ndarray]:
    p = np.asarray(prior, dtype=float)
    C = np.asarray(channel, dtype=float)
    if C.shape[0] != p.size:
        raise ValueError(f"channel must have one row per prior entry ({p.size}), got shape {C.shape}")
    return p, C


@contract(prior=Distribution())
def prior_vulnerability(prior: Any) -> float:
    r""":math:`V(X) = \max_x \pi_x`: the success of the best guess without the report."""
    return float(np.max(prior))


@contract(prior=Distribution(), channel=Channel())
def bayes_vulnerability(prior: Any, channel: Any) -> float:
    r"""Posterior Bayes vulnerability :math:`V(X \mid Y) = \sum_y \max_x \pi_x C_{xy}` (Smith 2009).

    The probability that the Bayes-optimal attacker guesses the input from one report.

    Examples
    --------
    With a uniform prior over k values, k-RR's posterior vulnerability is its ``p = e^eps/(e^eps + k - 1)``:

    >>> import numpy as np
    >>> from ldpnb.mechanisms import GRR
    >>> round(bayes_vulnerability(np.full(4, 0.25), GRR(4, 1.0).channel()), 4)
    0.4754
    """
    p, C = _prior_channel(prior, channel)
    return float((p[:, None] * C).max(axis=0).sum())


@contract(p_sx=NonnegativeMatrix(), channel=Channel())
def secret_vulnerability(p_sx: Any, channel: Any) -> float:
    r""":math:`V(S \mid Y) = \sum_y \max_s (P_{SX} C)_{sy}`: the accuracy of the Bayes-optimal
    attribute-inference attacker who sees the report ``y`` of ``x`` and guesses the secret ``s``.

    ``p_sx`` is the joint (rows = secrets, columns = inputs, total 1).
    """
    J = np.asarray(p_sx, dtype=float)
    if abs(J.sum() - 1.0) > 1e-9:
        raise ValueError(f"p_sx must sum to 1, got {J.sum():.12g}")
    C = np.asarray(channel, dtype=float)
    if C.shape[0] != J.shape[1]:
        raise ValueError(f"channel must have one row per column of p_sx ({J.shape[1]}), got shape {C.shape}")
    return float((J @ C).max(axis=0).sum())


@contract(p_u=Distribution(), p_x_given_u=Channel(), channel=Channel(), t=Integer(1, 64), runs=REPS, rng=SEED)
def reidentification_accuracy(
    p_u: Any, p_x_given_u: Any, channel: Any, t: int, *, runs: int = 2000, rng: Any = None
) -> tuple[float, float]:
    r"""Success of the Bayes-optimal re-identification attacker after ``t`` collections.

    User ``u ~ p_u`` reports ``y_1..y_t``, ``y_j`` the output of ``C`` on ``x_j ~ P(x | u)``
    (independent); the attacker guesses :math:`\hat u = \arg\max_u \log p_u + \sum_j \log W_{u y_j}`
    with :math:`W = P_{X|U} C` (ties broken uniformly at random).  For ``t = 1`` the result is exact,
    :math:`\sum_y \max_u p_u W_{uy}` (standard error 0); for ``t > 1`` it is a Monte Carlo mean over
    ``runs`` draws, returned with its standard error.

    Returns
    -------
    (accuracy, se)
    """
    rng = check_random_state(rng)
    pu = np.asarray(p_u, dtype=float)
    PXU = np.asarray(p_x_given_u, dtype=float)
    C = np.asarray(channel, dtype=float)
    if PXU.shape[0] != pu.size or PXU.shape[1] != C.shape[0]:
        raise ValueError(
            f"p_x_given_u must be {pu.size} x {C.shape[0]} (one row per entry of p_u, one column per row of "
            f"channel), got {PXU.shape}"
        )
    W = PXU @ C
    if t == 1:
        return float((pu[:, None] * W).max(axis=0).sum()), 0.0
    u = rng.choice(pu.size, size=runs, p=pu)
    cdf_x = np.cumsum(PXU, axis=1)
    cdf_y = np.cumsum(C, axis=1)
    with np.errstate(divide="ignore"):
        logW = np.log(W)
        score = np.tile(np.log(pu), (runs, 1))
    for _ in range(t):
        x = (rng.random(runs)[:, None] > cdf_x[u]).sum(axis=1).clip(max=C.shape[0] - 1)
        y = (rng.random(runs)[:, None] > cdf_y[x]).sum(axis=1).clip(max=C.shape[1] - 1)
        score = score + logW[:, y].T
    best = score.max(axis=1, keepdims=True)
    ties = score == best
    hit = ties[np.arange(runs), u] / ties.sum(axis=1)  # expected success of the uniform tie-break
    return float(hit.mean()), float(hit.std(ddof=1) / np.sqrt(runs))


@contract(scores=Instance(dict, example={"a": [1.0, 2.0]}))
def rank_agreement(scores: dict[str, Sequence[float]]) -> dict[tuple[str, str], float]:
    """Kendall's tau-b between every pair of lenses (``scipy.stats.kendalltau``).

    ``scores[lens]`` is one number per mechanism (same order for every lens), oriented so that a
    larger number means the same thing for every lens (e.g. "leaks more" or "worse").
    """

    names = list(scores)
    out = {}
    for a, b in combinations(names, 2):
        x, y = np.asarray(scores[a], dtype=float), np.asarray(scores[b], dtype=float)
        if x.shape != y.shape or x.ndim != 1 or x.size < 2:
            raise ValueError(f"lenses {a!r} and {b!r} need one score per mechanism (same length >= 2)")
        out[(a, b)] = float(kendalltau(x, y).statistic)
    return out


@contract(a=Array(1), b=Array(1), names=Instance(list, tuple, example=["m1", "m2"]))
def discordant_pairs(a: Any, b: Any, names: Sequence[str]) -> list[tuple[str, str]]:
    """Pairs of mechanisms ``(i, j)`` that two lenses order in opposite directions
    (``(a_i - a_j)(b_i - b_j) < 0``); ties are not discordant."""
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if not (x.size == y.size == len(names)):
        raise ValueError("a, b and names must have one entry per mechanism")
    return [(names[i], names[j]) for i, j in combinations(range(x.size), 2) if (x[i] - x[j]) * (y[i] - y[j]) < 0]
