"""Past turns, read back from the stored history: what happened, what everyone ordered, the board.

Orders are secret only until their turn resolves; after that, anyone may look them up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from i18n import ntr, tr
from render.replay import MAX_FRAMES, pick
from service.errors import GameError
from service.master import GameMasterCore
from service.models import FINISHED
from service.storage.packing import unpack
from service.workers import ReplayStep


@dataclass(frozen=True)
class PastTurn:
    number: int  # as players count turns: 1 is the first one resolved
    unit: str  # what the turn was called ("round", "move phase")
    counted: tuple[int, int | None]  # its number as the ruleset counts it, and the limit (7 of 12)
    seq: int  # the history entry whose position the turn left (its board)
    events: tuple[dict[str, Any], ...]
    orders: dict[int, str]  # by seat, as played: a seat that gave none played its defaults
    timed_out: bool


class HistoryOps(GameMasterCore):
    async def resolved_turns(self, game_id: int) -> int:
        async with self.db.reading() as conn:
            async with conn.execute(
                "SELECT count(*) FROM history WHERE game_id = ? AND kind = 'resolve'", (game_id,)
            ) as cursor:
                (count,) = await cursor.fetchone()
        return count

    async def past_turn(self, game_id: int, number: int | None = None) -> PastTurn:
        """Resolved turn ``number`` (default: the last one) of a started or finished game."""
        game = await self.get_game(game_id)
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
        async with self.db.reading() as conn:
            async with conn.execute(
                "SELECT seq, payload, events FROM history WHERE game_id = ? AND kind = 'resolve' ORDER BY seq LIMIT 1 OFFSET ?",
                (game_id, number - 1),
            ) as cursor:
                seq, payload, events = await cursor.fetchone()
            async with conn.execute(
                "SELECT state_after FROM history WHERE game_id = ? AND seq < ? ORDER BY seq DESC LIMIT 1",
                (game_id, seq),
            ) as cursor:
                (before,) = await cursor.fetchone()
        rs = self.ruleset(game.row)
        played, position = unpack(payload), rs.from_dict(unpack(before))
        return PastTurn(
            number,
            rs.turn_unit(position),
            rs.turn_number(position, number - 1),
            seq,
            tuple(unpack(events)),
            {int(seat): text for seat, text in played["orders"].items()},
            bool(played.get("timed_out")),
        )

    async def replay_steps(self, game_id: int) -> list[ReplayStep]:
        """What a replay of the game shows: the start and the position after each resolved turn, and a
        finished game's last position if a departure after its last turn made it; evenly chosen
        down to at most MAX_FRAMES."""
        game = await self.get_game(game_id)
        if await self.resolved_turns(game_id) == 0:
            raise GameError(tr("game #{number} has no resolved turn yet: there is nothing to replay", number=game_id))
        async with self.db.reading() as conn:
            async with conn.execute(
                "SELECT kind, state_after FROM history WHERE game_id = ? ORDER BY seq", (game_id,)
            ) as cursor:
                rows = await cursor.fetchall()
        numbers: list[tuple[int, int | None]] = []
        resolved = 0
        for index, (kind, _) in enumerate(rows):
            if kind == "resolve":
                resolved += 1
                numbers.append((index, resolved))
            elif kind == "setup":
                numbers.append((index, 0))
        if game.row.status == FINISHED and rows[-1][0] != "resolve":
            numbers.append((len(rows) - 1, None))
        return [
            ReplayStep(number, rows[index - 1][1] if number else None, rows[index][1])
            for index, number in (numbers[i] for i in pick(len(numbers), MAX_FRAMES))
        ]
