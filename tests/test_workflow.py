"""The GitHub Actions workflow (``.github/workflows/book.yml``): it runs ``.ci/run`` on pushes and pull
requests, ``.ci/run`` runs the README's commands, and a push to main publishes ``_build/html`` to
GitHub Pages with the official actions (the Jupyter Book documentation's recipe)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "book.yml"


def _workflow() -> dict:
    flow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    flow["on"] = flow.pop(True, flow.get("on"))  # YAML 1.1 reads the key `on` as True
    return flow


def _readme_commands() -> list[str]:
    """The commands of the README's "Two commands" block (``make book``, ``make test``)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Two commands", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    return [line.split("#")[0].strip() for line in block.splitlines() if line.strip().startswith("make ")]


def test_the_workflow_runs_ci_on_pushes_and_pull_requests():
    flow = _workflow()
    assert "push" in flow["on"] and "pull_request" in flow["on"]
    steps = flow["jobs"]["build"]["steps"]
    assert any(s.get("run", "").strip() == ".ci/run" for s in steps), "the build job does not run .ci/run"
    assert any(s.get("uses", "").startswith("actions/checkout@") for s in steps)


def test_ci_runs_the_readme_commands():
    commands = _readme_commands()
    assert sorted(commands) == ["make book", "make test"], commands
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    for command in commands:
        assert command in ci, f".ci/run does not run the README's `{command}`"


def test_a_push_to_main_publishes_the_html_to_pages():
    flow = _workflow()
    steps = flow["jobs"]["build"]["steps"]
    upload = [s for s in steps if s.get("uses", "").startswith("actions/upload-pages-artifact@")]
    assert len(upload) == 1 and upload[0]["with"]["path"] == "_build/html"
    deploy = flow["jobs"]["deploy"]
    assert deploy["needs"] == "build" and "refs/heads/main" in deploy["if"]
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["environment"]["name"] == "github-pages"
    assert any(s.get("uses", "").startswith("actions/deploy-pages@") for s in deploy["steps"])
    assert flow["permissions"] == {"contents": "read"}, "the default token is read-only; deploy asks for more"
