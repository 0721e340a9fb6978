"""A bot whose database is unusable stops within seconds, saying what to fix, instead of hanging.

Each case starts the real ``bot.py`` in its own process. A full disk and a read-only disk are real
ones: a tiny tmpfs mounted in a private mount namespace (``unshare``) that vanishes with the process.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import select
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time

import pytest

from service.storage.sqlite import MIGRATIONS, available_migrations

ROOT = pathlib.Path(__file__).resolve().parents[1]
LATEST = max(available_migrations(MIGRATIONS))


def bot_env(database: pathlib.Path, api_base: str = "http://127.0.0.1:9") -> dict[str, str]:
    """By default Discord is never reached: the database is opened before logging in."""
    return os.environ | {"DISCORD_TOKEN": "unused", "DATABASE_PATH": str(database), "DISCORD_API_BASE": api_base}


def run_bot(database: pathlib.Path, *, wrapper: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    command = [*wrapper, sys.executable, str(ROOT / "bot.py")]
    return subprocess.run(command, env=bot_env(database), cwd=ROOT, capture_output=True, text=True, timeout=10)


def make_database(path: pathlib.Path, sql: str) -> None:
    with sqlite3.connect(path) as conn:
        conn.executescript(sql)
    conn.close()


MOUNT_SMALL_DISK = """set -e
folder=$1 kib=$2 seed=$3 mode=$4
shift 4
mount -t tmpfs -o size="$kib"k tmpfs "$folder"
cp -a "$seed"/. "$folder"
mount -o remount,"$mode" "$folder"
exec "$@"
"""


def on_small_disk(folder: pathlib.Path, kib: int, *, read_only: bool = False) -> tuple[str, ...]:
    """A command prefix that runs the bot with a fresh ``kib`` KiB tmpfs over ``folder`` (its files
    copied in), remounted read-only if asked."""
    if shutil.which("unshare") is None or subprocess.run(["unshare", "-rm", "true"]).returncode:
        pytest.skip("needs unshare with user and mount namespaces")
    seed = folder.with_name("seed")
    shutil.copytree(folder, seed)
    mode = "ro" if read_only else "rw"
    return ("unshare", "-rm", "sh", "-c", MOUNT_SMALL_DISK, "-", str(folder), str(kib), str(seed), mode)


def expect_refusal(result: subprocess.CompletedProcess, *words: str) -> None:
    assert result.returncode not in (0, None), result
    for word in words:
        assert word in result.stderr, result.stderr
    assert "Traceback" not in result.stderr, result.stderr


def test_not_a_database(tmp_path):
    database = tmp_path / "games.sqlite3"
    database.write_bytes(b"these are a user's holiday notes, not games\n" * 200)
    expect_refusal(run_bot(database), "is not a SQLite database", str(database))


def test_schema_newer_than_the_bot(tmp_path):
    database = tmp_path / "games.sqlite3"
    make_database(database, f"CREATE TABLE later (x); PRAGMA user_version = {LATEST + 1};")
    expect_refusal(run_bot(database), "newer than this bot", f"schema version {LATEST + 1}")


def test_tables_without_a_schema_version(tmp_path):
    database = tmp_path / "games.sqlite3"
    make_database(database, "CREATE TABLE games (id INTEGER PRIMARY KEY);")
    expect_refusal(run_bot(database), "has tables but no schema version")


def test_disk_full(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    database = folder / "games.sqlite3"
    expect_refusal(run_bot(database, wrapper=on_small_disk(folder, 48)), "disk full at", str(database))


def test_read_only_disk(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    database = folder / "games.sqlite3"
    make_database(database, "PRAGMA journal_mode = WAL; CREATE TABLE games (id INTEGER PRIMARY KEY);")
    expect_refusal(run_bot(database, wrapper=on_small_disk(folder, 1024, read_only=True)), "read-only")


@contextlib.contextmanager
def silent_discord():
    """A Discord that accepts connections and never answers: a bot started against it stays logging in."""
    with socket.create_server(("127.0.0.1", 0), backlog=16) as server:
        yield f"http://127.0.0.1:{server.getsockname()[1]}/api/v10"


def start_bot(database: pathlib.Path, api_base: str) -> subprocess.Popen:
    """A bot process that has taken its database and is logging in."""
    bot = subprocess.Popen(
        [sys.executable, str(ROOT / "bot.py")], env=bot_env(database, api_base), cwd=ROOT, stderr=subprocess.PIPE
    )
    deadline, seen = time.monotonic() + 10, b""
    while b"logging in" not in seen:
        assert time.monotonic() < deadline and bot.poll() is None, seen.decode()
        if select.select([bot.stderr], [], [], 0.2)[0]:
            seen += os.read(bot.stderr.fileno(), 65536)  # unbuffered: select sees all that is unread
    return bot


def test_a_second_bot_on_the_same_database_is_refused_until_the_first_dies(tmp_path):
    database = tmp_path / "games.sqlite3"
    with silent_discord() as api_base:
        first = start_bot(database, api_base)
        try:
            expect_refusal(run_bot(database), "already running", f"process {first.pid}")
            assert first.poll() is None
        finally:
            first.send_signal(signal.SIGKILL)
            first.wait()
        third = start_bot(database, api_base)  # the kernel released the lock of the killed process
        third.send_signal(signal.SIGKILL)
        third.wait()
