"""Figures of the multidimensional-risks chapter (Arcolezi, Gambs, Couchot and Palamidessi, PVLDB 2023):
one function per paper figure, each returning a closed :class:`matplotlib.figure.Figure`.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from ldpnb import stats
from ldpnb.contracts import MAX_ENTRIES, Boolean, Instance, Integer, Items, OneOf, Optional, Real, Unchecked, contract
from ldpnb.mechanisms import protocol
from ldpnb.papers.risks import xgb as _xgb
from ldpnb.repro.plotting import color

__all__ = [
    "fig1",
    "rid_grid",
    "rid_fk_pk",
    "aif_grid",
    "fig4",
    "trees",
    "utility",
    "utility_adult",
    "fig17",
    "mean_interval",
    "NAMES",
    "FD_ROWS",
    "RFD_ROWS",
]

#: The protocols' names as the paper writes them: the registry's labels (:func:`ldpnb.mechanisms.protocol`),
#: with the paper's ω-SS for the subset selection.
NAMES = {p: "ω-SS" if p == "ss" else protocol(p).label for p in ("grr", "ss", "olh", "oue", "sue")}
_MAP = Instance(Mapping, example={})
_SEQ = Instance(list, tuple, np.ndarray, example=[1.0])
_VCOL = {lab: prot for lab, (prot, _) in _xgb.VARIANTS.items()}  # a variant's colour: its randomiser's
_SURVEYS = (2, 3, 4, 5)
#: The list sizes of RID-ACC results (the last axis of their arrays; the figures draw top-1 and top-10).
_TOPKS = Items(Integer(1, 1 << 20), max_size=64)


def _check_topks(arr: np.ndarray, topks: Sequence[int], drawn: Sequence[int], *, by_position: bool = False) -> None:
    """``topks`` names the last axis of ``arr`` and holds the list sizes the figure draws (else a top-5 column
    would be drawn as top-10); ``by_position``: two sizes are read by position (as rid_grid does)."""
    if arr.ndim < 1 or arr.shape[-1] != len(topks):
        raise ValueError(f"topks must name the last axis of the results ({arr.shape[-1:]} sizes), got {list(topks)}")
    missing = [k for k in drawn if k not in topks]
    if missing and (len(topks) > 2 or not by_position):
        raise ValueError(f"topks must hold the drawn list sizes {list(drawn)}, got {list(topks)}")


#: The rows of the AIF figures (:func:`aif_grid`): a title and its variants' labels (Figs. 3, 14, 15; Fig. 6).
FD_ROWS = [("RS+FD[GRR]", ["GRR"]), ("RS+FD[UE-z]", ["SUE-z", "OUE-z"]), ("RS+FD[UE-r]", ["SUE-r", "OUE-r"])]
RFD_ROWS = [("RS+RFD[GRR]", ["GRR"]), ("RS+RFD[UE-r]", ["SUE-r", "OUE-r"])]
#: Markers of the XGBoost models of one panel, in the paper's order (s or n_pk = 1n/0.1n, 3n/0.3n, 5n/0.5n).
_XMARKS = ("*", "P", "X")
_XTAG = {"NK": "", "PK": "n_pk = ", "HM": "(s, n_pk) = "}


def _xgb_rank(name: str) -> int:
    """0, 1, 2 for the paper's smallest, middle and largest s or n_pk in an XGBoost model name
    ("NK s=3n" -> 1, "PK 0.5n" -> 2, "HM (1n, 0.1n)" -> 0)."""
    digit = next(ch for ch in name if ch in "135")
    return "135".index(digit)


def _fig(*args, **kw):
    import matplotlib.pyplot as plt  # noqa: PLC0415 lazy: plotting is opt-in (matplotlib loads when a figure is drawn)

    fig, axes = plt.subplots(*args, **kw)
    plt.close(fig)
    return fig, axes


def _legend_below(fig, ax, ncol: int = 3) -> None:
    """One legend for the figure, below the panels (so that no curve is covered)."""
    h, lab = ax.get_legend_handles_labels()
    fig.legend(h, lab, loc="outside lower center", ncol=ncol, fontsize="small", frameon=False)


@contract(eps=_SEQ, curves=_MAP)
def fig1(eps: Sequence[float], curves: Mapping[tuple[str, str], Sequence[float]]):
    """Fig. 1: expected accuracy of inferring the whole profile after d = 3 surveys, (a) uniform and
    (b) non-uniform metric; ``curves[(setting, protocol)]`` in %."""
    fig, axes = _fig(1, 2, figsize=(7.8, 3.6), sharey=True)
    for ax, setting, tag in zip(axes, ("uniform", "non-uniform"), "ab"):
        for (s, prot), y in curves.items():
            if s == setting:
                base = prot.split(" ")[0]
                ax.plot(
                    eps,
                    y,
                    marker="o" if " " not in prot else None,
                    ms=3,
                    ls="-" if " " not in prot else "--",
                    color=color(base),
                    label=NAMES.get(prot, prot),
                )
        ax.set(xlabel="ε", title=f"({tag}) {setting} metric", ylim=(-3, 103))
    axes[0].set_ylabel("expected ACC (%)")
    _legend_below(fig, axes[0], ncol=6)
    return fig


@contract(
    runs=Unchecked("an array of runs along axis 0 (NaN where a run is missing), checked in the body", example=[[1.0]]),
    lower=Optional(Real()),
    upper=Optional(Real()),
)
def mean_interval(runs: Any, lower: float | None = None, upper: float | None = None):
    """Per column of ``runs`` (runs along axis 0, NaN where a run is missing): the run mean and the 95 %
    interval of the run mean (:func:`ldpnb.stats.mean`, Hall's interval, pointwise), clipped to the
    quantity's range ``[lower, upper]``; ``(mean, low, high)``, the interval NaN where a column has fewer
    than two runs."""
    try:
        a = np.asarray(runs, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"runs must be an array of numbers (runs along axis 0), got {type(runs).__name__}") from None
    if a.ndim < 1 or a.shape[0] < 1 or a.size > MAX_ENTRIES:
        raise ValueError(f"runs must hold at least one run along axis 0 (at most {MAX_ENTRIES} entries), got {a.shape}")
    if np.isinf(a).any():
        raise ValueError("runs must be finite (NaN only where a run is missing), got an infinite entry")
    if lower is not None and upper is not None and lower > upper:
        raise ValueError(f"lower must be <= upper, got {lower} > {upper}")
    flat = a.reshape(a.shape[0], -1)
    m = np.full(flat.shape[1], np.nan)
    lo, hi = m.copy(), m.copy()
    for j in range(flat.shape[1]):
        x = flat[np.isfinite(flat[:, j]), j]
        if x.size:
            m[j] = x.mean()
        if x.size >= 2:
            e = stats.mean(x)
            lo[j], hi[j] = float(e.low), float(e.high)
    lo = lo if lower is None else np.maximum(lo, lower)
    hi = hi if upper is None else np.minimum(hi, upper)
    shape = a.shape[1:]
    return m.reshape(shape), lo.reshape(shape), hi.reshape(shape)


def _band(ax, xs, arr, col, label, ls="-", marker="o"):
    """Mean over runs (axis 0) with the 95 % interval of the run mean (:func:`mean_interval`; a
    percentage, clipped to [0, 100])."""
    arr = np.asarray(arr, dtype=float)
    m, lo, hi = mean_interval(arr, 0.0, 100.0)
    ax.plot(xs, m, color=col, ls=ls, marker=marker, ms=3, label=label)
    if arr.shape[0] > 1:
        ax.fill_between(xs, lo, hi, color=col, alpha=0.18, lw=0)


@contract(
    results=_MAP,
    xs=_SEQ,
    prots=_SEQ,
    n=Integer(1, None),
    key=OneOf("FK", "PK"),
    xlabel=Instance(str, example="ε"),
    invert=Boolean(),
    topks=_TOPKS,
)
def rid_grid(
    results: Mapping[str, Any],
    xs: Sequence[float],
    prots: Sequence[str],
    *,
    n: int,
    key: str = "FK",
    xlabel: str = "ε",
    invert: bool = False,
    topks: Sequence[int] = (1, 10),
):
    """Figs. 2, 9, 10, 12, 13: RID-ACC against ε (or β) per protocol (rows) and top-k (columns); one
    curve per number of surveys, the mean of the runs with the 95 % interval of the run mean; baseline k/n."""
    import matplotlib.pyplot as plt  # noqa: PLC0415 lazy: plotting is opt-in (matplotlib loads when a figure is drawn)

    fig, axes = _fig(len(prots), 2, figsize=(7.8, 2.3 * len(prots) + 0.6), squeeze=False, sharex=True)
    cols = plt.cm.viridis(np.linspace(0.1, 0.85, len(_SURVEYS)))
    for r, p in enumerate(prots):
        arr = np.asarray(results[p][key])  # (runs, x, surveys, topk)
        _check_topks(arr, topks, (1, 10), by_position=True)
        for c, k in enumerate((1, 10)):
            ax = axes[r, c]
            ti = list(topks).index(k) if len(topks) > 2 else c
            for s, sv in enumerate(_SURVEYS):
                _band(ax, xs, arr[:, :, s, ti], cols[s], f"#surveys = {sv}")
            ax.axhline(100 * k / n, color="k", ls=":", label="baseline k/n")
            ax.set_title(f"({chr(97 + 2 * r + c)}) {NAMES[p]}, top-{k}", fontsize="medium")
            ax.set_ylabel("RID-ACC (%)")
            if invert:
                ax.invert_xaxis() if c == 0 and r == 0 else None
    for ax in axes[-1]:
        ax.set_xlabel(xlabel)
    _legend_below(fig, axes[0, 0], ncol=5)
    return fig


@contract(
    results=_MAP,
    xs=_SEQ,
    prots=_SEQ,
    n=Integer(1, None),
    k=Integer(1, 1 << 20),
    xlabel=Instance(str, example="ε"),
    invert=Boolean(),
    topks=_TOPKS,
)
def rid_fk_pk(
    results: Mapping[str, Any],
    xs: Sequence[float],
    prots: Sequence[str],
    *,
    n: int,
    k: int = 10,
    xlabel: str = "ε",
    invert: bool = False,
    topks: Sequence[int] = (1, 5, 10),
):
    """Fig. 11 (and 12-13): FK-RI (left) and PK-RI (right) top-``k`` RID-ACC per protocol, one curve per
    number of surveys (mean of the runs, 95 % interval of the run mean)."""
    import matplotlib.pyplot as plt  # noqa: PLC0415 lazy: plotting is opt-in (matplotlib loads when a figure is drawn)

    fig, axes = _fig(len(prots), 2, figsize=(7.8, 2.3 * len(prots) + 0.6), squeeze=False, sharex=True)
    cols = plt.cm.viridis(np.linspace(0.1, 0.85, len(_SURVEYS)))
    if k not in topks:
        raise ValueError(f"k must be one of the list sizes topks = {list(topks)}, got {k}")
    ti = list(topks).index(k)
    for r, p in enumerate(prots):
        for c, key in enumerate(("FK", "PK")):
            ax = axes[r, c]
            arr = np.asarray(results[p][key])
            _check_topks(arr, topks, (k,))
            for s, sv in enumerate(_SURVEYS):
                _band(ax, xs, arr[:, :, s, ti], cols[s], f"#surveys = {sv}")
            ax.axhline(100 * k / n, color="k", ls=":", label="baseline k/n")
            ax.set_title(f"({chr(97 + 2 * r + c)}) {NAMES[p]}, {key}-RI, top-{k}", fontsize="medium")
            ax.set_ylabel("RID-ACC (%)")
    if invert:
        axes[0, 0].invert_xaxis()
    for ax in axes[-1]:
        ax.set_xlabel(xlabel)
    _legend_below(fig, axes[0, 0], ncol=5)
    return fig


def _xgb_curve(ax, v: Mapping[str, Any], col, mk: str, shift: float = 0.0) -> None:
    """The paper's attacker over its runs: the mean of the runs with the 95 % interval of the run mean where
    an ε has two runs or more (bars, or a band over three or more ε; none for one run); with two ε or fewer,
    markers and bars only (no line: a line between two budgets would draw a trend that was not measured)."""
    eps = np.asarray(v["eps"], dtype=float)
    acc = np.asarray(v["acc"], dtype=float)
    m, lo, hi = mean_interval(acc, 0.0, 100.0)
    lo, hi = np.where(np.isfinite(lo), lo, m), np.where(np.isfinite(hi), hi, m)
    style = dict(color=col, marker=mk, ms=7, mec="k", mew=0.5, zorder=4)
    if eps.size >= 3:
        ax.plot(eps, m, ls="-", lw=1.6, **style)
        if acc.shape[0] > 1:
            ax.fill_between(eps, lo, hi, color=col, alpha=0.2, lw=0)
    else:
        ax.errorbar(
            eps + shift,
            m,
            yerr=[m - lo, hi - m] if acc.shape[0] > 1 else None,
            ls="none",
            capsize=2,
            elinewidth=1,
            **style,
        )


def _style_legend(fig, labels: Sequence[str], ncol: int = 3, bayes: bool = True) -> None:
    """One compact legend below the panels: a colour per variant, a marker per XGBoost model size (NK s /
    PK n_pk / HM pair), a line style per Bayes attacker."""
    from matplotlib.lines import Line2D  # noqa: PLC0415 lazy: plotting is opt-in (matplotlib loads when a figure is drawn)

    groups: dict[str, list[str]] = {}
    for lab in labels:
        groups.setdefault(_VCOL[lab], []).append(lab)
    h = [Line2D([], [], color=color(key), lw=6, label=" / ".join(labs)) for key, labs in groups.items()]
    h += [
        Line2D([], [], color="0.4", marker=mk, ms=7, mec="k", mew=0.5, ls="none", label=f"XGBoost {txt}")
        for mk, txt in zip(_XMARKS, ("1n / 0.1n / (1n, 0.1n)", "3n / 0.3n / (3n, 0.3n)", "5n / 0.5n / (5n, 0.5n)"))
    ]
    if bayes:
        h += [
            Line2D([], [], color="0.4", ls="--", lw=0.9, label="Bayes (NK s → ∞; PK, HM ○ 0.1n □ 0.3n ◇ 0.5n)"),
            Line2D([], [], color="0.4", ls=":", lw=1.2, label="Bayes oracle (optimal)"),
        ]
    h.append(Line2D([], [], color="k", ls="-.", lw=1, label="baseline 1/d"))
    fig.legend(handles=h, loc="outside lower center", ncol=ncol, fontsize=7, frameon=False)


@contract(res=_MAP, eps=_SEQ, d=Integer(2, None), rows=_SEQ, fracs=_SEQ, xgb=Optional(_MAP))
def aif_grid(
    res: Mapping[tuple[str, str], np.ndarray],
    eps: Sequence[float],
    d: int,
    rows: Sequence[tuple[str, Sequence[str]]],
    fracs: Sequence[float],
    *,
    xgb: Mapping | None = None,
):
    """Figs. 3, 6, 14, 15: AIF-ACC against ε, rows = protocol families, columns = NK / PK / HM.

    Markers (with the 95 % interval of the run mean): the paper's attacker, XGBoost with default parameters
    (``xgb[(variant, model)]``: ``eps`` and per-run ``acc``), the main curves; thin dashed: the Bayes attacker (NK:
    plug-in of the server's estimates, the s → ∞ limit; PK/HM: learned from the labelled users); dotted: the Bayes
    oracle (true marginals), the optimal attacker."""
    fig, axes = _fig(len(rows), 3, figsize=(7.8, 2.5 * len(rows) + 1.1), squeeze=False, sharex=True, sharey="row")
    marks = ["o", "s", "D"]
    for r, (rname, labels) in enumerate(rows):
        for c, model in enumerate(("NK", "PK", "HM")):
            ax = axes[r, c]
            for li, lab in enumerate(labels):
                col = color(_VCOL[lab])
                ax.plot(eps, np.asarray(res[(lab, "oracle")]).mean(0), color=col, ls=":", lw=1.2, alpha=0.8)
                keys = [(lab, "NK")] if model == "NK" else [(lab, f"{model}{f:g}") for f in fracs]
                for key, mk in zip(keys, marks):
                    if key in res:
                        ax.plot(
                            eps,
                            np.asarray(res[key]).mean(0),
                            color=col,
                            ls="--",
                            marker=mk,
                            ms=2.5,
                            lw=0.8,
                            alpha=0.6,
                            mfc="none",
                        )
                mine = sorted(
                    ((name, v) for (xl, name), v in (xgb or {}).items() if xl == lab and name.startswith(model)),
                    key=lambda t: _xgb_rank(t[0]),
                )
                for name, v in mine:
                    rk = _xgb_rank(name)
                    _xgb_curve(ax, v, col, _XMARKS[rk], shift=0.2 * (rk - 1) + 0.08 * li)
            ax.axhline(100 / d, color="k", ls="-.", lw=1)
            ax.set_title(f"({chr(97 + 3 * r + c)}) {model}, {rname}", fontsize="small")
            if c == 0:
                ax.set_ylabel("AIF-ACC (%)")
    for ax in axes[-1]:
        ax.set_xlabel("ε")
    _style_legend(fig, [lab for _, labels in rows for lab in labels])
    return fig


@contract(eps=_SEQ, rid=_MAP, art=_MAP, n=Integer(1, None), runs=Integer(1, 10**5), topks=_TOPKS)
def fig4(
    eps: Sequence[float],
    rid: Mapping[float, np.ndarray],
    art: Mapping[float, np.ndarray],
    *,
    n: int,
    runs: int,
    topks: Sequence[int] = (1, 5, 10),
):
    """Fig. 4: RID-ACC of RS+FD[GRR] on Adult (FK-RI, uniform metric, NK attacker); ``rid[eps]`` of shape
    (runs, surveys, topk); the artifact's sampling with replacement dashed (5 surveys)."""
    import matplotlib.pyplot as plt  # noqa: PLC0415 lazy: plotting is opt-in (matplotlib loads when a figure is drawn)

    fig, axes = _fig(1, 2, figsize=(7.8, 3.6))
    cols = plt.cm.viridis(np.linspace(0.1, 0.85, len(_SURVEYS)))
    for e in eps:
        _check_topks(np.asarray(rid[e]), topks, (1, 10))
    for c, k in enumerate((1, 10)):
        ti = list(topks).index(k)
        for s, sv in enumerate(_SURVEYS):
            _band(
                axes[c], eps, np.stack([np.asarray(rid[e])[:, s, ti] for e in eps], axis=1), cols[s], f"#surveys = {sv}"
            )
        axes[c].plot(
            eps,
            [np.asarray(art[e])[:, -1, ti].mean() for e in eps],
            ls="--",
            color=cols[-1],
            label="#surveys = 5, with replacement (artifact)",
        )
        axes[c].axhline(100 * k / n, color="k", ls=":", label="baseline k/n")
        axes[c].set(title=f"top-{k}", xlabel="ε", ylabel="RID-ACC (%)")
    _legend_below(fig, axes[0], ncol=3)
    return fig


def _draw_tree(ax, tree, title):
    leaves = []

    def layout(node, depth):
        label, children = node
        if not children:
            y = -len(leaves)
            leaves.append(y)
            return {"label": label, "x": depth, "y": y, "kids": []}
        kids = [(el, layout(ch, depth + 1)) for el, ch in children]
        return {"label": label, "x": depth, "y": np.mean([k["y"] for _, k in kids]), "kids": kids}

    def draw(nd):
        for el, k in nd["kids"]:
            ax.plot([nd["x"] + 0.32, k["x"] - 0.32], [nd["y"], k["y"]], color="0.45", lw=1)
            up = k["y"] >= nd["y"]
            ax.text(
                (nd["x"] + k["x"]) / 2 - 0.08,
                (nd["y"] + k["y"]) / 2 + (0.15 if up else -0.15),
                el,
                ha="right",
                va="bottom" if up else "top",
                fontsize=10,
                color="tab:blue",
            )
            draw(k)
        support = not nd["kids"] and ("= v_i" in nd["label"] or "= 1" in nd["label"])
        ax.text(
            nd["x"],
            nd["y"],
            nd["label"],
            ha="center",
            va="center",
            fontsize=10,
            bbox=dict(boxstyle="round", fc="#fde9c9" if support else "w", ec="0.5"),
        )

    draw(layout(tree, 0))
    ax.set(xlim=(-0.5, 3.5), ylim=(min(leaves) - 0.7, 0.7), title=title)
    ax.axis("off")


@contract()
def trees():
    """Figs. 7 and 8: the probability trees of RS+RFD[GRR] and RS+RFD[UE-r]; shaded leaves support v_i."""

    def real(a, b):
        return [
            (r"$f(v_i)$", (a, [(r"$p$", (b[0], [])), (r"$1-p$", (b[1], []))])),
            (
                r"$1-f(v_i)$",
                (
                    a.replace("= v_i", r"= v_{l\neq i}").replace("= 1", "= 0"),
                    [(r"$q$", (b[0], [])), (r"$1-q$", (b[1], []))],
                ),
            ),
        ]

    grr = (
        "RS+RFD",
        [
            (r"$1/d$", ("True data", real(r"$B = v_i$", (r"$B' = v_i$", r"$B' = v_{l\neq i}$")))),
            (
                r"$1-1/d$",
                (
                    "Fake data",
                    [
                        (r"$\tilde f_j(v_i)$", (r"$B' = v_i$", [])),
                        (r"$1-\tilde f_j(v_i)$", (r"$B' = v_{l\neq i}$", [])),
                    ],
                ),
            ),
        ],
    )
    ue_leaves = (r"$B'_i = 1$", r"$B'_i = 0$")
    fake_ue = [
        (r"$\tilde f_j(v_i)$", (r"$B_i = 1$", [(r"$p$", (ue_leaves[0], [])), (r"$1-p$", (ue_leaves[1], []))])),
        (r"$1-\tilde f_j(v_i)$", (r"$B_i = 0$", [(r"$q$", (ue_leaves[0], [])), (r"$1-q$", (ue_leaves[1], []))])),
    ]
    ue = ("RS+RFD", [(r"$1/d$", ("True data", real(r"$B_i = 1$", ue_leaves))), (r"$1-1/d$", ("Fake data", fake_ue))])
    fig, axes = _fig(2, 1, figsize=(7.8, 9.5))
    _draw_tree(axes[0], grr, "(a) RS+RFD[GRR]")
    _draw_tree(axes[1], ue, "(b) RS+RFD[UE-r]")
    return fig


def _mstyle(label: str) -> dict[str, Any]:
    base = label.split("[")[1].rstrip("]")
    rfd = label.startswith("RS+RFD")
    return dict(color=color(_VCOL[base]), ls="-" if rfd else "--", marker="o" if rfd else "x", ms=4)


@contract(eps=_SEQ, labels=_SEQ, panels=_MAP)
def utility(eps: Sequence[float], labels: Sequence[str], panels: Mapping[str, Mapping[str, np.ndarray]]):
    """Fig. 5: MSE_avg of RS+RFD (solid) and RS+FD (dashed) per panel (``panels[title][method]`` of shape
    (runs, ε)), mean of the runs."""
    fig, axes = _fig(1, len(panels), figsize=(7.8, 3.6), sharey=True, squeeze=False)
    for ax, (title, res) in zip(axes[0], panels.items()):
        for m, v in res.items():
            ax.plot(eps, np.asarray(v).mean(0), label=m, **_mstyle(m))
        ax.set(yscale="log", xticks=eps, xticklabels=labels, xlabel="ε", title=title)
    axes[0, 0].set_ylabel("MSE_avg")
    _legend_below(fig, axes[0, 0], ncol=3)
    return fig


@contract(eps=_SEQ, labels=_SEQ, rows=_MAP)
def utility_adult(eps: Sequence[float], labels: Sequence[str], rows: Mapping[str, Mapping[str, Any]]):
    """Fig. 16: analytical averaged approximate variance (left) and experimental MSE_avg (right) on Adult,
    one row per prior."""
    fig, axes = _fig(len(rows), 2, figsize=(7.8, 2.6 * len(rows) + 0.7), sharex=True, squeeze=False)
    for r, (name, res) in enumerate(rows.items()):
        for m in res["mse"]:
            axes[r, 0].plot(eps, np.asarray(res["approx"][m]).mean(0), label=m, **_mstyle(m))
            axes[r, 1].plot(eps, np.asarray(res["mse"][m]).mean(0), label=m, **_mstyle(m))
        axes[r, 0].set(yscale="log", ylabel="approx. variance", title=f"({chr(97 + 2 * r)}) analytical, {name}")
        axes[r, 1].set(yscale="log", ylabel="MSE_avg", title=f"({chr(98 + 2 * r)}) experimental, {name}")
    for ax in axes[-1]:
        ax.set(xticks=eps, xticklabels=labels, xlabel="ε")
    _legend_below(fig, axes[0, 0], ncol=3)
    return fig


@contract(eps=_SEQ, inc=_MAP, d=Integer(2, None), xgb=Optional(_MAP))
def fig17(
    eps: Sequence[float],
    inc: Mapping[str, Mapping[tuple[str, str], np.ndarray]],
    d: int,
    *,
    xgb: Mapping[str, Mapping] | None = None,
):
    """Fig. 17: NK attribute inference against RS+RFD with 'incorrect' priors, laid out as the paper's (rows GRR and
    UE-r; columns DIR, ZIPF, EXP): the paper's attacker, XGBoost NK (``xgb[kind][(variant, model)]``, markers, mean
    of its runs with the 95 % interval of the run mean), the Bayes plug-in with the same uniform fake-data
    assumption (dotted) and a prior-aware Bayes attacker (dashed, an extension); legend below the panels."""
    from matplotlib.lines import Line2D  # noqa: PLC0415 lazy: plotting is opt-in (matplotlib loads when a figure is drawn)

    kinds = list(inc)
    fams = (("RS+RFD[GRR]", ["GRR"]), ("RS+RFD[UE-r]", ["SUE-r", "OUE-r"]))
    fig, axes = _fig(2, len(kinds), figsize=(7.8, 6.0), sharex=True, squeeze=False)
    for r, (fam, labs) in enumerate(fams):
        for c, kind in enumerate(kinds):
            ax = axes[r, c]
            for li, lab in enumerate(labs):
                col = color(_VCOL[lab])
                ax.plot(eps, np.asarray(inc[kind][(lab, "NK")]).mean(0), color=col, ls=":", lw=1.2)
                ax.plot(
                    eps, np.asarray(inc[kind][(lab, "NK_prior")]).mean(0), color=col, ls="--", marker="^", ms=3, lw=1
                )
                for name, v in sorted(
                    ((m, v) for (xl, m), v in ((xgb or {}).get(kind, {})).items() if xl == lab),
                    key=lambda t: _xgb_rank(t[0]),
                ):
                    rk = _xgb_rank(name)
                    _xgb_curve(ax, v, col, _XMARKS[rk], shift=0.2 * (rk - 1) + 0.08 * li)
            ax.axhline(100 / d, color="k", ls="-.", lw=1)
            ax.set_title(f"({chr(97 + 3 * r + c)}) {fam}, {kind.upper()}", fontsize="small")
            if c == 0:
                ax.set_ylabel("AIF-ACC (%)")
    for ax in axes[-1]:
        ax.set_xlabel("ε")
    h = [Line2D([], [], color=color(_VCOL[lab]), lw=6, label=lab) for lab in ("GRR", "SUE-r", "OUE-r")]
    h += [
        Line2D(
            [],
            [],
            color="0.4",
            marker=_XMARKS[0],
            ms=7,
            mec="k",
            mew=0.5,
            ls="none",
            label="XGBoost NK s = 1n (paper's attacker)",
        ),
        Line2D([], [], color="0.4", ls=":", lw=1.2, label="Bayes NK, uniform fake data assumed"),
        Line2D([], [], color="0.4", ls="--", marker="^", ms=3, lw=1, label="prior-aware Bayes NK (extension)"),
        Line2D([], [], color="k", ls="-.", lw=1, label="baseline 1/d"),
    ]
    fig.legend(handles=h, loc="outside lower center", ncol=3, fontsize=7, frameon=False)
    return fig
