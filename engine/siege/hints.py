"""Autocomplete for a siege turn: the legal next actions, each with its EP cost and what is left."""

from __future__ import annotations

from engine.errors import OrderError
from engine.siege.orders import COSTS, EP_PER_TURN, split_lines
from engine.siege.rules import cost, legal_actions, parse, play
from engine.siege.state import SiegeState

ORDER = {
    kind: rank for rank, kind in enumerate(sorted(COSTS, key=lambda k: (k != "attack", k == "end")))
}  # attacks first, end last


def suggestions(state: SiegeState, seat: int, text: str) -> list[str]:
    """Legal actions that extend the last line of ``text``, written ``attack D5>D6 (4 EP, 2 left)``
    (the note in brackets is ignored when the turn is read). Earlier lines are kept as typed."""
    try:
        done = split_lines(text)
        typed = done.pop() if done and not text.rstrip().endswith((";", ",", "\n")) else ""
        position, events = play(state, seat, parse(state, seat, "; ".join(done)))
    except OrderError:
        return []
    if done and done[-1] in ("end", "end turn", "pass") or position.over:
        return []
    left = EP_PER_TURN - sum(event.data.get("cost", 0) for event in events)
    priced = [(action, cost(position, action)) for action in legal_actions(position, seat)]
    lines = [
        f"{action} ({price} EP, {left - price} left)"
        for action, price in sorted(priced, key=lambda p: (ORDER[p[0].kind], str(p[0])))
        if price <= left and str(action).startswith(typed)
    ]
    head = "; ".join(done)
    return [f"{head}; {line}" if head else line for line in lines]
