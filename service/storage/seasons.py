"""A server's seasons (``seasons``): how long each lasts, when the current series began, where the
final tables go, and which season's table was posted last."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.storage.store import Connection

DAY = 86400.0


@dataclass(frozen=True)
class Season:
    """Seasons of ``days`` each (0: none), season ``first`` beginning at ``started_at``, the next ones
    following on; ``told``: the last season whose final table was posted (in ``channel_id``)."""

    guild_id: int
    days: int
    first: int
    started_at: float
    channel_id: int
    told: int

    def number_at(self, moment: float) -> int | None:
        """The season running at ``moment`` (None: seasons are off, or the series began later)."""
        if not self.days or moment < self.started_at:
            return None
        return self.first + int((moment - self.started_at) // (self.days * DAY))

    def ends_at(self, number: int) -> float:
        return self.started_at + (number - self.first + 1) * self.days * DAY


def _season(row: Any) -> Season:
    return Season(row["guild_id"], row["days"], row["first"], row["started_at"], row["channel_id"], row["told"])


async def of_server(conn: Connection, guild_id: int) -> Season | None:
    async with conn.execute("SELECT * FROM seasons WHERE guild_id = ?", (guild_id,)) as cursor:
        row = await cursor.fetchone()
    return _season(row) if row is not None else None


async def series_at(conn: Connection, guild_id: int, moment: float) -> Season | None:
    """The server's series of seasons in effect at ``moment`` (its number_at says which season ran)."""
    async with conn.execute(
        """SELECT guild_id, days, first, started_at FROM season_series
           WHERE guild_id = ? AND started_at <= ? ORDER BY started_at DESC LIMIT 1""",
        (guild_id, moment),
    ) as cursor:
        row = await cursor.fetchone()
    return Season(row["guild_id"], row["days"], row["first"], row["started_at"], 0, 0) if row is not None else None


async def begin_series(conn: Connection, season: Season) -> None:
    """Note that ``season``'s series begins (kept for placing games after later changes)."""
    await conn.execute(
        """INSERT INTO season_series (guild_id, started_at, first, days) VALUES (?,?,?,?)
           ON CONFLICT (guild_id, started_at) DO UPDATE SET first = excluded.first, days = excluded.days""",
        (season.guild_id, season.started_at, season.first, season.days),
    )


async def every(conn: Connection) -> list[Season]:
    """Every server's seasons, on or off (a season ended when they were turned off is still told)."""
    async with conn.execute("SELECT * FROM seasons ORDER BY guild_id") as cursor:
        return [_season(row) for row in await cursor.fetchall()]


async def save(conn: Connection, season: Season) -> None:
    await conn.execute(
        """INSERT INTO seasons (guild_id, days, first, started_at, channel_id, told) VALUES (?,?,?,?,?,?)
           ON CONFLICT (guild_id) DO UPDATE SET days = excluded.days, first = excluded.first,
           started_at = excluded.started_at, channel_id = excluded.channel_id, told = excluded.told""",
        (season.guild_id, season.days, season.first, season.started_at, season.channel_id, season.told),
    )


async def mark_told(conn: Connection, guild_id: int, number: int) -> None:
    """Note season ``number``'s final table posted (never going back, whichever process is first)."""
    await conn.execute("UPDATE seasons SET told = ? WHERE guild_id = ? AND told < ?", (number, guild_id, number))
