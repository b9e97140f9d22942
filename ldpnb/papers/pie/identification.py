"""PIE paper (Murakami and Takahashi 2021): synthetic biometric stand-ins for the identification
experiments of Section 5.
"""

from __future__ import annotations

import numpy as np
from ldpnb.utils import check_domain_size, check_random_state

__all__ = [
    "synth_biometric_scores",
]


def synth_biometric_scores(n: int, mu: float, *, fail_rate: float = 0.0, n_impostor: int | None = None,
                           rng=None) -> tuple[np.ndarray, np.ndarray]:
    """Synthetic (genuine, impostor) similarity scores: f_I = N(0,1), f_G = (1-w) N(mu,1) + w N(0,1).

    An illustration of a biometric matcher with a known PSE (no biometric data is public here).
    """
    rng = check_random_state(rng)
    n = check_domain_size(n, "n")
    if not 0 <= fail_rate < 1:
        raise ValueError("fail_rate must lie in [0, 1)")
    m = n * (n - 1) if n_impostor is None else int(n_impostor)
    gen = rng.standard_normal(n) + mu * (rng.random(n) >= fail_rate)
    return gen, rng.standard_normal(m)
