"""Orders, passes, deadlines, missed turns, surrender, draws and history, through the game master."""

from __future__ import annotations

import json

import pytest

from engine import IllegalOrderError, OrderSyntaxError, find_ruleset
from service.errors import GameError, NotAllowed, WrongPhase
from service.models import TimeSettings
from service.storage import history as stored_history
from tests.service.conftest import ADMIN, ALICE, BOB, CAROL, HOUR

RS = find_ruleset("conquest")


def seat_of(game, actor):
    return game.player_of(actor.user_id).seat


def own_cell(game, actor):
    state = RS.from_dict(game.row.state)
    cell = state.cells_of(seat_of(game, actor))[0]
    target = next(n for n in cell.neighbours() if n in state.cells)
    return cell.label, target.label


async def history(env, game_id):
    async with env.db.reading() as conn:
        entries = await stored_history.entries(conn, game_id)
    return [(e.kind, json.loads(e.payload), json.loads(e.state_after)) for e in entries]


async def test_program_review_replace_clear_and_pass(env):
    game = await env.new_game(ALICE, BOB)
    source, target = own_cell(game, ALICE)
    mine = await env.master.play.add_orders(game.id, ALICE, f"{source}>{target} 2")
    assert mine.lines == (f"{source}>{target} 2",) and not mine.passed
    mine = await env.master.play.add_orders(game.id, ALICE, f"{source}>{target} 3")
    assert len(mine.lines) == 2
    with pytest.raises(IllegalOrderError, match="has 10 units at the start of the round, these orders move 11"):
        await env.master.play.add_orders(game.id, ALICE, f"{source}>{target} 6")
    assert len((await env.master.play.my_orders(game.id, ALICE)).lines) == 2  # the refused order changed nothing
    mine = await env.master.play.replace_orders(game.id, ALICE, f"auto {source}>{target}")
    assert mine.lines == (f"auto {source}>{target}",)
    assert (await env.master.play.clear_orders(game.id, ALICE)).lines == ()
    await env.master.play.add_orders(game.id, ALICE, f"{source}>{target} 4")
    game = await env.master.play.submit(game.id, ALICE)
    assert game.passed_seats == {seat_of(game, ALICE)} and game.row.turn == 0
    with pytest.raises(GameError, match="already passed"):
        await env.master.play.add_orders(game.id, ALICE, f"{source}>{target} 1")
    with pytest.raises(GameError, match="already passed"):
        await env.master.play.submit(game.id, ALICE)
    game = await env.master.play.submit(game.id, BOB)  # the last pass resolves the round at once
    assert game.row.turn == 1 and game.passed_seats == frozenset()
    rows = await history(env, game.id)
    assert [row[0] for row in rows] == ["setup", "resolve"]
    assert rows[1][1]["orders"][str(seat_of(game, ALICE))] == f"{source}>{target} 4"


async def test_an_order_given_again_later_is_kept_once(env):
    """ "A repeated identical order within a turn is kept once, whenever it comes, and the reply says
    so"; lines repeated within one message are meant and all count."""
    game = await env.new_game(ALICE, BOB)
    source, target = own_cell(game, ALICE)  # 10 units
    order, auto = f"{source}>{target} 6", f"auto {source}>{target}"
    await env.master.play.add_orders(game.id, ALICE, order)
    env.clock.advance(30)  # the reply was lost; the player tries again, with one more order
    mine = await env.master.play.add_orders(game.id, ALICE, f"{source.lower()}-{target.lower()} 6; {auto}")
    assert mine.lines == (order, auto) and mine.already == (order,)
    env.clock.advance(HOUR / 2)
    mine = await env.master.play.add_orders(game.id, ALICE, f"{auto}; {order}")
    assert mine.lines == (order, auto) and mine.already == (auto, order)
    mine = await env.master.play.add_orders(game.id, ALICE, f"{source}>{target} 2; {source}>{target} 2")
    assert mine.lines == (order, auto, f"{source}>{target} 2", f"{source}>{target} 2") and mine.already == ()


async def test_orders_are_private_to_their_author(env):
    game = await env.new_game(ALICE, BOB)
    source, target = own_cell(game, ALICE)
    await env.master.play.add_orders(game.id, ALICE, f"{source}>{target} 2")
    assert (await env.master.play.my_orders(game.id, BOB)).lines == ()
    with pytest.raises(IllegalOrderError, match="belongs to Alice \\(blue\\), not to you"):
        await env.master.play.add_orders(game.id, BOB, f"{source}>{target} 1")
    with pytest.raises(NotAllowed, match="not playing in game"):
        await env.master.play.add_orders(game.id, CAROL, f"{source}>{target} 1")
    with pytest.raises(OrderSyntaxError):
        await env.master.play.add_orders(game.id, BOB, "attack everything")
    loaded = await env.master.games.get_game(game.id)
    assert "text" not in repr(loaded.passed_seats)


async def test_deadline_resolves_with_defaults_and_counts_missed_turns(env):
    game = await env.new_game(ALICE, BOB, CAROL)
    source, target = own_cell(game, ALICE)
    await env.master.play.add_orders(game.id, ALICE, f"{source}>{target} 3")  # programmed, never passed
    await env.master.play.submit(game.id, BOB)
    env.clock.advance(HOUR - 601)
    assert await env.master.timekeeping.sweep() == 0
    env.clock.advance(2)
    assert await env.master.timekeeping.sweep() == 1  # the reminder
    await env.outbox.flush()
    reminder = next(a for a in env.sink.posted if a.kind == "reminder")
    assert sorted(reminder.payload["user_ids"]) == [ALICE.user_id, CAROL.user_id]
    env.clock.advance(600)
    assert await env.master.timekeeping.sweep() == 1
    game = await env.master.games.get_game(game.id)
    assert game.row.turn == 1
    rows = await history(env, game.id)
    assert rows[-1][1]["timed_out"] is True
    assert rows[-1][1]["orders"][str(seat_of(game, ALICE))] == ""  # un-passed orders were discarded
    missed = {p.user_id: p.missed for p in game.players}
    assert missed == {ALICE.user_id: 1, BOB.user_id: 0, CAROL.user_id: 1}


async def test_three_missed_turns_remove_a_player(env):
    game = await env.new_game(ALICE, BOB, CAROL)
    for turn in range(3):
        await env.master.play.submit(game.id, ALICE)
        await env.master.play.submit(game.id, BOB)
        env.clock.advance(HOUR)
        await env.master.timekeeping.sweep()
        game = await env.master.games.get_game(game.id)
        assert game.row.turn == turn + 1
    state = RS.from_dict(game.row.state)
    carol = seat_of(game, CAROL)
    assert state.players[carol].status == "removed" and state.players[carol].reason == "missed turns"
    assert game.acting_seats == {seat_of(game, ALICE), seat_of(game, BOB)}
    await env.outbox.flush()
    removed = next(a for a in env.sink.posted if a.kind == "player_removed")
    assert removed.payload["user_id"] == CAROL.user_id and removed.payload["reason"] == "missed turns"
    with pytest.raises(NotAllowed, match="no longer playing"):
        await env.master.play.submit(game.id, CAROL)


async def test_a_pass_resets_the_missed_count(env):
    game = await env.new_game(ALICE, BOB)
    for submit_alice in (False, False, True, False, False):
        turn = (await env.master.games.get_game(game.id)).row.turn
        if submit_alice:
            await env.master.play.submit(game.id, ALICE)
        game = await env.master.play.submit(game.id, BOB)
        if game.row.turn == turn:
            env.clock.advance(HOUR)
            await env.master.timekeeping.sweep()
    game = await env.master.games.get_game(game.id)
    assert game.player_of(ALICE.user_id).missed == 2 and game.row.status == "running"


async def test_surrender_ends_a_two_player_game_with_points(env):
    game = await env.new_game(ALICE, BOB)
    await env.master.play.submit(game.id, ALICE)
    await env.master.play.submit(game.id, BOB)
    game = await env.master.play.surrender(game.id, BOB)
    assert game.row.status == "finished"
    assert game.row.result["winners"] == [seat_of(game, ALICE)]
    assert game.row.result["points"] == {str(seat_of(game, ALICE)): 1 + 1, str(seat_of(game, BOB)): 0 + 1}
    with pytest.raises(WrongPhase, match="is over"):
        await env.master.play.surrender(game.id, ALICE)
    await env.outbox.flush()
    assert env.sink.kinds()[-3:] == ["player_removed", "game_over", "replay"]


async def test_surrender_of_the_last_waiting_player_resolves_the_turn(env):
    game = await env.new_game(ALICE, BOB, CAROL)
    await env.master.play.submit(game.id, ALICE)
    await env.master.play.submit(game.id, BOB)
    game = await env.master.play.surrender(game.id, CAROL)
    assert game.row.turn == 1 and game.row.status == "running"


async def test_draw_when_every_living_player_agrees(env):
    game = await env.new_game(ALICE, BOB, ai=1)
    game = await env.master.play.propose_draw(game.id, ALICE)
    assert game.row.status == "running"
    with pytest.raises(GameError, match="already agreed"):
        await env.master.play.propose_draw(game.id, ALICE)
    game = await env.master.play.propose_draw(game.id, BOB)
    assert game.row.status == "finished"
    assert game.row.result["draw"] is True and sorted(game.row.result["winners"]) == [0, 1, 2]


async def test_a_draw_a_computer_ahead_declines_changes_nothing_and_posts_nothing(env, monkeypatch):
    """A computer ahead declines: the offer does not stand, nobody is told in the thread, and the
    proposer hears who declined, each time he asks (not "you already agreed")."""
    game = await env.new_game(ALICE, BOB, ai=1)
    monkeypatch.setattr(type(RS), "bot_evaluation", lambda self, state, seat: 0.5)
    before = await env.outbox.pending_count()
    for _ in range(2):
        with pytest.raises(GameError, match=r"^Computer 1 \(\w+\) is ahead and declines a draw, so there is none"):
            await env.master.play.propose_draw(game.id, ALICE)
    game = await env.master.games.get_game(game.id)
    assert game.row.status == "running" and not any(p.draw_agreed for p in game.players)
    assert await env.outbox.pending_count() == before


async def test_draw_agreement_expires_with_the_round(env):
    game = await env.new_game(ALICE, BOB)
    await env.master.play.propose_draw(game.id, ALICE)
    await env.master.play.submit(game.id, ALICE)
    await env.master.play.submit(game.id, BOB)
    game = await env.master.play.propose_draw(game.id, BOB)
    assert game.row.status == "running"


async def test_a_whole_game_with_a_computer_replays_from_history(env):
    game = await env.new_game(ALICE, BOB, ai=1, options={"size": "small", "round_limit": 12})
    while game.row.status == "running":
        for actor in (ALICE, BOB):
            if seat_of(game, actor) in game.waiting_seats:
                state = RS.from_dict(game.row.state)
                orders = RS.ai_orders(state, seat_of(game, actor), "human")
                await env.master.play.submit(game.id, actor, RS.format_orders(orders))
                game = await env.master.games.get_game(game.id)
        if game.row.status == "running" and not game.waiting_seats:
            env.clock.advance(1)
            game = await env.master.timekeeping.wake(game.id)
    assert game.row.status == "finished"
    rows = await history(env, game.id)
    state = RS.setup(3, rows[0][1]["options"], seed=rows[0][1]["seed"])
    for kind, payload, after in rows[1:]:
        if kind == "resolve":
            state = RS.resolve(
                state, {int(s): RS.parse_orders(state, int(s), t) for s, t in payload["orders"].items()}
            ).state
        else:
            state = RS.remove_player(state, payload["seat"], payload["reason"]).state
        assert RS.to_dict(state) == after
    assert RS.to_dict(state) == game.row.state
    for seq, (_, _, after) in enumerate(rows):  # every past position, as the bot reads it back
        assert json.loads(await env.master.history.stored_state_at(game.id, seq)) == after


async def test_bank_time_runs_out(env):
    time = TimeSettings(mode="bank", bank_seconds=2 * HOUR, reminder_seconds=0)
    game = await env.new_game(ALICE, BOB, CAROL, time=time)
    assert game.row.deadline_at == env.clock.now() + 2 * HOUR
    env.clock.advance(HOUR)
    await env.master.play.submit(game.id, ALICE)
    await env.master.play.submit(game.id, BOB)
    game = await env.master.games.get_game(game.id)
    assert game.player_of(ALICE.user_id).bank_left == pytest.approx(HOUR)
    assert game.row.deadline_at == pytest.approx(game.row.turn_started_at + 2 * HOUR)
    env.clock.advance(HOUR)
    await env.master.timekeeping.sweep()
    game = await env.master.games.get_game(game.id)
    state = RS.from_dict(game.row.state)
    assert state.players[seat_of(game, CAROL)].reason == "time ran out"
    assert game.row.turn == 1  # Carol was the last one the turn waited for
    assert game.row.deadline_at == pytest.approx(env.clock.now() + HOUR)  # Alice and Bob have an hour left


async def test_increment_adds_time_after_each_turn(env):
    time = TimeSettings(mode="increment", bank_seconds=HOUR, increment_seconds=600, reminder_seconds=0)
    game = await env.new_game(ALICE, BOB, time=time)
    env.clock.advance(100)
    await env.master.play.submit(game.id, ALICE)
    game = await env.master.games.get_game(game.id)
    assert game.player_of(ALICE.user_id).bank_left == pytest.approx(HOUR - 100 + 600)


async def test_no_time_limit(env):
    game = await env.new_game(ALICE, BOB, time=TimeSettings(mode="none"))
    assert game.row.deadline_at is None and game.row.reminder_at is None
    env.clock.advance(365 * 86400)
    assert await env.master.timekeeping.sweep() == 0


async def test_pause_resume_extend(env):
    game = await env.new_game(ALICE, BOB)
    deadline = game.row.deadline_at
    with pytest.raises(NotAllowed):
        await env.master.timekeeping.pause(game.id, BOB)
    game = await env.master.timekeeping.pause(game.id, ALICE)
    env.clock.advance(5 * HOUR)
    assert await env.master.timekeeping.sweep() == 0
    await env.master.play.submit(game.id, ALICE)
    game = await env.master.play.submit(game.id, BOB)
    assert game.row.turn == 0  # a paused game does not resolve
    game = await env.master.timekeeping.resume(game.id, ADMIN)
    assert game.row.turn == 1
    game = await env.master.timekeeping.extend(game.id, ALICE, 2 * HOUR)
    assert game.row.deadline_at == pytest.approx(env.clock.now() + 3 * HOUR)
    with pytest.raises(GameError, match="between 1 minute and 30 days"):
        await env.master.timekeeping.extend(game.id, ALICE, 5)
    assert deadline is not None


async def test_an_alternating_game_waits_for_one_player_at_a_time(env):
    game = await env.master.lobby.create_game(
        guild_id=1, channel_id=2, actor=ALICE, ruleset="fortress", options={"mode": 3, "moves": 3}, seed=4
    )
    await env.master.lobby.add_ai(game.id, ALICE)
    game = await env.master.lobby.start_game(game.id, ALICE)
    fortress = find_ruleset("fortress")
    moves = 0
    while game.row.status == "running":
        if game.waiting_seats:
            assert game.waiting_seats == {seat_of(game, ALICE)} and len(game.acting_seats) == 1
            state = fortress.from_dict(game.row.state)
            text = fortress.format_orders(fortress.ai_orders(state, seat_of(game, ALICE), "me")) or "pass"
            game = await env.master.play.submit(game.id, ALICE, text)
            moves += 1
        else:
            env.clock.advance(1)
            game = await env.master.timekeeping.wake(game.id)
    assert moves == 3 and game.row.result is not None
    rows = await history(env, game.id)
    assert sum(1 for kind, _, _ in rows if kind == "resolve") == 6


async def test_orders_out_of_turn_are_refused(env):
    game = await env.master.lobby.create_game(
        guild_id=1, channel_id=2, actor=ALICE, ruleset="fortress", options={"mode": 1}, seed=4
    )
    await env.master.lobby.join(game.id, BOB)
    game = await env.master.lobby.start_game(game.id, ALICE)
    waiting = next(actor for actor in (ALICE, BOB) if seat_of(game, actor) not in game.acting_seats)
    with pytest.raises(NotAllowed, match="not your turn"):
        await env.master.play.submit(game.id, waiting, "pass")


async def test_a_pass_needs_a_complete_set_of_orders(env):
    game = await env.master.lobby.create_game(
        guild_id=1, channel_id=2, actor=ALICE, ruleset="gra", options={"size": "small"}, seed=4
    )
    await env.master.lobby.join(game.id, BOB)
    game = await env.master.lobby.start_game(game.id, ALICE)
    with pytest.raises(IllegalOrderError, match="pick 2 different nodes"):
        await env.master.play.submit(game.id, ALICE)
    assert (await env.master.games.get_game(game.id)).passed_seats == frozenset()


async def test_a_turns_call_to_play_rides_on_the_post_before_it(env):
    """One post per round: the start and each round's result carry the next turn's call to play
    (who is called, the deadline), so players get the board and the call in one notification."""
    game = await env.played_a_round(await env.new_game(ALICE, BOB))
    await env.outbox.flush()
    started, resolved = env.sink.posted
    assert (started.kind, started.payload["next_turn"]["turn"]) == ("game_started", 1)
    assert (resolved.kind, resolved.payload["next_turn"]["turn"]) == ("round_resolved", 2)
    assert sorted(resolved.payload["next_turn"]["user_ids"]) == [ALICE.user_id, BOB.user_id]
    game = await env.master.games.get_game(game.id)
    assert resolved.payload["next_turn"]["deadline_at"] == game.row.deadline_at
