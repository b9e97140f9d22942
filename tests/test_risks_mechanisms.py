"""Exact-channel tests of the multidimensional protocols as Mechanism objects (SMP, RS+FD, RS+RFD)
and of the protocol registry (Arcolezi et al. 2023, Secs. 2.2-2.3, Alg. 1)."""

import numpy as np
import pytest
from scipy import stats

from ldpnb.mechanisms import (
    PROTOCOL_REGISTRY,
    RSFD,
    RSFD_VARIANTS,
    RSRFD,
    SMP,
    amplified_epsilon,
    fo_params,
    protocol,
    protocol_names,
    rsfd_mechanism,
    rsfd_tuple_channel,
)

KS = (2, 3)
PRIORS = [[0.7, 0.3], [0.5, 0.3, 0.2]]
#: False-alarm rate of each chi-square sampler test (the seeds are fixed, so a test either always
#: passes or always fails; ALPHA is the probability that a correct sampler would have failed).
ALPHA = 1e-3


def _mechs(eps):
    out = [SMP(KS, eps, p) for p in protocol_names()]
    out += [RSFD(KS, eps, v) for v in RSFD_VARIANTS]
    out += [RSRFD(KS, PRIORS, eps, p) for p in protocol_names(rsfd=True)]
    return out


def _ids():
    return [repr(m) for m in _mechs(1.0)]


@pytest.mark.parametrize("i", range(len(_mechs(1.0))), ids=_ids())
@pytest.mark.parametrize("eps", [0.5, 2.0, 6.0])
def test_rows_sum_to_one_and_tight_level_equals_claim(i, eps):
    m = _mechs(eps)[i]
    C = m.channel()
    assert C.shape == (6, m.n_outputs)
    assert np.all(C >= 0)
    np.testing.assert_allclose(C.sum(axis=1), 1.0, atol=1e-12)
    # the claim is tight: SMP eps, RS+FD / RS+RFD eps' = ln(d(e^eps - 1) + 1) (priors of full support)
    want = eps if isinstance(m, SMP) else float(amplified_epsilon(eps, len(KS)))
    assert m.guarantee.epsilon == pytest.approx(want, rel=1e-12)
    assert m.tight_level() == pytest.approx(want, rel=1e-9)
    assert m.check()


@pytest.mark.parametrize("variant", list(RSFD_VARIANTS))
def test_rsfd_channel_is_the_tuple_channel_and_neighbour_level(variant):
    m = RSFD(KS, 1.0, variant)
    proto, fake = RSFD_VARIANTS[variant]
    W, inputs = rsfd_tuple_channel(KS, 1.0, proto, fake)
    np.testing.assert_allclose(m.channel(), W, rtol=1e-12)
    np.testing.assert_array_equal(m.tuples(), inputs)
    # the paper's eps for one-attribute neighbours: exact for equal domains and uniform fakes
    assert RSFD((3, 3), 1.0, variant).neighbour_level() == pytest.approx(1.0, abs=1e-9) or variant.endswith("-r")
    assert eps_le(m.neighbour_level(), m.eps_prime)


def eps_le(a, b):
    return a <= b * (1 + 1e-9)


def test_smp_channel_by_hand_grr():
    eps = 1.3
    m = SMP(KS, eps, "grr")
    C = m.channel()
    e = np.exp(eps)
    # tuple (1, 2): block 0 is GRR on 2 values at v_0 = 1, block 1 GRR on 3 values at v_1 = 2, each / d
    row = m.row_of(np.array([[1, 2]]))[0]
    want = np.concatenate([np.array([1, e]) / (e + 1), np.array([1, 1, e]) / (e + 2)]) / 2
    np.testing.assert_allclose(C[row], want, rtol=1e-12)


def _pooled_chi2(counts, probs):
    """Chi-square GOF p-value, pooling the cells of expected count < 5 into one."""
    n = counts.sum()
    exp = probs * n
    small = exp < 5
    o = np.concatenate([counts[~small], [counts[small].sum()]]) if small.any() else counts
    e = np.concatenate([exp[~small], [exp[small].sum()]]) if small.any() else exp
    keep = e > 0
    return stats.chisquare(o[keep], e[keep] * o[keep].sum() / e[keep].sum()).pvalue


@pytest.mark.parametrize("i", range(len(_mechs(1.0))), ids=_ids())
def test_sampler_agrees_with_channel(i):
    eps = 1.5
    m = _mechs(eps)[i]
    C = m.channel()
    rng = np.random.default_rng(20230 + i)
    n = 20_000
    for x in (np.array([0, 0]), np.array([1, 2])):
        reports = m.perturb(np.tile(x, (n, 1)), rng=rng)
        cols = m.report_index(reports)
        row = m.row_of(x[None])[0]
        if isinstance(m, SMP) and m.protocol == "olh":
            # Carter-Wegman hashing is pairwise independent only: compare the law of
            # (attribute, [v_j in S], [v_j + 1 mod k_j in S]), which the channel gives exactly
            code = _olh_pair_code(m, x)
            counts = np.bincount(code[cols], minlength=4 * m.d)
            probs = np.bincount(code, weights=C[row], minlength=4 * m.d)
        else:
            counts, probs = np.bincount(cols, minlength=m.n_outputs), C[row]
        assert _pooled_chi2(counts, probs) > ALPHA


def _olh_pair_code(m, x):
    """Per column of SMP[OLH]'s channel: 4 j + 2 [v_j in S] + [v_j + 1 in S]."""
    j, c = m.decode(np.arange(m.n_outputs))
    vj = x[j]
    u = (vj + 1) % np.asarray(m.ks)[j]
    return 4 * j + 2 * ((c >> vj) & 1) + ((c >> u) & 1)


def test_row_indices_and_tuples_are_the_same_inputs():
    m = RSFD(KS, 1.0, "GRR")
    X = m.tuples()
    np.testing.assert_array_equal(m.row_of(X), np.arange(6))
    a = m.report_index(m.perturb(X, rng=3))
    b = m.report_index(m.perturb(np.arange(6), rng=3))
    np.testing.assert_array_equal(a, b)


def test_rsfd_mechanism_factory_and_refusals():
    assert rsfd_mechanism(KS, 1.0, "sue", "random").variant == "SUE-r"
    assert isinstance(rsfd_mechanism(KS, 1.0, "oue", "prior", priors=PRIORS), RSRFD)
    with pytest.raises(ValueError):
        RSFD(KS, 1.0, "OLH")
    with pytest.raises(ValueError):
        RSRFD(KS, [[1.0]], 1.0, "grr")
    with pytest.raises(ValueError):
        SMP((1, 3), 1.0, "grr")
    with pytest.raises(ValueError):
        RSFD((12, 13), 1.0, "OUE-z").channel()


def test_registry_covers_the_protocols_and_matches_the_mechanisms():
    # derived from the mechanism registry: every frequency-oracle family built from (k, eps), in the
    # order the classes are defined
    assert protocol_names()[:6] == ("grr", "sue", "oue", "olh", "blh", "ss")  # then any family defined later
    assert protocol_names(rsfd=True) == ("grr", "sue", "oue")
    assert protocol("GRR") is PROTOCOL_REGISTRY["grr"]
    for name, entry in PROTOCOL_REGISTRY.items():
        mech = entry.mechanism(5, 1.2)
        p, q = fo_params(name, 5, 1.2)
        assert (p, q) == entry.params(5, 1.2)
        assert (mech.p, mech.q) == pytest.approx((p, q), rel=1e-12)
    with pytest.raises(ValueError):
        protocol("rappor")


@pytest.mark.parametrize("protocol", ["grr", "sue", "oue", "ss", "olh"])
def test_expected_pd_accuracy_is_finite_and_right_at_large_epsilon(protocol):
    """Audit: NaN at eps = 1e4 (e^eps overflowed); UE's 1 - (1 - q)^k cancelled to 0 beyond eps ~ 37.
    The limits: GRR, SS, SUE -> 1 (the report is the value); OUE, OLH -> 1/2 + 1/(2k)."""
    from ldpnb.attacks import expected_pd_accuracy

    k = 10
    limit = 1.0 if protocol in ("grr", "ss", "sue") else 0.5 + 0.5 / k
    for eps in (60.0, 700.0, 710.0, 1e4):
        got = expected_pd_accuracy(protocol, eps, k)
        assert np.isfinite(got) and got == pytest.approx(limit, rel=1e-9), (eps, got)
    values = [expected_pd_accuracy(protocol, e, k) for e in (0.5, 1.0, 2.0, 5.0, 20.0, 40.0)]
    assert np.all(np.diff(values) >= -1e-15)
