"""Tug: a tiny test-only game that proves the plug-in shape: its tests hand it to the bot at run time,
and the bot serves it like any shipped game.

Every turn ("pull") all players still in secretly pull 1 to 3; pulls add up, and the first to reach
the goal wins (shared if several reach it at once). Options of every kind: ``goal`` (int),
``style`` (labelled choice, used by the board drawing), ``doubled`` (bool: the first pull counts
twice). Its board is drawn by ``board.draw``, registered for its view type at import.

Everything of the game is in folders named after it (this package; its tests in ``tests/*/tug/``);
``engine.registry.discover("tests.plugin")`` finds it, and nothing outside those folders names it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine import (
    BotLevel,
    Event,
    IllegalOrderError,
    NotActingError,
    Option,
    OrderSyntaxError,
    Outcome,
    Resolution,
    Ruleset,
    SeatNamer,
    StateError,
    TutorialPage,
)
from render import register_drawer
from tests.plugin.tug import board

PULL = re.compile(r"^\s*pull\s+(\d)\s*$", re.IGNORECASE)
STYLES = ("bars", "dots")


@dataclass(frozen=True)
class Pull:
    strength: int


@dataclass(frozen=True)
class TugState:
    goal: int
    style: str
    doubled: bool
    scores: tuple[int, ...]
    out: tuple[bool, ...]
    turn: int = 0


class TugRuleset(Ruleset[TugState, Pull, TugState]):
    name = "tug"
    title = "Tug"
    rules_text = "**Tug** — every turn, pull 1 to 3 in secret: `pull 3`. Pulls add up; the first to the goal wins."
    min_players = 2
    max_players = 3
    default_players = 2
    bot_levels = (BotLevel("weak", 1), BotLevel("strong", 1))

    def options_schema(self) -> tuple[Option, ...]:
        return (
            Option("goal", "int", 6, "Points that win", minimum=3, maximum=20),
            Option(
                "style", "choice", "bars", "How the board shows the scores", choices=STYLES, labels=("Bars", "Dots")
            ),
            Option("doubled", "bool", False, "The first pull counts twice"),
        )

    def setup(self, num_players: int, options: Mapping[str, Any] | None = None, seed: int | str = 0) -> TugState:
        self.check_num_players(num_players)
        opts = self.normalize_options(options)
        return TugState(opts["goal"], opts["style"], opts["doubled"], (0,) * num_players, (False,) * num_players)

    def tutorial(self) -> tuple[TutorialPage[TugState], ...]:
        start = self.setup(2)
        pulled = self.resolve(start, {0: [Pull(3)], 1: [Pull(1)]}).state
        return (
            TutorialPage("Each turn, everyone pulls in secret: `pull 1` to `pull 3`.", start, 0, "pull 3"),
            TutorialPage("Pulls add up; the first to the goal wins.", pulled),
        )

    def seats_in_game(self, state: TugState) -> frozenset[int]:
        return frozenset(seat for seat, out in enumerate(state.out) if not out)

    def acting_players(self, state: TugState) -> frozenset[int]:
        return frozenset() if self.outcome(state) else self.seats_in_game(state)

    def orders_are_secret(self, state: TugState) -> bool:
        return True

    def parse_orders(self, state: TugState, seat: int, text: str) -> list[Pull]:
        if seat not in self.acting_players(state):
            raise NotActingError(f"seat {seat} does not pull now")
        parts = [part for part in text.split(";") if part.strip()]
        if len(parts) > 1:
            raise IllegalOrderError(f"{text!r}: one pull a turn")
        if not parts:
            return []
        match = PULL.match(parts[0])
        if match is None:
            raise OrderSyntaxError(f"{parts[0].strip()!r} is not a pull; write `pull 1`, `pull 2` or `pull 3`")
        strength = int(match[1])
        if not 1 <= strength <= 3:
            raise IllegalOrderError(f"{parts[0].strip()!r}: pull 1 to 3")
        return [Pull(strength)]

    def format_order(self, order: Pull) -> str:
        return f"pull {order.strength}"

    def default_orders(self, state: TugState, seat: int) -> list[Pull]:
        return []

    def resolve(self, state: TugState, orders: Mapping[int, Sequence[Pull]]) -> Resolution[TugState]:
        scores, events = list(state.scores), []
        factor = 2 if state.doubled and state.turn == 0 else 1
        for seat in sorted(self.acting_players(state)):
            pulled = sum(order.strength for order in orders.get(seat, ())) * factor
            scores[seat] += pulled
            events.append(Event("pulled", {"seat": seat, "strength": pulled, "total": scores[seat]}))
        after = replace(state, scores=tuple(scores), turn=state.turn + 1)
        if self.outcome(after):
            events.append(Event("reached", {"seats": list(self.outcome(after).winners)}))
        return Resolution(after, tuple(events))

    def outcome(self, state: TugState) -> Outcome | None:
        playing = sorted(self.seats_in_game(state))
        best = max((state.scores[s] for s in playing), default=0)
        if len(playing) > 1 and best < state.goal:
            return None
        winners = tuple(s for s in playing if state.scores[s] == best)
        rest = tuple(s for s in range(len(state.scores)) if s not in winners)
        return Outcome(
            winners,
            len(winners) > 1,
            (winners, rest) if rest else (winners,),
            {s: int(s in winners) for s in range(len(state.scores))},
        )

    def standing(self, state: TugState) -> tuple[tuple[int, ...], ...]:
        scores = sorted({state.scores[s] for s in self.seats_in_game(state)}, reverse=True)
        places = [tuple(s for s in sorted(self.seats_in_game(state)) if state.scores[s] == best) for best in scores]
        gone = tuple(s for s, out in enumerate(state.out) if out)
        return tuple(places) + ((gone,) if gone else ())

    def view(self, state: TugState, seat: int | None) -> TugState:
        return state  # nothing in a tug position is secret; programmed pulls are not part of it

    def write_state(self, state: TugState) -> dict[str, Any]:
        return dict(state.__dict__)

    def read_state(self, data: Mapping[str, Any]) -> TugState:
        try:
            state = TugState(
                int(data["goal"]),
                str(data["style"]),
                bool(data["doubled"]),
                tuple(int(s) for s in data["scores"]),
                tuple(bool(o) for o in data["out"]),
                int(data["turn"]),
            )
        except (KeyError, TypeError, ValueError) as err:
            raise StateError(f"tug state is damaged: {err}") from None
        if len(state.scores) != len(state.out) or state.style not in STYLES:
            raise StateError("tug state is damaged: seats do not match")
        return state

    def leave(self, state: TugState, seat: int, reason: str) -> tuple[TugState, tuple[Event, ...]]:
        return replace(state, out=tuple(o or s == seat for s, o in enumerate(state.out))), ()

    def ai_orders(
        self, state: TugState, seat: int, seed: int | str, *, level: str | None = None, budget: int | None = None
    ) -> list[Pull]:
        return [Pull(3 if self.bot_level(level).name == "strong" else 1)]

    def turn_unit(self, state: TugState) -> str:
        return "pull"

    def describe_event(self, event: Event, who: SeatNamer) -> str | None:
        data = event.data
        if event.kind == "pulled":
            return f"{who(data['seat'])} pulled {data['strength']} and has {data['total']}."
        if event.kind == "reached":
            return "The goal is reached by " + " and ".join(who(s) for s in data["seats"]) + "."
        if event.kind == "player_removed":
            return f"{who(data['seat'])} let go of the rope ({data['reason']})."
        return None

    def suggest_orders(self, state: TugState, seat: int, text: str) -> list[str]:
        return [f"pull {n}" for n in (1, 2, 3) if f"pull {n}".startswith(text.strip().lower())]


RULESET = TugRuleset()
register_drawer(TugState, board.draw)
