"""What the game master announces, one type per kind, as the outbox stores it: a kind and a JSON payload.

A payload outlives the code that wrote it (rows queued before an upgrade are delivered after it), so
``from_payload`` reads every shape a release has written: keys added since are optional, with the
meaning a post had before them. ``to_payload`` writes the newest shape.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar, get_args

Payload = dict[str, Any]


@dataclass(frozen=True)
class NamedTurn:
    """A turn as posts name it: the service's number, and the ruleset's name and count for it ("move
    phase" 7 of 12). Posts queued before turns carried their count say the service's number."""

    turn: int
    unit: str
    number: int
    of: int | None = None

    def to_payload(self) -> Payload:
        return {"turn": self.turn, "unit": self.unit, "number": self.number, "of": self.of}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> NamedTurn:
        turn = payload["turn"]
        return cls(turn, payload.get("unit", "turn"), payload.get("number", turn), payload.get("of"))


@dataclass(frozen=True)
class TurnCall:
    """A turn's call to play: who must play it (``user_ids``, humans only), how, and by when."""

    named: NamedTurn
    user_ids: tuple[int, ...]
    deadline_at: float | None
    seats: tuple[int, ...] = ()
    secret: bool = True  # orders are given, shown and passed, rather than sent as one move
    hint: str | None = None  # what to write this turn, in the ruleset's words

    def to_payload(self) -> Payload:
        return self.named.to_payload() | {
            "secret": self.secret,
            "hint": self.hint,
            "seats": list(self.seats),
            "user_ids": list(self.user_ids),
            "deadline_at": self.deadline_at,
        }

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> TurnCall:
        return cls(
            NamedTurn.from_payload(payload),
            tuple(payload["user_ids"]),
            payload["deadline_at"],
            tuple(payload.get("seats", ())),
            payload.get("secret", True),
            payload.get("hint"),
        )


def _call_payload(call: TurnCall | None) -> Payload:
    return {} if call is None else {"next_turn": call.to_payload()}


def _call_from(payload: Mapping[str, Any]) -> TurnCall | None:
    return TurnCall.from_payload(payload["next_turn"]) if payload.get("next_turn") else None


@dataclass(frozen=True)
class GameStarted:
    kind: ClassVar[str] = "game_started"
    seq: int  # the history entry of the first board
    next_turn: TurnCall | None = None

    def to_payload(self) -> Payload:
        return {"seq": self.seq} | _call_payload(self.next_turn)

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> GameStarted:
        return cls(payload["seq"], _call_from(payload))


@dataclass(frozen=True)
class RoundResolved:
    kind: ClassVar[str] = "round_resolved"
    named: NamedTurn
    seq: int
    events: tuple[dict[str, Any], ...]
    missed: tuple[tuple[int, int], ...] = ()  # (seat, turns missed in a row) of those who missed this one
    missed_limit: int | None = None
    next_turn: TurnCall | None = None

    def to_payload(self) -> Payload:
        return (
            self.named.to_payload()
            | {
                "seq": self.seq,
                "events": list(self.events),
                "missed": [list(pair) for pair in self.missed],
                "missed_limit": self.missed_limit,
            }
            | _call_payload(self.next_turn)
        )

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> RoundResolved:
        return cls(
            NamedTurn.from_payload(payload),
            payload["seq"],
            tuple(payload["events"]),
            tuple((seat, count) for seat, count in payload.get("missed", [])),
            payload.get("missed_limit"),
            _call_from(payload),
        )


@dataclass(frozen=True)
class TurnStarted:
    """A new turn's call to play, when no other post of the same change carries it."""

    kind: ClassVar[str] = "turn_started"
    call: TurnCall

    def to_payload(self) -> Payload:
        return self.call.to_payload()

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> TurnStarted:
        return cls(TurnCall.from_payload(payload))


@dataclass(frozen=True)
class Reminder:
    """The deadline is near, for each of ``user_ids`` (by direct message); the lists go by their order."""

    kind: ClassVar[str] = "reminder"
    named: NamedTurn
    user_ids: tuple[int, ...]
    deadline_at: float | None
    orders: tuple[int, ...]  # orders given but not passed
    last_chance: tuple[bool, ...]  # one more miss removes him
    orders_stand: bool = False  # orders given count at the deadline, passed or not
    bank_left: tuple[float | None, ...] = ()  # on a time bank: the seconds left when it ran under a warning

    def to_payload(self) -> Payload:
        return (
            self.named.to_payload()
            | {
                "user_ids": list(self.user_ids),
                "orders": list(self.orders),
                "last_chance": list(self.last_chance),
                "orders_stand": self.orders_stand,
                "deadline_at": self.deadline_at,
            }
            | ({"bank_left": list(self.bank_left)} if self.bank_left else {})
        )

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Reminder:
        count = len(payload["user_ids"])
        return cls(
            NamedTurn.from_payload(payload),
            tuple(payload["user_ids"]),
            payload["deadline_at"],
            tuple(payload.get("orders", [0] * count)),
            tuple(payload.get("last_chance", [False] * count)),
            payload.get("orders_stand", False),
            tuple(payload.get("bank_left", ())),
        )


@dataclass(frozen=True)
class PlayerRemoved:
    kind: ClassVar[str] = "player_removed"
    seat: int
    reason: str  # "surrender", "missed turns", "time ran out", "kicked"
    seq: int
    user_id: int | None = None
    name: str = ""
    events: tuple[dict[str, Any], ...] = ()
    next_turn: TurnCall | None = None
    by: int | None = None  # the manager who removed him ("kicked")

    def to_payload(self) -> Payload:
        return (
            {
                "seat": self.seat,
                "user_id": self.user_id,
                "name": self.name,
                "reason": self.reason,
                "seq": self.seq,
                "events": list(self.events),
            }
            | ({"by": self.by} if self.by is not None else {})
            | _call_payload(self.next_turn)
        )

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> PlayerRemoved:
        return cls(
            payload["seat"],
            payload["reason"],
            payload["seq"],
            payload.get("user_id"),
            payload.get("name", ""),
            tuple(payload.get("events", [])),
            _call_from(payload),
            payload.get("by"),
        )


@dataclass(frozen=True)
class SeatTakenOver:
    """Somebody plays on in a seat: a computer, for a player who left it (``reason`` as for a
    removal, or "missed the first turn"), or a member, for the computer that had it ("handed over")."""

    kind: ClassVar[str] = "seat_taken_over"
    seat: int
    reason: str
    left_user_id: int | None
    left_name: str
    taker_user_id: int | None
    taker_name: str
    offered: bool = False  # members may ask to take it (with a button)
    by: int | None = None  # the manager who removed the player ("kicked")
    next_turn: TurnCall | None = None

    def to_payload(self) -> Payload:
        return {
            "seat": self.seat,
            "reason": self.reason,
            "left": [self.left_user_id, self.left_name],
            "taker": [self.taker_user_id, self.taker_name],
            "offered": self.offered,
            "by": self.by,
        } | _call_payload(self.next_turn)

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> SeatTakenOver:
        (left_user_id, left_name), (taker_user_id, taker_name) = payload["left"], payload["taker"]
        return cls(
            payload["seat"],
            payload["reason"],
            left_user_id,
            left_name,
            taker_user_id,
            taker_name,
            payload.get("offered", False),
            payload.get("by"),
            _call_from(payload),
        )


@dataclass(frozen=True)
class GameOver:
    kind: ClassVar[str] = "game_over"
    result: dict[str, Any]  # as the game row stores it
    seq: int
    board: bool = True  # whether to show the final position (no turn's post of the same change did)

    def to_payload(self) -> Payload:
        return {"result": self.result, "seq": self.seq, "board": self.board}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> GameOver:
        return cls(payload["result"], payload["seq"], payload.get("board", True))


@dataclass(frozen=True)
class Replay:
    """The whole game animated, posted after its final board."""

    kind: ClassVar[str] = "replay"

    def to_payload(self) -> Payload:
        return {}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Replay:
        return cls()


@dataclass(frozen=True)
class DrawProposed:
    kind: ClassVar[str] = "draw_proposed"
    seat: int
    user_id: int | None = None
    declined: tuple[int, ...] = ()  # computers ahead, who declined (posts made before a declined offer was refused)

    def to_payload(self) -> Payload:
        return {"seat": self.seat, "user_id": self.user_id, "declined": list(self.declined)}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> DrawProposed:
        return cls(payload["seat"], payload.get("user_id"), tuple(payload.get("declined", [])))


@dataclass(frozen=True)
class ManagerAction:
    """What a manager did to the game (``by`` is his user id): each kind below is one."""

    by: int

    def to_payload(self) -> Payload:
        return {"by": self.by}

    @classmethod
    def from_payload(cls: type[Acted], payload: Mapping[str, Any]) -> Acted:
        return cls(payload["by"])


Acted = TypeVar("Acted", bound=ManagerAction)


@dataclass(frozen=True)
class GameCancelled(ManagerAction):
    kind: ClassVar[str] = "game_cancelled"


@dataclass(frozen=True)
class Paused(ManagerAction):
    kind: ClassVar[str] = "paused"


@dataclass(frozen=True)
class Resumed(ManagerAction):
    kind: ClassVar[str] = "resumed"


@dataclass(frozen=True)
class Extended(ManagerAction):
    kind: ClassVar[str] = "extended"
    seconds: int | None = None
    deadline_at: float | None = None  # the new one

    def to_payload(self) -> Payload:
        return {"by": self.by, "seconds": self.seconds, "deadline_at": self.deadline_at}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Extended:
        return cls(payload["by"], payload.get("seconds"), payload.get("deadline_at"))


@dataclass(frozen=True)
class BackInReach:
    """The bot can post in the game's thread again: the clock it stopped when it could not (lacking
    ``missing`` since ``since``) runs again, with this deadline."""

    kind: ClassVar[str] = "back_in_reach"
    missing: str
    since: float
    deadline_at: float | None

    def to_payload(self) -> Payload:
        return {"missing": self.missing, "since": self.since, "deadline_at": self.deadline_at}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> BackInReach:
        return cls(payload["missing"], payload["since"], payload.get("deadline_at"))


News = (
    GameStarted
    | RoundResolved
    | TurnStarted
    | Reminder
    | PlayerRemoved
    | SeatTakenOver
    | GameOver
    | Replay
    | DrawProposed
    | GameCancelled
    | Paused
    | Resumed
    | Extended
    | BackInReach
)
"""Any announcement's content."""

CARRIES_THE_CALL = (GameStarted, RoundResolved, PlayerRemoved, SeatTakenOver)
"""The posts a new turn's call to play rides on (``next_turn``) when one of them is made just before it."""


KINDS: dict[str, type[News]] = {kind.kind: kind for kind in get_args(News)}


def read(kind: str, payload: Mapping[str, Any]) -> News:
    """An outbox row's announcement, whichever release queued it."""
    return KINDS[kind].from_payload(payload)
