"""Animated replays: a game's boards one after another, each with a caption, as an animated GIF or
WebP (Discord plays both inline), whichever is smaller, under the upload limit it is given.

A long game is shown on at most MAX_FRAMES frames, chosen evenly and always with the first and the
last. Too large a file is first scaled down (to MIN_SCALE, where the boards stay readable), then
thinned out frame by frame. Captions are drawn after scaling, so they keep their size in pixels.
Boards are shrunk by averaging (box filter: sharp enough for flat colours, a third of Lanczos' time).
Every frame shares one palette, built from the first, middle and last frames: mapping each frame to
it is fast, and identical colours from frame to frame keep both formats small.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.i18n import tr
from render import png, text
from render.style import BACKGROUND, INK, MUTED, WHITE, mix

UPLOAD_LIMIT = 10 * 1024 * 1024
"""Discord's attachment limit for a server without boosts (a server's own limit may be higher)."""
MAX_FRAMES = 120
MAX_WIDTH = 640
"""Boards are fitted to this width: wider than Discord shows an image inline on a computer, and as
wide as a phone screen's pixels."""
MIN_SCALE = 0.5
"""Below this share of MAX_WIDTH the boards' own labels would be unreadable: drop frames instead."""
STEP_MS = (200, 700)
"""Shortest and longest time a frame is shown; a game takes about ANIMATION_MS whatever its length."""
ANIMATION_MS = 30_000
HOLD_MS = 2_500
"""The last frame (the final position) stays this long before the replay starts again."""
SHRINK = 0.9
"""Aim a little below the limit on the next try: file size is not exactly proportional to pixels."""


@dataclass(frozen=True)
class Still:
    """One frame-to-be: how to draw its board (only done if the frame is chosen) and its caption."""

    draw: Callable[[], Image.Image]
    caption: str


@dataclass(frozen=True)
class Replay:
    data: bytes
    format: str  # "gif" or "webp", also the file's extension
    frames: int
    width: int
    height: int
    shown: tuple[int, ...]  # the indexes of the stills it shows, in order
    captions: tuple[str, ...]  # theirs


class ReplayTooLarge(ValueError):
    """Even two small frames do not fit the upload limit."""


def pick(total: int, most: int) -> list[int]:
    """``most`` indexes out of ``range(total)``, evenly spread, always with the first and the last."""
    if total <= most:
        return list(range(total))
    if most < 2:
        raise ValueError("a replay keeps at least its first and last frames")
    return sorted({(2 * i * (total - 1) + most - 1) // (2 * (most - 1)) for i in range(most)})  # rounded half up


def final(caption: str) -> str:
    """The caption of a finished game's last frame."""
    return tr("{turn} · game over", turn=caption)


def durations(frames: int) -> list[int]:
    """Milliseconds each frame is shown: evenly paced, with the last one held (in tens: GIF counts
    hundredths of a second)."""
    step = min(STEP_MS[1], max(STEP_MS[0], ANIMATION_MS // max(1, frames - 1) // 10 * 10))
    return [step] * (frames - 1) + [HOLD_MS]


def animate(stills: Sequence[Still], limit: int) -> Replay:
    """The replay of ``stills`` (at least one) in at most ``limit`` bytes."""
    if not stills:
        raise ValueError("a replay needs at least one frame")
    chosen = pick(len(stills), MAX_FRAMES)
    boards = [_fitted(stills[index].draw()) for index in chosen]
    scale, kept = 1.0, list(range(len(chosen)))
    while True:
        frames = [
            _captioned(_scaled(boards[k], scale), stills[chosen[k]].caption, chosen[k], len(stills)) for k in kept
        ]
        data, kind = _smallest(_on_one_palette(_same_size(frames)))
        if len(data) <= limit:
            width, height = frames[0].size
            shown = tuple(chosen[k] for k in kept)
            return Replay(data, kind, len(frames), width, height, shown, tuple(stills[i].caption for i in shown))
        share = limit / len(data) * SHRINK
        if scale > MIN_SCALE:
            scale = max(MIN_SCALE, scale * math.sqrt(share))
        elif len(kept) > 2:
            kept = [kept[i] for i in pick(len(kept), max(2, min(len(kept) - 1, int(len(kept) * share))))]
        else:
            raise ReplayTooLarge(f"a replay of two frames takes {len(data)} bytes, over the limit of {limit}")


def caption_height(width: int) -> int:
    return round(_caption_size(width) * 1.9)


def _caption_size(width: int) -> int:
    """Text size of the caption: 26 px on a full-width frame, never below 22 px."""
    return max(22, min(26, width // 24))


def _fitted(board: Image.Image) -> Image.Image:
    if board.width <= MAX_WIDTH:
        return board.convert("RGB")
    return board.convert("RGB").resize((MAX_WIDTH, round(board.height * MAX_WIDTH / board.width)), Image.Resampling.BOX)


def _scaled(board: Image.Image, scale: float) -> Image.Image:
    if scale >= 1.0:
        return board
    size = (max(1, round(board.width * scale)), max(1, round(board.height * scale)))
    return board.resize(size, Image.Resampling.BOX)


def _captioned(board: Image.Image, caption: str, index: int, total: int) -> Image.Image:
    """The board under a bar with its caption on the left, "index/total" on the right, and a thin
    line along the bottom showing how far into the game it is."""
    size = _caption_size(board.width)
    bar = caption_height(board.width)
    frame = Image.new("RGB", (board.width, board.height + bar), BACKGROUND)
    frame.paste(board, (0, bar))
    canvas = ImageDraw.Draw(frame)
    canvas.rectangle((0, 0, board.width, bar - 1), fill=WHITE)
    margin = size // 2
    count = f"{index + 1}/{total}"
    room = board.width - 3 * margin - text.width(count, size)
    middle = (bar - 4) / 2
    text.draw(canvas, (margin, middle), text.fit(caption, size, room, bold=True), size, INK, bold=True)
    text.draw(canvas, (board.width - margin, middle), count, size, MUTED, anchor="rm")
    done = round(board.width * (index + 1) / total)
    canvas.rectangle((0, bar - 4, board.width, bar - 1), fill=mix(MUTED, WHITE, 0.7))
    canvas.rectangle((0, bar - 4, done - 1, bar - 1), fill=MUTED)
    return frame


def _same_size(frames: list[Image.Image]) -> list[Image.Image]:
    """Boards of one game rarely change size (a longer legend); any smaller one is padded."""
    width, height = max(f.width for f in frames), max(f.height for f in frames)
    padded = []
    for frame in frames:
        if frame.size != (width, height):
            canvas = Image.new("RGB", (width, height), BACKGROUND)
            canvas.paste(frame, (0, 0))
            frame = canvas
        padded.append(frame)
    return padded


def _on_one_palette(frames: list[Image.Image]) -> list[Image.Image]:
    samples = [frames[0], frames[len(frames) // 2], frames[-1]]
    width, height = frames[0].size
    montage = Image.new("RGB", (width, height * len(samples)))
    for row, sample in enumerate(samples):
        montage.paste(sample, (0, row * height))
    palette = png.to_palette(montage)
    return [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in frames]


def _smallest(frames: list[Image.Image]) -> tuple[bytes, str]:
    """The frames as animated GIF and as lossless animated WebP: the smaller of the two."""
    shown = durations(len(frames))
    encoded = []
    for kind, options in (("gif", {"optimize": False}), ("webp", {"lossless": True, "method": 1, "quality": 20})):
        out = io.BytesIO()
        frames[0].save(
            out, format=kind.upper(), save_all=True, append_images=frames[1:], duration=shown, loop=0, **options
        )
        encoded.append((out.getvalue(), kind))
    return min(encoded, key=lambda pair: len(pair[0]))
