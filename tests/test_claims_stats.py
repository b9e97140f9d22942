"""The claims machinery over estimates: three outcomes and the undecided status, power and the
weak-test flag, domains and consequences, the decision log, and the refusals of criteria that
cannot fail (including the check of verify_row itself against a falsifier that does not falsify).
"""

from __future__ import annotations

import inspect
import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as hs

import ldpnb.repro.claims as C
from ldpnb.repro.claims import (
    Claim,
    CriterionChange,
    CriterionError,
    claim_table,
    decide,
    evaluate,
    falsify,
    power,
    row_status,
    verify_row,
)
from ldpnb.repro.report import KEYS, STATUSES, Report, load_reports
from ldpnb.stats import Estimate, difference, exact, from_se, mean


def _report(tmp_path, monkeypatch, *claims, scale="smoke"):
    monkeypatch.setenv("LDPNB_BUILD_DIR", str(tmp_path))
    return Report("demo", claim_table(*claims), scale=scale)


def _rows(tmp_path):
    return {r["id"]: r for r in load_reports(tmp_path / "reproduction")["demo"]}


def _est(v, lo, hi, n=20):
    return Estimate(v, lo, hi, level=0.95, n_runs=n, method="t", se=(hi - lo) / 3.92)


CLOSE = dict(source="derived", kind="close", reference=1.5, atol=0.1, where="Sec. 1")


# ----------------------------------------------------------------------------- three outcomes
def test_close_and_range_decide_with_three_outcomes():
    crit = {"target": 1.5, "atol": 0.1, "rtol": 0.0, "z": None}
    assert decide("close", crit, {"ours": _est(1.52, 1.45, 1.58)}) == "holds"
    assert decide("close", crit, {"ours": _est(1.8, 1.7, 1.9)}) == "reversed"
    assert decide("close", crit, {"ours": _est(1.58, 1.5, 1.66)}) == "undecided"
    rng = {"lower": None, "upper": 1.5}
    assert decide("range", rng, {"ours": _est(1.578, 1.43, 1.73, 100)}) == "undecided"  # IBU's T19M
    assert row_status("range", rng, {"ours": _est(1.578, 1.43, 1.73, 100)}, "pass") == "undecided"
    assert row_status("range", rng, {"ours": _est(1.578, 1.43, 1.73, 100)}, "diverges") == "undecided"
    assert row_status("range", rng, {"ours": _est(1.7, 1.6, 1.8, 100)}, "diverges") == "diverges"
    assert row_status("range", rng, {"ours": _est(1.3, 1.2, 1.4, 100)}, "diverges") == "fail"
    # elementwise: one reversed cell reverses the claim, one undecided cell leaves it undecided
    e = Estimate([1.0, 1.2], [0.9, 1.1], [1.1, 1.6], method="t", n_runs=10)
    assert decide("range", {"lower": None, "upper": 1.5}, {"ours": e}) == "undecided"
    e = Estimate([1.0, 2.0, 1.4], [0.9, 1.8, 1.2], [1.1, 2.2, 1.6], method="t", n_runs=10)
    assert decide("range", {"lower": None, "upper": 1.5}, {"ours": e}) == "reversed"


def test_a_close_on_an_estimate_needs_a_tolerance_and_no_z():
    with pytest.raises(CriterionError, match="needs a tolerance"):
        decide("close", {"target": 1.5, "atol": 0.0, "rtol": 0.0, "z": None}, {"ours": _est(1.5, 1.4, 1.6)})
    with pytest.raises(CriterionError, match="deprecated"):
        decide("close", {"target": 1.5, "atol": 0.1, "rtol": 0.0, "z": 3.0}, {"ours": _est(1.5, 1.4, 1.6)})
    with pytest.raises(CriterionError, match="exact numbers"):
        decide("holds", {"rule": "x > 0"}, {"x": _est(1.5, 1.4, 1.6)})


_num = hs.floats(-10, 10, allow_nan=False, width=32)


@given(
    o=_num,
    t=_num,
    atol=hs.floats(0, 3, width=32),
    rtol=hs.floats(0, 1, width=32),
    lo=_num,
    width=hs.floats(0, 5, width=32),
)
def test_exact_estimates_are_decided_bit_for_bit_as_numbers(o, t, atol, rtol, lo, width):
    """The old two-outcome rules on plain numbers and on exact estimates agree everywhere, at the
    edges included."""
    crit = {"target": t, "atol": atol, "rtol": rtol, "z": None}
    for ours in (o, t + atol + rtol * abs(t), t - atol - rtol * abs(t)):
        assert evaluate("close", crit, {"ours": ours}) == evaluate("close", crit, {"ours": exact(ours)})
    rc = {"lower": lo, "upper": lo + width}
    for ours in (o, lo, lo + width):
        assert row_status("range", rc, {"ours": ours}, "pass") == row_status("range", rc, {"ours": exact(ours)}, "pass")
    oc = {"relation": "A < B <= C", "atol": atol, "rtol": rtol}
    vals = {"A": o, "B": t, "C": lo}
    assert evaluate("order", oc, {"values": vals}) == evaluate(
        "order", oc, {"values": {k: exact(v) for k, v in vals.items()}}
    )


def test_orders_with_a_tie_tolerance_over_numbers_and_estimates():
    strict = {"relation": "RR < OLH", "atol": 0.0, "rtol": 0.0, "tie": 1e-9}
    weak = {"relation": "RR <= OLH", "atol": 0.0, "rtol": 0.0, "tie": 1e-9}
    tie = {"values": {"RR": 0.587743, "OLH": 0.587743 + 1e-14}}  # equal up to rounding (synthesis E4b)
    assert decide("order", strict, tie) == "reversed"  # a strict order that is a tie fails
    assert decide("order", weak, tie) == "holds"
    assert decide("order", {**strict, "tie": 0.0}, tie) == "holds"  # without the tolerance: decided by rounding
    # estimates, independent runs: the difference's interval against the tie tolerance
    a, b = from_se(1.0, 0.05), from_se(1.3, 0.05)
    assert decide("order", strict, {"values": {"RR": a, "OLH": b}}) == "holds"
    assert decide("order", strict, {"values": {"RR": a, "OLH": from_se(1.05, 0.05)}}) == "undecided"
    assert decide("order", strict, {"values": {"RR": b, "OLH": a}}) == "reversed"
    # paired runs: the paired difference decides, though the separate intervals overlap
    rng = np.random.default_rng(1)
    common = rng.normal(0, 1, 30)
    x, y = 5 + common + rng.normal(0, 0.05, 30), 5.1 + common + rng.normal(0, 0.05, 30)
    ex, ey = mean(x), mean(y)
    assert decide("order", strict, {"values": {"RR": ex, "OLH": ey}}) == "undecided"
    d = difference(y, x, paired=True)
    assert decide("order", strict, {"values": {"RR": ex, "OLH": ey}, "differences": {"OLH - RR": d}}) == "holds"
    assert decide("order", strict, {"values": {"RR": ex, "OLH": ey}, "differences": {"RR - OLH": C._neg(d)}}) == "holds"
    with pytest.raises(CriterionError, match="not differences of adjacent names"):
        decide("order", strict, {"values": {"RR": ex, "OLH": ey}, "differences": {"A - B": d}})


def test_not_by_runs_replaces_the_run_count_of_an_undecided_row(tmp_path, monkeypatch):
    why = "the error is set by the 579 users, all there are"
    r = _report(
        tmp_path,
        monkeypatch,
        Claim(
            "G",
            "gap above 0",
            source="derived",
            kind="range",
            lower=0.0,
            one_sided=True,
            where="Sec. 5",
            not_by_runs=why,
        ),
        Claim(
            "H",
            "gap above 0 too",
            source="derived",
            kind="range",
            lower=0.0,
            one_sided=True,
            where="Sec. 5",
            not_by_runs=why,
        ),
    )
    r.range("G", Estimate(0.3, -0.1, 0.7, n_runs=40, method="t"))  # undecided
    r.range("H", Estimate(0.3, 0.1, 0.5, n_runs=40, method="t"))  # holds: nothing to say
    r.finalize()
    rows = _rows(tmp_path)
    g = rows["G"]
    assert g["status"] == "undecided" and g["runs_to_decide"]["not_by_runs"] == why
    assert g["runs_to_decide"]["runs"] == 72 and rows["H"]["runs_to_decide"] is None
    assert "more runs would not decide it" in r.to_html() and "runs would decide (estimate)" not in r.to_html()
    assert verify_row(g) == [] and verify_row(rows["H"]) == []
    bad = {**g, "runs_to_decide": {**g["runs_to_decide"], "not_by_runs": " "}}
    assert any("needs an undecided row and a reason" in p for p in verify_row(bad))
    with pytest.raises(CriterionError, match="not_by_runs belongs to a statistical row"):
        Claim("X", "x", source="derived", kind="holds", rule="a > 0", where="Sec. 5", not_by_runs=why)


def test_report_records_estimates_undecided_and_runs_to_decide(tmp_path, monkeypatch):
    r = _report(
        tmp_path,
        monkeypatch,
        Claim(
            "T19M",
            "similar utility at the MLE",
            source="derived",
            kind="range",
            upper=1.5,
            one_sided=True,
            where="Sec. 7.6",
            domain=(0, None),
            effect=0.1,
        ),
        Claim("C1", "close", **CLOSE),
        Claim("O1", "RR below OLH", source="extension", kind="order", relation="RR < OLH", tie=1e-9, where="Sec. 6"),
    )
    r.range("T19M", Estimate(1.578, 1.43, 1.73, n_runs=100, method="bootstrap-bca"))
    r.close("C1", _est(1.52, 1.45, 1.58))
    r.order("O1", {"RR": from_se(1.0, 0.05, n_runs=20), "OLH": from_se(1.3, 0.05, n_runs=20)})
    r.finalize()
    rows = _rows(tmp_path)
    t = rows["T19M"]
    assert t["status"] == "undecided" and "undecided" in t["flags"] and t["ours"] == 1.578
    assert t["estimate"]["low"] == 1.43 and t["runs_to_decide"] == {"factor": 3.600263, "runs": 361, "cells": 1}
    assert r.counts()["undecided"] == 1 and r.counts()["pass"] == 2 and "1 undecided" in r.status_markdown()
    assert "runs would decide" in r.to_html() and "1.578 [1.43, 1.73]" in r.to_html()
    assert rows["O1"]["estimate"]["OLH"]["value"] == 1.3
    for row in rows.values():
        assert set(row) == set(KEYS) and verify_row(row) == [], verify_row(row)
    # the falsifier of an estimate row is a possible measurement: finite, in the domain
    f = t["falsifier"]["ours"]
    assert all(math.isfinite(f[k]) and f[k] >= 0 for k in ("value", "low", "high"))


def test_undecided_is_never_a_pass_and_does_not_stop_the_build(tmp_path, monkeypatch):
    r = _report(tmp_path, monkeypatch, Claim("C1", "close", **CLOSE), scale="book")
    r.close("C1", _est(1.58, 1.5, 1.66))
    r.finalize()  # undecided is shown, not raised
    assert r.rows["C1"]["status"] == "undecided" and r.counts()["pass"] == 0


def test_legacy_z_rows_keep_working():
    crit = {"target": 5.0, "atol": 0.0, "rtol": 0.0, "z": 3.0}
    assert row_status("close", crit, {"ours": 5.2, "se": 0.1}, "pass") == "pass"
    assert row_status("close", crit, {"ours": 5.4, "se": 0.1}, "pass") == "fail"
    assert "deprecated" in Claim.__doc__


# ----------------------------------------------------------------------------- power
def test_power_of_a_legacy_z_row_matches_simulation():
    """P(pass | falsifier) of |ours - t| <= atol + z se, by the normal approximation and by
    simulating the row's own rule."""
    crit = {"target": 0.52, "atol": 0.005, "rtol": 0.0, "z": 3.0}
    nums = {"ours": 0.523, "se": 0.002}
    pw = power("close", crit, nums, "pass")
    theta = pw["falsifier_truth"]
    assert theta == pytest.approx(0.52 + 0.01) or theta == pytest.approx(0.52 - 0.01)
    rng = np.random.default_rng(2)
    sim = rng.normal(theta, 0.002, 200_000)
    freq = np.mean(np.abs(sim - 0.52) <= 0.005 + 3 * 0.002)
    assert pw["pass_probability"] == pytest.approx(freq, abs=0.005) and pw["weak"] == (freq > 0.2)
    # with no tolerance the falsifier is the target itself: the rule passes there: a weak test
    weak = power("close", {"target": 0.0, "atol": 0.0, "rtol": 0.0, "z": 3.0}, {"ours": 0.1, "se": 0.1}, "pass")
    assert weak["weak"] and weak["pass_probability"] > 0.99
    strong = power(
        "close", {"target": 0.0, "atol": 0.0, "rtol": 0.0, "z": 3.0, "effect": 1.0}, {"ours": 0.1, "se": 0.1}, "pass"
    )
    assert not strong["weak"] and strong["pass_probability"] < 1e-6


def test_power_of_an_interval_row_matches_simulation():
    """The row's own estimator (t interval of 20 runs) at the falsifier truth: the frequency of
    'pass' against the computed probability."""
    crit = {"lower": 10.0, "upper": None, "effect": 0.3}
    rng = np.random.default_rng(3)
    x = rng.normal(11.0, 1.0, 20)
    pw = power("range", crit, {"ours": mean(x, method="t")}, "pass")
    assert pw["falsifier_truth"] == pytest.approx(9.7) and not pw["weak"]
    sims = rng.normal(9.7, 1.0, (20, 20000))
    freq = np.mean(C._decide_region(mean(sims, method="t"), 10.0, None) == "holds")
    assert abs(freq - pw["pass_probability"]) < 0.01
    # a diverging row: the falsifier is inside the region
    pwd = power("range", {"lower": None, "upper": 1.5}, {"ours": _est(1.7, 1.6, 1.8)}, "diverges")
    assert pwd["falsifier_truth"] == pytest.approx(1.5) and pwd["pass_probability"] < 0.05


def test_a_weak_row_is_flagged_in_the_json_and_the_report(tmp_path, monkeypatch):
    r = _report(
        tmp_path,
        monkeypatch,
        Claim("Z1", "MC equals exact", source="invariant", kind="close", reference=0.0, z=4.0, where="Thm 1"),
        Claim(
            "Z2",
            "MC equals exact within 0.5",
            source="invariant",
            kind="close",
            reference=0.0,
            z=4.0,
            effect=0.5,
            where="Thm 1",
        ),
    )
    r.close("Z1", 0.01, se=0.02)
    r.close("Z2", 0.01, se=0.02)
    r.finalize()
    rows = _rows(tmp_path)
    assert rows["Z1"]["status"] == "pass" and "weak test" in rows["Z1"]["flags"]
    assert rows["Z2"]["status"] == "pass" and rows["Z2"]["flags"] == []
    assert "1 weak test" in r.status_markdown() and "weak test" in r.to_html()
    assert verify_row(rows["Z1"]) == [] and verify_row(rows["Z2"]) == []
    bad = {**rows["Z1"], "flags": []}
    assert any("weak test" in p for p in verify_row(bad))


# ----------------------------------------------------------------------------- domains, consequences
def test_a_threshold_the_measurement_cannot_miss_is_refused():
    with pytest.raises(CriterionError, match="cannot fail"):
        Claim(
            "R", "non-negative", source="derived", kind="range", lower=0.0, one_sided=True, where="x", domain=(0, None)
        )
    with pytest.raises(CriterionError, match="cannot fail"):
        Claim(
            "P",
            "a probability near one half",
            source="derived",
            kind="close",
            reference=0.5,
            atol=0.6,
            where="x",
            domain=(0, 1),
        )
    Claim(
        "P",
        "a probability above 0.1",
        source="derived",
        kind="range",
        lower=0.1,
        one_sided=True,
        where="x",
        domain=(0, 1),
    )
    with pytest.raises(CriterionError, match="domain"):
        Claim("P", "x", source="derived", kind="range", lower=0.1, one_sided=True, where="x", domain=(1, 0))
    # the falsifier search respects the domain: no NaN, no negative count
    crit = {"lower": 0.0, "upper": 5.0, "domain": [0.0, None]}
    f = falsify("range", crit, {"ours": 3.0}, "pass")
    assert math.isfinite(f["ours"]) and f["ours"] > 5.0
    with pytest.raises(CriterionError, match="domain"):
        falsify("holds", {"rule": "n >= 0", "domain": [0.0, None]}, {"n": 3.0}, "pass")


def test_a_consequence_of_another_row_is_not_counted(tmp_path, monkeypatch):
    r = _report(
        tmp_path,
        monkeypatch,
        Claim("A", "premise", **CLOSE),
        Claim("B", "consequence", source="derived", kind="range", lower=1.0, one_sided=True, where="x", implied_by="A"),
        Claim(
            "B2",
            "consequence that fails",
            source="derived",
            kind="range",
            lower=2.0,
            one_sided=True,
            where="x",
            implied_by="A",
        ),
    )
    r.close("A", 1.52)
    r.range("B", 1.52)
    r.range("B2", 1.52)
    r.finalize()
    rows = _rows(tmp_path)
    assert rows["B"]["status"] == "implied" and rows["B2"]["status"] == "fail"
    assert r.counts()["pass"] == 1 and r.counts()["implied"] == 1 and "not counted" in r.status_markdown()
    assert all(verify_row(x) == [] for x in rows.values())
    with pytest.raises(CriterionError, match="not in the table"):
        claim_table(
            Claim("B", "x", source="derived", kind="range", lower=1.0, one_sided=True, where="x", implied_by="Z")
        )
    with pytest.raises(CriterionError, match="another claim"):
        Claim("B", "x", source="derived", kind="range", lower=1.0, one_sided=True, where="x", implied_by="B")


# ----------------------------------------------------------------------------- decision log
_H7 = CriterionChange(
    "ba5225d",
    "2025-01-15",
    "paper",
    {"kind": "range", "lower": 10.0, "upper": None},
    "a bare threshold on the smallest of noisy ratios: replaced by a bound at 95 %",
)


def test_a_changed_criterion_shows_both_statuses(tmp_path, monkeypatch):
    r = _report(
        tmp_path,
        monkeypatch,
        Claim(
            "H7",
            "drastically decreased (10x)",
            source="derived",
            kind="range",
            lower=8.0,
            one_sided=True,
            where="Sec. 4.4",
            changes=(_H7,),
        ),
    )
    r.range("H7", 9.5)
    r.finalize()
    row = _rows(tmp_path)["H7"]
    assert row["status"] == "pass" and "criterion changed" in row["flags"]
    (c,) = row["changes"]
    assert c["status"] == "fail" and c["commit"] == "ba5225d" and c["seen"] == "paper" and "noisy" in c["reason"]
    assert "criterion changed at ba5225d" in r.to_html() and "1 criterion changed" in r.status_markdown()
    assert verify_row(row) == []
    assert any("gives 'fail'" in p for p in verify_row({**row, "changes": [{**c, "status": "pass"}]}))
    assert any("flag" in p for p in verify_row({**row, "flags": []}))


def test_a_change_of_kind_that_cannot_be_evaluated_says_so(tmp_path, monkeypatch):
    ch = CriterionChange(
        "abc1234",
        "2025-02-01",
        "book",
        {"kind": "holds", "rule": "min_ratio >= 10"},
        "the rule named a number the row no longer records",
    )
    r = _report(
        tmp_path,
        monkeypatch,
        Claim("H", "x", source="derived", kind="range", lower=8.0, one_sided=True, where="x", changes=(ch,)),
    )
    r.range("H", 9.0)
    r.finalize()
    row = _rows(tmp_path)["H"]
    assert row["changes"][0]["status"].startswith("not evaluable") and verify_row(row) == []


@pytest.mark.parametrize(
    "kw, match",
    [
        (dict(commit="xyz"), "commit"),
        (dict(date="15/01/2025"), "date"),
        (dict(seen="draft"), "seen"),
        (dict(reason="why"), "reason"),
        (dict(was={"kind": "bogus"}), "earlier criterion"),
        (dict(was={"kind": "range", "lower": float("nan")}), "finite"),
    ],
)
def test_criterion_changes_are_validated(kw, match):
    base = dict(
        commit="ba5225d",
        date="2025-01-15",
        seen="paper",
        was={"kind": "range", "lower": 10.0},
        reason="what was seen and why",
    )
    with pytest.raises(CriterionError, match=match):
        CriterionChange(**{**base, **kw})


# ----------------------------------------------------------------------------- refusals
@pytest.mark.parametrize(
    "crit",
    [{"atol": float("inf")}, {"rtol": float("inf")}, {"atol": float("nan")}, {"atol": -1.0}, {"z": float("inf")}],
)
def test_evaluate_refuses_tolerances_that_pass_anything(crit):
    with pytest.raises(CriterionError, match="finite"):
        evaluate("close", {"target": 1.0, "atol": 0.0, "rtol": 0.0, **crit}, {"ours": 1e300, "se": 1.0})
    with pytest.raises(CriterionError, match="finite"):
        row_status(
            "order", {"relation": "a < b", "atol": 0.0, "rtol": 0.0, **crit}, {"values": {"a": 1, "b": 0}}, "pass"
        )
    with pytest.raises(CriterionError, match="finite"):
        evaluate("monotone", {"direction": "increasing", "tol": float("inf")}, {"ys": [3, 2, 1]})


@pytest.mark.parametrize(
    "kw, match",
    [
        (dict(kind="range", lower=float("nan"), upper=1.0), "finite"),
        (dict(kind="range", lower=0.0, upper=float("nan")), "finite"),
        (dict(kind="range", lower=2.0, upper=1.0), "inverted"),
        (dict(kind="range", lower=[0.0, 3.0], upper=[1.0, 2.0]), "inverted"),
        (dict(kind="range", lower=[], upper=[]), "empty"),
        (dict(kind="holds", rule="1 == 1"), "names no number"),
        (dict(kind="holds", rule="True"), "names no number"),
        (dict(kind="holds", rule="x == x or True"), "cannot fail"),
        (dict(kind="holds", rule="len(x) >= 0"), "cannot fail"),
        # constant in its names: the same expression on both sides, or true on every finite number
        (dict(kind="holds", rule="a == a"), "with itself"),
        (dict(kind="holds", rule="a <= a"), "with itself"),
        (dict(kind="holds", rule="max(x) >= max(x) and y > 0"), "with itself"),
        (dict(kind="holds", rule="a - a == 0"), "every finite value"),
        (dict(kind="holds", rule="abs(a) >= 0"), "every finite value"),
        (dict(kind="holds", rule="a + b == b + a"), "every finite value"),
        (dict(kind="holds", rule="a < inf"), "every finite value"),
        (dict(kind="diverges_instead", instead="a == a"), "with itself"),
        (dict(kind="order", relation="a < b", tie=float("inf")), "finite"),
        (dict(kind="range", lower=0.0, one_sided=True, tie=1e-9), "tie"),
    ],
)
def test_declarations_that_cannot_fail_or_never_hold_are_refused(kw, match):
    if kw.get("kind") == "diverges_instead":  # the `instead` of a diverging row is checked the same way
        kw = dict(kind="holds", rule="a > 0", expect="diverges", instead=kw["instead"], note="why")
    with pytest.raises(CriterionError, match=match):
        Claim("X", "x", source="derived", where="x", **kw)


@pytest.mark.parametrize(
    "rule", ["isfinite(a)", "a < 1e7", "a > -1e7", "abs(a - b) <= 0.1", "all(isfinite(x)) and x[0] > 0", "a < b"]
)
def test_rules_that_can_fail_on_finite_numbers_are_accepted(rule):
    Claim("X", "x", source="derived", where="x", kind="holds", rule=rule)


def test_tables_scales_and_folders_are_checked(tmp_path):
    with pytest.raises(CriterionError, match="at least one claim"):
        claim_table()
    with pytest.raises(CriterionError, match="scale"):
        Claim("X", "x", **CLOSE).criterion("huge")
    with pytest.raises(FileNotFoundError, match="nowhere"):
        load_reports(tmp_path / "nowhere")
    (tmp_path / "file").write_text("[]")
    with pytest.raises(NotADirectoryError, match="file"):
        load_reports(tmp_path / "file")


def test_a_claim_not_declared_at_this_scale_is_a_no_op(tmp_path, monkeypatch):
    r = _report(tmp_path, monkeypatch, Claim("B1", "book only", scales=("book", "paper"), **CLOSE))
    r.close("B1", 99.0)  # a wrong number: never evaluated at smoke scale
    assert "B1" not in r.rows
    r.finalize()
    assert _rows(tmp_path)["B1"]["status"] == "not-evaluated"


# ----------------------------------------------------------------------------- verify_row, tested
def _non_falsifying_rows():
    """Rows whose falsifier does not make them fail: one per kind and expectation."""
    crit = {"target": 1.0, "atol": 0.1, "rtol": 0.0, "z": None}
    rows = []
    base = {"kind": "close", "criterion": crit, "numbers": {"ours": 1.02}, "expect": "pass", "status": "pass"}
    rows.append({**base, "id": "P", "falsifier": {"ours": 1.05}})  # passes
    rows.append(
        {
            **base,
            "id": "D",
            "expect": "diverges",
            "status": "diverges",
            "numbers": {"ours": 1.5},
            "falsifier": {"ours": 1.6},
        }
    )  # diverges
    est = {"ours": _est(1.02, 0.98, 1.06).to_dict()}
    rows.append({**base, "id": "U", "numbers": est, "falsifier": {"ours": _est(1.1, 1.0, 1.2).to_dict()}})  # undecided
    rows.append(
        {
            **base,
            "id": "N",
            "criterion": {"lower": 0.0, "upper": 1.0, "domain": [0.0, 1.0]},
            "kind": "range",
            "numbers": {"ours": 0.5},
            "falsifier": {"ours": -3.0},
        }
    )  # outside the domain
    return rows


def _catches_non_falsifiers(verify) -> bool:
    return all(verify(row) for row in _non_falsifying_rows())


def test_verify_row_flags_a_falsifier_that_does_not_falsify():
    assert _catches_non_falsifiers(verify_row)


def test_the_verify_row_mutant_of_the_audit_is_killed():
    """The audit's surviving mutant N6 (``fstatus != "fail"`` -> ``fstatus not in ("fail", "pass",
    "diverges")``) and its siblings accept a falsifier that does not falsify: the check above
    tells them from verify_row."""
    src = inspect.getsource(C.verify_row)
    mutants = [
        src.replace('if fstatus != "fail":', 'if fstatus not in ("fail", "pass", "diverges", "undecided"):'),
        src.replace('if fstatus != "fail":', "if False:"),
    ]
    for m in mutants:
        assert m != src
        ns = dict(vars(C))
        exec(compile(m, "<mutant>", "exec"), ns)
        assert not _catches_non_falsifiers(ns["verify_row"])


def test_json_rows_round_trip_and_statuses_are_known(tmp_path, monkeypatch):
    r = _report(tmp_path, monkeypatch, Claim("C1", "close", **CLOSE))
    r.close("C1", Estimate([1.5, 1.52], [1.45, 1.48], [1.55, 1.56], n_runs=10, method="hall"))
    r.finalize()
    text = (tmp_path / "reproduction" / "demo.json").read_text()
    row = json.loads(text)[0]
    assert row["status"] in STATUSES and row["estimate"]["value"] == [1.5, 1.52] and verify_row(row) == []


# ----------------------------------------------------------------------------- record, text, docs
def test_record_dispatches_by_declared_kind(tmp_path, monkeypatch):
    r = _report(
        tmp_path,
        monkeypatch,
        Claim("C1", "close", **CLOSE),
        Claim("R1", "range", source="derived", kind="range", lower=0.0, upper=1.0, where="x"),
        Claim("O1", "order", source="derived", kind="order", relation="a < b", tie=1e-9, where="x"),
        Claim("M1", "mono", source="derived", kind="monotone", direction="increasing", where="x"),
        Claim("H1", "rule", source="invariant", kind="holds", rule="v == 0", where="x"),
        Claim("N1", "none", source="derived", kind="none", expect="not-evaluated", note="no data", where="x"),
        Claim("B1", "book only", scales=("book",), **CLOSE),
    )
    out = r.record(
        {
            "C1": _est(1.52, 1.45, 1.58),
            "R1": {"ours": 0.5, "note": "a note"},
            "O1": {"a": 1.0, "b": 2.0},
            "M1": [1, 2, 3],
            "H1": {"v": 0},
            "N1": None,
            "B1": 1e9,
            "_text": {"n": "1,000"},
        }
    )
    assert out is None  # the "_text" values are glued, nothing shown
    r.finalize()
    st = {k: v["status"] for k, v in _rows(tmp_path).items()}
    assert st == {
        "C1": "pass",
        "R1": "pass",
        "O1": "pass",
        "M1": "pass",
        "H1": "pass",
        "N1": "not-evaluated",
        "B1": "not-evaluated",
    }
    with pytest.raises(KeyError, match="not declared"):
        r.record({"nope": 1.0})


def test_text_is_a_no_op_outside_a_kernel_and_checks_names(tmp_path, monkeypatch):
    r = _report(tmp_path, monkeypatch, Claim("C1", "close", **CLOSE))
    assert r.text(n_users="1,000", ratio=_est(1.5, 1.4, 1.6)) is None
    with pytest.raises(ValueError, match="glue name"):
        r.text(**{"bad name": 1})


def test_the_contributing_example_runs(tmp_path, monkeypatch):
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text[text.index("## Monte Carlo claims") :]
    code = section[section.index("```python") + len("```python") :]
    code = code[: code.index("```")]
    monkeypatch.setenv("LDPNB_BUILD_DIR", str(tmp_path))
    ns: dict = {}
    exec(compile(code, "CONTRIBUTING.md", "exec"), ns)
    rows = _rows(tmp_path)
    assert rows["T19M"]["estimate"]["method"] == "bootstrap-bca" and rows["T19M"]["status"] in STATUSES
    assert rows["E4b"]["status"] == "pass" and rows["E4b"]["changes"][0]["status"] == "pass"
    assert "criterion changed" in rows["E4b"]["flags"]
    assert all(verify_row(x) == [] for x in rows.values())


def test_dashboard_filters_flags(tmp_path, monkeypatch):
    import pandas as pd

    from ldpnb.repro import dashboard

    r = _report(
        tmp_path,
        monkeypatch,
        Claim("Z1", "MC equals exact", source="invariant", kind="close", reference=0.0, z=4.0, where="x"),
        Claim("C1", "close", **CLOSE),
        Claim("H7", "x", source="derived", kind="range", lower=8.0, one_sided=True, where="x", changes=(_H7,)),
    )
    r.close("Z1", 0.01, se=0.02)
    r.close("C1", _est(1.58, 1.5, 1.66))
    r.range("H7", 9.5)
    r.finalize()
    monkeypatch.setattr(dashboard, "paper_scale_records", lambda *a: {})
    frame = dashboard.claims_frame(tmp_path / "reproduction")
    assert list(dashboard.flagged(frame, "weak test")["id"]) == ["Z1"]
    assert list(dashboard.flagged(frame, "undecided")["id"]) == ["C1"]
    assert list(dashboard.flagged(frame, "criterion changed")["id"]) == ["H7"]
    assert frame.loc[frame["id"] == "C1", "runs to decide"].item() != ""
    by_chapter, _ = dashboard.summary_tables(frame, fmt="html")
    assert "undecided" in by_chapter and "implied" not in by_chapter
    assert isinstance(frame, pd.DataFrame)
    with pytest.raises(ValueError, match="flag"):
        dashboard.flagged(frame, "bogus")


@pytest.mark.parametrize("crit", [{"rule": "a == a"}, {"rule": "abs(a) >= 0"}, {"rule": "a > 0", "instead": "b <= b"}])
def test_low_level_functions_refuse_constant_rules(crit):
    # a caller of evaluate / row_status / falsify with a rule that cannot fail on a finite number is
    # refused as Claim refuses it at declaration (they evaluated it before)
    nums = {"a": -1.0, "b": 1.0}
    calls = [lambda: row_status("holds", crit, nums, "diverges" if "instead" in crit else "pass")]
    if "instead" not in crit:  # evaluate decides the rule only
        calls.append(lambda: evaluate("holds", crit, nums))
    for call in calls:
        with pytest.raises(CriterionError, match="cannot fail"):
            call()


def test_estimate_and_claim_refusals_name_the_argument():
    """Fuzz (issue #40): Estimate(low=NaN) and from_dict(None), Claim(where=3) and Claim(scales=None) were
    refused with messages that named no argument (an AttributeError and a TypeError for the claim)."""
    with pytest.raises(ValueError, match="^low: "):
        Estimate([1.0], [np.nan], [2.0])
    with pytest.raises(ValueError, match="^high: "):
        Estimate([1.0], [0.5], [None])
    with pytest.raises(TypeError, match="^d must be"):
        Estimate.from_dict(None)
    with pytest.raises(ValueError, match="^d is not"):
        Estimate.from_dict({"a": 1})
    with pytest.raises(CriterionError, match="where must be a string"):
        Claim("C1", "close", **{**CLOSE, "where": 3})
    with pytest.raises(CriterionError, match="scales must be"):
        Claim("C1", "close", **{**CLOSE, "scales": None})
