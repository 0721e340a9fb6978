"""What every ruleset where one seat moves at a time shares (fortress, siege, ranks): the seat to
move acts, orders are public, a finished game takes no more turns, and only the mover's orders count.

A ruleset mixes ``TakesTurns`` in before ``Ruleset`` and reads its own notation in ``parse_turn``;
its state has ``to_move``, ``over`` and ``players`` (engine/standings.py seats).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any

from engine import standings
from engine.errors import EngineError, NotActingError
from engine.i18n import tr


class TakesTurns:
    turn_word = "turn"  # what one seat's go is called in messages ("move" in fortress)

    def acting_players(self, state: Any) -> frozenset[int]:
        return frozenset() if state.over else frozenset({state.to_move})

    def seats_in_game(self, state: Any) -> frozenset[int]:
        return frozenset(standings.still_in(state.players))

    def orders_are_secret(self, state: Any) -> bool:
        return False

    def parse_orders(self, state: Any, seat: int, text: str) -> list[Any]:
        self._check_acting(state, seat)
        return self.parse_turn(state, seat, text)

    @abstractmethod
    def parse_turn(self, state: Any, seat: int, text: str) -> list[Any]:
        """The mover's orders read from ``text`` (he is known to be the seat to move)."""

    def format_order(self, order: Any) -> str:
        return str(order)

    def default_orders(self, state: Any, seat: int) -> list[Any]:
        return []

    def movers_orders(self, state: Any, orders: Mapping[int, Sequence[Any]]) -> list[Any]:
        """For ``resolve``: the orders of the seat to move, once every seat given is known to act."""
        if state.over:
            raise EngineError(tr("the game is over; nothing more can be played"))
        for seat in orders:
            self._check_acting(state, seat)
        return list(orders.get(state.to_move, []))

    def _check_acting(self, state: Any, seat: int) -> None:
        if state.over:
            raise NotActingError(tr("the game is over"))
        if seat != state.to_move:
            raise NotActingError(
                tr(
                    "it is not seat {seat}'s {turn}; seat {mover} is to move",
                    seat=seat,
                    turn=tr(self.turn_word),
                    mover=state.to_move,
                )
            )
