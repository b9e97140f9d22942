"""Tests of ldpnb.mechanisms.

Three tiers (spec anchors C.8):

* exact (tier 0): every channel is a channel (rows sum to 1, entries >= 0) and its tight privacy
  level equals the claimed one (LDP or geo-ind), closed forms match independent computations;
* sampler == channel (tier 1): each per-user sampler is tested against its exact channel at a fixed
  seed with Pearson's chi-square.  The critical value is ``scipy.stats.chi2.isf(1e-6, df)``, so
  each test has a false-alarm rate <= 1e-6 (cells with expected count < 5 are pooled, so every
  expected count is >= 5); the seed makes the test deterministic;
* count-level simulators == per-user sampling in law: the same chi-square test on the exact
  marginal law of a count, plus z-tests (6 standard errors, false alarm < 2e-9 per coordinate) on
  means and covariances.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

from ldpnb import channels as M_channels
from ldpnb import mechanisms as M

ALPHA = 1e-6  # false-alarm rate of every chi-square test in this file


# ------------------------------------------------------------------------------------------------
# helpers
# ------------------------------------------------------------------------------------------------


def _pool(obs: np.ndarray, exp: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pool the cells with expected count < 5 (and then the smallest cells) until all are >= 5."""
    obs = np.asarray(obs, dtype=float)
    exp = np.asarray(exp, dtype=float)
    assert np.all(obs[exp == 0] == 0), "an impossible outcome (probability 0) was observed"
    keep = exp >= 5
    o = list(obs[keep])
    e = list(exp[keep])
    small_o, small_e = obs[~keep].sum(), exp[~keep].sum()
    if small_e > 0:
        if small_e >= 5 or not e:
            o.append(small_o)
            e.append(small_e)
        else:  # merge the pooled remainder into the smallest retained cell
            j = int(np.argmin(e))
            o[j] += small_o
            e[j] += small_e
    return np.array(o), np.array(e)


def chi2_test(observed, expected, alpha: float = ALPHA) -> tuple[float, int, float]:
    """Pearson chi-square goodness of fit, summed over the rows of (observed, expected).

    Each row is one independent multinomial sample (its expected counts sum to its size).  Cells
    are pooled so that every expected count is >= 5; the statistic has ``sum_rows (cells - 1)``
    degrees of freedom and the critical value is ``chi2.isf(alpha, df)``.
    """
    observed = np.atleast_2d(observed)
    expected = np.atleast_2d(expected)
    stat, df = 0.0, 0
    for o_row, e_row in zip(observed, expected):
        if e_row.sum() == 0:
            continue
        assert abs(o_row.sum() - e_row.sum()) < 1e-6 * max(1.0, e_row.sum())
        o, e = _pool(o_row, e_row)
        if o.size < 2:
            continue
        stat += float(((o - e) ** 2 / e).sum())
        df += o.size - 1
    crit = float(stats.chi2.isf(alpha, df))
    return stat, df, crit


def assert_sampler_matches(x: np.ndarray, y: np.ndarray, channel: np.ndarray) -> None:
    """chi-square test of outputs ``y`` of inputs ``x`` against the rows of ``channel`` (alpha = 1e-6)."""
    k, m = channel.shape
    obs = np.zeros((k, m))
    np.add.at(obs, (x, y), 1)
    exp = np.bincount(x, minlength=k)[:, None] * channel
    stat, df, crit = chi2_test(obs, exp)
    assert df > 0
    assert stat < crit, f"chi2 = {stat:.1f} >= critical {crit:.1f} (df = {df}, alpha = {ALPHA})"


def sum_binomials_pmf(ns, ps) -> np.ndarray:
    """Exact pmf of a sum of independent Binomial(n_j, p_j)."""
    pmf = np.array([1.0])
    for n, p in zip(ns, ps):
        pmf = np.convolve(pmf, stats.binom.pmf(np.arange(int(n) + 1), int(n), p))
    return pmf


def assert_counts_law(samples: np.ndarray, pmf: np.ndarray) -> None:
    """chi-square test of i.i.d. integer samples against an exact pmf on {0, 1, ...}."""
    obs = np.bincount(samples, minlength=pmf.size).astype(float)
    assert obs.size == pmf.size, "a sample exceeded the support of the pmf"
    stat, df, crit = chi2_test(obs, samples.size * pmf)
    assert df > 0
    assert stat < crit, f"chi2 = {stat:.1f} >= critical {crit:.1f} (df = {df})"


def line_distance(k: int) -> np.ndarray:
    idx = np.arange(k)
    return np.abs(idx[:, None] - idx[None, :]).astype(float)


def grid_distance(rows: int, cols: int, h: float = 1.0, w: float | None = None) -> np.ndarray:
    w = h if w is None else w
    i, j = np.divmod(np.arange(rows * cols), cols)
    return np.hypot((i[:, None] - i[None, :]) * h, (j[:, None] - j[None, :]) * w)


def assert_channel(C: np.ndarray) -> None:
    assert C.dtype == np.float64
    assert np.all(C >= 0)
    np.testing.assert_allclose(C.sum(axis=1), 1.0, rtol=0, atol=1e-12)


# ------------------------------------------------------------------------------------------------
# tier 0: exact channels and tight epsilons
# ------------------------------------------------------------------------------------------------

EPS = [0.1, 0.5, 1.0, 2.0, 4.0, 10.0]


@pytest.mark.parametrize("k", [2, 5, 74])
@pytest.mark.parametrize("eps", EPS)
def test_grr_channel_exact(k, eps):
    C = M.grr_channel(k, eps)
    assert_channel(C)
    p, q = M.grr_params(k, eps)
    assert p == pytest.approx(math.exp(eps) / (math.exp(eps) + k - 1), rel=1e-14)
    assert q == pytest.approx(1 / (math.exp(eps) + k - 1), rel=1e-14)
    assert M_channels.ldp_epsilon(C) == pytest.approx(eps, abs=1e-12)


@pytest.mark.parametrize("kind", ["sue", "oue"])
@pytest.mark.parametrize("k", [2, 3, 6, 10])
@pytest.mark.parametrize("eps", [0.2, 1.0, 3.0, 7.0])
def test_ue_channel_exact(kind, k, eps):
    C = M.ue_channel(k, eps, kind)
    assert C.shape == (k, 2**k)
    assert_channel(C)
    assert M_channels.ldp_epsilon(C) == pytest.approx(eps, abs=1e-12)
    p, q = M.ue_params(eps, kind)
    assert math.log(p * (1 - q) / ((1 - p) * q)) == pytest.approx(eps, abs=1e-12)


@pytest.mark.parametrize("kind", ["sue", "oue"])
def test_ue_channel_is_product_of_bit_probabilities(kind):
    k, eps = 5, 1.7
    p, q = M.ue_params(eps, kind)
    C = M.ue_channel(k, eps, kind)
    for x in range(k):
        for b in range(2**k):
            bits = [(b >> j) & 1 for j in range(k)]
            prob = 1.0
            for j, bj in enumerate(bits):
                on = p if j == x else q
                prob *= on if bj else 1 - on
            assert C[x, b] == pytest.approx(prob, rel=1e-12)


def test_rappor_lemma_4_4():
    """ElSalamouny & Palamidessi (2020), Lemma 4.4: P(beta|x) = p^k exp(-(1/2 + S/2 - beta_x) eps)."""
    k = 6
    for eps in [0.5, 2.0, 5.0]:
        C = M.rappor_channel(k, eps)
        p = math.exp(eps / 2) / (1 + math.exp(eps / 2))
        b = np.arange(2**k)
        bits = (b[None, :] >> np.arange(k)[:, None]) & 1
        S = bits.sum(axis=0)
        lemma = p**k * np.exp(-(0.5 + S[None, :] / 2 - bits) * eps)
        np.testing.assert_allclose(C, lemma, rtol=1e-12, atol=0)
        np.testing.assert_array_equal(C, M.ue_channel(k, eps, "sue"))


def test_ue_pattern_index():
    B = np.array([[1, 0, 0], [0, 1, 1], [1, 1, 1], [0, 0, 0]], dtype=bool)
    np.testing.assert_array_equal(M.ue_pattern_index(B), [1, 6, 7, 0])


@pytest.mark.parametrize("k,g", [(2, 2), (3, 2), (3, 3), (4, 3), (2, 5)])
@pytest.mark.parametrize("eps", [0.5, 1.0, 3.0])
def test_lh_channel_exact(k, g, eps):
    C = M.lh_channel(k, g, eps)
    assert C.shape == (k, g ** (k + 1))
    assert_channel(C)
    assert M_channels.ldp_epsilon(C) == pytest.approx(eps, abs=1e-12)
    # support probabilities: P(h(v) = y | x) = p if v == x else 1/g (spec 000 §2.5)
    _, p, q = M.lh_params(eps, g)
    assert q == 1 / g
    h_index, y = np.divmod(np.arange(C.shape[1]), g)
    for v in range(k):
        supports = (h_index // g**v) % g == y
        probs = C[:, supports].sum(axis=1)
        expected = np.where(np.arange(k) == v, p, 1 / g)
        np.testing.assert_allclose(probs, expected, rtol=1e-12)


def test_lh_params_olh_blh():
    g, p, q = M.lh_params(1.0)
    assert g == round(math.e) + 1 == 4
    assert p == pytest.approx(math.e / (math.e + 3), rel=1e-14) and q == 0.25
    g, p, q = M.lh_params(2.0, g=2)
    assert (g, q) == (2, 0.5) and p == pytest.approx(math.exp(2) / (math.exp(2) + 1), rel=1e-14)
    assert M.lh_params(10.0)[0] == round(math.exp(10)) + 1


@pytest.mark.parametrize("k", [3, 5, 6, 8])
@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0, 2.0])
def test_ss_channel_exact(k, eps):
    omega, p, q = M.ss_params(k, eps)
    C = M.ss_channel(k, eps)
    assert C.shape == (k, math.comb(k, omega))
    assert_channel(C)
    assert M_channels.ldp_epsilon(C) == pytest.approx(eps, abs=1e-12)
    members = M.ss_subsets(k, omega)
    # P(x in Omega | x) = p and P(v in Omega | x) = q for v != x (spec 003 T2)
    prob_in = C @ members.astype(float)  # (k, k)
    np.testing.assert_allclose(np.diag(prob_in), p, rtol=1e-12)
    off = prob_in[~np.eye(k, dtype=bool)]
    np.testing.assert_allclose(off, q, rtol=1e-12)


def test_ss_params_reference_values():
    # spec 003 T4: omega = 20 for k = 74, eps = 1; omega = 1 (SS = GRR) for k = 7, eps = 2
    assert M.ss_params(74, 1.0)[0] == 20
    assert M.ss_params(7, 2.0)[0] == 1
    assert M.ss_params(74, 4.0)[0] == 1
    omega, p, q = M.ss_params(7, 2.0)
    np.testing.assert_allclose((p, q), M.grr_params(7, 2.0), rtol=1e-14)
    np.testing.assert_allclose(M.ss_channel(7, 2.0), M.grr_channel(7, 2.0), rtol=1e-14)


def test_ss_subsets_order_and_index():
    for k, omega in [(5, 2), (6, 3), (9, 4), (4, 1)]:
        members = M.ss_subsets(k, omega)
        combos = list(itertools.combinations(range(k), omega))
        assert members.shape == (len(combos), k)
        for row, c in zip(members, combos):
            assert tuple(np.flatnonzero(row)) == c
        np.testing.assert_array_equal(M.ss_subset_index(members), np.arange(len(combos)))


@pytest.mark.parametrize("k", [2, 3, 10, 100])
@pytest.mark.parametrize("eps", [0.01, 0.1, 1.0, 5.0])
def test_geometric_channel_exact(k, eps):
    C = M.geometric_channel(k, eps)
    assert_channel(C)
    assert M_channels.geo_ind_epsilon(C, line_distance(k)) == pytest.approx(eps, abs=1e-12)


def test_geometric_channel_is_clamped_two_sided_geometric():
    """eq. (7) = eq. (6) clamped: boundary masses are tail sums of c alpha^|z - x|."""
    k, eps = 8, 0.4
    alpha = math.exp(-eps)
    c = (1 - alpha) / (1 + alpha)
    z = np.arange(-400, 400 + k)
    C = M.geometric_channel(k, eps)
    for x in range(k):
        pmf = c * alpha ** np.abs(z - x)
        clamped = np.bincount(np.clip(z, 0, k - 1), weights=pmf, minlength=k)
        np.testing.assert_allclose(C[x], clamped, rtol=1e-12)


@pytest.mark.parametrize("k", [2, 3, 10, 100])
@pytest.mark.parametrize("eps", [0.05, 0.5, 2.0])
def test_laplace_channel_closed_form(k, eps):
    C = M.laplace_channel(k, eps)
    assert_channel(C)
    assert M_channels.geo_ind_epsilon(C, line_distance(k)) <= eps + 1e-12


def test_laplace_channel_matches_numerical_integration():
    """M6: C[x, z] = integral of the Laplace density of x over the cell of z (boundary cells infinite)."""
    k, eps = 7, 0.8
    C = M.laplace_channel(k, eps)

    def density(t, x):
        return 0.5 * eps * math.exp(-eps * abs(t - x))

    for x in range(k):
        for z in range(k):
            lo = -np.inf if z == 0 else z - 0.5
            hi = np.inf if z == k - 1 else z + 0.5
            pts = [x] if lo < x < hi and np.isfinite(lo) and np.isfinite(hi) else None
            val, _ = integrate.quad(density, lo, hi, args=(x,), points=pts, epsabs=1e-14, epsrel=1e-12)
            assert C[x, z] == pytest.approx(val, rel=1e-9, abs=1e-14)


def test_laplace_channel_spacing():
    np.testing.assert_allclose(M.laplace_channel(6, 0.5, spacing=2.0), M.laplace_channel(6, 1.0), rtol=1e-14)


@pytest.mark.parametrize("rows,cols,eps,h", [(5, 5, 1.0, 1.0), (4, 3, 0.5, 0.5), (6, 4, 3.0, 0.5), (3, 3, 0.3, 1.0)])
def test_planar_geometric_channel(rows, cols, eps, h):
    C = M.planar_geometric_channel(rows, cols, eps, cell_size=h)
    assert C.shape == (rows * cols, rows * cols)
    assert_channel(C)
    # tight: these grids have an interior cell, where C[x, x] / C[x', x] = e^{eps d(x, x')}
    assert M_channels.geo_ind_epsilon(C, grid_distance(rows, cols, h)) == pytest.approx(eps, abs=1e-10)


def test_planar_geometric_channel_brute_force():
    """Offset-kernel trick == direct clamping of the lattice pmf c2 exp(-eps d) (big window)."""
    rows, cols, eps, h = 3, 4, 0.9, 1.0
    P = 60
    di, dj = np.meshgrid(np.arange(-P, P + 1), np.arange(-P, P + 1), indexing="ij")
    K = np.exp(-eps * h * np.hypot(di, dj))
    K /= K.sum()
    ref = np.zeros((rows * cols, rows * cols))
    for i0 in range(rows):
        for j0 in range(cols):
            out = np.clip(i0 + di, 0, rows - 1) * cols + np.clip(j0 + dj, 0, cols - 1)
            ref[i0 * cols + j0] = np.bincount(out.ravel(), weights=K.ravel(), minlength=rows * cols)
    np.testing.assert_allclose(M.planar_geometric_channel(rows, cols, eps, h), ref, rtol=1e-10)


def test_planar_geometric_rectangular_cells_and_line():
    C = M.planar_geometric_channel(4, 5, 1.0, cell_size=(0.5, 0.8))
    assert_channel(C)
    assert M_channels.geo_ind_epsilon(C, grid_distance(4, 5, 0.5, 0.8)) == pytest.approx(1.0, abs=1e-10)
    C1 = M.planar_geometric_channel(1, 6, 0.7)
    assert_channel(C1)
    assert M_channels.geo_ind_epsilon(C1, line_distance(6)) <= 0.7 + 1e-12


@pytest.mark.parametrize("rows,cols,eps,h", [(5, 5, 1.0, 1.0), (4, 3, 0.5, 0.5), (6, 4, 3.0, 0.5)])
def test_planar_laplace_channel(rows, cols, eps, h):
    C = M.planar_laplace_channel(rows, cols, eps, cell_size=h)
    assert C.shape == (rows * cols, rows * cols)
    assert_channel(C)
    assert M_channels.geo_ind_epsilon(C, grid_distance(rows, cols, h)) <= eps + 1e-10


def test_planar_laplace_channel_matches_integral():
    """Cell masses of the planar Laplace density (dblquad) vs the midpoint-rule channel."""
    rows, cols, eps, h = 5, 5, 1.0, 1.0
    C = M.planar_laplace_channel(rows, cols, eps, cell_size=h)
    centre = 2 * cols + 2

    def mass(dy, dx):
        f = lambda y, x: eps**2 / (2 * np.pi) * math.exp(-eps * math.hypot(x, y))  # noqa: E731
        val, _ = integrate.dblquad(f, dx - 0.5, dx + 0.5, dy - 0.5, dy + 0.5, epsabs=1e-12, epsrel=1e-9)
        return val

    for (dy, dx), tol in [((0, 0), 5e-3), ((0, 1), 1e-3), ((1, 1), 1e-3), ((-1, 1), 1e-3)]:
        z = (2 + dy) * cols + (2 + dx)
        assert C[centre, z] == pytest.approx(mass(dy, dx), rel=tol)
    # a corner cell collects the whole quadrant beyond it
    np.testing.assert_allclose(C.sum(), rows * cols)


@pytest.mark.parametrize("k", [2, 10, 30])
def test_exponential_channel(k):
    D = line_distance(k)
    for eps in [0.1, 1.0, 3.0]:
        C = M.exponential_channel(D, eps)
        assert_channel(C)
        assert M_channels.geo_ind_epsilon(C, D) <= eps + 1e-12
        C2 = M.exponential_channel(D, eps, half=False)
        assert_channel(C2)
        assert M_channels.geo_ind_epsilon(C2, D) <= 2 * eps + 1e-12
        np.testing.assert_allclose(C[0], np.exp(-eps * D[0] / 2) / np.exp(-eps * D[0] / 2).sum(), rtol=1e-12)


def test_exponential_channel_tight_value_two_points():
    # on two points the tight geo-ind level is eps/2 (half=True) and eps (half=False)
    D = line_distance(2)
    assert M_channels.geo_ind_epsilon(M.exponential_channel(D, 1.0), D) == pytest.approx(0.5, abs=1e-12)
    assert M_channels.geo_ind_epsilon(M.exponential_channel(D, 1.0, half=False), D) == pytest.approx(1.0, abs=1e-12)


def test_ldp_epsilon_edge_cases():
    C = np.array([[0.5, 0.5, 0.0], [0.25, 0.75, 0.0]])
    assert M_channels.ldp_epsilon(C) == pytest.approx(math.log(2), abs=1e-15)  # all-zero column ignored
    assert M_channels.ldp_epsilon(np.array([[1.0, 0.0], [0.5, 0.5]])) == math.inf
    assert M_channels.ldp_epsilon(np.full((3, 4), 0.25)) == 0.0
    assert M_channels.ldp_epsilon(np.eye(3)) == math.inf


def test_geo_ind_epsilon_edge_cases():
    D = line_distance(3)
    assert M_channels.geo_ind_epsilon(np.eye(3), D) == math.inf
    C = np.array([[0.5, 0.5, 0.0], [0.5, 0.5, 0.0], [0.25, 0.75, 0.0]])
    # x=0, x'=2: log(0.5/0.25)/2; x=2, x'=0: log(0.75/0.5)/2; rows 0, 1 identical
    assert M_channels.geo_ind_epsilon(C, D) == pytest.approx(max(math.log(2), math.log(1.5)) / 1.0, abs=1e-15)
    # identical rows at distance 0 are fine; distinct rows at distance 0 are infinitely distinguishable
    D0 = D.copy()
    D0[0, 1] = D0[1, 0] = 0
    assert math.isfinite(M_channels.geo_ind_epsilon(C, D0))
    D0[0, 2] = D0[2, 0] = 0
    assert M_channels.geo_ind_epsilon(C, D0) == math.inf


def test_geo_ind_epsilon_matches_bruteforce():
    rng = np.random.default_rng(5)
    C = rng.dirichlet(np.ones(7), size=6)
    C[2, 3] = 0.0
    C[2] /= C[2].sum()
    C[:, 5] = 0.0
    C /= C.sum(axis=1, keepdims=True)
    pts = rng.random((6, 2))
    D = np.hypot(*(pts[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
    best = 0.0
    for x, xp in itertools.permutations(range(6), 2):
        for y in range(7):
            if C[x, y] == 0:
                continue
            r = math.inf if C[xp, y] == 0 else math.log(C[x, y] / C[xp, y]) / D[x, xp]
            best = max(best, r)
    assert M_channels.geo_ind_epsilon(C, D) == best
    C[:, 3] = 1.0 / 7
    C /= C.sum(axis=1, keepdims=True)
    best = max(
        math.log(C[x, y] / C[xp, y]) / D[x, xp]
        for x, xp in itertools.permutations(range(6), 2)
        for y in range(7)
        if C[x, y] > 0
    )
    assert M_channels.geo_ind_epsilon(C, D) == pytest.approx(best, rel=1e-14)


def test_large_epsilon_no_overflow():
    p, q = M.grr_params(10, 1000.0)
    assert p == 1.0 and 0 <= q < 1e-300
    assert M.ue_params(1000.0, "sue")[0] == 1.0
    omega, p, q = M.ss_params(10, 800.0)
    assert omega == 1 and p == 1.0


# ------------------------------------------------------------------------------------------------
# hypothesis: natural properties
# ------------------------------------------------------------------------------------------------

eps_st = st.floats(min_value=0.01, max_value=12.0, allow_nan=False)


@settings(max_examples=40, deadline=None)
@given(k=st.integers(2, 60), eps=eps_st)
def test_property_rows_sum_to_one(k, eps):
    for C in (M.grr_channel(k, eps), M.geometric_channel(k, eps), M.laplace_channel(k, eps)):
        assert np.all(C >= 0)
        np.testing.assert_allclose(C.sum(axis=1), 1.0, atol=1e-12)
    assert M_channels.ldp_epsilon(M.grr_channel(k, eps)) == pytest.approx(eps, abs=1e-10)


@settings(max_examples=25, deadline=None)
@given(k=st.integers(2, 9), eps=eps_st, kind=st.sampled_from(["oue", "sue"]))
def test_property_ue_and_ss(k, eps, kind):
    C = M.ue_channel(k, eps, kind)
    np.testing.assert_allclose(C.sum(axis=1), 1.0, atol=1e-12)
    assert M_channels.ldp_epsilon(C) == pytest.approx(eps, abs=1e-9)
    S = M.ss_channel(k, eps)
    np.testing.assert_allclose(S.sum(axis=1), 1.0, atol=1e-12)
    assert M_channels.ldp_epsilon(S) == pytest.approx(eps, abs=1e-9)
    omega, p, q = M.ss_params(k, eps)
    assert 1 <= omega <= k - 1 and 0 < q < p < 1


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    values=st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=8),
    g=st.integers(2, 2**32),
)
def test_property_lh_hash_matches_python_ints(seed, values, g):
    seeds = M.lh_draw_seeds(5, rng=seed)
    H = M.lh_hash(seeds[:, None, :], np.array(values, dtype=np.int64)[None, :], g)
    for i, (a, b) in enumerate(seeds):
        for j, v in enumerate(values):
            assert H[i, j] == ((int(a) * v + int(b)) % M.HASH_PRIME) % g


# ------------------------------------------------------------------------------------------------
# tier 1: samplers == channels (chi-square, alpha = 1e-6, fixed seeds)
# ------------------------------------------------------------------------------------------------


def _inputs(k: int, per_value: int) -> np.ndarray:
    return np.repeat(np.arange(k), per_value)


def test_grr_perturb_matches_channel():
    for k, eps in [(2, 0.5), (5, 1.0), (12, 3.0)]:
        x = _inputs(k, 3000)
        y = M.grr_perturb(x, k, eps, rng=11)
        assert y.dtype == np.int64 and y.shape == x.shape
        assert_sampler_matches(x, y, M.grr_channel(k, eps))


@pytest.mark.parametrize("kind", ["oue", "sue"])
def test_ue_perturb_matches_channel(kind):
    k, eps = 4, 1.2
    x = _inputs(k, 5000)
    B = M.ue_perturb(x, k, eps, kind, rng=12)
    assert B.dtype == bool and B.shape == (x.size, k)
    assert_sampler_matches(x, M.ue_pattern_index(B), M.ue_channel(k, eps, kind))


def test_rappor_perturb_is_sue():
    x = np.arange(5).repeat(3)
    np.testing.assert_array_equal(M.rappor_perturb(x, 5, 1.0, rng=3), M.ue_perturb(x, 5, 1.0, "sue", rng=3))


def test_ue_perturb_chunking_is_consistent(monkeypatch):
    """Chunked and unchunked draws have the same law; the chunked path covers several blocks."""
    import ldpnb.utils as chunking

    monkeypatch.setattr(chunking, "_CHUNK_ENTRIES", 64)
    k, eps = 3, 0.8
    x = _inputs(k, 4000)
    B = M.ue_perturb(x, k, eps, "oue", rng=13)
    assert_sampler_matches(x, M.ue_pattern_index(B), M.ue_channel(k, eps, "oue"))
    S = M.ss_perturb(np.repeat(np.arange(5), 3000), 5, 0.3, rng=14)
    omega = M.ss_params(5, 0.3)[0]
    assert np.all(S.sum(axis=1) == omega)
    assert_sampler_matches(np.repeat(np.arange(5), 3000), M.ss_subset_index(S), M.ss_channel(5, 0.3))


@pytest.mark.parametrize("eps", [0.5, 2.0])
def test_lh_perturb_matches_channel(eps):
    """For k = 2 the Carter-Wegman family is pairwise independent (up to g/P ~ 1e-18), so (h(0), h(1), y)
    has the law of the fully random family: compare with lh_channel."""
    k, g = 2, 3
    x = _inputs(k, 6000)
    seeds, y = M.lh_perturb(x, k, eps, g, rng=21)
    assert seeds.dtype == np.uint64 and seeds.shape == (x.size, 2)
    h = M.lh_hash(seeds[:, None, :], np.arange(k)[None, :], g)  # (n, k)
    h_index = (h * g ** np.arange(k)).sum(axis=1)
    assert_sampler_matches(x, h_index * g + y, M.lh_channel(k, g, eps))


def test_lh_support_counts_matches_hash_matrix():
    k, eps = 23, 1.5
    x = np.random.default_rng(0).integers(0, k, 2000)
    seeds, y = M.lh_perturb(x, k, eps, rng=22)
    g = M.lh_params(eps)[0]
    H = M.lh_hash(seeds[:, None, :], np.arange(k)[None, :], g)
    np.testing.assert_array_equal(M.lh_support_counts(seeds, y, k, g), (H == y[:, None]).sum(axis=0))
    assert np.all(H[np.arange(x.size), x] == M.lh_hash(seeds, x, g))


def test_ss_perturb_matches_channel():
    for k, eps in [(6, 0.5), (5, 1.0), (4, 3.0)]:
        x = _inputs(k, 4000)
        S = M.ss_perturb(x, k, eps, rng=31)
        omega = M.ss_params(k, eps)[0]
        assert S.dtype == bool and np.all(S.sum(axis=1) == omega)
        assert_sampler_matches(x, M.ss_subset_index(S), M.ss_channel(k, eps))


def test_geometric_perturb_matches_channel():
    for k, eps in [(12, 0.5), (5, 2.0)]:
        x = _inputs(k, 4000)
        assert_sampler_matches(x, M.geometric_perturb(x, k, eps, rng=41), M.geometric_channel(k, eps))


def test_geometric_perturb_untruncated():
    eps, n = 0.7, 50000
    z = M.geometric_perturb(np.full(n, 3), None, eps, rng=42) - 3
    alpha = math.exp(-eps)
    support = np.arange(-60, 61)
    pmf = (1 - alpha) / (1 + alpha) * alpha ** np.abs(support)
    assert np.all(np.abs(z) <= 60)
    obs = np.bincount(z + 60, minlength=support.size)
    stat, df, crit = chi2_test(obs, n * pmf / pmf.sum())
    assert stat < crit


def test_laplace_perturb_matches_channel():
    for k, eps in [(9, 0.6), (4, 2.0)]:
        x = _inputs(k, 4000)
        assert_sampler_matches(x, M.laplace_perturb(x, k, eps, rng=43), M.laplace_channel(k, eps))


def test_planar_laplace_perturb_matches_channel():
    rows, cols, eps, h = 4, 3, 1.0, 0.5
    k = rows * cols
    x = _inputs(k, 3000)
    i, j = np.divmod(x, cols)
    pts = np.column_stack([i * h, j * h]).astype(float)
    z = M.planar_laplace_perturb(pts, eps, rng=44)
    zi = np.clip(np.floor(z[:, 0] / h + 0.5), 0, rows - 1).astype(int)
    zj = np.clip(np.floor(z[:, 1] / h + 0.5), 0, cols - 1).astype(int)
    assert_sampler_matches(x, zi * cols + zj, M.planar_laplace_channel(rows, cols, eps, h))


def test_planar_laplace_perturb_radius_law():
    eps, n = 2.0, 40000
    z = M.planar_laplace_perturb(np.zeros((n, 2)), eps, rng=45)
    r = np.hypot(z[:, 0], z[:, 1])
    # radial CDF 1 - (1 + eps r) e^{-eps r}: test the probability integral transform on 20 bins
    u = 1 - (1 + eps * r) * np.exp(-eps * r)
    obs = np.bincount(np.minimum((u * 20).astype(int), 19), minlength=20)
    stat, df, crit = chi2_test(obs, np.full(20, n / 20))
    assert stat < crit


def test_sample_channel_matches_channel():
    rng = np.random.default_rng(7)
    C = rng.dirichlet(np.ones(9) * 0.7, size=6)
    C[:, [2, 8]] = 0.0  # zero columns (including the last) are never drawn
    C[3, 0] = 0.0
    C /= C.sum(axis=1, keepdims=True)
    x = _inputs(6, 4000)
    y = M_channels.sample_channel(C, x, rng=51)
    assert not np.any(np.isin(y, [2, 8]))
    assert not np.any(y[x == 3] == 0)
    assert_sampler_matches(x, y, C)


def test_sample_channel_deterministic_rows_and_tiny_entries():
    np.testing.assert_array_equal(
        M_channels.sample_channel(np.eye(5), np.arange(5).repeat(4), rng=1), np.arange(5).repeat(4)
    )
    # entries far below the resolution of an offset array (1e-13 at k=1000) keep their probability
    k = 1000
    C = np.zeros((k, 3))
    C[:, 0] = 1 - 1e-9
    C[:, 1] = 1e-9
    C[:, 2] = 0.0
    y = M_channels.sample_channel(C, np.full(10, k - 1), rng=2)
    assert set(np.unique(y)) <= {0, 1}


def test_sample_channel_one_output():
    np.testing.assert_array_equal(M_channels.sample_channel(np.ones((3, 1)), [0, 2, 1], rng=1), [0, 0, 0])


# ------------------------------------------------------------------------------------------------
# count-level simulators == per-user sampling in law
# ------------------------------------------------------------------------------------------------

R = 4000  # replications of the count simulators


def _mean_cov_z(samples: np.ndarray, mean: np.ndarray, cov: np.ndarray, z: float = 6.0) -> None:
    """z-tests (6 SE) of the sample mean and of every sample covariance entry against theory."""
    r = samples.shape[0]
    dev = samples - samples.mean(axis=0)
    se_mean = np.sqrt(np.diag(cov) / r)
    assert np.all(np.abs(samples.mean(axis=0) - mean) <= z * se_mean + 1e-12)
    prods = dev[:, :, None] * dev[:, None, :]
    emp = prods.sum(axis=0) / (r - 1)
    se_cov = prods.std(axis=0, ddof=1) / math.sqrt(r)
    assert np.all(np.abs(emp - cov) <= z * se_cov + 1e-9)


def test_grr_simulate_counts_law():
    N = np.array([3, 0, 7, 12, 2])
    k, eps = N.size, 0.9
    C = M.grr_channel(k, eps)
    rng = np.random.default_rng(61)
    sims = np.array([M.grr_simulate_counts(N, eps, rng=rng) for _ in range(R)])
    assert np.all(sims.sum(axis=1) == N.sum())
    mean = N @ C
    cov = sum(n * (np.diag(c) - np.outer(c, c)) for n, c in zip(N, C))
    _mean_cov_z(sims, mean, cov)
    # exact marginal law of the count of output y: sum_x Binomial(N_x, C[x, y])
    for y in (0, 3):
        assert_counts_law(sims[:, y], sum_binomials_pmf(N, C[:, y]))
    # per-user sampling has the same law
    x = np.tile(np.repeat(np.arange(k), N), R)
    per_user = np.bincount(
        np.repeat(np.arange(R), N.sum()) * k + M.grr_perturb(x, k, eps, rng=62), minlength=R * k
    ).reshape(R, k)
    for y in (0, 3):
        assert_counts_law(per_user[:, y], sum_binomials_pmf(N, C[:, y]))
    _mean_cov_z(per_user, mean, cov)


def test_simulate_counts_law():
    rng = np.random.default_rng(63)
    C = rng.dirichlet(np.ones(6), size=4)
    C[:, 5] = 0
    C /= C.sum(axis=1, keepdims=True)
    N = np.array([5, 0, 9, 4])
    sims = np.array([M_channels.simulate_counts(C, N, rng=rng) for _ in range(R)])
    assert np.all(sims[:, 5] == 0) and np.all(sims.sum(axis=1) == N.sum())
    mean = N @ C
    cov = sum(n * (np.diag(c) - np.outer(c, c)) for n, c in zip(N, C))
    _mean_cov_z(sims[:, :5], mean[:5], cov[:5, :5])
    for y in range(5):
        assert_counts_law(sims[:, y], sum_binomials_pmf(N, C[:, y]))
    np.testing.assert_array_equal(M_channels.simulate_counts(C, np.zeros(4, int), rng=1), np.zeros(6, int))


@pytest.mark.parametrize("kind", ["oue", "sue"])
def test_ue_simulate_support_counts_law(kind):
    N = np.array([4, 10, 0, 6])
    k, eps = N.size, 1.1
    n = N.sum()
    p, q = M.ue_params(eps, kind)
    rng = np.random.default_rng(64)
    sims = np.array([M.ue_simulate_support_counts(N, eps, kind, rng=rng) for _ in range(R)])
    x = np.tile(np.repeat(np.arange(k), N), R)
    per_user = M.ue_perturb(x, k, eps, kind, rng=65).reshape(R, n, k).sum(axis=1)
    f = N / n
    mean = n * (p * f + q * (1 - f))
    cov = np.diag(N * p * (1 - p) + (n - N) * q * (1 - q))  # bits independent: diagonal
    for counts in (sims, per_user):
        _mean_cov_z(counts, mean, cov)
        for v in range(k):
            assert_counts_law(counts[:, v], sum_binomials_pmf([N[v], n - N[v]], [p, q]))


@pytest.mark.parametrize("g", [None, 2, 5])
def test_lh_simulate_support_counts_law(g):
    N = np.array([6, 2, 0, 9, 3])
    k, eps = N.size, 1.4
    n = N.sum()
    gg, p, q = M.lh_params(eps, g)
    rng = np.random.default_rng(66)
    sims = np.array([M.lh_simulate_support_counts(N, eps, g, rng=rng) for _ in range(R)])
    f = N / n
    mean = n * (p * f + q * (1 - f))
    cov = np.diag(N * p * (1 - p) + (n - N) * q * (1 - q))  # random oracle: independent indicators
    _mean_cov_z(sims, mean, cov)
    for v in range(k):
        assert_counts_law(sims[:, v], sum_binomials_pmf([N[v], n - N[v]], [p, q]))
    # per-user Carter-Wegman hashing: same marginal law of every support count
    x = np.tile(np.repeat(np.arange(k), N), R)
    seeds, y = M.lh_perturb(x, k, eps, g, rng=67)
    H = M.lh_hash(seeds[:, None, :], np.arange(k)[None, :], gg)
    per_user = (H == y[:, None]).reshape(R, n, k).sum(axis=1)
    for v in range(k):
        assert_counts_law(per_user[:, v], sum_binomials_pmf([N[v], n - N[v]], [p, q]))
    assert np.all(np.abs(per_user.mean(axis=0) - mean) <= 6 * np.sqrt(np.diag(cov) / R))


def test_ss_simulate_support_counts_law():
    N = np.array([5, 0, 8, 3, 6, 2])
    k, eps = N.size, 0.4
    n = N.sum()
    omega, p, q = M.ss_params(k, eps)
    assert omega >= 2  # the non-GRR path
    rng = np.random.default_rng(68)
    exact = np.array([M.ss_simulate_support_counts(N, eps, rng=rng) for _ in range(R)])
    marginal = np.array([M.ss_simulate_support_counts(N, eps, rng=rng, method="marginal") for _ in range(R)])
    x = np.tile(np.repeat(np.arange(k), N), R)
    per_user = M.ss_perturb(x, k, eps, rng=69).reshape(R, n, k).sum(axis=1)
    assert np.all(exact.sum(axis=1) == n * omega)  # every user reports exactly omega values
    f = N / n
    mean = n * (p * f + q * (1 - f))
    var = N * p * (1 - p) + (n - N) * q * (1 - q)
    for counts in (exact, marginal, per_user):
        assert np.all(np.abs(counts.mean(axis=0) - mean) <= 6 * np.sqrt(var / R))
        for v in range(k):  # the marginal law Binomial(N_v, p) + Binomial(n - N_v, q) is exact
            assert_counts_law(counts[:, v], sum_binomials_pmf([N[v], n - N[v]], [p, q]))

    # joint law: the covariances of the exact simulator match per-user sampling (two-sample z, 6 SE)
    def cov_and_se(c):
        d = c - c.mean(axis=0)
        prods = d[:, :, None] * d[:, None, :]
        return prods.sum(axis=0) / (R - 1), prods.std(axis=0, ddof=1) / math.sqrt(R)

    ce, se_e = cov_and_se(exact)
    cp, se_p = cov_and_se(per_user)
    assert np.all(np.abs(ce - cp) <= 6 * np.hypot(se_e, se_p) + 1e-9)
    # ... and the sum over values, which is n * omega exactly, separates exact from marginal
    assert marginal.sum(axis=1).std() > 1.0


def test_ss_simulate_support_counts_exact_chi2_joint():
    """Exact joint law on a tiny case: chi-square of the whole simulated count vector against its
    exact law, enumerated by convolving the users' channel rows over all subsets."""
    N = np.array([2, 1, 0, 1])
    k, eps = N.size, 0.1
    omega = M.ss_params(k, eps)[0]
    assert omega == 2
    C = M.ss_channel(k, eps)
    members = M.ss_subsets(k, omega).astype(int)
    # exact law of the count vector: convolve the per-user laws over subsets
    law = {(0,) * k: 1.0}
    for xv in np.repeat(np.arange(k), N):
        new = {}
        for vec, pr in law.items():
            for s_idx, row in enumerate(members):
                key = tuple(np.add(vec, row))
                new[key] = new.get(key, 0.0) + pr * C[xv, s_idx]
        law = new
    keys = sorted(law)
    probs = np.array([law[kk] for kk in keys])
    rng = np.random.default_rng(70)
    sims = np.array([M.ss_simulate_support_counts(N, eps, rng=rng) for _ in range(6000)])
    index = {kk: i for i, kk in enumerate(keys)}
    obs = np.bincount([index[tuple(row)] for row in sims], minlength=len(keys))
    stat, df, crit = chi2_test(obs, 6000 * probs)
    assert stat < crit


def test_ss_simulate_support_counts_per_user_and_validation():
    N = np.array([3, 4, 0, 5, 2, 6])
    c = M.ss_simulate_support_counts(N, 0.4, rng=1, method="per_user")
    assert c.sum() == N.sum() * M.ss_params(6, 0.4)[0]
    with pytest.raises(ValueError, match="method"):
        M.ss_simulate_support_counts(N, 0.4, rng=1, method="fast")


def test_ss_simulate_support_counts_omega_one_is_grr():
    N = np.array([3, 4, 5])
    a = M.ss_simulate_support_counts(N, 2.0, rng=5)
    b = M.grr_simulate_counts(N, 2.0, rng=5)
    np.testing.assert_array_equal(a, b)


def test_support_count_means_large_n():
    """E[C(v)] = n (p f_v + q (1 - f_v)) for UE, LH and SS simulators (one large draw, 6 SE)."""
    N = np.array([400_000, 250_000, 0, 100_000, 250_000])
    n = N.sum()
    f = N / n
    eps = 1.0
    cases = [
        (M.ue_params(eps, "oue"), M.ue_simulate_support_counts(N, eps, "oue", rng=1)),
        (M.ue_params(eps, "sue"), M.ue_simulate_support_counts(N, eps, "sue", rng=2)),
        (M.lh_params(eps)[1:], M.lh_simulate_support_counts(N, eps, rng=3)),
        (M.ss_params(N.size, 0.2)[1:], M.ss_simulate_support_counts(N, 0.2, rng=4)),
    ]
    for (p, q), c in cases:
        mean = n * (p * f + q * (1 - f))
        sd = np.sqrt(N * p * (1 - p) + (n - N) * q * (1 - q))
        assert np.all(np.abs(c - mean) <= 6 * sd)


# ------------------------------------------------------------------------------------------------
# reproducibility and validation
# ------------------------------------------------------------------------------------------------


def test_seeded_reproducibility():
    x = np.arange(10).repeat(5)
    np.testing.assert_array_equal(M.grr_perturb(x, 10, 1.0, rng=3), M.grr_perturb(x, 10, 1.0, rng=3))
    s1, y1 = M.lh_perturb(x, 10, 1.0, rng=3)
    s2, y2 = M.lh_perturb(x, 10, 1.0, rng=np.random.default_rng(3))
    np.testing.assert_array_equal(s1, s2)
    np.testing.assert_array_equal(y1, y2)
    np.testing.assert_array_equal(M.ss_perturb(x, 10, 1.0, rng=4), M.ss_perturb(x, 10, 1.0, rng=4))


BAD_EPS = [0.0, -1.0, float("nan"), float("inf")]


@pytest.mark.parametrize("eps", BAD_EPS)
def test_invalid_epsilon(eps):
    with pytest.raises(ValueError, match="epsilon"):
        M.grr_params(5, eps)
    with pytest.raises(ValueError, match="epsilon"):
        M.grr_channel(5, eps)
    with pytest.raises(ValueError, match="epsilon"):
        M.ue_params(eps)
    with pytest.raises(ValueError, match="epsilon"):
        M.lh_params(eps, 2)
    with pytest.raises(ValueError, match="epsilon"):
        M.ss_params(5, eps)
    with pytest.raises(ValueError, match="epsilon"):
        M.geometric_channel(5, eps)
    with pytest.raises(ValueError, match="epsilon"):
        M.laplace_channel(5, eps)
    with pytest.raises(ValueError, match="epsilon"):
        M.planar_geometric_channel(2, 2, eps)
    with pytest.raises(ValueError, match="epsilon"):
        M.exponential_channel(line_distance(3), eps)
    with pytest.raises(ValueError, match="epsilon"):
        M.grr_perturb([0, 1], 2, eps, rng=0)
    with pytest.raises(ValueError, match="epsilon"):
        M.planar_laplace_perturb(np.zeros((2, 2)), eps, rng=0)


@pytest.mark.parametrize("k", [1, 0, -3])
def test_invalid_domain_size(k):
    for f in (M.grr_channel, M.geometric_channel, M.laplace_channel, M.ss_channel, M.grr_params, M.ss_params):
        with pytest.raises(ValueError, match="k"):
            f(k, 1.0)
    with pytest.raises(ValueError, match="k"):
        M.ue_channel(k, 1.0)
    with pytest.raises(ValueError, match="k"):
        M.lh_channel(k, 2, 1.0)


def test_invalid_values():
    for f in (M.grr_perturb, M.ue_perturb, M.ss_perturb, M.geometric_perturb, M.laplace_perturb):
        with pytest.raises(ValueError, match="x"):
            f([0, 5], 5, 1.0, rng=0)
        with pytest.raises(ValueError, match="x"):
            f([-1, 2], 5, 1.0, rng=0)
    with pytest.raises(ValueError, match="x"):
        M.lh_perturb([0, 7], 5, 1.0, rng=0)
    with pytest.raises(ValueError, match="x"):
        M_channels.sample_channel(np.eye(3), [3], rng=0)


def test_other_validation():
    with pytest.raises(ValueError, match="kind"):
        M.ue_params(1.0, "rappor")
    with pytest.raises(ValueError, match=r"k must be an integer in \[2, 16\]"):
        M.ue_channel(17, 1.0)
    with pytest.raises(ValueError, match="g"):
        M.lh_params(1.0, 1)
    with pytest.raises(ValueError, match="g"):
        M.lh_channel(12, 4, 1.0)
    with pytest.raises(ValueError, match="seeds"):
        M.lh_hash(np.array([[0, 1]], dtype=np.uint64), [1], 3)  # a = 0 is not allowed
    with pytest.raises(ValueError, match="seeds"):
        M.lh_hash(np.array([[1, 2, 3]]), [1], 3)
    with pytest.raises(ValueError, match="y"):
        M.lh_support_counts(M.lh_draw_seeds(2, rng=0), [0, 3], 4, 3)
    with pytest.raises(ValueError, match="channel"):
        M_channels.sample_channel(np.array([[0.5, 0.6]]), [0], rng=0)
    with pytest.raises(ValueError, match="channel"):
        M_channels.ldp_epsilon(np.array([[0.5, -0.5, 1.0]]))
    with pytest.raises(ValueError, match="distance"):
        M_channels.geo_ind_epsilon(np.eye(3), np.ones((2, 2)))
    with pytest.raises(ValueError, match="distance"):
        M_channels.geo_ind_epsilon(np.eye(2), -np.ones((2, 2)))
    with pytest.raises(ValueError, match="input_counts"):
        M_channels.simulate_counts(np.eye(3), [1, 2], rng=0)
    with pytest.raises(ValueError, match="input_counts"):
        M.grr_simulate_counts([1, -2, 3], 1.0, rng=0)
    with pytest.raises(ValueError, match="input_counts"):
        M.ue_simulate_support_counts([5], 1.0, rng=0)
    with pytest.raises(ValueError, match="rows"):
        M.planar_laplace_channel(0, 3, 1.0)
    with pytest.raises(ValueError, match="cell_size"):
        M.planar_geometric_channel(2, 3, 1.0, cell_size=-1.0)
    with pytest.raises(ValueError, match="points"):
        M.planar_laplace_perturb(np.zeros((3, 3)), 1.0, rng=0)
    with pytest.raises(ValueError, match="epsilon \\* cell_size"):
        M.planar_geometric_channel(3, 3, 1e-4)
    with pytest.raises(TypeError):
        M.grr_perturb([0, 1], 2, 1.0, rng="seed")


def test_chi2_harness_detects_wrong_channels():
    """The sampler tests have teeth: a mis-specified epsilon or a broken UE (the pure-LDP #11
    pattern: q used for the true bit) is rejected by the same alpha = 1e-6 chi-square test."""
    k = 5
    x = _inputs(k, 3000)
    y = M.grr_perturb(x, k, 1.0, rng=81)
    obs = np.zeros((k, k))
    np.add.at(obs, (x, y), 1)
    stat, df, crit = chi2_test(obs, 3000 * M.grr_channel(k, 1.3))
    assert stat > crit
    B = M.ue_perturb(x, k, 1.0, "oue", rng=82)
    B[np.arange(x.size), x] = np.random.default_rng(83).random(x.size) < M.ue_params(1.0, "oue")[1]
    obs = np.zeros((k, 2**k))
    np.add.at(obs, (x, M.ue_pattern_index(B)), 1)
    stat, df, crit = chi2_test(obs, 3000 * M.ue_channel(k, 1.0, "oue"))
    assert stat > crit


def test_geometric_perturb_untruncated_validation():
    with pytest.raises(ValueError, match="x"):
        M.geometric_perturb(np.array([0.5, 1.0]), None, 1.0, rng=0)
    with pytest.raises(ValueError, match="x"):
        M.geometric_perturb(np.zeros((2, 2), dtype=int), None, 1.0, rng=0)
    z = M.geometric_perturb(np.array([-5, 1000]), None, 50.0, rng=0)
    np.testing.assert_array_equal(z, [-5, 1000])


# ------------------------------------------------------------------------------------------------
# heavier checks (pytest -m slow)
# ------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_slow_geo_ind_large_domains():
    k = 1000
    assert M_channels.geo_ind_epsilon(M.geometric_channel(k, 0.05), line_distance(k)) == pytest.approx(0.05, abs=1e-12)
    assert M_channels.geo_ind_epsilon(M.laplace_channel(k, 0.05), line_distance(k)) <= 0.05 + 1e-12
    D = grid_distance(20, 14, 0.45)
    for eps in (0.2, 1.0, 6.0):
        G = M.planar_geometric_channel(20, 14, eps, cell_size=0.45)
        L = M.planar_laplace_channel(20, 14, eps, cell_size=0.45)
        E = M.exponential_channel(D, eps)
        for C in (G, L, E):
            assert_channel(C)
        assert M_channels.geo_ind_epsilon(G, D) == pytest.approx(eps, abs=1e-9)
        assert M_channels.geo_ind_epsilon(L, D) <= eps + 1e-9
        assert M_channels.geo_ind_epsilon(E, D) <= eps + 1e-9


@pytest.mark.slow
def test_slow_samplers_large():
    k, eps = 10, 1.0
    x = _inputs(k, 20000)
    assert_sampler_matches(x, M.ue_pattern_index(M.rappor_perturb(x, k, eps, rng=91)), M.rappor_channel(k, eps))
    assert_sampler_matches(x, M.ss_subset_index(M.ss_perturb(x, k, 0.3, rng=92)), M.ss_channel(k, 0.3))
    rows, cols = 8, 6
    C = M.planar_geometric_channel(rows, cols, 0.8, 0.5)
    xs = _inputs(rows * cols, 5000)
    assert_sampler_matches(xs, M_channels.sample_channel(C, xs, rng=93), C)


@settings(max_examples=15, deadline=None)
@given(rows=st.integers(1, 6), cols=st.integers(1, 6), eps=st.floats(0.5, 5.0), h=st.floats(0.3, 2.0))
def test_property_planar_channels(rows, cols, eps, h):
    if rows * cols < 2:
        return
    D = grid_distance(rows, cols, h)
    G = M.planar_geometric_channel(rows, cols, eps, cell_size=h)
    L = M.planar_laplace_channel(rows, cols, eps, cell_size=h, subdivisions=4)
    for C in (G, L):
        assert np.all(C > 0)
        np.testing.assert_allclose(C.sum(axis=1), 1.0, atol=1e-12)
    g_eps = M_channels.geo_ind_epsilon(G, D)
    assert g_eps <= eps * (1 + 1e-12)
    if rows >= 3 and cols >= 3:  # an interior cell makes the bound tight
        assert g_eps == pytest.approx(eps, rel=1e-10)
    assert M_channels.geo_ind_epsilon(L, D) <= eps * (1 + 1e-12)


def test_local_hashing_blocks_give_the_unblocked_values(monkeypatch):
    """lh_perturb and lh_support_counts work in blocks of users (issue #41, memory): the same reports
    and counts as one block, across block boundaries (a block of 7 users against one of all)."""
    from ldpnb.mechanisms import hashing

    x = np.random.default_rng(3).integers(0, 12, 50)
    seeds, y = hashing.lh_perturb(x, 12, 1.5, rng=11)
    direct = hashing.lh_hash(seeds, x, 5)
    counts = hashing.lh_support_counts(seeds, y, 12, 5)
    monkeypatch.setattr(hashing, "_CHUNK", 7)
    seeds7, y7 = hashing.lh_perturb(x, 12, 1.5, rng=11)
    assert np.array_equal(seeds7, seeds) and np.array_equal(y7, y)
    assert np.array_equal(hashing._hash_chunked(seeds, x, 5), direct)
    assert np.array_equal(hashing.lh_support_counts(seeds, y, 12, 5), counts)
    every = (hashing.lh_hash(seeds[:, None, :], np.arange(12), 5) == y[:, None]).sum(axis=0)
    assert np.array_equal(counts, every)
