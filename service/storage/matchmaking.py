"""Queues (``queue_entries``), the servers sharing theirs (``matchmaking_servers``), ready checks
(``ready_checks``), who each matched (``ready_check_players``) and where each is posted
(``ready_check_posts``): every statement on them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from service.storage.store import Connection

WAITING, READY, OPENED = "waiting", "ready", "opened"
# How a check ends without a game: someone did not answer in time, said not now, or the game could not open.
LAPSED, DECLINED, FAILED = "lapsed", "declined", "failed"
SHARED = 0  # the queues' server id for the queues shared among servers


@dataclass(frozen=True)
class Queue:
    """Where players wait for one kind of game: a ruleset, a speed and a seat count, in one server
    (``guild_id``) or in the servers sharing their queues (``SHARED``)."""

    ruleset: str
    speed: str
    seats: int
    guild_id: int


@dataclass(frozen=True)
class Entry:
    user_id: int
    name: str
    queue: Queue
    guild_id: int  # where he queued (his queue's server, unless it is shared)
    channel_id: int
    rating: float
    queued_at: float  # his place in the queue
    expires_at: float
    missed: int = 0  # ready checks he let lapse in a row


@dataclass(frozen=True)
class Check:
    id: int
    queue: Queue
    channel_id: int  # where its game opens: the channel of the player waiting longest
    created_at: float
    expires_at: float
    status: str
    game_id: int | None
    told: str  # the last status shown on its post ('' before it is posted)


@dataclass(frozen=True)
class Member:
    """A player a ready check matched, as his queue entry was, and when he answered."""

    user_id: int
    name: str
    guild_id: int
    channel_id: int
    rating: float
    queued_at: float
    expires_at: float  # when his queue entry lapses, should the check send him back to the queue
    missed: int = 0
    ready_at: float | None = None


@dataclass(frozen=True)
class CheckPost:
    """A ready check's post in one channel its players queued from (``message_id`` once posted)."""

    channel_id: int
    guild_id: int
    message_id: int | None = None


def _entry(row) -> Entry:
    return Entry(
        row["user_id"],
        row["name"],
        Queue(row["ruleset"], row["speed"], row["seats"], row["guild_id"]),
        row["home_guild_id"],
        row["channel_id"],
        row["rating"],
        row["queued_at"],
        row["expires_at"],
        row["missed"],
    )


def _check(row) -> Check:
    return Check(
        row["id"],
        Queue(row["ruleset"], row["speed"], row["seats"], row["guild_id"]),
        row["channel_id"],
        row["created_at"],
        row["expires_at"],
        row["status"],
        row["game_id"],
        row["told"],
    )


async def enqueue(conn: Connection, entry: Entry) -> bool:
    """Put him in the queue; one already there keeps his place and gets the new expiry. True: new."""
    q = entry.queue
    async with conn.execute(
        """UPDATE queue_entries SET expires_at = ?, home_guild_id = ?, channel_id = ?, name = ?
           WHERE user_id = ? AND ruleset = ? AND speed = ? AND seats = ? AND guild_id = ?""",
        (
            entry.expires_at,
            entry.guild_id,
            entry.channel_id,
            entry.name,
            entry.user_id,
            q.ruleset,
            q.speed,
            q.seats,
            q.guild_id,
        ),
    ) as cursor:
        if cursor.rowcount:
            return False
    await conn.execute(
        """INSERT INTO queue_entries (user_id, ruleset, speed, seats, guild_id, name, home_guild_id, channel_id,
               rating, queued_at, expires_at, missed) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)""",
        (
            entry.user_id,
            q.ruleset,
            q.speed,
            q.seats,
            q.guild_id,
            entry.name,
            entry.guild_id,
            entry.channel_id,
            entry.rating,
            entry.queued_at,
            entry.expires_at,
            entry.missed,
        ),
    )
    return True


async def entries_of(conn: Connection, user_id: int) -> list[Entry]:
    async with conn.execute("SELECT * FROM queue_entries WHERE user_id = ? ORDER BY queued_at", (user_id,)) as cursor:
        return [_entry(row) for row in await cursor.fetchall()]


async def remove(conn: Connection, user_id: int, queue: Queue) -> None:
    await conn.execute(
        "DELETE FROM queue_entries WHERE user_id = ? AND ruleset = ? AND speed = ? AND seats = ? AND guild_id = ?",
        (user_id, queue.ruleset, queue.speed, queue.seats, queue.guild_id),
    )


async def waiting(conn: Connection, queue: Queue, now: float) -> list[Entry]:
    """The queue's players whose places have not lapsed, first come first."""
    async with conn.execute(
        """SELECT * FROM queue_entries WHERE ruleset = ? AND speed = ? AND seats = ? AND guild_id = ?
           AND expires_at > ? ORDER BY queued_at, user_id""",
        (queue.ruleset, queue.speed, queue.seats, queue.guild_id, now),
    ) as cursor:
        return [_entry(row) for row in await cursor.fetchall()]


async def full_queues(conn: Connection, now: float) -> list[Queue]:
    """The queues with players enough for a table (places not lapsed)."""
    async with conn.execute(
        """SELECT ruleset, speed, seats, guild_id FROM queue_entries WHERE expires_at > ?
           GROUP BY ruleset, speed, seats, guild_id HAVING COUNT(*) >= seats ORDER BY MIN(queued_at)""",
        (now,),
    ) as cursor:
        return [Queue(r["ruleset"], r["speed"], r["seats"], r["guild_id"]) for r in await cursor.fetchall()]


async def expire(conn: Connection, now: float) -> int:
    """Drop the entries whose time is up; how many."""
    cursor = await conn.execute("DELETE FROM queue_entries WHERE expires_at <= ?", (now,))
    return cursor.rowcount


async def add_check(conn: Connection, check: Check, members: Sequence[Member]) -> int:
    q = check.queue
    async with conn.execute(
        """INSERT INTO ready_checks (ruleset, speed, seats, guild_id, channel_id, created_at, expires_at, status)
           VALUES (?,?,?,?,?,?,?,?) RETURNING id""",
        (q.ruleset, q.speed, q.seats, q.guild_id, check.channel_id, check.created_at, check.expires_at, check.status),
    ) as cursor:
        (made,) = await cursor.fetchone()
    for m in members:
        await conn.execute(
            """INSERT INTO ready_check_players (check_id, user_id, name, guild_id, channel_id, rating, queued_at,
               expires_at, missed) VALUES (?,?,?,?,?,?,?,?,?)""",
            (made, m.user_id, m.name, m.guild_id, m.channel_id, m.rating, m.queued_at, m.expires_at, m.missed),
        )
        await remove(conn, m.user_id, q)
    for channel_id, guild_id in dict.fromkeys((m.channel_id, m.guild_id) for m in members):
        await conn.execute(
            "INSERT INTO ready_check_posts (check_id, channel_id, guild_id) VALUES (?,?,?)",
            (made, channel_id, guild_id),
        )
    return made


async def posts(conn: Connection, check_id: int) -> list[CheckPost]:
    """Where the check is posted: each channel its players queued from, the game's first."""
    async with conn.execute(
        "SELECT p.channel_id, p.guild_id, p.message_id FROM ready_check_posts p JOIN ready_checks c ON c.id = p.check_id "
        "WHERE p.check_id = ? ORDER BY p.channel_id <> c.channel_id, p.channel_id",
        (check_id,),
    ) as cursor:
        return [CheckPost(*row) for row in await cursor.fetchall()]


async def set_posted(conn: Connection, check_id: int, channel_id: int, message_id: int) -> None:
    await conn.execute(
        "UPDATE ready_check_posts SET message_id = ? WHERE check_id = ? AND channel_id = ?",
        (message_id, check_id, channel_id),
    )


async def shared_servers(conn: Connection, guild_ids: Sequence[int]) -> set[int]:
    """Those of these servers whose players wait in the shared queues."""
    if not guild_ids:
        return set()
    marks = ",".join("?" * len(guild_ids))
    async with conn.execute(
        f"SELECT guild_id FROM matchmaking_servers WHERE shared = 1 AND guild_id IN ({marks})", tuple(guild_ids)
    ) as cursor:
        return {row[0] for row in await cursor.fetchall()}


async def set_shared(conn: Connection, guild_id: int, shared: bool, set_by: int, now: float) -> None:
    """The server's choice; its players waiting move to the queues they now wait in, keeping their
    places (one already waiting there, from another server, keeps that place instead)."""
    await conn.execute(
        "INSERT INTO matchmaking_servers (guild_id, shared, set_by, set_at) VALUES (?,?,?,?) ON CONFLICT (guild_id) "
        "DO UPDATE SET shared = excluded.shared, set_by = excluded.set_by, set_at = excluded.set_at",
        (guild_id, int(shared), set_by, now),
    )
    to = SHARED if shared else guild_id
    await conn.execute(
        """DELETE FROM queue_entries WHERE home_guild_id = ? AND guild_id <> ? AND EXISTS (
               SELECT 1 FROM queue_entries t WHERE t.user_id = queue_entries.user_id AND t.ruleset = queue_entries.ruleset
               AND t.speed = queue_entries.speed AND t.seats = queue_entries.seats AND t.guild_id = ?)""",
        (guild_id, to, to),
    )
    await conn.execute(
        "UPDATE queue_entries SET guild_id = ? WHERE home_guild_id = ? AND guild_id <> ?", (to, guild_id, to)
    )


async def check_by_id(conn: Connection, check_id: int) -> Check | None:
    async with conn.execute("SELECT * FROM ready_checks WHERE id = ?", (check_id,)) as cursor:
        row = await cursor.fetchone()
    return _check(row) if row is not None else None


async def checks(conn: Connection, *statuses: str) -> list[Check]:
    marks = ",".join("?" * len(statuses))
    async with conn.execute(f"SELECT * FROM ready_checks WHERE status IN ({marks}) ORDER BY id", statuses) as cursor:
        return [_check(row) for row in await cursor.fetchall()]


async def untold(conn: Connection) -> list[Check]:
    """The checks whose post does not show their status yet."""
    async with conn.execute("SELECT * FROM ready_checks WHERE told <> status ORDER BY id") as cursor:
        return [_check(row) for row in await cursor.fetchall()]


async def members(conn: Connection, check_id: int) -> list[Member]:
    """Who it matched, first come first."""
    async with conn.execute(
        "SELECT * FROM ready_check_players WHERE check_id = ? ORDER BY queued_at, user_id", (check_id,)
    ) as cursor:
        return [
            Member(
                r["user_id"],
                r["name"],
                r["guild_id"],
                r["channel_id"],
                r["rating"],
                r["queued_at"],
                r["expires_at"],
                r["missed"],
                r["ready_at"],
            )
            for r in await cursor.fetchall()
        ]


async def set_ready(conn: Connection, check_id: int, user_id: int, at: float) -> None:
    await conn.execute(
        "UPDATE ready_check_players SET ready_at = ? WHERE check_id = ? AND user_id = ? AND ready_at IS NULL",
        (at, check_id, user_id),
    )


async def set_status(conn: Connection, check_id: int, status: str, was: str, game_id: int | None = None) -> bool:
    """Move the check from ``was`` to ``status`` (and note its game); False if it was no longer ``was``."""
    cursor = await conn.execute(
        "UPDATE ready_checks SET status = ?, game_id = COALESCE(?, game_id) WHERE id = ? AND status = ?",
        (status, game_id, check_id, was),
    )
    return cursor.rowcount == 1


async def note_game(conn: Connection, check_id: int, game_id: int) -> bool:
    """The game made for a check that is ready and has none yet; False (nothing noted) otherwise."""
    cursor = await conn.execute(
        "UPDATE ready_checks SET game_id = ? WHERE id = ? AND status = ? AND game_id IS NULL",
        (game_id, check_id, READY),
    )
    return cursor.rowcount == 1


async def set_told(conn: Connection, check_id: int, told: str) -> None:
    await conn.execute("UPDATE ready_checks SET told = ? WHERE id = ?", (told, check_id))


async def engaged(conn: Connection, user_id: int, open_statuses: Sequence[str]) -> int:
    """How many queue places he holds: entries waiting, checks pending, and games they opened still
    open (``open_statuses``: a game's statuses that count as open)."""
    marks = ",".join("?" * len(open_statuses))
    async with conn.execute(
        f"""SELECT (SELECT COUNT(*) FROM queue_entries WHERE user_id = ?)
                 + (SELECT COUNT(*) FROM ready_check_players p JOIN ready_checks c ON c.id = p.check_id
                    WHERE p.user_id = ? AND (c.status IN (?, ?)
                      OR (c.status = ? AND c.game_id IN (SELECT id FROM games WHERE status IN ({marks})))))""",
        (user_id, user_id, WAITING, READY, OPENED, *open_statuses),
    ) as cursor:
        (count,) = await cursor.fetchone()
    return count
