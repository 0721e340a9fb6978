"""Gra computer levels: legal turns in every phase, the same turn for the same seed, budgets that
bound the search, and the tactics behind them (``bench/bench_ladder.py`` measures their strength)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench import gra_mcts
from engine import find_ruleset
from engine.budget import Budget
from engine.gra import ai, search
from engine.gra.orders import Create, Keep, Move
from engine.gra.state import Phase
from engine.gra.tactics import SPAWNS, STEADY, Spawn, plan_creates, plan_moves
from engine.rng import Rng

RS = find_ruleset("gra")
LEVELS = [level.name for level in RS.bot_levels]
# 1 - 2 - 3 - 4 - 5 - 6 - 7 (a path), with 8 off 4 and 9 off 8: a small board for hand-made positions
PATH = {
    "name": "path",
    "nodes": [[float(i), 0.0] for i in range(7)] + [[3.0, 1.0], [3.0, 2.0]],
    "edges": [[i, i + 1] for i in range(1, 7)] + [[4, 8], [8, 9]],
}


def position(**fields):
    return replace(RS.setup(2, {"map": PATH}, seed=1), **{"phase": Phase.MOVE, "spawning": {}, **fields})


def mixed_game(players: int, seed: int, steps: int):
    """A small-board game of mixed levels, ``steps`` phases in (or its end)."""
    state = RS.setup(players, {"size": "small"}, seed=seed)
    for _ in range(steps):
        if RS.outcome(state) is not None:
            break
        orders = {s: RS.ai_orders(state, s, seed, level=LEVELS[(s + seed) % 4]) for s in RS.acting_players(state)}
        state = RS.resolve(state, orders).state
    return state


def test_four_levels_weakest_first_default_extreme():
    """Easy, Medium, Hard, Extreme: budgets grow with the level; no level named means Extreme."""
    assert LEVELS == ["Easy", "Medium", "Hard", "Extreme"]
    budgets = [level.budget for level in RS.bot_levels]
    assert budgets == sorted(budgets) and RS.bot_level(None).name == "Extreme"


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 3), seed=st.integers(0, 10_000), steps=st.integers(0, 40))
def test_every_level_gives_a_legal_turn_the_same_for_the_same_seed(players, seed, steps):
    """In whatever phase: the orders parse back from their text and resolve, and the seed repeats them."""
    state = mixed_game(players, seed, steps)
    if RS.outcome(state) is not None:
        return
    for level in LEVELS:
        orders = {seat: RS.ai_orders(state, seat, 7, level=level) for seat in RS.acting_players(state)}
        for seat, made in orders.items():
            assert RS.parse_orders(state, seat, RS.format_orders(made)) == made
            assert RS.ai_orders(state, seat, 7, level=level) == made
        RS.resolve(state, orders)


@pytest.mark.parametrize("level", ["Medium", "Hard", "Extreme"])
def test_a_search_spends_its_budget_and_stops(level, monkeypatch):
    """Candidates and phases resolved are nodes: the search stops once the budget is spent (the
    turn in hand is finished: a few nodes over at most)."""
    state = mixed_game(2, 1, 24)
    assert state.phase == Phase.MOVE
    seat = min(RS.acting_players(state))
    resolved = []
    real = search.resolve_phase
    monkeypatch.setattr(search, "resolve_phase", lambda *args: resolved.append(args) or real(*args))
    for nodes in (20, 200):
        resolved.clear()
        budget = Budget(nodes)
        ai.choose_orders(state, seat, 1, level, budget)
        assert -20 < budget.left <= 0 and 0 < len(resolved) <= nodes - budget.left


@pytest.mark.parametrize("level", ["Hard", "Extreme"])
def test_the_searches_play_each_placement_of_new_soldiers_on(level, monkeypatch):
    """Hard's and Extreme's creating phases are searched: phases are resolved within the budget, and
    the soldiers are placed in one of the tactics' ways; Medium places them by the steady way alone."""
    state = mixed_game(2, 1, 21)
    assert state.phase == Phase.CREATE and RS.acting_players(state) == {0, 1}
    resolved = []
    real = search.resolve_phase
    monkeypatch.setattr(search, "resolve_phase", lambda *args: resolved.append(args) or real(*args))
    for seat in (0, 1):
        ways = {tuple(plan_creates(state, seat, spawn)) for spawn in SPAWNS}
        assert len(ways) > 2
        for nodes in (30, 300):
            resolved.clear()
            budget = Budget(nodes)
            made = ai.choose_orders(state, seat, 1, level, budget)
            assert tuple(made) in ways and -20 < budget.left <= 0 and 0 < len(resolved) <= nodes - budget.left
        resolved.clear()
        assert ai.choose_orders(state, seat, 1, "Medium", Budget(150)) == plan_creates(state, seat)
        assert not resolved


def test_a_shielding_plan_holds_an_empty_node_whose_loss_would_cut_the_land():
    """An enemy army next to node 4, the link between 3 and 5: the shielding plan steps a soldier
    into it (arrivals that wipe each other out leave the node its owner's); the steady plan, whose
    guards stay where soldiers stand, sends both soldiers out to take land."""
    state = position(owners={3: 0, 4: 0, 5: 0, 8: 1}, ready={3: (0, 1), 5: (0, 1), 8: (1, 1)})
    shielding = plan_moves(state, 0, replace(STEADY, shield=True), Rng(1))
    steady = plan_moves(state, 0, STEADY, Rng(1))
    assert Move(3, 4, 1) in shielding
    assert all(move.target != 4 for move in steady) and len(steady) == 2


def test_new_soldiers_all_together_or_spread():
    """A placement with no spread puts every new soldier on its best node; the steady one spreads them."""
    state = position(phase=Phase.CREATE, owners={n: 0 for n in (1, 2, 3, 4, 5)} | {9: 1}, ready={9: (1, 1)})
    assert state.cap(0) - state.soldiers(0) == 2
    (together,) = plan_creates(state, 0, Spawn(spread=0.0))
    (spread,) = plan_creates(state, 0)
    assert len(set(together.nodes)) == 1 and len(together.nodes) == 2
    assert len(set(spread.nodes)) == 2


def test_no_budget_plays_the_steady_plan():
    state = mixed_game(2, 1, 24)
    seat = min(RS.acting_players(state))
    assert RS.ai_orders(state, seat, 1, budget=0) == plan_moves(state, seat, STEADY, Rng(0))


def test_an_attack_gathers_soldiers_from_every_army_next_to_the_target():
    """2 + 1 soldiers next to an enemy army of 2 take it together."""
    state = position(owners={3: 0, 5: 0, 4: 1}, ready={3: (0, 2), 5: (0, 1), 4: (1, 2)})
    orders = plan_moves(state, 0, STEADY, Rng(1))
    assert Move(3, 4, 2) in orders and Move(5, 4, 1) in orders


def test_idle_soldiers_head_for_different_nodes_to_take():
    """Two soldiers deep in their land walk toward different unowned nodes, not after each other."""
    state = position(owners={n: 0 for n in (2, 3, 4, 5, 6, 8)}, ready={4: (0, 2)})
    orders = plan_moves(state, 0, STEADY, Rng(1))
    assert sorted(o.target for o in orders) == [3, 5] or sorted(o.target for o in orders) == [3, 8]


def test_new_soldiers_avoid_a_node_an_enemy_can_take():
    """Spawning soldiers die with their node: none is created next to a stronger enemy army."""
    state = position(
        phase=Phase.CREATE, owners={n: 0 for n in (1, 2, 3, 4, 5, 6)} | {7: 1}, ready={7: (1, 2), 3: (0, 1)}
    )
    (create,) = plan_creates(state, 0)
    assert isinstance(create, Create) and len(create.nodes) == 2 and 6 not in create.nodes


def test_a_split_keeps_the_part_worth_most():
    """Soldiers count: two nodes with three soldiers beat three empty nodes (Easy keeps the largest)."""
    parts = (frozenset({1, 2, 3}), frozenset({5, 6}))
    state = position(
        phase=Phase.SPLIT, owners={1: 0, 2: 0, 3: 0, 5: 0, 6: 0, 9: 1}, ready={6: (0, 3), 9: (1, 1)}, splits={0: parts}
    )
    assert RS.ai_orders(state, 0, 1, level="Medium") == [Keep(5)]
    assert RS.ai_orders(state, 0, 1, level="Easy") == [Keep(1)]


def test_stronger_levels_start_on_well_connected_nodes():
    state = RS.setup(2, {"size": "small"}, seed=4)
    graph = state.graph
    picks = RS.ai_orders(state, 0, 1, level="Medium")[0].nodes
    RS.parse_orders(state, 0, RS.format_orders(RS.ai_orders(state, 0, 1, level="Medium")))
    reach = sorted(len(graph.adjacency[n]) for n in graph.nodes)
    assert len(graph.adjacency[picks[0]]) >= reach[len(reach) // 2]


@pytest.mark.parametrize("steps", [0, 1, 9, 20])
def test_the_tree_search_yardstick_gives_legal_turns(steps):
    state = mixed_game(3, 2, steps)
    for seat in RS.acting_players(state):
        given = gra_mcts.choose(state, seat, 1, Budget(60))
        assert RS.parse_orders(state, seat, RS.format_orders(given)) == given
        assert gra_mcts.choose(state, seat, 1, Budget(60)) == given
