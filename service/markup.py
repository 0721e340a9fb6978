"""Text as Discord renders it for each reader (colour marks, mentions, timestamps), shared by the
game's cards and its posts."""

from __future__ import annotations

from i18n import joined, ntr, tr
from service.daily import Daily
from service.gameoptions import DAY, duration
from service.lookalike import told_apart
from service.models import Game, InTournament, PlayerRow, TimeSettings

COLOUR_EMOJI = ("🟥", "🟦", "🟩", "🟧", "🟪", "🟫")


def when(timestamp: float | None) -> str:
    """A deadline as Discord renders it for each reader: absolute and relative, in his own time zone."""
    if timestamp is None:
        return tr("no deadline")
    return f"<t:{int(timestamp)}:f> (<t:{int(timestamp)}:R>)"


def player_name(game: Game, player: PlayerRow) -> str:
    """A player's name as text shows it: with his seat number where the board gives it one."""
    return player.shown_name if player.seat is None else told_apart(game.names())[player.seat]


def called(game: Game, player: PlayerRow) -> str:
    """A player as cards and posts call him: a member by mention (Discord shows his name), a computer by name."""
    return f"<@{player.user_id}>" if player.user_id else f"🤖 {player_name(game, player)}"


def result_lines(game: Game, *, mentions: bool = True) -> list[str]:
    """A finished game's result: the winner or the draw, then every seat's place and points; members
    by mention (Discord shows their names), or by name where no mention is read (a web page)."""
    result = game.row.result or {}
    names = {
        p.seat: (f"<@{p.user_id}>" if p.user_id and mentions else player_name(game, p))
        for p in game.players
        if p.seat is not None
    }
    lines = []
    if result.get("draw"):
        lines.append(tr("🤝 Draw between {players}", players=joined(names[s] for s in result["winners"])))
    elif result.get("winners"):
        lines.append(tr("🏆 Winner: {player}", player=names[result["winners"][0]]))
    place = 1
    for group in result.get("ranking", []):
        for seat in group:
            points = result.get("points", {}).get(str(seat))
            scored = " — " + ntr("{n} point", "{n} points", points) if points is not None else ""
            lines.append(f"{place}. {names[seat]}{scored}")
        place += len(group)
    return lines


def describe_time(time: TimeSettings) -> str:
    """The clock, and how long each player may be away (a computer playing for him)."""
    away = (
        tr("away up to {days} per player", days=duration(time.away_days * DAY))
        if time.away_days
        else tr("no time away")
    )
    daily = tr("turns end at {at}", at=Daily.parse(time.daily).shown()) + "; " if time.daily else ""
    return f"{daily}{_clock(time)}; {away}"


def _clock(time: TimeSettings) -> str:
    if time.mode == "round":
        return ntr(
            "{per_turn} per turn; {n} missed turn in a row removes a player",
            "{per_turn} per turn; {n} missed in a row remove a player",
            time.missed_limit,
            per_turn=duration(time.round_seconds),
        )
    if time.mode == "bank":
        return tr("{bank} bank per player", bank=duration(time.bank_seconds))
    if time.mode == "increment":
        return tr(
            "{bank} bank + {increment} per turn",
            bank=duration(time.bank_seconds),
            increment=duration(time.increment_seconds),
        )
    return tr("no time limit")


def in_tournament(where: InTournament) -> str:
    """ "Tournament #3, round 2": a tournament's game says where it is played."""
    return tr("Tournament #{number}, round {round}", number=where.number, round=where.round)
