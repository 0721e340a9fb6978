"""Autocomplete offers what may still be ordered this turn, after the lines already typed (kept as
they were typed)."""

from __future__ import annotations

from dataclasses import replace

from engine import find_ruleset
from engine.hexgrid import Hex
from tests.engine.conquest_helpers import position

CONQUEST, FORTRESS = find_ruleset("conquest"), find_ruleset("fortress")
FIELD = {"name": "test", "width": 10, "height": 8, "cities": ["C4", "H5"], "mountains": ["E2"], "water": ["E4"]}


def test_conquest_offers_only_the_units_not_yet_committed():
    """A cell's move orders total at most its units: after ``B2>C2 5;`` of 12, 7 are left to offer."""
    state = position({"B2": (0, 12), "D3": (1, 4)})
    offered = CONQUEST.suggest_orders(state, 0, "b2>c2 5; B2>B")
    assert offered == ["b2>c2 5; B2>B1 7", "b2>c2 5; B2>B3 7"]
    assert not any(" 12" in line for line in CONQUEST.suggest_orders(state, 0, "B2>C2 5;"))
    assert all(line.split("; ")[1].startswith("auto") for line in CONQUEST.suggest_orders(state, 0, "B2>C2 12;"))
    assert not any("auto" in line.split("; ")[1] for line in CONQUEST.suggest_orders(state, 0, "auto B2>B1; "))
    for line in CONQUEST.suggest_orders(state, 0, "B2>C2 5;"):
        CONQUEST.parse_orders(state, 0, line)


def mode3(**generals):
    state = FORTRESS.setup(2, {"mode": 3, "map": FIELD}, seed=1)
    return replace(state, generals={Hex.from_label(k): v for k, v in generals.items()})


def test_fortress_offers_every_general_that_has_not_acted():
    """Every general of his may take one action this turn; the city's general must leave it."""
    state = mode3(C4=0, B2=0)
    first = FORTRESS.suggest_orders(state, 0, "")
    assert first[0].startswith("C4>") and "build B2; C4>B4" in first
    then = FORTRESS.suggest_orders(state, 0, "c4>d4; ")
    assert then and all(line.startswith("c4>d4; ") for line in then)
    assert not any(line.startswith("c4>d4; D4") for line in then)  # he already moved
    assert "c4>d4; B2>B1 build" in FORTRESS.suggest_orders(state, 0, "c4>d4; b2>b1")
    for line in first + then:
        FORTRESS.parse_orders(state, 0, line)


def test_fortress_offers_the_way_out_of_a_boxed_city():
    """A general ringed in his city by his own generals leaves once one of them makes way."""
    state = mode3(C4=0, **{n.label: 0 for n in Hex.from_label("C4").neighbours()})
    offered = FORTRESS.suggest_orders(state, 0, "")
    assert offered and all(line.endswith("; C4>" + line.split("; C4>")[1]) for line in offered)
    for line in offered:
        FORTRESS.parse_orders(state, 0, line)
