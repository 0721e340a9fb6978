"""The maps servers uploaded (``server_maps``): every statement on them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from service.storage.store import Connection


@dataclass(frozen=True)
class ServerMap:
    id: int
    guild_id: int
    ruleset: str
    name: str
    data: dict[str, Any]  # as the ruleset reads it in options["map"]
    seats: tuple[int, ...]  # the player counts it can seat
    author_id: int
    created_at: float
    published_at: float | None = None  # every server may find and copy it since then
    verdict: dict[str, Any] | None = None  # its fairness, once measured (service.fairness.Verdict)


def _map(row: Any) -> ServerMap:
    return ServerMap(
        row["id"],
        row["guild_id"],
        row["ruleset"],
        row["name"],
        json.loads(row["data"]),
        tuple(int(count) for count in row["seats"].split(",")),
        row["author_id"],
        row["created_at"],
        row["published_at"],
        json.loads(row["verdict"]) if row["verdict"] else None,
    )


def folded(name: str) -> str:
    """A map's name as its server's names are told apart: "Duel" and "duel" are one."""
    return name.casefold()


async def insert(conn: Connection, map_: ServerMap) -> int:
    async with conn.execute(
        """INSERT INTO server_maps (guild_id, ruleset, name, folded, data, seats, author_id, created_at, verdict)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id""",
        (
            map_.guild_id,
            map_.ruleset,
            map_.name,
            folded(map_.name),
            json.dumps(map_.data, ensure_ascii=False, separators=(",", ":")),
            ",".join(str(count) for count in map_.seats),
            map_.author_id,
            map_.created_at,
            json.dumps(map_.verdict) if map_.verdict is not None else None,
        ),
    ) as cursor:
        (made,) = await cursor.fetchone()
    return made


async def named(conn: Connection, guild_id: int, name: str) -> ServerMap | None:
    async with conn.execute(
        "SELECT * FROM server_maps WHERE guild_id = ? AND folded = ?", (guild_id, folded(name))
    ) as cursor:
        row = await cursor.fetchone()
    return _map(row) if row is not None else None


async def of_server(conn: Connection, guild_id: int, ruleset: str | None = None) -> list[ServerMap]:
    """The server's maps (of one ruleset, if given) by name."""
    where, params = (
        ("guild_id = ?", (guild_id,)) if ruleset is None else ("guild_id = ? AND ruleset = ?", (guild_id, ruleset))
    )
    async with conn.execute(f"SELECT * FROM server_maps WHERE {where} ORDER BY folded", params) as cursor:
        return [_map(row) for row in await cursor.fetchall()]


async def by_id(conn: Connection, map_id: int) -> ServerMap | None:
    async with conn.execute("SELECT * FROM server_maps WHERE id = ?", (map_id,)) as cursor:
        row = await cursor.fetchone()
    return _map(row) if row is not None else None


async def published(conn: Connection, ruleset: str | None, typed: str, limit: int) -> list[ServerMap]:
    """Maps any server published (of one ruleset, if given) whose name holds ``typed``, newest first."""
    where, params = ("", ()) if ruleset is None else (" AND ruleset = ?", (ruleset,))
    pattern = "%" + typed.casefold().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    async with conn.execute(
        f"""SELECT * FROM server_maps WHERE published_at IS NOT NULL{where} AND folded LIKE ? ESCAPE '\\'
            ORDER BY published_at DESC, id DESC LIMIT ?""",
        (*params, pattern, limit),
    ) as cursor:
        return [_map(row) for row in await cursor.fetchall()]


async def set_published(conn: Connection, map_id: int, at: float | None) -> None:
    await conn.execute("UPDATE server_maps SET published_at = ? WHERE id = ?", (at, map_id))


async def unmeasured(conn: Connection, rulesets: Sequence[str], limit: int) -> list[ServerMap]:
    """The oldest maps of these rulesets whose fairness is not measured yet, oldest first."""
    marks = ",".join("?" * len(rulesets))
    async with conn.execute(
        f"SELECT * FROM server_maps WHERE verdict IS NULL AND ruleset IN ({marks}) ORDER BY id LIMIT ?",
        (*rulesets, limit),
    ) as cursor:
        return [_map(row) for row in await cursor.fetchall()]


async def set_verdict(conn: Connection, map_id: int, verdict: dict[str, Any]) -> None:
    """The map's verdict, if it still has none (nor was deleted meanwhile)."""
    await conn.execute(
        "UPDATE server_maps SET verdict = ? WHERE id = ? AND verdict IS NULL", (json.dumps(verdict), map_id)
    )


async def names(conn: Connection, guild_id: int, ruleset: str | None = None) -> list[str]:
    """The names of the server's maps (of one ruleset, if given), for a menu: no data read."""
    where, params = (
        ("guild_id = ?", (guild_id,)) if ruleset is None else ("guild_id = ? AND ruleset = ?", (guild_id, ruleset))
    )
    async with conn.execute(f"SELECT name FROM server_maps WHERE {where} ORDER BY folded", params) as cursor:
        return [row[0] for row in await cursor.fetchall()]


async def count(conn: Connection, guild_id: int) -> int:
    async with conn.execute("SELECT COUNT(*) FROM server_maps WHERE guild_id = ?", (guild_id,)) as cursor:
        (found,) = await cursor.fetchone()
    return found


async def delete(conn: Connection, map_id: int) -> None:
    await conn.execute("DELETE FROM server_maps WHERE id = ?", (map_id,))
