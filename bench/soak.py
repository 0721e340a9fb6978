"""Soak: GAMES games played through everything Discord and the machine can do to a bot, counting what
players would lose.

One ``python bot.py`` (two workers, SWEEP_SECONDS=1) on a throwaway PostgreSQL server with durable
commits, against the local fake Discord with Discord's rate limits (per-route buckets with their
headers, the global 50 per second, the invalid-request count). GAMES two-player conquest games on
the small board, each in its own server, are opened through the bot; then ROUNDS rounds, in each of
which both players of every game pass (``/orders pass``, retried as a player would while there is no
answer, until it is confirmed or the database shows it taken) and the round's post is awaited.

Every round, FLAPS games lose a permission in their channel before their round resolves, each game
once in the whole run: half lose Send Messages in Threads (the post must wait, the game's clock stop,
its creator and its server's owner be told once; while it waits its deadline is set overdue in the
database, and the round must not be resolved by it; the permission comes back once both were told),
half Attach Files (the post goes out as text).
Each round also brings one trouble, in turn, starting a random moment into the round:

- bucket storm: Discord's own 5 posts per 5 s per channel, and 50 shared-scope 429s on posts;
- global storm: the global limit cut to 10 per second for the round;
- 5xx burst: 40 posts answered 502, 10 interaction answers 500;
- gateway drops: a resumed session (code 4000), then a new one (op 9 without resume);
- PostgreSQL restart: the server down for 3 s;
- SIGKILL: the bot killed and started again after Discord's nonce window (the fake forgets its
  nonces and the first attempt of every pending post is aged past the window);
- all at once: a 5xx burst, a gateway drop, a PostgreSQL restart and a SIGKILL.

Counted at the end (0 expected for all but the invalid requests and the global 429s):
- lost posts: a round resolved with no post of it in the game's thread, or a post left undelivered;
- doubled posts: a message of the bot repeated in the same channel or DM;
- lost orders: a pass the bot confirmed whose round then counted the player as missing;
- stuck: a game whose round post did not come within WAIT_SECONDS;
- misses: players counted missing in any round (nobody ever is late here);
- resolved while held: a game whose round went on while its thread could not be reached;
- admins not told once: per Send-Messages flap, creator and owner each told by DM other than once;
- invalid requests: the most 401/403/429 answers within 10 minutes (Discord bans at 10,000; goal < 100);
- buckets exceeded, and global 429s (Discord never says its global limit: the bot keeps under it
  by itself, cogs/pacing.py, and slows down at a refusal).

Leaves out: several processes (tests/e2e/test_processes.py kills one of three), interactions whose
acknowledgement Discord drops (a player sees "did not respond" and tries again, as here after a kill),
and days: deadlines never pass on their own (they are forced overdue during holds instead).

Usage: python bench/soak.py [--games 200] [--rounds 7] [--flaps 6] [--seed 1] [--quick]
Ends with ``RESULT soak games=… rounds=… posts=… lost_posts=… doubled_posts=… lost_orders=… stuck=…
misses=… resolved_while_held=… admins_not_told_once=… invalid_requests_peak=… buckets_exceeded=…
global_429=… bot_lives=… exit=… minutes=…``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import pathlib
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import asyncpg  # noqa: E402

from tests.e2e.conftest import button  # noqa: E402
from tests.fakediscord.harness import FakeDiscord  # noqa: E402
from tests.fakediscord.models import ATTACH_FILES, SEND_MESSAGES_IN_THREADS, FakeChannel, FakeUser  # noqa: E402
from tests.pgcluster import Cluster, bench_cluster  # noqa: E402

GAME = {"size": "small", "max_players": 2, "turn_time": 86400}
WAIT_SECONDS = 240.0
RETRY_SECONDS = 2.0
WINDOW_PASSED_SECONDS = 300.0  # older than cogs.redelivery.NONCE_WINDOW_SECONDS
TROUBLES = ("bucket storm", "global storm", "5xx burst", "gateway drops", "PostgreSQL restart", "SIGKILL", "all")
CONFIRMED = ("You passed.", "Done.")
TOLD = "I cannot post in"


@dataclass
class Table:
    """One server, its owner, its two players and their game."""

    fake: FakeDiscord
    number: int
    guild: Any = None
    alice: FakeUser | None = None
    bob: FakeUser | None = None
    thread: FakeChannel | None = None
    game_id: int = 0
    confirmed: set[tuple[int, int]] = field(default_factory=set)  # (turn, seat) the bot confirmed

    def __post_init__(self) -> None:
        self.guild = self.fake.add_guild(f"server {self.number}")
        self.alice, self.bob = self.fake.add_user(f"a{self.number}"), self.fake.add_user(f"b{self.number}")
        for user in (self.alice, self.bob):
            self.fake.add_member(self.guild, user)

    @property
    def channel(self) -> FakeChannel:
        return self.guild.channels[0]

    async def open(self) -> None:
        fake = self.fake
        await fake.slash(self.alice, self.channel, "game create conquest", **GAME)
        lobby = next(m for m in fake.channel_messages(self.channel) if m.components)
        await fake.click(self.bob, lobby, button(lobby, "Join"))
        await fake.click(self.alice, lobby, button(lobby, "Start"))
        started = await fake.wait_for_message(
            lambda m: m.guild_id == self.guild.id and "has started" in m.content, WAIT_SECONDS
        )
        self.thread = fake.channel(started.channel_id)

    def round_posts(self, number: int) -> list:
        return [m for m in self.fake.channel_messages(self.thread) if m.content.startswith(f"**Round {number}.")]


def told(fake: FakeDiscord, user: FakeUser, table: Table) -> int:
    """How many DMs told ``user`` that the bot cannot post in ``table``'s thread."""
    return sum(TOLD in m.content and f"<#{table.thread.id}>" in m.content for m in fake.dm_messages(user))


class Soak:
    def __init__(self, fake: FakeDiscord, cluster: Cluster, url: str, folder: pathlib.Path, seed: int):
        self.fake, self.cluster, self.url, self.folder = fake, cluster, url, folder
        self.rng = random.Random(seed)
        self.bot: asyncio.subprocess.Process | None = None
        self.lives = 0
        self.database_down = False
        self.resolved_while_held = 0

    # -- the bot and its database ----------------------------------------------------------------

    async def start_bot(self) -> None:
        self.lives += 1
        settings = {"DATABASE_URL": self.url, "WORKERS": "2", "SWEEP_SECONDS": "1"}
        self.bot = await self.fake.bot_process(settings, self.folder / f"bot-{self.lives}.log")
        await self.fake.wait_for_shards((0, 1), timeout=WAIT_SECONDS)

    async def stop_bot(self) -> int | None:
        if self.bot is not None and self.bot.returncode is None:
            self.bot.send_signal(signal.SIGTERM)
            return await self.bot.wait()
        return None

    async def query(self, sql: str, *args) -> list:
        """``sql`` on the bot's database, waiting out a restart of the server."""
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            try:
                conn = await asyncpg.connect(self.url, timeout=5)
                try:
                    return await conn.fetch(sql, *args)
                finally:
                    await conn.close()
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError):
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.5)

    # -- players ---------------------------------------------------------------------------------

    async def pass_turn(self, table: Table, user: FakeUser, seat: int, turn: int) -> None:
        """``/orders pass`` until the bot confirms it, or the database shows it taken or the turn over."""
        while True:
            try:
                handle = await self.fake.slash(user, table.thread, "orders pass")
                answer = handle.content
            except AssertionError:  # a deferred answer that never came: the bot died
                answer = ""
            if answer.startswith(CONFIRMED):
                table.confirmed.add((turn, seat))
                return
            await asyncio.sleep(RETRY_SECONDS)
            [(now,)] = await self.query("SELECT turn FROM games WHERE id = $1", table.game_id)
            taken = await self.query(
                "SELECT 1 FROM orders WHERE game_id = $1 AND turn = $2 AND seat = $3 AND passed = 1",
                table.game_id,
                turn,
                seat,
            )
            if now != turn or taken:
                return

    async def play_round(self, tables: list[Table], number: int) -> list[Table]:
        """Both players of every game pass; the games whose round post did not come (stuck)."""
        turns = dict(await self.query("SELECT id, turn FROM games"))
        seats = {(r["game_id"], r["user_id"]): r["seat"] for r in await self.query("SELECT * FROM players")}
        lanes = asyncio.Semaphore(48)

        async def one(table: Table, user: FakeUser) -> None:
            async with lanes:
                await self.pass_turn(table, user, seats[table.game_id, user.id], turns[table.game_id])

        await asyncio.gather(*(one(t, u) for t in tables for u in (t.alice, t.bob)))
        with contextlib.suppress(AssertionError):
            await self.fake.world.wait_until(
                lambda: all(t.round_posts(number) for t in tables), WAIT_SECONDS, f"round {number} posted"
            )
        return [t for t in tables if not t.round_posts(number)]

    # -- troubles --------------------------------------------------------------------------------

    async def flap(self, table: Table, permission: int, number: int) -> None:
        """The bot lacks ``permission`` in the game's channel (taken before the round) until its round has
        resolved. Without Send Messages the post waits: its game's deadline is forced overdue meanwhile
        (it must not resolve), and the permission comes back once the creator and owner were told (as
        an admin would give it back), or after WAIT_SECONDS."""
        fake, role = self.fake, self.fake.bot_role(table.guild)
        if permission == SEND_MESSAGES_IN_THREADS:
            await self.wait_db("SELECT 1 FROM games WHERE id = $1 AND held_for IS NOT NULL", table.game_id)
            with contextlib.suppress(AssertionError):
                await fake.world.wait_until(
                    lambda: all(told(fake, user, table) for user in (table.alice, table.guild.owner)),
                    WAIT_SECONDS,
                    "the notices",
                )
            [(turn, deadline)] = await self.query("SELECT turn, deadline_at FROM games WHERE id = $1", table.game_id)
            await self.query("UPDATE games SET deadline_at = $1 WHERE id = $2", time.time() - 1, table.game_id)
            await asyncio.sleep(3.0)  # three sweeps
            [(after,)] = await self.query("SELECT turn FROM games WHERE id = $1", table.game_id)
            self.resolved_while_held += after != turn
            await self.query("UPDATE games SET deadline_at = $1 WHERE id = $2", deadline, table.game_id)
        else:
            await fake.world.wait_until(lambda: table.round_posts(number), WAIT_SECONDS, "the post in words")
        fake.clear_overwrite(table.channel, role)

    async def wait_db(self, sql: str, *args) -> None:
        deadline = time.monotonic() + WAIT_SECONDS
        while not await self.query(sql, *args):
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {sql} {args}")
            await asyncio.sleep(0.2)

    async def trouble(self, kind: str) -> None:
        await asyncio.sleep(self.rng.uniform(0.0, 2.0))
        fake = self.fake
        if kind == "bucket storm":
            fake.set_rate_limit("POST /channels/{channel_id}/messages", 5, 5.0)
            fake.inject_rate_limit("/messages", count=50, retry_after=1.0, method="POST", scope="shared")
        elif kind == "global storm":
            fake.set_global_rate_limit(10, 1.0)
        if kind in ("5xx burst", "all"):
            fake.inject_server_error("/messages", count=40, status=502, method="POST")
            fake.inject_server_error("/interactions/", count=10, status=500)
        if kind in ("gateway drops", "all"):
            await fake.disconnect_gateway(resume=True, code=4000, timeout=WAIT_SECONDS)
            await asyncio.sleep(1.0)
            await fake.disconnect_gateway(resume=False, via="invalidate", timeout=WAIT_SECONDS)
        if kind in ("SIGKILL", "all"):
            await self.kill()
        if kind in ("PostgreSQL restart", "all"):
            await asyncio.to_thread(self.cluster.halt)
            await asyncio.sleep(3.0)
            await asyncio.to_thread(self.cluster.resume)

    def calm(self) -> None:
        """Discord's limits as the fake keeps them outside storms."""
        self.fake.set_rate_limit("POST /channels/{channel_id}/messages", 10, 1.0)
        self.fake.set_global_rate_limit(50, 1.0)

    async def kill(self) -> None:
        """SIGKILL, then a restart after Discord's nonce window has passed for every post under way."""
        assert self.bot is not None
        self.bot.send_signal(signal.SIGKILL)
        await self.bot.wait()
        self.fake.forget_nonces()
        await self.query(
            "UPDATE outbox SET tried_at = tried_at - $1 WHERE delivered_at IS NULL AND tried_at IS NOT NULL",
            WINDOW_PASSED_SECONDS,
        )
        await self.start_bot()

    async def open_tables(self, tables: list[Table]) -> None:
        opening = asyncio.Semaphore(8)

        async def open_table(table: Table) -> None:
            async with opening:
                await table.open()

        await asyncio.gather(*(open_table(t) for t in tables))
        ids = {r["thread_id"]: r["id"] for r in await self.query("SELECT id, thread_id FROM games")}
        for table in tables:
            table.game_id = ids[table.thread.id]

    async def play(self, tables: list[Table], rounds: int, flaps: int) -> tuple[set[int], list[Table]]:
        """Every round with its trouble and its flaps; the games stuck, and those held for a while."""
        flapped = self.rng.sample(tables, min(len(tables), flaps * rounds))
        held: list[Table] = []
        stuck: set[int] = set()
        for number in range(1, rounds + 1):
            kind = TROUBLES[(number - 1) % len(TROUBLES)]
            these = flapped[(number - 1) * flaps : number * flaps]
            permissions = [SEND_MESSAGES_IN_THREADS if k % 2 == 0 else ATTACH_FILES for k in range(len(these))]
            held += [t for t, p in zip(these, permissions) if p == SEND_MESSAGES_IN_THREADS]
            for table, permission in zip(these, permissions):
                self.fake.set_overwrite(table.channel, self.fake.bot_role(table.guild), deny=permission)
            began = time.perf_counter()
            side = [self.trouble(kind), *(self.flap(t, p, number) for t, p in zip(these, permissions))]
            late, *_ = await asyncio.gather(self.play_round(tables, number), *side)
            stuck |= {t.number for t in late}
            self.calm()
            print(f"round {number} ({kind}): {time.perf_counter() - began:.0f} s, {len(late)} stuck", flush=True)
        with contextlib.suppress(AssertionError):
            await self.wait_db("SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM outbox WHERE delivered_at IS NULL)")
        return stuck, held

    async def figures(self, tables: list[Table], rounds: int, stuck: set[int], held: list[Table]) -> dict:
        """What the players lost, counted from the database and from what the fake Discord shows."""
        fake = self.fake
        [(undelivered,)] = await self.query("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL")
        resolved = await self.query("SELECT game_id, seq, turn FROM history WHERE kind = 'resolve'")
        turn_of = {(r["game_id"], r["seq"]): r["turn"] for r in resolved}
        announced = await self.query("SELECT game_id, payload FROM outbox WHERE kind = 'round_resolved'")
        messages = [m for m in fake.world.messages.values() if m.author.id == fake.bot_user.id and not m.deleted]
        copies = Counter((m.channel_id, m.content) for m in messages if m.content and not m.ephemeral)
        for (_, text), n in copies.items():
            if n > 1:
                print(f"  posted {n} times: {text[:100]!r}")
        rounds_resolved = Counter(r["game_id"] for r in resolved)
        lost_posts = undelivered + sum(
            max(0, rounds_resolved[t.game_id] - sum(bool(t.round_posts(k)) for k in range(1, rounds + 1)))
            for t in tables
        )
        by_game = {t.game_id: t for t in tables}
        misses = lost_orders = 0
        for row in announced:
            payload = json.loads(row["payload"])
            for seat, _count in payload.get("missed", []):
                misses += 1
                lost_orders += (turn_of[row["game_id"], payload["seq"]], seat) in by_game[row["game_id"]].confirmed
        not_told_once = 0
        for t in held:
            for user in (t.alice, t.guild.owner):
                if (times := told(fake, user, t)) != 1:
                    print(f"  told {times} times: {user.name} of game #{t.game_id}")
                    not_told_once += 1
        return {
            "games": len(tables),
            "rounds": rounds,
            "posts": len(messages),
            "lost_posts": lost_posts,
            "doubled_posts": sum(n - 1 for n in copies.values()),
            "lost_orders": lost_orders,
            "stuck": len(stuck),
            "misses": misses,
            "resolved_while_held": self.resolved_while_held,
            "admins_not_told_once": not_told_once,
            "invalid_requests_peak": fake.invalid_requests_peak,
            "buckets_exceeded": sum(fake.buckets_exceeded().values()),
            "global_429": fake.global_rate_limit_hits,
            "bot_lives": self.lives,
        }


async def soak(games: int, rounds: int, flaps: int, seed: int, cluster: Cluster, folder: pathlib.Path) -> dict:
    conn = await asyncpg.connect(cluster.url("postgres"))
    await conn.execute("CREATE DATABASE soak")
    await conn.close()
    started = time.perf_counter()
    async with FakeDiscord(check_bodies=False, check_on_exit=False) as fake:
        run = Soak(fake, cluster, cluster.url("soak"), folder, seed)
        tables = [Table(fake, number) for number in range(games)]
        try:
            await run.start_bot()
            await run.open_tables(tables)
            stuck, held = await run.play(tables, rounds, flaps)
        finally:
            code = await run.stop_bot()
        figures = await run.figures(tables, rounds, stuck, held)
    return figures | {"exit": code, "minutes": round((time.perf_counter() - started) / 60, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=len(TROUBLES))
    parser.add_argument("--flaps", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="20 games, 4 flaps a round")
    args = parser.parse_args()
    games, flaps = (20, 4) if args.quick else (args.games, args.flaps)
    with bench_cluster() as cluster, tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(soak(games, args.rounds, flaps, args.seed, cluster, pathlib.Path(folder)))
    print("RESULT soak " + " ".join(f"{k}={v}" for k, v in figures.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
