"""What the computer players think of a position (``bot_evaluation``): their own evaluation, not the
standing, so a computer asked for a draw sees what its search sees. In each position below the
standing says the two seats are tied, yet one is ahead by the bots' reckoning (it would decline a
draw) and the other behind (it would accept)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import find_ruleset
from engine.gra.state import Phase
from engine.ranks.state import KNIGHT, Army
from engine.squaregrid import Square


def tied_with(rs, state, ahead: int) -> None:
    assert rs.standing(state) == ((0, 1),)
    assert rs.bot_evaluation(state, ahead) > 0 > rs.bot_evaluation(state, 1 - ahead)
    assert all(-1 <= rs.bot_evaluation(state, seat) <= 1 for seat in (0, 1))


@pytest.mark.parametrize("ahead", [0, 1])
def test_conquest_counts_production_as_its_searches_do(ahead):
    """One start cell each with the same units; the gold one produces more (cells, then units rank)."""
    layout = ["g n n n n"] if ahead == 0 else ["n n n n g"]
    rs = find_ruleset("conquest")
    state = rs.setup(2, {"map": {"name": "pair", "layout": layout, "starts": {"2": ["A1", "E1"]}}}, seed=1)
    tied_with(rs, state, ahead)


def test_gra_counts_soldiers_far_from_the_front_a_little_less():
    """The same nodes and soldiers; seat 0's stand three edges from the nearest node to take, seat 1's
    next to it."""
    rs = find_ruleset("gra")
    path = {"name": "path", "nodes": [[float(i), 0.0] for i in range(7)], "edges": [[i, i + 1] for i in range(1, 7)]}
    state = replace(
        rs.setup(2, {"map": path}, seed=1),
        phase=Phase.MOVE,
        owners={1: 0, 2: 0, 3: 0, 5: 1, 6: 1, 7: 1},
        ready={1: (0, 2), 5: (1, 2)},
        spawning={},
    )
    tied_with(rs, state, 1)


@pytest.mark.parametrize("mode", [1, 3])
def test_fortress_credits_the_player_to_move_with_his_next_build(mode):
    """At the start the territories are equal (no komi); the player to move builds next (modes 1-2),
    or his generals are the first to reach a site (mode 3)."""
    rs = find_ruleset("fortress")
    state = rs.setup(2, {"mode": mode, "komi": "0"}, seed=2)
    tied_with(rs, state, state.to_move)


def test_fortress_counts_the_komi_of_the_first_player():
    """Seat 0's compensation is added to its count at the end: a large one puts it ahead even after
    seat 1's build."""
    rs = find_ruleset("fortress")
    state = rs.setup(2, {"mode": 1, "komi": "12"}, seed=2)
    state = rs.resolve(state, {0: rs.ai_orders(state, 0, 2)}).state
    assert rs.bot_evaluation(state, 0) > 0 > rs.bot_evaluation(state, 1)
    plain = rs.setup(2, {"mode": 1, "komi": "0"}, seed=2)
    plain = rs.resolve(plain, {0: rs.ai_orders(plain, 0, 2)}).state
    assert rs.bot_evaluation(state, 0) > rs.bot_evaluation(plain, 0)


def test_siege_counts_tokens_and_the_land_they_reach_first():
    """A square more each, but seat 0's new one holds a token (seat 1's was left empty): seat 0 has
    more tokens, nearer to the land still free."""
    rs = find_ruleset("siege")
    start = rs.setup(2, {"komi": "0"}, seed=1)
    e3, f8 = Square.from_label("E3"), Square.from_label("F8")
    assert e3 not in start.owners and f8 not in start.owners
    state = replace(start, owners={**start.owners, e3: 0, f8: 1}, tokens={**start.tokens, e3: 0})
    tied_with(rs, state, 0)


def test_siege_counts_the_komi_of_the_second_player():
    """Seat 1's compensation is added to its count at the end: a large one puts it ahead of seat 0's
    extra token and square."""
    rs = find_ruleset("siege")
    e3 = Square.from_label("E3")
    for komi, ahead in (("0", 0), ("12", 1)):
        start = rs.setup(2, {"komi": komi}, seed=1)
        state = replace(start, owners={**start.owners, e3: 0}, tokens={**start.tokens, e3: 0})
        assert rs.bot_evaluation(state, ahead) > 0 > rs.bot_evaluation(state, 1 - ahead)


def test_ranks_values_an_army_by_its_rank():
    """One army each and no exp; seat 0's is a knight."""
    rs = find_ruleset("ranks")
    start = rs.setup(2, {"head_start": 0}, seed=1)
    armies = {cell: Army(army.seat, KNIGHT if army.seat == 0 else army.rank) for cell, army in start.armies.items()}
    assert Square.from_label("B2") in armies
    tied_with(rs, replace(start, armies=armies), 0)
