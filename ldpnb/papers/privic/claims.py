r"""The PRIVIC paper's claims as data (Biswas and Palamidessi 2023).

Every value under ``paper=Printed(...)`` is printed (or stated in words) in the paper at the place
``where`` names; the numbers the paper prints are in :mod:`ldpnb.papers.privic.values`.  Numbers from
the authors' released code are ``calibration`` (never a reproduction); numbers we computed are
``derived``; what goes beyond the paper is ``extension``; checks of our own code are ``invariant``.

Criteria are fixed here, before the chapter runs:

* deterministic computations (BA, LAP, priors, theorems, BA on the adversarial priors) get numerical
  tolerances or exact rules;
* every number that comes from random runs (Fig. 3's simulations, PRIVIC's rounds, the likelihood
  checks) is recorded as an :class:`ldpnb.stats.Estimate` with its 95 % interval and decided with three
  outcomes (holds / reversed / undecided) against a region that says what is *material*:

  - "lower than" between two mean EMDs: by more than 10 % of the larger one (``rtol=0.1``), Welch's
    interval of the difference (the two come from independent reports);
  - Tables III-IV: Welch's interval of our mean minus the mean of the paper's five printed rounds
    (the paper's rounds are a sample too) within :func:`table_margin`, :math:`\pm\max(0.02, 10\,\%)` of
    the printed mean, one row at a time: the joint statement "the tables are reproduced" holds when
    every row holds, an intersection-union test that needs no multiplicity correction (Berger 1982),
    and under equal means a row is reversed only when its whole interval leaves the margin;
  - "is the MLE": the ratio of the candidate's mean log-likelihood gap to the region
    :math:`R`, the 95 % quantile of the true distribution's gap under the same protocol
    (:func:`~ldpnb.papers.privic.experiments.calibrated_regions`), with a paired bootstrap over the
    rounds that re-estimates :math:`R` in every resample, so the region's own sampling error enters the
    interval (:func:`~ldpnb.papers.privic.experiments.gap_ratio`); Wilks' :math:`\chi^2_{m-1}/2`
    (:data:`REGION`) assumes independent reports and an interior maximum and is shown for comparison;
  - steps along a curve (the tables' trend, Fig. 10, BA's objective per cycle): the mean of the
    per-round steps, all steps jointly (Bonferroni), against a declared tie;

* "at every point" claims use simultaneous intervals (Bonferroni over the cells).

Where a criterion was changed after a result had been recorded, the claim carries the decision log
(``changes=``): the earlier criterion, the commit, what had been seen and why.
"""

from __future__ import annotations

import math

import numpy as np

from ldpnb.contracts import Real, contract
from ldpnb.papers.privic.values import (
    AUTHORS_TIGHT_EPS,
    CALIBRATION_ROW_SD,
    CITY_SHAPE,
    FIG3_BETAS,
    FIG10_BETAS,
    PAPER_FIG11_PANELS,
    PAPER_GRID_TEXT,
    PAPER_N_CHECKINS,
    PAPER_N_CHECKINS_SEC6,
    PAPER_TABLES,
)
from ldpnb.repro.claims import Claim, CriterionChange, Printed, claim_table

__all__ = [
    "CLAIMS",
    "ROUNDS",
    "MLE_ROUNDS",
    "SIZES_BY_SCALE",
    "TABLE_MARGIN",
    "table_margin",
    "REGION",
    "TREND_TIE",
    "ERRATA",
]

#: PRIVIC rounds per (city, beta) at each scale.  The paper runs 5 (Sec. 6); the book runs 20, so that the
#: steps of the tables' trend, of Fig. 10 and of BA's objective per cycle can be decided (the paper's own
#: five rounds still enter every comparison with its tables); smoke runs 2, the fewest an interval needs.
ROUNDS = {"smoke": 2, "book": 20, "paper": 20}

#: Absolute floor and relative part of the margin of a Tables III-IV row (:func:`table_margin`).
TABLE_MARGIN = (0.02, 0.10)


@contract(printed_mean=Real(0, None))
def table_margin(printed_mean: float) -> float:
    r"""The margin of a row of Tables III-IV: :math:`\max(0.02, 0.1\,\bar p)` grid units around the mean
    :math:`\bar p` of the paper's five printed rounds.  10 % of the EMD is the smallest difference we call
    material (the ⊕ average of Alg. 1 moves row 15 of Table III by 30 %); 0.02 grid units (about 10 m)
    keeps the margin above the paper's own round-to-round spread at the late rows (0.003-0.014).

    Examples
    --------
    >>> table_margin(0.14), table_margin(0.57)
    (0.02, 0.057)
    """
    return round(max(TABLE_MARGIN[0], TABLE_MARGIN[1] * float(printed_mean)), 6)


def _region(m: int) -> float:
    from scipy.stats import chi2  # noqa: PLC0415 lazy: scipy/numpy submodule loaded at first use

    return float(chi2.ppf(0.95, m - 1) / 2)


#: Half the 95 % chi-square quantile with m - 1 degrees of freedom (m = 165 Paris, 384 SF): total nats
#: (Wilks' region: the per-cycle IBU check of S6-IBU-conv, and the comparison for the calibrated one).
REGION = {c: _region(int(np.prod(s))) for c, s in CITY_SHAPE.items() if c in ("paris", "sf")}

#: Tie of the trend of Table III: a rise between consecutive rows of at most this much (grid units) is not
#: a rise.  The values of the third edition's noise allowance, about 10 % of the final EMD (0.14 and 0.31).
TREND_TIE = {1.0: 0.0154, 0.5: 0.0259}


def _mle_sizes(paris: int, sf: int, close: int) -> dict:
    return {
        (p, c, b): (close if (p, c, b) == ("A11", "paris", 1.0) else {"paris": paris, "sf": sf}[c])
        for p in ("ALG1", "A11")
        for c in ("paris", "sf")
        for b in (1.0, 0.5)
    }


#: Rounds of PRIVIC with the certified MLE per (protocol, city, beta), at each scale (0: not run).  Their
#: truth gaps calibrate the likelihood-ratio region; the bootstrap interval of a 95 % quantile covers
#: 95 % from about 100 rounds (measured, :func:`~ldpnb.papers.privic.experiments.gap_ratio`).  The closest
#: call, the tables' protocol in Paris at beta = 1 (third edition: mean gap 75.6 nats against a region of
#: 78.3, truth gaps' sd 7.5), gets 400 rounds: a standard error of about 0.8 nats on the difference, so that
#: a true difference of 2.7 nats is decided with probability about 0.9.  San Francisco's 20 rounds (2-5 s
#: of certified MLE each) are not evaluated at smoke scale.
MLE_ROUNDS = {"smoke": _mle_sizes(10, 0, 10), "book": _mle_sizes(100, 20, 400), "paper": _mle_sizes(200, 60, 400)}

#: The chapter's sizes per scale: Fig. 3's simulations (``sims``) and betas, the IBU budget study's
#: simulations and budgets, Fig. 10's betas, BA's iterations for the convergence checks (``conv_iter``)
#: and for T-QoS's fixpoints (``qos_iter``: at 2,000 the ten-point line's largest residual is 1.2e-6, above
#: the row's fixed 1e-6; 4,000 reaches about 3e-7),
#: GIBU's iterations, the attack levels, the MLE's tolerance, the rate-distortion betas, the rounds of
#: the long runs per city, :data:`ROUNDS` and :data:`MLE_ROUNDS`.  A size ``None`` means "not run at this
#: scale" (the claim is then out of scale too): ``fixpoint_iter``, BA's iteration cap for T-F2;
#: ``cal_rounds``, T-cal's fresh rounds per column (paper scale only, 100); ``timing_sides``, the grid
#: sides of T2's timings.  ``boot_reps`` are the replicates of the exercise's parametric bootstrap.
#: Paper scale runs the book's sizes, more MLE rounds and T-cal.
_SMOKE_SIZES = dict(
    sims=2,
    budget_sims=2,
    fig3_betas=[0.2, 0.6, 1.0, 1.4, 2.2, 5.0],
    fig10_betas=[0.1, 0.5, 1.0],
    budgets=[10, 100],
    conv_iter=2_000,
    qos_iter=4_000,
    gibu_iters=[30, 300, 3_000],
    attack_levels=[0, 8],
    mle_tol=1e-5,
    rd_betas=[0.5, 1.0, 2.0, 5.0],
    long_rounds={"paris": 2, "sf": 2},
    fixpoint_iter=None,
    cal_rounds=None,
    timing_sides=None,
    boot_reps=5,
)
_BOOK_SIZES = dict(
    sims=20,
    budget_sims=10,
    fig3_betas=FIG3_BETAS,
    fig10_betas=FIG10_BETAS,
    budgets=[10, 100, 1_000, 10_000],
    conv_iter=20_000,
    qos_iter=20_000,
    gibu_iters=[100, 1_000, 10_000],
    attack_levels=[0, 2, 4, 6, 8],
    mle_tol=1e-6,
    rd_betas=[0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0],
    long_rounds={"paris": 20, "sf": 3},
    fixpoint_iter=20_000,
    cal_rounds=None,
    timing_sides=[12, 16, 24, 32, 40],
    boot_reps=20,
)
SIZES_BY_SCALE = {
    "smoke": _SMOKE_SIZES | {"rounds": ROUNDS["smoke"], "mle_rounds": MLE_ROUNDS["smoke"]},
    "book": _BOOK_SIZES | {"rounds": ROUNDS["book"], "mle_rounds": MLE_ROUNDS["book"]},
    "paper": _BOOK_SIZES | {"cal_rounds": 100, "rounds": ROUNDS["paper"], "mle_rounds": MLE_ROUNDS["paper"]},
}

_BOOK = ("book", "paper")
_CITY = {"paris": "Paris", "sf": "San Francisco"}
_TABLE = {"paris": "III", "sf": "IV"}

# The decision logs.  _STATS is the commit that moved the Monte Carlo rows onto ldpnb.stats (issue #31),
# after main's book-scale record at e054f53 (164 rows: 113 pass, 50 diverge) had been seen.
_STATS, _STATS_DATE = "8353c3e", "2026-11-28"
_A, _A_DATE = "a9b1af0", "2026-11-27"  # the fourth edition's criteria (issue #38)
_SMOKE, _SMOKE_DATE = "d82ac64", "2026-11-28"  # its decision log after the smoke run
_SEEN_A = "seen at e054f53 (book scale)"
_B4, _B4_DATE = "c4613db", "2026-11-28"  # F3-B's ranges, after the first smoke run of 8353c3e
# The fifth edition's changes (issue #38, re-audit of main b290ed4, whose book-scale record had been seen).
_R5, _R5_DATE = "48a2bad", "2026-11-28"
_SEEN_R5 = "seen at b290ed4 (book scale) and in the re-audit's own runs"
_NEW_ROW5 = (
    "a new row of the fifth edition, whose criterion was written after the re-audit of b290ed4 had "
    "measured {}: it has no earlier criterion, so this entry records the one written then, with what "
    "was known"
)


def _stats_change(was: dict, reason: str) -> CriterionChange:
    """The entry of this edition's move to estimates: ``was`` is the criterion of e054f53's book run."""
    return CriterionChange(_STATS, _STATS_DATE, "book", was, f"{reason} ({_SEEN_A})")


#: Slips of the paper that are not numbers (listed in the chapter's text).
ERRATA = (
    "Eq. (9) of the proof of Thm 5.1 writes $c_t$ where the iteration has $c_{t-1}$.",
    "Sec. 7 calls the strong and the vulnerable location 'points A and B' in the reverse order of Fig. 1.",
    "Sec. 7 cites 'Figures 10(a) and 10(b)' for Fig. 11, and Sec. 3.1 cites 'Figures 1(b) and 1(a)' for Fig. 2.",
    "Alg. 2 normalises BA's update by $\\sum_z c(z)e^{-\\beta d(z,y)}$ (a column sum): row E1.",
    "Eq. (8) prints $e^{+\\beta d}$ in the elastic form of the BA limit: row E2.",
    "Sec. 3.1 speaks of 'ε = 0.2, the highest level of privacy considered'; Fig. 2's smallest ε is 0.4: row E5.",
    "Sec. 6 says a higher β gives a worse statistical utility; Fig. 10 shows the opposite: row E6.",
)


def _data_claims():
    out = []
    for c, name in _CITY.items():
        r, k = PAPER_GRID_TEXT[c]
        out += [
            Claim(
                f"D1-{c}",
                f"{name}: the grid has {r} × {k} cells",
                source="paper",
                paper=Printed(f"{r} x {k}", "Sec. 3.1 / Sec. 3.2, repeated in Sec. 6"),
                kind="holds",
                rule=f"(rows == {r} and cols == {k}) or (rows == {k} and cols == {r})",
                expect="diverges",
                instead="rows * cols == " + str({"paris": 165, "sf": 384}[c]),
                note="The text's grid is the nominal box. Binning the authors' raw file with the edges of their "
                "code gives the grid their tables were computed on (11 × 15 and 16 × 24); only that grid "
                "reproduces row 1 of Tables III-IV (rows D4).",
            ),
            Claim(
                f"D2-{c}",
                f"{name}: number of check-ins",
                source="paper",
                paper=Printed(PAPER_N_CHECKINS[c], "Sec. 3.1" if c == "paris" else "Sec. 3.2"),
                kind="close",
                atol=0,
            ),
            Claim(
                f"D3-{c}",
                f"{name}: number of check-ins as Sec. 6 prints it",
                source="paper",
                paper=Printed(PAPER_N_CHECKINS_SEC6[c], "Sec. 6, first paragraph"),
                kind="close",
                atol=0,
                expect="diverges",
                instead=f"ours == {PAPER_N_CHECKINS[c]}",
                note="Sec. 6 contradicts Sec. 3; only the N of Sec. 3 reproduces row 1 of the tables.",
            ),
        ]
    out += [
        Claim(
            "D4-paris",
            "Table III row 1: EMD(uniform, π) in Paris (grid units)",
            source="paper",
            paper=Printed(2.02262, "Appendix B, Table III, row 1"),
            kind="close",
            atol=5e-6,
            note="Half a unit of the printed fifth decimal.",
        ),
        Claim(
            "D4-sf",
            "Table IV row 1: EMD(uniform, π) in San Francisco (grid units)",
            source="paper",
            paper=Printed(7.37595, "Appendix B, Table IV, row 1"),
            kind="close",
            atol=2e-4,
            note="Our EMD is POT's exact network simplex (7.376104). The authors' EMD package, pyemd 1.0.0, "
            "gives 7.375948 (San Francisco) and 2.022620 (Paris) on the same counts, the paper's numbers: "
            "its approximation error is 1.6e-4 here, hence the tolerance 2e-4.",
        ),
        Claim(
            "D5",
            "The most crowded cells: B = (3, 7) with 533 check-ins in Paris, (2, 19) with 8,427 in San Francisco",
            source="derived",
            kind="holds",
            rule="paris_row == 3 and paris_col == 7 and paris_max == 533 and sf_row == 2 and sf_col == 19 "
            "and sf_max == 8427",
            where="our binning of the authors' files (Fig. 6b shows the maps; Fig. 1 calls B the strong location)",
        ),
    ]
    return out


def _ba_claims():
    return [
        Claim(
            "T-D1",
            "BA's objective $I(X;Y) + \\beta\\,\\mathrm{AvgD}$ never increases along the iteration "
            "(Paris prior, β ∈ {0.2, 1, 2}, 400 iterations; largest step)",
            source="invariant",
            kind="holds",
            rule="max_step <= 1e-12",
            where="Remark 3; Csiszár (1974)",
        ),
        Claim(
            "P3",
            "BA run to convergence collapses its output support onto a few cells (Paris, β ∈ {0.2, 1}: "
            "outputs with c(y) > 1e-6, as a share of the 165 cells)",
            source="extension",
            kind="holds",
            rule="max(support_share) < 0.5",
            where="Alg. 2 run to its stopping rule, against the paper's fixed 8-10 iterations",
            note="The paper's experiments stop BA after 5-10 iterations, far from the fixpoint.",
        ),
        Claim(
            "T-E1",
            "β is minus the slope of the rate-distortion curve: dR/dD at β = 0.5, 1, 2 "
            "(10 collinear points, central differences, h = 1e-3)",
            source="paper",
            paper=Printed([-0.5, -1.0, -2.0], "Def. 2.9, after Eq. (2)"),
            kind="close",
            atol=1e-4,
            note="The central difference has error O(h²) ≈ 1e-6; 1e-4 leaves room for the convergence tolerance "
            "of BA (1e-12).",
        ),
        Claim(
            "T-E2",
            "At the fixpoint $R = -\\beta\\,\\mathrm{AvgD} - \\sum_x \\pi(x)\\log Z(x)$ (largest gap, "
            "10 collinear points)",
            source="invariant",
            kind="close",
            reference=0.0,
            atol=1e-10,
            where="Csiszár (1974), the closed form of R at slope −β",
        ),
        Claim(
            "T-E3",
            "BA optimises the trade-off between MI and QoS: no LAP channel lies below BA's supporting "
            "line (smallest Lagrangian gap over 8 β and 9 LAP channels, Paris prior, nats)",
            source="paper",
            paper=Printed("BA gives the optimal MI-QoS trade-off", "Sec. 3, contributions; Def. 2.9"),
            kind="holds",
            rule="min_gap >= -1e-9",
        ),
        Claim(
            "T-C1",
            "BA with loss β is 2β-geo-indistinguishable: tight level / 2β on both cities, all 25 β of Fig. 3 (largest)",
            source="paper",
            paper=Printed("ε ≤ 2β", "Remark 4"),
            kind="range",
            upper=1 + 1e-12,
            one_sided=True,
        ),
        Claim(
            "T-C3",
            "Every BA iterate F(c) is 2β-geo-ind for any full-support c (random c, Paris grid, "
            "β ∈ {0.1, 0.5, 1, 3}; largest tight level / 2β)",
            source="derived",
            kind="range",
            upper=1 + 1e-9,
            one_sided=True,
            where="Remark 4 (the step of its proof; Oya et al. 2017)",
        ),
        *[
            Claim(
                f"T-eps-{c}",
                f"{n}: the tight level of BA(π, β, 10 it.) for the 25 β of Fig. 3 equals the authors' list",
                source="calibration",
                kind="close",
                reference=AUTHORS_TIGHT_EPS[c],
                atol=1e-5,
                where="the authors' eps_tight lists (released code; not printed in the paper)",
                note="Calibration: the authors tune LAP to these levels in Figs. 2-3; matching them shows that our "
                "BA, grid and data are theirs.",
            )
            for c, n in _CITY.items()
        ],
        Claim(
            "T-F1",
            "The BA limit has the elastic form $q(y)e^{-\\beta d(x,y)}/\\sum_z q(z)e^{-\\beta d(x,z)}$ "
            "(10 collinear points, β = 1; largest gap)",
            source="paper",
            paper=Printed("elastic fixpoint", "Thm 3.1"),
            kind="holds",
            rule="gap < 1e-10",
        ),
        Claim(
            "T-F2",
            "Same on the Paris prior at β = 1, BA run to max|ΔC| < 1e-8",
            source="paper",
            paper=Printed("elastic fixpoint", "Thm 3.1"),
            kind="holds",
            rule="gap < 1e-6",
            note="1e-6: the residual is of the order of BA's last step.",
            scales=_BOOK,
        ),
        Claim(
            "T-D2",
            "The converged BA channel is a fixpoint of F∘G and its marginal of G∘F "
            "(10 collinear points; largest residual)",
            source="paper",
            paper=Printed("fixpoint", "Remark 3"),
            kind="holds",
            rule="residual < 1e-10",
        ),
        Claim(
            "E2",
            "Eq. (8) as printed: the BA limit is $\\propto q(y)e^{+\\beta d(x,y)}$",
            source="paper",
            paper=Printed("e^{+βd}", "Appendix A, Eq. (8)"),
            kind="holds",
            rule="printed_gap < 1e-6",
            expect="diverges",
            instead="printed_gap > 0.1 and fixpoint_gap < 1e-6",
            note="A sign slip: the limit has e^{−βd} (T-F1, T-F2); the printed form is far from it.",
        ),
        Claim(
            "E1",
            "Alg. 2 as printed, $c(y)e^{-\\beta d(x,y)}/\\sum_z c(z)e^{-\\beta d(z,y)}$, is a channel "
            "(largest |row sum − 1|, Paris, β = 1)",
            source="paper",
            paper=Printed("a channel", "Alg. 2"),
            kind="holds",
            rule="row_dev < 0.01",
            expect="diverges",
            instead="row_dev > 0.01 and eq1_gap < 1e-5",
            note="The denominator is a column sum: a slip for Σ_z c(z)e^{−βd(x,z)} (Eq. (1)), with which the "
            "authors' tight levels are reproduced (T-eps).",
        ),
    ]


def _island_claims():
    return [
        Claim(
            "F1",
            "The island prior of the figures: π(A) = 0.01, the 24 other cells of A's block empty, B the "
            "largest cell, total 1",
            source="calibration",
            kind="holds",
            rule="abs(pi_A - 0.01) < 1e-12 and block_rest == 0 and B_is_max == 1 and abs(total - 1) < 1e-9",
            where="the authors' released island vector (the paper shows it as a map, Fig. 1)",
            note="Calibration: we use the vector of the authors' code for the figures, since the text's recipe "
            "(F1-recipe) does not give them.",
        ),
        Claim(
            "F1-recipe",
            "The island is made by 'dumping the cumulative mass of the grids around A to A': the "
            "figures' π(A) equals the mass of A's 5 × 5 block",
            source="paper",
            paper=Printed("π(A) = mass of the block around A", "Sec. 3.1, paragraph before Fig. 1"),
            kind="holds",
            rule="abs(figures_pi_A - block_mass) < 1e-9",
            expect="diverges",
            instead="literal_A_is_max == 1 and abs(figures_pi_A - 0.01) < 1e-12",
            note="The recipe puts π(A) = 0.0842 and makes A the largest cell of the map, not an isolated one; "
            "the figures use π(A) = 0.01 (the authors' code first wrote the literal vector, then replaced "
            "it). Fig. 2 under the literal recipe: F2-literal.",
        ),
        Claim(
            "F2-low",
            "At ε = 0.4 BA reports A 'most probably around the most crowded region of Paris': BA's "
            "most likely report for A is B, and more than half of A's reports fall in B's 5 × 5 block",
            source="paper",
            paper=Printed("most probably around the most crowded region", "Sec. 3.1"),
            kind="holds",
            rule="mode_is_B == 1 and B_block > 0.5",
        ),
        Claim(
            "F2-path",
            "As ε grows, BA's most likely report for A 'moves to a densely populated region closer and "
            "closer' to A (β = 0.05 … 1.2 in steps of 0.05: distance of the mode never increases, and "
            "some crowded cell between B and A is the mode at some β)",
            source="paper",
            paper=Printed("closer and closer", "Sec. 3.1"),
            kind="holds",
            rule="nonincreasing == 1 and n_intermediate > 0",
            expect="diverges",
            instead="n_distinct_modes == 2 and n_intermediate == 0",
            note="The mode jumps from B (5 units from A) straight to A itself; no intermediate cell is ever the "
            "mode. What does decrease is E[d(A, Y)] (F2-Ed).",
        ),
        Claim(
            "F2-Ed",
            "The softened reading: BA's expected distance E[d(A, Y)] decreases as ε grows (β = 0.2 … 1)",
            source="derived",
            kind="monotone",
            direction="decreasing",
            strict=True,
            where="Sec. 3.1 ('closer and closer'), read for the whole distribution",
        ),
        Claim(
            "F2-LAP",
            "LAP's most likely report for A is A at every ε of Fig. 2 (padded, row-normalised LAP)",
            source="invariant",
            kind="holds",
            rule="lap_at_A == n",
            where="Sec. 3.1 ('LAP always obfuscates every location around its true position')",
            note="True by construction: LAP's row e^{−εd(A,·)}/Z peaks at d = 0. Kept as a check of our padded "
            "LAP, not as a test of the paper (the third edition graded it as a paper claim, which cannot "
            "fail).",
        ),
        Claim(
            "F2-elastic",
            "For ε ≤ 1.6 BA keeps A's reports out of the deserted block, LAP does not: "
            "P(block | A) of BA below LAP's at ε = 0.4, 0.8, 1.2, 1.6",
            source="paper",
            paper=Printed("BA protects the isolated A; LAP reports it in a deserted area", "Sec. 3.1, Fig. 2a"),
            kind="order",
            relation="BA < LAP",
        ),
        Claim(
            "F2-16-LAP",
            "At ε = 1.6 LAP's distribution of A is 'almost completely around the true vulnerable "
            "point' (P(block | A) ≥ 0.9)",
            source="paper",
            paper=Printed("almost completely around the true point", "Sec. 3.1, ε = 1.6"),
            kind="range",
            lower=0.9,
            one_sided=True,
            note="'Almost completely' read as at least 90 %.",
        ),
        Claim(
            "F2-16-mass",
            "At ε = 1.6 BA 'distributes the reported location in the crowded areas nearby': at "
            "most 20 % of A's reports in its deserted block, at least half in the crowded block of B",
            source="paper",
            paper=Printed("in the crowded areas nearby", "Sec. 3.1, ε = 1.6"),
            kind="holds",
            rule="A_block <= 0.2 and B_block >= 0.5",
        ),
        Claim(
            "F2-16-mode",
            "… so that at ε = 1.6 BA's most likely report for A lies outside the deserted block",
            source="paper",
            paper=Printed("in the crowded areas nearby", "Sec. 3.1, ε = 1.6"),
            kind="holds",
            rule="mode_outside == 1",
            expect="diverges",
            instead="mode_is_A == 1 and switch_eps < 1.6",
            note="BA's single most likely report at ε = 1.6 is A itself; the mode switches from B to A at "
            "β* ≈ 0.79 (2β* ≈ 1.58).",
        ),
        Claim(
            "F2b",
            "For the crowded B, 'both BA and LAP behave similarly': both modes are B at every ε of Fig. 2",
            source="paper",
            paper=Printed("both behave similarly", "Sec. 3.1, Fig. 2b"),
            kind="holds",
            rule="same_mode == n",
        ),
        Claim(
            "E5",
            "Sec. 3.1: 'ε = 0.2, the highest level of privacy considered' (the smallest tight ε of Fig. 2)",
            source="paper",
            paper=Printed(0.2, "Sec. 3.1, paragraph after Fig. 2"),
            kind="close",
            atol=0.01,
            expect="diverges",
            instead="abs(ours - 0.4) < 0.01",
            note="A slip: Fig. 2's top row is β = 0.2, ε = 0.4 (tight 0.393); no ε = 0.2 row exists.",
        ),
        Claim(
            "F2-literal",
            "With the text's literal recipe the Fig. 2 story fails: BA's mode for A is A from "
            "β < 0.5, and at ε = 1.6 BA keeps more than 85 % of A's reports in the block",
            source="extension",
            kind="holds",
            rule="switch_beta < 0.5 and A_block_16 > 0.85",
            where="Sec. 3.1 recipe, Fig. 2 protocol",
        ),
        Claim(
            "F2-renorm",
            "With π(A) = 0.01 and the rest renormalised, BA still keeps A's reports out of the block "
            "better than LAP at ε ≤ 1.6",
            source="extension",
            kind="order",
            relation="BA < LAP",
            where="Fig. 2 protocol with a third island vector",
        ),
    ]


_NEW_ROW = (
    "a new row of the fourth edition, whose criterion was written after the audit of the third edition "
    "had measured {}: it has no earlier criterion, so this entry records the one written then, with what "
    "was known"
)


def _fig3_claims():
    lower = "'lower' is lower by more than 10 % of the other's mean EMD (rtol = 0.1)"
    out = [
        Claim(
            "T-LAP-level",
            "LAP tuned to BA's tight level has 'the same level of geo-ind' as BA: tight level of "
            "the padded LAP over its nominal ε, the 25 β of Fig. 3, both cities (within 1 %)",
            source="paper",
            paper=Printed("the same level of geo-ind", "Sec. 3.1, paragraph before Fig. 2"),
            kind="holds",
            rule="max(abs(ratio - 1)) <= 0.01",
            expect="diverges",
            instead="min(ratio) >= 1 and max(ratio) > 1.05",
            note="Each row of the padded LAP is normalised over the padded grid, so its own tight level exceeds "
            "the nominal one, most at high privacy (the normalisers differ most between edge and centre "
            "cells). F3-LAPcal checks that Fig. 3's conclusion survives calibrating LAP to the tight level.",
            changes=(
                CriterionChange(
                    _A,
                    _A_DATE,
                    "book",
                    {
                        "kind": "holds",
                        "rule": "max(abs(ratio - 1)) <= 0.01",
                        "expect": "diverges",
                        "instead": "min(ratio) >= 1 and max(ratio) > 1.05",
                    },
                    _NEW_ROW.format("LAP's excess level (×1.095 at β = 0.2)"),
                ),
            ),
        ),
        Claim(
            "F3-LAPcal",
            "Fig. 3 with LAP calibrated so that its tight level equals BA's (nominal ε lowered, "
            "lap_at_level): LAP still has the lower mean EMD at β = 0.2 and 0.4, both cities (ratio "
            "of mean EMDs LAP / BA below 1, all four jointly)",
            source="derived",
            kind="range",
            upper=1.0,
            one_sided=True,
            domain=(0, None),
            effect=0.05,
            where="Sec. 3.2, Fig. 3, at the two β where LAP's excess level is largest",
            note="Fieller's interval of the ratio of means (independent reports), simultaneous over the four "
            "cells. The excess (T-LAP-level) favours LAP by up to 10 % of budget at β = 0.2; the order in "
            "Fig. 3 is a factor 2.5 or more, so the calibration should not change it.",
            changes=(
                _stats_change(
                    {"kind": "order", "relation": "LAP_cal < BA", "atol": 0.0, "rtol": 0.0},
                    "means compared without their noise",
                ),
            ),
        ),
    ]
    for c, n in _CITY.items():
        lo, hi = {"paris": (0.4, 1.4), "sf": (0.0, 1.0)}[c]
        interval = f"({lo:g}, {hi:g}]" if c == "paris" else f"({lo:g}, {hi:g})"
        order_was = {"kind": "order", "atol": 0.0, "rtol": 0.0, "expect": "diverges"}
        out += [
            Claim(
                f"F3-order-{c}",
                f"{n}: BA has a lower EMD than LAP for β ∈ {interval} (IBU from uniform, "
                "LAP at BA's tight level; at every β of the interval, jointly)",
                source="paper",
                paper=Printed(f"BA better for β ∈ {interval}", "Sec. 3.2, Fig. 3"),
                kind="order",
                relation="BA < LAP",
                rtol=0.1,
                expect="diverges",
                instead="all(LAP < BA)",
                note=f"{lower}; Welch's interval of each difference, simultaneous over the interval's β. Under "
                "the stated protocol LAP beats BA at every β, also with 100-10⁴ IBU iterations (P4) and with "
                "LAP at 2β (F3-2beta). Only BA's IBU started at the true π gives a crossover (F3-B).",
                changes=(
                    _stats_change(
                        {**order_was, "relation": "BA < LAP", "instead": "all(LAP < BA)"},
                        "means compared without their noise and with no tie",
                    ),
                ),
            ),
            Claim(
                f"F3-2beta-{c}",
                f"{n}: the same ordering with LAP at the paper's stated ε = 2β",
                source="paper",
                paper=Printed(f"BA better for β ∈ {interval}; LAP at ε = 2β", "Sec. 3.1 and Remark 4"),
                kind="order",
                relation="BA < LAP_2beta",
                rtol=0.1,
                expect="diverges",
                instead="all(LAP_2beta < BA)",
                note=f"{lower}. The divergence does not come from tuning LAP to BA's tight level.",
                changes=(
                    _stats_change(
                        {**order_was, "relation": "BA < LAP_2beta", "instead": "all(LAP_2beta < BA)"},
                        "means compared without their noise and with no tie",
                    ),
                ),
            ),
            Claim(
                f"F3-limit-{c}",
                f"{n}: 'the EMD … converge to 0 in both mechanisms' (mean EMD at β = 5 below 5 % "
                "of its value at β = 0.2, for BA and for LAP)",
                source="paper",
                paper=Printed("converge to 0", "Sec. 3.2"),
                kind="range",
                upper=0.05,
                one_sided=True,
                domain=(0, None),
                effect=0.01,
                note="'Converge to 0' read as a 20-fold decrease over the paper's range of β. Fieller's interval "
                "of each ratio of means (independent runs), both jointly.",
                changes=(
                    _stats_change(
                        {"kind": "holds", "rule": "ba_ratio <= 0.05 and lap_ratio <= 0.05"},
                        "ratios of means compared without their noise",
                    ),
                ),
            ),
            Claim(
                f"F3-cross-{c}",
                f"{n}: 'as the level of privacy decreases, the EMD of BA becomes worse than that "
                "of LAP': BA has the lower mean EMD at some β of the 25 (the stated protocol; "
                "smallest ratio of mean EMDs BA / LAP below 0.9)",
                source="paper",
                paper=Printed("BA becomes worse than LAP as privacy decreases", "Sec. 3.2"),
                kind="range",
                upper=0.9,
                one_sided=True,
                domain=(0, None),
                effect=0.05,
                expect="diverges",
                instead="ours_low > 1",
                note="The smallest of the 25 ratios, with the interval [min of the lower ends, min of the upper "
                "ends] of Fieller's intervals simultaneous over the 25 β (it covers the smallest true ratio "
                "whenever they all cover theirs). There is no crossover: LAP has the lower EMD at every β "
                "from 0.2 to 5, also below the paper's interval (β ≤ 0.4 in Paris) where the paper's wording "
                "has BA not better.",
                changes=(
                    _stats_change(
                        {"kind": "holds", "rule": "any(BA < LAP)", "expect": "diverges", "instead": "all(LAP < BA)"},
                        "means compared without their noise",
                    ),
                ),
            ),
            Claim(
                f"F3-comparable-{c}",
                f"{n}: BA's statistical utility is 'eventually becoming comparable' to LAP's "
                "as privacy decreases (ratio of mean EMDs BA / LAP at β = 5 at most 2)",
                source="paper",
                paper=Printed("eventually becoming comparable", "Sec. 1 (twice)"),
                kind="range",
                upper=2.0,
                one_sided=True,
                domain=(0, None),
                effect=0.2,
                expect="diverges",
                note="'Comparable' read as within a factor 2; Fieller's interval (independent runs). The ratio "
                "grows with β instead (the chapter gives it at every β): LAP's EMD falls much faster than "
                "BA's.",
                changes=(
                    _stats_change(
                        {
                            "kind": "holds",
                            "rule": "ratio[-1] <= 2",
                            "expect": "diverges",
                            "instead": "ratio[-1] > ratio[0]",
                        },
                        "a ratio of means without its noise",
                    ),
                ),
            ),
        ]
    b_note = (
        "Variant B against LAP at BA's tight level: per β, the ratio of the predicted winner's mean EMD to "
        "the predicted loser's (Fieller, independent reports), at most 0.9 (lower by more than 10 %), "
        "simultaneous over the β graded."
    )
    out += [
        Claim(
            "F3-B-paris",
            "Paris: with BA's IBU started at the true π (variant B), BA beats LAP on (0.4, 1.4] (ratio "
            "of mean EMDs B / LAP at most 0.9 at every β of the interval)",
            source="extension",
            paper=Printed("BA better for β ∈ (0.4, 1.4]", "Sec. 3.2"),
            kind="range",
            upper=0.9,
            one_sided=True,
            domain=(0, None),
            effect=0.05,
            where="Fig. 3 protocol with IBU started at the true π (not the paper's stated protocol)",
            expect="diverges",
            instead="ours_high[0] < 0.9 and ours_low[-1] > 1",
            note=b_note + " 'instead': B wins at the interval's first β and LAP at its last (1.4): variant B's "
            "crossover lies inside the paper's interval.",
            changes=(
                _stats_change(
                    {
                        "kind": "holds",
                        "rule": "all(win_B < win_LAP) and all(beyond_LAP < beyond_B)",
                        "expect": "diverges",
                        "instead": "all(upto1_B < upto1_LAP) and all(from14_LAP < from14_B)",
                    },
                    "means compared without their noise",
                ),
                CriterionChange(
                    _B4,
                    _B4_DATE,
                    "smoke",
                    {
                        "kind": "order",
                        "relation": "winner < loser",
                        "rtol": 0.1,
                        "expect": "diverges",
                        "instead": "all(upto1_B < upto1_LAP) and all(from14_LAP < from14_B)",
                    },
                    "8353c3e's order over the concatenated winner/loser means (B on the paper's "
                    "interval, LAP from 1.4 + 0.4) was refused at the first smoke run ('no "
                    "falsifier found': cells that go both ways have no falsifier among the "
                    "order's candidates), so it had no status; the smoke run's means had been "
                    "seen (B wins below 1.2, LAP at 1.2-1.4) when the range over the paper's "
                    "interval alone and its 'instead' rule were written",
                ),
            ),
        ),
        Claim(
            "F3-B-sf",
            "San Francisco, variant B only (BA's IBU started at the true π, an initialisation artefact: "
            "F3-B-drift): BA beats LAP at every β < 1, LAP beats BA at every β > 1.4, so that the "
            "crossover (the β where neither wins by 10 %) lies in [1.0, 1.4]",
            source="extension",
            kind="range",
            upper=0.9,
            one_sided=True,
            domain=(0, None),
            effect=0.05,
            where="Sec. 3.2 ('β ∈ (0, 1)'), Fig. 3 protocol with IBU started at the true π (not the paper's "
            "stated protocol)",
            note=b_note + " Cells: B / LAP at β < 1, then LAP / B at β > 1.4; β = 1.0, 1.2 and 1.4 are the "
            "crossover's window, not graded. A row about an artefact: it says where the only "
            "crossover we found lies, not that the paper's protocol gives one.",
            changes=(
                CriterionChange(
                    _A,
                    _A_DATE,
                    "book",
                    {"kind": "holds", "rule": "all(win_B < win_LAP) and all(beyond_LAP < beyond_B)"},
                    "the third edition graded β < 1 and β ≥ 1.4 and skipped 1.0-1.2, where the two "
                    "are within noise; rewritten with the window [1.0, 1.4] after the audit of "
                    "the third edition had shown variant B's first LAP win at 1.2-1.4",
                ),
                _stats_change(
                    {"kind": "holds", "rule": "all(win_B < win_LAP) and 1.0 <= cross_B <= 1.4"},
                    "means compared without their noise; the crossover is now the set of β left undecided",
                ),
                CriterionChange(
                    _B4,
                    _B4_DATE,
                    "smoke",
                    {"kind": "order", "relation": "winner < loser", "rtol": 0.1},
                    "8353c3e's order over the concatenated winner/loser means (B / LAP below 1, "
                    "LAP / B above 1.4) became a range on per-β Fieller ratios (at most 0.9, "
                    "simultaneous) after the first smoke run, whose means had been seen, had "
                    "refused F3-B-paris's order as having no falsifier; same cells, same 10 %",
                ),
            ),
        ),
        Claim(
            "P4",
            "The ordering BA < LAP under more IBU iterations: 10, 100, 1,000 and 10,000 (Paris β = 0.2, "
            "0.6, 1; San Francisco β = 0.2; every cell jointly)",
            source="paper",
            paper=Printed("BA better than LAP at high privacy", "Sec. 3.2"),
            kind="order",
            relation="BA < LAP",
            rtol=0.1,
            expect="diverges",
            instead="all(LAP < BA)",
            note=f"{lower}; Welch's intervals simultaneous over the 16 cells. LAP beats BA at every budget: more "
            "IBU iterations do not rescue the stated protocol.",
            scales=_BOOK,
            changes=(
                _stats_change(
                    {
                        "kind": "order",
                        "relation": "BA < LAP",
                        "atol": 0.0,
                        "rtol": 0.0,
                        "expect": "diverges",
                        "instead": "all(LAP < BA)",
                    },
                    "means compared without their noise and with no tie",
                ),
            ),
        ),
        Claim(
            "F3-B-drift",
            "Variant B's advantage is an artefact of its start: its EMD grows with the IBU "
            "iterations (every step 10 → 100 → 1,000 → 10,000 above 0, Paris β = 0.6)",
            source="extension",
            kind="range",
            lower=0.0,
            one_sided=True,
            effect=0.01,
            where="Fig. 3 protocol, more IBU iterations",
            note="Mean of the per-simulation steps (the same reports at every budget), the three jointly.",
            scales=_BOOK,
            changes=(
                _stats_change(
                    {"kind": "holds", "rule": "min(steps) > 0 and abs(final_gap) <= 3 * final_se"},
                    "the steps were compared without their noise, and the end was a 'not "
                    "different' test (within 3 standard errors), not an equivalence; the end is "
                    "now F3-B-drift-end",
                ),
            ),
        ),
        Claim(
            "F3-B-drift-end",
            "… and after 10⁴ iterations variant B ends where the uniform start ends (mean EMD "
            "of B minus that of BA from uniform within ±0.02 grid units, Paris β = 0.6)",
            source="extension",
            kind="close",
            reference=0.0,
            atol=0.02,
            where="Fig. 3 protocol, 10⁴ IBU iterations",
            note="Mean of the paired differences (same reports); 0.02 grid units is a tenth of the EMD there.",
            scales=_BOOK,
        ),
    ]
    return out


def _theory_claims():
    return [
        Claim(
            "T-G1",
            "BA's marginals equal the iterates of IBU with BA's kernel as channel (Paris, 50 steps, "
            "β ∈ {0.2, 1, 3}; largest gap)",
            source="paper",
            paper=Printed("BA's update of c is an IBU step", "Sec. 4, Eq. (5)"),
            kind="holds",
            rule="gap < 1e-13",
        ),
        Claim(
            "T-G2",
            "With a row-normalised kernel (a proper channel) the identity needs constant column sums: "
            "exact on a cycle, not on the bounded grid",
            source="derived",
            kind="holds",
            rule="cycle_gap < 1e-13 and grid_gap > 1e-4",
            where="Sec. 4 wording ('the exponential mechanism')",
        ),
        Claim(
            "T-H2",
            "$K = e^{-\\beta D}$ is strictly positive definite on both grids (β = 0.05 … 5; smallest eigenvalue)",
            source="paper",
            paper=Printed("K positive definite", "Thm 5.1, proof"),
            kind="holds",
            rule="min_eig > 0",
        ),
        Claim(
            "T-H-rank",
            "Every BA channel PRIVIC uses is invertible in floating point: condition numbers of all "
            "cycle channels (both cities, β ∈ {0.5, 1}) below 1e10",
            source="paper",
            paper=Printed("every BA iterate is invertible", "Thm 5.1"),
            kind="holds",
            rule="max_cond <= 1e10",
            note="1e10 is far below 1/(m ε_mach) ≈ 1e13, where a numerical rank stops meaning anything.",
        ),
        Claim(
            "T-H-cond",
            "Thm 5.1 holds only in exact arithmetic at large β: BA(π, 5, 10 it.) of Fig. 3 has a "
            "condition number above 1e12 in both cities",
            source="extension",
            kind="holds",
            rule="min_cond > 1e12",
            where="Fig. 3 channels at β = 5",
        ),
        Claim(
            "T-H-proof",
            "The proof's step 'f(x) = √x … is completely monotone' (a completely monotone f has f′ ≤ 0)",
            source="paper",
            paper=Printed("√x completely monotone", "Appendix A, proof of Thm 5.1"),
            kind="holds",
            rule="derivative <= 0",
            expect="diverges",
            instead="derivative > 0",
            note="√x is increasing (f′(1) = 1/2): it is a Bernstein function, not a completely monotone one. The "
            "conclusion stands (T-H-repair).",
        ),
        Claim(
            "T-H-repair",
            "Repair: $e^{-\\beta\\sqrt r} = \\int_0^\\infty e^{-rt}\\mu_\\beta(dt)$ with the "
            "positive Lévy density, so K is a positive mixture of Gaussian kernels (largest "
            "quadrature error, β ∈ {0.2, 1, 5}, r ∈ [0.01, 100])",
            source="derived",
            kind="close",
            reference=0.0,
            atol=1e-10,
            where="Bernstein's theorem; Schoenberg (1938)",
        ),
        Claim(
            "T-K1",
            "Example 5.1: 'all → b' meets the QoS bound 2/3 with rank 1, and IBU never moves",
            source="paper",
            paper=Printed("θ_{r+1} = θ_r", "Sec. 5, Example 5.1"),
            kind="holds",
            rule="abs(avgd - 2 / 3) < 1e-12 and rank == 1 and move <= 1e-15",
        ),
        Claim(
            "T-K2",
            "At a strictly feasible budget (AvgD = 0.6, β solved by root finding) converged BA is "
            "invertible and IBU from two starts agrees",
            source="paper",
            paper=Printed("invertible BA, unique MLE", "Sec. 5, Example 5.1 and Thm 5.1"),
            kind="holds",
            rule="abs(avgd - 0.6) <= 1e-9 and sigma_min > 1e-3 and two_starts < 1e-6",
        ),
        Claim(
            "T-K3",
            "At the boundary D = D_max = 2/3 (β = 0.3) converged BA degenerates to 'all → b' (second singular value)",
            source="derived",
            kind="holds",
            rule="sigma2 < 1e-9",
            where="Example 5.1: the optimum at the boundary",
        ),
    ]


def _third_edition_tolerance(paper_rounds, s_row: float) -> float:
    """The book-scale tolerance of a table row up to e054f53: 3.5 sqrt(max(s_p, s)^2/5 + s^2/5)."""
    sp = float(np.std(np.asarray(paper_rounds, dtype=float), ddof=1))
    return round(3.5 * math.sqrt(max(sp, float(s_row)) ** 2 / 5 + float(s_row) ** 2 / 5), 6)


def _table_claims():
    out = []
    row_note = (
        "Welch's interval of our mean minus the mean of the paper's five printed rounds (both samples' noise; "
        "shown shifted by the printed mean) within ± the row's margin, max(0.02, 10 % of the printed mean). "
        "An undecided row needs more of the paper's rounds: 'runs to decide' scales both samples, but the "
        "paper's five are fixed, and with four degrees of freedom on its side more of ours may not help."
    )
    for c, n in _CITY.items():
        P = PAPER_TABLES[c]
        for b in (1.0, 0.5):
            for row in range(2, P[b].shape[0] + 1):
                mean = round(float(P[b][row - 1].mean()), 6)
                old = _third_edition_tolerance(P[b][row - 1], CALIBRATION_ROW_SD[(c, b)][row - 2])
                out.append(
                    Claim(
                        f"T{_TABLE[c]}-{b:g}-{row}",
                        f"Table {_TABLE[c]} ({n}), β = {b:g}, row {row}: mean EMD(π, θ)",
                        source="paper",
                        paper=Printed(
                            mean, f"Appendix B, Table {_TABLE[c]}, row {row} (mean of the five printed rounds)"
                        ),
                        kind="close",
                        atol=table_margin(mean),
                        domain=(0, None),
                        note=row_note,
                        changes=(
                            _stats_change(
                                {"kind": "close", "target": mean, "atol": old, "rtol": 0.0},
                                "a 'not different' test (our mean within 3.5 combined standard errors of "
                                "the paper's), which passes when the rounds cannot tell; now an "
                                "equivalence within a stated margin",
                            ),
                        ),
                    )
                )
        out.append(
            Claim(
                f"T{_TABLE[c]}-order",
                f"Table {_TABLE[c]} ({n}): β = 1 below β = 0.5 at every data row",
                source="paper",
                paper=Printed("β = 1 below β = 0.5", f"Appendix B, Table {_TABLE[c]}"),
                kind="order",
                relation="beta1 < beta05",
                rtol=0.1,
                note="Lower by more than 10 % of the β = 0.5 mean; Welch's intervals (independent rounds), "
                "every row jointly.",
                changes=(
                    _stats_change(
                        {"kind": "order", "relation": "beta1 < beta05", "atol": 0.0, "rtol": 0.0},
                        "means compared without their noise",
                    ),
                ),
            )
        )
    for b in (1.0, 0.5):
        out.append(
            Claim(
                f"TIII-trend-{b:g}",
                f"Table III (Paris), β = {b:g}: the EMD 'decreases with the number of "
                f"iterations and finally converges' (no step of rows 2 → 15 rises by "
                f"more than {TREND_TIE[b]} grid units)",
                source="paper",
                paper=Printed("decreasing, then converges", "Sec. 6, Fig. 8"),
                kind="range",
                upper=TREND_TIE[b],
                one_sided=True,
                note="Mean of the per-round steps between consecutive rows (a round's rows are one "
                "trajectory), the 13 steps jointly. The tie is the third edition's noise allowance, about "
                "10 % of the final EMD. The paper's own means rise at rows 13 and 15 (β = 1) and 12 "
                "(β = 0.5).",
                changes=(
                    _stats_change(
                        {"kind": "monotone", "direction": "decreasing", "strict": False, "tol": TREND_TIE[b]},
                        "means compared without their noise",
                    ),
                ),
            )
        )
        out.append(
            Claim(
                f"TIV-trend-{b:g}",
                f"Table IV (San Francisco), β = {b:g}: strictly decreasing rows 1 → 8 (every step below 0)",
                source="paper",
                paper=Printed("decreasing", "Sec. 6, Fig. 9"),
                kind="range",
                upper=0.0,
                one_sided=True,
                effect=0.005,
                note="Mean of the per-round steps, the 7 steps jointly; the drops (≥ 0.013) dwarf the noise of a step.",
                changes=(
                    _stats_change(
                        {"kind": "monotone", "direction": "decreasing", "strict": True, "tol": 0.0},
                        "means compared without their noise",
                    ),
                ),
            )
        )
    out += [
        Claim(
            "T-cal",
            "The between-round sd of every data row of Tables III-IV used in the calibration "
            "(values.CALIBRATION_ROW_SD) is reproduced by 100 fresh rounds per column (ratio fresh / "
            "stored between 0.6 and 1.4, the 42 rows jointly)",
            source="calibration",
            kind="range",
            lower=0.6,
            upper=1.4,
            domain=(0, None),
            scales=("paper",),
            where="our calibration rounds (values.CALIBRATION_ROW_SD)",
            note="Calibration check of the stored sds (T-spread and the text use them). BCa bootstrap of each "
            "row's sd over the fresh rounds, simultaneous over the 42 rows; the stored sd (100 other "
            "rounds, about 7 % relative error) is taken as exact.",
            changes=(
                CriterionChange(
                    _STATS,
                    _STATS_DATE,
                    "paper",
                    {"kind": "holds", "rule": "max(abs(ratio - 1)) <= 0.4"},
                    "ratios compared without their noise (seen: the paper-scale record of the third edition, 1f3fe2e)",
                ),
            ),
        ),
        Claim(
            "T-spread",
            "The paper's round-to-round spread is ours: the ratio of the paper's sd over five printed "
            "rounds to our calibration sd, root mean square over the 42 data rows of Tables III-IV, "
            "within [0.8, 1.25]",
            source="derived",
            kind="range",
            lower=0.8,
            upper=1.25,
            domain=(0, None),
            effect=0.05,
            where="Appendix B, Tables III-IV, against our calibration rounds",
            note="Evidence that our protocol (the whole dataset re-obfuscated every cycle, warm IBU, no ⊕) is the "
            "authors'. The statistic is sqrt(mean over rows of s_p² / s²); BCa bootstrap over the rows "
            "(each row's s_p has 4 degrees of freedom, so the 42 rows resolve about ±11 %). A sd 25 % larger "
            "or 20 % smaller is a material difference of protocol.",
            changes=(
                _stats_change(
                    {"kind": "holds", "rule": "min(ratio) >= 0.73 and max(ratio) <= 1.40"},
                    "four column ratios against the null range of a 5-round pooled sd, a 'not "
                    "different' test; now one estimate against a stated region",
                ),
            ),
        ),
        Claim(
            "A11-combine",
            "The tables are not matched with the ⊕ average of Alg. 1 step (iv): with ⊕, row 15 of "
            "Table III (Paris, β = 1) exceeds the paper's by more than the row's margin (0.02)",
            source="derived",
            kind="range",
            lower=table_margin(float(PAPER_TABLES["paris"][1.0][-1].mean())),
            one_sided=True,
            effect=0.005,
            where="Appendix B, Table III, row 15; Alg. 1 step (iv)",
            note="Welch's interval of the mean of our rounds with ⊕ minus the mean of the paper's five; without ⊕ "
            "the same row is TIII-1-15.",
            changes=(
                _stats_change(
                    {"kind": "order", "relation": "without < with", "atol": 0.0, "rtol": 0.0},
                    "distances compared without their noise",
                ),
            ),
        ),
    ]
    for c, n in _CITY.items():
        out.append(
            Claim(
                f"F10-shape-{c}",
                f"{n}: the final EMD 'starts by sharply decreasing and then eventually "
                "stabilizes' with β: every step over β = 0.1, 0.3, …, 0.9, 1 below 0, and "
                "the slope on [0.1, 0.3] steeper than on [0.9, 1] (all six jointly)",
                source="paper",
                paper=Printed("sharp decrease, then stable", "Sec. 6, Fig. 10"),
                kind="range",
                upper=0.0,
                one_sided=True,
                effect=0.005,
                note="Cells: the five steps of the mean final EMD, then (f(0.9) − f(1)) · 2 − (f(0.1) − "
                "f(0.3)), negative when the first slope (per unit β) is steeper. Rounds of different β "
                "are independent; the contrasts are formed round by round (valid, not variance "
                "reducing) and their means' intervals are simultaneous.",
                changes=(
                    _stats_change(
                        {"kind": "holds", "rule": "max(steps) < 0 and slope_first > slope_last"},
                        "means compared without their noise",
                    ),
                ),
            )
        )
    out.append(
        Claim(
            "E6",
            "Sec. 6: 'the higher the value of β … the worse will be the statistical utility' (final "
            "EMD increasing in β, Paris: every step above 0)",
            source="paper",
            paper=Printed("worse with β", "Sec. 6"),
            kind="range",
            lower=0.0,
            one_sided=True,
            effect=0.005,
            expect="diverges",
            note="A slip for 'better': Fig. 10 itself shows the decrease. The steps of F10-shape-paris.",
            changes=(
                _stats_change(
                    {"kind": "monotone", "direction": "increasing", "strict": False, "tol": 0.0, "expect": "diverges"},
                    "means compared without their noise",
                ),
            ),
        )
    )
    return out


_GAP_NOTE = (
    "The ratio of the candidate's mean log-likelihood gap to the certified MLE (over the rounds) to R, the "
    "95 % quantile of the true π's gap over the same rounds, a likelihood-ratio region calibrated on the "
    "protocol itself (experiments.calibrated_regions; Wilks' χ²(m−1)/2 assumes independent reports and an "
    "interior maximum, and in the tables' protocol the same users report in every cycle: a "
    "pseudo-likelihood). Paired BCa bootstrap over the rounds, R re-estimated in every resample, the "
    "certificates' slack added on the unfavourable side (experiments.gap_ratio). Inside the region: ratio "
    "at most 1; 10 % beyond it is material."
)
_SF_NOTE = (
    " San Francisco's 20 rounds under-cover (the bootstrap interval of a 95 % quantile covers about 82 % at "
    "20 rounds in our simulations); its ratios are above 10, far beyond that error."
)
_WAS_GAP = {"kind": "holds", "rule": "mean(gap_hi) <= region"}
SCALES_ALL = ("smoke", "book", "paper")


def _gap_cell(i, text, paper, protocol, c, b, candidate, expect, note="", changes=()):
    return Claim(
        i,
        text,
        source="paper",
        paper=paper,
        kind="range",
        upper=1.0,
        one_sided=True,
        domain=(0, None),
        effect=0.1,
        expect=expect,
        where=f"{protocol}; candidate: {candidate}",
        note=" ".join(x for x in (note, _GAP_NOTE, _SF_NOTE if c == "sf" else "") if x).strip(),
        scales=SCALES_ALL if c == "paris" else _BOOK,
        changes=(
            *changes,
            _stats_change(
                {
                    **_WAS_GAP,
                    **({"expect": "diverges", "instead": "mean(gap_lo) > region"} if expect == "diverges" else {}),
                },
                "a mean over rounds against a quantile estimated from the same rounds, neither with its noise",
            ),
        ),
    )


def _ibu_conv_claim(c, n, it):
    """S6-IBU-conv: Paris against the calibrated region per cycle (book scale: 20 rounds), San Francisco
    (3 rounds, too few to calibrate) against Wilks' region, which is wider than the calibrated ones."""
    text = (
        f"{n}, β = 1: '{it[1]} iterations of IBU until it converged to the MLE', in every one of the {it[2]} "
        "cycles: each cycle's IBU estimate lies within the 95 % likelihood-ratio region of the certified MLE "
        "of that cycle's reports"
    )
    paper = Printed(f"{it[1]} iterations of IBU until it converged to the MLE", "Sec. 6, paragraph after Table II")
    wilks = {"kind": "holds", "rule": "max(gap) <= region"}
    if c == "sf":
        return Claim(
            f"S6-IBU-conv-{c}",
            text + f" (mean gap at most Wilks' {REGION[c]:.1f} nats, every cycle jointly)",
            source="paper",
            paper=paper,
            kind="range",
            upper=round(REGION[c], 4),
            one_sided=True,
            domain=(0, None),
            effect=round(0.1 * REGION[c], 4),
            expect="diverges",
            instead=f"ours_low[0] > {REGION[c]:.4f}",
            note="Per cycle, the mean over rounds of L(MLE of the cycle) − L(μ_t), total nats, simultaneous "
            "over the cycles. Three rounds cannot calibrate a 95 % quantile; Wilks' χ²(m−1)/2 is "
            "wider than every calibrated region of this chapter (55-86 % of it), so a mean beyond it "
            "is beyond a calibrated region too. The first cycle starts IBU at uniform, the others at "
            "the previous estimate.",
            changes=(
                _stats_change(
                    {**wilks, "expect": "diverges", "instead": "gap[0] > region"}, "means compared without their noise"
                ),
            ),
        )
    return Claim(
        f"S6-IBU-conv-{c}",
        text + " (per cycle, the mean IBU gap over the 95 % quantile of the true π's "
        "gap in the same cycle at most 1, every cycle jointly)",
        source="paper",
        paper=paper,
        kind="range",
        upper=1.0,
        one_sided=True,
        domain=(0, None),
        effect=0.1,
        scales=_BOOK,
        note="Per cycle, L(MLE of the cycle) − L(μ_t) in total nats, its mean over rounds divided by the "
        "95 % quantile of L(MLE of the cycle) − L(π) over the same rounds (gap_ratio's statistic), "
        "paired BCa bootstrap over the rounds, simultaneous over the cycles; 10 % beyond the region "
        "is material. With 20 rounds the bootstrap interval of a 95 % quantile under-covers (about "
        "0.82-0.92 in our simulations at 20-60 rounds). The first cycle starts IBU at uniform, the "
        "others at the previous estimate.",
        changes=(
            CriterionChange(
                _SMOKE,
                _SMOKE_DATE,
                "smoke",
                {**wilks, "expect": "diverges", "instead": "gap[0] > region"},
                "both cities were declared 'diverges' before any run; the smoke run (one "
                "round) put every Paris cycle inside Wilks' region (largest gap 73 nats "
                "against 97.4), so Paris's expectation became 'pass', rule unchanged",
            ),
            _stats_change(wilks, "means compared without their noise"),
            CriterionChange(
                _R5,
                _R5_DATE,
                "book",
                {"kind": "range", "upper": round(REGION[c], 4), "one_sided": True},
                "8353c3e graded the mean gaps against Wilks' 97.4 nats, a region the "
                "chapter rejects elsewhere (its calibrated regions are 55-86 % of "
                "Wilks'); b290ed4's first cycle (65 nats, interval 61.4-69.8) was about "
                "1.06 times the re-audit's calibrated quantile of that cycle (61.1 "
                "nats, 40 draws); now graded per cycle against the cycle's own "
                "calibrated region (" + _SEEN_R5 + ")",
            ),
        ),
    )


def _mle_claims():
    r6 = Printed("the combination is the MLE ('also what we have witnessed in the experiments')", "Sec. 5, Remark 6")
    s6 = Printed("converges to the MLE", "Sec. 6, paragraph after Table II")
    util = Printed("step 3 (GIBU) is not really necessary", "Sec. 5, Remark 6")
    out = []
    alg1, a11 = "Alg. 1 as written (fresh users each cycle, ⊕)", "the tables' protocol (the same users every cycle)"
    # Remark 6, every protocol x city x beta.  Expectations fixed in a9b1af0 from the third edition's record
    # (combination gaps 153-177 / 2,900-3,250 nats under Alg. 1, 75 / 93 and 2,035 / 2,200 under the tables'
    # protocol; truth gaps 45-70 / 100-150).
    expect_r6 = {("ALG1", c, b): "diverges" for c in _CITY for b in (1.0, 0.5)}
    expect_r6 |= {
        ("A11", "paris", 1.0): "pass",
        ("A11", "paris", 0.5): "diverges",
        ("A11", "sf", 1.0): "diverges",
        ("A11", "sf", 0.5): "diverges",
    }
    for (p, c, b), e in expect_r6.items():
        i = f"R6-{c}-{b:g}" if p == "ALG1" else f"R6-A11-{c}-{b:g}"
        out.append(
            _gap_cell(
                i,
                f"{_CITY[c]}, β = {b:g}, {alg1 if p == 'ALG1' else a11}: the combination of the "
                "per-cycle estimates is the MLE (its mean log-likelihood gap to the certified MLE "
                "within the calibrated 95 % likelihood-ratio region)",
                r6,
                p,
                c,
                b,
                "the sample-weighted combination of the μ_t",
                e,
                note="The one setting where Remark 6 can hold (the closest call: third edition 75.6 "
                "against 78.3 nats); 400 rounds."
                if (p, c, b) == ("A11", "paris", 1.0)
                else "",
            )
        )
    # 'Step 3 is not really necessary', in EMD to the truth, every cell.
    ratio_expect = {
        ("ALG1", "paris", 1.0): "diverges",
        ("ALG1", "paris", 0.5): "pass",
        ("A11", "paris", 1.0): "pass",
        ("A11", "paris", 0.5): "pass",
    }
    for p in ("ALG1", "A11"):
        for c in _CITY:
            for b in (1.0, 0.5):
                e = ratio_expect.get((p, c, b), "diverges")
                third = {"kind": "order", "relation": "MLE < combination", "atol": 0.0, "rtol": 0.0}
                prior = (
                    (
                        CriterionChange(
                            _A,
                            _A_DATE,
                            "book",
                            third,
                            "the third edition graded Alg. 1 in San Francisco only, both β in one row "
                            "(R6-util-sf), the MLE lower in every round; rewritten per cell with the "
                            "90 % threshold knowing the record's ratios (0.22-0.49 here)",
                        ),
                    )
                    if (p, c) == ("ALG1", "sf")
                    else ()
                )
                out.append(
                    Claim(
                        f"R6-util-{c}-{b:g}" if p == "ALG1" else f"R6-util-A11-{c}-{b:g}",
                        f"{_CITY[c]}, β = {b:g}, {alg1 if p == 'ALG1' else a11}: step 3 (GIBU) 'is not really "
                        "necessary': "
                        "the certified MLE is not materially closer to π than the combination (ratio of mean EMDs to "
                        "π, "
                        "MLE / combination, at least 0.9)",
                        source="paper",
                        paper=util,
                        kind="range",
                        lower=0.9,
                        one_sided=True,
                        domain=(0, None),
                        effect=0.05,
                        expect=e,
                        where=p + "; EMD to the true π, paired rounds",
                        scales=SCALES_ALL if c == "paris" else _BOOK,
                        note=(
                            "GIBU's MLE is materially closer to π than the combination. "
                            if e == "diverges"
                            else "Where the MLE is farther from π than the combination, EM run to its maximum over-fits "
                            "in EMD. "
                        )
                        + "A gain below 10 % of the EMD is called immaterial; Fieller's interval of "
                        "the ratio of means over paired rounds.",
                        changes=(
                            *prior,
                            _stats_change(
                                {
                                    "kind": "holds",
                                    "rule": "mean(MLE) >= 0.9 * mean(combination)",
                                    **(
                                        {"expect": "diverges", "instead": "mean(MLE) < 0.9 * mean(combination)"}
                                        if e == "diverges"
                                        else {}
                                    ),
                                },
                                "means compared without their noise; the 0.9 threshold was itself written in a9b1af0 "
                                "knowing the third edition's ratios (0.65, 1.00, 0.95, 1.28 in Paris)",
                            ),
                        ),
                    )
                )
    # 'PRIVIC converges to the MLE': theta_N of the tables' protocol, every city x beta.
    s6_was = {
        ("paris", 1.0): (
            {"kind": "close", "target": round(REGION["paris"], 4), "atol": 0.0, "rtol": 0.0, "z": 3.5},
            "the third edition graded θ_N's mean gap as 'borderline': within 3.5 standard errors of "
            "Wilks' 97.4 nats, so any mean in [53, 142] passed (an undecided case counted as a pass); "
            "a9b1af0 replaced Wilks' region by the calibrated one and expected 'diverges' after that "
            "record (mean 99.6) and the audit's rounds (131, 145, 98) were known",
        ),
        ("paris", 0.5): (
            {"kind": "holds", "rule": "mean(gap_hi) <= region"},
            "the third edition graded θ_N against Wilks' 97.4 nats and passed; a9b1af0 replaced Wilks' "
            "region by the calibrated one and expected 'diverges' after that record was known",
        ),
    }
    for c in _CITY:
        for b in (1.0, 0.5):
            chg = ()
            if (c, b) in s6_was:
                was, why = s6_was[(c, b)]
                chg = (CriterionChange(_A, _A_DATE, "book", was, why),)
            out.append(
                _gap_cell(
                    f"S6-MLE-{c}-{b:g}",
                    f"{_CITY[c]}, β = {b:g}: 'PRIVIC … converges to the MLE': θ_N of the tables' "
                    "protocol has its mean log-likelihood gap to the certified MLE of the same "
                    "reports within the calibrated 95 % region",
                    s6,
                    "A11",
                    c,
                    b,
                    "θ_N",
                    "diverges",
                    changes=chg,
                )
            )
    out += [
        Claim(
            "T-I-rank",
            "𝒢 = (Ĉ(1) … Ĉ(N)) has full row rank m (right-invertible) for every PRIVIC run (both "
            "cities, β ∈ {0.5, 1}; numerical rank)",
            source="paper",
            paper=Printed("𝒢𝒢′ = I_m", "Appendix A, proof of Thm 5.2"),
            kind="holds",
            rule="min_rank_deficit == 0 and min_ratio > 1e-12",
        ),
        Claim(
            "T-I2",
            "GIBU from two full-support starts reaches the same maximum (certified to 1e-6 nats per "
            "report; log-likelihoods within the certificates, Paris β = 1)",
            source="paper",
            paper=Printed("unique MLE", "Thm 5.2"),
            kind="holds",
            rule="max(gaps) <= 1e-6 and abs(l1 - l2) <= sum(gaps)",
        ),
        Claim(
            "T-I2b",
            "The two plain-GIBU runs approach each other as iterations grow (EMD between them at three "
            "budgets: 100, 1,000 and 10,000 iterations at book and paper scale, 30, 300, 3,000 at smoke "
            "scale)",
            source="derived",
            kind="monotone",
            direction="decreasing",
            strict=True,
            where="Thm 5.2 (unique limit)",
        ),
        Claim(
            "T-I3",
            "GIBU's log-likelihood never decreases (smallest step)",
            source="invariant",
            kind="holds",
            rule="min_step >= -1e-12",
            where="EM monotonicity (Dempster, Laird and Rubin 1977)",
        ),
        Claim(
            "T-L",
            "Any full-support start 'would suffice for the process to eventually converge': after three "
            "times the paper's cycles (Paris, β = 1, tables' protocol) PRIVIC started at Dirichlet(1) draws "
            "ends as close to π as started at uniform (difference of mean EMDs within ±0.03 grid units)",
            source="paper",
            paper=Printed("any θ0 with full support", "Remark 5"),
            kind="range",
            lower=-0.03,
            upper=0.03,
            note="0.03 grid units (about 16 m, a fifth of the final EMD) is the largest difference we call "
            "immaterial; Welch's interval of the difference (independent rounds). The third edition only "
            "checked that the EMD stays finite and decreases, which any start satisfies.",
            changes=(
                _stats_change(
                    {"kind": "holds", "rule": "abs(diff) + 2 * se <= 0.03"},
                    "the same equivalence by hand (two standard errors)",
                ),
            ),
        ),
        Claim(
            "T-N",
            "A user reporting in k = 2 cycles through 2β-geo-ind BA channels is 2kβ-geo-ind (β = 0.5, "
            "tight level of the pair channel)",
            source="paper",
            paper=Printed("ε ≤ 2kβ", "Sec. 5 (sequential composition)"),
            kind="range",
            upper=2 + 1e-9,
            one_sided=True,
        ),
        Claim(
            "T2-table",
            "Table II: BA and IBU cost O(n²) per cycle. Read with n = cells, the printed run times "
            "per iteration grow from Paris to San Francisco like m² ((384/165)² = 5.4) within a "
            "factor 2",
            source="paper",
            paper=Printed("O(n²)", "Sec. 6, Table II"),
            kind="holds",
            rule="0.5 <= ba_ratio <= 2 and 0.5 <= ibu_ratio <= 2",
            expect="diverges",
            instead="0.5 <= ba_ratio <= 2 and ibu_ratio > 10",
            note="ba_ratio, ibu_ratio: (time per iteration in San Francisco / in Paris) / 5.4, from the printed "
            "times per cycle (3.256 s, 16.805 s for 8 and 5 BA iterations; 1.30 s, 128.192 s for 10 and 5 "
            "IBU iterations). BA's times fit m²; IBU's grow 197-fold per iteration, which fits n = users "
            "(12.2² = 149) rather than cells: the table's n is not defined.",
            changes=(
                CriterionChange(
                    _A,
                    _A_DATE,
                    "book",
                    {
                        "kind": "holds",
                        "rule": "0.5 <= ba_ratio <= 2 and 0.5 <= ibu_ratio <= 2",
                        "expect": "diverges",
                        "instead": "0.5 <= ba_ratio <= 2 and ibu_ratio > 10",
                    },
                    _NEW_ROW.format("that T2 graded our code's slopes, not the printed times"),
                ),
            ),
        ),
        Claim(
            "T2",
            "Our vectorised BA and IBU cost O(m²) per iteration (log-log slope of the time per iteration "
            "against the number of cells, m = 144 … 1,600; medians of 5 timings)",
            source="invariant",
            kind="holds",
            rule="1.5 <= slope_ba <= 2.5 and 1.5 <= slope_ibu <= 2.5",
            volatile=True,
            where="Sec. 6, Table II ('complexity O(n²)'), for our code",
            note="A property of our implementation, not of the authors' loops (T2-table grades the paper's "
            "numbers). Machine-dependent: its numbers are in the timings file and in the chapter's Table II "
            "comparison.",
            scales=_BOOK,
        ),
    ]
    for c, n in _CITY.items():
        it = {"paris": (8, 10, 14), "sf": (5, 5, 7)}[c]
        steps = 2 * it[2]
        tie = 0.005
        out += [
            Claim(
                f"S6-true-{c}",
                f"{n}, β = 1: 'PRIVIC converges to the true distribution': run three times the "
                f"paper's {it[2]} cycles, θ_t ends as close to π as the certified pooled MLE of the "
                f"same {3 * it[2]} cycles' reports (ratio of mean EMDs to π, θ_3N / MLE_3N, at "
                "most 1.1)",
                source="paper",
                paper=Printed(
                    "PRIVIC converges to the true distribution", "Sec. 1 (end of the introduction and contribution 5)"
                ),
                kind="range",
                upper=1.1,
                one_sided=True,
                domain=(0, None),
                effect=0.05,
                expect="diverges",
                note="Fieller's interval of the ratio of mean EMDs over paired rounds (one trajectory each). "
                "The pooled MLE is the best the reports allow (Thm 5.2: GIBU over all cycles converges to "
                "it) and keeps approaching π (S6-true-mle); θ_t, the estimate the experiments report, is IBU "
                "on one cycle's reports warm started at the previous estimate. 10 % farther is material. "
                "Whether θ_t still moves is S6-settled.",
                changes=(
                    CriterionChange(
                        _R5,
                        _R5_DATE,
                        "book",
                        {
                            "kind": "range",
                            "upper": 0.8,
                            "one_sided": True,
                            **({"expect": "diverges"} if c == "paris" else {}),
                        },
                        "θ_t after 3N cycles at most 80 % of its EMD after N passed in San "
                        "Francisco on a curve still falling (0.186 → 0.101 over 3 rounds), "
                        "which says it approaches, not that it arrives; now graded against "
                        "the pooled MLE of the same reports, after b290ed4's record (θ_3N at "
                        "2.6 times the MLE's EMD in San Francisco) had been seen ("
                        + _SEEN_R5
                        + "); the old statistic is S6-settled",
                    ),
                    *(
                        (
                            CriterionChange(
                                _SMOKE,
                                _SMOKE_DATE,
                                "smoke",
                                {
                                    "kind": "holds",
                                    "rule": "emd_end <= 0.8 * emd_N",
                                    "expect": "diverges",
                                    "instead": "emd_end > 0.8 * emd_N and mle_end < 0.8 * mle_N",
                                },
                                "both cities were declared 'diverges' (θ_t stalls) before any run; the "
                                "smoke run (one round) showed θ_t still falling in San Francisco "
                                "(0.187 → 0.103: 7 cycles had not let it settle), so San Francisco's "
                                "expectation became 'pass', rule unchanged",
                            ),
                        )
                        if c == "sf"
                        else ()
                    ),
                    _stats_change(
                        {
                            "kind": "holds",
                            "rule": "emd_end <= 0.8 * emd_N",
                            **(
                                {"expect": "diverges", "instead": "emd_end > 0.8 * emd_N and mle_end < 0.8 * mle_N"}
                                if c == "paris"
                                else {}
                            ),
                        },
                        "a ratio of means without its noise; the MLE part of the 'instead' rule is now S6-true-mle",
                    ),
                ),
            ),
            Claim(
                f"S6-true-mle-{c}",
                f"{n}, β = 1: the pooled MLE over all cycles (Alg. 1 step 3) keeps approaching "
                f"π: its EMD after {3 * it[2]} cycles at most 80 % of that after {it[2]}",
                source="derived",
                kind="range",
                upper=0.8,
                one_sided=True,
                domain=(0, None),
                effect=0.05,
                where="Thm 5.2 and Sec. 1 ('converges to the true distribution'), for step 3",
                note="In the tables' protocol the same users' reports accumulate, so the pooled MLE's error should "
                "fall like 1/√cycles (to 58 % after three times the cycles). Fieller's interval over paired "
                "rounds.",
            ),
            Claim(
                f"S6-settled-{c}",
                f"{n}, β = 1: the paper 'ran … until it empirically converged' ({it[2]} "
                f"cycles): θ_t does not fall materially after them (mean EMD to π after "
                f"{3 * it[2]} cycles at least 90 % of that after {it[2]})",
                source="paper",
                paper=Printed("until it empirically converged", "Sec. 6, the experiments' set-up"),
                kind="range",
                lower=0.9,
                one_sided=True,
                domain=(0, None),
                effect=0.05,
                **({"expect": "diverges"} if c == "sf" else {}),
                note="Fieller's interval of the ratio of mean EMDs over paired rounds; a further fall by 10 % is "
                "material.",
                changes=(
                    CriterionChange(
                        _R5,
                        _R5_DATE,
                        "book",
                        {
                            "kind": "range",
                            "lower": 0.9,
                            "one_sided": True,
                            **({"expect": "diverges"} if c == "sf" else {}),
                        },
                        _NEW_ROW5.format(
                            "θ_t falling by 8 % in Paris and 46 % in San Francisco from N to 3N cycles (b290ed4)"
                        ),
                    ),
                ),
            ),
            Claim(
                f"F10-limit-{c}",
                f"{n}, β = 1 (Fig. 10's least noisy β): 'we will end up estimating the unique "
                "MLE … until it converges to the true distribution': after the paper's "
                f"{it[2]} cycles θ_N is as close to π as the certified pooled MLE of the same "
                "reports (ratio of mean EMDs θ_N / MLE_N at most 1.1)",
                source="paper",
                paper=Printed("we will end up estimating the unique MLE", "Sec. 6, discussion of Fig. 10"),
                kind="range",
                upper=1.1,
                one_sided=True,
                domain=(0, None),
                effect=0.05,
                **({"expect": "diverges"} if c == "sf" else {}),
                note="Fieller's interval over paired rounds (the long runs' first N cycles are the paper's "
                "protocol). With finitely many users the MLE itself is not π: the final EMD levels off, "
                "it does not reach 0 (F10 and Fig. 10).",
                changes=(
                    CriterionChange(
                        _R5,
                        _R5_DATE,
                        "book",
                        {
                            "kind": "range",
                            "upper": 1.1,
                            "one_sided": True,
                            **({"expect": "diverges"} if c == "sf" else {}),
                        },
                        _NEW_ROW5.format("θ_N at EMD 0.136 / 0.186 and the MLE at 0.132 / 0.061 (b290ed4)"),
                    ),
                ),
            ),
            Claim(
                f"S6-privacy-{c}",
                f"{n}, β = 1 and 0.5: the first half of 'the overall privacy protection and its "
                "trade-off with QoS … will also improve' with every cycle: the mutual "
                "information I(X; Y) of each cycle's mechanism under the true π never rises by "
                f"more than {tie} nats from one cycle to the next (all steps jointly)",
                source="paper",
                paper=Printed("privacy protection improves every cycle", "Sec. 6, Discussion"),
                kind="range",
                upper=[tie] * steps,
                one_sided=True,
                effect=tie,
                **({"expect": "diverges", "instead": f"max(ours_low) > {tie}"} if c == "paris" else {}),
                note=f"Cells: the {it[2]} steps at β = 1, then the {it[2]} at β = 0.5; means of the per-round "
                "differences, simultaneous; the tie of S6-tradeoff. Lower I(X; Y) is more privacy.",
                changes=(
                    CriterionChange(
                        _R5,
                        _R5_DATE,
                        "book",
                        {
                            "kind": "range",
                            "upper": tie,
                            "one_sided": True,
                            **({"expect": "diverges", "instead": f"max(ours_low) > {tie}"} if c == "paris" else {}),
                        },
                        _NEW_ROW5.format(
                            "I(X; Y) rising in Paris (1.402 at row 2 to 1.432 at "
                            "row 15, steps +0.005 to +0.009) and in San Francisco "
                            "falling to row 4, then rising 1.4264 → 1.4309 "
                            "(b290ed4, β = 1)"
                        ),
                    ),
                ),
            ),
            Claim(
                f"S6-tradeoff-{c}",
                f"{n}, β = 1 and 0.5: 'the overall privacy protection and its trade-off with "
                "QoS … will also improve' with every cycle: the BA objective I + β AvgD of each "
                f"cycle's mechanism under the true π never rises by more than {tie} nats from "
                "one cycle to the next, and ends below where it starts (all jointly)",
                source="paper",
                paper=Printed("privacy and its trade-off with QoS improve every cycle", "Sec. 6, Discussion"),
                kind="range",
                upper=[tie] * steps + [0.0, 0.0],
                one_sided=True,
                effect=tie,
                note=f"Cells: the {it[2]} steps at β = 1, the {it[2]} at β = 0.5, then last − first at β = 1 and "
                "0.5; means of the per-round differences (a round's cycles are one trajectory), simultaneous. "
                f"The paper gives no measure; BA's own objective, evaluated on the population the mechanism "
                f"serves, is its trade-off (Def. 2.9). {tie} nats is a sixth of a percent of the objective "
                "(about 3) and 2.5 % of the first cycle's gain.",
                changes=(
                    _stats_change(
                        {"kind": "holds", "rule": "all(steps <= 3.5 * step_se) and all(last < first)"},
                        "a 'not significantly rising' test, which passes when the rounds cannot "
                        "tell; now every step against a stated tie",
                    ),
                ),
            ),
            Claim(
                f"S6-BA-conv-{c}",
                f"{n}, β = 1: 'each cycle comprised {it[0]} iterations of BA until it "
                f"converged': after {it[0]} iterations on π every row of BA's channel is within "
                "total variation 0.05 of the limit's",
                source="paper",
                paper=Printed(f"{it[0]} iterations of BA until it converged", "Sec. 6, paragraph after Table II"),
                kind="holds",
                rule="row_tv <= 0.05",
                expect="diverges",
                instead="support_k > 2 * support_inf",
                note="The limit is BA run to max |ΔC| < 1e-8; 'converged' read as every user's reporting "
                "distribution within 5 % of its limit. Expected from P3 and the BA history figure (the "
                "output support still spans the map after 10 iterations).",
            ),
            _ibu_conv_claim(c, n, it),
        ]
    out += [
        Claim(
            "S1-MLE-close",
            "'We prove experimentally that the statistical utility of BA is very good, i.e., the "
            "MLE is very close to the true distribution'",
            source="paper",
            paper=Printed("the MLE is very close to the true distribution", "Sec. 1, contributions"),
            kind="none",
            expect="not-evaluated",
            note="'Very close' has no scale in the paper, so no criterion can be fixed for it. The numbers it "
            "would rest on have rows: the certified MLE's EMD to π per setting (R6-util, F10-limit, "
            "S6-true-mle), and Fig. 3, where BA's IBU estimate is farther from π than LAP's at every β "
            "(F3-order).",
        ),
        Claim(
            "T-QoS",
            "Among the mechanisms satisfying Eqs. (3)-(4) with the mass read as the probability to be "
            "reported (every fixpoint of BA's map, one per output support), BA's limit 'offers the best "
            "QoS': no other has a smaller AvgD (10 collinear points and a 3 × 3 grid with random priors, "
            "β = 0.5, 1, 2; all 1,023 and 511 supports)",
            source="paper",
            paper=Printed("the one produced by BA offers the best QoS among these", "Sec. 3.1, after Thm 3.1"),
            kind="holds",
            rule="all(gap >= -1e-6) and max_residual < 1e-6",
            expect="diverges",
            instead="min(gap) < -1e-3 and max_residual < 1e-6",
            note="gap: the smallest AvgD over the fixpoints minus BA's, per (prior, β). Every fixpoint of "
            "c ↦ G(F(c)) minimises BA's convex objective over the channels with outputs in its support, so "
            "running BA from every support enumerates them all (model.elastic_fixpoints); max_residual "
            "says how close to fixpoints the runs are. On the 3 × 3 grid at β = 1 a fixpoint with outputs "
            "on cells (1, 0), (1, 2), (2, 1), (2, 2) (BA's limit uses those and the centre) has AvgD 0.7310 "
            "against BA's 0.7338, and a smaller geo-ind level, at a slightly larger mutual information "
            "(confirmed with 10⁵ iterations, residual 1e-16). BA is the best trade-off I + β·AvgD among "
            "these mechanisms, not the best QoS.",
            changes=(
                CriterionChange(
                    _SMOKE,
                    _SMOKE_DATE,
                    "smoke",
                    {"kind": "holds", "rule": "all(gap >= -1e-6) and max_residual < 1e-6"},
                    "declared expect='pass' before any run; the smoke run found the fixpoint "
                    "above (AvgD 0.7310 < 0.7338); the rule is unchanged, the expectation became "
                    "'diverges' and the 'instead' rule was added after that run",
                ),
            ),
        ),
        Claim(
            "T-G3",
            "Sec. 4 deduces that IBU converges from the convergence of BA through the duality: the "
            "duality transfers to IBU with a proper (row-normalised) exponential channel on the Paris "
            "grid",
            source="paper",
            paper=Printed("also IBU converges (by the duality)", "Sec. 4, after Eq. (5)"),
            kind="holds",
            rule="grid_gap < 1e-10",
            expect="diverges",
            instead="grid_gap > 1e-4 and ibu_gap < 1e-9",
            note="The identity needs the unnormalised kernel (T-G1, T-G2), which is not a channel; IBU on the "
            "proper channel does converge (its certified gap to the maximum falls below 1e-9 per report), "
            "by ElSalamouny and Palamidessi's theorem, not by the duality.",
        ),
    ]
    return out


def _fig11_claims():
    labels = [*PAPER_FIG11_PANELS[0.8][1:], *PAPER_FIG11_PANELS[1.2][1:]]
    return [
        Claim(
            "F11-labels",
            "The panels show 29, 34, 39 % and 10, 15, 20 % adversarial users: the modelled share "
            "of fake reports δ/(1+δ) (the authors' δ = 0.005k) equals the labels to 0.5 point",
            source="paper",
            paper=Printed(labels, "Fig. 11 caption"),
            kind="holds",
            rule="max(abs(share_pct - label)) <= 0.5",
            expect="diverges",
            instead="max(abs(recon_pct - label)) < 0.6 and max(share_pct) < 4",
            note="The modelled fakes are 2.9-3.8 % and 1.0-2.0 % of the reports. The labels are reproduced by "
            "1000δ/(1+δ), ten times the fake share, for which the paper gives no basis; 38.5 prints as 39.",
        ),
        Claim(
            "F11-ii-mono",
            "Case (ii), fakes report A: BA puts 'more and more weight to and around point A' "
            "(P(A→A) and P(block | A) strictly increasing over k = 0 … 8, ε = 0.8 and 1.2)",
            source="paper",
            paper=Printed("more and more weight to and around A", "Sec. 7"),
            kind="holds",
            rule="min(steps) > 0",
        ),
        *[
            Claim(
                f"F11-LAPlike-{e:g}",
                f"'BA and PRIVIC start behaving more like LAP' (Fig. 11{t}, ε = {e:g}): over "
                "the panels at least a quarter of the EMD between BA's row of A and LAP's is "
                "closed (last panel at most 75 % of the first)",
                source="paper",
                paper=Printed("behaving more like LAP", "Sec. 7"),
                kind="holds",
                rule="emd_lap[-1] <= 0.75 * emd_lap[0]",
                expect="diverges",
                instead="max(steps) < 0 and emd_lap[-1] > 0.75 * emd_lap[0]",
                note="emd_lap: EMD between BA's and LAP's rows of A (same tight level, padded output grid) per "
                "panel; emd_self: EMD between BA's row under attack and without. The paper's 'start behaving "
                "more like' is a trend; a quarter of the distance is the least we call a start.",
                changes=(
                    CriterionChange(
                        _A,
                        _A_DATE,
                        "book",
                        {"kind": "monotone", "direction": "decreasing", "strict": True, "tol": 0.0},
                        "the third edition graded a strict decrease of emd_lap, which follows from "
                        "F11-ii-mono and cannot fail; this criterion was written knowing that "
                        "record's numbers (4.85 → 4.47 and 4.58 → 3.70, d(A, B) = 5)",
                    ),
                    CriterionChange(
                        _R5,
                        _R5_DATE,
                        "book",
                        {
                            "kind": "holds",
                            "rule": "emd_lap[-1] <= emd_self[-1]",
                            "expect": "diverges",
                            "instead": "max(steps) < 0 and emd_lap[-1] > 0.75 * emd_lap[0]",
                        },
                        "a9b1af0's rule could not pass: BA moves 0.40 / 0.94 from itself while it "
                        "is 4.47 / 3.70 from LAP, so 'as close to LAP as to itself' asks for more "
                        "than the paper's trend; rewritten as the trend after b290ed4's record "
                        "(closed share 7.8 % at ε = 0.8, 19 % at 1.2) had been seen (" + _SEEN_R5 + ")",
                    ),
                ),
            )
            for e, t in ((0.8, "a"), (1.2, "b"))
        ],
        Claim(
            "F11-mode-0.8",
            "At the caption's 0.8-geo-ind (β = 0.4) the attack makes the users at A 'more and more "
            "identifiable': A's most likely report becomes A within the paper's panels (k ≤ 8)",
            source="paper",
            paper=Printed("more and more identifiable", "Sec. 7, Fig. 11a"),
            kind="holds",
            rule="modes_A >= 1",
            expect="diverges",
            instead="modes_A == 0 and p_self_max < 0.05",
            note="At β = 0.4 P(A→A) rises only from about 0.001 to 0.016 and B stays the mode: the attack barely "
            "shows.",
            changes=(
                CriterionChange(
                    _A,
                    _A_DATE,
                    "book",
                    {
                        "kind": "holds",
                        "rule": "modes_A >= 1",
                        "expect": "diverges",
                        "instead": "modes_A == 0 and p_self_max < 0.05",
                    },
                    _NEW_ROW.format("P(A→A) from 0.0008 to 0.016 at β = 0.4"),
                ),
            ),
        ),
        Claim(
            "F11-mode",
            "At ε = 1.2 the attack makes A's most likely report A itself within the paper's panels (k ≤ 4)",
            source="derived",
            kind="holds",
            rule="switch_k <= 4",
            where="Sec. 7 and Fig. 11b, read on BA's mode",
        ),
        Claim(
            "F11-i",
            "Case (i), fakes report B: B's distribution is 'weighed heavily around B by both BA and LAP', "
            "and the trend continues (more than half in B's block for both at k = 0; BA's mode B at every "
            "k; P(B→B) and P(block | B) non-decreasing)",
            source="paper",
            paper=Printed("weighed heavily around B; the trend continues", "Sec. 7, case (i)"),
            kind="holds",
            rule="ba_block0 > 0.5 and lap_block0 > 0.5 and modes_B == n and min(steps) >= 0",
        ),
        Claim(
            "F11-PRIVIC",
            "The attack run through PRIVIC itself (fakes in each cycle's reports, 14 cycles) is "
            "stronger than the prior shortcut of Fig. 11: P(A→A) of the deployed BA at k = 8, "
            "ε = 0.8 and 1.2 (both jointly)",
            source="extension",
            kind="order",
            relation="shortcut < PRIVIC",
            rtol=0.1,
            where="Sec. 7 ('in turn, PRIVIC')",
            note="Stronger by more than 10 % of PRIVIC's value; the shortcut is deterministic, PRIVIC's value the "
            "mean over rounds (simultaneous intervals).",
            changes=(
                _stats_change(
                    {"kind": "order", "relation": "shortcut < PRIVIC", "atol": 0.0, "rtol": 0.0},
                    "a mean over rounds compared without its noise",
                ),
            ),
        ),
        Claim(
            "F11-beta08",
            "The authors' notebook saves the attacked panels at β = 0.8: there P(A→A) exceeds 0.7 "
            "from k = 6 on, and A is already its own most likely report without attack",
            source="extension",
            kind="holds",
            rule="min(p_self) > 0.7 and mode_k0_is_A == 1",
            note="At that level the panels' 'more and more identifiable' starts from an A that is already "
            "identifiable.",
            changes=(
                CriterionChange(
                    _A,
                    _A_DATE,
                    "book",
                    {"kind": "holds", "rule": "min(p_self) > 0.7"},
                    "the condition on k = 0 was added after the audit of the third edition found "
                    "P(A→A) = 0.113 and A the mode at β = 0.8 without adversaries",
                ),
            ),
            where="the authors' notebook (file names 'Beta 0_8'); the caption says 0.8-geo-ind",
        ),
    ]


CLAIMS = claim_table(
    *_data_claims(),
    *_ba_claims(),
    *_island_claims(),
    *_fig3_claims(),
    *_theory_claims(),
    *_table_claims(),
    *_mle_claims(),
    *_fig11_claims(),
)
