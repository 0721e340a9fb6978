"""Ratings, derived from finished rated games (``service.ops.ratings`` says how): each player's
current rating per scope and ruleset (``ratings``), his rating after each game (``rating_history``),
which games were applied (``rated_games``), and ratings within a server's season (``season_ratings``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from service.models import FINISHED
from service.storage.store import Connection

TABLES = ("ratings", "rating_history", "rated_games", "season_ratings")


@dataclass(frozen=True)
class Board:
    """Where a rating is kept: all time in a scope (a server's guild id, or 0 for every server), or
    within one of a server's seasons."""

    scope: int
    season: int | None = None

    @property
    def table(self) -> str:
        return "ratings" if self.season is None else "season_ratings"

    @property
    def where(self) -> str:
        """Its rows, with ``values``."""
        return "scope = ?" if self.season is None else "guild_id = ? AND season = ?"

    @property
    def values(self) -> tuple[int, ...]:
        return (self.scope,) if self.season is None else (self.scope, self.season)

    @property
    def columns(self) -> str:
        return "scope" if self.season is None else "guild_id, season"


UNRATED = """g.status = ? AND g.rated = 1 AND g.result IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM rated_games r WHERE r.game_id = g.id)"""  # finished, rated, not applied yet


async def any_unrated(conn: Connection) -> bool:
    async with conn.execute(f"SELECT 1 FROM games g WHERE {UNRATED} LIMIT 1", (FINISHED,)) as cursor:
        return await cursor.fetchone() is not None


async def unrated_games(conn: Connection) -> Sequence[Any]:
    """``id, guild_id, ruleset, result, ended_at`` of the games not applied yet, in the order they ended."""
    async with conn.execute(
        f"""SELECT g.id, g.guild_id, g.ruleset, g.result,
                  (SELECT max(h.at) FROM history h WHERE h.game_id = g.id) AS ended_at
           FROM games g WHERE {UNRATED} ORDER BY ended_at NULLS FIRST, g.id""",
        (FINISHED,),
    ) as cursor:
        return await cursor.fetchall()


async def seated_players(conn: Connection, game_id: int) -> Sequence[Any]:
    """``user_id, name, seat, ai_level, left_seat`` of the game's rated players: those in their seats
    at the end, and the members who left theirs to somebody else (``seat`` None); not those who took
    a seat over."""
    async with conn.execute(
        """SELECT user_id, name, seat, ai_level, left_seat FROM players
           WHERE game_id = ? AND took_over = 0 AND (seat IS NOT NULL OR (left_seat IS NOT NULL AND user_id IS NOT NULL))
           ORDER BY seat IS NULL, seat, left_seat""",
        (game_id,),
    ) as cursor:
        return await cursor.fetchall()


async def mark_applied(conn: Connection, game_id: int, ended_at: float) -> None:
    await conn.execute("INSERT INTO rated_games (game_id, ended_at) VALUES (?, ?)", (game_id, ended_at))


async def forget_all(conn: Connection) -> None:
    for table in TABLES:
        await conn.execute(f"DELETE FROM {table}")


async def rating(conn: Connection, board: Board, ruleset: str, player: str) -> tuple[float, float] | None:
    """The player's ``(mu, sigma)`` on ``board``, if he has played there."""
    async with conn.execute(
        f"SELECT mu, sigma FROM {board.table} WHERE {board.where} AND ruleset = ? AND player = ?",
        (*board.values, ruleset, player),
    ) as cursor:
        row = await cursor.fetchone()
    return None if row is None else (row[0], row[1])


async def record(
    conn: Connection,
    board: Board,
    ruleset: str,
    game: tuple[int, float],
    player: tuple[str, str],
    rated: tuple[float, float, float],
    result: tuple[bool, int],
) -> None:
    """After ``game`` (id, ended at): ``player`` (key, name) is ``rated`` (mu, sigma, ordinal) on
    ``board``, with ``result`` (won, points) added to his counts (and, all time, to his history)."""
    (game_id, ended_at), (key, name), (mu, sigma, ordinal), (won, points) = game, player, rated, result
    marks = ",".join("?" * len(board.values))
    await conn.execute(
        f"""INSERT INTO {board.table} ({board.columns}, ruleset, player, name, mu, sigma, games, wins, points)
           VALUES ({marks},?,?,?,?,?,1,?,?)
           ON CONFLICT ({board.columns}, ruleset, player) DO UPDATE SET name = excluded.name, mu = excluded.mu,
           sigma = excluded.sigma, games = {board.table}.games + 1, wins = {board.table}.wins + excluded.wins,
           points = {board.table}.points + excluded.points""",
        (*board.values, ruleset, key, name, mu, sigma, int(won), points),
    )
    if board.season is None:
        await conn.execute(
            "INSERT INTO rating_history (scope, ruleset, player, game_id, ordinal, at) VALUES (?,?,?,?,?,?)",
            (board.scope, ruleset, key, game_id, ordinal, ended_at),
        )


async def best(conn: Connection, board: Board, ruleset: str, limit: int) -> Sequence[Any]:
    async with conn.execute(
        f"""SELECT player, name, mu, sigma, games, wins, points FROM {board.table}
           WHERE {board.where} AND ruleset = ? ORDER BY mu - 3 * sigma DESC, games DESC, player LIMIT ?""",
        (*board.values, ruleset, limit),
    ) as cursor:
        return await cursor.fetchall()


async def season_rulesets(conn: Connection, guild_id: int, season: int) -> list[str]:
    """The games rated in a server's season."""
    async with conn.execute(
        "SELECT DISTINCT ruleset FROM season_ratings WHERE guild_id = ? AND season = ? ORDER BY ruleset",
        (guild_id, season),
    ) as cursor:
        return [row[0] for row in await cursor.fetchall()]


async def of_player(conn: Connection, scope: int, player: str) -> Sequence[Any]:
    """His rating rows, one per ruleset."""
    async with conn.execute(
        """SELECT ruleset, player, name, mu, sigma, games, wins, points FROM ratings
           WHERE scope = ? AND player = ? ORDER BY ruleset""",
        (scope, player),
    ) as cursor:
        return await cursor.fetchall()


async def ordinals(conn: Connection, scope: int, ruleset: str, player: str) -> list[float]:
    """His rating after each of his rated games of ``ruleset``, oldest first."""
    async with conn.execute(
        """SELECT ordinal FROM rating_history WHERE scope = ? AND ruleset = ? AND player = ?
           ORDER BY at, game_id""",
        (scope, ruleset, player),
    ) as cursor:
        return [r[0] for r in await cursor.fetchall()]
