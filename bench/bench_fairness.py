"""Is any seat favoured? Seeded conquest self-play on generated maps, for every player count.

For each player count 2-6, GAMES games (default 200) on the default medium map, map seed = game
number, every seat played by the engine's Easy computer player (the greedy one: the starts are what is
measured, and the stronger levels would take hours), to the end or a 200-round limit
(then ranked by cells, then units). Counts the games each seat won alone (shared first places are
counted as draws, apart) and tests the counts against "every seat wins equally often" with a
chi-square test; p < 0.01 would mean a seat is favoured.

Five players have no symmetric layout on hexes: the generator spreads the starts round a ring and
turns the ring by the seed, so each seat's spot on the grid changes from game to game. Seat
fairness alone could hide a spot that always wins, so five-player games are also counted by spot:
how far the winner's start is along the ring from a corner of it (0, 1 or 2 steps; in every game
one start is at a corner and two each at 1 and 2 steps), tested against those shares.

What it does not measure: human play, or the bot against other kinds of players.

Usage: python bench/bench_fairness.py [--games N] [--players 2 5 …]
Ends with ``RESULT fairness games=N p2=… p3=… p4=… p5=… p6=… p5_spot=… favoured=…``.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time
from collections import Counter

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench.positions import quick_level  # noqa: E402
from bench.stats import chi2_sf, uniform_p  # noqa: E402
from engine import find_ruleset  # noqa: E402
from engine.conquest.board import FIVE_RING  # noqa: E402
from engine.conquest.state import ConquestState  # noqa: E402
from engine.hexgrid import ring  # noqa: E402

RS = find_ruleset("conquest")
ROUND_LIMIT = 200
SIGNIFICANT = 0.01
SPOT_SHARES = {0: 1 / 5, 1: 2 / 5, 2: 2 / 5}  # starts per game at each spot, out of five


def play(players: int, seed: int) -> tuple[ConquestState, tuple[int, ...]]:
    """One self-play game: the start position and the first place."""
    start = state = RS.setup(players, {"round_limit": ROUND_LIMIT}, seed=seed)
    while (outcome := RS.outcome(state)) is None:
        orders = {seat: RS.ai_orders(state, seat, seed, level=quick_level(RS)) for seat in RS.acting_players(state)}
        state = RS.resolve(state, orders).state
    return start, outcome.winners


def spot(state: ConquestState, seat: int) -> int:
    """Steps along the five-player start ring from the seat's start to the nearest corner of it."""
    starts = [state.cells_of(s)[0] for s in range(len(state.players))]
    center = next(cell for cell in state.cells if all(cell.distance(start) == FIVE_RING for start in starts))
    index = ring(center, FIVE_RING).index(starts[seat])
    return min(index % FIVE_RING, FIVE_RING - index % FIVE_RING)


def spot_p(wins: Counter[int]) -> tuple[float, float]:
    total = sum(wins.values())
    statistic = sum((wins[s] - total * share) ** 2 / (total * share) for s, share in SPOT_SHARES.items())
    return statistic, chi2_sf(statistic, len(SPOT_SHARES) - 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per player count (default 200)")
    parser.add_argument("--players", type=int, nargs="*", help="player counts (default: all, 2 to 6)")
    args = parser.parse_args()
    games = args.games
    figures: dict[str, float] = {}
    for players in args.players or range(RS.min_players, RS.max_players + 1):
        began = time.perf_counter()
        seats: Counter[int] = Counter()
        spots: Counter[int] = Counter()
        draws = 0
        for seed in range(games):
            start, winners = play(players, seed)
            if len(winners) > 1:
                draws += 1
                continue
            seats[winners[0]] += 1
            if players == 5:
                spots[spot(start, winners[0])] += 1
        statistic, p = uniform_p([seats[s] for s in range(players)])
        figures[f"p{players}"] = p
        wins = " ".join(f"{seats[s]:3}" for s in range(players))
        print(
            f"{players} players: wins by seat {wins}  draws {draws}  chi2 {statistic:.2f} "
            f"df {players - 1} p={p:.3f}  ({time.perf_counter() - began:.0f} s)"
        )
        if players == 5:
            statistic, p = spot_p(spots)
            figures["p5_spot"] = p
            by_spot = " ".join(f"{s}:{spots[s]}" for s in SPOT_SHARES)
            print(f"5 players: wins by start spot (steps from a ring corner) {by_spot}  chi2 {statistic:.2f} p={p:.3f}")
    favoured = [key for key, p in figures.items() if p < SIGNIFICANT]
    print(
        f"RESULT fairness games={games} "
        + " ".join(f"{key}={p:.3f}" for key, p in figures.items())
        + f" favoured={','.join(favoured) or 'none'}"
    )


if __name__ == "__main__":
    main()
