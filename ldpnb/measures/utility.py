"""Utility metrics: earth mover's distance (exact optimal transport with POT; closed form in 1-D),
squared error, L1, total variation, and the averaged MSE of multidimensional frequency estimation.
"""

from __future__ import annotations

import numpy as np

from ldpnb._optional import import_optional
from ldpnb.contracts import MAX_ENTRIES, POSITIVE, Array, Dataset, DistanceMatrix, Instance, contract
from ldpnb.utils import check_dataset, check_finite_array

_MASS = Array(1, low=0.0)
_SPACING = POSITIVE

__all__ = [
    "emd",
    "emd_1d",
    "squared_error",
    "l1_distance",
    "total_variation",
    "emd_1d_rows",
    "emd_rows",
    "mse_avg",
    "marginals",
]


def _mass(a, name: str) -> np.ndarray:
    v = check_finite_array(a, name, ndim=1)
    if np.any(v < 0):
        raise ValueError(f"{name} must be nonnegative (min {v.min():.3g})")
    s = v.sum()
    if not s > 0:
        raise ValueError(f"{name} must have positive total mass")
    return v / s


@contract(a=_MASS, b=_MASS, ground_distance=DistanceMatrix(square=False))
def emd(a, b, ground_distance) -> float:
    r"""Earth mover's distance between two distributions on the same finite space.

    .. math:: \mathrm{EMD}(a, b) = \min_{\gamma \in \Pi(a, b)} \sum_{i,j} \gamma_{ij} d_{ij}

    ``a`` and ``b`` are normalised to total mass 1 (counts are accepted). Only the
    support of each is passed to the solver, which leaves the value unchanged.

    Parameters
    ----------
    a, b : (k,) arrays
    ground_distance : (k, k) array
        Nonnegative ground distance (e.g. km between grid-cell centres).
    """
    ot = import_optional("ot")  # POT is slow to import; only an EMD on a ground distance needs it

    pa, pb = _mass(a, "a"), _mass(b, "b")
    D = ground_distance  # checked by the contract
    if D.shape != (pa.size, pb.size):
        raise ValueError(f"ground_distance must have shape ({pa.size}, {pb.size}), got {D.shape}")
    if np.any(D < 0):
        raise ValueError("ground_distance must be nonnegative")
    ia, ib = np.flatnonzero(pa > 0), np.flatnonzero(pb > 0)
    full_a, full_b = ia.size == pa.size, ib.size == pb.size
    # a full support is passed as it is: no k x k copy of the ground distance (the solver's input is the
    # same numbers either way, so the value is bitwise the same); a partial one selects its rows/columns
    if full_a and full_b:
        sub = np.ascontiguousarray(D)
    elif full_a:
        sub = np.ascontiguousarray(D[:, ib])
    elif full_b:
        sub = np.ascontiguousarray(D[ia])
    else:
        sub = np.ascontiguousarray(D[np.ix_(ia, ib)])
    qa, qb = (pa if full_a else pa[ia]), (pb if full_b else pb[ib])
    val = ot.emd2(qa / qa.sum(), qb / qb.sum(), sub, numItermax=10_000_000)
    return float(val)


@contract(a=_MASS, b=_MASS, spacing=_SPACING)
def emd_1d(a, b, spacing: float = 1.0) -> float:
    r"""EMD on equally spaced points of a line: :math:`h \sum_{j=0}^{k-2} |F_a(j) - F_b(j)|`."""
    pa, pb = _mass(a, "a"), _mass(b, "b")
    if pa.shape != pb.shape:
        raise ValueError(f"a and b must have the same length, got {pa.size} and {pb.size}")
    return float(spacing * np.abs(np.cumsum(pa - pb)[:-1]).sum())


def _pair(a, b):
    va = check_finite_array(a, "a")
    vb = check_finite_array(b, "b")
    if va.shape != vb.shape:
        raise ValueError(f"a and b must have the same shape, got {va.shape} and {vb.shape}")
    return va, vb


@contract(a=Array(None), b=Array(None))
def squared_error(a, b) -> float:
    r"""Squared Euclidean error :math:`\|a - b\|_2^2`."""
    va, vb = _pair(a, b)
    return float(np.sum((va - vb) ** 2))


@contract(a=Array(None), b=Array(None))
def l1_distance(a, b) -> float:
    r""":math:`\|a - b\|_1`."""
    va, vb = _pair(a, b)
    return float(np.sum(np.abs(va - vb)))


@contract(a=Array(None), b=Array(None))
def total_variation(a, b) -> float:
    r"""Total variation distance :math:`\tfrac12 \|a - b\|_1`."""
    return 0.5 * l1_distance(a, b)


@contract(P=Array((1, 2)), Q=Array((1, 2)), spacing=_SPACING)
def emd_1d_rows(P, Q, spacing: float = 1.0) -> np.ndarray:
    """Row-wise 1-D EMD with unit ground distance ``|x - y| * spacing``:
    ``sum_j |F_P(j) - F_Q(j)| * spacing`` (closed form, same as :func:`ldpnb.metrics.emd_1d`)."""
    P, Q = np.atleast_2d(P), np.atleast_2d(Q)
    try:
        diff = P - Q
    except ValueError:
        raise ValueError(f"P and Q must have broadcastable shapes, got {P.shape} and {Q.shape}") from None
    return np.abs(np.cumsum(diff, axis=1)[:, :-1]).sum(axis=1) * spacing


# --------------------------------------------------------------------------------------------
# row-wise helpers for the experiments (ElSalamouny & Palamidessi 2020, Figs. 8-12)
# --------------------------------------------------------------------------------------------


@contract(P=Array((1, 2), low=0.0), theta=_MASS, ground_distance=DistanceMatrix(square=False))
def emd_rows(P, theta, ground_distance) -> np.ndarray:
    """EMD (exact optimal transport, :func:`ldpnb.metrics.emd`) between each row of ``P`` and
    ``theta`` for a ground distance matrix (km on the grid)."""

    P = np.atleast_2d(P)
    if np.any(P.sum(axis=1) <= 0):
        raise ValueError("P must have a positive total in every row")
    return np.array([emd(p / p.sum(), theta, ground_distance) for p in P])


# ---------------------------------------------------------------------------------------------
# utility metric, marginals, priors (Sec. 5.2, App. E)
# ---------------------------------------------------------------------------------------------
@contract(X=Dataset(), ks=Array(1, integer=True, low=2, high=MAX_ENTRIES))
def marginals(X, ks) -> list[np.ndarray]:
    """Normalised per-attribute histograms of a label-encoded dataset."""
    X, ks = check_dataset(X, ks)
    return [np.bincount(X[:, j], minlength=int(ks[j])) / X.shape[0] for j in range(X.shape[1])]


@contract(
    f_true=Instance(list, tuple, example=[np.array([0.5, 0.5])]),
    f_hat=Instance(list, tuple, example=[np.array([0.5, 0.5])]),
)
def mse_avg(f_true, f_hat) -> float:
    r"""``MSE_avg = (1/d) sum_j (1/|A_j|) sum_v (f_j(v) - \hat f_j(v))^2`` (Arcolezi et al. 2023, Sec. 5.2)."""
    if len(f_true) != len(f_hat) or len(f_true) == 0:
        raise ValueError(
            f"f_true and f_hat must have the same number (>= 1) of attributes, got {len(f_true)} and {len(f_hat)}"
        )
    terms = []
    for j, (a, b) in enumerate(zip(f_true, f_hat)):
        a = check_finite_array(a, f"f_true[{j}]", ndim=1)
        b = check_finite_array(b, f"f_hat[{j}]", ndim=1)
        if a.shape != b.shape:
            raise ValueError(f"f_true[{j}] and f_hat[{j}] must have the same length, got {a.size} and {b.size}")
        terms.append(np.mean((a - b) ** 2))
    return float(np.mean(terms))
