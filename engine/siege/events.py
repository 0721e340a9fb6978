"""What siege's events say to players (turn posts and the demo's log)."""

from __future__ import annotations

from engine.i18n import mark, tr
from engine.ruleset import Event, SeatNamer

RESULTS = {
    "captured": mark("captured"),
    "capital captured": mark("the capital is taken!"),
    "tower removed": mark("the tower is down"),
    "wall removed": mark("one wall is down"),
}


def describe(event: Event, who: SeatNamer) -> str | None:
    data = event.data
    match event.kind:
        case "action":
            result = RESULTS.get(data["result"])
            done = tr(
                "{player}: {action} ({cost} EP)", player=who(data["seat"]), action=data["action"], cost=data["cost"]
            )
            return tr("{done} — {result}.", done=done, result=tr(result)) if result else f"{done}."
        case "passed":
            return tr("{player} ended the turn without acting.", player=who(data["seat"]))
        case "player_removed":
            reason = data["reason"]
            return tr("{player} left the game ({reason}).", player=who(data["seat"]), reason=tr(reason))
        case "game_over":
            return tr("Game over.")
    return None
