"""Buttons: Pass under a player's un-passed orders, the confirmation a surrender asks for, and
Rematch under a finished game. Their custom ids carry the game (and turn or user), so they keep working after
a restart (``DynamicItem``); a stale Pass (the turn ended meanwhile) is refused, never misapplied."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

import discord

from cogs.common import USER_ERRORS, actor_of, fetch_game_channel, send_error, service_of
from cogs.lobby import refresh_lobby, seen_in, shows_games
from cogs.translator import RepliesInUsersLanguage, server_language
from i18n import mark, ntr, tr, using
from service.markup import COLOUR_EMOJI, player_name, when
from service.models import RUNNING, Game
from service.presenter import Presenter

log = logging.getLogger(__name__)


def after_pass(presenter: Presenter, before: Game, after: Game) -> str:
    """What a player reads once he has passed."""
    if after.row.turn != before.row.turn or after.row.status != RUNNING:
        return tr(
            "Done. {turn} of game #{number} is resolved — see the thread.",
            turn=presenter.turn_label(before),
            number=before.id,
        )
    waiting = len(after.waiting_seats)
    deadline = (
        tr("no deadline") if after.row.deadline_at is None else tr("deadline {when}", when=when(after.row.deadline_at))
    )
    return ntr(
        "You passed. Waiting for {n} more player; {deadline}.",
        "You passed. Waiting for {n} more players; {deadline}.",
        waiting,
        deadline=deadline,
    )


class PassButton(
    RepliesInUsersLanguage,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"orders:pass:(?P<game>[0-9]+):(?P<turn>[0-9]+)",
):
    def __init__(self, game_id: int, turn: int):
        super().__init__(
            discord.ui.Button(
                label=tr("Pass: make my orders final"),
                style=discord.ButtonStyle.primary,
                custom_id=f"orders:pass:{game_id}:{turn}",
            )
        )
        self.game_id, self.turn = game_id, turn

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PassButton:
        return cls(int(match["game"]), int(match["turn"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        await interaction.response.defer()
        try:
            before = await service.master.games.get_game(self.game_id)
            after = await service.master.play.submit(self.game_id, actor_of(interaction), expected_turn=self.turn)
        except USER_ERRORS as err:
            await send_error(interaction, str(err))
            return
        await interaction.edit_original_response(content=after_pass(service.presenter, before, after), view=None)
        await refresh_lobby(interaction.client, after)


def pass_view(game: Game) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PassButton(game.id, game.row.turn))
    return view


def _answer_button(choice: str, yes: str, no: str, custom_id: str) -> discord.ui.Button:
    """One of a yes/no question's two buttons: yes in red, no in grey."""
    label, style = (yes, discord.ButtonStyle.danger) if choice == "yes" else (no, discord.ButtonStyle.secondary)
    return discord.ui.Button(label=label, style=style, custom_id=custom_id)


class Question:
    """A yes/no button under a question asked one user privately before something that cannot be
    undone; ``confirmed`` does it, a "no" leaves the words ``declined``."""

    choice: str
    user_id: int
    declined: str

    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.user_id:
            await send_error(interaction, tr("this question was for someone else"))
            return
        if self.choice == "no":
            await interaction.response.edit_message(content=tr(self.declined), view=None)
            return
        await interaction.response.defer()
        await self.confirmed(interaction)

    async def confirmed(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError


class SurrenderButton(
    Question,
    RepliesInUsersLanguage,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"surrender:(?P<choice>yes|no):(?P<game>[0-9]+):(?P<user>[0-9]+)",
):
    declined = mark("You keep playing.")

    def __init__(self, choice: str, game_id: int, user_id: int):
        custom_id = f"surrender:{choice}:{game_id}:{user_id}"
        super().__init__(_answer_button(choice, tr("Surrender"), tr("Keep playing"), custom_id))
        self.choice, self.game_id, self.user_id = choice, game_id, user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SurrenderButton:
        return cls(match["choice"], int(match["game"]), int(match["user"]))

    async def confirmed(self, interaction: discord.Interaction) -> None:
        try:
            await service_of(interaction).master.play.surrender(self.game_id, actor_of(interaction))
        except USER_ERRORS as err:
            await send_error(interaction, str(err))
            return
        await interaction.edit_original_response(
            content=tr("You surrendered game #{number}.", number=self.game_id), view=None
        )


def _question(answer: Callable[[str], discord.ui.Item[Any]]) -> discord.ui.View:
    """A yes/no question's two buttons, made by ``answer`` for each choice."""
    view = discord.ui.View(timeout=None)
    for choice in ("yes", "no"):
        view.add_item(answer(choice))
    return view


def surrender_view(game: Game, user_id: int) -> discord.ui.View:
    return _question(lambda choice: SurrenderButton(choice, game.id, user_id))


class KickButton(
    Question,
    RepliesInUsersLanguage,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"kick:(?P<choice>yes|no):(?P<game>[0-9]+):(?P<player>[0-9]+):(?P<user>[0-9]+)",
):
    """The manager's confirmation before a human player is removed (a computer goes at once)."""

    declined = mark("Nobody was removed.")

    def __init__(self, choice: str, game_id: int, player_id: int, user_id: int):
        custom_id = f"kick:{choice}:{game_id}:{player_id}:{user_id}"
        super().__init__(_answer_button(choice, tr("Remove"), tr("Keep"), custom_id))
        self.choice, self.game_id, self.player_id, self.user_id = choice, game_id, player_id, user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> KickButton:
        return cls(match["choice"], int(match["game"]), int(match["player"]), int(match["user"]))

    async def confirmed(self, interaction: discord.Interaction) -> None:
        await kick(interaction, self.game_id, self.player_id, edit=True)


async def kick(interaction: discord.Interaction, game_id: int, player_id: int, *, edit: bool = False) -> None:
    """Remove the player and say so to the manager (in the confirmation's place, with ``edit``)."""
    service = service_of(interaction)
    try:
        before = await service.master.games.get_game(game_id)
        name = next((player_name(before, p) for p in before.players if p.id == player_id), "?")
        updated = await service.master.lobby.kick(game_id, actor_of(interaction), player_id)
    except USER_ERRORS as err:
        await send_error(interaction, str(err))
        return
    text = tr("Removed {who} from game #{number}.", who=name, number=game_id)
    if edit:
        await interaction.edit_original_response(content=text, view=None)
    else:
        await interaction.followup.send(text, ephemeral=True)
    await refresh_lobby(interaction.client, updated)


def kick_view(game: Game, player_id: int, user_id: int) -> discord.ui.View:
    return _question(lambda choice: KickButton(choice, game.id, player_id, user_id))


class RematchButton(
    RepliesInUsersLanguage, discord.ui.DynamicItem[discord.ui.Button], template=r"rematch:(?P<game>\d+)"
):
    """Under a finished game: a new lobby in the game's channel with the same players and options."""

    def __init__(self, game_id: int):
        super().__init__(
            discord.ui.Button(label=tr("Rematch"), style=discord.ButtonStyle.primary, custom_id=f"rematch:{game_id}")
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RematchButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            game, new = await service.master.lobby.rematch(self.game_id, actor_of(interaction))
            if new:  # its card and thread, and the same in each server the game was mirrored in
                game = await shows_games(interaction.client, service)(game)
        except USER_ERRORS as err:
            await send_error(interaction, str(err))
            return
        thread, _ = await seen_in(service, game, interaction.guild_id)
        where = f"<#{thread}>" if thread else tr("its thread is being opened")
        text = (
            tr(
                "Rematch: game #{number} is open: {where}. Everyone is seated; the creator presses **Start**.",
                number=game.id,
                where=where,
            )
            if new
            else tr(
                "Rematch: game #{number} was opened already: {where}. Everyone is seated; the creator presses **Start**.",
                number=game.id,
                where=where,
            )
        )
        await interaction.followup.send(text, ephemeral=True)


def rematch_view(game: Game) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game.id))
    return view


class TakeSeatButton(
    RepliesInUsersLanguage,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"takeseat:(?P<game>\d+):(?P<seat>\d+)",
):
    """Under a post saying a computer plays on in a seat: a member not in the game takes it over (or
    asks the creator to let him)."""

    def __init__(self, game_id: int, seat: int):
        super().__init__(
            discord.ui.Button(
                label=tr("Take this seat"), style=discord.ButtonStyle.primary, custom_id=f"takeseat:{game_id}:{seat}"
            )
        )
        self.game_id, self.seat = game_id, seat

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TakeSeatButton:
        return cls(int(match["game"]), int(match["seat"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await take_computer_seat(interaction, self.game_id, self.seat)


async def take_computer_seat(interaction: discord.Interaction, game_id: int, seat: int) -> None:
    """The member takes the computer's ``seat`` over, or asks the creator (a post in the thread with
    Approve / Decline): the answer to **Take this seat** and ``/game take-seat`` (already deferred)."""
    service = service_of(interaction)
    try:
        taken = await service.master.seats.take(game_id, seat, actor_of(interaction))
    except USER_ERRORS as err:
        await send_error(interaction, str(err))
        return
    game = taken.game
    if taken.taken:
        text = tr(
            "The seat is yours: you play on in game #{number} from here. Your orders: `/orders show`.", number=game.id
        )
        await interaction.followup.send(text, ephemeral=True)
        await refresh_lobby(interaction.client, game)
        return
    if not taken.new:
        text = tr("You asked already; the creator of game #{number} decides.", number=game.id)
        await interaction.followup.send(text, ephemeral=True)
        return
    creator = game.row.creator_id
    try:
        thread = await fetch_game_channel(interaction.client, game.row.thread_id or game.row.channel_id)
        with using(await server_language(interaction.client, game.row.guild_id)):
            await thread.send(
                tr(
                    "<@{creator}>: {member} asks to take over the seat {mark} in game #{number}.",
                    creator=creator,
                    member=f"<@{interaction.user.id}>",
                    mark=COLOUR_EMOJI[seat],
                    number=game.id,
                ),
                view=_answer_view(game.id, seat, interaction.user.id),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(creator)]),
            )
    except discord.HTTPException as err:  # no request the creator cannot see: asked again, it is new
        log.info("seat request in game #%s not posted: %s", game.id, err)
        await service.master.seats.withdraw(game.id, seat, interaction.user.id)
        await send_error(interaction, tr("I could not post your request in the game's thread; press again later"))
        return
    text = tr("You asked to take this seat over; the creator of game #{number} decides.", number=game.id)
    await interaction.followup.send(text, ephemeral=True)


class SeatAnswerButton(
    RepliesInUsersLanguage,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"seatanswer:(?P<game>\d+):(?P<seat>\d+):(?P<user>\d+):(?P<yes>[01])",
):
    """The creator's Approve / Decline under a member's request to take a seat over."""

    def __init__(self, game_id: int, seat: int, user_id: int, approve: bool):
        super().__init__(
            discord.ui.Button(
                label=tr("Approve") if approve else tr("Decline"),
                style=discord.ButtonStyle.success if approve else discord.ButtonStyle.secondary,
                custom_id=f"seatanswer:{game_id}:{seat}:{user_id}:{int(approve)}",
            )
        )
        self.game_id, self.seat, self.user_id, self.approve = game_id, seat, user_id, approve

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SeatAnswerButton:
        return cls(int(match["game"]), int(match["seat"]), int(match["user"]), match["yes"] == "1")

    async def callback(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        try:
            game = await service.master.seats.answer(
                self.game_id, self.seat, self.user_id, actor_of(interaction), approve=self.approve
            )
        except USER_ERRORS as err:
            await send_error(interaction, str(err))
            return
        with using(await server_language(interaction.client, game.row.guild_id)):
            text = (
                tr("✅ {member} takes over the seat {mark}.", member=f"<@{self.user_id}>", mark=COLOUR_EMOJI[self.seat])
                if self.approve
                else tr("The request of {member} was declined.", member=f"<@{self.user_id}>")
            )
        await interaction.response.edit_message(
            content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
        )
        if self.approve:
            await refresh_lobby(interaction.client, game)


def _answer_view(game_id: int, seat: int, user_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(SeatAnswerButton(game_id, seat, user_id, True))
    view.add_item(SeatAnswerButton(game_id, seat, user_id, False))
    return view


def take_seat_view(game: Game, seat: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(TakeSeatButton(game.id, seat))
    return view
