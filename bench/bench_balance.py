"""Is the first seat or the second favoured? Strongest-vs-strongest self-play in every two-player setting.

For each setting (fortress per mode, siege 10×10 and 12×12, ranks on each two-player map and the
generated one, two-player conquest and gra), GAMES games (default 200; ``--first-seed`` runs another
set of them, to add up where 200 games leave the share too uncertain) with both seats played by the
ruleset's strongest computer level at the game's default options (the default komi of fortress
and siege and the head start of ranks included, unless ``--option komi=0`` or ``--option
head_start=0``), map seed = game number. Counts the
games each seat won, the draws, and for the territory games (fortress, siege) the median final margin
of seat 0 over seat 1 *before* any compensation. Where the territory decides at the end (fortress;
siege games that end with the board full or at the turn limit), it also prints how often each margin
came and the komi for the compensated seat (``KOMI_SEAT``) that would bring seat 0 nearest half the
decisive games: the figure the komi tables are made of. Run it with ``--option komi=0`` to measure
the raw margins, then without to check the defaults.
The goal (rules/fortress.md, Balance): seat 0 wins 45-55% of the decisive games in every setting.

What it leaves out: weaker levels (each seat's edge may differ with skill), mixed levels, human play.
Games run in ``--jobs`` processes (default 2, the machine's cores); the CPU time printed is theirs together.

Usage: python bench/bench_balance.py [--games N] [--settings fortress-mode1 siege-10 …] [--option k=v]
Ends with ``RESULT balance games=N <setting>_seat0=<share of decisive games> …``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from engine import find_ruleset  # noqa: E402
from engine.fortress.state import FortressState  # noqa: E402
from engine.siege.state import SiegeState  # noqa: E402

SETTINGS = {
    "fortress-mode1": ("fortress", {"mode": 1}),
    "fortress-mode2": ("fortress", {"mode": 2}),
    "fortress-mode3": ("fortress", {"mode": 3}),
    "siege-10": ("siege", {"size": 10}),
    "siege-12": ("siege", {"size": 12}),
    "ranks-duel": ("ranks", {"map": "duel"}),
    "ranks-nine-cities": ("ranks", {"map": "nine-cities"}),
    "ranks-generated": ("ranks", {}),
    "conquest-2p": ("conquest", {}),
    "gra-2p": ("gra", {}),
}
FAIR = (0.45, 0.55)
KOMI_SEAT = {"fortress": FortressState.KOMI_SEAT, "siege": SiegeState.KOMI_SEAT}  # the seat a ruleset's komi goes to


def play(job: tuple[str, dict, int]) -> tuple[int | None, int | None, float]:
    """One game: the winning seat (None for a draw), seat 0's raw territory margin where the
    territory decided it (None elsewhere, or when a capital fell), and the CPU seconds it took."""
    name, options, seed = job
    rs = find_ruleset(name)
    start = time.process_time()
    state = rs.setup(2, options, seed=seed)
    while (outcome := rs.outcome(state)) is None:
        orders = {seat: rs.ai_orders(state, seat, seed) for seat in rs.acting_players(state)}
        state = rs.resolve(state, orders).state
    decided_by_territory = name in KOMI_SEAT and all(p.playing for p in state.players)
    margin = state.territory(0) - state.territory(1) if decided_by_territory else None
    return (None if outcome.draw else outcome.winners[0]), margin, time.process_time() - start


def fairest_komi(margins: list[int], seat: int) -> tuple[float, float]:
    """The compensation for ``seat``, in half cells, that brings seat 0's share of the decisive games
    nearest one half, and that share (``margins`` are seat 0's over seat 1; a game whose margin
    plus the komi is 0 is a draw)."""
    own = margins if seat == 0 else [-m for m in margins]

    def share(komi: float) -> float:
        won = sum(1 for m in own if m + komi > 0)
        lost = sum(1 for m in own if m + komi < 0)
        return won / (won + lost) if won + lost else 0.5

    komi = min((half / 2 for half in range(0, 1 + 2 * max(0, -min(own)))), key=lambda k: (abs(share(k) - 0.5), k))
    return komi, share(komi) if seat == 0 else 1 - share(komi)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=0, help="seed of the first game (the next run's games: 200)")
    parser.add_argument("--settings", nargs="*", default=list(SETTINGS))
    parser.add_argument("--option", action="append", default=[], help="name=value for every setting that has it")
    parser.add_argument("--jobs", type=int, default=2, help="processes to play in (default: the machine's two cores)")
    args = parser.parse_args()
    extra = dict(o.split("=", 1) for o in args.option)
    figures = []
    with multiprocessing.Pool(args.jobs) as pool:
        for setting in args.settings:
            name, options = SETTINGS[setting]
            known = {o.name: o.kind for o in find_ruleset(name).options_schema()}
            given = {k: int(v) if known[k] == "int" else v for k, v in extra.items() if k in known}
            options = {**options, **given}
            seeds = range(args.first_seed, args.first_seed + args.games)
            results = pool.map(play, [(name, options, seed) for seed in seeds])
            wins = [sum(1 for winner, _, _ in results if winner == seat) for seat in (0, 1)]
            decisive = sum(wins)
            share = wins[0] / decisive if decisive else 0.5
            margins = [m for _, m, _ in results if m is not None]
            median = f", median margin {statistics.median(margins):+g}" if margins else ""
            verdict = "fair" if FAIR[0] <= share <= FAIR[1] else f"seat {0 if share > FAIR[1] else 1} favoured"
            print(
                f"{setting:18} seat 0 won {wins[0]}, seat 1 won {wins[1]}, {len(results) - decisive} draws:"
                f" seat 0 {share:.3f} of decisive games ({verdict}){median}"
                f" ({sum(cpu for _, _, cpu in results):.0f} s CPU)",
                flush=True,
            )
            if name in KOMI_SEAT and margins:
                counts = " ".join(f"{m:+d}:{margins.count(m)}" for m in sorted(set(margins)))
                komi, komi_share = fairest_komi(margins, KOMI_SEAT[name])
                print(
                    f"{'':18} margins {counts}; fairest komi for seat {KOMI_SEAT[name]} {komi:g}"
                    f" (seat 0 {komi_share:.3f} of the games territory decided)",
                    flush=True,
                )
            figures.append(f"{setting.replace('-', '_')}_seat0={share:.3f}")
    first = f" first_seed={args.first_seed}" if args.first_seed else ""
    print(f"RESULT balance games={args.games}{first} {' '.join(figures)}")


if __name__ == "__main__":
    main()
