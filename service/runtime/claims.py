"""Leases that give one process at a time a game's wake-up or the delivery of its posts.

When several bot processes share a PostgreSQL database, each one's scheduler and sweep may reach the
same overdue game, and each one's outbox the same undelivered posts. Before doing either, a process
takes the game's lease (a row of ``claims``) for ``LEASE_SECONDS``; the others skip the game meanwhile.
A process that dies holding a lease loses it, and the next sweep of any other process takes the work
over: at once when the holder's session on the database server has ended (the kernel closes a killed
process's connection), else when the lease expires (a machine gone without a word). A deadline is then
resolved at most one sweep period late, or ``LEASE_SECONDS`` plus one sweep period.

A lease is an economy, not the guard of correctness: a turn is committed only against the game's
version (``service.ops.games``), so two processes that both resolve a turn (a lease that expired while
its holder still worked) still commit it once; and a post retried after its first attempt is
recognised by Discord's nonce or found again (``cogs.redelivery``).

A process alone on its database (SQLite allows no other) takes every lease at once, without writing.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import AsyncIterator

from service.clock import Clock
from service.storage import claims as leases
from service.storage.base import process_name
from service.storage.store import Store

LEASE_SECONDS = 20.0
WAKE, OUTBOX = "wake", "outbox"
FAIRNESS = "fairness"  # a server map's self-play (its id where the others hold a game's)
SEASON_END = "season"  # a server's season-end post (its guild id)
TOURNAMENT = "tournament"  # a tournament's next round (its id)
MATCHMAKING = "matchmaking"  # the queues' matching (0: every queue)
READY_CHECK = "ready-check"  # a ready check's game being opened (its id)


class Claims:
    def __init__(self, db: Store, clock: Clock, *, shared: bool, owner: str | None = None):
        self.db, self.clock, self.shared = db, clock, shared
        self.owner = owner or process_name()
        self._taken_at: dict[tuple[str, int], float] = {}
        self._holders: Counter[tuple[str, int]] = Counter()  # this process's blocks holding each lease
        self._turn = asyncio.Lock()

    async def take(self, kind: str, game_id: int) -> bool:
        """Take the lease, or renew ours; False while another live process holds it."""
        if not self.shared:
            return True
        now = self.clock.now()
        taken = await leases.take(self.db, kind, game_id, (self.owner, self.db.session, now + LEASE_SECONDS), now)
        if taken:
            self._taken_at[kind, game_id] = now
        return taken

    async def keep(self, kind: str, game_id: int) -> bool:
        """Renew a lease held for long work once half of it has run; False if it was lost meanwhile."""
        taken_at = self._taken_at.get((kind, game_id))
        if not self.shared or (taken_at is not None and self.clock.now() - taken_at < LEASE_SECONDS / 2):
            return True
        return await self.take(kind, game_id)

    async def release(self, kind: str, game_id: int) -> None:
        if not self.shared:
            return
        self._taken_at.pop((kind, game_id), None)
        await leases.release(self.db, kind, game_id, self.owner)

    @contextlib.asynccontextmanager
    async def holding(self, kind: str, game_id: int) -> AsyncIterator[bool]:
        """``async with claims.holding(kind, game) as held``: the work runs only if ``held``; the lease
        is given back when the last of this process's blocks holding it ends (the lease is the
        process's: one task ending must not free it while another of its tasks still works under it)."""
        key = (kind, game_id)
        async with self._turn:  # taking (or renewing) and giving back, one task at a time
            held = await self.take(kind, game_id)
            if held:
                self._holders[key] += 1
        try:
            yield held
        finally:
            if held:
                self._holders[key] -= 1  # at once: a cancelled task never leaves itself counted
                if not self._holders[key]:
                    del self._holders[key]
                    async with self._turn:
                        if not self._holders[key]:  # no task of this process took it again meanwhile
                            await self.release(kind, game_id)
