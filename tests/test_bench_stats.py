"""The fairness bench's chi-square test against textbook critical values."""

from __future__ import annotations

import pytest

from bench.stats import chi2_sf, uniform_p


@pytest.mark.parametrize(
    ("x", "dof", "p"),
    [(3.841, 1, 0.05), (5.991, 2, 0.05), (7.815, 3, 0.05), (9.488, 4, 0.05), (11.070, 5, 0.05), (15.086, 5, 0.01)],
)
def test_critical_values(x, dof, p):
    assert chi2_sf(x, dof) == pytest.approx(p, abs=2e-4)


def test_uniform_counts():
    assert uniform_p([40, 40, 40, 40, 40]) == (0.0, 1.0)
    assert uniform_p([95, 4, 12, 6, 83])[1] < 1e-30
    assert 0.1 < uniform_p([111, 89])[1] < 0.15
