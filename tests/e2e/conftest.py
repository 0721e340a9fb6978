"""End-to-end tests: the real bot (discord.py, cogs, game master, SQLite) against the fake Discord.

Time is a manual clock; the periodic sweep is called by the test instead of waiting for it.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import io
import pathlib
import time
from collections.abc import Mapping
from dataclasses import dataclass

import discord
import pytest
from PIL import Image

from cogs.client import GameBot
from cogs.config import Config
from engine import RULESETS, Ruleset
from service.clock import ManualClock
from service.runtime.workers import CpuPool
from tests.fakediscord.harness import FakeDiscord
from tests.fakediscord.models import FakeChannel, FakeMessage, FakeUser


@dataclass
class Table:
    """One server with its players, the bot, and helpers to look at what they see."""

    fake: FakeDiscord
    bot: GameBot
    clock: ManualClock
    pool: CpuPool
    rulesets: Mapping[str, Ruleset]
    database: object
    guild: object
    channel: FakeChannel
    alice: FakeUser
    bob: FakeUser
    carol: FakeUser  # in the server, not in the game
    mod: FakeUser  # has Manage Server

    async def restart(self, **config: object) -> GameBot:
        """Stop the bot and start a new one on the same database, as after a crash or a deploy;
        ``config`` changes its configuration (e.g. ``shard_ids``)."""
        await self.fake.stop_bot(self.bot)
        self.bot = make_bot(self.fake, self.database, self.clock, self.pool, self.rulesets, **config)
        await self.fake.start_bot(self.bot)
        return self.bot

    async def tick(self, seconds: float) -> None:
        """Let time pass, then run the periodic sweep (deadlines, reminders, deliveries)."""
        self.clock.advance(seconds)
        await self.bot.service.sweep()

    def thread(self) -> FakeChannel:
        threads = self.fake.threads(self.channel)
        assert threads, "the bot opened no thread"
        return threads[-1]

    def posts(self) -> list[FakeMessage]:
        return self.fake.channel_messages(self.thread())

    async def post(self, predicate, timeout: float = 10.0) -> FakeMessage:
        thread = self.thread()
        return await self.fake.wait_for_message(lambda m: m.channel_id == thread.id and predicate(m), timeout)

    async def card_showing(self, *texts: str, timeout: float = 10.0) -> FakeMessage:
        """The game's lobby card once it shows every one of ``texts`` (a card follows the game's posts)."""
        card = next(m for m in self.fake.channel_messages(self.channel) if m.embeds)
        return await self.fake.wait_for_message(
            lambda m: m.id == card.id and all(text in str(m.embeds) for text in texts), timeout
        )

    async def open_lobby(self, ruleset: str, **options) -> FakeMessage:
        """Alice runs /game create <ruleset> with ``options``; returns the lobby card with its buttons."""
        made = await self.fake.slash(self.alice, self.channel, f"game create {ruleset}", **options)
        await made.settled()
        assert made.ephemeral and "is open" in made.content, made.content
        return next(m for m in self.fake.channel_messages(self.channel) if m.components)

    async def start_game(self, ruleset: str, **options) -> FakeChannel:
        """A lobby that Bob joins and Alice starts; returns the game's thread once the start is posted."""
        lobby = await self.open_lobby(ruleset, **options)
        await self.fake.click(self.bob, lobby, button(lobby, "Join"))
        await self.fake.click(self.alice, lobby, button(lobby, "Start"))
        await self.post(lambda m: "has started" in m.content)
        return self.thread()


def button(message: FakeMessage, label: str) -> str:
    """The custom id of the button labelled ``label`` on ``message``."""
    return next(c["custom_id"] for c in message.iter_components() if c.get("label") == label)


def make_bot(
    fake: FakeDiscord,
    database,
    clock: ManualClock,
    pool: CpuPool,
    rulesets: Mapping[str, Ruleset] = RULESETS,
    **config: object,
) -> GameBot:
    """The bot as ``bot.py`` makes it; ``config`` sets more of its ``Config`` (e.g. ``shard_count``)."""
    config = Config(token=fake.token, database=database, api_base=fake.api_base, **config)
    options = {"clock": clock, "sweep_seconds": 3600, "pool": pool, "rulesets": rulesets}
    return GameBot(config, service_options=options, guild_ready_timeout=0.1)


def decode_png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG" and 900 <= image.width <= 1400 and image.height > 600
    return image


@pytest.fixture(scope="session")
def cpu_pool():
    """Worker processes for renders and computer players, as the bot runs them, shared by the tests;
    warmed up before the first test, as a running bot's are before its first player clicks (a cold
    worker on a busy machine would hold up the first test's first computer move for seconds)."""
    pool = CpuPool(workers=2)
    pool.start()
    concurrent.futures.wait([pool.executor.submit(time.sleep, 0.5) for _ in range(pool.workers)])
    yield pool
    pool.close()


@contextlib.asynccontextmanager
async def open_table(folder: pathlib.Path, pool: CpuPool, rulesets: Mapping[str, Ruleset] = RULESETS, **config: object):
    """A server with four members and the bot serving ``rulesets`` on a new database in ``folder``
    (``config``: more of the bot's settings)."""
    async with open_tables(folder, pool, rulesets, **config) as (setup,):
        yield setup


@contextlib.asynccontextmanager
async def open_tables(
    folder: pathlib.Path,
    pool: CpuPool,
    rulesets: Mapping[str, Ruleset] = RULESETS,
    *,
    shards: int = 1,
    **config: object,
):
    """One server on each of ``shards`` shards, each with the same four members, and one bot running every
    shard (``SHARD_COUNT=shards``) and serving ``rulesets`` on a new database in ``folder``."""
    async with FakeDiscord(shards=shards, max_concurrency=shards) as fake:
        guilds = [fake.add_guild(shard=(k, shards) if shards > 1 else None) for k in range(shards)]
        users = {name: fake.add_user(name) for name in ("alice", "bob", "carol", "mod")}
        for guild in guilds:
            for name, user in users.items():
                manager = discord.Permissions(manage_guild=True) if name == "mod" else None
                fake.add_member(guild, user, permissions=manager)
        clock, database = ManualClock(), folder / "games.sqlite3"
        bot = make_bot(fake, database, clock, pool, rulesets, shard_count=shards if shards > 1 else None, **config)
        await fake.start_bot(bot)
        tables = [Table(fake, bot, clock, pool, rulesets, database, g, g.channels[0], **users) for g in guilds]
        yield tables
        for running in {t.bot for t in tables}:
            await fake.stop_bot(running)


@pytest.fixture
async def table(tmp_path, cpu_pool):
    async with open_table(tmp_path, cpu_pool) as setup:
        yield setup
