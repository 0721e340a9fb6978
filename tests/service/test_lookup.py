"""Lists of games (``/mygames``, ``/game list``) read each game as it reads alone, in a few statements
for the whole list rather than three per game."""

from __future__ import annotations

import contextlib

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
            execute = conn.execute

            def counting(sql, params=()):
                statements.append(sql)
                return execute(sql, params)

            monkeypatch.setattr(conn, "execute", counting)
            yield conn
            monkeypatch.setattr(conn, "execute", execute)

    monkeypatch.setattr(env.db, "reading", counted)
    listed = await env.master.lookup.games_of(ALICE.user_id, guild_id=GUILD)
    assert listed == alone
    assert len(statements) == 1 + 3  # which games, then their rows, players and orders
    assert [g.id for g in await env.master.lookup.games_of(BOB.user_id)] == [g.id for g in games[:4]]
