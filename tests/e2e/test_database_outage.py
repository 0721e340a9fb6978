"""The bot on a PostgreSQL server that goes down: each command tells the player, privately, that the
database cannot be reached and nothing was saved, instead of apologising for a fault of its own."""

from __future__ import annotations

from service.clock import ManualClock
from tests.e2e.conftest import make_bot
from tests.fakediscord import FakeDiscord
from tests.service.conftest import admin


async def test_commands_while_the_database_is_down_say_it_cannot_be_reached(halting_cluster, cpu_pool, tmp_path):
    await admin(halting_cluster, "postgres", "CREATE DATABASE games")
    async with FakeDiscord() as fake:
        guild, alice = fake.add_guild(), fake.add_user("alice")
        fake.add_member(guild, alice)
        bot = make_bot(
            fake, tmp_path / "unused.sqlite3", ManualClock(), cpu_pool, database_url=halting_cluster.url("games")
        )
        await fake.start_bot(bot)
        halting_cluster.halt()
        try:
            answers = [
                await fake.slash(alice, guild.channels[0], "game list"),
                await fake.slash(alice, guild.channels[0], "game create conquest"),
            ]
        finally:
            halting_cluster.resume()
            await fake.stop_bot(bot)
    for answer in answers:
        assert answer.ephemeral, answer.content
        assert "the database cannot be reached right now and nothing was saved" in answer.content
