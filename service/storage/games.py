"""The rows of a game: the game itself, its players and the orders of its current turn.

Every statement on ``games``, ``players`` and ``orders`` is here; the operations (``service.ops``)
call these inside the transaction or the read they hold. A change to a game's row is made against
the version read (``Conflict`` when another writer got there first), so two writers never both win.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from i18n import tr
from service.errors import Conflict
from service.models import (
    FINISHED,
    LOBBY,
    RUNNING,
    GameRow,
    InTournament,
    Mirror,
    OrderRow,
    PlayerRow,
    Reliability,
    TimeSettings,
)
from service.storage import reliability
from service.storage.store import Connection

if TYPE_CHECKING:
    from service.turns import Plan


StoredGame = tuple[GameRow, tuple[PlayerRow, ...], dict[int, OrderRow]]  # a game, its players, its turn's orders
CHUNK = 500  # ids per statement, well within both databases' limits on parameters


async def stored_games(conn: Connection, game_ids: list[int]) -> list[StoredGame]:
    """These games (those that exist, in the order asked) with their players in the order they joined
    and the orders given for their current turn by seat: three statements per ``CHUNK`` games (one
    trip on SQLite)."""
    found: list[StoredGame] = []
    for start in range(0, len(game_ids), CHUNK):
        ids = game_ids[start : start + CHUNK]
        marks = ",".join("?" * len(ids))
        game_rows, player_rows, order_rows = await conn.fetch_each(
            [
                (f"SELECT * FROM games WHERE id IN ({marks})", ids),
                (
                    f"""SELECT players.*, reliability.asked, reliability.on_time FROM players
                        LEFT JOIN reliability ON reliability.user_id = players.user_id
                        WHERE game_id IN ({marks}) ORDER BY game_id, joined_at, players.id""",
                    ids,
                ),
                (
                    "SELECT game_id, turn, seat, text, passed, updated_at, stand_in FROM orders "
                    f"WHERE game_id IN ({marks})",
                    ids,
                ),
            ]
        )
        games = {row["id"]: GameRow.from_row(row) for row in game_rows}
        players: dict[int, list[PlayerRow]] = {game_id: [] for game_id in games}
        for r in player_rows:
            players[r["game_id"]].append(_player(r))
        orders: dict[int, dict[int, OrderRow]] = {game_id: {} for game_id in games}
        for r in order_rows:
            if r["turn"] == games[r["game_id"]].turn:
                orders[r["game_id"]][r["seat"]] = _order(r)
        found += [(games[i], tuple(players[i]), orders[i]) for i in ids if i in games]
    return found


def _player(r: Any) -> PlayerRow:
    return PlayerRow(
        r["id"],
        r["user_id"],
        r["name"],
        r["seat"],
        r["missed"],
        r["bank_left"],
        bool(r["draw_agreed"]),
        r["ai_level"],
        r["remind_at"],
        r["reminded_turn"],
        r["bank_warned"],
        r["away_until"],
        r["away_level"],
        r["away_used"],
        Reliability(r["asked"] or 0, r["on_time"] or 0),
        r["left_seat"],
        bool(r["took_over"]),
    )


def _order(r: Any) -> OrderRow:
    return OrderRow(r["seat"], r["text"], bool(r["passed"]), r["updated_at"], r["stand_in"])


async def orders_of(conn: Connection, game: GameRow) -> dict[int, OrderRow]:
    """The orders given for the game's current turn, by seat."""
    async with conn.execute(
        "SELECT seat, text, passed, updated_at, stand_in FROM orders WHERE game_id = ? AND turn = ?",
        (game.id, game.turn),
    ) as cursor:
        return {r["seat"]: _order(r) for r in await cursor.fetchall()}


async def program(conn: Connection, game: GameRow, seat: int, text: str, now: float) -> None:
    """A seat's programmed (not yet final) orders for the current turn, replacing what it had."""
    await conn.execute(
        """INSERT INTO orders (game_id, turn, seat, text, passed, updated_at) VALUES (?,?,?,?,0,?)
           ON CONFLICT (game_id, turn, seat) DO UPDATE SET text = excluded.text, stand_in = NULL,
           updated_at = excluded.updated_at""",
        (game.id, game.turn, seat, text, now),
    )


async def insert_game(
    conn: Connection,
    *,
    guild_id: int,
    channel_id: int,
    creator_id: int,
    ruleset: str,
    options: dict[str, Any],
    players: tuple[int, int],
    seed: int,
    time: TimeSettings,
    rated: bool,
    now: float,
) -> int:
    """A new lobby's row; returns its id. ``players``: the least and most it seats."""
    async with conn.execute(
        """INSERT INTO games (guild_id, channel_id, creator_id, ruleset, options, min_players, max_players,
                              seed, time_mode, round_seconds, bank_seconds, increment_seconds,
                              reminder_seconds, missed_limit, orders_stand, away_days, min_reliability,
                              daily_deadline, replacements, rated, created_at, updated_at)
           VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id""",
        (
            guild_id,
            channel_id,
            creator_id,
            ruleset,
            json.dumps(options),
            *players,
            seed,
            time.mode,
            time.round_seconds,
            time.bank_seconds,
            time.increment_seconds,
            time.reminder_seconds,
            time.missed_limit,
            int(time.orders_stand),
            time.away_days,
            time.min_reliability,
            time.daily,
            time.replacements,
            int(rated),
            now,
            now,
        ),
    ) as cursor:
        (game_id,) = await cursor.fetchone()
    return game_id


async def insert_player(
    conn: Connection, game_id: int, user_id: int | None, name: str, now: float, *, ai_level: str | None = None
) -> None:
    await conn.execute(
        "INSERT INTO players (game_id, user_id, name, joined_at, ai_level) VALUES (?,?,?,?,?)",
        (game_id, user_id, name[:64], now, ai_level),
    )


async def delete_player(conn: Connection, player_id: int) -> None:
    await conn.execute("DELETE FROM players WHERE id = ?", (player_id,))


async def update_game(conn: Connection, game: GameRow, now: float, **columns: Any) -> None:
    """Set these columns and bump the version, against the version read: a concurrent transition
    planned from the old version can then no longer commit."""
    names = "".join(f"{name} = ?, " for name in columns)
    cursor = await conn.execute(
        f"UPDATE games SET {names}version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
        (*columns.values(), now, game.id, game.version),
    )
    if cursor.rowcount != 1:
        raise _conflict(game.id)


async def run_by(conn: Connection, game_id: int, creator_id: int, tournament: InTournament) -> None:
    """A tournament's game, run by its organiser (as its creator) and marked as the tournament's."""
    await conn.execute(
        "UPDATE games SET creator_id = ?, tournament_id = ?, tournament_round = ? WHERE id = ?",
        (creator_id, tournament.number, tournament.round, game_id),
    )


async def set_held_told(conn: Connection, game_id: int, told: frozenset[str]) -> None:
    """Who has been told of the game's hold (in the transaction that read the row)."""
    await conn.execute("UPDATE games SET held_told = ? WHERE id = ?", (",".join(sorted(told)), game_id))


async def commit_plan(conn: Connection, before: GameRow, plan: Plan, now: float) -> None:
    """Write a planned transition of the game read as ``before``: its row, the players who changed and
    the new turn's orders (the old turn's go); ``service.storage.history.append`` adds its history."""
    cursor = await conn.execute(
        """UPDATE games SET state = ?, glance = ?, turn = ?, seq = ?, status = ?, result = ?, turn_started_at = ?,
                  deadline_at = ?, reminder_at = ?, paused_at = ?, daily_deadline = ?, version = version + 1,
                  updated_at = ?
           WHERE id = ? AND version = ?""",
        (
            json.dumps(plan.state),
            json.dumps(plan.glance) if plan.glance is not None else None,
            plan.turn,
            plan.seq,
            plan.status,
            json.dumps(plan.result) if plan.result is not None else None,
            plan.turn_started_at,
            plan.deadline_at,
            plan.reminder_at,
            plan.paused_at,
            plan.daily,
            now,
            before.id,
            before.version,
        ),
    )
    if cursor.rowcount != 1:
        raise _conflict(before.id)
    changed = [p for p in plan.players.values() if p.id > 0]
    await conn.executemany(
        """UPDATE players SET seat = ?, missed = ?, bank_left = ?, draw_agreed = ?, remind_at = ?,
                  reminded_turn = ?, bank_warned = ?, away_until = ?, away_level = ?, away_used = ?,
                  left_seat = ? WHERE id = ?""",
        [
            (
                p.seat,
                p.missed,
                p.bank_left,
                int(p.draw_agreed),
                p.remind_at,
                p.reminded_turn,
                p.bank_warned,
                p.away_until,
                p.away_level,
                p.away_used,
                p.left_seat,
                p.id,
            )
            for p in changed
        ],
    )
    for p in (p for p in plan.players.values() if p.id < 0):  # who takes a seat over (after its leaver freed it)
        await conn.execute(
            """INSERT INTO players (game_id, user_id, name, seat, bank_left, joined_at, ai_level, remind_at,
                                    reminded_turn, took_over) VALUES (?,?,?,?,?,?,?,?,?,1)""",
            (before.id, p.user_id, p.name[:64], p.seat, p.bank_left, now, p.ai_level, p.remind_at, p.reminded_turn),
        )
    await reliability.add(conn, plan.reliability)
    await conn.execute("DELETE FROM orders WHERE game_id = ?", (before.id,))
    await conn.executemany(
        "INSERT INTO orders (game_id, turn, seat, text, passed, passed_at, updated_at, stand_in) VALUES (?,?,?,?,?,?,?,?)",
        [
            (before.id, plan.turn, o.seat, o.text, int(o.passed), now if o.passed else None, now, o.stand_in)
            for o in plan.orders.values()
        ],
    )


def _conflict(game_id: int) -> Conflict:
    return Conflict(tr("game #{number} changed at the same moment; try again", number=game_id))


# --- which games ---------------------------------------------------------------------------


async def open_in_channel(conn: Connection, channel_id: int) -> int:
    """How many lobbies and running games a channel holds (its own, and those mirrored there)."""
    return len(await _here(conn, "channel_id", channel_id, "status IN (?, ?)", (LOBBY, RUNNING)))


async def lobby_opened_since(
    conn: Connection, creator_id: int, channel_id: int, ruleset: str, options: dict[str, Any], since: float
) -> int | None:
    """The newest lobby this creator opened here with these options since ``since``."""
    async with conn.execute(
        """SELECT id FROM games WHERE creator_id = ? AND channel_id = ? AND ruleset = ? AND options = ?
           AND status = ? AND created_at >= ? ORDER BY id DESC LIMIT 1""",
        (creator_id, channel_id, ruleset, json.dumps(options), LOBBY, since),
    ) as cursor:
        row = await cursor.fetchone()
    return row[0] if row else None


async def mark_rematch(conn: Connection, game_id: int, of: int) -> None:
    await conn.execute("UPDATE games SET rematch_of = ? WHERE id = ?", (of, game_id))


async def rematch_lobby(conn: Connection, game_id: int) -> int | None:
    """The lobby already opened as the rematch of this game."""
    async with conn.execute(
        "SELECT id FROM games WHERE rematch_of = ? AND status = ? ORDER BY id LIMIT 1", (game_id, LOBBY)
    ) as cursor:
        row = await cursor.fetchone()
    return row[0] if row else None


async def open_count(conn: Connection) -> int:
    """Games in a lobby or running, in every server."""
    async with conn.execute("SELECT COUNT(*) FROM games WHERE status IN (?, ?)", (LOBBY, RUNNING)) as cursor:
        (count,) = await cursor.fetchone()
    return count


async def in_server(conn: Connection, guild_id: int, statuses: tuple[str, ...], *, mirrored: bool = True) -> list[int]:
    """The server's games in these statuses: its own, and (``mirrored``) those mirrored in it."""
    marks = ",".join("?" * len(statuses))
    if not mirrored:
        return await _ids(conn, f"guild_id = ? AND status IN ({marks})", (guild_id, *statuses))
    return await _here(conn, "guild_id", guild_id, f"status IN ({marks})", statuses)


async def latest_finished(conn: Connection, guild_id: int, limit: int) -> list[int]:
    """The server's ``limit`` latest finished games, newest first."""
    async with conn.execute(
        "SELECT id FROM games WHERE guild_id = ? AND status = ? ORDER BY id DESC LIMIT ?", (guild_id, FINISHED, limit)
    ) as cursor:
        return [row[0] for row in await cursor.fetchall()]


async def open_games_of(conn: Connection, user_id: int, guild_id: int | None = None) -> list[int]:
    """Lobbies and running games the user sits in (in one server, or everywhere): not those whose seat
    he left to another (``left_seat``)."""
    clause = "status IN (?, ?) AND id IN (SELECT game_id FROM players WHERE user_id = ? AND left_seat IS NULL)"
    params: tuple[Any, ...] = (LOBBY, RUNNING, user_id)
    if guild_id is not None:
        return await _here(conn, "guild_id", guild_id, clause, params)
    return await _ids(conn, clause, params)


async def in_thread(conn: Connection, thread_id: int) -> list[int]:
    """The game played in this thread: its own, or a mirror's."""
    return await _here(conn, "thread_id", thread_id, "1 = 1", ())


async def _here(conn: Connection, column: str, value: int, clause: str, params: tuple[Any, ...]) -> list[int]:
    """The games meeting ``clause`` whose ``column`` (their server, channel or thread) is ``value``, or
    whose mirror's is: two searches of an index each (an OR of the two would read every open game)."""
    async with conn.execute(
        f"""SELECT id FROM games WHERE {column} = ? AND {clause} UNION
            SELECT games.id FROM game_mirrors JOIN games ON games.id = game_mirrors.game_id
            WHERE game_mirrors.{column} = ? AND {clause} ORDER BY 1""",
        (value, *params, value, *params),
    ) as cursor:
        return [row[0] for row in await cursor.fetchall()]


async def add_mirror(conn: Connection, game_id: int, guild_id: int, channel_id: int, players: Sequence[int]) -> None:
    """The game shown in another server too, for ``players`` (who play it from there)."""
    await conn.execute(
        "INSERT INTO game_mirrors (game_id, guild_id, channel_id) VALUES (?,?,?)", (game_id, guild_id, channel_id)
    )
    for user_id in players:
        await add_mirror_player(conn, game_id, user_id, guild_id)


async def add_mirror_player(conn: Connection, game_id: int, user_id: int, guild_id: int) -> None:
    """He plays the game from a server it is mirrored in (one who left and joins again: from where he
    joins now)."""
    await conn.execute(
        "INSERT INTO game_mirror_players (game_id, user_id, guild_id) VALUES (?,?,?) "
        "ON CONFLICT (game_id, user_id) DO UPDATE SET guild_id = excluded.guild_id",
        (game_id, user_id, guild_id),
    )


async def mirrored_homes(
    conn: Connection, game_ids: Sequence[int], user_id: int | None = None
) -> dict[tuple[int, int], Mirror]:
    """Who among these games' players (or ``user_id`` alone) plays from a server the game is mirrored
    in: that mirror, by game and user."""
    if not game_ids:
        return {}
    marks = ",".join("?" * len(game_ids))
    whose, params = ("AND p.user_id = ?", (*game_ids, user_id)) if user_id is not None else ("", tuple(game_ids))
    async with conn.execute(
        f"""SELECT p.game_id, p.user_id, m.guild_id, m.channel_id, m.lobby_message_id, m.thread_id
            FROM game_mirror_players p JOIN game_mirrors m ON m.game_id = p.game_id AND m.guild_id = p.guild_id
            WHERE p.game_id IN ({marks}) {whose}""",
        params,
    ) as cursor:
        return {(r[0], r[1]): Mirror(*r[2:]) for r in await cursor.fetchall()}


async def mirrors_of(conn: Connection, game_id: int) -> list[Mirror]:
    """The servers where the game is mirrored, in the order of their ids."""
    async with conn.execute(
        "SELECT guild_id, channel_id, lobby_message_id, thread_id FROM game_mirrors WHERE game_id = ? ORDER BY guild_id",
        (game_id,),
    ) as cursor:
        return [Mirror(*row) for row in await cursor.fetchall()]


async def attach_mirror(conn: Connection, game_id: int, guild_id: int, thread_id: int, lobby_message_id: int) -> None:
    await conn.execute(
        "UPDATE game_mirrors SET thread_id = ?, lobby_message_id = ? WHERE game_id = ? AND guild_id = ?",
        (thread_id, lobby_message_id, game_id, guild_id),
    )


async def running_games_of(conn: Connection, user_id: int) -> list[int]:
    return await _ids(
        conn,
        "status = ? AND id IN (SELECT game_id FROM players WHERE user_id = ? AND left_seat IS NULL)",
        (RUNNING, user_id),
    )


async def _ids(conn: Connection, clause: str, params: tuple[Any, ...]) -> list[int]:
    async with conn.execute(f"SELECT id FROM games WHERE {clause} ORDER BY id", params) as cursor:
        return [row[0] for row in await cursor.fetchall()]


async def overdue(conn: Connection, now: float) -> list[int]:
    """Running games, not paused, whose deadline or reminder time has come."""
    async with conn.execute(
        """SELECT id FROM games WHERE status = ? AND paused_at IS NULL
           AND (deadline_at <= ? OR reminder_at <= ?) ORDER BY id""",
        (RUNNING, now, now),
    ) as cursor:
        return [row[0] for row in await cursor.fetchall()]


async def clock_times(conn: Connection, until: float | None) -> list[Any]:
    """``id, deadline_at, reminder_at`` of the running games not paused (those due by ``until``, when
    given), read from an index that holds these columns, never from the rows' big states."""
    query = "SELECT id, deadline_at, reminder_at FROM games WHERE status = ? AND paused_at IS NULL"
    params: tuple = (RUNNING,)
    if until is not None:
        query += " AND (deadline_at <= ? OR reminder_at <= ?)"
        params += (until, until)
    async with conn.execute(query, params) as cursor:
        return list(await cursor.fetchall())
