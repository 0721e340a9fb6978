"""A disk that fills up mid-transaction: the player and the log learn the real cause, nothing is
half-written, and the store works again as soon as there is room."""

from __future__ import annotations

import logging

import pytest

from service.storage.errors import StorageFailure
from tests.service.conftest import ALICE, BOB, fill_disk, free_disk


@pytest.mark.sqlite_only("fills the SQLite file up to its page limit")
async def test_a_full_disk_mid_transaction_reports_itself(env, caplog):
    game = await env.new_game(ALICE, BOB)
    await fill_disk(env.db)
    caplog.set_level(logging.ERROR)
    with pytest.raises(StorageFailure, match="nothing was saved: the bot's disk is full"):
        await env.new_game(ALICE, BOB)
    assert "disk full at" in caplog.text and "cannot rollback" not in caplog.text

    await free_disk(env.db)
    await env.master.play.submit(game.id, ALICE)  # the connection is not left inside a dead transaction
    game = await env.master.games.get_game(game.id)
    assert game.passed_seats == {game.player_of(ALICE.user_id).seat}
