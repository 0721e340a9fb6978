""" "A fairness verdict: … computers play it against themselves in the background (seeded …): wins per
seat with a chi-square test, a verdict (fair / favours seat N / too few decisive games) and the
figures, shown on the map's card; a map can be used before its verdict comes, marked 'fairness not
yet measured'." """

from __future__ import annotations

from service import fairness
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


async def test_a_map_whose_games_fail_is_said_unmeasurable_and_the_next_is_measured(env, monkeypatch):
    env.master.maps.verdict_games = 2
    broken = await env.master.maps.upload(GUILD, ALICE, "conquest", shipped_file("conquest", "duel"), "Broken")
    fine = await env.master.maps.upload(GUILD, ALICE, "conquest", shipped_file("conquest", "duel"), "Fine")
    played = fairness.self_play

    def failing_on_the_first(rs, options, players, seed, level):
        if options["map"]["name"] == "Broken":
            raise RuntimeError("a computer's bug on this map")
        return played(rs, options, players, seed, level)

    monkeypatch.setattr(fairness, "self_play", failing_on_the_first)
    first = await env.master.maps.measure_next()
    assert first.id == broken.id and "cannot be measured" in Verdict.from_dict(first.verdict).text()
    second = await env.master.maps.measure_next()
    assert second.id == fine.id and Verdict.from_dict(second.verdict).games == 2
    assert await env.master.maps.measure_next() is None


async def test_a_map_deleted_and_made_again_gets_a_number_of_its_own(env):
    """A verdict is written to the map measured: a map made after another was deleted never takes its
    number (a measurement of the deleted one would land on it)."""
    first = await env.master.maps.upload(GUILD, ALICE, "conquest", shipped_file("conquest", "duel"), "Again")
    await env.master.maps.delete(GUILD, "Again", ALICE)
    again = await env.master.maps.upload(GUILD, ALICE, "conquest", shipped_file("conquest", "duel"), "Again")
    assert again.id > first.id
