""" "Fuzz: … random and mutated map files per ruleset through the upload path: 0 unexpected exceptions
… every refusal a clear message." (``bench/bench_map_fuzz.py`` runs 10,000 per ruleset, timed.)"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.mapfiles import map_file
from engine import RULESETS
from service.errors import GameError
from service.ops.maps import checked


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
@settings(max_examples=150, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32))
def test_a_mutated_map_file_is_a_map_or_a_clear_refusal(ruleset, seed):
    rs = RULESETS[ruleset]
    content = map_file(rs, random.Random(seed))
    try:
        name, data, seats = checked(rs, content, None, "fuzz.txt")
    except GameError as refusal:
        said = str(refusal)
        assert said and "Traceback" not in said and len(said) < 1000, said
        return
    assert name == data["name"] and name and seats and all(rs.min_players <= n <= rs.max_players for n in seats)
