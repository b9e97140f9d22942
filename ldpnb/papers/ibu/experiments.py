"""IBU paper (ElSalamouny and Palamidessi 2020): the estimation experiments of Section 7 and the
grids of its location data.
"""

from __future__ import annotations

import numpy as np
from ldpnb.utils import (
    check_nonnegative_matrix, check_random_state,
)
from ldpnb.estimators._inversion import clip_normalize, project_simplex_rows, rappor_unbiased
from ldpnb.estimators._ibu import ibu_rows
from ldpnb.channels._generic import simulate_counts_batch
from ldpnb.utils import _as_distribution
from ldpnb.measures.utility import emd_1d_rows, emd_rows
from ldpnb.data.grid import Grid

__all__ = [
    "estimation_trials",
    "rappor_trials",
    "build_channel",
    "trial_task",
    "rappor_task",
    "manhattan_grid",
    "sf_ibu_grid",
]


def estimation_trials(channel, input_counts, reps: int, *, metric, rng=None, tol: float = 1e-8,
                      max_iter: int = 10_000, with_inv: bool = True) -> dict:
    """One obfuscation-estimation protocol (spec A5), ``reps`` independent repetitions.

    The fixed original data (histogram ``input_counts``) are obfuscated by ``channel`` with exact
    count-level sampling (:func:`simulate_counts_batch`); each repetition is estimated by IBU
    (:func:`ibu_rows`, tolerance ``tol`` on the normalised log-likelihood) and, for a square
    channel, by INV-N and INV-P (``v = q M^{-1}``, clip-and-normalise / simplex projection).
    ``metric(P, theta) -> (R,)`` scores each estimate against ``theta = input_counts / n``; the
    noisy distribution ``q`` is scored too when ``Z = X``.

    Returns a dict of arrays (length ``reps``): ``"IBU"``, ``"INV-N"``, ``"INV-P"``, ``"noisy"``,
    ``"n_iter"``, and the last repetition's estimates under ``"last"``.
    """
    rng = check_random_state(rng)
    M = check_nonnegative_matrix(channel, "channel")
    N = np.asarray(input_counts)
    theta = N / N.sum()
    C = simulate_counts_batch(M, N, reps, rng=rng)
    Q = C / C.sum(axis=1, keepdims=True)
    res = ibu_rows(M, C, tol=tol, max_iter=max_iter)
    out = {"IBU": metric(res.estimate, theta), "n_iter": res.n_iter.copy()}
    last = {"IBU": res.estimate[-1], "counts": C[-1]}
    square = M.shape[0] == M.shape[1]
    if square:
        out["noisy"] = metric(Q, theta)
        last["noisy"] = Q[-1]
    if with_inv and square:
        V = np.linalg.solve(M.T, Q.T).T
        PN, PP = clip_normalize(V), project_simplex_rows(V)
        out["INV-N"], out["INV-P"] = metric(PN, theta), metric(PP, theta)
        last["INV-N"], last["INV-P"] = PN[-1], PP[-1]
    out["last"] = last
    return out


def rappor_trials(theta, n: int, epsilon: float, reps: int, *, rng=None, tol: float = 1e-8,
                  max_iter: int = 10_000) -> dict:
    """Fig. 12 protocol: per repetition, ``n`` inputs are drawn from ``theta`` (re-sampled each
    run), obfuscated by basic Rappor (exact count-level sampling over the ``2^k`` patterns,
    channel :func:`ldpnb.mechanisms.rappor_channel`, pattern index ``sum_j b_j 2^j``) and
    estimated by IBU on the pattern counts and by Rappor's per-bit estimator followed by INV-N and
    INV-P.  Scores are 1-D EMDs (unit spacing) to the empirical input histogram.
    """
    from ldpnb.mechanisms.unary import rappor_channel

    rng = check_random_state(rng)
    th = _as_distribution(theta, "theta")
    k = th.size
    if k > 16:
        raise ValueError("rappor_trials enumerates 2^k patterns: k must be <= 16")
    M = rappor_channel(k, epsilon)
    bits = (np.arange(2**k)[:, None] >> np.arange(k)) & 1  # pattern -> bits
    Nin = rng.multinomial(int(n), th, size=int(reps))  # (R, k) inputs per run
    C = np.stack([simulate_counts_batch(M, Nin[r], 1, rng=rng)[0] for r in range(int(reps))])
    T = Nin / Nin.sum(axis=1, keepdims=True)
    res = ibu_rows(M, C, tol=tol, max_iter=max_iter)
    V = rappor_unbiased(C @ bits, np.full(int(reps), float(n)), epsilon)
    PN, PP = clip_normalize(V), project_simplex_rows(V)
    return {
        "IBU": emd_1d_rows(res.estimate, T), "INV-N": emd_1d_rows(PN, T), "INV-P": emd_1d_rows(PP, T),
        "n_iter": res.n_iter.copy(), "last": {"IBU": res.estimate[-1], "INV-N": PN[-1], "INV-P": PP[-1],
                                               "original": T[-1]},
    }


def build_channel(kind: str, epsilon: float, *, k: int | None = None, rows: int | None = None,
                  cols: int | None = None, cell_size: float = 1.0, distance=None) -> np.ndarray:
    """The square channels of §7 from :mod:`ldpnb.mechanisms`.

    ``kind`` in ``{"geometric", "laplace", "exponential", "krr"}`` on a line of ``k`` values
    (unit spacing; truncated / discretised as in spec M3, M6, M8) or, with ``rows, cols``, on a
    grid (``"geometric"`` = truncated planar geometric M5, ``"laplace"`` = discretised planar
    Laplace M7, ``"exponential"`` = M8 on ``distance`` (km), ``"krr"`` on the ``rows*cols`` cells).
    """
    from ldpnb.mechanisms import metric as mech
    from ldpnb.mechanisms import grr as mech_grr

    planar = rows is not None
    if kind == "krr":
        return mech_grr.grr_channel(int(rows * cols) if planar else int(k), epsilon)
    if kind == "exponential":
        if distance is None:
            if planar:
                raise ValueError("the planar exponential mechanism needs the distance matrix")
            x = np.arange(int(k))
            distance = np.abs(x[:, None] - x[None, :]).astype(float)
        return mech.exponential_channel(distance, epsilon, half=True)
    if kind == "geometric":
        return (mech.planar_geometric_channel(rows, cols, epsilon, cell_size=cell_size) if planar
                else mech.geometric_channel(int(k), epsilon))
    if kind == "laplace":
        return (mech.planar_laplace_channel(rows, cols, epsilon, cell_size=cell_size) if planar
                else mech.laplace_channel(int(k), epsilon))
    raise ValueError(f"unknown mechanism kind {kind!r}")


def trial_task(task: dict, rng) -> dict:
    """Module-level task for :func:`ldpnb.parallel.sweep`: build the channel of ``task`` and run
    :func:`estimation_trials`.  ``task`` keys: ``kind, eps, N`` (input histogram), ``reps``,
    ``tol``, ``max_iter`` and either ``k`` (ages, 1-D EMD) or ``rows, cols, cell_size, D``
    (locations; EMD by optimal transport on the km distance ``D``)."""
    planar = "rows" in task
    M = build_channel(task["kind"], task["eps"], k=task.get("k"), rows=task.get("rows"),
                      cols=task.get("cols"), cell_size=task.get("cell_size", 1.0),
                      distance=task.get("D") if task["kind"] == "exponential" else None)
    if planar:
        D = task["D"]
        metric = lambda P, th: emd_rows(P, th, D)  # noqa: E731
    else:
        metric = emd_1d_rows
    out = estimation_trials(M, task["N"], task["reps"], metric=metric, rng=rng, tol=task["tol"],
                            max_iter=task["max_iter"])
    out["eps"] = task["eps"]
    return out


def rappor_task(task: dict, rng) -> dict:
    """Module-level task for :func:`ldpnb.parallel.sweep` running :func:`rappor_trials`."""
    out = rappor_trials(task["theta"], task["n"], task["eps"], task["reps"], rng=rng, tol=task["tol"],
                        max_iter=task["max_iter"])
    out["eps"] = task["eps"]
    return out


# ---------------------------------------------------------------------------------------------
# Named grids of the papers


def manhattan_grid() -> Grid:
    """The 20 x 14 Manhattan grid of ElSalamouny & Palamidessi (2020), §7 (cells ~0.5 km).

    Box lat 40.7044..40.7942, lon -74.0205..-73.9374 (spec 002 §6 D2).
    """
    return Grid(40.7044, 40.7942, -74.0205, -73.9374, rows=20, cols=14)


def sf_ibu_grid() -> Grid:
    """A 5 x 5 grid of ~1 km cells in San Francisco (IBU paper Fig. 6; the paper gives no coordinates).

    Spec 002 §6 D2 (b): lat 37.7480..37.7930, lon -122.4500..-122.3932.
    """
    return Grid(37.7480, 37.7930, -122.4500, -122.3932, rows=5, cols=5)
