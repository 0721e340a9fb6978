"""What gra's events say to players (round posts and the demo's log)."""

from __future__ import annotations

from engine.ruleset import Event, SeatNamer
from engine.words import count


def describe(event: Event, who: SeatNamer) -> str | None:
    data = event.data
    match event.kind:
        case "start":
            return f"{who(data['seat'])} starts on node {data['node']}."
        case "captured":
            taken = "" if data["from"] is None else f" from {who(data['from'])}"
            return f"{who(data['seat'])} captured node {data['node']}{taken}."
        case "edge_fight":
            a, b = data["nodes"]
            sides = " vs ".join(f"{who(s)} {n}" for s, n in data["armies"])
            return f"Fight on the edge {a}–{b}: {sides}."
        case "node_fight":
            sides = " vs ".join(f"{who(s)} {n}" for s, n in data["armies"])
            result = (
                "nobody is left" if data["winner"] is None else f"{who(data['winner'])} holds it with {data['left']}"
            )
            return f"Fight at node {data['node']}: {sides} — {result}."
        case "spawning_killed":
            return f"{who(data['seat'])} lost {count(data['soldiers'], 'spawning soldier')} at node {data['node']}."
        case "died":
            return f"{who(data['seat'])} has no nodes left and is dead."
        case "created":
            return f"{who(data['seat'])} is raising {count(len(data['nodes']), 'new soldier')}."
        case "part_dropped":
            return f"{who(data['seat'])} gave up a cut-off part of {count(len(data['nodes']), 'node')}."
        case "player_removed":
            return f"{who(data['seat'])} left the game ({data['reason']}); their nodes turn neutral."
        case "game_over":
            return "Game over."
    return None
