"""Asymmetric optimal random response (AORR) and subset random response (SRR, Algorithm 2).

Reference: M. A. Zarrabian, N. Ding and P. Sadeghi, "On the Lift, Related Privacy Measures, and
Applications to Privacy-Utility Tradeoffs": eqs. 12, 14-26, Sec. V and Algorithm 2; the
vertex-enumeration + LP method is that of Lopuhaä-Zwakenberg, Tong and Škorić (optimal random
response, the paper's [26]).

The mechanism is parametrised *backwards*: each output ``y`` is a column ``v_y = P_{X|Y}(.|y)`` with
weight ``beta_y = P_Y(y)``. ALIP on output ``y`` is linear in ``v_y``, so the feasible columns form
the polytope (eq. 21, with the misprinted ``v_k`` read as ``v_x``)

    Pi(A) = { v >= 0, sum_x v_x = 1, e^{-eps_l} P_S(s) <= sum_{x in A} P_{S|X}(s|x) v_x <= e^{eps_u} P_S(s) }.

``H(X|Y) = sum_y beta_y H(v_y)`` is concave in each column, so an optimum uses vertices of ``Pi`` only
and the problem becomes the LP (22): ``min sum_k H(v_k) beta_k`` s.t. ``beta >= 0``,
``sum_k beta_k v_k = P_X|_A``.

Vertex enumeration uses Qhull's halfspace intersection (scipy) by default, pycddlib (``cdd``, e.g. the
``pycddlib-standalone`` wheel) as an alternative, and an exact enumeration of basic feasible
solutions for small polytopes (tests, degenerate cases). :func:`vertex_backend` names the backend
that ``method="auto"`` uses, with its version (timings depend on it: Sec. V-B's SRR/AORR comparison).

The LP (22) over many vertices (more than ``_CG_MIN`` columns) is solved by column generation:
HiGHS on a restricted set of columns, priced against every vertex with the duals
(``h_k - v_k . mu``), columns with negative reduced cost added until none is left; the optimum is
the same as the full LP's (to the solver's tolerance), at a fraction of its cost when ``epsilon``
is small and the vertices number in the tens of thousands.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.optimize import linprog

from ldpnb.contracts import EPSILON, Array, NonnegativeMatrix, OneOf, Optional, Real, contract
from ldpnb.measures.lift import ALIP, _check_joint
from ldpnb.mechanisms.watchdog import MergeMechanism, SecretChannelMechanism, _subset_merging

_JOINT = NonnegativeMatrix()
_METHOD = OneOf("auto", "qhull", "cdd", "bruteforce")
_SUBSET = Optional(Array(1, low=0, integer=True))
_CG_MIN = 3000  #: vertex count from which LP (22) is solved by column generation

__all__ = [
    "alip_column_polytope",
    "polytope_vertices",
    "min_concave_over_vertices",
    "column_entropies",
    "ORRResult",
    "optimal_random_response",
    "SRRResult",
    "subset_random_response",
    "has_cdd",
    "vertex_backend",
    "perfect_privacy_response",
    "full_channel",
]


try:  # pragma: no cover - depends on the environment
    import cdd as _cdd

    _HAS_CDD = hasattr(_cdd, "matrix_from_array")
except Exception:  # pragma: no cover
    _cdd = None
    _HAS_CDD = False


@contract()
def has_cdd() -> bool:
    """True when pycddlib (>= 3) is importable."""
    return _HAS_CDD


@contract(method=_METHOD)
def vertex_backend(method: str = "auto") -> str:
    """The vertex-enumeration library behind ``method`` with its version, e.g. ``"Qhull (scipy 1.14.1)"``.

    ``"auto"`` is Qhull's halfspace intersection, with cdd (or brute force) for the polytopes Qhull
    cannot take (dimension < 2, e.g. blocks of two symbols; no interior).
    """
    import scipy  # noqa: PLC0415 lazy: scipy/numpy submodule loaded at first use

    qhull = f"Qhull (scipy {scipy.__version__})"
    if method in ("auto", "qhull"):
        return qhull + (
            ", small or flat polytopes by " + ("pycddlib" if _HAS_CDD else "brute force") if method == "auto" else ""
        )
    if method == "cdd":
        if not _HAS_CDD:
            return "pycddlib (not installed)"
        from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415 lazy: loaded at first use

        for dist in ("pycddlib-standalone", "pycddlib"):
            try:
                return f"pycddlib {version(dist)} (cddlib, floating point)"
            except PackageNotFoundError:
                continue
        return "pycddlib (cddlib, floating point)"
    return "brute-force basis enumeration (numpy)"


@contract(V=Array((1, 2), min_size=0, low=-1e-9))
def column_entropies(V: np.ndarray) -> np.ndarray:
    """Entropy in nats of each row of ``V`` (rows are distributions; ``0 log 0 = 0``)."""
    V = np.asarray(V, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(V > 0, V * np.log(V), 0.0)
    return -t.sum(axis=-1)


@contract(p_sx=_JOINT, eps_l=EPSILON, eps_u=EPSILON, subset=_SUBSET)
def alip_column_polytope(
    p_sx: Any, eps_l: float, eps_u: float, subset: Any = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """H-representation of ``Pi(A)`` (eq. 21) as ``A_ub v <= b_ub``, ``A_eq v = b_eq``.

    Rows of ``A_ub``: ``K v <= e^{eps_u} P_S`` (max-lift), ``-K v <= -e^{-eps_l} P_S`` (min-lift),
    ``-v <= 0``; with ``K[s, x] = P_{S|X}(s|x)`` restricted to ``x in A``. ``A_eq = 1^T``, ``b_eq = 1``.
    """
    return _polytope(_check_joint(p_sx, "p_sx"), eps_l, eps_u, subset)


def _polytope(p_sx, eps_l, eps_u, subset):
    n_x = p_sx.shape[1]
    idx = np.arange(n_x) if subset is None else np.asarray(subset, dtype=int).ravel()
    if idx.size == 0 or np.unique(idx).size != idx.size or idx.min() < 0 or idx.max() >= n_x:
        raise ValueError("subset must be non-empty distinct indices of X")
    p_s = p_sx.sum(axis=1)
    p_x = p_sx.sum(axis=0)
    K = p_sx[:, idx] / p_x[idx]
    m = idx.size
    A_ub = np.vstack([K, -K, -np.eye(m)])
    b_ub = np.concatenate([_max_lift_bound(K, p_s, eps_u), -np.exp(-eps_l) * p_s, np.zeros(m)])
    return A_ub, b_ub, np.ones((1, m)), np.ones(1)


def _max_lift_bound(K: np.ndarray, p_s: np.ndarray, eps_u: float) -> np.ndarray:
    """``e^{eps_u} P_S``, the right-hand side of the max-lift rows ``K v <= e^{eps_u} P_S``.

    ``K v <= max_x K[s, x]`` for every distribution ``v``, so a row whose bound reaches
    ``max_x K[s, x]`` constrains nothing; beyond ``eps_u = 700`` (``e^{eps_u}`` overflows float64 at
    709.8, and ``inf`` bounds made a looser budget look infeasible) such a row gets the finite,
    inactive bound ``max_x K[s, x] + 1``, and every other row ``exp(eps_u + log P_S)``.  Below 700 a
    row whose bound exceeds ``1e8 max_x K[s, x]`` gets the same inactive bound: bounds near
    ``1 / machine epsilon`` (from ``eps_u`` about 37 on) broke Qhull and cdd, and
    ``optimal_random_response([[0.3, 0.2], [0.1, 0.4]], 0.5, eps_u)`` was reported infeasible for
    ``eps_u`` in [37, 700] although feasible at 36 and at 710; rows within that factor keep
    ``e^{eps_u} P_S`` exactly (no result with ``eps_u < 18.4`` changes)."""
    top = K.max(axis=1)
    if eps_u <= 700.0:
        bound = np.exp(eps_u) * p_s
        return np.where(bound > 1e8 * top, top + 1.0, bound)
    with np.errstate(divide="ignore"):
        log_bound = eps_u + np.log(p_s)
    return np.where(log_bound >= np.log(top), top + 1.0, np.exp(np.minimum(log_bound, 700.0)))


def _vertices_cdd(A_ub, b_ub, A_eq, b_eq, decimals=None):
    rows = np.vstack([np.column_stack([b_ub, -A_ub]), np.column_stack([b_eq, -A_eq])])
    if decimals is not None:
        rows = np.round(rows, decimals)
    lin = range(len(b_ub), len(b_ub) + len(b_eq))
    mat = _cdd.matrix_from_array(rows.tolist(), lin_set=lin, rep_type=_cdd.RepType.INEQUALITY)
    poly = _cdd.polyhedron_from_matrix(mat)
    gen = np.array(_cdd.copy_generators(poly).array, dtype=float)
    if gen.size == 0:
        return np.zeros((0, A_ub.shape[1]))
    if np.any(np.abs(gen[:, 0]) < 0.5):
        raise ValueError("the polytope is unbounded (cdd returned rays)")
    return gen[:, 1:]


def _vertices_qhull(A_ub, b_ub, A_eq, b_eq):
    """Vertices by Qhull's halfspace intersection (scipy) in reduced coordinates.

    The equalities are eliminated (``v = v_p + N z``, ``N`` an orthonormal basis of the null space of
    ``A_eq``); an interior point is the Chebyshev centre of ``{z : A_ub (v_p + N z) <= b_ub}`` (LP).
    Returns ``None`` when Qhull cannot be used (dimension < 2, no interior, Qhull error), so that
    the caller falls back to another method; an empty array when the polytope is empty.
    """
    from scipy.spatial import HalfspaceIntersection  # noqa: PLC0415 lazy: scipy/numpy submodule loaded at first use

    d = A_ub.shape[1]
    if A_eq.shape[0]:
        v_p, *_ = np.linalg.lstsq(A_eq, b_eq, rcond=None)
        if not np.allclose(A_eq @ v_p, b_eq, atol=1e-10):
            return np.zeros((0, d))
        _, sv, vt = np.linalg.svd(A_eq)
        rank = int(np.sum(sv > 1e-10 * max(sv.max(), 1.0)))
        N = vt[rank:].T
    else:
        v_p, N = np.zeros(d), np.eye(d)
    k = N.shape[1]
    if k < 2:
        return None
    Ar, br = A_ub @ N, b_ub - A_ub @ v_p
    norms = np.linalg.norm(Ar, axis=1)
    zero = norms < 1e-14
    if np.any(br[zero] < -1e-12):
        return np.zeros((0, d))
    Ar, br, norms = Ar[~zero], br[~zero], norms[~zero]
    res = linprog(
        np.r_[np.zeros(k), -1.0], A_ub=np.c_[Ar, norms], b_ub=br, bounds=[(None, None)] * k + [(0, 1.0)], method="highs"
    )
    if res.status == 2:
        return np.zeros((0, d))
    if res.status != 0 or res.x[-1] < 1e-9:
        return None  # empty interior (lower-dimensional polytope): let an exact method handle it
    try:
        hs = HalfspaceIntersection(np.c_[Ar, -br], res.x[:k])
    except Exception:  # scipy.spatial.QhullError and numerical trouble
        return None
    return v_p + hs.intersections @ N.T


def _vertices_bruteforce(A_ub, b_ub, A_eq, b_eq, tol=1e-9):
    """All vertices as basic feasible solutions: ``d - n_eq`` active inequalities + the equalities."""
    d = A_ub.shape[1]
    if A_eq.shape[0]:  # drop redundant equalities (e.g. sum v = 1 implied by P_{S|X} v = P_S)
        from scipy.linalg import qr  # noqa: PLC0415 lazy: scipy/numpy submodule loaded at first use

        _, R, piv = qr(A_eq.T, pivoting=True)
        diag = np.abs(np.diag(R))
        r = int(np.sum(diag > 1e-10 * max(diag.max(), 1.0)))
        keep = np.sort(piv[:r])
        A_eq, b_eq = A_eq[keep], b_eq[keep]
    k = d - A_eq.shape[0]
    combos = np.array(list(itertools.combinations(range(A_ub.shape[0]), k)), dtype=int).reshape(-1, k)
    if len(combos) > 2_000_000:
        raise ValueError("polytope too large for brute-force vertex enumeration; install pycddlib")
    M = np.concatenate([A_ub[combos], np.broadcast_to(A_eq, (len(combos),) + A_eq.shape)], axis=1)
    rhs = np.concatenate([b_ub[combos], np.broadcast_to(b_eq, (len(combos), len(b_eq)))], axis=1)
    with np.errstate(all="ignore"):
        cond = np.linalg.cond(M)
    good = cond < 1e12
    if not np.any(good):
        return np.zeros((0, d))
    v = np.linalg.solve(M[good], rhs[good][..., None])[..., 0]
    scale = 1 + np.abs(b_ub)
    feas = np.all(v @ A_ub.T - b_ub <= tol * scale, axis=1)
    out = v[feas]
    return out


@contract(
    A_ub=Array(2),
    b_ub=Array(1),
    A_eq=Optional(Array(2, min_size=0)),
    b_eq=Optional(Array(1, min_size=0)),
    method=_METHOD,
    tol=Real(0, 1e-3),
)
def polytope_vertices(
    A_ub: np.ndarray,
    b_ub: np.ndarray,
    A_eq: np.ndarray | None = None,
    b_eq: np.ndarray | None = None,
    *,
    method: str = "auto",
    tol: float = 1e-9,
) -> np.ndarray:
    """Vertices of the bounded polytope ``{v : A_ub v <= b_ub, A_eq v = b_eq}``.

    ``method="qhull"``: Qhull's halfspace intersection (``scipy.spatial.HalfspaceIntersection``) in
    coordinates reduced by the equalities, around the Chebyshev centre (no extra dependency; the
    tests check it against cdd and brute force). ``method="cdd"``: pycddlib double description in
    floating point; on cdd's "numerical inconsistency" error the coefficients are rounded to 12, 10,
    8 decimals and retried.
    ``method="bruteforce"``: every choice of ``d - n_eq`` active inequalities, solved and kept if
    feasible (exact, ``O(C(n_ineq, d - n_eq))``: small polytopes and tests only).
    ``"auto"``: Qhull; when it cannot be used (a polytope of dimension < 2 or without interior, e.g.
    a single-symbol block), cdd if installed, else brute force.
    Vertices are verified against the inequalities (violations > ``tol`` dropped) and deduplicated
    to 1e-10. Returns an ``M x d`` array.
    """
    if b_ub.size != A_ub.shape[0]:
        raise ValueError(f"b_ub must hold one bound per row of A_ub ({A_ub.shape[0]}), got {b_ub.size}")
    if (A_eq is None) != (b_eq is None):
        raise ValueError("A_eq and b_eq must be given together")
    if A_eq is not None and b_eq is not None and (A_eq.shape[1] != A_ub.shape[1] or b_eq.size != A_eq.shape[0]):
        raise ValueError(
            f"A_eq must have the {A_ub.shape[1]} columns of A_ub and b_eq one entry per row of A_eq, got A_eq "
            f"{A_eq.shape} and b_eq of {b_eq.size}"
        )
    return _polytope_vertices(A_ub, b_ub, A_eq, b_eq, method, tol)


def _polytope_vertices(A_ub, b_ub, A_eq=None, b_eq=None, method="auto", tol=1e-9):
    A_ub = np.asarray(A_ub, dtype=float)
    b_ub = np.asarray(b_ub, dtype=float)
    d = A_ub.shape[1]
    if A_eq is None:
        A_eq, b_eq = np.zeros((0, d)), np.zeros(0)
    A_eq = np.asarray(A_eq, dtype=float).reshape(-1, d)
    b_eq = np.asarray(b_eq, dtype=float).ravel()
    if method == "auto":
        V = _vertices_qhull(A_ub, b_ub, A_eq, b_eq)
        if V is not None:
            method = "done"
        else:
            method = "cdd" if _HAS_CDD else "bruteforce"
    if method == "done":
        pass
    elif method == "qhull":
        V = _vertices_qhull(A_ub, b_ub, A_eq, b_eq)
        if V is None:
            raise ValueError("Qhull cannot enumerate this polytope (dimension < 2 or empty interior)")
    elif method == "cdd":
        if not _HAS_CDD:
            raise ImportError("pycddlib is not installed (pip install pycddlib-standalone)")
        V = None
        for dec in (None, 12, 10, 8):
            try:
                V = _vertices_cdd(A_ub, b_ub, A_eq, b_eq, dec)
                break
            except RuntimeError:
                continue
        if V is None:
            raise RuntimeError("cdd vertex enumeration failed after rounding retries")
    elif method == "bruteforce":
        V = _vertices_bruteforce(A_ub, b_ub, A_eq, b_eq, tol)
    else:
        raise ValueError(f"method must be 'auto', 'qhull', 'cdd' or 'bruteforce', got {method!r}")
    if V.shape[0] == 0:
        return V.reshape(0, d)
    scale = 1 + np.abs(b_ub)
    V = V[np.all(V @ A_ub.T - b_ub <= tol * scale, axis=1)]
    if A_eq.shape[0]:
        V = V[np.all(np.abs(V @ A_eq.T - b_eq) <= tol * (1 + np.abs(b_eq)), axis=1)]
    if V.shape[0] > 1:  # deduplicate to 1e-10 (rows compared as bytes: much faster than a lexicographic sort)
        key = np.ascontiguousarray(np.round(V, 10) + 0.0)  # + 0.0 turns -0.0 into 0.0
        _, first = np.unique(
            key.view(np.dtype((np.void, key.dtype.itemsize * key.shape[1]))).ravel(), return_index=True
        )
        V = V[np.sort(first)]
    return V


@contract(V=Array(2, min_size=0), costs=Array(1, min_size=0), target=Array(1), tol=Real(0, 1e-6))
def min_concave_over_vertices(
    V: np.ndarray, costs: np.ndarray, target: np.ndarray, *, tol: float = 1e-12
) -> np.ndarray | None:
    """LP (22): ``min_beta <costs, beta>`` s.t. ``beta >= 0``, ``sum_k beta_k V[k] = target`` (HiGHS).

    With many columns the LP is solved by column generation (see the module docstring). The support
    of the optimal basic solution is re-solved exactly (least squares on the at most ``d`` active
    columns) so that ``sum_k beta_k V[k] = target`` holds to machine precision.
    Returns ``beta`` (entries ``<= tol`` set to 0) or ``None`` if the LP is infeasible.
    """
    if V.shape[0] != costs.shape[0] or (V.shape[0] and V.shape[1] != target.shape[0]):
        raise ValueError(f"V ({V.shape}), costs ({costs.shape}) and target ({target.shape}) do not match")
    return _min_concave(V, costs, target, tol)


_LP_OPTIONS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}


def _lp22(costs, V, target):
    return linprog(costs, A_eq=V.T, b_eq=target, bounds=(0, None), method="highs", options=_LP_OPTIONS)


def _lp22_column_generation(V, costs, target, *, batch: int = 64, max_rounds: int = 200):
    """LP (22) by column generation; returns a result with ``x`` over all columns (or None)."""
    M = V.shape[0]
    start = np.unique(np.r_[np.argsort(costs, kind="stable")[: 2 * V.shape[1] + 16], np.argmax(V, axis=0)])
    idx = start
    for _ in range(max_rounds):
        res = _lp22(costs[idx], V[idx], target)
        if res.status == 2:  # the restricted set cannot reach the target yet: widen it
            if idx.size == M:
                return None
            idx = np.unique(np.r_[idx, np.argsort(costs, kind="stable")[: min(M, 2 * idx.size)]])
            continue
        if res.status != 0:
            return _lp22(costs, V, target)  # numerical trouble: the full LP decides
        reduced = costs - V @ res.eqlin.marginals
        reduced[idx] = 0.0
        neg = np.flatnonzero(reduced < -1e-11 * (1 + np.abs(costs)))
        if neg.size == 0:
            x = np.zeros(M)
            x[idx] = res.x
            res.x = x
            return res
        idx = np.union1d(idx, neg[np.argsort(reduced[neg], kind="stable")[:batch]])
    return _lp22(costs, V, target)


_BASES_MAX = 4000  #: largest number of bases enumerated directly instead of calling the LP solver


def _lp22_bases(V, costs, target):
    """LP (22) for a small block by enumerating its bases: every choice of ``m = len(target)`` vertices,
    solved for ``beta`` (kept if ``beta >= 0`` reproduces the target), the cheapest kept. Exact for a
    bounded LP (an optimum is attained at a basic feasible solution); returns ``x`` over all columns, or
    ``None`` when no basis is feasible (LP infeasible, as ``V`` has full rank ``m``). Used when
    ``C(M, m) <= _BASES_MAX``: it costs microseconds where a call of the general solver costs milliseconds
    of set-up (most SRR blocks)."""
    M, m = V.shape
    combos = np.array(list(itertools.combinations(range(M), m)), dtype=int).reshape(-1, m)
    B = np.transpose(V[combos], (0, 2, 1))  # (c, m, m): columns are the chosen vertices
    with np.errstate(all="ignore"):
        ok = np.abs(np.linalg.det(B)) > 1e-13
        if not ok.any():
            return None
        sol = np.linalg.solve(B[ok], np.broadcast_to(target, (int(ok.sum()), m))[..., None])[..., 0]
    combos = combos[ok]
    feas = np.all(sol >= -1e-12, axis=1) & np.all(np.abs(np.einsum("cij,cj->ci", B[ok], sol) - target) <= 1e-10, axis=1)
    if not feas.any():
        return None
    cost = np.einsum("cj,cj->c", costs[combos[feas]], sol[feas])
    k = int(np.argmin(cost))
    x = np.zeros(M)
    x[combos[feas][k]] = np.clip(sol[feas][k], 0.0, None)
    return x


def _min_concave(V, costs, target, tol=1e-12):
    V = np.asarray(V, dtype=float)
    target = np.asarray(target, dtype=float)
    if V.shape[0] == 0:
        return None
    M, m = V.shape
    if M >= m and math.comb(M, m) <= _BASES_MAX and np.linalg.matrix_rank(V) == m:
        x = _lp22_bases(V, costs, target)  # full row rank: a feasible LP has a basic feasible solution
        if x is None:
            return None
    else:
        res = _lp22_column_generation(V, costs, target) if M >= _CG_MIN else _lp22(costs, V, target)
        if res is None or res.status != 0:
            return None
        x = res.x
    beta = np.where(x > tol, x, 0.0)
    sup = np.flatnonzero(beta)
    sol, *_ = np.linalg.lstsq(V[sup].T, target, rcond=None)
    if np.all(sol > 0) and np.allclose(V[sup].T @ sol, target, atol=1e-12, rtol=1e-10):
        beta[sup] = sol
    return beta


def _forward_channel(columns: np.ndarray, weights: np.ndarray, p_x: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Forward channel ``C[x, y] = beta_y v_y(x) / P_X(x)`` of an LP solution, rows renormalised.

    An input whose row receives no mass (``sum_y beta_y v_y(x) = 0``) has a probability ``P_X(x)``
    below what the LP (22) resolves (HiGHS works to an absolute 1e-10): the row would be ``0/0``.
    That is a clear ``ValueError`` naming the input, never a NaN row.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        C = (columns * weights[:, None]).T / p_x[:, None]
    mass = C.sum(axis=1)
    bad = ~(np.isfinite(mass) & (mass > 0))
    if np.any(bad):
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"p_sx: the optimal random response leaves input x={int(idx[i])} (P_X = {p_x[i]:.3g}) without any "
            "output: its probability is below the resolution of the LP (22) (absolute tolerance 1e-10), so "
            "the channel is numerically ill-posed; merge or drop inputs of negligible probability first"
        )
    return C / mass[:, None]


@dataclass
class ORRResult:
    """Result of :func:`optimal_random_response` on a subset ``A`` of X.

    ``vertices`` (``M x |A|``) and ``beta`` (M) are the enumerated columns and the LP weights
    (``beta`` is ``None`` when the LP is infeasible); ``columns`` / ``weights`` keep the outputs with
    ``beta > 0`` (eqs. 23-24); ``channel`` is the forward channel on ``A``,
    ``C[x, y] = beta_y v_y(x) / P_X(x)`` (``|A| x |Y_A|``).
    """

    subset: np.ndarray
    vertices: np.ndarray
    beta: np.ndarray | None
    columns: np.ndarray | None = None
    weights: np.ndarray | None = None
    channel: np.ndarray | None = None
    cond_entropy: float = float("nan")  #: sum_y beta_y H(v_y) in nats (the block's H(X|Y))

    @property
    def feasible(self) -> bool:
        return self.beta is not None

    @property
    def n_vertices(self) -> int:
        return int(self.vertices.shape[0])


@contract(p_sx=_JOINT, eps_l=EPSILON, eps_u=EPSILON, subset=_SUBSET, method=_METHOD)
def optimal_random_response(
    p_sx: Any, eps_l: float, eps_u: float, *, subset: Any = None, method: str = "auto"
) -> ORRResult:
    """(Asymmetric) optimal random response on ``A = subset`` (all of X by default): AORR, eq. 12.

    Enumerates the vertices of ``Pi(A)`` (eq. 21) and solves LP (22) with right-hand side
    ``P_X|_A``; ``eps_l = eps_u`` gives ORR for LIP. On ``A = X`` the LP is always feasible
    (``P_X`` itself is a feasible column since ``l(s, X) = 1``); on a block it is feasible iff the
    merged block satisfies ALIP (not whenever the polytope is non-empty, as Algorithm 2 tests).
    """
    return _orr(_check_joint(p_sx, "p_sx"), eps_l, eps_u, subset, method)


def _orr(p_sx, eps_l, eps_u, subset=None, method="auto") -> ORRResult:
    A_ub, b_ub, A_eq, b_eq = _polytope(p_sx, eps_l, eps_u, subset)
    idx = np.arange(p_sx.shape[1]) if subset is None else np.asarray(subset, dtype=int).ravel()
    p_x = p_sx.sum(axis=0)[idx]
    if idx.size == 1:
        V = np.ones((1, 1))
        if np.any(A_ub @ V[0] - b_ub > 1e-12 * (1 + np.abs(b_ub))):
            V = np.zeros((0, 1))
    else:
        V = _polytope_vertices(A_ub, b_ub, A_eq, b_eq, method)
    V = np.clip(V, 0.0, None)
    if V.shape[0]:
        V = V / V.sum(axis=1, keepdims=True)
    h = column_entropies.__wrapped__(V)
    beta = _min_concave(V, h, p_x)
    res = ORRResult(idx, V, beta)
    if beta is not None:
        keep = beta > 0
        res.columns, res.weights = V[keep], beta[keep]
        res.channel = _forward_channel(res.columns, res.weights, p_x, res.subset)
        res.cond_entropy = float(h[keep] @ res.weights)
    return res


@contract(p_sx=_JOINT, eps_l=EPSILON, eps_u=EPSILON, method=_METHOD)
def full_channel(p_sx: Any, eps_l: float, eps_u: float, *, method: str = "auto") -> np.ndarray:
    """Forward channel ``C[x, y]`` of AORR on all of X (eq. 12; always feasible)."""
    r = _orr(_check_joint(p_sx, "p_sx"), eps_l, eps_u, None, method)
    if r.channel is None:  # pragma: no cover - numerical failure of the vertex enumeration
        raise RuntimeError("AORR LP on all of X reported infeasible: vertex enumeration lost vertices")
    return r.channel


@dataclass
class SRRResult:
    """Result of :func:`subset_random_response` (Algorithm 2).

    ``blocks``: the final blocks ``O`` randomised by ORR; ``channel``: the full forward channel
    (outputs: ``X_L`` then each block's ORR outputs); ``fallback``: True when the merged ``X_H``
    violates ALIP so that no randomisation confined to ``X_H`` is private, and subset merging was
    applied instead (lines 20-21); ``partition``: Algorithm 1's partition ``G``.
    """

    low: np.ndarray
    partition: list
    blocks: list = field(default_factory=list)
    channel: np.ndarray | None = None
    fallback: bool = False
    n_vertices: int = 0
    lp_failures: int = 0

    @property
    def largest_block(self) -> int:
        return max((len(b) for b in self.blocks), default=0)


@contract(
    p_sx=_JOINT,
    eps_l=EPSILON,
    eps_u=EPSILON,
    feasibility=OneOf("lp", "printed"),
    method=_METHOD,
    risk=OneOf("inverse", "printed"),
)
def subset_random_response(
    p_sx: Any,
    eps_l: float,
    eps_u: float,
    *,
    feasibility: str = "lp",
    method: str = "auto",
    risk: str = "inverse",
) -> SRRResult:
    """Subset random response, Algorithm 2 (eqs. 15-26).

    1. ``(X_L, G)`` from Algorithm 1 (:func:`ldpnb.mechanisms.watchdog.subset_merging`, ALIP criterion).
    2. Take blocks of ``G`` in order; while the current block is infeasible, merge the next block of
       ``G`` into it (line 9) or, when ``G`` is exhausted, the last finished block (line 13).
    3. If everything merged is still infeasible, fall back to subset merging (lines 20-21); else
       assemble ``P_{X|Y}``, ``P_Y`` (eqs. 25-26): identity on ``X_L``, ORR on each block.

    ``feasibility="lp"`` (default): a block ``A`` is feasible iff LP (22) is, i.e.
    iff the merged block satisfies ALIP. ``feasibility="printed"``: the paper's test
    ``Pi(A) != {}`` (weaker; a block whose LP is then infeasible is merged, counted in
    ``lp_failures``).
    """
    p_sx = _check_joint(p_sx, "p_sx")
    n_x = p_sx.shape[1]
    p_s = p_sx.sum(axis=1)
    crit = ALIP(eps_l, eps_u, risk=risk)
    mm = _subset_merging(p_sx, crit)
    G = [list(g) for g in mm.groups]
    out = SRRResult(mm.low, [np.array(g) for g in G])

    def feasible(A: list) -> bool:
        cols = p_sx[:, A].sum(axis=1)
        if feasibility == "lp":
            L = cols / (p_s * cols.sum())
            return not bool(crit.violated(L[:, None], p_s)[0])
        A_ub, b_ub, A_eq, b_eq = _polytope(p_sx, eps_l, eps_u, A)
        r = linprog(np.zeros(len(A)), A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=(None, None), method="highs")
        return r.status == 0

    O: list[list[int]] = []
    while G:
        A = G.pop(0)
        ok = feasible(A)
        while not ok and (G or O):
            A = A + G.pop(0) if G else O.pop() + A
            ok = feasible(A)
        O.append(A)
    if len(O) == 1 and not feasible(O[0]):
        out.fallback = True
        out.blocks = [np.sort(np.array(O[0]))]
        out.channel = MergeMechanism(n_x, mm.low, mm.groups).channel()
        return out
    blocks_C = []
    final_blocks = []
    for A in O:
        A = np.sort(np.array(A))
        r = _orr(p_sx, eps_l, eps_u, A, method)
        out.n_vertices += r.n_vertices
        if not r.feasible:  # only possible with feasibility="printed" (or numerical trouble)
            out.lp_failures += 1
            blocks_C.append(np.ones((len(A), 1)))
        else:
            blocks_C.append(r.channel)
        final_blocks.append(A)
    out.blocks = final_blocks
    n_out = len(mm.low) + sum(c.shape[1] for c in blocks_C)
    C = np.zeros((n_x, n_out))
    C[mm.low, np.arange(len(mm.low))] = 1.0
    j = len(mm.low)
    for A, c in zip(final_blocks, blocks_C):
        C[np.ix_(A, np.arange(j, j + c.shape[1]))] = c
        j += c.shape[1]
    out.channel = C
    return out


@contract(p_sx=_JOINT, method=_METHOD)
def perfect_privacy_response(p_sx: Any, *, method: str = "auto") -> ORRResult:
    """The epsilon -> 0 limit of (A)ORR: the best mechanism with ``P_{S|Y}(.|y) = P_S`` for every y.

    Feasible columns form ``{v >= 0 : sum_x P_{S|X}(s|x) v_x = P_S(s) for all s}`` (``sum v = 1`` is
    implied); the LP (22) over its vertices gives the largest ``I(X;Y)`` with ``I(S;Y) = 0``. It is
    positive when ``P_{S|X}`` has a non-trivial null space on the simplex (generically when
    ``|X| > |S|``), which is why AORR's utility does not vanish as epsilon -> 0.
    """
    p_sx = _check_joint(p_sx, "p_sx")
    n_x = p_sx.shape[1]
    p_s, p_x = p_sx.sum(axis=1), p_sx.sum(axis=0)
    K = p_sx / p_x
    V = _polytope_vertices(-np.eye(n_x), np.zeros(n_x), K, p_s, method)
    V = np.clip(V, 0.0, None)
    V = V / V.sum(axis=1, keepdims=True)
    h = column_entropies.__wrapped__(V)
    beta = _min_concave(V, h, p_x)
    res = ORRResult(np.arange(n_x), V, beta)
    if beta is not None:
        keep = beta > 0
        res.columns, res.weights = V[keep], beta[keep]
        res.channel = _forward_channel(res.columns, res.weights, p_x, res.subset)
        res.cond_entropy = float(h[keep] @ res.weights)
    return res


# --------------------------------------------------------------------------------------------
# Mechanism objects (the cross-paper chapter applies every measure to every mechanism)
# --------------------------------------------------------------------------------------------


__all__ += ["AORR", "SRR"]


class AORR(SecretChannelMechanism):
    r"""(Asymmetric) optimal random response on all of X (Zarrabian et al., eq. 12, LP (22)) as a
    :class:`~ldpnb.mechanisms.Mechanism`: the ``(eps_l, eps_u)``-ALIP channel of largest
    ``I(X;Y)``, ``C[x, y] = beta_y v_y(x) / P_X(x)`` (:func:`full_channel`).  ``eps_l = eps_u`` is ORR.
    Claim: ``(eps_l + eps_u)``-LDP for the secret S (see
    :class:`~ldpnb.mechanisms.watchdog.SecretChannelMechanism`).
    """

    family = "AORR"

    @contract(p_sx=_JOINT, eps_l=EPSILON, eps_u=EPSILON, method=_METHOD)
    def __init__(self, p_sx: Any, eps_l: float, eps_u: float, *, method: str = "auto") -> None:
        p_sx = _check_joint(p_sx, "p_sx")
        self.result = _orr(p_sx, eps_l, eps_u, None, method)
        if self.result.channel is None:  # pragma: no cover - numerical failure of the vertex enumeration
            raise RuntimeError("AORR LP on all of X reported infeasible: vertex enumeration lost vertices")
        self._init_secret(self.result.channel, p_sx, eps_l, eps_u)


class SRR(SecretChannelMechanism):
    r"""Subset random response (Zarrabian et al., Algorithm 2) as a :class:`~ldpnb.mechanisms.Mechanism`:
    identity on the low-risk symbols, ORR on each block of high-risk symbols
    (:func:`subset_random_response`).  Claim: ``(eps_l + eps_u)``-LDP for the secret S.
    """

    family = "SRR"

    @contract(p_sx=_JOINT, eps_l=EPSILON, eps_u=EPSILON, method=_METHOD)
    def __init__(self, p_sx: Any, eps_l: float, eps_u: float, *, method: str = "auto") -> None:
        p_sx = _check_joint(p_sx, "p_sx")
        self.result = subset_random_response(p_sx, eps_l, eps_u, method=method)
        self._init_secret(self.result.channel, p_sx, eps_l, eps_u)
