"""``bot.py migrate-db``: every row of a SQLite bot's database reaches the empty target (a PostgreSQL
database, or another SQLite file) as it was, new rows follow the copied ids, and a target that holds
data is refused untouched."""

from __future__ import annotations

import asyncio
import json

import bot
from service.clock import ManualClock
from service.models import Actor, TimeSettings
from service.ops.languages import ServerLanguages
from service.storage import history as stored_history
from service.storage.store import open_store
from service.storage.transfer import LEFT_BEHIND, PACKED, TABLES
from service.website import PUBLIC, Website
from tests.service.conftest import ADMIN, ALICE, BOB, CAROL, GUILD, HOUR, Env
from tests.service.test_ratings import finished
from tests.service.test_replacements import DAVE, seat_of
from tests.service.test_server_maps import shipped_file

ELSEWHERE, ERIN = 300, Actor(5, "Erin")


async def a_busy_bot(location) -> Env:
    """Games in every phase, with history, orders, ratings, undelivered posts, settings and a refused DM."""
    env = await Env(location, ManualClock()).open()
    running = await env.new_game(ALICE, BOB, CAROL, ai=1)
    await env.master.play.submit(running.id, ALICE)
    env.clock.advance(HOUR)
    await env.master.timekeeping.sweep()
    await env.outbox.flush()  # these posts are delivered, the later ones wait
    await env.master.play.add_orders(running.id, BOB, "")
    await env.master.seasons.set(GUILD, 30, 7, ADMIN)  # the next game ends in a season: rated in it too
    await finished(env, ALICE, BOB)
    await env.master.ratings.catch_up_ratings()
    await env.master.lobby.create_game(guild_id=GUILD, channel_id=7, actor=CAROL, ruleset="gra")
    await ServerLanguages(env.db, env.clock).set(GUILD, "uk", ADMIN)
    await env.master.settings.change_settings(
        BOB.user_id, lead="3h", quiet_start=22, quiet_end=7, time_zone="Europe/Kyiv"
    )
    assert await env.master.settings.dm_refused(CAROL.user_id)
    seated = await env.new_game(ALICE, BOB, time=TimeSettings(round_seconds=HOUR, replacements="open"))
    await env.master.play.surrender(seated.id, BOB)  # a computer plays on in his seat, and Dave asks for it
    assert not (await env.master.seats.take(seated.id, seat_of(seated, BOB), DAVE)).taken
    website = Website(env.db, env.clock)
    await website.set_mode(GUILD, PUBLIC, ADMIN)
    await website.signer()  # the site's secret, made once
    await env.master.maps.upload(GUILD, CAROL, "conquest", shipped_file("conquest", "duel"), "Arena")
    cup = await env.master.tournaments.create(
        guild_id=GUILD, channel_id=7, actor=ALICE, ruleset="siege", format="swiss", rounds=2
    )
    await env.master.tournaments.join(cup.id, BOB)
    await env.master.tournaments.start(cup.id, ALICE)  # its first round's game is running
    for player in (CAROL, BOB):  # a ready check pending, and one player waiting in another queue
        await env.master.matchmaking.join(
            player, guild_id=GUILD, channel_id=7, ruleset="fortress", speed="daily", seats=2
        )
    await env.master.matchmaking.join(ALICE, guild_id=GUILD, channel_id=7, ruleset="gra", speed="fast", seats=3)
    for server, player in ((GUILD, DAVE), (ELSEWHERE, ERIN)):  # queues shared: a game mirrored in another server
        await env.master.matchmaking.share(server, True, ADMIN)
        await env.master.matchmaking.join(
            player, guild_id=server, channel_id=server + 1, ruleset="siege", speed="fast", seats=2
        )
    [(check, _)] = await env.master.matchmaking.pending_checks(ERIN.user_id, ELSEWHERE)
    await env.master.matchmaking.ready(check.id, DAVE)
    assert (await env.master.matchmaking.ready(check.id, ERIN)).game_id is not None
    async with env.db.transaction() as conn:  # a row from before history was deflated: plain JSON text
        await conn.execute("UPDATE history SET events = '[]' WHERE game_id = ? AND seq = 0", (running.id,))
    return env


async def everything(store) -> dict[str, list[dict]]:
    tables = {}
    async with store.reading() as conn:
        for table, key, _ in TABLES:
            rows = await (await conn.execute(f"SELECT * FROM {table} ORDER BY {key}")).fetchall()
            tables[table] = [dict(row) for row in rows]
        for row in tables["history"]:  # packed columns compared as what they hold, decoded as the bot reads them
            [entry] = [e for e in await stored_history.entries(conn, row["game_id"]) if e.seq == row["seq"]]
            row.update({c: json.loads(getattr(entry, c)) for c in PACKED["history"]})
    return tables


async def test_every_row_is_copied_as_it_was_and_new_ids_follow(places, tmp_path, capsys):
    source = await a_busy_bot(tmp_path / "source.sqlite3")
    before = await everything(source.db)
    await source.db.close()
    assert all(before[table] for table, _, _ in TABLES)  # the check below is worth something

    target = places.new(empty=True)
    assert (
        await asyncio.to_thread(
            bot.main, ["migrate-db", "--from", f"sqlite:///{tmp_path}/source.sqlite3", "--to", str(target)]
        )
        == 0
    )
    assert "the counts match" in capsys.readouterr().out
    copy = await Env(target, source.clock).open()
    assert await everything(copy.db) == before
    game = await copy.master.lobby.create_game(guild_id=GUILD, channel_id=8, actor=ALICE, ruleset="conquest")
    assert game.id == max(row["id"] for row in before["games"]) + 1
    await copy.db.close()


async def test_every_table_of_the_schema_is_copied_or_said_to_be_left_behind(env):
    async with env.db.reading() as conn:
        if hasattr(env.db, "path"):
            query = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        else:
            query = "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        async with conn.execute(query) as cursor:
            tables = {row[0] for row in await cursor.fetchall()} - {"schema_migrations", "presence"}
    assert tables == {table for table, _, _ in TABLES} | set(LEFT_BEHIND)


async def test_a_target_with_data_is_refused_and_left_as_it_was(places, tmp_path, capsys):
    await (await a_busy_bot(tmp_path / "source.sqlite3")).db.close()
    target = places.new()
    env = await Env(target, ManualClock()).open()
    await env.new_game(ALICE, BOB)
    before = await everything(env.db)
    await env.db.close()

    assert (
        await asyncio.to_thread(
            bot.main, ["migrate-db", "--from", str(tmp_path / "source.sqlite3"), "--to", str(target)]
        )
        == 2
    )
    assert "the target already holds data (games: 1, players: 2" in capsys.readouterr().err
    store = await open_store(target)
    assert await everything(store) == before
    await store.close()


async def test_a_missing_source_or_one_database_twice_is_refused(tmp_path, capsys):
    assert (
        await asyncio.to_thread(
            bot.main, ["migrate-db", "--from", str(tmp_path / "nothing.sqlite3"), "--to", "sqlite:///x.sqlite3"]
        )
        == 2
    )
    assert "there is no database at" in capsys.readouterr().err
    assert await asyncio.to_thread(bot.main, ["migrate-db", "--from", "sqlite:///x.sqlite3", "--to", "x.sqlite3"]) == 2
    assert "the same database" in capsys.readouterr().err
    assert not (tmp_path / "nothing.sqlite3").exists()
