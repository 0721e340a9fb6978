"""Stored data that no longer reads — orders saved before the parser grew stricter, a damaged state row —
costs only its own seat or game: the others resolve, list and load as always."""

from __future__ import annotations

import json
import logging
import re

from i18n import using
from service.models import TimeSettings
from service.presenter import Presenter
from service.runtime.workers import CpuPool
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, HOUR


async def store_orders(env, game, actor, text: str) -> None:
    """Orders as an older bot saved them (passed), written straight into the table."""
    seat = game.player_of(actor.user_id).seat
    now = env.clock.now()
    async with env.db.transaction() as conn:
        await conn.execute(
            "INSERT INTO orders (game_id, turn, seat, text, passed, passed_at, updated_at) VALUES (?,?,?,?,1,?,?)",
            (game.id, game.row.turn, seat, text, now, now),
        )


async def test_stored_orders_that_no_longer_parse_are_dropped_with_a_notice(env, caplog):
    game = await env.new_game(ALICE, BOB)
    await store_orders(env, game, ALICE, "A0>A1 3")
    env.clock.advance(HOUR + 1)
    with caplog.at_level(logging.WARNING, logger="service.turns"):
        await env.master.timekeeping.sweep()
    game = await env.master.games.get_game(game.id)
    assert game.row.turn == 1 and game.damage is None
    assert "stored orders 'A0>A1 3' are dropped" in caplog.text
    assert game.player_of(ALICE.user_id).missed == 0  # she did pass; only her orders were lost
    await env.outbox.flush()
    resolved = next(a for a in env.sink.posted if a.kind == "round_resolved")
    lines = Presenter(env.master.games, env.master.history, CpuPool(workers=0)).event_lines(
        game, resolved.payload["events"]
    )
    assert (
        lines[0].startswith("Alice (")
        and "orders no longer fit and were dropped: 'a0>a1 3': A0 is not a cell" in lines[0]
    )


async def test_orders_the_parser_cannot_read_at_all_never_hold_up_the_game(env, monkeypatch):
    game = await env.new_game(ALICE, BOB)
    await store_orders(env, game, ALICE, "anything")

    def broken(state, seat, text):
        raise IndexError("a parser bug")

    monkeypatch.setattr(env.master.games.rulesets["conquest"], "parse_orders", broken)
    env.clock.advance(HOUR + 1)
    await env.master.timekeeping.sweep()
    game = await env.master.games.get_game(game.id)
    assert game.row.turn == 1
    await env.outbox.flush()
    resolved = next(a for a in env.sink.posted if a.kind == "round_resolved")
    dropped = {"kind": "orders_dropped", "seat": game.player_of(ALICE.user_id).seat, "reason": "they could not be read"}
    assert dropped in resolved.payload["events"]


async def fortress_game_stored_as(env, damage) -> int:
    """A running fortress game whose stored state then had ``damage`` written over it."""
    game = await env.master.lobby.create_game(
        guild_id=GUILD, channel_id=CHANNEL, actor=ALICE, ruleset="fortress", options={}, time=TimeSettings(), seed=5
    )
    await env.master.lobby.join(game.id, CAROL)
    game = await env.master.lobby.start_game(game.id, ALICE)
    async with env.db.transaction() as conn:
        await conn.execute(
            "UPDATE games SET state = ?, version = version + 1 WHERE id = ?",
            (json.dumps({**game.row.state, **damage}), game.id),
        )
    return game.id


async def test_a_game_with_a_damaged_state_is_listed_as_damaged_beside_the_others(env):
    healthy = await env.new_game(ALICE, BOB)
    damaged = await env.master.games.get_game(await fortress_game_stored_as(env, {"height": 10**6}))
    listed = {game.id: game for game in await env.master.lookup.list_games(GUILD)}
    assert "damaged data" in listed[damaged.id].damage and "height" in listed[damaged.id].damage
    assert listed[healthy.id].damage is None and listed[healthy.id].state is not None
    assert [g.id for g in await env.master.lookup.games_of(ALICE.user_id)] == [healthy.id, damaged.id]


async def test_the_damage_is_told_in_the_readers_language_with_its_detail_labelled(env):
    damaged = await fortress_game_stored_as(env, {"height": 10**6})
    with using("zh_Hans"):
        [game] = await env.master.lookup.list_games(GUILD)
    assert game.id == damaged and game.damage.startswith(f"第 {damaged} 号游戏的数据已损坏")
    assert re.search(r"（详情：.*height.*）$", game.damage)  # the technical detail kept for the report
    with using("uk"):
        [game] = await env.master.lookup.list_games(GUILD)
    assert re.search(r"скасувати \(подробиці: .*height.*\)$", game.damage)


async def test_a_state_that_breaks_loading_in_any_way_only_marks_its_own_game(env, monkeypatch):
    healthy = await env.new_game(ALICE, BOB)
    broken = await fortress_game_stored_as(env, {})

    def crashing(data):
        raise RecursionError("a loader bug")

    monkeypatch.setattr(env.master.games.rulesets["fortress"], "from_dict", crashing)
    listed = {game.id: game for game in await env.master.lookup.list_games(GUILD)}
    assert "damaged data" in listed[broken].damage
    assert listed[healthy.id].damage is None
