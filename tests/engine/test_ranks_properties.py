"""Ranks invariants over random legal turns (built from the autocomplete suggestions) on every kind
of board: they hold after every turn, whoever plays it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ranks.board import SHIPPED
from engine.rng import Rng
from tests.engine.ranks_helpers import RS

BOARDS = [(2, None), (3, None), (4, None), *((SHIPPED.load(n).players, n) for n in SHIPPED.names())]


def random_text(state, seat: int, rng: Rng) -> str:
    text = ""
    while not (text and rng.chance(1, 3)):
        options = RS.suggest_orders(state, seat, f"{text}; " if text else "")
        if not options:
            break
        text = options[0] if rng.chance(1, 2) else rng.choice(options)  # captures come first: take them often
    return text


def check(state) -> None:
    board = state.board
    assert state.npcs <= board.tracks and not state.npcs & set(state.armies)
    assert len(state.npcs) <= len(board.npcs) and min(state.exp) >= 0
    for seat, standing in enumerate(state.players):
        guard = state.armies.get(board.capitals[seat])
        if standing.playing:
            assert guard is not None and guard.seat == seat, f"seat {seat} is in without its capital"
        else:
            assert not state.armies_of(seat), f"seat {seat} is out but has armies"


@settings(max_examples=25, deadline=None)
@given(board=st.sampled_from(BOARDS), seed=st.integers(0, 10**6), turns=st.integers(1, 40))
def test_random_turns_keep_the_position_sound(board, seed, turns):
    players, name = board
    state = RS.setup(players, {"map": name}, seed=seed)
    rng = Rng(seed)
    for _ in range(turns):
        if RS.outcome(state) is not None:
            break
        seat = state.to_move
        text = random_text(state, seat, rng)
        orders = RS.parse_orders(state, seat, text)
        before = state.exp
        state = RS.resolve(state, {seat: orders}).state
        check(state)
        assert all(state.exp[s] == before[s] for s in range(players) if s != seat), "exp of a seat not moving"
    assert RS.from_dict(RS.to_dict(state)) == state
