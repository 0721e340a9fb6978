"""Before the first turn: creating a game, joining, leaving, computer seats, starting, cancelling;
and a manager's removal of a player once it runs."""

from __future__ import annotations

import asyncio
import functools
import json
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine import EngineError, Ruleset
from engine.errors import MapError, OptionError
from engine.i18n import map_title, titled
from engine.rng import Rng
from i18n import joined, tr
from service.announcements import GameCancelled
from service.daily import AUTO, Daily
from service.errors import GameError, NotAllowed, WrongPhase
from service.gameoptions import settle
from service.models import (
    CANCELLED,
    FINISHED,
    LOBBY,
    RUNNING,
    Actor,
    Game,
    Mirror,
    Reliability,
    TimeSettings,
    computer_name,
)
from service.ops.games import Games, ruleset_named
from service.storage import games as rows
from service.storage import maps as server_maps
from service.storage import reliability
from service.storage.store import Connection
from service.timing import check_settings
from service.turns import Planner

MAX_OPEN_GAMES_PER_CHANNEL = 25
REPEAT_SECONDS = 5.0


def seat_counts(rs: Ruleset, options: Mapping[str, Any], refusals: list[str] | None = None) -> list[int]:
    """The numbers of players a game of ``rs`` with ``options`` can be set up for (its map decides);
    why each other number cannot is added to ``refusals`` when given."""
    counts = []
    for count in range(rs.min_players, rs.max_players + 1):
        try:
            rs.setup(count, options, seed=0)
        except EngineError as err:
            if refusals is not None:
                refusals.append(str(err))
            continue
        counts.append(count)
    return counts


@functools.lru_cache(maxsize=256)
def map_seat_counts(rs: Ruleset, map_name: str) -> tuple[int, ...]:
    """The numbers of players a shipped map takes (cheap to find once: no map is generated)."""
    return tuple(seat_counts(rs, {"map": map_name}))


@functools.lru_cache(maxsize=256)
def options_seat_counts(rs: Ruleset, options: str) -> tuple[int, ...]:
    """The numbers of players a game with these options (JSON text: a map given as data) can seat."""
    return tuple(seat_counts(rs, json.loads(options)))


def needed_options(rs: Ruleset, chosen_map: str | dict[str, Any]) -> dict[str, Any]:
    """The options a game on ``chosen_map`` (a shipped name or map data) needs set: none when the
    defaults do, else one choice changed (fortress water or mountains need mode 2). A MapError says the
    data is wrong; an OptionError that no such change cures is the first one met."""
    changes: list[dict[str, Any]] = [{}] + [
        {option.name: value}
        for option in rs.options_schema()
        if option.kind == "choice" and not option.generated
        for value in option.choices
        if value != option.default
    ]
    refused: OptionError | None = None
    for change in changes:
        try:
            rs.normalize_options({**change, "map": chosen_map})
        except MapError:
            raise
        except OptionError as err:
            refused = refused or err
        else:
            return change
    assert refused is not None  # the defaults were tried first
    raise refused


def playable_options(rs: Ruleset, chosen_map: str | dict[str, Any]) -> dict[str, Any]:
    """Options a game on ``chosen_map`` can be played with (see ``needed_options``)."""
    return rs.normalize_options({**needed_options(rs, chosen_map), "map": chosen_map})


def shipped_maps(rs: Ruleset) -> tuple[str, ...]:
    """The names of the ruleset's shipped maps (its ``map`` option's choices)."""
    return next((tuple(o.choices) for o in rs.options_schema() if o.kind == "map"), ())


def counts_text(counts: Sequence[int]) -> str:
    """ "2, 3, 4 or 6" """
    if len(counts) == 1:
        return str(counts[0])
    return tr("{some} or {last}", some=joined(counts[:-1]), last=counts[-1])


class _Rematched(Exception):
    """The game's rematch was opened meanwhile (by another process): that one is the rematch."""

    def __init__(self, game_id: int):
        super().__init__(game_id)
        self.game_id = game_id


class Lobby:
    def __init__(self, games: Games):
        self.games = games
        self.db, self.clock, self.rulesets = games.db, games.clock, games.rulesets

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        actor: Actor,
        ruleset: str,
        options: dict[str, Any] | None = None,
        time: TimeSettings = TimeSettings(),
        min_players: int | None = None,
        max_players: int | None = None,
        seed: int | None = None,
        rated: bool = True,
        noted: Callable[[Connection, int], Awaitable[None]] | None = None,
        mirrors: Mapping[Mirror, Sequence[int]] | None = None,
    ) -> Game:
        """A new lobby, with its creator seated in it. ``noted``: told the new game's id in the
        transaction that makes it, by whatever the game is made for (a stop can then never leave a game
        made and unrecorded). ``mirrors``: the other servers it is shown in (each channel, none of
        them full), each with the players who play it from there (matched across servers)."""
        rs = ruleset_named(self.rulesets, ruleset)
        options = rs.normalize_options(options)
        check_settings(time)
        low = rs.min_players if min_players is None else min_players
        high = rs.max_players if max_players is None else max_players
        if not rs.min_players <= low <= high <= rs.max_players:
            raise GameError(
                tr(
                    "{game} takes {least} to {most} players; {low} to {high} is not possible",
                    game=tr(rs.title),
                    least=rs.min_players,
                    most=rs.max_players,
                    low=low,
                    high=high,
                )
            )
        now = self.clock.now()
        seed = secrets.randbits(48) if seed is None else seed
        async with self.db.transaction() as conn:
            mirrors = mirrors or {}
            for channel in (channel_id, *(m.channel_id for m in mirrors)):
                open_games = await rows.open_in_channel(conn, channel)
                if open_games >= MAX_OPEN_GAMES_PER_CHANNEL:
                    raise GameError(
                        tr("this channel already has {count} open games; finish or cancel some first", count=open_games)
                    )
            game_id = await rows.insert_game(
                conn,
                guild_id=guild_id,
                channel_id=channel_id,
                creator_id=actor.user_id,
                ruleset=ruleset,
                options=options,
                players=(low, high),
                seed=seed,
                time=time,
                rated=rated,
                now=now,
            )
            await self._insert_player(conn, game_id, actor.user_id, actor.name or f"user {actor.user_id}")
            for mirror, players in mirrors.items():
                await rows.add_mirror(conn, game_id, mirror.guild_id, mirror.channel_id, players)
            if noted is not None:
                await noted(conn, game_id)
        return await self.games.get_game(game_id)

    async def open_game(
        self, *, guild_id: int, channel_id: int, actor: Actor, ruleset: str, chosen: Mapping[str, Any]
    ) -> tuple[Game, bool]:
        """A lobby for ``ruleset`` with the options as players chose them (see ``service.gameoptions``),
        seating as many players as its map allows. Returns the game and whether it is new: the same
        game opened again by the same player within a few seconds (a double tap) is the first one."""
        rs = ruleset_named(self.rulesets, ruleset)
        settings = settle(rs, await self._with_map(guild_id, rs, chosen))
        seats = await asyncio.to_thread(seat_counts, rs, settings.options)
        if not seats:
            raise GameError(
                tr("{game} cannot be set up with these options for any number of players", game=tr(rs.title))
            )
        high = settings.max_players if "max_players" in chosen else max(seats)
        if high not in seats:
            raise GameError(
                tr(
                    "{game} with these options is for {counts} players, not {high}",
                    game=tr(rs.title),
                    counts=counts_text(seats),
                    high=high,
                )
            )
        recent = await self._just_opened(actor, channel_id, ruleset, settings.options)
        if recent is not None:
            return recent, False
        game = await self.create_game(
            guild_id=guild_id,
            channel_id=channel_id,
            actor=actor,
            ruleset=ruleset,
            options=settings.options,
            time=settings.time,
            min_players=min(seats),
            max_players=high,
            rated=settings.rated,
        )
        return game, True

    async def _with_map(self, guild_id: int, rs: Ruleset, chosen: Mapping[str, Any]) -> Mapping[str, Any]:
        """``chosen`` with a map of the server's own (/map upload) named in ``map`` replaced by a copy of
        its data (the game keeps it whatever becomes of the map), and with what the chosen map needs
        that the creator left unset (a fortress map with water or mountains: mode 2)."""
        name = chosen.get("map")
        if not isinstance(name, str):
            return chosen
        if name not in shipped_maps(rs):
            async with self.db.reading() as conn:
                found = await server_maps.named(conn, guild_id, name)
                mine = found is not None and found.ruleset == rs.name
                own = [] if mine else await server_maps.names(conn, guild_id, rs.name)
            if found is None or not mine:
                if own:  # else the ruleset says the map is unknown, and which there are
                    raise GameError(
                        tr(
                            "unknown map {name!r}; shipped maps: {names}; this server's: {own}",
                            name=name,
                            names=titled(shipped_maps(rs), map_title),
                            own=joined(own),
                        )
                    )
                return chosen
            chosen = {**chosen, "map": found.data}
        try:
            needed = await asyncio.to_thread(needed_options, rs, chosen["map"])
        except EngineError:
            return chosen  # the options are checked next, and say why
        return {**needed, **chosen}

    async def _just_opened(self, actor: Actor, channel_id: int, ruleset: str, options: dict[str, Any]) -> Game | None:
        since = self.clock.now() - REPEAT_SECONDS
        async with self.db.reading() as conn:
            game_id = await rows.lobby_opened_since(conn, actor.user_id, channel_id, ruleset, options, since)
        return await self.games.get_game(game_id) if game_id is not None else None

    async def _insert_player(
        self, conn: Connection, game_id: int, user_id: int | None, name: str, *, ai_level: str | None = None
    ) -> None:
        await rows.insert_player(conn, game_id, user_id, name, self.clock.now(), ai_level=ai_level)

    async def rematch(self, game_id: int, actor: Actor) -> tuple[Game, bool]:
        """A new lobby for a finished game's players (computers at their levels) with its options, opened
        by one of them (mirrored where the game was). Returns it and whether it is new: pressed again, by
        anyone (in any process), it is the same lobby."""
        old = await self.games.get_game(game_id)
        if old.row.status != FINISHED:
            raise WrongPhase(tr("game #{number} is not over yet", number=game_id))
        if old.player_of(actor.user_id) is None:
            raise NotAllowed(tr("only the players of game #{number} can ask for a rematch", number=game_id))
        async with self.games.lock(game_id):
            async with self.db.reading() as conn:
                already = await rows.rematch_lobby(conn, game_id)
                homes = await rows.mirrored_homes(conn, [game_id])
            if already is not None:
                return await self.games.get_game(already), False
            mirrors: dict[Mirror, list[int]] = {
                Mirror(m.guild_id, m.channel_id): [] for m in await self.games.mirrors(game_id)
            }
            for (_, user_id), home in homes.items():
                mirrors[Mirror(home.guild_id, home.channel_id)].append(user_id)

            others = [  # the game's own players, as it began: not who took a seat over during it
                p
                for p in sorted(old.players, key=lambda p: (p.seat is None, p.seat or 0, p.id))
                if p.user_id != actor.user_id and not p.took_over
            ]

            async def noted(conn: Connection, new_id: int) -> None:
                """The rematch, whole in one transaction: marked as the game's, everyone seated."""
                await self.db.serialize(conn, f"rematch:{game_id}")  # pressed in two processes (two servers) at once
                if (made := await rows.rematch_lobby(conn, game_id)) is not None:
                    raise _Rematched(made)
                await rows.mark_rematch(conn, new_id, game_id)
                for player in others:
                    await self._insert_player(conn, new_id, player.user_id, player.name, ai_level=player.ai_level)

            try:
                new = await self.create_game(
                    guild_id=old.row.guild_id,
                    channel_id=old.row.channel_id,
                    actor=actor,
                    ruleset=old.row.ruleset,
                    options=old.row.options,
                    time=rechosen(old.row.time),
                    min_players=old.row.min_players,
                    max_players=old.row.max_players,
                    rated=old.row.rated,
                    noted=noted,
                    mirrors=mirrors,
                )
            except _Rematched as made:
                return await self.games.get_game(made.game_id), False
            return new, True

    async def attach_thread(self, game_id: int, *, thread_id: int | None, lobby_message_id: int | None) -> Game:
        """Remember where the game is played and which message carries its lobby buttons."""

        async def nothing_to_check(conn: Connection, game: Game) -> None:
            return None

        return await self.games.change(
            game_id, nothing_to_check, thread_id=thread_id, lobby_message_id=lobby_message_id
        )

    async def attach_mirror(self, game_id: int, guild_id: int, *, thread_id: int, lobby_message_id: int) -> None:
        """Remember the game's card and thread in a server it is mirrored in."""
        async with self.db.transaction() as conn:
            await rows.attach_mirror(conn, game_id, guild_id, thread_id, lobby_message_id)

    async def join(self, game_id: int, actor: Actor) -> Game:
        async def join(conn: Connection, game: Game) -> None:
            self.games.require_status(game, LOBBY)
            if game.player_of(actor.user_id):
                raise GameError(tr("you are already in game #{number}", number=game_id))
            self._require_free_seat(game)
            await require_reliable(conn, game, actor)
            await self._insert_player(conn, game_id, actor.user_id, actor.name or f"user {actor.user_id}")
            if actor.guild_id is not None and actor.guild_id != game.row.guild_id:  # from a server it is mirrored in
                if any(m.guild_id == actor.guild_id for m in await rows.mirrors_of(conn, game_id)):
                    await rows.add_mirror_player(conn, game_id, actor.user_id, actor.guild_id)

        return await self.games.change(game_id, join)

    async def leave(self, game_id: int, actor: Actor) -> Game:
        """Leave a lobby. (In a running game, leaving is surrendering.)"""

        async def leave(conn: Connection, game: Game) -> None:
            if game.row.status == RUNNING and game.player_of(actor.user_id):
                raise WrongPhase(
                    tr("game #{number} has started; to leave it for good, use /game surrender", number=game_id)
                )
            self.games.require_status(game, LOBBY)
            await rows.delete_player(conn, self.games.require_player(game, actor).id)

        return await self.games.change(game_id, leave)

    async def add_ai(self, game_id: int, actor: Actor, level: str | None = None) -> Game:
        """Seat a computer player at ``level`` (a name from the ruleset's levels; default the strongest)."""

        async def add(conn: Connection, game: Game) -> None:
            self.games.require_status(game, LOBBY)
            if game.player_of(actor.user_id) is None:
                self.games.require_manager(game, actor)
            self._require_free_seat(game)
            rs = self.games.ruleset(game.row)
            chosen = rs.bot_level(level)
            number = sum(1 for p in game.players if p.is_ai) + 1
            name = computer_name(number, None if len(rs.bot_levels) == 1 else chosen.name)
            await self._insert_player(conn, game_id, None, name, ai_level=chosen.name)

        return await self.games.change(game_id, add)

    async def remove_ai(self, game_id: int, actor: Actor) -> Game:
        """Take back the computer seat added last (in a lobby), for whoever may add one."""

        async def remove(conn: Connection, game: Game) -> None:
            self.games.require_status(game, LOBBY)
            if game.player_of(actor.user_id) is None:
                self.games.require_manager(game, actor)
            computers = [p for p in game.players if p.is_ai]
            if not computers:
                raise GameError(tr("game #{number} has no computer player to remove", number=game.id))
            await rows.delete_player(conn, computers[-1].id)

        return await self.games.change(game_id, remove)

    @staticmethod
    def _require_free_seat(game: Game) -> None:
        if len(game.players) >= game.row.max_players:
            raise GameError(tr("game #{number} is full ({count} players)", number=game.id, count=game.row.max_players))

    async def kick(self, game_id: int, actor: Actor, player_id: int) -> Game:
        """A manager removes a player or a computer (by its player row, as /admin kick offers them):
        from the lobby, or from the running game, whose post then says who removed him."""
        game = await self.games.get_game(game_id)
        self.games.require_manager(game, actor)
        target = next((p for p in game.players if p.id == player_id), None)
        if target is None:
            raise GameError(tr("that player is not in game #{number}", number=game_id))
        if game.row.status == RUNNING:
            return await self._remove_seat(game_id, target.seat, "kicked", by=actor.user_id)

        async def kick(conn: Connection, game: Game) -> None:
            self.games.require_status(game, LOBBY)
            await rows.delete_player(conn, target.id)

        return await self.games.change(game_id, kick)

    async def start_game(self, game_id: int, actor: Actor, seating: Sequence[int] = ()) -> Game:
        """Seat the players in a seeded random order (or members by ``seating``: user ids, first seat
        first, as a tournament pairs them) and begin the first turn."""

        def build(planner: Planner, game: Game) -> None:
            self.games.require_status(game, LOBBY)
            self.games.require_manager(game, actor)
            if len(game.players) < game.row.min_players:
                raise GameError(
                    tr(
                        "game #{number} needs at least {least} players to start; it has {count}",
                        number=game.id,
                        least=game.row.min_players,
                        count=len(game.players),
                    )
                )
            if all(p.is_ai for p in game.players):
                raise GameError(tr("a game needs at least one human player"))
            order = Rng(game.row.seed).shuffled([p.id for p in game.players])
            if seating:
                by_user = {p.user_id: p.id for p in game.players}
                order = [by_user[user] for user in seating]
            planner.setup({player_id: seat for seat, player_id in enumerate(order)})

        return await self.games.transition(game_id, build)

    async def seat_and_start(
        self,
        game: Game,
        players: Sequence[Actor],
        manager: Actor,
        shown: Sequence[Callable[[Game], Awaitable[Game]]],
        *,
        seated: bool = True,
    ) -> Game:
        """A game opened for ``players`` (the first made it): the others join, it is shown once (by
        ``shown``: its card and thread) and started, with them in their order if ``seated`` (else in
        seats drawn as any game's). A game taken up after a stop goes on from where it was; one started
        or cancelled already is left as it is."""
        if game.row.status != LOBBY:
            return game
        for player in players[1:]:  # seated before it is shown: no one else can take a seat
            if game.player_of(player.user_id) is None:
                game = await self.join(game.id, player)
        for show in shown:  # each shows only what is not shown yet (a stop may have come in between)
            game = await show(game)
        return await self.start_game(game.id, manager, seating=[p.user_id for p in players] if seated else ())

    async def cancel(self, game_id: int, actor: Actor) -> Game:
        async def attempt() -> None:
            async with self.db.transaction() as conn:
                game = await self.games.load(conn, game_id)
                self.games.require_manager(game, actor)
                self.games.require_status(game, LOBBY, RUNNING)
                await self.games.update_game(conn, game.row, status=CANCELLED, deadline_at=None, reminder_at=None)
                if game.row.lobby_message_id is not None:  # a game never shown (its card refused) goes quietly
                    await self.games.announce(conn, game_id, [GameCancelled(actor.user_id)])

        async with self.games.lock(game_id):
            await self.games.retrying(attempt)
        self.games.notify(game_id, None)
        return await self.games.get_game(game_id)

    async def _remove_seat(self, game_id: int, seat: int | None, reason: str, *, by: int | None = None) -> Game:
        def build(planner: Planner, game: Game) -> None:
            self.games.require_status(game, RUNNING)
            if seat is None or not self.games.still_playing(game, seat):
                raise NotAllowed(tr("that player is no longer in the game"))
            planner.remove(seat, reason, by=by)

        return await self.games.transition(game_id, build)


async def require_reliable(conn: Connection, game: Game, actor: Actor) -> None:
    """A game with ``min_reliability`` refuses a member whose counted on-time rate is below it."""
    least = game.row.time.min_reliability
    turns = (await reliability.of_users(conn, [actor.user_id])).get(actor.user_id, Reliability())
    if least and turns.counted and turns.percent < least:
        raise NotAllowed(
            tr(
                "game #{number} takes players on time in at least {least}% of their turns; you are on time "
                "in {percent}% ({on_time} of {asked})",
                number=game.id,
                least=least,
                percent=turns.percent,
                on_time=turns.on_time,
                asked=turns.asked,
            )
        )


def rechosen(time: TimeSettings) -> TimeSettings:
    """A finished game's clock for its rematch: a time of day chosen for its players is chosen anew."""
    return replace(time, daily=AUTO) if time.daily is not None and Daily.parse(time.daily).auto else time
