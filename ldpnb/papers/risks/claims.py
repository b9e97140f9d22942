"""The claims of Arcolezi, Gambs, Couchot and Palamidessi, "On the Risks of Collecting Multidimensional
Data Under Local Differential Privacy", PVLDB 16(5), 2023, as data (one :class:`Claim` each).

A value is ``paper`` only where the paper prints it (the paper has no tables and prints no curve
value: numbers read off curves, or formulas evaluated by us, are ``derived``).  Tolerances of the
statistical rows follow from the claim's wording ("about", "~") and the Monte Carlo error at the
chapter's number of runs, stated in each row.
"""

from ldpnb.repro.claims import Claim, Printed, claim_table

_PAPER_SCALE = ("paper",)
_XGB_NOTE = ("The paper's XGBoost attacker on the full s and n_pk grids costs about 40 s (GRR) to 95 s (UE) of one "
             "core per (variant, ε) on ACS (9 default-parameter fits on up to 56,848 rows); the book's 8-minute "
             "budget holds the subset described in the chapter, the full grid runs at SCALE=paper.")
_ADULT_NOTE = ("At SCALE=paper XGBoost runs on Adult and Nursery with NK s = 1n and PK 0.5n at ε ∈ {1, 10} (one run): "
               "the paper's whole grid on Adult (45,222 users, 4.4 times ACS) would take about 5 hours of one core "
               "per run.")

CLAIMS = claim_table(
    # ------------------------------------------------------------------ Sec. 3.2: plausible deniability, Fig. 1
    *[Claim(f"H1-{p}", f"Fig. 1a / Eq. 4: after d = 3 surveys (k = [74, 7, 16], ε = 10, uniform metric) the "
                       f"attacker infers the complete profile with probability Π_j ACC_{p.upper()}(ε, k_j): simulated "
                       f"attack (%, 3 surveys of 100,000 users) against the formula",
            source="derived", kind="close", reference=ref, z=4.0, atol=0.0,
            where="Eq. 4 (Sec. 3.2.2) with the single-report accuracies of Sec. 3.2.1 evaluated by us "
                  "(the paper plots the curve, Fig. 1a, and prints no value)",
            note=note)
      for p, ref, note in [
          ("grr", 99.5747, ""), ("sue", 72.3599, ""), ("oue", 15.3500, ""),
          ("ss", 99.5747, "ω-SS with the integer ω = max(1, round(k/(e^ε+1))) = 1 that is run is GRR here."),
          ("olh", 15.3504, "OLH with an ideal random hash (the artifact's xxhash with random seeds) equals OUE; the "
                           "paper's approximation 1/(2 max(k/(e^ε+1), 1)) gives 12.5 % (row T4-OLH).")]],
    Claim("H1-NU", "Fig. 1b / Eq. 5: with the non-uniform metric (users sample with replacement and memoise) the "
                   "complete profile is inferred with probability (d!/d^d) Π_j ACC (GRR, ε = 10; simulated %)",
          source="derived", kind="close", reference=22.1277, z=4.0, atol=0.0,
          where="Eq. 5 (Sec. 3.2.3) evaluated by us at k = [74, 7, 16], ε = 10"),
    Claim("T21", "Sec. 3.2.3: d surveys sampled with replacement cover all d attributes with probability d!/d^d "
                 "(d = 3: 2/9; simulated fraction of users with 3 distinct reports)",
          source="paper", kind="close", paper=Printed(2 / 9, "Sec. 3.2.3 (d!/d^d)"), z=4.0, atol=0.0),
    Claim("T4", "Sec. 3.2.1: the simulated plausible-deniability attack hits with the probability of the closed "
                "forms (GRR, OLH ideal hash, ω-SS, SUE, OUE; k ∈ {7, 74}; 20,000 reports each; largest |z|)",
          source="derived", kind="holds", rule="max_abs_z < 4",
          where="Sec. 3.2.1 formulas (UE: the binomial sum in closed form); 10 comparisons, false-alarm rate 6e-4"),
    Claim("T4-OLH", "Sec. 3.2.1: OLH accuracy ≈ 1/(2 max(k/(e^ε+1), 1)) (k = 74, ε = 4; simulated attack against "
                    "the paper's form, %)",
          source="derived", kind="holds", rule="abs(simulated - paper_form) <= 1", expect="diverges",
          instead="abs(simulated - exact) < 4 * se",
          where="Sec. 3.2.1 OLH formula (after Gursoy et al. 2022) evaluated by us: 37.57 %",
          note="The formula is an approximation: with an ideal random hash the attack's accuracy equals OUE's (27.94 %), "
               "which the simulation matches."),
    Claim("T4-SS", "Sec. 3.2.1: ω-SS accuracy = (e^ε+1)/(2k) (k = 7, ε = 4; accuracy of the attack as run against "
                   "the paper's form, %)",
          source="derived", kind="holds", rule="abs(exact - paper_form) <= 1", expect="diverges",
          instead="abs(exact - grr) < 1e-9",
          where="Sec. 3.2.1 ω-SS formula evaluated by us: 397.13 %",
          note="With the integer ω = max(1, round(k/(e^ε+1))) = 1 that is run, ω-SS is GRR and the accuracy is "
               "e^ε/(e^ε + k − 1) = 90.1 %; the continuous-ω form exceeds 100 %."),
    Claim("T20", "App. C.3: OLH and OUE have an expected upper bound ACC_FO = 1/2 per collection "
                 "(OUE at ε = 10, k = 2 and k = 74, %)",
          source="paper", kind="holds", paper=Printed(50, "App. C.3"), rule="acc_k2 <= 50.5 and acc_k74 <= 50.5",
          expect="diverges", instead="acc_k2 > 50 and acc_k74 < 51",
          note="Only asymptotically in k: the exact accuracy 1/2 + (1/2)(1−q)^(k−1)/k is 75 % at k = 2 and tends to "
               "1/2 from above."),
    # ------------------------------------------------------------------ Sec. 4.2: re-identification of SMP users
    Claim("H2-GRR1", "Sec. 4.2: GRR top-1 RID-ACC after 5 surveys 'at most ~10 %' (Adult, ε = 10, FK-RI, mean of the runs, %)",
          source="paper", kind="range", paper=Printed(10, "Sec. 4.2"), lower=8, upper=13,
          note="'~10' read as [8, 13]; the run-to-run s.d. of the mean is below 0.3 pt."),
    Claim("H2-GRR10", "Sec. 4.2: GRR top-10 upper bound 'about 33 %' after 5 surveys (ε = 10, %)",
          source="paper", kind="range", paper=Printed(33, "Sec. 4.2"), lower=28, upper=38),
    Claim("H2-SUE10", "Sec. 4.2: SUE 'about 28 %' top-10 after 5 surveys (ε = 10, %)",
          source="paper", kind="range", paper=Printed(28, "Sec. 4.2"), lower=22, upper=32),
    *[Claim(f"H2-{p}", f"Sec. 4.2: {p.upper()} ~1 % top-1 and upper-bounded by ~5 % top-10 (ε = 10, 5 surveys, %)",
            source="paper", kind="holds", paper=Printed("~1 / ~5", "Sec. 4.2"),
            rule="top1 >= 0.5 and top1 <= 2 and top10 >= 3.5 and top10 <= 7") for p in ("oue", "olh")],
    Claim("H2-SS", "Sec. 4.2: ω-SS similar to GRR (top-10, 5 surveys, ε = 10; ratio SS/GRR)",
          source="paper", kind="close", paper=Printed(1.0, "Sec. 4.2 and Fig. 2 caption ('similar')"), atol=0.15),
    Claim("H2-order", "Sec. 4.2: OUE and OLH about 10x less than GRR, SUE in between (top-1, 5 surveys, ε = 10)",
          source="paper", kind="holds", paper=Printed(10, "Sec. 4.2 ('about 10x less')"),
          rule="grr > sue and sue > oue and sue > olh and ratio >= 5 and ratio <= 20"),
    Claim("H3", "Sec. 4.2: GRR top-10 RID-ACC ≥ 2.5 % after only 2 surveys (ε = 10, %)",
          source="paper", kind="range", paper=Printed(2.5, "Sec. 4.2"), lower=2.0, upper=3.5,
          note="Read as 'about 2.5 %' (two-sided)."),
    Claim("H2-eps1", "Sec. 4.2: at ε = 1 every protocol stays below 1 % top-10 for every number of surveys (%)",
          source="paper", kind="range", paper=Printed(1, "Sec. 4.2 ('≪ 1 %' near the baseline)"), upper=1.0, one_sided=True),
    Claim("H2-mono", "Sec. 3.2.3 / App. C.3: RID-ACC grows with the number of surveys (top-10, every protocol and ε; "
                     "smallest step, pt)",
          source="paper", kind="holds", paper=Printed("increasing", "App. C.3"), rule="min_step >= -0.05"),
    Claim("Fig2-Fig1", "Sec. 4.2: 'the experimental results of Fig. 2 match the numerical results of Fig. 1': in the "
                       "Fig. 2 simulation, the fraction of fully correct profiles equals Eq. 4's expectation over the "
                       "attributes each user reported (5 protocols, ε ∈ {2, 6, 10}; largest |z|)",
          source="paper", kind="holds", paper=Printed("match", "Sec. 4.2"), rule="max_abs_z < 4",
          note="15 comparisons; |z| < 4 has a false-alarm rate below 1e-3."),
    Claim("Fig9", "App. C.2: ACS follows the patterns of Fig. 2 (GRR > OUE; increasing with #surveys; top-10, ε = 10)",
          source="paper", kind="holds", paper=Printed("same pattern", "App. C.2"),
          rule="grr5 > oue5 and min_step_grr > 0 and min_step_oue > 0"),
    Claim("H4-PK", "Sec. 4.2 / App. C.3: PK-RI reduces RID-ACC 'by about 50 % for all LDP protocols' (PK/FK, ε = 10, "
                   "5 surveys, top-10, mean over the runs' PK subsets, each protocol)",
          source="paper", kind="close", paper=Printed(0.5, "Sec. 4.2 ('by almost half'); App. C.3"), atol=0.15,
          note="'About 50 %' read as a ratio in [0.35, 0.65]; the ratio of a single PK subset ranges far wider, so "
               "it is averaged over the runs (10-20 subsets per protocol at book scale)."),
    Claim("H4-NU", "App. C.3: the non-uniform metric decreases RID-ACC 'by about 40 %' (NU/U, ε = 10, 5 surveys, top-10, "
                   "FK-RI, each protocol)",
          source="paper", kind="close", paper=Printed(0.6, "App. C.3 ('by about 40 %')"), atol=0.15),
    # ------------------------------------------------------------------ App. C: alpha-PIE (Figs. 12, 13)
    Claim("T14", "Prop. 3 (App. C.1): ε-LDP ⇒ (U, α)-PIE: the capacities of GRR, SUE and OUE are ≤ α, and GRR's ≤ "
                 "λ log2 k (k ≤ 5, ε ∈ [0.25, 4]; largest capacity − bound, bits)",
          source="paper", kind="range", paper=Printed("≤ α", "Prop. 3, App. C.1"), upper=1e-9, one_sided=True),
    Claim("PIE-sign", "App. C.1: α is chosen from β through Eq. 11 (β = 0.95, n_d = 9,044)",
          source="paper", kind="holds", paper=Printed("α = (1−β) log2 n − 1", "Eq. 11, App. C.1"),
          rule="alpha_eq11 > 0", expect="diverges", instead="alpha_eq11 < 0 and alpha_artifact > 0",
          note="Eq. 11 inverted literally gives a negative (infeasible) α at β = 0.95; the artifact uses +1 instead of "
               "−1, which the chapter reproduces."),
    Claim("H10-a", "App. C.3: even β = 0.95 gives higher RID-ACC than ε = 1 (each protocol, 5 surveys, top-10, FK-RI)",
          source="paper", kind="holds", paper=Printed("higher", "App. C.3"), rule="all(gap > 0)"),
    Claim("H10-c", "App. C.3: the β = 0.95 vs ε = 1 difference is larger for SUE, OUE and OLH than for GRR "
                   "(ratio RID(β = 0.95)/RID(ε = 1), top-10, 5 surveys)",
          source="paper", kind="holds", paper=Printed("more difference for SUE, OUE and OLH", "App. C.3"),
          rule="min(others) > grr", expect="diverges", instead="grr > max(others) and min(others) > 1",
          note="GRR shows the largest difference, in ratio and in points (H10-a's gaps): at β = 0.95 the PIE budgets "
               "of the small-domain attributes are large or 'clear', where GRR's per-report accuracy approaches 1 "
               "while UE's and OLH's stay near 1/2 (Sec. 3.2.1), so GRR gains most from the larger budgets."),
    Claim("H10-b", "App. C.3: for β ≤ 0.6 no attribute is randomised, and all protocols reach the same (perfect-"
                   "inference) RID-ACC (β = 0.6, 5 surveys, FK-RI; spread over protocols, pt)",
          source="derived", kind="holds", rule="n_clear == 10 and spread <= 2",
          where="the α-PIE mapping of App. C.1 at β = 0.6 (every ε_j infinite); Figs. 12-13 show equal curves"),
    # ------------------------------------------------------------------ Sec. 4.3: attribute inference on RS+FD
    Claim("H5-a", "Sec. 4.3: with uniform fake data (GRR, UE-r) AIF-ACC is upper-bounded by 'about 25 %' (ACS; "
                  "largest Bayes-oracle accuracy over ε, %)",
          source="paper", kind="range", paper=Printed(25, "Sec. 4.3; App. E.2"), lower=20, upper=28,
          note="The oracle knows the true marginals: no attacker can do better, so its maximum is the bound."),
    Claim("H5-b-OUE", "Sec. 4.3: RS+FD[GRR] 'about 5 %' above RS+FD[UE-r], here OUE-r (NK Bayes, ACS, every ε ≥ 4, pt)",
          source="paper", kind="range", paper=Printed(5, "Sec. 4.3"), lower=2, upper=9),
    Claim("H5-b-SUE", "Sec. 4.3: RS+FD[GRR] 'about 5 %' above RS+FD[UE-r], here SUE-r (NK Bayes, ACS, every ε ≥ 4, pt)",
          source="paper", kind="range", paper=Printed(5, "Sec. 4.3"), lower=2, upper=9, expect="diverges",
          instead="max(ours) < 2",
          note="SUE-r is as exposed as GRR at large ε: its amplified ε' makes p → 1, q → 0, so a real UE report is a "
               "near-exact one-hot of v_j, and the fake one-hot of a uniform value differs from it by the value "
               "distribution alone, as for GRR. The Bayes oracle shows the same gap, so the attacker is not the cause."),
    Claim("H5-c", "Sec. 4.3: 'about 50 %' with RS+FD[OUE-z] (NK Bayes, ACS, every ε ≥ 4, %)",
          source="paper", kind="range", paper=Printed(50, "Sec. 4.3"), lower=45, upper=56),
    Claim("H5-d", "Sec. 4.3: 'almost 100 %' with RS+FD[SUE-z] at ε = 10 (ACS, NK Bayes, %)",
          source="paper", kind="range", paper=Printed(100, "Sec. 4.3"), lower=90, one_sided=True,
          note="One-sided: 100 % is the largest possible accuracy."),
    Claim("H5-e", "Sec. 4.3: SUE variants lower than OUE at small ε, higher in low-privacy regimes (UE-z, NK Bayes)",
          source="paper", kind="holds", paper=Printed("crossing", "Sec. 4.3"), rule="sue1 < oue1 and min_gap_high > 0"),
    Claim("H5-f", "Sec. 1 / Sec. 4.3: NK, PK and HM give '2-20 fold' increments over the 1/d baseline (ACS, ε ≥ 2, "
                  "NK Bayes, every variant)",
          source="paper", kind="holds", paper=Printed((2, 20), "Sec. 1; Sec. 4.3"),
          rule="min_fold >= 1.5 and min_fold <= 3 and max_fold >= 15", expect="diverges",
          instead="min_fold <= 4 and max_fold >= 15 and xgb_min_fold <= 2.5",
          note="On ACS (d = 18) the largest possible fold is 18, so '20' is read as 'up to the maximum'. The lower end "
               "diverges: the Bayes NK attacker (s → ∞) is at least 3-fold above the baseline at every ε ≥ 2; the "
               "paper's 2-fold is the XGBoost attacker's level at ε = 1 (xgb_min_fold: its smallest fold there)."),
    Claim("H6-a", "Sec. 4.4: RS+FD[GRR] AIF-ACC on Adult 'upper bounded in 40 %' (Bayes oracle, ε ≥ 4, %)",
          source="paper", kind="range", paper=Printed(40, "Sec. 4.4"), lower=30, upper=42),
    Claim("H6-b", "Sec. 4.3 / App. D: on Nursery RS+FD[GRR] and [UE-r] give no meaningful increment over the 11.1 % "
                  "baseline (largest Bayes-oracle accuracy, %)",
          source="paper", kind="range", paper=Printed("no meaningful increment", "Sec. 4.3; App. D"), upper=16.7,
          one_sided=True, note="Upper bound 1.5 x baseline."),
    Claim("H6-c", "App. D: 'about 100 %' with RS+FD[SUE-z] on all three datasets (ε = 10, NK Bayes, %)",
          source="paper", kind="range", paper=Printed(100, "App. D"), lower=90, one_sided=True),
    Claim("H6-d", "App. D: 'about a 1.3-10 fold increment' on Adult (NK Bayes, every variant and ε)",
          source="paper", kind="holds", paper=Printed((1.3, 10), "App. D"), rule="min_fold <= 2 and max_fold >= 8",
          expect="diverges", instead="min_fold <= 3 and max_fold >= 8",
          note="On Adult (d = 10) the largest possible fold is 10. The lower end diverges: the Bayes NK attacker "
               "(the s → ∞ limit of the paper's NK) is 2.3-fold above the baseline even at ε = 1, the paper's "
               "XGBoost 1.3-fold; on ACS, where both run, XGBoost NK is likewise below the Bayes NK at ε = 1."),
    Claim("H6-e", "App. D: 'about a 0.1-10 fold increment' on Nursery (NK Bayes, every variant and ε)",
          source="paper", kind="holds", paper=Printed((0.1, 10), "App. D"), rule="min_fold <= 1.2 and max_fold >= 7",
          note="On Nursery (d = 9) the largest possible fold is 9."),
    Claim("T17", "XGBoost's AIF-ACC ≤ the Bayes-optimal (oracle) accuracy (ACS, every variant, model and ε; largest "
                 "excess, pt)",
          source="invariant", kind="range", upper=1.5, one_sided=True,
          where="the Bayes rule is optimal; 1.5 pt covers the test-set noise of 10,336 users"),
    Claim("T17-Adult", "XGBoost's AIF-ACC ≤ the Bayes-optimal (oracle) accuracy (Adult, NK s = 1n and PK 0.5n, "
                       "every variant, ε ∈ {1, 10}; largest excess, pt)",
          source="invariant", kind="range", upper=1.5, one_sided=True, where="the Bayes rule is optimal",
          scales=_PAPER_SCALE, note=_ADULT_NOTE),
    Claim("T17-Nursery", "XGBoost's AIF-ACC ≤ the Bayes-optimal (oracle) accuracy (Nursery, NK s = 1n and PK 0.5n, "
                         "every variant, ε ∈ {1, 10}; largest excess, pt)",
          source="invariant", kind="range", upper=1.5, one_sided=True, where="the Bayes rule is optimal",
          scales=_PAPER_SCALE, note=_ADULT_NOTE),
    Claim("H5-g", "Sec. 4.3: NK (s = 1n) gives higher AIF-ACC than PK with n_pk = 0.5n (XGBoost, ACS, every variant "
                  "and ε)",
          source="paper", kind="order", paper=Printed("NK > PK 0.5n", "Sec. 4.3"), relation="PK < NK", atol=0.0,
          expect="diverges", instead="mean(NK - PK) > -3",
          note="XGBoost trained on 1n synthetic profiles and on 0.5n labelled users reach nearly the same accuracy; NK "
               "is below PK in some cells by a few points (the synthetic profiles come from clipped estimates, the "
               "labelled users are real)."),
    Claim("XGB-GRR", "Sec. 4.3: RS+FD[GRR] AIF-ACC 'upper-bounded by about 25 %' yet well above the baseline "
                     "(XGBoost NK s = 1n, ε = 10, ACS, %)",
          source="paper", kind="range", paper=Printed(25, "Sec. 4.3"), lower=11.1, upper=28),
    Claim("H5-s", "Sec. 4.3: 'increasing s has less impact than increasing n_pk' (XGBoost, ACS)",
          source="paper", kind="holds", paper=Printed("s < n_pk impact", "Sec. 4.3"),
          rule="mean(gain_pk) > mean(gain_s)", scales=_PAPER_SCALE, note=_XGB_NOTE),
    Claim("H5-hm", "Sec. 4.3: 'NK and HM results are quite similar' (XGBoost, ACS; largest |NK − HM|, pt)",
          source="paper", kind="range", paper=Printed("quite similar", "Sec. 4.3"), upper=3.0, one_sided=True,
          scales=_PAPER_SCALE, note=_XGB_NOTE),
    Claim("H5-nk", "Sec. 4.3: NK with every s ∈ {1n, 3n, 5n} higher than PK with n_pk = 0.5n (XGBoost, ACS)",
          source="paper", kind="order", paper=Printed("NK > PK 0.5n", "Sec. 4.3"), relation="PK < NK",
          scales=_PAPER_SCALE, expect="diverges", instead="mean(NK - PK) > -3",
          note="NK grows with s (row H5-s), so its minimum over s is s = 1n and the row meets H5-g on the paper's "
               "whole grid. Found at paper scale: in the run recorded at commit ef43245 (graded then as a pass "
               "expected, hence 'fail') NK was below PK 0.5n in 27 of the 50 (variant, ε) cells, by at most "
               "1.5 points, 0.03 points on average: the two attackers are level, neither is higher. Declared a "
               "divergence since, with H5-g's fallback rule (fixed at book scale before that run). "
               + _XGB_NOTE),
    Claim("H6-sens", "App. D: s and n_pk had 'few influence' on Adult while ACS and Nursery are sensitive, especially "
                     "to n_pk in PK (XGBoost)",
          source="paper", kind="none", paper=Printed("few influence on Adult", "App. D"), expect="not-evaluated",
          note="Not run: it needs the paper's whole XGBoost grid (9 models, 5 variants, 10 ε) on Adult, about 5 hours "
               "of one core per run on this project's 2-core machine (measured on ACS: 40 s (GRR) to 95 s (UE) of one "
               "core per variant and ε, and Adult has 4.4 times ACS's users). The ACS side of the statement is "
               "rows H5-s and H5-nk."),
    # ------------------------------------------------------------------ Sec. 4.4: RID through RS+FD (Fig. 4)
    Claim("H7-a", "Sec. 4.4: the RID-ACC of RS+FD[GRR] is 'drastically decreased' compared with SMP[GRR] (Adult, "
                  "top-10, every ε ≥ 4 and #surveys; SMP/RS+FD ratio of run means: no cell shown below 10)",
          source="derived", kind="holds", rule="upper >= 10",
          where="'drastically' read as an order of magnitude (Sec. 4.4, Fig. 4 vs Fig. 2)",
          note="upper: the smallest of the cells' simultaneous 95 % upper confidence bounds on the ratio (Fieller, "
               "Welch t, Bonferroni over the cells; checks.ratio_upper_bound); min: the smallest ratio itself. At "
               "book scale the weakest cell is ε = 4 at 2 surveys, where the reduction is about tenfold. Criterion "
               "changed on 2026-11-25: it was 'smallest ratio ≥ 10' with a declared divergence (3 runs gave 6.3; the paper-scale "
               "record, 20 runs, gave 10.03): a bare threshold on the minimum of noisy ratios, decided by the run count."),
    Claim("H7-a-art", "Sec. 4.4 with the artifact's sampling with replacement: SMP/RS+FD RID ratio ≥ 10 (top-10, every "
                      "ε ≥ 4 at 5 surveys)",
          source="extension", kind="range", lower=10, one_sided=True,
          where="the artifact's effective survey behaviour (1_RID_Attack_FK_RS+FD_Adults.py)"),
    Claim("H7-b", "Sec. 4.4: top-1 RID-ACC of RS+FD 'nearly equal to the random Baseline' 0.0022 % (largest over ε and "
                  "#surveys, %)",
          source="paper", kind="range", paper=Printed(0.0022, "Sec. 4.4 (baseline 1/n)"), upper=0.01, one_sided=True,
          expect="diverges", instead="ours < 0.25",
          note="Top-1 reaches tens of times the baseline (still far below SMP's ≈ 10 %): 'nearly equal' holds in "
               "absolute terms only."),
    Claim("H7-c", "Sec. 4.4: 'even for the top-10 group the RID-ACC has meaningful improvement over the Baseline' "
                  "(largest over ε and #surveys, %; baseline 0.022 %)",
          source="paper", kind="range", paper=Printed("meaningful improvement", "Sec. 4.4"), lower=0.11, one_sided=True,
          note="Lower bound 5 x baseline. The sentence may lack a 'no'; literally it holds."),
    Claim("H7-d", "Sec. 4.4: RS+FD is a countermeasure to RID 'except for RS+FD[SUE-z]' (top-10 at ε = 10, 5 surveys: "
                  "SUE-z ≥ half of SMP[GRR]'s RID, every other variant ≤ a fifth)",
          source="paper", kind="holds", paper=Printed("except for RS+FD[SUE-z]", "Sec. 4.4"),
          rule="sue_z >= 0.5 * smp and max(others) <= 0.2 * smp"),
    # ------------------------------------------------------------------ Sec. 5: RS+RFD
    Claim("T1", "Theorem 1 (App. A, B): the RS+RFD estimators (Eqs. 6, 7) are unbiased (ACS, ε = ln 3, correct priors, "
                "count-level simulation; largest |z| of the mean estimate over all values)",
          source="paper", kind="holds", paper=Printed("E[f̂] = f", "Theorem 1; App. A, B"), rule="max_abs_z < 5",
          note="198 values per protocol, 396 in all: |z| < 5 has a false-alarm rate below 3e-4."),
    Claim("T2", "Theorem 2 / Eqs. 8, 9: the empirical variance of the RS+RFD estimates equals d²γ(1−γ)/(n(p−q)²) "
                "(ratio pooled over values, GRR and UE-r)",
          source="paper", kind="close", paper=Printed(1.0, "Theorem 2; Eqs. 8, 9"), atol=0.05,
          note="Pooled over 396 values and the runs: the relative s.d. of the pooled ratio is about 1 %."),
    Claim("T9", "Sec. 5.1: with uniform priors RS+RFD's estimators are RS+FD's (largest |difference|)",
          source="paper", kind="close", paper=Printed(0, "Sec. 5.1 (f̃ = uniform gives RS+FD)"), atol=1e-12),
    Claim("T19", "Figs. 7, 8: Pr[report supports v] = γ of Eqs. 8, 9 (single user, 200,000 reports; largest |z|)",
          source="paper", kind="holds", paper=Printed("γ", "Figs. 7, 8; Eqs. 8, 9"), rule="max_abs_z < 5"),
    Claim("T13", "Sec. 2.3.2 / 5.1: RS+FD and RS+RFD satisfy ε-LDP (tight level of the exact tuple channel of "
                 "RS+FD[GRR], k = (2, 2), ε = 1)",
          source="paper", kind="holds", paper=Printed("ε-LDP", "Sec. 2.3.2; Sec. 5.1"), rule="abs(tight - 1) <= 1e-6",
          expect="diverges", instead="abs(tight - eps_prime) < 1e-9 and abs(neighbour - 1) < 1e-9",
          note="The ε claim holds for tuples that differ in one attribute (equal k, uniform fake data); over arbitrary "
               "pairs the exact level is ε' = ln(d(e^ε − 1) + 1) (1.490 here), and with unequal k or priors even the "
               "one-attribute level exceeds ε. The mechanism objects therefore claim ε'."),
    Claim("H8-ACS", "Sec. 5.2.2: RS+RFD[GRR] consistently outperforms RS+FD[GRR] with correct priors (ACS; expected MSE "
                    "ratio at every ε and experimental ratio pooled over ε)",
          source="paper", kind="holds", paper=Printed("consistently better", "Sec. 5.2.2"),
          rule="max(expected) <= 0.7 and pooled <= 0.7"),
    Claim("H8-Adult", "App. E.1: the same on Adult (expected and pooled experimental MSE ratio)",
          source="paper", kind="holds", paper=Printed("consistently better", "App. E.1"),
          rule="max(expected) <= 0.85 and pooled <= 0.85"),
    Claim("Fig5-a", "Fig. 5a: every RS+RFD protocol outperforms its RS+FD counterpart (ACS, correct priors)",
          source="paper", kind="holds", paper=Printed("all better", "Sec. 5.2.2, Fig. 5a"),
          rule="all_expected_lower == 1 and max(pooled) < 1"),
    Claim("Fig5-b", "Fig. 5b / App. E.1: with DIR priors RS+RFD is still better except OUE-r at low privacy (ACS, "
                    "expected MSE over the drawn priors)",
          source="paper", kind="holds", paper=Printed("better except OUE-r", "Sec. 5.2.2; App. E.1"),
          rule="grr_sue_lower == 1 and oue_ratio_high >= 0.8 and oue_ratio_high <= 1.1"),
    Claim("E1-Adult", "App. E.1 on Adult: DIR priors better except OUE-r at low privacy; ZIPF and EXP improved "
                      "experimentally (pooled MSE ratios RS+RFD/RS+FD)",
          source="paper", kind="holds", paper=Printed("improved", "App. E.1, Fig. 16"),
          rule="dir_grr < 1 and dir_sue < 1 and max(zipf_exp) < 1"),
    Claim("H8-analytic", "App. E.1: experiments consistent with the analytical variance (experimental MSE vs exact "
                         "expected MSE, pooled over ε, every dataset, prior and protocol; largest relative deviation)",
          source="paper", kind="range", paper=Printed("consistent", "App. E.1"), upper=0.25, one_sided=True,
          note="One run has ≈ 34 % relative s.d. on ACS; 0.25 is ≈ 4 s.e. at the book's runs."),
    Claim("T10", "RS+RFD's averaged approximate variance ≤ RS+FD's for every prior (Adult; DIR, ZIPF, EXP draws x 6 ε "
                 "x 3 protocols; violations)",
          source="derived", kind="holds", rule="violations == 0 and cases > 0",
          where="App. E.1: the f = 0 variance is minimised by the uniform fake distribution only in expectation; "
                "checked per draw"),
    Claim("H8-zipf", "App. E.1: with ZIPF priors the approximate variance 'improved considerably', especially "
                     "RS+RFD[GRR] (largest ratio to RS+FD[GRR])",
          source="paper", kind="range", paper=Printed("considerable", "App. E.1"), upper=0.35, one_sided=True),
    Claim("H9-a", "Sec. 5.2.3: against RS+RFD (correct priors) the paper's NK attacker gains only marginally over the "
                  "5.56 % baseline (ACS, every variant and ε, %)",
          source="paper", kind="range", paper=Printed("minor gain", "Sec. 5.2.3"), lower=2.0, upper=11.1),
    Claim("H9-b", "Sec. 5.2.3: RS+RFD considerably decreases AIF-ACC vs RS+FD (GRR, NK, ε ≥ 2; pt)",
          source="paper", kind="range", paper=Printed("considerable", "Sec. 5.2.3"), lower=8, one_sided=True),
    Claim("H9-c", "Sec. 5.2.3: against RS+RFD, PK gives higher AIF-ACC than NK (mean over ε and protocols; pt)",
          source="paper", kind="range", paper=Printed("PK > NK", "Sec. 5.2.3"), lower=0.0, one_sided=True),
    Claim("Fig6-npk", "Sec. 5.2.3 (Fig. 6): PK AIF-ACC grows with n_pk (0.1n, 0.3n, 0.5n; mean over ε and protocols)",
          source="paper", kind="monotone", paper=Printed("grows with n_pk", "Sec. 5.2.3"), direction="increasing"),
    Claim("H9-xgb", "Sec. 5.2.3 (XGBoost): against RS+RFD, PK (0.5n) > NK (s = 1n) and every accuracy stays ≤ 2x the "
                    "baseline (ACS)",
          source="paper", kind="holds", paper=Printed("PK > NK, minor gain", "Sec. 5.2.3"),
          rule="pk_minus_nk > 0 and max_acc <= 11.1"),
    Claim("E2-inc", "App. E.2 (Fig. 17): with ZIPF and EXP priors the paper's NK attacker reaches '~8 %' (largest over "
                    "ε, every variant, %)",
          source="paper", kind="close", paper=Printed(8, "App. E.2"), atol=3.0),
    Claim("H9-aware", "Extension: a prior-aware NK attacker beats the paper's attacker against RS+RFD[GRR] with correct "
                      "priors (ACS, every ε)",
          source="extension", kind="holds", rule="min(aware - naive) > 0",
          where="the server publishes the priors, so the attacker can use them"),
    Claim("S6-rec", "Sec. 6: 'even when no prior is available, we highly recommend ... RS+RFD' (with incorrect priors "
                    "RS+RFD[GRR] keeps AIF-ACC at or below RS+FD[GRR]'s ≈ 25 %; prior-aware attacker, ACS, %)",
          source="paper", kind="range", paper=Printed("recommended", "Sec. 6"), upper=25, one_sided=True,
          expect="diverges", instead="min(ours) > 25",
          note="A prior-aware attacker, who uses the public priors exactly as the server does, reaches 37-61 % with "
               "DIR, ZIPF and EXP priors: concentrated fake data make a report outside the prior's mass almost surely "
               "real. The recommendation holds only against the paper's attacker, which assumes uniform fake data."),
)
