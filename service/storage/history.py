"""A game's history: one row per thing that happened to it (its setup, each resolved turn, each
departure), holding what was played and the position it left, packed (``service.storage.packing``).
Rows are only ever added, by the transaction that commits the change they record."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from service.storage.packing import pack
from service.storage.store import Connection

if TYPE_CHECKING:
    from service.turns import HistoryRow

RESOLVED = "resolve"  # the kind of a resolved turn's row


def rows(game_id: int, first_seq: int, entries: Iterable[HistoryRow], now: float) -> list[tuple]:
    """New history rows, numbered from ``first_seq``, as ``service.storage.games.commit_plan`` writes them."""
    return [
        (game_id, first_seq + i, h.turn, h.kind, pack(h.payload), pack(h.events), pack(h.state_after), now)
        for i, h in enumerate(entries)
    ]


async def state_after(conn: Connection, game_id: int, seq: int) -> bytes | str | None:
    """The stored position right after row ``seq``."""
    async with conn.execute("SELECT state_after FROM history WHERE game_id = ? AND seq = ?", (game_id, seq)) as cursor:
        row = await cursor.fetchone()
    return None if row is None else row[0]


async def resolved_count(conn: Connection, game_id: int) -> int:
    async with conn.execute(
        "SELECT count(*) FROM history WHERE game_id = ? AND kind = ?", (game_id, RESOLVED)
    ) as cursor:
        (count,) = await cursor.fetchone()
    return count


async def resolved_turn(conn: Connection, game_id: int, index: int) -> tuple[int, Any, Any, Any]:
    """The ``index``-th resolved turn (0 is the first): its seq, what was played, its events, and the
    stored position it began from."""
    async with conn.execute(
        "SELECT seq, payload, events FROM history WHERE game_id = ? AND kind = ? ORDER BY seq LIMIT 1 OFFSET ?",
        (game_id, RESOLVED, index),
    ) as cursor:
        seq, payload, events = await cursor.fetchone()
    async with conn.execute(
        "SELECT state_after FROM history WHERE game_id = ? AND seq < ? ORDER BY seq DESC LIMIT 1", (game_id, seq)
    ) as cursor:
        (before,) = await cursor.fetchone()
    return seq, payload, events, before


async def kinds_and_positions(conn: Connection, game_id: int) -> list[tuple[str, Any]]:
    """Every row's kind and stored position after it, oldest first."""
    async with conn.execute(
        "SELECT kind, state_after FROM history WHERE game_id = ? ORDER BY seq", (game_id,)
    ) as cursor:
        return [(kind, state) for kind, state in await cursor.fetchall()]
