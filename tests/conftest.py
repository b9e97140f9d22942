"""Shared test configuration: the data folder and a deterministic hypothesis profile."""

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]
SHARED_RAW = ROOT.parent / "shared" / "data" / "raw"
if "LDPNB_DATA_DIR" not in os.environ and SHARED_RAW.is_dir():
    os.environ["LDPNB_DATA_DIR"] = str(SHARED_RAW)

settings.register_profile(
    "ldpnb", derandomize=True, deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ldpnb")


@pytest.fixture
def rng():
    import numpy as np

    return np.random.default_rng(20240601)
