"""Each database has its own migrations (migrations/sqlite/, migrations/postgresql/), written in its
own words; both must make the same schema, step for step: the same tables, columns, types, keys and
indexes. Types compare through the one mapping the two dialects need (SQLite's 64-bit INTEGER is
BIGINT, REAL is DOUBLE PRECISION, BLOB is BYTEA); an auto-numbered ``INTEGER PRIMARY KEY`` is an
identity column. CHECK constraints are not compared."""

from __future__ import annotations

import re
import sqlite3

import asyncpg

from service.storage.sqlite import MIGRATIONS, POSTGRESQL_MIGRATIONS, available_migrations
from service.storage.store import open_store

TYPES = {"INTEGER": "bigint", "TEXT": "text", "REAL": "double precision", "BLOB": "bytea"}


def test_both_databases_have_the_same_numbered_steps():
    assert sorted(available_migrations(MIGRATIONS)) == sorted(available_migrations(POSTGRESQL_MIGRATIONS))
    assert [p.name for _, p in sorted(available_migrations(MIGRATIONS).items())] == [
        p.name for _, p in sorted(available_migrations(POSTGRESQL_MIGRATIONS).items())
    ]


def default(text: str | None) -> str | None:
    """A column default as both dialects can show it: ``'lobby'::text`` is ``'lobby'``."""
    return None if text is None else re.sub(r"::[a-z ]+$", "", text.strip("()"))


def sqlite_schema(path) -> dict:
    conn = sqlite3.connect(path)
    try:
        tables = [  # not SQLite's own (sqlite_sequence keeps AUTOINCREMENT's counters)
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite^_%' ESCAPE '^'"
            )
        ]
        schema = {}
        for table in tables:
            columns = {}
            for _, name, kind, notnull, dflt, pk in conn.execute(f"PRAGMA table_info({table})"):
                identity = (
                    pk == 1
                    and kind == "INTEGER"
                    and sum(1 for c in conn.execute(f"PRAGMA table_info({table})") if c[5]) == 1
                )
                columns[name] = (TYPES[kind], bool(notnull or pk), None if identity else default(dflt), identity)
            keys = tuple(c[1] for c in sorted(conn.execute(f"PRAGMA table_info({table})"), key=lambda c: c[5]) if c[5])
            indexes = {}
            for _, name, unique, origin, partial in conn.execute(f"PRAGMA index_list({table})"):
                if origin == "pk":
                    continue
                cols = tuple(r[2] for r in conn.execute(f"PRAGMA index_info({name})"))
                indexes[name if origin == "c" else ("unique", cols)] = (bool(unique), cols, bool(partial))
            references = {(row[3], row[2], row[4], row[6]) for row in conn.execute(f"PRAGMA foreign_key_list({table})")}
            schema[table] = {"columns": columns, "key": keys, "indexes": indexes, "references": references}
        return schema
    finally:
        conn.close()


async def postgresql_schema(url: str) -> dict:
    conn = await asyncpg.connect(url)
    try:
        schema = {}
        tables = [r[0] for r in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
        for table in tables:
            if table == "schema_migrations":  # where PostgreSQL keeps the version SQLite keeps in a pragma
                continue
            columns = {
                r["column_name"]: (
                    r["data_type"],
                    r["is_nullable"] == "NO",
                    default(r["column_default"]),
                    r["is_identity"] == "YES",
                )
                for r in await conn.fetch(
                    "SELECT * FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1", table
                )
            }
            keys = tuple(
                r[0]
                for r in await conn.fetch(
                    """SELECT a.attname FROM pg_index i
                       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
                       WHERE i.indrelid = $1::regclass AND i.indisprimary
                       ORDER BY array_position(i.indkey, a.attnum)""",
                    table,
                )
            )
            indexes = {}
            for r in await conn.fetch(
                """SELECT c.relname AS name, i.indisunique AS unique, i.indpred IS NOT NULL AS partial,
                          con.contype::text AS constraint_kind,
                          ARRAY(SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY k(attnum, n)
                                JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                                ORDER BY k.n) AS cols
                   FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
                   LEFT JOIN pg_constraint con ON con.conindid = i.indexrelid
                   WHERE i.indrelid = $1::regclass AND NOT i.indisprimary""",
                table,
            ):
                cols = tuple(r["cols"])
                name = ("unique", cols) if r["constraint_kind"] == "u" else r["name"]
                indexes[name] = (r["unique"], cols, r["partial"])
            references = {
                (r["column"], r["target"], r["target_column"], r["on_delete"])
                for r in await conn.fetch(
                    """SELECT a.attname AS column, t.relname AS target, ta.attname AS target_column,
                              CASE con.confdeltype WHEN 'c' THEN 'CASCADE' WHEN 'n' THEN 'SET NULL'
                                   WHEN 'r' THEN 'RESTRICT' WHEN 'd' THEN 'SET DEFAULT' ELSE 'NO ACTION' END AS on_delete
                       FROM pg_constraint con
                       JOIN pg_class t ON t.oid = con.confrelid
                       JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = ANY(con.conkey)
                       JOIN pg_attribute ta ON ta.attrelid = con.confrelid AND ta.attnum = ANY(con.confkey)
                       WHERE con.conrelid = $1::regclass AND con.contype = 'f'""",
                    table,
                )
            }
            schema[table] = {"columns": columns, "key": keys, "indexes": indexes, "references": references}
        return schema
    finally:
        await conn.close()


async def test_the_sqlite_and_postgresql_migrations_make_the_same_schema(tmp_path, postgresql_databases):
    sqlite_db = await open_store(tmp_path / "parity.sqlite3")
    await sqlite_db.migrate()
    await sqlite_db.close()
    database = await postgresql_databases.take(True)
    try:
        pg_db = await open_store(postgresql_databases.cluster.url(database))
        await pg_db.migrate()
        await pg_db.close()
        made = await postgresql_schema(postgresql_databases.cluster.url(database))
    finally:
        await postgresql_databases.give_back(database, True)
    expected = sqlite_schema(tmp_path / "parity.sqlite3")
    assert len(expected) >= 10 and "games" in expected
    assert sorted(made) == sorted(expected)
    for table, parts in expected.items():
        assert made[table] == parts, table
