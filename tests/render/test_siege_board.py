"""The siege board image: owners and terrain, axis labels and compass, fortifications and the last
turn, decoded from the PNG."""

from __future__ import annotations

import io
from dataclasses import replace

from PIL import Image

from engine import find_ruleset
from engine.siege.orders import Action
from engine.squaregrid import Square
from render import board_png
from render.boards import siege
from render.boards.siege import HIGHLIGHT, STONE

RS = find_ruleset("siege")


def played(turns: int, **options):
    state = RS.setup(2, options, seed=2)
    for _ in range(turns):
        state = RS.resolve(state, {state.to_move: RS.ai_orders(state, state.to_move, 2, level="Medium")}).state
    return state


def image_of(state) -> Image.Image:
    return Image.open(io.BytesIO(board_png(RS.view(state, None), names=["Alice", "小明"]))).convert("RGB")


def close(seen, expected, tolerance: int = 6) -> bool:
    return max(abs(a - b) for a, b in zip(seen, expected)) <= tolerance


def test_every_square_shows_its_owner_or_terrain_colour():
    for options in ({}, {"size": 12, "map": "delta"}):
        state = played(8, **options)
        view = RS.view(state, None)
        image = image_of(state)
        assert 900 <= image.width <= 1400
        for sq in (Square(col, row) for row in range(state.size) for col in range(state.size)):
            seen, expected = image.getpixel(siege.fill_point(view, sq)), siege.square_fill(view, sq)
            assert close(seen, expected), (sq.label, seen, expected)


def test_fortifications_and_the_last_turn_are_drawn():
    """Walls (1-2) and towers show in stone grey; the last turn's squares are framed in yellow."""
    sq = Square.from_label
    state = RS.setup(2, {"map": "ford"}, seed=1)
    state = replace(state, walls={sq("E1"): 2}, towers=frozenset({sq("F1")}), last=(Action("expand", sq("A2")),))
    view = RS.view(state, None)
    image = image_of(state)
    frame = siege.layout(view)

    def colours(square: Square) -> set:
        x, y = frame.corner(square)
        box = image.crop((round(x), round(y), round(x + frame.cell), round(y + frame.cell)))
        return {colour for _, colour in box.getcolors(1 << 20)}

    assert any(close(c, STONE, 2) for c in colours(sq("E1"))) and any(close(c, STONE, 2) for c in colours(sq("F1")))
    assert not any(close(c, STONE, 2) for c in colours(sq("D1")))
    assert any(close(c, HIGHLIGHT, 2) for c in colours(sq("A2")))
    assert not any(close(c, HIGHLIGHT, 2) for c in colours(sq("B2")))


def test_image_changes_with_the_turn_and_is_deterministic():
    state = played(5)
    first = board_png(RS.view(state, None), names=["A", "B"])
    assert first == board_png(RS.view(state, None), names=["A", "B"])
    later = RS.resolve(state, {state.to_move: RS.ai_orders(state, state.to_move, 1, level="Easy")}).state
    assert board_png(RS.view(later, None), names=["A", "B"]) != first
    assert len(first) < 500_000
    over = RS.remove_player(state, 1, "surrender").state
    assert board_png(RS.view(over, None), names=["A", "B"]) != first


def test_the_komi_is_shown_beside_the_second_players_count_and_in_the_result():
    """The compensation is shown on the board: seat 1's count reads "14 squares + 4.5 komi", and a
    game the territory decides is won by the counts with the komi."""
    state = RS.setup(2, {"komi": "4.5"}, seed=2)
    entries = siege.entries(RS.view(state, None), ["A", "B"])
    assert f"{state.territory(1)} squares + 4.5 komi · " in entries[1].detail
    assert "komi" not in entries[0].detail
    plain = RS.setup(2, {"komi": "0"}, seed=2)
    assert all("komi" not in entry.detail for entry in siege.entries(RS.view(plain, None), ["A", "B"]))
    ended = replace(state, ended="limit")
    text = siege._result(RS.view(ended, None), ["A", "B"])
    assert text == f"B wins {state.territory(1) + 4.5:g} to {state.territory(0)} (the turn limit was reached)"
