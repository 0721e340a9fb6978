"""The fortress position the computer players search: cells are numbers, the position is a few
flat lists copied on each move, and what a build would claim is kept up to date as it goes, so a
search visits thousands of positions where rebuilding a :class:`FortressState` managed hundreds.

It plays by the rules of ``rules.py`` (tests hold the two to the same legal actions); turns it
plays are turned back into orders and checked by the rules before a bot gives them.

An action is a tuple: ``(BUILD, cell)``, ``(WALK, cell, step)``, ``(WALK, cell, step, second)``
or ``(WALK_BUILD, cell, step)``; the cell where it starts comes first.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from engine.fortress.board import LAND, MOUNTAIN, WATER
from engine.fortress.orders import Build, Order, Walk, WalkBuild
from engine.fortress.rules import neighbours
from engine.fortress.state import FortressState
from engine.hexgrid import Hex

BUILD, WALK, WALK_BUILD = "build", "walk", "walk_build"
Action = tuple


@dataclass(frozen=True)
class Field:
    """What never changes in a game: the cells, who neighbours whom, the terrain, the cities."""

    cells: tuple[Hex, ...]
    index: dict[Hex, int]
    near: tuple[tuple[int, ...], ...]  # neighbours, in the order rules.neighbours lists them
    around: tuple[tuple[int, ...], ...]  # the cell and its neighbours
    claims: tuple[tuple[int, ...], ...]  # what a fortress on the cell claims: around it, cities left out
    land: tuple[bool, ...]
    water: tuple[bool, ...]
    mountain: tuple[bool, ...]
    cities: tuple[int, int]
    sites: tuple[int, ...]  # land that is not a city: where fortresses may ever stand


@functools.lru_cache(maxsize=16)
def _field(width: int, height: int, rough: tuple[tuple[Hex, str], ...], cities: tuple[Hex, Hex]) -> Field:
    cells = tuple(sorted(Hex.from_offset(c, r) for r in range(height) for c in range(width)))
    index = {cell: i for i, cell in enumerate(cells)}
    terrain = dict.fromkeys(cells, LAND) | dict(rough)
    probe = _Terrain(terrain)
    near = tuple(tuple(index[n] for n in neighbours(probe, cell)) for cell in cells)
    city = (index[cities[0]], index[cities[1]])
    around = tuple((i, *near[i]) for i in range(len(cells)))
    return Field(
        cells=cells,
        index=index,
        near=near,
        around=around,
        claims=tuple(tuple(t for t in around[i] if t not in city) for i in range(len(cells))),
        land=tuple(terrain[c] == LAND for c in cells),
        water=tuple(terrain[c] == WATER for c in cells),
        mountain=tuple(terrain[c] == MOUNTAIN for c in cells),
        cities=city,
        sites=tuple(i for i, c in enumerate(cells) if terrain[c] == LAND and i not in city),
    )


@dataclass(frozen=True)
class _Terrain:
    """Just enough of a state for ``rules.neighbours``."""

    terrain: dict[Hex, str]


def field_of(state: FortressState) -> Field:
    rough = tuple(sorted((c, t) for c, t in state.terrain.items() if t != LAND))
    return _field(state.width, state.height, rough, state.cities)


class Position:
    """One moment of a game, to be searched: owners, fortresses, generals, the turn. ``reach[s][i]``
    counts the cells around ``i`` that seat ``s`` owns, so ``i`` is his to build on when it is > 0."""

    __slots__ = ("field", "mode", "owner", "fort", "reach", "score", "generals", "turn", "moves")

    def __init__(
        self,
        field: Field,
        mode: int,
        owner: list[int],  # -1 for nobody's
        fort: list[bool],
        reach: tuple[list[int], list[int]],
        score: list[int],  # territory per seat
        generals: dict[int, int],
        turn: int,
        moves: int,
    ) -> None:
        self.field = field
        self.mode = mode
        self.owner = owner
        self.fort = fort
        self.reach = reach
        self.score = score
        self.generals = generals
        self.turn = turn
        self.moves = moves

    @classmethod
    def of(cls, state: FortressState) -> Position:
        field = field_of(state)
        owner = [state.owners.get(c, -1) for c in field.cells]
        reach = ([0] * len(owner), [0] * len(owner))
        for i, seat in enumerate(owner):
            if seat >= 0:
                for t in field.around[i]:
                    reach[seat][t] += 1
        return cls(
            field,
            state.mode,
            owner,
            [c in state.fortresses for c in field.cells],
            reach,
            [state.territory(0), state.territory(1)],
            {field.index[c]: s for c, s in state.generals.items()},
            state.turn,
            state.moves,
        )

    def copy(self) -> Position:
        return Position(
            self.field,
            self.mode,
            self.owner[:],
            self.fort[:],
            (self.reach[0][:], self.reach[1][:]),
            self.score[:],
            dict(self.generals),
            self.turn,
            self.moves,
        )

    @property
    def to_move(self) -> int:
        return self.turn % 2

    @property
    def over(self) -> bool:
        return self.turn >= 2 * self.moves

    def lead(self, seat: int) -> int:
        return self.score[seat] - self.score[1 - seat]

    # --- building -------------------------------------------------------------------------------

    def buildable(self, i: int) -> bool:
        return self.field.land[i] and not self.fort[i] and i not in self.field.cities

    def gain(self, seat: int, i: int) -> int:
        """How much a fortress on ``i`` changes ``seat``'s lead: 2 for a cell taken from the opponent."""
        owner = self.owner
        return sum(2 if owner[t] >= 0 else 1 for t in self.field.claims[i] if owner[t] != seat)

    def build_sites(self, seat: int) -> list[int]:
        """Modes 1-2: where ``seat`` may build (rules.may_build)."""
        fort, reach = self.fort, self.reach[seat]
        return [i for i in self.field.sites if reach[i] and not fort[i]]

    def build(self, seat: int, i: int) -> None:
        self.fort[i] = True
        owner, around, mine = self.owner, self.field.around, self.reach[seat]
        for t in self.field.claims[i]:
            was = owner[t]
            if was == seat:
                continue
            owner[t] = seat
            self.score[seat] += 1
            for u in around[t]:
                mine[u] += 1
            if was >= 0:
                self.score[was] -= 1
                theirs = self.reach[was]
                for u in around[t]:
                    theirs[u] -= 1

    # --- generals (mode 3) ----------------------------------------------------------------------

    def enterable(self, seat: int, i: int) -> bool:
        return not self.field.mountain[i] and i not in self.generals and self.owner[i] in (-1, seat)

    def actions(self, at: int) -> list[Action]:
        """Every action of the general on ``at`` (rules.general_actions), except walking into his
        own city, which would leave the turn illegal."""
        seat = self.generals[at]
        field = self.field
        city = field.cities[seat]
        del self.generals[at]  # he does not block himself
        found: list[Action] = []
        try:
            if field.water[at]:
                return [
                    (WALK, at, s) for s in field.near[at] if field.land[s] and self.enterable(seat, s) and s != city
                ]
            if self.buildable(at):
                found.append((BUILD, at))
            for step in field.near[at]:
                if not self.enterable(seat, step):
                    continue
                if step != city:
                    found.append((WALK, at, step))
                if self.buildable(step):
                    found.append((WALK_BUILD, at, step))
                if field.water[step]:
                    continue
                for second in field.near[step]:
                    if second != at and second != city and self.enterable(seat, second):
                        found.append((WALK, at, step, second))
            return found
        finally:
            self.generals[at] = seat

    def act(self, action: Action) -> None:
        at = action[1]
        seat = self.generals.pop(at)
        if action[0] == WALK:
            self.generals[action[-1]] = seat
        else:
            self.build(seat, action[-1])

    def play(self, turn: tuple[Action, ...]) -> None:
        """The mover plays ``turn`` (a build in modes 1-2, his generals' actions in mode 3; nothing
        is a pass) and the turn ends."""
        for action in turn:
            if self.mode < 3:
                self.build(self.to_move, action[1])
            else:
                self.act(action)
        self.end_turn()

    def end_turn(self) -> None:
        """The next player's turn begins; in mode 3 his new general appears in his city."""
        self.turn += 1
        if self.mode == 3 and not self.over:
            city = self.field.cities[self.to_move]
            self.generals.setdefault(city, self.to_move)

    def order(self, action: Action) -> Order:
        cells = self.field.cells
        if action[0] == BUILD:
            return Build(cells[action[1]])
        if action[0] == WALK_BUILD:
            return WalkBuild(cells[action[1]], cells[action[2]])
        return Walk(tuple(cells[i] for i in action[1:]))
