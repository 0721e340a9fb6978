""" "Pairing property tests (hypothesis): no repeat pairings while avoidable, score groups respected,
byes never twice to one player" — each Swiss round checked against every pairing the round could
have had (small fields, found by brute force); round robins, pools and the tiebreaks."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from service.pairing import BYE_POINTS, Game, points, pool_tables, round_robin, standings, swiss_round


def pairings(players: list[int]) -> Iterator[list[tuple[int, int | None]]]:
    """Every way to pair ``players`` (one bye, to anyone, for an odd count)."""
    if not players:
        yield []
        return
    if len(players) % 2:
        for bye in players:
            rest = [p for p in players if p != bye]
            for paired in pairings(rest):
                yield [*paired, (bye, None)]
        return
    first, rest = players[0], players[1:]
    for partner in rest:
        for paired in pairings([p for p in rest if p != partner]):
            yield [(first, partner), *paired]


def cost(pairing, games: list[Game]) -> tuple[int, int, int]:
    """What Swiss pairing minds, most first: byes beyond the fewest, repeated pairings, points apart
    (the bye as a game against no one with no points: it goes to the fewest points it can)."""
    met = Counter(frozenset((g.first, g.second)) for g in games if g.second is not None)
    byes = Counter(g.first for g in games if g.second is None)
    total = points(games)
    players = [p for pair in pairing for p in pair if p is not None]
    fewest = min(byes[p] for p in players)
    extra_byes = sum(byes[a] - fewest for a, b in pairing if b is None)
    repeats = sum(met[frozenset((a, b))] > 0 for a, b in pairing if b is not None)
    apart = sum(round(2 * (total[a] - (total[b] if b is not None else 0))) ** 2 for a, b in pairing)
    return extra_byes, repeats, apart


@settings(max_examples=60, deadline=None, derandomize=True)
@given(count=st.integers(2, 9), rounds=st.integers(1, 6), seed=st.integers(0, 2**32))
def test_each_swiss_round_is_the_best_pairing_the_field_allows(count, rounds, seed):
    rng = random.Random(seed)
    players = list(range(100, 100 + count))
    games: list[Game] = []
    for _ in range(rounds):
        made = swiss_round(players, games)
        seated = Counter(p for g in made for p in (g.first, g.second) if p is not None)
        assert seated == Counter(players), made  # everyone plays or sits out, once
        assert sum(g.second is None for g in made) == count % 2
        ours = cost([(g.first, g.second) for g in made], games)
        best = min(cost(pairing, games) for pairing in pairings(players))
        assert ours[:2] == best[:2], (made, games)  # no bye twice, no repeat, while avoidable
        assert ours == best, (made, games)  # and then the fewest points apart: score groups kept
        games += [
            g if g.second is None else Game(g.first, g.second, rng.choice((0.0, 0.5, 1.0)))  # games end
            for g in made
        ]


def test_a_bye_goes_to_the_last_of_those_without_one_and_counts_a_win():
    games = [Game(1, 2, 1.0), Game(3, None, BYE_POINTS)]
    made = swiss_round([1, 2, 3], games)
    assert made[-1] == Game(2, None, BYE_POINTS)  # 2 has no bye and the fewest points
    assert points([*games, made[-1]])[2] == 1.0


def test_seats_go_to_whoever_had_the_first_seat_less_often():
    made = swiss_round([1, 2], [Game(1, 3, 1.0), Game(4, 2, 1.0)])
    assert made == [Game(2, 1)]


@given(count=st.integers(2, 12))
def test_a_round_robin_meets_everyone_once_with_seats_even(count):
    players = list(range(count))
    rounds = round_robin(players)
    assert len(rounds) == count - 1 + count % 2
    met = Counter(frozenset((g.first, g.second)) for r in rounds for g in r if g.second is not None)
    assert set(met.values()) == {1} and len(met) == count * (count - 1) // 2
    for games in rounds:
        assert sorted(p for g in games for p in (g.first, g.second) if p is not None) == players
    firsts = Counter(g.first for r in rounds for g in r if g.second is not None)
    seconds = Counter(g.second for r in rounds for g in r if g.second is not None)
    assert all(abs(firsts[p] - seconds[p]) <= 1 for p in players)


@given(count=st.integers(1, 40), sizes=st.sets(st.integers(2, 6), min_size=1), data=st.data())
def test_pools_seat_everyone_once_at_tables_the_game_takes_leaders_together(count, sizes, data):
    players = list(range(count))
    scores = {p: data.draw(st.integers(0, 5)) for p in players}
    tables = pool_tables(players, scores, sorted(sizes))
    if not tables:  # no split of the field into allowed sizes
        assert not any(all(size in sizes for size in split) for split in _splits(count, sorted(sizes)) if split), (
            count,
            sizes,
        )
        return
    assert sorted(p for t in tables for p in t) == players and all(len(t) in sizes for t in tables)
    assert max(len(t) for t in tables) - min(len(t) for t in tables) <= 1  # as even as they go
    flat = [scores[p] for t in tables for p in t]
    assert flat == sorted(flat, reverse=True)  # the leaders at the first table


def _splits(count: int, sizes: list[int]) -> Iterator[list[int]]:
    for tables in range(1, count + 1):
        base, extra = divmod(count, tables)
        yield [base + 1] * extra + [base] * (tables - extra)


def test_standings_break_ties_by_buchholz_then_sonneborn_berger():
    """Buchholz: the opponents' points added; Sonneborn–Berger: the points of those beaten, and half
    of those drawn with."""
    games = [Game(1, 2, 1.0), Game(3, 4, 1.0), Game(1, 3, 0.0), Game(2, 4, 0.5)]
    assert dict(points(games)) == {1: 1.0, 2: 0.5, 3: 2.0, 4: 0.5}
    table = standings([1, 2, 3, 4], games)
    assert [s.player for s in table] == [3, 1, 4, 2]  # 4 and 2 tie on points: 4 met the stronger
    by = {s.player: s for s in table}
    assert (by[4].buchholz, by[2].buchholz) == (2.0 + 0.5, 1.0 + 0.5)
    assert by[1].sonneborn_berger == 0.5 and by[3].sonneborn_berger == 0.5 + 1.0  # beat 2 / beat 4 and 1
    assert by[2].sonneborn_berger == 0.5 * 0.5  # drew with 4
    level = [Game(1, 2, 1.0), Game(3, 4, 1.0), Game(2, 3, 1.0), Game(4, 1, 1.0)]  # all on 1, Buchholz 2
    assert [s.player for s in standings([1, 2, 3, 4], level)] == [1, 2, 3, 4]  # SB equal too: entry
