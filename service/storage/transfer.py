"""Moving every game from one store to another (``python bot.py migrate-db --from … --to …``): a bot
that outgrows its SQLite file moves to PostgreSQL without losing a game, a turn of history, a player
or an undelivered post.

Both stores are taken as a bot takes them (no bot may run on either meanwhile) and brought to the
same schema version; the target must hold no data. Every table is copied in one transaction of the
target, row for row with its ids, then the rows are counted on both sides.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from service.storage.errors import StoreError
from service.storage.packing import pack, unpack
from service.storage.store import SOLE, Connection, Location, Store, described, open_store

# Every table of the schema, parents before the rows that refer to them: its key (the order rows are
# copied in) and the column holding a game's id, if any, to copy it a window of games at a time.
TABLES = (
    ("games", "id", "id"),
    ("players", "id", "game_id"),
    ("orders", "game_id, turn, seat", "game_id"),
    ("history", "game_id, seq", "game_id"),
    ("outbox", "id", "game_id"),
    ("ratings", "scope, ruleset, player", None),
    ("rating_history", "scope, ruleset, player, game_id", "game_id"),
    ("rated_games", "game_id", "game_id"),
    ("server_language", "guild_id", None),
    ("user_settings", "user_id", None),
    ("dm_refusals", "user_id", None),
    ("reliability", "user_id", None),
    ("seat_requests", "game_id, seat, user_id", "game_id"),
    ("server_web", "guild_id", None),
    ("site_secret", "id", None),
    ("server_maps", "id", None),
    ("seasons", "guild_id", None),
    ("season_ratings", "guild_id, season, ruleset, player", None),
    ("season_series", "guild_id, started_at", None),
    ("tournaments", "id", None),
    ("tournament_players", "tournament_id, user_id", None),
    ("tournament_games", "tournament_id, round, board", None),
    ("queue_entries", "user_id, ruleset, speed, seats, guild_id", None),
    ("ready_checks", "id", None),
    ("ready_check_players", "check_id, user_id", None),
    ("ready_check_posts", "check_id, channel_id", None),
    ("matchmaking_servers", "guild_id", None),
    ("game_mirrors", "game_id, guild_id", "game_id"),
    ("game_mirror_players", "game_id, user_id", "game_id"),
)
LEFT_BEHIND = ("claims",)  # which process holds which game: the new database's bots take them afresh
PACKED = {"history": ("payload", "events", "state_after")}  # service.storage.packing's bytes (old rows: JSON text)
GAMES_AT_ONCE = 200


@dataclass(frozen=True)
class Copied:
    counts: dict[str, int]  # rows per table, the same on both sides


async def migrate_db(source: Location, target: Location, *, report: Callable[[str], None] = print) -> Copied:
    """Copy everything from ``source`` into the empty ``target``; raises StoreError saying what is wrong."""
    origin = await open_store(source, hold=SOLE)
    try:
        destination = await open_store(target, hold=SOLE)
        try:
            counts = await _copy(origin, destination, report)
        finally:
            await destination.close()
    finally:
        await origin.close()
    report(f"copied {sum(counts.values())} rows from {described(source)} to {described(target)}; the counts match")
    return Copied(counts)


async def _copy(origin: Store, destination: Store, report: Callable[[str], None]) -> dict[str, int]:
    version = await origin.migrate()
    if await destination.migrate() != version:
        raise StoreError("the two databases ended at different schema versions: is one made by another bot?")
    filled = {table: n for table, n in (await _counts(destination)).items() if n}
    if filled:
        rows = ", ".join(f"{table}: {n}" for table, n in filled.items())
        raise StoreError(f"the target already holds data ({rows}): give migrate-db an empty database")
    async with origin.reading() as reader, destination.transaction() as writer:
        for table, key, window in TABLES:
            try:
                copied = await _copy_table(reader, writer, table, key, window)
            except Exception as err:
                raise StoreError(f"copying {table} failed, so nothing was copied: {err}") from err
            report(f"{table}: {copied} rows")
        await destination.ids_follow_copied_rows(writer)
    before, after = await _counts(origin), await _counts(destination)
    if before != after:
        differ = ", ".join(
            f"{table} {before[table]} → {after[table]}" for table in before if before[table] != after[table]
        )
        raise StoreError(f"the copy does not match its source ({differ})")
    return after


async def _copy_table(reader: Connection, writer: Connection, table: str, key: str, window: str | None) -> int:
    """Every row of ``table``, read a window of games at a time (the whole table if it has no game column)."""
    if window is None:
        return await _copy_rows(reader, writer, table, f"SELECT * FROM {table} ORDER BY {key}", ())
    async with reader.execute(f"SELECT max({window}) FROM {table}") as cursor:
        (last,) = await cursor.fetchone()
    copied = 0
    for low in range(0, (last or 0) + 1, GAMES_AT_ONCE):
        query = f"SELECT * FROM {table} WHERE {window} >= ? AND {window} < ? ORDER BY {key}"
        copied += await _copy_rows(reader, writer, table, query, (low, low + GAMES_AT_ONCE))
    return copied


async def _copy_rows(reader: Connection, writer: Connection, table: str, query: str, params: tuple) -> int:
    async with reader.execute(query, params) as cursor:
        rows = await cursor.fetchall()
    if not rows:
        return 0
    columns = list(rows[0].keys())
    packed = PACKED.get(table, ())
    values = [
        [pack(unpack(row[c])) if c in packed and isinstance(row[c], str) else row[c] for c in columns] for row in rows
    ]
    marks = ", ".join("?" * len(columns))
    await writer.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", values)
    return len(rows)


async def _counts(store: Store) -> dict[str, int]:
    counts = {}
    async with store.reading() as conn:
        for table, _, _ in TABLES:
            async with conn.execute(f"SELECT COUNT(*) FROM {table}") as cursor:
                (counts[table],) = await cursor.fetchone()
    return counts
