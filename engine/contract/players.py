"""What a game supplies as computer players: its levels, weakest first, and their orders, searched
within a budget of nodes (not seconds, so a game replays the same on any machine)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Generic

from engine.budget import Budget
from engine.contract.values import BotLevel, OrderT, S
from engine.errors import OptionError
from engine.i18n import level_title, titled, tr


class ComputerPlayers(ABC, Generic[S, OrderT]):
    """A game's computer players."""

    title: str  # the game's (from its texts), to name it in a refusal
    bot_levels: tuple[BotLevel, ...]  # weakest first
    bot_level_aliases: Mapping[str, str] = {}  # old level name -> its name now, for games stored with it

    @abstractmethod
    def ai_orders(
        self, state: S, seat: int, seed: int | str, *, level: str | None = None, budget: int | None = None
    ) -> list[OrderT]:
        """Orders a computer player of ``level`` (default: the strongest) would give now, searching at
        most ``budget`` nodes (default: the level's own); deterministic for a given seed."""

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

    def search_budget(self, level: str | None, budget: int | None) -> Budget:
        """What ``ai_orders(level=, budget=)`` may search: ``budget`` nodes if given, else the level's."""
        nodes = self.bot_level(level).budget if budget is None else budget
        if isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 0:
            raise OptionError(tr("a computer player's budget is a whole number of nodes, not {nodes!r}", nodes=nodes))
        return Budget(nodes)
