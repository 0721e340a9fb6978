"""Turns played by a bot process that is SIGKILLed at a chosen step, then checked for what was lost.

``python -m tests.service.crashturn FOLDER TURNS [KILL_AT]`` is one bot process: it opens the game
service on the folder's database (``FOLDER/games.sqlite3``, or the location ``new_game`` was given,
kept in ``FOLDER/database``), recovers as at any start-up, and plays two players' turns (each
gives orders, then passes; the last pass resolves the turn; the posts go out). Every step counts:
the game master's and the outbox's fault points (planned, inside the transaction, committed,
posted) and the players' own (before and after each command). At step ``KILL_AT`` the process
SIGKILLs itself. What players were told (their acknowledgements) and what reached "Discord" are
appended to files outside the database, as a real Discord and real players would keep them.

``run_case`` plays a game through a list of kills and a last run without one; ``verdict`` then
counts acknowledged orders missing from the history and announcements never posted (lost),
turns resolved or announced twice (doubled), and a game or run that did not finish (stuck).
"""

from __future__ import annotations

import asyncio
import json
import os
import pathlib
import signal
import sys
from dataclasses import dataclass

from engine import find_ruleset
from service import GameMaster
from service.clock import SystemClock
from service.errors import GameError
from service.models import Actor, Announcement
from service.runtime.gameservice import GameService
from service.runtime.workers import CpuPool
from service.storage import history as stored_history
from service.storage.store import Location, open_store

PLAYERS = (Actor(1, "Alice"), Actor(2, "Bob"))
RS = find_ruleset("conquest")
ROOT = pathlib.Path(__file__).resolve().parents[2]
RUN_TIMEOUT = 30.0


class Killer:
    """Records the steps reached; SIGKILLs this process at step number ``at`` (from 1)."""

    def __init__(self, at: int | None):
        self.at, self.steps = at, []

    def __call__(self, point: str) -> None:
        self.steps.append(point)
        if len(self.steps) == self.at:
            os.kill(os.getpid(), signal.SIGKILL)


def append(path: pathlib.Path, record: dict) -> None:
    """One line that survives this process being killed right after."""
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(record) + "\n")
        out.flush()
        os.fsync(out.fileno())


def records(path: pathlib.Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.endswith("}")]


class DiscordFile:
    """Posts land in a file; like Discord with a nonce, a repeated announcement id is not posted again."""

    def __init__(self, path: pathlib.Path):
        self.path = path
        self.seen = {post["id"] for post in records(path)}

    async def deliver(self, a: Announcement) -> None:
        if a.id not in self.seen:
            append(self.path, {"id": a.id, "kind": a.kind, "turn": a.payload.get("turn")})
            self.seen.add(a.id)


def database_of(folder: pathlib.Path) -> Location:
    named = folder / "database"
    return named.read_text(encoding="utf-8") if named.exists() else folder / "games.sqlite3"


async def play(folder: pathlib.Path, turns: int, kill: Killer) -> None:
    service = await GameService.open(
        database_of(folder), DiscordFile(folder / "posts.jsonl"), clock=SystemClock(), pool=CpuPool(workers=0)
    )
    service.master.games.fault = service.outbox.fault = kill
    await service.start()
    await service.recovery
    acks = folder / "acks.jsonl"
    game_id = 1
    for turn in range(turns):
        game = await service.master.games.get_game(game_id)
        if game.row.turn > turn:
            continue
        for actor in PLAYERS:
            seat = game.player_of(actor.user_id).seat
            text = RS.format_orders(RS.ai_orders(game.state, seat, f"crash:{turn}:{seat}"))
            kill("before orders")
            try:
                mine = await service.master.play.replace_orders(game_id, actor, text, expected_turn=turn)
            except GameError:  # passed in an earlier life: the orders are final
                continue
            kill("after orders")
            append(acks, {"what": "orders", "turn": turn, "seat": seat, "text": "; ".join(mine.lines)})
        for actor in PLAYERS:
            kill("before pass")
            try:
                await service.master.play.submit(game_id, actor, expected_turn=turn)
            except GameError:
                continue
            kill("after pass")
            append(acks, {"what": "pass", "turn": turn, "seat": game.player_of(actor.user_id).seat})
        await service.outbox.flush()
    await service.close()
    print("steps=" + json.dumps(kill.steps))


async def new_game(folder: pathlib.Path, database: Location | None = None) -> None:
    """A started game in the folder's database: ``database`` if given (a location), else a SQLite file."""
    if database is not None:
        (folder / "database").write_text(str(database), encoding="utf-8")
    db = await open_store(database_of(folder))
    await db.migrate()
    master = GameMaster(db, SystemClock())
    game = await master.lobby.create_game(
        guild_id=1, channel_id=1, actor=PLAYERS[0], ruleset="conquest", options={"size": "small"}, seed=3
    )
    await master.lobby.join(game.id, PLAYERS[1])
    await master.lobby.start_game(game.id, PLAYERS[0])
    await db.close()


async def run(folder: pathlib.Path, turns: int, kill_at: int | None = None, *, die_after: float | None = None):
    """One bot process; returns its exit code (-9 when killed) and the steps it went through if it finished."""
    args = [sys.executable, "-m", "tests.service.crashturn", str(folder), str(turns)]
    process = await asyncio.create_subprocess_exec(
        *args, *([str(kill_at)] if kill_at else []), cwd=ROOT, stdout=asyncio.subprocess.PIPE
    )
    try:
        out, _ = await asyncio.wait_for(process.communicate(), die_after or RUN_TIMEOUT)
    except TimeoutError:
        process.kill()
        out, _ = await process.communicate()
        if die_after is None:
            return None, None  # stuck
    text = out.decode()
    steps = json.loads(text.rsplit("steps=", 1)[1]) if "steps=" in text else None
    return process.returncode, steps


@dataclass
class Verdict:
    lost: int = 0
    doubled: int = 0
    stuck: int = 0
    kills: int = 0  # processes that were in fact killed on the way


async def run_case(
    folder: pathlib.Path, turns: int, kills: list[int | float], database: Location | None = None
) -> Verdict:
    """A new game (in ``database``, else a SQLite file) through ``kills`` (a step number, or a float:
    SIGKILL from outside after that many seconds), then a run left alone; what came of it."""
    folder.mkdir(parents=True)
    await new_game(folder, database)
    killed = 0
    for kill in kills:
        code, _ = await (run(folder, turns, die_after=kill) if isinstance(kill, float) else run(folder, turns, kill))
        killed += code == -signal.SIGKILL
    code, _ = await run(folder, turns)
    result = await verdict(folder, turns, finished=code == 0)
    result.kills = killed
    return result


async def verdict(folder: pathlib.Path, turns: int, *, finished: bool) -> Verdict:
    db = await open_store(database_of(folder))
    async with db.reading() as conn:
        (turn,) = await (await conn.execute("SELECT turn FROM games WHERE id = 1")).fetchone()
        history = await stored_history.entries(conn, 1)
        resolved = [(e.turn, json.loads(e.payload)["orders"]) for e in history if e.kind == stored_history.RESOLVED]
        (pending,) = await (await conn.execute("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL")).fetchone()
    await db.close()
    played = dict(resolved)
    told = {(a["turn"], a["seat"]): a["text"] for a in records(folder / "acks.jsonl") if a["what"] == "orders"}
    passed = {(a["turn"], a["seat"]) for a in records(folder / "acks.jsonl") if a["what"] == "pass"}
    posts: dict[tuple, set[int]] = {}
    for post in records(folder / "posts.jsonl"):
        posts.setdefault((post["kind"], post["turn"]), set()).add(post["id"])
    lost = sum(played.get(t, {}).get(str(seat)) != text for (t, seat), text in told.items())
    lost += sum(t not in played for t, _ in passed) + pending
    lost += sum(("round_resolved", t + 1) not in posts for t in range(turns))
    doubled = len(resolved) - len(played) + sum(len(ids) - 1 for ids in posts.values())
    return Verdict(lost, doubled, stuck=int(not finished or turn < turns))


if __name__ == "__main__":
    folder, turns = pathlib.Path(sys.argv[1]), int(sys.argv[2])
    asyncio.run(play(folder, turns, Killer(int(sys.argv[3]) if len(sys.argv) > 3 else None)))
