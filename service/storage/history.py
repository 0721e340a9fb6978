"""A game's history: one row per thing that happened to it (its setup, each resolved turn, each
departure), holding what was played and the position it left, packed (``service.storage.packing``):
most rows as the change from the row before, so reading one decodes the rows back to its keyframe.
Rows are only ever added, by the transaction that commits the change they record."""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from service.storage.errors import DamagedHistory
from service.storage.packing import KEYFRAME, DeltaWithoutBase, pack_text, text, unpack_text
from service.storage.store import Connection

if TYPE_CHECKING:
    from service.turns import HistoryRow

RESOLVED = "resolve"  # the kind of a resolved turn's row
COLUMNS = ("payload", "events", "state_after")


class Entry(NamedTuple):
    """A history row read back: its columns as JSON text."""

    seq: int
    turn: int
    kind: str
    payload: str
    events: str
    state_after: str


async def append(conn: Connection, game_id: int, first_seq: int, entries: Sequence[HistoryRow], now: float) -> None:
    """Add ``entries`` as rows ``first_seq`` onwards, each column deflated against the row before
    (read back from the table for the first) unless the row is a keyframe."""
    if not entries:
        return
    before = await _read(conn, game_id, first_seq - 1, first_seq - 1) if first_seq % KEYFRAME else []
    base = tuple(getattr(before[0], c).encode() for c in COLUMNS) if before else None
    added = []
    for seq, entry in enumerate(entries, start=first_seq):
        texts = (text(entry.payload), text(entry.events), text(entry.state_after))
        delta = base if seq % KEYFRAME else None
        packed = [pack_text(t, delta[i] if delta else None) for i, t in enumerate(texts)]
        added.append((game_id, seq, entry.turn, entry.kind, *packed, now))
        base = texts
    await conn.executemany(
        "INSERT INTO history (game_id, seq, turn, kind, payload, events, state_after, at) VALUES (?,?,?,?,?,?,?,?)",
        added,
    )


async def _read(conn: Connection, game_id: int, first: int, last: int) -> list[Entry]:
    """Rows ``first`` to ``last`` of the game, decoded from the keyframe at or before ``first``."""
    async with conn.execute(
        "SELECT seq, turn, kind, payload, events, state_after FROM history WHERE game_id = ? AND seq BETWEEN ? AND ?"
        " ORDER BY seq",
        (game_id, first - first % KEYFRAME, last),
    ) as cursor:
        stored = await cursor.fetchall()
    return _decoded(game_id, stored, first)


def _decoded(game_id: int, stored: Iterable[Any], first: int) -> list[Entry]:
    entries: list[Entry] = []
    base: list[bytes] | list[None] = [None, None, None]
    for row in stored:
        try:
            base = [unpack_text(row[c], base[i]) for i, c in enumerate(COLUMNS)]
            texts = [b.decode() for b in base]
        except (DeltaWithoutBase, zlib.error, UnicodeDecodeError) as err:
            raise DamagedHistory(f"the history of game #{game_id} is damaged at entry {row['seq']}: {err}") from err
        if row["seq"] >= first:
            entries.append(Entry(row["seq"], row["turn"], row["kind"], *texts))
    return entries


async def entries(conn: Connection, game_id: int) -> list[Entry]:
    """Every row of the game, oldest first."""
    async with conn.execute(
        "SELECT seq, turn, kind, payload, events, state_after FROM history WHERE game_id = ? ORDER BY seq", (game_id,)
    ) as cursor:
        return _decoded(game_id, await cursor.fetchall(), 0)


async def rows_between(conn: Connection, game_id: int, first: int, last: int) -> list[Entry]:
    """Rows ``first`` to ``last`` of the game (those that exist), oldest first."""
    return await _read(conn, game_id, max(0, first), last)


async def state_after(conn: Connection, game_id: int, seq: int) -> str | None:
    """The stored position right after row ``seq``, as JSON text."""
    found = await _read(conn, game_id, seq, seq)
    return found[0].state_after if found else None


async def resolved_count(conn: Connection, game_id: int) -> int:
    async with conn.execute(
        "SELECT count(*) FROM history WHERE game_id = ? AND kind = ?", (game_id, RESOLVED)
    ) as cursor:
        (count,) = await cursor.fetchone()
    return count


async def resolved_turn(conn: Connection, game_id: int, index: int) -> tuple[Entry, str]:
    """The ``index``-th resolved turn (0 is the first) and the position it began from (JSON text)."""
    async with conn.execute(
        "SELECT seq FROM history WHERE game_id = ? AND kind = ? ORDER BY seq LIMIT 1 OFFSET ?",
        (game_id, RESOLVED, index),
    ) as cursor:
        (seq,) = await cursor.fetchone()
    before, turn = await _read(conn, game_id, seq - 1, seq)
    return turn, before.state_after
