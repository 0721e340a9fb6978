"""How games look in Discord: the lobby card, the game card, the end result."""

from __future__ import annotations

import discord

from cogs.common import COLOUR_EMOJI, when
from service.gameoptions import duration
from service.models import LOBBY, RUNNING, Game, PlayerRow, TimeSettings
from service.presenter import Presenter

STATUS_COLOUR = {"lobby": 0x3B82F6, "running": 0x22C55E, "finished": 0x6B7280, "cancelled": 0x6B7280}


def describe_time(time: TimeSettings) -> str:
    if time.mode == "round":
        return f"{duration(time.round_seconds)} per turn; {time.missed_limit} missed in a row remove a player"
    if time.mode == "bank":
        return f"{duration(time.bank_seconds)} bank per player"
    if time.mode == "increment":
        return f"{duration(time.bank_seconds)} bank + {duration(time.increment_seconds)} per turn"
    return "no time limit"


def game_embed(game: Game, presenter: Presenter) -> discord.Embed:
    """The game's card: in the lobby, on the channel's lobby message (kept up to date), and for /game info."""
    row = game.row
    embed = discord.Embed(title=presenter.title(game), colour=STATUS_COLOUR[row.status])
    if row.status == LOBBY:
        embed.description = (
            f"Waiting for players ({len(game.players)}/{row.max_players}, "
            f"at least {row.min_players}). Press **Join**; the creator presses **Start**."
        )
    elif row.status == RUNNING:
        if row.paused_at:
            state = "⏸️ paused"
        else:
            state = "no deadline" if row.deadline_at is None else f"deadline {when(row.deadline_at)}"
        waiting = [_who(game.player_at(seat), seat) for seat in sorted(game.waiting_seats)]
        embed.description = f"{presenter.turn_label(game)} · {state}"
        if presenter.order_hint(game):
            embed.description += f"\nTo play: {presenter.order_hint(game)}."
        if waiting:
            embed.description += "\nWaiting on: " + ", ".join(waiting)
    else:
        reason = (row.result or {}).get("reason")
        embed.description = (
            ("Game over" + (f": {reason}." if reason else ".")) if row.status == "finished" else "Cancelled."
        )
    out_seats = presenter.departed_seats(game)
    embed.add_field(name="Players", value=_player_lines(game, out_seats)[:1024] or "nobody yet", inline=False)
    embed.add_field(name="Clock", value=describe_time(row.time), inline=True)
    options = presenter.options_text(game) + ("" if row.rated else "; unrated (not on leaderboards)")
    embed.add_field(name="Options", value=options[:1024], inline=True)
    if row.result:
        embed.add_field(name="Result", value="\n".join(result_lines(game))[:1024], inline=False)
    embed.set_footer(text=f"Game #{row.id}")
    return embed


def _who(player: PlayerRow | None, seat: int) -> str:
    mark = COLOUR_EMOJI[seat] if seat < len(COLOUR_EMOJI) else "•"
    if player is None:
        return f"{mark} seat {seat}"
    return f"{mark} " + (f"<@{player.user_id}>" if player.user_id else f"🤖 {player.name}")


def _player_lines(game: Game, out_seats: frozenset[int]) -> str:
    lines = []
    row = game.row
    players = sorted(game.players, key=lambda p: (p.seat is None, p.seat if p.seat is not None else 0, p.id))
    for player in players:
        who = f"<@{player.user_id}>" if player.user_id else f"🤖 {player.name}"
        mark = COLOUR_EMOJI[player.seat] if player.seat is not None else "•"
        notes = []
        if row.status == RUNNING and player.seat is not None:
            if player.seat in out_seats:
                notes.append("out")
            elif player.seat in game.passed_seats:
                notes.append("✅ done")
            elif player.seat in game.acting_seats:
                notes.append("⏳ to play")
            if player.seat not in out_seats and not player.is_ai:
                notes += _clock_notes(game, player)
        lines.append(f"{mark} {who}" + (" — " + " · ".join(notes) if notes else ""))
    return "\n".join(lines)


def _clock_notes(game: Game, player: PlayerRow) -> list[str]:
    """Missed turns against the limit; what is left of a time bank (running out when, if it runs)."""
    row, notes = game.row, []
    if row.time.mode == "round" and player.missed:
        notes.append(f"missed {player.missed} of {row.time.missed_limit} in a row")
    if player.bank_left is not None:
        running = player.seat in game.waiting_seats and row.turn_started_at is not None and not row.paused_at
        if running:
            notes.append(f"clock runs out <t:{int(row.turn_started_at + player.bank_left)}:R>")
        else:
            notes.append(f"{duration(player.bank_left)} left on the clock")
    return notes


def result_lines(game: Game) -> list[str]:
    result = game.row.result or {}
    names = {p.seat: (f"<@{p.user_id}>" if p.user_id else p.name) for p in game.players if p.seat is not None}
    lines = []
    if result.get("draw"):
        lines.append("🤝 Draw between " + ", ".join(names[s] for s in result["winners"]))
    elif result.get("winners"):
        lines.append(f"🏆 Winner: {names[result['winners'][0]]}")
    place = 1
    for group in result.get("ranking", []):
        for seat in group:
            points = result.get("points", {}).get(str(seat))
            lines.append(
                f"{place}. {names[seat]}"
                + (f" — {points} point{'' if points == 1 else 's'}" if points is not None else "")
            )
        place += len(group)
    return lines
