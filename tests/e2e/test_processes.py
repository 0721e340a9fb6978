"""Three ``python bot.py`` processes, each holding one of three shards, on one PostgreSQL database and the
fake Discord. Games are played in a server of every shard; one process is SIGKILLed in the middle of a
turn, while Discord has its round post but it has not heard back, and Discord's nonce window passes.
Its games go on without it: another process delivers the post (once), and resolves the next turn when
its deadline passes (once).

Any process may deliver any game's posts (``service.runtime.claims``): the one killed is the one whose post
hung, found by the lease it holds, usually but not always the process of the game's shard."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from dataclasses import dataclass

import asyncpg
import pytest

from service.storage import history as stored_history
from service.storage.store import open_store
from tests.e2e.conftest import button
from tests.fakediscord import FakeDiscord
from tests.fakediscord.models import FakeChannel, FakeUser
from tests.service.conftest import admin

SHARDS = 3
GAME = {"size": "small", "max_players": 2, "turn_time": 86400}
SETTLED_SECONDS = 60.0  # generous: three bots and their workers share the machine's cores


@dataclass
class Server:
    guild: object
    alice: FakeUser
    bob: FakeUser
    thread: FakeChannel | None = None

    @classmethod
    def of_shard(cls, fake: FakeDiscord, shard: int) -> Server:
        guild = fake.add_guild(f"shard {shard}", shard=(shard, SHARDS))
        alice, bob = fake.add_user(f"alice{shard}"), fake.add_user(f"bob{shard}")
        for user in (alice, bob):
            fake.add_member(guild, user)
        return cls(guild, alice, bob)

    async def start_game(self, fake: FakeDiscord) -> None:
        channel = self.guild.channels[0]
        made = await fake.slash(self.alice, channel, "game create conquest", **GAME)
        assert made.ephemeral and "is open" in made.content, made.content
        lobby = next(m for m in fake.channel_messages(channel) if m.components)
        await fake.click(self.bob, lobby, button(lobby, "Join"))
        await fake.click(self.alice, lobby, button(lobby, "Start"))
        started = await fake.wait_for_message(
            lambda m: "has started" in m.content and m.channel_id in {t.id for t in fake.threads(channel)},
            timeout=SETTLED_SECONDS,
        )
        self.thread = fake.channel(started.channel_id)

    def posts(self, fake: FakeDiscord, prefix: str) -> list:
        return [m for m in fake.channel_messages(self.thread) if m.content.startswith(prefix)]


def bot_settings(url: str, shard: int) -> dict[str, str]:
    return {
        "DATABASE_URL": url,
        "SHARD_COUNT": str(SHARDS),
        "SHARD_IDS": str(shard),
        "SWEEP_SECONDS": "1",  # how soon the others notice a dead process's games
        "WORKERS": "1",
    }


async def rows(url: str, sql: str, *args) -> list:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetch(sql, *args)
    finally:
        await conn.close()


async def delivering(url: str, game_id: int, processes) -> int:
    """Which of the processes holds the lease on delivering the game's posts (its owner names its pid)."""
    [(owner,)] = await rows(url, "SELECT owner FROM claims WHERE kind = 'outbox' AND game_id = $1", game_id)
    pid = int(owner.split(":")[-2])
    return next(k for k, process in enumerate(processes) if process.pid == pid)


async def settled(url: str) -> None:
    """Until every announcement has been delivered."""
    deadline = time.monotonic() + SETTLED_SECONDS
    while (await rows(url, "SELECT id FROM outbox WHERE delivered_at IS NULL")) and time.monotonic() < deadline:
        await asyncio.sleep(0.2)


@pytest.fixture
async def database(postgresql_cluster) -> str:
    name = postgresql_cluster.fresh_name()
    await admin(postgresql_cluster, "postgres", f"CREATE DATABASE {name}")
    yield postgresql_cluster.url(name)
    await admin(postgresql_cluster, "postgres", f"DROP DATABASE {name} WITH (FORCE)")


async def test_a_killed_processs_games_go_on_in_the_others_each_turn_and_post_once(database, tmp_path):
    async with FakeDiscord(shards=SHARDS, max_concurrency=SHARDS) as fake:
        servers = [Server.of_shard(fake, shard) for shard in range(SHARDS)]
        logs = [tmp_path / f"shard{shard}.log" for shard in range(SHARDS)]
        processes = [await fake.bot_process(bot_settings(database, k), logs[k]) for k in range(SHARDS)]
        try:
            await fake.wait_for_shards(*((shard, SHARDS) for shard in range(SHARDS)), timeout=SETTLED_SECONDS)
            for server in servers:
                await server.start_game(fake)

            # Round 1 everywhere; in shard 1's server Alice gives an order first, then both pass.
            doomed = servers[1]
            [choice, *_] = await fake.autocomplete(doomed.alice, doomed.thread, "orders give", focused="text", value="")
            given = await fake.slash(doomed.alice, doomed.thread, "orders give", text=choice["value"])
            assert given.ephemeral and choice["value"] in given.content, given.content
            for server in servers:
                await fake.slash(server.alice, server.thread, "orders pass")
                if server is doomed:  # its round post reaches Discord, but the bot never hears back
                    fake.inject_hang(f"/channels/{server.thread.id}/messages", method="POST")
                await fake.slash(server.bob, server.thread, "orders pass")
            await fake.world.wait_until(lambda: any(f.startswith("hang") for f in fake.faults_fired), 30, "the hang")
            [(game_id,)] = await rows(database, "SELECT id FROM games WHERE guild_id = $1", doomed.guild.id)
            killed = await delivering(database, game_id, processes)
            # The post is taken over after Discord's nonce window: the taker must find it, not repost it.
            fake.forget_nonces()
            aged = "UPDATE outbox SET tried_at = tried_at - 300 WHERE game_id = $1 AND tried_at IS NOT NULL"
            await rows(database, aged, game_id)
            processes[killed].send_signal(signal.SIGKILL)
            await processes[killed].wait()

            # Round 2 of the doomed game: its deadline passes now, wherever it was armed.
            await rows(database, "UPDATE games SET deadline_at = $1 WHERE guild_id = $2", time.time(), doomed.guild.id)
            await fake.wait_for_message(
                lambda m: m.channel_id == doomed.thread.id and m.content.startswith("**Round 2."), SETTLED_SECONDS
            )
            await settled(database)
        finally:
            for process in processes:
                if process.returncode is None:
                    process.send_signal(signal.SIGTERM)
            await asyncio.gather(*(process.wait() for process in processes))
            logs = [log.read_text() for log in logs]

    alive = [k for k in range(SHARDS) if k != killed]
    assert [p.returncode for p in processes] == [-signal.SIGKILL if k == killed else 0 for k in range(SHARDS)], logs
    assert all("Traceback" not in logs[k] and "stopped cleanly" in logs[k] for k in alive), logs
    assert any(f"took over the outbox of game #{game_id}" in logs[k] for k in alive)  # at once: its session ended
    for server in servers:
        assert len(server.posts(fake, "**Round 1.")) == 1, server.guild.name
    assert len(doomed.posts(fake, "**Round 2.")) == 1
    assert await rows(database, "SELECT id FROM outbox WHERE delivered_at IS NULL") == []
    doubled = await rows(
        database, "SELECT game_id, turn FROM history WHERE kind = 'resolve' GROUP BY game_id, turn HAVING COUNT(*) > 1"
    )
    assert doubled == []
    [(game_id,)] = await rows(database, "SELECT id FROM games WHERE guild_id = $1", doomed.guild.id)
    store = await open_store(database)
    try:
        async with store.reading() as conn:
            history = await stored_history.entries(conn, game_id)
    finally:
        await store.close()
    first_round = next(e for e in history if e.kind == stored_history.RESOLVED)
    assert choice["value"] in json.loads(first_round.payload)["orders"].values()
