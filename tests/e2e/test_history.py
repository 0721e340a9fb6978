"""Past turns stay readable: any resolved turn's board and summary, and everyone's orders once the
turn is over (never before)."""

from __future__ import annotations

from tests.e2e.conftest import decode_png
from tests.e2e.test_standing import CONQUEST, first_move


async def test_a_past_turn_shows_its_board_its_summary_and_then_everyones_orders(table):
    fake = table.fake
    thread = await table.start_game(**CONQUEST)
    alice_order = await first_move(table, table.alice)
    await fake.slash(table.alice, thread, "orders send", text=alice_order)

    secret = await fake.slash(table.bob, thread, "game orders")  # nothing resolved yet: nothing to show
    assert secret.ephemeral and "no resolved turn yet" in secret.content and alice_order not in secret.content

    await fake.slash(table.bob, thread, "orders pass")
    posted = await table.post(lambda m: m.content.startswith("**Round 1.**"))
    await fake.slash(table.alice, thread, "orders pass")
    await fake.slash(table.bob, thread, "orders pass")
    await table.post(lambda m: m.content.startswith("**Round 2.**"))

    past = await fake.slash(table.bob, thread, "game history", turn=1)
    assert past.ephemeral and past.content.startswith("**Conquest #1, round 1.**")
    own, shown = past.content.split("\n")[1:], posted.content.split("\n")[1:]
    # the post's own lines, then its call to play
    assert shown[: len(own)] == own and "round 2: give your orders" in shown[len(own)]
    shown, sent = decode_png(past.message.attachments[0].data), decode_png(posted.attachments[0].data)
    assert shown.tobytes() == sent.tobytes()  # the board as it was after round 1

    orders = await fake.slash(table.bob, thread, "game orders", turn=1)
    assert orders.ephemeral and f"alice: `{alice_order}`" in orders.content and "bob: no orders" in orders.content
    last = await fake.slash(table.bob, thread, "game history")
    assert last.content.startswith("**Conquest #1, round 2.**")
    beyond = await fake.slash(table.bob, thread, "game history", turn=3)
    assert beyond.ephemeral and "has 2 resolved turns; choose 1 to 2" in beyond.content


async def test_a_standing_auto_move_stays_secret_in_past_orders_until_it_stops(table):
    """rules/conquest.md: orders are secret until they have done their work; an auto-move "runs in
    later rounds", so a past round's orders hide it while it still runs, and show it once stopped."""
    fake = table.fake
    thread = await table.start_game(**CONQUEST)
    source, target = (await first_move(table, table.alice)).split()[0].split(">")
    auto = f"auto {source}>{target}"
    await fake.slash(table.alice, thread, "orders send", text=auto)
    await fake.slash(table.bob, thread, "orders pass")
    await table.post(lambda m: m.content.startswith("**Round 1.**"))

    running = await fake.slash(table.bob, thread, "game orders", turn=1)
    assert auto not in running.content and "alice: `(1 auto-move still running: secret)`" in running.content

    await fake.slash(table.alice, thread, "orders send", text=f"stop {source}")
    await fake.slash(table.bob, thread, "orders pass")
    await table.post(lambda m: m.content.startswith("**Round 2.**"))
    stopped = await fake.slash(table.bob, thread, "game orders", turn=1)
    assert f"alice: `{auto}`" in stopped.content
