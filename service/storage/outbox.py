"""The outbox table: announcements waiting to be posted. A row is added by the transaction whose
change it announces, leaves the queue once delivered or given up (``delivered_at`` set), and is
deleted a day after that (``prune``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from service.storage.store import Connection, Store


async def enqueue(conn: Connection, game_id: int, announcements: Iterable[tuple[str, str]], now: float) -> None:
    """Queue ``(kind, payload JSON)`` announcements of a game, due at once."""
    await conn.executemany(
        "INSERT INTO outbox (game_id, kind, payload, created_at, next_attempt) VALUES (?,?,?,?,?)",
        [(game_id, kind, payload, now, now) for kind, payload in announcements],
    )


async def undelivered(db: Store, *, after: int = 0, ids: Sequence[int] = (), limit: int) -> Sequence[Any]:
    """Undelivered rows in id order: those after id ``after``, or (when given) those of ``ids``."""
    where, values = (f"id IN ({','.join('?' * len(ids))})", tuple(ids)) if ids else ("id > ?", (after,))
    async with db.reading() as conn:
        async with conn.execute(
            f"""SELECT id, game_id, kind, payload, attempts, next_attempt, tried_at FROM outbox
               WHERE delivered_at IS NULL AND {where} ORDER BY id LIMIT ?""",
            (*values, limit),
        ) as cursor:
            return await cursor.fetchall()


async def tried(db: Store, announcement_ids: Sequence[int], now: float) -> None:
    marks = ",".join("?" * len(announcement_ids))
    await db.write(f"UPDATE outbox SET tried_at = ? WHERE id IN ({marks})", (now, *announcement_ids))


async def settled(db: Store, announcement_id: int, error: str | None, now: float) -> None:
    await db.write(
        "UPDATE outbox SET delivered_at = ?, attempts = attempts + 1, last_error = ? WHERE id = ?",
        (now, error, announcement_id),
    )


async def failed(db: Store, announcement_id: int, attempts: int, error: str, next_attempt: float) -> None:
    await db.write(
        "UPDATE outbox SET attempts = ?, next_attempt = ?, last_error = ? WHERE id = ?",
        (attempts, next_attempt, error, announcement_id),
    )


async def due_now(db: Store, guild_id: int, now: float) -> int:
    """Make the server's posts waiting for a retry due at once (its permissions changed); returns how
    many were waiting."""
    return await db.write(
        "UPDATE outbox SET next_attempt = ? WHERE delivered_at IS NULL AND next_attempt > ?"
        " AND game_id IN (SELECT id FROM games WHERE guild_id = ?)",
        (now, now, guild_id),
    )


async def prune(db: Store, delivered_before: float) -> int:
    """Delete the rows delivered (or given up) before ``delivered_before``; returns how many."""
    return await db.write("DELETE FROM outbox WHERE delivered_at IS NOT NULL AND delivered_at < ?", (delivered_before,))


async def pending_count(db: Store) -> int:
    async with db.reading() as conn:
        async with conn.execute("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL") as cursor:
            (count,) = await cursor.fetchone()
    return count
