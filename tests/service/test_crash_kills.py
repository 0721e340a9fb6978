"""SIGKILL at each kind of step of a turn, in real bot processes: nothing acknowledged is lost,
nothing is resolved or posted twice, and the next start-up finishes the turn. The long run, a kill at
every step of several turns and at random moments, is bench/crash_kills.py."""

from __future__ import annotations

import asyncio
import os

from tests.service.crashturn import Verdict, new_game, run, run_case


async def test_a_kill_at_any_kind_of_step_loses_and_doubles_nothing(tmp_path, places):
    reference = tmp_path / "reference"
    reference.mkdir()
    await new_game(reference, places.new("reference"))
    code, steps = await run(reference, 1)
    assert code == 0 and {"planned", "in_transaction", "committed", "delivered", "after orders"} <= set(steps)
    last_of_each = sorted({point: number for number, point in enumerate(steps, 1)}.values())
    lanes = asyncio.Semaphore(os.cpu_count() or 2)

    async def case(step: int) -> Verdict:
        async with lanes:
            return await run_case(tmp_path / f"kill-{step}", 1, [step], places.new(f"kill-{step}"))

    verdicts = await asyncio.gather(*(case(step) for step in last_of_each))
    failed = {(step, steps[step - 1]): v for step, v in zip(last_of_each, verdicts) if v != Verdict(kills=1)}
    assert not failed, failed
