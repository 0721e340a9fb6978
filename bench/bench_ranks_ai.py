"""Ranks computer players against random play: the Medium level must win at least 95% of games.

A random player builds its turn from the autocomplete suggestions (``suggest_orders``), so every turn
it gives is legal: after each order it stops with a chance of one in three, else it takes any
suggested next order except moving the army off its own capital (pure random play loses that way
within a turn or two, which would measure nothing). The computer player sits first in half of the games and second in the other
half, on the generated board and on every shipped two-player map. A game the computer does not win
outright (a loss or a draw at the turn limit) counts against it.

Easy and Medium play random play here; Hard and Extreme, which look ahead, are measured against the
levels below them by ``bench_ladder.py``. Then the Medium level plays the Easy level (a fifth as
many games, seats alternating), which shows what the larger budget buys.

Ends with ``RESULT ranks_ai games=<n> wins_vs_random=<share> … medium_vs_easy=<share>``.
"""

from __future__ import annotations

import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from engine import find_ruleset  # noqa: E402
from engine.ranks.board import SHIPPED  # noqa: E402
from engine.rng import Rng, seed_state  # noqa: E402

RS = find_ruleset("ranks")
TWO_PLAYER_MAPS = [None, *(name for name in SHIPPED.names() if SHIPPED.load(name).players == 2)]


def random_text(state, seat: int, rng: Rng) -> str:
    text, leaving = "", f"{state.board.capitals[seat].label}>"
    while True:
        options = RS.suggest_orders(state, seat, f"{text}; " if text else "")
        options = [o for o in options if not o.split("; ")[-1].startswith(leaving)]
        if not options or (text and rng.chance(1, 3)):
            return text
        text = rng.choice(options)


def match(seed: int, map_name: str | None, level: str = "Medium") -> bool:
    """One game; True when the computer player (first in even seeds) wins it outright."""
    rng = Rng(seed_state(f"random:{seed}"))
    state = RS.setup(2, {"map": map_name}, seed=seed)
    computer = seed % 2
    while RS.outcome(state) is None:
        seat = state.to_move
        if seat == computer:
            orders = RS.ai_orders(state, seat, seed, level=level)
        else:
            orders = RS.parse_orders(state, seat, random_text(state, seat, rng))
        state = RS.resolve(state, {seat: orders}).state
    outcome = RS.outcome(state)
    return outcome.winners == (computer,) and not outcome.draw


def duel(seed: int, map_name: str | None) -> bool:
    """Medium against Easy; True when Medium (first in even seeds) wins outright."""
    state = RS.setup(2, {"map": map_name}, seed=seed)
    levels = ("Medium", "Easy") if seed % 2 == 0 else ("Easy", "Medium")
    while RS.outcome(state) is None:
        seat = state.to_move
        state = RS.resolve(state, {seat: RS.ai_orders(state, seat, seed, level=levels[seat])}).state
    outcome = RS.outcome(state)
    return outcome.winners == (levels.index("Medium"),) and not outcome.draw


def main(games: int = 100) -> None:
    figures = {}
    for level in [lvl.name for lvl in RS.bot_levels[:2]]:  # Hard and Extreme: bench_ladder, against Medium
        start = time.perf_counter()
        wins = sum(match(seed, TWO_PLAYER_MAPS[seed % len(TWO_PLAYER_MAPS)], level) for seed in range(games))
        figures[level] = wins / games
        print(f"{level:9} won {wins} of {games} games against random play ({time.perf_counter() - start:.1f} s)")
    start = time.perf_counter()
    duels = games // 5
    beaten = sum(duel(seed, TWO_PLAYER_MAPS[seed % len(TWO_PLAYER_MAPS)]) for seed in range(duels))
    print(f"Medium    won {beaten} of {duels} games against Easy ({time.perf_counter() - start:.1f} s)")
    others = " ".join(f"{level}_wins={share:.2f}" for level, share in figures.items())
    print(
        f"RESULT ranks_ai games={games} wins_vs_random={figures['Medium']:.2f} {others} "
        f"medium_vs_easy={beaten / duels:.2f}"
    )


if __name__ == "__main__":
    main()
