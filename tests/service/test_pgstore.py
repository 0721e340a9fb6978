"""What only the PostgreSQL store has: its placeholders, and a server that goes away mid-transaction
(several bots on one database: ``test_processes``)."""

from __future__ import annotations

import logging
import urllib.parse

import pytest

from service.storage.errors import StorageFailure, StoreError
from service.storage.postgresql import numbered
from service.storage.store import open_store
from tests.service.conftest import ALICE, BOB, admin, blocking

pytestmark = pytest.mark.postgresql_only("the PostgreSQL store's own behaviour")


def test_placeholders_are_numbered_outside_quoted_text(store):
    sql = "SELECT ? FROM t WHERE a = '?' AND \"b?\" = ? AND c = 'it''s ?' OR d = ?"
    assert numbered(sql) == "SELECT $1 FROM t WHERE a = '?' AND \"b?\" = $2 AND c = 'it''s ?' OR d = $3"


async def test_an_unreachable_server_is_named_without_its_password(places, tmp_path):
    with pytest.raises(
        StoreError, match=r"cannot use the PostgreSQL database postgresql://bot:\*\*\*@/games"
    ) as refusal:
        await open_store(f"postgresql://bot:secret@/games?host={tmp_path}")
    assert "secret" not in str(refusal.value)


async def test_a_connection_lost_mid_transaction_saves_nothing_and_the_next_change_works(
    env, postgresql_cluster, caplog
):
    game = await env.new_game(ALICE, BOB)
    database = urllib.parse.urlsplit(env.location).path.lstrip("/")

    def server_drops_us(point: str) -> None:
        if point == "in_transaction":
            blocking(
                admin(
                    postgresql_cluster,
                    "postgres",
                    f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{database}'",
                )
            )

    env.master.games.fault = server_drops_us
    caplog.set_level(logging.ERROR)
    with pytest.raises(StorageFailure, match="the database cannot be reached right now and nothing was saved"):
        await env.master.play.submit(game.id, ALICE)
    env.master.games.fault = lambda point: None
    assert (await env.master.games.get_game(game.id)).passed_seats == frozenset()
    await env.master.play.submit(game.id, ALICE)
    assert (await env.master.games.get_game(game.id)).passed_seats == {game.player_of(ALICE.user_id).seat}
