"""Fuzzing every ruleset's order parser: any text gives orders that print back to themselves, or an
OrderError with a message — never another exception."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import RULESETS, OrderError

TOKENS = st.sampled_from(
    [
        "C4",
        "c4",
        "D5",
        ">",
        "-",
        "->",
        " ",
        "auto",
        "stop",
        "off",
        "all",
        "x",
        "3",
        "0",
        "17",
        "pick",
        "create",
        "keep",
        "build",
        "pass",
        "+",
        "99999999",
        ";",
        ",",
        "\n",
        "A1",
        "ZZ999",
        "Ж",
        "小",
        "\x00",
        "-1",
        "1.5",
    ]
)


@functools.cache
def positions(name: str):
    """A few positions of a seeded game, one per phase or player to move."""
    rs = RULESETS[name]
    state = rs.setup(rs.min_players, {}, seed=4)
    found = [state]
    for _ in range(8):
        if rs.outcome(state) is not None:
            break
        state = rs.resolve(state, {s: rs.ai_orders(state, s, 4) for s in rs.acting_players(state)}).state
        found.append(state)
    return rs, found


@pytest.mark.parametrize("name", sorted(RULESETS))
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_any_text_gives_orders_or_an_order_error(name, data):
    rs, states = positions(name)
    state = data.draw(st.sampled_from(states))
    seat = data.draw(st.integers(-1, rs.max_players))
    text = data.draw(
        st.one_of(st.text(), st.lists(TOKENS, max_size=12).map("".join), st.lists(TOKENS, max_size=8).map(" ".join))
    )
    try:
        orders = rs.parse_orders(state, seat, text)
    except OrderError as err:
        assert str(err)
    else:
        assert rs.parse_orders(state, seat, rs.format_orders(orders)) == orders


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_suggestions_are_legal_orders(name):
    rs, states = positions(name)
    for state in states:
        for seat in rs.acting_players(state):
            for line in rs.suggest_orders(state, seat, "")[:40]:
                rs.parse_orders(state, seat, line)
