"""Away (/away): a player gone for a while has a computer give his orders in his games, as secret as
his own would be, so that nothing counts as missed and nobody waits for him.

Each game lets each player be away ``away_days`` days of it in all (0: not at all); coming back
early gives the rest back. He is back when his time ends, when he gives an order himself
(``Play``), or when he says so. The seat stays his: the game is rated as any other.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import EngineError
from i18n import tr
from service.errors import GameError, NotAllowed
from service.gameoptions import DAY, duration
from service.models import Actor, Game
from service.ops.games import Games
from service.storage import games as rows
from service.turns import Planner


@dataclass(frozen=True)
class Away:
    """A game he is now away from, and what became of its turn in progress: "kept" (his programmed
    orders made final), "stand-in" (the computer played it), or None (it did not wait on him)."""

    game: Game
    this_turn: str | None


@dataclass(frozen=True)
class AwayReport:
    """The games he is away from, and those of his others that refused (game number, why)."""

    away: tuple[Away, ...]
    refused: tuple[tuple[int, str], ...] = ()


class Absence:
    def __init__(self, games: Games):
        self.games = games

    async def go_away(
        self, actor: Actor, until: float, *, game_id: int | None = None, level: str | None = None
    ) -> AwayReport:
        """Away until ``until`` in game ``game_id``, or in every running game he still plays (those
        that refuse are told apart, unless all do); ``level`` names the stand-in's computer level
        (default: the ruleset's default)."""
        now = self.games.clock.now()
        if until <= now:
            raise GameError(tr("that time is already past: say until when you will be away"))
        if game_id is not None:
            return AwayReport((await self._away_in(game_id, actor, until, level),))
        away, refused = [], []
        for one in await self._playing(actor):
            try:
                away.append(await self._away_in(one, actor, until, level))
            except (GameError, EngineError) as err:
                refused.append((one, str(err)))
        if not away:
            if not refused:
                raise GameError(tr("you are not playing in any running game"))
            raise GameError("\n".join(why for _, why in refused))
        return AwayReport(tuple(away), tuple(refused))

    async def come_back(self, actor: Actor, *, game_id: int | None = None) -> list[Game]:
        """Back in game ``game_id``, or in every game he is away from."""
        now = self.games.clock.now()
        ids = [game_id] if game_id is not None else await self._playing(actor)
        back = []
        for one in ids:
            game = await self.games.get_game(one)
            player = game.player_of(actor.user_id)
            if player is None or not player.away_at(now):
                if game_id is not None:
                    self.games.require_seat_in_game(game, actor)
                    raise GameError(tr("you are not away in game #{number}", number=one))
                continue
            back.append(
                await self.games.transition(one, lambda planner, game: planner.come_back(self._seat(game, actor)))
            )
        if not back:
            raise GameError(tr("you are not away in any game"))
        return back

    async def _away_in(self, game_id: int, actor: Actor, until: float, level: str | None) -> Away:
        became: list[str | None] = []

        def build(planner: Planner, game: Game) -> None:
            seat = self._seat(game, actor)
            allowed = game.row.time.away_days * DAY
            if not allowed:
                raise NotAllowed(tr("game #{number} does not let players be away", number=game.id))
            player = planner.seated()[seat]
            left = allowed - player.away_used + planner.away_left(player)
            if until - planner.now > left + 1:
                raise GameError(
                    tr(
                        "game #{number} lets each player be away {allowed} in all; you have {left} of it left",
                        number=game.id,
                        allowed=duration(allowed),
                        left=duration(max(0.0, left)),
                    )
                )
            chosen = planner.rs.bot_level(level).name if level else None
            became.append(planner.go_away(seat, until, chosen))

        game = await self.games.transition(game_id, build)
        return Away(game, became[0])

    def _seat(self, game: Game, actor: Actor) -> int:
        return self.games.require_seat_in_game(game, actor)

    async def _playing(self, actor: Actor) -> list[int]:
        """His running games, where he is still in play."""
        playing = []
        for game in await self.games.listed(lambda conn: rows.running_games_of(conn, actor.user_id)):
            player = game.player_of(actor.user_id)
            if (
                player is not None
                and player.seat is not None
                and not game.damage
                and self.games.still_playing(game, player.seat)
            ):
                playing.append(game.id)
        return playing
