"""The risks chapter's SCALE=paper path, executed end to end at a tiny size (a few hundred users, three
trees, one ε) so that the recorded paper-scale run cannot crash hours in: the full XGBoost grid
on ACS and NK/PK on Adult and Nursery (:func:`ldpnb.papers.risks.runs.paper_xgb_rows`) fill the five
paper-scale rows, and the paper-scale grids of :func:`ldpnb.papers.risks.runs.sizes` are well formed."""

import functools

import numpy as np
import pytest

from ldpnb.papers.risks import CLAIMS, experiments as ex, runs
from ldpnb.repro import Report
from ldpnb.repro.seeds import rng_for

PAPER_ROWS = ("H5-s", "H5-hm", "H5-nk", "T17-Adult", "T17-Nursery")


def _toy(seed: int, ks: list[int], n: int = 300) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.choice(k, n, p=np.arange(1, k + 1) / (k * (k + 1) / 2)) for k in ks])
    return X, np.array(ks)


def test_paper_xgb_rows_end_to_end(monkeypatch):
    pytest.importorskip("xgboost")
    monkeypatch.setattr(runs, "aif_xgb_experiment",
                        functools.partial(ex.aif_xgb_experiment, n_estimators=3))
    size = runs.sizes("paper")
    data = {"ACS": (*_toy(1, [4, 3, 5, 2]), size["pk"]), "Adult": (*_toy(2, [3, 4, 2]), size["pk"][::2]),
            "Nursery": (*_toy(3, [3, 3, 3]), size["pk"][::2])}
    eps = [4.0]
    aif = {name: ex.aif_experiment(X, K, eps, runs.VARIANTS, runs=1, pk_fractions=pk,
                                   rng=rng_for(7, f"aif-{name}"))
           for name, (X, K, pk) in data.items()}
    report = Report("multidim_risks", CLAIMS, scale="paper", seed=7)
    X, K, _ = data["ACS"]
    xgb_acs = runs.xgb_by_variant(X, K, eps, runs.VARIANTS, runs.xgb_models(size["xgb_grid"]), seed=7, name="acs")
    assert len(xgb_acs) == len(runs.LABELS) * len(runs.XGB_ALL)
    other = {name: runs.xgb_by_variant(X, K, eps, runs.VARIANTS, runs.xgb_models(()), seed=7, name=name)
             for name, (X, K, _) in data.items() if name != "ACS"}
    runs.paper_xgb_rows(report, xgb_acs, other, aif, [0])
    for v in [xgb_acs, *other.values()]:
        assert all(a["acc"].shape == (1, 1) and 0 <= a["acc"][0, 0] <= 100 for a in v.values())
    for cid in PAPER_ROWS:  # recorded at paper scale with numbers (at this toy size any outcome is possible)
        row = report.rows[cid]
        assert row["scale"] == "paper" and row["status"] != "not-evaluated" and row["ours"] is not None, row


def test_paper_sizes_cover_the_paper_grids():
    s = runs.sizes("paper")
    assert s["rid_eps"] == list(range(1, 11)) and s["rid_runs"] == 20
    assert all(v == 20 for v in s["head_runs"].values())
    assert len(s["pie_betas"]) == 10 and s["xgb_eps"] == list(range(1, 11))
    assert set(s) == set(runs.sizes("book")) == set(runs.sizes("smoke"))


def test_paper_grids_through_the_chapter_index_expressions():
    """The chapter's lookups of one grid in another (XGBoost ε in the AIF grid, Fig. 4 ε in the RID grid,
    RS+RFD ε in the AIF grid) hold for the paper's grids as for the book's."""
    for scale in ("book", "paper"):
        s = runs.sizes(scale)
        assert all(e in s["aif_eps"] for e in s["xgb_eps"])
        assert [e for e in s["fig4_eps"] if e in s["rid_eps"] and e >= 4]
        assert [e for e in s["rfd_eps"] if e in s["aif_eps"] and e >= 2]
        assert s["max_users"] is None


def test_paper_pie_grid_and_runs_on_a_toy_table():
    """α-PIE at the paper's ten β values (some attributes left unrandomised, ε = inf) with runs > 1."""
    from ldpnb import measures

    s = runs.sizes("paper")
    X, K = _toy(4, [4, 3, 5, 2, 6, 3], n=400)
    n_d = int(len(X) / round(X.shape[1] / 2))
    grid = [np.array([measures.eps_from_bayes_error(b, n_d, int(k)) for k in K]) for b in s["pie_betas"]]
    out = runs.rid_by_protocol(X, K, ["grr", "oue"], grid, runs=2, seed=3, name="pie", pk=True,
                               topk=(1, 5, 10), setting="non-uniform")
    for p in ("grr", "oue"):
        assert out[p]["FK"].shape[:2] == (2, len(s["pie_betas"]))
        assert np.all(np.isfinite(out[p]["FK"])) and np.all(np.isfinite(out[p]["PK"]))


def test_rid_by_protocol_does_not_depend_on_the_workers(monkeypatch):
    """The protocols run on $LDPNB_N_JOBS processes at paper scale; the results are those of the serial run."""
    X, K = _toy(5, [4, 3, 5, 2, 3], n=300)
    kw = dict(runs=2, seed=11, name="rid", pk=True)
    monkeypatch.setenv("LDPNB_N_JOBS", "1")
    serial = runs.rid_by_protocol(X, K, ["grr", "oue", "olh"], [1.0, 8.0], **kw)
    monkeypatch.setenv("LDPNB_N_JOBS", "2")
    par = runs.rid_by_protocol(X, K, ["grr", "oue", "olh"], [1.0, 8.0], **kw)
    for p in serial:
        assert np.array_equal(serial[p]["FK"], par[p]["FK"]) and np.array_equal(serial[p]["PK"], par[p]["PK"])


def test_rid_protocols_share_designs_and_streams_in_every_run():
    """Common random numbers (row H10-b): with the same seed, every protocol sees the same survey designs
    and PK subsets in every run, and a budget sent in clear gives every protocol the same RID-ACC, run by run.
    Before the fix the protocols' designs differed from the second run on (each consumes its stream
    differently), and the 20-run means at β = 0.6 differed by 2.1 points at paper scale."""
    X, K = _toy(6, [4, 3, 5, 2, 6, 3], n=500)
    clear = np.full(len(K), np.inf)
    out = runs.rid_by_protocol(X, K, ["grr", "oue", "olh"], [1.0, clear], runs=4, seed=5, name="crn", pk=True)
    for p in ("oue", "olh"):
        for a, b in zip(out[p]["designs"], out["grr"]["designs"]):
            assert all(np.array_equal(u, v) for u, v in zip(a, b))
        assert all(np.array_equal(u, v) for u, v in zip(out[p]["pk_attrs"], out["grr"]["pk_attrs"]))
        assert np.array_equal(out[p]["FK"][:, 1], out["grr"]["FK"][:, 1])
        assert np.array_equal(out[p]["PK"][:, 1], out["grr"]["PK"][:, 1])
    # the runs differ from each other (the designs are drawn afresh per run)
    assert len({tuple(map(tuple, dsg)) for dsg in out["grr"]["designs"]}) > 1


@pytest.mark.parametrize("scale", ["smoke", "book", "paper"])
def test_size_glues_cover_the_chapter_captions(scale):
    """Every run count or grid quoted by a caption of the chapter ({glue:text}`risks-...`) that is not glued
    by a figure cell comes from :func:`runs.size_glues`, and states the scale's sizes."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "book" / "multidim_risks.py").read_text()
    glued_in_cells = set(re.findall(r'glue\(\s*f?"(risks-[\w-]+)"', text))
    quoted = set(re.findall(r"\{glue:text\}`(risks-[\w-]+)`", text))
    g = runs.size_glues(runs.sizes(scale))
    assert quoted - glued_in_cells <= set(g), quoted - glued_in_cells - set(g)
    s = runs.sizes(scale)
    assert g["risks-rid-runs"] == str(s["rid_runs"]) and g["risks-fig4-runs"] == str(s["fig4_runs"])
    assert g["risks-xgb-grid"] == (", ".join(s["xgb_grid"]) or "none")


def test_xgb_other_datasets_not_run_without_eps():
    X, K = _toy(1, [3, 4, 2], n=50)
    assert runs.xgb_other_datasets({"Adult": (X, K)}, [], seed=0) == {}


def test_pooled_mse_ratio_and_expected_lower():
    from ldpnb.papers.risks import checks

    res = {"mse": {"a": np.array([[1.0, 1.0], [2.0, 2.0]]), "b": np.array([[2.0, 2.0], [4.0, 4.0]])}}
    assert checks.pooled_mse_ratio(res, "a", "b") == pytest.approx(0.5)
    an = {"RS+RFD[GRR]": np.array([[1.0, 2.0]]), "RS+FD[GRR]": np.array([[2.0, 2.5]])}
    assert checks.rfd_expected_lower(an, "GRR")
    an["RS+FD[GRR]"] = np.array([[2.0, 2.0]])
    assert not checks.rfd_expected_lower(an, "GRR")


def test_xgboost_threads_follow_n_jobs_under_omp_num_threads_1():
    """OMP_NUM_THREADS=1 caps XGBoost at one thread whatever n_jobs says; the attack's fit raises OpenMP's
    limit to n_jobs (1 leaves it alone)."""
    pytest.importorskip("xgboost")
    from threadpoolctl import threadpool_info, threadpool_limits

    from ldpnb.attacks import inference

    import xgboost  # noqa: F401  (loads the OpenMP runtime)

    with threadpool_limits(1, user_api="openmp"):
        with inference._openmp_threads(2):
            inside = [i["num_threads"] for i in threadpool_info() if i["user_api"] == "openmp"]
        with inference._openmp_threads(1):
            one = [i["num_threads"] for i in threadpool_info() if i["user_api"] == "openmp"]
        after = [i["num_threads"] for i in threadpool_info() if i["user_api"] == "openmp"]
    assert inside and all(v == 2 for v in inside)
    assert all(v == 1 for v in one) and all(v == 1 for v in after)
