"""A fortress game in mode 3 (generals) through Discord: one player at a time, legal moves offered
by autocomplete, each move shown to the opponent at once, a missed deadline, and the final result."""

from __future__ import annotations

from engine import find_ruleset
from tests.e2e.conftest import decode_png

HOUR = 3600
RS = find_ruleset("fortress")


async def test_mode_three_game(table):
    fake = table.fake
    thread = await table.start_game(ruleset="fortress", mode=3, moves=3, turn_time=HOUR)
    game = (await table.bot.service.master.lookup.list_games(table.guild.id))[0]
    players = {p.seat: user for p in game.players for user in (table.alice, table.bob) if user.id == p.user_id}

    move = 0
    while True:
        game = await table.bot.service.master.games.get_game(game.id)
        if game.row.status != "running":
            break
        seat = next(iter(game.acting_seats))
        mover, waiter = players[seat], players[1 - seat]
        move += 1
        ping = await table.post(lambda m, n=move: f"your turn (move {n})" in m.content)
        assert ping.pinged == {mover.id}  # only the player whose move it is is called
        early = await fake.slash(waiter, thread, "orders send", text="pass")
        assert early.ephemeral and "not your turn" in early.content
        if move == 3:  # the mover lets the deadline pass: his move is a pass
            await table.tick(HOUR)
        else:
            choices = await fake.autocomplete(mover, thread, "orders send", focused="text", value="")
            assert choices and len(choices) <= 25
            state = RS.from_dict(game.row.state)
            for choice in choices:
                RS.parse_orders(state, seat, choice["value"])  # every suggestion is legal
            text = RS.format_orders(RS.ai_orders(state, seat, move)) or "pass"
            sent = await fake.slash(mover, thread, "orders send", text=text)
            assert sent.ephemeral and "resolved" in sent.content
        shown = await table.post(lambda m, n=move: m.content.startswith(f"**Move {n}."))
        decode_png(shown.attachments[0].data)
        assert shown.visible_only_to is None  # the opponent sees it at once
    over = await table.post(lambda m: "is over" in m.content)
    assert ("Winner" in over.content or "Draw" in over.content) and move == 6
    assert not over.attachments  # the last move's post already shows the final position, once
    assert sum(1 for m in table.posts() if m.attachments) == 1 + 6  # the start and every move
