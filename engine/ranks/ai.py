"""Ranks computer players, weakest first.

The greedy player builds its turn one action at a time, judging each by the position it leaves
after the NPCs and the capital check, with every opponent's next captures counted against it and any
rival army two moves from its capital feared (a knight that close cannot always be stopped). It
weighs a spawn against a run of moves (the move it adds each time is the best of the most promising
few, ranked first by a cheap look), then spends its exp on the upgrades that help most.

- Easy: the greedy player on a tiny budget (it sees a pass and a spawn, hardly a move).
- Medium: the greedy player with budget to spare.
- Hard: looks two rounds ahead: its candidate turns (the greedy one, a pass, a spawn, and greedy
  turns begun with each of the 10 most promising first moves, the whole shortlist) are each answered
  by every opponent's greedy turn, then its own greedy turn and the replies again, and the position
  it is then left to play from decides, judged as if it passed.
- Extreme: looks one round ahead but fears the next player's answer. It screens the same candidates
  and the spawns that put a pawn beside its capital, each answered by every opponent's greedy turn
  and judged after its own greedy turn (judged as a pass, a threat it would parry at once counts as
  a loss); then, best first while its larger budget lasts, it answers each with the next player's
  greedy turns begun with each move that brings an army within reach of its capital and with his 6
  most promising first moves, played on alike, and the worst answer decides. Every greedy turn it
  imagines may take with its capital's army and refill the capital in one step (``_swaps``).
  Self-play against Hard on the generated board chose this shape (40 games each unless said):
  Hard's two rounds fearing the worst of 3 answers judged after the answer alone, 0.49 over 100
  games; fully played answers for the best 4 of two-round screens, 0.60 with 3 or 6 answers (0.50
  taking their mean); judged after its own turn, 0.625; one round, every candidate and 6 answers,
  0.625 and cheaper (0.63 over 100 games); a danger term that spares a rival whose landing cells
  are all guarded, 0.575. Its losses then were mostly to a knight that took its capital after a quiet jump beside
  it, which a first glance ranks among the least promising replies: fearing those jumps too, 0.65;
  with the spawns beside the capital as well, 0.74 over 100 games; the Hard shape with both,
  0.575; a capture by the capital's army with its refill as one step (which one order at a time
  never finds: the capture alone empties the capital) as well, 0.855 over 200 games, kept.

Every full position judged is a node of the :class:`Budget`, the opponents' imagined turns
included; once the budget is spent the greedy player stops adding moves and upgrades (it always
judges at least a pass and a spawn, so a turn is never empty of thought, and always legal), and the
lookahead keeps the best candidate judged so far.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

from engine import notation, standings
from engine.budget import Budget
from engine.completion import after, split_last
from engine.errors import OrderError
from engine.ranks.board import reading_order
from engine.ranks.orders import Blast, Move, Order, Spawn, Upgrade
from engine.ranks.rules import STEPS, Turn, act, capital_check, npc_step, parse, play, targets
from engine.ranks.state import ARCHER, KNIGHT, PAWN, TANK, RanksState, exp_for
from engine.rng import Rng, seed_state
from engine.ruleset import BotLevel
from engine.squaregrid import Square, SquareGrid

# Medium's greedy turn takes 100 nodes at most; the lookaheads' budgets keep a move under a second on
# the largest board (16x16, four players), where they look at fewer candidates than on a duel map.
LEVELS = (BotLevel("Easy", 15), BotLevel("Medium", 6_000), BotLevel("Hard", 1_500), BotLevel("Extreme", 3_500))
RENAMED = {"novice": "Easy", "standard": "Medium"}  # the levels' names in games begun before Hard and Extreme


class Lookahead(NamedTuple):
    width: int  # first moves tried (at most SHORTLIST)
    rounds: int  # rounds of greedy turns looked ahead
    replies: int  # the next player's replies feared beside his greedy one (and beside his threats)
    last_turn: bool  # the end judged after one's own greedy turn, else as if one passed
    guards: bool = False  # spawns next to the capital tried as well (``_guard_spawns``)
    swaps: bool = False  # every greedy turn imagined may take from the capital and refill it (``_swaps``)


LOOKAHEAD = {"Hard": Lookahead(10, 2, 0, False), "Extreme": Lookahead(10, 1, 6, True, guards=True, swaps=True)}
Step = tuple[Order, ...]  # what the greedy player adds to its turn at once
REPLY_BUDGET = 60  # an imagined greedy turn: a whole one on shipped maps (about 40 nodes), short on large boards

VALUE = {PAWN: 1.0, ARCHER: 1.7, KNIGHT: 2.6, TANK: 3.4}  # what an army of each rank is worth to its owner
EXP_VALUE = 0.45  # exp is worth less than a rank it could buy, so the bot spends it
SHORTLIST = 10  # moves judged in full each time the bot adds one
MOST_MOVES = 6  # armies moved in one turn
LOST = -10_000.0
DANGER = 30.0  # a rival army two moves from taking our capital
APPROACH = 2.0  # one of ours two moves from taking a rival capital


def choose_orders(state: RanksState, seat: int, seed: int | str, level: str, budget: Budget) -> list[Order]:
    rng = Rng(seed_state(f"{seed}:{state.rng}:{state.turn}:{seat}"))
    if level not in LOOKAHEAD:
        return greedy(state, seat, rng, budget)
    look = LOOKAHEAD[level]
    screened = _screen(state, seat, rng, budget, look)
    return _fear_the_worst(state, seat, rng, budget, look, screened) if look.replies else screened[0][1]


def _screen(state: RanksState, seat: int, rng: Rng, budget: Budget, look: Lookahead) -> list[tuple[float, list[Order]]]:
    """The candidate turns judged while the budget lasts, each answered by greedy turns only, best
    first (the earliest made among equals)."""
    scored = []
    for orders in _candidates(state, seat, rng, budget, look):
        scored.append((_play_on(play(state, seat, orders)[0], seat, rng, budget, look), orders))
        if budget.spent:
            break
    return sorted(scored, key=lambda item: -item[0])


def _fear_the_worst(
    state: RanksState,
    seat: int,
    rng: Rng,
    budget: Budget,
    look: Lookahead,
    screened: list[tuple[float, list[Order]]],
) -> list[Order]:
    """The screened turn, best first while the budget lasts, that leaves ``seat`` best placed after
    the worst of the next player's likely replies (``_answers``)."""
    best, best_score = screened[0][1], LOST - 1
    for score, orders in screened:
        if budget.spent:
            break
        feared = min([score, *_answers(state, seat, orders, rng, budget, look)])
        if feared > best_score:
            best, best_score = orders, feared
    return best


def greedy(
    state: RanksState, seat: int, rng: Rng, budget: Budget, first: Order | None = None, swaps: bool = False
) -> list[Order]:
    """The greedy player's turn (begun with the move ``first``, when given; with ``swaps``, a capture
    by the capital's army and the move that refills the capital count as one step)."""
    still = judge(state, seat, [], budget)
    spawn: list[Order] = [Spawn(_spawn_cells(state, seat))]

    def moves_of(turn: Turn) -> list[Step]:
        steps: list[Step] = [(action,) for action in _shortlist(turn, seat, rng)]
        return steps + _swaps(turn, seat) if swaps else steps

    if first is not None:
        moved, moves = _improve(state, seat, [first], None, budget, moves_of, MOST_MOVES)
        return _improve(state, seat, moves, moved, budget, _upgrades)[1]
    turns = [_improve(state, seat, [], still, budget, _upgrades), _improve(state, seat, spawn, None, budget, _upgrades)]
    moved, moves = _improve(state, seat, [], still, budget, moves_of, MOST_MOVES)
    if moves:
        turns.append(_improve(state, seat, moves, moved, budget, _upgrades))
    return max(turns, key=lambda t: t[0])[1]


def _imagined(state: RanksState, seat: int, rng: Rng, budget: Budget, look: Lookahead) -> RanksState:
    """The position after ``seat``'s greedy turn, its nodes spent from ``budget``."""
    return play(state, seat, _imagined_turn(state, seat, rng, budget, look))[0]


def _imagined_turn(
    state: RanksState, seat: int, rng: Rng, budget: Budget, look: Lookahead, first: Order | None = None
) -> list[Order]:
    """``seat``'s greedy turn (begun with ``first``) on a turn's own budget, spent from ``budget``."""
    own = Budget(REPLY_BUDGET)
    turn = greedy(state, seat, rng, own, first, look.swaps)
    budget.spend(REPLY_BUDGET - own.left)
    return turn


def _candidates(state: RanksState, seat: int, rng: Rng, budget: Budget, look: Lookahead) -> Iterator[list[Order]]:
    """Distinct turns worth looking ahead from, made as they are asked for: the greedy turn first,
    then a pass, the spawn (and, with ``look.guards``, the spawns next to the capital), and greedy
    turns begun with each of the ``look.width`` most promising first moves."""

    def made() -> Iterator[list[Order]]:
        yield greedy(state, seat, rng, budget, swaps=look.swaps)
        yield []
        yield [Spawn(_spawn_cells(state, seat))]
        if look.guards:
            yield from _guard_spawns(state, seat)
        for first in _shortlist(Turn(state, seat), seat, rng)[: look.width]:
            yield greedy(state, seat, rng, budget, first, look.swaps)

    seen: set[tuple[Order, ...]] = set()
    for turn in made():
        if tuple(turn) not in seen:
            seen.add(tuple(turn))
            yield turn


def _guard_spawns(state: RanksState, seat: int) -> Iterator[list[Order]]:
    """The spawn with the capital's city's pawn put on a cell beside the capital instead (one turn
    per such empty cell): from there it can step onto the capital in the turn the army on it must
    leave to take a rival that threatens it, where the usual spawn cell, nearest the rivals, often
    cannot."""
    cells = _spawn_cells(state, seat)
    capital = state.board.capitals[seat]
    home = state.board.city_of(capital) or ()
    if not any(c in home for c in cells):
        return  # the capital's city spawns nothing this turn
    for cell in home:
        if cell not in state.armies and _distance(cell, capital) == 1 and cell not in cells:
            yield [Spawn(tuple(cell if c in home else c for c in cells))]


def _threats(turn: Turn, seat: int, capital: Square) -> list[Move | Blast]:
    """``seat``'s moves that land an army where it could take on ``capital`` next turn."""
    grid, can_pay = turn.state.board.grid, turn.exp[seat] > 0
    return [
        action
        for action in _actions(turn, seat)
        if isinstance(action, Move)
        and capital in _strikes(turn.armies[action.source].rank, can_pay, action.target, grid)
    ]


def _answers(
    state: RanksState, seat: int, orders: list[Order], rng: Rng, budget: Budget, look: Lookahead
) -> list[float]:
    """How ``seat`` stands, played on as in the screen, after each of the next player's greedy turns
    begun with a move that threatens ``seat``'s capital or with one of his ``look.replies`` most
    promising first moves (while the budget lasts). Threats first: a quiet move that lands a knight
    beside the capital rarely ranks among the most promising by a first glance."""
    position = play(state, seat, orders)[0]
    if position.over or not position.players[seat].playing or position.to_move == seat:
        return []
    mover, scores = position.to_move, []
    turn = Turn(position, mover)
    firsts = _threats(turn, mover, state.board.capitals[seat])
    firsts += [a for a in _shortlist(turn, mover, rng)[: look.replies] if a not in firsts]
    for first in firsts:
        if budget.spent:
            break
        reply = _imagined_turn(position, mover, rng, budget, look, first)
        scores.append(_play_on(play(position, mover, reply)[0], seat, rng, budget, look))
    return scores


def _standing(position: RanksState, seat: int, budget: Budget) -> float:
    """How ``seat`` stands in ``position``: lost, won, or judged as if he passed now."""
    if not position.players[seat].playing:
        return LOST
    if position.over:
        return -LOST
    return judge(position, seat, [], budget)


def _play_on(position: RanksState, seat: int, rng: Rng, budget: Budget, look: Lookahead) -> float:
    """How ``seat`` stands after the other players' greedy turns up to his own, then ``look.rounds``
    - 1 more rounds of greedy turns by everyone (his own first), judged when it is his turn again
    (after his greedy turn then, with ``look.last_turn``)."""
    for round_ in range(look.rounds):
        if round_:
            if position.over or not position.players[seat].playing:
                break
            position = _imagined(position, seat, rng, budget, look)
        while not position.over and position.players[seat].playing and position.to_move != seat:
            position = _imagined(position, position.to_move, rng, budget, look)
    if look.last_turn and not position.over and position.players[seat].playing:
        return judge(position, seat, _imagined_turn(position, seat, rng, budget, look), budget)
    return _standing(position, seat, budget)


def evaluation(state: RanksState, seat: int) -> float:
    """How the bot would judge the position (``judge``, a pass as the turn) against the best of the
    rivals judged alike, squashed into (-1, 1) (a pawn's worth of difference is about 0.1)."""
    if not state.players[seat].playing:
        return -1.0
    rivals = [s for s in standings.still_in(state.players) if s != seat]
    if not rivals:
        return 1.0
    mine = judge(state, seat, [], Budget(0))
    return math.tanh((mine - max(judge(state, rival, [], Budget(0)) for rival in rivals)) / 10)


def judge(state: RanksState, seat: int, orders: list[Order], budget: Budget) -> float:
    """The position after ``orders``, the NPCs and the capital check, as ``seat`` sees it."""
    budget.spend()
    turn = act(state, seat, orders)
    npc_step(turn)
    players = capital_check(turn, state.players)
    if not players[seat].playing:
        return LOST
    rivals = [s for s in standings.still_in(players) if s != seat]
    if not rivals:
        return -LOST
    threatened = set().union(*(_reach(turn, s, turn.exp[s]) for s in rivals))
    capital = state.board.capitals[seat]
    score = -200.0 * len(rivals) + EXP_VALUE * turn.exp[seat]
    if capital in threatened:
        score -= 400.0
    targets_now = tuple(state.board.capitals[s] for s in rivals)
    grid = state.board.grid
    for cell, army in turn.armies.items():
        value = VALUE[army.rank]
        if army.seat == seat:
            score += value - (0.6 * value if cell in threatened else 0.0)
            score -= 0.04 * _nearest(cell, targets_now)
            score += APPROACH * sum(1 for t in targets_now if cell in _two_moves(t, army.rank, grid))
        else:
            score -= value / len(rivals)
            if cell in _two_moves(capital, army.rank, grid):
                score -= DANGER
    mine = _reach(turn, seat, turn.exp[seat])
    score += 3.0 * sum(1 for t in targets_now if t in mine)
    score += 0.8 * len(turn.controlled())
    return score


@functools.cache
def _two_moves(capital: Square, rank: int, grid: SquareGrid) -> frozenset[Square]:
    """Cells from which an army of ``rank`` needs two moves to capture on ``capital`` (a tank's
    second move may be its blast): there is no stopping it but taking it or the cell it goes to."""
    near = {c for c in (Square.surrounding if rank == TANK else STEPS[rank])(capital) if grid.contains(c)}
    return frozenset(c for cell in near for c in STEPS[rank](cell) if grid.contains(c)) - near - {capital}


def _reach(turn: Turn, seat: int, exp: int) -> set[Square]:
    """Cells where ``seat``'s armies could capture next turn (moves and blasts)."""
    grid = turn.state.board.grid
    return set().union(*(_strikes(a.rank, exp > 0, at, grid) for at, a in turn.armies.items() if a.seat == seat))


@functools.lru_cache(maxsize=1 << 14)
def _strikes(rank: int, can_pay: bool, at: Square, grid: SquareGrid) -> frozenset[Square]:
    """Where one army could capture next turn: its moves (a tank's only when its owner can pay),
    and a tank's blast around it."""
    cells = set(targets(rank, int(can_pay), at, grid))
    if rank == TANK:
        cells.update(at.surrounding())
    return frozenset(cells)


@functools.lru_cache(maxsize=1 << 14)
def _nearest(cell: Square, goals: tuple[Square, ...]) -> int:
    """Steps (up, down, left, right) from ``cell`` to the nearest of ``goals``."""
    return min(_distance(cell, goal) for goal in goals)


def _distance(a: Square, b: Square) -> int:
    return abs(a.col - b.col) + abs(a.row - b.row)


def _spawn_cells(state: RanksState, seat: int) -> tuple[Square, ...]:
    """Per controlled city, the empty cell nearest an opponent's capital."""
    turn = Turn(state, seat)
    rivals = [state.board.capitals[s] for s in standings.still_in(state.players) if s != seat]
    cells = []
    for city in turn.controlled():
        empty = [c for c in city if c not in state.armies]
        if empty and rivals:
            cells.append(min(empty, key=lambda c: (min(_distance(c, t) for t in rivals), reading_order(c))))
    return tuple(cells)


def _actions(turn: Turn, seat: int) -> list[Move | Blast]:
    """Every single move or blast still open to ``seat`` in the turn being made."""
    found: list[Move | Blast] = []
    for at, army in sorted(turn.armies.items(), key=lambda i: reading_order(i[0])):
        if army.seat != seat or at in turn.moved:
            continue
        found += [Move(at, to) for to in targets(army.rank, turn.exp[seat], at, turn.state.board.grid)]
        if army.rank == TANK:
            found.append(Blast(at))
    return found


def _glance(turn: Turn, seat: int, order: Move | Blast) -> float:
    """A cheap first ranking of a move: what it takes, minus leaving the capital empty."""
    capital = turn.state.board.capitals[seat]
    if isinstance(order, Blast):
        return sum(
            exp_for(turn.armies[c].rank) if c in turn.armies else 1.0
            for c in order.cell.surrounding()
            if (c in turn.armies and turn.armies[c].seat != seat) or c in turn.npcs
        )
    victim = turn.armies.get(order.target)
    gain = 0.0
    if victim is not None:
        gain = VALUE[victim.rank] * (1.0 if victim.seat != seat else -1.0) + exp_for(victim.rank)
    elif order.target in turn.npcs:
        gain = 1.0
    if order.source == capital:
        gain -= 50.0
    return gain


def _shortlist(turn: Turn, seat: int, rng: Rng) -> list[Move | Blast]:
    """The most promising moves and blasts by a first glance (ties broken by the seeded rng)."""
    actions = _actions(turn, seat)
    ties = {a: rng.below(1000) for a in actions}
    return sorted(actions, key=lambda a: (-_glance(turn, seat, a), ties[a]))[:SHORTLIST]


def _swaps(turn: Turn, seat: int) -> list[Step]:
    """Captures by the army on ``seat``'s capital, each with a move that refills the capital: one at
    a time, the capture would leave it empty and be judged lost."""
    capital, grid = turn.state.board.capitals[seat], turn.state.board.grid
    army = turn.armies.get(capital)
    if army is None or army.seat != seat or capital in turn.moved:
        return []
    found: list[Step] = []
    for target in targets(army.rank, turn.exp[seat], capital, grid):
        victim = turn.armies.get(target)
        if victim is not None and victim.seat != seat:
            won = exp_for(victim.rank)
        elif victim is None and target in turn.npcs:
            won = 1
        else:
            continue
        exp = turn.exp[seat] + won - (army.rank == TANK)  # a tank's step costs 1
        for at, other in sorted(turn.armies.items(), key=lambda i: reading_order(i[0])):
            if other.seat == seat and at not in (capital, target) and at not in turn.moved:
                if capital in targets(other.rank, exp, at, grid):
                    found.append((Move(capital, target), Move(at, capital)))
    return found


def _upgrades(turn: Turn) -> list[Step]:
    """One rank for a pawn, archer or knight-to-be, or three for a pawn (a tank), as exp allows."""
    exp = turn.exp[turn.seat]
    return [
        (Upgrade(cell, levels),)
        for cell, army in sorted(turn.armies.items(), key=lambda i: reading_order(i[0]))
        if army.seat == turn.seat
        for levels in ((1, 3) if army.rank == PAWN else (1,) if army.rank < TANK - 1 else ())
        if levels <= exp
    ]


def _improve(
    state: RanksState,
    seat: int,
    orders: list[Order],
    score: float | None,
    budget: Budget,
    candidates: Callable[[Turn], Sequence[Step]],
    most: int = 99,
) -> tuple[float, list[Order]]:
    """``orders`` (judged ``score``, or judged here when None), then, one step at a time and at most
    ``most`` orders, the candidate step that raises the judged position most, while one does."""
    orders = list(orders)
    current = judge(state, seat, orders, budget) if score is None else score
    while len(orders) < most and not budget.spent:
        best, best_score = None, current
        for option in candidates(act(state, seat, orders)):
            if best is not None and budget.spent:
                break
            judged = judge(state, seat, [*orders, *option], budget)
            if judged > best_score + 1e-9:
                best, best_score = option, judged
        if best is None:
            break
        orders.extend(best)
        current = best_score
    return current, orders


def _legal(state: RanksState, seat: int, orders: list[Order]) -> bool:
    try:
        act(state, seat, orders)
    except OrderError:
        return False
    return True


def suggestions(state: RanksState, seat: int, text: str) -> list[str]:
    """Legal orders that extend the last line of ``text`` (in any case; the earlier lines stay as
    typed): the spawn and every move (those that capture first) while no action is chosen, then
    further moves, then upgrades; a line that would lose the game at once (leaving the capital
    empty, if the turn ended there) always comes after every other."""
    head, last = split_last(text)
    typed = notation.words(last)
    try:
        orders = parse(state, seat, head)
    except OrderError:
        return []
    turn = act(state, seat, orders)
    lines: list[str] = []
    upgrading = any(isinstance(o, Upgrade) for o in orders)
    if turn.action is None and not upgrading:
        lines.append(str(Spawn(_spawn_cells(state, seat))))
        if typed.startswith("spawn"):  # one city's cell chosen, the others' first empty cells
            lines += ["spawn"] + [
                f"spawn {c.label}" for city in turn.controlled() for c in city if c not in turn.armies
            ]
    if turn.action != "spawn" and not upgrading:
        actions = _actions(turn, seat)
        lines += [str(a) for a in sorted(actions, key=lambda a: -_glance(turn, seat, a))]
    for cell, army in sorted(turn.armies.items(), key=lambda i: reading_order(i[0])):
        if army.seat == seat and _legal(state, seat, [*orders, Upgrade(cell)]):
            lines.append(str(Upgrade(cell)))
    offered = after(head, (line for line in lines if notation.words(line).startswith(typed)))
    return sorted(offered, key=lambda line: _loses(state, seat, line))


def _loses(state: RanksState, seat: int, text: str) -> bool:
    """Whether ``seat`` is out after playing ``text`` as his whole turn."""
    try:
        orders = parse(state, seat, text)
    except OrderError:
        return False
    return not play(state, seat, orders)[0].players[seat].playing
