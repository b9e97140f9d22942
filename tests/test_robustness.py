"""Numerical robustness and data integrity (issue #9).

* IBU with zero counts, zero channel columns, outputs that no input can produce, degenerate
  starting points and channels with tiny entries: never NaN; a clear error where the problem is
  ill-posed.
* Blahut-Arimoto and the lift computations at extreme parameters (large beta, tiny
  probabilities, large Renyi orders): no underflow to NaN / 0/0.
* Data integrity: every registered data file, corrupted, truncated or extended, is refused before
  any parser sees it (``tests/test_datasets.py`` covers the loaders' messages; this adds every file
  and the "never parsed" guarantee).

Floating-point errors are turned into exceptions (``np.errstate(divide/invalid/over="raise")``)
so that a hidden ``0/0`` or ``log(0)`` fails the test even when its NaN is later masked.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
import pytest

from ldpnb import estimators as est
from ldpnb import measures as info
from ldpnb import measures as lift
from ldpnb import mechanisms as mech
from ldpnb import mechanisms as rd
from ldpnb.data import lattice_distance_matrix

RAISE = dict(divide="raise", invalid="raise", over="raise", under="ignore")


def _finite_distribution(v):
    v = np.asarray(v)
    assert np.all(np.isfinite(v)) and np.all(v >= 0)
    assert v.sum() == pytest.approx(1.0, abs=1e-12)


# ----------------------------------------------------------------------------- IBU
C4 = mech.grr_channel(4, 1.0)
CZ = np.hstack([C4, np.zeros((4, 1))])  # output 4 cannot be produced by any input


def test_ibu_with_zero_counts():
    with np.errstate(**RAISE):
        res = est.ibu(C4, [0, 5, 0, 3])
    _finite_distribution(res.estimate)
    assert np.all(np.isfinite(res.trace)) and np.isfinite(res.loglik) and np.isfinite(res.gap)


def test_ibu_with_a_zero_column_and_no_report_there():
    with np.errstate(**RAISE):
        res = est.ibu(CZ, [1, 2, 3, 4, 0])
        batch = est.ibu_batch(CZ, [[1, 2, 3, 4, 0], [0, 0, 1, 0, 0]])
    _finite_distribution(res.estimate)
    np.testing.assert_allclose(batch[0], res.estimate, atol=1e-8)
    _finite_distribution(batch[1])


def test_ibu_refuses_reports_that_no_input_can_produce():
    with pytest.raises(ValueError, match="probability 0"):
        est.ibu(CZ, [1, 2, 3, 4, 1])
    with pytest.raises(ValueError, match="probability 0"):
        est.ibu_batch(CZ, [[1, 2, 3, 4, 1]])
    assert est.log_likelihood([0.25] * 4, CZ, [1, 2, 3, 4, 1]) == -np.inf


def test_ibu_refuses_no_reports_at_all():
    with pytest.raises(ValueError, match="counts"):
        est.ibu(C4, [0, 0, 0, 0])


def test_ibu_with_a_start_that_misses_an_observed_output_is_refused():
    C = np.array([[1.0, 0.0], [0.0, 1.0]])
    with pytest.raises(ValueError, match="theta0"):
        est.ibu(C, [1, 1], theta0=[1.0, 0.0])


def test_ibu_with_zeros_in_the_start_keeps_them_and_stays_finite():
    with np.errstate(**RAISE):
        res = est.ibu(C4, [1, 2, 3, 4], theta0=[0.5, 0.5, 0.0, 0.0])
    _finite_distribution(res.estimate)
    assert res.estimate[2] == 0 and res.estimate[3] == 0


@pytest.mark.parametrize("eps", [50.0, 300.0, 700.0])
def test_ibu_with_tiny_channel_entries(eps):
    # the float image of the exact log channel: entries down to e^{-5 eps}, underflowing to 0 from eps ~ 150
    # (geometric_channel itself refuses such an epsilon; IBU must still cope with the zeros)
    C = np.exp(mech.TruncatedGeometric(6, eps).log_channel())
    with np.errstate(**RAISE):
        res = est.ibu(C, [1, 0, 3, 0, 0, 9])
    _finite_distribution(res.estimate)
    np.testing.assert_allclose(res.estimate, [1 / 13, 0, 3 / 13, 0, 0, 9 / 13], atol=1e-9)


def test_inversion_of_a_singular_channel_is_a_clear_error():
    with pytest.raises(ValueError, match="singular"):
        est.inv_raw(np.full((3, 3), 1 / 3), [1, 2, 3])


def test_information_measures_with_zeros():
    with np.errstate(**RAISE):
        assert np.isfinite(info.mutual_information([0.5, 0.5, 0, 0], C4, unit="bits"))
        assert np.isfinite(info.channel_capacity(CZ, unit="bits")[0])
        assert info.kl_divergence([0.5, 0.5, 0], [0.5, 0.25, 0.25], unit="bits") == pytest.approx(0.5)
        assert info.entropy([1e-320, 1 - 1e-320], unit="bits") >= 0
    assert info.kl_divergence([0.5, 0.5, 0], [1, 0, 0], unit="bits") == np.inf


# ----------------------------------------------------------------------------- Blahut-Arimoto
D5 = lattice_distance_matrix(5, 5)
PRIOR = np.random.default_rng(0).dirichlet(np.ones(25))


@pytest.mark.parametrize("beta", [1e-12, 1e-3, 50.0, 500.0, 5000.0])
def test_blahut_arimoto_at_extreme_beta(beta):
    with np.errstate(**RAISE):
        res = rd.blahut_arimoto(PRIOR, D5, beta, n_iter=10, history=True)
    assert np.all(np.isfinite(res.log_channel))  # the log channel never underflows
    assert np.all(np.isfinite(res.channel)) and np.all(res.channel >= 0)
    np.testing.assert_allclose(res.channel.sum(axis=1), 1.0, atol=1e-12)
    for v in res.history.values():
        assert np.all(np.isfinite(v))
    # the level read from the log channel respects 2 beta (Remark 4), with no inf from underflow
    L = res.log_channel
    off = ~np.eye(25, dtype=bool)
    lvl = ((L[:, None, :] - L[None, :, :]).max(axis=2)[off] / D5[off]).max()
    assert np.isfinite(lvl) and lvl <= 2 * beta * (1 + 1e-9)


def test_blahut_arimoto_with_tiny_prior_masses():
    prior = np.r_[1e-300, 1e-200, np.ones(23)]
    with np.errstate(**RAISE):
        res = rd.blahut_arimoto(prior, D5, 2.0, n_iter=20)
        R, D, _ = rd.rd_point(prior, D5, 2.0, tol=1e-10)
    assert np.all(np.isfinite(res.log_channel))
    assert np.isfinite(R) and np.isfinite(D) and R >= 0 and D >= 0


@pytest.mark.parametrize("beta", [1e-6, 200.0])
def test_rate_distortion_point_at_extreme_beta(beta):
    with np.errstate(**RAISE):
        R, D, res = rd.rd_point(PRIOR, D5, beta, tol=1e-10, max_iter=20_000)
        lag = rd.ba_lagrangian(PRIOR, res.channel, D5, beta)
    assert np.isfinite(R) and np.isfinite(D) and np.isfinite(lag)
    if beta > 1:  # identity channel: R = H(prior), D = 0
        assert R == pytest.approx(info.entropy(PRIOR, unit="nats"), rel=1e-9) and D == pytest.approx(0, abs=1e-12)
    else:  # constant channel: R = 0
        assert R == pytest.approx(0, abs=1e-6)


@pytest.mark.parametrize("eps", [100.0, 200.0, 1e4])
def test_metric_channels_at_large_epsilon(eps):
    """A float channel is either exact (finite, stochastic, every positive entry in float64's normal
    range) or refused with a ValueError naming epsilon and the log channel; the log channel of the
    mechanism object is finite at any epsilon (no NaN, no OverflowError)."""
    builders = {
        "exponential": (lambda: mech.exponential_channel(D5, eps), lambda: mech.Exponential(D5, eps)),
        "padded planar Laplace": (
            lambda: mech.planar_laplace_padded_channel(3, 3, eps, pad=1),
            lambda: mech.PaddedPlanarLaplace(3, 3, eps, pad=1),
        ),
        "GRR": (lambda: mech.grr_channel(4, eps), lambda: mech.GRR(4, eps)),
        "planar geometric": (lambda: mech.planar_geometric_channel(3, 3, eps), lambda: mech.PlanarGeometric(3, 3, eps)),
        "planar Laplace": (lambda: mech.planar_laplace_channel(2, 3, eps), lambda: mech.PlanarLaplace(2, 3, eps)),
        "geometric": (lambda: mech.geometric_channel(5, eps), lambda: mech.TruncatedGeometric(5, eps)),
        "Laplace": (lambda: mech.laplace_channel(5, eps), lambda: mech.DiscreteLaplace(5, eps)),
    }
    with np.errstate(**RAISE):
        for name, (plain, obj) in builders.items():
            try:
                C = plain()
            except ValueError as exc:
                assert "epsilon" in str(exc) and "log_channel" in str(exc), (name, exc)
            else:
                assert np.all(np.isfinite(C)) and C[C > 0].min() >= np.finfo(float).tiny, name
                np.testing.assert_allclose(C.sum(axis=1), 1.0, atol=1e-12)
            L = obj().log_channel()
            assert np.all(np.isfinite(L)), name
            m = L.max(axis=1, keepdims=True)
            np.testing.assert_allclose((m + np.log(np.exp(L - m).sum(axis=1, keepdims=True)))[:, 0], 0.0, atol=1e-12)


# ----------------------------------------------------------------------------- lift
TINY_JOINT = np.array([[1e-300, 0.5 - 1e-300], [0.25, 0.25]])


def test_lift_with_tiny_probabilities():
    with np.errstate(**RAISE):
        L = lift.lift_matrix(TINY_JOINT)
        lk = lift.leakages(TINY_JOINT)
    assert np.all(np.isfinite(L)) and np.all(L >= 0)
    assert np.isfinite(lk.min_lift_leak) and lk.min_lift_leak == pytest.approx(-np.log(1e-300 / (0.5 * 0.25)), rel=1e-9)


def test_lift_measures_on_an_extreme_joint():
    p = lift.random_joint(3, 6, rng=1, kind="dirichlet", concentration=0.01)  # entries down to 1e-156
    with np.errstate(**RAISE):
        lk = lift.leakages(p)
        vals = [
            lift.chi2_lift(p),
            lift.l1_lift(p),
            lift.alpha_lift(p, 1e6),
            lift.sibson_mi(p, 1e6, unit="nats"),
            lift.mutual_information_sy(p, unit="nats"),
        ]
        ev = lift.evaluate_mechanism(p, np.eye(6))
        C = __import__("ldpnb.mechanisms").mechanisms.subset_merging(p, lift.ALIP(0.5, 0.5)).channel()
    assert all(np.isfinite(v) for v in (lk.max_lift_leak, lk.min_lift_leak, lk.ldp_leak))
    assert all(np.all(np.isfinite(v)) for v in vals)
    assert all(np.isfinite(v) for v in ev.values())
    np.testing.assert_allclose(C.sum(axis=1), 1.0)


@pytest.mark.parametrize("alpha", [1e3, 1e5])
def test_arimoto_mi_at_large_order(alpha):
    p = lift.random_joint(3, 6, rng=1)
    with np.errstate(**RAISE):
        v = lift.arimoto_mi(p, alpha, unit="nats")
    assert np.isfinite(v) and 0 <= v <= lift.sibson_mi(p, alpha, unit="nats") + 1e-9


def test_arimoto_mi_at_moderate_order():
    p = lift.random_joint(3, 6, rng=1)
    with np.errstate(**RAISE):
        v = [lift.arimoto_mi(p, a, unit="nats") for a in (2.0, 10.0, 100.0)]
    assert all(np.isfinite(v))


@pytest.mark.parametrize("which", ["orr", "srr"])
def test_orr_on_an_extreme_joint(which):
    from ldpnb import mechanisms as orr_mechanisms
    from ldpnb.mechanisms import orr

    p = lift.random_joint(3, 6, rng=1, kind="dirichlet", concentration=0.01)
    try:
        C = (
            orr.full_channel(p, 0.5, 0.5)
            if which == "orr"
            else orr_mechanisms.subset_random_response(p, 0.5, 0.5).channel
        )
    except ValueError:
        return  # a clear error is acceptable
    assert np.all(np.isfinite(C))
    np.testing.assert_allclose(C.sum(axis=1), 1.0, atol=1e-9)


# ----------------------------------------------------------------------------- data integrity
def _raw():
    return Path(os.environ.get("LDPNB_DATA_DIR") or Path(__file__).resolve().parents[2] / "shared" / "data" / "raw")


needs_data = pytest.mark.skipif(
    not (_raw() / "adult" / "adult.data").is_file(),
    reason="the shared data copies are not available (set LDPNB_DATA_DIR)",
)


def _registry():
    from ldpnb import data as ds

    return sorted(ds.REGISTRY)


@needs_data
@pytest.mark.parametrize("damage", ["flip", "truncate", "append"])
def test_every_data_file_damaged_is_refused(tmp_path, monkeypatch, damage):
    from ldpnb import data as ds

    raw = _raw()
    monkeypatch.setenv("LDPNB_DATA_DIR", str(tmp_path))
    for rel in _registry():
        data = bytearray((raw / rel).read_bytes())
        if damage == "flip":
            data[len(data) // 2] ^= 0x01
        elif damage == "truncate":
            data = data[: len(data) - 1]
        else:
            data += b"\n"
        target = tmp_path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(bytes(data))
        with pytest.raises(ds.DataError, match="sha256") as exc:
            ds.fetch(rel)
        assert rel in str(exc.value) and "Refusing to parse" in str(exc.value)


@needs_data
def test_a_damaged_file_never_reaches_a_parser(tmp_path, monkeypatch):
    from ldpnb.data import datasets as ds

    raw = _raw()
    for rel in _registry():
        target = tmp_path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        data = bytearray((raw / rel).read_bytes())
        data[len(data) // 3] ^= 0x20
        target.write_bytes(bytes(data))
    monkeypatch.setenv("LDPNB_DATA_DIR", str(tmp_path))
    ds.clear_memory_cache()
    called = []

    def spy(kind):
        def reader(path):
            called.append((kind, path))
            raise AssertionError(f"parser {kind} called on {path}")

        return reader

    monkeypatch.setattr(ds, "_READERS", {k: spy(k) for k in ds._READERS})
    loaders = [
        ds.load_adult,
        ds.load_adult_risks,
        ds.load_acs_employment,
        ds.load_gowalla_nyc,
        lambda: ds.load_gowalla_privic("paris"),
        lambda: ds.load_gowalla_privic("sf"),
        ds.load_movielens_latest_small,
        ds.load_movielens_100k,
        ds.load_foursquare_nyc_fragment,
    ]
    for load in loaders:
        with pytest.raises(ds.DataError):
            load()
    assert called == []
    ds.clear_memory_cache()


# ----------------------------------------------------------------------------- extremes (issue #40)
# Every LDP-tight family reports its level with full relative precision from eps = 1e-12 to 1e4 (through its
# closed-form log-ratios, never through a dense float channel), and the closed forms stay finite and right
# where e^eps overflows (eps >= 710).
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_LOG_EPS = st.floats(min_value=-12.0, max_value=4.0)  # eps = 10**x in [1e-12, 1e4]
_TIGHT = {
    "GRR": lambda k, e: mech.GRR(k, e),
    "SUE": lambda k, e: mech.SUE(k, e),
    "OUE": lambda k, e: mech.OUE(k, e),
    "BLH": lambda k, e: mech.BLH(k, e),
    "SS": lambda k, e: mech.SubsetSelection(k, e),
}


@given(family=st.sampled_from(sorted(_TIGHT)), k=st.integers(2, 16), x=_LOG_EPS)
def test_tight_levels_have_full_relative_precision_at_every_epsilon(family, k, x):
    """(k <= 16: the exact level of UE, BLH and SS enumerates their 2**k or C(k, omega) outputs; beyond, they
    refuse with a clear error and GRR's closed form is tested up to k = 300 below.)"""
    eps = 10.0**x
    level = _TIGHT[family](k, eps).tight_level()
    assert abs(level - eps) <= 1e-12 * eps, (family, k, eps, level)


@given(k=st.integers(2, 300), x=_LOG_EPS)
def test_grr_tight_level_is_exact_at_large_domains(k, x):
    eps = 10.0**x
    assert abs(mech.GRR(k, eps).tight_level() - eps) <= 1e-12 * eps


@given(k=st.integers(2, 16), x=_LOG_EPS)
def test_olh_tight_level_is_exact_where_its_hash_range_fits(k, x):
    eps = 10.0**x
    if eps > 22.0:  # OLH's hash range e^eps + 1 passes 2**32 past eps ~ 22: refused by its contract
        with pytest.raises(ValueError, match="eps"):
            mech.OLH(k, eps)
        return
    m = mech.OLH(k, eps)
    assert abs(m.tight_level() - m.guarantee.epsilon) <= 1e-12 * m.guarantee.epsilon


@given(k=st.integers(2, 200), x=_LOG_EPS)
def test_truncated_geometric_geo_ind_level_is_exact(k, x):
    eps = 10.0**x
    level = mech.TruncatedGeometric(k, eps).tight_level()
    assert abs(level - eps) <= 1e-12 * eps


def test_a_dense_channel_carries_its_level_to_an_absolute_precision_only():
    """``ldp_epsilon`` of a float64 matrix reads the level off rounded entries: the error is ~1e-16 absolute
    (relative 1e-4 at eps = 1e-12), which is why the objects compute their levels from log-ratios."""
    from ldpnb.channels import ldp_epsilon

    for eps in (1e-12, 1e-9, 1e-6, 1.0):
        for k in (2, 44, 284):
            assert abs(ldp_epsilon(mech.grr_channel(k, eps)) - eps) <= 1e-15 * k


@pytest.mark.parametrize("eps", [1.0, 50.0, 700.0, 709.0, 710.0, 745.0, 800.0, 1e4])
def test_closed_forms_stay_finite_and_right_where_exp_overflows(eps):
    import warnings

    from ldpnb.measures.lift import random_joint

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an overflow on the way is a failure even if masked later
        a = info.alpha_star_rr(10, 4, eps)
        assert 0.0 < a <= 2.0 and np.isfinite(a)  # at most log2(min(n, k)) bits
        if eps >= 50:
            assert a == pytest.approx(2.0, abs=1e-12)
        amp = mech.amplified_epsilon(eps, 3)
        assert np.isfinite(amp)
        if eps > 40:  # ln(1 + (e^eps - 1) * 3) = eps + ln 3 up to e^-eps
            assert amp == pytest.approx(eps + np.log(3.0), rel=1e-12)
        res = mech.optimal_random_response(random_joint(2, 3, rng=0), 1.0, eps)
        assert res.channel is not None  # a looser budget never makes the problem infeasible


def test_alpha_star_rr_is_the_direct_formula_where_that_is_finite():
    import math

    def direct(n, k, eps):
        m = min(n, k)
        E = math.exp(eps)
        mu, nu = E / (k + E - 1), 1.0 / (k + E - 1)
        a = (mu + (m - 1) * nu) / m
        h_row = -(mu * math.log(mu) + (k - 1) * nu * math.log(nu))
        h_y = -(m * a * math.log(a) + (k - m) * nu * math.log(nu))
        return (h_y - h_row) / math.log(2)

    for n, k in ((2, 4), (10, 4), (3, 50)):
        for eps in (0.1, 0.5, 1.0, 3.0, 10.0, 30.0):
            assert info.alpha_star_rr(n, k, eps) == pytest.approx(direct(n, k, eps), rel=1e-10, abs=1e-14)


# ----------------------------------------------------------------------------- silent results of the fourth fuzz
@pytest.mark.parametrize(
    "call, name",
    [
        # a batch entry of p_sx summing to 2 gave NMI = 0/0 (NaN) and wrong leakages
        (
            lambda: __import__("ldpnb.mechanisms.watchdog", fromlist=["x"]).merging_performance(
                np.full((2, 2, 2), 0.5), np.array([[0, -1], [0, 0]])
            ),
            "p_sx",
        ),
        # P_S is read as the row sums: a matrix summing to 0.8 gave a wrong P_S
        (
            lambda: __import__("ldpnb.papers.lift.theory", fromlist=["x"]).quasiconvexity_counterexample(
                np.full((2, 3), 0.8 / 6)
            ),
            "p_sx",
        ),
        # rows summing to 1.25 gave a likelihood surface of no channel
        (
            lambda: __import__("ldpnb.papers.ibu.theory", fromlist=["x"]).loglik_surface(
                np.full((3, 3), 1.25 / 3), [0]
            ),
            "channel",
        ),
        # iteration counts without an upper bound ran for ever
        (
            lambda: __import__("ldpnb.mechanisms.rate_distortion", fromlist=["x"]).blahut_arimoto(
                np.array([0.5, 0.5]), np.array([[0.0, 1.0], [1.0, 0.0]]), 1.0, n_iter=2**40
            ),
            "n_iter",
        ),
        (
            lambda: __import__("ldpnb.estimators", fromlist=["x"]).ibu(
                mech.grr_channel(3, 1.0), np.array([5, 3, 2]), tol=0.0, max_iter=2**40
            ),
            "max_iter",
        ),
        *[(lambda cs=cs: mech.Domain(cell_size=cs), "cell_size") for cs in (None, math.nan, "abc", -1.0, (1.0, 0.0))],
    ],
)
def test_the_fourth_fuzz_silent_results_are_refused(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_exact_privacy_loss_refuses_an_underflowing_channel_instead_of_nan():
    """At eps = 1e4 entries of the RS+FD tuple channel underflow to 0: the enumeration returned NaN."""
    assert mech.exact_privacy_loss([3, 2], 710.0)["any"] == pytest.approx(710.0 + math.log(2.0), rel=1e-12)
    with pytest.raises(ValueError, match="eps"):
        mech.exact_privacy_loss([3, 2], 1e4)


@pytest.mark.parametrize("atol", [math.nan, math.inf, -1.0])
def test_the_validators_refuse_a_tolerance_that_accepts_any_sum(atol):
    from ldpnb.utils import check_channel, check_distribution

    with pytest.raises(ValueError, match="atol"):
        check_distribution([0.5, 0.3, 0.1], atol=atol)
    with pytest.raises(ValueError, match="atol"):
        check_channel([[0.5, 0.4]], atol=atol)


@pytest.mark.parametrize("minimum", [0, -3, 2.5, math.nan, True])
def test_check_domain_size_refuses_a_minimum_that_is_no_size(minimum):
    from ldpnb.utils import check_domain_size

    with pytest.raises(ValueError, match="minimum"):
        check_domain_size(3, minimum=minimum)
