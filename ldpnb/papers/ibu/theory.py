r"""Theory of ElSalamouny and Palamidessi, *On the consistency and performance of the iterative Bayesian
update* (arXiv 2508.09980; "the paper" below), as computable objects.

Contents (the paper's reference in brackets):

* the log-likelihood surface over the 3-simplex [eqs. (1)-(2), Figs. 3 and 5];
* the GF(2) rank [Lemma 4.5] and Rappor's strict-concavity bound and its Monte Carlo [Lemma 4.4,
  Thm 4.6, Fig. 4];
* an observation set that makes :math:`L` strictly concave [Thm 6.1 (ii)];
* the dominance bounds of the untruncated geometric mechanism [Prop. 6.3] and the convergence of the
  MLE [Props. 6.2, 6.3];
* the exact expected squared error of raw matrix inversion under k-RR and the truncated geometric
  mechanism, the bounds of Props. 7.1 and 7.2, and their check over sampled :math:`(k, \varepsilon,
  \theta)` [Sec. 7.6];
* the expected size of the k-RR likely subset [Prop. 8.4, Sec. 8.4].

Channels have rows = inputs, columns = outputs; the normalised log-likelihood is
:math:`\ell(\phi) = \sum_z q_z \log(\phi M)_z` (:math:`L = n\ell`); randomness only through ``rng``.
"""

from __future__ import annotations

import numpy as np

from ldpnb.channels._generic import simulate_counts_batch
from ldpnb.contracts import (
    MAX_BYTES,
    POSITIVE,
    SAMPLE_SIZE,
    AnyOf,
    Array,
    Channel,
    Distribution,
    Integer,
    NonnegativeMatrix,
    OneOf,
    Optional,
    RandomState,
    Real,
    Unchecked,
    contract,
)
from ldpnb.estimators._ibu import ibu_rows
from ldpnb.estimators._inversion import _rappor_p
from ldpnb.estimators._likelihood import _loglik, is_strictly_concave, observation_matrix
from ldpnb.mechanisms.metric import untruncated_geometric_matrix, untruncated_geometric_perturb
from ldpnb.utils import check_random_state

__all__ = [
    "simplex_grid",
    "loglik_surface",
    "gf2_rank",
    "gf2_rank_batch",
    "rappor_bits_likelihood",
    "rappor_concavity_lower_bound",
    "rappor_concavity_frequencies",
    "geometric_dominance_bounds",
    "inv_krr_exact_sq_error",
    "inv_krr_upper_bound",
    "inv_geometric_lower_bound",
    "truncated_geometric_inverse",
    "inv_geometric_exact_sq_error",
    "inv_bound_sampling",
    "identifying_observations",
    "consistency_errors",
    "consistency_error",
    "krr_likely_fraction",
    "square_lattice_delta",
    "loglog_slope",
    "line_mechanism_matrix",
    "line_mechanism_perturb",
    "distance_monotonicity_violations",
]

_EPS = Real(0, 50, low_open=True)
_N = POSITIVE
_K = Integer(2, 1 << 14)
#: IBU updates a caller may ask for (an iteration count, bounded so that a run cannot hang).
_ITER = Integer(1, 10**7)


@contract(resolution=Integer(2, 4001))
def simplex_grid(resolution: int = 201):
    """Points of the 3-simplex on a regular grid in ``(theta_1, theta_3)`` (paper's Figs. 3, 5).

    Returns ``(t1, t3, thetas, inside)``: 2-D meshes of ``theta_1`` and ``theta_3`` in [0, 1],
    the stacked distributions ``(res, res, 3)`` with ``theta_2 = 1 - theta_1 - theta_3`` and the
    mask of points inside the simplex.
    """
    g = np.linspace(0.0, 1.0, resolution)
    t1, t3 = np.meshgrid(g, g, indexing="xy")
    t2 = 1.0 - t1 - t3
    inside = t2 >= -1e-12
    thetas = np.stack([t1, np.clip(t2, 0.0, None), t3], axis=-1)
    return t1, t3, thetas, inside


@contract(channel=Channel(), observations=Array(1, low=0, integer=True), resolution=Integer(2, 4001))
def loglik_surface(channel, observations, resolution: int = 201):
    """``L`` over the simplex of a 3-letter alphabet for the given observations (Figs. 3, 5).

    Returns ``(t1, t3, L)`` with ``L = nan`` outside the simplex.
    """
    M = channel
    if M.shape[0] != 3:
        raise ValueError("loglik_surface needs a channel with 3 rows")
    G = observation_matrix(M, observations)
    t1, t3, thetas, inside = simplex_grid(resolution)
    L = _loglik(thetas, G)
    L = np.where(inside, L, np.nan)
    return t1, t3, L


@contract(B=Array(2, low=0, high=1, integer=True))
def gf2_rank(B) -> int:
    """Rank over GF(2) of a 0/1 matrix (Gaussian elimination with XOR; Lemma 4.5).

    The loop runs over the smaller dimension; each elimination step is one vectorised XOR.
    """
    return int(_gf2_rank_batch(B[None].astype(bool))[0])


@contract(B=Unchecked("a 3-D array of 0/1 entries (integers or booleans)", np.zeros((1, 2, 2), dtype=int)))
def gf2_rank_batch(B) -> np.ndarray:
    """GF(2) ranks of a stack of 0/1 matrices ``B`` of shape ``(T, a, b)`` (vectorised over T)."""
    A = np.asarray(B)
    if A.ndim != 3 or A.dtype.kind not in "biu" or not np.all((A == 0) | (A == 1)):
        raise ValueError(f"B must be a 3-D array of 0/1 entries, got shape {A.shape} and dtype {A.dtype}")
    return _gf2_rank_batch(A.astype(bool))


def _gf2_rank_batch(A: np.ndarray) -> np.ndarray:
    """:func:`gf2_rank_batch` on a validated boolean array."""
    if A.shape[1] > A.shape[2]:
        A = np.swapaxes(A, 1, 2)
    A = A.copy()
    T, r, c = A.shape
    rank = np.zeros(T, dtype=int)
    used = np.zeros((T, r), dtype=bool)
    t_idx = np.arange(T)
    # after the transpose r <= c: sweep the c columns, taking in each matrix an unused row with a 1
    # as pivot and XOR-ing it into the other rows with a 1 there; stop once every row is a pivot.
    for col in range(c):
        colv = A[:, :, col]
        cand = colv & ~used
        has = cand.any(axis=1)
        if not has.any():
            continue
        piv = np.argmax(cand, axis=1)
        pivot_rows = A[t_idx, piv]  # (T, c)
        mask = colv.copy()
        mask[t_idx, piv] = False
        mask &= has[:, None]
        A ^= mask[:, :, None] & pivot_rows[:, None, :]
        used[t_idx[has], piv[has]] = True
        rank += has
        if np.all(rank == r):
            break
    return rank


@contract(bits=Array(2, low=0, high=1, integer=True), epsilon=_EPS)
def rappor_bits_likelihood(bits, epsilon: float) -> np.ndarray:
    """Observation matrix ``G`` of basic Rappor from reported bit vectors (Lemma 4.4).

    ``G[x, i] = P(beta^i | x) = p^k exp(-(1/2 + S(beta^i)/2 - beta^i_x) eps)`` with
    ``p = e^{eps/2} / (1 + e^{eps/2})`` and ``S`` the number of ones.  ``bits`` is ``(n, k)``.
    """
    eps = epsilon
    B = bits.astype(float)
    k = B.shape[1]
    p = _rappor_p(eps)
    S = B.sum(axis=1)
    return p**k * np.exp(-(0.5 + S[None, :] / 2 - B.T) * eps)


@contract(
    k=Integer(1, 64),
    n=AnyOf(Real(0, None), Array((1, 2), low=0)),
    epsilon=AnyOf(_EPS, Array((1, 2), low=1e-300, high=50)),
)
def rappor_concavity_lower_bound(k: int, n, epsilon) -> np.ndarray | float:
    """Thm 4.6: ``P(L strictly concave) >= prod_{j=1}^{k} max(0, 1 - p^n 2^{j-1})`` for basic
    Rappor on ``|X| = k`` letters with ``n >= k`` users, ``p = e^{eps/2}/(1+e^{eps/2})``.

    Vectorised over ``n`` and ``epsilon`` (broadcast); 0 where ``n < k``.
    """
    n_arr = np.asarray(n, dtype=float)
    e_arr = np.asarray(epsilon, dtype=float)
    if np.any(e_arr <= 0):
        raise ValueError(f"epsilon must be > 0 (min {e_arr.min():.3g})")
    if np.any(n_arr < 0):
        raise ValueError(f"n must be >= 0 (min {n_arr.min():.3g})")
    p = np.exp(e_arr / 2) / (1 + np.exp(e_arr / 2))
    pn = p**n_arr
    j = np.arange(1, k + 1).reshape((-1,) + (1,) * np.ndim(pn))
    fac = np.clip(1.0 - pn[None] * 2.0 ** (j - 1), 0.0, None)
    out = np.prod(fac, axis=0)
    out = np.where(n_arr >= k, out, 0.0)
    return float(out) if np.ndim(out) == 0 else out


@contract(
    k=Integer(1, 64),
    n=Integer(1, 100_000),
    epsilon=_EPS,
    trials=Integer(1, 1_000_000),
    theta=Optional(Distribution()),
    rng=RandomState(),
)
def rappor_concavity_frequencies(k: int, n: int, epsilon: float, trials: int, *, theta=None, rng=None) -> dict:
    """Monte Carlo frequencies of the three nested events behind Thm 4.6.

    ``n`` inputs are drawn i.i.d. from ``theta`` (default uniform) and obfuscated by basic Rappor
    (each bit kept with probability ``p``); ``B`` is the ``k x n`` matrix of reported bits. Returns
    the frequencies of ``rank_GF2(B) = k`` <= ``rank_R(B) = k`` <= ``rank_R([B | 1]) = k``; the
    last event is exactly the strict concavity of ``L`` (proof of Thm 4.6: with ``sum w = 0``,
    ``w G = 0 iff w B = 0``).  Also returns the standard errors and the bound.
    """
    if trials * n * k > MAX_BYTES:
        raise ValueError(f"trials x n x k = {trials} x {n} x {k} reported bits exceed {MAX_BYTES} (2 GiB)")
    rng = check_random_state(rng)
    eps = epsilon
    if theta is not None and theta.size != k:
        raise ValueError(f"theta must have length k = {k}, got {theta.size}")
    th = np.full(k, 1.0 / k) if theta is None else theta
    p = _rappor_p(eps)
    x = rng.choice(k, size=(trials, n), p=th)
    onehot = np.zeros((trials, n, k), dtype=bool)
    np.put_along_axis(onehot, x[..., None], True, axis=2)
    flips = rng.random((trials, n, k)) >= p
    B = np.swapaxes(onehot ^ flips, 1, 2)  # (trials, k, n)
    f2 = _gf2_rank_batch(B) == k
    Bf = B.astype(float)
    real = np.linalg.matrix_rank(Bf) == k
    aug = np.concatenate([Bf, np.ones((trials, k, 1))], axis=2)
    conc = np.linalg.matrix_rank(aug) == k
    out = {}
    for name, ev in (("gf2", f2), ("real", real), ("concave", conc)):
        f = ev.mean()
        out[name] = float(f)
        out[name + "_se"] = float(np.sqrt(max(f * (1 - f), 1e-300) / trials))
    out["bound"] = rappor_concavity_lower_bound(k, n, eps)
    out["nested_violations"] = int(np.sum(f2 & ~real) + np.sum(real & ~conc))
    return out


@contract(z=Array(1), a=Integer(-(1 << 31), 1 << 31), b=Integer(-(1 << 31), 1 << 31), epsilon=_EPS)
def geometric_dominance_bounds(z, a: int, b: int, epsilon: float):
    """Prop. 6.3: for ``X`` within ``[a, b]`` (``l = b - a``) and every ``phi``,
    ``c e^{-eps(|z-a| + l)} <= P(z | phi) <= c e^{-eps(|z-a| - l)}``.  Returns (lower, upper)."""
    eps = epsilon
    if b < a:
        raise ValueError(f"b must be >= a, got a = {a}, b = {b}")
    al = np.exp(-eps)
    c = (1 - al) / (1 + al)
    ell = b - a
    return c * np.exp(-eps * (np.abs(z - a) + ell)), c * np.exp(-eps * (np.abs(z - a) - ell))


@contract(k=_K, epsilon=_EPS, theta=Distribution(), n=_N)
def inv_krr_exact_sq_error(k: int, epsilon: float, theta, n) -> float:
    """Closed form under k-RR: every row of ``M^{-1}`` has squared norm
    ``((e^eps + k - 2)^2 + k - 1)/(e^eps - 1)^2``, so
    ``E||v - theta||^2 = [((e^eps+k-2)^2 + k - 1)/(e^eps-1)^2 - ||theta||^2] / n``."""
    if theta.size != k:
        raise ValueError(f"theta must have length k = {k}, got {theta.size}")
    e = np.exp(epsilon)
    return float((((e + k - 2) ** 2 + k - 1) / (e - 1) ** 2 - theta @ theta) / n)


@contract(k=_K, epsilon=_EPS, n=_N)
def inv_krr_upper_bound(k: int, epsilon: float, n) -> float:
    """Prop. 7.1: ``E||v - theta||^2 <= ((e^eps + k - 1)/(e^eps - 1))^2 / n``."""
    e = np.exp(epsilon)
    return float(((e + k - 1) / (e - 1)) ** 2 / n)


@contract(epsilon=_EPS, n=_N)
def inv_geometric_lower_bound(epsilon: float, n) -> float:
    """Prop. 7.2: for the truncated linear geometric mechanism with ``alpha = e^-eps > 1/2``,
    ``E||v - theta||^2 >= (beta^3 - 2 alpha beta^2 - 2)/n`` with ``beta = 1/(1 - e^-eps)``."""
    a = np.exp(-epsilon)
    if a <= 0.5:
        raise ValueError(f"epsilon must be < ln 2 (Prop. 7.2 needs alpha = e^-epsilon > 1/2), got {epsilon!r}")
    b = 1.0 / (1.0 - a)
    return float((b**3 - 2 * a * b**2 - 2) / n)


@contract(k=_K, epsilon=_EPS)
def truncated_geometric_inverse(k: int, epsilon: float) -> np.ndarray:
    """Closed-form inverse of the truncated geometric matrix (eq. 7) on {0..k-1}.

    ``M = A D`` with ``A = [alpha^{|x-z|}]`` (Kac-Murdock-Szego) and ``D = diag(c_z)``;
    ``A^{-1}`` is tridiagonal, so ``M^{-1}`` has interior rows ``beta^2 (-alpha, 1+alpha^2, -alpha)``
    and boundary rows ``beta (1, -alpha)`` (``beta = 1/(1 - alpha)``).
    """
    a = np.exp(-epsilon)
    b = 1.0 / (1.0 - a)
    Minv = np.zeros((k, k))
    i = np.arange(1, k - 1)
    Minv[i, i] = b**2 * (1 + a**2)
    Minv[i, i - 1] = -a * b**2
    Minv[i, i + 1] = -a * b**2
    Minv[0, 0] = b
    Minv[0, 1] = -a * b
    Minv[k - 1, k - 1] = b
    Minv[k - 1, k - 2] = -a * b
    return Minv


@contract(n=Array(1, min_size=2, low=1e-300), err=Array(1, min_size=2, low=1e-300))
def loglog_slope(n, err) -> float:
    """Least-squares slope of ``log(err)`` against ``log(n)``."""
    if n.shape != err.shape:
        raise ValueError(f"n and err must have the same length, got {n.size} and {err.size}")
    return float(np.polyfit(np.log(n), np.log(err), 1)[0])


@contract(k=_K, epsilon=_EPS, theta=Distribution(), n=_N)
def inv_geometric_exact_sq_error(k: int, epsilon: float, theta, n) -> float:
    r"""Exact :math:`\mathbf E\|v - \theta\|_2^2` of raw inversion under the truncated geometric
    mechanism (eq. 7) on :math:`\{0, \dots, k-1\}`, in closed form.

    With :math:`\pi = \theta M` and :math:`\operatorname{Cov}(q) = (\operatorname{diag}\pi - \pi^\top\pi)/n`,
    :math:`\mathbf E\|v-\theta\|^2 = (\sum_z \pi_z \|r_z\|^2 - \|\theta\|^2)/n` with :math:`r_z` the rows of
    :math:`M^{-1}` (:func:`truncated_geometric_inverse`): :math:`\|r_z\|^2 = \beta^4((1+\alpha^2)^2 + 2\alpha^2)`
    inside and :math:`\beta^2(1+\alpha^2)` at both ends (:math:`\alpha = e^{-\varepsilon}`,
    :math:`\beta = 1/(1-\alpha)`).  At :math:`k = 2` both rows are end rows: the error is
    :math:`(\beta^2(1+\alpha^2) - \|\theta\|^2)/n`.
    """
    from ldpnb.mechanisms.metric import geometric_channel  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    if theta.size != k:
        raise ValueError(f"theta must have length k = {k}, got {theta.size}")
    return _geometric_exact(geometric_channel(k, epsilon), epsilon, theta) / n


def _geometric_exact(M: np.ndarray, epsilon: float, theta: np.ndarray) -> float:
    """``n E||v - theta||^2`` for the truncated geometric channel ``M`` (see :func:`inv_geometric_exact_sq_error`)."""
    k = M.shape[0]
    a = np.exp(-epsilon)
    b = 1.0 / (1.0 - a)
    rn = np.full(k, b**4 * ((1 + a * a) ** 2 + 2 * a * a))
    rn[[0, -1]] = b * b * (1 + a * a)
    return float((theta @ M) @ rn - theta @ theta)


def _thetas(k: int, rng: np.random.Generator) -> list[np.ndarray]:
    """The five distributions drawn for each (k, eps): Dirichlet(0.1), Dirichlet(1), Dirichlet(10), a point
    mass at a random value and the uniform distribution."""
    out = [rng.dirichlet(np.full(k, a)) for a in (0.1, 1.0, 10.0)]
    out.append(np.eye(k)[rng.integers(k)])
    out.append(np.full(k, 1.0 / k))
    return out


@contract(
    proposition=OneOf("7.1", "7.2"),
    draws=Integer(1, 1_000_000),
    rng=RandomState(),
    k_max=Integer(2, 2000),
    eps_max=_EPS,
    check_every=Integer(1, 1_000_000),
    check_k_max=Integer(2, 1000),
    k2_every=Integer(0, 1_000_000),
)
def inv_bound_sampling(
    proposition: str,
    draws: int,
    *,
    rng=None,
    k_max: int = 300,
    eps_max: float = 8.0,
    check_every: int = 10,
    check_k_max: int = 150,
    k2_every: int = 10,
) -> dict:
    r"""Props. 7.1 and 7.2 as general statements, checked on sampled cases (exact closed forms).

    ``draws`` pairs :math:`(k, \varepsilon)`, :math:`k` uniform on :math:`\{2, \dots,` ``k_max``:math:`\}`
    except that one draw in ``k2_every`` (those with index :math:`\equiv 1`; 0 for none) has :math:`k = 2`, the
    smallest alphabet the propositions cover, so that it is always sampled,
    :math:`\varepsilon` uniform on :math:`[10^{-3},` ``eps_max``:math:`]` (Prop. 7.1, k-RR) or on
    :math:`[10^{-3}, \ln 2)` (Prop. 7.2, truncated geometric, :math:`\alpha = e^{-\varepsilon} > 1/2`), each
    with the five distributions of :func:`_thetas`:

    * Prop. 7.1: :math:`\mathbf E\|v-\theta\|^2 \le \frac1n\big(\frac{e^\varepsilon+k-1}{e^\varepsilon-1}\big)^2`;
    * Prop. 7.2: :math:`\mathbf E\|v-\theta\|^2 \ge \frac1n(\beta^3 - 2\alpha\beta^2 - 2)`.

    Every ``check_every``-th draw with :math:`k \le` ``check_k_max`` also compares the closed form with the
    generic exact error (:func:`ldpnb.estimators.inv_expected_sq_error`, a numerical inverse).

    Returns ``instances``, ``violations`` (relative slack :math:`10^{-12}`), ``violations_k2`` (those at
    :math:`k = 2`), ``min_margin_k3`` (smallest relative margin, bound vs exact, over :math:`k \ge 3`),
    ``max_rel_diff`` (closed form vs generic) and ``checked`` (how many were compared).
    """
    from ldpnb.estimators._inversion import inv_expected_sq_error  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)
    from ldpnb.mechanisms.grr import grr_channel  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)
    from ldpnb.mechanisms.metric import geometric_channel  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    rng = check_random_state(rng)
    first = proposition == "7.1"
    hi = eps_max if first else np.log(2.0)
    n_inst = viol = viol2 = checked = 0
    margin, rel = np.inf, 0.0
    for i in range(draws):
        k = int(rng.integers(2, k_max + 1))
        if k2_every and i % k2_every == 1 % k2_every:  # the k = 2 stratum
            k = 2
        eps = float(rng.uniform(1e-3, hi if first else hi - 1e-9))
        bound = inv_krr_upper_bound(k, eps, 1) if first else inv_geometric_lower_bound(eps, 1)
        M = None if first else geometric_channel(k, eps)
        for th in _thetas(k, rng):
            ex = inv_krr_exact_sq_error(k, eps, th, 1) if first else _geometric_exact(M, eps, th)
            bad = ex > bound * (1 + 1e-12) if first else ex < bound * (1 - 1e-12)
            n_inst += 1
            viol += bool(bad)
            viol2 += bool(bad and k == 2)
            if k >= 3:
                margin = min(margin, (bound - ex) / bound if first else (ex - bound) / bound)
        if i % check_every == 0 and k <= check_k_max:
            th = rng.dirichlet(np.ones(k))
            M = grr_channel(k, eps) if first else geometric_channel(k, eps)
            g = inv_expected_sq_error(M, th, 1)
            c = inv_krr_exact_sq_error(k, eps, th, 1) if first else inv_geometric_exact_sq_error(k, eps, th, 1)
            rel = max(rel, abs(g - c) / max(abs(g), 1e-300))
            checked += 1
    return {
        "instances": n_inst,
        "violations": viol,
        "violations_k2": viol2,
        "min_margin_k3": float(margin),
        "max_rel_diff": float(rel),
        "checked": checked,
    }


@contract(channel=NonnegativeMatrix())
def identifying_observations(channel) -> dict:
    r"""Thm 6.1 (ii): an observation set that makes :math:`L` strictly concave, if :math:`M` has
    :math:`|\mathcal X|` independent columns (Thm 6.1 (iii)).

    The set observes every output once, so :math:`G = M`; :math:`L` is strictly concave iff
    :math:`\operatorname{rank}[G \mid \mathbf 1] = |\mathcal X|` (Thm 4.1).  Returns ``strict`` (that
    rank test) and ``s_ratio``, the :math:`|\mathcal X|`-th singular value of :math:`[G \mid \mathbf 1]`
    over the largest (how far from rank deficiency the decision is).
    """
    k = channel.shape[0]
    A = np.hstack([channel, np.ones((k, 1))])
    s = np.linalg.svd(A, compute_uv=False)
    ratio = float(s[k - 1] / s[0]) if s.size >= k else 0.0
    return {"strict": bool(is_strictly_concave(channel)), "s_ratio": ratio}


_CONSISTENCY = dict(
    channel=AnyOf(OneOf("untruncated geometric"), NonnegativeMatrix()),
    theta=Distribution(),
    n=SAMPLE_SIZE,
    reps=Integer(1, 100_000),
    epsilon=Optional(_EPS),
    rng=RandomState(),
    tol=POSITIVE,
    max_iter=_ITER,
)


@contract(**_CONSISTENCY)
def consistency_errors(
    channel,
    theta,
    n: int,
    reps: int,
    *,
    epsilon: float | None = None,
    rng=None,
    tol: float = 1e-10,
    max_iter: int = 20_000,
) -> np.ndarray:
    r""":math:`L_1` error of IBU on each of ``reps`` samples of ``n`` users drawn from ``theta`` (Props. 6.2,
    6.3: the MLE converges in probability to :math:`\theta`); shape ``(reps,)``.

    ``channel`` is a finite channel (exact count-level sampling) or ``"untruncated geometric"`` (eq. 6
    with parameter ``epsilon`` on the integers ``0..k-1``: reports sampled per user, IBU on the observed
    outputs).  IBU stops when :math:`|\Delta\ell| <` ``tol`` (far below the statistical error).  The samples
    are independent: the errors at several ``n`` give the consistency rate with its bootstrap interval
    (:func:`ldpnb.papers.ibu.scoring.loglog_slope`).

    Examples
    --------
    >>> from ldpnb.mechanisms import grr_channel
    >>> e = consistency_errors(grr_channel(4, 1.0), np.full(4, 0.25), 1000, 5, rng=0)
    >>> e.shape, bool(np.all(e < 0.5))
    ((5,), True)
    """
    rng = check_random_state(rng)
    k = theta.size
    if isinstance(channel, str):
        if epsilon is None:
            raise ValueError("epsilon is required for the untruncated geometric mechanism")
        X = np.arange(k)
        errs = []
        for _ in range(reps):
            x = np.repeat(X, rng.multinomial(n, theta))
            zu, cnt = np.unique(untruncated_geometric_perturb(x, epsilon, rng=rng), return_counts=True)
            r = ibu_rows(untruncated_geometric_matrix(X, zu, epsilon), cnt, tol=tol, max_iter=max_iter)
            errs.append(np.abs(r.estimate - theta).sum())
        return np.array(errs)
    if channel.shape[0] != k:
        raise ValueError(f"theta must have one entry per input of the channel ({channel.shape[0]}), got {k}")
    C = np.stack([simulate_counts_batch(channel, rng.multinomial(n, theta), 1, rng=rng)[0] for _ in range(reps)])
    r = ibu_rows(channel, C, tol=tol, max_iter=max_iter)
    return np.abs(r.estimate - theta).sum(axis=1)


@contract(**_CONSISTENCY)
def consistency_error(
    channel,
    theta,
    n: int,
    reps: int,
    *,
    epsilon: float | None = None,
    rng=None,
    tol: float = 1e-10,
    max_iter: int = 20_000,
) -> float:
    r"""Mean :math:`L_1` error of IBU over ``reps`` samples (the mean of :func:`consistency_errors`, the
    same samples for the same ``rng``)."""
    return float(
        np.mean(consistency_errors(channel, theta, n, reps, epsilon=epsilon, rng=rng, tol=tol, max_iter=max_iter))
    )


@contract(input_counts=Array(1, low=0, integer=True, min_size=2), epsilon=_EPS)
def krr_likely_fraction(input_counts, epsilon: float) -> float:
    r"""Expected fraction of the alphabet in the k-RR likely subset (Prop. 8.4: the reported values).

    With :math:`n_x` users at each of the :math:`k` values and k-RR (eq. 5), a value :math:`z` is
    reported with probability :math:`p_z = (n_z e^\varepsilon + n - n_z)/(n(k-1+e^\varepsilon))` per
    user, so the expected number of distinct reports is :math:`\sum_z 1 - (1-p_z)^n`.  Sec. 8.4: the
    likely subset saves time only when this fraction is small.
    """
    k = input_counts.size
    n = float(input_counts.sum())
    if n <= 0:
        raise ValueError("input_counts must have a positive total")
    e = np.exp(epsilon)
    pz = (input_counts * e + (n - input_counts)) / (n * (k - 1 + e))
    return float(np.sum(-np.expm1(n * np.log1p(-pz))) / k)


@contract(h=POSITIVE)
def square_lattice_delta(h: float) -> float:
    r"""Discretisation error of a square lattice of width ``h``: the largest distance from a point of the
    plane to its nearest lattice point, :math:`\delta = h/\sqrt 2` (Sec. 8.3, Fig. 14(a))."""
    return float(h / np.sqrt(2.0))


@contract(instances=Integer(1, 100_000), rng=RandomState())
def all_observed_concavity(instances: int = 50, *, rng=None) -> dict:
    r"""Cors. 4.2-4.4: when every element of :math:`\mathcal X` is observed, :math:`L` is strictly concave
    under k-RR, the truncated geometric mechanism (on :math:`\{0..k-1\}`) and the untruncated geometric
    mechanism (on :math:`k` random integers).  ``instances`` random :math:`(k, \varepsilon)` with
    :math:`3 \le k < 30`, :math:`\varepsilon \in [0.1, 5]`, every value observed plus extra reports;
    returns ``violations`` and ``instances`` (three mechanisms per draw)."""
    from ldpnb.mechanisms.grr import grr_channel  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)
    from ldpnb.mechanisms.metric import geometric_channel, untruncated_geometric_matrix  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    rng = check_random_state(rng)
    viol = 0
    for _ in range(instances):
        k, e = int(rng.integers(3, 30)), float(rng.uniform(0.1, 5))
        z = np.concatenate([np.arange(k), rng.integers(0, k, 20)])  # every value, plus extra reports
        xs = np.sort(rng.choice(np.arange(-30, 60), size=k, replace=False))
        zu = np.concatenate([xs, rng.integers(-40, 70, 10)])
        Gs = (grr_channel(k, e)[:, z], geometric_channel(k, e)[:, z], untruncated_geometric_matrix(xs, zu, e))
        viol += sum(not is_strictly_concave(G) for G in Gs)
    return {"violations": viol, "instances": 3 * instances}


@contract(ks=Array(1, low=3, integer=True), repeats=Integer(1, 10_000), rng=RandomState())
def krr_observed_concavity(ks=np.arange(3, 13), repeats: int = 10, *, rng=None) -> dict:
    r"""Under k-RR, :math:`k-1` distinct observed values make :math:`L` strictly concave and :math:`k-2`
    never do (the columns of the unobserved values enter :math:`[G \mid \mathbf 1]` only through the
    constant).  Random :math:`\varepsilon \in [0.2, 4]` and random observed sets; returns ``fail_km1``
    (sets of :math:`k-1` values that are not strictly concave), ``strict_km2`` and ``instances``."""
    from ldpnb.mechanisms.grr import grr_channel  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    rng = check_random_state(rng)
    fail, strict, n = 0, 0, 0
    for k in ks:
        for _ in range(repeats):
            M, perm = grr_channel(int(k), float(rng.uniform(0.2, 4))), rng.permutation(int(k))
            fail += not is_strictly_concave(M[:, perm[: k - 1]])
            strict += is_strictly_concave(M[:, perm[: k - 2]])
            n += 1
    return {"fail_km1": fail, "strict_km2": strict, "instances": n}


_LINE = OneOf("geometric", "laplace", "exponential")


@contract(kind=_LINE, X=Array(1, integer=True), z=Array(1, integer=True), epsilon=_EPS)
def line_mechanism_matrix(kind: str, X, z, epsilon: float) -> np.ndarray:
    r"""``P(z | x)`` of a mechanism on the integers, for inputs ``X`` (rows) and reports ``z`` (columns), Sec. 8.2.

    ``"geometric"``: eq. (6), :math:`c\,e^{-\varepsilon|z - x|}`, :math:`c = (1 - e^{-\varepsilon})/(1 +
    e^{-\varepsilon})`; ``"laplace"``: the Laplace mechanism :math:`x + \mathrm{Lap}(1/\varepsilon)`
    rounded to the nearest integer, :math:`1 - e^{-\varepsilon/2}` at :math:`z = x` and
    :math:`e^{-\varepsilon|z - x|}\sinh(\varepsilon/2)` elsewhere; ``"exponential"``: the exponential
    mechanism with utility :math:`-|z - x|` and the factor 1/2 of the chapter,
    :math:`\propto e^{-\varepsilon|z - x|/2}` normalised over the integers (a geometric mechanism of
    parameter :math:`\varepsilon/2`).  Each depends on :math:`|z - x|` only and decreases strictly with it
    (the condition of Prop. 8.2).  A window of an infinite channel: rows sum to 1 only over all integers.

    Examples
    --------
    >>> import numpy as np
    >>> P = line_mechanism_matrix("laplace", np.arange(3), np.arange(-400, 400), 0.5)
    >>> np.allclose(P.sum(axis=1), 1.0)
    True
    """
    d = np.abs(z[None, :].astype(float) - X[:, None].astype(float))
    if kind == "laplace":
        return np.where(d == 0, -np.expm1(-epsilon / 2), np.exp(-epsilon * d) * np.sinh(epsilon / 2))
    e = epsilon / 2 if kind == "exponential" else epsilon
    a = np.exp(-e)
    return (1 - a) / (1 + a) * np.exp(-e * d)


@contract(kind=_LINE, x=Array(1, integer=True), epsilon=_EPS, rng=RandomState())
def line_mechanism_perturb(kind: str, x, epsilon: float, *, rng=None) -> np.ndarray:
    """Reports of :func:`line_mechanism_matrix`'s mechanism for the integer inputs ``x`` (one per entry)."""
    from ldpnb.mechanisms.metric import untruncated_geometric_perturb  # noqa: PLC0415 lazy: loaded at first use (keeps this module's import light)

    rng = check_random_state(rng)
    if kind == "laplace":
        return np.rint(x + rng.laplace(0.0, 1.0 / epsilon, size=x.shape)).astype(np.int64)
    return untruncated_geometric_perturb(x, epsilon / 2 if kind == "exponential" else epsilon, rng=rng)


@contract(M=NonnegativeMatrix(), X=Array(1), z=Array(1))
def distance_monotonicity_violations(M, X, z) -> dict:
    r"""Prop. 8.2's condition on a window: pairs ``(x, x')`` and reports ``z`` with :math:`|x - z| < |x' - z|`
    but :math:`M_{xz} \le M_{x'z}` (and, as a check, equal distances with unequal probabilities do not count).
    Returns ``violations`` and ``pairs`` (the triples with :math:`|x - z| < |x' - z|` that were checked)."""
    if M.shape != (X.size, z.size):
        raise ValueError(f"M must be ({X.size}, {z.size}) for inputs X and reports z, got {M.shape}")
    viol = pairs = 0
    for j in range(z.size):
        d = np.abs(X - z[j])
        closer = d[:, None] < d[None, :]
        viol += int(np.sum(closer & (M[:, j][:, None] <= M[:, j][None, :])))
        pairs += int(closer.sum())
    return {"violations": viol, "pairs": pairs}
