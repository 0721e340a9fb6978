"""``bot.py web``: the site's own process, apart from the bots, on the same database (several may run
behind one proxy); it brings the schema up to date as a bot would, and draws boards in its own workers."""

from __future__ import annotations

import asyncio
import logging

from aiohttp import web

from cogs.config import WebConfig
from service.runtime.workers import CpuPool
from service.storage.errors import StoreError, explain
from service.storage.store import described, open_store
from web.site import Site

log = logging.getLogger(__name__)


# The site reads in many small statements (each request's glimpse of its game, a page's rows): one
# reading thread does them faster than several, which contend with the event loop for the interpreter's
# lock at every statement (bench_web, changed pages: 2.6x the static floor with one, 3.5-3.9x with
# four). Its long reads (a server's whole list) are rare.
READERS = 1


class WebPortUnavailable(Exception):
    """WEB_HOST:WEB_PORT cannot be listened on (taken, or no such address here)."""


async def serve(config: WebConfig, stop: asyncio.Event) -> None:
    """Serve the site until ``stop`` is set; raises StoreError or WebPortUnavailable, saying what to fix."""
    if config.database_url is None:
        try:
            config.database.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StoreError(explain(err, config.database)) from err
    db = await open_store(config.store, readers=READERS)
    try:
        await db.migrate()
        pool = CpuPool(config.workers)
        try:
            await asyncio.to_thread(pool.start)
            runner = web.AppRunner(Site(db, pool, public_url=config.public_url).app(), shutdown_timeout=2.0)
            await runner.setup()
            try:
                try:
                    await web.TCPSite(runner, config.host, config.port).start()
                except OSError as err:
                    raise WebPortUnavailable(
                        f"cannot serve the web site on {config.host}:{config.port} ({err.strerror or err}): "
                        "choose another WEB_PORT or WEB_HOST"
                    ) from err
                log.info("web site on http://%s:%d/ (database %s)", config.host, config.port, described(config.store))
                await stop.wait()
            finally:
                await runner.cleanup()
        finally:
            await asyncio.to_thread(pool.close)
    finally:
        await db.close()
