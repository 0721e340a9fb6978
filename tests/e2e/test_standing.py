"""Players always know where they stand: what happens to un-passed orders (and a Pass button right
there), double taps answered once, a lobby card that stays live with who the game waits on, missed
turns counted in public and in private, a clear end, and menus that refuse impossible tables."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engine import OrderError, find_ruleset
from service.storage import history as stored_history
from tests.e2e.conftest import button

RS = find_ruleset("conquest")
DAY = 86400
CONQUEST = {"ruleset": "conquest", "size": "small", "max_players": 2, "turn_time": DAY, "missed_turns": 2}


async def first_move(table, user) -> str:
    game = (await table.bot.service.master.lookup.list_games(table.guild.id))[0]
    state = table.bot.service.master.games.state_of(game.row)
    home = state.cells_of(game.player_of(user.id).seat)[0]
    target = sorted(n for n in home.neighbours() if n in state.cells)[0]
    return f"{home.label}>{target.label} 1"


def lobby_card(table) -> str:
    card = next(m for m in table.fake.channel_messages(table.channel) if m.embeds)
    return str(table.fake.message(card.id).embeds)


async def test_orders_waiting_for_a_pass_say_so_and_offer_the_pass(table):
    fake = table.fake
    thread = await table.start_game(**CONQUEST)
    order = await first_move(table, table.alice)

    given = await fake.slash(table.alice, thread, "orders give", text=order)
    assert "these orders are thrown away" in given.content and "Not passed yet" in given.content
    again = await fake.slash(table.alice, thread, "orders give", text=order)  # a double tap
    assert f"Already given, kept once: `{order}`" in again.content and again.content.count(f"`{order}`") == 2
    assert f"<@{table.alice.id}>" in lobby_card(table) and "Waiting on" in lobby_card(table)

    pressed = await fake.click(table.alice, again.message, button(again.message, "Pass: make my orders final"))
    await pressed.wait_for(lambda h: "You passed" in h.content)
    assert "Waiting for 1 more player" in pressed.content

    def waiting_line() -> str:
        return next(line for line in lobby_card(table).split("\\n") if "Waiting on" in line)

    await fake.world.wait_until(lambda: f"<@{table.alice.id}>" not in waiting_line(), 5, "the card to drop Alice")
    assert f"<@{table.bob.id}>" in waiting_line()
    stale = await fake.click(table.alice, given.message, button(given.message, "Pass: make my orders final"))
    await stale.wait_for(lambda h: h.followups)
    assert "already passed" in stale.followups[0].content


async def test_the_lobby_card_follows_the_round_post_in_one_edit(table):
    """At a deadline, the card shows the new round once the round's post is out: edited after it, once."""
    fake = table.fake
    thread = await table.start_game(**CONQUEST)
    card = await table.card_showing("Round 1")
    await table.tick(DAY)
    await table.post(lambda m: m.content.startswith("**Round 1."))
    await table.card_showing("Round 2")
    await table.bot.service.outbox.idle()
    await table.bot.cards.close()  # every edit asked for so far is made now, and no other after
    requests = [(r.method, r.path) for r in fake.world.requests]
    posted = max(i for i, r in enumerate(requests) if r == ("POST", f"/channels/{thread.id}/messages"))
    card_edit = ("PATCH", f"/channels/{table.channel.id}/messages/{card.id}")
    assert requests[posted:].count(card_edit) == 1


async def test_missed_turns_are_counted_in_public_and_warned_in_private(table):
    fake = table.fake
    thread = await table.start_game(**CONQUEST)
    await fake.slash(table.alice, thread, "orders pass")
    await fake.slash(table.bob, thread, "orders give", text=await first_move(table, table.bob))
    await table.tick(DAY - 3000)
    [reminder] = [m for m in fake.dm_messages(table.bob) if "round 1" in m.content]
    assert "You gave 1 order but did not pass" in reminder.content and "thrown away" in reminder.content
    assert "One more missed turn removes you" not in reminder.content
    await table.tick(3000)
    post = await table.post(lambda m: m.content.startswith("**Round 1.**"))
    assert f"<@{table.bob.id}> missed this round (1 of 2 in a row)" in post.content
    info = await fake.slash(table.alice, thread, "game info")
    assert "missed 1 of 2 in a row" in str(info.embeds)

    await fake.slash(table.alice, thread, "orders pass")
    await table.tick(DAY - 3000)
    [warning] = [m for m in fake.dm_messages(table.bob) if "round 2" in m.content]
    assert "One more missed turn removes you" in warning.content and "no orders yet" in warning.content
    await table.tick(3000)
    over = await table.post(lambda m: "is over" in m.content)
    assert "Winner" in over.content and f"<@{table.alice.id}>" in over.content
    await table.card_showing("Game over", "Result")
    board = await fake.slash(table.alice, thread, "game board")
    assert "final position" in board.content


async def test_orders_can_stand_at_the_deadline(table):
    fake = table.fake
    thread = await table.start_game(**CONQUEST, orders_stand=True)
    order = await first_move(table, table.bob)
    given = await fake.slash(table.bob, thread, "orders give", text=order)
    assert "played at the deadline" in given.content
    await fake.slash(table.alice, thread, "orders pass")
    await table.tick(DAY)
    post = await table.post(lambda m: m.content.startswith("**Round 1.**"))
    assert "missed" not in post.content  # his orders were played
    game = (await table.bot.service.master.lookup.list_games(table.guild.id))[0]
    async with table.bot.service.db.reading() as conn:
        [turn] = [e for e in await stored_history.entries(conn, game.id) if e.kind == stored_history.RESOLVED]
    assert order in turn.payload


async def test_impossible_tables_and_double_taps_are_refused_at_create(table):
    fake = table.fake
    refused = await fake.slash(table.alice, table.channel, "game create conquest", map="duel", max_players=3)
    assert "is for 2 players, not 3" in refused.content
    made = await fake.slash(table.alice, table.channel, "game create conquest", map="duel")
    assert "is open" in made.content
    again = await fake.slash(table.alice, table.channel, "game create conquest", map="duel")
    assert "You opened game #1 a moment ago" in again.content
    [game] = await table.bot.service.master.lookup.list_games(table.guild.id)
    assert game.row.max_players == 2 and "map: duel" in lobby_card(table)
    await fake.click(
        table.bob,
        table.fake.message(next(m.id for m in fake.channel_messages(table.channel) if m.components)),
        button(next(m for m in fake.channel_messages(table.channel) if m.components), "Join"),
    )
    await fake.click(
        table.alice,
        next(m for m in fake.channel_messages(table.channel) if m.components),
        button(next(m for m in fake.channel_messages(table.channel) if m.components), "Start"),
    )
    await table.post(lambda m: "has started" in m.content)
    left = await fake.slash(table.bob, table.thread(), "game leave")
    assert "use /game surrender" in left.content


async def test_a_standing_order_is_drawn_only_as_the_move_it_made(table):
    """Conquest: an auto-move is a standing order, a plan; the public board shows the units it moved,
    drawn like any other move, never that they will go on moving."""
    fake = table.fake
    thread = await table.start_game(**CONQUEST)
    home, target = (await first_move(table, table.alice)).split()[0].split(">")
    await fake.slash(table.alice, thread, "orders give", text=f"auto {home}>{target}")
    await fake.slash(table.alice, thread, "orders pass")
    await fake.slash(table.bob, thread, "orders pass")
    await table.post(lambda m: m.content.startswith("**Round 1."))

    master, presenter = table.bot.service.master, table.bot.service.presenter
    game = (await master.lookup.list_games(table.guild.id))[0]
    state = RS.from_dict(game.row.state)
    assert state.autos and any(trace.auto for trace in state.last_moves)  # the plan stands, and it ran
    plain = replace(state, autos={}, last_moves=tuple(replace(t, auto=False) for t in state.last_moves))
    plain_row = replace(game.row, state_text=json.dumps(RS.to_dict(plain)))
    as_plain_moves = (await presenter.board(replace(game, row=plain_row))).data
    for viewer in (table.bob, table.carol):
        board = await fake.slash(viewer, thread, "game board")
        assert board.attachments[0].data == as_plain_moves, viewer.name


async def test_a_long_list_of_problems_shows_whole_lines_and_how_many_more(table):
    """ "Errors over 2,000 characters are cut mid-line: list the first problems and say how many more." """
    thread = await table.start_game(**CONQUEST)
    text = "; ".join(f"Z{n}>Z{n + 1} 1" for n in range(1, 90))
    game = (await table.bot.service.master.lookup.list_games(table.guild.id))[0]
    with pytest.raises(OrderError) as full:
        RS.parse_orders(RS.from_dict(game.row.state), game.player_of(table.alice.id).seat, text)
    problems = f"⚠️ {full.value}".split("\n")

    refused = await table.fake.slash(table.alice, thread, "orders give", text=text)
    *shown, more = refused.content.split("\n")
    assert len(refused.content) <= 2000 and shown == problems[: len(shown)]
    assert more == f"…and {len(problems) - len(shown)} more problems"
