"""The ranks computer players: the same four levels as every other game, games stored with the old
level names, and the Medium level against random play (``bench/bench_ranks_ai.py`` plays more
games; ``bench/bench_ladder.py --ruleset ranks`` measures each level against the one below)."""

from __future__ import annotations

from bench.bench_ranks_ai import TWO_PLAYER_MAPS, match
from engine import find_ruleset
from engine.budget import Budget
from engine.ranks import ai
from engine.rng import Rng

RS = find_ruleset("ranks")


def test_four_levels_weakest_first_and_the_old_names_still_play():
    """Ranks gets the same ladder as every other game; old games whose seats say novice/standard keep working."""
    assert [level.name for level in RS.bot_levels] == ["Easy", "Medium", "Hard", "Extreme"]
    assert RS.bot_level("novice").name == "Easy" and RS.bot_level("standard").name == "Medium"
    state = RS.setup(2, {}, seed=3)
    assert RS.ai_orders(state, 0, 3, level="standard") == RS.ai_orders(state, 0, 3, level="Medium")


def test_the_medium_level_beats_random_play_at_least_95_percent():
    games = 20
    wins = sum(match(seed, TWO_PLAYER_MAPS[seed % len(TWO_PLAYER_MAPS)]) for seed in range(games))
    assert wins >= 0.95 * games


def test_extreme_fears_the_worst_of_the_next_players_likely_replies():
    """Extreme answers a screened turn with the next player's likely replies (at most as many as it
    fears, each a real standing) and plays a screened turn."""
    state = RS.setup(2, {}, seed=5)
    look = ai.LOOKAHEAD["Extreme"]
    for turn in range(12):
        state = RS.resolve(state, {state.to_move: RS.ai_orders(state, state.to_move, 5, level="Medium")}).state
        seat = state.to_move
        screened = ai._screen(state, seat, Rng(turn), Budget(10_000), look)
        orders = screened[0][1]
        answers = ai._answers(state, seat, orders, Rng(turn), Budget(10_000), look)
        assert len(answers) <= look.replies
        assert all(ai.LOST <= answer <= -ai.LOST for answer in answers)
        chosen = ai._fear_the_worst(state, seat, Rng(turn), Budget(10_000), look, screened)
        assert chosen in [screened_turn for _, screened_turn in screened]
