"""What ranks's events say to players (turn posts and the demo's log)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.ranks.state import a
from engine.ruleset import Event, SeatNamer


def describe(event: Event, who: SeatNamer) -> str | None:
    data = event.data
    match event.kind:
        case "spawned":
            cells = ", ".join(data["cells"])
            return (
                f"{who(data['seat'])} spawned pawns on {cells}." if cells else f"{who(data['seat'])} spawned nothing."
            )
        case "moved":
            paid = " (1 exp)" if data["paid"] else ""
            taken = f", taking {_victim(data['captured'], who)}" if data["captured"] else ""
            return f"{who(data['seat'])}'s {data['rank']} {data['source']}→{data['target']}{paid}{taken}."
        case "blasted":
            taken = ", ".join(_victim(v, who) for v in data["captured"]) or "nothing"
            return f"{who(data['seat'])}'s tank on {data['cell']} blasted: {taken}."
        case "upgraded":
            return f"{who(data['seat'])} upgraded the {data['from']} on {data['cell']} to {a(data['to'])}."
        case "passed":
            return f"{who(data['seat'])} neither spawned nor moved."
        case "npc_captured":
            return f"An NPC stepped {data['source']}→{data['target']} and took {who(data['seat'])}'s {data['rank']}."
        case "capital_lost":
            return f"{who(data['seat'])} has no army on the capital {data['capital']} and is out."
        case "player_removed":
            return f"{who(data['seat'])} left the game ({data['reason']})."
        case "game_over":
            return "Game over."
    return None


def _victim(victim: Mapping[str, Any], who: SeatNamer) -> str:
    owner = "an NPC" if victim["seat"] is None else f"{who(victim['seat'])}'s {victim['rank']}"
    return f"{owner} on {victim['cell']} (+{victim['exp']} exp)"
