"""The bot's configuration, read from the environment (see the README's table)."""

from __future__ import annotations

import os
import pathlib
from collections.abc import Mapping
from dataclasses import dataclass

from service.storage.store import SQLITE_SCHEME, Location, is_postgresql, redacted, sqlite_path

# Discord recommends about one shard per 1,000 servers (and requires one per 2,500): 16,384 shards serve some
# 16 million servers. A larger SHARD_COUNT is a typo, and discord.py would try to open that many sessions.
MAX_SHARDS = 16384


class ConfigError(Exception):
    """The environment does not describe a bot we can run."""


@dataclass(frozen=True)
class Config:
    token: str
    database: pathlib.Path  # the SQLite file, unless ``database_url`` names a PostgreSQL server
    database_url: str | None = None
    dev_guild: int | None = None
    api_base: str | None = None
    log_level: str = "INFO"
    shard_count: int | None = None  # None: as many as Discord recommends, all in this process
    shard_ids: tuple[int, ...] | None = None  # None: every shard of ``shard_count``
    sweep_seconds: float = 30.0  # how often overdue deadlines are looked for (and a dead process's taken over)
    workers: int | None = None  # processes drawing boards and running computer players; None: one per core
    login_seconds: float = 20.0  # for Discord's answers at start-up, before the bot gives up and says so
    health_port: int | None = None  # /healthz and /metrics for operators; None: not served
    health_host: str = "127.0.0.1"
    public_url: str | None = None  # where the web site (bot.py web) is reached: posts link to it

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Config:
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise ConfigError(
                "DISCORD_TOKEN is not set: create a bot in the Discord developer portal, copy its "
                "token, and run DISCORD_TOKEN=... make run. (`python bot.py demo` needs no token.)"
            )
        guild = env.get("DEV_GUILD_ID", "").strip()
        if guild and not (guild.isascii() and guild.isdigit()):  # isdigit alone takes digits of other scripts
            raise ConfigError(f"DEV_GUILD_ID must be a server id (digits), not {guild!r}")
        level = _log_level(env)
        api_base = env.get("DISCORD_API_BASE", "").strip().rstrip("/") or None
        if api_base and not api_base.startswith(("http://", "https://")):
            raise ConfigError(f"DISCORD_API_BASE must be an http(s) URL, not {api_base!r}")
        database, database_url = _database(env)
        shard_count, shard_ids = _shards(env)
        sweep_seconds = _whole_number(env, "SWEEP_SECONDS", 1, 3600)
        workers = _whole_number(env, "WORKERS", 1, 256)
        health_port = _whole_number(env, "HEALTH_PORT", 1, 65535)
        return cls(
            token=token,
            database=database,
            database_url=database_url,
            dev_guild=int(guild) if guild else None,
            api_base=api_base,
            log_level=level,
            shard_count=shard_count,
            shard_ids=shard_ids,
            sweep_seconds=30.0 if sweep_seconds is None else float(sweep_seconds),
            workers=workers,
            health_port=health_port,
            health_host=env.get("HEALTH_HOST", "").strip() or "127.0.0.1",
            public_url=_public_url(env),
        )

    @property
    def store(self) -> Location:
        """Where the games are kept: the PostgreSQL URL, or the SQLite file."""
        return self.database_url or self.database


@dataclass(frozen=True)
class WebConfig:
    """The web site's process (``bot.py web``): the bots' database, where it listens, where it is reached."""

    database: pathlib.Path
    database_url: str | None = None
    host: str = "127.0.0.1"
    port: int = 8080
    public_url: str | None = None
    workers: int | None = None  # processes drawing boards; None: one per core
    log_level: str = "INFO"

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> WebConfig:
        database, database_url = _database(env)
        port = _whole_number(env, "WEB_PORT", 1, 65535)
        return cls(
            database=database,
            database_url=database_url,
            host=env.get("WEB_HOST", "").strip() or "127.0.0.1",
            port=8080 if port is None else port,
            public_url=_public_url(env),
            workers=_whole_number(env, "WORKERS", 1, 256),
            log_level=_log_level(env),
        )

    @property
    def store(self) -> Location:
        return self.database_url or self.database


def _public_url(env: Mapping[str, str]) -> str | None:
    """PUBLIC_URL: the site's address as visitors reach it (``https://games.example.org``): the root of a
    host name, since its pages link to each other from there."""
    url = env.get("PUBLIC_URL", "").strip().rstrip("/")
    parts = url.split("/")
    if url and not (url.startswith(("http://", "https://")) and len(parts) == 3 and parts[2]):
        raise ConfigError(
            f"PUBLIC_URL must be an http(s) address with no path, such as https://games.example.org, not {url!r}"
        )
    return url or None


def _log_level(env: Mapping[str, str]) -> str:
    level = env.get("LOG_LEVEL", "INFO").strip().upper()
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
    return level


def _database(env: Mapping[str, str]) -> tuple[pathlib.Path, str | None]:
    """DATABASE_URL (``postgresql://…`` or ``sqlite:///…``), else DATABASE_PATH, else the default file."""
    url = env.get("DATABASE_URL", "").strip()
    path = env.get("DATABASE_PATH", "").strip()
    if url and path:
        raise ConfigError("set DATABASE_URL or DATABASE_PATH, not both (DATABASE_URL=sqlite:///FILE names a file too)")
    if not url:
        return pathlib.Path(path or "data/games.sqlite3"), None
    if is_postgresql(url):
        return pathlib.Path("data/games.sqlite3"), url
    if url.startswith(SQLITE_SCHEME) and len(url) > len(SQLITE_SCHEME):
        return sqlite_path(url), None
    raise ConfigError(
        f"DATABASE_URL must be postgresql://USER:PASSWORD@HOST/DATABASE or sqlite:///FILE, not {redacted(url)!r}"
    )


def _whole_number(env: Mapping[str, str], name: str, low: int, high: int) -> int | None:
    """An optional whole number within bounds; None when unset."""
    text = env.get(name, "").strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise ConfigError(f"{name} must be a whole number from {low} to {high}, not {text!r}")
    return int(text)


def _shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT (how many shards the whole bot runs) and SHARD_IDS (which of them this process holds:
    ``0,2`` or ``0-3``)."""
    count_text = env.get("SHARD_COUNT", "").strip()
    ids_text = env.get("SHARD_IDS", "").strip()
    if not count_text:
        if ids_text:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT too: how many shards all the bot's processes run together")
        return None, None
    if not (count_text.isascii() and count_text.isdigit()) or not 1 <= int(count_text) <= MAX_SHARDS:
        raise ConfigError(f"SHARD_COUNT must be a whole number of shards from 1 to {MAX_SHARDS}, not {count_text!r}")
    count = int(count_text)
    if not ids_text:
        return count, None
    ids: list[int] = []
    for part in ids_text.split(","):
        ids.extend(_shard_range(part.strip(), ids_text, count))
    if len(set(ids)) != len(ids):
        raise ConfigError(f"SHARD_IDS names a shard twice: {ids_text!r}")
    return count, tuple(ids)


def _shard_range(part: str, whole: str, count: int) -> range:
    """One entry of SHARD_IDS: a shard (``3``) or an inclusive range (``0-3``), checked before it is
    spelled out (``0-99999999999999999999`` would fill the memory)."""
    first, dash, last = part.partition("-")
    bounds = [first, last] if dash else [first]
    if not all(b.strip().isascii() and b.strip().isdigit() for b in bounds):
        raise ConfigError(f"SHARD_IDS must list shard numbers like 0,1 or 0-3, not {whole!r}")
    low, high = int(first), int(last if dash else first)
    if high < low:
        raise ConfigError(f"SHARD_IDS has a backwards range {part!r}: write {high}-{low}")
    if high >= count:
        raise ConfigError(f"SHARD_IDS names shard {high}, but SHARD_COUNT={count} numbers them 0 to {count - 1}")
    return range(low, high + 1)
