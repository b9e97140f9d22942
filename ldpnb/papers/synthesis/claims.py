"""The synthesis chapter's claims.  Each is a bound that follows from a definition (``derived``), a
property of our objects (``invariant``), a published statement tested here (``paper``, with its source),
or a paper's conclusion tested outside the setting the paper used (``extension``).

Monte Carlo rows record an :class:`ldpnb.stats.Estimate` (a value with its confidence interval) and
are decided with three outcomes (holds, reversed, undecided); each declares its region, its tie
tolerance and the ``effect`` at which the claim is materially false, fixed before the run.  Where a
criterion was changed after a recorded result, ``changes=`` keeps the earlier criterion (the decision
log): the phase-A changes of the second edition (commits bc2a946, 82a222e, f66a478, 2026-11-27/28),
and the move of every Monte Carlo row onto :mod:`ldpnb.stats` (phase B, commit :data:`PHASE_B`).
"""

from ldpnb.papers.synthesis.experiments import GEO
from ldpnb.papers.synthesis.guide import GRIDS
from ldpnb.repro.claims import Claim, CriterionChange, Printed, claim_table

#: The commit that moved the Monte Carlo rows onto ldpnb.stats (the criteria, before any run of the code).
PHASE_B = "043b558"
_DATE_A, _DATE_B = "2026-11-27", "2026-11-28"


def _was(
    commit: str, date: str, reason: str, kind: str = "holds", *, expect: str = "pass", seen: str = "book", **criterion
) -> CriterionChange:
    """One entry of a row's decision log: the criterion before ``commit`` changed it."""
    return CriterionChange(commit, date, seen, {"kind": kind, "expect": expect, **criterion}, reason)


_AUDIT = (
    "changed after the audit of the first edition, which had seen that edition's book- and paper-scale results "
    "(commit bc2a946)"
)
_STATS = (
    "moved onto ldpnb.stats after the book-scale result of main (phase A, recorded at 29b3115): the estimate's "
    "interval is decided with three outcomes against a region fixed before the run"
)

_M_FIRST = (
    "the criterion of 771fc93 (2026-11-24, fixed before any run of the matched comparisons) expected the metric "
    "mechanisms and BA to be the more economical; the first book-scale run (2026-11-24, not recorded in results/) "
    "failed it for every mechanism, and 0b16227 declared the row a divergence with an `instead` rule (expect "
    "pass -> diverges; the rule unchanged) without this entry, added by the synthesis re-read of 2026-11-29"
)
_WITH_FIRST = (
    "the row arrived with its first result: the commit that added it (3cacd3c, 2026-11-24, 'four measured "
    "divergences (E2, E4a, E7a, K3)') declared it a divergence with its `instead` rule, both set after the chapter's "
    "first run had been seen (at the chapter's default scale then, book; that run is not recorded in results/). No "
    "earlier criterion exists, so the one shown is the claim as stated, expected to pass. The entry was missing "
    "until the synthesis re-read of 2026-11-29"
)
#: E1's and E2c's pointer to the paper-scale records, which grade the criterion fixed at 043b558.
_RECORDS_PASS = (
    "The expectation (pass) was fixed at 043b558, before any paper-scale run of this criterion; every such "
    "record (results/paper/synthesis.json as committed at fce4523, d219319, 7c5062a and ce46003) has {row} "
    "pass."
)
_RECORD = (
    "the paper-scale record of 7cb7f57 (results/paper/synthesis.json as committed at ce46003; the record of "
    "d17fabb, committed at 7c5062a, has the same numbers to the digits quoted)"
)

#: The chapter's sizes at each scale (runs per cell, points per curve, re-identification draws); the
#: chapter reads ``SIZES_BY_SCALE[SCALE]``.  ``frontier`` names the families of the utility frontier
#: (``None``: every family the data set admits).
SIZES_BY_SCALE: dict[str, dict] = {
    "smoke": dict(
        runs=4,
        runs_geo=6,
        points=4,
        runs_u=3,
        points_u=3,
        runs_a=4,
        reid=500,
        frontier=["k-RR", "planar Laplace", "AORR"],
    ),
    "book": dict(runs=40, runs_geo=400, points=10, runs_u=10, points_u=6, runs_a=200, reid=20_000, frontier=None),
    "paper": dict(runs=200, runs_geo=1_000, points=16, runs_u=50, points_u=12, runs_a=400, reid=50_000, frontier=None),
}

_METRIC = [n for n in GEO if n != "BA"]
_LDP_FAMILIES = (
    f"k-RR, SUE, OUE, OLH, SS, SMP, RS+FD, RS+RFD, the {len(_METRIC)} metric mechanisms ({', '.join(_METRIC)}), "
    "BA and the catalogue's other families in the lens table"
)
#: The ε values of rows W1 and W2 (the chapter checks the rule on the book grid at every scale).
_EPS_W = GRIDS["book"]["eps"]

CLAIMS = claim_table(
    # ---- the set-up ----------------------------------------------------------------------------
    Claim(
        "S1",
        "Every mechanism's exact channel keeps the claim its object states (tight level ≤ claim), on both "
        "data sets at the operating point",
        source="invariant",
        kind="holds",
        rule="failures == 0 and checked >= 30",
        where="Mechanism.check() on the exact log-channel (ldpnb.mechanisms)",
    ),
    Claim(
        "S2",
        "The operating point is matched: every family with a finite ε-LDP level on X is tight 1-LDP "
        "(largest |level − 1| over " + _LDP_FAMILIES + ", both data sets)",
        source="invariant",
        kind="close",
        reference=0.0,
        atol=1e-6,
        where="root finding on each family's parameter (experiments.match_parameter)",
    ),
    # ---- bounds that follow from the definitions --------------------------------------------------
    Claim(
        "D1",
        "ε-LDP about X implies ε-LDP about the secret S: the LDP-w.r.t.-S leakage never exceeds the "
        "ε-LDP level on X (every finite-level mechanism, every point of the sweeps, Adult)",
        source="derived",
        kind="holds",
        rule="violations == 0 and checked > 0",
        where="P(y | s) is a mixture of the rows P(y | x) (post-processing); LDP w.r.t. S as defined by Zarrabian "
        "et al., Def. 2",
    ),
    Claim(
        "D2",
        "I(X;Y) ≤ min(ε, ε²) nats at the tight ε-LDP level (every finite-level mechanism, every sweep "
        "point, both data sets)",
        source="derived",
        kind="holds",
        rule="violations == 0 and checked > 0",
        where="Cuff and Yu (2016), Lemma 1 (used by the PIE paper, Lemma B.2)",
    ),
    Claim(
        "D3",
        "Bayes leakage about S is bounded by the max-lift: V(S|Y) ≤ e^{max-lift leakage} V(S), every "
        "mechanism including the lift-based ones, every sweep point (Adult)",
        source="derived",
        kind="holds",
        rule="violations == 0 and checked > 0",
        where="P(s|y) = Λ(s,y) P(s) ≤ e^{ε_u} P(s) (Zarrabian et al., Def. 3) summed over y",
    ),
    Claim(
        "D4",
        "The PIE paper's Fano bound is below the exact Bayes re-identification error (1 − V(U|Y)) of "
        "every mechanism on Gowalla, at every sweep point",
        source="derived",
        kind="holds",
        rule="violations == 0 and checked > 0",
        where="PIE paper, Prop. 3.7 / Cor. 3.9 (uniform prior over the users)",
    ),
    Claim(
        "D5",
        "The lift-based mechanisms keep their ALIP budget at the operating point "
        "(largest max-lift and min-lift leakage ≤ 0.5 nats)",
        source="derived",
        kind="range",
        upper=0.5 * (1 + 1e-9),
        one_sided=True,
        where="Zarrabian et al., Thm 1 (merging), LP (22) (ORR), Algorithm 2 (SRR)",
    ),
    Claim(
        "D6",
        "Attribute inference from the report never beats attribute inference from X itself: "
        "V(S|Y) ≤ V(S|X) for every mechanism at every sweep point (Adult)",
        source="derived",
        kind="holds",
        rule="violations == 0 and checked > 0",
        where="data processing: Y depends on S only through X",
    ),
    Claim(
        "D8",
        "At the operating point the PIE paper's Fano bound leaves a re-identification error of at least "
        "1 − (min(1, 1²)/ln 2 + 1)/log2 n for every 1-LDP mechanism (n = 48,842 on Adult, 1,010 on Gowalla; "
        "smallest margin)",
        source="derived",
        kind="range",
        lower=-1e-12,
        one_sided=True,
        where="D2 (Cuff and Yu) composed with Cor. 3.9 of the PIE paper",
        implied_by="D2",
        note="A consequence of D2, not a separate check: the margin is (1/ln 2 − I(U;Y))/log2 n with I(U;Y) ≤ "
        "I(X;Y) in bits, non-negative iff the information is at most 1 nat, which is Cuff and Yu's bound (D2's) at "
        "ε = 1. What the row adds is a number a reader can use: the re-identification error that 1-LDP alone "
        "guarantees through Fano (1 − (1/ln 2 + 1)/log2 n: 0.755 on Gowalla's 1,010 users, 0.843 on Adult's "
        "48,842), and, as its value, how far the least favourable mechanism stays above it.",
        changes=(
            _was(
                "c62d3fe",
                _DATE_B,
                "the same range criterion; the row was counted as a separate check (status pass) although it "
                "follows from D2's bound at ε = 1; declared implied_by D2 (status implied) after the paper-scale record "
                "of main (D8 pass, smallest margin 0.0817) and a review that found it repeats D2",
                kind="range",
                seen="paper",
                lower=-1e-12,
                one_sided=True,
                implied_by=None,
            ),
        ),
    ),
    # ---- the IBU paper's conclusion outside its setting ------------------------------------------
    Claim(
        "E1",
        "IBU run to a certified optimum estimates P_X with a smaller EMD than INV (the inverse of the "
        "channel) for every non-degenerate geo-indistinguishable mechanism, Adult, at the operating point",
        source="extension",
        kind="order",
        relation="IBU < INV",
        tie=1e-9,
        effect=0.005,
        where="IBU paper (ElSalamouny and Palamidessi 2020), abstract and Sec. 7 (7.1, 7.3, Fig. 9): IBU 'significantly "
        "outperforms "
        "the other methods' for the geometric, Laplace and exponential mechanisms; here also the planar ones, "
        "on Adult's age-hours grid",
        note="Per mechanism (geometric, Laplace, exponential, planar geometric, planar Laplace; BA at the operating "
        "point is a constant report and left out), the paired mean difference EMD(INV) − EMD(IBU) over the same "
        "collections, 95 % intervals simultaneous over the mechanisms (Bonferroni); differences within 1e-9 bins "
        "are ties. Falsifier: IBU worse by 0.005 bins (5 % of a typical EMD of INV, 0.1 bins). IBU stops at a "
        "certified log-likelihood gap of 1e-10 nats per report. " + _RECORDS_PASS.format(row="E1"),
        changes=(
            _was(
                "bc2a946",
                _DATE_A,
                "BA at the operating point reports one cell with probability above 1 − 1e-9 "
                "and the first edition counted its constant-report difference (SE 0) as a pass; degenerate "
                "channels left out; " + _AUDIT,
                rule="max(upper) < 0",
            ),
            _was(
                "82a222e",
                _DATE_A,
                "the first book-scale run of the second edition had the exponential "
                "mechanism within 2 paired SE (upper +0.0015 bins); declared a divergence after that run",
                rule="max(upper) < 0 and checked >= 5",
            ),
            _was(
                PHASE_B,
                _DATE_B,
                "the exponential mechanism's difference is within noise, which the "
                "three-outcome criterion calls undecided (not a divergence); the paper's claim is graded as "
                "stated, " + _STATS,
                rule="max(upper) < 0 and checked >= 5",
                expect="diverges",
                instead="max(lower) < 0 and checked >= 5",
            ),
        ),
    ),
    Claim(
        "E2",
        "For k-RR and basic RAPPOR (SUE) IBU is comparable to the standard estimator: the ratio of their mean "
        "EMDs lies within [0.90, 1.10] (Adult, operating point; IBU run to a certified optimum)",
        source="paper",
        kind="range",
        lower=0.90,
        upper=1.10,
        domain=(0, None),
        effect=0.05,
        paper=Printed(
            "IBU 'is comparable to the other methods in the case of the k-RR and Rappor mechanisms'",
            "IBU paper (ElSalamouny and Palamidessi 2020), abstract and Sec. 1",
        ),
        where="IBU paper, abstract and Sec. 1; the standard estimator is the support-count estimate of a pure "
        "protocol (Wang et al. 2017; printed as Eq. (2) of the risks paper), clipped and renormalised (for k-RR "
        "the closed-form inversion)",
        note="Ratio mean EMD(IBU) / mean EMD(standard) from paired collections (Fieller), 95 % intervals simultaneous "
        "over the two oracles. The 10 % reading of 'comparable' was fixed knowing the audit's measurement with "
        "the early-stopped IBU (SUE: 3.7 ± 1.7 % better than the standard estimator). Falsifier: a ratio 5 % "
        "beyond the band.",
        changes=(
            _was(
                "bc2a946",
                _DATE_A,
                "the first edition misquoted the IBU paper (as finding IBU better for k-RR "
                "and RAPPOR), compared IBU with a pseudo-inverse of the whole channel and stopped IBU early; " + _AUDIT,
                rule="max(upper_rel) < -0.01",
                expect="diverges",
                instead="max(lower) <= 0",
            ),
            _was(
                PHASE_B,
                _DATE_B,
                "a paired ratio with its interval replaces (|mean difference| + 2 SE) / EMD; same band; " + _STATS,
                rule="max(rel_bound) <= 0.10",
            ),
        ),
    ),
    Claim(
        "E3",
        "The same as E1 for the non-degenerate geo-indistinguishable mechanisms on Gowalla (Manhattan, 4 × 3 cells)",
        source="extension",
        kind="order",
        relation="IBU < INV",
        tie=1e-9,
        effect=0.02,
        where="IBU paper, Secs. 7.2-7.3 (Gowalla, planar geometric/Laplace; Figs. 8, 9); PRIVIC (BA)",
        note="As E1 (paired differences EMD(INV) − EMD(IBU), km, simultaneous 95 % intervals over the mechanisms, "
        "ties within 1e-9 km); the falsifier, IBU worse by 0.02 km, is 5 % of a typical EMD of INV there.",
        changes=(
            _was(
                "bc2a946",
                _DATE_A,
                "degenerate channels left out (BA at the operating point is a constant report); " + _AUDIT,
                rule="max(upper) < 0",
            ),
            _was(PHASE_B, _DATE_B, _STATS, rule="max(upper) < 0 and checked >= 5"),
        ),
    ),
)

CLAIMS.update(
    claim_table(
        Claim(
            "D7",
            "Attribute inference gains nothing where the lift is small: V(S|Y) = V(S) for every mechanism "
            "whose max-lift plus min-lift leakage is at most log(P(s*)/P(s')) (binary S), every sweep point",
            source="derived",
            kind="holds",
            rule="violations == 0 and checked > 0",
            where="P(s'|y) ≤ e^{ℓ_max} P(s') ≤ e^{−ℓ_min} P(s*) ≤ P(s*|y): the best guess never changes",
        ),
        Claim(
            "S3",
            "The multidimensional protocols (SMP, RS+FD, RS+RFD) identify only the marginals: their channels on "
            "the 4 × 3 tuple have rank at most 1 + (4 − 1) + (3 − 1) = 6 < 12, on both data sets",
            source="derived",
            kind="holds",
            rule="violations == 0 and checked == 6",
            where=(
                "P(y|v) = Σ_j (1/d) P_j(y_j|v_j) Π_{i≠j} P_fake(y_i): a sum of per-attribute terms (risks paper, Sec. "
                "2.3)"
            ),
        ),
        Claim(
            "E2b",
            "For a square invertible channel the INV estimate is the maximum-likelihood estimate whenever it lies "
            "in the simplex, so IBU run to its optimum returns it: for k-RR on Adult at the operating point, over "
            "the runs whose INV estimate is in the simplex, the largest |EMD(IBU) − EMD(INV)| is at most 1e-6 bins",
            source="derived",
            kind="holds",
            rule="max_gap <= 1e-6 and in_simplex > 0",
            where="the log-likelihood of a square invertible channel is maximised over all vectors summing to 1 at "
            "θ = q C⁻¹ (the IBU paper's INV, Sec. 7); if that point has no negative entry it is the MLE (the chapter's "
            "proposition; Agrawal and Aggarwal 2001); IBU certified to 1e-10 nats per report",
            note="Changed after the audit of the first edition, whose E2b measured IBU's early stop (the IBU paper's "
            "log-likelihood rule): 0.4 % of the EMD at 3.3 paired SE, 'close, not identical'. Converged, the two "
            "coincide; the early stop is row E2c. The tolerance 1e-6 bins is numerical (the certificate bounds the "
            "log-likelihood gap, not the distance), fixed before this row's first run.",
            changes=(
                _was(
                    "bc2a946",
                    _DATE_A,
                    "the first edition's E2b measured IBU's early stop; converged IBU equals INV "
                    "inside the simplex (a theorem); " + _AUDIT,
                    rule="max(gap) <= 0",
                    expect="diverges",
                    instead="max(excess) <= 0",
                ),
            ),
        ),
        Claim(
            "E2c",
            "The IBU paper's stopping rule acts as a regulariser: for every frequency oracle on Adult at the "
            "operating point, IBU stopped by the log-likelihood rule (tolerance 1e-9 per report) has a smaller mean "
            "EMD than IBU run to its optimum",
            source="extension",
            kind="order",
            relation="early < converged",
            tie=1e-9,
            effect=5e-4,
            where="IBU paper, Sec. 3.2 (Algorithm 1's stopping rule); from the uniform start an early stop shrinks "
            "the estimate towards the uniform distribution",
            note="Per oracle (k-RR, SUE, OUE, OLH, SS), the paired mean difference EMD(converged) − EMD(early) over the "
            "same collections, 95 % intervals simultaneous over the oracles; ties within 1e-9 bins. Falsifier: the "
            "early stop worse by 5e-4 bins (1 % of the oracles' EMD, about 0.05 bins). "
            + _RECORDS_PASS.format(row="E2c"),
            changes=(
                _was(
                    "82a222e",
                    _DATE_A,
                    "the first book-scale run had OUE within 2 paired SE (upper +3.6e-5 bins); "
                    "declared a divergence after that run",
                    rule="max(upper) < 0",
                ),
                _was(
                    PHASE_B,
                    _DATE_B,
                    "OUE's difference is within noise, which the three-outcome criterion calls "
                    "undecided, not a divergence; the claim is graded as first stated, " + _STATS,
                    rule="max(upper) < 0",
                    expect="diverges",
                    instead="max(lower) < 0",
                ),
            ),
        ),
        Claim(
            "E2d",
            "The first edition's INV for the unary encodings and local hashing (the pseudo-inverse of the whole "
            "channel, over 4,096 outputs) has a larger exact variance than the standard support-count estimator, "
            "and the same for k-RR and SS (ratios of exact total variances on Adult at 1-LDP)",
            source="derived",
            kind="holds",
            rule="min(ratio_ue_lh) > 1.05 and max(ratio_grr_ss_gap) < 1e-9",
            where="both are unbiased linear estimators; the support-count estimate (Wang et al. 2017) weighs each output "
            "by its support; "
            "the pseudo-inverse weighs the 4,096 outputs equally. Exact variances: variance.linear_total_variance",
            note="ratio_ue_lh = Var(pseudo-inverse)/Var(standard) for SUE, OUE, OLH; ratio_grr_ss_gap = "
            "|ratio − 1| for k-RR and SS. The audit of the first edition found 1.26×, 2.17× and 2.30×.",
        ),
        # ---- the PIE paper -------------------------------------------------------------------------------
        Claim(
            "E4a",
            "The PIE paper's bound ordering of RR and GLH (θ_RR vs θ_GLH, OLH's g = round(e^ε) + 1) predicts "
            "the ordering of their exact PIE on Gowalla at ε ∈ {0.5, 1, 2, 4, 6}",
            source="extension",
            kind="holds",
            rule="mismatches == 0 and checked == 5",
            where="PIE paper, Thms 4.2 and 4.4: I(U;Y) ≤ θ I(U;X)",
            expect="diverges",
            instead="mismatches <= 1",
            note="At ε = 2 OLH's g = 8 is close to k = 12: the bounds favour RR (θ_RR < θ_GLH) but the exact PIE of the two "
            "differs by 2% the other way (RR 0.153, OLH 0.150 bits); the bounds are not tight enough to order "
            "near-equal mechanisms. Instead: the ordering fails at one ε at most. The instead rule was written "
            "after that result and allows exactly the one mismatch it found (decision log): it records the result "
            "rather than testing a prediction.",
            changes=(
                _was(
                    "3cacd3c",
                    "2026-11-24",
                    _WITH_FIRST + ". The `instead` rule, mismatches <= 1, admits exactly the count that run found "
                    "(1 of 5, at ε = 2; the numbers are exact, the same at every scale)",
                    rule="mismatches == 0 and checked == 5",
                ),
            ),
        ),
        Claim(
            "E4b",
            "The same ordering predicts which of RR and OLH leaks more about the secret (lift lens: "
            "LDP-w.r.t.-S leakage, Adult, ε ∈ {0.5, 1, 2, 4, 6}): at each ε the mechanism the bounds call less "
            "leaky leaks strictly less, beyond a tie of 1e-9 nats",
            source="extension",
            kind="order",
            relation="predicted_less < predicted_more",
            tie=1e-9,
            where="PIE paper, Thms 4.2 and 4.4, read in the lift lens (Zarrabian et al.)",
            expect="diverges",
            instead="max(predicted_less - predicted_more) <= 1e-9",
            note="predicted_less / predicted_more: at each ε, the exact leakage of the mechanism with the smaller / "
            "larger θ bound. The ties are structural (row E4c): OLH never leaks less than RR in this lens, so 'RR "
            "leaks more' can never hold strictly. Instead: the prediction is never strictly reversed (within the "
            "tie tolerance).",
            changes=(
                _was(
                    "bc2a946",
                    _DATE_A,
                    "the first edition passed this row (0 of 5 mismatches) although at ε = 4 and "
                    "6 the two leakages differ by 6e-15 and 3e-14 nats: the sign of a rounding error decided the "
                    "'match'; " + _AUDIT,
                    rule="mismatches == 0 and checked == 5",
                ),
                _was(
                    PHASE_B,
                    _DATE_B,
                    "the same test as an order with a declared tie tolerance (ldpnb.repro.claims "
                    "ties); phase A counted ties by hand at 1e-9 relative",
                    rule="mismatches == 0 and ties == 0 and checked == 5",
                    expect="diverges",
                    instead="reversed == 0 and checked == 5",
                ),
            ),
        ),
        Claim(
            "E4c",
            "OLH's LDP-w.r.t.-S leakage is never below k-RR's: every column of OLH's support-set channel is "
            "proportional to (e^ε on its support set, 1 off it), and its singletons are k-RR's columns (smallest "
            "OLH − RR over a sweep of ε, Adult)",
            source="derived",
            kind="range",
            lower=-1e-12,
            one_sided=True,
            where="the leakage is a maximum over columns (Zarrabian et al., Def. 2); OLH's column set contains k-RR's "
            "up to scale (Wang et al. 2017, OLH; the support-set channel of ldpnb.mechanisms.LocalHashing)",
        ),
        # ---- the lift paper ----------------------------------------------------------------------------
        Claim(
            "E5",
            "On Adult the lift paper's utility order holds at every budget of the sweep: complete merging ≤ "
            "subset merging ≤ SRR ≤ AORR in I(X;Y)",
            source="extension",
            kind="order",
            relation="complete <= subset <= SRR <= AORR",
            atol=1e-9,
            where="Zarrabian et al., Sec. IV-VI, Figs. 3-5 (synthetic joints); here the real Adult joint",
        ),
        Claim(
            "E6",
            "The ALIP guarantee does not limit re-identification: at equal *measured* leakage about S (each "
            "lift-based mechanism's budget set so that its LDP-w.r.t.-S leakage is as close as its jumps allow to "
            "k-RR's at 1-LDP), every lift-based mechanism's V(X|Y) exceeds every 1-LDP mechanism's (Adult)",
            source="extension",
            kind="order",
            relation="LDP < lift",
            atol=0.0,
            where="ALIP bounds P(s|y)/P(s) only; the watchdog publishes low-risk values unchanged (Sec. III)",
            note="Changed after the audit of the first edition, which matched the lift-based mechanisms through a "
            "bound (ALIP 0.5, 'as every 1-LDP mechanism'): their measured leakage about S was then 0.61-0.88 nats "
            "against 0.32-0.59 for the 1-LDP mechanisms. The target and the achieved leakages are in the run's note.",
            changes=(
                _was(
                    "bc2a946",
                    _DATE_A,
                    "the criterion is unchanged; the lift-based mechanisms are now matched on "
                    "measured leakage about S instead of the ALIP bound, written knowing the audit's numbers; "
                    + _AUDIT,
                    kind="order",
                    relation="LDP < lift",
                    atol=0.0,
                ),
            ),
        ),
        Claim(
            "E11",
            "AORR keeps the information of the perfect-privacy response at every budget: its I(X;Y) never falls "
            "below the ε → 0 limit (bits, smallest gap along the sweep)",
            source="derived",
            kind="range",
            lower=-1e-9,
            one_sided=True,
            where="the feasible set of LP (22) grows with the budget and contains the perfect-privacy columns",
        ),
        # ---- the risks paper ---------------------------------------------------------------------------
        Claim(
            "E7a",
            "RS+FD leaks less identifying information (PIE) than SMP at the ε the risks paper states (ε = 1, Gowalla)",
            source="extension",
            kind="order",
            relation="RSFD < SMP",
            atol=0.0,
            where="risks paper (Arcolezi et al. 2023), Sec. 4-5: fake data hides the sampled attribute",
            expect="diverges",
            instead="RSFD_tight < SMP",
            note="At a stated ε = 1 RS+FD's randomiser runs at the amplified ε' = ln(d(e^ε − 1) + 1) = 1.49, so its "
            "channel is 1.49-LDP, not 1-LDP; it then leaks more than SMP. Instead (RSFD_tight): at an equal "
            "tight level, RS+FD leaks less.",
            changes=(
                _was(
                    "3cacd3c",
                    "2026-11-24",
                    _WITH_FIRST + ". The `instead` rule (RS+FD at an equal tight level) was chosen knowing that run's "
                    "exact PIE values (the numbers are exact, the same at every scale)",
                    kind="order",
                    relation="RSFD < SMP",
                    atol=0.0,
                ),
            ),
        ),
        Claim(
            "E7b",
            "At an equal tight level (the operating point) RS+FD's reports also leak less about the secret S than "
            "SMP's (LDP-w.r.t.-S leakage, Adult)",
            source="extension",
            kind="order",
            relation="RSFD < SMP",
            atol=0.0,
            where="risks paper, Sec. 5 (attribute inference), here in the lift lens",
        ),
        # ---- PRIVIC -------------------------------------------------------------------------------------
        Claim(
            "E8",
            "Rate-distortion lens where it is informative: at every sweep point of every square-channel mechanism "
            "whose expected distortion is below that of the best constant report (so that R(D) > 0), a BA channel "
            "with the same distortion releases no more information I(X;Y) (both data sets)",
            source="derived",
            kind="holds",
            rule="violations == 0 and checked >= 10",
            where="PRIVIC, Def. 2.3 and Def. 2.9 (BA: the channel of least I(X;Y) at a given average distortion, β the "
            "negative slope of R(D)); chords of the traced curve are achievable",
            note="Changed after the audit of the first edition, which compared at the operating point, where every "
            "mechanism's distortion exceeds the best constant report's: the comparison value was R(D) = 0 for all "
            "18 checks and the row could not fail. checked counts only points with I_BA(D) > 1e-6 bits.",
            changes=(
                _was(
                    "bc2a946",
                    _DATE_A,
                    "the comparison moved to the sweep points where R(D) > 0, knowing that "
                    "every operating-point comparison was against R(D) = 0; " + _AUDIT,
                    rule="violations == 0 and checked > 0",
                ),
            ),
        ),
        Claim(
            "E8b",
            "BA at matched distortion: at the expected distortion of each metric mechanism at k-RR's information "
            "(the parameters of M1), BA (β root-found to that distortion) is not degenerate and releases less "
            "information than the metric mechanism",
            source="derived",
            kind="holds",
            rule="violations == 0 and degenerate == 0 and checked >= 4",
            where="PRIVIC, Def. 2.9: BA minimises I(X;Y) at a given expected distortion",
            expect="diverges",
            instead="violations == 0 and degenerate == checked and checked >= 4",
            note="Criterion fixed first (commit bc2a946); an exact computation before the first book-scale run then "
            "showed it cannot hold: at k-RR's 1-LDP information (0.091 bits) every metric mechanism's expected "
            "distortion (1.40-1.57 bins) exceeds that of the best constant report (1.23 bins), where R(D) = 0, so "
            "BA at matched distortion is a constant report. At that information a metric mechanism's report is on "
            "average farther from the truth than a fixed guess. Instead: BA releases no more information and is "
            "degenerate at every one of these distortions. BA at matched distortion where R(D) > 0 is row E8, "
            "along the sweeps.",
            changes=(
                _was(
                    "82a222e",
                    _DATE_A,
                    "declared a divergence after an exact computation made before the first "
                    "book-scale run (no recorded row had been seen): at k-RR's information every metric mechanism's "
                    "distortion exceeds the best constant report's",
                    rule="violations == 0 and degenerate == 0 and checked >= 4",
                ),
            ),
        ),
        Claim(
            "E9",
            "BA's tight geo-indistinguishability level never exceeds 2β (both data sets, every sweep point)",
            source="invariant",
            kind="holds",
            rule="violations == 0 and checked > 0",
            where="PRIVIC, Remark 4",
        ),
        # ---- the IBU paper, along the sweeps --------------------------------------------------------------
        Claim(
            "E10",
            "Utility improves with the privacy parameter: along the sweep of every family with a finite ε-LDP "
            "level the mean EMD after IBU never increases from one sweep point to the next by more than 10 % of "
            "its value (Adult)",
            source="extension",
            kind="order",
            relation="next <= previous",
            rtol=0.10,
            effect=0.02,
            where="IBU paper, Figs. 9, 10, 12 (EMD decreasing in ε for the geometric mechanisms, k-RR, RAPPOR); here "
            "every family whose channel changes continuously with its parameter (merging mechanisms change their "
            "blocks in jumps)",
            note="Per step of every sweep, the difference of the mean EMDs at two consecutive parameters (independent "
            "collections, Welch), 95 % intervals simultaneous over the steps; an increase within 10 % of the "
            "previous EMD is not a material violation. Falsifier: an increase by 10 % of the EMD plus 0.02 bins.",
            changes=(
                _was(
                    "82a222e",
                    _DATE_A,
                    "the first edition declared this row a divergence (one step up at the "
                    "smallest parameters); with IBU run to a certified optimum the first book-scale run of the "
                    "second edition had no step up, and the expectation was changed back to pass after that run",
                    rule="increases == 0 and checked > 0",
                    expect="diverges",
                    instead="increases_high == 0 and checked_high > 0",
                ),
                _was(
                    PHASE_B,
                    _DATE_B,
                    "an increase beyond 2 SE of the difference counted as a violation and a "
                    "step within noise as a pass; now each step is an interval decided against a 10 % tolerance "
                    "(undecided when the interval is wider), " + _STATS,
                    rule="increases == 0 and checked > 0",
                ),
            ),
        ),
        # ---- rank agreement ------------------------------------------------------------------------------
        Claim(
            "K1",
            "The two lenses on X agree: Kendall τ-b between I(X;Y) and V(X|Y) over the 18 mechanisms at the "
            "operating point is at least 0.6 (Adult; values within 1e-9 of the lens's largest value are ties)",
            source="extension",
            kind="range",
            lower=0.6,
            one_sided=True,
            domain=(-1, 1),
            effect=0.1,
            where="both are functionals of the posterior on X; τ ≥ 0.6 is 'strong agreement'",
            note="τ-b with a tie tolerance (ldpnb.stats.kendall_tau) and its 95 % jackknife interval over the mechanisms "
            "(the lower end must reach 0.6). Falsifier: τ = 0.5.",
            changes=(
                _was(
                    "bc2a946",
                    _DATE_A,
                    "ties at float noise became ties (the first edition ranked them by "
                    "rounding noise; K1's value was unaffected); " + _AUDIT,
                    kind="range",
                    lower=0.6,
                ),
                _was(
                    PHASE_B,
                    _DATE_B,
                    "the point value of τ against 0.6 became the lower end of its interval over "
                    "the mechanisms; " + _STATS,
                    kind="range",
                    lower=0.6,
                ),
            ),
        ),
        Claim(
            "K2",
            "The lens on X predicts the lens on S: τ-b(I(X;Y), LDP-w.r.t.-S leakage) ≥ 0.5 (Adult; ties within "
            "1e-9 of each lens's largest value)",
            source="extension",
            kind="range",
            lower=0.5,
            one_sided=True,
            domain=(-1, 1),
            effect=0.1,
            where="PIE (information about X) against ALIP (about S)",
            note="As K1: τ-b with a tie tolerance and its 95 % jackknife interval over the mechanisms. Falsifier: τ = 0.4.",
            changes=(
                _was(
                    "bc2a946",
                    _DATE_A,
                    "ties at float noise became ties (five oracles' leakages agree to 1e-14; "
                    "the first edition's τ 0.752 ranked them by noise); " + _AUDIT,
                    kind="range",
                    lower=0.5,
                ),
                _was(
                    PHASE_B,
                    _DATE_B,
                    "the point value of τ against 0.5 became the lower end of its interval over "
                    "the mechanisms; " + _STATS,
                    kind="range",
                    lower=0.5,
                ),
            ),
        ),
        Claim(
            "K3",
            "Every pair of mechanisms that the information lens and the utility lens order differently is "
            "explained: a channel that merges inputs (rank < k) or exactly one metric mechanism (Adult)",
            source="extension",
            kind="holds",
            rule="other == 0 and explained > 0",
            where="the discordant pairs of I(X;Y) and the EMD after IBU, sorted by experiments.explain_discordance",
            expect="diverges",
            instead="other == within and explained > 0",
            note="A pair is discordant when I(X;Y) orders it strictly (ties within 1e-9 of the largest value) and the "
            "EMDs are ordered the other way beyond noise (Welch 95 % intervals of the difference, simultaneous over "
            "the pairs); a pair whose EMDs are within noise is tied. Pairs of the same class (two frequency "
            "oracles, two metric mechanisms, AORR and SRR) also swap: within a class the differences in I(X;Y) are "
            "small and the EMD depends on how the channel spreads its noise. Instead: every unexplained pair is "
            "within one class. What the instead rule tests: the classes partition the mechanisms, a pair with "
            "exactly one metric mechanism is explained, and so is a pair with a channel of rank < 12 (at the "
            "operating point BA, both watchdogs and the three multidimensional protocols), so the rule can fail "
            "only through a discordant pair of a frequency oracle with AORR or SRR (the full-rank lift-based "
            "channels): it records that no such pair is discordant, and says nothing about the within-class pairs.",
            changes=(
                _was(
                    "3cacd3c",
                    "2026-11-24",
                    _WITH_FIRST + ". The `instead` rule (every unexplained pair within one class) was written "
                    "knowing which pairs that run found discordant",
                    rule="other == 0 and explained > 0",
                ),
                _was(
                    PHASE_B,
                    _DATE_B,
                    "the same rule; the EMD's order now ties the pairs within Monte Carlo noise "
                    "(phase A ordered the mean EMDs, tying only float noise)",
                    rule="other == 0 and explained > 0",
                    expect="diverges",
                    instead="other == within and explained > 0",
                ),
            ),
        ),
        # ---- re-identification over collections ------------------------------------------------------------
        Claim(
            "U1",
            "Re-identification after t ∈ {1, 4, 16} collections stays below the PIE paper's bound "
            "(t I(U;Y) + 1)/log2 n, wherever the bound is below 1 (Gowalla: every mechanism at the operating "
            "point, and k-RR, OUE and SS at tight 4- and 8-LDP, where the reports carry the most information)",
            source="derived",
            kind="range",
            upper=1.0,
            one_sided=True,
            domain=(0, None),
            effect=0.1,
            where="PIE paper, Cor. 3.9 (Fano) with I(U;Y_1..Y_t) ≤ t I(U;Y) for reports independent given U",
            note="The ratio accuracy / bound per (mechanism, level, t), the accuracy exact at t = 1 and a Monte Carlo "
            "mean with its standard error beyond (normal intervals, simultaneous over the cells). At the operating "
            "point the bound cannot fall below 1/log2 n = 0.10 while one report identifies at most 12 of the 1,010 "
            "users, so those cells cannot come near it; the 4- and 8-LDP cells are where the bound can bind.",
            changes=(
                _was(
                    PHASE_B,
                    _DATE_B,
                    "the first edition's check (accuracy − 2 SE above the bound) could not fail "
                    "in practice (bound ≥ 0.10, accuracy ≤ 0.0115, audit D12); high-information cells added and "
                    "the ratio decided from its interval; " + _STATS,
                    rule="violations == 0 and checked > 0",
                ),
            ),
        ),
        Claim(
            "U2",
            "Re-identification accuracy does not decrease with the number of collections (every mechanism at the "
            "operating point, Gowalla, t = 1 → 4 → 16): no step down by more than a blind guess's accuracy 1/n",
            source="extension",
            kind="order",
            relation="t1 <= t4 <= t16",
            tie=1 / 1010,
            effect=0.001,
            where="risks paper, Sec. 4 (more surveys, more re-identification); here for every mechanism",
            note="Per mechanism and step, the difference of the accuracies (exact at t = 1, independent Monte Carlo "
            "draws beyond), normal 95 % intervals simultaneous over the 28 steps; tie 1/1,010 (a blind guess).",
            changes=(
                _was(
                    PHASE_B,
                    _DATE_B,
                    "a step down beyond 2 SE counted, a step within noise passed; now each step "
                    "is decided from its interval against the tie; " + _STATS,
                    rule="decreases == 0 and checked > 0",
                ),
            ),
        ),
        # ---- matched comparisons: equal information, equal utility ------------------------------------------
        Claim(
            "M1",
            "At equal information about X (each family's parameter root-found to k-RR's I(X;Y) at tight 1-LDP, "
            "Adult) every metric mechanism and BA estimates P_X better than k-RR (smaller mean EMD after IBU)",
            source="extension",
            kind="order",
            relation="metric < kRR",
            tie=1e-9,
            effect=0.005,
            where="the PIE paper's lens (I(X;Y)) against the IBU paper's (EMD); PRIVIC's BA minimises distortion at "
            "a given information",
            expect="diverges",
            instead="max(kRR___metric_high) < 0",
            note="Per mechanism, the difference EMD(k-RR) − EMD(m) of independent collections (Welch), 95 % intervals "
            "simultaneous over the six mechanisms. Criterion fixed before the first run (771fc93); the first "
            "book-scale run (2026-11-24, not recorded) failed it for every mechanism: at equal information their "
            "EMD after IBU was 0.12-0.24 bins against k-RR's 0.068 (quoted at 0b16227, which declared the "
            "divergence; decision log). In " + _RECORD + ", 200 collections each: 0.13 (exponential) to 0.35 bins "
            "(planar Laplace), BA 0.17, against k-RR's 0.0666. A measured correlate (exact; no row tests it as the "
            "cause; IBU's estimate stays in the simplex): at equal I(X;Y) their channels are far worse conditioned "
            "(smallest singular value 0.03 for the exponential mechanism down to 4e-4 for Laplace, 0 for BA, "
            "against 0.125 for k-RR). Instead: k-RR estimates better than each beyond its interval.",
            changes=(
                _was("0b16227", "2026-11-24", _M_FIRST, rule="max(upper) < 0"),
                _was(
                    PHASE_B,
                    _DATE_B,
                    "2-SE bounds computed by hand became Welch intervals decided with three outcomes; " + _STATS,
                    rule="max(upper) < 0",
                    expect="diverges",
                    instead="min(lower) > 0",
                ),
            ),
        ),
        Claim(
            "M2",
            "At equal information about X every metric mechanism and BA has a larger ε-LDP level on X than "
            "k-RR's 1 (Adult)",
            source="extension",
            kind="holds",
            rule="min(ldp_gap) > 0",
            where="the metric mechanisms' level on X grows with the grid's diameter; ldp_gap = level(m) − level(k-RR)",
        ),
        Claim(
            "M3",
            "At equal estimation utility (each family's parameter where its mean EMD after IBU equals k-RR's at "
            "tight 1-LDP, Adult; log-linear interpolation along the frontier sweep, scanning from the largest "
            "parameter down) every metric mechanism and BA releases less information I(X;Y) than k-RR",
            source="extension",
            kind="holds",
            rule="max(mi_gap) < 0",
            where="the IBU paper's lens (EMD) against the PIE paper's (I(X;Y)); mi_gap = I(m) − I(k-RR), bits",
            expect="diverges",
            instead="min(mi_gap) > 0",
            note="Criterion fixed before the run (771fc93); the first book-scale run (2026-11-24, not recorded) failed "
            "it for every mechanism: to estimate as well as k-RR at 1-LDP (0.091 bits) they released 0.21-0.48 bits, "
            "BA 0.97 bits without reaching k-RR's EMD on its sweep (quoted at 0b16227, which declared the "
            "divergence; decision log). In " + _RECORD + ": 0.22 (exponential) to 0.61 bits (Laplace), BA 1.15 "
            "bits (mi_gap + k-RR's 0.091, exact). M1's measured correlate (ill-conditioned channels) is consistent "
            "with it; no row tests it as the cause. Instead: each releases more than k-RR.",
            changes=(_was("0b16227", "2026-11-24", _M_FIRST, rule="max(mi_gap) < 0"),),
        ),
        Claim(
            "M4",
            "At equal estimation utility every metric mechanism and BA leaks less about the secret S than k-RR "
            "(LDP-w.r.t.-S leakage, Adult)",
            source="extension",
            kind="holds",
            rule="max(lift_gap) < 0",
            where="the IBU paper's lens against the lift paper's; lift_gap = leakage(m) − leakage(k-RR), nats",
            expect="diverges",
            instead="min(lift_gap) > 0",
            note="Criterion fixed before the run (771fc93); the first book-scale run (2026-11-24, not recorded) failed "
            "it for every mechanism (0.85-1.81 nats against k-RR's 0.37; quoted at 0b16227, which declared the "
            "divergence; decision log). In " + _RECORD + ": 0.88 (exponential) to 1.27 nats (Laplace), BA 1.86 "
            "(lift_gap + k-RR's 0.373, exact). More information about X (M3) means more about S (K2). Instead: each "
            "leaks more than k-RR.",
            changes=(_was("0b16227", "2026-11-24", _M_FIRST, rule="max(lift_gap) < 0"),),
        ),
    )
)

_NOT_FOUND = (
    "The full text of this paper is not in the book's sources: the stored copies of its pages that the "
    "project's search tool returns stop after about 2,000 characters (the abstract and the first lines of "
    "the introduction), which print no result value, so no printed number could be read and reproduced. To "
    "be evaluated once the text is in the book's sources."
)

_A23_SET = (
    "Arcolezi et al.'s variant: MI = the standard estimate clipped and renormalised (multi-freq-ldpy's MI); "
    "IBU on the support counts (multi-freq-ldpy's IBU, whose likelihood treats the support counts as the "
    "observations), here run to a certified optimum where theirs stops when no frequency moves by more than a "
    "tolerance. Gain = 1 − mean SE(IBU) / mean SE(MI) over paired collections (Fieller interval of the ratio), "
    "SE the squared error of the whole distribution (theirs: the mean over the k values, and the gain of each "
    "run clipped at 0)"
)

_A23_SS = (
    "SS, the third one-time oracle the paper compares, is a case of the claim and is graded in row A23s: its "
    "support-count likelihood is the normalised k × k support channel, whose inverse applied to the support "
    "frequencies is the standard estimate, so its IBU is MI wherever MI stays in the simplex and differs only on "
    "the runs where MI clips (2-6 % of the runs at ε = 0.5 on Adult, none at ε = 4). Its own row because its gain is "
    "0 by construction but for those runs: graded with OUE and OLH against 0 (as from 043b558 until 01b98f7) the "
    "status of these rows would be the sign of the clipped runs' tiny effect (see A23s)"
)

_A23S_PROBE = (
    "Probe on Adult (100 runs, seed 1, before 01b98f7): at ε = 0.5 (ω = 5) 4 % of the runs clip, max |MI − IBU| on "
    "the others 1.1e-6 (IBU's stopping tolerance), mean 2.9e-4 on the clipped ones; at ε = 4 (ω = 1, SS = k-RR) no "
    "run clips, max |MI − IBU| 7.5e-13. With the chapter's seed (400 runs) 5 % of the runs clip at ε = 0.5, and 2 %, "
    "5.5 % and 2.75 % with the seeds below. For OUE and OLH the support counts are not a multinomial sample and IBU "
    "differs from MI on every run (up to 1.0e-2 at ε = 0.5)"
)

_A23S_RECORDS = (
    "Records: the paper-scale record of 48b749d (results/paper/synthesis.json as committed at fce4523, 400 paired "
    "collections) measured SS's gain at ε = 0.5 −0.043 % [−0.074 %, −0.012 %] (simultaneous over OUE, OLH, SS) and "
    "gain(0.5) − gain(4) −0.043 % [−0.073 %, −0.012 %], and failed A23 and A23b on it; the record of d17fabb "
    "(results/paper/synthesis.json, commit 7c5062a) does not grade SS, but its OUE and OLH gains (2.02 %, 2.69 %) are "
    "those of 48b749d to every digit (same seed, same code path), and the chapter's computation at 69f2fb2 gives SS "
    "−0.043 % [−0.068 %, −0.018 %] (SS alone). The sign is not robust: with SEED = 1, 2, 3 in place of the "
    "chapter's 2024 (400 runs each, intervals simultaneous over OUE, OLH, SS) SS's gain is "
    "−0.018 % [−0.042 %, +0.006 %], −0.070 % [−0.137 %, −0.004 %] and −0.025 % [−0.054 %, +0.005 %]; this row "
    "(SS alone, 400 runs) diverges at all four seeds, its intervals within [−0.125 %, +0.002 %]"
)


def _A23_PAPER(row: str, what: str) -> CriterionChange:
    """The decision log of rows A23, A23b: changed at 01b98f7 after the paper-scale record of 48b749d."""
    return _was(
        "01b98f7",
        "2026-11-28",
        f"the paper-scale record (48b749d) failed {row} on SS only ({what}: OUE and OLH positive, SS −0.04 %); "
        "the probe in the note verified the cause (SS's support-count IBU is MI unless MI clips), so SS is not a "
        "case of the claim and is dropped from the row; the source was 'paper', but the paper's abstract (the only "
        "text available) states no setting, oracle or level, so the row is our reading of it: 'extension'",
        "range",
        seen="paper",
        lower=0.0,
        one_sided=True,
    )


CLAIMS.update(
    claim_table(
        # ---- estimators: the IBU extension of Arcolezi, Cerna and Palamidessi (2023) -----------------------
        Claim(
            "A23",
            "IBU (on the support counts, as Arcolezi et al. run it) has a smaller MSE than MI in the high-privacy "
            "regime: at ε = 0.5 its relative gain over MI is positive for OUE and OLH (Adult, k = 12, "
            "n = 48,842; SS: row A23s)",
            source="extension",
            kind="range",
            lower=0.0,
            one_sided=True,
            domain=(None, 1),
            effect=0.02,
            paper=Printed(
                "IBU 'can provide better utility than MI, especially in high privacy regimes (i.e., when ε is small)'",
                "Arcolezi, Cerna and Palamidessi (DBSec 2023), abstract",
            ),
            where="Arcolezi, Cerna and Palamidessi (2023), abstract; here on Adult's 12 age-hours cells",
            note=_A23_SET + "; 95 % intervals simultaneous over the two oracles. Falsifier: IBU worse by 2 % of MI's "
            "MSE. " + _A23_SS + ".",
            changes=(
                _was(
                    "82a222e",
                    _DATE_A,
                    "the first book-scale run failed the row with IBU on the whole channel (its "
                    "gain grows with ε for SUE, OUE, OLH); declared a divergence after that run, with the "
                    "support-count cause verified by a probe",
                    rule="min(diff_lower) > 0 and min(gain_low_lower) > 0",
                ),
                _was(
                    PHASE_B,
                    _DATE_B,
                    "the paper's claim is now graded in the paper's own variant (IBU on support "
                    "counts) for the oracles the paper compares (OUE, OLH, SS), split into this row (gain at small ε) "
                    "and A23b (gain larger at small ε); the whole-channel finding is row A23w; " + _STATS,
                    rule="min(diff_lower) > 0 and min(gain_low_lower) > 0",
                    expect="diverges",
                    instead="min(full_minus_support_lower) > 0",
                ),
                _A23_PAPER("A23", "gain at ε = 0.5"),
            ),
        ),
        Claim(
            "A23b",
            "… especially in high privacy regimes: IBU's gain over MI (support counts) is larger at ε = 0.5 than "
            "at ε = 4 for OUE and OLH (Adult; SS: row A23s)",
            source="extension",
            kind="range",
            lower=0.0,
            one_sided=True,
            domain=(-2, 2),
            effect=0.02,
            paper=Printed(
                "IBU 'can provide better utility than MI, especially in high privacy regimes (i.e., when ε is small)'",
                "Arcolezi, Cerna and Palamidessi (DBSec 2023), abstract",
            ),
            where="Arcolezi, Cerna and Palamidessi (2023), abstract; here on Adult's 12 age-hours cells",
            note="gain(0.5) − gain(4), independent collections at the two levels (delta-method standard errors added in "
            "quadrature, normal 95 % intervals simultaneous over the two oracles). " + _A23_SET + ". " + _A23_SS + ".",
            changes=(_A23_PAPER("A23b", "gain(0.5) − gain(4)"),),
        ),
        Claim(
            "A23s",
            "… and for SS, the third one-time oracle the paper compares: IBU on the support counts has a materially "
            "smaller MSE than MI at ε = 0.5, its relative gain over MI at least 2 % (the effect of rows A23 and A23b) "
            "(Adult, k = 12, n = 48,842)",
            source="extension",
            kind="range",
            lower=0.02,
            one_sided=True,
            domain=(None, 1),
            effect=0.02,
            paper=Printed(
                "IBU 'can provide better utility than MI, especially in high privacy regimes (i.e., when ε is small)'",
                "Arcolezi, Cerna and Palamidessi (DBSec 2023), abstract",
            ),
            where="Arcolezi, Cerna and Palamidessi (2023), abstract; here on Adult's 12 age-hours cells; SS's "
            "support channel is square and invertible, so the proposition 'INV is the MLE inside the simplex' "
            "applies to its support counts",
            expect="diverges",
            instead="abs(ours_low) < 0.02 and abs(ours_high) < 0.02",
            note="The same collections and estimate as A23 (Fieller interval of the ratio of mean squared errors, "
            "95 %), SS alone. " + _A23_SS + ". A gain that is 0 by construction cannot be decided against 0, so "
            "this row asks whether the gain is material, at the size A23 and A23b declared before any run of the "
            "paper's variant (effect 2 % of MI's MSE, 043b558): it is not, and the row diverges. Instead: SS's gain "
            "lies within ±2 % (its whole interval): IBU neither gains nor loses materially. A23b's claim for SS reduces "
            "to this row's: at ε = 4 SS reports one value (ω = 1, SS is k-RR), no run clips, and its gain is 0 to "
            "1e-10, so gain(0.5) − gain(4) is gain(0.5). " + _A23S_PROBE + ". " + _A23S_RECORDS + ".",
            changes=(
                _was(
                    "0caa7c8",
                    "2026-11-29",
                    "SS was graded in A23 and A23b with OUE and OLH (gain ≥ 0, expect pass; 043b558) until 01b98f7 "
                    "dropped it after the paper-scale record of 48b749d failed both rows on SS alone (−0.043 %), "
                    "calling it outside the claim; the synthesis re-read of 2026-11-29, having seen that record and "
                    "the record of d17fabb (OUE and OLH only), found SS a case of the claim and grades it here, on "
                    "its own: against 0 its status would be the sign of a gain that is 0 but on the clipped runs "
                    "(graded with OUE and OLH, decided negative at the chapter's seed and undecided at two of three other "
                    "seeds), so the "
                    "threshold is the rows' declared effect, 2 %, and the paper's claim for SS is declared a "
                    "divergence. Shown: the earlier criterion (gain ≥ 0, expect pass) on this row's numbers",
                    "range",
                    seen="paper",
                    lower=0.0,
                    one_sided=True,
                ),
            ),
        ),
        Claim(
            "A23w",
            "On the whole channel IBU gains more than on the support counts where these are not sufficient: at "
            "ε = 4 the MSE of IBU on the whole channel is below that of IBU on the support counts by more than 1 % "
            "for SUE, OUE and OLH (Adult)",
            source="extension",
            kind="order",
            relation="full < support",
            rtol=0.01,
            effect=0.01,
            where="the likelihood of the reports against the likelihood of their support counts: the unary encodings' "
            "and local hashing's reports carry more than their support counts (k-RR's and SS's do not)",
            note="Paired differences of the mean squared errors over the same collections, 95 % intervals simultaneous "
            "over the three oracles. Phase A's divergence of A23 found it (SUE's whole-channel gain 0.27 at ε = 4); "
            "stated as a row of its own, with its criterion, before this run.",
        ),
        Claim(
            "A23n",
            "A value printed by Arcolezi, Cerna and Palamidessi (2023) (a utility gain of IBU over MI at a stated "
            "mechanism, k, ε and n), reproduced",
            source="paper",
            kind="none",
            expect="not-evaluated",
            paper=Printed("(no printed value available)", "Arcolezi, Cerna and Palamidessi (DBSec 2023), experiments"),
            where="Arcolezi, Cerna and Palamidessi (2023), experiments (setting: the multi-freq-ldpy tutorial 5, ACS "
            "income binned into k ∈ {2, 50, 100, 200}, n ∈ {20,000, 100,000}, ε ∈ {1, 2, 4, 8})",
            note=_NOT_FOUND,
        ),
        # ---- the variance lens ------------------------------------------------------------------------------
        Claim(
            "V1",
            "Wang et al.'s variance is the exact variance: for every frequency oracle (GRR, SUE, OUE, BLH, OLH, "
            "SS) at k ∈ {4, 8, 12} and ε ∈ {0.5, 1, 2, 4}, the total variance of the standard estimate computed on "
            "the whole exact channel equals the per-value formula summed over the values (largest relative gap)",
            source="derived",
            kind="close",
            reference=0.0,
            atol=1e-9,
            where="Wang et al. (2017), the variance of a pure protocol's estimate: q(1−q)/(n(p−q)²) + f(1−p−q)/(n(p−q)); "
            "variance.linear_total_variance on the channel (k × 2^k for SUE, OUE and the hash support sets)",
        ),
        Claim(
            "V2",
            "Simulation confirms the exact MSE: for every oracle and domain size of the lookup grid, the squared "
            "error of the standard estimate over the simulated collections (count-level samplers), divided by its "
            "exact expectation, has mean 1 within ±10 %",
            source="extension",
            kind="close",
            reference=1.0,
            atol=0.10,
            domain=(0, None),
            effect=0.05,
            where="families.sample_support_counts (the toolkit's count-level laws), families.total_variance",
            note="Per (oracle, k): the runs of every (ε, n, data) cell pooled (each run's squared error over its cell's "
            "exact MSE; the cells are independent), Hall's 95 % interval of the mean, simultaneous over the "
            "(oracle, k) groups. Pooled because a single cell's runs cannot decide ±10 % at small k (one run's "
            "squared error has a coefficient of variation up to 1.4 at k = 2). Falsifier: the exact value off by 15 %.",
            changes=(
                _was(
                    PHASE_B,
                    _DATE_B,
                    "a largest |t| over 6,480 cell tests against a Bonferroni threshold (a test "
                    "that passes when it cannot reject) became an interval decided against ±10 %; " + _STATS,
                    rule="max_abs_t <= crit and tests >= 100",
                ),
            ),
        ),
        Claim(
            "V3",
            "The total MSE of a pure oracle's standard estimate depends on neither the distribution nor n beyond "
            "the factor 1/n: exact channel variances on uniform, Zipf and Adult inputs (k = 12, n = 48,842, every "
            "oracle, ε ∈ {0.5, 1, 2, 4}) agree with [p(1−p) + (k−1)q(1−q)]/(n(p−q)²) (largest relative gap)",
            source="derived",
            kind="close",
            reference=0.0,
            atol=1e-9,
            where="Wang et al.'s per-value variance summed with Σ f_v = 1 (proposition of the chapter)",
        ),
        Claim(
            "W1",
            "Wang et al.'s rule: GRR's variance is below OUE's iff k < 3e^ε + 2 (their approximate variance "
            f"Var* = q(1−q)/(n(p−q)²); every integer k from 2 to 1,024 at the book grid's {len(_EPS_W)} values of ε, "
            f"{', '.join(f'{e:g}' for e in _EPS_W)})",
            source="paper",
            kind="holds",
            rule="mismatches == 0 and checked > 1000",
            paper=Printed(
                "DE (GRR) has a smaller variance than OUE when d < 3e^ε + 2",
                "Wang et al. (2017), the comparison of direct encoding (GRR) with OUE",
            ),
            where="Wang et al. (2017), the comparison of direct encoding (GRR) with OUE (located by its content: the "
            "book's sources do not hold the paper's full text to check a section number); p, q from the toolkit's "
            "GRR and OUE objects",
        ),
        Claim(
            "W2",
            "With the exact total variance, GRR beats OUE iff k < k*(ε), the larger root of k² − (3 + 2e^ε)k + 2 + "
            "2e^ε − (e^ε + 1)² = 0, which lies below 3e^ε + 2: the rule errs exactly on the integers in [k*, 3e^ε + 2) "
            "(same grid as W1)",
            source="derived",
            kind="holds",
            rule="outside_band == 0 and checked > 1000",
            where="proposition of the chapter (the exact totals of GRR and OUE); p, q from the toolkit's objects",
            note="outside_band = integers k where the exact order and the band prediction disagree; the count of "
            "integers inside the band, where the rule errs, is reported with the row.",
        ),
        Claim(
            "W3",
            "OUE's exact variance for a value nobody holds equals Wang et al.'s Var* = 4e^ε/(n(e^ε − 1)²): at ε = 1, "
            "n Var = 4e/(e − 1)² = 3.68269 (computed on the exact 12 × 4,096 channel)",
            source="derived",
            kind="close",
            reference=4 * 2.718281828459045 / (2.718281828459045 - 1) ** 2,
            rtol=1e-9,
            where="Wang et al. (2017), OUE's approximate variance Var* = 4e^ε/(n(e^ε − 1)²), at ε = 1",
        ),
        # ---- Kairouz, Bonawitz and Ramage (2016); Cormode, Maddock and Maple (2021) ---------------------------
        Claim(
            "KB1",
            "k-RR and RAPPOR are each the better one in a different privacy regime: for every k ≥ 8 of the grid, "
            "RAPPOR (SUE) has the smaller exact ℓ2 risk at ε = 0.1 and k-RR at ε = ln k",
            source="extension",
            kind="holds",
            rule="violations == 0 and checked >= 14",
            paper=Printed(
                "'New theoretical results demonstrate the order-optimality of k-RR and the existing RAPPOR "
                "mechanism at different privacy regimes'",
                "Kairouz, Bonawitz and Ramage (ICML 2016), abstract",
            ),
            where="Kairouz, Bonawitz and Ramage (2016), abstract; the exact ℓ2 risk of the standard estimates (the i.i.d. "
            "risk adds (1 − Σ p²)/n to both and keeps the order)",
            note="Source 'extension' (was 'paper' until 2026-11-29; status unaffected): the abstract states no k, ε "
            "or risk, so ε = 0.1 against ε = ln k on the grid's k is our reading of one sentence, as for A23.",
        ),
        Claim(
            "KBn",
            "Kairouz, Bonawitz and Ramage's printed statement that at ε ≈ ln k k-RR reduces the sample size n to "
            "n/4 under both losses: at ε = ln k, for every k ≥ 8 of the book grid (8 to 1,024), the factor of "
            "samples k-RR's worst case (uniform p) needs over the non-private risk, computed from the toolkit's "
            "k-RR channel, equals their Eq. (8) (ℓ2²) and Eq. (9) (ℓ1, large n) to 1e-9 relative, exceeds 4, "
            "decreases with k, and is within 2 % of 4 for k ≥ 256",
            source="paper",
            kind="holds",
            rule="max_formula_gap <= 1e-9 and tail_gap <= 0.02 and min_excess > 0 and increases == 0 "
            "and tail_checked >= 2 and checked >= 8",
            paper=Printed(
                "for ε ≈ ln k, the sample size n is reduced to n/4 (under both losses)",
                "Kairouz, Bonawitz and Ramage (ICML 2016), Sec. 4.3",
            ),
            where="Kairouz, Bonawitz and Ramage (2016), Sec. 4.3 'Performance under k-RR' (p. 5 of the PMLR "
            "text, vol. 48), with Eqs. (8)-(9) and Prop. 3 (p. 4); ℓ2²: variance.exact_channel_variance on the "
            "whole GRR channel plus the multinomial (1 − Σ p²)/n, over (1 − 1/k)/n; ℓ1: the per-value "
            "variances (variance.support_covariance), (Σ σ_v)² over the non-private (Σ √(p_v(1 − p_v)))²",
            note="The quote's '≈' is read as a limit: at ε = ln k both factors equal ((2k − 1)/(k − 1))², which "
            "decreases to 4 as k grows (4.59 at k = 8, 4.016 at k = 256, 4.004 at k = 1,024), not 4 at any k. "
            "Criterion declared after an exploratory computation of the paper's formula at a few k (the values "
            "above were seen then); its 1e-9, 2 % and k ≥ 256 were fixed before the toolkit's channel was "
            "evaluated and express 'n/4' as a limit, not a fit to the seen values (the gap at k = 256 is 0.4 %). "
            "Until "
            "2026-11-29 this row was not evaluated: no printed value had been read. Read from the published PMLR "
            "text (the supplement was not reached); the paper is not among the book's five source papers.",
        ),
        Claim(
            "CM1",
            "Careful choice gives effective heavy-hitter identification at scale: at the grid's largest k and n "
            "(k = 1,024, n = 10^6 at book and paper scale) and ε ≥ 2, the best oracle identifies the true top 10 "
            "with mean precision at least 0.9 (Zipf and Gowalla data)",
            source="extension",
            kind="range",
            lower=0.9,
            one_sided=True,
            domain=(0, 1),
            effect=0.05,
            paper=Printed(
                "'for the core problems of frequency estimation and heavy hitter identification, careful "
                "choice of algorithms can lead to very effective solutions that scale to millions of users'",
                "Cormode, Maddock and Maple (PVLDB 2021), abstract",
            ),
            where="Cormode, Maddock and Maple (2021), abstract; the standard estimate's top 10, count-level samplers",
            note="Per cell, the mean precision over the runs of the oracle with the best mean (Hall's 95 % intervals, "
            "simultaneous over the cells and oracles, so that picking the best keeps its interval valid). The smoke "
            "grid's largest cell is k = 256, n = 10^5. Falsifier: a precision of 0.85. Source 'extension' (was "
            "'paper' until 2026-11-29; status unaffected): the abstract states no k, n, ε or precision, so the "
            "setting and the 0.9 are our reading of one sentence, as for A23.",
            changes=(
                _was(
                    "f66a478",
                    _DATE_B,
                    "declared at book and paper scale only (bc2a946), then recorded at every "
                    "scale so that the chapter records it unconditionally; the rule was unchanged",
                    rule="min(best_precision) >= 0.9 and checked >= 4",
                ),
                _was(
                    PHASE_B,
                    _DATE_B,
                    "the smallest mean precision against 0.9 became the lower ends of the "
                    "intervals against 0.9; " + _STATS,
                    rule="min(best_precision) >= 0.9 and checked >= 4",
                ),
            ),
        ),
        Claim(
            "CMn",
            "A value printed by Cormode, Maddock and Maple (2021) (an error or a precision at a stated d, ε, n), "
            "reproduced",
            source="paper",
            kind="none",
            expect="not-evaluated",
            paper=Printed("(no printed value available)", "Cormode, Maddock and Maple (PVLDB 2021), experiments"),
            where="Cormode, Maddock and Maple (2021)",
            note=_NOT_FOUND,
        ),
        # ---- the lookup guide and the tasks ----------------------------------------------------------------------
        Claim(
            "G1",
            "Post-processing makes n and the data matter: in at least one cell of the grid the best oracle after "
            "projection onto the simplex is none of the unbiased estimator's best-within-10 %, and its projected "
            "MSE is below 0.9 times that of the unbiased best's projection",
            source="extension",
            kind="range",
            upper=0.9,
            one_sided=True,
            domain=(0, None),
            effect=0.1,
            where="the unbiased estimates' ranking depends on (k, ε) only (V3); Norm-Sub (Wang et al. 2020) is the "
            "simplex projection; guide.rank_changes",
            note="In every cell where the projected best is outside the unbiased near-best set, the ratio of the two "
            "projected mean squared errors (independent collections, Fieller), 95 % intervals simultaneous over "
            "those cells; the row records the cell whose interval lies lowest (valid because the intervals hold "
            "jointly). Falsifier: a ratio of 1 (projection changes nothing). Merge of main (decision log): main "
            "kept the earlier two-clause rule and, after the book-scale run of 899b95a (changed = 3 of 1,080 "
            "cells, pairs_differ = 0 of 90), expected it to diverge (c68b965; its cause not verified there). This "
            "row's criterion was fixed at 043b558, before that run, and does not contain the refuted second "
            "clause; the merge keeps it and records main's change below. The refutation stands: no (k, ε) had "
            "two (n, data) cells with different clear winners after projection in that run. The paper-scale records "
            "of this criterion (results/paper/synthesis.json as committed at fce4523, d219319, 7c5062a and ce46003) "
            "have G1 undecided.",
            changes=(
                _was(
                    PHASE_B,
                    _DATE_B,
                    "a count of cells whose mean ± 1.96 SE passed a threshold became one "
                    "simultaneous Fieller interval; the second clause (two (n, data) cells with different clear "
                    "winners) moved to the guide table, where every cell's winner and runners-up are shown with "
                    "intervals; " + _STATS,
                    rule="changed > 0 and pairs_differ > 0",
                ),
                CriterionChange(
                    "c68b965",
                    "2026-11-28",
                    "book",
                    {"kind": "holds", "rule": "changed > 0 and pairs_differ > 0", "expect": "pass"},
                    "on main, in parallel with this branch: the CI's book-scale run of 899b95a gave "
                    "changed = 3 of 1,080 and pairs_differ = 0 of 90 (fail against the declared pass); "
                    "main's expectation became diverges with the rule unchanged. Superseded at the "
                    "merge by the criterion of 043b558 (fixed before that run), which drops the "
                    "refuted clause",
                ),
            ),
        ),
        Claim(
            "G2",
            "At the first edition's operating point (Adult, k = 12, ε = 1) the exact MSE ranks SS first and OUE's "
            "exceeds SS's by more than 10 %: the first edition's 'OUE had the smallest EMD' was within noise",
            source="derived",
            kind="holds",
            rule="ss_is_best == 1 and oue_over_ss > 1.10",
            where="families.total_variance (Wang et al. 2017) at k = 12, ε = 1",
        ),
        Claim(
            "T1",
            "The ranking depends on the task: in at least one heavy-hitter cell of the grid (k > 20, Zipf or "
            "Gowalla), the oracle with the smallest histogram MSE finds the true top 10 less often than another "
            "oracle, by more than 0.02 in mean precision",
            source="extension",
            kind="order",
            relation="MSE_best < other",
            tie=0.02,
            domain=(-1, 1),
            effect=0.02,
            where="Cormode, Maddock and Maple (2021) compare frequency estimation and heavy-hitter identification; "
            "guide.task_rankings",
            note="In every heavy-hitter cell, the difference of mean precisions between each other oracle and the "
            "exact-MSE best (independent collections, Welch), 95 % intervals simultaneous over all (cell, oracle) "
            "pairs. The claim is existential: it holds when some pair's interval lies above the tie, is reversed "
            "only when every pair's interval lies at or below it, and is undecided otherwise; the row records the "
            "pair that decides it (the highest lower end when one holds, else the highest upper end; decision "
            "log). A pair is degenerate when both oracles' precisions are the same constant in every run (no run "
            "separates them: difference 0, zero-width interval); degenerate pairs are counted and kept out of the "
            "choice (a difference of 0 never reaches above the tie, so leaving them out changes no outcome).",
            changes=(
                _was(
                    PHASE_B,
                    _DATE_B,
                    "a count of cells with a difference beyond 2 SE (no correction for the 432 "
                    "cells) became one interval simultaneous over every comparison, against a tie of 0.02; " + _STATS,
                    rule="disagree > 0 and cells > 0",
                ),
                _was(
                    "5d8a434",
                    _DATE_B,
                    "the recorded pair was the one whose interval lies highest among all "
                    "pairs; at book scale on the branch a degenerate pair (both oracles at precision 1.0 in every "
                    "run: 0 with a zero-width interval) lay highest, since every informative pair's interval "
                    "reached below 0, and the row failed on a pair the task cannot separate. Degenerate pairs are "
                    "now kept out of the choice (issue 33: degenerate cases flagged and kept out of 'best' "
                    "statements); relation, tie and effect unchanged",
                    kind="order",
                    relation="MSE_best < other",
                    tie=0.02,
                    pairs="all, degenerate included",
                ),
                _was(
                    "8a47944",
                    "2026-11-28",
                    "the recorded pair was the non-degenerate pair with the highest lower "
                    "end, decided alone. At book scale on the branch (7631e7b, main merged into b22ca5c) that pair, "
                    "GRR against L-GRR at "
                    "k = 32, ε = 8, n = 1,000, Zipf, differed by 0.002 [−0.004, 0.008], its interval inside the "
                    "0.02 tie: reversed, and the row failed. But the claim is 'in at least one cell another oracle "
                    "beats the MSE-best by more than 0.02': one pair inside the tie does not refute it, only every "
                    "pair's (simultaneous) interval at or below the tie does. The recorded pair is now the one "
                    "that decides the existential claim (highest lower end if one holds, else highest upper end); "
                    "relation, tie 0.02 and effect unchanged",
                    kind="order",
                    relation="MSE_best < other",
                    tie=0.02,
                    pairs="non-degenerate, the highest lower end",
                ),
            ),
        ),
        Claim(
            "H1",
            "A practical hash beats the ideal one: at every (k, ε) of the paper-scale grid (k from 2 to 1,024, "
            "ε from 0.1 to 8), OLH-CW's exact collision probability over its P(P − 1) seeds is below 1/g (compared "
            "in integers), so its q is below ideal OLH's 1/g and its exact total MSE is below ideal OLH's; and the "
            "largest relative gain 1 − MSE(OLH-CW)/MSE(OLH) over the grid's cells where the hash compresses the "
            "residues (P > g) is at least 5 %",
            source="derived",
            kind="holds",
            rule="violations == 0 and checked >= 80 and max_gain >= 0.05",
            where="Carter and Wegman (1979): the family ((a v + b) mod P) mod g with a prime P that g does not divide "
            "has c = Σ_j n_j(n_j − 1)/(P(P − 1)) < 1/g (ldpnb.mechanisms.cw_collision_probability); q = p′c + q′(1 − c) "
            "and the pure-protocol total MSE [p(1−p) + (k−1)q(1−q)]/(n(p−q)²) decrease with q below 1/2",
            note="violations counts the cells where c ≥ 1/g (Σ_j n_j(n_j − 1) g ≥ P(P − 1), integers) or "
            "MSE(OLH-CW) ≥ MSE(OLH); both oracles with OLH's g = round(e^ε) + 1 and OLH-CW's default prime (the "
            "smallest prime ≥ max(k, g)). The 5 % threshold was fixed from one hand computation of the formula "
            "before any run of the code (k = 16, ε = 2: g = 8, P = 17, c = 20/272 = 0.074 against 0.125). "
            "max_gain, min_gain and gain_at_max_k are over the cells with P > g; degenerate counts the others "
            "(P = g: k = 2 at ε = 0.1, 0.25 (g = P = 2) and 0.5 (g = P = 3)), where g divides P, outside the "
            "premise of the Carter-Wegman bound: ((a v + b) mod P) mod g is then a bijection of the residues onto "
            "the buckets, no two values collide (c = 0) and OLH-CW is k-RR on g symbols, so its gain there (up to "
            "75 %) is k-RR's over OLH at k = 2, not a practical hash's. Until this was stated (38486e0, after the "
            "paper-scale record of d17fabb had been seen; decision log) the maximum was taken over every cell, and "
            "that record (results/paper/synthesis.json as committed at 7c5062a) has max_gain 0.752 at k = 2, "
            "ε = 0.25, a degenerate cell. The run's note gives the cell of the maximum over the cells with P > g. "
            "The rule and its 5 % threshold are unchanged; violations and checked still count every cell (c = 0 "
            "< 1/g holds where P = g).",
            changes=(
                _was(
                    "38486e0",
                    "2026-11-29",
                    "the rule and its 5 % threshold are unchanged, but what max_gain measures and the claim's text "
                    "changed after the paper-scale record of d17fabb (results/paper/synthesis.json as committed at "
                    "7c5062a) had been seen: its max_gain, 0.752, came from k = 2, ε = 0.25, a cell with P = g where "
                    "the hash is a bijection (outside the Carter-Wegman premise). max_gain, min_gain and gain_at_max_k "
                    "are now taken over the cells with P > g, and 'over the grid' became 'over the grid's cells where "
                    "the hash compresses the residues (P > g)'. Leaving cells out can only lower the maximum, so the "
                    "change makes the rule harder to pass, not easier (status pass before and after). Logged as T1's "
                    "5d8a434 is; the entry was missing until the synthesis re-read of 2026-11-29. Shown: the same "
                    "rule, whose max_gain was then over every cell",
                    seen="paper",
                    rule="violations == 0 and checked >= 80 and max_gain >= 0.05",
                    max_gain="over every cell, P = g included",
                ),
            ),
        ),
        Claim(
            "B1",
            "A short report costs little accuracy: at every (k, ε) of the paper-scale grid (k from 2 to 1,024, ε "
            "from 0.1 to 8), some oracle whose exact MSE is within 10 % of the best sends a report of at most "
            "3⌈log2 k⌉ + 3 bits, as this toolkit encodes it (the guide's bits/report column)",
            source="extension",
            kind="holds",
            rule="violations == 0 and checked >= 80",
            where="Acharya, Sun and Zhang (2019) and Cormode, Maddock and Maple (2021) compare the oracles' "
            "communication; families.report_bits (GRR ⌈log2 k⌉, unary encodings k, local hashing two 61-bit seeds "
            "plus ⌈log2 g⌉, OLH-CW 2⌈log2 P⌉ + ⌈log2 g⌉, subset selection ω⌈log2 k⌉, Hadamard response log2 K) and "
            "families.total_variance, exact",
            note="violations counts the (k, ε) where every oracle within 10 % of the smallest exact total MSE sends "
            "more than 3⌈log2 k⌉ + 3 bits; the row also records, over the grid, the largest ratio of the shortest "
            "near-best report to ⌈log2 k⌉. Criterion fixed before any run of the code that computes it.",
        ),
        Claim(
            "T2",
            "Range queries reorder the oracles: on Adult's ages (74 ordered values, n = 48,842), at some ε ∈ {0.5, "
            "1, 2, 3, 4, 6} two oracles swap places between single values and ranges of half the domain (exact "
            "MSE, each order beyond a 10 % tie margin)",
            source="extension",
            kind="holds",
            rule="swaps > 0 and checked > 0",
            where="GRR's and SS's support counts are negatively correlated (a user supports a fixed number of values), "
            "the unary encodings' and local hashing's are not; variance.support_covariance, exact",
        ),
    )
)
