"""PRIVIC: incremental collection of location data with the Blahut-Arimoto mechanism and IBU.

Biswas & Palamidessi, "PRIVIC: A privacy-preserving method for incremental collection of location
data" (2023); reproduction spec 004.  This module holds the paper-specific pieces:

* the experimental grids (Paris 11 x 15, San Francisco 16 x 24, unit spacing, spec §3 A5) and the
  ground distance in grid units;
* the discrete truncated planar Laplace mechanism on a *padded* output grid used by the authors
  (``LaplaceBetter``, spec §2.8), which differs from :func:`ldpnb.mechanisms.planar_laplace_channel`
  (that one clamps the continuous mechanism onto the grid, so 𝒴 = 𝒳);
* the island prior (§3.1, recipe A6) and the adversarial prior (§7, recipe A7);
* generalised IBU (Def. 2.6, ElSalamouny & Palamidessi 2020) and the PRIVIC loop (Alg. 1 and the
  protocol A11 that reproduces Tables III-IV);
* the Fig. 3 statistical-utility pipeline and the Fig. 2 / Fig. 11 row statistics;
* the paper's printed numbers (``PAPER_*``), used by the chapter's reproduction report.

Generic pieces come from the core: :func:`ldpnb.estimators.ibu` (IBU, warm start via ``theta0``,
``tol=0`` for a fixed number of iterations), :func:`ldpnb.mechanisms.simulate_counts` (one
multinomial per true cell), :func:`ldpnb.mechanisms.geo_ind_epsilon` (tight geo-ind level),
:func:`ldpnb.metrics.emd` (POT).  The BA mechanism itself is in :mod:`ldpnb.rate_distortion`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ldpnb.rate_distortion import blahut_arimoto
from ldpnb.utils import check_channel, check_counts, check_finite_array, check_nonnegative, check_positive_int, check_random_state

__all__ = [
    "CITY_SHAPE",
    "PAPER_GRID_TEXT",
    "ISLAND_A",
    "ISLAND_B",
    "PROTOCOL",
    "TIGHT_EPS_BETAS",
    "PAPER_TIGHT_EPS",
    "PAPER_TABLE_III",
    "PAPER_TABLE_IV",
    "privic_distance",
    "flat_index",
    "block_indices",
    "lap_grid_channel",
    "island_prior",
    "adversarial_prior",
    "adversarial_percent",
    "row_stats",
    "GIBUResult",
    "gibu",
    "gibu_log_likelihood",
    "PrivicResult",
    "privic",
    "privic_table",
    "stat_utility_sweep",
    "tight_eps_ba",
    "inner_columns",
    "ba_convergence_summary",
    "heatmap",
    "draw_duality",
    "draw_privic_loop",
]

# ----------------------------------------------------------------------------- constants
#: The grids the authors actually used (rows, cols), row 0 = north, col 0 = west (spec A5).
CITY_SHAPE = {"paris": (11, 15), "sf": (16, 24)}
#: What the paper's text says (§3.1, §6): "16 x 12" and "24 x 17".
PAPER_GRID_TEXT = {"paris": (16, 12), "sf": (24, 17)}
#: The vulnerable (isolated) cell A and the strong (crowded) cell B of the Paris island (A6).
ISLAND_A = (6, 3)
ISLAND_B = (3, 7)
#: PRIVIC protocol A11: BA and IBU iterations per cycle, rows of Tables III/IV (row 1 = uniform).
PROTOCOL = {"paris": {"ba_iter": 8, "ibu_iter": 10, "n_rows": 15},
            "sf": {"ba_iter": 5, "ibu_iter": 5, "n_rows": 8}}
#: The 25 values of beta of Fig. 3 and of the authors' tight-epsilon list.
TIGHT_EPS_BETAS = np.round(np.arange(1, 26) * 0.2, 1)
#: Tight geo-ind epsilon of BA(pi_true, beta, 10 iterations) (authors' ``eps_tight_*``; spec §5).
PAPER_TIGHT_EPS = {
    "paris": np.array([0.392818, 0.781393, 1.160511, 1.522998, 1.920174, 2.318469, 2.723571, 3.131913,
                       3.539017, 3.946218, 4.353319, 4.759788, 5.165038, 5.568216, 5.967803, 6.361087,
                       6.741703, 7.094334, 7.398355, 7.706459, 8.109657, 8.512103, 8.914469, 9.316912,
                       9.719416]),
    "sf": np.array([0.398662, 0.788381, 1.175026, 1.567780, 1.981635, 2.388129, 2.790176, 3.189144,
                    3.587244, 3.986583, 4.387349, 4.788871, 5.190627, 5.592312, 5.993792, 6.395018,
                    6.795979, 7.196668, 7.597049, 7.997073, 8.396816, 8.796488, 9.196211, 9.595978,
                    9.995791]),
}

#: Table III (Paris), per-round EMD, shape (15 rows, 5 rounds), for beta = 1 and beta = 0.5.
PAPER_TABLE_III = {
    1.0: np.array([
        [2.02262] * 5,
        [0.27104, 0.27796, 0.28247, 0.27758, 0.26276],
        [0.21916, 0.23750, 0.25035, 0.25116, 0.23241],
        [0.19156, 0.21115, 0.21726, 0.20913, 0.20408],
        [0.18241, 0.19264, 0.19570, 0.19747, 0.18728],
        [0.16526, 0.18020, 0.174578, 0.17310, 0.17268],
        [0.14643, 0.18159, 0.16092, 0.17222, 0.17139],
        [0.13860, 0.17605, 0.15938, 0.17078, 0.16192],
        [0.15047, 0.16926, 0.15153, 0.17005, 0.15266],
        [0.14734, 0.14825, 0.14585, 0.15001, 0.15459],
        [0.14227, 0.14135, 0.14326, 0.13797, 0.14507],
        [0.13818, 0.14448, 0.14703, 0.13589, 0.14142],
        [0.16111, 0.13641, 0.14893, 0.14208, 0.13808],
        [0.13894, 0.13111, 0.14094, 0.14199, 0.14192],
        [0.15106, 0.14271, 0.14601, 0.13584, 0.12413]]),
    0.5: np.array([
        [2.02262] * 5,
        [0.57738, 0.57994, 0.55791, 0.60717, 0.56880],
        [0.51324, 0.48295, 0.47043, 0.51285, 0.45826],
        [0.43184, 0.42398, 0.41040, 0.45230, 0.41119],
        [0.39741, 0.38771, 0.37284, 0.41176, 0.36953],
        [0.37818, 0.35482, 0.36039, 0.36375, 0.38045],
        [0.35044, 0.34383, 0.34818, 0.35760, 0.36804],
        [0.34086, 0.32983, 0.35769, 0.34430, 0.34780],
        [0.33137, 0.31749, 0.34690, 0.33840, 0.34028],
        [0.3170, 0.32975, 0.32772, 0.34529, 0.32670],
        [0.31917, 0.31851, 0.32689, 0.33667, 0.32043],
        [0.32137, 0.32451, 0.31843, 0.32556, 0.34014],
        [0.31224, 0.31219, 0.31380, 0.31515, 0.31159],
        [0.30883, 0.30496, 0.30578, 0.30726, 0.30282],
        [0.29405, 0.31198, 0.30786, 0.31167, 0.30100]]),
}
#: Table IV (San Francisco), per-round EMD, shape (7 rows, 5 rounds).
PAPER_TABLE_IV = {
    1.0: np.array([
        [7.37595] * 5,
        [0.37229, 0.37038, 0.36784, 0.36949, 0.36816],
        [0.29828, 0.298370, 0.30017, 0.29784, 0.29859],
        [0.26091, 0.26029, 0.26231, 0.26180, 0.26518],
        [0.23472, 0.23419, 0.23337, 0.23740, 0.23897],
        [0.21367, 0.21432, 0.21537, 0.21777, 0.21881],
        [0.19612, 0.19761, 0.19904, 0.20120, 0.20067]]),
    0.5: np.array([
        [7.37595] * 5,
        [0.79621, 0.80474, 0.80219, 0.80670, 0.79940],
        [0.64931, 0.66292, 0.65362, 0.65950, 0.65285],
        [0.56896, 0.57378, 0.57338, 0.57125, 0.56618],
        [0.51672, 0.51710, 0.51735, 0.51880, 0.51138],
        [0.48194, 0.48299, 0.47992, 0.48267, 0.47791],
        [0.45531, 0.45861, 0.45122, 0.45732, 0.45450]]),
}


# ----------------------------------------------------------------------------- core helpers
def _emd(a, b, distance) -> float:
    from ldpnb.metrics import emd

    return float(emd(a, b, distance))


def _simulate(channel, input_counts, rng) -> np.ndarray:
    from ldpnb.mechanisms import simulate_counts

    return simulate_counts(channel, input_counts, rng=rng)


def _tight_eps(channel, distance) -> float:
    from ldpnb.mechanisms import geo_ind_epsilon

    return float(geo_ind_epsilon(channel, distance))


def _ibu(channel, counts, theta0, n_iter):
    from ldpnb.estimators import ibu

    return ibu(channel, counts, theta0=theta0, tol=0.0, max_iter=int(n_iter)).estimate


def _shape(shape) -> tuple[int, int]:
    if isinstance(shape, str):
        if shape not in CITY_SHAPE:
            raise ValueError(f"city must be one of {sorted(CITY_SHAPE)}, got {shape!r}")
        return CITY_SHAPE[shape]
    try:
        r, c = shape
    except (TypeError, ValueError):
        raise ValueError(f"shape must be a city name or a pair (rows, cols), got {shape!r}") from None
    # integers >= 1: a float such as 2.5 is refused, never truncated
    return check_positive_int(r, "shape[0] (rows)", minimum=1), check_positive_int(c, "shape[1] (cols)", minimum=1)


# ----------------------------------------------------------------------------- grid
def _coords(rows: int, cols: int, pad: int = 0) -> np.ndarray:
    r, c = np.divmod(np.arange((rows + 2 * pad) * (cols + 2 * pad)), cols + 2 * pad)
    return np.column_stack([r - pad, c - pad]).astype(float)


def privic_distance(shape, *, pad: int = 0) -> np.ndarray:
    """Euclidean distance in grid units, ``d = sqrt((r - r')^2 + (c - c')^2)`` (spec §2.1).

    Rows: the ``rows * cols`` grid cells (row-major); columns: the cells of the grid padded by
    ``pad`` cells on every side (``pad=0``: the grid itself).  ``shape`` is ``"paris"``, ``"sf"``
    or ``(rows, cols)``.  One grid unit is about 0.48 km (Paris) and 0.50 km (SF).
    """
    rows, cols = _shape(shape)
    if isinstance(pad, bool) or int(pad) != pad or pad < 0:
        raise ValueError(f"pad must be a non-negative integer, got {pad!r}")
    a = _coords(rows, cols, 0)
    b = _coords(rows, cols, int(pad))
    return np.hypot(a[:, 0, None] - b[None, :, 0], a[:, 1, None] - b[None, :, 1])


def flat_index(shape, cell) -> int:
    """Row-major flat index ``cols * r + c`` of the cell ``(r, c)``."""
    rows, cols = _shape(shape)
    r, c = (int(v) for v in cell)
    if not (0 <= r < rows and 0 <= c < cols):
        raise ValueError(f"cell {cell!r} is outside the {rows} x {cols} grid")
    return cols * r + c


def block_indices(shape, center, radius: int = 2) -> np.ndarray:
    """Flat indices of the Chebyshev block ``max(|r - r0|, |c - c0|) <= radius`` (clipped to the grid)."""
    rows, cols = _shape(shape)
    r0, c0 = (int(v) for v in center)
    rr, cc = np.divmod(np.arange(rows * cols), cols)
    return np.flatnonzero(np.maximum(np.abs(rr - r0), np.abs(cc - c0)) <= int(radius))


# ----------------------------------------------------------------------------- LAP
def lap_grid_channel(shape, epsilon: float, *, pad: int = 5) -> np.ndarray:
    """Discrete truncated planar Laplace on a padded output grid (spec §2.8; authors' ``LaplaceBetter``).

    ``C[x, y] = exp(-eps d(x, y)) / sum_{y' in Y} exp(-eps d(x, y'))`` for ``x`` in the grid and
    ``y`` in the grid padded by ``pad`` cells on every side (output index = row-major on the
    ``(rows + 2 pad) x (cols + 2 pad)`` grid).  The continuous density is
    ``(eps^2 / 2 pi) exp(-eps d)`` on R^2 (Andres et al. 2013); this discrete, row-normalised
    version is what Figs. 2-3 use.  Its tight geo-ind level is at most ``2 eps`` (row
    normalisation), close to ``eps`` with ``pad=5`` and ``eps >= 0.4``.

    It differs from :func:`ldpnb.mechanisms.planar_laplace_channel`, which clamps the continuous
    mechanism onto the grid (outputs = inputs, boundary cells collect the tail mass).
    """
    from ldpnb.utils import check_epsilon

    eps = check_epsilon(epsilon)
    W = -eps * privic_distance(shape, pad=pad)
    W -= W.max(axis=1, keepdims=True)
    C = np.exp(W)
    return C / C.sum(axis=1, keepdims=True)


def inner_columns(shape, pad: int = 5) -> np.ndarray:
    """Indices, in the padded output grid, of the cells that coincide with the grid (for display)."""
    rows, cols = _shape(shape)
    r, c = np.divmod(np.arange(rows * cols), cols)
    return (r + pad) * (cols + 2 * pad) + (c + pad)


# ----------------------------------------------------------------------------- priors
def island_prior(pi, shape="paris", *, A=ISLAND_A, radius: int = 2, mass_A: float = 0.01,
                 mode: str = "renorm") -> np.ndarray:
    """Prior with an artificial island around the vulnerable cell A (paper §3.1; spec A6).

    The cells of the Chebyshev block of ``radius`` around A (5 x 5 for radius 2) are emptied and A
    receives ``mass_A``.

    * ``mode="authors"`` (the vector of the authors' notebook, Paris only): the removed block mass ``M`` pays
      for ``pi(A) = mass_A``, a ``+0.01`` at cell (2, 3), and the rest ``(M - mass_A - 0.01) / 5``
      goes to each of the northern cells (1, 6) ... (1, 10).  The total stays 1.
    * ``mode="renorm"`` (default; the spec's portable recipe): the other cells are rescaled to total
      ``1 - mass_A``, so that ``pi(A) = mass_A`` and the total is 1.

    The paper's wording ("dump the mass to A") would make A a crowded island; neither mode does
    that (spec §8 P7).
    """
    rows, cols = _shape(shape)
    p = np.asarray(pi, dtype=float)
    if p.shape != (rows * cols,):
        raise ValueError(f"pi must have length {rows * cols}, got shape {p.shape}")
    p = p / p.sum()
    if not 0 < mass_A < 1:
        raise ValueError(f"mass_A must be in (0, 1), got {mass_A}")
    a = flat_index((rows, cols), A)
    blk = block_indices((rows, cols), A, radius)
    out = p.copy()
    removed = out[blk].sum()
    out[blk] = 0.0
    if mode == "authors":
        if (rows, cols) != CITY_SHAPE["paris"] or tuple(A) != ISLAND_A or radius != 2:
            raise ValueError("mode='authors' is the authors' Paris vector (A=(6,3), radius 2)")
        rest = removed - mass_A - 0.01
        if rest < 0:
            raise ValueError("the block around A holds too little mass for the authors' recipe")
        out[a] = mass_A
        out[flat_index((rows, cols), (2, 3))] += 0.01
        for c in range(6, 11):
            out[flat_index((rows, cols), (1, c))] += rest / 5
    elif mode == "renorm":
        out *= (1.0 - mass_A) / out.sum()
        out[a] = mass_A
    else:
        raise ValueError(f"mode must be 'authors' or 'renorm', got {mode!r}")
    return out


def adversarial_percent(level, step: float = 0.005) -> np.ndarray | float:
    """The "% adversarial users" of Fig. 11 for attack level k: ``10 delta / (1 + delta) * 100``, ``delta = step k``.

    k = 0..8 gives 0, 5, 10, 15, 20, 24, 29, 34, 38.5 % (spec A7).
    """
    d = step * np.asarray(level, dtype=float)
    out = 1000.0 * d / (1.0 + d)
    return float(out) if np.ndim(out) == 0 else out


def adversarial_prior(pi_island, level: int, *, A=ISLAND_A, shape="paris", step: float = 0.005) -> np.ndarray:
    """Prior with colluding users falsely reporting A (paper §7; spec A7).

    ``pi_adv = (pi_island + delta e_A) / (1 + delta)`` with ``delta = step * level``.  (The authors
    add ``delta`` without renormalising; BA is invariant to the scale of the prior.)
    """
    p = np.asarray(pi_island, dtype=float)
    if isinstance(level, bool) or int(level) != level or level < 0:
        raise ValueError(f"level must be a non-negative integer, got {level!r}")
    delta = step * int(level)
    out = p / p.sum()
    out[flat_index(shape, A)] += delta
    return out / (1.0 + delta)


def row_stats(row, shape="paris", *, A=ISLAND_A, radius: int = 2, pad: int = 0) -> dict:
    """Statistics of the reporting distribution ``row`` of the true cell A (Figs. 2 and 11).

    Returns ``p_self`` (P(report A)), ``p_block`` (mass on the Chebyshev block of ``radius``
    around A), ``argmax`` (the most likely reported grid cell, (r, c)), ``argmax_dist`` (its
    distance to A) and ``expected_distance`` (E[d(A, Y)], grid units, over *all* outputs).
    ``row`` is over the grid cells (row-major), or with ``pad > 0`` over the padded output grid of
    :func:`lap_grid_channel` (then the grid-cell statistics use the inner columns).
    """
    rows, cols = _shape(shape)
    v = np.asarray(row, dtype=float)
    n_out = (rows + 2 * pad) * (cols + 2 * pad)
    if v.shape != (n_out,):
        raise ValueError(f"row must have length {n_out}, got shape {v.shape}")
    a = flat_index((rows, cols), A)
    d_full = privic_distance((rows, cols), pad=pad)[a]
    inner = inner_columns((rows, cols), pad)
    g = v[inner]
    d = d_full[inner]
    k = int(np.argmax(g))
    return {
        "p_self": float(g[a]),
        "p_block": float(g[block_indices((rows, cols), A, radius)].sum()),
        "argmax": (k // cols, k % cols),
        "argmax_dist": float(d[k]),
        "expected_distance": float(v @ d_full / v.sum()),
    }


# ----------------------------------------------------------------------------- GIBU
@dataclass
class GIBUResult:
    """Result of :func:`gibu`: ``estimate``, ``n_iter``, ``loglik`` (trace, per-report mean), ``converged``."""

    estimate: np.ndarray
    n_iter: int
    loglik: np.ndarray = field(repr=False)
    converged: bool


def _stack(channels, counts_list):
    Cs = [check_channel(C, f"channels[{i}]") for i, C in enumerate(channels)]
    if not Cs:
        raise ValueError("channels must be a non-empty list")
    if len(counts_list) != len(Cs):
        raise ValueError(f"need one counts vector per channel, got {len(counts_list)} for {len(Cs)}")
    m, n = Cs[0].shape
    if any(C.shape != (m, n) for C in Cs):
        raise ValueError("all channels must have the same shape")
    N = np.stack([check_counts(c, f"counts[{i}]") for i, c in enumerate(counts_list)]).astype(float)
    if N.shape[1] != n:
        raise ValueError(f"counts must have length {n}")
    if np.any(N.sum(axis=1) <= 0):
        raise ValueError("every cycle needs at least one report")
    return np.stack(Cs), N


def gibu_log_likelihood(theta, channels, counts_list) -> float:
    """``L(theta) / n_total = sum_t sum_y (n_t(y) / n_total) log (theta C^(t))_y`` (Def. 2.6; spec A3)."""
    Cs, N = _stack(channels, counts_list)
    den = np.einsum("x,txy->ty", np.asarray(theta, dtype=float), Cs)
    w = N / N.sum()
    mask = w > 0
    with np.errstate(divide="ignore"):
        return float(np.sum(w[mask] * np.log(den[mask])))


def gibu(channels, counts_list, *, theta0=None, tol: float = 1e-10, max_iter: int = 5000) -> GIBUResult:
    """Generalised IBU over several (channel, reports) pairs (paper Def. 2.6; ElSalamouny & Palamidessi 2020).

    ``theta_{r+1}(x) = sum_t w_t sum_y q_t(y) theta_r(x) C^(t)_xy / sum_z theta_r(z) C^(t)_zy`` with
    ``w_t = n_t / sum_s n_s``, i.e. EM for the pooled reports of all cycles.  Stops when the
    per-report log-likelihood gains less than ``tol`` (``tol=0``: exactly ``max_iter`` updates).
    """
    Cs, N = _stack(channels, counts_list)
    T, m, n = Cs.shape
    tol = check_nonnegative(tol, "tol")
    max_iter = check_positive_int(max_iter, "max_iter", minimum=0)
    if theta0 is None:
        theta = np.full(m, 1.0 / m)
    else:
        t0 = check_finite_array(theta0, "theta0", ndim=1)
        if t0.shape != (m,) or np.any(t0 < 0) or not t0.sum() > 0:
            raise ValueError(f"theta0 must be a non-negative vector of length {m} with a positive sum")
        theta = t0 / t0.sum()
    # the combined channel G = (C^(1) ... C^(N)) (m x N n) and the pooled weights w_t q_t(y)
    W = (N / N.sum()).ravel()
    obs = W > 0
    G = np.ascontiguousarray(Cs.transpose(1, 0, 2).reshape(m, T * n)[:, obs])
    impossible = G.sum(axis=0) <= 0
    if np.any(impossible):
        t, y = divmod(int(np.flatnonzero(obs)[np.flatnonzero(impossible)[0]]), n)
        raise ValueError(f"counts[{t}] reports output {y}, which has probability 0 under every input of "
                         f"channels[{t}]: the counts are impossible under these channels")
    w = W[obs]
    trace = []
    den = theta @ G
    trace.append(float(w @ np.log(np.maximum(den, 1e-300))))
    converged = False
    it = 0
    while it < max_iter:
        theta = theta * (G @ (w / np.maximum(den, 1e-300)))
        theta /= theta.sum()
        den = theta @ G
        it += 1
        trace.append(float(w @ np.log(np.maximum(den, 1e-300))))
        if tol > 0 and abs(trace[-1] - trace[-2]) < tol:
            converged = True
            break
    return GIBUResult(theta, it, np.asarray(trace), converged)


# ----------------------------------------------------------------------------- PRIVIC
@dataclass
class PrivicResult:
    """Result of :func:`privic`.

    ``thetas[t]`` is theta_t (``thetas[0]`` = uniform start), ``channels[t-1]`` the BA channel of
    cycle t, ``report_counts[t-1]`` its reports; ``emd[t] = EMD(theta_t, pi_true)`` (grid units);
    ``pi_hat`` the final estimate (GIBU if ``final_gibu`` else theta_N) and ``final_channel`` =
    BA(pi_hat).
    """

    thetas: list
    channels: list
    report_counts: list
    emd: np.ndarray
    pi_hat: np.ndarray
    final_channel: np.ndarray
    gibu_emd: float | None = None


def privic(true_counts, distance, beta: float, *, n_cycles: int, ba_iter: int, ibu_iter: int,
           n_per_cycle: int | None = None, warm_start: bool = True, combine: bool = False,
           final_gibu: bool = False, gibu_iter: int = 5000, gibu_tol: float = 1e-10,
           theta0=None, monitor: bool = True, rng=None) -> PrivicResult:
    """PRIVIC (paper Alg. 1 / §5): alternate BA mechanism, collection, IBU.

    For t = 1..N:

    1. ``C^(t) = BA(theta_{t-1}, c_0 = uniform, beta)`` with ``ba_iter`` iterations;
    2. collect reports: with ``n_per_cycle=None`` every user of ``true_counts`` reports once more
       with fresh randomness (protocol A11, which reproduces Tables III-IV); otherwise
       ``n_per_cycle`` fresh users are drawn i.i.d. from the true distribution (Alg. 1 as written);
    3. ``mu_t = IBU(C^(t), q_t)`` for ``ibu_iter`` iterations, started at ``theta_{t-1}``
       (``warm_start=True``, as in Alg. 1) or at uniform;
    4. ``theta_t = mu_t`` (``combine=False``, protocol A11) or the sample-weighted average
       ``theta_t = (S_{t-1} theta_{t-1} + n_t mu_t) / (S_{t-1} + n_t)`` (the ⊕ of step iv).

    With ``final_gibu=True``, ``pi_hat = GIBU((C^(1), y^(1)), ..., (C^(N), y^(N)))`` (step 3 of
    Alg. 1) else ``pi_hat = theta_N``; the returned mechanism is ``BA(pi_hat)``.

    ``emd[t] = EMD(theta_t, pi_true)`` with ``pi_true = true_counts / n`` when ``monitor``.
    """
    counts = check_counts(true_counts, "true_counts")
    D = np.asarray(distance, dtype=float)
    m = counts.size
    if D.shape != (m, m):
        raise ValueError(f"distance must be ({m}, {m}), got {D.shape}")
    for name, v in (("n_cycles", n_cycles), ("ba_iter", ba_iter), ("ibu_iter", ibu_iter)):
        if isinstance(v, bool) or int(v) != v or v < 1:
            raise ValueError(f"{name} must be a positive integer, got {v!r}")
    rng = check_random_state(rng)
    n = int(counts.sum())
    pi = counts / n
    theta = np.full(m, 1.0 / m) if theta0 is None else np.asarray(theta0, dtype=float) / np.sum(theta0)
    thetas = [theta]
    channels, reports = [], []
    emds = [_emd(theta, pi, D)] if monitor else []
    S = 0
    for _ in range(int(n_cycles)):
        C = blahut_arimoto(theta, D, beta, n_iter=int(ba_iter)).channel
        if n_per_cycle is None:
            x_counts = counts
        else:
            x_counts = rng.multinomial(int(n_per_cycle), pi)
        y = _simulate(C, x_counts, rng)
        start = theta if warm_start else None
        mu = _ibu(C, y, start, ibu_iter)
        n_t = int(y.sum())
        if combine and S > 0:
            theta = (S * theta + n_t * mu) / (S + n_t)
        else:
            theta = mu
        S += n_t
        thetas.append(theta)
        channels.append(C)
        reports.append(y)
        if monitor:
            emds.append(_emd(theta, pi, D))
    gibu_emd = None
    if final_gibu:
        pi_hat = gibu(channels, reports, tol=gibu_tol, max_iter=gibu_iter).estimate
        if monitor:
            gibu_emd = _emd(pi_hat, pi, D)
    else:
        pi_hat = theta
    final = blahut_arimoto(pi_hat, D, beta, n_iter=int(ba_iter)).channel
    return PrivicResult(thetas, channels, reports, np.asarray(emds), pi_hat, final, gibu_emd)


def privic_table(true_counts, distance, betas, *, rounds: int, n_rows: int, ba_iter: int,
                 ibu_iter: int, seed=0, **kwargs) -> pd.DataFrame:
    """EMD per PRIVIC row for several beta and rounds (Tables III/IV, Figs. 8-10).

    Row ``N`` is ``theta_{N-1}`` (row 1 = the uniform start), as in the paper's tables.  Every
    (beta, round) gets its own generator spawned from ``SeedSequence(seed)``.  Returns a long
    DataFrame with columns ``beta, round, row, emd``.
    """
    betas = [float(b) for b in np.atleast_1d(betas)]
    children = np.random.SeedSequence(seed).spawn(len(betas) * int(rounds))
    recs = []
    for i, b in enumerate(betas):
        for r in range(int(rounds)):
            res = privic(true_counts, distance, b, n_cycles=int(n_rows) - 1, ba_iter=ba_iter,
                         ibu_iter=ibu_iter, rng=np.random.default_rng(children[i * int(rounds) + r]), **kwargs)
            for row, e in enumerate(res.emd, start=1):
                recs.append((b, r, row, float(e)))
    return pd.DataFrame(recs, columns=["beta", "round", "row", "emd"])


# ----------------------------------------------------------------------------- Fig. 3
def tight_eps_ba(pi, distance, betas, *, n_iter: int = 10) -> np.ndarray:
    """Tight geo-ind epsilon of BA(pi, beta, n_iter) for each beta (the authors' ``eps_tight`` list)."""
    return np.array([_tight_eps(blahut_arimoto(pi, distance, b, n_iter=n_iter).channel, distance)
                     for b in np.atleast_1d(betas)])


def stat_utility_sweep(true_counts, shape, betas, lap_eps, *, sims: int, ba_iter: int = 10,
                       ibu_iter: int = 10, pad: int = 5, seed=0) -> pd.DataFrame:
    """Statistical utility EMD(pi, pi_hat) of BA and LAP (paper §3.2, Fig. 3; spec §5).

    Per beta and simulation, every user of ``true_counts`` reports once through

    * BA = BA(pi_true, beta, ``ba_iter``), estimated by IBU (``ibu_iter`` iterations) started
      from uniform (variant A, the stated protocol: ``"BA"``) and from the prior that built BA
      (variant B: ``"BA (IBU from own prior)"``, same reports);
    * LAP = :func:`lap_grid_channel` (padded by ``pad``) at ``lap_eps[i]`` (the tight epsilon of
      BA), estimated by IBU from uniform over the grid cells (``"LAP"``).

    Returns a long DataFrame with columns ``beta, eps, sim, mechanism, emd``.
    """
    from ldpnb.estimators import ibu_batch

    counts = check_counts(true_counts, "true_counts")
    rows, cols = _shape(shape)
    D = privic_distance((rows, cols))
    pi = counts / counts.sum()
    betas = np.atleast_1d(np.asarray(betas, dtype=float))
    lap_eps = np.atleast_1d(np.asarray(lap_eps, dtype=float))
    if lap_eps.shape != betas.shape:
        raise ValueError("lap_eps must have one value per beta")
    children = np.random.SeedSequence(seed).spawn(betas.size)
    recs = []
    for b, e, ss in zip(betas, lap_eps, children):
        rng = np.random.default_rng(ss)
        C_ba = blahut_arimoto(pi, D, b, n_iter=ba_iter).channel
        C_lap = lap_grid_channel((rows, cols), e, pad=pad)
        Y_ba = np.stack([_simulate(C_ba, counts, rng) for _ in range(int(sims))])
        Y_lap = np.stack([_simulate(C_lap, counts, rng) for _ in range(int(sims))])
        est = {
            "BA": ibu_batch(C_ba, Y_ba, tol=0.0, max_iter=ibu_iter),
            "BA (IBU from own prior)": ibu_batch(C_ba, Y_ba, theta0=pi, tol=0.0, max_iter=ibu_iter),
            "LAP": ibu_batch(C_lap, Y_lap, tol=0.0, max_iter=ibu_iter),
        }
        for name, T in est.items():
            for s in range(int(sims)):
                recs.append((float(b), float(e), s, name, _emd(T[s], pi, D)))
    return pd.DataFrame(recs, columns=["beta", "eps", "sim", "mechanism", "emd"])


# ----------------------------------------------------------------------------- BA to convergence (§8 P3)
def ba_convergence_summary(pi, distance, betas, *, n_iter: int = 10, tol: float = 1e-7,
                           max_iter: int = 50_000, support_tol: float = 1e-6) -> pd.DataFrame:
    """What "BA until converged" means on a real prior (spec §8 P3 and T-H test 3).

    For each beta: the condition number of the 10-iteration channel, the number of BA iterations
    needed to reach ``max |dC| < tol``, and at that point the output support size
    (``c(y) > support_tol``), I(X;Y) (nats) and AvgD, next to the same for ``n_iter`` iterations.
    """
    from ldpnb.rate_distortion import average_distortion, mutual_information_nats

    p = np.asarray(pi, dtype=float) / np.sum(pi)
    recs = []
    for b in np.atleast_1d(betas):
        short = blahut_arimoto(p, distance, b, n_iter=n_iter)
        full = blahut_arimoto(p, distance, b, n_iter=None, tol=tol, max_iter=max_iter)
        recs.append({
            "beta": float(b),
            f"cond C^({n_iter})": float(np.linalg.cond(short.channel)),
            f"MI ({n_iter} it.)": mutual_information_nats(p, short.channel),
            f"AvgD ({n_iter} it.)": average_distortion(p, short.channel, distance),
            f"support ({n_iter} it.)": int(np.sum(short.output_marginal > support_tol)),
            "iterations to converge": full.n_iter,
            "converged": full.converged,
            "MI (converged)": mutual_information_nats(p, full.channel),
            "AvgD (converged)": average_distortion(p, full.channel, distance),
            "support (converged)": int(np.sum(full.output_marginal > support_tol)),
        })
    return pd.DataFrame(recs)


# ----------------------------------------------------------------------------- plotting helper
def heatmap(ax, vec, shape, *, title: str = "", cmap: str = "viridis", vmax=None, marks=None,
            colorbar: bool = True, label: str = "probability"):
    """Draw a vector over the grid (row 0 = north at the top, col 0 = west at the left).

    ``marks`` is a dict ``{"A": (r, c), ...}`` of labelled cells.  Axes are in grid units
    (column = west -> east, row = north -> south).
    """
    rows, cols = _shape(shape)
    img = np.asarray(vec, dtype=float).reshape(rows, cols)
    im = ax.imshow(img, cmap=cmap, vmin=0, vmax=vmax, origin="upper", interpolation="nearest")
    for name, (r, c) in (marks or {}).items():
        ax.plot(c, r, marker="s", ms=9, mfc="none", mec="red", mew=1.6)
        ax.annotate(name, (c, r), xytext=(3, -8), textcoords="offset points", color="red",
                    fontweight="bold")
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("column, west → east (grid units)")
    ax.set_ylabel("row, north → south (grid units)")
    ax.grid(False)
    if title:
        ax.set_title(title)
    if colorbar:
        ax.figure.colorbar(im, ax=ax, shrink=0.8, label=label)
    return im


def _box(ax, xy, text, w=0.26, h=0.16, fc="#e8f1fa"):
    from matplotlib.patches import FancyBboxPatch

    x, y = xy
    ax.add_patch(FancyBboxPatch((x - w / 2, y - h / 2), w, h, boxstyle="round,pad=0.02", fc=fc, ec="#0072B2"))
    ax.text(x, y, text, ha="center", va="center", fontsize=9)


def _arrow(ax, a, b, text="", rad=0.0):
    ax.annotate("", xy=b, xytext=a, arrowprops=dict(arrowstyle="-|>", lw=1.4, color="#333333",
                                                       connectionstyle=f"arc3,rad={rad}"))
    if text:
        ax.text((a[0] + b[0]) / 2, (a[1] + b[1]) / 2 + 0.04, text, ha="center", fontsize=8, color="#333333")


def draw_duality(ax):
    """Fig. 4 (illustration): BA's marginal update is an IBU step with the roles of X and Y swapped."""
    ax.set_axis_off()
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    _box(ax, (0.22, 0.75), "BA (eq. 5)\n$c_{t+1}(y)=\\sum_x \\pi(x)\\,\\frac{c_t(y)K(x,y)}{\\sum_z c_t(z)K(x,z)}$", w=0.40, h=0.2)
    _box(ax, (0.78, 0.75), "IBU (Def. 2.5)\n$\\theta_{r+1}(x)=\\sum_y q(y)\\,\\frac{\\theta_r(x)C_{xy}}{\\sum_z \\theta_r(z)C_{zy}}$", w=0.40, h=0.2, fc="#fdf0e6")
    pairs = [("output $y$", "secret $x$"), ("prior $\\pi$", "observed $q$"),
             ("kernel $K(x,y)=e^{-\\beta d(x,y)}$", "channel $C_{y\\to x}$"), ("marginal $c_t$", "estimate $\\theta_r$")]
    for i, (l, r) in enumerate(pairs):
        y = 0.48 - 0.12 * i
        ax.text(0.22, y, l, ha="center", va="center", fontsize=9)
        ax.text(0.78, y, r, ha="center", va="center", fontsize=9)
        ax.annotate("", xy=(0.62, y), xytext=(0.40, y), arrowprops=dict(arrowstyle="<|-|>", color="#888888"))


def draw_privic_loop(ax):
    """Fig. 5 / Alg. 1 (illustration): the PRIVIC cycle BA -> collection -> IBU -> (⊕) -> BA."""
    ax.set_axis_off()
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    _box(ax, (0.15, 0.8), "$\\theta_0$ = uniform\n$c_0$ = uniform", fc="#eeeeee")
    _box(ax, (0.5, 0.8), "(i) BA\n$\\hat C^{(t)}=\\mathrm{BA}(\\theta_{t-1},c_0,\\beta)$")
    _box(ax, (0.85, 0.5), "(ii) users report\n$y^{(t)}\\sim \\hat C^{(t)}[x,\\cdot]$\n$\\to q_t$", fc="#e6f4ea")
    _box(ax, (0.5, 0.2), "(iii) IBU from $\\theta_{t-1}$\n$\\mu_t=\\mathrm{IBU}(\\hat C^{(t)},\\theta_{t-1},q_t)$", fc="#fdf0e6")
    _box(ax, (0.15, 0.45), "(iv) $\\theta_t=\\mu_t$\n(or $\\mu_t\\oplus\\theta_{t-1}$)", fc="#fdf0e6")
    _box(ax, (0.15, 0.12), "after N cycles:\nGIBU over all $(\\hat C^{(t)},y^{(t)})$", fc="#eeeeee")
    _arrow(ax, (0.28, 0.8), (0.37, 0.8))
    _arrow(ax, (0.63, 0.75), (0.8, 0.6))
    _arrow(ax, (0.8, 0.4), (0.63, 0.25))
    _arrow(ax, (0.37, 0.22), (0.2, 0.37))
    _arrow(ax, (0.2, 0.53), (0.37, 0.74), "t ← t+1")
    _arrow(ax, (0.15, 0.37), (0.15, 0.21))
