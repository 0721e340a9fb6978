"""Map previews for the create flow, from a map option value, for any ruleset."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine import MapError, find_ruleset
from engine.ranks.board import SHIPPED
from render.preview import map_preview_png


@pytest.mark.parametrize("name", SHIPPED.names())
def test_every_shipped_ranks_map_previews_at_its_own_table(name):
    rs = find_ruleset("ranks")
    data = map_preview_png(rs, {"map": name})
    with Image.open(io.BytesIO(data)) as picture:
        assert picture.format == "PNG" and picture.width >= 960
    assert data == map_preview_png(rs, {"map": name}, players=SHIPPED.load(name).players)


def test_a_generated_board_and_other_rulesets_preview_too():
    ranks = find_ruleset("ranks")
    assert map_preview_png(ranks, {}, players=3) != map_preview_png(ranks, {}, players=4)
    assert map_preview_png(find_ruleset("fortress"), {"map": "lakes", "mode": 2})


def test_a_map_for_another_table_is_refused():
    with pytest.raises(MapError, match="is for 4 players, not 2"):
        map_preview_png(find_ruleset("ranks"), {"map": "four-corners"}, players=2)
