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
