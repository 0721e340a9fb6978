"""A board too large to read on a phone comes with close-ups (issue: a board you can read on a
phone): "every label an order names is at least 8 px tall when the image is shown 400 px wide, on
every ruleset's largest map ... Where a large map cannot fit that, post a readable crop of the part
that changed or that the player acts on"."""

from __future__ import annotations

import pytest

from bench.positions import largest_options
from engine import RULESETS
from render import board_image, crop, places_of
from service.runtime.workers import Focus, close_up_job, render_job


def largest(name: str):
    rs = RULESETS[name]
    players = 4 if name == "ranks" else rs.max_players
    view = rs.view(rs.setup(players, largest_options(rs), seed=1), None)
    return view, board_image(view, names=[f"p{n}" for n in range(players)])


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_a_close_up_of_the_largest_board_reads_8_px_tall_on_a_phone(name):
    view, board = largest(name)
    places = places_of(view)
    assert places is not None
    assert crop.needs_close_up(places, view, board.width)  # the whole board does not read
    spots = places.spots(view)
    for label in (min(spots), max(spots), sorted(spots)[len(spots) // 2]):
        image = crop.close_up(places, view, board, [label], crop.heading("Round 4", [label]))
        assert crop.close_up_label_height(places, view, board.width, image.width) >= crop.GOAL
        assert image.height <= image.width + crop.BAND  # fits a phone's screen without scrolling
        left, top, right, bottom = box = crop.window(places, view, board, [label])
        x, y = spots[label]
        assert left <= x < right and top <= y < bottom, f"{label} at {x, y} is not in {box}"
        cut = board.crop(box)
        if cut.width >= crop.SHOWN_WIDTH:  # else enlarged: compared by size alone
            assert image.crop((0, crop.BAND, image.width, image.height)).tobytes() == cut.tobytes()
        assert image.height - crop.BAND == round(cut.height * image.width / cut.width)


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_place_orders_name_has_a_spot_on_the_board(name):
    view, board = largest(name)
    places = places_of(view)
    assert places is not None
    spots = places.spots(view)
    assert spots and all(0 <= x < board.width and 0 <= y < board.height for x, y in spots.values())
    assert crop.named(places, view, [f"{min(spots).lower()}>{max(spots)}; nowhere"]) == [min(spots), max(spots)]


@pytest.mark.parametrize("name", ["conquest", "siege"])
def test_a_close_up_asked_for_alone_is_the_one_the_board_would_come_with(name):
    """`/game board around:` wants only the close-up: the same picture, without encoding the board."""
    rs = RULESETS[name]
    stored = rs.to_dict(rs.setup(rs.max_players, largest_options(rs), seed=1))
    view = rs.view(rs.from_dict(stored), None)
    label = sorted(places_of(view).spots(view))[3]
    focus = Focus((label,), "Round 1", asked=True)
    names = [f"p{n}" for n in range(rs.max_players)]
    alone = close_up_job(rs, stored, names=names, language="en", focus=focus)
    whole = render_job(rs, stored, viewer=None, orders_text="", names=names, title=None, focus=focus)
    assert alone is not None and alone == whole.close_up
