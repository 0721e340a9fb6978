"""What each page of the site shows, gathered from the database through the bots' own game master and
presenter: a page never reads an order the players have not all seen resolved (the orders table is
never read here; past turns go through the ruleset's ``public_orders``, which keeps running standing
orders hidden)."""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass, field

from babel.dates import format_datetime
from markupsafe import Markup

from i18n import ENGLISH, current, joined, tr
from service.markup import describe_time, in_tournament, result_lines
from service.models import CANCELLED, FINISHED, LOBBY, RUNNING, Game
from service.ops.history import PastTurn
from service.presenter import Presenter, SeatLine
from web.markup import html, unmarked

LATEST_FINISHED = 50  # finished games a server's page lists, newest first
HTML_LANGUAGE = {ENGLISH: "en", "uk": "uk", "zh_Hans": "zh-Hans"}


def moment(timestamp: float) -> str:
    """A time as the page's language writes it, in UTC (the page turns it into the visitor's own)."""
    return _written(timestamp, current())


@functools.lru_cache(maxsize=4096)
def _written(timestamp: float, language: str) -> str:
    """A game's deadline is written on every page made until it passes: written once (Babel takes a
    third of a millisecond)."""
    return (
        format_datetime(dt.datetime.fromtimestamp(timestamp, dt.UTC), "medium", tzinfo=dt.UTC, locale=language) + " UTC"
    )


def iso(timestamp: float) -> str:
    """A time as HTML's ``datetime`` attribute takes it."""
    return dt.datetime.fromtimestamp(timestamp, dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class Turn:
    """A resolved turn as the slider shows it."""

    number: int
    of: int  # resolved turns so far
    heading: Markup
    lines: list[Markup]
    orders: list[Markup]
    board: str  # the image's address
    alt: str

    def as_json(self) -> dict:
        return {
            "number": self.number,
            "of": self.of,
            "heading": str(self.heading),
            "lines": [str(line) for line in self.lines],
            "orders": [str(line) for line in self.orders],
            "board": self.board,
            "alt": self.alt,
        }


@dataclass(frozen=True)
class GamePage:
    title: str
    status: str
    game: Game
    seats: list[SeatLine]
    clock: str
    options: str
    deadline: float | None
    result: list[str]
    board: str | None  # the current board's address, None before the game starts
    alt: str
    thread: str  # the game's thread (or channel) in Discord
    seats_html: Markup  # the players' table, made with the seats (empty without them)
    turn_html: Markup  # the turn slider, made with the turn shown (empty before the first)
    waiting: list[str] = field(default_factory=list)


def status_of(presenter: Presenter, game: Game) -> str:
    """Where the game is; a tournament's game says which tournament and round."""
    status = _status(presenter, game)
    return status if game.row.tournament is None else f"{status} · {in_tournament(game.row.tournament)}"


def _status(presenter: Presenter, game: Game) -> str:
    row = game.row
    if row.status == LOBBY:
        return tr("Waiting for players ({joined}/{most})", joined=len(game.players), most=row.max_players)
    if row.status == CANCELLED:
        return tr("Cancelled.")
    if row.status == FINISHED:
        reason = (row.result or {}).get("reason")
        return tr("Game over: {reason}.", reason=tr(reason)) if reason else tr("Game over.")
    return tr("⏸️ paused") if row.paused_at else presenter.turn_label(game)


def turn_of(presenter: Presenter, game: Game, past: PastTurn, resolved: int, board: str) -> Turn:
    heading, *lines = presenter.past_turn_lines(game, past, shown=unmarked)
    orders = presenter.past_orders_lines(game, past, shown=unmarked)[1:]
    return Turn(
        past.number,
        resolved,
        html(heading),
        [html(line) for line in lines],
        [html(line) for line in orders],
        board,
        tr("The board after {turn}", turn=html(heading).striptags()),
    )


def thread_link(game: Game) -> str:
    return f"https://discord.com/channels/{game.row.guild_id}/{game.row.thread_id or game.row.channel_id}"


@dataclass(frozen=True)
class Parts:
    """What a game's page shows that changes only with its position and players: the seats with
    their holdings, and the resolved turn shown (None before the first), each with its part of the
    page already made (most of a page's making: an order, which changes the page, changes neither)."""

    seats: list[SeatLine]
    turn: Turn | None
    seats_html: Markup
    turn_html: Markup


def game_page(presenter: Presenter, game: Game, parts: Parts, base: str, alt: str) -> GamePage:
    row = game.row
    started = row.state_text is not None and row.status in (RUNNING, FINISHED)
    waiting = (
        [game.names()[seat] for seat in sorted(game.waiting_seats) if seat < len(game.names())]
        if row.status == RUNNING
        else []
    )
    return GamePage(
        title=presenter.title(game),
        status=status_of(presenter, game),
        game=game,
        seats=parts.seats,
        clock=describe_time(row.time),
        options=presenter.options_text(game),
        deadline=row.deadline_at if row.status == RUNNING and not row.paused_at else None,
        result=result_lines(game, mentions=False) if row.status == FINISHED else [],
        board=f"{base}/board.png?v={row.seq}" if started else None,
        alt=alt,
        thread=thread_link(game),
        seats_html=parts.seats_html,
        turn_html=parts.turn_html,
        waiting=waiting,
    )


@dataclass(frozen=True)
class Listed:
    """A game in a server's list."""

    title: str
    status: str
    players: str
    link: str


def listed(presenter: Presenter, game: Game, link: str) -> Listed:
    names = [p.shown_name for p in game.players if p.seat is not None or game.row.status == LOBBY]
    return Listed(presenter.title(game), status_of(presenter, game), joined(names) or "—", link)


def server_lists(games: list[Game]) -> tuple[list[Game], list[Game]]:
    """The server's open games (lobbies first, then by number), and its latest finished ones."""
    open_games = sorted((g for g in games if g.row.status in (LOBBY, RUNNING)), key=lambda g: (g.row.status, g.id))
    ended = sorted((g for g in games if g.row.status == FINISHED), key=lambda g: -g.id)
    return open_games, ended[:LATEST_FINISHED]
