"""Sends the posts of the game master's announcements into each game's thread (and reminders by DM);
what they say is ``service.posts``'s.

Every post carries the announcement id as its nonce with ``enforce_nonce``: when a delivery is
retried after a crash or a timeout, Discord returns the first message instead of posting twice.
Past Discord's nonce window, a retry looks for its earlier post instead (``cogs.redelivery``).

A post the bot lacks a permission for is held back, never given up (``Blocked``): the game's clock
stops meanwhile and its creator and server owner are told once (each notice until it gets through);
the first post that gets through restarts it.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from cogs.buttons import rematch_view, take_seat_view
from cogs.common import (
    GameChannel,
    client_service,
    fetch_game_channel,
    fitted,
    in_parts,
    lacking,
    plain,
    png_file,
    upload_file,
)
from cogs.lobby import LobbyCards, web_button
from cogs.matchmaking import check_post
from cogs.ratings import leaderboard_lines
from cogs.redelivery import posted_before
from cogs.tournament_card import refresh_card
from cogs.translator import server_language
from i18n import current, tr, using
from service.announcements import BackInReach, Reminder
from service.errors import GameNotFound
from service.models import Announcement, Game
from service.posts import DirectMessage, Post, in_words
from service.presenter import halves
from service.runtime.outbox import Blocked, Undeliverable
from service.storage.tournaments import CANCELLED

if TYPE_CHECKING:
    from service.ops.ratings import Standing
    from service.ops.tournaments import News
    from service.runtime.gameservice import GameService
    from service.storage.matchmaking import Check, CheckPost, Member
    from service.storage.seasons import Season
    from service.storage.tournaments import Table

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
MISSING_ACCESS, MISSING_PERMISSIONS = 50001, 50013  # Discord's codes for a permission the bot lacks
REFUSED = (MISSING_ACCESS, MISSING_PERMISSIONS)


def needed_for(channel: GameChannel, post: Post) -> list[str]:
    """The permissions ``post`` needs in ``channel`` (Discord's names for them)."""
    send = "send_messages_in_threads" if isinstance(channel, discord.Thread) else "send_messages"
    return ["view_channel", send, *(["attach_files"] if post.uploads else [])]


def season_nonce(guild_id: int, number: int) -> str:
    """The nonce of a season's final post (Discord takes 25 characters at most)."""
    return hashlib.blake2b(f"season:{guild_id}:{number}".encode(), digest_size=12).hexdigest()


def tournament_nonce(tournament_id: int, step: int, part: int = 0) -> str:
    """The nonce of a tournament's post ``step`` (its ``part``-th message; Discord takes 25 characters at most)."""
    key = f"tournament:{tournament_id}:{step}" + (f":{part}" if part else "")
    return hashlib.blake2b(key.encode(), digest_size=12).hexdigest()


def check_nonce(check_id: int, channel_id: int) -> str:
    """The nonce of a ready check's post in a channel (Discord takes 25 characters at most)."""
    return hashlib.blake2b(f"check:{check_id}:{channel_id}".encode(), digest_size=12).hexdigest()


def hold_nonce(game_id: int, whom: str, since: float) -> str:
    """The nonce of one notice of one hold (Discord takes 25 characters at most)."""
    return hashlib.blake2b(f"{game_id}:{whom}:{since}".encode(), digest_size=12).hexdigest()


class DiscordAnnouncer:
    def __init__(self, client: discord.Client, cards: LobbyCards):
        self.client, self.cards = client, cards

    @property
    def service(self) -> GameService:
        return client_service(self.client)

    async def deliver(self, announcement: Announcement) -> None:
        """Post it; a deleted game or thread, or a server the bot left, will never work: give up. A
        post Discord refuses for a permission the bot lacks is held back (``Blocked``) until it has it:
        the game is held everywhere, in the servers it is mirrored in too, its clock stopped. The game's
        posts go on in those servers when its own thread is gone for good."""
        try:
            game = await self.service.master.games.get_game(announcement.game_id)
        except GameNotFound as err:
            raise Undeliverable(str(err)) from err
        made: dict[tuple[str, int], list[Post]] = {}  # the posts in each language and upload limit
        try:
            posts = await self._at_home(announcement, game, made)
        except Undeliverable:  # its own thread is gone for good: the game goes on where it is mirrored
            await self._mirror(announcement, game, made)
            await self._direct_only(announcement, game, made)
            raise
        finally:
            if announcement.kind != Reminder.kind:  # the cards show the game as it is now, once the posts are out
                self.cards.refresh_later(game.id)
        await self._mirror(announcement, game, made)
        if game.row.held_for is not None and any(post.dm is None for post in posts):
            await self.service.master.timekeeping.release(game.id)  # a post got through: the clock runs again

    async def _at_home(
        self, announcement: Announcement, game: Game, made: dict[tuple[str, int], list[Post]]
    ) -> list[Post]:
        """The announcement's posts in the game's own thread, and its direct messages; the posts made."""
        try:
            channel = await fetch_game_channel(self.client, game.row.thread_id or game.row.channel_id)
            with using(await server_language(self.client, game.row.guild_id)):
                posts = await self._made(announcement, game, channel.guild.filesize_limit, made)
                for post in posts:
                    if post.dm is None:
                        await self._post(channel, announcement, game, post)
                    else:
                        await self._direct(channel, announcement, game, post, post.dm)
        except discord.Forbidden as err:
            if err.code in REFUSED and self.client.get_guild(game.row.guild_id) is not None:
                missing = "view_channel" if err.code == MISSING_ACCESS else ""
                await self._hold(game, missing)  # a permission lost in a server the bot is still in
                raise Blocked(missing) from err
            raise Undeliverable(str(err)) from err
        except Blocked as err:
            await self._hold(game, err.missing)
            raise
        except discord.NotFound as err:
            raise Undeliverable(str(err)) from err
        return posts

    async def _direct_only(
        self, announcement: Announcement, game: Game, made: dict[tuple[str, int], list[Post]]
    ) -> None:
        """The announcement's direct messages when the game's own thread is gone for good and the game
        goes on where it is mirrored: a reminder is not a thread's post. Each is sent once, whatever
        reached its player before the thread failed."""
        if not await self.service.master.games.mirrors(game.id):
            return
        with using(await server_language(self.client, game.row.guild_id)):
            limits = [limit for language, limit in made if language == current()]
            posts = await self._made(
                announcement, game, limits[0] if limits else discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES, made
            )
            for post in posts:
                if post.dm is not None:
                    await self._direct(None, announcement, game, post, post.dm)

    async def _made(
        self, announcement: Announcement, game: Game, upload_limit: int, made: dict[tuple[str, int], list[Post]]
    ) -> list[Post]:
        """The announcement's posts in the current language, made once per language and upload limit
        (servers sharing them share the drawing of their boards)."""
        key = (current(), upload_limit)
        if key not in made:
            made[key] = await self.service.posts.posts(announcement, game, shown=plain, upload_limit=upload_limit)
        return made[key]

    async def _mirror(self, announcement: Announcement, game: Game, made: dict[tuple[str, int], list[Post]]) -> None:
        """The announcement's public posts in the game's thread in each server it is mirrored in, in
        that server's language (each thread its own nonce: once each). A mirror's thread that is gone or
        refuses the bot is passed by: the game goes on in the others, its clock not stopped for it."""
        if announcement.kind == BackInReach.kind:  # about the game's own thread only
            return
        for k, mirror in enumerate(await self.service.master.games.mirrors(game.id), start=1):
            if mirror.thread_id is None:  # not shown there yet: its thread starts with the game's card
                continue
            try:
                thread = await fetch_game_channel(self.client, mirror.thread_id)
                with using(await server_language(self.client, mirror.guild_id)):
                    posts = await self._made(announcement, game, thread.guild.filesize_limit, made)
                    for post in posts:
                        if post.dm is None:
                            await self._post(thread, announcement, game, post, f"a{announcement.id}m{k}")
            except (discord.Forbidden, discord.NotFound, Blocked) as err:
                log.warning("game #%s: a post cannot reach its thread in server %s: %s", game.id, mirror.guild_id, err)

    async def post_season_end(self, season: Season, number: int, tables: list[tuple[str, list[Standing]]]) -> None:
        """The season's final tables, in the server's language, where its managers asked for them; a
        retry after a crash is the same post (its nonce), never a second one."""
        try:
            channel = await fetch_game_channel(self.client, season.channel_id)
            with using(await server_language(self.client, season.guild_id)):
                lines = [tr("🏁 **Season {number} is over.** Its final tables:", number=number)]
                for ruleset, board in tables:
                    lines += ["", f"**{self.service.presenter.ruleset_title(ruleset)}**", *leaderboard_lines(board)]
                text = fitted("\n".join(lines))
            await channel.send(text, nonce=season_nonce(season.guild_id, number), allowed_mentions=NO_PINGS)
        except (discord.Forbidden, discord.NotFound) as err:
            raise Undeliverable(str(err)) from err

    async def post_tournament(self, news: News) -> None:
        """A round's tables (with the standings before it), the end or a cancellation, in the
        tournament's channel in the server's language; the card shows the tournament as it is now. A
        retry after a crash is the same post (its nonce), never a second one."""
        t = news.tournament
        try:
            channel = await fetch_game_channel(self.client, t.channel_id)
            with using(await server_language(self.client, t.guild_id)):
                parts = in_parts(await self._tournament_text(news))  # a large round's tables take several
                kwargs: dict[str, Any] = {}
                if news.standings and (news.step > 1 or news.over):
                    through = min(news.step - 1, t.rounds)
                    picture = await self.service.presenter.standings_image(t, news.standings, through)
                    kwargs["file"] = png_file(picture, "standings.png")
            for n, part in enumerate(parts):  # the standings under the last part
                extra = kwargs if n == len(parts) - 1 else {}
                await channel.send(part, nonce=tournament_nonce(t.id, news.step, n), allowed_mentions=NO_PINGS, **extra)
        except (discord.Forbidden, discord.NotFound) as err:
            raise Undeliverable(str(err)) from err
        if news.step == 1 or news.over or t.status == CANCELLED:
            await refresh_card(self.client, self.service, t.id)

    async def show_ready_check(self, check: Check, members: list[Member], post: CheckPost) -> int:
        """Post a ready check in one channel its players queued from, in that server's language,
        pinging those who queued there (its nonce keeps a retry single), or edit that post to the
        check's state now; the post's id."""
        try:
            channel = await fetch_game_channel(self.client, post.channel_id)
            with using(await server_language(self.client, post.guild_id)):
                content, view = check_post(self.service, check, members)
            if post.message_id is not None:
                message = await channel.get_partial_message(post.message_id).edit(
                    content=content, view=view, allowed_mentions=NO_PINGS
                )
                return message.id
            here = [m.user_id for m in members if m.channel_id == post.channel_id]
            pings = discord.AllowedMentions(users=[discord.Object(user) for user in here])
            kwargs: dict[str, Any] = {"view": view} if view is not None else {}
            nonce = check_nonce(check.id, post.channel_id)
            posted = await channel.send(content, nonce=nonce, allowed_mentions=pings, **kwargs)
            return posted.id
        except (discord.Forbidden, discord.NotFound) as err:
            raise Undeliverable(str(err)) from err

    async def _tournament_text(self, news: News) -> str:
        t = news.tournament
        game = self.service.presenter.ruleset_title(t.ruleset)
        if t.status == CANCELLED:
            return tr(
                "🏆 **Tournament #{number}** ({game}) is cancelled: it did not start ({count} players signed up).",
                number=t.id,
                game=game,
                count=len(news.entrants),
            )
        if news.over:
            best = news.standings[0]
            return tr(
                "🏁 **Tournament #{number}** ({game}) is over. Winner: <@{winner}> with {points} points. "
                "The final standings:",
                number=t.id,
                game=game,
                winner=best.entrant.user_id,
                points=halves(best.points),
            )
        lines = [
            tr(
                "🏆 **Tournament #{number}** ({game}): round {round} of {rounds} is open.",
                number=t.id,
                game=game,
                round=news.step,
                rounds=t.rounds,
            )
        ]
        for table in news.tables:
            lines.append(await self._table_line(table))
        if news.step > 1:
            lines.append(tr("The standings after round {round}:", round=news.step - 1))
        return "\n".join(lines)

    async def _table_line(self, table: Table) -> str:
        """One table of a round: its members by mention (pinging no one) and where its game is."""
        members = [f"<@{user}>" for user in table.seats]
        if len(members) == 1:
            return tr("{player}: a bye", player=members[0])
        players = (
            tr("{first} vs {second}", first=members[0], second=members[1]) if len(members) == 2 else ", ".join(members)
        )
        if table.game_id is None and table.points is not None:
            return tr("Table {board}: {players} — not played (a withdrawal)", board=table.board, players=players)
        if table.game_id is None:  # it could not open yet (its channel full, say): the sweep tries again
            return tr("Table {board}: {players} — its game opens shortly", board=table.board, players=players)
        game = await self.service.master.games.get_game(table.game_id)
        where = f"<#{game.row.thread_id}>" if game.row.thread_id is not None else f"#{game.id}"
        return tr("Table {board}: {players} — game {where}", board=table.board, players=players, where=where)

    async def _post(self, channel: GameChannel, a: Announcement, game: Game, post: Post, nonce: str = "") -> None:
        """Post it once (``nonce``: the announcement's own, unless one announcement posts several);
        only the users it pings are notified (players mentioned elsewhere are not)."""
        missing = lacking(channel, needed_for(channel, post))
        if blocking := [name for name in missing if name != "attach_files"]:
            raise Blocked(",".join(blocking))  # asked anyway, Discord would refuse it (and count it against the bot)
        if missing:  # no images here: the post in words
            post = in_words(post)
        if await posted_before(self.client, channel, a, self.service.clock.now(), post.text):
            return
        kwargs: dict[str, Any] = {"files": [upload_file(upload) for upload in post.uploads]} if post.uploads else {}
        if post.rematch:
            kwargs["view"] = rematch_view(game)
        elif post.take_seat is not None:
            kwargs["view"] = take_seat_view(game, post.take_seat)
        # A post with a board links to the game's page, where the board is whole and every turn is.
        if post.uploads and (url := await self.service.website.game_url(game.row.guild_id, game.id)):
            kwargs.setdefault("view", discord.ui.View(timeout=None)).add_item(web_button(url))
        pings = discord.AllowedMentions(users=[discord.Object(u) for u in post.pings]) if post.pings else NO_PINGS
        await channel.send(post.text, nonce=nonce or f"a{a.id}", allowed_mentions=pings, **kwargs)

    async def _hold(self, game: Game, missing: str) -> None:
        """Stop the game's clock while its thread cannot be reached; tell its creator and the server's
        owner by DM, and post it in the game's channel if the bot can write there: each once, a notice
        that failed for now again with the next try of the held post."""
        held = await self.service.master.timekeeping.hold(game.id, missing)
        if held is None:
            return
        thread = game.row.thread_id or game.row.channel_id
        with using(await server_language(self.client, game.row.guild_id)):
            notice = self.service.posts.held(game, held.row.held_for or missing, f"<#{thread}>")
        guild = self.client.get_guild(game.row.guild_id)
        places: dict[str, Callable[[], Awaitable[discord.abc.Messageable]]] = {
            f"u{user}": functools.partial(self.client.create_dm, discord.Object(user))
            for user in [game.row.creator_id, *([guild.owner_id] if guild and guild.owner_id else [])]
        }
        if game.row.thread_id:
            places[f"c{game.row.channel_id}"] = functools.partial(fetch_game_channel, self.client, game.row.channel_id)
        since = held.row.held_at or held.row.paused_at or 0.0
        for whom, where in places.items():
            if whom not in held.row.held_told and await self._tell(where, notice, hold_nonce(game.id, whom, since)):
                await self.service.master.timekeeping.told(game.id, whom)

    async def _tell(self, where: Callable[[], Awaitable[discord.abc.Messageable]], notice: Post, nonce: str) -> bool:
        """Send a notice where the bot may; False if it should be tried again (Discord failed). A closed
        DM or a channel the bot cannot write to is passed by, for good."""
        try:
            await (await where()).send(notice.text, nonce=nonce, allowed_mentions=NO_PINGS)
        except (discord.Forbidden, discord.NotFound) as err:
            log.info("could not tell of a held game there: %s", err)
        except (discord.HTTPException, TimeoutError) as err:
            log.warning("telling of a held game failed, to be tried again: %s", err)
            return False
        return True

    async def _refused(
        self, channel: GameChannel | None, a: Announcement, game: Game, post: Post, to: DirectMessage
    ) -> None:
        """Say once in the game's thread that his DMs refused his reminder: in his own server's thread
        and language when he plays from a server the game is mirrored in (a thread there that cannot
        be posted in is passed by, as a mirror's posts are); nowhere when his thread is gone (``channel``
        None: the game's own thread is)."""
        nonce = f"a{a.id}u{to.index}t"
        home = (await self.service.master.lookup.mirrored_homes([game.id], to.user_id)).get((game.id, to.user_id))
        if home is None or home.thread_id is None:
            if channel is None:
                log.info("game #%s: user %s refused a reminder and has no thread to be told in", game.id, to.user_id)
                return
            await self._post(channel, a, game, self.service.posts.dm_refused(to.user_id, post), nonce)
            return
        try:
            thread = await fetch_game_channel(self.client, home.thread_id)
            with using(await server_language(self.client, home.guild_id)):
                await self._post(thread, a, game, self.service.posts.dm_refused(to.user_id, post), nonce)
        except (discord.Forbidden, discord.NotFound, Blocked) as err:
            log.warning("game #%s: a refused DM cannot be told in server %s: %s", game.id, home.guild_id, err)

    async def _direct(
        self, channel: GameChannel | None, a: Announcement, game: Game, post: Post, to: DirectMessage
    ) -> None:
        """Send it once to the user; if his DMs are closed, say so in the game's thread, once."""
        dm = await self.client.create_dm(discord.Object(to.user_id))
        if await posted_before(self.client, dm, a, self.service.clock.now(), post.text):
            return
        settings = self.service.master.settings
        try:
            await dm.send(post.text, nonce=f"a{a.id}u{to.index}")
        except discord.Forbidden:
            log.info("user %s does not accept DMs; reminder refused", to.user_id)
            if await settings.dm_refused(to.user_id):
                await self._refused(channel, a, game, post, to)
        else:
            await settings.dm_delivered(to.user_id)
