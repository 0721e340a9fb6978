"""A bot whose database is unusable, or whose Discord does not answer, stops within seconds, saying what
to fix, instead of hanging; a signal stops it within seconds whatever Discord does.

Most cases start the real ``bot.py`` in its own process. A full disk and a read-only disk are real
ones: a tiny tmpfs mounted in a private mount namespace (``unshare``) that vanishes with the process.
"""

from __future__ import annotations

import asyncio
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
import threading
import time

import pytest

import bot
from service.storage.errors import StoreError
from service.storage.sqlite import MIGRATIONS, Database, available_migrations
from tests.fakediscord import FakeDiscord

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


def test_a_folder_as_the_database(tmp_path):
    result = run_bot(tmp_path)
    expect_refusal(result, f"{tmp_path} is a folder, not a database file")
    assert result.returncode == 2  # like every database the bot cannot use


def sqlite_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name.endswith("(_connection_worker_thread)")}


async def test_a_database_that_cannot_be_opened_leaves_no_thread_behind(tmp_path):
    """A thread left over from the failed connection would outlive the event loop and die with an "Event
    loop is closed" traceback after the bot's one-line refusal."""
    before = sqlite_threads()
    with pytest.raises(StoreError, match="is a folder"):
        await Database.open(tmp_path)  # not ``alone``: SQLite itself meets the folder
    assert sqlite_threads() <= before


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


@pytest.mark.parametrize("link", ["symlink", "hard link"])
def test_a_second_bot_on_another_name_of_the_same_database_is_refused(tmp_path, link):
    """The lock is the file's, not its name's: two bots on one file through a link would both answer."""
    database, other = tmp_path / "games.sqlite3", tmp_path / "elsewhere" / "games.sqlite3"
    other.parent.mkdir()
    with silent_discord() as api_base:
        first = start_bot(database, api_base)
        try:
            (other.symlink_to if link == "symlink" else other.hardlink_to)(database)
            expect_refusal(run_bot(other), "already running on", str(other))
            assert first.poll() is None
        finally:
            first.send_signal(signal.SIGKILL)
            first.wait()


async def log_in_at(api_base: str, tmp_path: pathlib.Path) -> int:
    config = bot.Config(token="a-token", database=tmp_path / "games.sqlite3", api_base=api_base, login_seconds=1.0)
    return await asyncio.wait_for(bot.run_bot(config), 10)


async def test_a_discord_that_never_answers_the_login(tmp_path, capsys):
    """aiohttp alone waits 5 minutes, then raises a bare TimeoutError."""
    with silent_discord() as api_base:
        assert await log_in_at(api_base, tmp_path) == 1
    assert f"Discord did not answer the bot's login within 1 s (at {api_base})" in capsys.readouterr().err


@contextlib.asynccontextmanager
async def discord_answering(content_type: str, body: bytes):
    """A Discord that answers every request with 200 and ``body``."""

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        head = f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n"
        writer.write(head.encode() + body)
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    async with server:
        yield f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/api/v10"


@pytest.mark.parametrize("content_type", ["application/json", "text/html"])
async def test_a_discord_that_answers_something_else_than_json(tmp_path, capsys, content_type):
    async with discord_answering(content_type, b"<html>Sign in to the hotel's Wi-Fi</html>") as api_base:
        assert await log_in_at(api_base, tmp_path) == 1
    err = capsys.readouterr().err
    assert "Discord answered with something that is not JSON" in err and api_base in err


def stops_at_once(bot_process: subprocess.Popen) -> str:
    """SIGTERM, then its exit within 5 s (a service manager kills soon after); returns its log's rest."""
    bot_process.send_signal(signal.SIGTERM)
    try:
        _, rest = bot_process.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        bot_process.kill()
        bot_process.wait()
        raise AssertionError("the bot did not stop within 5 s of SIGTERM") from None
    return rest.decode()


def test_a_signal_during_a_login_discord_does_not_answer_stops_the_bot_cleanly(tmp_path):
    """Not as if Discord were out of reach: the bot was asked to stop."""
    with silent_discord() as api_base:
        rest = stops_at_once(start_bot(tmp_path / "games.sqlite3", api_base))
    assert "stopped cleanly" in rest and "cannot reach" not in rest and "Traceback" not in rest, rest


async def test_a_signal_while_the_gateway_does_not_answer_stops_the_bot(tmp_path):
    """discord.py retries a silent gateway every 5 s, also after its close: the bot ran on for minutes."""
    with socket.create_server(("127.0.0.1", 0), backlog=16) as gateway:
        async with FakeDiscord() as fake:
            fake.gateway.url = f"ws://127.0.0.1:{gateway.getsockname()[1]}/"
            env = bot_env(tmp_path / "games.sqlite3", fake.api_base) | {"DISCORD_TOKEN": fake.token, "WORKERS": "1"}
            process = subprocess.Popen(
                [sys.executable, str(ROOT / "bot.py")], env=env, cwd=ROOT, stderr=subprocess.PIPE
            )
            await fake.world.wait_until(lambda: fake.commands(), 10, "the bot's commands synced")
            rest = await asyncio.to_thread(stops_at_once, process)
    assert "stopped cleanly" in rest, rest


HANGING_SHUTDOWN = """
import asyncio, bot
bot.STOP_SECONDS = 0.5

async def shutdown_that_hangs():
    bot._stopping(asyncio.get_running_loop(), asyncio.Event(), [])  # what SIGTERM does
    await asyncio.sleep(60)  # a close waiting on a Discord that never answers

asyncio.run(shutdown_that_hangs())
"""


def test_a_shutdown_that_hangs_is_cut_short():
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-c", HANGING_SHUTDOWN], cwd=ROOT, capture_output=True, text=True, timeout=10
    )
    assert time.monotonic() - started < 5
    assert result.returncode == 1 and "the bot did not stop within 0.5 s" in result.stderr, result
