"""Plain-text summaries of resolved turns, for channel posts and the demo's log. Each ruleset says
what its own events mean (``Ruleset.describe_event``); this module names the seats."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine import Event, Outcome, Ruleset
from engine.i18n import mark, tr
from engine.words import count

COLOURS = (mark("red"), mark("blue"), mark("green"), mark("orange"), mark("purple"), mark("brown"))


def numbered_turn(unit: str, number: int, of: int | None = None, *, capital: bool = True) -> str:
    """ "Round 4", "creating phase 12", "move phase 7 of 12": a turn by its ruleset's name for it and
    its number as the ruleset counts it (``Ruleset.turn_number``), in the current language."""
    if of is None:
        named = tr("{unit} {number}", unit=tr(unit), number=number)
    else:
        named = tr("{unit} {number} of {total}", unit=tr(unit), number=number, total=of)
    return named[:1].upper() + named[1:] if capital else named


def seat_name(names: Sequence[str], seat: int | None) -> str:
    if seat is None:
        return tr("neutral")
    if seat >= len(names):
        return tr("seat {number}", number=seat)
    return coloured(names[seat], seat)


def coloured(name: str, seat: int) -> str:
    """ "alice (red)": a player by name and seat colour, as the boards draw him."""
    return tr("{player} ({colour})", player=name, colour=tr(COLOURS[seat % len(COLOURS)]))


def describe_events(rs: Ruleset, events: Iterable[Event], names: Sequence[str]) -> list[str]:
    """One line per event worth mentioning, in the order they happened."""
    who = lambda seat: seat_name(names, seat)  # noqa: E731
    return [line for line in (rs.describe_event(e, who) for e in events) if line]


def describe_outcome(outcome: Outcome, names: Sequence[str]) -> list[str]:
    lines = []
    if outcome.draw:
        lines.append("Draw between " + ", ".join(seat_name(names, s) for s in outcome.winners) + ".")
    else:
        lines.append(f"Winner: {seat_name(names, outcome.winners[0])}.")
    place = 1
    for group in outcome.ranking:
        for seat in group:
            lines.append(f"{place}. {seat_name(names, seat)} — {count(outcome.points[seat], 'point')}")
        place += len(group)
    return lines
