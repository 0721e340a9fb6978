"""What conquest's events say to players (round posts and the demo's log)."""

from __future__ import annotations

from engine.ruleset import Event, SeatNamer


def describe(event: Event, who: SeatNamer) -> str | None:
    data = event.data
    match event.kind:
        case "battle":
            sides = " vs ".join(f"{who(party)} {units}" for party, units in data["parties"])
            result = (
                "tie: all lost, cell neutral"
                if data["tie"]
                else f"{who(data['winner'])} wins with {data['units_left']}"
            )
            return f"Battle at {data['cell']}: {sides} — {result}."
        case "captured":
            taken = "" if data["from"] is None else f" from {who(data['from'])}"
            return f"{who(data['seat'])} captured {data['cell']}{taken}."
        case "neutralized":
            return f"{data['cell']} fell neutral."
        case "eliminated":
            return f"{who(data['seat'])} was eliminated."
        case "player_removed":
            return f"{who(data['seat'])} left the game ({data['reason']}); their cells turn neutral."
        case "game_over":
            return "Game over."
    return None
