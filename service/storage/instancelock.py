"""One bot per database file.

Two bots on one file would each keep their own per-game locks and caches and overwrite each other's
writes, so the first holds an exclusive ``flock`` on ``<database>.lock`` while it runs and a second is
refused at start-up. The kernel drops the lock when the process ends, however it ends (even SIGKILL),
so a crash never leaves a stale lock behind.
"""

from __future__ import annotations

import fcntl
import os
import pathlib

from service.storage.errors import StoreError, explain


class AlreadyRunning(StoreError):
    """Another process holds the database."""


class InstanceLock:
    def __init__(self, database: str | pathlib.Path):
        self.database = pathlib.Path(database)
        self.path = self.database.with_name(self.database.name + ".lock")
        self._fd: int | None = None

    def acquire(self) -> InstanceLock:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as err:
            raise StoreError(explain(err, self.database)) from err
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise AlreadyRunning(
                f"another bot (process {holder}) is already running on {self.database}: stop it first, or give "
                "this one its own DATABASE_PATH (two bots on one database would lose players' orders)"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None
