"""ldpnb.parallel.sweep: per-task seeds from one SeedSequence, results independent of n_jobs and backend
(serial, threads, processes, a dask.distributed LocalCluster)."""

import os

import numpy as np
import pytest

from ldpnb.estimators import ibu
from ldpnb.mechanisms import GRR, grr_simulate_counts
from ldpnb.repro.parallel import default_n_jobs, env_n_jobs, sweep, task_seeds

TASKS = [(eps, rep) for eps in (0.5, 1.0, 2.0) for rep in range(4)]


def krr_ibu_task(task, rng):
    """A miniature chapter task: simulate k-RR counts at eps and estimate them with IBU."""
    eps, rep = task
    k = 16
    prior = np.arange(1, k + 1) / np.arange(1, k + 1).sum()
    counts = grr_simulate_counts(rng.multinomial(2000, prior), eps, rng=rng)
    est = ibu(GRR(k, eps).operator(), counts, tol=1e-10).estimate
    return eps, rep, float(np.abs(est - prior).sum()), counts


def _assert_same(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert x[:3] == y[:3]
        np.testing.assert_array_equal(x[3], y[3])


@pytest.fixture(scope="module")
def serial():
    return sweep(krr_ibu_task, TASKS, seed=7, n_jobs=1)


def test_serial_is_deterministic_and_ordered(serial):
    assert [r[:2] for r in serial] == TASKS
    _assert_same(serial, sweep(krr_ibu_task, TASKS, seed=7, n_jobs=1))
    other = sweep(krr_ibu_task, TASKS, seed=8, n_jobs=1)
    assert any(not np.array_equal(a[3], b[3]) for a, b in zip(serial, other))


@pytest.mark.parametrize("backend,n_jobs", [("sequential", 1), ("threading", 2), ("loky", 2), ("loky", None)])
def test_results_do_not_depend_on_n_jobs_or_backend(serial, backend, n_jobs):
    _assert_same(serial, sweep(krr_ibu_task, TASKS, seed=7, n_jobs=n_jobs, backend=backend, batch_size=1))


def test_seed_sequence_and_task_seeds(serial):
    _assert_same(serial, sweep(krr_ibu_task, TASKS, seed=np.random.SeedSequence(7), n_jobs=2, backend="threading"))
    s = task_seeds(7, 3)
    assert [x.entropy for x in s] == [7] * 3 and len({tuple(x.spawn_key) for x in s}) == 3


def test_progress_bar_does_not_change_results(serial, capsys):
    _assert_same(serial, sweep(krr_ibu_task, TASKS, seed=7, n_jobs=1, progress=True))


def test_default_n_jobs_env(monkeypatch):
    monkeypatch.setenv("LDPNB_N_JOBS", "3")
    assert default_n_jobs() == 3
    monkeypatch.delenv("LDPNB_N_JOBS")
    assert default_n_jobs() >= 1


def test_dask_local_cluster_same_as_serial(serial):
    distributed = pytest.importorskip("dask.distributed")
    with (
        distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster,
        distributed.Client(cluster),
    ):
        res = sweep(krr_ibu_task, TASKS, seed=7, backend="dask")
    _assert_same(serial, res)


def pid_task(task, rng):
    """The worker's process id and a draw from the task's generator."""
    return os.getpid(), int(rng.integers(1 << 30))


def test_ldpnb_n_jobs_is_honoured_when_the_caller_does_not_pass_n_jobs(serial, monkeypatch):
    """At every scale a chapter that does not choose n_jobs runs on $LDPNB_N_JOBS workers (serially
    when unset), with results identical to the serial run."""
    monkeypatch.delenv("LDPNB_N_JOBS", raising=False)
    assert env_n_jobs() == 1
    alone = sweep(pid_task, range(8), seed=3)
    assert {p for p, _ in alone} == {os.getpid()}  # unset: serial, in this process
    monkeypatch.setenv("LDPNB_N_JOBS", "2")
    assert env_n_jobs() == 2 and default_n_jobs() == 2
    par = sweep(pid_task, range(8), seed=3, batch_size=1)
    assert os.getpid() not in {p for p, _ in par}  # ran in worker processes
    assert [d for _, d in par] == [d for _, d in alone]
    _assert_same(serial, sweep(krr_ibu_task, TASKS, seed=7, batch_size=1))
    assert [p for p, _ in sweep(pid_task, range(3), seed=3, n_jobs=1)] == [os.getpid()] * 3  # an explicit 1 wins


@pytest.mark.parametrize("bad", ["0", "-2", "two", "1.5"])
def test_a_bad_ldpnb_n_jobs_is_a_clear_error(monkeypatch, bad):
    monkeypatch.setenv("LDPNB_N_JOBS", bad)
    with pytest.raises(ValueError, match="LDPNB_N_JOBS"):
        sweep(pid_task, range(2), seed=0)
