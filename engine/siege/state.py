"""The siege game state, its serialized form, and the view handed to renderers and cogs."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine import komi, standings, stored
from engine.errors import MapError, OrderError
from engine.i18n import mark
from engine.siege.board import SiegeMap, capitals
from engine.siege.orders import Action, parse_line
from engine.squaregrid import Square, SquareGrid
from engine.standings import Seats

GAME = "siege"
_LABEL = re.compile(r"[A-L](?:[1-9]|1[0-2])")  # a square of the largest board, as to_dict writes it
ENDINGS = {"": "", "full": mark("the board is full"), "limit": mark("the turn limit was reached")}


@dataclass(frozen=True)
class SiegeState(komi.Compensated):
    KOMI_SEAT: ClassVar[int] = 1  # seat 0 moves first
    map_name: str
    size: int
    rivers: frozenset[Square]
    mountains: Mapping[Square, int]  # square -> level 1..3
    owners: Mapping[Square, int]  # owned squares only
    tokens: Mapping[Square, int]
    walls: Mapping[Square, int]  # 1 or 2 walls
    towers: frozenset[Square]
    turn: int  # turns completed by both players together
    turn_limit: int
    komi: float  # squares (in halves) added to seat 1's territory at the end: seat 0 moves first
    clear_all: bool  # option: one paid attack clears every fortification and captures
    players: Seats  # a capital taken eliminates its player; any departure ends the game
    ended: str  # a key of ENDINGS: why the game ended on the board, "" otherwise
    last: tuple[Action, ...]  # the actions of the turn just played, to draw
    rng: int

    @property
    def to_move(self) -> int:
        return self.turn % 2

    @property
    def over(self) -> bool:
        return bool(self.ended) or not all(p.playing for p in self.players)

    @property
    def capitals(self) -> tuple[Square, Square]:
        return capitals(self.size)

    def territory(self, seat: int) -> int:
        return sum(1 for owner in self.owners.values() if owner == seat)

    def back_rows(self, seat: int) -> range:
        return range(0, 2) if seat == 0 else range(self.size - 2, self.size)


def to_data(state: SiegeState) -> dict[str, Any]:
    """The state's fields as stored (the ruleset adds the envelope)."""

    def seats(mapping: Mapping[Square, int]) -> dict[str, int]:
        return {sq.label: value for sq, value in sorted(mapping.items())}

    board = SiegeMap(state.map_name, state.size, state.rivers, state.mountains).to_dict()
    return {
        **{key: board[key] for key in ("size", "rivers", "mountains")},
        "map_name": state.map_name,
        "owners": seats(state.owners),
        "tokens": seats(state.tokens),
        "walls": seats(state.walls),
        "towers": [sq.label for sq in sorted(state.towers)],
        "turn": state.turn,
        "turn_limit": state.turn_limit,
        "komi": state.komi,
        "clear_all": state.clear_all,
        "players": standings.to_data(state.players),
        "ended": state.ended,
        "last": [str(action) for action in state.last],
        "rng": state.rng,
    }


def from_data(data: Mapping[str, Any]) -> SiegeState:
    """Rebuild and validate a state; anything inconsistent is a StateError naming the field."""
    read = stored.Fields(data, GAME, known=("ruleset", "version"))
    try:
        board = SiegeMap.terrain(
            {"name": read["map_name"], "size": read["size"], "rivers": read["rivers"], "mountains": read["mountains"]}
        )
    except MapError as err:
        raise stored.damaged(GAME, "map", str(err)) from None
    as_stored = {"name": data["map_name"], **{key: data[key] for key in ("size", "rivers", "mountains")}}
    if board.to_dict() != as_stored:  # a stored map is as to_dict wrote it
        raise stored.damaged(GAME, "map", "is not in the form the game stores it in")
    squares = set(SquareGrid(board.size, board.size).squares())

    def square(label: Any, where: str) -> Square:
        found = Square.from_label(stored.text(label, where, GAME, 3)) if _LABEL.fullmatch(str(label)) else None
        if found not in squares:
            raise stored.damaged(GAME, where, f"{stored.shown(label)} is not a square of the board")
        return found

    def by_square(key: str, low: int, high: int) -> dict[Square, int]:
        return {
            square(label, f"{key}.{label}"): stored.whole(value, low, high, f"{key}.{label}", GAME)
            for label, value in read.keyed(key, len(squares)).items()
        }

    def action(line: Any, where: str) -> Action:
        written = stored.text(line, where, GAME)
        try:
            parsed = parse_line(written)
        except OrderError as err:
            raise stored.damaged(GAME, where, str(err)) from None
        if str(parsed) != written:
            raise stored.damaged(GAME, where, f"{stored.shown(written)} is not written as the game writes it")
        return parsed

    towers = [square(label, "towers") for label in read.listed("towers", 0, len(squares))]
    if towers != sorted(set(towers)):
        raise stored.damaged(GAME, "towers", "must list each square once, in board order")

    state = SiegeState(
        map_name=board.name,
        size=board.size,
        rivers=board.rivers,
        mountains=dict(board.mountains),
        owners=by_square("owners", 0, 1),
        tokens=by_square("tokens", 0, 1),
        walls=by_square("walls", 1, 2),
        towers=frozenset(towers),
        turn=read.whole("turn", 0, stored.MOST),
        turn_limit=read.whole("turn_limit", 1, stored.MOST),
        komi=komi.read(read["komi"], GAME),
        clear_all=read.flag("clear_all"),
        players=standings.from_data(read.listed("players", 2, 2), GAME),
        ended=read.one_of("ended", ENDINGS),
        last=tuple(action(line, f"last[{i}]") for i, line in enumerate(read.listed("last", 0, 64))),
        rng=read.whole("rng", 0, stored.RNG_MOST),
    )
    read.done()
    if any(state.owners.get(sq) != seat for sq, seat in state.tokens.items()):
        raise stored.damaged(GAME, "tokens", "has a token on a square its player does not own")
    return state


def upgrade_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """Version 1 had no komi: its games go on as they were begun, without one."""
    return {**data, "komi": 0.0}


@dataclass(frozen=True)
class SiegeView:
    """Everything is public in siege; the view adds whose turn it is and the territory counts."""

    viewer: int | None
    state: SiegeState
    to_move: int | None
    territory: tuple[int, int]


def make_view(state: SiegeState, viewer: int | None) -> SiegeView:
    return SiegeView(viewer, state, None if state.over else state.to_move, (state.territory(0), state.territory(1)))
