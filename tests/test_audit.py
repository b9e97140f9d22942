"""Privacy audits (issue #9): exact levels, Clopper-Pearson bounds, the LDP-Auditor-style lower
bound of every registered mechanism, and the mutation test (a broken unary encoding is caught).

Default suite: a light audit (every mechanism at one epsilon, 20,000 runs per input).  The full
grid at book size is marked ``slow``.  Confidence: Bonferroni over the audits of a test, so the
chance of a false flag over the whole test is below 1% (and every test is seeded, hence
deterministic).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from ldpnb import audit
from ldpnb import channels as audit_channels
from ldpnb import mechanisms as mech
from ldpnb.audit import registry as audit_registry

REQUIRED = [
    "GRR",
    "SUE",
    "OUE",
    "OLH",
    "BLH",
    "SS",
    "geometric",
    "Laplace",
    "exponential",
    "planar geometric",
    "planar Laplace",
    "BA (rate-distortion)",
    "watchdog (complete merging)",
    "watchdog (subset merging)",
    "ORR",
    "SRR",
    "RS+FD[GRR]",
    "RS+FD[OUE-z]",
    "RS+FD[SUE-r]",
    "RS+RFD[GRR]",
    "RS+RFD[OUE-r]",
]


# ----------------------------------------------------------------------------- Clopper-Pearson
def test_clopper_pearson_closed_forms():
    n, a = 50, 0.01
    lo, hi = audit.clopper_pearson(0, n, a)
    assert lo == 0.0 and hi == pytest.approx(1 - (a / 2) ** (1 / n), rel=1e-12)
    lo, hi = audit.clopper_pearson(n, n, a)
    assert hi == 1.0 and lo == pytest.approx((a / 2) ** (1 / n), rel=1e-12)
    lo, hi = audit.clopper_pearson(20, 100, 0.05)  # statsmodels proportion_confint(20, 100, method="beta")
    assert lo == pytest.approx(0.12665, abs=5e-5) and hi == pytest.approx(0.29184, abs=5e-5)


@pytest.mark.parametrize("p, n", [(0.3, 40), (0.02, 200), (0.9, 25)])
def test_clopper_pearson_coverage_is_exact(p, n):
    """P(lo <= p <= hi) >= 1 - alpha, computed exactly over the binomial law (no sampling)."""
    alpha = 0.05
    cover = 0.0
    for k in range(n + 1):
        lo, hi = audit.clopper_pearson(k, n, alpha)
        if lo <= p <= hi:
            cover += stats.binom.pmf(k, n, p)
    assert cover >= 1 - alpha - 1e-12


def test_bonferroni_alpha():
    assert audit.bonferroni_alpha(0.01, 100) == pytest.approx(1e-4)


# ----------------------------------------------------------------------------- exact levels
@pytest.mark.parametrize("eps", [0.1, 1.0, 3.0])
def test_exact_epsilon_of_known_channels(eps):
    assert audit_channels.exact_epsilon(mech.grr_channel(5, eps)) == pytest.approx(eps, rel=1e-12)
    assert audit_channels.exact_epsilon(mech.ue_channel(4, eps, "sue")) == pytest.approx(eps, rel=1e-12)
    assert audit_channels.exact_epsilon(mech.ue_channel(4, eps, "oue")) == pytest.approx(eps, rel=1e-12)
    G = mech.geometric_channel(6, eps)
    D = np.abs(np.subtract.outer(np.arange(6.0), np.arange(6.0)))
    assert audit_channels.exact_epsilon(G) == pytest.approx(5 * eps, rel=1e-9)  # LDP level: eps * diameter
    assert audit_channels.exact_epsilon(G, D) == pytest.approx(eps, rel=1e-9)  # geo-ind constant
    assert audit_channels.pair_epsilon(G, 0, 3) == pytest.approx(3 * eps, rel=1e-9)
    assert audit_channels.worst_pair(mech.grr_channel(3, eps)) in {(i, j) for i in range(3) for j in range(3) if i != j}


def test_pair_epsilon_infinite_when_supports_differ():
    C = np.array([[1.0, 0.0], [0.5, 0.5]])
    assert audit_channels.pair_epsilon(C, 0, 1) == math.inf
    assert audit_channels.exact_epsilon(C) == math.inf


# ----------------------------------------------------------------------------- the empirical bound
def _grr_sampler(k, eps):
    return lambda x, n, r: mech.grr_perturb(np.full(n, x), k, eps, rng=r)


def test_empirical_bound_with_a_fixed_event():
    eps, n = 1.0, 40_000
    res = audit.empirical_epsilon(_grr_sampler(2, eps), 0, 1, n_trials=n, alpha=0.01, rng=3, event=lambda y: y == 0)
    assert res.n_eval == n and res.event is None
    lo, _ = audit.clopper_pearson(res.tp, n, 0.01)
    _, hi = audit.clopper_pearson(res.fp, n, 0.01)
    assert res.epsilon == pytest.approx(math.log(lo / hi))
    assert 0.9 < res.epsilon <= eps


def test_empirical_bound_finds_the_event_in_either_direction():
    eps = 2.0
    res = audit.empirical_epsilon(_grr_sampler(4, eps), 0, 1, n_trials=20_000, alpha=0.01, rng=4)
    assert res.event is not None and 0.8 * eps < res.epsilon <= eps
    swapped = audit.empirical_epsilon(_grr_sampler(4, eps), 1, 0, n_trials=20_000, alpha=0.01, rng=4)
    assert 0.8 * eps < swapped.epsilon <= eps


def test_identical_inputs_give_no_evidence():
    res = audit.empirical_epsilon(_grr_sampler(4, 1.0), 2, 2, n_trials=20_000, alpha=0.01, rng=5)
    assert res.epsilon < 0.1


def test_false_flag_rate_is_at_most_alpha():
    """Over 200 independent small audits at alpha = 0.2 the bound exceeds the true level in at most
    a binomial(200, 0.2) tail's worth of runs (one-sided 1e-4 quantile)."""
    eps, alpha, reps = 0.5, 0.2, 200
    rng = np.random.default_rng(6)
    over = sum(
        audit.empirical_epsilon(_grr_sampler(3, eps), 0, 1, n_trials=400, alpha=alpha, rng=rng).epsilon > eps
        for _ in range(reps)
    )
    assert over <= stats.binom.ppf(1 - 1e-4, reps, alpha)


# ----------------------------------------------------------------------------- the registry
def test_registry_covers_every_mechanism_of_the_issue():
    assert set(REQUIRED) <= set(audit.REGISTRY)
    assert set(audit.available_mechanisms()) == set(audit.REGISTRY)
    for name, spec in audit.REGISTRY.items():
        assert spec.kind in ("ldp", "geo", "lift"), name


LIGHT_EPS = 1.0
LIGHT_N = 20_000


def test_light_audit_every_mechanism_keeps_its_promise():
    names = list(audit.REGISTRY)
    alpha = audit.bonferroni_alpha(0.01, len(names))
    results = audit.audit_grid(names, [LIGHT_EPS], n_trials=LIGHT_N, alpha=alpha, seed=2024)
    bad = [(r.mechanism, r.claimed, r.exact, r.empirical) for r in results if not r.passed]
    assert not bad, f"mechanisms that break their promise: {bad}"
    for r in results:
        assert r.exact <= r.claimed * (1 + 1e-9)
        assert r.pair_exact <= r.exact * r.d12 * (1 + 1e-9) + 1e-12
        assert r.empirical <= r.pair_claimed
    # the audit has power: the frequency oracles are tight and the bound gets close to eps
    by_name = {r.mechanism: r for r in results}
    for name in ["GRR", "SUE", "OUE", "OLH", "BLH", "SS", "geometric"]:
        assert by_name[name].empirical > 0.75 * LIGHT_EPS, (name, by_name[name].empirical)


def test_mutation_broken_unary_encoding_is_caught():
    eps = 1.0
    assert audit.broken_ue_epsilon(eps) == pytest.approx(1.5 * eps)
    res = audit.audit_broken_ue(eps, n_trials=LIGHT_N, alpha=1e-3, rng=7)
    assert not res.passed and not res.empirical_ok
    assert eps < res.empirical <= 1.5 * eps


def test_correct_unary_encoding_is_not_flagged_by_the_same_test():
    def sampler(x, n, r):
        b = mech.ue_perturb(np.full(n, x), 6, 1.0, "sue", rng=r)
        return 2 * b[:, 0].astype(np.int64) + b[:, 1]

    res = audit.empirical_epsilon(sampler, 0, 1, n_trials=LIGHT_N, alpha=1e-3, rng=7)
    assert res.epsilon <= 1.0


def test_paper_claim_of_rsfd_for_one_attribute_neighbours_does_not_hold_exactly():
    """RS+FD with unequal domains and RS+RFD with priors leak more than eps between tuples that
    differ in one attribute (the exact channel); the sound level is eps' (audited above)."""
    for name in audit_registry.PAPER_CLAIMS:
        case = audit.build_case(name, 1.0)
        assert case.exact > 1.0
    res = audit.audit("RS+RFD[GRR] (one-attribute neighbours)", 1.0, n_trials=100_000, alpha=1e-3, rng=8)
    assert res.empirical > 1.0  # the sampler shows it too


# ----------------------------------------------------------------------------- sampler == channel (tier 1)
def _pooled_chi2(obs, exp, min_expected=5.0):
    """Pearson chi-square with the cells of expected count < 5 pooled into one cell."""
    small = exp < min_expected
    o = np.r_[obs[~small], obs[small].sum()] if small.any() else obs
    e = np.r_[exp[~small], exp[small].sum()] if small.any() else exp
    keep = e > 0
    assert np.all(o[~keep] == 0), "the sampler produced an output of probability 0"
    o, e = o[keep], e[keep]
    return float(((o - e) ** 2 / e).sum()), o.size - 1


COLUMN_CASES = [n for n in audit.REGISTRY if audit.build_case(n, 1.0).codes_are_columns]


@pytest.mark.parametrize("name", COLUMN_CASES)
def test_audited_sampler_is_the_audited_channel(name):
    """The two halves of the audit are about the same mechanism: the sampler's reports follow the
    rows of the exact channel (Pearson chi-square at alpha = 1e-6, fixed seed; OpenDP style)."""
    eps, n = 1.0, 20_000
    case = audit.build_case(name, eps)
    rng = np.random.default_rng(31)
    for x in (case.x1, case.x2):
        y = case.sampler(x, n, rng)
        m = case.channel.shape[1]
        assert y.min() >= 0 and y.max() < m
        stat, df = _pooled_chi2(np.bincount(y, minlength=m).astype(float), n * case.channel[x])
        if df > 0:
            assert stat < stats.chi2.isf(1e-6, df), (name, x, stat, df)


# ----------------------------------------------------------------------------- heavy audits
@pytest.mark.slow
def test_full_audit_grid():
    names = list(audit.REGISTRY)
    eps_grid = [0.25, 0.5, 1.0, 2.0, 4.0]
    alpha = audit.bonferroni_alpha(0.01, len(names) * len(eps_grid))
    results = audit.audit_grid(names, eps_grid, n_trials=400_000, alpha=alpha, seed=99, n_jobs=2)
    bad = [(r.mechanism, r.epsilon, r.claimed, r.exact, r.empirical) for r in results if not r.passed]
    assert not bad


@pytest.mark.slow
@pytest.mark.parametrize("eps", [0.25, 0.5, 2.0, 4.0])
def test_mutation_caught_over_the_grid(eps):
    res = audit.audit_broken_ue(eps, n_trials=400_000, alpha=1e-3, rng=11)
    assert res.empirical > eps


# ----------------------------------------------------------------------------- the hold-out
def test_event_is_scored_on_runs_it_was_not_selected_on():
    """A sampler whose selection runs separate x1 from x2 perfectly and whose evaluation runs are
    identical: scored on the held-out runs the bound is 0; an audit that scored its event on the runs
    it selected it from (or on all runs) would report a large epsilon."""
    n, frac = 2_000, 0.5
    n_sel = int(round(frac * n))

    def sampler(x, m, r):
        codes = np.full(m, 2, dtype=np.int64)
        codes[:n_sel] = x  # selection runs: code = the input itself
        return codes

    res = audit.empirical_epsilon(sampler, 0, 1, n_trials=n, alpha=0.01, rng=0, select_fraction=frac)
    assert res.n_eval == n - n_sel
    assert res.event is not None and 2 not in res.event  # selected on the first runs: {0} or {1}
    assert res.tp == res.fp == 0 and res.epsilon == 0.0


def test_hold_out_split_follows_select_fraction():
    seen = []

    def sampler(x, m, r):
        seen.append(m)
        return np.arange(m) % 3

    for frac, n in ((0.25, 400), (0.8, 1000)):
        res = audit.empirical_epsilon(sampler, 0, 1, n_trials=n, alpha=0.01, rng=0, select_fraction=frac)
        assert res.n_eval == n - int(round(frac * n))


# ----------------------------------------------------------------------------- sampler == channel, in the audit
def test_chi_square_gof():
    p = np.array([0.5, 0.3, 0.2])
    stat, df, pv = audit.chi_square_gof(np.array([50, 30, 20]), p)
    assert stat == 0.0 and df == 2 and pv == 1.0
    assert audit.chi_square_gof(np.array([1, 0, 3]), np.array([0.5, 0.5, 0.0]))[2] == 0.0  # impossible draw
    stat, df, pv = audit.chi_square_gof(np.array([60, 25, 15]), p)
    assert stat == pytest.approx(100 * (0.1**2 / 0.5 + 0.05**2 / 0.3 + 0.05**2 / 0.2))
    assert pv == pytest.approx(stats.chi2.sf(stat, 2))
    # cells of expected count < 5 are pooled
    _, df, _ = audit.chi_square_gof(np.array([90, 5, 3, 2]), np.array([0.9, 0.05, 0.03, 0.02]))
    assert df == 2
    _, df, _ = audit.chi_square_gof(np.array([97, 2, 1]), np.array([0.97, 0.02, 0.01]))  # pooled 3 < 5: merged
    assert df == 0


def test_audit_refuses_a_channel_its_sampler_does_not_follow():
    """The exact level comes from the channel and the empirical one from the sampler: a case whose
    sampler is k-RR at eps/2 and whose channel is k-RR at eps keeps both bounds below the claim, and
    only the sampler-versus-channel test catches it."""
    eps, k = 1.0, 4
    good = audit.build_case("k-RR", eps)
    bad = audit.AuditCase(
        "k-RR (wrong channel)",
        eps,
        eps,
        _grr_sampler(k, eps / 2),
        0,
        1,
        channel=mech.grr_channel(k, eps),
        codes_are_columns=True,
    )
    r_good = audit.audit(good, n_trials=LIGHT_N, alpha=1e-3, rng=12)
    r_bad = audit.audit(bad, n_trials=LIGHT_N, alpha=1e-3, rng=12)
    assert r_good.sampler_ok is True and r_good.passed and r_good.sampler_pvalue > 1e-6
    assert r_bad.exact_ok and r_bad.empirical_ok
    assert r_bad.sampler_ok is False and not r_bad.passed and r_bad.sampler_pvalue < 1e-6


def test_every_registered_sampler_agrees_with_its_channel_in_the_light_audit():
    names = list(audit.REGISTRY)
    results = audit.audit_grid(names, [LIGHT_EPS], n_trials=LIGHT_N, alpha=0.01, seed=77)
    assert all(r.sampler_ok is True for r in results), [(r.mechanism, r.sampler_pvalue) for r in results]
    assert audit.audit_broken_ue(1.0, n_trials=2_000, rng=0).sampler_ok is None  # no channel: nothing to test


def test_core_cases_are_built_from_mechanism_objects():
    from ldpnb.mechanisms import Mechanism

    for name in [
        "GRR",
        "SUE",
        "OUE",
        "OLH",
        "BLH",
        "SS",
        "geometric",
        "Laplace",
        "exponential",
        "planar geometric",
        "planar Laplace",
        "padded planar Laplace",
        "BA (rate-distortion)",
    ]:
        case = audit.build_case(name, 1.0)
        assert isinstance(case.source, Mechanism)
        assert case.claimed == case.source.guarantee.epsilon
        res = case.source.check()
        assert res.holds


def test_planar_laplace_audit_channel_is_accurate_enough_for_its_chi_square():
    """The audit integrates the planar Laplace channel finely enough (PlanarLaplace.on: 8 eps h
    sub-points per side) that the continuous sampler's chi-square at 2e6 draws per input cannot see
    the quadrature error: non-centrality against a 64 x 64 reference below 2 at every eps of the
    paper-scale grid."""
    import numpy as np

    from ldpnb.mechanisms import Domain, PlanarLaplace

    for eps in (0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0):
        s = audit.build_case("planar Laplace", eps).source.subdivisions
        assert s == PlanarLaplace.on(Domain(rows=4, cols=4), eps).subdivisions == min(64, max(8, int(np.ceil(8 * eps))))
        ref = PlanarLaplace(4, 4, eps, subdivisions=64).channel()
        C = PlanarLaplace(4, 4, eps, subdivisions=s).channel()
        assert (2e6 * ((C - ref) ** 2 / ref).sum(axis=1)).max() < 2
