"""What conquest's events say to players (round posts and the demo's log)."""

from __future__ import annotations

from engine.i18n import tr
from engine.ruleset import Event, SeatNamer


def describe(event: Event, who: SeatNamer) -> str | None:
    data = event.data
    match event.kind:
        case "battle":
            sides = tr(" vs ").join(f"{who(party)} {units}" for party, units in data["parties"])
            result = (
                tr("tie: all lost, cell neutral")
                if data["tie"]
                else tr("{player} wins with {units}", player=who(data["winner"]), units=data["units_left"])
            )
            return tr("Battle at {cell}: {sides} — {result}.", cell=data["cell"], sides=sides, result=result)
        case "captured":
            if data["from"] is None:
                return tr("{player} captured {cell}.", player=who(data["seat"]), cell=data["cell"])
            return tr(
                "{player} captured {cell} from {owner}.",
                player=who(data["seat"]),
                cell=data["cell"],
                owner=who(data["from"]),
            )
        case "neutralized":
            return tr("{cell} fell neutral.", cell=data["cell"])
        case "eliminated":
            return tr("{player} was eliminated.", player=who(data["seat"]))
        case "player_removed":
            reason = data["reason"]
            return tr(
                "{player} left the game ({reason}); their cells turn neutral.",
                player=who(data["seat"]),
                reason=tr(reason),
            )
        case "game_over":
            return tr("Game over.")
    return None
