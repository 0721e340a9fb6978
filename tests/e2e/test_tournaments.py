""" "End to end through the fake Discord: a Swiss tournament … to its final standings" — created,
joined and started by slash commands; each round's games open by themselves with their lobby card and
thread, and the next round opens at the sweep after the last game of a round ends."""

from __future__ import annotations

from tests.e2e.conftest import button


async def surrender(table, thread, user) -> None:
    asked = await table.fake.slash(user, thread, "game surrender")
    confirmed = await table.fake.click(user, asked.message, button(asked.message, "Surrender"))
    await confirmed.wait_for(lambda h: h.response_type is not None)


async def round_games(table, number: int, tournament: int):
    tournaments = table.bot.service.master.tournaments
    return [t for t in await tournaments.tables(tournament) if t.round == number]


async def test_a_swiss_tournament_of_three_plays_two_rounds_to_its_standings(table):
    fake, channel = table.fake, table.channel
    users = {u.id: u for u in (table.alice, table.bob, table.carol)}
    made = await fake.slash(table.alice, channel, "tournament create", ruleset="siege", format="swiss", rounds=2)
    assert made.ephemeral and "Tournament #1 is open" in made.content, made.content
    told = await fake.wait_for_message(lambda m: "**Tournament #1**" in m.content)
    assert told.channel_id == channel.id and "/tournament join number:1" in told.content
    for user in (table.bob, table.carol):
        joined = await fake.slash(user, channel, "tournament join", number=1)
        assert "You are in tournament #1" in joined.content
    again = await fake.slash(table.bob, channel, "tournament join", number=1)
    assert "already in tournament #1" in again.content
    waiting = await fake.slash(table.carol, channel, "tournament standings", number=1)
    assert waiting.content.startswith("**Tournament #1** — Siege, swiss, open for sign-up"), waiting.content
    refused = await fake.slash(table.bob, channel, "tournament start", number=1)
    assert "only the tournament's creator" in refused.content
    started = await fake.slash(table.alice, channel, "tournament start", number=1)
    assert "round 1's games are open" in started.content, started.content

    for number in (1, 2):
        tables = await round_games(table, number, 1)
        assert sorted(len(t.seats) for t in tables) == [1, 2]  # a game and a bye
        [played] = [t for t in tables if len(t.seats) == 2]
        game = await table.bot.service.master.games.get_game(played.game_id)
        assert game.row.thread_id is not None and game.row.status == "running"
        thread = fake.channel(game.row.thread_id)
        await fake.wait_for_message(lambda m, t=thread: m.channel_id == t.id and "has started" in m.content)
        await surrender(table, thread, users[played.seats[1]])
        await table.tick(60)  # the sweep opens the next round, or ends the tournament

    late = await fake.slash(table.mod, channel, "tournament join", number=1)
    assert "has started" in late.content or "is over" in late.content
    standings = await fake.slash(table.carol, channel, "tournament standings", number=1)
    lines = standings.content.split("\n")
    assert lines[0].startswith("**Tournament #1** — Siege, round 2 of 2 (over)"), lines
    assert len(lines) == 4 and lines[1].startswith("1. ") and " — points " in lines[1] and "· Buchholz" in lines[1]
