"""A PostgreSQL server that goes away while bots run on it: each command is told the database cannot be
reached (nothing was saved), and a bot stays present across a restart, so ``migrate-db`` never copies a
database a bot still plays on (``service.storage.presence``)."""

from __future__ import annotations

import asyncio

import pytest

import bot
from service.clock import ManualClock
from service.storage import presence
from service.storage.errors import StorageFailure, StoreError
from service.storage.instancelock import AlreadyRunning
from service.storage.store import BOT, SOLE, open_store
from tests.pgcluster import Cluster
from tests.service.conftest import ALICE, BOB, GUILD, Env, admin

UNREACHABLE = "the database cannot be reached right now"


async def a_bot(cluster: Cluster) -> Env:
    """A bot's game master and store on a new database of ``cluster``."""
    await admin(cluster, "postgres", "CREATE DATABASE games")
    return await Env(cluster.url("games"), ManualClock(), hold=BOT).open()


async def migrate_db(cluster: Cluster, tmp_path) -> int:
    """``bot.py migrate-db`` from the cluster's games into a new SQLite file: its exit status."""
    target = tmp_path / f"copy{len(list(tmp_path.iterdir()))}.sqlite3"
    return await asyncio.to_thread(bot.main, ["migrate-db", "--from", cluster.url("games"), "--to", str(target)])


async def test_reads_and_writes_while_the_server_is_down_say_it_cannot_be_reached(halting_cluster):
    env = await a_bot(halting_cluster)
    game = await env.new_game(ALICE, BOB)
    halting_cluster.halt()
    try:
        with pytest.raises(StorageFailure, match=UNREACHABLE):
            await env.master.lookup.list_games(GUILD)
        with pytest.raises(StorageFailure, match=UNREACHABLE):
            await env.master.games.get_game(game.id)
        with pytest.raises(StorageFailure, match=UNREACHABLE):
            await env.master.play.submit(game.id, ALICE)
    finally:
        halting_cluster.resume()
    assert (await env.master.games.get_game(game.id)).passed_seats == frozenset()
    await env.db.close()


async def test_a_bot_stays_present_across_a_restart_of_the_server(halting_cluster, tmp_path, capsys):
    env = await a_bot(halting_cluster)
    game = await env.new_game(ALICE, BOB)
    session = env.db.session
    halting_cluster.halt()
    halting_cluster.resume()
    assert await migrate_db(halting_cluster, tmp_path) == 2
    assert "a bot is running on" in capsys.readouterr().err
    await env.master.play.submit(game.id, ALICE)  # the bot goes on
    await env.db.presence.renew()
    assert env.db.session not in (None, session)  # on a new session, for the leases it takes
    assert await migrate_db(halting_cluster, tmp_path) == 2
    await env.db.close()
    assert await migrate_db(halting_cluster, tmp_path) == 0


async def test_a_bot_silent_too_long_writes_nothing_while_a_copy_made_meanwhile_runs(halting_cluster, monkeypatch):
    """The bot could not renew its row for a while (the server was away, the process stalled): once its
    row expired a copy may start, so the bot refuses every change until the copy has ended."""
    monkeypatch.setattr(presence, "BEAT_SECONDS", 3600.0)  # silent
    monkeypatch.setattr(presence, "LEASE_SECONDS", 1.0)
    monkeypatch.setattr(presence, "TRUSTED_SECONDS", 0.5)
    env = await a_bot(halting_cluster)
    game = await env.new_game(ALICE, BOB)
    await asyncio.sleep(1.1)
    copy = await open_store(halting_cluster.url("games"), hold=SOLE)
    with pytest.raises(StorageFailure, match=UNREACHABLE):
        await env.master.play.submit(game.id, ALICE)
    with pytest.raises(AlreadyRunning, match="migrate-db"):
        await open_store(halting_cluster.url("games"), hold=BOT)
    await copy.close()
    await env.master.play.submit(game.id, ALICE)
    assert (await env.master.games.get_game(game.id)).passed_seats == {game.player_of(ALICE.user_id).seat}
    await env.db.close()


async def test_a_server_gone_while_the_schema_is_brought_up_to_date_says_so(halting_cluster):
    """Issue: "Migrations at start-up still raise raw asyncpg errors if the server disappears"."""
    env = await a_bot(halting_cluster)
    halting_cluster.halt()
    try:
        with pytest.raises(StoreError, match="could not be reached while the bot brought its schema up to date"):
            await env.db.migrate()
    finally:
        halting_cluster.resume()
    assert await env.db.migrate() >= 13  # nothing half-applied: it goes on from where it was
    await env.db.close()
