"""The paper-scale runner (:mod:`ldpnb.repro.paperscale`): chapters as separate single-thread processes,
longest first, and a parallel run writes the same records as a serial one (proved on real chapters at
smoke scale, every row compared)."""

import json
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
