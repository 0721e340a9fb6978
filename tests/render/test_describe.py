"""A board in words (its alt text): every registered board names each player with his colour and
the holdings its legend shows, so a screen reader hears what the image shows."""

from __future__ import annotations

import importlib

import pytest

from engine import RULESETS
from render import describe
from render.summary import COLOURS


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_board_describes_each_player_as_its_legend_does(name):
    rs = RULESETS[name]
    state = rs.setup(rs.max_players if name != "ranks" else 2, {}, seed=3)
    names = [f"player{seat}" for seat in range(len(state.players))]
    view = rs.view(state, None)
    lines = describe(view, names=names, title="The board")
    legend = importlib.import_module(f"render.boards.{name}").entries(view, names)
    assert lines[0] == "The board" and len(lines) == 1 + len(names)
    for seat, (line, entry) in enumerate(zip(lines[1:], legend, strict=True)):
        assert line == f"player{seat} ({COLOURS[seat]}): {entry.detail}" and entry.detail
