"""The IBU paper's experiments take mechanism objects (issue #32, step 1d): the object API runs the
same draws and the same estimates, bit for bit, as the former string switch and dict tasks, which
remain as thin deprecated wrappers resolving the kind through the mechanism registry."""

import numpy as np
import pytest

from ldpnb import mechanisms as mech
from ldpnb.data.grid import lattice_distance_matrix
from ldpnb.measures import emd_1d_rows
from ldpnb.papers import ibu
from ldpnb.repro.parallel import sweep

N = np.random.default_rng(0).multinomial(2000, np.random.default_rng(1).dirichlet(np.ones(12)))
D = lattice_distance_matrix(3, 4) * 0.5


@pytest.mark.parametrize("kind, line, grid", [
    ("geometric", lambda e: mech.TruncatedGeometric(12, e), lambda e: mech.PlanarGeometric(3, 4, e, 0.5)),
    ("laplace", lambda e: mech.DiscreteLaplace(12, e), lambda e: mech.PlanarLaplace(3, 4, e, 0.5)),
    ("exponential", lambda e: mech.Exponential(np.abs(np.subtract.outer(np.arange(12.0), np.arange(12.0))), e),
     lambda e: mech.Exponential(D, e)),
    ("krr", lambda e: mech.GRR(12, e), lambda e: mech.GRR(12, e)),
])
def test_mechanism_objects_reproduce_the_legacy_tasks_bit_for_bit(kind, line, grid):
    for eps in (0.4, 2.0):
        legacy = ibu.trial_task(dict(kind=kind, eps=eps, N=N, k=12, reps=3, tol=1e-8, max_iter=2000, mle_reps=1),
                                rng=4)
        new = ibu.Trials(N, 3, emd_1d_rows, 1e-8, 2000, 1)(line(eps), rng=4)
        assert list(new) == list(legacy)
        for key in legacy:
            np.testing.assert_array_equal(new[key], legacy[key], err_msg=f"{kind} {eps} {key}")
        chan = ibu.build_channel(kind, eps, rows=3, cols=4, cell_size=0.5, distance=D)
        np.testing.assert_array_equal(grid(eps).channel(), chan)
        legacy = ibu.trial_task(dict(kind=kind, eps=eps, N=N, rows=3, cols=4, cell_size=0.5, D=D, reps=2, tol=1e-8,
                                     max_iter=2000), rng=5)
        new = ibu.Trials(N, 2, ibu.location_metric(D), 1e-8, 2000)(grid(eps), rng=5)
        for key in legacy:
            np.testing.assert_array_equal(new[key], legacy[key], err_msg=f"{kind} {eps} grid {key}")


def test_a_panel_is_a_list_of_mechanisms_for_the_sweep():
    panel = [mech.TruncatedGeometric(12, e) for e in (0.5, 1.0)]
    runs = sweep(ibu.Trials(N, 2, emd_1d_rows, 1e-8, 1000), [(panel[0], 1), panel[1]], seed=3, n_jobs=1)
    assert [r["eps"] for r in runs] == [0.5, 1.0] and runs[0]["MLE"].shape == (1,) and "MLE" not in runs[1]
    tasks = ibu.panel_tasks("geometric", [0.5, 1.0], N=N, k=12, reps=2, tol=1e-8, max_iter=1000)
    tasks[0]["mle_reps"] = 1
    old = sweep(ibu.trial_task, tasks, seed=3, n_jobs=1)
    for a, b in zip(runs, old):
        np.testing.assert_array_equal(a["IBU"], b["IBU"])
    with pytest.raises(TypeError, match="Mechanism"):
        ibu.Trials(N, 2, emd_1d_rows)(np.eye(12), rng=0)


def test_estimation_trials_takes_a_mechanism_or_its_matrix():
    m = mech.TruncatedGeometric(12, 0.7)
    a = ibu.estimation_trials(m, N, 3, metric=emd_1d_rows, rng=9)
    b = ibu.estimation_trials(m.channel(), N, 3, metric=emd_1d_rows, rng=9)
    for key in a:
        np.testing.assert_array_equal(a[key], b[key])
