"""deadline_at through the bot: ``auto`` with players in three time zones picks the hour they are all
awake, says why on the card, and the round's deadline falls on it."""

from __future__ import annotations

import datetime as dt

from tests.e2e.conftest import button


async def test_auto_with_players_in_three_time_zones(table):
    fake = table.fake
    zones = [
        (table.alice, "America/New_York", {}),  # no quiet hours: asleep from 23:00 to 07:00
        (table.bob, "Europe/Kyiv", {"quiet_start": 22, "quiet_end": 8}),
        (table.carol, "Asia/Tokyo", {"quiet_start": 0, "quiet_end": 8}),
    ]
    for user, zone, quiet in zones:
        await fake.slash(user, fake.dm_channel(user), "settings", time_zone=zone, **quiet)
    lobby = await table.open_lobby("conquest", size="small", max_players=3, turn_time=6 * 3600, deadline_at="auto")
    assert "turns end at chosen when the game starts, for the most players awake" in str(lobby.embeds)
    for user in (table.bob, table.carol):
        await fake.click(user, lobby, button(lobby, "Join"))
    await fake.click(table.alice, lobby, button(lobby, "Start"))
    await table.post(lambda m: "has started" in m.content)
    card = await table.card_showing("turns end at 12:00 UTC: awake for 3 of 3 players")
    game = (await table.bot.service.master.lookup.list_games(table.guild.id))[0]
    deadline = dt.datetime.fromtimestamp(game.row.deadline_at, dt.UTC)
    assert (deadline.hour, deadline.minute) == (12, 0) and f"<t:{int(game.row.deadline_at)}:f>" in str(card.embeds)

    refused = await fake.slash(table.alice, table.channel, "game create conquest", deadline_at="8pm")
    assert refused.content.startswith("⚠️ deadline_at is a time of day and a time zone"), refused.content
