"""How close to the encode floor a board's first drawings could come in Pillow at all: the least
CPU the same pixels can take, next to what they take.

Boards and positions: those of ``bench_render``'s ``first`` figure (each ruleset's largest default
board with its most players, the computer's own play from the start, a worker's caches emptied and
warmed up before the first turn), the same FIRST turns.

Measured per turn (CPU time):
- ``render``: the round post's images from the stored state, as ``bench_render`` times them (the
  turns in order after a fresh worker's warm-up, each turn's median over several such workers).
- ``floor``: ``bench_render``'s encode floor of those images.
- ``bound``: the Pillow calls that put the board's pixels on its image, replayed on a blank image
  with nothing else around them (every polygon fill, glyph stamp and pasted piece, with the same
  arguments, recorded while the board was drawn; the replay is checked to give the same pixels),
  plus the board's mapping to its palette (median of RUNS of both), plus the floor: the least
  these pixels take when drawn in colour with Pillow and sent as the bot sends them. Left out of
  it: the Python that decides what to draw, the glyphs and pieces drawn the first time, the
  close-up's cut; and any other way of drawing them (straight in 256 colours, where Pillow does
  not anti-alias text, or another library).

Ratios are to the floor. Ends with ``RESULT draw_bound first_bound_ratio=<highest of any ruleset>
<ruleset>_first_bound_ratio=… <ruleset>_first_ratio=…``.
"""

from __future__ import annotations

import os
import pathlib
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from PIL import Image  # noqa: E402

from bench.bench_render import FIRST, NAMES, cpu_ms, first_turns, floor_ms  # noqa: E402
from bench.positions import played  # noqa: E402
from engine import RULESETS, Ruleset  # noqa: E402
from render import board_image, has_drawer, pieces, png  # noqa: E402

RUNS = 5

Call = tuple[str, tuple[Any, ...]]
"""A recorded Pillow call on the board: an ``ImagingDraw`` method and its arguments, or ``paste``."""


class Recorder:
    """Stands for a board canvas' ``ImagingDraw``: forwards every call and keeps those that draw."""

    def __init__(self, real: Any, calls: list[Call]) -> None:
        self._real, self._calls = real, calls

    def __getattr__(self, name: str) -> Callable[..., Any]:
        method = getattr(self._real, name)

        def call(*args: Any) -> Any:
            if name != "draw_ink":
                self._calls.append((name, args))
            return method(*args)

        return call


def recorded(view: object, names: list[str]) -> tuple[Image.Image, list[Call]]:
    """The board of ``view`` drawn as the bot draws it, and the Pillow calls that drew on it."""
    calls: list[Call] = []
    boards: list[Image.Image] = []
    canvas_init, paste = pieces.Canvas.__init__, Image.Image.paste

    def recording_init(canvas: pieces.Canvas, image: Image.Image) -> None:
        canvas_init(canvas, image)
        canvas.draw = Recorder(canvas.draw, calls)  # type: ignore[assignment]
        boards.append(image)

    def recording_paste(image: Image.Image, source: Any, box: Any = None, mask: Any = None) -> None:
        if boards and image is boards[0]:
            # Boards paste pieces: an image at a corner, through a mask.
            corner = (box[0], box[1], box[0] + source.width, box[1] + source.height)
            calls.append(("paste", (source.im, corner, mask.im)))
        paste(image, source, box, mask)

    pieces.Canvas.__init__, Image.Image.paste = recording_init, recording_paste  # type: ignore[method-assign,assignment]
    try:
        image = board_image(view, names=names)
    finally:
        pieces.Canvas.__init__, Image.Image.paste = canvas_init, paste  # type: ignore[method-assign,assignment]
    return image, calls


def replay_ms(image: Image.Image, calls: list[Call]) -> float:
    """CPU ms of ``calls`` on a blank image like ``image``'s first pixel, checked to draw ``image``."""
    start = time.process_time()
    blank = Image.new(image.mode, image.size, image.getpixel((0, 0)))
    draw = Image.core.draw(blank.im, 0)
    for name, args in calls:
        if name == "paste":
            blank.im.paste(*args)
        else:
            getattr(draw, name)(*args)
    spent = (time.process_time() - start) * 1000
    assert blank.tobytes() == image.tobytes(), "the replay does not draw the board"
    return spent


def turn_figures(rs: Ruleset, states: list, names: list[str]) -> list[tuple[float, float, float]]:
    """Render, bound and floor ms of each of a new game's first turns. The turns are drawn again
    for the bound only after they are timed, as a drawing fills the caches the next turn finds."""
    figures = []
    for state, (sent, render) in zip(states, first_turns(rs, states, names), strict=True):
        floor = floor_ms(sent)
        image, calls = recorded(rs.view(state, None), names)
        least = statistics.median(replay_ms(image, calls) + cpu_ms(partial(png.to_palette, image)) for _ in range(RUNS))
        figures.append((render, least + floor, floor))
    return figures


def main() -> None:
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"a new game's first {FIRST} round posts, CPU ms; load average {load} on {os.cpu_count()} CPUs")
    figures = {}
    for name, rs in sorted(RULESETS.items()):
        names = list(NAMES[: rs.max_players])
        states = played(rs, 0, FIRST)
        if not has_drawer(type(rs.view(states[0], None))):
            continue
        turns = turn_figures(rs, states, names)
        for turn, (render, bound, floor) in enumerate(turns):
            print(
                f"{name:9} turn {turn}: render {render:.1f} ms ({render / floor:.2f}x), "
                f"Pillow's least {bound:.1f} ms ({bound / floor:.2f}x), floor {floor:.1f} ms"
            )
        figures[f"{name}_first_bound_ratio"] = max(bound / floor for _, bound, floor in turns)
        figures[f"{name}_first_ratio"] = max(render / floor for render, _, floor in turns)
    highest = max(value for key, value in figures.items() if key.endswith("_bound_ratio"))
    print(
        f"RESULT draw_bound first_bound_ratio={highest:.2f} "
        + " ".join(f"{key}={value:.2f}" for key, value in figures.items())
    )


if __name__ == "__main__":
    main()
