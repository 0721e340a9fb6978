"""SIGKILL a bot process at every step of several turns, again and again, and at random moments.

Each case is a new two-player game played by real bot processes (tests/service/crashturn.py) on a
real SQLite file; then one run is left alone to finish. Three kinds of case:

- one kill at step k, for every step k of the whole game (each kind of step is also in ``make test``);
- a chain of kills: every life of the bot is killed at its k-th step until one gets through;
- kills from outside after a random delay, which land anywhere, inside SQLite's commits included.

Counted over all cases: acknowledged orders missing from the history and announcements never posted
(lost), turns resolved or announced twice (doubled), games or last runs that did not finish (stuck).

Usage: python bench/crash_kills.py [TURNS] [RANDOM_CASES] [SEED]     (default: 3 20 1)
Ends with ``RESULT crash kills=… lost=… doubled=… stuck=…``.
"""

from __future__ import annotations

import asyncio
import os
import pathlib
import random
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from tests.service.crashturn import Verdict, new_game, run, run_case  # noqa: E402

CHAIN_LENGTH = 6


async def main(turns: int, random_cases: int, seed: int) -> None:
    folder = pathlib.Path(tempfile.mkdtemp())
    reference = folder / "reference"
    reference.mkdir()
    await new_game(reference)
    started = time.perf_counter()
    code, steps = await run(reference, turns)
    alone = time.perf_counter() - started
    assert code == 0, "the game does not finish even without kills"
    rng = random.Random(seed)
    cases: list[tuple[str, list[int | float]]] = [("step", [k]) for k in range(1, len(steps) + 1)]
    cases += [("chain", [k] * CHAIN_LENGTH) for k in range(2, len(steps), 3)]
    cases += [("random", [rng.uniform(0.2, 1.5) * alone for _ in range(3)]) for _ in range(random_cases)]
    lanes = asyncio.Semaphore(os.cpu_count() or 2)

    async def case(number: int, kills: list[int | float]) -> Verdict:
        async with lanes:
            return await run_case(folder / f"case-{number}", turns, kills)

    verdicts = await asyncio.gather(*(case(n, kills) for n, (_, kills) in enumerate(cases)))
    elapsed = time.perf_counter() - started
    print(f"{turns} turns of a two-player game: {len(steps)} steps, one undisturbed run takes {alone:.1f} s")
    for (kind, kills), v in zip(cases, verdicts):
        if (v.lost, v.doubled, v.stuck) != (0, 0, 0):
            print(f"  FAILED {kind} case, kills at {kills}: {v}")
    for kind in dict.fromkeys(kind for kind, _ in cases):
        print(f"  {kind:7s} cases: {counts([v for (k, _), v in zip(cases, verdicts) if k == kind])}")
    print(f"  {len(cases)} cases in {elapsed:.0f} s")
    print(f"RESULT crash {counts(verdicts)} cases={len(cases)} steps={len(steps)}")


def counts(verdicts: list[Verdict]) -> str:
    return " ".join(
        f"{name}={sum(getattr(v, name) for v in verdicts)}" for name in ("kills", "lost", "doubled", "stuck")
    )


if __name__ == "__main__":
    args = [int(arg) for arg in sys.argv[1:]]
    asyncio.run(main(*(args + [3, 20, 1][len(args) :])))
