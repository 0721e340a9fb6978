"""Figures the benches share: the 99th percentile of timings, and the chi-square goodness-of-fit test
the fairness bench needs, in closed form (no scipy here)."""

from __future__ import annotations

import math
from collections.abc import Sequence


def chi2_sf(x: float, dof: int) -> float:
    """P(X >= x) for X chi-square with ``dof`` degrees of freedom: the regularized upper gamma
    Q(dof/2, x/2), which for whole ``dof`` is a finite sum (plus erfc when ``dof`` is odd)."""
    if dof < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {dof}")
    if x <= 0:
        return 1.0
    half = x / 2
    if dof % 2 == 0:
        term = total = math.exp(-half)
        for j in range(1, dof // 2):
            term *= half / j
            total += term
        return min(total, 1.0)
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(half) * math.exp(-half) / math.gamma(1.5)
    for j in range(dof // 2):
        total += term
        term *= half / (j + 1.5)
    return min(total, 1.0)


def uniform_p(counts: Sequence[int]) -> tuple[float, float]:
    """Chi-square statistic and p-value of ``counts`` against equal expected counts."""
    total = sum(counts)
    if total == 0 or len(counts) < 2:
        return 0.0, 1.0
    expected = total / len(counts)
    statistic = sum((n - expected) ** 2 / expected for n in counts)
    return statistic, chi2_sf(statistic, len(counts) - 1)


def p99(samples: Sequence[float]) -> float:
    """The 99th percentile by nearest rank: a timing some sample really took."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
