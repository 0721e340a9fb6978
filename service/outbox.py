"""Delivering announcements to Discord after the transaction that produced them has committed.

Rows stay in the outbox until the sink returns; a failure or a crash leaves them there to be
retried with backoff. Each announcement keeps its id across retries, so the sink can make the
post idempotent (the Discord layer sends it as the message nonce). One game's announcements are
delivered in order: a failed one holds back the later ones of the same game.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Protocol

import aiosqlite

from service.clock import Clock
from service.db import Database
from service.master import Fault, _no_fault
from service.models import Announcement

log = logging.getLogger(__name__)

MAX_BACKOFF = 3600.0
LANES = 8  # games whose posts are delivered at the same time
DELIVERED, GIVEN_UP, FAILED = "delivered", "given up", "failed"


class Sink(Protocol):
    async def deliver(self, announcement: Announcement) -> None:
        """Post it; raise to have it retried later, or raise Undeliverable to give it up."""


class Undeliverable(Exception):
    """The post can never succeed (its channel is gone, or the bot may not write there): skip it."""


def backoff(attempts: int) -> float:
    return min(MAX_BACKOFF, 5.0 * 2 ** max(0, attempts - 1))


class Outbox:
    def __init__(self, db: Database, clock: Clock, sink: Sink, *, fault: Fault = _no_fault, batch: int = 200):
        self.db, self.clock, self.sink, self.fault, self.batch = db, clock, sink, fault, batch
        self._flushing = asyncio.Lock()
        self._lanes = asyncio.Semaphore(LANES)

    async def flush(self) -> int:
        """Deliver what is due, each game's oldest first; returns how many were delivered. Different
        games' posts go out side by side (their images render in parallel); one game's, in order."""
        async with self._flushing:
            delivered = 0
            while heads := await self._due_heads():
                outcomes = await asyncio.gather(*(self._deliver(row) for row in heads))
                delivered += outcomes.count(DELIVERED)
                if all(outcome == FAILED for outcome in outcomes):
                    break
            return delivered

    async def _deliver(self, row: aiosqlite.Row) -> str:
        async with self._lanes:
            announcement = Announcement(row["id"], row["game_id"], row["kind"], json.loads(row["payload"]))
            try:
                await self.sink.deliver(announcement)
            except Undeliverable as err:
                log.warning("announcement %s (%s) given up: %s", row["id"], row["kind"], err)
                await self._settled(row["id"], repr(err))
                return GIVEN_UP
            except Exception as err:  # noqa: BLE001 - any other failure of the sink means: try again later
                log.warning("delivery of announcement %s (%s) failed: %r", row["id"], row["kind"], err)
                await self._failed(row["id"], row["attempts"] + 1, repr(err))
                return FAILED
            self.fault("delivered")
            await self._settled(row["id"], None)
            return DELIVERED

    async def _due_heads(self):
        """The oldest undelivered announcement of each game, if it is due: one stuck game holds back only itself."""
        async with self.db.reading() as conn:
            async with conn.execute(
                """SELECT * FROM outbox AS o WHERE delivered_at IS NULL AND next_attempt <= ?
                   AND id = (SELECT MIN(id) FROM outbox WHERE game_id = o.game_id AND delivered_at IS NULL)
                   ORDER BY id LIMIT ?""",
                (self.clock.now(), self.batch),
            ) as cursor:
                return await cursor.fetchall()

    async def _settled(self, announcement_id: int, error: str | None) -> None:
        """Delivered, or given up for good (``error`` says why): either way it leaves the queue."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE outbox SET delivered_at = ?, attempts = attempts + 1, last_error = ? WHERE id = ?",
                (self.clock.now(), error, announcement_id),
            )

    async def _failed(self, announcement_id: int, attempts: int, error: str) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE outbox SET attempts = ?, next_attempt = ?, last_error = ? WHERE id = ?",
                (attempts, self.clock.now() + backoff(attempts), error[:500], announcement_id),
            )

    async def pending_count(self) -> int:
        async with self.db.reading() as conn:
            async with conn.execute("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL") as cursor:
                (count,) = await cursor.fetchone()
        return count
