"""Service tests run against a real SQLite file with a clock that moves only when told."""

from __future__ import annotations

import sqlite3

import pytest

from service import GameMaster
from service.clock import ManualClock
from service.db import Database
from service.models import Actor, Announcement, TimeSettings
from service.outbox import Outbox

GUILD, CHANNEL = 100, 200
ALICE, BOB, CAROL = Actor(1, "Alice"), Actor(2, "Bob"), Actor(3, "Carol")
ADMIN = Actor(99, "Mod", is_admin=True)
HOUR = 3600


async def fill_disk(db: Database) -> None:
    """SQLite's own full-disk condition: the file may no longer grow, and no page has room left."""
    async with db.reading() as conn:
        (pages,) = await (await conn.execute("PRAGMA page_count")).fetchone()
        await conn.execute(f"PRAGMA max_page_count = {pages + 2}")
        await conn.execute("CREATE TABLE IF NOT EXISTS filler (x BLOB)")
        for size in (4000, 1000, 200, 50, 10, 1):
            try:
                while True:
                    await conn.execute("INSERT INTO filler VALUES (randomblob(?))", (size,))
            except sqlite3.OperationalError:
                pass
        (pages,) = await (await conn.execute("PRAGMA page_count")).fetchone()
        await conn.execute(f"PRAGMA max_page_count = {pages}")


async def free_disk(db: Database) -> None:
    async with db.reading() as conn:
        await conn.execute("PRAGMA max_page_count = 1000000")


class ListSink:
    """Records deliveries. Like Discord with a message nonce, a repeated id is not posted twice."""

    def __init__(self):
        self.posted: list[Announcement] = []
        self.fail_next = 0

    async def deliver(self, announcement: Announcement) -> None:
        if self.fail_next:
            self.fail_next -= 1
            raise ConnectionError("Discord is unreachable")
        if all(a.id != announcement.id for a in self.posted):
            self.posted.append(announcement)

    def kinds(self) -> list[str]:
        return [a.kind for a in self.posted]


class Env:
    """One game master on one database file; ``restart`` reopens the file as a new process would."""

    def __init__(self, path, clock: ManualClock):
        self.path, self.clock, self.sink = path, clock, ListSink()
        self.db: Database | None = None
        self.master: GameMaster | None = None
        self.outbox: Outbox | None = None

    async def open(self, fault=None) -> Env:
        self.db = await Database.open(self.path)
        await self.db.migrate()
        kwargs = {"fault": fault} if fault else {}
        self.master = GameMaster(self.db, self.clock, **kwargs)
        self.outbox = Outbox(self.db, self.clock, self.sink, **kwargs)
        return self

    async def restart(self, fault=None) -> Env:
        await self.db.close()
        return await self.open(fault)

    async def new_game(
        self,
        *players,
        time: TimeSettings = TimeSettings(round_seconds=HOUR, reminder_seconds=600),
        ai: int = 0,
        options=None,
        seed: int = 5,
    ):
        master = self.master
        game = await master.create_game(
            guild_id=GUILD,
            channel_id=CHANNEL,
            actor=players[0],
            ruleset="conquest",
            options=options or {"size": "small"},
            time=time,
            seed=seed,
        )
        for player in players[1:]:
            await master.join(game.id, player)
        for _ in range(ai):
            await master.add_ai(game.id, players[0])
        return await master.start_game(game.id, players[0])

    async def count(self, sql: str, *params) -> int:
        async with self.db.reading() as conn:
            async with conn.execute(sql, params) as cursor:
                (value,) = await cursor.fetchone()
        return value


@pytest.fixture
async def env(tmp_path):
    environment = await Env(tmp_path / "games.sqlite3", ManualClock()).open()
    yield environment
    await environment.db.close()
