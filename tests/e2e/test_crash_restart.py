"""``python bot.py`` on a SQLite file, SIGKILLed while Discord has its round post but the bot has not heard
back, and started again after Discord's nonce window has passed: Discord no longer drops the repeated
post by its nonce, so the new process must find the earlier post itself, and post each round once.

The window is made to pass by aging the post's first attempt in the database and telling the fake
to forget its nonces: the process cannot be put to sleep for Discord's few minutes."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import time

from tests.e2e.conftest import button
from tests.fakediscord import FakeDiscord

GAME = {"size": "small", "max_players": 2, "turn_time": 86400}
SETTLED_SECONDS = 60.0
WINDOW_PASSED_SECONDS = 300.0  # older than cogs.redelivery.NONCE_WINDOW_SECONDS


def undelivered(database) -> int:
    with sqlite3.connect(database, timeout=10) as conn:
        return conn.execute("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL").fetchone()[0]


def age_attempts(database, seconds: float) -> int:
    """Move every pending post's first attempt ``seconds`` into the past; how many there were."""
    with sqlite3.connect(database, timeout=10) as conn:
        return conn.execute(
            "UPDATE outbox SET tried_at = tried_at - ? WHERE delivered_at IS NULL AND tried_at IS NOT NULL",
            (seconds,),
        ).rowcount


async def settled(database) -> None:
    deadline = time.monotonic() + SETTLED_SECONDS
    while undelivered(database) and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    assert undelivered(database) == 0, "posts still waiting in the outbox"


async def test_a_bot_killed_mid_post_and_restarted_past_the_nonce_window_posts_each_round_once(tmp_path):
    database = tmp_path / "games.sqlite3"
    settings = {"DATABASE_PATH": str(database), "WORKERS": "1", "SWEEP_SECONDS": "1"}
    logs = [tmp_path / "first.log", tmp_path / "second.log"]
    async with FakeDiscord() as fake:
        guild, alice, bob = fake.add_guild("crash"), fake.add_user("alice"), fake.add_user("bob")
        for user in (alice, bob):
            fake.add_member(guild, user)
        channel = guild.channels[0]
        first = await fake.bot_process(settings, logs[0])
        second = None
        try:
            await fake.wait_for_shards((0, 1), timeout=SETTLED_SECONDS)
            await fake.slash(alice, channel, "game create conquest", **GAME)
            lobby = next(m for m in fake.channel_messages(channel) if m.components)
            await fake.click(bob, lobby, button(lobby, "Join"))
            await fake.click(alice, lobby, button(lobby, "Start"))
            started = await fake.wait_for_message(lambda m: "has started" in m.content, SETTLED_SECONDS)
            thread = fake.channel(started.channel_id)

            await fake.slash(alice, thread, "orders pass")
            fake.inject_hang(f"/channels/{thread.id}/messages", method="POST")
            await fake.slash(bob, thread, "orders pass")
            await fake.world.wait_until(lambda: "hang" in " ".join(fake.faults_fired), SETTLED_SECONDS, "the hang")
            fake.forget_nonces()
            assert age_attempts(database, WINDOW_PASSED_SECONDS) >= 1
            first.send_signal(signal.SIGKILL)
            await first.wait()

            second = await fake.bot_process(settings, logs[1])
            await settled(database)
            for user in (alice, bob):
                await fake.slash(user, thread, "orders pass")
            await fake.wait_for_message(
                lambda m: m.channel_id == thread.id and m.content.startswith("**Round 2."), SETTLED_SECONDS
            )
            await settled(database)
        finally:
            for process in (first, second):
                if process is not None and process.returncode is None:
                    process.send_signal(signal.SIGTERM)
                    await process.wait()
        rounds = [m.content.split("\n")[0] for m in fake.channel_messages(thread) if m.content.startswith("**Round")]
    log = logs[1].read_text()
    assert first.returncode == -signal.SIGKILL and second.returncode == 0, log
    assert "Traceback" not in log and "stopped cleanly" in log, log
    assert [line.split(".")[0] for line in rounds] == ["**Round 1", "**Round 2"], rounds


async def test_an_away_period_and_a_pending_take_over_survive_a_sigkill(tmp_path):
    """ "Restart-safe: an away period or a pending take-over survives a SIGKILL of the bot." """
    database = tmp_path / "games.sqlite3"
    settings = {"DATABASE_PATH": str(database), "WORKERS": "1", "SWEEP_SECONDS": "1"}
    logs = [tmp_path / "first.log", tmp_path / "second.log"]
    async with FakeDiscord() as fake:
        guild = fake.add_guild("crash")
        alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
        for user in (alice, bob, carol):
            fake.add_member(guild, user)
        channel = guild.channels[0]
        first = await fake.bot_process(settings, logs[0])
        second = None
        try:
            await fake.wait_for_shards((0, 1), timeout=SETTLED_SECONDS)
            await fake.slash(alice, channel, "game create conquest", **(GAME | {"max_players": 3}), replacements="open")
            lobby = next(m for m in fake.channel_messages(channel) if m.components)
            await fake.click(bob, lobby, button(lobby, "Join"))
            await fake.slash(alice, channel, "game add-ai", game=1, level="Easy")
            await fake.click(alice, lobby, button(lobby, "Start"))
            started = await fake.wait_for_message(lambda m: "has started" in m.content, SETTLED_SECONDS)
            thread = fake.channel(started.channel_id)
            away = await fake.slash(alice, thread, "away", until="3d")
            await away.settled(SETTLED_SECONDS)
            [computer] = await fake.autocomplete(carol, thread, "game take-seat", focused="player", value="")
            asked = await fake.slash(carol, thread, "game take-seat", player=computer["value"])
            await asked.settled(SETTLED_SECONDS)
            request = await fake.wait_for_message(lambda m: "asks to take over the seat" in m.content, SETTLED_SECONDS)
            first.send_signal(signal.SIGKILL)
            await first.wait()

            second = await fake.bot_process(settings, logs[1])
            await fake.wait_for_shards((0, 1), timeout=SETTLED_SECONDS)
            await fake.slash(bob, thread, "orders pass")  # Alice's stand-in and the computer played already
            await fake.wait_for_message(lambda m: m.content.startswith("**Round 1."), SETTLED_SECONDS)
            await fake.slash(bob, thread, "orders pass")  # and again: she is still away
            await fake.wait_for_message(lambda m: m.content.startswith("**Round 2."), SETTLED_SECONDS)
            await fake.click(alice, request, button(request, "Approve"))
            await fake.wait_for_message(lambda m: "and plays on from here" in m.content, SETTLED_SECONDS)
            await settled(database)
        finally:
            for process in (first, second):
                if process is not None and process.returncode is None:
                    process.send_signal(signal.SIGTERM)
                    await process.wait()
    log = logs[1].read_text()
    assert first.returncode == -signal.SIGKILL and second.returncode == 0, log
    assert "Traceback" not in log, log
    with sqlite3.connect(database) as conn:
        (away_until,) = conn.execute("SELECT away_until FROM players WHERE name = 'alice'").fetchone()
        (taker,) = conn.execute("SELECT name FROM players WHERE took_over = 1 AND user_id IS NOT NULL").fetchone()
    assert away_until is not None and taker == "carol"
