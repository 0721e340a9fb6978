"""``python bot.py`` on a SQLite file, SIGKILLed while Discord has its round post but the bot has not heard
back, and started again after Discord's nonce window has passed: Discord no longer drops the repeated
post by its nonce, so the new process must find the earlier post itself, and post each round once.

The window is made to pass by aging the post's first attempt in the database and telling the fake
to forget its nonces: the process cannot be put to sleep for Discord's few minutes."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import sqlite3
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import aiohttp

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


@dataclass
class Crash:
    """A fake Discord with one server and its members, and ``python bot.py`` processes on one SQLite file."""

    fake: FakeDiscord
    members: list
    channel: object
    database: object
    folder: object
    processes: list = field(default_factory=list)
    settings: dict = field(default_factory=dict)  # more of the environment, for every process

    async def start(self):
        """One more bot process (its log in a file of its own), once Discord has it connected."""
        settings = {"DATABASE_PATH": str(self.database), "WORKERS": "1", "SWEEP_SECONDS": "1", **self.settings}
        process = await self.fake.bot_process(settings, self.log(len(self.processes)))
        self.processes.append(process)
        await self.fake.wait_for_shards((0, 1), timeout=SETTLED_SECONDS)
        return process

    async def kill(self, process) -> None:
        process.send_signal(signal.SIGKILL)
        await process.wait()

    def log(self, number: int):
        return self.folder / f"bot-{number}.log"

    async def start_game(self, options: dict) -> object:
        """The first member opens a conquest game with ``options`` and the second joins; it starts."""
        first, second = self.members[:2]
        await self.fake.slash(first, self.channel, "game create conquest", **options)
        lobby = next(m for m in self.fake.channel_messages(self.channel) if m.components)
        await self.fake.click(second, lobby, button(lobby, "Join"))
        return lobby


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.asynccontextmanager
async def crashing(tmp_path, *names: str) -> AsyncIterator[Crash]:
    """A ``Crash`` whose processes still running at the end are stopped (SIGTERM)."""
    async with FakeDiscord() as fake:
        guild = fake.add_guild("crash")
        members = [fake.add_user(name) for name in names]
        for user in members:
            fake.add_member(guild, user)
        crash = Crash(fake, members, guild.channels[0], tmp_path / "games.sqlite3", tmp_path)
        try:
            yield crash
        finally:
            for process in crash.processes:
                if process.returncode is None:
                    process.send_signal(signal.SIGTERM)
                    await process.wait()


async def started_thread(crash: Crash, lobby) -> object:
    await crash.fake.click(crash.members[0], lobby, button(lobby, "Start"))
    started = await crash.fake.wait_for_message(lambda m: "has started" in m.content, SETTLED_SECONDS)
    return crash.fake.channel(started.channel_id)


async def test_a_bot_killed_mid_post_and_restarted_past_the_nonce_window_posts_each_round_once(tmp_path):
    async with crashing(tmp_path, "alice", "bob") as crash:
        fake, (alice, bob) = crash.fake, crash.members
        first = await crash.start()
        thread = await started_thread(crash, await crash.start_game(GAME))

        await fake.slash(alice, thread, "orders pass")
        fake.inject_hang(f"/channels/{thread.id}/messages", method="POST")
        await fake.slash(bob, thread, "orders pass")
        await fake.world.wait_until(lambda: "hang" in " ".join(fake.faults_fired), SETTLED_SECONDS, "the hang")
        fake.forget_nonces()
        assert age_attempts(crash.database, WINDOW_PASSED_SECONDS) >= 1
        await crash.kill(first)

        second = await crash.start()
        await settled(crash.database)
        for user in (alice, bob):
            await fake.slash(user, thread, "orders pass")
        await fake.wait_for_message(
            lambda m: m.channel_id == thread.id and m.content.startswith("**Round 2."), SETTLED_SECONDS
        )
        await settled(crash.database)
        second.send_signal(signal.SIGTERM)
        await second.wait()
        rounds = [m.content.split("\n")[0] for m in fake.channel_messages(thread) if m.content.startswith("**Round")]
    log = crash.log(1).read_text()
    assert first.returncode == -signal.SIGKILL and second.returncode == 0, log
    assert "Traceback" not in log and "stopped cleanly" in log, log
    assert [line.split(".")[0] for line in rounds] == ["**Round 1", "**Round 2"], rounds


async def test_an_away_period_and_a_pending_take_over_survive_a_sigkill(tmp_path):
    """ "Restart-safe: an away period or a pending take-over survives a SIGKILL of the bot." """
    async with crashing(tmp_path, "alice", "bob", "carol") as crash:
        fake, (alice, bob, carol) = crash.fake, crash.members
        crash.settings["HEALTH_PORT"] = str(free_port())
        first = await crash.start()
        lobby = await crash.start_game(GAME | {"max_players": 3, "replacements": "open"})
        await fake.slash(alice, crash.channel, "game add-ai", game=1, level="Easy")
        thread = await started_thread(crash, lobby)
        away = await fake.slash(alice, thread, "away", until="3d")
        await away.settled(SETTLED_SECONDS)
        [computer] = await fake.autocomplete(carol, thread, "game take-seat", focused="player", value="")
        asked = await fake.slash(carol, thread, "game take-seat", player=computer["value"])
        await asked.settled(SETTLED_SECONDS)
        request = await fake.wait_for_message(lambda m: "asks to take over the seat" in m.content, SETTLED_SECONDS)
        await crash.kill(first)

        await crash.start()
        await fake.slash(bob, thread, "orders pass")  # Alice's stand-in and the computer played already
        await fake.wait_for_message(lambda m: m.content.startswith("**Round 1."), SETTLED_SECONDS)
        await fake.slash(bob, thread, "orders pass")  # and again: she is still away
        await fake.wait_for_message(lambda m: m.content.startswith("**Round 2."), SETTLED_SECONDS)
        await fake.click(alice, request, button(request, "Approve"))
        await fake.wait_for_message(lambda m: "and plays on from here" in m.content, SETTLED_SECONDS)
        await fake.wait_for_message(lambda m: m.id == lobby.id and f"<@{carol.id}>" in str(m.embeds), SETTLED_SECONDS)
        await settled(crash.database)
        async with aiohttp.ClientSession() as client:  # the operator's view of the new process
            async with client.get(f"http://127.0.0.1:{crash.settings['HEALTH_PORT']}/metrics") as answer:
                figures = (await answer.text()).splitlines()
        assert "territory_turns_resolved_total 2.0" in figures
        assert "territory_acknowledgement_seconds_count 2.0" in figures  # the two /orders pass of this process
    assert first.returncode == -signal.SIGKILL and "Traceback" not in crash.log(1).read_text()
    with sqlite3.connect(crash.database) as conn:
        (away_until,) = conn.execute("SELECT away_until FROM players WHERE name = 'alice'").fetchone()
        (taker,) = conn.execute("SELECT name FROM players WHERE took_over = 1 AND user_id IS NOT NULL").fetchone()
    assert away_until is not None and taker == "carol"


def second_seat(round_post: str) -> int:
    """The second player of the round's one game, as its post names him."""
    [game] = [line for line in round_post.split("\n") if " vs " in line]
    return int(game.split(" vs <@")[1].split(">")[0])


async def test_a_tournament_killed_while_opening_a_round_opens_it_once_after_the_restart(tmp_path):
    """ "Restart-safe: a tournament round in progress … survive[s] a SIGKILL of the bot": the process is
    killed while it opens round 2's game (Discord made the thread but the bot never heard back); the new
    process starts that same game, tells the round once, and the tournament plays on to its end."""
    async with crashing(tmp_path, "alice", "bob", "carol") as crash:
        fake, (alice, bob, carol) = crash.fake, crash.members
        users = {u.id: u for u in crash.members}
        first = await crash.start()
        await fake.slash(alice, crash.channel, "tournament create", ruleset="siege", format="swiss", rounds=2)
        card = next(m for m in fake.channel_messages(crash.channel) if m.components)
        for user in (bob, carol):
            await fake.click(user, card, button(card, "Join"))
        await fake.click(alice, card, button(card, "Start"))
        opened = await fake.wait_for_message(lambda m: "round 1 of 2 is open" in m.content, SETTLED_SECONDS)
        thread = fake.channel(int(opened.content.split("<#")[1].split(">")[0]))
        await fake.wait_for_message(lambda m: m.channel_id == thread.id and "has started" in m.content, SETTLED_SECONDS)
        loser = users[second_seat(opened.content)]

        fake.inject_hang("/threads", method="POST")  # round 2's game: its thread made, the answer never comes
        asked = await fake.slash(loser, thread, "game surrender")
        await fake.click(loser, asked.message, button(asked.message, "Surrender"))
        deadline = time.monotonic() + SETTLED_SECONDS  # a new thread wakes no waiter of the fake: polled
        while "hang POST" not in " ".join(fake.faults_fired):
            assert time.monotonic() < deadline, "the thread was never asked for"
            await asyncio.sleep(0.1)
        await crash.kill(first)

        second = await crash.start()
        told = await fake.wait_for_message(lambda m: "round 2 of 2 is open" in m.content, SETTLED_SECONDS)
        game_thread = fake.channel(int(told.content.split("<#")[1].split(">")[0]))
        await fake.wait_for_message(
            lambda m: m.channel_id == game_thread.id and "has started" in m.content, SETTLED_SECONDS
        )
        loser = users[second_seat(told.content)]
        asked = await fake.slash(loser, game_thread, "game surrender")
        await fake.click(loser, asked.message, button(asked.message, "Surrender"))
        await fake.wait_for_message(lambda m: "is over. Winner:" in m.content, SETTLED_SECONDS)
        await settled(crash.database)
        second.send_signal(signal.SIGTERM)
        await second.wait()
        posts = [
            m.content.split("\n")[0] for m in fake.channel_messages(crash.channel) if "**Tournament #1**" in m.content
        ]
    assert first.returncode == -signal.SIGKILL and "Traceback" not in crash.log(1).read_text()
    assert len(posts) == 3 and "round 1 of 2" in posts[0] and "round 2 of 2" in posts[1], posts
    with sqlite3.connect(crash.database) as conn:
        games = conn.execute("SELECT status FROM games WHERE tournament_id = 1 ORDER BY id").fetchall()
        (status,) = conn.execute("SELECT status FROM tournaments WHERE id = 1").fetchone()
    assert games == [("finished",), ("finished",)] and status == "finished"  # no second game for the table


async def test_a_queue_and_a_pending_ready_check_survive_a_sigkill(tmp_path):
    """ "Restart-safe: … a queue and a pending ready check survive a SIGKILL of the bot": Alice has
    answered, Bob answers on the same post after the restart and the game opens; Carol still waits."""
    async with crashing(tmp_path, "alice", "bob", "carol") as crash:
        fake, (alice, bob, carol) = crash.fake, crash.members
        first = await crash.start()
        for user in (alice, bob):
            await fake.slash(user, crash.channel, "play queue", ruleset="siege", speed="daily")
        await fake.slash(carol, crash.channel, "play queue", ruleset="fortress", speed="fast")
        check = await fake.wait_for_message(lambda m: "**A game is found**" in m.content, SETTLED_SECONDS)
        ready = await fake.click(alice, check, button(check, "Ready"))
        await ready.settled(SETTLED_SECONDS)
        await crash.kill(first)

        await crash.start()
        answered = await fake.click(bob, check, button(check, "Ready"))
        await answered.settled(SETTLED_SECONDS)
        await fake.wait_for_message(lambda m: m.id == check.id and "has started" in m.content, SETTLED_SECONDS)
        [thread] = fake.threads(crash.channel)
        await fake.wait_for_message(lambda m: m.channel_id == thread.id and "has started" in m.content, SETTLED_SECONDS)
        waiting = await fake.slash(carol, crash.channel, "play status")
        await waiting.settled(SETTLED_SECONDS)
        assert "Fortress" in waiting.content, waiting.content
    assert first.returncode == -signal.SIGKILL and "Traceback" not in crash.log(1).read_text()
