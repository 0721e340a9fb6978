"""Posts the game master's announcements into each game's thread (and reminders by DM).

Every post carries the announcement id as its nonce with ``enforce_nonce``: when a delivery is
retried after a crash or a timeout, Discord returns the first message instead of posting twice.
Past Discord's nonce window, a retry looks for its earlier post instead (``cogs.redelivery``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from cogs.buttons import rematch_view
from cogs.common import (
    COLOUR_EMOJI,
    GameChannel,
    client_service,
    fetch_game_channel,
    plain,
    png_file,
    replay_file,
    when,
)
from cogs.embeds import result_lines
from cogs.lobby import LobbyCards
from cogs.redelivery import posted_before
from cogs.translator import server_language
from i18n import mark, ntr, tr, using
from service.errors import GameError, GameNotFound
from service.models import RUNNING, Announcement, Game
from service.outbox import Undeliverable
from service.presenter import numbered_turn

if TYPE_CHECKING:
    from service.runtime import GameService

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()


# Why a seat left, as the event lines quote it ("left the game (time ran out)").
REASONS = (mark("surrender"), mark("missed turns"), mark("time ran out"), mark("kicked"))

DEPARTURES = {
    "surrender": mark("{player} surrendered"),
    "missed turns": mark("{player} was removed after missing turns in a row"),
    "time ran out": mark("{player} ran out of time"),
    "kicked": mark("{player} was removed by a manager"),
}


def _turn(payload: dict, *, capital: bool = True) -> str:
    """The announced turn by its ruleset's name and count ("Round 4", "move phase 7 of 12"); posts
    queued before turns carried their count say the service's turn number."""
    number = payload.get("number", payload["turn"])
    return numbered_turn(payload.get("unit", "turn"), number, payload.get("of"), capital=capital)


def _fit(lines: list[str], limit: int = 1900) -> str:
    text = "\n".join(lines)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class DiscordAnnouncer:
    def __init__(self, client: discord.Client, cards: LobbyCards):
        self.client, self.cards = client, cards
        self.handlers: dict[str, Callable[[Announcement, Game, GameChannel], Awaitable[None]]] = {
            "game_started": self._started,
            "round_resolved": self._resolved,
            "turn_started": self._turn_started,
            "reminder": self._reminder,
            "player_removed": self._removed,
            "game_over": self._over,
            "replay": self._replay,
            "draw_proposed": self._draw,
            "game_cancelled": self._plain,
            "paused": self._plain,
            "resumed": self._plain,
            "extended": self._plain,
        }

    @property
    def service(self) -> GameService:
        return client_service(self.client)

    async def deliver(self, announcement: Announcement) -> None:
        """Post it; a deleted thread or a channel the bot may no longer write to will never work: give up."""
        try:
            game = await self.service.master.get_game(announcement.game_id)
            channel = await self._channel(game.row.thread_id or game.row.channel_id)
            with using(await server_language(self.client, game.row.guild_id)):
                await self.handlers[announcement.kind](announcement, game, channel)
        except (discord.NotFound, discord.Forbidden, GameNotFound) as err:
            raise Undeliverable(str(err)) from err
        if announcement.kind != "reminder":  # the card shows the game as it is now, once the posts are out
            self.cards.refresh_later(game.id)

    async def _channel(self, channel_id: int) -> GameChannel:
        return await fetch_game_channel(self.client, channel_id)

    async def _post(
        self,
        channel: discord.abc.Messageable,
        a: Announcement,
        text: str,
        *,
        file: discord.File | None = None,
        view: discord.ui.View | None = None,
        pings: list[int] | None = None,
    ) -> None:
        """Post it once; only the users in ``pings`` are notified (players mentioned elsewhere are not)."""
        if await posted_before(self.client, channel, a, self.service.clock.now(), text[:2000]):
            return
        kwargs: dict[str, Any] = {"file": file} if file else {}
        if view is not None:
            kwargs["view"] = view
        mentions = discord.AllowedMentions(users=[discord.Object(u) for u in pings]) if pings else NO_PINGS
        await channel.send(text[:2000], nonce=f"a{a.id}", allowed_mentions=mentions, **kwargs)

    async def _post_with_call(
        self, channel: discord.abc.Messageable, a: Announcement, game: Game, lines: list[str], **kwargs
    ) -> None:
        """Post the lines (cut to fit), then the new turn's call to play when this post carries it."""
        call = a.payload.get("next_turn")
        text = self._call(call, game) if call else None
        if call is None or text is None:
            await self._post(channel, a, _fit(lines), **kwargs)
            return
        shown = _fit(lines, max(200, 1990 - len(text)))
        await self._post(channel, a, f"{shown}\n{text}", pings=call["user_ids"], **kwargs)

    def _mention(self, game: Game, seat: int) -> str:
        player = game.player_at(seat)
        if player is None:
            return tr("seat {number}", number=seat)
        return f"{COLOUR_EMOJI[seat]} " + (f"<@{player.user_id}>" if player.user_id else f"🤖 {player.shown_name}")

    def _title(self, game: Game) -> str:
        return self.service.presenter.title(game)

    async def _board(self, game: Game, seq: int, title: str | None = None) -> discord.File:
        data = await self.service.presenter.board(game, seq=seq, title=title)
        return png_file(data, f"game-{game.id}-{seq:04d}.png")

    async def _started(self, a: Announcement, game: Game, channel: GameChannel) -> None:
        seats = "\n".join(
            self._mention(game, p.seat) for p in sorted(game.players, key=lambda p: p.seat or 0) if p.seat is not None
        )
        text = tr(
            "**{game} has started!**\n{seats}\nRules: `/rules {ruleset}`.",
            game=self._title(game),
            seats=seats,
            ruleset=game.row.ruleset,
        )
        await self._post_with_call(
            channel, a, game, [text], file=await self._board(game, a.payload["seq"], tr("Start"))
        )

    async def _resolved(self, a: Announcement, game: Game, channel: GameChannel) -> None:
        lines = [f"**{_turn(a.payload)}.**"]
        lines += self.service.presenter.event_lines(game, a.payload["events"], shown=plain)
        limit = a.payload.get("missed_limit")
        for seat, count in a.payload.get("missed", []):
            lines.append(
                tr(
                    "{player} missed this {unit} ({count} of {limit} in a row).",
                    player=self._mention(game, seat),
                    unit=tr(a.payload.get("unit", "turn")),
                    count=count,
                    limit=limit,
                )
            )
        await self._post_with_call(channel, a, game, lines, file=await self._board(game, a.payload["seq"]))

    async def _turn_started(self, a: Announcement, game: Game, channel: GameChannel) -> None:
        text = self._call(a.payload, game)
        if text is not None:
            await self._post(channel, a, text, pings=a.payload["user_ids"])

    def _call(self, call: dict, game: Game) -> str | None:
        """A turn's call to play, naming who must play it; None when there is nobody to call (only
        computers act, or the game is no longer running)."""
        if game.row.status != RUNNING or not call["user_ids"]:
            return None
        pings = " ".join(f"<@{user}>" for user in call["user_ids"])
        deadline = when(call["deadline_at"]) if call["deadline_at"] else tr("no deadline")
        turn = _turn(call, capital=False)
        if call.get("secret", True):
            text = tr(
                "{pings} — {turn}: give your orders with `/orders give`, check them with "
                "`/orders show`, then `/orders pass`. Deadline: {deadline}.",
                pings=pings,
                turn=turn,
                deadline=deadline,
            )
        else:
            text = tr(
                "{pings} — your turn ({turn}): play it with `/orders send`. Deadline: {deadline}.",
                pings=pings,
                turn=turn,
                deadline=deadline,
            )
        hint = call.get("hint")
        if hint:
            text += "\n" + tr("To play: {hint}.", hint=tr(hint))
        return text

    async def _reminder(self, a: Announcement, game: Game, channel: GameChannel) -> None:
        where = f"<#{game.row.thread_id}>" if game.row.thread_id else f"<#{game.row.channel_id}>"
        count = len(a.payload["user_ids"])
        given = a.payload.get("orders", [0] * count)
        last_chance = a.payload.get("last_chance", [False] * count)
        for index, user_id in enumerate(a.payload["user_ids"]):
            if not (await self.service.master.settings_of(user_id)).dm_reminders:
                continue  # turned off since this reminder was planned
            dm = await self.client.create_dm(discord.Object(user_id))
            deadline = when(a.payload["deadline_at"])
            lines = [
                tr(
                    "⏰ {game}, {turn}: the deadline is {deadline}. {where}",
                    game=self._title(game),
                    turn=_turn(a.payload, capital=False),
                    deadline=deadline,
                    where=where,
                )
            ]
            if given[index] and not a.payload.get("orders_stand"):
                lines.append(
                    ntr(
                        "You gave {n} order but did not pass: **it is thrown away at the deadline** "
                        "unless you `/orders pass`.",
                        "You gave {n} orders but did not pass: **they are thrown away at the deadline** "
                        "unless you `/orders pass`.",
                        given[index],
                    )
                )
            elif not given[index]:
                lines.append(tr("You have given no orders yet."))
            if last_chance[index]:
                lines.append(tr("⚠️ One more missed turn removes you from the game."))
            text = "\n".join(lines)
            if await posted_before(self.client, dm, a, self.service.clock.now(), text):
                continue
            try:
                await dm.send(text, nonce=f"a{a.id}u{index}")
            except discord.Forbidden:
                log.info("user %s does not accept DMs; reminder skipped", user_id)

    def _departure(self, game: Game, seat: int, reason: str) -> str:
        """ "🟥 <@1> ran out of time": a seat leaving, as players read it."""
        who = self._mention(game, seat)
        if reason in DEPARTURES:
            return tr(DEPARTURES[reason], player=who)
        return tr("{player} left ({reason})", player=who, reason=reason)

    async def _removed(self, a: Announcement, game: Game, channel: GameChannel) -> None:
        consequences = self.service.presenter.event_lines(game, a.payload.get("events", []), shown=plain)
        left = self._departure(game, a.payload["seat"], a.payload["reason"])
        await self._post_with_call(channel, a, game, [f"{left}.", *consequences])

    async def _over(self, a: Announcement, game: Game, channel: GameChannel) -> None:
        result = a.payload["result"]
        reason = result.get("reason")
        if result.get("departure"):  # the game ended because this seat left: say so first
            left = self._departure(game, result["departure"]["seat"], result["departure"]["reason"])
            reason = tr("{departure}, so {reason}", departure=left, reason=tr(reason)) if reason else left
        elif reason:
            reason = tr(reason)
        over = (
            tr("🏁 **{game} is over**: {reason}.", game=self._title(game), reason=reason)
            if reason
            else tr("🏁 **{game} is over**.", game=self._title(game))
        )
        lines = [over, *result_lines(game)]
        final = tr("Final position")
        board = await self._board(game, a.payload["seq"], final) if a.payload.get("board", True) else None
        await self._post(channel, a, _fit(lines), file=board, view=rematch_view(game))

    async def _replay(self, a: Announcement, game: Game, channel: GameChannel) -> None:
        """The whole game animated, after its final board; a game over before its first turn has none."""
        if await self.service.master.resolved_turns(game.id) == 0:
            return
        try:
            replay = await self.service.presenter.replay(game, channel.guild.filesize_limit)
        except GameError as err:  # it could never fit: the game's other posts go on without it
            log.warning("game #%s: no replay posted: %s", game.id, err)
            return
        await self._post(channel, a, replay.text, file=replay_file(replay))

    async def _draw(self, a: Announcement, game: Game, channel: GameChannel) -> None:
        lines = [
            tr(
                "{player} proposes a draw. "
                "Everyone still playing can agree with `/game draw` (an offer lasts until the turn ends).",
                player=self._mention(game, a.payload["seat"]),
            )
        ]
        lines += [
            tr("{player} is ahead and declines.", player=self._mention(game, seat))
            for seat in a.payload.get("declined", [])
        ]
        await self._post(channel, a, "\n".join(lines))

    async def _plain(self, a: Announcement, game: Game, channel: GameChannel) -> None:
        by = f"<@{a.payload['by']}>"
        texts = {
            "game_cancelled": lambda: tr("{game} was cancelled by {user}.", game=self._title(game), user=by),
            "paused": lambda: tr("⏸️ {user} paused the game; the clock is stopped.", user=by),
            "resumed": lambda: tr(
                "▶️ {user} resumed the game. Deadline: {deadline}.", user=by, deadline=when(game.row.deadline_at)
            ),
            "extended": lambda: tr(
                "{user} gave this turn more time. Deadline: {deadline}.",
                user=by,
                deadline=when(a.payload.get("deadline_at")),
            ),
        }
        await self._post(channel, a, texts[a.kind]())
