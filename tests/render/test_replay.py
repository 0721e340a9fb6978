"""The replay encoder: a frame per still (evenly thinned out for long games, first and last always
kept), paced with the last frame held, captions readable at phone size, and never over its limit."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from render import replay, text
from render.replay import HOLD_MS, MAX_FRAMES, ReplayTooLarge, Still, animate, caption_height, pick
from render.style import PLAYER_COLOURS


def board(number: int, width: int = 480, height: int = 360) -> Image.Image:
    """A stand-in board: a number and a block that moves from frame to frame."""
    image = Image.new("RGB", (width, height), (246, 244, 238))
    canvas = ImageDraw.Draw(image)
    x = (number * 37) % (width - 100)
    canvas.rectangle((x, height // 2, x + 90, height // 2 + 90), fill=PLAYER_COLOURS[number % 6])
    text.draw(canvas, (20, 60), f"Board {number}", min(60, height // 5), (34, 34, 38), bold=True)
    return image


def stills(count: int, drawn: list[int] | None = None, **size) -> list[Still]:
    def draw(number: int) -> Image.Image:
        if drawn is not None:
            drawn.append(number)
        return board(number, **size)

    return [Still(lambda n=n: draw(n), "Start" if n == 0 else f"Round {n}") for n in range(count)]


def frames(data: bytes) -> list[tuple[Image.Image, int]]:
    """Every frame as RGB with how long it is shown."""
    image = Image.open(io.BytesIO(data))
    shown = []
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        shown.append((image.convert("RGB"), image.info["duration"]))
    return shown


def difference(one: Image.Image, other: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(one, other)).mean) / 3


def ink(bar: Image.Image) -> tuple[int, int, int, int]:
    """The box around the dark text of a caption bar's left half."""
    dark = bar.crop((0, 0, bar.width // 2, bar.height)).convert("L").point(lambda v: 255 if v < 100 else 0)
    return dark.getbbox()


def test_a_frame_per_still_paced_with_the_last_held_and_each_board_shown_as_drawn():
    made = animate(stills(6), replay.UPLOAD_LIMIT)
    shown = frames(made.data)
    assert Image.open(io.BytesIO(made.data)).format.lower() == made.format
    assert (made.frames, made.width, made.height, made.shown) == (6, 480, 360 + caption_height(480), tuple(range(6)))
    assert [duration for _, duration in shown] == [replay.STEP_MS[1]] * 5 + [HOLD_MS]
    assert made.captions == ("Start", "Round 1", "Round 2", "Round 3", "Round 4", "Round 5")
    top = caption_height(480)
    first, last = (frame.crop((0, top, 480, top + 360)) for frame, _ in (shown[0], shown[-1]))
    assert difference(first, board(0)) < 2 and difference(last, board(5)) < 2
    assert difference(first, board(5)) > 5 * difference(first, board(0))


@pytest.mark.parametrize("width", [300, 1600])
def test_captions_are_drawn_large_and_dark_enough_to_read_on_a_phone(width):
    made = animate(stills(3, width=width, height=400), replay.UPLOAD_LIMIT)
    (start, _), _, (last, _) = frames(made.data)
    top = caption_height(made.width)
    for frame, caption in ((start, "Start"), (last, "Round 2")):
        left, upper, right, lower = ink(frame.crop((0, 0, made.width, top)))
        size = replay._caption_size(made.width)
        assert lower - upper >= 15  # the capitals alone are 15 px or more tall: legible when shown at full size
        assert 0.9 <= (right - left) / text.width(caption, size, bold=True) <= 1  # the whole caption, not cut
    assert made.width == replay.MAX_WIDTH if width > replay.MAX_WIDTH else made.width == width


def test_a_small_limit_scales_down_then_drops_frames_keeping_the_first_and_the_last():
    full = animate(stills(8), replay.UPLOAD_LIMIT)
    smaller = animate(stills(8), len(full.data) * 9 // 10)
    assert len(smaller.data) <= len(full.data) * 9 // 10
    assert smaller.frames == 8 and replay.MIN_SCALE * full.width <= smaller.width < full.width
    fewer = animate(stills(8), len(full.data) // 2)
    assert len(fewer.data) <= len(full.data) // 2 and fewer.width == replay.MIN_SCALE * full.width
    assert 2 <= fewer.frames < 8 and fewer.frames == len(frames(fewer.data))
    assert fewer.shown[0] == 0 and fewer.shown[-1] == 7 and frames(fewer.data)[-1][1] == HOLD_MS
    with pytest.raises(ReplayTooLarge, match="over the limit of 100"):
        animate(stills(8), 100)


def test_a_long_game_is_shown_on_at_most_max_frames_only_those_drawn():
    drawn: list[int] = []
    made = animate(stills(400, drawn, width=240, height=160), replay.UPLOAD_LIMIT)
    assert made.frames == MAX_FRAMES and len(frames(made.data)) == MAX_FRAMES
    assert sorted(drawn) == list(made.shown) and made.shown[0] == 0 and made.shown[-1] == 399  # each once
    assert [duration for _, duration in frames(made.data)] == replay.durations(MAX_FRAMES)
    assert replay.STEP_MS[0] <= replay.durations(MAX_FRAMES)[0] < replay.STEP_MS[1]  # faster than a short game


@pytest.mark.parametrize(("total", "most"), [(1, 5), (5, 5), (6, 5), (301, 150), (1000, 2), (7, 3)])
def test_pick_spreads_evenly_and_keeps_both_ends(total, most):
    chosen = pick(total, most)
    assert len(chosen) == min(total, most) and chosen == sorted(set(chosen))
    assert chosen[0] == 0 and chosen[-1] == total - 1
    gaps = [b - a for a, b in zip(chosen, chosen[1:], strict=False)]
    assert not gaps or max(gaps) - min(gaps) <= 1


def test_a_board_that_grows_is_shown_whole_and_the_others_padded():
    grown = [*stills(2), Still(lambda: board(2, height=420), "Round 2")]
    made = animate(grown, replay.UPLOAD_LIMIT)
    top = caption_height(480)
    (first, _), _, (last, _) = frames(made.data)
    assert (made.width, made.height) == (480, 420 + top)
    assert difference(last.crop((0, top, 480, top + 420)), board(2, height=420)) < 2
    assert difference(first.crop((0, top, 480, top + 360)), board(0)) < 2
    [(count, colour)] = first.crop((0, top + 360, 480, top + 420)).getcolors()  # one colour: the background
    assert max(abs(a - b) for a, b in zip(colour, (246, 244, 238), strict=True)) <= 2


def test_a_replay_over_the_target_size_is_scaled_from_a_sample_and_encoded_whole_once(monkeypatch):
    """Encoding every frame is most of a replay's cost: the scale is found on a sample, so the whole
    replay is encoded once, and comes out within TARGET_BYTES with every frame."""
    full = animate(stills(40, width=480, height=360), replay.UPLOAD_LIMIT)
    monkeypatch.setattr(replay, "TARGET_BYTES", len(full.data) * 8 // 10)
    whole = []
    encoded = replay._encoded

    def counted(images, kind):
        whole.append(len(images) == 40)
        return encoded(images, kind)

    monkeypatch.setattr(replay, "_encoded", counted)
    made = animate(stills(40, width=480, height=360), replay.UPLOAD_LIMIT)
    assert len(made.data) <= replay.TARGET_BYTES and made.frames == 40 and made.width < full.width
    assert whole.count(True) == 1
