"""The contract every ruleset implements: the parts a game supplies (``engine/contract/``: its
rules, texts, computer players and storage format) put together, with the behaviour that takes more
than one part; and the value types the contract speaks in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Generic

from engine.contract.players import ComputerPlayers
from engine.contract.rules import GameRules
from engine.contract.storage import StorageFormat
from engine.contract.texts import GameTexts
from engine.contract.values import (
    BotLevel,
    ClockPreset,
    Event,
    Option,
    OrderT,
    Outcome,
    Resolution,
    S,
    SeatNamer,
    TutorialPage,
    ViewT,
    normalize_options,
)
from engine.errors import OptionError
from engine.i18n import ntr, tr

__all__ = [
    "BotLevel",
    "ClockPreset",
    "Event",
    "Option",
    "Outcome",
    "Resolution",
    "Ruleset",
    "SeatNamer",
    "TutorialPage",
    "normalize_options",
]


class Ruleset(
    GameRules[S, OrderT, ViewT],
    GameTexts[S, OrderT],
    ComputerPlayers[S, OrderT],
    StorageFormat[S],
    Generic[S, OrderT, ViewT],
):
    """Base class of every game: its four parts, and what takes more than one of them."""

    def from_dict(self, data: Mapping[str, Any]) -> S:
        """A stored state, upgraded from older formats (``state_upgrades``) and validated: the
        ruleset's own reader checks every field, then the game must be able to go on."""
        return self.check_playable(self.read_state(self.check_envelope(data, self.state_upgrades)))

    def bot_evaluation(self, state: S, seat: int) -> float:
        """How ``seat``'s position looks to the game's computer players, from -1 (lost) through 0
        (even) to 1 (won). A computer asked for a draw accepts unless this is above 0 (it is ahead).
        Rulesets give their bots' own evaluation of the position, cheap (no search: the service asks
        it while planning a turn); by default the standing: 1 alone in first place, 0 sharing it, -1
        behind."""
        first = self.standing(state)[0]
        return (1.0 if len(first) == 1 else 0.0) if seat in first else -1.0

    def order_warnings(self, state: S, seat: int, orders: Sequence[OrderT]) -> list[str]:
        """What ``orders`` (legal ones) would do at once that their author must know before they are
        final: where he alone acts now, that they put him out of the game. Where others act too,
        their orders decide what happens, and nothing is foretold."""
        if self.acting_players(state) != frozenset({seat}):
            return []
        after = self.resolve(state, {seat: list(orders)}).state
        return [] if seat in self.seats_in_game(after) else [self.losing_warning(state, seat)]

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
