"""Channels: operations valid on any finite channel, and structured channel operators.

A channel is a float64 matrix ``C[x, y] = P(y | x)`` (rows = inputs, columns = outputs, rows sum to 1)."""

from ._generic import (
    clamp_grid_outputs,
    exact_epsilon,
    geo_ind_epsilon,
    geo_ind_epsilon_log,
    ldp_epsilon,
    ldp_epsilon_log,
    pair_epsilon,
    sample_channel,
    simulate_counts,
    simulate_counts_batch,
    worst_pair,
)
from .structured import ChannelOperator, ConvolutionChannel, DiagPlusConstChannel, is_operator

__all__ = [
    "sample_channel",
    "simulate_counts",
    "ldp_epsilon",
    "geo_ind_epsilon",
    "ldp_epsilon_log",
    "geo_ind_epsilon_log",
    "exact_epsilon",
    "pair_epsilon",
    "worst_pair",
    "simulate_counts_batch",
    "clamp_grid_outputs",
    "ChannelOperator",
    "DiagPlusConstChannel",
    "KRRChannel",
    "ConvolutionChannel",
    "is_operator",
]


def __getattr__(name: str):
    if name == "KRRChannel":  # deprecated name of ldpnb.mechanisms.GRROperator (GRR(k, eps).operator())
        from ldpnb.mechanisms.grr import GRROperator  # noqa: PLC0415 lazy: deprecated alias of an operator

        return GRROperator
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
