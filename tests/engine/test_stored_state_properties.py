"""Fuzzing every ruleset's ``from_dict`` with damaged stored states: each either loads exactly (its
``to_dict`` gives the same data back: nothing coerced, nothing dropped) into a state the ruleset can
show and play on, or is refused with a StateError — never another exception, and quickly, whatever
size the damage claims."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import RULESETS, StateError
from tests.damage import damaged_states


def exercise(rs, state) -> None:
    """What the game master does with a loaded state: store it, show it, play a turn, let a seat go."""
    assert rs.from_dict(json.loads(json.dumps(rs.to_dict(state)))) == state
    acting = rs.acting_players(state)
    assert (rs.outcome(state) is None) == bool(acting)
    rs.standing(state)
    rs.turn_unit(state)
    rs.order_hint(state)
    for seat in (None, *sorted(rs.seats_in_game(state))):
        rs.view(state, seat)
    if acting:
        resolution = rs.resolve(state, {seat: rs.default_orders(state, seat) for seat in acting})
        for event in resolution.events:
            rs.describe_event(event, str)
        rs.remove_player(state, min(rs.seats_in_game(state)), "surrender")


@pytest.mark.parametrize("name", sorted(RULESETS))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_damaged_state_loads_and_plays_or_is_a_state_error(name, data):
    rs = RULESETS[name]
    stored = data.draw(damaged_states(name))
    try:
        state = rs.from_dict(stored)
    except StateError as err:
        assert str(err)
    else:
        assert rs.to_dict(state) == stored, "loading changed the stored data instead of refusing it"
        exercise(rs, state)


@pytest.mark.parametrize(
    ("name", "damage", "field"),
    [
        ("fortress", {"height": 10**6}, "height"),
        ("gra", {"last": [["move", 0, [1, 2, 3], 1]]}, "last[0]"),
        ("conquest", {"last_moves": [[0, "A1", "A2", 1, "False"]]}, "last_moves[0]"),
        ("conquest", {"round": "7"}, "round"),
        ("gra", {"spacing": "2"}, "spacing"),
    ],
)
def test_damage_from_the_field_reports_is_refused_by_name(name, damage, field):
    rs = RULESETS[name]
    stored = {**rs.to_dict(rs.setup(rs.default_players, {}, seed=4)), **damage}
    with pytest.raises(StateError, match=re.escape(f"damaged: {field} ")):
        rs.from_dict(stored)
