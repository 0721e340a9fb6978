"""The fortress field image: owners' colours, terrain, and whose move it is, decoded from the PNG."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine import find_ruleset
from i18n import LANGUAGES, using
from render import board_png, text
from render.boards import fortress
from render.frame import MARGIN

RS = find_ruleset("fortress")


def played(mode: int, turns: int):
    state = RS.setup(2, {"mode": mode, "map": "lakes" if mode > 1 else "meadow"}, seed=2)
    for _ in range(turns):
        state = RS.resolve(state, {state.to_move: RS.ai_orders(state, state.to_move, 2)}).state
    return state


def test_every_cell_shows_its_owner_or_terrain_colour():
    for mode in (1, 2, 3):
        state = played(mode, 6)
        view = RS.view(state, None)
        image = Image.open(io.BytesIO(board_png(view, names=["Alice", "小明"]))).convert("RGB")
        assert 900 <= image.width <= 1400
        for cell in state.terrain:
            seen, expected = image.getpixel(fortress.fill_point(view, cell)), fortress.cell_fill(view, cell)
            assert max(abs(a - b) for a, b in zip(seen, expected)) <= 6, (cell.label, seen, expected)


def test_image_changes_with_the_move_and_is_deterministic():
    state = played(3, 5)
    first = board_png(RS.view(state, None), names=["A", "B"])
    assert first == board_png(RS.view(state, None), names=["A", "B"])
    later = RS.resolve(state, {state.to_move: RS.ai_orders(state, state.to_move, 1)}).state
    assert board_png(RS.view(later, None), names=["A", "B"]) != first
    assert len(first) < 500_000


def test_the_komi_is_shown_beside_the_first_players_count():
    """The compensation is shown on the board: seat 0's count reads "12 cells + 2.5 komi"."""
    state = RS.setup(2, {"mode": 1, "map": "meadow", "komi": "2.5"}, seed=2)
    view = RS.view(state, None)
    assert fortress.territory_text(view, 0) == f"{state.territory(0)} cells + 2.5 komi"
    assert fortress.territory_text(view, 1) == f"{state.territory(1)} cells"
    plain = RS.view(RS.setup(2, {"mode": 1, "map": "meadow", "komi": "0"}, seed=2), None)
    assert fortress.territory_text(plain, 0) == f"{state.territory(0)} cells"
    assert board_png(view, names=["A", "B"]) != board_png(plain, names=["A", "B"])


def test_the_legend_explains_only_what_is_on_the_field():
    """A field without water, mountains or generals has none of them in its legend."""
    meadow = RS.view(RS.setup(2, {"mode": 1, "map": "meadow"}, seed=2), None)
    assert [key.label for key in fortress.keys(meadow)] == ["city"]
    state = played(3, 6)
    shown = {key.label for key in fortress.keys(RS.view(state, None))}
    assert {"city", "water", "last move"} <= shown
    assert ("general" in shown) == bool(state.generals) and ("fortress" in shown) == bool(state.fortresses)
    assert ("mountain" in shown) == any(kind == "mountain" for kind in state.terrain.values())


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_subline_fits_whole_on_a_small_field(monkeypatch, language):
    """On an 8x8 field the subline is as wide as the board: it must not be cut short with "…"."""
    shown = []
    monkeypatch.setattr(
        fortress, "header", lambda canvas, geometry, heading, subline: shown.append((geometry, subline))
    )
    for mode in (1, 2, 3):
        view = RS.view(RS.setup(2, {"mode": mode, "width": 8, "height": 8}, seed=1), None)
        with using(language):
            board_png(view, names=["Alice Wonderland", "小明"])
    for geometry, subline in shown:
        assert text.fit(subline, 22, geometry.width - 2 * MARGIN) == subline
