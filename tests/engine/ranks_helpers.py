"""Ranks positions written as data, for rule tests: armies by cell, the board's cities, tracks and NPCs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine import find_ruleset, standings
from engine.ranks.board import RanksMap
from engine.ranks.state import RANK_NAMES, Army, RanksState
from engine.squaregrid import Square

RS = find_ruleset("ranks")
RANKS = {name: rank for rank, name in RANK_NAMES.items()}


def sq(label: str) -> Square:
    return Square.from_label(label)


def position(
    armies: Mapping[str, tuple[int, str]],
    *,
    cities: Sequence[str] = (),
    tracks: Sequence[str] = (),
    npcs: Sequence[str] = (),
    capitals: Sequence[str] = ("A1", "H8"),
    size: int = 8,
    exp: Sequence[int] | None = None,
    to_move: int = 0,
    turn_limit: int = 300,
) -> RanksState:
    """A position on a ``size`` square board; capitals are city cells of their own (plus ``cities``)."""
    board = RanksMap.from_dict(
        {
            "name": "test",
            "width": size,
            "height": size,
            "cities": sorted(set(cities) | set(capitals)),
            "tracks": list(tracks),
            "npcs": list(npcs),
            "capitals": list(capitals),
        }
    )
    players = len(capitals)
    return RanksState(
        board=board,
        armies={sq(label): Army(seat, RANKS[rank]) for label, (seat, rank) in armies.items()},
        npcs=board.npcs,
        exp=tuple(exp) if exp is not None else (0,) * players,
        players=standings.seated(players),
        to_move=to_move,
        turn=0,
        turn_limit=turn_limit,
        last=(),
        rng=0,
    )


def guarded(armies: Mapping[str, tuple[int, str]] | None = None, **kwargs) -> RanksState:
    """A two-player position where both capitals (A1, H8) hold their owner's pawn, plus ``armies``."""
    return position({"A1": (0, "pawn"), "H8": (1, "pawn"), **(armies or {})}, **kwargs)


def play(state: RanksState, text: str, seat: int | None = None):
    """``text`` played by the seat to move (parsed like a player's message): (state, events)."""
    seat = state.to_move if seat is None else seat
    result = RS.resolve(state, {seat: RS.parse_orders(state, seat, text)})
    return result.state, result.events


def army(state: RanksState, label: str) -> tuple[int, str] | None:
    found = state.armies.get(sq(label))
    return None if found is None else (found.seat, found.kind)
