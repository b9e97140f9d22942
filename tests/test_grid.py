"""Tests of ldpnb.grid (no data files needed)."""

import dataclasses
import math

import numpy as np
import pytest

from ldpnb.data import EARTH_RADIUS_KM, Grid, bin_latlon, haversine_km, lattice_distance_matrix
from ldpnb.papers.ibu import manhattan_grid, sf_ibu_grid
from ldpnb.papers.privic import privic_bins, privic_edges

BOX = (40.7044, 40.7942, -74.0205, -73.9374)


@pytest.fixture
def g():
    return Grid(*BOX, rows=20, cols=14)


def test_basic_properties(g):
    assert g.k == 280
    assert g.shape == (20, 14)
    assert manhattan_grid() == g
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.rows = 3


def test_cell_of_corners_and_edges(g):
    la0, la1, lo0, lo1 = BOX
    assert g.cell_of(la0, lo0) == 0  # south-west corner
    assert g.cell_of(la0, lo1) == g.cols - 1  # south-east: max lon edge -> last column
    assert g.cell_of(la1, lo0) == (g.rows - 1) * g.cols  # north-west: max lat edge -> last row
    assert g.cell_of(la1, lo1) == g.k - 1  # north-east corner
    assert isinstance(g.cell_of(la0, lo0), int)
    # just outside the closed box, NaN -> -1
    eps = 1e-9
    outside = [(la0 - eps, lo0), (la1 + eps, lo1), (la0, lo0 - eps), (la1, lo1 + eps), (np.nan, lo0), (la0, np.nan)]
    for lat, lon in outside:
        assert g.cell_of(lat, lon) == -1
    # interior point: row/col from the spec formula (002 §6 D2)
    lat, lon = 40.75, -73.99
    r = math.floor((lat - 40.7044) / (0.0898 / 20))
    c = math.floor((lon + 74.0205) / (0.0831 / 14))
    assert g.cell_of(lat, lon) == 14 * r + c
    # an interior cell boundary belongs to the cell above / to the right
    assert g.cell_of(la0 + 3 * g.dlat + 1e-12, lo0) == 3 * g.cols


def test_cell_of_vectorised_matches_row_col(g):
    rng = np.random.default_rng(0)
    lat = rng.uniform(40.70, 40.80, 1000)
    lon = rng.uniform(-74.03, -73.93, 1000)
    idx = g.cell_of(lat, lon)
    r, c = g.row_col(lat, lon)
    assert idx.dtype == np.int64 and idx.shape == (1000,)
    np.testing.assert_array_equal(idx, np.where(r >= 0, r * g.cols + c, -1))
    assert ((idx >= -1) & (idx < g.k)).all()


def test_histogram_sums(g):
    rng = np.random.default_rng(1)
    lat = rng.uniform(40.70, 40.80, 5000)
    lon = rng.uniform(-74.03, -73.93, 5000)
    h = g.histogram(lat, lon)
    assert h.shape == (g.k,) and h.dtype == np.int64
    assert h.sum() == (g.cell_of(lat, lon) >= 0).sum()
    assert g.histogram([BOX[1]], [BOX[3]])[-1] == 1


def test_cell_size_and_centers_km(g):
    h, w = g.cell_size_km()
    assert h == pytest.approx(0.499, abs=1e-3)  # spec 002 §6: 0.499 km x 0.500 km
    assert w == pytest.approx(0.500, abs=1e-3)
    ck = g.centers_km()
    assert ck.shape == (g.k, 2)
    r, c = np.divmod(np.arange(g.k), g.cols)
    np.testing.assert_allclose(ck[:, 0], (c + 0.5) * 0.5, atol=0.01)
    np.testing.assert_allclose(ck[:, 1], (r + 0.5) * 0.5, atol=0.02)
    cl = g.centers_latlon()
    assert g.cell_of(cl[:, 0], cl[:, 1]).tolist() == list(range(g.k))


def test_distance_matrix(g):
    D = g.distance_matrix()
    assert D.shape == (g.k, g.k)
    np.testing.assert_allclose(D, D.T)
    np.testing.assert_array_equal(np.diag(D), 0.0)
    h, w = g.cell_size_km()
    assert D[0, 1] == pytest.approx(w)
    assert D[0, g.cols] == pytest.approx(h)
    assert D[0, g.cols + 1] == pytest.approx(math.hypot(h, w))
    # consistent with great-circle distances between centres (equirectangular error << 0.5%)
    cl = g.centers_latlon()
    hv = haversine_km(cl[0, 0], cl[0, 1], cl[-1, 0], cl[-1, 1])
    assert D[0, -1] == pytest.approx(hv, rel=5e-3)
    ck = g.centers_km()
    np.testing.assert_allclose(D, np.hypot(*(ck[:, None, :] - ck[None, :, :]).transpose(2, 0, 1)), atol=1e-9)


def test_lattice_distance_matrix():
    D = lattice_distance_matrix(2, 3)
    assert D.shape == (6, 6)
    assert D[0, 5] == pytest.approx(math.sqrt(1 + 4))
    assert D[0, 2] == pytest.approx(2.0)
    assert D[0, 3] == pytest.approx(1.0)
    np.testing.assert_allclose(D, D.T)
    D2 = lattice_distance_matrix(2, 3, cell_size=0.5)
    np.testing.assert_allclose(D2, 0.5 * D)
    D3 = lattice_distance_matrix(2, 3, cell_size=(2.0, 1.0))
    assert D3[0, 3] == pytest.approx(2.0) and D3[0, 1] == pytest.approx(1.0)
    with pytest.raises(ValueError):
        lattice_distance_matrix(2, 3, cell_size=0.0)


def test_haversine_known_values():
    deg = EARTH_RADIUS_KM * math.pi / 180
    assert haversine_km(0, 0, 1, 0) == pytest.approx(deg)
    assert haversine_km(0, 0, 0, 90) == pytest.approx(EARTH_RADIUS_KM * math.pi / 2)
    assert haversine_km(0, 0, 0, 180) == pytest.approx(EARTH_RADIUS_KM * math.pi)
    assert haversine_km(10, 20, 10, 20) == 0.0
    # Paris (Notre-Dame) - London (Charing Cross): about 344 km
    d = haversine_km(48.8530, 2.3499, 51.5080, -0.1247)
    assert 340 < d < 346
    assert d == pytest.approx(haversine_km(51.5080, -0.1247, 48.8530, 2.3499))
    out = haversine_km(np.zeros(3), np.zeros(3), np.array([1.0, 2.0, 3.0]), np.zeros(3))
    np.testing.assert_allclose(out, deg * np.array([1, 2, 3]))


def test_from_cell_size_and_sf_grid():
    g = Grid.from_cell_size(37.748, -122.45, 1.0, rows=5, cols=5)
    h, w = g.cell_size_km()
    assert h == pytest.approx(1.0, rel=1e-9) and w == pytest.approx(1.0, rel=1e-9)
    assert g.lat_min == 37.748 and g.lon_min == -122.45
    s = sf_ibu_grid()
    assert s.k == 25
    hs, ws = s.cell_size_km()
    assert hs == pytest.approx(1.0, abs=0.01) and ws == pytest.approx(1.0, abs=0.01)
    g2 = Grid.from_cell_size(40.0, -74.0, (0.5, 1.0), rows=2, cols=3)
    assert g2.cell_size_km() == pytest.approx((0.5, 1.0))


def test_to_image(g):
    img = g.to_image(np.arange(g.k))
    assert img.shape == (20, 14)
    assert img[0, 0] == 0 and img[0, 1] == 1 and img[1, 0] == 14 and img[-1, -1] == g.k - 1
    assert g.extent() == (BOX[2], BOX[3], BOX[0], BOX[1])
    with pytest.raises(ValueError):
        g.to_image(np.arange(g.k - 1))


def test_validation():
    with pytest.raises(ValueError):
        Grid(1.0, 1.0, 0.0, 1.0, 2, 2)
    with pytest.raises(ValueError):
        Grid(0.0, 1.0, 2.0, 1.0, 2, 2)
    with pytest.raises(ValueError):
        Grid(0.0, 1.0, 0.0, 1.0, 0, 2)
    with pytest.raises(TypeError):
        Grid(0.0, 1.0, 0.0, 1.0, 2.5, 2)
    with pytest.raises(ValueError):
        Grid(0.0, np.inf, 0.0, 1.0, 2, 2)
    with pytest.raises(ValueError):
        manhattan_grid().index(20, 0)
    assert manhattan_grid().index(1, 2) == 16


def test_bin_latlon_edges():
    edges = [0.0, 1.0, 2.0, 3.0]
    x = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 3.5, -0.1])
    # closed="right": (e_j, e_{j+1}]; descending numbering: bin (2,3] is 0
    r, c = bin_latlon(x, x, edges, edges, closed="right", descending=True)
    assert r.tolist() == [-1, 2, 2, 1, 1, 0, -1, -1]
    np.testing.assert_array_equal(r, c)
    r, _ = bin_latlon(x, x, edges, edges, closed="right", descending=False)
    assert r.tolist() == [-1, 0, 0, 1, 1, 2, -1, -1]
    # closed="both": [e_j, e_{j+1}], an interior edge goes to the bin with larger edges (first match
    # of the authors' loop over descending edges)
    r, _ = bin_latlon(x, x, edges, edges, closed="both", descending=True)
    assert r.tolist() == [2, 2, 1, 1, 0, 0, -1, -1]
    # a point outside in one coordinate is outside in both outputs
    r, c = bin_latlon([0.5], [5.0], edges, edges)
    assert r.tolist() == [-1] and c.tolist() == [-1]
    with pytest.raises(ValueError):
        bin_latlon(x, x, edges, edges, closed="left")


def test_privic_edges_shapes():
    lat_e, lon_e, closed = privic_edges("paris")
    assert (lat_e.size - 1, lon_e.size - 1, closed) == (11, 15, "right")
    lat_e, lon_e, closed = privic_edges("sf")
    assert (lat_e.size - 1, lon_e.size - 1, closed) == (16, 24, "both")
    with pytest.raises(ValueError):
        privic_edges("nyc")
    # orientation: a point in the north-east corner cell of Paris
    lat_e, lon_e, _ = privic_edges("paris")
    lat, lon = lat_e[-1] - 1e-6, lon_e[-1] - 1e-6
    r, c = privic_bins([lat], [lon], "paris")
    assert (r[0], c[0]) == (0, 14)
    r, c = privic_bins([lat], [lon], "paris", orientation="east0")
    assert (r[0], c[0]) == (0, 0)
