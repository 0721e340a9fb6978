"""The small value types the ruleset contract speaks in: events, resolutions, outcomes, options,
computer levels, clocks and tutorial pages."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from engine.errors import OptionError
from engine.i18n import joined, ntr, option_name, tr

S = TypeVar("S")
OrderT = TypeVar("OrderT")
ViewT = TypeVar("ViewT")

SeatNamer = Callable[[int | None], str]  # a seat's name as players read it; None is "neutral"


@dataclass(frozen=True)
class Event:
    """Something that happened while resolving, for summaries and announcements (JSON-safe data)."""

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.data}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        rest = dict(data)
        return cls(rest.pop("kind"), rest)


@dataclass(frozen=True)
class Resolution(Generic[S]):
    state: S
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``ranking`` lists groups of seats from first place down; seats in one group share a place.
    ``points`` maps every seat to its points. ``reason`` says why it ended, for players
    ("the last player standing", "the capital was taken", "the round limit was reached").
    """

    winners: tuple[int, ...]
    draw: bool
    ranking: tuple[tuple[int, ...], ...]
    points: Mapping[int, int]
    reason: str = ""


TEXT_MOST = 60  # characters of a "text" option


@dataclass(frozen=True)
class Option:
    """One documented game option. ``kind`` is "int", "choice", "bool", "map" or "text" (a short
    text whose meaning the option's owner checks).

    For "choice" options, ``choices`` are the values (all text or all whole numbers) and ``labels``,
    when given, what players read for each. For "map" options, ``choices`` names the shipped maps;
    explicit map data is accepted as well. ``description`` fits a Discord option (100 characters).
    """

    name: str
    kind: str
    default: Any
    description: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    labels: tuple[str, ...] = ()
    generated: bool = False  # shapes a generated map only (its size): refused beside a chosen map

    def label(self, value: Any) -> str:
        """How players read ``value``: its label for a labelled choice, else the value itself."""
        if self.labels and self.offers(value):
            return self.labels[self.choices.index(value)]
        return str(value)

    def offers(self, value: Any) -> bool:
        """``value`` is one of the choices with its type too: ``True`` and ``1.0`` equal 1 but are not
        it, and a game begun with one would store a value its own state reader refuses."""
        return any(type(value) is type(choice) and value == choice for choice in self.choices)

    def check(self, value: Any) -> Any:
        """The value, validated; raises OptionError saying what would be right. An option whose default
        is None (unset: the ruleset decides, as a generated map or a measured komi) may be given unset."""
        if value is None and self.default is None:
            return value
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(
                    tr("option {name}={value!r} must be a whole number", name=option_name(self.name), value=value)
                )
            if self.minimum is not None and value < self.minimum or self.maximum is not None and value > self.maximum:
                raise OptionError(
                    tr(
                        "option {name}={value} must be between {low} and {high}",
                        name=option_name(self.name),
                        value=value,
                        low=self.minimum,
                        high=self.maximum,
                    )
                )
        elif self.kind == "choice":
            if not self.offers(value):
                raise OptionError(
                    tr(
                        "option {name}={value!r} must be one of: {choices}",
                        name=option_name(self.name),
                        value=value,
                        choices=joined(tr(label) for label in self.labels) if self.labels else joined(self.choices),
                    )
                )
        elif self.kind == "text":
            if not isinstance(value, str) or not 1 <= len(value.strip()) <= TEXT_MOST:
                raise OptionError(
                    tr(
                        "option {name}={value!r} must be text of at most {most} characters",
                        name=option_name(self.name),
                        value=value,
                        most=TEXT_MOST,
                    )
                )
            value = value.strip()
        elif self.kind == "bool":
            if not isinstance(value, bool):
                raise OptionError(
                    tr("option {name}={value!r} must be true or false", name=option_name(self.name), value=value)
                )
        return value


def normalize_options(schema: Sequence[Option], options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Defaults filled in, every value checked, unknown names refused."""
    options = dict(options or {})
    known = {opt.name: opt for opt in schema}
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise OptionError(
            ntr(
                "unknown option {names}; options are: {known}",
                "unknown options {names}; options are: {known}",
                len(unknown),
                names=joined(unknown),
                known=joined(known),
            )
        )
    return {name: opt.check(options[name]) if name in options else opt.default for name, opt in known.items()}


@dataclass(frozen=True)
class BotLevel:
    """A computer player's strength: its name for players and its search budget in nodes (not
    seconds, so a game replays the same on any machine)."""

    name: str
    budget: int


@dataclass(frozen=True)
class ClockPreset:
    """A chess clock a ruleset offers by name: every player's total time (an increment per turn is
    chosen with it when the game is opened)."""

    name: str
    label: str
    seconds: int


@dataclass(frozen=True)
class TutorialPage(Generic[S]):
    """One page of a ruleset's tutorial: what to read (Discord markdown), and the real position it
    shows, with ``orders`` of ``seat`` drawn on it when the page explains a move."""

    text: str
    state: S
    seat: int | None = None
    orders: str = ""
