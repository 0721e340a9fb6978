"""The engine's error hierarchy.

Every error a player or an admin can cause is a ``ValueError`` whose message quotes the
input and says what would be right, so the bot can show it verbatim.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

Naming = Callable[[Callable[[int | None], str]], str]  # a message given how to call each seat


class EngineError(ValueError):
    """Base of every error the engine raises on bad input."""


class UnknownRulesetError(EngineError, LookupError):
    """A ruleset name that is not registered."""


class OptionError(EngineError):
    """A game option that is unknown or out of range."""


class MapError(EngineError):
    """An explicit or shipped map that does not describe a valid board. ``problems`` lists every one
    found (each naming its entry), so whoever made the map mends them all in one go."""

    def __init__(self, message: str, problems: Sequence[str] = ()):
        super().__init__(message)
        self.problems: tuple[str, ...] = tuple(problems) or (message,)

    @classmethod
    def of(cls, problems: Sequence[str]) -> MapError:
        """One error for all ``problems``: the single one itself, or one listing them all."""
        return cls(problems[0] if len(problems) == 1 else _listed(problems), problems)


class StateError(EngineError):
    """Serialized state that cannot be loaded (corrupted, wrong ruleset or version)."""


class OrderError(EngineError):
    """Base of order errors. ``problems`` lists every bad line when several are reported together.

    The engine knows seats, not players: a message that mentions another seat is also given as
    ``naming``, so the bot can say whose a cell is by the player's name (:meth:`named`)."""

    def __init__(self, message: str, problems: Sequence[OrderError] = (), *, naming: Naming | None = None):
        super().__init__(message)
        self.problems: tuple[OrderError, ...] = tuple(problems)
        self.naming = naming

    def named(self, who: Callable[[int | None], str]) -> OrderError:
        """The same error, the seats it mentions called by ``who``."""
        if self.problems:
            problems = [problem.named(who) for problem in self.problems]
            return type(self)(_listed(problems), problems)
        return type(self)(self.naming(who), naming=self.naming) if self.naming else self


class NotActingError(OrderError):
    """Orders (or a departure) from a seat that is not in the game or not expected to act now."""


class OrderSyntaxError(OrderError):
    """The text is not an order at all (cannot be parsed)."""


class IllegalOrderError(OrderError):
    """The order parses but breaks a rule in the current position."""


class AmbiguousOrderError(OrderError):
    """The orders contradict each other or could mean several things."""


def raise_collected(problems: Sequence[OrderError]) -> None:
    """Raise one error for all ``problems``: the single one itself, or a combined one listing all."""
    if not problems:
        return
    if len(problems) == 1:
        raise problems[0]
    kinds = {type(p) for p in problems}
    cls = kinds.pop() if len(kinds) == 1 else OrderError
    raise cls(_listed(problems), problems)


def _listed(problems: Sequence[object]) -> str:
    return f"{len(problems)} problems:\n" + "\n".join(f"- {p}" for p in problems)
