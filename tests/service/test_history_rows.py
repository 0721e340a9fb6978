"""History rows are stored as changes to the row before (service.storage.packing): whatever was
written reads back exactly, from any row, across keyframes, after rows of the older formats, and a
damaged row is reported as such."""

from __future__ import annotations

import json
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.storage import history
from service.storage.errors import DamagedHistory
from service.storage.packing import KEYFRAME, text
from service.turns import HistoryRow
from tests.service.conftest import ALICE, BOB

values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
rows = st.builds(
    HistoryRow,
    kind=st.sampled_from(["resolve", "remove"]),
    turn=st.integers(0, 500),
    payload=st.dictionaries(st.text(max_size=6), values, max_size=4),
    events=st.lists(values, max_size=4),
    state_after=st.dictionaries(st.text(max_size=6), values, max_size=6),
)


async def written(env, game_id: int, entries: list[HistoryRow], *, batches: int) -> int:
    """Append ``entries`` after the game's last row, in ``batches`` transactions; returns the first seq."""
    async with env.db.reading() as conn:
        first = (await history.entries(conn, game_id))[-1].seq + 1
    size = max(1, -(-len(entries) // batches))
    for start in range(0, len(entries), size):
        async with env.db.transaction() as conn:
            await history.append(conn, game_id, first + start, entries[start : start + size], now=0.0)
    return first


def same(entry: history.Entry, row: HistoryRow) -> bool:
    return (
        entry.kind,
        entry.turn,
        json.loads(entry.payload),
        json.loads(entry.events),
        json.loads(entry.state_after),
    ) == (
        row.kind,
        row.turn,
        row.payload,
        row.events,
        row.state_after,
    )


@pytest.mark.sqlite_only("the rows are the same bytes in both stores; the other tests here run on both")
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entries=st.lists(rows, min_size=1, max_size=2 * KEYFRAME + 3), batches=st.integers(1, 4))
async def test_every_row_reads_back_as_written_whichever_row_is_read(env, entries, batches):
    game = await env.new_game(ALICE, BOB)
    first = await written(env, game.id, entries, batches=batches)
    async with env.db.reading() as conn:
        stored = await history.entries(conn, game.id)
        assert all(same(e, row) for e, row in zip(stored[first:], entries, strict=True))
        for seq in range(first, first + len(entries)):  # one row alone, decoded from its keyframe
            assert json.loads(await history.state_after(conn, game.id, seq)) == entries[seq - first].state_after


@pytest.mark.sqlite_only("only SQLite databases held history as JSON text; migrate-db deflates it on the way")
async def test_rows_of_the_older_formats_are_the_base_of_the_rows_after_them(env):
    """Rows written before deltas hold plain JSON text or stand-alone deflated JSON; a game that goes
    on appends changes to them."""
    game = await env.new_game(ALICE, BOB)
    async with env.db.transaction() as conn:
        await conn.execute(
            "UPDATE history SET payload = ?, events = ?, state_after = ? WHERE game_id = ? AND seq = 0",
            ('{"setup": true}', zlib.compress(text([{"kind": "old"}])), json.dumps({"cells": [1, 2, 3]}), game.id),
        )
    entries = [HistoryRow("resolve", t, {"orders": {"0": "A1>B1"}}, [{"t": t}], {"cells": [1, 2, t]}) for t in range(3)]
    first = await written(env, game.id, entries, batches=3)
    async with env.db.reading() as conn:
        stored = await history.entries(conn, game.id)
    assert json.loads(stored[0].events) == [{"kind": "old"}] and json.loads(stored[0].state_after) == {
        "cells": [1, 2, 3]
    }
    assert all(same(e, row) for e, row in zip(stored[first:], entries, strict=True))


async def test_most_rows_store_only_what_changed(env):
    game = await env.new_game(ALICE, BOB)
    board = {f"cell{n}": {"owner": n % 3, "units": n} for n in range(300)}
    entries = [HistoryRow("resolve", t, {}, [], {**board, "cell7": {"owner": 1, "units": t}}) for t in range(KEYFRAME)]
    first = await written(env, game.id, entries, batches=1)
    async with env.db.reading() as conn:
        async with conn.execute("SELECT seq, state_after FROM history WHERE game_id = ?", (game.id,)) as cursor:
            sizes = {seq: len(stored) for seq, stored in await cursor.fetchall() if seq >= first}
    keyframes = [seq for seq in sizes if seq % KEYFRAME == 0]
    assert keyframes and all(sizes[seq] * 5 < sizes[keyframes[0]] for seq in sizes if seq > first and seq % KEYFRAME)


async def test_a_damaged_row_is_reported_with_its_game_and_entry(env):
    game = await env.new_game(ALICE, BOB)
    entries = [HistoryRow("resolve", t, {}, [], {"units": list(range(t, t + 50))}) for t in range(4)]
    first = await written(env, game.id, entries, batches=1)
    damaged = first + 1 if (first + 1) % KEYFRAME else first + 2
    async with env.db.transaction() as conn:
        await conn.execute(
            "UPDATE history SET state_after = ? WHERE game_id = ? AND seq = ?",
            (b"\x78\xbb" + b"\0" * 9, game.id, damaged),
        )
    async with env.db.reading() as conn:
        with pytest.raises(DamagedHistory, match=f"history of game #{game.id} is damaged at entry {damaged}"):
            await history.state_after(conn, game.id, damaged)
        assert (
            json.loads(await history.state_after(conn, game.id, damaged - 1))
            == entries[damaged - 1 - first].state_after
        )
