"""`python bot.py demo`: a whole offline game, every round's image decodable, a summary with the result."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import bot


def test_demo_writes_a_full_game(tmp_path, capsys):
    assert bot.main(["demo", "--players", "3", "--seed", "2", "--out", str(tmp_path)]) == 0
    rounds = sorted(tmp_path.glob("round-*.png"))
    summary = (tmp_path / "summary.txt").read_text(encoding="utf-8")
    assert len(rounds) >= 3
    assert "Winner:" in summary or "Draw between" in summary
    assert summary.count("resolved.") == len(rounds) - 1  # one image per round, plus the start
    for path in [*rounds, *tmp_path.glob("private-*.png")]:
        with Image.open(io.BytesIO(path.read_bytes())) as image:
            assert image.format == "PNG" and image.width > 300
    assert "rounds;" in capsys.readouterr().out


@pytest.mark.parametrize("ruleset", ["fortress", "gra"])
def test_demo_plays_every_ruleset(tmp_path, ruleset):
    assert bot.main(["demo", "--ruleset", ruleset, "--players", "2", "--seed", "4", "--out", str(tmp_path)]) == 0
    summary = (tmp_path / "summary.txt").read_text(encoding="utf-8")
    assert "Winner:" in summary or "Draw between" in summary
    assert len(list(tmp_path.glob("round-*.png"))) >= 3


def test_demo_reports_bad_arguments(tmp_path, capsys):
    assert bot.main(["demo", "--ruleset", "chess", "--out", str(tmp_path)]) == 2
    assert "unknown ruleset 'chess'" in capsys.readouterr().err
