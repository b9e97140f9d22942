"""The public surface of ldpnb: every name a user can reach, as one list.

A *public name* is

* a name in the ``__all__`` of a package or subpackage of ``ldpnb`` (``ldpnb.mechanisms``,
  ``ldpnb.papers.pie`` ...), and of a public module (one whose name has no leading underscore:
  ``ldpnb.utils``, ``ldpnb.repro.build`` ...; a module without ``__all__`` exports its public
  functions and classes);
* every public function and class defined in a module of a paper package (``ldpnb.papers.<p>.*``),
  ``__all__`` or not: the chapters call them;
* every public method (and static or class method) of such a class, and of the ldpnb classes it
  inherits from.

Each is identified by where it is defined (``module.qualname``), so that a re-export is one name.
:func:`public_surface` returns them with their signature; ``tests/test_bad_input.py`` requires each
to be covered by a bad-input test, and ``tests/fuzz/run.py`` fuzzes them.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
from dataclasses import dataclass, field
from typing import Any

import ldpnb


@dataclass
class Name:
    """One public callable: ``qual`` (``module.qualname``), the object, the class it belongs to (for a
    method), its parameters (without ``self``/``cls``, ``*args``, ``**kwargs``)."""

    qual: str
    obj: Any
    module: str
    owner_class: type | None = None
    method: str | None = None
    params: list[inspect.Parameter] = field(default_factory=list)
    exported_as: set[str] = field(default_factory=set)

    @property
    def kind(self) -> str:
        if self.method is not None:
            return "method"
        return "class" if inspect.isclass(self.obj) else "function"

    @property
    def target(self) -> Any:
        """The callable whose signature is fuzzed (a class's ``__init__``)."""
        return self.obj.__init__ if inspect.isclass(self.obj) else self.obj


def _modules() -> dict[str, Any]:
    out = {"ldpnb": ldpnb}
    for m in pkgutil.walk_packages(ldpnb.__path__, "ldpnb."):
        if m.name.endswith("__main__"):
            continue
        out[m.name] = importlib.import_module(m.name)
    return out


def _params(func: Any) -> list[inspect.Parameter]:
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return []
    P = inspect.Parameter
    return [
        p
        for n, p in sig.parameters.items()
        if n not in ("self", "cls") and p.kind not in (P.VAR_POSITIONAL, P.VAR_KEYWORD)
    ]


def _exported(mod_name: str, mod: Any) -> list[str]:
    parts = mod_name.split(".")
    is_pkg = hasattr(mod, "__path__")
    in_paper = mod_name.startswith("ldpnb.papers.")
    if is_pkg:
        return list(getattr(mod, "__all__", []))
    if any(p.startswith("_") for p in parts) and not in_paper:
        return list(getattr(mod, "__all__", []))  # a private module: its names count where a package exports them
    names = getattr(mod, "__all__", None)
    if names is None or in_paper:
        defined = [
            n
            for n, o in vars(mod).items()
            if not n.startswith("_")
            and (inspect.isfunction(o) or inspect.isclass(o))
            and getattr(o, "__module__", "") == mod_name
        ]
        names = list(dict.fromkeys([*(names or []), *defined]))
    return names


def public_surface() -> list[Name]:
    """Every public callable of ldpnb (see the module docstring), sorted by ``qual``."""
    mods = _modules()
    found: dict[str, Name] = {}
    classes: list[type] = []
    for mod_name, mod in sorted(mods.items()):
        for n in _exported(mod_name, mod):
            obj = getattr(mod, n, None)
            if not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue
            home = getattr(obj, "__module__", "") or ""
            if not home.startswith("ldpnb"):
                continue
            qual = f"{home}.{obj.__qualname__}"
            entry = found.setdefault(
                qual, Name(qual, obj, home, params=_params(obj.__init__ if inspect.isclass(obj) else obj))
            )
            entry.exported_as.add(f"{mod_name}.{n}")
            if inspect.isclass(obj):
                classes.append(obj)
    for cls in classes:
        for base in cls.__mro__:
            if not (getattr(base, "__module__", "") or "").startswith("ldpnb"):
                continue
            for mname, raw in vars(base).items():
                if mname.startswith("_"):
                    continue
                func = raw.__func__ if isinstance(raw, (staticmethod, classmethod)) else raw
                if not inspect.isfunction(func):
                    continue  # properties, attributes, nested classes
                qual = f"{base.__module__}.{base.__qualname__}.{mname}"
                if qual in found:
                    continue
                params = _params(func) if not isinstance(raw, staticmethod) else _params(func)
                found[qual] = Name(qual, func, base.__module__, owner_class=base, method=mname, params=params)
    return [found[q] for q in sorted(found)]


def is_record(cls: type) -> bool:
    """A dataclass or NamedTuple: a record type."""
    return dataclasses.is_dataclass(cls) or (issubclass(cls, tuple) and hasattr(cls, "_fields"))


def concrete_subclasses(cls: type, surface: list[Name]) -> list[type]:
    """The exported classes that are ``cls`` or inherit from it and are not abstract."""
    out = []
    for n in surface:
        if n.kind == "class" and issubclass(n.obj, cls) and not inspect.isabstract(n.obj):
            out.append(n.obj)
    return out
