"""The plain tree searches the ladder bench measures the bots against end on the last turns of a game,
when every ending is already in their tree: reaching a finished game again still costs a node."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from bench import bench_ladder, gra_mcts, uct
from engine import RULESETS, find_ruleset
from engine.budget import Budget
from engine.gra.state import Phase
from engine.rng import Rng

ITERATIONS = 10_000  # far more than the budgets below allow: a search still going is going round


@dataclass(frozen=True)
class Countdown:
    """A game of two plies, two moves each: four endings, all in the tree after six iterations."""

    ply: int = 0

    def moves(self) -> list[int]:
        return [0, 1] if self.ply < 2 else []

    def play(self, move: int) -> Countdown:
        return Countdown(self.ply + 1)

    @property
    def mover(self) -> int:
        return self.ply % 2


def test_plain_uct_stops_once_every_ending_is_in_its_tree():
    steps = []

    def rollout(position, rng, budget):  # a finished game needs no rollout, and spends nothing
        steps.append(position)
        assert len(steps) < ITERATIONS, "the search goes round without spending its budget"
        return position

    budget = Budget(100)
    root = uct.search(Countdown(), Rng(1), budget, rollout, lambda final, seat: 0.5)
    assert budget.spent and len(steps) == root.visits == 100  # six positions stepped into, then endings scored
    assert len(root.children) == 2 and all(len(child.children) == 2 for child in root.children.values())


def test_the_gra_yardstick_gives_a_turn_in_the_last_move_phase(monkeypatch):
    rs = find_ruleset("gra")
    state = rs.setup(2, {"size": "small"}, seed=3)
    while state.phase != Phase.MOVE:
        state = rs.resolve(state, {s: rs.ai_orders(state, s, 3, level="Easy") for s in rs.acting_players(state)}).state
    last = replace(state, turn_limit=state.move_phases + 1)  # every joint choice here ends the game
    picks = []
    ucb = gra_mcts._ucb

    def counted(node, seat):
        picks.append(seat)
        assert len(picks) < ITERATIONS, "the search goes round without spending its budget"
        return ucb(node, seat)

    monkeypatch.setattr(gra_mcts, "_ucb", counted)
    seat = min(rs.acting_players(last))
    given = gra_mcts.choose(last, seat, 1, Budget(300))
    assert rs.parse_orders(last, seat, rs.format_orders(given)) == given


def test_quick_ladder_games_give_the_yardstick_and_the_level_the_same_budget():
    """The full run plays every side at its own budget; --quick cuts the yardstick games' budget for
    both sides alike, never for one."""
    full = bench_ladder.jobs_for("siege", 2, 10)
    quick = bench_ladder.jobs_for("siege", 2, 10, share=bench_ladder.QUICK_YARDSTICK)
    assert all(job[-1] is None for job in full)
    strongest = find_ruleset("siege").bot_levels[-1]
    for job in quick:
        expected = strongest.budget // bench_ladder.QUICK_YARDSTICK if bench_ladder.MCTS in job[1] else None
        assert job[-1] == expected
    assert any(bench_ladder.MCTS in job[1] and strongest.name in job[1] for job in quick)


@pytest.mark.parametrize("name", [n for n in sorted(RULESETS) if bench_ladder.baseline(n) is not None])
def test_every_yardstick_gives_a_legal_opening_turn(name):
    """A yardstick searching every kind of order it has (ranks' first player begins with exp on a
    generated board, so upgrades are among them) gives a turn the ruleset takes."""
    rs = RULESETS[name]
    state = rs.setup(2, {}, seed=5)
    for seat in sorted(rs.acting_players(state)):
        given = bench_ladder.baseline(name).choose(state, seat, 5, Budget(200))
        assert rs.parse_orders(state, seat, rs.format_orders(given)) == given
