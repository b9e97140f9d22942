import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ldpnb.measures import (
    channel_capacity,
    conditional_entropy,
    convert,
    entropy,
    kl_divergence,
    mutual_information,
    mutual_information_joint,
)


def krr(k, eps):
    e = np.exp(eps)
    C = np.full((k, k), 1 / (k - 1 + e))
    np.fill_diagonal(C, e / (k - 1 + e))
    return C


def test_unit_is_required_and_checked():
    with pytest.raises(TypeError):
        entropy([0.5, 0.5])  # unit is keyword-only and required
    with pytest.raises(ValueError, match="unit"):
        entropy([0.5, 0.5], unit="bans")


def test_entropy_known_values():
    assert entropy([0.5, 0.5], unit="bits") == pytest.approx(1.0)
    assert entropy([0.25] * 4, unit="nats") == pytest.approx(np.log(4))
    assert entropy([1.0, 0.0], unit="bits") == 0.0
    assert convert(1.0, from_unit="nats", to_unit="bits") == pytest.approx(1 / np.log(2))


def test_kl_divergence():
    assert kl_divergence([0.5, 0.5], [0.5, 0.5], unit="bits") == 0.0
    assert kl_divergence([1, 0], [0.5, 0.5], unit="bits") == pytest.approx(1.0)
    assert kl_divergence([0.5, 0.5], [1, 0], unit="bits") == np.inf


def test_mutual_information_forms_agree_and_chain_rule():
    rng = np.random.default_rng(0)
    pi = rng.dirichlet(np.ones(4))
    C = rng.dirichlet(np.ones(6), size=4)
    joint = pi[:, None] * C
    a = mutual_information(pi, C, unit="bits")
    b = mutual_information_joint(joint, unit="bits")
    assert a == pytest.approx(b, abs=1e-12)
    # I(X;Y) = H(Y) - H(Y|X)
    assert a == pytest.approx(entropy(pi @ C, unit="bits") - conditional_entropy(pi, C, unit="bits"), abs=1e-12)


def test_capacity_of_krr_closed_form():
    # k-RR is symmetric: capacity at the uniform input, log k - H(row)
    for k, eps in [(2, 1.0), (5, 0.5), (20, 3.0)]:
        C = krr(k, eps)
        cap, pin = channel_capacity(C, unit="nats")
        assert cap == pytest.approx(np.log(k) - entropy(C[0], unit="nats"), abs=1e-10)
        np.testing.assert_allclose(pin, 1 / k, atol=1e-8)


def test_capacity_of_z_channel():
    # Z-channel with crossover 1/2: capacity log2(5/4) bits, optimal P(1) = 2/5
    C = np.array([[1.0, 0.0], [0.5, 0.5]])
    cap, pin = channel_capacity(C, unit="bits", tol=1e-13)
    assert cap == pytest.approx(np.log2(1.25), abs=1e-9)
    assert pin[1] == pytest.approx(0.4, abs=1e-5)


@given(st.integers(2, 6), st.integers(2, 6), st.integers(0, 10_000))
def test_mi_bounded_by_capacity_and_entropies(k, m, seed):
    rng = np.random.default_rng(seed)
    C = rng.dirichlet(np.ones(m), size=k)
    pi = rng.dirichlet(np.ones(k))
    mi = mutual_information(pi, C, unit="bits")
    cap, _ = channel_capacity(C, unit="bits", tol=1e-10)
    assert -1e-12 <= mi <= cap + 1e-9
    assert mi <= entropy(pi, unit="bits") + 1e-12
