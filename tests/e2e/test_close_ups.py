"""Boards too large to read on a phone come with close-ups (issue: a board you can read on a phone):
a round post carries the part the round changed, a private preview the part the player's orders
name, and `/game board around:` any part; each reads 8 px tall when shown 400 px wide."""

from __future__ import annotations

import io

from PIL import Image

from render import crop, places_of
from tests.e2e.test_standing import CONQUEST, first_move


async def shown_label_height(table, board: bytes, close_up: bytes | None = None) -> float:
    """How tall the place labels of the ``board`` image, or of its ``close_up``, are on a phone."""
    master = table.bot.service.master
    game = (await master.lookup.list_games(table.guild.id))[0]
    view = master.games.ruleset(game.row).view(master.games.state_of(game.row), None)
    places = places_of(view)
    assert places is not None
    width = Image.open(io.BytesIO(board)).width
    if close_up is None:
        return crop.shown_label_height(places, view, width)
    return crop.close_up_label_height(places, view, width, Image.open(io.BytesIO(close_up)).width)


async def test_round_posts_previews_and_the_board_command_give_close_ups_a_phone_can_read(table):
    fake = table.fake
    thread = await table.start_game(**CONQUEST)
    order = await first_move(table, table.alice)
    source, target = order.split()[0].split(">")

    await fake.slash(table.alice, thread, "orders give", text=order)
    preview = (await fake.slash(table.alice, thread, "orders show")).message
    board, near = preview.attachments
    assert near.filename == "game-1-orders-close-up.png" and near.is_png
    assert near.description.startswith(f"Your orders · around {source}, {target}\n")
    assert (
        await shown_label_height(table, board.data)
        < crop.GOAL
        <= await shown_label_height(table, board.data, near.data)
    )

    await fake.slash(table.alice, thread, "orders pass")
    await fake.slash(table.bob, thread, "orders pass")
    resolved = await table.post(lambda m: m.content.startswith("**Round 1.**"))
    board, near = resolved.attachments
    assert near.filename.endswith("-close-up.png") and near.is_png
    assert near.description.startswith(f"Conquest #1: Round 1\nRound 1 · around {source}, {target}")
    assert await shown_label_height(table, board.data, near.data) >= crop.GOAL

    asked = await fake.slash(table.bob, thread, "game board", around=target.lower())
    [near] = asked.message.attachments
    assert asked.ephemeral and near.description.startswith(f"Conquest #1, round 2\nRound 2 · around {target}\n")
    assert await shown_label_height(table, board.data, near.data) >= crop.GOAL

    offered = await fake.autocomplete(table.bob, thread, "game board", focused="around", value=target[0].lower())
    assert offered and all(choice["value"].startswith(target[0]) for choice in offered)
    nowhere = await fake.slash(table.bob, thread, "game board", around="ZZ99")
    assert nowhere.ephemeral and not nowhere.message.attachments
    assert "there is no place “ZZ99” on the board of game #1" in nowhere.content
