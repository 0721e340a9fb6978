""" "`/play ruleset: speed:` joins a queue; when enough players of similar rating are waiting, a game
opens with a ready check (a button each, one hour to answer; those who do not answer are dropped back
to the queue's end) before its first turn. Entries expire; `/play cancel`." — against a real database
with a clock that moves only when told."""

from __future__ import annotations

import pytest

from service.errors import GameError, NotAllowed, WrongPhase
from service.models import Actor
from service.ops.lobby import MAX_OPEN_GAMES_PER_CHANNEL
from service.ops.matchmaking import ENTRY_SECONDS, MOST_ENGAGED, READY_SECONDS, matched
from service.storage.matchmaking import DECLINED, FAILED, LAPSED, OPENED, WAITING, Entry, Queue
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, HOUR

DAN = Actor(4, "Dan")


async def queue(env, actor, *, ruleset="siege", speed="daily", seats=2):
    return await env.master.matchmaking.join(
        actor, guild_id=GUILD, channel_id=CHANNEL, ruleset=ruleset, speed=speed, seats=seats
    )


def entry(user: int, rating: float, queued_at: float) -> Entry:
    return Entry(
        user, f"P{user}", Queue("siege", "daily", 2, GUILD), GUILD, CHANNEL, rating, queued_at, queued_at + 1e6
    )


def test_the_longest_waiting_is_matched_first_with_the_nearest_rating():
    entries = [entry(1, 10.0, 0), entry(2, 30.0, 1), entry(3, 12.0, 2), entry(4, 29.0, 3)]
    assert [[e.user_id for e in table] for table in matched(entries, now=10)] == [[1, 3], [2, 4]]


def test_a_player_too_far_in_rating_waits_until_his_window_is_wide_enough():
    """ "when enough players of similar rating are waiting": 20 apart is too far at first (5), and near
    enough once the one waiting longest has waited four hours (5 + 4 × 5 = 25)."""
    entries = [entry(1, 0.0, 0), entry(2, 20.0, 1)]
    assert matched(entries, now=60) == []
    assert [[e.user_id for e in t] for t in matched(entries, now=4 * HOUR)] == [[1, 2]]


async def test_a_full_queue_makes_a_ready_check_and_all_ready_start_the_game(env):
    mm = env.master.matchmaking
    first = await queue(env, ALICE)
    assert first.new and first.waiting == 1 and first.check is None
    second = await queue(env, BOB)
    assert second.check is not None and second.check.status == WAITING
    check = second.check
    assert check.expires_at == env.clock.now() + READY_SECONDS and check.channel_id == CHANNEL
    assert await mm.entries(ALICE.user_id, GUILD) == []  # out of the queue while the check is on
    with pytest.raises(NotAllowed, match="not yours"):
        await mm.ready(check.id, CAROL)
    after = await mm.ready(check.id, ALICE)
    assert after.status == WAITING
    with pytest.raises(WrongPhase, match="already"):
        await queue(env, ALICE)  # matched: no second place in the same queue
    opened = await mm.ready(check.id, BOB)
    assert opened.status == OPENED and opened.game_id is not None
    game = await env.master.games.get_game(opened.game_id)
    assert game.row.status == "running" and game.row.time.round_seconds == 86400
    assert sorted(p.user_id for p in game.players) == [ALICE.user_id, BOB.user_id]
    with pytest.raises(WrongPhase, match="has started"):
        await mm.ready(check.id, ALICE)


async def test_who_does_not_answer_in_an_hour_goes_to_the_end_of_the_queue(env):
    mm = env.master.matchmaking
    await queue(env, ALICE)
    env.clock.advance(60)
    check = (await queue(env, BOB)).check
    await mm.ready(check.id, BOB)
    env.clock.advance(READY_SECONDS - 1)
    await mm.sweep()
    assert (await mm.check(check.id))[0].status == WAITING  # not yet
    await queue(env, CAROL)  # waiting while the check runs out
    env.clock.advance(1)
    await mm.sweep()
    lapsed, _ = await mm.check(check.id)
    assert lapsed.status == LAPSED
    [again] = [c for c in await mm.untold() if c.status == WAITING]
    members = (await mm.check(again.id))[1]
    assert [m.user_id for m in members] == [BOB.user_id, CAROL.user_id]  # the first two in the queue now
    assert members[0].queued_at < members[1].queued_at  # Bob kept his place
    [alice] = await mm.entries(ALICE.user_id, GUILD)
    assert alice.queued_at == env.clock.now()  # Alice went to the end


async def test_entries_lapse_after_a_day_and_cancel_gives_up_places_and_checks(env):
    mm = env.master.matchmaking
    await queue(env, ALICE)
    env.clock.advance(ENTRY_SECONDS)
    await mm.sweep()
    assert await mm.entries(ALICE.user_id, GUILD) == []
    await queue(env, ALICE, ruleset="fortress")
    await queue(env, ALICE, ruleset="gra", seats=3)
    assert await mm.cancel(ALICE, GUILD) == 2
    assert await mm.entries(ALICE.user_id, GUILD) == []
    await queue(env, ALICE)
    alice_place = env.clock.now()
    env.clock.advance(60)
    check = (await queue(env, BOB)).check
    await mm.ready(check.id, BOB)
    assert await mm.cancel(BOB, GUILD) == 1  # answered or not, he leaves the check
    assert (await mm.check(check.id))[0].status == DECLINED
    [alice] = await mm.entries(ALICE.user_id, GUILD)
    assert alice.queued_at == alice_place  # she keeps her place: not her doing
    assert await mm.entries(BOB.user_id, GUILD) == []


async def test_a_player_holds_at_most_a_few_queue_places(env):
    """ "a player in two queue games at once beyond a limit … clear refusals, nothing changed" """
    rulesets = ["siege", "fortress", "gra", "conquest"]
    for ruleset in rulesets[:MOST_ENGAGED]:
        await queue(env, ALICE, ruleset=ruleset)
    with pytest.raises(GameError, match=f"already wait in or play {MOST_ENGAGED} games"):
        await queue(env, ALICE, ruleset=rulesets[MOST_ENGAGED])
    assert len(await env.master.matchmaking.entries(ALICE.user_id, GUILD)) == MOST_ENGAGED
    renewed = await queue(env, ALICE, ruleset="siege")  # the same queue again: the place renewed
    assert not renewed.new


async def test_bad_requests_are_refused(env):
    with pytest.raises(GameError, match="a speed is fast, daily, relaxed"):
        await queue(env, ALICE, speed="ludicrous")
    with pytest.raises(GameError, match="Siege seats 2 to 2 players"):
        await queue(env, ALICE, seats=3)
    with pytest.raises(GameError, match="unknown game 'chess'"):
        await queue(env, ALICE, ruleset="chess")
    assert await env.master.matchmaking.entries(ALICE.user_id, GUILD) == []


async def test_a_pending_check_and_a_queue_survive_a_restart(env):
    """ "Restart-safe: … a queue and a pending ready check survive" — the game opens after the restart."""
    await queue(env, ALICE)
    check = (await queue(env, BOB)).check
    await queue(env, CAROL)
    await env.master.matchmaking.ready(check.id, ALICE)
    await env.restart()
    mm = env.master.matchmaking
    assert [e.user_id for e in await mm.entries(CAROL.user_id, GUILD)] == [CAROL.user_id]
    opened = await mm.ready(check.id, BOB)
    assert opened.status == OPENED


async def test_a_second_lapse_in_a_row_takes_a_player_out_of_the_queue(env):
    """Who lets a check lapse waits at the queue's end; who lets the next one lapse too leaves it, so
    that an absent player is not called every hour for a day."""
    mm = env.master.matchmaking
    await queue(env, ALICE)
    first = (await queue(env, BOB)).check
    await mm.ready(first.id, ALICE)
    env.clock.advance(READY_SECONDS)
    await mm.sweep()  # Bob to the end, matched again with Alice at once
    [second] = [c for c in await mm.untold() if c.status == WAITING]
    assert [m.missed for m in (await mm.check(second.id))[1]] == [0, 1]
    await mm.ready(second.id, ALICE)
    env.clock.advance(READY_SECONDS)
    await mm.sweep()
    assert await mm.entries(BOB.user_id, GUILD) == []  # twice: out
    assert [e.user_id for e in await mm.entries(ALICE.user_id, GUILD)] == [ALICE.user_id]


async def test_a_game_that_cannot_open_ends_its_check_and_everyone_keeps_his_place(env, monkeypatch):
    """ "its game could not open": a lobby refused on its way (here: cancelled as it is shown) ends the
    check at once; one left behind by a stop and cancelled meanwhile ends it at the next sweep. Never
    "has started"; everyone keeps his place."""
    mm = env.master.matchmaking

    async def cancelled_on_its_way(game):
        return await env.master.lobby.cancel(game.id, ALICE)

    async def stopped(*args, **kwargs):
        raise ConnectionError("the process stopped here")

    for stop_first in (False, True):
        await queue(env, ALICE)
        check = (await queue(env, BOB)).check
        places = {m.user_id: m.queued_at for m in (await mm.check(check.id))[1]}
        await mm.ready(check.id, ALICE)
        if stop_first:
            monkeypatch.setattr(env.master.lobby, "start_game", stopped)
            assert (await mm.ready(check.id, BOB)).status == "ready"  # its game made, not started
            await env.master.lobby.cancel((await mm.check(check.id))[0].game_id, ALICE)
            monkeypatch.undo()
            await mm.sweep()
            ended, _ = await mm.check(check.id)
        else:
            mm.on_open.append(cancelled_on_its_way)
            ended = await mm.ready(check.id, BOB)
            mm.on_open.remove(cancelled_on_its_way)
        assert ended.status == FAILED and ended.game_id is not None
        assert (await env.master.games.get_game(ended.game_id)).row.status == "cancelled"
        for player in (ALICE, BOB):
            [entry] = await mm.entries(player.user_id, GUILD)
            assert entry.queued_at == places[player.user_id]
            await mm.cancel(player, GUILD)


async def test_a_place_past_its_day_is_not_matched_before_the_sweep_removes_it(env):
    await queue(env, ALICE)
    env.clock.advance(ENTRY_SECONDS)
    matched_now = await queue(env, BOB)
    assert matched_now.check is None and matched_now.waiting == 1


async def test_a_channel_full_of_games_takes_no_queue(env):
    """Its game could not open there: refused when he queues, nothing changed."""
    for n in range(MAX_OPEN_GAMES_PER_CHANNEL):
        await env.master.lobby.create_game(
            guild_id=GUILD, channel_id=CHANNEL, actor=Actor(500 + n, "P"), ruleset="siege"
        )
    with pytest.raises(GameError, match="already has 25 open games"):
        await queue(env, ALICE)
    assert await env.master.matchmaking.entries(ALICE.user_id, GUILD) == []
