"""Fortress: two players take turns building fortresses on a hex field (spec: rules/fortress.md).

Options: ``mode`` (1 "I'm too young to die", 2 "Hey, not too rough!" with water and mountains,
3 "Hurt me plenty" with generals), ``moves`` per player, ``width``/``height`` of a generated
field, ``map`` (a shipped map name or map data; see ``board.py``). Order notation: ``orders.py``.

Decisions beyond the spec:
- A pass (typed, or a missed deadline) leaves every general where he stands; a new general then
  does not appear while one stands in the city.
- A player with no legal action is passed automatically; that move counts toward the limit. In
  mode 3 "legal" counts whole turns: a general boxed in his city by his own generals has a turn if
  they can make way (``rules.way_out``; a search too long to finish gives him the benefit of the
  doubt, and he may pass himself).
- Cities at least 3 apart (``board.CITY_DISTANCE``): generated fields keep to it on any size, and
  explicit maps that break it are refused.
- Cities and their neighbours are always land. Mode 1 refuses maps with water or mountains.
- Position points: 1 for the winner, 0 otherwise (0 each in a draw).
- Komi (rules/fortress.md, Balance): the second player's last move cannot be answered, so seat 0's
  territory gets ``KOMI[mode]`` cells at the end unless option ``komi`` sets another (0 to 12 in
  halves; 0: none). The table is the compensation that brings seat 0 nearest half the decisive
  games of the strongest computers playing each other on the default field, found from their final
  margins (``bench/bench_balance.py`` prints how often each came, and that komi): about the median
  margin, in halves where a whole number leaves a seat too far ahead (mode 1: 2 gave seat 0 43% of
  the decisive games, 3 gave it 62%, 2.5 gives 53% and no draws). Other field sizes use the same
  number: the last build claims at most seven cells on any field.
  Games begun before the komi existed (state version 2) go on without one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine import komi, standings
from engine.alternating import TakesTurns
from engine.errors import OptionError
from engine.fortress import ai, events, tutorial
from engine.fortress.board import GRID, LAND, SHIPPED, FortressMap, generate_map
from engine.fortress.orders import Order
from engine.fortress.rules import advance, apply_turn, begin, claim, parse, remove
from engine.fortress.state import (
    MODES,
    FortressState,
    FortressView,
    from_data,
    make_view,
    to_data,
    upgrade_v1,
    upgrade_v2,
)
from engine.i18n import map_title, mark, tr
from engine.rng import seed_state
from engine.ruleset import Event, Option, Outcome, Resolution, Ruleset, SeatNamer, TutorialPage

RULES_TEXT = mark(
    """\
**Fortress** — two players, alternating turns, a fixed number of moves each. You own your city and \
the cells around it; the larger territory at the end wins (water and mountains count).

**Build** (modes 1–2): a fortress on a land cell that is yours or next to yours, without a fortress \
and not a city. That cell and all its neighbours become yours — even enemy fortress cells. Cities \
never change hands. Write `C4` (or `build C4`).

**Mode 3, generals**: only generals build. A new one appears in your city each turn and must leave it. \
Each general does one thing per turn: walk one or two cells (`C4>D4`, `C4>D4>D5`), build where he \
stands (`build C4`), or walk one cell and build (`C4>D4 build`). Generals never enter mountains, \
enemy cells or another general's cell; walking into water ends the move, and from water a general \
can only step back onto land. A general who builds is gone.

`pass` skips your move (a missed deadline passes too); a player with no legal move passes \
automatically.

**Komi**: the second player makes the last move, which cannot be answered, so the first player's \
territory counts a few cells more at the end (by default the number measured for the mode; option \
*komi*). The board shows it beside his count."""
)


# Seat 0's compensation by mode, from the final margins of 200 strongest-vs-strongest games on the
# default 11x10 field (bench/bench_balance.py).
KOMI = {1: 2.5, 2: 3.0, 3: 2.0}


class FortressRuleset(TakesTurns, Ruleset[FortressState, Order, FortressView]):
    name = "fortress"
    title = mark("Fortress")
    rules_text = RULES_TEXT
    map_example = {
        "name": "Valley",
        "width": 8,
        "height": 6,
        "cities": ["B3", "G4"],
        "mountains": ["D2", "E5"],
        "water": ["D5", "E2"],
    }
    map_grid = GRID
    min_players = 2
    max_players = 2
    default_players = 2
    bot_levels = ai.LEVELS
    write_state = staticmethod(to_data)
    read_state = staticmethod(from_data)
    turn_word = "move"  # a player's go, in messages
    state_version = 3
    state_upgrades = {1: upgrade_v1, 2: upgrade_v2}

    def options_schema(self) -> tuple[Option, ...]:
        return (
            Option(
                "mode",
                "choice",
                1,
                "1 plain field, 2 with water and mountains, 3 with generals",
                choices=tuple(MODES),
                labels=tuple(f"{number}: {title}" for number, title in MODES.items()),
            ),
            Option("moves", "int", 15, "Moves each player makes", minimum=1, maximum=100),
            komi.option("Cells added to the first player's territory (empty: the measured default; 0: none)"),
            SHIPPED.option(),
            Option("width", "int", 11, "Columns of a generated field", minimum=6, maximum=20, generated=True),
            Option(
                "height",
                "int",
                10,
                "Rows of a generated field (rounded up to even)",
                minimum=6,
                maximum=20,
                generated=True,
            ),
        )

    def normalize_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        opts = super().normalize_options(options)
        self._field(opts, 0)
        return opts

    def _field(self, opts: Mapping[str, Any], seed: int | str) -> FortressMap:
        field = SHIPPED.choose(opts["map"], lambda: generate_map(opts["mode"], seed, opts["width"], opts["height"]))
        if opts["mode"] == 1 and any(t != LAND for t in field.terrain.values()):
            raise OptionError(
                tr(
                    "mode 1 has no water or mountains, but map {map} has some; use mode 2 or 3",
                    map=map_title(field.name),
                )
            )
        return field

    def setup(self, num_players: int, options: Mapping[str, Any] | None = None, seed: int | str = 0) -> FortressState:
        self.check_num_players(num_players)
        opts = self.normalize_options(options)
        field = self._field(opts, seed)
        state = FortressState(
            map_name=field.name,
            mode=opts["mode"],
            width=field.width,
            height=field.height,
            terrain=dict(field.terrain),
            cities=field.cities,
            owners={},
            fortresses={},
            generals={},
            moves=opts["moves"],
            komi=komi.chosen(opts, KOMI[opts["mode"]]),
            turn=0,
            players=standings.seated(2),
            last=(),
            rng=seed_state(seed),
        )
        for seat, city in enumerate(field.cities):
            state = replace(state, owners={**claim(state, seat, city)[0], city: seat})
        return begin(state, [])

    def parse_turn(self, state: FortressState, seat: int, text: str) -> list[Order]:
        return parse(state, seat, text)

    def resolve(self, state: FortressState, orders: Mapping[int, Sequence[Order]]) -> Resolution[FortressState]:
        actions = self.movers_orders(state, orders)
        new, events = apply_turn(state, state.to_move, actions)
        new = advance(new, events)
        if (ended := self.outcome(new)) is not None:
            events.append(Event("game_over", {"winners": list(ended.winners)}))
        return Resolution(new, tuple(events))

    def outcome(self, state: FortressState) -> Outcome | None:
        if not state.over:
            return None
        return standings.outcome(state.players, state.score, limit=mark("every move was made"))

    def order_hint(self, state: FortressState) -> str:
        if state.mode < 3:
            return mark("build a fortress: `C4` (or `pass`)")
        return mark("each general walks (`C4>D4`, `C4>D4>D5`), builds (`build C4`) or both (`C4>D4 build`)")

    def standing(self, state: FortressState) -> tuple[tuple[int, ...], ...]:
        return standings.ranking(state.players, state.score)

    def map_name(self, state: FortressState) -> str:
        return state.map_name

    def view(self, state: FortressState, seat: int | None) -> FortressView:
        return make_view(state, seat)

    def leave(self, state: FortressState, seat: int, reason: str) -> tuple[FortressState, tuple[Event, ...]]:
        return remove(state, seat, reason), ()

    def tutorial(self) -> tuple[TutorialPage[FortressState], ...]:
        return tutorial.pages(self)

    def suggest_orders(self, state: FortressState, seat: int, text: str) -> list[str]:
        return ai.suggestions(state, seat, text) if not state.over and seat == state.to_move else []

    def ai_orders(
        self, state: FortressState, seat: int, seed: int | str, *, level: str | None = None, budget: int | None = None
    ) -> list[Order]:
        return ai.choose_orders(state, seat, seed, self.bot_level(level).name, self.search_budget(level, budget))

    def bot_evaluation(self, state: FortressState, seat: int) -> float:
        return ai.evaluation(state, seat)

    def turn_unit(self, state: FortressState) -> str:
        return mark("move")

    def describe_event(self, event: Event, who: SeatNamer) -> str | None:
        return events.describe(event, who)


RULESET = FortressRuleset()

__all__ = ["MODES", "FortressRuleset", "RULESET"]
