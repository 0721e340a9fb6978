"""What fortress's events say to players (move posts and the demo's log)."""

from __future__ import annotations

from engine.i18n import ntr, tr
from engine.ruleset import Event, SeatNamer


def describe(event: Event, who: SeatNamer) -> str | None:
    data = event.data
    match event.kind:
        case "built":
            player, cell, taken = who(data["seat"]), data["cell"], data["from_opponent"]
            gained = ntr("+{n} cell", "+{n} cells", len(data["claimed"]))
            if taken:
                return ntr(
                    "{player} built a fortress on {cell}: {gained}, {n} of them from the opponent.",
                    "{player} built a fortress on {cell}: {gained}, {n} of them from the opponent.",
                    taken,
                    player=player,
                    cell=cell,
                    gained=gained,
                )
            return tr("{player} built a fortress on {cell}: {gained}.", player=player, cell=cell, gained=gained)
        case "general_moved":
            return tr("{player}'s general walked {path}.", player=who(data["seat"]), path=" → ".join(data["path"]))
        case "passed":
            if data.get("reason"):
                return tr("{player} passed (no legal move).", player=who(data["seat"]))
            return tr("{player} passed.", player=who(data["seat"]))
        case "player_removed":
            reason = data["reason"]
            return tr("{player} left the game ({reason}).", player=who(data["seat"]), reason=tr(reason))
        case "game_over":
            return tr("Game over.")
    return None
