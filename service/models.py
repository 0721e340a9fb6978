"""Rows of the store as value types, and what the game master tells the Discord layer."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from i18n import level_title, tr

LOBBY, RUNNING, FINISHED, CANCELLED = "lobby", "running", "finished", "cancelled"
TIME_MODES = ("round", "bank", "increment", "none")


@dataclass(frozen=True)
class Actor:
    """Who asks: a Discord user, and whether he may administer every game of the server (``guild_id``:
    the server he asks in, where that holds; None for the bot's own actors)."""

    user_id: int
    name: str = ""
    is_admin: bool = False
    guild_id: int | None = None


@dataclass(frozen=True)
class TimeSettings:
    """How a game is clocked: a deadline per turn, a bank per player (optionally with increment), or none."""

    mode: str = "round"
    round_seconds: int = 86400
    bank_seconds: int = 259200
    increment_seconds: int = 3600
    reminder_seconds: int = 3600
    missed_limit: int = 3
    orders_stand: bool = False  # at a deadline, orders given but not passed are played
    away_days: int = 14  # days each player may be away (a computer standing in) over the game; 0: never
    min_reliability: int = 0  # joins refused below this on-time rate, in percent (0: none)
    daily: str | None = None  # turns end at a time of day (service.daily's text); None: turn_time after
    replacements: str = "off"  # who plays on in a seat its player left: off, computer, open, open-auto


_COMPUTER = re.compile(r"Computer (\d+)(?: \((.+)\))?")


def computer_name(number: int, level: str | None) -> str:
    """A computer seat's name as stored ("Computer 2 (Hard)"; without a level where the game has one
    level): English, like every stored value, and read back by ``PlayerRow.shown_name`` to show it."""
    return f"Computer {number}" if level is None else f"Computer {number} ({level})"


def computer_shown(name: str) -> str:
    """A computer seat's stored English name ("Computer 2 (Hard)") in the current language."""
    found = _COMPUTER.fullmatch(name)
    if found is None:
        return name
    number, level = found.groups()
    if level is None:
        return tr("Computer {number}", number=number)
    return tr("Computer {number} ({level})", number=number, level=level_title(level))


def computer_title(level: str | None) -> str:
    """A computer player of ``level`` as a leaderboard shows it, in the current language."""
    return tr("Computer ({level})", level=level_title(level)) if level else tr("Computer")


COUNTED_TURNS = 10
"""Turns a member must have been asked to play before his on-time rate is shown or a game's
``min_reliability`` looks at it: a newcomer is not judged on one bad night."""


class Reliability(NamedTuple):
    """A member's turns across all his games: asked of him (not those a stand-in played while he was
    away), and answered before the deadline."""

    asked: int = 0
    on_time: int = 0

    @property
    def counted(self) -> bool:
        return self.asked >= COUNTED_TURNS

    @property
    def percent(self) -> int:
        """The on-time rate, rounded down (95.9% is not 96%)."""
        return 100 * self.on_time // self.asked if self.asked else 100

    def shown(self) -> str:
        """ "95% on time" (for a rate that is ``counted``)."""
        return tr("{percent}% on time", percent=self.percent)

    def detail(self) -> str:
        """ "On time: 95% (38 of 40 turns)", or how many turns are still to count."""
        if not self.counted:
            return tr(
                "On time: not counted yet ({asked} of {needed} turns played)", asked=self.asked, needed=COUNTED_TURNS
            )
        return tr(
            "On time: {percent}% ({on_time} of {asked} turns)",
            percent=self.percent,
            on_time=self.on_time,
            asked=self.asked,
        )


@dataclass(frozen=True)
class PlayerRow:
    id: int
    user_id: int | None
    name: str
    seat: int | None
    missed: int
    bank_left: float | None
    draw_agreed: bool
    ai_level: str | None = None  # a computer seat's level name; None plays the ruleset's strongest
    remind_at: float | None = None  # when his reminder of the current turn is due; None: none pending
    reminded_turn: int | None = None  # the turn he was last reminded in (once per turn)
    bank_warned: int = 0  # on a time bank: how many of its warnings (a quarter, a tenth left) he had
    away_until: float | None = None  # while he is away, a computer gives his orders until then
    away_level: str | None = None  # the level of that computer; None: the ruleset's default
    away_used: float = 0.0  # seconds of the game's away allowance taken (given back when he returns early)
    reliability: Reliability = Reliability()  # a member's turns in all his games (read with the row)
    left_seat: int | None = None  # the seat he left to a computer or another member (``seat`` is then None)
    took_over: bool = False  # plays on in a seat somebody left: rated for nobody

    @property
    def is_ai(self) -> bool:
        return self.user_id is None

    def away_at(self, now: float) -> bool:
        """Whether a computer stands in for him at ``now``."""
        return self.away_until is not None and now < self.away_until

    @property
    def shown_name(self) -> str:
        """The name players read, in the current language: a computer's stored English name is translated
        (its number and level kept), a member's is his own."""
        return computer_shown(self.name) if self.is_ai else self.name


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    lobby_message_id: int | None
    creator_id: int
    ruleset: str
    options: dict[str, Any]
    status: str
    min_players: int
    max_players: int
    seed: int
    state_text: str | None  # the stored state; ``state`` reads it only when asked (see GameMaster.state_of)
    turn: int
    seq: int
    version: int
    time: TimeSettings
    turn_started_at: float | None
    deadline_at: float | None
    reminder_at: float | None
    paused_at: float | None
    result: dict[str, Any] | None
    created_at: float
    rated: bool = True  # counts for ratings and leaderboards
    glance: Glance | None = None  # a running game at a glance, for lists (None: read its state)
    held_for: str | None = None  # the permissions the bot lacks to post in its thread, while it does
    held_at: float | None = None  # when the bot stopped its clock for that (None: a manager had already)
    held_told: frozenset[str] = frozenset()  # who was told of the hold: "u<user id>", "c<channel id>"
    tournament: InTournament | None = None  # a tournament's game: which tournament, which round

    @cached_property
    def state(self) -> dict[str, Any] | None:
        return _json(self.state_text) if self.state_text else None

    @classmethod
    def from_row(cls, row: Any) -> GameRow:
        return cls(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            thread_id=row["thread_id"],
            lobby_message_id=row["lobby_message_id"],
            creator_id=row["creator_id"],
            ruleset=row["ruleset"],
            options=_json(row["options"]),
            status=row["status"],
            min_players=row["min_players"],
            max_players=row["max_players"],
            seed=row["seed"],
            state_text=row["state"],
            turn=row["turn"],
            seq=row["seq"],
            version=row["version"],
            time=TimeSettings(
                row["time_mode"],
                row["round_seconds"],
                row["bank_seconds"],
                row["increment_seconds"],
                row["reminder_seconds"],
                row["missed_limit"],
                bool(row["orders_stand"]),
                row["away_days"],
                row["min_reliability"],
                row["daily_deadline"],
                row["replacements"],
            ),
            turn_started_at=row["turn_started_at"],
            deadline_at=row["deadline_at"],
            reminder_at=row["reminder_at"],
            paused_at=row["paused_at"],
            result=_json(row["result"]) if row["result"] else None,
            created_at=row["created_at"],
            rated=bool(row["rated"]),
            glance=Glance.parse(row["glance"]),
            held_for=row["held_for"],
            held_at=row["held_at"],
            held_told=frozenset(filter(None, (row["held_told"] or "").split(","))),
            tournament=InTournament(row["tournament_id"], row["tournament_round"])
            if row["tournament_id"] is not None
            else None,
        )


def _json(text: str) -> dict[str, Any]:
    """A JSON column; unreadable text becomes a marker that the engine's validation then refuses."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return {"damaged": str(text)[:80]}
    return value if isinstance(value, dict) else {"damaged": str(text)[:80]}


class Mirror(NamedTuple):
    """Where a game is shown in another server than its own (players matched across servers): its card
    and thread there, once posted."""

    guild_id: int
    channel_id: int
    lobby_message_id: int | None = None
    thread_id: int | None = None


class InTournament(NamedTuple):
    """The tournament a game is played in, and its round there."""

    number: int
    round: int


class Glance(NamedTuple):
    """What a list shows of a running game without its state (``games.glance``): who acts this
    turn, and the turn as the ruleset names and counts it."""

    acting: tuple[int, ...]
    unit: str
    number: int
    of: int | None

    @classmethod
    def parse(cls, text: str | None) -> Glance | None:
        """The stored glance, or None if the row has none (written before glances) or it is unreadable."""
        if not text:
            return None
        try:
            acting, unit, number, of = json.loads(text)
            return cls(tuple(int(seat) for seat in acting), str(unit), int(number), None if of is None else int(of))
        except (TypeError, ValueError):
            return None


@dataclass(frozen=True)
class OrderRow:
    seat: int
    text: str
    passed: bool
    updated_at: float | None = None
    stand_in: str | None = None  # the level of the computer that gave them while he was away; None: his own


@dataclass(frozen=True)
class Game:
    """A game with its players and the current turn's submission status (never other seats' orders)."""

    row: GameRow
    players: tuple[PlayerRow, ...]
    passed_seats: frozenset[int] = frozenset()
    acting_seats: frozenset[int] = frozenset()
    damage: str | None = None  # why the stored state cannot be loaded, if it cannot
    state: Any = None  # the engine state of a running game, parsed (shared, frozen)

    @property
    def id(self) -> int:
        return self.row.id

    def player_of(self, user_id: int) -> PlayerRow | None:
        return next((p for p in self.players if p.user_id == user_id), None)

    def player_at(self, seat: int) -> PlayerRow | None:
        return next((p for p in self.players if p.seat == seat), None)

    def names(self) -> list[str]:
        """Display names by seat (running games)."""
        by_seat = {p.seat: p for p in self.players if p.seat is not None}
        return [by_seat[seat].shown_name for seat in sorted(by_seat)]

    @property
    def waiting_seats(self) -> frozenset[int]:
        return self.acting_seats - self.passed_seats


@dataclass(frozen=True)
class Announcement:
    """Something to post to Discord. ``id`` is stable across retries, so delivery can be made idempotent;
    ``tried_at`` is when it was first attempted (None the first time)."""

    id: int
    game_id: int
    kind: str
    payload: dict[str, Any] = field(default_factory=dict)
    tried_at: float | None = None
