"""Do conquest games end? Seeded self-play at every computer level, for every player count 2-6.

Each table is a generated medium map (map seed = table number) with every seat played by the same
level, and **no round limit** (``round_limit=0``, the case a creator must ask for): the default limit
of 150 rounds ends every game by itself, so only an unlimited game shows whether the computers finish.
A table still running at round ``--cap`` (default 1,000) has not ended.

Figures per level and player count:
- ``ended``: the share of tables that ended by elimination before the cap (goal: all);
- ``pressed``: of the tables where one seat came to hold more than half the cells, the share where
  that seat won by elimination within 60 rounds of first holding it (goal: 0.95 at Medium and up).

What it leaves out: mixed levels at one table, human play, and shipped maps (generated ones only).

Usage: python bench/bench_finish.py [--games N] [--players 2 5 …] [--levels Easy Hard …] [--cap R]
Ends with ``RESULT finish games=N ended=<lowest share> pressed_medium_up=<lowest share> …`` and a
figure per level and player count.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from engine import find_ruleset  # noqa: E402

RS = find_ruleset("conquest")
PRESS_WITHIN = 60  # rounds from holding most of the board to winning it


def play(players: int, seed: int, level: str, cap: int) -> tuple[bool, bool | None]:
    """One table: whether it ended, and whether a seat that held most of the board won within
    PRESS_WITHIN rounds (None when no seat ever held most of it)."""
    state = RS.setup(players, {"round_limit": 0}, seed=seed)
    leader, since = None, None
    while RS.outcome(state) is None and state.round <= cap:
        orders = {seat: RS.ai_orders(state, seat, seed, level=level) for seat in RS.acting_players(state)}
        state = RS.resolve(state, orders).state
        if leader is None:
            for seat in state.playing():
                if 2 * len(state.cells_of(seat)) > len(state.cells):
                    leader, since = seat, state.round
    outcome = RS.outcome(state)
    if leader is None:
        return outcome is not None, None
    pressed = outcome is not None and outcome.winners == (leader,) and state.round - since <= PRESS_WITHIN
    return outcome is not None, pressed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, nargs="*", default=list(range(RS.min_players, RS.max_players + 1)))
    parser.add_argument("--levels", nargs="*", default=[level.name for level in RS.bot_levels])
    parser.add_argument("--cap", type=int, default=1000)
    args = parser.parse_args()
    figures, ended_all, pressed_up = [], [], []
    for level in args.levels:
        for players in args.players:
            start = time.process_time()
            results = [play(players, seed, level, args.cap) for seed in range(args.games)]
            ended = sum(done for done, _ in results) / len(results)
            led = [pressed for _, pressed in results if pressed is not None]
            pressed = sum(led) / len(led) if led else 1.0
            ended_all.append(ended)
            if level != RS.bot_levels[0].name:
                pressed_up.append(pressed)
            print(
                f"{level:8} {players} players: ended {ended:.3f}, pressed on {pressed:.3f} of {len(led)} led tables"
                f" ({time.process_time() - start:.0f} s CPU)",
                flush=True,
            )
            figures.append(
                f"{level.lower()}_p{players}_ended={ended:.3f} {level.lower()}_p{players}_pressed={pressed:.3f}"
            )
    lowest_pressed = min(pressed_up) if pressed_up else 1.0
    print(
        f"RESULT finish games={args.games} cap={args.cap} ended={min(ended_all):.3f}"
        f" pressed_medium_up={lowest_pressed:.3f} {' '.join(figures)}"
    )


if __name__ == "__main__":
    main()
