"""Gra: simultaneous soldiers on a graph, in phases (spec: rules/gra.md).

Options: ``map`` (a shipped map name or map data; see ``board.py``), ``size`` of a generated map.
Order notation per phase: ``orders.py``. Time modes (Normal, Increment, Per-round, Inf) are the
game master's clocks (bank, increment, round, none).

Decisions beyond the spec:
- Negotiation picks and every other order are secret until the phase resolves.
- A player who misses the negotiation gets a seeded spread-out pick; a missed move phase keeps
  every soldier in place; a missed creating phase creates nothing; a missed split keeps the
  largest part (then most soldiers, then lowest node).
- The turn limit (option ``turn_limit``, default 300) counts move phases, skipped ones included
  (when every soldier is spawning, the phase still turns them ready). Games saved before it existed
  count from when they load.
- Ranking (``engine/standings.py``): living players first, then the dead and departed, later
  departures higher, those out in the same turn sharing a place; position points count the players
  ranked below. A "turn" is one resolved phase (``state.turn``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine import standings
from engine.errors import EngineError, MapError, NotActingError
from engine.gra import ai, events, tutorial
from engine.gra.board import SHIPPED, SIZES, Graph, generate
from engine.gra.orders import Keep, Order, Pick, parse
from engine.gra.rules import acting, default_keep, default_picks, remove, resolve_phase, spacing_for
from engine.gra.state import (
    ORDER_HINTS,
    TURN_LIMIT,
    GraState,
    GraView,
    Phase,
    from_data,
    make_view,
    to_data,
    upgrade_v1,
    upgrade_v2,
)
from engine.i18n import map_title, mark, ntr, tr
from engine.rng import seed_state
from engine.ruleset import Event, Option, Outcome, Resolution, Ruleset, SeatNamer, TutorialPage

RULES_TEXT = mark(
    """\
**Gra** — 2 to 6 players on a graph of nodes and edges; the last player alive wins. Every turn all \
players who can act give secret orders at once.

**Start**: pick as many nodes as there are players, far enough apart (`pick 3 17`); the game gives \
you one of them with one soldier.

**Move phase**: each ready soldier stays or walks one edge: `3>7 2` (or `3>7` for all). Entering a \
neutral node, or winning someone else's, makes it yours; it stays yours until taken.

**Fights**: armies meeting on an edge fight there first; in a node every army loses as many soldiers \
as the smallest one has, until one is left. Soldiers who were already on the node defend with +0.5: \
it decides a last tie (the defender keeps the node). 1.5 vs 2: the attacker wins with 1.

**Creating phase**: your army cap is territory/3 + 1. Create soldiers on your nodes: `create 3 3 7`. \
New soldiers spawn for one move phase: they cannot move, have no strength and die if the node is taken.

**Split territory**: if your land falls apart, keep one part (`keep 17`); the rest turns neutral.

Surrender or agree a draw (all living players) at any time."""
)


class GraRuleset(Ruleset[GraState, Order, GraView]):
    name = "gra"
    title = mark("Gra")
    rules_text = RULES_TEXT
    map_example = {
        "name": "Square",
        "nodes": [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1]],
        "edges": [[1, 2], [2, 3], [4, 5], [5, 6], [1, 4], [2, 5], [3, 6]],
    }
    departure_note = mark("their nodes turn neutral")
    min_players = 2
    max_players = 6
    default_players = 3
    bot_levels = ai.LEVELS
    write_state = staticmethod(to_data)
    read_state = staticmethod(from_data)
    state_version = 3
    state_upgrades = {1: upgrade_v1, 2: upgrade_v2}

    def options_schema(self) -> tuple[Option, ...]:
        return (
            SHIPPED.option(),
            Option(
                "size",
                "choice",
                "medium",
                "Size of a generated map (about 30, 60 or 120 nodes)",
                choices=tuple(SIZES),
                generated=True,
            ),
            Option(
                "turn_limit",
                "int",
                TURN_LIMIT,
                "Move phases before the game ends on nodes, then soldiers",
                minimum=1,
                maximum=10_000,
            ),
        )

    def normalize_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        opts = super().normalize_options(options)
        if opts["map"] is not None:
            self._graph(opts, 0)
        return opts

    @staticmethod
    def _graph(opts: Mapping[str, Any], seed: int | str) -> Graph:
        return SHIPPED.choose(opts["map"], lambda: generate(opts["size"], seed))

    def setup(self, num_players: int, options: Mapping[str, Any] | None = None, seed: int | str = 0) -> GraState:
        self.check_num_players(num_players)
        opts = self.normalize_options(options)
        graph = self._graph(opts, seed)
        if len(graph.positions) < 3 * num_players:
            raise MapError(
                ntr(
                    "map {map} has {nodes} nodes; {n} player needs at least {least}",
                    "map {map} has {nodes} nodes; {n} players need at least {least}",
                    num_players,
                    map=map_title(graph.name),
                    nodes=len(graph.positions),
                    least=3 * num_players,
                )
            )
        return GraState(
            graph=graph,
            phase=Phase.NEGOTIATE,
            spacing=spacing_for(graph, num_players),
            owners={},
            ready={},
            spawning={},
            splits={},
            players=standings.seated(num_players),
            turn=0,
            last=(),
            rng=seed_state(seed),
            move_phases=0,
            turn_limit=opts["turn_limit"],
        )

    def acting_players(self, state: GraState) -> frozenset[int]:
        return acting(state)

    def seats_in_game(self, state: GraState) -> frozenset[int]:
        return frozenset(state.playing())

    def orders_are_secret(self, state: GraState) -> bool:
        return True

    def parse_orders(self, state: GraState, seat: int, text: str) -> list[Order]:
        if seat not in acting(state):
            raise NotActingError(tr("seat {seat} does not play this {turn}", seat=seat, turn=tr(state.phase.turn_unit)))
        return parse(state, seat, text)

    def format_order(self, order: Order) -> str:
        return str(order)

    def default_orders(self, state: GraState, seat: int) -> list[Order]:
        if state.phase == Phase.NEGOTIATE:
            return [Pick(tuple(default_picks(state, seat)))]
        if state.phase == Phase.SPLIT and seat in state.splits:
            return [Keep(default_keep(state, seat))]
        return []

    def resolve(self, state: GraState, orders: Mapping[int, Sequence[Order]]) -> Resolution[GraState]:
        if state.over:
            raise EngineError(tr("the game is over; no more turns"))
        players = acting(state)
        for seat, seat_orders in orders.items():
            if seat not in players:
                raise NotActingError(
                    tr("seat {seat} does not play this {turn}", seat=seat, turn=tr(state.phase.turn_unit))
                )
            parse(state, seat, self.format_orders(seat_orders))
        complete = {seat: orders.get(seat) or self.default_orders(state, seat) for seat in players}
        new, events = resolve_phase(state, complete)
        if (ended := self.outcome(new)) is not None:
            events.append(Event("game_over", {"winners": list(ended.winners)}))
        return Resolution(new, tuple(events))

    def outcome(self, state: GraState) -> Outcome | None:
        if not state.over:
            return None
        return standings.outcome(state.players, self._score(state), limit=mark("the turn limit was reached"))

    def standing(self, state: GraState) -> tuple[tuple[int, ...], ...]:
        return standings.ranking(state.players, self._score(state))

    @staticmethod
    def _score(state: GraState) -> Callable[[int], tuple[int, int]]:
        """Players still in are ranked by nodes, then soldiers."""
        return lambda seat: (len(state.territory(seat)), state.soldiers(seat))

    def map_name(self, state: GraState) -> str:
        return state.graph.name

    def view(self, state: GraState, seat: int | None) -> GraView:
        return make_view(state, seat, acting(state))

    def leave(self, state: GraState, seat: int, reason: str) -> tuple[GraState, list[Event]]:
        new = remove(state, seat, reason)
        if not new.over and not acting(new):  # nobody left to play this phase: it resolves as it stands
            return resolve_phase(new, {})
        return new, []

    def tutorial(self) -> tuple[TutorialPage[GraState], ...]:
        return tutorial.pages(self)

    def suggest_orders(self, state: GraState, seat: int, text: str) -> list[str]:
        return ai.suggestions(state, seat, text) if seat in acting(state) else []

    def ai_orders(
        self, state: GraState, seat: int, seed: int | str, *, level: str | None = None, budget: int | None = None
    ) -> list[Order]:
        return ai.choose_orders(state, seat, seed, self.bot_level(level).name, self.search_budget(level, budget))

    def bot_evaluation(self, state: GraState, seat: int) -> float:
        return ai.evaluation(state, seat)

    def turn_unit(self, state: GraState) -> str:
        return state.phase.turn_unit

    def turn_number(self, state: GraState, played: int) -> tuple[int, int | None]:
        """Move phases are numbered as the turn limit counts them ("move phase 7 of 12"); the split
        and creating phases that follow move phase 7 are the 7th of theirs; negotiation is the 1st."""
        if state.phase == Phase.MOVE:
            return state.move_phases + 1, state.turn_limit
        return max(state.move_phases, 1), None

    def order_hint(self, state: GraState) -> str:
        return ORDER_HINTS[state.phase]

    def describe_event(self, event: Event, who: SeatNamer) -> str | None:
        return events.describe(event, who)


RULESET = GraRuleset()
