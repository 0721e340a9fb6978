"""Lists of games (``/mygames``, ``/game list``) read each game as it reads alone, in a few statements
for the whole list rather than three per game."""

from __future__ import annotations

import contextlib

from service.presenter import Presenter
from service.runtime.workers import CpuPool
from tests.service.conftest import ALICE, BOB, CAROL, GUILD
from tests.service.test_turns import own_cell


async def test_a_list_reads_each_game_as_alone_in_three_statements(env, monkeypatch):
    games = [await env.new_game(ALICE, BOB, seed=n) for n in range(4)] + [await env.new_game(ALICE, CAROL)]
    source, target = own_cell(games[1], ALICE)
    await env.master.play.add_orders(games[1].id, ALICE, f"{source}>{target} 1")
    await env.master.play.submit(games[2].id, BOB)
    alone = [await env.master.games.get_game(game.id) for game in games]

    statements = []
    reading = env.db.reading

    @contextlib.asynccontextmanager
    async def counted():
        async with reading() as conn:
            execute, fetch_each = conn.execute, conn.fetch_each

            def counting(sql, params=()):
                statements.append(sql)
                return execute(sql, params)

            async def counting_each(several):
                statements.extend(sql for sql, _ in several)
                return await fetch_each(several)

            monkeypatch.setattr(conn, "execute", counting)
            monkeypatch.setattr(conn, "fetch_each", counting_each)
            yield conn
            monkeypatch.setattr(conn, "execute", execute)
            monkeypatch.setattr(conn, "fetch_each", fetch_each)

    monkeypatch.setattr(env.db, "reading", counted)
    listed = await env.master.lookup.games_of(ALICE.user_id, guild_id=GUILD)
    assert listed == alone
    assert len(statements) == 1 + 3  # which games, then their rows, players and orders
    assert [g.id for g in await env.master.lookup.games_of(BOB.user_id)] == [g.id for g in games[:4]]


async def test_a_list_without_states_knows_who_acts_and_the_turn_from_each_games_glance(env, monkeypatch):
    """``/mygames`` for a player in two hundred games would otherwise parse two hundred states."""
    games = [await env.new_game(ALICE, BOB, seed=n) for n in range(3)]
    await env.played_a_round(games[0])
    await env.master.play.submit(games[1].id, BOB)
    parsed = {g.id: g for g in await env.master.lookup.games_of(ALICE.user_id)}

    def no_parse(game):
        raise AssertionError(f"game #{game.id}'s state was parsed")

    monkeypatch.setattr(env.master.games, "state_of", no_parse)
    glanced = await env.master.lookup.games_of(ALICE.user_id, parse=False)
    presenter = Presenter(env.master.games, env.master.history, CpuPool(workers=0))
    for game in glanced:
        assert game.state is None and game.row.glance is not None
        assert game.acting_seats == parsed[game.id].acting_seats and game.waiting_seats == parsed[game.id].waiting_seats
        assert presenter.turn_label(game) == presenter.turn_label(parsed[game.id])
    assert "Round 2" in presenter.turn_label(next(g for g in glanced if g.id == games[0].id))


async def test_a_game_stored_without_a_glance_is_listed_from_its_state(env):
    """Rows written before glances, or with one that cannot be read, are parsed as before."""
    game = await env.new_game(ALICE, BOB)
    async with env.db.transaction() as conn:
        await conn.execute("UPDATE games SET glance = NULL WHERE id = ?", (game.id,))
    [listed] = await env.master.lookup.games_of(ALICE.user_id, parse=False)
    assert listed.state is not None and listed.acting_seats == game.acting_seats
    async with env.db.transaction() as conn:
        await conn.execute("UPDATE games SET glance = 'not json' WHERE id = ?", (game.id,))
    [listed] = await env.master.lookup.games_of(ALICE.user_id, parse=False)
    assert listed.state is not None and listed.acting_seats == game.acting_seats
