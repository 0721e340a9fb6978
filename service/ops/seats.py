"""Seats taken over (``replacements``): a member not in a running game takes the seat a computer
plays, with its position and its call to play, at once (``open-auto``) or once the game's creator
approves (``open``; the request waits in the database, across restarts)."""

from __future__ import annotations

from dataclasses import dataclass

from i18n import tr
from service.errors import GameError, NotAllowed
from service.models import RUNNING, Actor, Game
from service.ops.games import Games
from service.ops.lobby import require_reliable
from service.storage import seats
from service.storage.store import Connection
from service.turns import Planner

OPEN, FIRST_COME = "open", "open-auto"


@dataclass(frozen=True)
class Taken:
    """What became of a member's press of **Take this seat**: the seat is his (``taken``), or his
    request waits for the creator (``new`` is False when he had asked already)."""

    game: Game
    taken: bool
    new: bool = True


class Seats:
    def __init__(self, games: Games):
        self.games = games

    async def take(self, game_id: int, seat: int, actor: Actor) -> Taken:
        """``actor`` takes, or asks to take, the computer's ``seat`` over."""
        game = await self.games.get_game(game_id)
        self._check(game, seat, actor)
        async with self.games.db.reading() as conn:
            await require_reliable(conn, game, actor)
        if game.row.time.replacements == FIRST_COME:
            return Taken(await self._hand_over(game_id, seat, actor.user_id, actor.name), True)
        new: list[bool] = []

        async def ask(conn: Connection, game: Game) -> None:
            self._check(game, seat, actor)
            new.append(await seats.ask(conn, game_id, seat, actor.user_id, actor.name, self.games.clock.now()))

        return Taken(await self.games.change(game_id, ask), False, new[0])

    async def answer(self, game_id: int, seat: int, user_id: int, actor: Actor, *, approve: bool) -> Game:
        """The creator's answer to ``user_id``'s request for ``seat``: he takes it over, or not."""
        game = await self.games.get_game(game_id)
        if actor.user_id != game.row.creator_id:
            raise NotAllowed(tr("only the creator of game #{number} decides who takes a seat over", number=game_id))
        async with self.games.db.reading() as conn:
            name = await seats.asked(conn, game_id, seat, user_id)
        if name is None:
            raise GameError(tr("that request was answered already"))
        if approve:
            self._check(game, seat, Actor(user_id, name))
            game = await self._hand_over(game_id, seat, user_id, name)
        async with self.games.db.transaction() as conn:
            await seats.forget(conn, game_id, seat, None if approve else user_id)
        return game

    async def withdraw(self, game_id: int, seat: int, user_id: int) -> None:
        """Forget a member's request (one the creator was never shown)."""
        async with self.games.db.transaction() as conn:
            await seats.forget(conn, game_id, seat, user_id)

    async def _hand_over(self, game_id: int, seat: int, user_id: int, name: str) -> Game:
        def build(planner: Planner, game: Game) -> None:
            self._check(game, seat, Actor(user_id, name))
            planner.hand_over(seat, user_id, name)

        return await self.games.transition(game_id, build)

    def _check(self, game: Game, seat: int, actor: Actor) -> None:
        """A running game that lets members take seats, a computer's seat still in the game, and a
        member who is not (and was not) one of its players."""
        self.games.require_status(game, RUNNING)
        if game.row.time.replacements not in (OPEN, FIRST_COME):
            raise NotAllowed(tr("game #{number} does not let members take seats over", number=game.id))
        if (mine := game.player_of(actor.user_id)) is not None:
            if mine.seat is None:
                raise NotAllowed(tr("you left game #{number}; you cannot take a seat in it again", number=game.id))
            raise NotAllowed(tr("you are already playing in game #{number}", number=game.id))
        player = game.player_at(seat)
        if player is None or not player.is_ai or not self.games.still_playing(game, seat):
            raise GameError(tr("that seat of game #{number} is no computer's to take over", number=game.id))
