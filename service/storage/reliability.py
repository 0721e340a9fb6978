"""Each member's turns across all his games (``reliability``): asked of him, and answered on time."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from service.models import Reliability
from service.storage.store import Connection


async def add(conn: Connection, counts: Mapping[int, Reliability]) -> None:
    """Add these turns (by user id) to what each member had, in the transaction that resolved them."""
    await conn.executemany(
        """INSERT INTO reliability (user_id, asked, on_time) VALUES (?,?,?)
           ON CONFLICT (user_id) DO UPDATE SET asked = reliability.asked + excluded.asked,
               on_time = reliability.on_time + excluded.on_time""",
        [(user_id, turns.asked, turns.on_time) for user_id, turns in sorted(counts.items())],
    )


async def of_users(conn: Connection, user_ids: Sequence[int]) -> dict[int, Reliability]:
    """The turns of these members (none for one never asked to play)."""
    if not user_ids:
        return {}
    marks = ",".join("?" * len(user_ids))
    async with conn.execute(
        f"SELECT user_id, asked, on_time FROM reliability WHERE user_id IN ({marks})", tuple(user_ids)
    ) as cursor:
        return {r["user_id"]: Reliability(r["asked"], r["on_time"]) for r in await cursor.fetchall()}
