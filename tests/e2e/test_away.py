"""/away through the bot: a player away for three turns misses none (a computer plays them, secretly,
marked in history), comes back by giving an order; in a game of turns the stand-in plays when the turn
comes and `/away until:off` ends it; impossible requests are refused with a reason."""

from __future__ import annotations

from service.models import Actor
from tests.e2e.test_standing import CONQUEST, first_move, lobby_card


async def test_three_rounds_away_then_back_by_an_order_of_his_own(table):
    fake = table.fake
    thread = await table.start_game(**CONQUEST)
    master = table.bot.service.master
    game = (await master.lookup.list_games(table.guild.id))[0]

    away = await fake.slash(table.alice, fake.dm_channel(table.alice), "away", until="3d", level="Easy")
    assert away.ephemeral and away.content.startswith("🏖️ You are away until <t:"), away.content
    assert f"Conquest #{game.id} — 🏖️ away until <t:" in away.content and "played by Computer (Easy)" in away.content
    assert "This turn the computer played at once." in away.content
    await table.card_showing("away until <t:", "played by Computer (Easy)")

    for number in (1, 2, 3):  # Bob passes; the stand-in has played already
        given = await master.play.my_orders(game.id, Actor(table.alice.id))
        assert given.stand_in == "Easy" and given.passed
        await fake.slash(table.bob, thread, "orders pass")
        posted = await table.post(lambda m, n=number: m.content.startswith(f"**Round {n}."))
        assert given.lines and all(line not in posted.content for line in given.lines)  # secret until played
        assert f"<@{table.alice.id}>" not in posted.content  # not called to play while away

    history = await fake.slash(table.bob, thread, "game history", turn=2)
    assert "alice's orders were given by Computer (Easy)." in history.content, history.content
    orders = await fake.slash(table.bob, thread, "game orders", turn=3)
    assert "alice (Computer (Easy) played): `" in orders.content, orders.content
    assert "missed 1 of" not in lobby_card(table)  # nobody missed a round

    order = await first_move(table, table.alice)
    back = await fake.slash(table.alice, thread, "orders give", text=order)
    assert back.content.startswith(f"👋 Welcome back: you are no longer away in game #{game.id}"), back.content
    assert f"`{order}`" in back.content and "Not passed yet" in back.content
    await fake.wait_for_message(
        lambda m: m.embeds and "away until" not in str(m.embeds) and m.channel_id == table.channel.id
    )


async def test_in_a_game_of_turns_the_stand_in_plays_when_the_turn_comes_until_off(table):
    fake = table.fake
    thread = await table.start_game("siege")
    master = table.bot.service.master
    game = (await master.lookup.list_games(table.guild.id))[0]
    first, second = sorted((table.alice, table.bob), key=lambda u: game.player_of(u.id).seat)

    away = await fake.slash(second, thread, "away", until="12h", game=game.id, level="Easy")
    assert "This turn" not in away.content  # not his turn: nothing to play yet
    for turn in (1, 3, 5):  # three turns each: the stand-in plays every one of his when it comes
        offered = await fake.autocomplete(first, thread, "orders send", focused="text", value="")
        await fake.slash(first, thread, "orders send", text=offered[0]["value"])
        await table.post(lambda m, n=turn: m.content.startswith(f"**Turn {n}.**"))
        await table.tick(1)  # the stand-in's turn resolves at its wake-up
        await table.post(lambda m, n=turn + 1: m.content.startswith(f"**Turn {n}.**"))
    history = await fake.slash(first, thread, "game orders", turn=6)
    assert "(Computer (Easy) played): `" in history.content, history.content
    assert (await master.games.get_game(game.id)).player_of(second.id).missed == 0
    refused = await fake.slash(second, thread, "orders send", text="end")
    assert "you are away and a computer plays for you" in refused.content

    back = await fake.slash(second, thread, "away", until="off")
    assert back.content.startswith("👋 You are back: you give your own orders again in Siege #"), back.content
    assert (await master.games.get_game(game.id)).player_of(second.id).away_until is None


async def test_impossible_requests_are_refused_with_a_reason(table):
    fake = table.fake
    thread = await table.start_game(**CONQUEST, away_days=1)
    game = (await table.bot.service.master.lookup.list_games(table.guild.id))[0]
    refusals = [
        (table.alice, {"until": "yesterday"}, "say how long you will be away (3d, 12h, 1w 2d)"),
        (table.alice, {"until": "2020-01-01"}, "2020-01-01 is already past"),
        (
            table.alice,
            {"until": "3d", "game": game.id},
            "lets each player be away 1 day in all; you have 1 day of it left",
        ),
        (table.carol, {"until": "3d", "game": game.id}, "you are not playing in game"),
        (table.carol, {"until": "3d"}, "you are not playing in any running game"),
        (table.bob, {"until": "off"}, "you are not away in any game"),
        (table.bob, {"until": "1d", "level": "Genius"}, "has no computer level 'Genius'"),
    ]
    for user, options, reason in refusals:
        refused = await fake.slash(user, thread, "away", **options)
        assert refused.ephemeral and refused.content.startswith("⚠️") and reason in refused.content, refused.content
    after = await table.bot.service.master.games.get_game(game.id)
    assert all(p.away_until is None for p in after.players)
