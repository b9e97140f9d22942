"""Synthesis chapter: the sentences and tables the chapter shows from its own results (the comparisons'
verdicts, the discordant pairs, the reading guide), so that every number in them is recomputed and
every "better" is decided from an interval (:mod:`ldpnb.stats`), never from a bare mean."""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import numpy as np

from ldpnb.contracts import Instance, Integer, Items, Real, contract
from ldpnb.stats import Estimate

__all__ = [
    "floor_text",
    "decided",
    "fmt",
    "matched_verdict",
    "reading_guide",
    "discordant_table",
    "guide_facts",
    "unplaced_text",
    "task_text",
    "projection_text",
    "early_text",
]

_MAP = Instance(dict, example={})
_NAMES = Items(Instance(str, example="k-RR"), complete=False)
_EST = Instance(Estimate, example=Estimate(1.0, 0.5, 1.5, n_runs=10, method="t"))


@contract(x=Real(), digits=Integer(0, 12))
def floor_text(x: float, digits: int = 3) -> str:
    """``x`` rounded *down* to ``digits`` decimals, for a lower bound stated as "at least" (0.8984 -> "0.898",
    never "0.90").

    >>> floor_text(0.8984)
    '0.898'
    """
    scale = 10**digits
    return f"{math.floor(x * scale) / scale:.{digits}f}"


@contract(diff=_EST, names=_NAMES, tie=Real(0.0, None))
def decided(diff: Estimate, names: Sequence[str], tie: float = 0.0) -> dict[str, list[str]]:
    """Split ``names`` by the interval of a difference (one cell per name): ``"above"`` (the interval
    lies above ``tie``), ``"below"`` (below ``-tie``) and ``"undecided"`` (across).

    >>> from ldpnb.stats import Estimate
    >>> decided(Estimate([1.0, -1.0, 0.1], [0.5, -2.0, -0.2], [2.0, -0.5, 0.3], method="t", n_runs=9), ["a", "b", "c"])
    {'above': ['a'], 'below': ['b'], 'undecided': ['c']}
    """
    lo, hi = np.atleast_1d(diff.low), np.atleast_1d(diff.high)
    out: dict[str, list[str]] = {"above": [], "below": [], "undecided": []}
    for n, a, b in zip(names, lo, hi):
        out["above" if a > tie else "below" if b < -tie else "undecided"].append(n)
    return out


@contract(e=_EST, digits=Instance(int, example=3))
def fmt(e: Estimate, digits: int = 3) -> str:
    """``value [low, high]`` of a one-cell estimate with ``digits`` significant digits.

    >>> from ldpnb.stats import Estimate
    >>> fmt(Estimate(0.1234, 0.1, 0.15, method="t", n_runs=5))
    '0.123 [0.1, 0.15]'
    """
    return e.text(digits)


_T1 = Instance(
    dict,
    example={
        "cell": ((64, 1.0, 1000, "Zipf"), "SS", "OLH"),
        "disagree": 0,
        "reach": 1,
        "pairs": 1,
        "degenerate": 0,
        "estimate": Estimate(0.0, -0.1, 0.1, method="t", n_runs=9),
    },
)
_G1 = Instance(
    dict,
    example={"ratio": Estimate(0.8, 0.7, 1.0, method="fieller", n_runs=9), "candidates": 1, "checked": 4, "cell": None},
)


@contract(t1=_T1, tie=Real(0.0, 1.0), short=Instance(bool, example=False))
def task_text(t1: Mapping[str, Any], tie: float = 0.02, *, short: bool = False) -> str:
    """The chapter's sentence on row T1 (heavy hitters against the histogram), by the row's outcome:
    some comparison's interval lies above ``tie`` (the answer changes with the task), every interval
    lies at or below it (it carries over), or neither (undecided at this scale).  ``t1`` is
    :func:`~ldpnb.papers.synthesis.guide.task_rankings`'s result; ``short`` gives the guide table's
    version.

    >>> from ldpnb.stats import Estimate
    >>> t1 = {"cell": ((64, 1.0, 1000, "Zipf"), "SS", "OLH"), "disagree": 0, "reach": 0, "pairs": 3,
    ...       "degenerate": 1, "estimate": Estimate(0.002, -0.004, 0.008, method="t", n_runs=9)}
    >>> print(task_text(t1, short=True))
    For the top 10 the histogram's best is within 0.02 of the best top-10 precision in every heavy-hitter cell (T1)
    """
    (k, e, n, d), b, o = t1["cell"]
    est = t1["estimate"]
    lo, hi = float(est.low), float(est.high)
    at = f"k = {k:,}, ε = {e:g}, n = {n:,}, {d} data"
    deg = (
        (
            f" ({t1['degenerate']} comparisons in which both oracles found the true top 10 in every run are left "
            f"out: no run separates them)"
        )
        if t1.get("degenerate")
        else ""
    )
    if lo > tie:
        if short:
            return (
                f"Yes, the answer can change: at {at} the histogram's best ({b}) finds the top 10 less often "
                f"than {o} (difference of precisions {fmt(est, 2)}, T1; {t1['disagree']} such pairs beyond "
                f"{tie:g} among {t1['pairs']})"
            )
        return (
            f"The histogram's answer does not always carry over to the top-10 task. At {at} the oracle with the "
            f"smallest histogram MSE, {b}, finds the true top 10 less often than {o}: the difference of their "
            f"mean precisions is {fmt(est, 2)} (95 % interval, simultaneous over every cell and oracle of the "
            f"grid; T1); {t1['disagree']} of {t1['pairs']} such comparisons exceed {tie:g}{deg}."
        )
    if hi <= tie:
        if short:
            return (
                f"For the top 10 the histogram's best is within {tie:g} of the best top-10 precision in every "
                f"heavy-hitter cell (T1)"
            )
        return (
            f"On this grid the histogram's answer carries over to the top-10 task: in none of the "
            f"{t1['pairs']} comparisons does another oracle find the true top 10 more often than the oracle "
            f"with the smallest histogram MSE by more than {tie:g} in mean precision (95 % intervals, "
            f"simultaneous over every cell and oracle of the grid; the one reaching highest is {o} against "
            f"{b} at {at}, {fmt(est, 2)}; T1){deg}."
        )
    if short:
        return (
            f"For the top 10, undecided at this scale: no oracle beats the histogram's best by more than "
            f"{tie:g} in precision beyond noise, and {t1['reach']} of {t1['pairs']} comparisons cannot rule "
            f"it out (T1)"
        )
    return (
        f"Whether the histogram's answer carries over to the top-10 task is undecided at this scale: in none "
        f"of the {t1['pairs']} comparisons does another oracle find the true top 10 more often than the "
        f"oracle with the smallest histogram MSE by more than {tie:g} in mean precision beyond noise, but "
        f"{t1['reach']} of them cannot rule it out (95 % intervals, simultaneous over every cell and oracle "
        f"of the grid; the one reaching highest is {o} against {b} at {at}, {fmt(est, 2)}; T1){deg}."
    )


@contract(g1=_G1, bound=Real(0.0, None))
def projection_text(g1: Mapping[str, Any], bound: float = 0.9) -> str:
    """The chapter's sentence on row G1 (projection onto the simplex changes the best oracle), by the
    row's outcome: the ratio of projected MSEs in the recorded cell lies below ``bound``, above it,
    or across it (undecided at this scale); ``g1`` is :func:`~ldpnb.papers.synthesis.guide.rank_changes`'s
    result.

    >>> from ldpnb.stats import Estimate
    >>> projection_text({"ratio": Estimate(0.83, 0.67, 1.03, method="fieller", n_runs=100), "candidates": 3,
    ...                  "checked": 720, "cell": None})[:60]
    'Projection onto the simplex puts a best oracle outside the u'
    """
    r, c = g1["ratio"], g1["candidates"]
    if c == 0:
        return (
            f"Projection onto the simplex never puts a best oracle outside the unbiased best-within-10 % in the "
            f"{g1['checked']} cells of the grid (G1)."
        )
    head = (
        f"Projection onto the simplex puts a best oracle outside the unbiased best-within-10 % in {c} of "
        f"{g1['checked']} cells; "
    )
    if float(r.high) <= bound:
        return head + f"there it gains more than {100 * (1 - bound):.0f} % (ratio of MSEs {fmt(r, 2)}, G1)."
    if float(r.low) > bound:
        return head + f"nowhere does it gain more than {100 * (1 - bound):.0f} % (ratio of MSEs {fmt(r, 2)}, G1)."
    return head + (
        f"whether it gains more than {100 * (1 - bound):.0f} % there is undecided at this scale (ratio of "
        f"MSEs {fmt(r, 2)}, G1)."
    )


@contract(e2c=_MAP, names=_NAMES, tie=Real(0.0, None))
def early_text(e2c: Mapping[str, Any], names: Sequence[str], tie: float = 1e-9) -> str:
    """The sentence on row E2c, by its intervals: IBU stopped by the IBU paper's rule (from the uniform
    start) against IBU run to its optimum, per oracle of ``names``: the early stop's mean EMD smaller
    beyond noise, larger, or undecided, and by how much (per cent of the optimum's mean EMD).  ``e2c`` is
    :func:`~ldpnb.papers.synthesis.comparisons.estimator_order`'s result with labels (early, converged).

    >>> from ldpnb.stats import Estimate
    >>> e = {"values": {"converged": Estimate([0.05, 0.04], [0.04, 0.03], [0.06, 0.05], method="t", n_runs=9)},
    ...      "differences": {"converged - early": Estimate([2e-4, 1e-4], [1e-4, -1e-4], [3e-4, 3e-4], method="t",
    ...                                                    n_runs=9)}}
    >>> t = early_text(e, ["a", "b"])
    >>> t.startswith("Stopped by the IBU paper's rule, IBU has a smaller mean EMD than at its optimum")
    True
    >>> t[t.index("2 oracles"):t.index("(E2c")]
    '2 oracles (a), a larger one for none and undecided for b '
    >>> t[t.index("the mean difference"):t.index("EMD).")]
    "the mean difference is 0.25 % to 0.40 % of the optimum's "
    """
    d = e2c["differences"]["converged - early"]
    conv = np.atleast_1d(np.asarray(e2c["values"]["converged"].value, dtype=float))
    rel = 100 * np.atleast_1d(np.asarray(d.value, dtype=float)) / conv
    split = decided(d, names, tie)
    n, k = len(names), len(split["above"])
    better = f"all {n} oracles" if k == n else f"{k} of {n} oracles ({_names(split['above'])})"
    rest = (
        "" if k == n else f", a larger one for {_names(split['below'])} and undecided for {_names(split['undecided'])}"
    )
    scope = (
        "This is a measured gain of the paper's stopping rule at this one setting, not of the maximum-likelihood "
        "estimate; no row tests it at other data, k or ε."
        if k
        else "No gain of the stopping rule is established at this setting."
    )
    return (
        f"Stopped by the IBU paper's rule, IBU has a smaller mean EMD than at its optimum beyond noise for "
        f"{better}{rest} (E2c: Adult at the operating point; the mean difference is {rel.min():.2f} % to "
        f"{rel.max():.2f} % of the optimum's EMD). {scope}"
    )


def _names(xs: Sequence[str]) -> str:
    xs = list(xs)
    return "none" if not xs else xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + " and " + xs[-1]


@contract(ref=_MAP, at_mi=_MAP, at_emd=_MAP, geo=_NAMES, m1=_MAP, gaps=_MAP)
def matched_verdict(
    ref: Mapping[str, float],
    at_mi: Mapping[str, Mapping[str, float]],
    at_emd: Mapping[str, Mapping[str, float]],
    geo: Sequence[str],
    m1: Mapping[str, Any],
    gaps: Mapping[str, np.ndarray],
) -> str:
    """The verdict of the matched comparison (rows M1-M4): the metric mechanisms ``geo`` against k-RR
    (``ref``) at k-RR's information (``at_mi``, the order ``m1`` of
    :func:`~ldpnb.papers.synthesis.comparisons.matched_order`) and at its utility (``at_emd``, the exact
    ``gaps`` of :func:`~ldpnb.papers.synthesis.experiments.matched_gaps`)."""
    d = m1["differences"]["kRR - metric"]
    split = decided(d, geo)
    worse = split["below"]
    n_less = int((gaps["mi_gap"] < 0).sum())
    n_lift = int((gaps["lift_gap"] < 0).sum())
    i = int(np.argmax(np.asarray(d.value)))
    ng, ne = len(geo), len(gaps["mi_gap"])
    return (
        f"At equal information, {len(split['above'])} of {ng} metric mechanisms estimate better than k-RR and "
        f"{len(worse)} of {ng} worse, beyond their 95 % intervals (M1; the least unfavourable is {geo[i]}, EMD "
        f"{at_mi[geo[i]]['emd_ibu']:.4f} against {ref['emd_ibu']:.4f}, difference {fmt(d[i])} bins), and every one "
        f"pays with a larger ε-LDP level on X, from {min(at_mi[n]['ldp'] for n in geo):.2f} to "
        f"{max(at_mi[n]['ldp'] for n in geo):.2f} (M2). At equal utility, {n_less} of {ne} release less "
        f"information than k-RR's {ref['mi']:.3f} bits (M3), and {n_lift} of {ne} leak less about the secret "
        f"than k-RR's {ref['lift_ldp']:.3f} nats (M4)."
    )


@contract(facts=_MAP)
def reading_guide(facts: Mapping[str, str]) -> str:
    """The chapter's guide to choosing a mechanism, as a Markdown table (one row per question), from
    the answers ``facts`` the chapter computed from its rows (:func:`guide_facts`)."""
    rows = [
        ("Which frequency oracle, for a histogram?", facts["oracle"], "V1-V3, W1-W2, G2, guide table"),
        ("GRR or a unary/hash oracle?", facts["rule"], "W1, W2, KB1"),
        ("Does n or the data change the answer?", facts["n_data"], "V3, G1, guide table"),
        ("IBU or the standard estimator?", facts["estimator"], "E1-E3, E2b-E2d, A23, A23b, A23s, A23w"),
        ("Top-k or range queries instead of the histogram?", facts["task"], "T1, T2, CM1"),
        ("Protecting a secret S while releasing X?", facts["secret"], "E6, D1-D7"),
        ("Metric mechanisms or k-RR?", facts["metric"], "M1-M4, E8, E8b"),
        ("Estimating a joint distribution?", facts["joint"], "S3"),
    ]
    head = "| Question | Answer (measured) | Rows |\n|---|---|---|\n"
    return head + "\n".join(f"| {q} | {a.replace('|', '/')} | {r} |" for q, a, r in rows)


@contract(disc=Instance(list, example=[]), why=_MAP, A=_MAP)
def discordant_table(disc: Sequence[tuple[str, str]], why: Mapping[str, list], A: Mapping[str, Mapping[str, float]]):
    """The discordant pairs of row K3 as a :class:`pandas.DataFrame`: the two mechanisms, their
    I(X;Y) (bits) and EMD after IBU (bins), and the cause (rank < k, one metric mechanism, neither)."""
    import pandas as pd  # noqa: PLC0415 lazy: pandas is needed only to show the table

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
    return pd.DataFrame(
        rows, columns=["mechanism A", "I(X;Y) A", "EMD A", "mechanism B", "I(X;Y) B", "EMD B", "cause (K3)"]
    )


@contract(unplaced=_MAP)
def unplaced_text(unplaced: Mapping[str, str]) -> str:
    """One sentence per family left out of a table, with its reason (Markdown list; "none" if empty)."""
    if not unplaced:
        return "none"
    return "\n".join(f"* **{n}**: {why}" for n, why in unplaced.items())


@contract(g=_MAP)
def guide_facts(g: Mapping[str, Any]) -> dict[str, str]:
    """The answers of the guide's table (:func:`reading_guide`), each computed from the rows it names.

    ``g`` holds: ``df`` (the guide table), ``rank12`` (exact ranking at k = 12, ε = 1), ``wang`` (W1/W2),
    ``g1`` (:func:`~ldpnb.papers.synthesis.guide.rank_changes`), ``e1``, ``e3`` (orders IBU < INV), ``e2``
    (ratios), ``e2c`` (the order early < converged) and ``oracles`` (its names), ``a23``
    (:func:`~ldpnb.papers.synthesis.comparisons.gain_estimates`), ``t1``, ``t2``, ``cm1``,
    ``e6``, ``m1`` and ``geo`` (the matched mechanisms), ``A`` (the Adult lens table), ``smp_emd``.
    """
    df = g["df"]
    ke = df.drop_duplicates(["k", "ε"])
    counts = ke["best (unbiased)"].value_counts()
    best_list = ", ".join(f"{n} in {c}" for n, c in counts.items())
    r12 = g["rank12"]
    top3 = list(r12)[:3]
    oracle = (
        f"For an unbiased histogram the best oracle depends on (k, ε) only; over the grid's {len(ke)} pairs it "
        f"is {best_list} (exact MSE; the runner-up and its ratio in the table). At k = 12, ε = 1: {top3[0]}, "
        f"then "
        f"{top3[1]} (×{r12[top3[1]] / r12[top3[0]]:.2f}), {top3[2]} (×{r12[top3[2]] / r12[top3[0]]:.2f})."
    )
    w = g["wang"]
    rule = (
        f"GRR below k = 3e^ε + 2 (Wang et al.), exactly below k* (a little smaller): the rule errs on "
        f"{w['in_band']} of {w['checked']} (k, ε) pairs, all inside the band. k-RR wins at ε = ln k, RAPPOR at "
        f"ε = 0.1, for every k ≥ 8."
    )
    dec = int((df["decided"] == "yes").sum())
    uns = int((df["not simulated"] != "—").sum()) if "not simulated" in df else 0
    uns_txt = f" ({uns} cells are undecided because some oracle was not simulated there)" if uns else ""
    g1 = g["g1"]
    n_data = (
        f"Not for the unbiased estimate. After projection onto the simplex the best oracle is decided (no "
        f"runner-up within noise) in {dec} of {len(df)} cells{uns_txt}. {projection_text(g1)}"
    )
    e1 = decided(g["e1"]["differences"]["INV - IBU"], g["geo_a"], 1e-9)
    e3 = decided(g["e3"]["differences"]["INV - IBU"], g["geo_g"], 1e-9)
    e2 = g["e2"]
    a23 = g["a23"]
    lo = np.atleast_1d(a23["support_low"].value)
    worse = (
        "none"
        if not (e1["below"] or e3["below"])
        else f"{_names(e1['below'])} on Adult and {_names(e3['below'])} on Gowalla"
    )
    estimator = (
        f"Metric mechanisms: IBU, which beats the inverse beyond noise for {len(e1['above'])} of "
        f"{len(g['geo_a'])} on Adult and {len(e3['above'])} of {len(g['geo_g'])} on Gowalla, and is "
        f"significantly worse for {worse} (E1, E3; undecided on Adult: {_names(e1['undecided'])}; on Gowalla: "
        f"{_names(e3['undecided'])}). "
        f"k-RR and RAPPOR: either (ratios of mean EMDs IBU/standard {fmt(e2[0], 3)} and {fmt(e2[1], 3)}, "
        f"E2). On support counts, as Arcolezi et al. run it, IBU's gain over MI at ε = 0.5 is "
        f"from {100 * lo.min():+.2f} to {100 * lo.max():+.2f} % for OUE, OLH and SS (A23, A23s); on the whole "
        f"channel of the unary encodings and local hashing it gains more (A23w). {early_text(g['e2c'], g['oracles'])}"
    )
    t1, cm1 = g["t1"], g["cm1"]
    task = (
        f"{task_text(t1, short=True)}; for ranges of half of Adult's ages "
        f"{g['t2']['swaps']} pairs of oracles swap places (GRR's and SS's errors cancel over long ranges). At the "
        f"grid's largest k and n, ε ≥ 2, the best top-10 precision is at least "
        f"{floor_text(float(np.min(cm1['precision'].low)))} (lower 95 % bound, rounded down; CM1 asks for 0.9)."
    )
    A = g["A"]
    secret = (
        f"Lift-based mechanisms (AORR releases {A['AORR']['mi']:.2f} bits about X within a 0.5-nat ALIP budget) "
        f"protect S but not X: at k-RR's measured leakage about S their V(X|Y) is at least "
        f"{g['e6']['lift']:.2f}, "
        f"against at most {g['e6']['LDP']:.2f} for the 1-LDP mechanisms (E6)."
    )
    m1 = decided(g["m1"]["differences"]["kRR - metric"], g["geo_m"])
    metric = (
        f"k-RR: at equal information it estimates better than {len(m1['below'])} of {len(g['geo_m'])} metric "
        f"mechanisms beyond noise (M1), and at equal estimation they release more (M3; BA never reaches k-RR's "
        f"EMD on its sweep, so it has no equal-estimation point). BA releases the least "
        f"information at a given distortion (E8), but at k-RR's information every metric mechanism's distortion "
        f"exceeds a constant report's, where BA reports a constant (E8b)."
    )
    joint = (
        f"Not SMP, RS+FD or RS+RFD: their channels have rank 6 of 12 (S3; EMD {g['smp_emd']:.3f} bins for SMP at "
        f"1-LDP)."
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
