"""/settings: a player's own reminder settings, the same in every server and in DMs (only he sees
them): how long before a deadline his reminder DM comes, whether it comes at all, his quiet hours and
the time zone they are read in. With no option it shows them; each option given changes one."""

from __future__ import annotations

import datetime as dt

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import ThinksFirst
from i18n import mark, option_name, tr
from service.gameoptions import duration
from service.ops.usersettings import GAME_LEAD
from service.reminders import ReminderSettings, time_zone_names, zone
from service.runtime.gameservice import GameService

CHANGES = mark(
    "Change them with `/settings` and `{lead_time}` (30m, 2h, 1d or `game`), `{dm_reminders}`, "
    "`{quiet_start}` and `{quiet_end}` (hours 0–23), `{quiet_hours_off}`, `{time_zone}`."
)
OPTIONS = ("lead_time", "dm_reminders", "quiet_start", "quiet_end", "quiet_hours_off", "time_zone")


def how_to_change() -> str:
    """How to change the settings, naming the options as the reader's Discord shows them."""
    return tr(CHANGES, **{name: option_name(name) for name in OPTIONS})


async def time_zones(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """IANA names containing what is typed, those starting with it first."""
    typed = current.strip().lower()
    names = sorted(
        (name for lower, name in time_zone_names().items() if typed in lower),
        key=lambda name: (not name.lower().startswith(typed), name),
    )
    return [app_commands.Choice(name=name, value=name) for name in names[:25]]


class SettingsCog(ThinksFirst, commands.Cog):
    def __init__(self, bot: discord.Client, service: GameService):
        self.bot, self.user_settings, self.clock = bot, service.master.settings, service.clock

    @app_commands.command(name="settings", description="Your reminder settings, for every game (only you see them)")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.describe(
        lead_time=f"How long before a deadline your reminder comes: 30m, 2h, 1h30m, 1d; {GAME_LEAD!r}: each game's own",
        dm_reminders="Whether reminders come to you by DM at all",
        quiet_start="Hour (0-23, your time zone) your quiet hours begin: no reminder DMs until quiet_end",
        quiet_end="Hour (0-23, your time zone) your quiet hours end",
        quiet_hours_off="True: no quiet hours",
        time_zone="Your time zone, an IANA name such as Europe/Kyiv (quiet hours are read in it)",
    )
    @app_commands.autocomplete(time_zone=time_zones)
    async def settings(
        self,
        interaction: discord.Interaction,
        lead_time: str | None = None,
        dm_reminders: bool | None = None,
        quiet_start: int | None = None,
        quiet_end: int | None = None,
        quiet_hours_off: bool = False,
        time_zone: str | None = None,
    ) -> None:
        changes = (lead_time, dm_reminders, quiet_start, quiet_end, time_zone)
        if all(value is None for value in changes) and not quiet_hours_off:
            settings, heading = (
                await self.user_settings.settings_of(interaction.user.id),
                tr("**Your reminder settings**"),
            )
        else:
            settings = await self.user_settings.change_settings(
                interaction.user.id,
                lead=lead_time,
                dm_reminders=dm_reminders,
                quiet_start=quiet_start,
                quiet_end=quiet_end,
                quiet_off=quiet_hours_off,
                time_zone=time_zone,
            )
            heading = tr("✅ Saved. **Your reminder settings** now")
        await interaction.followup.send("\n".join([heading, *self._lines(settings), how_to_change()]), ephemeral=True)

    def _lines(self, settings: ReminderSettings) -> list[str]:
        if settings.lead_seconds is None:
            lead = tr("each game's own time (most games remind an hour before the deadline)")
        else:
            lead = tr("{lead} before each deadline", lead=duration(settings.lead_seconds))
        if settings.dm_reminders:
            dms = tr("on")
        else:
            dms = tr("**off**: no reminder DMs (the post that starts each turn still pings you in the game's thread)")
        if settings.has_quiet_hours:
            start, end = f"{settings.quiet_start:02d}:00", f"{settings.quiet_end:02d}:00"
            quiet = tr(
                "{start}–{end}: no reminder DMs then; a reminder due in them comes just before {start}",
                start=start,
                end=end,
            )
        else:
            quiet = tr("none")
        local = dt.datetime.fromtimestamp(self.clock.now(), zone(settings.time_zone)).strftime("%H:%M")
        return [
            tr("⏰ Reminder: {lead}", lead=lead),
            tr("✉️ Reminder DMs: {dms}", dms=dms),
            tr("🌙 Quiet hours: {quiet}", quiet=quiet),
            tr("🌍 Time zone: {zone} (it is {time} there now)", zone=settings.time_zone, time=local),
        ]
