"""Every registered ruleset, played to the end by seeded random drivers.

Each round: the state survives JSON and ``from_dict``; resolving or removing a player never mutates its input;
orders print and parse back to themselves; acting players and the outcome agree. At the end the
recorded history replays to the same final state.
"""

from __future__ import annotations

import json

import pytest

from engine import RULESETS
from engine.rng import Rng

MAX_STEPS = 400


def _play(rs, seed: int):
    rng = Rng(seed)
    players = rs.min_players + rng.below(rs.max_players - rs.min_players + 1)
    options = {"round_limit": 150} if any(o.name == "round_limit" for o in rs.options_schema()) else {}
    initial = state = rs.setup(players, options, seed=seed)
    weakest = rs.bot_levels[0].name  # the quickest to think: these games check the rules, not the bots
    history = []
    for _ in range(MAX_STEPS):
        acting = rs.acting_players(state)
        assert (rs.outcome(state) is None) == bool(acting)
        if not acting:
            break
        if rng.chance(1, 40):
            seat = rng.choice(sorted(acting))
            step = ("remove", seat, rng.choice(["surrender", "missed turns"]))
        else:
            texts = {}
            for seat in sorted(acting):
                if rng.chance(1, 8):
                    continue  # this seat missed the deadline
                orders = (
                    rs.ai_orders(state, seat, seed, level=weakest)
                    if rng.chance(4, 5)
                    else rs.default_orders(state, seat)
                )
                texts[seat] = rs.format_orders(orders)
                assert rs.parse_orders(state, seat, texts[seat]) == orders
            step = ("resolve", texts)
        state = _apply(rs, state, step)
        data = json.loads(json.dumps(rs.to_dict(state)))
        assert rs.from_dict(data) == state
        history.append(step)
    assert rs.outcome(state) is not None, f"{rs.name} seed {seed} did not finish in {MAX_STEPS} steps"
    return initial, history, state


def _apply(rs, state, step):
    """One recorded step (a resolve or a removal), checking that it leaves its input state as it was."""
    before = rs.to_dict(state)
    if step[0] == "remove":
        after = rs.remove_player(state, step[1], step[2]).state
    else:
        after = rs.resolve(state, {s: rs.parse_orders(state, s, t) for s, t in step[1].items()}).state
    assert rs.to_dict(state) == before, f"{step[0]} mutated its input"
    return after


def _replay(rs, initial, history):
    state = initial
    for step in history:
        state = _apply(rs, state, step)
    return state


@pytest.mark.parametrize("name", sorted(RULESETS))
@pytest.mark.parametrize("seed", range(6))
def test_random_games_finish_round_trip_and_replay(name, seed):
    rs = RULESETS[name]
    initial, history, final = _play(rs, seed)
    assert _replay(rs, initial, history) == final
    outcome = rs.outcome(final)
    seats = {seat for group in outcome.ranking for seat in group}
    assert seats == set(range(len(outcome.points)))
    assert set(outcome.winners) == set(outcome.ranking[0])


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_setup_is_seeded(name):
    rs = RULESETS[name]
    assert rs.to_dict(rs.setup(rs.min_players, {}, seed=5)) == rs.to_dict(rs.setup(rs.min_players, {}, seed=5))


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_damaged_state_is_refused(name):
    from engine import StateError

    rs = RULESETS[name]
    data = rs.to_dict(rs.setup(rs.min_players, {}, seed=1))
    with pytest.raises(StateError, match="not"):
        rs.from_dict({**data, "ruleset": "other"})
    with pytest.raises(StateError):
        rs.from_dict({**data, "version": 99})
    for key in data:
        if key in ("ruleset", "version"):
            continue
        with pytest.raises(StateError):
            rs.from_dict({k: v for k, v in data.items() if k != key})
        with pytest.raises(StateError):
            rs.from_dict({**data, key: [["garbage"]]})


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_a_resolve_that_mutates_its_input_is_caught(name, monkeypatch):
    """The check above can fail: a resolve that writes into the frozen input state is reported."""
    rs = RULESETS[name]
    honest = rs.resolve

    def mutating(state, orders):
        result = honest(state, orders)
        object.__setattr__(state, "rng", state.rng + 1)
        return result

    state = rs.setup(rs.min_players, {}, seed=3)
    _apply(rs, state, ("resolve", {}))
    monkeypatch.setattr(rs, "resolve", mutating)
    with pytest.raises(AssertionError, match="resolve mutated its input"):
        _apply(rs, state, ("resolve", {}))
