"""Several bot processes on one PostgreSQL database (``service.runtime.claims``): each here is a game master,
an outbox and a store held as a bot's (``hold=BOT``), as a process of its own would have them."""

from __future__ import annotations

import asyncio

import pytest

from service.clock import ManualClock
from service.models import Actor
from service.runtime.claims import FAIRNESS, LEASE_SECONDS, OUTBOX, TOURNAMENT, WAKE
from service.runtime.gameservice import GameService
from service.storage import games as game_rows
from service.storage import tournaments as tournament_rows
from service.storage.games import open_count
from service.storage.instancelock import AlreadyRunning
from service.storage.store import BOT, SOLE, open_store
from tests.service.conftest import ADMIN, ALICE, BOB, CAROL, GUILD, HOUR, Env, ListSink
from tests.service.test_server_maps import shipped_file

pytestmark = pytest.mark.postgresql_only("several bot processes share only a PostgreSQL database")


@pytest.fixture
async def two(places):
    """Two bot processes on one database, with one clock."""
    location, clock = places.new(), ManualClock()
    first = await Env(location, clock, hold=BOT).open()
    second = await Env(location, clock, hold=BOT).open()
    yield first, second
    for process in (first, second):
        await process.db.close()


async def test_bots_share_a_database_and_a_copy_waits_until_none_runs(places):
    location = places.new()
    first = await GameService.open(location, ListSink())
    second = await GameService.open(location, ListSink())
    with pytest.raises(AlreadyRunning, match="a bot is running"):
        await open_store(location, hold=SOLE)
    await first.close()
    await second.close()
    copy = await open_store(location, hold=SOLE)
    with pytest.raises(AlreadyRunning, match="migrate-db"):
        await GameService.open(location, ListSink())
    await copy.close()


async def test_a_deadline_due_in_both_processes_is_planned_and_resolved_by_one(two):
    first, second = two
    game = await first.new_game(ALICE, BOB)
    planned: list[str] = []
    for process in two:
        process.master.games.fault = lambda point: planned.append(point) if point == "planned" else None
    first.clock.advance(HOUR)
    await asyncio.gather(
        first.master.timekeeping.wake(game.id),
        second.master.timekeeping.wake(game.id),
        first.master.timekeeping.sweep(),
        second.master.timekeeping.sweep(),
    )
    assert planned == ["planned"]
    assert await first.count("SELECT COUNT(*) FROM history WHERE game_id = ? AND kind = 'resolve'", game.id) == 1
    assert (await second.master.games.get_game(game.id)).row.turn == 1


async def test_each_post_goes_out_once_and_each_games_posts_in_order(two):
    first, second = two
    games = [await first.new_game(ALICE, BOB, seed=seed) for seed in range(3)]
    for game in games:
        await first.master.timekeeping.pause(game.id, ALICE)
        await first.master.timekeeping.resume(game.id, ALICE)
    pending = await first.outbox.pending_count()
    await asyncio.gather(first.outbox.flush(), second.outbox.flush())
    posted = [a.id for a in first.sink.posted + second.sink.posted]
    assert sorted(posted) == sorted(set(posted)) and len(posted) == pending
    for sink in (first.sink, second.sink):
        for game in games:
            mine = [a.id for a in sink.posted if a.game_id == game.id]
            assert mine == sorted(mine)


async def test_a_dead_processs_lease_is_taken_at_once_and_a_silent_ones_when_it_expires(two, places):
    first, second = two
    assert await first.master.games.claims.take(WAKE, 7)
    assert not await second.master.games.claims.take(WAKE, 7)
    third = await Env(first.location, first.clock, hold=BOT).open()
    assert await third.master.games.claims.take(OUTBOX, 7)
    await third.db.close()  # a process killed: its connection, and so its session, ends with it
    for _ in range(200):  # the server notices the closed connection within moments
        if await second.master.games.claims.take(OUTBOX, 7):
            break
        await asyncio.sleep(0.05)
    else:
        pytest.fail("the lease of a process whose session ended was never taken over")
    first.clock.advance(LEASE_SECONDS - 1)
    assert not await second.master.games.claims.take(WAKE, 7)  # its holder lives and its lease runs
    first.clock.advance(2)
    assert await second.master.games.claims.take(WAKE, 7)  # a silent holder's lease has expired


async def test_each_maps_fairness_is_measured_by_one_process(two, monkeypatch):
    """Every process's sweep measures the maps left unmeasured; a map another holds is left to it, and a
    map whose holder lost its lease mid-way is measured by whoever holds it then."""
    first, second = two
    for process in two:
        process.master.maps.verdict_games = 2
    one = await first.master.maps.upload(GUILD, ALICE, "conquest", shipped_file("conquest", "duel"), "One")
    other = await first.master.maps.upload(GUILD, ALICE, "conquest", shipped_file("conquest", "duel"), "Other")
    assert await first.master.games.claims.take(FAIRNESS, one.id)  # the first is measuring One
    measured = await second.master.maps.measure_next()
    assert measured is not None and measured.id == other.id  # One is left to the first
    assert await second.master.maps.measure_next() is None  # nothing left that no one holds
    assert (await second.master.maps.named(GUILD, "One")).verdict is None

    await first.master.games.claims.release(FAIRNESS, one.id)
    pool, played = first.master.games.pool, first.master.games.pool.run_long

    async def overtaken(*job):  # the first falls silent during a game; the second takes One over
        result = await played(*job)
        first.clock.advance(LEASE_SECONDS + 1)
        assert await second.master.games.claims.take(FAIRNESS, one.id)
        return result

    monkeypatch.setattr(pool, "run_long", overtaken)
    lost = await first.master.maps.measure_next()
    assert lost is not None and lost.id == one.id and lost.verdict is None  # the first stopped
    assert (await first.master.maps.named(GUILD, "One")).verdict is None
    monkeypatch.undo()
    await second.master.games.claims.release(FAIRNESS, one.id)
    assert (await second.master.maps.measure_next()).id == one.id


async def test_a_tournaments_next_round_is_opened_by_one_process(two):
    first, second = two
    cup = await first.master.tournaments.create(
        guild_id=GUILD, channel_id=7, actor=ALICE, ruleset="siege", format="swiss", rounds=2
    )
    await first.master.tournaments.join(cup.id, BOB)
    await first.master.tournaments.start(cup.id, ALICE)
    [table] = await first.master.tournaments.tables(cup.id)
    loser = ALICE if table.seats[1] == ALICE.user_id else BOB
    await first.master.play.surrender(table.game_id, loser)
    assert await first.master.games.claims.take(TOURNAMENT, cup.id)  # the first is opening round 2
    await second.master.tournaments.advance_all()
    assert (await second.master.tournaments.get(cup.id)).round == 1  # left to the first
    await first.master.games.claims.release(TOURNAMENT, cup.id)
    await second.master.tournaments.advance_all()
    assert (await second.master.tournaments.get(cup.id)).round == 2


async def test_queues_are_matched_by_one_process_at_a_time_and_each_check_opens_one_game(two):
    """Four players queue through two processes at once: each is matched once; the two checks'
    last answers, given at once in both processes, each open one game."""
    first, second = two
    players = [ALICE, BOB, CAROL, Actor(4, "Dan")]

    async def queue(process, player):
        return await process.master.matchmaking.join(
            player, guild_id=GUILD, channel_id=7, ruleset="siege", speed="daily", seats=2
        )

    await asyncio.gather(*(queue(process, p) for process, p in zip((first, second, first, second), players)))
    await first.master.matchmaking.sweep()  # whatever a busy lease left unmatched
    checks = [c for c in await first.master.matchmaking.untold()]
    matched = [m.user_id for c in checks for m in (await first.master.matchmaking.check(c.id))[1]]
    assert len(checks) == 2 and sorted(matched) == [1, 2, 3, 4]  # no one twice
    for check in checks:  # each check's two answers given at once, one through each process
        members = (await first.master.matchmaking.check(check.id))[1]
        await asyncio.gather(
            first.master.matchmaking.ready(check.id, Actor(members[0].user_id, members[0].name)),
            second.master.matchmaking.ready(check.id, Actor(members[1].user_id, members[1].name)),
        )
        assert (await first.master.matchmaking.check(check.id))[0].status == "opened"  # no answer lost
    games = {(await first.master.matchmaking.check(c.id))[0].game_id for c in checks}
    assert None not in games and len(games) == 2
    for game_id in games:
        assert (await first.master.games.get_game(game_id)).row.status == "running"
    async with first.db.reading() as conn:
        assert await open_count(conn) == 2  # and no game besides


async def test_a_join_while_another_process_starts_the_tournament_is_paired_or_refused(two, monkeypatch):
    """The join's transaction is slow (held between its check of the sign-up and its entry): the start
    in the other process waits for it, and pairs the player who joined."""
    first, second = two
    cup = await first.master.tournaments.create(
        guild_id=GUILD, channel_id=7, actor=ALICE, ruleset="siege", format="round-robin"
    )
    await first.master.tournaments.join(cup.id, BOB)
    enter = tournament_rows.enter

    async def slow_enter(*args):
        await asyncio.sleep(0.5)
        await enter(*args)

    monkeypatch.setattr(tournament_rows, "enter", slow_enter)
    joining = asyncio.create_task(second.master.tournaments.join(cup.id, CAROL))
    await asyncio.sleep(0.1)  # the join is inside its transaction
    await first.master.tournaments.start(cup.id, ALICE)
    await joining
    entrants = {e.user_id for e in await first.master.tournaments.entrants(cup.id)}
    seated = {user for table in await first.master.tournaments.tables(cup.id) for user in table.seats}
    assert entrants == seated == {ALICE.user_id, BOB.user_id, CAROL.user_id}
    assert (await first.master.tournaments.get(cup.id)).rounds == 3  # the round robin of three


async def test_a_lease_two_tasks_of_a_process_hold_stays_until_both_are_done(two):
    """One task giving the lease back must not free it for another process while a second task of the
    same process still works under it."""
    first, second = two
    claims = first.master.games.claims
    async with claims.holding(TOURNAMENT, 9) as outer:
        async with claims.holding(TOURNAMENT, 9) as inner:
            assert outer and inner
        assert not await second.master.games.claims.take(TOURNAMENT, 9)  # still the first's
    assert await second.master.games.claims.take(TOURNAMENT, 9)


async def test_a_change_made_by_another_process_while_a_turn_is_planned_is_kept(two):
    """The deadline's plan was made before a manager paused the game elsewhere: the plan is made again
    from the paused game, so the pause stands and the turn waits."""
    first, second = two
    game = await first.new_game(ALICE, BOB, CAROL)
    first.clock.advance(HOUR)
    commit = first.master.games._commit

    async def paused_meanwhile(before, plan):
        first.master.games._commit = commit
        await second.master.timekeeping.pause(game.id, ADMIN)
        await commit(before, plan)

    first.master.games._commit = paused_meanwhile
    after = await first.master.timekeeping.wake(game.id)
    assert after.row.paused_at is not None and after.row.turn == 0


async def test_a_language_chosen_through_one_process_reaches_the_others_at_their_sweep(places):
    location, clock = places.new(), ManualClock()
    first = await GameService.open(location, ListSink(), clock=clock)
    second = await GameService.open(location, ListSink(), clock=clock)
    try:
        assert await second.languages.of(GUILD) == "en"
        await first.languages.set(GUILD, "uk", ADMIN)
        await second.sweep()
        assert await second.languages.of(GUILD) == "uk"
    finally:
        await first.close()
        await second.close()


async def test_a_rematch_pressed_in_two_processes_at_once_opens_one_lobby(two, monkeypatch):
    """A mirrored game's Rematch button is in two servers' threads, which two processes may serve."""
    first, second = two
    game = await first.new_game(ALICE, BOB)
    await first.master.play.surrender(game.id, BOB)
    marked = game_rows.mark_rematch

    async def slowly(*args) -> None:  # each transaction holds its new lobby a while before marking it
        await asyncio.sleep(0.2)
        await marked(*args)

    monkeypatch.setattr(game_rows, "mark_rematch", slowly)
    (mine, new_mine), (his, new_his) = await asyncio.gather(
        first.master.lobby.rematch(game.id, ALICE), second.master.lobby.rematch(game.id, BOB)
    )
    assert mine.id == his.id and sorted([new_mine, new_his]) == [False, True]
    async with first.db.reading() as conn:
        assert await open_count(conn) == 1
