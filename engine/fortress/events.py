"""What fortress's events say to players (move posts and the demo's log)."""

from __future__ import annotations

from engine.ruleset import Event, SeatNamer
from engine.words import count


def describe(event: Event, who: SeatNamer) -> str | None:
    data = event.data
    match event.kind:
        case "built":
            taken = f", {data['from_opponent']} of them from the opponent" if data["from_opponent"] else ""
            return f"{who(data['seat'])} built a fortress on {data['cell']}: +{count(len(data['claimed']), 'cell')}{taken}."
        case "general_moved":
            return f"{who(data['seat'])}'s general walked {' → '.join(data['path'])}."
        case "passed":
            return f"{who(data['seat'])} passed" + (" (no legal move)." if data.get("reason") else ".")
        case "player_removed":
            return f"{who(data['seat'])} left the game ({data['reason']})."
        case "game_over":
            return "Game over."
    return None
