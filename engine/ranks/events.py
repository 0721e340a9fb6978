"""What ranks's events say to players (turn posts and the demo's log)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.i18n import joined, mark, tr
from engine.ranks.state import a
from engine.ruleset import Event, SeatNamer

# The ranks as the texts name them, marked for translation: alone, and with their article.
RANK_WORDS = (mark("pawn"), mark("archer"), mark("knight"), mark("tank"))
WITH_ARTICLE = (mark("a pawn"), mark("an archer"), mark("a knight"), mark("a tank"))


def describe(event: Event, who: SeatNamer) -> str | None:
    data = event.data
    player = who(data["seat"]) if "seat" in data else ""
    rank = data.get("rank", "")
    match event.kind:
        case "spawned":
            cells = joined(data["cells"])
            if cells:
                return tr("{player} spawned pawns on {cells}.", player=player, cells=cells)
            return tr("{player} spawned nothing.", player=player)
        case "moved":
            paid = tr(" (1 exp)") if data["paid"] else ""
            taken = tr(", taking {victim}", victim=_victim(data["captured"], who)) if data["captured"] else ""
            return tr(
                "{player}'s {rank} {source}→{target}{paid}{taken}.",
                player=player,
                rank=tr(rank),
                source=data["source"],
                target=data["target"],
                paid=paid,
                taken=taken,
            )
        case "blasted":
            taken = joined(_victim(v, who) for v in data["captured"]) or tr("nothing")
            return tr("{player}'s tank on {cell} blasted: {taken}.", player=player, cell=data["cell"], taken=taken)
        case "upgraded":
            old = data["from"]
            return tr(
                "{player} upgraded the {old} on {cell} to {new}.",
                player=player,
                old=tr(old),
                cell=data["cell"],
                new=tr(a(data["to"])),
            )
        case "passed":
            return tr("{player} neither spawned nor moved.", player=player)
        case "npc_captured":
            return tr(
                "An NPC stepped {source}→{target} and took {player}'s {rank}.",
                source=data["source"],
                target=data["target"],
                player=player,
                rank=tr(rank),
            )
        case "capital_lost":
            return tr(
                "{player} has no army on the capital {capital} and is out.", player=player, capital=data["capital"]
            )
        case "player_removed":
            reason = data["reason"]
            return tr("{player} left the game ({reason}).", player=player, reason=tr(reason))
        case "game_over":
            return tr("Game over.")
    return None


def _victim(victim: Mapping[str, Any], who: SeatNamer) -> str:
    if victim["seat"] is None:
        owner = tr("an NPC")
    else:
        rank = victim["rank"]
        owner = tr("{player}'s {rank}", player=who(victim["seat"]), rank=tr(rank))
    return tr("{owner} on {cell} (+{exp} exp)", owner=owner, cell=victim["cell"], exp=victim["exp"])
