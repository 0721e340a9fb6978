"""The ranks game state, its serialized form, and the view handed to renderers and cogs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import standings
from engine.errors import MapError, StateError
from engine.ranks.board import RanksMap, reading_order
from engine.squaregrid import Square
from engine.standings import Seats
from engine.stored import text, whole

PAWN, ARCHER, KNIGHT, TANK = 1, 2, 3, 4
RANK_NAMES = {PAWN: "pawn", ARCHER: "archer", KNIGHT: "knight", TANK: "tank"}
TRACE_KINDS = ("move", "capture", "blast", "spawn", "upgrade", "npc")


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


def to_dict(state: RanksState, name: str, version: int) -> dict[str, Any]:
    return {
        "ruleset": name,
        "version": version,
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


def from_dict(data: Mapping[str, Any]) -> RanksState:
    """Rebuild and validate; anything inconsistent is a StateError."""
    try:
        board = RanksMap.from_dict(data["map"])
        cells = set(board.grid.squares())

        def cell(label: Any) -> Square:
            found = Square.from_label(text(label, "ranks"))
            if found not in cells:
                raise StateError(f"ranks state is damaged: {label!r} is off the board")
            return found

        count = board.players
        armies = {}
        for label, (seat, rank) in data["armies"].items():
            if whole(seat, 0, "ranks") >= count or whole(rank, PAWN, "ranks") > TANK:
                raise StateError(f"ranks state is damaged: army {[seat, rank]!r} on {label}")
            armies[cell(label)] = Army(seat, rank)
        last = []
        for kind, target, source in data["last"]:
            if kind not in TRACE_KINDS:
                raise StateError(f"ranks state is damaged: unknown trace {kind!r}")
            last.append(Trace(kind, cell(target), None if source is None else cell(source)))
        state = RanksState(
            board=board,
            armies=armies,
            npcs=frozenset(cell(c) for c in data["npcs"]),
            exp=tuple(whole(e, 0, "ranks") for e in data["exp"]),
            players=standings.from_data(data["players"], "ranks"),
            to_move=whole(data["to_move"], 0, "ranks"),
            turn=whole(data["turn"], 0, "ranks"),
            turn_limit=whole(data["turn_limit"], 1, "ranks"),
            last=tuple(last),
            rng=whole(data["rng"], 0, "ranks"),
        )
    except StateError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, MapError) as err:
        raise StateError(f"ranks state is damaged: {type(err).__name__}: {err}") from None
    if len(state.exp) != count or len(state.players) != count or state.to_move >= count:
        raise StateError("ranks state is damaged: exp, players or the player to move do not match the map")
    if not state.npcs <= board.tracks or state.npcs & set(armies):
        raise StateError("ranks state is damaged: an NPC off the tracks or on an army")
    return state


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
