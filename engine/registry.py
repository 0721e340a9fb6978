"""Where rulesets are registered by name. Adding a game means adding one line here."""

from __future__ import annotations

from engine.conquest import ConquestRuleset
from engine.errors import UnknownRulesetError
from engine.fortress import FortressRuleset
from engine.gra import GraRuleset
from engine.ranks import RanksRuleset
from engine.ruleset import Ruleset
from engine.siege import SiegeRuleset

RULESETS: dict[str, Ruleset] = {
    rs.name: rs for rs in (ConquestRuleset(), FortressRuleset(), GraRuleset(), SiegeRuleset(), RanksRuleset())
}


def find_ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name.strip().lower()]
    except (KeyError, AttributeError):
        raise UnknownRulesetError(f"unknown ruleset {name!r}; available: {', '.join(sorted(RULESETS))}") from None
