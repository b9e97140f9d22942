"""Reliability tools: the public surface of ldpnb (``surface``) and an independent fuzz of it (``run``)."""
