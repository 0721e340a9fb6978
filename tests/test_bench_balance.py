"""The balance bench's komi: the compensation that brings seat 0 nearest half the decisive games,
for whichever seat a ruleset compensates (fortress seat 0, siege seat 1)."""

from __future__ import annotations

from bench.bench_balance import KOMI_SEAT, fairest_komi


def test_the_fairest_komi_for_either_seat():
    margins = [3, 1, 1, -1]  # seat 0's over seat 1: seat 0 ahead in three games of four
    assert fairest_komi(margins, 1) == (1.0, 0.5)  # one square for seat 1 turns two into draws
    assert fairest_komi(margins, 0) == (0.0, 0.75)  # seat 0 needs none: any would favour it more
    assert fairest_komi([-m for m in margins], 0) == (1.0, 0.5)
    assert KOMI_SEAT == {"fortress": 0, "siege": 1}
