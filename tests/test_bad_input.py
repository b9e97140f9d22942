"""Bad input is refused loudly: a ValueError (or TypeError) that names the argument.

One table per rule class of issue #9 -- epsilon <= 0 or not finite, domain sizes < 2, values
outside the domain, counts negative or not integers, distributions with negative entries or not
summing to 1, channel shapes that do not match, NaN anywhere, empty data -- over the public
functions of every module.  Each case calls one function with one bad argument and requires an
exception whose message names that argument (regex, case-insensitive).

A public function that accepts bad input silently is kept in the table as a strict ``xfail`` with
the rule it breaks, so that its owner can fix it (and the suite turns red when it is fixed, until
the mark is removed).
"""

from __future__ import annotations

import importlib
import math
import re
from typing import Any

import numpy as np
import pytest

# optional chapter modules (all present at the time of writing)
from ldpnb import attacks, audit, utils
from ldpnb import channels as audit_channels
from ldpnb import channels as ibu_theory_channels
from ldpnb import channels as mech_channels
from ldpnb import estimators as est
from ldpnb import estimators as ibu_theory_estimators
from ldpnb import estimators as privic_estimators
from ldpnb import measures as attacks_measures
from ldpnb import measures as info
from ldpnb import measures as lift
from ldpnb import measures as metrics
from ldpnb import measures as pie_measures
from ldpnb import mechanisms as ibu_theory_mechanisms
from ldpnb import mechanisms as md
from ldpnb import mechanisms as mech
from ldpnb import mechanisms as orr
from ldpnb import mechanisms as rd
from ldpnb import mechanisms as watchdog
from ldpnb.mechanisms import orr as orr_orr
from ldpnb.papers import ibu as ibu_theory
from ldpnb.papers import pie, privic
from ldpnb.papers import risks as md_risks


def _xf(reason):
    return pytest.mark.xfail(strict=True, reason=reason)


C3 = mech.grr_channel(3, 1.0)
NAN = math.nan
D3 = np.abs(np.subtract.outer(np.arange(3.0), np.arange(3.0)))
P_SX = lift.random_joint(2, 3, rng=0)


def _case(id_, fn, name, marks=()):
    return pytest.param(fn, name, id=id_, marks=marks)


def _check(fn, name):
    with pytest.raises((ValueError, TypeError)) as exc:
        fn()
    assert re.search(name, str(exc.value), flags=re.IGNORECASE), (
        f"the error does not name the argument {name!r}: {exc.value!r}"
    )


# ----------------------------------------------------------------------------- epsilon
BAD_EPS = [0.0, -1.0, math.nan, math.inf]

EPS_FUNCS = {
    "mech.grr_params": lambda e: mech.grr_params(4, e),
    "mech.grr_channel": lambda e: mech.grr_channel(4, e),
    "mech.grr_perturb": lambda e: mech.grr_perturb([0, 1], 4, e, rng=0),
    "mech.grr_simulate_counts": lambda e: mech.grr_simulate_counts([1, 2], e, rng=0),
    "mech.ue_params": lambda e: mech.ue_params(e, "oue"),
    "mech.ue_perturb": lambda e: mech.ue_perturb([0, 1], 4, e, "sue", rng=0),
    "mech.ue_simulate_support_counts": lambda e: mech.ue_simulate_support_counts([1, 2], e, rng=0),
    "mech.ue_channel": lambda e: mech.ue_channel(3, e),
    "mech.rappor_channel": lambda e: mech.rappor_channel(3, e),
    "mech.lh_params": lambda e: mech.lh_params(e),
    "mech.lh_perturb": lambda e: mech.lh_perturb([0, 1], 4, e, rng=0),
    "mech.lh_simulate_support_counts": lambda e: mech.lh_simulate_support_counts([1, 2], e, rng=0),
    "mech.lh_channel": lambda e: mech.lh_channel(2, 2, e),
    "mech.ss_params": lambda e: mech.ss_params(4, e),
    "mech.ss_perturb": lambda e: mech.ss_perturb([0, 1], 4, e, rng=0),
    "mech.ss_simulate_support_counts": lambda e: mech.ss_simulate_support_counts([1, 2, 3], e, rng=0),
    "mech.ss_channel": lambda e: mech.ss_channel(4, e),
    "mech.hr_params": lambda e: mech.hr_params(4, e),
    "mech.hr_channel": lambda e: mech.hr_channel(4, e),
    "mech.hrr_channel": lambda e: mech.hrr_channel(4, e),
    "mech.HR": lambda e: mech.HR(4, e),
    "mech.HRR": lambda e: mech.HRR(4, e),
    "mech.OLHCW": lambda e: mech.OLHCW(4, e),
    "mech.rappor_params": lambda e: mech.rappor_params(e),
    "mech.BloomRAPPOR": lambda e: mech.BloomRAPPOR(4, e),
    "mech.lgrr_params": lambda e: mech.lgrr_params(4, e),
    "mech.losue_params": lambda e: mech.losue_params(e),
    "mech.dbitflip_params": lambda e: mech.dbitflip_params(4, e),
    "mech.LGRR": lambda e: mech.LGRR(4, e),
    "mech.LOSUE": lambda e: mech.LOSUE(4, e),
    "mech.DBitFlipPM": lambda e: mech.DBitFlipPM(4, e),
    "mech.geometric_channel": lambda e: mech.geometric_channel(4, e),
    "mech.geometric_perturb": lambda e: mech.geometric_perturb([0, 1], 4, e, rng=0),
    "mech.laplace_channel": lambda e: mech.laplace_channel(4, e),
    "mech.laplace_perturb": lambda e: mech.laplace_perturb([0, 1], 4, e, rng=0),
    "mech.planar_geometric_channel": lambda e: mech.planar_geometric_channel(2, 2, e),
    "mech.planar_laplace_channel": lambda e: mech.planar_laplace_channel(2, 2, e),
    "mech.planar_laplace_perturb": lambda e: mech.planar_laplace_perturb([[0.0, 0.0]], e, rng=0),
    "mech.exponential_channel": lambda e: mech.exponential_channel(D3, e),
    "md.amplified_epsilon": lambda e: md.amplified_epsilon(e, 2),
    "md.fo_params": lambda e: md.fo_params("grr", 4, e),
    "md.rsfd_params": lambda e: md.rsfd_params("grr", 4, e, 2),
    "md.rsfd_collect": lambda e: md.rsfd_collect([[0, 1]], [2, 2], e, "grr", "uniform", rng=0),
    "md.spl_collect": lambda e: md.spl_collect([[0, 1]], [2, 2], e, "grr", rng=0),
    "md.smp_collect": lambda e: md.smp_collect([[0, 1]], [2, 2], e, "grr", rng=0),
    "lift.alip_budgets": lambda e: lift.alip_budgets(e, 0.5),
    "lift.ALIP": lambda e: lift.ALIP(e, 1.0),
    "lift.LIP": lambda e: lift.LIP(e),
    "lift.LDPwrtS": lambda e: lift.LDPwrtS(e),
    "orr.optimal_random_response": lambda e: orr.optimal_random_response(P_SX, e, 1.0),
    "orr.full_channel(eps_u)": lambda e: orr_orr.full_channel(P_SX, 1.0, e),
    "orr.subset_random_response": lambda e: orr.subset_random_response(P_SX, e, 1.0),
    "lift.LiftMeasurePrivacy": lambda e: lift.LiftMeasurePrivacy("l1", e, 1.0),
    "lift.is_lip": lambda e: lift.is_lip(np.full((2, 2), 0.25), e),
    "lift.is_alip": lambda e: lift.is_alip(np.full((2, 2), 0.25), e, 1.0),
    "lift.is_ldp_wrt_s": lambda e: lift.is_ldp_wrt_s(np.full((2, 2), 0.25), e),
    "rd.blahut_arimoto(beta)": lambda e: rd.blahut_arimoto([0.5, 0.5], [[0, 1], [1, 0]], e),
    "rd.exponential_kernel(beta)": lambda e: rd.exponential_kernel([[0, 1], [1, 0]], e),
    "privic.lap_grid_channel": lambda e: privic.lap_grid_channel((2, 2), e, pad=1),
    "pie.theta_rr": lambda e: pie_measures.theta_rr(4, e),
    "pie.theta_glh": lambda e: pie_measures.theta_glh(4, e),
    "pie.alpha_rr": lambda e: pie_measures.alpha_rr(e, 10, 4),
    "pie.random_ldp_channel": lambda e: pie.theory.random_ldp_channel(3, 3, e, rng=0),
    "attacks.expected_pd_accuracy": lambda e: attacks.expected_pd_accuracy("grr", e, 4),
    "attacks.perturb_and_infer": lambda e: attacks.perturb_and_infer(np.array([0, 1]), 4, e, "grr", rng=0),
    "attacks.pie_alpha_from_ldp": lambda e: attacks_measures.pie_alpha_from_ldp(e, 10, 4),
    "ibu_theory.untruncated_geometric_matrix": lambda e: ibu_theory_mechanisms.untruncated_geometric_matrix(
        np.arange(3), np.arange(3), e
    ),
    "ibu_theory.truncated_geometric_inverse": lambda e: ibu_theory.truncated_geometric_inverse(4, e),
    "ibu_theory.inv_krr_upper_bound": lambda e: ibu_theory.inv_krr_upper_bound(4, e, 100),
    "ibu_theory.rappor_concavity_lower_bound": lambda e: ibu_theory.rappor_concavity_lower_bound(4, 100, e),
    "audit.broken_ue_perturb": lambda e: audit.broken_ue_perturb([0, 1], 4, e, rng=0),
    "audit.build_case": lambda e: audit.build_case("k-RR", e),
    "audit.broken_ue_epsilon": lambda e: audit.broken_ue_epsilon(e),
}

# silent acceptances found by this test (owner: see the module of the function); none left
EPS_XFAIL: dict = {}
# documented behaviour, not a defect: eps=inf means "sent in clear" in attacks.perturb_and_infer
EPS_SKIP = {("attacks.perturb_and_infer", math.inf)}


def _eps_name(fid):
    if "beta" in fid:
        return "beta"
    if fid in ("lift.ALIP", "orr.optimal_random_response", "orr.subset_random_response", "lift.LiftMeasurePrivacy"):
        return "eps_l"
    if fid == "orr.full_channel(eps_u)":
        return "eps_u"
    return "eps"


EPS_CASES = [
    _case(
        f"{fid}-eps={e}",
        (lambda f=f, e=e: f(e)),
        _eps_name(fid),
        marks=(_xf(EPS_XFAIL[(fid, e)]),) if (fid, e) in EPS_XFAIL else (),
    )
    for fid, f in EPS_FUNCS.items()
    for e in BAD_EPS
    if (fid, e) not in EPS_SKIP
]


@pytest.mark.parametrize("fn, name", EPS_CASES)
def test_bad_epsilon_is_refused(fn, name):
    _check(fn, name)


# ----------------------------------------------------------------------------- domain size
BAD_K = [1, 0, -3]

K_FUNCS = {
    "mech.grr_params": (lambda k: mech.grr_params(k, 1.0), "k"),
    "mech.grr_channel": (lambda k: mech.grr_channel(k, 1.0), "k"),
    "mech.grr_perturb": (lambda k: mech.grr_perturb([0], k, 1.0, rng=0), "k"),
    "mech.ue_channel": (lambda k: mech.ue_channel(k, 1.0), "k"),
    "mech.ue_perturb": (lambda k: mech.ue_perturb([0], k, 1.0, rng=0), "k"),
    "mech.lh_channel": (lambda k: mech.lh_channel(k, 2, 1.0), "k"),
    "mech.lh_params(g)": (lambda k: mech.lh_params(1.0, g=k), "g"),
    "mech.ss_params": (lambda k: mech.ss_params(k, 1.0), "k"),
    "mech.ss_channel": (lambda k: mech.ss_channel(k, 1.0), "k"),
    "mech.geometric_channel": (lambda k: mech.geometric_channel(k, 1.0), "k"),
    "mech.hr_channel": (lambda k: mech.hr_channel(k, 1.0), "k"),
    "mech.HRR": (lambda k: mech.HRR(k, 1.0), "k"),
    "mech.OLHCW": (lambda k: mech.OLHCW(k, 1.0), "k"),
    "mech.BloomRAPPOR": (lambda k: mech.BloomRAPPOR(k, 1.0), "k"),
    "mech.LGRR": (lambda k: mech.LGRR(k, 1.0), "k"),
    "mech.LOSUE": (lambda k: mech.LOSUE(k, 1.0), "k"),
    "mech.DBitFlipPM": (lambda k: mech.DBitFlipPM(k, 1.0), "k"),
    "mech.laplace_channel": (lambda k: mech.laplace_channel(k, 1.0), "k"),
    "mech.planar_geometric_channel": (lambda k: mech.planar_geometric_channel(k, 1, 1.0), "rows"),
    "mech.simulate(input_counts of length 1)": (
        lambda k: mech.grr_simulate_counts([5] * max(k, 0), 1.0, rng=0),
        "input_counts",
    ),
    "md.check_dataset(ks)": (lambda k: md.check_dataset([[0, 0]], [2, k]), "k"),
    "lift.random_joint(n_s)": (lambda k: lift.random_joint(k, 3, rng=0), "n_s"),
    "pie.theta_rr": (lambda k: pie_measures.theta_rr(k, 1.0), "k"),
    "pie.random_ldp_channel": (lambda k: pie.theory.random_ldp_channel(k, 3, 1.0, rng=0), "k"),
    "attacks.expected_pd_accuracy": (lambda k: attacks.expected_pd_accuracy("grr", 1.0, k), "k"),
    "ibu_theory.truncated_geometric_inverse": (lambda k: ibu_theory.truncated_geometric_inverse(k, 1.0), "k"),
    "ibu_theory.inv_krr_upper_bound": (lambda k: ibu_theory.inv_krr_upper_bound(k, 1.0, 100), "k"),
    "utils.check_domain_size": (lambda k: utils.check_domain_size(k), "k"),
}

K_XFAIL: dict = {}  # none left


K_CASES = [
    _case(f"{fid}-k={k}", (lambda f=f, k=k: f(k)), name, marks=(_xf(K_XFAIL[(fid, k)]),) if (fid, k) in K_XFAIL else ())
    for fid, (f, name) in K_FUNCS.items()
    for k in BAD_K
]


@pytest.mark.parametrize("fn, name", K_CASES)
def test_domain_size_below_two_is_refused(fn, name):
    _check(fn, name)


@pytest.mark.parametrize("bad", [2.5, "3", True, None])
def test_domain_size_must_be_an_integer(bad):
    for fn in (mech.grr_channel, mech.geometric_channel, mech.laplace_channel):
        _check(lambda: fn(bad, 1.0), "k")


# ----------------------------------------------------------------------------- values outside the domain
BAD_VALUES = {"too-large": [0, 4], "negative": [-1, 0], "non-integer": [0.5, 1.0]}

VALUE_FUNCS = {
    "mech.grr_perturb": (lambda x: mech.grr_perturb(x, 4, 1.0, rng=0), "x"),
    "mech.ue_perturb": (lambda x: mech.ue_perturb(x, 4, 1.0, rng=0), "x"),
    "mech.lh_perturb": (lambda x: mech.lh_perturb(x, 4, 1.0, rng=0), "x"),
    "mech.ss_perturb": (lambda x: mech.ss_perturb(x, 4, 1.0, rng=0), "x"),
    "mech.geometric_perturb": (lambda x: mech.geometric_perturb(x, 4, 1.0, rng=0), "x"),
    "mech.laplace_perturb": (lambda x: mech.laplace_perturb(x, 4, 1.0, rng=0), "x"),
    "mech.sample_channel": (lambda x: mech_channels.sample_channel(mech.grr_channel(4, 1.0), x, rng=0), "x"),
    "mech.lh_support_counts(y)": (lambda x: mech.lh_support_counts(mech.lh_draw_seeds(2, rng=0), x, 4, 4), "y"),
    "md.check_dataset": (lambda x: md.check_dataset(np.array(x)[:, None], [4]), "X"),
    "md.rsfd_collect": (lambda x: md.rsfd_collect(np.array(x)[:, None], [4], 1.0, "grr", "uniform", rng=0), "X"),
    "attacks.perturb_and_infer": (lambda x: attacks.perturb_and_infer(np.array(x), 4, 1.0, "grr", rng=0), "x"),
    "audit.broken_ue_perturb": (lambda x: audit.broken_ue_perturb(x, 4, 1.0, rng=0), "x"),
    "utils.check_values": (lambda x: utils.check_values(x, 4), "x"),
}

VALUE_XFAIL: dict = {}  # none left

VALUE_CASES = [
    _case(
        f"{fid}-{kind}",
        (lambda f=f, v=v: f(v)),
        name,
        marks=(_xf(VALUE_XFAIL[(fid, kind)]),) if (fid, kind) in VALUE_XFAIL else (),
    )
    for fid, (f, name) in VALUE_FUNCS.items()
    for kind, v in BAD_VALUES.items()
]


@pytest.mark.parametrize("fn, name", VALUE_CASES)
def test_values_outside_the_domain_are_refused(fn, name):
    _check(fn, name)


# ----------------------------------------------------------------------------- counts
BAD_COUNTS = {"negative": [3, -1, 2], "non-integer": [1.5, 2.0, 1.0], "bool": [True, False, True]}

COUNT_FUNCS = {
    "mech.grr_simulate_counts": (lambda c: mech.grr_simulate_counts(c, 1.0, rng=0), "input_counts"),
    "mech.ue_simulate_support_counts": (lambda c: mech.ue_simulate_support_counts(c, 1.0, rng=0), "input_counts"),
    "mech.lh_simulate_support_counts": (lambda c: mech.lh_simulate_support_counts(c, 1.0, rng=0), "input_counts"),
    "mech.ss_simulate_support_counts": (lambda c: mech.ss_simulate_support_counts(c, 1.0, rng=0), "input_counts"),
    "mech.simulate_counts": (lambda c: mech_channels.simulate_counts(C3, c, rng=0), "input_counts"),
    "ibu_theory.simulate_counts_batch": (
        lambda c: ibu_theory_channels.simulate_counts_batch(C3, c, 2, rng=0),
        "input_counts",
    ),
    "md.prior_correct": (lambda c: md_risks.prior_correct(c, 1.0, rng=0), "counts"),
    "utils.check_counts": (lambda c: utils.check_counts(c), "counts"),
}

COUNT_XFAIL = {
    ("ibu_theory.simulate_counts_batch", "bool"): None,
}

COUNT_CASES = [
    _case(
        f"{fid}-{kind}",
        (lambda f=f, c=c: f(c)),
        name,
        marks=(_xf(COUNT_XFAIL[(fid, kind)]),) if COUNT_XFAIL.get((fid, kind)) else (),
    )
    for fid, (f, name) in COUNT_FUNCS.items()
    for kind, c in BAD_COUNTS.items()
    if not ((fid, kind) in COUNT_XFAIL and COUNT_XFAIL[(fid, kind)] is None)
]


@pytest.mark.parametrize("fn, name", COUNT_CASES)
def test_bad_counts_are_refused(fn, name):
    _check(fn, name)


@pytest.mark.parametrize(
    "fid, fn, name",
    [
        ("est.ibu", lambda c: est.ibu(C3, c), "counts"),
        ("est.inv_raw", lambda c: est.inv_raw(C3, c), "counts"),
        ("est.inv_projected", lambda c: est.inv_projected(C3, c), "counts"),
        ("est.log_likelihood", lambda c: est.log_likelihood([1 / 3] * 3, C3, c), "counts"),
        ("est.fo_estimate", lambda c: est.fo_estimate(c, 10, 0.6, 0.2), "support_counts"),
        ("est.ibu_batch", lambda c: est.ibu_batch(C3, [c]), "counts"),
    ],
)
def test_negative_report_counts_are_refused(fid, fn, name):
    # report counts may be an empirical distribution (non-integer), never negative
    _check(lambda: fn([3, -1, 2]), name)


def test_fo_estimate_rejects_non_integer_n():
    _check(lambda: est.fo_estimate([1, 2, 3], 10.5, 0.6, 0.2), "n")


# ----------------------------------------------------------------------------- distributions
BAD_DISTS = {"negative": [1.2, -0.2, 0.0], "sum!=1": [0.5, 0.4, 0.3]}

DIST_FUNCS = {
    "info.entropy": (lambda p: info.entropy(p, unit="bits"), "p"),
    "info.kl_divergence(p)": (lambda p: info.kl_divergence(p, [1 / 3] * 3, unit="bits"), "p"),
    "info.kl_divergence(q)": (lambda p: info.kl_divergence([1 / 3] * 3, p, unit="bits"), "q"),
    "info.mutual_information": (lambda p: info.mutual_information(p, C3, unit="bits"), "prior"),
    "info.conditional_entropy": (lambda p: info.conditional_entropy(p, C3, unit="bits"), "prior"),
    "est.ibu(theta0)": (lambda p: est.ibu(C3, [1, 2, 3], theta0=p), "theta0"),
    "est.log_likelihood(theta)": (lambda p: est.log_likelihood(p, C3, [1, 2, 3]), "theta"),
    "lift.check_joint": (lambda p: lift.check_joint(np.array([p, p]) / 2), "joint"),
    "watchdog.merging_mi": (lambda p: watchdog.merging_mi(p, [[0, 1]], unit="bits"), "p_x"),
    "pie.pie(p_u)": (lambda p: pie_measures.pie(p, np.eye(3), C3, unit="bits"), "p_u"),
    "rd.blahut_arimoto(prior, negative only)": (lambda p: rd.blahut_arimoto(p, D3, 1.0), "prior"),
    "md.rsfd_collect(priors)": (
        lambda p: md.rsfd_collect([[0, 1]], [3, 3], 1.0, "grr", "prior", priors=[p, p], rng=0),
        "priors",
    ),
    "utils.check_distribution": (lambda p: utils.check_distribution(p), "p"),
}

DIST_XFAIL = {
    # rate_distortion normalises the prior on purpose ("any positive total"): only negatives are errors
    ("rd.blahut_arimoto(prior, negative only)", "sum!=1"): None,
}

DIST_CASES = [
    _case(
        f"{fid}-{kind}",
        (lambda f=f, p=p: f(p)),
        name,
        marks=(_xf(DIST_XFAIL[(fid, kind)]),) if DIST_XFAIL.get((fid, kind)) else (),
    )
    for fid, (f, name) in DIST_FUNCS.items()
    for kind, p in BAD_DISTS.items()
    if not ((fid, kind) in DIST_XFAIL and DIST_XFAIL[(fid, kind)] is None)
]


@pytest.mark.parametrize("fn, name", DIST_CASES)
def test_bad_distributions_are_refused(fn, name):
    _check(fn, name)


BAD_CHANNELS = {
    "row-sum": np.array([[0.5, 0.6], [0.5, 0.5]]),
    "negative": np.array([[1.2, -0.2], [0.5, 0.5]]),
    "1-D": np.array([0.5, 0.5]),
}

CHANNEL_FUNCS = {
    "est.ibu": (lambda C: est.ibu(C, [1, 2]), "channel"),
    "est.inv_raw": (lambda C: est.inv_raw(C, [1, 2]), "channel"),
    "info.mutual_information": (lambda C: info.mutual_information([0.5, 0.5], C, unit="bits"), "channel"),
    "info.channel_capacity": (lambda C: info.channel_capacity(C, unit="bits"), "channel"),
    "mech.ldp_epsilon": (lambda C: mech_channels.ldp_epsilon(C), "channel"),
    "mech.geo_ind_epsilon": (lambda C: mech_channels.geo_ind_epsilon(C, [[0, 1], [1, 0]]), "channel"),
    "mech.sample_channel": (lambda C: mech_channels.sample_channel(C, [0, 1], rng=0), "channel"),
    "mech.simulate_counts": (lambda C: mech_channels.simulate_counts(C, [1, 1], rng=0), "channel"),
    "lift.output_joint": (lambda C: lift.output_joint(np.full((2, 2), 0.25), C), "channel"),
    "pie.pie": (lambda C: pie_measures.pie([0.5, 0.5], np.eye(2), C, unit="bits"), "channel"),
    "audit.exact_epsilon": (lambda C: audit_channels.exact_epsilon(C), "channel"),
    "audit.pair_epsilon": (lambda C: audit_channels.pair_epsilon(C, 0, 1), "channel"),
    "rd.mutual_information_nats": (lambda C: rd.mutual_information_nats([0.5, 0.5], C), "channel"),
}

CHANNEL_XFAIL = {}

CHANNEL_CASES = [
    _case(
        f"{fid}-{kind}",
        (lambda f=f, C=C: f(C)),
        name,
        marks=(_xf(CHANNEL_XFAIL[(fid, kind)]),) if (fid, kind) in CHANNEL_XFAIL else (),
    )
    for fid, (f, name) in CHANNEL_FUNCS.items()
    for kind, C in BAD_CHANNELS.items()
]


@pytest.mark.parametrize("fn, name", CHANNEL_CASES)
def test_bad_channels_are_refused(fn, name):
    _check(fn, name)


# ----------------------------------------------------------------------------- shapes that do not match
SHAPE_CASES = [
    _case("est.ibu counts length", lambda: est.ibu(C3, [1, 2]), "counts"),
    _case("est.inv_raw non-square", lambda: est.inv_raw(mech.ue_channel(2, 1.0), [1, 2, 3, 4]), "square"),
    _case("est.log_likelihood theta length", lambda: est.log_likelihood([0.5, 0.5], C3, [1, 2, 3]), "theta"),
    _case("est.ibu theta0 length", lambda: est.ibu(C3, [1, 2, 3], theta0=[0.5, 0.5]), "theta0"),
    _case("est.ibu_batch columns", lambda: est.ibu_batch(C3, [[1, 2]]), "counts"),
    _case(
        "info.mutual_information prior length", lambda: info.mutual_information([0.5, 0.5], C3, unit="bits"), "prior"
    ),
    _case("info.kl_divergence shapes", lambda: info.kl_divergence([0.5, 0.5], [1 / 3] * 3, unit="bits"), "p and q"),
    _case("mech.simulate_counts length", lambda: mech_channels.simulate_counts(C3, [1, 2], rng=0), "input_counts"),
    _case("mech.geo_ind_epsilon distance", lambda: mech_channels.geo_ind_epsilon(C3, [[0, 1], [1, 0]]), "distance"),
    _case("metrics.emd ground_distance", lambda: metrics.emd([0.5, 0.5], [0.5, 0.5], D3), "ground_distance"),
    _case("metrics.emd_1d lengths", lambda: metrics.emd_1d([0.5, 0.5], [1 / 3] * 3), "a and b"),
    _case("metrics.squared_error shapes", lambda: metrics.squared_error([0.5, 0.5], [1 / 3] * 3), "a and b"),
    _case("lift.output_joint rows", lambda: lift.output_joint(P_SX, np.eye(4)), "channel"),
    _case("rd.blahut_arimoto distance rows", lambda: rd.blahut_arimoto([0.5, 0.5], D3, 1.0), "distance"),
    _case("rd.average_distortion shapes", lambda: rd.average_distortion([0.5, 0.5], np.eye(2), D3), "distance"),
    _case("pie.pie channel rows", lambda: pie_measures.pie([0.5, 0.5], np.eye(2), C3, unit="bits"), "channel"),
    _case("md.check_dataset ks length", lambda: md.check_dataset([[0, 1]], [2]), "ks"),
    _case("audit.worst_pair distance", lambda: audit_channels.worst_pair(C3, np.eye(2)), "distance"),
    _case("privic.gibu counts", lambda: privic_estimators.gibu([C3], [[1, 2]]), "counts"),
]


@pytest.mark.parametrize("fn, name", SHAPE_CASES)
def test_mismatched_shapes_are_refused(fn, name):
    _check(fn, name)


# ----------------------------------------------------------------------------- NaN anywhere
NAN = math.nan
NAN_CASES = [
    _case("est.ibu counts", lambda: est.ibu(C3, [1, NAN, 2]), "counts"),
    _case("est.ibu channel", lambda: est.ibu(np.where(np.eye(3) > 0, NAN, C3), [1, 1, 2]), "channel"),
    _case("est.project_simplex", lambda: est.project_simplex([0.2, NAN]), "v"),
    _case("est.fo_estimate", lambda: est.fo_estimate([1, NAN], 10, 0.6, 0.2), "support_counts"),
    _case("est.fo_estimate p", lambda: est.fo_estimate([1, 2], 10, NAN, 0.2), "p"),
    _case("info.entropy", lambda: info.entropy([0.5, NAN], unit="bits"), "p"),
    _case(
        "info.mutual_information_joint",
        lambda: info.mutual_information_joint([[0.5, NAN], [0.25, 0.25]], unit="bits"),
        "joint",
    ),
    _case("metrics.emd", lambda: metrics.emd([0.5, NAN], [0.5, 0.5], [[0, 1], [1, 0]]), "a"),
    _case("metrics.squared_error", lambda: metrics.squared_error([0.5, NAN], [0.5, 0.5]), "a"),
    _case("mech.grr_perturb x", lambda: mech.grr_perturb(np.array([0.0, NAN]), 4, 1.0, rng=0), "x"),
    _case("mech.exponential_channel distance", lambda: mech.exponential_channel([[0, NAN], [1, 0]], 1.0), "distance"),
    _case(
        "mech.planar_laplace_perturb points", lambda: mech.planar_laplace_perturb([[0.0, NAN]], 1.0, rng=0), "points"
    ),
    _case(
        "mech.planar_geometric_channel cell_size", lambda: mech.planar_geometric_channel(2, 2, 1.0, NAN), "cell_size"
    ),
    _case(
        "mech.geo_ind_epsilon distance",
        lambda: mech_channels.geo_ind_epsilon(C3, np.where(np.eye(3) > 0, 0, NAN)),
        "distance",
    ),
    _case("lift.check_joint", lambda: lift.check_joint([[0.5, NAN], [0.25, 0.25]]), "joint"),
    _case("rd.blahut_arimoto distance", lambda: rd.blahut_arimoto([0.5, 0.5], [[0, NAN], [1, 0]], 1.0), "distance"),
    _case("rd.blahut_arimoto prior", lambda: rd.blahut_arimoto([0.5, NAN], [[0, 1], [1, 0]], 1.0), "prior"),
    _case("md.check_dataset", lambda: md.check_dataset(np.array([[0.0, NAN]]), [2, 2]), "X"),
    _case("audit.clopper_pearson alpha", lambda: audit.clopper_pearson(1, 10, NAN), "alpha"),
    _case(
        "grid.lattice_distance_matrix cell_size",
        lambda: __import__("ldpnb.data.grid").data.grid.lattice_distance_matrix(2, 2, NAN),
        "cell_size",
    ),
]


@pytest.mark.parametrize("fn, name", NAN_CASES)
def test_nan_is_refused(fn, name):
    _check(fn, name)


# ----------------------------------------------------------------------------- empty data
EMPTY_CASES = [
    _case("mech.grr_perturb", lambda: mech.grr_perturb([], 4, 1.0, rng=0), "x"),
    _case("mech.ue_perturb", lambda: mech.ue_perturb([], 4, 1.0, rng=0), "x"),
    _case("mech.sample_channel", lambda: mech_channels.sample_channel(C3, [], rng=0), "x"),
    _case("mech.simulate_counts", lambda: mech_channels.simulate_counts(C3, [], rng=0), "input_counts"),
    _case("mech.planar_laplace_perturb", lambda: mech.planar_laplace_perturb(np.empty((0, 2)), 1.0, rng=0), "points"),
    _case("mech.ldp_epsilon", lambda: mech_channels.ldp_epsilon(np.empty((0, 0))), "channel"),
    _case("est.ibu counts", lambda: est.ibu(C3, []), "counts"),
    _case("est.ibu all-zero counts", lambda: est.ibu(C3, [0, 0, 0]), "counts"),
    _case("est.project_simplex", lambda: est.project_simplex([]), "v"),
    _case("est.fo_estimate", lambda: est.fo_estimate([], 10, 0.6, 0.2), "support_counts"),
    _case("info.entropy", lambda: info.entropy([], unit="bits"), "p"),
    _case("metrics.emd", lambda: metrics.emd([], [], np.empty((0, 0))), "a"),
    _case("metrics.emd zero mass", lambda: metrics.emd([0, 0], [0.5, 0.5], [[0, 1], [1, 0]]), "a"),
    _case("md.check_dataset", lambda: md.check_dataset(np.empty((0, 2), dtype=int), [2, 2]), "X"),
    _case("lift.check_joint", lambda: lift.check_joint(np.empty((0, 0))), "joint"),
    _case("rd.blahut_arimoto", lambda: rd.blahut_arimoto([], np.empty((0, 0)), 1.0), "prior"),
    _case("pie.pie", lambda: pie_measures.pie([], np.empty((0, 2)), np.eye(2), unit="bits"), "p_u"),
    _case(
        "audit.empirical_epsilon n_trials",
        lambda: audit.empirical_epsilon(lambda x, n, r: np.zeros(n, int), 0, 1, n_trials=0),
        "n_trials",
    ),
    _case("utils.check_values", lambda: utils.check_values([], 3), "x"),
]


@pytest.mark.parametrize("fn, name", EMPTY_CASES)
def test_empty_data_is_refused(fn, name):
    _check(fn, name)


# ----------------------------------------------------------------------------- the audit module itself
@pytest.mark.parametrize(
    "k, n, alpha, name",
    [
        (-1, 10, 0.01, "k"),
        (11, 10, 0.01, "k"),
        (1, 0, 0.01, "n"),
        (1, 10, 0.0, "alpha"),
        (1, 10, 1.0, "alpha"),
        (1.5, 10, 0.01, "k"),
    ],
)
def test_clopper_pearson_rejects_bad_arguments(k, n, alpha, name):
    _check(lambda: audit.clopper_pearson(k, n, alpha), name)


def test_audit_rejects_unknown_mechanism_and_bad_sampler():
    _check(lambda: audit.build_case("no such mechanism", 1.0), "name")
    _check(lambda: audit.empirical_epsilon(lambda x, n, r: np.zeros(n - 1, int), 0, 1, n_trials=10), "sampler")
    _check(lambda: audit.empirical_epsilon(lambda x, n, r: np.zeros(n) + 0.5, 0, 1, n_trials=10), "sampler")
    _check(lambda: audit.empirical_epsilon("not callable", 0, 1, n_trials=10), "sampler")
    _check(lambda: audit_channels.pair_epsilon(C3, 0, 3), "x2")
    _check(lambda: audit.audit("k-RR", n_trials=10), "epsilon")


# ----------------------------------------------------------------------------- more silent acceptances
# Found by probing the chapter modules with one bad argument each. A case whose fourth entry is a
# reason (the function and the rule it breaks) is a strict xfail for its owner to fix; all are fixed.
J22 = np.full((2, 2), 0.25)
MORE_CASES = [
    # domain sizes < 2 or not integers
    ("ibu_theory.likely_subset_krr", lambda: ibu_theory_estimators.likely_subset_krr(np.array([0]), 1), "k", None),
    (
        "ibu_theory.inv_krr_exact_sq_error",
        lambda: ibu_theory.inv_krr_exact_sq_error(2.5, 1.0, [0.5, 0.5], 100),
        "k",
        None,
    ),
    ("multidim.prior_dirichlet", lambda: md_risks.prior_dirichlet(1, rng=0), "k", None),
    ("multidim.prior_zipf", lambda: md_risks.prior_zipf(1, rng=0), "k", None),
    ("multidim.fo_params", lambda: md.fo_params("grr", 2.5, 1.0), "k", None),
    ("multidim.rsfd_params", lambda: md.rsfd_params("grr", 2.5, 1.0, 2), "k", None),
    ("multidim.rsfd_tuple_channel", lambda: md.rsfd_tuple_channel([2, 2.5], 1.0), "k", None),
    ("multidim.amplified_epsilon", lambda: md.amplified_epsilon(1.0, 2.5), "d", None),
    ("privic.privic_distance", lambda: privic.privic_distance((2.5, 2)), "shape", None),
    ("attacks.eps_from_bayes_error", lambda: attacks_measures.eps_from_bayes_error(0.5, 10, 1), "k", None),
    ("attacks.pie_alpha_from_ldp", lambda: attacks_measures.pie_alpha_from_ldp(1.0, 10, 0), "k", None),
    # values outside the domain
    ("watchdog.merging_mi", lambda: watchdog.merging_mi([0.5, 0.5], [[0, 5]], unit="nats"), "groups", None),
    # counts negative or not integers
    ("pie.gaussian_count_threshold", lambda: pie.utility.gaussian_count_threshold(0, 0.6, 0.2, 10), "n", None),
    ("multidim.rsfd_estimate", lambda: md.rsfd_estimate(np.array([-1, 2]), 10, 2, 2, 0.6, 0.2, "grr"), "counts", None),
    ("attacks.bayes_error_bound(n)", lambda: attacks_measures.bayes_error_bound(1.0, 0), "n", None),
    # distributions
    (
        "ibu_theory.loglik_observations",
        lambda: ibu_theory_estimators.loglik_observations(
            np.array([0.5, 0.6, 0.0]), ibu_theory_estimators.observation_matrix(C3, np.array([0, 1]))
        ),
        "theta",
        None,
    ),
    (
        "attacks.synthetic_profiles",
        lambda: attacks.synthetic_profiles([np.array([0.5, 0.6])], 10, rng=0),
        "freqs",
        None,
    ),
    # NaN anywhere
    ("ibu_theory.clip_normalize", lambda: ibu_theory_estimators.clip_normalize(np.array([[NAN, 1.0]])), "V", None),
    (
        "ibu_theory.project_simplex_rows",
        lambda: ibu_theory_estimators.project_simplex_rows(np.array([[NAN, 1.0]])),
        "V",
        None,
    ),
    ("multidim.clip_normalize", lambda: md.clip_normalize(np.array([NAN, 1.0])), "est", None),
    ("estimators.ibu_batch(theta0)", lambda: est.ibu_batch(C3, [[1, 2, 3]], theta0=[NAN, 0.5, 0.5]), "theta0", None),
    ("attacks.bayes_error_bound(alpha)", lambda: attacks_measures.bayes_error_bound(NAN, 10), "alpha", None),
    ("lift.sibson_mi(alpha=inf)", lambda: lift.sibson_mi(J22, math.inf, unit="nats"), "alpha", None),
    ("estimators.ibu_batch(tol=nan)", lambda: est.ibu_batch(C3, [[1, 2, 3]], tol=NAN), "tol", None),
    ("estimators.ibu_batch(tol<0)", lambda: est.ibu_batch(C3, [[1, 2, 3]], tol=-1.0), "tol", None),
    (
        "claims.Claim(atol=inf)",
        lambda: __import__("ldpnb.repro.claims").repro.claims.Claim(
            "a", "c", source="derived", where="Eq. 1", kind="close", atol=math.inf
        ),
        "atol",
        None,
    ),
    (
        "claims.Claim(rtol=nan)",
        lambda: __import__("ldpnb.repro.claims").repro.claims.Claim(
            "a", "c", source="derived", where="Eq. 1", kind="close", rtol=NAN
        ),
        "rtol",
        None,
    ),
    (
        "grid.Grid.histogram(shapes)",
        lambda: (
            __import__("ldpnb.data.grid")
            .data.grid.Grid(40, 41, -74, -73, 2, 2)
            .histogram(np.array([40.5, 40.6]), np.array([-73.5]))
        ),
        "lon",
        None,
    ),
    (
        "grid.Grid.histogram(nan)",
        lambda: (
            __import__("ldpnb.data.grid")
            .data.grid.Grid(40, 41, -74, -73, 2, 2)
            .histogram(np.array([NAN, 40.5]), np.array([-73.5, -73.5]))
        ),
        "lat",
        None,
    ),
    # empty data / ill-posed
    ("ibu_theory.ibu_rows", lambda: ibu_theory_estimators.ibu_rows(C3, np.zeros((0, 3))), "counts", None),
    ("attacks.pd_attack_support", lambda: attacks.pd_attack_support(np.zeros((0, 3), bool), rng=0), "support", None),
    (
        "privic.gibu(impossible)",
        lambda: privic_estimators.gibu([np.hstack([C3, np.zeros((3, 1))])], [[1, 2, 3, 1]]),
        "counts",
        None,
    ),
]


@pytest.mark.parametrize(
    "fn, name",
    [
        pytest.param(fn, name, id=fid, marks=_xf(f"{fid.split('(')[0]} {reason}") if reason else ())
        for fid, fn, name, reason in MORE_CASES
    ],
)
def test_more_bad_inputs_are_refused(fn, name):
    _check(fn, name)


# ----------------------------------------------------------------------------- absurd sizes, overflow (issue #20)
HUGE = 1 << 40


def test_absurd_sizes_are_refused_before_allocating():
    import time

    from ldpnb.data import grid as G

    t0 = time.perf_counter()
    cases = [
        lambda: mech.ss_subsets(HUGE, 3),  # math.comb of a huge k never returned
        lambda: mech.ss_subsets(1 << 31, 1 << 30),
        lambda: mech.lh_draw_seeds(HUGE, rng=0),
        lambda: mech.grr_channel(HUGE, 1.0),
        lambda: mech.GRR(1 << 30, 1.0).channel(),
        lambda: mech.geometric_channel(HUGE, 1.0),
        lambda: G.lattice_distance_matrix(HUGE, 2),
        lambda: G.lattice_distance_matrix(1 << 10, 1 << 10),
        lambda: G.padded_lattice_distance(100, 100, pad=1000),
        lambda: G.Grid(40.0, 41.0, -74.0, -73.0, rows=HUGE, cols=2),
        lambda: mech.ue_perturb(np.zeros(1 << 20, dtype=np.int64), 1 << 12, 1.0, rng=0),
        lambda: mech_channels.simulate_counts_batch(C3, [1, 1, 1], HUGE, rng=0),
        lambda: est.inv_sq_error_monte_carlo(C3, [1, 1, 1], 1 << 28, rng=0),
        lambda: mech.untruncated_geometric_matrix(np.arange(1 << 15), np.arange(1 << 15), 1.0),
        lambda: mech.ss_simulate_support_counts(np.full(4, 1 << 27), 1.0, rng=0, method="per_user"),
    ]
    for case in cases:
        with pytest.raises(ValueError):
            case()
    assert time.perf_counter() - t0 < 5.0


def test_counts_summing_past_int64_are_refused():
    big = np.array([1 << 62, 1 << 62], dtype=np.int64)  # the int64 sum wraps to a negative total
    for fn in (
        lambda: mech.grr_simulate_counts(big, 1.0, rng=0),
        lambda: utils.check_counts(big),
        lambda: mech_channels.simulate_counts(np.eye(2), big, rng=0),
        lambda: mech.GRR(2, 1.0).simulate_counts(big, rng=0),
        lambda: utils.check_counts(np.array([2.0**63, 1.0])),
    ):
        with pytest.raises(ValueError, match="total|int64"):
            fn()


def test_silent_results_of_the_issue_are_now_errors():
    from ldpnb.data import Grid

    with pytest.raises(ValueError, match="max_iter"):  # a capacity that did not converge is not a capacity
        info.channel_capacity(np.array([[0.9, 0.1], [0.3, 0.7]]), unit="bits", max_iter=1)
    with pytest.raises(ValueError, match="value"):
        info.convert(math.nan, from_unit="bits", to_unit="nats")
    g = Grid(40.0, 41.0, -74.0, -73.0, rows=4, cols=4)
    with pytest.raises(ValueError, match="row"):
        g.index(0.5, 1)  # was silently truncated to row 0
    with pytest.raises(ValueError, match="lat"):
        from ldpnb.data import haversine_km

        haversine_km(math.nan, 0.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="epsilon"):  # the float channel cannot show this level
        mech.ss_channel(8, 750.0)
    with pytest.raises(TypeError, match="k"):
        mech.grr_params(2.7, 1.0)
    with pytest.raises(ValueError, match="x"):  # fractional values were cast silently
        mech.grr_perturb([0.5, 1.0], 3, 1.0, rng=0)
    with pytest.raises(ValueError, match="n"):
        est.rappor_unbiased(np.ones((2, 3)), np.array([0.0, 1.0]), 1.0)
    with pytest.raises(ValueError, match="P"):
        metrics.emd_rows(np.zeros((2, 3)), [1, 0, 0], np.ones((3, 3)))
    # the untruncated geometric sampler still takes any integers (negative included)
    assert mech.geometric_perturb([-5, 3], None, 1.0, rng=0).shape == (2,)


# ----------------------------------------------------------------------------- coverage of every public name
# Every public name of ldpnb (tests/fuzz/surface.py: the ``__all__`` of every package, subpackage and public
# module, every public function and class of the paper packages, and the public methods of every exported
# class and of its ldpnb bases) is covered by a bad-input test:
#
# * a declared contract with a rule for each argument: tests/test_contracts.py generates, from each rule's own
#   ``invalid()`` values, a call with every bad value of every argument (methods included: on an instance of
#   each exported class built from its constructor's contract); the coverage grows with the contracts;
# * or it takes no argument, or it is an exception type or a rule of the contracts vocabulary;
# * or it is listed below with where its bad input is tested or why it takes none (COVERED_OTHERWISE), or with
#   a table of bad calls (BODY_CHECKED);
# * or, for now, it is in a file another session is editing: PENDING, by owner (the warning of
#   test_pending_names_are_listed_by_owner shows the list; a name leaves it when it gets a contract).
#
# A new public name that is none of these fails test_every_public_name_is_covered_by_a_bad_input_test.
from fuzz.baselines import RECORDS  # noqa: E402
from fuzz.surface import public_surface  # noqa: E402

SURFACE = public_surface()


def _names(prefix: str, text: str) -> list[str]:
    return [prefix + w for w in text.split()]


#: Names covered otherwise than by a declared contract, each with where its bad input is tested or why it
#: takes none.  ``qual(param)`` covers one argument that a contract leaves without a rule.
COVERED_OTHERWISE: dict[str, str] = {
    # the validators themselves: their bad inputs are their subject
    **{
        f"ldpnb.utils.{n}": "tests/test_utils.py and the tables above"
        for n in (
            "check_epsilon",
            "check_domain_size",
            "check_positive_int",
            "check_probability",
            "check_distribution",
            "check_channel",
            "check_counts",
            "check_values",
            "check_finite_array",
            "check_nonnegative",
            "check_nonnegative_matrix",
            "check_dataset",
        )
    },
    "ldpnb._random.check_random_state": "tests/test_utils.py::test_check_random_state_rejects",
    "ldpnb._optional.import_optional": "imports a module by name: an unknown name raises MissingExtraError naming "
    "it and its extra (its doctest)",
    "ldpnb.contracts.contract": "tests/test_contracts.py (the machinery: unknown parameters, non-Constraint rules)",
    "ldpnb.contracts.contract_of": "tests/test_contracts.py (the machinery)",
    "ldpnb.contracts.Probability": "a rule factory, tested through Real in tests/test_contracts.py",
    # result records: built by the package from its own computations, not from a user's input
    **RECORDS,
    "ldpnb.audit.empirical.AuditCase(source)": "a free-text provenance label, shown as given",
    "ldpnb.measures.lift.check_joint(name)": "the label the messages use for the argument",
    # the lift criteria's callbacks: L and p_s are the lift matrix and marginal that measures.lift computes
    # from a joint already checked by merge_labels / the mechanisms' contracts
    **{
        f"ldpnb.measures.lift.{c}.{m}": "a callback of merge_labels on the lift matrix it computed from a checked "
        "joint (tests/test_lift.py)"
        for c in ("Criterion", "ALIP", "LIP", "LDPwrtS", "LiftBased", "LiftMeasurePrivacy")
        for m in ("risk", "violated")
    },
    "ldpnb.mechanisms._base.FrequencyOracle.support": "abstract (NotImplementedError); every family's override is "
    "called with bad reports by tests/test_bad_input_methods.py",
    "ldpnb.repro.build.OneLineParser": "tests/test_build.py::test_cli_refuses_bad_options_in_one_line",
    "ldpnb.repro.build.OneLineParser.error": "argparse's error hook (tests/test_build.py)",
    "ldpnb.repro.build.ProcessTree.add": "takes the process the build itself started "
    "(tests/test_build.py::test_interrupt_ends_kernels_and_joblib_workers)",
    "ldpnb.repro.claims.Claim": "tests/test_claims.py::test_declarations_are_validated and "
    "tests/test_claims_stats.py::test_declarations_that_cannot_fail_or_never_hold_are_refused",
    "ldpnb.repro.claims.CriterionChange": "tests/test_claims_stats.py::test_criterion_changes_are_validated",
    # the user bootstrap's decompositions of a PSE and of FRR-at-FAR: built by atom_scores / frr_bootstrap from
    # an experiment's scores, evaluated by user_bootstrap on the multiplicities it draws (tests/test_pie.py)
    **{
        f"ldpnb.papers.pie.identification.{n}": "built by atom_scores / frr_bootstrap from checked scores, "
        "called by user_bootstrap on the multiplicities it draws (tests/test_pie.py)"
        for n in (
            "AtomScores",
            "AtomScores.pse",
            "VerificationScores",
            "VerificationScores.of",
            "VerificationScores.frr",
        )
    },
    "ldpnb.papers.synthesis.experiments.Setting": "a data set's record, built by adult_setting / gowalla_setting "
    "(contracted) from the data, never from a user's input",
    "ldpnb.papers.synthesis.experiments.Family": "an entry of the chapter's family table, built by the package and "
    "looked up by experiments.family(name) (contracted)",
    "ldpnb.papers.synthesis.experiments.Family.range": "a Family record's method; its one argument is a Setting "
    "built by adult_setting / gowalla_setting (contracted)",
}

PENDING: dict[str, list[str]] = {}


def _coverage(n) -> list[tuple[str, str]]:
    """``(key, how)`` for each part of ``n`` that needs covering: the name itself, or ``qual(param)`` for each
    argument its contract leaves without a rule (``self``, ``cls`` and ``rng`` aside)."""
    from ldpnb.contracts import Constraint, contract_of

    if n.kind == "class" and issubclass(n.obj, (BaseException, Constraint)):
        return [(n.qual, "exception type" if issubclass(n.obj, BaseException) else "rule")]
    if n.owner_class is not None and issubclass(n.owner_class, Constraint):
        return [(n.qual, "rule")]
    if not n.params:
        return [(n.qual, "no argument")]
    rules = contract_of(n.obj)
    if rules is None:
        return [(n.qual, "")]
    return [(n.qual, "contract")] + [
        (f"{n.qual}({p.name})", "") for p in n.params if p.name not in rules and p.name != "rng"
    ]


def _how(key: str, how: str) -> str:
    if how:
        return how
    if key in COVERED_OTHERWISE:
        return "listed"
    if key in BODY_CHECKED_NAMES:
        return "table"
    if any(key in names for names in PENDING.values()):
        return "pending"
    return ""


def test_every_public_name_is_covered_by_a_bad_input_test():
    """Each public name declares a contract with a rule for each argument (tests/test_contracts.py then calls it
    with every invalid value of every argument), takes no argument, or is listed with where its bad input is
    tested or why it takes none, or (for now) as pending with the session editing its file.  A new public name
    fails here until it is one of these."""
    keys = [(k, h) for n in SURFACE for k, h in _coverage(n)]
    missing = sorted(k for k, h in keys if not _how(k, h))
    assert not missing, f"{len(missing)} public names (or arguments) without a bad-input test: {missing}"


def test_coverage_lists_are_not_stale():
    """Every listed name is public and still needs its listing: a pending name that has got its contract leaves
    PENDING, a listed name that no longer exists leaves COVERED_OTHERWISE."""
    needed = {k for n in SURFACE for k, h in _coverage(n) if not h}
    listed = set(COVERED_OTHERWISE) | {k for names in PENDING.values() for k in names} | BODY_CHECKED_NAMES
    stale = sorted(listed - needed)
    assert not stale, f"listed but public no more, or now covered by a contract (remove them): {stale}"
    twice = sorted(
        k
        for k in listed
        if sum(k in names for names in PENDING.values()) + (k in COVERED_OTHERWISE) + (k in BODY_CHECKED_NAMES) > 1
    )
    assert not twice, f"listed twice: {twice}"


def test_pending_names_are_listed_by_owner():
    """The names still pending, one line per owner (shown in the warnings summary of every run)."""
    lines = [
        f"{owner}: {len(names)} ({', '.join(n.rsplit('.', 2)[-2] + '.' + n.rsplit('.', 1)[-1] for n in names[:6])}"
        f"{', ...' if len(names) > 6 else ''})"
        for owner, names in PENDING.items()
        if names
    ]
    total = sum(len(v) for v in PENDING.values())
    if total:
        import warnings

        warnings.warn(f"{total} public names pending a bad-input test:\n  " + "\n  ".join(lines), stacklevel=1)
    counts = {"contract": 0, "no argument": 0, "listed": 0, "table": 0, "pending": 0}
    for n in SURFACE:
        for k, h in _coverage(n):
            how = _how(k, h)
            if how in counts:
                counts[how] += 1
    assert counts["contract"] > counts["pending"], counts


# ----------------------------------------------------------------------------- bad calls of uncontracted names
def _C():
    from ldpnb.repro import claims

    return claims


def _est():
    from ldpnb.stats import Estimate

    return Estimate(1.0, 0.5, 1.5, method="t", n_runs=5)


def _grid():
    from ldpnb.data import Grid

    return Grid(48.8, 48.9, 2.3, 2.4, 3, 3)


def _reid():
    return attacks.ReidIndex(np.array([[0, 1], [2, 0], [1, 1], [0, 0], [2, 1]]), ks=[3, 2])


def _claim():
    return _C().Claim("T1", "c", source="derived", kind="range", where="Sec. 1", lower=0.0, upper=1.0)


def _paper(name):
    return importlib.import_module(f"ldpnb.papers.{name}")


def _pie_id():
    return _paper("pie.identification")


def _traces():
    return _pie_id().Traces("LT", [np.array([0, 1, 1, 0]), np.array([1, 0, 0, 1])], 2)


def _X():
    return np.array([[0, 1], [2, 0], [1, 1], [0, 0], [2, 1]])


CRIT = {"target": 1.0, "atol": 0.1}
NUMS = {"ours": 1.05}
_STATS = "owner: stats (repro/claims.py and stats/_estimate.py, not being edited)"
_CORE = "owner: front-core (not being edited)"

#: Names without a contract, outside the files being edited, tested here with bad calls:
#: ``(name, argument the error must name, call, defect)``.  A defect (the function and the rule it breaks,
#: with its owner) makes the case a strict xfail: found by the fuzz (tests/fuzz/RESULTS.md), kept for the
#: owner to fix (the suite turns red when it is fixed, until the mark is removed).
BODY_CHECKED: list[tuple[str, str, Any, str | None]] = [
    ("ldpnb.repro.claims.Printed", "where", lambda: _C().Printed(1.0, None), None),
    ("ldpnb.repro.claims.Printed", "value", lambda: _C().Printed(math.nan, "Table 1"), None),
    (
        "ldpnb.stats._estimate.Estimate",
        "low",
        lambda: __import__("ldpnb.stats", fromlist=["x"]).Estimate(1.0, 2.0, 0.5, method="t", n_runs=5),
        None,
    ),
    (
        "ldpnb.stats._estimate.Estimate",
        "level",
        lambda: __import__("ldpnb.stats", fromlist=["x"]).Estimate(1.0, 0.5, 1.5, level=1.5, method="t", n_runs=5),
        None,
    ),
    (
        "ldpnb.stats._estimate.Estimate",
        "value",
        lambda: __import__("ldpnb.stats", fromlist=["x"]).Estimate(math.nan, 0.5, 1.5, method="t", n_runs=5),
        None,
    ),
    (
        "ldpnb.stats._estimate.Estimate.from_dict",
        "level",
        lambda: __import__("ldpnb.stats", fromlist=["x"]).Estimate.from_dict(dict(_est().to_dict(), level=7)),
        None,
    ),
    (
        "ldpnb.stats._estimate.Estimate.text",
        "digits",
        lambda: _est().text(-3),
        None,
    ),
    ("ldpnb.data.grid.Grid.index", "row", lambda: _grid().index(5, 1), None),
    ("ldpnb.data.grid.Grid.index", "row", lambda: _grid().index(math.nan, 1), None),
    (
        "ldpnb.data.grid.Grid.histogram",
        "lon",
        lambda: _grid().histogram(np.array([48.85, 48.86]), np.array([2.35])),
        None,
    ),
    ("ldpnb.data.grid.Grid.histogram", "lat", lambda: _grid().histogram(np.array([math.nan]), np.array([2.35])), None),
    ("ldpnb.data.grid.Grid.row_col", "lon", lambda: _grid().row_col(np.array([48.85, 48.86]), np.array([2.35])), None),
    ("ldpnb.data.grid.Grid.cell_of", "lon", lambda: _grid().cell_of(np.array([48.85, 48.86]), np.array([2.35])), None),
    ("ldpnb.data.grid.Grid.to_image", "vec", lambda: _grid().to_image(np.ones(8)), None),
    (
        "ldpnb.attacks.reidentification.ReidIndex.count",
        "T",
        lambda: _reid().count(99, np.array([[0, 1]])),
        None,
    ),
    (
        "ldpnb.attacks.reidentification.ReidIndex.count",
        "values",
        lambda: _reid().count(1, np.array([[-1, 0]])),
        None,
    ),
    (
        "ldpnb.attacks.reidentification.ReidIndex.count_columns",
        "columns",
        lambda: _reid().count_columns(1, np.array([[5]]), None),
        None,
    ),
]
#: The mechanism objects' methods, called with bad arguments on every family of the catalogue by
#: tests/test_bad_input_methods.py (cases generated by tests/fuzz/methods.py).
from fuzz.methods import HAND_CASES, method_cases  # noqa: E402

BODY_CHECKED_NAMES: set[str] = {q for q, *_ in BODY_CHECKED} | {
    q
    for q, *_ in method_cases() + HAND_CASES
    if q != "ldpnb.mechanisms._hashes.OLHCW.simulate_support_counts"  # has a contract
}

#: Contracted names whose bodies also check what is inside an argument (a criterion's tolerances, a relation's
#: grammar): the same bad calls, run by the same test, not counted as the names' coverage (their contract is).
DEEP_CHECKED: list[tuple[str, str, Any, str | None]] = [
    ("ldpnb.repro.claims.evaluate", "kind", lambda: _C().evaluate("bogus", CRIT, NUMS), None),
    (
        "ldpnb.repro.claims.evaluate",
        "atol",
        lambda: _C().evaluate("close", {"target": 1.0, "atol": math.inf}, NUMS),
        None,
    ),
    ("ldpnb.repro.claims.evaluate", "criterion", lambda: _C().evaluate("close", None, NUMS), None),
    (
        "ldpnb.repro.claims.evaluate",
        "numbers",
        lambda: _C().evaluate("close", CRIT, None),
        None,
    ),
    ("ldpnb.repro.claims.decide", "rtol", lambda: _C().decide("close", {"target": 1.0, "rtol": math.nan}, NUMS), None),
    ("ldpnb.repro.claims.decide", "lower", lambda: _C().decide("range", {"lower": 2.0, "upper": 1.0}, NUMS), None),
    ("ldpnb.repro.claims.row_status", "expect", lambda: _C().row_status("close", CRIT, NUMS, "bogus"), None),
    ("ldpnb.repro.claims.falsify", "kind", lambda: _C().falsify("bogus", CRIT, NUMS, "pass"), None),
    ("ldpnb.repro.claims.power", "kind", lambda: _C().power("bogus", CRIT, NUMS, "pass"), None),
    (
        "ldpnb.repro.claims.runs_needed",
        "atol",
        lambda: _C().runs_needed("close", {"target": 1.0, "atol": math.nan}, NUMS),
        None,
    ),
    ("ldpnb.repro.claims.original_statuses", "expect", lambda: _C().original_statuses([], NUMS, "bogus"), None),
    ("ldpnb.repro.claims.parse_relation", "relation", lambda: _C().parse_relation("a < < b"), None),
    ("ldpnb.repro.claims.parse_relation", "relation", lambda: _C().parse_relation(3), None),
    ("ldpnb.repro.claims.describe", "scale", lambda: _C().describe(_claim(), "huge"), None),
    ("ldpnb.repro.claims.Claim.criterion", "scale", lambda: _claim().criterion("huge"), None),
    ("ldpnb.repro.claims.Claim.full_criterion", "scale", lambda: _claim().full_criterion("huge"), None),
    (
        "ldpnb.repro.claims.verify_row",
        "row",
        lambda: _C().verify_row(None),
        None,
    ),
    (
        "ldpnb.mechanisms.orr.polytope_vertices",
        "b_ub",
        lambda: mech.polytope_vertices(np.vstack([np.eye(2), -np.eye(2)]), np.array([1.0, 1.0, 0.0])),
        None,
    ),
    # the paper modules' rules between arguments (issue #40)
    ("ldpnb.papers.pie.identification.Traces", "seqs", lambda: _pie_id().Traces("LT", [np.array([0, 3])], 2), None),
    ("ldpnb.papers.pie.identification.Traces", "seqs", lambda: _pie_id().Traces("LT", [[0.5, 1.0]], 2), None),
    ("ldpnb.papers.pie.identification.Traces.subset", "idx", lambda: _traces().subset([0, 5]), None),
    (
        "ldpnb.papers.pie.utility.UtilityPopulation.mass",
        "phi",
        lambda: _paper("pie.utility").UtilityPopulation([3, 2, 0, 1]).mass(5),
        None,
    ),
    (
        "ldpnb.papers.privic.figures.heatmap",
        "vec",
        lambda: _paper("privic.figures").heatmap(None, np.ones(3), (2, 2)),
        None,
    ),
    (
        "ldpnb.papers.privic.figures.heatmap",
        "marks",
        lambda: _paper("privic.figures").heatmap(None, np.ones(4), (2, 2), marks={"A": (5, 0)}),
        None,
    ),
    (
        "ldpnb.papers.risks.experiments.make_priors",
        "counts",
        lambda: _paper("risks.experiments").make_priors("correct", [3, 2], counts=[np.array([1, 2, 3])], rng=0),
        None,
    ),
    (
        "ldpnb.papers.risks.experiments.smp_rid_experiment",
        "eval_surveys",
        lambda: _paper("risks.experiments").smp_rid_experiment(
            _X(), [3, 2], "grr", [1.0], n_surveys=3, eval_surveys=[5]
        ),
        None,
    ),
    (
        "ldpnb.papers.risks.experiments.smp_rid_experiment",
        "index",
        lambda: _paper("risks.experiments").smp_rid_experiment(
            _X(), [3, 2], "grr", [1.0], index=attacks.ReidIndex(_X()[:, :1], ks=[3])
        ),
        None,
    ),
    (
        "ldpnb.papers.risks.figures.rid_grid",
        "topks",
        lambda: _paper("risks.figures").rid_grid({"grr": {"FK": np.zeros((2, 1, 4, 3))}}, [1.0], ["grr"], n=10),
        None,
    ),
    (
        "ldpnb.papers.risks.figures.rid_fk_pk",
        "k",
        lambda: _paper("risks.figures").rid_fk_pk({}, [1.0], ["grr"], n=10, k=3),
        None,
    ),
    (
        "ldpnb.papers.risks.figures.mean_interval",
        "runs",
        lambda: _paper("risks.figures").mean_interval([[np.inf]]),
        None,
    ),
    ("ldpnb.papers.risks.text.runs_labels", "cur", lambda: _paper("risks.text").runs_labels({"GRR": 1}), None),
    (
        "ldpnb.papers.risks.runs.RidRuns.mean",
        "surveys",
        lambda: _paper("risks.runs").RidRuns(np.zeros((2, 1, 2, 3)), [1.0], (2, 5), (1, 5, 10)).mean(surveys=6),
        None,
    ),
    (
        "ldpnb.papers.performance.experiments.count_level",
        "n",
        lambda: _paper("performance.experiments").count_level([16384], 1 << 27, 1.0, 1, rng=0),
        None,
    ),
]


@pytest.mark.parametrize(
    "fn, name",
    [
        pytest.param(fn, arg, id=f"{qual}:{arg}:{i}", marks=_xf(defect) if defect else ())
        for i, (qual, arg, fn, defect) in enumerate(BODY_CHECKED + DEEP_CHECKED)
    ],
)
def test_uncontracted_names_refuse_bad_calls(fn, name):
    _check(fn, name)
