"""Re-export of :mod:`ldpnb.parallel` (the sweeps moved one floor down, beside the core, so that
:mod:`ldpnb.audit` can use them without importing the book's machinery).  Import from
:mod:`ldpnb.parallel` in new code."""

from ldpnb.parallel import __all__, default_n_jobs, env_n_jobs, sweep, task_seeds  # noqa: F401
