"""Ratings per ruleset, in every server together and in each server alone, from finished rated games.

Ratings are derived data: each finished game is applied once, in the order games ended, with the
Plackett-Luce model of openskill (multiplayer, ties share a place). Computer players are rated by
level. Catching up happens when ratings are read, so a crash between a game's end and its rating
loses nothing; ``rebuild_ratings`` recomputes everything from the games.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from openskill.models import PlackettLuce

from i18n import joined, tr
from service.errors import GameError
from service.master import GameMasterCore
from service.models import FINISHED, computer_title
from service.storage.store import Connection

GLOBAL = 0  # the scope of ratings over every server
MODEL = PlackettLuce()

COMPUTER, DEFAULT_LEVEL = "computer:", "default"  # a computer's rating key: "computer:Hard"


@dataclass(frozen=True)
class Standing:
    player: str
    name: str
    rating: float  # the conservative estimate players see (mu - 3 sigma), never above the mean
    games: int
    wins: int
    points: int

    @property
    def shown_name(self) -> str:
        """Who this is for players: a computer by its level, in the current language; a member's name."""
        if self.player.startswith(COMPUTER):
            level = self.player.removeprefix(COMPUTER)
            return computer_title(None if level == DEFAULT_LEVEL else level)
        return self.name


UNRATED = """g.status = ? AND g.rated = 1 AND g.result IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM rated_games r WHERE r.game_id = g.id)"""  # finished, rated, not applied yet


def player_key(user_id: int | None, ai_level: str | None) -> str:
    return f"user:{user_id}" if user_id is not None else f"{COMPUTER}{ai_level or DEFAULT_LEVEL}"


class RatingOps(GameMasterCore):
    @cached_property
    def _ratings_lock(self) -> asyncio.Lock:
        """One catch-up at a time: two would apply the same game twice."""
        return asyncio.Lock()

    async def leaderboard(self, ruleset: str, scope: int = GLOBAL, limit: int = 15) -> list[Standing]:
        """The best rated players of ``ruleset`` in ``scope`` (a guild id, or GLOBAL)."""
        if ruleset not in self.rulesets:
            raise GameError(
                tr("unknown game {name!r}; available: {names}", name=ruleset, names=joined(sorted(self.rulesets)))
            )
        await self.catch_up_ratings()
        async with self.db.reading() as conn:
            async with conn.execute(
                """SELECT player, name, mu, sigma, games, wins, points FROM ratings
                   WHERE scope = ? AND ruleset = ? ORDER BY mu - 3 * sigma DESC, games DESC, player LIMIT ?""",
                (scope, ruleset, limit),
            ) as cursor:
                rows = await cursor.fetchall()
        return [_standing(row) for row in rows]

    async def player_stats(self, user_id: int, scope: int = GLOBAL) -> dict[str, tuple[Standing, list[float]]]:
        """By ruleset: the user's standing and his rating after each of his rated games, oldest first."""
        await self.catch_up_ratings()
        player = player_key(user_id, None)
        stats: dict[str, tuple[Standing, list[float]]] = {}
        async with self.db.reading() as conn:
            async with conn.execute(
                """SELECT ruleset, player, name, mu, sigma, games, wins, points FROM ratings
                   WHERE scope = ? AND player = ? ORDER BY ruleset""",
                (scope, player),
            ) as cursor:
                rows = await cursor.fetchall()
            for row in rows:
                async with conn.execute(
                    """SELECT ordinal FROM rating_history WHERE scope = ? AND ruleset = ? AND player = ?
                       ORDER BY at, game_id""",
                    (scope, row["ruleset"], player),
                ) as cursor:
                    history = [r[0] for r in await cursor.fetchall()]
                stats[row["ruleset"]] = (_standing(row), history)
        return stats

    async def catch_up_ratings(self) -> int:
        """Apply every finished rated game not applied yet, in the order they ended; returns how many.
        When there is none (the usual case), only a read is made: a leaderboard never waits to write."""
        async with self.db.reading() as conn:
            async with conn.execute(f"SELECT 1 FROM games g WHERE {UNRATED} LIMIT 1", (FINISHED,)) as cursor:
                if await cursor.fetchone() is None:
                    return 0
        async with self._ratings_lock:
            async with self.db.transaction() as conn:
                await self.db.serialize(conn, "ratings")  # another process may be applying the same games
                async with conn.execute(
                    f"""SELECT g.id, g.guild_id, g.ruleset, g.result,
                              (SELECT max(h.at) FROM history h WHERE h.game_id = g.id) AS ended_at
                       FROM games g WHERE {UNRATED} ORDER BY ended_at NULLS FIRST, g.id""",
                    (FINISHED,),
                ) as cursor:
                    games = await cursor.fetchall()
                for game in games:
                    await self._apply(conn, game)
        return len(games)

    async def rebuild_ratings(self) -> int:
        """Forget every rating and apply every finished rated game again."""
        async with self._ratings_lock:
            async with self.db.transaction() as conn:
                await self.db.serialize(conn, "ratings")
                for table in ("ratings", "rating_history", "rated_games"):
                    await conn.execute(f"DELETE FROM {table}")
        return await self.catch_up_ratings()

    async def _apply(self, conn: Connection, game: Any) -> None:
        ended_at = game["ended_at"] or 0.0
        await conn.execute("INSERT INTO rated_games (game_id, ended_at) VALUES (?, ?)", (game["id"], ended_at))
        async with conn.execute(
            "SELECT user_id, name, seat, ai_level FROM players WHERE game_id = ? AND seat IS NOT NULL ORDER BY seat",
            (game["id"],),
        ) as cursor:
            seated = await cursor.fetchall()
        try:
            players = _rated_players(json.loads(game["result"]), seated)
        except (TypeError, ValueError, KeyError, AttributeError):
            return  # a damaged result rates nobody; the game stays applied so it is not retried forever
        if len(players) < 2:
            return
        for scope in (GLOBAL, game["guild_id"]):
            await self._rate(conn, scope, game["ruleset"], game["id"], ended_at, players)

    @staticmethod
    async def _rate(
        conn: Connection, scope: int, ruleset: str, game_id: int, ended_at: float, players: list[RatedPlayer]
    ) -> None:
        before = []
        for player in players:
            async with conn.execute(
                "SELECT mu, sigma FROM ratings WHERE scope = ? AND ruleset = ? AND player = ?",
                (scope, ruleset, player.key),
            ) as cursor:
                row = await cursor.fetchone()
            before.append([MODEL.rating(mu=row[0], sigma=row[1]) if row else MODEL.rating()])
        after = MODEL.rate(before, ranks=[player.place for player in players])
        for player, [rating] in zip(players, after, strict=True):
            await conn.execute(
                """INSERT INTO ratings (scope, ruleset, player, name, mu, sigma, games, wins, points)
                   VALUES (?,?,?,?,?,?,1,?,?)
                   ON CONFLICT (scope, ruleset, player) DO UPDATE SET name = excluded.name, mu = excluded.mu,
                   sigma = excluded.sigma, games = ratings.games + 1, wins = ratings.wins + excluded.wins,
                   points = ratings.points + excluded.points""",
                (scope, ruleset, player.key, player.name, rating.mu, rating.sigma, int(player.won), player.points),
            )
            await conn.execute(
                "INSERT INTO rating_history (scope, ruleset, player, game_id, ordinal, at) VALUES (?,?,?,?,?,?)",
                (scope, ruleset, player.key, game_id, rating.ordinal(), ended_at),
            )


@dataclass(frozen=True)
class RatedPlayer:
    key: str
    name: str
    place: int  # 0 is first; equal places are a tie
    won: bool
    points: int


def _rated_players(result: dict, seated: list[Any]) -> list[RatedPlayer]:
    """The game's players as rating sees them. Computer seats of one level are one player (at the
    best place any of them reached), so a level is never rated against itself."""
    place = {int(seat): n for n, group in enumerate(result["ranking"]) for seat in group}
    points = {int(seat): int(p) for seat, p in result.get("points", {}).items()}
    winners = {int(seat) for seat in result.get("winners", [])}
    merged: dict[str, RatedPlayer] = {}
    for row in seated:
        if row["seat"] not in place:
            continue
        key = player_key(row["user_id"], row["ai_level"])
        name = row["name"] if row["user_id"] is not None else f"Computer ({row['ai_level'] or 'default'})"
        seat = row["seat"]
        mine = RatedPlayer(key, name, place[seat], seat in winners, points.get(seat, 0))
        if key in merged:
            was = merged[key]
            mine = RatedPlayer(key, name, min(was.place, mine.place), was.won or mine.won, was.points + mine.points)
        merged[key] = mine
    return list(merged.values())


def _standing(row: Any) -> Standing:
    return Standing(row["player"], row["name"], row["mu"] - 3 * row["sigma"], row["games"], row["wins"], row["points"])
