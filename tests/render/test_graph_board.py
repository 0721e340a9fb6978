"""The gra board image: every node in its owner's colour, private views differ, output is stable."""

from __future__ import annotations

import io
import math

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


def test_pick_rings_leave_every_node_number_whole():
    """A pick ring passes by the node's number: every pixel of the digits stays as drawn ("22" never
    reads "2")."""
    start = played(0)
    view = RS.view(start, 0)
    picks = RS.ai_orders(start, 0, 5)
    plain = Image.open(io.BytesIO(board_png(view, names=NAMES))).convert("RGB")
    ringed = Image.open(io.BytesIO(board_png(view, names=NAMES, orders=picks))).convert("RGB")
    frame = gra.layout(view)
    ink = gra.ink_on(gra.BACKGROUND)
    picked = {node for order in picks for node in getattr(order, "nodes", ())}
    assert picked
    for node in picked:
        x, y = frame.at(start.graph.positions[node - 1])
        r = frame.radius
        box = (round(x - 1.6 * r), round(y + 0.7 * r), round(x - 0.3 * r), round(y + 1.4 * r))
        digits = [
            (px, py)
            for px in range(box[0], box[2])
            for py in range(box[1], box[3])
            if max(abs(a - b) for a, b in zip(plain.getpixel((px, py)), ink)) <= 40
            and math.dist((px, py), (x, y)) > 1.1 * r  # not the node's own outline
        ]
        assert digits, node
        # (each image has its own palette: a colour may move by a shade)
        assert all(max(abs(a - b) for a, b in zip(ringed.getpixel(p), plain.getpixel(p))) <= 8 for p in digits), node
