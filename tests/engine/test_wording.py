"""What players read counts things in good English: "1 cell", "3 cells", never "1 points"."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import IllegalOrderError, Outcome, find_ruleset
from engine.gra.state import Phase
from engine.ruleset import Event
from engine.words import count
from render.summary import describe_outcome
from tests.engine.conquest_helpers import position


def who(seat):
    return "neutral" if seat is None else ("Ann", "Bob")[seat]


def test_count():
    assert [count(n, "cell") for n in (0, 1, 2)] == ["0 cells", "1 cell", "2 cells"]
    assert count(2, "army", "armies") == "2 armies"


@pytest.mark.parametrize(
    "ruleset, event, text",
    [
        ("fortress", Event("built", {"seat": 0, "cell": "C3", "claimed": ["C3"], "from_opponent": 0}), "+1 cell."),
        (
            "fortress",
            Event("built", {"seat": 0, "cell": "C3", "claimed": ["C3", "C4"], "from_opponent": 0}),
            "+2 cells.",
        ),
        (
            "gra",
            Event("spawning_killed", {"seat": 1, "soldiers": 1, "node": 4}),
            "Bob lost 1 spawning soldier at node 4.",
        ),
        ("gra", Event("created", {"seat": 0, "nodes": [3, 3]}), "Ann is raising 2 new soldiers."),
        ("gra", Event("created", {"seat": 0, "nodes": [3]}), "Ann is raising 1 new soldier."),
        ("gra", Event("part_dropped", {"seat": 0, "nodes": [7]}), "Ann gave up a cut-off part of 1 node."),
    ],
)
def test_event_texts_count_in_the_singular_and_plural(ruleset, event, text):
    assert find_ruleset(ruleset).describe_event(event, who).endswith(text)


def test_final_standings_say_one_point():
    outcome = Outcome(winners=(0,), draw=False, ranking=((0,), (1,)), points={0: 1, 1: 0})
    assert describe_outcome(outcome, ["Ann", "Bob"])[1:] == ["1. Ann (red) — 1 point", "2. Bob (blue) — 0 points"]


def test_order_errors_count_in_the_singular():
    gra = find_ruleset("gra")
    line = {"nodes": [[float(x), 0.0] for x in range(6)], "edges": [[n, n + 1] for n in range(1, 6)]}
    state = replace(
        gra.setup(2, {"map": line}, seed=1), phase=Phase.MOVE, owners={1: 0, 3: 1}, ready={1: (0, 1), 3: (1, 1)}
    )
    with pytest.raises(IllegalOrderError, match="node 1 has 1 ready soldier;"):
        gra.parse_orders(state, 0, "1>2 2")
    conquest = find_ruleset("conquest")
    with pytest.raises(IllegalOrderError, match="B2 has 1 unit at the start of the round"):
        conquest.parse_orders(position({"B2": (0, 1), "D3": (1, 4)}), 0, "B2>B1 2")
