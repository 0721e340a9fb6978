"""The claims table: leases on a game's wake-up or post delivery (``service.runtime.claims`` says why)."""

from __future__ import annotations

import logging
from typing import Any

from service.storage.store import Store

log = logging.getLogger(__name__)


async def take(db: Store, kind: str, game_id: int, lease: tuple[str, int | None, float], now: float) -> bool:
    """Take the lease ``(owner, session, expires_at)`` if it is free, expired or already the owner's;
    else take it from a holder whose session on the server has ended. Whether it was taken."""
    async with db.transaction() as conn:
        cursor = await conn.execute(
            """INSERT INTO claims (kind, game_id, owner, session, expires_at) VALUES (?, ?, ?, ?, ?)
               ON CONFLICT (kind, game_id) DO UPDATE SET owner = excluded.owner, session = excluded.session,
                      expires_at = excluded.expires_at
               WHERE claims.expires_at < ? OR claims.owner = excluded.owner""",
            (kind, game_id, *lease, now),
        )
        if cursor.rowcount == 1:
            return True
        return await _take_from_the_dead(db, conn, kind, game_id, lease)


async def _take_from_the_dead(db: Store, conn: Any, kind: str, game_id: int, lease: tuple) -> bool:
    async with conn.execute("SELECT owner, session FROM claims WHERE kind = ? AND game_id = ?", (kind, game_id)) as cur:
        holder = await cur.fetchone()
    if holder is None or holder["session"] is None or await db.session_alive(conn, holder["session"]):
        return False
    cursor = await conn.execute(
        "UPDATE claims SET owner = ?, session = ?, expires_at = ? WHERE kind = ? AND game_id = ? AND owner = ?",
        (*lease, kind, game_id, holder["owner"]),
    )
    if cursor.rowcount != 1:
        return False
    log.info("took over the %s of game #%s from %s, whose process has ended", kind, game_id, holder["owner"])
    return True


async def release(db: Store, kind: str, game_id: int, owner: str) -> None:
    await db.write("DELETE FROM claims WHERE kind = ? AND game_id = ? AND owner = ?", (kind, game_id, owner))
