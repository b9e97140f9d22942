"""Optional dependencies: the extra that installs each one, and an import that names it when missing.

``pip install ldpnb`` installs the core (numpy and scipy): the mechanisms, channels, estimators,
measures and audits.  The rest comes with extras declared in ``pyproject.toml`` (``attacks``,
``data``, ``plot``, ``transport``, ``parallel``, or ``all``); a module that needs one imports it
through :func:`import_optional`, so that a user without it reads which extra to install instead of
a bare ``ModuleNotFoundError``.  ``tests/test_packaging.py`` checks that this table and the extras
of ``pyproject.toml`` agree.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["EXTRA_OF", "MissingExtraError", "import_optional"]

#: The importable name of each optional dependency and the extra of ``pyproject.toml`` installing it.
EXTRA_OF: dict[str, str] = {
    "sklearn": "attacks",
    "xgboost": "attacks",
    "threadpoolctl": "attacks",
    "pandas": "data",
    "pooch": "data",
    "matplotlib": "plot",
    "seaborn": "plot",
    "ot": "transport",
    "joblib": "parallel",
    "tqdm": "parallel",
    "dask": "parallel",
}


class MissingExtraError(ImportError):
    """An optional dependency is not installed; the message names the extra that installs it."""


def import_optional(name: str, extra: str | None = None) -> ModuleType:
    """Import ``name`` (a module, possibly dotted) or raise :class:`MissingExtraError` naming its extra.

    Parameters
    ----------
    name : str
        The module to import, e.g. ``"sklearn.ensemble"``.
    extra : str, optional
        The extra that installs it; by default :data:`EXTRA_OF` of its top-level package.

    Examples
    --------
    >>> import_optional("numpy").__name__
    'numpy'
    >>> try:
    ...     import_optional("no_such_module_xyz", "plot")
    ... except MissingExtraError as err:
    ...     print(err)
    no_such_module_xyz is not installed: pip install 'ldpnb[plot]' (or 'ldpnb[all]')
    """
    top = name.split(".")[0]
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name is not None and err.name != top and not name.startswith(err.name + "."):
            raise  # a dependency of the optional package itself is broken: not ours to rename
        extra = extra or EXTRA_OF.get(top, "all")
        raise MissingExtraError(
            f"{top} is not installed: pip install 'ldpnb[{extra}]' (or 'ldpnb[all]')", name=top
        ) from err
