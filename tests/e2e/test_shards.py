"""The bot as discord.py's sharded client: one process running two of two shards plays games in a server
of each; a process that does not hold a server's shard still posts that server's rounds, by REST."""

from __future__ import annotations

import asyncio
import os
import pathlib
import signal
import sys

import pytest

from bot import Config, run_bot
from tests.e2e.conftest import open_tables
from tests.e2e.test_conquest_game import CONQUEST, DAY
from tests.fakediscord import FakeDiscord, SimulationError

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
async def tables(tmp_path, cpu_pool):
    async with open_tables(tmp_path, cpu_pool, shards=2) as both:
        yield both


async def test_one_process_plays_in_servers_of_both_its_shards(tables):
    fake, bot = tables[0].fake, tables[0].bot
    assert fake.connected_shards() == [(0, 2), (1, 2)]
    assert [bot.get_guild(t.guild.id).shard_id for t in tables] == [0, 1]
    for table in tables:
        thread = await table.start_game(**CONQUEST)
        await fake.slash(table.alice, thread, "orders pass")
        await fake.slash(table.bob, thread, "orders pass")
        await table.post(lambda m: m.content.startswith("**Round 1.") and m.attachments)
    games = [await bot.service.master.lookup.list_games(t.guild.id) for t in tables]
    assert [len(found) for found in games] == [1, 1]


async def test_a_process_without_the_servers_shard_still_posts_its_rounds(tables):
    """After a re-split of the shards the process that resolves a deadline may not hold the game's
    server: it finds the thread by REST."""
    table = tables[1]
    thread = await table.start_game(**CONQUEST)
    bot = await table.restart(shard_count=2, shard_ids=(0,))
    assert table.fake.connected_shards() == [(0, 2)]
    assert bot.get_channel(thread.id) is None  # shard 1's server is not in this process's cache
    with pytest.raises(SimulationError, match="no bot session"):
        await table.fake.slash(table.alice, thread, "orders pass")  # Discord would deliver it to no one
    await table.tick(DAY)
    await table.post(lambda m: m.content.startswith("**Round 1."))


async def test_bot_processes_on_different_shards_connect_at_once(tmp_path):
    """``python bot.py`` against the fake needs only its address and token (``fake.bot_env()``): the bot
    finds the gateway through ``GET /gateway/bot``. Each process here has its own database."""
    async with FakeDiscord(shards=2, max_concurrency=2) as fake:
        guilds = [fake.add_guild(f"shard {k}", shard=(k, 2)) for k in range(2)]
        processes = [
            await asyncio.create_subprocess_exec(
                sys.executable,
                str(ROOT / "bot.py"),
                env=os.environ
                | fake.bot_env()
                | {"DATABASE_PATH": str(tmp_path / f"shard{k}.sqlite3"), "SHARD_COUNT": "2", "SHARD_IDS": str(k)},
                cwd=ROOT,
                stderr=asyncio.subprocess.PIPE,
            )
            for k in range(2)
        ]
        try:
            await fake.wait_for_shards((0, 2), (1, 2), timeout=30)  # the commands are synced before connecting
            for guild in guilds:
                reply = await fake.slash(guild.owner, guild.channels[0], "mygames")
                assert reply.ephemeral and reply.content, reply
        finally:
            for process in processes:
                process.send_signal(signal.SIGTERM)
            logs = [(await process.communicate())[1].decode() for process in processes]
        assert [process.returncode for process in processes] == [0, 0], logs
        assert all("stopped cleanly" in log and "Traceback" not in log for log in logs), logs
        assert "synced" in logs[0] and "synced" not in logs[1]  # only the process holding shard 0 syncs
        assert fake.world.command_syncs == 1


async def test_too_few_shards_stop_the_bot_with_a_clear_message(tmp_path, capsys):
    async with FakeDiscord(guilds_per_session=1) as fake:
        for k in range(2):
            fake.add_guild(f"shard {k}", shard=(k, 2))
        config = Config(token=fake.token, database=tmp_path / "games.sqlite3", api_base=fake.api_base, shard_count=1)
        assert await run_bot(config) == 1
        assert fake.gateway_log == ["IDENTIFY 0/1", "CLOSE 4011"]
    assert "too many servers for 1 shard(s). Raise SHARD_COUNT" in capsys.readouterr().err
