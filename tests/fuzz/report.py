"""Tables of a fuzz run: ``python -m tests.fuzz.report _build/fuzz/<tag>.jsonl [--findings]``."""

from __future__ import annotations

import collections
import json
import sys
from pathlib import Path

OUTCOMES = (
    "clear",
    "unclear",
    "silent",
    "silent-nan",
    "hang",
    "crash",
    "declared-valid",
    "lenient",
    "mismatch",
    "documented",
    "huge-ok",
    "edge-ok",
    "edge-refused",
    "edge-unclear",
    "edge-nan",
)
BAD = ("silent", "silent-nan", "hang", "crash", "edge-nan")


def package(module: str) -> str:
    parts = module.split(".")
    if len(parts) > 2 and parts[1] == "papers":
        return ".".join(parts[1:3])
    return parts[1] if len(parts) > 1 else module


def summary(records: list[dict]) -> str:
    sigs = collections.Counter()
    rows: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    not_fuzzed = collections.Counter()
    for r in records:
        pkg = package(r.get("module") or r["qual"].rsplit(".", 1)[0])
        if r["outcome"] == "signature":
            sigs[pkg] += 1
        elif r["outcome"] in ("no-baseline", "not-fuzzed"):
            not_fuzzed[pkg] += 1
        elif r["outcome"] in OUTCOMES:
            rows[pkg][r["outcome"]] += 1
            rows[pkg]["inputs"] += 1
    head = ["package", "signatures", "not fuzzed", "inputs", *OUTCOMES]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    total = collections.Counter()
    for pkg in sorted(set(rows) | set(sigs) | set(not_fuzzed)):
        c = rows[pkg]
        total.update(c)
        total["signatures"] += sigs[pkg]
        total["not fuzzed"] += not_fuzzed[pkg]
        lines.append(
            "| "
            + " | ".join([pkg, str(sigs[pkg]), str(not_fuzzed[pkg]), str(c["inputs"]), *(str(c[o]) for o in OUTCOMES)])
            + " |"
        )
    lines.append(
        "| **total** | "
        + " | ".join(f"**{total[k]}**" for k in ["signatures", "not fuzzed", "inputs", *OUTCOMES])
        + " |"
    )
    return "\n".join(lines)


def findings(records: list[dict], outcomes=BAD) -> str:
    out = []
    for r in sorted(records, key=lambda r: (r["outcome"], r["qual"], r.get("param", ""))):
        if r["outcome"] in outcomes:
            res = r.get("result") or f"{r.get('exc', '')}: {r.get('msg', '')}"
            out.append(
                f"- `{r['outcome']}` {r['qual']} `{r.get('param')}` {r.get('label')}: "
                f"`{r.get('repro', '')}` -> {res[:140]}"
            )
    return "\n".join(out)


def owner(module: str) -> str:
    """The session that owns a module's file (for the findings by owner)."""
    if module.startswith(("ldpnb.mechanisms", "ldpnb.estimators", "ldpnb.channels", "ldpnb.audit.registry")):
        return "front-mech"
    if module.startswith("ldpnb.papers."):
        return "chapter " + module.split(".")[2]
    if module in ("ldpnb.repro.report", "ldpnb.repro.dashboard", "ldpnb.repro.sphinx_ext", "ldpnb.repro.nbcheck"):
        return "reader"
    if (
        module.startswith(
            (
                "ldpnb.repro.build",
                "ldpnb.repro.paperscale",
                "ldpnb.repro.toc",
                "ldpnb.repro.seeds",
                "ldpnb.repro.nbstrip",
            )
        )
        or module == "ldpnb.contracts"
    ):
        return "reliability"
    if module.startswith(("ldpnb.repro.claims", "ldpnb.stats")):
        return "stats (done)"
    return "front-core (done)"


def markdown(records: list[dict], title: str) -> str:
    """The results page: the table by package, the findings by owner with one-line reproductions, the
    names not fuzzed with why."""
    out = [f"## {title}", "", summary(records), ""]
    by_owner: dict[str, list[dict]] = collections.defaultdict(list)
    for r in records:
        if r["outcome"] in BAD:
            by_owner[owner(r.get("module") or r["qual"])].append(r)
    out += ["### Findings by owner (silent, silent-nan, hang, crash, edge-nan)", ""]
    for o in sorted(by_owner):
        rs = by_owner[o]
        c = collections.Counter(r["outcome"] for r in rs)
        out.append(
            f"<details><summary><b>{o}</b>: {len(rs)} ({', '.join(f'{v} {k}' for k, v in sorted(c.items()))})"
            "</summary>\n"
        )
        out.append(findings(rs))
        out.append("\n</details>\n")
    nf = [r for r in records if r["outcome"] in ("no-baseline", "not-fuzzed")]
    out += ["### Not fuzzed", "", f"{len(nf)} signatures, each with why:", "", "<details><summary>list</summary>\n"]
    out += [f"- {r['qual']}: {r['outcome']}: {r.get('msg', '')[:160]}" for r in sorted(nf, key=lambda r: r["qual"])]
    out.append("\n</details>\n")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    path = Path(argv[0])
    records = [json.loads(ln) for ln in path.read_text().splitlines() if ln.strip()]
    if "--markdown" not in argv:
        print(summary(records))
    if "--findings" in argv:
        print()
        print(findings(records))
    if "--unclear" in argv:
        print(findings(records, ("unclear",)))
    if "--markdown" in argv:
        print(markdown(records, argv[argv.index("--markdown") + 1]))
        return 0
    if "--not-fuzzed" in argv:
        for r in records:
            if r["outcome"] in ("no-baseline", "not-fuzzed"):
                print(f"- {r['qual']}: {r['outcome']}: {r.get('msg', '')[:200]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
