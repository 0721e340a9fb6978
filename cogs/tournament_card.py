"""A tournament's sign-up card in its channel: what it plays, when it starts, who is in, and Join /
Leave / Start buttons while it is open. The buttons' custom ids hold the tournament's number, so they
keep working after a restart (``DynamicItem``); the card is brought up to date after every change, by
button or by command, and loses its buttons once the tournament starts or is cancelled."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from cogs.common import USER_ERRORS, actor_of, fetch_game_channel, plain, send_error, service_of
from cogs.lobby import sign_up_button
from cogs.translator import RepliesInUsersLanguage, server_language
from i18n import mark, tr, using
from service.gameoptions import duration
from service.markup import when
from service.storage.tournaments import CANCELLED, FINISHED, RUNNING, SIGNUP, Entrant, Tournament

if TYPE_CHECKING:
    from service.runtime.gameservice import GameService

log = logging.getLogger(__name__)

FORMAT_NAMES = {"swiss": mark("Swiss"), "round-robin": mark("round robin"), "pools": mark("pools")}
COLOURS = {SIGNUP: 0x3B82F6, RUNNING: 0x22C55E, FINISHED: 0x6B7280, CANCELLED: 0x6B7280}


class TournamentButton(
    RepliesInUsersLanguage,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tournament:(?P<action>join|leave|start):(?P<number>[0-9]+)",
):
    def __init__(self, action: str, number: int):
        super().__init__(sign_up_button(action, f"tournament:{action}:{number}"))
        self.action, self.number = action, number

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TournamentButton:
        return cls(match["action"], int(match["number"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        tournaments, actor = service.master.tournaments, actor_of(interaction)
        if self.action == "start":  # a start opens round 1's games
            await interaction.response.defer()
        try:
            if self.action == "join":
                await tournaments.join(self.number, actor, interaction.guild_id)
            elif self.action == "leave":
                await tournaments.leave(self.number, actor, interaction.guild_id)
            else:
                await tournaments.start(self.number, actor, interaction.guild_id)
        except USER_ERRORS as err:
            await send_error(interaction, str(err))
            return
        t = await tournaments.get(self.number)
        with using(await server_language(interaction.client, t.guild_id)):  # everyone sees the card
            embed, view = card_embed(service, t, await tournaments.entrants(t.id)), card_view(t)
        if interaction.response.is_done():
            await interaction.edit_original_response(embed=embed, view=view)
        else:
            await interaction.response.edit_message(embed=embed, view=view)
        if self.action == "start":
            await service.tell_tournaments()  # round 1's tables, at once rather than at the next sweep


def card_embed(service: GameService, t: Tournament, entrants: list[Entrant]) -> discord.Embed:
    """The card: the game, format, rounds and clock, the start, and the players in."""
    game = service.presenter.ruleset_title(t.ruleset)
    embed = discord.Embed(
        title=tr("🏆 Tournament #{number} — {game}", number=t.id, game=game), colour=COLOURS[t.status]
    )
    rounds = (
        tr("as many rounds as its players need")
        if t.status == SIGNUP and t.format == "round-robin"
        else tr("{rounds} rounds", rounds=t.rounds)
    )
    lines = [
        tr(
            "{format}, {rounds}; each turn of its games {turn}.",
            format=tr(FORMAT_NAMES.get(t.format, t.format)),
            rounds=rounds,
            turn=duration(t.round_seconds),
        )
    ]
    if t.status == SIGNUP:
        lines.append(
            tr("Starts {when} (or when <@{creator}> starts it).", when=when(t.starts_at), creator=t.creator_id)
            if t.starts_at is not None
            else tr("Starts when <@{creator}> starts it.", creator=t.creator_id)
        )
        lines.append(tr("Press **Join** to enter; **Leave** takes you out before the start."))
    elif t.status == RUNNING:
        lines.append(tr("Round {round} of {rounds} is being played.", round=t.round, rounds=t.rounds))
    elif t.status == FINISHED:
        lines.append(tr("It is over: `/tournament standings number:{number}`.", number=t.id))
    else:
        lines.append(tr("It was cancelled."))
    embed.description = "\n".join(lines)
    names = [plain(e.name) + (tr(" (withdrawn)") if e.withdrawn_at is not None else "") for e in entrants]
    shown = ", ".join(names)
    embed.add_field(name=tr("Players ({count})", count=len(entrants)), value=shown[:1024] or tr("nobody yet"))
    embed.set_footer(text=tr("Tournament #{number}", number=t.id))
    return embed


def card_view(t: Tournament) -> discord.ui.View | None:
    """Join, Leave and Start while it is open for sign-up; nothing after."""
    if t.status != SIGNUP:
        return None
    view = discord.ui.View(timeout=None)
    for action in ("join", "leave", "start"):
        view.add_item(TournamentButton(action, t.id))
    return view


async def post_card(channel: discord.abc.Messageable, service: GameService, t: Tournament) -> discord.Message:
    """A new tournament's card, noted so that each change shows on it."""
    with using(await service.languages.of(t.guild_id)):
        entrants = await service.master.tournaments.entrants(t.id)
        message = await channel.send(embed=card_embed(service, t, entrants), view=card_view(t))  # type: ignore[arg-type]
    await service.master.tournaments.set_card(t.id, message.id)
    return message


async def refresh_card(client: discord.Client, service: GameService, number: int) -> None:
    """The card as the tournament is now (a card deleted or out of reach is only logged)."""
    t = await service.master.tournaments.get(number)
    if t.card_message_id is None:
        return
    try:
        channel = await fetch_game_channel(client, t.channel_id)
        with using(await server_language(client, t.guild_id)):
            embed = card_embed(service, t, await service.master.tournaments.entrants(t.id))
            await channel.get_partial_message(t.card_message_id).edit(embed=embed, view=card_view(t))
    except discord.HTTPException as err:
        log.info("tournament #%s: card not brought up to date: %s", t.id, err)
