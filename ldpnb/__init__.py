"""ldpnb: privacy in the local model, the package behind an executable book.

Modules: :mod:`ldpnb.mechanisms` (channels and samplers), :mod:`ldpnb.estimators`
(INV, INV-N, INV-P, IBU), :mod:`ldpnb.info` (entropy, mutual information,
capacity), :mod:`ldpnb.metrics` (EMD, errors), :mod:`ldpnb.datasets` (verified real
data), :mod:`ldpnb.grid`, :mod:`ldpnb.report` (reproduction reports),
:mod:`ldpnb.plotting`, :mod:`ldpnb.parallel`, and one module per paper.
"""

__version__ = "0.1.0"
