"""The performance appendix's claims (exactness, agreement) and its speed targets (timings).

Claims can fail the build: a fast path that changes a result is a bug.  Speed targets cannot: they
are measured ratios on a shared two-core machine, recorded with ``Report.timing`` and shown as
*met* / *missed* in the chapter's table of targets (a miss is a miss, stated with its measured cause).
"""

from ldpnb.repro.claims import Claim, claim_table

CLAIMS = claim_table(
    Claim("E1", "Structured IBU (k-RR diagonal-plus-constant, planar FFT with exact clamping) gives the dense "
               "iterates (max abs difference over every size timed)",
          source="invariant", kind="close", reference=0.0, atol=1e-12,
          where="the structured operators compute the same products θC and C r as the dense channel"),
    Claim("A1", "Our estimates agree with multi-freq-ldpy's on the same reports (its MI aggregators on our GRR, "
               "OUE and SS reports; its IBU with the same number of updates)",
          source="invariant", kind="holds", rule="compared > 0 and max_abs_diff <= 1e-9",
          where="same formulas: f = (C(v)/n - q)/(p - q), IBU's EM update (Agrawal and Aggarwal 2001)",
          scales=("book", "paper"),
          note="Not run at smoke scale: numba's compilation of the peer alone exceeds the smoke budget."),
    Claim("B1", "The vectorised Blahut-Arimoto step gives the output marginal of an entry-by-entry loop "
               "(max abs difference)",
          source="invariant", kind="close", reference=0.0, atol=1e-12,
          where="Blahut (1972), Arimoto (1972): c'(y) = Σ_x π(x) c(y) e^{-β d(x,y)} / Σ_y' c(y') e^{-β d(x,y')}"),
)

#: Speed targets of the performance issue: (id, what, target ratio).  Timings, not claims.
TARGETS = {
    "P1": "per-user client simulation: >= 20x faster than multi-freq-ldpy (min over k)",
    "P2": "server-side estimation from per-user reports: >= 20x faster than multi-freq-ldpy (min over k)",
    "P3": "IBU on support counts: >= 1x the peer's IBU (same number of updates; min over mechanisms and k)",
    "P4": "k-RR IBU at k = 4096: >= 100x faster than dense per iteration",
    "P5": "planar grid IBU (largest grid): >= 20x faster than dense per iteration",
    "P7": "this chapter within its budget",
}
