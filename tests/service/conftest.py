"""Service tests run against a real store with a clock that moves only when told: each test that takes
``store`` (through ``env`` or ``places``) runs once on a SQLite file and once on a PostgreSQL database
of the session's test server. A test marked ``sqlite_only`` or ``postgresql_only`` (saying why) runs on
that store alone."""

from __future__ import annotations

import asyncio
import concurrent.futures
import sqlite3

import asyncpg
import pytest

from service import GameMaster
from service.clock import ManualClock
from service.models import Actor, Announcement, TimeSettings
from service.runtime.outbox import Outbox
from service.storage.postgresql import PostgresStore
from service.storage.sqlite import Database
from service.storage.store import Location, Store, open_store
from tests.pgcluster import Cluster

GUILD, CHANNEL = 100, 200
ALICE, BOB, CAROL = Actor(1, "Alice"), Actor(2, "Bob"), Actor(3, "Carol")
ADMIN = Actor(99, "Mod", is_admin=True)
HOUR = 3600


async def fill_disk(db: Database) -> None:
    """SQLite's own full-disk condition: the file may no longer grow, and no page has room left (for
    the writing connection, which alone writes)."""
    async with db.lock:
        conn = db.statements
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
    async with db.lock:
        await db.statements.execute("PRAGMA max_page_count = 1000000")


class ListSink:
    """Records deliveries. Like Discord with a message nonce, a repeated id is not posted twice."""

    def __init__(self):
        self.posted: list[Announcement] = []
        self.seasons_told: list[tuple] = []  # (guild, season, channel, its final tables)
        self.tournaments_told: list = []  # each tournament's news, once
        self.checks_shown: list = []  # each ready check as it was shown
        self.fail_next = 0

    async def deliver(self, announcement: Announcement) -> None:
        if self.fail_next:
            self.fail_next -= 1
            raise ConnectionError("Discord is unreachable")
        if all(a.id != announcement.id for a in self.posted):
            self.posted.append(announcement)

    async def post_season_end(self, season, number, tables) -> None:
        if all(told[:2] != (season.guild_id, number) for told in self.seasons_told):
            self.seasons_told.append((season.guild_id, number, season.channel_id, tables))

    async def post_tournament(self, news) -> None:
        if all((told.tournament.id, told.step) != (news.tournament.id, news.step) for told in self.tournaments_told):
            self.tournaments_told.append(news)

    async def show_ready_check(self, check, members, post) -> int:
        self.checks_shown.append((check, members, post))
        return post.message_id or 1000 * check.id + post.channel_id

    def kinds(self) -> list[str]:
        return [a.kind for a in self.posted]


class Env:
    """One game master on one database; ``restart`` reopens it as a new process would."""

    def __init__(self, location: Location, clock: ManualClock, *, hold: str | None = None):
        self.location, self.clock, self.sink, self.hold = location, clock, ListSink(), hold
        self.db: Store | None = None
        self.master: GameMaster | None = None
        self.outbox: Outbox | None = None

    async def open(self, fault=None) -> Env:
        self.db = await open_store(self.location, hold=self.hold)
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
        game = await master.lobby.create_game(
            guild_id=GUILD,
            channel_id=CHANNEL,
            actor=players[0],
            ruleset="conquest",
            options=options or {"size": "small"},
            time=time,
            seed=seed,
        )
        for player in players[1:]:
            await master.lobby.join(game.id, player)
        for _ in range(ai):
            await master.lobby.add_ai(game.id, players[0])
        return await master.lobby.start_game(game.id, players[0])

    async def played_a_round(self, game):
        """The game after everyone in it passed its first round: its start and that round are to be posted."""
        for player in game.players:
            await self.master.play.submit(game.id, Actor(player.user_id, player.name))
        return game

    async def count(self, sql: str, *params) -> int:
        async with self.db.reading() as conn:
            async with conn.execute(sql, params) as cursor:
                (value,) = await cursor.fetchone()
        return value


def pytest_generate_tests(metafunc):
    if "store" in metafunc.fixturenames:
        kinds = [
            kind
            for kind in ("sqlite", "postgresql")
            if not metafunc.definition.get_closest_marker(f"{OTHER[kind]}_only")
        ]
        metafunc.parametrize("store", kinds, indirect=True)


OTHER = {"sqlite": "postgresql", "postgresql": "sqlite"}


def pytest_configure(config):
    for kind in OTHER:
        config.addinivalue_line("markers", f"{kind}_only(why): the test checks something only the {kind} store has")


def blocking(work):
    """Run a coroutine to its end from synchronous code, on its own loop (fixtures' set-up and tear-down)."""
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, work).result()


async def admin(cluster: Cluster, database: str, *statements: str) -> None:
    conn = await asyncpg.connect(cluster.url(database))
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


class PostgresDatabases:
    """The test server's databases with the schema: made once from a migrated template, then emptied
    after each test (its connections ended, every row deleted, ids restarted) for the next one, which
    is many times faster than copying the template (or truncating the tables) for every test."""

    TEMPLATE = "service_template"

    def __init__(self, cluster: Cluster):
        self.cluster = cluster
        self.free: list[str] = []

    async def make_template(self) -> None:
        await admin(self.cluster, "postgres", f"CREATE DATABASE {self.TEMPLATE}")
        store = await PostgresStore.open(self.cluster.url(self.TEMPLATE))
        try:
            await store.migrate()
        finally:
            await store.close()

    async def take(self, empty: bool) -> str:
        if self.free and not empty:
            return self.free.pop()
        database = self.cluster.fresh_name()
        template = "template0" if empty else self.TEMPLATE
        await admin(self.cluster, "postgres", f"CREATE DATABASE {database} TEMPLATE {template}")
        return database

    async def give_back(self, database: str, empty: bool) -> None:
        """An empty-made database may hold any schema: it is dropped; the others are emptied for reuse."""
        if empty:
            await admin(self.cluster, "postgres", f"DROP DATABASE {database} WITH (FORCE)")
            return
        conn = await asyncpg.connect(self.cluster.url(database))
        try:
            await conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
                database,
            )
            async with conn.transaction():
                for (table,) in await conn.fetch(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations'"
                ):
                    await conn.execute(f"DELETE FROM {table}")
            await conn.execute(
                """SELECT setval(pg_get_serial_sequence(table_name, column_name), 1, false)
                   FROM information_schema.columns WHERE table_schema = 'public' AND is_identity = 'YES'"""
            )
        finally:
            await conn.close()
        self.free.append(database)


@pytest.fixture(scope="session")
def postgresql_databases(postgresql_cluster) -> PostgresDatabases:
    databases = PostgresDatabases(postgresql_cluster)
    blocking(databases.make_template())
    return databases


class Places:
    """New databases for one test: SQLite files in its folder, or databases on the test server, each
    with the schema already there (``empty``: without it)."""

    def __init__(self, kind: str, folder, databases: PostgresDatabases | None):
        self.kind, self.folder, self.databases = kind, folder, databases
        self.taken: list[tuple[str, bool]] = []

    def new(self, name: str = "games", *, empty: bool = False) -> Location:
        if self.databases is None:
            return self.folder / f"{name}.sqlite3"
        database = blocking(self.databases.take(empty))
        self.taken.append((database, empty))
        return self.databases.cluster.url(database)

    def give_back(self) -> None:
        for database, empty in self.taken:
            blocking(self.databases.give_back(database, empty))


@pytest.fixture
def store(request) -> str:
    return request.param


@pytest.fixture
def places(store, tmp_path, request):
    databases = request.getfixturevalue("postgresql_databases") if store == "postgresql" else None
    made = Places(store, tmp_path, databases)
    yield made
    made.give_back()


@pytest.fixture
async def env(places):
    environment = await Env(places.new(), ManualClock()).open()
    yield environment
    await environment.db.close()
