"""Finding games: a server's, a member's, the one played in a thread, the one a command means."""

from __future__ import annotations

from i18n import joined, tr
from service.errors import GameError
from service.models import CANCELLED, FINISHED, LOBBY, RUNNING, Game, Mirror, Reliability
from service.ops.games import Games
from service.storage import games as rows
from service.storage import reliability
from service.storage.store import Connection


class Lookup:
    def __init__(self, games: Games):
        self.games = games

    async def reliability(self, user_id: int) -> Reliability:
        """The member's turns across all his games, asked and answered on time."""
        async with self.games.db.reading() as conn:
            return (await reliability.of_users(conn, [user_id])).get(user_id, Reliability())

    async def list_games(self, guild_id: int, *, include_ended: bool = False, parse: bool = True) -> list[Game]:
        statuses = (LOBBY, RUNNING, FINISHED, CANCELLED) if include_ended else (LOBBY, RUNNING)
        return await self.games.listed(lambda conn: rows.in_server(conn, guild_id, statuses), parse=parse)

    async def on_site(self, guild_id: int, finished: int) -> list[Game]:
        """A server's lobbies and running games and its ``finished`` latest finished ones, for its web
        page (its own: not those mirrored in it, whose pages are their own server's): states unread,
        and no more read than it lists (the site reads on one thread)."""

        async def read(conn: Connection) -> list[int]:
            return await rows.in_server(conn, guild_id, (LOBBY, RUNNING), mirrored=False) + await rows.latest_finished(
                conn, guild_id, finished
            )

        return await self.games.listed(read, parse=False)

    async def games_of(self, user_id: int, *, guild_id: int | None = None, parse: bool = True) -> list[Game]:
        """Open games the user sits in (in one server, or everywhere); without ``parse``, for a list
        (``Games.listed``)."""
        return await self.games.listed(lambda conn: rows.open_games_of(conn, user_id, guild_id), parse=parse)

    async def game_in_thread(self, thread_id: int) -> Game | None:
        """The game played in this thread, if any."""
        found = await self.games.listed(lambda conn: rows.in_thread(conn, thread_id))
        return found[0] if found else None

    async def mirrored_homes(self, game_ids: list[int], user_id: int | None = None) -> dict[tuple[int, int], Mirror]:
        """Who plays these games from another server than theirs, matched across servers: his server's
        mirror of the game (its thread is his), by game and user."""
        async with self.games.db.reading() as conn:
            return await rows.mirrored_homes(conn, game_ids, user_id)

    async def game_meant(
        self, *, user_id: int, guild_id: int | None, channel_id: int | None, game_id: int | None
    ) -> Game:
        """The game a command means: the one numbered, else the one played in this channel (its thread),
        else the user's only open game in this server."""
        if game_id is not None:
            game = await self.games.get_game(game_id)
            if game.row.guild_id != guild_id and all(m.guild_id != guild_id for m in await self.games.mirrors(game_id)):
                raise GameError(tr("game #{number} is not in this server", number=game_id))
            return game
        if channel_id is not None:
            here = await self.game_in_thread(channel_id)
            if here is not None:
                return here
        mine = await self.games_of(user_id, guild_id=guild_id)
        if len(mine) == 1:
            return mine[0]
        if not mine:
            raise GameError(tr("you have no open game here; give the game number, or use /game list"))
        listed = joined(f"#{g.id} ({g.row.ruleset})" for g in mine)
        raise GameError(tr("you are in several games ({games}); say which with the game option", games=listed))
