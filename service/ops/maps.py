"""A server's own maps (/map): an uploaded file checked as its ruleset checks map data at /game
create, kept under a name unique in the server, and offered at /game create beside the shipped maps
(a game takes a copy of the data: deleting the map later leaves its games as they are)."""

from __future__ import annotations

import asyncio
import json
import logging
import re
from dataclasses import replace
from pathlib import PurePath
from typing import Any

from engine import EngineError, Ruleset
from engine.errors import MapError
from engine.i18n import GENERATED
from i18n import joined, ntr, tr
from service import fairness
from service.errors import GameError, NotAllowed
from service.models import Actor
from service.ops.games import Games, ruleset_named
from service.ops.lobby import playable_options, seat_counts, shipped_maps
from service.runtime.claims import FAIRNESS
from service.storage import maps as rows
from service.storage.maps import ServerMap

log = logging.getLogger(__name__)

MAX_BYTES = 64 * 1024  # a map file: the largest any ruleset accepts is a few kilobytes of JSON
MAX_MAPS = 50  # kept by one server
CLAIMED_AT_MOST = 20  # unmeasured maps a process looks at for one no other process measures
FOUND_AT_MOST = 25  # published maps a search lists (a menu's choices)
LISTED = 15  # problems a refusal lists at most, each cut to PROBLEM_CHARS, all within REFUSAL_CHARS
PROBLEM_CHARS, REFUSAL_CHARS = 200, 1800  # a Discord message holds 2000 (the refusal's mark comes first)
STAND_IN = "map"  # the name the engine checks a map under when the name given was refused
NAME = re.compile(r"^[^\W_](?:[^\W_]|[ '.\-]){0,39}$")  # shown in posts and menus: words, no markdown


class ServerMaps:
    def __init__(self, games: Games):
        self.games = games
        self.db, self.clock, self.rulesets = games.db, games.clock, games.rulesets
        self.verdict_games = fairness.GAMES  # self-play games a verdict plays

    async def upload(
        self,
        guild_id: int,
        actor: Actor,
        ruleset: str,
        content: bytes,
        name: str | None,
        verdict: dict[str, Any] | None = None,
        file_name: str = "",
    ) -> ServerMap:
        """The map in ``content`` (a JSON file in ``ruleset``'s map format, or its text grid) kept for the
        server under ``name`` (default: the name the file gives, else the file's own), with ``verdict`` if
        its fairness is known (a copy's); refused with every reason if it is not a map the ruleset can
        play, or its name is taken."""
        rs = ruleset_named(self.rulesets, ruleset)
        named, data, seats = await asyncio.to_thread(checked, rs, content, name, file_name)  # large maps take a while
        made = ServerMap(0, guild_id, ruleset, named, data, seats, actor.user_id, self.clock.now(), verdict=verdict)
        async with self.db.transaction() as conn:
            if (taken := await rows.named(conn, guild_id, named)) is not None:
                raise GameError(
                    tr(
                        "This server already has a map named {name}; delete it first or choose another name.",
                        name=taken.name,
                    )
                )
            if await rows.count(conn, guild_id) >= MAX_MAPS:
                raise GameError(tr("This server keeps {most} maps, the most it may; delete one first.", most=MAX_MAPS))
            return replace(made, id=await rows.insert(conn, made))

    async def of_server(self, guild_id: int, ruleset: str | None = None) -> list[ServerMap]:
        async with self.db.reading() as conn:
            return await rows.of_server(conn, guild_id, ruleset)

    async def named(self, guild_id: int, name: str) -> ServerMap:
        async with self.db.reading() as conn:
            found = await rows.named(conn, guild_id, name)
        if found is None:
            raise GameError(tr("This server has no map named {name}; /map list shows its maps.", name=name[:60]))
        return found

    async def delete(self, guild_id: int, name: str, actor: Actor) -> ServerMap:
        """The map gone, by its author or a server manager; the games that use it keep their copy."""
        found = await self._own(guild_id, name, actor, tr("Only the map's author or a server manager can delete it."))
        async with self.db.transaction() as conn:
            await rows.delete(conn, found.id)
        return found

    async def publish(self, guild_id: int, name: str, actor: Actor, shared: bool) -> ServerMap:
        """The map found and copied by every server from now on (``shared``), or no longer."""
        found = await self._own(guild_id, name, actor, tr("Only the map's author or a server manager can publish it."))
        at = (found.published_at or self.clock.now()) if shared else None
        async with self.db.transaction() as conn:
            await rows.set_published(conn, found.id, at)
        return replace(found, published_at=at)

    async def published(self, ruleset: str | None = None, typed: str = "") -> list[ServerMap]:
        """What every server published (of one ruleset, if given; named with ``typed``), newest first."""
        async with self.db.reading() as conn:
            return await rows.published(conn, ruleset, typed, FOUND_AT_MOST)

    async def published_map(self, map_id: int) -> ServerMap | None:
        """Published map ``map_id``, if there is one."""
        async with self.db.reading() as conn:
            found = await rows.by_id(conn, map_id)
        return found if found is not None and found.published_at is not None else None

    async def names(self, guild_id: int, ruleset: str | None = None) -> list[str]:
        """The names of the server's maps, for a menu."""
        async with self.db.reading() as conn:
            return await rows.names(conn, guild_id, ruleset)

    async def copy(self, guild_id: int, map_id: int, actor: Actor, name: str | None) -> ServerMap:
        """A published map copied into this server (under ``name``, else its own), checked again as an
        upload is: the copy is the server's, whatever becomes of the one it came from."""
        found = await self.published_map(map_id)
        if found is None:
            raise GameError(tr("There is no published map #{number}; /map find lists them.", number=map_id))
        content = json.dumps(found.data, ensure_ascii=False).encode()
        # the same map: its fairness, if measured, comes with it
        return await self.upload(guild_id, actor, found.ruleset, content, name or found.name, found.verdict)

    async def measure_next(self) -> ServerMap | None:
        """The fairness of the oldest map not measured yet, measured and kept (None: every map is, or
        other bot processes on the database hold the rest: ``FAIRNESS`` leases, so each map is measured
        by one); the map as it is when another process took it over meanwhile."""
        async with self.db.reading() as conn:
            waiting = await rows.unmeasured(conn, sorted(self.rulesets), CLAIMED_AT_MOST)
        for found in waiting:
            async with self.games.claims.holding(FAIRNESS, found.id) as held:
                if not held:
                    continue
                async with self.db.reading() as conn:  # measured (or deleted) by another since the list was read?
                    still = await rows.by_id(conn, found.id)
                if still is None or still.verdict is not None:
                    return still or found
                return await self._measure(found)
        return None

    async def _measure(self, found: ServerMap) -> ServerMap:
        """Each self-play game a long job of the pool, in a process of its own below the bots' work. A
        map that cannot be measured (its games fail) gets a verdict saying so, not another try forever."""
        rs = self.rulesets[found.ruleset]
        players = min(found.seats)
        winners: list[int | None] = []
        verdict: fairness.Verdict | None = None
        for seed in range(self.verdict_games):
            if not await self.games.claims.keep(FAIRNESS, found.id):  # a database error here is no map's fault
                return found  # another process measures it now
            try:
                options = await asyncio.to_thread(playable_options, rs, found.data)
                winners.append(
                    await self.games.pool.run_long(fairness.self_play, rs, options, players, seed, fairness.LEVEL)
                )
            except Exception:  # noqa: BLE001 - one map's failure never stops the others being measured
                log.exception("the fairness of map #%s (%s) cannot be measured", found.id, found.name)
                verdict = fairness.Verdict((0,) * players, 0, 0, fairness.LEVEL, failed=True)
                break
        verdict = verdict or fairness.tally(winners, players)
        async with self.db.transaction() as conn:
            await rows.set_verdict(conn, found.id, verdict.to_dict())
        return replace(found, verdict=verdict.to_dict())

    async def _own(self, guild_id: int, name: str, actor: Actor, refusal: str) -> ServerMap:
        """The server's map ``name``, if ``actor`` is its author or a manager (else ``refusal``)."""
        found = await self.named(guild_id, name)
        if found.author_id != actor.user_id and not actor.is_admin:
            raise NotAllowed(refusal)
        return found


def checked(
    rs: Ruleset, content: bytes, name: str | None, file_name: str = ""
) -> tuple[str, dict[str, Any], tuple[int, ...]]:
    """The name, data and player counts of the map file ``content`` for ``rs`` (named ``name``, else as
    the file names it, else as the file is named), or a GameError listing every reason it is none:
    nothing else, whatever it holds. A game on a grid takes its map drawn as text too."""
    text = _text(content)
    if rs.map_grid is not None and not text.lstrip().startswith(("{", "[")):
        try:
            data = rs.map_grid.read(text)
        except MapError as err:
            named = _name(name, {}, file_name)
            raise GameError(_listing([*_name_problems(rs, named), *err.problems])) from None
    else:
        data = _json(text)
    name = _name(name, data, file_name)
    problems = _name_problems(rs, name)
    unknown = sorted(set(data) - set(rs.map_example or {}))
    if unknown:  # kept and copied into every game: only what the map format reads
        problems.append(
            tr(
                "{entries} is no entry of a {game} map (its entries: {known})",
                entries=joined(repr(entry)[:40] for entry in unknown[:5]),
                game=tr(rs.title),
                known=joined(sorted(rs.map_example or {})),
            )
        )
    data = {**data, "name": name}
    try:  # a name refused above is not the engine's to refuse again
        options = playable_options(rs, {**data, "name": STAND_IN} if problems else data)
    except MapError as err:
        problems.extend(err.problems)
    except EngineError as err:
        problems.append(str(err))
    if problems:
        raise GameError(_listing(problems))
    refusals: list[str] = []
    seats = tuple(seat_counts(rs, options, refusals))
    if not seats:
        raise GameError(tr("This map cannot be set up for any number of players: {reason}", reason=refusals[0]))
    try:  # kept as UTF-8 JSON: a text the checks let through that UTF-8 cannot hold is refused here
        json.dumps(data, ensure_ascii=False).encode()
    except (UnicodeEncodeError, RecursionError):
        raise GameError(tr("The file is not a map: it holds text that is not valid Unicode.")) from None
    return name, data, seats


def _name(given: str | None, data: dict[str, Any], file_name: str) -> str:
    """A map's name: the one given, else the one its data gives, else its file's."""
    own = PurePath(file_name).stem.replace("_", " ")  # Discord gives a file's spaces back as underscores
    return (given if given is not None else str(data.get("name") or own)).strip()


def _name_problems(rs: Ruleset, name: str) -> list[str]:
    """Why ``name`` cannot name a map of this server (none when it can)."""
    if not NAME.match(name):
        return [
            tr(
                "a map's name is 1 to 40 letters, digits, spaces and - ' . (give one with name:), not {name!r}",
                name=name[:60],
            )
        ]
    if rows.folded(name).startswith(GENERATED) or rows.folded(name) in {rows.folded(m) for m in shipped_maps(rs)}:
        return [tr("{name} is the name of a shipped map; choose another name", name=name)]
    return []


def _listing(problems: list[str]) -> str:
    """Every reason a map cannot be played, one a line: as many as one message holds, the rest counted."""
    lines = [tr("This map cannot be played:")]
    for problem in problems[:LISTED]:
        line = f"- {problem[:PROBLEM_CHARS]}"
        if sum(len(kept) + 1 for kept in lines) + len(line) > REFUSAL_CHARS - 40:  # room for the count
            break
        lines.append(line)
    if len(problems) > len(lines) - 1:
        lines.append(ntr("… and {n} more problem", "… and {n} more problems", len(problems) - len(lines) + 1))
    return "\n".join(lines)


def refuse_large(size: int) -> None:
    """A file too large to be a map is refused before it is read."""
    if size > MAX_BYTES:
        raise GameError(
            tr("The file has {size} KB; a map file has at most {most} KB.", size=size // 1024, most=MAX_BYTES // 1024)
        )


def _text(content: bytes) -> str:
    """The text of a map file, or the reason it holds none."""
    refuse_large(len(content))
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise GameError(tr("The file is not UTF-8 text; a map file is text: JSON, or a drawn grid.")) from None


def _json(text: str) -> dict[str, Any]:
    """The JSON object a map file holds, or the reason it holds none."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise GameError(
            tr(
                "The file is not JSON: line {line}, column {column}: {reason}",
                line=err.lineno,
                column=err.colno,
                reason=err.msg,
            )
        ) from None
    except RecursionError:
        raise GameError(tr("The file is not a map: it nests too deep.")) from None
    except ValueError:  # a number of thousands of digits
        raise GameError(tr("The file is not a map: it holds a number too long to read.")) from None
    if not isinstance(data, dict):
        raise GameError(tr("The file is not a map: a map is a JSON object (see /rules for each game's format)."))
    return data
