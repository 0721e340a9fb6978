"""A player's planned orders are drawn on his private board in every game, under the banner "Your
orders — only you can see this": the preview never comes back identical to the public board."""

from __future__ import annotations

import pytest

from engine import RULESETS
from render import board_image


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_the_private_preview_draws_the_orders_it_is_given(name):
    rs = RULESETS[name]
    options = {"mode": 3} if name == "fortress" else {}  # mode 3: a general's walk, drawn as arrows
    state = rs.setup(rs.default_players, options, seed=4)
    seat = min(rs.acting_players(state))
    line = next(s for s in rs.suggest_orders(state, seat, "") if not s.startswith(("pass", "end")))
    orders = rs.parse_orders(state, seat, line.split(" (")[0])
    names = [f"p{n}" for n in range(len(state.players))]
    public = board_image(rs.view(state, None), names=names)
    private = board_image(rs.view(state, seat), names=names, orders=orders)
    plain = board_image(rs.view(state, seat), names=names)
    assert private.size == public.size and private.tobytes() != public.tobytes()
    assert private.tobytes() != plain.tobytes(), f"{name}: {line!r} is not drawn"
