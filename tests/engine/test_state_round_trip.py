"""Every state a game can reach is stored and loaded back unchanged, and the loaded state plays on.

The service loads every game through ``from_dict`` at every turn, so a reachable state that does not
load is a dead game. Two ways of reaching states, for every registered ruleset: seeded self-play at
every computer level (each game continues from the state it loaded back, as the service does), and
random legal orders (chains of autocomplete suggestions, which offer every legal order), fuzzed.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import RULESETS

SELF_PLAY_TURNS = 20
RANDOM_TURNS = 40


def stored_and_loaded(rs, state):
    """``state`` after the round trip the service makes, checked to be the same state."""
    loaded = rs.from_dict(json.loads(json.dumps(rs.to_dict(state))))
    assert loaded == state, f"{rs.name}: the state loaded back differs from the state stored"
    assert rs.to_dict(loaded) == rs.to_dict(state)
    return loaded


def play_on(rs, state, orders_of, turns: int):
    """Resolve up to ``turns`` turns from ``state``, each from the state loaded back after the last."""
    state = stored_and_loaded(rs, state)
    for turn in range(turns):
        acting = sorted(rs.acting_players(state))
        assert (rs.outcome(state) is None) == bool(acting)
        if not acting:
            break
        state = stored_and_loaded(rs, rs.resolve(state, {seat: orders_of(state, seat, turn) for seat in acting}).state)
    return state


@pytest.mark.parametrize(
    ("name", "level"), [(name, level.name) for name, rs in sorted(RULESETS.items()) for level in rs.bot_levels]
)
def test_self_play_states_load_back_and_play_on(name, level):
    rs = RULESETS[name]
    state = rs.setup(rs.default_players, {}, seed=f"round-trip:{level}")
    final = play_on(rs, state, lambda s, seat, turn: rs.ai_orders(s, seat, turn, level=level), SELF_PLAY_TURNS)
    assert rs.to_dict(final) != rs.to_dict(state), "the game did not move"


def random_legal_text(rs, state, seat: int, data) -> str:
    """A turn of up to four orders, each drawn from the autocomplete's legal continuations."""
    text = ""
    for _ in range(data.draw(st.integers(0, 4), label="orders")):
        options = rs.suggest_orders(state, seat, f"{text}; " if text else "")
        if not options:
            break
        text = data.draw(st.sampled_from(options), label=f"seat {seat}")
    return text


@pytest.mark.parametrize("name", sorted(RULESETS))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_random_legal_play_states_load_back_and_play_on(name, data):
    rs = RULESETS[name]
    players = data.draw(st.integers(rs.min_players, rs.max_players), label="players")
    state = rs.setup(players, {}, seed=data.draw(st.integers(0, 10**6), label="seed"))

    def orders_of(state, seat, turn):
        text = random_legal_text(rs, state, seat, data)
        return rs.parse_orders(state, seat, text) if text else rs.default_orders(state, seat)

    play_on(rs, state, orders_of, RANDOM_TURNS)
