"""Who is still in a game, who left it when and how, and the places that makes: one rule for every
ruleset, so a game master, a summary or a new ruleset never learns a second one.

A seat plays until it is eliminated, surrenders or is removed, and remembers the turn it left in.
Final places (rules/README.md and each spec): players still in come first, ordered by the
ruleset's own score; then those who left, later departures above earlier ones. Players who leave
in the same turn share their place, and position points count the players ranked strictly below,
so a shared place shares its points.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine import stored
from engine.errors import StateError
from engine.i18n import mark
from engine.ruleset import Outcome


class Status(StrEnum):
    PLAYING = "playing"
    ELIMINATED = "eliminated"
    SURRENDERED = "surrendered"
    REMOVED = "removed"


# The statuses as boards show them ("eliminated · 3 cells"), marked for translation.
STATUS_WORDS = (mark("playing"), mark("eliminated"), mark("surrendered"), mark("removed"))


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's standing; ``left`` is the turn he left in (None while playing)."""

    status: Status = Status.PLAYING
    reason: str | None = None
    left: int | None = None

    @property
    def playing(self) -> bool:
        return self.status == Status.PLAYING


Seats = tuple[Seat, ...]


def seated(count: int) -> Seats:
    return (Seat(),) * count


def still_in(seats: Sequence[Seat]) -> list[int]:
    return [seat for seat, standing in enumerate(seats) if standing.playing]


def leave(seats: Seats, gone: Iterable[int], status: Status, reason: str, turn: int) -> Seats:
    """``gone`` leave together in ``turn`` (so they will share a place)."""
    leaving = set(gone)
    return tuple(Seat(status, reason, turn) if seat in leaving else s for seat, s in enumerate(seats))


def departure(reason: str) -> Status:
    """A seat leaving by ``remove_player``: the player's own surrender, or the game master's removal."""
    return Status.SURRENDERED if reason == "surrender" else Status.REMOVED


def next_to_move(seats: Sequence[Seat], after: int) -> int | None:
    """In an alternating game, the seat that moves after ``after``: the next one still in, going
    round the table in seat order (``after`` itself when it is the only one left)."""
    count = len(seats)
    for step in range(1, count + 1):
        seat = (after + step) % count
        if seats[seat].playing:
            return seat
    return None


def ranking(seats: Sequence[Seat], score: Callable[[int], Any]) -> tuple[tuple[int, ...], ...]:
    """Groups of seats from first place down. ``score(seat)`` orders the players still in (higher
    first, equal scores share a place); departures follow, by the turn they left, later first."""
    groups: dict[tuple[int, Any], list[int]] = defaultdict(list)
    for seat, standing in enumerate(seats):
        groups[(1, score(seat)) if standing.playing else (0, standing.left)].append(seat)
    return tuple(tuple(groups[key]) for key in sorted(groups, reverse=True))


def position_points(places: Sequence[Sequence[int]]) -> dict[int, int]:
    """One point per player ranked strictly below (the winner of an N-player game gets N - 1)."""
    below = sum(len(group) for group in places)
    points = {}
    for group in places:
        below -= len(group)
        points.update(dict.fromkeys(group, below))
    return points


def outcome(
    seats: Sequence[Seat],
    score: Callable[[int], Any],
    bonus: Callable[[int], int] = lambda seat: 0,
    *,
    limit: str = mark("the game reached its end"),
) -> Outcome:
    """The finished game: places by :func:`ranking`, position points plus the ruleset's own
    ``bonus(seat)``; the first place wins, and a shared first place is a draw. It ended because one
    player (or none) was left, else for the ruleset's own ``limit`` ("the round limit was reached")."""
    places = ranking(seats, score)
    points = {seat: position + bonus(seat) for seat, position in position_points(places).items()}
    left = len(still_in(seats))
    reason = mark("the last player standing won") if left == 1 else mark("no player was left") if left == 0 else limit
    return Outcome(winners=places[0], draw=len(places[0]) > 1, ranking=places, points=points, reason=reason)


def to_data(seats: Sequence[Seat]) -> list[dict[str, Any]]:
    return [{"status": s.status.value, "reason": s.reason, "left": s.left} for s in seats]


def from_word(word: str, left: int | None, died: str = "") -> dict[str, Any]:
    """Seat data for a seat that version-1 states stored as one word: "playing", "dead" (with
    ``died`` as the reason), or why it left."""
    if word == Status.PLAYING:
        return {"status": Status.PLAYING.value, "reason": None, "left": None}
    status = Status.ELIMINATED if word == "dead" else departure(word)
    return {"status": status.value, "reason": died if word == "dead" else word, "left": left}


def from_data(data: Any, game: str) -> Seats:
    """Seats read back from ``to_data`` (a list the ruleset has checked); a seat that is playing with a
    departure turn (or gone without one) is damage, not a position."""
    seats = []
    for number, entry in enumerate(data):
        read = stored.Fields(entry, game, f"players[{number}]")
        status = Status(read.one_of("status", [s.value for s in Status]))
        reason, left = read["reason"], read["left"]
        reason = None if reason is None else read.text("reason")
        left = None if left is None else read.whole("left", 0, stored.MOST)
        read.done()
        if (status == Status.PLAYING) != (left is None):
            raise StateError(f"{game} state is damaged: a {status} seat with departure turn {left!r}")
        seats.append(Seat(status, reason, left))
    return tuple(seats)
