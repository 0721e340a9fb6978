"""The ranks board image: cell colours, ranks drawn apart, the last turn and the private preview,
decoded from the PNG."""

from __future__ import annotations

import io
from dataclasses import replace

from PIL import Image

from engine import find_ruleset
from render import board_png
from render.boards import ranks
from render.style import player_colour
from tests.engine.ranks_helpers import guarded, sq

RS = find_ruleset("ranks")
NAMES = ["Alice", "小明", "Борис", "Dana"]


def image(view, **kwargs) -> Image.Image:
    return Image.open(io.BytesIO(board_png(view, names=NAMES[: len(view.state.players)], **kwargs))).convert("RGB")


def played(players: int, options: dict, turns: int):
    state = RS.setup(players, options, seed=3)
    for _ in range(turns):
        state = RS.resolve(state, {state.to_move: RS.ai_orders(state, state.to_move, 3)}).state
    return state


def close(seen, expected, slack: int = 6) -> bool:
    return max(abs(a - b) for a, b in zip(seen, expected)) <= slack


def test_every_cell_shows_city_or_plain_colour_on_every_map():
    for players, options in [(2, {}), (2, {"map": "nine-cities"}), (3, {"map": "three-realms"}), (4, {"size": 16})]:
        state = played(players, options, 12)
        view = RS.view(replace(state, last=()), None)
        picture = image(view)
        assert 960 <= picture.width <= 1400 and ranks.layout(state.board, players).cell >= ranks.SMALLEST
        for cell in state.board.grid.squares():
            seen, expected = picture.getpixel(ranks.fill_point(view, cell)), ranks.cell_fill(view, cell)
            assert close(seen, expected), (options, cell.label, seen, expected)


def silhouette(picture: Image.Image, frame, cell: str) -> set[tuple[int, int]]:
    """The pixels drawn over the cell's fill below its label: the army's shape, letter included."""
    x0, y0, _, _ = frame.box(sq(cell))
    top = round(frame.cell * 0.3)
    return {
        (x, y)
        for x in range(frame.cell)
        for y in range(top, frame.cell - 2)
        if not close(picture.getpixel((x0 + x, y0 + y)), ranks.NEUTRAL, 12)
    }


def test_each_rank_has_its_own_shape_in_its_owners_colour():
    ranks_at = {"B3": "pawn", "D3": "archer", "F3": "knight", "B5": "tank"}
    view = RS.view(guarded({cell: (1, rank) for cell, rank in ranks_at.items()}), None)
    picture = image(view)
    frame = ranks.layout(view.state.board, 2)
    shapes = [silhouette(picture, frame, cell) for cell in ranks_at]
    for i, (cell, one) in enumerate(zip(ranks_at, shapes)):
        x, y = frame.center(sq(cell))
        assert close(
            picture.getpixel((round(x - frame.cell * 0.17), round(y + frame.cell * 0.15))), player_colour(1), 20
        )
        for other in shapes[i + 1 :]:
            assert len(one ^ other) > 0.1 * len(one | other)


def test_npcs_tracks_and_capitals_are_marked():
    view = RS.view(guarded(tracks=["C4", "C5"], npcs=["C4"]), None)
    picture = image(view)
    frame = ranks.layout(view.state.board, 2)
    x, y = frame.center(sq("C4"))
    assert close(picture.getpixel((round(x), round(y + frame.cell * 0.05))), ranks.NPC, 10)
    x0, y0, _, _ = frame.box(sq("C5"))
    inset = max(3, frame.cell // 14) + 1
    assert close(picture.getpixel((round(x), y0 + inset)), ranks.TRACK, 10)
    x0, y0, _, _ = frame.box(sq("H8"))
    assert close(picture.getpixel((round(x0 + frame.cell / 2), y0 + 4)), player_colour(1), 10)


def test_last_turn_and_private_orders_change_the_image_deterministically():
    state = guarded({"C3": (0, "pawn"), "C4": (1, "knight")})
    after = RS.resolve(state, {0: RS.parse_orders(state, 0, "C3>C4")}).state
    public = board_png(RS.view(after, None), names=NAMES[:2])
    assert public == board_png(RS.view(after, None), names=NAMES[:2])
    assert public != board_png(RS.view(replace(after, last=()), None), names=NAMES[:2])
    orders = RS.parse_orders(after, 1, "H8>H7")
    private = image(RS.view(after, 1), orders=orders)
    assert close(private.getpixel((2, 2)), player_colour(1), 10)  # the private frame in the viewer's colour
    frame = ranks.layout(after.board, 2)
    (ax, ay), (bx, by) = frame.center(sq("H8")), frame.center(sq("H7"))
    arrow = ranks.mix(player_colour(1), ranks.WHITE, 0.25)
    assert close(private.getpixel((round((ax + bx) / 2), round((ay + by) / 2))), arrow, 12)
    assert board_png(RS.view(after, 1), names=NAMES[:2], orders=orders) != public
    assert len(public) < 500_000
