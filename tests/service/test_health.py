"""What an operator's monitoring reads from a bot process (HEALTH_PORT): /healthz is 200 while the
process does its work and 503, saying why, when it does not; /metrics speaks Prometheus's format."""

from __future__ import annotations

import aiohttp
import pytest

from service.clock import ManualClock
from service.models import Actor
from service.runtime import health
from service.runtime.gameservice import GameService
from service.runtime.health import Health
from service.storage.errors import StorageFailure
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD, ListSink


@pytest.fixture
async def served(places):
    service = await GameService.open(places.new(), ListSink(), clock=ManualClock(), sweep_seconds=30)
    runner = await Health(service).serve("127.0.0.1", 0)
    port = runner.addresses[0][1]
    async with aiohttp.ClientSession(f"http://127.0.0.1:{port}") as client:
        yield service, client, port
    await runner.cleanup()
    await service.close()


async def test_a_working_process_is_healthy_and_counts_its_games_and_turns(served):
    service, client, _ = served
    async with client.get("/healthz") as answer:
        assert answer.status == 200 and (await answer.json())["last_sweep_seconds_ago"] == 0
    lobby = service.master.lobby
    game = await lobby.create_game(guild_id=GUILD, channel_id=CHANNEL, actor=ALICE, ruleset="conquest", options={})
    await lobby.join(game.id, BOB)
    await lobby.start_game(game.id, ALICE)
    for actor in (ALICE, BOB):
        await service.master.play.submit(game.id, Actor(actor.user_id))
    await service.sweep()
    async with client.get("/healthz") as answer:
        body = await answer.json()
        assert answer.status == 200 and body["status"] == "ok" and body["last_sweep_seconds_ago"] == 0
    async with client.get("/metrics") as answer:
        text = await answer.text()
    assert answer.headers["Content-Type"].startswith("text/plain; version=")
    for line in ("territory_database_up 1.0", "territory_games_open 1.0", "territory_turns_resolved_total 1.0"):
        assert line in text.splitlines(), text


async def test_the_workers_jobs_are_timed_by_job(served):
    """ "/metrics … acknowledgement and image times, outbox backlog, worker queue" """
    service, client, _ = served
    game = await service.master.lobby.create_game(
        guild_id=GUILD, channel_id=CHANNEL, actor=ALICE, ruleset="conquest", options={}
    )
    await service.master.lobby.join(game.id, BOB)
    game = await service.master.lobby.start_game(game.id, ALICE)
    await service.presenter.board(game)
    await service.presenter.board(game)
    async with client.get("/metrics") as answer:
        lines = (await answer.text()).splitlines()
    assert 'territory_worker_job_seconds_count{job="render_job"} 2.0' in lines, lines
    assert "territory_worker_jobs 0.0" in lines and "territory_acknowledgement_seconds_count 0.0" in lines


async def test_a_stuck_sweep_or_an_unreachable_database_is_a_503_saying_why(served, monkeypatch):
    service, client, _ = served
    await service.sweep()
    service.clock.advance(3 * 30 + 61)
    async with client.get("/healthz") as answer:
        assert answer.status == 503 and (await answer.json())["problem"] == "no sweep for 151 s"

    async def unreachable(conn):
        raise StorageFailure("the database cannot be reached right now")

    monkeypatch.setattr(health.rows, "open_count", unreachable)
    async with client.get("/healthz") as answer:
        assert answer.status == 503 and (await answer.json())["database"] == "unreachable"
    async with client.get("/metrics") as answer:
        lines = (await answer.text()).splitlines()
    assert "territory_database_up 0.0" in lines and not any(line.startswith("territory_games_open") for line in lines)


async def test_a_port_taken_is_a_clear_refusal(served):
    service, _, taken = served
    with pytest.raises(health.HealthPortUnavailable, match=f"cannot serve /healthz on 127.0.0.1:{taken}"):
        await Health(service).serve("127.0.0.1", taken)
