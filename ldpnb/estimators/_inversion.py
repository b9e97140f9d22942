"""The matrix-inversion family of estimators: INV, INV-N (clip and normalise), INV-P (simplex
projection), the frequency-oracle estimator and the exact error of INV.
"""

from __future__ import annotations

import warnings

import numpy as np
import scipy.linalg as sla

from ldpnb.channels.structured import ChannelOperator
from ldpnb.contracts import (
    EPSILON,
    MAX_ENTRIES,
    AnyOf,
    Array,
    Channel,
    Constraint,
    Counts,
    Distribution,
    Instance,
    Integer,
    Probability,
    RandomState,
    Real,
    contract,
)
from ldpnb.utils import (
    check_finite_array,
    check_random_state,
)

_REPORTS = Array(1, low=0.0)
#: Default smallest reciprocal condition number (1-norm) a channel may have to be inverted: the
#: solve then loses at most about ``-log10(1e-10) = 10`` of float64's 16 digits.
RCOND_MIN = 1e-10
_RCOND = Real(0.0, 1.0, low_open=True)


def _lu_checked(C: np.ndarray, rcond_min: float) -> tuple[tuple[np.ndarray, np.ndarray], float]:
    """LU factors of a square channel and its reciprocal condition number, refusing ill-conditioned ones.

    ``rcond`` is LAPACK's estimate of ``1 / (||C||_1 ||C^{-1}||_1)`` from the LU factors (``dgecon``,
    Hager-Higham): ``O(k^2)`` after the ``O(k^3 / 3)`` factorisation, instead of a full SVD.  A solve
    with ``C`` amplifies relative rounding errors by up to ``1 / rcond``.
    """
    if C.shape[0] != C.shape[1]:
        raise ValueError(f"channel must be square for matrix inversion, got shape {C.shape}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sla.LinAlgWarning)  # an exact zero pivot: rcond = 0 below
        lu, piv = sla.lu_factor(C, check_finite=False)
    anorm = float(np.abs(C).sum(axis=0).max())
    gecon = sla.get_lapack_funcs("gecon", (lu,))
    rcond, info = gecon(lu, anorm, norm="1")
    rcond = float(rcond) if info == 0 and np.all(np.diag(lu) != 0) else 0.0
    if not rcond >= rcond_min:
        raise ValueError(
            f"channel is singular or ill-conditioned for inversion: estimated reciprocal condition number "
            f"{rcond:.3g} < rcond_min = {rcond_min:.3g} (relative rounding errors amplified up to "
            f"{(1 / rcond if rcond > 0 else float('inf')):.3g}x); use IBU, or pass a smaller rcond_min knowingly"
        )
    return (lu, piv), rcond


__all__ = [
    "inv_raw",
    "inv_normalized",
    "inv_projected",
    "project_simplex",
    "normalize_clip",
    "fo_estimate",
    "inv_expected_sq_error",
    "inv_sq_error_monte_carlo",
    "clip_normalize",
    "project_simplex_rows",
    "rappor_unbiased",
    "fo_variance",
]


# --------------------------------------------------------------------------- helpers
class _MechanismLike(Constraint):
    """A :class:`~ldpnb.mechanisms.Mechanism` (anything with ``channel()`` and ``log_channel()``; read by
    its methods, so that this module, below the mechanisms, does not import them)."""

    def describe(self):
        return "a Mechanism"

    def check(self, value, name):
        if not (callable(getattr(value, "channel", None)) and callable(getattr(value, "log_channel", None))):
            raise self.fail(name, value, TypeError)
        return value

    def valid(self):
        return None

    def invalid(self):
        return [None, 3, "x"]


#: A channel for the inversion family: a matrix, an operator (its dense matrix) or a mechanism (its
#: float channel).
_CHANNEL = AnyOf(Channel(), Instance(ChannelOperator, example=None), _MechanismLike())


def _dense(channel) -> np.ndarray:
    """The float channel of a matrix, an operator or a mechanism (validated as a channel)."""
    if isinstance(channel, np.ndarray):
        return channel
    if isinstance(channel, ChannelOperator):
        k, m = channel.shape
        if k * m > MAX_ENTRIES:
            raise ValueError(f"channel: the dense matrix of {channel!r} has {k} x {m} entries, more than {MAX_ENTRIES}")
        return Channel().check(channel.dense(), "channel")
    return channel.channel()


def _check_report_counts(counts, m: int, name: str = "counts") -> np.ndarray:
    """Counts over the outputs (nonnegative, finite; integers or a distribution), length ``m``."""
    c = check_finite_array(counts, name, ndim=1)
    if c.shape[0] != m:
        raise ValueError(f"{name} has length {c.shape[0]} but the channel has {m} outputs (columns)")
    if np.any(c < 0):
        raise ValueError(f"{name} must be nonnegative (min {c.min():.3g})")
    total = c.sum()
    if not total > 0:
        raise ValueError(f"{name} must have a positive total (no reports observed)")
    return c


@contract(v=Array(1))
def project_simplex(v) -> np.ndarray:
    r"""Euclidean projection of ``v`` onto the probability simplex.

    Returns :math:`\arg\min_{w \in \Delta} \|w - v\|_2`, computed in :math:`O(k \log k)` as
    :math:`w = \max(v + \lambda, 0)` with :math:`\lambda = (1 - \sum_{j \le \rho} u_j)/\rho`,
    :math:`u` = ``v`` sorted decreasingly and :math:`\rho = \max\{j : u_j + (1 - \sum_{i\le j} u_i)/j > 0\}`
    (Wang and Carreira-Perpiñán 2013, Algorithm 1; the INV-P post-processing of
    ElSalamouny and Palamidessi).
    """
    u = np.sort(v)[::-1]
    css = np.cumsum(u)
    j = np.arange(1, v.size + 1)
    cond = u + (1.0 - css) / j > 0
    rho = int(np.flatnonzero(cond)[-1]) + 1
    lam = (1.0 - css[rho - 1]) / rho
    w = np.maximum(v + lam, 0.0)
    return w / w.sum()


def _clip_normalize(v, name: str = "v", ndim: int | None = None) -> np.ndarray:
    """INV-N post-processing shared by the package: negatives to 0, then divide by the sum.

    ``v`` is 1-D or 2-D (then row-wise, rows = repetitions); it must be finite and non-empty
    (NaN is refused, never clipped away), and a row with no positive entry becomes uniform.
    :func:`normalize_clip`, :func:`ldpnb.ibu_theory.clip_normalize` and
    :func:`ldpnb.multidim.clip_normalize` are this function under their own argument names.
    """
    V = check_finite_array(v, name, ndim=ndim)
    if V.ndim not in (1, 2):
        raise ValueError(f"{name} must be 1-D or 2-D, got shape {V.shape}")
    W = np.maximum(np.atleast_2d(V), 0.0)
    s = W.sum(axis=1, keepdims=True)
    out = np.where(s > 0, W / np.where(s > 0, s, 1.0), 1.0 / W.shape[1])
    return out[0] if V.ndim == 1 else out


@contract(v=Array(1))
def normalize_clip(v) -> np.ndarray:
    """Clip negative entries to 0 and renormalise (INV-N). Uniform if nothing positive remains."""
    return _clip_normalize(v, "v", ndim=1)


@contract(channel=_CHANNEL, counts=_REPORTS, rcond_min=_RCOND)
def inv_raw(channel, counts, *, rcond_min: float = RCOND_MIN) -> np.ndarray:
    r"""Matrix-inversion estimate :math:`v = q C^{-1}` (may have negative entries; sums to 1).

    Requires a square invertible channel (k-RR, truncated geometric, discretised Laplace,
    exponential mechanism...); ElSalamouny and Palamidessi (2020), Section 7.  Solved with the LU
    factors of ``C`` (:math:`C^\top v = q`), whose reciprocal condition number is estimated from the
    same factors (LAPACK ``gecon``): a channel with ``rcond < rcond_min`` is refused with a
    ``ValueError`` rather than inverted into estimates that no longer sum to 1.  ``channel`` may be a
    matrix, a :class:`~ldpnb.channels.structured.ChannelOperator` or a
    :class:`~ldpnb.mechanisms.Mechanism` (its float channel).
    """
    C = _dense(channel)
    if C.shape[0] != C.shape[1]:
        raise ValueError(f"channel must be square for matrix inversion, got shape {C.shape}")
    c = _check_report_counts(counts, C.shape[1])
    (lu, piv), _ = _lu_checked(C, rcond_min)
    q = c / c.sum()
    return sla.lu_solve((lu, piv), q, trans=1, check_finite=False)


@contract(channel=_CHANNEL, counts=_REPORTS, rcond_min=_RCOND)
def inv_normalized(channel, counts, *, rcond_min: float = RCOND_MIN) -> np.ndarray:
    """INV-N: the matrix-inversion estimate with negatives set to 0, renormalised."""
    return normalize_clip(inv_raw(channel, counts, rcond_min=rcond_min))


@contract(channel=_CHANNEL, counts=_REPORTS, rcond_min=_RCOND)
def inv_projected(channel, counts, *, rcond_min: float = RCOND_MIN) -> np.ndarray:
    """INV-P: the matrix-inversion estimate projected onto the simplex (:func:`project_simplex`).

    Examples
    --------
    >>> import numpy as np
    >>> from ldpnb.mechanisms import GRR
    >>> m = GRR(4, 1.0)
    >>> counts = np.bincount(m.perturb(np.repeat(np.arange(4), [4000, 3000, 2000, 1000]),
    ...                                rng=np.random.default_rng(2)), minlength=4)
    >>> inv_projected(m.channel(), counts).round(3)      # a distribution: nonnegative, sums to 1
    array([0.412, 0.282, 0.213, 0.093])
    """
    return project_simplex(inv_raw(channel, counts, rcond_min=rcond_min))


@contract(support_counts=_REPORTS, n=Integer(1), p=Probability(), q=Probability())
def fo_estimate(support_counts, n: int, p: float, q: float) -> np.ndarray:
    r"""Unbiased estimator of pure frequency oracles (Wang et al. 2017, Eq. 2).

    .. math:: \hat f(v) = \frac{C(v) - n q}{n (p - q)}

    where :math:`C(v)` counts the reports supporting :math:`v`, :math:`p` is the
    probability that a report from :math:`v` supports :math:`v` and :math:`q` that a
    report from another value does (GRR, OUE/SUE, OLH, SS).

    Examples
    --------
    >>> import numpy as np
    >>> from ldpnb.mechanisms import GRR, grr_params
    >>> m = GRR(4, 1.0)
    >>> x = np.repeat(np.arange(4), [4000, 3000, 2000, 1000])
    >>> counts = np.bincount(m.perturb(x, rng=np.random.default_rng(2)), minlength=4)
    >>> p, q = grr_params(4, 1.0)
    >>> fo_estimate(counts, 10_000, p, q).round(3)       # the truth is (0.4, 0.3, 0.2, 0.1)
    array([0.412, 0.282, 0.213, 0.093])
    """
    c = support_counts
    if not q < p:
        raise ValueError(f"q must be < p, got p={p}, q={q}")
    return (c - n * q) / (n * (p - q))


# --------------------------------------------------------------------------------------------
# Rappor (Lemma 4.4, Thm 4.6, Fig. 4)
# --------------------------------------------------------------------------------------------


def _rappor_p(eps: float) -> float:
    return float(1.0 / (1.0 + np.exp(-eps / 2)))  # e^{eps/2} / (1 + e^{eps/2}) without overflow


# --------------------------------------------------------------------------------------------
# INV error (Props. 7.1, 7.2)
# --------------------------------------------------------------------------------------------


@contract(channel=_CHANNEL, theta=Distribution(), n=EPSILON)
def inv_expected_sq_error(channel, theta, n) -> float:
    """Exact ``E || q M^{-1} - theta ||_2^2`` for ``n`` i.i.d. reports (raw INV, §7.6).

    With ``pi = theta M`` and ``r_z`` the z-th row of ``M^{-1}``, ``v`` is unbiased and
    ``Cov(q) = (diag(pi) - pi^T pi)/n``, hence
    ``E||v - theta||^2 = (sum_z pi_z ||r_z||^2 - ||theta||^2) / n``.
    """
    M, th = _dense(channel), theta
    (lu, piv), _ = _lu_checked(M, RCOND_MIN)
    if th.size != M.shape[0]:
        raise ValueError(f"theta must have one entry per channel row ({M.shape[0]}), got {th.size}")
    Minv = sla.lu_solve((lu, piv), np.eye(M.shape[0]), check_finite=False)
    pi = th @ M
    return float((pi @ (Minv**2).sum(axis=1) - th @ th) / n)


@contract(channel=_CHANNEL, input_counts=Counts(), reps=Integer(2, MAX_ENTRIES), rng=RandomState())
def inv_sq_error_monte_carlo(channel, input_counts, reps: int, *, rng=None) -> tuple[float, float]:
    """Monte Carlo of ``E||v - theta||^2`` for raw INV with fixed inputs drawn i.i.d. from theta.

    Each repetition draws ``n`` inputs from ``theta = input_counts / n`` (multinomial) and obfuscates
    them; returns (mean, standard error) over ``reps``.
    """
    rng = check_random_state(rng)
    M, N = _dense(channel), input_counts
    if M.shape[0] != M.shape[1] or N.size != M.shape[0]:
        raise ValueError(f"channel must be square with one row per entry of input_counts, got {M.shape} and {N.size}")
    n = int(N.sum())
    if n < 1:
        raise ValueError("input_counts must have a positive total")
    if reps * M.shape[1] > MAX_ENTRIES:
        raise ValueError(f"reps x outputs = {reps} x {M.shape[1]} exceeds {MAX_ENTRIES} entries")
    (lu, piv), _ = _lu_checked(M, RCOND_MIN)
    th = N / n
    pi = th @ M
    counts = rng.multinomial(n, pi / pi.sum(), size=int(reps))  # i.i.d. inputs: reports ~ pi
    v = sla.lu_solve((lu, piv), (counts / n).T, trans=1, check_finite=False).T
    err = ((v - th) ** 2).sum(axis=1)
    return float(err.mean()), float(err.std(ddof=1) / np.sqrt(len(err)))


@contract(V=Array((1, 2)))
def clip_normalize(V) -> np.ndarray:
    """INV-N post-processing, row-wise: negative entries to 0, then divide by the sum.  A row with
    no positive entry (possible for Rappor's estimator at tiny n) becomes uniform.  NaN or inf
    entries are refused (ValueError naming ``V``).  One implementation with
    :func:`ldpnb.estimators.normalize_clip` (the 1-D case)."""
    return _clip_normalize(V, "V")


@contract(V=Array((1, 2)))
def project_simplex_rows(V) -> np.ndarray:
    """INV-P post-processing, row-wise Euclidean projection onto the simplex (Wang &
    Carreira-Perpinan 2013): ``u`` sorted descending, ``rho = max{j: u_j + (1 - sum_{i<=j} u_i)/j
    > 0}``, ``lambda = (1 - sum_{i<=rho} u_i)/rho``, result ``max(v + lambda, 0)``.  NaN or inf
    entries are refused (ValueError naming ``V``)."""
    if V.ndim not in (1, 2):
        raise ValueError(f"V must be 1-D or 2-D, got shape {V.shape}")
    X = np.atleast_2d(V)
    U = -np.sort(-X, axis=1)
    css = np.cumsum(U, axis=1)
    j = np.arange(1, X.shape[1] + 1)
    cond = U + (1 - css) / j > 0
    rho = X.shape[1] - np.argmax(cond[:, ::-1], axis=1)
    lam = (1 - css[np.arange(len(X)), rho - 1]) / rho
    out = np.clip(X + lam[:, None], 0.0, None)
    return out[0] if V.ndim == 1 else out


@contract(support_counts=Array((1, 2), low=0.0), n=Array((0, 1), low=0.0, low_open=True), epsilon=EPSILON)
def rappor_unbiased(support_counts, n, epsilon: float) -> np.ndarray:
    """Kairouz et al. (2016) per-bit estimator for basic Rappor (ElSalamouny & Palamidessi 2020, §4.4):
    ``v_y = (c_y / n - (1 - p)) / (2p - 1)``, ``p = e^{eps/2}/(1 + e^{eps/2})``; rows of
    ``support_counts`` are repetitions.  ``sum(v)`` need not be 1."""
    eps = epsilon
    c = support_counts
    if n.ndim == 1 and (c.ndim != 2 or n.size != c.shape[0]):
        raise ValueError(f"n must be a scalar or have one entry per row of support_counts, got {n.shape} and {c.shape}")
    p = _rappor_p(eps)
    nn = n[..., None] if n.ndim and c.ndim == 2 else n
    return (c / nn - (1 - p)) / (2 * p - 1)


@contract(f=Array(None, low=0.0, high=1.0), n=EPSILON, p=Probability(), q=Probability())
def fo_variance(f, n: int, p: float, q: float) -> np.ndarray:
    r"""Variance of the generic FO estimator Eq. (2) for a fixed population of ``n`` users,
    ``n f(v)`` of whom hold ``v`` (the support indicators are independent Bernoulli):

    .. math:: \mathrm{Var}[\hat f(v)] = \frac{f(v)\,p(1-p) + (1-f(v))\,q(1-q)}{n\,(p-q)^2}

    (Wang et al. 2017; ``f = 0`` gives the usual approximation :math:`q(1-q)/(n(p-q)^2)`).
    For OLH ``q = 1/g`` and the formula holds for a fully random hash.
    """
    if not q < p:
        raise ValueError(f"q must be < p, got p={p}, q={q}")
    return (f * p * (1 - p) + (1 - f) * q * (1 - q)) / (n * (p - q) ** 2)
