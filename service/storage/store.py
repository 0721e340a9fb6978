"""What the service needs of a database, and which one a location names.

Two stores implement it: the embedded SQLite file (``service.storage.sqlite``, the default) and a PostgreSQL
server (``service.storage.postgresql``, chosen by a ``postgresql://`` URL). The service's SQL is one text for
both, written with ``?`` placeholders; what differs between the two dialects lives in
``service.storage.postgresql`` alone.

A connection answers the part of aiosqlite's interface the service uses: ``execute(sql, params)``
gives a cursor (awaited, or used with ``async with``) with ``fetchone``, ``fetchall`` and
``rowcount``; ``executemany(sql, rows)``. Rows are read by column name or position. Both stores run a
statement and fetch its rows in one round trip (``service.storage.base.Statement``): a turn makes dozens of statements,
and each crossing to a database thread or server costs more than the small reads themselves.
"""

from __future__ import annotations

import pathlib
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol, TypeGuard, TypeVar

from service.storage.base import BOT as BOT  # how open_store's callers hold a store
from service.storage.base import SOLE as SOLE
from service.storage.base import redacted

POSTGRESQL_SCHEMES = ("postgresql://", "postgres://")
SQLITE_SCHEME = "sqlite:///"

Location = str | pathlib.Path  # a SQLite file's path, or a database URL


class Connection(Protocol):
    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """A cursor: ``await`` it, or ``async with`` it."""

    async def fetch_each(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[Any]:
        """The rows of each read, in one trip where the store can."""

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> Any: ...


ConnectionT = TypeVar("ConnectionT", bound=Connection)  # a store takes back only the connections it hands out


class Store(Protocol[ConnectionT]):
    dialect: str  # "sqlite" or "postgresql"
    migrations: pathlib.Path  # its own numbered schema steps
    shared: bool  # several bot processes may use it at once (``service.runtime.claims``)

    @property
    def session(self) -> int | None:
        """A shared store held by a bot: its session on the server, which ends with the process."""

    def transaction(self) -> AbstractAsyncContextManager[ConnectionT]:
        """All or nothing: committed when the block ends, rolled back on any exception."""

    def reading(self) -> AbstractAsyncContextManager[ConnectionT]:
        """Reads that see one consistent state of the database."""

    async def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement in a transaction of its own; returns how many rows it changed."""

    async def migrate(self, folder: pathlib.Path | None = None) -> int: ...

    async def version(self) -> int: ...

    async def serialize(self, conn: ConnectionT, topic: str) -> None:
        """Inside a transaction: wait until no other process's transaction is on ``topic``, and keep
        them waiting until this one ends."""

    async def session_alive(self, conn: ConnectionT, session: int) -> bool:
        """Whether that bot's session on a shared store's server still lives (its process has not ended)."""

    async def ids_follow_copied_rows(self, conn: ConnectionT) -> None:
        """Rows were written with their ids (a copy): make the ids of new rows follow them."""

    async def close(self) -> None: ...


def described(location: Location) -> str:
    """Where the games are, for the log: the file, or the server's URL without its password."""
    return redacted(location) if is_postgresql(location) else str(sqlite_path(location))


def is_postgresql(location: Location) -> TypeGuard[str]:
    return isinstance(location, str) and location.startswith(POSTGRESQL_SCHEMES)


def sqlite_path(location: Location) -> pathlib.Path:
    """The file a SQLite location names: a plain path, or a URL (``sqlite:///games.sqlite3`` is relative to
    the working folder, ``sqlite:////srv/games.sqlite3`` absolute, as elsewhere)."""
    text = str(location)
    return pathlib.Path(text.removeprefix(SQLITE_SCHEME))


async def open_store(location: Location, *, hold: str | None = None, readers: int | None = None) -> Store[Any]:
    """Open the store ``location`` names, its schema not yet migrated; raises StoreError saying what to fix.

    ``hold``: ``BOT`` for a bot process (a SQLite file takes one, a PostgreSQL database any number),
    ``SOLE`` when nothing else may use the database meanwhile (a copy by ``migrate-db``); None for a
    look that guards nothing (tests, benches). ``readers``: a SQLite file's reading connections, if
    not its default."""
    if is_postgresql(location):
        from service.storage.postgresql import PostgresStore  # asyncpg is loaded only by bots that use it

        return await PostgresStore.open(str(location), hold=hold)
    from service.storage.sqlite import READERS, Database

    return await Database.open(
        sqlite_path(location), alone=hold is not None, readers=READERS if readers is None else readers
    )
