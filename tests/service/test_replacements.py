"""Seats are taken over, not abandoned (``replacements``): a computer plays on where a member left,
a member not in the game may take a computer's seat (at once, or once the creator approves), and a
first-turn misser is replaced at once so the game does not lose its first round to him."""

from __future__ import annotations

import pytest

from service.errors import GameError, NotAllowed
from service.models import Actor, TimeSettings
from service.ops.ratings import _rated_players
from tests.service.conftest import ALICE, BOB, CAROL, HOUR

DAVE = Actor(4, "Dave")


def table(replacements: str, **more) -> TimeSettings:
    return TimeSettings(round_seconds=HOUR, reminder_seconds=600, replacements=replacements, **more)


def seat_of(game, actor):
    return game.player_of(actor.user_id).seat


async def posted(env, kind):
    await env.outbox.flush()
    return [a.payload for a in env.sink.posted if a.kind == kind]


async def test_a_computer_plays_on_where_a_member_surrendered(env):
    game = await env.new_game(ALICE, BOB, CAROL, time=table("computer"))
    carol = seat_of(game, CAROL)
    game = await env.master.play.surrender(game.id, CAROL)
    taker = game.player_at(carol)
    assert taker.is_ai and taker.took_over and taker.name == "Computer 1 (Extreme)"
    assert game.player_of(CAROL.user_id).seat is None and game.player_of(CAROL.user_id).left_seat == carol
    assert carol in game.passed_seats  # it played the round at once
    assert env.master.games.still_playing(game, carol)  # the seat did not leave the game
    [news] = await posted(env, "seat_taken_over")
    assert news["reason"] == "surrender" and news["left"] == [CAROL.user_id, "Carol"] and not news["offered"]
    with pytest.raises(NotAllowed, match="no longer playing"):
        await env.master.play.submit(game.id, CAROL)
    assert [g.id for g in await env.master.lookup.games_of(ALICE.user_id)] == [game.id]
    assert await env.master.lookup.games_of(CAROL.user_id) == []  # not in /mygames, nor a game she could mean


async def test_without_replacements_the_seat_leaves_the_game_as_before(env):
    game = await env.new_game(ALICE, BOB, CAROL)
    carol = seat_of(game, CAROL)
    game = await env.master.play.surrender(game.id, CAROL)
    assert game.player_at(carol).user_id == CAROL.user_id and not env.master.games.still_playing(game, carol)


async def test_missed_turns_hand_the_seat_to_a_computer(env):
    game = await env.new_game(ALICE, BOB, CAROL, time=table("computer", missed_limit=2))
    carol = seat_of(game, CAROL)
    await env.master.play.submit(game.id, CAROL)  # she plays the first round, then stops
    await env.master.play.submit(game.id, ALICE)
    await env.master.play.submit(game.id, BOB)
    for _ in range(2):
        await env.master.play.submit(game.id, ALICE)
        await env.master.play.submit(game.id, BOB)
        env.clock.advance(HOUR)
        await env.master.timekeeping.sweep()
    game = await env.master.games.get_game(game.id)
    assert game.player_at(carol).took_over and carol in game.passed_seats  # it plays the round begun
    assert [n["reason"] for n in await posted(env, "seat_taken_over")] == ["missed turns"]


async def test_who_misses_the_first_turn_is_replaced_at_once_and_the_round_is_played(env):
    """ "a player who misses the first turn is replaced at once … and the game does not lose its first
    round to him" """
    game = await env.new_game(ALICE, BOB, CAROL, time=table("computer"))
    carol = seat_of(game, CAROL)
    await env.master.play.submit(game.id, ALICE)
    await env.master.play.submit(game.id, BOB)
    env.clock.advance(HOUR)
    await env.master.timekeeping.sweep()
    game = await env.master.games.get_game(game.id)
    past = await env.master.history.past_turn(game.id, 1)
    assert game.row.turn == 1 and game.player_at(carol).took_over and past.orders[carol]  # the computer's
    assert [n["reason"] for n in await posted(env, "seat_taken_over")] == ["missed the first turn"]
    assert await env.master.lookup.reliability(CAROL.user_id) == (1, 0)


async def test_a_first_turn_nobody_played_replaces_nobody(env):
    game = await env.new_game(ALICE, BOB, time=table("computer"))
    env.clock.advance(HOUR)
    await env.master.timekeeping.sweep()
    game = await env.master.games.get_game(game.id)
    assert all(not p.took_over for p in game.players) and {p.missed for p in game.players} == {1}


async def test_first_come_a_member_takes_the_computers_seat_with_its_turn(env):
    game = await env.new_game(ALICE, BOB, CAROL, time=table("open-auto"))
    carol = seat_of(game, CAROL)
    await env.master.play.surrender(game.id, CAROL)
    with pytest.raises(NotAllowed, match="already playing"):
        await env.master.seats.take(game.id, carol, BOB)
    with pytest.raises(NotAllowed, match="you left game"):
        await env.master.seats.take(game.id, carol, CAROL)
    with pytest.raises(GameError, match="no computer's to take over"):
        await env.master.seats.take(game.id, seat_of(game, ALICE), DAVE)
    taken = await env.master.seats.take(game.id, carol, DAVE)
    assert taken.taken and taken.game.player_at(carol).user_id == DAVE.user_id
    assert carol in taken.game.waiting_seats  # the computer's orders are his to change or pass
    mine = await env.master.play.my_orders(game.id, DAVE)
    assert mine.lines and not mine.passed
    news = (await posted(env, "seat_taken_over"))[-1]
    assert news["reason"] == "handed over" and news["taker"] == [DAVE.user_id, "Dave"]


async def test_the_creator_approves_a_request_which_waits_across_a_restart(env):
    game = await env.new_game(ALICE, BOB, CAROL, time=table("open"))
    carol = seat_of(game, CAROL)
    await env.master.play.surrender(game.id, CAROL)
    asked = await env.master.seats.take(game.id, carol, DAVE)
    assert not asked.taken and asked.new
    assert not (await env.master.seats.take(game.id, carol, DAVE)).new  # asked again: the same request
    await env.restart()
    with pytest.raises(NotAllowed, match="only the creator"):
        await env.master.seats.answer(game.id, carol, DAVE.user_id, BOB, approve=True)
    game = await env.master.seats.answer(game.id, carol, DAVE.user_id, ALICE, approve=True)
    assert game.player_at(carol).user_id == DAVE.user_id
    with pytest.raises(GameError, match="answered already"):
        await env.master.seats.answer(game.id, carol, DAVE.user_id, ALICE, approve=False)


async def test_replacements_off_or_computer_let_nobody_take_a_seat(env):
    game = await env.new_game(ALICE, BOB, CAROL, time=table("computer"))
    carol = seat_of(game, CAROL)
    await env.master.play.surrender(game.id, CAROL)
    with pytest.raises(NotAllowed, match="does not let members take seats over"):
        await env.master.seats.take(game.id, carol, DAVE)


def test_the_leaver_is_rated_last_and_who_took_over_not_at_all():
    result = {"ranking": [[2], [0], [1]], "winners": [2], "points": {"2": 3, "0": 1, "1": 0}}
    rows = [
        {"user_id": 1, "name": "Alice", "seat": 0, "ai_level": None, "left_seat": None},
        {"user_id": 2, "name": "Bob", "seat": 1, "ai_level": None, "left_seat": None},
        {"user_id": 3, "name": "Carol", "seat": None, "ai_level": None, "left_seat": 2},  # her computer won
    ]
    rated = {p.name: (p.place, p.won) for p in _rated_players(result, rows)}
    assert rated == {"Alice": (1, False), "Bob": (2, False), "Carol": (3, False)}


async def test_a_rematch_seats_the_games_own_players_not_who_took_seats_over(env):
    game = await env.new_game(ALICE, BOB, CAROL, time=table("computer"))
    for actor in (CAROL, BOB, ALICE):  # the last member leaving ends it: computers do not play on alone
        game = await env.master.play.surrender(game.id, actor)
    assert game.row.status == "finished"
    rematch, _ = await env.master.lobby.rematch(game.id, BOB)
    assert sorted(p.user_id for p in rematch.players) == [ALICE.user_id, BOB.user_id, CAROL.user_id]


async def test_on_a_time_bank_who_plays_on_starts_with_a_full_clock(env):
    """A clock that ran out would put a member who takes the seat over out at once."""
    bank = table("open-auto", mode="bank", bank_seconds=6 * HOUR)
    game = await env.new_game(ALICE, BOB, CAROL, time=bank)
    carol = seat_of(game, CAROL)
    await env.master.play.submit(game.id, ALICE)
    await env.master.play.submit(game.id, BOB)
    env.clock.advance(6 * HOUR)
    await env.master.timekeeping.sweep()  # Carol's bank ran out
    game = await env.master.games.get_game(game.id)
    assert game.player_at(carol).is_ai and game.player_at(carol).bank_left == 6 * HOUR
    taken = await env.master.seats.take(game.id, carol, DAVE)
    assert taken.game.player_at(carol).bank_left == 6 * HOUR


async def test_in_a_game_of_turns_who_misses_his_first_turn_is_replaced(env):
    game = await env.master.lobby.create_game(
        guild_id=1, channel_id=2, actor=ALICE, ruleset="siege", options={}, seed=4, time=table("computer")
    )
    await env.master.lobby.join(game.id, BOB)
    game = await env.master.lobby.start_game(game.id, ALICE)
    first = game.player_at(0)
    env.clock.advance(HOUR)
    await env.master.timekeeping.sweep()
    game = await env.master.games.get_game(game.id)
    assert game.player_at(0).took_over and game.player_of(first.user_id).left_seat == 0
    assert game.row.turn >= 1


async def test_no_seat_is_offered_in_a_game_its_last_member_left(env):
    game = await env.new_game(ALICE, BOB, time=table("open"))
    for actor in (BOB, ALICE):
        game = await env.master.play.surrender(game.id, actor)
    assert game.row.status == "finished"
    assert [n["offered"] for n in await posted(env, "seat_taken_over")] == [True, False]
