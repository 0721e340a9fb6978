"""Which arrows the board draws: last round's moves, and the viewer's orders and standing auto-moves."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import find_ruleset
from engine.conquest.orders import Auto, Move, StopAuto
from engine.conquest.state import Trace
from engine.hexgrid import Hex
from render.boards.conquest import Flow, private_flows, public_flows

C4, C5, D4 = Hex.from_label("C4"), Hex.from_label("C5"), Hex.from_label("D4")


@pytest.fixture(scope="module")
def view():
    rules = find_ruleset("conquest")
    view = rules.view(rules.setup(2, {}, seed=1), 0)
    cells = tuple(
        replace(c, owner=0, units=9, auto=D4 if c.cell == C4 else None) if c.cell in (C4, C5) else c for c in view.cells
    )
    moves = (Trace(0, C4, C5, 3, False), Trace(0, C4, C5, 4, True), Trace(1, C5, C4, 2, False))
    return replace(view, cells=cells, last_moves=moves)


def test_public_arrows_show_only_moves_that_happened(view):
    """Each edge adds up, drawn alike whether an auto-move made it or not; a standing order (C4>D4)
    is a plan and stays off the public board, even where it ran."""
    assert set(public_flows(view)) == {Flow(C4, C5, 0, "7", False, 1), Flow(C5, C4, 1, "2", False, 1)}


def test_private_arrows_show_orders_in_bold_over_a_faint_last_round(view):
    flows = private_flows(view, [Move(C4, C5, 2), Move(C4, C5, 3), Auto(C5, C4)])
    faint = [f for f in flows if f.weight == 0]
    assert {(f.source, f.target, f.label) for f in faint} == {(C4, C5, None), (C5, C4, None)}
    bold = {(f.source, f.target): f for f in flows if f.weight == 2}
    assert bold[C4, C5].label == "5" and not bold[C4, C5].standing
    assert bold[C5, C4].standing and bold[C5, C4].label is None
    assert Flow(C4, D4, 0, None, True, 1) in flows


def test_stopping_or_replacing_an_auto_move_hides_the_old_one(view):
    stopped = private_flows(view, [StopAuto(C4)])
    assert Flow(C4, D4, 0, "×", True, 2) in stopped
    replaced = private_flows(view, [Auto(C4, C5)])
    assert not any(f.target == D4 for f in replaced)
    assert Flow(C4, C5, 0, None, True, 2) in replaced
