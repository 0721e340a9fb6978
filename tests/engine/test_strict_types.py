"""Values have their exact types: an option or a stored field that wants a whole number refuses
``True`` and ``1.0`` alike (Python finds them equal to 1 and would let them through a range or
``in`` check), with an OptionError or a StateError — never a TypeError later, nor a game whose
own state then fails to load."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import RULESETS, EngineError, OptionError, StateError
from tests.damage import stored_states

OPTIONS = [(name, option) for name, rs in sorted(RULESETS.items()) for option in rs.options_schema()]


def look_alikes(value: Any) -> list[Any]:
    """Values Python finds equal to ``value`` (or that read like it) but of another type."""
    if isinstance(value, bool):
        return [int(value), float(value), str(value).lower()]
    if isinstance(value, int):
        return [float(value), str(value), *([bool(value)] if value in (0, 1) else [])]
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return [[value]]
        return [number, *([int(number)] if number.is_integer() else [])]
    return []


def valid_values(option) -> st.SearchStrategy[Any]:
    if option.kind == "int":
        return st.integers(option.minimum, option.maximum)
    if option.kind == "bool":
        return st.booleans()
    return st.sampled_from(option.choices)


@pytest.mark.parametrize(
    ("name", "option"),
    [(n, o) for n, o in OPTIONS if o.kind != "map"],
    ids=[f"{n}-{o.name}" for n, o in OPTIONS if o.kind != "map"],
)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_an_option_of_the_wrong_type_is_an_option_error(name, option, data):
    """ "Option values: mode=True or mode=1.0 accepted for 1 ... Strict types everywhere." """
    good = data.draw(valid_values(option))
    wrong = data.draw(st.sampled_from(look_alikes(good)))
    with pytest.raises(OptionError, match=f"{option.name}="):
        RULESETS[name].normalize_options({option.name: wrong})


def whole_numbers(data: Any, path: tuple = ()) -> Iterator[tuple]:
    """The paths of every whole number (not a flag) in stored ``data``."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from whole_numbers(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from whole_numbers(value, (*path, index))
    elif isinstance(data, int) and not isinstance(data, bool):
        yield path


def replaced(data: Any, path: tuple, value: Any) -> Any:
    changed = copy.deepcopy(data)
    place = changed
    for step in path[:-1]:
        place = place[step]
    place[path[-1]] = value
    return changed


def stored_with_a_float(name: str) -> Iterator[tuple[dict, tuple]]:
    """Each whole number of each kind of stored position (one per option table) in turn."""
    for data in stored_states(name)[:: max(1, len(stored_states(name)) // 4)]:
        for path in whole_numbers(data):
            if path[0] not in ("ruleset", "version", "komi"):  # a komi is a number of cells in halves
                yield replaced(data, path, float(_at(data, path))), path


def _at(data: Any, path: tuple) -> Any:
    for step in path:
        data = data[step]
    return data


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_a_stored_whole_number_written_as_a_float_is_damage(name):
    """ "a stored siege size of 10.0 raises TypeError instead of the damaged-state error." """
    rs = RULESETS[name]
    for data, path in stored_with_a_float(name):
        with pytest.raises(StateError, match="damaged"):
            rs.from_dict(data)
            pytest.fail(f"{path} as a float was loaded")


def shipped_maps(name: str) -> Iterator[dict]:
    folder = resources.files(f"engine.{name}") / "maps"
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            yield json.loads(entry.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_map_data_with_a_float_for_a_whole_number_is_refused(name):
    rs = RULESETS[name]
    for board in shipped_maps(name):
        for path in whole_numbers(board):
            with pytest.raises(EngineError):
                rs.setup(rs.default_players, {"map": replaced(board, path, float(_at(board, path)))})
                pytest.fail(f"map {board.get('name')}: {path} as a float was taken")
