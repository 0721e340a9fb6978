"""Past turns, read back from the stored history: what happened, what everyone ordered, the board.

Orders are secret only until their turn resolves; after that, anyone may look them up.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from i18n import ntr, tr
from render.replay import MAX_FRAMES, pick
from service.errors import GameError, GameNotFound
from service.models import FINISHED, Game
from service.ops.games import Games
from service.runtime.workers import ReplayStep
from service.storage import history as rows


@dataclass(frozen=True)
class PastTurn:
    number: int  # as players count turns: 1 is the first one resolved
    unit: str  # what the turn was called ("round", "move phase")
    counted: tuple[int, int | None]  # its number as the ruleset counts it, and the limit (7 of 12)
    seq: int  # the history entry whose position the turn left (its board)
    events: tuple[dict[str, Any], ...]
    orders: dict[int, str]  # by seat, as played: a seat that gave none played its defaults
    timed_out: bool
    stand_ins: dict[int, str] = field(default_factory=dict)  # seats a computer played for, by its level


COUNTED_KEPT = 4096  # past turns whose names are kept: naming one parses the position it was played from


class History:
    def __init__(self, games: Games):
        self.games = games
        self._named: OrderedDict[tuple[int, int], tuple[str, tuple[int, int | None]]] = OrderedDict()

    async def resolved_turns(self, game_id: int) -> int:
        async with self.games.db.reading() as conn:
            return await rows.resolved_count(conn, game_id)

    async def past_turn(self, game_id: int, number: int | None = None) -> PastTurn:
        """Resolved turn ``number`` (default: the last one) of a started or finished game."""
        game = await self.games.get_game(game_id)
        resolved = await self.resolved_turns(game_id)
        if resolved == 0:
            raise GameError(tr("game #{number} has no resolved turn yet", number=game_id))
        number = resolved if number is None else number
        if not 1 <= number <= resolved:
            raise GameError(
                ntr(
                    "game #{number} has {n} resolved turn; choose 1 to {n}",
                    "game #{number} has {n} resolved turns; choose 1 to {n}",
                    resolved,
                    number=game_id,
                )
            )
        async with self.games.db.reading() as conn:
            turn, before = await rows.resolved_turn(conn, game_id, number - 1)
        played = json.loads(turn.payload)
        unit, counted = self._name(game, number, before)
        return PastTurn(
            number,
            unit,
            counted,
            turn.seq,
            tuple(json.loads(turn.events)),
            {int(seat): text for seat, text in played["orders"].items()},
            bool(played.get("timed_out")),
            {int(seat): level for seat, level in played.get("stand_in", {}).items()},
        )

    def _name(self, game: Game, number: int, before: str) -> tuple[str, tuple[int, int | None]]:
        """What resolved turn ``number`` was called and its number as the ruleset counts it, from the
        position it was played from (``before``): it never changes, so it is kept once found."""
        key = (game.id, number)
        if (named := self._named.get(key)) is None:
            rs = self.games.ruleset(game.row)
            position = rs.from_dict(json.loads(before))
            named = self._named[key] = (rs.turn_unit(position), rs.turn_number(position, number - 1))
            while len(self._named) > COUNTED_KEPT:
                self._named.popitem(last=False)
        return named

    async def since_turns_of(
        self, game_id: int, seq: int, seats: Iterable[int], back: int
    ) -> dict[int, list[dict[str, Any]]]:
        """For each of ``seats``, the events up to history entry ``seq`` since he last played (among
        the last ``back`` entries, read once for all), oldest first: his turn's outcome where all
        played together, what the others did where players take turns."""
        async with self.games.db.reading() as conn:
            entries = await rows.rows_between(conn, game_id, seq - back + 1, seq)
        newest_first = [
            (json.loads(entry.payload).get("orders", {}) if entry.kind == rows.RESOLVED else {}, entry.events)
            for entry in reversed(entries)
        ]
        return {seat: _since_turn(newest_first, seat) for seat in seats}

    async def replay_steps(self, game_id: int) -> list[ReplayStep]:
        """What a replay of the game shows: the start and the position after each resolved turn, and a
        finished game's last position if a departure after its last turn made it; evenly chosen
        down to at most MAX_FRAMES."""
        game = await self.games.get_game(game_id)
        if await self.resolved_turns(game_id) == 0:
            raise GameError(tr("game #{number} has no resolved turn yet: there is nothing to replay", number=game_id))
        async with self.games.db.reading() as conn:
            entries = await rows.entries(conn, game_id)
        numbers: list[tuple[int, int | None]] = []
        resolved = 0
        for index, entry in enumerate(entries):
            if entry.kind == rows.RESOLVED:
                resolved += 1
                numbers.append((index, resolved))
            elif entry.kind == "setup":
                numbers.append((index, 0))
        if game.row.status == FINISHED and entries[-1].kind != rows.RESOLVED:
            numbers.append((len(entries) - 1, None))
        return [
            ReplayStep(number, entries[index - 1].state_after if number else None, entries[index].state_after)
            for index, number in (numbers[i] for i in pick(len(numbers), MAX_FRAMES))
        ]

    async def stored_state_at(self, game_id: int, seq: int) -> str:
        """The game state right after history row ``seq`` (what a round's image shows), as JSON text:
        a render worker parses it, not the bot's process, and it pickles as one string instead of a
        tree of objects."""
        async with self.games.db.reading() as conn:
            stored = await rows.state_after(conn, game_id, seq)
        if stored is None:
            raise GameNotFound(f"game #{game_id} has no history entry {seq}")
        return stored


def _since_turn(newest_first: list[tuple[dict[str, Any], str]], seat: int) -> list[dict[str, Any]]:
    """The events of history entries (each its orders by seat and events, newest first) since
    ``seat`` last played: the newest entry's whatever it was, and back to his own earlier move."""
    events: list[dict[str, Any]] = []
    for newest, (orders, happened) in enumerate(newest_first):
        played = str(seat) in orders
        if played and newest:  # his own earlier move: he knows what it did
            break
        events[:0] = json.loads(happened)
        if played:
            break
    return events
