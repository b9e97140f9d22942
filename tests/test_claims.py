"""The claims machinery: typed criteria, provenance, falsifiers, the report and its JSON."""

import json

import numpy as np
import pytest

from ldpnb.repro.claims import Claim, CriterionError, Printed, claim_table, evaluate, falsify, row_status, verify_row
from ldpnb.repro.report import KEYS, Report, ReproductionFailure, load_reports
from ldpnb.repro.seeds import rng_for, seed_for


def _table():
    return claim_table(
        Claim(
            "T3",
            "PIE of pseudonymisation (nats)",
            source="paper",
            kind="close",
            paper=Printed(2.07, "Cor. 3.9"),
            atol=0.005,
        ),
        Claim("R1", "ratio about one half", source="paper", kind="range", paper=Printed((0.4, 0.6), "Sec. 4.2")),
        Claim(
            "O1",
            "IBU beats INV-N and INV-P",
            source="paper",
            kind="order",
            paper=Printed("IBU < INV", "Fig. 9"),
            relation="IBU < INV-N <= INV-P",
        ),
        Claim(
            "M1",
            "loss decreases with eps",
            source="paper",
            kind="monotone",
            paper=Printed("decreasing", "Fig. 10"),
            direction="decreasing",
        ),
        Claim(
            "H1",
            "no violation of Thm 4.2",
            source="invariant",
            kind="holds",
            where="Thm 4.2",
            rule="violations == 0 and instances >= 100",
        ),
        Claim(
            "E1",
            "erratum",
            source="paper",
            kind="close",
            paper=Printed(227.28, "Sec. 8"),
            atol=0.01,
            expect="diverges",
            instead="abs(ours - 277.28) <= 0.01",
            note="a typo: 227 for 277",
        ),
        Claim(
            "N1",
            "biometric FRR",
            source="paper",
            kind="none",
            paper=Printed(0.05, "Fig. 7"),
            expect="not-evaluated",
            note="no public data",
        ),
        Claim(
            "B1",
            "book only",
            source="derived",
            kind="close",
            reference=1.0,
            where="Eq. (22)",
            rtol=0.1,
            scales=("book", "paper"),
        ),
    )


def test_report_roundtrip_and_falsifiers(tmp_path, monkeypatch):
    monkeypatch.setenv("LDPNB_BUILD_DIR", str(tmp_path))
    r = Report("demo", _table(), scale="smoke")
    assert r.close("T3", 2.072) is None  # nothing for Jupyter to display
    r.range("R1", 0.45)
    r.order("O1", {"IBU": [0.1, 0.2], "INV-N": [0.3, 0.4], "INV-P": [0.3, 0.5]})
    r.monotone("M1", [3.0, 2.0, 1.0])
    r.holds("H1", violations=0, instances=300)
    r.close("E1", 277.281)
    r.finalize()
    rows = load_reports(tmp_path / "reproduction")["demo"]
    assert [x["id"] for x in rows] == ["T3", "R1", "O1", "M1", "H1", "E1", "N1", "B1"]
    st = {x["id"]: x["status"] for x in rows}
    assert st == {
        "T3": "pass",
        "R1": "pass",
        "O1": "pass",
        "M1": "pass",
        "H1": "pass",
        "E1": "diverges",
        "N1": "not-evaluated",
        "B1": "not-evaluated",
    }
    for x in rows:
        assert set(x) == set(KEYS)
        assert verify_row(x) == []
    assert rows[0]["paper"] == 2.07 and rows[0]["source"] == "paper" and rows[0]["where"] == "Cor. 3.9"


def test_json_is_byte_stable(tmp_path, monkeypatch):
    def run(d):
        monkeypatch.setenv("LDPNB_BUILD_DIR", str(d))
        r = Report("demo", _table(), scale="smoke")
        rng = rng_for(7, "x")
        r.close("T3", 2.07 + rng.normal(0, 1e-3))
        r.range("R1", 0.5)
        r.order("O1", {"IBU": 0.1, "INV-N": 0.2, "INV-P": 0.3})
        r.monotone("M1", np.array([3.0, 2.0]))
        r.holds("H1", violations=np.int64(0), instances=300)
        r.close("E1", 277.28)
        r.timing("run", 1.234)
        r.finalize()
        return (d / "reproduction" / "demo.json").read_bytes()

    assert run(tmp_path / "a") == run(tmp_path / "b")


def test_failures_raise_at_book_scale_and_every_claim_must_appear(tmp_path, monkeypatch):
    monkeypatch.setenv("LDPNB_BUILD_DIR", str(tmp_path))
    r = Report("demo", _table(), scale="book")
    r.close("T3", 3.0)
    with pytest.raises(ReproductionFailure, match="never recorded"):
        r.finalize()
    r = Report("demo", _table(), scale="book")
    r.close("T3", 3.0)
    r.range("R1", 0.5)
    r.order("O1", {"IBU": 0.1, "INV-N": 0.2, "INV-P": 0.3})
    r.monotone("M1", [2.0, 1.0])
    r.holds("H1", violations=0, instances=300)
    r.close("E1", 227.28)  # the divergence is not reproduced: the paper's value holds
    r.close("B1", 1.05)
    with pytest.raises(ReproductionFailure, match="T3, E1"):
        r.finalize()


def test_recording_rules(tmp_path, monkeypatch):
    monkeypatch.setenv("LDPNB_BUILD_DIR", str(tmp_path))
    r = Report("demo", _table(), scale="smoke")
    with pytest.raises(KeyError, match="not declared"):
        r.close("nope", 1.0)
    with pytest.raises(TypeError, match="kind 'range'"):
        r.close("R1", 0.5)
    r.close("T3", 2.07)
    with pytest.raises(ValueError, match="twice"):
        r.close("T3", 2.07)
    with pytest.raises(ValueError, match="criterion"):
        r.not_evaluated("O1")


@pytest.mark.parametrize(
    "kw, match",
    [
        (dict(source="paper", kind="close", reference=1.0, where="x"), "Printed"),
        (dict(source="derived", kind="close", where="x"), "numeric target"),
        (dict(source="derived", kind="close", reference=1.0, where=""), "where"),
        (dict(source="derived", kind="close", reference=1.0, where="x", atol=float("inf")), "finite"),
        (dict(source="derived", kind="close", reference=1.0, where="x", rtol=-1), "finite"),
        (dict(source="derived", kind="range", lower=0.6, where="x"), "one_sided"),
        (dict(source="derived", kind="order", relation="A", where="x"), "two named"),
        (dict(source="derived", kind="monotone", direction="up", where="x"), "direction"),
        (dict(source="derived", kind="holds", rule="__import__('os')", where="x"), "not allowed|only calls"),
        (dict(source="derived", kind="close", reference=1.0, where="x", expect="diverges"), "note"),
        (dict(source="derived", kind="none", where="x"), "not-evaluated"),
        (dict(source="guess", kind="close", reference=1.0, where="x"), "source"),
        (dict(source="calibration", kind="close", reference=1.0, where="x"), "calibrat"),
    ],
)
def test_declarations_are_validated(kw, match):
    with pytest.raises(CriterionError, match=match):
        Claim("X1", "a claim", **kw)


def test_a_criterion_that_cannot_fail_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("LDPNB_BUILD_DIR", str(tmp_path))
    # a tautology is refused at declaration now (it was refused when recorded, by the falsifier search)
    with pytest.raises(CriterionError, match="cannot fail"):
        Claim("H", "tautology", source="invariant", kind="holds", where="x", rule="x == x or True")
    # a rule that only a NaN can break cannot fail on a finite measurement: refused at declaration
    # too (it was refused only when recorded, by the falsifier search)
    with pytest.raises(CriterionError, match="with itself"):
        Claim("H", "finite", source="invariant", kind="holds", where="x", rule="x == x", domain=(0, None))
    with pytest.raises(CriterionError, match="every finite value"):
        Claim("H", "finite", source="invariant", kind="holds", where="x", rule="x - x == 0")
    # ... and the honest way to claim finiteness is accepted, and fails when recorded on a NaN
    t = claim_table(Claim("H", "finite", source="invariant", kind="holds", where="x", rule="isfinite(x)"))
    r = Report("demo", t, scale="smoke")
    r.holds("H", x=float("nan"))
    assert r.rows["H"]["status"] == "fail"


@pytest.mark.parametrize(
    "kind, crit, nums",
    [
        ("close", {"target": [1.0, 2.0], "atol": 0.1, "rtol": 0.0, "z": None}, {"ours": [1.05, 2.0]}),
        ("close", {"target": 5.0, "atol": 0.0, "rtol": 0.0, "z": 3.0}, {"ours": 5.2, "se": 0.1}),
        ("range", {"lower": 0.0, "upper": 1.0}, {"ours": [0.2, 0.9]}),
        ("range", {"lower": None, "upper": 10.0}, {"ours": 3.0}),
        ("order", {"relation": "a >= b > c", "atol": 0.0, "rtol": 0.05}, {"values": {"a": 3.0, "b": 2.0, "c": 1.0}}),
        ("monotone", {"direction": "increasing", "strict": True, "tol": 0.0}, {"ys": [1, 2, 3]}),
        ("monotone", {"direction": "decreasing", "strict": False, "tol": 0.5}, {"ys": [3, 3.2, 1]}),
        ("holds", {"rule": "max(abs(d)) <= 1e-9 and n > 0"}, {"d": [0.0, 1e-12], "n": 5}),
    ],
)
def test_every_kind_passes_and_is_falsified(kind, crit, nums):
    assert evaluate(kind, crit, nums)
    f = falsify(kind, crit, nums, "pass")
    assert not evaluate(kind, crit, f)
    assert row_status(kind, crit, f, "pass") == "fail"


def test_rules_see_named_values():
    crit = {"rule": "IBU < INV_N", "relation": None}
    assert evaluate("holds", crit, {"values": {"IBU": 1.0, "INV-N": 2.0}})


def test_seed_streams_are_named_and_independent():
    a = rng_for(2024, "fig10").random(3)
    b = rng_for(2024, "fig10").random(3)
    c = rng_for(2024, "fig11").random(3)
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    assert seed_for(2024, "x").entropy == [2024, __import__("zlib").crc32(b"x")]
    with pytest.raises(ValueError):
        rng_for(-1, "x")
    with pytest.raises(ValueError):
        rng_for(1, "")


def test_rendered_table_has_anchors_and_maths(tmp_path, monkeypatch):
    monkeypatch.setenv("LDPNB_BUILD_DIR", str(tmp_path))
    t = claim_table(
        Claim("T1", "capacity $C = \\log 2$", source="paper", kind="close", paper=Printed(1.0, "Eq. (3)"), atol=0.1)
    )
    r = Report("demo", t, scale="smoke")
    r.close("T1", 1.0)
    h = r.to_html()
    assert 'id="claim-demo-T1"' in h and r"\(C = \log 2\)" in h and 'class="reproduction-report"' in h
    assert "[T1]" not in r.status_markdown()  # passing rows are not listed among the exceptions


def test_a_failed_timing_row_is_shown_but_does_not_stop_the_build(tmp_path, monkeypatch):
    """Timing claims (volatile) measure the machine running the build: a miss is reported as 'fail'
    in the row and the status line, and only the non-volatile failures raise."""
    monkeypatch.setenv("LDPNB_BUILD_DIR", str(tmp_path))
    table = claim_table(
        Claim(
            "S1",
            "SRR is at least 10x faster",
            source="paper",
            kind="range",
            paper=Printed((10, None), "Sec. V"),
            one_sided=True,
            volatile=True,
        ),
        Claim("X1", "exact", source="invariant", kind="holds", where="Eq. 1", rule="err <= 1e-12"),
    )
    r = Report("demo", table, scale="book")
    r.range("S1", 3.0)
    r.holds("X1", err=0.0)
    r.finalize()  # no exception: only the timing row failed
    assert r.rows["S1"]["status"] == "fail" and "1 fail" in r.status_markdown()
    r = Report("demo", table, scale="book")
    r.range("S1", 3.0)
    r.holds("X1", err=1.0)
    with pytest.raises(ReproductionFailure, match=r"1 claim\(s\) failed .*: X1$"):
        r.finalize()


def test_paper_runs_table_flags_stale_records_and_sums_reference_units():
    """The dashboard's paper-scale table: one row per chapter, a record whose claim ids differ from the
    chapter's is stale, a chapter without a record is 'not run', each row names its machine, and the last
    row sums the reference units, never the wall minutes of loaded runs nor CPU minutes of different
    machines (issue #41: the old total summed wall minutes)."""
    import pandas as pd

    from ldpnb.repro.dashboard import paper_runs_table

    claims = pd.DataFrame({"chapter": ["a", "a", "b", "c"], "id": ["x", "y", "z", "w"]})
    rec = {
        "a": {
            "commit": "0123456789",
            "started": "2026-11-24T10:00:00+00:00",
            "duration_s": 120.0,
            "n_jobs": "2",
            "peak_rss_mb": 500.4,
            "counts": {"pass": 2},
            "rows": [{"id": "x"}, {"id": "y"}],
            "cpu_s": 200.0,
            "cpu_reference_units": 270.4,
            "machine": {"cpu": "AMD EPYC", "cores": 2},
        },
        "b": {
            "commit": "abc",
            "duration_s": 6000.0,
            "cpu_reference_units": 99.0,  # without CPU seconds: not a cost
            "peak_rss_mb": 900.0,
            "counts": {"pass": 1},
            "rows": [{"id": "z"}, {"id": "old"}],
        },
    }
    t = paper_runs_table(claims, rec).set_index("chapter")
    assert t.loc["a", "claim ids"] == "match" and t.loc["a", "commit"] == "01234567" and t.loc["a", "minutes"] == 2.0
    assert t.loc["b", "claim ids"].startswith("stale (1 differ")
    assert t.loc["c", "commit"] == "not run"
    assert t.loc["a", "CPU minutes"] == 3.3 and pd.isna(t.loc["b", "CPU minutes"])  # older records have none
    assert t.loc["a", "machine"] == "AMD EPYC" and t.loc["a", "reference units"] == 270
    assert pd.isna(t.loc["b", "reference units"])
    total = t.loc["all (serial sum)"]
    assert total["reference units"] == 270 and pd.isna(total["minutes"]) and pd.isna(total["CPU minutes"])
    assert total["peak MB"] == 900


def test_plain_math_reads_inline_tex():
    from ldpnb.repro.dashboard import plain_math

    assert (
        plain_math(r"against $\beta_{U|S} \le 1$, $n_{pk}\in\{0.1n, 0.5n\}$") == "against β_U|S ≤ 1, n_pk∈{0.1n, 0.5n}"
    )
    assert plain_math(r"$n = 1{,}370$ and $|\mathcal X|$, $\log\Psi(x)$") == "n = 1,370 and |X|, log Ψ(x)"
    assert plain_math("no math, 5 %") == "no math, 5 %"


def test_paper_figures_round_trip(tmp_path):
    """A glued figure of an executed notebook is exported with its caption (glued text filled in,
    cross-references numbered) and shown by the dashboard with a link to the book-scale figure."""
    import base64
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import nbformat

    from ldpnb.repro.dashboard import paper_figures_html
    from ldpnb.repro.paperscale import export_figures

    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    png = base64.b64encode(buf.getvalue()).decode()
    rec = "application/papermill.record/"
    nb = nbformat.v4.new_notebook()
    code = nbformat.v4.new_code_cell("glue(...)")
    code.outputs = [
        nbformat.v4.new_output(
            "display_data", data={rec + "image/png": png}, metadata={"scrapbook": {"name": "ch-a", "mime_prefix": rec}}
        ),
        nbformat.v4.new_output(
            "display_data", data={"image/png": png}, metadata={"scrapbook": {"name": "ch-b", "mime_prefix": ""}}
        ),
        nbformat.v4.new_output(
            "display_data",
            data={rec + "text/plain": "'20'"},
            metadata={"scrapbook": {"name": "ch-runs", "mime_prefix": rec}},
        ),
    ]
    md = nbformat.v4.new_markdown_cell(
        "```{glue:figure} ch-a\n:name: fig-ch-a\n:alt: x\n\nMean of {glue:text}`ch-runs` runs, $\\epsilon = "
        "1$.\n```\n\n"
        "```{glue:figure} ch-b\n:name: fig-ch-b\n\nAs {numref}`fig-ch-a`, {cite}`key`.\n```\n"
    )
    nb.cells = [code, md]
    ex = tmp_path / "ch.ipynb"
    nbformat.write(nb, ex)
    root = tmp_path / "root"
    out = root / "results" / "paper" / "figures"
    index = export_figures("ch", ex, out=out)
    assert [f["name"] for f in index] == ["ch-a", "ch-b"]
    assert index[0]["caption"] == "Mean of 20 runs, $\\epsilon = 1$." and index[0]["label"] == "fig-ch-a"
    assert index[1]["caption"] == "As Figure 1, [key]."
    assert (out / "ch" / "ch-a.png").stat().st_size > 0
    (root / "results" / "paper" / "ch.json").write_text(
        json.dumps({"commit": "abcdef123", "started": "2026-11-24T10:00", "duration_s": 600})
    )
    page = paper_figures_html(root)
    assert page.count("<figure") == 2 and "Mean of 20 runs, ε = 1." in page and page.count("caption-number") == 2
    assert 'href="ch.html#fig-ch-b"' in page and "abcdef12" in page and "10 min" in page and "Figure 2." in page


def test_paperscale_records_a_run_stopped_by_failing_rows(tmp_path, monkeypatch):
    """A chapter whose report was written but which then stopped on a failing row is recorded with its rows,
    its error and its CPU time (the record of multidim_risks at ef43245 had to be assembled by hand)."""
    import json as _json
    import subprocess as _sp

    from ldpnb.repro import paperscale as ps

    monkeypatch.setattr(ps, "WORK", tmp_path / "work")
    monkeypatch.setattr(ps, "OUT", tmp_path / "out")
    monkeypatch.setattr(ps, "export_figures", lambda name, src, *a, **k: [])
    monkeypatch.setattr("ldpnb.repro.build.notebook_chapters", lambda: ["toy"])
    rows = [{"id": "A", "status": "pass"}, {"id": "B", "status": "fail"}]

    def fake_run(cmd, **kw):
        rep = ps.WORK / "reproduction"
        rep.mkdir(parents=True, exist_ok=True)
        (rep / "toy.json").write_text(_json.dumps(rows))
        out = _json.dumps({"rc": 1, "maxrss_kb": 2048, "cpu_s": 12.34})
        return _sp.CompletedProcess(
            cmd, 1, stdout="log\n" + out + "\n", stderr="ReproductionFailure: 1 claim(s) failed"
        )

    monkeypatch.setattr(ps.subprocess, "run", fake_run)
    refs = iter([{"cpu_s": 1.0, "wall_s": 1.5}, {"cpu_s": 3.0, "wall_s": 4.0}])
    monkeypatch.setattr(ps, "reference_workload", lambda: next(refs))
    assert ps.main(["--only", "toy"]) == 1
    rec = _json.loads((tmp_path / "out" / "toy.json").read_text())
    assert rec["rows"] == rows and rec["counts"] == {"pass": 1, "fail": 1}
    assert "ReproductionFailure" in rec["error"] and rec["cpu_s"] == 12.3 and rec["peak_rss_mb"] == 2.0
    # the reference workload before and after: the run's CPU in its units (12.34 / mean(1, 3))
    assert rec["reference"]["start"]["cpu_s"] == 1.0 and rec["reference"]["end"]["cpu_s"] == 3.0
    assert rec["cpu_reference_units"] == 6.2

    # a run that stopped before writing its report leaves no record
    (tmp_path / "out" / "toy.json").unlink()
    (ps.WORK / "reproduction" / "toy.json").unlink()
    monkeypatch.setattr(
        ps.subprocess,
        "run",
        lambda cmd, **kw: _sp.CompletedProcess(
            cmd, 1, stdout=_json.dumps({"rc": 1, "maxrss_kb": None, "cpu_s": 1.0}), stderr="boom"
        ),
    )
    monkeypatch.setattr(ps, "reference_workload", lambda: {"cpu_s": 1.0, "wall_s": 1.0})
    assert ps.main(["--only", "toy"]) == 1
    assert not (tmp_path / "out" / "toy.json").exists()


@pytest.mark.parametrize("text", ['{"commit": "abc", "dur', "[1, 2]", "\udcff"])
def test_a_corrupted_paper_scale_record_is_named(tmp_path, text):
    """Was a bare JSONDecodeError / UnicodeDecodeError (or, for a list, an AttributeError in the table)
    that did not say which record it read."""
    from ldpnb.repro.dashboard import paper_scale_records

    d = tmp_path / "results" / "paper"
    d.mkdir(parents=True)
    (d / "ch.json").write_text(text, errors="surrogateescape")
    with pytest.raises(ValueError, match=r"ch\.json is not a paper-scale record"):
        paper_scale_records(tmp_path)


@pytest.mark.parametrize(
    "kw, match",
    [
        (dict(kind="order", relation="A < A"), "names a quantity twice"),
        (dict(kind="order", relation="A <= B <= A"), "names a quantity twice"),
        (dict(kind="range", lower=5.0, upper=6.0, domain=(0, 1)), "can never pass"),
        (dict(kind="range", lower=-2.0, upper=-1.0, domain=(0, None)), "can never pass"),
        (dict(kind="range", lower=[0.2, 1.5], upper=[0.5, 2.0], domain=(0, 1)), "can never pass"),
        (dict(kind="close", reference=1.5, atol=0.1, domain=(0, 1)), "can never pass"),
    ],
)
def test_criteria_that_can_never_pass_are_refused_at_declaration(kw, match):
    """An order comparing a quantity with itself does not depend on the numbers; a region disjoint from
    the measured quantity's domain never holds (both were accepted at declaration)."""
    with pytest.raises(CriterionError, match=match):
        Claim("X", "x", source="derived", where="x", **kw)
    ok = {**kw, "relation": "A < B"} if kw["kind"] == "order" else {**kw, "domain": (None, None)}
    Claim("X", "x", source="derived", where="x", **ok)  # the same criterion without the defect declares
