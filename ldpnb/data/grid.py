"""Rectangular latitude/longitude grids for the location chapters.

A :class:`Grid` cuts the box ``[lat_min, lat_max] x [lon_min, lon_max]`` into ``rows x cols`` cells
of equal angular size and indexes them **row-major**, ``index = cols * row + col``, with

* row 0 = the **southernmost** row (row grows with latitude) and
* col 0 = the **westernmost** column (col grows with longitude).

This is the convention of ElSalamouny & Palamidessi (2020), §7 (``row =
floor((lat - 40.7044) / (0.0898 / 20))``).  Images returned by :meth:`Grid.to_image` therefore have
row 0 at the bottom: show them with ``plt.imshow(img, origin="lower", extent=grid.extent())``.

The PRIVIC paper (Biswas & Palamidessi 2023) bins its Gowalla extracts differently (descending
edges from ``np.arange``, half-open or closed intervals, row 0 = north): :func:`bin_latlon` and
:func:`privic_bins` reproduce that binning exactly.

Distances in km use an equirectangular (plate carrée) projection with the standard parallel at the
grid's central latitude: ``x = R cos(phi_c) (lon - lon_min)``, ``y = R (lat - lat_min)`` (angles in
radians, ``R = 6371.0088`` km, the IUGG mean Earth radius).  Over the boxes of the book (at most
15 km across) the error against great-circle distances is far below 0.1 %.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ldpnb.contracts import Array, Boolean, OneOf, Real, contract
from ldpnb.geometry import (  # re-exported: the lattice geometry lives one floor down
    _CELL,
    _LAT,
    _LON,
    _SIDE,
    EARTH_RADIUS_KM,
    _cell_pair,
    haversine_km,
    km_per_degree,
    lattice_distance_matrix,
    padded_lattice_distance,
)
from ldpnb.utils import check_positive_int

_INDEX = Array(None, integer=True)

__all__ = [
    "EARTH_RADIUS_KM",
    "Grid",
    "lattice_distance_matrix",
    "padded_lattice_distance",
    "haversine_km",
    "km_per_degree",
    "bin_latlon",
]


@dataclass(frozen=True)
class Grid:
    """A ``rows x cols`` grid over the box ``[lat_min, lat_max] x [lon_min, lon_max]`` (degrees).

    Cells are indexed row-major, ``k = cols * row + col``; row 0 is the southernmost row and col 0
    the westernmost column.  A point belongs to the cell ``floor((lat - lat_min) / dlat)``,
    ``floor((lon - lon_min) / dlon)``; points exactly on the north (east) edge of the box belong to
    the last row (column); points outside the closed box get index ``-1``.

    Examples
    --------
    The Manhattan grid of ElSalamouny & Palamidessi (2020), §7: 20 x 14 cells of about 0.5 km

    >>> g = Grid(40.7044, 40.7942, -74.0205, -73.9374, rows=20, cols=14)
    >>> g.k
    280
    """

    lat_min: float
    lat_max: float
    lon_min: float
    lon_max: float
    rows: int
    cols: int

    def __post_init__(self):
        for name in ("lat_min", "lat_max", "lon_min", "lon_max"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
                raise TypeError(f"{name} must be a real number, got {type(v).__name__}")
            if not np.isfinite(v):
                raise ValueError(f"{name} must be finite, got {v!r}")
            object.__setattr__(self, name, float(v))
        object.__setattr__(self, "rows", check_positive_int(self.rows, "rows"))
        object.__setattr__(self, "cols", check_positive_int(self.cols, "cols"))
        if not -90.0 <= self.lat_min < self.lat_max <= 90.0:
            raise ValueError(f"need -90 <= lat_min < lat_max <= 90, got lat_min={self.lat_min}, lat_max={self.lat_max}")
        if not -180.0 <= self.lon_min < self.lon_max <= 180.0:
            raise ValueError(
                f"need -180 <= lon_min < lon_max <= 180, got lon_min={self.lon_min}, lon_max={self.lon_max}"
            )

    # ------------------------------------------------------------------ construction
    @classmethod
    @contract(lat_min=Real(-90.0, 90.0), lon_min=Real(-180.0, 180.0), cell_km=_CELL, rows=_SIDE, cols=_SIDE)
    def from_cell_size(cls, lat_min: float, lon_min: float, cell_km, rows: int, cols: int) -> "Grid":
        """Grid with south-west corner ``(lat_min, lon_min)`` and cells of ``cell_km`` km.

        ``cell_km`` is a scalar (square cells) or ``(height_km, width_km)``.  The longitude span is
        computed at the grid's central latitude (equirectangular approximation), so
        :meth:`cell_size_km` returns ``cell_km`` back up to rounding.
        """
        rows = check_positive_int(rows, "rows")
        cols = check_positive_int(cols, "cols")
        h, w = _cell_pair(cell_km, "cell_km")
        km_lat, _ = km_per_degree()
        lat_max = float(lat_min) + rows * h / km_lat
        _, km_lon = km_per_degree((float(lat_min) + lat_max) / 2)
        lon_max = float(lon_min) + cols * w / km_lon
        return cls(float(lat_min), lat_max, float(lon_min), lon_max, rows, cols)

    # ------------------------------------------------------------------ basic properties
    @property
    def k(self) -> int:
        """Number of cells, ``rows * cols``."""
        return self.rows * self.cols

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)``."""
        return (self.rows, self.cols)

    @property
    def dlat(self) -> float:
        """Cell height in degrees of latitude."""
        return (self.lat_max - self.lat_min) / self.rows

    @property
    def dlon(self) -> float:
        """Cell width in degrees of longitude."""
        return (self.lon_max - self.lon_min) / self.cols

    @property
    def center(self) -> tuple[float, float]:
        """``(lat, lon)`` of the centre of the box."""
        return ((self.lat_min + self.lat_max) / 2, (self.lon_min + self.lon_max) / 2)

    def extent(self) -> tuple[float, float, float, float]:
        """``(lon_min, lon_max, lat_min, lat_max)``, the ``extent`` argument of ``plt.imshow``."""
        return (self.lon_min, self.lon_max, self.lat_min, self.lat_max)

    def cell_size_km(self) -> tuple[float, float]:
        """``(height_km, width_km)`` of a cell (north-south, east-west), equirectangular at the centre."""
        km_lat, km_lon = km_per_degree(self.center[0])
        return (self.dlat * km_lat, self.dlon * km_lon)

    # ------------------------------------------------------------------ points -> cells
    def row_col(self, lat, lon) -> tuple[np.ndarray, np.ndarray]:
        """Row and column of each point (``-1`` for both when the point is outside the box or NaN).

        ``lat`` and ``lon`` are real numbers or arrays of one shape (a scalar is broadcast); ``None``,
        strings and other objects are refused (``TypeError`` naming the argument) rather than read as
        NaN, i.e. "outside"; arrays of two shapes are refused (``ValueError``).
        """
        for name, v in (("lat", lat), ("lon", lon)):
            if np.asarray(v).dtype.kind not in "iuf":
                raise TypeError(
                    f"{name} must be a real number or an array of real numbers, got {type(v).__name__}"
                    f" (dtype {np.asarray(v).dtype})"
                )
        lat = np.asarray(lat, dtype=float)
        lon = np.asarray(lon, dtype=float)
        if lat.ndim and lon.ndim and lat.shape != lon.shape:
            raise ValueError(
                f"lon must have the shape of lat (one longitude per latitude; a scalar is broadcast), "
                f"got {lon.shape} and {lat.shape}"
            )
        lat, lon = np.broadcast_arrays(lat, lon)
        with np.errstate(invalid="ignore"):
            inside = (lat >= self.lat_min) & (lat <= self.lat_max) & (lon >= self.lon_min) & (lon <= self.lon_max)
            r = np.floor((lat - self.lat_min) * self.rows / (self.lat_max - self.lat_min))
            c = np.floor((lon - self.lon_min) * self.cols / (self.lon_max - self.lon_min))
        r = np.where(inside, np.clip(np.nan_to_num(r), 0, self.rows - 1), -1).astype(np.int64)
        c = np.where(inside, np.clip(np.nan_to_num(c), 0, self.cols - 1), -1).astype(np.int64)
        return r, c

    def cell_of(self, lat, lon):
        """Flat row-major cell index of each point, ``-1`` outside the closed box.

        Scalars in, int out; arrays in, ``int64`` array out.
        """
        r, c = self.row_col(lat, lon)
        idx = np.where(r >= 0, r * self.cols + c, -1)
        return int(idx) if idx.ndim == 0 else idx

    def index(self, row, col):
        """Flat index ``cols * row + col`` (no bounds clamping; raises on out-of-range)."""
        row = _INDEX.check(row, "row")
        col = _INDEX.check(col, "col")
        if np.any((row < 0) | (row >= self.rows)) or np.any((col < 0) | (col >= self.cols)):
            raise ValueError(f"row must be in [0, {self.rows}) and col in [0, {self.cols})")
        idx = row * self.cols + col
        return int(idx) if idx.ndim == 0 else idx

    def histogram(self, lat, lon) -> np.ndarray:
        """Counts of points per cell, an int64 array of length :attr:`k` (points outside are ignored).

        ``lat`` and ``lon`` must have the same shape (no broadcasting) and hold no NaN: unlike
        :meth:`cell_of`, which maps a NaN coordinate to ``-1``, a histogram would drop it silently
        as if it were outside the box, so it is refused (``ValueError`` naming the argument).
        """
        try:
            lat_a = np.asarray(lat, dtype=float)
            lon_a = np.asarray(lon, dtype=float)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"lat and lon must be array-like of numbers: {exc}") from None
        if lat_a.shape != lon_a.shape:
            raise ValueError(f"lat and lon must have the same shape, got {lat_a.shape} and {lon_a.shape}")
        for name, a in (("lat", lat_a), ("lon", lon_a)):
            if np.any(np.isnan(a)):
                raise ValueError(
                    f"{name} must not contain NaN ({int(np.isnan(a).sum())} NaN coordinates); "
                    "drop missing points before the histogram"
                )
        idx = np.atleast_1d(self.cell_of(lat_a, lon_a))
        return np.bincount(idx[idx >= 0], minlength=self.k).astype(np.int64)

    # ------------------------------------------------------------------ cells -> coordinates
    def centers_latlon(self) -> np.ndarray:
        """``(k, 2)`` array of cell centres ``(lat, lon)`` in degrees, row-major."""
        r, c = np.divmod(np.arange(self.k), self.cols)
        lat = self.lat_min + (r + 0.5) * self.dlat
        lon = self.lon_min + (c + 0.5) * self.dlon
        return np.column_stack([lat, lon])

    def centers_km(self) -> np.ndarray:
        """``(k, 2)`` array of cell centres ``(x, y)`` in km (x east, y north) from the south-west corner.

        Equirectangular projection with the standard parallel at the grid's central latitude: for
        the Manhattan grid this gives ``((col + 0.5) * 0.500, (row + 0.5) * 0.499)`` km, the
        centres used in ElSalamouny & Palamidessi (2020), §7.
        """
        h, w = self.cell_size_km()
        r, c = np.divmod(np.arange(self.k), self.cols)
        return np.column_stack([(c + 0.5) * w, (r + 0.5) * h])

    def distance_matrix(self) -> np.ndarray:
        """``(k, k)`` Euclidean distances in km between cell centres (see :meth:`centers_km`)."""
        h, w = self.cell_size_km()
        return lattice_distance_matrix(self.rows, self.cols, cell_size=(h, w))

    def to_image(self, vec) -> np.ndarray:
        """Reshape a length-``k`` vector to ``(rows, cols)``; row 0 = south (use ``origin="lower"``)."""
        v = np.asarray(vec)
        if v.shape != (self.k,):
            raise ValueError(f"vec must have shape ({self.k},), got {v.shape}")
        return v.reshape(self.rows, self.cols)


Grid.__init__ = contract(
    lat_min=Real(-90.0, 90.0),
    lat_max=Real(-90.0, 90.0),
    lon_min=Real(-180.0, 180.0),
    lon_max=Real(-180.0, 180.0),
    rows=_SIDE,
    cols=_SIDE,
)(Grid.__init__)


# ---------------------------------------------------------------------------------------------
# PRIVIC's binning (Biswas & Palamidessi 2023, authors' Paris_Grid.py / SF_Grid.py)


@contract(
    lat=_LAT,
    lon=_LON,
    lat_edges=Array(1, min_size=2, low=-90.0, high=90.0),
    lon_edges=Array(1, min_size=2, low=-180.0, high=180.0),
    closed=OneOf("right", "both"),
    descending=Boolean(),
)
def bin_latlon(lat, lon, lat_edges, lon_edges, *, closed: str = "right", descending: bool = True):
    """Bin points into the cells defined by explicit edges, as the PRIVIC authors do.

    The edges are sorted (descending when ``descending=True``, so row 0 is the largest latitude =
    north and column 0 the largest longitude = east, as in the authors' files).  With sorted edges
    ``e_0 > e_1 > ...``, a point falls in row ``i`` when

    * ``closed="right"``: ``e_{i+1} < lat <= e_i`` (Paris), or
    * ``closed="both"``: ``e_{i+1} <= lat <= e_i`` (San Francisco); a point lying exactly on an
      interior edge goes to the first matching row (the authors' loop would write it twice; no
      point of their data lies on an interior edge),

    and likewise for the columns.  With ``descending=False`` the same intervals are numbered in
    ascending order (row 0 = south, column 0 = west).  Cells are ``(len(lat_edges) - 1) x
    (len(lon_edges) - 1)``; a point outside in either coordinate gets ``-1`` in both outputs.

    Authors' scripts: ``Paris_Grid.py`` and ``SF_Grid.py`` of blitzwas/PRIVIC.
    With :func:`privic_edges` this reproduces their grid files exactly: Paris 10,991 raw points ->
    10,079 binned (11 x 15), SF 123,026 -> 123,026 (16 x 24); see
    :func:`ldpnb.datasets.load_privic_counts` for the counts (after the one-row header quirk).

    Returns
    -------
    rows, cols : int64 arrays
        ``-1`` for points outside every bin (the authors drop them).
    """
    if lat.shape != lon.shape:
        raise ValueError(f"lat and lon must have the same shape, got {lat.shape} and {lon.shape}")
    lat_e = np.sort(lat_edges)
    lon_e = np.sort(lon_edges)
    r = _bin_1d(lat, lat_e, closed)
    c = _bin_1d(lon, lon_e, closed)
    if descending:
        r = np.where(r >= 0, lat_e.size - 2 - r, -1)
        c = np.where(c >= 0, lon_e.size - 2 - c, -1)
    out = (r >= 0) & (c >= 0)
    return np.where(out, r, -1), np.where(out, c, -1)


def _bin_1d(x: np.ndarray, edges_asc: np.ndarray, closed: str) -> np.ndarray:
    """Ascending-index bin of ``x``: bin j is (e_j, e_{j+1}] ("right") or [e_j, e_{j+1}] ("both").

    For "both", a value on an interior edge e_j goes to bin j (the bin with the larger edges): the
    first match of the authors' loop, which runs over descending edges.
    """
    n_bins = edges_asc.size - 1
    if closed == "right":
        j = np.searchsorted(edges_asc, x, side="left") - 1
    else:
        j = np.searchsorted(edges_asc, x, side="right") - 1
        j = np.where(x == edges_asc[-1], n_bins - 1, j)
    valid = (j >= 0) & (j < n_bins) & ~np.isnan(x)
    return np.where(valid, j, -1).astype(np.int64)
