"""What both stores share, apart from the service's view of a store (``service.storage.store``): how a
statement's rows are handed back, how a store is held, and a database URL fit to be shown. Both
``service.storage.sqlite`` and ``service.storage.postgresql`` build on it; ``service.storage.store`` opens one or the other."""

from __future__ import annotations

import os
import re
import secrets
import socket
import urllib.parse
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

BOT, SOLE = "bot", "sole"  # how a store is held (``service.storage.store.open_store``)
RETURNS_ROWS = re.compile(r"^\s*(SELECT|WITH|VALUES|PRAGMA)\b|\bRETURNING\b", re.IGNORECASE)


class Fetched:
    """A statement's outcome, its rows already read: the cursor both stores hand out."""

    def __init__(self, rows: Sequence[Any], rowcount: int):
        self.rows, self.rowcount = rows, rowcount

    async def fetchone(self) -> Any:
        return self.rows[0] if self.rows else None

    async def fetchall(self) -> Sequence[Any]:
        return self.rows


class Statement:
    """What ``execute`` returns: await it, or use it with ``async with``, for its ``Fetched``."""

    def __init__(self, run: Callable[[], Awaitable[Fetched]]):
        self._run = run

    def __await__(self):
        return self._run().__await__()

    async def __aenter__(self) -> Fetched:
        return await self._run()

    async def __aexit__(self, *exc) -> None:
        return None


def process_name() -> str:
    """Who holds a lease or a database: readable in the table, and unique even when a pid is reused."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def redacted(url: str) -> str:
    """The URL without its password, to be logged and shown."""
    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))
