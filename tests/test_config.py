"""Configuration from the environment: clear refusals, sensible defaults."""

from __future__ import annotations

import pathlib
import re

import pytest

import bot
from bot import Config, ConfigError


def test_defaults():
    config = Config.from_env({"DISCORD_TOKEN": " abc "})
    assert config.token == "abc" and config.database == pathlib.Path("data/games.sqlite3")
    assert config.dev_guild is None and config.api_base is None and config.log_level == "INFO"


def test_everything_set():
    config = Config.from_env(
        {
            "DISCORD_TOKEN": "t",
            "DATABASE_PATH": "/tmp/x.db",
            "DEV_GUILD_ID": "123",
            "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10/",
            "LOG_LEVEL": "debug",
        }
    )
    assert config.dev_guild == 123 and config.api_base == "http://127.0.0.1:9/api/v10"
    assert config.log_level == "DEBUG" and config.database == pathlib.Path("/tmp/x.db")


@pytest.mark.parametrize(
    "env, message",
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "t", "DEV_GUILD_ID": "my server"}, "DEV_GUILD_ID must be a server id"),
        ({"DISCORD_TOKEN": "t", "DEV_GUILD_ID": "١٢٣"}, "DEV_GUILD_ID must be a server id"),
        ({"DISCORD_TOKEN": "t", "LOG_LEVEL": "loud"}, "LOG_LEVEL must be"),
        ({"DISCORD_TOKEN": "t", "DISCORD_API_BASE": "discord.example"}, "must be an http"),
    ],
)
def test_bad_configuration_is_refused(env, message):
    with pytest.raises(ConfigError, match=message):
        Config.from_env(env)


def test_bot_without_token_exits_with_a_clear_message(monkeypatch, capsys):
    """README: "A missing or rejected token stops the bot at once with a message saying what to fix
    (exit code 1)"."""
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert bot.main([]) == 1
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err


def test_database_url_chooses_the_store():
    postgres = Config.from_env({"DISCORD_TOKEN": "t", "DATABASE_URL": "postgresql://bot:secret@db.internal/games"})
    assert postgres.store == "postgresql://bot:secret@db.internal/games"
    relative = Config.from_env({"DISCORD_TOKEN": "t", "DATABASE_URL": "sqlite:///data/x.sqlite3"})
    assert relative.store == relative.database == pathlib.Path("data/x.sqlite3")
    absolute = Config.from_env({"DISCORD_TOKEN": "t", "DATABASE_URL": "sqlite:////srv/x.sqlite3"})
    assert absolute.store == pathlib.Path("/srv/x.sqlite3")
    assert Config.from_env({"DISCORD_TOKEN": "t"}).store == pathlib.Path("data/games.sqlite3")


@pytest.mark.parametrize(
    "env, message",
    [
        ({"DATABASE_URL": "mysql://bot:secret@db/games"}, r"DATABASE_URL must be .*'mysql://bot:\*\*\*@db/games'"),
        ({"DATABASE_URL": "sqlite:///"}, "DATABASE_URL must be"),
        ({"DATABASE_URL": "postgresql://db/games", "DATABASE_PATH": "x.db"}, "not both"),
    ],
)
def test_a_database_url_that_names_no_store_is_refused_without_its_password(env, message):
    with pytest.raises(ConfigError, match=message) as refusal:
        Config.from_env({"DISCORD_TOKEN": "t", **env})
    assert "secret" not in str(refusal.value)


def test_shards():
    unset = Config.from_env({"DISCORD_TOKEN": "t"})
    assert unset.shard_count is None and unset.shard_ids is None  # as many as Discord recommends, all here
    every = Config.from_env({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4"})
    assert every.shard_count == 4 and every.shard_ids is None
    some = Config.from_env({"DISCORD_TOKEN": "t", "SHARD_COUNT": "8", "SHARD_IDS": " 0, 5-7 "})
    assert some.shard_count == 8 and some.shard_ids == (0, 5, 6, 7)


@pytest.mark.parametrize(
    "env, message",
    [
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number of shards from 1 to 16384, not '0'"),
        ({"SHARD_COUNT": "16385"}, "SHARD_COUNT must be a whole number of shards from 1 to 16384, not '16385'"),
        ({"SHARD_COUNT": "99999999999999999999"}, "SHARD_COUNT must be a whole number of shards from 1 to 16384"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_COUNT": "-2"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "names shard 2, but SHARD_COUNT=2 numbers them 0 to 1"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-99999999999999999999"}, "names shard 99999999999999999999, but"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-2,2"}, "names a shard twice"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, "backwards range '3-1': write 1-3"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "first"}, "must list shard numbers like 0,1 or 0-3"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0,,1"}, "must list shard numbers"),
    ],
)
def test_bad_shards_are_refused(env, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        Config.from_env({"DISCORD_TOKEN": "t", **env})


def test_an_absurd_shard_count_stops_the_bot_at_once(monkeypatch, capsys):
    """Not a bot that grows for hours trying to open that many sessions."""
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("SHARD_COUNT", "99999999999999999999")
    assert bot.main([]) == 1
    assert "SHARD_COUNT must be a whole number of shards from 1 to 16384" in capsys.readouterr().err


def test_sweep_period_and_worker_count():
    config = Config.from_env({"DISCORD_TOKEN": "t", "SWEEP_SECONDS": "5", "WORKERS": "3"})
    assert config.sweep_seconds == 5.0 and config.workers == 3
    default = Config.from_env({"DISCORD_TOKEN": "t"})
    assert default.sweep_seconds == 30.0 and default.workers is None and default.health_port is None
    served = Config.from_env({"DISCORD_TOKEN": "t", "HEALTH_PORT": "9100", "HEALTH_HOST": "10.0.0.5"})
    assert (served.health_host, served.health_port) == ("10.0.0.5", 9100)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("SWEEP_SECONDS", "0"),
        ("SWEEP_SECONDS", "1.5"),
        ("WORKERS", "-1"),
        ("WORKERS", "many"),
        ("HEALTH_PORT", "70000"),
    ],
)
def test_a_sweep_period_or_worker_count_out_of_bounds_is_refused(name, value):
    with pytest.raises(ConfigError, match=f"{name} must be a whole number from .* not '{re.escape(value)}'"):
        Config.from_env({"DISCORD_TOKEN": "t", name: value})
