"""A ruleset without an evaluation of its own: its computers judge a position by the standing."""

from __future__ import annotations

from dataclasses import replace

from tests.plugin.tug import RULESET


def test_a_ruleset_without_an_evaluation_of_its_own_goes_by_the_standing():
    """Alone in first place: ahead (1); sharing it: even (0); below it: behind (-1)."""
    rs = RULESET
    state = replace(rs.setup(3, {}, seed=1), scores=(4, 4, 2))
    assert [rs.bot_evaluation(state, seat) for seat in range(3)] == [0.0, 0.0, -1.0]
    state = replace(state, scores=(5, 4, 2))
    assert [rs.bot_evaluation(state, seat) for seat in range(3)] == [1.0, -1.0, -1.0]
