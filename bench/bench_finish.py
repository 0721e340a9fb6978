"""Do conquest games end? Seeded self-play at every computer level, for every player count 2-6.

Each table is a generated medium map (map seed = table number) with every seat played by the same
level, under the game's default options (the round limit of 150 rounds included), played to its end.
Figures per level and player count:
- ``ended``: the share of tables that ended (goal: all), and how many of them the round limit ended;
- ``pressed``: of the tables where one seat came to hold more than half the cells by round 90 (so
  that 60 rounds fit before the limit), the share where that seat won by elimination within 60
  rounds of first holding it (goal: 0.95 at Medium and up);
- ``settled``: of those same tables, the share that ended by elimination within 60 rounds of the
  first majority, whoever won. Between two equal computers a first majority of a cell or two is
  often lost again the next round; ``pressed`` counts such a table as a leader that failed,
  ``settled`` tells that apart from a game that stalls.

``--round-limit 0`` plays the games a creator may ask for with no limit at all, up to ``--cap``
rounds (default 1,000): there, two equal computers that neither holds most of the board nor is
twice as strong as the other can face each other for ever (their stacks growing alike); ``ended``
then counts the tables that ended by elimination before the cap.

What it leaves out: mixed levels at one table, human play, and shipped maps (generated ones only).

``--first N`` plays tables N to N + games - 1 instead of 0 to games - 1: a long run (Extreme at five
or six players costs minutes of CPU per table) can be played in parts, their counts added.

Usage: python bench/bench_finish.py [--games N] [--first N] [--players 2 5 …] [--levels Easy Hard …]
       [--round-limit R] [--cap R] [--jobs N]
Ends with ``RESULT finish games=N first=N ended=<lowest share> pressed_medium_up=<lowest share> …`` and a
figure per level and player count.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from engine import find_ruleset  # noqa: E402

RS = find_ruleset("conquest")
PRESS_WITHIN = 60  # rounds from holding most of the board to winning it


def play(players: int, seed: int, level: str, limit: int, cap: int) -> tuple[bool, bool, bool | None, bool | None]:
    """One table: whether it ended, whether the round limit ended it, whether a seat that held
    most of the board in time won within PRESS_WITHIN rounds, and whether anybody did (both None
    when no seat held most of it in time to)."""
    state = RS.setup(players, {"round_limit": limit}, seed=seed)
    latest = limit - PRESS_WITHIN if limit else cap
    leader, since = None, None
    while RS.outcome(state) is None and state.round <= cap:
        orders = {seat: RS.ai_orders(state, seat, seed, level=level) for seat in RS.acting_players(state)}
        state = RS.resolve(state, orders).state
        if leader is None and state.round <= latest:
            for seat in state.playing():
                if 2 * len(state.cells_of(seat)) > len(state.cells):
                    leader, since = seat, state.round
    outcome = RS.outcome(state)
    by_limit = outcome is not None and len(state.playing()) > 1
    ended = outcome is not None and (bool(limit) or not by_limit)
    if leader is None:
        return ended, by_limit, None, None
    settled = ended and not by_limit and state.round - since <= PRESS_WITHIN
    return ended, by_limit, settled and outcome.winners == (leader,), settled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="number of the first table (its map seed)")
    parser.add_argument("--players", type=int, nargs="*", default=list(range(RS.min_players, RS.max_players + 1)))
    parser.add_argument("--levels", nargs="*", default=[level.name for level in RS.bot_levels])
    parser.add_argument("--round-limit", type=int, default=RS.normalize_options({})["round_limit"])
    parser.add_argument("--cap", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    args = parser.parse_args()
    figures, ended_all, pressed_up = [], [], []
    for level in args.levels:
        for players in args.players:
            start = time.perf_counter()
            count = args.games
            with ProcessPoolExecutor(args.jobs) as pool:
                results = list(
                    pool.map(
                        play,
                        repeat(players, count),
                        range(args.first, args.first + count),
                        repeat(level, count),
                        repeat(args.round_limit, count),
                        repeat(args.cap, count),
                    )
                )
            ended = sum(done for done, *_ in results) / len(results)
            by_limit = sum(limited for _, limited, *_ in results)
            led = [(pressed, settled) for *_, pressed, settled in results if pressed is not None]
            pressed = sum(won for won, _ in led) / len(led) if led else 1.0
            settled = sum(over for _, over in led) / len(led) if led else 1.0
            ended_all.append(ended)
            if level != RS.bot_levels[0].name:
                pressed_up.append(pressed)
            print(
                f"{level:8} {players} players, tables {args.first}-{args.first + count - 1}: ended {ended:.3f}"
                f" ({by_limit} at the limit), pressed on {pressed:.3f} of {len(led)} led tables"
                f" (settled {settled:.3f})"
                f" ({time.perf_counter() - start:.0f} s)",
                flush=True,
            )
            figures.append(
                f"{level.lower()}_p{players}_ended={ended:.3f} {level.lower()}_p{players}_pressed={pressed:.3f}"
                f" {level.lower()}_p{players}_settled={settled:.3f}"
            )
    lowest_pressed = min(pressed_up) if pressed_up else 1.0
    print(
        f"RESULT finish games={args.games} first={args.first} round_limit={args.round_limit} ended={min(ended_all):.3f}"
        f" pressed_medium_up={lowest_pressed:.3f} {' '.join(figures)}"
    )


if __name__ == "__main__":
    main()
