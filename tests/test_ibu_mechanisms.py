"""The IBU paper's experiments take mechanism objects (issue #32, step 1): a panel of Figs. 9, 10
or 12 is a list of :class:`ldpnb.mechanisms.Mechanism` objects swept by :class:`ibu.Trials` or
:class:`ibu.RapporTrials`; no string names a mechanism.  (The former string switch and dict tasks
were checked to give the same runs bit for bit, for every kind on a line and on a grid and for
Rappor, before they were deleted.)"""

import numpy as np
import pytest

from ldpnb import mechanisms as mech
from ldpnb.data.grid import lattice_distance_matrix
from ldpnb.measures import emd_1d_rows
from ldpnb.mechanisms import Mechanism
from ldpnb.papers import ibu
from ldpnb.parallel import task_seeds
from ldpnb.repro.parallel import sweep

N = np.random.default_rng(0).multinomial(2000, np.random.default_rng(1).dirichlet(np.ones(12)))
D = lattice_distance_matrix(3, 4) * 0.5
LINE = np.abs(np.subtract.outer(np.arange(12.0), np.arange(12.0)))


@pytest.mark.parametrize(
    "name, make",
    [
        ("geometric", lambda e: mech.TruncatedGeometric(12, e)),
        ("laplace", lambda e: mech.DiscreteLaplace(12, e)),
        ("exponential", lambda e: mech.Exponential(LINE, e)),
        ("k-RR", lambda e: mech.GRR(12, e)),
        ("planar geometric", lambda e: mech.PlanarGeometric(3, 4, e, 0.5)),
        ("planar Laplace", lambda e: mech.PlanarLaplace(3, 4, e, 0.5)),
        ("exponential", lambda e: mech.Exponential(D, e)),
    ],
)
def test_the_panels_mechanisms_are_the_registered_families(name, make):
    m = make(0.7)
    assert type(m) is Mechanism.lookup(name) and m.epsilon == 0.7
    C = m.channel()
    assert C.shape == (12, 12)
    np.testing.assert_allclose(C.sum(axis=1), 1.0, atol=1e-12)


def test_basic_rappor_is_sue_on_the_bit_patterns():
    assert Mechanism.lookup("basic RAPPOR") is mech.SUE
    for k, e in ((4, 1.0), (10, 0.5)):
        np.testing.assert_array_equal(mech.SUE(k, e).channel(), mech.rappor_channel(k, e))


def test_a_panel_is_a_list_of_mechanisms_for_the_sweep():
    panel = [mech.TruncatedGeometric(12, e) for e in (0.5, 1.0)]
    trials = ibu.Trials(N, 2, emd_1d_rows, 1e-8, 1000)
    runs = sweep(trials, [(panel[0], 1), panel[1]], seed=3, n_jobs=1)
    assert [r["eps"] for r in runs] == [0.5, 1.0] and runs[0]["MLE"].shape == (1,) and "MLE" not in runs[1]
    ss = task_seeds(3, 2)  # the sweep's streams: one child seed per mechanism, in order
    direct = ibu.estimation_trials(
        panel[1], N, 2, metric=emd_1d_rows, rng=np.random.default_rng(ss[1]), tol=1e-8, max_iter=1000
    )
    for key in direct:
        np.testing.assert_array_equal(runs[1][key], direct[key])
    with pytest.raises(TypeError, match="Mechanism"):
        trials(np.eye(12), rng=0)
    with pytest.raises(TypeError, match="Mechanism"):
        trials("geometric", rng=0)


def test_rappor_trials_take_basic_rappor():
    theta = np.full(4, 0.25)
    runs = ibu.RapporTrials(theta, 500, 2, 1e-8, 200)
    out = runs(mech.SUE(4, 1.0), rng=7)
    ref = ibu.rappor_trials(theta, 500, 1.0, 2, rng=7, tol=1e-8, max_iter=200)
    assert out["eps"] == 1.0 and set(out) == set(ref) | {"eps"}
    for key in ref:
        np.testing.assert_array_equal(out[key], ref[key])
    with pytest.raises(TypeError, match="SUE"):
        runs(mech.GRR(4, 1.0), rng=0)
    with pytest.raises(TypeError, match="SUE"):
        runs("rappor", rng=0)
    with pytest.raises(ValueError, match="k = 5"):
        runs(mech.SUE(5, 1.0), rng=0)


def test_estimation_trials_takes_a_mechanism_or_its_matrix():
    m = mech.TruncatedGeometric(12, 0.7)
    a = ibu.estimation_trials(m, N, 3, metric=emd_1d_rows, rng=9)
    b = ibu.estimation_trials(m.channel(), N, 3, metric=emd_1d_rows, rng=9)
    for key in a:
        np.testing.assert_array_equal(a[key], b[key])
