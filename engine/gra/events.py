"""What gra's events say to players (round posts and the demo's log)."""

from __future__ import annotations

from engine.i18n import ntr, tr
from engine.ruleset import Event, SeatNamer


def describe(event: Event, who: SeatNamer) -> str | None:
    data = event.data
    player = who(data["seat"]) if "seat" in data else ""
    match event.kind:
        case "start":
            return tr("{player} starts on node {node}.", player=player, node=data["node"])
        case "captured":
            if data["from"] is None:
                return tr("{player} captured node {node}.", player=player, node=data["node"])
            return tr(
                "{player} captured node {node} from {owner}.", player=player, node=data["node"], owner=who(data["from"])
            )
        case "edge_fight":
            a, b = data["nodes"]
            sides = tr(" vs ").join(f"{who(s)} {n}" for s, n in data["armies"])
            return tr("Fight on the edge {a}–{b}: {sides}.", a=a, b=b, sides=sides)
        case "node_fight":
            sides = tr(" vs ").join(f"{who(s)} {n}" for s, n in data["armies"])
            result = (
                tr("nobody is left")
                if data["winner"] is None
                else tr("{player} holds it with {left}", player=who(data["winner"]), left=data["left"])
            )
            return tr("Fight at node {node}: {sides} — {result}.", node=data["node"], sides=sides, result=result)
        case "spawning_killed":
            return ntr(
                "{player} lost {n} spawning soldier at node {node}.",
                "{player} lost {n} spawning soldiers at node {node}.",
                data["soldiers"],
                player=player,
                node=data["node"],
            )
        case "died":
            return tr("{player} has no nodes left and is dead.", player=player)
        case "created":
            return ntr(
                "{player} is raising {n} new soldier.",
                "{player} is raising {n} new soldiers.",
                len(data["nodes"]),
                player=player,
            )
        case "part_dropped":
            return ntr(
                "{player} gave up a cut-off part of {n} node.",
                "{player} gave up a cut-off part of {n} nodes.",
                len(data["nodes"]),
                player=player,
            )
        case "player_removed":
            reason = data["reason"]
            return tr("{player} left the game ({reason}); their nodes turn neutral.", player=player, reason=tr(reason))
        case "game_over":
            return tr("Game over.")
    return None
