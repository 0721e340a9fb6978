"""Computer players: levels, and search budgets counted in nodes (``ai_orders(level=, budget=)``)."""

from __future__ import annotations

import functools

import pytest

from engine import RULESETS, OptionError

GAMES = [
    ("ranks", {}),
    ("ranks", {"map": "nine-cities"}),
]
# Every ruleset at its default options, and the settings whose searches differ: fortress's other
# modes and a shipped ranks map. Their levels are budgets that do cut searches short.
SEARCHES = [
    *((name, {}) for name in RULESETS),
    ("fortress", {"mode": 2}),
    ("fortress", {"mode": 3}),
    ("ranks", {"map": "nine-cities"}),
]
LIMITLESS = 10**9


@functools.cache
def positions(name: str, options: tuple, steps: int = 16) -> tuple:
    """Every position of a seeded game between Medium computers on the default map (up to ``steps``):
    positions any game reaches, at a fraction of the strongest level's cost."""
    rs = RULESETS[name]
    state = rs.setup(rs.default_players, dict(options), seed=2)
    found = []
    while rs.outcome(state) is None and len(found) < steps:
        found.append(state)
        orders = {s: rs.ai_orders(state, s, 2, level="Medium") for s in rs.acting_players(state)}
        state = rs.resolve(state, orders).state
    return tuple(found)


def game_positions(name: str, options: dict) -> tuple:
    return positions(name, tuple(sorted(options.items())))


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_an_unknown_level_or_a_bad_budget_is_refused(name):
    rs = RULESETS[name]
    state = rs.setup(rs.default_players, {}, seed=1)
    seat = min(rs.acting_players(state))
    levels = ", ".join(level.name for level in rs.bot_levels)
    with pytest.raises(OptionError, match=f"no computer level 'grandmaster'; levels: {levels}$"):
        rs.ai_orders(state, seat, 1, level="grandmaster")
    for bad in (-1, 2.5, True):
        with pytest.raises(OptionError, match="budget"):
            rs.ai_orders(state, seat, 1, budget=bad)
    assert rs.ai_orders(state, seat, 1, level=rs.bot_levels[-1].name) == rs.ai_orders(state, seat, 1)


@pytest.mark.parametrize("name, options", SEARCHES)
@pytest.mark.parametrize("budget", [0, 40])
def test_a_tiny_budget_still_gives_a_legal_turn(name, options, budget):
    rs = RULESETS[name]
    for state in game_positions(name, options):
        orders = {seat: rs.ai_orders(state, seat, 5, budget=budget) for seat in rs.acting_players(state)}
        for seat, given in orders.items():
            assert rs.parse_orders(state, seat, rs.format_orders(given)) == given
        rs.resolve(state, orders)
        assert orders == {seat: rs.ai_orders(state, seat, 5, budget=budget) for seat in orders}


@pytest.mark.parametrize("name, options", GAMES)
def test_the_standard_level_plays_as_an_unlimited_search_on_default_maps(name, options):
    """The standard budget is large enough that it never cuts a search short on a default map."""
    rs = RULESETS[name]
    for state in game_positions(name, options):
        for seat in rs.acting_players(state):
            assert rs.ai_orders(state, seat, 3) == rs.ai_orders(state, seat, 3, budget=LIMITLESS)


@pytest.mark.parametrize("name, options", SEARCHES)
def test_every_bot_honours_its_budget(name, options):
    """A spent budget cuts the search short, so somewhere in a game the bot plays differently."""
    rs = RULESETS[name]
    states = game_positions(name, options)
    assert any(
        rs.ai_orders(state, seat, 3, budget=0) != rs.ai_orders(state, seat, 3)
        for state in states
        for seat in rs.acting_players(state)
    )
