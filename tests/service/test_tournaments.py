""" "Tournaments … each round's games are created automatically …, pairings by the format's rules …,
tiebreaks, withdrawals and forfeits for games never started … Restart-safe" — a tournament run by the
game master against a real database, its games ended by surrender."""

from __future__ import annotations

import pytest

from service.errors import GameError, NotAllowed, WrongPhase
from service.models import FINISHED, Actor
from service.ops.tournaments import POOLS, ROUND_ROBIN, SWISS
from service.storage.games import open_count
from service.storage.tournaments import RUNNING
from tests.service.conftest import ADMIN, ALICE, GUILD

SEVEN = [ALICE, *(Actor(100 + n, f"Player {n}") for n in range(6))]


async def finish_round(env, tournament_id: int) -> None:
    """Every game of the round in hand ends: at each table all but its first seat surrender, last first."""
    t = await env.master.tournaments.get(tournament_id)
    names = {e.user_id: e.name for e in await env.master.tournaments.entrants(tournament_id)}
    for table in await env.master.tournaments.tables(tournament_id):
        if table.round == t.round and table.points is None and table.game_id is not None:
            for loser in reversed(table.seats[1:]):
                await env.master.play.surrender(table.game_id, Actor(loser, names[loser]))


async def test_a_swiss_tournament_of_seven_runs_three_rounds_to_its_standings(env):
    tournaments = env.master.tournaments
    t = await tournaments.create(guild_id=GUILD, channel_id=7, actor=ALICE, ruleset="fortress", format=SWISS, rounds=3)
    for player in SEVEN[1:]:
        await tournaments.join(t.id, player)
    with pytest.raises(GameError, match="already in tournament"):
        await tournaments.join(t.id, SEVEN[1])
    with pytest.raises(NotAllowed, match="creator or a server manager"):
        await tournaments.start(t.id, SEVEN[1])
    await tournaments.start(t.id, ALICE)
    with pytest.raises(WrongPhase, match="has started: its sign-up is closed"):
        await tournaments.join(t.id, Actor(999, "Late"))

    first = [table for table in await tournaments.tables(t.id) if table.round == 1]
    assert sorted(len(table.seats) for table in first) == [1, 2, 2, 2]  # three games and a bye
    for table in first:
        if table.game_id is not None:
            game = await env.master.games.get_game(table.game_id)
            assert game.row.status == "running" and [
                p.user_id for p in sorted(game.players, key=lambda p: p.seat)
            ] == list(table.seats)
    await finish_round(env, t.id)
    await tournaments.advance(t.id)

    second = [table for table in await tournaments.tables(t.id) if table.round == 2]
    assert len(second) == 4
    [bye_one] = [table.seats[0] for table in first if len(table.seats) == 1]
    [bye_two] = [table.seats[0] for table in second if len(table.seats) == 1]
    assert bye_two != bye_one  # never twice to one player
    met = {frozenset(table.seats) for table in first if len(table.seats) == 2}
    assert not any(frozenset(table.seats) in met for table in second)  # no repeat pairing

    withdrawn = next(table.seats[0] for table in second if len(table.seats) == 2)
    await tournaments.leave(t.id, Actor(withdrawn, "x"))  # his game in hand is lost; paired no more
    await finish_round(env, t.id)
    env.clock.advance(60)
    await env.restart()  # restart-safe: the next round opens from what is stored
    await env.master.tournaments.advance(t.id)
    tournaments = env.master.tournaments
    third = [table for table in await tournaments.tables(t.id) if table.round == 3]
    assert withdrawn not in {user for table in third for user in table.seats}
    assert sorted(len(table.seats) for table in third) == [2, 2, 2]  # six left: no bye
    await finish_round(env, t.id)
    await tournaments.advance(t.id)
    done = await tournaments.get(t.id)
    assert done.status == FINISHED and done.round == 3

    table = await tournaments.standings(t.id)
    points = [p.points for p in table]
    assert points == sorted(points, reverse=True) and sum(points) == 3 + 1 + 3 + 1 + 3  # 9 games and 2 byes
    for game_table in await tournaments.tables(t.id):
        if game_table.game_id is not None:
            game = await env.master.games.get_game(game_table.game_id)
            assert game.row.status == "finished" and game.row.rated  # rated as any game


async def test_a_withdrawn_players_game_not_yet_started_is_a_forfeit(env):
    """A round robin fixes its schedule at the start: a table with a withdrawn member is not played."""
    tournaments = env.master.tournaments
    players = SEVEN[:3]
    t = await tournaments.create(guild_id=GUILD, channel_id=7, actor=ALICE, ruleset="siege", format=ROUND_ROBIN)
    for player in players[1:]:
        await tournaments.join(t.id, player)
    await tournaments.start(t.id, ALICE)
    assert (await tournaments.get(t.id)).rounds == 3
    await tournaments.leave(t.id, players[2])  # withdrawn in round 1: his game (or bye) is decided
    await finish_round(env, t.id)
    await tournaments.advance(t.id)
    later = [table for table in await tournaments.tables(t.id) if table.round > 1 and players[2].user_id in table.seats]
    for table in later:
        if len(table.seats) == 2:
            assert table.game_id is None and table.points[players[2].user_id] == 0.0  # a forfeit, no game
            other = next(u for u in table.seats if u != players[2].user_id)
            assert table.points[other] == 1.0


async def test_pools_seat_multiplayer_tables_by_points(env):
    tournaments = env.master.tournaments
    t = await tournaments.create(guild_id=GUILD, channel_id=7, actor=ALICE, ruleset="conquest", format=POOLS, rounds=2)
    for player in SEVEN[1:]:
        await tournaments.join(t.id, player)
    await tournaments.start(t.id, ALICE)
    first = [table for table in await tournaments.tables(t.id) if table.round == 1]
    assert sorted(len(table.seats) for table in first) == [3, 4]  # seven at tables of 3 to 6, as even as they go
    await finish_round(env, t.id)
    await tournaments.advance(t.id)
    assert (await tournaments.get(t.id)).status == RUNNING
    standings = await tournaments.standings(t.id)
    assert [p.points for p in standings] == sorted((p.points for p in standings), reverse=True)
    second = [table for table in await tournaments.tables(t.id) if table.round == 2]
    first_table = next(table for table in second if table.board == 1)
    best = [p.entrant.user_id for p in standings[: len(first_table.seats)]]
    assert set(first_table.seats) == set(best)  # the leaders sit together


async def test_bad_requests_are_refused_and_change_nothing(env):
    tournaments = env.master.tournaments
    with pytest.raises(GameError, match="pools seat three or more a table; Siege takes two"):
        await tournaments.create(guild_id=GUILD, channel_id=7, actor=ALICE, ruleset="siege", format=POOLS, rounds=3)
    with pytest.raises(GameError, match="a tournament is swiss, round-robin, pools, not 'knockout'"):
        await tournaments.create(guild_id=GUILD, channel_id=7, actor=ALICE, ruleset="siege", format="knockout")
    with pytest.raises(GameError, match="1 to 20 rounds"):
        await tournaments.create(guild_id=GUILD, channel_id=7, actor=ALICE, ruleset="siege", format=SWISS, rounds=0)
    t = await tournaments.create(guild_id=GUILD, channel_id=7, actor=ALICE, ruleset="siege", format=SWISS, rounds=2)
    with pytest.raises(GameError, match="needs 2 players to start; it has 1"):
        await tournaments.start(t.id, ADMIN)
    with pytest.raises(GameError, match="not in tournament"):
        await tournaments.leave(t.id, SEVEN[3])
    assert [e.user_id for e in await tournaments.entrants(t.id)] == [ALICE.user_id]


async def test_a_game_opened_before_a_stop_is_taken_up_where_it_was(env, monkeypatch):
    """The process stops after a round's game is opened and before it starts: the next advance starts it,
    and opens no second game for the table."""
    tournaments = env.master.tournaments
    t = await tournaments.create(guild_id=GUILD, channel_id=7, actor=ALICE, ruleset="siege", format=SWISS, rounds=1)
    await tournaments.join(t.id, SEVEN[1])
    started = env.master.lobby.start_game

    async def stopped(*args, **kwargs):
        raise ConnectionError("the process stopped here")

    monkeypatch.setattr(env.master.lobby, "start_game", stopped)
    await tournaments.start(t.id, ALICE)  # the failure is logged; the table waits for the next advance
    [table] = await tournaments.tables(t.id)
    assert (await env.master.games.get_game(table.game_id)).row.status == "lobby"
    monkeypatch.setattr(env.master.lobby, "start_game", started)
    await tournaments.advance(t.id)
    [again] = await tournaments.tables(t.id)
    assert again.game_id == table.game_id
    game = await env.master.games.get_game(table.game_id)
    assert game.row.status == "running" and [p.user_id for p in sorted(game.players, key=lambda p: p.seat)] == list(
        table.seats
    )


async def test_a_player_cannot_manage_his_own_game_and_a_cancelled_one_is_a_draw(env):
    """The tournament's games are run by its organiser: a player neither cancels nor kicks in his own
    game (he would win by it); a game the organiser or a manager cancels counts as a draw."""
    tournaments, bob, carol = env.master.tournaments, SEVEN[1], SEVEN[2]
    t = await tournaments.create(guild_id=GUILD, channel_id=7, actor=ALICE, ruleset="siege", format=SWISS, rounds=1)
    for player in (bob, carol):
        await tournaments.join(t.id, player)
    await tournaments.start(t.id, ALICE)
    [game_table] = [table for table in await tournaments.tables(t.id) if len(table.seats) == 2]
    seat_zero = next(p for p in SEVEN if p.user_id == game_table.seats[0])
    seat_one = next(p for p in SEVEN if p.user_id == game_table.seats[1])
    with pytest.raises(NotAllowed):
        await env.master.lobby.cancel(game_table.game_id, seat_zero)
    game = await env.master.games.get_game(game_table.game_id)
    with pytest.raises(NotAllowed):
        await env.master.lobby.kick(game.id, seat_zero, game.player_of(seat_one.user_id).id)
    await env.master.lobby.cancel(game_table.game_id, ADMIN)
    await tournaments.advance(t.id)  # scores the cancelled game
    await tournaments.advance(t.id)  # the round is over: so is the tournament
    [scored] = [table for table in await tournaments.tables(t.id) if table.game_id == game_table.game_id]
    assert scored.points == {seat_zero.user_id: 0.5, seat_one.user_id: 0.5}
    assert (await tournaments.get(t.id)).status == FINISHED


async def test_another_servers_tournament_is_none_of_this_ones(env):
    tournaments = env.master.tournaments
    t = await tournaments.create(guild_id=GUILD, channel_id=7, actor=ALICE, ruleset="siege", format=SWISS, rounds=1)
    with pytest.raises(GameError, match="there is no tournament #"):
        await tournaments.join(t.id, SEVEN[1], GUILD + 1)
    with pytest.raises(GameError, match="there is no tournament #"):
        await tournaments.start(t.id, ADMIN, GUILD + 1)
    await tournaments.join(t.id, SEVEN[1], GUILD)
    assert len(await tournaments.entrants(t.id)) == 2


async def test_pools_that_fit_no_tables_are_refused_at_the_start(env):
    """Ranks seats three or four at a table: five players fit none."""
    tournaments = env.master.tournaments
    t = await tournaments.create(guild_id=GUILD, channel_id=7, actor=ALICE, ruleset="ranks", format=POOLS, rounds=1)
    for player in SEVEN[1:5]:
        await tournaments.join(t.id, player)
    with pytest.raises(GameError, match="5 players cannot sit at tables of Ranks"):
        await tournaments.start(t.id, ALICE)
    assert (await tournaments.get(t.id)).status == "signup"


async def test_a_tournament_starts_by_itself_at_its_start_time_or_is_called_off(env):
    """ "sign-up with … a start time": at it the sweep starts the tournament, or cancels one that
    cannot start (too few players), and its post says so."""
    tournaments = env.master.tournaments
    at = env.clock.now() + 3600
    full = await tournaments.create(
        guild_id=GUILD, channel_id=7, actor=ALICE, ruleset="siege", format=SWISS, rounds=1, starts_at=at
    )
    await tournaments.join(full.id, SEVEN[1])
    alone = await tournaments.create(
        guild_id=GUILD, channel_id=7, actor=ALICE, ruleset="siege", format=SWISS, rounds=1, starts_at=at
    )
    await tournaments.start_due()
    assert (await tournaments.get(full.id)).status == "signup"  # not yet
    env.clock.advance(3600)
    await tournaments.start_due()
    started = await tournaments.get(full.id)
    assert started.status == RUNNING and started.round == 1
    [table] = await tournaments.tables(full.id)
    assert (await env.master.games.get_game(table.game_id)).row.status == "running"
    assert (await tournaments.get(alone.id)).status == "cancelled"
    assert {(t.id, t.due) for t in await tournaments.untold()} == {(full.id, 1), (alone.id, 1)}


async def test_only_its_organiser_cancels_a_tournament_and_only_before_its_start(env):
    tournaments = env.master.tournaments
    t = await tournaments.create(guild_id=GUILD, channel_id=7, actor=ALICE, ruleset="siege", format=SWISS, rounds=1)
    await tournaments.join(t.id, SEVEN[1])
    with pytest.raises(NotAllowed, match="creator or a server manager"):
        await tournaments.cancel(t.id, SEVEN[1])
    assert (await tournaments.get(t.id)).status == "signup"
    await tournaments.start(t.id, ALICE)
    with pytest.raises(WrongPhase, match="has started"):
        await tournaments.cancel(t.id, ALICE)
    with pytest.raises(WrongPhase, match="has started"):
        await tournaments.join(t.id, SEVEN[2])


async def test_each_round_and_the_end_are_told_once_with_the_standings_before_them(env):
    """ "a standings image after each round, and a final post": post k tells round k's tables and the
    standings after round k - 1, each round's result per player; the last one the final standings."""
    tournaments = env.master.tournaments
    t = await tournaments.create(guild_id=GUILD, channel_id=7, actor=ALICE, ruleset="siege", format=SWISS, rounds=2)
    for player in SEVEN[1:3]:
        await tournaments.join(t.id, player)
    assert await tournaments.untold() == []  # in sign-up: nothing to tell
    await tournaments.start(t.id, ALICE)
    [due] = await tournaments.untold()
    assert due.due == 1 and due.told == 0
    first = await tournaments.news(t.id, 1)
    assert len(first.tables) == 2 and not first.over
    assert all(p.rounds == () for p in first.standings)  # nothing played before round 1
    for table in first.tables:
        if table.game_id is not None:
            game = await env.master.games.get_game(table.game_id)
            assert game.row.tournament == (t.id, 1)  # marked as the tournament's
    await tournaments.told(t.id, 1)
    assert await tournaments.untold() == []
    await tournaments.told(t.id, 0)  # an older post told late: nothing moves back
    assert (await tournaments.get(t.id)).told == 1

    await finish_round(env, t.id)
    await tournaments.advance(t.id)
    second = await tournaments.news(t.id, 2)
    assert [table.round for table in second.tables] == [2, 2]
    by_user = {p.entrant.user_id: p for p in second.standings}
    [bye] = [table.seats[0] for table in first.tables if len(table.seats) == 1]
    assert by_user[bye].rounds[0].bye and by_user[bye].rounds[0].points == 1.0
    assert sorted(p.rounds[0].points for p in second.standings) == [0.0, 1.0, 1.0]

    await finish_round(env, t.id)
    await tournaments.advance(t.id)
    [due] = await tournaments.untold()
    assert (due.told, due.due) == (1, 3)  # round 2 and the end still to tell
    final = await tournaments.news(t.id, 3)
    assert final.over and final.tables == []
    assert [len(p.rounds) for p in final.standings] == [2, 2, 2]
    assert final.standings[0].points == max(p.points for p in final.standings)


async def test_a_players_record_counts_his_tournaments_wins_and_games(env):
    """ "Tournament games are … marked as tournament games in … /stats": a player's tournaments."""
    tournaments = env.master.tournaments
    t = await tournaments.create(guild_id=GUILD, channel_id=7, actor=ALICE, ruleset="siege", format=SWISS, rounds=1)
    await tournaments.join(t.id, SEVEN[1])
    await tournaments.start(t.id, ALICE)
    [table] = await tournaments.tables(t.id)
    winner, loser = table.seats
    await finish_round(env, t.id)  # the second seat surrenders
    await tournaments.advance(t.id)
    assert await tournaments.record(winner) == (1, 1, 1, 1.0)
    assert await tournaments.record(loser) == (1, 0, 1, 0.0)
    assert await tournaments.record(loser, GUILD + 1) == (0, 0, 0, 0.0)  # another server's: none
    assert await tournaments.record(SEVEN[5].user_id) == (0, 0, 0, 0.0)


async def test_a_withdrawal_between_the_pairing_and_the_opening_is_a_forfeit_not_a_game(env, monkeypatch):
    """The player withdraws after his table is paired and before its game is made: no game starts
    with him in it (the game's making sees the withdrawal and is undone), and the table is a forfeit."""
    tournaments = env.master.tournaments
    t = await tournaments.create(guild_id=GUILD, channel_id=7, actor=ALICE, ruleset="siege", format=SWISS, rounds=1)
    await tournaments.join(t.id, SEVEN[1])
    opening = tournaments._open

    async def withdrawn_first(t_now, table, entered):
        monkeypatch.setattr(tournaments, "_open", opening)
        await tournaments.leave(t.id, SEVEN[1])
        await opening(t_now, table, entered)

    monkeypatch.setattr(tournaments, "_open", withdrawn_first)
    await tournaments.start(t.id, ALICE)
    [table] = await tournaments.tables(t.id)
    assert table.game_id is None and table.points is None  # not made: the next advance decides it
    await tournaments.advance(t.id)
    [table] = await tournaments.tables(t.id)
    assert table.game_id is None and table.points == {ALICE.user_id: 1.0, SEVEN[1].user_id: 0.0}
    async with env.db.reading() as conn:
        assert await open_count(conn) == 0  # no game was left behind
