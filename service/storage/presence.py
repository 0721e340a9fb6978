"""Who holds a PostgreSQL database: bots share it, a copy by ``migrate-db`` must have it alone (else it
misses what a bot writes meanwhile), and each must see the other however the server fares.

Each holder keeps a row in ``presence`` (who, how it holds, until when), renewed every ``BEAT_SECONDS``
and counting until it expires, ``LEASE_SECONDS`` after its renewal: a row outlives a restart of the
server, a failover or a dropped connection, which a session's advisory lock does not. A holder that
closes deletes its row; one that is killed counts until its row expires.

A holder writes only while it is sure its row still counts: until ``TRUSTED_SECONDS`` after its last
renewal began (before the row expires, with room for a transaction under way); later it must renew
first. So a copy that starts once a silent bot's row has expired misses none of its writes: the bot,
finding the copy when it renews, refuses its changes until the copy ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

import asyncpg

from service.storage.base import BOT, SOLE, process_name
from service.storage.errors import unreachable
from service.storage.instancelock import AlreadyRunning

log = logging.getLogger(__name__)

# Taken while a holder looks at the rows and writes its own: any fixed number but the migrations' lock
# (service.storage.postgresql) and the one older bots held for the whole session.
PRESENCE_LOCK = 0x7465727269746F74
LEASE_SECONDS = 30.0
BEAT_SECONDS = 5.0
TRUSTED_SECONDS = 20.0
CONNECT_SECONDS = 10.0


class Presence:
    """One holder's row and the connection that renews it."""

    def __init__(self, url: str, hold: str, where: str):
        if hold not in (BOT, SOLE):
            raise ValueError(f"unknown hold {hold!r}")
        self.url, self.hold, self.where = url, hold, where
        self.holder = process_name()
        self.conn: asyncpg.Connection | None = None
        self.session: int | None = None  # the renewing connection's server process (leases name it)
        self.trusted_until = 0.0  # time.monotonic() until which this holder may write
        self._refused_by: str | None = None
        self._renewing = asyncio.Lock()  # the beat and a write that found its trust lapsed share one connection
        self._beating: asyncio.Task | None = None

    @classmethod
    async def take(cls, url: str, hold: str, where: str) -> Presence:
        """Our row, unless a holder that excludes us is present (AlreadyRunning says which); then renewed
        until ``release``."""
        taken = cls(url, hold, where)
        try:
            conn = await taken._connected()
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1)", PRESENCE_LOCK)
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS presence (holder TEXT PRIMARY KEY, hold TEXT NOT NULL, "
                    "expires_at TIMESTAMPTZ NOT NULL)"
                )
            refused_by = await taken._claim()
            if refused_by is not None:
                raise AlreadyRunning(taken._refusal(refused_by))
        except BaseException:
            await taken.release()
            raise
        taken._beating = asyncio.get_running_loop().create_task(taken._beat())
        return taken

    async def confirm(self) -> None:
        """Raise the player's StorageFailure unless this holder may write now; once its trust has lapsed
        (the server was away, or the process stalled), it renews first rather than wait for its beat."""
        if time.monotonic() >= self.trusted_until:
            await self.renew()
        if time.monotonic() >= self.trusted_until:
            raise unreachable()

    async def renew(self) -> None:
        """Renew our row (on a new connection if the server dropped ours); logged when it changes whether
        we may write."""
        try:
            async with self._renewing:
                refused_by = await self._claim()
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as err:
            log.warning("cannot renew this process's presence on %s: %s", self.where, err)
            return
        if refused_by != self._refused_by:
            if refused_by is None:
                log.warning("this process holds %s again: its changes are saved again", self.where)
            else:
                log.error("%s; meanwhile this process saves no change", self._refusal(refused_by))
        self._refused_by = refused_by

    async def release(self) -> None:
        """Stop renewing and delete our row: a copy may start at once."""
        if self._beating is not None:
            self._beating.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._beating
        if self.conn is None:
            return  # never connected: there is no row
        try:
            conn = await self._connected()
            await conn.execute("DELETE FROM presence WHERE holder = $1", self.holder)
            await conn.close(timeout=CONNECT_SECONDS)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as err:
            log.warning("cannot delete this process's presence on %s (it expires by itself): %s", self.where, err)
            self.conn.terminate()

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(BEAT_SECONDS)
            await self.renew()

    async def _connected(self) -> asyncpg.Connection:
        if self.conn is None or self.conn.is_closed():
            self.conn = await asyncpg.connect(self.url, timeout=CONNECT_SECONDS)
            self.session = self.conn.get_server_pid()
        return self.conn

    async def _claim(self) -> str | None:
        """Write our row anew unless a holder that excludes us is present: its hold, or None."""
        began = time.monotonic()
        conn = await self._connected()
        excluding = [BOT, SOLE] if self.hold == SOLE else [SOLE]
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", PRESENCE_LOCK)
            await conn.execute("DELETE FROM presence WHERE expires_at <= now()")
            refused_by = await conn.fetchval(
                "SELECT hold FROM presence WHERE holder <> $1 AND hold = ANY($2::text[]) LIMIT 1",
                self.holder,
                excluding,
            )
            if refused_by is not None:
                return refused_by
            await conn.execute(
                """INSERT INTO presence (holder, hold, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))
                   ON CONFLICT (holder) DO UPDATE SET expires_at = excluded.expires_at""",
                self.holder,
                self.hold,
                LEASE_SECONDS,
            )
        self.trusted_until = began + TRUSTED_SECONDS
        return None

    def _refusal(self, refused_by: str) -> str:
        """Why a holder of ``refused_by`` keeps us out, and what to do."""
        if refused_by == SOLE:
            return (
                f"a copy of {self.where} (migrate-db) is running: wait until it has finished (one that was killed "
                f"counts for {LEASE_SECONDS:.0f} seconds after its last sign of life)"
            )
        return (
            f"a bot is running on {self.where}: stop every bot on it first (a copy made meanwhile would miss its "
            f"players' latest orders); a bot that was killed counts for {LEASE_SECONDS:.0f} seconds after its "
            "last sign of life"
        )
