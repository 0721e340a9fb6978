"""The contract every ruleset implements, and the small value types it speaks in.

Players are seats ``0..n-1``. ``resolve`` is the only state transition; states are frozen
values, replaced and never mutated. Alternating games are the one-actor case of simultaneous
ones: ``acting_players`` answers both.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from engine import stored
from engine.budget import Budget
from engine.errors import EngineError, NotActingError, OptionError, StateError
from engine.i18n import joined, level_title, ntr, option_name, titled, tr

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


@dataclass(frozen=True)
class Option:
    """One documented game option. ``kind`` is "int", "choice", "bool" or "map".

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

    def label(self, value: Any) -> str:
        """How players read ``value``: its label for a labelled choice, else the value itself."""
        if value in self.choices and self.labels:
            return self.labels[self.choices.index(value)]
        return str(value)

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
            if value not in self.choices:
                raise OptionError(
                    tr(
                        "option {name}={value!r} must be one of: {choices}",
                        name=option_name(self.name),
                        value=value,
                        choices=joined(self.choices),
                    )
                )
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


class Ruleset(ABC, Generic[S, OrderT, ViewT]):
    """Base class of every game. Subclasses are stateless; all game data lives in the state."""

    name: str
    title: str
    rules_text: str  # the rules for players, in Discord markdown (under 4000 characters)
    min_players: int
    max_players: int
    default_players: int  # the table a demo or a quick game is played with
    bot_levels: tuple[BotLevel, ...]  # weakest first
    bot_level_aliases: Mapping[str, str] = {}  # old level name -> its name now, for games stored with it
    clock_presets: tuple[ClockPreset, ...] = ()  # chess clocks of the game's own rules, if any
    state_version: int = 1
    state_upgrades: Mapping[int, Callable[[Mapping[str, Any]], dict[str, Any]]] = {}  # version v -> v + 1

    @abstractmethod
    def options_schema(self) -> tuple[Option, ...]: ...

    @abstractmethod
    def setup(self, num_players: int, options: Mapping[str, Any] | None = None, seed: int | str = 0) -> S: ...

    @abstractmethod
    def acting_players(self, state: S) -> frozenset[int]: ...

    @abstractmethod
    def seats_in_game(self, state: S) -> frozenset[int]:
        """Seats not yet eliminated, surrendered or removed (acting now or waiting for their turn)."""

    @abstractmethod
    def orders_are_secret(self, state: S) -> bool: ...

    @abstractmethod
    def parse_orders(self, state: S, seat: int, text: str) -> list[OrderT]: ...

    @abstractmethod
    def format_order(self, order: OrderT) -> str: ...

    @abstractmethod
    def default_orders(self, state: S, seat: int) -> list[OrderT]: ...

    @abstractmethod
    def resolve(self, state: S, orders: Mapping[int, Sequence[OrderT]]) -> Resolution[S]: ...

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None: ...

    @abstractmethod
    def standing(self, state: S) -> tuple[tuple[int, ...], ...]:
        """The places if the game ended now (groups of seats, first place first, as in ``Outcome``):
        for a game that ends early, and for computers deciding whether they are ahead."""

    @abstractmethod
    def view(self, state: S, seat: int | None) -> ViewT: ...

    def to_dict(self, state: S) -> dict[str, Any]:
        """The state as JSON-safe data, in the envelope that names its ruleset and format version."""
        return {"ruleset": self.name, "version": self.state_version, **self.write_state(state)}

    def from_dict(self, data: Mapping[str, Any]) -> S:
        """A stored state, upgraded from older formats (``state_upgrades``) and validated: the
        ruleset's own reader checks every field, then the game must be able to go on."""
        return self.check_playable(self.read_state(self.check_envelope(data, self.state_upgrades)))

    @abstractmethod
    def write_state(self, state: S) -> dict[str, Any]:
        """The state's own fields as JSON-safe data (``to_dict`` adds the envelope)."""

    @abstractmethod
    def read_state(self, data: Mapping[str, Any]) -> S:
        """The state from data in the current format (envelope included and already checked), every
        field validated: anything inconsistent is a StateError naming the field. Rules for a game's
        *start* (a fair map) are not checked here: play moves a position away from them."""

    def remove_player(self, state: S, seat: int, reason: str) -> Resolution[S]:
        """Surrender, timeout or missed turns: ``seat`` leaves now, and the game goes on or ends."""
        if self.outcome(state) is not None:
            raise EngineError(tr("the game is over; nobody can leave it now"))
        if seat not in self.seats_in_game(state):
            raise NotActingError(tr("seat {seat} is not playing in this game", seat=seat))
        new, followed = self.leave(state, seat, reason)
        happened = [Event("player_removed", {"seat": seat, "reason": reason}), *followed]
        if (ended := self.outcome(new)) is not None:
            happened.append(Event("game_over", {"winners": list(ended.winners)}))
        return Resolution(new, tuple(happened))

    @abstractmethod
    def leave(self, state: S, seat: int, reason: str) -> tuple[S, Sequence[Event]]:
        """The state once ``seat`` (known to be in the game) has left for ``reason``: its holdings
        neutral as the rules say; with the events of anything that followed at once (a phase nobody
        is left to play resolving), not the departure or the game's end, which ``remove_player`` adds."""

    @abstractmethod
    def ai_orders(
        self, state: S, seat: int, seed: int | str, *, level: str | None = None, budget: int | None = None
    ) -> list[OrderT]:
        """Orders a computer player of ``level`` (default: the strongest) would give now, searching at
        most ``budget`` nodes (default: the level's own); deterministic for a given seed."""

    @abstractmethod
    def turn_unit(self, state: S) -> str:
        """What the current turn is called for players, lower case: "round", "move", "creating phase"."""

    @abstractmethod
    def describe_event(self, event: Event, who: SeatNamer) -> str | None:
        """One line for players about ``event``, or None for events too small to mention."""

    def turn_number(self, state: S, played: int) -> tuple[int, int | None]:
        """The current turn's number as players count it (``played`` turns have been resolved) and the
        last number the game allows, or None where it sets none: by default turn ``played + 1``.
        A game that counts only some turns against its limit numbers them as it counts them."""
        return played + 1, None

    def map_name(self, state: S) -> str | None:
        """The id of the map the game is played on (a generated map's too), or None in a game without maps."""
        return None

    def bot_level(self, level: str | None) -> BotLevel:
        """The named level (default: the strongest); an unknown name is refused with the known ones."""
        if level is None:
            return self.bot_levels[-1]
        level = self.bot_level_aliases.get(level, level)
        for known in self.bot_levels:
            if known.name == level:
                return known
        names = titled((known.name for known in self.bot_levels), level_title)
        raise OptionError(
            tr("{game} has no computer level {level!r}; levels: {names}", game=tr(self.title), level=level, names=names)
        )

    def bot_evaluation(self, state: S, seat: int) -> float:
        """How ``seat``'s position looks to the game's computer players, from -1 (lost) through 0
        (even) to 1 (won). A computer asked for a draw accepts unless this is above 0 (it is ahead).
        Rulesets give their bots' own evaluation of the position, cheap (no search: the service asks
        it while planning a turn); by default the standing: 1 alone in first place, 0 sharing it, -1
        behind."""
        first = self.standing(state)[0]
        return (1.0 if len(first) == 1 else 0.0) if seat in first else -1.0

    def order_hint(self, state: S) -> str:
        """What to write this turn, in a line for the ping that asks for it (Discord markdown)."""
        return ""

    def search_budget(self, level: str | None, budget: int | None) -> Budget:
        """What ``ai_orders(level=, budget=)`` may search: ``budget`` nodes if given, else the level's."""
        nodes = self.bot_level(level).budget if budget is None else budget
        if isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 0:
            raise OptionError(tr("a computer player's budget is a whole number of nodes, not {nodes!r}", nodes=nodes))
        return Budget(nodes)

    def tutorial(self) -> tuple[TutorialPage[S], ...]:
        """Pages that teach the game from real positions, first to last; none unless a ruleset has them."""
        return ()

    def order_warnings(self, state: S, seat: int, orders: Sequence[OrderT]) -> list[str]:
        """What ``orders`` (legal ones) would do at once that their author must know before they are
        final: where he alone acts now, that they put him out of the game. Where others act too,
        their orders decide what happens, and nothing is foretold."""
        if self.acting_players(state) != frozenset({seat}):
            return []
        after = self.resolve(state, {seat: list(orders)}).state
        return [] if seat in self.seats_in_game(after) else [self.losing_warning(state, seat)]

    def losing_warning(self, state: S, seat: int) -> str:
        """The warning for orders that would put their author out of the game, in the game's words."""
        return tr("these orders would put you out of the game at once")

    def suggest_orders(self, state: S, seat: int, text: str) -> list[str]:
        """Legal order lines starting like ``text`` (for autocomplete); rulesets override it."""
        return []

    def normalize_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Options with defaults filled in and every value checked (before a lobby is created)."""
        return normalize_options(self.options_schema(), options)

    def format_orders(self, orders: Sequence[OrderT]) -> str:
        """Orders as one text that ``parse_orders`` reads back."""
        return "; ".join(self.format_order(order) for order in orders)

    def check_num_players(self, num_players: int) -> None:
        if not self.min_players <= num_players <= self.max_players:
            game, low, high = tr(self.title), self.min_players, self.max_players
            raise OptionError(
                ntr(
                    "{game} is played by {n} player, not {count}",
                    "{game} is played by {n} players, not {count}",
                    low,
                    game=game,
                    count=num_players,
                )
                if low == high
                else tr(
                    "{game} is played by {low} to {high} players, not {count}",
                    game=game,
                    low=low,
                    high=high,
                    count=num_players,
                )
            )

    def check_playable(self, state: S) -> S:
        """``state``, loaded, if it can go on: a game still running with nobody to act would wait forever."""
        if not self.acting_players(state) and self.outcome(state) is None:
            raise StateError(f"{self.name} state is damaged: the game is running but nobody can act")
        return state

    def check_envelope(
        self,
        data: Mapping[str, Any],
        upgrades: Mapping[int, Callable[[Mapping[str, Any]], dict[str, Any]]] | None = None,
    ) -> Mapping[str, Any]:
        """Refuse serialized state of another ruleset or an unknown format. ``upgrades[v]`` turns
        version ``v`` data into version ``v + 1``, so games saved by older code keep loading; the
        data comes back in the current format."""
        if not isinstance(data, Mapping):
            raise StateError(f"{self.name} state must be an object, not {type(data).__name__}")
        if data.get("ruleset") != self.name:
            raise StateError(f"state is for ruleset {stored.shown(data.get('ruleset'))}, not {self.name!r}")
        while type(version := data.get("version")) is int and version in (upgrades or {}):
            try:
                data = {**upgrades[version](data), "version": version + 1}
            except (KeyError, TypeError, ValueError, AttributeError) as err:
                raise StateError(
                    f"{self.name} state version {version} is damaged: {type(err).__name__}: {err}"
                ) from None
        if type(data.get("version")) is not int or data["version"] != self.state_version:
            raise StateError(
                f"{self.name} state version {stored.shown(data.get('version'))} is not {self.state_version}"
            )
        return data
