r"""PRIVIC (Biswas and Palamidessi 2023): the paper's grids, priors, LAP, row statistics and the
PRIVIC loop.

The paper-specific pieces of *PRIVIC: A privacy-preserving method for incremental collection of
location data* (Biswas and Palamidessi 2023):

* the grids of the authors' Gowalla extracts (Paris 11 x 15, San Francisco 16 x 24 cells, unit
  spacing) and the ground distance in grid units (Sec. 3, Sec. 6);
* LAP as the authors ran it: the discrete planar Laplace on the grid padded by 5 cells (Figs. 2-3);
* the island prior of Fig. 1 (Sec. 3.1), in three versions: the vector of the authors' figures, the
  recipe of the paper's text, and a renormalised variant; the adversarial priors of Sec. 7 (fake
  reports of one cell);
* statistics of a reporting distribution (Figs. 2 and 11) and its distance to LAP's;
* the PRIVIC loop (Alg. 1) and the per-round tables (Tables III-IV, Figs. 8-10);
* the loaders of the authors' check-ins on their grids.

Generic pieces come from the core: the BA mechanism (:mod:`ldpnb.mechanisms.rate_distortion`), IBU
and GIBU (:mod:`ldpnb.estimators`), count simulation and geo-ind levels (:mod:`ldpnb.channels`), EMD
(:mod:`ldpnb.measures`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ldpnb.channels._generic import geo_ind_epsilon, simulate_counts
from ldpnb.contracts import (
    EPSILON,
    POSITIVE,
    SAMPLE_SIZE,
    AnyOf,
    Array,
    Boolean,
    Counts,
    DistanceMatrix,
    Integer,
    OneOf,
    Optional,
    RandomState,
    Real,
    Unchecked,
    contract,
)
from ldpnb.data.datasets import load_gowalla_privic
from ldpnb.data.grid import bin_latlon, padded_lattice_distance
from ldpnb.estimators._ibu import gibu, ibu, ibu_step
from ldpnb.measures.utility import emd
from ldpnb.mechanisms.metric import planar_laplace_padded_channel
from ldpnb.mechanisms.rate_distortion import _as_beta, _as_distance, _as_prior, ba_F, ba_G, blahut_arimoto
from ldpnb.papers.privic.values import AUTHORS_FAKE_STEP, CITY_SHAPE, ISLAND_A
from ldpnb.utils import check_counts, check_positive_int, check_random_state

__all__ = [
    "privic_distance",
    "flat_index",
    "block_indices",
    "lap_grid_channel",
    "lap_tight_level",
    "lap_at_level",
    "inner_columns",
    "padded_row",
    "ISLAND_MODES",
    "island_prior",
    "adversarial_prior",
    "fake_report_share",
    "paper_label_percent",
    "row_stats",
    "row_similarity",
    "PrivicResult",
    "privic",
    "privic_table",
    "tight_eps_ba",
    "ba_convergence_summary",
    "ba_ibu_duality_gap",
    "elastic_fixpoints",
    "all_supports",
    "right_inverse_residual",
    "privic_edges",
    "privic_bins",
    "load_privic_counts",
]

#: Largest grid (cells) a PRIVIC function accepts: the distance matrices are dense (m x m), so 4,096
#: cells (128 MiB a matrix) bounds every allocation; the paper's grids have 165 and 384 cells.
MAX_CELLS = 1 << 12


def _shape(shape) -> tuple[int, int]:
    if isinstance(shape, str):
        if shape not in CITY_SHAPE:
            raise ValueError(f"shape must be one of {sorted(CITY_SHAPE)} or (rows, cols), got {shape!r}")
        return CITY_SHAPE[shape]
    if isinstance(shape, (str, bytes)) or not hasattr(shape, "__len__") or len(shape) != 2:
        raise ValueError(f"shape must be a city name or a pair (rows, cols), got {shape!r}")
    r, c = shape
    # integers >= 1: a float such as 2.5 is refused, never truncated
    r, c = check_positive_int(r, "shape[0] (rows)", minimum=1), check_positive_int(c, "shape[1] (cols)", minimum=1)
    if r * c > MAX_CELLS:
        raise ValueError(f"a grid of {r} x {c} = {r * c:,} cells exceeds MAX_CELLS = {MAX_CELLS:,} (dense distances)")
    return r, c


#: A PRIVIC grid: ``"paris"``, ``"sf"`` or ``(rows, cols)`` (positive integers; at most :data:`MAX_CELLS`
#: cells in all, checked by :func:`_shape` before any allocation).
_SHAPE = AnyOf(OneOf("paris", "sf"), Array(1, shape=(2,), low=1, high=MAX_CELLS, integer=True))
#: A cell ``(row, column)``: two integers >= 0 (inside the grid: checked with the shape in the body).
_CELL = Array(1, shape=(2,), low=0, high=MAX_CELLS, integer=True)


# ----------------------------------------------------------------------------- grid
@contract(shape=_SHAPE, pad=Integer(0, 1000))
def privic_distance(shape, *, pad: int = 0) -> np.ndarray:
    """Euclidean distance in grid units between the cells of a PRIVIC grid and the cells of the grid
    padded by ``pad`` cells (:func:`ldpnb.data.grid.padded_lattice_distance`).

    ``shape`` is ``"paris"``, ``"sf"`` or ``(rows, cols)``.  One grid unit is about 0.48 km (Paris)
    and 0.50 km (San Francisco); the paper's EMDs (Tables III-IV) are in these units.
    """
    return padded_lattice_distance(*_shape(shape), pad=pad)


@contract(shape=_SHAPE, cell=_CELL)
def flat_index(shape, cell) -> int:
    """Row-major flat index ``cols * r + c`` of the cell ``(r, c)``."""
    rows, cols = _shape(shape)
    r, c = (int(v) for v in cell)
    if not (0 <= r < rows and 0 <= c < cols):
        raise ValueError(f"cell {cell!r} is outside the {rows} x {cols} grid")
    return cols * r + c


@contract(shape=_SHAPE, center=_CELL, radius=Integer(0, 1000))
def block_indices(shape, center, radius: int = 2) -> np.ndarray:
    """Flat indices of the Chebyshev block ``max(|r - r0|, |c - c0|) <= radius`` (clipped to the grid).

    With ``radius=2`` around A this is the 5 x 5 "deserted" block of the island (Sec. 3.1).
    """
    rows, cols = _shape(shape)
    flat_index((rows, cols), center)  # refuses a centre outside the grid
    r0, c0 = (int(v) for v in center)
    rr, cc = np.divmod(np.arange(rows * cols), cols)
    return np.flatnonzero(np.maximum(np.abs(rr - r0), np.abs(cc - c0)) <= int(radius))


# ----------------------------------------------------------------------------- LAP
@contract(shape=_SHAPE, epsilon=EPSILON, pad=Integer(0, 1000))
def lap_grid_channel(shape, epsilon: float, *, pad: int = 5) -> np.ndarray:
    r"""LAP as run in the paper's Figs. 2-3: the discrete planar Laplace
    :math:`C_{xy} \propto e^{-\varepsilon d(x, y)}` on a PRIVIC grid (``"paris"``, ``"sf"`` or
    ``(rows, cols)``), outputs on the grid padded by ``pad`` cells
    (:func:`ldpnb.mechanisms.planar_laplace_padded_channel`; Andres et al. 2013)."""
    return planar_laplace_padded_channel(*_shape(shape), epsilon, pad=pad)


@contract(shape=_SHAPE, epsilon=EPSILON, pad=Integer(0, 1000))
def lap_tight_level(shape, epsilon: float, *, pad: int = 5) -> float:
    r"""Tight geo-ind level of :func:`lap_grid_channel` at nominal ``epsilon``:
    :math:`\max_{x \ne x', y} \log(C_{xy}/C_{x'y})/d(x, x')` over the grid's inputs.

    Each row is normalised over the padded output grid, so
    :math:`C_{xy}/C_{x'y} = e^{-\varepsilon(d(x,y) - d(x',y))} Z(x')/Z(x)` and the level exceeds the
    nominal one by the spread of the normalisers: by 9.5 % at :math:`\varepsilon \approx 0.39` on the
    Paris grid with ``pad=5``, by less than 0.2 % from :math:`\varepsilon = 1.16` on.

    Examples
    --------
    >>> round(lap_tight_level((3, 3), 1.0, pad=0) / 1.0, 3) > 1
    True
    """
    return float(geo_ind_epsilon(lap_grid_channel(shape, epsilon, pad=pad), privic_distance(shape)))


@contract(shape=_SHAPE, level=POSITIVE, pad=Integer(0, 1000), tol=POSITIVE)
def lap_at_level(shape, level: float, *, pad: int = 5, tol: float = 1e-10) -> float:
    r"""The nominal :math:`\varepsilon` at which :func:`lap_grid_channel` is *tightly* ``level``-geo-ind
    (:func:`lap_tight_level` equals ``level``), by Brent's method on :math:`[\text{level}/2,
    \text{level}]`.

    The paper tunes LAP to "the same level of geo-ind" as BA (Sec. 3.1); the authors' code sets the
    nominal :math:`\varepsilon` of LAP to BA's tight level, which leaves LAP's own tight level above it
    (:func:`lap_tight_level`).  This is the nominal value that matches the two levels exactly.

    Examples
    --------
    >>> e = lap_at_level((4, 4), 0.5, pad=2)
    >>> e < 0.5 and abs(lap_tight_level((4, 4), e, pad=2) - 0.5) < 1e-8
    True
    """
    from scipy.optimize import brentq  # noqa: PLC0415 lazy: scipy/numpy submodule loaded at first use

    f = lambda e: lap_tight_level(shape, e, pad=pad) - level  # noqa: E731
    if f(level) <= 0:
        return float(level)
    return float(brentq(f, level / 2, level, xtol=tol))


@contract(shape=_SHAPE, pad=Integer(0, 1000))
def inner_columns(shape, pad: int = 5) -> np.ndarray:
    """Indices, in the padded output grid, of the cells that coincide with the grid."""
    rows, cols = _shape(shape)
    r, c = np.divmod(np.arange(rows * cols), cols)
    return (r + pad) * (cols + 2 * pad) + (c + pad)


@contract(row=Array(1, low=0.0), shape=_SHAPE, pad=Integer(0, 1000))
def padded_row(row, shape="paris", pad: int = 5) -> np.ndarray:
    """A distribution over the grid cells, embedded in the padded output grid of :func:`lap_grid_channel`
    (zero outside the grid), so that a BA row and a LAP row live on the same output space."""
    rows, cols = _shape(shape)
    if row.shape != (rows * cols,):
        raise ValueError(f"row must have length {rows * cols}, got shape {row.shape}")
    out = np.zeros((rows + 2 * pad) * (cols + 2 * pad))
    out[inner_columns((rows, cols), pad)] = row
    return out


# ----------------------------------------------------------------------------- priors
#: The island recipes of :func:`island_prior`.
ISLAND_MODES = ("authors", "literal", "renorm")


@contract(
    pi=Array(1, low=0.0),
    shape=_SHAPE,
    A=_CELL,
    radius=Integer(0, 1000),
    mass_A=Real(0, 1, low_open=True, high_open=True),
    mode=OneOf(*ISLAND_MODES),
)
def island_prior(
    pi, shape="paris", *, A=ISLAND_A, radius: int = 2, mass_A: float = 0.01, mode: str = "authors"
) -> np.ndarray:
    """Prior with an artificial island around the vulnerable cell A (Biswas and Palamidessi, Sec. 3.1, Fig. 1).

    The cells of the Chebyshev block of ``radius`` around A (5 x 5 for radius 2) are emptied.  The
    paper's text gives the recipe: "assigning the probability mass of the grids around A to 0, and
    dumping this cumulative mass from the surrounding region to A, ensuring that the sum of the
    probability masses of all the grids remains to be 1".  Three versions:

    * ``mode="literal"``: the text's recipe.  A receives the whole mass of the block (its own
      included), so ``pi(A)`` = block mass (0.0842 on Paris: A becomes the *largest* cell of the map).
    * ``mode="authors"`` (default; the vector of the authors' released code, with which the paper's
      figures were drawn; Paris only): A keeps ``mass_A`` = 0.01, cell (2, 3) gains 0.01, and the rest
      of the block mass ``(M - mass_A - 0.01) / 5`` goes to each northern cell (1, 6) ... (1, 10).
    * ``mode="renorm"``: A keeps ``mass_A``; the other cells are rescaled to total ``1 - mass_A``.

    The total is 1 in every version.
    """
    rows, cols = _shape(shape)
    if pi.shape != (rows * cols,):
        raise ValueError(f"pi must have length {rows * cols}, got shape {pi.shape}")
    if not pi.sum() > 0:
        raise ValueError("pi must have a positive total mass")
    p = pi / pi.sum()
    a = flat_index((rows, cols), A)
    blk = block_indices((rows, cols), A, radius)
    out = p.copy()
    removed = out[blk].sum()
    out[blk] = 0.0
    if mode == "literal":
        out[a] = removed
    elif mode == "authors":
        if (rows, cols) != CITY_SHAPE["paris"] or tuple(A) != ISLAND_A or radius != 2:
            raise ValueError("mode='authors' is the authors' Paris vector (A=(6,3), radius 2)")
        rest = removed - mass_A - 0.01
        if rest < 0:
            raise ValueError("the block around A holds too little mass for the authors' recipe")
        out[a] = mass_A
        out[flat_index((rows, cols), (2, 3))] += 0.01
        for c in range(6, 11):
            out[flat_index((rows, cols), (1, c))] += rest / 5
    else:
        if not out.sum() > 0:
            raise ValueError("no mass left outside the block to renormalise")
        out *= (1.0 - mass_A) / out.sum()
        out[a] = mass_A
    return out


@contract(pi_island=Array(1, low=0.0), level=Integer(0, 10_000), cell=_CELL, shape=_SHAPE, step=POSITIVE)
def adversarial_prior(
    pi_island, level: int, *, cell=ISLAND_A, shape="paris", step: float = AUTHORS_FAKE_STEP
) -> np.ndarray:
    r"""The prior that BA sees when colluding users falsely report ``cell`` (Biswas and Palamidessi, Sec. 7).

    .. math:: \pi_{adv} = (\pi + \delta\, e_{cell}) / (1 + \delta), \qquad \delta = \text{step} \cdot \text{level}.

    The authors' released vectors add ``delta = 0.005 k`` to ``pi(A)`` without renormalising (BA is
    invariant to the scale of the prior, so the two are the same mechanism): a population in which
    a share ``delta / (1 + delta)`` of all reports are fake reports of ``cell``
    (:func:`fake_report_share`).  ``cell = A`` is the paper's case (ii), ``cell = B`` its case (i).
    """
    rows, cols = _shape(shape)
    if pi_island.shape != (rows * cols,):
        raise ValueError(
            f"pi_island must have one entry per cell of the {rows} x {cols} grid ({rows * cols}), "
            f"got shape {pi_island.shape}"
        )
    if not pi_island.sum() > 0:
        raise ValueError("pi_island must have a positive total mass")
    delta = step * level
    out = pi_island / pi_island.sum()
    out[flat_index(shape, cell)] += delta
    return out / (1.0 + delta)


@contract(delta=Array(None, min_size=1, low=0.0))
def fake_report_share(delta) -> np.ndarray | float:
    r"""Share of all reports that are fake in :func:`adversarial_prior`: :math:`\delta / (1 + \delta)`."""
    out = delta / (1.0 + delta)
    return float(out) if out.ndim == 0 else out


@contract(delta=Array(None, min_size=1, low=0.0))
def paper_label_percent(delta) -> np.ndarray | float:
    r"""The mapping that reproduces the "% adversarial users" of the paper's Fig. 11 captions:
    :math:`1000\,\delta/(1+\delta)`, i.e. **ten times** the fake-report share in percent.

    For ``delta = 0.005 k`` it gives 9.9, 14.8, 19.6 (k = 2, 3, 4; caption: 10, 15, 20 %) and 29.1,
    33.8, 38.5 (k = 6, 7, 8; caption: 29, 34, 39 %).  It is our reconstruction: the paper does not
    define the percentage, the factor 10 has no stated basis, and 38.5 does not round to 39.
    """
    out = 1000.0 * delta / (1.0 + delta)
    return float(out) if out.ndim == 0 else out


# ----------------------------------------------------------------------------- row statistics
@contract(row=Array(1, low=0.0), shape=_SHAPE, A=_CELL, radius=Integer(0, 1000), pad=Integer(0, 1000))
def row_stats(row, shape="paris", *, A=ISLAND_A, radius: int = 2, pad: int = 0) -> dict:
    """Statistics of the reporting distribution ``row`` of the true cell A (Figs. 2 and 11).

    Returns ``p_self`` (P(report A)), ``p_block`` (mass on the Chebyshev block of ``radius``
    around A), ``argmax`` (the most likely reported grid cell, (r, c)), ``argmax_dist`` (its
    distance to A) and ``expected_distance`` (E[d(A, Y)], grid units, over *all* outputs).
    ``row`` is over the grid cells (row-major), or with ``pad > 0`` over the padded output grid of
    :func:`lap_grid_channel` (then the grid-cell statistics use the inner columns).
    """
    rows, cols = _shape(shape)
    n_out = (rows + 2 * pad) * (cols + 2 * pad)
    if row.shape != (n_out,):
        raise ValueError(f"row must have length {n_out}, got shape {row.shape}")
    if not row.sum() > 0:
        raise ValueError("row must have a positive total mass")
    a = flat_index((rows, cols), A)
    d_full = privic_distance((rows, cols), pad=pad)[a]
    inner = inner_columns((rows, cols), pad)
    g = row[inner]
    d = d_full[inner]
    k = int(np.argmax(g))
    return {
        "p_self": float(g[a]),
        "p_block": float(g[block_indices((rows, cols), A, radius)].sum()),
        "argmax": (k // cols, k % cols),
        "argmax_dist": float(d[k]),
        "expected_distance": float(row @ d_full / row.sum()),
    }


@contract(row_ba=Array(1, low=0.0), row_lap=Array(1, low=0.0), shape=_SHAPE, pad=Integer(0, 1000))
def row_similarity(row_ba, row_lap, shape="paris", pad: int = 5) -> dict:
    r"""How much a BA reporting distribution looks like LAP's: EMD and total variation on the common
    (padded) output space (Sec. 7, "BA and PRIVIC start behaving more like LAP").

    ``row_ba`` is over the grid (BA never reports outside it), ``row_lap`` over the grid padded by
    ``pad`` (:func:`lap_grid_channel`).  EMD uses the Euclidean ground distance in grid units, the
    paper's own distance between distributions (Def. 2.7); TV :math:`= \tfrac12\sum|p - q|` counts a
    report at A's neighbour as entirely different from a report at A.  Both are 0 iff the rows coincide.
    """
    rows, cols = _shape(shape)
    p = padded_row(row_ba, (rows, cols), pad)
    if row_lap.shape != p.shape:
        raise ValueError(f"row_lap must have length {p.size} (the padded grid), got shape {row_lap.shape}")
    R, C = rows + 2 * pad, cols + 2 * pad
    r, c = np.divmod(np.arange(R * C), C)
    D_pad = np.hypot(r[:, None] - r[None, :], c[:, None] - c[None, :])
    q = row_lap / row_lap.sum()
    return {"tv": 0.5 * float(np.abs(p / p.sum() - q).sum()), "emd": float(emd(p / p.sum(), q, D_pad))}


# ----------------------------------------------------------------------------- PRIVIC
@dataclass
class PrivicResult:
    """Result of :func:`privic`.

    ``thetas[t]`` is theta_t (``thetas[0]`` = the start), ``mus[t-1]`` the IBU estimate mu_t of cycle t
    (equal to theta_t without the combination), ``channels[t-1]`` the BA channel of cycle t,
    ``report_counts[t-1]`` its reports; ``emd[t] = EMD(theta_t, pi_true)`` (grid units); ``pi_hat``
    the final estimate (GIBU if ``final_gibu`` else theta_N) and ``final_channel`` = BA(pi_hat).
    """

    thetas: list
    channels: list
    report_counts: list
    emd: np.ndarray
    pi_hat: np.ndarray
    final_channel: np.ndarray
    gibu_emd: float | None = None
    mus: list | None = None


@contract(
    true_counts=Counts(),
    distance=DistanceMatrix(),
    beta=POSITIVE,
    n_cycles=Integer(1, 10_000),
    ba_iter=Integer(1, 10_000_000),
    ibu_iter=Integer(1, 10_000_000),
    n_per_cycle=Optional(SAMPLE_SIZE),
    warm_start=Boolean(),
    combine=Boolean(),
    final_gibu=Boolean(),
    gibu_iter=Integer(1, 10_000_000),
    gibu_tol=Real(0, None),
    theta0=Optional(Array(1, low=0.0)),
    monitor=Boolean(),
    rng=RandomState(),
)
def privic(
    true_counts,
    distance,
    beta: float,
    *,
    n_cycles: int,
    ba_iter: int,
    ibu_iter: int,
    n_per_cycle: int | None = None,
    warm_start: bool = True,
    combine: bool = False,
    final_gibu: bool = False,
    gibu_iter: int = 5000,
    gibu_tol: float = 1e-10,
    theta0=None,
    monitor: bool = True,
    rng=None,
) -> PrivicResult:
    r"""PRIVIC (Biswas and Palamidessi, Alg. 1 and Sec. 5): alternate the BA mechanism, the collection
    and IBU.

    For t = 1..N:

    1. :math:`\hat C^{(t)} = \mathrm{BA}(\theta_{t-1}, c_0 = \text{uniform}, \beta)` with ``ba_iter`` iterations;
    2. collect reports: with ``n_per_cycle=None`` every user of ``true_counts`` reports once more
       with fresh randomness (the protocol that reproduces Tables III-IV); otherwise ``n_per_cycle``
       fresh users are drawn i.i.d. from the true distribution (Alg. 1 as written);
    3. :math:`\mu_t = \mathrm{IBU}(\hat C^{(t)}, q_t)` for ``ibu_iter`` iterations, started at
       :math:`\theta_{t-1}` (``warm_start=True``, as in Alg. 1) or at uniform;
    4. :math:`\theta_t = \mu_t` (``combine=False``) or the sample-weighted average
       :math:`\theta_t = \mu_t \oplus \theta_{t-1} = (S_{t-1}\theta_{t-1} + n_t\mu_t)/(S_{t-1} + n_t)` (step iv).

    With ``final_gibu=True``, ``pi_hat`` = GIBU over :math:`(\hat C^{(1)}, y^{(1)}), \dots` (step 3 of
    Alg. 1) else :math:`\theta_N`; the returned mechanism is BA(pi_hat).
    ``emd[t] = EMD(theta_t, pi_true)`` with ``pi_true = true_counts / n`` when ``monitor``.
    """
    counts = check_counts(true_counts, "true_counts")
    D = distance
    m = counts.size
    if D.shape != (m, m):
        raise ValueError(f"distance must be ({m}, {m}), got {D.shape}")
    if not counts.sum() > 0:
        raise ValueError("true_counts must have a positive total")
    rng = check_random_state(rng)
    n = int(counts.sum())
    pi = counts / n
    if theta0 is None:
        theta = np.full(m, 1.0 / m)
    else:
        if theta0.shape != (m,) or not theta0.sum() > 0:
            raise ValueError(f"theta0 must be a non-negative vector of length {m} with a positive total")
        theta = theta0 / theta0.sum()
    thetas, mus, channels, reports = [theta], [], [], []
    emds = [float(emd(theta, pi, D))] if monitor else []
    S = 0
    for _ in range(n_cycles):
        C = blahut_arimoto(theta, D, beta, n_iter=ba_iter).channel
        x_counts = counts if n_per_cycle is None else rng.multinomial(n_per_cycle, pi)
        y = simulate_counts(C, x_counts, rng=rng)
        mu = ibu(C, y, theta0=theta if warm_start else None, tol=0.0, max_iter=ibu_iter, trace=False).estimate
        n_t = int(y.sum())
        theta = (S * theta + n_t * mu) / (S + n_t) if (combine and S > 0) else mu
        S += n_t
        thetas.append(theta)
        mus.append(mu)
        channels.append(C)
        reports.append(y)
        if monitor:
            emds.append(float(emd(theta, pi, D)))
    gibu_emd = None
    if final_gibu:
        pi_hat = gibu(channels, reports, tol=gibu_tol, max_iter=gibu_iter, trace=False).estimate
        if monitor:
            gibu_emd = float(emd(pi_hat, pi, D))
    else:
        pi_hat = theta
    final = blahut_arimoto(pi_hat, D, beta, n_iter=ba_iter).channel
    return PrivicResult(thetas, channels, reports, np.asarray(emds), pi_hat, final, gibu_emd, mus)


@contract(
    true_counts=Counts(),
    distance=DistanceMatrix(),
    betas=Array(None, low=0.0),
    rounds=Integer(1, 100_000),
    n_rows=Integer(2, 10_000),
    ba_iter=Integer(1, 10_000_000),
    ibu_iter=Integer(1, 10_000_000),
    seed=Unchecked("an int or a SeedSequence", example=0),
)
def privic_table(
    true_counts, distance, betas, *, rounds: int, n_rows: int, ba_iter: int, ibu_iter: int, seed=0, **kwargs
) -> pd.DataFrame:
    """EMD per PRIVIC row for several beta and rounds (Tables III/IV, Figs. 8-10).

    Row ``N`` is ``theta_{N-1}`` (row 1 = the uniform start), as in the paper's tables.  Every
    (beta, round) gets its own generator spawned from ``SeedSequence(seed)``.  Returns a long
    DataFrame with columns ``beta, round, row, emd``.
    """
    betas = [float(b) for b in np.atleast_1d(betas)]
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    children = ss.spawn(len(betas) * rounds)
    recs = []
    for i, b in enumerate(betas):
        for r in range(rounds):
            res = privic(
                true_counts,
                distance,
                b,
                n_cycles=n_rows - 1,
                ba_iter=ba_iter,
                ibu_iter=ibu_iter,
                rng=np.random.default_rng(children[i * rounds + r]),
                **kwargs,
            )
            recs.extend((b, r, row, float(e)) for row, e in enumerate(res.emd, start=1))
    return pd.DataFrame(recs, columns=["beta", "round", "row", "emd"])


# ----------------------------------------------------------------------------- BA helpers
@contract(
    pi=Array(1, low=0.0),
    distance=DistanceMatrix(square=False),
    betas=Array(None, low=0.0),
    n_iter=Integer(1, 10_000_000),
)
def tight_eps_ba(pi, distance, betas, *, n_iter: int = 10) -> np.ndarray:
    """Tight geo-ind level of BA(pi, beta, ``n_iter``) for each beta: what the authors' ``eps_tight``
    lists hold, with which they tune LAP in Figs. 2-3 (Remark 4 bounds it by 2 beta)."""
    return np.array(
        [
            float(geo_ind_epsilon(blahut_arimoto(pi, distance, b, n_iter=n_iter).channel, distance))
            for b in np.atleast_1d(betas)
        ]
    )


@contract(
    pi=Array(1, low=0.0),
    distance=DistanceMatrix(),
    betas=Array(None, low=0.0),
    n_iter=Integer(1, 10_000_000),
    tol=POSITIVE,
    max_iter=Integer(1, 100_000_000),
    support_tol=Real(0, None),
)
def ba_convergence_summary(
    pi, distance, betas, *, n_iter: int = 10, tol: float = 1e-7, max_iter: int = 50_000, support_tol: float = 1e-6
) -> pd.DataFrame:
    """What "BA until converged" (Alg. 2's stopping rule) means on a real prior, next to the paper's
    fixed ``n_iter`` iterations (Remark 3, Thm 5.1).

    For each beta: the condition number of the ``n_iter``-iteration channel, the number of BA
    iterations needed to reach ``max |dC| < tol``, and at that point the output support size
    (``c(y) > support_tol``), I(X;Y) (nats) and AvgD, next to the same for ``n_iter`` iterations.
    """
    from ldpnb.mechanisms.rate_distortion import average_distortion, mutual_information_nats  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    p = pi / pi.sum()
    recs = []
    for b in np.atleast_1d(betas):
        short = blahut_arimoto(p, distance, b, n_iter=n_iter)
        full = blahut_arimoto(p, distance, b, n_iter=None, tol=tol, max_iter=max_iter)
        recs.append(
            {
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
            }
        )
    return pd.DataFrame(recs)


@contract(
    prior=Array(1, low=0.0),
    distance=DistanceMatrix(),
    beta=POSITIVE,
    c0=Optional(Array(1, low=0.0)),
    n_steps=Integer(1, 10_000_000),
    normalised_kernel=Boolean(),
)
def ba_ibu_duality_gap(
    prior, distance, beta: float, c0=None, n_steps: int = 50, *, normalised_kernel: bool = False
) -> float:
    r"""``max_t max_y |c_t(y) - theta_t(y)|`` between BA marginals and dual IBU iterates (Sec. 4, eq. (5)).

    BA: :math:`c_{t+1} = G(F(c_t))`.  Dual IBU: secret = BA's output ``y``, observed distribution =
    BA's prior ``pi``, channel :math:`C'[y, x] = K(x, y) = e^{-\beta d(x, y)}` (the kernel *transposed*,
    unnormalised), start :math:`\theta_0 = c_0`.  Eq. (5) says the two sequences coincide.  With
    ``normalised_kernel=True`` the dual channel is K row-normalised (a proper channel); the identity
    then holds only when the column sums of K do not depend on ``y``.
    """
    p = _as_prior(prior)
    d = _as_distance(distance, p.size)
    b = _as_beta(beta)
    K = np.exp(-b * d)
    c = np.full(p.size, 1.0 / p.size) if c0 is None else _as_prior(c0, "c0")
    Cdual = K.T.copy()
    if normalised_kernel:
        Cdual = Cdual / Cdual.sum(axis=1, keepdims=True)
    theta = c.copy()
    gap = 0.0
    for _ in range(n_steps):
        c = ba_G(ba_F(c, K), p)
        theta = ibu_step(theta, Cdual, p)
        gap = max(gap, float(np.max(np.abs(c - theta))))
    return gap


@contract(m=Integer(1, 20))
def all_supports(m: int) -> np.ndarray:
    """Every non-empty subset of ``m`` outputs as a boolean matrix ``(2**m - 1, m)`` (row ``s`` is the
    binary expansion of ``s + 1``)."""
    s = np.arange(1, 2 ** int(m))
    return ((s[:, None] >> np.arange(int(m))[None, :]) & 1).astype(bool)


@contract(
    prior=Array(1, low=0.0),
    distance=DistanceMatrix(),
    beta=POSITIVE,
    supports=Unchecked("a boolean matrix (S, m): one output support per row", example=np.ones((1, 2), bool)),
    n_iter=Integer(1, 10_000_000),
)
def elastic_fixpoints(prior, distance, beta: float, supports, *, n_iter: int = 20_000) -> pd.DataFrame:
    r"""The self-consistent elastic mechanisms of Sec. 3.1 at one :math:`\beta`: every mechanism
    :math:`C_{xy} = q(y)e^{-\beta d(x,y)}/\sum_z q(z)e^{-\beta d(x,z)}` (Eqs. (3)-(4)) whose mass
    :math:`q` is its own output distribution :math:`\pi C` ("the mass interpreted as probability").

    These are the fixpoints of BA's map :math:`c \mapsto G(F(c))`.  BA keeps the zeros of its marginal,
    so BA started from the uniform marginal on a support :math:`S` converges to the minimiser of the
    convex BA objective over the channels with outputs in :math:`S` (Csiszar 1974), a fixpoint; every
    fixpoint is such a restricted minimiser for its own support.  Running BA from every support of
    ``supports`` (``all_supports(m)`` enumerates them all) therefore lists every self-consistent elastic
    mechanism.  All supports are iterated at once: :math:`c \leftarrow c \odot ((\pi / cK^\top) K)`.

    Returns one line per support: ``size`` (of the support given), ``support`` (outputs with
    :math:`q > 10^{-9}`), ``AvgD``, ``MI`` (nats), ``lagrangian`` (:math:`I + \beta\,\mathrm{AvgD}`) and
    ``residual`` (:math:`\max|G(F(q)) - q|`, the distance from a fixpoint).

    Examples
    --------
    >>> D2 = np.array([[0.0, 1.0], [1.0, 0.0]])
    >>> t = elastic_fixpoints(np.array([0.5, 0.5]), D2, 0.1, all_supports(2))
    >>> t["AvgD"].round(4).tolist()   # {x1}, {x2}: everyone reports one point; {x1, x2}: BA's optimum
    [0.5, 0.5, 0.475]
    """
    p = _as_prior(prior)
    d = _as_distance(distance, p.size)
    S = np.asarray(supports, dtype=bool)
    if S.ndim != 2 or S.shape[1] != p.size or not S.any(axis=1).all():
        raise ValueError(f"supports must be a boolean matrix (S, {p.size}) with a non-empty row each")
    K = np.exp(-_as_beta(beta) * d)
    c = S / S.sum(axis=1, keepdims=True)
    for _ in range(int(n_iter)):
        c = c * ((p[None, :] / (c @ K.T)) @ K)
        c /= c.sum(axis=1, keepdims=True)
    Z = c @ K.T  # Z[s, x] = sum_y c(y) K(x, y)
    C = c[:, None, :] * K[None, :, :] / Z[:, :, None]  # C[s, x, y]
    q = np.einsum("x,sxy->sy", p, C)
    avgd = np.einsum("x,sxy,xy->s", p, C, d)
    with np.errstate(divide="ignore", invalid="ignore"):
        logratio = np.where(C > 0, np.log(C) - np.log(np.maximum(q, 1e-300))[:, None, :], 0.0)
    mi = np.einsum("x,sxy->s", p, C * logratio)
    return pd.DataFrame(
        {
            "size": S.sum(axis=1),
            "support": (c > 1e-9).sum(axis=1),
            "AvgD": avgd,
            "MI": mi,
            "lagrangian": mi + float(beta) * avgd,
            "residual": np.abs(q - c).max(axis=1),
        }
    )


@contract(
    channels=Unchecked("a non-empty list of square invertible matrices of one size", example=[np.eye(2), np.eye(2)])
)
def right_inverse_residual(channels) -> float:
    """``max |G G' - I|`` for ``G = (C_1 ... C_N)`` and ``G' = (1/N) (C_1^{-1}; ...; C_N^{-1})``
    (Appendix A, proof of Thm 5.2).  An identity whenever the inverses exist."""
    Cs = [np.asarray(C, dtype=float) for C in channels]
    if not Cs:
        raise ValueError("channels must be a non-empty list")
    m = Cs[0].shape[0]
    if any(C.shape != (m, m) for C in Cs):
        raise ValueError("every channel must be square with the same size")
    G = np.hstack(Cs)
    Gp = np.vstack([np.linalg.inv(C) for C in Cs]) / len(Cs)
    return float(np.max(np.abs(G @ Gp - np.eye(m))))


# ----------------------------------------------------------------------------- data
@contract(city=OneOf("paris", "sf"))
def privic_edges(city: str) -> tuple[np.ndarray, np.ndarray, str]:
    """``(lat_edges, lon_edges, closed)`` of the PRIVIC authors' grids (their released code).

    Paris: ``np.arange(48.8286, 48.8798, 0.00427)`` x ``np.arange(2.2855, 2.3909, 0.0066)``,
    half-open ``(e_{i+1}, e_i]`` -> 11 x 15 cells.  San Francisco:
    ``np.arange(37.7228, 37.7946, 0.0044875)`` x ``np.arange(-122.5153, -122.3789, 0.005683)``,
    closed intervals -> 16 x 24 cells.  The boxes are those of Sec. 3.1 and Sec. 3.2.
    """
    if city == "paris":
        return np.arange(48.8286, 48.8798, 0.00427), np.arange(2.2855, 2.3909, 0.0066), "right"
    return np.arange(37.7228, 37.7946, 0.0044875), np.arange(-122.5153, -122.3789, 0.005683), "both"


@contract(
    lat=Array(1, min_size=0), lon=Array(1, min_size=0), city=OneOf("paris", "sf"), orientation=OneOf("west0", "east0")
)
def privic_bins(lat, lon, city: str, *, orientation: str = "west0") -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns of points on the PRIVIC grid of ``city`` (``-1`` = dropped).

    Row 0 = north.  ``orientation="west0"`` (default): column 0 = west; ``"east0"``: column 0 =
    east, as in the authors' grid files.  Flat index = ``cols * r + c``.
    """
    lat_e, lon_e, closed = privic_edges(city)
    r, c = bin_latlon(lat, lon, lat_e, lon_e, closed=closed, descending=True)
    if orientation == "west0":
        c = np.where(c >= 0, lon_e.size - 2 - c, -1)
    return r, c


@contract(city=OneOf("paris", "sf"), drop_first=Boolean(), orientation=OneOf("west0", "east0"))
def load_privic_counts(city: str, *, drop_first: bool = True, orientation: str = "west0") -> np.ndarray:
    """Check-in counts on the PRIVIC grids, a ``(rows, cols)`` int64 matrix (Sec. 3.1, Sec. 3.2, Fig. 6).

    The points of :func:`ldpnb.data.load_gowalla_privic` are binned with the authors' edges
    (:func:`privic_bins`: Paris 11 x 15, half-open cells; SF 16 x 24, closed cells); points outside
    every bin are dropped (Paris 10,991 -> 10,079; SF keeps all 123,026).  The authors then read
    their grid file with ``pandas.read_csv``, which takes the first binned point as a header:
    ``drop_first=True`` (default) drops it too, giving N = 10,078 (Paris) and 123,025 (SF), the totals
    of Sec. 3 that reproduce row 1 of Tables III/IV.

    Row 0 = north; ``orientation="west0"`` puts column 0 west, ``"east0"`` east (the authors' files).
    Flat index = ``cols * r + c``: ``counts.ravel()``.
    """
    pts = load_gowalla_privic(city)
    r, c = privic_bins(pts["lat"].to_numpy(), pts["lon"].to_numpy(), city, orientation=orientation)
    keep = r >= 0
    r, c = r[keep], c[keep]
    if drop_first:
        r, c = r[1:], c[1:]
    counts = np.zeros(CITY_SHAPE[city], dtype=np.int64)
    np.add.at(counts, (r, c), 1)
    return counts
