"""The synthesis chapter's second edition: estimators, variance lens, lookup guide, tie-aware ranks."""

import dataclasses
import math

import numpy as np
import pytest
from scipy import stats

from ldpnb import mechanisms as mech
from ldpnb.papers.synthesis import comparisons as cmp
from ldpnb.papers.synthesis import estimation as est
from ldpnb.papers.synthesis import experiments as ex
from ldpnb.papers.synthesis import families as fam
from ldpnb.papers.synthesis import guide
from ldpnb.papers.synthesis import variance as V

ALPHA = 1e-6  # false-alarm rate of each sampler test
NAMES = fam.oracle_families()


def test_families_come_from_the_registry():
    # the papers' six, then the families defined later (issue #33 item 4: HR, HRR, OLH-CW, L-GRR, ...)
    assert NAMES[:6] == ["GRR", "SUE", "OUE", "OLH", "BLH", "SS"]
    for n in NAMES:
        m = fam.build_oracle(n, 8, 1.0)
        assert isinstance(m, mech.FrequencyOracle) and 0 < m.q < m.p < 1


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("k,eps", [(5, 0.7), (12, 1.0), (8, 3.0)])
def test_pure_total_variance_is_the_exact_channel_variance(name, k, eps):
    m = fam.build_oracle(name, k, eps)
    N = guide.integer_counts(guide.distribution("Zipf", k), 5_000)
    assert V.exact_channel_variance(m, N) == pytest.approx(fam.pure_total_variance(m.p, m.q, k, 5_000), rel=1e-10)


@pytest.mark.parametrize("name", ["GRR", "SS", "OUE", "OLH"])
def test_support_covariance_is_the_exact_channel_covariance(name):
    k, eps = 6, 0.8
    m = fam.build_oracle(name, k, eps)
    N = np.array([400, 250, 150, 100, 60, 40])
    C = np.exp(m.log_channel())
    C /= C.sum(axis=1, keepdims=True)
    A, _ = est.standard_matrix(m, C)
    n = N.sum()
    covY = sum(N[x] * (np.diag(C[x]) - np.outer(C[x], C[x])) for x in range(k))
    want = A.T @ covY @ A / n**2
    np.testing.assert_allclose(V.support_covariance(m, N), want, rtol=1e-9, atol=1e-15)


def test_range_query_mse_of_independent_unit_variances():
    out = V.range_query_mse(np.eye(10), [1, 3, 10])
    assert out == {1: pytest.approx(1.0), 3: pytest.approx(3.0), 10: pytest.approx(10.0)}
    # a sum-to-constant estimator (GRR) has no error on the whole domain
    m = fam.build_oracle("GRR", 10, 1.0)
    cov = V.support_covariance(m, np.full(10, 100))
    assert V.range_query_mse(cov, [10])[10] == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("name", NAMES)
def test_batched_support_counts_follow_the_marginal_law(name):
    k, eps, runs = 9, 1.2, 4_000
    m = fam.build_oracle(name, k, eps)
    N = np.array([900, 500, 300, 200, 100, 50, 30, 15, 5])
    n = N.sum()
    S = fam.sample_support_counts(m, N, runs, rng=np.random.default_rng(3))
    mean = N * m.p + (n - N) * m.q
    var = N * m.p * (1 - m.p) + (n - N) * m.q * (1 - m.q)
    z = (S.mean(axis=0) - mean) / np.sqrt(var / runs)
    crit = stats.norm.ppf(1 - ALPHA / (2 * k))
    assert np.abs(z).max() < crit
    chi = (runs - 1) * S.var(axis=0, ddof=1) / var
    lo, hi = stats.chi2.ppf([ALPHA / (2 * k), 1 - ALPHA / (2 * k)], runs - 1)
    assert np.all((chi > lo) & (chi < hi))
    if name == "GRR":
        assert np.all(S.sum(axis=1) == n)  # the exact joint law: every report supports one value
    if name == "SS":
        omega = mech.ss_params(k, eps)[0]
        assert np.all(S.sum(axis=1) == n * omega)


@pytest.mark.parametrize("name", NAMES)
def test_standard_estimate_is_unbiased_on_expected_reports(name):
    k = 6
    m = fam.build_oracle(name, k, 1.0)
    pi = np.array([0.3, 0.25, 0.2, 0.1, 0.1, 0.05])
    C = np.exp(m.log_channel())
    C /= C.sum(axis=1, keepdims=True)
    Y = 1e6 * (pi @ C)  # expected report counts (non-integer, exact)
    A, b = est.standard_matrix(m, C)
    np.testing.assert_allclose((Y / Y.sum()) @ A + b, pi, atol=1e-9)


def test_wang_rule_and_the_exact_boundary():
    for e in (0.1, 0.5, 1.0, 2.0, 4.0):
        kstar = V.grr_oue_exact_boundary(e)
        assert kstar < 3 * math.exp(e) + 2
        for k in range(2, 300):
            assert V.exact_grr_beats_oue(k, e) == (k < kstar)
    out = V.wang_rule_check(np.arange(2, 200), [0.5, 1.0, 2.0])
    assert out["mismatches"] == 0 and out["outside_band"] == 0 and out["in_band"] > 0


def test_oue_var_star_on_the_channel():
    assert V.oue_var_star_exact(8, 1.0, 1_000) == pytest.approx(4 * math.e / (math.e - 1) ** 2, rel=1e-9)


def test_kairouz_n_over_4_is_the_closed_form():
    """Row KBn: at eps = ln k, k-RR's factor of samples (uniform p) from the toolkit's channel is
    Kairouz et al.'s Eq. (8) = Eq. (9) = ((2k - 1)/(k - 1))^2, which decreases to 4."""
    out = V.kairouz_n_over_4([1024, 2, 8])  # k < 8 left out, any order
    assert out["checked"] == 2 and out["tail_checked"] == 1
    for k, l2, l1 in zip((8, 1024), out["l2_factor"], out["l1_factor"]):
        e = math.exp(math.log(k))
        eq8 = 1 + k * (k + 2 * (e - 1)) / (e - 1) ** 2
        assert l2 == pytest.approx(eq8, rel=1e-12) and l1 == pytest.approx(eq8, rel=1e-12)
        assert l2 == pytest.approx(((2 * k - 1) / (k - 1)) ** 2, rel=1e-12)
    assert out["l2_factor"][0] == pytest.approx(225 / 49, rel=1e-12)  # 4.5918...
    assert out["l2_factor"][1] == pytest.approx((2047 / 1023) ** 2, rel=1e-12)  # 4.0039...
    assert out["max_formula_gap"] < 1e-12 and out["increases"] == 0
    assert out["tail_gap"] == pytest.approx((2047 / 1023) ** 2 / 4 - 1, rel=1e-9)
    assert out["min_excess"] == pytest.approx((2047 / 1023) ** 2 - 4, rel=1e-9)
    assert math.isnan(V.kairouz_n_over_4([8, 16])["tail_gap"])


def test_tau_ties_values_equal_up_to_float_noise():
    """K1/K2 and the tau matrix: values within 1e-9 of a lens's largest value are ties (the first
    edition ranked 0.1 below 0.1 + 1e-16)."""
    x = [0.3, 0.1, 0.1 + 1e-16, 0.2]
    y = [3.0, 1.0, 2.0, 2.5]
    assert cmp.tau(x, y).value == pytest.approx(stats.kendalltau([2, 0, 0, 1], y).statistic)
    assert cmp.tau(x, y).value != pytest.approx(stats.kendalltau(x, y).statistic)
    e = cmp.tau(np.arange(12.0), np.arange(12.0) ** 2, "jackknife")
    assert e.value == pytest.approx(1.0) and e.method == "kendall-jackknife"
    assert cmp.tie_of([0.5, 2.0, -1.0]) == pytest.approx(2e-9)


def test_discordant_pairs_tie_within_monte_carlo_noise():
    rng = np.random.default_rng(0)
    info = [1.0, 1.0 + 1e-15, 2.0, 3.0]
    runs = [
        rng.normal(0.5, 0.01, 40),
        rng.normal(0.4, 0.01, 40),
        rng.normal(0.30, 0.01, 40),
        rng.normal(0.3005, 0.01, 40),
    ]
    # (a, b): tied in information (float noise); (c, d): d has more information and a larger mean EMD,
    # but within noise: tied, not discordant; no other pair is ordered the other way
    assert cmp.discordant_pairs(info, runs, ["a", "b", "c", "d"]) == []
    runs[3] = rng.normal(0.35, 0.01, 40)
    assert cmp.discordant_pairs(info, runs, ["a", "b", "c", "d"]) == [("c", "d")]


def test_a_difference_of_float_noise_is_no_win():
    """Identical runs (a constant-report channel's IBU and INV): the paired difference is 0 with a
    degenerate interval, a tie, not a win (the first edition counted -1.4e-16 as a win)."""
    from ldpnb.papers.synthesis import text

    base = np.full(8, 0.2)
    table = {
        "A": {"runs_emd_ibu": base - 1.4e-16, "runs_emd_inv": base},
        "B": {"runs_emd_ibu": base - 0.01 + np.linspace(0, 1e-3, 8), "runs_emd_inv": base},
    }
    o = cmp.estimator_order(table, ["A", "B"], "emd_ibu", "emd_inv", ("IBU", "INV"))
    assert text.decided(o["differences"]["INV - IBU"], ["A", "B"], 1e-9)["above"] == ["B"]


def test_reid_steps_do_not_collapse_at_zero_successes():
    """No draw succeeds at t = 4: a normal interval from the Monte Carlo standard error (0) would be a
    point and call a drop of 0.0015 certain; Newcombe's interval from Wilson's is wide."""
    reid = {
        "m": {
            "t": np.array([1, 4, 16]),
            "acc": np.array([0.0015, 0.0, 0.002]),
            "se": np.zeros(3),
            "bound": np.array([0.1, 0.1, 0.2]),
            "runs": 500,
        }
    }
    d = cmp.reid_steps(reid)["differences"]["t4 - t1"][0]
    assert float(d.value) == pytest.approx(-0.0015) and float(d.high) > 0.003 and float(d.low) == pytest.approx(-0.0015)
    r = cmp.reid_estimates(reid)["ratio"]
    assert float(r.high[1]) > 0.05 and float(r.low[0]) == pytest.approx(0.015)


def test_gain_is_one_minus_the_paired_ratio():
    rng = np.random.default_rng(3)
    den = rng.gamma(20, 0.05, size=(50, 2))
    num = den * np.array([0.8, 1.0]) + rng.normal(0, 0.01, size=(50, 2))
    g = cmp.gain(num, den)
    assert g.simultaneous and np.all(np.asarray(g.low) <= np.asarray(g.value))
    assert float(g.value[0]) == pytest.approx(0.2, abs=0.01) and float(g.low[1]) < 0 < float(g.high[1])


def test_every_catalogue_family_is_placed_or_listed_with_a_reason():
    """A family the guide cannot place is listed with the reason, never dropped silently."""
    placed, unplaced = fam.guide_families()
    assert set(placed) | set(unplaced) == set(mech.FAMILIES) and not set(placed) & set(unplaced)
    assert all(isinstance(why, str) and why for why in unplaced.values())

    class OddOne(mech.Mechanism):  # a registered family that is neither an oracle nor a metric mechanism
        family = "odd one (test)"

        def __init__(self, k, epsilon):
            self.k, self.epsilon = k, epsilon

        @classmethod
        def on(cls, domain, epsilon):
            return cls(domain.size, epsilon)

    try:
        placed2, unplaced2 = fam.guide_families()
        assert "odd one (test)" in unplaced2 and "not a frequency oracle" in unplaced2["odd one (test)"]
    finally:
        mech.Mechanism.unregister("odd one (test)")
    assert "odd one (test)" not in fam.guide_families()[1]


def test_catalogue_extras_enter_the_lens_table():
    s = _toy_setting()
    placed, unplaced = ex.catalogue_extras(s)
    assert "BLH" in placed and not set(placed) & set(ex.CATALOGUE_NAMES)
    m = ex.build(s, "BLH", 1.0)
    assert isinstance(m, mech.FrequencyOracle) and ex.exact_lenses(m, s)["ldp"] == pytest.approx(1.0)


def _toy_setting():
    from ldpnb.data import lattice_distance_matrix

    rng = np.random.default_rng(1)
    p_sx = rng.dirichlet(np.ones(12)).reshape(2, 6)
    counts = np.round(p_sx.sum(axis=0) * 5000).astype(np.int64)
    return ex.Setting("toy", counts, (2, 3), (1.0, 1.0), lattice_distance_matrix(2, 3), "bins", p_sx=p_sx)


def test_sign_with_ties():
    assert ex._sign(2.066180922977282, 2.066180922977276) == 0
    assert ex._sign(1.0, 0.9) == 1 and ex._sign(0.9, 1.0) == -1


def test_every_public_function_of_the_package_has_a_contract():
    import importlib
    import inspect

    from ldpnb.contracts import contract_of

    for name in ("comparisons", "estimation", "experiments", "families", "figures", "guide", "text", "variance"):
        mod = importlib.import_module(f"ldpnb.papers.synthesis.{name}")
        public = [n for n in vars(mod) if not n.startswith("_")]
        funcs = [
            n for n in public if inspect.isfunction(getattr(mod, n)) and getattr(mod, n).__module__ == mod.__name__
        ]
        assert set(funcs) <= set(mod.__all__), (name, set(funcs) - set(mod.__all__))
        missing = [n for n in funcs if contract_of(getattr(mod, n)) is None]
        assert not missing, f"{name}: public functions without a contract: {missing}"


def test_guide_grid_smoke():
    g = dict(guide.GRIDS["smoke"], k=[2, 32], eps=[1.0], n=[1_000], dist=["Zipf"], runs=5, sim_max_k={})
    res = guide.run_grid(g, seed=1, time_server=False)
    assert res.se_std.shape == (2, len(NAMES), 5)
    df = guide.summarise(res)
    assert list(df["k"]) == [2, 32] and {n for b in df["best (unbiased)"] for n in b.split(" = ")} <= set(NAMES)
    assert np.all(np.isnan(res.top[0])) and not np.any(np.isnan(res.top[1]))
    v2 = guide.confirm_exact(res)
    assert v2["groups"] == [(n, k) for n in NAMES for k in (2, 32)] and v2["ratio"].shape == (2 * len(NAMES),)
    assert list(df["decided"]) in (["yes", "yes"], ["yes", "no"], ["no", "yes"], ["no", "no"])


def test_exact_duplicates_are_one_group_after_projection():
    """GRR, SS (omega = 1 at k = 4, eps = 4) and L-GRR have the same law of support counts, as OUE and
    L-OSUE: the guide compares each group once (the old summary compared GRR with L-GRR, whose ratio's
    interval always reaches 1, so no cell could be decided).  BLH and HR have equal exact MSE but
    different laws (HR's supports are dependent): they stay apart."""
    assert fam.support_law(fam.build_oracle("SS", 4, 4.0))[0] == "one value per report"
    assert fam.support_law(fam.build_oracle("SS", 16, 1.0)) is None  # omega > 1: no certified law
    assert fam.total_variance(fam.build_oracle("BLH", 8, 1.0), 1) == pytest.approx(
        fam.total_variance(fam.build_oracle("HR", 8, 1.0), 1), rel=1e-12
    )
    g = dict(k=[4], eps=[4.0], n=[10_000], dist=["Zipf"], runs=20)
    res = guide.run_grid(g, seed=3, time_server=False)
    idx = {n: j for j, n in enumerate(res.names)}
    law = res.law[0]
    assert law[idx["SS"]] == law[idx["L-GRR"]] == idx["GRR"] and law[idx["L-OSUE"]] == idx["OUE"]
    assert law[idx["HR"]] == idx["HR"] and law[idx["BLH"]] == idx["BLH"]
    row = guide.summarise(res).iloc[0]
    assert row["best (unbiased)"] == "GRR = SS = L-GRR"  # equal exact MSE (TIE_EXACT)
    text_ = " | ".join(row[c] for c in ("best (projected)", "runner-up (proj. ×)", "within noise (proj.)"))
    assert "L-GRR" not in text_.replace("GRR = SS = L-GRR", "") and "L-OSUE" not in text_.replace("OUE = L-OSUE", "")
    # the interval of GRR against its own duplicate is never computed: a cell can be decided
    two = guide.summarise(dataclasses.replace(res, law=None)).iloc[0]
    assert two["best (unbiased)"] == "GRR = SS = L-GRR"


def test_bad_inputs_are_refused():
    with pytest.raises(ValueError):
        guide.distribution("Pareto", 8)
    with pytest.raises(ValueError):
        fam.build_oracle("no such family", 8, 1.0)
    with pytest.raises(ValueError):
        fam.build_oracle("geometric", 8, 1.0)  # a metric mechanism, not a frequency oracle
    with pytest.raises(ValueError):
        guide.run_grid(dict(guide.GRIDS["smoke"], runs=10**9), seed=1)
    with pytest.raises(ValueError):
        fam.build_oracle("GRR", 1, 1.0)


def test_quadratic_samplers_capped_and_said():
    """A family above its ``sim_max_k`` keeps its exact MSE, has no runs, is listed under 'not
    simulated' with the reason, and its cells are never 'decided'."""
    g = dict(k=[4, 32], eps=[1.0], n=[1_000], dist=["Zipf"], runs=4, sim_max_k={"HR": 4})
    res = guide.run_grid(g, seed=2, names=["GRR", "OUE", "HR"], time_server=False)
    assert np.all(np.isfinite(res.exact)) and "HR" in res.unsimulated and "k = 4" in res.unsimulated["HR"]
    assert np.all(np.isfinite(res.se_proj[0, 2])) and np.all(np.isnan(res.se_proj[1, 2]))
    df = guide.summarise(res)
    assert list(df["not simulated"]) == ["—", "HR"] and df["decided"].iloc[1] == "no"
    guide.rank_changes(res)
    assert ("HR", 32) not in guide.confirm_exact(res)["groups"]


def test_support_covariance_takes_the_familys_exact_law():
    """HR's supports are dependent: the estimate's covariance is the family's support-count
    covariance over (n (p - q))^2, whose trace is the family's exact total MSE."""
    m = fam.build_oracle("HR", 12, 1.0)
    N = guide.integer_counts(guide.distribution("Zipf", 12), 1_000)
    cov = V.support_covariance(m, N)
    want = m.support_count_covariance(N) / (1_000 * m.p_minus_q) ** 2
    np.testing.assert_allclose(cov, want, rtol=1e-12)
    assert np.count_nonzero(cov - np.diag(np.diag(cov))) > 0  # not the independent-supports diagonal
    assert np.trace(cov) == pytest.approx(fam.total_variance(m, 1_000), rel=1e-9)


def test_guide_map_legend_legible_with_every_family():
    import io

    import matplotlib

    matplotlib.use("Agg")
    from PIL import Image

    from ldpnb.papers.synthesis import figures
    from ldpnb.repro.nbcheck import MIN_LEGEND_PX, text_px
    from ldpnb.repro.plotting import set_style

    set_style()
    res = guide.run_grid(dict(k=[2, 16], eps=[0.5, 2.0], n=[1_000], dist=["Zipf"], runs=2), seed=1, time_server=False)
    assert len(res.names) >= 12
    fig = figures.guide_map(res, [2, 16], [0.5, 2.0], 1_000, "Zipf")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", bbox_inches="tight")  # 200 dpi: shown at half its pixels (retina)
    buf.seek(0)
    shown = Image.open(buf).size[0] / 2
    sizes = text_px(fig, shown_px=shown)
    assert sizes["legend"] >= MIN_LEGEND_PX and sizes["text"] >= MIN_LEGEND_PX
    colours = {tuple(fig.axes[0].images[0].cmap(i)) for i in range(len(res.names))}
    assert len(colours) == len(res.names)  # one colour per family


def test_catalogue_range_ends_where_the_exact_channel_is_computable():
    s = _toy_setting()
    placed, _ = ex.catalogue_extras(s)
    if "OLH-CW" in placed:
        f = placed["OLH-CW"]
        f.make(s, f.hi).log_channel()  # computable at the end of its range
        assert f.hi <= 8.0


def test_task_rankings_skips_degenerate_pairs():
    """T1 (decision log): a pair whose two oracles have the same constant precision in every run (both
    1.0) has a zero-width interval at 0 and won the old arg-max of lower ends whenever the informative
    pairs' intervals reached below 0; it is now counted and kept out of the choice."""
    rng = np.random.default_rng(0)
    runs = 20
    top = np.empty((1, 3, runs))
    top[0, 0] = 1.0  # the exact-MSE best
    top[0, 1] = 1.0  # degenerate against the best: same constant
    top[0, 2] = np.clip(0.9 + 0.05 * rng.standard_normal(runs), 0, 1)  # informative, worse
    z = np.zeros((1, 3, runs))
    res = guide.GridResult(
        cells=[(64, 4.0, 1000, "Zipf")],
        names=["A", "B", "C"],
        exact=np.array([[1.0, 2.0, 3.0]]),
        se_std=z,
        se_proj=z,
        top=top,
        bits=np.ones((1, 3)),
        server=np.ones((1, 3)),
        ks=[64],
    )
    tr = guide.task_rankings(res)
    assert tr["degenerate"] == 1 and tr["pairs"] == 1
    assert tr["cell"][1:] == ("A", "C")
    assert guide.is_degenerate_pair(np.ones(4), np.ones(4))
    assert not guide.is_degenerate_pair(np.ones(4), np.zeros(4))  # constant but different: exact, kept
    top[0, 2] = 1.0  # every pair degenerate: nothing to rank
    with pytest.raises(ValueError, match="non-degenerate"):
        guide.task_rankings(res)


def test_task_rankings_records_the_pair_that_decides_the_existential_claim():
    """T1 (decision log): "some pair differs by more than the tie" is undecided, not reversed, when no
    interval lies above the tie but one reaches above it.  The old choice (highest lower end) recorded a
    precise pair inside the tie (reversed: the row failed) although a noisier pair could still exceed
    it; the pair with the highest upper end decides, and the row is reversed only when every interval
    lies at or below the tie."""
    from ldpnb.repro.claims import decide

    rng = np.random.default_rng(1)
    runs = 100
    top = np.empty((1, 3, runs))
    top[0, 0] = 0.7 + 0.01 * rng.standard_normal(runs)  # the exact-MSE best
    top[0, 1] = top[0, 0] + 0.002 + 0.001 * rng.standard_normal(runs)  # precise, inside the tie
    u = rng.uniform(-0.25, 0.25, runs)
    top[0, 2] = top[0, 0].mean() + 0.01 + u - u.mean()  # noisy: reaches above the tie
    z = np.zeros((1, 3, runs))
    res = guide.GridResult(
        cells=[(64, 4.0, 1000, "Zipf")],
        names=["A", "B", "C"],
        exact=np.array([[1.0, 2.0, 3.0]]),
        se_std=z,
        se_proj=z,
        top=top,
        bits=np.ones((1, 3)),
        server=np.ones((1, 3)),
        ks=[64],
    )
    crit = {"relation": "MSE_best < other", "tie": 0.02}
    tr = guide.task_rankings(res)
    assert tr["chosen_by"] == "upper end" and tr["cell"][2] == "C" and tr["reach"] >= 1
    assert decide("order", crit, {"values": tr["values"], "differences": tr["differences"]}) == "undecided"
    top[0, 2] = top[0, 0] - 0.01  # every pair inside the tie: the claim is reversed
    tr = guide.task_rankings(res)
    assert tr["chosen_by"] == "upper end" and tr["reach"] == 0
    assert decide("order", crit, {"values": tr["values"], "differences": tr["differences"]}) == "reversed"
    top[0, 2] = top[0, 0] + 0.1 + 0.01 * rng.standard_normal(runs)  # clearly above: holds, by the lower end
    tr = guide.task_rankings(res)
    assert tr["chosen_by"] == "lower end" and tr["disagree"] >= 1
    assert decide("order", crit, {"values": tr["values"], "differences": tr["differences"]}) == "holds"
