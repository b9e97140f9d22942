"""The lift-based Mechanism objects (Watchdog, AORR, SRR) and the synthesis chapter's experiments."""

import numpy as np
import pytest
from scipy import stats

from ldpnb.measures import ALIP, leakages, mutual_information
from ldpnb.mechanisms.orr import AORR, SRR, full_channel, subset_random_response
from ldpnb.mechanisms.watchdog import SecretChannelMechanism, Watchdog, complete_merging, subset_merging

ALPHA = 1e-6  # false-alarm rate of each sampler test


def _joint(seed=0, n_s=2, n_x=6):
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.ones(n_s * n_x)).reshape(n_s, n_x)
    return p


def _objects(p, e=0.3):
    return [Watchdog(p, e, e), Watchdog(p, e, e, merging="subset"), AORR(p, e, e), SRR(p, e, e)]


@pytest.mark.parametrize("seed", range(6))
def test_channels_are_the_functions_channels(seed):
    p = _joint(seed)
    e = 0.25
    crit = ALIP(e, e)
    w, ws, a, s = _objects(p, e)
    np.testing.assert_array_equal(w.channel(), complete_merging(p, crit).channel())
    np.testing.assert_array_equal(ws.channel(), subset_merging(p, crit).channel())
    np.testing.assert_allclose(a.channel(), full_channel(p, e, e), atol=1e-15)
    np.testing.assert_allclose(s.channel(), subset_random_response(p, e, e).channel, atol=1e-15)


@pytest.mark.parametrize("seed", range(6))
def test_claim_is_ldp_for_the_secret_and_holds(seed):
    """The privacy channel is P(y|s) = sum_x P(x|s) C[x, y]; ALIP(e, e) gives LDP w.r.t. S at 2e."""
    p = _joint(seed)
    for m in _objects(p, 0.3):
        assert isinstance(m, SecretChannelMechanism)
        g = m.guarantee
        assert g.notion == "ldp" and g.epsilon == pytest.approx(0.6) and g.about == "the secret S"
        P = np.exp(m.privacy_log_channel())
        np.testing.assert_allclose(P, (p / p.sum(axis=1, keepdims=True)) @ m.channel(), rtol=1e-12)
        lk = leakages(m.output_joint()[:, m.output_joint().sum(axis=0) > 0])
        assert m.tight_level() == pytest.approx(lk.ldp_leak, rel=1e-9, abs=1e-12)
        if max(lk.max_lift_leak, lk.min_lift_leak) <= 0.3 * (1 + 1e-9):  # ALIP(0.3, 0.3) holds
            assert m.check(), (m, m.tight_level())
        elif isinstance(m, Watchdog):  # merging X_H cannot be private (Thm 1); a repair fixes it
            assert Watchdog(p, 0.3, 0.3, merging=m.merging, repair="least_risky").check()
        else:  # SRR falls back to subset merging then (Algorithm 2, lines 20-21)
            assert isinstance(m, SRR) and m.result.fallback


def test_aorr_has_the_largest_information_of_the_lift_family():
    p = _joint(3, n_x=7)
    px = p.sum(axis=0)
    mi = {m.family + str(i): mutual_information(px, m.channel(), unit="nats") for i, m in enumerate(_objects(p, 0.2))}
    assert mi["AORR2"] >= max(mi.values()) - 1e-9


@pytest.mark.parametrize("k", range(4))
def test_sampler_follows_the_channel(k):
    p = _joint(11, n_x=5)
    m = _objects(p, 0.4)[k]
    C = m.channel()
    rng = np.random.default_rng(100 + k)
    n = 20_000
    for x in range(5):
        obs = np.bincount(m.perturb(np.full(n, x), rng=rng), minlength=C.shape[1])
        keep = C[x] > 0
        assert obs[~keep].sum() == 0
        if keep.sum() > 1:
            assert stats.chisquare(obs[keep], n * C[x, keep]).pvalue > ALPHA


def test_bad_arguments_are_refused():
    p = _joint(0)
    with pytest.raises(ValueError):
        Watchdog(p, 0.0, 0.3)
    with pytest.raises(ValueError):
        Watchdog(p, 0.3, 0.3, merging="partial")
    with pytest.raises(ValueError):
        AORR(p, -1.0, 0.3)


# ---- the chapter's experiments ---------------------------------------------------------------


def _setting():
    from ldpnb.data import lattice_distance_matrix
    from ldpnb.papers.synthesis.experiments import Setting

    rng = np.random.default_rng(5)
    p_sx = rng.dirichlet(np.ones(12)).reshape(2, 6)
    counts = np.round(p_sx.sum(axis=0) * 5000).astype(np.int64)
    return Setting("toy", counts, (2, 3), (1.0, 1.0), lattice_distance_matrix(2, 3), "bins", p_sx=p_sx)


def test_every_family_builds_and_its_lenses_are_consistent():
    from ldpnb.papers.synthesis import experiments as ex

    s = _setting()
    for name in ex.families_for(s):
        m = ex.build(s, name, 0.7)
        L = ex.exact_lenses(m, s)
        assert 0 <= L["mi"] <= np.log2(s.k) + 1e-9
        assert L["pie"] == L["mi"]
        assert s.p_x.max() - 1e-12 <= L["vx"] <= 1 + 1e-12
        assert L["lift_ldp"] <= L["ldp"] * (1 + 1e-9) + 1e-12


def test_match_parameter_hits_a_continuous_target():
    from ldpnb.papers.synthesis import experiments as ex

    s = _setting()
    for name in ("k-RR", "geometric", "planar geometric", "RS+FD"):
        t, v = ex.match_parameter(s, name, "ldp", 1.0)
        assert v == pytest.approx(1.0, abs=1e-6), name
    t, v = ex.match_parameter(s, "RS+FD", "ldp", 1.0)
    assert t == pytest.approx(np.log((np.e - 1) / 2 + 1), rel=1e-6)  # eps' = ln(d(e^eps - 1) + 1), d = 2


def test_inv_lstsq_is_the_matrix_inverse_on_square_channels():
    from ldpnb.estimators import inv_normalized
    from ldpnb.mechanisms import grr_channel
    from ldpnb.papers.synthesis.experiments import inv_lstsq

    C = grr_channel(5, 1.0)
    q = np.array([30, 10, 25, 20, 15])
    np.testing.assert_allclose(inv_lstsq(C, q)[0], inv_normalized(C, q), atol=1e-12)


def test_synthesis_text_counts_and_sentences():
    """The glued sentences: a mechanism is 'better' only when its interval says so (ldpnb.stats); the
    verdict and the guide quote the numbers; the guide is a Markdown table, not an inline list."""
    from ldpnb.papers.synthesis import text
    from ldpnb.stats import Estimate

    d = Estimate([-0.1, 0.02], [-0.2, -0.01], [-0.05, 0.05], method="t", n_runs=10)
    assert text.decided(d, ["a", "b"]) == {"above": [], "below": ["a"], "undecided": ["b"]}
    row = dict(emd_ibu=0.09, ldp=1.0, mi=0.5, vx=0.2, lift_ldp=0.3)
    table = {"a": dict(row), "b": dict(row, emd_ibu=0.2)}
    m1 = {"differences": {"kRR - metric": d}}
    gaps = {"mi_gap": np.array([-0.1, 0.1]), "lift_gap": np.array([0.1, 0.2])}
    v = text.matched_verdict(dict(row), table, table, ["a", "b"], m1, gaps)
    assert v.startswith("At equal information, 0 of 2 metric mechanisms estimate better than k-RR and 1 of 2 worse")
    assert "least unfavourable is b," in v
    assert "At equal utility, 1 of 2 release less" in v and "and 0 of 2 leak less" in v
    facts = {k: f"answer {k}" for k in ("oracle", "rule", "n_data", "estimator", "task", "secret", "metric", "joint")}
    guide = text.reading_guide(facts).splitlines()
    # a Markdown table displayed as a block (the first edition glued a list inline: one paragraph of '*')
    assert guide[0].startswith("| Question |") and guide[1] == "|---|---|---|" and len(guide) == 2 + len(facts)
    assert all(line.startswith("| ") and line.endswith(" |") for line in guide[2:])
    assert "answer estimator" in guide[5]
    assert text.unplaced_text({}) == "none" and text.unplaced_text({"X": "why"}) == "* **X**: why"


def test_rate_distortion_check_can_fail_and_skips_r_zero():
    """E8: a point below BA's curve is a violation; points where R(D) = 0 are not counted (the first
    edition compared every mechanism with R(D) = 0 and could not fail)."""
    from ldpnb.papers.synthesis import experiments as ex

    s = _setting()
    Ds, Is = ex.ba_curve(s, 12)
    mid = np.flatnonzero(Is > 1e-3)[0]
    fake = {
        "cheat": {
            "distortion": np.array([Ds[mid], ex.constant_report_distortion(s) + 0.1]),
            "mi": np.array([Is[mid] / 2, 0.0]),
        }
    }
    out = ex.rate_distortion_check(s, fake, points=12)
    assert out == {"violations": 1, "checked": 1, "worst": pytest.approx(Is[mid] / 2, rel=1e-6)}
    honest = {"ok": {"distortion": np.array([Ds[mid]]), "mi": np.array([Is[mid] * 1.5])}}
    assert ex.rate_distortion_check(s, honest, points=12)["violations"] == 0


def test_catalogue_extras_refuses_a_mechanism_with_the_wrong_number_of_inputs():
    """A registered family whose ``on`` ignores the domain's size (here a binary randomized response)
    is left out of a setting of k = 4 values with its reason: the old code placed it in the lens
    table of the 2 x 2 setting, whose lenses then mixed a 2-input channel with a 4-value prior."""
    from ldpnb.mechanisms import Mechanism
    from ldpnb.papers.synthesis import experiments as ex

    class BinaryToy(Mechanism):
        family = "binary toy (synthesis test)"
        aliases = ()

        def __init__(self, epsilon: float) -> None:
            self.epsilon = epsilon

        @classmethod
        def on(cls, domain, epsilon):
            return cls(epsilon)

        @property
        def n_inputs(self) -> int:
            return 2

        @property
        def n_outputs(self) -> int:
            return 2

        def _log_channel(self) -> np.ndarray:
            keep, flip = -np.logaddexp(0.0, -self.epsilon), -np.logaddexp(0.0, self.epsilon)
            return np.array([[keep, flip], [flip, keep]])

    setting = ex._example_setting()
    assert setting.k == 4
    try:
        placed, unplaced = ex.catalogue_extras(setting)
        assert BinaryToy.family not in placed
        assert "2 inputs, not the setting's 4 values" in unplaced[BinaryToy.family]
        for name, f in placed.items():  # every placed family has the setting's number of inputs
            assert f.make(setting, 1.0).n_inputs == setting.k, name
    finally:
        Mechanism.unregister(BinaryToy.family)
        ex._EXTRA.pop(BinaryToy.family, None)


def test_catalogue_names_come_from_the_registry():
    """Issue #32: the chapter's names of the catalogue families it builds itself are read from the
    registry (a chapter row whose name is a catalogue family's name or alias), not written by hand;
    every other catalogue family goes through catalogue_extras."""
    from ldpnb import mechanisms as mech
    from ldpnb.papers.synthesis import experiments as ex

    assert ex.CATALOGUE_NAMES == {
        "GRR": "k-RR",
        **{n: n for n in ("SUE", "OUE", "OLH", "SS", "geometric", "Laplace", "exponential")},
        "planar geometric": "planar geometric",
        "planar Laplace": "planar Laplace",
    }
    for fam_name, chapter_name in ex.CATALOGUE_NAMES.items():
        assert fam_name in mech.FAMILIES and chapter_name in ex.FAMILIES
        assert mech.Mechanism.lookup(chapter_name).family == fam_name
