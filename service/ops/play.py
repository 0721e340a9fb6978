"""During the game: programming orders, passing, surrendering, agreeing a draw.

Programmed orders are per seat and per turn, validated by the engine against the position at the
start of the turn. Until a player passes he may review, add to, replace and clear them; passing
makes them final, and the last pass resolves the turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
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
REPEAT_SECONDS = 5.0


@dataclass(frozen=True)
class MyOrders:
    """What a player sees of his own turn: his orders, one per line, and whether he has passed."""

    game_id: int
    turn: int
    seat: int
    lines: tuple[str, ...]
    passed: bool
    repeated: bool = False  # these orders had just been given; they were kept once
    warnings: tuple[str, ...] = ()  # what they would do at once that he must know before passing


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
        self, game: Game, seat: int, row: OrderRow | None, *, repeated: bool = False, orders: Sequence[Any] = ()
    ) -> MyOrders:
        """``orders``, when given, are ``row``'s text already parsed (it is not read again)."""
        text = row.text if row else ""
        lines = tuple(part.strip() for part in text.split(";") if part.strip())
        passed = bool(row and row.passed)
        warnings = () if passed or not lines else self._warnings(game, seat, text, orders)
        return MyOrders(game.id, game.row.turn + 1, seat, lines, passed, repeated, warnings)

    def _warnings(self, game: Game, seat: int, text: str, orders: Sequence[Any] = ()) -> tuple[str, ...]:
        """The engine's warnings about programmed orders (``text``, or ``orders`` when already parsed);
        orders that no longer read warn of nothing here (the pass says what is wrong with them)."""
        rs = self.games.ruleset(game.row)
        try:
            return tuple(rs.order_warnings(game.state, seat, orders or rs.parse_orders(game.state, seat, text)))
        except OrderError:
            return ()

    def _repeated(self, game: Game, seat: int, current: OrderRow, text: str) -> bool:
        """The same orders given again within a few seconds: a double tap, not a second set."""
        if (
            not current.text
            or current.updated_at is None
            or self.games.clock.now() - current.updated_at > REPEAT_SECONDS
        ):
            return False
        rs = self.games.ruleset(game.row)
        try:
            added = rs.format_orders(rs.parse_orders(game.state, seat, text))
        except OrderError:
            return False
        return bool(added) and (current.text == added or current.text.endswith(f"; {added}"))

    # ``expected_turn``, when given, is the turn the player was looking at: if the turn ended in the
    # meantime (a deadline), his orders are refused rather than landing in the next turn.

    async def add_orders(self, game_id: int, actor: Actor, text: str, *, expected_turn: int | None = None) -> MyOrders:
        """Add to the programmed orders; the whole set is validated together."""
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
                current = (await rows.orders_of(conn, game.row)).get(seat)
                if current and current.passed:
                    raise GameError(tr("you already passed this turn; your orders are final"))
                rs = self.games.ruleset(game.row)
                if keep and current and self._repeated(game, seat, current, text):
                    return self._mine(game, seat, current, repeated=True)
                combined = f"{current.text}; {text}" if keep and current and current.text else text
                _check_length(combined)
                orders = parse_named(rs, game, seat, combined)
                normalized = rs.format_orders(orders)
                # The version first: a transition planned before these orders must not commit, and the
                # game's row is this transaction's before the orders' rows.
                await self.games.update_game(conn, game.row)
                await rows.program(conn, game.row, seat, normalized, self.games.clock.now())
            self.games.keep_state((game_id, game.row.version + 1), game.state)  # the position did not change
            return self._mine(game, seat, OrderRow(seat, normalized, False), orders=orders)

        async with self.games.lock(game_id):
            return await self.games.retrying(attempt)

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
            raise NotAllowed(tr("it is not your turn in game #{number}", number=game.id))
        return seat

    async def submit(
        self, game_id: int, actor: Actor, text: str | None = None, *, expected_turn: int | None = None
    ) -> Game:
        """Pass: make the programmed orders (or ``text``, if given, replacing them) final for this turn,
        in one step, so a deadline can never split the orders from the pass."""
        if text is not None:
            _check_length(text)

        def build(planner: Planner, game: Game) -> None:
            seat = self._require_acting(game, actor, expected_turn)
            row = planner.orders.get(seat)
            if row is not None and row.passed:
                raise GameError(tr("you already passed this turn"))
            source = text if text is not None else row.text if row else ""
            orders = parse_named(planner.rs, game, seat, source, planner.state)  # a pass needs a complete set
            planner.orders[seat] = OrderRow(seat, planner.rs.format_orders(orders), True)
            planner.passed(seat)

        return await self.games.transition(game_id, build)

    async def send_orders(
        self, game_id: int, actor: Actor, text: str, *, expected_turn: int | None = None
    ) -> Game | MyOrders:
        """Give ``text`` and pass at once (the game after the pass), unless the orders would lose the
        game at once: then they are only programmed, and his orders come back with the warning, so
        that he passes knowingly or changes them."""
        _check_length(text)
        game = await self.games.get_game(game_id)
        if self._warnings(game, self._require_acting(game, actor, expected_turn), text):
            return await self.replace_orders(game_id, actor, text, expected_turn=expected_turn)
        return await self.submit(game_id, actor, text, expected_turn=expected_turn)  # bad orders refused here

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


def _check_length(text: str) -> None:
    if len(text) > MAX_ORDER_TEXT:
        raise OrderError(
            tr(
                "orders are limited to {most} characters; send fewer at a time or replace them",
                most=MAX_ORDER_TEXT,
            )
        )
