"""Figures the benches share: the 99th percentile of timings; the chi-square goodness-of-fit test the
fairness benches use is the service's own (``service.fairness``)."""

from __future__ import annotations

from collections.abc import Sequence

from service.fairness import chi2_sf, uniform_p

__all__ = ["chi2_sf", "p99", "uniform_p"]


def p99(samples: Sequence[float]) -> float:
    """The 99th percentile by nearest rank: a timing some sample really took."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
