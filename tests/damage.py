"""Damaged stored states for every registered ruleset: real ``to_dict`` output from seeded games,
with a few fields hit by what a broken row holds — wrong types, numbers out of bounds, keys missing
or added, lists blown up to huge sizes."""

from __future__ import annotations

import copy
import functools
from typing import Any

from hypothesis import strategies as st

from engine import RULESETS

TURNS = 8
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


@functools.cache
def stored_states(name: str) -> tuple[dict[str, Any], ...]:
    """``to_dict`` of the first turns of a seeded game, once per value of each of the ruleset's choice
    options (modes, sizes), so every kind of position is there to damage."""
    rs = RULESETS[name]
    tables = [{}] + [
        {option.name: choice}
        for option in rs.options_schema()
        if option.kind == "choice"
        for choice in option.choices
        if choice != option.default
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


def _places(value: Any, path: tuple = ()) -> list[tuple]:
    """The path to every value inside ``value`` (keys and list positions), the whole first."""
    found = [path]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _places(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _places(inner, (*path, index))
    return found


def _at(value: Any, path: tuple) -> Any:
    for step in path:
        value = value[step]
    return value


@st.composite
def _hit(draw, data: dict[str, Any]) -> None:
    """Damage one place of ``data`` in place."""
    places = _places(data)[1:]
    path = draw(st.sampled_from([p for p in places if len(p) == 1]) | st.sampled_from(places))  # top level often
    parent, key = _at(data, path[:-1]), path[-1]
    old = parent[key]
    kind = draw(st.sampled_from(["replace", "replace", "near", "drop", "extra", "blow_up", "text"]))
    if kind == "drop":
        del parent[key]
    elif kind == "extra":
        target = old if isinstance(old, dict) else parent if isinstance(parent, dict) else None
        if target is not None:
            target[draw(st.sampled_from(["extra", "1", "A1", "99"]))] = copy.deepcopy(draw(st.sampled_from(BAD_VALUES)))
    elif kind == "near" and isinstance(old, int) and not isinstance(old, bool):
        parent[key] = old + draw(st.sampled_from([-(old + 1), -1, 1, 10**6, old * 10**6]))
    elif kind == "blow_up" and isinstance(old, (list, str)) and 0 < len(old) < BLOWN_UP:
        parent[key] = old * (BLOWN_UP // len(old))
    elif kind == "text":
        parent[key] = str(old)[:BLOWN_UP]
    else:
        parent[key] = copy.deepcopy(draw(st.sampled_from(BAD_VALUES)))


@st.composite
def damaged_states(draw, name: str) -> dict[str, Any]:
    """A stored state of ruleset ``name`` with one to three places damaged."""
    data = copy.deepcopy(draw(st.sampled_from(stored_states(name))))
    for _ in range(draw(st.integers(1, 3))):
        draw(_hit(data))
    return data
