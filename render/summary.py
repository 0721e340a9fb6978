"""Plain-text summaries of resolved rounds, for channel posts and the demo's log."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine import Event, Outcome

COLOURS = ("red", "blue", "green", "orange", "purple", "brown")


def seat_name(names: Sequence[str], seat: int | None) -> str:
    if seat is None:
        return "neutral"
    return f"{names[seat]} ({COLOURS[seat]})" if seat < len(names) else f"seat {seat}"


def describe_event(event: Event, names: Sequence[str]) -> str | None:
    """One line for a player to read, or None for events too small to mention."""
    data = event.data
    who = lambda key: seat_name(names, data.get(key))  # noqa: E731
    match event.kind:
        case "round_resolved":
            return f"Round {data['round']} resolved."
        case "battle":
            sides = " vs ".join(f"{seat_name(names, party)} {units}" for party, units in data["parties"])
            result = "tie: all lost, cell neutral" if data["tie"] else f"{who('winner')} wins with {data['units_left']}"
            return f"Battle at {data['cell']}: {sides} — {result}."
        case "captured":
            where = data["cell"] if "cell" in data else f"node {data['node']}"
            return f"{who('seat')} captured {where}" + ("" if data["from"] is None else f" from {who('from')}") + "."
        case "start":
            return f"{who('seat')} starts on node {data['node']}."
        case "edge_fight":
            a, b = data["nodes"]
            sides = " vs ".join(f"{seat_name(names, s)} {n}" for s, n in data["armies"])
            return f"Fight on the edge {a}–{b}: {sides}."
        case "node_fight":
            sides = " vs ".join(f"{seat_name(names, s)} {n}" for s, n in data["armies"])
            result = "nobody is left" if data["winner"] is None else f"{who('winner')} holds it with {data['left']}"
            return f"Fight at node {data['node']}: {sides} — {result}."
        case "spawning_killed":
            return f"{who('seat')} lost {data['soldiers']} spawning soldier(s) at node {data['node']}."
        case "died":
            return f"{who('seat')} has no nodes left and is dead."
        case "created":
            return f"{who('seat')} is raising {len(data['nodes'])} new soldier(s)."
        case "part_dropped":
            return f"{who('seat')} gave up a cut-off part of {len(data['nodes'])} node(s)."
        case "neutralized":
            return f"{data['cell']} fell neutral."
        case "eliminated":
            return f"{who('seat')} was eliminated."
        case "player_removed":
            return f"{who('seat')} left the game ({data['reason']})."
        case "built":
            taken = f", {data['from_opponent']} of them from the opponent" if data["from_opponent"] else ""
            return f"{who('seat')} built a fortress on {data['cell']}: +{len(data['claimed'])} cells{taken}."
        case "general_moved":
            return f"{who('seat')}'s general walked {' → '.join(data['path'])}."
        case "passed":
            return f"{who('seat')} passed" + (" (no legal move)." if data.get("reason") else ".")
        case "game_over":
            return "Game over."
    return None


def describe_events(events: Iterable[Event], names: Sequence[str]) -> list[str]:
    return [line for line in (describe_event(e, names) for e in events) if line]


def describe_outcome(outcome: Outcome, names: Sequence[str]) -> list[str]:
    lines = []
    if outcome.draw:
        lines.append("Draw between " + ", ".join(seat_name(names, s) for s in outcome.winners) + ".")
    else:
        lines.append(f"Winner: {seat_name(names, outcome.winners[0])}.")
    place = 1
    for group in outcome.ranking:
        for seat in group:
            lines.append(f"{place}. {seat_name(names, seat)} — {outcome.points[seat]} points")
        place += len(group)
    return lines
