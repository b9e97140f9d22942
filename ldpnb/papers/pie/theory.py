"""PIE paper (Murakami and Takahashi 2021): the propositions and theorems of Sections 3-4 checked
exactly on random small instances, and Thm 3.2 / Prop. 3.7 with Gaussian scores.
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np
from scipy import special

from ldpnb import stats as S
from ldpnb.contracts import MAX_REPS, SEED, Array, Instance, Integer, Real, contract
from ldpnb.measures.reidentification import (
    LOG2E,
    alpha_glh,
    alpha_ldp_generic,
    alpha_rr,
    alpha_star_rr,
    bayes_error_posterior,
    bayes_error_prior,
    composed_joint,
    conditional_mutual_information,
    fano_lower_bound,
    joint_uy,
    mi_ldp_bound,
    mi_ux,
    pie,
    score_joint,
    theta_glh,
    theta_rr,
)
from ldpnb.stats import Estimate
from ldpnb.utils import check_random_state

__all__ = [
    "gaussian_score_mc",
    "gaussian_score_mi",
    "gap_estimates",
    "fano_slack",
    "fano_bound_estimate",
    "slack_ratio_estimate",
    "ldp_levels",
    "lower_bound_slack_ratio",
    "random_ldp_channel",
    "theorem_checks",
]


@contract(n=Integer(2, 10**7), d=Real(-40, 40), reps=Integer(2, MAX_REPS), rng=SEED)
def gaussian_score_mc(n: int, d: float, reps: int, *, rng=None) -> dict:
    r"""Monte Carlo of Prop. 3.7 with Gaussian scores: :math:`I(U;\mathbf S)`, Bayes error, best-score error.

    The genuine score is :math:`N(d, 1)`, the :math:`n-1` impostor scores :math:`N(0, 1)`, :math:`U`
    uniform.  The likelihood ratio is :math:`L(s) = e^{ds - d^2/2}` and the posterior
    :math:`\Pr(U = 1\mid\mathbf s) = L(s_1)/\sum_j L(s_j)`, so

    .. math:: I(U;\mathbf S) = \mathbb E\left[\log_2 \frac{n L(s_1)}{\sum_j L(s_j)}\right],\qquad
              \beta_{U|\mathbf S} = 1 - \mathbb E[\max_j \Pr(U=j\mid\mathbf s)].

    Returns ``dict(mi_bits, mi_se, bayes_error, bayes_se, best_score_error, d_bits, samples)`` with
    ``d_bits`` :math:`= D(f_G\|f_I) = d^2/(2\ln 2)` and ``samples`` the per-run values (``mi`` in
    bits, ``posterior_max``, ``top``: whether the best score is the genuine one).  For :math:`I(U;\mathbf S)` alone,
    :func:`gaussian_score_mi` has a 3-10 times smaller standard error.
    """
    _check_work(n, reps)
    rng = check_random_state(rng)
    mi, post_max, top = np.empty(reps), np.empty(reps), np.empty(reps)
    block = max(1, int(2e6 // n))
    for start in range(0, reps, block):
        r = min(block, reps - start)
        s = rng.standard_normal((r, n))
        s[:, 0] += d
        ll = d * s - d * d / 2
        lse = special.logsumexp(ll, axis=1)
        mi[start : start + r] = (math.log(n) + ll[:, 0] - lse) * LOG2E
        post_max[start : start + r] = np.exp(ll.max(axis=1) - lse)
        top[start : start + r] = np.argmax(s, axis=1) == 0
    return dict(
        mi_bits=float(mi.mean()),
        mi_se=float(mi.std(ddof=1) / math.sqrt(reps)),
        bayes_error=float(1 - post_max.mean()),
        bayes_se=float(post_max.std(ddof=1) / math.sqrt(reps)),
        best_score_error=float(1 - top.mean()),
        d_bits=d * d / 2 * LOG2E,
        samples=dict(mi=mi, posterior_max=post_max, top=top.astype(bool)),
    )


@contract(n=Integer(2, 10**7), d=Real(-40, 40), reps=Integer(2, MAX_REPS), rng=SEED)
def gaussian_score_mi(n: int, d: float, reps: int, *, rng=None) -> dict:
    r""":math:`I(U;\mathbf S)` for Gaussian scores (Thm 3.2) with a control variate: ``dict(mi, se, D, gap)`` in bits.

    Same model as :func:`gaussian_score_mc`.  Since :math:`\mathbb E[\log L(s_1)] = D = d^2/2`
    nats exactly,

    .. math:: I(U;\mathbf S) = D - \mathbb E\Big[\log\frac{1}{n}\sum_{j=1}^n L(s_j)\Big],

    and only the second term is estimated: the variance :math:`d^2` of :math:`\log L(s_1)`, which
    dominates the plain estimator, is removed.  ``gap`` :math:`= D - I(U;\mathbf S) \ge 0` is the
    distance to the limit of Thm 3.2 (Eq. 7), ``se`` its standard error, ``samples`` the per-run
    values whose mean is ``gap`` (bits).
    """
    _check_work(n, reps)
    rng = check_random_state(rng)
    vals = np.empty(reps)
    block = max(1, int(2e6 // n))
    for start in range(0, reps, block):
        r = min(block, reps - start)
        s = rng.standard_normal((r, n))
        s[:, 0] += d
        vals[start : start + r] = special.logsumexp(d * s - d * d / 2, axis=1) - math.log(n)
    D = d * d / 2 * LOG2E
    gap = float(vals.mean() * LOG2E)
    return dict(mi=D - gap, se=float(vals.std(ddof=1) / math.sqrt(reps) * LOG2E), D=D, gap=gap, samples=vals * LOG2E)


#: Largest number of Gaussian scores (n x runs) a Monte Carlo of Thm 3.2 may draw: minutes, not hours.
MAX_GAUSS_WORK = 1 << 33


def _check_work(n: int, reps: int) -> None:
    if n * reps > MAX_GAUSS_WORK:
        raise ValueError(f"n * reps must be at most {MAX_GAUSS_WORK} scores, got {n} * {reps} = {n * reps}")


@contract(gmi=Instance(dict, example={2.0: [{"samples": np.ones(3), "D": 2.9}] * 4}))
def gap_estimates(gmi: Mapping[float, Sequence[dict]]) -> dict:
    r"""Thm 3.2's convergence as estimates, from :func:`gaussian_score_mi` results ``gmi[d][i]`` at
    the sizes :math:`n = 10^2, 10^3, 10^4, 10^5` (``i = 0..3``; the cells are the ``d``).

    Returns ``gaps`` (the mean gap :math:`D - I_n` at the first three sizes, named ``n1e2``,
    ``n1e3``, ``n1e4``: :func:`ldpnb.stats.mean`), ``drops`` (the Welch differences of independent
    runs ``"n1e2 - n1e3"`` and ``"n1e3 - n1e4"``, simultaneous over the cells) and ``relative_last``
    (the mean of :math:`(D - I_n)/D` at the last size, simultaneous over the cells).

    Examples
    --------
    >>> g = {d: [gaussian_score_mi(n, d, 50, rng=1) for n in (100, 1000, 10_000, 100_000)] for d in (2.0,)}
    >>> ev = gap_estimates(g)
    >>> sorted(ev["gaps"]), sorted(ev["drops"]), ev["relative_last"].shape
    (['n1e2', 'n1e3', 'n1e4'], ['n1e2 - n1e3', 'n1e3 - n1e4'], (1,))
    """
    ds = list(gmi)
    if any(len(gmi[d]) != 4 for d in ds):
        raise ValueError("gmi[d] must hold the results at n = 1e2, 1e3, 1e4, 1e5")
    runs = [np.column_stack([gmi[d][i]["samples"] for d in ds]) for i in range(4)]
    names = ["n1e2", "n1e3", "n1e4"]
    D = np.array([gmi[d][0]["D"] for d in ds])
    return dict(
        gaps={nm: S.mean(r, simultaneous=True) for nm, r in zip(names, runs)},
        drops={f"{names[i]} - {names[i + 1]}": S.difference(runs[i], runs[i + 1], simultaneous=True) for i in range(2)},
        relative_last=S.mean(runs[3] / D, simultaneous=True),
    )


@contract(
    results=Instance(list, tuple, example=[{"samples": {"mi": np.ones(3), "posterior_max": np.ones(3)}}]),
    ns=Instance(list, tuple, example=(100,)),
)
def fano_slack(results: Sequence[dict], ns: Sequence[int]) -> Estimate:
    r"""Prop. 3.7 on the Monte Carlo of :func:`gaussian_score_mc`: per result (cell), the mean over
    runs of the run's Bayes error minus the Fano bound of Eq. (10) of its own information,
    :math:`(1 - \max_j \Pr(U = j\mid\mathbf s)) - (1 - (I + 1)/\log n)` (the bound is linear in
    :math:`I`, so the runs are paired), Hall's interval simultaneous over the cells.

    Examples
    --------
    >>> r = gaussian_score_mc(100, 2.0, 200, rng=1)
    >>> bool(fano_slack([r], [100]).low[0] > 0)
    True
    """
    if len(results) != len(ns):
        raise ValueError("one n per result")
    # Eq. (10) written out: a run's information (log n L(s_1)/sum L) may be negative, its mean is not
    runs = np.column_stack(
        [
            (1 - r["samples"]["posterior_max"]) - (1 - (r["samples"]["mi"] + 1) / math.log2(n))
            for r, n in zip(results, ns)
        ]
    )
    return S.mean(runs, simultaneous=True)


@contract(k=Integer(2, 4096), m=Integer(1, 4096), epsilon=Real(0, 700, low_open=True), rng=SEED)
def random_ldp_channel(k: int, m: int, epsilon: float, *, rng=None) -> np.ndarray:
    r"""A random LDP channel: :math:`Q(y|x) \propto w_y e^{\varepsilon b_{xy}}`, :math:`b_{xy} \in \{0, 1\}`.

    Unnormalised rows differ by a factor of at most :math:`e^\varepsilon` per column and the row
    normalisation can add another :math:`e^\varepsilon`, so the channel is at most
    :math:`2\varepsilon`-LDP; the checks of Lemma B.2 and Prop. 4.1 measure its tight ε with
    :func:`ldpnb.channels.ldp_epsilon`.
    """
    rng = check_random_state(rng)
    w = rng.dirichlet(np.ones(m))
    b = rng.integers(0, 2, size=(k, m))
    Q = w[None, :] * np.exp(epsilon * b)
    return Q / Q.sum(axis=1, keepdims=True)


# ---------------------------------------------------------------------------------------------
# Random-instance verification of the paper's propositions and theorems
# ---------------------------------------------------------------------------------------------


@contract(draws=Integer(1, 1 << 16), rng=SEED, tol=Real(0, 1))
def theorem_checks(draws: int = 300, *, rng=None, tol: float = 1e-10) -> "list[dict]":
    r"""Every proposition and theorem of Sections 3-4 on ``draws`` random small instances, exactly.

    Instances: :math:`n, k \in [2, 6]`, :math:`\varepsilon \sim U(0.01, 6)`, :math:`p_U \sim`
    Dirichlet(1), rows of :math:`p_{X|U} \sim` Dirichlet(c) with :math:`c \sim U(0.1, 3)`; random
    channels for Thms 3.5/3.6; random LDP channels (:func:`random_ldp_channel`, tight ε measured)
    for Lemma B.2 and Prop. 4.1; the explicit GLH channel with the fully random hash family
    (:func:`ldpnb.mechanisms.lh_channel`, :math:`k \le 4`, :math:`g \le 3`) for Thms 4.4 and 4.5;
    two correlated reports, :math:`p(x_1, x_2 \mid u) \sim` Dirichlet(0.3), for Thms 4.3 and 4.5.
    Every quantity is a finite sum (no sampling).  An inequality ``lhs <= rhs`` is violated when it
    fails by more than ``tol`` bits.

    Returns one dict per statement: ``name``, ``statement``, ``checks``, ``violations``,
    ``max_excess`` (the largest ``lhs - rhs``: how close the worst instance comes to a violation;
    for an equality, the largest ``|lhs - rhs|``), ``max_ratio`` (the largest ``lhs/rhs`` over the
    instances with ``rhs > 0``: how tight the bound is; ``None`` for an equality) and ``positive`` (instances with
    ``lhs > 0``: for Prop. 3.7, where the Fano bound is not vacuous).
    """
    from ldpnb.channels import ldp_epsilon  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)
    from ldpnb.measures.information import mutual_information_joint  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)
    from ldpnb.mechanisms import grr_channel, lh_channel  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    rng = check_random_state(rng)
    mij = lambda J: float(mutual_information_joint(J, unit="bits"))  # noqa: E731
    rows: dict[str, dict] = {}

    def rec(name, statement, lhs, rhs, equality=False):
        r = rows.setdefault(
            name,
            dict(
                name=name, statement=statement, checks=0, violations=0, max_excess=-math.inf, max_ratio=None, positive=0
            ),
        )
        excess = abs(lhs - rhs) if equality else lhs - rhs
        r["checks"] += 1
        r["violations"] += int(excess > tol)
        r["max_excess"] = max(r["max_excess"], excess)
        r["positive"] += int(lhs > 0)
        if not equality and rhs > 1e-12:
            r["max_ratio"] = lhs / rhs if r["max_ratio"] is None else max(r["max_ratio"], lhs / rhs)

    def inst(n=None, k=None):
        n = n or int(rng.integers(2, 7))
        k = k or int(rng.integers(2, 7))
        p_u = rng.dirichlet(np.ones(n))
        P = rng.dirichlet(np.full(k, rng.uniform(0.1, 3)), size=n)
        return n, k, p_u, P

    for _ in range(draws):
        n, k, p_u, P = inst()
        eps = rng.uniform(0.01, 6)
        m = int(rng.integers(2, 7))
        # Prop 3.3: likelihood scores are sufficient; a coarse score loses information
        Q = grr_channel(k, eps)
        J = joint_uy(p_u, P, Q)
        i_y = mij(J)
        rec("Prop 3.3 (=)", "I(U;S) = I(U;Y) for likelihood scores", mij(score_joint(J, P @ Q)), i_y, equality=True)
        coarse = (np.arange(k)[None, :] == P.argmax(axis=1)[:, None]).astype(float)
        rec("Prop 3.3 (<=)", "I(U;S) <= I(U;Y) for a coarse score", mij(score_joint(J, coarse)), i_y)
        # Thm 3.5 post-processing; Thm 3.6 convexity; Prop 3.10
        Q1 = rng.dirichlet(np.full(m, rng.uniform(0.2, 2)), size=k)
        Q2 = rng.dirichlet(np.full(m, rng.uniform(0.2, 2)), size=k)
        L = rng.dirichlet(np.ones(int(rng.integers(2, 6))), size=m)
        i1, i2 = pie(p_u, P, Q1), pie(p_u, P, Q2)
        rec("Thm 3.5", "I(U; lambda(Y)) <= I(U;Y)", pie(p_u, P, Q1 @ L), i1)
        w = float(rng.uniform())
        rec(
            "Thm 3.6",
            "I(U;Y_w) <= w I(U;Y_1) + (1-w) I(U;Y_2)",
            pie(p_u, P, w * Q1 + (1 - w) * Q2),
            w * i1 + (1 - w) * i2,
        )
        p_x = p_u @ P
        rec("Prop 3.10", "I(U;Y) <= min{I(U;X), I(X;Y)}", i1, min(mi_ux(p_u, P), mij(p_x[:, None] * Q1)))
        # Prop 3.7 on a random discrete joint with a non-uniform prior
        nn, mm = int(rng.integers(2, 9)), int(rng.integers(2, 9))
        Jr = rng.dirichlet(np.full(nn * mm, rng.uniform(0.1, 2))).reshape(nn, mm)
        fano = fano_lower_bound(mij(Jr), beta_u=bayes_error_prior(Jr.sum(axis=1)))
        rec("Prop 3.7", "beta_{U|S} >= 1 + (I(U;S)+1)/log(1-beta_U)", fano, bayes_error_posterior(Jr))
        # Lemma B.2 and Prop 4.1 on a random LDP channel (its tight eps measured)
        Qr = random_ldp_channel(k, m, eps / 2, rng=rng)
        eps_r = ldp_epsilon(Qr)
        rec(
            "Lemma B.2", "I(X;Y) <= min{eps, eps^2} log e (eps-LDP)", mij(p_x[:, None] * Qr), float(mi_ldp_bound(eps_r))
        )
        rec(
            "Prop 4.1",
            "I(U;Y) <= min{eps log e, eps^2 log e, log n, log k}",
            pie(p_u, P, Qr),
            float(alpha_ldp_generic(eps_r, n, k)),
        )
        # Thm 4.2
        th = theta_rr(k, eps)
        rec("Thm 4.2 (Eq. 15)", "I(U;Y) <= theta_RR I(U;X) (eps-RR)", i_y, th * mi_ux(p_u, P))
        rec(
            "Thm 4.2 (Eq. 16)",
            "alpha*(RR, n) <= theta_RR min{log n, log k}",
            alpha_star_rr(n, k, eps),
            float(alpha_rr(eps, n, k)),
        )
        # Thm 4.3 (t = 2, correlated reports)
        kk = int(rng.integers(2, 5))
        p3 = p_u[:, None, None] * rng.dirichlet(np.full(kk * kk, 0.3), size=n).reshape(n, kk, kk)
        Qk = grr_channel(kk, eps)
        thk = theta_rr(kk, eps)
        i12 = mij(composed_joint(p3, Qk, Qk).reshape(n, -1))
        rhs34 = thk * (mij(p3.sum(axis=2)) + conditional_mutual_information(np.einsum("uab,ay->uyb", p3, Qk)))
        rec("Thm 4.3 (Eq. 34)", "I(U;Y1,Y2) <= theta [I(U;X1) + I(U;X2|Y1)] (RR)", i12, rhs34)
        rec("Thm 4.3", "I(U;Y1,Y2) <= 2 theta_RR min{log n, log k}", i12, float(alpha_rr(eps, n, kk, t=2)))
        # Thm 4.4 / 4.5 with the explicit fully random hash family
        kg, g = int(rng.integers(2, 5)), int(rng.integers(2, 4))
        C = lh_channel(kg, g, eps)
        _, _, pu_g, Pg = inst(n=n, k=kg)
        thg = theta_glh(g, eps)
        ig = pie(pu_g, Pg, C)
        rec("Thm 4.4 (Eq. 17)", "I(U;H,Y) <= theta_GLH I(U;X) (GLH, fully random H)", ig, thg * mi_ux(pu_g, Pg))
        rec("Thm 4.4 (Eq. 18)", "I(U;H,Y) <= theta_GLH min{log n, log k}", ig, float(alpha_glh(eps, n, kg, g)))
        if True:  # two GLH reports: the joint has g^(2k+2) outputs (at most 3^10)
            pg3 = pu_g[:, None, None] * rng.dirichlet(np.full(kg * kg, 0.3), size=n).reshape(n, kg, kg)
            i2g = mij(composed_joint(pg3, C, C).reshape(n, -1))
            rhs = thg * (mij(pg3.sum(axis=2)) + conditional_mutual_information(np.einsum("uab,ay->uyb", pg3, C)))
            rec("Thm 4.5 (Eq. 42)", "I(U;Y1,Y2) <= theta_GLH [I(U;X1) + I(U;X2|Y1)] (GLH)", i2g, rhs)
            rec(
                "Thm 4.5",
                "I(U;Y1,Y2) <= 2 theta_GLH min{log n, log k} (GLH)",
                i2g,
                float(alpha_glh(eps, n, kg, g, t=2)),
            )
    return list(rows.values())


@contract(eps=Instance(tuple, list, example=(1.0,)))
def ldp_levels(eps=(0.1, 1.0, 2.5, 5.0)) -> dict:
    r"""The smallest ε of the ε-RR and the (g, ε)-GLH channels (Sec. 2.2: both "provide ε-LDP").

    The smallest ε of a channel :math:`Q` is :math:`\max_y \ln(\max_x Q(y|x)/\min_x Q(y|x))`
    (:func:`ldpnb.channels.ldp_epsilon`).  RR: :math:`k \in \{2, 5, 50\}`; GLH: the explicit
    channel of the fully random hash family (:func:`ldpnb.mechanisms.lh_channel`),
    :math:`(k, g) \in \{(3, 2), (4, 3)\}`.  Returns ``ldp_rr``, ``eps_rr``, ``ldp_glh``,
    ``eps_glh`` (the channels' levels and the ε they were built with).

    Examples
    --------
    >>> r = ldp_levels((1.0,))
    >>> bool(np.allclose(r["ldp_rr"], 1.0) and np.allclose(r["ldp_glh"], 1.0))
    True
    """
    from ldpnb.channels import ldp_epsilon  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)
    from ldpnb.mechanisms import grr_channel, lh_channel  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    rr = [(k, float(e)) for k in (2, 5, 50) for e in eps]
    glh = [(k, g, float(e)) for k, g in ((3, 2), (4, 3)) for e in eps]
    return dict(
        ldp_rr=np.array([ldp_epsilon(grr_channel(k, e)) for k, e in rr]),
        eps_rr=np.array([e for _, e in rr]),
        ldp_glh=np.array([ldp_epsilon(lh_channel(k, g, e)) for k, g, e in glh]),
        eps_glh=np.array([e for _, _, e in glh]),
    )


@contract(pse=Array(1, low=0), alpha_thm=Array(1, low=0), alpha_generic=Array(1, low=0), n=Integer(2, 2**53))
def lower_bound_slack_ratio(pse, alpha_thm, alpha_generic, n: int) -> np.ndarray:
    r"""How much tighter the lower bound from a theorem's α is than the one from Prop. 4.1 (Fig. 9).

    With :math:`\mathrm{LB}(a) = 1 - (a + 1)/\log n` (Eqs. 10, 12) and
    :math:`\mathrm{LB}^+ = \max(\mathrm{LB}, 0)` (a negative bound says nothing), the gap below the
    PSE's bound that the paper attributes to the gap between the PSE and α (Sec. 5.3) shrinks by

    .. math:: \frac{\mathrm{LB}(\mathrm{PSE}) - \mathrm{LB}^+(\alpha_{4.1})}
                    {\mathrm{LB}(\mathrm{PSE}) - \mathrm{LB}^+(\alpha_{\mathrm{Thm}})}.

    Without the clipping this is :math:`(\alpha_{4.1} - \mathrm{PSE})/(\alpha_{\mathrm{Thm}} - \mathrm{PSE})`;
    it is 1 where both α bounds exceed :math:`\log n - 1`, and NaN (0/0) where the theorem's bound
    equals the PSE's.

    Examples
    --------
    >>> lower_bound_slack_ratio(np.array([0.0]), np.array([1.0]), np.array([10.0]), 2**20)
    array([10.])
    """
    pse, a_t, a_g = (np.asarray(v, dtype=float) for v in (pse, alpha_thm, alpha_generic))
    if not (pse.shape == a_t.shape == a_g.shape):
        raise ValueError("pse, alpha_thm and alpha_generic must have the same shape")
    lb_pse = fano_lower_bound(pse, n)
    return (lb_pse - np.maximum(fano_lower_bound(a_g, n), 0)) / (lb_pse - np.maximum(fano_lower_bound(a_t, n), 0))


@contract(pse=Instance(Estimate, example=Estimate(1.0, 0.9, 1.1, method="t", n_runs=8)), n=Integer(2, 2**53))
def fano_bound_estimate(pse: Estimate, n: int) -> Estimate:
    r"""The lower bound of Eq. (10), :math:`1 - (\mathrm{PSE} + 1)/\log n`, of an estimated PSE: a
    decreasing linear map, so the interval maps end to end (standard error over :math:`\log n`).

    Examples
    --------
    >>> from ldpnb.stats import from_se
    >>> e = fano_bound_estimate(from_se([1.0], [0.1]), 1024)
    >>> round(float(e.value[0]), 3), round(float(e.se[0]), 3)
    (0.8, 0.01)
    """
    L = math.log2(n)
    f = lambda x: 1 - (np.asarray(x, dtype=float) + 1) / L  # noqa: E731
    se = None if pse.se is None else np.asarray(pse.se, dtype=float) / L
    return Estimate(
        f(pse.value),
        f(pse.high),
        f(pse.low),
        level=pse.level,
        se=se,
        n_runs=pse.n_runs,
        method=pse.method,
        simultaneous=pse.simultaneous,
        note="Eq. (10) of the PSE's interval",
    )


@contract(
    pse=Instance(Estimate, example=Estimate([1.0], [0.9], [1.1], method="t", n_runs=8)),
    alpha_thm=Array(1, low=0),
    alpha_generic=Array(1, low=0),
    n=Integer(2, 2**53),
)
def slack_ratio_estimate(pse: Estimate, alpha_thm, alpha_generic, n: int) -> Estimate:
    """:func:`lower_bound_slack_ratio` of an estimated PSE: evaluated at the ends of the PSE's
    interval (clipped at 0), the ratio's interval is their span (the ratio is monotone in the PSE
    where the PSE lies below the theorem's α, Fig. 9's case).

    Examples
    --------
    >>> from ldpnb.stats import from_se
    >>> e = slack_ratio_estimate(from_se([0.1], [0.01]), np.array([1.0]), np.array([10.0]), 2**20)
    >>> bool(e.low[0] <= e.value[0] <= e.high[0])
    True
    """

    def r(x):
        return lower_bound_slack_ratio(np.maximum(np.asarray(x, dtype=float), 0.0), alpha_thm, alpha_generic, n)

    ends = np.vstack([r(pse.low), r(pse.high)])
    return Estimate(
        r(pse.value),
        ends.min(0),
        ends.max(0),
        level=pse.level,
        n_runs=pse.n_runs,
        method=pse.method,
        simultaneous=pse.simultaneous,
        note="Fig. 9's slack ratio at the ends of the PSE's interval",
    )
