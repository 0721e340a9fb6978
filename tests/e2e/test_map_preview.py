"""Choosing a map when opening a game shows it: the game's thread starts with a preview of the board."""

from __future__ import annotations

from tests.e2e.conftest import decode_png


async def test_a_chosen_map_is_previewed_in_the_thread_and_a_generated_one_is_not(table):
    await table.open_lobby("conquest", map="duel")
    preview = await table.post(lambda m: m.content.startswith("Map: **duel**"))
    decode_png(preview.attachments[0].data)

    await table.open_lobby("fortress")
    threads = table.fake.threads(table.channel)
    assert len(threads) == 2
    assert not any(m.content.startswith("Map:") for m in table.fake.channel_messages(threads[-1]))


async def test_a_map_that_leaves_out_a_table_size_says_so_on_the_card_and_refuses_a_size(table):
    """crown has starts for 2, 3, 4 and 6 players: the card says so before anyone joins (it is not
    first heard of at Start with five), and `size` beside a chosen map is refused, not ignored."""
    card = await table.open_lobby("conquest", map="crown")
    assert "Its map starts with 2, 3, 4 or 6 players." in str(card.embeds)
    await table.open_lobby("conquest", map="duel")
    cards = [str(m.embeds) for m in table.fake.channel_messages(table.channel) if m.embeds]
    assert len(cards) == 2 and "Its map starts with" not in next(c for c in cards if "Conquest #2" in c)
    refused = await table.fake.slash(table.alice, table.channel, "game create conquest", map="crown", size="large")
    assert refused.ephemeral and "size shapes a generated map only and does not apply with map crown" in refused.content
