"""Every tutorial page shows a real position: it stores and loads back, and the orders it draws are
legal for the seat that gives them (a rule change that breaks a page fails here, not in front of a
player)."""

from __future__ import annotations

import pytest

from engine.registry import RULESETS

TAUGHT = sorted(name for name, rs in RULESETS.items() if rs.tutorial())


def test_the_games_with_a_tutorial():
    assert {"conquest", "gra", "ranks"} <= set(TAUGHT)
    assert {"fortress", "siege"} <= set(TAUGHT)


@pytest.mark.parametrize("name", TAUGHT)
def test_tutorial_pages_are_real_positions_with_legal_orders(name):
    rs = RULESETS[name]
    for page in rs.tutorial():
        assert page.text.strip() and len(page.text) < 1800
        assert rs.from_dict(rs.to_dict(page.state)) == page.state
        if page.orders:
            assert page.seat in rs.acting_players(page.state)
            assert rs.format_orders(rs.parse_orders(page.state, page.seat, page.orders)) == page.orders
