"""A bot whose database is unusable stops within seconds, saying what to fix, instead of hanging.

Each case starts the real ``bot.py`` in its own process. A full disk and a read-only disk are real
ones: a tiny tmpfs mounted in a private mount namespace (``unshare``) that vanishes with the process.
"""

from __future__ import annotations

import fcntl
import os
import pathlib
import shutil
import sqlite3
import subprocess
import sys

import pytest

from service.db import MIGRATIONS, available_migrations

ROOT = pathlib.Path(__file__).resolve().parents[1]
LATEST = max(available_migrations(MIGRATIONS))


def run_bot(database: pathlib.Path, *, wrapper: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    env = os.environ | {
        "DISCORD_TOKEN": "unused",
        "DATABASE_PATH": str(database),
        "DISCORD_API_BASE": "http://127.0.0.1:9",  # never reached: the database is opened first
    }
    command = [*wrapper, sys.executable, str(ROOT / "bot.py")]
    return subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=10)


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


def test_a_database_another_bot_holds(tmp_path):
    database = tmp_path / "games.sqlite3"
    with open(tmp_path / "games.sqlite3.lock", "w") as held:
        held.write("4242\n")
        held.flush()
        fcntl.flock(held, fcntl.LOCK_EX)
        expect_refusal(run_bot(database), "already running", "process 4242")
