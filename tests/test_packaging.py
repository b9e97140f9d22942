"""ldpnb as a library people install: a light core, extras that say their name, one version, the
conda environment in step with ``pyproject.toml``, a typed package, and a wheel that builds.

The core (``ldpnb.mechanisms``, ``estimators``, ``measures``, ``channels``, ``audit``) needs numpy and
scipy only; the heavy dependencies are extras (``ldpnb._optional.EXTRA_OF``), and a module needing a
missing one fails with a message naming the extra.  The wheel test is slow (it builds in a temporary
folder and runs ``twine check``; no network).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import ldpnb
from ldpnb._optional import EXTRA_OF

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser from PyPI
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

#: What the core must not load: the optional dependencies and the book's machinery.
HEAVY = sorted({*EXTRA_OF, "IPython", "myst_nb", "yaml", "nbformat", "jupyter_book", "sphinx"})

#: pyproject name -> conda-forge names in environment.yml (where they differ).
CONDA_NAME = {
    "POT": ["pot"],
    "xgboost-cpu": ["py-xgboost-cpu"],
    "pycddlib-standalone": ["pycddlib"],
    "dask[distributed]": ["dask", "distributed"],
}


def _python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_the_core_imports_numpy_and_scipy_only():
    """A fresh interpreter importing the core loads none of the extras' modules."""
    code = (
        "import sys\nimport ldpnb.mechanisms, ldpnb.estimators, ldpnb.measures, ldpnb.channels, ldpnb.audit\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    )
    res = _python(code)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "[]", f"the core pulled {res.stdout.strip()}"


# a meta-path finder that makes the named top-level modules impossible to import
_BLOCK = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {blocked!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, Block())
"""


@pytest.mark.parametrize(
    "blocked, code, extra",
    [
        ({"pandas"}, "import ldpnb.data", "data"),
        (
            {"sklearn"},
            "from ldpnb.attacks.inference import _make_classifier; _make_classifier('hgb', 0, 5, 1)",
            "attacks",
        ),
        (
            {"xgboost"},
            "from ldpnb.attacks.inference import _make_classifier; _make_classifier('xgboost', 0, 5, 1)",
            "attacks",
        ),
        (
            {"ot"},
            "import numpy as np; from ldpnb.measures.utility import emd; emd([1, 0], [0, 1], np.ones((2, 2)))",
            "transport",
        ),
        ({"joblib"}, "from ldpnb.parallel import sweep; sweep(lambda t, rng: t, [1, 2], seed=0, n_jobs=2)", "parallel"),
        ({"matplotlib", "seaborn"}, "from ldpnb.repro.plotting import set_style; set_style()", "plot"),
    ],
)
def test_a_missing_extra_is_named(blocked, code, extra):
    res = _python(_BLOCK.format(blocked=sorted(blocked)) + code)
    assert res.returncode != 0, f"{code!r} ran without {blocked}"
    assert "MissingExtraError" in res.stderr and f"pip install 'ldpnb[{extra}]'" in res.stderr, res.stderr[-1500:]


def _requirements() -> dict[str, list[str]]:
    project = PYPROJECT["project"]
    return {"": project["dependencies"], **project["optional-dependencies"]}


def _name(req: str) -> str:
    return re.match(r"[A-Za-z0-9_.\-]+(\[[^\]]*\])?", req).group(0)


def test_every_optional_module_is_in_its_extra():
    """``EXTRA_OF`` (what the error message says) agrees with the extras of pyproject.toml, and ``all``
    holds every library extra."""
    dist = {"sklearn": "scikit-learn", "xgboost": "xgboost-cpu", "ot": "POT", "dask": "dask[distributed]"}
    reqs = _requirements()
    for module, extra in EXTRA_OF.items():
        names = [_name(r) for r in reqs[extra]]
        assert dist.get(module, module) in names, f"{module}: not in the {extra!r} extra of pyproject.toml"
    assert reqs["all"] == [f"ldpnb[{','.join(dict.fromkeys(EXTRA_OF.values()))}]"]
    assert [_name(r) for r in reqs[""]] == ["numpy", "scipy"], "the core depends on numpy and scipy only"


def test_environment_yml_follows_pyproject():
    """Every requirement of pyproject.toml (core and extras, self-references aside) is in environment.yml
    with the same lower bound (under its conda-forge name, or in the pip list), and environment.yml has
    nothing that pyproject.toml lacks."""
    import yaml

    spec = yaml.safe_load((ROOT / "environment.yml").read_text("utf-8"))
    assert spec["channels"] == ["conda-forge"]
    lines = [d for d in spec["dependencies"] if isinstance(d, str)]
    lines += [p for d in spec["dependencies"] if isinstance(d, dict) for p in d["pip"]]
    env = {}
    for line in lines:
        if line in ("pip", "-e .") or line.startswith("python="):
            continue
        m = re.match(r"([A-Za-z0-9_.\-]+(?:\[[^\]]*\])?)\s*(.*)$", line)
        env[m.group(1).lower()] = m.group(2).replace(" ", "")
    wanted = {}
    for reqs in _requirements().values():
        for req in reqs:
            if req.startswith("ldpnb["):
                continue
            name = _name(req)
            spec = req[len(name) :].split(";")[0].replace(" ", "")
            for conda in CONDA_NAME.get(name, [name]):
                wanted[conda.lower()] = spec
    missing = sorted(n for n in wanted if n not in env)
    assert not missing, f"in pyproject.toml, not in environment.yml: {missing}"
    differ = {n: (wanted[n], env[n]) for n in wanted if env[n] != wanted[n]}
    assert not differ, f"bounds differ (pyproject, environment.yml): {differ}"
    extra = sorted(set(env) - set(wanted))
    assert not extra, f"only in environment.yml: {extra}"
    assert "-e ." in lines, "environment.yml installs the package itself (pip: -e .)"


def test_the_version_is_in_one_place():
    """pyproject.toml reads the version from ``ldpnb.__version__``; CITATION.cff and the CHANGELOG's
    newest release follow it."""
    assert "version" not in PYPROJECT["project"] and "version" in PYPROJECT["project"]["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "ldpnb.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+(\.dev\d+|rc\d+)?", ldpnb.__version__)
    cff = re.search(r"^version:\s*(\S+)", (ROOT / "CITATION.cff").read_text("utf-8"), re.M).group(1)
    assert cff == ldpnb.__version__, "CITATION.cff's version differs from ldpnb.__version__"
    changelog = (ROOT / "CHANGELOG.md").read_text("utf-8")
    released = re.findall(r"^## \[(\d[^\]]*)\]", changelog, re.M)
    assert released and released[0] == ldpnb.__version__, "the CHANGELOG's newest release is not __version__"


def test_the_package_is_typed():
    """PEP 561: ``py.typed`` ships with the package."""
    assert (ROOT / "ldpnb" / "py.typed").exists()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["ldpnb"]


#: Modules with docstring examples that the test suite does not run yet, and why.
DOCTESTS_NOT_RUN = {"ldpnb/contracts.py": "the module docstring's example is a sketch (grr_perturb is not defined)"}


def test_every_docstring_example_runs():
    """Every module of the package whose docstrings hold an example (``>>>``) is under a ``testpaths``
    entry of pyproject.toml, where ``--doctest-modules`` runs it, or is listed in DOCTESTS_NOT_RUN."""
    ini = PYPROJECT["tool"]["pytest"]["ini_options"]
    assert "--doctest-modules" in ini["addopts"].split()
    paths = [p for p in ini["testpaths"] if p.startswith("ldpnb")]
    with_examples = sorted(
        str(p.relative_to(ROOT)) for p in (ROOT / "ldpnb").rglob("*.py") if ">>> " in p.read_text(encoding="utf-8")
    )
    assert len(with_examples) >= 40
    left = [
        f
        for f in with_examples
        if f not in DOCTESTS_NOT_RUN and not any(f == p or f.startswith(p.rstrip("/") + "/") for p in paths)
    ]
    assert not left, f"docstring examples that no test runs (add them to testpaths): {left}"


def test_the_init_docstring_names_existing_modules():
    """``ldpnb/__init__.py`` describes the package by its modules: every one it names exists."""
    named = set(re.findall(r":mod:`~?(ldpnb(?:\.\w+)*)`", ldpnb.__doc__))
    assert len(named) >= 10
    missing = [
        m
        for m in sorted(named)
        if not (ROOT / Path(*m.split("."))).with_suffix(".py").exists()
        and not (ROOT / Path(*m.split(".")) / "__init__.py").exists()
    ]
    assert not missing, f"ldpnb.__doc__ names modules that do not exist: {missing}"


def _build(tmp_path: Path) -> tuple[Path, Path]:
    """The wheel and the sdist of a copy of the worktree (no isolation, so no network: the environment's
    setuptools, whatever its version)."""
    src = tmp_path / "src"
    shutil.copytree(
        ROOT,
        src,
        ignore=shutil.ignore_patterns(
            ".git", "_build", ".venv", "build", "dist", "*.egg-info", "__pycache__", "results"
        ),
    )
    out = tmp_path / "dist"
    cmd = [sys.executable, "-m", "build", "--no-isolation", "--skip-dependency-check", "--outdir", str(out), str(src)]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    wheels, sdists = sorted(out.glob("*.whl")), sorted(out.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1
    return wheels[0], sdists[0]


_NO_BUILD = _python("import build, twine").returncode != 0


@pytest.mark.slow
@pytest.mark.skipif(_NO_BUILD, reason="build and twine are not installed (the test extra has them)")
def test_the_wheel_and_sdist_build_and_pass_twine_check(tmp_path):
    """``python -m build`` makes a wheel and an sdist; the wheel holds py.typed and neither the book nor
    the tests, depends on numpy and scipy only, and ``twine check`` accepts the metadata of both."""
    import zipfile

    wheel, sdist = _build(tmp_path)
    assert wheel.name.startswith(f"ldpnb-{ldpnb.__version__}-")
    names = zipfile.ZipFile(wheel).namelist()
    assert "ldpnb/py.typed" in names and "ldpnb/mechanisms/grr.py" in names
    assert not any(n.startswith(("book/", "tests/")) for n in names)
    meta = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("METADATA"))).decode()
    core = [r for r in re.findall(r"^Requires-Dist: (.+)$", meta, re.M) if "extra ==" not in r]
    assert [re.match(r"[\w\-]+", r).group(0) for r in core] == ["numpy", "scipy"], core
    assert re.search(r"^Requires-Dist: pandas>=2\.0; extra == \"data\"$", meta, re.M)
    res = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(wheel), str(sdist)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stdout + res.stderr


@pytest.mark.slow
@pytest.mark.skipif(_NO_BUILD, reason="build is not installed (the test extra has it)")
def test_the_quickstart_core_runs_from_the_wheel_alone(tmp_path):
    """A fresh virtual environment holding the wheel (``--no-deps``) and, of this environment's
    packages, numpy and scipy only (offline: a ``.pth`` file points at links to them) runs the
    quickstart's cells tagged ``core`` on a synthetic column; ``import ldpnb.data`` there fails
    naming the ``data`` extra."""
    import venv

    import jupytext
    import numpy
    import scipy

    wheel, _ = _build(tmp_path)
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    py = env_dir / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    subprocess.run(
        [str(py), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", str(wheel)],
        check=True,
        env=env,
        cwd=tmp_path,
        timeout=600,
    )
    core = tmp_path / "core"
    core.mkdir()
    for pkg in (numpy, scipy):
        site = Path(pkg.__file__).parents[1]
        for entry in site.iterdir():
            if entry.name.split("-")[0].split(".")[0] == pkg.__name__:  # numpy, numpy.libs, numpy-*.dist-info
                (core / entry.name).symlink_to(entry)
    purelib = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        env=env,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (Path(purelib) / "core-deps.pth").write_text(str(core) + "\n")
    nb = jupytext.read(ROOT / "book" / "quickstart.py")
    cells = [c.source for c in nb.cells if c.cell_type == "code" and "core" in c.metadata.get("tags", [])]
    assert len(cells) >= 3
    script = (
        "import numpy as np\nSEED, SCALE = 2024, 'smoke'\nk = 16\n"
        "x = np.random.default_rng(0).integers(0, k, 5000)\ntruth = np.bincount(x, minlength=k) / x.size\n"
        + "\n".join(cells)
        + "\nassert result.passed and bool(check)\nprint('core ok')\n"
    )
    res = subprocess.run([str(py), "-c", script], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0 and "core ok" in res.stdout, res.stdout[-2000:] + res.stderr[-3000:]
    probe = (
        "import importlib.util as u, sys\n"
        "assert u.find_spec('pandas') is None and u.find_spec('matplotlib') is None, 'not a core env'\n"
        "import ldpnb.data\n"
    )
    res = subprocess.run([str(py), "-c", probe], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert res.returncode != 0 and "pip install 'ldpnb[data]'" in res.stderr, res.stderr[-2000:]


def test_the_readme_example_runs():
    """The README's example (the quickstart's lines) runs as printed."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    code = re.search(r"## The package on its own.*?```python\n(.*?)```", text, re.S).group(1)
    res = _python(code)
    assert res.returncode == 0, res.stderr[-2000:]
    assert "holds=True" in res.stdout and res.stdout.strip().endswith("True"), res.stdout
