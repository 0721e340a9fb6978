"""The ranks computer player against random play (``bench/bench_ranks_ai.py`` plays more games)."""

from __future__ import annotations

from bench.bench_ranks_ai import TWO_PLAYER_MAPS, match


def test_the_standard_level_beats_random_play_at_least_95_percent():
    games = 20
    wins = sum(match(seed, TWO_PLAYER_MAPS[seed % len(TWO_PLAYER_MAPS)]) for seed in range(games))
    assert wins >= 0.95 * games
