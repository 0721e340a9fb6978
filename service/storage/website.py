"""What the web site keeps: each server's choice of ``/config web`` (``server_web``) and the one
secret its links are signed with (``site_secret``); it reads each server's language beside it."""

from __future__ import annotations

from typing import NamedTuple

from service.storage.store import Connection, Store

SECRET_ROW = 1


async def secret(db: Store, made: str, now: float) -> str:
    """The site's secret: the stored one, else ``made``, stored now (a process that made another at
    the same moment loses the race and reads the winner's)."""
    await db.write(
        "INSERT INTO site_secret (id, secret, made_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING",
        (SECRET_ROW, made, now),
    )
    async with db.reading() as conn:
        async with conn.execute("SELECT secret FROM site_secret WHERE id = ?", (SECRET_ROW,)) as cursor:
            (stored,) = await cursor.fetchone()
    return stored


async def save_server_mode(db: Store, guild_id: int, mode: str, set_by: int, now: float) -> None:
    await db.write(
        "INSERT INTO server_web (guild_id, mode, set_by, set_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (guild_id) DO UPDATE SET mode = excluded.mode, set_by = excluded.set_by, set_at = excluded.set_at",
        (guild_id, mode, set_by, now),
    )


class Glimpse(NamedTuple):
    """What a page of the site knows of a game before it looks further: its server, and the marks
    that change whenever anything its pages show does (every change to a game, a pass included,
    counts up its version; a resolved turn, its history)."""

    id: int
    guild_id: int
    version: int
    seq: int
    started: bool  # it has a position to draw
    players: tuple[int, int]  # how many rows its players have and the newest: its boards' names change with them


async def server_and_game(
    conn: Connection, guild_id: int, game_id: int | None
) -> tuple[str | None, str | None, Glimpse | None]:
    """The server's language and choice of pages (None where it made none), and a glimpse of the game
    (None if there is none, or none was asked for), in one statement: the site asks this first at
    every request."""
    async with conn.execute(
        """SELECT (SELECT language FROM server_language WHERE guild_id = ?),
                  (SELECT mode FROM server_web WHERE guild_id = ?),
                  games.id, games.guild_id, games.version, games.seq, games.state IS NOT NULL,
                  (SELECT COUNT(*) FROM players WHERE players.game_id = games.id),
                  (SELECT MAX(id) FROM players WHERE players.game_id = games.id)
           FROM (SELECT 1 AS here) AS one LEFT JOIN games ON games.id = ?""",
        (guild_id, guild_id, -1 if game_id is None else game_id),
    ) as cursor:
        language, mode, *game = await cursor.fetchone()
    return (
        language,
        mode,
        None
        if game[0] is None
        else Glimpse(game[0], game[1], game[2], game[3], bool(game[4]), (game[5], game[6] or 0)),
    )
