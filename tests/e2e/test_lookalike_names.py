"""A player whose name looks like another's (a Cyrillic "а" for a Latin "a") cannot pass for him:
both names carry their seat numbers on the board, in its description and in the game's posts."""

from __future__ import annotations

from tests.e2e.test_standing import CONQUEST, first_move


async def test_look_alike_names_are_told_apart_by_seat_in_posts_and_on_the_board(table):
    fake = table.fake
    table.bob.name = "аlice"  # a Cyrillic а
    thread = await table.start_game(**CONQUEST)
    game = (await table.bot.service.master.lookup.list_games(table.guild.id))[0]
    real = f"alice #{game.player_of(table.alice.id).seat + 1}"
    fake_alice = f"аlice #{game.player_of(table.bob.id).seat + 1}"
    assert sorted(table.bot.service.presenter.drawn_names(game)) == sorted([real, fake_alice])

    order = await first_move(table, table.alice)
    await fake.slash(table.alice, thread, "orders send", text=order)
    await fake.slash(table.bob, thread, "orders pass")
    resolved = await table.post(lambda m: m.content.startswith("**Round 1.**"))
    described = resolved.attachments[0].description
    assert f"{real} (" in described and f"{fake_alice} (" in described

    orders = await fake.slash(table.carol, thread, "game orders", turn=1)
    assert f"{real}: `{order}`" in orders.content and f"{fake_alice}: no orders" in orders.content
