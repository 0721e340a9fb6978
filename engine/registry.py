"""Where rulesets are found by name: every package of ``engine`` that exports ``RULESET`` is a game.

A game is its own package (``engine/<name>/``, whose ``__init__`` sets ``RULESET``), its board
drawing (``render/boards/<name>.py``) and its tests; nothing shared lists the games.
"""

from __future__ import annotations

import importlib
import pkgutil

from engine.errors import UnknownRulesetError
from engine.ruleset import Ruleset


def discover(package: str) -> dict[str, Ruleset]:
    """The rulesets of ``package``'s subpackages that export ``RULESET``, by name, in name order; a
    game's package is named after it (its catalogs are found there)."""
    root = importlib.import_module(package)
    found: dict[str, Ruleset] = {}
    for module in pkgutil.iter_modules(root.__path__, f"{package}."):
        if module.ispkg and isinstance(rs := getattr(importlib.import_module(module.name), "RULESET", None), Ruleset):
            if module.name != f"{package}.{rs.name}":
                raise TypeError(f"{module.name} holds the ruleset {rs.name!r}: a game's package is named after it")
            found[rs.name] = rs
    return dict(sorted(found.items()))


RULESETS: dict[str, Ruleset] = discover("engine")


def find_ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name.strip().lower()]
    except (KeyError, AttributeError):
        raise UnknownRulesetError(f"unknown ruleset {name!r}; available: {', '.join(sorted(RULESETS))}") from None
