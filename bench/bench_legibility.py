"""Can a player read the labels his orders name on a phone? The boards' label height at 400 px wide.

For each ruleset's largest board with the most players (bench/positions.py), the board is drawn as
the bot posts it, and the labels orders name (conquest and fortress cells, siege and ranks squares,
gra node numbers) are measured from the drawing's own layout: each board module's ``label_size``
(the text size it draws them at), turned into the height of a capital or digit in the bundled font,
then scaled to the image shown on a phone: Discord shows an image at its own size up to the
screen's width (400 px), never larger. The goal (issue: a board you can read on a
phone) is at least 8 px. No whole board reaches it, so posts carry a close-up beside the board
(``render.crop``): the same figure is measured on a close-up of the board's middle place.

What it leaves out: screens' pixel density and zoom, the other texts on a board (unit counts and
legends are larger), and smaller maps (their labels are larger).

Usage: python bench/bench_legibility.py
Ends with ``RESULT legibility shown_width=400 goal_px=8 <ruleset>_px=… <ruleset>_close_up_px=…``.
"""

from __future__ import annotations

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench.positions import largest_options  # noqa: E402
from engine import RULESETS  # noqa: E402
from render import board_image, crop, places_of  # noqa: E402


def shown_label_heights(name: str) -> tuple[float, float, int, int]:
    """The label height shown 400 px wide on ``name``'s largest board and on a close-up of its
    middle place, the label's text size and the board's width."""
    rs = RULESETS[name]
    players = 4 if name == "ranks" else rs.max_players
    state = rs.setup(players, largest_options(rs), seed=1)
    view = rs.view(state, None)
    board = board_image(view, names=[f"p{n}" for n in range(players)])
    places = places_of(view)
    assert places is not None, f"{name}'s board has no close-ups"
    middle = sorted(places.spots(view))[len(places.spots(view)) // 2]
    close = crop.close_up(places, view, board, [middle], middle)
    shown = crop.shown_label_height(places, view, board.width)
    return (
        shown,
        crop.close_up_label_height(places, view, board.width, close.width),
        places.label_size(view),
        board.width,
    )


def main() -> None:
    figures = []
    for name in sorted(RULESETS):
        shown, close, size, width = shown_label_heights(name)
        print(
            f"{name:9} labels at text size {size:2d} on a {width} px image: {shown:4.1f} px shown 400 px wide,"
            f" {close:4.1f} px on its close-up ({'ok' if close >= crop.GOAL else 'too small'})"
        )
        figures.append(f"{name}_px={shown:.1f} {name}_close_up_px={close:.1f}")
    print(f"RESULT legibility shown_width={crop.SHOWN_WIDTH} goal_px={crop.GOAL:g} {' '.join(figures)}")


if __name__ == "__main__":
    main()
