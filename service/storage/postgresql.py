"""The PostgreSQL store (asyncpg), chosen by ``DATABASE_URL=postgresql://…``; every difference between
the SQLite and the PostgreSQL dialect the bot meets is in this module.

- Placeholders: the service writes ``?``; PostgreSQL numbers them (``$1``, ``$2``, …).
- Schema: its own numbered files, migrations/postgresql/, step for step the SQLite ones in
  PostgreSQL's words: an identity column for SQLite's auto-numbered ``INTEGER PRIMARY KEY``, BIGINT
  for its 64-bit INTEGER (Discord ids need them), DOUBLE PRECISION for its REAL and BYTEA for its BLOB.
- The schema version is a row in ``schema_migrations`` (SQLite keeps it in ``PRAGMA user_version``).
- Transactions: writes of one process are made one at a time, as SQLite makes them, and each takes a
  pooled connection; reads see one snapshot (REPEATABLE READ) and run beside the writes. Across
  processes the version check on games keeps a turn from being resolved twice, and ``serialize``
  (a transaction's advisory lock) stands for SQLite's one writer at a time where a topic needs it.
- A copy (``migrate-db``) writes rows with their ids: the identity sequences are then moved past them.
- Many bots, one database (``service.runtime.claims``): each bot keeps a row in ``presence``, a copy by
  ``migrate-db`` too, so neither starts while the other runs, across restarts of the server
  (``service.storage.presence``).
- A server that cannot be reached (down, restarting, the network between) fails a read as it fails a
  write: the player is told nothing was done, not that the bot broke.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import pathlib
import re
import zlib
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from typing import Any

import asyncpg

from service.storage.base import RETURNS_ROWS, Fetched, Statement, redacted
from service.storage.errors import StorageFailure, StoreError, unreachable, unsaved
from service.storage.presence import CONNECT_SECONDS, Presence
from service.storage.sqlite import POSTGRESQL_MIGRATIONS, SchemaTooNewError, available_migrations

log = logging.getLogger(__name__)

_TOKENS = re.compile(r"'(?:[^']|'')*'|\"[^\"]*\"|\?")
MIGRATION_LOCK = 0x7465727269746F73  # any fixed number: two starting bots never apply one step twice
POOL_SIZE = 8
# Errors that mean the server, not the request, failed: a change they stop is reported as not saved.
_UNWRITABLE = (
    (asyncpg.DiskFullError, "the database server's disk is full"),
    (asyncpg.InsufficientResourcesError, "the database server is out of resources"),
    (asyncpg.ReadOnlySQLTransactionError, "the bot's database is read-only"),
)
# Errors that mean the server cannot be reached now (down, starting, stopping, or the network between).
_UNREACHABLE = (
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.PostgresConnectionError,
    OSError,
)


@functools.lru_cache(maxsize=2048)
def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1``, ``$2``, …; quoted text is left alone."""
    count = 0

    def number(match: re.Match) -> str:
        nonlocal count
        if match.group() != "?":
            return match.group()
        count += 1
        return f"${count}"

    return _TOKENS.sub(number, sql)


class PgConnection:
    """One pooled asyncpg connection speaking the service's SQL (see ``service.storage.store``)."""

    def __init__(self, conn: asyncpg.Connection):
        self.conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Statement:
        return Statement(functools.partial(self._run, numbered(sql), tuple(params)))

    async def _run(self, sql: str, params: tuple) -> Fetched:
        if RETURNS_ROWS.search(sql):
            rows = await self.conn.fetch(sql, *params)
            return Fetched(rows, len(rows))
        status = await self.conn.execute(sql, *params)
        count = status.rpartition(" ")[2]
        return Fetched([], int(count) if count.isdigit() else -1)

    async def fetch_each(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[asyncpg.Record]]:
        """The rows of each statement, one after the other (each a trip to the server either way)."""
        return [await self.conn.fetch(numbered(sql), *params) for sql, params in statements]

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = [tuple(row) for row in rows]
        if rows:
            await self.conn.executemany(numbered(sql), rows)


class PostgresStore:
    dialect = "postgresql"
    migrations = POSTGRESQL_MIGRATIONS  # its schema steps
    shared = True

    def __init__(self, pool: asyncpg.Pool, url: str):
        self.pool, self.url, self.where = pool, url, redacted(url)
        self._writing = asyncio.Lock()
        self.presence: Presence | None = None  # a held store's row (``service.storage.presence``)

    @property
    def session(self) -> int | None:
        """A held store's session on the server (it changes when the server drops it)."""
        return None if self.presence is None else self.presence.session

    @classmethod
    async def open(cls, url: str, *, hold: str | None = None) -> PostgresStore:
        """Connect to the server; ``hold`` as ``service.storage.store.open_store`` says."""
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=POOL_SIZE, timeout=CONNECT_SECONDS)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as err:
            raise StoreError(
                f"cannot use the PostgreSQL database {redacted(url)}: {err} (check DATABASE_URL, and that the "
                "server runs and lets this user in)"
            ) from err
        store = cls(pool, url)
        if hold is not None:
            try:
                store.presence = await Presence.take(url, hold, store.where)
            except BaseException:
                await store.close()
                raise
        return store

    async def close(self) -> None:
        if self.presence is not None:
            await self.presence.release()
            self.presence = None
        await self.pool.close()

    async def _may_write(self) -> None:
        """A held store writes only while its presence counts (``service.storage.presence``)."""
        if self.presence is not None:
            await self.presence.confirm()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgConnection]:
        """BEGIN … COMMIT on a pooled connection, rolled back on any exception; a failure of the server
        reaches the player as a StorageFailure saying nothing was saved. A held store commits only while
        its presence counts, checked again before COMMIT for a long transaction (a copy)."""
        async with self._writing:
            with self._reported("a write to %s failed and was undone: %s"):
                await self._may_write()
                async with self.pool.acquire() as conn, conn.transaction():
                    yield PgConnection(conn)
                    await self._may_write()

    async def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self.transaction() as conn:
            return (await conn.execute(sql, params)).rowcount

    @contextlib.asynccontextmanager
    async def reading(self) -> AsyncIterator[PgConnection]:
        """One snapshot; a server that cannot be reached reaches the player as a StorageFailure, as for a write."""
        with self._reported("a read of %s failed: %s"):
            async with self.pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
                yield PgConnection(conn)

    @contextlib.contextmanager
    def _reported(self, logged: str) -> Iterator[None]:
        """A failure of the server inside the block reaches the player as a StorageFailure (logged with
        ``logged``, given the database and the error); any other error passes as it is."""
        try:
            yield
        except Exception as err:
            failure = storage_failure(err)
            if failure is None:
                raise
            log.error(logged, self.where, err)
            raise failure from err

    async def migrate(self, folder: pathlib.Path | None = None) -> int:
        """Apply the missing numbered migrations (of ``folder``, default its own) in order, each in one
        transaction with its version row."""
        try:
            return await self._migrate(available_migrations(folder or self.migrations))
        except _UNREACHABLE as err:  # the server went away mid-way: what was applied is kept, each step whole
            raise StoreError(
                f"the database {self.where} could not be reached while the bot brought its schema up to date "
                f"({err.__class__.__name__}): start the bot again once the server is back"
            ) from err

    async def _migrate(self, steps: dict[int, pathlib.Path]) -> int:
        latest = max(steps, default=0)
        async with self.pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            try:
                current = await self._version(conn)
                if current > latest:
                    raise SchemaTooNewError(
                        f"the database {self.where} is at schema version {current}, newer than this bot (which "
                        f"knows up to {latest}): run a newer version of the bot or restore a backup"
                    )
                if current == 0 and await self._has_tables(conn):
                    raise StoreError(
                        f"the database {self.where} has tables but no schema version, so this bot did not make it: "
                        "point DATABASE_URL at an empty database, or restore a backup"
                    )
                for number in sorted(n for n in steps if n > current):
                    await self._apply(conn, number, steps[number])
                return await self._version(conn)
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)

    async def _apply(self, conn: asyncpg.Connection, number: int, path: pathlib.Path) -> None:
        try:
            async with conn.transaction():
                await conn.execute(path.read_text(encoding="utf-8"))
                await conn.execute("INSERT INTO schema_migrations (version) VALUES ($1)", number)
        except asyncpg.PostgresError as err:
            raise StoreError(f"the migration {path.name} failed on {self.where}: {err}") from err

    async def serialize(self, conn: PgConnection, topic: str) -> None:
        """A transaction's advisory lock on the topic: released by the server at COMMIT or ROLLBACK."""
        await conn.conn.execute("SELECT pg_advisory_xact_lock($1)", zlib.crc32(topic.encode()))

    async def session_alive(self, conn: PgConnection, session: int) -> bool:
        return await conn.conn.fetchval("SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = $1)", session)

    async def ids_follow_copied_rows(self, conn: PgConnection) -> None:
        """Each identity column's sequence restarts after the largest id of its table."""
        for table, column in await conn.conn.fetch(
            """SELECT table_name, column_name FROM information_schema.columns
               WHERE table_schema = current_schema() AND is_identity = 'YES'"""
        ):
            await conn.conn.execute(
                f"SELECT setval(pg_get_serial_sequence($1, $2), COALESCE(max({column}), 0) + 1, false) FROM {table}",
                table,
                column,
            )

    async def version(self) -> int:
        """The schema version: the last migration applied."""
        async with self.pool.acquire() as conn:
            return await self._version(conn)

    @staticmethod
    async def _version(conn: asyncpg.Connection) -> int:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_at TIMESTAMPTZ "
            "NOT NULL DEFAULT now())"
        )
        return await conn.fetchval("SELECT COALESCE(max(version), 0) FROM schema_migrations")

    @staticmethod
    async def _has_tables(conn: asyncpg.Connection) -> bool:
        return await conn.fetchval(
            """SELECT EXISTS (SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema()
                              AND table_name NOT IN ('schema_migrations', 'presence'))"""
        )


def storage_failure(err: BaseException) -> StorageFailure | None:
    """What to tell the player when ``err`` stopped his command, or None if it is not the server's fault."""
    if isinstance(err, _UNREACHABLE):
        return unreachable()
    reason = next((text for kind, text in _UNWRITABLE if isinstance(err, kind)), None)
    return None if reason is None else unsaved(reason)
