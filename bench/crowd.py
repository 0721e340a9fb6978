"""A database as a busy deployment holds it, for the benches: many running games of every ruleset,
each with its players, its current orders and its history, made by copying a few really played games.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import find_ruleset
from service import GameMaster
from service.clock import ManualClock
from service.models import Actor, TimeSettings
from service.storage.sqlite import Database

HOST = Actor(10**12, "Host")
DAY = 86400


async def played_games(master: GameMaster, clock: ManualClock, rulesets: Sequence[str], turns: int) -> list[int]:
    """One running game per ruleset with ``turns`` turns behind it: a human seat (whose orders the
    engine's own bot writes and passes) against a computer seat, on the ruleset's default table."""
    ids = []
    for n, name in enumerate(rulesets):
        rs = find_ruleset(name)
        game = await master.lobby.create_game(
            guild_id=1,
            channel_id=1,
            actor=HOST,
            ruleset=name,
            options={},
            time=TimeSettings(round_seconds=DAY, reminder_seconds=3600),
            seed=n,
        )
        await master.lobby.add_ai(game.id, HOST)
        game = await master.lobby.start_game(game.id, HOST)
        for _ in range(turns):
            if game.row.status != "running":
                break
            seat = game.player_of(HOST.user_id).seat
            if seat in game.acting_seats:
                text = rs.format_orders(rs.ai_orders(game.state, seat, game.row.turn))
                await master.play.submit(game.id, HOST, text)
            else:
                clock.advance(DAY)
                await master.timekeeping.wake(game.id)  # this game only: a sweep would time the others out
            game = await master.games.get_game(game.id)
        ids.append(game.id)
    return ids


async def copy_games(db: Database, templates: Sequence[int], total: int, *, wake_from: float) -> None:
    """Copies of ``templates`` (round-robin) until the database holds ``total`` more games, each with
    its template's players, orders and history, a thread of its own, and its deadline and reminder
    moved so that the copies' wake-ups fall evenly over the day after ``wake_from``."""
    step = DAY / max(total, 1)
    async with db.transaction() as conn:
        columns = [row[1] for row in await (await conn.execute("PRAGMA table_info(games)")).fetchall()]
        copied = ", ".join(c for c in columns if c not in ("id", "thread_id", "deadline_at", "reminder_at"))
        for n, template in enumerate(templates):
            count = len(range(n, total, len(templates)))
            if not count:
                continue
            (first,) = await (await conn.execute("SELECT coalesce(max(id), 0) + 1 FROM games")).fetchone()
            await conn.execute(
                f"""INSERT INTO games ({copied}, thread_id, deadline_at, reminder_at)
                    WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < ?)
                    SELECT {copied}, ? + k.i, ? + (k.i * ? + ?) * ?, ? + (k.i * ? + ?) * ? - 3600
                    FROM games, k WHERE games.id = ?""",
                (count, 10**15 + first) + (wake_from + 3600, len(templates), n, step) * 2 + (template,),
            )
            span = (first, first + count - 1, template)
            await conn.execute(
                """INSERT INTO players (game_id, user_id, name, seat, missed, bank_left, draw_agreed, joined_at,
                                        ai_level)
                   SELECT g.id, p.user_id, p.name, p.seat, p.missed, p.bank_left, p.draw_agreed, p.joined_at,
                          p.ai_level
                   FROM games g, players p WHERE g.id BETWEEN ? AND ? AND p.game_id = ?""",
                span,
            )
            await conn.execute(
                """INSERT INTO orders (game_id, turn, seat, text, passed, passed_at, updated_at)
                   SELECT g.id, o.turn, o.seat, o.text, o.passed, o.passed_at, o.updated_at
                   FROM games g, orders o WHERE g.id BETWEEN ? AND ? AND o.game_id = ?""",
                span,
            )
            await conn.execute(
                """INSERT INTO history (game_id, seq, turn, kind, payload, events, state_after, at)
                   SELECT g.id, h.seq, h.turn, h.kind, h.payload, h.events, h.state_after, h.at
                   FROM games g, history h WHERE g.id BETWEEN ? AND ? AND h.game_id = ?""",
                span,
            )


async def crowded_database(path, total: int, *, wake_from: float, rulesets: Sequence[str], turns: int) -> None:
    """A database file at ``path`` holding ``total`` running games copied from played ones, none of
    them due before ``wake_from``."""
    db = await Database.open(path)
    await db.migrate()
    clock = ManualClock(wake_from - 30 * DAY)  # played a while ago; the copies wake over the coming day
    master = GameMaster(db, clock)
    templates = await played_games(master, clock, rulesets, turns)
    await copy_games(db, templates, total - len(templates), wake_from=wake_from)
    async with db.transaction() as conn:  # the played games are not overdue either; all was posted
        await conn.execute(
            "UPDATE games SET deadline_at = ?, reminder_at = ? WHERE status = 'running' AND deadline_at < ?",
            (wake_from + DAY, wake_from + DAY - 3600, wake_from),
        )
        await conn.execute("UPDATE outbox SET delivered_at = ? WHERE delivered_at IS NULL", (wake_from,))
    await db.close()
