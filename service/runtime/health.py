"""What an operator's monitoring asks a bot process on ``HEALTH_PORT``: ``/healthz`` says whether it
does its work (the database answers, the sweep runs, posts do not pile up), ``/metrics`` gives
Prometheus its figures. Both read the database afresh at each request, so a scrape sees what is."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from service.runtime.gameservice import GameService
from service.storage import games as rows
from service.storage import outbox

log = logging.getLogger(__name__)

BACKLOG_LIMIT = 1000  # posts waiting to go out beyond which the process is not keeping up
SWEEPS_LATE = 3  # sweep periods without a sweep beginning or ending after which the process is stuck
ANSWER_SECONDS = 5.0  # a database slower than this to count a few rows is as good as unreachable here


class HealthPortUnavailable(Exception):
    """HEALTH_HOST:HEALTH_PORT cannot be listened on (taken, or no such address here)."""


@dataclass(frozen=True)
class Figures:
    database_up: bool
    games_open: int = 0
    outbox_backlog: int = 0
    sweep_age: float = 0.0  # seconds since a sweep last began or ended (or the process started)
    turns_resolved: int = 0  # by this process since it started
    problem: str = ""

    @property
    def healthy(self) -> bool:
        return self.database_up and not self.problem


class Health(Collector):
    def __init__(self, service: GameService):
        self.service = service
        self.registry = CollectorRegistry(auto_describe=False)
        self.registry.register(self)
        self.registry.register(service.acknowledgements)
        self.registry.register(service.pool.jobs)
        self._figures = Figures(False)

    async def figures(self) -> Figures:
        service, now = self.service, self.service.clock.now()
        age = now - service.swept_at  # since a sweep last began or ended (or the process started)
        resolved = service.master.games.turns_resolved
        try:
            async with asyncio.timeout(ANSWER_SECONDS):
                async with service.db.reading() as conn:
                    games_open = await rows.open_count(conn)
                backlog = await outbox.pending_count(service.db)
        except Exception as err:  # noqa: BLE001 - whatever the database does, the answer is "unreachable"
            log.warning("health check: the database did not answer: %r", err)
            return Figures(False, sweep_age=age, turns_resolved=resolved, problem=f"database: {err!r}")
        late = SWEEPS_LATE * service.sweep_seconds + 60
        problem = (
            f"{backlog} posts waiting (more than {BACKLOG_LIMIT})"
            if backlog > BACKLOG_LIMIT
            else f"no sweep for {age:.0f} s"
            if age is not None and age > late
            else ""
        )
        return Figures(True, games_open, backlog, age, resolved, problem)

    def collect(self) -> Iterator[Metric]:
        figures = self._figures
        yield GaugeMetricFamily(
            "territory_database_up", "1 if the database answered the last scrape", figures.database_up
        )
        if figures.database_up:  # unknown, not 0, while it does not answer
            yield GaugeMetricFamily("territory_games_open", "Games in a lobby or running", figures.games_open)
            yield GaugeMetricFamily(
                "territory_outbox_backlog", "Posts waiting to go out to Discord", figures.outbox_backlog
            )
        yield CounterMetricFamily(
            "territory_turns_resolved", "Turns this process resolved since it started", figures.turns_resolved
        )
        yield GaugeMetricFamily(
            "territory_sweep_age_seconds", "Seconds since a sweep last began or ended", figures.sweep_age
        )

    async def healthz(self, request: web.Request) -> web.Response:
        figures = await self.figures()
        body = {
            "status": "ok" if figures.healthy else "failing",
            "database": "ok" if figures.database_up else "unreachable",
            "outbox_backlog": figures.outbox_backlog,
            "last_sweep_seconds_ago": round(figures.sweep_age, 1),
            "problem": figures.problem or None,
        }
        return web.Response(
            text=json.dumps(body), status=200 if figures.healthy else 503, content_type="application/json"
        )

    async def metrics(self, request: web.Request) -> web.Response:
        self._figures = await self.figures()
        return web.Response(body=generate_latest(self.registry), headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def serve(self, host: str, port: int) -> web.AppRunner:
        """Listen on ``host``:``port``; the runner's ``cleanup`` stops it."""
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.metrics)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)  # within the bot's few seconds to stop
        await runner.setup()
        try:
            await web.TCPSite(runner, host, port).start()
        except OSError as err:
            await runner.cleanup()
            raise HealthPortUnavailable(
                f"cannot serve /healthz on {host}:{port} ({err.strerror or err}): choose another HEALTH_PORT "
                "(each process its own) or HEALTH_HOST"
            ) from err
        log.info("health and metrics on http://%s:%d/healthz and /metrics", host, port)
        return runner
