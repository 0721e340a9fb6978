"""Who plays whom in a tournament's next round, and the standings with their tiebreaks. Pure: the
tournament's rows and rounds are the game master's (``service.ops``); players are numbers here.

- Swiss (two-player games): players of equal points meet where they can, a pairing is never repeated
  while another pairing of the round avoids it, each player gets the seat he had less often (the
  first seat moves first), and an odd count gives one bye a round, to a player with the fewest points
  among those who have had none (never twice to one player while another has had none). The round is
  one maximum-weight matching (networkx) whose weights put these in that order.
- Round robin: everyone meets everyone once (the circle method), each player's first seats within one
  of his second seats, a bye a round for an odd count.
- Pools (multiplayer games): tables of the game's sizes, filled by points, so that the leaders meet.
- Standings: points, then Buchholz (the sum of the opponents' points), then Sonneborn–Berger (the
  points of the opponents beaten, and half of those drawn with).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

BYE_POINTS = 1.0  # a bye counts as a win (and meets no one: no tiebreak from it)


@dataclass(frozen=True)
class Game:
    """One game of a round: ``first`` and ``second`` by seat (``second`` None: ``first``'s bye), and
    ``first``'s points once it is over (1 a win, 0.5 a draw, 0 a loss; None while it is played)."""

    first: int
    second: int | None
    score: float | None = None


@dataclass(frozen=True)
class Standing:
    player: int
    points: float
    buchholz: float
    sonneborn_berger: float


def points(games: Sequence[Game]) -> defaultdict[int, float]:
    """Each player's points from the games over."""
    total: defaultdict[int, float] = defaultdict(float)
    for game in games:
        if game.score is None:
            continue
        total[game.first] += game.score
        if game.second is not None:
            total[game.second] += 1 - game.score
    return total


def standings(players: Sequence[int], games: Sequence[Game]) -> list[Standing]:
    """The players by points, Buchholz, Sonneborn–Berger, then their number (who entered first)."""
    total = points(games)
    buchholz: defaultdict[int, float] = defaultdict(float)
    berger: defaultdict[int, float] = defaultdict(float)
    for game in games:
        if game.score is None or game.second is None:
            continue
        for player, opponent, scored in (
            (game.first, game.second, game.score),
            (game.second, game.first, 1 - game.score),
        ):
            buchholz[player] += total[opponent]
            berger[player] += scored * total[opponent]
    ranked = [Standing(p, total[p], buchholz[p], berger[p]) for p in players]
    return sorted(ranked, key=lambda s: (-s.points, -s.buchholz, -s.sonneborn_berger, players.index(s.player)))


BYE = "bye"  # the matching's stand-in for sitting the round out


def swiss_round(players: Sequence[int], games: Sequence[Game]) -> list[Game]:
    """The next Swiss round for ``players`` (those still in, in order of entry) after ``games``: the
    games by table, the bye (if any) last. Seat: whoever had the first seat less often takes it."""
    total = points(games)
    met = {frozenset((g.first, g.second)) for g in games if g.second is not None}
    byes = Counter(g.first for g in games if g.second is None)
    lean = Counter(g.first for g in games if g.second is not None)  # > 0: has had the first seat more
    lean.subtract(g.second for g in games if g.second is not None)
    # What a pairing costs, as one number whose parts never outweigh the part before: a bye beyond
    # the fewest, a repeat, half points apart squared (the bye as a game against no one with no
    # points), then a seat both want.
    seat_scale = len(players) + 1
    apart_most = max((round(2 * total[p]) for p in players), default=0) ** 2
    repeat_scale = seat_scale * (apart_most * len(players) + 1)
    bye_scale = repeat_scale * (len(players) + 1)
    base = bye_scale * (len(players) + 1)  # every edge weighs more than none: everyone is paired
    graph: nx.Graph[int | str] = nx.Graph()
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            same_seat = lean[a] * lean[b] > 0
            cost = repeat_scale * (frozenset((a, b)) in met) + seat_scale * round(2 * (total[a] - total[b])) ** 2
            graph.add_edge(a, b, weight=base - cost - same_seat)
    if len(players) % 2:
        fewest = min(byes[p] for p in players)
        for p in players:  # the bye: to one of the fewest byes, the fewer points the better
            graph.add_edge(p, BYE, weight=base - bye_scale * (byes[p] - fewest) - seat_scale * round(2 * total[p]) ** 2)
    tables: list[tuple[int, int]] = []
    bye: list[Game] = []
    for pair in nx.max_weight_matching(graph, maxcardinality=True):
        paired = [p for p in pair if isinstance(p, int)]
        if len(paired) == 1:
            bye.append(Game(paired[0], None, BYE_POINTS))
            continue
        first, second = sorted(paired, key=lambda p: (lean[p], players.index(p)))
        tables.append((first, second))
    tables.sort(key=lambda t: (-max(total[t[0]], total[t[1]]), players.index(t[0])))
    return [Game(first, second) for first, second in tables] + bye


def round_robin(players: Sequence[int]) -> list[list[Game]]:
    """Every round of a round robin: each player meets each other once, the fixed player's seat
    alternating and every player's seats balanced within one; a bye a round for an odd count."""
    circle: list[int | None] = [*players, *([None] if len(players) % 2 else [])]
    rounds = []
    for number in range(len(circle) - 1):
        games: list[Game] = []
        bye: list[Game] = []
        for table in range(len(circle) // 2):
            a, b = circle[table], circle[-1 - table]
            if table == 0 and number % 2:
                a, b = b, a
            if a is not None and b is not None:
                games.append(Game(a, b))
            else:
                bye.extend(Game(p, None, BYE_POINTS) for p in (a, b) if p is not None)
        rounds.append(games + bye)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def pool_tables(players: Sequence[int], table_points: Mapping[int, float], sizes: Sequence[int]) -> list[list[int]]:
    """Players seated at tables of ``sizes`` (the player counts the game takes), the best placed
    together: by points, then entry. As few tables as the largest size allows, as even as they go;
    empty when the players fit no table."""
    ranked = sorted(players, key=lambda p: (-table_points.get(p, 0), players.index(p)))
    largest = max(sizes)
    for count in range(-(-len(ranked) // largest), len(ranked) // min(sizes) + 1):
        base, extra = divmod(len(ranked), count)
        split = [base + 1] * extra + [base] * (count - extra)
        if all(size in sizes for size in split):
            tables, start = [], 0
            for size in split:
                tables.append(ranked[start : start + size])
                start += size
            return tables
    return []
