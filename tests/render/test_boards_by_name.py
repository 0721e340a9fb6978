"""Each ruleset's board is drawn by the module named after it in ``render/boards/``: found by name,
with nothing listing the games."""

from __future__ import annotations

import importlib

import pytest

from engine import RULESETS
from render import board_image, has_drawer


@pytest.mark.parametrize("name", RULESETS)
def test_the_board_module_named_after_a_ruleset_draws_its_view(name):
    rs = RULESETS[name]
    view = rs.view(rs.setup(rs.default_players, {}, seed=1), None)
    board = importlib.import_module(f"render.boards.{name}")
    assert board.VIEW is type(view) and has_drawer(board.VIEW)
    names = [f"P{seat}" for seat in range(rs.default_players)]
    assert board_image(view, names=names).tobytes() == board.draw(view, names, (), None).tobytes()
