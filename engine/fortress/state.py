"""The fortress game state, its serialized form, and the view handed to renderers and cogs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import standings
from engine.errors import StateError
from engine.fortress.board import LAND, MOUNTAIN, WATER
from engine.hexgrid import Hex
from engine.standings import Seats
from engine.stored import text, whole

MODES = {1: "I'm too young to die", 2: "Hey, not too rough!", 3: "Hurt me plenty"}


@dataclass(frozen=True)
class FortressState:
    map_name: str
    mode: int
    width: int
    height: int
    terrain: Mapping[Hex, str]
    cities: tuple[Hex, Hex]
    owners: Mapping[Hex, int]  # owned cells only
    fortresses: Mapping[Hex, int]
    generals: Mapping[Hex, int]
    moves: int  # moves each player makes in the whole game
    turn: int  # turns completed by both players together
    players: Seats  # a seat that leaves ends the game
    last: tuple[Hex, ...]  # cells the last turn built on or walked through, to highlight
    rng: int

    @property
    def to_move(self) -> int:
        return self.turn % 2

    @property
    def over(self) -> bool:
        return self.turn >= 2 * self.moves or not all(p.playing for p in self.players)

    def territory(self, seat: int) -> int:
        return sum(1 for owner in self.owners.values() if owner == seat)

    def moves_left(self, seat: int) -> int:
        return self.moves - (self.turn + (1 - seat)) // 2


def to_dict(state: FortressState, name: str, version: int) -> dict[str, Any]:
    def labels(cells) -> list[str]:
        return [c.label for c in sorted(cells)]

    return {
        "ruleset": name,
        "version": version,
        "map_name": state.map_name,
        "mode": state.mode,
        "width": state.width,
        "height": state.height,
        "water": labels(c for c, t in state.terrain.items() if t == WATER),
        "mountains": labels(c for c, t in state.terrain.items() if t == MOUNTAIN),
        "cities": [c.label for c in state.cities],
        "owners": {c.label: s for c, s in sorted(state.owners.items())},
        "fortresses": {c.label: s for c, s in sorted(state.fortresses.items())},
        "generals": {c.label: s for c, s in sorted(state.generals.items())},
        "moves": state.moves,
        "turn": state.turn,
        "players": standings.to_data(state.players),
        "last": [c.label for c in state.last],
        "rng": state.rng,
    }


def from_dict(data: Mapping[str, Any]) -> FortressState:
    """Rebuild and validate; anything inconsistent is a StateError."""
    try:
        width, height = whole(data["width"], 4, "fortress"), whole(data["height"], 4, "fortress")
        field = {Hex.from_offset(c, r) for r in range(height) for c in range(width)}

        def cell(label: Any) -> Hex:
            found = Hex.from_label(label)
            if found not in field:
                raise StateError(f"fortress state is damaged: {label!r} is off the field")
            return found

        def seats(mapping: Mapping[str, Any]) -> dict[Hex, int]:
            result = {cell(label): whole(seat, 0, "fortress") for label, seat in mapping.items()}
            if any(seat > 1 for seat in result.values()):
                raise StateError("fortress state is damaged: seat out of range")
            return result

        terrain = {c: LAND for c in field}
        for kind, key in ((WATER, "water"), (MOUNTAIN, "mountains")):
            for label in data[key]:
                terrain[cell(label)] = kind
        players = standings.from_data(data["players"], "fortress")
        state = FortressState(
            map_name=text(data["map_name"], "fortress"),
            mode=whole(data["mode"], 1, "fortress"),
            width=width,
            height=height,
            terrain=terrain,
            cities=tuple(cell(c) for c in data["cities"]),
            owners=seats(data["owners"]),
            fortresses=seats(data["fortresses"]),
            generals=seats(data["generals"]),
            moves=whole(data["moves"], 1, "fortress"),
            turn=whole(data["turn"], 0, "fortress"),
            players=players,
            last=tuple(cell(c) for c in data["last"]),
            rng=whole(data["rng"], 0, "fortress"),
        )
    except StateError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise StateError(f"fortress state is damaged: {type(err).__name__}: {err}") from None
    if state.mode not in MODES or len(state.cities) != 2 or len(state.players) != 2:
        raise StateError("fortress state is damaged: mode, cities or players")
    return state


def upgrade_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """Version 1 kept one word per seat ("playing" or why it left); a departure ended the game, so
    it happened in the last turn."""
    return {**data, "players": [standings.from_word(word, data["turn"]) for word in data["players"]]}


@dataclass(frozen=True)
class FortressView:
    """Everything is public in fortress; the view adds whose move it is and what is left."""

    viewer: int | None
    state: FortressState
    to_move: int | None
    moves_left: tuple[int, int]
    territory: tuple[int, int]


def make_view(state: FortressState, viewer: int | None) -> FortressView:
    return FortressView(
        viewer,
        state,
        None if state.over else state.to_move,
        (state.moves_left(0), state.moves_left(1)),
        (state.territory(0), state.territory(1)),
    )
