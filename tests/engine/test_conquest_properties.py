"""Property tests: invariants hold after any legal conquest round (parser fuzzing for every ruleset
is in test_parsing_properties.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import find_ruleset
from engine.conquest.orders import Auto, Move, StopAuto

RS = find_ruleset("conquest")


@st.composite
def legal_orders(draw, state, seat):
    """A random legal order set for ``seat``: per own cell, fixed moves within its units, maybe an auto."""
    orders = []
    for source in state.cells_of(seat):
        targets = [n for n in source.neighbours() if n in state.cells]
        budget = state.cells[source].units
        for _ in range(draw(st.integers(0, 2))):
            if budget == 0:
                break
            units = draw(st.integers(1, budget))
            orders.append(Move(source, draw(st.sampled_from(targets)), units))
            budget -= units
        choice = draw(st.integers(0, 3))
        if choice == 1:
            orders.append(Auto(source, draw(st.sampled_from(targets))))
        elif choice == 2 and source in state.autos:
            orders.append(StopAuto(source))
    return orders


@st.composite
def played(draw):
    state = RS.setup(draw(st.integers(2, 4)), {"size": "small"}, seed=draw(st.integers(0, 5)))
    for _ in range(draw(st.integers(1, 6))):
        if RS.outcome(state) is not None:
            break
        orders = {seat: draw(legal_orders(state, seat)) for seat in RS.acting_players(state)}
        state = RS.resolve(state, orders).state
    return state


def _check_invariants(state):
    seats = range(len(state.players))
    assert all(c.units >= 0 for c in state.cells.values())
    assert all(c.owner is None or state.is_playing(c.owner) for c in state.cells.values())
    assert all(state.cells_of(s) for s in seats if state.is_playing(s))
    assert all(state.cells[s].owner is not None for s in state.autos)
    assert all(t in s.neighbours() for s, t in state.autos.items())


@settings(max_examples=60, deadline=None)
@given(played(), st.data())
def test_legal_rounds_keep_invariants_and_are_deterministic(state, data):
    _check_invariants(state)
    if RS.outcome(state) is not None:
        return
    orders = {seat: data.draw(legal_orders(state, seat)) for seat in RS.acting_players(state)}
    for seat, seat_orders in orders.items():
        assert RS.parse_orders(state, seat, RS.format_orders(seat_orders)) == seat_orders
    first, second = RS.resolve(state, orders), RS.resolve(state, orders)
    assert first == second
    _check_invariants(first.state)
    assert first.state.round == state.round + 1
    owned = sum(1 for c in first.state.cells.values() if c.owner is not None)
    produced = sum(first.state.types[h].production for h, c in first.state.cells.items() if c.owner is not None)
    assert sum(c.units for c in first.state.cells.values() if c.owner is not None) >= produced >= owned
