"""The rules engine: pure, synchronous, standard library only.

``find_ruleset(name)`` returns a :class:`Ruleset`; see ``engine/ruleset.py`` for the contract.
"""

from engine.errors import (
    AmbiguousOrderError,
    EngineError,
    IllegalOrderError,
    MapError,
    NotActingError,
    OptionError,
    OrderError,
    OrderSyntaxError,
    StateError,
    UnknownRulesetError,
)
from engine.registry import RULESETS, find_ruleset
from engine.ruleset import (
    BotLevel,
    ClockPreset,
    Event,
    Option,
    Outcome,
    Resolution,
    Ruleset,
    SeatNamer,
    TutorialPage,
    normalize_options,
)

__all__ = [
    "RULESETS",
    "AmbiguousOrderError",
    "BotLevel",
    "ClockPreset",
    "EngineError",
    "Event",
    "IllegalOrderError",
    "MapError",
    "NotActingError",
    "OptionError",
    "OrderError",
    "OrderSyntaxError",
    "Outcome",
    "Option",
    "Resolution",
    "Ruleset",
    "SeatNamer",
    "StateError",
    "TutorialPage",
    "UnknownRulesetError",
    "find_ruleset",
    "normalize_options",
]
