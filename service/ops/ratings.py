"""Ratings per ruleset, in every server together, in each server alone and within a server's season
(``service.ops.seasons``), from finished rated games.

Ratings are derived data: each finished game is applied once, in the order games ended, with the
Plackett-Luce model of openskill (multiplayer, ties share a place). Computer players are rated by
level. A game is rated in the transaction that ends it, so reading ratings never writes, never waits
and never scans the finished games; games that ended before that (an older database) are caught up
once at start-up, and ``rebuild_ratings`` recomputes everything from the games.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from engine import Ruleset
from service.models import GameRow, computer_title
from service.ops.games import ruleset_named
from service.storage import games as game_rows
from service.storage import ratings as rows
from service.storage import seasons
from service.storage.ratings import Board
from service.storage.store import Connection, Store

GLOBAL = 0  # the scope of ratings over every server
MODEL = PlackettLuce()

COMPUTER, DEFAULT_LEVEL = "computer:", "default"  # a computer's rating key: "computer:Hard"
USER = "user:"  # a member's: "user:1234"


@dataclass(frozen=True)
class Standing:
    player: str
    name: str
    rating: float  # the conservative estimate players see (mu - 3 sigma), never above the mean
    games: int
    wins: int
    points: int

    @property
    def user_id(self) -> int | None:
        """The member this is, None for a computer (``player_key`` the other way)."""
        return int(self.player.removeprefix(USER)) if self.player.startswith(USER) else None

    @property
    def shown_name(self) -> str:
        """Who this is for players: a computer by its level, in the current language; a member's name."""
        if self.player.startswith(COMPUTER):
            level = self.player.removeprefix(COMPUTER)
            return computer_title(None if level == DEFAULT_LEVEL else level)
        return self.name


def player_key(user_id: int | None, ai_level: str | None) -> str:
    return f"{USER}{user_id}" if user_id is not None else f"{COMPUTER}{ai_level or DEFAULT_LEVEL}"


class Ratings:
    def __init__(self, db: Store, rulesets: Mapping[str, Ruleset]):
        self.db, self.rulesets = db, rulesets
        self._catching_up = asyncio.Lock()  # one catch-up at a time: two would apply the same game twice

    async def leaderboard(
        self, ruleset: str, scope: int = GLOBAL, limit: int = 15, season: int | None = None
    ) -> list[Standing]:
        """The best rated players of ``ruleset`` in ``scope`` (a guild id, or GLOBAL), all time or within
        one of the server's seasons."""
        ruleset_named(self.rulesets, ruleset)
        async with self.db.reading() as conn:
            return [_standing(row) for row in await rows.best(conn, Board(scope, season), ruleset, limit)]

    async def season_tables(self, guild_id: int, season: int, limit: int = 10) -> list[tuple[str, list[Standing]]]:
        """Each game's best rated players in one of the server's seasons (its final tables, once it ended)."""
        async with self.db.reading() as conn:
            return [
                (ruleset, [_standing(row) for row in await rows.best(conn, Board(guild_id, season), ruleset, limit)])
                for ruleset in await rows.season_rulesets(conn, guild_id, season)
            ]

    async def player_stats(self, user_id: int, scope: int = GLOBAL) -> dict[str, tuple[Standing, list[float]]]:
        """By ruleset: the user's standing and his rating after each of his rated games, oldest first."""
        player = player_key(user_id, None)
        stats: dict[str, tuple[Standing, list[float]]] = {}
        async with self.db.reading() as conn:
            for row in await rows.of_player(conn, scope, player):
                history = await rows.ordinals(conn, scope, row["ruleset"], player)
                stats[row["ruleset"]] = (_standing(row), history)
        return stats

    async def game_ended(self, conn: Connection, game: GameRow, result: dict[str, Any], ended_at: float) -> None:
        """Rate a game, if it counts, in the transaction that ends it."""
        if game.rated:
            await self.db.serialize(conn, "ratings")  # another process may be rating another game
            await self._apply(conn, game.id, game.guild_id, game.ruleset, result, ended_at)

    async def catch_up_ratings(self) -> int:
        """Apply every finished rated game not applied yet, in the order they ended; returns how many.
        When there is none (the usual case), only a read is made."""
        async with self.db.reading() as conn:
            if not await rows.any_unrated(conn):
                return 0
        async with self._catching_up:
            async with self.db.transaction() as conn:
                await self.db.serialize(conn, "ratings")  # another process may be applying the same games
                games = await rows.unrated_games(conn)
                for game in games:
                    await self._apply(
                        conn,
                        game["id"],
                        game["guild_id"],
                        game["ruleset"],
                        _parsed(game["result"]),
                        game["ended_at"] or 0.0,
                    )
        return len(games)

    async def rebuild_ratings(self) -> int:
        """Forget every rating and apply every finished rated game again."""
        async with self._catching_up:
            async with self.db.transaction() as conn:
                await self.db.serialize(conn, "ratings")
                await rows.forget_all(conn)
        return await self.catch_up_ratings()

    async def _apply(
        self, conn: Connection, game_id: int, guild_id: int, ruleset: str, result: Any, ended_at: float
    ) -> None:
        await rows.mark_applied(conn, game_id, ended_at)
        seated = await rows.seated_players(conn, game_id)
        try:
            players = _rated_players(result, seated)
        except (TypeError, ValueError, KeyError, AttributeError):
            return  # a damaged result rates nobody; the game stays applied so it is not retried forever
        if len(players) < 2:
            return
        boards = [Board(GLOBAL)]
        for server in (guild_id, *(m.guild_id for m in await game_rows.mirrors_of(conn, game_id))):  # each its own
            series = await seasons.series_at(conn, server, ended_at)  # as it was then, whatever changed since
            number = series.number_at(ended_at) if series is not None else None
            boards += [Board(server), *([Board(server, number)] if number is not None else [])]
        for board in boards:
            await self._rate(conn, board, ruleset, game_id, ended_at, players)

    @staticmethod
    async def _rate(
        conn: Connection, board: Board, ruleset: str, game_id: int, ended_at: float, players: list[RatedPlayer]
    ) -> None:
        before = []
        for player in players:
            known = await rows.rating(conn, board, ruleset, player.key)
            before.append([MODEL.rating(mu=known[0], sigma=known[1]) if known else MODEL.rating()])
        after = MODEL.rate(before, ranks=[player.place for player in players])
        for player, [rating] in zip(players, after, strict=True):
            await rows.record(
                conn,
                board,
                ruleset,
                (game_id, ended_at),
                (player.key, player.name),
                (rating.mu, rating.sigma, rating.ordinal()),
                (player.won, player.points),
            )


@dataclass(frozen=True)
class RatedPlayer:
    key: str
    name: str
    place: int  # 0 is first; equal places are a tie
    won: bool
    points: int


def _rated_players(result: dict, seated: Sequence[Any]) -> list[RatedPlayer]:
    """The game's players as rating sees them. Computer seats of one level are one player (at the
    best place any of them reached), so a level is never rated against itself. A member who left his
    seat to somebody else is rated last, as if he had surrendered then; who took it over, not at all."""
    place = {int(seat): n for n, group in enumerate(result["ranking"]) for seat in group}
    points = {int(seat): int(p) for seat, p in result.get("points", {}).items()}
    winners = {int(seat) for seat in result.get("winners", [])}
    merged: dict[str, RatedPlayer] = {}
    for row in seated:
        seat = row["seat"]
        if seat is None and row["left_seat"] in place:
            mine = RatedPlayer(player_key(row["user_id"], None), row["name"], len(result["ranking"]), False, 0)
            merged[mine.key] = mine
            continue
        if seat not in place:
            continue
        key = player_key(row["user_id"], row["ai_level"])
        name = row["name"] if row["user_id"] is not None else f"Computer ({row['ai_level'] or 'default'})"
        mine = RatedPlayer(key, name, place[seat], seat in winners, points.get(seat, 0))
        if key in merged:
            was = merged[key]
            mine = RatedPlayer(key, name, min(was.place, mine.place), was.won or mine.won, was.points + mine.points)
        merged[key] = mine
    return list(merged.values())


def _parsed(result: str) -> Any:
    """A stored result; unreadable text stays text, which rates nobody."""
    try:
        return json.loads(result)
    except ValueError:
        return result


def _standing(row: Any) -> Standing:
    return Standing(row["player"], row["name"], row["mu"] - 3 * row["sigma"], row["games"], row["wins"], row["points"])
