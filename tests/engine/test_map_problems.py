"""A map with several mistakes is refused with every one of them, each naming its place, so whoever
made it mends them all in one go ("Validation collects every error at once with its place")."""

from __future__ import annotations

import pytest

from engine import MapError, find_ruleset

BROKEN = {
    "conquest": (
        {"name": "m", "layout": ["n n x", "n q n"], "starts": {"2": ["A1", "C2"]}},
        ["row 1, column 3: 'x'", "row 2, column 2: 'q'"],
    ),
    "fortress": (
        {"name": "m", "width": 8, "height": 6, "cities": ["B2", "G5"], "mountains": ["Z9", "B3"], "water": ["Q1"]},
        ["mountain 'Z9'", "B3 is a city or next to one", "water 'Q1'"],
    ),
    "gra": (
        {"name": "m", "nodes": [[0, 0], [1, "a"], [2, 0], [3, 0], [5, None]], "edges": [[1, 2]]},
        ["node 2 must be a position", "node 5 must be a position"],
    ),
    "ranks": (
        {
            "name": "m",
            "width": 8,
            "height": 8,
            "cities": ["A1", "H8", "A1"],
            "tracks": ["A1", "B9"],
            "npcs": ["C3"],
            "capitals": ["A1", "D4"],
        },
        [
            "city cell A1 is listed twice",
            "track cell 'B9'",
            "A1 is both a city cell and a track cell",
            "NPC C3 is not on a track cell",
            "capital D4 is not a city cell",
        ],
    ),
    "siege": (
        {"name": "m", "size": 10, "rivers": ["C5", "Z3"], "mountains": {"E5": 4, "F6": 1}},
        ["river 'Z3'", "mountain E5 must have level 1, 2 or 3"],
    ),
}


@pytest.mark.parametrize("ruleset", sorted(BROKEN))
def test_every_problem_of_a_map_is_named_at_once(ruleset):
    data, expected = BROKEN[ruleset]
    with pytest.raises(MapError) as caught:
        find_ruleset(ruleset).normalize_options({"map": data})
    problems = caught.value.problems
    for part in expected:
        assert sum(part in problem for problem in problems) == 1, (part, problems)
    assert len(problems) == len(expected), problems
    assert all(problem in str(caught.value) for problem in problems)


def test_siege_names_each_asymmetric_pair_once_whichever_square_is_listed():
    """ "the map must be point-symmetric": a square whose twin is bare is named, listed first or last."""
    siege = find_ruleset("siege")
    for listed, bare in (("C5", "H6"), ("H6", "C5")):
        with pytest.raises(MapError) as caught:
            siege.normalize_options({"map": {"name": "m", "size": 10, "rivers": [listed]}})
        assert caught.value.problems == (f"the map must be point-symmetric: {listed} and {bare} differ",)


def test_one_problem_reads_as_itself():
    with pytest.raises(MapError) as caught:
        find_ruleset("gra").normalize_options({"map": {"name": "m", "nodes": 3}})
    assert str(caught.value) == "map nodes must be a list of 3 to 400 [x, y] positions"


def test_a_cell_listed_again_is_named_once_for_what_is_wrong():
    fortress = find_ruleset("fortress")
    field = {"name": "m", "width": 8, "height": 6, "cities": ["B2", "G5"]}
    with pytest.raises(MapError) as caught:
        fortress.normalize_options(
            {"mode": 2, "map": {**field, "mountains": ["E3", "E3", "B3"], "water": ["E3", "B3"]}}
        )
    assert sorted(caught.value.problems) == [
        "B3 is a city or next to one; those cells must be land",
        "E3 is listed as both water and mountain",
        "mountain E3 is listed twice in mountains",
    ]


def test_a_wrong_name_and_a_wrong_layout_are_named_together():
    with pytest.raises(MapError) as caught:
        find_ruleset("conquest").normalize_options({"map": {"name": "", "layout": 5, "starts": {"2": ["A1", "B1"]}}})
    assert caught.value.problems == (
        "map name must be a non-empty text",
        'map layout must be a list of rows of text, like ["n n b", "n g n"]',
    )
