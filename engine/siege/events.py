"""What siege's events say to players (turn posts and the demo's log)."""

from __future__ import annotations

from engine.ruleset import Event, SeatNamer

RESULTS = {
    "captured": "captured",
    "capital captured": "the capital is taken!",
    "tower removed": "the tower is down",
    "wall removed": "one wall is down",
}


def describe(event: Event, who: SeatNamer) -> str | None:
    data = event.data
    match event.kind:
        case "action":
            result = RESULTS.get(data["result"])
            return f"{who(data['seat'])}: {data['action']} ({data['cost']} EP)" + (f" — {result}." if result else ".")
        case "passed":
            return f"{who(data['seat'])} ended the turn without acting."
        case "player_removed":
            return f"{who(data['seat'])} left the game ({data['reason']})."
        case "game_over":
            return "Game over."
    return None
