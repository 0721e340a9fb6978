"""Delivering announcements to Discord after the transaction that produced them has committed.

Rows stay in the outbox until the sink returns; a failure, a post that hangs past
``DELIVERY_TIMEOUT`` or a crash leaves them there to be retried with backoff. Each announcement
keeps its id across retries, so the sink can make the post idempotent (the Discord layer sends it
as the message nonce), and its first attempt is recorded before it is made, so a retry long after
it knows to check whether it got through. One game's announcements are delivered in order: a
failed one holds back the later ones of the same game; different games are delivered side by side.
Where several bot processes share the database, a game's posts are delivered by one of them at a
time (``service.runtime.claims``).
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING, Protocol

from service.clock import Clock
from service.models import Announcement
from service.ops.games import Fault, no_fault
from service.runtime.claims import OUTBOX, Claims
from service.storage import outbox as queue
from service.storage.store import Store

if TYPE_CHECKING:
    from service.ops.ratings import Standing
    from service.ops.tournaments import News
    from service.storage.matchmaking import Check, CheckPost, Member
    from service.storage.seasons import Season

log = logging.getLogger(__name__)

MAX_BACKOFF = 3600.0
# A post's longest wait: a request Discord took but never answered would otherwise hold its game's
# posts, and a stopping bot, for the HTTP client's five minutes.
DELIVERY_TIMEOUT = 30.0
KEEP_DELIVERED = 86400.0  # a delivered post's row stays this long (migrations/*/0010_outbox_prune.sql)


class Sink(Protocol):
    async def deliver(self, announcement: Announcement) -> None:
        """Post it; raise to have it retried later, or raise Undeliverable to give it up."""

    async def post_season_end(self, season: Season, number: int, tables: list[tuple[str, list[Standing]]]) -> None:
        """Post season ``number``'s final tables (by game) where ``season`` says; raise as ``deliver``."""

    async def post_tournament(self, news: News) -> None:
        """Post a tournament's news (a round opened, its end, its cancellation) in its channel; raise as
        ``deliver``."""

    async def show_ready_check(self, check: Check, members: list[Member], post: CheckPost) -> int:
        """Post a ready check in one channel its players queued from (pinging those who queued there),
        or bring that post up to date; its message id. Raise as ``deliver``."""


class Undeliverable(Exception):
    """The post can never succeed (its channel is gone, or the bot left its server): skip it."""


class Blocked(Exception):
    """Discord refuses the post for a permission the bot lacks where it goes: it stays queued, tried
    again on the backoff and at once when the server's permissions change (``Outbox.retry_guild``).
    ``missing``: those permissions, comma-separated as discord.py names them (empty: unknown)."""

    def __init__(self, missing: str = ""):
        super().__init__(f"the bot lacks {missing or 'a permission'} where the post goes")
        self.missing = missing


def backoff(attempts: int) -> float:
    return min(MAX_BACKOFF, 5.0 * 2 ** max(0, attempts - 1))


class Outbox:
    """``lanes`` games are delivered side by side; each game's posts go one after another, in order."""

    def __init__(
        self,
        db: Store,
        clock: Clock,
        sink: Sink,
        *,
        claims: Claims | None = None,
        fault: Fault = no_fault,
        batch: int = 200,
        lanes: int = 8,
        timeout: float = DELIVERY_TIMEOUT,
    ):
        self.db, self.clock, self.sink, self.fault, self.batch = db, clock, sink, fault, batch
        self.timeout = timeout
        self.claims = claims or Claims(db, clock, shared=db.shared)
        self._flushing = asyncio.Lock()
        self._lanes = asyncio.Semaphore(lanes)
        self._passes = 0  # flushes running or waiting to run
        self._changes = 0  # permission changes heard of (``retry_guild``), to tell those during an attempt
        self._idle = asyncio.Event()
        self._idle.set()
        self.stopping = False

    async def idle(self) -> None:
        """Return once no flush is running or waiting: what the outbox holds has been posted (or is
        held back for a retry later)."""
        await self._idle.wait()

    async def flush(self) -> int:
        """Deliver what is due, each game's oldest first; returns how many were delivered.

        One pass in id order over the undelivered rows, a batch at a time: each row is read once, so
        a backlog drains in time linear in its size, and each read holds the database only briefly.
        A game whose post fails or is not due yet is held back for the rest of the pass."""
        self._passes += 1
        self._idle.clear()
        try:
            async with self._flushing:
                delivered, after = 0, 0
                held: set[int] = set()
                while not self.stopping and (rows := await self._undelivered(after)):
                    after = rows[-1]["id"]
                    games: dict[int, list] = {}
                    for row in rows:
                        if row["game_id"] not in held:
                            games.setdefault(row["game_id"], []).append(row)
                    counts = await asyncio.gather(*(self._deliver_in_order(lane, held) for lane in games.values()))
                    delivered += sum(counts)
                return delivered
        finally:
            self._passes -= 1
            if not self._passes:
                self._idle.set()

    async def _deliver_in_order(self, rows: list, held: set[int]) -> int:
        game_id = rows[0]["game_id"]
        async with self._lanes, self.claims.holding(OUTBOX, game_id) as mine:
            if not mine:  # another process is delivering this game's posts
                held.add(game_id)
                return 0
            if self.claims.shared:
                rows = await self._still_undelivered(rows)  # the other process may have delivered some meanwhile
            return await self._deliver_lane(rows, held)

    async def _deliver_lane(self, rows: list, held: set[int]) -> int:
        delivered = 0
        await self._trying([row["id"] for row in rows if row["tried_at"] is None])
        for row in rows:
            due = not self.stopping and row["next_attempt"] <= self.clock.now()
            kept = due and await self.claims.keep(OUTBOX, row["game_id"])
            outcome = await self._deliver(row) if kept else None
            if outcome is None:
                held.add(row["game_id"])
                break
            delivered += outcome
        return delivered

    async def _deliver(self, row) -> bool | None:
        """Post one row: True if posted, False if given up for good, None if it is to be retried later."""
        payload = json.loads(row["payload"])
        announcement = Announcement(row["id"], row["game_id"], row["kind"], payload, tried_at=row["tried_at"])
        changes = self._changes
        try:
            async with asyncio.timeout(self.timeout):
                await self.sink.deliver(announcement)
        except Undeliverable as err:
            log.warning("announcement %s (%s) given up: %s", row["id"], row["kind"], err)
            await self._settled(row["id"], repr(err))
            return False
        except Exception as err:  # noqa: BLE001 - any other failure of the sink (a timeout, Blocked) means: try again later
            log.warning("delivery of announcement %s (%s) failed: %r", row["id"], row["kind"], err)
            await self._failed(row["id"], row["attempts"] + 1, repr(err))
            if self._changes != changes:  # permissions changed while it was tried: due again at once (checked
                # after the failure is written, so that a change's own retry comes after one or the other)
                await self._failed(row["id"], row["attempts"] + 1, repr(err), at_once=True)
            return None
        self.fault("delivered")
        await self._settled(row["id"], None)
        return True

    async def retry_guild(self, guild_id: int) -> int:
        """Try the server's held-back posts again now (its roles or channels changed: a permission the
        bot lacked may be back); returns how many were delivered. A post being tried as the change comes
        is tried again right after, should that attempt fail (any server's change counts: at worst one
        attempt more)."""
        self._changes += 1
        if await queue.due_now(self.db, guild_id, self.clock.now()) or self._passes:
            return await self.flush()
        return 0

    async def prune(self) -> int:
        """Delete the rows delivered more than ``KEEP_DELIVERED`` ago; returns how many."""
        return await queue.prune(self.db, self.clock.now() - KEEP_DELIVERED)

    async def _undelivered(self, after: int):
        return await queue.undelivered(self.db, after=after, limit=self.batch)

    async def _still_undelivered(self, rows: list):
        """These rows as they are now, without those delivered since they were read."""
        return await queue.undelivered(self.db, ids=[row["id"] for row in rows], limit=self.batch)

    async def _trying(self, announcement_ids: list[int]) -> None:
        """Record the first attempts before they are made, a game's at once (its posts follow one
        another): a retry long after knows to look for its post first (and finds none if the
        attempt never came)."""
        if announcement_ids:
            await queue.tried(self.db, announcement_ids, self.clock.now())

    async def _settled(self, announcement_id: int, error: str | None) -> None:
        """Delivered, or given up for good (``error`` says why): either way it leaves the queue."""
        await queue.settled(self.db, announcement_id, error, self.clock.now())

    async def _failed(self, announcement_id: int, attempts: int, error: str, *, at_once: bool = False) -> None:
        now = self.clock.now()
        await queue.failed(self.db, announcement_id, attempts, error[:500], now if at_once else now + backoff(attempts))

    async def pending_count(self) -> int:
        return await queue.pending_count(self.db)
