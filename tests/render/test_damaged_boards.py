"""A damaged stored state that loads still draws: bounded in size and time, never an exception
(a board a million cells high, or a trace between three nodes, is refused when loading instead)."""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from engine import RULESETS, StateError
from render import board_png
from tests.damage import damaged_states

LARGEST_SIDE = 4000  # pixels


@pytest.mark.parametrize("name", sorted(RULESETS))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_a_damaged_state_that_loads_draws_at_a_bounded_size(name, data):
    rs = RULESETS[name]
    try:
        state = rs.from_dict(data.draw(damaged_states(name)))
    except StateError:
        return
    names = [f"P{seat}" for seat in range(sum(len(group) for group in rs.standing(state)))]
    image = Image.open(io.BytesIO(board_png(rs.view(state, None), names=names)))
    assert max(image.size) <= LARGEST_SIDE
