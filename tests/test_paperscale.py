"""The paper-scale runner (:mod:`ldpnb.repro.paperscale`): chapters as separate single-thread processes,
longest first, and a parallel run writes the same records as a serial one (proved on real chapters at
smoke scale, every row compared)."""

import json
import os
import subprocess

import pytest

from ldpnb.repro import paperscale as ps

#: the record fields that describe the run, not its results (times, loads, memory, the machine's speed)
RUN_FIELDS = {"started", "duration_s", "peak_rss_mb", "cpu_s", "load_average", "reference", "cpu_reference_units"}
#: two small chapters with many rows and random draws (audit: samplers; foundations: mechanisms, estimators)
SMALL = ["foundations", "audit"]


def test_longest_first_orders_by_recorded_wall_time_unknown_first(tmp_path):
    for ch, wall in {"a": 10.0, "b": 600.0, "c": 50.0}.items():
        (tmp_path / f"{ch}.json").write_text(json.dumps({"duration_s": wall}))
    (tmp_path / "broken.json").write_text("{")
    assert ps.longest_first(["a", "new", "c", "b", "broken"], tmp_path) == ["new", "broken", "b", "c", "a"]


def test_longest_first_on_the_committed_records_starts_with_the_longest():
    names = [n for n in ps.build.notebook_chapters() if n not in ps.NO_REPORT]
    order = ps.longest_first(names)
    walls = [
        json.loads((ps.OUT / f"{n}.json").read_text())["duration_s"] for n in order if (ps.OUT / f"{n}.json").exists()
    ]
    assert sorted(order) == sorted(names) and walls == sorted(walls, reverse=True)


def test_every_chapter_process_gets_one_thread(tmp_path, monkeypatch):
    """Thread counts set by the caller (e.g. OMP_NUM_THREADS=8) are overridden in the chapter's process."""
    seen = {}

    def fake_run(cmd, env=None, **kw):
        if env is None:  # git, for the commit
            return subprocess.CompletedProcess(cmd, 0, stdout="abc\n", stderr="")
        seen.update(env)
        return subprocess.CompletedProcess(
            cmd, 1, stdout=json.dumps({"rc": 1, "maxrss_kb": 1, "cpu_s": 0.0}), stderr="x"
        )

    for var in ps.SINGLE_THREAD:
        monkeypatch.setenv(var, "8")
    monkeypatch.setattr(ps.subprocess, "run", fake_run)
    monkeypatch.setattr(ps, "reference_workload", lambda: {"cpu_s": 1.0, "wall_s": 1.0})
    monkeypatch.delenv("LDPNB_N_JOBS", raising=False)
    rec = ps.run_one("foundations", {}, 60, "smoke", tmp_path)
    assert "error" in rec and rec["scale"] == "smoke" and "--scale smoke" in rec["command"]
    assert all(seen[v] == "1" for v in ps.SINGLE_THREAD)
    assert seen["LDPNB_BUILD_DIR"] == str(tmp_path) and "LDPNB_N_JOBS" not in seen and rec["n_jobs"] == "1"
    # a chapter's own workers: LDPNB_N_JOBS for that chapter only, in its record and its command
    seen.clear()
    rec = ps.run_one("foundations", {}, 60, "paper", tmp_path, workers=2)
    assert seen["LDPNB_N_JOBS"] == "2" and rec["n_jobs"] == "2" and "--workers foundations=2" in rec["command"]
    assert all(seen[v] == "1" for v in ps.SINGLE_THREAD)


def test_the_record_names_the_commit_read_before_the_chapter_ran(tmp_path, monkeypatch):
    """A commit made while a chapter runs (HEAD moves) is not named as the code the chapter ran."""
    heads = iter(["aaa\n", "", "bbb\n", ""])  # rev-parse and status, at the start then at the end

    def fake_run(cmd, env=None, **kw):
        if env is None:  # git
            return subprocess.CompletedProcess(cmd, 0, stdout=next(heads), stderr="")
        return subprocess.CompletedProcess(
            cmd, 1, stdout=json.dumps({"rc": 1, "maxrss_kb": 1, "cpu_s": 0.0}), stderr="x"
        )

    monkeypatch.setattr(ps.subprocess, "run", fake_run)
    monkeypatch.setattr(ps, "reference_workload", lambda: {"cpu_s": 1.0, "wall_s": 1.0})
    rec = ps.run_one("foundations", {}, 60, "smoke", tmp_path)
    assert rec["commit"] == "aaa" and rec["commit_at_end"] == "bbb"


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["--workers", "foundations=0"], "--workers"),
        (["--workers", "foundations"], "CHAPTER=N"),
        (["--workers", "nosuch=2"], "nosuch"),
    ],
)
def test_bad_workers_are_refused_in_one_line(argv, needle, capsys):
    with pytest.raises(SystemExit) as info:
        ps.main(argv)
    err = capsys.readouterr().err.strip()
    assert info.value.code == 2 and len(err.splitlines()) == 1 and needle in err, err


def test_a_smaller_scale_needs_its_own_output_folder(capsys):
    with pytest.raises(SystemExit) as info:
        ps.main(["--only", "foundations", "--scale", "smoke"])
    assert info.value.code == 2 and "--out" in capsys.readouterr().err


@pytest.mark.notebook
def test_serial_and_parallel_runs_write_the_same_records(tmp_path):
    """Two chapters at smoke scale, once with one chapter at a time and once with two at once: the same
    rows (ids, values, statuses, notes) and counts in every record; only the run's times differ."""
    recs = {}
    for jobs in (1, 2):
        out = tmp_path / f"jobs{jobs}"
        assert ps.main(["--only", *SMALL, "--scale", "smoke", "--out", str(out), "--jobs", str(jobs)]) == 0
        recs[jobs] = {ch: json.loads((out / f"{ch}.json").read_text()) for ch in SMALL}
        run = json.loads((out / "runs" / "last.json").read_text())
        assert run["jobs"] == jobs and sorted(run["order"]) == sorted(SMALL) and not run["failed"]
        assert run["order"] == ps.longest_first(SMALL)
    for ch in SMALL:
        serial, parallel = recs[1][ch], recs[2][ch]
        assert serial["scale"] == "smoke" and len(serial["rows"]) > 5
        assert len(serial["rows"]) == len(parallel["rows"])
        for a, b in zip(serial["rows"], parallel["rows"]):
            assert a == b, (ch, a["id"])
        assert {k: v for k, v in serial.items() if k not in RUN_FIELDS} == {
            k: v for k, v in parallel.items() if k not in RUN_FIELDS
        }


def test_a_chapters_raw_fits_are_named_in_its_record_and_kept_beside_it(tmp_path, monkeypatch):
    """A chapter that writes raw results beside its report (``<build>/fits/<chapter>.*.json``: the risks
    chapter's XGBoost fits) gets them named in its record and copied to ``<out>/fits/``, out of the records'
    ``*.json`` (which the dashboard reads as records); a file left by an earlier run is not taken."""
    monkeypatch.setattr(ps, "WORK", tmp_path / "work")
    monkeypatch.setattr(ps, "OUT", tmp_path / "out")
    monkeypatch.setattr(ps, "export_figures", lambda name, src, *a, **k: [])
    monkeypatch.setattr("ldpnb.repro.build.notebook_chapters", lambda: ["toy"])
    fits = {"fields": ["name", "acc"], "fits": [["xgb/ACS/fd/GRR/1/0/NK s=1n", 20.0]]}
    (ps.WORK / "fits").mkdir(parents=True)
    (ps.WORK / "fits" / "toy.old.json").write_text("{}")
    os.utime(ps.WORK / "fits" / "toy.old.json", (1.0, 1.0))  # left by an earlier run

    def fake_run(cmd, **kw):
        if kw.get("env") is None:  # git
            return subprocess.CompletedProcess(cmd, 0, stdout="abc\n", stderr="")
        (ps.WORK / "reproduction").mkdir(parents=True, exist_ok=True)
        (ps.WORK / "reproduction" / "toy.json").write_text(json.dumps([{"id": "A", "status": "pass"}]))
        (ps.WORK / "fits" / "toy.xgb.json").write_text(json.dumps(fits))
        return subprocess.CompletedProcess(
            cmd, 0, stdout=json.dumps({"rc": 0, "maxrss_kb": 1, "cpu_s": 1.0}), stderr=""
        )

    monkeypatch.setattr(ps.subprocess, "run", fake_run)
    monkeypatch.setattr(ps, "reference_workload", lambda: {"cpu_s": 1.0, "wall_s": 1.0})
    assert ps.main(["--only", "toy"]) == 0
    rec = json.loads((tmp_path / "out" / "toy.json").read_text())
    assert rec["fits_files"] == ["fits/toy.xgb.json"]
    assert json.loads((tmp_path / "out" / "fits" / "toy.xgb.json").read_text()) == fits
    assert not (tmp_path / "out" / "fits" / "toy.old.json").exists()
    assert sorted(p.name for p in (tmp_path / "out").glob("*.json")) == ["toy.json"]


def test_the_risks_fits_record_holds_every_fit_by_name(tmp_path, monkeypatch):
    """:func:`ldpnb.papers.risks.runs.save_xgb_fits`: one row per fit of the plan (a fit shared by two blocks
    once), its name and numbers as collected, None where a number was not recorded."""
    from ldpnb.papers.risks import runs, xgb

    plan = runs.xgb_plan(runs.sizes("smoke"), list(runs.sizes("smoke")["xgb"]), seed=1)
    res = [{"acc": 10.0 + i, "oracle": 20.0, "n_test": 100, "wins": i % 3, "cpu": 0.1} for i in range(len(plan))]
    cells = xgb.collect(plan, res)
    monkeypatch.setenv("LDPNB_BUILD_DIR", str(tmp_path))
    path = runs.save_xgb_fits([*plan, plan[0]], cells)
    assert path == tmp_path / "fits" / "multidim_risks.xgb.json"
    rec = json.loads(path.read_text())
    assert rec["fields"] == ["name", "acc", "oracle", "wins", "losses", "n_test"]
    assert len(rec["fits"]) == len(plan)
    assert rec["fits"][3] == [f"{plan[3].cell}/{plan[3].model}", 13.0, 20.0, 0.0, None, 100.0]
