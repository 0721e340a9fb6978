"""Computer levels measured against each other, for every ruleset: does each level beat the one below?

For each ruleset (all, or those named with ``--ruleset``) and each pair of adjacent levels it plays
``--games`` seeded two-player games on the ruleset's default board, the stronger level taking seat 0
in every other game. Then the strongest level against a plain Monte Carlo tree search with the
same node budget, where the ruleset has one (``bench/<ruleset>_mcts.py`` with
``choose(state, seat, seed, budget)``): the yardstick a search of that size should beat. For the
simultaneous games (conquest, gra) also ``--games`` four-player tables, one player of each level,
in seats drawn for each game (seeded), which report each level's share of the wins (a shared win split evenly).

``--quick`` (what ``make bench`` runs) plays ``QUICK_GAMES`` games per pairing instead, the levels at
their own budgets as in the full run, and the yardstick games at a ``QUICK_YARDSTICK``-th of the
strongest level's budget for both sides (the plain search costs most of the time): a check that the
ladder still holds roughly, in a few minutes on two cores, not a measurement. The ``RESULT`` line
says how many games were played (``games=``) and the yardstick games' budget of each side
(``<ruleset>_mcts_nodes=``).

Games use the ruleset's default options unless ``--option key=value`` (repeatable) sets some, e.g.
``--ruleset fortress --option mode=3``. A game's seed decides its board and every player's tie-breaks, so a run is reproducible; games run
in ``--jobs`` processes. A game still running after ``--max-turns`` turns counts as a draw (the
number of such games is printed). Each computer move's CPU time is measured in the process that
makes it; the slowest per level is printed (the goal: under a second on the largest default map).

Ends with ``RESULT ladder games=N <ruleset>_<weaker>_<stronger>=… <ruleset>_<strongest>_mcts=…
<ruleset>_mcts_nodes=… <ruleset>_table_<level>=… weakest=…``, each pair figure the stronger side's
share of the games (a draw counts half), ``<ruleset>_mcts_nodes`` each side's budget in the
yardstick games, ``weakest`` the lowest pair figure, and ``<ruleset>_max_move_s`` the slowest move
of any level.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import pathlib
import random
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from engine import RULESETS  # noqa: E402

MCTS = "MCTS"
TABLE_RULESETS = ("conquest", "gra")
TABLE_SIZE = 4
QUICK_GAMES = 6  # an even number: each side of a pairing takes the first seat as often
QUICK_YARDSTICK = 4


def baseline(name: str):
    """The ruleset's plain MCTS module, or None when it has none."""
    module = f"bench.{name}_mcts"
    return importlib.import_module(module) if importlib.util.find_spec(module) else None


def levels(name: str) -> list[str]:
    return [level.name for level in RULESETS[name].bot_levels]


def matches(name: str) -> list[tuple[str, ...]]:
    """The two-player pairings (weaker, stronger) of a ruleset, the MCTS yardstick first as weaker."""
    names = levels(name)
    pairs = list(zip(names, names[1:], strict=False))
    if baseline(name) is not None:
        pairs.append((MCTS, names[-1]))
    return pairs


def move(name: str, state, seat: int, level: str, seed: int, budget: int | None):
    """The level's turn, searching ``budget`` nodes (None: its own); the yardstick's budget is the
    strongest level's unless given."""
    rs = RULESETS[name]
    if level == MCTS:
        return baseline(name).choose(state, seat, seed, rs.search_budget(None, budget))
    return rs.ai_orders(state, seat, seed, level=level, budget=budget)


def yardstick_nodes(name: str, share: int) -> int:
    """Each side's budget in a yardstick game: a ``share``-th of the strongest level's."""
    return max(1, RULESETS[name].bot_levels[-1].budget // share)


Job = tuple[str, tuple[str, ...], int, int, tuple[tuple[str, object], ...], int | None]


def play(job: Job) -> tuple[dict[str, float], dict[str, float], bool]:
    """One game: each seat's level's score (1 shared among the winners; a draw or an unfinished game
    shares it among everyone), the slowest move per level in CPU seconds, and whether it was cut."""
    name, seats, number, max_turns, options, budget = job
    rs = RULESETS[name]
    state = rs.setup(len(seats), dict(options), seed=number)
    slowest: dict[str, float] = defaultdict(float)
    turns = 0
    while rs.outcome(state) is None and turns < max_turns:
        orders = {}
        for seat in sorted(rs.acting_players(state)):
            began = time.process_time()
            orders[seat] = move(name, state, seat, seats[seat], number, budget)
            slowest[seats[seat]] = max(slowest[seats[seat]], time.process_time() - began)
        state = rs.resolve(state, orders).state
        turns += 1
    outcome = rs.outcome(state)
    winners = list(range(len(seats))) if outcome is None or outcome.draw else sorted(outcome.winners)
    scores: dict[str, float] = defaultdict(float)
    for seat in winners:
        scores[seats[seat]] += 1 / len(winners)
    return dict(scores), dict(slowest), outcome is None


def jobs_for(
    name: str, games: int, max_turns: int, options: tuple[tuple[str, object], ...] = (), share: int = 1
) -> list[Job]:
    """The games to play; the yardstick games at a ``share``-th of the strongest level's budget (1:
    every side at its own)."""
    jobs = []
    for weaker, stronger in matches(name):
        budget = yardstick_nodes(name, share) if weaker == MCTS and share > 1 else None
        for number in range(games):
            seats = (stronger, weaker) if number % 2 == 0 else (weaker, stronger)
            jobs.append((name, seats, number, max_turns, options, budget))
    if name in TABLE_RULESETS and len(levels(name)) == TABLE_SIZE:
        for number in range(games):  # seats drawn for each game: no level always sits beside the same one
            seats = random.Random(f"table:{number}").sample(levels(name), TABLE_SIZE)
            jobs.append((name, tuple(seats), number, max_turns, options, None))
    return jobs


def option(text: str) -> tuple[str, object]:
    """``key=value`` from the command line; a whole number is passed as one."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"{text!r} is not key=value")
    return key, int(value) if value.lstrip("-").isdigit() else value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", action="append", choices=sorted(RULESETS), help="only these (repeatable)")
    parser.add_argument("--games", type=int, default=200, help="games per pairing (default 200)")
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"{QUICK_GAMES} games per pairing, the yardstick's at 1/{QUICK_YARDSTICK} budget on both sides",
    )
    parser.add_argument("--max-turns", type=int, default=400, help="turns after which a game counts as a draw")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--option", type=option, action="append", default=[], help="a game option, key=value")
    args = parser.parse_args(argv)
    games, yardstick_share = (QUICK_GAMES, QUICK_YARDSTICK) if args.quick else (args.games, 1)
    names = args.ruleset or sorted(RULESETS)
    jobs = [job for name in names for job in jobs_for(name, games, args.max_turns, tuple(args.option), yardstick_share)]
    results: dict[tuple[str, tuple[str, ...]], list[dict[str, float]]] = defaultdict(list)
    slowest: dict[str, float] = defaultdict(float)
    cut = 0
    began = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        for (name, seats, *_), (scores, moves, unfinished) in zip(jobs, pool.map(play, jobs, chunksize=1), strict=True):
            key = tuple(sorted(seats)) if len(seats) == TABLE_SIZE else _pair(name, seats)
            results[(name, key)].append(scores)
            for level, seconds in moves.items():
                slowest[f"{name}_{level}"] = max(slowest[f"{name}_{level}"], seconds)
            cut += unfinished
    print(
        f"ladder: {games} games per pairing, seats alternating, the yardstick games at 1/{yardstick_share} of the"
        f" strongest level's budget each, {time.perf_counter() - began:.0f} s, {cut} cut short"
    )
    figures: dict[str, float | int] = {}
    for name in names:
        if not jobs_for(name, 1, 1):
            print(f"\n{name}: one computer level only, nothing to compare")
            continue
        print(f"\n{name}: {'stronger':>8} vs {'weaker':<8} {'score':>6}")
        for weaker, stronger in matches(name):
            got = results[(name, (weaker, stronger))]
            won = sum(scores.get(stronger, 0.0) for scores in got) / len(got)
            key = f"{name}_{stronger}_{weaker}" if weaker == MCTS else f"{name}_{weaker}_{stronger}"
            figures[key.lower()] = won
            nodes = yardstick_nodes(name, yardstick_share)
            each = f"  ({nodes} nodes each)" if weaker == MCTS else ""
            print(f"{'':>{len(name) + 1}} {stronger:>8} vs {weaker:<8} {won:>6.0%}{each}")
            if weaker == MCTS:
                figures[f"{name}_mcts_nodes"] = nodes
        table = [(name, key) for (ruleset, key) in results if ruleset == name and len(key) == TABLE_SIZE]
        for _, key in table:
            got = results[(name, key)]
            for level in levels(name):
                share = sum(scores.get(level, 0.0) for scores in got) / len(got)
                figures[f"{name}_table_{level}".lower()] = share
                print(f"{'':>{len(name) + 1}} table of {TABLE_SIZE}: {level} won {share:.0%}")
        moves = {level: slowest.get(f"{name}_{level}", 0.0) for level in levels(name)}
        print(f"{'':>{len(name) + 1}} slowest moves: " + ", ".join(f"{lv} {s:.2f}" for lv, s in moves.items()))
        figures[f"{name}_max_move_s"] = max(moves.values())
    pairs = [
        share
        for key, share in figures.items()
        if "_table_" not in key and not key.endswith(("_max_move_s", "_mcts_nodes"))
    ]
    weakest = f" weakest={min(pairs):.2f}" if pairs else ""
    result = " ".join(
        f"{key}={value}" if isinstance(value, int) else f"{key}={value:.2f}" for key, value in figures.items()
    )
    print(f"RESULT ladder games={games} {result}{weakest}")
    return 0


def _pair(name: str, seats: tuple[str, ...]) -> tuple[str, str]:
    """The pairing a two-player game belongs to, as (weaker, stronger) in the ruleset's order."""
    for pair in matches(name):
        if set(pair) == set(seats):
            return pair
    raise ValueError(f"{name}: no pairing of {seats}")


if __name__ == "__main__":
    raise SystemExit(main())
