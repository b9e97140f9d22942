r"""The claims of ElSalamouny and Palamidessi, *On the consistency and performance of the iterative
Bayesian update* (arXiv 2508.09980), as data: what the paper says, where, and the criterion that grades
our reproduction, each fixed before the result (see :mod:`ldpnb.repro.claims`).

Conventions of this table:

* a value is in the paper column (``source="paper"``, ``Printed``) only when the paper prints it;
  closed forms we derive from the paper's matrices are ``source="derived"`` with ``reference``;
* a printed number is compared with a tolerance of half a unit of its last printed digit
  (:func:`ldpnb.papers.ibu.scoring.rounding_atol`);
* every number that comes from random runs is recorded as an :class:`ldpnb.stats.Estimate` and decided
  with three outcomes (holds, reversed, undecided; :mod:`ldpnb.repro.claims`); the estimators are those
  of :mod:`ldpnb.stats` (order-statistic intervals of a median, Wilson intervals of a proportion, the BCa
  bootstrap of a function of several medians, resampling the runs jointly where the estimators were
  scored on the same reports); an interval over several settings that a claim makes "at every" setting is
  simultaneous (Bonferroni);
* a value the paper reports from **one run** (Figs. 1, 8, 11) "reproduces" when the proportion of our
  single runs below it lies in [0.025, 0.975] (the central 95% of our runs), decided on its Wilson
  interval;
* "comparable", "similar", "almost the same" are graded by one relative criterion: the largest of the
  medians divided by the smallest is at most 1.5 at every setting (it can fail at every
  :math:`\varepsilon`; a factor 2 is materially not similar, the falsifier of the power);
* "significantly", "decisively": a factor of at least 2 between the better INV median and IBU's (a factor
  1, no advantage, is the falsifier); "improves with :math:`\varepsilon`": no median rises by 10% or more
  from one :math:`\varepsilon` to the next (simultaneous intervals over the steps);
* IBU is run with the paper's stopping rule :math:`|\Delta\ell| < 10^{-8}` (Algorithm 1; the paper's
  :math:`\delta` is not printed); rows marked "MLE" grade the maximum-likelihood estimate itself, computed
  by an interior-point method and certified *on the estimate*: a bound on the EMD between the computed
  point and the exact MLE (:mod:`ldpnb.papers.ibu.mle`; a gap on :math:`\ell` alone does not bound the
  estimate where the likelihood is flat). These rows are our extensions: the paper never runs IBU to its
  maximum.

Decision log.  Criteria changed after a recorded result carry ``changes=`` (:class:`CriterionChange`):
the third edition's (commit abcf132: F9M·.2 of the locations, F9e.4) and those of the move of the Monte
Carlo rows to :mod:`ldpnb.stats` (commit a12d4b8), where the kind or the region changed, not only the
uncertainty recorded with the number.
"""

from __future__ import annotations

from math import exp, log

import numpy as np

from ldpnb.repro.claims import Claim, CriterionChange, Printed, claim_table

__all__ = ["CLAIMS", "EPS_AGE", "EPS_LOC", "PRINTED", "SIZES_BY_SCALE"]

#: Numbers the paper prints (with where), used by the chapter and by the claims below.
PRINTED = {
    "n_adult": Printed(48842, "Sec. 7.1"),
    "n_checkins": Printed(98060, "Sec. 7.2"),
    "fig8_noisy": Printed(0.7658, "Fig. 8(b)"),
    "fig8_invp": Printed(0.5862, "Fig. 8(c)"),
    "fig8_invn": Printed(0.7832, "Fig. 8(d)"),
    "fig8_ibu": Printed(0.16995, "Fig. 8(e)"),
    "krr_bound": Printed(227.28, "Sec. 7.6"),
    "geo_bound": Printed(7238, "Sec. 7.6"),
    "fig14_delta": Printed(0.21, "Fig. 14(a)"),
    "fig14_dmax": Printed(8.25, "Fig. 14(b)"),
    "fig14_delta_prime": Printed(1.87, "Fig. 14(b)"),
}

#: The paper's privacy levels: ε_g from 0.01 to 0.3 per year (ages) and 0.2 to 6 per km (locations).
EPS_AGE = [0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3]
EPS_LOC = [0.2, 0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
_BOOK_SIZES = dict(
    reps=100,
    decide={"9c": 300, "10a": 200, "12a": 800, "12b": 800},  # the rows decided on more runs (chapter Sec. 7.3)
    mle10=20, xcheck=(6, 3), x6=50, alt_runs=200, eps_age=EPS_AGE, eps_loc=EPS_LOC,
    eps_ldp=np.arange(1, 11) / 2, t19_runs=1000, f8_ibu=200, inv_runs=1000, draws=4000,
    mc_trials=2000, mc_eps=[0.5, 1, 2, 3, 4, 5], mc_n=[10, 12, 15, 20, 25, 30, 40, 50, 75, 100, 150],
    cons_reps=20, cons_n=[10**3, 10**4, 10**5, 10**6], f8_thr=20, tols_t19=[1e-6, 1e-7, 1e-8],
    iters=(1500, 2000), mc_inv=20_000, mle_all=False,
    tols_f8=[1e-5, 3e-6, 1e-6, 3e-7, 1e-7, 3e-8, 1e-8, 3e-9, 1e-9],
)  # fmt: skip
#: The chapter's sizes at each scale (runs per setting, privacy levels, thresholds); the chapter reads
#: ``SIZES_BY_SCALE[SCALE]``.  Smoke keeps 10 runs, the fewest a bootstrap interval accepts.
SIZES_BY_SCALE: dict[str, dict] = {
    "smoke": _BOOK_SIZES | dict(
        reps=10, decide={}, mle10=1, xcheck=(1, 1), x6=1, alt_runs=20, t19_runs=20, f8_ibu=10,
        eps_age=[0.01, 0.05, 0.15], eps_loc=[0.2, 1.0, 6.0], eps_ldp=[0.5, 2.0, 5.0], inv_runs=60,
        draws=100, mc_trials=200, mc_eps=[1.0], mc_n=[10, 25, 50], cons_n=[10**3, 10**4, 10**5],
        cons_reps=10, f8_thr=6, tols_t19=[1e-6, 1e-8], iters=(300, 1000), mc_inv=2000,
        tols_f8=[1e-6, 1e-7, 1e-8, 1e-9],
    ),
    "book": _BOOK_SIZES,
    "paper": _BOOK_SIZES | dict(
        mle10=100, mle_all=True, xcheck=(20, 10), x6=100, alt_runs=1000, cons_reps=50, f8_thr=100,
        tols_t19=[1e-6, 1e-7, 1e-8, 1e-9, 1e-10],
    ),
}  # fmt: skip

_P = PRINTED
_PANELS = {
    "a": ("geometric", "ages"),
    "b": ("geometric", "locations"),
    "c": ("Laplace", "ages"),
    "d": ("Laplace", "locations"),
    "e": ("exponential", "ages"),
    "f": ("exponential", "locations"),
}
_ALPHA = exp(-0.05)
_K2_EXACT = (1 + _ALPHA**2) / (1 - _ALPHA) ** 2 - 1  # Prop. 7.2 at k = 2, theta = (1, 0), eps_g = 0.05 (x 1/n)
_CMP = 1.5  # "comparable", "similar", "almost the same": max/min of the medians at most 1.5
_STEP = 0.1  # "improves with eps": no median rises by 10% or more from one eps to the next
#: Rows graded on many runs (1,000 INV runs, the certified MLE of many runs, medians of 100 runs): the smoke
#: scale (10 runs, 60 INV runs) cannot grade them, so they are evaluated at book and paper scale.
_MANY_RUNS = ("book", "paper")

#: The commit that moved the Monte Carlo rows to ldpnb.stats (phase B of issue #36), named by the decision
#: log of every row whose criterion it changed after a recorded result; None until that commit exists
#: (the log entries below are declared with it, in the commit that follows).
_PHASE_B: tuple[str, str] | None = ("a12d4b8", "2026-11-28")
_THIRD = ("abcf132", "2026-11-28")  # the third edition's claims commit (issue #36, phase A)


def _log(was: dict, reason: str, seen: str = "book") -> tuple[CriterionChange, ...]:
    """The decision-log entry of a criterion changed by the phase-B commit (:data:`_PHASE_B`)."""
    if _PHASE_B is None:
        return ()
    return (CriterionChange(*_PHASE_B, seen, was, reason),)


#: The commit that raised the runs of four settings after the first book-scale run on the current criteria
#: (ce3c11f) had left their rows undecided at the paper's 100 runs: a size change made after the result,
#: logged on each row with its status at 100 runs (the criterion itself is unchanged).
_RAISED = ("8b33186", "2026-11-28")


def _raised(was: dict, runs: int, at_100: str) -> tuple[CriterionChange, ...]:
    """The decision-log entry of a row decided by raising its runs (:data:`_RAISED`) after an undecided result."""
    return (
        CriterionChange(
            *_RAISED,
            "book",
            was,
            f"the same criterion at n = 100 runs per setting (the paper's): status undecided at "
            f"book scale (ce3c11f), {at_100}; runs raised to {runs} per setting in {_RAISED[0]} to "
            "decide it (a size change made after an undecided result, not a new criterion)",
        ),
    )


_RISES = {"kind": "holds", "rule": "all(rises <= thresholds)"}
_RISES_WHY = (
    "was: no median rises by more than 2 bootstrap standard errors of the step (a test that only "
    "fails when a rise is resolved, and passes more easily with fewer runs); now every step's ratio "
    "of medians is decided with simultaneous intervals against a 10% rise. Seen: every step within "
    "its 2 SE at book and paper scale."
)


def _fig9(lab: str) -> list[Claim]:
    mech, data = _PANELS[lab]
    w = f"Sec. 7.3, Fig. 9({lab})"
    rows = [
        Claim(
            f"F9{lab}.1",
            f"Fig. 9({lab}), {data}, {mech}: IBU outperforms INV-N and INV-P (the better INV median "
            "minus IBU's is above 0 at every $\\varepsilon_g$ of the lower half of the grid)",
            source="paper",
            paper=Printed("IBU outperforms INV-N and INV-P", w),
            kind="order",
            relation="IBU < INV",
            tie=0.0,
            note="The difference of medians min(INV-N, INV-P) − IBU at each εg, with a BCa bootstrap interval "
            "resampling the runs (the three estimators score the same reports), simultaneous over the "
            "εg (Bonferroni).",
        ),
        Claim(
            f"F9{lab}.2",
            f"Fig. 9({lab}): ... significantly at the strongest privacy: min(INV)/IBU of the medians "
            "at the smallest $\\varepsilon_g$ is at least 2",
            source="paper",
            paper=Printed("IBU significantly outperforms the other methods", "Abstract; " + w),
            kind="range",
            lower=2.0,
            one_sided=True,
            domain=(0, None),
            effect=1.0,
            note="'significantly', 'decisively' (Sec. 1) read as a factor of at least 2; one-sided, as the claim. "
            "Ratio of medians with a BCa bootstrap interval resampling the runs jointly; falsifier: a "
            "factor 1 (no advantage).",
        ),
        Claim(
            f"F9{lab}.3",
            f"Fig. 9({lab}): IBU is never worse than INV (IBU / min(INV) of the medians at most 1.1 "
            "at every $\\varepsilon_g$ of the grid)",
            source="paper",
            paper=Printed("IBU outperforms INV-N and INV-P", w),
            kind="range",
            upper=1.1,
            one_sided=True,
            domain=(0, None),
            effect=0.4,
            note="1.1 allows a tie where the three meet. Ratios of medians with BCa bootstrap intervals, "
            "simultaneous over the εg; falsifier: IBU 1.5 times worse.",
        ),
        Claim(
            f"F9{lab}.5",
            f"Fig. 9({lab}): the estimation quality of all methods improves with $\\varepsilon_g$ "
            "(no median of IBU, INV-N or INV-P rises by 10% or more from one $\\varepsilon_g$ to the "
            "next)",
            source="paper",
            paper=Printed("the estimation quality of all methods improves with larger values of εg", "Sec. 7.3"),
            kind="order",
            relation="next <= previous",
            tie=0.0,
            rtol=_STEP,
            note="Medians with order-statistic intervals, simultaneous over the εg and the estimators "
            "(Bonferroni); the settings are independent runs, so each step's difference combines the two "
            "intervals (ldpnb.stats.difference_of).",
            changes=_log(_RISES, _RISES_WHY)
            + (
                _raised(
                    {"kind": "order", "relation": "next <= previous", "tie": 0.0, "rtol": _STEP},
                    300,
                    "one step undecided (INV-N's median from εg = 0.01 to 0.02 per year against a 10% rise; the "
                    "record kept runs to decide, 181, not the step's interval)",
                )
                if lab == "c"
                else ()
            ),
        ),
    ]
    if data == "locations":
        rows.append(
            Claim(
                f"F9{lab}.4",
                f"Fig. 9({lab}): the gap closes at weak privacy: max/min of the three medians "
                "at $\\varepsilon_g = 6$/km at most 1.2",
                source="paper",
                paper=Printed("IBU outperforms INV-N and INV-P, especially when εg is small", w),
                kind="range",
                upper=1.2,
                one_sided=True,
                domain=(1, None),
                effect=0.3,
                note="BCa bootstrap interval of the ratio of the largest to the smallest median (same "
                "runs); falsifier: a factor 1.5.",
            )
        )
    else:
        rows.append(
            Claim(
                f"F9{lab}.4",
                f"Fig. 9({lab}): the advantage is largest at strong privacy: min(INV)/IBU of "
                "the medians at the largest $\\varepsilon_g$ (0.3 per year) is at most 3/4 of "
                "its value at the smallest (0.01)",
                source="paper",
                paper=Printed("IBU outperforms INV-N and INV-P, especially when εg is small", w),
                kind="range",
                upper=0.75,
                one_sided=True,
                domain=(0, None),
                effect=0.25,
                expect="diverges" if lab == "e" else "pass",
                note="'Especially' read as: the factor shrinks by at least a quarter over the paper's range "
                "(the age grid does not reach the weak noise at which the three meet, unlike the "
                "locations' F9·.4). Added in the third edition (audit 4, missing claim 4) before "
                "the ratio was computed. BCa bootstrap interval (the two εg are independent runs, "
                "resampled jointly by index); falsifier: a factor 1 (no shrinking)."
                + (
                    " Decision log: declared expect='pass' for all three age panels; the first "
                    "book-scale run gave 0.35 (a), 0.57 (c) and 1.09 (e): under the exponential "
                    "mechanism IBU's advantage does not shrink over 0.01-0.3 per year. The "
                    "expectation of (e) is now 'diverges'; the criterion is unchanged."
                    if lab == "e"
                    else ""
                ),
                changes=(
                    CriterionChange(
                        *_THIRD,
                        "book",
                        {"kind": "range", "upper": 0.75, "expect": "pass"},
                        "expectation changed from pass to diverges after the first "
                        "book-scale run (0.35, 0.57, 1.09 for a, c, e): the exponential "
                        "mechanism's ratio is above 1; criterion unchanged",
                    ),
                )
                if lab == "e"
                else (),
            )
        )
    return rows


def _fig9_mle(lab: str) -> list[Claim]:
    mech, data = _PANELS[lab]
    w = f"Sec. 7.3, Fig. 9({lab}); the MLE IBU computes (Sec. 3.2)"
    ages = data == "ages"
    history = (
        ()
        if ages
        else (
            CriterionChange(
                *_THIRD,
                "book",
                {"kind": "range", "lower": 2.0, "expect": "diverges"},
                "relabelled as our extension and restated as 'below 2' (expect pass) after the first "
                "edition had measured 1.75, 1.67, 1.26 (b, d, f): a threshold read after the result, "
                "presented as a finding",
            ),
            *_log(
                {"kind": "range", "upper": 2.0, "expect": "pass"},
                "restated as the paper's factor 2 applied to the MLE, the first edition's criterion and "
                "expectation, graded with the ratio's interval: 'below 2' was chosen after the result",
            ),
        )
    )
    return [
        Claim(
            f"F9M{lab}.1",
            f"Fig. 9({lab}) at the certified MLE: the MLE outperforms INV-N and INV-P at every "
            "$\\varepsilon_g$ of the lower half (the better INV median minus the MLE's above 0)",
            source="extension",
            where=w,
            kind="order",
            relation="MLE < INV",
            tie=0.0,
            scales=_MANY_RUNS,
            note="As F9·.1, on the runs whose MLE is computed (resampled jointly).",
        ),
        Claim(
            f"F9M{lab}.2",
            f"Fig. 9({lab}) at the certified MLE, the paper's 'significantly' (row F9{lab}.2): "
            "min(INV)/MLE of the medians at the smallest $\\varepsilon_g$ is at least 2",
            source="extension",
            where=w,
            kind="range",
            lower=2.0,
            one_sided=True,
            domain=(0, None),
            effect=1.0,
            scales=_MANY_RUNS,
            expect="pass" if ages else "diverges",
            note="The paper runs IBU with its stopping rule only; this row applies its factor 2 to the MLE. "
            + (
                ""
                if ages
                else "Expected to diverge since the first edition (1.75, 1.67, 1.26 for b, d, f): "
                "part of the factor 2 of IBU under the paper's rule (row F9" + lab + ".2) comes from stopping "
                "early. "
            )
            + "Ratio of medians with a BCa bootstrap interval resampling the runs jointly; "
            "falsifier: a factor 1.",
            changes=history,
        ),
    ]


def _ldp(
    fig: str,
    lab: str,
    what: str,
    expect: str = "pass",
    note: str = "",
    raised: tuple[CriterionChange, ...] = (),
    raised_steps: tuple[CriterionChange, ...] = (),
) -> list[Claim]:
    where = {"10": "Sec. 7.4, Fig. 10", "12": "Sec. 7.5, Fig. 12"}[fig] + f"({lab})"
    said = {
        "10": "the differences in the performance of estimators are not substantial",
        "12": "INV-N, INV-P, and IBU exhibit almost the same estimation quality",
    }[fig]
    return [
        Claim(
            f"F{fig}{lab}.1",
            f"Fig. {fig}({lab}), {what}: the three estimators are comparable (max/min of the three "
            f"medians at most {_CMP} at every $\\varepsilon$)",
            source="paper",
            paper=Printed(said, where),
            kind="range",
            upper=_CMP,
            one_sided=True,
            expect=expect,
            scales=_MANY_RUNS,
            domain=(1, None),
            effect=0.5,
            note=(note + " " if note else "") + "The same relative criterion as T19 ('similar'). BCa bootstrap "
            "intervals of max/min at each ε (the three estimators score the same runs), simultaneous over "
            "the ε: holds when every upper end is at most 1.5, reversed when a lower end is above it; "
            "falsifier: a factor 2.",
            changes=raised,
        ),
        Claim(
            f"F{fig}{lab}.2",
            f"Fig. {fig}({lab}): all estimators improve with $\\varepsilon$ (no median rises by "
            "10% or more from one $\\varepsilon$ to the next)",
            source="paper",
            paper=Printed("the estimation quality of all methods improves", where),
            kind="order",
            relation="next <= previous",
            tie=0.0,
            rtol=_STEP,
            note="As F9·.5: medians with simultaneous order-statistic intervals.",
            changes=_log(_RISES, _RISES_WHY) + raised_steps,
        ),
    ]


CLAIMS = claim_table(
    # ------------------------------------------------------------------ Secs. 3-5: the likelihood
    Claim(
        "T0",
        "IBU's limit is a maximum-likelihood estimate (k-RR, k = 10, n = 2,000): certified gap "
        "$\\log\\max_x r_x \\le 10^{-10}$, $\\ell$ never decreases, and no generic solver (SLSQP) finds "
        "a higher $\\ell$",
        source="invariant",
        where="Sec. 3.2 (proved in ElSalamouny and Palamidessi 2020)",
        kind="holds",
        rule="gap <= 1e-10 and min_step >= -1e-13 and l_ibu >= l_slsqp - 1e-9",
    ),
    Claim(
        "T1",
        "Lemma 4.1: $L(\\gamma\\theta+(1-\\gamma)\\phi) \\ge \\gamma L(\\theta)+(1-\\gamma)L(\\phi)$, with "
        "equality iff $(\\theta-\\phi)G = 0$: equality on the segment (1,0,0)-(0,0,1) for the observation "
        "{2} of mechanism (4); strict for 200 random pairs on a positive 5 x 12 $G$",
        source="paper",
        paper=Printed("equality iff (θ−φ)G = 0", "Lemma 4.1, eq. (3)"),
        kind="holds",
        rule="max_equality_gap < 1e-12 and min_random_gap > 1e-12",
    ),
    Claim(
        "T3.0",
        "Mechanism (4), observation {2}: (1,0,0), (0,0,1) and every convex combination have the same $L$ "
        "(largest difference over 11 points of the segment)",
        source="paper",
        paper=Printed("the same log-likelihood value", "Sec. 4.1, Fig. 3(a)"),
        kind="holds",
        rule="max_diff < 1e-12",
    ),
    *[
        Claim(
            f"T3.{i}",
            f"Mechanism (4): {txt}",
            source="derived",
            reference=ref,
            kind="close",
            atol=1e-9,
            where="closed form from eq. (4): $L(\\theta) = \\log(0.45 - 0.35\\theta_2)$ for {2}, "
            "$+\\log(0.45 - 0.35\\theta_1)$ for {2, 1}",
        )
        for i, (txt, ref) in enumerate(
            [
                ("max $L$ for {2} = log 0.45", log(0.45)),
                ("$L$(uniform) for {2} = log(1/3)", log(1 / 3)),
                ("min $L$ for {2} = log 0.1, at (0,1,0) (grid of 301 x 301)", log(0.1)),
                ("max $L$ for {2, 1} = 2 log 0.45, at (0,0,1)", 2 * log(0.45)),
                ("$L$(uniform) for {2, 1} = 2 log(1/3)", 2 * log(1 / 3)),
                ("$L$(1,0,0) = $L$(0,1,0) for {2, 1} = log 0.45 + log 0.1", log(0.45) + log(0.1)),
            ],
            start=1,
        )
    ],
    Claim(
        "T3.7",
        "Mechanism (4), {2}: IBU from the uniform distribution converges to (1/2, 0, 1/2)",
        source="derived",
        reference=[0.5, 0.0, 0.5],
        kind="close",
        atol=1e-6,
        where="Sec. 4.1: IBU keeps $\\theta_1/\\theta_3$ of its start and drives $\\theta_2$ to 0",
    ),
    Claim(
        "T3.8",
        "Mechanism (4), {2}: IBU from (0.6, 0.3, 0.1) converges to (6/7, 0, 1/7)",
        source="derived",
        reference=[6 / 7, 0.0, 1 / 7],
        kind="close",
        atol=1e-6,
        where="Sec. 4.1: IBU keeps $\\theta_1/\\theta_3$ of its start and drives $\\theta_2$ to 0",
    ),
    Claim(
        "T3.9",
        "Mechanism (4): $L$ is not strictly concave for {2} and strictly concave for {2, 1} "
        "(Thm 4.1 (iii): rank $[G \\mid 1]$)",
        source="paper",
        paper=Printed("not strictly concave / strictly concave", "Sec. 4.1, Fig. 3"),
        kind="holds",
        rule="strict_2 == 0 and strict_21 == 1",
    ),
    Claim(
        "T10",
        "Prop. 5.1: $L$ strictly concave with a finite value, so the MLE is unique: IBU from 5 starts "
        "reaches (0,0,1) for {2, 1} (largest $L_1$ distance)",
        source="paper",
        paper=Printed("the MLE is unique", "Prop. 5.1"),
        kind="holds",
        rule="max_l1 < 1e-6",
    ),
    *[
        Claim(
            f"T11.{i}",
            f"Mechanism (12): {txt}",
            source="derived",
            reference=ref,
            kind="close",
            atol=1e-9,
            where="closed form from eq. (12): $L = 4\\log(0.1 + 0.8\\theta_2)$ for {2,2,2,2}, "
            "$+ 2\\log(0.45 - 0.4\\theta_2)$ for {2,2,2,2,1,3}",
        )
        for i, (txt, ref) in enumerate(
            [
                ("{2,2,2,2}: max $L$ = 4 log 0.9, at (0,1,0)", 4 * log(0.9)),
                ("{2,2,2,2}: $L$ = 4 log 0.1 on the segment (1,0,0)-(0,0,1), at (0.3, 0, 0.7)", 4 * log(0.1)),
                ("{2,2,2,2}: $L$(uniform) = 4 log(1.1/3)", 4 * log(1.1 / 3)),
                (
                    "{2,2,2,2,1,3}: max $L$ = 4 log(2/3) + 2 log(1/6), at $\\theta_2 = 17/24$",
                    4 * log(2 / 3) + 2 * log(1 / 6),
                ),
                ("{2,2,2,2,1,3}: $L$(uniform) = 4 log(1.1/3) + 2 log(0.95/3)", 4 * log(1.1 / 3) + 2 * log(0.95 / 3)),
            ],
            start=1,
        )
    ],
    Claim(
        "T11.6",
        "Mechanism (12), {2,2,2,2}: the MLE (0, 1, 0) is unique (IBU from the uniform distribution)",
        source="paper",
        paper=Printed([0, 1, 0], "Sec. 5.1, Fig. 5(a)"),
        kind="close",
        atol=1e-6,
    ),
    Claim(
        "T11.7",
        "Mechanism (12), {2,2,2,2,1,3}: IBU from the uniform distribution reaches (7/48, 17/24, 7/48)",
        source="derived",
        reference=[7 / 48, 17 / 24, 7 / 48],
        kind="close",
        atol=1e-6,
        where="closed form: $\\theta_2 = 17/24$ maximises $L$; IBU keeps $\\theta_1 = \\theta_3$",
    ),
    Claim(
        "T11.8",
        "Mechanism (12), {2,2,2,2,1,3}: IBU from (0.6, 0.3, 0.1) reaches (1/4, 17/24, 1/24)",
        source="derived",
        reference=[1 / 4, 17 / 24, 1 / 24],
        kind="close",
        atol=1e-6,
        where="closed form: $\\theta_2 = 17/24$; IBU keeps $\\theta_1/\\theta_3 = 6$",
    ),
    Claim(
        "T11.9",
        "Mechanism (12) has rank 2: $L$ is not strictly concave for either observation set, and "
        "{2,2,2,2,1,3} has many MLEs (two IBU limits with the same $L$ at $L_1$ distance > 0.1)",
        source="paper",
        paper=Printed("L turns to have many MLEs", "Sec. 5.1, Fig. 5(b)"),
        kind="holds",
        rule="rank == 2 and strict_a == 0 and strict_b == 0 and dL < 1e-12 and dist > 0.1",
    ),
    Claim(
        "S5.1a",
        "Mechanism (4) is identifiable (rank 3) although its MLE for {2} is not unique (the two IBU "
        "limits of T3.7, T3.8 have the same $L$ at $L_1$ distance > 0.1)",
        source="paper",
        paper=Printed("some mechanisms that allow IBU's consistency, such as the one described by (4)", "Sec. 5.1"),
        kind="holds",
        rule="rank == 3 and dL < 1e-12 and dist > 0.1",
    ),
    Claim(
        "S5.1c",
        "Mechanism (12), θ = (0.2, 0.3, 0.5): the MLE never converges to θ: with infinite data "
        "($q = \\theta M$) IBU from the uniform start reaches (0.35, 0.3, 0.35), which fits $q$ exactly "
        "($L_1$ distance 0.3 to θ)",
        source="paper",
        paper=Printed(
            "the MLE never converges with any amount of noisy data to the true distribution", "Sec. 5.1, Fig. 5(b)"
        ),
        kind="holds",
        rule="fit < 1e-9 and dist_inf > 0.25",
        note="Added in the third edition (audit 4, missing claim 1). IBU keeps $\\theta_1/\\theta_3$ of its start "
        "(rows 1 and 3 of mechanism (12) are equal), so from the uniform start it cannot reach θ. The "
        "Monte Carlo part (the error does not fall with n) is row S5.1d.",
        changes=_log(
            {"kind": "holds", "rule": "fit < 1e-9 and dist_inf > 0.25 and slope > -0.1"},
            "the slope of the Monte Carlo errors moved to its own row S5.1d, graded with its bootstrap "
            "interval (a holds rule takes exact numbers only); seen: slope -0.006",
        ),
    ),
    Claim(
        "S5.1d",
        "Mechanism (12), θ = (0.2, 0.3, 0.5): with $n = 10^3 \\dots 10^6$ reports the mean $L_1$ error of "
        "IBU does not fall (log-log slope above −0.1)",
        source="paper",
        paper=Printed(
            "the MLE never converges with any amount of noisy data to the true distribution", "Sec. 5.1, Fig. 5(b)"
        ),
        kind="range",
        lower=-0.1,
        one_sided=True,
        effect=0.4,
        note="Slope of log(mean error) against log n, with a BCa bootstrap interval resampling the samples at "
        "each n; falsifier: the consistent rate −1/2. (Was part of S5.1c's rule.)",
    ),
    Claim(
        "S5.1b",
        "Mechanism (4): IBU is consistent: the mean $L_1$ error falls as $n^{-1/2}$ (log-log slope "
        "over $n = 10^3 \\dots 10^6$ in [−0.65, −0.35])",
        source="paper",
        paper=Printed("mechanisms that allow IBU's consistency, such as the one described by (4)", "Sec. 5.1"),
        kind="range",
        lower=-0.65,
        upper=-0.35,
        effect=0.15,
        note="The band is that of T14 (rate $-1/2$ for a regular MLE), decided on the slope's bootstrap interval.",
    ),
    # ------------------------------------------------------------------ Sec. 4: the mechanisms
    Claim(
        "T25.1",
        "k-RR (k = 100, ε = 2) and basic Rappor (k = 8, ε = 1) are ε-LDP with a tight level: largest |tight ε − ε|",
        source="invariant",
        reference=0.0,
        kind="close",
        atol=1e-9,
        where="Sec. 4.2, eq. (5); Sec. 4.4 (Erlingsson et al. 2014)",
    ),
    Claim(
        "T25.2",
        "The geometric, Laplace and exponential channels of the experiments (linear and planar, every "
        "$\\varepsilon_g$ of Fig. 9) are $\\varepsilon_g$-geo-indistinguishable for the metric they are built "
        "on (years; the 0.5 km lattice for the planar geometric and Laplace; the distances between cell "
        "centres for the exponential): largest tight constant / $\\varepsilon_g$",
        source="invariant",
        upper=1 + 1e-9,
        one_sided=True,
        kind="range",
        where="Secs. 4.3, 7; Andrés et al. (2013); clamping and rounding are post-processing",
    ),
    Claim(
        "T7",
        "Lemma 4.4: the Rappor channel equals $p^{|X|} e^{-(1/2 + S(\\beta)/2 - \\beta_x)\\varepsilon}$ "
        "(k = 8, ε = 1; largest difference to the bitwise product)",
        source="paper",
        paper=Printed("P(β|X=x) = p^|X| exp(−(1/2 + S(β)/2 − β_x) ε)", "Lemma 4.4"),
        kind="holds",
        rule="max_abs_diff <= 1e-15",
    ),
    Claim(
        "T4-T6",
        "Cors. 4.2-4.4: when every element of $\\mathcal X$ is observed, $L$ is strictly concave under "
        "k-RR and the truncated and untruncated geometric mechanisms (150 random instances)",
        source="paper",
        paper=Printed("L(·) is strictly concave on C", "Cors. 4.2, 4.3, 4.4"),
        kind="holds",
        rule="violations == 0 and instances == 150",
    ),
    Claim(
        "T4b",
        "k-RR: $k-1$ distinct observed values already make $L$ strictly concave, $k-2$ never do "
        "(k = 3..12, random choices)",
        source="extension",
        where="Sec. 4.2 (sharpening Cor. 4.2)",
        kind="holds",
        rule="fail_km1 == 0 and strict_km2 == 0 and instances > 0",
    ),
    Claim(
        "T8",
        "Lemma 4.5: a 0/1 matrix of full rank over GF(2) has full rank over the reals, hence $L$ strictly "
        "concave (no Monte Carlo trial violates the nesting)",
        source="paper",
        paper=Printed("B has full rank in ℝ if it has full rank in 𝔽2", "Lemma 4.5, Thm 4.6"),
        kind="holds",
        rule="violations == 0",
    ),
    Claim(
        "T9.2",
        "Thm 4.6: with ε = 1 and $|\\mathcal X| = 10$, $L$ is strictly concave with probability almost one "
        "when n ≥ 25 (the lower bound at n = 25)",
        source="paper",
        paper=Printed("with probability almost one when n ≥ 25", "Sec. 4.4, Fig. 4"),
        kind="range",
        lower=0.99,
        upper=1.0,
        note="'almost one' read as at least 0.99.",
    ),
    Claim(
        "T9.3",
        "Thm 4.6: the bound is a lower bound: at every (ε, n) simulated the probability of strict "
        "concavity is at least the bound (within one percentage point)",
        source="paper",
        paper=Printed("strictly concave with probability at least ∏ max{0, 1 − pⁿ 2^(k−1)}", "Thm 4.6"),
        kind="order",
        relation="bound <= frequency",
        tie=0.01,
        note="Monte Carlo frequencies with Wilson intervals, simultaneous over the points (Bonferroni); the bound "
        "is exact. Holds when every interval's lower end is at least the bound minus 0.01. (Declared with "
        "domain=(0, 1) in a12d4b8; the power of an order is computed on the difference of its values, "
        "to which the values' domain does not apply, so no power was shown: the domain is dropped, the "
        "region and the status are unchanged.)",
        changes=_log(
            {"kind": "holds", "rule": "below == 0 and points > 0"},
            "was: no frequency below the bound by more than 3 standard errors (a test that can only fail "
            "on a resolved violation); seen: 0 of 66 points below",
        )
        + (
            CriterionChange(
                "17b17d7",
                "2026-11-28",
                "book",
                {"kind": "order", "relation": "bound <= frequency", "tie": 0.01, "domain": [0.0, 1.0]},
                "the domain (0, 1) was applied by the power computation to the difference of the "
                "values, so no power was shown; dropped (region, tie and status unchanged)",
            ),
        ),
    ),
    # ------------------------------------------------------------------ Sec. 6: consistency
    Claim(
        "T13.1",
        "Thm 6.1 (iii), hence (ii): every channel of the experiments has $|\\mathcal X|$ independent "
        "columns (the geo-indistinguishable channels of Fig. 9 at every $\\varepsilon_g$, k-RR on 100 and "
        "280 values, Rappor on 10); with every output observed once, $G = M$ and "
        "$\\operatorname{rank}[G \\mid 1] = \\operatorname{rank} M$, so the same test exhibits (ii)",
        source="paper",
        paper=Printed("M has |X| linearly independent columns", "Thm 6.1 (iii)"),
        kind="holds",
        rule="identifiable == channels and channels > 0",
    ),
    Claim(
        "T13.2",
        "Thm 6.1 (ii) and Prop. 5.1 on the data: the reports of every run whose MLE a row grades (Fig. 9, "
        "lower half of each grid; Fig. 10(a) at ε = 2) make $L$ strictly concave ($\\operatorname{rank}"
        "[G \\mid 1] = |\\mathcal X|$ on the observed outputs), so each of those MLEs is unique",
        source="extension",
        where="Thm 6.1 (ii), Thm 4.1, Prop. 5.1, with the reports of Sec. 7",
        kind="holds",
        rule="strict == runs and runs > 0",
        note="Third edition: the previous T13.2 exhibited (ii) with $G = M$ (every output observed once), the same "
        "rank test as T13.1 since $\\operatorname{rank}[M \\mid 1] = \\operatorname{rank} M$ (audit 4, D6); "
        "that form is now part of T13.1's text. This row asks the question (ii) raises for the data.",
    ),
    Claim(
        "T13.3",
        "Thm 6.1: a channel without $|\\mathcal X|$ independent columns has no such observation set "
        "(mechanism (12): 500 random observation multisets; the 25 x 16 channel of Sec. 6.4: "
        "rank $[M \\mid 1] < 25$)",
        source="paper",
        paper=Printed("the conditions are equivalent", "Thm 6.1"),
        kind="holds",
        rule="strict_12 == 0 and sets == 500 and rank_sf < 25",
    ),
    Claim(
        "T12",
        "Lemma 6.1 (Newey and McFadden, Thm 2.5): identification, compactness, continuity and dominance "
        "imply consistency",
        source="paper",
        paper=Printed("θ̂ⁿ → θ in probability", "Lemma 6.1"),
        kind="none",
        expect="not-evaluated",
        note="A cited theorem: nothing to compute. Its hypotheses are checked by T13, T14.5 and T15, its "
        "conclusion exercised by T14 (convergence) and T16 (failure without identification).",
    ),
    *[
        Claim(
            f"T14.{i}",
            f"Props. 6.2/6.3: IBU is consistent under {m}: the mean $L_1$ error falls as $n^{{-1/2}}$ "
            "(log-log slope over $n \\ge 10^3$ in [−0.65, −0.35])",
            source="paper",
            paper=Printed("converges in probability to the real distribution", w),
            kind="range",
            lower=-0.65,
            upper=-0.35,
            effect=0.15,
            note="Consistency of a regular MLE: error $\\propto n^{-1/2}$; ±0.15 allows the approach to the "
            "asymptotic rate over $n \\ge 10^3$. The slope of log(mean error) against log n is decided on "
            "its BCa bootstrap interval (the samples at each n resampled); falsifier: a slope 0.15 outside "
            "the band.",
        )
        for i, (m, w) in enumerate(
            [
                ("k-RR (ε = 1)", "Prop. 6.2"),
                ("the truncated geometric (εg = 0.5)", "Prop. 6.2"),
                ("the untruncated geometric (εg = 0.5)", "Prop. 6.3"),
                ("basic Rappor (ε = 1)", "Prop. 6.2"),
            ],
            start=1,
        )
    ],
    Claim(
        "T14.5",
        "Prop. 6.2 (dominance): $|\\log P(z|\\phi)| \\le -\\log\\min_{x,z} M_{xz}$ for k-RR, the "
        "truncated geometric mechanism and Rappor (200 random $\\phi$ each)",
        source="paper",
        paper=Printed("|log P(z|φ)| ≤ d(z) = −log(inf M_xy)", "Prop. 6.2, proof"),
        kind="holds",
        rule="violations == 0",
    ),
    Claim(
        "T15",
        "Prop. 6.3: $c e^{-\\varepsilon(|z-a|+\\ell)} \\le P(z|\\phi) \\le c e^{-\\varepsilon(|z-a|-\\ell)}$ "
        "(200 random $\\phi$ x 410 values of z)",
        source="paper",
        paper=Printed("c e^(−εg(|z−a|+ℓ)) ≤ P(z|φ) ≤ c e^(−εg(|z−a|−ℓ))", "Prop. 6.3, proof"),
        kind="holds",
        rule="violations == 0",
    ),
    Claim(
        "T16.1",
        "Sec. 6.4: the planar geometric mechanism (εg = 0.5) on 5 x 5 cells followed by truncation to "
        "4 x 4 cells has 25 rows and 16 columns, hence fewer than 25 independent columns",
        source="paper",
        paper=Printed("25 rows and 16 columns", "Sec. 6.4"),
        kind="holds",
        rule="rows == 25 and cols == 16 and rank < 25",
    ),
    Claim(
        "T16.2",
        "Sec. 6.4: with infinite data ($q = \\theta M$) IBU from 3 starts reaches 3 different MLEs, none "
        "equal to θ (each fits q to 1e-4 with a certified gap ≤ 1e-8; pairwise and to-θ EMDs > 0.02 km)",
        source="paper",
        paper=Printed("different distributions are fixed points", "Sec. 6.4, Fig. 6"),
        kind="holds",
        rule="max_fit < 1e-4 and max_gap <= 1e-8 and min_pair > 0.02 and min_to_theta > 0.02",
    ),
    # ------------------------------------------------------------------ Sec. 7: data
    Claim("D1", "Adult: the ages of 48,842 persons", source="paper", paper=_P["n_adult"], kind="close", atol=0.5),
    Claim(
        "D2",
        "Gowalla: the check-ins in the Manhattan box",
        source="paper",
        paper=_P["n_checkins"],
        kind="close",
        atol=0.5,
        expect="diverges",
        instead="abs(ours - 98060) <= 1",
        note="Our SNAP copy has 98,061, one more. None lies on the box's edges (row D2b), so the inclusivity of "
        "the bounds cannot explain it, and dropping exact duplicates gives 98,058: a copy difference of "
        "unknown origin.",
    ),
    Claim(
        "D2b",
        "No Manhattan check-in lies on an edge of the box (so closed and open bounds select the same set)",
        source="derived",
        reference=0,
        where="our SNAP copy of the Gowalla check-ins",
        kind="close",
        atol=0.0,
    ),
    Claim(
        "D3",
        "The grid has 20 x 14 = 280 cells; the ages take k = 100 values (0..99)",
        source="paper",
        paper=Printed([280, 100], "Secs. 7.1, 7.2, 7.6"),
        kind="close",
        atol=0.0,
    ),
    Claim(
        "R7.2a",
        "The Manhattan box covers 10 km x 7 km (north-south, east-west)",
        source="paper",
        paper=Printed([10, 7], "Sec. 7.2"),
        kind="close",
        atol=0.5,
    ),
    Claim(
        "R7.2b",
        "Cells of width 0.5 km (north-south, east-west)",
        source="paper",
        paper=Printed(0.5, "Sec. 7.2"),
        kind="close",
        atol=0.05,
    ),
    # ------------------------------------------------------------------ Sec. 7.1: Fig. 1
    Claim(
        "F1.1",
        "Fig. 1 (ages, geometric εg = 0.05): IBU outperforms INV-N and INV-P: the median over the runs of "
        "the paired difference min(INV-N, INV-P) − IBU is above 0",
        source="paper",
        paper=Printed("IBU outperforms the other two methods", "Sec. 7.1, Fig. 1"),
        kind="order",
        relation="IBU < INV",
        tie=0.0,
        note="The median of the per-run differences, with its order-statistic interval (distribution-free).",
        changes=_log(
            {"kind": "holds", "rule": "ci_low > 0"},
            "was: the percentile bootstrap interval of the same median above 0 (a chapter-local "
            "bootstrap); now the order-statistic interval of ldpnb.stats, decided with three outcomes; "
            "seen: 7.2 years [6.4, 8.0]",
        ),
    ),
    Claim(
        "F1.2",
        "Sec. 7.1: INV-P is closer to the truth than INV-N: the median over the runs of the paired "
        "difference EMD(INV-N) − EMD(INV-P) is above 0",
        source="paper",
        paper=Printed("INV-P is slightly closer to the true distribution than the one produced by INV-N", "Sec. 7.1"),
        kind="order",
        relation="INV-P < INV-N",
        tie=0.0,
        note="1,000 runs of INV alone (same reports for INV-N and INV-P); the median of the per-run differences "
        "with its order-statistic interval.",
        changes=_log(
            {"kind": "holds", "rule": "ci_low > 0"},
            "was: the percentile bootstrap interval of the same median above 0; now the "
            "order-statistic interval, three outcomes; seen: 1.97 years [1.75, 2.15]",
        ),
    ),
    Claim(
        "F1.3",
        "Sec. 1, Fig. 1: the INV methods perform rather poorly, IBU is quite precise (medians over the runs "
        "at εg = 0.05: the noisy reports' EMD at least 5 times IBU's; INV-N's and INV-P's at least half "
        "of the noisy reports')",
        source="paper",
        paper=Printed("the INV methods perform rather poorly, while IBU's estimate is quite precise", "Sec. 1, Fig. 1"),
        kind="range",
        lower=[5.0, 0.5, 0.5],
        one_sided=True,
        domain=(0, None),
        effect=0.25,
        note="Added in the third edition (audit 4, missing claim 3). The raw noisy histogram is the reference that "
        "needs no estimator: 'rather poorly' = removing less than half of its error, 'quite precise' = "
        "removing at least four fifths. Ratios noisy/IBU, INV-N/noisy, INV-P/noisy of the medians, BCa "
        "bootstrap intervals resampling the runs jointly, simultaneous over the three. Decision log: the "
        "thresholds were set after audit 4 reported one run (noisy 9.95, INV-N 10.21, INV-P 8.12, IBU 0.87 "
        "years), not after the medians.",
        changes=_log(
            {"kind": "holds", "rule": "ibu <= 0.2 * noisy and invn >= 0.5 * noisy and invp >= 0.5 * noisy"},
            "same thresholds (set in abcf132 after audit 4 reported one run), now on ratios of medians "
            "with simultaneous intervals instead of bare medians; seen: noisy 9.88, IBU 0.85, INV-N "
            "10.28, INV-P 8.65 years",
        ),
    ),
    Claim(
        "F1.2s",
        "Sec. 7.1: ... 'slightly': the median difference is at most a quarter of INV-N's median EMD",
        source="paper",
        paper=Printed("slightly closer", "Sec. 7.1"),
        kind="range",
        lower=0.0,
        upper=0.25,
        effect=0.1,
        note="median(INV-N − INV-P) / median(INV-N) over the 1,000 runs, BCa bootstrap interval; falsifier: 0.35.",
    ),
    # ------------------------------------------------------------------ Sec. 7.2: Fig. 8 (one run in the paper)
    Claim(
        "F8.1",
        "Fig. 8(b): the EMD of the noisy distribution, 0.7658 km, lies in our central 95% (the proportion "
        "of our single runs below it is in [0.025, 0.975])",
        source="paper",
        paper=_P["fig8_noisy"],
        kind="range",
        lower=0.025,
        upper=0.975,
        domain=(0, 1),
        effect=0.02,
        scales=_MANY_RUNS,
        note="1,000 runs; Wilson interval of the proportion; falsifier: a value at our 99.5th percentile.",
        changes=_log(
            {"kind": "order", "relation": "q025 <= paper <= q975"},
            "was: the printed value between our 2.5th and 97.5th percentiles (sample quantiles without "
            "their error); now the proportion below it with its Wilson interval; seen: 67.8th "
            "percentile",
        ),
    ),
    Claim(
        "F8.2",
        "Fig. 8(d): the EMD of INV-N, 0.7832 km, lies in our central 95% (the proportion of our single "
        "runs below it is in [0.025, 0.975])",
        source="paper",
        paper=_P["fig8_invn"],
        kind="range",
        lower=0.025,
        upper=0.975,
        domain=(0, 1),
        effect=0.02,
        expect="diverges",
        scales=_MANY_RUNS,
        note="1,000 runs; Wilson interval of the proportion. Expected to diverge since the first edition (the "
        "paper's value between our 97.5th and 99.5th percentiles); the margin is of the order of the Monte "
        "Carlo error of a 97.5th percentile, which the interval now decides: reversed (diverges) only when "
        "the whole interval is above 0.975. See the chapter's Fig. 8 discussion.",
        changes=_log(
            {"kind": "order", "relation": "q025 <= paper <= q975", "instead": "paper <= q995", "expect": "diverges"},
            "the `instead` rule (paper <= q995) was written in the first edition (1c86103) after the "
            "outcome and described it; dropped. The proportion below the printed value is decided on "
            "its Wilson interval; seen: 98.8th percentile (q975 0.765, q995 0.799)",
        ),
    ),
    Claim(
        "F8.3",
        "Fig. 8(c): the EMD of INV-P, 0.5862 km, lies in our central 95% (the proportion of our single "
        "runs below it is in [0.025, 0.975])",
        source="paper",
        paper=_P["fig8_invp"],
        kind="range",
        lower=0.025,
        upper=0.975,
        domain=(0, 1),
        effect=0.02,
        scales=_MANY_RUNS,
        note="1,000 runs; Wilson interval of the proportion.",
        changes=_log(
            {"kind": "order", "relation": "q025 <= paper <= q975"},
            "was: sample quantiles without their error; now the proportion with its Wilson interval; "
            "seen: 89th percentile",
        ),
    ),
    Claim(
        "F8.4",
        "Fig. 8(e): the EMD of IBU, 0.16995 km, lies in our central 95% (the proportion of our single runs "
        "of IBU, the paper's rule with $\\delta = 10^{-8}$ on $\\ell$, below it is in [0.025, 0.975])",
        source="paper",
        paper=_P["fig8_ibu"],
        kind="range",
        lower=0.025,
        upper=0.975,
        domain=(0, 1),
        effect=0.02,
        expect="diverges",
        scales=_MANY_RUNS,
        note="Runs of Fig. 9(b) at εg = 1 and further runs of IBU on the first reports of the INV runs, decided "
        "on the Wilson interval. IBU's EMD depends on the paper's unprinted threshold δ; the threshold "
        "sweep of the chapter (Fig. 'stopping rule') shows the median EMD over δ from 1e-5 to 1e-9, a "
        "description, not a test.",
        changes=_log(
            {
                "kind": "order",
                "relation": "q025 <= paper <= q975",
                "instead": "min(threshold_medians) <= paper and paper <= max(threshold_medians)",
                "expect": "diverges",
            },
            "the `instead` rule (the paper's value within the span of the threshold sweep's medians, "
            "0.135-0.240 km) could hardly fail (audit 4, D4); dropped, the sweep is described in the "
            "text. Seen: the paper's value below all 100 of our runs",
        ),
    ),
    Claim(
        "F8.5",
        "Sec. 7.2: IBU outperforms both INV; INV-P is better than INV-N (medians of the paired differences "
        "INV-P − IBU and INV-N − INV-P over the runs both above 0)",
        source="paper",
        paper=Printed(
            "IBU method outperforms both INV-N and INV-P. Observe also that INV-P is better than INV-N", "Sec. 7.2"
        ),
        kind="order",
        relation="IBU < INV-P < INV-N",
        tie=0.0,
        note="The 100 runs of Fig. 9(b) at εg = 1; order-statistic intervals of the two medians of differences, "
        "each at 97.5% (Bonferroni over the two).",
        changes=_log(
            {"kind": "holds", "rule": "ci_low_ibu > 0 and ci_low_inv > 0"},
            "was: percentile bootstrap intervals (chapter-local) of the same medians; now "
            "order-statistic intervals, Bonferroni over the two, three outcomes; seen: lower ends 0.27 "
            "and 0.16 km",
        ),
    ),
    Claim(
        "F8.7",
        "Fig. 8: other readings of the setting do not explain the printed values better: with the "
        "planar geometric kernel renormalised on the grid (instead of clamped to its border) and with the "
        "planar Laplace mechanism, our median noisy EMD is further from the paper's 0.7658 km than with "
        "the clamped geometric mechanism",
        source="extension",
        where="Sec. 7.2, Fig. 8(b); the truncation the paper does not specify",
        kind="range",
        lower=0.0,
        one_sided=True,
        scales=_MANY_RUNS,
        note="Added in the third edition (audit 4, D4: the chapter named these readings without computing them); "
        "criterion fixed before they were computed. The noisy EMD depends on the mechanism and the data "
        "only, so it is the value that pins the setting. Graded on the two differences |median − 0.7658| "
        "(other reading) − |median − 0.7658| (ours), BCa bootstrap intervals over the independent runs of "
        "each reading, simultaneous over the two: holds when both lower ends are above 0.",
        changes=_log(
            {"kind": "holds", "rule": "d_ours < d_renorm and d_ours < d_laplace"},
            "same comparison, now with the differences' bootstrap intervals (three outcomes); seen: "
            "offsets 0.0016 (ours), 0.196 (renormalised), 0.0066 km (Laplace)",
        ),
    ),
    # ------------------------------------------------------------------ Sec. 7.3: Fig. 9
    *[c for lab in "abcdef" for c in _fig9(lab)],
    *[c for lab in "abcdef" for c in _fig9_mle(lab)],
    Claim(
        "ST.1",
        "The paper's stopping rule stops earlier under the strongest noise: median number of updates at "
        "$\\varepsilon_g = 0.01$ below that at $\\varepsilon_g = 0.15$ (Fig. 9(a))",
        source="extension",
        where="Algorithm 1 (stopping rule), Fig. 9(a)",
        kind="order",
        relation="iter_001 < iter_015",
        tie=1.0,
        note="Medians of the update counts with order-statistic intervals (independent runs); a tie within one update.",
    ),
    Claim(
        "ST.2",
        "Early stopping regularises: at $\\varepsilon_g = 0.01$ on the ages (Fig. 9(a, c, e)) the median EMD "
        "where the paper's rule stops is below the median EMD of the certified MLE",
        source="extension",
        where="Algorithm 1, Fig. 9(a, c, e)",
        kind="order",
        relation="stop < MLE",
        tie=0.0,
        note="Difference of the medians (same runs), BCa bootstrap intervals simultaneous over the three panels.",
    ),
    Claim(
        "CONV",
        "Every IBU run of Figs. 9-12 stops by the paper's rule before max_iter = 20,000, and every MLE run "
        "is certified (the interior-point method converged to a gap ≤ 1e-13 nats per report and the "
        "bound on its distance to the exact MLE is finite)",
        source="invariant",
        where="Algorithm 1; ldpnb.estimators._certify",
        kind="holds",
        rule="capped == 0 and uncertified == 0 and runs > 0",
        note="Third edition: 'certified' was a gap of 1e-6 on ℓ, which does not bound the estimate (audit 4, D2).",
    ),
    Claim(
        "CERT",
        "The MLE is certified on what the rows use: in every setting where it is computed, the certified "
        "bound on the EMD between each computed MLE and the exact MLE is at most 1% of the median MLE EMD "
        "(so every median, ratio and comparison of MLE EMDs is exact to 1%)",
        source="invariant",
        where="ldpnb.estimators._certify (strong concavity on the face of the simplex)",
        kind="holds",
        rule="max_rel <= 0.01 and settings > 0",
        note="Third edition (audit 4, D2: a gap of 1e-6 on ℓ left the EMD 5-6% low where the likelihood is flat). "
        "The 1% was fixed after a pilot of 10 runs per setting at the flattest settings (largest ratio 0.3%).",
    ),
    Claim(
        "MLEx",
        "An independent algorithm agrees: EM accelerated by SQUAREM, run to a gap of 1e-10, lands within "
        "0.1% (EMD) of the interior-point MLE, and within the sum of the two points' certified bounds, on "
        "the first runs of the flattest settings (Fig. 9(a) εg = 0.01, Fig. 9(b) 0.2/km)",
        source="invariant",
        where="Algorithm 1 (EM) against ldpnb.estimators._certify",
        kind="holds",
        rule="violations == 0 and max_rel <= 1e-3 and runs > 0",
        note="Third edition (audit 4, D2). A pilot on 6 and 3 runs gave relative differences of 1e-4 or less.",
    ),
    # ------------------------------------------------------------------ Secs. 7.4, 7.5: Figs. 10-12
    *_ldp(
        "10",
        "a",
        "ages, k-RR",
        raised=_raised(
            {"kind": "range", "upper": _CMP, "one_sided": True, "domain": (1, None), "effect": 0.5},
            200,
            "max/min 1.37, simultaneous interval [1.20, 1.506] against 1.5 (109 runs to decide)",
        ),
    ),
    *_ldp("10", "b", "locations, k-RR"),
    Claim(
        "F11a",
        "Fig. 11(a): IBU estimates the binomial well (Rappor, ε = 0.5, n = 1e5): the median EMD of IBU is "
        "at most a tenth of the EMD of the uniform guess",
        source="paper",
        paper=Printed("IBU to estimate the original distributions", "Sec. 7.5, Fig. 11(a)"),
        kind="range",
        upper=0.1,
        one_sided=True,
        domain=(0, None),
        effect=0.1,
        note="IBU recovers at least 90% of the distance between the uninformed guess and the truth. Ratio of the "
        "medians over the runs (same inputs), BCa bootstrap interval; falsifier: 0.2.",
    ),
    Claim(
        "F11b",
        "Fig. 11(b): IBU puts about zero mass outside {3, 4, 5, 6} (median over the runs at most 0.05)",
        source="paper",
        paper=Printed("assigns probability zero outside this range", "Sec. 7.5, Fig. 11(b)"),
        kind="range",
        upper=0.05,
        one_sided=True,
        domain=(0, 1),
        effect=0.05,
        note="Median over the runs with its order-statistic interval; falsifier: 0.1 outside.",
    ),
    *_ldp(
        "12",
        "a",
        "Rappor, binomial inputs",
        expect="diverges",
        note="At weak noise INV-N falls behind IBU by more than 'almost the same' allows (measured in the chapter).",
        raised_steps=_raised(
            {"kind": "order", "relation": "next <= previous", "tie": 0.0, "rtol": _STEP},
            800,
            "flat steps at large ε undecided against a 10% rise (the record kept runs to "
            "decide, 598, not the steps' intervals)",
        ),
    ),
    *_ldp(
        "12",
        "b",
        "Rappor, uniform inputs on {3..6}",
        expect="diverges",
        note="At weak noise INV-N falls behind IBU by a factor of about 2: not 'almost the same' (measured in "
        "the chapter).",
        raised_steps=_raised(
            {"kind": "order", "relation": "next <= previous", "tie": 0.0, "rtol": _STEP},
            800,
            "flat steps at large ε undecided against a 10% rise (the record kept runs to "
            "decide, 463, not the steps' intervals)",
        ),
    ),
    # ------------------------------------------------------------------ Sec. 7.6
    Claim(
        "T19",
        "Sec. 7.6: k-RR at ε = 2 and the geometric mechanism at εg = 0.05 give similar IBU utility on the "
        "ages (max/min of the median EMDs of Figs. 10(a) and 9(a) at most 1.5; the paper's rule)",
        source="paper",
        paper=Printed("similar statistical utility ... when IBU is used", "Sec. 7.6"),
        kind="range",
        upper=_CMP,
        one_sided=True,
        expect="diverges",
        domain=(1, None),
        effect=0.5,
        note="Geometric IBU is several times better than k-RR IBU where the paper's rule stops; the ratio "
        "depends on the unprinted threshold (see the chapter's threshold table). Ratio of two independent "
        "medians, BCa bootstrap interval; falsifier: a factor 1 (equal).",
    ),
    Claim(
        "T19M",
        "Sec. 7.6 at the certified MLE: max/min of the median EMDs of k-RR at ε = 2 and the geometric "
        "mechanism at εg = 0.05 (ages) at most 1.5",
        source="extension",
        where="Sec. 7.6, Figs. 10(a), 9(a); the MLE IBU computes (Sec. 3.2)",
        kind="range",
        upper=_CMP,
        one_sided=True,
        expect="diverges",
        domain=(1, None),
        effect=0.5,
        note="The paper's 'similar' at the MLE, our extension (the paper runs its stopping rule only; was labelled "
        "a paper claim). Ratio of two independent medians with a BCa bootstrap interval. At the paper's 100 "
        "runs per setting the third edition measured 1.557 [1.41, 1.70], undecided (audit 4, D1); the runs "
        "of these two settings are raised to decide it (a size change, decided before the result; the "
        "expectation is the third edition's).",
    ),
    Claim(
        "P7.1a",
        "Prop. 7.1 at k = 100, ε = 2: the bound $((e^2 + 99)/(e^2 - 1))^2/n$",
        source="paper",
        paper=_P["krr_bound"],
        kind="close",
        atol=0.005,
        expect="diverges",
        instead=f"abs((ours - {_P['krr_bound'].value}) - 50) <= 0.005",
        changes=(
            CriterionChange(
                "8c0fa9a",
                "2026-11-28",
                "paper",
                {
                    "kind": "close",
                    "target": 227.28,
                    "atol": 0.005,
                    "expect": "diverges",
                    "instead": "abs(ours - 277.28) <= 0.005",
                },
                "the `instead` rule compared ours with a literal of our own value (277.28), "
                "written after the result: it did not test the explanation. Now it tests it "
                "(the printed value is ours minus 50, one digit misprinted); seen: 277.28125, "
                "diverges under both",
            ),
        ),
        note="A misprint: the formula gives 277.28/n; the printed value differs from it by 50 exactly (its "
        "second digit, 7, printed as 2): the `instead` rule.",
    ),
    Claim(
        "P7.1b",
        "Prop. 7.1: the exact INV error of the Adult ages under k-RR (ε = 2) is below the bound (and the "
        "closed form agrees with the generic computation)",
        source="paper",
        paper=Printed("E‖v−θ‖² ≤ ((e^ε+k−1)/(e^ε−1))²/n", "Prop. 7.1"),
        kind="holds",
        rule="exact <= bound and abs(exact - closed) <= 1e-8 * exact",
    ),
    Claim(
        "P7.1g",
        "Prop. 7.1 for every k, ε, θ: no violation among 20,000 sampled cases (k ≤ 300, one draw in ten "
        "at k = 2; ε ≤ 8, five θ each) and the closed form equals the generic computation",
        source="paper",
        paper=Printed("any alphabet of size k, any original distribution", "Prop. 7.1"),
        kind="holds",
        rule="violations == 0 and max_rel_diff < 1e-8 and instances > 0",
    ),
    Claim(
        "P7.2a",
        "Prop. 7.2 at εg = 0.05: the bound $(\\beta^3 - 2\\alpha\\beta^2 - 2)/n$",
        source="paper",
        paper=_P["geo_bound"],
        kind="close",
        atol=0.5,
        expect="diverges",
        instead="abs(ours - ((1/(1 - exp(-0.05)))**3 - 2*exp(-0.05)*(1/(1 - exp(-0.05)))**2 - 2)) <= 0.005 "
        f"and abs({_P['geo_bound'].value} - (20**3 - 2*0.95*20**2 - 2)) <= 0.5",
        changes=(
            CriterionChange(
                "8c0fa9a",
                "2026-11-28",
                "paper",
                {
                    "kind": "close",
                    "target": 7238,
                    "atol": 0.5,
                    "expect": "diverges",
                    "instead": "abs(ours - 7818.55) <= 0.005",
                },
                "the `instead` rule compared ours with a literal of our own value (7818.55), "
                "written after the result: it did not test the explanation. Now it checks "
                "that ours is the bound at the exact alpha, beta and the printed 7238 the "
                "bound at alpha = 0.95, beta = 20; seen: 7818.5456, diverges under both",
            ),
        ),
        note="The exact α = e^−0.05 = 0.951229, β = 1/(1 − α) = 20.504 give 7818.55/n; the printed "
        "7238 = 20³ − 2(0.95)(20²) − 2 rounds α and β first. The `instead` rule checks both: ours is the "
        "bound at the exact α, β and the printed value is the bound at α = 0.95, β = 20.",
    ),
    Claim(
        "P7.2b",
        "Prop. 7.2: the exact INV error of the Adult ages under the geometric mechanism (εg = 0.05) is above the bound",
        source="paper",
        paper=Printed("E‖v−θ‖² ≥ (β³ − 2αβ² − 2)/n", "Prop. 7.2"),
        kind="holds",
        rule="exact >= bound",
    ),
    Claim(
        "P7.2g",
        "Prop. 7.2 for every k, θ and εg < ln 2: no violation among 20,000 sampled cases (k ≤ 300, one "
        "draw in ten at k = 2; five θ each)",
        source="paper",
        paper=Printed("X = {0, 1, ..., k−1}, any original distribution, α > 1/2", "Prop. 7.2"),
        kind="holds",
        rule="violations == 0 and max_rel_diff < 1e-8 and instances > 0",
        expect="diverges",
        instead="violations == violations_k2 and max_rel_diff < 1e-8 and min_margin_k3 > 0",
        note="False at k = 2: there $M^{-1} = \\beta[[1, -\\alpha], [-\\alpha, 1]]$ and the exact error "
        "$(\\beta^2(1+\\alpha^2) - \\|\\theta\\|^2)/n$ is below the bound for small εg (row P7.2k2). Every "
        "violation is at k = 2; for k ≥ 3 it holds with a margin (the `instead` rule).",
    ),
    Claim(
        "P7.2k2",
        "Prop. 7.2 at k = 2, εg = 0.05, θ = (1, 0): the Monte Carlo INV error (n = 1,000, 20,000 runs) "
        "equals the closed form $\\beta^2(1+\\alpha^2) - 1$ (x 1/n) within 3 standard errors, an order of "
        "magnitude below the bound 7818.55",
        source="derived",
        reference=_K2_EXACT,
        kind="close",
        rtol=0.05,
        where="closed form of the 2 x 2 inverse (Sec. 7.6)",
        note="The reference is $\\beta^2(1+\\alpha^2) - 1$ at α = e^(−0.05). The Monte Carlo mean with its "
        "normal interval (standard error of 20,000 runs) must lie within 5% of it.",
        changes=_log(
            {"kind": "close", "target": _K2_EXACT, "atol": 0.001, "rtol": 0.0, "z": 3.0},
            "was: within 3 standard errors (the deprecated z rule, which passes more easily with fewer "
            "runs); now the interval within 5%, the same width at 20,000 runs; seen: 796.8 (se 8)",
        ),
    ),
    Claim(
        "P7.3",
        "Exact INV squared error equals Monte Carlo, k-RR k = 10, ε = 1, n = 1,000 (4,000 runs): the ratio Monte "
        "Carlo / "
        "exact is within 5% of 1",
        source="invariant",
        where="E‖v−θ‖² = (Σ_z π_z ‖r_z‖² − ‖θ‖²)/n (Sec. 7.6)",
        kind="close",
        reference=1.0,
        atol=0.05,
        effect=0.05,
        note="The Monte Carlo mean's normal interval (its standard error over 4,000 runs), divided by the exact value.",
        changes=_log(
            {"kind": "close", "target": 0.0, "atol": 0.0, "rtol": 0.0, "z": 3.0},
            "was: Monte Carlo − exact within 3 standard errors (the deprecated z rule: no tolerance, so "
            "it passes more easily with fewer runs); now the ratio's interval within 5% of 1",
        ),
    ),
    Claim(
        "P7.4",
        "Exact INV squared error equals Monte Carlo, geometric k = 20, εg = 0.3, n = 2,000 (4,000 runs): the ratio "
        "Monte Carlo / "
        "exact is within 5% of 1",
        source="invariant",
        where="E‖v−θ‖² = (Σ_z π_z ‖r_z‖² − ‖θ‖²)/n (Sec. 7.6)",
        kind="close",
        reference=1.0,
        atol=0.05,
        effect=0.05,
        note="The Monte Carlo mean's normal interval (its standard error over 4,000 runs), divided by the exact value.",
        changes=_log(
            {"kind": "close", "target": 0.0, "atol": 0.0, "rtol": 0.0, "z": 3.0},
            "was: Monte Carlo − exact within 3 standard errors (the deprecated z rule: no tolerance, so "
            "it passes more easily with fewer runs); now the ratio's interval within 5% of 1",
        ),
    ),
    # ------------------------------------------------------------------ Sec. 8: likely subsets
    Claim(
        "T22",
        "Prop. 8.2: every element of $\\mathcal X$ outside $[x_{min}, x_{max}]$ is unlikely (Def. 2, exact "
        "dominance test)",
        source="paper",
        paper=Printed("[x_min, x_max] ∩ X is a likely subset", "Prop. 8.2, Fig. 13"),
        kind="holds",
        rule="unlikely == outside and outside > 0",
    ),
    Claim(
        "T22b",
        "Sec. 8.2: the geometric, Laplace and exponential mechanisms on the integers satisfy Prop. 8.2's "
        "condition $M_{xz} > M_{x'z}$ whenever $|x - z| < |x' - z|$ (every pair of a window) and, for six "
        "reports of each, every element outside $[x_{min}, x_{max}]$ is unlikely (exact dominance)",
        source="paper",
        paper=Printed(
            "Many classical mechanisms such as the geometric, Laplace, and exponential "
            "mechanisms satisfy this property",
            "Sec. 8.2",
        ),
        kind="holds",
        rule="violations == 0 and pairs > 0 and unlikely == outside and outside > 0",
        note="Added in the third edition (audit 4, missing claim 2): T22 exercises the geometric mechanism only. "
        "The mechanisms are the untruncated ones of Sec. 8, on a window of the integers.",
    ),
    Claim(
        "T21.1",
        "Thm 8.2: IBU on the likely subset and on $\\mathcal X$ (5,000 Adult ages, untruncated geometric "
        "εg = 0.1, the same number of updates from the uniform start) reach the same $\\ell$ (|Δℓ| < 1e-8), and at the "
        "subset's estimate no element outside it would raise the likelihood ($r_x < 1$ outside)",
        source="paper",
        paper=Printed("θ̂ is an MLE on X iff ... an MLE on the likely subset", "Thm 8.2"),
        kind="holds",
        rule="dl < 1e-8 and r_out_max < 1",
    ),
    Claim(
        "T21.2",
        "Lemma 8.1: an MLE gives the unlikely elements probability 0 (IBU's mass outside the likely "
        "subset after the updates of T21.1)",
        source="paper",
        paper=Printed("θ̂_x' = 0 for every unlikely x'", "Lemma 8.1"),
        kind="holds",
        rule="mass < 1e-40",
    ),
    Claim(
        "T21.3",
        "Sec. 8: on the likely subset IBU obtains the MLE more efficiently: to the same certificate "
        "(gap ≤ 1e-4; 5,000 Adult ages, untruncated geometric εg = 0.1, window of 4,101 integers) it needs "
        "no more updates than on the whole window, so its work (entries of $G$ times updates) is at most "
        "the size ratio of the full run's",
        source="paper",
        paper=Printed("we can efficiently obtain an MLE via IBU", "Sec. 8"),
        kind="order",
        relation="updates_subset <= updates_full",
        note="Third edition (audit 4, D6): was the CPU time on a 20 times smaller matrix (it could not "
        "realistically fail, and as a timing it showed no value). The cost of an update is proportional to "
        "the entries of $G$, so the saving hinges on the number of updates, which can go either way; the CPU "
        "times are given in the chapter.",
    ),
    Claim(
        "T24",
        "Prop. 8.4: under k-RR the reported values are a likely subset: IBU on them and on $\\mathcal X$ "
        "(the setting of T24t, 100 updates each) reach the same $\\ell$; the unreported values get "
        "probability about 0",
        source="paper",
        paper=Printed("X′ is a likely subset of X", "Prop. 8.4"),
        kind="holds",
        rule="dl < 1e-9 and mass < 1e-40",
    ),
    Claim(
        "T24t",
        "Sec. 8.4: the k-RR likely subset reduces IBU's computation when the reports occupy few cells "
        "(7,000 cells of 0.1 km over the Manhattan box, 1,000 real check-ins, ε = 8): to the same "
        "certificate (gap ≤ 1e-6) IBU on the reported cells needs no more updates than on all cells",
        source="paper",
        paper=Printed(
            "the noisy dataset may be distributed over only a small number of cells, "
            "hence reducing the computation time of IBU",
            "Sec. 8.4",
        ),
        kind="order",
        relation="updates_subset <= updates_full",
        note="Third edition (audit 4, D6): was the CPU time on an 8 times smaller matrix (could not realistically "
        "fail; no value shown). The work per update is proportional to the entries of $G$; the CPU times are "
        "given in the chapter.",
    ),
    Claim(
        "T24u",
        "On the Manhattan data of Sec. 7.2 (98,061 check-ins in our copy) the k-RR likely subset is the "
        "whole grid for ε ≤ 8 (expected fraction of reported cells ≥ 0.99 at 0.5, 0.25 and 0.1 km cells)",
        source="extension",
        where="Sec. 8.4 with the data of Sec. 7.2",
        kind="range",
        lower=0.99,
        upper=1.0,
    ),
    Claim(
        "T23.0",
        "Fig. 14(a): a square lattice of width h = 0.3 km has discretisation error δ = h/√2 = 0.21 km",
        source="paper",
        paper=_P["fig14_delta"],
        kind="close",
        atol=0.005,
    ),
    Claim(
        "T23.1",
        "Fig. 14(b), eq. (13): δ′ = 1.87 km for δ = 0.21 km and $d_{max}$ = 8.25 km",
        source="paper",
        paper=_P["fig14_delta_prime"],
        kind="close",
        atol=0.005,
    ),
    Claim(
        "T23.2",
        "Prop. 8.3: lattice points outside $T_{\\delta'}(\\mathcal B)$ are unlikely (300 probed, exact "
        "dominance) and IBU on $T_{\\delta'}(\\mathcal B) \\cap \\mathcal X$ reaches the log-likelihood of the "
        "whole window",
        source="paper",
        paper=Printed("T_δ′(B) ∩ X is a likely subset", "Prop. 8.3, Fig. 14"),
        kind="holds",
        rule="unlikely == probed and probed > 0 and dl < 1e-6",
    ),
)
