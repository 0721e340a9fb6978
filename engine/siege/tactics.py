"""What a siege bot knows about a position: how many EP a player needs to take the enemy capital in
one turn (and the actions that do it), and a score for the position at the end of a turn.

The capital cost is a shortest path walked backwards from the capital: every square a token must
enter on the way has an entry price (2 to expand, move, cross or climb; the whole fortification
sequence to attack; digging first for an enemy mountain without a token), and the path starts at
one of the player's tokens (or at a back-row square he could deploy to, for 3 more).

Bots score thousands of positions a turn, so a position is first read into flat lists indexed by
square number (:class:`Board`) and the searches work on plain integers.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from engine.errors import IllegalOrderError
from engine.siege.board import numbering
from engine.siege.orders import COSTS, EP_PER_TURN, TOWER_PRICE, WALL_PRICE, Action
from engine.siege.rules import board_full, play
from engine.siege.state import SiegeState
from engine.squaregrid import Square

UNREACHABLE = 99
WON = 1_000_000
NOBODY = -1


def attack_price(state: SiegeState, sq: Square) -> int:
    """EP of the attacks that take ``sq`` from where it stands: every layer, then the capture."""
    walls, tower = state.walls.get(sq, 0), sq in state.towers
    if state.clear_all:
        return COSTS["attack"] + WALL_PRICE * walls + TOWER_PRICE * tower
    if tower:
        return COSTS["attack"] + TOWER_PRICE + COSTS["attack"]
    return sum(COSTS["attack"] + WALL_PRICE * layer for layer in range(walls, -1, -1))


@dataclass(frozen=True, slots=True)
class Board:
    """A position as flat lists by square number: owner and token seat (NOBODY if none), mountain
    level, river, the EP to take the square by attack, and which squares are capitals."""

    state: SiegeState
    owner: list[int]
    token: list[int]
    level: list[int]
    river: list[bool]
    price: list[int]
    capitals: tuple[int, int]

    @classmethod
    def read(cls, state: SiegeState) -> Board:
        size = state.size
        count = size * size
        owner, token, level = [NOBODY] * count, [NOBODY] * count, [0] * count
        river, price = [False] * count, [COSTS["attack"]] * count
        for sq, seat in state.owners.items():
            owner[sq.row * size + sq.col] = seat
        for sq, seat in state.tokens.items():
            token[sq.row * size + sq.col] = seat
        for sq, height in state.mountains.items():
            level[sq.row * size + sq.col] = height
        for sq in state.rivers:
            river[sq.row * size + sq.col] = True
        for sq in {*state.walls, *state.towers}:
            price[sq.row * size + sq.col] = attack_price(state, sq)
        first, second = (sq.row * size + sq.col for sq in state.capitals)
        return cls(state, owner, token, level, river, price, (first, second))

    def entry(self, attacker: int, i: int) -> int:
        """EP for ``attacker`` to get a token onto square ``i`` from a token next to it."""
        if i in self.capitals or self.token[i] == attacker:
            return UNREACHABLE
        if self.owner[i] != 1 - attacker:
            return COSTS["expand"]
        if self.river[i] or self.level[i] and self.token[i] != NOBODY:
            return UNREACHABLE
        return COSTS["dig"] * self.level[i] + self.price[i]

    def search(self, attacker: int, bound: int) -> tuple[int, int, dict[int, int]]:
        """The cheapest way to the enemy capital: its EP, the square it starts from (a token, or a
        square to deploy to; -1 if none within ``bound``), and each square's next step."""
        capital = self.capitals[1 - attacker]
        size = self.state.size
        _, near = numbering(size)
        rows = self.state.back_rows(attacker)
        start_price = self.price[capital]
        best = {i: start_price for i in near[capital]}
        links = dict.fromkeys(near[capital], capital)
        queue = [(start_price, i) for i in near[capital]]
        heapq.heapify(queue)
        found, start = UNREACHABLE, -1
        while queue:
            cost, i = heapq.heappop(queue)
            if cost > bound or cost >= found:
                break
            if cost > best[i]:
                continue
            if self.token[i] == attacker:
                return cost, i, links
            if self._deployable(attacker, i, rows) and cost + COSTS["deploy"] < found:
                found, start = cost + COSTS["deploy"], i
            step = self.entry(attacker, i)
            if step >= UNREACHABLE:
                continue
            for n in near[i]:
                if cost + step < best.get(n, UNREACHABLE):
                    best[n], links[n] = cost + step, i
                    heapq.heappush(queue, (cost + step, n))
        return found, start, links

    def _deployable(self, seat: int, i: int, rows: range) -> bool:
        return (
            i // self.state.size in rows
            and self.token[i] == NOBODY
            and i not in self.capitals
            and not self.river[i]
            and not self.level[i]
            and self.owner[i] != 1 - seat
        )

    def capture_cost(self, attacker: int, bound: int = 2 * EP_PER_TURN) -> int:
        """EP ``attacker`` needs to take the enemy capital in one turn (UNREACHABLE above ``bound``)."""
        cost, start, _ = self.search(attacker, bound)
        return cost if start >= 0 and cost <= bound else UNREACHABLE

    def secure(self, seat: int) -> int:
        """``seat``'s squares that can never be attacked: rivers, and mountains with his token on."""
        return sum(
            1
            for i, owner in enumerate(self.owner)
            if owner == seat and (self.river[i] or self.level[i] and self.token[i] == seat)
        )

    def closer(self, seat: int) -> int:
        """Neutral squares nearer (in steps) to ``seat``'s tokens than to the enemy's, minus those
        nearer to the enemy's: where the land still to be taken is likely to go."""
        _, near = numbering(self.state.size)
        distance = [[UNREACHABLE] * len(self.owner) for _ in (0, 1)]
        for side in (0, 1):
            steps = distance[side]
            frontier = [i for i, token in enumerate(self.token) if token == side]
            for i in frontier:
                steps[i] = 0
            while frontier:
                reached = []
                for i in frontier:
                    for n in near[i]:
                        if steps[n] > steps[i] + 1:
                            steps[n] = steps[i] + 1
                            reached.append(n)
                frontier = reached
        lead = 0
        for i, owner in enumerate(self.owner):
            if owner == NOBODY and distance[seat][i] != distance[1 - seat][i]:
                lead += 1 if distance[seat][i] < distance[1 - seat][i] else -1
        return lead

    def exposed(self, seat: int) -> int:
        """``seat``'s squares the enemy could take next turn for 2 EP: plain, unfortified, and next
        to an enemy token."""
        _, near = numbering(self.state.size)
        enemy = 1 - seat
        return len(
            {
                n
                for i, token in enumerate(self.token)
                if token == enemy
                for n in near[i]
                if self.owner[n] == seat
                and self.price[n] == COSTS["attack"]
                and not self.river[n]
                and not self.level[n]
            }
        )


def winning_line(state: SiegeState, seat: int) -> list[Action] | None:
    """Actions that take the enemy capital this turn, or None when 6 EP are not enough."""
    board = Board.read(state)
    cost, start, links = board.search(seat, EP_PER_TURN)
    if start < 0 or cost > EP_PER_TURN:
        return None
    squares, _ = numbering(state.size)
    actions = [] if board.token[start] == seat else [Action("deploy", squares[start])]
    here = start
    while here != board.capitals[1 - seat]:
        there = links[here]
        actions += _enter(state, seat, squares[here], squares[there])
        here = there
    try:
        play(state, seat, actions)
    except IllegalOrderError:
        return None
    return actions


def _enter(state: SiegeState, seat: int, here: Square, there: Square) -> list[Action]:
    """The actions that put the token on ``here`` onto ``there`` (as priced by Board.entry)."""
    if state.owners.get(there) == 1 - seat:
        digs = [Action("dig", there)] * state.mountains.get(there, 0)
        layers = 1 if state.clear_all else state.walls.get(there, 0) + (there in state.towers) + 1
        return digs + [Action("attack", there, here)] * layers
    if there in state.rivers:
        return [Action("cross", there, here)]
    if there in state.mountains:
        return [Action("climb", there, here)]
    return [Action("expand", there)]


def evaluate(state: SiegeState, seat: int, *, threats: bool = True, secure: bool = False) -> float:
    """How good the position is for ``seat`` when his turn ends here (the opponent moves next):
    territory and tokens, and with ``threats`` the squares the enemy could take cheaply and how
    close each capital is to falling; with ``secure`` the squares nobody can ever attack."""
    enemy = 1 - seat
    owners, tokens = list(state.owners.values()), list(state.tokens.values())
    lead = owners.count(seat) - owners.count(enemy) + state.komi_of(seat) - state.komi_of(enemy)
    playing = [p.playing for p in state.players]
    if playing[seat] != playing[enemy]:
        return WON if playing[seat] else -WON
    if state.over or state.turn + 1 >= state.turn_limit or board_full(state):  # ends with this turn
        return WON if lead > 0 else -WON if lead < 0 else 0
    score = 10.0 * lead
    score += 4.0 * (2 * tokens.count(seat) - len(tokens))
    if not threats:
        return score
    board = Board.read(state)
    danger = board.capture_cost(enemy)
    if danger <= EP_PER_TURN:
        return score - WON / 10
    score -= 9.0 * max(0, 2 * EP_PER_TURN + 1 - danger)
    score += 5.0 * max(0, 2 * EP_PER_TURN + 1 - board.capture_cost(seat))
    if secure:
        score += 4.0 * (board.secure(seat) - board.secure(enemy)) + 3.0 * board.closer(seat)
    return score - 6.0 * board.exposed(seat)
