r"""Tables of the IBU chapter (ElSalamouny and Palamidessi, arXiv 2508.09980, Sec. 7), each returned as
a formatted :class:`pandas.io.formats.style.Styler` (numbers formatted by column: no rounding of the
whole frame, so that small thresholds and privacy levels print as they are).
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from ldpnb import stats
from ldpnb.contracts import Array, Distribution, Instance, contract

__all__ = ["percentiles", "stopping", "ratios", "inv_errors", "thresholds", "readings", "certification", "gains"]


@contract(runs=Instance(dict, example={"IBU": np.ones(3)}), paper=Instance(dict, example={"IBU": 1.0}))
def percentiles(runs: Mapping[str, np.ndarray], paper: Mapping[str, float]):
    """Fig. 8: where each printed single-run EMD falls among our runs (median, central 95%, the printed
    value's percentile with the Wilson 95% interval of that proportion, and its excess over our
    median)."""
    rows = {}
    for m, v in runs.items():
        v = np.asarray(v, dtype=float)
        lo, hi = np.quantile(v, [0.025, 0.975])
        pct = stats.proportion(int(np.sum(v < paper[m])), v.size)
        rows[m] = {
            "runs": v.size,
            "our median": np.median(v),
            "our 2.5%": lo,
            "our 97.5%": hi,
            "paper": paper[m],
            "paper's percentile": 100 * pct.value,
            "95% interval (Wilson)": f"{100 * pct.low:.1f}-{100 * pct.high:.1f}",
            "paper / our median − 1 (%)": 100 * (paper[m] / np.median(v) - 1),
        }
    df = pd.DataFrame(rows).T
    num = ["our median", "our 2.5%", "our 97.5%", "paper"]
    return (
        df.style.format("{:.4f}", subset=num)
        .format("{:,.0f}", subset=["runs"])
        .format("{:.1f}", subset=["paper's percentile", "paper / our median − 1 (%)"])
    )


@contract(results=Instance(dict, example={}), summaries=Instance(dict, example={}))
def stopping(results: Mapping[str, Mapping[float, Mapping[str, np.ndarray]]], summaries: Mapping[str, dict]):
    """Fig. 9 at the smallest :math:`\\varepsilon_g` of each panel: min(INV)/IBU under the paper's rule and
    at the certified MLE, the median number of updates of the rule and the certified gap where it
    stopped."""
    cols = {}
    for lab, s in summaries.items():
        first = results[lab][s["eps"][0]]
        cols[f"9({lab})"] = {
            "min(INV) / IBU, paper's rule": s["inv"][0] / s["med"]["IBU"][0],
            "min(INV) / IBU, certified MLE": s["inv"][0] / s["med"]["MLE"][0],
            "updates of the rule (median)": np.median(first["n_iter"]),
            "certified gap at the stop (median)": np.median(first["gap_stop"]),
        }
    df = pd.DataFrame(cols)
    return (
        df.style.format("{:.2f}")
        .format("{:,.0f}", subset=pd.IndexSlice["updates of the rule (median)", :])
        .format("{:.1e}", subset=pd.IndexSlice["certified gap at the stop (median)", :])
    )


@contract(spreads=Instance(dict, example={}))
def ratios(spreads: Mapping[str, tuple]):
    """Figs. 10 and 12: the largest over IBU, INV-N and INV-P of the median EMD divided by the smallest,
    per :math:`\\varepsilon` (the statistic of "comparable"), with its simultaneous 95% bootstrap interval:
    ``spreads[name] = (eps, estimate)``."""

    def cell(e, i):
        return f"{e.value[i]:.2f} [{e.low[i]:.2f}, {e.high[i]:.2f}]"

    df = pd.DataFrame(
        {f"Fig. {n}": {f"{x:g}": cell(e, i) for i, x in enumerate(eps)} for n, (eps, e) in spreads.items()}
    ).T
    df.columns.name = "ε"
    return df.style


@contract(theta=Distribution(), eps=Array(1, low=1e-9, high=0.69))
def inv_errors(theta, eps):
    """Sec. 7.6: Prop. 7.2's bound and the exact INV error on ``theta`` and on the uniform distribution
    under the truncated geometric mechanism, per :math:`\\varepsilon_g` (x 1/n)."""
    from ldpnb.estimators._inversion import inv_expected_sq_error  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)
    from ldpnb.mechanisms.metric import geometric_channel  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    from .theory import inv_geometric_exact_sq_error, inv_geometric_lower_bound  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    k = theta.size
    df = pd.DataFrame(
        {
            "Prop. 7.2 bound": [inv_geometric_lower_bound(e, 1) for e in eps],
            "exact, these data": [inv_expected_sq_error(geometric_channel(k, e), theta, 1) for e in eps],
            "exact, uniform θ": [inv_geometric_exact_sq_error(k, e, np.full(k, 1 / k), 1) for e in eps],
        },
        index=pd.Index([f"{e:g}" for e in eps], name="εg"),
    )
    return df.style.format("{:,.1f}")


@contract(medians=Instance(dict, example={}), mle=Array(1), tols=Array(1, low=0.0))
def thresholds(medians: Mapping[str, Sequence[float]], mle, tols):
    """Sec. 7.6: median IBU EMD per threshold :math:`\\delta` of the paper's rule and at the certified MLE,
    per setting, with the ratio of the two settings."""
    df = pd.DataFrame(
        {**{f"δ = {t:.0e}": [m[i] for m in medians.values()] for i, t in enumerate(tols)}, "certified MLE": list(mle)},
        index=list(medians),
    )
    df.loc["ratio"] = df.max() / df.min()
    return df.style.format("{:.2f}")


@contract(readings=Instance(dict, example={}), paper=Instance(dict, example={}))
def readings(readings: Mapping[str, Mapping[str, np.ndarray]], paper: Mapping[str, float]):
    """Fig. 8 under several readings of its setting: our median single-run EMD of each estimator and the
    percentile at which the paper's printed value falls among our runs, one row per reading."""
    rows = {}
    for name, runs in readings.items():
        row = {}
        for m in paper:
            v = np.asarray(runs[m], dtype=float)
            row[(m, "our median")] = np.median(v)
            row[(m, "paper's pct")] = 100 * np.mean(v < paper[m])
        rows[name] = row
    df = pd.DataFrame(rows).T
    df.columns = pd.MultiIndex.from_tuples(df.columns)
    pct = [c for c in df.columns if c[1] == "paper's pct"]
    return df.style.format("{:.4f}").format("{:.1f}", subset=pct)


@contract(checks=Instance(dict, example={}), tols=Array(1, low=0.0))
def certification(checks: Mapping[str, Mapping[str, np.ndarray]], tols):
    """Sec. 3 and Fig. 9: what a certificate on the log-likelihood is worth.  For each setting
    (``checks[name]``, from :func:`ldpnb.papers.ibu.mle.mle_cross_check`), the median EMD to the truth and
    the median certified bound on the EMD to the exact MLE, for EM accelerated by SQUAREM stopped at each
    certified gap of ``tols``, and for the interior-point MLE."""
    rows: dict[str, dict] = {}
    for name, c in checks.items():
        for i, t in enumerate(tols):
            row = rows.setdefault(f"EM + SQUAREM, gap ≤ {t:.0e}", {})
            row[(name, "median EMD")] = np.median(c["emd_em"][i])
            row[(name, "certified bound (median)")] = np.median(c["bound_em"][i])
        row = rows.setdefault("interior-point MLE", {})
        row[(name, "median EMD")] = np.median(c["emd_mle"])
        row[(name, "certified bound (median)")] = np.median(c["bound_mle"])
    df = pd.DataFrame(rows).T
    df.columns = pd.MultiIndex.from_tuples(df.columns)
    return df.style.format("{:.4f}").format("{:.1e}", subset=[c for c in df.columns if c[1] != "median EMD"])


@contract(summaries=Instance(dict, example={}), panels=Instance(str, tuple, list, example="ace"))
def gains(summaries: Mapping[str, dict], panels="ace"):
    """Fig. 9: the factor min(INV-N, INV-P) / IBU of the median EMDs at every :math:`\\varepsilon_g`, one row
    per panel of ``panels`` (panels on the same grid: the ages, or the locations)."""
    df = pd.DataFrame(
        {
            f"9({lab})": dict(
                zip([f"{e:g}" for e in summaries[lab]["eps"]], summaries[lab]["inv"] / summaries[lab]["med"]["IBU"])
            )
            for lab in panels
        }
    ).T
    df.columns.name = "εg"
    return df.style.format("{:.2f}")
