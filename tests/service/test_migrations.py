"""Schema migrations: applied in order from empty, each atomic with its version; newer databases refused.
Each store has its own numbered files (``test_schema_parity`` compares the schemas they make)."""

from __future__ import annotations

import sqlite3

import pytest

from service.models import Actor
from service.storage import matchmaking as rows
from service.storage.errors import StoreError
from service.storage.sqlite import MIGRATIONS, Database, SchemaTooNewError, available_migrations
from service.storage.store import open_store

LATEST = max(available_migrations(MIGRATIONS))


async def tables(db) -> set[str]:
    query = {
        "sqlite": "SELECT name FROM sqlite_master WHERE type = 'table'",
        "postgresql": "SELECT tablename FROM pg_tables WHERE schemaname = 'public'",
    }[db.dialect]
    async with db.reading() as conn:
        return {row[0] for row in await (await conn.execute(query)).fetchall()}


async def test_migrates_from_empty_and_a_second_run_changes_nothing(places):
    db = await open_store(places.new(empty=True))
    assert await db.migrate() == LATEST
    assert {"games", "players", "orders", "history", "outbox", "ratings", "user_settings"} <= await tables(db)
    assert await db.migrate() == LATEST
    await db.close()


@pytest.mark.sqlite_only("WAL, foreign keys and the busy timeout are SQLite's connection settings")
async def test_sqlite_connections_use_wal_foreign_keys_and_a_busy_timeout(places):
    db = await Database.open(places.new())
    async with db.reading() as conn:
        assert (await (await conn.execute("PRAGMA journal_mode")).fetchone())[0] == "wal"
        assert (await (await conn.execute("PRAGMA foreign_keys")).fetchone())[0] == 1
        assert (await (await conn.execute("PRAGMA busy_timeout")).fetchone())[0] == 5000
    await db.close()


async def test_refuses_a_newer_database(places):
    db = await open_store(places.new(empty=True))
    await db.migrate()
    async with db.transaction() as conn:
        if db.dialect == "sqlite":
            await conn.execute("PRAGMA user_version = 999")
        else:
            await conn.execute("INSERT INTO schema_migrations (version) VALUES (999)")
    with pytest.raises(SchemaTooNewError, match="schema version 999"):
        await db.migrate()
    await db.close()


async def test_refuses_a_database_with_tables_it_did_not_make(places):
    db = await open_store(places.new(empty=True))
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE somebody_elses (x INTEGER)")
    with pytest.raises(StoreError, match="has tables but no schema version"):
        await db.migrate()
    await db.close()


async def test_a_failing_migration_leaves_no_trace(places, tmp_path):
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_first.sql").write_text("CREATE TABLE one (x INTEGER);")
    (folder / "0002_broken.sql").write_text("CREATE TABLE two (x INTEGER);\nTHIS IS NOT SQL;")
    db = await open_store(places.new(empty=True))
    with pytest.raises((sqlite3.OperationalError, StoreError), match="syntax error"):
        await db.migrate(folder)
    assert await db.version() == 1
    assert "one" in await tables(db) and "two" not in await tables(db)
    await db.close()


def test_migration_files_are_numbered(tmp_path):
    (tmp_path / "first.sql").write_text("")
    with pytest.raises(ValueError, match="NNNN_description.sql"):
        available_migrations(tmp_path)


def test_migrations_are_numbered_without_gaps(tmp_path):
    """A gap means a migration was lost (a database past it would never get it); only 5, which no
    release ever had, may be skipped."""
    for name in ("0001_first.sql", "0003_third.sql"):
        (tmp_path / name).write_text("")
    with pytest.raises(ValueError, match="migration 0002 is missing"):
        available_migrations(tmp_path)
    (tmp_path / "0002_second.sql").write_text("")
    assert sorted(available_migrations(tmp_path)) == [1, 2, 3]
    assert 5 not in available_migrations(MIGRATIONS) and LATEST > 5


async def test_ids_and_times_keep_every_bit(env):
    """Discord ids take 64 bits and times are doubles on both stores (PostgreSQL's INTEGER and REAL are
    narrower: the PostgreSQL schema says BIGINT and DOUBLE PRECISION)."""
    snowflake = 1_234_567_890_123_456_789
    env.clock.current = 1_790_000_000.123456789
    game = await env.master.lobby.create_game(
        guild_id=snowflake, channel_id=snowflake + 1, actor=Actor(snowflake + 2, "Ann"), ruleset="conquest"
    )
    game = await env.master.games.get_game(game.id)
    assert (game.row.guild_id, game.row.channel_id, game.row.creator_id) == (snowflake, snowflake + 1, snowflake + 2)
    assert game.row.created_at == 1_790_000_000.123456789


async def test_players_of_games_already_reminded_this_turn_are_not_reminded_again_after_the_upgrade(places, tmp_path):
    """Before 0007 a game had one reminder for everybody: where it went out, its players had theirs."""
    folder = tmp_path / "migrations"
    folder.mkdir()
    db = await open_store(places.new(empty=True))
    for step in sorted(db.migrations.glob("000[1-4]_*.sql")):
        (folder / step.name).write_text(step.read_text())
    await db.migrate(folder)
    async with db.transaction() as conn:
        for game_id, reminder_at in ((1, None), (2, 1e9)):
            await conn.execute(
                """INSERT INTO games (id, guild_id, channel_id, creator_id, ruleset, status, min_players, max_players,
                                      seed, turn, reminder_at, created_at, updated_at)
                   VALUES (?, 1, 1, 1, 'conquest', 'running', 2, 2, 0, 3, ?, 0, 0)""",
                (game_id, reminder_at),
            )
            await conn.execute(
                "INSERT INTO players (game_id, user_id, name, seat, joined_at) VALUES (?, 7, 'Alice', 0, 0)", (game_id,)
            )
            await conn.execute(
                "INSERT INTO players (game_id, user_id, name, seat, joined_at) VALUES (?, NULL, 'Bot', 1, 0)",
                (game_id,),
            )
    await db.migrate()
    async with db.reading() as conn:
        rows = await (await conn.execute("SELECT game_id, name, reminded_turn FROM players ORDER BY id")).fetchall()
    assert [tuple(r) for r in rows] == [(1, "Alice", 3), (1, "Bot", None), (2, "Alice", None), (2, "Bot", None)]
    await db.close()


async def test_computers_of_a_retired_level_play_on_as_they_played_and_are_rated_again(places, tmp_path):
    """Before 0008 conquest, gra and fortress had one level, "standard"; ranks keeps its own."""
    folder = tmp_path / "migrations"
    folder.mkdir()
    db = await open_store(places.new(empty=True))
    for step in sorted(db.migrations.glob("000[1-7]_*.sql")):
        (folder / step.name).write_text(step.read_text())
    await db.migrate(folder)
    async with db.transaction() as conn:
        for game_id, ruleset in ((1, "gra"), (2, "ranks"), (3, "fortress")):
            await conn.execute(
                """INSERT INTO games (id, guild_id, channel_id, creator_id, ruleset, status, min_players, max_players,
                                      seed, turn, created_at, updated_at)
                   VALUES (?, 1, 1, 1, ?, 'finished', 2, 2, 0, 3, 0, 0)""",
                (game_id, ruleset),
            )
            await conn.execute(
                "INSERT INTO players (game_id, name, seat, joined_at, ai_level) VALUES (?, 'Bot', 1, 0, 'standard')",
                (game_id,),
            )
            await conn.execute("INSERT INTO rated_games (game_id, ended_at) VALUES (?, 0)", (game_id,))
            await conn.execute(
                """INSERT INTO ratings (scope, ruleset, player, name, mu, sigma, games, wins, points)
                   VALUES (0, ?, 'computer:standard', 'Bot', 25, 8, 1, 1, 1)""",
                (ruleset,),
            )
    await db.migrate()
    async with db.reading() as conn:
        levels = await (await conn.execute("SELECT game_id, ai_level FROM players ORDER BY game_id")).fetchall()
        rated = await (await conn.execute("SELECT game_id FROM rated_games ORDER BY game_id")).fetchall()
        rulesets = await (await conn.execute("SELECT ruleset FROM ratings")).fetchall()
    assert [tuple(r) for r in levels] == [(1, "Easy"), (2, "standard"), (3, "Medium")]
    assert [r[0] for r in rated] == [2] and [r[0] for r in rulesets] == ["ranks"]
    await db.close()


async def test_queues_and_ready_checks_from_before_shared_queues_keep_their_server_and_post(places, tmp_path):
    """Before 0027 a queue was one server's and a ready check had one post: both carry on as they were."""
    folder = tmp_path / "migrations"
    folder.mkdir()
    db = await open_store(places.new(empty=True))
    for step in sorted(db.migrations.glob("00[01]?_*.sql")) + sorted(db.migrations.glob("002[0-6]_*.sql")):
        (folder / step.name).write_text(step.read_text())
    await db.migrate(folder)
    async with db.transaction() as conn:
        await conn.execute(
            """INSERT INTO queue_entries (user_id, ruleset, speed, seats, name, guild_id, channel_id, rating,
                   queued_at, expires_at) VALUES (7, 'siege', 'daily', 2, 'Alice', 100, 200, 0, 1, 2)"""
        )
        await conn.execute(
            """INSERT INTO ready_checks (id, ruleset, speed, seats, guild_id, channel_id, message_id, created_at,
                   expires_at, status) VALUES (3, 'siege', 'daily', 2, 100, 200, 900, 1, 2, 'waiting')"""
        )
        await conn.execute(
            """INSERT INTO ready_check_players (check_id, user_id, name, channel_id, rating, queued_at, expires_at)
               VALUES (3, 8, 'Bob', 200, 0, 1, 2)"""
        )
    await db.migrate()
    async with db.reading() as conn:
        [entry] = await rows.entries_of(conn, 7)
        assert (entry.queue.guild_id, entry.guild_id) == (100, 100)
        assert await rows.posts(conn, 3) == [rows.CheckPost(200, 100, 900)]
        assert [m.guild_id for m in await rows.members(conn, 3)] == [100]
    await db.close()
