"""Members' requests to take a seat over, waiting for the game creator's answer (``seat_requests``)."""

from __future__ import annotations

from service.storage.store import Connection


async def ask(conn: Connection, game_id: int, seat: int, user_id: int, name: str, now: float) -> bool:
    """Store the request; False if he had asked for that seat already (it keeps its first time)."""
    async with conn.execute(
        "SELECT 1 FROM seat_requests WHERE game_id = ? AND seat = ? AND user_id = ?", (game_id, seat, user_id)
    ) as cursor:
        if await cursor.fetchone() is not None:
            return False
    await conn.execute(
        "INSERT INTO seat_requests (game_id, seat, user_id, name, asked_at) VALUES (?,?,?,?,?)",
        (game_id, seat, user_id, name[:64], now),
    )
    return True


async def asked(conn: Connection, game_id: int, seat: int, user_id: int) -> str | None:
    """The name he asked with, or None if there is no such request (any longer)."""
    async with conn.execute(
        "SELECT name FROM seat_requests WHERE game_id = ? AND seat = ? AND user_id = ?", (game_id, seat, user_id)
    ) as cursor:
        row = await cursor.fetchone()
    return None if row is None else row["name"]


async def forget(conn: Connection, game_id: int, seat: int, user_id: int | None = None) -> None:
    """Drop his request for the seat, or (``user_id`` None) every request for it."""
    if user_id is None:
        await conn.execute("DELETE FROM seat_requests WHERE game_id = ? AND seat = ?", (game_id, seat))
    else:
        await conn.execute(
            "DELETE FROM seat_requests WHERE game_id = ? AND seat = ? AND user_id = ?", (game_id, seat, user_id)
        )
