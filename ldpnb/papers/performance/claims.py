"""The performance appendix's claims (exactness, agreement) and its speed targets (timings).

Claims can fail the build: a fast path that changes a result is a bug.  Speed targets cannot: they
are measured ratios on a shared two-core machine, recorded with ``Report.timing`` and shown as
*met* / *missed* in the chapter's table of targets (a miss is a miss, stated with its measured cause).
"""

from ldpnb.repro.claims import Claim, claim_table

CLAIMS = claim_table(
    Claim(
        "E1",
        "Structured k-RR IBU (diagonal plus constant, O(k) per iteration) gives the dense iterates "
        "(max abs difference over every size timed)",
        source="invariant",
        kind="close",
        reference=0.0,
        atol=1e-12,
        where="the operator computes the same products θC and C r as the dense channel",
    ),
    Claim(
        "A1",
        "Our estimates agree with the peers' on the same reports and counts (multi-freq-ldpy's and "
        "pure-ldp's aggregators on our GRR, OUE and SS reports; multi-freq-ldpy's and qif's IBU with "
        "the same number of updates; max abs difference)",
        source="invariant",
        kind="holds",
        rule="compared > 0 and max_abs_diff <= 1e-9",
        where="same formulas: f = (C(v)/n - q)/(p - q) clipped, IBU's EM update (Agrawal and Aggarwal 2001)",
        scales=("book", "paper"),
        note="Not run at smoke scale: numba's compilation of the peer alone exceeds the smoke budget.",
    ),
    Claim(
        "E2",
        "FFT grid IBU on the trimmed kernel gives the dense iterates (planar geometric channel, same "
        "counts and number of updates; max abs difference over every case timed)",
        source="invariant",
        kind="close",
        reference=0.0,
        atol=1e-12,
        where="exact clamping of the kept offsets; the dropped kernel mass is at most 2^-53",
    ),
    Claim(
        "B1",
        "Our Blahut-Arimoto channel (marginal iteration; FFT on lattices) equals that of a textbook "
        "numpy BA that forms the channel at every iteration, and of a lean one (max abs difference)",
        source="invariant",
        kind="close",
        reference=0.0,
        atol=1e-12,
        where="Blahut (1972), Arimoto (1972); Biswas and Palamidessi (2023), eqs. (1)-(2)",
    ),
)

#: Speed targets of the performance issue (#22).  Timings, not claims: shown met or missed.
TARGETS = {
    "T1": "per-user client: at least as fast as the best peer on the same users (min over k)",
    "T2": "server from per-user reports: at least as fast as the best peer on the same reports (min over k)",
    "T3": "dense IBU per iteration: at least as fast as the best peer (same channel, same updates)",
    "T4": "Blahut-Arimoto: at least as fast as a lean numpy BA (same channel out)",
    "T5": "Blahut-Arimoto on a lattice: FFT at least 50x faster than dense per iteration (largest grid)",
    "T6": "hot kernels at >= 50% of their measured floor (clients: bare random draws; IBU: bandwidth)",
    "T7": "this chapter within its budget",
    "T8": "FFT grid IBU (planar geometric, trimmed kernel), total time to the same number of updates",
    "T9": "time to a certified IBU optimum (gap <= 1e-6): SQUAREM at least 10x faster than the plain update",
    "T10": "the whole book at SCALE=paper (make paper) within 45 minutes of wall time on 2 cores",
}

#: The appendix's sizes per scale: the frequency oracles' domains ``ks``, users ``n`` (``n_lh`` for the
#: peers' slow local hashing) and timing ``repeats``; IBU's domains and updates per domain; the
#: structured k-RR domains and updates; BA's grid sides and iterations; the sample sizes ``ns``; the
#: FFT grid cases (side, epsilon) and updates; SQUAREM's cap and cases; the memory check's sizes;
#: ``peers``, whether the peers are loaded (False at smoke scale: numba's compilation alone exceeds the
#: smoke budget; A1 is then out of scale too); ``bw_mib``, the MiB read by the bandwidth probe; and
#: ``budget_s``, the chapter's time budget in seconds.
SIZES_BY_SCALE = {
    "smoke": dict(
        ks=(16,),
        n=2_000,
        n_lh=200,
        repeats=1,
        ibu_ks=(16, 64),
        ibu_iters={16: 200, 64: 100},
        krr_ks=(64, 256),
        krr_it=20,
        grids=(6, 10),
        ba_it=5,
        ns=(1_000, 4_000, 16_000),
        grid_cases=((8, 2.0),),
        grid_it=20,
        sq_cap=2000,
        sq_cases=(("k-RR", 32, 1.0), ("OUE", 32, 1.0), ("planar", 5, 2.0)),
        mem=dict(k=128, g=8, n=2_000),
        peers=False,
        bw_mib=32,
        budget_s=60,
    ),
    "book": dict(
        ks=(16, 128, 1024),
        n=20_000,
        n_lh=1_000,
        repeats=3,
        ibu_ks=(16, 128, 256, 1024, 4096),
        ibu_iters={16: 2000, 128: 600, 256: 300, 1024: 40, 4096: 6},
        krr_ks=(256, 1024, 4096),
        krr_it=20,
        grids=(10, 24, 40),
        ba_it=30,
        grid_cases=((32, 1.0), (32, 2.0), (48, 2.0)),
        grid_it=100,
        sq_cap=10_000,
        sq_cases=(
            ("k-RR", 256, 0.5),
            ("k-RR", 256, 4.0),
            ("OUE", 256, 0.5),
            ("OUE", 256, 4.0),
            ("planar", 8, 0.5),
            ("planar", 24, 2.0),
        ),
        ns=(10_000, 100_000, 1_000_000),
        mem=dict(k=1024, g=32, n=100_000),
        peers=True,
        bw_mib=256,
        budget_s=180,
    ),
    "paper": dict(
        ks=(16, 128, 1024),
        n=100_000,
        n_lh=2_000,
        repeats=5,
        ibu_ks=(16, 128, 256, 1024, 4096),
        ibu_iters={16: 5000, 128: 1000, 256: 500, 1024: 60, 4096: 10},
        krr_ks=(256, 1024, 4096, 16384),
        krr_it=30,
        grids=(10, 25, 64),
        grid_cases=((32, 1.0), (32, 2.0), (48, 2.0)),
        grid_it=100,
        sq_cap=10_000,
        sq_cases=(
            ("k-RR", 256, 0.5),
            ("k-RR", 256, 4.0),
            ("OUE", 256, 0.5),
            ("OUE", 256, 4.0),
            ("planar", 8, 0.5),
            ("planar", 24, 2.0),
        ),
        ba_it=10,
        ns=(10_000, 100_000, 1_000_000, 10_000_000),
        mem=dict(k=4096, g=64, n=1_000_000),
        peers=True,
        bw_mib=256,
        budget_s=3600,
    ),
}
