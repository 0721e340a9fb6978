"""Conquest computer players: four levels that always give a legal turn, replay for a seed, keep
to their node budget, and search with a round simulator that resolves exactly as the rules do."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import OptionError
from engine.conquest import ai, sim
from engine.conquest.orders import Move, StopAuto
from engine.conquest.sim import Geometry, Position
from tests.engine.conquest_helpers import RS, position, steps_of
from tests.engine.test_conquest_properties import legal_orders, played

LEVELS = [level.name for level in RS.bot_levels]


def test_four_levels_weakest_first_the_strongest_by_default():
    assert LEVELS == ["Easy", "Medium", "Hard", "Extreme"]
    budgets = [level.budget for level in RS.bot_levels]
    assert budgets == sorted(budgets) and RS.bot_level(None).name == "Extreme"


@settings(max_examples=12, deadline=None)
@given(played(), st.sampled_from(LEVELS), st.integers(0, 99))
def test_every_level_gives_a_legal_turn_that_replays_for_its_seed(state, level, seed):
    if RS.outcome(state) is not None:
        return
    orders = {seat: RS.ai_orders(state, seat, seed, level=level) for seat in RS.acting_players(state)}
    for seat, given_orders in orders.items():
        assert RS.parse_orders(state, seat, RS.format_orders(given_orders)) == given_orders
        stopped = {o.source for o in given_orders if isinstance(o, StopAuto)}
        assert stopped == {cell for cell in state.autos if state.cells[cell].owner == seat}  # it plans afresh
        assert RS.ai_orders(state, seat, seed, level=level) == given_orders
    RS.resolve(state, orders)


@settings(max_examples=40, deadline=None)
@given(played(), st.data())
def test_the_simulator_resolves_a_round_exactly_as_the_rules(state, data):
    """Fixed moves, other seats' standing auto-moves, and the auto-moves a computer stops."""
    if RS.outcome(state) is not None:
        return
    seats = sorted(RS.acting_players(state))
    orders = {seat: [o for o in data.draw(legal_orders(state, seat)) if isinstance(o, Move)] for seat in seats}
    stopping = data.draw(st.lists(st.sampled_from(seats), unique=True))
    for seat in stopping:
        orders[seat] += sim.stops(state, seat)
    expected = RS.resolve(state, orders).state
    geometry = Geometry.of(state)
    steps = {seat: steps_of(geometry, seat_orders) for seat, seat_orders in orders.items()}
    got = sim.play(geometry, Position.of(state, geometry), steps, stopped=stopping)
    assert got == Position.of(expected, geometry)


def test_the_budget_caps_the_rounds_simulated(monkeypatch):
    """Nodes are order sets made and rounds simulated: a spent budget still gives the careful plan,
    and a larger one simulates more, never far past what it was given."""
    state = RS.setup(4, {"size": "small"}, seed=3)
    for _ in range(6):
        state = RS.resolve(
            state, {s: RS.ai_orders(state, s, 1, level="Medium") for s in RS.acting_players(state)}
        ).state
    counting, rounds = sim.play, []

    def play(*args, **kwargs):
        rounds.append(1)
        return counting(*args, **kwargs)

    monkeypatch.setattr(sim, "play", play)
    monkeypatch.setattr(ai.search, "play", play)
    simulated = {}
    for budget in (0, 30, 300):
        rounds.clear()
        RS.ai_orders(state, 0, 1, budget=budget)
        simulated[budget] = len(rounds)
    assert simulated[0] == 0 < simulated[30] < simulated[300] <= 300
    assert any(RS.ai_orders(state, s, 1, budget=0) != RS.ai_orders(state, s, 1) for s in RS.acting_players(state))


def test_a_stack_next_door_is_attacked_only_with_enough_units():
    """Medium and up size an attack on an enemy cell above its defenders; Easy and Medium take a
    free neutral cell next to them."""
    state = position({"A1": (0, 9), "B1": (1, 6), "A2": (None, 0)})
    for level in LEVELS[1:]:
        orders = RS.ai_orders(state, 0, 1, level=level)
        attacks = [o for o in orders if isinstance(o, Move) and o.target.label == "B1"]
        assert sum(o.units for o in attacks) in (0, *range(7, 10))
    assert any(o.target.label == "A2" for o in RS.ai_orders(state, 0, 1, level="Easy"))


def test_a_computer_holding_most_of_the_board_presses_on_to_the_end():
    """A computer that holds most of the board keeps attacking until the game ends (rules/conquest.md:
    in this five-player table the leader held 158 of 170 cells with 107,533 units against 33 and was
    still trading a few units a round with the last enemy cells at round 400)."""
    state = RS.setup(5, {"round_limit": 0}, seed=1)
    while RS.outcome(state) is None and state.round <= 100:
        orders = {seat: RS.ai_orders(state, seat, 1, level="Medium") for seat in RS.acting_players(state)}
        state = RS.resolve(state, orders).state
    assert RS.outcome(state) is not None and len(RS.outcome(state).winners) == 1


def test_a_leader_facing_great_stacks_still_attacks():
    """Pressing on means attacking wherever the target's and its neighbours' units can be beaten,
    however big the stacks: in this two-player table the leader held 52 of 91 cells from round 21
    and both stacks only grew (11,789 units against 6,982 at round 150)."""
    state = RS.setup(2, {"round_limit": 0}, seed=8)
    while RS.outcome(state) is None and state.round <= 80:
        orders = {seat: RS.ai_orders(state, seat, 8, level="Medium") for seat in RS.acting_players(state)}
        state = RS.resolve(state, orders).state
    assert RS.outcome(state) is not None and len(RS.outcome(state).winners) == 1


def test_the_round_limit_is_on_by_default():
    """The round limit is on by default, 150 rounds (option round_limit, 10-1000); a game with no
    limit at all exists only where the creator asks for it explicitly."""
    assert RS.setup(2, {}, seed=1).round_limit == 150
    assert RS.setup(2, {"round_limit": 0}, seed=1).round_limit == 0
    assert RS.normalize_options({"round_limit": 10})["round_limit"] == 10
    with pytest.raises(OptionError, match="must be 0 \\(no limit\\) or between 10 and 1000"):
        RS.normalize_options({"round_limit": 9})
