"""The fortress game state, its serialized form, and the view handed to renderers and cogs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from engine import komi, standings, stored
from engine.fortress.board import LAND, MOUNTAIN, SIDES, WATER
from engine.hexgrid import Hex
from engine.i18n import mark
from engine.standings import Seats

GAME = "fortress"
MODES = {1: mark("I'm too young to die"), 2: mark("Hey, not too rough!"), 3: mark("Hurt me plenty")}


@dataclass(frozen=True)
class FortressState(komi.Compensated):
    KOMI_SEAT: ClassVar[int] = 0  # seat 1 has the last move, which cannot be answered
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
    komi: float  # cells (in halves) added to seat 0's territory at the end: seat 1 has the last move
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


def to_data(state: FortressState) -> dict[str, Any]:
    """The state's fields as stored (the ruleset adds the envelope)."""

    def labels(cells) -> list[str]:
        return [c.label for c in sorted(cells)]

    return {
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
        "komi": state.komi,
        "turn": state.turn,
        "players": standings.to_data(state.players),
        "last": [c.label for c in state.last],
        "rng": state.rng,
    }


def from_data(data: Mapping[str, Any]) -> FortressState:
    """Rebuild and validate; anything inconsistent is a StateError naming the field."""
    read = stored.Fields(data, GAME, known=("ruleset", "version"))
    width, height = read.whole("width", *SIDES), read.whole("height", *SIDES)
    field = {Hex.from_offset(c, r) for r in range(height) for c in range(width)}

    def cells(key: str, shortest: int = 0, longest: int = len(field)) -> tuple[Hex, ...]:
        return tuple(_on(field, label, f"{key}[{i}]") for i, label in enumerate(read.listed(key, shortest, longest)))

    def seats(key: str) -> dict[Hex, int]:
        return {
            _on(field, label, f"{key}.{label}"): stored.whole(seat, 0, 1, f"{key}.{label}", GAME)
            for label, seat in read.keyed(key, len(field)).items()
        }

    terrain = dict.fromkeys(field, LAND)
    for kind, key in ((WATER, "water"), (MOUNTAIN, "mountains")):
        listed = cells(key)
        if list(listed) != sorted(listed):
            raise stored.damaged(GAME, key, "is not in board order, as the game stores it")
        for number, cell in enumerate(listed):
            if terrain[cell] != LAND:
                raise stored.damaged(GAME, f"{key}[{number}]", f"{cell.label} is water or mountain already")
            terrain[cell] = kind
    state = FortressState(
        map_name=read.text("map_name"),
        mode=read.one_of("mode", MODES),
        width=width,
        height=height,
        terrain=terrain,
        cities=cast(tuple[Hex, Hex], cells("cities", 2, 2)),  # read as exactly two
        owners=seats("owners"),
        fortresses=seats("fortresses"),
        generals=seats("generals"),
        moves=read.whole("moves", 1, stored.MOST),
        komi=komi.read(read["komi"], GAME),
        turn=read.whole("turn", 0, stored.MOST),
        players=standings.from_data(read.listed("players", 2, 2), GAME),
        last=cells("last"),
        rng=read.whole("rng", 0, stored.RNG_MOST),
    )
    read.done()
    if state.cities[0] == state.cities[1]:
        raise stored.damaged(GAME, "cities", "are one cell")
    return state


def _on(field: set[Hex], label: Any, where: str) -> Hex:
    cell = stored.cell(label, where, GAME)
    if cell not in field:
        raise stored.damaged(GAME, where, f"{label} is off the field")
    return cell


def upgrade_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """Version 1 kept one word per seat ("playing" or why it left); a departure ended the game, so
    it happened in the last turn."""
    return {**data, "players": [standings.from_word(word, data["turn"]) for word in data["players"]]}


def upgrade_v2(data: Mapping[str, Any]) -> dict[str, Any]:
    """Version 2 had no komi: its games go on as they were begun, without one."""
    return {**data, "komi": 0.0}


@dataclass(frozen=True)
class FortressView:
    """Everything is public in fortress; the view adds whose move it is and what is left."""

    viewer: int | None
    state: FortressState
    to_move: int | None
    moves_left: tuple[int, int]
    territory: tuple[int, int]  # cells owned, without the komi (``state.komi``, seat 0's)


def make_view(state: FortressState, viewer: int | None) -> FortressView:
    return FortressView(
        viewer,
        state,
        None if state.over else state.to_move,
        (state.moves_left(0), state.moves_left(1)),
        (state.territory(0), state.territory(1)),
    )
