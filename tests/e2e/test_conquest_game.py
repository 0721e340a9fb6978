"""A whole conquest game through Discord as players would play it: lobby buttons, secret orders,
passes, a deadline, a player removed after three missed rounds, a surrender, game over; a restart
in the middle; outsiders refused; every image decoded."""

from __future__ import annotations

import io

from PIL import Image

from engine import find_ruleset
from tests.e2e.conftest import button, decode_png

DAY = 86400
RS = find_ruleset("conquest")


CONQUEST = {"ruleset": "conquest", "size": "small", "max_players": 3, "turn_time": DAY}


async def test_a_whole_game(table):
    fake = table.fake
    lobby = await table.open_lobby(**CONQUEST)
    thread = table.thread()

    # The lobby: Bob joins by button, Alice adds a computer; a stranger cannot start it.
    joined = await fake.click(table.bob, lobby, button(lobby, "Join"))
    assert f"<@{table.bob.id}>" in str(fake.message(lobby.id).embeds)  # Bob is listed on the lobby card
    assert joined.response_type == 7  # the lobby card was updated in place
    added = await fake.slash(table.alice, thread, "game add-ai")
    assert added.ephemeral and "Computer 1 (Extreme) joined game #1" in added.content
    refused = await fake.click(table.carol, lobby, button(lobby, "Start"))
    [refusal] = await refused.wait_followups()
    assert refusal.ephemeral and "only the creator" in refusal.content
    await fake.click(table.alice, lobby, button(lobby, "Start"))
    started = await table.post(lambda m: "has started" in m.content)
    decode_png(started.attachments[0].data)
    # The start post calls the humans to round 1: it notifies them, not the computer's creator or anyone else.
    assert "round 1" in started.content and "/orders give" in started.content
    assert started.pinged == {table.alice.id, table.bob.id}

    game = (await table.bot.service.master.lookup.list_games(table.guild.id))[0]
    seat = {p.user_id: p.seat for p in game.players}
    state = RS.from_dict(game.row.state)
    home = state.cells_of(seat[table.alice.id])[0]
    target = sorted(n for n in home.neighbours() if n in state.cells)[0]
    order = f"{home.label}>{target.label} 4"

    # Round 1: autocomplete offers Alice's legal orders; her orders stay hers alone.
    choices = await fake.autocomplete(table.alice, thread, "orders give", focused="text", value=home.label.lower())
    assert choices and all(c["value"].upper().startswith(home.label) for c in choices) and len(choices) <= 25
    none_for_carol = await fake.autocomplete(table.carol, thread, "orders give", focused="text", value="")
    assert none_for_carol == []
    given = await fake.slash(table.alice, thread, "orders give", text=order)
    assert given.ephemeral and order in given.content
    bad = await fake.slash(table.alice, thread, "orders give", text=f"{home.label}>{target.label} 40")
    assert bad.ephemeral and "has 10 units at the start of the round" in bad.content
    stranger = await fake.slash(table.carol, thread, "orders give", text=order)
    assert stranger.ephemeral and "not playing in game" in stranger.content
    shown = await fake.slash(table.alice, thread, "orders show")
    private = (await shown.settled()).message
    assert private.ephemeral and order in private.content
    decode_png(private.attachments[0].data)
    for user in (table.bob, table.carol, table.mod):
        assert all(order not in m.text() for m in fake.visible_to(user)), user.name

    passed = await fake.slash(table.alice, thread, "orders pass")
    assert passed.ephemeral and "Waiting for 1 more player" in passed.content
    await fake.slash(table.bob, thread, "orders pass")
    resolved = await table.post(lambda m: m.content.startswith("**Round 1."))
    decode_png(resolved.attachments[0].data)
    assert "round 2" in resolved.content and resolved.pinged == {table.alice.id, table.bob.id}

    # A restart in the middle of round 2, with Alice's orders programmed and the deadline pending.
    await fake.slash(table.alice, thread, "orders give", text=f"{target.label}>{home.label} 1")
    await table.restart()
    shown = await fake.slash(table.alice, thread, "orders show")
    assert f"{target.label}>{home.label} 1" in (await shown.settled()).content

    # Rounds 2-4: Bob never passes; the deadline resolves each round; after the third miss he is out.
    for round_number in (2, 3, 4):
        await fake.slash(table.alice, thread, "orders pass")
        await table.tick(DAY - 3000)  # the reminder an hour before the deadline, by DM
        reminder = [m for m in fake.dm_messages(table.bob) if f"round {round_number}" in m.content]
        assert reminder, f"no reminder for round {round_number}"
        await table.tick(3000)
        await table.post(lambda m, n=round_number: m.content.startswith(f"**Round {n}."))
    last_round = await table.post(lambda m: m.content.startswith("**Round 4."))
    assert f"<@{table.bob.id}>" in last_round.content and not last_round.pinged  # his miss is said, not rung
    removed = await table.post(lambda m: "missing turns in a row" in m.content)
    assert f"<@{table.bob.id}>" in removed.content and "round 5" in removed.content
    # by round 5 the players know how: a short call (the first ones said how to give and pass orders)
    assert "round 5: your orders, please. Deadline:" in removed.content and "/orders give" not in removed.content
    # said once, with what becomes of his cells
    assert (
        "missing turns in a row; their cells turn neutral." in removed.content
        and "left the game" not in removed.content
    )
    assert removed.pinged == {table.alice.id}  # the call to round 5 rides on the removal, for Alice alone
    gone = await fake.slash(table.bob, thread, "orders pass")
    assert gone.ephemeral and "no longer playing" in gone.content

    # Alice surrenders (after saying no once, then yes): the computer wins; the result comes with the board.
    asked = await fake.slash(table.alice, thread, "game surrender")
    assert asked.ephemeral and "You leave the game for good" in asked.content
    kept = await fake.click(table.alice, asked.message, button(asked.message, "Keep playing"))
    assert "You keep playing" in kept.content
    assert (await table.bot.service.master.games.get_game(game.id)).row.status == "running"
    asked = await fake.slash(table.alice, thread, "game surrender")
    await fake.click(table.alice, asked.message, button(asked.message, "Surrender"))
    over = await table.post(lambda m: "is over" in m.content)
    assert "Winner" in over.content and "Computer 1" in over.content
    assert over.pinged == {table.alice.id, table.bob.id}  # everyone who played, removed or not
    decode_png(over.attachments[0].data)
    info = await fake.slash(table.alice, thread, "game info")
    assert info.ephemeral and "Game over" in str(info.embeds)

    for message in table.posts():
        for attachment in message.attachments:  # boards, and close-ups of their part a round changed
            if attachment.filename.endswith("-close-up.png"):
                assert Image.open(io.BytesIO(attachment.data)).format == "PNG"
            else:
                decode_png(attachment.data)


async def test_lobby_buttons_work_after_a_restart(table):
    lobby = await table.open_lobby(**CONQUEST)
    await table.restart()
    joined = await table.fake.click(table.bob, lobby, button(lobby, "Join"))
    assert joined.response_type == 7
    game = (await table.bot.service.master.lookup.list_games(table.guild.id))[0]
    assert {p.user_id for p in game.players} == {table.alice.id, table.bob.id}


async def test_managers_and_strangers(table):
    await table.open_lobby(**CONQUEST)
    thread = table.thread()
    refused = await table.fake.slash(table.carol, thread, "admin cancel")
    assert refused.ephemeral and "only the creator" in refused.content
    nothing = await table.fake.slash(table.carol, thread, "orders show")
    assert nothing.ephemeral and "has not started yet" in nothing.content
    cancelled = await table.fake.slash(table.mod, thread, "admin cancel")
    assert cancelled.ephemeral and "cancelled" in cancelled.content
    told = await table.post(lambda m: "was cancelled by" in m.content)
    assert told.pinged == {table.alice.id}  # its one player, who did not cancel it
    listed = await table.fake.slash(table.carol, table.channel, "game list")
    assert "No open games" in listed.content


async def test_games_of_another_server_are_out_of_reach(table):
    await table.open_lobby(**CONQUEST)
    game = (await table.bot.service.master.lookup.list_games(table.guild.id))[0]
    other = table.fake.add_guild("Elsewhere")
    dave = table.fake.add_user("dave")
    table.fake.add_member(other, dave)
    refused = await table.fake.slash(dave, other.channels[0], "game join", game=game.id)
    assert refused.ephemeral and "not in this server" in refused.content
    assert len((await table.bot.service.master.games.get_game(game.id)).players) == 1
