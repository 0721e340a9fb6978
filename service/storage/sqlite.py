"""The SQLite store (the default; see ``service.storage.store``): one writing connection, a few
reading ones, explicit transactions, and the migration runner.

Every connection uses WAL, foreign keys and a busy timeout. Statements of concurrent coroutines
would interleave on one connection, so the writer is used under ``Database.lock`` (a transaction
holds it from BEGIN to COMMIT). Reads go to a pool of ``READERS`` connections of their own, each read
one transaction over one snapshot (WAL lets readers run beside the writer): a game read never waits
behind another player's long read, nor behind a write.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import pathlib
import re
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from typing import Any

import aiosqlite

from service.storage.base import RETURNS_ROWS, Fetched, Statement
from service.storage.errors import StorageFailure, StoreError, explain, storage_failure
from service.storage.instancelock import InstanceLock

log = logging.getLogger(__name__)

# Each database's schema steps, written for it: the same numbers, the same resulting schema
# (tests/service/test_schema_parity.py compares them).
MIGRATIONS = pathlib.Path(__file__).resolve().parents[2] / "migrations" / "sqlite"
POSTGRESQL_MIGRATIONS = MIGRATIONS.parent / "postgresql"
_NAME = re.compile(r"^([0-9]{4})_[a-z0-9_]+\.sql$")
READERS = (
    4  # reads at once (a bot's; the web site takes one); more would only queue on two cores' worth of SQLite threads
)


class SchemaTooNewError(StoreError):
    """The database was written by a newer version of the bot."""


class SqliteConnection:
    """The service's view of the connection: each statement one trip to aiosqlite's thread (a read
    runs and is fetched at once, a write reports its rowcount), instead of execute, fetch and close
    each crossing over; a reading's BEGIN goes with its first statement, and ``fetch_each`` runs
    several reads in one trip. Trips, not statements, are what a read costs: each wakes a thread
    that must take the interpreter's lock from the event loop (and readers contend for it)."""

    def __init__(self, conn: aiosqlite.Connection):
        self.conn = conn
        self.opening: str | None = None  # the BEGIN to send with the next statement (a reading's)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Statement:
        return Statement(functools.partial(self._run, sql, params))

    async def _run(self, sql: str, params: Sequence[Any]) -> Fetched:
        if RETURNS_ROWS.search(sql):
            (rows,) = await self._trip([(sql, params)])
            return Fetched(rows, len(rows))
        if self.opening is not None:
            opening, self.opening = self.opening, None
            await self.conn.execute(opening)
        cursor = await self.conn.execute(sql, params)
        return Fetched([], cursor.rowcount)

    async def fetch_each(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[sqlite3.Row]]:
        """The rows of each statement, in one trip to the connection's thread."""
        return await self._trip(statements)

    async def _trip(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[sqlite3.Row]]:
        """aiosqlite runs every call as a function on the connection's thread, through ``_execute``."""
        opening, self.opening = self.opening, None
        return await self.conn._execute(_fetched, self.conn._conn, opening, list(statements))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = list(rows)
        if rows:  # no rows, no trip
            await self.conn.executemany(sql, rows)


class Database:
    dialect = "sqlite"
    migrations = MIGRATIONS  # its schema steps
    shared = False  # one bot per file (``InstanceLock``)
    session: int | None = None  # no server, no session

    def __init__(self, conn: aiosqlite.Connection, path: str | pathlib.Path, readers: Sequence[aiosqlite.Connection]):
        self.conn, self.path = conn, pathlib.Path(path)
        self.statements = SqliteConnection(conn)
        self.lock = asyncio.Lock()
        self.instance: InstanceLock | None = None
        self._readers = [SqliteConnection(reader) for reader in readers]
        self._idle: asyncio.Queue[SqliteConnection] = asyncio.Queue()
        for reader in self._readers:
            self._idle.put_nowait(reader)

    @classmethod
    async def open(
        cls, path: str | pathlib.Path, busy_timeout_ms: int = 5000, *, alone: bool = False, readers: int = READERS
    ) -> Database:
        """Open and configure the file; on failure nothing is left open (the connection's thread would
        keep the process alive) and the error says what to fix. ``alone``: refuse to start beside
        another bot on this file."""
        if readers < 1:
            raise ValueError(f"a database needs at least one reading connection, not {readers}")
        instance = InstanceLock(path).acquire() if alone else None
        try:
            db = await cls._connect(path, busy_timeout_ms, readers)
        except BaseException:
            if instance is not None:
                instance.release()
            raise
        db.instance = instance
        return db

    @classmethod
    async def _connect(cls, path: str | pathlib.Path, busy_timeout_ms: int, readers: int) -> Database:
        """The writer first (it turns WAL on), then the readers."""
        opened: list[aiosqlite.Connection] = []
        try:
            for reader in (False, *[True] * readers):
                opened.append(await _connection(path, busy_timeout_ms, reader=reader))
        except BaseException as err:
            for conn in opened:
                await conn.close()
            if isinstance(err, sqlite3.Error):
                raise StoreError(explain(err, path)) from err
            raise
        return cls(opened[0], path, opened[1:])

    async def close(self) -> None:
        await self.conn.close()
        for reader in self._readers:
            await reader.conn.close()
        if self.instance is not None:
            self.instance.release()
            self.instance = None

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteConnection]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception (a crash mid-way leaves nothing).

        SQLite rolls back by itself after some errors (a full disk): the error raised is then the
        real one, never the "no transaction is active" of a second rollback."""
        async with self.lock:
            try:
                await self.conn.execute("BEGIN IMMEDIATE")
                yield self.statements
                await self.conn.execute("COMMIT")
            except BaseException as err:
                await self._roll_back()
                if (failure := self._unsaved(err)) is None:
                    raise
                raise failure from err

    async def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement, atomic by itself (SQLite's autocommit: one trip instead of a transaction's
        three); returns how many rows it changed."""
        async with self.lock:
            try:
                return (await self.statements.execute(sql, params)).rowcount
            except BaseException as err:
                if (failure := self._unsaved(err)) is None:
                    raise
                raise failure from err

    def _unsaved(self, err: BaseException) -> StorageFailure | None:
        """The storage failure players are told about when ``err`` means the write could not be made."""
        if not isinstance(err, sqlite3.Error) or (failure := storage_failure(err)) is None:
            return None
        log.error("a write to %s failed and was undone: %s", self.path, explain(err, self.path))
        return failure

    async def _roll_back(self) -> None:
        if not self.conn.in_transaction:
            return
        try:
            await self.conn.execute("ROLLBACK")
        except sqlite3.Error:
            log.exception("rolling back failed too; the first error follows")

    @contextlib.asynccontextmanager
    async def reading(self) -> AsyncIterator[SqliteConnection]:
        """An idle reader, in one read transaction: its reads see one snapshot of the database."""
        reader = await self._idle.get()
        try:
            await _end_read(reader.conn)  # a read cancelled on its way out may have left one open
            reader.opening = "BEGIN"
            yield reader
        finally:
            reader.opening = None
            try:
                await _end_read(reader.conn)
            finally:
                self._idle.put_nowait(reader)  # back in the pool whatever happened: it is never lost

    async def migrate(self, folder: pathlib.Path | None = None) -> int:
        """Apply the missing numbered migrations (of ``folder``, default its own) in order, each in one
        transaction with its version."""
        steps = available_migrations(folder or self.migrations)
        latest = max(steps, default=0)
        async with self.lock:
            current = await self._version()
            if current > latest:
                raise SchemaTooNewError(
                    f"the database {self.path} is at schema version {current}, newer than this bot (which knows "
                    f"up to {latest}): run a newer version of the bot or restore a backup"
                )
            if current == 0 and await self._has_tables():
                raise StoreError(
                    f"the database {self.path} has tables but no schema version, so this bot did not make it (or "
                    "its version was reset): point DATABASE_PATH at a new file, or restore a backup"
                )
            for number in sorted(n for n in steps if n > current):
                script = steps[number].read_text(encoding="utf-8")
                try:
                    await self.conn.executescript(
                        f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;"
                    )
                except BaseException:
                    await self._roll_back()
                    raise
            return await self._version()

    async def serialize(self, conn: SqliteConnection, topic: str) -> None:
        """Nothing to do: a SQLite write transaction (BEGIN IMMEDIATE) already excludes every other."""

    async def session_alive(self, conn: SqliteConnection, session: int) -> bool:
        """Never asked: no other process shares the file."""
        return True

    async def ids_follow_copied_rows(self, conn: SqliteConnection) -> None:
        """Nothing to do: SQLite numbers a new row after the largest id in its table."""

    async def version(self) -> int:
        """The schema version: the last migration applied."""
        async with self.lock:
            return await self._version()

    async def _has_tables(self) -> bool:
        async with self.conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' LIMIT 1"
        ) as cursor:
            return await cursor.fetchone() is not None

    async def _version(self) -> int:
        return int(await _pragma(self.conn, "PRAGMA user_version"))


async def _connection(path: str | pathlib.Path, busy_timeout_ms: int, *, reader: bool) -> aiosqlite.Connection:
    """A configured connection; a reader may not write (``query_only``), so a write that strays into a
    read fails at once instead of racing the writer."""
    conn = await _connected(path)
    try:
        conn.row_factory = aiosqlite.Row
        mode = await _pragma(conn, "PRAGMA journal_mode=WAL")
        if mode != "wal":  # SQLite answers with the old mode when it cannot write the file
            readonly = sqlite3.OperationalError("attempt to write a readonly database")
            readonly.sqlite_errorname = "SQLITE_READONLY"
            raise readonly
        await conn.execute("PRAGMA foreign_keys=ON")
        await conn.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        await conn.execute("PRAGMA synchronous=NORMAL")
        if reader:
            await conn.execute("PRAGMA query_only=ON")
    except BaseException:
        await conn.close()
        raise
    return conn


async def _connected(path: str | pathlib.Path) -> aiosqlite.Connection:
    """aiosqlite's connection, or StoreError once its thread has ended: aiosqlite stops the thread of a
    connection that failed to open without waiting for it, and a thread that outlives the event loop dies
    with an "Event loop is closed" traceback after the bot's one-line refusal."""
    pending = aiosqlite.connect(str(path), isolation_level=None)
    try:
        return await pending
    except BaseException as err:
        await asyncio.to_thread(pending._thread.join)
        if isinstance(err, sqlite3.Error):
            raise StoreError(explain(err, path)) from err
        raise


def _fetched(raw: sqlite3.Connection, opening: str | None, statements: list[tuple[str, Sequence[Any]]]) -> list:
    """On the connection's thread: ``opening`` (a reading's BEGIN), then each statement's rows."""
    if opening is not None:
        raw.execute(opening)
    return [raw.execute(sql, params).fetchall() for sql, params in statements]


async def _end_read(conn: aiosqlite.Connection) -> None:
    """End a reader's transaction: nothing to keep, it only read."""
    if conn.in_transaction:
        await conn.execute("ROLLBACK")


async def _pragma(conn: aiosqlite.Connection, sql: str) -> Any:
    """The value a PRAGMA answers with, in its one row."""
    async with conn.execute(sql) as cursor:
        row = await cursor.fetchone()
    if row is None:
        raise StoreError(f"SQLite did not answer {sql}")
    (value,) = row
    return value


# Numbers no migration ever had: 0004 was followed by 0006 when they were first released, so no
# database was ever at 5, and a file numbered 5 now would never run on the databases past it.
NEVER_WRITTEN = frozenset({5})


def available_migrations(folder: pathlib.Path) -> dict[int, pathlib.Path]:
    steps: dict[int, pathlib.Path] = {}
    for path in folder.glob("*.sql"):
        match = _NAME.match(path.name)
        if not match:
            raise ValueError(f"migration file {path.name} must be named NNNN_description.sql")
        number = int(match.group(1))
        if number in steps:
            raise ValueError(f"two migrations numbered {number}: {steps[number].name}, {path.name}")
        steps[number] = path
    missing = sorted(set(range(1, max(steps, default=0) + 1)) - set(steps) - NEVER_WRITTEN)
    if missing:
        raise ValueError(f"migration {missing[0]:04d} is missing: migrations are numbered without gaps")
    return steps
