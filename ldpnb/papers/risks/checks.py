"""Risks paper (Arcolezi, Gambs, Couchot and Palamidessi 2023): the Monte Carlo and exact checks behind
the chapter's formula rows (Eqs. 4-9, Theorems 1-2, Sec. 3.2.1, Sec. 4.2), each returning the numbers
its claim is decided on.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Sequence

import numpy as np

from ldpnb.attacks.deniability import expected_pd_accuracy, perturb_and_infer
from ldpnb.attacks.reidentification import simulate_smp_surveys
from ldpnb.contracts import Array, Instance, Integer, OneOf, RandomState, Real, contract
from ldpnb.mechanisms import multidim as md
from ldpnb.papers.risks.experiments import make_priors
from ldpnb.stats import Estimate
from ldpnb.utils import check_random_state

__all__ = [
    "profile_accuracy_mc",
    "pooled_mse_ratio",
    "rfd_expected_lower",
    "expected_mse_ratio",
    "coverage_mc",
    "percent",
    "single_report_mc",
    "fig1_vs_fig2",
    "rsfd_theorems",
    "tree_leaves",
    "pie_capacity_gap",
    "corollary2_gap",
    "prior_variance_check",
    "privacy_table",
]

_KS = Array(1, integer=True, low=2)
#: the largest domain whose unary-encoding channel (2^k outputs) the exact checks build
_MAX_UE_K = 16
_EPS = Real(0.0, None, low_open=True)
_PROT = OneOf(*md.PROTOCOLS)


def _acc(protocol: str, eps: float, k: int) -> float:
    """Exact single-report accuracy of the attack as run (OLH: ideal hash with integer g)."""
    return expected_pd_accuracy(protocol, eps, int(k), form="exact")


@contract(protocol=_PROT, eps=_EPS, ks=_KS, n=Integer(1, 10**8), rng=RandomState())
def profile_accuracy_mc(protocol: str, eps: float, ks: Any, n: int, *, rng: Any = None) -> dict[str, float]:
    r"""Fig. 1a / Eq. 4: ``d = len(ks)`` surveys, each user reports a new attribute in each; fraction of
    users whose whole profile is inferred (plausible-deniability attack), in %, with its standard
    error, and Eq. 4's :math:`\prod_j ACC(\epsilon, k_j)`.  Inputs uniform (the accuracy of the
    symmetric oracles does not depend on the value)."""
    rng = check_random_state(rng)
    ok = np.ones(n, dtype=bool)
    for k in ks:
        x = rng.integers(0, int(k), n)
        ok &= perturb_and_infer(x, int(k), eps, protocol, rng=rng) == x
    p = float(ok.mean())
    return {
        "ours": 100 * p,
        "se": 100 * float(np.sqrt(max(p * (1 - p), 1e-12) / n)),
        "formula": 100 * float(np.prod([_acc(protocol, eps, k) for k in ks])),
        "hits": int(ok.sum()),
        "n": int(n),
    }


@contract(protocol=_PROT, eps=_EPS, ks=_KS, n=Integer(1, 10**7), rng=RandomState())
def coverage_mc(protocol: str, eps: float, ks: Any, n: int, *, rng: Any = None) -> dict[str, float]:
    r"""Fig. 1b / Eq. 5: ``d`` surveys of all attributes under the non-uniform metric (a uniform attribute
    per survey, repeated ones re-sent from memory), simulated with
    :func:`~ldpnb.attacks.simulate_smp_surveys`: the fraction of users with ``d`` distinct reports
    (:math:`d!/d^d`) and of users whose whole profile is inferred (Eq. 5), in %, with standard errors."""
    rng = check_random_state(rng)
    ks = np.asarray(ks, dtype=np.int64)
    d = ks.size
    X = np.column_stack([rng.integers(0, int(k), n) for k in ks])
    res = simulate_smp_surveys(X, ks, protocol, eps, d, "non-uniform", design=[np.arange(d)] * d, rng=rng)
    full = res["n_reports"] == d
    hit = np.all(res["profiles"][-1] == X, axis=1)
    pc, ph = float(full.mean()), float(hit.mean())
    return {
        "coverage": 100 * pc,
        "coverage_se": 100 * float(np.sqrt(pc * (1 - pc) / n)),
        "profile": 100 * ph,
        "profile_se": 100 * float(np.sqrt(max(ph * (1 - ph), 1e-12) / n)),
        "covered": int(full.sum()),
        "hits": int(hit.sum()),
        "n": int(n),
    }


@contract(estimate=Instance(Estimate, example=Estimate(0.5, 0.4, 0.6, method="wilson", n_runs=20)))
def percent(estimate: Estimate) -> Estimate:
    """A proportion's :class:`~ldpnb.stats.Estimate` (e.g. :func:`ldpnb.stats.proportion`) in %: value,
    interval and standard error times 100, the rest unchanged.

    >>> from ldpnb.stats import proportion
    >>> round(percent(proportion(7, 20)).value, 1)
    35.0
    """
    se = None if estimate.se is None else 100 * np.asarray(estimate.se)
    return dataclasses.replace(
        estimate,
        value=100 * np.asarray(estimate.value),
        low=100 * np.asarray(estimate.low),
        high=100 * np.asarray(estimate.high),
        se=se,
    )


@contract(cases=Instance(list, tuple, example=[("grr", 7, 2.0)]), n=Integer(1, 10**7), rng=RandomState())
def single_report_mc(cases: Sequence[tuple[str, int, float]], n: int, *, rng: Any = None) -> list[dict[str, Any]]:
    """Sec. 3.2.1: the attack on one report, simulated (``n`` uniform users) against the exact closed
    form and the paper's form, per ``(protocol, k, eps)``; accuracies in %, ``z`` the standardised gap."""
    rng = check_random_state(rng)
    out = []
    for prot, k, eps in cases:
        x = rng.integers(0, k, n)
        sim = float(np.mean(perturb_and_infer(x, k, eps, prot, rng=rng) == x))
        exact = _acc(prot, eps, k)
        se = float(np.sqrt(exact * (1 - exact) / n))
        out.append(
            {
                "protocol": prot,
                "k": k,
                "eps": eps,
                "simulated": 100 * sim,
                "exact": 100 * exact,
                "paper form": 100 * expected_pd_accuracy(prot, eps, k, form="paper"),
                "se": 100 * se,
                "z": (sim - exact) / se,
            }
        )
    return out


@contract(
    X=Array(2, integer=True, low=0),
    ks=_KS,
    protocols=Instance(list, tuple, example=["grr"]),
    eps_grid=Instance(list, tuple, example=[2.0]),
    n_surveys=Integer(1, 100),
    rng=RandomState(),
)
def fig1_vs_fig2(
    X: Any, ks: Any, protocols: Sequence[str], eps_grid: Sequence[float], n_surveys: int = 5, *, rng: Any = None
) -> list[dict[str, Any]]:
    r"""Sec. 4.2, 'Fig. 2 matches Fig. 1': in one run of the Fig. 2 simulation (uniform metric), the
    fraction of users whose inferred profile is entirely correct against its Eq. 4 expectation
    :math:`\frac1n\sum_u \prod_{j\in S_u} ACC(\epsilon, k_j)` over the attributes ``S_u`` user ``u``
    reported; ``z`` uses the binomial standard error of the expectation."""
    X, ks = md.check_dataset(X, ks)
    rng = check_random_state(rng)
    n = X.shape[0]
    out = []
    for prot in protocols:
        for eps in eps_grid:
            acc = np.array([_acc(prot, eps, k) for k in ks])
            P = simulate_smp_surveys(X, ks, prot, eps, n_surveys, "uniform", rng=rng)["profiles"][-1]
            known = P >= 0
            sim = float(np.mean(np.all((P == X) | ~known, axis=1)))
            ana = float(np.mean(np.prod(np.where(known, acc[None, :], 1.0), axis=1)))
            se = float(np.sqrt(ana * (1 - ana) / n))
            out.append(
                {
                    "protocol": prot,
                    "eps": eps,
                    "simulated": 100 * sim,
                    "Eq. 4": 100 * ana,
                    "z": (sim - ana) / se if se > 0 else 0.0,
                }
            )
    return out


@contract(X=Array(2, integer=True, low=0), ks=_KS, eps=_EPS, runs=Integer(2, 10**5), rng=RandomState())
def rsfd_theorems(X: Any, ks: Any, eps: float, runs: int, *, rng: Any = None) -> dict[str, float]:
    r"""Theorem 1 (unbiasedness of Eqs. 6, 7), Theorem 2 / Eqs. 8-9 (variance
    :math:`d^2\gamma(1-\gamma)/(n(p-q)^2)`) and the uniform-prior identity (RS+RFD = RS+FD), for
    RS+RFD[GRR] and RS+RFD[UE-r] (OUE) with correct priors, by the exact count-level sampler
    (:func:`~ldpnb.mechanisms.rsfd_counts_sampler`) over ``runs`` collections.

    Returns the largest ``|z|`` of the mean estimate, the variance ratio pooled over values
    (empirical / Eqs. 8-9) and the largest difference between the RS+RFD estimator with uniform
    priors and the RS+FD estimator on the same counts."""
    X, ks = md.check_dataset(X, ks)
    rng = check_random_state(rng)
    n, d = X.shape
    counts = [np.bincount(X[:, j], minlength=int(ks[j])) for j in range(d)]
    f = [c / n for c in counts]
    priors = make_priors("correct", ks, counts=counts, rng=rng)
    zmax, num, den, ident = 0.0, 0.0, 0.0, 0.0
    for prot in ("grr", "oue"):
        est = np.array(
            [
                np.concatenate(
                    md.rsfd_estimate_all(
                        md.rsfd_counts_sampler(counts, d, eps, prot, "prior", priors=priors, rng=rng),
                        n,
                        ks,
                        eps,
                        prot,
                        "prior",
                        priors=priors,
                        postprocess=None,
                    )
                )
                for _ in range(runs)
            ]
        )
        var = np.concatenate(
            [
                md.rsfd_variance(
                    f[j],
                    n,
                    d,
                    int(ks[j]),
                    *md.rsfd_params(prot, int(ks[j]), eps, d),
                    "grr" if prot == "grr" else "ue-r",
                    priors[j],
                )
                for j in range(d)
            ]
        )
        ft = np.concatenate(f)
        zmax = max(zmax, float(np.max(np.abs(est.mean(0) - ft) / np.sqrt(var / runs))))
        num += float(est.var(0, ddof=1).sum())
        den += float(var.sum())
        C = md.rsfd_counts_sampler(counts, d, eps, prot, "uniform" if prot == "grr" else "random", rng=rng)
        uni = [np.full(int(k), 1.0 / int(k)) for k in ks]
        a = md.rsfd_estimate_all(C, n, ks, eps, prot, "prior", priors=uni, postprocess=None)
        b = md.rsfd_estimate_all(C, n, ks, eps, prot, "uniform" if prot == "grr" else "random", postprocess=None)
        ident = max(ident, max(float(np.max(np.abs(x - y))) for x, y in zip(a, b)))
    return {"max_abs_z": zmax, "variance_ratio": num / den, "identity": ident}


@contract(eps=_EPS, k=Integer(2, 64), n=Integer(1, 10**7), rng=RandomState())
def tree_leaves(eps: float = 1.0, k: int = 4, n: int = 200_000, *, rng: Any = None) -> float:
    r"""Figs. 7-8: one user (tuple ``(0, 1, 2)``, ``d = 3``) runs RS+RFD[GRR] and RS+RFD[OUE-r] ``n``
    times with priors ``(0.4, 0.3, 0.2, 0.1)``; largest ``|z|`` between the empirical support
    frequencies and :math:`\gamma` of Eqs. 8-9 (:func:`~ldpnb.mechanisms.rsfd_support_probability`)."""
    rng = check_random_state(rng)
    d = 3
    pri = [np.linspace(0.4, 0.1, k) / np.linspace(0.4, 0.1, k).sum()] * d
    Xone = np.tile(np.arange(d) % k, (n, 1))
    dev = 0.0
    for prot in ("grr", "oue"):
        rep, _ = md.rsfd_collect(Xone, [k] * d, eps, prot, "prior", priors=pri, rng=rng)
        for j in range(d):
            emp = (np.bincount(rep[j], minlength=k) if prot == "grr" else rep[j].sum(0)) / n
            p, q = md.rsfd_params(prot, k, eps, d)
            g = md.rsfd_support_probability(
                np.eye(k)[Xone[0, j]], d, k, p, q, "grr" if prot == "grr" else "ue-r", pri[j]
            )
            dev = max(dev, float(np.max(np.abs(emp - g) / np.sqrt(g * (1 - g) / n))))
    return dev


@contract(
    n=Integer(2, 1 << 40),
    ks=Array(1, integer=True, low=2, high=_MAX_UE_K, max_size=100),
    eps_grid=Array(1, low=0, low_open=True, high=50, max_size=100),
)
def pie_capacity_gap(
    n: int, ks: Sequence[int] = (2, 3, 5), eps_grid: Sequence[float] = (0.25, 0.5, 1.0, 2.0, 4.0)
) -> float:
    r"""Prop. 3 (App. C.1): ε-LDP ⇒ (U, α)-PIE with :math:`\alpha = \min\{\epsilon\log_2 e, \epsilon^2\log_2 e,
    \log_2 n, \log_2 k\}`; by data processing it suffices that the randomiser's capacity be ≤ α.
    Returns the largest ``capacity − bound`` (bits) over GRR, SUE, OUE (and GRR's :math:`\lambda\log_2 k`,
    :math:`\lambda = (e^\epsilon-1)/(e^\epsilon+k-1)`)."""
    from ldpnb import measures  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)
    from ldpnb.mechanisms import grr_channel, ue_channel  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    worst = -np.inf
    for k in ks:
        for e in eps_grid:
            alpha, lam = measures.pie_alpha_from_ldp(e, n, k), np.expm1(e) / (np.exp(e) + k - 1)
            caps = [
                measures.channel_capacity(C, unit="bits", tol=1e-10)[0]
                for C in (grr_channel(k, e), ue_channel(k, e, "sue"), ue_channel(k, e, "oue"))
            ]
            worst = max(worst, max(caps) - alpha, caps[0] - lam * np.log2(k))
    return float(worst)


@contract(
    ns=Array(1, integer=True, low=2, high=1 << 12, max_size=100),
    ks=Array(1, integer=True, low=2, high=_MAX_UE_K, max_size=100),
    eps_grid=Array(1, low=0, low_open=True, high=50, max_size=100),
)
def corollary2_gap(
    ns: Sequence[int] = (4, 16, 64),
    ks: Sequence[int] = (2, 3, 5),
    eps_grid: Sequence[float] = (0.25, 1.0, 2.0, 4.0, 8.0),
) -> float:
    r"""Corollary 2 (App. C.1, Eq. 11): if :math:`U` is uniform over :math:`n` users and the mechanism gives
    :math:`I(U;Y) \le \alpha` bits, the Bayes error of guessing :math:`U` from :math:`Y` is
    :math:`\beta_{U|S} \ge 1 - (\alpha+1)/\log_2 n` (Fano's inequality).

    Exact check with :math:`\alpha = I(U;Y)`: user :math:`u` holds value :math:`v_u` (round-robin over the
    :math:`k` values, or half of the users on value 0), reports :math:`Y \sim C[v_u, \cdot]` for the GRR,
    SUE and OUE channels :math:`C`; :math:`\beta = 1 - \frac1n\sum_y \max_u C[v_u, y]` and
    :math:`I(U;Y) = H(Y) - \frac1n\sum_u H(C[v_u,\cdot])`.  Returns the largest
    :math:`1 - (I+1)/\log_2 n - \beta` over the grid (≤ 0 when the corollary holds).

    >>> corollary2_gap(ns=(8,), ks=(3,), eps_grid=(2.0,)) <= 0
    True
    """
    from ldpnb.mechanisms import grr_channel, ue_channel  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    def h(p):
        p = p[p > 0]
        return float(-(p * np.log2(p)).sum())

    worst = -np.inf
    for n in ns:
        for k in ks:
            for e in eps_grid:
                for C in (
                    np.asarray(grr_channel(k, e)),
                    np.asarray(ue_channel(k, e, "sue")),
                    np.asarray(ue_channel(k, e, "oue")),
                ):
                    for v in (np.arange(n) % k, np.where(np.arange(n) < n // 2, 0, np.arange(n) % k)):
                        rows = C[v]  # (n, outputs): P(y | u)
                        beta = 1.0 - rows.max(axis=0).sum() / n
                        info = h(rows.mean(axis=0)) - float(np.mean([h(r) for r in rows]))
                        worst = max(worst, 1.0 - (info + 1.0) / np.log2(n) - beta)
    return float(worst)


@contract(
    ks=Array(1, integer=True, low=2, high=1 << 20, max_size=64),
    n=Integer(1, 1 << 40),
    eps_grid=Array(1, low=0, max_size=1000),
    draws=Integer(1, 10**5),
    rng=RandomState(),
)
def prior_variance_check(ks: Any, n: int, eps_grid: Any, draws: int, *, rng: Any = None) -> dict[str, Any]:
    """App. E.1: RS+RFD's averaged approximate variance against RS+FD's for ``draws`` DIR, ZIPF and EXP
    priors, every ε and protocol: the number of violations of RS+RFD ≤ RS+FD, the number of cases, and
    the ratios RS+RFD[GRR] / RS+FD[GRR] under ZIPF priors."""
    rng = check_random_state(rng)
    viol, cases, zipf = 0, 0, []
    for kind in ("dir", "zipf", "exp"):
        for _ in range(draws):
            pri = make_priors(kind, ks, rng=rng)
            for e in eps_grid:
                for prot, fk in (("grr", "uniform"), ("sue", "random"), ("oue", "random")):
                    a = md.rsfd_approx_variance(ks, n, e, prot, fk)
                    b = md.rsfd_approx_variance(ks, n, e, prot, "prior", priors=pri)
                    viol, cases = viol + int(b > a * (1 + 1e-12)), cases + 1
                    zipf += [b / a] if (kind, prot) == ("zipf", "grr") else []
    return {"violations": viol, "cases": cases, "zipf_ratios": zipf}


@contract(eps=_EPS)
def privacy_table(eps: float = 1.0) -> list[dict[str, Any]]:
    """Sec. 2.3.2 / 5.1: the exact tuple channels of RS+FD, RS+RFD and SMP on small domains
    (:class:`~ldpnb.mechanisms.RSFD`, :class:`~ldpnb.mechanisms.RSRFD`, :class:`~ldpnb.mechanisms.SMP`):
    tight level, the object's claim and, for RS+FD/RS+RFD, the level over tuples differing in one
    attribute.  The first row is RS+FD[GRR] on k = (2, 2)."""
    from ldpnb.mechanisms import RSFD, RSRFD, SMP  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    cases = [
        RSFD((2, 2), eps, "GRR"),
        RSFD((2, 2, 2), eps, "GRR"),
        RSFD((2, 5), eps, "GRR"),
        RSFD((2, 3), eps, "OUE-r"),
        RSFD((2, 3), eps, "SUE-z"),
        RSRFD((3, 3), [[0.8, 0.15, 0.05], [0.6, 0.3, 0.1]], eps, "grr"),
        SMP((2, 3), eps, "oue"),
    ]
    out = []
    for m in cases:
        kind = getattr(m, "variant", getattr(m, "protocol", ""))
        out.append(
            {
                "mechanism": f"{m.family}[{kind}]",
                "k": str(m.ks),
                "tight level": m.tight_level(),
                "claim": m.guarantee.epsilon,
                "eps'": float(md.amplified_epsilon(eps, m.d)),
                "one attribute differs": m.neighbour_level() if isinstance(m, RSFD) else np.nan,
            }
        )
    return out


@contract(res=Instance(dict, example={}), new=Instance(str, example="a"), old=Instance(str, example="b"))
def pooled_mse_ratio(res: dict, new: str, old: str) -> float:
    """MSE of method ``new`` over that of ``old`` (labels of
    :func:`~ldpnb.papers.risks.experiments.rsfd_mse_experiment`), each summed over ε and averaged over
    the runs: below 1 when ``new`` has the lower error overall (Figs. 5, 16)."""
    return float(np.sum(res["mse"][new], axis=1).mean() / np.sum(res["mse"][old], axis=1).mean())


@contract(analytic=Instance(dict, example={}), protocol=Instance(str, example="GRR"))
def rfd_expected_lower(analytic: dict, protocol: str) -> bool:
    """Whether RS+RFD's expected MSE is below RS+FD's at every ε for ``protocol`` (label part, e.g.
    ``"SUE-r"``), from the exact expectations ``analytic`` of ``rsfd_mse_experiment``."""
    return bool(
        np.all(np.mean(analytic[f"RS+RFD[{protocol}]"], axis=0) < np.mean(analytic[f"RS+FD[{protocol}]"], axis=0))
    )


@contract(res=Instance(dict, example={}), protocol=Instance(str, example="GRR"))
def expected_mse_ratio(res: dict, protocol: str) -> np.ndarray:
    """RS+RFD's exact expected MSE over RS+FD's, per ε (mean over the runs' priors), for ``protocol`` (label
    part, e.g. ``"OUE-r"``) of one ``rsfd_mse_experiment`` result."""
    an = res["analytic"]
    return np.mean(an[f"RS+RFD[{protocol}]"], axis=0) / np.mean(an[f"RS+FD[{protocol}]"], axis=0)
