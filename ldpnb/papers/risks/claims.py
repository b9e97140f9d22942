"""The claims of Arcolezi, Gambs, Couchot and Palamidessi, "On the Risks of Collecting Multidimensional
Data Under Local Differential Privacy", PVLDB 16(5), 2023, as data (one :class:`Claim` each).

A value is ``paper`` only where the paper prints it (the paper has no tables and prints no curve
value: numbers read off curves, or formulas evaluated by us, are ``derived``).  Tolerances of the
statistical rows follow from the claim's wording ("about", "~") and the Monte Carlo error at the
chapter's number of runs, stated in each row.
"""

from ldpnb.repro.claims import Claim, CriterionChange, Printed, claim_table

_PAPER_SCALE = ("paper",)
_GRID_SCALES = ("book", "paper")  # the s / n_pk / HM grid of XGBoost does not run at smoke scale
_XGB_NOTE = (
    "Graded on the variants for which the chapter runs the paper's whole s / n_pk / HM grid at this scale "
    "(the numbers say which): GRR at book scale, every variant at SCALE=paper. The 9 default-parameter fits "
    "of one (variant, ε) cost 22-51 s of one core on ACS (measured, CSR input for the UE bits)."
)
_XGB = "the paper's attacker, XGBoost with default parameters (Sec. 3.3)"
#: The XGBoost rows recorded as estimates (issue #31): what their intervals are.
_XGB_EST = (
    " Estimator: ldpnb.papers.risks.grading (xgb_estimate, xgb_difference, xgb_excess). Where a view (a "
    "dataset and setting) has at least 20 (curve, ε) cells with three runs or more (at SCALE=paper: every "
    "view), each cell's interval is Student's on its moderated variance (ldpnb.stats."
    "moderated_means: the between-run variance relative to the test users' binomial variance, shrunk towards "
    "the view's empirical-Bayes prior; a one-run cell takes the prior's; computed at the 99.5 % level, "
    "calibrated by simulation), a difference of two such cells with half-widths in quadrature. Elsewhere "
    "(the book's and smoke scales): the mean of a cell's runs with Hall's interval where it has two runs or "
    "more (ldpnb.stats.mean, a difference paired over the runs), Wilson's interval over the test users where "
    "it has one (ldpnb.stats.proportion; the excess over the oracle: the paired interval over the test "
    "users), which leaves out the variation between training runs. The cells joint at 95 % (Bonferroni), a "
    "largest or mean cell from their joint intervals."
)
#: The two orders of XGBoost cells graded on run means: recorded with estimates, an order gets its falsifier
#: only from its values swapped or tied (ldpnb.repro.claims), which cannot make a cell-wise mixed order hold.
_XGB_ORDER = (
    " Graded on run means (point values): recorded with intervals, this diverging order has no falsifier in "
    "the machinery (its values swapped or tied never make every cell hold), so the statistics layer is not "
    "applied yet (issue #31)."
)
#: The XGBoost rows still graded on run means (kinds holds, monotone, and orders whose falsifier search
#: needs exact values).
_XGB_POINT = (
    " Graded on run means (point values): this criterion's kind takes exact numbers, so the interval of the "
    "statistics layer is not applied (issue #31)."
)
#: The commit that put the Monte Carlo rows of this chapter on ldpnb.stats (phase B of issue #31), before the
#: new code ran; and the commit of the previous edition's criteria (phase A, issue #37).
_STATS, _STATS_DATE = "9588c44", "2026-11-28"
_A, _A_DATE = "d0fc57e", "2026-11-28"
#: The commit that changed the criteria of the third audit's weak rows (E1-Adult, E2-3x, H9-b, H10-b,
#: H10-c) after the book-scale results of main (6faf701) had been seen.
_R3, _R3_DATE = "d4cc32f", "2026-11-28"
#: The commit that changed H6-sens and H9-b (split into H9-b-OUE) after the paper-scale record made at 9d0b193.
_P4, _P4_DATE = "fbdd6eb", "2026-11-28"
#: The commit that declared an effect on the XGBoost rows and tightened T17's cushion, after the paper-scale
#: record made at fc019e8 had been seen (the re-audit of 2026-11-28 found no effect declared).
_EFF, _EFF_DATE = "396eb3f", "2026-11-29"


#: The commit that graded T17, T17-Adult and T17-Nursery per curve instead of per (curve, ε) cell, after the
#: paper-scale record made at 99f3260 had been seen (the criterion is unchanged, the estimator changed).
_CURVES, _CURVES_DATE = "78a69e4", "2026-11-29"
#: What rows T17, T17-Adult and T17-Nursery grade, and how (their note; replaces _XGB_EST for them).
_T17_EST = (
    "Estimator: ldpnb.papers.risks.grading.xgb_largest_excess. Per curve (dataset, setting, variant, model), the "
    "mean over its ε of each cell's run mean of the paired excess (each fit's accuracy minus the oracle's on the "
    "fit's own test users), the fits the units; its variance from the between-run variance within each cell "
    "(sum of s_c^2 / r_c over the curve's C cells, over C^2; a cell's variance never below its test users' "
    "paired, McNemar, variance), Student's t on Satterthwaite's degrees of freedom. A cell with one run (at "
    "SCALE=paper the ACS curves of NK s=3n, HM (3n, 0.3n) and HM (5n, 0.5n), one run at ε ∈ {1, 10}) enters "
    "with its test users' paired variance times the empirical-Bayes prior of the ratio of between-run to "
    "test-user variance fitted to the row's cells of three runs or more (Student's t on the prior's d0; "
    "ldpnb.stats.prior_variance); where fewer than 20 cells have three runs (every cell at smoke scale, most at "
    "book scale) with its test users' paired variance alone, which leaves out the variation between training "
    "runs. The interval of the largest curve mean: lower end the largest of the "
    "curves' lower ends joint at 95 % (Bonferroni), upper end the largest of the curves' own 95 % upper ends "
    "(an intersection-union bound: the largest true mean exceeds it only when its own curve's bound misses it, "
    "so the row passes wrongly at most 2.5 % of the time whatever the number of curves). A defect confined to "
    "one ε of a curve enters its mean divided by the curve's number of ε: on the 10-ε curves of ACS at "
    "SCALE=paper one cell must be about 7 points above the oracle (the others at it) to stop the row passing "
    "and about 15-17 to fail it; on the 2-ε curves of 3-4 runs (Adult, Nursery, ACS's s grid) about 1 and 5 "
    "points; the one-run curves of ACS's s grid, on the prior's few degrees of freedom, fail the row only "
    "above about 6 points for the whole curve (at the noise of the paper-scale simulations of "
    "tests/test_risks_t17.py)."
)


def _curves_change(seen: str) -> CriterionChange:
    """The decision-log entry of the per-curve estimator of rows T17 (:data:`_CURVES`): the criterion as it was
    (unchanged), the old estimator and what the paper-scale record gave under it."""
    return CriterionChange(
        _CURVES,
        _CURVES_DATE,
        "paper",
        {"kind": "range", "upper": 1.0, "one_sided": True, "effect": 1.0},
        "the criterion is unchanged (so its status on the new numbers is the new one); the estimator changed after "
        "the paper-scale record made at 99f3260 had been seen. It was the largest over every (curve, ε) cell of "
        "the mean paired excess over the cell's runs (xgb_excess: moderated variances, Bonferroni over the "
        "cells, interval [max low, max high]); " + seen + ". That statistic could not decide by design: at "
        "SCALE=paper ACS has 530 cells of 1-4 runs and the prior fitted d0 = 2.46, so the Bonferroni t quantile "
        "(at the moderated intervals' widened level) is about 16-22 for a cell of 3-4 runs and about 126 for a "
        "cell of one run (the s grid's), and 1 point cannot be resolved with 10,336 users whatever the truth; "
        "a per-fit test (each fit against the oracle, paired "
        "s.e. 0.4-0.5 point, Bonferroni over about 2,000 fits: half-widths about 2 points) cannot either. Now "
        "the largest over the curves of the mean paired excess over the curve's ε grid and runs (s.e. about "
        "0.1-0.15 point on a 10-ε curve), with an intersection-union upper end; the upper bound 1 point and the "
        "effect 1 point are unchanged",
    )


_T17_WHY = (
    "with intervals the test-set noise is in the estimate's interval, so the 1.5-point cushion of point grading "
    "is dropped to 1 point, the smallest excess over the Bayes oracle this chapter would call a defect (a leak of "
    "the label or a wrong oracle shows as several points), with effect 1 point (a true excess of 2 points must "
    "fail). Tightened after every value had been seen: the record at fc019e8 had largest excesses 0.21 "
    "(ACS), 0.13 (Adult) and 0.36 (Nursery), interval highs 249 (ACS, two-run cells), 0.60 and 1.50"
)


def _effect_change(was: dict, why: str) -> CriterionChange:
    """The decision-log entry of an effect declared after the paper-scale record at fc019e8 had been seen."""
    return CriterionChange(
        _EFF,
        _EFF_DATE,
        "paper",
        was,
        "no effect was declared, so the falsifier sat on the region's edge and the weak-test flag could not "
        "fire (the re-audit of 2026-11-28); declared after the paper-scale record at fc019e8 had been seen; " + why,
    )


_ACC = (0, 100)  # an accuracy or a RID-ACC, %
#: Rows H1 and T21 (simulated attack against a closed form) on ldpnb.stats; the commit fixed these criteria
#: before the new code ran.
_H1, _H1_DATE = "98c09c1", "2026-11-28"
_H1_NOTE = (
    "Estimator: ldpnb.stats.proportion (Wilson, 95 %) of the users whose profile is inferred (users "
    "independent). Tolerance 1 point: an error in the formula or the simulator moves the fraction by more; "
    "the interval's half-width is at most 0.3 point at 100,000 users."
)


def _h1_change(seen: str, target: float, scale: float = 1.0) -> CriterionChange:
    return CriterionChange(
        _H1,
        _H1_DATE,
        seen,
        {"kind": "close", "target": target, "atol": 0.0, "rtol": 0.0, "z": 4.0},
        f"the deprecated z criterion |ours - target| <= 4 se with no tolerance (book at 4e25623: "
        f"every row passes, flagged weak test: its falsifier is the target itself, so it cannot "
        f"show a material error); now an estimate with a tolerance of {scale:g} decided with three "
        f"outcomes on ldpnb.stats",
    )


_MEAN = "Estimator: ldpnb.stats.mean over the runs (Hall's skewness-corrected interval, 95 %)."

CLAIMS = claim_table(
    # ------------------------------------------------------------------ Sec. 3.2: plausible deniability, Fig. 1
    *[
        Claim(
            f"H1-{p}",
            f"Fig. 1a / Eq. 4: after d = 3 surveys (k = [74, 7, 16], ε = 10, uniform metric) the "
            f"attacker infers the complete profile with probability Π_j ACC_{p.upper()}(ε, k_j): simulated "
            f"attack (%, 3 surveys of 100,000 users) against the formula",
            source="derived",
            kind="close",
            reference=ref,
            atol=1.0,
            domain=_ACC,
            where="Eq. 4 (Sec. 3.2.2) with the single-report accuracies of Sec. 3.2.1 evaluated by us "
            "(the paper plots the curve, Fig. 1a, and prints no value)",
            note=(note + " " if note else "") + _H1_NOTE,
            changes=(_h1_change("book", ref),),
        )
        for p, ref, note in [
            ("grr", 99.5747, ""),
            ("sue", 72.3599, ""),
            ("oue", 15.3500, ""),
            ("ss", 99.5747, "ω-SS with the integer ω = max(1, round(k/(e^ε+1))) = 1 that is run is GRR here."),
            (
                "olh",
                15.3504,
                "OLH with an ideal random hash (the artifact's xxhash with random seeds) equals OUE; the "
                "paper's approximation 1/(2 max(k/(e^ε+1), 1)) gives 12.5 % (row T4-OLH).",
            ),
        ]
    ],
    Claim(
        "H1-NU",
        "Fig. 1b / Eq. 5: with the non-uniform metric (users sample with replacement and memoise) the "
        "complete profile is inferred with probability (d!/d^d) Π_j ACC (GRR, ε = 10; simulated %)",
        source="derived",
        kind="close",
        reference=22.1277,
        atol=1.0,
        domain=_ACC,
        where="Eq. 5 (Sec. 3.2.3) evaluated by us at k = [74, 7, 16], ε = 10",
        note=_H1_NOTE,
        changes=(_h1_change("book", 22.1277),),
    ),
    Claim(
        "T21",
        "Sec. 3.2.3: d surveys sampled with replacement cover all d attributes with probability d!/d^d "
        "(d = 3: 2/9; simulated fraction of users with 3 distinct reports)",
        source="paper",
        kind="close",
        paper=Printed(2 / 9, "Sec. 3.2.3 (d!/d^d)"),
        atol=0.01,
        domain=(0, 1),
        note="Estimator: ldpnb.stats.proportion (Wilson, 95 %) over the simulated users. Tolerance 0.01 (one "
        "point of the fraction), as rows H1.",
        changes=(_h1_change("book", 2 / 9, scale=0.01),),
    ),
    Claim(
        "T4",
        "Sec. 3.2.1: the simulated plausible-deniability attack hits with the probability of the closed "
        "forms (GRR, OLH ideal hash, ω-SS, SUE, OUE; k ∈ {7, 74}; 20,000 reports each; largest |z|)",
        source="derived",
        kind="holds",
        rule="max_abs_z < 4",
        where="Sec. 3.2.1 formulas (UE: the binomial sum in closed form); 10 comparisons, false-alarm rate 6e-4",
    ),
    Claim(
        "T4-OLH",
        "Sec. 3.2.1: OLH accuracy ≈ 1/(2 max(k/(e^ε+1), 1)) (k = 74, ε = 4; simulated attack against "
        "the paper's form, %)",
        source="derived",
        kind="holds",
        rule="abs(simulated - paper_form) <= 1",
        expect="diverges",
        instead="abs(simulated - exact) < 4 * se",
        where="Sec. 3.2.1 OLH formula (after Gursoy et al. 2022) evaluated by us: 37.57 %",
        note="The formula is an approximation: with an ideal random hash the attack's accuracy equals OUE's (27.94 %), "
        "which the simulation matches.",
    ),
    Claim(
        "T4-SS",
        "Sec. 3.2.1: ω-SS accuracy = (e^ε+1)/(2k) (k = 7, ε = 4; accuracy of the attack as run against "
        "the paper's form, %)",
        source="derived",
        kind="holds",
        rule="abs(exact - paper_form) <= 1",
        expect="diverges",
        instead="abs(exact - grr) < 1e-9",
        where="Sec. 3.2.1 ω-SS formula evaluated by us: 397.13 %",
        note="With the integer ω = max(1, round(k/(e^ε+1))) = 1 that is run, ω-SS is GRR and the accuracy is "
        "e^ε/(e^ε + k − 1) = 90.1 %; the continuous-ω form exceeds 100 %.",
    ),
    Claim(
        "T20",
        "App. C.2: OLH and OUE have an expected upper bound ACC_FO = 1/2 per collection "
        "(OUE at ε = 10, k = 2 and k = 74, %)",
        source="paper",
        kind="holds",
        paper=Printed(50, "App. C.2"),
        rule="acc_k2 <= 50.5 and acc_k74 <= 50.5",
        expect="diverges",
        instead="acc_k2 > 50 and acc_k74 < 51",
        note="Only for small k·q. OUE's exact accuracy (Eq. 3 with p = 1/2) is (1 − (1−q)^k)/(2kq) + "
        "(1−q)^(k−1)/(2k), q = 1/(e^ε + 1): at most 1/2 + 1/(2k), reached only as q → 0; it exceeds 1/2 only "
        "while k·q is small and tends to 0 as k grows at fixed ε. At ε = 10 it is 75 % at k = 2 and 50.59 % at "
        "k = 74 (the q → 0 limit 1/2 + 1/(2k) gives 50.68 %) and 48.93 % at k = 1,000; at ε = 1 and k = 2 it is 61.6 %.",
    ),
    Claim(
        "Fig1-order",
        "Sec. 3.2.3 / Fig. 1a: 'GRR, ω-SS and SUE have the highest attacker's accuracy' (Eq. 4 with the "
        "paper's forms, d = 3, k = [74, 7, 16], every ε of Fig. 1: smallest of GRR, ω-SS, SUE minus the "
        "largest of OUE, OLH, pt)",
        source="paper",
        kind="holds",
        paper=Printed("GRR, ω-SS and SUE highest", "Sec. 3.2.3 (analysis of Fig. 1), Fig. 1a"),
        rule="min(gap) > 0",
        expect="diverges",
        instead="gap_at_10 > 0",
        note="The expectation was set after the audit of this chapter reported that SUE is below OUE at small ε in "
        "Fig. 1: the ordering holds at large ε (where the paper says the adversary infers complete profiles "
        "accurately), not at every ε. gap: one value per ε (exact, no simulation).",
        changes=(
            CriterionChange(
                _A,
                _A_DATE,
                "book",
                {"kind": "holds", "rule": "min(gap) > 0", "expect": "pass"},
                "expected to pass; the audit of this chapter reported SUE below OUE at small eps in Fig. 1 (an "
                "exact computation) before the expectation was set; the expectation is now 'diverges' with the "
                "instead rule gap_at_10 > 0",
            ),
        ),
    ),
    # ------------------------------------------------------------------ Sec. 4.2: re-identification of SMP users
    Claim(
        "H2-GRR1",
        "Sec. 4.2: GRR top-1 RID-ACC after 5 surveys 'at most ~10 %' (Adult, ε = 10, FK-RI, mean of the runs, %)",
        source="paper",
        kind="range",
        paper=Printed(10, "Sec. 4.2"),
        lower=8,
        upper=13,
        domain=_ACC,
        note="'~10' read as [8, 13]; the run-to-run s.d. of one run is 1.7-1.9 pt, so the s.d. of a 20-run mean is "
        "about 0.4 pt. " + _MEAN,
    ),
    Claim(
        "H2-GRR10",
        "Sec. 4.2: GRR top-10 upper bound 'about 33 %' after 5 surveys (ε = 10, %)",
        source="paper",
        kind="range",
        paper=Printed(33, "Sec. 4.2"),
        lower=28,
        upper=38,
        domain=_ACC,
        note=_MEAN,
    ),
    Claim(
        "H2-SUE10",
        "Sec. 4.2: SUE 'about 28 %' top-10 after 5 surveys (ε = 10, %)",
        source="paper",
        kind="range",
        paper=Printed(28, "Sec. 4.2"),
        lower=22,
        upper=32,
        domain=_ACC,
        note=_MEAN,
    ),
    *[
        Claim(
            f"H2-{p}",
            f"Sec. 4.2: {p.upper()} ~1 % top-1 and upper-bounded by ~5 % top-10 (ε = 10, 5 surveys, %)",
            source="paper",
            kind="holds",
            paper=Printed("~1 / ~5", "Sec. 4.2"),
            rule="top1 >= 0.5 and top1 <= 2 and top10 >= 3.5 and top10 <= 7",
        )
        for p in ("oue", "olh")
    ],
    Claim(
        "H2-SS",
        "Sec. 4.2: ω-SS similar to GRR (top-10, 5 surveys, ε = 10; ratio SS/GRR)",
        source="derived",
        kind="close",
        paper=Printed("similar", "Sec. 4.2 and Fig. 2 caption"),
        reference=1.0,
        where="our reading of 'similar' (Sec. 4.2, Fig. 2 caption; App. C.2: 'follows similar re-identification "
        "rates as the GRR protocol') as a ratio ω-SS/GRR of 1 within 0.15; the paper prints no value",
        atol=0.15,
        domain=(0, None),
        note="Estimator: ldpnb.stats.ratio of the mean RID-ACC (Fieller, paired: ω-SS's runs and the first as many "
        "of GRR's share their survey designs).",
    ),
    Claim(
        "H2-order",
        "Sec. 4.2: OUE and OLH about 10x less than GRR, SUE in between (top-1, 5 surveys, ε = 10)",
        source="paper",
        kind="holds",
        paper=Printed(10, "Sec. 4.2 ('about 10x less')"),
        rule="grr > sue and sue > oue and sue > olh and ratio >= 5 and ratio <= 20",
    ),
    Claim(
        "H3",
        "Sec. 4.2: GRR top-10 RID-ACC ≥ 2.5 % after only 2 surveys (ε = 10, %)",
        source="paper",
        kind="range",
        paper=Printed(2.5, "Sec. 4.2"),
        lower=2.0,
        upper=3.5,
        domain=_ACC,
        note="Read as 'about 2.5 %' (two-sided). " + _MEAN,
    ),
    Claim(
        "H2-eps1",
        "Fig. 2: at ε = 1 every protocol stays below 1 % top-10 for every number of surveys (%)",
        source="derived",
        kind="range",
        upper=1.0,
        one_sided=True,
        where="read off Fig. 2 at ε = 1 (the paper prints no value there; Sec. 4.2's '≪ 1 %' is the random "
        "baseline's RID-ACC, not the attack's)",
    ),
    Claim(
        "H2-mono",
        "Sec. 4.2 / Fig. 2: RID-ACC grows with the number of surveys ('≥ 2.5 % after only 2 surveys', "
        "'about 33 % after 5'; top-10, every protocol and ε; smallest step, pt)",
        source="paper",
        kind="holds",
        paper=Printed("increasing", "Sec. 4.2 (2 and 5 surveys); Fig. 2"),
        rule="min_step >= -0.05",
    ),
    Claim(
        "H2-top1",
        "Sec. 4.2: 'with a single shot (top-1), the attacker's RID-ACC is already significant for GRR (and "
        "ω-SS) and SUE after about #surveys ≥ 4' (ε = 10, 4 surveys, top-1 %, each of the three)",
        source="paper",
        kind="holds",
        paper=Printed("significant after about 4 surveys", "Sec. 4.2"),
        rule="min(top1_4) >= 1 and min(top1_4 / top1_2) >= 2",
        note="'Significant' read as at least 1 % (450 times the 1/n baseline) and at least twice the 2-survey level.",
    ),
    Claim(
        "C3-eps",
        "App. C.2: 'increasing ε ... increases the privacy leakage, thus leading to higher re-identification "
        "rates' (Fig. 2: top-10 after 5 surveys, run means, every protocol; smallest step between "
        "consecutive ε, pt, and the smallest rise from the first to the last ε)",
        source="paper",
        kind="holds",
        paper=Printed("higher with ε", "App. C.2"),
        rule="min_step >= -0.1 and min_rise > 0",
        note="A step may be slightly negative by noise where RID-ACC is flat (OUE, OLH at small ε): 0.1 pt of slack.",
    ),
    Claim(
        "Fig2-Fig1",
        "Sec. 4.2: 'the experimental results of Fig. 2 match the numerical results of Fig. 1': in the "
        "Fig. 2 simulation, the fraction of fully correct profiles equals Eq. 4's expectation over the "
        "attributes each user reported (5 protocols, ε ∈ {2, 6, 10}; largest |z|)",
        source="paper",
        kind="holds",
        paper=Printed("match", "Sec. 4.2"),
        rule="max_abs_z < 4",
        note="15 comparisons; |z| < 4 has a false-alarm rate below 1e-3. This checks the simulator against Eq. 4 "
        "(it fails only on a bug); the paper's statement on the trends is row Fig2-trend.",
    ),
    Claim(
        "Fig2-trend",
        "Sec. 4.2: the RID-ACC of Fig. 2 follows the expected accuracies of Fig. 1 (Kendall's τ between "
        "Fig. 1's Eq. 4 values and Fig. 2's top-10 RID-ACC after 5 surveys, over the (protocol, ε) cells "
        "both have)",
        source="paper",
        kind="holds",
        paper=Printed("match", "Sec. 4.2"),
        rule="tau >= 0.7",
        note="τ = 1 when the two rank the protocols and budgets identically; 0.7 allows the near-ties (GRR and "
        "ω-SS, OUE and OLH) to swap.",
    ),
    Claim(
        "Fig9",
        "App. C.2: ACS follows the patterns of Fig. 2 (every protocol increasing with #surveys; GRR and SUE "
        "above OUE and OLH; top-10, ε = 10)",
        source="paper",
        kind="holds",
        paper=Printed("same pattern", "App. C.2"),
        rule="min(min_step) > 0 and min(high) > max(low)",
        note="Extended on 2026-11-26 from GRR and OUE to all five protocols (the paper's 'similar patterns for all "
        "LDP protocols'), before the extended values were seen; the GRR/OUE values then passed.",
    ),
    Claim(
        "H4-PK",
        "Sec. 4.2 / App. C.2: PK-RI reduces RID-ACC 'by about 50 % for all LDP protocols' (PK/FK, ε = 10, "
        "5 surveys, top-10, mean over the runs' PK subsets, each protocol)",
        source="paper",
        kind="close",
        paper=Printed(0.5, "Sec. 4.2 ('by almost half'); App. C.2"),
        atol=0.15,
        domain=(0, None),
        note="'About 50 %' read as a ratio in [0.35, 0.65]; the ratio of a single PK subset ranges far wider, so "
        "it is averaged over the runs (10-20 subsets per protocol at book scale). Estimator: ldpnb.stats.mean "
        "of the per-run PK/FK ratios, one cell per protocol, simultaneous at 95 % over the protocols. Book scale "
        "(10-20 runs) leaves it undecided, about 145 runs would decide it: SCALE=paper runs 200 per protocol.",
    ),
    Claim(
        "H4-NU",
        "App. C.2: the non-uniform metric decreases RID-ACC 'by about 40 %' 'in comparison with the RID-ACC "
        "of Figs. 2 and 10' (NU/U, ε = 10, 5 surveys, top-10, each protocol, FK-RI then PK-RI)",
        source="paper",
        kind="close",
        paper=Printed(0.6, "App. C.2 ('by about 40 %')"),
        atol=0.15,
        domain=(0, None),
        note="Extended on 2026-11-26 to PK-RI (Fig. 10), the half of the statement the row left out; the audit of "
        "this chapter had measured 0.64 (GRR) and 0.70 (OUE) under PK-RI. Estimator: ldpnb.stats.ratio of the "
        "mean RID-ACC (Fieller, paired: the NU runs reuse the U runs' survey designs), one cell per (FK/PK, "
        "protocol), simultaneous at 95 % over the 10 cells. Book scale (10-20 runs) leaves it undecided, about "
        "47 runs would decide it: SCALE=paper runs 200 per protocol.",
    ),
    # ------------------------------------------------------------------ App. C: alpha-PIE (Figs. 12, 13)
    Claim(
        "T14",
        "Prop. 3 (App. C.1): ε-LDP ⇒ (U, α)-PIE: the capacities of GRR, SUE and OUE are ≤ α, and GRR's ≤ "
        "λ log2 k (k ≤ 5, ε ∈ [0.25, 4]; largest capacity − bound, bits)",
        source="paper",
        kind="range",
        paper=Printed("≤ α", "Prop. 3, App. C.1"),
        upper=1e-9,
        one_sided=True,
    ),
    Claim(
        "PIE-sign",
        "App. C.1: α is chosen from β through Eq. 11 (β = 0.95, n_d = 9,044)",
        source="paper",
        kind="holds",
        paper=Printed("α = (1−β) log2 n − 1", "Eq. 11, App. C.1"),
        rule="alpha_eq11 > 0",
        expect="diverges",
        instead="alpha_eq11 < 0 and alpha_artifact > 0",
        note="Eq. 11 inverted literally gives a negative (infeasible) α at β = 0.95; the artifact uses +1 instead of "
        "−1, which the chapter reproduces.",
    ),
    Claim(
        "T15",
        "Corollary 2 (App. C.1, Eq. 11): with U uniform over n users, β_U|S ≥ 1 − (α+1)/log2 n for "
        "α = I(U;Y) (exact Bayes error and mutual information of GRR, SUE and OUE reports of users' values, "
        "n ∈ {4, 16, 64}, k ∈ {2, 3, 5}, ε ∈ [0.25, 8]; largest bound − β)",
        source="paper",
        kind="range",
        paper=Printed("β ≥ 1 − (α+1)/log2 n", "Corollary 2, Eq. 11, App. C.1"),
        upper=1e-12,
        one_sided=True,
        note="Eq. 11 is Fano's inequality; with α the (U, α)-PIE level (≥ I(U;Y)) the bound is only weaker.",
    ),
    Claim(
        "H10-a",
        "App. C.2: even β = 0.95 gives higher RID-ACC 'in comparison with Figs. 2, 10 and 11 in which ε = 1' "
        "(each protocol, 5 surveys, top-10: Fig. 12 vs Fig. 2 (FK) and Fig. 10 (PK), Fig. 13 vs Fig. 11 "
        "(FK, PK); pt)",
        source="paper",
        kind="holds",
        paper=Printed("higher", "App. C.2"),
        rule="all(gap > 0)",
        note="Extended on 2026-11-26 from Fig. 2 alone to the paper's three figures, before the new gaps were seen.",
    ),
    Claim(
        "H10-c",
        "App. C.2: the higher RID-ACC at β = 0.95 than at ε = 1 comes from 'not using a local randomizer when "
        "k_j is small', 'with more difference for other protocols such as SUE, OUE and OLH' (per protocol: the "
        "gain in per-report accuracy, Eq. 3 exact, from ε = 1 to in clear, averaged over the attributes β = "
        "0.95 sends in clear, pt; the RID-ACC ratio β = 0.95 / ε = 1, top-10, 5 surveys, reported beside)",
        source="paper",
        kind="holds",
        paper=Printed("more difference for SUE, OUE and OLH", "App. C.2"),
        rule="n_clear >= 1 and min(others) > grr",
        note="The effect the paper names holds (on the two binary attributes GRR's ε = 1 accuracy is 73.1 %, "
        "SUE's 62.2 %, OUE's 61.6 %, OLH's 61.3 %), but the overall RID-ACC ratio beside it goes the other way: "
        "GRR shows the largest difference, in ratio and in points (H10-a's gaps). At β = 0.95 only the two "
        "binary attributes (sex, salary) go in clear, where every protocol's accuracy is 1 (UE gains more "
        "there than GRR); the other eight get ε = 2.4-3.3, and at these moderate budgets GRR's per-report "
        "accuracy grows fastest from its ε = 1 level (per attribute ×1.9-7.7, against OUE ×1.6-7.2 and "
        "SUE ×1.7-3.2), which is where its larger ratio comes from. Another reading of the sentence (the gain "
        "of the protocols whose ε-LDP accuracy is lowest) is possible; the paper's next sentence ('for this "
        "reason ... similar behaviors') is row H10-sim.",
        changes=(
            CriterionChange(
                _R3,
                _R3_DATE,
                "book",
                {
                    "kind": "holds",
                    "rule": "min(others) > grr",
                    "expect": "diverges",
                    "instead": "grr > max(others) and min(others) > 1",
                },
                "the row graded the overall RID-ACC ratio (GRR 22.95 against 10.2-18.0 at book scale: "
                "divergence); the re-audit found that the paper attributes the difference to the attributes "
                "sent in clear, so the row grades that effect per protocol (exact) and reports the overall "
                "ratio beside, with its divergence stated in the note",
            ),
        ),
    ),
    Claim(
        "H10-b",
        "App. C.1-C.2: the α-PIE mapping sends every attribute in clear at β = 0.6 (n_clear of the 10 Adult "
        "attributes), so all protocols reach the same RID-ACC in Figs. 12 and 13 (the spread over protocols, "
        "5 surveys, FK-RI, pt, is reported beside: it is 0 by construction)",
        source="derived",
        kind="holds",
        rule="n_clear == 10",
        where="the α-PIE mapping of App. C.1 at β = 0.6 (every ε_j infinite); Figs. 12-13 show equal curves",
        note="Once every attribute goes in clear the protocols send identical reports (common random numbers), so "
        "the spread is 0 by construction and is not graded: the row checks the mapping (n_clear); H10-sim "
        "grades the paper's statement at the other β.",
        changes=(
            CriterionChange(
                _R3,
                _R3_DATE,
                "book",
                {"kind": "holds", "rule": "n_clear == 10 and spread <= 2"},
                "the 'spread <= 2' half cannot fail (identical reports, spread 0.0 at book scale): dropped from "
                "the rule, reported beside; the row is a check of the mapping (n_clear = 10 seen, pass)",
            ),
        ),
    ),
    Claim(
        "H10-sim",
        "App. C.2: 're-identification rates of all LDP protocols follow similar behaviors' under α-PIE "
        "(Figs. 12, 13): at every β of the grid, the largest/smallest protocol ratio of RID-ACC (top-10, "
        "5 surveys, FK-RI, Figs. 12 and 13) is at most half of that under ε-LDP at ε = 10 (Fig. 2)",
        source="paper",
        kind="holds",
        paper=Printed("similar behaviors", "App. C.2, Figs. 12 and 13"),
        rule="max(spread_pie) <= 0.5 * spread_ldp",
        expect="diverges",
        instead="min(spread_pie) <= 0.5 * spread_ldp and max(spread_pie) > 0.5 * spread_ldp",
        note="'Similar' read relative to ε-LDP, where the protocols differ by a factor of about 7 (GRR against "
        "OUE). spread_pie: one value per β > 0.6 and metric (β ≤ 0.6: equal by construction). Expectation "
        "changed on 2026-11-26 after the first book-scale run of the row (3 runs of Fig. 2, 1 run of Figs. "
        "12-13), which was graded 'fail' against 'pass' expected: at β = 0.95 the protocols differ by a "
        "factor 6.4 (uniform metric) against 6.7 under ε-LDP at ε = 10, and only from β = 0.75 on, where "
        "most attributes go in clear, by about 2. The behaviours converge as β loosens; they are not "
        "similar at tight β. The instead rule states that finding.",
        changes=(
            CriterionChange(
                _A,
                _A_DATE,
                "book",
                {"kind": "holds", "rule": "max(spread_pie) <= 0.5 * spread_ldp", "expect": "pass"},
                "expected to pass; seen at book scale (3 runs of Fig. 2, 1 run of Figs. 12-13): fail, a factor "
                "6.4 between protocols at beta = 0.95 against 6.7 under eps-LDP at eps = 10, about 2 only from "
                "beta = 0.75; the expectation is now 'diverges' with the instead rule stating that finding",
            ),
        ),
    ),
    Claim(
        "C3-beta",
        "App. C.2: 'decreasing β_U|S also increases the privacy leakage, thus leading to higher "
        "re-identification rates' (Figs. 12, 13: top-10 after 5 surveys, FK-RI, run means, every protocol; "
        "smallest step as β falls, pt)",
        source="paper",
        kind="holds",
        paper=Printed("higher as β falls", "App. C.2"),
        rule="min_step >= -0.1",
        note="0.1 pt of slack for noise where the curves are flat.",
    ),
    # ------------------------------------------------------------------ Sec. 4.3: attribute inference on RS+FD
    Claim(
        "H5-a",
        "Sec. 4.3: with uniform fake data (GRR, UE-r) AIF-ACC is upper-bounded by 'about 25 %' (ACS; "
        "largest Bayes-oracle accuracy over ε, %)",
        source="paper",
        kind="range",
        paper=Printed(25, "Sec. 4.3; App. E.2"),
        lower=20,
        upper=28,
        note="The oracle knows the true marginals: no attacker can do better, so its maximum is the bound.",
    ),
    Claim(
        "H5-b-OUE",
        "Sec. 4.3: RS+FD[GRR] 'about 5 %' above RS+FD[UE-r], here OUE-r (XGBoost NK s = 1n, ACS, every "
        "ε ≥ 4 of the XGBoost grid; run means, pt)",
        source="paper",
        kind="range",
        paper=Printed(5, "Sec. 4.3"),
        lower=2,
        upper=9,
        effect=1.0,
        note="Graded on the paper's attacker since 2026-11-26 (before: the Bayes NK plug-in, 5.9-7.5 pt at book "
        "scale, pass); window unchanged." + _XGB_EST,
        changes=(
            _effect_change(
                {"kind": "range", "lower": 2, "upper": 9}, "effect 1 point: a gap of 1 or 10 points is not 'about 5 %'"
            ),
        ),
    ),
    Claim(
        "H5-b-SUE",
        "Sec. 4.3: RS+FD[GRR] 'about 5 %' above RS+FD[UE-r], here SUE-r (XGBoost NK s = 1n, ACS, every "
        "ε ≥ 4 of the XGBoost grid; run means, pt)",
        source="paper",
        kind="range",
        paper=Printed(5, "Sec. 4.3"),
        lower=2,
        upper=9,
        effect=1.0,
        expect="diverges",
        instead="max(ours) < 2",
        note="SUE-r is as exposed as GRR at large ε: its amplified ε' makes p → 1, q → 0, so a real UE report is a "
        "near-exact one-hot of v_j, and the fake one-hot of a uniform value differs from it by the value "
        "distribution alone, as for GRR. The Bayes oracle shows the same gap (prose), so the attacker is not "
        "the cause. Graded on XGBoost since 2026-11-26 (before: the Bayes NK, same divergence; the audit's "
        "XGBoost value at ε = 10 was −0.4 pt)." + _XGB_EST,
        changes=(
            _effect_change(
                {"kind": "range", "lower": 2, "upper": 9, "expect": "diverges"},
                "effect 1 point: a gap of 1 or 10 points is not 'about 5 %'",
            ),
        ),
    ),
    Claim(
        "H5-c",
        "Sec. 4.3: 'about 50 %' with RS+FD[OUE-z] (XGBoost NK s = 1n, ACS, every ε ≥ 4 of the XGBoost grid, %)",
        source="paper",
        kind="range",
        paper=Printed(50, "Sec. 4.3"),
        lower=45,
        upper=56,
        effect=2.0,
        note="Graded on the paper's attacker since 2026-11-26 (before: Bayes NK, 51.4-53.2 %)." + _XGB_EST,
        changes=(
            _effect_change(
                {"kind": "range", "lower": 45, "upper": 56}, "effect 2 points: 43 % or 58 % is not 'about 50 %'"
            ),
        ),
    ),
    Claim(
        "H5-d",
        "Sec. 4.3: 'almost 100 %' with RS+FD[SUE-z] at ε = 10 (ACS, XGBoost NK s = 1n, run mean, %)",
        source="paper",
        kind="range",
        paper=Printed(100, "Sec. 4.3"),
        lower=90,
        one_sided=True,
        effect=5.0,
        note="One-sided: 100 % is the largest possible accuracy. Graded on XGBoost since 2026-11-26 (Bayes NK: "
        "96.7 %)." + _XGB_EST,
        changes=(
            _effect_change(
                {"kind": "range", "lower": 90, "one_sided": True},
                "effect 5 points: 85 % is materially short of the paper's '100 %'",
            ),
        ),
    ),
    Claim(
        "H5-e",
        "Sec. 4.3: SUE variants lower than OUE at small ε, higher in low-privacy regimes (UE-z, XGBoost NK "
        "s = 1n: at ε = 1, and at every ε ≥ 4 of the XGBoost grid)",
        source="paper",
        kind="holds",
        paper=Printed("crossing", "Sec. 4.3"),
        rule="sue1 < oue1 and min_gap_high > 0",
        note="Graded on XGBoost since 2026-11-26 (before: Bayes NK, same rule)." + _XGB_POINT,
    ),
    Claim(
        "H5-f",
        "Sec. 1 / Sec. 4.3: NK, PK and HM give '2-20 fold' increments over the 1/d baseline (ACS, the paper's "
        "XGBoost attacker, every model, variant and ε run; run means)",
        source="paper",
        kind="holds",
        paper=Printed((2, 20), "Sec. 1; Sec. 4.3"),
        rule="min_fold >= 1.5 and min_fold <= 3 and max_fold >= 15",
        note="On ACS (d = 18) the largest possible fold is 18, so '20' is read as 'up to the maximum'. Criterion "
        "changed on 2026-11-26 after the audit of this chapter: the row graded the Bayes NK plug-in at ε ≥ 2 "
        "only and declared the lower end a divergence (3.17-fold); the paper's range starts at ε = 1, where the "
        "chapter's own seed gives a Bayes minimum of 2.86 (the rule passes), and the paper's attacker is "
        "XGBoost, whose smallest fold was 1.83 (book) and 1.57 (paper scale). The row now grades the paper's "
        "attacker over the paper's range, with the rule it had; bayes_min_fold (every ε) is reported beside."
        + _XGB_POINT,
        changes=(
            CriterionChange(
                _A,
                _A_DATE,
                "paper",
                {
                    "kind": "holds",
                    "rule": "min_fold >= 1.5 and min_fold <= 3 and max_fold >= 15",
                    "expect": "diverges",
                    "instead": "min_fold <= 4 and max_fold >= 15 and xgb_min_fold <= 2.5",
                },
                "graded the Bayes NK plug-in at eps >= 2 only and expected a divergence at the lower end "
                "(3.17-fold); seen: at eps = 1 the chapter's seed gives a Bayes minimum of 2.86 (the rule passes)"
                " and the paper's XGBoost attacker 1.83-fold (book) and 1.57-fold (paper scale); the row now "
                "grades the paper's attacker over the paper's eps range with the same rule, expected to pass",
            ),
        ),
    ),
    Claim(
        "H6-a",
        "Sec. 4.4: RS+FD[GRR] AIF-ACC on Adult 'upper bounded in 40 %' (Bayes oracle, ε ≥ 4, %)",
        source="paper",
        kind="range",
        paper=Printed(40, "Sec. 4.4"),
        lower=30,
        upper=42,
        note="The oracle bounds every attacker (the paper's XGBoost included, row T17-Adult).",
    ),
    Claim(
        "H6-b",
        "Sec. 4.3 / App. D: on Nursery RS+FD[GRR] and [UE-r] give no meaningful increment over the 11.1 % "
        "baseline (largest Bayes-oracle accuracy, %)",
        source="paper",
        kind="range",
        paper=Printed("no meaningful increment", "Sec. 4.3; App. D"),
        upper=16.7,
        one_sided=True,
        note="Upper bound 1.5 x baseline. The oracle bounds every attacker, XGBoost included.",
    ),
    Claim(
        "H6-c",
        "App. D: 'about 100 %' with RS+FD[SUE-z] on all three datasets (ε = 10, XGBoost NK s = 1n, run means, %)",
        source="paper",
        kind="range",
        paper=Printed(100, "App. D"),
        lower=90,
        one_sided=True,
        effect=5.0,
        note="Graded on XGBoost since 2026-11-26 (before: Bayes NK, 96.7-97.3 %)." + _XGB_EST,
        changes=(
            _effect_change(
                {"kind": "range", "lower": 90, "one_sided": True},
                "effect 5 points: 85 % is materially short of the paper's '100 %'",
            ),
        ),
    ),
    Claim(
        "H6-d",
        "App. D: 'about a 1.3-10 fold increment' on Adult (the paper's XGBoost attacker, every model, variant "
        "and ε run; run means)",
        source="paper",
        kind="holds",
        paper=Printed((1.3, 10), "App. D"),
        rule="min_fold <= 2 and max_fold >= 8",
        note="On Adult (d = 10) the largest possible fold is 10. Changed on 2026-11-26: the row graded the Bayes NK "
        "(2.31-fold at least, a declared divergence 'explained' by a weaker classifier); the audit of this "
        "chapter ran the chapter's XGBoost on Adult at ε = 1 and found 1.96-fold at least (NK 1n, PK 0.5n), "
        "so that explanation was wrong. The row now grades the paper's attacker with the rule it had; the "
        "Bayes NK's smallest fold is reported beside (bayes_min_fold)." + _XGB_POINT,
        changes=(
            CriterionChange(
                _A,
                _A_DATE,
                "book",
                {
                    "kind": "holds",
                    "rule": "min_fold <= 2 and max_fold >= 8",
                    "expect": "diverges",
                    "instead": "min_fold <= 3 and max_fold >= 8",
                },
                "graded the Bayes NK plug-in (2.31-fold at least) as a divergence explained by a weaker "
                "classifier; seen: the chapter's XGBoost on Adult gives 1.96-fold at eps = 1, so the explanation "
                "was wrong; the row now grades the paper's attacker with the same rule, expected to pass",
            ),
        ),
    ),
    Claim(
        "H6-e",
        "App. D: 'about a 0.1-10 fold increment' on Nursery (the paper's XGBoost attacker, every model, "
        "variant and ε run; run means)",
        source="paper",
        kind="holds",
        paper=Printed((0.1, 10), "App. D"),
        rule="min_fold <= 1.2 and max_fold >= 7",
        note="On Nursery (d = 9) the largest possible fold is 9. Graded on XGBoost since 2026-11-26 (before: Bayes "
        "NK, 1.14-8.75)." + _XGB_POINT,
    ),
    Claim(
        "T17",
        "XGBoost's AIF-ACC ≤ the Bayes-optimal (oracle) accuracy on the same test users (ACS, RS+FD and "
        "RS+RFD, every variant, model and ε run; largest over the curves (setting, variant, model) of the mean "
        "paired excess over the curve's ε grid and runs, pt)",
        source="invariant",
        kind="range",
        upper=1.0,
        one_sided=True,
        effect=1.0,
        where="the Bayes rule is optimal; 1 pt: the smallest excess this chapter would call a defect",
        note="Paired since 2026-11-26: each fit evaluates the oracle on its own test users (before: against the "
        "mean of separate oracle runs, +1.42 pt at paper scale, unpaired). " + _T17_EST,
        changes=(
            _effect_change(
                {"kind": "range", "upper": 1.5, "one_sided": True},
                _T17_WHY,
            ),
            _curves_change("the record gave 0.21 [-3.0, 79.2], undecided (largest of 530 cells)"),
        ),
    ),
    Claim(
        "T17-Adult",
        "XGBoost's AIF-ACC ≤ the Bayes-optimal (oracle) accuracy on the same test users (Adult, every "
        "variant, model and ε run; largest over the curves (variant, model) of the mean paired excess over the "
        "curve's ε grid and runs, pt)",
        source="invariant",
        kind="range",
        upper=1.0,
        one_sided=True,
        effect=1.0,
        where="the Bayes rule is optimal; 1 pt: the smallest excess this chapter would call a defect",
        note=_T17_EST,
        changes=(
            _effect_change(
                {"kind": "range", "upper": 1.5, "one_sided": True},
                _T17_WHY,
            ),
            _curves_change(
                "the record gave 0.09 [-0.30, 0.48], pass (largest of 50 cells; changed with T17 for consistency)"
            ),
        ),
    ),
    Claim(
        "T17-Nursery",
        "XGBoost's AIF-ACC ≤ the Bayes-optimal (oracle) accuracy on the same test users (Nursery, "
        "every variant, model and ε run; largest over the curves (variant, model) of the mean paired excess over "
        "the curve's ε grid and runs, pt)",
        source="invariant",
        kind="range",
        upper=1.0,
        one_sided=True,
        effect=1.0,
        where="the Bayes rule is optimal; 1 pt: the smallest excess this chapter would call a defect",
        note=_T17_EST,
        changes=(
            _effect_change(
                {"kind": "range", "upper": 1.5, "one_sided": True},
                _T17_WHY,
            ),
            _curves_change("the record gave 0.24 [-0.63, 1.10], undecided (largest of 90 cells)"),
        ),
    ),
    Claim(
        "H5-g",
        "Sec. 4.3: NK (s = 1n) gives higher AIF-ACC than PK with n_pk = 0.5n (XGBoost, ACS, every variant "
        "and ε; run means)",
        source="paper",
        kind="order",
        paper=Printed("NK > PK 0.5n", "Sec. 4.3"),
        relation="PK < NK",
        atol=0.0,
        expect="diverges",
        instead="mean(NK - PK) > -3",
        note="XGBoost trained on 1n synthetic profiles and on 0.5n labelled users reach nearly the same accuracy; NK "
        "is below PK in some cells by a few points (the synthetic profiles come from clipped estimates, the "
        "labelled users are real)." + _XGB_ORDER,
    ),
    Claim(
        "XGB-GRR",
        "Sec. 4.3: with uniform fake data (RS+FD[GRR], [UE-r]) AIF-ACC is 'upper-bounded by about 25 %' "
        "(the paper's XGBoost, ACS: largest run-mean accuracy over the variants, models and ε run, %)",
        source="paper",
        kind="range",
        paper=Printed(25, "Sec. 4.3"),
        lower=20,
        upper=28,
        effect=2.0,
        note="Changed on 2026-11-26: the row graded XGBoost NK s = 1n at ε = 10 for GRR in [11.1, 28] (17.66 %), "
        "a window the audit of this chapter found too loose to test 'about 25 %'. It now grades the largest "
        "accuracy of the paper's attacker with the window of H5-a (the oracle's bound); at paper scale the "
        "largest was 20.9 % (NK s = 5n) in the record at 9d0b193 and 21.67 % in the record at fc019e8 (interval "
        "low 19.7), so the row may fail at its lower end." + _XGB_EST,
        changes=(
            _effect_change(
                {"kind": "range", "lower": 20, "upper": 28}, "effect 2 points: 18 % or 30 % is not 'about 25 %'"
            ),
            CriterionChange(
                _A,
                _A_DATE,
                "paper",
                {"kind": "range", "lower": 11.1, "upper": 28},
                "graded XGBoost NK s = 1n at eps = 10 for GRR in [11.1, 28] (17.66 % at book scale; 20.9 % the "
                "largest at paper scale); the window was too loose to test 'about 25 %'; now the largest accuracy"
                " of the paper's attacker with H5-a's window [20, 28]",
            ),
        ),
    ),
    Claim(
        "H5-s",
        "Sec. 4.3: 'increasing s has less impact than increasing n_pk' (XGBoost, ACS, per variant: gain "
        "from n_pk = 0.1n to 0.5n minus gain from s = 1n to 5n, per run on the same users' reports, mean "
        "over the ε run, then over the runs; pt; each variant's interval simultaneous at 95 %)",
        source="paper",
        scales=_GRID_SCALES,
        kind="range",
        paper=Printed("s < n_pk impact", "Sec. 4.3"),
        lower=0.0,
        one_sided=True,
        domain=(-100, 100),
        effect=1.0,
        expect="diverges",
        note="Estimator: ldpnb.stats.mean of the per-run contrast (PK 0.5n − PK 0.1n) − (NK 5n − NK 1n), the four "
        "fits of a run attacking the same reports (paired), simultaneous over the variants; the claim is "
        "reversed when one variant is shown to gain more from s. Expectation from the records: the paper-"
        "scale record had GRR 2.95 (s) against 0.94 (n_pk) and SUE-r against too, SUE-z, OUE-z, OUE-r for. "
        "Effect 1 point. Runs of the four models at ε of the grid: see the numbers (book: GRR at ε = 10; "
        "paper: every variant at ε ∈ {1, 10}). " + _XGB_NOTE,
        changes=(
            CriterionChange(
                "f44b45f",
                "2026-11-26",
                "paper",
                {"kind": "holds", "rule": "mean(gain_pk) > mean(gain_s)", "expect": "pass"},
                "pooled over the variants (paper-scale record 2.84 against 2.12 pt: pass), which "
                "hid that the statement fails for GRR (2.95 against 0.94 pt) and SUE-r",
            ),
            CriterionChange(
                _STATS,
                _STATS_DATE,
                "book",
                {
                    "kind": "holds",
                    "rule": "min(gain_pk - gain_s) > 0",
                    "expect": "diverges",
                    "instead": "grr_s > grr_pk",
                },
                "per variant on run means (book at d0fc57e, one run of NK 5n: GRR 3.04 against "
                "0.95 pt, diverges); the same region, now decided with the runs' intervals "
                "(the grid's models get 4 runs at the grid's ε); the numbers of the old rule "
                "are no longer recorded",
            ),
        ),
    ),
    Claim(
        "H5-hm",
        "Sec. 4.3: 'NK and HM results are quite similar' (XGBoost, ACS; largest |NK − HM| of run means "
        "over the s ∈ {1n, 3n, 5n} pairs and ε, pt)",
        source="paper",
        scales=_GRID_SCALES,
        kind="range",
        paper=Printed("quite similar", "Sec. 4.3"),
        upper=3.0,
        one_sided=True,
        effect=2.0,
        note=_XGB_NOTE + _XGB_EST,
        changes=(
            _effect_change(
                {"kind": "range", "upper": 3.0, "one_sided": True},
                "effect 2 points: NK and HM 5 points apart are not 'quite similar'",
            ),
        ),
    ),
    Claim(
        "H5-nk",
        "Sec. 4.3: NK with every s ∈ {1n, 3n, 5n} higher than PK with n_pk = 0.5n (XGBoost, ACS)",
        source="paper",
        scales=_GRID_SCALES,
        kind="order",
        paper=Printed("NK > PK 0.5n", "Sec. 4.3"),
        relation="PK < NK",
        expect="diverges",
        instead="mean(NK - PK) > -3",
        note="NK grows with s (row H5-s), so its minimum over s is s = 1n and the row meets H5-g on the paper's "
        "whole grid. Found at paper scale: in the run recorded at commit ef43245 (graded then as a pass "
        "expected, hence 'fail') NK was below PK 0.5n in 27 of the 50 (variant, ε) cells, by at most "
        "1.5 points, 0.03 points on average: the two attackers are level, neither is higher. Declared a "
        "divergence since, with H5-g's fallback rule (fixed at book scale before that run). " + _XGB_NOTE + _XGB_ORDER,
    ),
    Claim(
        "H6-sens-npk",
        "App. D: n_pk 'had few influence with the Adult dataset', while ACS and Nursery 'showed "
        "sensitivity ..., especially with n_pk in the PK model' (XGBoost: |PK 0.5n − PK 0.1n| averaged "
        "over the variants and ε run, per dataset, pt)",
        source="paper",
        kind="holds",
        paper=Printed("few influence on Adult", "App. D"),
        rule="adult < acs and adult < nursery",
        expect="diverges",
        instead="nursery < adult and adult > 0.5 * acs",
        note="Expectation changed on 2026-11-26 after the first book-scale run (ACS 2 runs, Adult and Nursery "
        "1 run; ε ∈ {1, 10}), graded 'fail' against 'pass' expected: the mean change from n_pk = 0.1n to "
        "0.5n was 2.70 points on ACS, 2.24 on Adult and 0.68 on Nursery. Nursery moves least (its GRR and "
        "UE-r curves sit at the baseline and its SUE-z saturates at large ε), and Adult nearly as much as "
        "ACS: neither half of the paper's contrast is reproduced. The instead rule states that finding; "
        "phase B of the statistics layer grades it with intervals." + _XGB_POINT,
        changes=(
            CriterionChange(
                _A,
                _A_DATE,
                "book",
                {"kind": "holds", "rule": "adult < acs and adult < nursery", "expect": "pass"},
                "expected to pass; seen at book scale: fail, mean change 2.70 (ACS), 2.24 (Adult), 0.68 (Nursery)"
                " points; the expectation is now 'diverges' with the instead rule stating that finding",
            ),
        ),
    ),
    Claim(
        "H6-sens",
        "App. D: s had 'few influence' on Adult while ACS and Nursery are sensitive to it (XGBoost: "
        "|NK 5n − NK 1n| averaged over the variants and ε run, per dataset, pt)",
        source="paper",
        kind="holds",
        paper=Printed("few influence on Adult", "App. D"),
        rule="adult < acs and adult < nursery",
        scales=_PAPER_SCALE,
        expect="diverges",
        instead="nursery < adult and adult > 0.5 * acs",
        note="Needs NK s = 5n on Adult (226,110 training rows per fit, 4.4 times ACS's users): run at SCALE=paper "
        "(ε ∈ {1, 10}); the book's budget holds the n_pk half (row H6-sens-npk). Found in the paper-scale "
        "record made at 9d0b193 (graded as a pass expected, hence 'fail'): the mean change from s = 1n to "
        "5n was 1.99 points on ACS, 1.59 on Adult and 0.70 on Nursery (ACS 2 runs per cell, Adult and "
        "Nursery 1 run). The pattern is the n_pk half's (H6-sens-npk, 2.73, 2.24, 0.68 in the same record): "
        "Nursery moves least, because its GRR and UE-r curves sit at the baseline whatever the attacker "
        "knows (H6-b), and Adult is not far below ACS. Declared a divergence with H6-sens-npk's instead "
        "rule, fixed at book scale before this row ever ran. Since 2026-11-29 Adult and Nursery run three "
        "runs per cell at SCALE=paper (one in that record); the row stays on run means." + _XGB_POINT,
        changes=(
            CriterionChange(
                _P4,
                _P4_DATE,
                "paper",
                {"kind": "holds", "rule": "adult < acs and adult < nursery", "expect": "pass"},
                "expected to pass; seen in the paper-scale record (9d0b193): fail, mean change 1.99 (ACS), "
                "1.59 (Adult), 0.70 (Nursery) points, the n_pk half's pattern; the expectation is now "
                "'diverges' with the n_pk half's instead rule",
            ),
        ),
    ),
    # ------------------------------------------------------------------ Sec. 4.4: RID through RS+FD (Fig. 4)
    Claim(
        "H7-a",
        "Sec. 4.4: the RID-ACC of RS+FD[GRR] is 'drastically decreased' compared with SMP[GRR] (Adult, "
        "top-10, every ε ≥ 4 and #surveys: SMP/RS+FD ratio of the mean RID-ACC per cell, each cell's "
        "interval simultaneous at 95 % over the cells)",
        source="derived",
        kind="range",
        lower=10,
        one_sided=True,
        domain=(0, None),
        effect=2.0,
        where="'drastically' read as an order of magnitude (Sec. 4.4, Fig. 4 vs Fig. 2)",
        note="Estimator: ldpnb.stats.ratio (Fieller, independent runs: SMP[GRR] and RS+FD[GRR] are separate "
        "experiments, Welch degrees of freedom), simultaneous over the cells (Bonferroni). Holds when every "
        "cell is shown at least tenfold, is reversed when one cell is shown below tenfold, undecided "
        "otherwise. Effect 2: a tenfold claim is materially false at a ratio of 8 (the audit of this chapter "
        "showed the previous rule passing 80-91 % of the time at 8.5). Its weakest cell (ε = 4, 2 surveys) sits at "
        "the threshold (10.05 at book scale, 10.03 in the paper-scale record, both 20 runs a side): tens of "
        "thousands of runs would decide it, beyond every scale of this book, so it stays undecided.",
        changes=(
            CriterionChange(
                "ba5225d",
                "2026-11-25",
                "paper",
                {"kind": "holds", "rule": "min >= 10", "expect": "diverges", "instead": "min >= 5"},
                "the smallest ratio of run means against 10, a declared divergence (book, 3 runs: "
                "6.3; paper-scale record, 20 runs: 10.03): a bare threshold on the minimum of "
                "noisy ratios, decided by the run count",
            ),
            CriterionChange(
                _STATS,
                _STATS_DATE,
                "paper",
                {"kind": "holds", "rule": "upper >= 10"},
                "the smallest simultaneous 95 % Fieller upper bound at least 10 (paper-scale "
                "record: smallest ratio 10.03, bound 14.4: pass; book at d0fc57e: pass) passes "
                "whenever no cell is shown below 10, i.e. also when the true ratio is 8.5 "
                "(80-91 % of the time, the audit of this chapter): one-sided in the claim's "
                "favour. Now decided with three outcomes on ldpnb.stats: a pass needs every "
                "cell shown at least tenfold. Numbers min and upper are no longer recorded, so "
                "the earlier rules are not evaluable on the new numbers; their statuses on the "
                "earlier runs are the ones given here.",
            ),
        ),
    ),
    Claim(
        "H7-a-art",
        "Sec. 4.4 with the artifact's sampling with replacement: SMP/RS+FD RID ratio ≥ 10 (top-10, every "
        "ε ≥ 4 at 5 surveys)",
        source="extension",
        kind="range",
        lower=10,
        one_sided=True,
        where="the artifact's effective survey behaviour (1_RID_Attack_FK_RS+FD_Adults.py)",
    ),
    Claim(
        "H7-b",
        "Sec. 4.4: top-1 RID-ACC of RS+FD 'nearly equal to the random Baseline' (1/n = 0.0022 %; largest over ε and "
        "#surveys, %)",
        source="derived",
        kind="range",
        paper=Printed("nearly equal the random Baseline", "Sec. 4.4"),
        reference=0.0022,
        where="the random baseline 1/n of top-1 re-identification on Adult (n = 45,222), in %, computed by us: "
        "Sec. 4.4 says 'nearly equal the random Baseline' and prints no value; the upper end 0.01 % (4.5 "
        "times the baseline) is our reading of 'nearly equal'",
        upper=0.01,
        one_sided=True,
        domain=_ACC,
        expect="diverges",
        instead="max(ours_high) < 0.25",
        note="Top-1 reaches tens of times the baseline (still far below SMP's ≈ 10 %): 'nearly equal' holds in "
        "absolute terms only. Estimator: ldpnb.stats.mean over the runs per (ε, #surveys) cell, simultaneous "
        "at 95 % over the cells: the claim fails when one cell is shown above 0.01 %.",
        changes=(
            CriterionChange(
                _STATS,
                _STATS_DATE,
                "paper",
                {"kind": "range", "lower": None, "upper": 0.01, "instead": "ours < 0.25", "expect": "diverges"},
                "the largest run mean over the cells against the bounds; now every cell's mean "
                "with its simultaneous interval (same region; the instead rule on the cells' "
                "upper ends)",
            ),
        ),
    ),
    Claim(
        "H7-c",
        "Sec. 4.4: 'even for the top-10 group the RID-ACC has meaningful improvement over the Baseline' "
        "(largest over ε and #surveys, %; baseline 0.022 %)",
        source="paper",
        kind="range",
        paper=Printed("meaningful improvement", "Sec. 4.4"),
        lower=0.11,
        one_sided=True,
        note="Lower bound 5 x baseline. The sentence may lack a 'no'; literally it holds.",
    ),
    Claim(
        "H7-d",
        "Sec. 4.4: RS+FD is a countermeasure to RID 'except for RS+FD[SUE-z]' (top-10 at ε = 10, 5 surveys: "
        "SUE-z ≥ half of SMP[GRR]'s RID, every other variant ≤ a fifth)",
        source="paper",
        kind="holds",
        paper=Printed("except for RS+FD[SUE-z]", "Sec. 4.4"),
        rule="sue_z >= 0.5 * smp and max(others) <= 0.2 * smp",
    ),
    # ------------------------------------------------------------------ Sec. 5: RS+RFD
    Claim(
        "T1",
        "Theorem 1 (App. A, B): the RS+RFD estimators (Eqs. 6, 7) are unbiased (ACS, ε = ln 3, correct priors, "
        "count-level simulation; largest |z| of the mean estimate over all values)",
        source="paper",
        kind="holds",
        paper=Printed("E[f̂] = f", "Theorem 1; App. A, B"),
        rule="max_abs_z < 5",
        note="198 values per protocol, 396 in all: |z| < 5 has a false-alarm rate below 3e-4.",
    ),
    Claim(
        "T2",
        "Theorem 2 / Eqs. 8, 9: the empirical variance of the RS+RFD estimates equals d²γ(1−γ)/(n(p−q)²) "
        "(ratio pooled over values, GRR and UE-r)",
        source="paper",
        kind="close",
        paper=Printed(1.0, "Theorem 2; Eqs. 8, 9"),
        atol=0.05,
        note="Pooled over 396 values and the runs: the relative s.d. of the pooled ratio is about 1 %.",
    ),
    Claim(
        "T9",
        "App. E.2: with uniform priors RS+RFD is RS+FD ('RS+FD with prior uniforms'): the estimators agree "
        "(largest |difference|)",
        source="paper",
        kind="close",
        paper=Printed(0, "App. E.2 ('RS+FD with prior uniforms'); Alg. 1"),
        atol=1e-12,
    ),
    Claim(
        "T19",
        "Figs. 7, 8: Pr[report supports v] = γ of Eqs. 8, 9 (single user, 200,000 reports; largest |z|)",
        source="paper",
        kind="holds",
        paper=Printed("γ", "Figs. 7, 8; Eqs. 8, 9"),
        rule="max_abs_z < 5",
    ),
    Claim(
        "T13",
        "Sec. 2.3.2 / 5.1: RS+FD and RS+RFD satisfy ε-LDP (tight level of the exact tuple channel of "
        "RS+FD[GRR], k = (2, 2), ε = 1)",
        source="paper",
        kind="holds",
        paper=Printed("ε-LDP", "Sec. 2.3.2; Sec. 5.1"),
        rule="abs(tight - 1) <= 1e-6",
        expect="diverges",
        instead="abs(tight - eps_prime) < 1e-9 and abs(neighbour - 1) < 1e-9",
        note="The ε claim holds for tuples that differ in one attribute (equal k, uniform fake data); over arbitrary "
        "pairs the exact level is ε' = ln(d(e^ε − 1) + 1) (1.490 here), and with unequal k or priors even the "
        "one-attribute level exceeds ε. The mechanism objects therefore claim ε'.",
    ),
    Claim(
        "H8-ACS",
        "Sec. 5.2.2: RS+RFD[GRR] consistently outperforms RS+FD[GRR] with correct priors (ACS; expected MSE "
        "ratio at every ε and experimental ratio pooled over ε)",
        source="paper",
        kind="holds",
        paper=Printed("consistently better", "Sec. 5.2.2"),
        rule="max(expected) <= 0.7 and pooled <= 0.7",
    ),
    Claim(
        "H8-Adult",
        "App. E.1: the same on Adult (expected and pooled experimental MSE ratio)",
        source="paper",
        kind="holds",
        paper=Printed("consistently better", "App. E.1"),
        rule="max(expected) <= 0.85 and pooled <= 0.85",
    ),
    Claim(
        "Fig5-a",
        "Fig. 5a: every RS+RFD protocol outperforms its RS+FD counterpart (ACS, correct priors)",
        source="paper",
        kind="holds",
        paper=Printed("all better", "Sec. 5.2.2, Fig. 5a"),
        rule="all_expected_lower == 1 and max(pooled) < 1",
    ),
    Claim(
        "Fig5-b",
        "Fig. 5b / App. E.1: with DIR priors RS+RFD is still better except OUE-r at low privacy (ACS, "
        "expected MSE over the drawn priors)",
        source="paper",
        kind="holds",
        paper=Printed("better except OUE-r", "Sec. 5.2.2; App. E.1"),
        rule="grr_sue_lower == 1 and oue_ratio_high >= 0.8 and oue_ratio_high <= 1.1",
    ),
    Claim(
        "E1-Adult",
        "App. E.1 on Adult (Fig. 16): with 'correct' priors every RS+RFD protocol 'consistently and "
        "considerably outperforms' its RS+FD version; with DIR priors RS+RFD still outperforms 'with the "
        "exception of RS+RFD[OUE-r] with similar utility ... in low privacy regimes'; ZIPF and EXP "
        "improved (MSE ratios RS+RFD/RS+FD: expected at every ε and pooled experimental; OUE-r DIR: "
        "expected ratio at ε = ln 7)",
        source="paper",
        kind="holds",
        paper=Printed("improved", "App. E.1, Fig. 16"),
        rule="max(correct_expected) <= 0.85 and max(correct_pooled) <= 0.85 and dir_grr < 1 and dir_sue < 1 "
        "and oue_dir_high >= 0.8 and oue_dir_high <= 1.1 and max(zipf_exp) < 1",
        expect="diverges",
        instead="min(correct_expected) <= 0.85 and max(correct_expected) > 0.85 and max(correct_expected) < 1 "
        "and max(correct_pooled) < 1 and dir_grr < 1 and dir_sue < 1 and oue_dir_high >= 0.8 "
        "and oue_dir_high <= 1.1 and max(zipf_exp) < 1",
        note="Extended on 2026-11-26 (before the new numbers were seen) to the three protocols under correct priors "
        "(H8-Adult grades GRR) and to the OUE-r exception under DIR, with Fig5-b's window. 'Considerably' is "
        "read as a ratio <= 0.85, as in H8-Adult (decision log): on Adult under correct priors only GRR "
        "improves considerably (expected ratio 0.75 at book scale); SUE-r and OUE-r improve by about 5 % "
        "(0.955), consistently but not considerably. The instead rule states that finding.",
        changes=(
            CriterionChange(
                _R3,
                _R3_DATE,
                "book",
                {
                    "kind": "holds",
                    "rule": "max(correct_expected) < 1 and max(correct_pooled) < 1 and dir_grr < 1 and dir_sue < 1 "
                    "and oue_dir_high >= 0.8 and oue_dir_high <= 1.1 and max(zipf_exp) < 1",
                    "expect": "pass",
                },
                "'consistently and considerably outperforms' was tested as a ratio < 1 only (pass; expected "
                "ratios 0.752, 0.955, 0.955 and pooled 0.784, 0.960, 0.965 for GRR, SUE-r, OUE-r seen at book "
                "scale); the re-audit asked for the protocol's 0.85 (as H8-Adult), under which SUE-r and OUE-r "
                "are above: declared a divergence",
            ),
        ),
    ),
    Claim(
        "H8-analytic",
        "App. E.1: experiments consistent with the analytical variance (experimental MSE vs exact "
        "expected MSE, pooled over ε, every dataset, prior and protocol; largest relative deviation)",
        source="paper",
        kind="range",
        paper=Printed("consistent", "App. E.1"),
        upper=0.25,
        one_sided=True,
        note="One run has ≈ 34 % relative s.d. on ACS; 0.25 is ≈ 4 s.e. at the book's runs.",
    ),
    Claim(
        "T10",
        "RS+RFD's averaged approximate variance ≤ RS+FD's for every prior (Adult; DIR, ZIPF, EXP draws x 6 ε "
        "x 3 protocols; violations)",
        source="derived",
        kind="holds",
        rule="violations == 0 and cases > 0",
        where="App. E.1: the f = 0 variance is minimised by the uniform fake distribution only in expectation; "
        "checked per draw",
    ),
    Claim(
        "H8-zipf",
        "App. E.1: with ZIPF priors the approximate variance 'improved considerably', especially "
        "RS+RFD[GRR] (largest ratio to RS+FD[GRR])",
        source="paper",
        kind="range",
        paper=Printed("considerable", "App. E.1"),
        upper=0.35,
        one_sided=True,
    ),
    Claim(
        "H9-a",
        "Sec. 5.2.3: against RS+RFD (correct priors) 'for all three NK, PK and HM models, the accuracy gain "
        "over a random Baseline model is still minor' (the paper's XGBoost attacker, ACS, every model, variant "
        "and ε run; run means, %)",
        source="paper",
        kind="range",
        paper=Printed("minor gain", "Sec. 5.2.3"),
        lower=2.0,
        upper=11.1,
        effect=2.0,
        note="'Minor' read as at most twice the 5.56 % baseline. Graded on XGBoost for NK, PK and HM since "
        "2026-11-26 (before: the Bayes NK plug-in only, 4.8-6.4 %). The Bayes PK and HM attackers, which learn "
        "the fake-data distribution exactly from the labelled users, gain more (the audit of this chapter: "
        "13.5-14.4 % against RS+RFD[GRR] at ε = 1); the chapter shows them as overlays." + _XGB_EST,
        changes=(
            _effect_change(
                {"kind": "range", "lower": 2.0, "upper": 11.1},
                "effect 2 points: an accuracy of 13.1 % (2.4 times the 5.56 % baseline, a gain of 7.5 points) is not "
                "a 'minor' gain; the lower edge (2 %) guards a broken attacker, not the claim",
            ),
        ),
    ),
    Claim(
        "H9-b",
        "Sec. 5.2.3: 'our RS+RFD protocols considerably decrease the attacker's AIF-ACC when comparing with their "
        "respective RS+FD version' (XGBoost NK s = 1n, ACS, each of GRR and SUE-r, every ε ≥ 2 of the "
        "XGBoost grid; run-mean decrease, pt; OUE-r: row H9-b-OUE)",
        source="paper",
        kind="range",
        paper=Printed("considerable", "Sec. 5.2.3"),
        lower=8,
        one_sided=True,
        effect=3.0,
        note="Graded on XGBoost since 2026-11-26 (before: Bayes NK, 16.9-19.3 pt). 'Considerably' read as at "
        "least 8 points at every ε ≥ 2 for every variant with uniform fake data in RS+FD. ε = 1 is left out "
        "(a scope fixed with the threshold, before any paper-scale run): RS+FD's attacker is weakest there (Fig. "
        "3), so RS+RFD has least to remove; the decrease at ε = 1 is not graded, and the paper's sentence names "
        "no ε. In the paper-scale record at fc019e8 (before the intervals of 2026-11-29) GRR's decrease was "
        "10.7-12.2 points and SUE-r's 7.88 at ε = 2, 9.4-12.9 above: one cell below 8." + _XGB_EST,
        changes=(
            _effect_change(
                {"kind": "range", "lower": 8, "one_sided": True},
                "effect 3 points: a decrease of 5 points is not 'considerable'",
            ),
            CriterionChange(
                _R3,
                _R3_DATE,
                "book",
                {"kind": "range", "lower": 8, "one_sided": True},
                "the row graded GRR only (11.8 points at book scale, pass); the paper's sentence is about every "
                "RS+RFD protocol against its RS+FD version, so SUE-r and OUE-r (whose XGBoost runs are in the "
                "chapter, not looked at for this row) are added with the same threshold",
            ),
            CriterionChange(
                _P4,
                _P4_DATE,
                "paper",
                {"kind": "range", "lower": 8, "one_sided": True},
                "graded GRR, SUE-r and OUE-r together; seen in the paper-scale record (9d0b193): fail, GRR and "
                "SUE-r decrease 8.0-12.6 points at every ε >= 2, OUE-r 7.10 and 7.91 at ε = 2 and 3 (8.1-8.8 "
                "above). OUE-r is split off into row H9-b-OUE (paper scale, a declared divergence); this row "
                "keeps GRR and SUE-r with the same threshold",
            ),
        ),
    ),
    Claim(
        "H9-b-OUE",
        "Sec. 5.2.3: 'our RS+RFD protocols considerably decrease the attacker's AIF-ACC when comparing with their "
        "respective RS+FD version', for OUE-r (XGBoost NK s = 1n, ACS, every ε ≥ 2 of the paper-scale grid; "
        "run-mean decrease, pt)",
        source="paper",
        kind="range",
        paper=Printed("considerable", "Sec. 5.2.3"),
        lower=8,
        one_sided=True,
        effect=3.0,
        scales=_PAPER_SCALE,
        expect="diverges",
        instead="min(ours) >= 5",
        note="Split off row H9-b after the paper-scale record made at 9d0b193, where OUE-r's decrease was 7.10 "
        "and 7.91 points at ε = 2 and 3 and 8.12-8.83 at ε = 4-10 (GRR and SUE-r: 8.0-12.6); in the record at "
        "fc019e8 (four runs of RS+FD per cell since 96a6e6b) it was 7.13 at ε = 2, 7.95 at ε = 9 and 8.03-8.77 "
        "at the other ε. The decrease "
        "grows with ε: at small ε OUE-r's amplified ε' leaves its real reports noisy, so the attacker "
        "gains less from RS+FD[OUE-r]'s uniform fake data and RS+RFD has less to remove. It is a "
        "decrease of 7-9 points against an RS+FD accuracy far above the 5.6 % baseline, so it is real, "
        "only below the 8-point reading of 'considerably' at small ε (and at one other, within the noise). "
        "The record at 9d0b193 had one run of RS+RFD and two of RS+FD per cell, the one at fc019e8 one and "
        "four; since 2026-11-29 SCALE=paper runs three of RS+RFD (Fig. 6), and the cells' intervals include "
        "the variation between runs. At "
        "book scale (ε ∈ {1, 10}) only ε = 10 would be graded, where the record shows 8.2 points, so the "
        "row runs at paper scale only." + _XGB_EST,
        changes=(
            _effect_change(
                {"kind": "range", "lower": 8, "one_sided": True, "expect": "diverges"},
                "effect 3 points: a decrease of 5 points is not 'considerable'",
            ),
            CriterionChange(
                _P4,
                _P4_DATE,
                "paper",
                {"kind": "range", "lower": 8, "one_sided": True, "expect": "pass"},
                "part of row H9-b (pass expected); seen in the paper-scale record (9d0b193): 7.10 and 7.91 "
                "points at ε = 2 and 3, below 8; declared a divergence with instead 'min(ours) >= 5' (a "
                "decrease remains)",
            ),
        ),
    ),
    Claim(
        "H9-c",
        "Sec. 5.2.3: against RS+RFD, 'the results with the PK model has higher attacker's AIF-ACCs than the NK "
        "model' (XGBoost PK 0.5n − NK s = 1n, mean over ε and variants of the run means; pt)",
        source="paper",
        kind="range",
        paper=Printed("PK > NK", "Sec. 5.2.3"),
        lower=0.0,
        one_sided=True,
        effect=1.0,
        note="Graded on XGBoost since 2026-11-26 (before: Bayes PK − NK, 2.45 pt; and row H9-xgb, XGBoost, "
        "0.84 pt in the paper-scale record at 9d0b193, now merged here and in H9-a; 1.19 pt in the record at "
        "fc019e8)." + _XGB_EST,
        changes=(
            _effect_change(
                {"kind": "range", "lower": 0.0, "one_sided": True},
                "effect 1 point: NK 1 point above PK reverses the paper's order",
            ),
        ),
    ),
    Claim(
        "Fig6-npk",
        "Sec. 5.2.3 (Fig. 6): PK AIF-ACC grows 'as the number of compromised profiles n_pk gets higher' "
        "(XGBoost PK 0.1n, 0.3n, 0.5n; mean over ε and variants of the run means)",
        source="paper",
        kind="monotone",
        paper=Printed("grows with n_pk", "Sec. 5.2.3"),
        direction="increasing",
        note="Graded on XGBoost since 2026-11-26 (before: Bayes PK, 7.14 < 7.99 < 8.26)." + _XGB_POINT,
    ),
    Claim(
        "E2-inc",
        "App. E.2 (Fig. 17): with ZIPF and EXP priors RS+RFD[GRR] and [UE-r] 'presented at most ~8 %' "
        "(the paper's XGBoost NK attacker; largest run mean over ε, s and variants, %)",
        source="paper",
        kind="close",
        paper=Printed(8, "App. E.2"),
        atol=3.0,
        note="Graded on XGBoost since 2026-11-26 (before: the Bayes NK plug-in with uniform fake data, 8.45 %). "
        "The first book-scale run had one run of Fig. 17 and gave 12.68 % (fail): one EXP prior draw at "
        "ε = 1 against RS+RFD[GRR], whose next four runs gave 5.7-6.5 % (five runs: largest mean 8.14 %, "
        "EXP SUE-r at ε = 1). A row decided by one prior draw measures that draw; the book now runs three "
        "runs of the ZIPF and EXP curves (the budget's limit): a size change made after the fail; the "
        "criterion is unchanged, and the statistics layer grades it with its interval in phase B." + _XGB_EST,
    ),
    Claim(
        "E2-3x",
        "App. E.2: RS+FD's 'at most ~25 %' (Fig. 3) against RS+RFD's 'at most ~8 %' with ZIPF and EXP priors "
        "(Fig. 17) is 'a 3x decrease factor' (XGBoost NK: largest RS+FD accuracy of GRR and UE-r over the "
        "largest RS+RFD ZIPF/EXP accuracy, same models and ε)",
        source="paper",
        kind="range",
        paper=Printed(3, "App. E.2"),
        lower=2.4,
        upper=3.75,
        effect=0.5,
        expect="diverges",
        instead="min(ours) > 1.5 and max(ours) < 2.4",
        note="'3x' read as a factor in [2.4, 3.75] (3 within a factor 1.25). Its denominator is E2-inc's: the first "
        "book run (one run of Fig. 17) gave 1.45, from the single EXP draw described there; see E2-inc for the "
        "runs now used. At book scale the factor is about 2.1: the paper's attacker as run here reaches less "
        "than the paper's 25 % against RS+FD (row XGB-GRR: XGBoost sits several points below both Bayes curves, "
        "the gap glued in the chapter), which shrinks the numerator while the RS+RFD denominator (about 8 %, "
        "E2-inc) matches the paper." + _XGB_EST,
        changes=(
            _effect_change(
                {"kind": "range", "lower": 2.4, "upper": 3.75, "expect": "diverges"},
                "effect 0.5: a factor of 1.9 or 4.25 is not '3x'",
            ),
            CriterionChange(
                _R3,
                _R3_DATE,
                "book",
                {"kind": "range", "lower": 2.0, "upper": 4.5},
                "'3x' was read as [2, 4.5], which passed 2.12 at book scale; the re-audit found that window too "
                "loose for '3x'; now [2.4, 3.75] (within a factor 1.25 of 3), under which the book's 2.12 is a "
                "divergence explained by XGB-GRR's lower RS+FD accuracy",
            ),
        ),
    ),
    Claim(
        "E2-DIR",
        "App. E.2: DIR 'incorrect' priors 'showed small reductions compared to the NK curves in Fig. 3' "
        "(XGBoost NK s = 1n, ACS: RS+RFD with DIR over RS+FD, per variant GRR, SUE-r, OUE-r, mean over "
        "the ε run of the run means)",
        source="paper",
        kind="holds",
        paper=Printed("small reductions", "App. E.2"),
        rule="max(ratio) < 1 and min(ratio) >= 0.7",
        expect="diverges",
        instead="min(ratio) >= 0.9",
        note="'Small reductions' read as a ratio in [0.7, 1). Expectation changed on 2026-11-26 after the first "
        "book-scale run, graded 'fail' against 'pass' expected: ratios 1.09, 1.07, 1.02 (GRR, SUE-r, "
        "OUE-r; one run of DIR), and 0.98-1.02 over five runs: the paper's attacker is as accurate with DIR "
        "priors as against RS+FD, no reduction. The Bayes NK plug-in shows none either (GRR: 25.2 % with "
        "DIR against 24.3 % in Fig. 3). The instead rule states that finding." + _XGB_POINT,
        changes=(
            CriterionChange(
                _A,
                _A_DATE,
                "book",
                {"kind": "holds", "rule": "max(ratio) < 1 and min(ratio) >= 0.7", "expect": "pass"},
                "expected to pass; seen at book scale: fail, ratios 1.09, 1.07, 1.02 (GRR, SUE-r, OUE-r; one DIR "
                "run) and 0.98-1.02 over five runs: no reduction; the expectation is now 'diverges' with the "
                "instead rule min(ratio) >= 0.9",
            ),
        ),
    ),
    Claim(
        "H9-aware",
        "Extension: a prior-aware NK attacker beats the paper's attacker against RS+RFD[GRR] with correct "
        "priors (ACS, every ε)",
        source="extension",
        kind="holds",
        rule="min(aware - naive) > 0",
        where="the server publishes the priors, so the attacker can use them",
    ),
    Claim(
        "S6-rec",
        "Sec. 6: 'even when no prior is available, we highly recommend ... RS+RFD' (with incorrect priors "
        "RS+RFD[GRR] keeps AIF-ACC at or below RS+FD[GRR]'s ≈ 25 %; prior-aware attacker, ACS, %)",
        source="paper",
        kind="range",
        paper=Printed("recommended", "Sec. 6"),
        upper=25,
        one_sided=True,
        expect="diverges",
        instead="min(ours) > 25",
        note="A prior-aware attacker, who uses the public priors exactly as the server does, reaches 37-61 % with "
        "DIR, ZIPF and EXP priors: concentrated fake data make a report outside the prior's mass almost surely "
        "real. The recommendation holds only against the paper's attacker, which assumes uniform fake data.",
    ),
)
