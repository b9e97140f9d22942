"""Parallel sweeps over (epsilon, repetition, method, ...) with reproducible seeds.

:func:`sweep` calls ``func(task, rng)`` for every task, where ``rng`` is a
:class:`numpy.random.Generator` spawned for that task from one
:class:`numpy.random.SeedSequence` (``SeedSequence(seed).spawn(len(tasks))``). The
seed of a task depends only on ``seed`` and the task's position, never on the
number of workers, the backend or the order of completion: the same seed gives the
same results serially, on two processes or on a Dask cluster.

Backends are joblib's: ``"loky"`` (processes, the default), ``"threading"``,
``"sequential"``, or ``"dask"`` (the tasks go to the workers of the current
``dask.distributed.Client``).

Running a paper-scale sweep on a Dask cluster
---------------------------------------------
Start (or connect to) a cluster, make a ``Client`` current, and pass ``backend="dask"``;
the results are identical to the serial run (tested on a ``LocalCluster``)::

    from dask.distributed import Client, LocalCluster
    from ldpnb.parallel import sweep

    cluster = LocalCluster(n_workers=8, threads_per_worker=1)   # or Client("tcp://scheduler:8786")
    with Client(cluster):
        results = sweep(task, tasks, seed=SEED, backend="dask")

``func`` must be importable on the workers (a module-level function of an installed
package, e.g. ``ldpnb``) and should do enough work per task (seconds) to amortise the
scheduling; set ``OMP_NUM_THREADS=1`` on the workers so that BLAS does not oversubscribe
the cores.

Number of workers: a caller that does not pass ``n_jobs`` gets ``$LDPNB_N_JOBS`` when it is set
and a serial run otherwise (:func:`env_n_jobs`), at every scale; ``n_jobs=None`` asks for
``$LDPNB_N_JOBS`` or every available core (:func:`default_n_jobs`).  The results never depend on it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import numpy as np

from ldpnb._optional import import_optional
from ldpnb.contracts import MAX_ENTRIES, AnyOf, Boolean, Callable_, Instance, Integer, OneOf, Optional, contract

_SEED = AnyOf(Integer(0), Instance(np.random.SeedSequence))
_N_JOBS = Optional(AnyOf(OneOf("env"), Integer(1, 4096)))

__all__ = [
    "sweep",
    "task_seeds",
    "default_n_jobs",
    "env_n_jobs",
]


T = TypeVar("T")


def _env_value() -> int | None:
    env = os.environ.get("LDPNB_N_JOBS", "").strip()
    if not env:
        return None
    try:
        value = int(env)
    except ValueError:
        raise ValueError(f"LDPNB_N_JOBS must be a positive integer, got {env!r}") from None
    if value < 1:
        raise ValueError(f"LDPNB_N_JOBS must be a positive integer, got {env!r}")
    return value


@contract(default=Integer(1, 4096))
def env_n_jobs(default: int = 1) -> int:
    """``$LDPNB_N_JOBS`` if set, else ``default`` (1: serial): the workers of a caller that does not
    pass ``n_jobs``."""
    value = _env_value()
    return default if value is None else value


@contract()
@contract()
def default_n_jobs() -> int:
    """``$LDPNB_N_JOBS`` if set, else the number of CPUs available to this process."""
    value = _env_value()
    if value is not None:
        return value
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover
        return os.cpu_count() or 1


@contract(seed=_SEED, n_tasks=Integer(0, MAX_ENTRIES))
def task_seeds(seed: int | np.random.SeedSequence, n_tasks: int) -> list[np.random.SeedSequence]:
    """One child :class:`~numpy.random.SeedSequence` per task, from ``seed``."""
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(int(seed))
    return ss.spawn(n_tasks)


def _run(func: Callable[[Any, np.random.Generator], T], task: Any, ss: np.random.SeedSequence) -> T:
    return func(task, np.random.default_rng(ss))


def _want_progress(progress: bool | None) -> bool:
    if progress is not None:
        return progress
    if os.environ.get("CI") or not sys.stderr.isatty():
        # quiet in CI logs and in papermill runs; notebooks opened by a reader pass progress=True
        try:
            from IPython import get_ipython  # noqa: PLC0415 lazy: IPython exists only in a kernel

            shell = get_ipython()
            return (
                shell is not None
                and shell.__class__.__name__ == "ZMQInteractiveShell"
                and not os.environ.get("CI")
                and not os.environ.get("PAPERMILL")
                and not _under_papermill()
            )
        except ImportError:
            return False
    return True


def _under_papermill() -> bool:
    """True when this kernel was started by papermill (its parent process), e.g. a direct ``papermill`` run."""
    try:
        with open(f"/proc/{os.getppid()}/cmdline", "rb") as f:
            return b"papermill" in f.read()
    except OSError:
        return False


@contract(
    func=Callable_(),
    tasks=Instance(Iterable, example=[]),
    seed=_SEED,
    n_jobs=_N_JOBS,
    backend=OneOf("loky", "threading", "sequential", "multiprocessing", "dask"),
    progress=Optional(Boolean()),
    batch_size=AnyOf(OneOf("auto"), Integer(1, MAX_ENTRIES)),
)
def sweep(
    func: Callable[[Any, np.random.Generator], T],
    tasks: Sequence[Any],
    *,
    seed: int | np.random.SeedSequence,
    n_jobs: int | None | str = "env",
    backend: str = "loky",
    progress: bool | None = None,
    batch_size: int | str = "auto",
) -> list[T]:
    """Run ``func(task, rng)`` over ``tasks``, in parallel, with per-task seeds.

    Parameters
    ----------
    func : callable
        A picklable (module-level) function of ``(task, rng)``.
    tasks : sequence
        The work items (e.g. tuples ``(epsilon, repetition, method)``).
    seed : int or SeedSequence
        Master seed; the results depend on it and on the tasks only.
    n_jobs : int, None or "env"
        Number of workers.  ``"env"`` (the default, i.e. the caller did not choose): ``$LDPNB_N_JOBS``
        if set, else 1 (:func:`env_n_jobs`); ``None``: ``$LDPNB_N_JOBS`` or every available core
        (:func:`default_n_jobs`); ``1`` runs serially in this process (no joblib overhead).
    backend : str
        A joblib backend name (``"loky"``, ``"threading"``, ``"sequential"``, ``"dask"``).
    progress : bool or None
        Show a tqdm bar; ``None`` shows it in interactive Jupyter only (quiet in CI logs).

    Returns
    -------
    list
        ``[func(tasks[0], rng_0), func(tasks[1], rng_1), ...]`` in the order of ``tasks``.
    """
    tasks = list(tasks)
    seeds = task_seeds(seed, len(tasks))
    if n_jobs == "env":
        n = env_n_jobs()
    else:
        n = default_n_jobs() if n_jobs is None else n_jobs
    show = _want_progress(progress)
    if n == 1 and backend != "dask":
        it = zip(tasks, seeds)
        if show:
            tqdm = import_optional("tqdm.auto").tqdm  # only when progress is shown

            it = tqdm(it, total=len(tasks))
        return [_run(func, t, s) for t, s in it]
    joblib = import_optional("joblib")  # only when a sweep runs in parallel
    Parallel, delayed, parallel_config = joblib.Parallel, joblib.delayed, joblib.parallel_config

    if backend == "dask":
        # joblib registers its dask backend through parallel_config only; it sends the tasks to
        # the current dask.distributed Client (all its workers unless n_jobs > 1 is given)
        n = -1 if (n_jobs is None or n == 1) else n
    with parallel_config(backend=backend):
        par = Parallel(n_jobs=n, batch_size=batch_size, return_as="generator")
        gen = par(delayed(_run)(func, t, s) for t, s in zip(tasks, seeds))
        if show:
            tqdm = import_optional("tqdm.auto").tqdm  # only when progress is shown

            gen = tqdm(gen, total=len(tasks))
        return list(gen)
