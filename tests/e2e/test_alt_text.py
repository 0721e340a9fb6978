"""Every image the bot posts carries a description a screen reader can speak (Discord's attachment
``description``): the turn, each player's holdings, what changed, and in a private preview the
player's own orders; `/game board text:true` gives the same words instead of the image."""

from __future__ import annotations

from tests.e2e.test_standing import CONQUEST, first_move


async def test_round_posts_previews_and_boards_are_described_in_words(table):
    fake = table.fake
    thread = await table.start_game(**CONQUEST)
    started = await table.post(lambda m: "has started" in m.content)
    start = started.attachments[0].description
    assert start.startswith("Conquest #1: Start\n") and "alice (" in start and "bob (" in start and "10 units" in start

    order = await first_move(table, table.alice)
    shown = await (await fake.slash(table.alice, thread, "orders send", text=order)).settled()
    preview = (await fake.slash(table.alice, thread, "orders show")).message.attachments[0].description
    assert preview.startswith("Conquest #1, round 1") and f"Your orders, drawn for you alone: {order}" in preview
    assert shown.ephemeral

    await fake.slash(table.bob, thread, "orders pass")
    resolved = await table.post(lambda m: m.content.startswith("**Round 1.**"))
    described = resolved.attachments[0].description
    lines = described.split("\n")
    assert lines[0] == "Conquest #1: Round 1" and "What changed:" in lines
    assert any("(red):" in line and " cell" in line for line in lines) and any("(blue):" in line for line in lines)
    assert order not in described.split("What changed:")[0]  # orders are told as what they did, after the holdings
    assert "<@" not in described  # names, never mentions

    words = await fake.slash(table.bob, thread, "game board", text=True)
    assert words.ephemeral and not words.message.attachments
    assert words.content.startswith("Conquest #1, round 2") and "(red):" in words.content
    image = await fake.slash(table.bob, thread, "game board")
    assert image.message.attachments[0].description == words.content
