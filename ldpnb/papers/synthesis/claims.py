"""The synthesis chapter's claims.  No paper prints them: each is a bound that follows from a
definition (``derived``), a property of our objects (``invariant``), or a paper's conclusion tested
outside the setting the paper used (``extension``).  Criteria are fixed from the statement and, for
Monte Carlo numbers, from the paired standard error of the runs (a difference counts when it
exceeds two standard errors)."""

from ldpnb.repro.claims import Claim, claim_table

_LDP_FAMILIES = "k-RR, SUE, OUE, OLH, SS, SMP, RS+FD, RS+RFD, the four metric mechanisms and BA"

CLAIMS = claim_table(
    # ---- the set-up ----------------------------------------------------------------------------
    Claim("S1", "Every mechanism's exact channel keeps the claim its object states (tight level ≤ claim), on both "
               "data sets at the operating point",
          source="invariant", kind="holds", rule="failures == 0 and checked >= 30",
          where="Mechanism.check() on the exact log-channel (ldpnb.mechanisms)"),
    Claim("S2", "The operating point is matched: every family with a finite ε-LDP level on X is tight 1-LDP "
               "(largest |level − 1| over " + _LDP_FAMILIES + ", both data sets)",
          source="invariant", kind="close", reference=0.0, atol=1e-6,
          where="root finding on each family's parameter (experiments.match_parameter)"),
    # ---- bounds that follow from the definitions --------------------------------------------------
    Claim("D1", "ε-LDP about X implies ε-LDP about the secret S: the LDP-w.r.t.-S leakage never exceeds the "
               "ε-LDP level on X (every finite-level mechanism, every point of the sweeps, Adult)",
          source="derived", kind="holds", rule="violations == 0 and checked > 0",
          where="P(y | s) is a mixture of the rows P(y | x) (post-processing); Zarrabian et al., Prop. 1"),
    Claim("D2", "I(X;Y) ≤ min(ε, ε²) nats at the tight ε-LDP level (every finite-level mechanism, every sweep "
               "point, both data sets)",
          source="derived", kind="holds", rule="violations == 0 and checked > 0",
          where="Cuff and Yu (2016), Lemma 1 (used by the PIE paper, Lemma B.2)"),
    Claim("D3", "Bayes leakage about S is bounded by the max-lift: V(S|Y) ≤ e^{max-lift leakage} V(S), every "
               "mechanism including the lift-based ones, every sweep point (Adult)",
          source="derived", kind="holds", rule="violations == 0 and checked > 0",
          where="P(s|y) = Λ(s,y) P(s) ≤ e^{ε_u} P(s) (Zarrabian et al., Def. 3) summed over y"),
    Claim("D4", "The PIE paper's Fano bound is below the exact Bayes re-identification error (1 − V(U|Y)) of "
               "every mechanism on Gowalla, at every sweep point",
          source="derived", kind="holds", rule="violations == 0 and checked > 0",
          where="PIE paper, Prop. 3.7 / Cor. 3.9 (uniform prior over the users)"),
    Claim("D5", "The lift-based mechanisms keep their ALIP budget at the operating point "
               "(largest max-lift and min-lift leakage ≤ 0.5 nats)",
          source="derived", kind="range", upper=0.5 * (1 + 1e-9), one_sided=True,
          where="Zarrabian et al., Thm 1 (merging), LP (22) (ORR), Algorithm 2 (SRR)"),
    Claim("D6", "Attribute inference from the report never beats attribute inference from X itself: "
               "V(S|Y) ≤ V(S|X) for every mechanism at every sweep point (Adult)",
          source="derived", kind="holds", rule="violations == 0 and checked > 0",
          where="data processing: Y depends on S only through X"),
    # ---- the IBU paper's conclusion outside its setting ------------------------------------------
    Claim("E1", "IBU estimates P_X with a smaller EMD than INV for every geo-indistinguishable mechanism and BA, "
               "Adult, at the operating point (IBU − INV below −2 paired SE for each)",
          source="extension", kind="holds", rule="max(upper) < 0",
          where="IBU paper (ElSalamouny and Palamidessi 2020), Sec. 7-8: IBU outperforms INV for k-RR, "
                "RAPPOR and the geometric mechanisms; here on Adult's age-hours grid",
          note="upper = mean paired difference + 2 SE; the criterion needs IBU better by more than 2 SE"),
    Claim("E2", "The same for the frequency oracles k-RR, SUE, OUE, OLH, SS (Adult), with a practical margin: IBU "
               "better by more than 1% of INV's EMD plus 2 paired SE for each",
          source="extension", kind="holds", rule="max(upper_rel) < -0.01",
          where="IBU paper, Sec. 7 (k-RR and RAPPOR); here OUE, OLH and SS as well",
          expect="diverges", instead="max(lower) <= 0",
          note="For a square invertible channel the INV estimate is the maximum-likelihood estimate whenever it "
               "lies in the simplex, and IBU converges to the MLE: with 48,842 reports at ε = 1 the inversions of "
               "k-RR and SS rarely leave the simplex, and the two estimators agree to within 1% of the EMD (row "
               "E2b). Instead: IBU is never worse than INV by more than 2 paired SE (lower = mean difference − 2 SE). "
               "upper_rel = (mean difference + 2 SE) / EMD(INV)."),
    Claim("E3", "The same for the geo-indistinguishable mechanisms and BA on Gowalla (Manhattan, 4 × 3 cells)",
          source="extension", kind="holds", rule="max(upper) < 0",
          where="IBU paper, Sec. 8 (Gowalla, planar geometric/Laplace); PRIVIC (BA)"),
)

CLAIMS.update(claim_table(
    Claim("D7", "Attribute inference gains nothing where the lift is small: V(S|Y) = V(S) for every mechanism "
               "whose max-lift plus min-lift leakage is at most log(P(s*)/P(s')) (binary S), every sweep point",
          source="derived", kind="holds", rule="violations == 0 and checked > 0",
          where="P(s'|y) ≤ e^{ℓ_max} P(s') ≤ e^{−ℓ_min} P(s*) ≤ P(s*|y): the best guess never changes"),
    Claim("D8", "At the operating point the PIE paper's Fano bound leaves a re-identification error of at least "
               "1 − (min(1, 1²)/ln 2 + 1)/log2 n for every 1-LDP mechanism (n = 48,842 on Adult, 1,010 on Gowalla; "
               "smallest margin)",
          source="derived", kind="range", lower=-1e-12, one_sided=True,
          where="D2 (Cuff and Yu) composed with Cor. 3.9 of the PIE paper"),
    Claim("S3", "The multidimensional protocols (SMP, RS+FD, RS+RFD) identify only the marginals: their channels on "
               "the 4 × 3 tuple have rank at most 1 + (4 − 1) + (3 − 1) = 6 < 12, on both data sets",
          source="derived", kind="holds", rule="violations == 0 and checked == 6",
          where="P(y|v) = Σ_j (1/d) P_j(y_j|v_j) Π_{i≠j} P_fake(y_i): a sum of per-attribute terms (risks paper, Sec. 2.3)"),
    Claim("E2b", "Where IBU has no advantage, IBU and INV coincide: for k-RR and SS the mean EMDs are equal within "
                "2 paired SE + 1e-4 bins (Adult)",
          source="extension", kind="holds", rule="max(gap) <= 0",
          where="for a square invertible channel the MLE is the INV estimate whenever it lies in the simplex",
          expect="diverges", instead="max(excess) <= 0",
          note="gap = |mean difference| − 2 SE − 1e-4 (the criterion fixed before any result). The first book-scale "
               "run failed it: for k-RR IBU and INV differ by 0.4% of the EMD at 3.3 paired SE (gap 8e-6 bins, a "
               "narrow failure), so the two estimators are close, not identical, and the row records a divergence. Instead: they agree within "
               "1% of INV's EMD plus 2 paired SE (excess = |mean difference| − 0.01 EMD(INV) − 2 SE ≤ 0)."),
    # ---- the PIE paper -------------------------------------------------------------------------------
    Claim("E4a", "The PIE paper's bound ordering of RR and GLH (θ_RR vs θ_GLH, OLH's g = round(e^ε) + 1) predicts "
                "the ordering of their exact PIE on Gowalla at ε ∈ {0.5, 1, 2, 4, 6}",
          source="extension", kind="holds", rule="mismatches == 0 and checked == 5",
          where="PIE paper, Thms 4.2 and 4.4: I(U;Y) ≤ θ I(U;X)",
          expect="diverges", instead="mismatches <= 1",
          note="At ε = 2 OLH's g = 8 is close to k = 12: the bounds favour RR (θ_RR < θ_GLH) but the exact PIE of the two "
               "differs by 2% the other way (RR 0.153, OLH 0.150 bits); the bounds are not tight enough to order "
               "near-equal mechanisms. Instead: the ordering fails at one ε at most."),
    Claim("E4b", "The same ordering predicts which of RR and OLH leaks more about the secret (lift lens: "
                "LDP-w.r.t.-S leakage, Adult)",
          source="extension", kind="holds", rule="mismatches == 0 and checked == 5",
          where="PIE paper, Thms 4.2 and 4.4, read in the lift lens (Zarrabian et al.)"),
    # ---- the lift paper ----------------------------------------------------------------------------
    Claim("E5", "On Adult the lift paper's utility order holds at every budget of the sweep: complete merging ≤ "
               "subset merging ≤ SRR ≤ AORR in I(X;Y)",
          source="extension", kind="order", relation="complete <= subset <= SRR <= AORR", atol=1e-9,
          where="Zarrabian et al., Sec. IV-VI, Figs. 3-5 (synthetic joints); here the real Adult joint"),
    Claim("E6", "The ALIP guarantee does not limit re-identification: at the operating point every lift-based "
               "mechanism's V(X|Y) exceeds every 1-LDP mechanism's (Adult)",
          source="extension", kind="order", relation="LDP < lift", atol=0.0,
          where="ALIP bounds P(s|y)/P(s) only; the watchdog publishes low-risk values unchanged (Sec. III)"),
    Claim("E11", "AORR keeps the information of the perfect-privacy response at every budget: its I(X;Y) never falls "
                "below the ε → 0 limit (bits, smallest gap along the sweep)",
          source="derived", kind="range", lower=-1e-9, one_sided=True,
          where="the feasible set of LP (22) grows with the budget and contains the perfect-privacy columns"),
    # ---- the risks paper ---------------------------------------------------------------------------
    Claim("E7a", "RS+FD leaks less identifying information (PIE) than SMP at the ε the risks paper states (ε = 1, "
                "Gowalla)",
          source="extension", kind="order", relation="RSFD < SMP", atol=0.0,
          where="risks paper (Arcolezi et al. 2023), Sec. 4-5: fake data hides the sampled attribute",
          expect="diverges", instead="RSFD_tight < SMP",
          note="At a stated ε = 1 RS+FD's randomiser runs at the amplified ε' = ln(d(e^ε − 1) + 1) = 1.49, so its "
               "channel is 1.49-LDP, not 1-LDP; it then leaks more than SMP. Instead (RSFD_tight): at an equal "
               "tight level, RS+FD leaks less."),
    Claim("E7b", "At an equal tight level (the operating point) RS+FD's reports also leak less about the secret S than "
                "SMP's (LDP-w.r.t.-S leakage, Adult)",
          source="extension", kind="order", relation="RSFD < SMP", atol=0.0,
          where="risks paper, Sec. 5 (attribute inference), here in the lift lens"),
    # ---- PRIVIC -------------------------------------------------------------------------------------
    Claim("E8", "Rate-distortion lens: at each square-channel mechanism's expected distortion, a BA channel releases "
               "no more information I(X;Y) (both data sets, operating point)",
          source="derived", kind="holds", rule="violations == 0 and checked > 0",
          where="PRIVIC, Def. 2.3 and Thm 3.1 (BA attains R(D)); chords of the traced curve are achievable"),
    Claim("E9", "BA's tight geo-indistinguishability level never exceeds 2β (both data sets, every sweep point)",
          source="invariant", kind="holds", rule="violations == 0 and checked > 0",
          where="PRIVIC, Remark 4"),
    # ---- the IBU paper, along the sweeps --------------------------------------------------------------
    Claim("E10", "Utility improves with the privacy parameter: along the sweep of every family with a finite ε-LDP "
                "level the mean EMD after IBU never increases by more than 2 SE (Adult)",
          source="extension", kind="holds", rule="increases == 0 and checked > 0",
          where="IBU paper, Figs. 5-9 (EMD decreasing in ε for k-RR, RAPPOR, geometric); here every family whose "
                "channel changes continuously with its parameter (merging mechanisms change their blocks in jumps)",
          expect="diverges", instead="increases_high == 0 and checked_high > 0",
          note="At the smallest parameters IBU, started from the uniform distribution, barely moves from it, and the "
               "uniform is close to the truth here (EMD 0.2-0.4 bins); a slightly larger parameter moves the estimate "
               "and the EMD first rises (planar geometric by more than 2 SE). Instead: from the third sweep point "
               "on (ε ≥ 0.29 for the oracles) no step increases."),
    # ---- rank agreement ------------------------------------------------------------------------------
    Claim("K1", "The two lenses on X agree: Kendall τ between I(X;Y) and V(X|Y) over the 18 mechanisms at the "
               "operating point is at least 0.6 (Adult)",
          source="extension", kind="range", lower=0.6, one_sided=True,
          where="both are functionals of the posterior on X; τ ≥ 0.6 is 'strong agreement'"),
    Claim("K2", "The lens on X predicts the lens on S: τ(I(X;Y), LDP-w.r.t.-S leakage) ≥ 0.5 (Adult)",
          source="extension", kind="range", lower=0.5, one_sided=True,
          where="PIE (information about X) against ALIP (about S)"),
    Claim("K3", "Every pair of mechanisms that the information lens and the utility lens order differently is "
               "explained: a channel that merges inputs (rank < k) or exactly one metric mechanism (Adult)",
          source="extension", kind="holds", rule="other == 0 and explained > 0",
          where="the discordant pairs of τ(I(X;Y), −EMD after IBU), sorted by experiments.explain_discordance",
          expect="diverges", instead="other == within and explained > 0",
          note="Pairs of the same class (two frequency oracles, two metric mechanisms, AORR and SRR) also swap: "
               "within a class the differences in I(X;Y) are small and the EMD depends on how the channel spreads "
               "its noise, not on how much it releases. Instead: every unexplained pair is within one class."),
    # ---- re-identification over collections ------------------------------------------------------------
    Claim("U1", "Re-identification after t ∈ {1, 4, 16} collections stays below the PIE paper's bound "
               "(t I(U;Y) + 1)/log2 n for every mechanism (Gowalla; Monte Carlo, 2 SE slack)",
          source="derived", kind="holds", rule="violations == 0 and checked > 0",
          where="PIE paper, Cor. 3.9 (Fano) with I(U;Y_1..Y_t) ≤ t I(U;Y) for reports independent given U"),
    Claim("U2", "Re-identification accuracy does not decrease with the number of collections (every mechanism, "
               "Gowalla; a step down counts beyond 2 SE)",
          source="extension", kind="holds", rule="decreases == 0 and checked > 0",
          where="risks paper, Sec. 4 (more surveys, more re-identification); here for every mechanism"),
    # ---- matched comparisons: equal information, equal utility ------------------------------------------
    Claim("M1", "At equal information about X (each family's parameter root-found to k-RR's I(X;Y) at tight 1-LDP, "
               "Adult) every metric mechanism and BA estimates P_X better than k-RR: mean EMD after IBU below "
               "k-RR's by more than 2 SE of the difference (independent runs)",
          source="extension", kind="holds", rule="max(upper) < 0",
          where="the PIE paper's lens (I(X;Y)) against the IBU paper's (EMD); PRIVIC's BA minimises distortion at "
                "a given information",
          expect="diverges", instead="min(lower) > 0",
          note="upper (lower) = EMD(m) − EMD(k-RR) + (−) 2 sqrt(SE(m)² + SE(k-RR)²), per mechanism. Criterion fixed "
               "before the run; the first book-scale run failed it for every mechanism: at equal information their "
               "EMD after IBU is 0.12-0.24 bins against k-RR's 0.068. Measured cause: at equal I(X;Y) their channels "
               "are far worse conditioned (smallest singular value 0.03 for the exponential mechanism down to 4e-4 "
               "for Laplace, 0 for BA, against 0.125 for k-RR), and the estimate's error along the attenuated "
               "directions grows as 1/σ_min. Instead: k-RR estimates better than each by more than 2 SE."),
    Claim("M2", "At equal information about X every metric mechanism and BA has a larger ε-LDP level on X than "
               "k-RR's 1 (Adult)",
          source="extension", kind="holds", rule="min(ldp_gap) > 0",
          where="the metric mechanisms' level on X grows with the grid's diameter; ldp_gap = level(m) − level(k-RR)"),
    Claim("M3", "At equal estimation utility (each family's parameter where its mean EMD after IBU equals k-RR's at "
               "tight 1-LDP, Adult; log-linear interpolation along the frontier sweep, scanning from the largest "
               "parameter down) every metric mechanism and BA releases less information I(X;Y) than k-RR",
          source="extension", kind="holds", rule="max(mi_gap) < 0",
          where="the IBU paper's lens (EMD) against the PIE paper's (I(X;Y)); mi_gap = I(m) − I(k-RR), bits",
          expect="diverges", instead="min(mi_gap) > 0",
          note="Criterion fixed before the run; the first book-scale run failed it for every mechanism: to estimate "
               "as well as k-RR at 1-LDP (0.091 bits) they release 0.21-0.48 bits, BA 0.97 bits without reaching "
               "k-RR's EMD on its sweep; the cause is M1's (ill-conditioned channels need more information for the "
               "same estimate). Instead: each releases more than k-RR."),
    Claim("M4", "At equal estimation utility every metric mechanism and BA leaks less about the secret S than k-RR "
               "(LDP-w.r.t.-S leakage, Adult)",
          source="extension", kind="holds", rule="max(lift_gap) < 0",
          where="the IBU paper's lens against the lift paper's; lift_gap = leakage(m) − leakage(k-RR), nats",
          expect="diverges", instead="min(lift_gap) > 0",
          note="Criterion fixed before the run; the first book-scale run failed it for every mechanism (0.85-1.81 "
               "nats against k-RR's 0.37): more information about X (M3) means more about S (K2). Instead: each "
               "leaks more than k-RR."),
))
