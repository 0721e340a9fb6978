"""What a game supplies as its rules: who plays, what may be ordered, how a turn resolves, who
won. Players are seats ``0..n-1``; ``resolve`` is the only state transition, and states are frozen
values, replaced and never mutated. Alternating games are the one-actor case of simultaneous ones:
``acting_players`` answers both."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, Generic

from engine.contract.values import ClockPreset, Event, Option, OrderT, Outcome, Resolution, S, ViewT, normalize_options
from engine.errors import EngineError, NotActingError, StateError
from engine.i18n import tr


class GameRules(ABC, Generic[S, OrderT, ViewT]):
    """The rules of a game. Subclasses are stateless; all game data lives in the state."""

    name: str
    min_players: int
    max_players: int
    default_players: int  # the table a demo or a quick game is played with
    clock_presets: tuple[ClockPreset, ...] = ()  # chess clocks of the game's own rules, if any

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

    def turn_number(self, state: S, played: int) -> tuple[int, int | None]:
        """The current turn's number as players count it (``played`` turns have been resolved) and the
        last number the game allows, or None where it sets none: by default turn ``played + 1``.
        A game that counts only some turns against its limit numbers them as it counts them."""
        return played + 1, None

    def map_name(self, state: S) -> str | None:
        """The id of the map the game is played on (a generated map's too), or None in a game without maps."""
        return None

    def normalize_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Options with defaults filled in and every value checked (before a lobby is created)."""
        return normalize_options(self.options_schema(), options)

    def format_orders(self, orders: Sequence[OrderT]) -> str:
        """Orders as one text that ``parse_orders`` reads back."""
        return "; ".join(self.format_order(order) for order in orders)

    def public_orders(self, state: S, seat: int, text: str) -> str:
        """What everyone may see, while the game stands at ``state``, of the orders ``seat`` played in
        a resolved turn (``text`` as ``format_orders`` wrote them): all of it, unless a game has
        standing orders, which stay secret while they run."""
        return text

    def check_playable(self, state: S) -> S:
        """``state``, loaded, if it can go on: a game still running with nobody to act would wait forever."""
        if not self.acting_players(state) and self.outcome(state) is None:
            raise StateError(f"{self.name} state is damaged: the game is running but nobody can act")
        return state
