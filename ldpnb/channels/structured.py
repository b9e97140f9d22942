r"""Structured channel operators: the products IBU needs, without the dense matrix.

IBU (ElSalamouny and Palamidessi 2020, Algorithm 1) touches the channel :math:`C` (rows =
inputs, columns = outputs) only through two products per iteration,

.. math:: \theta \mapsto \theta C \quad(\text{the output distribution}), \qquad
          r \mapsto C r \quad(\text{the back-projection of } r = q \oslash \theta C).

For the mechanisms of the book these products have closed forms much cheaper than the
:math:`O(km)` dense product:

* **diagonal plus constant** (k-RR / GRR, and the support matrices of OUE, SUE, OLH, SS
  used by support-count IBU): :math:`C = aI + b\mathbf{1}\mathbf{1}^\top`, so
  :math:`\theta C = a\theta + b\,(\textstyle\sum\theta)\mathbf{1}`, :math:`O(k)`
  (:class:`DiagPlusConstChannel`; k-RR's is ``GRR(k, eps).operator()``);
* **translation invariant on a grid** (linear or planar geometric, discretised Laplace),
  :math:`C[x, z] = K(z - x)`, either on the padded output grid (``mode="full"``) or
  truncated by *clamping* the output to the grid (``mode="clamp"``, the truncated
  mechanisms of :mod:`ldpnb.mechanisms`).  The products are FFT convolutions,
  :math:`O(k \log k)` (:class:`ConvolutionChannel`); the clamped boundary is handled exactly
  (derivation in :class:`ConvolutionChannel`).

The operators know no mechanism family: each family builds its own
(:meth:`ldpnb.mechanisms.Mechanism.operator`: ``GRR``, ``TruncatedGeometric``, ``DiscreteLaplace``,
``PlanarGeometric``, ``PlanarLaplace``).  ``KRRChannel`` and the factories
``ConvolutionChannel.geometric/laplace/planar_geometric/planar_laplace`` are the former names, kept
for one release.

Every operator has ``shape``, ``matvec(theta)`` (:math:`\theta C`, along the last axis, so a
batch ``(R, k)`` of distributions gives ``(R, m)``), ``rmatvec(r)`` (:math:`C r`, along the
last axis) and ``dense()``.  ``matvec`` and ``rmatvec`` are linear maps that check their argument
(finite real numbers, any sign, the last axis of the right length); IBU's engines call the unchecked
products ``_matvec`` / ``_rmatvec`` on the iterates they form, so no check is paid per iteration.
:func:`ldpnb.estimators.ibu` and :func:`ldpnb.estimators.ibu_batch` accept an operator in place of
the dense matrix and give the same iterates (to rounding, tested to 1e-12).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.fft as sfft

from ldpnb.contracts import (
    EPSILON,
    MAX_DENSE,
    MAX_DOMAIN,
    MAX_ENTRIES,
    POSITIVE,
    AnyOf,
    Array,
    Boolean,
    Integer,
    OneOf,
    Probability,
    Real,
    Unchecked,
    contract,
)

_CELL = AnyOf(POSITIVE, Array(1, shape=(2,), low=0.0))
#: The argument of a product: finite real numbers (any sign: the products are linear maps), at most
#: MAX_ENTRIES of them; the length of the last axis is checked against the operator's shape.
_VECTORS = Array(None, max_size=MAX_ENTRIES)

__all__ = [
    "ChannelOperator",
    "DiagPlusConstChannel",
    "KRRChannel",
    "ConvolutionChannel",
    "is_operator",
]


def __getattr__(name: str) -> Any:
    if name == "KRRChannel":  # deprecated name of ldpnb.mechanisms.GRROperator (GRR(k, eps).operator())
        from ldpnb.mechanisms.grr import GRROperator  # noqa: PLC0415 lazy: deprecated alias of a family's operator

        return GRROperator
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@contract(channel=Unchecked("any object: the function tells what it is", example=None))
def is_operator(channel: Any) -> bool:
    """True if ``channel`` is a :class:`ChannelOperator` (not a dense array)."""
    return isinstance(channel, ChannelOperator)


class ChannelOperator:
    """Base class: a channel given by its products (rows = inputs, columns = outputs).

    Subclasses set ``shape = (k, m)`` and ``stochastic`` (rows sum to 1) and implement the unchecked
    products ``_matvec`` and ``_rmatvec`` (float64 arrays whose last axis has the right length, as IBU's
    engines call them once per iteration); the public :meth:`matvec` and :meth:`rmatvec` check their
    argument first.  (A subclass written against the former interface, overriding ``matvec`` and
    ``rmatvec`` themselves, still works: the unchecked products then call them.)
    """

    shape: tuple[int, int]
    stochastic: bool = True

    @contract(theta=_VECTORS)
    def matvec(self, theta) -> np.ndarray:
        r"""``theta @ C`` along the last axis: ``(..., k) -> (..., m)``.

        ``theta``: finite real numbers, any sign (a linear map: distributions, counts, or their
        differences); its last axis must have length ``k``.
        """
        return self._matvec(self._check_last(theta, self.shape[0], "theta"))

    @contract(r=_VECTORS)
    def rmatvec(self, r) -> np.ndarray:
        r"""``C @ r`` along the last axis: ``(..., m) -> (..., k)``.

        ``r``: finite real numbers, any sign (a linear map: IBU's ratios, residuals, gradients); its
        last axis must have length ``m``.
        """
        return self._rmatvec(self._check_last(r, self.shape[1], "r"))

    def _matvec(self, theta: np.ndarray) -> np.ndarray:
        """:meth:`matvec` without the checks (``theta``: float64, last axis of length ``k``)."""
        if type(self).matvec is not ChannelOperator.matvec:  # a subclass of the former interface
            return type(self).matvec(self, theta)
        raise NotImplementedError(f"{type(self).__name__} must implement _matvec")

    def _rmatvec(self, r: np.ndarray) -> np.ndarray:
        """:meth:`rmatvec` without the checks (``r``: float64, last axis of length ``m``)."""
        if type(self).rmatvec is not ChannelOperator.rmatvec:  # a subclass of the former interface
            return type(self).rmatvec(self, r)
        raise NotImplementedError(f"{type(self).__name__} must implement _rmatvec")

    def column_sums(self) -> np.ndarray:
        """``1 @ C`` (an output has probability 0 under every input iff its column sum is 0)."""
        return self._matvec(np.ones(self.shape[0]))

    def dense(self) -> np.ndarray:
        """The dense ``(k, m)`` matrix (row ``x`` = ``e_x @ C``); for tests and small sizes."""
        return self._matvec(np.eye(self.shape[0]))

    def _check_last(self, v, n: int, name: str) -> np.ndarray:
        v = np.asarray(v, dtype=np.float64)
        if v.ndim == 0 or v.shape[-1] != n:
            raise ValueError(f"{name} must have last axis of length {n}, got shape {v.shape}")
        return v

    def __repr__(self) -> str:
        return f"{type(self).__name__}(shape={self.shape})"


class DiagPlusConstChannel(ChannelOperator):
    r"""The ``k x k`` matrix :math:`C = aI + b\mathbf{1}\mathbf{1}^\top` (diagonal ``a + b``, off-diagonal ``b``).

    Products in :math:`O(k)`: :math:`\theta C = a\theta + b\,(\sum_x \theta_x)\mathbf{1}` and
    :math:`C r = a r + b\,(\sum_z r_z)\mathbf{1}` (``C`` is symmetric).

    Parameters
    ----------
    a, b : float
        ``b >= 0`` and ``a + b >= 0`` (nonnegative entries).
    k : int
        Size.
    support : bool
        ``False`` (default): a channel, rows must sum to 1 (``a + b k = 1``). ``True``: the
        *support matrix* of a pure frequency oracle, ``P(report supports v | input u)``
        (diagonal ``p``, off-diagonal ``q``; rows need not sum to 1), on which
        multi-freq-ldpy runs IBU over normalised support counts (Arcolezi et al.).
    """

    @contract(a=Real(), b=Real(0.0, None), k=Integer(2, MAX_DOMAIN), support=Boolean())
    def __init__(self, a: float, b: float, k: int, *, support: bool = False):
        self.k = k
        if a + b < 0:
            raise ValueError(f"entries must be nonnegative: need b >= 0 and a + b >= 0, got a={a}, b={b}")
        if b == 0 and a == 0:
            raise ValueError("a and b are both 0: the zero matrix is not a channel")
        row = a + b * self.k
        if not support and abs(row - 1.0) > 1e-9:
            raise ValueError(f"rows must sum to 1 (a + b k = {row:.12g}); pass support=True for a support matrix")
        self.a, self.b = a, b
        self.shape = (self.k, self.k)
        self.stochastic = not support

    @classmethod
    @contract(k=Integer(2, MAX_DOMAIN), p=Probability(), q=Probability())
    def from_support(cls, k: int, p: float, q: float) -> DiagPlusConstChannel:
        """Support matrix of a pure frequency oracle: ``p`` on the diagonal, ``q`` elsewhere (Wang et al. 2017)."""
        if not q < p:
            raise ValueError(f"q must be < p, got p={p}, q={q}")
        stochastic = abs(p + (k - 1) * q - 1.0) <= 1e-12
        return cls(p - q, q, k, support=not stochastic)

    def _matvec(self, theta: np.ndarray) -> np.ndarray:
        return self.a * theta + self.b * theta.sum(axis=-1, keepdims=True)

    def _rmatvec(self, r: np.ndarray) -> np.ndarray:
        return self.a * r + self.b * r.sum(axis=-1, keepdims=True)

    def dense(self) -> np.ndarray:
        C = np.full((self.k, self.k), self.b)
        C[np.diag_indices(self.k)] += self.a
        return C

    def __repr__(self) -> str:
        return f"{type(self).__name__}(a={self.a:.6g}, b={self.b:.6g}, k={self.k})"


# ------------------------------------------------------------------------------ convolution
def _fold_clamp(F: np.ndarray, axis: int, n: int, h: int) -> np.ndarray:
    """Clamp a full-convolution axis of length ``n + 2h`` onto ``n`` cells.

    Output index ``i = clamp(u - h, 0, n - 1)``: cell 0 collects ``u <= h``, cell ``n - 1``
    collects ``u >= n - 1 + h``, interior cells ``i`` get ``u = i + h``.  ``axis`` is negative.
    """
    pre = (slice(None),) * (F.ndim + axis)
    post = (slice(None),) * (-axis - 1)
    if n == 1:
        return F.sum(axis=axis, keepdims=True)
    out = F[pre + (slice(h, h + n),) + post].copy()
    out[pre + (0,) + post] = F[pre + (slice(0, h + 1),) + post].sum(axis=axis)
    out[pre + (n - 1,) + post] = F[pre + (slice(n - 1 + h, None),) + post].sum(axis=axis)
    return out


def _edge_pad(V: np.ndarray, pads: tuple[int, ...]) -> np.ndarray:
    """``np.pad(V, ..., mode="edge")`` on the last ``len(pads)`` axes (the same array, fewer passes)."""
    nd = len(pads)
    shape = V.shape[:-nd] + tuple(n + 2 * h for n, h in zip(V.shape[-nd:], pads))
    P = np.empty(shape)
    P[(...,) + tuple(slice(h, h + n) for n, h in zip(V.shape[-nd:], pads))] = V
    for a, (n, h) in enumerate(zip(V.shape[-nd:], pads)):
        if h == 0:
            continue
        pre = (...,) + tuple(slice(None) for _ in range(a))
        post = tuple(slice(hb, hb + nb) for nb, hb in zip(V.shape[-nd + a + 1 :], pads[a + 1 :]))
        P[pre + (slice(0, h),) + post] = P[pre + (slice(h, h + 1),) + post]
        P[pre + (slice(h + n, None),) + post] = P[pre + (slice(h + n - 1, h + n),) + post]
    return P


def _trimmed_core(K: np.ndarray, budget: float) -> np.ndarray:
    """The centred sub-kernel of smallest radius per axis whose dropped mass is at most ``budget``.

    Per axis ``a`` the radius is the smallest ``t`` with the mass of the offsets ``|d_a| > t``
    (all other offsets summed, cumulative sums of nonnegative terms from either end) at most
    ``budget / ndim``, so the whole dropped mass is at most ``budget``.  Returns ``K`` itself when
    nothing can be dropped.
    """
    sl = []
    for a in range(K.ndim):
        m = K.sum(axis=tuple(b for b in range(K.ndim) if b != a))
        h = (m.size - 1) // 2
        lo = np.cumsum(m[:h])  # lo[j] = mass of d <= j - h
        hi = np.cumsum(m[::-1][:h])  # hi[j] = mass of d >= h - j
        out = np.zeros(h + 1)  # out[t] = mass of |d| > t
        out[:h] = lo[::-1] + hi[::-1]
        t = int(np.argmax(out <= budget / K.ndim))
        sl.append(slice(h - t, h + t + 1))
    core = K[tuple(sl)]
    return K if core.shape == K.shape else np.ascontiguousarray(core)


def _dropped_mass(K: np.ndarray, core: np.ndarray) -> float:
    """Mass of ``K`` outside its centred sub-kernel ``core`` (a sum of nonnegative entries)."""
    if core is K:
        return 0.0
    keep = np.ones(K.shape, dtype=bool)
    keep[tuple(slice((s - c) // 2, (s + c) // 2) for s, c in zip(K.shape, core.shape))] = False
    return float(K[keep].sum())


class ConvolutionChannel(ChannelOperator):
    r"""Translation-invariant channel on a 1-D or 2-D grid, by FFT convolution.

    The input is a grid of shape ``grid = (n_1[, n_2])`` (cells flattened row-major, as in
    :mod:`ldpnb.grid` and :func:`ldpnb.mechanisms.planar_geometric_channel`); ``kernel`` has shape
    ``(2h_1 + 1[, 2h_2 + 1])`` and ``kernel[h + d]`` is the probability of the offset ``d``
    (``|d| <= h``; for ``mode="clamp"`` the end entries may hold the lumped tails
    ``d <= -h`` and ``d >= h``).  The noisy cell is ``u = x + d``.

    ``mode="full"``
        the output is the padded grid ``n + 2h`` (index ``u + h``), :math:`C[x, z] = K(z - x)`:
        the untruncated mechanism restricted to the window (rows sum to ``kernel.sum()``).
    ``mode="clamp"``
        the output is clamped to the grid, ``z = clamp(u)`` coordinate-wise: the truncated
        mechanisms (ElSalamouny and Palamidessi 2020, eq. (7)) and their planar versions.

    **Exact boundary (clamp).** Per axis let :math:`F = \theta * K` be the full convolution on
    ``n + 2h`` cells. Because clamping acts coordinate-wise on ``u``,

    .. math:: (\theta C)_i = \sum_u F_u\,[\mathrm{clamp}(u - h) = i]
       = F_{i+h}\ (0 < i < n-1),\quad F_{0..h}\ \text{summed}\ (i = 0),\quad
       F_{n-1+h..n-1+2h}\ \text{summed}\ (i = n-1),

    i.e. the overflow mass is folded back onto the boundary rows/columns.  Transposing,
    :math:`(C r)_x = \sum_d K(d)\, r_{\mathrm{clamp}(x + d)} = (K \star \tilde r)_x` with
    :math:`\tilde r` the edge-padded ``r`` (``np.pad(mode="edge")`` by ``h``): a correlation on
    the padded grid.  Both are circular FFT products of length ``L >= n + 2h`` (no wrap-around),
    with the kernel's transform computed once.  Cost :math:`O(k \log k)` per product against
    :math:`O(k^2)` dense (Richardson-Lucy / FFT-EM deconvolution).

    **Trimmed kernel (clamp).** The products use the centred sub-kernel of smallest radius
    ``t_a <= h_a`` per axis whose dropped mass (offsets ``|d_a| > t_a``, the lumped tails included)
    is at most ``trim * kernel.sum()`` (default ``2**-53``, the float64 resolution of a unit mass;
    ``trim=0`` keeps every nonzero entry), and pad to ``next_fast_len(n + 2t)`` instead of
    ``n + 2h``: for a geometric kernel at ``eps`` per cell, ``t`` is about ``37 / eps`` cells, so a
    ``64 x 64`` grid at ``eps = 2`` pads to ``108 x 108`` instead of ``192 x 192``.  Clamping of the
    kept offsets stays exact (the fold above with ``t`` for ``h``); each product entry moves by at
    most ``dropped * sum(theta)`` (attribute :attr:`dropped`), the order of the FFT rounding.

    Accuracy: FFT rounding is absolute, about ``1e-16 * max|theta|`` per entry; for a nonnegative
    ``theta``, tiny negative round-off is clipped to 0 in :meth:`matvec`.
    """

    @contract(
        kernel=Array((1, 2), low=0.0),
        grid=Array((0, 1), integer=True, low=1, high=MAX_DENSE),
        mode=OneOf("clamp", "full"),
        trim=Real(0.0, 1e-12),
    )
    def __init__(self, kernel, grid, *, mode: str = "clamp", trim: float = 2.0**-53):
        K = kernel
        grid = tuple(int(g) for g in np.atleast_1d(grid))
        if K.ndim != len(grid):
            raise ValueError(
                f"kernel must be 1-D or 2-D with one axis per grid axis, got kernel {K.shape}, grid {grid}"
            )
        if any(s % 2 == 0 for s in K.shape):
            raise ValueError(f"kernel must have odd length on every axis (offsets -h..h), got {K.shape}")
        if math.prod(grid) < 2 or math.prod(grid) > MAX_ENTRIES:
            raise ValueError(f"grid must have between 2 and {MAX_ENTRIES} cells, got {grid}")
        if np.any(K < 0):
            raise ValueError("kernel must be nonnegative")
        if mode not in ("clamp", "full"):
            raise ValueError(f"mode must be 'clamp' or 'full', got {mode!r}")
        self.kernel = K
        self.grid = grid
        self.mode = mode
        self.h = tuple((s - 1) // 2 for s in K.shape)
        self.out_grid = grid if mode == "clamp" else tuple(n + 2 * h for n, h in zip(grid, self.h))
        self.shape = (math.prod(grid), math.prod(self.out_grid))
        self.stochastic = abs(K.sum() - 1.0) <= 1e-9
        self.trim = trim
        core = _trimmed_core(K, trim * float(K.sum())) if mode == "clamp" else K
        self._h = tuple((s - 1) // 2 for s in core.shape)  # the radius the products use
        self.dropped = _dropped_mass(K, core)
        self._full = tuple(n + 2 * h for n, h in zip(grid, self._h))
        self._L = tuple(sfft.next_fast_len(f, real=True) for f in self._full)
        self._axes = tuple(range(-K.ndim, 0))
        self._Kf = sfft.rfftn(core, s=self._L, axes=self._axes)
        self._Kf_conj = np.conj(self._Kf)

    # -------------------------------------------------------------------- factories (deprecated)
    # The mechanisms own their operators (``TruncatedGeometric(k, eps).operator()``, ...): these
    # former factories are kept for one release as aliases of the same kernels.
    @classmethod
    @contract(k=Integer(2, MAX_ENTRIES // 4), epsilon=EPSILON)
    def geometric(cls, k: int, epsilon: float) -> ConvolutionChannel:
        """Deprecated alias of ``TruncatedGeometric(k, epsilon).operator()`` (any ``k``)."""
        from ldpnb.mechanisms.metric import _geometric_operator  # noqa: PLC0415 lazy: deprecated alias of a family's operator

        return _geometric_operator(k, epsilon)

    @classmethod
    @contract(k=Integer(2, MAX_ENTRIES // 4), epsilon=EPSILON, spacing=EPSILON)
    def laplace(cls, k: int, epsilon: float, *, spacing: float = 1.0) -> ConvolutionChannel:
        """Deprecated alias of ``DiscreteLaplace(k, epsilon, spacing).operator()`` (any ``k``)."""
        from ldpnb.mechanisms.metric import _laplace_operator  # noqa: PLC0415 lazy: deprecated alias of a family's operator

        return _laplace_operator(k, epsilon, spacing)

    @classmethod
    @contract(rows=Integer(1, MAX_DENSE), cols=Integer(1, MAX_DENSE), epsilon=EPSILON, cell_size=_CELL)
    def planar_geometric(cls, rows: int, cols: int, epsilon: float, cell_size: Any = 1.0) -> ConvolutionChannel:
        """Deprecated alias of ``PlanarGeometric(rows, cols, epsilon, cell_size).operator()`` (any grid)."""
        from ldpnb.mechanisms import metric as M  # noqa: PLC0415 lazy: deprecated alias of a family's operator

        rows, cols = M._check_grid(rows, cols)
        return M._planar_geometric_operator(rows, cols, epsilon, *M._cell_pair(cell_size))

    @classmethod
    @contract(
        rows=Integer(1, MAX_DENSE),
        cols=Integer(1, MAX_DENSE),
        epsilon=EPSILON,
        cell_size=_CELL,
        subdivisions=Integer(1, 64),
    )
    def planar_laplace(
        cls, rows: int, cols: int, epsilon: float, cell_size: Any = 1.0, *, subdivisions: int = 8
    ) -> ConvolutionChannel:
        """Deprecated alias of ``PlanarLaplace(rows, cols, epsilon, cell_size, subdivisions=...).operator()``."""
        from ldpnb.mechanisms import metric as M  # noqa: PLC0415 lazy: deprecated alias of a family's operator

        rows, cols = M._check_grid(rows, cols)
        return M._planar_laplace_operator(rows, cols, epsilon, *M._cell_pair(cell_size), subdivisions)

    # -------------------------------------------------------------------- products
    @contract(theta=_VECTORS)
    def matvec(self, theta) -> np.ndarray:
        r"""``theta @ C`` along the last axis: ``(..., k) -> (..., m)``.

        ``theta``: finite real numbers, any sign (a linear map); its last axis must have length ``k``.
        For a nonnegative ``theta`` the FFT's round-off below 0 is clipped (``theta C >= 0`` exactly
        then); with negative entries the product is the plain linear map.
        """
        t = self._check_last(theta, self.shape[0], "theta")
        if t.size and t.min() < 0:
            return self._convolve(t)
        return self._matvec(t)

    def _matvec(self, theta: np.ndarray) -> np.ndarray:
        # for a nonnegative theta (IBU's iterates, dense(), column_sums()): clip the FFT's round-off
        return np.maximum(self._on_grid(theta), 0.0).reshape(theta.shape[:-1] + (self.shape[1],))

    def _convolve(self, theta: np.ndarray) -> np.ndarray:
        """``theta @ C`` by FFT, unclipped (the linear map, to rounding)."""
        return self._on_grid(theta).reshape(theta.shape[:-1] + (self.shape[1],))

    def _on_grid(self, theta: np.ndarray) -> np.ndarray:
        """``theta @ C`` on the output grid (shape ``batch + out_grid``), unclipped."""
        T = theta.reshape(theta.shape[:-1] + self.grid)
        F = sfft.irfftn(sfft.rfftn(T, s=self._L, axes=self._axes) * self._Kf, s=self._L, axes=self._axes)
        F = F[(...,) + tuple(slice(0, f) for f in self._full)]
        if self.mode == "clamp":
            for ax, (n, h) in enumerate(zip(self.grid, self._h)):
                F = _fold_clamp(F, ax - len(self.grid), n, h)
        return F

    def _rmatvec(self, r: np.ndarray) -> np.ndarray:
        batch = r.shape[:-1]
        V = r.reshape(batch + self.out_grid)
        if self.mode == "clamp":
            V = _edge_pad(V, self._h)
        G = sfft.irfftn(sfft.rfftn(V, s=self._L, axes=self._axes) * self._Kf_conj, s=self._L, axes=self._axes)
        G = G[(...,) + tuple(slice(0, n) for n in self.grid)]
        return np.ascontiguousarray(G).reshape(batch + (self.shape[0],))

    def __repr__(self) -> str:
        return f"ConvolutionChannel(grid={self.grid}, kernel={self.kernel.shape}, mode={self.mode!r})"
