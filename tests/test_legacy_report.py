import json

import numpy as np
import pytest

from ldpnb.repro.legacy import KEYS, Report, ReproductionFailure, load_reports


def test_statuses_are_computed(tmp_path, monkeypatch):
    monkeypatch.setenv("LDPNB_BUILD_DIR", str(tmp_path))
    r = Report("demo", scale="book")
    assert r.check_close("a", "close", 1.0, 1.0 + 1e-9, atol=1e-6).status == "pass"
    assert r.check_close("b", "far", 1.0, 1.1, rtol=0.01).status == "fail"
    assert r.check_close("c", "erratum", 2.07, 2.98, atol=0.01, expected=2.985, note="nats").status == "diverges"
    assert r.check_close("d", "erratum missed", 2.07, 3.5, atol=0.01, expected=2.985, note="nats").status == "fail"
    assert r.check("e", "ordering", "A < B", "0.1 < 0.2", passed=bool(0.1 < 0.2), tolerance="ordering").status == "pass"
    assert r.diverges("f", "paper claim", "LAP worse", "LAP better", "ordering", note="see text", holds=True).status == "diverges"
    assert r.not_evaluated("g", "biometric", 0.5, note="data not public").status == "not-evaluated"
    assert r.check_close("h", "nan", 1.0, np.nan, atol=1).status == "fail"
    with pytest.raises(ReproductionFailure, match="b, d, h"):
        r.finalize(display=False)
    rows = json.loads((tmp_path / "reproduction" / "demo.json").read_text())
    assert [set(x) for x in rows] == [set(KEYS)] * 8
    assert load_reports(tmp_path / "reproduction")["demo"][0]["status"] == "pass"


def test_smoke_scale_does_not_raise(tmp_path, monkeypatch):
    monkeypatch.setenv("LDPNB_BUILD_DIR", str(tmp_path))
    r = Report("demo", scale="smoke")
    r.check_close("b", "far", 1.0, 2.0, atol=0.1)
    r.finalize(display=False)


def test_rules():
    r = Report("demo", scale="smoke")
    with pytest.raises(ValueError, match="scale"):
        Report("demo", scale="huge")
    r.check_close("a", "x", 1, 1)
    with pytest.raises(ValueError, match="duplicate"):
        r.check_close("a", "x", 1, 1)
    with pytest.raises(ValueError, match="note"):
        r.not_evaluated("n", "x", 1, note="")
    with pytest.raises(ValueError, match="note"):
        r.check_close("e", "x", 1, 2, atol=0.1, expected=2)
    with pytest.raises(TypeError, match="computed"):
        r.check("p", "x", 1, 1, passed="yes", tolerance="?")
    with pytest.raises(ReproductionFailure, match="empty"):
        Report("empty", scale="smoke").finalize(display=False)


def test_numpy_values_are_serialised(tmp_path):
    r = Report("demo", scale="smoke")
    r.check_close("a", "x", np.float64(1.5), np.array([1.5, 1.5]), atol=0)
    r.check_close("b", "x", np.int64(3), np.int64(3))
    p = r.save(tmp_path / "x.json")
    rows = json.loads(p.read_text())
    assert rows[0]["ours"] == [1.5, 1.5] and rows[1]["paper"] == 3
    assert "<table" in r.to_html()
