"""What a siege bot knows about a position: how many EP a player needs to take the enemy capital in
one turn (and the actions that do it), and a score for the position at the end of a turn.

The capital cost is a shortest path walked backwards from the capital: every square a token must
enter on the way has an entry price (2 to expand, move, cross or climb; the whole fortification
sequence to attack; digging first for an enemy mountain without a token), and the path starts at
one of the player's tokens (or at a back-row square he could deploy to, for 3 more).
"""

from __future__ import annotations

import heapq

from engine.errors import IllegalOrderError
from engine.siege.orders import COSTS, EP_PER_TURN, TOWER_PRICE, WALL_PRICE, Action
from engine.siege.rules import is_terrain, neighbours, play
from engine.siege.state import SiegeState
from engine.squaregrid import Square

UNREACHABLE = 99
WON = 1_000_000


def attack_price(state: SiegeState, sq: Square) -> int:
    """EP of the attacks that take ``sq`` from where it stands: every layer, then the capture."""
    walls, tower = state.walls.get(sq, 0), sq in state.towers
    if state.clear_all:
        return COSTS["attack"] + WALL_PRICE * walls + TOWER_PRICE * tower
    if tower:
        return COSTS["attack"] + TOWER_PRICE + COSTS["attack"]
    return sum(COSTS["attack"] + WALL_PRICE * layer for layer in range(walls, -1, -1))


def entry_price(state: SiegeState, attacker: int, sq: Square) -> int:
    """EP for ``attacker`` to get a token onto ``sq`` from a token next to it (UNREACHABLE if never)."""
    owner = state.owners.get(sq)
    if sq in state.capitals or sq in state.tokens and state.tokens[sq] == attacker:
        return UNREACHABLE
    if owner != 1 - attacker:
        return COSTS["expand"]
    if sq in state.rivers or sq in state.tokens and sq in state.mountains:
        return UNREACHABLE
    return COSTS["dig"] * state.mountains.get(sq, 0) + attack_price(state, sq)


def _search(state: SiegeState, attacker: int, bound: int) -> tuple[int, Square | None, dict[Square, Square]]:
    """Cheapest start square (a token, or a deploy square) and the path links towards the capital."""
    capital = state.capitals[1 - attacker]
    price = attack_price(state, capital)
    best: dict[Square, int] = {}
    links: dict[Square, Square] = {}
    queue = [(price, sq) for sq in neighbours(state, capital)]
    for _, sq in queue:
        best[sq], links[sq] = price, capital
    heapq.heapify(queue)
    found, start = UNREACHABLE, None
    deploy_rows = state.back_rows(attacker)
    while queue:
        cost, sq = heapq.heappop(queue)
        if cost > bound or cost >= found:
            break
        if cost > best[sq]:
            continue
        if state.tokens.get(sq) == attacker:
            return cost, sq, links
        if sq.row in deploy_rows and sq not in state.tokens and sq not in state.capitals:
            if not is_terrain(state, sq) and state.owners.get(sq) != 1 - attacker and cost + COSTS["deploy"] < found:
                found, start = cost + COSTS["deploy"], sq
        step = entry_price(state, attacker, sq)
        if step >= UNREACHABLE:
            continue
        for near in neighbours(state, sq):
            if cost + step < best.get(near, UNREACHABLE):
                best[near], links[near] = cost + step, sq
                heapq.heappush(queue, (cost + step, near))
    return found, start, links


def capture_cost(state: SiegeState, attacker: int, bound: int = 2 * EP_PER_TURN) -> int:
    """EP ``attacker`` needs to take the enemy capital in one turn (UNREACHABLE above ``bound``)."""
    cost, _, _ = _search(state, attacker, bound)
    return cost if cost <= bound else UNREACHABLE


def winning_line(state: SiegeState, seat: int) -> list[Action] | None:
    """Actions that take the enemy capital this turn, or None when 6 EP are not enough."""
    cost, start, links = _search(state, seat, EP_PER_TURN)
    if start is None or cost > EP_PER_TURN:
        return None
    actions = [] if state.tokens.get(start) == seat else [Action("deploy", start)]
    here = start
    while here != state.capitals[1 - seat]:
        there = links[here]
        actions += _enter(state, seat, here, there)
        here = there
    try:
        play(state, seat, actions)
    except IllegalOrderError:
        return None
    return actions


def _enter(state: SiegeState, seat: int, here: Square, there: Square) -> list[Action]:
    """The actions that put the token on ``here`` onto ``there`` (as priced by entry_price)."""
    if state.owners.get(there) == 1 - seat:
        digs = [Action("dig", there)] * state.mountains.get(there, 0)
        layers = 1 if state.clear_all else state.walls.get(there, 0) + (there in state.towers) + 1
        return digs + [Action("attack", there, here)] * layers
    if there in state.rivers:
        return [Action("cross", there, here)]
    if there in state.mountains:
        return [Action("climb", there, here)]
    return [Action("expand", there)]


def evaluate(state: SiegeState, seat: int, *, threats: bool = True) -> float:
    """How good the position is for ``seat`` when his turn ends here (the opponent moves next):
    territory and tokens, and with ``threats`` how close each capital is to falling."""
    enemy = 1 - seat
    if state.over:
        ranking = [p.playing for p in state.players]
        if ranking[seat] != ranking[enemy]:
            return WON if ranking[seat] else -WON
        mine, theirs = state.territory(seat), state.territory(enemy)
        return WON if mine > theirs else -WON if mine < theirs else 0
    score = 10.0 * (state.territory(seat) - state.territory(enemy))
    tokens = sum(1 if owner == seat else -1 for owner in state.tokens.values())
    score += 4.0 * tokens
    if threats:
        danger = capture_cost(state, enemy)
        if danger <= EP_PER_TURN:
            return score - WON / 10
        score -= 9.0 * max(0, 2 * EP_PER_TURN + 1 - danger)
        score += 5.0 * max(0, 2 * EP_PER_TURN + 1 - capture_cost(state, seat))
    return score
