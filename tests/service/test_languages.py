"""A server's language: chosen by a manager only, by our code or a Discord locale, kept across a
restart; a bad choice is refused and changes nothing; a reply follows the asker's own language
when the bot speaks it."""

from __future__ import annotations

import pytest

from service.errors import GameError, NotAllowed
from service.ops.languages import ServerLanguages
from tests.service.conftest import ADMIN, ALICE, GUILD


async def test_a_manager_chooses_and_it_outlives_a_restart(env):
    languages = ServerLanguages(env.db, env.clock)
    assert await languages.of(GUILD) == "en"
    assert await languages.set(GUILD, "zh-CN", ADMIN) == "zh_Hans"
    await env.restart()
    again = ServerLanguages(env.db, env.clock)
    assert await again.of(GUILD) == "zh_Hans" and await again.of(GUILD + 1) == "en"
    loaded = ServerLanguages(env.db, env.clock)
    await loaded.load()  # as the bot does at start-up: afterwards no question waits on the store
    await env.db.close()
    assert await loaded.of(GUILD) == "zh_Hans" and await loaded.of(GUILD + 1) == "en"
    await env.restart()
    assert await again.for_reply(GUILD, "uk") == "uk"
    assert await again.for_reply(GUILD, "de") == "zh_Hans"
    assert await again.for_reply(GUILD, "en-GB") == "en"


async def test_bad_choices_are_refused_and_change_nothing(env):
    languages = ServerLanguages(env.db, env.clock)
    await languages.set(GUILD, "uk", ADMIN)
    with pytest.raises(NotAllowed, match="server managers"):
        await languages.set(GUILD, "en", ALICE)
    with pytest.raises(GameError, match=r"unknown language 'klingon'; available: en \(English\), uk"):
        await languages.set(GUILD, "klingon", ADMIN)
    with pytest.raises(GameError, match="direct messages"):
        await languages.set(None, "uk", ADMIN)
    assert await ServerLanguages(env.db, env.clock).of(GUILD) == "uk"
