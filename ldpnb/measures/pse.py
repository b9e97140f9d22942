"""PSE (the re-identification entropy of a similarity score) from genuine and impostor scores:
k-NN and tie-aware KL estimators, DET curves, and Gaussian stand-ins.

Murakami and Takahashi (2021), Section 3.2 and Section 5.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import integrate, optimize, special, stats

from ldpnb.contracts import (
    DECIMALS,
    MAX_REPS,
    NONNEGATIVE,
    POSITIVE,
    SEED,
    AnyOf,
    Array,
    Boolean,
    Integer,
    OneOf,
    Optional,
    Real,
    contract,
)
from ldpnb.measures.reidentification import LOG2E, _unit_scale
from ldpnb.utils import check_random_state

__all__ = [
    "genuine_impostor",
    "kl_knn_1d",
    "kl_mixed_1d",
    "pse_from_scores",
    "det_curve",
    "frr_at_far",
    "best_score_error_rate",
    "gaussian_kl_bits",
    "mixture_kl_bits",
    "mu_for_kl_bits",
    "gaussian_frr_at_far",
    "pse_subsamples",
]

_UNIT = OneOf("bits", "nats")
_SAMPLE = Array(1, min_size=2)
#: Neighbours of the k-nearest-neighbour entropy estimators: at most 2**16.
_NEIGHBOURS = Integer(1, 1 << 16)
_WEIGHTS = Optional(Array(1, low=0, integer=True))


@contract(score_matrix=Array(2, min_size=4))
def genuine_impostor(score_matrix) -> tuple[np.ndarray, np.ndarray]:
    """Genuine scores (diagonal: query i vs user i) and impostor scores (off-diagonal), Sec. 5.1."""
    S = np.asarray(score_matrix, dtype=float)
    if S.shape[0] != S.shape[1]:
        raise ValueError("score_matrix must be square (query i belongs to user i)")
    mask = ~np.eye(S.shape[0], dtype=bool)
    return np.diag(S).copy(), S[mask]


@contract(score_matrix=Array(2), true_user=Optional(Array(1, low=0, integer=True)), atol=NONNEGATIVE, rtol=NONNEGATIVE)
def best_score_error_rate(score_matrix, true_user=None, *, atol: float = 1e-9, rtol: float = 1e-12) -> float:
    """Expected error of the best-score rule G (Sec. 3.1) with uniform random tie-breaking.

    err_i = 1 - 1[true user attains the max] / #{users attaining the max}; returns mean err_i.
    A score within ``atol + rtol |max|`` of the row's maximum attains it: scores that are equal
    mathematically but summed in another order (or shifted by a per-query constant, such as the
    offset of the Markov matcher's floor) are ties.
    """
    S = np.asarray(score_matrix, dtype=float)
    t = np.arange(S.shape[0]) if true_user is None else np.asarray(true_user)
    if t.shape != (S.shape[0],) or t.max() >= S.shape[1]:
        raise ValueError(f"true_user must hold one user in 0..{S.shape[1] - 1} per query")
    m = S.max(axis=1, keepdims=True)
    at_max = S >= m - (atol + rtol * np.abs(m))
    correct = at_max[np.arange(S.shape[0]), t]
    return float(np.mean(1 - correct / at_max.sum(axis=1)))


# ---------------------------------------------------------------------------------------------
# Divergence estimation (PSE)
# ---------------------------------------------------------------------------------------------


def _kth_nn_1d(sorted_ref: np.ndarray, q: np.ndarray, kk: int, exclude_self: bool) -> np.ndarray:
    """Distance from each q to its kk-th nearest neighbour in sorted_ref (optionally skipping itself)."""
    m = sorted_ref.size
    pos = np.searchsorted(sorted_ref, q)
    w = kk + 1 if exclude_self else kk
    idx = pos[:, None] + np.arange(-w, w + 1)[None, :]
    valid = (idx >= 0) & (idx < m)
    d = np.abs(sorted_ref[np.clip(idx, 0, m - 1)] - q[:, None])
    d[~valid] = np.inf
    d.sort(axis=1)
    return d[:, kk] if exclude_self else d[:, kk - 1]


@contract(genuine=_SAMPLE, impostor=Array(1), k=_NEIGHBOURS, bias_reduced=Boolean(), unit=_UNIT)
def kl_knn_1d(genuine, impostor, *, k: int = 1, bias_reduced: bool = True, unit: str = "bits") -> float:
    r"""k-NN estimator of D(f_G || f_I) for scalar samples (Wang, Kulkarni & Verdú 2009).

    .. math:: \hat D = \frac1N\sum_i \ln\frac{\nu_{k_i}(i)}{\rho_{l_i}(i)} + \frac1N\sum_i[\psi(l_i)-\psi(k_i)]
              + \ln\frac{M}{N-1}

    with rho / nu the distances from G_i to its l-th / k-th nearest neighbour among the other
    genuine / the impostor samples.  Fixed version: l_i = k_i = k.  Bias-reduced adaptive version
    (their Eq. 29, default): delta_i = max(rho_1, nu_1), l_i and k_i = numbers of genuine (other)
    and impostor samples within delta_i.  Samples must be free of ties (use :func:`kl_mixed_1d`).
    """
    G = np.sort(np.asarray(genuine, dtype=float))
    I = np.sort(np.asarray(impostor, dtype=float))
    N, M = G.size, I.size
    if N < 2 or M < 1:
        raise ValueError("need at least 2 genuine and 1 impostor sample")
    if not (np.all(np.isfinite(G)) and np.all(np.isfinite(I))):
        raise ValueError("samples must be finite")
    if bias_reduced:
        rho1 = _kth_nn_1d(G, G, 1, True)
        nu1 = _kth_nn_1d(I, G, 1, False)
        if np.any(rho1 == 0) or np.any(nu1 == 0):
            raise ValueError("tied samples (zero nearest-neighbour distance): use kl_mixed_1d")
        delta = np.maximum(rho1, nu1) * (1 + 1e-12)
        lo_g, hi_g = np.searchsorted(G, G - delta, "left"), np.searchsorted(G, G + delta, "right")
        lo_i, hi_i = np.searchsorted(I, G - delta, "left"), np.searchsorted(I, G + delta, "right")
        l_i = hi_g - lo_g - 1
        k_i = hi_i - lo_i
        rho = np.maximum(G - G[lo_g], G[hi_g - 1] - G)
        nu = np.maximum(G - I[lo_i], I[np.maximum(hi_i - 1, 0)] - G)
        d = np.mean(np.log(nu / rho)) + np.mean(special.digamma(l_i) - special.digamma(k_i)) + math.log(M / (N - 1))
    else:
        if k < 1 or k >= N or k > M:
            raise ValueError("k must satisfy 1 <= k < N and k <= M")
        rho = _kth_nn_1d(G, G, k, True)
        nu = _kth_nn_1d(I, G, k, False)
        if np.any(rho == 0) or np.any(nu == 0):
            raise ValueError("tied samples (zero k-NN distance): use kl_mixed_1d")
        d = np.mean(np.log(nu / rho)) + math.log(M / (N - 1))
    return float(d * _unit_scale(unit))


@contract(
    genuine=_SAMPLE,
    impostor=Array(1),
    impostor_weights=_WEIGHTS,
    k=_NEIGHBOURS,
    bias_reduced=Boolean(),
    unit=_UNIT,
    smoothing=POSITIVE,
    decimals=DECIMALS,
)
def kl_mixed_1d(
    genuine,
    impostor,
    *,
    impostor_weights=None,
    k: int = 1,
    bias_reduced: bool = True,
    unit: str = "bits",
    smoothing: float = 0.5,
    decimals: int = 12,
) -> float:
    r"""Tie-aware estimate of D(f_G || f_I) for scores with atoms (the PSE of Sec. 5.1, with ties).

    Values occurring at least twice in the pooled (weighted) sample are atoms A; the rest is the
    continuous part c.  By the chain rule of KL over the partition {atoms, c}:

    .. math:: D = \sum_{v\in A} P_G(v)\log\frac{P_G(v)}{P_I(v)}
              + P_G(c)\Big[\log\frac{P_G(c)}{P_I(c)} + D_{kNN}(G_c\|I_c)\Big].

    Empirical masses; an impostor mass of 0 is replaced by ``smoothing``/M (count smoothing).
    ``impostor_weights`` (integer multiplicities) lets huge impostor atoms (e.g. n(n-1) floor
    scores) be passed as one value.  Values are compared after rounding to ``decimals``.

    Resolution: with :math:`M` impostor samples the estimate cannot exceed about
    :math:`\log_2(2M)` bits (complete separation of genuine and impostor scores: the smoothed
    impostor mass of the genuine atoms is ``smoothing``/M).
    """
    G = np.round(np.asarray(genuine, dtype=float), decimals)
    I = np.round(np.asarray(impostor, dtype=float), decimals)
    w = np.ones(I.size, dtype=np.int64) if impostor_weights is None else np.asarray(impostor_weights, dtype=np.int64)
    if w.shape != I.shape or np.any(w < 0):
        raise ValueError("impostor_weights must be nonnegative integers, one per impostor sample")
    if G.size < 2 or w.sum() < 1:
        raise ValueError("need at least 2 genuine samples and positive impostor mass")
    N, M = G.size, float(w.sum())
    vals, inv = np.unique(np.concatenate([G, I]), return_inverse=True)
    cg = np.bincount(inv[:N], minlength=vals.size).astype(float)
    ci = np.bincount(inv[N:], weights=w, minlength=vals.size)
    atom = (cg + ci) >= 2
    sc = _unit_scale(unit)
    a = atom & (cg > 0)
    pg, pi_ = cg[a] / N, np.maximum(ci[a], smoothing) / M
    d = float(np.sum(pg * np.log(pg / pi_)))
    Gc = vals[(~atom) & (cg > 0)]
    Ic = vals[(~atom) & (ci > 0)]
    if Gc.size:
        pgc = Gc.size / N
        pic = max(Ic.size, smoothing) / M
        d_knn = (
            kl_knn_1d(Gc, Ic, k=k, bias_reduced=bias_reduced, unit="nats") if (Gc.size >= 2 and Ic.size >= 1) else 0.0
        )
        d += pgc * (math.log(pgc / pic) + d_knn)
    return d * sc


@contract(genuine=_SAMPLE, impostor=Array(1), method=OneOf("mixed", "knn"))
def pse_from_scores(genuine, impostor, *, method: str = "mixed", **kw) -> float:
    """PSE = D(f_G || f_I) in bits (the n -> infinity value of I(U;S), Thm 3.2)."""
    if method == "mixed":
        return kl_mixed_1d(genuine, impostor, **kw)
    if method == "knn":
        return kl_knn_1d(genuine, impostor, **kw)
    raise ValueError(f"method must be 'mixed' or 'knn', got {method!r}")


@contract(genuine=Array(1), impostor=Array(1), impostor_weights=_WEIGHTS)
def det_curve(genuine, impostor, *, impostor_weights=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """DET curve of a similarity score (Sec. 5.2, Fig. 7): FAR(tau) = Pr_I[s >= tau], FRR(tau) = Pr_G[s < tau].

    Returns ``(thresholds, far, frr)`` over every distinct score value (ascending thresholds).
    """
    G = np.sort(np.asarray(genuine, dtype=float))
    I = np.asarray(impostor, dtype=float)
    w = np.ones(I.size) if impostor_weights is None else np.asarray(impostor_weights, dtype=float)
    if w.shape != I.shape:
        raise ValueError("impostor_weights must hold one weight per impostor score")
    order = np.argsort(I)
    I, w = I[order], w[order]
    tau = np.unique(np.concatenate([G, I]))
    cw = np.concatenate([[0.0], np.cumsum(w)])
    far = 1 - cw[np.searchsorted(I, tau, "left")] / cw[-1]
    frr = np.searchsorted(G, tau, "left") / G.size
    return tau, far, frr


@contract(genuine=Array(1), impostor=Array(1), far_target=Real(0, 1))
def frr_at_far(genuine, impostor, far_target: float, **kw) -> float:
    """Smallest FRR among thresholds with FAR <= far_target."""
    _, far, frr = det_curve(genuine, impostor, **kw)
    ok = far <= far_target
    return float(frr[ok].min()) if ok.any() else 1.0


# ---------------------------------------------------------------------------------------------
# Gaussian score models (the synthetic biometric stand-ins of the PIE chapter) -- illustrations, not data
# ---------------------------------------------------------------------------------------------


@contract(mu=Real())
def gaussian_kl_bits(mu: float) -> float:
    r"""D(N(mu,1) || N(0,1)) = mu^2/(2 ln 2) bits."""
    return mu * mu / 2 * LOG2E


@contract(mu=Real(), w=Real(0, 1, high_open=True))
def mixture_kl_bits(mu: float, w: float) -> float:
    r"""D((1-w) N(mu,1) + w N(0,1) || N(0,1)) in bits (numerical quadrature)."""
    if w == 0:
        return gaussian_kl_bits(mu)

    c = 1 / math.sqrt(2 * math.pi)

    def f(s):
        # f_G(s) log(f_G(s)/f_I(s)), with the log-ratio in log-space (no overflow)
        log_r = np.logaddexp(math.log1p(-w) + mu * s - mu * mu / 2, math.log(w))
        f_g = (1 - w) * c * math.exp(-((s - mu) ** 2) / 2) + w * c * math.exp(-s * s / 2)
        return f_g * log_r

    val, _ = integrate.quad(f, -12, mu + 12, limit=200, points=[0.0, mu])
    return val * LOG2E


@contract(d_bits=Real(0, 1000, low_open=True), w=Real(0, 1, high_open=True))
def mu_for_kl_bits(d_bits: float, w: float = 0.0) -> float:
    """Genuine mean mu such that the (mixture) Gaussian stand-in has D(f_G||f_I) = d_bits."""
    if w == 0:
        return math.sqrt(2 * d_bits * math.log(2))
    return optimize.brentq(lambda m: mixture_kl_bits(m, w) - d_bits, 1e-6, 60.0, xtol=1e-10)


@contract(mu=Real(), far=AnyOf(Real(0, 1), Array((0, 1), low=0, high=1)), w=Real(0, 1, high_open=True))
def gaussian_frr_at_far(mu: float, far, w: float = 0.0):
    r"""FRR at a given FAR of the Gaussian score model :math:`f_I = N(0,1)`,
    :math:`f_G = (1-w)N(\mu,1) + wN(0,1)` (thresholding the score, Sec. 5.2):

    .. math:: \tau = \Phi^{-1}(1-\mathrm{FAR}),\qquad
              \mathrm{FRR} = (1-w)\,\Phi(\tau-\mu) + w\,(1-\mathrm{FAR}).
    """
    far = np.asarray(far, dtype=float)
    tau = stats.norm.isf(far)
    out = (1 - w) * stats.norm.cdf(tau - mu) + w * (1 - far)
    return float(out) if out.ndim == 0 else out


@contract(
    score_matrix=Array(2, min_size=4),
    frac=Real(0, 1, low_open=True, high_open=True),
    reps=Integer(2, MAX_REPS),
    decimals=DECIMALS,
    rng=SEED,
)
def pse_subsamples(score_matrix, frac: float = 0.5, reps: int = 20, *, decimals: int = 9, rng=None) -> np.ndarray:
    """PSE estimates (:func:`kl_mixed_1d`, bits) on ``reps`` random subsets of ``frac`` of the users.

    The queries and the templates of the same users are kept (square sub-matrices).  The spread of
    the estimates gives the standard error of the full-population estimate by the delete-d
    jackknife, :func:`ldpnb.stats.subsample_se` (for half subsets the spread itself, with no
    ``sqrt(frac)`` factor: the subsets vary around the full estimate by the finite-population
    correction); it is not valid for an estimate resting on a few exact score coincidences.
    """
    rng = check_random_state(rng)
    S = np.asarray(score_matrix, dtype=float)
    if S.shape[0] != S.shape[1]:
        raise ValueError("score_matrix must be square (query i belongs to user i)")
    n = S.shape[0]
    m = max(2, int(round(frac * n)))
    out = np.empty(reps)
    for r in range(reps):
        idx = np.sort(rng.choice(n, m, replace=False))
        g, im = genuine_impostor(S[np.ix_(idx, idx)])
        out[r] = kl_mixed_1d(g, im, decimals=decimals)
    return out
