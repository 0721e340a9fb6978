"""Schema migrations: applied in order from empty, each atomic with its version; newer databases refused."""

from __future__ import annotations

import sqlite3

import pytest

from service.db import MIGRATIONS, Database, SchemaTooNewError, available_migrations


async def test_migrates_from_empty_with_wal_and_foreign_keys(tmp_path):
    db = await Database.open(tmp_path / "a.sqlite3")
    assert await db.migrate() == max(available_migrations(MIGRATIONS))
    async with db.reading() as conn:
        tables = {
            row[0] for row in await (await conn.execute("SELECT name FROM sqlite_master WHERE type='table'")).fetchall()
        }
        assert {"games", "players", "orders", "history", "outbox"} <= tables
        assert (await (await conn.execute("PRAGMA journal_mode")).fetchone())[0] == "wal"
        assert (await (await conn.execute("PRAGMA foreign_keys")).fetchone())[0] == 1
        assert (await (await conn.execute("PRAGMA busy_timeout")).fetchone())[0] == 5000
    assert await db.migrate() == max(available_migrations(MIGRATIONS))  # a second run changes nothing
    await db.close()


async def test_refuses_a_newer_database(tmp_path):
    db = await Database.open(tmp_path / "b.sqlite3")
    await db.conn.execute("PRAGMA user_version = 999")
    with pytest.raises(SchemaTooNewError, match="schema version 999"):
        await db.migrate()
    await db.close()


async def test_a_failing_migration_leaves_no_trace(tmp_path):
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_first.sql").write_text("CREATE TABLE one (x INTEGER);")
    (folder / "0002_broken.sql").write_text("CREATE TABLE two (x INTEGER);\nTHIS IS NOT SQL;")
    db = await Database.open(tmp_path / "c.sqlite3")
    with pytest.raises(sqlite3.OperationalError):
        await db.migrate(folder)
    assert await db._version() == 1
    async with db.reading() as conn:
        names = [row[0] for row in await (await conn.execute("SELECT name FROM sqlite_master")).fetchall()]
    assert "one" in names and "two" not in names
    await db.close()


def test_migration_files_are_numbered(tmp_path):
    (tmp_path / "first.sql").write_text("")
    with pytest.raises(ValueError, match="NNNN_description.sql"):
        available_migrations(tmp_path)


async def test_players_of_games_already_reminded_this_turn_are_not_reminded_again_after_the_upgrade(tmp_path):
    """Before 0007 a game had one reminder for everybody: where it went out, its players had theirs."""
    folder = tmp_path / "migrations"
    folder.mkdir()
    for step in sorted(MIGRATIONS.glob("000[1-4]_*.sql")):
        (folder / step.name).write_text(step.read_text())
    db = await Database.open(tmp_path / "d.sqlite3")
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
