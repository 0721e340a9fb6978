"""History storage per turn, on a real SQLite file through the game master.

Plays conquest games on the medium map (4 players: one human seat played by the engine's own bot
through the game master, three computer seats, all at the weakest level, which thinks least) to their round limit, then reads what the history
table holds: bytes per turn as stored (deflated JSON), against the same rows as plain JSON text
(what they took before). That every stored turn reads back exactly is a test
(tests/service/test_turns.py, the game replayed from its history).

Usage: python bench/bench_storage.py [GAMES] [ROUNDS]
"""

from __future__ import annotations

import asyncio
import json
import pathlib
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench.positions import quick_level  # noqa: E402
from engine import find_ruleset  # noqa: E402
from service import GameMaster  # noqa: E402
from service.clock import ManualClock  # noqa: E402
from service.models import Actor  # noqa: E402
from service.storage.packing import unpack  # noqa: E402
from service.storage.sqlite import Database  # noqa: E402

RS = find_ruleset("conquest")
HUMAN = Actor(1, "Human")


async def play(master: GameMaster, clock: ManualClock, seed: int, rounds: int) -> int:
    game = await master.lobby.create_game(
        guild_id=1,
        channel_id=1,
        actor=HUMAN,
        ruleset="conquest",
        options={"size": "medium", "round_limit": rounds},
        seed=seed,
    )
    for _ in range(3):
        game = await master.lobby.add_ai(game.id, HUMAN, quick_level(RS))
    game = await master.lobby.start_game(game.id, HUMAN)
    seat = game.player_of(HUMAN.user_id).seat
    while game.row.status == "running":
        if seat in game.waiting_seats:
            orders = RS.ai_orders(game.state, seat, f"human:{game.row.turn}", level=quick_level(RS))
            game = await master.play.submit(game.id, HUMAN, RS.format_orders(orders))
        else:
            clock.advance(1)
            game = await master.timekeeping.wake(game.id)
    return game.id


async def main(games: int, rounds: int) -> None:
    folder = pathlib.Path(tempfile.mkdtemp())
    db = await Database.open(folder / "storage.sqlite3")
    await db.migrate()
    clock = ManualClock()
    master = GameMaster(db, clock)
    for seed in range(games):
        await play(master, clock, seed, rounds)
    stored = raw = turns = 0
    async with db.reading() as conn:
        async with conn.execute(
            "SELECT kind, payload, events, state_after FROM history ORDER BY game_id, seq"
        ) as cursor:
            for row in await cursor.fetchall():
                turns += row["kind"] == "resolve"
                stored += sum(len(row[c]) for c in ("payload", "events", "state_after"))
                raw += sum(len(json.dumps(unpack(row[c])).encode()) for c in ("payload", "events", "state_after"))
    await db.close()
    per_turn, floor = stored / turns, raw / turns
    print(f"{games} conquest games on the medium map, 4 players, {turns} turns in the history")
    print(f"  stored (deflated JSON)   {per_turn:8.0f} bytes per turn")
    print(f"  floor (plain JSON text)  {floor:8.0f} bytes per turn   ratio {per_turn / floor:.2f}")
    print(f"  goal: at most 4096 bytes per turn -> {'met' if per_turn <= 4096 else 'NOT met'}")
    print(
        f"RESULT storage bytes_per_turn={per_turn:.0f} plain_json_bytes_per_turn={floor:.0f} ratio={per_turn / floor:.3f}"
    )


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 5, int(sys.argv[2]) if len(sys.argv) > 2 else 20))
