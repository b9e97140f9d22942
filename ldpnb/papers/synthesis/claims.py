"""The synthesis chapter's claims.  No paper prints them: each is a bound that follows from a
definition (``derived``), a property of our objects (``invariant``), or a paper's conclusion tested
outside the setting the paper used (``extension``).  Criteria are fixed from the statement and, for
Monte Carlo numbers, from the paired standard error of the runs (a difference counts when it
exceeds two standard errors)."""

from ldpnb.repro.claims import Claim, CriterionChange, Printed, claim_table

_LDP_FAMILIES = "k-RR, SUE, OUE, OLH, SS, SMP, RS+FD, RS+RFD, the four metric mechanisms and BA"

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
        where="P(y | s) is a mixture of the rows P(y | x) (post-processing); Zarrabian et al., Prop. 1",
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
    # ---- the IBU paper's conclusion outside its setting ------------------------------------------
    Claim(
        "E1",
        "IBU run to a certified optimum estimates P_X with a smaller EMD than INV (the inverse of the "
        "channel) for every non-degenerate geo-indistinguishable mechanism, Adult, at the operating point "
        "(IBU − INV below −2 paired SE for each)",
        source="extension",
        kind="holds",
        rule="max(upper) < 0 and checked >= 5",
        expect="diverges",
        instead="max(lower) < 0 and checked >= 5",
        where="IBU paper (ElSalamouny and Palamidessi 2020), abstract and Sec. 8: IBU 'significantly outperforms "
        "the other methods' for the geometric, Laplace and exponential mechanisms; here also the planar ones, "
        "on Adult's age-hours grid",
        note="upper = mean paired difference EMD(IBU) − EMD(INV) + 2 SE per mechanism; IBU stops at a certified "
        "log-likelihood gap of 1e-10 nats per report. Changed after the audit of the first edition: BA at the "
        "operating point reports one cell with probability above 1 − 1e-9 (a degenerate channel, I(X;Y) < 1e-6 "
        "bits); the first edition counted its constant-report difference (SE 0) as a pass. Degenerate channels "
        "are now flagged and left out (checked = the non-degenerate mechanisms). The first book-scale run of this "
        "criterion failed it for one mechanism: the exponential mechanism on Adult, where IBU's advantage is "
        "within 2 paired SE (upper +0.0015 bins); the four others pass. Declared a divergence after that run. "
        "Instead: IBU is never worse than INV beyond 2 paired SE (lower = mean difference − 2 SE).",
    ),
    Claim(
        "E2",
        "For k-RR and basic RAPPOR (SUE) IBU is comparable to the standard estimator: the paired EMD "
        "difference, plus 2 paired SE, is within 10 % of the standard estimator's EMD (Adult, operating point; "
        "IBU run to a certified optimum)",
        source="paper",
        kind="holds",
        rule="max(rel_bound) <= 0.10",
        paper=Printed(
            "IBU 'is comparable to the other methods in the case of the k-RR and Rappor mechanisms'",
            "IBU paper (ElSalamouny and Palamidessi 2020), abstract and Sec. 1",
        ),
        where="IBU paper, abstract and Sec. 1; the standard estimator is the support-count estimate of Wang et al. "
        "(2017), Eq. (2), clipped and renormalised (for k-RR the closed-form inversion)",
        note="rel_bound = (|mean paired difference| + 2 SE) / EMD(standard). Changed after the audit of the first "
        "edition, which misquoted the IBU paper (as finding IBU better for k-RR and RAPPOR), compared IBU with "
        "a pseudo-inverse of the whole 12 × 4096 channel (1.3-2.3× the standard estimator's variance for SUE, "
        "OUE, OLH) and stopped IBU early. The 10 % reading of 'comparable' was fixed knowing the audit's "
        "measurement with the early-stopped IBU (SUE: 3.7 ± 1.7 % better than the standard estimator).",
    ),
    Claim(
        "E3",
        "The same as E1 for the non-degenerate geo-indistinguishable mechanisms on Gowalla (Manhattan, 4 × 3 cells)",
        source="extension",
        kind="holds",
        rule="max(upper) < 0 and checked >= 5",
        where="IBU paper, Sec. 8 (Gowalla, planar geometric/Laplace); PRIVIC (BA)",
        note="As E1: IBU to a certified gap of 1e-10 nats per report; degenerate channels (BA at the operating "
        "point) left out, changed after the audit of the first edition.",
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
            "D8",
            "At the operating point the PIE paper's Fano bound leaves a re-identification error of at least "
            "1 − (min(1, 1²)/ln 2 + 1)/log2 n for every 1-LDP mechanism (n = 48,842 on Adult, 1,010 on Gowalla; "
            "smallest margin)",
            source="derived",
            kind="range",
            lower=-1e-12,
            one_sided=True,
            where="D2 (Cuff and Yu) composed with Cor. 3.9 of the PIE paper",
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
            "θ = q C⁻¹; if that point has no negative entry it is the MLE (IBU paper, Sec. 7; Agrawal and Aggarwal "
            "2001); IBU certified to 1e-10 nats per report",
            note="Changed after the audit of the first edition, whose E2b measured IBU's early stop (the IBU paper's "
            "log-likelihood rule): 0.4 % of the EMD at 3.3 paired SE, 'close, not identical'. Converged, the two "
            "coincide; the early stop is row E2c. The tolerance 1e-6 bins is numerical (the certificate bounds the "
            "log-likelihood gap, not the distance), fixed before this row's first run.",
        ),
        Claim(
            "E2c",
            "The IBU paper's stopping rule acts as a regulariser: for every frequency oracle on Adult at the "
            "operating point, IBU stopped by the log-likelihood rule (tolerance 1e-9 per report) has a smaller mean "
            "EMD than IBU run to its optimum (paired difference below −2 SE)",
            source="extension",
            kind="holds",
            rule="max(upper) < 0",
            expect="diverges",
            instead="max(lower) < 0",
            where="IBU paper, Sec. 7 (stopping rule); from the uniform start an early stop shrinks the estimate "
            "towards the uniform distribution",
            note="upper = mean paired difference EMD(early) − EMD(converged) + 2 SE per oracle (k-RR, SUE, OUE, OLH, "
            "SS). The audit of the first edition measured this for k-RR (−2.8e-4 ± 8.4e-5 bins against INV, which "
            "converged IBU equals); for the other oracles the row is new. The first book-scale run failed it for one "
            "oracle: OUE (upper +3.6e-5 bins); k-RR, SUE, OLH and SS pass. Declared a divergence after that run. "
            "Instead: the early stop is never worse than the optimum beyond 2 paired SE.",
        ),
        Claim(
            "E2d",
            "The first edition's INV for the unary encodings and local hashing (the pseudo-inverse of the whole "
            "channel, over 4,096 outputs) has a larger exact variance than the standard support-count estimator, "
            "and the same for k-RR and SS (ratios of exact total variances on Adult at 1-LDP)",
            source="derived",
            kind="holds",
            rule="min(ratio_ue_lh) > 1.05 and max(ratio_grr_ss_gap) < 1e-9",
            where="both are unbiased linear estimators; Wang et al. (2017), Eq. (2) weighs each output by its support; "
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
            note="At ε = 2 OLH's g = 8 is close to k = 12: the bounds favour RR (θ_RR < θ_GLH) but the exact PIE of the "
            "two "
            "differs by 2% the other way (RR 0.153, OLH 0.150 bits); the bounds are not tight enough to order "
            "near-equal mechanisms. Instead: the ordering fails at one ε at most.",
        ),
        Claim(
            "E4b",
            "The same ordering predicts which of RR and OLH leaks more about the secret (lift lens: "
            "LDP-w.r.t.-S leakage, Adult); a difference within 1e-9 (relative) is a tie, not a prediction met",
            source="extension",
            kind="holds",
            rule="mismatches == 0 and ties == 0 and checked == 5",
            where="PIE paper, Thms 4.2 and 4.4, read in the lift lens (Zarrabian et al.)",
            expect="diverges",
            instead="reversed == 0 and checked == 5",
            note="Changed after the audit of the first edition, which passed this row (0 of 5 mismatches) although at "
            "ε = 4 and 6, where the bounds predict that RR leaks more, the two leakages differ by 6e-15 and 3e-14 "
            "nats: the sign of a rounding error decided the 'match'. The ties are structural (row E4c): OLH never "
            "leaks less than RR in this lens, so 'RR leaks more' can never hold strictly. Instead: the prediction "
            "is never strictly reversed (reversed = cases where the bound favours one and the other leaks more "
            "beyond the tie tolerance).",
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
            where="the leakage is a maximum over columns (Zarrabian et al., Def. 4); OLH's column set contains k-RR's "
            "up to scale (Wang et al. 2017, Sec. 4; the support-set channel of ldpnb.mechanisms.LocalHashing)",
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
            where="PRIVIC, Def. 2.3 and Thm 3.1 (BA attains R(D)); chords of the traced curve are achievable",
            note="Changed after the audit of the first edition, which compared at the operating point, where every "
            "mechanism's distortion exceeds the best constant report's: the comparison value was R(D) = 0 for all "
            "18 checks and the row could not fail. checked counts only points with I_BA(D) > 1e-6 bits.",
        ),
        Claim(
            "E8b",
            "BA at matched distortion: at the expected distortion of each metric mechanism at k-RR's information "
            "(the parameters of M1), BA (β root-found to that distortion) is not degenerate and releases less "
            "information than the metric mechanism",
            source="derived",
            kind="holds",
            rule="violations == 0 and degenerate == 0 and checked >= 4",
            where="PRIVIC, Thm 3.1: BA minimises I(X;Y) at a given expected distortion",
            expect="diverges",
            instead="violations == 0 and degenerate == checked and checked >= 4",
            note="Criterion fixed first (commit bc2a946); an exact computation before the first book-scale run then "
            "showed it cannot hold: at k-RR's 1-LDP information (0.091 bits) every metric mechanism's expected "
            "distortion (1.40-1.57 bins) exceeds that of the best constant report (1.23 bins), where R(D) = 0, so "
            "BA at matched distortion is a constant report. At that information a metric mechanism's report is on "
            "average farther from the truth than a fixed guess. Instead: BA releases no more information and is "
            "degenerate at every one of these distortions. BA at matched distortion where R(D) > 0 is row E8, "
            "along the sweeps.",
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
            "level the mean EMD after IBU never increases by more than 2 SE (Adult)",
            source="extension",
            kind="holds",
            rule="increases == 0 and checked > 0",
            where="IBU paper, Figs. 5-9 (EMD decreasing in ε for k-RR, RAPPOR, geometric); here every family whose "
            "channel changes continuously with its parameter (merging mechanisms change their blocks in jumps)",
            note="The first edition declared this row a divergence (one step up, planar geometric at the smallest "
            "parameters, explained by IBU barely leaving its uniform start). That was IBU's early stop: with IBU run "
            "to a certified optimum the first book-scale run of the second edition has no step up (0 of 70), and "
            "the expectation was changed back to the criterion fixed in the first edition (decision after that run).",
        ),
        # ---- rank agreement ------------------------------------------------------------------------------
        Claim(
            "K1",
            "The two lenses on X agree: Kendall τ-b between I(X;Y) and V(X|Y) over the 18 mechanisms at the "
            "operating point is at least 0.6 (Adult; values equal within 1e-9 relative are ties)",
            source="extension",
            kind="range",
            lower=0.6,
            one_sided=True,
            where="both are functionals of the posterior on X; τ ≥ 0.6 is 'strong agreement'",
            note="Ties at float noise are ties (changed after the audit of the first edition, which ranked them by "
            "rounding noise; K1 was unaffected). The 95 % bootstrap interval over mechanisms is in the run's "
            "note; phase B grades its lower end.",
        ),
        Claim(
            "K2",
            "The lens on X predicts the lens on S: τ-b(I(X;Y), LDP-w.r.t.-S leakage) ≥ 0.5 (Adult; ties within "
            "1e-9 relative)",
            source="extension",
            kind="range",
            lower=0.5,
            one_sided=True,
            where="PIE (information about X) against ALIP (about S)",
            note="Ties at float noise are ties (changed after the audit: five oracles' leakages agree to 1e-14; the "
            "first edition's τ 0.752 ranked them by noise). The bootstrap interval is in the run's note.",
        ),
        Claim(
            "K3",
            "Every pair of mechanisms that the information lens and the utility lens order differently is "
            "explained: a channel that merges inputs (rank < k) or exactly one metric mechanism (Adult)",
            source="extension",
            kind="holds",
            rule="other == 0 and explained > 0",
            where="the discordant pairs of τ(I(X;Y), −EMD after IBU), sorted by experiments.explain_discordance",
            expect="diverges",
            instead="other == within and explained > 0",
            note="Pairs of the same class (two frequency oracles, two metric mechanisms, AORR and SRR) also swap: "
            "within a class the differences in I(X;Y) are small and the EMD depends on how the channel spreads "
            "its noise, not on how much it releases. Instead: every unexplained pair is within one class.",
        ),
        # ---- re-identification over collections ------------------------------------------------------------
        Claim(
            "U1",
            "Re-identification after t ∈ {1, 4, 16} collections stays below the PIE paper's bound "
            "(t I(U;Y) + 1)/log2 n for every mechanism (Gowalla; Monte Carlo, 2 SE slack)",
            source="derived",
            kind="holds",
            rule="violations == 0 and checked > 0",
            where="PIE paper, Cor. 3.9 (Fano) with I(U;Y_1..Y_t) ≤ t I(U;Y) for reports independent given U",
        ),
        Claim(
            "U2",
            "Re-identification accuracy does not decrease with the number of collections (every mechanism, "
            "Gowalla; a step down counts beyond 2 SE)",
            source="extension",
            kind="holds",
            rule="decreases == 0 and checked > 0",
            where="risks paper, Sec. 4 (more surveys, more re-identification); here for every mechanism",
        ),
        # ---- matched comparisons: equal information, equal utility ------------------------------------------
        Claim(
            "M1",
            "At equal information about X (each family's parameter root-found to k-RR's I(X;Y) at tight 1-LDP, "
            "Adult) every metric mechanism and BA estimates P_X better than k-RR: mean EMD after IBU below "
            "k-RR's by more than 2 SE of the difference (independent runs)",
            source="extension",
            kind="holds",
            rule="max(upper) < 0",
            where="the PIE paper's lens (I(X;Y)) against the IBU paper's (EMD); PRIVIC's BA minimises distortion at "
            "a given information",
            expect="diverges",
            instead="min(lower) > 0",
            note="upper (lower) = EMD(m) − EMD(k-RR) + (−) 2 sqrt(SE(m)² + SE(k-RR)²), per mechanism. Criterion fixed "
            "before the run; the first book-scale run failed it for every mechanism: at equal information their "
            "EMD after IBU is 0.12-0.24 bins against k-RR's 0.068. A measured correlate (no row tests it as the "
            "cause; IBU's estimate stays in the simplex): at equal I(X;Y) their channels "
            "are far worse conditioned (smallest singular value 0.03 for the exponential mechanism down to 4e-4 "
            "for Laplace, 0 for BA, against 0.125 for k-RR), and the estimate's error along the attenuated "
            "directions grows as 1/σ_min. Instead: k-RR estimates better than each by more than 2 SE.",
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
            note="Criterion fixed before the run; the first book-scale run failed it for every mechanism: to estimate "
            "as well as k-RR at 1-LDP (0.091 bits) they release 0.21-0.48 bits, BA 0.97 bits without reaching "
            "k-RR's EMD on its sweep; the cause is M1's (ill-conditioned channels need more information for the "
            "same estimate). Instead: each releases more than k-RR.",
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
            note="Criterion fixed before the run; the first book-scale run failed it for every mechanism (0.85-1.81 "
            "nats against k-RR's 0.37): more information about X (M3) means more about S (K2). Instead: each "
            "leaks more than k-RR.",
        ),
    )
)

_NOT_FOUND = (
    "Only the abstract and the beginning of the introduction of this paper are available to the book "
    "(the stored copies searched: its arXiv pages); its results are plots and no value printed in its text "
    "could be found to reproduce. To be evaluated once its text is in the book's sources."
)

CLAIMS.update(
    claim_table(
        # ---- estimators: the IBU extension of Arcolezi, Cerna and Palamidessi (2023) -----------------------
        Claim(
            "A23",
            "IBU helps most in the high-privacy regime: for each frequency oracle (k-RR, SUE, OUE, OLH, SS) on "
            "Adult, IBU's relative MSE gain over the standard estimator (MI) is larger at ε = 0.5 than at ε = 4 by "
            "more than 2 SE, and positive beyond 2 SE at ε = 0.5",
            source="paper",
            kind="holds",
            rule="min(diff_lower) > 0 and min(gain_low_lower) > 0",
            expect="diverges",
            instead="min(full_minus_support_lower) > 0",
            paper=Printed(
                "IBU 'can provide better utility than MI, especially in high privacy regimes (i.e., when ε is small)'",
                "Arcolezi, Cerna and Palamidessi (DBSec 2023), abstract",
            ),
            where="Arcolezi, Cerna and Palamidessi (2023), abstract; here on Adult's 12 age-hours cells (n = 48,842), "
            "MI = the standard estimate clipped and renormalised, IBU on the whole channel to a certified optimum",
            note="gain = 1 − MSE(IBU)/MSE(MI) from paired runs at each ε (delta-method SE); diff_lower = gain(0.5) − "
            "gain(4) − 2 SE (independent runs across ε); gain_low_lower = gain(0.5) − 2 SE. The first book-scale run "
            "failed it: with IBU on the whole channel the gain *grows* with ε for SUE, OUE and OLH (SUE 0.03 at "
            "ε = 0.5, 0.27 at ε = 4) and is 0 for k-RR and SS. Cause, verified before declaring the divergence: "
            "Arcolezi et al.'s IBU (multi-freq-ldpy) runs on the support counts, which are not sufficient for the "
            "unary encodings and local hashing; run on support counts, IBU gains little and less at large ε "
            "(probe, 40 runs: OLH 0.036 at ε = 0.5, 0.005 at ε = 4). Instead: at ε = 4 the whole-channel IBU beats "
            "the support-count IBU for SUE, OUE and OLH (full_minus_support_lower = paired gain difference − 2 SE).",
        ),
        Claim(
            "A23n",
            "A value printed by Arcolezi, Cerna and Palamidessi (2023) (a utility gain of IBU over MI at a stated "
            "mechanism, k, ε and n), reproduced",
            source="paper",
            kind="none",
            expect="not-evaluated",
            paper=Printed("(no printed value available)", "Arcolezi, Cerna and Palamidessi (DBSec 2023), Sec. 5"),
            where="Arcolezi, Cerna and Palamidessi (2023), experiments",
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
            where="Wang et al. (2017), Sec. 3-4: Var = q(1−q)/(n(p−q)²) + f(1−p−q)/(n(p−q)) for a pure protocol; "
            "variance.linear_total_variance on the channel (k × 2^k for SUE, OUE and the hash support sets)",
        ),
        Claim(
            "V2",
            "Simulation confirms the exact MSE: in every cell of the lookup grid and for every oracle, the mean "
            "squared error of the standard estimate over the runs (count-level samplers) agrees with the exact "
            "value (largest |t| at most the Bonferroni threshold of Student's t at a family-wise false-alarm rate "
            "of 1e-3)",
            source="extension",
            kind="holds",
            rule="max_abs_t <= crit and tests >= 100",
            where="families.sample_support_counts (the toolkit's count-level laws), families.total_variance",
            note="Per-run squared errors are kept (GridResult.se_std) for phase B's statistics layer.",
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
            "Var* = q(1−q)/(n(p−q)²); every integer k from 2 to 1,024 at the grid's 9 values of ε)",
            source="paper",
            kind="holds",
            rule="mismatches == 0 and checked > 1000",
            paper=Printed(
                "DE (GRR) has a smaller variance than OUE when d < 3e^ε + 2",
                "Wang et al. (2017), Sec. 4 (comparison of the protocols' variances)",
            ),
            where="Wang et al. (2017), Sec. 4; p, q from the toolkit's GRR and OUE objects",
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
            where="Wang et al. (2017), Sec. 4 (OUE): Var* = 4e^ε/(n(e^ε − 1)²), the printed formula at ε = 1",
        ),
        # ---- Kairouz, Bonawitz and Ramage (2016); Cormode, Maddock and Maple (2021) ---------------------------
        Claim(
            "KB1",
            "k-RR and RAPPOR are each the better one in a different privacy regime: for every k ≥ 8 of the grid, "
            "RAPPOR (SUE) has the smaller exact ℓ2 risk at ε = 0.1 and k-RR at ε = ln k",
            source="paper",
            kind="holds",
            rule="violations == 0 and checked >= 14",
            paper=Printed(
                "'New theoretical results demonstrate the order-optimality of k-RR and the existing RAPPOR "
                "mechanism at different privacy regimes'",
                "Kairouz, Bonawitz and Ramage (ICML 2016), abstract",
            ),
            where="Kairouz, Bonawitz and Ramage (2016), abstract; the exact ℓ2 risk of the standard estimates (the i.i.d. "
            "risk adds (1 − Σ p²)/n to both and keeps the order)",
        ),
        Claim(
            "KBn",
            "A value printed by Kairouz, Bonawitz and Ramage (2016) (a risk or an empirical error at a stated k, ε, "
            "n), reproduced",
            source="paper",
            kind="none",
            expect="not-evaluated",
            paper=Printed("(no printed value available)", "Kairouz, Bonawitz and Ramage (ICML 2016), Secs. 4-5"),
            where="Kairouz, Bonawitz and Ramage (2016)",
            note=_NOT_FOUND,
        ),
        Claim(
            "CM1",
            "Careful choice gives effective heavy-hitter identification at scale: at the grid's largest k and n "
            "(k = 1,024, n = 10^6 at book and paper scale) and ε ≥ 2, the best oracle identifies the true top 10 "
            "with mean precision at least 0.9 (Zipf and Gowalla data)",
            source="paper",
            kind="holds",
            rule="min(best_precision) >= 0.9 and checked >= 4",
            paper=Printed(
                "'for the core problems of frequency estimation and heavy hitter identification, careful "
                "choice of algorithms can lead to very effective solutions that scale to millions of users'",
                "Cormode, Maddock and Maple (PVLDB 2021), abstract",
            ),
            where="Cormode, Maddock and Maple (2021), abstract; the standard estimate's top 10, count-level samplers",
            note="Declared at book and paper scale only at first (bc2a946); recorded at every scale since 79194cf so that "
            "the chapter records it unconditionally (the smoke grid's largest cell is k = 256, n = 10^5). The book "
            "criterion and its result (0.93) are unchanged.",
        ),
        Claim(
            "CMn",
            "A value printed by Cormode, Maddock and Maple (2021) (an error or a precision at a stated d, ε, n), "
            "reproduced",
            source="paper",
            kind="none",
            expect="not-evaluated",
            paper=Printed("(no printed value available)", "Cormode, Maddock and Maple (PVLDB 2021), Secs. 5-6"),
            where="Cormode, Maddock and Maple (2021)",
            note=_NOT_FOUND,
        ),
        # ---- the lookup guide and the tasks ----------------------------------------------------------------------
        Claim(
            "G1",
            "Post-processing makes n and the data matter: in at least one cell of the grid the best oracle after "
            "projection onto the simplex is none of the unbiased estimator's best-within-10 %, and beats that best's "
            "projection by more than 10 % (95 % interval); and for at least one (k, ε) two (n, data) cells have "
            "different clear winners after projection",
            source="extension",
            kind="holds",
            rule="changed > 0 and pairs_differ > 0",
            expect="diverges",
            instead="changed > 0 and pairs_differ == 0",
            note="At book scale post-processing changes the clear winner in a few cells (3 of 1,080 in the run that "
            "changed the expectation) but no (k, ε) has two (n, data) cells with different clear winners after "
            "projection (0 of 90 pairs): the second half of our expectation is refuted. Why the phase-A run saw "
            "such pairs and this code does not (the guide's families now come from the mechanism registry) is "
            "not yet verified.",
            changes=(
                CriterionChange(
                    "c68b965",
                    "2026-11-28",
                    "book",
                    {"kind": "holds", "rule": "changed > 0 and pairs_differ > 0", "expect": "pass"},
                    "the CI's book-scale run of 899b95a gave changed = 3 of 1,080 and pairs_differ = "
                    "0 of 90 (status fail against the declared pass); the expectation is now "
                    "diverges, the rule unchanged, with instead recording what was seen.",
                ),
            ),
            where="the unbiased estimates' ranking depends on (k, ε) only (V3); Norm-Sub (Wang et al. 2020) is the "
            "simplex projection; guide.rank_changes",
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
            "Gowalla), the oracle with the smallest histogram MSE finds the top 10 less often than another oracle, "
            "by more than 2 SE",
            source="extension",
            kind="holds",
            rule="disagree > 0 and cells > 0",
            where="Cormode, Maddock and Maple (2021) compare frequency estimation and heavy-hitter identification; "
            "guide.task_rankings",
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
