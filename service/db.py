"""The SQLite store: one aiosqlite connection, explicit transactions, and the migration runner.

Every connection uses WAL, foreign keys and a busy timeout. Statements of concurrent coroutines
would interleave on one connection, so all access goes through ``Database.lock``: a transaction
holds it from BEGIN to COMMIT.
"""

from __future__ import annotations

import asyncio
import contextlib
import pathlib
import re
from collections.abc import AsyncIterator

import aiosqlite

MIGRATIONS = pathlib.Path(__file__).resolve().parents[1] / "migrations"
_NAME = re.compile(r"^([0-9]{4})_[a-z0-9_]+\.sql$")


class SchemaTooNewError(RuntimeError):
    """The database was written by a newer version of the bot."""


class Database:
    def __init__(self, conn: aiosqlite.Connection):
        self.conn = conn
        self.lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | pathlib.Path, busy_timeout_ms: int = 5000) -> Database:
        conn = await aiosqlite.connect(str(path), isolation_level=None)
        conn.row_factory = aiosqlite.Row
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA foreign_keys=ON")
        await conn.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        await conn.execute("PRAGMA synchronous=NORMAL")
        return cls(conn)

    async def close(self) -> None:
        await self.conn.close()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception (a crash mid-way leaves nothing)."""
        async with self.lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            await self.conn.execute("COMMIT")

    @contextlib.asynccontextmanager
    async def reading(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self.lock:
            yield self.conn

    async def migrate(self, folder: pathlib.Path = MIGRATIONS) -> int:
        """Apply the missing numbered migrations in order, each in one transaction with its version."""
        steps = available_migrations(folder)
        latest = max(steps, default=0)
        async with self.lock:
            current = await self._version()
            if current > latest:
                raise SchemaTooNewError(
                    f"the database is at schema version {current}, but this bot only knows up to {latest}; "
                    "run a newer version of the bot or restore a backup"
                )
            for number in sorted(n for n in steps if n > current):
                script = steps[number].read_text(encoding="utf-8")
                try:
                    await self.conn.executescript(
                        f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;"
                    )
                except BaseException:
                    if self.conn.in_transaction:
                        await self.conn.execute("ROLLBACK")
                    raise
            return await self._version()

    async def _version(self) -> int:
        async with self.conn.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0])


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
    return steps
