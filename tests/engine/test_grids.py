"""Shared geometry: hex and square labels, neighbours, symmetry; the seeded PRNG."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.hexgrid import Hex, hexagon, orbit
from engine.labels import column_index, column_letters, parse_label
from engine.rng import Rng, seed_state
from engine.squaregrid import Square, SquareGrid


@given(st.integers(0, 700), st.integers(0, 998))
def test_labels_round_trip(col, row):
    assert column_index(column_letters(col)) == col
    assert Hex.from_offset(col, row) == Hex.from_label(Hex.from_offset(col, row).label)
    assert Square.from_label(Square(col, row).label) == Square(col, row)


def test_labels_are_case_insensitive_and_reject_junk():
    assert Hex.from_label("c4") == Hex.from_label("C4")
    assert parse_label("A0") is None and parse_label("4C") is None and parse_label("") is None


def test_hex_neighbours_are_symmetric():
    for cell in hexagon(Hex(3, 3), 2):
        for near in cell.neighbours():
            assert cell in near.neighbours()


def test_hexagon_and_orbits():
    assert len(hexagon(Hex(0, 0), 3)) == 37
    assert len(orbit(Hex(2, 0), Hex(0, 0))) == 6
    assert len(orbit(Hex(2, 1), Hex(0, 0))) == 12
    assert orbit(Hex(0, 0), Hex(0, 0)) == {Hex(0, 0)}


def test_square_steps():
    c4 = Square.from_label("C4")
    assert [s.label for s in c4.orthogonal()] == ["C3", "C5", "B4", "D4"]
    assert len(set(c4.surrounding())) == 8 and len(set(c4.knight_jumps())) == 8
    grid = SquareGrid(10, 10)
    assert grid.mirror(Square.from_label("A1")).label == "J10"
    assert not grid.contains(Square(10, 0))
    assert [grid.rotate(Square.from_label(label)).label for label in ("A1", "J1", "J10", "C4")] == [
        "J1",
        "J10",
        "A10",
        "G3",
    ]
    assert {grid.rotate(s) for s in grid.squares()} == set(grid.squares())


def test_rng_is_reproducible_and_uniformish():
    a, b = Rng(seed_state("x")), Rng(seed_state("x"))
    assert [a.below(6) for _ in range(20)] == [b.below(6) for _ in range(20)]
    counts = [0] * 6
    rng = Rng(1)
    for _ in range(6000):
        counts[rng.below(6)] += 1
    assert min(counts) > 850
    assert seed_state("abc") == seed_state("abc") != seed_state("abd")
