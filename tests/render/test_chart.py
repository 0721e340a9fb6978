"""The rating chart names the games at the ends of its lines."""

from __future__ import annotations

import pytest

from render import chart


def game_labels(monkeypatch, series) -> list[tuple[str, float]]:
    """The "game N" labels the chart draws, with the x of their anchor."""
    drawn = []
    draw = chart.text.draw

    def recording(canvas, at, words, *args, **kwargs):
        if words.startswith("game "):
            drawn.append((words, at[0], kwargs.get("anchor")))
        return draw(canvas, at, words, *args, **kwargs)

    monkeypatch.setattr(chart.text, "draw", recording)
    chart.rating_chart("Alice", series)
    return drawn


def test_a_one_game_chart_names_its_one_game_once_under_its_point(monkeypatch):
    [(words, x, anchor)] = game_labels(monkeypatch, {"conquest": [25.0]})
    assert words == "game 1" and anchor == "mm"
    assert x == pytest.approx(chart.LEFT + (chart.WIDTH - chart.LEFT - chart.RIGHT) / 2)


def test_a_longer_chart_names_its_first_and_last_games_at_the_ends(monkeypatch):
    labels = game_labels(monkeypatch, {"conquest": [25.0, 26.5, 24.0], "gra": [25.0, 27.0]})
    assert [words for words, _, _ in labels] == ["game 1", "game 3"]
    assert labels[0][1] == chart.LEFT and labels[1][1] == chart.WIDTH - chart.RIGHT
