""" "A fairness verdict: … computers play it against themselves in the background (seeded …): wins per
seat with a chi-square test, a verdict (fair / favours seat N / too few decisive games) and the
figures, shown on the map's card; a map can be used before its verdict comes, marked 'fairness not
yet measured'." """

from __future__ import annotations

from service.fairness import DECISIVE_AT_LEAST, LEVEL, Verdict, tally
from tests.service.conftest import ALICE, GUILD
from tests.service.test_server_maps import shipped_file


def test_even_wins_are_fair_lopsided_ones_favour_a_seat_and_few_say_nothing():
    assert tally([0, 1] * 10, 2).text().startswith("fairness: fair (p = 1.00: seat wins 10, 10; 0 draws in 20 games")
    lopsided = tally([1] * 18 + [0] * 2 + [None] * 3, 2)
    assert lopsided.favoured == 1 and lopsided.p < 0.01 and lopsided.draws == 3
    assert lopsided.text().startswith("fairness: favours seat 2 (p = 0.00: seat wins 2, 18; 3 draws in 23 games")
    few = tally([1] * (DECISIVE_AT_LEAST - 1) + [None] * 30, 2)
    assert few.favoured is None and "too few decisive games" in few.text()
    assert Verdict.from_dict(lopsided.to_dict()) == lopsided


async def test_a_new_map_is_measured_in_the_background_and_its_verdict_kept(env):
    env.master.maps.verdict_games = 4
    made = await env.master.maps.upload(GUILD, ALICE, "conquest", shipped_file("conquest", "duel"), "Arena")
    assert made.verdict is None  # usable at once, not measured yet
    measured = await env.master.maps.measure_next()
    assert measured is not None and measured.id == made.id
    verdict = Verdict.from_dict(measured.verdict)
    assert verdict.games == 4 and verdict.level == LEVEL and sum(verdict.wins) + verdict.draws == 4
    assert (await env.master.maps.named(GUILD, "arena")).verdict == measured.verdict
    assert await env.master.maps.measure_next() is None  # nothing left to measure

    await env.master.maps.publish(GUILD, "Arena", ALICE, True)
    copied = await env.master.maps.copy(GUILD + 1, made.id, ALICE, None)
    assert copied.verdict == measured.verdict  # the same map: not measured again
