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

from dataclasses import dataclass
import numpy as np
from ldpnb.data.grid import padded_lattice_distance
from ldpnb.mechanisms.metric import planar_laplace_padded_channel
import pandas as pd
from ldpnb.mechanisms.rate_distortion import blahut_arimoto
from ldpnb.utils import (
    check_counts, check_positive_int,
    check_random_state,
)
from ldpnb.papers.privic.values import CITY_SHAPE, ISLAND_A
from ldpnb.estimators._ibu import gibu, ibu_step
from ldpnb.mechanisms.rate_distortion import _as_beta, _as_distance, _as_prior, ba_F, ba_G
from ldpnb.data.grid import bin_latlon
from ldpnb.data.datasets import load_gowalla_privic

__all__ = [
    "privic_distance",
    "flat_index",
    "block_indices",
    "lap_grid_channel",
    "island_prior",
    "adversarial_prior",
    "adversarial_percent",
    "row_stats",
    "PrivicResult",
    "privic",
    "privic_table",
    "stat_utility_sweep",
    "tight_eps_ba",
    "inner_columns",
    "ba_convergence_summary",
    "ba_ibu_duality_gap",
    "right_inverse_residual",
    "privic_edges",
    "privic_bins",
    "load_privic_counts",
]


# ----------------------------------------------------------------------------- core helpers
def _emd(a, b, distance) -> float:
    from ldpnb.measures.utility import emd

    return float(emd(a, b, distance))


def _simulate(channel, input_counts, rng) -> np.ndarray:
    from ldpnb.channels._generic import simulate_counts

    return simulate_counts(channel, input_counts, rng=rng)


def _tight_eps(channel, distance) -> float:
    from ldpnb.channels._generic import geo_ind_epsilon

    return float(geo_ind_epsilon(channel, distance))


def _ibu(channel, counts, theta0, n_iter):
    from ldpnb.estimators._ibu import ibu

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
def privic_distance(shape, *, pad: int = 0) -> np.ndarray:
    """Euclidean distance in grid units between the cells of a PRIVIC grid and the cells of the grid
    padded by ``pad`` cells (:func:`ldpnb.data.grid.padded_lattice_distance`).

    ``shape`` is ``"paris"``, ``"sf"`` or ``(rows, cols)``.  One grid unit is about 0.48 km (Paris)
    and 0.50 km (SF).
    """
    return padded_lattice_distance(*_shape(shape), pad=pad)


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
    """LAP of the paper (the authors' ``LaplaceBetter``): the discrete planar Laplace of
    :func:`ldpnb.mechanisms.planar_laplace_padded_channel` on a PRIVIC grid (``"paris"``, ``"sf"`` or
    ``(rows, cols)``), outputs on the grid padded by ``pad`` cells."""
    return planar_laplace_padded_channel(*_shape(shape), epsilon, pad=pad)


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
    from ldpnb.estimators._ibu import ibu_batch

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
    from ldpnb.mechanisms.rate_distortion import average_distortion, mutual_information_nats

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


def ba_ibu_duality_gap(prior, distance, beta: float, c0=None, n_steps: int = 50, *,
                       normalised_kernel: bool = False) -> float:
    """``max_t max_y |c_t(y) - theta_t(y)|`` between BA marginals and dual IBU iterates (§4, eq. (5)).

    BA: ``c_{t+1} = G(F(c_t))``.  Dual IBU: secret = BA's output ``y``, observed distribution =
    BA's prior ``pi``, channel ``C'[y, x] = K(x, y) = exp(-beta d(x, y))`` (the kernel *transposed*,
    unnormalised), start ``theta_0 = c_0``.  Eq. (5) says the two sequences coincide.  With
    ``normalised_kernel=True`` the dual channel is K row-normalised (a proper channel); the identity
    then holds only when the column sums of K do not depend on ``y``.
    """
    p = _as_prior(prior)
    d = _as_distance(distance, p.size)
    b = _as_beta(beta)
    if d.shape[0] != d.shape[1]:
        raise ValueError("the duality check needs a square distance (Y = X)")
    K = np.exp(-b * d)
    c = np.full(p.size, 1.0 / p.size) if c0 is None else _as_prior(c0, "c0")
    Cdual = K.T.copy()
    if normalised_kernel:
        Cdual = Cdual / Cdual.sum(axis=1, keepdims=True)
    theta = c.copy()
    gap = 0.0
    for _ in range(int(n_steps)):
        c = ba_G(ba_F(c, K), p)
        theta = ibu_step(theta, Cdual, p)
        gap = max(gap, float(np.max(np.abs(c - theta))))
    return gap


def right_inverse_residual(channels) -> float:
    """``max |G G' - I|`` for ``G = (C_1 ... C_N)`` and ``G' = (1/N) (C_1^{-1}; ...; C_N^{-1})`` (Thm 5.2)."""
    Cs = [np.asarray(C, dtype=float) for C in channels]
    if not Cs:
        raise ValueError("channels must be a non-empty list")
    m = Cs[0].shape[0]
    if any(C.shape != (m, m) for C in Cs):
        raise ValueError("every channel must be square with the same size")
    G = np.hstack(Cs)
    Gp = np.vstack([np.linalg.inv(C) for C in Cs]) / len(Cs)
    return float(np.max(np.abs(G @ Gp - np.eye(m))))


def privic_edges(city: str) -> tuple[np.ndarray, np.ndarray, str]:
    """``(lat_edges, lon_edges, closed)`` of the PRIVIC authors' grids (spec 004 §3 A5).

    Paris: ``np.arange(48.8286, 48.8798, 0.00427)`` x ``np.arange(2.2855, 2.3909, 0.0066)``,
    half-open ``(e_{i+1}, e_i]`` -> 11 x 15 cells.  San Francisco:
    ``np.arange(37.7228, 37.7946, 0.0044875)`` x ``np.arange(-122.5153, -122.3789, 0.005683)``,
    closed intervals -> 16 x 24 cells.
    """
    if city == "paris":
        return np.arange(48.8286, 48.8798, 0.00427), np.arange(2.2855, 2.3909, 0.0066), "right"
    if city == "sf":
        return np.arange(37.7228, 37.7946, 0.0044875), np.arange(-122.5153, -122.3789, 0.005683), "both"
    raise ValueError(f"city must be 'paris' or 'sf', got {city!r}")


def privic_bins(lat, lon, city: str, *, orientation: str = "west0") -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns of points on the PRIVIC grid of ``city`` (``-1`` = dropped).

    Row 0 = north.  ``orientation="west0"`` (default, the canonical orientation of spec 004): column
    0 = west; ``"east0"``: column 0 = east, as in the authors' grid files.  Flat index = ``cols * r + c``.
    """
    if orientation not in ("west0", "east0"):
        raise ValueError(f"orientation must be 'west0' or 'east0', got {orientation!r}")
    lat_e, lon_e, closed = privic_edges(city)
    r, c = bin_latlon(lat, lon, lat_e, lon_e, closed=closed, descending=True)
    if orientation == "west0":
        c = np.where(c >= 0, lon_e.size - 2 - c, -1)
    return r, c


def load_privic_counts(city: str, *, drop_first: bool = True, orientation: str = "west0") -> np.ndarray:
    """Check-in counts on the PRIVIC grids, a ``(rows, cols)`` int64 matrix (spec 004 §3 A5, §6 D1).

    The points of :func:`load_gowalla_privic` are binned with the authors' edges
    (:func:`ldpnb.grid.privic_bins`: Paris 11 x 15, half-open cells; SF 16 x 24, closed cells);
    points outside every bin are dropped (Paris 10,991 -> 10,079; SF keeps all 123,026). The
    authors then read their grid file with ``pandas.read_csv``, which takes the first binned point
    as a header: ``drop_first=True`` (default) drops it too, giving N = 10,078 (Paris) and
    123,025 (SF), the totals that reproduce the paper's Tables III/IV.

    Row 0 = north; ``orientation="west0"`` puts column 0 west (canonical), ``"east0"`` east (the
    authors' files). Flat index = ``cols * r + c``: ``counts.ravel()``.
    """


    pts = load_gowalla_privic(city)
    r, c = privic_bins(pts["lat"].to_numpy(), pts["lon"].to_numpy(), city, orientation=orientation)
    keep = r >= 0
    r, c = r[keep], c[keep]
    if drop_first:
        r, c = r[1:], c[1:]
    shape = {"paris": (11, 15), "sf": (16, 24)}[city]
    counts = np.zeros(shape, dtype=np.int64)
    np.add.at(counts, (r, c), 1)
    return counts
