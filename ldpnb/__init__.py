"""ldpnb: privacy in the local model, the package behind an executable book.

Core, by concept (``tests/test_import_rule.py`` checks that each floor imports only lower ones):

- :mod:`ldpnb.mechanisms`: the local randomisers, one module per family, each a
  :class:`~ldpnb.mechanisms.Mechanism` object (exact channel, sampler, count simulator, its privacy
  claim and ``check()``), and the composite protocols (watchdog, ORR, multidimensional, Blahut-Arimoto);
- :mod:`ldpnb.channels`: operations valid on any channel (sampling, tight LDP and geo-ind levels) and
  structured operators;
- :mod:`ldpnb.estimators`: inversion (INV, INV-N, INV-P), IBU and the likelihood;
- :mod:`ldpnb.measures`: information, re-identification (PIE), PSE, lift, utility, lenses;
- :mod:`ldpnb.attacks`: plausible deniability, re-identification, attribute inference, linkage;
- :mod:`ldpnb.data`: the verified dataset registry, loaders and latitude/longitude grids;
- :mod:`ldpnb.audit`: statistical audits of the mechanisms;
- :mod:`ldpnb.contracts` (argument contracts and the validation vocabulary), :mod:`ldpnb.utils`
  (checks made in a body), :mod:`ldpnb.geometry` (lattice and Earth distances),
  :mod:`ldpnb.stats` (estimates with their uncertainty) and :mod:`ldpnb.parallel` (reproducible sweeps).

Installation (the package is not on PyPI): ``pip install "ldpnb @ git+https://github.com/ldpnb/ldpnb"``,
or ``pip install .`` in a clone, installs the core (numpy and scipy: mechanisms, channels, estimators,
measures, audits); the extras (``"ldpnb[data] @ git+..."``) add ``attacks`` (scikit-learn, XGBoost),
``data`` (pandas, pooch), ``plot`` (matplotlib, seaborn), ``transport`` (POT), ``parallel`` (joblib, Dask) or ``all``.
A module whose extra is missing says which one to install (:mod:`ldpnb._optional`).  The book's
quickstart page shows the core at work on a real data set; its API reference lists every public name.

The book's machinery is :mod:`ldpnb.repro` (claims, reports, seeds, plotting style, the build), and
each chapter has a thin client package :mod:`ldpnb.papers.<chapter>` (its claims as data, its
experiments and figures).  See ``CONTRIBUTING.md`` for where new code goes.
"""

#: The package version: the one place it is written (pyproject.toml reads it; CITATION.cff repeats it).
__version__ = "0.1.0"
