"""Synthesis chapter: the sentences the chapter glues into its prose from its own results (the
matched-comparison verdict and the reading guide), so that every number in them is recomputed."""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from ldpnb.contracts import Instance, contract
from ldpnb.papers.synthesis import experiments as ex

__all__ = ["ibu_better", "ibu_better_count", "matched_verdict", "reading_guide"]

_TABLE = Instance(dict, example={})
_NAMES = Instance(list, tuple, example=["k-RR"])


@contract(table=_TABLE, names=_NAMES)
def ibu_better(table: Mapping[str, Mapping[str, float]], names: Sequence[str]) -> list[str]:
    """The mechanisms of ``names`` whose EMD after IBU beats INV's by more than 2 paired SE, ties at
    float noise excluded (:func:`~ldpnb.papers.synthesis.experiments.wins`)."""
    return ex.wins(ex.ibu_advantage(dict(table), list(names)), list(names))[0]


@contract(table=_TABLE, names=_NAMES)
def ibu_better_count(table: Mapping[str, Mapping[str, float]], names: Sequence[str]) -> str:
    """``"<m> of <n>"``: how many of ``names`` IBU estimates better (:func:`ibu_better`)."""
    return f"{len(ibu_better(table, names))} of {len(names)}"


@contract(ref=_TABLE, at_mi=_TABLE, at_emd=_TABLE, geo=_NAMES, g_mi=_TABLE, g_emd=_TABLE)
def matched_verdict(
    ref: Mapping[str, float],
    at_mi: Mapping[str, Mapping[str, float]],
    at_emd: Mapping[str, Mapping[str, float]],
    geo: Sequence[str],
    g_mi: Mapping[str, np.ndarray],
    g_emd: Mapping[str, np.ndarray],
) -> str:
    """The verdict of the matched comparison (rows M1-M4): the metric mechanisms ``geo`` against k-RR
    (``ref``) at k-RR's information (``at_mi``, gaps ``g_mi``) and at its utility (``at_emd``, ``g_emd``)."""
    n_better = int((g_mi["upper"] < 0).sum())
    n_less = int((g_emd["mi_gap"] < 0).sum())
    n_lift = int((g_emd["lift_gap"] < 0).sum())
    best_m = geo[int(np.argmin(g_mi["upper"]))]
    ng = len(geo)
    return (
        f"At equal information, {n_better} of {ng} metric mechanisms estimate better than "
        f"k-RR by more than 2 SE (M1; the least unfavourable is {best_m}, EMD "
        f"{at_mi[best_m]['emd_ibu']:.4f} against {ref['emd_ibu']:.4f}), and every one pays "
        f"with a larger ε-LDP level on X, from {min(at_mi[n]['ldp'] for n in geo):.2f} to "
        f"{max(at_mi[n]['ldp'] for n in geo):.2f} (M2). At equal utility, {n_less} of {ng} "
        f"release less information than k-RR's {ref['mi']:.3f} bits (M3), and {n_lift} of "
        f"{ng} leak less about the secret than k-RR's {ref['lift_ldp']:.3f} nats (M4)."
    )


def reading_guide(A: Mapping[str, Mapping[str, float]], facts: Mapping[str, str]) -> str:
    """The chapter's guide to choosing a mechanism, as a Markdown table (one row per question), from
    the lens table ``A`` of Adult at the operating point and the sentences ``facts`` the chapter
    computed from its rows (keys: ``oracle``, ``rule``, ``estimator``, ``task``, ``secret``,
    ``joint``, ``metric``)."""
    rows = [
        ("Which frequency oracle, for a histogram?", facts["oracle"], "V1-V3, W1-W2, G2, guide table"),
        ("GRR or a unary/hash oracle?", facts["rule"], "W1, W2, KB1"),
        ("Does n or the data change the answer?", facts["n_data"], "V3, G1"),
        ("IBU or the standard estimator?", facts["estimator"], "E1-E3, E2b-E2d, A23"),
        ("Top-k or range queries instead of the histogram?", facts["task"], "T1, T2, CM1"),
        ("Protecting a secret S while releasing X?", facts["secret"], "E6, D1-D7"),
        ("Metric mechanisms or k-RR?", facts["metric"], "M1-M4, E8, E8b"),
        ("Estimating a joint distribution?", facts["joint"], "S3"),
    ]
    head = "| Question | Answer (measured) | Rows |\n|---|---|---|\n"
    return head + "\n".join(f"| {q} | {a} | {r} |" for q, a, r in rows)


def discordant_table(disc, why, A):
    """The discordant pairs of row K3 as a :class:`pandas.DataFrame`: the two mechanisms, their
    I(X;Y) (bits) and EMD after IBU (bins), and the cause (rank < k, one metric mechanism, neither)."""
    import pandas as pd  # noqa: PLC0415 lazy: optional dependency

    cause = {}
    for key, label in (("rank", "a channel of rank < 12"), ("metric", "one metric mechanism"), ("other", "neither")):
        for pair in why[key]:
            cause[pair] = label
    rows = [
        {
            "mechanism A": a,
            "I(X;Y) A": f"{A[a]['mi']:.3g}",
            "EMD A": f"{A[a]['emd_ibu']:.3g}",
            "mechanism B": b,
            "I(X;Y) B": f"{A[b]['mi']:.3g}",
            "EMD B": f"{A[b]['emd_ibu']:.3g}",
            "cause (K3)": cause.get((a, b), ""),
        }
        for a, b in disc
    ]
    return pd.DataFrame(rows)


def guide_facts(guide_df, res, A, gains, t2, tasks, hh, rank12, wang, rank_changes, e6, degenerate) -> dict[str, str]:
    """The answers of the guide's table (:func:`reading_guide`), each computed from the rows it names."""
    ke = guide_df.drop_duplicates(["k", "ε"])
    counts = ke["best (unbiased)"].value_counts()
    best_list = ", ".join(f"{n} in {c}" for n, c in counts.items())
    top3 = list(rank12)[:3]
    oracle = (
        f"For an unbiased histogram the best oracle depends on (k, ε) only; over the grid's "
        f"{len(ke)} pairs it is {best_list} (exact MSE; runners-up within 10 % in the table). "
        f"At k = 12, ε = 1: {top3[0]}, then {top3[1]} ({rank12[top3[1]] / rank12[top3[0]]:.2f}×), "
        f"{top3[2]} ({rank12[top3[2]] / rank12[top3[0]]:.2f}×)."
    )
    rule = (
        f"GRR below k = 3e^ε + 2 (Wang et al.), exactly below k* (a little smaller): the rule errs on "
        f"{wang['in_band']} of {wang['checked']} (k, ε) pairs, all inside the band. k-RR wins at ε = ln k, "
        f"RAPPOR at ε = 0.1, for every k ≥ 8."
    )
    n_data = (
        f"Not for the unbiased estimate. After projection onto the simplex the best oracle is outside the "
        f"unbiased best-within-10 % and better by more than 10 % in {rank_changes['changed']} of "
        f"{rank_changes['checked']} cells; {rank_changes['pairs_differ']} of {rank_changes['pairs']} (k, ε) pairs "
        f"have different clear winners at different (n, data)."
    )
    g = {n: v for n, v in gains["gain"].items()}
    lo, hi = gains["eps"][0], gains["eps"][-1]
    pct = lambda v: f"{100 * v:+.0f} %"  # noqa: E731
    estimator = (
        f"Metric mechanisms: IBU (beats the inverse beyond 2 SE for most, never significantly worse: "
        f"E1, E3). Frequency oracles: the standard estimate is the baseline; IBU to its optimum on the whole "
        f"channel changes the squared error by {pct(min(v[0] for v in g.values()))} to "
        f"{pct(max(v[0] for v in g.values()))} at ε = {lo:g} and {pct(min(v[-1] for v in g.values()))} to "
        f"{pct(max(v[-1] for v in g.values()))} at ε = {hi:g} on Adult (gains; IBU on support counts gains "
        f"less). An early stop is a regulariser, not a better estimator."
    )
    task = (
        f"Yes, the answer can change: the histogram's best oracle loses the top-10 task beyond 2 SE in "
        f"{tasks['disagree']} of {tasks['cells']} cells; for ranges of half of Adult's ages "
        f"{t2['swaps']} pairs of oracles swap places (GRR's and SS's errors cancel over long ranges)."
        + f" At the grid's largest k and n, ε ≥ 2, the best top-10 precision is at least "
        f"{min(hh['best_precision'], default=float('nan')):.2f} (CM1)."
    )
    secret = (
        f"Lift-based mechanisms (AORR releases {A['AORR']['mi']:.2f} bits about X within a 0.5-nat ALIP "
        f"budget) protect S but not X: at k-RR's measured leakage about S their V(X|Y) is at least "
        f"{e6['lift']:.2f}, against at most {e6['LDP']:.2f} for the 1-LDP mechanisms (E6)."
    )
    deg = ", ".join(degenerate) or "none"
    metric = (
        f"k-RR: at equal information it estimates better than every metric mechanism (M1), and at equal "
        f"estimation they release more (M3). BA releases the least information at a given distortion (E8), but "
        f"at k-RR's information every metric mechanism's distortion exceeds a constant report's, where BA "
        f"reports a constant (E8b); at 1-LDP it is degenerate ({deg})."
    )
    joint = (
        f"Not SMP, RS+FD or RS+RFD: their channels have rank 6 of 12 (S3; EMD {A['SMP']['emd_ibu']:.3f} bins for SMP)."
    )
    return {
        "oracle": oracle,
        "rule": rule,
        "n_data": n_data,
        "estimator": estimator,
        "task": task,
        "secret": secret,
        "metric": metric,
        "joint": joint,
    }
