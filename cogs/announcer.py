"""Posts the game master's announcements into each game's thread (and reminders by DM).

Every post carries the announcement id as its nonce with ``enforce_nonce``: when a delivery is
retried after a crash or a timeout, Discord returns the first message instead of posting twice.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord

from cogs.board import board_file
from cogs.common import COLOUR_EMOJI, game_title, when
from cogs.embeds import result_lines
from engine import Event
from render.summary import describe_events
from service import GameMaster
from service.errors import GameNotFound
from service.models import RUNNING, Announcement, Game
from service.outbox import Undeliverable

log = logging.getLogger(__name__)

PING_USERS = discord.AllowedMentions(users=True, roles=False, everyone=False)
NO_PINGS = discord.AllowedMentions.none()


def _fit(lines: list[str], limit: int = 1900) -> str:
    text = "\n".join(lines)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class DiscordAnnouncer:
    def __init__(self, client: discord.Client):
        self.client = client
        self.handlers: dict[str, Callable[[Announcement, Game, discord.abc.Messageable], Awaitable[None]]] = {
            "game_started": self._started,
            "round_resolved": self._resolved,
            "turn_started": self._turn,
            "reminder": self._reminder,
            "player_removed": self._removed,
            "game_over": self._over,
            "draw_proposed": self._draw,
            "game_cancelled": self._plain,
            "paused": self._plain,
            "resumed": self._plain,
            "extended": self._plain,
        }

    @property
    def master(self) -> GameMaster:
        return self.client.master

    async def deliver(self, announcement: Announcement) -> None:
        """Post it; a deleted thread or a channel the bot may no longer write to will never work: give up."""
        try:
            game = await self.master.get_game(announcement.game_id)
            channel = await self._channel(game.row.thread_id or game.row.channel_id)
            await self.handlers[announcement.kind](announcement, game, channel)
        except (discord.NotFound, discord.Forbidden, GameNotFound) as err:
            raise Undeliverable(str(err)) from err

    async def _channel(self, channel_id: int) -> discord.abc.Messageable:
        return self.client.get_channel(channel_id) or await self.client.fetch_channel(channel_id)

    async def _post(
        self,
        channel: discord.abc.Messageable,
        a: Announcement,
        text: str,
        *,
        file: discord.File | None = None,
        pings: bool = False,
    ) -> None:
        kwargs = {"file": file} if file else {}
        await channel.send(text[:2000], nonce=f"a{a.id}", allowed_mentions=PING_USERS if pings else NO_PINGS, **kwargs)

    def _simultaneous(self, game: Game) -> bool:
        """Whether everybody orders at once (rounds) or one player at a time (moves)."""
        rs = self.master.ruleset(game.row)
        return game.row.state is not None and rs.orders_are_secret(rs.from_dict(game.row.state))

    def _turn_word(self, game: Game) -> str:
        return "Round" if self._simultaneous(game) else "Move"

    def _mention(self, game: Game, seat: int) -> str:
        player = game.player_at(seat)
        if player is None:
            return f"seat {seat}"
        return f"{COLOUR_EMOJI[seat]} " + (f"<@{player.user_id}>" if player.user_id else f"🤖 {player.name}")

    async def _board(self, game: Game, seq: int, title: str | None = None) -> discord.File:
        state = await self.master.state_at(game.id, seq)
        return await asyncio.to_thread(
            board_file, self.master, game, state, title=title, filename=f"game-{game.id}-{seq:04d}.png"
        )

    async def _started(self, a: Announcement, game: Game, channel) -> None:
        seats = "\n".join(
            self._mention(game, p.seat) for p in sorted(game.players, key=lambda p: p.seat or 0) if p.seat is not None
        )
        text = f"**{game_title(game, self.master)} has started!**\n{seats}\nRules: `/rules`."
        await self._post(channel, a, text, file=await self._board(game, a.payload["seq"], "Start"))

    async def _resolved(self, a: Announcement, game: Game, channel) -> None:
        events = [Event.from_dict(e) for e in a.payload["events"]]
        lines = [f"**{self._turn_word(game)} {a.payload['turn']}.**"]
        lines += describe_events(self.master.ruleset(game.row), events, game.names())
        await self._post(channel, a, _fit(lines), file=await self._board(game, a.payload["seq"]))

    async def _turn(self, a: Announcement, game: Game, channel) -> None:
        if game.row.status != RUNNING or not a.payload["user_ids"]:
            return
        pings = " ".join(f"<@{user}>" for user in a.payload["user_ids"])
        deadline = when(a.payload["deadline_at"]) if a.payload["deadline_at"] else "no deadline"
        if self._simultaneous(game):
            text = (
                f"{pings} — round {a.payload['turn']}: give your orders with `/orders give`, check them with "
                f"`/orders show`, then `/orders pass`. Deadline: {deadline}."
            )
        else:
            text = f"{pings} — your move ({a.payload['turn']}): play it with `/orders send`. Deadline: {deadline}."
        await self._post(channel, a, text, pings=True)

    async def _reminder(self, a: Announcement, game: Game, channel) -> None:
        where = f"<#{game.row.thread_id}>" if game.row.thread_id else f"<#{game.row.channel_id}>"
        for index, user_id in enumerate(a.payload["user_ids"]):
            channel = await self.client.create_dm(discord.Object(user_id))
            text = (
                f"⏰ {game_title(game, self.master)}, {self._turn_word(game).lower()} {a.payload['turn']}: your orders are due "
                f"{when(a.payload['deadline_at'])}. {where}"
            )
            try:
                await channel.send(text, nonce=f"a{a.id}u{index}")
            except discord.Forbidden:
                log.info("user %s does not accept DMs; reminder skipped", user_id)

    async def _removed(self, a: Announcement, game: Game, channel) -> None:
        reasons = {
            "surrender": "surrendered",
            "missed turns": "was removed after missing turns in a row",
            "time ran out": "ran out of time",
            "kicked": "was removed by a manager",
        }
        why = reasons.get(a.payload["reason"], f"left ({a.payload['reason']})")
        await self._post(channel, a, f"{self._mention(game, a.payload['seat'])} {why}; their cells turn neutral.")

    async def _over(self, a: Announcement, game: Game, channel) -> None:
        lines = [f"🏁 **{game_title(game, self.master)} is over.**", *result_lines(game)]
        await self._post(channel, a, _fit(lines), file=await self._board(game, a.payload["seq"], "Final position"))

    async def _draw(self, a: Announcement, game: Game, channel) -> None:
        await self._post(
            channel,
            a,
            f"{self._mention(game, a.payload['seat'])} proposes a draw. "
            "Everyone still playing can agree with `/game draw`.",
        )

    async def _plain(self, a: Announcement, game: Game, channel) -> None:
        by = f"<@{a.payload['by']}>"
        texts = {
            "game_cancelled": f"{game_title(game, self.master)} was cancelled by {by}.",
            "paused": f"⏸️ {by} paused the game; the clock is stopped.",
            "resumed": f"▶️ {by} resumed the game. Deadline: {when(game.row.deadline_at)}.",
            "extended": f"{by} gave this round more time. Deadline: {when(a.payload.get('deadline_at'))}.",
        }
        await self._post(channel, a, texts[a.kind])
