"""One bot per database file.

Two bots on one file would each keep their own per-game locks and caches and overwrite each other's
writes, so the first holds an exclusive ``flock`` on ``<database>.lock`` while it runs and a second is
refused at start-up. The kernel drops the lock when the process ends, however it ends (even SIGKILL),
so a crash never leaves a stale lock behind.

A file has other names than the one given: a symlink, a hard link. The lock file is beside the file a
symlink leads to, and the database file itself is ``flock``-ed too: every name of it is the same inode,
so a bot started through a hard link is refused as well (SQLite's own locks are POSIX locks, which
``flock`` does not touch).
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
        self.real = pathlib.Path(os.path.realpath(self.database))  # where a symlink leads
        self.path = self.real.with_name(self.real.name + ".lock")
        self._fds: list[int] = []

    def acquire(self) -> InstanceLock:
        """The lock file first (a refusal then names the holder's process), then the database file."""
        try:
            named = self._open(self.path)
            if not _locked(named):
                holder = os.read(named, 32).decode(errors="replace").strip() or "?"
                raise self._refusal(f"another bot (process {holder})", str(self.database))
            os.ftruncate(named, 0)
            os.write(named, f"{os.getpid()}\n".encode())
            if not _locked(self._open(self.real)):
                raise self._refusal("another bot", f"{self.database} under another name (a hard link, say)")
        except BaseException:
            self.release()
            raise
        return self

    def release(self) -> None:
        """Closing the descriptors drops the flocks. The database file's is closed only after SQLite's
        connections: closing any descriptor of a file drops all the process's POSIX locks on it."""
        while self._fds:
            os.close(self._fds.pop())

    def _open(self, path: pathlib.Path) -> int:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as err:
            raise StoreError(explain(err, self.database)) from err
        self._fds.append(fd)
        return fd

    @staticmethod
    def _refusal(who: str, where: str) -> AlreadyRunning:
        return AlreadyRunning(
            f"{who} is already running on {where}: stop it first, or give this one its own DATABASE_PATH (two "
            "bots on one database would lose players' orders)"
        )


def _locked(fd: int) -> bool:
    """Whether this process now holds the exclusive flock, rather than another."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True
