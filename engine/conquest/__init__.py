"""Conquest: simultaneous secret rounds on a hex map with productive cells (spec: rules/conquest.md).

Options (``options_schema``): ``map`` (explicit map data, or the name of a shipped map; see
``board.py`` for the format), ``size`` of a generated map, ``start_units``, ``round_limit``.
Order notation: see ``orders.py`` (``C4>C5 3``, ``C4>C5``, ``auto C4>C5``, ``stop C4``).

Decisions beyond the spec:
- A seat that does not submit (or does not pass) gets no fixed moves; its standing auto-moves run.
- Rounds survived = rounds completed while the player was in the game; position points count the
  players ranked strictly below (``engine/standings.py``). Players who leave in the same round share
  a place, whether eliminated, surrendered or removed: "earlier" in the spec counts in rounds.
- Five players (hex grids have no 5-fold symmetry) start evenly spread round a ring, 6 steps from
  their neighbours, on the hexagon inside the ring plus the cells within 2, 3 or 4 steps (by size)
  of a start, trimmed so that every start is nearest to as many cells; the seed turns the ring
  (``board.generate_map``; wins per seat and per spot on the grid: ``bench/bench_fairness.py``).
- Standing auto-moves are orders, so they stay secret: a player's view shows his own; everybody
  sees the units that moved (``last_moves``, marked when an auto-move moved them).
- Missed-turn counting belongs to the game master (it knows deadlines); it calls ``remove_player``.
- The round limit is on by default (150 rounds); ``round_limit=0`` asks for none. Computers that
  hold most of the board press on: they attack wherever they beat every enemy unit around the target
  (``planner._targets``; rounds to the end: ``bench/bench_finish.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import standings
from engine.conquest import ai, events, rules, tutorial
from engine.conquest.board import GRID, SHIPPED, SIZES, ConquestMap, generate_map
from engine.conquest.orders import Order, hide_running_autos, parse, suggest
from engine.conquest.state import Cell, ConquestState, ConquestView, from_data, make_view, to_data, upgrade_v1
from engine.errors import OptionError
from engine.i18n import joined, map_title, mark, option_name, tr
from engine.rng import seed_state
from engine.ruleset import Event, Option, Outcome, Resolution, Ruleset, SeatNamer, TutorialPage

RULES_TEXT = mark(
    """\
**Conquest** — 2 to 6 players on a symmetric hex map. Each round everybody programs secret orders, \
then passes; the round resolves when all have passed or the deadline fires (un-passed orders are \
then dropped, standing orders still run; 3 missed rounds in a row remove a player).

**Cells** produce units every round when owned: normal +1, bronze +2, silver +5, gold +10. \
Neutral cells never move and never grow, but their garrison fights.

**Orders** (separate with `;`):
`C4>C5 3` move 3 units to a neighbour · `C4>C5` move all · `auto C4>C5` every round, send what is left \
after fixed moves · `stop C4` cancel that. Amounts count the units at the start of the round.

**Each round**: all units move at once (crossing units do not fight); then in every cell only the \
two largest parties fight: the larger keeps the difference, a tie leaves the cell neutral and empty; \
then production. Moving everything out of a cell keeps it yours unless an enemy walks in.

**End**: a player without cells is out; the last one wins (or the most cells, then units, at the \
round limit: 150 rounds unless the game sets another or none). Points: one per player ranked below you, plus one per round survived. \
You may surrender or agree a draw at any time."""
)


ROUND_LIMIT = 150  # on by default (rules/conquest.md); 0 only where the creator asks for no limit
SHORTEST_LIMIT, LONGEST_LIMIT = 10, 1000


class ConquestRuleset(Ruleset[ConquestState, Order, ConquestView]):
    name = "conquest"
    title = mark("Conquest")
    rules_text = RULES_TEXT
    map_example = {
        "name": "Twin peaks",
        "layout": ["n b n n", "n g s n", "n s g n", "n n b n"],
        "garrisons": {"B2": 3, "C3": 3},
        "starts": {"2": ["A1", "D4"]},
    }
    map_grid = GRID
    departure_note = mark("their cells turn neutral")
    min_players = 2
    max_players = 6
    default_players = 3
    bot_levels = ai.LEVELS
    write_state = staticmethod(to_data)
    read_state = staticmethod(from_data)
    state_version = 2
    state_upgrades = {1: upgrade_v1}

    def options_schema(self) -> tuple[Option, ...]:
        return (
            SHIPPED.option(),
            Option("size", "choice", "medium", "Size of a generated map", choices=tuple(SIZES), generated=True),
            Option("start_units", "int", 10, "Units on each start cell", minimum=1, maximum=100),
            Option(
                "round_limit",
                "int",
                ROUND_LIMIT,
                "Rounds before the game ends on cells and units (10-1000; 0: no limit)",
                minimum=0,
                maximum=LONGEST_LIMIT,
            ),
        )

    def setup(self, num_players: int, options: Mapping[str, Any] | None = None, seed: int | str = 0) -> ConquestState:
        self.check_num_players(num_players)
        opts = self.normalize_options(options)
        board = self._board(opts, num_players, seed)
        if num_players not in board.starts:
            counts = joined(sorted(board.starts))
            raise OptionError(
                tr(
                    "map {map} is for {counts} players, not {count}",
                    map=map_title(board.name),
                    counts=counts,
                    count=num_players,
                )
            )
        starts = board.starts[num_players]
        cells = {h: Cell(None, board.garrisons.get(h, 0)) for h in board.types}
        for seat, start in enumerate(starts):
            cells[start] = Cell(seat, opts["start_units"])
        return ConquestState(
            map_name=board.name,
            types=dict(board.types),
            cells=cells,
            autos={},
            players=standings.seated(num_players),
            round=1,
            round_limit=opts["round_limit"],
            last_moves=(),
            rng=seed_state(seed),
        )

    def normalize_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        opts = super().normalize_options(options)
        if 0 < opts["round_limit"] < SHORTEST_LIMIT:
            raise OptionError(
                tr(
                    "option {name}={value} must be 0 (no limit) or between {low} and {high}",
                    name=option_name("round_limit"),
                    value=opts["round_limit"],
                    low=SHORTEST_LIMIT,
                    high=LONGEST_LIMIT,
                )
            )
        if opts["map"] is not None:
            self._board(opts, self.min_players, 0)  # explicit or named maps are checked now, not at start
        return opts

    @staticmethod
    def _board(opts: Mapping[str, Any], num_players: int, seed: int | str) -> ConquestMap:
        return SHIPPED.choose(opts["map"], lambda: generate_map(num_players, opts["size"], seed))

    def acting_players(self, state: ConquestState) -> frozenset[int]:
        return frozenset() if state.over else frozenset(state.playing())

    def seats_in_game(self, state: ConquestState) -> frozenset[int]:
        return frozenset(state.playing())

    def orders_are_secret(self, state: ConquestState) -> bool:
        return True

    def parse_orders(self, state: ConquestState, seat: int, text: str) -> list[Order]:
        return parse(state, seat, text)

    def format_order(self, order: Order) -> str:
        return str(order)

    def public_orders(self, state: ConquestState, seat: int, text: str) -> str:
        return text if self.outcome(state) is not None else hide_running_autos(state, seat, text)

    def default_orders(self, state: ConquestState, seat: int) -> list[Order]:
        return []

    def resolve(self, state: ConquestState, orders: Mapping[int, Sequence[Order]]) -> Resolution[ConquestState]:
        return rules.resolve_round(state, orders)

    def outcome(self, state: ConquestState) -> Outcome | None:
        return rules.outcome(state)

    def order_hint(self, state: ConquestState) -> str:
        return mark("move units to adjacent cells: `C4>C5 3`, all of them `C4>C5`, every round `auto C4>C5`")

    def standing(self, state: ConquestState) -> tuple[tuple[int, ...], ...]:
        return standings.ranking(state.players, rules.score(state))

    def map_name(self, state: ConquestState) -> str:
        return state.map_name

    def view(self, state: ConquestState, seat: int | None) -> ConquestView:
        return make_view(state, seat)

    def leave(self, state: ConquestState, seat: int, reason: str) -> tuple[ConquestState, tuple[Event, ...]]:
        return rules.remove(state, seat, reason), ()

    def tutorial(self) -> tuple[TutorialPage[ConquestState], ...]:
        return tutorial.pages(self)

    def suggest_orders(self, state: ConquestState, seat: int, text: str) -> list[str]:
        return suggest(state, seat, text)

    def ai_orders(
        self, state: ConquestState, seat: int, seed: int | str, *, level: str | None = None, budget: int | None = None
    ) -> list[Order]:
        return ai.choose_orders(state, seat, seed, self.bot_level(level).name, self.search_budget(level, budget))

    def bot_evaluation(self, state: ConquestState, seat: int) -> float:
        return ai.evaluation(state, seat)

    def turn_unit(self, state: ConquestState) -> str:
        return mark("round")

    def describe_event(self, event: Event, who: SeatNamer) -> str | None:
        return events.describe(event, who)


RULESET = ConquestRuleset()
