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
