"""Siege rules: what each action may do and costs, a turn applied action by action, and the end.

Every check answers *why not* in words, so a refused turn tells the player which action failed
and what is wrong with it; the bots and autocomplete use the same checks.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace

from engine import standings
from engine.errors import IllegalOrderError, OrderError, OrderSyntaxError, raise_collected
from engine.i18n import joined, mark, tr
from engine.ruleset import Event
from engine.siege.board import adjacency, clear_zone, numbering
from engine.siege.orders import COSTS, END, EP_PER_TURN, TOWER_PRICE, WALL_PRICE, Action, parse_line, split_lines
from engine.siege.state import SiegeState
from engine.squaregrid import Square

CAPTURED = "capital captured"


def is_terrain(state: SiegeState, sq: Square) -> bool:
    return sq in state.rivers or sq in state.mountains


def is_empty(state: SiegeState, sq: Square) -> bool:
    """No token and no capital."""
    return sq not in state.tokens and sq not in state.capitals


def neighbours(state: SiegeState, sq: Square) -> tuple[Square, ...]:
    return adjacency(state.size)[sq]


def next_to_token(state: SiegeState, seat: int, sq: Square) -> bool:
    return any(state.tokens.get(n) == seat for n in neighbours(state, sq))


def cost(state: SiegeState, action: Action) -> int:
    """EP the action costs now; an attack is priced on the target's fortifications at this moment."""
    price = COSTS[action.kind]
    if action.kind == "attack":
        price += WALL_PRICE * state.walls.get(action.square, 0) + TOWER_PRICE * (action.square in state.towers)
    return price


def why_not(state: SiegeState, seat: int, action: Action) -> str | None:
    """Why ``seat`` may not take ``action`` now, or None when it is legal."""
    if action.kind == "end":
        return None
    target, source = action.square, action.source
    if target not in adjacency(state.size):
        return tr("{cell} is not on the board", cell=target.label)
    if source is not None:
        if source == state.capitals[seat]:
            return tr("the capital cannot {action}; only tokens can", action=action.kind)
        if state.tokens.get(source) != seat:
            return tr("you have no token on {cell}", cell=source.label)
        if target not in neighbours(state, source):
            return tr(
                "{cell} is not next to {source}; neighbours: {near}",
                cell=target.label,
                source=source.label,
                near=_labels(neighbours(state, source)),
            )
    return _RULES[action.kind](state, seat, target)


def _labels(squares: Sequence[Square]) -> str:
    return joined(sq.label for sq in squares)


def _new_token(state: SiegeState, seat: int, target: Square) -> str | None:
    """Expand and Deploy: an empty plain square that is not the enemy's."""
    if not is_empty(state, target):
        return tr("{cell} is not empty", cell=target.label)
    if is_terrain(state, target):
        if target in state.rivers:
            return tr("{cell} is a river; tokens are placed on land", cell=target.label)
        return tr("{cell} is a mountain; tokens are placed on land", cell=target.label)
    if state.owners.get(target) == 1 - seat:
        return tr("{cell} belongs to your opponent; attack it instead", cell=target.label)
    return None


def _expand(state: SiegeState, seat: int, target: Square) -> str | None:
    if reason := _new_token(state, seat, target):
        return reason
    if not next_to_token(state, seat, target):
        if target in state.capitals[seat].orthogonal():
            return tr("{cell} is not next to one of your tokens (the capital cannot expand)", cell=target.label)
        return tr("{cell} is not next to one of your tokens", cell=target.label)
    return None


def _deploy(state: SiegeState, seat: int, target: Square) -> str | None:
    if target.row not in state.back_rows(seat):
        first, second = (r + 1 for r in state.back_rows(seat))
        return tr(
            "{cell} is not in your back two rows ({first} and {second})", cell=target.label, first=first, second=second
        )
    return _new_token(state, seat, target)


def _move(state: SiegeState, seat: int, target: Square) -> str | None:
    if not is_empty(state, target):
        return tr("{cell} is not empty", cell=target.label)
    if state.owners.get(target) != seat:
        return tr("{cell} is not yours; a token only moves onto your own squares", cell=target.label)
    return None


def _attack(state: SiegeState, seat: int, target: Square) -> str | None:
    if state.owners.get(target) != 1 - seat:
        return tr("{cell} is not your opponent's", cell=target.label)
    if is_terrain(state, target):
        if target in state.rivers:
            return tr("{cell} is a river; it cannot be attacked", cell=target.label)
        return tr("{cell} is a mountain; it cannot be attacked", cell=target.label)
    return None


NOT_A = {"river": mark("{cell} is not a river"), "mountain": mark("{cell} is not a mountain")}


def _step_onto(kind: str):
    """Cross and Climb: onto an empty river or mountain square that is neutral or yours."""

    def check(state: SiegeState, seat: int, target: Square) -> str | None:
        if target not in (state.rivers if kind == "river" else state.mountains):
            return tr(NOT_A[kind], cell=target.label)
        if state.owners.get(target) == 1 - seat:
            return tr("{cell} belongs to your opponent; it cannot be captured this way", cell=target.label)
        if not is_empty(state, target):
            return tr("{cell} is not empty", cell=target.label)
        return None

    return check


def _dig(state: SiegeState, seat: int, target: Square) -> str | None:
    if target not in state.mountains:
        return tr("there is no mountain on {cell}", cell=target.label)
    if state.tokens.get(target) != seat and not next_to_token(state, seat, target):
        return tr("you have no token on or next to {cell}", cell=target.label)
    if state.tokens.get(target) == 1 - seat and state.mountains[target] == 1:
        return tr("an enemy token stands on {cell}; its mountain cannot be dug below level 1", cell=target.label)
    return None


def _fill(state: SiegeState, seat: int, target: Square) -> str | None:
    if state.owners.get(target) != seat:
        return tr("{cell} is not yours", cell=target.label)
    if target in state.capitals:
        return tr("a capital cannot be filled")
    if target in clear_zone(state.size):
        return tr("{cell} is next to a capital; a capital's neighbours stay clear of mountains", cell=target.label)
    if target in state.rivers:
        return tr("{cell} is a river; mountains rise on land", cell=target.label)
    if state.mountains.get(target, 0) >= 3:
        return tr("the mountain on {cell} is already at level 3", cell=target.label)
    return None


def _fortifiable(state: SiegeState, seat: int, target: Square) -> str | None:
    if state.tokens.get(target) != seat and target != state.capitals[seat]:
        return tr("{cell} holds neither your token nor your capital", cell=target.label)
    if target in state.towers:
        return tr("{cell} has a tower", cell=target.label)
    return None


def _wall(state: SiegeState, seat: int, target: Square) -> str | None:
    if reason := _fortifiable(state, seat, target):
        return reason
    if state.walls.get(target, 0) >= 2:
        return tr("{cell} already has 2 walls", cell=target.label)
    return None


def _tower(state: SiegeState, seat: int, target: Square) -> str | None:
    if reason := _fortifiable(state, seat, target):
        return reason
    if state.walls.get(target):
        return tr("{cell} has walls; a tower needs a square without walls", cell=target.label)
    return None


_RULES = {
    "expand": _expand,
    "deploy": _deploy,
    "move": _move,
    "attack": _attack,
    "cross": _step_onto("river"),
    "climb": _step_onto("mountain"),
    "dig": _dig,
    "fill": _fill,
    "wall": _wall,
    "tower": _tower,
}


# --- applying actions -----------------------------------------------------------------------


def perform(state: SiegeState, seat: int, action: Action) -> tuple[SiegeState, str]:
    """The position after a legal ``action``, and what it did ("captured", "wall removed", …)."""
    kind = action.kind
    if kind == "end":
        return state, "ended"
    target = action.square
    if kind in ("expand", "deploy"):
        return _occupy(state, seat, target), "placed"
    if kind in ("move", "cross", "climb"):
        return _occupy(state, seat, target, action.source), "moved"
    if kind == "attack":
        return _attack_result(state, seat, action)
    if kind in ("dig", "fill"):
        level = state.mountains.get(target, 0) + (1 if kind == "fill" else -1)
        return replace(state, mountains=_set(state.mountains, target, level)), f"level {level}"
    if kind == "wall":
        return replace(state, walls={**state.walls, target: state.walls.get(target, 0) + 1}), "built"
    if kind == "tower":
        return replace(state, towers=state.towers | {target}), "built"
    return state, "ended"


def _occupy(state: SiegeState, seat: int, target: Square, source: Square | None = None) -> SiegeState:
    tokens = dict(state.tokens)
    if source is not None:
        del tokens[source]
    tokens[target] = seat
    return replace(state, tokens=tokens, owners={**state.owners, target: seat})


def _set(mapping: Mapping[Square, int], key: Square, value: int) -> dict[Square, int]:
    """A copy of ``mapping`` with ``key`` set to ``value``, or left out when ``value`` is 0 (a
    copy keeps the keys' hashes, which matters to the bots' thousands of positions a turn)."""
    result = dict(mapping)
    if value:
        result[key] = value
    else:
        result.pop(key, None)
    return result


def _attack_result(state: SiegeState, seat: int, action: Action) -> tuple[SiegeState, str]:
    target = action.square
    if not state.clear_all:
        if target in state.towers:
            return replace(state, towers=state.towers - {target}), "tower removed"
        if state.walls.get(target):
            return replace(state, walls=_set(state.walls, target, state.walls[target] - 1)), "wall removed"
    state = replace(
        state,
        towers=state.towers - {target},
        walls=_set(state.walls, target, 0),
    )
    state = _occupy(state, seat, target, action.source)
    if target != state.capitals[1 - seat]:
        return state, "captured"
    players = standings.leave(state.players, [1 - seat], standings.Status.ELIMINATED, CAPTURED, state.turn)
    return replace(state, players=players), CAPTURED


def play(state: SiegeState, seat: int, actions: Sequence[Action]) -> tuple[SiegeState, list[Event]]:
    """``seat`` takes ``actions`` in order. The whole turn is refused (IllegalOrderError naming the
    action and why) if one of them is illegal when it would run or the turn spends more than 6 EP."""
    left = EP_PER_TURN
    events = []
    for number, action in enumerate(actions, 1):
        where = tr("{action!r} (action {number})", action=str(action), number=number)
        if action.kind == "end" and number < len(actions):
            raise IllegalOrderError(tr("{where}: end must be the last action of the turn", where=where))
        if state.over:
            raise IllegalOrderError(
                tr("{where}: the capture of the capital ended the game; nothing may follow it", where=where)
            )
        if reason := why_not(state, seat, action):
            raise IllegalOrderError(f"{where}: {reason}")
        price = cost(state, action)
        if price > left:
            raise IllegalOrderError(
                tr(
                    "{where} costs {price} EP, but only {left} of your {total} EP are left",
                    where=where,
                    price=price,
                    left=left,
                    total=EP_PER_TURN,
                )
            )
        left -= price
        state, result = perform(state, seat, action)
        if action.kind != "end":
            events.append(Event("action", {"seat": seat, "action": str(action), "cost": price, "result": result}))
    return state, events or [Event("passed", {"seat": seat})]


def parse(state: SiegeState, seat: int, text: str) -> list[Action]:
    """The actions of ``text``, checked as a whole turn from ``state``."""
    if not isinstance(text, str):
        raise OrderSyntaxError(tr("orders must be text, not {kind}", kind=type(text).__name__))
    actions, problems = [], []
    for line in split_lines(text):
        try:
            actions.append(parse_line(line))
        except OrderError as err:
            problems.append(err)
    raise_collected(problems)
    play(state, seat, actions)
    return actions


def candidates(state: SiegeState, seat: int) -> Iterator[Action]:
    """Every action worth checking for ``seat`` now (a superset of the legal ones, END first)."""
    yield END
    for sq, owner in sorted(state.tokens.items()):
        if owner != seat:
            continue
        for near in neighbours(state, sq):
            yield Action("expand", near)
            for kind in ("move", "attack", "cross", "climb"):
                yield Action(kind, near, sq)
        yield Action("wall", sq)
        yield Action("tower", sq)
    capital = state.capitals[seat]
    yield Action("wall", capital)
    yield Action("tower", capital)
    for sq in state.mountains:
        yield Action("dig", sq)
    for sq, owner in sorted(state.owners.items()):
        if owner == seat:
            yield Action("fill", sq)
    for row in state.back_rows(seat):
        for col in range(state.size):
            yield Action("deploy", Square(col, row))


def legal_actions(state: SiegeState, seat: int) -> list[Action]:
    """The distinct legal single actions for ``seat`` now (ignoring the EP left)."""
    return [a for a in dict.fromkeys(candidates(state, seat)) if why_not(state, seat, a) is None]


def board_full(state: SiegeState) -> bool:
    """No neutral square is left that either player could take now with Expand, Deploy, Cross or
    Climb: none next to a token, and no plain one in a back row."""
    size = state.size
    _, near = numbering(size)
    owned = {sq.row * size + sq.col for sq in state.owners}
    tokens = {sq.row * size + sq.col for sq in state.tokens}
    terrain = {sq.row * size + sq.col for sq in (*state.rivers, *state.mountains)}
    back = (*state.back_rows(0), *state.back_rows(1))
    for i in range(size * size):
        if i in owned:
            continue
        if i // size in back and i not in terrain or any(n in tokens for n in near[i]):
            return False
    return True


def advance(state: SiegeState, actions: Sequence[Action]) -> SiegeState:
    """End the turn: count it, remember its actions, and end the game on a full board or the limit."""
    state = replace(state, turn=state.turn + 1, last=tuple(a for a in actions if a.kind != "end"))
    if state.over:
        return state
    if board_full(state):
        return replace(state, ended="full")
    return replace(state, ended="limit") if state.turn >= state.turn_limit else state


def remove(state: SiegeState, seat: int, reason: str) -> SiegeState:
    """The seat leaves: his squares, tokens and fortifications turn neutral; the game ends."""
    mine = {sq for sq, owner in state.owners.items() if owner == seat}
    return replace(
        state,
        players=standings.leave(state.players, [seat], standings.departure(reason), reason, state.turn),
        owners={sq: s for sq, s in state.owners.items() if s != seat},
        tokens={sq: s for sq, s in state.tokens.items() if s != seat},
        walls={sq: n for sq, n in state.walls.items() if sq not in mine},
        towers=state.towers - mine,
    )
