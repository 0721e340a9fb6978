"""Ratings as players see them: a finished game moves the leaderboard and the player's stats (with a
chart), an unrated game says so and moves nothing."""

from __future__ import annotations

from tests.e2e.conftest import button, decode_png
from tests.e2e.test_standing import CONQUEST


async def surrendered_by(table, thread, user) -> None:
    asked = await table.fake.slash(user, thread, "game surrender")
    confirmed = await table.fake.click(user, asked.message, button(asked.message, "Surrender"))
    await confirmed.wait_for(lambda h: h.response_type is not None)
    await table.post(lambda m: "is over" in m.content)


async def test_a_finished_game_moves_the_leaderboard_and_the_stats(table):
    fake = table.fake
    empty = await fake.slash(table.alice, table.channel, "leaderboard", ruleset="conquest")
    assert empty.ephemeral and "No rated games finished yet" in empty.content

    thread = await table.start_game(**CONQUEST)
    await surrendered_by(table, thread, table.bob)

    board = await fake.slash(table.bob, table.channel, "leaderboard", ruleset="conquest")
    lines = board.content.split("\n")
    assert lines[0] == "**Conquest leaderboard — this server**"
    assert lines[1].startswith(f"1. <@{table.alice.id}> — rating") and "1 game · 1 win" in lines[1]
    assert lines[2].startswith(f"2. <@{table.bob.id}> — rating") and "1 game · 0 wins" in lines[2]

    stats = await fake.slash(table.bob, table.channel, "stats", player=table.alice)
    assert stats.ephemeral and "Conquest: rating" in stats.content and "1 win" in stats.content
    chart = decode_png(stats.message.attachments[0].data)
    assert chart.size == (960, 640)
    described = stats.message.attachments[0].description.split("\n")  # its alt text: the line in words
    assert described[0] == "alice: rating by game" and described[1].startswith("Conquest: ")
    assert described[1].endswith("after 1 game") and len(described) == 2
    mine = await fake.slash(table.bob, table.channel, "stats")
    assert "0 wins" in mine.content


async def test_an_unrated_game_says_so_and_leaves_the_leaderboard_alone(table):
    fake = table.fake
    thread = await table.start_game(**CONQUEST, rated=False)
    info = await fake.slash(table.alice, thread, "game info")
    assert "unrated" in str(info.embeds)
    await surrendered_by(table, thread, table.bob)
    board = await fake.slash(table.alice, table.channel, "leaderboard", ruleset="conquest", scope="global")
    assert "No rated games finished yet" in board.content


async def test_a_server_sets_seasons_and_its_leaderboard_shows_the_season(table):
    """ "Leaderboards per season as well as all time (/leaderboard season:), a server's admins set the
    season length" """
    fake = table.fake
    none = await fake.slash(table.alice, table.channel, "leaderboard", ruleset="conquest", period="this season")
    assert none.ephemeral and "This server has no seasons" in none.content
    made = await fake.slash(table.mod, table.channel, "config season", days=30)
    assert made.ephemeral and "Season 1 runs until <t:" in made.content, made.content
    assert f"final table in <#{table.channel.id}>" in made.content

    thread = await table.start_game(**CONQUEST)
    await surrendered_by(table, thread, table.bob)
    board = await fake.slash(table.bob, table.channel, "leaderboard", ruleset="conquest", period="this season")
    lines = board.content.split("\n")
    assert lines[0] == "**Conquest leaderboard — this server, season 1**", lines
    assert lines[1].startswith(f"1. <@{table.alice.id}> — rating") and "1 game · 1 win" in lines[1]
    ended = await fake.slash(table.bob, table.channel, "leaderboard", ruleset="conquest", period="last season")
    assert "No season of this server has ended yet" in ended.content
    everywhere = await fake.slash(
        table.bob, table.channel, "leaderboard", ruleset="conquest", scope="global", period="this season"
    )
    assert "Seasons are a server's own" in everywhere.content

    await table.tick(30 * 86400)  # "the season's end posts its final table", once, where it was asked for
    final = await fake.wait_for_message(lambda m: "Season 1 is over" in m.content)
    assert final.channel_id == table.channel.id and not final.pinged, final.content
    lines = final.content.split("\n")
    assert lines[2] == "**Conquest**" and lines[3].startswith(f"1. <@{table.alice.id}> — rating"), lines
    await table.tick(3600)
    assert sum("Season 1 is over" in m.content for m in fake.channel_messages(table.channel)) == 1
    last = await fake.slash(table.bob, table.channel, "leaderboard", ruleset="conquest", period="last season")
    assert last.content.startswith("**Conquest leaderboard — this server, season 1**")
    now = await fake.slash(table.bob, table.channel, "leaderboard", ruleset="conquest", period="this season")
    assert "season 2**" in now.content and "No rated games finished yet" in now.content
