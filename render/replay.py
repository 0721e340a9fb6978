"""Animated replays: a game's boards one after another, each with a caption, as an animated GIF or
WebP (Discord plays both inline), whichever is smaller, under the upload limit it is given.

A long game is shown on at most MAX_FRAMES frames, chosen evenly and always with the first and the
last, in at most TARGET_BYTES (or the upload limit, if lower): a phone downloads it over a mobile
network. Encoding every frame is most of a replay's cost, so the format and the scale come from a
sample of SAMPLE frames first (encoded again at each scale tried), and the whole replay is encoded
once, in that format, at the scale the sample says fits. Too large a file all the same is scaled
down further (to MIN_SCALE, where the boards stay readable), then thinned out frame by frame.
Captions are drawn after scaling, so they keep their size in pixels.
Boards are shrunk by averaging (box filter: sharp enough for flat colours, a third of Lanczos' time).
Every frame shares one palette, built from the first, middle and last frames: mapping each frame to
it is fast, and identical colours from frame to frame keep both formats small.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

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
TARGET_BYTES = 5 * 1024 * 1024
SAMPLE = 12


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
    """The replay of ``stills`` (at least one) in at most ``limit`` bytes (and TARGET_BYTES).

    Boards are kept on the shared palette (a byte a pixel) between tries, and each try holds only
    its own frames: a long game's replay needs a few hundred megabytes less than in full colour.
    Every pixel is mapped to the palette once, so a full-size frame shows its board as drawn."""
    if not stills:
        raise ValueError("a replay needs at least one frame")
    chosen = pick(len(stills), MAX_FRAMES)

    def bar(k: int, width: int) -> Image.Image:
        return _caption_bar(width, stills[chosen[k]].caption, chosen[k], len(stills))

    samples = {k: _fitted(stills[chosen[k]].draw()) for k in sorted({0, len(chosen) // 2, len(chosen) - 1})}
    palette = _palette([part for k, board in samples.items() for part in (bar(k, board.width), board)])
    boards = [
        _on(palette, samples.pop(k) if k in samples else _fitted(stills[chosen[k]].draw())) for k in range(len(chosen))
    ]
    size = (max(board.width for board in boards), max(board.height for board in boards))
    boards = [_padded(board, size, palette) for board in boards]
    limit = min(limit, TARGET_BYTES)

    def framed(kept: list[int], scale: float) -> list[Image.Image]:
        frames = []
        for k in kept:
            board = boards[k] if scale >= 1.0 else _on(palette, _scaled(boards[k].convert("RGB"), scale))
            frames.append(_stacked(palette, _on(palette, bar(k, board.width)), board))
        return frames

    kept = list(range(len(chosen)))
    sampled = [kept[i] for i in pick(len(kept), SAMPLE)]
    scale = 1.0
    sample_frames = framed(sampled, scale)
    sample, kind = _smallest(sample_frames)
    # A smaller frame packs fewer pixels per byte: the sample is encoded again at each scale tried.
    while (expected := len(sample) * len(kept) / len(sampled)) > limit and scale > MIN_SCALE:
        scale = max(MIN_SCALE, scale * math.sqrt(limit / expected * SHRINK))
        sample_frames = framed(sampled, scale)
        sample = _encoded(sample_frames, kind)
    reuse = sampled == kept  # a short replay is its own sample: its last encoding is the first try
    while True:
        if reuse:
            frames, data, reuse = sample_frames, sample, False
        else:
            frames = framed(kept, scale)
            data = _encoded(frames, kind)
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


def _caption_bar(width: int, caption: str, index: int, total: int) -> Image.Image:
    """The bar above a board: its caption on the left, "index/total" on the right, and a thin line
    along the bottom showing how far into the game it is."""
    size = _caption_size(width)
    height = caption_height(width)
    bar = Image.new("RGB", (width, height), WHITE)
    canvas = ImageDraw.Draw(bar)
    margin = size // 2
    count = f"{index + 1}/{total}"
    room = width - 3 * margin - text.width(count, size)
    middle = (height - 4) / 2
    text.draw(canvas, (margin, middle), text.fit(caption, size, room, bold=True), size, INK, bold=True)
    text.draw(canvas, (width - margin, middle), count, size, MUTED, anchor="rm")
    canvas.rectangle((0, height - 4, width, height - 1), fill=mix(MUTED, WHITE, 0.7))
    canvas.rectangle((0, height - 4, round(width * (index + 1) / total) - 1, height - 1), fill=MUTED)
    return bar


def _palette(parts: list[Image.Image]) -> Image.Image:
    """One palette for every frame, from a few boards and caption bars (stacked)."""
    montage = Image.new("RGB", (max(part.width for part in parts), sum(part.height for part in parts)), BACKGROUND)
    top = 0
    for part in parts:
        montage.paste(part, (0, top))
        top += part.height
    return png.to_palette(montage)


def _on(palette: Image.Image, image: Image.Image) -> Image.Image:
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def _blank(palette: Image.Image, size: tuple[int, int]) -> Image.Image:
    """An image of ``size`` in the background colour, on ``palette``."""
    return _on(palette, Image.new("RGB", size, BACKGROUND))


def _padded(board: Image.Image, size: tuple[int, int], palette: Image.Image) -> Image.Image:
    """Boards of one game rarely change size (a longer legend); a smaller one is padded."""
    if board.size == size:
        return board
    canvas = _blank(palette, size)
    canvas.paste(board, (0, 0))
    return canvas


def _stacked(palette: Image.Image, top: Image.Image, bottom: Image.Image) -> Image.Image:
    """Two images on ``palette``, one above the other (pasting keeps their palette indexes)."""
    frame = _blank(palette, (bottom.width, top.height + bottom.height))
    frame.paste(top, (0, 0))
    frame.paste(bottom, (0, top.height))
    return frame


FORMATS: dict[str, dict[str, Any]] = {
    "gif": {"optimize": False},
    "webp": {"lossless": True, "method": 1, "quality": 20},
}


def _smallest(frames: list[Image.Image]) -> tuple[bytes, str]:
    """The frames as animated GIF and as lossless animated WebP: the smaller of the two."""
    return min(((_encoded(frames, kind), kind) for kind in FORMATS), key=lambda pair: len(pair[0]))


def _encoded(frames: list[Image.Image], kind: str) -> bytes:
    out = io.BytesIO()
    frames[0].save(
        out,
        format=kind.upper(),
        save_all=True,
        append_images=frames[1:],
        duration=durations(len(frames)),
        loop=0,
        **FORMATS[kind],
    )
    return out.getvalue()
