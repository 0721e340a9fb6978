"""Tournaments (``tournaments``), their players (``tournament_players``) and each round's tables
(``tournament_games``): every statement on them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from service.storage.store import Connection

SIGNUP, RUNNING, FINISHED, CANCELLED = "signup", "running", "finished", "cancelled"


@dataclass(frozen=True)
class Tournament:
    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    ruleset: str
    format: str
    rounds: int
    options: dict[str, Any]
    round_seconds: int
    status: str
    round: int
    created_at: float
    starts_at: float | None = None  # when it starts by itself (None: when its creator starts it)
    card_message_id: int | None = None  # its sign-up card, in its channel
    told: int = 0  # the last of its posts made (``due``)

    @property
    def due(self) -> int:
        """The posts it has to have made: round k opened (k), over (its rounds + 1), cancelled (1)."""
        if self.status == RUNNING:
            return self.round
        return {FINISHED: self.rounds + 1, CANCELLED: 1}.get(self.status, 0)


@dataclass(frozen=True)
class Entrant:
    user_id: int
    name: str
    joined_at: float
    withdrawn_at: float | None = None


@dataclass(frozen=True)
class Table:
    """One table of a round: members by seat (one alone: a bye), its game, and points once over."""

    round: int
    board: int
    seats: tuple[int, ...]
    game_id: int | None
    points: dict[int, float] | None


def _tournament(row: Any) -> Tournament:
    return Tournament(
        row["id"],
        row["guild_id"],
        row["channel_id"],
        row["creator_id"],
        row["ruleset"],
        row["format"],
        row["rounds"],
        json.loads(row["options"]),
        row["round_seconds"],
        row["status"],
        row["round"],
        row["created_at"],
        row["starts_at"],
        row["card_message_id"],
        row["told"],
    )


def _table(row: Any) -> Table:
    points = json.loads(row["points"]) if row["points"] is not None else None
    return Table(
        row["round"],
        row["board"],
        tuple(json.loads(row["seats"])),
        row["game_id"],
        {int(user): float(p) for user, p in points.items()} if points is not None else None,
    )


async def insert(conn: Connection, t: Tournament) -> int:
    async with conn.execute(
        """INSERT INTO tournaments (guild_id, channel_id, creator_id, ruleset, format, rounds, options,
               round_seconds, status, round, created_at, starts_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)
           RETURNING id""",
        (
            t.guild_id,
            t.channel_id,
            t.creator_id,
            t.ruleset,
            t.format,
            t.rounds,
            json.dumps(t.options, sort_keys=True),
            t.round_seconds,
            t.status,
            t.round,
            t.created_at,
            t.starts_at,
        ),
    ) as cursor:
        (made,) = await cursor.fetchone()
    return made


async def by_id(conn: Connection, tournament_id: int) -> Tournament | None:
    async with conn.execute("SELECT * FROM tournaments WHERE id = ?", (tournament_id,)) as cursor:
        row = await cursor.fetchone()
    return _tournament(row) if row is not None else None


async def running(conn: Connection) -> list[Tournament]:
    async with conn.execute("SELECT * FROM tournaments WHERE status = ? ORDER BY id", (RUNNING,)) as cursor:
        return [_tournament(row) for row in await cursor.fetchall()]


async def entered_by(conn: Connection, user_id: int, guild_id: int | None) -> list[Tournament]:
    """The tournaments a player is in (of one server, or of every one), started or over."""
    where = "" if guild_id is None else " AND t.guild_id = ?"
    async with conn.execute(
        f"""SELECT t.* FROM tournaments t JOIN tournament_players p ON p.tournament_id = t.id
            WHERE p.user_id = ? AND t.status IN (?, ?){where} ORDER BY t.id""",
        (user_id, RUNNING, FINISHED, *(() if guild_id is None else (guild_id,))),
    ) as cursor:
        return [_tournament(row) for row in await cursor.fetchall()]


async def due_to_start(conn: Connection, now: float) -> list[Tournament]:
    """Those in sign-up whose start time has come."""
    async with conn.execute(
        "SELECT * FROM tournaments WHERE status = ? AND starts_at <= ? ORDER BY id", (SIGNUP, now)
    ) as cursor:
        return [_tournament(row) for row in await cursor.fetchall()]


async def untold(conn: Connection) -> list[Tournament]:
    """Those with a post still to make (``Tournament.due``)."""
    async with conn.execute(
        """SELECT * FROM tournaments WHERE (status = ? AND told < round) OR (status = ? AND told <= rounds)
           OR (status = ? AND told < 1) ORDER BY id""",
        (RUNNING, FINISHED, CANCELLED),
    ) as cursor:
        return [_tournament(row) for row in await cursor.fetchall()]


async def set_told(conn: Connection, tournament_id: int, told: int) -> None:
    await conn.execute("UPDATE tournaments SET told = ? WHERE id = ? AND told < ?", (told, tournament_id, told))


async def set_card(conn: Connection, tournament_id: int, message_id: int) -> None:
    await conn.execute("UPDATE tournaments SET card_message_id = ? WHERE id = ?", (message_id, tournament_id))


async def set_state(conn: Connection, tournament_id: int, status: str, round_number: int) -> None:
    await conn.execute(
        "UPDATE tournaments SET status = ?, round = ? WHERE id = ?", (status, round_number, tournament_id)
    )


async def set_rounds(conn: Connection, tournament_id: int, rounds: int) -> None:
    await conn.execute("UPDATE tournaments SET rounds = ? WHERE id = ?", (rounds, tournament_id))


async def entrants(conn: Connection, tournament_id: int) -> list[Entrant]:
    """Its players in the order they entered."""
    async with conn.execute(
        "SELECT * FROM tournament_players WHERE tournament_id = ? ORDER BY joined_at, user_id", (tournament_id,)
    ) as cursor:
        return [Entrant(r["user_id"], r["name"], r["joined_at"], r["withdrawn_at"]) for r in await cursor.fetchall()]


async def enter(conn: Connection, tournament_id: int, entrant: Entrant) -> None:
    await conn.execute(
        "INSERT INTO tournament_players (tournament_id, user_id, name, joined_at) VALUES (?,?,?,?)",
        (tournament_id, entrant.user_id, entrant.name, entrant.joined_at),
    )


async def leave(conn: Connection, tournament_id: int, user_id: int) -> None:
    await conn.execute(
        "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?", (tournament_id, user_id)
    )


async def withdraw(conn: Connection, tournament_id: int, user_id: int, at: float) -> None:
    await conn.execute(
        "UPDATE tournament_players SET withdrawn_at = ? WHERE tournament_id = ? AND user_id = ?",
        (at, tournament_id, user_id),
    )


async def tables(conn: Connection, tournament_id: int) -> list[Table]:
    """Every table of every round so far, by round and board."""
    async with conn.execute(
        "SELECT * FROM tournament_games WHERE tournament_id = ? ORDER BY round, board", (tournament_id,)
    ) as cursor:
        return [_table(row) for row in await cursor.fetchall()]


async def add_table(conn: Connection, tournament_id: int, table: Table) -> None:
    await conn.execute(
        "INSERT INTO tournament_games (tournament_id, round, board, seats, game_id, points) VALUES (?,?,?,?,?,?)",
        (
            tournament_id,
            table.round,
            table.board,
            json.dumps(list(table.seats)),
            table.game_id,
            json.dumps({str(u): p for u, p in table.points.items()}) if table.points is not None else None,
        ),
    )


async def set_table(conn: Connection, tournament_id: int, table: Table) -> None:
    """A table's game and points as ``table`` has them now."""
    await conn.execute(
        "UPDATE tournament_games SET game_id = ?, points = ? WHERE tournament_id = ? AND round = ? AND board = ?",
        (
            table.game_id,
            json.dumps({str(u): p for u, p in table.points.items()}) if table.points is not None else None,
            tournament_id,
            table.round,
            table.board,
        ),
    )


async def note_game(conn: Connection, tournament_id: int, table: Table, game_id: int) -> bool:
    """The game made for a table that has none yet; False (nothing noted) if it has one."""
    cursor = await conn.execute(
        """UPDATE tournament_games SET game_id = ? WHERE tournament_id = ? AND round = ? AND board = ?
           AND game_id IS NULL""",
        (game_id, tournament_id, table.round, table.board),
    )
    return cursor.rowcount == 1


async def of_game(conn: Connection, game_id: int) -> tuple[int, Table] | None:
    """The tournament and table a game is played at, if it is a tournament's."""
    async with conn.execute("SELECT * FROM tournament_games WHERE game_id = ?", (game_id,)) as cursor:
        row = await cursor.fetchone()
    return (row["tournament_id"], _table(row)) if row is not None else None


async def score(conn: Connection, game_id: int, points: dict[int, float]) -> None:
    await conn.execute(
        "UPDATE tournament_games SET points = ? WHERE game_id = ? AND points IS NULL",
        (json.dumps({str(u): p for u, p in points.items()}), game_id),
    )


def seated(rows: Sequence[Table], round_number: int) -> list[Table]:
    return [t for t in rows if t.round == round_number]
