"""Orders written by a second process while a transition is being planned are never lost.

Start-up refuses a second bot on a SQLite file (PostgreSQL takes several), but the store must be safe
without that guard too: an order write bumps the game's version, so a transition planned from an older
snapshot is refused instead of rewriting the order rows without the new orders, and is planned again.
"""

from __future__ import annotations

import asyncio
import threading

from service.clock import ManualClock
from service.models import Actor
from tests.service.conftest import ALICE, BOB, CAROL, Env
from tests.service.test_turns import own_cell


def write_from_another_process(env: Env, game_id: int, actor: Actor, text: str) -> None:
    """Another game master on the same database, with its own connection and event loop, gives orders."""

    async def give() -> None:
        other = await Env(env.location, env.clock).open()
        try:
            await other.master.play.add_orders(game_id, actor, text)
        finally:
            await other.db.close()

    thread = threading.Thread(target=asyncio.run, args=(give(),))
    thread.start()
    thread.join()


async def test_orders_given_while_a_pass_is_planned_survive(places):
    env = await Env(places.new(), ManualClock()).open()
    game = await env.new_game(ALICE, BOB, CAROL)
    source, target = own_cell(game, BOB)
    bob_orders = f"{source}>{target} 2"

    written = []

    def meanwhile(point: str) -> None:
        if point == "planned" and not written:
            written.append(point)
            write_from_another_process(env, game.id, BOB, bob_orders)

    env.master.games.fault = meanwhile
    try:
        game = await env.master.play.submit(game.id, ALICE)  # planned before Bob's orders, committed after them
        assert written and game.player_of(ALICE.user_id).seat in game.passed_seats
        assert (await env.master.play.my_orders(game.id, BOB)).lines == (bob_orders,)
    finally:
        await env.db.close()
