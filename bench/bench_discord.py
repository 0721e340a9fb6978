"""The bot as players feel it, through the local fake Discord, with a crowded database.

1. Acknowledgement: PLAYERS players (two per conquest game) send `/orders replace` from their games'
   threads at the same moment, while the database also holds CROWD running games of every ruleset
   with 30 turns of history each (bench/crowd.py). Measured per interaction: from sending it to the
   bot's first response (what Discord's 3-second rule is about; the bot defers at once), and to the
   finished answer, the orders confirmed (``confirm``). The floor of the first response: `/echo say`
   answered at once by the same bot (the echo bot's command added to its tree: same process,
   discord.py client, fake and wire) for as many users at once. Bursts alternate ROUNDS times, echo
   first in every other round, and the pooled samples are compared, so that the two see the same
   machine. The floor of the confirmation: the same bursts first sent to a bot whose database holds
   only the players' own games (run just before, on the same machine: the two bots cannot share one
   fake Discord's interactions).
2. Deadline to image: every one of the PLAYERS/2 games gets the same deadline a few seconds ahead
   (written into its row, as a clock setting would), armed in the bot's scheduler; its own job fires
   on the real clock and wakes each game as production does. From that moment to each game's round
   image arriving in its thread (a quarter of the games with six players on the large map, the
   others two on the default board; each with its lobby card kept up to date): the p99 over the
   games, and when everything (the lobby cards that follow the images) was posted. The floor: the
   same work done at once by the bot's own workers, nothing else running: every game's board
   through the presenter, as a round post draws it, and every computer player's orders at its
   level's budget (a deadline has them think for the turn it begins); spread over the cores the
   machine gives at that moment. The floor is the positions the deadline left (the very images
   posted, the turn its computers thought for), timed right after it: the position before it is
   other work (a round fewer of units and moves to draw, another turn to think about). This
   machine's host takes back up to half of its CPU from minute to minute, so that floor is timed
   twice, one after the other, and the lesser counts (the second finds the workers' piece caches
   warm from the first, which only lowers the floor). DEADLINES rounds end so, one after the
   other, and the median of their ratios is the figure, the worst printed beside it. Also the CPU the bench's process (the
   bot and the fake Discord; renders run in worker processes) spent per turn.

The fake does not check request bodies against Discord's schema here (the tests do): that is
Discord's work, which never runs on the bot's machine, and it would be counted against the bot.

Usage: python bench/bench_discord.py [--players 200] [--crowd 10000] [--rounds 4] [--deadlines 3]
Ends with ``RESULT discord players=… crowd=… ack_p99_ms=… echo_p99_ms=… ack_ratio=… over_2_5s=…
confirm_p99_ms=… confirm_floor_p99_ms=… confirm_ratio=… …
image_p99_ms=… images_floor_ms=… images_ratio=… images_ratio_max=… all_posts_ms=… process_cpu_ms_per_turn=…``.
"""

from __future__ import annotations

import argparse
import asyncio
import pathlib
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench.crowd import DAY, crowded_database  # noqa: E402
from bench.stats import p99  # noqa: E402
from cogs.client import GameBot  # noqa: E402
from cogs.config import Config  # noqa: E402
from cogs.lobby import post_lobby  # noqa: E402
from engine import RULESETS, find_ruleset  # noqa: E402
from service.models import Actor, TimeSettings  # noqa: E402
from service.runtime.workers import bot_job  # noqa: E402
from tests.fakediscord.echo import echo_group  # noqa: E402
from tests.fakediscord.harness import FakeDiscord  # noqa: E402

RS = find_ruleset("conquest")
LATE_MS = 2500.0
SIX_EVERY = 4  # one game in this many has six players on the large map
DEADLINE_LEAD = 3.0  # seconds from arming the deadlines to their moment
MISSED_LIMIT = 10  # players give orders but never pass: every deadline is a missed round, none removes them


async def timed(send) -> tuple[float, float]:
    """Milliseconds to the first response and to the finished answer (inf if none came in 3 s)."""
    start = time.perf_counter()
    handle = await send
    if handle.response_type is None:
        return float("inf"), float("inf")
    acknowledged = (time.perf_counter() - start) * 1000
    if handle.message is not None and handle.message.loading:
        await handle.settled(timeout=60.0)
    return acknowledged, (time.perf_counter() - start) * 1000


def summary(label: str, samples: list[float]) -> str:
    return f"{label}: p50 {statistics.median(samples):.0f} ms, p99 {p99(samples):.0f} ms, max {max(samples):.0f} ms"


def members(fake: FakeDiscord, players: int):
    """One server with ``players`` members."""
    guild = fake.add_guild()
    users = [fake.add_user(f"p{i}") for i in range(players)]
    for user in users:
        fake.add_member(guild, user)
    return guild, users


class BotSide:
    def __init__(self, fake: FakeDiscord, players: int, database: pathlib.Path):
        self.fake = fake
        self.guild, self.users = members(fake, players)
        self.bot = GameBot(
            Config(token=fake.token, database=database, api_base=fake.api_base),
            service_options={"sweep_seconds": 3600},  # the deadlines are the scheduler's wake-up jobs
            guild_ready_timeout=0.1,
        )
        self.bot.tree.add_command(echo_group())
        self.orders: dict[int, tuple[object, str]] = {}  # user -> (his game's thread, orders)

    async def seat_players(self) -> None:
        """Two players per conquest game, each game opened as the bot opens it: a lobby card in the
        channel (kept up to date at every post) and the game's thread under it. Every SIX_EVERY-th
        game is on the large map with four computer players beside the two: six-player boards."""
        service = self.bot.service
        for i in range(0, len(self.users), 2):
            if i % 40 == 0:  # a channel holds at most 25 open games
                channel = self.fake.add_text_channel(self.guild, f"games-{i // 40}")
            pair = self.users[i : i + 2]
            actors = [Actor(u.id, u.name) for u in pair]
            six = (i // 2) % SIX_EVERY == 0
            game = await service.master.lobby.create_game(
                guild_id=self.guild.id,
                channel_id=channel.id,
                actor=actors[0],
                ruleset="conquest",
                options={"size": "large"} if six else {},
                time=TimeSettings(round_seconds=3600, missed_limit=MISSED_LIMIT),
                seed=i,
            )
            game, thread = await post_lobby(self.bot.get_channel(channel.id), game, service, actors[0])
            await service.master.lobby.join(game.id, actors[1])
            for _ in range(4 if six else 0):
                await service.master.lobby.add_ai(game.id, actors[0])
            game = await service.master.lobby.start_game(game.id, actors[0])
            for user, actor in zip(pair, actors, strict=True):
                seat = game.player_of(actor.user_id).seat
                self.orders[user.id] = (
                    self.fake.channel(thread.id),
                    RS.format_orders(RS.ai_orders(game.state, seat, 1)),
                )
        await service.sweep()  # the start posts go out before the bursts

    async def echo_burst(self) -> list[tuple[float, float]]:
        channel = self.guild.channels[0]
        return list(
            await asyncio.gather(
                *(timed(self.fake.slash(u, channel, "echo say", settle=False, text="C4>C5 3")) for u in self.users)
            )
        )

    async def orders_burst(self) -> list[tuple[float, float]]:
        return list(
            await asyncio.gather(
                *(
                    timed(
                        self.fake.slash(
                            u, self.orders[u.id][0], "orders replace", settle=False, text=self.orders[u.id][1]
                        )
                    )
                    for u in self.users
                )
            )
        )

    async def deadline_to_images(self, round_number: int) -> tuple[list[float], float, float]:
        """Milliseconds from the deadline of round ``round_number`` to each game's round image, and to the
        last post of all (the lobby cards after the images); this process's CPU per turn."""
        turns = len(self.users) // 2
        arrivals: dict[int, float] = {}
        heading = f"**Round {round_number}."

        def round_image(message) -> bool:
            if message.attachments and message.content.startswith(heading) and message.channel_id not in arrivals:
                arrivals[message.channel_id] = (time.perf_counter() - start) * 1000
            return len(arrivals) == turns

        cards = {g.row.lobby_message_id for g in await self.bot.service.master.lookup.list_games(self.guild.id)}
        shown: set[int] = set()
        next_round = f"Round {round_number + 1}"

        def every_card_shows_the_next_round(message) -> bool:
            if message.id in cards and next_round in str(message.embeds):
                shown.add(message.id)
            return len(shown) == len(cards)

        service = self.bot.service
        games = [g.id for g in await service.master.lookup.list_games(self.guild.id)]
        deadline = time.time() + DEADLINE_LEAD
        async with service.db.transaction() as conn:
            marks = ",".join("?" * len(games))
            await conn.execute(f"UPDATE games SET deadline_at = ? WHERE id IN ({marks})", (deadline, *games))
        for game_id in games:
            service.scheduler.arm(game_id, deadline)
        await asyncio.sleep(deadline - time.time())
        start, cpu = time.perf_counter(), time.process_time()
        await self.fake.wait_for_message(round_image, timeout=300)
        await self.fake.wait_for_message(every_card_shows_the_next_round, timeout=60)
        everything = (time.perf_counter() - start) * 1000
        return sorted(arrivals.values()), everything, (time.process_time() - cpu) * 1000 / turns

    async def boards_at_once(self) -> float:
        """Milliseconds for the bot's workers to do at once, with nothing else going on, what a
        deadline makes them do: every game's board (through the presenter, as a round post draws
        it) and every computer player's orders (at its level's budget, for the position as it is)."""
        service = self.bot.service
        games = [g for g in await service.master.lookup.list_games(self.guild.id) if g.row.thread_id]
        thinking = [
            service.pool.run(
                bot_job, RS, g.row.state, p.seat, f"floor:{g.id}", p.ai_level, RS.bot_level(p.ai_level).budget
            )
            for g in games
            for p in g.players
            if p.is_ai
        ]
        started = time.perf_counter()
        await asyncio.gather(*(service.presenter.board(g) for g in games), *thinking)
        return (time.perf_counter() - started) * 1000


async def confirmations_alone(folder: pathlib.Path, players: int, rounds: int) -> list[float]:
    """The floor of the confirmation: the same bursts to a bot whose database holds only its players' games."""
    samples: list[tuple[float, float]] = []
    async with FakeDiscord(check_bodies=False) as fake:
        bot = BotSide(fake, players, folder / "alone.sqlite3")
        await fake.start_bot(bot.bot)
        await bot.seat_players()
        for _ in range(rounds):
            samples += await bot.orders_burst()
        await fake.stop_bot(bot.bot)
    return [done for _, done in samples]


async def main(players: int, crowd: int, rounds: int, deadlines: int) -> None:
    folder = pathlib.Path(tempfile.mkdtemp())
    database = folder / "bench.sqlite3"
    confirm_floor = await confirmations_alone(folder, players, rounds)
    # The crowd is due only after the bench: what is measured is its weight, not its deadlines.
    await crowded_database(database, crowd, wake_from=time.time() + 2 * DAY, rulesets=tuple(RULESETS), turns=30)
    echo_samples: list[tuple[float, float]] = []
    bot_samples: list[tuple[float, float]] = []
    async with FakeDiscord(check_bodies=False) as fake:
        bot = BotSide(fake, players, database)
        await fake.start_bot(bot.bot)
        await bot.seat_players()
        for burst in range(rounds):  # each goes first in every other round: neither gets the quieter turn
            if burst % 2 == 0:
                echo_samples += await bot.echo_burst()
            bot_samples += await bot.orders_burst()
            if burst % 2 == 1:
                echo_samples += await bot.echo_burst()
        played = []  # per deadline: (image arrivals, everything posted, CPU per turn)
        floors = []  # per deadline: its floor, timed twice right after it
        for round_number in range(1, deadlines + 1):
            played.append(await bot.deadline_to_images(round_number))
            floors.append([await bot.boards_at_once() for _ in range(2)])
        await fake.stop_bot(bot.bot)
    ratios = [p99(images) / min(floors[k]) for k, (images, _, _) in enumerate(played)]
    middle = sorted(range(deadlines), key=lambda k: ratios[k])[deadlines // 2]
    images, everything, cpu_per_turn = played[middle]
    floor_images = min(floors[middle])
    image_p99 = p99(images)
    acks, answers = [a for a, _ in bot_samples], [d for _, d in bot_samples]
    echo_acks = [a for a, _ in echo_samples]
    late = sum(1 for a in acks if a > LATE_MS)
    ratio = p99(acks) / p99(echo_acks)
    print(f"{players} players at once, {rounds} bursts each, database with {crowd} other running games")
    print(summary("  /orders replace, first response", acks))
    print(summary("  /orders replace, finished answer", answers))
    print(summary("  floor: /echo say, response     ", echo_acks))
    print(summary("  floor: /orders replace answered, database without the crowd", confirm_floor))
    confirm_ratio = p99(answers) / p99(confirm_floor)
    print(f"  p99 confirmation {confirm_ratio:.2f}x its floor without the crowd (goal: at most 1.5x, and 1 s)")
    print(f"  p99 first response {ratio:.2f}x the echo floor; {late} of {len(acks)} over {LATE_MS / 1000:.1f} s")
    for k, (arrivals, posted, cpu) in enumerate(played):
        print(summary(f"deadline {k + 1} -> round image posted, {len(arrivals)} games", arrivals))
        print(
            f"  p99 {ratios[k]:.2f}x the floor of {min(floors[k]):.0f} ms (the {len(arrivals)} boards and the "
            f"computers' turns done at once by the bot's workers: {floors[k][0]:.0f} ms, then {floors[k][1]:.0f} ms); "
            f"everything posted (lobby cards too) after {posted:.0f} ms; "
            f"{cpu:.1f} ms of CPU per turn in the bot's process (with the fake Discord)"
        )
    print(f"  median deadline: {ratios[middle]:.2f}x its floor; worst {max(ratios):.2f}x")
    print(
        f"RESULT discord players={players} crowd={crowd} ack_p50_ms={statistics.median(acks):.0f} "
        f"ack_p99_ms={p99(acks):.0f} echo_p99_ms={p99(echo_acks):.0f} ack_ratio={ratio:.2f} over_2_5s={late} "
        f"confirm_p99_ms={p99(answers):.0f} confirm_floor_p99_ms={p99(confirm_floor):.0f} "
        f"confirm_ratio={confirm_ratio:.2f} first_image_ms={images[0]:.0f} image_p99_ms={image_p99:.0f} "
        f"images_floor_ms={floor_images:.0f} images_ratio={ratios[middle]:.2f} images_ratio_max={max(ratios):.2f} "
        f"all_posts_ms={everything:.0f} "
        f"process_cpu_ms_per_turn={cpu_per_turn:.1f}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--crowd", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--deadlines", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(main(args.players, args.crowd, args.rounds, args.deadlines))
