"""Distances on a lattice and on the Earth: the geometry the metric mechanisms and the location
data share (a low floor of the package: it imports only :mod:`ldpnb.contracts`, so that
:mod:`ldpnb.mechanisms.metric` and :mod:`ldpnb.data.grid` both build on it).

A lattice of ``rows x cols`` cells is indexed **row-major**, ``i = cols * r + c``, cell ``(r, c)``
at ``(c * w, r * h)`` for cells of height ``h`` and width ``w``.  Great-circle distances use a
spherical Earth of radius :data:`EARTH_RADIUS_KM` (the IUGG mean radius).
"""

from __future__ import annotations

import numpy as np

from ldpnb.contracts import MAX_DENSE, MAX_ENTRIES, POSITIVE, AnyOf, Array, Integer, Optional, Real, contract

__all__ = [
    "EARTH_RADIUS_KM",
    "km_per_degree",
    "haversine_km",
    "lattice_distance_matrix",
    "padded_lattice_distance",
]

_SIDE = Integer(1, MAX_DENSE)
_CELL = AnyOf(POSITIVE, Array(1, shape=(2,), low=0.0))
_LAT = Array(None, low=-90.0, high=90.0)
_LON = Array(None, low=-180.0, high=180.0)


#: Mean Earth radius (IUGG), km.
EARTH_RADIUS_KM = 6371.0088


@contract(lat=Optional(Real(-90.0, 90.0)))
def km_per_degree(lat: float | None = None) -> tuple[float, float]:
    """Kilometres per degree of latitude and of longitude (at latitude ``lat``, degrees).

    Spherical Earth of radius :data:`EARTH_RADIUS_KM`: ``R pi / 180`` km per degree of latitude,
    ``R pi / 180 cos(lat)`` km per degree of longitude.  With ``lat=None`` the second value is at
    the equator.
    """
    per_deg = EARTH_RADIUS_KM * np.pi / 180.0
    coslat = 1.0 if lat is None else float(np.cos(np.deg2rad(lat)))
    return per_deg, per_deg * coslat


@contract(lat1=_LAT, lon1=_LON, lat2=_LAT, lon2=_LON)
def haversine_km(lat1, lon1, lat2, lon2):
    """Great-circle distance in km between points given in degrees (broadcasts like numpy).

    Haversine formula on a sphere of radius :data:`EARTH_RADIUS_KM`:
    ``d = 2 R asin(sqrt(sin^2(dphi/2) + cos(phi1) cos(phi2) sin^2(dlambda/2)))``.
    """
    phi1, lam1, phi2, lam2 = (np.deg2rad(a) for a in (lat1, lon1, lat2, lon2))
    h = np.sin((phi2 - phi1) / 2) ** 2 + np.cos(phi1) * np.cos(phi2) * np.sin((lam2 - lam1) / 2) ** 2
    d = 2 * EARTH_RADIUS_KM * np.arcsin(np.sqrt(np.clip(h, 0.0, 1.0)))
    return float(d) if np.ndim(d) == 0 else d


@contract(rows=_SIDE, cols=_SIDE, cell_size=_CELL)
def lattice_distance_matrix(rows: int, cols: int, cell_size=1.0) -> np.ndarray:
    """Euclidean distances between the cells of a ``rows x cols`` lattice, row-major.

    Cell ``i = cols * r + c`` sits at ``(c * w, r * h)`` where ``(h, w) = cell_size`` (a scalar means
    square cells).  Returns a ``(rows*cols, rows*cols)`` float64 matrix, symmetric, zero diagonal.
    """
    if rows * cols > MAX_DENSE:
        raise ValueError(f"rows * cols must be <= {MAX_DENSE} for a dense distance matrix, got {rows} x {cols}")
    h, w = _cell_pair(cell_size, "cell_size")
    r, c = np.divmod(np.arange(rows * cols), cols)
    y, x = r * h, c * w
    return np.hypot(x[:, None] - x[None, :], y[:, None] - y[None, :])


@contract(rows=_SIDE, cols=_SIDE, pad=Integer(0, MAX_DENSE))
def padded_lattice_distance(rows: int, cols: int, *, pad: int = 0) -> np.ndarray:
    """Euclidean distances in cell units from the cells of a ``rows x cols`` lattice to the cells of
    the same lattice padded by ``pad`` cells on every side, ``d = sqrt((r - r')^2 + (c - c')^2)``.

    Rows: the ``rows * cols`` cells (row-major); columns: the ``(rows + 2 pad) * (cols + 2 pad)``
    cells of the padded lattice (row-major, the original cell ``(r, c)`` at ``(r + pad, c + pad)``).
    ``pad=0`` gives :func:`lattice_distance_matrix` with unit cells.
    """
    if rows * cols * (rows + 2 * pad) * (cols + 2 * pad) > MAX_ENTRIES:
        raise ValueError(
            f"rows, cols, pad: {rows} x {cols} cells padded by {pad} give more than {MAX_ENTRIES} distances"
        )

    def coords(p: int) -> np.ndarray:
        r, c = np.divmod(np.arange((rows + 2 * p) * (cols + 2 * p)), cols + 2 * p)
        return np.column_stack([r - p, c - p]).astype(float)

    a, b = coords(0), coords(pad)
    return np.hypot(a[:, 0, None] - b[None, :, 0], a[:, 1, None] - b[None, :, 1])


# ---------------------------------------------------------------------------------------------
# validation helper (also used by ldpnb.data.grid)


def _cell_pair(cell, name: str) -> tuple[float, float]:
    arr = np.asarray(cell, dtype=float)
    if arr.ndim == 0:
        h = w = float(arr)
    elif arr.shape == (2,):
        h, w = float(arr[0]), float(arr[1])
    else:
        raise ValueError(f"{name} must be a scalar or a pair (height, width), got shape {arr.shape}")
    if not (np.isfinite(h) and np.isfinite(w) and h > 0 and w > 0):
        raise ValueError(f"{name} must be finite and > 0, got {cell!r}")
    return h, w
