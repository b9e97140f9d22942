"""PIE chapter: the figures (visible arrows, a connected graphical model), the claims table, and the
identification helpers on the public traces (skipped without the data)."""

from __future__ import annotations

import os

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from ldpnb import stats  # noqa: E402
from ldpnb.papers.pie import CLAIMS, ERRATA, figures  # noqa: E402
from ldpnb.papers.pie import identification as ident  # noqa: E402
from ldpnb.repro.claims import falsify, row_status  # noqa: E402
from ldpnb.repro.plotting import set_style  # noqa: E402
from ldpnb.stats import Estimate, from_se  # noqa: E402


def test_figs_1_3_arrows_are_visible_and_the_model_is_connected():
    set_style()  # the book's theme: its white patch edges hid the arrows of the first edition
    fig = figures.fig1_3()
    arrows = figures.arrow_colours(fig)
    per_panel = [sum(1 for i, _ in arrows if i == p) for p in range(3)]
    assert per_panel == [4, 4, 4]  # Fig. 3: U -> X -> Y -> S <- R
    for _, rgba in arrows:
        assert rgba[3] > 0 and max(rgba[:3]) < 0.5  # dark, opaque ink, never white


#: every number the paper prints that a claim compares with (Secs. 2.2, 3.3, 4.2, 5.2, 5.3; Figs. 4, 11)
PRINTED = {
    0.88,
    0.5,
    2.07,
    6.21,
    0.73,
    22026,
    0.014,
    1.4,
    14.0,
    2.0e-7,
    3.3e-6,
    0.043,
    0.92,
    1.05,
    0.10,
    0.15,
    1896,
    1888,
}


def test_claims_table_sources_and_errata():
    for s in CLAIMS.values():
        if s.source == "paper":
            assert s.paper is not None and s.paper.where, s.id
        if s.paper is not None:  # a number in the paper column is one the paper prints
            vals = s.paper.value if isinstance(s.paper.value, list) else [s.paper.value]
            for v in vals:
                assert isinstance(v, str) or v in PRINTED, (s.id, v)
    assert CLAIMS["F10a"].source == CLAIMS["F10b"].source == "calibration"
    assert len(ERRATA) >= 6 and any("Figure 9" in e for e in ERRATA)


def test_diverging_rows_have_falsifiable_criteria():
    """Each diverging row of the table fails its criterion on the numbers the research measured and
    would be a failure if the paper's claim held."""
    measured = {
        "F10d-GLH-gauss": {
            "ours": Estimate([0.985] * 14, [0.98] * 14, [0.99] * 14, method="fieller", n_runs=20, simultaneous=True)
        },
        "F8d": {"ours": [4600.0, 815.0, 10.8, 8.4]},
        "F4-large": {"ours": [338.0, 9.6, 2.18, 1.02]},
        "T13-large-g": {"ours": [6.7e5, 83.4, 2.52, 1.21]},
        "F10b": {"ours": Estimate(0.9135, 0.9125, 0.9145, method="bootstrap-bca", n_runs=20)},
        "F8e": {"ratio_rr": [252.0, 40.0, 7.97, 1.94, 1.0], "ratio_glh": [3000.0, 10.4, 2.28, 1.0]},
        "F9d": {
            "ours": Estimate(
                [250.0, 7.7, 1.8, 1.0, 80.0, 10.2, 2.1, 1.0],
                [250.0, 7.7, 1.8, 1.0, 70.0, 9.0, 1.9, 1.0],
                [250.0, 7.7, 1.8, 1.0, 90.0, 11.0, 2.3, 1.0],
                method="t",
                n_runs=64,
                simultaneous=True,
            )
        },
        # the book-scale RH raw curve of the third re-audit: flat, its rise interval below half a bit
        "F6b-raw": {
            "ours": Estimate(
                [5.079, -0.19, -0.12, 0.065, -0.056],
                [4.713, -0.538, -0.492, -0.268, -0.473],
                [5.551, 0.111, 0.153, 0.375, 0.261],
                method="bootstrap-bca",
                n_runs=2000,
                simultaneous=True,
            )
        },
    }
    for rid, nums in measured.items():
        s = CLAIMS[rid]
        crit = s.full_criterion("book")
        assert row_status(s.kind, crit, nums, s.expect) == "diverges", rid
        assert row_status(s.kind, crit, falsify(s.kind, crit, nums, s.expect), s.expect) == "fail"


def test_f11_feasibility_reads_one_run():
    """The printed pair is compared with one run's exact law: a tail probability of 6e-3 passes (possible,
    improbable), 5e-4 would not; the decision log keeps the earlier z <= 3 rule."""
    s = CLAIMS["F11-feas"]
    crit = s.full_criterion("book")
    nums = {
        "max_r10": [0.977, 0.611],
        "sd_r10": [0.0263, 0.0511],
        "z": [2.77, 8.59],
        "p_low": [6.36e-3, 2.0e-8],
        "p_high": [6.37e-3, 2.1e-8],
    }
    assert row_status(s.kind, crit, nums, s.expect) == "pass"
    assert row_status(s.kind, crit, {**nums, "p_low": [5e-4, 2.0e-8]}, s.expect) == "fail"
    assert [c.was["rule"] for c in s.changes][-1] == "z[0] <= 3"


def test_rows_that_are_not_paper_claims():
    """F6b cannot fall by construction (an invariant), F6-sel states a limit of the public data (derived,
    passing on the public files' 8 and 8 qualifying users), and the undecided LT rows of Fig. 6 and
    F5-LTvsRH say that more runs would not decide them."""
    assert CLAIMS["F6b"].source == "invariant" and CLAIMS["F6-sel"].source == "derived"
    s = CLAIMS["F6-sel"]
    assert row_status(s.kind, s.full_criterion("book"), {"qualifying": [8, 8], "used": [575, 579]}, s.expect) == "pass"
    assert all(CLAIMS[i].not_by_runs for i in ("F6a", "F6a-raw", "F5-LTvsRH"))
    assert not CLAIMS["F6b-raw"].not_by_runs


def _lines(ax):
    return [ln for ln in ax.get_lines() if not ln.get_label().startswith("_")]


def test_fig7_curves_stop_at_the_axis_floor_instead_of_being_clipped():
    """Fig. 7 used to clip the FRR at 1e-3, which drew a flat segment that is not in the data."""
    far = np.logspace(-6, 0, 50)
    frr = np.logspace(0, -6, 50)
    fig = figures.fig7({"steep": (far, frr, {"color": "k"})})
    y = np.asarray(_lines(fig.axes[0])[0].get_ydata(), dtype=float)
    assert np.isnan(y).sum() == np.sum(frr < 1e-3) and np.nanmin(y) >= 1e-3
    assert not np.any(y == 1e-3) or np.any(frr == 1e-3)


def test_figs_8_9_every_panel_has_its_legend():
    """The GLH panels of Figs. 8 and 9 had no legend, and Fig. 9's only legend said 'Thm 4.2'."""
    eps = np.array([1.0, 4.0, 10.0])
    n, k, g = 500, 2000, 20_000
    pse = {"rr": np.array([1e-3, 0.1, 1.0]), "glh": np.array([1e-3, 0.1, 1.0])}
    ok = {"rr": np.array([False, True, True]), "glh": np.array([False, True, True])}
    mc = {m: from_se(v, 0.2 * v) for m, v in pse.items()}  # an interval reaching 0: a log axis copes
    fig8 = figures.fig8(eps, n, k, g, pse["rr"], mc, ok, {"rr": 0.01, "glh": 0.01})
    err = {m: from_se(np.full(3, 0.9), np.full(3, 0.01)) for m in pse}
    fig9 = figures.fig9(eps, n, k, g, err, np.full(3, 0.9), pse["rr"], pse["glh"], ok["glh"])
    for fig in (fig8, fig9):
        assert all(ax.get_legend() is not None for ax in fig.axes)
    labels = [[t.get_text() for t in ax.get_legend().get_texts()] for ax in fig9.axes]
    assert any("Thm 4.2" in t for t in labels[0]) and not any("Thm 4.2" in t for t in labels[1])
    assert any("Thm 4.4" in t for t in labels[1])


def test_fig6_writes_the_coincidence_counts():
    panels = {
        "LT": {"m": [5, 10], "offset": from_se([1.0, 1.5], [0.1, 0.1]), "raw": from_se([0.9, 1.4], [0.1, 0.1])},
        "RH": {
            "m": [1, 2],
            "offset": from_se([6.3, 9.0], [0.2, 0.3]),
            "raw": from_se([1.6, 6.7], [0.1, 0.1]),
            "counts": [4214, 640],
        },
    }
    fig = figures.fig6(panels, 0.8)
    texts = [[t.get_text() for t in ax.texts] for ax in fig.axes]
    assert texts == [[], ["c = 4,214", "c = 640"]]


def test_utility_figures_draw():
    import pandas as pd

    from ldpnb.papers.pie import utility as U

    rng = np.random.default_rng(0)
    pop = U.UtilityPopulation(
        np.concatenate([rng.multinomial(5000, U.zipf_profile(200, 0.9)), np.zeros(300, int)]), tops=(20, 100)
    )
    runs = U.utility_runs(
        pop, [(m, e, 10**5 if m == "glh" else None) for m in ("rr", "glh") for e in (2.0, 6.0, 10.0)], 4, rng=1
    )
    fig = figures.fig10(U.summarise_runs(runs, pop), pop.n, pop.k, {100: pop.mass(100), None: 1.0}, 10**5)
    assert len(fig.axes) == 4
    runs12 = U.utility_runs(pop, [("rr", 5.0, None), ("glh", 5.0, 10), ("glh", 8.0, 100)], 3, rng=2)
    fig = figures.fig12(U.summarise_runs(runs12, pop), pop.n, pop.k, {100: pop.mass(100), None: 1.0})
    assert len(fig.axes) == 2
    est = {"a": np.stack(runs[(runs.mech == "rr") & (runs.eps == 10.0)].top20_binomial)}
    assert len(figures.fig11(pop.p[pop.tops[20]], est, {"a": 0.5}).axes) == 1
    assert isinstance(runs, pd.DataFrame)


_DATA = pytest.mark.skipif(not os.environ.get("LDPNB_DATA_DIR"), reason="the public traces (set LDPNB_DATA_DIR)")


@_DATA
def test_public_traces_meet_the_papers_criteria():
    lt, rh = ident.lt_traces(), ident.rh_traces()
    assert (lt.n, rh.n) == (2532, 579)  # every user with >= 10 check-ins / likes
    assert min(len(s) for s in lt.seqs) >= 10 and min(len(s) for s in rh.seqs) >= 10
    assert sum(len(s) >= 25 for s in lt.former) == 575  # the Fig. 6 LT population
    assert rh.X[0] is rh.seqs[0] or np.array_equal(rh.X[0], rh.seqs[0])
    assert len(lt.X[0]) == len(lt.seqs[0]) - len(lt.former[0])


@_DATA
def test_offset_scoring_restores_the_rh_increase():
    rh = ident.rh_traces()
    pse = {
        sc: [ident.pse_experiment([s[:m] for s in rh.X], rh.X, rh.k, scoring=sc, se_reps=0)["pse"] for m in (2, 5)]
        for sc in ("raw", "offset")
    }
    assert pse["offset"][1] - pse["offset"][0] > 3  # 9 -> 15 bits
    assert abs(pse["raw"][1] - pse["raw"][0]) < 0.5  # flat at about 6.5 bits


def _toy_traces(n=60, k=40, seed=0, split=True):
    rng = np.random.default_rng(seed)
    # each user favours a few items: traces are identifying
    seqs = []
    for _ in range(n):
        fav, size = rng.choice(k, size=3, replace=False), int(rng.integers(20, 40))
        seqs.append(np.where(rng.random(size) < 0.8, rng.choice(fav, size), rng.integers(0, k, size)))
    return ident.Traces("LT" if split else "RH", seqs, k, split)


def test_identification_helpers_on_toy_traces():
    tr = _toy_traces()
    curve = ident.pse_curve(tr, ts=(1, 3), rng=1)
    assert set(curve) == {"X", 1, 3}
    assert curve[3]["pse"] > curve[1]["pse"] > 0 and np.isnan(curve[1]["pse_se"])  # the bootstrap's job
    pk = ident.partial_knowledge(tr, [2, 8], se_reps=0, rng=2)
    assert list(pk) == [("offset", 2), ("offset", 8), ("raw", 2), ("raw", 8)]
    assert pk[("offset", 8)]["error_rate"] <= pk[("offset", 2)]["error_rate"]
    assert pk[("offset", 8)]["error_rate"] == pk[("raw", 8)]["error_rate"]  # a per-query constant
    assert "pse_sub" not in pk[("offset", 2)]  # se_reps = 0
    pk = ident.partial_knowledge(tr, [2, 8], se_reps=3, rng=2)
    assert all(r["pse_sub"].shape == (3,) for r in pk.values()) and len({r["subsets"] for r in pk.values()}) == 1
    conv = ident.convergence(tr, ts=(1,), fractions=(0.5,), reps=3, rng=3)
    assert conv[1]["n"] == [30, 60] and np.isnan(conv[1]["sd"][-1])
    gap = ident.convergence_gap(conv, (1,))
    assert float(gap.value[0]) == pytest.approx(conv[1]["values"][1][0] - np.mean(conv[1]["values"][0]))
    conv2 = ident.convergence(tr, ts=(1,), fractions=(0.25, 0.5), reps=(2, 4), rng=3)
    assert [len(v) for v in conv2[1]["values"]] == [2, 4, 1]
    with pytest.raises(ValueError, match="one per fraction"):
        ident.convergence(tr, ts=(1,), fractions=(0.25, 0.5), reps=(2,), rng=3)
    assert [len(v) for v in conv[1]["values"]] == [3, 1]
    assert conv[1]["mean"][0] == pytest.approx(np.mean(conv[1]["values"][0]))
    eq = ident.equal_n(tr, 30, ts=(1, "X"), reps=3, rng=4)
    assert set(eq) == {1, "X"} and all(v["sd"] >= 0 and v["values"].shape == (3,) for v in eq.values())
    assert eq[1]["mean"] == pytest.approx(eq[1]["values"].mean())
    sub = tr.subset([0, 5])
    assert sub.n == 2 and sub.k == tr.k and np.array_equal(sub.seqs[1], tr.seqs[5])
    rh = _toy_traces(split=False)
    assert all(np.array_equal(a, b) for a, b in zip(rh.X, rh.seqs))


def test_pse_sub_are_half_subset_estimates():
    """pse_sub reproduces pse_subsamples on the score matrix rebuilt from the genuine/impostor scores;
    a common ``subsets`` seed gives every experiment the same halves, and pse_se is their spread."""
    from ldpnb.attacks.linkage import score_matrix
    from ldpnb.measures.pse import pse_subsamples
    from ldpnb.stats import subsample_se

    tr = _toy_traces(n=40, seed=2)
    r = ident.pse_experiment(tr.X, tr.X, tr.k, se_reps=4, subsets=9)
    S = score_matrix(tr.X, tr.X, tr.k)
    assert np.array_equal(np.diag(S), r["genuine"])
    assert np.array_equal(ident.score_matrix_of(r["genuine"], r["impostor"]), S)
    assert np.allclose(r["pse_sub"], pse_subsamples(S, 0.5, 4, rng=np.random.default_rng(9)))
    assert r["pse_se"] == pytest.approx(subsample_se(r["pse_sub"], 40, 20))  # no sqrt(1/2) factor
    same = ident.pse_experiment(tr.X, tr.X, tr.k, se_reps=4, subsets=9)
    assert np.array_equal(same["pse_sub"], r["pse_sub"])
    # paired differences on common halves: the difference of a quantity with itself has no spread
    e = stats.half_sample_estimate([0.0], (r["pse_sub"] - same["pse_sub"])[:, None], 40)
    assert float(e.se[0]) == 0.0 and e.method == "delete-d-jackknife"


def test_zero_score_anatomy_is_exactly_the_zero_offset_scores():
    """A genuine offset score is 0 exactly when the chain credits nothing (the Fig. 7 floor)."""
    tr = _toy_traces(n=80, k=60, seed=3)
    train = [s[:4] for s in tr.former]
    r = ident.pse_experiment(train, tr.X, tr.k, scoring="offset", se_reps=0)
    a = ident.zero_score_anatomy(train, tr.X)
    assert np.array_equal(a["no_credit"], r["genuine"] == 0)
    assert np.all(a["disjoint"] <= a["no_credit"])  # no shared item: nothing credited
    assert min(r["genuine"].min(), r["impostor"].min()) >= 0  # offset scores are never negative
    with pytest.raises(ValueError, match="one sequence per user"):
        ident.zero_score_anatomy(train, tr.X[:-1])


def test_atom_coincidences_give_the_prefix_pse():
    """Training = a prefix of the query: one genuine atom, and the PSE is log2(M/c) (Fig. 6, RH)."""
    from ldpnb.measures.pse import kl_mixed_1d

    rng = np.random.default_rng(4)
    # 200 users; a few share their first two items, so some impostor pairs hit the genuine atom
    seqs = [np.concatenate([[i % 7, 7 + i % 5], rng.choice(np.arange(12, 300), 15, replace=False)]) for i in range(200)]
    for m in (1, 2):
        r = ident.pse_experiment([s[:m] for s in seqs], seqs, 300, scoring="offset", se_reps=0)
        a = ident.atom_coincidences(r["genuine"], r["impostor"])
        assert a["atoms"] == 1 and a["M"] == 200 * 199 and a["c"] > 0
        assert kl_mixed_1d(r["genuine"], r["impostor"]) == pytest.approx(np.log2(a["M"] / a["c"]), abs=1e-9)


def test_single_location_on_toy_traces():
    tr = _toy_traces(n=80, k=50, seed=5)
    sl = ident.single_location(tr, np.array([2.0, 8.0]), 500, reps=4, null_reps=3, rng=6)
    ex = sl["exact"]
    assert ex["pse"][1] > ex["pse"][0] >= 0 and ex["error_rate"][1] <= ex["error_rate"][0]
    for m in ("rr", "glh"):
        assert sl["pse"][m].shape == (2,) and sl["null"][m] >= 0 and sl["resolvable"][m].dtype == bool
    assert sl["reports"] == 4 * 80
    for m in ("rr", "glh"):  # per-round samples: the pooled error is their mean
        assert sl["pse_rounds"][m].shape == (2, 4) and sl["err_rounds"][m].shape == (2, 4)
        assert np.allclose(sl["err"][m], sl["err_rounds"][m].mean(axis=1))
        assert np.all(sl["err_se"][m] > 0)


def test_fig11_skewed_runs():
    """Fig. 11 draws runs whose mean lies outside their 10-90 % range (mostly equal, a few zeros)."""
    import numpy as np

    from ldpnb.papers.pie import figures

    e = np.full((40, 20), 0.004)
    e[:3] = 0.0  # 7.5 % of runs at zero: mean 0.0037 < 10 % quantile 0.004
    fig = figures.fig11(np.linspace(0.0045, 0.0009, 20), {"a": e, "b": e * 0.5}, {"a": 0.1, "b": 0.2})
    assert len(fig.axes) == 1
