r"""The PIE paper's claims as data (Murakami and Takahashi, TDP 14 (2021) 79-116).

Every value under ``paper=Printed(...)`` is printed in the paper, at the place ``where`` names.
Values we computed are ``derived``; the synthetic population of Figs. 10-12 is a ``calibration``
(its Zipf exponent was chosen so that the RR reaches the paper's :math:`l_2` loss of
:math:`10^{-6}` near ε = 12.7); checks of our own code are ``invariant``.  Tolerances are fixed
here, from the claim's wording (a printed value with two significant digits is matched to half a
unit of its last digit; "much smaller" on the paper's logarithmic axes is one decade).

Monte Carlo numbers are recorded as :class:`ldpnb.stats.Estimate` objects (a value with its
confidence interval) and decided with three outcomes (holds, reversed, undecided); each such row
declares its region, the ``effect`` at which the claim is materially false (its falsifier) and,
where bounded, the ``domain`` of the quantity.  The sizes that make the regions decidable
(``VAR_REPS``, ``SIZES_BY_SCALE``) live here too, so that the chapter and the criteria cannot drift
apart.
"""

from __future__ import annotations

from dataclasses import replace

from ldpnb.repro.claims import Claim, CriterionChange, Printed, claim_table

__all__ = [
    "CLAIMS",
    "DECISION_LOG",
    "N_LT",
    "K_LT",
    "VAR_REPS",
    "SIZES_BY_SCALE",
    "THEOREM_IDS",
    "ERRATA",
    "EPS10",
    "G12",
]

#: The LT population of the paper (Sec. 5.1): users and POIs; Fig. 4 and Figs. 10-12 use them.
N_LT, K_LT = 1_370_637, 10_500_393
#: Monte Carlo runs of the variance check of Props. 4.6/4.7 (T16-17, T16-17b), per scale.  8,000
#: runs give the ratio of a mean squared error to Eq. (22)/(23) a relative standard error of about
#: 0.016, so that a simultaneous interval over the 320 cells (about 3.8 standard errors) decides the
#: +-0.15 region (2,000 runs could not: 0.032 x 3.8 x 2 exceeds it).
VAR_REPS = {"smoke": 300, "book": 8000, "paper": 16000}
#: The ε grid of Fig. 10 and the g grid of Fig. 12 (the criteria of F10d name cells of EPS10).
EPS10 = (1, 2, 4, 6, 8, 10, 11, 12, 12.72, 13.2, 14, 16, 18, 20)
G12 = (10**3, 10**4, 10**5, 10**6, 10**7, 10**8, 10**9, 2 * 10**9)
#: The chapter's sizes per scale: random instances of the theorem checks; runs per point of Figs.
#: 10 and 12 (``runs``) and of Fig. 11 (``runs11``, its two settings: the relative errors are
#: compared with single printed values and with their exact expectation); LT users (None: all);
#: random half-size user subsets for the PSE's half-sample standard error (``se_reps``, Fig. 6 LT);
#: user-bootstrap resamples (``boot``, Figs. 5-7); subsets of the convergence check per
#: fraction 1/8, 1/4, 1/2 (``conv_reps``) and of the equal-n comparison (``eq_reps``); Monte Carlo
#: rounds of Figs. 8-9 (``mc_reps``); biometric stand-ins (genuine, impostor scores, score sets);
#: runs of the hashing check; and the Thm 3.2 Monte Carlo (n -> runs).
#: Raised after the first book-scale run of the phase-B code (size changes, not criterion changes):
#: ``se_reps`` 40 -> 200 (F6a undecided: more halves do not shrink the standard error, which the 575
#: users set, but estimate it to 5 % instead of 11 % and lower Student's quantile) and the halves of
#: the convergence check 40 -> 80 (F5-conv-LT undecided, about 41 needed).
SIZES_BY_SCALE = {
    "smoke": dict(
        draws=60,
        runs=2,
        runs11=4,
        lt_users=600,
        se_reps=4,
        boot=300,
        conv_reps=(3, 3, 3),
        eq_reps=4,
        mc_reps=2,
        bio_n=1000,
        bio_m=1_000_000,
        bio_sets=3,
        hash_runs=300,
        gauss={100: 2000, 1000: 2000, 10_000: 500, 100_000: 100},
    ),
    "book": dict(
        draws=300,
        runs=20,
        runs11=200,
        lt_users=None,
        se_reps=200,
        boot=2000,
        conv_reps=(8, 8, 80),
        eq_reps=20,
        mc_reps=64,
        bio_n=2000,
        bio_m=16_000_000,
        bio_sets=8,
        hash_runs=1000,
        gauss={100: 4000, 1000: 4000, 10_000: 1000, 100_000: 800},
    ),
    "paper": dict(
        draws=3000,
        runs=100,
        runs11=1000,
        lt_users=None,
        se_reps=400,
        boot=4000,
        conv_reps=(20, 20, 200),
        eq_reps=40,
        mc_reps=256,
        bio_n=3000,
        bio_m=32_000_000,
        bio_sets=16,
        hash_runs=4000,
        gauss={100: 20_000, 1000: 20_000, 10_000: 4000, 100_000: 4000},
    ),
}
#: Claim id of each statement checked by :func:`ldpnb.papers.pie.theory.theorem_checks`.
THEOREM_IDS = {
    "Prop 3.3 (=)": "T2a",
    "Prop 3.3 (<=)": "T2b",
    "Thm 3.5": "T3",
    "Thm 3.6": "T4",
    "Prop 3.7": "T5",
    "Prop 3.10": "T7",
    "Lemma B.2": "T9",
    "Prop 4.1": "T10",
    "Thm 4.2 (Eq. 15)": "T11a",
    "Thm 4.2 (Eq. 16)": "T11",
    "Thm 4.3 (Eq. 34)": "T12a",
    "Thm 4.3": "T12",
    "Thm 4.4 (Eq. 17)": "T13a",
    "Thm 4.4 (Eq. 18)": "T13",
    "Thm 4.5 (Eq. 42)": "T14",
    "Thm 4.5": "T14b",
}

_HOLDS = "violations == 0 and checks > 0"
_THM_NOTE = "Exact finite sums on random instances (no sampling); violated means lhs > rhs + 1e-10 bits."
#: rows that need the paper's sizes or every user of the public data (the smoke scale runs a 600-user subset
#: and 2-3 runs per point)
_BOOK = ("book", "paper")

#: The lower bounds of an "increasing" claim on five points: each of the four steps at least -0.1 bit
#: (a tie: no step down by more), and a rise of at least half a bit over the upper part of the range
#: (a material increase: with a bound of 0 a flat curve sat on the region's edge and could only be
#: undecided, never reversed; decision log of F5a, F6a, F6a-raw, F6b, F6b-raw).
_INCREASE = (-0.1, -0.1, -0.1, -0.1, 0.5)
#: The bounds before that change (the decision log's earlier criterion).
_INCREASE_WAS = (-0.1, -0.1, -0.1, -0.1, 0.0)
#: Why more half subsets do not decide an LT row of Fig. 6 (their `not_by_runs`).
_LT_HALVES = (
    "the half-sample standard error is set by the 575 LT users of Fig. 6, all there are; more halves "
    "estimate it more precisely but do not shrink it"
)
#: Cells of EPS10 up to ε = 16 and up to ε = 8 (the `instead` rules of the F10d rows).
_UP_TO_16 = tuple(i for i, e in enumerate(EPS10) if e <= 16)
_UP_TO_8 = tuple(i for i, e in enumerate(EPS10) if e <= 8)


def _cells_below(name: str, cells, bound: float) -> str:
    """A rule: every listed cell of ``name`` (e.g. ``ours_high``) is at most ``bound``."""
    return f"max([{', '.join(f'{name}[{i}]' for i in cells)}]) <= {bound}"


#: Misprints of the paper, listed in the chapter's text (they are not claims).
ERRATA = (
    "Eq. (11) is printed as 1 − (α+1)/log(1−β_U), which exceeds 1 since log(1−β_U) < 0; Eq. (9) gives the sign 1 + "
    "(α+1)/log(1−β_U).",
    "The α values 2.07 and 6.21 after Cor. 3.9 are in nats, whereas α is defined in bits (2.986 and 8.966 bits).",
    "Sec. 5.3 calls Fig. 8 'Figure 9' ('Figure 9 shows the upper-bounds ...'), and the caption of Fig. 9 refers to "
    "'α (resp. PSE) in Figure 9'.",
    "Sec. 5.3 defines the identification error rate as 'the proportion of correct identification results' (it is the "
    "proportion of wrong ones).",
    "Sec. 3.2 expands PIE as 'Personal Identification Entropy' (elsewhere: Personal Information Entropy).",
    "The summary of Sec. 5.2 cites the face matcher as [11]; it is [61] (NIST BSSR1).",
    "Eq. (3) omits the probability Pr(h) of the hash function in Q_GLH((h, y)|x).",
    "'Smaller than 0.73 for any |X| ≥ 2' (Sec. 2.2): at |X| = 2 the RR diagonal is e/(1+e) = 0.7311.",
)

_DECLARED = (
    # ------------------------------------------------------------------ worked examples (Secs. 2-4)
    Claim(
        "T8a",
        "Pseudonymisation of 5 income categories, uniform $U$, $n = 10^8$: $\\beta_{U|S} \\ge 0.88$ (Eq. 10)",
        source="paper",
        paper=Printed(0.88, "Sec. 3.3, example after Prop. 3.10"),
        kind="close",
        atol=0.005 + 1e-12,
        note=(
            "The paper prints two digits; the exact bound is 1 − log2(10)/log2(10^8) = 0.875, which rounds (half up) "
            "to "
            "0.88."
        ),
    ),
    Claim(
        "T8b",
        "Same with $\\max_i \\Pr(U = u_i) = 0.01$: $\\beta_{U|S} \\ge 0.5$ (Eq. 9)",
        source="paper",
        paper=Printed(0.5, "Sec. 3.3, example after Prop. 3.10"),
        kind="close",
        atol=5e-4,
    ),
    Claim(
        "T6a",
        "Cor. 3.9, $n = 10^6$: $\\beta_{U|S} > 0.8$ needs $\\alpha < 2.07$ (α in bits, as defined)",
        source="paper",
        paper=Printed(2.07, "Sec. 3.3, after Cor. 3.9"),
        kind="close",
        atol=0.005,
        expect="diverges",
        instead="abs(ours - 2.9863) < 0.0005",
        note="Erratum: 2.07 = 0.2 ln 10^6 − ln 2 is in nats; α is defined in bits, where the threshold is 2.986.",
    ),
    Claim(
        "T6b",
        "Cor. 3.9, $n = 10^6$: $\\beta_{U|S} > 0.5$ needs $\\alpha < 6.21$ (bits)",
        source="paper",
        paper=Printed(6.21, "Sec. 3.3, after Cor. 3.9"),
        kind="close",
        atol=0.005,
        expect="diverges",
        instead="abs(ours - 8.9658) < 0.0005",
        note="Erratum: 6.21 is in nats (6.2146); in bits the threshold is 8.966.",
    ),
    Claim(
        "T6c",
        "The same threshold in nats: 2.07",
        source="paper",
        paper=Printed(2.07, "Sec. 3.3, after Cor. 3.9"),
        kind="close",
        atol=0.005,
    ),
    Claim(
        "T6d",
        "The same threshold in nats: 6.21",
        source="paper",
        paper=Printed(6.21, "Sec. 3.3, after Cor. 3.9"),
        kind="close",
        atol=0.005,
    ),
    Claim(
        "T15",
        "$\\theta = 0.5$ guarantees $\\beta_{U|S} > 0.5$ (at the paper's $n = 1{,}370{,}637$)",
        source="paper",
        paper=Printed(0.5, "Secs. 4.4 and 5.3 (Fig. 12)"),
        kind="close",
        atol=5e-4,
        expect="diverges",
        instead="abs(ours - 0.45095) < 0.0001",
        note="Only asymptotic: Eq. (12) with α = 0.5 log n gives 0.5 − 1/log2 n = 0.4509 at the paper's n.",
    ),
    Claim(
        "T21",
        "ε = 1: the RR diagonal is 'smaller than 0.73 for any $|\\mathcal X| \\ge 2$' (largest diagonal over k)",
        source="paper",
        paper=Printed(0.73, "Sec. 2.2"),
        kind="range",
        upper=0.73,
        one_sided=True,
        expect="diverges",
        instead="ours < 0.735",
        note="At k = 2 the diagonal is e/(1 + e) = 0.7311: true up to the rounding of the printed value.",
    ),
    Claim("T21b", "$e^{10} = 22026$", source="paper", paper=Printed(22026, "Sec. 5.3"), kind="close", atol=0.5),
    Claim(
        "T-LDP",
        "The ε-RR and the (g, ε)-GLH provide ε-LDP: the smallest ε of each channel is at most ε "
        "(RR: k ∈ {2, 5, 50}; GLH: explicit channel of the fully random hash family, k ≤ 4, g ≤ 3; four ε)",
        source="paper",
        paper=Printed("provides ε-LDP", "Sec. 2.2, Eqs. (1)-(3)"),
        kind="holds",
        rule="max(ldp_rr - eps_rr) <= 1e-9 and max(ldp_glh - eps_glh) <= 1e-9",
        note="The smallest ε of a channel Q is max_y log(max_x Q(y|x) / min_x Q(y|x)) (channels.ldp_epsilon); "
        "both mechanisms attain their ε exactly.",
    ),
    # ------------------------------------------------------------------ propositions and theorems
    *[
        Claim(i, text, source="paper", paper=Printed("holds", where), kind="holds", rule=_HOLDS, note=_THM_NOTE)
        for i, text, where in [
            ("T2a", "Likelihood scores lose nothing: $I(U;\\mathbf S) = I(U;Y)$ (|difference| ≤ 1e-10)", "Prop. 3.3"),
            ("T2b", "Any score vector: $I(U;\\mathbf S) \\le I(U;Y)$ (a coarse score)", "Prop. 3.3"),
            ("T3", "Post-processing: $I(U;\\lambda(Y)) \\le I(U;Y)$", "Thm 3.5"),
            ("T4", "Convexity of the PIE in the mechanism", "Thm 3.6"),
            (
                "T5",
                "Generalised Fano: $\\beta_{U|S} \\ge 1 + (I(U;\\mathbf S)+1)/\\log(1-\\beta_U)$",
                "Prop. 3.7, Eq. (9)",
            ),
            ("T7", "$I(U;Y) \\le \\min\\{I(U;X), I(X;Y)\\}$", "Prop. 3.10"),
            ("T9", "ε-LDP ⇒ $I(X;Y) \\le \\min\\{\\varepsilon, \\varepsilon^2\\}\\log e$", "Lemma B.2"),
            (
                "T10",
                "Any ε-LDP mechanism: $\\alpha = \\min\\{\\varepsilon\\log e, \\varepsilon^2\\log e, \\log n, "
                "\\log|\\mathcal X|\\}$",
                "Prop. 4.1, Eq. (14)",
            ),
            ("T11a", "RR: $I(U;Y) \\le \\theta_{RR} I(U;X)$", "Thm 4.2, Eq. (15)"),
            (
                "T11",
                "RR: tight level $\\alpha^* \\le \\theta_{RR}\\min\\{\\log n, \\log|\\mathcal X|\\}$",
                "Thm 4.2, Eq. (16)",
            ),
            ("T12a", "RR, two correlated reports: Eq. (34)", "Thm 4.3, Eq. (34)"),
            (
                "T12",
                "RR, two reports: $I(U;Y^{(1)},Y^{(2)}) \\le 2\\theta_{RR}\\min\\{\\log n,\\log|\\mathcal X|\\}$",
                "Thm 4.3",
            ),
            ("T13a", "GLH (fully random hash family): $I(U;Y) \\le \\theta_{GLH} I(U;X)$", "Thm 4.4, Eq. (17)"),
            ("T13", "GLH: $\\alpha = \\theta_{GLH}\\min\\{\\log n, \\log|\\mathcal X|\\}$", "Thm 4.4, Eq. (18)"),
            ("T14", "GLH, two correlated reports: Eq. (42)", "Thm 4.5, Eq. (42)"),
            (
                "T14b",
                "GLH, two reports: $I(U;Y^{(1)},Y^{(2)}) \\le 2\\theta_{GLH}\\min\\{\\log n,\\log|\\mathcal X|\\}$",
                "Thm 4.5",
            ),
        ]
    ],
    Claim(
        "T12-t",
        "Thms 4.3 and 4.5 for t ≥ 3 reports: $I(U;Y^{(1)},\\dots,Y^{(t)}) \\le t\\theta\\min\\{\\log n, "
        "\\log|\\mathcal X|\\}$ (RR and GLH)",
        source="paper",
        paper=Printed("holds", "Thms 4.3, 4.5"),
        kind="none",
        expect="not-evaluated",
        note="The exact finite sums are implemented for two reports (rows T12a, T12, T14, T14b); t ≥ 3 is not evaluated "
        "(for the GLH the joint of t reports has g^(t(k+1)) outputs, 3^15 at t = 3 for the instance sizes of T14).",
    ),
    Claim(
        "T11c",
        "$\\alpha^* \\le \\alpha$(Thm 4.2) $\\le \\alpha$(Prop. 4.1) on four cases; the closed form of $\\alpha^*$ "
        "equals Blahut-Arimoto on every input subset",
        source="derived",
        kind="holds",
        where="Sec. 4.2; α* is the n-restricted capacity (derived, not in the paper)",
        rule="max(ba_gap) < 1e-8 and min(thm42 - alpha_star) >= 0 and min(prop41 - thm42) >= 0",
    ),
    Claim(
        "T9b",
        "Capacity of the k-RR (Blahut-Arimoto) ≤ min(ε, ε²) nats (k ∈ {2, 3, 5, 10, 50}, ε ∈ {0.1, 1, 5})",
        source="paper",
        paper=Printed("holds", "Lemma B.2"),
        kind="holds",
        rule="max(ratio) <= 1",
    ),
    # ------------------------------------------------------------------ Thm 3.2 with Gaussian scores
    Claim(
        "T1",
        "$I(U;\\mathbf S) \\to D(f_G\\|f_I)$ as $n\\to\\infty$ (Gaussian scores, d = 2 and 3): the gap "
        "$D - I_n$ shrinks over the first two decades, n = 10^2 → 10^3 → 10^4",
        source="paper",
        paper=Printed("converges", "Thm 3.2, Eq. (7)"),
        kind="order",
        relation="n1e4 < n1e3 < n1e2",
        tie=1e-3,
        note="Control-variate Monte Carlo (theory.gaussian_score_mi): the gap at each n is the mean of its runs and "
        "each drop a Welch difference of independent runs (95 % intervals); tie 0.001 bits (a drop below it is "
        "no convergence). The limit itself is row T1-lim.",
    ),
    Claim(
        "T1-lim",
        "The same: at n = 10^5 the gap $D - I_n$ lies within 1 % of D (d = 2 and 3; relative gap $(D - I_n)/D$)",
        source="paper",
        paper=Printed("converges", "Thm 3.2, Eq. (7)"),
        kind="range",
        lower=-0.01,
        upper=0.01,
        effect=0.01,
        note="Mean over runs of the gap divided by D (exact), Hall's interval, simultaneous over d = 2, 3; "
        "falsifier 2 % (effect = the tolerance). The runs at n = 10^5 are skewed (a few impostors dominate the "
        "sum of likelihood ratios), hence 800 of them at book scale. Split from T1 (decision log there).",
    ),
    Claim(
        "T5b",
        "Bayes error ≥ the Fano bound of Eq. (10) (Gaussian scores; d = 2, 3; n = 10^2, 10^3)",
        source="invariant",
        kind="range",
        lower=0.0,
        one_sided=True,
        effect=0.01,
        domain=(-1.0, 1.0),
        where="Prop. 3.7 on the Monte Carlo of Thm 3.2",
        note="Per cell the mean over runs of (1 − max posterior) − (1 − (I_run + 1)/log2 n): the run's Bayes error "
        "minus the Fano bound of its own information (the bound is linear in I, so the runs are paired); "
        "Hall's interval, simultaneous over the four cells; falsifier 0.01 below 0.",
    ),
    # ------------------------------------------------------------------ Fig. 4 and Secs. 4.2-4.3
    *[
        Claim(
            f"F4-{b}-{e}",
            f"Fig. 4: α of {'Prop. 4.1' if b == 'P41' else 'Thm 4.2'} at ε = {e} (bits)",
            source="paper",
            paper=Printed(v, "Sec. 4.2, Fig. 4"),
            kind="close",
            atol=a,
            note="Two significant digits printed: half a unit of the last digit.",
        )
        for b, e, v, a in [
            ("P41", 0.1, 0.014, 5e-4),
            ("P41", 1, 1.4, 0.05),
            ("P41", 10, 14.0, 0.5),
            ("T42", 0.1, 2.0e-7, 5e-9),
            ("T42", 1, 3.3e-6, 5e-8),
            ("T42", 10, 0.043, 5e-4),
        ]
    ],
    Claim(
        "F4-small",
        "Thm 4.2 much smaller than Prop. 4.1 for small ε (0.05 to 1): ratio Prop. 4.1 / Thm 4.2 ≥ 10",
        source="paper",
        paper=Printed("much smaller", "Sec. 4.2, Fig. 4"),
        kind="range",
        lower=10,
        one_sided=True,
        note="'Much smaller' on the paper's log axis: at least one decade, at every ε of a 0.01 grid.",
    ),
    Claim(
        "F4-large",
        "The same for large ε (1 to 20)",
        source="paper",
        paper=Printed("much smaller", "Sec. 4.2, Fig. 4"),
        kind="range",
        lower=10,
        one_sided=True,
        expect="diverges",
        instead="min(ours) >= 1",
        note="Both bounds saturate at log2 n = 20.39: the ratio is ≥ 10 only up to ε = 13.95 and falls to 2.2, "
        "1.16 and 1.02 at ε = 16, 18 and 20. Thm 4.2 is never looser than Prop. 4.1.",
    ),
    Claim(
        "T11-k",
        "The gap between Prop. 4.1 and Thm 4.2 grows with $|\\mathcal X|$ (ratio and difference non-decreasing "
        "in k ∈ [5, 10^9], six ε)",
        source="paper",
        paper=Printed("larger as |X| increases", "Sec. 4.2"),
        kind="holds",
        rule="ratio_drops == 0 and diff_drops == 0 and steps > 0",
        note="k = 2 to 4 are excluded ('especially when |X| is large'): at ε ≤ 1 the ratio dips at k = 3, 4 "
        "(the min{log n, log k} of both bounds).",
    ),
    Claim(
        "T13-g",
        "Thm 4.4 tighter than Prop. 4.1 'especially when g is large': the ratio Prop. 4.1 / Thm 4.4 is "
        "strictly increasing in g (2 to 2·10^9) at six ε from 0.1 to 20",
        source="paper",
        paper=Printed("much tighter, especially when g is large", "Sec. 4.3"),
        kind="holds",
        rule="increases_fail == 0 and checks > 0",
        note="Decision log (third audit): this row used to add 'ratio ≥ 10 at g = 10^8 for ε ≤ 14', a range narrowed "
        "after the saturation above ε = 14 had been seen; that part is now the row T13-large-g, on the full ε "
        "range.",
    ),
    Claim(
        "T13-large-g",
        "Thm 4.4 much tighter than Prop. 4.1 at the experiments' g = 10^8: ratio ≥ 10 at every ε of a "
        "0.01 grid from 0.05 to 20 (paper's n, k)",
        source="paper",
        paper=Printed("much tighter, especially when g is large", "Sec. 4.3"),
        kind="range",
        lower=10,
        one_sided=True,
        expect="diverges",
        instead="min(ours) >= 1",
        note="'Much tighter' read as one decade, as for Fig. 4 (F4-large); criterion fixed after the third audit had "
        "computed the ratio (1.2 at ε = 20). As for Thm 4.2, both bounds saturate at log2 n = 20.39: the ratio is "
        "≥ 10 up to ε = 16.2 and falls to 2.5 and 1.2 at ε = 18 and 20. Thm 4.4 is never looser than Prop. 4.1 "
        "at g = 10^8.",
    ),
    Claim(
        "T13-small-g",
        "Thm 4.4 much tighter than Prop. 4.1 (ratio ≥ 10) at every g, including small g",
        source="paper",
        paper=Printed("much tighter", "Sec. 4.3"),
        kind="range",
        lower=10,
        one_sided=True,
        expect="diverges",
        note="For small g, θ_GLH is large and Thm 4.4 is looser than Prop. 4.1 (ratio 0.71 to 0.74 at ε = 10, g ≤ 10^3; "
        "0.15 at ε = 1, g = 2): the bound is tight only for large g, the paper's setting (g = 10^8).",
    ),
    Claim(
        "F9-LB",
        "ε = 12.72 gives the guarantee $\\beta_{U|S} > 0.92$ of Sec. 5.3 (Eq. 12 with Thm 4.2, paper's n, k)",
        source="derived",
        kind="holds",
        where="Sec. 5.3: θ_RR = 0.0309 from Eq. (12); ε = ln(1 + θk/(1−θ))",
        rule="lb >= 0.92",
    ),
    # ------------------------------------------------------------------ utility theory (Sec. 4.4)
    Claim(
        "T16-17",
        "Monte Carlo l2 loss of emp equals Eqs. (22)/(23) for every symbol (RR; GLH g = 2, 5, 50; 4 ε): "
        "ratio of the mean squared error to the equation",
        source="invariant",
        kind="close",
        reference=1.0,
        atol=0.15,
        effect=0.15,
        domain=(0.0, None),
        where="Props. 4.6, 4.7 with the core count simulators",
        note="Per cell (320: 20 symbols × 16 settings) the mean over runs of (p̂(x) − p(x))²/Eq. (22 or 23): the "
        "expected l2 loss the equations state, Hall's interval, simultaneous over the cells. Region ±15 %, "
        "falsifier 1.3 (effect 0.15). 8,000 runs at book scale (see VAR_REPS).",
    ),
    Claim(
        "T16-17b",
        "emp is unbiased (every symbol, every setting): mean bias in units of one run's standard deviation",
        source="invariant",
        kind="close",
        reference=0.0,
        atol=0.1,
        effect=0.15,
        where="Eqs. (19), (20)",
        note="Per cell the mean over runs of (p̂(x) − p(x))/sqrt(Eq. 22 or 23), Hall's interval, simultaneous over "
        "the 320 cells; |bias| ≤ 0.1 SD, falsifier 0.25 SD.",
    ),
    Claim(
        "T17-hash",
        "Explicit Carter-Wegman hashing: summed loss of emp / Eq. (23) = 1 (g = 5, ε = 2)",
        source="invariant",
        kind="close",
        reference=1.0,
        atol=0.1,
        effect=0.1,
        domain=(0.0, None),
        where="Prop. 4.7 with lh_perturb and lh_support_counts",
        note="Mean over runs of the summed loss over the sum of Eq. (23) (Hall's interval); ±10 %, falsifier 1.2.",
    ),
    Claim(
        "T18",
        "Fixed θ_GLH: Eq. (23) = Eq. (51), strictly decreasing in g, limit Eq. (24)",
        source="paper",
        paper=Printed("decreasing in g, limit Eq. (24)", "Thm 4.8, Eqs. (51), (24)"),
        kind="holds",
        rule="identity < 1e-9 and increases == 0 and limit_dev < 1e-6",
    ),
    Claim(
        "T19",
        "Fixed ε: the g minimising Eq. (23) (p(x) → 0) is $e^\\varepsilon + 1$",
        source="paper",
        paper=Printed("g = e^ε + 1", "Secs. 2.2, 4.4, 4.5, citing [86]"),
        kind="holds",
        rule="max_dev < 1e-5",
    ),
    Claim(
        "T20",
        "Equal θ: the second term of Eq. (22) tends to Eq. (24) as $|\\mathcal X|$ grows (k = 10, 10^3, 10^7)",
        source="paper",
        paper=Printed("RR ≈ GLH for popular symbols", "Sec. 4.4"),
        kind="holds",
        rule="dev[0] > dev[1] and dev[1] > dev[2] and dev[2] < 1e-6",
    ),
    Claim(
        "T16-terms",
        "θ = 0.5: the first and second terms of Eq. (22) are almost 2/(n|X|) and p(x)/n (paper's k)",
        source="paper",
        paper=Printed("≈ 2/(n|X|), ≈ p(x)/n", "Sec. 4.4"),
        kind="holds",
        rule="max(abs(ratios - 1)) <= 0.001",
        note="Exact ratios 1 − 1/(2k) and 1 − 2/k ('almost equal' read as 0.1 %); at k = 10 they would be 0.95 and 0.80.",
    ),
    Claim(
        "T16-unpop",
        "θ_RR = θ_GLH = 0.5, g very large: for an unpopular symbol (p(x) ≤ |X|^-1/10) the RR has a much "
        "larger l2 loss (Eq. 22) than the GLH (Eq. 24): ratio ≥ 10 (paper's n, k)",
        source="paper",
        paper=Printed("the RR has much larger l2 loss for the unpopular symbol", "Sec. 4.4"),
        kind="holds",
        rule="min(ratio_limit) >= 10",
        note="'p(x) ≪ 1/|X|' read as at most a tenth of it (p(x)|X| = 0.1, 0.01, 0.001), 'much larger' as one decade. "
        "The paper compares with Eq. (24), the limit g → ∞. At the experiments' g = 10^8 the first term of "
        "Eq. (51), about 4/(ng), remains and the ratio is only 4 to 5 (g/(2|X|) = 4.8 as p(x) → 0): ratio_1e8, "
        "recorded, not tested.",
    ),
    # ------------------------------------------------------------------ Figs. 10-12 at the paper's n and k
    Claim(
        "F10a",
        "Fig. 10(a): ε at which the RR emp+thr top-100 loss reaches 10^-6",
        source="calibration",
        paper=Printed("ε > 12", "Sec. 5.3, Fig. 10(a)"),
        kind="range",
        lower=12,
        upper=13.2,
        effect=0.8,
        where="Sec. 5.3, Fig. 10(a)",
        scales=_BOOK,
        note="A calibration check, not a reproduction: the Zipf exponent 0.75 of the synthetic population was "
        "calibrated on this very number (top-100 mass ≈ 4 %). The crossing of the mean loss (log-linear "
        "interpolation over the ε grid) with a BCa bootstrap interval over the runs (at least 10 runs: not "
        "at smoke scale); falsifier ε = 14 (effect 0.8).",
    ),
    Claim(
        "F10b",
        "The same loss comes with the PIE guarantee β > 0.92 (Eq. 12 with Thm 4.2 at the crossing ε)",
        source="calibration",
        paper=Printed("β > 0.92", "Sec. 5.3"),
        kind="range",
        lower=0.92,
        one_sided=True,
        where="Sec. 5.3",
        expect="diverges",
        instead="ours_low >= 0.902",
        scales=_BOOK,
        note="A calibration check (see F10a), not a reproduction. The paper's words are one-sided, 'β > 0.92', which "
        "holds for ε ≤ 12.72 (F9-LB). Our calibrated population reaches 10^-6 at ε ≈ 12.9, where the guarantee "
        "is about 0.913: the calibration is off by about 0.2 in ε. The interval is F10a's mapped through the "
        "decreasing β(ε). Instead: at least the guarantee at the upper end of F10a's window (ε = 13.2, "
        "β = 0.902).",
    ),
    Claim(
        "F10c",
        "Every Monte Carlo mean of the all-POI emp loss equals Eqs. (22)/(23) (the 37 settings of Figs. 10 "
        "and 12): ratio of the mean loss to the equations",
        source="invariant",
        kind="close",
        reference=1.0,
        atol=0.02,
        effect=0.02,
        domain=(0.0, None),
        scales=_BOOK,
        where="Props. 4.6, 4.7 at the paper's n, k",
        note="Mean over runs of the summed loss over its exact expectation, Hall's interval, simultaneous over the "
        "settings; ±2 %, falsifier ±4 %. The top-100 losses are not tested here: their runs are too skewed "
        "(relative SE of the mean 3-25 % at 20 runs; a GLH hash collision on a top POI adds a large term) for a "
        "useful region; Eqs. (22)/(23) are checked symbol by symbol in T16-17. NumPy < 2.5's binomial "
        "sampler over-disperses by about 4e-4 (numpy#31238), well inside the region.",
    ),
    Claim(
        "F10d-RR",
        "Fig. 10(b): the threshold improves utility, RR, all k: mean loss emp+thr / emp ≤ 0.5 at every ε",
        source="paper",
        paper=Printed("improved", "Sec. 5.3, Fig. 10"),
        kind="range",
        upper=0.5,
        one_sided=True,
        effect=0.25,
        domain=(0.0, None),
        scales=_BOOK,
        expect="diverges",
        instead=_cells_below("ours_high", _UP_TO_16, 0.5),
        note="'Improved' on a log axis read as at least a factor 2; ratio of means of paired runs (Fieller), "
        "simultaneous over ε (book and paper scale: two runs give unbounded intervals). With the exact threshold it "
        "holds up to ε = 16 (instead: every ε ≤ 16); at "
        "ε = 18 and 20 emp is already accurate and the test zeroes POIs held by a few users.",
    ),
    Claim(
        "F10d-GLH",
        "The same for the GLH (g = 10^8), exact-binomial threshold",
        source="paper",
        paper=Printed("improved", "Sec. 5.3, Fig. 10"),
        kind="range",
        upper=0.5,
        one_sided=True,
        effect=0.25,
        domain=(0.0, None),
        scales=_BOOK,
        expect="diverges",
        instead=_cells_below("ours_high", _UP_TO_16, 0.5),
        note="As for the RR: holds up to ε = 16 only.",
    ),
    Claim(
        "F10d-GLH-gauss",
        "The same for the GLH with the Gaussian threshold of [86] (the cited formula)",
        source="paper",
        paper=Printed("improved", "Sec. 5.3, Fig. 10"),
        kind="range",
        upper=0.5,
        one_sided=True,
        effect=0.25,
        domain=(0.0, None),
        scales=_BOOK,
        expect="diverges",
        instead="min(ours_low) >= 0.9",
        note="With g ≫ n the count of a POI nobody holds is Poisson(n/g = 0.014): one hash collision passes the Gaussian "
        "threshold, so about 1.3·10^5 such POIs per run keep large estimates and the curves overlap (ratio ≈ 0.985).",
    ),
    Claim(
        "F10d-100",
        "Fig. 10(a): the threshold improves utility for the top 100 as well (RR and GLH, exact threshold)",
        source="paper",
        paper=Printed("improved", "Sec. 5.3, Fig. 10"),
        kind="range",
        upper=0.5,
        one_sided=True,
        effect=0.25,
        domain=(0.0, None),
        scales=_BOOK,
        expect="diverges",
        instead=_cells_below("ours_high", _UP_TO_8 + tuple(len(EPS10) + i for i in _UP_TO_8), 0.5),
        note="Cells: RR then GLH over the ε of Fig. 10. For the top 100 (heavy hitters) the threshold helps where emp "
        "goes negative (ε ≤ 8; instead: every ε ≤ 8); from ε = 10 on it zeroes some of them and the loss grows.",
    ),
    Claim(
        "F10e",
        "emp+thr still provides poor utility when ε ≤ 10: top-100 loss ≥ 10^-5 (RR and GLH)",
        source="paper",
        paper=Printed("poor utility when ε ≤ 10", "Sec. 5.3"),
        kind="range",
        lower=1e-5,
        one_sided=True,
        effect=5e-6,
        domain=(0.0, None),
        note="'Poor' read as ten times the paper's own target loss 10^-6; mean of the runs (Hall), simultaneous over "
        "the cells; falsifier 5·10^-6.",
    ),
    Claim(
        "F11a",
        "Fig. 11: RR, ε = 10, mean relative error of emp+thr on the top 20 (exact / Gaussian threshold)",
        source="paper",
        paper=Printed(1.05, "Sec. 5.3, Fig. 11"),
        kind="close",
        atol=0.1,
        expect="diverges",
        instead="max(ours_high) < 1",
        note="The paper's value is one realisation: tolerance ±0.1, about 3 single-run SDs of the mean error at "
        "ε = 10 (0.035 with the exact test; 0.072 with the Gaussian threshold, where it is 1.4 SDs), around our "
        "mean over the runs "
        "of Fig. 11 (Hall's interval, simultaneous over the two thresholds). No top-20 profile reaches 1.05 "
        "together with 0.10 in expectation; as one run, only in the tail (F11-feas).",
    ),
    Claim(
        "F11b",
        "Fig. 11: RR with β > 0.92 (ε = 12.72), mean relative error on the top 20 (exact / Gaussian threshold)",
        source="paper",
        paper=Printed(0.10, "Sec. 5.3, Fig. 11"),
        kind="close",
        atol=0.08,
        note="Tolerance 3 single-run SDs (0.025) plus the population's share (the top 20 of a Zipf population), "
        "around the mean over the runs (Hall, simultaneous over the two thresholds).",
    ),
    Claim(
        "F11c",
        "Fig. 11: 'the RR with ε = 10 performs poorly': relative error > 1",
        source="paper",
        paper=Printed("1.05 (> 1)", "Sec. 5.3"),
        kind="range",
        lower=1,
        one_sided=True,
        expect="diverges",
        note="Mean over the runs (Hall); our exact expectation is 0.93 (exact threshold).",
    ),
    Claim(
        "F11-exact",
        "The Monte Carlo relative errors equal their exact expectation (ε = 10 and 12.72, both thresholds)",
        source="invariant",
        kind="close",
        reference=1.0,
        atol=0.05,
        effect=0.05,
        domain=(0.0, None),
        scales=_BOOK,
        where="Fig. 11: count ~ Bin(c, p) + Bin(n − c, q), exact pmf",
        note="Ratio of the mean over runs to the exact expectation (Hall, simultaneous over the four cells); ±5 %, "
        "falsifier ±10 %. 200 runs per setting at book scale (20 could not decide: relative SE 4 % at "
        "ε = 12.72).",
    ),
    Claim(
        "F11-feas",
        "The printed pair (1.05 at ε = 10, 0.10 at ε = 12.72) is a possible single run of some top-20 "
        "profile (RR, emp+thr with the exact test, paper's n and k)",
        source="derived",
        kind="holds",
        where="Fig. 11: exact moments of each symbol's relative error, convex hull",
        rule="p_low[0] >= 0.001",
        note="max_r10: the largest expected mean error at ε = 10 of any profile whose expected mean error at ε = 12.72 "
        "is ≤ 0.10 (exact test, Gaussian threshold); sd_r10: the single-run SD of that profile's mean error "
        "(exact per-symbol variances, symbols independent up to O(1/k)); z = (1.05 − max_r10)/sd_r10 (recorded). "
        "p_low, p_high: the exact probability (bracketed by rounding each symbol's error down and up to 1e-4; "
        "utility.mean_relative_error_tail, the 20-fold convolution of the exact per-symbol laws) that one run "
        "of that profile, in whole symbols, has a mean error ≥ 1.05 at ε = 10 (exact test, Gaussian threshold). "
        "The paper prints one run: the pair is 'possible' when that probability is at least 10^-3 (a run "
        "rarer than one in a thousand would call the printed run into question). With the exact test about "
        "0.006 (possible, improbable); with the Gaussian threshold about 2e-8 (out of reach). Decision log: "
        "the row used to require max_r10 ≥ 1.05 (expectations against one run; it diverged), then z ≤ 3 on a "
        "normal tail (third audit, z = 2.77 seen); both changed after the result had been seen.",
    ),
    Claim(
        "F12a",
        "Fig. 12: the GLH loss decreases as g grows at θ = 0.5 (Eq. 51, top 100 and all POIs)",
        source="paper",
        paper=Printed("decreases with g", "Sec. 5.3, Fig. 12; Thm 4.8"),
        kind="holds",
        rule="analytic_increases == 0 and steps > 0",
        note="Exact: Eq. (51) summed over the top 100 and over all POIs of the synthetic population, at the 8 g of "
        "Fig. 12. The Monte Carlo series are row F12a-mc.",
    ),
    Claim(
        "F12a-mc",
        "Fig. 12, Monte Carlo: each GLH series (emp and emp+thr, top 100 and all POIs) is lower at "
        "g = 2·10^9 than at g = 10^3",
        source="paper",
        paper=Printed("decreases with g", "Sec. 5.3, Fig. 12"),
        kind="range",
        upper=1.0,
        one_sided=True,
        domain=(0.0, None),
        scales=_BOOK,
        note="Ratio of the mean losses last/first (Fieller, independent runs), simultaneous over the four series; "
        "falsifier a flat series (ratio 1). The steps between neighbouring g are not tested: from g = 10^6 the "
        "series are flat within the Monte Carlo error (5 % per mean at 20 runs), which no run count of this "
        "chapter resolves; the analytic series (F12a) decrease strictly.",
    ),
    Claim(
        "F12b",
        "φ = 100: the GLH with large g (≥ 10^6) has almost the same utility as the RR (Eqs. 22/23, relative "
        "difference)",
        source="paper",
        paper=Printed("almost the same", "Sec. 5.3, Fig. 12"),
        kind="range",
        upper=0.1,
        one_sided=True,
        note="'Almost the same' on a log axis read as within 10 %. The Monte Carlo series are row F12b-mc.",
    ),
    Claim(
        "F12b-mc",
        "Fig. 12, Monte Carlo, φ = 100: the GLH with large g (≥ 10^6) has almost the same utility as the RR, "
        "emp and emp+thr (ratio of mean top-100 losses RR/GLH)",
        source="paper",
        paper=Printed("almost the same", "Sec. 5.3, Fig. 12"),
        kind="range",
        lower=0.5,
        upper=2,
        effect=1.0,
        domain=(0.0, None),
        note="As F12e: within a factor 2 on the figure's log axes (falsifier 3); ratios of mean losses (Fieller, "
        "independent runs; the same RR runs against each g), simultaneous over g ≥ 10^6 and the two estimators "
        "(emp, emp+thr with the exact test). F12b checks the exact emp losses (Eqs. 22/23) within 10 %; the "
        "top-100 runs are skewed (F10c), hence the wider Monte Carlo region.",
    ),
    Claim(
        "F12d",
        "φ = all, emp: the GLH with large g (2·10^9) has slightly better utility than the RR (RR/GLH, Monte Carlo)",
        source="paper",
        paper=Printed("slightly better", "Sec. 5.3, Fig. 12"),
        kind="range",
        lower=1,
        upper=10,
        effect=0.1,
        domain=(0.0, None),
        note="'Slightly' read as less than one decade; ratio of mean losses (Fieller, independent runs); falsifier "
        "0.9. The ratio of Eqs. (22)/(23) is given in the text.",
    ),
    Claim(
        "F12e",
        "φ = all, emp+thr: the RR and the GLH with large g (≥ 10^6) have almost the same utility (RR/GLH)",
        source="paper",
        paper=Printed("almost the same", "Sec. 5.3, Fig. 12"),
        kind="range",
        lower=0.5,
        upper=2,
        effect=1.0,
        domain=(0.0, None),
        note="Within a factor 2 (exact-binomial threshold); ratios of mean losses (Fieller, independent runs), "
        "simultaneous over g; falsifier 3.",
    ),
    # ------------------------------------------------------------------ identification on real traces (Figs. 5-7)
    Claim(
        "F5a",
        "Fig. 5 (right): the PSE increases with the number t of released events (LT and RH)",
        source="paper",
        paper=Printed("increasing", "Sec. 5.2, Fig. 5"),
        kind="range",
        lower=_INCREASE * 2,
        one_sided=True,
        note="Cells LT then RH: the four steps t → t + 1 (no step down by more than a tie of 0.1 bit) and the rise "
        "from t = 3 to t = 5 (> 0: still rising). Intervals from the user bootstrap of the PSE (BCa, "
        "simultaneous over the ten cells): most of the genuine mass sits on score atoms that fewer than 20 "
        "impostor pairs hit from t = 2 or 3 on, where the half-sample standard error is not valid. Falsifier: a "
        "step of −0.1 bit, a rise of 0.",
    ),
    *[
        Claim(
            f"F5-conv-{d}",
            f"{d}: the estimate of $D(f_G\\|f_I)$ converges as the number of users grows (t = 1, 3): "
            "PSE(N) − mean PSE(N/2)",
            source="paper",
            paper=Printed("converges for each dataset", "Sec. 5.1"),
            kind="range",
            lower=-0.25,
            upper=0.25,
            effect=0.75,
            scales=_BOOK,
            note="Within ±0.25 bit (falsifier 1 bit). The difference between the estimate on all N users and the mean "
            "over random halves (80 at book scale; a size change, not a criterion change: raised from 40 after "
            "the first book-scale run of the phase-B code left F5-conv-LT undecided, about 41 needed, in "
            "8d4a582); its uncertainty is the Monte Carlo error of that mean (Hall, simultaneous over "
            "t = 1, 3): the linear part of the estimator's sampling error is common to both terms (each user is in "
            "half of the halves). The case Y = X is row F5-conv-X.",
        )
        for d in ("LT", "RH")
    ],
    Claim(
        "F5-conv-X",
        "The same for Y = X (LT and RH)",
        source="paper",
        paper=Printed("converges for each dataset", "Sec. 5.1"),
        kind="range",
        lower=-0.25,
        upper=0.25,
        expect="diverges",
        instead="min(ours_low) > 0",
        scales=_BOOK,
        note="As F5-conv-LT/RH. With Y = X the genuine and impostor scores separate completely and the estimate grows "
        "by about 1.2 bits per doubling of the users (the estimator's resolution, log2 of the impostor count): "
        "instead, it grows (d > 0).",
    ),
    Claim(
        "F5-ratings",
        "Ratings need more events than locations: PSE(RH) < PSE(LT) at t = 1, 2, 3 (equal n)",
        source="paper",
        paper=Printed("ratings need more events", "Sec. 5.2, summary"),
        kind="range",
        lower=0.0,
        one_sided=True,
        note="gap = LT − RH at equal n. LT: mean over random subsets of as many users as RH, its standard error "
        "sd·sqrt(f/(1 − f) + 1/R) (f = n/N_LT: the LT sample is itself a sample; R subsets); RH: the user "
        "bootstrap of F5a. Difference of independent estimates (normal), simultaneous over t; falsifier gap 0.",
    ),
    Claim(
        "F5-LTvsRH",
        "LT has higher identifiability than RH (Fig. 5): PSE(LT) > PSE(RH) for Y = X and t = 1..5 (equal n)",
        source="paper",
        paper=Printed("LT has higher identifiability than RH", "Sec. 5.3, Fig. 5"),
        kind="range",
        lower=0.0,
        one_sided=True,
        scales=_BOOK,
        not_by_runs="the RH term's uncertainty is set by the 579 RH users, all there are; more LT subsets do not "
        "shrink it",
        note="Cells Y = X, t = 1..5; as F5-ratings. The RH term's uncertainty is set by the 579 RH users, all there "
        "are: a gap that is undecided stays so with more subsets (the row says so instead of a run count).",
    ),
    Claim(
        "T-ceil",
        "Every reported PSE lies at least 1 bit below the estimator's ceiling log2(2M) (M impostor scores)",
        source="invariant",
        kind="holds",
        where="k-NN/atom estimator of Sec. 5.1 at complete separation",
        rule="all(ceiling - pse >= 1)",
        note="The ceiling of complete separation on continuous scores. On score atoms that no impostor hits the "
        "estimate is the ceiling minus the entropy of the genuine atoms (RH, Y = X: no impostor pair hits a "
        "genuine value), so this row does not show that an estimate is resolved.",
    ),
    *[
        Claim(
            i,
            f"Fig. 6: the PSE increases with the number of training events ({d}, {s} scores)",
            source="paper",
            paper=Printed("increasing", "Sec. 5.2, Fig. 6"),
            kind="range",
            lower=_INCREASE,
            one_sided=True,
            expect=e,
            scales=_BOOK,
            note=n,
            not_by_runs=_LT_HALVES if d == "LT" else "",
        )
        for i, d, s, e, n in [
            (
                "F6a",
                "LT",
                "offset",
                "pass",
                "As F5a (four steps, tie 0.1 bit, and a rise of at least 0.5 bit over the last three training "
                "sizes), with "
                "the half-sample "
                "(delete-n/2 jackknife) standard error of each difference, from the same random halves at every m, "
                "Student's t over the halves, simultaneous over the five cells: the genuine mass sits on the zero atom "
                "(which 98 % of the impostor pairs share) or on continuous scores, the regime where that standard "
                "error "
                "is valid. More halves estimate that standard error more precisely; they do not shrink it (the 575 "
                "users set it), so a cell undecided here stays undecided: the row says so instead of a run count.",
            ),
            ("F6a-raw", "LT", "raw", "pass", "As F6a, with the paper's literal scores."),
            (
                "F6b-raw",
                "RH",
                "raw",
                "diverges",
                "The paper's RH claim of Fig. 6 (the offset curve, F6b, cannot fall by construction). Cells as F5a, "
                "from "
                "the user bootstrap (BCa, simultaneous over the five cells). With the literal log-likelihood the RH "
                "PSE "
                "stays flat (about 6.5 bits) from m = 2 on, although the "
                "best-score error falls from 0.17 to 0.007: every score of a query carries the offset L ln 10^-8, and "
                "query lengths from 10 to 1,227 likes spread the offsets over 22,000 nats, so the pooled genuine and "
                "impostor scores mix across queries. Removing the per-query constant (offset scores) restores the "
                "increase. The rise cell (at least 0.5 bit from m = 3 to 5) is what a flat curve reverses.",
            ),
        ]
    ],
    Claim(
        "F6b",
        "Fig. 6, RH, offset scores: the PSE log2(M/c_m) cannot fall as m grows (four steps ≥ −0.1 bit) and "
        "rises by at least 0.5 bit from m = 3 to 5",
        source="invariant",
        kind="range",
        lower=_INCREASE,
        one_sided=True,
        scales=_BOOK,
        where="Fig. 6 (RH): the training is the first m likes of the query, so the coincidences are nested",
        note="Not a test of the paper: non-decreasing by construction (nested coincidences). With the training = "
        "the first m likes of X, an impostor pair whose score hits the genuine atom at m + 1 also hits it at "
        "m (the query's first like cannot be the (m + 1)-th training like, which follows the m-th in the "
        "query), so c_(m+1) ≤ c_m and log2(M/c_m) never falls, in the data and in every bootstrap resample "
        "(tests/test_pie.py checks the nesting). Only the rise cell could fail, if c_5 were close to c_3. "
        "Intervals from the user bootstrap (BCa, simultaneous over the cells): it resamples the users, and "
        "with them the pairs, and counts the coincidences again (F6b-atom: 10 impostor pairs at m = 5). "
        "Decision log: declared as the paper's claim until the third re-audit showed that it cannot fail; "
        "the paper's RH claim of Fig. 6 rests on F6b-raw.",
    ),
    Claim(
        "F6-sel",
        "A limit of the public data, not a claim of the paper: Fig. 6's selection of long histories (LT users "
        "with ≥ 1,000 check-ins, 1,896 users in the paper; RH users with ≥ 500 likes, 1,888) leaves fewer than "
        "100 users in each public data set, so our Fig. 6 uses a weaker selection with at least 100 users each",
        source="derived",
        paper=Printed([1896, 1888], "Sec. 5.2"),
        kind="holds",
        rule="max(qualifying) < 100 and min(used) >= 100",
        scales=_BOOK,
        where="Sec. 5.2's selection applied to Gowalla New York and ml-latest-small",
        note="qualifying: users of the public data meeting the paper's selection (LT, RH); used: the users of our Fig. 6. "
        "100 users is the least we would estimate a PSE on (prior error 1 − 1/n ≥ 0.99, estimator ceiling "
        "log2(2n(n − 1)) ≥ 14.3 bits); 8 users cap every estimate at 6.8 bits. Gowalla New York and "
        "ml-latest-small have 8 qualifying users each, so Fig. 6 uses every user whose former half has ≥ 25 "
        "check-ins (LT, m up to 25) and every RH user (median 42 likes). The threshold was set after the third "
        "audit had counted the 8 RH users: the row records a limit of the public data, not a test of the paper "
        "(decision log: it was declared as the paper's claim, diverging, until the third re-audit).",
    ),
    Claim(
        "F6b-atom",
        "Fig. 6, RH, offset scores: the genuine scores form one atom and the PSE equals log2(M/c_m), c_m the "
        "impostor pairs that hit it (M impostor pairs)",
        source="invariant",
        kind="holds",
        where="Fig. 6: the training is the first m likes of the query, so every genuine offset score is ln(1/m) + m ln 10^8",
        rule="max(atoms) == 1 and min(coincidences) >= 1 and max(abs(pse - log(M / coincidences) / log(2))) < 1e-9",
        note="What the RH curve of Fig. 6 (offset) measures: the frequency of exact coincidences among impostor pairs, "
        "c_m = 4,214, 640, 100, 32, 10 of M = 334,662 at m = 1..5. Its rise is the fall of that count; at m = 5 it "
        "rests on 10 pairs, and the half-subset SE is not a valid uncertainty for such a count.",
    ),
    Claim(
        "F7a",
        "Fig. 7: LT (longest training) has smaller FRR than the Face matcher at FAR 0.1 %, 1 %, 10 %, consistent "
        "with the PSE of Fig. 6 (offset scores; Face: Gaussian stand-in with a smaller PSE)",
        source="paper",
        paper=Printed("LT smaller FAR and FRR than Face", "Sec. 5.2, Fig. 7"),
        kind="range",
        lower=0.01,
        one_sided=True,
        expect="diverges",
        instead="ours_low[0] > 0.01 and ours_low[1] > 0.01",
        note="FRR(Face) − FRR(LT) at each FAR, above a tie of one point of FRR (falsifier: equal FRRs): LT's FRR "
        "with a user-bootstrap interval (BCa; the threshold at each FAR is found again on every resample, "
        "simultaneous over the three FAR), the stand-in's FRR analytic (exact). (Declared first as the order "
        "LT < Face, whose instead rule on interval ends the falsifier search cannot evaluate; changed to this "
        "equivalent range before any result of the new code.) At FAR 10 % LT's FRR sits at a floor. An offset score "
        "is never negative, and it is 0 when neither the query's first location nor any of its transitions "
        "occurs in the training (the Markov score credits nothing else): true of 54 % of the genuine pairs "
        "(only 11 % share no location at all) and of 98 % of the impostor pairs. A threshold at 0 accepts every "
        "impostor, so any FAR below 1 needs a threshold above 0, which rejects every genuine pair at 0: "
        "FRR ≥ 0.54, reached from FAR ≈ 2 % (row F7-floor checks this mechanism). Decision log: the earlier "
        "note blamed pairs sharing no location (third audit: 10.6 %, not more than half).",
    ),
    Claim(
        "F7-floor",
        "Fig. 7 (LT, offset, m = 25): the FRR at FAR 10 % is the share of genuine scores at 0, and those are "
        "exactly the pairs the Markov score credits nothing (first location and every transition unseen)",
        source="invariant",
        kind="holds",
        where="Fig. 7 and the Markov score of Sec. 5.1 (offset form)",
        rule="min_score >= 0 and impostor_zero > 0.9 and abs(genuine_zero - no_credit) < 1e-12 "
        "and abs(frr_10 - genuine_zero) < 1e-12",
        note="Explains F7a with the chapter's numbers: genuine_zero (genuine scores = 0), no_credit (pairs whose query's "
        "first location and transitions are all unseen in the training), genuine_disjoint (pairs sharing no "
        "location; recorded, not tested), impostor_zero, min_score (over all pairs) and frr_10 (FRR at FAR 10 %).",
    ),
    Claim(
        "F7a-raw",
        "The same with the literal log-likelihood scores",
        source="paper",
        paper=Printed("LT smaller FAR and FRR than Face", "Sec. 5.2, Fig. 7"),
        kind="range",
        lower=0.01,
        one_sided=True,
        expect="diverges",
        note=(
            "As F7a (the same change from an order, for the falsifier search). The per-query offsets (F6b-raw) push "
            "the "
            "pooled LT curve above the Face stand-in at every FAR."
        ),
    ),
    Claim(
        "F7-FRPC",
        "A long location trace beats the FRPC 2017 best face matcher: FRR < 0.15 at FAR 0.01 and < 0.10 at FAR 0.1",
        source="paper",
        paper=Printed([0.15, 0.10], "Sec. 5.2 (FRPC 2017 [39]); Sec. 1"),
        kind="range",
        upper=(0.15, 0.10),
        one_sided=True,
        domain=(0.0, 1.0),
        expect="diverges",
        note="LT's FRR at FAR 1 % and 10 % with the user-bootstrap interval of F7a. Our longest LT training set has "
        "25 check-ins of a sparse Gowalla cut (the paper: 500 Foursquare check-ins).",
    ),
    Claim(
        "F7c",
        "A longer training set gives a lower DET curve: FRR at FAR 1 %, LT m = 25 < m = 5 (offset scores)",
        source="derived",
        kind="order",
        relation="m25 < m5",
        tie=0.01,
        where="Fig. 7 on our data",
        note="The difference of the two FRRs on the same users, from one user bootstrap (paired); tie one point of "
        "FRR (falsifier: equal FRRs).",
    ),
    Claim(
        "BIO-est",
        "The divergence estimator recovers the PSE of the Gaussian stand-ins: relative error of the mean "
        "estimate (Face, FP, FV)",
        source="invariant",
        kind="range",
        lower=-0.1,
        upper=0.1,
        effect=0.1,
        where="k-NN estimator of Sec. 5.1 [85]",
        note="Within ±10 % (falsifier 20 %): mean over independent score sets of (estimate / placed value − 1), "
        "Hall's interval, simultaneous over the three stand-ins. The k-NN estimate is biased low when D is large "
        "(few impostors near the genuine scores).",
    ),
    *[
        Claim(
            i,
            text,
            source="paper",
            paper=Printed("see the paper", where),
            kind="none",
            expect="not-evaluated",
            note="The biometric score sets (NIST BSSR1, CASIA-FingerprintV5 with VeriFinger, the CIRF finger-vein set) "
            "are not public; our biometric levels are synthetic and placed by construction.",
        )
        for i, text, where in [
            ("F5-FP", "LT and RH are about as identifiable as a commercial fingerprint matcher", "Sec. 5.2, Fig. 5"),
            ("F5-3loc", "Three locations give about the fingerprint PSE (maximum knowledge)", "Sec. 5.2, summary"),
            (
                "F6-face",
                "PSE(LT) > PSE(Face) from 200 training locations, PSE(RH) > PSE(Face) from 3 ratings",
                "Sec. 5.2, Fig. 6",
            ),
            (
                "F7-face",
                "LT (500 training locations) has lower FAR and FRR than the NIST face matcher G",
                "Sec. 5.2, Fig. 7",
            ),
            ("F5-FV", "The finger-vein PSE exceeds log 3030 = 11.6 bits", "Sec. 5.2, Fig. 5"),
            (
                "F7-FP",
                "The FRR of the fingerprint matcher (FP) is high in Fig. 7 (fingers rotated, various pressures)",
                "Sec. 5.2, Fig. 7",
            ),
            (
                "F5-faceG",
                "The face matcher G of NIST BSSR1 has lower errors than the best matcher of the FRPC 2017",
                "Secs. 5.1, 5.2",
            ),
        ]
    ],
    # ------------------------------------------------------------------ one obfuscated location (Figs. 8-9)
    Claim(
        "F8a",
        "Fig. 8: PSE ≤ α(Thm 4.2) ≤ α(Prop. 4.1) at every ε (RR, exact PSE)",
        source="paper",
        paper=Printed("holds", "Sec. 5.3, Fig. 8"),
        kind="holds",
        rule="max(pse - a42) <= 1e-9 and max(a42 - a41) <= 1e-9",
    ),
    Claim(
        "F8b",
        "Fig. 8: PSE ≤ α(Thm 4.4) ≤ α(Prop. 4.1) at every resolvable ε (GLH, Monte Carlo PSE)",
        source="paper",
        paper=Printed("holds", "Sec. 5.3, Fig. 8"),
        kind="order",
        relation="PSE <= a44 <= a41",
        tie=1e-9,
        note="Resolvable: the PSE exceeds twice the largest of 10 estimates on reports independent of the users. The "
        "PSE on the pooled rounds with the standard error of the rounds' spread over sqrt(rounds) (Student's t "
        "over the rounds, simultaneous over ε); the α are exact. Falsifier: PSE = α.",
    ),
    Claim(
        "F8c",
        "The Monte Carlo PSE of the RR equals the exact mixture PSE (θ_RR ≤ 0.6; MC − exact, bits)",
        source="invariant",
        kind="close",
        reference=0.0,
        atol=0.05,
        where="Sec. 5.3; f_G, f_I are θ-mixtures with the uniform score law",
        note="Per resolvable ε with θ ≤ 0.6: the pooled Monte Carlo PSE minus the exact one, with the rounds' standard "
        "error (as F8b), simultaneous over ε; ±0.05 bit, falsifier 0.1 (effect = the tolerance).",
    ),
    Claim(
        "F8d",
        "Fig. 8: α of Thms 4.2/4.4 is close to the PSE (fairly tight): α(Thm 4.2)/PSE ≤ 10 at every ε (RR)",
        source="paper",
        paper=Printed("close to the PSE", "Sec. 5.3 (which calls it Figure 9), Fig. 8"),
        kind="range",
        upper=10,
        one_sided=True,
        expect="diverges",
        note="For small θ the PSE of a θ-mixture is second order, θ² χ²(f_G⁰, f_I⁰; u)/(2 ln 2), while α = θ log n is "
        "first order, so α/PSE grows like 1/θ as ε → 0 (10^3.7 at ε = 0.1); at large ε the PSE saturates at the "
        "clean divergence (1.4-1.9 bits) while α grows to log n.",
    ),
    Claim(
        "F8d-GLH",
        "Fig. 8: α of Thm 4.4 is close to the PSE (fairly tight): α(Thm 4.4)/PSE ≤ 10 at every resolvable ε "
        "(GLH, Monte Carlo PSE)",
        source="paper",
        paper=Printed("close to the PSE", "Sec. 5.3 (which calls it Figure 9), Fig. 8"),
        kind="range",
        upper=10,
        one_sided=True,
        domain=(0.0, None),
        expect="diverges",
        note="The GLH half of F8d, with F8d's reading (within one decade). At the paper's scale more ε are "
        "resolvable and the ratio leaves the decade at the smallest of them (13.2 [9.8, 20.4] and 11.9 "
        "[10.8, 13.3] in the recorded run), growing like 1/θ as the RR's does (F8d); at book scale only ε ≥ 6 "
        "resolve and the row is undecided. α(Thm 4.4) is exact; the ratio's interval "
        "is F8b's interval of the PSE (pooled rounds, Student's t, simultaneous over the resolvable ε) mapped "
        "through the decreasing α/PSE. Only the resolvable ε are tested (the PSE above twice the largest of 10 "
        "estimates on reports independent of the users; ε ≥ 6 at book scale): below, the GLH PSE is not "
        "resolved, where the RR (F8d) shows α/PSE growing like 1/θ. Declared after the third re-audit had "
        "computed the ratios from the book-scale report (9.7-10.5 at ε = 6-12, about 9.8 from 14); the "
        "threshold is F8d's, fixed before.",
    ),
    Claim(
        "F8e",
        "Fig. 8: α of Thms 4.2/4.4 much smaller than α of Prop. 4.1: ratio Prop. 4.1 / Thm ≥ 10 at every ε (RR "
        "and GLH, Gowalla n and k, g = 10k)",
        source="paper",
        paper=Printed("much smaller", "Sec. 5.3 (which calls it Figure 9), Fig. 8"),
        kind="holds",
        rule="min(ratio_rr) >= 10 and min(ratio_glh) >= 10",
        expect="diverges",
        instead="min(ratio_rr) >= 1 and min(ratio_glh) >= 1",
        note="'Much smaller' read as one decade, as for Fig. 4 (F4-small, F4-large); criterion fixed after the third "
        "audit had computed the ratios. Analytic. Both bounds saturate at log2 n = 11.3 bits for our n: the RR "
        "ratio is 252 at ε = 0.1 but 7.97 at ε = 8, 1.94 at 10 and 1.00 from 16; the GLH ratio 2.28 at ε = 12. "
        "The same saturation as F4-large, at a smaller n.",
    ),
    Claim(
        "F9a",
        "Fig. 9: error rate ≥ LB(PSE) ≥ LB(Thm 4.2) ≥ LB(Prop. 4.1) at every ε (RR, exact)",
        source="paper",
        paper=Printed("ordering of the bounds", "Sec. 5.3, Fig. 9"),
        kind="holds",
        rule="min(err - lb_pse) >= 0 and min(lb_pse - lb42) >= -1e-9 and min(lb42 - lb41) >= -1e-9",
    ),
    Claim(
        "F9b",
        "Fig. 9: error rate ≥ LB(PSE) ≥ LB(Thm 4.4) at every resolvable ε (GLH, Monte Carlo)",
        source="paper",
        paper=Printed("ordering of the bounds", "Sec. 5.3, Fig. 9"),
        kind="order",
        relation="lb44 <= lb_pse <= err",
        tie=1e-9,
        effect=0.01,
        note="err: mean error over all simulated reports with its standard error (normal, simultaneous over ε); "
        "LB(PSE) = Eq. (10) of the PSE estimate of F8b (a decreasing linear map of its interval); LB(Thm 4.4) "
        "exact. Falsifier: an error 0.01 below LB(PSE).",
    ),
    Claim(
        "F9c",
        "The simulated RR error rate equals the exact expected error rate",
        source="invariant",
        kind="close",
        reference=0.0,
        atol=0.005,
        effect=0.005,
        where="Fig. 9, exact mixture error",
        note="Simulated minus exact error per ε (13 ε; mean over the reports with its standard error, simultaneous over "
        "ε); ±0.005, falsifier 0.01. 64 rounds of n reports at book scale (8 could not decide: standard error "
        "0.002).",
    ),
    Claim(
        "F9d",
        "Fig. 9: the lower bounds from Thms 4.2/4.4 are much tighter than the one from Prop. 4.1: the gap below "
        "the PSE bound shrinks ten-fold at every ε (RR exact; GLH at the resolvable ε)",
        source="paper",
        paper=Printed("much tighter", "Sec. 5.3, Fig. 9"),
        kind="range",
        lower=10,
        one_sided=True,
        expect="diverges",
        instead="min(ours_low) >= 1",
        note="ratio = (LB(PSE) − LB⁺(Prop. 4.1)) / (LB(PSE) − LB⁺(Thm)), LB⁺ = max(LB, 0) (a negative bound says "
        "nothing): "
        "the paper attributes the gap below the PSE bound to the gap between the PSE and α. 'Much' read as one "
        "decade; criterion fixed after the third audit had computed the bounds. Cells: the RR at every ε "
        "(exact), then the GLH at the resolvable ε (the ratio is increasing in the PSE: F8b's interval mapped "
        "through it). The ratio follows α's (F8e) and falls to 1 where both α bounds exceed log2 n − 1 and both "
        "lower bounds are vacuous. At ε ≤ 0.5 the two bounds differ by less than 0.04 on the figure's linear "
        "axis, although the ratio exceeds 10.",
    ),
    Claim(
        "F9-small",
        "LDP with a small ε prevents re-identification in the experiments: one location per user, ε ≤ 1, "
        "best-score error ≥ 0.99 (RR exact, GLH simulated)",
        source="paper",
        paper=Printed("LDP with a small ε prevents re-identification", "Sec. 1"),
        kind="range",
        lower=0.99,
        one_sided=True,
        effect=0.01,
        domain=(0.0, 1.0),
        note="'Prevents' read as at most 1 % of the users re-identified; the error of a random guess is 1 − 1/n = 0.9996. "
        "ε ∈ {0.1, 0.5, 1} of Figs. 8-9; cells: the RR (exact), then the GLH (mean over the simulated reports with "
        "its standard error, simultaneous over ε). Falsifier 0.98.",
    ),
)


# ---------------------------------------------------------------------------------------------
# decision log: criteria changed after a recorded result was seen (each row shows the status the
# earlier criterion gives on the same numbers)
# ---------------------------------------------------------------------------------------------
_FIRST, _FIRST_DATE = "f8ca4ee", "2026-11-27"  # phase A, after the third audit
_STATS, _STATS_DATE = "fb69240", "2026-11-28"  # phase B: the Monte Carlo rows on ldpnb.stats
_REAUDIT, _REAUDIT_DATE = "9cbdf83", "2026-11-28"  # after the third re-audit of the chapter
_PAPER4, _PAPER4_DATE = "20e4abf", "2026-11-28"  # after the fourth edition's paper-scale record
_RISE = (
    "the rise cell's bound was 0, the edge a flat curve sits on, so a flat curve could only be undecided, "
    "never reversed (third re-audit, on F6b-raw); now a material rise of at least 0.5 bit, for every "
    "increase row (F5a, F6a, F6a-raw, F6b, F6b-raw). "
)


def _log(commit: str, date: str, was: dict, reason: str) -> CriterionChange:
    return CriterionChange(commit, date, "book", was, reason)


#: Claim id -> its decision log (applied to the declarations below).
DECISION_LOG = {
    "T1": (
        _log(
            _STATS,
            _STATS_DATE,
            {"kind": "holds", "rule": "all(drop > 3 * drop_se) and all(abs(last_gap) <= 0.01 * D + 3 * last_se)"},
            "moved to ldpnb.stats (three outcomes): the old rule graded point values against multiples of a "
            "standard error; book had drops of 11-31 SE and last gaps -0.0052 +- 0.0021 and 0.025 +- 0.021 bits "
            "(pass). The two parts are now T1 (order of the gaps, tie 0.001 bit) and T1-lim (relative gap "
            "within +-1 %).",
        ),
    ),
    "T5b": (
        _log(
            _STATS,
            _STATS_DATE,
            {"kind": "holds", "rule": "min(bayes - fano) >= 0"},
            "a bare difference of two Monte Carlo means against 0; book had 0.21-0.30 (pass). Now the paired "
            "run means with an interval and a falsifier 0.01 below 0.",
        ),
    ),
    "T16-17": (
        _log(
            _STATS,
            _STATS_DATE,
            {"kind": "close", "target": 1.0, "atol": 0.1581, "rtol": 0.0},
            "a tolerance of 5 SE of a sample variance (0.158 at 2,000 runs) shrinks with the runs and is no "
            "material region; book had ratios 0.905-1.089 (pass). Now the mean squared error over the equation, "
            "+-0.15 (falsifier 1.3) decided with simultaneous intervals at 8,000 runs.",
        ),
    ),
    "T16-17b": (
        _log(
            _STATS,
            _STATS_DATE,
            {"kind": "holds", "rule": "max_z <= 5.5"},
            "moved to ldpnb.stats (three outcomes): the old rule graded point values against multiples of a "
            "standard error; book had max z 4.07 (pass). Now the standardized bias in +-0.1 run SD.",
        ),
    ),
    "T17-hash": (
        _log(
            _STATS,
            _STATS_DATE,
            {"kind": "close", "target": 1.0, "atol": 0.0, "rtol": 0.0, "z": 4},
            "a z criterion with no material tolerance (flagged weak test: effect 0); book had 0.994 +- 0.0105 "
            "(pass). Now +-10 %, falsifier 1.2.",
        ),
    ),
    "F10b": (
        _log(
            _FIRST,
            _FIRST_DATE,
            {"kind": "close", "target": 0.92, "atol": 0.009, "rtol": 0.0},
            "third audit: the row passed beta = 0.9135 with a two-sided +-0.009 against the paper's one-sided "
            "'beta > 0.92'; made one-sided (diverges, instead >= 0.902), the result having been seen.",
        ),
        _log(
            _STATS,
            _STATS_DATE,
            {"kind": "range", "lower": 0.92, "upper": None, "expect": "diverges", "instead": "ours >= 0.902"},
            "the instead rule graded the point value; now the low end of the interval mapped from F10a's "
            "bootstrap (book had beta = 0.9135: diverges).",
        ),
    ),
    "F10c": (
        _log(
            _STATS,
            _STATS_DATE,
            {"kind": "holds", "rule": "all((abs(z) <= 4) + (abs(rel) <= 0.001) >= 1)"},
            "moved to ldpnb.stats (three outcomes): the old rule graded point values against multiples of a "
            "standard error or a relative floor; book had max |z| 2.60 (pass). The top-100 part is dropped (no "
            "decidable region at 20 runs), the all-k part is +-2 %.",
        ),
    ),
    "F10d-RR": (
        _log(
            _STATS,
            _STATS_DATE,
            {
                "kind": "holds",
                "rule": "max(ratio_le16) <= 0.5 and max(ratio_ge18) <= 0.5",
                "expect": "diverges",
                "instead": "max(ratio_le16) <= 0.5",
            },
            "point ratios of means against 0.5; book had 0.48 at eps 16 and 3.2, 19.7 at 18, 20 (diverges). Now "
            "Fieller intervals of the paired ratios, instead on their upper ends.",
        ),
    ),
    "F10d-GLH": (
        _log(
            _STATS,
            _STATS_DATE,
            {
                "kind": "holds",
                "rule": "max(ratio_le16) <= 0.5 and max(ratio_ge18) <= 0.5",
                "expect": "diverges",
                "instead": "max(ratio_le16) <= 0.5",
            },
            "as F10d-RR; book had 0.15 at eps 16 and 0.78, 3.1 at 18, 20 (diverges).",
        ),
    ),
    "F10d-GLH-gauss": (
        _log(
            _STATS,
            _STATS_DATE,
            {"kind": "holds", "rule": "max(ratio) <= 0.5", "expect": "diverges", "instead": "min(ratio) >= 0.9"},
            "as F10d-RR; book had 0.983-0.986 (diverges).",
        ),
    ),
    "F10d-100": (
        _log(
            _STATS,
            _STATS_DATE,
            {
                "kind": "holds",
                "rule": "max(ratio_le8) <= 0.5 and max(ratio_ge10) <= 0.5",
                "expect": "diverges",
                "instead": "max(ratio_le8) <= 0.5",
            },
            "as F10d-RR; book had at most 0.25 up to eps 8 and up to 2.3 from eps 10 (diverges).",
        ),
    ),
    "F11a": (
        _log(
            _STATS,
            _STATS_DATE,
            {
                "kind": "close",
                "target": 1.05,
                "atol": 0.1,
                "rtol": 0.0,
                "expect": "diverges",
                "instead": "max(ours) < 1",
            },
            "the instead rule graded the point means; now the high ends of their intervals (book had 0.937 and "
            "0.756: diverges).",
        ),
    ),
    "F11-exact": (
        _log(
            _STATS,
            _STATS_DATE,
            {"kind": "holds", "rule": "max(abs(z)) <= 4"},
            "moved to ldpnb.stats (three outcomes): the old rule graded point values against multiples of a "
            "standard error; book had max |z| 0.87 at 20 runs (pass). Now +-5 % of the exact value at 200 runs.",
        ),
    ),
    "F11-feas": (
        _log(
            _FIRST,
            _FIRST_DATE,
            {"kind": "holds", "rule": "max(max_r10) >= 1.05", "expect": "diverges"},
            "third audit: the row compared expectations with one printed run; now the printed run is compared "
            "with one run's spread (3 single-run SDs), the result having been seen (z = 2.77 with the exact "
            "test).",
        ),
        _log(
            _REAUDIT,
            _REAUDIT_DATE,
            {"kind": "holds", "rule": "z[0] <= 3"},
            "the threshold z <= 3 had been set after z = 2.77 was seen, on a normal tail of the max-mean profile's "
            "mean error, and the pass margin was within that approximation's error (third re-audit). Now the "
            "exact tail probability of one run of that profile (20-fold convolution of the exact per-symbol "
            "laws) at a stated level, >= 1e-3; set after the re-audit's exact tail (6.5e-3) had been seen.",
        ),
    ),
    "F8d-GLH": (
        _log(
            _PAPER4,
            _PAPER4_DATE,
            {"kind": "range", "upper": 10, "expect": "pass"},
            "declared expecting pass from the book-scale ratios (9.7-10.5 at ε = 6-12, undecided); the paper-scale "
            "record (adf8030) resolves smaller ε, where the ratio is 13.2 [9.8, 20.4] and 11.9 [10.8, 13.3]: "
            "reversed (status fail against the expectation). The expectation is now diverges, as for the RR "
            "(F8d), whose α/PSE grows like 1/θ; the region is unchanged.",
        ),
    ),
    "F6-sel": (
        _log(
            _REAUDIT,
            _REAUDIT_DATE,
            {"kind": "holds", "rule": "min(qualifying) >= 100", "expect": "diverges", "instead": "min(used) >= 100"},
            "declared as the paper's claim, diverging (book: 8 and 8 qualifying users, 575 and 579 used), it "
            "counted among the paper's claims refuted; it is a limit of the public data (third re-audit): now a "
            "derived statement of that limit.",
        ),
    ),
    "T13-g": (
        _log(
            _FIRST,
            _FIRST_DATE,
            {"kind": "holds", "rule": "increases_fail == 0 and min(ratio_1e8) >= 10"},
            "third audit: the part 'ratio >= 10 at g = 1e8' had been narrowed to eps <= 14 after the saturation "
            "had been seen; it is now row T13-large-g on the full eps range (diverges), this row keeps the "
            "monotonicity.",
        ),
    ),
    "F12a": (
        _log(
            _STATS,
            _STATS_DATE,
            {"kind": "holds", "rule": "analytic_increases == 0 and max(z_up) <= 3 and max(overall) < 1"},
            "moved to ldpnb.stats (three outcomes): the old rule graded point values against multiples of a "
            "standard error; book had max z_up 0.37 (pass). Split: the exact part stays here, the Monte Carlo "
            "part is row F12a-mc (last/first ratio < 1); the steps are no longer tested (flat within the MC "
            "error from g = 1e6).",
        ),
    ),
    "F5a": (
        _log(
            _STATS,
            _STATS_DATE,
            {"kind": "holds", "rule": "all(steps >= -2 * step_se) and all(rise > 2 * rise_se)"},
            "moved to ldpnb.stats (three outcomes): the old rule graded point values against multiples of a "
            "standard error (the old one understated by sqrt(2) and not valid for few coincidences); book had "
            "rises of 5.5 and 4.6 old SE (pass).",
        ),
        _log(
            _REAUDIT,
            _REAUDIT_DATE,
            {"kind": "range", "lower": list(_INCREASE_WAS * 2), "upper": None},
            _RISE + "Book had rises of 2.29 [1.68, 3.13] and 1.77 [1.37, 2.34] bits (LT, RH): pass under both.",
        ),
    ),
    "F5-conv-LT": (
        _log(
            _STATS,
            _STATS_DATE,
            {
                "kind": "holds",
                "rule": "all(abs(d13) <= 3 * se13) and all(abs(dX) <= 3 * seX)",
                "expect": "diverges",
                "instead": "all(abs(d13) <= 3 * se13)",
            },
            "moved to ldpnb.stats (three outcomes): the old rule graded point values against multiples of a "
            "standard error; book had |d| within 3 SE at t = 1, 3 and dX = 1.22 / 1.24 bits (diverges). Y = X "
            "is now row F5-conv-X; this row tests t = 1, 3 against +-0.25 bit (expect pass).",
        ),
    ),
    "F5-conv-RH": (
        _log(
            _STATS,
            _STATS_DATE,
            {
                "kind": "holds",
                "rule": "all(abs(d13) <= 3 * se13) and all(abs(dX) <= 3 * seX)",
                "expect": "diverges",
                "instead": "all(abs(d13) <= 3 * se13)",
            },
            "moved to ldpnb.stats (three outcomes): the old rule graded point values against multiples of a "
            "standard error; book had |d| within 3 SE at t = 1, 3 and dX = 1.22 / 1.24 bits (diverges). Y = X "
            "is now row F5-conv-X; this row tests t = 1, 3 against +-0.25 bit (expect pass).",
        ),
    ),
    "F5-ratings": (
        _log(
            _STATS,
            _STATS_DATE,
            {"kind": "holds", "rule": "all(gap > 2 * gap_se)"},
            "moved to ldpnb.stats (three outcomes): the old rule graded point values against multiples of a "
            "standard error; book had 3.5-25 old SE (pass).",
        ),
    ),
    "F5-LTvsRH": (
        _log(
            _STATS,
            _STATS_DATE,
            {
                "kind": "holds",
                "rule": "all(gap > 2 * gap_se)",
                "expect": "diverges",
                "instead": "gap[1] > 2 * gap_se[1] and gap[2] > 2 * gap_se[2] and gap[3] > 2 * gap_se[3]",
            },
            "the row diverged because t = 4 was within 2 SE (0.34 +- 0.43 bits): a gap not established is "
            "undecided, not a divergence, and every gap was positive. Now range > 0, expect pass.",
        ),
    ),
    "F6a": (
        _log(
            _STATS,
            _STATS_DATE,
            {"kind": "holds", "rule": "all(steps >= -2 * step_se) and all(rise > 2 * rise_se)"},
            "moved to ldpnb.stats (three outcomes): the old rule graded point values against multiples of a "
            "standard error: with the corrected half-sample SE the rise was 0.557 bits = 1.92 SE, so the build "
            "failed on main (2.72 SE under the old SE, which understated it by sqrt(2)). Now paired differences "
            "from common halves.",
        ),
        _log(
            _REAUDIT,
            _REAUDIT_DATE,
            {"kind": "range", "lower": list(_INCREASE_WAS), "upper": None},
            _RISE + "Book had a rise of 0.557 [0.238, 0.876] bits and the step m = 15 -> 20 undecided: undecided "
            "under both.",
        ),
    ),
    "F6a-raw": (
        _log(
            _STATS,
            _STATS_DATE,
            {"kind": "holds", "rule": "all(steps >= -2 * step_se) and all(rise > 2 * rise_se)"},
            "moved to ldpnb.stats (three outcomes): the old rule graded point values against multiples of a "
            "standard error: book had a rise of 2.5 old SE (pass).",
        ),
        _log(
            _REAUDIT,
            _REAUDIT_DATE,
            {"kind": "range", "lower": list(_INCREASE_WAS), "upper": None},
            _RISE + "Book had a rise of 0.601 [0.208, 0.994] bits: pass under the old bound, undecided under the "
            "new one.",
        ),
    ),
    "F6b": (
        _log(
            _STATS,
            _STATS_DATE,
            {"kind": "holds", "rule": "all(steps >= -2 * step_se) and all(rise > 2 * rise_se)"},
            "moved to ldpnb.stats (three outcomes): the old rule graded point values against multiples of a "
            "standard error: book had a rise of 2.9 old SE (pass), from a half-sample SE that is not valid for "
            "a count of coincidences; now the user bootstrap.",
        ),
        _log(
            _REAUDIT,
            _REAUDIT_DATE,
            {"kind": "range", "lower": list(_INCREASE_WAS), "upper": None},
            _RISE + "Book had a rise of 3.32 [0.95, 7.56] bits: pass under both. The row is now an invariant, not "
            "the paper's claim: its steps cannot fall by construction (nested coincidences).",
        ),
    ),
    "F6b-raw": (
        _log(
            _STATS,
            _STATS_DATE,
            {
                "kind": "holds",
                "rule": "all(steps >= -2 * step_se) and all(rise > 2 * rise_se)",
                "expect": "diverges",
                "instead": "max(err_steps) <= 0",
            },
            "moved to ldpnb.stats (three outcomes): the old rule graded point values against multiples of a "
            "standard error: book had a rise of -0.06 +- 0.28 bits (diverges: not established). A rise not "
            "established is undecided in three outcomes; the falling error rate is in the note and the text.",
        ),
        _log(
            _REAUDIT,
            _REAUDIT_DATE,
            {"kind": "range", "lower": list(_INCREASE_WAS), "upper": None, "expect": "diverges"},
            _RISE + "Book had a rise of -0.056 [-0.473, 0.261] bits (flat from m = 2): undecided under the old "
            "bound, reversed (diverges) under the new one.",
        ),
    ),
    "F7a": (
        _log(
            _STATS,
            _STATS_DATE,
            {
                "kind": "holds",
                "rule": "all(frr_lt < frr_face)",
                "expect": "diverges",
                "instead": "frr_lt[0] < frr_face[0] and frr_lt[1] < frr_face[1]",
            },
            "point FRRs compared with no uncertainty; book had 0.777, 0.583, 0.543 against 0.935, 0.773, 0.384 "
            "(diverges). Now user-bootstrap intervals, tie 0.01.",
        ),
    ),
    "F7a-raw": (
        _log(
            _STATS,
            _STATS_DATE,
            {"kind": "holds", "rule": "all(frr_lt < frr_face)", "expect": "diverges"},
            "as F7a; book had 0.957, 0.957, 0.877 against 0.935, 0.773, 0.384 (diverges).",
        ),
    ),
    "F7-FRPC": (
        _log(
            _STATS,
            _STATS_DATE,
            {"kind": "holds", "rule": "frr_lt[0] < 0.15 and frr_lt[1] < 0.10", "expect": "diverges"},
            "as F7a; book had 0.583 and 0.543 (diverges).",
        ),
    ),
    "F7c": (
        _log(
            _STATS,
            _STATS_DATE,
            {"kind": "order", "relation": "m25 < m5", "atol": 0.0, "rtol": 0.0},
            "no tie tolerance and no uncertainty; book had 0.583 < 0.760 (pass). Now a paired bootstrap "
            "difference, tie 0.01.",
        ),
    ),
    "BIO-est": (
        _log(
            _STATS,
            _STATS_DATE,
            {"kind": "range", "lower": None, "upper": 0.1},
            "the largest |relative error| of means of 3 sets, no uncertainty; book had 0.055 (pass). Now each "
            "stand-in's mean relative error in +-0.1 with its interval (8 sets).",
        ),
    ),
    "F8b": (
        _log(
            _STATS,
            _STATS_DATE,
            {"kind": "holds", "rule": "resolvable > 0 and max(pse - a44) <= 0 and max(a44 - a41) <= 1e-9"},
            "the Monte Carlo PSE as a point value; book had PSE/alpha at most 0.12 (pass).",
        ),
    ),
    "F9b": (
        _log(
            _STATS,
            _STATS_DATE,
            {
                "kind": "holds",
                "rule": "resolvable > 0 and min(err + 3 * err_se - lb_pse) >= 0 and min(lb_pse - lb44) >= 0",
            },
            "moved to ldpnb.stats (three outcomes): the old rule graded point values against multiples of a "
            "standard error; book had err - LB(PSE) >= 0.075 (pass).",
        ),
    ),
    "F9c": (
        _log(
            _STATS,
            _STATS_DATE,
            {"kind": "holds", "rule": "max(abs(z)) <= 4.5"},
            "moved to ldpnb.stats (three outcomes): the old rule graded point values against multiples of a "
            "standard error; book had max |z| 1.12 (pass). Now +-0.005, falsifier 0.01, at 64 rounds.",
        ),
    ),
    "F9d": (
        _log(
            _STATS,
            _STATS_DATE,
            {
                "kind": "holds",
                "rule": "min(ratio_rr) >= 10 and min(ratio_glh) >= 10",
                "expect": "diverges",
                "instead": "min(ratio_rr) >= 1 and min(ratio_glh) >= 1",
            },
            "the GLH ratios as point values; book had 1.0 from eps 12 (diverges). Now F8b's interval mapped "
            "through the ratio.",
        ),
    ),
    "F9-small": (
        _log(
            _STATS,
            _STATS_DATE,
            {"kind": "holds", "rule": "min(err_rr) >= 0.99 and min(err_glh) >= 0.99"},
            "the GLH errors as point values; book had 0.9996 (pass). Now with their intervals, falsifier 0.98.",
        ),
    ),
}

CLAIMS = claim_table(*(replace(c, changes=c.changes + DECISION_LOG.get(c.id, ())) for c in _DECLARED))
