"""Game lifecycle before and around play: every refusal is specific and changes nothing."""

from __future__ import annotations

import pytest

from engine import OptionError
from service.errors import GameError, GameNotFound, NotAllowed, WrongPhase
from service.models import TimeSettings
from tests.service.conftest import ADMIN, ALICE, BOB, CAROL, CHANNEL, GUILD


async def create(env, **kwargs):
    return await env.master.lobby.create_game(
        guild_id=GUILD, channel_id=CHANNEL, actor=ALICE, ruleset="conquest", options={"size": "small"}, seed=3, **kwargs
    )


async def test_create_join_leave_and_list(env):
    game = await create(env)
    assert [p.name for p in game.players] == ["Alice"] and game.row.status == "lobby"
    game = await env.master.lobby.join(game.id, BOB)
    assert [p.user_id for p in game.players] == [1, 2]
    assert [g.id for g in await env.master.lookup.list_games(GUILD)] == [game.id]
    assert [g.id for g in await env.master.lookup.games_of(BOB.user_id)] == [game.id]
    game = await env.master.lobby.leave(game.id, BOB)
    assert [p.user_id for p in game.players] == [1]
    assert await env.master.lookup.games_of(BOB.user_id) == []


async def test_joining_twice_and_full_games_are_refused(env):
    game = await create(env, max_players=2)
    with pytest.raises(GameError, match="already in game"):
        await env.master.lobby.join(game.id, ALICE)
    await env.master.lobby.join(game.id, BOB)
    with pytest.raises(GameError, match="is full"):
        await env.master.lobby.join(game.id, CAROL)
    assert len((await env.master.games.get_game(game.id)).players) == 2


async def test_bad_creation_input(env):
    with pytest.raises(GameError, match="unknown game 'chess'"):
        await env.master.lobby.create_game(guild_id=GUILD, channel_id=CHANNEL, actor=ALICE, ruleset="chess")
    with pytest.raises(OptionError, match="unknown option"):
        await env.master.lobby.create_game(
            guild_id=GUILD, channel_id=CHANNEL, actor=ALICE, ruleset="conquest", options={"speed": 3}
        )
    with pytest.raises(GameError, match="2 to 6 players; 1 to 6 is not possible"):
        await create(env, min_players=1)
    with pytest.raises(GameError, match="the time for a turn must be between 1 minute and 30 days, not 5 seconds"):
        await create(env, time=TimeSettings(round_seconds=5))
    assert await env.master.lookup.list_games(GUILD) == []


async def test_start_needs_players_and_the_creator(env):
    game = await create(env)
    with pytest.raises(GameError, match="needs at least 2 players to start; it has 1"):
        await env.master.lobby.start_game(game.id, ALICE)
    await env.master.lobby.join(game.id, BOB)
    with pytest.raises(NotAllowed, match="only the creator"):
        await env.master.lobby.start_game(game.id, BOB)
    game = await env.master.lobby.start_game(game.id, ALICE)
    assert game.row.status == "running"
    assert sorted(p.seat for p in game.players) == [0, 1]
    assert game.acting_seats == {0, 1}
    with pytest.raises(WrongPhase, match="already running"):
        await env.master.lobby.join(game.id, CAROL)
    with pytest.raises(WrongPhase, match="already running"):
        await env.master.lobby.start_game(game.id, ALICE)


async def test_seat_order_is_seeded(env):
    seats = []
    for _ in range(2):
        game = await create(env)
        await env.master.lobby.join(game.id, BOB)
        await env.master.lobby.join(game.id, CAROL)
        game = await env.master.lobby.start_game(game.id, ALICE)
        seats.append([p.seat for p in game.players])
    assert seats[0] == seats[1]


async def test_computer_seats(env):
    game = await create(env)
    game = await env.master.lobby.add_ai(game.id, ALICE)
    assert [p.name for p in game.players] == ["Alice", "Computer 1 (Extreme)"]
    with pytest.raises(NotAllowed):
        await env.master.lobby.add_ai(game.id, BOB)  # a stranger may not fill seats
    game = await env.master.lobby.add_ai(game.id, ALICE)
    game = await env.master.lobby.remove_ai(game.id, ALICE)
    assert [p.name for p in game.players] == ["Alice", "Computer 1 (Extreme)"]
    game = await env.master.lobby.start_game(game.id, ALICE)
    ai = next(p for p in game.players if p.is_ai)
    assert ai.seat in game.passed_seats  # computers submit at once


async def test_cancel_and_kick_are_for_managers(env):
    game = await create(env)
    await env.master.lobby.join(game.id, BOB)
    with pytest.raises(NotAllowed):
        await env.master.lobby.cancel(game.id, BOB)
    game = await env.master.games.get_game(game.id)
    alice, bob = game.player_of(ALICE.user_id), game.player_of(BOB.user_id)
    with pytest.raises(NotAllowed):
        await env.master.lobby.kick(game.id, BOB, alice.id)
    game = await env.master.lobby.kick(game.id, ADMIN, bob.id)
    assert [p.user_id for p in game.players] == [ALICE.user_id]
    game = await env.master.lobby.cancel(game.id, ALICE)
    assert game.row.status == "cancelled"
    with pytest.raises(WrongPhase, match="was cancelled"):
        await env.master.lobby.join(game.id, BOB)
    assert await env.master.lookup.list_games(GUILD) == []
    assert [g.row.status for g in await env.master.lookup.list_games(GUILD, include_ended=True)] == ["cancelled"]


async def test_unknown_game(env):
    with pytest.raises(GameNotFound, match="no game #42"):
        await env.master.lobby.join(42, ALICE)


async def test_a_corrupted_game_row_is_refused_clearly_and_can_be_cancelled(env):
    game = await create(env)
    await env.master.lobby.join(game.id, BOB)
    game = await env.master.lobby.start_game(game.id, ALICE)
    async with env.db.transaction() as conn:
        await conn.execute("UPDATE games SET state = '{not json', version = version + 1 WHERE id = ?", (game.id,))
    damaged = await env.master.games.get_game(game.id)
    assert "damaged data" in damaged.damage
    for attempt in (
        env.master.play.submit(game.id, ALICE),
        env.master.play.add_orders(game.id, ALICE, "A1>A2 1"),
        env.master.play.surrender(game.id, BOB),
        env.master.timekeeping.wake(game.id),
    ):
        with pytest.raises(GameError, match=f"game #{game.id} has damaged data"):
            await attempt
    assert (await env.master.games.get_game(game.id)).row.version == damaged.row.version  # nothing changed
    assert (await env.master.lobby.cancel(game.id, ALICE)).row.status == "cancelled"


async def test_a_damaged_game_does_not_hold_up_other_deadlines(env):
    broken = await create(env)
    await env.master.lobby.join(broken.id, BOB)
    await env.master.lobby.start_game(broken.id, ALICE)
    healthy = await create(env)
    await env.master.lobby.join(healthy.id, CAROL)
    await env.master.lobby.start_game(healthy.id, ALICE)
    async with env.db.transaction() as conn:
        await conn.execute("UPDATE games SET state = 'null', version = version + 1 WHERE id = ?", (broken.id,))
    env.clock.advance(2 * 86400)
    assert await env.master.timekeeping.sweep() == 2
    assert (await env.master.games.get_game(healthy.id)).row.turn == 1
