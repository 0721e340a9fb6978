"""A server's seasons: its managers set how long each lasts (``/config season``); ratings within the
season running when a game ends are kept beside the all-time ones (``service.ops.ratings``), so each
season's leaderboard starts everyone afresh; a season's final table is posted when it ends."""

from __future__ import annotations

from dataclasses import replace

from i18n import tr
from service.clock import Clock
from service.errors import GameError, NotAllowed
from service.models import Actor
from service.storage import seasons as rows
from service.storage.seasons import Season
from service.storage.store import Store

LONGEST_DAYS = 365
THIS, LAST = "this season", "last season"


class Seasons:
    def __init__(self, db: Store, clock: Clock):
        self.db, self.clock = db, clock

    async def of_server(self, guild_id: int) -> Season | None:
        async with self.db.reading() as conn:
            return await rows.of_server(conn, guild_id)

    async def set(self, guild_id: int, days: int, channel_id: int, actor: Actor) -> Season:
        """Seasons of ``days`` from now on (0: none), their final tables posted in ``channel_id``. A new
        length ends the season running now (its table is posted) and starts the next one now; the same
        length only moves where the tables go."""
        if not actor.is_admin:
            raise NotAllowed(tr("Only a server manager (Manage Server) sets the seasons."))
        if not 0 <= days <= LONGEST_DAYS:
            raise GameError(tr("A season lasts 1 to {most} days (0: no seasons).", most=LONGEST_DAYS))
        now = self.clock.now()
        async with self.db.transaction() as conn:
            old = await rows.of_server(conn, guild_id)
            if old is None:
                made = Season(guild_id, days, 1, now, channel_id, 0)
            elif old.days == days:
                made = replace(old, channel_id=channel_id)
            else:
                running = old.number_at(now)
                made = replace(
                    old,
                    days=days,
                    first=old.first if running is None else running + 1,
                    started_at=now,
                    channel_id=channel_id,
                )
            await rows.save(conn, made)
            if old is None or made.started_at != old.started_at:
                await rows.begin_series(conn, made)
        return made

    async def untold(self) -> list[Season]:
        """The servers with a season ended whose final table is not posted yet (the next is ``told + 1``)."""
        now = self.clock.now()
        async with self.db.reading() as conn:
            return [season for season in await rows.every(conn) if ended_last(season, now) > season.told]

    async def told(self, guild_id: int, number: int) -> None:
        """Season ``number``'s final table is posted (or could never be)."""
        async with self.db.transaction() as conn:
            await rows.mark_told(conn, guild_id, number)

    async def chosen(self, guild_id: int, period: str) -> int:
        """The number of the server's season ``period`` names (THIS or LAST), or why there is none."""
        season = await self.of_server(guild_id)
        running = season.number_at(self.clock.now()) if season is not None else None
        if period == THIS:
            if running is None:
                raise GameError(tr("This server has no seasons; a server manager sets them with /config season."))
            return running
        ended = ended_last(season, self.clock.now()) if season is not None else 0
        if not ended:
            raise GameError(tr("No season of this server has ended yet."))
        return ended


def ended_last(season: Season, now: float) -> int:
    """The last of the server's seasons that has ended by ``now`` (0: none)."""
    running = season.number_at(now)
    return (running if running is not None else season.first) - 1
