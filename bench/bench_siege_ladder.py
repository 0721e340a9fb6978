"""Siege computer players measured against each other: does each level beat the one below?

For each pair of adjacent levels (Easy–Medium, Medium–Hard, Hard–Extreme) it plays ``--games``
seeded games (default 200) on generated 10×10 boards, the stronger level taking seat 0 in every
other game, and prints wins, draws and losses of the stronger level. Then Extreme against a plain
Monte Carlo tree search (``bench/siege_mcts.py``) with the same node budget, the yardstick a
search of that size should beat. A game's seed decides its board and both players' tie-breaks,
so a run is reproducible; games run in ``--jobs`` processes.

Ends with ``RESULT siege_ladder games=N easy_medium=… medium_hard=… hard_extreme=… extreme_mcts=…``,
each the stronger side's share of wins (draws count half), and ``weakest=`` the lowest of them.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench import siege_mcts  # noqa: E402
from engine import find_ruleset  # noqa: E402

RS = find_ruleset("siege")
MCTS = "MCTS"
PAIRS = (("Easy", "Medium"), ("Medium", "Hard"), ("Hard", "Extreme"), (MCTS, "Extreme"))


def turn(state, seat: int, level: str, seed: int):
    if level == MCTS:
        return siege_mcts.choose(state, seat, seed, RS.search_budget("Extreme", None))
    return RS.ai_orders(state, seat, seed, level=level)


def play(job: tuple[str, str, int]) -> tuple[str, str, int, float]:
    """One game; returns the pair, the game number and the stronger side's score (1, 0.5 or 0)."""
    weaker, stronger, number = job
    seats = (stronger, weaker) if number % 2 == 0 else (weaker, stronger)
    state = RS.setup(2, {}, seed=number)
    while RS.outcome(state) is None:
        seat = state.to_move
        state = RS.resolve(state, {seat: turn(state, seat, seats[seat], number)}).state
    outcome = RS.outcome(state)
    strong_seat = seats.index(stronger)
    score = 0.5 if outcome.draw else 1.0 if strong_seat in outcome.winners else 0.0
    return weaker, stronger, number, score


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per pair (default 200)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    args = parser.parse_args(argv)
    jobs = [(weaker, stronger, number) for weaker, stronger in PAIRS for number in range(args.games)]
    scores: dict[tuple[str, str], list[float]] = {pair: [] for pair in PAIRS}
    began = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        for weaker, stronger, _, score in pool.map(play, jobs, chunksize=2):
            scores[(weaker, stronger)].append(score)
    print(f"siege ladder: {args.games} games per pair, seats alternating, {time.perf_counter() - began:.0f} s")
    print(f"{'stronger':>8} vs {'weaker':<8} {'wins':>5} {'draws':>5} {'losses':>6} {'score':>6}")
    shares = {}
    for weaker, stronger in PAIRS:
        got = scores[(weaker, stronger)]
        wins, draws = got.count(1.0), got.count(0.5)
        share = (wins + draws / 2) / len(got)
        shares[f"{stronger}_{weaker}" if weaker == MCTS else f"{weaker}_{stronger}"] = share
        print(f"{stronger:>8} vs {weaker:<8} {wins:>5} {draws:>5} {len(got) - wins - draws:>6} {share:>6.0%}")
    result = " ".join(f"{key.lower()}={share:.2f}" for key, share in shares.items())
    print(f"RESULT siege_ladder games={args.games} {result} weakest={min(shares.values()):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
