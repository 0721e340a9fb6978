"""The ranks game state, its serialized form, and the view handed to renderers and cogs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import standings, stored
from engine.errors import MapError
from engine.ranks.board import RanksMap, reading_order
from engine.squaregrid import Square
from engine.standings import Seats

PAWN, ARCHER, KNIGHT, TANK = 1, 2, 3, 4
RANK_NAMES = {PAWN: "pawn", ARCHER: "archer", KNIGHT: "knight", TANK: "tank"}
TRACE_KINDS = ("move", "capture", "blast", "spawn", "upgrade", "npc")
GAME = "ranks"


def a(kind: str) -> str:
    """The rank's name with its article: "a pawn", "an archer"."""
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def exp_for(rank: int) -> int:
    """What eliminating an army earns: 1 for a pawn or archer (NPCs are pawns), 2 for a knight or tank."""
    return 2 if rank >= KNIGHT else 1


@dataclass(frozen=True, slots=True)
class Army:
    seat: int
    rank: int

    @property
    def kind(self) -> str:
        return RANK_NAMES[self.rank]


@dataclass(frozen=True, slots=True)
class Trace:
    """One thing the last turn did, for the board image: a move (``source`` to ``target``), a
    capture or spawn or upgrade on ``target``, a blast from ``target``, an NPC's step."""

    kind: str
    target: Square
    source: Square | None = None


@dataclass(frozen=True)
class RanksState:
    board: RanksMap
    armies: Mapping[Square, Army]
    npcs: frozenset[Square]
    exp: tuple[int, ...]
    players: Seats
    to_move: int
    turn: int  # turns played by all players together
    turn_limit: int
    last: tuple[Trace, ...]
    rng: int  # the game's seed; computer players' tie-breaks derive from it

    @property
    def over(self) -> bool:
        return self.turn >= self.turn_limit or len(standings.still_in(self.players)) <= 1

    def armies_of(self, seat: int) -> list[Square]:
        return sorted((c for c, a in self.armies.items() if a.seat == seat), key=reading_order)

    def score(self, seat: int) -> tuple[int, int]:
        """The turn limit's order: the most armies, then the most exp."""
        return len(self.armies_of(seat)), self.exp[seat]


def to_data(state: RanksState) -> dict[str, Any]:
    """The state's fields as stored (the ruleset adds the envelope)."""
    return {
        "map": state.board.to_dict(),
        "armies": {
            c.label: [a.seat, a.rank] for c, a in sorted(state.armies.items(), key=lambda i: reading_order(i[0]))
        },
        "npcs": [c.label for c in sorted(state.npcs, key=reading_order)],
        "exp": list(state.exp),
        "players": standings.to_data(state.players),
        "to_move": state.to_move,
        "turn": state.turn,
        "turn_limit": state.turn_limit,
        "last": [[t.kind, t.target.label, None if t.source is None else t.source.label] for t in state.last],
        "rng": state.rng,
    }


def from_data(data: Mapping[str, Any]) -> RanksState:
    """Rebuild and validate; anything inconsistent, or anything that would not be stored back exactly
    as it is (a duplicate, a label out of order), is a StateError naming the field."""
    read = stored.Fields(data, GAME, known=("ruleset", "version"))
    try:
        board = RanksMap.from_dict(read["map"])
    except MapError as err:
        raise stored.damaged(GAME, "map", str(err)) from None
    cells = set(board.grid.squares())
    count = board.players

    def on(label: Any, where: str) -> Square:
        found = stored.square(label, where, GAME)
        if found not in cells:
            raise stored.damaged(GAME, where, f"{label} is off the board")
        return found

    armies = {}
    for label, entry in read.keyed("armies", len(cells)).items():
        where = f"armies.{label}"
        seat, rank = stored.listed(entry, 2, 2, where, GAME)
        armies[on(label, where)] = Army(
            stored.whole(seat, 0, count - 1, where, GAME), stored.whole(rank, PAWN, TANK, where, GAME)
        )
    state = RanksState(
        board=board,
        armies=armies,
        npcs=frozenset(on(label, f"npcs[{i}]") for i, label in enumerate(read.listed("npcs", 0, len(cells)))),
        exp=tuple(
            stored.whole(e, 0, stored.MOST, f"exp[{i}]", GAME) for i, e in enumerate(read.listed("exp", count, count))
        ),
        players=standings.from_data(read.listed("players", count, count), GAME),
        to_move=read.whole("to_move", 0, count - 1),
        turn=read.whole("turn", 0, stored.MOST),
        turn_limit=read.whole("turn_limit", 1, stored.MOST),
        last=tuple(_trace(entry, f"last[{i}]", on) for i, entry in enumerate(read.listed("last", 0, 8 * len(cells)))),
        rng=read.whole("rng", 0, stored.RNG_MOST),
    )
    read.done()
    if not state.npcs <= board.tracks or state.npcs & set(armies):
        raise stored.damaged(GAME, "npcs", "stand off the tracks or on an army")
    if any(not state.players[army.seat].playing for army in armies.values()):
        raise stored.damaged(GAME, "armies", "include armies of a player who is out")
    if not state.over and not state.players[state.to_move].playing:
        raise stored.damaged(GAME, "to_move", f"is seat {state.to_move}, who is out")
    if to_data(state) != {key: value for key, value in data.items() if key not in ("ruleset", "version")}:
        raise stored.damaged(GAME, "the state", "does not read back as stored (a duplicate or an entry out of order)")
    return state


def _trace(entry: Any, where: str, on) -> Trace:
    kind, target, source = stored.listed(entry, 3, 3, where, GAME)
    kind = stored.one_of(kind, TRACE_KINDS, where, GAME)
    trace = Trace(kind, on(target, where), None if source is None else on(source, where))
    if (kind in ("move", "npc")) != (source is not None) or trace.source == trace.target:
        raise stored.damaged(GAME, where, "is not a move with two cells or a mark on one")
    return trace


@dataclass(frozen=True)
class RanksView:
    """Everything is public in ranks; the view adds whose turn it is and each player's army count."""

    viewer: int | None
    state: RanksState
    to_move: int | None
    armies: tuple[int, ...]


def make_view(state: RanksState, viewer: int | None) -> RanksView:
    counts = tuple(len(state.armies_of(seat)) for seat in range(len(state.players)))
    return RanksView(viewer, state, None if state.over else state.to_move, counts)
