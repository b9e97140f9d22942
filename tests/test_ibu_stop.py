"""One IBU stopping rule (estimators.StopRule), honoured identically by every engine.

The engines: the single-run dense engine, the batch engine (dense and operator products), the
inlined a I + b 11^T engine (k-RR's operator), and SQUAREM for one run and for a batch.  Each is
run on the same problems with the same rule; the plain-EM engines must stop at the same update
with the same estimate (to rounding), SQUAREM at the first cycle start at or after min_iter
(within its 3-update cycle) with a certified estimate.  Before the rule was one object, SQUAREM
ignored min_iter: ibu(..., criterion="gap", tol=1e-2, min_iter=200, accelerate="squarem") stopped
after 3 updates.
"""

import numpy as np
import pytest

from ldpnb import estimators as est
from ldpnb import mechanisms as M
from ldpnb.estimators import StopRule, _ibu


def _problem(name):
    rng = np.random.default_rng(3)
    if name == "grr":
        m = M.GRR(10, 1.0)
    elif name == "geometric":
        m = M.TruncatedGeometric(12, 0.6)
    else:
        m = M.PlanarGeometric(3, 4, 0.8)
    theta = rng.dirichlet(np.ones(m.n_inputs))
    counts = m.simulate_counts(rng.multinomial(5000, theta), rng=rng).astype(float)
    return m, counts


def _engines(m, counts, **rule):
    """Every engine on the same problem: name -> (IBUResult of one run)."""
    C, op = m.channel(), m.operator()
    out = {
        "dense": est.ibu(C, counts, **rule),
        "dense batch": _first(est.ibu(C, counts[None, :], **rule)),
        "operator": est.ibu(op, counts, **rule),
        "operator batch": _first(est.ibu(op, np.vstack([counts, counts]), **rule)),
        "mechanism": est.ibu(m, counts, **rule),
    }
    if rule.get("criterion", "loglik") in ("gap", "loglik") or rule.get("tol", 1) == 0:
        out["squarem"] = est.ibu(C, counts, method="squarem", **rule)
        out["squarem operator"] = est.ibu(op, counts, method="squarem", **rule)
    if rule.get("criterion") == "gap" and rule.get("tol", 1) > 0:
        out["squarem batch"] = _first(est.ibu(C, np.vstack([counts, counts]), method="squarem", **rule))
    return out


def _first(r):
    return _ibu.IBUResult(
        r.estimate[0],
        int(r.n_iter[0]),
        bool(r.stopped[0]),
        float(r.loglik[0]),
        float(r.gap[0]),
        None,
        r.criterion,
        r.tol,
    )


RULES = [
    dict(criterion="gap", tol=1e-2, min_iter=200),  # the audit's case: SQUAREM stopped after 3
    dict(criterion="gap", tol=1e-7, min_iter=0),
    dict(criterion="gap", tol=1e-3, min_iter=37),
    dict(criterion="loglik", tol=1e-6, min_iter=150),
    dict(criterion="loglik", tol=1e-9, min_iter=0),
    dict(criterion="max_abs", tol=1e-6, min_iter=40),
    dict(criterion="l1", tol=1e-5, min_iter=300),
    dict(tol=0.0, max_iter=57),
]


@pytest.mark.parametrize("name", ["grr", "geometric", "planar"])
@pytest.mark.parametrize("rule", RULES, ids=lambda r: "-".join(f"{k}={v}" for k, v in r.items()))
def test_every_engine_stops_by_the_same_rule(name, rule):
    m, counts = _problem(name)
    rule = {"max_iter": 20_000, **rule}
    res = _engines(m, counts, **rule)
    stop = StopRule(rule.get("criterion", "loglik"), rule["tol"], rule.get("min_iter", 0), rule["max_iter"])
    ref = res["dense"]
    for eng, r in res.items():
        assert r.n_iter >= stop.min_iter, (eng, r.n_iter)
        assert r.n_iter <= stop.max_iter, (eng, r.n_iter)
        if stop.fixed:
            assert r.n_iter == stop.max_iter and not r.stopped, eng
        else:
            assert r.stopped, (eng, r.n_iter)
        if stop.on_gap:
            assert r.gap <= stop.tol, (eng, r.gap)
        if eng.startswith("squarem"):
            # the rule is read at the start of each cycle (3 updates): the first start at or after
            # min_iter where it holds; same fixed point, so a certified stop is within tol of ref's
            if stop.fixed:
                continue
            if stop.on_gap and stop.min_iter > 0 and ref.n_iter == stop.min_iter:
                assert r.n_iter <= stop.min_iter + 2, (eng, r.n_iter)
            if stop.on_gap:
                assert abs(r.loglik - ref.loglik) <= stop.tol
            continue
        # plain EM: the same update, the same stop, the same estimate (operators: to rounding)
        assert r.n_iter == ref.n_iter, (eng, r.n_iter, ref.n_iter)
        np.testing.assert_allclose(r.estimate, ref.estimate, rtol=1e-9, atol=1e-12, err_msg=eng)
        assert r.gap == pytest.approx(ref.gap, rel=1e-6, abs=1e-12), eng


def test_the_audit_case_squarem_honours_min_iter():
    """ibu(grr_channel(10, 1), counts, criterion="gap", tol=1e-2, min_iter=200, accelerate="squarem")
    stopped after 3 updates (audit 4, Sec. 1.4); plain IBU runs 200."""
    C = M.grr_channel(10, 1.0)
    counts = np.arange(1, 11) * 50.0
    plain = est.ibu(C, counts, criterion="gap", tol=1e-2, min_iter=200)
    sq = est.ibu(C, counts, criterion="gap", tol=1e-2, min_iter=200, accelerate="squarem")
    assert plain.n_iter == 200
    assert 200 <= sq.n_iter <= 202 and sq.stopped and sq.gap <= 1e-2
    batch = est.ibu(C, np.vstack([counts, counts]), criterion="gap", tol=1e-2, min_iter=200, method="squarem")
    assert np.all((200 <= batch.n_iter) & (batch.n_iter <= 202)) and np.all(batch.stopped)


def test_method_and_its_alias():
    C = M.grr_channel(6, 0.7)
    counts = np.arange(1, 7) * 30.0
    a = est.ibu(C, counts, criterion="gap", tol=1e-8, method="squarem")
    b = est.ibu(C, counts, criterion="gap", tol=1e-8, accelerate="squarem")
    assert np.array_equal(a.estimate, b.estimate) and a.n_iter == b.n_iter
    est.ibu(C, counts, criterion="gap", tol=1e-8, method="squarem", accelerate="squarem")  # they agree: fine
    with pytest.raises(ValueError, match="squarem"):
        est.ibu(C, counts, criterion="l1", method="squarem")  # an engine that cannot honour a rule refuses it
    with pytest.raises(ValueError, match="batch"):
        est.ibu(C, np.vstack([counts, counts]), criterion="loglik", method="squarem")


def test_stop_rule_validates_itself():
    with pytest.raises(ValueError, match="criterion"):
        StopRule("bogus")
    with pytest.raises(ValueError, match="tol"):
        StopRule("gap", -1.0)
    with pytest.raises((TypeError, ValueError), match="min_iter"):
        StopRule("gap", 1e-3, 2.5)
    s = StopRule("gap", 1e-3, 10, 100)
    assert s.on_gap and not s.on_change and not s.fixed
    assert not s.before_update(1e-4, 9) and s.before_update(1e-4, 10) and not s.before_update(1e-2, 50)
    assert StopRule("l1", 0.0).fixed and not StopRule("l1", 0.0).on_change


def test_a_mechanism_brings_its_operator():
    m = M.GRR(50, 1.0)
    counts = m.simulate_counts(np.arange(1, 51) * 20, rng=0).astype(float)
    r_m = est.ibu(m, counts, criterion="gap", tol=1e-9)
    r_op = est.ibu(m.operator(), counts, criterion="gap", tol=1e-9)
    r_dense = est.ibu(m.channel(), counts, criterion="gap", tol=1e-9)
    assert np.array_equal(r_m.estimate, r_op.estimate) and r_m.n_iter == r_op.n_iter
    np.testing.assert_allclose(r_m.estimate, r_dense.estimate, rtol=1e-8, atol=1e-12)
    # a family without an operator gives its float channel
    e = M.Exponential(np.abs(np.subtract.outer(np.arange(6.0), np.arange(6.0))), 1.0)
    assert e.operator() is None
    y = e.simulate_counts(np.full(6, 100), rng=1)
    assert np.array_equal(est.ibu(e, y).estimate, est.ibu(e.channel(), y).estimate)
    assert est.log_likelihood(np.full(50, 0.02), m, counts) == pytest.approx(
        est.log_likelihood(np.full(50, 0.02), m.channel(), counts), rel=1e-12
    )


@pytest.mark.parametrize(
    "module", ["ldpnb.mechanisms._base", "ldpnb.mechanisms._catalog", "ldpnb.mechanisms.grr", "ldpnb.estimators._ibu"]
)
def test_docstring_examples_run(module):
    import doctest
    import importlib

    res = doctest.testmod(importlib.import_module(module), optionflags=doctest.NORMALIZE_WHITESPACE)
    assert res.failed == 0 and res.attempted > 0


def test_the_stop_rule_s_public_questions_refuse_what_the_rule_cannot_read():
    """Issue #40: ``before_update(nan, t)`` answered False (a NaN certificate read as "not yet"),
    ``after_update(-1.0, t)`` True (a negative change), and ``change`` under criterion ``"gap"`` returned
    the l1 change of the iterates, which that rule never reads.  Each is now a one-line error naming
    the argument; the engines ask the unchecked forms, with the same answers on valid values."""
    gap, loglik, l1 = StopRule("gap", 1e-3, 2, 50), StopRule("loglik", 1e-6), StopRule("l1", 1e-4)
    t0, t1 = np.array([0.5, 0.5]), np.array([0.4, 0.6])
    bad = [
        (lambda: gap.before_update(float("nan"), 5), ValueError, "gap"),
        (lambda: gap.before_update(np.array([1e-4, np.nan]), 5), ValueError, "gap"),
        (lambda: gap.before_update(1e-4, -1), ValueError, "t"),
        (lambda: gap.before_update(1e-4, 2.5), ValueError, "t"),
        (lambda: loglik.after_update(-1.0, 5), ValueError, "change"),
        (lambda: loglik.after_update(float("nan"), 5), ValueError, "change"),
        (lambda: loglik.after_update(1e-9, np.array([3, -1])), ValueError, "t"),
        (lambda: loglik.change(1.0, float("nan")), ValueError, "ll_new"),
        (lambda: loglik.change(1.0, None), ValueError, "ll_new"),
        (lambda: loglik.change(np.array([1.0, 2.0]), np.array([1.0])), ValueError, "ll_old"),
        (lambda: l1.change(theta_old=t0), ValueError, "theta_new"),
        (lambda: l1.change(theta_old=t0, theta_new=np.array([0.4, 0.3, 0.3])), ValueError, "theta_old"),
        (lambda: l1.change(theta_old=t0, theta_new=np.array([-0.4, 1.4])), ValueError, "theta_new"),
        (lambda: gap.change(None, None, t0, t1), ValueError, "gap"),
    ]
    for call, kind, name in bad:
        with pytest.raises(kind, match=name) as info:
            call()
        assert "\n" not in str(info.value)
    for rule, args in ((gap, (1e-4, 5)), (gap, (np.array([1e-4, 1e-2]), np.array([5, 5])))):
        np.testing.assert_array_equal(rule.before_update(*args), rule._before_update(*args))
    assert loglik.after_update(1e-9, 5) == loglik._after_update(1e-9, 5) is True
    assert loglik.change(-1.0, -1.5) == loglik._change(-1.0, -1.5, None, None) == 0.5
    assert l1.change(theta_old=t0, theta_new=t1) == l1._change(None, None, t0, t1) == pytest.approx(0.2)
    assert StopRule("max_abs", 1e-4).change(None, None, t0, t1) == pytest.approx(0.1)


def test_certified_refuses_a_tolerance_that_is_not_one():
    """``IBUResult.certified`` declares its rule in a contract: a tolerance >= 0, possibly infinite (every
    finite gap is certified under inf); anything else is a one-line error naming tol."""
    res = est.ibu(M.GRR(4, 1.0), [40, 30, 20, 10], criterion="gap", tol=1e-9)
    for bad, kind in ((float("nan"), ValueError), (-1e-3, ValueError), ("1e-3", TypeError), (None, TypeError)):
        with pytest.raises(kind, match="^tol must"):
            res.certified(bad)
    assert res.certified(float("inf")) and res.certified(1e-6) == res.converged
