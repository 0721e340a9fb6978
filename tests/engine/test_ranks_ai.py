"""The ranks computer players: the same four levels as every other game, games stored with the old
level names, and the Medium level against random play (``bench/bench_ranks_ai.py`` plays more
games; ``bench/bench_ladder.py --ruleset ranks`` measures each level against the one below)."""

from __future__ import annotations

import dataclasses

from bench.bench_ranks_ai import TWO_PLAYER_MAPS, match
from engine import find_ruleset
from engine.budget import Budget
from engine.ranks import ai
from engine.ranks.orders import Spawn
from engine.ranks.state import ARCHER, KNIGHT, PAWN, TANK, Army
from engine.rng import Rng
from engine.squaregrid import Square

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
    fears beside his threats to its capital, each a real standing) and plays a screened turn."""
    state = RS.setup(2, {}, seed=5)
    look = ai.LOOKAHEAD["Extreme"]
    for turn in range(12):
        state = RS.resolve(state, {state.to_move: RS.ai_orders(state, state.to_move, 5, level="Medium")}).state
        seat = state.to_move
        screened = ai._screen(state, seat, Rng(turn), Budget(10_000), look)
        orders = screened[0][1]
        answers = ai._answers(state, seat, orders, Rng(turn), Budget(10_000), look)
        after = RS.resolve(state, {seat: orders}).state
        capital = state.board.capitals[seat]
        assert len(answers) <= look.replies + len(ai._threats(ai.Turn(after, after.to_move), after.to_move, capital))
        assert all(ai.LOST <= answer <= -ai.LOST for answer in answers)
        chosen = ai._fear_the_worst(state, seat, Rng(turn), Budget(10_000), look, screened)
        assert chosen in [screened_turn for _, screened_turn in screened]


def _knights_at_the_door():
    """A position from Extreme-vs-Hard self-play (generated board, seed 2), seat 0 to move: its
    knight on the capital B2, a tank on D1 it cannot move (no exp), an archer on F5; seat 1's knights
    on E3 and F3, one jump from D1 and from C4, both a jump from B2."""
    start = RS.setup(2, {"head_start": 0}, seed=2)
    armies = {
        Square.from_label(label): Army(seat, rank)
        for label, (seat, rank) in {
            "B2": (0, KNIGHT),
            "D1": (0, TANK),
            "F5": (0, ARCHER),
            "E3": (1, KNIGHT),
            "F3": (1, KNIGHT),
            "J10": (1, KNIGHT),
            "K10": (1, PAWN),
        }.items()
    }
    return dataclasses.replace(start, armies=armies, turn=32)


def test_extreme_fears_every_move_that_brings_an_army_within_reach_of_its_capital():
    """A quiet jump to C4 threatens B2 as surely as taking the tank on D1 does, but a first glance
    gives it nothing, so whether it was among the replies feared was a coin toss: Extreme answers
    every threat first."""
    state = _knights_at_the_door()
    after = RS.resolve(state, {0: [Spawn((Square.from_label("C3"),))]}).state
    turn = ai.Turn(after, 1)
    threats = {str(move) for move in ai._threats(turn, 1, Square.from_label("B2"))}
    assert {"E3>D1", "E3>C4"} <= threats
    feared = ai.LOOKAHEAD["Extreme"].replies
    assert any("E3>C4" not in {str(m) for m in ai._shortlist(turn, 1, Rng(toss))[:feared]} for toss in range(20))
    only_threats = ai.LOOKAHEAD["Extreme"]._replace(replies=0)
    spawn = [Spawn((Square.from_label("C3"),))]
    assert len(ai._answers(state, 0, spawn, Rng(1), Budget(10_000), only_threats)) == len(threats)


def test_extreme_also_tries_a_spawn_beside_its_capital():
    """The usual spawn cell is the one nearest the rivals (C3, a diagonal step from B2); a pawn on C2
    or B3 could step onto B2 in the turn its knight must leave to take a threat."""
    state = _knights_at_the_door()
    assert ai._spawn_cells(state, 0) == (Square.from_label("C3"),)
    assert [str(turn[0]) for turn in ai._guard_spawns(state, 0)] == ["spawn C2", "spawn B3"]
    tried = list(ai._candidates(state, 0, Rng(1), Budget(10_000), ai.LOOKAHEAD["Extreme"]))
    assert [Spawn((Square.from_label("C2"),))] in tried and [Spawn((Square.from_label("B3"),))] in tried


def test_extreme_takes_a_threat_with_its_capitals_army_and_refills_the_capital():
    """Seat 1's knight on D1 threatens B2 and only B2's knight can take it; judged one order at a
    time, that capture empties the capital and loses, so the plain greedy turn leaves the knight
    there. Extreme's turns take it and step the pawn from C2 onto B2 in the same turn."""
    door = _knights_at_the_door()
    armies = {cell: army for cell, army in door.armies.items() if cell.label not in ("E3", "D1")}
    armies |= {Square.from_label("C2"): Army(0, PAWN), Square.from_label("D1"): Army(1, KNIGHT)}
    state = dataclasses.replace(door, armies=armies)
    assert [(str(a), str(b)) for a, b in ai._swaps(ai.Turn(state, 0), 0)] == [("B2>D1", "C2>B2")]
    plain = RS.resolve(state, {0: ai.greedy(state, 0, Rng(1), Budget(10_000))}).state
    assert plain.armies[Square.from_label("D1")].seat == 1
    turn = ai.greedy(state, 0, Rng(1), Budget(10_000), swaps=ai.LOOKAHEAD["Extreme"].swaps)
    after = RS.resolve(state, {0: turn}).state
    assert after.players[0].playing and after.armies[Square.from_label("D1")].seat == 0
