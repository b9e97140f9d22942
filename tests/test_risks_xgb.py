"""The paper's attacker (XGBoost) of the risks chapter as independent single-thread fits
(ldpnb.papers.risks.xgb) and the full protocol on Dask (ldpnb.papers.risks.protocol).

The numbers must not depend on the number of processes, the backend, the plan a fit belongs to, or
the sparse input of the UE variants."""

import json

import numpy as np
import pytest

from ldpnb.papers.risks import protocol, xgb

pytest.importorskip("xgboost")


def _toy(n=600, seed=0):
    rng = np.random.default_rng(seed)
    ks = np.array([6, 3, 9, 2, 4])
    X = np.column_stack([rng.choice(k, size=n, p=np.arange(1, k + 1) / (k * (k + 1) / 2)) for k in ks])
    return {"toy": (X, ks)}


def _plan(seed=7):
    return xgb.plan(
        "toy", "fd", ["GRR", "OUE-r", "SUE-z"], [1.0, 8.0], 1, ["NK s=1n", "PK 0.3n"], seed=seed
    ) + xgb.plan("toy", "correct", ["SUE-r"], [4.0], 2, ["HM (1n, 0.1n)"], seed=seed)


@pytest.fixture(scope="module")
def cluster():
    """One LocalCluster of two single-thread worker processes for the Dask tests."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc:
        yield lc


def _acc(res):
    return [(r["acc"], r["oracle"], r["n_test"]) for r in res]


def test_fit_is_a_function_of_its_name_only():
    data = _toy()
    fits = _plan()
    whole = xgb.run_fits(fits, data, n_jobs=1)
    alone = [xgb.fit_one(f, data) for f in (fits[5], fits[-1])]
    assert _acc(alone) == _acc([whole[5], whole[-1]])
    # the models of one cell attack the same reports: PK's oracle is on a subset of NK's users
    assert whole[0]["n_test"] == 600 and whole[1]["n_test"] == 600 - 180
    assert whole[-1]["acc"] != whole[-2]["acc"]  # two runs of a cell: different draws
    # the paired counts of row T17: XGBoost's excess over the oracle is (wins - losses) / n_test
    for r in whole:
        assert r["acc"] - r["oracle"] == pytest.approx(100 * (r["wins"] - r["losses"]) / r["n_test"], abs=1e-9)
    # a different master seed changes the draws
    other = xgb.run_fits(_plan(seed=8)[:2], data, n_jobs=1)
    assert _acc(other) != _acc(whole[:2])


def test_processes_give_the_serial_numbers(monkeypatch):
    data = _toy()
    fits = _plan()
    serial = xgb.run_fits(fits, data, n_jobs=1)
    assert _acc(xgb.run_fits(fits, data, n_jobs=2)) == _acc(serial)
    monkeypatch.setenv("LDPNB_N_JOBS", "2")
    assert _acc(xgb.run_fits(fits, data)) == _acc(serial)


def test_dask_local_cluster_gives_the_serial_numbers(cluster):
    import distributed

    data = _toy()
    fits = _plan()
    serial = xgb.run_fits(fits, data, n_jobs=1)
    with distributed.Client(cluster):
        assert _acc(xgb.run_fits(fits, data, backend="dask")) == _acc(serial)


def test_protocol_command_on_a_local_cluster_matches_the_serial_fits(tmp_path, cluster):
    out = tmp_path / "smoke.json"
    assert (
        protocol.main(
            ["--scheduler", cluster.scheduler_address, "--scale", "smoke", "--datasets", "Nursery", "--out", str(out)]
        )
        == 0
    )
    doc = json.loads(out.read_text())
    assert doc["meta"]["fits"] == 5 * 2 * 2 * 2 and doc["meta"]["workers"] == 2
    fits = protocol.protocol_plan(runs=2, eps=(1.0, 10.0), models=("NK s=1n", "PK 0.5n"), datasets=("Nursery",))
    data = protocol.load_datasets("smoke", 2024)
    some = [fits[0], fits[-1]]
    serial = xgb.collect(some, xgb.run_fits(some, data, n_jobs=1))
    curves = {(c["data"], c["setting"], c["variant"], c["model"]): c for c in doc["curves"]}
    for f, (key, v) in zip(some, serial.items()):
        e = v["eps"].index(f.eps)
        assert curves[key]["acc"][f.run][curves[key]["eps"].index(f.eps)] == v["acc"][f.run, e]


def test_sparse_input_gives_the_dense_predictions():
    """The UE variants' bits as a CSR matrix: the same test predictions as the dense bits (every split
    of a 0/1 feature is the same partition; the guard the performance audit asked for)."""
    data = _toy(n=800, seed=3)
    fits = xgb.plan(
        "toy", "fd", ["SUE-z", "OUE-z", "SUE-r", "OUE-r"], [1.0, 10.0], 1, ["NK s=1n", "HM (1n, 0.1n)"], seed=11
    )
    for f in fits:
        dense = xgb.fit_one(f, data, sparse=False, predictions=True)
        csr = xgb.fit_one(f, data, sparse=True, predictions=True)
        np.testing.assert_array_equal(dense["pred"], csr["pred"])
        assert dense["acc"] == csr["acc"]


def test_design_matrix_forms():
    from scipy import sparse as sp

    grr = [np.array([0, 2, 1]), np.array([1, 0, 0])]
    M = xgb.design_matrix(grr)
    assert M.dtype == np.float32 and M.tolist() == [[0, 1], [2, 0], [1, 0]]
    bits = [np.eye(3, dtype=bool)[[0, 2, 1]], np.ones((3, 98), dtype=bool)]
    assert sp.issparse(xgb.design_matrix(bits))  # 101 columns: CSR under "auto"
    assert not sp.issparse(xgb.design_matrix(bits[:1]))  # 3 columns: dense
    np.testing.assert_array_equal(xgb.design_matrix(bits, sparse=True).toarray(), xgb.design_matrix(bits, sparse=False))


def test_fit_refuses_what_the_paper_does_not_run():
    with pytest.raises(ValueError, match="UE-z"):
        xgb.Fit("ACS", "correct", "SUE-z", 1.0, 0, "NK s=1n", 1)
    with pytest.raises(ValueError, match="model"):
        xgb.Fit("ACS", "fd", "GRR", 1.0, 0, "NK s=2n", 1)
    with pytest.raises(ValueError, match="eps"):
        xgb.Fit("ACS", "fd", "GRR", 0.0, 0, "NK s=1n", 1)


def test_collect_keeps_every_run():
    fits = xgb.plan("toy", "fd", ["GRR"], [1.0, 10.0], 3, ["PK 0.1n"], seed=1)
    res = [{"acc": float(i), "oracle": 2.0 * i, "cpu": 0.1} for i in range(len(fits))]
    cell = xgb.collect(fits, res)[("toy", "fd", "GRR", "PK 0.1n")]
    assert cell["eps"] == [1.0, 10.0] and cell["acc"].shape == (3, 2)
    assert cell["acc"][:, 0].tolist() == [0.0, 1.0, 2.0] and cell["acc"][:, 1].tolist() == [3.0, 4.0, 5.0]


def test_protocol_plan_is_the_papers_and_its_cost_model():
    plan = protocol.protocol_plan()
    assert len(plan) == 3 * 5 * 10 * 9 * 20 + 3 * 10 * 9 * 20 + 3 * 3 * 10 * 3 * 20 == 37_800
    assert len({(f.data, f.setting, f.variant, f.eps, f.run, f.model) for f in plan}) == len(plan)
    fits = xgb.plan("ACS", "fd", ["GRR"], [1.0], 1, ["NK s=1n", "NK s=5n"], seed=1)
    coef = protocol.cost_model(fits, [{"cpu": 1.0}, {"cpu": 5.0}])
    assert coef[("ACS", "GRR")] == pytest.approx(1.0 / 10.336, rel=1e-9)  # exact: cpu proportional to rows
    cost = protocol.protocol_cost(fits, coef)
    assert cost["total"] == pytest.approx(6.0)
    adult = xgb.plan("Adult", "fd", ["GRR"], [1.0], 1, ["NK s=1n"], seed=1)
    assert protocol.protocol_cost(adult, coef)["Adult"] == pytest.approx(45.222 / 10.336 * 10 / 18)


def test_chapter_smoke_accuracies_with_and_without_the_sparse_input():
    """The guard the performance audit asked for: the chapter's own XGBoost fits (its smoke plan, on its smoke
    subset of ACS) give the same accuracies with the UE bits as a CSR matrix and as dense floats."""
    from ldpnb.papers.risks import runs

    sizes = runs.sizes("smoke")
    fits = [
        f for f in runs.xgb_plan(sizes, list(sizes["xgb"]), seed=2024) if f.variant != "GRR" and f.data == "ACS"
    ]  # Fig. 3's UE fits, where "auto" picks CSR
    assert len(fits) == 8
    data = protocol.load_datasets("smoke", 2024)
    assert _acc(xgb.run_fits(fits, data, n_jobs=1, sparse=True)) == _acc(
        xgb.run_fits(fits, data, n_jobs=1, sparse=False)
    )
