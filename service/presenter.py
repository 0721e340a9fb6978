"""What players see of a game, composed from its ruleset and the renderer: titles, the name of the
turn, event lines, option summaries, order suggestions and board images.

This is the one place above the engine that asks rulesets how to show themselves; the Discord
layer only formats what it is handed (mentions, timestamps, embeds), so a new ruleset needs no
change there. Board images are drawn in the worker pool.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import BotLevel, Event, Option, Ruleset
from i18n import current, joined, map_title, ntr, option_name, tr
from render import places_of, seat_entries
from render.replay import ReplayTooLarge
from render.style import PLAYER_COLOURS
from render.summary import coloured, describe_events, numbered_turn, seat_name
from service.errors import GameError, WrongPhase
from service.gameoptions import creation_options, duration
from service.lookalike import drawable, told_apart
from service.markup import COLOUR_EMOJI, player_name, when
from service.models import FINISHED, RUNNING, Game, PlayerRow, computer_title
from service.ops.games import Games, ruleset_named
from service.ops.history import History, PastTurn
from service.ops.lobby import map_seat_counts, options_seat_counts, playable_options
from service.ops.ratings import Standing
from service.ops.tournaments import POOLS, Placing, Result
from service.runtime.workers import (
    CpuPool,
    Focus,
    Picture,
    chart_job,
    close_up_job,
    preview_job,
    render_job,
    replay_job,
    standings_job,
)
from service.storage.maps import ServerMap
from service.storage.tournaments import FINISHED as FINISHED_TOURNAMENT
from service.storage.tournaments import Tournament


@dataclass(frozen=True)
class RulesetCard:
    """A game the bot offers, as a menu shows it."""

    name: str
    title: str
    min_players: int
    max_players: int
    rules_text: str
    options: tuple[Option, ...]  # everything a game of it is opened with
    bot_levels: tuple[BotLevel, ...]
    map_example: str | None  # a map in its format, as /map upload takes it (JSON text), if it reads maps
    map_grid: str | None  # the same map drawn as a text grid, with its legend, for the games on a grid


SEAT_KEYS = frozenset({"seat", "from", "winner", "defender"})  # an event's fields that name a seat
SIDE_KEYS = frozenset({"parties", "armies", "survivors"})  # fields listing [seat, count] sides


def touches(event: Any, seat: int) -> bool:
    """Whether an event (or any part of one: a captured army) names ``seat`` as actor, loser or side;
    what concerns every seat alike (production, the turn's start) names none."""
    if isinstance(event, Mapping):
        return any(
            (key in SEAT_KEYS and value == seat)
            or (key in SIDE_KEYS and any(isinstance(side, list) and side[:1] == [seat] for side in value))
            or (isinstance(value, Mapping) and touches(value, seat))
            for key, value in event.items()
        )
    return False


class Presenter:
    def __init__(self, games: Games, history: History, pool: CpuPool):
        self.games, self.history, self.pool = games, history, pool

    @property
    def rulesets(self) -> Mapping[str, Ruleset]:
        return self.games.rulesets

    def player_choices(self, game: Game) -> list[tuple[str, int]]:
        """The game's players and computers as its card lists them (colour, then name), each with its
        player id: what a manager picks from to remove one."""
        players = sorted(game.players, key=lambda p: (p.seat is None, p.seat or 0, p.id))
        return [
            (f"{COLOUR_EMOJI[p.seat]} {player_name(game, p)}" if p.seat is not None else p.shown_name, p.id)
            for p in players
        ]

    def computer_choices(self, game: Game) -> list[str]:
        """The labels of the game's computers still in their seats (a member may take one over)."""
        computers = {p.id for p in game.players if p.is_ai and p.seat is not None}
        return [label for label, player_id in self.player_choices(game) if player_id in computers]

    def player_named(self, game: Game, text: str) -> PlayerRow:
        """The player ``text`` names: a player id as the choices give it, or a name typed in full (with
        its seat number where it looks like another's, so the wrong one of them is never taken)."""
        text = text.strip()
        labels = dict((player_id, label) for label, player_id in self.player_choices(game))
        for player in game.players:
            if text == str(player.id) or text.casefold() in (
                labels[player.id].casefold(),
                player_name(game, player).casefold(),
            ):
                return player
        raise GameError(tr("nobody called {name!r} is in game #{number}", name=text[:40], number=game.id))

    def seat_counts(self, game: Game) -> tuple[int, ...]:
        """The numbers of players a lobby can start with when its map leaves some out between its
        least and its most (crown: 2, 3, 4 or 6); empty when any number between them will do."""
        chosen = game.row.options.get("map")
        if chosen is None:
            return ()
        rs = self.games.ruleset(game.row)
        if isinstance(chosen, str):
            seats = map_seat_counts(rs, chosen)
        else:  # a server's map, its data in the options: counted once per game (the options never change)
            seats = options_seat_counts(rs, json.dumps(game.row.options, sort_keys=True))
        low, high = game.row.min_players, game.row.max_players
        counts = tuple(c for c in seats if low <= c <= high)
        return () if counts == tuple(range(low, high + 1)) else counts

    def cards(self) -> list[RulesetCard]:
        """Every ruleset the bot serves, by name."""
        return [
            RulesetCard(
                rs.name,
                tr(rs.title),
                rs.min_players,
                rs.max_players,
                tr(rs.rules_text),
                creation_options(rs),
                rs.bot_levels,
                json.dumps(rs.map_example, ensure_ascii=False) if rs.map_example is not None else None,
                rs.map_grid.example(rs.map_example) if rs.map_grid and rs.map_example else None,
            )
            for _, rs in sorted(self.rulesets.items())
        ]

    def card(self, name: str) -> RulesetCard:
        ruleset_named(self.rulesets, name)
        return next(card for card in self.cards() if card.name == name)

    def bot_levels(self, game: Game) -> list[str]:
        """The computer levels a seat of this game can be given, weakest first."""
        rs = self.rulesets.get(game.row.ruleset)
        return [level.name for level in rs.bot_levels] if rs else []

    def away_note(self, game: Game, player: PlayerRow) -> str | None:
        """ "away until … — played by Computer (Hard)" while a computer stands in for him, else None."""
        if not player.away_at(self.games.clock.now()) or game.row.status != RUNNING:
            return None
        rs = self.rulesets.get(game.row.ruleset)
        level = rs.bot_level(player.away_level).name if rs else player.away_level
        return tr(
            "🏖️ away until {when} — played by {computer}", when=when(player.away_until), computer=computer_title(level)
        )

    def title(self, game: Game) -> str:
        return tr("{title} #{number}", title=self.ruleset_title(game.row.ruleset), number=game.id)

    def turn_label(self, game: Game) -> str:
        """ "Round 4", "Move 7", "Creating phase 12"; "Final position" once the game is over."""
        if game.row.status == FINISHED:
            return tr("Final position")
        if game.state is None and game.row.status == RUNNING and game.row.glance is not None:
            return numbered_turn(game.row.glance.unit, game.row.glance.number, game.row.glance.of)
        if game.state is None:
            return tr("Lobby") if game.row.status != RUNNING else tr("Turn {number}", number=game.row.turn + 1)
        rs = self.games.ruleset(game.row)
        return numbered_turn(rs.turn_unit(game.state), *rs.turn_number(game.state, game.row.turn))

    def order_hint(self, game: Game) -> str:
        """What to write this turn ("`keep 17` …"), or nothing outside a running game."""
        return self.games.ruleset(game.row).order_hint(game.state) if game.state is not None else ""

    def options_text(self, game: Game) -> str:
        """The game's own options as players chose them ("size: small, mode: 3: Hurt me plenty")."""
        rs = self.rulesets.get(game.row.ruleset)
        if rs is None:
            return tr("unknown")
        shown = []
        for option in rs.options_schema():
            value = game.row.options.get(option.name)
            if value is None or value == option.default:
                continue
            shown.append(f"{option_name(option.name).replace('_', ' ')}: {_readable(option, value)}")
        return joined(shown) or tr("defaults")

    def departed_seats(self, game: Game) -> frozenset[int]:
        return self.games.departed_seats(game)

    def event_lines(
        self, game: Game, events: Iterable[Mapping[str, Any]], *, shown: Callable[[str], str] = str
    ) -> list[str]:
        """What happened in a turn, one line per event worth mentioning; ``shown`` makes a player's
        name safe for where the lines go (Discord escapes markdown in names)."""
        rs = self.games.ruleset(game.row)
        parsed = [Event.from_dict(e) for e in events]
        names = told_apart(game.names(), shown)
        dropped = [
            tr(
                "{player}'s orders no longer fit and were dropped: {reason}",
                player=seat_name(names, e.data["seat"]),
                reason=e.data["reason"],
            )
            for e in parsed
            if e.kind == "orders_dropped"
        ]
        return dropped + describe_events(rs, parsed, names)

    def lines_for(self, game: Game, events: Iterable[Mapping[str, Any]], seat: int) -> list[str]:
        """The lines of ``events`` that touch ``seat``: his cells taken or won, his battles, his
        armies lost (what a call to play tells him first)."""
        return self.event_lines(game, [event for event in events if touches(event, seat)])

    def past_turn_lines(self, game: Game, past: PastTurn, *, shown: Callable[[str], str] = str) -> list[str]:
        """A past turn as its round post told it: the heading, then what happened, and whose orders a
        computer gave for him (a player away, or one whose seat was taken over in that turn)."""
        heading = tr(
            "**{game}, {turn}.**", game=self.title(game), turn=numbered_turn(past.unit, *past.counted, capital=False)
        )
        names = told_apart(game.names(), shown)
        stand_ins = [
            tr("{player}'s orders were given by {computer}.", player=names[seat], computer=computer_title(level))
            for seat, level in sorted(past.stand_ins.items())
            if seat < len(names)
        ]
        return [heading, *self.event_lines(game, past.events, shown=shown), *stand_ins]

    def past_orders_lines(self, game: Game, past: PastTurn, *, shown: Callable[[str], str] = str) -> list[str]:
        """Everyone's orders of a past turn, by seat; "no orders" for a seat that gave none."""
        names = told_apart(game.names(), shown)
        turn = numbered_turn(past.unit, *past.counted, capital=False)
        lines = [tr("**{game}, orders of {turn}**", game=self.title(game), turn=turn)]
        rs = self.games.ruleset(game.row)
        for seat, played in sorted(past.orders.items()):
            text = played if game.state is None else rs.public_orders(game.state, seat, played)
            name = names[seat] if seat < len(names) else tr("seat {number}", number=seat + 1)
            if seat in past.stand_ins:
                name = tr("{player} ({computer} played)", player=name, computer=computer_title(past.stand_ins[seat]))
            lines.append(f"{name}: `{text}`" if text else tr("{player}: no orders", player=name))
        if past.timed_out:
            lines.append(tr("The {unit} was resolved at its deadline.", unit=tr(past.unit)))
        return lines

    def suggestions(self, game: Game, seat: int, text: str) -> list[str]:
        """Legal order lines for ``seat`` starting like ``text``, for autocomplete."""
        if game.state is None or seat not in game.acting_seats:
            return []
        return self.games.ruleset(game.row).suggest_orders(game.state, seat, text)

    def drawn_names(self, game: Game) -> list[str]:
        """Players' names as the board draws them: invisible characters and what no bundled font has
        (emoji) left out; names that would then look alike get their seat number, so nobody can
        pass for somebody else."""
        nameless = tr("Player")
        named = told_apart(game.names(), lambda name: drawable(name) or nameless)
        return [
            f"{name} ({note})" if (note := self._clock_note(game, seat)) else name for seat, name in enumerate(named)
        ]

    @staticmethod
    def _clock_note(game: Game, seat: int) -> str:
        """For the legend: missed turns against the limit, or what is left of the player's time bank."""
        player, time = game.player_at(seat), game.row.time
        if player is None or player.is_ai or game.row.status != RUNNING:
            return ""
        if time.mode == "round" and player.missed:
            return tr("missed {count}/{limit}", count=player.missed, limit=time.missed_limit)
        if player.bank_left is not None:
            return tr("clock {left}", left=duration(player.bank_left, short=True))
        return ""

    async def board(
        self,
        game: Game,
        *,
        seq: int | None = None,
        viewer: int | None = None,
        orders_text: str = "",
        title: str | None = None,
        focus: Focus | None = None,
    ) -> Picture:
        """The board as PNG, described: after history entry ``seq``, or now; with ``viewer`` and
        ``orders_text``, that player's private view of his own orders; with ``focus``, a close-up
        of that part where the board is too large to read on a phone."""
        state: str | None
        if seq is None or seq == game.row.seq:  # the position the game is in: no need to read history
            state = game.row.state_text
        else:
            state = await self.history.stored_state_at(game.id, seq)
        if state is None:
            raise WrongPhase(tr("game #{number} has not started yet", number=game.id))
        return await self.pool.run(
            render_job,
            self.games.ruleset(game.row),
            state,
            viewer=viewer,
            orders_text=orders_text,
            names=self.drawn_names(game),
            title=title,
            language=current(),
            focus=focus,
        )

    def holdings(self, game: Game) -> list[SeatLine]:
        """Each seat of a started game as its board's legend tells it: colour, name, holdings."""
        if game.row.state_text is None or game.damage:
            return []
        view = self.games.ruleset(game.row).view(self.games.state_of(game.row), None)
        names = self.drawn_names(game)
        return [SeatLine(e.seat, coloured(e.name, e.seat), e.detail, e.active) for e in seat_entries(view, names)]

    @staticmethod
    def seat_colours() -> list[str]:
        """The seats' colours as the boards draw them, for pages (``#e61d07``), seat 0 first."""
        return ["#" + "".join(f"{channel:02x}" for channel in colour) for colour in PLAYER_COLOURS]

    def places(self, game: Game) -> list[str]:
        """The places of a running game's board as orders name them ("G4", "12"), for close-ups."""
        if game.row.status != RUNNING or game.row.state_text is None:
            return []
        view = self.games.ruleset(game.row).view(self.games.state_of(game.row), None)
        places = places_of(view)
        return list(places.spots(view)) if places else []

    async def close_up(self, game: Game, place: str) -> Picture:
        """The board now around ``place`` (any case), cut out so that it reads on a phone."""
        known = {label.casefold(): label for label in self.places(game)}
        label = known.get(place.strip().casefold())
        if label is None:
            raise GameError(
                tr(
                    "there is no place “{place}” on the board of game #{number}: name one as orders do ({example})",
                    place=place.strip(),
                    number=game.id,
                    example=", ".join(list(known.values())[:3]) or "—",
                )
            )
        near = await self.pool.run(
            close_up_job,
            self.games.ruleset(game.row),
            game.row.state_text or "",
            names=self.drawn_names(game),
            language=current(),
            focus=Focus((label,), self.turn_label(game), asked=True),
        )
        if near is None:
            raise GameError(tr("the board of game #{number} has no close-ups", number=game.id))
        return near

    async def replay(self, game: Game, limit: int) -> ReplayPost:
        """The game from its start to now, animated, in at most ``limit`` bytes (an upload limit)."""
        steps = await self.history.replay_steps(game.id)
        try:
            replay = await self.pool.run_long(
                replay_job,
                self.games.ruleset(game.row),
                steps,
                names=self.drawn_names(game),
                finished=game.row.status == FINISHED,
                limit=limit,
                language=current(),
            )
        except ReplayTooLarge as err:
            raise GameError(tr("the replay of game #{number} does not fit in an upload here", number=game.id)) from err
        frames, title = replay.frames, self.title(game)
        text = (
            ntr(
                "🎞️ **Replay of {game}**, start to finish: {n} frame.",
                "🎞️ **Replay of {game}**, start to finish: {n} frames.",
                frames,
                game=title,
            )
            if game.row.status == FINISHED
            else ntr(
                "🎞️ **Replay of {game}** so far: {n} frame.",
                "🎞️ **Replay of {game}** so far: {n} frames.",
                frames,
                game=title,
            )
        )
        description = ntr(
            "{game}, animated: {n} board, {first} to {last}",
            "{game}, animated: {n} boards, {first} to {last}",
            frames,
            game=title,
            first=replay.captions[0],
            last=replay.captions[-1],
        )
        return ReplayPost(text, f"game-{game.id}-replay.{replay.format}", replay.data, description)

    def tutorials(self) -> list[RulesetCard]:
        """The games that have a tutorial."""
        return [card for card in self.cards() if self.rulesets[card.name].tutorial()]

    async def tutorial_page(self, name: str, index: int) -> TutorialView:
        """Page ``index`` (from 0) of a game's tutorial, its position drawn as the bot draws boards."""
        rs = self.rulesets.get(name)
        pages = rs.tutorial() if rs else ()
        if rs is None or not pages:
            shown = tr(rs.title) if rs else repr(name)
            raise GameError(tr("{game} has no tutorial yet; try `/rules {name}`", game=shown, name=name))
        index = min(max(index, 0), len(pages) - 1)
        page = pages[index]
        seats = sum(len(place) for place in rs.standing(page.state))
        image = await self.pool.run(
            render_job,
            rs,
            rs.to_dict(page.state),
            viewer=page.seat,
            orders_text=page.orders,
            names=[tr("Player {number}", number=n + 1) for n in range(seats)],  # the reader's seat says "(you)"
            title=tr("Tutorial {page}/{pages}", page=index + 1, pages=len(pages)),
            language=current(),
        )
        return TutorialView(name, index, len(pages), tr(page.text), image)

    def chosen_map(self, game: Game) -> str | None:
        """The name of the map chosen for the game (a shipped one, or map data), or None if generated."""
        rs = self.rulesets.get(game.row.ruleset)
        for option in rs.options_schema() if rs else ():
            value = game.row.options.get(option.name)
            if option.kind == "map" and value is not None:
                return _readable(option, value)
        return None

    def generated_map(self, game: Game) -> str | None:
        """The map a running game generated for itself, as players read it (None if one was chosen)."""
        if game.state is None or self.chosen_map(game) is not None:
            return None
        name = self.games.ruleset(game.row).map_name(game.state)
        return map_title(name) if name else None

    async def map_preview(self, game: Game) -> Picture:
        """PNG of the board the game will start on, with as many players as it seats."""
        title = tr("{game}: {map}", game=self.title(game), map=self.chosen_map(game) or tr("map"))
        rs = self.games.ruleset(game.row)
        return await self.pool.run(
            preview_job, rs, game.row.options, game.row.max_players, game.row.seed, title, current()
        )

    async def server_map_preview(self, map_: ServerMap) -> Picture:
        """PNG of a server's map as a game on it starts, with the most players it seats."""
        title = tr("{game}: {map}", game=self.ruleset_title(map_.ruleset), map=map_title(map_.name))
        rs = self.rulesets.get(map_.ruleset)
        if rs is None:
            raise GameError(
                tr("This bot does not serve {game}, the game of map {map}.", game=map_.ruleset, map=map_.name)
            )
        options = await asyncio.to_thread(playable_options, rs, map_.data)
        return await self.pool.run(preview_job, rs, options, max(map_.seats), 0, title, current())

    async def rating_chart(self, who: str, stats: Mapping[str, tuple[Standing, list[float]]]) -> Picture:
        """PNG of a player's rating after each rated game, a line per game he plays."""
        series = {self.ruleset_title(name): history for name, (_, history) in stats.items()}
        title = tr("{player}: rating by game", player=drawable(who) or tr("Player"))
        return await self.pool.run(chart_job, title, series, current())

    async def standings_image(self, t: Tournament, placings: Sequence[Placing], through: int) -> Picture:
        """PNG of a tournament's standings after round ``through``: each round's result, the points
        and (but in pools) the tiebreaks."""
        game = self.ruleset_title(t.ruleset)
        if t.status == FINISHED_TOURNAMENT and through >= t.rounds:
            title = tr("Tournament #{number} — {game}: final standings", number=t.id, game=game)
        else:
            title = tr("Tournament #{number} — {game}: after round {round}", number=t.id, game=game, round=through)
        header = ["#", tr("Player"), *(tr("R{number}", number=n) for n in range(1, through + 1)), tr("Points")]
        if t.format != POOLS:
            header += [tr("Buchholz"), tr("SB")]
        rows = []
        for place, p in enumerate(placings, start=1):
            name = drawable(p.entrant.name) or tr("Player")
            if p.entrant.withdrawn_at is not None:
                name = tr("{name} (withdrawn)", name=name)
            cells = [str(place), name, *(round_result(r) for r in p.rounds), halves(p.points)]
            if t.format != POOLS:
                cells += [halves(p.buchholz), halves(p.berger)]
            rows.append(cells)
        leaders = 1 if t.status == FINISHED_TOURNAMENT and through >= t.rounds else 0
        return await self.pool.run(standings_job, title, header, rows, leaders, current())

    def ruleset_title(self, name: str) -> str:
        rs = self.rulesets.get(name)
        return tr(rs.title) if rs else name


def halves(points: float) -> str:
    """Tournament points as players write them: 2½, ½, 3."""
    whole, half = divmod(round(points * 2), 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


def round_result(result: Result) -> str:
    """One round of a player in the standings: his points, "bye", "…" while it is played, "–" without a table."""
    if result.playing:
        return "…"
    if result.points is None:
        return "–"
    if result.bye:
        return tr("bye")
    return halves(result.points)


@dataclass(frozen=True)
class SeatLine:
    """A seat as a page lists it beside the board."""

    seat: int
    name: str  # with its colour in words: "alice (red)"
    holdings: str
    playing: bool


@dataclass(frozen=True)
class ReplayPost:
    """A replay as a message carries it."""

    text: str
    filename: str
    data: bytes
    description: str  # alt text


@dataclass(frozen=True)
class TutorialView:
    ruleset: str
    index: int  # from 0
    count: int
    text: str
    image: Picture


def _readable(option: Option, value: Any) -> str:
    """An option's value as players read it, in the current language."""
    if option.kind == "map":
        return map_title(str(value.get("name", "custom")) if isinstance(value, Mapping) else value)
    return tr(option.label(value))
