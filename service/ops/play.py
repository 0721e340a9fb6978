"""During the game: programming orders, passing, surrendering, agreeing a draw.

Programmed orders are per seat and per turn, validated by the engine against the position at the
start of the turn. Until a player passes he may review, add to, replace and clear them; passing
makes them final, and the last pass resolves the turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine import OrderError, Ruleset
from i18n import joined, ntr, tr
from render.summary import seat_name
from service.errors import GameError, NotAllowed
from service.lookalike import told_apart
from service.models import Actor, Game, OrderRow
from service.ops.games import Games
from service.storage import games as rows
from service.turns import Planner

MAX_ORDER_TEXT = 4000


@dataclass(frozen=True)
class MyOrders:
    """What a player sees of his own turn: his orders, one per line, and whether he has passed."""

    game_id: int
    turn: int
    seat: int
    lines: tuple[str, ...]
    passed: bool
    already: tuple[str, ...] = ()  # orders given again that he had already given: kept once
    warnings: tuple[str, ...] = ()  # what they would do at once that he must know before passing
    stand_in: str | None = None  # the level of the computer that gave them while he was away
    back: bool = False  # this order brought him back from being away


@dataclass(frozen=True)
class Sent:
    """Orders given and passed at once: the game after the pass, and the orders as the game took them
    (so the player sees what was read, and nothing he typed went missing unseen)."""

    game: Game
    lines: tuple[str, ...]
    back: bool = False  # this pass brought him back from being away


class _Away(Exception):
    """An order from a player away from the game: he comes back first (a transition of its own),
    then his order is taken."""


class Play:
    def __init__(self, games: Games):
        self.games = games

    async def my_orders(self, game_id: int, actor: Actor) -> MyOrders:
        game = await self.games.get_game(game_id)
        seat = self.games.require_seat_in_game(game, actor)
        async with self.games.db.reading() as conn:
            row = (await rows.orders_of(conn, game.row)).get(seat)
        return self._mine(game, seat, row)

    def _mine(
        self, game: Game, seat: int, row: OrderRow | None, *, already: Sequence[str] = (), orders: Sequence[Any] = ()
    ) -> MyOrders:
        """``orders``, when given, are ``row``'s text already parsed (it is not read again)."""
        text = row.text if row else ""
        lines = _lines(text)
        passed = bool(row and row.passed)
        warnings = () if passed or not lines else self._warnings(game, seat, text, orders)
        stand_in = row.stand_in if row else None
        return MyOrders(game.id, game.row.turn + 1, seat, lines, passed, tuple(already), warnings, stand_in)

    def _warnings(self, game: Game, seat: int, text: str, orders: Sequence[Any] = ()) -> tuple[str, ...]:
        """The engine's warnings about programmed orders (``text``, or ``orders`` when already parsed);
        orders that no longer read warn of nothing here (the pass says what is wrong with them)."""
        rs = self.games.ruleset(game.row)
        try:
            return tuple(rs.order_warnings(game.state, seat, orders or rs.parse_orders(game.state, seat, text)))
        except OrderError:
            return ()

    def _unrepeated(self, game: Game, seat: int, current: OrderRow, text: str) -> tuple[str, list[str]]:
        """``text`` less the orders already among ``current`` ones, and those orders (each once)."""
        given = _lines(current.text)
        new = self._given(game, seat, given, text) if given else None
        if new is None or not (already := list(dict.fromkeys(line for line in new if line in given))):
            return text, []
        return "; ".join(line for line in new if line not in given), already

    def _given(self, game: Game, seat: int, given: Sequence[str], text: str) -> list[str] | None:
        """``text``'s orders as the ruleset formats them, or None where they do not read. Read after
        the ``given`` ones where the whole set reads (an action may stand on the one before it), else
        alone (a repeat may be what makes the whole set too many: 3 units sent twice from a cell of 4)."""
        rs = self.games.ruleset(game.row)
        for before in (given, ()):
            try:
                orders = rs.parse_orders(game.state, seat, "; ".join([*before, text]))
            except OrderError:
                continue
            lines = [rs.format_order(order) for order in orders]
            if lines[: len(before)] == list(before):
                return lines[len(before) :]
        return None

    # ``expected_turn``, when given, is the turn the player was looking at: if the turn ended in the
    # meantime (a deadline), his orders are refused rather than landing in the next turn.

    async def add_orders(self, game_id: int, actor: Actor, text: str, *, expected_turn: int | None = None) -> MyOrders:
        """Add to the programmed orders; the whole set is validated together.

        An order (as the ruleset formats it) already among this turn's orders is kept once, whenever
        it comes again: a retry after a lost reply or a double tap is not a second order. This holds
        in every ruleset, even where two identical orders add up (conquest's ``C4>C5 3`` twice, a
        second ``wall E1`` in siege): each has one line for the sum (``C4>C5 6``) or takes both in one
        message, which counts every line it holds, and the reply names the orders kept once, so the
        player who meant them twice sees it and adds them in one message."""
        return await self._program(game_id, actor, text, keep=True, expected_turn=expected_turn)

    async def replace_orders(
        self, game_id: int, actor: Actor, text: str, *, expected_turn: int | None = None
    ) -> MyOrders:
        return await self._program(game_id, actor, text, keep=False, expected_turn=expected_turn)

    async def clear_orders(self, game_id: int, actor: Actor, *, expected_turn: int | None = None) -> MyOrders:
        return await self._program(game_id, actor, "", keep=False, expected_turn=expected_turn)

    async def _program(
        self, game_id: int, actor: Actor, text: str, *, keep: bool, expected_turn: int | None
    ) -> MyOrders:
        _check_length(text)

        async def attempt() -> MyOrders:
            async with self.games.db.transaction() as conn:
                game = await self.games.load(conn, game_id)
                seat = self._require_acting(game, actor, expected_turn)
                rs = self.games.ruleset(game.row)
                if self._away(game, seat):
                    parse_named(rs, game, seat, text)  # bad orders are refused before he comes back
                    raise _Away
                current = (await rows.orders_of(conn, game.row)).get(seat)
                if current and current.passed:
                    raise GameError(_final(current))
                if current and current.stand_in:
                    current = None  # his own orders replace the stand-in's
                adding, already = self._unrepeated(game, seat, current, text) if keep and current else (text, [])
                if already and not adding:
                    return self._mine(game, seat, current, already=already)
                combined = f"{current.text}; {adding}" if keep and current and current.text else adding
                _check_length(combined)
                orders = parse_named(rs, game, seat, combined)
                normalized = rs.format_orders(orders)
                # The version first: a transition planned before these orders must not commit, and the
                # game's row is this transaction's before the orders' rows.
                await self.games.update_game(conn, game.row)
                await rows.program(conn, game.row, seat, normalized, self.games.clock.now())
            self.games.keep_state((game_id, game.row.version + 1), game.state)  # the position did not change
            return self._mine(game, seat, OrderRow(seat, normalized, False), already=already, orders=orders)

        try:
            async with self.games.lock(game_id):
                return await self.games.retrying(attempt)
        except _Away:
            await self.games.transition(game_id, lambda planner, game: planner.come_back(self._seat(game, actor)))
        async with self.games.lock(game_id):
            return replace(await self.games.retrying(attempt), back=True)

    def _away(self, game: Game, seat: int) -> bool:
        player = game.player_at(seat)
        return player is not None and player.away_at(self.games.clock.now())

    def _seat(self, game: Game, actor: Actor) -> int:
        return self.games.require_seat_in_game(game, actor)

    def _require_acting(self, game: Game, actor: Actor, expected_turn: int | None = None) -> int:
        seat = self.games.require_seat_in_game(game, actor)
        if expected_turn is not None and game.row.turn != expected_turn:
            raise GameError(
                tr(
                    "turn {turn} of game #{number} has just ended; nothing was changed. "
                    "Look at the new turn and give your orders again",
                    turn=expected_turn + 1,
                    number=game.id,
                )
            )
        if seat not in game.acting_seats:
            if self._away(game, seat):
                raise NotAllowed(
                    tr(
                        "it is not your turn in game #{number}; you are away and a computer plays for you "
                        "(`/away until:off` to play yourself)",
                        number=game.id,
                    )
                )
            raise NotAllowed(tr("it is not your turn in game #{number}", number=game.id))
        return seat

    async def submit(
        self, game_id: int, actor: Actor, text: str | None = None, *, expected_turn: int | None = None
    ) -> Game:
        """Pass: make the programmed orders (or ``text``, if given, replacing them) final for this turn,
        in one step, so a deadline can never split the orders from the pass."""
        return (await self.pass_turn(game_id, actor, text, expected_turn=expected_turn)).game

    async def pass_turn(
        self, game_id: int, actor: Actor, text: str | None = None, *, expected_turn: int | None = None
    ) -> Sent:
        """``submit``, saying what the game took and whether the pass brought him back from away."""
        if text is not None:
            _check_length(text)
        final: list[str] = []

        def build(planner: Planner, game: Game) -> None:
            seat = self._require_acting(game, actor, expected_turn)
            if self._away(game, seat):
                if text is not None:
                    parse_named(planner.rs, game, seat, text, planner.state)  # refused before he comes back
                raise _Away
            row = planner.orders.get(seat)
            if row is not None and row.passed:
                raise GameError(_final(row) if row.stand_in else tr("you already passed this turn"))
            source = text if text is not None else row.text if row else ""
            orders = parse_named(planner.rs, game, seat, source, planner.state)  # a pass needs a complete set
            planner.orders[seat] = OrderRow(seat, planner.rs.format_orders(orders), True)
            final[:] = map(planner.rs.format_order, orders)
            planner.passed(seat)

        try:
            game = await self.games.transition(game_id, build)
        except _Away:  # back first, in a change of its own: a refused pass leaves him back all the same
            await self.games.transition(game_id, lambda planner, game: planner.come_back(self._seat(game, actor)))
            return replace(await self.pass_turn(game_id, actor, text, expected_turn=expected_turn), back=True)
        return Sent(game, tuple(final))

    async def send_orders(
        self, game_id: int, actor: Actor, text: str, *, expected_turn: int | None = None
    ) -> Sent | MyOrders:
        """Give ``text`` and pass at once (the game after the pass, and the orders taken), unless the
        orders would lose the game at once: then they are only programmed, and his orders come back
        with the warning, so that he passes knowingly or changes them."""
        _check_length(text)
        game = await self.games.get_game(game_id)
        if self._warnings(game, self._require_acting(game, actor, expected_turn), text):
            return await self.replace_orders(game_id, actor, text, expected_turn=expected_turn)
        return await self.pass_turn(game_id, actor, text, expected_turn=expected_turn)  # bad orders refused here

    async def surrender(self, game_id: int, actor: Actor) -> Game:
        def build(planner: Planner, game: Game) -> None:
            seat = self.games.require_seat_in_game(game, actor)
            planner.remove(seat, "surrender")

        return await self.games.transition(game_id, build)

    async def propose_draw(self, game_id: int, actor: Actor) -> Game:
        """Agree to a draw; when every living human player agrees (computers follow), the game ends drawn."""

        def build(planner: Planner, game: Game) -> None:
            seat = self.games.require_seat_in_game(game, actor)
            player = planner.seated()[seat]
            if player.draw_agreed:
                raise GameError(tr("you already agreed to a draw; the others have not all agreed yet"))
            if declined := planner.agree_draw(seat):
                names = told_apart(game.names())
                raise GameError(
                    ntr(
                        "{players} is ahead and declines a draw, so there is none; you may offer one again later",
                        "{players} are ahead and decline a draw, so there is none; you may offer one again later",
                        len(declined),
                        players=joined([names[s] for s in declined]),
                    )
                )

        return await self.games.transition(game_id, build)


def parse_named(rs: Ruleset, game: Game, seat: int, text: str, state: Any = None) -> Sequence[Any]:
    """``text`` parsed for ``seat``; an error that mentions other seats calls them by the players' names."""
    try:
        return rs.parse_orders(game.state if state is None else state, seat, text)
    except OrderError as err:
        names = told_apart(game.names())
        raise err.named(lambda other: seat_name(names, other)) from None


def _final(row: OrderRow) -> str:
    """Why a seat's orders of this turn can no longer change."""
    if row.stand_in:
        return tr(
            "the computer that played for you while you were away made this turn's orders final already; "
            "you give your own from the next turn"
        )
    return tr("you already passed this turn; your orders are final")


def _lines(text: str) -> tuple[str, ...]:
    """Stored orders (``format_orders``'s text) one per line."""
    return tuple(part.strip() for part in text.split(";") if part.strip())


def _check_length(text: str) -> None:
    if len(text) > MAX_ORDER_TEXT:
        raise OrderError(
            tr(
                "orders are limited to {most} characters; send fewer at a time or replace them",
                most=MAX_ORDER_TEXT,
            )
        )
