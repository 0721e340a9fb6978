"""Away (/away): a computer gives an absent player's orders, nothing counts as missed, and he is back
when his time ends, when he gives an order, or when he says so (issue: "Absence never ruins a game")."""

from __future__ import annotations

import json

import pytest

from engine import OptionError, OrderSyntaxError, find_ruleset
from service.errors import GameError, NotAllowed
from service.models import TimeSettings
from service.presenter import Presenter
from service.storage import games as rows
from service.storage import history as stored
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, HOUR

DAY = 24 * HOUR
RS = find_ruleset("conquest")


def seat_of(game, actor):
    return game.player_of(actor.user_id).seat


def me(game, actor):
    return game.player_of(actor.user_id)


async def orders_now(env, game_id):
    game = await env.master.games.get_game(game_id)
    async with env.db.reading() as conn:
        return await rows.orders_of(conn, game.row)


async def position_before(env, game_id, number):
    """The position resolved turn ``number`` was played from."""
    async with env.db.reading() as conn:
        _, before = await stored.resolved_turn(conn, game_id, number - 1)
    return RS.from_dict(json.loads(before))


def own_move(game, actor):
    state = RS.from_dict(game.row.state)
    cell = state.cells_of(seat_of(game, actor))[0]
    target = next(n for n in cell.neighbours() if n in state.cells)
    return f"{cell.label}>{target.label} 2"


async def calls(env):
    """Who each call to play so far called, oldest first."""
    await env.outbox.flush()
    return [
        a.payload["next_turn"]["user_ids"] if "next_turn" in a.payload else a.payload["user_ids"]
        for a in env.sink.posted
        if a.kind == "turn_started" or a.payload.get("next_turn")
    ]


async def test_three_turns_away_miss_nothing_each_played_by_the_stand_in(env):
    """ "While he is away a computer gives his orders every turn …, nothing counts as missed"; "the
    stand-in's turns are marked in history"; "he is back when the time ends"."""
    game = await env.new_game(ALICE, BOB, time=TimeSettings(round_seconds=HOUR, reminder_seconds=600, missed_limit=5))
    alice = seat_of(game, ALICE)
    report = await env.master.absence.go_away(ALICE, env.clock.now() + 3 * HOUR - 60, level="Easy")
    assert [a.this_turn for a in report.away] == ["stand-in"]  # the turn in progress is played at once
    assert (await orders_now(env, game.id))[alice].stand_in == "Easy"
    for turn in range(3):  # Bob lets every turn run to its deadline
        env.clock.advance(HOUR)
        await env.master.timekeeping.sweep()
        game = await env.master.games.get_game(game.id)
        assert game.row.turn == turn + 1
        past = await env.master.history.past_turn(game.id)
        assert past.stand_ins == {alice: "Easy"}
        assert RS.parse_orders(await position_before(env, game.id, past.number), alice, past.orders[alice])
        assert me(game, ALICE).missed == 0 and me(game, BOB).missed == turn + 1
    assert me(game, ALICE).away_until is None  # her three hours are over: this turn she plays herself
    assert alice not in (await orders_now(env, game.id))
    called = await calls(env)
    assert all(ALICE.user_id not in users for users in called[1:-1]) and ALICE.user_id in called[-1]


async def test_the_stand_ins_orders_are_as_secret_as_his_own(env):
    """ "they stay as secret as his own would be": nobody else reads them before the turn resolves."""
    game = await env.new_game(ALICE, BOB)
    await env.master.absence.go_away(ALICE, env.clock.now() + DAY)
    assert (await env.master.play.my_orders(game.id, ALICE)).stand_in == "Extreme"
    assert (await env.master.play.my_orders(game.id, BOB)).lines == ()
    given = (await orders_now(env, game.id))[seat_of(game, ALICE)].text
    await env.outbox.flush()
    assert given and all(given not in json.dumps(a.payload) for a in env.sink.posted)


async def test_an_order_of_his_own_brings_him_back_and_replaces_the_stand_ins(env):
    """ "He is back … when he gives an order himself (say so in the reply)"; the allowance he did not
    use is his again."""
    game = await env.new_game(ALICE, BOB, time=TimeSettings(round_seconds=HOUR, reminder_seconds=600, away_days=2))
    await env.master.absence.go_away(ALICE, env.clock.now() + DAY)
    env.clock.advance(600)
    with pytest.raises(OrderSyntaxError):  # bad orders: refused, and he is still away
        await env.master.play.add_orders(game.id, ALICE, "attack everything")
    assert me(await env.master.games.get_game(game.id), ALICE).away_until is not None
    mine = await env.master.play.add_orders(game.id, ALICE, own_move(game, ALICE))
    assert mine.back and mine.lines == (own_move(game, ALICE),) and not mine.passed and mine.stand_in is None
    game = await env.master.games.get_game(game.id)
    assert me(game, ALICE).away_until is None and me(game, ALICE).away_used == pytest.approx(600)
    assert not (await env.master.play.add_orders(game.id, ALICE, own_move(game, ALICE))).back


async def test_away_off_leaves_the_stand_ins_orders_to_change_or_play(env):
    """Back by `/away until:off` in an open turn: the computer's orders are his programmed ones, played
    at the deadline as they are, and the turn is not missed."""
    game = await env.new_game(ALICE, BOB)
    alice = seat_of(game, ALICE)
    await env.master.absence.go_away(ALICE, env.clock.now() + DAY)
    stand_in = (await orders_now(env, game.id))[alice].text
    [back] = await env.master.absence.come_back(ALICE)
    assert alice in back.waiting_seats and (await orders_now(env, game.id))[alice].passed is False
    env.clock.advance(HOUR)
    await env.master.timekeeping.sweep()
    game = await env.master.games.get_game(game.id)
    past = await env.master.history.past_turn(game.id)
    assert past.orders[alice] == stand_in and me(game, ALICE).missed == 0
    with pytest.raises(GameError, match="not away in any game"):
        await env.master.absence.come_back(ALICE)


async def test_on_a_chess_clock_the_stand_in_plays_at_once_and_the_clock_keeps_running(env):
    """ "Chess clock games: the clock keeps running and the stand-in plays at once": going away in
    the middle of his turn takes the time he spent from his bank; coming back leaves the stand-in's
    orders final."""
    bank = TimeSettings(mode="bank", bank_seconds=DAY, reminder_seconds=0)
    game = await env.new_game(ALICE, BOB, CAROL, time=bank)
    env.clock.advance(HOUR)
    await env.master.absence.go_away(ALICE, env.clock.now() + DAY)
    game = await env.master.games.get_game(game.id)
    assert me(game, ALICE).bank_left == pytest.approx(DAY - HOUR)
    await env.master.absence.come_back(ALICE, game_id=game.id)
    with pytest.raises(GameError, match="from the next turn"):
        await env.master.play.add_orders(game.id, ALICE, own_move(game, ALICE))


async def test_alternating_turns_are_played_when_they_come(env):
    """In a game of turns (siege) the stand-in plays his turn the moment it begins; an order out of
    turn says he is away and how to come back."""
    game = await env.master.lobby.create_game(
        guild_id=GUILD, channel_id=CHANNEL, actor=ALICE, ruleset="siege", options={}, seed=4
    )
    await env.master.lobby.join(game.id, BOB)
    game = await env.master.lobby.start_game(game.id, ALICE)
    first = game.player_at(0)
    second = next(a for a in (ALICE, BOB) if a.user_id != first.user_id)
    await env.master.absence.go_away(second, env.clock.now() + DAY, level="Easy")
    game = await env.master.play.submit(game.id, next(a for a in (ALICE, BOB) if a is not second), "end")
    await env.master.timekeeping.wake(game.id)  # the stand-in's turn resolves at its wake-up
    game = await env.master.games.get_game(game.id)
    assert 0 in game.acting_seats and game.row.turn == 2
    assert (await env.master.history.past_turn(game.id)).stand_ins == {1: "Easy"}
    with pytest.raises(NotAllowed, match="you are away"):
        await env.master.play.add_orders(game.id, second, "end")


async def test_bad_requests_are_refused_and_change_nothing(env):
    """Away in a game one is not in, a time already past, an allowance used up, a game without away."""
    game = await env.new_game(ALICE, BOB, time=TimeSettings(round_seconds=DAY, reminder_seconds=600, away_days=1))
    now = env.clock.now()
    with pytest.raises(NotAllowed, match="not playing in game"):
        await env.master.absence.go_away(CAROL, now + HOUR, game_id=game.id)
    with pytest.raises(GameError, match="not playing in any running game"):
        await env.master.absence.go_away(CAROL, now + HOUR)
    with pytest.raises(GameError, match="already past"):
        await env.master.absence.go_away(ALICE, now - 1, game_id=game.id)
    with pytest.raises(GameError, match="away 1 day in all; you have 1 day of it left"):
        await env.master.absence.go_away(ALICE, now + 2 * DAY, game_id=game.id)
    await env.master.absence.go_away(ALICE, now + 20 * HOUR, game_id=game.id)
    env.clock.advance(10 * HOUR)  # ten hours of it used; a new time would replace the ten to come
    with pytest.raises(GameError, match="you have 14 hours of it left"):
        await env.master.absence.go_away(ALICE, env.clock.now() + 15 * HOUR, game_id=game.id)
    with pytest.raises(OptionError, match="has no computer level 'Genius'"):
        await env.master.absence.go_away(ALICE, env.clock.now() + HOUR, game_id=game.id, level="Genius")
    with pytest.raises(GameError, match="not away in game"):
        await env.master.absence.come_back(BOB, game_id=game.id)
    after = await env.master.games.get_game(game.id)
    assert me(after, ALICE).away_until == now + 20 * HOUR and me(after, BOB).away_until is None
    closed = await env.new_game(CAROL, BOB, time=TimeSettings(round_seconds=HOUR, reminder_seconds=600, away_days=0))
    with pytest.raises(NotAllowed, match="does not let players be away"):
        await env.master.absence.go_away(CAROL, env.clock.now() + HOUR, game_id=closed.id)


async def test_away_from_all_games_says_which_refused(env):
    """For all of a player's games: each game that refuses is named, the others take it."""
    open_ = await env.new_game(ALICE, BOB)
    closed = await env.new_game(ALICE, CAROL, time=TimeSettings(round_seconds=HOUR, reminder_seconds=600, away_days=0))
    report = await env.master.absence.go_away(ALICE, env.clock.now() + DAY)
    assert [a.game.id for a in report.away] == [open_.id]
    assert [number for number, _ in report.refused] == [closed.id]
    assert [g.id for g in await env.master.absence.come_back(ALICE)] == [open_.id]


async def test_an_away_period_survives_a_restart(env):
    """ "Restart-safe: an away period … survives" (the process stops; the next one reads it back)."""
    game = await env.new_game(ALICE, BOB)
    until = env.clock.now() + DAY
    await env.master.absence.go_away(ALICE, until, level="Hard")
    await env.restart()
    env.clock.advance(HOUR)
    await env.master.timekeeping.sweep()
    game = await env.master.games.get_game(game.id)
    assert (me(game, ALICE).away_until, me(game, ALICE).away_level) == (until, "Hard")
    assert (await orders_now(env, game.id))[seat_of(game, ALICE)].stand_in == "Hard"


async def test_with_every_member_away_the_game_keeps_its_own_pace(env):
    """Computers and stand-ins do not play a game on alone: every member away, each turn still waits
    for its deadline (it would otherwise run to its end in minutes, rated)."""
    game = await env.new_game(ALICE, BOB, time=TimeSettings(round_seconds=HOUR, reminder_seconds=600, missed_limit=5))
    for actor in (ALICE, BOB):
        await env.master.absence.go_away(actor, env.clock.now() + DAY)
    env.clock.advance(HOUR - 60)
    await env.master.timekeeping.sweep()
    assert (await env.master.games.get_game(game.id)).row.turn == 0
    env.clock.advance(60)
    await env.master.timekeeping.sweep()
    game = await env.master.games.get_game(game.id)
    assert game.row.turn == 1 and game.row.deadline_at == env.clock.now() + HOUR
    assert {p.missed for p in game.players} == {0}


async def test_a_pass_while_away_on_a_time_bank_brings_him_back_though_the_turn_is_final(env):
    bank = TimeSettings(mode="bank", bank_seconds=DAY, reminder_seconds=0)
    game = await env.new_game(ALICE, BOB, CAROL, time=bank)
    await env.master.absence.go_away(ALICE, env.clock.now() + DAY)
    with pytest.raises(GameError, match="from the next turn"):
        await env.master.play.submit(game.id, ALICE)
    assert me(await env.master.games.get_game(game.id), ALICE).away_until is None


async def test_the_card_stops_saying_away_when_the_time_is_over(env):
    game = await env.new_game(ALICE, BOB)
    await env.master.absence.go_away(ALICE, env.clock.now() + HOUR / 2)
    presenter = Presenter(env.master.games, env.master.history, env.master.games.pool)
    game = await env.master.games.get_game(game.id)
    assert "away until" in presenter.away_note(game, me(game, ALICE))
    env.clock.advance(HOUR / 2)
    assert presenter.away_note(game, me(game, ALICE)) is None


async def test_the_first_member_back_lets_the_waiting_turn_resolve(env):
    """With every member away a turn waits a turn time, or until one of them is back, which he is
    by saying so (or when his time ends: the game wakes then)."""
    bank = TimeSettings(mode="bank", bank_seconds=DAY, reminder_seconds=0)
    game = await env.new_game(ALICE, BOB, time=bank)
    await env.master.absence.go_away(ALICE, env.clock.now() + DAY)
    await env.master.absence.go_away(BOB, env.clock.now() + 2 * HOUR)
    game = await env.master.games.get_game(game.id)
    assert game.row.turn == 0 and game.row.deadline_at == env.clock.now() + 2 * HOUR  # when Bob is back
    [back] = await env.master.absence.come_back(ALICE)
    assert back.row.turn == 1
