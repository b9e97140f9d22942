"""The fuzz's own machinery classifies what it sees: a refusal naming the argument is clear, an accepted bad
value silent, a call past its time limit a hang, an allocation past the memory cap a crash; and the surface
lists what the coverage test and the fuzz rely on."""

from __future__ import annotations

import inspect
import time

import numpy as np
import pytest

from . import catalogue, run
from .surface import Name, public_surface


def _plan(func, values):
    params = [p for p in inspect.signature(func).parameters.values()]
    name = Name(f"test.{func.__name__}", func, "test", params=params)
    fuzz = {k: (catalogue.infer_kind(k, v), v, catalogue.EMPTY) for k, v in values.items()}
    return run.Plan(name, lambda: func, dict(values), [], fuzz, "test")


def _refuses(k):
    if k < 2:
        raise ValueError(f"k must be >= 2, got {k}")
    return k


def _accepts(k):
    return k


def _sleeps(k):
    time.sleep(60)


def _allocates(k):
    return np.ones(k, dtype=np.float64)


def _dies(k):
    import os

    os.abort()


def _one(func, bad, timeout=3.0):
    out = []
    runner = run.Runner(jobs=1, timeout=timeout, mem_gib=1.0)
    runner.submit(lambda: run._outcome(_plan(func, {"k": 3}), "k", "label", "invalid", bad), out.append)
    runner.drain()
    return out[0]


@pytest.mark.parametrize(
    "func, bad, outcome",
    [
        (_refuses, 1, "clear"),
        (_accepts, 1, "silent"),
        (_accepts, float("nan"), "silent-nan"),
        (_sleeps, 1, "hang"),
        (_allocates, 1 << 40, "crash"),
        (_dies, 1, "crash"),
    ],
)
def test_outcomes_are_classified(func, bad, outcome):
    assert _one(func, bad)["outcome"] == outcome


def test_a_refusal_that_does_not_name_the_argument_is_unclear():
    def unclear(k):
        raise ValueError("something went wrong")

    assert _one(unclear, 1)["outcome"] == "unclear"


def test_the_surface_holds_packages_paper_functions_and_methods():
    quals = {n.qual for n in public_surface()}
    assert "ldpnb.mechanisms.grr.grr_channel" in quals  # a package's __all__
    assert "ldpnb.papers.pie.utility.rr_variance" in quals  # a paper package's function
    assert "ldpnb.mechanisms._base.FrequencyOracle.estimate" in quals  # a method of an exported class's base
    assert "ldpnb.repro.claims.verify_row" in quals  # a public module's __all__
    assert all(q.startswith("ldpnb.") for q in quals) and len(quals) > 1000
