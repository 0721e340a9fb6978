"""Database growth per turn: what a long game adds to the SQLite file for good, on each ruleset's
largest board (``bench.positions.largest_options``) with its most players.

Per ruleset, ``--games`` games through a ``GameService`` on a real SQLite file: one seat a human's,
whose orders the weakest computer writes and who submits them through the game master, the other
seats computers at the weakest level (which thinks least; the rows it leaves are as large as any
level's). A turn takes an hour on the service's clock, and after each round of turns the service's
own sweep runs as production's does: it delivers the posts (to a sink that takes them) and deletes
those delivered a day before. After ``--warm`` rounds (past that day, so the outbox is as large as
it stays), the file is measured with its write-ahead log checkpointed, and again after ``--turns``
more rounds (a game that ends makes way for a new one). Growth per turn: the difference in the
pages in use outside the outbox (free pages are filled before the file grows) over the turns
resolved between; the outbox's size is printed apart (a day of posts, however long games run).

Beside it, the history rows per turn as stored (most rows a change to the row before), as each row
deflated alone (the floor: how rows were stored before) and as plain JSON text.

Leaves out: PostgreSQL (its TOAST pages compress on their own; the rows are the same), the ratings
tables (a row per player per finished game), and renders (images are never stored).

Usage: python bench/bench_storage.py [--games N] [--warm N] [--turns N] [--ruleset NAME ...]
Ends with ``RESULT storage growth_bytes_per_turn=<worst ruleset> <ruleset>_growth=…
<ruleset>_history=… <ruleset>_alone=… <ruleset>_ratio=…`` (history over alone).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import pathlib
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench.positions import largest_options, quick_level  # noqa: E402
from engine import RULESETS, Ruleset  # noqa: E402
from service.clock import ManualClock  # noqa: E402
from service.models import Actor  # noqa: E402
from service.runtime.gameservice import GameService  # noqa: E402
from service.storage import history as rows  # noqa: E402
from service.storage.packing import pack  # noqa: E402
from service.storage.sqlite import Database  # noqa: E402

HUMAN = Actor(1, "Human")
HOUR = 3600.0
GOAL = 4096


class TakingSink:
    """Discord that takes every post at once."""

    async def deliver(self, announcement) -> None:
        return None


async def open_game(service: GameService, rs: Ruleset, seed: int) -> int:
    lobby, level = service.master.lobby, quick_level(rs)
    game = await lobby.create_game(
        guild_id=1, channel_id=1, actor=HUMAN, ruleset=rs.name, options=largest_options(rs), seed=seed
    )
    for _ in range(rs.max_players - 1):
        game = await lobby.add_ai(game.id, HUMAN, level)
    return (await lobby.start_game(game.id, HUMAN)).id


async def a_round(service: GameService, rs: Ruleset, ids: list[int]) -> None:
    """The human gives his orders in every game waiting for him (a game that ended makes way for a
    new one, as on a server where games keep starting); an hour later the sweep runs."""
    master = service.master
    for index, game_id in enumerate(ids):
        game = await master.games.get_game(game_id)
        if game.row.status != "running":
            ids[index] = await open_game(service, rs, seed=game_id)
            continue
        seat = game.player_of(HUMAN.user_id).seat
        if seat in game.waiting_seats:
            orders = rs.ai_orders(game.state, seat, f"human:{game.row.turn}", level=quick_level(rs))
            await master.play.submit(game_id, HUMAN, rs.format_orders(orders))
    service.clock.advance(HOUR)
    await service.sweep()


async def pages_bytes(db: Database) -> tuple[int, int]:
    """The bytes of the file's pages in use outside the outbox, and in the outbox's table and indexes
    (which hold a day of posts: as many as a day's turns add, the same number leave)."""
    async with db.lock:
        await db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        cursor = await db.conn.execute(
            "SELECT name LIKE '%outbox%', sum(pgsize) FROM dbstat GROUP BY name LIKE '%outbox%' ORDER BY 1"
        )
        (_, kept), (_, outbox) = await cursor.fetchall()
    return kept, outbox


async def history(db: Database) -> tuple[int, int, int, int]:
    """Resolved turns, and their rows' bytes as stored, deflated alone, and as plain JSON text."""
    turns = stored = alone = plain = 0
    async with db.reading() as conn:
        async with conn.execute("SELECT DISTINCT game_id FROM history") as cursor:
            games = [game_id for (game_id,) in await cursor.fetchall()]
        async with conn.execute(
            "SELECT sum(length(payload) + length(events) + length(state_after)) FROM history"
        ) as cursor:
            (stored,) = await cursor.fetchone()
        for game_id in games:
            for entry in await rows.entries(conn, game_id):
                turns += entry.kind == rows.RESOLVED
                columns = (entry.payload, entry.events, entry.state_after)
                alone += sum(len(pack(json.loads(c))) for c in columns)
                plain += sum(len(c.encode()) for c in columns)
    return turns, stored, alone, plain


async def measure(rs: Ruleset, folder: pathlib.Path, args) -> dict[str, float]:
    path = folder / f"{rs.name}.sqlite3"
    service = await GameService.open(path, TakingSink(), clock=ManualClock(), workers=1)
    try:
        ids = [await open_game(service, rs, seed) for seed in range(args.games)]
        for _ in range(args.warm):
            await a_round(service, rs, ids)
        (before, _), (turns_before, *_) = await pages_bytes(service.db), await history(service.db)
        for _ in range(args.turns):
            await a_round(service, rs, ids)
        (after, outbox), (turns, stored, alone, plain) = await pages_bytes(service.db), await history(service.db)
    finally:
        await service.close()
    return {
        "growth": (after - before) / (turns - turns_before),
        "history": stored / turns,
        "alone": alone / turns,
        "plain": plain / turns,
        "turns": turns - turns_before,
        "outbox": outbox,
    }


async def main(args) -> None:
    folder = pathlib.Path(tempfile.mkdtemp())
    figures: dict[str, float] = {}
    print(
        f"{args.games} games per ruleset, largest board, most players; {args.warm} rounds, then {args.turns} measured"
    )
    for name in args.ruleset or sorted(RULESETS):
        rs = RULESETS[name]
        got = await measure(rs, folder, args)
        print(
            f"  {name:9} {rs.max_players} players {largest_options(rs)}: database grows {got['growth']:6.0f} B per turn "
            f"over {got['turns']:.0f} turns; history rows {got['history']:5.0f} B per turn "
            f"(alone {got['alone']:5.0f} B, ratio {got['history'] / got['alone']:.2f}; plain JSON {got['plain']:6.0f} B); the outbox holds {got['outbox'] / 1024:.0f} KB"
        )
        figures.update(
            {
                f"{name}_growth": got["growth"],
                f"{name}_history": got["history"],
                f"{name}_alone": got["alone"],
                f"{name}_ratio": got["history"] / got["alone"],
            }
        )
    worst = max(v for k, v in figures.items() if k.endswith("_growth"))
    print(f"  goal: at most {GOAL} bytes per turn on every ruleset -> {'met' if worst <= GOAL else 'NOT met'}")
    shown = " ".join(
        f"{key}={value:.2f}" if key.endswith("_ratio") else f"{key}={value:.0f}" for key, value in figures.items()
    )
    print(f"RESULT storage growth_bytes_per_turn={worst:.0f} {shown}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--warm", type=int, default=30, help="rounds before measuring (a day is 24)")
    parser.add_argument("--turns", type=int, default=40, help="rounds measured")
    parser.add_argument("--ruleset", action="append", choices=sorted(RULESETS))
    asyncio.run(main(parser.parse_args()))
