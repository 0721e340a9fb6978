"""The gra board image: every node in its owner's colour, private views differ, output is stable."""

from __future__ import annotations

import io

from PIL import Image

from engine import find_ruleset
from render import board_png
from render.boards import gra

RS = find_ruleset("gra")
NAMES = ["Alice", "Борис", "小明"]


def played(turns: int, size: str = "medium"):
    state = RS.setup(3, {"size": size}, seed=2)
    for _ in range(turns):
        state = RS.resolve(state, {s: RS.ai_orders(state, s, 1) for s in RS.acting_players(state)}).state
    return state


def test_nodes_show_their_owner_and_image_fits_a_phone():
    for turns in (0, 6, 14):
        state = played(turns)
        view = RS.view(state, None)
        image = Image.open(io.BytesIO(board_png(view, names=NAMES))).convert("RGB")
        assert 900 <= image.width <= 1400
        for node in state.graph.nodes:
            seen, expected = image.getpixel(gra.fill_point(view, node)), gra.node_fill(view, node)
            assert max(abs(a - b) for a, b in zip(seen, expected)) <= 6, (node, seen, expected)


def test_private_views_of_picks_and_orders():
    start = played(0)
    picks = RS.ai_orders(start, 0, 5)
    public = board_png(RS.view(start, 0), names=NAMES)
    assert board_png(RS.view(start, 0), names=NAMES, orders=picks) != public
    assert board_png(RS.view(start, 1), names=NAMES) == public  # the public image never depends on who looks
    later = played(14)
    seat = min(RS.acting_players(later))
    orders = RS.ai_orders(later, seat, 3)
    assert board_png(RS.view(later, seat), names=NAMES, orders=orders) != board_png(RS.view(later, seat), names=NAMES)


def test_largest_map_is_small_and_deterministic():
    state = played(10, "large")
    first = board_png(RS.view(state, None), names=NAMES)
    assert first == board_png(RS.view(state, None), names=NAMES) and len(first) < 500_000
