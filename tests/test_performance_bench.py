"""The benchmark helpers of the performance appendix: timing, slopes, targets, baselines."""

import math

import numpy as np
import pytest

from ldpnb.data import lattice_distance_matrix
from ldpnb.mechanisms import rate_distortion as rd
from ldpnb.papers.performance import CLAIMS, SIZES_BY_SCALE, TARGETS, bench
from ldpnb.papers.performance import experiments as E


def test_interleaved_runs_every_callable_and_pairs_the_ratios():
    calls = []
    T = bench.interleaved(
        {"a": lambda: calls.append("a") or 1, "b": lambda: calls.append("b") or 2}, repeats=4, warmup=1
    )
    assert calls[:2] == ["a", "b"] and calls.count("a") == 5 and calls.count("b") == 5
    assert T.results == {"a": 1, "b": 2} and len(T.runs["a"]) == 4
    assert T.ratio("a", "b") == pytest.approx(np.median(np.array(T.runs["a"]) / np.array(T.runs["b"])))


def test_loglog_slope_recovers_a_power_law():
    x = np.array([10, 100, 1000, 10_000])
    assert bench.loglog_slope(x, 3e-7 * x**2) == pytest.approx(2.0)
    assert bench.loglog_slope(x, 5e-3 * x) == pytest.approx(1.0)


def test_peak_memory_sees_a_large_allocation():
    assert bench.peak_memory(lambda: np.ones(2**21)) >= 15.0  # 16 MiB


def test_numpy_baselines_give_our_blahut_arimoto_channel():
    rng = np.random.default_rng(0)
    D = lattice_distance_matrix(5, 6)
    p = rng.dirichlet(np.ones(30))
    ours = rd.blahut_arimoto(p, D, 1.3, n_iter=12).channel
    np.testing.assert_allclose(E.textbook_ba(p, D, 1.3, 12), ours, rtol=0, atol=1e-13)
    np.testing.assert_allclose(E.lean_ba(p, D, 1.3, 12), ours, rtol=0, atol=1e-13)


def test_targets_report_met_missed_and_not_measured_without_raising():
    clients = [
        dict(mechanism=m, k=k, side=s, peer=peer, ratio=r, floor_frac=0.6)
        for m in ("GRR", "OUE", "OLH", "SS")
        for k in (16, 128)
        for s in ("client", "server")
        for peer, r in (("multi-freq-ldpy", 2.0 if k == 16 else 0.5), ("pure-ldp", 3.0))
    ]
    ibu_rows = [dict(k=16, peer="qif", iter_ratio=0.1, floor_frac=0.2)]
    ba_rows = [dict(grid="8x8", vs_lean=1.2, fft_vs_dense_iter=60.0)]
    rows = {r["id"]: r for r in E.targets(clients, ibu_rows, ba_rows, TARGETS, 10.0, 60.0)}
    assert rows["T1-GRR"]["status"] == "missed" and rows["T1-GRR"]["value"] == 0.5  # worst k, best peer
    assert rows["T3-k16"]["status"] == "missed" and rows["T4"]["status"] == "met" and rows["T5"]["status"] == "met"
    assert rows["T6-GRR"]["status"] == "met" and rows["T6-IBU"]["status"] == "missed"
    assert rows["T7"]["status"] == "met"
    empty = {r["id"]: r for r in E.targets([], [], [], TARGETS, 1.0, 60.0)}
    assert empty["T1-GRR"]["status"] == "not measured" and empty["T1-GRR"]["value"] is None


def test_peers_load_or_say_why_not():
    P = E.load_peers()
    assert set(P.versions) == {"multi-freq-ldpy", "pure-ldp", "qif"}
    for name, v in P.versions.items():
        assert (v is None) <= (name in P.absent)
    none = E.no_peers("smoke")
    assert none.mfl is None and set(none.absent) == set(none.versions)
    skipped = E.load_peers(load=False)  # SIZES_BY_SCALE["smoke"]["peers"]: not loaded
    assert skipped.mfl is None and skipped.pure is None and skipped.qif is None
    assert set(skipped.absent) == set(skipped.versions)


def test_sizes_by_scale_load_the_peers_where_a1_is_graded():
    for scale, sizes in SIZES_BY_SCALE.items():
        assert sizes["peers"] == (scale in CLAIMS["A1"].scales), scale


def test_bandwidth_is_plausible():
    bw = E.bandwidth(16, 2)
    assert 1e8 < bw < 1e12 and math.isfinite(bw)


def test_paper_scale_target_is_an_estimate_from_cpu_never_wall():
    """T10 from the records' CPU seconds and reference units only: a wall-only record is left out and named,
    a record without reference units is named, and without a recorded whole-book run the row is never 'met'
    nor 'missed' (an estimate from CPU recorded at varying load is not a bound)."""
    from ldpnb.papers.performance.experiments import paper_scale_costs, paper_scale_target

    recs = {
        "a": {"duration_s": 60 * 100, "n_jobs": "2", "cpu_s": 60 * 180},
        "b": {"duration_s": 60 * 80, "n_jobs": "1", "cpu_s": 60 * 75, "cpu_reference_units": 99.0},
        "c": {"duration_s": 60 * 500, "n_jobs": "1"},
    }
    c = paper_scale_costs(recs)
    assert c["a"] == dict(core_min=180.0, floor_min=90.0, ref_units=None, source="cpu")
    assert c["b"] == dict(core_min=75.0, floor_min=75.0, ref_units=99.0, source="cpu+ref")
    assert c["c"] == dict(core_min=None, floor_min=None, ref_units=None, source="wall only")
    row = paper_scale_target(recs, "t")
    # one process per chapter: a (180 CPU min) on one core, b on the other; c's 500 min of wall unused
    assert row["value"] == 180.0 and row["status"] == "not measured" and row["goal"] == "<= 45 min"
    assert "not a bound" in row["target"] and "lower bound" not in row["target"]
    assert "the longest chapter alone 180 min; all the CPU spread over 2 cores 128 min" in row["target"]
    assert "no reference units (CPU at an unrecorded load): a" in row["target"]
    assert "no CPU time on record (left out): c" in row["target"] and "99 reference units" in row["target"]
    row = paper_scale_target({"a": {"duration_s": 60 * 130, "n_jobs": "1", "cpu_s": 60 * 130}}, "t")
    assert row["value"] == 130.0 and row["status"] == "not measured"  # over the budget, still an estimate
    assert paper_scale_target({"c": recs["c"]}, "t")["value"] is None
    assert paper_scale_target({}, "t")["status"] == "not measured"


def test_paper_scale_schedule_is_the_runners_longest_first_list_schedule():
    """Chapters in the runner's order (recorded wall time, longest first), each on the core that frees
    first: the order is by wall time, the lengths are CPU minutes. LPT is optimal here, and at most 4/3
    of the bound on a case where greedy packing is not."""
    from ldpnb.papers.performance.experiments import paper_scale_schedule

    m = 60.0
    recs = {
        ch: {"duration_s": w, "cpu_s": cpu * m}
        for ch, w, cpu in [("a", 5, 3), ("b", 4, 3), ("c", 3, 2), ("d", 2, 2), ("e", 1, 2)]
    }
    s = paper_scale_schedule(recs)
    assert s["cores"] == [["a", "c", "e"], ["b", "d"]] and s["makespan_min"] == 7.0 and s["bound_min"] == 6.0
    assert s["split_bound_min"] == 6.0 and s["left_out"] == []
    # the order follows the recorded wall time, not the CPU: a long-wall, low-CPU chapter goes first
    recs = {
        "x": {"duration_s": 900, "cpu_s": 1 * m},
        "y": {"duration_s": 10, "cpu_s": 4 * m},
        "z": {"duration_s": 5, "cpu_s": 4 * m},
    }
    s = paper_scale_schedule(recs)
    assert s["cores"] == [["x", "z"], ["y"]] and s["makespan_min"] == 5.0 and s["bound_min"] == 4.5
    # three cores; a record without CPU is left out; a chapter without wall time goes first
    recs = {"p": {"cpu_s": 2 * m}, "q": {"duration_s": 9, "cpu_s": 5 * m}, "r": {"duration_s": 9}}
    s = paper_scale_schedule(recs, cores=3)
    assert s["cores"] == [["p"], ["q"], []] and s["makespan_min"] == 5.0 and s["left_out"] == ["r"]


def test_paper_scale_target_is_met_or_missed_only_from_a_recorded_whole_book_run():
    from ldpnb.papers.performance.experiments import paper_scale_target

    recs = {"a": {"duration_s": 6000, "cpu_s": 6000.0}}
    run = {
        "scale": "paper",
        "all_chapters": True,
        "failed": [],
        "machine": {"cores": 2},
        "wall_s": 44 * 60.0,
        "jobs": 2,
    }
    row = paper_scale_target(recs, "t", run=run)
    assert row["status"] == "met" and row["value"] == 44.0 and "recorded run" in row["measured"]
    row = paper_scale_target(recs, "t", run=dict(run, wall_s=46 * 60.0))
    assert row["status"] == "missed" and row["value"] == 46.0
    for bad in (
        dict(run, scale="smoke"),
        dict(run, all_chapters=False),
        dict(run, failed=["pie"]),
        dict(run, machine={"cores": 4}),
    ):
        row = paper_scale_target(recs, "t", run=bad)
        assert row["status"] == "not measured" and row["value"] == 100.0 and "estimate" in row["measured"]
