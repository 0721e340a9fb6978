"""Maps drawn as text ("for the grid games a text grid"): every shipped map drawn and read back is the
same map, and a drawing with mistakes is refused with each one by row and column."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from engine import RULESETS, MapError, find_ruleset
from engine.mapfiles import MapGrid

GRID_GAMES = sorted(name for name, rs in RULESETS.items() if rs.map_grid is not None)


def shipped(ruleset: str) -> list[dict]:
    folder = resources.files(f"engine.{ruleset}") / "maps"
    return [json.loads(entry.read_text(encoding="utf-8")) for entry in folder.iterdir() if entry.name.endswith(".json")]


def grid_of(ruleset: str) -> MapGrid:
    grid = find_ruleset(ruleset).map_grid
    assert grid is not None
    return grid


def test_the_games_on_a_grid_take_text_grids():
    assert GRID_GAMES == ["conquest", "fortress", "ranks", "siege"]


@pytest.mark.parametrize("ruleset", GRID_GAMES)
def test_every_shipped_map_drawn_and_read_back_is_the_same_map(ruleset):
    rs, grid = find_ruleset(ruleset), grid_of(ruleset)
    for data in [*shipped(ruleset), rs.map_example]:
        if len(data.get("starts", "1")) > 1:  # a conquest drawing holds one player count's starts
            data = {**data, "starts": {count: data["starts"][count] for count in [min(data["starts"])]}}
        read = {**grid.read(grid.draw(data)), "name": data["name"]}
        players = len(data.get("capitals", ())) or rs.min_players  # a ranks map seats one per capital
        terrain = {"mode": 2} if ruleset == "fortress" else {}  # fortress water and mountains need mode 2
        assert rs.setup(players, {"map": read, **terrain}) == rs.setup(players, {"map": data, **terrain}), data["name"]


@pytest.mark.parametrize("ruleset", GRID_GAMES)
def test_spaces_and_a_windows_file_read_alike(ruleset):
    grid = grid_of(ruleset)
    drawing = grid.draw(find_ruleset(ruleset).map_example)
    words = ruleset == "conquest"  # a word a cell: spaces part them, however many
    squeezed = "\r\n".join(
        "   ".join(line.split()) if words else line.replace(" ", "") for line in drawing.splitlines()
    )
    squeezed += "\r\n\r\n"
    assert grid.read(squeezed) == grid.read(drawing)


def test_blank_lines_around_a_drawing_are_no_rows_and_a_short_row_is_named_alone():
    grid = grid_of("siege")
    drawing = grid.draw(find_ruleset("siege").map_example)
    assert grid.read("   \n\n" + drawing + "\n  \n") == grid.read(drawing)
    short = "\n".join(["." * 9, *["." * 10] * 9])  # a typo in the first row: only it is wrong
    with pytest.raises(MapError) as caught:
        grid.read(short)
    assert caught.value.problems == ("grid row 1 has 9 cells; the others have 10",)


def test_siege_draws_row_1_last_as_its_board_does():
    """Siege boards are drawn with row 1 at the bottom: the grid's last line is row 1."""
    lines = ["." * 10] * 9 + ["~" + "." * 8 + "3"]
    assert grid_of("siege").read("\n".join(lines)) == {"size": 10, "rivers": ["A1"], "mountains": {"J1": 3}}


CASES = {
    "conquest": (
        "n@1 b x n\n n g3 s n@1\nn s g q9",
        [
            "grid row 1, column 3: 'x' is none of . n b s g b3 n@1",
            "grid row 3, column 4: 'q9' is none of . n b s g b3 n@1",
            "mark a start for each seat, @1 and @2 (to @6 for more players); the grid has @1",
            "mark start @1 once; the grid has it at A1, D2",
        ],
    ),
    "siege": (
        ". . x .\n. . . .\n. . . .",
        [
            "a siege grid is square, 10 rows of 10 or 12 of 12; this one has 3 rows of 4",
            "grid row 1, column 3: 'x' is none of . ~ 1 2 3",
        ],
    ),
    "fortress": (
        "1 . . . ?\n . 1 . . .\n. . . . .\n . . . . .",
        [
            "grid row 1, column 5: '?' is none of . ^ ~ 1 2",
            "draw city 1 once; the grid has it 2 times (A1, B2)",
            "draw city 2 once; the grid has it 0 times (-)",
        ],
    ),
    "ranks": (
        "1 # . .\n. . = N\n. . 3 .\n. . . *",
        [
            "grid row 4, column 4: '*' is none of . # = N 1",
            "draw a capital for each seat, 1 and 2 (3 and 4 for more players); the grid has 1, 3",
        ],
    ),
}


@pytest.mark.parametrize("ruleset", sorted(CASES))
def test_a_drawing_with_mistakes_names_each_by_row_and_column(ruleset):
    text, expected = CASES[ruleset]
    with pytest.raises(MapError) as caught:
        grid_of(ruleset).read(text)
    assert sorted(caught.value.problems) == sorted(expected)


@pytest.mark.parametrize("ruleset", GRID_GAMES)
def test_an_empty_drawing_is_refused_saying_so(ruleset):
    with pytest.raises(MapError, match="the grid is empty"):
        grid_of(ruleset).read("\n \n")
