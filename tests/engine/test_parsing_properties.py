"""Fuzzing every ruleset's order parser: any text gives orders that print back to themselves, or an
OrderError with a message — never another exception. Orders are plain ASCII: a digit or letter of
another script (``2߃``, ``B３``) is refused, never read as the ASCII one it resembles."""

from __future__ import annotations

import functools
import re

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
        "A0",
        "b0",
        "٣",
        "３",
        "߃",
        "\u212a1",
        "\u00a0",
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


@functools.cache
def typed_orders(name: str) -> list[tuple[object, int, str]]:
    """(state, seat, legal order text with a digit) for the positions above."""
    rs, states = positions(name)
    typed = [(s, seat, rs.format_orders(rs.ai_orders(s, seat, 4))) for s in states for seat in rs.acting_players(s)]
    return [t for t in typed if any(ch.isdigit() for ch in t[2])]


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
        assert all(ch.isascii() or ch.isspace() for ch in text), f"{text!r} was read as {orders}"
        assert rs.parse_orders(state, seat, rs.format_orders(orders)) == orders


LOOK_ALIKE_ZEROS = (0x660, 0x6F0, 0x7C0, 0x966, 0xFF10, 0x1D7CE)  # Arabic-Indic, NKo, Devanagari, fullwidth, ...


@pytest.mark.parametrize("name", sorted(RULESETS))
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_a_digit_of_another_script_is_refused(name, data):
    """A legal order with one digit written in another script (``3>7`` as ``3>٧``) is an OrderError."""
    rs = RULESETS[name]
    state, seat, text = data.draw(st.sampled_from(typed_orders(name)))
    at = data.draw(st.sampled_from([i for i, ch in enumerate(text) if ch.isdigit()]))
    foreign = chr(data.draw(st.sampled_from(LOOK_ALIKE_ZEROS)) + int(text[at]))
    with pytest.raises(OrderError):
        rs.parse_orders(state, seat, text[:at] + foreign + text[at + 1 :])


@pytest.mark.parametrize(
    ("name", "text", "says"),
    [
        ("conquest", "A0>A1 3", "A0 is not a cell"),
        ("conquest", "stop B0", "B0 is not a cell"),
        ("conquest", "A1>A2 ٣", "'٣' is not a plain"),
        ("gra", "pick 2߃", "'߃' is not a plain"),
        ("fortress", "build B３", "'３' is not a plain"),
        ("fortress", "build A0", "A0 is not a cell"),
        ("ranks", "A1>A0", "A0 is not a cell"),
        ("ranks", "up A1 ٣", "'٣' is not a plain"),
        ("ranks", "spawn B３", "'３' is not a plain"),
    ],
)
def test_bad_labels_and_foreign_digits_are_order_errors(name, text, says):
    rs, states = positions(name)
    state = states[0]
    with pytest.raises(OrderError, match=re.escape(says)):
        rs.parse_orders(state, min(rs.acting_players(state)), text)


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_suggestions_are_legal_orders(name):
    rs, states = positions(name)
    for state in states:
        for seat in rs.acting_players(state):
            for line in rs.suggest_orders(state, seat, "")[:40]:
                rs.parse_orders(state, seat, line)
