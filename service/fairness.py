"""Is a map fair? Computers play it against themselves, seeded, every seat the same level; the wins
of each seat are tested against "every seat wins equally often" with a chi-square test (in closed
form: no scipy here). A map's verdict: fair, favours a seat, or too few decisive games to say."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from engine import Ruleset
from i18n import joined, level_title, tr

GAMES = 40  # self-play games a verdict plays at most
LEVEL = "Medium"  # strong enough to use a map's features, cheap enough for tens of games
TURN_LIMIT = 400  # turns before an unfinished game counts as a draw
SIGNIFICANT = 0.05  # p below it: a seat is favoured
DECISIVE_AT_LEAST = 10  # decisive games a verdict needs


def chi2_sf(x: float, dof: int) -> float:
    """P(X >= x) for X chi-square with ``dof`` degrees of freedom: the regularized upper gamma
    Q(dof/2, x/2), which for whole ``dof`` is a finite sum (plus erfc when ``dof`` is odd)."""
    if dof < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {dof}")
    if x <= 0:
        return 1.0
    half = x / 2
    if dof % 2 == 0:
        term = total = math.exp(-half)
        for j in range(1, dof // 2):
            term *= half / j
            total += term
        return min(total, 1.0)
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(half) * math.exp(-half) / math.gamma(1.5)
    for j in range(dof // 2):
        total += term
        term *= half / (j + 1.5)
    return min(total, 1.0)


def uniform_p(counts: Sequence[int]) -> tuple[float, float]:
    """Chi-square statistic and p-value of ``counts`` against equal expected counts."""
    total = sum(counts)
    if total == 0 or len(counts) < 2:
        return 0.0, 1.0
    expected = total / len(counts)
    statistic = sum((n - expected) ** 2 / expected for n in counts)
    return statistic, chi2_sf(statistic, len(counts) - 1)


@dataclass(frozen=True)
class Verdict:
    """Wins per seat over ``games`` self-play games at ``level`` (``draws``: no single winner)."""

    wins: tuple[int, ...]
    draws: int
    games: int
    level: str
    failed: bool = False  # its games could not be played: nothing measured

    @property
    def p(self) -> float:
        return uniform_p(self.wins)[1]

    @property
    def favoured(self) -> int | None:
        """The seat that wins most, if it does so significantly."""
        if not self.measured or self.p >= SIGNIFICANT:
            return None
        return max(range(len(self.wins)), key=lambda seat: self.wins[seat])

    @property
    def measured(self) -> bool:
        return sum(self.wins) >= DECISIVE_AT_LEAST

    def to_dict(self) -> dict[str, Any]:
        """As JSON keeps it (the wins a list)."""
        return {**asdict(self), "wins": list(self.wins)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Verdict:
        return cls(tuple(data["wins"]), data["draws"], data["games"], data["level"], data.get("failed", False))

    def text(self) -> str:
        """ "fair (p = 0.62: seat wins 11, 9; 2 draws in 22 games at Medium)" """
        figures = tr(
            "p = {p}: seat wins {wins}; {draws} draws in {games} games at {level}",
            p=f"{self.p:.2f}",
            wins=joined([str(n) for n in self.wins]),
            draws=self.draws,
            games=self.games,
            level=level_title(self.level),
        )
        if self.failed:
            return tr("fairness: cannot be measured (the computers' games on it fail)")
        if not self.measured:
            return tr("fairness: too few decisive games to say ({figures})", figures=figures)
        if self.favoured is not None:
            return tr("fairness: favours seat {seat} ({figures})", seat=self.favoured + 1, figures=figures)
        return tr("fairness: fair ({figures})", figures=figures)


def self_play(rs: Ruleset, options: Mapping[str, Any], players: int, seed: int, level: str) -> int | None:
    """One seeded game between computers of ``level``: the seat that won alone, or None."""
    state = rs.setup(players, options, seed=seed)
    for _ in range(TURN_LIMIT):
        if (outcome := rs.outcome(state)) is not None:
            return None if outcome.draw or len(outcome.winners) != 1 else outcome.winners[0]
        orders = {seat: rs.ai_orders(state, seat, seed, level=level) for seat in rs.acting_players(state)}
        state = rs.resolve(state, orders).state
    return None


def tally(winners: Sequence[int | None], players: int) -> Verdict:
    """The verdict of games won by ``winners`` (None: no single winner)."""
    wins = [0] * players
    for winner in winners:
        if winner is not None:
            wins[winner] += 1
    return Verdict(tuple(wins), sum(w is None for w in winners), len(winners), LEVEL)


def measure(rs: Ruleset, options: Mapping[str, Any], players: int, games: int = GAMES) -> Verdict:
    """The verdict of ``games`` seeded games, played here (a bench's way; the bot plays each game as a
    long job of its pool)."""
    return tally([self_play(rs, options, players, seed, LEVEL) for seed in range(games)], players)


def verdict_text(stored: Mapping[str, Any] | None) -> str:
    """A map's fairness as its facts say it, from its stored verdict (None: not measured yet)."""
    return Verdict.from_dict(stored).text() if stored is not None else tr("fairness not yet measured")
