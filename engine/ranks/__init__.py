"""Ranks: 2 to 4 players take turns spawning and moving armies that rank up (spec: rules/ranks.md).

Options: ``map`` (a shipped map name or map data, see ``board.py``; empty for a generated one),
``size`` of a generated board, ``turn_limit`` (turns of all players together), ``head_start`` (exp
the weaker seat begins with instead of the measured head start; 0: none). Order notation: ``orders.py``.

Decisions beyond the spec:
- "Three upgrades in a row" means three upgrades of the same army in one upgrade phase: a pawn
  that starts the phase as a pawn may become a tank (``up D2 3``, or ``up D2`` three times);
  upgrades name the cell where the army stands after the moves, and come after them.
- ``pass`` (or a missed deadline) is a turn without spawn or moves; the NPCs and the capital check
  still follow. Every player always has that turn, so nobody is ever passed automatically.
- A generated board has a quarter-turn symmetry with a home city in each corner: two players take
  opposite corners and three leave the fourth corner's city neutral.
- Position points as in every ruleset (``engine/standings.py``); no bonus.
- Balance (rules/fortress.md, Balance: the same check for every two-player ruleset): which seat
  the strongest computers favour depends on the map (the second player on a generated board, the
  first on duel), so in a two-player game the other one begins ahead, ``HEAD_START`` by map
  (measured with ``bench/bench_balance.py``; a generated board of any size takes the 11x11 figure):
  with exp, which the board shows, or where exp is too coarse (duel) with a second pawn. With three
  or four players nobody does unless the option says so (then the first player, with exp).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from engine import standings
from engine.alternating import TakesTurns
from engine.errors import MapError
from engine.i18n import map_title, mark, ntr, tr
from engine.ranks import ai, events, tutorial
from engine.ranks.board import GRID, SHIPPED, RanksMap, generate_map
from engine.ranks.orders import Order
from engine.ranks.rules import parse, play, remove
from engine.ranks.state import PAWN, Army, RanksState, RanksView, from_data, make_view, to_data
from engine.rng import seed_state
from engine.ruleset import Event, Option, Outcome, Resolution, Ruleset, SeatNamer, TutorialPage


class HeadStart(NamedTuple):
    seat: int  # the seat that begins ahead
    exp: int
    pawns: int = 0  # pawns beside its capital's, on its home city's first empty cells (as a spawn puts them)


# The head start of a two-player game, by map ("generated": any generated board), from bench_balance,
# strongest vs strongest (seat 0's share of the decisive games, 200 games unless said): generated
# 11x11 0.25 without (40 games), 0.490 with 2 for seat 0; nine-cities 0.268 without, 0.356 with 2,
# 0.477 with 4 (seeds 0-199; 0.552 with 5, 100 games); duel 0.633 without, and exp is too coarse a
# unit there: 0.395 with 1 for seat 1, and (100 games each) 0.42 with 1 each, 0.08 with 1 for seat 0
# and 2 for seat 1, and the 1 exp given at the start of seat 1's 2nd, 3rd or 5th turn instead 0.18,
# 0.327, 0.404 (the first four turns of every game are the same, so any exp changes which opening
# wins, not by how much); nor is seat 1's capital pawn begun as an archer worth anything (0.650). A
# second pawn for seat 1 gave 0.540 (0.510 and 0.570 in seeds 0-99 and 100-199).
HEAD_START = {"generated": HeadStart(0, 2), "nine-cities": HeadStart(0, 4), "duel": HeadStart(1, 0, pawns=1)}

RULES_TEXT = mark(
    """\
**Ranks** — 2 to 4 players take turns on a square board. Red cells are **cities** (a group of \
touching red cells is one city); outlined cells are **tracks** where green **NPC** pawns patrol. \
Each player has a **capital** (a crown): if after any turn none of your armies stands on it, you \
are out. The last player left wins.

**Each turn, one of:**
• **Spawn** — a pawn in every city you control (you have an army there and nobody else does), on \
an empty cell: `spawn` uses each city's first empty cell, `spawn C4 F7` picks them.
• **Move** — any of your armies, each once, in the order written: `C4>C5; D2>E3`. Pawn: one step \
up/down/left/right. Archer: one step diagonally. Knight: a chess knight's jump (nothing blocks it). \
Tank: one step up/down/left/right for 1 exp, or `blast D2` instead of moving: every army of other \
players and every NPC on the 8 cells around it is eliminated.
Moving onto any army — even your own — or an NPC eliminates it and earns exp: 1 for a pawn, archer \
or NPC, 2 for a knight or tank.

**Then upgrades** — each exp raises an army one rank: pawn → archer → knight, written after the \
moves: `up E3` (one rank), `up E3 2`. A **tank** is made only from a pawn by three upgrades in the \
same turn: `up D2 3`. Your exp is one pool.

**Then the NPCs**, top row first: each steps onto the first neighbouring track cell (up, down, \
left, right) that holds a player's army and eliminates it. Then every player without an army on \
his capital is out.

`pass` skips the spawn or move (upgrades may follow); a missed deadline passes. After the turn \
limit the most armies, then the most exp, wins. You may surrender at any time.

**Balance**: in a two-player game the seat the computers' self-play found weaker begins ahead, as \
the board shows: the first player with 2 exp on a generated board and 4 on nine-cities, the second \
player with a second pawn on duel (option *head_start* gives that seat that many exp instead; 0: \
none)."""
)


class RanksRuleset(TakesTurns, Ruleset[RanksState, Order, RanksView]):
    name = "ranks"
    title = mark("Ranks")
    rules_text = RULES_TEXT
    map_example = {
        "name": "Little duel",
        "width": 6,
        "height": 6,
        "cities": ["B2", "C2", "D4", "E5", "D5"],
        "tracks": ["F2", "F3", "A4", "A5"],
        "npcs": ["F3"],
        "capitals": ["B2", "E5"],
    }
    map_grid = GRID
    min_players = 2
    max_players = 4
    default_players = 2
    bot_levels = ai.LEVELS
    bot_level_aliases = ai.RENAMED
    write_state = staticmethod(to_data)
    read_state = staticmethod(from_data)

    def options_schema(self) -> tuple[Option, ...]:
        return (
            SHIPPED.option(),
            Option("size", "int", 11, "Side of a generated board", minimum=7, maximum=16, generated=True),
            Option(
                "turn_limit", "int", 300, "Turns of all players together before the game ends", minimum=10, maximum=2000
            ),
            Option(
                "head_start",
                "int",
                None,
                "Exp the weaker seat begins with instead of the measured head start (empty: that; 0: none)",
                minimum=0,
                maximum=5,
            ),
        )

    def normalize_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """The options, a map given as data or by name checked as every ruleset checks it here (a
        generated map needs the number of players: it is made at setup)."""
        opts = super().normalize_options(options)
        SHIPPED.given(opts["map"])
        return opts

    def _board(self, num_players: int, options: Mapping[str, Any] | None, seed: int | str) -> RanksMap:
        """The map a game with these options is played on; a map for another table is refused."""
        opts = self.normalize_options(options)
        board = SHIPPED.choose(opts["map"], lambda: generate_map(num_players, seed, opts["size"]))
        if board.players != num_players:
            raise MapError(
                ntr(
                    "map {map} is for {n} player, not {count}",
                    "map {map} is for {n} players, not {count}",
                    board.players,
                    map=map_title(board.name),
                    count=num_players,
                )
            )
        return board

    def setup(self, num_players: int, options: Mapping[str, Any] | None = None, seed: int | str = 0) -> RanksState:
        self.check_num_players(num_players)
        board = self._board(num_players, options, seed)
        head_start = self._head_start(board, num_players, self.normalize_options(options)["head_start"])
        armies = {capital: Army(seat, PAWN) for seat, capital in enumerate(board.capitals)}
        home = board.city_of(board.capitals[head_start.seat]) or ()
        for cell in [c for c in home if c not in armies][: head_start.pawns]:
            armies[cell] = Army(head_start.seat, PAWN)
        return RanksState(
            board=board,
            armies=armies,
            npcs=board.npcs,
            exp=tuple(head_start.exp if seat == head_start.seat else 0 for seat in range(num_players)),
            players=standings.seated(num_players),
            to_move=0,
            turn=0,
            turn_limit=self.normalize_options(options)["turn_limit"],
            last=(),
            rng=seed_state(seed),
        )

    @staticmethod
    def _head_start(board: RanksMap, num_players: int, chosen: int | None) -> HeadStart:
        """The measured head start of a two-player game on this board, replaced by ``chosen`` exp
        when the option gives a number; with more players the first player's ``chosen`` exp, if any."""
        measured = HEAD_START.get(board.name if board.name in SHIPPED.names() else "generated", HeadStart(0, 0))
        if num_players != 2:
            measured = HeadStart(0, 0)
        return measured if chosen is None else HeadStart(measured.seat, chosen)

    def parse_turn(self, state: RanksState, seat: int, text: str) -> list[Order]:
        return parse(state, seat, text)

    def resolve(self, state: RanksState, orders: Mapping[int, Sequence[Order]]) -> Resolution[RanksState]:
        new, happened = play(state, state.to_move, self.movers_orders(state, orders))
        if (ended := self.outcome(new)) is not None:
            happened.append(Event("game_over", {"winners": list(ended.winners)}))
        return Resolution(new, tuple(happened))

    def outcome(self, state: RanksState) -> Outcome | None:
        if not state.over:
            return None
        return standings.outcome(state.players, state.score, limit=mark("the turn limit was reached"))

    def standing(self, state: RanksState) -> tuple[tuple[int, ...], ...]:
        return standings.ranking(state.players, state.score)

    def order_hint(self, state: RanksState) -> str:
        return mark("`spawn`, or moves like `C4>C5; D2>E3`; then upgrades like `up E3` (or `pass`)")

    def map_name(self, state: RanksState) -> str:
        return state.board.name

    def view(self, state: RanksState, seat: int | None) -> RanksView:
        return make_view(state, seat)

    def leave(self, state: RanksState, seat: int, reason: str) -> tuple[RanksState, tuple[Event, ...]]:
        return remove(state, seat, reason), ()

    def tutorial(self) -> tuple[TutorialPage[RanksState], ...]:
        return tutorial.pages(self)

    def losing_warning(self, state: RanksState, seat: int) -> str:
        return tr(
            "these orders leave your capital {capital} empty: you would be out",
            capital=state.board.capitals[seat].label,
        )

    def suggest_orders(self, state: RanksState, seat: int, text: str) -> list[str]:
        return ai.suggestions(state, seat, text) if not state.over and seat == state.to_move else []

    def ai_orders(
        self, state: RanksState, seat: int, seed: int | str, *, level: str | None = None, budget: int | None = None
    ) -> list[Order]:
        return ai.choose_orders(state, seat, seed, self.bot_level(level).name, self.search_budget(level, budget))

    def bot_evaluation(self, state: RanksState, seat: int) -> float:
        return ai.evaluation(state, seat)

    def turn_unit(self, state: RanksState) -> str:
        return mark("turn")

    def describe_event(self, event: Event, who: SeatNamer) -> str | None:
        return events.describe(event, who)


RULESET = RanksRuleset()

__all__ = ["RanksRuleset", "RULESET"]
