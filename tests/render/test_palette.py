"""Seat colours stay apart for colour-blind players (bench/bench_palette.py states the measure):
every two seat colours, and each and the neutral grey, at least THRESHOLD apart in CAM02-UCS with
normal vision and simulated protanopia, deuteranopia and tritanopia."""

from __future__ import annotations

from bench.bench_palette import THRESHOLD, VISIONS, closest_pairs


def test_every_two_seat_colours_stay_apart_for_every_kind_of_vision():
    figures = closest_pairs()
    assert set(figures) == set(VISIONS)
    for vision, (distance, a, b) in figures.items():
        assert distance >= THRESHOLD, f"{vision}: seats {a} and {b} are {distance:.1f} apart"


def test_the_check_catches_a_palette_a_protanope_cannot_read():
    """The palette before: red (214, 39, 40) and brown (125, 80, 45) look alike to a protanope."""
    before = ((214, 39, 40), (31, 110, 190), (0, 150, 110), (245, 150, 20), (140, 80, 185), (125, 80, 45))
    distance, a, b = closest_pairs(before)["protanopia"]
    assert distance < THRESHOLD and (a, b) == ("1", "6")
