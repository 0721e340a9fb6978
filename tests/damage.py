"""Damaged stored states for every registered ruleset: real ``to_dict`` output from seeded games,
with a few fields hit by what a broken row holds — wrong types, numbers out of bounds, keys missing
or added, values moved to the wrong place, lists grown by an entry or blown up to huge sizes."""

from __future__ import annotations

import copy
import functools
from typing import Any

from hypothesis import strategies as st

from engine import RULESETS

TURNS = 8
ENVELOPE = ("ruleset", "version")  # refused by every ruleset alike (test_conformance checks them)
BLOWN_UP = 100_000  # entries of a list or characters of a text blown up
BAD_VALUES = (
    None,
    True,
    False,
    "False",
    "7",
    "",
    "A0",
    "ZZ999",
    "٣",
    -1,
    0,
    1,
    2,
    3,
    7,
    10**6,
    2**64,
    10**100,
    1.5,
    float("nan"),
    float("inf"),
    [],
    {},
    [["garbage"]],
    [1, 2, 3],
    {"1": [0, 1]},
)


MOST_VALUES = 3  # of one option: every mode and size, a few komis


@functools.cache
def stored_states(name: str) -> tuple[dict[str, Any], ...]:
    """``to_dict`` of the first turns of a seeded game, once per value of each of the ruleset's choice
    options (modes, sizes; of a long list of values, such as a compensation's steps, the first few),
    so every kind of position is there to damage."""
    rs = RULESETS[name]
    tables = [{}] + [
        {option.name: choice}
        for option in rs.options_schema()
        if option.kind == "choice"
        for choice in [c for c in option.choices if c != option.default][:MOST_VALUES]
    ]
    found = []
    for options in tables:
        state = rs.setup(rs.default_players, options, seed=4)
        for _ in range(TURNS):
            found.append(rs.to_dict(state))
            if rs.outcome(state) is not None:
                break
            state = rs.resolve(state, {s: rs.ai_orders(state, s, 4) for s in rs.acting_players(state)}).state
    return tuple(found)


@st.composite
def _place(draw, data: dict[str, Any]) -> tuple:
    """A path into ``data`` (keys and list positions): a field, then deeper at each level three times
    in four, so every field is hit about as often as the map or the cells with their many entries."""
    path = (draw(st.sampled_from([key for key in data if key not in ENVELOPE])),)
    value = data[path[0]]
    while isinstance(value, (dict, list)) and value and draw(st.integers(0, 3)):
        step = draw(st.sampled_from(list(value) if isinstance(value, dict) else range(len(value))))
        path, value = (*path, step), value[step]
    return path


def _at(value: Any, path: tuple) -> Any:
    for step in path:
        value = value[step]
    return value


@st.composite
def _hit(draw, data: dict[str, Any]) -> None:
    """Damage one place of ``data`` in place: a container loses, gains or multiplies entries; a plain
    value becomes text, a neighbouring number, or something else entirely."""
    path = draw(_place(data))
    parent, key = _at(data, path[:-1]), path[-1]
    old = parent[key]
    if isinstance(old, (dict, list)):
        kind = draw(st.sampled_from(["replace", "drop", "extra", "grow", "blow_up", "move"]))
    else:
        kind = draw(st.sampled_from(["replace", "text", "text", "near", "drop", "move"]))
    if kind == "drop":
        del parent[key]
    elif kind == "extra" and isinstance(old, dict):
        old[draw(st.sampled_from(["extra", "1", "A1", "99"]))] = copy.deepcopy(draw(st.sampled_from(BAD_VALUES)))
    elif kind == "grow" and isinstance(old, list) and old:
        old.append(copy.deepcopy(old[-1]))
    elif kind == "blow_up" and isinstance(old, list) and 0 < len(old) < BLOWN_UP:
        parent[key] = old * (BLOWN_UP // len(old))
    elif kind == "near" and isinstance(old, int) and not isinstance(old, bool):
        parent[key] = old + draw(st.sampled_from([-1, 1, 2, -(old + 1), 10**6, old * 10**6]))
    elif kind == "move":  # a value from elsewhere in the same state: well-formed, but out of place
        parent[key] = copy.deepcopy(_at(data, draw(_place(data))))
    elif kind == "text":
        parent[key] = str(old)[:BLOWN_UP] if not isinstance(old, str) else old * (BLOWN_UP // max(1, len(old)))
    else:
        parent[key] = copy.deepcopy(draw(st.sampled_from(BAD_VALUES)))


@st.composite
def damaged_states(draw, name: str) -> dict[str, Any]:
    """A stored state of ruleset ``name`` with one to three places damaged."""
    data = copy.deepcopy(draw(st.sampled_from(stored_states(name))))
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, 3]))):
        draw(_hit(data))
    return data
