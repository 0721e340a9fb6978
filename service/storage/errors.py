"""Why the database cannot be used, told as what to fix.

A bot that cannot use its database must stop at once with one line a person can act on ("the disk
is full", "the file is read-only"), not a traceback; a supervisor then restarts it once it is fixed.
"""

from __future__ import annotations

import errno
import os
import pathlib
import shutil
import sqlite3

from i18n import tr
from service.errors import GameError

# What a player is told when his change could not be written, by SQLite's primary error code.
_UNWRITABLE = {
    "SQLITE_FULL": "the bot's disk is full",
    "SQLITE_READONLY": "the bot's database is read-only",
    "SQLITE_IOERR": "the bot's disk reported an error",
    "SQLITE_CORRUPT": "the bot's database is damaged",
    "SQLITE_NOTADB": "the bot's database is damaged",
    "SQLITE_CANTOPEN": "the bot cannot open its database",
    "SQLITE_BUSY": "another program is holding the bot's database",
}


class StoreError(RuntimeError):
    """The database cannot be used; the message says what to fix."""


class StorageFailure(GameError):
    """A change could not be written (the disk, not the request, is at fault); nothing was saved."""


class DamagedHistory(GameError):
    """A stored history row cannot be read back (its bytes were damaged outside the bot)."""


def storage_failure(err: sqlite3.Error) -> StorageFailure | None:
    """What to tell the player when ``err`` stopped his change, or None if it is not the storage's fault."""
    name = getattr(err, "sqlite_errorname", "") or ""
    reason = next((text for code, text in _UNWRITABLE.items() if name == code or name.startswith(code + "_")), None)
    return None if reason is None else unsaved(reason)


def unsaved(reason: str) -> StorageFailure:
    """The player's message for a change the store could not write, ``reason`` being the store's fault."""
    return StorageFailure(f"nothing was saved: {reason}. Please tell whoever runs the bot, and try again later")


def unreachable() -> StorageFailure:
    """The player's message when the database server cannot be reached: whatever he asked was not done."""
    return StorageFailure(tr("the database cannot be reached right now and nothing was saved: try again in a minute"))


def explain(err: sqlite3.Error | OSError, path: str | pathlib.Path) -> str:
    """One sentence on ``err`` met while using the database at ``path``."""
    path = pathlib.Path(path)
    name = getattr(err, "sqlite_errorname", "") or ""
    number = getattr(err, "errno", None)
    if number == errno.EISDIR or path.is_dir():
        return (
            f"{path} is a folder, not a database file: point DATABASE_PATH at a file (in that folder, say; a new "
            "file starts with no games)"
        )
    if name == "SQLITE_FULL" or number == errno.ENOSPC:
        return f"disk full at {path}{_free(path)}: free some space on that disk"
    if name == "SQLITE_NOTADB":
        return (
            f"{path} is not a SQLite database: point DATABASE_PATH at the bot's database, or at a new file to "
            "start with no games"
        )
    if name == "SQLITE_CORRUPT":
        return f"the database {path} is damaged: restore a backup ({err})"
    if name.startswith("SQLITE_READONLY") or number in (errno.EROFS, errno.EACCES, errno.EPERM) or _read_only(path):
        return (
            f"the database {path} is read-only: the bot must be able to write the file, its folder and the "
            "-wal/-shm/.lock files beside it (check their owner and permissions, and that the disk is not "
            "mounted read-only)"
        )
    if name == "SQLITE_CANTOPEN" or isinstance(err, OSError):
        return f"cannot open the database {path}: check that its folder exists and the bot may write there ({err})"
    return f"cannot use the database {path}: {err}"


def _free(path: pathlib.Path) -> str:
    try:
        free = shutil.disk_usage(path.parent if path.parent.exists() else ".").free
    except OSError:
        return ""
    return f" ({free // 1024} KiB free)"


def _read_only(path: pathlib.Path) -> bool:
    """The file or its folder cannot be written (SQLite says only "unable to open" when the -shm cannot be made)."""
    folder = path.parent
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return True
    except OSError:
        return False
    return not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK))
