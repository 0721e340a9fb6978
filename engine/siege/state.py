"""The siege game state, its serialized form, and the view handed to renderers and cogs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import standings
from engine.errors import StateError
from engine.siege.board import SiegeMap, capitals
from engine.siege.orders import Action, parse_line
from engine.squaregrid import Square, SquareGrid
from engine.standings import Seats
from engine.stored import text, whole

ENDINGS = {"": "", "full": "the board is full", "limit": "the turn limit was reached"}


@dataclass(frozen=True)
class SiegeState:
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


def to_dict(state: SiegeState, name: str, version: int) -> dict[str, Any]:
    def seats(mapping: Mapping[Square, int]) -> dict[str, int]:
        return {sq.label: value for sq, value in sorted(mapping.items())}

    board = SiegeMap(state.map_name, state.size, state.rivers, state.mountains).to_dict()
    return {
        "ruleset": name,
        "version": version,
        **{key: board[key] for key in ("size", "rivers", "mountains")},
        "map_name": state.map_name,
        "owners": seats(state.owners),
        "tokens": seats(state.tokens),
        "walls": seats(state.walls),
        "towers": [sq.label for sq in sorted(state.towers)],
        "turn": state.turn,
        "turn_limit": state.turn_limit,
        "clear_all": state.clear_all,
        "players": standings.to_data(state.players),
        "ended": state.ended,
        "last": [str(action) for action in state.last],
        "rng": state.rng,
    }


def from_dict(data: Mapping[str, Any]) -> SiegeState:
    """Rebuild and validate; anything inconsistent is a StateError."""
    try:
        board = SiegeMap.from_dict(
            {"name": data["map_name"], "size": data["size"], "rivers": data["rivers"], "mountains": data["mountains"]}
        )
        squares = set(SquareGrid(board.size, board.size).squares())

        def square(label: Any) -> Square:
            found = Square.from_label(text(label, "siege"))
            if found not in squares:
                raise StateError(f"siege state is damaged: {label!r} is off the board")
            return found

        def mapping(key: str, low: int, high: int) -> dict[Square, int]:
            result = {square(label): whole(value, low, "siege") for label, value in data[key].items()}
            if any(value > high for value in result.values()):
                raise StateError(f"siege state is damaged: a value of {key} is above {high}")
            return result

        if not isinstance(data["clear_all"], bool) or data["ended"] not in ENDINGS:
            raise StateError("siege state is damaged: clear_all or ended")
        state = SiegeState(
            map_name=board.name,
            size=board.size,
            rivers=board.rivers,
            mountains=dict(board.mountains),
            owners=mapping("owners", 0, 1),
            tokens=mapping("tokens", 0, 1),
            walls=mapping("walls", 1, 2),
            towers=frozenset(square(label) for label in data["towers"]),
            turn=whole(data["turn"], 0, "siege"),
            turn_limit=whole(data["turn_limit"], 1, "siege"),
            clear_all=data["clear_all"],
            players=standings.from_data(data["players"], "siege"),
            ended=data["ended"],
            last=tuple(parse_line(text(line, "siege")) for line in data["last"]),
            rng=whole(data["rng"], 0, "siege"),
        )
    except StateError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as err:  # map and order errors too
        raise StateError(f"siege state is damaged: {type(err).__name__}: {err}") from None
    if len(state.players) != 2 or any(state.owners.get(sq) != state.tokens[sq] for sq in state.tokens):
        raise StateError("siege state is damaged: players, or a token on a square its player does not own")
    return state


@dataclass(frozen=True)
class SiegeView:
    """Everything is public in siege; the view adds whose turn it is and the territory counts."""

    viewer: int | None
    state: SiegeState
    to_move: int | None
    territory: tuple[int, int]


def make_view(state: SiegeState, viewer: int | None) -> SiegeView:
    return SiegeView(viewer, state, None if state.over else state.to_move, (state.territory(0), state.territory(1)))
