"""What a game supplies for players to read: its title and rules, the name of a turn, a line per
event, hints, warnings, autocomplete and a tutorial. Every text goes through the catalogs."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Generic

from engine.contract.values import Event, OrderT, S, SeatNamer, TutorialPage
from engine.i18n import tr

if TYPE_CHECKING:
    from engine.mapfiles import MapGrid


class GameTexts(ABC, Generic[S, OrderT]):
    """The words of a game, as its players read them."""

    title: str
    rules_text: str  # the rules for players, in Discord markdown (under 4000 characters)
    # What becomes of a leaving player's holdings, added to the post that says he left ("their cells
    # turn neutral"); empty where nothing needs saying.
    departure_note: str = ""
    # A small map in the game's own map format (``options["map"]``), as /rules shows what /map upload
    # takes; None where the game reads no map.
    map_example: Mapping[str, Any] | None = None
    # The same maps drawn as text, for the games on a grid (/map upload takes a text file too).
    map_grid: MapGrid | None = None

    @abstractmethod
    def turn_unit(self, state: S) -> str:
        """What the current turn is called for players, lower case: "round", "move", "creating phase"."""

    @abstractmethod
    def describe_event(self, event: Event, who: SeatNamer) -> str | None:
        """One line for players about ``event``, or None for events too small to mention."""

    def order_hint(self, state: S) -> str:
        """What to write this turn, in a line for the ping that asks for it (Discord markdown)."""
        return ""

    def losing_warning(self, state: S, seat: int) -> str:
        """The warning for orders that would put their author out of the game, in the game's words."""
        return tr("these orders would put you out of the game at once")

    def suggest_orders(self, state: S, seat: int, text: str) -> list[str]:
        """Legal order lines starting like ``text`` (for autocomplete); rulesets override it."""
        return []

    def tutorial(self) -> tuple[TutorialPage[S], ...]:
        """Pages that teach the game from real positions, first to last; none unless a ruleset has them."""
        return ()
