"""The single-run dense IBU engine (issue #22) is the batch engine, bit for bit.

``_run_single_dense`` runs one dense IBU on 1-D arrays; the reference is the general engine
``_run`` on the same problem given as a batch of one row (``single=False``), which never takes the
single-run path.  Estimates, iteration counts, flags, log-likelihoods, gaps and traces must be
*identical* (not merely close): the rewrite changes speed only.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpnb.estimators import _ibu, ibu


def _reference(C, counts, *, tol, max_iter, criterion="loglik", min_iter=0, trace=True, theta0=None):
    """The batch engine on one row (the code path every run took before the single-run engine)."""
    Q = (counts / counts.sum())[None, :]
    obs = Q[0] > 0
    Theta = _ibu._theta0_batch(theta0, 1, C.shape[0])
    return _ibu._run(
        _ibu._Dense(C, obs),
        np.ascontiguousarray(Q[:, obs]),
        Theta,
        _ibu.StopRule(criterion, tol, min_iter, max_iter),
        trace=trace,
        single=False,
    )


SETTINGS = [
    dict(tol=0, max_iter=40),
    dict(tol=1e-9, max_iter=10_000),
    dict(tol=1e-6, criterion="gap", max_iter=10_000),
    dict(tol=1e-7, criterion="max_abs", max_iter=10_000),
    dict(tol=1e-7, criterion="l1", min_iter=5, max_iter=10_000),
    dict(tol=1e-3, criterion="gap", min_iter=30, max_iter=10_000),
    dict(tol=0, max_iter=0),
    dict(tol=1e-9, max_iter=10_000, trace=False),
]


@given(
    k=st.integers(2, 40),
    extra=st.integers(0, 9),
    zeros=st.booleans(),
    seed=st.integers(0, 2**31 - 1),
    setting=st.sampled_from(range(len(SETTINGS))),
)
@settings(max_examples=120, deadline=None)
def test_single_run_engine_is_the_batch_engine_bit_for_bit(k, extra, zeros, seed, setting):
    rng = np.random.default_rng(seed)
    C = rng.dirichlet(np.full(k + extra, 0.7), size=k)
    counts = rng.multinomial(3000, C.mean(axis=0)).astype(float)
    if zeros:
        counts[: max(1, (k + extra) // 3)] = 0
    if counts.sum() == 0:
        counts[-1] = 1
    kw = SETTINGS[setting]
    trace = kw.get("trace", True)
    got = ibu(C, counts, **kw)
    ref = _reference(C, counts, **{**kw, "trace": trace})
    assert np.array_equal(got.estimate, ref.estimate[0])
    assert got.n_iter == int(ref.n_iter[0]) and got.stopped == bool(ref.stopped[0])
    assert got.loglik == float(ref.loglik[0]) and got.gap == float(ref.gap[0])
    assert (got.trace is None) == (ref.trace is None)
    if got.trace is not None:
        assert np.array_equal(got.trace, ref.trace)


@pytest.mark.parametrize("shape", [(600, 700), (513, 1000), (4096, 70), (3, 5)])
def test_tiled_transpose_is_the_transpose(shape):
    C = np.random.default_rng(0).random(shape)
    T = _ibu._transpose_copy(C)
    assert T.flags.c_contiguous and np.array_equal(T, C.T)
