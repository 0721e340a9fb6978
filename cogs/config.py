"""The bot's configuration, read from the environment (see the README's table)."""

from __future__ import annotations

import os
import pathlib
from collections.abc import Mapping
from dataclasses import dataclass


class ConfigError(Exception):
    """The environment does not describe a bot we can run."""


@dataclass(frozen=True)
class Config:
    token: str
    database: pathlib.Path
    dev_guild: int | None = None
    api_base: str | None = None
    log_level: str = "INFO"

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
        level = env.get("LOG_LEVEL", "INFO").strip().upper()
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
            raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
        api_base = env.get("DISCORD_API_BASE", "").strip().rstrip("/") or None
        if api_base and not api_base.startswith(("http://", "https://")):
            raise ConfigError(f"DISCORD_API_BASE must be an http(s) URL, not {api_base!r}")
        return cls(
            token=token,
            database=pathlib.Path(env.get("DATABASE_PATH", "data/games.sqlite3")),
            dev_guild=int(guild) if guild else None,
            api_base=api_base,
            log_level=level,
        )
