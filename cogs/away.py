"""/away: going away for a while, a computer playing one's turns meanwhile; ``until:off`` to come back.

Works in every server the player plays in and in DMs (his games are his wherever he asks); the reply
is his alone.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import MyGame, ThinksFirst, actor_of, game_being_typed, named_choices, service_of
from cogs.lobby import refresh_lobby
from i18n import level_title, tr
from service.markup import when
from service.models import Game
from service.ops.absence import Away
from service.runtime.gameservice import GameService
from service.until import parse_until

OFF = "off"


async def away_levels(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The computer levels of the game given, or of every game the bot serves (for all one's games)."""
    known = service_of(interaction).presenter.rulesets
    try:
        rulesets = [known[(await game_being_typed(interaction)).row.ruleset]]
    except Exception:  # no game meant: all his games, whatever they are
        rulesets = list(known.values())
    names = dict.fromkeys(level.name for rs in rulesets for level in rs.bot_levels)
    return named_choices(names, level_title, current)


class AwayCog(ThinksFirst, commands.Cog):
    def __init__(self, bot: discord.Client, service: GameService):
        self.bot, self.service = bot, service
        self.absence, self.settings = service.master.absence, service.master.settings

    @app_commands.command(
        name="away", description="Away for a while: a computer plays your turns (until:off to come back)"
    )
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.describe(
        until="How long (3d, 12h, 1w 2d) or until when in your time zone (2026-12-05 18:00); off: you are back",
        game="Game number (default: all your running games)",
        level="How strong the computer that plays for you is (default: the game's default)",
    )
    @app_commands.autocomplete(level=away_levels)
    async def away(
        self,
        interaction: discord.Interaction,
        until: app_commands.Range[str, 1, 40],
        game: MyGame | None = None,
        level: str | None = None,
    ) -> None:
        actor, game_id = actor_of(interaction), game.id if game is not None else None
        if until.strip().lower() == OFF:
            back = await self.absence.come_back(actor, game_id=game_id)
            await interaction.followup.send(self._back_text(back, actor.user_id), ephemeral=True)
            changed = back
        else:
            settings = await self.settings.settings_of(actor.user_id)
            moment = parse_until(until, self.service.clock.now(), settings.time_zone)
            report = await self.absence.go_away(actor, moment, game_id=game_id, level=level)
            lines = [
                tr(
                    "🏖️ You are away until {when}: a computer gives your orders, as secret as your own, and "
                    "nothing counts as missed. You are back when that time comes, when you give an order "
                    "yourself, or with `/away until:off`.",
                    when=when(moment),
                ),
                *(self._away_line(away, actor.user_id) for away in report.away),
                *(tr("Not in game #{number}: {why}", number=number, why=why) for number, why in report.refused),
            ]
            await interaction.followup.send("\n".join(lines)[:2000], ephemeral=True)
            changed = [away.game for away in report.away]
        for one in changed:
            await refresh_lobby(self.bot, one)

    def _away_line(self, away: Away, user_id: int) -> str:
        """A game he is away from: who plays for him, and what became of the turn in progress."""
        presenter, player = self.service.presenter, away.game.player_of(user_id)
        note = presenter.away_note(away.game, player) if player else None
        line = f"• {presenter.title(away.game)}" + (f" — {note}" if note else "")
        if away.this_turn == "stand-in":
            line += "\n  " + tr("This turn the computer played at once.")
        elif away.this_turn == "kept":
            line += "\n  " + tr("This turn your orders count as you gave them: they are now final.")
        return line

    def _back_text(self, games: list[Game], user_id: int) -> str:
        """Back in ``games``; where the turn is still open, the stand-in's orders are his to change."""
        lines = [
            tr(
                "👋 You are back: you give your own orders again in {games}.",
                games=", ".join(self.service.presenter.title(game) for game in games),
            )
        ]
        for game in games:
            player = game.player_of(user_id)
            if player is not None and player.seat in game.waiting_seats:
                lines.append(
                    tr(
                        "{game}: the computer's orders for this turn are programmed for you; change them or "
                        "pass (`/orders show`). At the deadline they are played as they are.",
                        game=self.service.presenter.title(game),
                    )
                )
        return "\n".join(lines)[:2000]
