"""The foundations chapter's claims: textbook facts, checked exactly on the package's objects."""

from ldpnb.repro.claims import Claim, claim_table

CLAIMS = claim_table(
    Claim(
        "F1",
        "The tight ε of k-RR, OUE, SUE, SS and LH, and the geo-indistinguishability constant of the "
        "truncated geometric mechanism, equal their parameter (max |tight/ε − 1| over ε ∈ {0.25, …, 4})",
        source="invariant",
        kind="close",
        reference=0.0,
        atol=1e-9,
        where="definitions: Kairouz et al. (2016), Wang et al. (2017), Ye and Barg (2018), Ghosh et al. (2009)",
    ),
    Claim(
        "F2",
        "The discretised truncated Laplace and the exponential mechanism are ε-geo-indistinguishable "
        "(largest tight/ε ≤ 1)",
        source="invariant",
        kind="range",
        upper=1 + 1e-9,
        one_sided=True,
        where="post-processing of the untruncated mechanisms; McSherry and Talwar (2007)",
    ),
    Claim(
        "F3",
        "The planar geometric and planar Laplace channels (15 × 15 grid of 0.5 km cells, ε = 2/km) are "
        "2/km-geo-indistinguishable (tight constants, 1/km)",
        source="invariant",
        kind="range",
        upper=2 + 1e-9,
        one_sided=True,
        where="Andres et al. (2013), clamping is post-processing",
    ),
    Claim(
        "F4",
        "GRR has a lower estimator variance than OUE if and only if k < 3e^ε + 2",
        source="derived",
        kind="holds",
        rule="mismatches == 0 and checked > 0",
        where="Wang et al. (2017), Sec. 5 (variance comparison)",
    ),
    Claim(
        "F5",
        "k-RR reports, per user and count-level, follow the channel (χ² statistics below the critical "
        "value at a false-alarm rate of 1e-6, 9 degrees of freedom)",
        source="invariant",
        kind="holds",
        rule="max(chi2) < crit",
        where="χ² goodness of fit of the samplers against the exact channel",
    ),
    Claim(
        "F6",
        "IBU's log-likelihood never decreases (EM monotonicity; smallest step ≥ −1e-12)",
        source="invariant",
        kind="holds",
        rule="min_step >= -1e-12",
        where="Dempster, Laird and Rubin (1977); ElSalamouny and Palamidessi (2020), Algorithm 1",
    ),
    Claim(
        "F7",
        "INV is unbiased: on the exact expected reports it recovers θ (max |error|)",
        source="invariant",
        kind="close",
        reference=0.0,
        atol=1e-9,
        where="INV solves θC = q exactly",
    ),
    Claim(
        "F8",
        "INV-N, INV-P and IBU return distributions (sums 1, entries ≥ 0)",
        source="invariant",
        kind="holds",
        rule="max(abs(sums - 1)) < 1e-9 and min(mins) >= 0",
        where="definitions of INV-N (clip and renormalise), INV-P (simplex projection), IBU",
    ),
    Claim(
        "F9",
        "The closed-form EMD on a line equals the optimal-transport EMD of POT (max gap)",
        source="invariant",
        kind="close",
        reference=0.0,
        atol=1e-9,
        where="EMD on a line = L1 distance between CDFs (Rubner et al. 2000)",
    ),
    Claim(
        "F10",
        "The Blahut-Arimoto capacity of k-RR equals log k − H(row) (max gap, nats)",
        source="invariant",
        kind="close",
        reference=0.0,
        atol=1e-9,
        where="capacity of a symmetric channel (Cover and Thomas, Thm 7.2.1)",
    ),
    Claim(
        "F11",
        "The capacity of an ε-LDP channel is at most min(ε, ε²) nats (k-RR, k ∈ {2, 8, 64}, 40 values "
        "of ε; largest capacity − bound)",
        source="derived",
        kind="range",
        upper=1e-12,
        one_sided=True,
        where="Cuff and Yu (2016), Lemma 1 (used by the PIE paper, Lemma B.2)",
    ),
)

#: The chapter's sizes per scale: users of the simulated population (``users``) and of the estimators'
#: comparison on the geometric mechanism (``estimator_users``).
SIZES_BY_SCALE = {
    "smoke": dict(users=20_000, estimator_users=2_000),
    "book": dict(users=200_000, estimator_users=5_000),
    "paper": dict(users=2_000_000, estimator_users=5_000),
}
