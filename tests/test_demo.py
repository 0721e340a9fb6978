"""`python bot.py demo`: a whole offline game, every round's image decodable, a summary with the result."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import bot
from engine import RULESETS


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_demo_plays_a_full_game_of_every_ruleset_at_its_default_table(tmp_path, capsys, ruleset):
    """README: `python bot.py demo --ruleset fortress --seed 7` (and the same for every game)."""
    assert bot.main(["demo", "--ruleset", ruleset, "--seed", "7", "--out", str(tmp_path)]) == 0
    rounds = sorted(tmp_path.glob("round-*.png"))
    summary = (tmp_path / "summary.txt").read_text(encoding="utf-8")
    assert f"{RULESETS[ruleset].default_players} computer players (Hard)" in summary.splitlines()[0]
    assert len(rounds) >= 3
    assert "Winner:" in summary or "Draw between" in summary
    assert summary.count("resolved.") == len(rounds) - 1  # one image per round, plus the start
    for path in [*rounds, *tmp_path.glob("private-*.png")]:
        with Image.open(io.BytesIO(path.read_bytes())) as image:
            assert image.format == "PNG" and image.width > 300
    with Image.open(result_replay := next(tmp_path.glob("replay.*"))) as replay:
        assert replay.format in ("GIF", "WEBP") and replay.is_animated and replay.n_frames == min(len(rounds), 120)
        assert replay.width <= 640 and result_replay.stat().st_size <= 10 * 1024 * 1024
    printed = capsys.readouterr().out
    unit = {"conquest": "rounds", "fortress": "moves", "gra": "move phases", "ranks": "turns", "siege": "turns"}[
        ruleset
    ]
    assert f" {unit}" in printed.split(";")[0] and f"{result_replay.name} in" in printed


def test_the_computers_play_at_the_level_asked_for(tmp_path, capsys, monkeypatch):
    rs = RULESETS["fortress"]
    asked = []
    play = type(rs).ai_orders

    def spied(self, state, seat, seed, *, level=None, budget=None):
        asked.append(level)
        return play(self, state, seat, seed, level=level, budget=budget)

    monkeypatch.setattr(type(rs), "ai_orders", spied)
    assert bot.main(["demo", "--ruleset", "fortress", "--level", "Easy", "--out", str(tmp_path)]) == 0
    assert "2 computer players (Easy)" in (tmp_path / "summary.txt").read_text(encoding="utf-8")
    assert asked and set(asked) == {"Easy"}


def test_an_unknown_level_is_refused_with_the_known_ones_before_anything_is_written(tmp_path, capsys):
    assert bot.main(["demo", "--ruleset", "fortress", "--level", "Grandmaster", "--out", str(tmp_path / "out")]) == 2
    assert "no computer level 'Grandmaster'; levels: Easy, Medium, Hard, Extreme" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_an_impossible_table_fails_with_a_reason(tmp_path, capsys):
    assert bot.main(["demo", "--ruleset", "fortress", "--players", "3", "--out", str(tmp_path)]) == 2
    assert "Fortress is played by 2 players, not 3" in capsys.readouterr().err


def test_an_unfinished_game_is_a_failed_demo(tmp_path, capsys):
    assert bot.main(["demo", "--ruleset", "fortress", "--max-steps", "2", "--out", str(tmp_path)]) == 1
    assert "did not finish within 2 turns" in capsys.readouterr().err


def test_demo_reports_bad_arguments(tmp_path, capsys):
    assert bot.main(["demo", "--ruleset", "chess", "--out", str(tmp_path)]) == 2
    assert "unknown ruleset 'chess'" in capsys.readouterr().err
