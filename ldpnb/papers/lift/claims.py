r"""The lift chapter's claims: what Zarrabian, Ding and Sadeghi print, and how each is graded.

Paper: M. A. Zarrabian, N. Ding and P. Sadeghi, "On the Lift, Related Privacy Measures, and
Applications to Privacy-Utility Tradeoffs". Section, figure, equation and proposition numbers refer
to it. The paper prints few numbers (Sec. III: Fig. 1's ranges; Sec. III-A3: 0.52 and 0.94;
Sec. IV-B: 0.83 and "almost 60%"); most claims are statements about its figures. Every number that
comes from random distributions is recorded as an :class:`ldpnb.stats.Estimate` and decided with
three outcomes (its interval inside the claim's region: holds; outside: reversed; across an edge:
undecided, never a pass). The readings, fixed before the results they grade:

* **A printed mean** (H1, H2, H3): the mean over our distributions (Hall's interval, 95 %) must lie
  in the printed value ``± (0.005 + 1.96 s / sqrt(n_paper))``: half a unit of the printed digit,
  widened by the paper's own Monte Carlo error at its number of distributions ``n_paper`` (the
  spread ``s`` over distributions, measured in the chapter's second-edition book run: 0.147, 0.042
  and 0.0167 NMI). Effect: 0.03 NMI beyond the region.
* **"A is above B"** on a figure (rows built by :func:`ldpnb.papers.lift.experiments.order_estimate`):
  per compared ε the paired (same distributions) mean difference A − B, with 99 % intervals
  simultaneous over every difference of the row (Bonferroni). The estimate has two cells per unit:
  the *smallest* difference over ε and comparisons, which must be decided above ``-tie`` (A is not
  below B anywhere: every point decided), and the *difference reached at half the points*, the
  smallest over the row's comparisons of the ⌈n/2⌉-th largest difference of the comparison, which
  must be decided above ``+tie`` (A is above B by more than the tie at at least half of each
  comparison's points; a monotone function of the differences, so its interval holds jointly). A
  non-strict part of a claim ("AORR ≥ SRR", "α = 100 not below ALIP") has the first cell only. Tie
  tolerances, the smallest difference that matters: 0.001 NMI, 0.01 nats, 0.05 symbols. Points
  where both NMI means are at least 0.999 (saturated), or both curves agree on every distribution,
  are not compared. Effect 0.01 (one point reversed by 0.01). A third kind of cell, where the claim
  is also made per distribution, is the smallest difference on any distribution (exact), which must
  be at least ``-1e-9``.
* **"The privacy constraints are satisfied"** on the plotted means (budget rows): per point (curve,
  panel, ε) the mean excess of the leakage over its budget, with 99 % simultaneous intervals; the
  estimate is the largest over the points, which must lie below ``+0.01`` nats (the leakage tie:
  a mechanism that binds at its budget, such as AORR or SRR, sits on the line within float noise).
  Effect: the falsifier is a point at +0.05 nats.
* **Crossovers** (F2.cross, F3.cross, F4.cross, F7.cross.*): the ε where the mean curve of one λ
  overtakes the other for good (linear interpolation), with a BCa bootstrap interval over
  distributions (95 %); it must lie in [0.75, 1.25], one grid step either side of the paper's
  "ε > 1". Effect: one grid step (0.25).
* **Ratios, proportions, medians** (F1.3-F1.5, H2.ratio, F5.close, VI-B.comp, F6.run,
  V.scale, V-A.vert, the timing and growth rows): the estimator of :mod:`ldpnb.stats` named in each
  row's note. Timings are CPU times of the process (a busy machine inflates them far less than wall
  time), decided on ratios or steps of medians measured side by side.

Exact rows (identities, theorems and invariants checked on every instance, counterexamples, the
pooled rank test of Fig. 1) keep ``holds`` rules over exact counts.
"""

from dataclasses import replace
from typing import Any

from ldpnb.repro.claims import Claim, CriterionChange, Printed, claim_table

#: No exception on any instance.
NONE = "violations == 0 and instances > 0"
#: Tie tolerances of the "A is above B" rows: the smallest difference that matters, per unit.
TIE = {"nmi": 0.001, "nats": 0.01, "symbols": 0.05}
#: Per-distribution orderings hold up to float noise.
INSTANCE_TOL = 1e-9
#: Largest mean excess over a budget that is still "below" it (nats; the leakage tie).
BUDGET_TOL = 0.01


def _above_bounds(*groups: tuple[str, bool], instance: bool = False) -> list[float]:
    """The lower bounds of an "A is above B" estimate's cells: per group ``(unit, strict)`` the
    smallest difference (``>= -tie``) and, when ``strict``, the difference at half the points
    (``>= +tie``); with ``instance`` a last cell, the smallest difference on any distribution
    (``>= -1e-9``)."""
    out = []
    for unit, strict in groups:
        out += [-TIE[unit]] + ([TIE[unit]] if strict else [])
    return out + ([-INSTANCE_TOL] if instance else [])


_ABOVE = (
    "ours: the smallest paired mean difference over the compared ε and the difference reached at half "
    "the points of each comparison (module docstring), 99 % simultaneous Hall intervals over the distributions "
    "(their number is in the note)."
)
_MEAN = (
    "Ours: the mean over distributions (Hall, 95 %). Region: the printed value ± 0.005 (half a unit of its "
    "digit) ± 1.96 s/√{n} (the paper's Monte Carlo error at its {n} distributions, s = {s} NMI from the "
    "second-edition book run)."
)
_GEN = (
    "The paper does not state its generator; P_SX has iid Uniform(0, 1) cells normalised to 1 (the reading that "
    "reproduces the printed 0.52, 0.83 and 0.94)."
)
_BUDGET = (
    "ours: the largest mean excess of a leakage over its budget (nats) over the points (curve, panel, ε), "
    "with 99 % simultaneous Hall intervals; 'below the budget' up to the 0.01-nat leakage tie."
)

CLAIMS = claim_table(
    # ------------------------------------------------------------------ Fig. 1: lift asymmetry
    Claim(
        "F1.1",
        "Fig. 1: the range of $\\log\\Psi(y)$ is $[-12, -0.06]$ (1000 random $P_{SX}$, |X| = 17, |S| = 5)",
        source="paper",
        paper=Printed([-12, -0.06], "Sec. III, text of Fig. 1"),
        kind="holds",
        rule="min_lo <= -12 and -12 <= min_hi and max_lo <= -0.06 and -0.06 <= max_hi",
        note="An end point is an extreme of 17,000 draws: it is compared with the distribution of the same extreme "
        "over independent runs of 1000 distributions, by the distribution-free prediction interval "
        "[x_(j), x_(n+1-j)] of our n runs' order statistics, which holds a new run's value with probability "
        "(n + 1 - 2j)/(n + 1), at least 99 % (min_lo..min_hi for the lower end, max_lo..max_hi for the "
        "upper end; level: the interval's probability). " + _GEN,
    ),
    Claim(
        "F1.2",
        "Fig. 1: the range of $\\log\\Lambda(y)$ is $[0.02, 1.64]$",
        source="paper",
        paper=Printed([0.02, 1.64], "Sec. III, text of Fig. 1"),
        kind="holds",
        rule="min_lo <= 0.02 and 0.02 <= min_hi and max_lo <= 1.64 and 1.64 <= max_hi",
        note="As F1.1. The bound is $\\log\\Lambda \\le \\log(1/\\min_s P_S(s))$, which exceeds log 5 = 1.61 whenever "
        "the smallest $P_S(s)$ is below 1/5.",
    ),
    Claim(
        "F1.joint",
        "Fig. 1: the four printed end points together are consistent with one run of our generator "
        "(a test at level 1%)",
        source="calibration",
        paper=Printed([-12, -0.06, 0.02, 1.64], "Sec. III, text of Fig. 1"),
        kind="holds",
        rule="p_value >= 0.01",
        note="The generator is our calibration (" + _GEN + ") Statistic of a run: the largest of its four end "
        "points' distances from their median, each in units of its interquartile range, over the paper's run "
        "pooled with ours; the paper's p-value is the rank of its statistic among all runs', with the rounding "
        "of the printed digits counted in the paper's favour (ldpnb.papers.lift.theory.endpoint_consistency). "
        "Rejecting at p < 1% errs with probability at most 1% if the paper's run came from our generator (the "
        "pooled runs are then exchangeable). Not rejecting does not identify the paper's generator.",
    ),
    Claim(
        "F1.3",
        "Fig. 1: the probability of $|\\log\\Psi(y)| \\ge 6$ is near zero",
        source="paper",
        paper=Printed("near zero", "Sec. III, footnote 2"),
        kind="range",
        upper=0.01,
        one_sided=True,
        domain=(0, 1),
        note="'Near zero' read as below 1% (the paper's 0.05-wide bins would then each hold < 0.1%, invisible on "
        "its 0-0.08 axis). Ours: the mean over the 1000 distributions of each one's share of symbols with "
        "$|\\log\\Psi(x)| \\ge 6$ (Hall, 95 %; the 17 symbols of a distribution are not independent draws).",
    ),
    Claim(
        "F1.4",
        "Fig. 1: the largest probability of $\\log\\Psi$ is much lower than that of $\\log\\Lambda$ "
        "(ratio of the histogram peaks, common 0.05-wide bins)",
        source="paper",
        paper=Printed("much lower", "Sec. III, text of Fig. 1"),
        kind="range",
        lower=2.0,
        one_sided=True,
        domain=(0, None),
        effect=0.5,
        note="'Much lower' read as at most half. Ours: the ratio of the two peaks with a BCa bootstrap interval "
        "(95 %) over the 1000 distributions (each resample's peak taken over the 16 highest bins of each "
        "full histogram).",
    ),
    Claim(
        "F1.5",
        "Sec. I-A: max-lifts have a higher likelihood $P_{SY}(s,y)$ of appearing than min-lifts (mean $P_{SX}$ "
        "mass on the argmax-lift pairs over that on the argmin pairs)",
        source="paper",
        paper=Printed("higher", "Sec. I-A"),
        kind="range",
        lower=2.0,
        one_sided=True,
        domain=(0, None),
        effect=0.5,
        note="Since $\\Lambda \\ge 1 \\ge \\Psi$, 'higher' alone is nearly implied: the mass on the argmax pairs is at "
        "least $\\sum_x P_S(s_{max}(x)) P_X(x)$ and that on the argmin pairs at most $\\sum_x P_S(s_{min}(x)) "
        "P_X(x)$, both about 0.2 here. A ratio of at least 2 is the informative reading. Ours: the ratio of "
        "the mean masses, Fieller's interval (paired, 95 %).",
    ),
    # ------------------------------------------------------------------ propositions
    *[
        Claim(
            pid,
            text,
            source="paper",
            paper=Printed("holds", where),
            kind="holds",
            rule=NONE,
            note="Zero violations (relative tolerance 1e-9) of every inequality of the proposition at the tight budgets "
            "of random mechanisms (P_SX and channel Dirichlet with concentration 0.3, 1 or 3; 2-5 symbols).",
        )
        for pid, text, where in [
            ("P1.1", "Prop. 1.1: ALIP implies $I(S;Y) \\le \\varepsilon_u$", "Prop. 1.1, App. A"),
            ("P1.3", "Prop. 1.3: Sibson and Arimoto MI of order α > 1 are at most α/(α-1) ε_u", "Prop. 1.3, App. A"),
            (
                "P1.4",
                "Prop. 1.4: $(\\varepsilon_l, \\varepsilon_u)$-ALIP implies $(\\varepsilon_l+\\varepsilon_u)$-LDP",
                "Prop. 1.4, App. A",
            ),
            ("P3.3", "Prop. 3.3: ALIP implies max α-lift ≤ $e^{\\varepsilon_u}$", "Prop. 3.3, App. C"),
            ("P4", "Prop. 4: the ℓ1-, χ²- and α-lift bound the max-lift", "Prop. 4, App. D"),
            ("P5.3", "Prop. 5.3: ALIP implies max α-lift-inverse ≤ $e^{\\varepsilon_l}$", "Prop. 5.3, App. E"),
            ("P6", "Prop. 6: the lift-inverse measures bound the min-lift", "Prop. 6, App. F"),
        ]
    ],
    *[
        Claim(
            pid,
            text,
            source="paper",
            paper=Printed("holds", where),
            kind="holds",
            rule="violations == 0",
            expect="diverges",
            instead="corrected_violations == 0",
            note=f"False as printed: counterexample {cx} violates it exactly, and so do some random mechanisms "
            "(violations: "
            "both counted). The proof "
            "uses $|l-1| \\le \\Lambda - 1$, which fails when $1-\\Psi > \\Lambda-1$. The corrected bound, with "
            + corr
            + ", has no violation.",
        )
        for pid, text, where, cx, corr in [
            (
                "P1.2",
                "Prop. 1.2: ALIP implies $T(S;Y) \\le (e^{\\varepsilon_u}-1)/2$ and $\\chi^2(S;Y) \\le "
                "(e^{\\varepsilon_u}-1)^2$",
                "Prop. 1.2, App. A",
                "C1",
                "$\\max(e^{\\varepsilon_u}-1, 1-e^{-\\varepsilon_l})$",
            ),
            (
                "P3.1-2",
                "Props. 3.1-3.2: ALIP implies max ℓ1-lift ≤ $e^{\\varepsilon_u}-1$ and max χ²-lift ≤ "
                "$(e^{\\varepsilon_u}-1)^2$",
                "Props. 3.1-3.2, App. C",
                "C1",
                "$\\max(e^{\\varepsilon_u}-1, 1-e^{-\\varepsilon_l})$",
            ),
            (
                "P5.1-2",
                "Props. 5.1-5.2: ALIP implies max ℓ1-lift-inverse ≤ $e^{\\varepsilon_l}-1$ and max χ²-lift-inverse "
                "≤ $(e^{\\varepsilon_l}-1)^2$",
                "Props. 5.1-5.2, App. E",
                "C2",
                "$\\max(e^{\\varepsilon_l}-1, 1-e^{-\\varepsilon_u})$",
            ),
        ]
    ],
    Claim(
        "I4",
        "Eq. (4): $\\Gamma(y) = \\max_{s,s'} P_{Y|S}(y|s)/P_{Y|S}(y|s') = \\Lambda(y)/\\Psi(y)$ (largest relative "
        "error, direct maximum against the ratio)",
        source="paper",
        paper=Printed("identity", "Eq. (4)"),
        kind="holds",
        rule="eq4_rel <= 1e-12 and n > 0",
    ),
    Claim(
        "I5",
        "Def. 5: $T(S;Y) = \\frac12 E_Y[\\Lambda_{\\ell_1}]$, $\\chi^2(S;Y) = E_Y[\\Lambda_{\\chi^2}]$ and Sibson's "
        "$I_\\alpha = \\frac{\\alpha}{\\alpha-1}\\log E_Y[\\Lambda^S_\\alpha]$ (each side from its own definition)",
        source="paper",
        paper=Printed("identities", "Def. 5, Sec. VI"),
        kind="holds",
        rule="T_abs <= 1e-12 and chi2_rel <= 1e-10 and sibson_abs <= 1e-12 and n > 0",
        note="Compared with the direct definitions (total variation, the χ² sum, Sibson's α-mutual information, α in "
        "{0.5, 2, 10}), not with the toolkit's functions that are written with the identities.",
    ),
    # ------------------------------------------------------------------ watchdog: analytic results
    Claim(
        "E11",
        "Eqs. (11), (13): the closed forms equal $I(X;Y)$ of the explicit merging channel (largest gap, nats)",
        source="paper",
        paper=Printed("identity", "Eqs. (11), (13)"),
        kind="holds",
        rule="max_err < 1e-12 and n > 0",
    ),
    Claim(
        "E11.mono",
        "Sec. III-A1: $\\mathcal X_H' \\subset \\mathcal X_H$ implies $I(X;Y) < I'(X;Y)$ (complete merging, strict)",
        source="paper",
        paper=Printed("strict decrease", "Sec. III-A1, after eq. (11)"),
        kind="holds",
        rule="strict_violations == 0 and singleton_equalities == 0",
        expect="diverges",
        instead="strict_violations == 0 and pairs > 0 and singleton_max_gap < 1e-12",
        note="Strict for every nested pair with $|\\mathcal X_H| \\ge 2$; equality when $\\mathcal X_H$ is a single "
        "symbol "
        "and $\\mathcal X_H' = \\emptyset$ (merging one symbol is the identity). By eq. (11), $I' - I = "
        "P(\\mathcal X_H) H(X|X \\in \\mathcal X_H) - P(\\mathcal X_H') H(X|X \\in \\mathcal X_H')$: '<' should "
        "read '≤', with equality exactly in that case, the case behind the watchdog's leakage (F4.leak).",
    ),
    Claim(
        "D4",
        "Def. 4 / Sec. IV: a refinement of the partition of $\\mathcal X_H$ does not decrease $I(X;Y)$ "
        "(several blocks split at once, several levels)",
        source="paper",
        paper=Printed("I_G <= I_G'", "Sec. IV, after Def. 4"),
        kind="holds",
        rule=NONE,
        note="Also strict whenever a block is split (strict_violations).",
    ),
    Claim(
        "T1",
        "Thm. 1 (and its LIP/ALIP analogue): any randomisation confined to $\\mathcal X_H$ leaks at least as much "
        "as merging $\\mathcal X_H$",
        source="paper",
        paper=Printed("holds", "Thm. 1, App. B"),
        kind="holds",
        rule=NONE,
    ),
    Claim(
        "P7",
        "Prop. 7: an $(\\varepsilon, \\mathcal X_H)$-LDP randomisation of $\\mathcal X_H$ exists if and only if "
        "$\\Gamma(\\mathcal X_H) \\le e^{\\varepsilon}$ (both directions, by linear programming over all "
        "randomisations with 1-3 outputs)",
        source="paper",
        paper=Printed("if and only if", "Prop. 7, App. B, eq. (34)"),
        kind="holds",
        rule="sufficiency_exceptions == 0 and necessity_exceptions == 0 and cases > 0 and x_invariant_rel < 1e-12",
        note="Feasible at ε = log Γ(X_H) (1 + 1e-6), infeasible at log Γ(X_H) (1 - 1e-3); X-invariant randomisations "
        "attain Γ(X_H) exactly.",
    ),
    Claim(
        "P2",
        "Prop. 2: $\\mathcal X_H^{LDP}(\\varepsilon) \\subseteq \\mathcal X_H^{ALIP}(\\lambda\\varepsilon, "
        "(1-\\lambda)\\varepsilon)$ and NMI(LDP) ≥ NMI(ALIP) (complete merging)",
        source="paper",
        paper=Printed("holds", "Prop. 2"),
        kind="holds",
        rule=NONE,
    ),
    # ------------------------------------------------------------------ Fig. 2: complete merging
    Claim(
        "H1",
        "Sec. III-A3: the watchdog (complete merging) at λ = 0.5, ε = 2 has mean NMI 0.52",
        source="paper",
        paper=Printed(0.52, "Sec. III-A3"),
        kind="close",
        atol=0.0141,
        domain=(0, 1),
        effect=0.03,
        note=_MEAN.format(n=1000, s=0.147),
    ),
    Claim(
        "F2.P2",
        "Fig. 2(a) / Prop. 2: LDP has higher utility than ALIP for every ε and λ (complete merging, per instance)",
        source="paper",
        paper=Printed("higher", "Sec. III-A3, Fig. 2(a)"),
        kind="holds",
        rule=NONE,
    ),
    Claim(
        "F2.lk",
        "Fig. 2(b), 2(c): LDP has higher leakage than ALIP for every ε and λ (complete merging, both panels)",
        source="paper",
        paper=Printed("higher", "Sec. III-A3, Figs. 2(b), 2(c)"),
        kind="range",
        lower=_above_bounds(("nats", True), instance=True),
        one_sided=True,
        effect=0.01,
        note=_ABOVE + " Comparisons: LDP against each λ, on both leakage panels; last cell: the "
        "smallest LDP − ALIP leakage on any distribution.",
    ),
    Claim(
        "F2.lam",
        "Fig. 2(a): λ = 0.65 enhances utility for ε > 1 and λ = 0.35 lowers it (complete merging)",
        source="paper",
        paper=Printed("0.65 > 0.5 > 0.35", "Sec. III-A3, Fig. 2(a)"),
        kind="range",
        lower=_above_bounds(("nmi", True)),
        one_sided=True,
        effect=0.01,
        domain=(-1, 1),
        note=_ABOVE + " Comparisons: 0.65 above 0.5 at ε ≥ 1.25, 0.5 above 0.35 at every ε.",
    ),
    Claim(
        "F2.cross",
        "Fig. 2(a): λ = 0.65 overtakes λ = 0.5 at ε ≈ 1 (complete merging)",
        source="paper",
        paper=Printed(1.0, "Sec. III-A3 ('for ε > 1')"),
        kind="range",
        lower=0.75,
        upper=1.25,
        domain=(0, None),
        effect=0.25,
        note="Ours: the ε after which the mean curve of 0.65 stays above that of 0.5 (linear interpolation between "
        "grid points; 1 beyond the grid's end if it is not ahead at the end), BCa bootstrap over the "
        "distributions (95 %). One grid step (0.25) either side is the resolution of the paper's statement.",
    ),
    Claim(
        "F2.lamXH",
        "Sec. III-A3: any λ < 0.5 reduces utility, since the strict min-lift budget enlarges $\\mathcal X_H$ "
        "(complete merging, λ ∈ {0.2, 0.35, 0.45} against 0.5)",
        source="paper",
        paper=Printed("any λ < 0.5 reduces utility; enlarges X_H", "Sec. III-A3"),
        kind="range",
        lower=_above_bounds(("nmi", True), ("symbols", True)),
        one_sided=True,
        effect=0.01,
        note=_ABOVE + " First two cells: λ = 0.5 above each λ < 0.5 in mean NMI; last two: each "
        "λ < 0.5 above 0.5 in mean |X_H| (symbols); every ε.",
    ),
    Claim(
        "F2.leak",
        "Figs. 2(b), 2(c): the mean leakages of complete merging stay below the budgets",
        source="derived",
        kind="range",
        upper=BUDGET_TOL,
        one_sided=True,
        effect=0.04,
        expect="diverges",
        where="the Sec. IV-B sentence 'privacy constraints have been satisfied in all cases' (said of Fig. 4) read "
        "for Fig. 2",
        note=_BUDGET + " Points: three λ × two panels × 32 ε and the LDP curve's Γ-leakage against ε. Complete and "
        "subset merging violate on the same distributions (F4.same), so this is F4.leak's "
        "divergence seen on Fig. 2; see F4.leak.",
    ),
    Claim(
        "F2.inst",
        "Per distribution, the watchdog meets its ALIP budgets (complete and subset merging, every λ and ε)",
        source="extension",
        kind="holds",
        where="Figs. 2 and 4 plot means only; per-distribution reading",
        rule=NONE,
        expect="diverges",
        note="violations: instances (distribution, curve, ε) above their budget (relative tolerance 1e-9), over "
        "every instance of complete and subset merging (three λ and LDP, every ε): an exact count, as F3.priv "
        "and F4.fix. The largest share of distributions above budget at one point, with its Wilson interval "
        "(99 %, simultaneous over the points), is in the note. Merging cannot privatise a merged "
        "$\\mathcal X_H$ that violates its budget (Thm. 1, Prop. 7), mostly a single high-risk symbol (the "
        "share of singletons among the violating instances is in the note).",
    ),
    # ------------------------------------------------------------------ Fig. 3: AORR
    Claim(
        "H3",
        "Sec. III-A3: AORR at λ = 0.5, ε = 2 has mean NMI 0.94",
        source="paper",
        paper=Printed(0.94, "Sec. III-A3"),
        kind="close",
        atol=0.0083,
        domain=(0, 1),
        effect=0.03,
        note=_MEAN.format(n=100, s=0.0167) + " At book scale the mean is taken over more distributions than "
        "Fig. 3's (H3's own runs, same generator) so that it can decide.",
    ),
    Claim(
        "F3.priv",
        "Fig. 3: AORR satisfies its ALIP budgets on every instance (relative tolerance 1e-9)",
        source="invariant",
        where="eq. (12)",
        kind="holds",
        rule=NONE,
    ),
    Claim(
        "F3.bind",
        "Sec. III-A3: AORR is optimal, so its min-lift constraint binds (λ = 0.5, ε ≤ 4, instances whose "
        "raw data violate $\\varepsilon_l$)",
        source="derived",
        where="Sec. III-A3: 'necessarily results in the highest leakage subject to privacy constraints'",
        kind="holds",
        rule="not_binding == 0 and instances > 0",
        note="Binding: $||\\log\\min\\Psi| - \\varepsilon_l| \\le 10^{-6}$.",
    ),
    Claim(
        "F3.sat",
        "Fig. 3(c): AORR's max-lift leakage is $\\min(\\varepsilon_u$, the raw data's max log-lift$)$",
        source="derived",
        where="each output's posterior mixes the raw posteriors, so its log-lift is at most the raw maximum",
        kind="holds",
        rule="over <= 1e-9 and shortfall_small <= 0.01",
        note="over: largest excess over that cap; shortfall_small: mean distance below ε_u at ε ≤ 1 (nats).",
    ),
    Claim(
        "F3.leak",
        "Sec. III-A3: AORR's optimal utility comes with higher min-lift leakage than the watchdog (λ = 0.5, "
        "where complete merging meets its budget on every distribution)",
        source="paper",
        paper=Printed("highest leakage subject to privacy constraints", "Sec. III-A3"),
        kind="range",
        lower=_above_bounds(("nats", True)),
        one_sided=True,
        effect=0.01,
        note=_ABOVE,
    ),
    Claim(
        "F3.lam",
        "Fig. 3(a): λ = 0.65 enhances AORR's utility for ε > 1 and λ = 0.35 lowers it",
        source="paper",
        paper=Printed("0.65 > 0.5 > 0.35", "Sec. III-A3, Fig. 3(a)"),
        kind="range",
        lower=_above_bounds(("nmi", True)),
        one_sided=True,
        effect=0.01,
        domain=(-1, 1),
        note=_ABOVE + " Comparisons: 0.65 above 0.5 at ε ≥ 1.25, 0.5 above 0.35 at every ε.",
    ),
    Claim(
        "F3.cross",
        "Fig. 3(a): λ = 0.65 overtakes λ = 0.5 at ε ≈ 1 (AORR)",
        source="paper",
        paper=Printed(1.0, "Sec. III-A3 ('for ε > 1')"),
        kind="range",
        lower=0.75,
        upper=1.25,
        domain=(0, None),
        effect=0.25,
        note="As F2.cross, over Fig. 3's distributions.",
    ),
    Claim(
        "F3.vsCM",
        "Sec. III-A3: AORR has significantly higher utility than the watchdog (λ = 0.5)",
        source="paper",
        paper=Printed("0.94 vs 0.52", "Sec. III-A3"),
        kind="range",
        lower=_above_bounds(("nmi", True), instance=True),
        one_sided=True,
        effect=0.01,
        domain=(-1, 1),
        note=_ABOVE + " Last cell: the smallest AORR − CM on any instance where complete merging "
        "meets its budget (where it cannot, it leaks above the budget and may beat "
        "AORR's utility).",
    ),
    Claim(
        "F3.lim",
        "AORR's utility does not vanish as ε → 0: it stays above the best perfectly private mechanism "
        "($P_{S|Y} = P_S$) on every distribution",
        source="extension",
        where="limit ε → 0 of eq. (12) (perfect obfuscation); Fig. 3(a) at ε = 0.25",
        kind="holds",
        rule=NONE,
        note="The limit is positive because $P_{S|X}$ has a null space on the simplex when |X| > |S|; the paper does not "
        "print a value (0.65 is the floor of Fig. 3(a)'s axis, not a result).",
    ),
    # ------------------------------------------------------------------ Fig. 4: subset merging
    Claim(
        "H2",
        "Sec. IV-B: subset merging at λ = 0.5, ε = 2 has mean NMI around 0.83",
        source="paper",
        paper=Printed(0.83, "Sec. IV-B"),
        kind="close",
        atol=0.0076,
        domain=(0, 1),
        effect=0.03,
        note=_MEAN.format(n=1000, s=0.042) + " Algorithm 1 as implemented (A1).",
    ),
    Claim(
        "H2.ratio",
        "Sec. IV-B: subset merging enhances utility by almost 60% over complete merging (0.83 vs 0.52)",
        source="paper",
        paper=Printed(0.6, "Sec. IV-B"),
        kind="range",
        lower=0.546,
        upper=0.647,
        domain=(-1, None),
        effect=0.05,
        note="Ours: NMI(SM)/NMI(CM) − 1 at λ = 0.5, ε = 2, Fieller's interval of the ratio of paired means (95 %). "
        "The printed 0.83 and 0.52 allow 0.571-0.621 (0.825/0.525 − 1 to 0.835/0.515 − 1), widened by "
        "1.96 × 0.0128, the paper's Monte Carlo error of the ratio at its 1000 distributions (from the "
        "second-edition book run). Falsifiers: 0.50 and 0.70.",
    ),
    Claim(
        "A1",
        "Algorithm 1 as printed gives NMI ≈ 0.83 at λ = 0.5, ε = 2",
        source="paper",
        paper=Printed(0.83, "Algorithm 1, Sec. IV-A; Sec. IV-B"),
        kind="close",
        atol=0.0076,
        domain=(0, 1),
        effect=0.03,
        expect="diverges",
        note="Region: H2's. Ours: the mean NMI with the printed risk score ω = Λ + Ψ and with the printed outer "
        "loop (Hall, 95 % simultaneous). ω = Λ + Ψ rewards small min-lifts; line 4 as printed stops at once "
        "(complete merging). ω = Λ + 1/Ψ with 'while X_Q is non-empty' reproduces Fig. 4 (H2).",
    ),
    Claim(
        "A1.opt",
        "Sec. IV: Algorithm 1 is a heuristic: the optimal partition (exact dynamic programme) is never worse",
        source="invariant",
        where="Sec. IV (combinatorial problem; Algorithm 1 greedy)",
        kind="holds",
        rule="min_gap >= -1e-12 and instances > 0",
    ),
    Claim(
        "F4.P2",
        "Fig. 4(a): LDP has higher utility than ALIP for every ε and λ (subset merging, means)",
        source="derived",
        where="Sec. III-A3's sentence on Fig. 2 ('LDP provides higher utility and leakage than ALIP "
        "for all values of ε and λ'), read for Fig. 4 (Sec. IV-B is silent)",
        kind="range",
        lower=_above_bounds(("nmi", True)),
        one_sided=True,
        effect=0.01,
        domain=(-1, 1),
        note=_ABOVE + " On the means: per distribution subset merging is not monotone in "
        "$\\mathcal X_H$ (the share of exceptions is in the note).",
    ),
    Claim(
        "F4.enh",
        "Sec. IV-B: subset merging enhances utility over complete merging in all scenarios",
        source="paper",
        paper=Printed("enhanced in all scenarios", "Sec. IV-B"),
        kind="range",
        lower=_above_bounds(("nmi", True), instance=True),
        one_sided=True,
        effect=0.01,
        domain=(-1, 1),
        note=_ABOVE + " Comparisons: LDP and three λ; last cell: the smallest SM − CM on any distribution.",
    ),
    Claim(
        "F4.lam",
        "Fig. 4(a): λ = 0.65 enhances utility for ε > 1 and λ = 0.35 lowers it (subset merging)",
        source="derived",
        where="Sec. III-A3's statement for Figs. 2-3, read for Fig. 4 (Sec. IV-B is silent)",
        kind="range",
        lower=_above_bounds(("nmi", True)),
        one_sided=True,
        effect=0.01,
        domain=(-1, 1),
        note=_ABOVE + " As F2.lam.",
    ),
    Claim(
        "F4.cross",
        "Fig. 4(a): λ = 0.65 overtakes λ = 0.5 at ε ≈ 1 (subset merging)",
        source="derived",
        where="as F4.lam",
        kind="range",
        lower=0.75,
        upper=1.25,
        domain=(0, None),
        effect=0.25,
        reference=1.0,
        note="As F2.cross.",
    ),
    Claim(
        "F4.leak",
        "Figs. 4(b), 4(c): 'privacy constraints have been satisfied in all cases' (mean leakages of subset "
        "merging against their budgets, every curve and ε)",
        source="paper",
        paper=Printed("satisfied in all cases", "Sec. IV-B, Figs. 4(b), 4(c)"),
        kind="range",
        upper=BUDGET_TOL,
        one_sided=True,
        effect=0.04,
        expect="diverges",
        note=_BUDGET + " Points: 3 λ × 2 panels × 32 ε plus the LDP curve's Γ-leakage. Cause: a merged "
        "$\\mathcal X_H$ that violates its budget cannot be privatised by merging (Thm. 1); in most "
        "such distributions $\\mathcal X_H$ is a single symbol (F2.inst). The max-lift panel is never "
        "above.",
    ),
    Claim(
        "F4.same",
        "Complete and subset merging exceed their budget on exactly the same distributions",
        source="invariant",
        where="a union of private blocks is private (set lifts are averages), Secs. III-IV",
        kind="holds",
        rule="mismatches == 0 and instances > 0",
    ),
    Claim(
        "F4.fix",
        "Extension: merging a violating $\\mathcal X_H$ with the least risky low-risk symbol(s) restores the "
        "budgets on every distribution (subset merging, every λ, LDP too)",
        source="extension",
        where="ldpnb.mechanisms.watchdog, repair='least_risky' (not in the paper)",
        kind="holds",
        rule=NONE,
        note="violations: distributions above budget after the repair (then no mean can lie above a budget). The "
        "utility cost is in the numbers (largest drop of a mean NMI).",
    ),
    # ------------------------------------------------------------------ Fig. 5: SRR
    Claim(
        "F5.ord",
        "Fig. 5(a): NMI of AORR ≥ SRR > subset merging (λ = 0.65)",
        source="paper",
        paper=Printed("AORR >= SRR > SM", "Sec. V-B, Fig. 5(a)"),
        kind="range",
        lower=_above_bounds(("nmi", True), ("nmi", False)),
        one_sided=True,
        effect=0.01,
        domain=(-1, 1),
        note=_ABOVE + " First two cells: SRR above subset merging; last cell: AORR not below SRR.",
    ),
    Claim(
        "F5.close",
        "Sec. V-B: SRR's PUT is very close to AORR: the mean NMI of AORR exceeds SRR's by at most 0.02 "
        "at every ε (λ = 0.65)",
        source="paper",
        paper=Printed("very close to AORR", "Sec. V-B, Fig. 5(a)"),
        kind="range",
        upper=0.02,
        one_sided=True,
        domain=(-1, 1),
        effect=0.01,
        expect="diverges",
        note="Ours: the largest over ε of the paired mean NMI difference AORR − SRR, 99 % simultaneous Hall "
        "intervals; 0.02 NMI is about the width of a line on Fig. 5(a)'s 0.3-1 axis. The smallest share "
        "(SRR − SM)/(AORR − SM) of the gap from subset merging to AORR that SRR recovers is in the note.",
    ),
    Claim(
        "F5.inst",
        "Sec. V: SRR ≥ subset merging on every instance; AORR ≥ SRR wherever SRR meets its budget",
        source="invariant",
        where="Algorithm 2 (per-block optimum)",
        kind="holds",
        rule=NONE,
    ),
    Claim(
        "F5.priv",
        "Algorithm 2: SRR satisfies ALIP on every distribution where it does not fall back to subset merging "
        "(Figs. 5 and 6)",
        source="invariant",
        where="Algorithm 2, lines 20-21",
        kind="holds",
        rule=NONE,
        note="A conditional statement: SRR falls back whenever the merged $\\mathcal X_H$ violates ALIP (the rate is in "
        "the numbers) and then leaks above its budget.",
    ),
    Claim(
        "A2.merge",
        "Algorithm 2, lines 7-14: for strict budgets a block of Algorithm 1's partition can have an empty "
        "polytope, and the while loop then merges it with other blocks",
        source="paper",
        paper=Printed("union with other subsets until the polytope is non-empty", "Sec. V-A, Algorithm 2 lines 7-14"),
        kind="holds",
        rule="merges_lp + merges_printed > 0",
        expect="diverges",
        instead="merges_lp == 0 and merges_printed == 0 and instances_lp > 0 and instances_printed > 0",
        note="Proposition of this chapter: Algorithm 1 returns blocks that all satisfy ALIP, or the single block "
        "$\\mathcal X_H$; a block that satisfies ALIP has a non-empty polytope and a feasible LP (22) (its "
        "normalised $P_X$ is a feasible column), so the loop never merges under either test. merges: blocks "
        "removed by the loop (Algorithm 1's blocks minus SRR's), with the LP test on every SRR of Figs. 5 "
        "and 6 and with the printed test on the timing distributions at λ ∈ {0.35, 0.5, "
        "0.65}; fallbacks are counted apart.",
    ),
    Claim(
        "F5.budget",
        "Fig. 5(b), 5(c): SRR's mean leakages stay below the budgets",
        source="derived",
        kind="range",
        upper=BUDGET_TOL,
        one_sided=True,
        effect=0.04,
        expect="diverges",
        where="Sec. V-B's 'still below the given budgets' (said of Fig. 6) and Sec. IV-B's sentence, read for Fig. 5",
        note=_BUDGET + " SRR binds at $\\varepsilon_l$ where it succeeds and leaks above it where it falls back, so "
        "its mean min-lift leakage lies above the line at moderate ε.",
    ),
    Claim(
        "F5.leak",
        "Fig. 5(b), 5(c): SRR has higher leakage than subset merging (both panels)",
        source="paper",
        paper=Printed("higher leakage", "Sec. V-B, Figs. 5(b), 5(c)"),
        kind="range",
        lower=_above_bounds(("nats", True)),
        one_sided=True,
        effect=0.01,
        note=_ABOVE,
    ),
    Claim(
        "F5.time",
        "Fig. 5(d): AORR and SRR take much longer than subset merging (medians)",
        source="paper",
        paper=Printed("much higher complexity", "Sec. V-B, Fig. 5(d)"),
        kind="range",
        lower=[10.0, 10.0],
        one_sided=True,
        domain=(0, None),
        effect=2.0,
        volatile=True,
        expect="diverges",
        instead="ours_low[0] >= 10",
        note="'Much' read as 10 times. Ours: the smallest over ε of the ratio of median CPU times AORR / subset "
        "merging (every ε) and SRR / subset merging (at every ε where at least half of the distributions have "
        "a high-risk symbol: where $\\mathcal X_H$ is empty SRR and subset merging run the same Algorithm 1 "
        "pass and return the identity), BCa bootstrap over the distributions (95 %). Where SRR's median "
        "largest block has one or two symbols (ε from about 3.5 at λ = 0.65) its random response is nearly "
        "trivial and SRR costs only a few times subset merging; what holds instead is AORR's half (its "
        "interval above 10). Like F5.cross, the divergence depends on the implementation: an implementation "
        "with larger fixed costs per block (the set-up of a general solver, say) could keep SRR ten times "
        "slower there.",
    ),
    Claim(
        "F5.cross",
        "Sec. V-B: SRR is faster than AORR for ε < 1 and ε > 2.5 and slower for 1 ≤ ε ≤ 2.5",
        source="paper",
        paper=Printed([1.0, 2.5], "Sec. V-B, Fig. 5(d)"),
        kind="range",
        lower=[0.0, 0.0],
        one_sided=True,
        effect=0.05,
        volatile=True,
        expect="diverges",
        note="Per ε: the median over distributions of log10(t_SRR / t_AORR), each time the median of repeated "
        "alternated runs, with order-statistic intervals simultaneous over the ε (99 %). Ours: the smallest of "
        "these medians on [1, 2.5] (SRR slower there: above 0) and the smallest of their negatives outside "
        "(SRR faster there: above 0). Timings depend on the implementation: in this build every AORR is one "
        "vertex enumeration (backend named in the note) and one LP, every SRR one pass of Algorithm 1 and one "
        "enumeration and one LP per block. The paper does not describe its implementation; its window is a "
        "statement about that implementation's fixed costs as much as about the methods.",
    ),
    Claim(
        "V-A.bound",
        "Vertices of AORR's polytope (eq. 21) have at most |S| non-zero entries, so their number is at "
        "most 3^|S| Σ_{k ≤ |S|} C(|X|, k), a polynomial of degree |S| in |X| (every enumerated polytope)",
        source="derived",
        where="proposition 'support of a vertex' of this chapter (the rows of P_{S|X} and 1^T span at "
        "most |S| dimensions), eq. (21)",
        kind="holds",
        rule="support_excess <= 0 and above_bound == 0 and polytopes > 0",
        note="support_excess: the largest (non-zero entries of a vertex − |S|) over every polytope enumerated for the "
        "growth rows (|S| = 5) and for V.scale (|S| = 15); above_bound: polytopes with more vertices than the "
        "bound.",
    ),
    Claim(
        "V-A.vert",
        "Secs. III-A2, V-A: AORR's number of vertices grows exponentially with |X|: an exponential law "
        "fitted at the smaller |X| predicts the counts at |X| = 24 and 30 at least as well as a power law",
        source="paper",
        paper=Printed("grows exponentially; n ~ O(exp(|X| - 1))", "Sec. III-A2; Sec. V-A"),
        kind="range",
        upper=0.0,
        one_sided=True,
        effect=0.05,
        expect="diverges",
        note="Ours: exp_err − pow_err, with a BCa bootstrap interval (95 %) resampling the distributions of each "
        "size. Per ε ∈ {0.5, 1, 2}: log10 of the median vertex count (|S| = 5, λ = 0.5) fitted linearly in "
        "|X| (exponential) and in log10 |X| (power law) at the fitted sizes; exp_err and pow_err: mean "
        "absolute log10 error of each fit at the held-out sizes 24 and 30, averaged over ε. For fixed |S| the "
        "count is at most a polynomial of degree |S| (V-A.bound), so the expectation is that the power law "
        "predicts better: Sec. III-A2's 'grows exponentially in the dimension' does not hold as a rate, and "
        "Sec. V-A's O(exp(|X| − 1)) holds only as a loose bound.",
    ),
    Claim(
        "V-A.time",
        "Sec. V-A: AORR's time grows with |X| (median CPU time per |X|)",
        source="paper",
        paper=Printed("O(n)", "Sec. V-A"),
        kind="range",
        lower=[-0.05, 0.05],
        one_sided=True,
        effect=0.05,
        volatile=True,
        note="Ours: the smallest step of log10 of the median CPU time between consecutive sizes (above −0.05: no "
        "decrease beyond 12 %) and its rise from the smallest to the largest size (above 0.05), ε = 1, BCa "
        "bootstrap resampling the distributions of each size (95 %). Each time is the fastest of repeated "
        "runs, and the sizes are timed in turn on each distribution, so that a change of the machine's load "
        "hits every size alike.",
    ),
    Claim(
        "V-A.srr",
        "Sec. V-A: SRR's complexity is driven by its largest block: its CPU time grows with the largest "
        "block (medians per largest-block size, Fig. 5 runs without fall-back, sizes with at least 20 runs)",
        source="paper",
        paper=Printed("O(max_i n_i), n_i ~ O(exp(|X_i| - 1))", "Sec. V-A"),
        kind="range",
        lower=[-0.05, 0.05],
        one_sided=True,
        effect=0.05,
        volatile=True,
        note="Ours: as V-A.time, the smallest step of log10 of the median CPU time between consecutive block sizes "
        "(above −0.05: no decrease beyond 12 %) and its rise from the smallest to the largest (above 0.05), "
        "BCa bootstrap resampling the runs of each size (95 %). Each time is one SRR construction of the Fig. 5 "
        "sweep (Algorithm 1, then one enumeration and one LP per block). The median vertex counts per block "
        "size, the paper's O(max_i n_i) read in vertices, are in the note with their own trend.",
    ),
    # ------------------------------------------------------------------ Fig. 6: |X| = 200
    Claim(
        "F6.ord",
        "Fig. 6(a): SRR has better utility than subset merging at |X| = 200, |S| = 15",
        source="paper",
        paper=Printed("better utility", "Sec. V-B, Fig. 6(a)"),
        kind="range",
        lower=_above_bounds(("nmi", True)),
        one_sided=True,
        effect=0.01,
        domain=(-1, 1),
        note=_ABOVE,
    ),
    Claim(
        "F6.leak",
        "Figs. 6(b), 6(c): SRR's leakage is 'still below the given budgets'",
        source="paper",
        paper=Printed("below the budgets", "Sec. V-B, Figs. 6(b), 6(c)"),
        kind="range",
        upper=BUDGET_TOL,
        one_sided=True,
        effect=0.04,
        note=_BUDGET + " Per distribution without fall-back SRR is private (F5.priv).",
    ),
    Claim(
        "F6.hl",
        "Figs. 6(b), 6(c): SRR has higher leakage than subset merging (both panels)",
        source="paper",
        paper=Printed("higher leakage", "Sec. V-B, Figs. 6(b), 6(c)"),
        kind="range",
        lower=_above_bounds(("nats", True)),
        one_sided=True,
        effect=0.01,
        note=_ABOVE,
    ),
    Claim(
        "F6.run",
        "Sec. V-B: SRR is applicable to large datasets: at |X| = 200, |S| = 15 it enumerates no more "
        "vertices than AORR at the |X| = 17, |S| = 5 of Fig. 3 (worst ε, medians)",
        source="paper",
        paper=Printed("applicable to large datasets", "Sec. V-B; Fig. 6"),
        kind="range",
        upper=1.0,
        one_sided=True,
        domain=(0, None),
        effect=0.25,
        note="'Applicable' read against the paper's own use of AORR at |X| = 17. Ours: the ratio of the largest over "
        "ε of the median vertices SRR enumerates in Fig. 6 (λ = 0.5) to the same for AORR at λ = 0.5 in Fig. 3, "
        "BCa bootstrap resampling each figure's distributions (95 %). Subset merging enumerates nothing (its CPU "
        "times at |X| = 200 are quoted in the chapter). Fig. 6's caption mentions time complexity, but the "
        "figure has no time panel.",
    ),
    Claim(
        "V.scale",
        "Sec. V: SRR makes random response applicable to an order of magnitude larger X: at |X| = 200 "
        "(|S| = 15, Fig. 6) SRR enumerates no more vertices than AORR at |X| = 20 (same |S|, λ and ε)",
        source="paper",
        paper=Printed("an order of magnitude larger X", "Sec. V"),
        kind="range",
        upper=1.0,
        one_sided=True,
        domain=(0, None),
        effect=0.25,
        note="Vertex counts are the paper's own measure of complexity (Sec. V-A: time O(n)). Ours: the ratio of the "
        "largest over Fig. 6's ε of the median number of vertices SRR enumerates at |X| = 200 to the same for "
        "AORR's polytope (eq. 21) over random 15 x 20 P_SX, BCa bootstrap (95 %). The count of AORR is at most "
        "3^|S| Σ_k C(|X|, k) (V-A.bound): no extrapolation.",
    ),
    # ------------------------------------------------------------------ Sec. VI: lift-based measures
    Claim(
        "D6",
        "Sec. VI: lift-based measures alone leave significant min-lift leakage; the lift-inverse measures restrict "
        "it (ℓ1, χ², α = 2; λ = 0.5; 0.5 ≤ ε ≤ 4)",
        source="paper",
        paper=Printed("can only restrict max-lift", "Abstract; Sec. VI, Prop. 4"),
        kind="range",
        lower=[BUDGET_TOL, *_above_bounds(("nats", True))],
        one_sided=True,
        effect=0.01,
        note="First cell: the smallest mean min-lift excess over $\\varepsilon_l$ of subset merging under a lift-based "
        "bound alone (99 % simultaneous Hall intervals over the points), which must lie above the 0.01-nat "
        "tie; the other two: lift-based alone leaks more than lift-based + lift-inverse, as the 'above' rows "
        "(" + _ABOVE + ")",
    ),
    Claim(
        "F7.rel",
        "Fig. 7(a): at λ = 0.5, ℓ1- and χ²-privacy give higher utility than ALIP for all ε",
        source="paper",
        paper=Printed("higher utility", "Sec. VI-B, Fig. 7(a)"),
        kind="range",
        lower=_above_bounds(("nmi", True)),
        one_sided=True,
        effect=0.01,
        domain=(-1, 1),
        note=_ABOVE,
    ),
    *[
        Claim(
            f"F7.lam.{k}",
            f"Fig. 7(a): for {name}-privacy, λ = 0.65 worsens utility for ε < 1 and enhances it for ε > 1",
            source="paper",
            paper=Printed("worse for ε < 1, better for ε > 1", "Sec. VI-B, Fig. 7(a)"),
            kind="range",
            lower=_above_bounds(("nmi", True)),
            one_sided=True,
            effect=0.01,
            domain=(-1, 1),
            note=_ABOVE + " Comparisons: 0.5 above 0.65 at ε ≤ 0.75, 0.65 above 0.5 at ε ≥ 1.25; "
            f"the crossover is F7.cross.{k}.",
        )
        for k, name in (("l1", "ℓ1"), ("chi2", "χ²"))
    ],
    *[
        Claim(
            f"F7.cross.{k}",
            f"Fig. 7(a): for {name}-privacy, λ = 0.65 overtakes λ = 0.5 at ε ≈ 1",
            source="paper",
            paper=Printed(1.0, "Sec. VI-B, Fig. 7(a) ('for ε > 1 ... for ε < 1')"),
            kind="range",
            lower=0.75,
            upper=1.25,
            domain=(0, None),
            effect=0.25,
            note="As F2.cross.",
        )
        for k, name in (("l1", "ℓ1"), ("chi2", "χ²"))
    ],
    Claim(
        "VI-B.feas",
        "AORR at λ = 0.5 ((ε/2)-LIP) is ℓ1- and χ²-private at λ = 0.5 (so its utility bounds the optimum "
        "of [28], [29] from below)",
        source="invariant",
        where="|l − 1| ≤ e^a − 1 and |1/l − 1| ≤ e^a − 1 under a-LIP",
        kind="holds",
        rule=NONE,
    ),
    Claim(
        "VI-B.enh",
        "Sec. VI-B: under the lift-based and lift-inverse measures the subset merging algorithm "
        "significantly enhances the utility over complete merging (ℓ1, χ², α = 2; λ = 0.5)",
        source="paper",
        paper=Printed("significantly enhances the utility", "Sec. VI-B"),
        kind="range",
        lower=_above_bounds(("nmi", True), instance=True),
        one_sided=True,
        effect=0.01,
        domain=(-1, 1),
        note=_ABOVE + " As F4.enh, for the measures of Sec. VI: comparisons ℓ1, χ² and α = 2 (subset against "
        "complete merging under the same criterion, eq. 33 and its ℓ1, χ² analogues); last cell: "
        "the smallest SM − CM on any distribution.",
    ),
    Claim(
        "VI-B.comp",
        "Sec. VI-B: subset merging's utility is comparable to the optimal ℓ1- and χ²-privacy mechanisms "
        "(within 10% of the optimum at every ε)",
        source="paper",
        paper=Printed("comparable to the optimal solutions", "Sec. VI-B"),
        kind="range",
        upper=1.1,
        one_sided=True,
        domain=(0, None),
        effect=0.02,
        expect="diverges",
        note="The optimal mechanisms of [28], [29] are not in the toolkit; AORR at λ = 0.5 is feasible for both "
        "(VI-B.feas), so optimum/SM is at least AORR/SM: the row can show a divergence but not confirm the "
        "claim. 'Comparable' has no number in the paper; 10% is our reading. Ours: the largest over ε and "
        "over ℓ1, χ² of the ratio of mean NMIs AORR / subset merging (Fieller, paired, 99 % simultaneous over "
        "the ratios); the ratios at the two smallest ε are in the note. Where the bound stays below 1.1 the "
        "row cannot decide.",
    ),
    Claim(
        "VI-B.conv",
        "Sec. VI-B: 'ORR is not applicable to these measures since their privacy constraints are not "
        "convex' — the ℓ1 constraints (a non-convex sub-level set of the ℓ1-lift-inverse)",
        source="paper",
        paper=Printed("not convex", "Sec. VI-B"),
        kind="holds",
        rule="quasi_l1 > 0",
        note="A pair of columns whose midpoint exceeds both ends proves that the ℓ1-lift-inverse constraint set at that "
        "level is not convex.",
    ),
    Claim(
        "VI-B.conv.chi2",
        "Sec. VI-B: the χ²-privacy constraints are not convex: two columns that satisfy the "
        "χ²-lift-inverse constraint at a level whose midpoint does not (the chapter's P_SX)",
        source="paper",
        paper=Printed("not convex", "Sec. VI-B"),
        kind="holds",
        rule="f_mid > level * (1 + 1e-9) and level > 0",
        note="(1/l − 1)² is strictly concave for l > 3/2: along a direction that moves the lifts of two secrets "
        "(both above 3/2, equal at the midpoint) in opposite directions the χ²-lift-inverse has a strict "
        "maximum, found by a linear programme (ldpnb.papers.lift.theory.quasiconvexity_counterexample) on the "
        "P_SX of the convexity check; level = max(f(a), f(b)). quasi_chi2 counts the random pairs that show it "
        "(the region is rarely hit at random).",
    ),
    Claim(
        "VI-A.rel",
        "Secs. VI-A, VI-B: the lift-based and lift-inverse measures are relaxations of the min- and "
        "max-lift: an $(\\varepsilon_l, \\varepsilon_u)$-ALIP mechanism is ℓ1- and χ²-private at the same "
        "budgets (any λ)",
        source="paper",
        paper=Printed("more relaxed measures than the min and max lifts", "Sec. VI-A; Sec. VI-B"),
        kind="holds",
        rule="violations == 0",
        expect="diverges",
        instead="safe_violations == 0 and c1_violations > 0 and safe_instances > 0",
        note="By Props. 3 and 5 corrected, ALIP implies ℓ1- and χ²-privacy when $e^{\\varepsilon_u} + "
        "e^{-\\varepsilon_l} \\ge 2$ and $e^{\\varepsilon_l} + e^{-\\varepsilon_u} \\ge 2$ (always at λ = 0.5); "
        "otherwise it need not. c1_violations: counterexample C1 at its tight budgets (λ = 0.737) is ALIP but "
        "neither ℓ1- nor χ²-private. aorr_violations / safe_violations: AORR mechanisms of Fig. 3 (λ = 0.35, "
        "0.65; ALIP by F3.priv) that violate ℓ1- or χ²-privacy where the conditions fail / hold (relative "
        "tolerance 1e-9).",
    ),
    Claim(
        "VI-B.size",
        "Sec. VI-B: for ε < 1 the asymmetric budget (λ = 0.65) makes subset merging under ℓ1- and "
        "χ²-privacy merge more symbols per subset and form larger subsets than λ = 0.5",
        source="paper",
        paper=Printed("more symbols merged in each subset, larger subsets", "Sec. VI-B, Fig. 7"),
        kind="range",
        lower=_above_bounds(("symbols", True)),
        one_sided=True,
        effect=0.01,
        note=_ABOVE + " Comparisons: λ = 0.65 above λ = 0.5 at ε ≤ 0.75 in the largest block and in "
        "the mean block size of Algorithm 1's partition, ℓ1 and χ²; the paper gives this "
        "as the reason for Fig. 7(a)'s lower utility.",
    ),
    Claim(
        "VI-B.convex",
        "The lift-based constraints (ℓ1-, χ²-, α-lift) and the α-lift-inverse are convex in each column "
        "$P_{X|Y}(\\cdot|y)$ (midpoint test)",
        source="derived",
        where="Sec. VI-B's remark, checked per constraint (norms of a linear map; the ℓ1-lift is polyhedral)",
        kind="holds",
        rule="violations == 0 and pairs > 0",
        note="Convex but not polyhedral (except the ℓ1-lift): vertex enumeration + LP (22) does not apply directly.",
    ),
    Claim(
        "F8.ord",
        "Fig. 8(a): α = 2 has the highest utility, and as α grows the PUT of α-lift privacy approaches ALIP "
        "(NMI α = 2 > 10 > 100 ≥ ALIP, λ = 0.5)",
        source="paper",
        paper=Printed("2 > 10 > 100 -> ALIP", "Sec. VI-B, Fig. 8(a)"),
        kind="range",
        lower=_above_bounds(("nmi", True), ("nmi", False)),
        one_sided=True,
        effect=0.01,
        domain=(-1, 1),
        note=_ABOVE + " First two cells: α = 2 above 10 and 10 above 100; last cell: α = 100 not below "
        "ALIP ('closer to ALIP' asks for no strict gap).",
    ),
    Claim(
        "F8.leak",
        "Figs. 8(b), 8(c): the leakage decreases towards ALIP as α grows (both panels)",
        source="derived",
        where="Sec. VI-B ('the PUT ... becomes closer to ALIP'), Figs. 8(b), 8(c)",
        kind="range",
        lower=_above_bounds(("nats", True), ("nats", False)),
        one_sided=True,
        effect=0.01,
        note=_ABOVE + " As F8.ord, on the two leakage panels.",
    ),
    Claim(
        "A.mono",
        "Sec. VI-B: α-lift privacy is tunable and equivalent to ALIP at α = ∞: the α-lift and α-lift-inverse "
        "grow with α towards Λ and 1/Ψ",
        source="paper",
        paper=Printed("tunable; α = ∞ is ALIP", "Sec. VI-B"),
        kind="holds",
        rule="monotone_violations == 0 and sandwich_violations == 0 and gap_max <= 1e-3",
        note="α from 1.01 to 10^4; gap_max: largest relative gap at α = 10^4; sandwich: Λ P_S(s*)^{1/α} ≤ Λ_α ≤ Λ.",
    ),
    Claim(
        "A.nest",
        "The high-risk sets are nested: $\\mathcal X_H(\\alpha=2) \\subseteq \\mathcal X_H(10) \\subseteq "
        "\\mathcal X_H(100) \\subseteq \\mathcal X_H(ALIP)$ (λ = 0.5, every ε)",
        source="derived",
        where="A.mono with eq. (33)",
        kind="holds",
        rule=NONE,
    ),
)

#: Rows that need the paper's sizes (the run-to-run spread of Fig. 1, the 100 distributions of Figs. 3 and 5, the
#: bootstrap's at least 10 runs per sample, timings, SRR's block sizes with at least 20 runs, Fig. 6): at smoke
#: scale (60 and 2 distributions, 20 runs) they are not evaluated.
BOOK_ONLY = (
    "F1.1",
    "F1.2",
    "F1.joint",
    "F2.cross",
    "F2.leak",
    "F3.cross",
    "F4.cross",
    "F4.leak",
    "F5.budget",
    "F5.time",
    "F5.cross",
    "V-A.time",
    "V-A.srr",
    "V-A.vert",
    "F6.ord",
    "F6.leak",
    "F6.hl",
    "VI-B.comp",
    "F5.close",
    "F2.lamXH",
    "VI-B.size",
    "F6.run",
    "V.scale",
)

# ---------------------------------------------------------------------------------------------------------------------
# The decision log: every criterion changed after a recorded result, with what it was, what had been seen and why.
# ---------------------------------------------------------------------------------------------------------------------

#: The commit of the phase-B criteria (d8b6bff): every earlier criterion below had been seen on main's book-scale run
#: (the third edition's last, 9d7c6dd) and on the paper-scale record (second edition, 1f3fe2e).
_PHASE_B = ("d8b6bff", "2026-11-28", "book")
_ORDER = "reversed == 0 and significant >= points / 2 and points > 0"
_BUDGET = "above == 0 and points > 0"
_WHY_ORDER = (
    "Was a count rule over 3-SE intervals per point (not simultaneous over the points), pooled over the "
    "comparisons, with points left undecided allowed; it had no undecided outcome. Now (fixed before the new "
    "code ran): a three-outcome range on the smallest paired difference and the difference at half the "
    "points of each comparison, 99 % simultaneous intervals, every point decided. Seen: "
)
_WHY_BUDGET = (
    "Was 'no 3-SE interval above 0' per point (not simultaneous), with points on the line within noise "
    "counted as below. Now (fixed before the new code ran): the largest mean excess with 99 % simultaneous "
    "intervals, at most the 0.01-nat leakage tie. Seen: "
)
_WHY_MEAN = (
    "Was the deprecated |ours - printed| <= 0.005 + 3 se, se combining our error and the paper's: a point "
    "estimate with an allowance, no undecided outcome. Now (fixed before the new code ran): Hall's 95 % "
    "interval inside printed ± (0.005 + 1.96 × the paper's error at its size). Seen: "
)
_WHY_CROSS = (
    "Was the crossover of the mean curves as a bare number in [0.75, 1.25]. Now (fixed before the new code "
    "ran): its BCa bootstrap interval. Seen: "
)


def _b(was: dict, reason: str) -> CriterionChange:
    return CriterionChange(*_PHASE_B, was, reason)


def _order(prefix: str, seen: str, suffix: str = "") -> CriterionChange:
    return _b({"kind": "holds", "rule": prefix + _ORDER + suffix}, _WHY_ORDER + seen)


def _budget(seen: str, expect: str = "diverges", extra: str = "") -> CriterionChange:
    was = {"kind": "holds", "rule": _BUDGET + extra}
    return _b({**was, "expect": expect} if expect != "pass" else was, _WHY_BUDGET + seen)


def _mean(target: float, seen: str) -> CriterionChange:
    return _b({"kind": "close", "target": target, "atol": 0.005, "rtol": 0.0, "z": 3.0}, _WHY_MEAN + seen)


def _cross(seen: str) -> CriterionChange:
    return _b({"kind": "range", "lower": 0.75, "upper": 1.25}, _WHY_CROSS + seen)


#: The re-audit's criteria (a3763ac), written before their first run, after main's book run b290ed4 had been seen.
_REAUDIT = ("a3763ac", "2026-11-28", "book")
#: The size changes of 0664331: same criteria, more distributions, chosen after the first phase-B book run (66 pass,
#: 16 diverge, 5 undecided: F3.lam, F5.leak, F6.hl, VI-B.size, F8.leak; the other rows below passed).
_SIZES = ("0664331", "2026-11-28", "book")


def _size(was: dict, reason: str) -> CriterionChange:
    return CriterionChange(
        *_SIZES,
        was,
        "Size change, criterion unchanged: " + reason + " The new size was "
        "chosen after that result was seen; the distributions come from the same generator.",
    )


def _f6(seen: tuple[str, dict[str, Any]]) -> CriterionChange:
    return _size(
        {"kind": "range", **seen[1]},
        f"at Fig. 6's former 20 distributions the first phase-B book run gave "
        f"{seen[0]}; F6.hl was undecided there (about 78 distributions to decide, the row's estimate), so Fig. 6 "
        "(whose number the paper does not state) was raised to 80 distributions for all its rows.",
    )


LOG: dict[str, tuple[CriterionChange, ...]] = {
    "F1.1": (
        _b(
            {"kind": "holds", "rule": "min_lo <= -12 and -12 <= min_hi and max_lo <= -0.06 and -0.06 <= max_hi"},
            "Same rule; its numbers were the 0.5 % and 99.5 % quantiles of our runs' extremes (an interpolated "
            "spread), now the order-statistic prediction interval with its exact level (at least 99 %). Seen: "
            "pass (lower end in [-15.6, -9.08], upper end in [-0.064, -0.011], 200 runs).",
        ),
    ),
    "F1.2": (
        _b(
            {"kind": "holds", "rule": "min_lo <= 0.02 and 0.02 <= min_hi and max_lo <= 1.64 and 1.64 <= max_hi"},
            "As F1.1. Seen: pass ([0.012, 0.063] and [1.41, 1.76], 200 runs).",
        ),
    ),
    "F1.joint": (
        CriterionChange(
            "81d5fc4",
            "2026-11-27",
            "book",
            {"kind": "holds", "rule": "joint >= 0.005", "expect": "diverges"},
            "The second edition's rule (at least 0.5 % of our runs reach the four printed end points at once) gave "
            "'diverges' (0/200 at book scale); the third audit showed that it flags 56-72 % of runs of our own "
            "generator, "
            "so it said nothing about the paper's. Replaced by the pooled rank test, written with the audit's marginal "
            "frequencies (0.28, 0.10, 0.10, 0.14) known. The test was replaced twice in the third edition's work, both "
            "times before its first chapter result (the intermediate version was not committed).",
        ),
    ),
    "F1.3": (
        _b(
            {"kind": "range", "lower": None, "upper": 0.01},
            "Was the pooled share of 17,000 symbols as a bare number (no interval; the symbols of a distribution "
            "are not independent). Now the Hall interval of the mean per-distribution share. Seen: 0.0045, pass.",
        ),
    ),
    "F1.4": (
        _b(
            {"kind": "range", "lower": 2.0, "upper": None},
            "Was the ratio of the peaks as a bare number. Now its BCa bootstrap interval over distributions. "
            "Seen: 3.63, pass.",
        ),
    ),
    "F1.5": (
        _b(
            {"kind": "range", "lower": 2.0, "upper": None},
            "Was the ratio of the mean masses as a bare number. Now Fieller's interval. Seen: 4.81, pass.",
        ),
    ),
    "H1": (_mean(0.52, "0.5159 (se 0.0066), pass."),),
    "H2": (_mean(0.83, "0.8319 (se 0.0019), pass."),),
    "H3": (
        _mean(
            0.94,
            "0.9341 (se 0.0024), pass; at 100 distributions the new interval ([0.931, 0.937]) would cross "
            "the region's lower edge 0.9317, so H3's mean is taken over 300 distributions (a size change).",
        ),
    ),
    "H2.ratio": (
        _b(
            {"kind": "close", "target": 0.6, "atol": 0.03, "rtol": 0.0, "z": 3.0},
            "Was 0.6 ± (0.03 + 3 se) (third audit: accepts 0.52-0.68 for 'almost 60 %'). Now (the third "
            "edition's proposal, fixed before the new code ran): Fieller's interval inside 0.571-0.621, what the "
            "printed digits allow, widened by the paper's error. Seen: 0.612 (se 0.018), pass.",
        ),
    ),
    "A1": (
        _b(
            {
                "kind": "holds",
                "rule": "abs(printed_omega - 0.83) <= tol and abs(printed_loop - 0.83) <= tol",
                "instead": "abs(corrected - 0.83) <= tol",
                "expect": "diverges",
            },
            "Was bare means against H2's former tolerance (0.0106); the corrected reading is H2's own row. Now the "
            "two printed readings' Hall intervals against H2's region. Seen: printed ω 0.699, printed loop 0.516, "
            "corrected 0.832: diverges.",
        ),
    ),
    "F2.lk": (_order("violations == 0 and ", "0 per-instance violations, 185 of 191 points significant, pass."),),
    "F2.lam": (_order("", "59 of 60 significant, pass."),),
    "F2.cross": (_cross("1.060, pass."),),
    "F2.lamXH": (_order("", "188 of 192 significant, pass."),),
    "F2.leak": (_budget("17 of 224 points above, worst +0.184 ± 0.033 nats (λ = 0.5, ε = 6.5): diverges."),),
    "F2.inst": (
        _b(
            {"kind": "holds", "rule": "max_rate == 0", "expect": "diverges"},
            "Was the largest violation rate as a bare number. Now its Wilson interval (simultaneous over the "
            "points). Seen: 0.439 (singleton share 0.835), diverges.",
        ),
        CriterionChange(
            *_REAUDIT,
            {"kind": "range", "lower": None, "upper": 0.0, "expect": "diverges"},
            "Was a range with upper end 0 on the largest violation rate's Wilson interval: it could "
            "never pass (0 violations in 1000 still give an upper end of 0.0066: undecided). Seen "
            "(b290ed4): 0.439 [0.376, 0.504], diverges. Now the exact count of violating instances "
            "(the re-audit's proposal), as F3.priv and F4.fix; the rate and its interval are in the "
            "note.",
        ),
    ),
    "F3.leak": (_order("", "10 of 10 significant, pass."),),
    "F3.lam": (_order("", "53 of 54 significant, pass."),),
    "F3.cross": (_cross("1.166, pass."),),
    "F3.vsCM": (_order("violations == 0 and ", "0 per-instance violations, 32 of 32 significant, pass."),),
    "F4.P2": (_order("", "92 of 92 significant, pass."),),
    "F4.enh": (_order("violations == 0 and ", "0 per-instance violations, 96 of 109 significant, pass."),),
    "F4.lam": (_order("", "60 of 60 significant, pass."),),
    "F4.cross": (_cross("1.138, pass."),),
    "F4.leak": (_budget("17 of 224 points above, worst +0.184 ± 0.033 nats (λ = 0.5, ε = 6.5): diverges."),),
    "F4.fix": (
        _b(
            {"kind": "holds", "rule": "violations == 0 and above == 0 and points > 0"},
            "The mean-excess part is dropped: with no distribution above its budget no mean can be, and its "
            "3-SE test added nothing but a second, weaker statement. Seen: 0 violations, 0 of 224 points above, "
            "pass.",
        ),
    ),
    "F5.ord": (_order("reversed_a == 0 and ", "24 of 31 significant, no point with SRR above AORR, pass."),),
    "F5.close": (
        CriterionChange(
            "81d5fc4",
            "2026-11-27",
            "book",
            {"kind": "range", "lower": 0.5, "upper": None},
            "The second edition read 'very close' as SRR recovering at least half of the gap from subset "
            "merging to AORR (0.709, pass); the third audit called it weak and reported AORR about 0.06 NMI "
            "above SRR at ε = 0.25. The 0.02-NMI reading and the expectation 'diverges' were set knowing "
            "that point, with the former reading as what holds instead.",
        ),
        _b(
            {"kind": "holds", "rule": "gap_lo_max <= 0.02", "instead": "share_min >= 0.5", "expect": "diverges"},
            "Was the largest 3-SE lower end of the gap (not simultaneous). Now the largest gap with 99 % simultaneous "
            "intervals; the share reading moved to the note (a range's numbers carry no named 'instead'). Seen: "
            "gap_lo_max 0.051 (gap 0.057 at ε = 0.25), share 0.709: diverges.",
        ),
    ),
    "F5.budget": (_budget("3 of 64 points above, worst +0.347 ± 0.107 nats (ε = 4.5): diverges."),),
    "F5.leak": (
        _order("", "40 of 64 significant (pooled over the two panels), pass."),
        _size(
            {"kind": "range", "lower": [-0.01, 0.01]},
            "at Fig. 5's 100 distributions the first phase-B book run gave undecided (about 219 "
            "distributions to decide, the row's estimate); SRR and subset merging at λ = 0.65 now run on "
            "150 more (250 in all).",
        ),
    ),
    "F5.time": (
        CriterionChange(
            "81d5fc4",
            "2026-11-27",
            "book",
            {"kind": "holds", "rule": "aorr_ratio_min >= 10 and srr_ratio_min >= 10"},
            "The second edition compared SRR with subset merging at ε ≤ 2 only (the audit's run: AORR/SM "
            "≥ 19.1, SRR/SM ≥ 11.7, pass; the audit called the narrowing weak). Extended, before its "
            "result, to every ε where at least half of the distributions have a high-risk symbol.",
        ),
        CriterionChange(
            "81d5fc4",
            "2026-11-27",
            "book",
            {"kind": "holds", "rule": "aorr_ratio_min >= 10 and srr_ratio_min >= 10"},
            "The first book-scale run of the extended comparison gave srr_ratio_min 1.98: 'fail'. The "
            "expectation was then changed to 'diverges', with AORR's half as what holds instead, after "
            "that result was seen.",
        ),
        _b(
            {
                "kind": "holds",
                "rule": "aorr_ratio_min >= 10 and srr_ratio_min >= 10",
                "instead": "aorr_ratio_min >= 10",
                "expect": "diverges",
            },
            "Was the smallest ratio of medians as a bare number. Now with BCa intervals. Seen: AORR/SM 19.99, SRR/SM "
            "1.90 (ε 3.5-5.75 below 10): diverges.",
        ),
    ),
    "F5.cross": (
        _b(
            {"kind": "holds", "rule": "disagree == 0 and points > 0", "expect": "diverges"},
            "Was a count of points whose 99 % bootstrap verdict (per ε, not simultaneous) disagrees with the "
            "paper. Now the order-statistic intervals of the medians, simultaneous over ε. Seen: 0 of 7 "
            "points slower inside [1, 2.5], 25 of 25 faster outside: diverges.",
        ),
    ),
    "V-A.vert": (
        CriterionChange(
            "81d5fc4",
            "2026-11-27",
            "book",
            {"kind": "holds", "rule": "min_slope > 0 and min_r2 >= 0.95"},
            "The second edition passed on an exponential fit's r² >= 0.95 (min r² 0.983); the third audit "
            "showed that a pure power law also meets it (r² 0.975) and gave held-out counts at |X| = 30 "
            "and 40, known when the held-out comparison was written.",
        ),
        _b(
            {
                "kind": "holds",
                "rule": "exp_err <= pow_err",
                "instead": "support_excess <= 0 and above_bound == 0",
                "expect": "diverges",
            },
            "Was the bare comparison of the two held-out errors (the support bound is V-A.bound's own row). Now the "
            "BCa interval of their difference. Seen: exp_err 0.76, pow_err 0.04: diverges.",
        ),
    ),
    "V-A.time": (
        CriterionChange(
            "81d5fc4",
            "2026-11-27",
            "smoke",
            {"kind": "monotone", "direction": "increasing", "strict": False, "tol": 0.05},
            "Evaluated at every scale until a smoke run (2 distributions per size, |X| ≤ 10) showed 'fail' "
            "on timer noise; then restricted to book and paper scale. At book scale it also failed once "
            "on a machine at load 8-10 (|X| = 6 at 3.7 ms slower than |X| = 8 at 2.8 ms) and passed twice.",
        ),
        _b(
            {"kind": "monotone", "direction": "increasing", "strict": False, "tol": 0.05},
            "Was a monotone rule on bare medians (one noisy median could fail it). Now BCa intervals of the smallest "
            "step and of the rise, each time the fastest of repeated runs with the sizes interleaved (robust to the "
            "machine's load). Seen: pass (and the one fail above).",
        ),
    ),
    "V-A.srr": (
        CriterionChange(
            "9c572aa",
            "2026-11-24",
            "book",
            {"kind": "monotone", "direction": "increasing", "strict": False, "tol": 0.0},
            "A first version graded SRR's median CPU time against its largest block; its medians "
            "flattened beyond 5 symbols (fixed costs per block dominate at these sizes) and the row was "
            "then switched to vertex counts, after that result was seen (same rule, other quantity).",
        ),
        _b(
            {"kind": "monotone", "direction": "increasing", "strict": False, "tol": 0.0},
            "Was a monotone rule on bare medians. Now BCa intervals of the smallest step and the rise. Seen: 6 sizes, "
            "increasing, pass.",
        ),
        CriterionChange(
            *_REAUDIT,
            {"kind": "range", "lower": [-0.05, 0.05]},
            "Was the same rule on SRR's median vertex counts per largest block, which the note itself "
            "called close to automatic, while the paper's claim is about time (Sec. V-A, O(max_i n_i)); "
            "the note also said that CPU time flattens beyond 5 symbols, but main's run (b290ed4) showed it "
            "rising at every step (about 1.5e-3 s at 2 symbols to 1.5e-2 s at 7). Seen: 0.314 [0.301, "
            "0.336] and 1.75 [1.67, 1.78] (vertices), pass. Returned to the original quantity, CPU time, "
            "with V-A.time's rule (the re-audit's proposal); the vertex counts stay in the note.",
        ),
    ),
    "F6.ord": (_order("", "29 of 29 significant (20 distributions), pass."), _f6(("pass", {"lower": [-0.001, 0.001]}))),
    "F6.leak": (
        _budget("0 of 58 points above, 0 violations, pass.", expect="pass", extra=" and violations == 0"),
        _f6(("pass", {"lower": None, "upper": BUDGET_TOL})),
    ),
    "F6.hl": (
        _order("", "48 of 58 significant (20 distributions), pass."),
        _f6(("undecided", {"lower": [-0.01, 0.01]})),
    ),
    "F6.run": (
        CriterionChange(
            "81d5fc4",
            "2026-11-27",
            "book",
            {"kind": "holds", "rule": "srr_median_max < 1 and sm_median_max < 1"},
            "The second edition required a median time below an arbitrary 1 s (0.083 s at book scale, "
            "0.24 s at paper scale: pass); the third audit called it a threshold that cannot fail. "
            "Replaced by the vertex count against AORR's at the paper's |X| = 17.",
        ),
        _b(
            {"kind": "holds", "rule": "srr200_max <= aorr17_max and aorr17_max > 0"},
            "Was a comparison of bare worst-ε medians. Now the BCa interval of their ratio. Seen: 610 against 16,959 "
            "vertices, pass.",
        ),
        _f6(("pass", {"lower": None, "upper": 1.0})),
    ),
    "V.scale": (
        CriterionChange(
            "81d5fc4",
            "2026-11-27",
            "book",
            {"kind": "holds", "rule": "log10_vertices_200 >= 12"},
            "The second edition extrapolated AORR's count to |X| = 200 with an exponential fit (10^21.4, "
            "pass); the third audit proved the count at most 3^|S| Σ_k C(|X|, k), 10^11.8 at |S| = 5, so "
            "the extrapolation was false. Replaced by measured counts only (AORR at |X| = 20, |S| = 15).",
        ),
        _b(
            {"kind": "holds", "rule": "srr200_max <= aorr20_max and aorr20_max > 0"},
            "Was a comparison of bare worst-ε medians (AORR on 5 distributions). Now the BCa interval of their ratio, "
            "AORR on 10 distributions (the bootstrap's minimum; a size change). Seen: 610 against 172,292, pass.",
        ),
        _f6(("pass", {"lower": None, "upper": 1.0})),
    ),
    "VI-B.conv.chi2": (
        CriterionChange(
            "81d5fc4",
            "2026-11-27",
            "book",
            {"kind": "holds", "rule": "quasi_chi2 > 0", "expect": "diverges"},
            "The second edition rested on random pairs of columns, found none and recorded 'diverges' (with prose "
            "calling "
            "the χ² constraints convex); the third audit gave a closed-form counterexample and one on the chapter's "
            "own "
            "P_SX. The row was rewritten with the audit's findings known: a linear programme now constructs the pair.",
        ),
    ),
    "D6": (
        _b(
            {"kind": "holds", "rule": "above == points_b and points_b > 0 and " + _ORDER},
            "Was counts of 3-SE intervals. Now the smallest excess and the order cells with 99 % simultaneous "
            "intervals. Seen: 45 of 45 points above ε_l, 45 of 45 significant, pass.",
        ),
    ),
    "F7.rel": (_order("", "64 of 64 significant, pass."),),
    "F7.lam.l1": (
        _order(
            "",
            "24 of 24 significant, crossover 0.955 (now its own row F7.cross.l1), pass.",
            " and crossover >= 0.75 and crossover <= 1.25",
        ),
    ),
    "F7.lam.chi2": (
        _order(
            "",
            "29 of 29 significant, crossover 0.948 (now its own row F7.cross.chi2), pass.",
            " and crossover >= 0.75 and crossover <= 1.25",
        ),
    ),
    "VI-B.comp": (
        _b(
            {"kind": "holds", "rule": "ratio_max <= 1.1", "expect": "diverges"},
            "Was the largest ratio of means as a bare number. Now Fieller's intervals, simultaneous over ε "
            "and the two measures. Seen: 1.168 (ℓ1) and 1.262 (χ²) at ε = 0.25, 1.096 at ε = 0.5: "
            "diverges.",
        ),
    ),
    "VI-B.size": (
        _order("", "9 of 12 significant, pass."),
        _size(
            {"kind": "range", "lower": [-0.05, 0.05]},
            "at Fig. 7's 1000 distributions the first phase-B book run gave undecided (about 2326 "
            "distributions to decide, the row's estimate); the block sizes of subset merging under ℓ1 and "
            "χ² at ε ≤ 0.75 now come from 5000 (the first 1000 are Fig. 7's).",
        ),
    ),
    "F8.ord": (
        _order("", "64 of 64 significant, pass.", " and reversed_lim == 0"),
        _size(
            {"kind": "range", "lower": [-0.001, 0.001, -0.001]},
            "at Fig. 8's 1000 distributions the first phase-B book run gave pass; it was raised with F8.leak "
            "(same sweep), which was undecided there, to 6000 (the first 1000 are Fig. 8's).",
        ),
    ),
    "F8.leak": (
        _order("", "124 of 128 significant, pass.", " and reversed_lim == 0"),
        _size(
            {"kind": "range", "lower": [-0.01, 0.01, -0.01]},
            "at Fig. 8's 1000 distributions the first phase-B book run gave undecided (about 3347 "
            "distributions to decide, the row's estimate); the α = 2, 10, 100 and ALIP curves now run on "
            "6000 (the first 1000 are Fig. 8's).",
        ),
    ),
}
CLAIMS = {
    cid: replace(c, scales=("book", "paper") if cid in BOOK_ONLY else c.scales, changes=LOG.get(cid, ()))
    for cid, c in CLAIMS.items()
}
