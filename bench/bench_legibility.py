"""Can a player read the labels his orders name on a phone? The boards' label height at 400 px wide.

For each ruleset's largest board with the most players (bench/positions.py), the board is drawn as
the bot posts it, and the labels orders name (conquest and fortress cells, siege and ranks squares,
gra node numbers) are measured from the drawing's own layout: each board module's ``label_size``
(the text size it draws them at), turned into the height of a capital or digit in the bundled font,
then scaled to the image shown 400 px wide (a phone). The goal (issue: a board you can read on a
phone) is at least 8 px; below it, the board needs a readable crop (not built yet).

What it leaves out: screens' pixel density and zoom, the other texts on a board (unit counts and
legends are larger), and smaller maps (their labels are larger).

Usage: python bench/bench_legibility.py
Ends with ``RESULT legibility shown_width=400 goal_px=8 <ruleset>_px=…``.
"""

from __future__ import annotations

import importlib
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench.positions import largest_options  # noqa: E402
from engine import RULESETS  # noqa: E402
from render import board_image, text  # noqa: E402

SHOWN_WIDTH = 400  # px: a board in a phone's Discord client
GOAL = 8.0  # px: the height of a label's capitals and digits, shown that wide


def glyph_height(size: int) -> int:
    """The height in pixels of capitals and digits ("E10") drawn at text size ``size``."""
    path = text.font_for("E")
    assert path is not None
    left, top, right, bottom = text.font(path, size).getbbox("E10")
    return bottom - top


def shown_label_height(name: str) -> tuple[float, int, int]:
    """The label height shown 400 px wide on ``name``'s largest board, its text size and image width."""
    rs = RULESETS[name]
    players = 4 if name == "ranks" else rs.max_players
    state = rs.setup(players, largest_options(rs), seed=1)
    view = rs.view(state, None)
    width = board_image(view, names=[f"p{n}" for n in range(players)]).width
    size = importlib.import_module(f"render.boards.{name}").label_size(view)
    return glyph_height(size) * SHOWN_WIDTH / width, size, width


def main() -> None:
    figures = []
    for name in sorted(RULESETS):
        shown, size, width = shown_label_height(name)
        verdict = "ok" if shown >= GOAL else "too small: needs a crop"
        print(
            f"{name:9} labels at text size {size:2d} on a {width} px image: {shown:4.1f} px shown 400 px wide ({verdict})"
        )
        figures.append(f"{name}_px={shown:.1f}")
    print(f"RESULT legibility shown_width={SHOWN_WIDTH} goal_px={GOAL:g} {' '.join(figures)}")


if __name__ == "__main__":
    main()
