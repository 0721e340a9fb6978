"""The shared standings: seat status, places, points and turn order (rules/README.md and every
spec), and the games saved by version 1 of each ruleset, which still load with the same result."""

from __future__ import annotations

import json
import pathlib

import pytest

from engine import RULESETS, StateError
from engine.standings import (
    Seat,
    Status,
    departure,
    from_data,
    leave,
    next_to_move,
    outcome,
    position_points,
    ranking,
    seated,
    still_in,
    to_data,
)

SAVED = pathlib.Path(__file__).parent / "saved"
UPGRADED = sorted(name for name, rs in RULESETS.items() if rs.state_version > 1)  # rulesets born at 1 have no old saves


def test_players_still_in_rank_first_by_their_score():
    seats = leave(seated(4), [1], Status.ELIMINATED, "no cells left", turn=9)
    score = {0: 5, 2: 7, 3: 5}
    assert ranking(seats, score.get) == ((2,), (0, 3), (1,))


def test_later_departures_rank_above_earlier_ones_and_one_turn_shares_a_place():
    """Players removed earlier rank below those removed later; players who leave in the same turn
    share their place (and their points)."""
    seats = leave(seated(5), [3], Status.SURRENDERED, "surrender", turn=2)
    seats = leave(seats, [1], Status.REMOVED, "missed turns", turn=6)
    seats = leave(seats, [4, 0], Status.ELIMINATED, "no cells left", turn=6)
    places = ranking(seats, lambda seat: 0)
    assert places == ((2,), (0, 1, 4), (3,))
    assert position_points(places) == {2: 4, 0: 1, 1: 1, 4: 1, 3: 0}
    assert still_in(seats) == [2] and seats[1] == Seat(Status.REMOVED, "missed turns", 6)


def test_a_shared_first_place_is_a_draw():
    result = outcome(seated(3), {0: 2, 1: 2, 2: 1}.get)
    assert result.draw and result.winners == (0, 1) and result.points == {0: 1, 1: 1, 2: 0}
    assert outcome(seated(2), {0: 1, 1: 2}.get).winners == (1,)


def test_the_outcome_says_why_the_game_ended():
    alone = leave(seated(2), [1], Status.SURRENDERED, "surrender", turn=3)
    assert outcome(alone, lambda seat: 0).reason == "the last player standing won"
    assert (
        outcome(leave(seated(2), [0, 1], Status.ELIMINATED, "", turn=3), lambda seat: 0).reason == "no player was left"
    )
    timed = outcome(seated(2), {0: 1, 1: 2}.get, limit="the round limit was reached")
    assert timed.reason == "the round limit was reached"


def test_a_ruleset_adds_its_own_points():
    """Conquest: final position plus one point per round survived."""
    seats = leave(seated(3), [2], Status.SURRENDERED, "surrender", turn=4)
    result = outcome(seats, {0: 1, 1: 3}.get, bonus={0: 10, 1: 10, 2: 3}.get)
    assert result.ranking == ((1,), (0,), (2,)) and result.points == {1: 12, 0: 11, 2: 3}


def test_surrender_is_told_apart_from_removal():
    assert departure("surrender") == Status.SURRENDERED
    assert departure("missed turns") == departure("time ran out") == Status.REMOVED


def test_next_to_move_skips_seats_that_are_out():
    """Alternating games: the next seat after ``s`` among those still in, round the table."""
    seats = leave(seated(4), [1, 2], Status.ELIMINATED, "no cells left", turn=3)
    assert next_to_move(seats, 0) == 3
    assert next_to_move(seats, 3) == 0
    assert next_to_move(seated(4), 1) == 2
    last = leave(seats, [3], Status.SURRENDERED, "surrender", turn=4)
    assert next_to_move(last, 0) == 0
    assert next_to_move(leave(last, [0], Status.REMOVED, "missed turns", turn=5), 0) is None


def test_seats_round_trip_through_json():
    seats = leave(seated(3), [2], Status.SURRENDERED, "surrender", turn=4)
    assert from_data(json.loads(json.dumps(to_data(seats))), "test") == seats


@pytest.mark.parametrize("name", sorted(RULESETS))
@pytest.mark.parametrize(
    "seat",
    [
        {"status": "playing", "reason": None, "left": 3},
        {"status": "surrendered", "reason": "surrender", "left": None},
        {"status": "asleep", "reason": None, "left": None},
        {"status": "removed", "reason": 7, "left": 2},
    ],
)
def test_damaged_seats_are_refused(name, seat):
    rs = RULESETS[name]
    data = rs.to_dict(rs.setup(rs.min_players, {}, seed=1))
    with pytest.raises(StateError):
        rs.from_dict({**data, "players": [seat, *data["players"][1:]]})


@pytest.mark.parametrize("name", UPGRADED)
def test_games_saved_by_version_one_load_with_the_same_result(name):
    """Finished games saved by the version-1 code, with the outcome that code gave them."""
    rs = RULESETS[name]
    saved = json.loads((SAVED / f"{name}-v1.json").read_text(encoding="utf-8"))
    assert saved["state"]["version"] == 1
    state = rs.from_dict(saved["state"])
    result = rs.outcome(state)
    assert [list(group) for group in result.ranking] == saved["ranking"]
    assert {str(seat): points for seat, points in result.points.items()} == saved["points"]
    assert rs.to_dict(state)["version"] == rs.state_version >= 2
    assert rs.from_dict(rs.to_dict(state)) == state


@pytest.mark.parametrize("name", UPGRADED)
def test_damaged_version_one_games_are_refused(name):
    rs = RULESETS[name]
    data = json.loads((SAVED / f"{name}-v1.json").read_text(encoding="utf-8"))["state"]
    # refused by the upgrade where it reads the players (version 1 stored them otherwise), else by the loader
    with pytest.raises(StateError, match=f"^{name} state (version 1 is damaged|is damaged: players is missing)"):
        rs.from_dict({key: value for key, value in data.items() if key != "players"})
    with pytest.raises(StateError):
        rs.from_dict({**data, "players": [["garbage"]]})
