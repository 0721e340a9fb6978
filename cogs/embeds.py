"""How games look in Discord: the lobby card, the game card, the end result."""

from __future__ import annotations

import discord

from i18n import joined, tr
from service.gameoptions import duration
from service.markup import COLOUR_EMOJI, called, describe_time, in_tournament, result_lines, when
from service.models import LOBBY, RUNNING, Game, PlayerRow
from service.ops.lobby import counts_text
from service.presenter import Presenter

STATUS_COLOUR = {"lobby": 0x3B82F6, "running": 0x22C55E, "finished": 0x6B7280, "cancelled": 0x6B7280}


def game_embed(game: Game, presenter: Presenter) -> discord.Embed:
    """The game's card: in the lobby, on the channel's lobby message (kept up to date), and for /game info."""
    row = game.row
    embed = discord.Embed(title=presenter.title(game), colour=STATUS_COLOUR[row.status])
    if row.status == LOBBY:
        embed.description = tr(
            "Waiting for players ({joined}/{most}, at least {least}). Press **Join**; the creator presses **Start**.",
            joined=len(game.players),
            most=row.max_players,
            least=row.min_players,
        )
        if counts := presenter.seat_counts(game):
            embed.description += "\n" + tr("Its map starts with {counts} players.", counts=counts_text(counts))
    elif row.status == RUNNING:
        if row.paused_at:
            state = tr("⏸️ paused")
        else:
            state = tr("no deadline") if row.deadline_at is None else tr("deadline {when}", when=when(row.deadline_at))
        waiting = [_who(game, game.player_at(seat), seat) for seat in sorted(game.waiting_seats)]
        embed.description = f"{presenter.turn_label(game)} · {state}"
        if presenter.order_hint(game):
            embed.description += "\n" + tr("To play: {hint}.", hint=tr(presenter.order_hint(game)))
        if waiting:
            embed.description += "\n" + tr("Waiting on: {players}", players=joined(waiting))
    else:
        reason = (row.result or {}).get("reason")
        if row.status != "finished":
            embed.description = tr("Cancelled.")
        else:
            embed.description = tr("Game over: {reason}.", reason=tr(reason)) if reason else tr("Game over.")
    out_seats = presenter.departed_seats(game)
    players = _player_lines(game, out_seats, presenter)[:1024] or tr("nobody yet")
    embed.add_field(name=tr("Players"), value=players, inline=False)
    embed.add_field(name=tr("Clock"), value=describe_time(row.time), inline=True)
    options = presenter.options_text(game) + ("" if row.rated else tr("; unrated (not on leaderboards)"))
    embed.add_field(name=tr("Options"), value=options[:1024], inline=True)
    if generated := presenter.generated_map(game):
        embed.add_field(name=tr("Map"), value=generated, inline=True)
    if row.result:
        embed.add_field(name=tr("Result"), value="\n".join(result_lines(game))[:1024], inline=False)
    footer = tr("Game #{number}", number=row.id)
    if row.tournament is not None:
        footer += " · " + in_tournament(row.tournament)
    embed.set_footer(text=footer)
    return embed


def _who(game: Game, player: PlayerRow | None, seat: int) -> str:
    mark = COLOUR_EMOJI[seat] if seat < len(COLOUR_EMOJI) else "•"
    if player is None:
        return f"{mark} " + tr("seat {number}", number=seat)
    return f"{mark} {called(game, player)}"


def _player_lines(game: Game, out_seats: frozenset[int], presenter: Presenter) -> str:
    lines = []
    row = game.row
    players = sorted(game.players, key=lambda p: (p.seat is None, p.seat if p.seat is not None else 0, p.id))
    for player in players:
        who = called(game, player)
        mark = COLOUR_EMOJI[player.seat] if player.seat is not None else "•"
        notes = [player.reliability.shown()] if not player.is_ai and player.reliability.counted else []
        if player.left_seat is not None:
            notes.append(tr("left; another plays on in the seat {mark}", mark=COLOUR_EMOJI[player.left_seat]))
        if row.status == RUNNING and player.seat is not None:
            if player.seat in out_seats:
                notes.append(tr("out"))
            elif player.seat in game.passed_seats:
                notes.append(tr("✅ done"))
            elif player.seat in game.acting_seats:
                notes.append(tr("⏳ to play"))
            if player.seat not in out_seats and not player.is_ai:
                notes += _clock_notes(game, player)
                if away := presenter.away_note(game, player):
                    notes.append(away)
        lines.append(f"{mark} {who}" + (" — " + " · ".join(notes) if notes else ""))
    return "\n".join(lines)


def _clock_notes(game: Game, player: PlayerRow) -> list[str]:
    """Missed turns against the limit; what is left of a time bank (running out when, if it runs)."""
    row, notes = game.row, []
    if row.time.mode == "round" and player.missed:
        notes.append(tr("missed {count} of {limit} in a row", count=player.missed, limit=row.time.missed_limit))
    if player.bank_left is not None:
        started = row.turn_started_at
        if player.seat in game.waiting_seats and started is not None and not row.paused_at:  # the clock runs
            notes.append(tr("clock runs out {when}", when=f"<t:{int(started + player.bank_left)}:R>"))
        else:
            notes.append(tr("{left} left on the clock", left=duration(player.bank_left)))
    return notes
