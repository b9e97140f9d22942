"""The audit appendix's claims: every mechanism keeps its privacy claim; the audit catches a broken one;
the RS+FD paper's one-attribute claim (as data; ``book/audit.py`` supplies the numbers)."""

from ldpnb.audit.registry import PAPER_CLAIMS, REGISTRY
from ldpnb.repro.claims import Claim, Printed, claim_table

#: Claim id of each audited mechanism (stable, independent of the registry's order).
IDS = {
    "GRR": "A-GRR",
    "SUE": "A-SUE",
    "OUE": "A-OUE",
    "OLH": "A-OLH",
    "BLH": "A-BLH",
    "SS": "A-SS",
    "geometric": "A-geometric",
    "Laplace": "A-Laplace",
    "exponential": "A-exponential",
    "planar geometric": "A-planar-geometric",
    "planar Laplace": "A-planar-Laplace",
    "BA (rate-distortion)": "A-BA",
    "padded planar Laplace": "A-LAP-padded",
    "watchdog (complete merging)": "A-watchdog-complete",
    "watchdog (subset merging)": "A-watchdog-subset",
    "ORR": "A-ORR",
    "SRR": "A-SRR",
    "RS+FD[GRR]": "A-RSFD-GRR",
    "RS+FD[OUE-z]": "A-RSFD-OUE-z",
    "RS+FD[SUE-r]": "A-RSFD-SUE-r",
    "RS+RFD[GRR]": "A-RSRFD-GRR",
    "RS+RFD[OUE-r]": "A-RSRFD-OUE-r",
    # the mechanisms deployments use (issue #33 item 4)
    "HR": "A-HR",
    "HRR": "A-HRR",
    "OLH-CW": "A-OLH-CW",
    "Bloom RAPPOR": "A-RAPPOR-Bloom",
    "L-GRR": "A-L-GRR",
    "L-OSUE": "A-L-OSUE",
    "dBitFlipPM": "A-dBitFlipPM",
}
#: Claim id of each paper claim audited on its own.
PAPER_IDS = {
    "RS+FD[GRR] (one-attribute neighbours)": "P-RSFD-neighbours",
    "RS+RFD[GRR] (one-attribute neighbours)": "P-RSRFD-neighbours",
}

# where each claimed guarantee comes from: (source, printed claim and where, or the definition)
_PAPER = {
    "BA (rate-distortion)": Printed("2β-geo-ind", "PRIVIC, Remark 4 (after Oya et al.)"),
    "watchdog (complete merging)": Printed("(ε/2, ε/2)-ALIP implies ε-LDP w.r.t. S", "Lift paper, Prop. 1-4"),
    "watchdog (subset merging)": Printed("(ε/2, ε/2)-ALIP implies ε-LDP w.r.t. S", "Lift paper, Prop. 1-4"),
    "ORR": Printed("(ε/2, ε/2)-ALIP implies ε-LDP w.r.t. S", "Lift paper, Prop. 1-4"),
    "SRR": Printed("(ε/2, ε/2)-ALIP implies ε-LDP w.r.t. S", "Lift paper, Prop. 1-4"),
    "RS+FD[GRR]": Printed("ε' = ln(d(e^ε − 1) + 1)-LDP", "Risks paper, Sec. 2.3.2"),
    "RS+FD[OUE-z]": Printed("ε' = ln(d(e^ε − 1) + 1)-LDP", "Risks paper, Sec. 2.3.2"),
    "RS+FD[SUE-r]": Printed("ε' = ln(d(e^ε − 1) + 1)-LDP", "Risks paper, Sec. 2.3.2"),
    "RS+RFD[GRR]": Printed("ε' = ln(d(e^ε − 1) + 1)-LDP", "Risks paper, Sec. 5.1 (privacy analysis)"),
    "RS+RFD[OUE-r]": Printed("ε' = ln(d(e^ε − 1) + 1)-LDP", "Risks paper, Sec. 5.1 (privacy analysis)"),
}
#: Where the claim of each deployed mechanism comes from (its definition in the literature).
_WHERE = {
    "HR": "Hadamard response's definition (Acharya, Sun and Zhang 2019): eps-LDP",
    "HRR": "Hadamard randomized response's definition (Cormode, Maddock and Maple 2021): eps-LDP",
    "OLH-CW": "OLH's definition (Wang et al. 2017) with a Carter-Wegman hash on a finite seed family: eps-LDP",
    "Bloom RAPPOR": "RAPPOR (Erlingsson, Pihur and Korolova 2014): one report is "
    "eps_1 = h ln(q*(1-p*)/(p*(1-q*)))-LDP, with eps the PRR's eps_inf",
    "L-GRR": "L-GRR (Arcolezi et al. 2022): one report eps_1-LDP (here eps_1 = eps, eps_inf = 2 eps)",
    "L-OSUE": "L-OSUE (Arcolezi et al. 2022): one report eps_1-LDP (here eps_1 = eps, eps_inf = 2 eps)",
    "dBitFlipPM": "dBitFlip (Ding, Kulkarni and Yekhanin 2017): eps-LDP (d = 2 bits)",
}
#: The claim in words where the registry's label (the claim over eps at eps = 1) does not say it:
#: RAPPOR's eps is its PRR level eps_inf, and one report is claimed eps_1(eps)-LDP (not a multiple of eps).
_CLAIM_TEXT = {"Bloom RAPPOR": "ε₁-LDP per report, with ε = ε∞ of the permanent randomized response"}
_DEFINITION = {
    "ldp": "the mechanism's definition (ε-LDP: Kasiviswanathan et al. 2011; Wang et al. 2017)",
    "geo": "the mechanism's definition (ε-geo-indistinguishability: Andres et al. 2013)",
}

_RULE = "max(exact_ratio) <= 1 + 1e-9 and max(emp_ratio) <= 1 and min(sampler_ok) == 1"


def _mechanism_claim(name: str) -> Claim:
    case = REGISTRY[name]
    claim = _CLAIM_TEXT.get(name, case.claim)
    text = (
        f"{name} keeps its claim ({claim}): at every ε of the grid, the exact level of its channel "
        "and the sampler's empirical lower bound are at most the claim, and the sampler agrees with the channel"
    )
    if name in _PAPER:
        return Claim(IDS[name], text, source="paper", paper=_PAPER[name], kind="holds", rule=_RULE)
    where = _WHERE.get(name, _DEFINITION[case.kind])
    return Claim(IDS[name], text, source="invariant", where=where, kind="holds", rule=_RULE)


CLAIMS = claim_table(
    *(_mechanism_claim(n) for n in REGISTRY),
    Claim(
        "M1",
        "The audit flags a broken SUE (true bit kept with probability e^ε/(1 + e^ε), true level 1.5 ε) "
        "at every ε of the grid: its empirical lower bound exceeds the claim ε",
        source="invariant",
        where="LDP-Auditor's bug pattern (Arcolezi and Gambs 2024)",
        kind="holds",
        rule="min(emp_ratio) > 1",
    ),
    *(
        Claim(
            PAPER_IDS[n],
            f"{n.split(' (')[0]} is ε-LDP for tuples that differ in one attribute (exact level of "
            "the one-attribute neighbours, over ε)",
            source="paper",
            paper=Printed("ε-LDP", "Risks paper, Sec. 2.3.2 and Sec. 5.1 (privacy analysis)"),
            kind="holds",
            rule="max(exact_ratio) <= 1 + 1e-9",
            expect="diverges",
            instead="min(exact_ratio) > 1 and sound == 1",
            note="With domains of different sizes (ks = (2, 3)) or non-uniform priors, the exact loss between "
            "tuples that differ in one attribute exceeds ε; the amplified level ε' (the A-RSFD/A-RSRFD rows) "
            "holds for any two tuples.",
        )
        for n in PAPER_CLAIMS
    ),
)

#: The appendix's sizes per scale: trials per empirical audit (``n_trials``) and the ε grid audited.
SIZES_BY_SCALE = {
    "smoke": dict(n_trials=20_000, eps_grid=[1.0, 2.0]),
    "book": dict(n_trials=400_000, eps_grid=[0.25, 0.5, 1.0, 2.0, 4.0]),
    "paper": dict(n_trials=2_000_000, eps_grid=[0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0]),
}
