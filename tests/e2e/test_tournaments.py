""" "End to end through the fake Discord: a Swiss tournament of 7 players over 3 rounds (a bye, a
withdrawal, a forfeit) to its final post; a pool tournament of a multiplayer game" — signed up on its
card's buttons and by command, each round's games opened by themselves with their lobby card and
thread, each round told in the channel with the standings image, the end with the final one."""

from __future__ import annotations

import io

from PIL import Image

from cogs.common import in_parts
from tests.e2e.conftest import button

HOUR = 3600


async def surrender(table, thread, user) -> None:
    asked = await table.fake.slash(user, thread, "game surrender")
    confirmed = await table.fake.click(user, asked.message, button(asked.message, "Surrender"))
    await confirmed.wait_for(lambda h: h.response_type is not None)


async def round_tables(table, number: int, tournament: int = 1):
    tournaments = table.bot.service.master.tournaments
    return [t for t in await tournaments.tables(tournament) if t.round == number]


async def game_thread(table, game_id: int):
    game = await table.bot.service.master.games.get_game(game_id)
    assert game.row.status == "running" and game.row.thread_id is not None
    assert game.row.tournament is not None  # marked as the tournament's
    return table.fake.channel(game.row.thread_id)


async def end_by_surrender(table, users, t) -> None:
    """All but the first seat surrender, last first."""
    thread = await game_thread(table, t.game_id)
    for loser in reversed(t.seats[1:]):
        await surrender(table, thread, users[loser])


def card_of(table):
    return next(m for m in table.fake.channel_messages(table.channel) if m.embeds and "Tournament #" in str(m.embeds))


def png_size(data: bytes) -> tuple[int, int]:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image.size


async def round_post(table, text: str):
    return await table.fake.wait_for_message(lambda m: m.channel_id == table.channel.id and text in m.content)


async def test_a_swiss_tournament_of_seven_plays_three_rounds_to_its_final_post(table):
    fake, channel = table.fake, table.channel
    more = [fake.add_user(name) for name in ("dan", "erin", "fay")]
    for user in more:
        fake.add_member(table.guild, user)
    players = [table.alice, table.bob, table.carol, table.mod, *more]
    users = {u.id: u for u in players}
    made = await fake.slash(
        table.alice, channel, "tournament create", ruleset="conquest", format="swiss", rounds=3, turn_hours=1
    )
    assert made.ephemeral and "Tournament #1 is open" in made.content, made.content
    card = card_of(table)
    assert f"Starts when <@{table.alice.id}> starts it" in card.embeds[0]["description"]
    for user in players[1:4]:  # on the card
        await fake.click(user, card, button(card, "Join"))
    for user in more:  # or by command
        joined = await fake.slash(user, channel, "tournament join", number=1)
        assert "You are in tournament #1" in joined.content
    again = await fake.click(table.bob, card, button(card, "Join"))
    assert again.ephemeral and "already in tournament #1" in again.content
    refused = await fake.click(table.bob, card, button(card, "Start"))
    await refused.wait_for(lambda h: "only the tournament's creator" in " ".join(m.content for m in h.messages))
    card = fake.message(card.id)
    assert card.embeds[0]["fields"][0]["name"] == "Players (7)", card.embeds
    await fake.click(table.alice, card, button(card, "Start"))
    await fake.wait_for_message(lambda m: m.id == card.id and not m.components and "Round 1 of 3" in m.text())

    opened = await round_post(table, "round 1 of 3 is open")
    assert opened.content.count("Table ") == 3 and "a bye" in opened.content and not opened.attachments
    assert not opened.pinged  # names, not pings: each game's thread calls its players
    first = await round_tables(table, 1)
    [bye_one] = [t.seats[0] for t in first if len(t.seats) == 1]
    footers = [m.embeds[0]["footer"]["text"] for m in fake.channel_messages(channel) if m.embeds and m.id != card.id]
    assert sum(f.endswith(" · Tournament #1, round 1") for f in footers) == 3, footers  # each game's card says so
    for t in first:
        if t.game_id is not None:
            assert f"<#{(await table.bot.service.master.games.get_game(t.game_id)).row.thread_id}>" in opened.content
            await end_by_surrender(table, users, t)
    await table.tick(60)  # the sweep opens round 2 and tells it

    second_post = await round_post(table, "round 2 of 3 is open")
    assert "The standings after round 1:" in second_post.content
    [image] = second_post.attachments
    assert png_size(image.data)[0] == 960 and "after round 1" in image.description
    second = await round_tables(table, 2)
    [bye_two] = [t.seats[0] for t in second if len(t.seats) == 1]
    assert bye_two != bye_one  # never twice to one player
    games = [t for t in second if t.game_id is not None]
    withdrawn = games[0].seats[1]
    left = await fake.slash(users[withdrawn], channel, "tournament leave", number=1)  # a withdrawal: his game lost
    assert "You have left tournament #1" in left.content
    over = await table.bot.service.master.games.get_game(games[0].game_id)
    assert over.row.status == "finished"
    await fake.wait_for_message(lambda m: m.channel_id == over.row.thread_id and "surrendered" in m.content)
    for t in games[1:]:
        await end_by_surrender(table, users, t)
    await table.tick(60)

    await round_post(table, "round 3 of 3 is open")
    third = await round_tables(table, 3)
    assert withdrawn not in {user for t in third for user in t.seats}
    assert sorted(len(t.seats) for t in third) == [2, 2, 2]  # six left: no bye
    no_show = third[0]  # a forfeit: its second player never plays; removed after three missed rounds
    present, absent = users[no_show.seats[0]], users[no_show.seats[1]]
    thread = await game_thread(table, no_show.game_id)
    for t in third[1:]:
        await end_by_surrender(table, users, t)
    for _ in range(3):
        await fake.slash(present, thread, "orders pass")
        await table.tick(HOUR)
    await fake.wait_for_message(lambda m: m.channel_id == thread.id and "missing turns in a row" in m.content)
    scored = next(t for t in await round_tables(table, 3) if t.game_id == no_show.game_id)
    assert scored.points == {present.id: 1.0, absent.id: 0.0}
    await table.tick(60)

    final = await round_post(table, "is over. Winner:")
    [image] = final.attachments
    assert png_size(image.data)[1] > 8 * 40 and "final standings" in image.description
    standings = await fake.slash(table.carol, channel, "tournament standings", number=1)
    lines = standings.content.split("\n")
    assert lines[0].startswith("**Tournament #1** — Conquest, round 3 of 3 (over)"), lines
    assert len(lines) == 8 and sum(" (withdrawn)" in line for line in lines) == 1
    winner = final.content.split("Winner: <@")[1].split(">")[0]
    assert f"{users[int(winner)].name}" in lines[1]
    await fake.wait_for_message(lambda m: m.id == card.id and "It is over" in m.text(with_revisions=False))
    posts = [m for m in fake.channel_messages(channel) if "**Tournament #1**" in m.content]
    assert len(posts) == 4  # three rounds and the end, once each
    stats = await fake.slash(users[int(winner)], channel, "stats")
    assert "Tournaments: 1 entered, 1 won" in stats.content, stats.content


async def test_a_pool_tournament_seats_a_multiplayer_game_and_starts_at_its_time(table):
    """Four players at one table of conquest, two rounds: it starts by itself at its start time."""
    fake, channel = table.fake, table.channel
    players = [table.alice, table.bob, table.carol, table.mod]
    users = {u.id: u for u in players}
    await fake.slash(
        table.alice, channel, "tournament create", ruleset="conquest", format="pools", rounds=2, starts_in_hours=2
    )
    card = card_of(table)
    assert "Starts <t:" in card.embeds[0]["description"]
    for user in players[1:]:
        await fake.click(user, card, button(card, "Join"))
    stranger = await fake.slash(table.bob, channel, "tournament cancel", number=1)
    assert "only the tournament's creator" in stranger.content
    await table.tick(HOUR)
    assert not (await round_tables(table, 1))  # not yet
    await table.tick(HOUR)
    await round_post(table, "round 1 of 2 is open")
    [first] = await round_tables(table, 1)
    assert len(first.seats) == 4
    await end_by_surrender(table, users, first)
    await table.tick(60)
    await round_post(table, "round 2 of 2 is open")
    [second] = await round_tables(table, 2)
    await end_by_surrender(table, users, second)
    await table.tick(60)
    final = await round_post(table, "is over. Winner:")
    assert "Buchholz" not in final.attachments[0].description  # pools: points alone
    standings = await fake.slash(table.carol, channel, "tournament standings", number=1)
    assert standings.content.count(" — points ") == 4 and "Buchholz" not in standings.content


def test_a_long_round_post_is_sent_in_parts_of_whole_lines():
    """A Swiss round of 64 players has 32 table lines: more than one message holds."""
    lines = [f"Table {n}: <@{10**18 + n}> vs <@{2 * 10**18 + n}> — game <#{3 * 10**18 + n}>" for n in range(32)]
    parts = in_parts("\n".join(lines))
    assert len(parts) > 1 and all(len(part) <= 2000 for part in parts)
    assert "\n".join(parts).split("\n") == lines  # every line, whole, in order
