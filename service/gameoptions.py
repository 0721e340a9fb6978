"""The options a game is opened with, in one schema: the ruleset's own (``options_schema``) and the
game master's table options (seats, clock, missed turns). The bot offers exactly these when a game is
created, and ``settle`` checks them all in one place."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine import Option, OptionError, Ruleset, normalize_options
from i18n import joined, map_title, ntr, option_name, tr
from service.daily import read as daily_time
from service.models import TimeSettings

HOUR, DAY = 3600, 86400
TURN_TIMES = (600, HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 3 * DAY, 7 * DAY)
BANKS = (HOUR, DAY, 3 * DAY, 7 * DAY, 14 * DAY)
CLOCKS = {
    "round": "deadline per turn",
    "bank": "time bank per player",
    "increment": "time bank + turn time added per turn",
    "none": "no time limit",
}


def duration(seconds: float, *, short: bool = False) -> str:
    """``90061`` → "1 day 1 hour" (``short``: "1d 1h", for a legend): the largest units, two at most."""
    parts, left = [], int(seconds)
    for size, (abbreviated, spelled) in UNITS:
        count, left = divmod(left, size)
        if count:
            parts.append(abbreviated(count) if short else spelled(count))
    return " ".join(parts[:2]) or (tr("{n}s", n=0) if short else ntr("{n} second", "{n} seconds", 0))


UNITS = (
    (DAY, (lambda n: tr("{n}d", n=n), lambda n: ntr("{n} day", "{n} days", n))),
    (HOUR, (lambda n: tr("{n}h", n=n), lambda n: ntr("{n} hour", "{n} hours", n))),
    (60, (lambda n: tr("{n}m", n=n), lambda n: ntr("{n} minute", "{n} minutes", n))),
    (1, (lambda n: tr("{n}s", n=n), lambda n: ntr("{n} second", "{n} seconds", n))),
)
"""Time units, largest first: their size in seconds, and how a count of them reads (short, spelled out)."""


REPLACEMENTS = ("off", "computer", "open", "open-auto")


def table_options(rs: Ruleset) -> tuple[Option, ...]:
    """Seats and clocks, the same for every ruleset (the seat range is the ruleset's), plus the chess
    clocks a ruleset offers and their increment."""
    seats = (
        ()
        if rs.min_players == rs.max_players
        else (
            Option(
                "max_players",
                "int",
                rs.max_players,
                "Most players who may join",
                minimum=rs.min_players,
                maximum=rs.max_players,
            ),
        )
    )
    presets = rs.clock_presets
    increment = (
        (Option("increment", "int", 0, "Chess clock: seconds added after each turn", minimum=0, maximum=5),)
        if presets
        else ()
    )
    return (
        *seats,
        Option(
            "clock",
            "choice",
            "round",
            "How turns are timed",
            choices=(*CLOCKS, *(p.name for p in presets)),
            labels=(*CLOCKS.values(), *(f"chess clock: {p.label}" for p in presets)),
        ),
        *increment,
        Option(
            "turn_time",
            "choice",
            DAY,
            "Time for each turn (or added per turn with a bank + increment clock)",
            choices=TURN_TIMES,
            labels=tuple(duration(t) for t in TURN_TIMES),
        ),
        Option(
            "bank",
            "choice",
            3 * DAY,
            "Each player's time bank, for the bank clocks",
            choices=BANKS,
            labels=tuple(duration(b) for b in BANKS),
        ),
        Option("deadline_at", "text", None, "Turns end at this time of day: 20:00 Europe/Kyiv, or auto"),
        Option("missed_turns", "int", 3, "Missed turns in a row that remove a player", minimum=1, maximum=20),
        Option(
            "replacements",
            "choice",
            "off",
            "Who plays on in a seat its player leaves",
            choices=REPLACEMENTS,
            labels=(
                "nobody: the seat leaves the game",
                "a computer",
                "a computer, until a member takes it (the creator approves)",
                "a computer, until a member takes it (first come)",
            ),
        ),
        Option("orders_stand", "bool", False, "At a deadline, orders given but not passed are played"),
        Option(
            "away_days",
            "int",
            14,
            "Days a player may be away, a computer playing for him (0: never)",
            minimum=0,
            maximum=90,
        ),
        Option(
            "min_reliability",
            "int",
            0,
            "Least on-time rate (%) a player needs to join (0: anyone)",
            minimum=0,
            maximum=100,
        ),
        Option("rated", "bool", True, "The game counts for ratings and leaderboards"),
    )


def creation_options(rs: Ruleset) -> tuple[Option, ...]:
    """Everything a game of ``rs`` can be opened with: the ruleset's options first."""
    own = rs.options_schema()
    table = table_options(rs)
    clash = {o.name for o in own} & {o.name for o in table}
    if clash:
        raise OptionError(f"{rs.name} redefines the table options {', '.join(sorted(clash))}")
    return own + table


@dataclass(frozen=True)
class Settings:
    """What ``settle`` makes of the chosen options: the ruleset's, the clock, the seat limit, and
    whether the game counts for ratings."""

    options: dict[str, Any]
    time: TimeSettings
    max_players: int
    rated: bool = True


def _refuse_generated_only(rs: Ruleset, chosen: Mapping[str, Any]) -> None:
    """A chosen map has its own size: an option that shapes a generated map would be ignored beside
    it, so it is refused, saying why, rather than silently dropped."""
    shaping = sorted(o.name for o in rs.options_schema() if o.generated and o.name in chosen)
    if shaping:
        raise OptionError(
            ntr(
                "{names} shapes a generated map only and does not apply with map {map}; leave it out, or leave out map",
                "{names} shape a generated map only and do not apply with map {map}; leave them out, or leave out map",
                len(shaping),
                names=joined(option_name(name) for name in shaping),
                map=map_title(
                    str(mapped.get("name", "custom")) if isinstance(mapped := chosen["map"], Mapping) else str(mapped)
                ),
            )
        )


def settle(rs: Ruleset, chosen: Mapping[str, Any]) -> Settings:
    """Every chosen option checked (unknown names refused), defaults filled in."""
    table_names = {o.name for o in table_options(rs)}
    known = {o.name for o in creation_options(rs)}
    unknown = sorted(set(chosen) - known)
    if unknown:
        raise OptionError(
            ntr(
                "{names} does not apply to {game}; options are: {known}",
                "{names} do not apply to {game}; options are: {known}",
                len(unknown),
                names=joined(unknown),
                game=tr(rs.title),
                known=joined(sorted(option_name(name) for name in known)),
            )
        )
    if chosen.get("map") is not None:
        _refuse_generated_only(rs, chosen)
    table = normalize_options(table_options(rs), {k: v for k, v in chosen.items() if k in table_names})
    options = rs.normalize_options({k: v for k, v in chosen.items() if k not in table_names})
    turn = table["turn_time"]
    preset = next((p for p in rs.clock_presets if p.name == table["clock"]), None)
    if preset is not None:  # a chess clock: the bank runs while a player thinks; no reminders
        time = TimeSettings(
            mode="increment",
            round_seconds=turn,
            bank_seconds=preset.seconds,
            increment_seconds=table["increment"],
            reminder_seconds=0,
            missed_limit=table["missed_turns"],
            orders_stand=table["orders_stand"],
            away_days=table["away_days"],
            min_reliability=table["min_reliability"],
            replacements=table["replacements"],
        )
    else:
        if "increment" in chosen:
            raise OptionError(
                tr(
                    "{increment} goes with a chess clock; choose one with the {clock} option",
                    increment=option_name("increment"),
                    clock=option_name("clock"),
                )
            )
        time = TimeSettings(
            mode=table["clock"],
            round_seconds=turn,
            bank_seconds=table["bank"],
            increment_seconds=turn,
            reminder_seconds=min(HOUR, turn // 4),
            missed_limit=table["missed_turns"],
            orders_stand=table["orders_stand"],
            away_days=table["away_days"],
            min_reliability=table["min_reliability"],
            replacements=table["replacements"],
        )
    if table["deadline_at"] is not None:
        per_turn = CLOCKS["round"]
        if time.mode != "round":
            raise OptionError(
                tr(
                    "{deadline_at} goes with a deadline per turn ({clock}: {round})",
                    deadline_at=option_name("deadline_at"),
                    clock=option_name("clock"),
                    round=tr(per_turn),
                )
            )
        time = replace(time, daily=daily_time(table["deadline_at"]).text())
    return Settings(options, time, table.get("max_players", rs.max_players), table["rated"])
