"""No command waits behind another player's read: reads run beside each other and beside a write, each
over one snapshot of the database, and none of them can write."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from tests.service.conftest import ALICE, BOB

LIVENESS = 30.0  # seconds: far beyond any read; only a read queued behind the held one takes this long


async def read_while_open(env, game_id, opened, inside=None):
    """A game read made while another task holds ``opened()`` open (having run ``inside`` in it)."""
    held, release = asyncio.Event(), asyncio.Event()

    async def holder():
        async with opened() as conn:
            if inside is not None:
                await inside(conn)
            held.set()
            await release.wait()

    holding = asyncio.create_task(holder())
    await held.wait()
    try:
        return await asyncio.wait_for(env.master.games.get_game(game_id), LIVENESS)
    finally:
        release.set()
        await holding


async def test_a_game_is_read_while_another_read_is_held_open(env):
    game = await env.new_game(ALICE, BOB)
    assert (await read_while_open(env, game.id, env.db.reading)).id == game.id


async def test_a_game_is_read_while_a_write_is_open(env):
    game = await env.new_game(ALICE, BOB)

    async def touch(conn):
        await conn.execute("UPDATE games SET updated_at = updated_at WHERE id = ?", (game.id,))

    read = await read_while_open(env, game.id, env.db.transaction, touch)
    assert read.row.version == game.row.version


async def test_a_read_sees_one_snapshot_and_the_next_read_sees_the_commit(env):
    game = await env.new_game(ALICE, BOB)
    query = "SELECT version FROM games WHERE id = ?"
    async with env.db.reading() as conn:
        (before,) = await (await conn.execute(query, (game.id,))).fetchone()
        await env.master.play.submit(game.id, ALICE)  # committed by the writer meanwhile
        (during,) = await (await conn.execute(query, (game.id,))).fetchone()
        ((with_others,),), _ = await conn.fetch_each([(query, (game.id,)), (query, (game.id,))])
    async with env.db.reading() as conn:
        (after,) = await (await conn.execute(query, (game.id,))).fetchone()
    assert before == during == with_others < after


@pytest.mark.sqlite_only("SQLite's readers are connections of their own, made unable to write")
async def test_a_write_that_strays_into_a_read_fails_at_once(env):
    game = await env.new_game(ALICE, BOB)
    async with env.db.reading() as conn:
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            await conn.execute("UPDATE games SET seq = seq + 1 WHERE id = ?", (game.id,))
    assert (await env.master.games.get_game(game.id)).row.seq == game.row.seq


@pytest.mark.sqlite_only("a SQLite reader cancelled mid-read goes back to the pool")
async def test_a_cancelled_read_leaves_its_reader_fit_for_the_next(env):
    game = await env.new_game(ALICE, BOB)
    held = asyncio.Event()

    async def abandoned():
        async with env.db.reading() as conn:
            await conn.execute("SELECT 1")  # its transaction begun
            held.set()
            await asyncio.Event().wait()

    task = asyncio.create_task(abandoned())
    await held.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    for _ in range(10):  # every reader of the pool, the cancelled one among them
        assert (await env.master.games.get_game(game.id)).id == game.id
