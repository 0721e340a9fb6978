"""Each user's reminder settings (/settings): lead time, DM reminders, quiet hours, time zone.

They are the user's, not a game's: stored per Discord user and applied in every game he plays. A
change plans the reminders of his running games again at once (see ``service.reminders``).
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace

from i18n import tr
from service.errors import GameError
from service.gameoptions import DAY, HOUR, duration
from service.models import RUNNING, Game
from service.ops.games import Games, NothingToDo
from service.reminders import DEFAULT_SETTINGS, ReminderSettings, time_zone_named
from service.storage import games as rows
from service.storage import settings as chosen
from service.turns import Planner

log = logging.getLogger(__name__)

MIN_LEAD, MAX_LEAD = 5 * 60, 7 * DAY
GAME_LEAD = "game"  # the lead time that means: each game's own
_LEAD = re.compile(r"^(?:(\d+)\s*d)?\s*(?:(\d+)\s*h)?\s*(?:(\d+)\s*m(?:in)?)?$")


def parse_lead(text: str) -> int | None:
    """ "90" (minutes), "45m", "2h", "1h30m", "1d" → seconds; "game" → None (each game's own time)."""
    words = text.strip().lower()
    if words == GAME_LEAD:
        return None
    if words.isdigit():
        words += "m"
    match = _LEAD.match(words)
    if not words or match is None or not any(match.groups()):
        raise GameError(
            tr(
                "the reminder lead time looks like 30m, 2h, 1h30m or 1d (or `{game}` for each game's own), "
                "not {text!r}",
                game=GAME_LEAD,
                text=text.strip()[:40],
            )
        )
    days, hours, minutes = (int(part or 0) for part in match.groups())
    seconds = days * DAY + hours * HOUR + minutes * 60
    if not MIN_LEAD <= seconds <= MAX_LEAD:
        raise GameError(
            tr(
                "the reminder lead time must be between {low} and {high}, not {lead}",
                low=duration(MIN_LEAD),
                high=duration(MAX_LEAD),
                lead=duration(seconds),
            )
        )
    return seconds


def quiet_hours(
    current: ReminderSettings, start: int | None, end: int | None, off: bool
) -> tuple[int | None, int | None]:
    """The quiet hours after a change: both hours, one of them (the other kept), or none."""
    if off:
        if start is not None or end is not None:
            raise GameError(tr("either set quiet hours or turn them off, not both at once"))
        return None, None
    for name, hour in (("quiet_start", start), ("quiet_end", end)):
        if hour is not None and not 0 <= hour <= 23:
            raise GameError(tr("{option} is an hour of the day, from 0 to 23, not {hour}", option=name, hour=hour))
    start = current.quiet_start if start is None else start
    end = current.quiet_end if end is None else end
    if (start is None) != (end is None):
        raise GameError(tr("quiet hours need both quiet_start and quiet_end (e.g. 22 and 7)"))
    if start is not None and start == end:
        raise GameError(
            tr(
                "quiet hours from {start}:00 until {end}:00 would be no hours at all; pick two different hours",
                start=start,
                end=end,
            )
        )
    return start, end


class UserSettings:
    def __init__(self, games: Games):
        self.games = games

    async def settings_of(self, user_id: int) -> ReminderSettings:
        async with self.games.db.reading() as conn:
            return (await chosen.reminder_settings(conn, [user_id])).get(user_id, DEFAULT_SETTINGS)

    async def dm_refused(self, user_id: int) -> bool:
        """His DMs refused a reminder: True the first time (tell him where he plays), False after."""
        return await chosen.note_dm_refused(self.games.db, user_id, self.games.clock.now())

    async def dm_delivered(self, user_id: int) -> None:
        """A reminder reached him: should his DMs close again, he is told again."""
        await chosen.clear_dm_refused(self.games.db, user_id)

    async def change_settings(
        self,
        user_id: int,
        *,
        lead: str | None = None,
        dm_reminders: bool | None = None,
        quiet_start: int | None = None,
        quiet_end: int | None = None,
        quiet_off: bool = False,
        time_zone: str | None = None,
    ) -> ReminderSettings:
        """Check every value first (a refusal changes nothing), store them, then replan the reminders
        of the user's running games. Values left None stay as they were."""
        current = await self.settings_of(user_id)
        start, end = quiet_hours(current, quiet_start, quiet_end, quiet_off)
        settings = replace(
            current,
            lead_seconds=current.lead_seconds if lead is None else parse_lead(lead),
            dm_reminders=current.dm_reminders if dm_reminders is None else dm_reminders,
            quiet_start=start,
            quiet_end=end,
            time_zone=current.time_zone if time_zone is None else time_zone_named(time_zone),
        )
        await chosen.save_reminder_settings(self.games.db, user_id, settings, self.games.clock.now())
        if settings != current:
            await self._replan_games_of(user_id)
        return settings

    async def _replan_games_of(self, user_id: int) -> None:
        """Each running game of the user plans its reminders again; one that cannot (damaged data, a
        write at the same moment) keeps its plan, and its next wake-up replans it anyway."""
        async with self.games.db.reading() as conn:
            game_ids = await rows.running_games_of(conn, user_id)
        for game_id in game_ids:
            try:
                await self.replan_reminders(game_id)
            except GameError as err:
                log.warning("game #%s keeps its reminder plan for now: %s", game_id, err)

    async def replan_reminders(self, game_id: int) -> Game:
        """Plan the game's reminders again, from its players' current settings."""

        def build(planner: Planner, game: Game) -> None:
            if game.row.status != RUNNING or not planner.replan_reminders():
                raise NothingToDo

        return await self.games.transition(game_id, build)
