"""Can colour-blind players tell the seats apart? The seat colours under simulated colour blindness.

Each seat colour and the neutral grey of unowned cells are converted to CAM02-UCS (colorspacious)
as seen with normal vision and with the three dichromacies simulated at full severity (Machado,
Oliveira and Fernandes 2009: protanopia, deuteranopia, tritanopia). The measure is the CAM02-UCS
distance (ΔE) of every two seat colours, and of each seat colour and the neutral grey; the goal is
that the smallest of them, for every kind of vision, is at least THRESHOLD (a step many times the
just-noticeable difference, about 1; colours 15 apart read as different colours, not shades).
Seats are told apart by their marks as well (the board's legend), which this does not measure.

What it leaves out: anomalous trichromacy at partial severity (milder than the dichromacy it
approaches), achromatopsia, screens and lighting; the colours' mixes used for tints of territory.

Usage: python bench/bench_palette.py
Ends with ``RESULT palette threshold=15 normal=… protanopia=… deuteranopia=… tritanopia=…``.
"""

from __future__ import annotations

import itertools
import pathlib
import sys

import colorspacious
import numpy

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from render.style import NEUTRAL, PLAYER_COLOURS  # noqa: E402

THRESHOLD = 15.0
VISIONS = {"normal": None, "protanopia": "protanomaly", "deuteranopia": "deuteranomaly", "tritanopia": "tritanomaly"}


def seen(colour: tuple[int, int, int], deficiency: str | None) -> numpy.ndarray:
    """The colour in CAM02-UCS as a viewer with ``deficiency`` (a colorspacious cvd_type) sees it."""
    rgb = numpy.array(colour) / 255
    if deficiency is not None:
        space = {"name": "sRGB1+CVD", "cvd_type": deficiency, "severity": 100}
        rgb = numpy.clip(colorspacious.cspace_convert(rgb, space, "sRGB1"), 0, 1)
    return colorspacious.cspace_convert(rgb, "sRGB1", "CAM02-UCS")


def closest_pairs(colours=PLAYER_COLOURS, neutral=NEUTRAL) -> dict[str, tuple[float, str, str]]:
    """For each kind of vision, the smallest ΔE among the seat colours and the neutral grey, and
    which two colours it is between (seat numbers from 1, or "neutral")."""
    named = {str(seat + 1): colour for seat, colour in enumerate(colours)} | {"neutral": neutral}
    result = {}
    for vision, deficiency in VISIONS.items():
        points = {name: seen(colour, deficiency) for name, colour in named.items()}
        pairs = [(a, b) for a, b in itertools.combinations(named, 2)]
        distance, a, b = min((float(numpy.linalg.norm(points[a] - points[b])), a, b) for a, b in pairs)
        result[vision] = (distance, a, b)
    return result


def main() -> None:
    figures = closest_pairs()
    for vision, (distance, a, b) in figures.items():
        verdict = "ok" if distance >= THRESHOLD else "TOO CLOSE"
        print(
            f"{vision:13} closest: seat {a} and {'the neutral grey' if b == 'neutral' else 'seat ' + b}, ΔE {distance:5.1f} ({verdict})"
        )
    values = " ".join(f"{vision}={distance:.1f}" for vision, (distance, _, _) in figures.items())
    print(f"RESULT palette threshold={THRESHOLD:g} {values}")


if __name__ == "__main__":
    main()
